/* SPDX-License-Identifier: MIT */
/*
 * Sweeps: read the result files of an rpcsim sweep's points into a table
 * (table.h): the grid of the first file, then a row per point, each
 * checked to be a point of that grid, run with the same settings by the
 * same consumer.  See sweep.h.
 */
#include <config.h>

#include <limits.h>
#include <stdint.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "result_schema.h"
#include "sweep_json.h"
#include "table.h"
#include "tool.h"

/*
 * What a result file may hold: rpcsim's own bounds (rpcsim/options.h,
 * options_internal.h) for the grid; for the figures, what no run can
 * measure (result_schema.h, as rpcsim-compare's other reader).
 */
/* RPCSIM_SWEEP_MAX_KEYS: every key rpcsim sweeps, each once */
#define SWEEP_KEYS_MAX		12
#define SWEEP_POINTS_MAX	100000

const char *const table_mode_names[NR_MODES] = { "single", "list", "array" };

/* A value and where it stands, for first_repeat(). */
struct at {
	const char *s;
	unsigned int i;
};

static int cmp_at(const void *a, const void *b)
{
	const struct at *x = a, *y = b;
	int c = strcmp(x->s, y->s);

	return c ? c : x->i < y->i ? -1 : x->i > y->i;
}

/*
 * The first of the @n values that repeats one before it, or -1: sorted,
 * not pair by pair, for a key of rpcsim's up to 100000 values.
 */
static int first_repeat(char *const *values, unsigned int n)
{
	struct at *v = xcalloc(n ? n : 1, sizeof(*v));
	int first = -1;

	for (unsigned int k = 0; k < n; k++)
		v[k] = (struct at){ values[k], k };
	qsort(v, n, sizeof(*v), cmp_at);
	for (unsigned int k = 1; k < n; k++)
		if (!strcmp(v[k - 1].s, v[k].s) &&
		    (k < 2 || strcmp(v[k - 2].s, v[k].s)) &&
		    (first < 0 || v[k].i < (unsigned int)first))
			first = (int)v[k].i;
	free(v);
	return first;
}

/*
 * The grid of the first file: its keys and their values, each key and
 * each value of a key once, so that every point has one row.
 */
static int grid_read(struct table *t, const char *prog, const char *path,
		     struct json_object *keys)
{
	size_t n = json_object_array_length(keys);

	if (!n || n > SWEEP_KEYS_MAX)
		return sweep_refuse(prog, path, "sweep.keys: %zu keys: "
				    "expected 1 to %d", n, SWEEP_KEYS_MAX);
	t->keys = xcalloc(n, sizeof(*t->keys));
	for (size_t i = 0; i < n; i++) {
		struct json_object *k = json_object_array_get_idx(keys, i);
		struct json_object *vals = sweep_get_obj(k, "values",
							 json_type_array);
		const char *name = sweep_get_str(k, "key");
		size_t nv = vals ? json_object_array_length(vals) : 0;
		int dup;

		if (!name || !*name || !vals || !nv)
			return sweep_refuse(prog, path, "sweep.keys[%zu]: "
					    "expected {\"key\": NAME, "
					    "\"values\": [V1, ...]} with at "
					    "least one value", i);
		for (unsigned int j = 0; j < t->nr_keys; j++)
			if (!strcmp(t->keys[j].name, name))
				return sweep_refuse(prog, path,
						    "sweep.keys[%zu].key: '%s' "
						    "given twice", i, name);
		t->keys[i].name = xstrdup(name);
		t->keys[i].values = xcalloc(nv + 1, sizeof(char *));
		t->nr_keys++;
		for (unsigned int v = 0; v < nv; v++) {
			struct json_object *jv =
				json_object_array_get_idx(vals, v);
			const char *s = json_object_is_type(jv,
				json_type_string) ? json_object_get_string(jv) :
				NULL;

			if (!s || !*s)
				return sweep_refuse(prog, path,
						    "sweep.keys[%zu].values[%u]"
						    ": expected a non-empty "
						    "string", i, v);
			t->keys[i].values[t->keys[i].nr++] = xstrdup(s);
		}
		dup = first_repeat(t->keys[i].values, t->keys[i].nr);
		if (dup >= 0)
			return sweep_refuse(prog, path,
					    "sweep.keys[%zu].values[%d]: "
					    "'%s' given twice", i, dup,
					    t->keys[i].values[dup]);
		if (!strcmp(name, "pcp")) {
			t->pcp_swept = true;
			t->pcp_key = (unsigned int)i;
		}
	}
	return 0;
}

