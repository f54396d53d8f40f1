/* SPDX-License-Identifier: MIT */
/*
 * The pagebench table of a results folder (rpcsim-compare --sweep=DIR):
 * pagebench --results files, each one invocation's --json document, read
 * row by row.  Its own table, never columns of rpcsim's: pagebench
 * measures ns per page of one alloc + free on one CPU, rpcsim the
 * latency of a whole svc_alloc_arg() call under load, and a change
 * between the two would mean nothing.  A row is one configuration
 * (allocator, API, bulk size, bulk contract) of one file; the rows of a
 * configuration stand together, one per file, each with its change
 * against the first; the file-wide settings that differ between files
 * (pcp implementation, --profile, PAGEPOOL_DEBUG_LIST, --free,
 * --je-tcache, --je-batch) are columns, and
 * files run on another host or build than the first are marked, as in
 * rpcsim's table.  Each file is checked as rpcsim's points are (a fault
 * is one line naming the file and the JSON path) and a refused file's
 * rows are left out; the others are tabulated.  See sweep.h.
 */
#include <config.h>

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "result_schema.h"
#include "sweep.h"
#include "sweep_json.h"
#include "tool.h"

/*
 * What a file may hold: pagebench's own names (pagebench.c's
 * pb_allocator_names, harness.c's pb_api_names, libpagepool's bulk
 * contracts) and bounds (pagebench.h's MAX_RUNS, harness.h's
 * PB_MAX_BULK, --run-ms); for the figures, what no run measures: ns per
 * page up to result_schema.h's longest call, and a spread of runs up to
 * that over the smallest median written (4 decimals).
 */
static const char *const pb_allocators[] = {
	"buddy", "jemalloc", "plugin", "glibc", "mallocx", "mempool",
	"tcmalloc", "lifo", "contract", "percpu", NULL
};
static const char *const pb_apis[] = { "single", "list", "array", NULL };
static const char *const pb_variants[] = {
	"merged", "stop-at-first-populated", "batched-stats",
	"no-single-fallback", "pure-output", NULL
};

#define PB_RUNS_MAX		1000
#define PB_BULK_MAX		128
#define PB_RUN_MS_MIN		0.1
#define PB_RUN_MS_MAX		10000.0
/* pagebench's own slack on them: a duration's trip through seconds */
#define PB_RUN_MS_SLACK		1e-9
#define PB_NS_MAX		(RESULT_LATENCY_MAX_US * 1000)
#define PB_SPREAD_MAX_PCT	(100 * PB_NS_MAX / 1e-4)

/* The settings a file has one value of, shown when files differ. */
static const struct {
	const char *column, *member;
	bool flag;			/* a JSON bool, shown as on/off */
} fkeys[] = {
	{ "pcp", "pcp_impl", false },
	{ "profile", "profile", false },
	{ "list-debug", "debug_list", true },
	{ "free", "free", false },
	{ "je-tcache", "je_tcache", true },
	{ "je-batch", "je_batch_alloc", true },
};

#define NR_FKEYS	(sizeof(fkeys) / sizeof(fkeys[0]))

/* One result file: one pagebench invocation. */
struct pfile {
	const char *path;
	char *host, *build, *settings, *fkey[NR_FKEYS];
	double runs, run_ms;
	bool smoke, elsewhere;
};

/* One configuration of one file. */
struct prow {
	unsigned int file, seq, group;	/* group: seq of its first row */
	char *allocator, *api, *variant;
	double bulk, ns, spread;
};

struct ptable {
	struct pfile *files;
	unsigned int nr_files;
	struct prow *rows;
	unsigned int nr_rows;
	bool differ[NR_FKEYS];
	unsigned int marked;		/* rows of files marked */
};

static char *dup_or(const char *s, const char *none)
{
	return xstrdup(s ? s : none);
}

/* Where @f ran and what it ran with. */
static void file_origin(struct pfile *f, struct json_object *root,
			struct json_object *config)
{
	struct json_object *b = sweep_get_obj(root, "build", json_type_object);
	struct json_object *sw = sweep_get_obj(root, "sweep", json_type_object);
	struct json_object *smoke;
	char buf[1024];

