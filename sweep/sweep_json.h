/* SPDX-License-Identifier: MIT */
/*
 * libsweep's own: typed look-ups of a json-c object's members, shared by
 * the rpcsim table (sweep.c) and the pagebench one (sweep_pagebench.c).
 * Each says "absent" (NULL, false) for a missing member or one of another
 * type, so that a reader checks a file in one place.  What json-c does
 * with an integer it cannot hold is told here too, for rpcsim-compare's
 * other reader as well (compare/schema.c).
 */
#ifndef PP_COMMON_SWEEP_JSON_H
#define PP_COMMON_SWEEP_JSON_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <json-c/json.h>

/*
 * sweep_read_json() - @path's document: read as files.h reads an input
 * file (not blocking, a regular file, at most FILE_READ_MAX bytes) and
 * parsed strictly (no NaN, no trailing text).  NULL with @err saying
 * why ("not a regular file (a FIFO)", "not JSON: the document ends
 * early (truncated?)") and errno ENOENT when there is no such file.
 */
struct json_object *sweep_read_json(const char *path, char *err,
				    size_t errlen);

/* @path's document, or NULL said as "PROG: PATH: why". */
static inline struct json_object *load_doc(const char *prog, const char *path)
{
	char err[256];
	struct json_object *root = sweep_read_json(path, err, sizeof(err));

	if (!root)
		fprintf(stderr, "%s: %s: %s\n", prog, path, err);
	return root;
}

static inline const char *get_str(struct json_object *o, const char *key)
{
	struct json_object *v;

	if (!o || !json_object_object_get_ex(o, key, &v) ||
	    !json_object_is_type(v, json_type_string))
		return NULL;
	return json_object_get_string(v);
}

static inline struct json_object *get_obj(struct json_object *o,
					  const char *key,
					  enum json_type type)
{
	struct json_object *v;

	if (!o || !json_object_object_get_ex(o, key, &v) ||
	    !json_object_is_type(v, type))
		return NULL;
	return v;
}

/*
 * Is @v an integer json-c could not hold?  json-c (0.15 and later) reads
 * an integer beyond its range as the nearest it holds, UINT64_MAX above
 * 2^64 - 1 and INT64_MIN below -2^63 (strtoull()'s and strtoll()'s clamp;
 * the ERANGE is not kept with the value), so that "calls": 10^30 would
 * pass for 18446744073709551615.  Those two values are taken for such a
 * clamp: no count of the tools comes near them.  1 above, -1 below, 0
 * when @v is no such integer.
 */
static inline int json_int_beyond(struct json_object *v)
{
	if (!json_object_is_type(v, json_type_int))
		return 0;
	if (json_object_get_int64(v) == INT64_MIN)
		return -1;
	return json_object_get_uint64(v) == UINT64_MAX;
}

/*
 * @v as a message shows it, in @buf: its JSON text, and for an integer
 * json-c could not hold, the bound it was clamped to with "or more" ("or
 * less"): the number written is not known.
 */
static inline const char *json_shown(struct json_object *v, char *buf,
				     size_t len)
{
	int beyond = json_int_beyond(v);

	snprintf(buf, len, "%s%s", v ? json_object_to_json_string_ext(v,
			JSON_C_TO_STRING_PLAIN) : "null",
		 beyond > 0 ? " or more" : beyond < 0 ? " or less" : "");
	return buf;
}

static inline bool get_num(struct json_object *o, const char *key,
			   double *out)
{
	struct json_object *v;

	if (!o || !json_object_object_get_ex(o, key, &v) ||
	    !(json_object_is_type(v, json_type_double) ||
	      json_object_is_type(v, json_type_int)))
		return false;
	*out = json_object_get_double(v);
	return true;
}

#endif /* PP_COMMON_SWEEP_JSON_H */
