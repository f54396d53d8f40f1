/* SPDX-License-Identifier: MIT */
/*
 * rpcsim-compare: shared types.
 *
 * load.c reads each file (rpcsim --json or rpcsim-analyze --json, through
 * json-c) into a struct doc: for every mode, for every metric, one value
 * per run.  A run is a sample; stats.c reduces the samples of a cell to
 * their mean and sample standard deviation and compares two cells with
 * Welch's t-test; output.c prints one lkp-style table per metric, a row
 * per mode, as text or JSON.
 */
#ifndef RPCSIM_COMPARE_H
#define RPCSIM_COMPARE_H

#include <stdbool.h>
#include <stdio.h>

#include "tool.h"

enum doc_kind {
	DOC_RPCSIM,		/* rpcsim --json */
	DOC_ANALYZE,		/* rpcsim-analyze --json */
};

/* The values of one metric of one mode of one file: one per run. */
struct series {
	double *v;
	unsigned int n, cap;
};

struct mode_data {
	char *name;		/* "single", "list", "array": matched by this */
	char *label;		/* "Single page", ... */
	unsigned int runs;	/* runs that gave samples */
	struct series *series;	/* indexed by metric id */
	unsigned int nr_series;
};

/* One configuration setting, flattened: "mix.read" = "1". */
struct setting {
	char *key;
	char *value;
};

struct doc {
	const char *path;	/* as given; "-" is stdin */
	char *name;		/* column title: base name without .json */
	enum doc_kind kind;
	char *desc;		/* one line: program, build, modes, runs */
	char *origin;		/* one line: host, machine, start, job */
	char *interrupted;	/* the signal that cut the run short, or NULL */
	struct setting *settings;
	unsigned int nr_settings;
	struct mode_data *modes;
	unsigned int nr_modes;
};

/* load.c */
/*
 * doc_load() - read and check @path into @d.  Returns 0, or -1 after
 * printing on stderr why the file cannot be compared (unreadable, not
 * JSON, neither kind of document, a field missing or of the wrong type).
 */
int doc_load(struct doc *d, const char *path);

struct json_object;
/*
 * doc_check_schema() - is @root, the document of @d (its kind already
 * known), what rpcsim --json or rpcsim-analyze --json writes?  Every
 * member the tools write is checked for its type and values (counts are
 * integers, figures finite numbers or null, modes known, each mode and
 * each run of a mode once, labels their mode's).  Returns 0, or -1 after
 * one line naming the file and the JSON path of the first fault.
 */
int doc_check_schema(const struct doc *d, struct json_object *root);
void doc_free(struct doc *d);
const char *doc_kind_name(enum doc_kind kind);

/* Metric registry: ids in the order tables are printed. */
void metrics_init(void);
void metrics_free(void);
unsigned int metrics_count(void);
const char *metric_name(unsigned int id);

/* output.c */
struct output_options {
	bool json;
	bool csv;		/* --output-format=csv */
	bool all;		/* --all: also metrics zero in every file */
	char **only;		/* --metrics prefixes, NULL-terminated */
	const char *plot_path;	/* --plot=FILE, or NULL */
	const char *gnuplot;	/* the gnuplot to draw it with */
};

/* What the tables show: files, modes in row order, column titles. */
struct plan {
	struct doc *docs;
	unsigned int nr_docs;
	const char **modes;	/* union of the files' modes, in row order */
	unsigned int nr_modes;
	char **titles;		/* column titles */
};

/* A setting that differs from the base file's; NULL: the file lacks it. */
struct setting_diff {
	const char *key, *base, *new;
};

/* stats.c */
/* Cell statistics over a series. */
struct cell {
	unsigned int n;
	double mean;
	double stddev;		/* sample: divides by n - 1; 0 for one run */
	double rel_pct;		/* 100 * stddev / |mean|; 0 when mean is 0 */
};

/*
 * Welch's t-test of new against base at 95 % confidence: the difference
 * of the means, its standard error sqrt(s_b^2/n_b + s_n^2/n_n), the
 * Welch-Satterthwaite degrees of freedom and the two-sided critical t.
 * The interval is diff +/- half.  Unknown (known false) with fewer than
 * 2 runs on a side.  When neither side varies (se 0) df and t are NaN,
 * half is 0 and the difference is exact.
 */
struct welch {
	bool known;
	bool changed;		/* the interval excludes 0 */
	double diff;		/* mean(new) - mean(base) */
	double se;
	double df;
	double t;
	double half;		/* t * se: the interval's half width */
};

struct cell cell_of(const struct series *s);
struct welch welch_of(const struct cell *base, const struct cell *new);
/* P(T > t) for Student's t with @df degrees of freedom (INFINITY: normal). */
double t_tail(double t, double df);
/* The @p quantile of Student's t with @df > 0 degrees of freedom. */
double t_quantile(double p, double df);

void plan_init(struct plan *p, struct doc *docs, unsigned int nr_docs);
void plan_free(struct plan *p);
/* The values of metric @id of @mode in @d; NULL when it has none. */
const struct series *series_of(const struct doc *d, const char *mode,
			       unsigned int id);
/*
 * The settings of @d that differ from @base's into @out (room for
 * d->nr_settings + base->nr_settings); returns how many.
 */
unsigned int settings_diff(const struct doc *base, const struct doc *d,
			   struct setting_diff *out);
/* True when metric @id passes --metrics (or there is no filter). */
bool metric_selected(const struct output_options *o, unsigned int id);
/*
 * Print the comparison, and draw --plot; returns 0, -1 on a write error,
 * or 1 when the plot failed (said on stderr).
 */
int output(FILE *out, struct doc *docs, unsigned int nr_docs,
	   const struct output_options *o);

/* plot.c */
/*
 * compare_plot() - rpcsim-compare --plot: every file overlaid in one
 * figure.  Returns 0, or -1 with @err saying why.
 */
int compare_plot(const struct plan *p, const char *path, const char *gnuplot,
		 char *err, size_t errlen);

#endif /* RPCSIM_COMPARE_H */
