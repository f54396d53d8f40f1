/* SPDX-License-Identifier: MIT */
/*
 * rpcsim-compare --plot: the files overlaid in one figure, drawn with
 * gnuplot through common/plot.c.  A panel per mode (the rows' order)
 * shows each file's latency profile across its runs, one series per file:
 * the mean of latency_us.mean, .p50, .p90, .p99 and .p99.9 over the runs,
 * with error bars of their sample standard deviation, on a log y axis.  A
 * last panel shows, for each new file, the change of the mean latency per
 * mode against the base with its 95 % confidence interval (Welch, as the
 * tables).  The figure's title names the settings that differ between the
 * files, and each series' key gives that file's values of them.
 *
 * The data is inline in the script (gnuplot datablocks), so the script is
 * the whole picture and deterministic but for its output's path.
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "plot.h"

static const char *const profile[] = {
	"latency_us.mean", "latency_us.p50", "latency_us.p90",
	"latency_us.p99", "latency_us.p99.9",
};
#define NR_PROFILE	(sizeof(profile) / sizeof(*profile))

static const char *const profile_tic[NR_PROFILE] = {
	"mean", "p50", "p90", "p99", "p99.9",
};

struct figure {
	const struct plan *p;
	int ids[NR_PROFILE];	/* metric ids, -1 if unknown */
	const char **keys;	/* settings that differ between the files */
	unsigned int nr_keys;
};

static int metric_id(const char *name)
{
	for (unsigned int id = 0; id < metrics_count(); id++)
		if (!strcmp(metric_name(id), name))
			return (int)id;
	return -1;
}

static const char *setting_value(const struct doc *d, const char *key)
{
	for (unsigned int i = 0; i < d->nr_settings; i++)
		if (!strcmp(d->settings[i].key, key))
			return d->settings[i].value;
	return NULL;
}

/* The union, in order of appearance, of each new file's differences. */
static void differing_keys(struct figure *f)
{
	const struct plan *p = f->p;
	unsigned int cap = 0;

	for (unsigned int i = 0; i < p->nr_docs; i++)
		cap += p->docs[i].nr_settings;
	f->keys = xcalloc(cap + 1, sizeof(*f->keys));
	for (unsigned int i = 1; i < p->nr_docs; i++) {
		struct setting_diff *diff = xcalloc(p->docs[i].nr_settings +
						    p->docs[0].nr_settings + 1,
						    sizeof(*diff));
		unsigned int n = settings_diff(&p->docs[0], &p->docs[i], diff);

		for (unsigned int k = 0; k < n; k++) {
			unsigned int j;

			for (j = 0; j < f->nr_keys; j++)
				if (!strcmp(f->keys[j], diff[k].key))
					break;
			if (j == f->nr_keys && f->nr_keys < cap)
				f->keys[f->nr_keys++] = diff[k].key;
		}
		free(diff);
	}
}

/* "asan: asan=true, pcp_batch=63": a file's column and its values. */
static void series_title(FILE *out, const struct figure *f, unsigned int i)
{
	const struct doc *d = &f->p->docs[i];
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);

	if (!m) {
		plot_quote(out, f->p->titles[i]);
		return;
	}
	fprintf(m, "%s", f->p->titles[i]);
	for (unsigned int k = 0; k < f->nr_keys; k++) {
		const char *v = setting_value(d, f->keys[k]);

		fprintf(m, "%s%s=%s", k ? ", " : ": ", f->keys[k],
			v ? v : "(none)");
	}
	fclose(m);
	plot_quote(out, buf);
	free(buf);
}

static void figure_title(FILE *out, const struct figure *f)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);

	if (!m) {
		plot_quote(out, "rpcsim-compare");
		return;
	}
	for (unsigned int i = 0; i < f->p->nr_docs; i++)
		fprintf(m, "%s%s", i ? " vs " : "", f->p->titles[i]);
	if (f->nr_keys) {
		fprintf(m, ": differing settings ");
		for (unsigned int k = 0; k < f->nr_keys; k++)
			fprintf(m, "%s%s", k ? ", " : "", f->keys[k]);
	} else {
		fprintf(m, ": same settings");
	}
	fclose(m);
	plot_quote(out, buf);
	free(buf);
}

/* "%.6g", or '?' (gnuplot's missing value) when not finite. */
static void put_num(FILE *out, double v)
{
	if (isfinite(v))
		fprintf(out, " %.6g", v);
	else
		fprintf(out, " ?");
}

/*
 * $m<mode>f<file>: "x mean stddev n" per profile point, x shifted a little
 * per file so that the error bars do not hide each other.
 */
static void profile_data(FILE *out, const struct figure *f, unsigned int m,
			 unsigned int i)
{
	const struct plan *p = f->p;
	double shift = p->nr_docs > 1 ?
		       -0.15 + 0.3 * i / (p->nr_docs - 1) : 0;

	fprintf(out, "$m%uf%u << EOD\n# x, mean over the runs (us), sample "
		"stddev, runs: %s, %s\n", m, i, p->titles[i], p->modes[m]);
	for (unsigned int k = 0; k < NR_PROFILE; k++) {
		struct cell c = { 0 };

		if (f->ids[k] >= 0)
			c = cell_of(series_of(&p->docs[i], p->modes[m],
					      (unsigned int)f->ids[k]));
		fprintf(out, "%.4g", k + shift);
		if (c.n && c.mean > 0) {
			put_num(out, c.mean);
			put_num(out, c.stddev);
		} else {
			fprintf(out, " ? ?");
		}
		fprintf(out, " %u\n", c.n);
	}
	fprintf(out, "EOD\n");
}

