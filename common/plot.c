/* SPDX-License-Identifier: MIT */
/* Latency plots with gnuplot (see plot.h). */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <poll.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "files.h"
#include "number.h"
#include "plot.h"

extern char **environ;

#define BINS_PER_DECADE	20
#define NR_COLORS	6

/* Single page red, bulk list blue, bulk array green, then others. */
static const unsigned int colors[NR_COLORS] = {
	0xd62728, 0x1f77b4, 0x2ca02c, 0x9467bd, 0xff7f0e, 0x8c564b,
};

struct bucket {
	uint64_t value;		/* ns */
	uint64_t count;
};

struct plot_series {
	char *label;		/* "Bulk array" */
	char *key;		/* its line in the histogram's key */
	double mean_ns;
	double pages_per_call;
	struct bucket *b;
	size_t n, cap;
	uint64_t total;		/* sum of the counts */
	/* plot_series_time(): latency over time, NAN where no call ended */
	double *t_s, *t_mean_us, *t_p99_us;
	size_t nt;
};

struct plot {
	char *title;
	struct plot_series **s;
	unsigned int n;
};

enum plot_format {
	PLOT_SVG,
	PLOT_PNG,
};

static void set_err(char *err, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void set_err(char *err, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, len, fmt, ap);
	va_end(ap);
}

static int format_of(const char *path)
{
	size_t len = strlen(path);

	if (len > 4 && !strcasecmp(path + len - 4, ".svg"))
		return PLOT_SVG;
	if (len > 4 && !strcasecmp(path + len - 4, ".png"))
		return PLOT_PNG;
	return -1;
}

int plot_check_path(const char *path, char *err, size_t errlen)
{
	const char *base = strrchr(path, '/');

	base = base ? base + 1 : path;
	if (format_of(path) < 0 || strlen(base) <= 4) {
		set_err(err, errlen, "expected a file name ending in .svg or "
			".png (the picture's type)");
		return -1;
	}
	return 0;
}

/* @name in a directory of $PATH, as execvp() would find it. */
static int search_path(const char *name, char *buf, size_t len)
{
	const char *path = getenv("PATH");
	const char *p = path && *path ? path : "/usr/local/bin:/usr/bin:/bin";

	while (*p) {
		size_t dl = strcspn(p, ":");

		if ((int)snprintf(buf, len, "%.*s%s%s", (int)dl, dl ? p : ".",
				  "/", name) < (int)len &&
		    !access(buf, X_OK)) {
			struct stat st;

			if (!stat(buf, &st) && S_ISREG(st.st_mode))
				return 0;
		}
		p += dl;
		if (*p == ':')
			p++;
	}
	return -1;
}

int plot_check_dest(const char *path, char *err, size_t errlen)
{
	const char *slash = strrchr(path, '/');
	char dir[PATH_MAX];
	struct stat st;

	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else if (slash == path)
		snprintf(dir, sizeof(dir), "/");
	else
		snprintf(dir, sizeof(dir), "%.*s", (int)(slash - path), path);
	if (stat(dir, &st) || !S_ISDIR(st.st_mode)) {
		set_err(err, errlen, "no directory %s to write the plot in",
			dir);
		return -1;
	}
	if (access(dir, W_OK)) {
		set_err(err, errlen, "cannot write in %s: %s", dir,
			strerror(errno));
		return -1;
	}
	if (!stat(path, &st) && S_ISDIR(st.st_mode)) {
		set_err(err, errlen, "%s is a directory", path);
		return -1;
	}
	return 0;
}

/* How long gnuplot may take (plot_find_gnuplot() reads the setting). */
static unsigned int gnuplot_timeout_s = PLOT_GNUPLOT_TIMEOUT_DEFAULT;

int plot_read_timeout(char *err, size_t errlen)
{
	const char *secs = getenv(PLOT_GNUPLOT_TIMEOUT_ENV);
	uint64_t v;

	if (!secs)
		return 0;
	if (num_parse_u64(secs, &v) || v < 1 || v > PLOT_GNUPLOT_TIMEOUT_MAX) {
		set_err(err, errlen, "%s=%s: expected a number of seconds "
			"from 1 to %u", PLOT_GNUPLOT_TIMEOUT_ENV, secs,
			PLOT_GNUPLOT_TIMEOUT_MAX);
		return -1;
	}
	gnuplot_timeout_s = (unsigned int)v;
	return 0;
}