/* The number of points of @t's grid (at most SWEEP_POINTS_MAX + 1). */
static int64_t grid_points(const struct table *t)
{
	int64_t n = 1;

	for (unsigned int k = 0; k < t->nr_keys; k++) {
		n *= t->keys[k].nr;
		if (n > SWEEP_POINTS_MAX)
			return SWEEP_POINTS_MAX + 1;
	}
	return n;
}

/* Key @k's value at point @p (1-based) of @t's grid, as rpcsim orders it. */
static const char *grid_value(const struct table *t, unsigned int k,
			      uint64_t p)
{
	uint64_t idx = p - 1;

	for (unsigned int j = t->nr_keys; j-- > k + 1;)
		idx /= t->keys[j].nr;
	return t->keys[k].values[idx % t->keys[k].nr];
}

/* Is @keys the grid @t has (the same keys and values, in order)? */
static bool grid_same(const struct table *t, struct json_object *keys)
{
	if (json_object_array_length(keys) != t->nr_keys)
		return false;
	for (unsigned int i = 0; i < t->nr_keys; i++) {
		struct json_object *k = json_object_array_get_idx(keys, i);
		struct json_object *vals = sweep_get_obj(k, "values",
							 json_type_array);
		const char *name = sweep_get_str(k, "key");

		if (!name || !vals || strcmp(name, t->keys[i].name) ||
		    json_object_array_length(vals) != t->keys[i].nr)
			return false;
		for (unsigned int v = 0; v < t->keys[i].nr; v++) {
			const char *s = json_object_get_string(
				json_object_array_get_idx(vals, v));

			if (!s || strcmp(s, t->keys[i].values[v]))
				return false;
		}
	}
	return true;
}

static void row_free(const struct table *t, struct row *r)
{
	for (unsigned int k = 0; r->values && k < t->nr_keys; k++)
		free(r->values[k]);
	free(r->values);
	free(r->host);
	free(r->machine);
	free(r->build);
	free(r->pcp);
	free(r->pcp_shown);
	free(r->pcp_why);
	free(r->pcp_ran);
	for (unsigned int i = 0; i < NR_ROW_SAME; i++)
		free(r->same[i]);
	memset(r, 0, sizeof(*r));
}

/* What the document records of its machine: " (CPU, N CPUs, Linux R ARCH)". */
static char *machine_of(struct json_object *root)
{
	struct json_object *m = sweep_get_obj(root, "machine",
					      json_type_object);
	struct json_object *n = m ? sweep_get_obj(m, "online_cpus",
						  json_type_int) : NULL;
	const char *cpu = m ? sweep_get_str(m, "cpu") : NULL;
	const char *kernel = m ? sweep_get_str(m, "kernel") : NULL;
	const char *arch = m ? sweep_get_str(m, "arch") : NULL;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	if (!cpu && !kernel)
		return xstrdup("");
	f = open_memstream(&buf, &len);
	if (!f)
		return xstrdup("");
	fprintf(f, " (%s", cpu ? cpu : "?");
	if (n)
		fprintf(f, ", %lld CPU%s", (long long)json_object_get_int64(n),
			json_object_get_int64(n) == 1 ? "" : "s");
	if (kernel)
		fprintf(f, ", Linux %s%s%s", kernel, arch ? " " : "",
			arch ? arch : "");
	fputc(')', f);
	fclose(f);
	return buf;
}

