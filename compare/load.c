/* SPDX-License-Identifier: MIT */
/*
 * Reading rpcsim's and rpcsim-analyze's --json documents with json-c.
 *
 * Every run of a mode is one sample of each metric:
 *   rpcsim --json          modes[].per_run[]: the run's mean_us,
 *                          percentiles_us, by_refill, requests_per_s,
 *                          pages_per_call, alloc_calls_per_call (older
 *                          rpcsim: the sum of the three API call
 *                          counters), no_progress and waits, and its
 *                          allocator counters, divided by the run's calls;
 *   rpcsim-analyze --json  modes[].runs[] (one per rpcsim run found in
 *                          the trace): latency_ns, timestamps, by_refill,
 *                          pages_per_call, alloc_calls_per_call,
 *                          svc_alloc_arg_err_per_call and
 *                          pagepool_per_call.
 * Runs without a call give no sample, nor do null figures (a refill kind
 * without calls): a cell is the mean of the runs that have the number.
 * Modes are matched across files by their --alloc name (single, list,
 * array).
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "compare.h"
#include "files.h"
#include "result_schema.h"

/* --- metric registry ---------------------------------------------------- */

/*
 * Fixed metrics first, in table order; counters and trace events follow
 * as the files name them.
 */
static const char *const fixed_metrics[] = {
	"latency_us.mean",
	"latency_us.p50",
	"latency_us.p90",
	"latency_us.p99",
	"latency_us.p99.9",
	/*
	 * The same figures of each refill kind's calls (add_by_refill()),
	 * beside the latency of all of them: the median of all the calls
	 * falls on one kind or the other, each kind's does not.
	 */
	"by_refill.one_page.latency_us.mean",
	"by_refill.one_page.latency_us.p50",
	"by_refill.one_page.latency_us.p90",
	"by_refill.one_page.calls_per_call",
	"by_refill.more_pages.latency_us.mean",
	"by_refill.more_pages.latency_us.p50",
	"by_refill.more_pages.latency_us.p90",
	"by_refill.more_pages.calls_per_call",
	"timestamps_us.mean",
	"requests_per_s",
	"pages_per_call",
	"alloc_calls_per_call",
	"no_progress_per_call",
	"waits_per_call",
};

/* The refill kinds, and a metric per member of a kind (calls: its share). */
#define COUNT_MEMBER(member, key, types, need, sub)	+ 1
enum {
	NR_REFILL_KINDS = 0 RESULT_RPCSIM_BY_REFILL(COUNT_MEMBER),
	NR_REFILL_METRICS = 0 RESULT_RPCSIM_REFILL(COUNT_MEMBER),
};
#undef COUNT_MEMBER

enum {
	M_MEAN,
	M_P50,
	M_P90,
	M_P99,
	M_P999,
	M_REFILL,		/* by name: add_by_refill() */
	M_STAMPS = M_REFILL + NR_REFILL_KINDS * NR_REFILL_METRICS,
	M_RPS,
	M_PAGES,
	M_ALLOC_CALLS,
	M_NO_PROGRESS,
	M_WAITS,
	M_NR_FIXED
};
_Static_assert(sizeof(fixed_metrics) / sizeof(*fixed_metrics) == M_NR_FIXED,
	       "fixed_metrics[] names each id of the enum once");

static struct {
	char **name;
	unsigned int n, cap;
} metrics;

void metrics_init(void)
{
	for (size_t i = 0; i < sizeof(fixed_metrics) / sizeof(*fixed_metrics);
	     i++) {
		if (metrics.n == metrics.cap) {
			metrics.cap = metrics.cap ? 2 * metrics.cap : 64;
			metrics.name = xrealloc(metrics.name, metrics.cap,
						sizeof(*metrics.name));
		}
		metrics.name[metrics.n++] = xstrdup(fixed_metrics[i]);
	}
}

void metrics_free(void)
{
	for (unsigned int i = 0; i < metrics.n; i++)
		free(metrics.name[i]);
	free(metrics.name);
	metrics.name = NULL;
	metrics.n = metrics.cap = 0;
}

unsigned int metrics_count(void)
{
	return metrics.n;
}

const char *metric_name(unsigned int id)
{
	return metrics.name[id];
}

/* The id of "A.B.C" (@c NULL: "A.B"), registered on first use. */
static unsigned int metric_named(const char *a, const char *b,
				 const char *c)
{
	char *name;

	if (asprintf(&name, "%s.%s%s%s", a, b, c ? "." : "",
		     c ? c : "") < 0) {
		fprintf(stderr, "rpcsim-compare: out of memory\n");
		exit(1);
	}
	for (unsigned int i = 0; i < metrics.n; i++) {
		if (!strcmp(metrics.name[i], name)) {
			free(name);
			return i;
		}
	}
	if (metrics.n == metrics.cap) {
		metrics.cap = metrics.cap ? 2 * metrics.cap : 64;
		metrics.name = xrealloc(metrics.name, metrics.cap,
					sizeof(*metrics.name));
	}
	metrics.name[metrics.n] = name;
	return metrics.n++;
}

