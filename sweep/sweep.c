/* SPDX-License-Identifier: MIT */
/*
 * Sweeps: read a folder of rpcsim --sweep result files and print their
 * table (and plot), for rpcsim --sweep and rpcsim-compare --sweep alike.
 * See sweep.h.
 */
#include <config.h>

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <json-c/json.h>

#include "files.h"
#include "plot.h"
#include "result_schema.h"
#include "results.h"
#include "sweep.h"
#include "sweep_json.h"
#include "tool.h"

#define NR_MODES	3
#define NR_ROW_SAME	3

/*
 * What a result file may hold: rpcsim's own bounds (rpcsim/options.h,
 * options_internal.h) for the grid; for the figures, what no run can
 * measure (result_schema.h, as rpcsim-compare's other reader).
 */
/* RPCSIM_SWEEP_MAX_KEYS: every key rpcsim sweeps, each once */
#define SWEEP_KEYS_MAX		12
#define SWEEP_POINTS_MAX	100000

static const char *const mode_names[NR_MODES] = { "single", "list", "array" };

/* One key of the grid: its name and values in the grid's order. */
struct key {
	char *name;
	char **values;
	unsigned int nr;
};

/* One point: a result file. */
struct row {
	const char *path;
	uint64_t point, points;
	char **values;			/* per key of the grid */
	char *host, *build, *pcp;
	char *machine;		/* " (CPU, N CPUs, Linux R ARCH)", or "" */
	/*
	 * A backend other than buddy runs the lock lists whatever the build
	 * (and the pcp setting) would give buddy: its pcp lists follow from
	 * the backend, swept or not, and say nothing of the build.
	 */
	bool pcp_of_backend;
	bool page_pool;			/* rpcsim's page_pool consumer */
	bool untimed;			/* --call-timing=off: no latency */
	/* page_pool: config.page_pool.call_timing is there (else timed) */
	bool timing_said;
	bool have[NR_MODES];
	double mean[NR_MODES], sd[NR_MODES];
	double pps[NR_MODES];		/* page_pool: packets per second */
	unsigned int runs[NR_MODES];
	bool elsewhere;			/* not where the first point ran */
	char *same[NR_ROW_SAME];	/* config members all points share */
	/*
	 * pcp swept: the lists that ran when they are not the ones the
	 * point's value names ("rseq (ran: lock, rseq unavailable)"), and
	 * why; NULL when they are.
	 */
	char *pcp_shown, *pcp_why, *pcp_ran;
};

struct table {
	struct key *keys;
	unsigned int nr_keys;
	bool pcp_swept;
	unsigned int pcp_key;		/* pcp's index among the keys */
	bool pcp_mislabeled;		/* a row ran other lists (pcp_shown) */
	bool page_pool;			/* a point of rpcsim's page_pool consumer */
	bool untimed;			/* its points' calls were not timed */
	struct row *rows;
	unsigned int nr_rows;
	bool mode_seen[NR_MODES];
	unsigned int notes;		/* rows marked */
	/*
	 * Each mode's columns, as wide as their widest cell (table_widths()):
	 * the latency table's mean, +- and change, the packet table's rate
	 * and change against single.
	 */
	int w_mean[NR_MODES], w_sd[NR_MODES], w_chg[NR_MODES];
	int w_pps[NR_MODES], w_vs[NR_MODES];
};

static int cmp_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

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

int sweep_dir_files(const char *dir, char ***paths)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char **list = NULL;
	size_t n = 0;

	if (!d)
		return -1;
	while ((e = readdir(d))) {
		size_t len = strlen(e->d_name), plen;

		if (e->d_name[0] == '.' || len < 6 ||
		    strcmp(e->d_name + len - 5, ".json"))
			continue;
		list = xrealloc(list, n + 2, sizeof(*list));
		plen = strlen(dir) + len + 2;
		list[n] = xcalloc(plen, 1);
		snprintf(list[n++], plen, "%s/%s", dir, e->d_name);
	}
	closedir(d);
	if (!list)
		list = xcalloc(1, sizeof(*list));
	qsort(list, n, sizeof(*list), cmp_name);
	list[n] = NULL;
	*paths = list;
	return (int)n;
}

void sweep_free_paths(char **paths)
{
	for (char **p = paths; p && *p; p++)
		free(*p);
	free(paths);
}

/* --- reading a result file ------------------------------------------- */

struct json_object *sweep_read_json(const char *path, char *err,
				    size_t errlen)
{
	struct json_tokener *tok;
	enum json_tokener_error jerr;
	struct json_object *root;
	size_t len = 0, end;
	char *buf = read_regular_file(path, FILE_READ_MAX, &len, err, errlen);
	int e;

	if (!buf)
		return NULL;
	if (strlen(buf) != len) {
		snprintf(err, errlen, "not JSON: a NUL byte at offset %zu",
			 strlen(buf));
		free(buf);
		errno = EINVAL;
		return NULL;
	}
	tok = json_tokener_new();
	if (!tok)
		tool_die(1, "out of memory");
	json_tokener_set_flags(tok, JSON_TOKENER_STRICT);
	/* The terminating NUL ends a top-level number as well. */
	root = json_tokener_parse_ex(tok, buf, (int)len + 1);
	jerr = json_tokener_get_error(tok);
	end = json_tokener_get_parse_end(tok);
	json_tokener_free(tok);
	if (root && jerr == json_tokener_success) {
		free(buf);
		return root;
	}
	json_object_put(root);
	if (strspn(buf, " \t\r\n") == len)
		snprintf(err, errlen, "empty: not a JSON document");
	else if (jerr == json_tokener_continue || end >= len)
		snprintf(err, errlen, "not JSON: the document ends early "
			 "(truncated?)");
	else
		snprintf(err, errlen, "not JSON: %s at byte %zu",
			 json_tokener_error_desc(jerr), end);
	e = EINVAL;
	free(buf);
	errno = e;
	return NULL;
}

/* --- a result file's settings, to resume (results.h) -------------------- */

