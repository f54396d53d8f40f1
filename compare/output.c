/* SPDX-License-Identifier: MIT */
/*
 * The comparison, in the shape of lkp-tests' tables (seed 003): one table
 * per metric, one row per mode, the base file's column first:
 *
 *   plain                asan
 *   -------------------- -----------------------------------------
 *            %stddev   n    %change   95% CI          %stddev   n
 *    0.2248 ±  3%    3    +137.2%   ±10.2%      0.5333          3  array/...
 *
 * A cell is the mean of the file's runs, when above 2 % their sample
 * standard deviation (n - 1) relative to that mean (lkp's "± N%"), and n,
 * the number of runs.  Each new column carries %change = 100 * (new -
 * base) / base, the half width of its 95 % confidence interval from
 * Welch's t-test (stats.c) and a mark: '~' when the interval includes 0
 * (within the noise), '?' when unknown (fewer than 2 runs on a side).
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "compare.h"

#define BASE_W		20	/* value (10) + " ±NNN%" (6) + n (4) */
#define CHANGE_W	10
#define CI_W		8	/* "±NNNN.N%" */
#define VALUE_W		10
#define N_W		4
/* " " %change " " CI " " mark value ±N% n */
#define NEW_W		(1 + CHANGE_W + 1 + CI_W + 1 + 1 + VALUE_W + 6 + N_W)

bool metric_selected(const struct output_options *o, unsigned int id)
{
	const char *name = metric_name(id);

	if (!o->only)
		return true;
	for (char **p = o->only; *p; p++)
		if (!strncmp(name, *p, strlen(*p)))
			return true;
	return false;
}

/* --- what to print --------------------------------------------------------- */

const struct series *series_of(const struct doc *d, const char *mode,
				      unsigned int id)
{
	for (unsigned int i = 0; i < d->nr_modes; i++) {
		const struct mode_data *m = &d->modes[i];

		if (strcmp(m->name, mode))
			continue;
		return id < m->nr_series && m->series[id].n ?
		       &m->series[id] : NULL;
	}
	return NULL;
}

static void plan_modes(struct plan *p)
{
	static const char *const order[] = { "single", "list", "array" };
	unsigned int cap = 3;

	for (unsigned int i = 0; i < p->nr_docs; i++)
		cap += p->docs[i].nr_modes;
	p->modes = xcalloc(cap, sizeof(*p->modes));
	for (unsigned int k = 0; k < 3; k++) {
		for (unsigned int i = 0; i < p->nr_docs; i++) {
			bool found = false;

			for (unsigned int m = 0; m < p->docs[i].nr_modes; m++)
				if (!strcmp(p->docs[i].modes[m].name,
					    order[k]))
					found = true;
			if (found) {
				p->modes[p->nr_modes++] = order[k];
				break;
			}
		}
	}
	for (unsigned int i = 0; i < p->nr_docs; i++) {
		for (unsigned int m = 0; m < p->docs[i].nr_modes; m++) {
			const char *name = p->docs[i].modes[m].name;
			unsigned int k;

			for (k = 0; k < p->nr_modes; k++)
				if (!strcmp(p->modes[k], name))
					break;
			if (k == p->nr_modes)
				p->modes[p->nr_modes++] = name;
		}
	}
}

/* Column titles: the files' names, or base/new/new2... if two are alike. */
static void plan_titles(struct plan *p)
{
	bool clash = false;

	p->titles = xcalloc(p->nr_docs, sizeof(*p->titles));
	for (unsigned int i = 0; i < p->nr_docs; i++)
		for (unsigned int k = 0; k < i; k++)
			if (!strcmp(p->docs[i].name, p->docs[k].name))
				clash = true;
	for (unsigned int i = 0; i < p->nr_docs; i++) {
		char buf[32];

		if (!clash)
			p->titles[i] = xstrdup(p->docs[i].name);
		else if (i == 0)
			p->titles[i] = xstrdup("base");
		else if (i == 1)
			p->titles[i] = xstrdup("new");
		else {
			snprintf(buf, sizeof(buf), "new%u", i);
			p->titles[i] = xstrdup(buf);
		}
	}
}

