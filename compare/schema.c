/* SPDX-License-Identifier: MIT */
/*
 * The schema of the documents rpcsim --json and rpcsim-analyze --json
 * write, checked before anything is read from them (see compare.h).
 *
 * Each object is a table of the members the tools write: the JSON types
 * a member may have, whether it must be there, the strings it may hold,
 * and the table of what it holds.  Members the tables do not name are let
 * through (a later rpcsim may add some); every named one is checked.
 * Then what a table cannot say: a mode given twice, a run given twice in
 * a mode, a label that is not its mode's.
 *
 * Numbers: the tools write counts as integers and other figures as
 * finite numbers, null where a figure does not exist (json.c writes a
 * non-finite number as null); nothing they write is negative except the
 * signed differences of rpcsim-analyze.  A count of 1e308 (a double) is no
 * count.
 */
#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <json-c/json.h>

#include "compare.h"

enum {
	T_NULL	= 1 << 0,
	T_BOOL	= 1 << 1,
	T_UINT	= 1 << 2,	/* an integer, 0 or more */
	T_INT	= 1 << 3,	/* an integer */
	T_NUM	= 1 << 4,	/* a finite number, 0 or more */
	T_SNUM	= 1 << 5,	/* a finite number */
	T_STR	= 1 << 6,
	T_OBJ	= 1 << 7,
	T_ARR	= 1 << 8,
};

struct schema;

struct field {
	const char *key;
	unsigned int types;
	bool required;
	const char *const *strings;	/* T_STR: the values allowed */
	const struct schema *obj;	/* T_OBJ: its members */
	unsigned int items;		/* T_ARR: the types of its items */
	const struct schema *item_obj;	/* ... and their members */
};

struct schema {
	const struct field *fields;	/* ended by a NULL key */
	unsigned int others;		/* types of members not named: 0 any */
};

/* --- the tables -------------------------------------------------------- */

static const char *const rpcsim_modes[] = { "single", "list", "array", NULL };
static const char *const rpcsim_allocs[] = {
	"single", "list", "array", "all", NULL
};
static const char *const completions[] = { "thread", "inline", NULL };
static const char *const backends[] = { "buddy", "jemalloc", "plugin",
					 NULL };
static const char *const variants[] = {
	"merged", "stop-at-first-populated", "batched-stats",
	"no-single-fallback", "pure-output", NULL
};
static const char *const profiles[] = { "lean", "kernel", NULL };

#define FIGURE	(T_NUM | T_NULL)	/* json.c: non-finite -> null */

/* Table entries. */
#define F(k, t)		{ .key = (k), .types = (t) }
#define REQ(k, t)	{ .key = (k), .types = (t), .required = true }
#define STR(k, s)	{ .key = (k), .types = T_STR, .strings = (s) }
#define REQ_STR(k, s)	{ .key = (k), .types = T_STR, .required = true, \
			  .strings = (s) }
#define OBJ(k, t, sch)	{ .key = (k), .types = (t), .obj = (sch) }
#define REQ_OBJ(k, t, sch) { .key = (k), .types = (t), .required = true, \
			     .obj = (sch) }
#define ARR(k, it, sch)	{ .key = (k), .types = T_ARR, .items = (it), \
			  .item_obj = (sch) }
#define REQ_ARR(k, it, sch) { .key = (k), .types = T_ARR, .required = true, \
			      .items = (it), .item_obj = (sch) }
#define END		{ .key = NULL }
#define SCHEMA(oth, ...) { .fields = (const struct field[]){ __VA_ARGS__, END }, \
			   .others = (oth) }

/* Objects whose every member is a count, or a figure. */
static const struct schema uint_map = { .fields = (const struct field[]){ END },
					.others = T_UINT };
static const struct schema figure_map = {
	.fields = (const struct field[]){ END }, .others = FIGURE };

static const struct schema mix_schema = SCHEMA(0,
	REQ("read", T_UINT),
	REQ("write", T_UINT));

static const struct schema jemalloc_schema = SCHEMA(0,
	F("tcache", T_BOOL),
	F("tcache_slots", T_INT),
	F("batch_alloc", T_BOOL),
	F("headroom_pages", T_UINT));