int plot_find_gnuplot(char *buf, size_t len, char *err, size_t errlen)
{
	const char *env = getenv(PLOT_GNUPLOT_ENV);
	struct stat st;

	if (plot_read_timeout(err, errlen))
		return -1;

	if (env && *env) {
		if (strchr(env, '/')) {
			if (!access(env, X_OK) && !stat(env, &st) &&
			    S_ISREG(st.st_mode) &&
			    (size_t)snprintf(buf, len, "%s", env) < len)
				return 0;
		} else if (!search_path(env, buf, len)) {
			return 0;
		}
		set_err(err, errlen, "gnuplot not found: %s=%s is not an "
			"executable file; install gnuplot (apt-get install "
			"gnuplot-nox) and unset %s, or leave out the plot",
			PLOT_GNUPLOT_ENV, env, PLOT_GNUPLOT_ENV);
		return -1;
	}
	if (!search_path("gnuplot", buf, len))
		return 0;
	set_err(err, errlen, "gnuplot not found in PATH; the plots are drawn "
		"with gnuplot: apt-get install gnuplot-nox (or set %s to its "
		"path), or leave out the plot", PLOT_GNUPLOT_ENV);
	return -1;
}

struct plot *plot_new(const char *title)
{
	struct plot *p = calloc(1, sizeof(*p));

	if (!p)
		return NULL;
	p->title = strdup(title ? title : "");
	if (!p->title) {
		free(p);
		return NULL;
	}
	return p;
}

void plot_free(struct plot *p)
{
	if (!p)
		return;
	for (unsigned int i = 0; i < p->n; i++) {
		free(p->s[i]->label);
		free(p->s[i]->key);
		free(p->s[i]->b);
		free(p->s[i]->t_s);
		free(p->s[i]->t_mean_us);
		free(p->s[i]->t_p99_us);
		free(p->s[i]);
	}
	free(p->s);
	free(p->title);
	free(p);
}

struct plot_series *plot_add_series(struct plot *p, const char *label,
				    const char *key, double mean_ns,
				    double pages_per_call)
{
	struct plot_series *s, **arr;

	arr = realloc(p->s, (p->n + 1) * sizeof(*arr));
	if (!arr)
		return NULL;
	p->s = arr;
	s = calloc(1, sizeof(*s));
	if (!s)
		return NULL;
	s->label = strdup(label);
	s->key = strdup(key);
	if (!s->label || !s->key) {
		free(s->label);
		free(s->key);
		free(s);
		return NULL;
	}
	s->mean_ns = mean_ns;
	s->pages_per_call = pages_per_call;
	p->s[p->n++] = s;
	return s;
}

int plot_series_time(struct plot_series *s, double t_s, double mean_us,
		     double p99_us)
{
	size_t n = s->nt + 1;
	double *a = realloc(s->t_s, n * sizeof(double));

	if (!a)
		return -ENOMEM;
	s->t_s = a;
	a = realloc(s->t_mean_us, n * sizeof(double));
	if (!a)
		return -ENOMEM;
	s->t_mean_us = a;
	a = realloc(s->t_p99_us, n * sizeof(double));
	if (!a)
		return -ENOMEM;
	s->t_p99_us = a;
	s->t_s[s->nt] = t_s;
	s->t_mean_us[s->nt] = mean_us;
	s->t_p99_us[s->nt] = p99_us;
	s->nt = n;
	return 0;
}

int plot_series_add(struct plot_series *s, uint64_t value_ns, uint64_t count)
{
	if (!count)
		return 0;
	if (s->n == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 256;
		struct bucket *b = realloc(s->b, cap * sizeof(*b));

		if (!b)
			return -ENOMEM;
		s->b = b;
		s->cap = cap;
	}
	s->b[s->n].value = value_ns;
	s->b[s->n].count = count;
	s->n++;
	s->total += count;
	return 0;
}

static int bucket_cmp(const void *x, const void *y)
{
	const struct bucket *a = x, *b = y;

	return (a->value > b->value) - (a->value < b->value);
}

/* Log bin of a value in ns: 20 per decade, from 1 ns. */
static int bin_of(uint64_t v)
{
	return v ? (int)floor(log10((double)v) * BINS_PER_DECADE + 1e-9) : 0;
}

static double bin_lo_us(int bin)
{
	return pow(10.0, (double)bin / BINS_PER_DECADE) / 1000.0;
}

/* --- the temporary directory ------------------------------------------- */