/* The id of "PREFIX.KEY_per_call", registered on first use. */
static unsigned int metric_counter(const char *prefix, const char *key)
{
	char *name;
	unsigned int id;

	if (asprintf(&name, "%s_per_call", key) < 0) {
		fprintf(stderr, "rpcsim-compare: out of memory\n");
		exit(1);
	}
	id = metric_named(prefix, name, NULL);
	free(name);
	return id;
}

/* --- errors --------------------------------------------------------------- */

/* Why @d cannot be compared: "rpcsim-compare: PATH: ...". */
__attribute__((format(printf, 2, 3)))
static int doc_error(const struct doc *d, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "rpcsim-compare: %s: ",
		strcmp(d->path, "-") ? d->path : "(stdin)");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return -1;
}

/* --- reading -------------------------------------------------------------- */

/*
 * The whole file, NUL-terminated, in *buf (free it); 0 or -1.  A file as
 * files.h reads one (never blocking, a regular file, bounded); standard
 * input, whatever it is, to the same bound.
 */
static int read_file(struct doc *d, char **buf, size_t *len)
{
	size_t cap = 65536, n = 0;
	char err[256], *p;

	if (strcmp(d->path, "-")) {
		*buf = read_regular_file(d->path, FILE_READ_MAX, len, err,
					 sizeof(err));
		if (!*buf)
			return doc_error(d, "%s", err);
		return 0;
	}
	p = xcalloc(1, cap);
	for (;;) {
		size_t got = fread(p + n, 1, cap - n - 1, stdin);

		n += got;
		if (got == 0)
			break;
		if (n > FILE_READ_MAX) {
			free(p);
			return doc_error(d, "larger than %zu MiB (the bound of "
					 "an input file): not an rpcsim or "
					 "rpcsim-analyze document",
					 FILE_READ_MAX >> 20);
		}
		if (n + 1 == cap) {
			cap *= 2;
			p = xrealloc(p, cap, 1);
		}
	}
	if (ferror(stdin)) {
		int e = errno;

		free(p);
		return doc_error(d, "cannot read: %s", strerror(e));
	}
	p[n] = '\0';
	*buf = p;
	*len = n;
	return 0;
}

/* Line and column of byte @off of @buf, for parse errors. */
static void position(const char *buf, size_t off, unsigned int *line,
		     unsigned int *col)
{
	*line = 1;
	*col = 1;
	for (size_t i = 0; i < off && buf[i]; i++) {
		if (buf[i] == '\n') {
			(*line)++;
			*col = 1;
		} else {
			(*col)++;
		}
	}
}

static json_object *parse(struct doc *d, const char *buf, size_t len)
{
	struct json_tokener *tok = json_tokener_new();
	enum json_tokener_error err;
	unsigned int line, col;
	json_object *root;
	size_t end;

	if (!tok) {
		fprintf(stderr, "rpcsim-compare: out of memory\n");
		exit(1);
	}
	if (strlen(buf) != len) {
		json_tokener_free(tok);
		doc_error(d, "not JSON: a NUL byte at offset %zu",
			  strlen(buf));
		return NULL;
	}
	json_tokener_set_flags(tok, JSON_TOKENER_STRICT);
	/* The terminating NUL ends a top-level number as well. */
	root = json_tokener_parse_ex(tok, buf, (int)len + 1);
	err = json_tokener_get_error(tok);
	end = json_tokener_get_parse_end(tok);
	json_tokener_free(tok);
	if (root && err == json_tokener_success)
		return root;
	json_object_put(root);
	if (strspn(buf, " \t\r\n") == len)
		doc_error(d, "empty: expected the output of rpcsim --json or "
			  "rpcsim-analyze --json");
	else if (err == json_tokener_continue || end >= len)
		doc_error(d, "not JSON: the document ends early (truncated?)");
	else {
		position(buf, end, &line, &col);
		doc_error(d, "not JSON: %s at line %u, column %u",
			  json_tokener_error_desc(err), line, col);
	}
	return NULL;
}

/* --- typed access, with the path of the member in messages --------------- */

struct ctx {
	struct doc *d;
	char where[160];	/* "modes[1].per_run[0]" */
	bool untimed;		/* rpcsim --call-timing=off: no latency */
	const char *null_why;	/* where a null latency belongs, if timed */
};

/* Append ".key" to the path in messages; returns what ctx_pop() takes. */
static size_t ctx_push(struct ctx *c, const char *key)
{
	size_t len = strlen(c->where);

	snprintf(c->where + len, sizeof(c->where) - len, ".%s", key);
	return len;
}

static void ctx_pop(struct ctx *c, size_t len)
{
	c->where[len] = '\0';
}

static json_object *member(json_object *o, const char *key)
{
	json_object *v = NULL;

	if (!json_object_is_type(o, json_type_object) ||
	    !json_object_object_get_ex(o, key, &v))
		return NULL;
	return v;
}

static bool is_number(json_object *v)
{
	return json_object_is_type(v, json_type_double) ||
	       json_object_is_type(v, json_type_int);
}

/*
 * The bound of what is no figure (result_schema.h's bounds are the
 * figures'): a count, which the schema holds to an integer below 2^64, or
 * a setting that is only printed.
 */
#define UNBOUNDED	INFINITY

/*
 * Member @key of @o, a finite number of at most @max, into *@out: 0, or
 * -1 said.  Not below 0: the schema has refused that where it matters.
 */