static const struct schema rpcsim_config = SCHEMA(0,
	STR("alloc", rpcsim_allocs),
	F("threads", T_UINT),
	F("duration_s", T_NUM | T_NULL),
	F("requests", T_UINT | T_NULL),
	OBJ("mix", T_OBJ, &mix_schema),
	F("io_size", T_UINT),
	F("max_payload", T_UINT),
	F("sv_max_mesg", T_UINT),
	F("rq_pages", T_UINT),
	F("pool_size", T_UINT),
	F("pool_pages", T_UINT),
	F("min_pool_pages", T_UINT),
	F("file_size", T_UINT),
	F("file_pages", T_UINT),
	F("pcp_batch", T_UINT),
	F("pcp_high", T_UINT),
	STR("backend", backends),
	F("plugin", T_STR),
	STR("bulk_variant", variants),
	STR("profile", profiles),
	OBJ("jemalloc", T_OBJ | T_NULL, &jemalloc_schema),
	STR("completion", completions),
	F("queue_depth", T_UINT),
	F("retry_wait_us", T_UINT),
	F("seed", T_UINT),
	F("repeat", T_UINT),
	F("warmup", T_UINT),
	F("asan", T_BOOL),
	F("debug_checks", T_BOOL),
	F("clock_ns", T_UINT));

static const struct schema rpcsim_pct = SCHEMA(0,
	REQ("p50", FIGURE),
	REQ("p90", FIGURE),
	REQ("p99", FIGURE),
	REQ("p99.9", FIGURE));

static const struct schema pool_at_exit = SCHEMA(T_UINT,
	F("counters_consistent", T_BOOL));

/* What a run and a mode (all its runs) both say; OPT: REQ for a run. */
#define RPCSIM_FIGURES(OPT, OPT_OBJ)					\
	REQ("calls", T_UINT),						\
	OPT("mean_us", FIGURE),						\
	F("stddev_us", FIGURE),						\
	F("min_us", FIGURE),						\
	F("max_us", FIGURE),						\
	OPT_OBJ("percentiles_us", T_OBJ, &rpcsim_pct),			\
	F("pages", T_UINT),						\
	OPT("pages_per_call", FIGURE),					\
	F("alloc_calls", T_UINT),					\
	F("alloc_calls_per_call", FIGURE),				\
	F("requests", T_UINT),						\
	OPT("requests_per_s", FIGURE),					\
	F("reads", T_UINT),						\
	F("writes", T_UINT),						\
	F("bytes_read", T_UINT),					\
	F("bytes_written", T_UINT),					\
	OPT("no_progress", T_UINT),					\
	OPT("waits", T_UINT),						\
	F("wait_s", FIGURE),						\
	F("elapsed_s", FIGURE),						\
	F("completions", T_UINT),					\
	F("digest", T_STR),						\
	OPT_OBJ("counters", T_OBJ, &uint_map)

static const struct schema rpcsim_run = SCHEMA(0,
	REQ("run", T_UINT),
	RPCSIM_FIGURES(REQ, REQ_OBJ),
	ARR("threads", T_OBJ, &uint_map),
	OBJ("accounting", T_OBJ, &uint_map),
	OBJ("pool_at_exit", T_OBJ, &pool_at_exit));

static const struct schema across_runs = SCHEMA(FIGURE,
	F("n", T_UINT),
	F("trimmed", T_UINT));

static const struct schema rpcsim_mode = SCHEMA(0,
	REQ_STR("mode", rpcsim_modes),
	F("label", T_STR),
	F("runs", T_UINT),
	RPCSIM_FIGURES(F, OBJ),
	OBJ("across_runs", T_OBJ, &across_runs),
	REQ_ARR("per_run", T_OBJ, &rpcsim_run));

/* Where the document was made (rpcsim --sweep marks other machines). */
static const struct schema rpcsim_build = SCHEMA(0,
	F("version", T_STR),
	F("libpagepool", T_STR),
	F("configure", T_STR),
	F("asan", T_BOOL),
	F("pcp_impl", T_STR));

