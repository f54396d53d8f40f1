/* SPDX-License-Identifier: MIT */
/*
 * libsweep's own: the table of an rpcsim sweep, read from its points'
 * result files (table_read.c) and printed, with its plot and the tables
 * across folders (table_print.c), for sweep.c's entry points (sweep.h).
 */
#ifndef PP_SWEEP_TABLE_H
#define PP_SWEEP_TABLE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define NR_MODES	3
#define NR_ROW_SAME	3

/* A cell of the tables: long enough for any figure the reader takes. */
#define CELL	48

/* "single", "list", "array": the modes' names in rpcsim's files. */
extern const char *const table_mode_names[NR_MODES];

/* One key of the grid: its name and values in the grid's order. */
struct key {
	char *name;
	char **values;
	unsigned int nr;
};

/* One point: a result file. */
struct row {
	const char *path;
	uint64_t point, points;
	char **values;			/* per key of the grid */
	char *host, *build, *pcp;
	char *machine;		/* " (CPU, N CPUs, Linux R ARCH)", or "" */
	/*
	 * A backend other than buddy runs the lock lists whatever the build
	 * (and the pcp setting) would give buddy: its pcp lists follow from
	 * the backend, swept or not, and say nothing of the build.
	 */
	bool pcp_of_backend;
	bool page_pool;			/* rpcsim's page_pool consumer */
	bool untimed;			/* --call-timing=off: no latency */
	/* page_pool: config.page_pool.call_timing is there (else timed) */
	bool timing_said;
	bool have[NR_MODES];
	double mean[NR_MODES], sd[NR_MODES];
	double pps[NR_MODES];		/* page_pool: packets per second */
	unsigned int runs[NR_MODES];
	bool elsewhere;			/* not where the first point ran */
	char *same[NR_ROW_SAME];	/* config members all points share */
	/*
	 * pcp swept: the lists that ran when they are not the ones the
	 * point's value names ("rseq (ran: lock, rseq unavailable)"), and
	 * why; NULL when they are.
	 */
	char *pcp_shown, *pcp_why, *pcp_ran;
};

struct table {
	struct key *keys;
	unsigned int nr_keys;
	bool pcp_swept;
	unsigned int pcp_key;		/* pcp's index among the keys */
	bool pcp_mislabeled;		/* a row ran other lists (pcp_shown) */
	bool page_pool;			/* a point of rpcsim's page_pool consumer */
	bool untimed;			/* its points' calls were not timed */
	struct row *rows;
	unsigned int nr_rows;
	bool mode_seen[NR_MODES];
	unsigned int notes;		/* rows marked */
	/*
	 * Each mode's columns, as wide as their widest cell (table_widths()):
	 * the latency table's mean, +- and change, the packet table's rate
	 * and change against single.
	 */
	int w_mean[NR_MODES], w_sd[NR_MODES], w_chg[NR_MODES];
	int w_pps[NR_MODES], w_vs[NR_MODES];
};

/*
 * table_read() - read the points @paths into @t (zeroed): their grid, a
 * row per file in point order, each marked when it ran elsewhere than
 * the first.  0; 1 when a file was refused or none was a point (said on
 * stderr, @prog naming the program), @t then freed.
 */
int table_read(struct table *t, const char *prog, char *const *paths);
void table_free(struct table *t);

/* Key @k's cell of row @r: its value, or what ran (a pcp mislabeled). */
const char *table_value_shown(const struct table *t, const struct row *r,
			      unsigned int k);

/* What a point ran, as a refusal names it: "nfsd", "page_pool with ...". */
const char *table_run_kind(bool page_pool, bool untimed);

/*
 * table_print() - print @t to @out: the grid, the latency table (unless
 * untimed), the packet table of page_pool points, the notes; with
 * @plot_path, the plot against the last key (gnuplot @gnuplot).  0, or
 * 1 when the plot failed or has nothing to draw (said on stderr).
 */
int table_print(FILE *out, const char *prog, struct table *t,
		const char *plot_path, const char *gnuplot);

/*
 * table_print_across() - the tables across the folders @names whose
 * tables are @tabs[@n]: for each mode, each point's figure in each
 * folder, when the folders with points hold one grid (else a line
 * saying why not).
 */
void table_print_across(FILE *out, struct table *tabs, char *const *names,
			unsigned int n);

#endif /* PP_SWEEP_TABLE_H */