/* Some file has a sample of metric @id; *all_zero: every sample is 0. */
static bool metric_present(const struct plan *p, unsigned int id,
			   bool *all_zero)
{
	bool present = false;

	*all_zero = true;
	for (unsigned int i = 0; i < p->nr_docs; i++) {
		for (unsigned int m = 0; m < p->nr_modes; m++) {
			const struct series *s = series_of(&p->docs[i],
							   p->modes[m], id);

			for (unsigned int k = 0; s && k < s->n; k++) {
				present = true;
				if (s->v[k] != 0)
					*all_zero = false;
			}
		}
	}
	return present;
}

/* --- text ------------------------------------------------------------------ */

/*
 * Decimals for the values of one table: four significant digits for its
 * largest mean, so that the decimal points of its rows line up.
 */
static int table_decimals(const struct plan *p, unsigned int id)
{
	double max = 0;
	int dec;

	for (unsigned int i = 0; i < p->nr_docs; i++) {
		for (unsigned int m = 0; m < p->nr_modes; m++) {
			struct cell c = cell_of(series_of(&p->docs[i],
							  p->modes[m], id));

			if (c.n && fabs(c.mean) > max)
				max = fabs(c.mean);
		}
	}
	if (max == 0 || max >= 1000)
		return 0;
	dec = 3 - (int)floor(log10(max));
	return dec < 0 ? 0 : dec > 8 ? 8 : dec;
}

/* A value in at most VALUE_W - 1 columns: one blank after the mark. */
static void fmt_value(char *buf, size_t len, double v, int decimals)
{
	int n;

	if (v == 0) {
		snprintf(buf, len, "0");
		return;
	}
	/*
	 * A value far below the table's largest would keep one digit or
	 * none at the table's decimals: three significant digits instead.
	 */
	if (fabs(v) < pow(10.0, 1 - decimals)) {
		snprintf(buf, len, "%.3g", v);
		return;
	}
	n = snprintf(buf, len, "%.*f", decimals, v);
	if (n > VALUE_W - 1)
		snprintf(buf, len, "%.3g", v);
}

/* " ±NN%" (6 columns, 7 bytes) when above 2 %, else 6 blanks. */
static void fmt_stddev(char *buf, size_t len, const struct cell *c)
{
	if (c->n >= 2 && c->rel_pct > 2)
		snprintf(buf, len, " \u00b1%3.0f%%", c->rel_pct);
	else
		snprintf(buf, len, "      ");
}

static void fmt_change(char *buf, size_t len, const struct cell *b,
		       const struct cell *n)
{
	double change;

	if (!b->n || !n->n) {
		snprintf(buf, len, " ");
		return;
	}
	if (b->mean == 0) {
		snprintf(buf, len, n->mean == 0 ? "0.0%%" : "n/a");
		return;
	}
	/* "+0.0%" or "-0.0%" for a change too small to show: its sign. */
	change = 100.0 * (n->mean - b->mean) / fabs(b->mean);
	if (n->mean == b->mean)
		snprintf(buf, len, "0.0%%");
	else if (!isfinite(change))	/* a base too near 0 for a double */
		snprintf(buf, len, "n/a");
	else if (fabs(change) < 1e6)	/* "+999999.9%": CHANGE_W columns */
		snprintf(buf, len, "%+.1f%%", change);
	else		/* "+4.0e+07%", "+3.0e+302%": CHANGE_W at most */
		snprintf(buf, len, "%+.1e%%", change);
}

static char noise_mark(const struct welch *w)
{
	return !w->known ? '?' : w->changed ? ' ' : '~';
}

/*
 * The half width of the 95 % interval relative to the base, "±12.3%",
 * right-aligned in CI_W columns ('±' is one column, two bytes); blank
 * when unknown, "n/a" when the base is 0 (unless the interval is {0}) or
 * so near 0 that the ratio is beyond a double.
 */