static const struct schema rpcsim_doc = SCHEMA(0,
	REQ("program", T_STR),
	F("version", T_STR),
	F("libpagepool", T_STR),
	F("host", T_STR),
	OBJ("build", T_OBJ, &rpcsim_build),
	F("sweep", T_OBJ | T_NULL),
	REQ_OBJ("config", T_OBJ, &rpcsim_config),
	REQ_ARR("modes", T_OBJ, &rpcsim_mode),
	F("trace", T_OBJ | T_NULL));

static const struct schema analyze_lat = SCHEMA(0,
	F("count", T_UINT),
	F("sum_ns", T_UINT),
	REQ("mean_ns", FIGURE),
	F("stddev_ns", FIGURE),
	F("min_ns", T_UINT),
	F("max_ns", T_UINT),
	REQ("p50_ns", FIGURE),
	REQ("p90_ns", FIGURE),
	REQ("p99_ns", FIGURE),
	REQ("p99_9_ns", FIGURE));

/* Signed: timestamps minus latency_ns. */
static const struct schema analyze_diff = SCHEMA(T_SNUM | T_NULL,
	F("count", T_UINT),
	F("negative", T_UINT),
	F("ok", T_BOOL));

static const struct schema analyze_run_end = SCHEMA(0,
	F("events", T_UINT),
	F("calls", T_UINT),
	F("latency_sum_ns", T_UINT),
	F("mean_ns", FIGURE),
	F("pages", T_UINT),
	F("requests", T_UINT),
	F("no_progress", T_UINT),
	F("calls_match", T_BOOL));

static const struct schema analyze_config = SCHEMA(T_UINT,
	F("mode_name", T_STR),
	F("completion", T_STR),
	F("version", T_STR),
	F("pid", T_UINT | T_NULL),
	F("backend", T_STR | T_NULL),
	F("contract", T_STR | T_NULL),
	F("bulk_variant", T_STR));

/* What a mode and each of its runs say. */
#define ANALYZE_GROUP							\
	REQ("calls", T_UINT),						\
	F("mean_us", FIGURE),						\
	REQ_OBJ("latency_ns", T_OBJ | T_NULL, &analyze_lat),		\
	OBJ("timestamps", T_OBJ | T_NULL, &analyze_lat),		\
	OBJ("difference", T_OBJ | T_NULL, &analyze_diff),		\
	OBJ("run_end", T_OBJ | T_NULL, &analyze_run_end),		\
	REQ("pages_per_call", FIGURE),					\
	REQ("alloc_calls_per_call", FIGURE),				\
	F("svc_alloc_arg_err", T_UINT),					\
	REQ("svc_alloc_arg_err_per_call", FIGURE),			\
	F("retries", T_UINT),						\
	F("requests", T_UINT),						\
	OBJ("pagepool_per_call", T_OBJ, &figure_map),			\
	OBJ("pairing", T_OBJ, &uint_map)

static const struct schema analyze_run = SCHEMA(0,
	REQ("run", T_UINT | T_NULL),
	ANALYZE_GROUP,
	OBJ("config", T_OBJ | T_NULL, &analyze_config));

static const struct schema analyze_mode = SCHEMA(0,
	REQ("mode", T_UINT | T_NULL),
	REQ("label", T_STR),
	F("summary", T_STR),
	ANALYZE_GROUP,
	ARR("runs", T_OBJ, &analyze_run));

static const struct schema analyze_doc = SCHEMA(0,
	REQ("tool", T_STR),
	ARR("traces", T_STR, NULL),
	F("events", T_UINT),
	F("rpcsim_events", T_UINT),
	F("pagepool_events", T_UINT),
	F("discarded_events", T_UINT),
	F("discarded_events_records", T_UINT),
	F("discarded_events_unknown_count", T_UINT),
	F("discarded_packets", T_UINT),
	F("discarded_packets_records", T_UINT),
	F("discarded_packets_unknown_count", T_UINT),
	F("vtid", T_BOOL),
	F("tracepoint_cost_ns", T_UINT),
	REQ_ARR("modes", T_OBJ, &analyze_mode),
	ARR("warnings", T_STR, NULL));

/* --- checking ---------------------------------------------------------- */

struct check {
	const struct doc *d;
	char path[256];		/* "modes[1].per_run[0].calls" */
};