struct workdir {
	char dir[PATH_MAX];
	unsigned int nr_series;
	const char *out;	/* "out.svg" or "out.png" */
};

/* A fresh private directory in $TMPDIR (or /tmp) for the files of one plot. */
static int wd_create(struct workdir *w, int fmt, char *err, size_t errlen)
{
	const char *tmp = getenv("TMPDIR");

	w->out = fmt == PLOT_SVG ? "out.svg" : "out.png";
	snprintf(w->dir, sizeof(w->dir), "%s/rpcsim-plot.XXXXXX",
		 tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(w->dir)) {
		set_err(err, errlen, "cannot create a temporary directory "
			"%s: %s", w->dir, strerror(errno));
		return -1;
	}
	return 0;
}

static void wd_path(const struct workdir *w, char *buf, size_t len,
		    const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static void wd_path(const struct workdir *w, char *buf, size_t len,
		    const char *fmt, ...)
{
	va_list ap;
	int n = snprintf(buf, len, "%s/", w->dir);

	va_start(ap, fmt);
	vsnprintf(buf + n, len - (size_t)n, fmt, ap);
	va_end(ap);
}

static void wd_remove(const struct workdir *w)
{
	static const char *const fixed[] = { "bars.dat", "plot.gp",
					     "gnuplot.err", "out.svg",
					     "out.png" };
	char path[PATH_MAX + 32];

	for (unsigned int i = 0; i < w->nr_series; i++) {
		wd_path(w, path, sizeof(path), "h%u.dat", i);
		unlink(path);
		wd_path(w, path, sizeof(path), "c%u.dat", i);
		unlink(path);
		wd_path(w, path, sizeof(path), "t%u.dat", i);
		unlink(path);
	}
	for (size_t i = 0; i < sizeof(fixed) / sizeof(*fixed); i++) {
		wd_path(w, path, sizeof(path), "%s", fixed[i]);
		unlink(path);
	}
	rmdir(w->dir);
}

static FILE *wd_open(const struct workdir *w, const char *name, char *err,
		     size_t errlen)
{
	char path[PATH_MAX + 32];
	FILE *f;

	wd_path(w, path, sizeof(path), "%s", name);
	f = fopen(path, "w");
	if (!f)
		set_err(err, errlen, "cannot write %s: %s", path,
			strerror(errno));
	return f;
}

static int wd_close(FILE *f, const char *name, char *err, size_t errlen)
{
	if (ferror(f) | fclose(f)) {
		set_err(err, errlen, "writing the plot's %s: %s", name,
			strerror(errno ? errno : EIO));
		return -1;
	}
	return 0;
}

/* --- data files ---------------------------------------------------------- */

/*
 * hN.dat: "x_us share_pct" steps of the log-binned histogram over bins
 * [lo, hi], closed at zero on both sides.
 */
static int write_hist(const struct workdir *w, unsigned int i,
		      const struct plot_series *s, int lo, int hi, char *err,
		      size_t errlen)
{
	int nbins = hi - lo + 1;
	uint64_t *count = calloc((size_t)nbins, sizeof(*count));
	char name[32];
	FILE *f;

	if (!count) {
		set_err(err, errlen, "out of memory");
		return -1;
	}
	for (size_t k = 0; k < s->n; k++)
		count[bin_of(s->b[k].value) - lo] += s->b[k].count;
	snprintf(name, sizeof(name), "h%u.dat", i);
	f = wd_open(w, name, err, errlen);
	if (!f) {
		free(count);
		return -1;
	}
	fprintf(f, "# latency bin lower edge (us), share of calls (%%)\n");
	fprintf(f, "%.6g 0\n", bin_lo_us(lo));
	for (int b = 0; b < nbins; b++)
		fprintf(f, "%.6g %.6g\n", bin_lo_us(lo + b),
			100.0 * (double)count[b] / (double)s->total);
	fprintf(f, "%.6g 0\n", bin_lo_us(hi + 1));
	free(count);
	return wd_close(f, name, err, errlen);
}

/*
 * cN.dat: "x_us cdf_pct tail_pct" at every bucket: calls at or below x,
 * and above x ('?' where none are, which a log axis cannot show).
 */
static int write_cdf(const struct workdir *w, unsigned int i,
		     const struct plot_series *s, bool *has_tail, char *err,
		     size_t errlen)
{
	uint64_t seen = 0;
	char name[32];
	FILE *f;

	snprintf(name, sizeof(name), "c%u.dat", i);
	f = wd_open(w, name, err, errlen);
	if (!f)
		return -1;
	fprintf(f, "# latency (us), calls at or below (%%), calls above (%%)\n");
	fprintf(f, "%.6g 0 ?\n", (double)s->b[0].value / 1000.0);
	for (size_t k = 0; k < s->n; k++) {
		uint64_t above;

		seen += s->b[k].count;
		above = s->total - seen;
		fprintf(f, "%.6g %.6g ", (double)s->b[k].value / 1000.0,
			100.0 * (double)seen / (double)s->total);
		if (above) {
			fprintf(f, "%.6g\n",
				100.0 * (double)above / (double)s->total);
			*has_tail = true;
		} else {
			fprintf(f, "?\n");
		}
	}
	return wd_close(f, name, err, errlen);
}

/* A string in gnuplot's single quotes: ' doubled, control chars blanked. */
static void gp_string(FILE *f, const char *s)
{
	fputc('\'', f);
	for (; *s; s++) {
		if (*s == '\'')
			fputs("''", f);
		else if ((unsigned char)*s < 0x20)
			fputc(' ', f);
		else
			fputc(*s, f);
	}
	fputc('\'', f);
}

static void color(FILE *f, unsigned int i)
{
	fprintf(f, "lc rgb '#%06x'", colors[i % NR_COLORS]);
}

/*
 * "plot" and one line per series with calls: data file @kind<i>.dat,
 * columns @using, the series' color, titled with its key or its label.
 * @min_buckets 2 leaves out a series whose calls all fell in one bucket
 * (it has no tail).
 */
static void plot_lines(FILE *f, const struct workdir *w, const struct plot *p,
		       char kind, const char *using, size_t min_buckets,
		       bool key)
{
	char path[PATH_MAX + 32];
	bool first = true;

	fprintf(f, "plot ");
	for (unsigned int i = 0; i < p->n; i++) {
		if (!p->s[i]->total || p->s[i]->n < min_buckets)
			continue;
		wd_path(w, path, sizeof(path), "%c%u.dat", kind, i);
		fprintf(f, "%s", first ? "" : ", \\\n     ");
		first = false;
		gp_string(f, path);
		fprintf(f, " using %s with steps lw 2 ", using);
		color(f, i);
		fprintf(f, " title ");
		gp_string(f, key ? p->s[i]->key : p->s[i]->label);
	}
	fputc('\n', f);
}

/* The picture's terminal (1200x860, of the type @fmt) and its output. */
static void write_terminal(FILE *f, const struct workdir *w,
			   enum plot_format fmt, unsigned int height)
{
	char path[PATH_MAX + 32];

	if (fmt == PLOT_SVG) {
		fprintf(f, "set terminal svg size 1200,%u dynamic noenhanced "
			"font 'Sans,11' background rgb 'white'\n", height);
	} else {
		fprintf(f, "if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {\n"
			"\tset terminal pngcairo size 1200,%u noenhanced "
			"font 'Sans,10' background rgb 'white'\n"
			"} else {\n"
			"\tset terminal png size 1200,%u noenhanced "
			"background rgb 'white'\n}\n", height, height);
	}
	wd_path(w, path, sizeof(path), "%s", w->out);
	fprintf(f, "set output ");
	gp_string(f, path);
	fputc('\n', f);
}

/*
 * What the data spans: the body of the distributions (the smallest value
 * to the largest p99.99, the x range of the histogram and the CDF, so that
 * one outlier of milliseconds does not squeeze them into a corner) and
 * whether any series has a tail to draw (calls in more than one bucket).
 */
struct extent {
	double lo_us, hi_us;
	bool has_tail;
	bool has_time;		/* a series has latency over time */
};

/* 5: latency over time, each mode's mean (solid) and p99 (dashed). */
static void write_time_panel(FILE *f, const struct workdir *w,
			     const struct plot *p)
{
	char path[PATH_MAX + 32];
	bool first = true;

	fprintf(f, "set title 'Latency over time (solid: mean, dashed: p99; "
		"per interval, the runs pooled)'\n"
		"set xlabel 'seconds from the start of the run'\n"
		"set ylabel 'svc_alloc_arg() latency per call (us)'\n"
		"set xtics scale default\nset grid xtics ytics\n"
		"set autoscale x\nset yrange [0:*]\nset offsets 0, 0, 0, 0\n"
		"set key top right\n");
	fprintf(f, "plot ");
	for (unsigned int i = 0; i < p->n; i++) {
		if (!p->s[i]->nt)
			continue;
		wd_path(w, path, sizeof(path), "t%u.dat", i);
		for (int k = 0; k < 2; k++) {
			fprintf(f, "%s", first ? "" : ", \\\n     ");
			first = false;
			gp_string(f, path);
			fprintf(f, " using 1:%d with linespoints pt 7 ps 0.4 "
				"lw 2 %s", k ? 3 : 2, k ? "dt 2 " : "");
			color(f, i);
			fprintf(f, " title ");
			if (k)
				fprintf(f, "''");
			else
				gp_string(f, p->s[i]->label);
		}
	}
	fputc('\n', f);
}

static int write_time(const struct workdir *w, unsigned int i,
		      const struct plot_series *s, char *err, size_t errlen)
{
	char name[32];
	FILE *f;

	snprintf(name, sizeof(name), "t%u.dat", i);
	f = wd_open(w, name, err, errlen);
	if (!f)
		return -1;
	fprintf(f, "# seconds from the start, mean us, p99 us\n");
	for (size_t k = 0; k < s->nt; k++) {
		if (isnan(s->t_mean_us[k]))
			fprintf(f, "%.6g ? ?\n", s->t_s[k]);
		else
			fprintf(f, "%.6g %.6g %.6g\n", s->t_s[k],
				s->t_mean_us[k], s->t_p99_us[k]);
	}
	return wd_close(f, name, err, errlen);
}

static int write_script(const struct workdir *w, const struct plot *p,
			enum plot_format fmt, const struct extent *x,
			char *err, size_t errlen)
{
	char path[PATH_MAX + 32];
	FILE *f = wd_open(w, "plot.gp", err, errlen);
	unsigned int i;

	if (!f)
		return -1;
	write_terminal(f, w, fmt, x->has_time ? 1290 : 860);
	fprintf(f, "set datafile missing '?'\n");
	fprintf(f, "set multiplot layout %u,2 title ", x->has_time ? 3 : 2);
	gp_string(f, p->title);
	fprintf(f, " font ',13'\n");
	fprintf(f, "set grid\nset border 3\nset tics nomirror\n"
		"set logscale x 10\nset format x '%%g'\n"
		"set xlabel 'svc_alloc_arg() latency per call (us)'\n");

	/* From the decade below the smallest value: a labelled tic there. */
	fprintf(f, "set xrange [%.6g:%.6g]\n",
		pow(10.0, floor(log10(x->lo_us))), x->hi_us);

	/* 1: distribution, means dashed. */
	/* Headroom above the bins keeps the key off the data. */
	fprintf(f, "set title 'Latency distribution (dashed: mean; x to p99.99)'\n"
		"set ylabel 'calls (%% per bin, %d bins per decade)'\n"
		"set yrange [0:*]\nset offsets 0, 0, graph %.2f, 0\n"
		"set key top right\n", BINS_PER_DECADE,
		0.12 + 0.07 * p->n);
	for (i = 0; i < p->n; i++) {
		if (!p->s[i]->total)
			continue;
		fprintf(f, "set arrow %u from %.6g, graph 0 to %.6g, graph "
			"%.2f nohead dt 2 lw 1.5 ", i + 1,
			p->s[i]->mean_ns / 1000.0, p->s[i]->mean_ns / 1000.0,
			0.95 - 0.07 * p->n);
		color(f, i);
		fprintf(f, " front\n");
	}
	plot_lines(f, w, p, 'h', "1:2", 1, true);
	fprintf(f, "unset arrow\nset offsets 0, 0, 0, 0\n");

	/* 2: CDF. */
	fprintf(f, "set title 'Cumulative distribution (x to p99.99)'\n"
		"set ylabel 'calls at or below x (%%)'\n"
		"set yrange [0:100]\nset key bottom right\n");
	plot_lines(f, w, p, 'c', "1:2", 1, false);

	/* 3: tail, log-log, every call, with the p99 and p99.9 levels. */
	fprintf(f, "set autoscale x\nset title 'Tail: calls slower than x (p99 at 1 %%, "
		"p99.9 at 0.1 %%)'\n"
		"set ylabel 'calls slower than x (%%)'\n"
		"set logscale y 10\nset yrange [*:100]\nset format y '%%g'\n"
		"set key top right\n"
		"set arrow 1 from graph 0, first 1 to graph 1, first 1 nohead "
		"dt 3 lc rgb 'gray40'\n"
		"set arrow 2 from graph 0, first 0.1 to graph 1, first 0.1 "
		"nohead dt 3 lc rgb 'gray40'\n"
		"set label 1 'p99' at graph 0.01, first 1 offset 0,0.5\n"
		"set label 2 'p99.9' at graph 0.01, first 0.1 offset 0,0.5\n");
	if (x->has_tail) {
		plot_lines(f, w, p, 'c', "1:3", 2, false);
	} else {
		/* Every call in one bucket: nothing slower to draw. */
		fprintf(f, "set label 3 'no tail: every call took the same "
			"time' at graph 0.5, graph 0.5 center\n"
			"set xrange [0.1:10]\nset yrange [0.01:100]\n"
			"plot 1e9 notitle\nset autoscale x\n");
	}
	fprintf(f, "unset arrow\nunset label\nunset logscale\n"
		"set format y '%%g'\n");

	/* 4: pages refilled per call. */
	fprintf(f, "set title 'Pages refilled per call (label: mean latency "
		"per page refilled)'\n"
		"set xlabel ''\nset ylabel 'pages per svc_alloc_arg() call'\n"
		"set format x '%%g'\nset xrange [-0.6:%u.6]\nset yrange [0:*]\n"
		"set xtics scale 0\nset grid noxtics\n"
		"set offsets 0, 0, graph 0.2, 0\n"
		"set style fill solid 0.75 border -1\nset boxwidth 0.6\n",
		p->n ? p->n - 1 : 0);
	wd_path(w, path, sizeof(path), "bars.dat");
	fprintf(f, "plot ");
	gp_string(f, path);
	fprintf(f, " using 0:2:3:xtic(1) with boxes lc rgb variable "
		"notitle, \\\n     ");
	gp_string(f, path);
	fprintf(f, " using 0:2:(sprintf(\"%%.2f pages\\n%%.1f ns per page\", "
		"$2, $4)) with labels offset 0,1.6 notitle\n");
	if (x->has_time)
		write_time_panel(f, w, p);
	fprintf(f, "unset multiplot\nset output\n");
	return wd_close(f, "plot.gp", err, errlen);
}

static int write_bars(const struct workdir *w, const struct plot *p,
		      char *err, size_t errlen)
{
	FILE *f = wd_open(w, "bars.dat", err, errlen);

	if (!f)
		return -1;
	fprintf(f, "# mode, pages refilled per call, color, ns per page\n");
	for (unsigned int i = 0; i < p->n; i++) {
		double ppc = p->s[i]->pages_per_call;

		fprintf(f, "\"");
		for (const char *c = p->s[i]->label; *c; c++)
			fputc(*c == '"' || (unsigned char)*c < 0x20 ? ' ' : *c,
			      f);
		fprintf(f, "\" %.6g %u %.6g\n", ppc, colors[i % NR_COLORS],
			ppc > 0 ? p->s[i]->mean_ns / ppc : 0);
	}
	return wd_close(f, "bars.dat", err, errlen);
}

/* --- running gnuplot ------------------------------------------------------ */

/* The last non-empty line of gnuplot's messages: its error. */
static void gnuplot_message(const struct workdir *w, char *buf, size_t len)
{
	char path[PATH_MAX + 32], line[512];
	FILE *f;

	buf[0] = '\0';
	wd_path(w, path, sizeof(path), "gnuplot.err");
	f = fopen(path, "r");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		if (line[strspn(line, " \t^")])
			snprintf(buf, len, "%s", line + strspn(line, " \t"));
	}
	fclose(f);
}