/* Where the point ran: the host and the build, as recorded. */
static void row_origin(struct row *r, struct json_object *root)
{
	struct json_object *b = sweep_get_obj(root, "build", json_type_object);
	struct json_object *c = sweep_get_obj(root, "config", json_type_object);
	const char *host = sweep_get_str(root, "host");
	char buf[1024];

	r->host = xstrdup(host ? host : "?");
	r->machine = machine_of(root);
	snprintf(buf, sizeof(buf), "rpcsim %s, libpagepool %s, configure '%s'",
		 b && sweep_get_str(b, "version") ?
		 sweep_get_str(b, "version") : "?",
		 b && sweep_get_str(b, "libpagepool") ?
		 sweep_get_str(b, "libpagepool") : "?",
		 b && sweep_get_str(b, "configure") ?
		 sweep_get_str(b, "configure") : "?");
	r->build = xstrdup(buf);
	const char *backend = c ? sweep_get_str(c, "backend") : NULL;
	const char *pcp = b && sweep_get_str(b, "pcp_impl") ?
			  sweep_get_str(b, "pcp_impl") : "?";

	r->pcp_of_backend = backend && strcmp(backend, "buddy");
	if (r->pcp_of_backend) {
		const char *plugin = sweep_get_str(c, "plugin");

		snprintf(buf, sizeof(buf), "%s (backend %s%s%s's)", pcp, backend,
			 plugin ? " " : "", plugin ? plugin : "");
		r->pcp = xstrdup(buf);
	} else {
		r->pcp = xstrdup(pcp);
	}
}

/*
 * pcp swept: did the point run the lists its value names?  rseq asked for
 * may have run the lock lists (no rseq from glibc or the kernel, or a
 * backend other than buddy): the row then says which ran, and why.
 * "auto" names no implementation: whatever ran is what it asked for.
 */
static void row_pcp_ran(struct table *t, struct row *r,
			struct json_object *cfg)
{
	const char *asked, *ran = sweep_get_str(cfg, "pcp_impl");
	const char *why = sweep_get_str(cfg, "pcp_unavailable");
	const char *backend = sweep_get_str(cfg, "backend");
	char buf[1024];

	if (!t->pcp_swept)
		return;
	asked = r->values[t->pcp_key];
	if (strcmp(asked, "rseq") && strcmp(asked, "lock"))
		return;
	if (!ran)
		ran = "?";
	if (!strcmp(asked, ran))
		return;
	if (why) {
		snprintf(buf, sizeof(buf), "rseq unavailable: %s", why);
		r->pcp_why = xstrdup(buf);
		snprintf(buf, sizeof(buf), "%s (ran: %s, rseq unavailable)",
			 asked, ran);
	} else if (backend && strcmp(backend, "buddy")) {
		snprintf(buf, sizeof(buf), "backend %s runs the %s lists",
			 backend, ran);
		r->pcp_why = xstrdup(buf);
		snprintf(buf, sizeof(buf), "%s (ran: %s, backend %s)", asked,
			 ran, backend);
	} else {
		r->pcp_why = xstrdup("the result file does not say why");
		snprintf(buf, sizeof(buf), "%s (ran: %s)", asked, ran);
	}
	r->pcp_shown = xstrdup(buf);
	r->pcp_ran = xstrdup(ran);
	t->pcp_mislabeled = true;
}

/* Key @k's cell of row @r: its value, or what ran (row_pcp_ran()). */
const char *table_value_shown(const struct table *t, const struct row *r,
			      unsigned int k)
{
	if (t->pcp_swept && k == t->pcp_key && r->pcp_shown)
		return r->pcp_shown;
	return r->values[k];
}

/*
 * A page_pool point's packet rate in mode @k: modes[].page_pool
 * .packets_per_s, the mode's packets over its runs' time.  0, or -1
 * (said).
 */
static int row_pps(struct row *r, int k, const char *prog, const char *path,
		   const char *where, struct json_object *m)
{
	struct json_object *pp = sweep_get_obj(m, "page_pool",
					       json_type_object);
	char w[96];

	if (!pp)
		return sweep_refuse(prog, path, "%spage_pool: missing: "
				    "expected the page_pool consumer's "
				    "figures", where);
	snprintf(w, sizeof(w), "%spage_pool.", where);
	return sweep_get_figure(prog, path, w, pp, "packets_per_s",
				RESULT_RATE_MAX, false, &r->pps[k]);
}

