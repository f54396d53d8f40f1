/* SPDX-License-Identifier: MIT */
/*
 * The allocation side: the single-page path (__alloc_pages()) and the bulk
 * core behind the list and array APIs (__alloc_pages_bulk()).
 */
#include "internal.h"

#include <string.h>

/*
 * zone_watermark_ok(): would the zone still hold more than @mark free
 * pages (lowered for ALLOC_HIGH/HARDER callers) after taking 2^order?
 * Pages on pcp lists do not count, as in the kernel.
 */
static bool pp_zone_watermark_ok(struct pp_pool *pool, unsigned int order,
				 unsigned long mark, unsigned int alloc_flags)
{
	long free_pages = (long)pp_zone_free(pool) - ((1L << order) - 1);
	long min = (long)mark;

	if (alloc_flags & PP_ALLOC_HIGH)
		min -= min / 2;
	if (alloc_flags & PP_ALLOC_HARDER)
		min -= min / 4;
	if (free_pages <= min)
		return false;
	if (!order)
		return true;
	/* A block of the order must exist; reading nr_free racily is fine. */
	for (unsigned int o = order; o < PP_NR_ORDERS; o++)
		if (__atomic_load_n(&pool->free_area[o].nr_free,
				    __ATOMIC_RELAXED))
			return true;
	return false;
}

/*
 * prep_new_page(): the page leaves the allocator.  Verifies the poison left
 * by a debug free (a use after free shows up here), zeroes on request.
 */
static inline void pp_prep_new_page(struct pp_pool *pool, struct pp_page *page,
				    unsigned int order, pp_gfp_t gfp,
				    const char *call)
{
	if (unlikely(pool->debug))
		pp_check_poison(pool, page, order, call);
	page->order = (uint8_t)order;
	pp_set_page_state(page, PP_PAGE_INUSE);
	__atomic_store_n(&page->refcount, 1, __ATOMIC_RELAXED);
	if (unlikely(gfp & PP_GFP_ZERO))
		memset(pool->arena + (pp_pfn(pool, page) << PP_PAGE_SHIFT), 0,
		       PP_PAGE_SIZE << order);
}

/*
 * __rmqueue_pcplist(): pop the hot end of @pcp, refilling it with
 * rmqueue_bulk(batch) when it is empty.  @pcp->lock held.
 */
static inline struct pp_page *pp_rmqueue_pcplist(struct pp_pool *pool,
						 struct pp_pcp *pcp,
						 const char *call)
{
	struct pp_page *page;

	if (unlikely(pp_list_empty(&pcp->list))) {
		if (!pp_rmqueue_bulk(pool, pcp, pcp->batch))
			return NULL;
	}
	page = pp_lru_to_page(pcp->list.next);
	if (unlikely(pool->debug) &&
	    (pp_page_state(page) != PP_PAGE_PCP ||
	     page->lru.next->prev != &page->lru))
		pp_bad_page(pool, page, call,
			    "free list corruption: page on a pcp list is not "
			    "a free pcp page");
	pp_list_del(&page->lru);
	atomic_store_explicit(&pcp->count,
			      atomic_load_explicit(&pcp->count,
						   memory_order_relaxed) - 1,
			      memory_order_relaxed);
	return page;
}

/* rmqueue_buddy(): take a block straight from the buddy lists. */
static struct pp_page *pp_rmqueue_buddy(struct pp_pool *pool,
					unsigned int order)
{
	struct pp_page *page;

	pp_zone_lock(pool);
	page = pp_rmqueue_smallest(pool, order, "rmqueue_buddy");
	if (page) {
		atomic_store_explicit(&pool->nr_free,
				      pp_zone_free(pool) - (1UL << order),
				      memory_order_relaxed);
		pp_trace(mm_page_alloc_zone_locked, pp_pfn(pool, page), order,
			 PP_MIGRATE_UNMOVABLE, 0);
	}
	pp_zone_unlock(pool);
	pp_count(pool, PP_ZONE_LOCK, 1);
	return page;
}

/*
 * rmqueue(): order-0 pages come from this CPU's pcp list; if its trylock
 * fails (a drain, or another thread on this CPU), or for larger orders, from
 * the buddy lists directly.
 */
static struct pp_page *pp_rmqueue(struct pp_pool *pool,
				  struct pp_alloc_ctx *ac, const char *call)
{
	struct pp_page *page;

	if (likely(ac->order == 0)) {
		struct pp_pcp *pcp = pp_this_pcp(pool);

		if (likely(pp_pcp_trylock(pcp))) {
			page = pp_rmqueue_pcplist(pool, pcp, call);
			if (likely(page)) {
				pp_prep_new_page(pool, page, 0, ac->gfp, call);
				pp_count_locked(pcp, PP_PGALLOC, 1);
			}
			pp_ctx_flush_locked(pcp, ac);
			pp_pcp_unlock(pcp);
			if (likely(page))
				return page;
		} else {
			pp_count(pool, PP_PCP_TRYLOCK_FAIL, 1);
		}
	}
	page = pp_rmqueue_buddy(pool, ac->order);
	if (page) {
		pp_prep_new_page(pool, page, ac->order, ac->gfp, call);
		pp_count(pool, PP_PGALLOC, 1UL << ac->order);
	}
	return page;
}

