/* SPDX-License-Identifier: MIT */
/*
 * A deterministic driver for callgrind (bench/callgrind.sh): 20,000 rounds
 * of 64 pages taken and given back on the default pool, so that a change
 * to the fast paths can be measured in instructions, which do not vary
 * from run to run as times do.  The argument picks the path: "a" (the
 * default) pp_alloc_pages_bulk_array() + pp_release_pages(), "l"
 * pp_alloc_pages_bulk_list() + pp_release_pages(), "s" 64 pp_alloc_page()
 * + pp_put_page().  rseq sections do not run under valgrind: run it with
 * PAGEPOOL_PCP=lock.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <pagepool/pagepool.h>

#define ROUNDS	20000
#define BATCH	64

static unsigned long take(struct pp_pool *pool, char mode,
			  struct pp_page **arr)
{
	struct pp_list_head l;
	unsigned long n;

	switch (mode) {
	case 'l':
		pp_list_init(&l);
		n = pp_alloc_pages_bulk_list(pool, 0, BATCH, &l);
		for (unsigned long k = 0; k < n; k++)
			arr[k] = pp_list_pop_page(&l);
		return n;
	case 's':
		for (n = 0; n < BATCH; n++) {
			arr[n] = pp_alloc_page(pool, 0);
			if (!arr[n])
				break;
		}
		return n;
	default:
		for (int k = 0; k < BATCH; k++)
			arr[k] = NULL;
		return pp_alloc_pages_bulk_array(pool, 0, BATCH, arr);
	}
}

int main(int argc, char **argv)
{
	char mode = argc > 1 ? argv[1][0] : 'a';
	struct pp_pool_config cfg;
	struct pp_page *arr[BATCH];
	struct pp_pool *pool;

	if (mode != 'a' && mode != 'l' && mode != 's') {
		fprintf(stderr, "callgrind-driver: mode '%s': expected a, l "
			"or s\n", argv[1]);
		return 2;
	}
	/* A variable it cannot read fails pp_pool_create(), naming it. */
	(void)pp_pool_config_init(&cfg);
	pool = pp_pool_create(&cfg);
	if (!pool) {
		fprintf(stderr, "callgrind-driver: no pool: %s\n",
			strerror(errno));
		return 1;
	}
	for (int i = 0; i < ROUNDS; i++) {
		unsigned long n = take(pool, mode, arr);

		if (n != BATCH) {
			fprintf(stderr, "callgrind-driver: round %d got %lu "
				"pages of %d\n", i, n, BATCH);
			return 1;
		}
		if (mode == 's')
			for (unsigned long k = 0; k < n; k++)
				pp_put_page(pool, arr[k]);
		else
			pp_release_pages(pool, arr, n);
	}
	return pp_pool_destroy(pool) ? 1 : 0;
}