/*
 * The mean per call in @o (a mode, or a run of it) into *@out: NaN when
 * null in an untimed point; elsewhere a null is said with where null
 * belongs.  0, or -1 (said).
 */
static int row_mean(const struct row *r, const char *prog, const char *path,
		    const char *where, struct json_object *o, double *out)
{
	struct json_object *v;

	if (!r->untimed && json_object_object_get_ex(o, "mean_us", &v) && !v)
		return sweep_refuse(prog, path, "%smean_us: null: expected "
				    "a number (null only %s)", where,
				    !r->page_pool ?
				    "in a page_pool point whose calls were "
				    "not timed" : r->timing_said ?
				    "where config.page_pool.call_timing is "
				    "false; here it is true" :
				    "where config.page_pool.call_timing is "
				    "false; here it is missing: the calls "
				    "were timed");
	return sweep_get_figure(prog, path, where, o, "mean_us",
				RESULT_LATENCY_MAX_US, r->untimed, out);
}

/*
 * Each mode's mean per call (null in an untimed point) and the spread of
 * its runs' means, and a page_pool point's packet rate: each mode known
 * and once, with calls, runs and a run per entry of per_run, its figures
 * finite, not negative and not beyond what a run can measure.  0, or -1
 * (said).
 */
static int row_modes(struct row *r, struct table *t, const char *prog,
		     const char *path, struct json_object *modes)
{
	size_t n = json_object_array_length(modes);
	char where[64], aw[96];

	if (!n)
		return sweep_refuse(prog, path, "modes: empty: expected a "
				    "mode or more (single, list, array)");
	for (size_t i = 0; i < n; i++) {
		struct json_object *m = json_object_array_get_idx(modes, i);
		struct json_object *runs_a, *across;
		const char *name = sweep_get_str(m, "mode");
		int64_t calls, runs;
		double elapsed, sd;
		int k;

		snprintf(where, sizeof(where), "modes[%zu].", i);
		if (!json_object_is_type(m, json_type_object))
			return sweep_refuse(prog, path,
					    "modes[%zu]: not an object", i);
		for (k = 0; name && k < NR_MODES; k++)
			if (!strcmp(name, table_mode_names[k]))
				break;
		if (!name || k == NR_MODES)
			return sweep_refuse(prog, path, "%smode: %s%s%s: "
					    "expected single, list or array",
					    where, name ? "'" : "",
					    name ? name : "missing",
					    name ? "'" : "");
		if (r->have[k])
			return sweep_refuse(prog, path, "%smode: '%s' given "
					    "twice", where, name);
		if (sweep_get_count(prog, path, where, m, "calls", 1, INT64_MAX,
				    &calls) ||
		    sweep_get_count(prog, path, where, m, "runs", 1, UINT_MAX,
				    &runs) ||
		    sweep_get_figure(prog, path, where, m, "elapsed_s",
				     RESULT_SECONDS_MAX, false, &elapsed) ||
		    row_mean(r, prog, path, where, m, &r->mean[k]))
			return -1;
		/* No call lasts longer than the runs it was made in. */
		if (r->mean[k] > elapsed * 1e6)
			return sweep_refuse(prog, path, "%smean_us: %g: longer "
					    "than the mode's %g s of runs "
					    "(elapsed_s)", where, r->mean[k],
					    elapsed);
		if (r->page_pool && row_pps(r, k, prog, path, where, m))
			return -1;
		runs_a = sweep_get_obj(m, "per_run", json_type_array);
		if (!runs_a && json_object_object_get_ex(m, "per_run", NULL))
			return sweep_refuse(prog, path, "%sper_run: not an "
					    "array", where);
		if (!runs_a || json_object_array_length(runs_a) != (size_t)runs)
			return sweep_refuse(prog, path, "%sper_run: %s%zu "
					    "run%s, but runs is %lld", where,
					    runs_a ? "" : "missing: ",
					    runs_a ? json_object_array_length(
						runs_a) : 0,
					    runs_a && json_object_array_length(
						runs_a) == 1 ? "" : "s",
					    (long long)runs);
		for (size_t j = 0; j < (size_t)runs; j++) {
			struct json_object *run =
				json_object_array_get_idx(runs_a, j);
			char rw[96];
			int64_t rc;
			double rm;

			snprintf(rw, sizeof(rw), "%sper_run[%zu].", where, j);
			if (!json_object_is_type(run, json_type_object))
				return sweep_refuse(prog, path,
						    "%.*s: not an object",
						    (int)strlen(rw) - 1, rw);
			if (sweep_get_count(prog, path, rw, run, "calls", 1,
					    INT64_MAX, &rc) ||
			    row_mean(r, prog, path, rw, run, &rm))
				return -1;
		}
		across = sweep_get_obj(m, "across_runs", json_type_object);
		r->sd[k] = NAN;
		snprintf(aw, sizeof(aw), "%sacross_runs.", where);
		if (across && sweep_get_figure(prog, path, aw, across,
					       "stddev_us",
					       RESULT_LATENCY_MAX_US, true,
					       &sd))
			return -1;
		if (across)
			r->sd[k] = sd;
		r->have[k] = true;
		r->runs[k] = (unsigned int)runs;
		t->mode_seen[k] = true;
	}
	return 0;
}