	f->host = dup_or(sweep_get_str(root, "host"), "?");
	snprintf(buf, sizeof(buf),
		 "pagebench %s, libpagepool %s, configure '%s'",
		 sweep_get_str(b, "version") ?
		 sweep_get_str(b, "version") : "?",
		 sweep_get_str(b, "libpagepool") ?
		 sweep_get_str(b, "libpagepool") : "?",
		 sweep_get_str(b, "configure") ?
		 sweep_get_str(b, "configure") : "?");
	f->build = xstrdup(buf);
	/* A plain --json document has no settings: it joins all the same. */
	f->settings = dup_or(sweep_get_str(sw, "settings"), "not recorded");
	for (size_t k = 0; k < NR_FKEYS; k++) {
		struct json_object *v;

		if (!json_object_object_get_ex(config, fkeys[k].member, &v))
			f->fkey[k] = xstrdup("?");
		else if (fkeys[k].flag)
			f->fkey[k] = xstrdup(json_object_get_boolean(v) ?
					     "on" : "off");
		else
			f->fkey[k] = dup_or(json_object_get_string(v), "?");
	}
	smoke = sweep_get_obj(config, "smoke", json_type_boolean);
	f->smoke = smoke && json_object_get_boolean(smoke);
}

/*
 * Member @key of @o as one of @words, or null with @null_ok (*@out NULL):
 * 0, or -1 (said).
 */
static int get_word(const char *prog, const char *path, const char *where,
		    struct json_object *o, const char *key,
		    const char *const *words, bool null_ok, const char **out)
{
	struct json_object *v = NULL;
	bool there = json_object_object_get_ex(o, key, &v);
	const char *s = json_object_is_type(v, json_type_string) ?
			json_object_get_string(v) : NULL;
	char list[256], shown[96];
	size_t n = 0;

	*out = NULL;
	if (there && !v && null_ok)
		return 0;
	for (size_t i = 0; s && words[i]; i++)
		if (!strcmp(s, words[i])) {
			*out = words[i];
			return 0;
		}
	for (size_t i = 0; words[i] && n < sizeof(list); i++)
		n += (size_t)snprintf(list + n, sizeof(list) - n, "%s%s",
				      !i ? "" : words[i + 1] ? ", " : " or ",
				      words[i]);
	return sweep_refuse(prog, path, "%s%s: %s: expected %s%s", where, key,
			    there ? sweep_json_shown(v, shown, sizeof(shown)) :
			    "missing", null_ok ? "null or " : "", list);
}

static void row_free(struct prow *r)
{
	free(r->allocator);
	free(r->api);
	free(r->variant);
}

/*
 * Row @i of @results into @t, a file of @runs runs: its configuration
 * (allocator, API, bulk size and contract, each one pagebench has, and
 * not one of @first..@i - 1 again), its median ns per page and the runs'
 * spread, and a time for each run, not beyond what a run measures.  0, or
 * -1 (said).
 */