static int get_number(struct ctx *c, json_object *o, const char *key,
		      double max, double *out)
{
	json_object *v = NULL;

	/* json-c holds null as NULL: missing and null told apart here */
	if (!json_object_is_type(o, json_type_object) ||
	    !json_object_object_get_ex(o, key, &v))
		return doc_error(c->d, "%s: no member \"%s\"", c->where, key);
	if (!v)
		return doc_error(c->d, "%s.%s: null: expected a number",
				 c->where, key);
	if (!is_number(v))
		return doc_error(c->d, "%s.%s: not a number", c->where, key);
	*out = json_object_get_double(v);
	if (!isfinite(*out))
		return doc_error(c->d, "%s.%s: not a finite number", c->where,
				 key);
	if (*out > max)
		return doc_error(c->d, "%s.%s: %s: expected a finite number 0 "
				 "to %g", c->where, key,
				 json_object_to_json_string_ext(v,
						JSON_C_TO_STRING_PLAIN), max);
	return 0;
}

/* A member that may be absent or null: 1 if it is a number. */
static int get_number_opt(struct ctx *c, json_object *o, const char *key,
			  double max, double *out)
{
	json_object *v = member(o, key);

	if (!v || json_object_is_type(v, json_type_null))
		return 0;
	if (get_number(c, o, key, max, out))
		return -1;
	return 1;
}

static json_object *get_array(struct ctx *c, json_object *o, const char *key)
{
	json_object *v = member(o, key);

	if (!v || !json_object_is_type(v, json_type_array)) {
		doc_error(c->d, "%s: no array \"%s\"", c->where, key);
		return NULL;
	}
	return v;
}

static const char *get_string(json_object *o, const char *key)
{
	json_object *v = member(o, key);

	return v && json_object_is_type(v, json_type_string) ?
	       json_object_get_string(v) : NULL;
}

/* --- samples -------------------------------------------------------------- */

static void series_add(struct mode_data *m, unsigned int id, double v)
{
	struct series *s;

	if (id >= m->nr_series) {
		unsigned int n = metrics_count();

		m->series = xrealloc(m->series, n, sizeof(*m->series));
		memset(m->series + m->nr_series, 0,
		       (n - m->nr_series) * sizeof(*m->series));
		m->nr_series = n;
	}
	s = &m->series[id];
	if (s->n == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 8;
		s->v = xrealloc(s->v, s->cap, sizeof(*s->v));
	}
	s->v[s->n++] = v;
}

/*
 * Member @key of @o, a number of at most @max, over @div into series @id
 * of @m; 0 or -1.
 */
static int add_number(struct ctx *c, struct mode_data *m, unsigned int id,
		      json_object *o, const char *key, double max, double div)
{
	double v;

	if (get_number(c, o, key, max, &v))
		return -1;
	series_add(m, id, v / div);
	return 0;
}

static struct mode_data *mode_get(struct doc *d, const char *name,
				  const char *label)
{
	struct mode_data *m;

	for (unsigned int i = 0; i < d->nr_modes; i++)
		if (!strcmp(d->modes[i].name, name))
			return &d->modes[i];
	d->modes = xrealloc(d->modes, d->nr_modes + 1, sizeof(*d->modes));
	m = &d->modes[d->nr_modes++];
	memset(m, 0, sizeof(*m));
	m->name = xstrdup(name);
	m->label = xstrdup(label ? label : name);
	return m;
}

static void setting_add(struct doc *d, const char *key, const char *value)
{
	d->settings = xrealloc(d->settings, d->nr_settings + 1,
			       sizeof(*d->settings));
	d->settings[d->nr_settings].key = xstrdup(key);
	d->settings[d->nr_settings].value = xstrdup(value);
	d->nr_settings++;
}

static void setting_remove(struct doc *d, const char *key)
{
	for (unsigned int i = 0; i < d->nr_settings; i++) {
		if (strcmp(d->settings[i].key, key))
			continue;
		free(d->settings[i].key);
		free(d->settings[i].value);
		memmove(&d->settings[i], &d->settings[i + 1],
			(d->nr_settings - i - 1) * sizeof(*d->settings));
		d->nr_settings--;
		return;
	}
}

/* Every scalar below @o as "prefix.key" = value, in document order. */
static void settings_flatten(struct doc *d, json_object *o,
			     const char *prefix)
{
	json_object_object_foreach(o, key, v) {
		char name[128];

		snprintf(name, sizeof(name), "%s%s%s", prefix,
			 *prefix ? "." : "", key);
		if (json_object_is_type(v, json_type_object))
			settings_flatten(d, v, name);
		else if (json_object_is_type(v, json_type_string))
			setting_add(d, name, json_object_get_string(v));
		else if (!json_object_is_type(v, json_type_array))
			setting_add(d, name, json_object_to_json_string_ext(
					v, JSON_C_TO_STRING_PLAIN));
	}
}

/* --- by refill kind (rpcsim --json; rpcsim-analyze --json the same) ------ */

static const char *const refill_kinds[] = {
#define KIND_KEY(member, key, types, need, sub)	key,
	RESULT_RPCSIM_BY_REFILL(KIND_KEY)
#undef KIND_KEY
};

