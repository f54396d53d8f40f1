/* SPDX-License-Identifier: MIT */
/*
 * The one JSON writer of rpcsim, rpcsim-analyze and pagebench, on top of
 * json-c (common/json.c): one document, built call by call and printed
 * by json_finish() in json-c's pretty layout (two-space indentation,
 * "key": value).  Strings are valid UTF-8 (each invalid byte becomes
 * U+FFFD) with control characters escaped; no NaN or infinity: a
 * non-finite number is written as null.
 */
#ifndef PP_COMMON_JSON_H
#define PP_COMMON_JSON_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define JSON_DEPTH_MAX	32

struct json_object;	/* json-c's; callers need not include it */

struct json {
	FILE *f;
	unsigned int depth;
	struct json_object *root;		/* the document so far */
	struct json_object *nest[JSON_DEPTH_MAX]; /* the open ones */
};

/* key is the member name inside an object, NULL inside an array */
void json_init(struct json *j, FILE *f);
void json_object_begin(struct json *j, const char *key);
void json_object_end(struct json *j);
void json_array_begin(struct json *j, const char *key);
void json_array_end(struct json *j);
void json_string(struct json *j, const char *key, const char *v);
void json_uint(struct json *j, const char *key, uint64_t v);
void json_int(struct json *j, const char *key, int64_t v);
/* A fixed number of decimals (report figures). */
void json_double(struct json *j, const char *key, double v, int decimals);
/* Up to ten significant digits (measured values, ratios). */
void json_number(struct json *j, const char *key, double v);
void json_bool(struct json *j, const char *key, bool v);
void json_null(struct json *j, const char *key);
/*
 * @key as an object, begun (the caller fills and ends it), when
 * @present; else as null, the way a member is written that a document
 * may hold as null when there is nothing to say (a run without its
 * run_start, a result outside a sweep).  Returns @present.
 */
bool json_object_or_null(struct json *j, const char *key, bool present);
/*
 * @v written as its C type says: a string (NULL: null) or a count; for
 * the writers that expand an object of common/result_schema.h over a
 * struct's fields (RESULT_JSON_FIELD).  Another type does not compile.
 */
#define json_value(j, key, v)						\
	_Generic((v),							\
		 char *: json_string,					\
		 const char *: json_string,				\
		 uint64_t: json_uint)(j, key, v)
/* Print the document (a newline after it) and free it. */
void json_finish(struct json *j);

#endif /* PP_COMMON_JSON_H */