static int row_read(struct ptable *t, const char *prog, const char *path,
		    struct json_object *results, size_t i, unsigned int first,
		    int64_t runs)
{
	struct json_object *r = json_object_array_get_idx(results, i);
	struct json_object *runs_ns;
	const char *alloc, *api, *variant;
	char where[64], w[96];
	struct prow *row;
	double ns, spread, x;
	int64_t bulk;

	snprintf(where, sizeof(where), "results[%zu].", i);
	if (!json_object_is_type(r, json_type_object))
		return sweep_refuse(prog, path, "results[%zu]: not an object",
				    i);
	if (get_word(prog, path, where, r, "allocator", pb_allocators, false,
		     &alloc) ||
	    get_word(prog, path, where, r, "api", pb_apis, false, &api) ||
	    sweep_get_count(prog, path, where, r, "bulk", 1, PB_BULK_MAX,
			    &bulk) ||
	    get_word(prog, path, where, r, "variant", pb_variants, true,
		     &variant) ||
	    sweep_get_figure(prog, path, where, r, "ns_per_page", PB_NS_MAX,
			     false, &ns) ||
	    /* null: a median of 0 has no spread */
	    sweep_get_figure(prog, path, where, r, "spread_pct",
			     PB_SPREAD_MAX_PCT, true, &spread))
		return -1;
	if (!strcmp(api, "single") && bulk != 1)
		return sweep_refuse(prog, path, "%sbulk: %lld: the single "
				    "API takes one page at a time (bulk 1)",
				    where, (long long)bulk);
	runs_ns = sweep_get_obj(r, "runs_ns", json_type_array);
	if (!runs_ns && json_object_object_get_ex(r, "runs_ns", NULL))
		return sweep_refuse(prog, path, "%sruns_ns: not an array",
				    where);
	if (!runs_ns || json_object_array_length(runs_ns) != (size_t)runs)
		return sweep_refuse(prog, path, "%sruns_ns: %s%zu run%s, "
				    "but config.runs is %lld", where,
				    runs_ns ? "" : "missing: ", runs_ns ?
				    json_object_array_length(runs_ns) : 0,
				    runs_ns &&
				    json_object_array_length(runs_ns) == 1 ?
				    "" : "s", (long long)runs);
	for (size_t k = 0; k < (size_t)runs; k++) {
		snprintf(w, sizeof(w), "runs_ns[%zu]", k);
		if (sweep_figure_of(prog, path, where, w,
				    json_object_array_get_idx(runs_ns, k),
				    PB_NS_MAX, &x))
			return -1;
	}
	for (unsigned int j = first; j < t->nr_rows; j++) {
		const struct prow *o = &t->rows[j];

		if (!strcmp(o->allocator, alloc) && !strcmp(o->api, api) &&
		    o->bulk == (double)bulk &&
		    !strcmp(o->variant, variant ? variant : "-"))
			return sweep_refuse(prog, path, "results[%zu]: %s %s "
					    "bulk %lld %s again (results[%u] "
					    "is that configuration too): one "
					    "row per configuration", i, alloc,
					    api, (long long)bulk,
					    variant ? variant : "-", j - first);
	}
	t->rows = xrealloc(t->rows, t->nr_rows + 1, sizeof(*t->rows));
	row = &t->rows[t->nr_rows];
	memset(row, 0, sizeof(*row));
	row->file = t->nr_files;
	row->seq = t->nr_rows++;
	row->allocator = xstrdup(alloc);
	row->api = xstrdup(api);
	row->variant = dup_or(variant, "-");
	row->bulk = (double)bulk;
	row->ns = ns;
	row->spread = isnan(spread) ? -1 : spread;
	return 0;
}

/*
 * File @path into @t; -1 (said) when it is not a pagebench result, one
 * line naming the file and the field, and none of its rows is kept.
 */
static int file_read(struct ptable *t, const char *prog, const char *path)
{
	struct json_object *root = sweep_load_doc(prog, path);
	struct json_object *results, *config;
	unsigned int first = t->nr_rows;
	struct pfile *f;
	int64_t runs;
	double run_ms;
	int ret = -1;

	if (!root)
		return -1;
	results = sweep_get_obj(root, "results", json_type_array);
	config = sweep_get_obj(root, "config", json_type_object);
	if (!results || !config) {
		fprintf(stderr, "%s: %s: not a pagebench result (no results "
			"or config)\n", prog, path);
		goto out;
	}
	if (sweep_refuse_interrupted(prog, path, root, "a result "
				     "(pagebench --results writes no file "
				     "when cut short)"))
		goto out;
	if (sweep_get_count(prog, path, "config.", config, "runs", 1,
			    PB_RUNS_MAX, &runs) ||
	    sweep_get_figure(prog, path, "config.", config, "run_ms",
			     PB_RUN_MS_MAX + PB_RUN_MS_SLACK, false, &run_ms))
		goto out;
	if (run_ms < PB_RUN_MS_MIN - PB_RUN_MS_SLACK) {
		char shown[96];

		sweep_refuse(prog, path, "config.run_ms: %s: expected a "
			     "finite number %g to %g",
			     sweep_json_shown(json_object_object_get(config,
								     "run_ms"),
					      shown, sizeof(shown)),
			     PB_RUN_MS_MIN, PB_RUN_MS_MAX);
		goto out;
	}
	if (!json_object_array_length(results)) {
		sweep_refuse(prog, path, "results: empty: expected a "
			     "configuration or more");
		goto out;
	}
	for (size_t i = 0; i < json_object_array_length(results); i++) {
		if (row_read(t, prog, path, results, i, first, runs)) {
			/* its rows go with it */
			while (t->nr_rows > first)
				row_free(&t->rows[--t->nr_rows]);
			goto out;
		}
	}
	t->files = xrealloc(t->files, t->nr_files + 1, sizeof(*t->files));
	f = &t->files[t->nr_files++];
	memset(f, 0, sizeof(*f));
	f->path = path;
	file_origin(f, root, config);
	f->runs = (double)runs;
	f->run_ms = run_ms;
	ret = 0;
out:
	json_object_put(root);
	return ret;
}