static uint64_t mono_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

/*
 * Wait for our child @pid at most @seconds; past that, kill it (SIGKILL,
 * that pid only) and reap it.  The wait sleeps in poll() on a pidfd
 * (Linux 5.3), else in 50 ms steps.  0 with *@status, or -1 with errno;
 * *@timed_out says it was killed.
 */
static int wait_bounded(pid_t pid, unsigned int seconds, int *status,
			bool *timed_out)
{
	uint64_t deadline = mono_ms() + (uint64_t)seconds * 1000;
	int fd = -1;

	*timed_out = false;
#ifdef SYS_pidfd_open
	fd = (int)syscall(SYS_pidfd_open, pid, 0);
#endif
	for (;;) {
		pid_t r = waitpid(pid, status, WNOHANG);
		uint64_t now = mono_ms();

		if (r == pid)
			break;
		if (r < 0 && errno != EINTR) {
			int e = errno;

			if (fd >= 0)
				close(fd);
			errno = e;
			return -1;
		}
		if (now >= deadline) {
			kill(pid, SIGKILL);
			while (waitpid(pid, status, 0) < 0 && errno == EINTR)
				;
			*timed_out = true;
			break;
		}
		if (fd >= 0) {
			struct pollfd pfd = { .fd = fd, .events = POLLIN };
			uint64_t left = deadline - now;

			poll(&pfd, 1, left > 1000 ? 1000 : (int)left);
		} else {
			struct timespec ts = { 0, 50 * 1000 * 1000 };

			nanosleep(&ts, NULL);
		}
	}
	if (fd >= 0)
		close(fd);
	return 0;
}

