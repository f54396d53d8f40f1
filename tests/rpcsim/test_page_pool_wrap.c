/* SPDX-License-Identifier: MIT */
/*
 * rpcsim's page_pool (rpcsim/page_pool/page_pool.c, included whole: a
 * white-box test) when its 32-bit pages_state_hold_cnt and
 * pages_state_release_cnt wrap, as one pool's do after about 500 s at
 * 8.5 M pages/s: the 64-bit totals the report and rpcsim's books read
 * (hold_total, release_total) go on past 2^32, and the in-flight count
 * at destroy, the 32-bit difference, is still 0.  The kernel starts the
 * counters at 0; here they are set just below 2^32 after
 * page_pool_init(), as if 2^32 - 100 pages had been through the pool.
 */
#include <stdint.h>
#include <stdlib.h>

#include "page_pool/page_pool.c"

#include "pp_test.h"
#include "tap.h"

#define START	(UINT32_MAX - 99U)	/* 100 pages before the wrap */
#define PAGES	300U			/* allocated and released */

static void test_wrap(void)
{
	struct pp_pool_config cfg;
	struct page_pool pool;
	struct pp_pool *pp;
	unsigned char *origin;
	uint64_t pgalloc, held, released;
	uint32_t inflight;
	unsigned int got = 0;

	test_pool_config(&cfg, 4096, 16, 96, 1);
	pp = test_pool_create_config(&cfg);
	origin = xcalloc(cfg.nr_pages, 1);
	page_pool_init(&pool, pp, RPCSIM_ARRAY, 0, 1024, origin, false);
	pool.hold_cnt = START;
	atomic_store(&pool.release_cnt, START);
	pool.hold_total = START;
	atomic_store(&pool.release_total, START);
	pgalloc = vm_event(pp, PP_PGALLOC);

	/* xdp_release_frame()'s path: each page leaves the pool's books */
	for (unsigned int i = 0; i < PAGES; i++) {
		struct pp_page *page = page_pool_alloc_pages(&pool);

		if (!page)
			break;
		got++;
		page_pool_release_page(&pool, page);
		pp_put_page(pp, page);
	}
	pgalloc = vm_event(pp, PP_PGALLOC) - pgalloc;
	inflight = page_pool_destroy(&pool);
	held = pool.hold_total;
	released = atomic_load(&pool.release_total);

	ok(got == PAGES && pgalloc >= PAGES,
	   "page_pool_alloc_pages - %u pages, %llu from the allocator", got,
	   (unsigned long long)pgalloc);
	ok(pool.hold_cnt == (uint32_t)(START + pgalloc) &&
	   pool.hold_cnt < START,
	   "hold_cnt - 32 bits, wrapped as the kernel's (%u)", pool.hold_cnt);
	ok(held == (uint64_t)START + pgalloc && held > UINT32_MAX,
	   "hold_total - every page held, past 2^32 (%llu)",
	   (unsigned long long)held);
	ok(released == held &&
	   atomic_load(&pool.release_cnt) == pool.hold_cnt,
	   "release_total - every page released, as hold_total (%llu)",
	   (unsigned long long)released);
	ok(inflight == 0,
	   "page_pool_destroy - 0 in flight across the wrap (%u)", inflight);
	free(origin);
	pp_pool_destroy(pp);
}

int main(void)
{
	plan_tests(5);
	test_wrap();
	return exit_status();
}
