/* SPDX-License-Identifier: MIT */
/*
 * The driver of bench/one-hole.sh: an rq_pages[] of SLOTS pages with one
 * hole at HOLE (rpcsim's after a WRITE of 256 KiB with the default 1 MiB
 * payload: 259 slots, the reply page at 65), refilled ROUNDS times in one
 * of four ways and the page given back each time, on the default pool
 * (PAGEPOOL_PROFILE and PAGEPOOL_PCP apply).  Prints the mean ns a round.
 *
 *   s  svc_alloc_arg() before 5.13: for each slot, while it is empty,
 *      pp_alloc_page() (rpcsim's svc_alloc_arg_single() loop);
 *   r  the same scan written to step over a run of populated slots in a
 *      loop of its own, as the bulk allocator skips them: the same
 *      instructions a slot, one taken branch a slot instead of two;
 *   a  one pp_alloc_pages_bulk_array() call over the whole array (5.13's
 *      consumer);
 *   p  the page alone: pp_alloc_page() into the hole, no scan.
 *
 * The two scans are functions of their own, aligned to 64 bytes, so that
 * each loop lies within one 64-byte line whatever the code around it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <pagepool/pagepool.h>

#define SLOTS	259
#define HOLE	65
/* one-hole.sh's bound for --iterations: 50 times its default. */
#define ROUNDS_MAX	100000000

__attribute__((noinline, aligned(64)))
static void fill_while(struct pp_pool *pool, struct pp_page **rq)
{
	for (unsigned long i = 0; i < SLOTS; i++)
		while (!rq[i])
			rq[i] = pp_alloc_page(pool, 0);
}

__attribute__((noinline, aligned(64)))
static void fill_runs(struct pp_pool *pool, struct pp_page **rq)
{
	for (unsigned long i = 0; i < SLOTS; ) {
		if (rq[i]) {
			do
				i++;
			while (i < SLOTS && rq[i]);
			continue;
		}
		rq[i++] = pp_alloc_page(pool, 0);
	}
}

int main(int argc, char **argv)
{
	struct pp_page *rq[SLOTS] = { NULL };
	struct pp_pool_config cfg;
	struct timespec t0, t1;
	struct pp_pool *pool;
	char mode, *end;
	long rounds;

	if (argc != 3 || !argv[1][0] || argv[1][1] ||
	    !strchr("srap", argv[1][0])) {
		fprintf(stderr, "one-hole: usage: one-hole s|r|a|p ROUNDS\n");
		return 2;
	}
	mode = argv[1][0];
	/*
	 * strtol() clamps what it cannot hold to LONG_MAX and says so in
	 * errno only: a count of 20 digits would run for ever.
	 */
	errno = 0;
	rounds = strtol(argv[2], &end, 10);
	if (errno || end == argv[2] || *end || rounds < 1 ||
	    rounds > ROUNDS_MAX) {
		fprintf(stderr, "one-hole: ROUNDS '%s' is not a count from 1 "
			"to %d\n", argv[2], ROUNDS_MAX);
		return 2;
	}
	/*
	 * The configuration from the environment (PAGEPOOL_PROFILE, ...):
	 * a value it cannot read makes pp_pool_create() fail, naming it.
	 */
	(void)pp_pool_config_init(&cfg);
	pool = pp_pool_create(&cfg);
	if (!pool) {
		fprintf(stderr, "one-hole: no pool: %s\n", strerror(errno));
		return 1;
	}
	for (int i = 0; i < SLOTS; i++)
		if (i != HOLE && !(rq[i] = pp_alloc_page(pool, 0)))
			return 1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (long n = 0; n < rounds; n++) {
		switch (mode) {
		case 's':
			fill_while(pool, rq);
			break;
		case 'r':
			fill_runs(pool, rq);
			break;
		case 'a':
			if (pp_alloc_pages_bulk_array(pool, 0, SLOTS, rq) !=
			    SLOTS)
				return 1;
			break;
		default:
			rq[HOLE] = pp_alloc_page(pool, 0);
		}
		if (!rq[HOLE])
			return 1;
		pp_put_page(pool, rq[HOLE]);
		rq[HOLE] = NULL;
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	printf("%c %.1f\n", mode, ((double)(t1.tv_sec - t0.tv_sec) * 1e9 +
				   (double)(t1.tv_nsec - t0.tv_nsec)) /
				  (double)rounds);
	for (int i = 0; i < SLOTS; i++)
		if (rq[i])
			pp_put_page(pool, rq[i]);
	return pp_pool_destroy(pool) ? 1 : 0;
}
