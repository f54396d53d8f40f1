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

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

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
struct json_object *sweep_load_doc(const char *prog, const char *path);

const char *sweep_get_str(struct json_object *o, const char *key);

struct json_object *sweep_get_obj(struct json_object *o, const char *key,
				  enum json_type type);

/*
 * Is @v an integer json-c could not hold?  json-c (0.15 and later) reads
 * an integer beyond its range as the nearest it holds, UINT64_MAX above
 * 2^64 - 1 and INT64_MIN below -2^63 (strtoull()'s and strtoll()'s clamp;
 * the ERANGE is not kept with the value), so that "calls": 10^30 would
 * pass for 18446744073709551615.  Those two values are taken for such a
 * clamp: no count of the tools comes near them.  1 above, -1 below, 0
 * when @v is no such integer.
 */
int sweep_json_int_beyond(struct json_object *v);

/*
 * @v as a message shows it, in @buf: its JSON text, and for an integer
 * json-c could not hold, the bound it was clamped to with "or more" ("or
 * less"): the number written is not known.
 */
const char *sweep_json_shown(struct json_object *v, char *buf, size_t len);

/*
 * A change in percent as the tables print it: "+3.4%"; from a billion
 * percent on, in three digits ("+1.23e+11%"), so that a cell stays short
 * whatever the figures the readers take; "-" when it is beyond a double
 * (a base too near 0).
 */
void sweep_change_text(char *buf, size_t len, double pct);

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
int sweep_refuse(const char *prog, const char *path, const char *fmt, ...);

/*
 * Is @v an integer in [@lo, @hi]?  Not one json-c clamped, nor one above
 * INT64_MAX (json_object_get_int64() would give INT64_MAX for it).
 */
bool sweep_int_within(struct json_object *v, int64_t lo, int64_t hi);

/*
 * Member @key of @o as an integer in [@lo, @hi], @where the path to @o
 * ("modes[0].", or ""): 0, or -1 (said).
 */
int sweep_get_count(const char *prog, const char *path, const char *where,
		    struct json_object *o, const char *key, int64_t lo,
		    int64_t hi, int64_t *out);

/*
 * @v, the value at @where@key (an array's item: @key "[3]"), as a finite
 * number in [0, @hi]: 0, or -1 (said).
 */
int sweep_figure_of(const char *prog, const char *path, const char *where,
		    const char *key, struct json_object *v, double hi,
		    double *out);

/*
 * A result file cut short by a signal ("interrupted": true) is no result,
 * whatever --partial says: refused, naming the signal and @why (which
 * tool writes no such file); "interrupted" that is not true or false is
 * refused too.  0, or -1 (said).
 */
int sweep_refuse_interrupted(const char *prog, const char *path,
			     struct json_object *root, const char *why);

/*
 * Member @key of @o as a finite number in [0, @hi] (null too with
 * @null_ok: *@out is then NaN): 0, or -1 (said).
 */
int sweep_get_figure(const char *prog, const char *path, const char *where,
		     struct json_object *o, const char *key, double hi,
		     bool null_ok, double *out);

#endif /* PP_COMMON_SWEEP_JSON_H */
