/* SPDX-License-Identifier: MIT */
/*
 * Minimal JSON emitter shared by rpcsim and rpcsim-analyze: one document,
 * pretty-printed, strings escaped (control characters as \uXXXX, invalid
 * UTF-8 as U+FFFD), and no NaN or infinity: a non-finite number is written
 * as null.
 */
#ifndef PP_COMMON_JSON_H
#define PP_COMMON_JSON_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define JSON_DEPTH_MAX	32

struct json {
	FILE *f;
	unsigned int depth;
	bool first[JSON_DEPTH_MAX];
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
/* Finish the document (a newline after the top-level value). */
void json_finish(struct json *j);

#endif /* PP_COMMON_JSON_H */