/* A kind's figures, and the metric each is: latency_us.* as all calls'. */
static const struct {
	const char *key, *metric;
} refill_figures[] = {
	{ RK(rpcsim_refill, mean_us), "latency_us.mean" },
	{ RK(rpcsim_refill, p50_us), "latency_us.p50" },
	{ RK(rpcsim_refill, p90_us), "latency_us.p90" },
};
_Static_assert(sizeof(refill_figures) / sizeof(*refill_figures) + 1 ==
	       NR_REFILL_METRICS, "a metric per figure of a kind, and calls");

/*
 * The "by_refill" of the run (or rpcsim-analyze group) @g, which made
 * @calls calls, into @m: per kind its share of the calls
 * (by_refill.KIND.calls_per_call) and its figures
 * (by_refill.KIND.latency_us.mean, .p50, .p90).  A figure that is null or
 * missing gives no sample, and neither do the figures of a kind without
 * calls, whatever they say (an rpcsim before its null figures wrote 0): a
 * cell counts only the runs that measured the kind, and where no run did,
 * it is no number ('-'), never 0.  No "by_refill" (an older document, the
 * page_pool consumer): no sample.  Returns 0, or -1 after saying why.
 */
static int add_by_refill(struct ctx *c, struct mode_data *m, json_object *g,
			 double calls)
{
	json_object *br = member(g, RK(rpcsim_figures, by_refill));
	size_t wlen;

	if (!br)
		return 0;
	if (!json_object_is_type(br, json_type_object))
		return doc_error(c->d, "%s.%s: not an object", c->where,
				 RK(rpcsim_figures, by_refill));
	wlen = ctx_push(c, RK(rpcsim_figures, by_refill));
	for (size_t k = 0; k < NR_REFILL_KINDS; k++) {
		json_object *kind = member(br, refill_kinds[k]);
		size_t klen;
		double n = -1, v;
		int got;

		if (!kind)
			continue;
		if (!json_object_is_type(kind, json_type_object))
			return doc_error(c->d, "%s.%s: not an object",
					 c->where, refill_kinds[k]);
		klen = ctx_push(c, refill_kinds[k]);
		got = get_number_opt(c, kind, RK(rpcsim_refill, calls),
				     UNBOUNDED, &n);
		if (got < 0)
			return -1;
		if (got)
			series_add(m, metric_named("by_refill",
						   refill_kinds[k],
						   "calls_per_call"),
				   n / calls);
		for (size_t f = 0; n != 0 && f < sizeof(refill_figures) /
			    sizeof(*refill_figures); f++) {
			got = get_number_opt(c, kind, refill_figures[f].key,
					     RESULT_LATENCY_MAX_US, &v);
			if (got < 0)
				return -1;
			if (got)
				series_add(m, metric_named("by_refill",
						refill_kinds[k],
						refill_figures[f].metric), v);
		}
		ctx_pop(c, klen);
	}
	ctx_pop(c, wlen);
	return 0;
}

/* --- rpcsim --json --------------------------------------------------------- */

/*
 * A latency figure of a run of calls that were timed (mean_us, a
 * percentile) into series @id: null is said with where null belongs.
 */
static int add_latency(struct ctx *c, struct mode_data *m, unsigned int id,
		       json_object *o, const char *key)
{
	json_object *v = NULL;

	if (json_object_object_get_ex(o, key, &v) && !v)
		return doc_error(c->d, "%s.%s: null: expected a number (null "
				 "only %s)", c->where, key, c->null_why);
	return add_number(c, m, id, o, key, RESULT_LATENCY_MAX_US, 1);
}

static const char *const rpcsim_pcts[] = {
	RK(rpcsim_percentiles, p50), RK(rpcsim_percentiles, p90),
	RK(rpcsim_percentiles, p99), RK(rpcsim_percentiles, p99_9),
};