static bool same_config(const struct prow *a, const struct prow *b)
{
	return !strcmp(a->allocator, b->allocator) &&
	       !strcmp(a->api, b->api) && a->bulk == b->bulk &&
	       !strcmp(a->variant, b->variant);
}

/* A configuration's rows together, where it first came; then by file. */
static int cmp_prow(const void *a, const void *b)
{
	const struct prow *x = a, *y = b;

	if (x->group != y->group)
		return x->group < y->group ? -1 : 1;
	if (x->file != y->file)
		return x->file < y->file ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* Groups, the differing settings, the marks; rows sorted. */
static void table_settle(struct ptable *t)
{
	const struct pfile *first = &t->files[0];

	for (unsigned int i = 0; i < t->nr_rows; i++) {
		unsigned int j = 0;

		while (!same_config(&t->rows[j], &t->rows[i]))
			j++;
		t->rows[i].group = j;
	}
	qsort(t->rows, t->nr_rows, sizeof(*t->rows), cmp_prow);
	for (unsigned int i = 1; i < t->nr_files; i++) {
		struct pfile *f = &t->files[i];

		for (size_t k = 0; k < NR_FKEYS; k++)
			t->differ[k] |= !!strcmp(f->fkey[k], first->fkey[k]);
		f->elsewhere = strcmp(f->host, first->host) ||
			       strcmp(f->build, first->build);
	}
	for (unsigned int i = 0; i < t->nr_rows; i++)
		t->marked += t->files[t->rows[i].file].elsewhere;
}

static void table_free(struct ptable *t)
{
	for (unsigned int i = 0; i < t->nr_rows; i++)
		row_free(&t->rows[i]);
	for (unsigned int i = 0; i < t->nr_files; i++) {
		free(t->files[i].host);
		free(t->files[i].build);
		free(t->files[i].settings);
		for (size_t k = 0; k < NR_FKEYS; k++)
			free(t->files[i].fkey[k]);
	}
	free(t->rows);
	free(t->files);
}

/* --- printing ------------------------------------------------------------- */

#define MAX_COLS	(6 + NR_FKEYS + 3)
#define CELL		64

/* A line of the table: its cells, and whether each is a number. */
struct line {
	char cell[MAX_COLS][CELL];
	bool right[MAX_COLS];
	unsigned int n;
};

static void put(struct line *l, bool right, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void put(struct line *l, bool right, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(l->cell[l->n], CELL, fmt, ap);
	va_end(ap);
	l->right[l->n++] = right;
}

/* The change of row @i against its configuration's first row. */
static void change_cell(struct line *l, const struct ptable *t,
			unsigned int i)
{
	const struct prow *r = &t->rows[i];
	const struct prow *base = r;
	bool alone = (i + 1 >= t->nr_rows || t->rows[i + 1].group != r->group);
	char change[32];

	while (base > t->rows && base[-1].group == r->group)
		base--;
	if (base == r) {
		put(l, true, "%s", alone ? "-" : "base");
	} else if (base->ns > 0) {
		sweep_change_text(change, sizeof(change),
				  100 * (r->ns - base->ns) / base->ns);
		put(l, true, "%s", change);
	} else {
		put(l, true, "-");
	}
}

/* The header line's cells. */
static void header_line(struct line *l, const struct ptable *t)
{
	static const char *const keys[] = { "allocator", "api", "bulk",
					    "variant" };

	l->n = 0;
	for (size_t c = 0; c < 4; c++)
		put(l, c == 2, "%s", keys[c]);
	if (t->nr_files > 1)
		put(l, true, "file");
	for (size_t k = 0; k < NR_FKEYS; k++)
		if (t->differ[k])
			put(l, false, "%s", fkeys[k].column);
	put(l, true, "ns/page");
	put(l, true, "spread");
	if (t->nr_files > 1)
		put(l, true, "change");
	if (t->marked)
		put(l, false, "where");
}

/* Row @i's cells, in the header's columns. */
static void row_line(struct line *l, const struct ptable *t, unsigned int i)
{
	const struct prow *r = &t->rows[i];
	const struct pfile *f = &t->files[r->file];

	l->n = 0;
	put(l, false, "%s", r->allocator);
	put(l, false, "%s", r->api);
	put(l, true, "%.0f", r->bulk);
	put(l, false, "%s", r->variant);
	if (t->nr_files > 1)
		put(l, true, "%u", r->file + 1);
	for (size_t k = 0; k < NR_FKEYS; k++)
		if (t->differ[k])
			put(l, false, "%s", f->fkey[k]);
	put(l, true, "%.3f", r->ns);
	if (f->runs > 1 && r->spread >= 0)
		put(l, true, "%.1f%%", r->spread);
	else
		put(l, true, "-");
	if (t->nr_files > 1)
		change_cell(l, t, i);
	if (t->marked)
		put(l, false, "%s", f->elsewhere ? "*" : "");
}

static void print_rows(FILE *out, const struct ptable *t)
{
	unsigned int nr_lines = t->nr_rows + 1, width[MAX_COLS] = { 0 };
	struct line *lines = xcalloc(nr_lines, sizeof(*lines));

	header_line(&lines[0], t);
	for (unsigned int i = 0; i < t->nr_rows; i++)
		row_line(&lines[i + 1], t, i);
	for (unsigned int i = 0; i < nr_lines; i++) {
		for (unsigned int c = 0; c < lines[i].n; c++) {
			size_t len = strlen(lines[i].cell[c]);

			if (len > width[c])
				width[c] = (unsigned int)len;
		}
	}
	for (unsigned int i = 0; i < nr_lines; i++) {
		const struct line *l = &lines[i];

		for (unsigned int c = 0; c < l->n; c++) {
			bool last = c + 1 == l->n;
			/* a last left-aligned cell: no trailing blanks */
			int w = l->right[c] ? (int)width[c] :
				last ? 0 : -(int)width[c];

			if (last && !l->right[c] && !l->cell[c][0])
				break;
			fprintf(out, "%s%*s", c ? "  " : "", w, l->cell[c]);
		}
		fputc('\n', out);
	}
	free(lines);
}

/* Above the table: what it holds and how to read it. */
static void print_title(FILE *out, const struct ptable *t)
{
	fprintf(out, "pagebench: %u row%s of %u result file%s\n",
		t->nr_rows, t->nr_rows == 1 ? "" : "s", t->nr_files,
		t->nr_files == 1 ? "" : "s");
	if (t->nr_files > 1)
		fprintf(out, "ns per page (alloc + free): the median of the "
			"file's runs, their spread\n((max - min) / median, - "
			"with one run), and the change of the median against\n"
			"the configuration's first row (- when no other file "
			"has it)\n\n");
	else
		fprintf(out, "ns per page (alloc + free): the median of the "
			"file's runs and their\nspread ((max - min) / median, "
			"- with one run)\n\n");
}

/* Below it: each file, where it ran, and its settings. */
static void print_files(FILE *out, const struct ptable *t)
{
	const char *sep = "\nevery file: ";

	for (size_t k = 0; k < NR_FKEYS; k++) {
		if (t->differ[k])
			continue;
		fprintf(out, "%s%s %s", sep, fkeys[k].column,
			t->files[0].fkey[k]);
		sep = "; ";
	}
	/* ends that line, or is the blank line when nothing is common */
	fputc('\n', out);
	for (unsigned int i = 0; i < t->nr_files; i++) {
		const struct pfile *f = &t->files[i];
		const char *base = strrchr(f->path, '/');

		fprintf(out, "%sfile %u: %s: host %s; build %s; %.0f run%s of "
			"~%g ms%s; settings %s\n", f->elsewhere ? "* " : "",
			i + 1, base ? base + 1 : f->path, f->host, f->build,
			f->runs, f->runs == 1 ? "" : "s", f->run_ms,
			f->smoke ? " (smoke: numbers meaningless)" : "",
			f->settings[0] ? f->settings : "none given");
	}
	if (t->marked)
		fprintf(out, "%u row%s marked *: run on another host or build "
			"than file 1; their changes compare machines too\n",
			t->marked, t->marked == 1 ? "" : "s");
}

int sweep_pagebench_table(FILE *out, const char *prog, char *const *paths)
{
	struct ptable t = { 0 };
	int ret = 0;

	for (char *const *p = paths; *p; p++)
		if (file_read(&t, prog, *p))
			ret = 1;
	if (!t.nr_files) {
		/* one line: a file refused says why there is no table */
		if (!ret)
			fprintf(stderr, "%s: no pagebench result to "
				"tabulate\n", prog);
		table_free(&t);
		return 1;
	}
	table_settle(&t);
	print_title(out, &t);
	print_rows(out, &t);
	print_files(out, &t);
	table_free(&t);
	return ret;
}