char *results_file_settings(const char *path, const char *program,
			    const char *body, char *err, size_t errlen)
{
	struct json_object *root = sweep_read_json(path, err, errlen), *sw;
	const char *prog, *s;
	char *ret = NULL;

	if (!root)
		return NULL;
	prog = get_str(root, "program");
	sw = get_obj(root, "sweep", json_type_object);
	s = sw ? get_str(sw, "settings") : NULL;
	if (prog && !strcmp(prog, program) && s &&
	    get_obj(root, body, json_type_array))
		ret = xstrdup(s);
	else
		snprintf(err, errlen, "not a result of %s (no \"program\": "
			 "\"%s\", sweep.settings or %s)", program, program,
			 body);
	json_object_put(root);
	errno = EINVAL;
	return ret;
}

int results_resume(const char *dir, const char *name, const char *program,
		   const char *body, const char *settings, const char *what)
{
	char *path = results_path(dir, name), err[256];
	char *had = results_file_settings(path, program, body, err,
					  sizeof(err));
	int e = errno, done = had && !strcmp(had, settings);
	struct stat st;

	if (had && !done) {
		fprintf(stderr, "%s: %s holds other settings (%s); %s runs "
			"again with %s\n", tool_name, path, had, what,
			settings);
	} else if (!had && !stat(path, &st) && !S_ISREG(st.st_mode)) {
		/* Not ours to replace: a FIFO, a device, a folder. */
		fprintf(stderr, "%s: %s: %s: %s, not replaced by a result; "
			"remove it or choose another --results\n", tool_name,
			what, path, err);
		done = -1;
	} else if (!had && e != ENOENT) {
		fprintf(stderr, "%s: %s: %s is %s (%s); running it again\n",
			tool_name, what, path,
			strstr(err, "truncated") ? "truncated" : "unusable",
			err);
	}
	free(had);
	free(path);
	return done;
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
		return refuse(prog, path, "sweep.keys: %zu keys: expected 1 to "
			      "%d", n, SWEEP_KEYS_MAX);
	t->keys = xcalloc(n, sizeof(*t->keys));
	for (size_t i = 0; i < n; i++) {
		struct json_object *k = json_object_array_get_idx(keys, i);
		struct json_object *vals = get_obj(k, "values",
						   json_type_array);
		const char *name = get_str(k, "key");
		size_t nv = vals ? json_object_array_length(vals) : 0;
		int dup;

		if (!name || !*name || !vals || !nv)
			return refuse(prog, path, "sweep.keys[%zu]: expected "
				      "{\"key\": NAME, \"values\": [V1, "
				      "...]} with at least one value", i);
		for (unsigned int j = 0; j < t->nr_keys; j++)
			if (!strcmp(t->keys[j].name, name))
				return refuse(prog, path, "sweep.keys[%zu].key: "
					      "'%s' given twice", i, name);
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
				return refuse(prog, path, "sweep.keys[%zu]."
					      "values[%u]: expected a "
					      "non-empty string", i, v);
			t->keys[i].values[t->keys[i].nr++] = xstrdup(s);
		}
		dup = first_repeat(t->keys[i].values, t->keys[i].nr);
		if (dup >= 0)
			return refuse(prog, path, "sweep.keys[%zu].values[%d]: "
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
		struct json_object *vals = get_obj(k, "values",
						   json_type_array);
		const char *name = get_str(k, "key");

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

/* Where the point ran: the host and the build, as recorded. */
/* What the document records of its machine: " (CPU, N CPUs, Linux R ARCH)". */
static char *machine_of(struct json_object *root)
{
	struct json_object *m = get_obj(root, "machine", json_type_object);
	struct json_object *n = m ? get_obj(m, "online_cpus", json_type_int) :
				NULL;
	const char *cpu = m ? get_str(m, "cpu") : NULL;
	const char *kernel = m ? get_str(m, "kernel") : NULL;
	const char *arch = m ? get_str(m, "arch") : NULL;
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

static void row_origin(struct row *r, struct json_object *root)
{
	struct json_object *b = get_obj(root, "build", json_type_object);
	struct json_object *c = get_obj(root, "config", json_type_object);
	const char *host = get_str(root, "host");
	char buf[1024];

	r->host = xstrdup(host ? host : "?");
	r->machine = machine_of(root);
	snprintf(buf, sizeof(buf), "rpcsim %s, libpagepool %s, configure '%s'",
		 b && get_str(b, "version") ? get_str(b, "version") : "?",
		 b && get_str(b, "libpagepool") ? get_str(b, "libpagepool") :
		 "?", b && get_str(b, "configure") ? get_str(b, "configure") :
		 "?");
	r->build = xstrdup(buf);
	const char *backend = c ? get_str(c, "backend") : NULL;
	const char *pcp = b && get_str(b, "pcp_impl") ? get_str(b, "pcp_impl") :
			  "?";

	r->pcp_of_backend = backend && strcmp(backend, "buddy");
	if (r->pcp_of_backend) {
		const char *plugin = get_str(c, "plugin");

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
	const char *asked, *ran = get_str(cfg, "pcp_impl");
	const char *why = get_str(cfg, "pcp_unavailable");
	const char *backend = get_str(cfg, "backend");
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
static const char *row_value_shown(const struct table *t,
				   const struct row *r, unsigned int k)
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
	struct json_object *pp = get_obj(m, "page_pool", json_type_object);
	char w[96];

	if (!pp)
		return refuse(prog, path, "%spage_pool: missing: expected the "
			      "page_pool consumer's figures", where);
	snprintf(w, sizeof(w), "%spage_pool.", where);
	return get_figure(prog, path, w, pp, "packets_per_s", RESULT_RATE_MAX,
			  false, &r->pps[k]);
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
		return refuse(prog, path, "%smean_us: null: expected a number "
			      "(null only %s)", where, !r->page_pool ?
			      "in a page_pool point whose calls were not "
			      "timed" : r->timing_said ?
			      "where config.page_pool.call_timing is false; "
			      "here it is true" :
			      "where config.page_pool.call_timing is false; "
			      "here it is missing: the calls were timed");
	return get_figure(prog, path, where, o, "mean_us",
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
		return refuse(prog, path, "modes: empty: expected a mode or "
			      "more (single, list, array)");
	for (size_t i = 0; i < n; i++) {
		struct json_object *m = json_object_array_get_idx(modes, i);
		struct json_object *runs_a, *across;
		const char *name = get_str(m, "mode");
		int64_t calls, runs;
		double elapsed, sd;
		int k;

		snprintf(where, sizeof(where), "modes[%zu].", i);
		if (!json_object_is_type(m, json_type_object))
			return refuse(prog, path, "modes[%zu]: not an object",
				      i);
		for (k = 0; name && k < NR_MODES; k++)
			if (!strcmp(name, mode_names[k]))
				break;
		if (!name || k == NR_MODES)
			return refuse(prog, path, "%smode: %s%s%s: expected "
				      "single, list or array", where,
				      name ? "'" : "", name ? name : "missing",
				      name ? "'" : "");
		if (r->have[k])
			return refuse(prog, path, "%smode: '%s' given twice",
				      where, name);
		if (get_count(prog, path, where, m, "calls", 1, INT64_MAX,
			      &calls) ||
		    get_count(prog, path, where, m, "runs", 1, UINT_MAX,
			      &runs) ||
		    get_figure(prog, path, where, m, "elapsed_s",
			       RESULT_SECONDS_MAX, false, &elapsed) ||
		    row_mean(r, prog, path, where, m, &r->mean[k]))
			return -1;
		/* No call lasts longer than the runs it was made in. */
		if (r->mean[k] > elapsed * 1e6)
			return refuse(prog, path, "%smean_us: %g: longer than "
				      "the mode's %g s of runs (elapsed_s)",
				      where, r->mean[k], elapsed);
		if (r->page_pool && row_pps(r, k, prog, path, where, m))
			return -1;
		runs_a = get_obj(m, "per_run", json_type_array);
		if (!runs_a && json_object_object_get_ex(m, "per_run", NULL))
			return refuse(prog, path, "%sper_run: not an array",
				      where);
		if (!runs_a || json_object_array_length(runs_a) != (size_t)runs)
			return refuse(prog, path, "%sper_run: %s%zu run%s, but "
				      "runs is %lld", where, runs_a ? "" :
				      "missing: ", runs_a ?
				      json_object_array_length(runs_a) : 0,
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
				return refuse(prog, path, "%.*s: not an object",
					      (int)strlen(rw) - 1, rw);
			if (get_count(prog, path, rw, run, "calls", 1,
				      INT64_MAX, &rc) ||
			    row_mean(r, prog, path, rw, run, &rm))
				return -1;
		}
		across = get_obj(m, "across_runs", json_type_object);
		r->sd[k] = NAN;
		snprintf(aw, sizeof(aw), "%sacross_runs.", where);
		if (across && get_figure(prog, path, aw, across,
					 "stddev_us", RESULT_LATENCY_MAX_US,
					 true, &sd))
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
	struct json_object *values = get_obj(sw, "values", json_type_object);
	int64_t points, point;

	if (get_count(prog, path, "sweep.", sw, "points", 1,
		      SWEEP_POINTS_MAX, &points))
		return -1;
	if (points != grid_points(t))
		return refuse(prog, path, "sweep.points: %lld, but its grid "
			      "(sweep.keys) has %lld points", (long long)points,
			      (long long)grid_points(t));
	if (get_count(prog, path, "sweep.", sw, "point", 1, points, &point))
		return -1;
	r->point = (uint64_t)point;
	r->points = (uint64_t)points;
	for (unsigned int i = 0; i < t->nr_rows; i++)
		if (t->rows[i].point == r->point)
			return refuse(prog, path, "sweep.point: %lld again (%s "
				      "is that point too): one file per point",
				      (long long)point, t->rows[i].path);
	if (!values)
		return refuse(prog, path, "sweep.values: missing: expected "
			      "the point's value of each swept key");
	r->values = xcalloc(t->nr_keys + 1, sizeof(char *));
	for (unsigned int k = 0; k < t->nr_keys; k++) {
		const char *v = get_str(values, t->keys[k].name);
		const char *want = grid_value(t, k, r->point);
		unsigned int j;

		r->values[k] = xstrdup(v ? v : "?");
		if (!v)
			return refuse(prog, path, "sweep.values.%s: missing: "
				      "expected '%s' (point %lld)",
				      t->keys[k].name, want, (long long)point);
		for (j = 0; j < t->keys[k].nr; j++)
			if (!strcmp(t->keys[k].values[j], v))
				break;
		if (j == t->keys[k].nr)
			return refuse(prog, path, "sweep.values.%s: '%s' is "
				      "no value of the grid's %s", 
				      t->keys[k].name, v, t->keys[k].name);
		if (strcmp(v, want))
			return refuse(prog, path, "sweep.values.%s: '%s', but "
				      "point %lld of the grid has %s=%s",
				      t->keys[k].name, v, (long long)point,
				      t->keys[k].name, want);
	}
	if (!cfg)
		return refuse(prog, path, "config: missing: expected the "
			      "settings the point ran with");
	for (unsigned int i = 0; i < NR_ROW_SAME; i++) {
		struct json_object *v = NULL;

		json_object_object_get_ex(cfg, row_same[i], &v);
		r->same[i] = xstrdup(json_object_to_json_string_ext(v,
					JSON_C_TO_STRING_PLAIN));
		if (t->nr_rows && strcmp(r->same[i], t->rows[0].same[i]))
			return refuse(prog, path, "config.%s: %s, but %s in "
				      "%s: the points of a sweep run with the "
				      "same settings but the swept ones",
				      row_same[i], r->same[i],
				      t->rows[0].same[i], t->rows[0].path);
	}
	return row_modes(r, t, prog, path, get_obj(root, "modes",
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
		return refuse(prog, path, "config.consumer: %s: expected "
			      "\"nfsd\" or \"page_pool\"",
			      json_object_to_json_string_ext(v,
						JSON_C_TO_STRING_PLAIN));
	r->page_pool = !strcmp(s, "page_pool");
	if (!r->page_pool)
		return 0;
	if (!json_object_object_get_ex(cfg, "page_pool", &pp))
		return refuse(prog, path, "config.page_pool: missing: expected "
			      "the page_pool consumer's settings "
			      "(config.consumer is \"page_pool\")");
	if (!json_object_is_type(pp, json_type_object))
		return refuse(prog, path, "config.page_pool: %s: expected the "
			      "page_pool consumer's settings (an object)",
			      json_object_to_json_string_ext(pp,
						JSON_C_TO_STRING_PLAIN));
	r->timing_said = json_object_object_get_ex(pp, "call_timing", &v);
	if (!r->timing_said)
		return 0;
	if (!json_object_is_type(v, json_type_boolean))
		return refuse(prog, path, "config.page_pool.call_timing: %s: "
			      "expected true or false",
			      json_object_to_json_string_ext(v,
						JSON_C_TO_STRING_PLAIN));
	/* rpcsim --consumer=page_pool --call-timing=off: nulls for times */
	r->untimed = !json_object_get_boolean(v);
	return 0;
}

/* What a point ran, as a refusal names it. */
static const char *run_kind(bool page_pool, bool untimed)
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
	struct json_object *root = load_doc(prog, path);
	struct json_object *sw, *keys, *cfg;
	struct row *r, kind = { 0 };
	const char *program;
	int ret = -1;

	if (!root)
		return -1;
	program = get_str(root, "program");
	sw = get_obj(root, "sweep", json_type_object);
	keys = get_obj(sw, "keys", json_type_array);
	cfg = get_obj(root, "config", json_type_object);
	if (!program || strcmp(program, "rpcsim") || !sw || !keys ||
	    !get_obj(root, "modes", json_type_array)) {
		refuse(prog, path, "not an rpcsim --sweep result (%s)",
		       !program || strcmp(program, "rpcsim") ?
		       "no \"program\": \"rpcsim\"" :
		       "no sweep.keys or modes");
		goto out;
	}
	if (refuse_interrupted(prog, path, root, "a point (rpcsim --point "
			       "writes no file when cut short)"))
		goto out;
	if (!t->keys && grid_read(t, prog, path, keys)) {
		keys_free(t);
		goto out;
	}
	if (!grid_same(t, keys)) {
		refuse(prog, path, "sweep.keys: a point of another sweep (other "
		       "keys or values than %s's)", t->nr_rows ?
		       t->rows[0].path : "the first file");
		goto out;
	}
	if (row_consumer(&kind, prog, path, cfg))
		goto out;
	if (t->nr_rows && (kind.page_pool != t->page_pool ||
			   kind.untimed != t->untimed)) {
		refuse(prog, path, "config: a point of %s, but %s is of %s: "
		       "the points of a sweep run one consumer, timed alike",
		       run_kind(kind.page_pool, kind.untimed), t->rows[0].path,
		       run_kind(t->page_pool, t->untimed));
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

static void table_free(struct table *t)
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

static int key_width(const struct table *t, unsigned int k)
{
	size_t w = strlen(t->keys[k].name);

	for (unsigned int i = 0; i < t->nr_rows; i++)
		if (strlen(row_value_shown(t, &t->rows[i], k)) > w)
			w = strlen(row_value_shown(t, &t->rows[i], k));
	return (int)w;
}

static void print_header(FILE *out, const struct table *t)
{
	uint64_t points = t->rows[0].points;

	fprintf(out, "sweep: %u of %llu points (", t->nr_rows,
		(unsigned long long)points);
	for (unsigned int k = 0; k < t->nr_keys; k++) {
		char sep = strcmp(t->keys[k].name, "mix") ? ',' : '/';

		fprintf(out, "%s%s=", k ? " x " : "", t->keys[k].name);
		/* as --sweep takes them: '\' before a separator in a value */
		for (unsigned int v = 0; v < t->keys[k].nr; v++) {
			if (v)
				fputc(sep, out);
			for (const char *c = t->keys[k].values[v]; *c; c++) {
				if (*c == sep || *c == '\\')
					fputc('\\', out);
				fputc(*c, out);
			}
		}
	}
	fprintf(out, ")\n");
}

/*
 * The point column's width: its head's 5, or the grid's last point's
 * digits (rpcsim's grids go up to 100000 points).
 */
static int point_width(const struct table *t)
{
	int w = t->nr_rows ? snprintf(NULL, 0, "%llu", (unsigned long long)
				      t->rows[0].points) : 0;

	return w > 5 ? w : 5;
}

/* The point column and the keys' columns of a table's head. */
static void print_keys_head(FILE *out, const struct table *t)
{
	fprintf(out, "%*s", point_width(t), "point");
	for (unsigned int k = 0; k < t->nr_keys; k++)
		fprintf(out, "  %*s", key_width(t, k), t->keys[k].name);
}

/* ... and of a row. */
static void print_keys_row(FILE *out, const struct table *t,
			   const struct row *r)
{
	fprintf(out, "%*llu", point_width(t), (unsigned long long)r->point);
	for (unsigned int k = 0; k < t->nr_keys; k++)
		fprintf(out, "  %*s", key_width(t, k),
			row_value_shown(t, r, k));
}

/* A cell of the tables: long enough for any figure the reader takes. */
#define CELL	48

/* Row @r's cells of mode @m in the latency table: mean, +- and change. */
static void latency_cells(const struct table *t, const struct row *r, int m,
			  char mean[CELL], char sd[CELL], char chg[CELL])
{
	const struct row *first = &t->rows[0];

	if (!r->have[m]) {
		snprintf(mean, CELL, "-");
		sd[0] = chg[0] = '\0';
		return;
	}
	snprintf(mean, CELL, "%.3f", r->mean[m]);
	if (r->runs[m] > 1 && isfinite(r->sd[m]))
		snprintf(sd, CELL, "%.3f", r->sd[m]);
	else
		snprintf(sd, CELL, "-");
	if (r == first)
		snprintf(chg, CELL, "base");
	else if (first->have[m] && first->mean[m] > 0)
		change_text(chg, CELL, 100 * (r->mean[m] - first->mean[m]) /
			    first->mean[m]);
	else
		snprintf(chg, CELL, "-");
}

/*
 * Row @r's cells of mode @m in the packet table: the rate in millions,
 * and for a bulk mode beside single (@vs) its change against single.
 */
static void pps_cells(const struct row *r, int m, bool vs, char pps[CELL],
		      char chg[CELL])
{
	if (r->have[m])
		snprintf(pps, CELL, "%.3f", r->pps[m] / 1e6);
	else
		snprintf(pps, CELL, "-");
	chg[0] = '\0';
	if (!m || !vs || !r->have[m])
		return;
	if (r->have[0] && r->pps[0] > 0)
		change_text(chg, CELL, 100 * (r->pps[m] / r->pps[0] - 1));
	else
		snprintf(chg, CELL, "-");
}

static void widen(int *w, const char *cell)
{
	if ((int)strlen(cell) > *w)
		*w = (int)strlen(cell);
}

/*
 * The columns' widths: the headers' (9 for a figure, 8 for +- and
 * change), or the widest cell's, so that the columns stay aligned up to
 * the largest figures the reader takes (a mean of 1e9 us, 10^12
 * packets/s).
 */
static void table_widths(struct table *t)
{
	char a[CELL], b[CELL], c[CELL];

	for (int m = 0; m < NR_MODES; m++) {
		t->w_mean[m] = t->w_pps[m] = t->w_vs[m] = 9;
		t->w_sd[m] = t->w_chg[m] = 8;
		for (unsigned int i = 0; i < t->nr_rows; i++) {
			latency_cells(t, &t->rows[i], m, a, b, c);
			widen(&t->w_mean[m], a);
			widen(&t->w_sd[m], b);
			widen(&t->w_chg[m], c);
			pps_cells(&t->rows[i], m, t->mode_seen[0], a, b);
			widen(&t->w_pps[m], a);
			widen(&t->w_vs[m], b);
		}
	}
}

static void print_latency_head(FILE *out, const struct table *t)
{
	fprintf(out, "%s latency per call in us: the mean "
		"over every call, +- the sample stddev of the\nruns' means "
		"(- with one run), and the change of the mean against point "
		"%llu\n\n", t->page_pool ? "page_pool refill (slow path)" :
		"svc_alloc_arg()", (unsigned long long)t->rows[0].point);
	print_keys_head(out, t);
	for (int m = 0; m < NR_MODES; m++)
		if (t->mode_seen[m])
			fprintf(out, "  %*s %*s %*s", t->w_mean[m],
				mode_names[m], t->w_sd[m], "+-", t->w_chg[m],
				"change");
	fprintf(out, "%s\n", t->notes ? "  where" : "");
}

static void print_latency_row(FILE *out, const struct table *t,
			      const struct row *r)
{
	print_keys_row(out, t, r);
	for (int m = 0; m < NR_MODES; m++) {
		char mean[CELL], sd[CELL], chg[CELL];

		if (!t->mode_seen[m])
			continue;
		latency_cells(t, r, m, mean, sd, chg);
		fprintf(out, "  %*s %*s %*s", t->w_mean[m], mean, t->w_sd[m],
			sd, t->w_chg[m], chg);
	}
	if (r->elsewhere)
		fprintf(out, "  *");
	fputc('\n', out);
}

/*
 * page_pool points: each mode's packet rate, and the bulk modes' change
 * against single at the same point, as the kernel's XDP measurement of
 * the bulk refill was reported.
 */
static void print_pps_table(FILE *out, const struct table *t)
{
	/* the change against single: only beside a single column */
	bool vs = t->mode_seen[0];

	fprintf(out, "page_pool packets per second in millions: each mode's "
		"packets over its runs' time%s\n\n", vs ? ",\nand the change "
		"against single at the same point" : "");
	print_keys_head(out, t);
	for (int m = 0; m < NR_MODES; m++) {
		if (!t->mode_seen[m])
			continue;
		fprintf(out, "  %*s", t->w_pps[m], mode_names[m]);
		if (m && vs)
			fprintf(out, " %*s", t->w_vs[m], "vs single");
	}
	fprintf(out, "%s\n", t->notes ? "  where" : "");
	for (unsigned int i = 0; i < t->nr_rows; i++) {
		const struct row *r = &t->rows[i];

		print_keys_row(out, t, r);
		for (int m = 0; m < NR_MODES; m++) {
			char pps[CELL], chg[CELL];

			if (!t->mode_seen[m])
				continue;
			pps_cells(r, m, vs, pps, chg);
			fprintf(out, "  %*s", t->w_pps[m], pps);
			if (m && vs)
				fprintf(out, " %*s", t->w_vs[m], chg);
		}
		fprintf(out, "%s\n", r->elsewhere ? "  *" : "");
	}
}

/*
 * The unmarked points whose pcp lists differ from the first point's
 * because of their backend: said once, so that a lock list next to rseq
 * ones is not taken for another build.
 */
static void print_backend_pcp(FILE *out, const struct table *t)
{
	const struct row *first = &t->rows[0];
	unsigned int n = 0;

	if (t->pcp_swept)
		return;
	/* One line per pcp text, the points that have it. */
	for (unsigned int i = 1; i < t->nr_rows; i++) {
		const struct row *r = &t->rows[i];
		unsigned int k = 0;
		bool said = false;

		if (r->elsewhere || !strcmp(r->pcp, first->pcp))
			continue;
		for (unsigned int j = 1; j < i && !said; j++)
			said = !t->rows[j].elsewhere &&
			       !strcmp(t->rows[j].pcp, r->pcp);
		if (said)
			continue;
		for (unsigned int j = i; j < t->nr_rows; j++)
			k += !t->rows[j].elsewhere &&
			     !strcmp(t->rows[j].pcp, r->pcp);
		fputs(k > 1 ? "points " : "point ", out);
		k = 0;
		for (unsigned int j = i; j < t->nr_rows; j++) {
			if (t->rows[j].elsewhere ||
			    strcmp(t->rows[j].pcp, r->pcp))
				continue;
			fprintf(out, "%s%llu", k++ ? ", " : "",
				(unsigned long long)t->rows[j].point);
			n++;
		}
		fprintf(out, ": pcp lists %s\n", r->pcp);
	}
	if (n)
		fprintf(out, "(every backend but buddy runs the lock pcp lists: "
			"%s not from another build)\n", n > 1 ?
			"these points are" : "this point is");
}

/* Below the table: where the points ran, and what is missing. */
static void print_notes(FILE *out, const struct table *t)
{
	const struct row *first = &t->rows[0];
	uint64_t missing = 0;

	fprintf(out, "\nhost %s%s; build %s; pcp lists %s\n", first->host,
		first->machine, first->build, t->pcp_swept ? (t->pcp_mislabeled ?
		"as swept, but where a row says what ran" : "as swept") :
		first->pcp);
	for (unsigned int i = 0; i < t->nr_rows; i++)
		if (t->rows[i].pcp_shown)
			fprintf(out, "point %llu: pcp=%s ran the %s lists (%s)\n",
				(unsigned long long)t->rows[i].point,
				t->rows[i].values[t->pcp_key],
				t->rows[i].pcp_ran, t->rows[i].pcp_why);
	for (unsigned int i = 1; i < t->nr_rows; i++) {
		const struct row *r = &t->rows[i];

		if (!r->elsewhere)
			continue;
		fprintf(out, "* point %llu: host %s%s; build %s; pcp lists %s\n",
			(unsigned long long)r->point, r->host, r->machine,
			r->build,
			t->pcp_swept ? "as swept" : r->pcp);
	}
	print_backend_pcp(out, t);
	for (uint64_t p = 1; p <= first->points; p++) {
		bool found = false;

		for (unsigned int i = 0; i < t->nr_rows && !found; i++)
			found = t->rows[i].point == p;
		if (found)
			continue;
		fprintf(out, "%s%llu", missing++ ? ", " : "missing (no "
			"result file): point ", (unsigned long long)p);
	}
	if (missing)
		fputc('\n', out);
}

/* --- the plot ---------------------------------------------------------- */

struct figure {
	const struct table *t;
	unsigned int x;			/* the key along the x axis */
};

/* Do @a and @b agree on every key but the x axis's? */
static bool same_line(const struct figure *f, const struct row *a,
		      const struct row *b)
{
	for (unsigned int k = 0; k < f->t->nr_keys; k++)
		if (k != f->x && strcmp(a->values[k], b->values[k]))
			return false;
	return true;
}

/*
 * Whether row @i starts a line of mode @m: it has the mode, and no row
 * before it lies on the same line (the same values but the x key).
 */
static bool first_of_line(const struct table *t, const struct figure *f,
			  unsigned int i, int m)
{
	const struct row *r = &t->rows[i];

	if (!r->have[m])
		return false;
	for (unsigned int j = 0; j < i; j++)
		if (t->rows[j].have[m] && same_line(f, &t->rows[j], r))
			return false;
	return true;
}

static unsigned int x_of(const struct figure *f, const struct row *r)
{
	const struct key *k = &f->t->keys[f->x];

	for (unsigned int v = 0; v < k->nr; v++)
		if (!strcmp(k->values[v], r->values[f->x]))
			return v;
	return 0;
}

static void plot_body(FILE *out, void *arg)
{
	const struct figure *f = arg;
	const struct table *t = f->t;
	const struct key *xk = &t->keys[f->x];
	unsigned int lines = 0;
	char title[512];

	snprintf(title, sizeof(title), "rpcsim sweep: %s latency per call "
		 "against %s (mean; bars: +- the runs' stddev)", t->page_pool ?
		 "page_pool refill" : "svc_alloc_arg()", xk->name);
	fprintf(out, "set title ");
	plot_quote(out, title);
	fprintf(out, " font ',13'\nset grid\nset border 3\nset tics nomirror\n"
		"set key outside right top Left reverse\nset bars small\n"
		"set xlabel ");
	plot_quote(out, xk->name);
	fprintf(out, "\nset ylabel 'us per call'\nset yrange [0:*]\n"
		"set xrange [-0.5:%.1f]\nset xtics (", xk->nr - 0.5);
	for (unsigned int v = 0; v < xk->nr; v++) {
		fprintf(out, "%s", v ? ", " : "");
		plot_quote(out, xk->values[v]);
		fprintf(out, " %u", v);
	}
	fprintf(out, ")\n");
	/* A line per mode and per combination of the other keys' values. */
	for (int m = 0; m < NR_MODES; m++) {
		for (unsigned int i = 0; i < t->nr_rows; i++) {
			const struct row *r = &t->rows[i];

			if (!first_of_line(t, f, i, m))
				continue;
			fprintf(out, "$l%u << EOD\n", lines);
			for (unsigned int j = i; j < t->nr_rows; j++)
				if (t->rows[j].have[m] &&
				    same_line(f, &t->rows[j], r))
					fprintf(out, "%u %.6f %.6f\n",
						x_of(f, &t->rows[j]),
						t->rows[j].mean[m],
						isfinite(t->rows[j].sd[m]) ?
						t->rows[j].sd[m] : 0);
			fprintf(out, "EOD\n");
			lines++;
		}
	}
	fprintf(out, "plot ");
	lines = 0;
	for (int m = 0; m < NR_MODES; m++) {
		for (unsigned int i = 0; i < t->nr_rows; i++) {
			const struct row *r = &t->rows[i];
			size_t n;

			if (!first_of_line(t, f, i, m))
				continue;
			n = (size_t)snprintf(title, sizeof(title), "%s",
					     mode_names[m]);
			for (unsigned int k = 0; k < t->nr_keys; k++)
				if (k != f->x && n < sizeof(title))
					n += (size_t)snprintf(title + n,
						sizeof(title) - n, " %s=%s",
						t->keys[k].name, r->values[k]);
			fprintf(out, "%s$l%u using 1:2:3 with yerrorlines lw 2 "
				"pt 7 lc rgb '#%06x' title ", lines ?
				", \\\n     " : "", lines, plot_color(lines));
			plot_quote(out, title);
			lines++;
		}
	}
	fprintf(out, "\n");
}

/*
 * sweep_table(), and with @keep the table is left there (for the table
 * across folders) instead of freed.
 */
static int table_of(FILE *out, const char *prog, char *const *paths,
		    const char *plot_path, const char *gnuplot,
		    struct table *keep)
{
	struct table t = { 0 };
	int ret = 0;

	for (char *const *p = paths; *p; p++)
		if (row_read(&t, prog, *p))
			ret = 1;
	/* A table without a file refused would pass for the sweep's. */
	if (ret) {
		table_free(&t);
		if (keep)
			memset(keep, 0, sizeof(*keep));
		return 1;
	}
	if (!t.nr_rows) {
		fprintf(stderr, "%s: no sweep result to tabulate\n", prog);
		table_free(&t);
		return 1;
	}
	qsort(t.rows, t.nr_rows, sizeof(*t.rows), cmp_row);
	for (unsigned int i = 1; i < t.nr_rows; i++) {
		t.rows[i].elsewhere = row_elsewhere(&t, &t.rows[i], &t.rows[0]);
		t.notes += t.rows[i].elsewhere;
	}
	table_widths(&t);
	print_header(out, &t);
	if (!t.untimed) {
		print_latency_head(out, &t);
		for (unsigned int i = 0; i < t.nr_rows; i++)
			print_latency_row(out, &t, &t.rows[i]);
	}
	if (t.page_pool) {
		if (!t.untimed)
			fputc('\n', out);
		print_pps_table(out, &t);
	}
	print_notes(out, &t);
	if (t.notes)
		fprintf(out, "%u point%s marked *: run on another host or build "
			"than point %llu; their changes compare machines too\n",
			t.notes, t.notes > 1 ? "s" : "",
			(unsigned long long)t.rows[0].point);
	if (plot_path && t.untimed) {
		fprintf(stderr, "%s: --plot=%s: the points' calls were not "
			"timed (--call-timing=off): no latency to draw\n",
			prog, plot_path);
		ret = 1;
	} else if (plot_path) {
		struct figure f = { .t = &t, .x = t.nr_keys - 1 };
		char err[1024];

		fflush(out);
		if (plot_write_script(plot_path, gnuplot, plot_body, &f, err,
				      sizeof(err))) {
			fprintf(stderr, "%s: --plot=%s: %s\n", prog, plot_path,
				err);
			ret = 1;
		} else {
			fprintf(out, "\nPlot: %s (latency per call against "
				"%s)\n", plot_path, t.keys[f.x].name);
		}
	}
	if (keep)
		*keep = t;
	else
		table_free(&t);
	return ret;
}

int sweep_table(FILE *out, const char *prog, char *const *paths,
		const char *plot_path, const char *gnuplot)
{
	return table_of(out, prog, paths, plot_path, gnuplot, NULL);
}

/* --- a folder of several tools' files ------------------------------------ */

/* Is @path a document of pagebench's (its "program")? */
static bool is_pagebench(const char *path)
{
	char err[256];
	struct json_object *root = sweep_read_json(path, err, sizeof(err));
	const char *prog = get_str(root, "program");
	bool ret = prog && !strcmp(prog, "pagebench");

	json_object_put(root);
	return ret;
}

static int tables_of(FILE *out, const char *prog, char *const *paths,
		     const char *plot_path, const char *gnuplot,
		     struct table *keep)
{
	size_t n = 0, nr_rp = 0, nr_pb = 0;
	char **rp, **pb;
	int ret = 0;

	while (paths[n])
		n++;
	rp = xcalloc(n + 1, sizeof(*rp));
	pb = xcalloc(n + 1, sizeof(*pb));
	for (size_t i = 0; i < n; i++) {
		if (is_pagebench(paths[i]))
			pb[nr_pb++] = paths[i];
		else
			rp[nr_rp++] = paths[i];
	}
	if (plot_path && !nr_rp) {
		fprintf(stderr, "%s: --plot=%s: no rpcsim --sweep point to "
			"draw (pagebench's rows are tabulated, not drawn)\n",
			prog, plot_path);
		ret = 1;
		goto out;
	}
	if (nr_rp)
		ret = table_of(out, prog, rp, plot_path, gnuplot, keep);
	if (nr_pb) {
		if (nr_rp)
			fputc('\n', out);
		ret |= sweep_pagebench_table(out, prog, pb);
	}
out:
	free(rp);
	free(pb);
	return ret;
}

int sweep_tables(FILE *out, const char *prog, char *const *paths,
		 const char *plot_path, const char *gnuplot)
{
	return tables_of(out, prog, paths, plot_path, gnuplot, NULL);
}

/* --- several folders: a machine each ----------------------------------- */

int sweep_dir_folders(const char *dir, char ***names)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char **list = xcalloc(1, sizeof(*list));
	size_t n = 0;

	if (!d) {
		free(list);
		return -1;
	}
	while ((e = readdir(d))) {
		char *path, **files = NULL;
		size_t len;
		int nr;

		if (e->d_name[0] == '.')
			continue;
		len = strlen(dir) + strlen(e->d_name) + 2;
		path = xcalloc(len, 1);
		snprintf(path, len, "%s/%s", dir, e->d_name);
		/* A folder (not a file) with a result file in it. */
		nr = sweep_dir_files(path, &files);
		sweep_free_paths(files);
		if (nr <= 0) {
			free(path);
			continue;
		}
		list = xrealloc(list, n + 2, sizeof(*list));
		list[n++] = path;
	}
	closedir(d);
	qsort(list, n, sizeof(*list), cmp_name);
	list[n] = NULL;
	*names = list;
	return (int)n;
}

/* Do @a and @b have the same grid: keys and values, in order? */
static bool grids_equal(const struct table *a, const struct table *b)
{
	if (a->nr_keys != b->nr_keys)
		return false;
	for (unsigned int k = 0; k < a->nr_keys; k++) {
		if (strcmp(a->keys[k].name, b->keys[k].name) ||
		    a->keys[k].nr != b->keys[k].nr)
			return false;
		for (unsigned int v = 0; v < a->keys[k].nr; v++)
			if (strcmp(a->keys[k].values[v], b->keys[k].values[v]))
				return false;
	}
	return true;
}

/* Key @k's column: its name or its widest value. */
static int grid_key_width(const struct table *t, unsigned int k)
{
	size_t w = strlen(t->keys[k].name);

	for (unsigned int v = 0; v < t->keys[k].nr; v++)
		if (strlen(t->keys[k].values[v]) > w)
			w = strlen(t->keys[k].values[v]);
	return (int)w;
}

static const struct row *row_of_point(const struct table *t, uint64_t p)
{
	for (unsigned int i = 0; i < t->nr_rows; i++)
		if (t->rows[i].point == p)
			return &t->rows[i];
	return NULL;
}

/*
 * The figure of mode @m that a table across folders compares: the mean
 * per call in us, or for untimed page_pool points the packets per second
 * in millions.
 */
static double across_figure(const struct table *t, const struct row *r,
			    int m)
{
	return t->untimed ? r->pps[m] / 1e6 : r->mean[m];
}

/* A folder's cells of mode @m at point @p: its figure, the change. */
static void across_cells(const struct table *t, uint64_t p, int m,
			 char fig[CELL], char chg[CELL])
{
	const struct row *r = row_of_point(t, p), *first = &t->rows[0];
	double v, v0;

	if (!r || !r->have[m]) {
		snprintf(fig, CELL, "-");
		chg[0] = '\0';
		return;
	}
	v = across_figure(t, r, m);
	v0 = first->have[m] ? across_figure(t, first, m) : 0;
	snprintf(fig, CELL, "%.3f", v);
	if (r == first)
		snprintf(chg, CELL, "base");
	else if (v0 > 0)
		change_text(chg, CELL, 100 * (v - v0) / v0);
	else
		snprintf(chg, CELL, "-");
}

/* Mode @m's table across the folders @tabs[@n] (of one grid, with rows). */
static void print_across_mode(FILE *out, const struct table *tabs,
			      char *const *names, unsigned int n, int m)
{
	const struct table *t0 = &tabs[0];
	int width[n], wchg[n];
	char fig[CELL], chg[CELL];

	fprintf(out, "\nacross %u folders: %s, %s, and its "
		"change against the folder's\nfirst point\n\n%*s", n,
		mode_names[m], t0->untimed ? "packets per second in millions" :
		"mean per call in us", point_width(t0), "point");
	for (unsigned int k = 0; k < t0->nr_keys; k++)
		fprintf(out, "  %*s", grid_key_width(t0, k), t0->keys[k].name);
	for (unsigned int i = 0; i < n; i++) {
		const char *base = strrchr(names[i], '/');

		base = base ? base + 1 : names[i];
		/* the folder's name, or its widest figure and change */
		width[i] = strlen(base) > 9 ? (int)strlen(base) : 9;
		wchg[i] = 8;
		for (uint64_t p = 1; p <= t0->rows[0].points; p++) {
			across_cells(&tabs[i], p, m, fig, chg);
			widen(&width[i], fig);
			widen(&wchg[i], chg);
		}
		fprintf(out, "  %*s %*s", width[i], base, wchg[i], "change");
	}
	fputc('\n', out);
	for (uint64_t p = 1; p <= t0->rows[0].points; p++) {
		const struct row *r = NULL;

		for (unsigned int i = 0; i < n && !r; i++)
			r = row_of_point(&tabs[i], p);
		if (!r)
			continue;
		fprintf(out, "%*llu", point_width(t0), (unsigned long long)p);
		for (unsigned int k = 0; k < t0->nr_keys; k++)
			fprintf(out, "  %*s", grid_key_width(t0, k),
				r->values[k]);
		for (unsigned int i = 0; i < n; i++) {
			across_cells(&tabs[i], p, m, fig, chg);
			fprintf(out, "  %*s %*s", width[i], fig, wchg[i], chg);
		}
		fputc('\n', out);
	}
}

/*
 * The table across folders: each folder's points side by side, for each
 * mode, when every folder with points holds the same grid.
 */
static void print_across(FILE *out, struct table *tabs, char *const *names,
			 unsigned int n)
{
	struct table *with = xcalloc(n, sizeof(*with));
	char **wnames = xcalloc(n, sizeof(*wnames));
	unsigned int nw = 0;

	for (unsigned int i = 0; i < n; i++) {
		if (!tabs[i].nr_rows)
			continue;
		if (nw && !grids_equal(&with[0], &tabs[i])) {
			fprintf(out, "\nno table across the folders: %s holds "
				"another grid than %s\n", names[i], wnames[0]);
			goto out;
		}
		if (nw && (tabs[i].page_pool != with[0].page_pool ||
			   tabs[i].untimed != with[0].untimed)) {
			fprintf(out, "\nno table across the folders: %s holds "
				"points of %s, %s of %s\n", names[i],
				run_kind(tabs[i].page_pool, tabs[i].untimed),
				wnames[0], run_kind(with[0].page_pool,
						    with[0].untimed));
			goto out;
		}
		with[nw] = tabs[i];
		wnames[nw++] = names[i];
	}
	if (nw < 2)
		goto out;
	for (int m = 0; m < NR_MODES; m++) {
		bool seen = false;

		for (unsigned int i = 0; i < nw; i++)
			seen |= with[i].mode_seen[m];
		if (seen)
			print_across_mode(out, with, wnames, nw, m);
	}
out:
	free(with);
	free(wnames);
}

int sweep_folders(FILE *out, const char *prog, char *const *names,
		  char **const *paths, unsigned int n)
{
	struct table *tabs = xcalloc(n, sizeof(*tabs));
	int ret = 0;

	for (unsigned int i = 0; i < n; i++) {
		fprintf(out, "%s== %s ==\n", i ? "\n" : "", names[i]);
		ret |= tables_of(out, prog, paths[i], NULL, NULL, &tabs[i]);
	}
	print_across(out, tabs, names, n);
	for (unsigned int i = 0; i < n; i++)
		table_free(&tabs[i]);
	free(tabs);
	return ret;
}