static int rpcsim_run(struct ctx *c, struct mode_data *m, json_object *run)
{
	double calls, v;
	json_object *pct, *counters;
	double alloc_calls = 0;
	bool have_alloc_calls = false;
	size_t wlen;

	if (get_number(c, run, RK(rpcsim_run, calls), UNBOUNDED, &calls))
		return -1;
	if (calls <= 0)
		return 0;
	/* Calls not timed: their latency is no sample, the rest is. */
	if (!c->untimed &&
	    add_latency(c, m, M_MEAN, run, RK(rpcsim_run, mean_us)))
		return -1;
	pct = member(run, RK(rpcsim_run, percentiles_us));
	if (!pct || !json_object_is_type(pct, json_type_object))
		return doc_error(c->d, "%s: no object \"%s\"", c->where,
				 RK(rpcsim_run, percentiles_us));
	wlen = ctx_push(c, RK(rpcsim_run, percentiles_us));
	for (unsigned int i = 0; !c->untimed && i < 4; i++)
		if (add_latency(c, m, M_P50 + i, pct, rpcsim_pcts[i]))
			return -1;
	ctx_pop(c, wlen);
	if (add_by_refill(c, m, run, calls))
		return -1;
	/* no_progress and waits are the run's totals: per call here. */
	if (add_number(c, m, M_RPS, run, RK(rpcsim_run, requests_per_s),
		       RESULT_RATE_MAX, 1) ||
	    add_number(c, m, M_PAGES, run, RK(rpcsim_run, pages_per_call),
		       RESULT_PER_CALL_MAX, 1) ||
	    add_number(c, m, M_NO_PROGRESS, run, RK(rpcsim_run, no_progress),
		       UNBOUNDED, calls) ||
	    add_number(c, m, M_WAITS, run, RK(rpcsim_run, waits), UNBOUNDED,
		       calls))
		return -1;

	counters = member(run, RK(rpcsim_run, counters));
	if (!counters || !json_object_is_type(counters, json_type_object))
		return doc_error(c->d, "%s: no object \"%s\"", c->where,
				 RK(rpcsim_run, counters));
	json_object_object_foreach(counters, key, val) {
		if (!is_number(val) || !isfinite(json_object_get_double(val)))
			return doc_error(c->d, "%s.counters.%s: not a finite "
					 "number", c->where, key);
		v = json_object_get_double(val);
		series_add(m, metric_counter("vmstat", key), v / calls);
		/* Allocator API calls per svc_alloc_arg() call. */
		if (!strcmp(key, "alloc_single_calls") ||
		    !strcmp(key, "alloc_bulk_list_calls") ||
		    !strcmp(key, "alloc_bulk_array_calls")) {
			alloc_calls += v;
			have_alloc_calls = true;
		}
	}
	/* rpcsim's own count (retries included) when it gives one. */
	switch (get_number_opt(c, run, RK(rpcsim_run, alloc_calls_per_call),
			       RESULT_PER_CALL_MAX, &v)) {
	case 1:
		series_add(m, M_ALLOC_CALLS, v);
		break;
	case 0:
		if (have_alloc_calls)
			series_add(m, M_ALLOC_CALLS, alloc_calls / calls);
		break;
	default:
		return -1;
	}
	m->runs++;
	return 0;
}

/* "rpcsim 0.1.0, plain build, 2 threads, 5 runs per mode of 5 s" */
static void rpcsim_describe(struct ctx *c, json_object *root, json_object *cfg)
{
	const char *ver = get_string(root, RK(rpcsim_doc, version));
	json_object *asan = member(cfg, RK(rpcsim_config, asan));
	json_object *dbg = member(cfg, RK(rpcsim_config, debug_checks));
	json_object *dl = member(cfg, RK(rpcsim_config, debug_list));
	const char *profile = get_string(cfg, RK(rpcsim_config, profile));
	double threads, repeat, dur, req;
	size_t len;
	FILE *f = open_memstream(&c->d->desc, &len);

	if (!f) {
		fprintf(stderr, "rpcsim-compare: out of memory\n");
		exit(1);
	}
	fprintf(f, "rpcsim %s, %s build", ver ? ver : "?",
		asan && json_object_get_boolean(asan) ?
		"AddressSanitizer + UBSan" : "plain");
	if (dbg && json_object_get_boolean(dbg))
		fprintf(f, " with debug checks");
	if (c->untimed)
		fprintf(f, ", calls not timed");
	/* The kernel profile runs CONFIG_DEBUG_LIST's checks unless told. */
	if (profile && !strcmp(profile, "kernel") && dl &&
	    !json_object_get_boolean(dl))
		fprintf(f, ", list checks off");
	if (get_number_opt(c, cfg, RK(rpcsim_config, threads), UNBOUNDED,
			   &threads) == 1)
		fprintf(f, ", %.0f thread%s", threads, threads == 1 ? "" : "s");
	if (get_number_opt(c, cfg, RK(rpcsim_config, repeat), UNBOUNDED,
			   &repeat) == 1)
		fprintf(f, ", %.0f run%s per mode", repeat,
			repeat == 1 ? "" : "s");
	if (get_number_opt(c, cfg, RK(rpcsim_config, duration_s), UNBOUNDED,
			   &dur) == 1)
		fprintf(f, " of %g s", dur);
	else if (get_number_opt(c, cfg, RK(rpcsim_config, requests),
				UNBOUNDED, &req) == 1)
		fprintf(f, " of %.0f requests", req);
	fclose(f);
}

/*
 * "host vm: AMD EPYC, 2 CPUs, Linux 6.18.0 x86_64; started
 * 2026-12-05T01:46:03Z; Slurm job 12, array 11 task 2" from the
 * document's origin (what it records of it), and whether the run was
 * cut short.
 */
