/* SPDX-License-Identifier: MIT */
/*
 * Reporting: the configuration, the seed-shaped per-call line of each mode
 * with its details and one greppable SUMMARY line, statistics across
 * repeated runs, the --alloc=all table, and the --json document.
 */
#ifndef RPCSIM_REPORT_H
#define RPCSIM_REPORT_H

#include <stdio.h>

#include "files.h"

#include "nfsd/svc.h"
#include "options.h"

/* results[mode] is an array of cfg->repeat runs, or NULL if not run. */
struct report {
	const struct rpcsim_config *cfg;
	struct svc_result *results[RPCSIM_NR_MODES];
	unsigned int runs_done[RPCSIM_NR_MODES];
	uint64_t clock_ns;	/* cost of one clock_gettime() */
	/* --trace: where the trace went and what the tracer lost. */
	const char *trace_dir;
	uint64_t trace_discarded, trace_lost;
	/* --histogram: its file, opened before the runs (files.h) */
	struct atomic_file histogram;
};

void report_config(FILE *out, const struct report *rep);
/* One run's line, printed as it finishes when --repeat > 1. */
void report_run(FILE *out, const struct report *rep, const struct svc_result *res);
/* The block of one mode over all of its runs so far. */
void report_mode(FILE *out, const struct report *rep, enum rpcsim_mode mode);
/* The ratios of the modes' means, then the seed's three-line table. */
void report_table(FILE *out, const struct report *rep);
void report_json(FILE *out, const struct report *rep);
/* Mode @mode's mean latency per call over all its runs, in us. */
double report_mean_us(const struct report *rep, enum rpcsim_mode mode);
/* page_pool: the mode's packets over its runs' time. */
double report_packets_per_s(const struct report *rep, enum rpcsim_mode mode);
/*
 * --plot: every mode's latency histogram (all its runs) and pages per call
 * drawn into cfg->plot with the gnuplot at @gnuplot.  Returns 0, or -1
 * after printing the cause on stderr.
 */
int report_plot(const struct report *rep, const char *gnuplot);
/*
 * --histogram=FILE: each mode's latency histogram, the runs pooled, as
 * CSV (mode,lower_ns,upper_ns,count; a row per non-empty bucket), FILE
 * replaced whole.  Opened before the runs (a FILE that cannot be made
 * fails the run before it starts), written and committed after them, or
 * dropped.  0, or -1 after printing the cause on stderr.
 */
int report_histogram_open(struct report *rep);
int report_histogram(struct report *rep);
void report_histogram_drop(struct report *rep);

#endif /* RPCSIM_REPORT_H */