static void put_ci(FILE *out, const struct cell *b, const struct welch *w)
{
	char buf[64];
	double pct;
	int cols;

	if (!w->known) {
		fprintf(out, "%*s", CI_W, "");
		return;
	}
	if (b->mean == 0 && (w->half != 0 || w->diff != 0)) {
		fprintf(out, "%*s", CI_W, "n/a");
		return;
	}
	pct = b->mean == 0 ? 0 : 100.0 * w->half / fabs(b->mean);
	if (!isfinite(pct)) {
		fprintf(out, "%*s", CI_W, "n/a");
		return;
	}

	cols = snprintf(buf, sizeof(buf), "\u00b1%.1f%%", pct) - 1;
	if (cols > CI_W)
		cols = snprintf(buf, sizeof(buf), "\u00b1%.0f%%", pct) - 1;
	if (cols > CI_W)
		cols = snprintf(buf, sizeof(buf), "\u00b1%.0e%%", pct) - 1;
	fprintf(out, "%*s%s", cols < CI_W ? CI_W - cols : 0, "", buf);
}

static void put_n(FILE *out, const struct cell *c)
{
	if (c->n)
		fprintf(out, " %*u", N_W - 1, c->n);
	else
		fprintf(out, "%*s", N_W, "");
}

/* @s cut or padded to @w columns (titles are ASCII file names). */
static void put_col(FILE *out, const char *s, int w)
{
	fprintf(out, "%-*.*s", w, w, s);
}

static void text_header(FILE *out, const struct plan *p)
{
	put_col(out, p->titles[0], BASE_W);
	for (unsigned int i = 1; i < p->nr_docs; i++) {
		fputc(' ', out);
		if (i + 1 < p->nr_docs)
			put_col(out, p->titles[i], NEW_W - 1);
		else
			fprintf(out, "%.*s", NEW_W - 1, p->titles[i]);
	}
	fputc('\n', out);
	fprintf(out, "%.*s", BASE_W, "----------------------------------------"
		"--------");
	for (unsigned int i = 1; i < p->nr_docs; i++)
		fprintf(out, " %.*s", NEW_W - 1,
			"------------------------------------------------");
	fputc('\n', out);
	fprintf(out, "%*s%*s", VALUE_W + 6, "%stddev", N_W, "n");
	for (unsigned int i = 1; i < p->nr_docs; i++)
		fprintf(out, " %*s %*s  %*s%*s", CHANGE_W, "%change", CI_W,
			"95% CI", VALUE_W + 6, "%stddev", N_W, "n");
	fputc('\n', out);
}

static void text_row(FILE *out, const struct plan *p, const char *mode,
		     unsigned int id, int dec)
{
	struct cell base = cell_of(series_of(&p->docs[0], mode, id));
	char v[64], sd[16];

	if (base.n) {
		fmt_value(v, sizeof(v), base.mean, dec);
		fmt_stddev(sd, sizeof(sd), &base);
	} else {
		snprintf(v, sizeof(v), "-");
		snprintf(sd, sizeof(sd), "      ");
	}
	fprintf(out, "%*s%s", VALUE_W, v, sd);
	put_n(out, &base);
	for (unsigned int i = 1; i < p->nr_docs; i++) {
		struct cell c = cell_of(series_of(&p->docs[i], mode, id));
		struct welch w = welch_of(&base, &c);
		char ch[32];
		char mark = ' ';

		fmt_change(ch, sizeof(ch), &base, &c);
		if (base.n && c.n)
			mark = noise_mark(&w);
		if (c.n) {
			fmt_value(v, sizeof(v), c.mean, dec);
			fmt_stddev(sd, sizeof(sd), &c);
		} else {
			snprintf(v, sizeof(v), "-");
			snprintf(sd, sizeof(sd), "      ");
		}
		fprintf(out, " %*s ", CHANGE_W, ch);
		put_ci(out, &base, &w);
		fprintf(out, " %c%*s%s", mark, VALUE_W, v, sd);
		put_n(out, &c);
	}
	fprintf(out, "  %s/%s\n", mode, metric_name(id));
}

static const char *setting_of(const struct doc *d, const char *key)
{
	for (unsigned int i = 0; i < d->nr_settings; i++)
		if (!strcmp(d->settings[i].key, key))
			return d->settings[i].value;
	return NULL;
}

/*
 * The settings of @d that differ from @base's, in @d's order, then those
 * only @base has.  Between files of different kinds only the settings
 * both record are compared.  Returns how many went into @out, which has
 * room for d->nr_settings + base->nr_settings.
 */
