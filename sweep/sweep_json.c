/* SPDX-License-Identifier: MIT */
/*
 * The typed look-ups and the checks of sweep_json.h, which says what each
 * does: one copy in libsweep for its readers (table_read.c,
 * sweep_pagebench.c, sweep.c, table_print.c), rpcsim/sweep.c and
 * rpcsim-compare's compare/schema.c.
 */
#include <config.h>

#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <json-c/json.h>

#include "sweep_json.h"

struct json_object *sweep_load_doc(const char *prog, const char *path)
{
	char err[256];
	struct json_object *root = sweep_read_json(path, err, sizeof(err));

	if (!root)
		fprintf(stderr, "%s: %s: %s\n", prog, path, err);
	return root;
}

const char *sweep_get_str(struct json_object *o, const char *key)
{
	struct json_object *v;

	if (!o || !json_object_object_get_ex(o, key, &v) ||
	    !json_object_is_type(v, json_type_string))
		return NULL;
	return json_object_get_string(v);
}

struct json_object *sweep_get_obj(struct json_object *o, const char *key,
				  enum json_type type)
{
	struct json_object *v;

	if (!o || !json_object_object_get_ex(o, key, &v) ||
	    !json_object_is_type(v, type))
		return NULL;
	return v;
}

int sweep_json_int_beyond(struct json_object *v)
{
	if (!json_object_is_type(v, json_type_int))
		return 0;
	if (json_object_get_int64(v) == INT64_MIN)
		return -1;
	return json_object_get_uint64(v) == UINT64_MAX;
}

const char *sweep_json_shown(struct json_object *v, char *buf, size_t len)
{
	int beyond = sweep_json_int_beyond(v);

	snprintf(buf, len, "%s%s", v ? json_object_to_json_string_ext(v,
			JSON_C_TO_STRING_PLAIN) : "null",
		 beyond > 0 ? " or more" : beyond < 0 ? " or less" : "");
	return buf;
}

void sweep_change_text(char *buf, size_t len, double pct)
{
	if (!isfinite(pct))
		snprintf(buf, len, "-");
	else if (fabs(pct) < 1e9)
		snprintf(buf, len, "%+.1f%%", pct);
	else
		snprintf(buf, len, "%+.3g%%", pct);
}

int sweep_refuse(const char *prog, const char *path, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: %s: ", prog, path);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return -1;
}

bool sweep_int_within(struct json_object *v, int64_t lo, int64_t hi)
{
	int64_t i;

	if (!json_object_is_type(v, json_type_int) || sweep_json_int_beyond(v))
		return false;
	i = json_object_get_int64(v);
	return !(i == INT64_MAX && json_object_get_uint64(v) > INT64_MAX) &&
	       i >= lo && i <= hi;
}

int sweep_get_count(const char *prog, const char *path, const char *where,
		    struct json_object *o, const char *key, int64_t lo,
		    int64_t hi, int64_t *out)
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

int sweep_figure_of(const char *prog, const char *path, const char *where,
		    const char *key, struct json_object *v, double hi,
		    double *out)
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

int sweep_refuse_interrupted(const char *prog, const char *path,
			     struct json_object *root, const char *why)
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

int sweep_get_figure(const char *prog, const char *path, const char *where,
		     struct json_object *o, const char *key, double hi,
		     bool null_ok, double *out)
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