static void keys_free(struct table *t);

/*
 * The settings that must be one across the points (config.NAME): the
 * points of one sweep run as many requests, as long and as often.
 */
static const char *const row_same[NR_ROW_SAME] = {
	"requests", "duration_s", "repeat",
};

/* Is @r's point, its values and settings, one of @t's grid?  0 or -1. */
static int row_check(struct table *t, struct row *r, const char *prog,
		     const char *path, struct json_object *root,
		     struct json_object *sw, struct json_object *cfg)
{
	struct json_object *values = sweep_get_obj(sw, "values",
						   json_type_object);
	int64_t points, point;

	if (sweep_get_count(prog, path, "sweep.", sw, "points", 1,
			    SWEEP_POINTS_MAX, &points))
		return -1;
	if (points != grid_points(t))
		return sweep_refuse(prog, path, "sweep.points: %lld, but "
				    "its grid (sweep.keys) has %lld points",
				    (long long)points,
				    (long long)grid_points(t));
	if (sweep_get_count(prog, path, "sweep.", sw, "point", 1, points,
			    &point))
		return -1;
	r->point = (uint64_t)point;
	r->points = (uint64_t)points;
	for (unsigned int i = 0; i < t->nr_rows; i++)
		if (t->rows[i].point == r->point)
			return sweep_refuse(prog, path, "sweep.point: %lld "
					    "again (%s is that point too): "
					    "one file per point",
					    (long long)point, t->rows[i].path);
	if (!values)
		return sweep_refuse(prog, path, "sweep.values: missing: "
				    "expected the point's value of each "
				    "swept key");
	r->values = xcalloc(t->nr_keys + 1, sizeof(char *));
	for (unsigned int k = 0; k < t->nr_keys; k++) {
		const char *v = sweep_get_str(values, t->keys[k].name);
		const char *want = grid_value(t, k, r->point);
		unsigned int j;

		r->values[k] = xstrdup(v ? v : "?");
		if (!v)
			return sweep_refuse(prog, path, "sweep.values.%s: "
					    "missing: expected '%s' (point "
					    "%lld)", t->keys[k].name, want,
					    (long long)point);
		for (j = 0; j < t->keys[k].nr; j++)
			if (!strcmp(t->keys[k].values[j], v))
				break;
		if (j == t->keys[k].nr)
			return sweep_refuse(prog, path, "sweep.values.%s: "
					    "'%s' is no value of the grid's "
					    "%s", t->keys[k].name, v,
					    t->keys[k].name);
		if (strcmp(v, want))
			return sweep_refuse(prog, path, "sweep.values.%s: "
					    "'%s', but point %lld of the grid "
					    "has %s=%s", t->keys[k].name, v,
					    (long long)point, t->keys[k].name,
					    want);
	}
	if (!cfg)
		return sweep_refuse(prog, path, "config: missing: expected the "
				    "settings the point ran with");
	for (unsigned int i = 0; i < NR_ROW_SAME; i++) {
		struct json_object *v = NULL;

		json_object_object_get_ex(cfg, row_same[i], &v);
		r->same[i] = xstrdup(json_object_to_json_string_ext(v,
					JSON_C_TO_STRING_PLAIN));
		if (t->nr_rows && strcmp(r->same[i], t->rows[0].same[i]))
			return sweep_refuse(prog, path, "config.%s: %s, but %s "
					    "in %s: the points of a sweep run "
					    "with the same settings but the "
					    "swept ones", row_same[i],
					    r->same[i], t->rows[0].same[i],
					    t->rows[0].path);
	}
	return row_modes(r, t, prog, path, sweep_get_obj(root, "modes",
							 json_type_array));
}