unsigned int settings_diff(const struct doc *base, const struct doc *d,
			   struct setting_diff *out)
{
	bool same_kind = base->kind == d->kind;
	unsigned int n = 0;

	for (unsigned int i = 0; i < d->nr_settings; i++) {
		const struct setting *s = &d->settings[i];
		const char *old = setting_of(base, s->key);

		if ((!old && !same_kind) || (old && !strcmp(old, s->value)))
			continue;
		out[n++] = (struct setting_diff){ s->key, old, s->value };
	}
	for (unsigned int i = 0; same_kind && i < base->nr_settings; i++) {
		const struct setting *s = &base->settings[i];

		if (!setting_of(d, s->key))
			out[n++] = (struct setting_diff){ s->key, s->value,
							  NULL };
	}
	return n;
}

static void text_settings_diff(FILE *out, const struct doc *base,
			       const struct doc *d)
{
	struct setting_diff *diff = xcalloc(d->nr_settings +
					    base->nr_settings + 1,
					    sizeof(*diff));
	unsigned int n = settings_diff(base, d, diff);

	for (unsigned int i = 0; i < n; i++)
		fprintf(out, "%s%s %s -> %s", i ? ", " :
			"      differs from base: ", diff[i].key,
			diff[i].base ? diff[i].base : "(none)",
			diff[i].new ? diff[i].new : "(none)");
	if (!n)
		fprintf(out, "      same settings as base%s",
			base->kind != d->kind ?
			" (of those both programs record)" : "");
	fputc('\n', out);
	free(diff);
}

static void text_files(FILE *out, const struct plan *p)
{
	for (unsigned int i = 0; i < p->nr_docs; i++) {
		const struct doc *d = &p->docs[i];

		fprintf(out, "%-6s%s%s%s%s\n", i ? "new:" : "base:",
			strcmp(d->path, "-") ? d->path : "(stdin)",
			strcmp(p->titles[i], d->name) ? " (column \"" : "",
			strcmp(p->titles[i], d->name) ? p->titles[i] : "",
			strcmp(p->titles[i], d->name) ? "\")" : "");
		fprintf(out, "      %s\n", d->desc);
		if (d->origin)
			fprintf(out, "      %s\n", d->origin);
		if (d->interrupted)
			fprintf(out, "      INTERRUPTED by %s: partial figures "
				"(--partial)\n", d->interrupted);
		if (i)
			text_settings_diff(out, &p->docs[0], d);
	}
	fputc('\n', out);
}

static void text_legend(FILE *out, const bool *zero)
{
	bool first = true;

	fprintf(out,
"Each cell is the mean over a file's runs (one sample per run), their sample\n"
"standard deviation (n - 1) relative to that mean (\u00b1 N%%) when above 2 %%,\n"
"and n, the number of runs.  %%change = 100 * (new - base) / base; 95%% CI is\n"
"the half width of its 95 %% confidence interval, %%change \u00b1 CI, from Welch's\n"
"t-test on the runs' values (unequal variances).  Marks after the CI:\n"
"  ~  within the noise: the interval includes 0 (a %%change without a\n"
"     mark: it excludes 0, a change)\n"
"  ?  unknown: fewer than 2 runs on a side\n"
"  -  (as a value) the file has no such number: none of its runs gave one\n"
"     (another program or version, a refill kind without calls); no %%change\n"
"When neither side's runs vary, the difference is exact: any is a change.\n"
"Latencies are per svc_alloc_arg() call, in us; *_per_call rows divide a\n"
"run's totals by its calls (vmstat.*: libpagepool's counters; trace.*:\n"
"pagepool events in the trace); by_refill.one_page.* and .more_pages.*:\n"
"the calls that refilled one page at most (a WRITE's), or more (a READ's).\n");
	for (unsigned int id = 0; id < metrics_count(); id++) {
		if (!zero[id])
			continue;
		fprintf(out, "%s%s", first ? "Zero in every file (--all shows "
			"them): " : ", ", metric_name(id));
		first = false;
	}
	if (!first)
		fputc('\n', out);
}