/* get_page_from_freelist(): the watermark check, then rmqueue(). */
static struct pp_page *pp_get_page_from_freelist(struct pp_pool *pool,
						 struct pp_alloc_ctx *ac,
						 const char *call)
{
	if (!(ac->alloc_flags & PP_ALLOC_NO_WATERMARKS)) {
		unsigned long mark =
			pool->wmark[ac->alloc_flags & PP_ALLOC_WMARK_MASK];

		if (!pp_zone_watermark_ok(pool, ac->order, mark,
					  ac->alloc_flags))
			return NULL;
	}
	return pp_rmqueue(pool, ac, call);
}

/*
 * __alloc_pages_slowpath(), for a zone that has nothing to reclaim: retry
 * against min (lowered for atomic callers, ignored for MEMALLOC), and if
 * that fails while pcp lists hold pages, drain them all and retry once, as
 * direct reclaim's drain_all_pages() does.
 */
static struct pp_page *pp_alloc_pages_slowpath(struct pp_pool *pool,
					       struct pp_alloc_ctx *ac,
					       const char *call)
{
	struct pp_page *page;

	pp_ctx_defer(ac, PP_ALLOC_SLOWPATH);
	ac->alloc_flags = PP_WMARK_MIN;
	if (ac->gfp & PP_GFP_ATOMIC)
		ac->alloc_flags |= PP_ALLOC_HIGH | PP_ALLOC_HARDER;
	if (ac->gfp & PP_GFP_MEMALLOC)
		ac->alloc_flags |= PP_ALLOC_NO_WATERMARKS;

	page = pp_get_page_from_freelist(pool, ac, call);
	if (page)
		return page;
	if (pp_pcp_pages(pool)) {
		pp_count(pool, PP_DRAIN_ALL, 1);
		pp_drain_all_pages(pool);
		page = pp_get_page_from_freelist(pool, ac, call);
		if (page)
			return page;
	}
	pp_ctx_defer(ac, PP_ALLOC_FAIL);
	return NULL;
}

/*
 * __alloc_pages(): prepare the context, fast path against the low
 * watermark, slow path otherwise.  Counters deferred in @ac are added under
 * the pcp lock when the path takes one, atomically otherwise.
 */
static struct pp_page *pp_alloc_pages_impl(struct pp_pool *pool,
					   struct pp_alloc_ctx *ac,
					   const char *call)
{
	struct pp_page *page;

	ac->gfp &= PP_GFP_MASK;
	ac->alloc_flags = PP_WMARK_LOW;
	page = pp_get_page_from_freelist(pool, ac, call);
	if (unlikely(!page))
		page = pp_alloc_pages_slowpath(pool, ac, call);
	if (unlikely(ac->nr_pending))
		pp_ctx_flush(pool, ac);
	pp_trace(mm_page_alloc, page ? pp_pfn(pool, page) : ~0UL, ac->order,
		 (unsigned long)ac->gfp, PP_MIGRATE_UNMOVABLE);
	return page;
}

struct pp_page *pp_alloc_pages(struct pp_pool *pool, pp_gfp_t gfp,
			       unsigned int order)
{
	struct pp_alloc_ctx ac = { .gfp = gfp, .order = order };

	if (unlikely(order > PP_MAX_ORDER)) {
		pp_count(pool, PP_ALLOC_SINGLE_CALLS, 1);
		pp_count(pool, PP_ALLOC_FAIL, 1);
		return NULL;
	}
	pp_ctx_defer(&ac, PP_ALLOC_SINGLE_CALLS);
	return pp_alloc_pages_impl(pool, &ac, "pp_alloc_pages");
}

struct pp_page *pp_alloc_page(struct pp_pool *pool, pp_gfp_t gfp)
{
	struct pp_alloc_ctx ac = { .gfp = gfp, .order = 0 };

	pp_ctx_defer(&ac, PP_ALLOC_SINGLE_CALLS);
	return pp_alloc_pages_impl(pool, &ac, "pp_alloc_page");
}

/*
 * __alloc_pages_bulk(): the core of both bulk APIs, with the merged 5.13
 * semantics plus the later fixes the issue tracker calls for (a full array
 * returns nr_pages; the one-page fallback counts only pages allocated by
 * this call; a failed pcp trylock falls back to one page).
 */