/* $change<file>: "x change_pct half_width_pct" of the mean per mode. */
static void change_data(FILE *out, const struct figure *f, unsigned int i)
{
	const struct plan *p = f->p;
	double shift = p->nr_docs > 2 ?
		       -0.15 + 0.3 * (i - 1) / (p->nr_docs - 2) : 0;

	fprintf(out, "$change%u << EOD\n# x (mode), %%change of the mean "
		"latency, 95 %% interval half width (%%): %s against %s\n",
		i, p->titles[i], p->titles[0]);
	for (unsigned int m = 0; m < p->nr_modes; m++) {
		struct cell b = { 0 }, c = { 0 };
		struct welch w;

		if (f->ids[0] >= 0) {
			b = cell_of(series_of(&p->docs[0], p->modes[m],
					      (unsigned int)f->ids[0]));
			c = cell_of(series_of(&p->docs[i], p->modes[m],
					      (unsigned int)f->ids[0]));
		}
		w = welch_of(&b, &c);
		fprintf(out, "%.4g", m + shift);
		if (b.n && c.n && b.mean != 0) {
			put_num(out, 100.0 * (c.mean - b.mean) / fabs(b.mean));
			/* One run on a side: the change, no interval. */
			put_num(out, w.known ? 100.0 * w.half / fabs(b.mean) :
				0);
		} else {
			fprintf(out, " ? ?");
		}
		fprintf(out, "\n");
	}
	fprintf(out, "EOD\n");
}

static void color(FILE *out, unsigned int i)
{
	fprintf(out, "lc rgb '#%06x'", plot_color(i));
}

static void body(FILE *out, void *arg)
{
	const struct figure *f = arg;
	const struct plan *p = f->p;
	unsigned int panels = p->nr_modes + (p->nr_docs > 1);
	unsigned int cols = panels > 1 ? 2 : 1, rows = (panels + 1) / 2;

	fprintf(out, "set datafile missing '?'\n");
	for (unsigned int m = 0; m < p->nr_modes; m++)
		for (unsigned int i = 0; i < p->nr_docs; i++)
			profile_data(out, f, m, i);
	for (unsigned int i = 1; i < p->nr_docs; i++)
		change_data(out, f, i);

	fprintf(out, "set multiplot layout %u,%u title ", rows, cols);
	figure_title(out, f);
	fprintf(out, " font ',13'\n");
	fprintf(out, "set grid\nset border 3\nset tics nomirror\n"
		"set key inside left top Left reverse\nset bars small\n");

	/* A panel per mode: each file's latency profile. */
	fprintf(out, "set xrange [-0.5:%.1f]\nset xtics (", NR_PROFILE - 0.5);
	for (unsigned int k = 0; k < NR_PROFILE; k++)
		fprintf(out, "%s'%s' %u", k ? ", " : "", profile_tic[k], k);
	fprintf(out, ")\nset logscale y 10\nset format y '%%g'\n"
		"set ylabel 'svc_alloc_arg() latency (us)'\n");
	for (unsigned int m = 0; m < p->nr_modes; m++) {
		char title[128];

		snprintf(title, sizeof(title), "%s: mean over the runs, "
			 "bars +/- their stddev", p->modes[m]);
		fprintf(out, "set title ");
		plot_quote(out, title);
		fprintf(out, "\nplot ");
		for (unsigned int i = 0; i < p->nr_docs; i++) {
			fprintf(out, "%s$m%uf%u using 1:2:3 with yerrorlines "
				"lw 2 pt 7 ", i ? ", \\\n     " : "", m, i);
			color(out, i);
			fprintf(out, " title ");
			series_title(out, f, i);
		}
		fprintf(out, "\n");
	}
	fprintf(out, "unset logscale y\n");

	/* The change of the mean per mode, with its 95 % interval. */
	if (p->nr_docs > 1) {
		fprintf(out, "set title ");
		plot_quote(out, "latency_us.mean: change against the base, "
			   "bars: 95 % confidence interval (Welch)");
		fprintf(out, "\nset ylabel ");
		plot_quote(out, "%change of the mean against the base");
		fprintf(out, "\nset xrange [-0.5:%.1f]\nset xtics (",
			p->nr_modes - 0.5);
		for (unsigned int m = 0; m < p->nr_modes; m++)
			fprintf(out, "%s'%s' %u", m ? ", " : "", p->modes[m],
				m);
		fprintf(out, ")\nset yrange [*:*]\n"
			"set arrow 1 from graph 0, first 0 to graph 1, first 0 "
			"nohead lc rgb 'gray40'\nplot ");
		for (unsigned int i = 1; i < p->nr_docs; i++) {
			fprintf(out, "%s$change%u using 1:2:3 with yerrorbars "
				"lw 2 pt 7 ", i > 1 ? ", \\\n     " : "", i);
			color(out, i);
			fprintf(out, " title ");
			series_title(out, f, i);
		}
		fprintf(out, "\nunset arrow\n");
	}
	fprintf(out, "unset multiplot\n");
}

int compare_plot(const struct plan *p, const char *path, const char *gnuplot,
		 char *err, size_t errlen)
{
	struct figure f = { .p = p };
	bool any = false;
	int ret;

	for (unsigned int k = 0; k < NR_PROFILE; k++) {
		f.ids[k] = metric_id(profile[k]);
		for (unsigned int i = 0; f.ids[k] >= 0 && i < p->nr_docs; i++)
			for (unsigned int m = 0; m < p->nr_modes; m++)
				if (series_of(&p->docs[i], p->modes[m],
					      (unsigned int)f.ids[k]))
					any = true;
	}
	if (!any) {
		snprintf(err, errlen, "no latency to plot in these files");
		return -1;
	}
	differing_keys(&f);
	ret = plot_write_script(path, gnuplot, body, &f, err, errlen);
	free(f.keys);
	return ret;
}