static void rpcsim_origin(struct ctx *c, json_object *root)
{
	const char *host = get_string(root, RK(origin, host));
	const char *started = get_string(root, RK(origin, started));
	json_object *mach = member(root, RK(origin, machine));
	json_object *slurm = member(root, RK(origin, slurm));
	json_object *intr = member(root, RK(origin, interrupted));
	size_t len;
	FILE *f;
	double cpus;

	if (intr && json_object_get_boolean(intr)) {
		const char *sig = get_string(root, RK(origin, signal));

		c->d->interrupted = xstrdup(sig ? sig : "a signal");
	}
	/* older documents record no origin */
	if (!host && !mach)
		return;
	f = open_memstream(&c->d->origin, &len);
	if (!f) {
		fprintf(stderr, "rpcsim-compare: out of memory\n");
		exit(1);
	}
	fprintf(f, "host %s", host ? host : "?");
	if (mach && json_object_is_type(mach, json_type_object)) {
		const char *cpu = get_string(mach, RK(machine, cpu));
		const char *kernel = get_string(mach, RK(machine, kernel));
		const char *arch = get_string(mach, RK(machine, arch));

		fprintf(f, ": %s", cpu ? cpu : "?");
		if (get_number_opt(c, mach, RK(machine, online_cpus),
				   UNBOUNDED, &cpus) == 1)
			fprintf(f, ", %.0f CPU%s", cpus, cpus == 1 ? "" : "s");
		if (kernel)
			fprintf(f, ", Linux %s%s%s", kernel, arch ? " " : "",
				arch ? arch : "");
	}
	if (started)
		fprintf(f, "; started %s", started);
	if (slurm && json_object_is_type(slurm, json_type_object)) {
		const char *job = get_string(slurm, RK(slurm, job_id));
		const char *ajob = get_string(slurm, RK(slurm, array_job_id));
		const char *task = get_string(slurm, RK(slurm, array_task_id));

		fprintf(f, "; Slurm job %s", job ? job : "?");
		if (ajob && task)
			fprintf(f, ", array %s task %s", ajob, task);
	}
	fclose(f);
}

static int load_rpcsim(struct ctx *c, json_object *root)
{
	static const char *const derived[] = {
		/* follow from other settings, or are measurements */
		RK(rpcsim_config, clock_ns), RK(rpcsim_config, sv_max_mesg),
		RK(rpcsim_config, rq_pages), RK(rpcsim_config, pool_pages),
		RK(rpcsim_config, min_pool_pages),
		RK(rpcsim_config, file_pages),
	};
	struct doc *d = c->d;
	json_object *modes, *cfg = member(root, RK(rpcsim_doc, config));
	const char *ver = get_string(root, RK(rpcsim_doc, version));

	if (ver)
		setting_add(d, RK(rpcsim_doc, version), ver);
	c->null_why = "in a page_pool document whose calls were not timed";
	if (cfg && json_object_is_type(cfg, json_type_object)) {
		const char *consumer = get_string(cfg, RK(rpcsim_config,
							  consumer));
		json_object *pp = member(cfg, RK(rpcsim_config, page_pool));
		json_object *ct = pp ? member(pp, RK(rpcsim_page_pool_config,
						     call_timing)) : NULL;

		settings_flatten(d, cfg, "");
		c->untimed = ct && json_object_is_type(ct, json_type_boolean) &&
			     !json_object_get_boolean(ct);
		/* an rpcsim before --call-timing wrote none: timed */
		if (consumer && !strcmp(consumer, "page_pool"))
			c->null_why = ct ? "where config.page_pool.call_timing "
				"is false; here it is true" : "where config."
				"page_pool.call_timing is false; here it is "
				"missing: the calls were timed";
	}
	for (size_t k = 0; k < sizeof(derived) / sizeof(*derived); k++)
		setting_remove(d, derived[k]);

	snprintf(c->where, sizeof(c->where), "(top level)");
	modes = get_array(c, root, RK(rpcsim_doc, modes));
	if (!modes)
		return -1;
	for (size_t i = 0; i < json_object_array_length(modes); i++) {
		json_object *mo = json_object_array_get_idx(modes, i), *runs;
		const char *name = get_string(mo, RK(rpcsim_mode, mode));
		struct mode_data *m;

		snprintf(c->where, sizeof(c->where), "%s[%zu]",
			 RK(rpcsim_doc, modes), i);
		if (!name)
			return doc_error(d, "%s: no string \"%s\"", c->where,
					 RK(rpcsim_mode, mode));
		m = mode_get(d, name, get_string(mo, RK(rpcsim_mode, label)));
		runs = get_array(c, mo, RK(rpcsim_mode, per_run));
		if (!runs)
			return -1;
		for (size_t r = 0; r < json_object_array_length(runs); r++) {
			snprintf(c->where, sizeof(c->where), "%s[%zu].%s[%zu]",
				 RK(rpcsim_doc, modes), i,
				 RK(rpcsim_mode, per_run), r);
			if (rpcsim_run(c, m, json_object_array_get_idx(runs,
								       r)))
				return -1;
		}
	}

	rpcsim_describe(c, root, cfg);
	rpcsim_origin(c, root);
	return 0;
}

/* --- rpcsim-analyze --json ------------------------------------------------ */

static const char *const analyze_pcts[] = {
	RK(analyze_latency, p50_ns), RK(analyze_latency, p90_ns),
	RK(analyze_latency, p99_ns), RK(analyze_latency, p99_9_ns),
};

/* "Bulk array" -> "array", as rpcsim --alloc names the modes. */
static const char *analyze_mode_name(json_object *mo)
{
	static const char *const labels[][2] = {
		{ "Single page", "single" },
		{ "Bulk list", "list" },
		{ "Bulk array", "array" },
	};
	json_object *runs = member(mo, RK(analyze_mode, runs));
	const char *label = get_string(mo, RK(analyze_mode, label));

	for (size_t r = 0; runs && json_object_is_type(runs, json_type_array)
			   && r < json_object_array_length(runs); r++) {
		json_object *cfg = member(json_object_array_get_idx(runs, r),
					  RK(analyze_run, config));
		const char *name = get_string(cfg,
					      RK(analyze_config, mode_name));

		if (name && *name)
			return name;
	}
	for (size_t i = 0; label && i < 3; i++)
		if (!strcmp(label, labels[i][0]))
			return labels[i][1];
	return label;
}

