/* SPDX-License-Identifier: MIT */
/*
 * The schema of the documents rpcsim --json and rpcsim-analyze --json
 * write, checked before anything is read from them (see compare.h).
 *
 * Each object is a table of the members the tools write, expanded from
 * common/result_schema.h: the JSON types a member may have, whether it
 * must be there, the strings it may hold, and the table of what it holds.
 * Members the tables do not name are let through, or checked against the
 * types the object gives its other members (a later rpcsim may add
 * some); every named one is checked.
 * Then what a table cannot say: a mode given twice, a run given twice in
 * a mode, a label that is not its mode's.
 *
 * Numbers: the tools write counts as integers and other figures as
 * finite numbers, null where a figure does not exist (json.c writes a
 * non-finite number as null); nothing they write is negative except the
 * signed differences of rpcsim-analyze.  A count of 1e308 (a double) is no
 * count, and neither is one beyond what json-c holds
 * (sweep_json_int_beyond()).
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
#include "result_schema.h"
#include "sweep_json.h"

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

/* --- the tables: common/result_schema.h, expanded ---------------------- */

#define STRINGS(list, ...)						\
	static const char *const strings_##list[] = { __VA_ARGS__, NULL };
RESULT_STRINGS(STRINGS)

/* The columns of a member. */
#define REQ		true
#define OPT		false
#define NONE
#define STRS(list)	.strings = strings_##list
#define OBJ(object)	.obj = &schema_##object
#define ITEMS(types)	.items = (types)
#define OBJ_ITEMS(object) .items = T_OBJ, .item_obj = &schema_##object

#define FIELD(member, k, t, need, sub)					\
	{ .key = (k), .types = (t), .required = (need), sub },

/* Declared first: an object may hold one defined after it. */
#define DECLARE(object, MEMBERS, oth)					\
	static const struct schema schema_##object;
#define DEFINE(object, MEMBERS, oth)					\
	static const struct schema schema_##object = {			\
		.fields = (const struct field[]){			\
			MEMBERS(FIELD) { .key = NULL } },		\
		.others = (oth),					\
	};
RESULT_OBJECTS(DECLARE)
RESULT_OBJECTS(DEFINE)

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
	int beyond = sweep_json_int_beyond(v);

	/*
	 * json-c clamped it: not the number written, which is out of range
	 * of the types that take its sign (below 0, of the others too).
	 */
	if (beyond > 0 && (types & (T_UINT | T_INT | T_NUM | T_SNUM)) &&
	    !(types & T_FULL64))
		return bad(c, "%s: out of range: expected %s, at most "
			   "18446744073709551614",
			   sweep_json_shown(v, val, sizeof(val)),
			   expected(types, exp, sizeof(exp)));
	if (beyond < 0 && (types & (T_INT | T_SNUM)))
		return bad(c, "%s: out of range: expected %s, at least "
			   "-9223372036854775807",
			   sweep_json_shown(v, val, sizeof(val)),
			   expected(types, exp, sizeof(exp)));
	if (beyond < 0 && !type_ok(v, types))
		return bad(c, "%s: expected %s",
			   sweep_json_shown(v, val, sizeof(val)),
			   expected(types, exp, sizeof(exp)));
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

/*
 * The first of runs[0..@r - 1] whose member @key (the run's number, or
 * null) is that of runs[@r]; -1 when none is.
 */
static long earlier_run(json_object *runs, size_t r, const char *key)
{
	json_object *v = NULL;

	json_object_object_get_ex(json_object_array_get_idx(runs, r), key, &v);
	for (size_t k = 0; k < r; k++) {
		json_object *w = NULL;

		json_object_object_get_ex(json_object_array_get_idx(runs, k),
					  key, &w);
		if (json_object_get_type(w) == json_object_get_type(v) &&
		    json_object_get_int64(w) == json_object_get_int64(v))
			return (long)k;
	}
	return -1;
}

/* Each mode once, with its own label; each run of a mode once. */
static int check_rpcsim_modes(struct check *c, json_object *modes)
{
	for (size_t i = 0; i < json_object_array_length(modes); i++) {
		json_object *mo = json_object_array_get_idx(modes, i), *v;
		const char *name, *label = NULL;
		json_object *runs;
		size_t m;

		json_object_object_get_ex(mo, RK(rpcsim_mode, mode), &v);
		name = json_object_get_string(v);
		for (m = 0; strcmp(strings_rpcsim_modes[m], name); m++)
			;
		snprintf(c->path, sizeof(c->path), "%s[%zu].%s",
			 RK(rpcsim_doc, modes), i, RK(rpcsim_mode, mode));
		for (size_t k = 0; k < i; k++) {
			json_object *other = json_object_array_get_idx(modes, k);

			json_object_object_get_ex(other, RK(rpcsim_mode, mode),
						  &v);
			if (!strcmp(json_object_get_string(v), name))
				return bad(c, "\"%s\" given twice (also "
					   "modes[%zu]): one entry per mode",
					   name, k);
		}
		if (json_object_object_get_ex(mo, RK(rpcsim_mode, label), &v))
			label = json_object_get_string(v);
		snprintf(c->path, sizeof(c->path), "%s[%zu].%s",
			 RK(rpcsim_doc, modes), i, RK(rpcsim_mode, label));
		if (label && strcmp(label, rpcsim_labels[m]))
			return bad(c, "\"%s\": the %s mode is labelled \"%s\"",
				   label, name, rpcsim_labels[m]);
		json_object_object_get_ex(mo, RK(rpcsim_mode, per_run), &runs);
		for (size_t r = 0; r < json_object_array_length(runs); r++) {
			json_object *run = json_object_array_get_idx(runs, r);
			long k = earlier_run(runs, r, RK(rpcsim_run, run));

			json_object_object_get_ex(run, RK(rpcsim_run, run), &v);
			snprintf(c->path, sizeof(c->path), "%s[%zu].%s[%zu].%s",
				 RK(rpcsim_doc, modes), i,
				 RK(rpcsim_mode, per_run), r,
				 RK(rpcsim_run, run));
			if (k >= 0)
				return bad(c, "run %" PRId64 " given twice "
					   "(also per_run[%ld])",
					   json_object_get_int64(v), k);
		}
	}
	return 0;
}

