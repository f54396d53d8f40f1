/* SPDX-License-Identifier: MIT */
/*
 * A small streaming JSON writer: objects, arrays, strings (escaped),
 * integers and doubles (non-finite ones become null, which JSON has no
 * other spelling for).  Output is indented by two spaces per level.
 *
 * Every value function takes a @key: the member name inside an object,
 * NULL inside an array or at the top level.
 */
#ifndef RPCSIM_JSON_H
#define RPCSIM_JSON_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define JSON_MAX_DEPTH	16

struct json {
	FILE *out;
	unsigned int depth;
	bool first[JSON_MAX_DEPTH];	/* no member written yet at this level */
};

void json_init(struct json *j, FILE *out);
void json_object_begin(struct json *j, const char *key);
void json_object_end(struct json *j);
void json_array_begin(struct json *j, const char *key);
void json_array_end(struct json *j);
void json_string(struct json *j, const char *key, const char *val);
void json_u64(struct json *j, const char *key, uint64_t val);
void json_i64(struct json *j, const char *key, int64_t val);
void json_double(struct json *j, const char *key, double val);
void json_bool(struct json *j, const char *key, bool val);
void json_null(struct json *j, const char *key);
/* Ends the document with a newline; the writer must be back at depth 0. */
void json_finish(struct json *j);

#endif /* RPCSIM_JSON_H */