static int analyze_group(struct ctx *c, struct mode_data *m, json_object *g,
			 char **pp, unsigned int nr_pp)
{
	json_object *lat, *stamps, *ppc;
	double calls, v;
	size_t wlen;

	if (get_number(c, g, RK(analyze_group, calls), UNBOUNDED, &calls))
		return -1;
	if (calls <= 0)
		return 0;
	lat = member(g, RK(analyze_group, latency_ns));
	if (!lat || !json_object_is_type(lat, json_type_object))
		return doc_error(c->d, "%s: no object \"%s\"", c->where,
				 RK(analyze_group, latency_ns));
	wlen = ctx_push(c, RK(analyze_group, latency_ns));
	if (add_number(c, m, M_MEAN, lat, RK(analyze_latency, mean_ns),
		       RESULT_LATENCY_MAX_US * 1000, 1000.0))
		return -1;
	for (unsigned int i = 0; i < 4; i++) {
		if (add_number(c, m, M_P50 + i, lat, analyze_pcts[i],
			       RESULT_LATENCY_MAX_US * 1000, 1000.0))
			return -1;
	}
	ctx_pop(c, wlen);
	stamps = member(g, RK(analyze_group, timestamps));
	if (stamps && json_object_is_type(stamps, json_type_object)) {
		wlen = ctx_push(c, RK(analyze_group, timestamps));
		if (add_number(c, m, M_STAMPS, stamps,
			       RK(analyze_latency, mean_ns),
			       RESULT_LATENCY_MAX_US * 1000, 1000.0))
			return -1;
		ctx_pop(c, wlen);
	}
	/* What rpcsim-analyze says by refill kind is rpcsim's, by name. */
	if (add_by_refill(c, m, g, calls))
		return -1;
	if (add_number(c, m, M_PAGES, g, RK(analyze_group, pages_per_call),
		       RESULT_PER_CALL_MAX, 1) ||
	    add_number(c, m, M_ALLOC_CALLS, g,
		       RK(analyze_group, alloc_calls_per_call),
		       RESULT_PER_CALL_MAX, 1) ||
	    add_number(c, m, M_NO_PROGRESS, g,
		       RK(analyze_group, svc_alloc_arg_err_per_call),
		       RESULT_PER_CALL_MAX, 1))
		return -1;

	/* Only events seen are listed: the others of the trace are 0. */
	ppc = member(g, RK(analyze_group, pagepool_per_call));
	if (ppc && !json_object_is_type(ppc, json_type_object))
		return doc_error(c->d, "%s.%s: not an object", c->where,
				 RK(analyze_group, pagepool_per_call));
	wlen = ctx_push(c, RK(analyze_group, pagepool_per_call));
	for (unsigned int i = 0; i < nr_pp; i++) {
		v = 0;
		if (member(ppc, pp[i]) &&
		    get_number(c, ppc, pp[i], RESULT_PER_CALL_MAX, &v))
			return -1;
		series_add(m, metric_counter("trace", pp[i]), v);
	}
	ctx_pop(c, wlen);
	m->runs++;
	return 0;
}

/* The pagepool event names any group of the document lists. */
static unsigned int analyze_pp_names(json_object *modes, char ***out)
{
	char **names = NULL;
	unsigned int n = 0;

	for (size_t i = 0; i < json_object_array_length(modes); i++) {
		json_object *mo = json_object_array_get_idx(modes, i);
		json_object *runs = member(mo, RK(analyze_mode, runs));
		size_t nr = runs && json_object_is_type(runs, json_type_array) ?
			    json_object_array_length(runs) : 0;

		for (size_t r = 0; r <= nr; r++) {
			json_object *g = r < nr ?
				json_object_array_get_idx(runs, r) : mo;
			json_object *ppc = member(g, RK(analyze_group,
							pagepool_per_call));
			unsigned int k;

			if (!ppc || !json_object_is_type(ppc,
							 json_type_object))
				continue;
			json_object_object_foreach(ppc, key, val) {
				(void)val;
				for (k = 0; k < n; k++)
					if (!strcmp(names[k], key))
						break;
				if (k < n)
					continue;
				names = xrealloc(names, n + 1, sizeof(*names));
				names[n++] = xstrdup(key);
			}
		}
	}
	*out = names;
	return n;
}