/*
 * The consumer of the point of @cfg (config.consumer: nfsd when absent, as
 * rpcsim writes an nfsd point) into @r, and for page_pool whether its
 * calls were timed (config.page_pool.call_timing; absent, from an rpcsim
 * before --call-timing: timed).  0, or -1 (said) for what rpcsim never
 * writes: another consumer, a page_pool point without its settings, a
 * call_timing that is no boolean.
 */
static int row_consumer(struct row *r, const char *prog, const char *path,
			struct json_object *cfg)
{
	struct json_object *v, *pp;
	const char *s;

	if (!cfg || !json_object_object_get_ex(cfg, "consumer", &v))
		return 0;
	s = json_object_is_type(v, json_type_string) ?
	    json_object_get_string(v) : NULL;
	if (!s || (strcmp(s, "nfsd") && strcmp(s, "page_pool")))
		return sweep_refuse(prog, path, "config.consumer: %s: expected "
				    "\"nfsd\" or \"page_pool\"",
				    json_object_to_json_string_ext(v,
						JSON_C_TO_STRING_PLAIN));
	r->page_pool = !strcmp(s, "page_pool");
	if (!r->page_pool)
		return 0;
	if (!json_object_object_get_ex(cfg, "page_pool", &pp))
		return sweep_refuse(prog, path, "config.page_pool: missing: "
				    "expected the page_pool consumer's "
				    "settings (config.consumer is "
				    "\"page_pool\")");
	if (!json_object_is_type(pp, json_type_object))
		return sweep_refuse(prog, path, "config.page_pool: %s: "
				    "expected the page_pool consumer's "
				    "settings (an object)",
				    json_object_to_json_string_ext(pp,
						JSON_C_TO_STRING_PLAIN));
	r->timing_said = json_object_object_get_ex(pp, "call_timing", &v);
	if (!r->timing_said)
		return 0;
	if (!json_object_is_type(v, json_type_boolean))
		return sweep_refuse(prog, path,
				    "config.page_pool.call_timing: %s: "
				    "expected true or false",
				    json_object_to_json_string_ext(v,
						JSON_C_TO_STRING_PLAIN));
	/* rpcsim --consumer=page_pool --call-timing=off: nulls for times */
	r->untimed = !json_object_get_boolean(v);
	return 0;
}

/* What a point ran, as a refusal names it. */
const char *table_run_kind(bool page_pool, bool untimed)
{
	if (!page_pool)
		return "nfsd";
	return untimed ? "page_pool with its calls not timed "
			 "(--call-timing=off)" : "page_pool with its calls timed";
}

/*
 * Read @path into a new row of @t.  -1 (said) when it is not a point of
 * the sweep: one line naming the file and the field.
 */