static void text_output(FILE *out, const struct plan *p,
			const struct output_options *o)
{
	unsigned int n = metrics_count();
	bool *zero = xcalloc(n ? n : 1, sizeof(*zero));

	text_files(out, p);
	for (unsigned int id = 0; id < n; id++) {
		bool all_zero;
		int dec;

		if (!metric_selected(o, id) ||
		    !metric_present(p, id, &all_zero))
			continue;
		if (all_zero && !o->all) {
			zero[id] = true;
			continue;
		}
		dec = table_decimals(p, id);
		text_header(out, p);
		for (unsigned int m = 0; m < p->nr_modes; m++)
			text_row(out, p, p->modes[m], id, dec);
		fputc('\n', out);
	}
	text_legend(out, zero);
	free(zero);
}

/* --- JSON ------------------------------------------------------------------ */

static json_object *jnum(double v)
{
	char buf[64];

	if (!isfinite(v))
		return NULL;
	snprintf(buf, sizeof(buf), "%.6g", v);
	return json_object_new_double_s(v, buf);
}

static void jadd(json_object *o, const char *key, json_object *v)
{
	json_object_object_add(o, key, v);
}

static json_object *jcell(const struct cell *c, const struct series *s)
{
	json_object *o, *v;

	if (!c->n)
		return NULL;
	o = json_object_new_object();
	jadd(o, "runs", json_object_new_int64(c->n));
	jadd(o, "mean", jnum(c->mean));
	jadd(o, "stddev", jnum(c->stddev));
	jadd(o, "rel_stddev_pct", jnum(c->rel_pct));
	v = json_object_new_array();
	for (unsigned int i = 0; i < s->n; i++)
		json_object_array_add(v, jnum(s->v[i]));
	jadd(o, "values", v);
	return o;
}

/*
 * Welch's test as ministat states it ("Difference at 95.0% confidence:
 * X +/- Y, Z% +/- W%"), with its parts; null when unknown.
 */
static json_object *jwelch(const struct cell *b, const struct cell *n,
			   const struct welch *w)
{
	json_object *o;
	bool pct = b->mean != 0;

	if (!w->known)
		return NULL;
	o = json_object_new_object();
	jadd(o, "n_base", json_object_new_int64(b->n));
	jadd(o, "n_new", json_object_new_int64(n->n));
	jadd(o, "difference", jnum(w->diff));
	jadd(o, "half_width", jnum(w->half));
	jadd(o, "low", jnum(w->diff - w->half));
	jadd(o, "high", jnum(w->diff + w->half));
	jadd(o, "difference_pct", pct ? jnum(100.0 * w->diff /
					     fabs(b->mean)) : NULL);
	jadd(o, "half_width_pct", pct ? jnum(100.0 * w->half /
					     fabs(b->mean)) : NULL);
	jadd(o, "std_error", jnum(w->se));
	jadd(o, "df", jnum(w->df));
	jadd(o, "t", jnum(w->t));
	return o;
}

static json_object *jfile(const struct plan *p, unsigned int i)
{
	const struct doc *d = &p->docs[i], *base = &p->docs[0];
	json_object *o = json_object_new_object(), *set, *diff, *modes;
	struct setting_diff *diffs;
	unsigned int n;

	jadd(o, "path", json_object_new_string(d->path));
	jadd(o, "column", json_object_new_string(p->titles[i]));
	jadd(o, "role", json_object_new_string(i ? "new" : "base"));
	jadd(o, "kind", json_object_new_string(doc_kind_name(d->kind)));
	jadd(o, "description", json_object_new_string(d->desc));
	jadd(o, "origin", d->origin ? json_object_new_string(d->origin) :
	     NULL);
	jadd(o, "interrupted", json_object_new_boolean(d->interrupted != NULL));
	jadd(o, "signal", d->interrupted ?
	     json_object_new_string(d->interrupted) : NULL);
	modes = json_object_new_array();
	for (unsigned int m = 0; m < d->nr_modes; m++) {
		json_object *mo = json_object_new_object();

		jadd(mo, "mode", json_object_new_string(d->modes[m].name));
		jadd(mo, "label", json_object_new_string(d->modes[m].label));
		jadd(mo, "runs", json_object_new_int64(d->modes[m].runs));
		json_object_array_add(modes, mo);
	}
	jadd(o, "modes", modes);
	set = json_object_new_object();
	for (unsigned int k = 0; k < d->nr_settings; k++)
		jadd(set, d->settings[k].key,
		     json_object_new_string(d->settings[k].value));
	jadd(o, "settings", set);
	if (!i)
		return o;
	diffs = xcalloc(d->nr_settings + base->nr_settings + 1,
			sizeof(*diffs));
	n = settings_diff(base, d, diffs);
	diff = json_object_new_array();
	for (unsigned int k = 0; k < n; k++) {
		json_object *e = json_object_new_object();

		jadd(e, "setting", json_object_new_string(diffs[k].key));
		jadd(e, "base", diffs[k].base ?
		     json_object_new_string(diffs[k].base) : NULL);
		jadd(e, "new", diffs[k].new ?
		     json_object_new_string(diffs[k].new) : NULL);
		json_object_array_add(diff, e);
	}
	free(diffs);
	jadd(o, "differs_from_base", diff);
	return o;
}