__attribute__((format(printf, 2, 3)))
static int bad(struct check *c, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "rpcsim-compare: %s: %s: ",
		strcmp(c->d->path, "-") ? c->d->path : "(stdin)",
		*c->path ? c->path : "(top level)");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return -1;
}

static size_t push(struct check *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static size_t push(struct check *c, const char *fmt, ...)
{
	size_t len = strlen(c->path);
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(c->path + len, sizeof(c->path) - len, fmt, ap);
	va_end(ap);
	return len;
}

static void pop(struct check *c, size_t len)
{
	c->path[len] = '\0';
}

/* The value as written (numbers as json-c kept their text), cut short. */
static const char *shown(json_object *v, char *buf, size_t len)
{
	const char *s = v ? json_object_to_json_string_ext(
				    v, JSON_C_TO_STRING_PLAIN) : "null";

	if (strlen(s) < len) {
		snprintf(buf, len, "%s", s);
	} else {
		snprintf(buf, len, "%.*s...", (int)len - 4, s);
	}
	return buf;
}

/* "a non-negative integer or null" */
static const char *expected(unsigned int types, char *buf, size_t len)
{
	static const struct {
		unsigned int t;
		const char *what;
	} names[] = {
		{ T_UINT, "an integer, 0 or more" },
		{ T_INT, "an integer" },
		{ T_NUM, "a finite number, 0 or more" },
		{ T_SNUM, "a finite number" },
		{ T_STR, "a string" },
		{ T_BOOL, "true or false" },
		{ T_OBJ, "an object" },
		{ T_ARR, "an array" },
		{ T_NULL, "null" },
	};
	size_t o = 0;
	unsigned int n = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < sizeof(names) / sizeof(*names); i++) {
		if (!(types & names[i].t))
			continue;
		o += (size_t)snprintf(buf + o, o < len ? len - o : 0, "%s%s",
				      n++ ? " or " : "", names[i].what);
	}
	return buf;
}

/* Does @v have one of @types? */
static bool type_ok(json_object *v, unsigned int types)
{
	switch (json_object_get_type(v)) {
	case json_type_null:
		return types & T_NULL;
	case json_type_boolean:
		return types & T_BOOL;
	case json_type_int:
		if (types & (T_INT | T_SNUM))
			return true;
		/* json-c keeps 2^63..2^64-1 as uint64 */
		if (types & (T_UINT | T_NUM))
			return json_object_get_int64(v) >= 0 ||
			       json_object_get_uint64(v) > INT64_MAX;
		return false;
	case json_type_double: {
		double x = json_object_get_double(v);

		if (!isfinite(x))
			return false;
		return (types & T_SNUM) || ((types & T_NUM) && x >= 0);
	}
	case json_type_string:
		return types & T_STR;
	case json_type_object:
		return types & T_OBJ;
	case json_type_array:
		return types & T_ARR;
	}
	return false;
}

static int check_object(struct check *c, json_object *o,
			const struct schema *s);

static int check_value(struct check *c, json_object *v, unsigned int types,
		       const char *const *strings, const struct schema *obj,
		       unsigned int items, const struct schema *item_obj)
{
	char val[64], exp[160];

	if (json_object_is_type(v, json_type_double) &&
	    !isfinite(json_object_get_double(v)) && (types & (T_NUM | T_SNUM)))
		return bad(c, "not a finite number (%s)",
			   shown(v, val, sizeof(val)));
	if (!type_ok(v, types))
		return bad(c, "%s: expected %s", shown(v, val, sizeof(val)),
			   expected(types, exp, sizeof(exp)));
	if (strings && json_object_is_type(v, json_type_string)) {
		const char *s = json_object_get_string(v);
		size_t o = 0;
		unsigned int i;

		for (i = 0; strings[i]; i++)
			if (!strcmp(s, strings[i]))
				return 0;
		for (i = 0; strings[i] && o < sizeof(exp); i++)
			o += (size_t)snprintf(exp + o, sizeof(exp) - o,
					      "%s\"%s\"",
					      !i ? "" : strings[i + 1] ? ", " :
					      " or ", strings[i]);
		return bad(c, "%s: expected %s", shown(v, val, sizeof(val)),
			   exp);
	}
	if (obj && json_object_is_type(v, json_type_object))
		return check_object(c, v, obj);
	if (items && json_object_is_type(v, json_type_array)) {
		for (size_t i = 0; i < json_object_array_length(v); i++) {
			size_t len = push(c, "[%zu]", i);

			if (check_value(c, json_object_array_get_idx(v, i),
					items, NULL, item_obj, 0, NULL))
				return -1;
			pop(c, len);
		}
	}
	return 0;
}

