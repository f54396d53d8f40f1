/* SPDX-License-Identifier: MIT */
/*
 * The page_pool of rpcsim's page_pool consumer (see page_pool.h): the
 * allocation path (alloc cache, ring refill, bulk slow path), the
 * recycle-or-release decision on return, and destroy.  Written from the
 * kernel's design (net/core/page_pool.c, 5.13 with the bulk refill);
 * DMA mapping and pfmemalloc pages have no counterpart here (libpagepool
 * has neither), nor has the NUMA node test of the ring refill: a pool
 * refills on the running CPU's node, whatever rpcsim's --nodes.
 */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "page_pool.h"
#include "trace.h"
#include "util.h"

#define likely(x)	__builtin_expect(!!(x), 1)
#define unlikely(x)	__builtin_expect(!!(x), 0)

/*
 * The gfp of page_pool_dev_alloc_pages(): RX refills run in softirq
 * context, which must not sleep, so they may dip below min and fail
 * rather than wait.
 */
#define PAGE_POOL_GFP	PP_GFP_ATOMIC

void page_pool_init(struct page_pool *pool, struct pp_pool *pp,
		    enum rpcsim_mode mode, unsigned int id,
		    unsigned int ring_size, unsigned char *origin,
		    bool timed)
{
	memset(pool, 0, sizeof(*pool));
	pool->pp = pp;
	pool->mode = mode;
	pool->pure_output = pp_pool_bulk_variant(pp) == PP_BULK_PURE_OUTPUT;
	pool->debug_list = pp_pool_debug_list(pp);
	pool->timed = timed;
	pool->id = id;
	pool->origin = origin;
	PTHREAD_CHECK(pthread_mutex_init(&pool->ring.lock, NULL));
	pool->ring.slots = xcalloc(ring_size, sizeof(*pool->ring.slots));
	pool->ring.size = ring_size;
	atomic_init(&pool->release_cnt, 0);
	atomic_init(&pool->release_total, 0);
	hist_init(&pool->hist);
}

/* --- the ring (ptr_ring) ---------------------------------------------- */

/* ptr_ring_produce(): false when the ring is full. */
static bool ring_produce(struct page_pool_ring *r, struct pp_page *page)
{
	bool done = false;

	PTHREAD_CHECK(pthread_mutex_lock(&r->lock));
	if (r->count < r->size) {
		r->slots[(r->head + r->count) % r->size] = page;
		r->count++;
		done = true;
	}
	PTHREAD_CHECK(pthread_mutex_unlock(&r->lock));
	return done;
}

/*
 * Up to @max pages from the ring into @dst, oldest first, under one hold
 * of the lock (the kernel takes the consumer lock once per refill too).
 */
static unsigned int ring_consume_batch(struct page_pool_ring *r,
				       struct pp_page **dst, unsigned int max)
{
	unsigned int n;

	PTHREAD_CHECK(pthread_mutex_lock(&r->lock));
	for (n = 0; n < max && r->count; n++) {
		dst[n] = r->slots[r->head];
		r->head = (r->head + 1) % r->size;
		r->count--;
	}
	PTHREAD_CHECK(pthread_mutex_unlock(&r->lock));
	return n;
}

/* --- leaving and entering the pool ----------------------------------------- */

static unsigned long page_pfn(const struct page_pool *pool,
			      const struct pp_page *page)
{
	return pp_page_to_pfn(pool->pp, page);
}

void page_pool_release_page(struct page_pool *pool, struct pp_page *page)
{
	uint32_t release = atomic_fetch_add_explicit(&pool->release_cnt, 1,
						     memory_order_relaxed) + 1;

	atomic_fetch_add_explicit(&pool->release_total, 1,
				  memory_order_relaxed);
	if (page_pool_trace_enabled(page_pool_state_release))
		page_pool_trace(page_pool_state_release, pool,
				page_pfn(pool, page), release);
}

/*
 * page_pool_return_page(): @page leaves the pool's books and the pool's
 * reference to it goes: to the allocator if it was the last one.
 */
static void page_pool_return_page(struct page_pool *pool,
				  struct pp_page *page)
{
	page_pool_release_page(pool, page);
	pp_put_page(pool->pp, page);
}

