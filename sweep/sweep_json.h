/* SPDX-License-Identifier: MIT */
/*
 * libsweep's own: typed look-ups of a json-c object's members, shared by
 * the rpcsim table (table_read.c), the pagebench one
 * (sweep_pagebench.c) and rpcsim's check of a point's file before it
 * resumes (rpcsim/sweep.c).
 * Each says "absent" (NULL, false) for a missing member or one of another
 * type, so that a reader checks a file in one place; sweep_get_count()
 * and sweep_get_figure() check one and say what is wrong with it.  What
 * json-c does with an integer it cannot hold is told here too, for
 * rpcsim-compare's other reader as well (compare/schema.c).
 */
#ifndef PP_COMMON_SWEEP_JSON_H
#define PP_COMMON_SWEEP_JSON_H

#include <math.h>
#include <stdarg.h>
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
static inline struct json_object *sweep_load_doc(const char *prog,
						 const char *path)
{
	char err[256];
	struct json_object *root = sweep_read_json(path, err, sizeof(err));

	if (!root)
		fprintf(stderr, "%s: %s: %s\n", prog, path, err);
	return root;
}

static inline const char *sweep_get_str(struct json_object *o,
					const char *key)
{
	struct json_object *v;

	if (!o || !json_object_object_get_ex(o, key, &v) ||
	    !json_object_is_type(v, json_type_string))
		return NULL;
	return json_object_get_string(v);
}

static inline struct json_object *sweep_get_obj(struct json_object *o,
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
static inline int sweep_json_int_beyond(struct json_object *v)
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
static inline const char *sweep_json_shown(struct json_object *v, char *buf,
					   size_t len)
{
	int beyond = sweep_json_int_beyond(v);

	snprintf(buf, len, "%s%s", v ? json_object_to_json_string_ext(v,
			JSON_C_TO_STRING_PLAIN) : "null",
		 beyond > 0 ? " or more" : beyond < 0 ? " or less" : "");
	return buf;
}

/*
 * A change in percent as the tables print it: "+3.4%"; from a billion
 * percent on, in three digits ("+1.23e+11%"), so that a cell stays short
 * whatever the figures the readers take; "-" when it is beyond a double
 * (a base too near 0).
 */
static inline void sweep_change_text(char *buf, size_t len, double pct)
{
	if (!isfinite(pct))
		snprintf(buf, len, "-");
	else if (fabs(pct) < 1e9)
		snprintf(buf, len, "%+.1f%%", pct);
	else
		snprintf(buf, len, "%+.3g%%", pct);
}

/*
 * The checks of a result file's members, each fault one line naming the
 * file and the JSON path (sweep_refuse()): the rpcsim points' and the
 * pagebench files' alike.
 */

/*
 * Why @path is not what its reader takes (a point of the sweep, a
 * pagebench result): "PROG: PATH: FIELD: why", one line.  Returns -1.
 */
__attribute__((format(printf, 3, 4)))
static inline int sweep_refuse(const char *prog, const char *path,
			       const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: %s: ", prog, path);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return -1;
}

/*
 * Is @v an integer in [@lo, @hi]?  Not one json-c clamped, nor one above
 * INT64_MAX (json_object_get_int64() would give INT64_MAX for it).
 */
static inline bool sweep_int_within(struct json_object *v, int64_t lo,
				    int64_t hi)
{
	int64_t i;

	if (!json_object_is_type(v, json_type_int) || sweep_json_int_beyond(v))
		return false;
	i = json_object_get_int64(v);
	return !(i == INT64_MAX && json_object_get_uint64(v) > INT64_MAX) &&
	       i >= lo && i <= hi;
}

/*
 * Member @key of @o as an integer in [@lo, @hi], @where the path to @o
 * ("modes[0].", or ""): 0, or -1 (said).
 */
static inline int sweep_get_count(const char *prog, const char *path,
				  const char *where, struct json_object *o,
				  const char *key, int64_t lo, int64_t hi,
				  int64_t *out)
{
	struct json_object *v;
	char shown[96];

	if (!json_object_object_get_ex(o, key, &v) || !v)
		return sweep_refuse(prog, path, "%s%s: missing: expected an "
				    "integer %lld to %lld", where, key,
				    (long long)lo, (long long)hi);
	if (!sweep_int_within(v, lo, hi))
		return sweep_refuse(prog, path, "%s%s: %s: expected an "
				    "integer %lld to %lld", where, key,
				    sweep_json_shown(v, shown, sizeof(shown)),
				    (long long)lo, (long long)hi);
	*out = json_object_get_int64(v);
	return 0;
}

/*
 * @v, the value at @where@key (an array's item: @key "[3]"), as a finite
 * number in [0, @hi]: 0, or -1 (said).
 */
static inline int sweep_figure_of(const char *prog, const char *path,
				  const char *where, const char *key,
				  struct json_object *v, double hi, double *out)
{
	char shown[96];
	double d;

	if (!v)
		return sweep_refuse(prog, path, "%s%s: null: expected a number",
				    where, key);
	if (!json_object_is_type(v, json_type_int) &&
	    !json_object_is_type(v, json_type_double))
		return sweep_refuse(prog, path, "%s%s: %s: not a number",
				    where, key,
				    json_object_to_json_string_ext(v,
						JSON_C_TO_STRING_PLAIN));
	d = json_object_get_double(v);
	if (!isfinite(d) || d < 0 || d > hi || sweep_json_int_beyond(v))
		return sweep_refuse(prog, path, "%s%s: %s: expected a finite "
				    "number 0 to %g", where, key,
				    sweep_json_shown(v, shown, sizeof(shown)),
				    hi);
	*out = d;
	return 0;
}

/*
 * A result file cut short by a signal ("interrupted": true) is no result,
 * whatever --partial says: refused, naming the signal and @why (which
 * tool writes no such file); "interrupted" that is not true or false is
 * refused too.  0, or -1 (said).
 */
static inline int sweep_refuse_interrupted(const char *prog, const char *path,
					   struct json_object *root,
					   const char *why)
{
	struct json_object *intr = NULL;

	if (json_object_object_get_ex(root, "interrupted", &intr) &&
	    !json_object_is_type(intr, json_type_boolean))
		return sweep_refuse(prog, path, "interrupted: %s: expected "
				    "true or false",
				    json_object_to_json_string_ext(intr,
						JSON_C_TO_STRING_PLAIN));
	if (intr && json_object_get_boolean(intr)) {
		const char *sig = sweep_get_str(root, "signal");

		return sweep_refuse(prog, path, "interrupted: a run cut "
				    "short by %s, not %s",
				    sig ? sig : "a signal", why);
	}
	return 0;
}

/*
 * Member @key of @o as a finite number in [0, @hi] (null too with
 * @null_ok: *@out is then NaN): 0, or -1 (said).
 */
static inline int sweep_get_figure(const char *prog, const char *path,
				   const char *where, struct json_object *o,
				   const char *key, double hi, bool null_ok,
				   double *out)
{
	struct json_object *v;

	if (!json_object_object_get_ex(o, key, &v))
		return sweep_refuse(prog, path, "%s%s: missing: expected a "
				    "number", where, key);
	if (!v && null_ok) {
		*out = NAN;
		return 0;
	}
	return sweep_figure_of(prog, path, where, key, v, hi, out);
}

#endif /* PP_COMMON_SWEEP_JSON_H */