static json_object *jrow(const struct plan *p, const char *mode,
			 unsigned int id)
{
	const struct series *bs = series_of(&p->docs[0], mode, id);
	struct cell base = cell_of(bs);
	json_object *row = json_object_new_object(), *news;

	jadd(row, "mode", json_object_new_string(mode));
	jadd(row, "base", jcell(&base, bs));
	news = json_object_new_array();
	for (unsigned int i = 1; i < p->nr_docs; i++) {
		const struct series *s = series_of(&p->docs[i], mode, id);
		struct cell c = cell_of(s);
		json_object *o = jcell(&c, s);
		struct welch w;

		if (!o) {
			json_object_array_add(news, NULL);
			continue;
		}
		if (!base.n) {
			jadd(o, "change_pct", NULL);
			jadd(o, "noise", NULL);
			jadd(o, "ci95", NULL);
			json_object_array_add(news, o);
			continue;
		}
		if (base.mean != 0)
			jadd(o, "change_pct", jnum(100.0 * (c.mean - base.mean) /
						   fabs(base.mean)));
		else
			jadd(o, "change_pct", c.mean == 0 ? jnum(0) : NULL);
		w = welch_of(&base, &c);
		jadd(o, "noise", json_object_new_string(
			     !w.known ? "unknown" : w.changed ? "beyond" :
			     "within"));
		jadd(o, "ci95", jwelch(&base, &c, &w));
		json_object_array_add(news, o);
	}
	jadd(row, "new", news);
	return row;
}