static int row_read(struct table *t, const char *prog, const char *path)
{
	struct json_object *root = sweep_load_doc(prog, path);
	struct json_object *sw, *keys, *cfg;
	struct row *r, kind = { 0 };
	const char *program;
	int ret = -1;

	if (!root)
		return -1;
	program = sweep_get_str(root, "program");
	sw = sweep_get_obj(root, "sweep", json_type_object);
	keys = sweep_get_obj(sw, "keys", json_type_array);
	cfg = sweep_get_obj(root, "config", json_type_object);
	if (!program || strcmp(program, "rpcsim") || !sw || !keys ||
	    !sweep_get_obj(root, "modes", json_type_array)) {
		sweep_refuse(prog, path, "not an rpcsim --sweep result (%s)",
			     !program || strcmp(program, "rpcsim") ?
			     "no \"program\": \"rpcsim\"" :
			     "no sweep.keys or modes");
		goto out;
	}
	if (sweep_refuse_interrupted(prog, path, root, "a point (rpcsim "
				     "--point writes no file when cut short)"))
		goto out;
	if (!t->keys && grid_read(t, prog, path, keys)) {
		keys_free(t);
		goto out;
	}
	if (!grid_same(t, keys)) {
		sweep_refuse(prog, path, "sweep.keys: a point of another "
			     "sweep (other keys or values than %s's)",
			     t->nr_rows ? t->rows[0].path : "the first file");
		goto out;
	}
	if (row_consumer(&kind, prog, path, cfg))
		goto out;
	if (t->nr_rows && (kind.page_pool != t->page_pool ||
			   kind.untimed != t->untimed)) {
		sweep_refuse(prog, path, "config: a point of %s, but %s is "
			     "of %s: the points of a sweep run one consumer, "
			     "timed alike",
			     table_run_kind(kind.page_pool, kind.untimed),
			     t->rows[0].path,
			     table_run_kind(t->page_pool, t->untimed));
		goto out;
	}
	t->rows = xrealloc(t->rows, t->nr_rows + 1, sizeof(*t->rows));
	r = &t->rows[t->nr_rows];
	*r = kind;
	r->path = path;
	if (row_check(t, r, prog, path, root, sw, cfg)) {
		row_free(t, r);
		goto out;
	}
	row_origin(r, root);
	row_pcp_ran(t, r, cfg);
	t->page_pool = r->page_pool;
	t->untimed = r->untimed;
	t->nr_rows++;
	ret = 0;
out:
	json_object_put(root);
	return ret;
}

static int cmp_row(const void *a, const void *b)
{
	const struct row *x = a, *y = b;

	return x->point < y->point ? -1 : x->point > y->point;
}

static void keys_free(struct table *t)
{
	for (unsigned int k = 0; k < t->nr_keys; k++) {
		for (unsigned int v = 0; v < t->keys[k].nr; v++)
			free(t->keys[k].values[v]);
		free(t->keys[k].values);
		free(t->keys[k].name);
	}
	free(t->keys);
	t->keys = NULL;
	t->nr_keys = 0;
	t->pcp_swept = false;
}

void table_free(struct table *t)
{
	for (unsigned int i = 0; i < t->nr_rows; i++)
		row_free(t, &t->rows[i]);
	free(t->rows);
	keys_free(t);
}

/*
 * Does @r come from elsewhere than @first (host, build, or pcp lists that
 * neither the sweep nor a backend explains)?
 */
static bool row_elsewhere(const struct table *t, const struct row *r,
			  const struct row *first)
{
	return strcmp(r->host, first->host) || strcmp(r->build, first->build) ||
	       (!t->pcp_swept && !r->pcp_of_backend && !first->pcp_of_backend &&
		strcmp(r->pcp, first->pcp));
}

int table_read(struct table *t, const char *prog, char *const *paths)
{
	int ret = 0;

	for (char *const *p = paths; *p; p++)
		if (row_read(t, prog, *p))
			ret = 1;
	/* A table without a file refused would pass for the sweep's. */
	if (ret) {
		table_free(t);
		return 1;
	}
	if (!t->nr_rows) {
		fprintf(stderr, "%s: no sweep result to tabulate\n", prog);
		table_free(t);
		return 1;
	}
	qsort(t->rows, t->nr_rows, sizeof(*t->rows), cmp_row);
	for (unsigned int i = 1; i < t->nr_rows; i++) {
		t->rows[i].elsewhere = row_elsewhere(t, &t->rows[i],
						     &t->rows[0]);
		t->notes += t->rows[i].elsewhere;
	}
	return 0;
}