/* A page fresh from the allocator enters the pool's books. */
static void page_pool_hold(struct page_pool *pool, struct pp_page *page)
{
	pool->hold_cnt++;
	pool->hold_total++;
	pool->origin[page_pfn(pool, page)] = PAGE_POOL_FROM_ALLOC;
	if (page_pool_trace_enabled(page_pool_state_hold))
		page_pool_trace(page_pool_state_hold, pool,
				page_pfn(pool, page), pool->hold_cnt);
}

/* --- allocation ------------------------------------------------------------ */

/*
 * page_pool_refill_alloc_cache(): the cache is empty; move up to
 * PAGE_POOL_CACHE_REFILL pages from the ring into it and hand out the
 * last.  NULL when the ring was empty.
 */
static struct pp_page *page_pool_refill_alloc_cache(struct page_pool *pool)
{
	unsigned int n = ring_consume_batch(&pool->ring, pool->cache,
					    PAGE_POOL_CACHE_REFILL);

	if (!n) {
		pool->alloc.empty++;
		return NULL;
	}
	pool->alloc.refill++;
	pool->alloc.refill_pages += n;
	pool->count = n - 1;
	return pool->cache[n - 1];
}

/*
 * The bulk slow path's array version.  Under the merged contract only NULL
 * entries are filled, and the cache's entries past count still point at
 * pages handed out long ago, so they are cleared first (the kernel's
 * memset); the 2025 proposal's output-only array needs no clearing, which
 * is the saving it claimed.  Either way the n new pages are at [0, n).
 */
static unsigned int slow_array(struct page_pool *pool)
{
	if (!pool->pure_output)
		memset(pool->cache, 0,
		       PAGE_POOL_CACHE_REFILL * sizeof(pool->cache[0]));
	return (unsigned int)pp_alloc_pages_bulk_array(pool->pp, PAGE_POOL_GFP,
						       PAGE_POOL_CACHE_REFILL,
						       pool->cache);
}

/* The list version of the bulk series (v6 9/9's first user): onto a list. */
static unsigned int slow_list(struct page_pool *pool)
{
	struct pp_list_head list = PP_LIST_HEAD_INIT(list);
	unsigned int n = 0;
	struct pp_page *page;

	pp_alloc_pages_bulk_list(pool->pp, PAGE_POOL_GFP,
				 PAGE_POOL_CACHE_REFILL, &list);
	while ((page = pp_list_pop_page_check(&list, pool->debug_list)))
		pool->cache[n++] = page;
	return n;
}

/*
 * __page_pool_alloc_pages_slow(): the cache and the ring are empty.
 * Before 5.13 one page from the allocator, handed out directly; since,
 * one bulk call of PAGE_POOL_CACHE_REFILL pages into the cache, the last
 * of them handed out.  The call is what rpcsim times, as svc_alloc_arg()
 * for the nfsd consumer; unless --call-timing=off: the clock reads are
 * rpcsim's, not the kernel's (a single-page refill pays them per page),
 * and the kernel's XDP measurement of the bulk refill read no clock.
 */
static struct pp_page *page_pool_alloc_pages_slow(struct page_pool *pool)
{
	struct pp_page *page = NULL;
	uint64_t t0 = pool->timed ? now_ns() : 0, dt = 0;
	unsigned int n;

	switch (pool->mode) {
	case RPCSIM_SINGLE:
		page = pp_alloc_page(pool->pp, PAGE_POOL_GFP);
		n = page ? 1 : 0;
		if (page)
			page_pool_hold(pool, page);
		break;
	case RPCSIM_LIST:
		n = slow_list(pool);
		break;
	case RPCSIM_ARRAY:
	default:
		n = slow_array(pool);
		break;
	}
	if (pool->mode != RPCSIM_SINGLE) {
		for (unsigned int i = 0; i < n; i++)
			page_pool_hold(pool, pool->cache[i]);
		if (n)
			page = pool->cache[n - 1];
		pool->count = n ? n - 1 : 0;
	}
	if (pool->timed) {
		dt = now_ns() - t0;
		hist_add(&pool->hist, dt);
	}
	pool->alloc.slow++;
	pool->alloc.alloc_calls++;
	pool->alloc.slow_pages += n;
	if (unlikely(!page))
		pool->alloc.slow_fail++;
	page_pool_trace(page_pool_alloc_slow, pool, (unsigned int)pool->mode,
			n, 1U, dt);
	return page;
}

