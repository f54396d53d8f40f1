/* SPDX-License-Identifier: MIT */
/*
 * harness: how pagebench times one configuration, shared by pagebench and
 * the baselines it runs in child processes (pagebench-mempool,
 * pagebench-tcmalloc), so that every row of its table is warmed up, sized
 * and timed the same way, with the same clocks.
 */
#ifndef PAGEBENCH_HARNESS_H
#define PAGEBENCH_HARNESS_H

#include <stdbool.h>
#include <stdint.h>

#if defined(__x86_64__) || defined(__i386__)
#define PB_HAVE_TSC 1
#endif

#define PB_MAX_BULK	128

enum pb_api { PB_API_SINGLE, PB_API_LIST, PB_API_ARRAY, PB_NR_APIS };

/* "single", "list", "array". */
extern const char *const pb_api_names[PB_NR_APIS];

/**
 * pb_run_fn - one configuration's timed loop
 * @ctx:   the caller's state
 * @api:   which API (PB_API_SINGLE: @bulk is 1)
 * @bulk:  pages per round, 1..PB_MAX_BULK
 * @pages: at least this many pages, each allocated and freed once
 *
 * Returns the pages done (@pages rounded up to whole rounds).  A failing
 * allocation ends the program: a short count would make a wrong figure.
 */
typedef unsigned long (*pb_run_fn)(void *ctx, enum pb_api api,
				   unsigned int bulk, unsigned long pages);

/* The TSC, or 0 where there is none. */
uint64_t pb_ticks(void);

/* TSC ticks per ns against CLOCK_MONOTONIC over @ms; 0 without a TSC. */
double pb_tsc_per_ns(double ms);

/*
 * The core's store-to-load forwarding: core cycles per round trip of a
 * load, an add and a store through one address (each load waits for
 * the store before it) into *@cycles, and the core clock in GHz into
 * *@core_ghz, each the best of a few rounds.  Returns false where it is
 * not measured (x86-64 only).
 */
bool pb_store_forward(double *cycles, double *core_ghz);

/**
 * pb_prepare - warm a configuration up and size its runs
 *
 * Runs @run twice over 16384 pages (the first pass warms caches and
 * lists, the second is timed), then once over the number of pages that
 * takes about @run_ms.  @smoke: one pass of 4 rounds, the output's format
 * only.  Returns the pages each timed run does (at least @bulk).
 */
unsigned long pb_prepare(pb_run_fn run, void *ctx, enum pb_api api,
			 unsigned int bulk, bool smoke, double run_ms);

/**
 * pb_time_run - one timed run of @pages pages
 *
 * Stores the ns and TSC ticks per page (0 ticks without a TSC).
 */
void pb_time_run(pb_run_fn run, void *ctx, enum pb_api api,
		 unsigned int bulk, unsigned long pages, double *ns,
		 double *ticks);

#endif /* PAGEBENCH_HARNESS_H */