/*
 * A page_pool document has the consumer's settings: rpcsim writes
 * config.page_pool with config.consumer "page_pool", and whether its calls
 * were timed is read there.
 */
static int check_rpcsim_consumer(struct check *c, json_object *root)
{
	json_object *cfg = NULL, *v = NULL;

	json_object_object_get_ex(root, RK(rpcsim_doc, config), &cfg);
	if (!json_object_object_get_ex(cfg, RK(rpcsim_config, consumer), &v) ||
	    strcmp(json_object_get_string(v), "page_pool") ||
	    json_object_object_get_ex(cfg, RK(rpcsim_config, page_pool), NULL))
		return 0;
	snprintf(c->path, sizeof(c->path), "%s.%s", RK(rpcsim_doc, config),
		 RK(rpcsim_config, page_pool));
	return bad(c, "missing: expected the page_pool consumer's settings "
		   "(config.consumer is \"page_pool\")");
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

	json_object_object_get_ex(mo, RK(analyze_mode, mode), &v);
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

		snprintf(c->path, sizeof(c->path), "%s[%zu].%s",
			 RK(analyze_doc, modes), i, RK(analyze_mode, mode));
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
							RK(analyze_mode, mode)),
						   JSON_C_TO_STRING_PLAIN), k);
		analyze_label(mode, want, sizeof(want));
		json_object_object_get_ex(mo, RK(analyze_mode, label), &v);
		snprintf(c->path, sizeof(c->path), "%s[%zu].%s",
			 RK(analyze_doc, modes), i, RK(analyze_mode, label));
		if (strcmp(json_object_get_string(v), want))
			return bad(c, "\"%s\": mode %" PRId64 " is labelled "
				   "\"%s\"", json_object_get_string(v), mode,
				   want);
		if (!json_object_object_get_ex(mo, RK(analyze_mode, runs),
					       &runs))
			continue;
		for (size_t r = 0; r < json_object_array_length(runs); r++) {
			json_object *run = json_object_array_get_idx(runs, r);
			json_object *cfg = NULL, *name = NULL;
			long k = earlier_run(runs, r, RK(analyze_run, run));

			json_object_object_get_ex(run, RK(analyze_run, run),
						  &v);
			snprintf(c->path, sizeof(c->path), "%s[%zu].%s[%zu].%s",
				 RK(analyze_doc, modes), i,
				 RK(analyze_mode, runs), r,
				 RK(analyze_run, run));
			if (k >= 0)
				return bad(c, "run %s given twice (also "
					   "runs[%ld])",
					   json_object_to_json_string(v), k);
			if (!json_object_object_get_ex(run,
						       RK(analyze_run, config),
						       &cfg) ||
			    !json_object_is_type(cfg, json_type_object) ||
			    !json_object_object_get_ex(cfg,
					RK(analyze_config, mode_name), &name))
				continue;
			snprintf(c->path, sizeof(c->path),
				 "%s[%zu].%s[%zu].%s.%s",
				 RK(analyze_doc, modes), i,
				 RK(analyze_mode, runs), r,
				 RK(analyze_run, config),
				 RK(analyze_config, mode_name));
			if (mode >= 0 && mode < 3 &&
			    *json_object_get_string(name) &&
			    strcmp(json_object_get_string(name),
				   strings_rpcsim_modes[mode]))
				return bad(c, "\"%s\" in a run of mode "
					   "%" PRId64 " (\"%s\")",
					   json_object_get_string(name),
					   mode, strings_rpcsim_modes[mode]);
		}
	}
	return 0;
}

int doc_check_schema(const struct doc *d, json_object *root)
{
	struct check c = { .d = d };
	json_object *modes;

	if (check_object(&c, root, d->kind == DOC_RPCSIM ?
			 &schema_rpcsim_doc : &schema_analyze_doc))
		return -1;
	json_object_object_get_ex(root, d->kind == DOC_RPCSIM ?
				  RK(rpcsim_doc, modes) :
				  RK(analyze_doc, modes), &modes);
	if (d->kind != DOC_RPCSIM) {
		json_object *procs = NULL;

		/* One process per document: two processes' modes are two. */
		json_object_object_get_ex(root, RK(analyze_doc, processes),
					  &procs);
		snprintf(c.path, sizeof(c.path), "%s",
			 RK(analyze_doc, processes));
		if (procs && json_object_is_type(procs, json_type_array) &&
		    json_object_array_length(procs) > 1)
			return bad(&c, "the trace holds %zu processes; compare "
				   "one at a time (rpcsim-analyze --pid=N)",
				   json_object_array_length(procs));
	}
	if (d->kind == DOC_RPCSIM)
		return check_rpcsim_consumer(&c, root) ||
		       check_rpcsim_modes(&c, modes) ? -1 : 0;
	return check_analyze_modes(&c, modes);
}