static unsigned long pp_alloc_pages_bulk_impl(struct pp_pool *pool,
					      pp_gfp_t gfp,
					      unsigned long nr_pages,
					      struct pp_list_head *page_list,
					      struct pp_page **page_array,
					      enum pp_vm_event call_event,
					      const char *call)
{
	struct pp_alloc_ctx ac = { .gfp = gfp & PP_GFP_MASK, .order = 0 };
	unsigned long nr_populated = 0, nr_account = 0, nr_leading;
	enum pp_trace_fallback fallback = PP_TRACE_FALLBACK_NONE;
	struct pp_page *page;
	struct pp_pcp *pcp;

	pp_ctx_defer(&ac, call_event);
	if (unlikely(nr_pages == 0))
		goto out_flush;

	/*
	 * Skip populated array elements to determine if any pages need to
	 * be allocated before taking the pcp lock.
	 */
	while (page_array && nr_populated < nr_pages &&
	       page_array[nr_populated])
		nr_populated++;

	/* Already full: report it as such (5.13.0 returned 0 here). */
	if (unlikely(page_array && nr_populated == nr_pages))
		goto out_flush;

	/* One page: the single-page path does it (and traces it). */
	if (nr_pages - nr_populated == 1) {
		pp_ctx_defer(&ac, PP_BULK_FALLBACK_ONE_PAGE);
		fallback = PP_TRACE_FALLBACK_ONE_PAGE;
		goto failed;
	}

	/*
	 * The zone must stay above low + nr_pages (full nr_pages, as 5.13).
	 * The kernel's nr_pages is an int; ours is unsigned long, so a
	 * request larger than the pool must not wrap the sum.
	 */
	if (nr_pages > pool->nr_pages ||
	    !pp_zone_watermark_ok(pool, 0,
				  pool->wmark[PP_WMARK_LOW] + nr_pages, 0)) {
		pp_ctx_defer(&ac, PP_BULK_FALLBACK_WATERMARK);
		fallback = PP_TRACE_FALLBACK_WATERMARK;
		goto failed;
	}

	pcp = pp_this_pcp(pool);
	/* A drain or another thread on this CPU holds it: one page instead. */
	if (unlikely(!pp_pcp_trylock(pcp))) {
		pp_ctx_defer(&ac, PP_BULK_FALLBACK_TRYLOCK);
		fallback = PP_TRACE_FALLBACK_TRYLOCK;
		goto failed;
	}

	/* Attempt the batch allocation with the pcp lock held once. */
	nr_leading = nr_populated;
	while (nr_populated < nr_pages) {
		/* Skip existing pages. */
		if (page_array && page_array[nr_populated]) {
			nr_populated++;
			continue;
		}
		page = pp_rmqueue_pcplist(pool, pcp, call);
		if (unlikely(!page)) {
			/* Try and get at least one page. */
			if (!nr_account) {
				pp_ctx_flush_locked(pcp, &ac);
				pp_pcp_unlock(pcp);
				pp_ctx_defer(&ac, PP_BULK_FALLBACK_EMPTY);
				fallback = PP_TRACE_FALLBACK_EMPTY;
				goto failed;
			}
			break;
		}
		/* Per-page statistics, inside the loop, as 5.13 did. */
		pp_count_locked(pcp, PP_PGALLOC, 1);
		pp_prep_new_page(pool, page, 0, ac.gfp, call);
		if (page_list)
			pp_list_add(&page->lru, page_list);
		else
			page_array[nr_populated] = page;
		nr_populated++;
		nr_account++;
	}
	if (nr_populated < nr_pages)
		pp_ctx_defer(&ac, PP_BULK_PARTIAL);
	pp_ctx_flush_locked(pcp, &ac);
	pp_pcp_unlock(pcp);
	pp_trace(mm_page_alloc_bulk, nr_pages, nr_leading, nr_account,
		 page_array != NULL, fallback);
	return page_list ? nr_account : nr_populated;

failed:
	nr_leading = nr_populated;
	page = pp_alloc_pages_impl(pool, &ac, call);
	if (page) {
		if (page_list)
			pp_list_add(&page->lru, page_list);
		else
			page_array[nr_populated] = page;
		nr_populated++;
		nr_account++;
	}
	pp_trace(mm_page_alloc_bulk, nr_pages, nr_leading, nr_account,
		 page_array != NULL, fallback);
	return page_list ? nr_account : nr_populated;

out_flush:
	pp_ctx_flush(pool, &ac);
	pp_trace(mm_page_alloc_bulk, nr_pages, nr_populated, 0UL,
		 page_array != NULL, fallback);
	return page_list ? 0 : nr_populated;
}

unsigned long pp_alloc_pages_bulk_array(struct pp_pool *pool, pp_gfp_t gfp,
					unsigned long nr_pages,
					struct pp_page **page_array)
{
	return pp_alloc_pages_bulk_impl(pool, gfp, nr_pages, NULL, page_array,
					PP_ALLOC_BULK_ARRAY_CALLS,
					"pp_alloc_pages_bulk_array");
}

unsigned long pp_alloc_pages_bulk_list(struct pp_pool *pool, pp_gfp_t gfp,
				       unsigned long nr_pages,
				       struct pp_list_head *list)
{
	return pp_alloc_pages_bulk_impl(pool, gfp, nr_pages, list, NULL,
					PP_ALLOC_BULK_LIST_CALLS,
					"pp_alloc_pages_bulk_list");
}
