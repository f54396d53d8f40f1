/* SPDX-License-Identifier: MIT */
/*
 * rpcsim's page_pool (rpcsim/page_pool/page_pool.c, included whole: a
 * white-box test), where each page goes and where each comes from, with
 * exact counts: the slow path's bulk refill of 64 pages, the alloc cache
 * filled by direct returns up to its 128 pages and then full, the ring of
 * a few entries taking the rest until it is full, the release of a page
 * still referenced elsewhere, and the allocation side taking the cache,
 * then the ring (one refill of what it holds), then the slow path again.
 *
 * rpcsim's own runs never fill the cache: its model returns a packet's
 * pages right after receiving it, so the cache holds at most the 63 a
 * refill leaves plus those returns, and cache_full stays 0 there
 * (tests/rpcsim/test_page_pool.sh).  Here the pages are held first and
 * returned together, as a driver's RX ring posted ahead would.
 */
#include <stdint.h>
#include <stdlib.h>

#include "page_pool/page_pool.c"

#include "pp_test.h"
#include "tap.h"

#define RING	16U	/* ring entries: full well before the returns end */
#define HELD	200U	/* pages taken before any comes back */

static const struct page_pool_recycle_stats zero_rst;

static void test_recycle(enum rpcsim_mode mode, const char *name)
{
	struct pp_page *held[HELD];
	struct page_pool_recycle_stats rst = zero_rst;
	struct page_pool_alloc_stats *a;
	struct pp_pool_config cfg;
	struct page_pool pool;
	struct pp_pool *pp;
	unsigned char *origin;
	unsigned int got = 0, slow_calls, count;
	uint64_t cached;
	uint32_t inflight;

	test_pool_config(&cfg, 4096, 16, 96, 1);
	pp = test_pool_create_config(&cfg);
	origin = xcalloc(cfg.nr_pages, 1);
	page_pool_init(&pool, pp, mode, 0, RING, origin, false);
	a = &pool.alloc;

	/*
	 * HELD pages from an empty pool: each time the cache is empty the
	 * ring is found empty too and the slow path refills (64 pages in
	 * one bulk call, or one page in single mode), the rest come from
	 * the cache.
	 */
	for (unsigned int i = 0; i < HELD; i++) {
		held[i] = page_pool_alloc_pages(&pool);
		got += held[i] != NULL;
	}
	slow_calls = mode == RPCSIM_SINGLE ? HELD :
		     (HELD + PAGE_POOL_CACHE_REFILL - 1) / PAGE_POOL_CACHE_REFILL;
	count = mode == RPCSIM_SINGLE ? 0 :
		slow_calls * PAGE_POOL_CACHE_REFILL - HELD;
	ok(got == HELD && a->handed_out == HELD && a->from_alloc == HELD &&
	   a->slow == slow_calls && a->empty == slow_calls &&
	   a->slow_pages == HELD + count && a->fast == HELD - slow_calls &&
	   a->refill == 0 && pool.count == count,
	   "%s: %u pages from an empty pool: %llu slow-path calls of %llu "
	   "pages, each after an empty ring, %llu from the cache, %u left "
	   "there", name, got, (unsigned long long)a->slow,
	   (unsigned long long)a->slow_pages,
	   (unsigned long long)a->fast, pool.count);

	/*
	 * One page referenced elsewhere too (an skb clone): released from
	 * the pool, not recycled, even with room in the cache.
	 */
	pp_get_page(pp, held[0]);
	page_pool_put_page(&pool, held[0], true, &rst);
	ok(rst.released_refcnt == 1 && rst.cached == 0 && rst.ring == 0 &&
	   pp_page_count(held[0]) == 1 &&
	   atomic_load(&pool.release_total) == 1,
	   "%s: a page still referenced: released, the other reference "
	   "left (released_refcnt %llu, count %d)", name,
	   (unsigned long long)rst.released_refcnt, pp_page_count(held[0]));
	pp_put_page(pp, held[0]);

	/*
	 * The others returned directly: into the cache up to its size,
	 * then cache_full, each of those into the ring while it has room,
	 * the rest released to the allocator.
	 */
	for (unsigned int i = 1; i < HELD; i++)
		page_pool_put_page(&pool, held[i], true, &rst);
	cached = PAGE_POOL_CACHE_SIZE - count;
	ok(rst.cached == cached &&
	   rst.cache_full == HELD - 1 - cached &&
	   rst.ring == RING && rst.ring_full == HELD - 1 - cached - RING &&
	   pool.count == PAGE_POOL_CACHE_SIZE && pool.ring.count == RING &&
	   atomic_load(&pool.release_total) == 1 + rst.ring_full,
	   "%s: %u direct returns: %llu cached (the cache full at %u), "
	   "%llu cache_full, %llu into the ring of %u, %llu released",
	   name, HELD - 1, (unsigned long long)rst.cached, pool.count,
	   (unsigned long long)rst.cache_full, (unsigned long long)rst.ring,
	   RING, (unsigned long long)rst.ring_full);

	/*
	 * Taken again: the cache's pages first, then one refill moves the
	 * ring's pages into the cache and they follow, then the ring is
	 * empty and the slow path runs.  The @count pages the first slow
	 * paths left in the cache were never handed out: they are still
	 * "from the allocator" when they are, with the last page.
	 */
	memset(a, 0, sizeof(*a));
	for (unsigned int i = 0; i < PAGE_POOL_CACHE_SIZE + RING + 1; i++) {
		held[i] = page_pool_alloc_pages(&pool);
		if (!held[i])
			bail_out("%s: page_pool_alloc_pages failed", name);
	}
	ok(a->from_cache == cached && a->from_ring == RING &&
	   a->from_alloc == count + 1 && a->refill == 1 && a->refill_pages == RING &&
	   a->empty == 1 && a->slow == 1 &&
	   a->fast == PAGE_POOL_CACHE_SIZE + RING - 1,
	   "%s: taken again: %llu recycled from the cache, %llu from the "
	   "ring in %llu refill, %llu never handed out before (%u left by "
	   "the first slow paths, 1 from a new one after %llu empty ring)",
	   name, (unsigned long long)a->from_cache,
	   (unsigned long long)a->from_ring, (unsigned long long)a->refill,
	   (unsigned long long)a->from_alloc, count,
	   (unsigned long long)a->empty);

	/* Not direct (another thread's return): the ring, never the cache. */
	rst = zero_rst;
	page_pool_put_page(&pool, held[0], false, &rst);
	ok(rst.ring == 1 && rst.cached == 0 && rst.cache_full == 0 &&
	   pool.ring.count == 1,
	   "%s: a return that is not direct goes to the ring, the cache "
	   "having room", name);

	for (unsigned int i = 1; i < PAGE_POOL_CACHE_SIZE + RING + 1; i++)
		page_pool_put_page(&pool, held[i], false, &rst);
	inflight = page_pool_destroy(&pool);
	ok(inflight == 0 && pool.hold_total ==
	   atomic_load(&pool.release_total),
	   "%s: destroyed, 0 in flight (held %llu, released %llu)", name,
	   (unsigned long long)pool.hold_total,
	   (unsigned long long)atomic_load(&pool.release_total));
	free(origin);
	ok(pp_pool_destroy(pp) == 0, "%s: every page back in the allocator",
	   name);
}

int main(void)
{
	plan_tests(3 * 7);
	test_recycle(RPCSIM_SINGLE, "single");
	test_recycle(RPCSIM_LIST, "list");
	test_recycle(RPCSIM_ARRAY, "array");
	return exit_status();
}