static int json_output(FILE *out, const struct plan *p,
		       const struct output_options *o)
{
	json_object *root = json_object_new_object(), *files, *metrics, *zero;

	jadd(root, "program", json_object_new_string("rpcsim-compare"));
	jadd(root, "version", json_object_new_string(PACKAGE_VERSION));
	jadd(root, "stddev", json_object_new_string(
		     "sample standard deviation of the runs' values (divides by n - 1)"));
	jadd(root, "noise", json_object_new_string(
		     "Welch's t-test at 95 % confidence (ci95: the interval "
		     "of mean(new) - mean(base)); within: the interval "
		     "includes 0; beyond: it excludes 0; unknown: fewer than "
		     "2 runs on a side.  Neither side varying, the difference "
		     "is exact (half_width 0, df and t null)"));
	files = json_object_new_array();
	for (unsigned int i = 0; i < p->nr_docs; i++)
		json_object_array_add(files, jfile(p, i));
	jadd(root, "files", files);
	metrics = json_object_new_array();
	zero = json_object_new_array();
	for (unsigned int id = 0; id < metrics_count(); id++) {
		json_object *m, *rows;
		bool all_zero;

		if (!metric_selected(o, id) ||
		    !metric_present(p, id, &all_zero))
			continue;
		if (all_zero && !o->all) {
			json_object_array_add(zero, json_object_new_string(
						      metric_name(id)));
			continue;
		}
		m = json_object_new_object();
		jadd(m, "metric", json_object_new_string(metric_name(id)));
		rows = json_object_new_array();
		for (unsigned int k = 0; k < p->nr_modes; k++)
			json_object_array_add(rows, jrow(p, p->modes[k], id));
		jadd(m, "rows", rows);
		json_object_array_add(metrics, m);
	}
	jadd(root, "metrics", metrics);
	jadd(root, "zero_in_every_file", zero);
	fprintf(out, "%s\n", json_object_to_json_string_ext(root,
		JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED |
		JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(root);
	return 0;
}

/* --- CSV ------------------------------------------------------------------- */

/* RFC 4180: quoted when it holds a comma, a quote or a line break. */
static void csv_field(FILE *out, const char *s)
{
	if (!strpbrk(s, ",\"\r\n")) {
		fputs(s, out);
		return;
	}
	fputc('"', out);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', out);
		fputc(*s, out);
	}
	fputc('"', out);
}

/* ",V", or "," alone when @v is not known (not finite, or !@known). */
static void csv_num(FILE *out, double v, bool known)
{
	fputc(',', out);
	if (known && isfinite(v))
		fprintf(out, "%.6g", v);
}

/*
 * One row per metric, mode and file, in the tables' order: the file's
 * runs, mean and stddev, and for each new file its change against the
 * base file's, the half width of that change's 95 % interval and the
 * noise verdict (within, beyond, unknown); empty where the JSON has
 * null, and the base file's own row has no change.
 */
static void csv_output(FILE *out, const struct plan *p,
		       const struct output_options *o)
{
	fputs("metric,mode,file,runs,mean,stddev,change_pct,ci95_half_width,"
	      "noise\n", out);
	for (unsigned int id = 0; id < metrics_count(); id++) {
		bool all_zero;

		if (!metric_selected(o, id) ||
		    !metric_present(p, id, &all_zero) ||
		    (all_zero && !o->all))
			continue;
		for (unsigned int m = 0; m < p->nr_modes; m++) {
			const char *mode = p->modes[m];
			struct cell base = cell_of(series_of(&p->docs[0], mode,
							     id));

			for (unsigned int i = 0; i < p->nr_docs; i++) {
				struct cell c = cell_of(series_of(&p->docs[i],
								  mode, id));
				bool cmp = i && base.n && c.n;
				struct welch w = { 0 };

				if (cmp)
					w = welch_of(&base, &c);
				csv_field(out, metric_name(id));
				fputc(',', out);
				csv_field(out, mode);
				fputc(',', out);
				csv_field(out, p->docs[i].path);
				fprintf(out, ",%u", c.n);
				csv_num(out, c.mean, c.n);
				csv_num(out, c.stddev, c.n);
				csv_num(out, base.mean ? 100.0 * (c.mean -
					base.mean) / fabs(base.mean) : 0,
					cmp && (base.mean || !c.mean));
				csv_num(out, w.half, cmp && w.known);
				fprintf(out, ",%s\n", !cmp ? "" :
					!w.known ? "unknown" :
					w.changed ? "beyond" : "within");
			}
		}
	}
}

void plan_init(struct plan *p, struct doc *docs, unsigned int nr_docs)
{
	*p = (struct plan){ .docs = docs, .nr_docs = nr_docs };
	plan_modes(p);
	plan_titles(p);
}

void plan_free(struct plan *p)
{
	for (unsigned int i = 0; i < p->nr_docs; i++)
		free(p->titles[i]);
	free(p->titles);
	free(p->modes);
}

int output(FILE *out, struct doc *docs, unsigned int nr_docs,
	   const struct output_options *o)
{
	struct plan p;
	int ret = 0;

	plan_init(&p, docs, nr_docs);
	if (o->json)
		json_output(out, &p, o);
	else if (o->csv)
		csv_output(out, &p, o);
	else
		text_output(out, &p, o);
	if (fflush(out) || ferror(out))
		ret = -1;
	if (!ret && o->plot_path) {
		char err[1024];

		if (compare_plot(&p, o->plot_path, o->gnuplot, err,
				 sizeof(err))) {
			fprintf(stderr, "rpcsim-compare: --plot=%s: %s\n",
				o->plot_path, err);
			ret = 1;
		} else if (!o->json && !o->csv) {
			fprintf(out, "Plot: %s (each file's latency per mode, "
				"and the change of the mean with its 95 %% "
				"interval)\n", o->plot_path);
			if (fflush(out) || ferror(out))
				ret = -1;
		}
	}
	plan_free(&p);
	return ret;
}