struct pp_page *page_pool_alloc_pages(struct page_pool *pool)
{
	struct pp_page *page;

	if (likely(pool->count)) {
		page = pool->cache[--pool->count];
		pool->alloc.fast++;
	} else {
		page = page_pool_refill_alloc_cache(pool);
		if (!page)
			page = page_pool_alloc_pages_slow(pool);
		if (unlikely(!page))
			return NULL;
	}
	pool->alloc.handed_out++;
	switch (pool->origin[page_pfn(pool, page)]) {
	case PAGE_POOL_FROM_CACHE:
		pool->alloc.from_cache++;
		break;
	case PAGE_POOL_FROM_RING:
		pool->alloc.from_ring++;
		break;
	default:
		pool->alloc.from_alloc++;
		break;
	}
	return page;
}

/* --- return ---------------------------------------------------------------- */

void page_pool_put_page(struct page_pool *pool, struct pp_page *page,
			bool allow_direct, struct page_pool_recycle_stats *st)
{
	unsigned long pfn = page_pfn(pool, page);

	/*
	 * The pool's reference is the only one: nobody else can look at
	 * the page any more, so it can be reused as it is.
	 */
	if (likely(pp_page_count(page) == 1)) {
		if (allow_direct) {
			if (likely(pool->count < PAGE_POOL_CACHE_SIZE)) {
				pool->origin[pfn] = PAGE_POOL_FROM_CACHE;
				pool->cache[pool->count++] = page;
				st->cached++;
				return;
			}
			st->cache_full++;
		}
		/* Tagged before it is visible to the ring's consumer. */
		pool->origin[pfn] = PAGE_POOL_FROM_RING;
		if (ring_produce(&pool->ring, page)) {
			st->ring++;
			return;
		}
		st->ring_full++;
	} else {
		/* An skb clone (say) still reads it: it cannot be reused. */
		st->released_refcnt++;
	}
	page_pool_return_page(pool, page);
}

/* --- destroy ------------------------------------------------------------- */

uint32_t page_pool_destroy(struct page_pool *pool)
{
	struct pp_page *batch[PAGE_POOL_CACHE_REFILL];
	unsigned int n;
	uint32_t release, inflight;

	while (pool->count)
		page_pool_return_page(pool, pool->cache[--pool->count]);
	while ((n = ring_consume_batch(&pool->ring, batch,
				       PAGE_POOL_CACHE_REFILL)))
		for (unsigned int i = 0; i < n; i++)
			page_pool_return_page(pool, batch[i]);
	release = atomic_load_explicit(&pool->release_cnt,
				       memory_order_relaxed);
	inflight = pool->hold_cnt - release;
	page_pool_trace(page_pool_release, pool, (int32_t)inflight,
			pool->hold_cnt, release);
	PTHREAD_CHECK(pthread_mutex_destroy(&pool->ring.lock));
	free(pool->ring.slots);
	pool->ring.slots = NULL;
	return inflight;
}

void page_pool_alloc_stats_add(struct page_pool_alloc_stats *dst,
			       const struct page_pool_alloc_stats *src)
{
	dst->handed_out += src->handed_out;
	dst->from_alloc += src->from_alloc;
	dst->from_cache += src->from_cache;
	dst->from_ring += src->from_ring;
	dst->fast += src->fast;
	dst->slow += src->slow;
	dst->slow_pages += src->slow_pages;
	dst->slow_fail += src->slow_fail;
	dst->alloc_calls += src->alloc_calls;
	dst->refill += src->refill;
	dst->refill_pages += src->refill_pages;
	dst->empty += src->empty;
}

void page_pool_recycle_stats_add(struct page_pool_recycle_stats *dst,
				 const struct page_pool_recycle_stats *src)
{
	dst->cached += src->cached;
	dst->cache_full += src->cache_full;
	dst->ring += src->ring;
	dst->ring_full += src->ring_full;
	dst->released_refcnt += src->released_refcnt;
}