static int run_gnuplot(const struct workdir *w, const char *gnuplot,
		       char *err, size_t errlen)
{
	char script[PATH_MAX + 32], errfile[PATH_MAX + 32], msg[512];
	char *argv[] = { (char *)"gnuplot", script, NULL };
	posix_spawn_file_actions_t fa;
	int status, rc;
	bool timed_out;
	pid_t pid;

	wd_path(w, script, sizeof(script), "plot.gp");
	wd_path(w, errfile, sizeof(errfile), "gnuplot.err");
	if (posix_spawn_file_actions_init(&fa)) {
		set_err(err, errlen, "out of memory");
		return -1;
	}
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_addopen(&fa, 1, errfile,
					 O_WRONLY | O_CREAT | O_TRUNC, 0600);
	posix_spawn_file_actions_adddup2(&fa, 1, 2);
	fflush(NULL);
	rc = posix_spawn(&pid, gnuplot, &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	if (rc) {
		set_err(err, errlen, "cannot run %s: %s", gnuplot,
			strerror(rc));
		return -1;
	}
	/* A gnuplot that never ends must not hold the results hostage. */
	if (wait_bounded(pid, gnuplot_timeout_s, &status, &timed_out)) {
		set_err(err, errlen, "waiting for gnuplot: %s",
			strerror(errno));
		return -1;
	}
	if (timed_out) {
		set_err(err, errlen, "%s did not finish drawing within %u s "
			"(%s), so it was stopped; no picture", gnuplot,
			gnuplot_timeout_s, PLOT_GNUPLOT_TIMEOUT_ENV);
		return -1;
	}
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return 0;
	gnuplot_message(w, msg, sizeof(msg));
	if (WIFEXITED(status))
		set_err(err, errlen, "%s failed (exit status %d)%s%s", gnuplot,
			WEXITSTATUS(status), *msg ? ": " : "", msg);
	else
		set_err(err, errlen, "%s was killed by signal %d", gnuplot,
			WTERMSIG(status));
	return -1;
}

/*
 * Copy the finished picture to @dest, atomically (files.h): @dest is
 * replaced only by a whole picture, and left as it was on failure.
 */
static int copy_out(const struct workdir *w, const char *dest, char *err,
		    size_t errlen)
{
	char src[PATH_MAX + 32], why[PATH_MAX + 128], buf[65536];
	struct atomic_file af;
	off_t total = 0;
	ssize_t n;
	int in;

	wd_path(w, src, sizeof(src), "%s", w->out);
	in = open(src, O_RDONLY);
	if (in < 0) {
		set_err(err, errlen, "gnuplot wrote no picture");
		return -1;
	}
	if (atomic_file_open(&af, dest, why, sizeof(why))) {
		set_err(err, errlen, "cannot write %s: %s", dest, why);
		close(in);
		return -1;
	}
	while ((n = read(in, buf, sizeof(buf))) > 0) {
		if (fwrite(buf, 1, (size_t)n, af.f) != (size_t)n)
			break;
		total += n;
	}
	close(in);
	if (n != 0 || ferror(af.f)) {
		set_err(err, errlen, "writing %s: %s", dest,
			strerror(errno ? errno : EIO));
		atomic_file_abort(&af);
		return -1;
	}
	if (!total) {
		set_err(err, errlen, "gnuplot wrote an empty picture");
		atomic_file_abort(&af);
		return -1;
	}
	if (atomic_file_commit(&af, why, sizeof(why))) {
		set_err(err, errlen, "%s", why);
		return -1;
	}
	return 0;
}

/* Widen @x to the body of @s (sorted): its smallest value to its p99.99. */
static void body_extent(const struct plot_series *s, struct extent *x)
{
	uint64_t rank = (uint64_t)ceil(0.9999 * (double)s->total), seen = 0;
	double lo = (double)s->b[0].value / 1000.0, hi = lo;

	for (size_t k = 0; k < s->n; k++) {
		seen += s->b[k].count;
		hi = (double)s->b[k].value / 1000.0;
		if (seen >= rank)
			break;
	}
	/*
	 * A margin on the right (the range starts at the decade below lo,
	 * margin enough on the left); a decade when all is one value.
	 */
	if (hi <= lo) {
		lo /= 3;
		hi *= 3;
	}
	if (lo < x->lo_us)
		x->lo_us = lo;
	if (hi * 1.5 > x->hi_us)
		x->hi_us = hi * 1.5;
}

/* A --plot=@path the writers cannot draw: -1, @err saying why. */
static int bad_format(const char *path, char *err, size_t errlen)
{
	set_err(err, errlen, "%s: expected a file name ending in .svg or .png",
		path);
	return -1;
}

/*
 * The writers' last step, their script in @w: gnuplot draws it and the
 * picture is copied to @path.  The folder goes either way; 0 or -1.
 */
static int wd_draw(struct workdir *w, const char *gnuplot, const char *path,
		   char *err, size_t errlen)
{
	int ret = 0;

	if (run_gnuplot(w, gnuplot, err, errlen) ||
	    copy_out(w, path, err, errlen))
		ret = -1;
	wd_remove(w);
	return ret;
}

int plot_write(struct plot *p, const char *path, const char *gnuplot,
	       char *err, size_t errlen)
{
	struct workdir w = { .nr_series = p->n };
	int fmt = format_of(path), lo = INT_MAX, hi = INT_MIN;
	struct extent x = { .lo_us = INFINITY, .hi_us = 0 };
	bool any = false;

	if (fmt < 0)
		return bad_format(path, err, errlen);
	for (unsigned int i = 0; i < p->n; i++) {
		struct plot_series *s = p->s[i];

		if (!s->total)
			continue;
		any = true;
		qsort(s->b, s->n, sizeof(*s->b), bucket_cmp);
		body_extent(s, &x);
		if (bin_of(s->b[0].value) < lo)
			lo = bin_of(s->b[0].value);
		if (bin_of(s->b[s->n - 1].value) > hi)
			hi = bin_of(s->b[s->n - 1].value);
	}
	if (!any) {
		set_err(err, errlen, "no call to plot");
		return -1;
	}
	if (wd_create(&w, fmt, err, errlen))
		return -1;
	for (unsigned int i = 0; i < p->n; i++) {
		if (!p->s[i]->total)
			continue;
		if (write_hist(&w, i, p->s[i], lo, hi, err, errlen) ||
		    write_cdf(&w, i, p->s[i], &x.has_tail, err, errlen))
			goto out;
		if (p->s[i]->nt) {
			x.has_time = true;
			if (write_time(&w, i, p->s[i], err, errlen))
				goto out;
		}
	}
	if (write_bars(&w, p, err, errlen) ||
	    write_script(&w, p, (enum plot_format)fmt, &x, err, errlen))
		goto out;
	return wd_draw(&w, gnuplot, path, err, errlen);
out:
	wd_remove(&w);
	return -1;
}

void plot_quote(FILE *f, const char *s)
{
	gp_string(f, s);
}

unsigned int plot_color(unsigned int i)
{
	return colors[i % NR_COLORS];
}

int plot_write_script(const char *path, const char *gnuplot,
		      plot_body_fn body, void *arg, char *err, size_t errlen)
{
	struct workdir w = { .nr_series = 0 };
	int fmt = format_of(path);
	FILE *f;

	if (fmt < 0)
		return bad_format(path, err, errlen);
	if (wd_create(&w, fmt, err, errlen))
		return -1;
	f = wd_open(&w, "plot.gp", err, errlen);
	if (!f)
		goto out;
	write_terminal(f, &w, (enum plot_format)fmt, 860);
	body(f, arg);
	fprintf(f, "set output\n");
	if (wd_close(f, "plot.gp", err, errlen))
		goto out;
	return wd_draw(&w, gnuplot, path, err, errlen);
out:
	wd_remove(&w);
	return -1;
}