static int check_object(struct check *c, json_object *o,
			const struct schema *s)
{
	for (const struct field *f = s->fields; f->key; f++) {
		json_object *v = NULL;
		bool present = json_object_object_get_ex(o, f->key, &v);
		size_t len;

		if (!present) {
			if (f->required)
				return bad(c, "no member \"%s\"", f->key);
			continue;
		}
		len = push(c, "%s%s", *c->path ? "." : "", f->key);
		if (check_value(c, v, f->types, f->strings, f->obj, f->items,
				f->item_obj))
			return -1;
		pop(c, len);
	}
	if (!s->others)
		return 0;
	json_object_object_foreach(o, key, v) {
		bool named = false;
		size_t len;

		for (const struct field *f = s->fields; f->key && !named; f++)
			named = !strcmp(f->key, key);
		if (named)
			continue;
		len = push(c, "%s%s", *c->path ? "." : "", key);
		if (check_value(c, v, s->others, NULL, NULL, 0, NULL))
			return -1;
		pop(c, len);
	}
	return 0;
}

/* --- what the tables cannot say --------------------------------------- */

static const char *const rpcsim_labels[] = {
	"Single page", "Bulk list", "Bulk array",
};

/* Each mode once, with its own label; each run of a mode once. */
static int check_rpcsim_modes(struct check *c, json_object *modes)
{
	for (size_t i = 0; i < json_object_array_length(modes); i++) {
		json_object *mo = json_object_array_get_idx(modes, i), *v;
		const char *name, *label = NULL;
		json_object *runs;
		size_t m;

		json_object_object_get_ex(mo, "mode", &v);
		name = json_object_get_string(v);
		for (m = 0; strcmp(rpcsim_modes[m], name); m++)
			;
		snprintf(c->path, sizeof(c->path), "modes[%zu].mode", i);
		for (size_t k = 0; k < i; k++) {
			json_object *other = json_object_array_get_idx(modes, k);

			json_object_object_get_ex(other, "mode", &v);
			if (!strcmp(json_object_get_string(v), name))
				return bad(c, "\"%s\" given twice (also "
					   "modes[%zu]): one entry per mode",
					   name, k);
		}
		if (json_object_object_get_ex(mo, "label", &v))
			label = json_object_get_string(v);
		snprintf(c->path, sizeof(c->path), "modes[%zu].label", i);
		if (label && strcmp(label, rpcsim_labels[m]))
			return bad(c, "\"%s\": the %s mode is labelled \"%s\"",
				   label, name, rpcsim_labels[m]);
		json_object_object_get_ex(mo, "per_run", &runs);
		for (size_t r = 0; r < json_object_array_length(runs); r++) {
			json_object *run = json_object_array_get_idx(runs, r);
			int64_t nr;

			json_object_object_get_ex(run, "run", &v);
			nr = json_object_get_int64(v);
			snprintf(c->path, sizeof(c->path),
				 "modes[%zu].per_run[%zu].run", i, r);
			for (size_t k = 0; k < r; k++) {
				json_object *o = json_object_array_get_idx(runs,
									   k);

				json_object_object_get_ex(o, "run", &v);
				if (json_object_get_int64(v) == nr)
					return bad(c, "run %" PRId64 " given "
						   "twice (also per_run[%zu])",
						   nr, k);
			}
		}
	}
	return 0;
}

/* rpcsim-analyze's label of mode @mode (-1: unknown). */
static void analyze_label(int64_t mode, char *buf, size_t len)
{
	if (mode >= 0 && mode < 3)
		snprintf(buf, len, "%s", rpcsim_labels[mode]);
	else if (mode < 0)
		snprintf(buf, len, "Unknown mode");
	else
		snprintf(buf, len, "Mode %" PRId64, mode);
}

