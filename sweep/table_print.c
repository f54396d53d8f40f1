/* SPDX-License-Identifier: MIT */
/*
 * Sweeps: print an rpcsim sweep's table (table.h), each column as wide as
 * its widest cell, the notes on where its points ran, its plot, and the
 * tables across folders of one grid (one folder per machine).  See
 * sweep.h.
 */
#include <config.h>

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "plot.h"
#include "sweep_json.h"
#include "table.h"
#include "tool.h"

static int key_width(const struct table *t, unsigned int k)
{
	size_t w = strlen(t->keys[k].name);

	for (unsigned int i = 0; i < t->nr_rows; i++)
		if (strlen(table_value_shown(t, &t->rows[i], k)) > w)
			w = strlen(table_value_shown(t, &t->rows[i], k));
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
			table_value_shown(t, r, k));
}

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
		sweep_change_text(chg, CELL,
				  100 * (r->mean[m] - first->mean[m]) /
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
		sweep_change_text(chg, CELL, 100 * (r->pps[m] / r->pps[0] - 1));
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
				table_mode_names[m], t->w_sd[m], "+-", t->w_chg[m],
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
		fprintf(out, "  %*s", t->w_pps[m], table_mode_names[m]);
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
					     table_mode_names[m]);
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

int table_print(FILE *out, const char *prog, struct table *t,
		const char *plot_path, const char *gnuplot)
{
	int ret = 0;

	table_widths(t);
	print_header(out, t);
	if (!t->untimed) {
		print_latency_head(out, t);
		for (unsigned int i = 0; i < t->nr_rows; i++)
			print_latency_row(out, t, &t->rows[i]);
	}
	if (t->page_pool) {
		if (!t->untimed)
			fputc('\n', out);
		print_pps_table(out, t);
	}
	print_notes(out, t);
	if (t->notes)
		fprintf(out, "%u point%s marked *: run on another host or build "
			"than point %llu; their changes compare machines too\n",
			t->notes, t->notes > 1 ? "s" : "",
			(unsigned long long)t->rows[0].point);
	if (plot_path && t->untimed) {
		fprintf(stderr, "%s: --plot=%s: the points' calls were not "
			"timed (--call-timing=off): no latency to draw\n",
			prog, plot_path);
		ret = 1;
	} else if (plot_path) {
		struct figure f = { .t = t, .x = t->nr_keys - 1 };
		char err[1024];

		fflush(out);
		if (plot_write_script(plot_path, gnuplot, plot_body, &f, err,
				      sizeof(err))) {
			fprintf(stderr, "%s: --plot=%s: %s\n", prog, plot_path,
				err);
			ret = 1;
		} else {
			fprintf(out, "\nPlot: %s (latency per call against "
				"%s)\n", plot_path, t->keys[f.x].name);
		}
	}
	return ret;
}

/* --- several folders: a machine each ----------------------------------- */

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
		sweep_change_text(chg, CELL, 100 * (v - v0) / v0);
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
		table_mode_names[m], t0->untimed ? "packets per second in millions" :
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

void table_print_across(FILE *out, struct table *tabs, char *const *names,
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
				table_run_kind(tabs[i].page_pool, tabs[i].untimed),
				wnames[0], table_run_kind(with[0].page_pool,
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