static int load_analyze(struct ctx *c, json_object *root)
{
	struct doc *d = c->d;
	json_object *modes, *traces;
	unsigned int nr_pp;
	char **pp;
	double events = 0;
	int ret = 0;
	bool have_cfg = false;

	snprintf(c->where, sizeof(c->where), "(top level)");
	modes = get_array(c, root, RK(analyze_doc, modes));
	if (!modes)
		return -1;
	nr_pp = analyze_pp_names(modes, &pp);
	for (size_t i = 0; i < json_object_array_length(modes) && !ret; i++) {
		json_object *mo = json_object_array_get_idx(modes, i), *runs;
		const char *name = analyze_mode_name(mo);
		struct mode_data *m;
		size_t nr, used = 0;

		snprintf(c->where, sizeof(c->where), "%s[%zu]",
			 RK(analyze_doc, modes), i);
		if (!name) {
			ret = doc_error(d, "%s: no string \"%s\"", c->where,
					RK(analyze_mode, label));
			break;
		}
		m = mode_get(d, name, get_string(mo, RK(analyze_mode, label)));
		runs = member(mo, RK(analyze_mode, runs));
		nr = runs && json_object_is_type(runs, json_type_array) ?
		     json_object_array_length(runs) : 0;
		/* rpcsim's runs; events outside any run only if none. */
		for (size_t r = 0; r < nr && !ret; r++) {
			json_object *g = json_object_array_get_idx(runs, r);
			json_object *cfg = member(g, RK(analyze_run, config));
			json_object *run = member(g, RK(analyze_run, run));

			if (!run || json_object_is_type(run, json_type_null))
				continue;
			snprintf(c->where, sizeof(c->where), "%s[%zu].%s[%zu]",
				 RK(analyze_doc, modes), i,
				 RK(analyze_mode, runs), r);
			ret = analyze_group(c, m, g, pp, nr_pp);
			used++;
			if (!have_cfg && cfg &&
			    json_object_is_type(cfg, json_type_object)) {
				settings_flatten(d, cfg, "");
				have_cfg = true;
			}
		}
		if (!used && !ret)
			ret = analyze_group(c, m, mo, pp, nr_pp);
	}
	for (unsigned int i = 0; i < nr_pp; i++)
		free(pp[i]);
	free(pp);
	if (ret)
		return ret;
	/* mode_name is the row, not a setting; pid differs every run. */
	setting_remove(d, RK(analyze_config, mode_name));
	setting_remove(d, RK(analyze_config, pid));
	traces = member(root, RK(analyze_doc, traces));
	get_number_opt(c, root, RK(analyze_doc, events), UNBOUNDED, &events);
	if (asprintf(&d->desc, "rpcsim-analyze of %zu trace%s, %.0f events",
		     traces && json_object_is_type(traces, json_type_array) ?
		     json_object_array_length(traces) : 0,
		     traces && json_object_is_type(traces, json_type_array) &&
		     json_object_array_length(traces) == 1 ? "" : "s",
		     events) < 0) {
		fprintf(stderr, "rpcsim-compare: out of memory\n");
		exit(1);
	}
	return 0;
}

/* --- documents ------------------------------------------------------------- */

const char *doc_kind_name(enum doc_kind kind)
{
	return kind == DOC_RPCSIM ? "rpcsim" : "rpcsim-analyze";
}

/* "results/plain.json" -> "plain" */
static char *column_name(const char *path)
{
	const char *base = strrchr(path, '/');
	size_t len;
	char *name;

	if (!strcmp(path, "-"))
		return xstrdup("stdin");
	base = base && base[1] ? base + 1 : path;
	name = xstrdup(base);
	len = strlen(name);
	if (len > 5 && !strcmp(name + len - 5, ".json"))
		name[len - 5] = '\0';
	return name;
}

int doc_load(struct doc *d, const char *path)
{
	struct ctx c = { .d = d };
	const char *program, *tool;
	json_object *root;
	char *buf = NULL;
	size_t len = 0;
	int ret;

	memset(d, 0, sizeof(*d));
	d->path = path;
	d->name = column_name(path);
	if (read_file(d, &buf, &len))
		return -1;
	root = parse(d, buf, len);
	free(buf);
	if (!root)
		return -1;
	program = get_string(root, RK(rpcsim_doc, program));
	tool = get_string(root, RK(analyze_doc, tool));
	if (program && !strcmp(program, "rpcsim")) {
		d->kind = DOC_RPCSIM;
		ret = doc_check_schema(d, root) ? -1 : load_rpcsim(&c, root);
	} else if (tool && !strcmp(tool, "rpcsim-analyze")) {
		d->kind = DOC_ANALYZE;
		ret = doc_check_schema(d, root) ? -1 : load_analyze(&c, root);
	} else {
		ret = doc_error(d, "neither rpcsim --json nor rpcsim-analyze "
				"--json output (expected a top-level "
				"\"program\": \"rpcsim\" or \"tool\": "
				"\"rpcsim-analyze\"%s%s%s)",
				program ? "; this is from " : "",
				program ? program : "",
				program ? ", not compared by rpcsim-compare" :
				"");
	}
	json_object_put(root);
	if (ret)
		return ret;
	for (unsigned int i = 0; i < d->nr_modes; i++)
		if (d->modes[i].runs)
			return 0;
	return doc_error(d, "no mode with any call to compare");
	return 0;
}

void doc_free(struct doc *d)
{
	free(d->origin);
	free(d->interrupted);
	for (unsigned int i = 0; i < d->nr_modes; i++) {
		struct mode_data *m = &d->modes[i];

		for (unsigned int k = 0; k < m->nr_series; k++)
			free(m->series[k].v);
		free(m->series);
		free(m->name);
		free(m->label);
	}
	free(d->modes);
	for (unsigned int i = 0; i < d->nr_settings; i++) {
		free(d->settings[i].key);
		free(d->settings[i].value);
	}
	free(d->settings);
	free(d->name);
	free(d->desc);
	memset(d, 0, sizeof(*d));
}