static int64_t analyze_mode_of(json_object *mo)
{
	json_object *v = NULL;

	json_object_object_get_ex(mo, "mode", &v);
	return json_object_is_type(v, json_type_null) ? -1 :
	       json_object_get_int64(v);
}

static int check_analyze_modes(struct check *c, json_object *modes)
{
	for (size_t i = 0; i < json_object_array_length(modes); i++) {
		json_object *mo = json_object_array_get_idx(modes, i), *v;
		int64_t mode = analyze_mode_of(mo);
		json_object *runs = NULL;
		char want[64];

		snprintf(c->path, sizeof(c->path), "modes[%zu].mode", i);
		if (mode > UINT32_MAX)
			return bad(c, "%" PRId64 ": expected a mode number "
				   "(rpcsim's are 0, 1 and 2)", mode);
		for (size_t k = 0; k < i; k++)
			if (analyze_mode_of(json_object_array_get_idx(modes,
								      k)) ==
			    mode)
				return bad(c, "%s given twice (also "
					   "modes[%zu]): one entry per mode",
					   json_object_to_json_string_ext(
						   json_object_object_get(mo,
									  "mode"),
						   JSON_C_TO_STRING_PLAIN), k);
		analyze_label(mode, want, sizeof(want));
		json_object_object_get_ex(mo, "label", &v);
		snprintf(c->path, sizeof(c->path), "modes[%zu].label", i);
		if (strcmp(json_object_get_string(v), want))
			return bad(c, "\"%s\": mode %" PRId64 " is labelled "
				   "\"%s\"", json_object_get_string(v), mode,
				   want);
		if (!json_object_object_get_ex(mo, "runs", &runs))
			continue;
		for (size_t r = 0; r < json_object_array_length(runs); r++) {
			json_object *run = json_object_array_get_idx(runs, r);
			json_object *cfg = NULL, *name = NULL;

			json_object_object_get_ex(run, "run", &v);
			snprintf(c->path, sizeof(c->path),
				 "modes[%zu].runs[%zu].run", i, r);
			for (size_t k = 0; k < r; k++) {
				json_object *o = json_object_array_get_idx(runs,
									   k);
				json_object *w = NULL;

				json_object_object_get_ex(o, "run", &w);
				if (json_object_get_type(w) ==
				    json_object_get_type(v) &&
				    json_object_get_int64(w) ==
				    json_object_get_int64(v))
					return bad(c, "run %s given twice "
						   "(also runs[%zu])",
						   json_object_to_json_string(
							   v), k);
			}
			if (!json_object_object_get_ex(run, "config", &cfg) ||
			    !json_object_is_type(cfg, json_type_object) ||
			    !json_object_object_get_ex(cfg, "mode_name",
						       &name))
				continue;
			snprintf(c->path, sizeof(c->path),
				 "modes[%zu].runs[%zu].config.mode_name", i,
				 r);
			if (mode >= 0 && mode < 3 &&
			    *json_object_get_string(name) &&
			    strcmp(json_object_get_string(name),
				   rpcsim_modes[mode]))
				return bad(c, "\"%s\" in a run of mode "
					   "%" PRId64 " (\"%s\")",
					   json_object_get_string(name),
					   mode, rpcsim_modes[mode]);
		}
	}
	return 0;
}

int doc_check_schema(const struct doc *d, json_object *root)
{
	struct check c = { .d = d };
	json_object *modes;

	if (check_object(&c, root, d->kind == DOC_RPCSIM ? &rpcsim_doc :
							    &analyze_doc))
		return -1;
	json_object_object_get_ex(root, "modes", &modes);
	if (d->kind != DOC_RPCSIM) {
		json_object *procs = NULL;

		/* One process per document: two processes' modes are two. */
		json_object_object_get_ex(root, "processes", &procs);
		snprintf(c.path, sizeof(c.path), "processes");
		if (procs && json_object_is_type(procs, json_type_array) &&
		    json_object_array_length(procs) > 1)
			return bad(&c, "the trace holds %zu processes; compare "
				   "one at a time (rpcsim-analyze --pid=N)",
				   json_object_array_length(procs));
	}
	return d->kind == DOC_RPCSIM ? check_rpcsim_modes(&c, modes) :
				       check_analyze_modes(&c, modes);
}
