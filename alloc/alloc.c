/* SPDX-License-Identifier: MIT */
/*
 * The allocation side: the single-page path (__alloc_pages()) and the bulk
 * core behind the list and array APIs (__alloc_pages_bulk()).
 */
#include "internal.h"

#include <errno.h>
#include <string.h>

/*
 * zone_watermark_ok(): would the zone still hold more than @mark free
 * pages (lowered for ALLOC_HIGH/HARDER callers) after taking 2^order?
 * Pages on pcp lists do not count, as in the kernel.
 */
static inline bool pp_zone_watermark_ok_inline(struct pp_zone *zone,
					       unsigned int order,
					       unsigned long mark,
					       unsigned int alloc_flags)
{
	long free_pages = (long)pp_zone_free(zone) - ((1L << order) - 1);
	long min = (long)mark;

	if (alloc_flags & PP_ALLOC_HIGH)
		min -= min / 2;
	if (alloc_flags & PP_ALLOC_HARDER)
		min -= min / 4;
	if (free_pages <= min)
		return false;
	return !order || pp_zone_has_block(zone, order);
}

/*
 * prep_new_page() for an order-0 page when there is nothing to check or
 * zero (debug checks off, no GFP_ZERO): the fast paths' and the bulk
 * loops' unchecked copies.  pp_set_page_allocated()'s three stores as one
 * (see pp_page_word(): with debug off, flags is 0).
 */
static inline __attribute__((always_inline))
void pp_prep_new_page_fast(struct pp_pool *pool, struct pp_page *page)
{
	/* KASAN: the caller's now (ASan build). */
	pp_kasan_unpoison(pool, page, 0);
	pp_page_word_store(page, pp_page_word(1, 0, PP_PAGE_INUSE, 0));
}

/* prep_new_page() for the other backends. */
void pp_prep_new_page_checked(struct pp_pool *pool, struct pp_page *page,
			      unsigned int order, pp_gfp_t gfp,
			      const char *call)
{
	pp_prep_new_page(pool, page, order, gfp, call);
}

/*
 * __rmqueue_pcplist(): pop the hot end of @pcp, refilling it with
 * rmqueue_bulk(batch) when it is empty.  @pcp->lock held.
 */
static inline struct pp_page *pp_rmqueue_pcplist(struct pp_pool *pool,
						 struct pp_pcp *pcp,
						 const char *call)
{
	unsigned int count = pp_pcp_count(pcp);
	struct pp_page *page;

	if (unlikely(!count)) {
		count = pp_rmqueue_bulk(pool, pcp, pcp->batch);
		if (!count)
			return NULL;
	}
	page = pp_pcp_pop(pcp);
	if (unlikely(pool->debug) &&
	    (pp_page_state(page) != PP_PAGE_PCP || page->pcp_cpu != pcp->cpu))
		pp_bad_page(pool, page, call,
			    "free list corruption: page on a pcp list is not "
			    "a free pcp page");
	return page;
}

/* rmqueue_buddy(): take a block straight from @zone's buddy lists. */
static struct pp_page *pp_rmqueue_buddy(struct pp_pool *pool,
					struct pp_zone *zone,
					unsigned int order)
{
	struct pp_page *page;

	pp_zone_lock(zone);
	page = pp_zone_take_block(pool, zone, order, "rmqueue_buddy");
	if (page)
		pp_trace(mm_page_alloc_zone_locked, pp_pfn(pool, page), order,
			 PP_MIGRATE_UNMOVABLE, 0);
	pp_zone_unlock(zone);
	pp_count(pool, PP_ZONE_LOCK, 1);
	return page;
}

/*
 * __rmqueue_pcplist() on an rseq list: pop a page, refilling the list from
 * the buddy lists when it is empty.  NULL when the list is busy (stopped
 * by a drain: pcp_trylock_fail, as a failed trylock) or nothing is left.
 */
static __attribute__((noinline))
struct pp_page *pp_rseq_rmqueue(struct pp_pool *pool, struct pp_zone *zone,
				struct pp_alloc_ctx *ac, const char *call)
{
	enum pp_pcp_miss miss;
	struct pp_page *page;
	unsigned int cpu = 0;

	if (pp_rseq_fault(pool)) {
		pp_count(pool, PP_PCP_TRYLOCK_FAIL, 1);
		return NULL;
	}
	while (!(page = pp_rseq_alloc_one(pool, zone, &cpu, &miss))) {
		if (miss == PP_PCP_BUSY) {
			pp_count(pool, PP_PCP_TRYLOCK_FAIL, 1);
			return NULL;
		}
		if (!pp_rseq_refill(pool, zone, call))
			return NULL;
	}
	if (unlikely(pool->debug) &&
	    (pp_page_state(page) != PP_PAGE_PCP || page->pcp_cpu != cpu))
		pp_bad_page(pool, page, call,
			    "free list corruption: page on a pcp list is not "
			    "a free pcp page");
	pp_prep_new_page(pool, page, 0, ac->gfp, call);
	pp_rseq_count(pool, PP_PGALLOC, 1);
	pp_ctx_flush_rseq(pool, ac);
	return page;
}

/*
 * rmqueue(): order-0 pages come from this CPU's pcp list of @zone; if its
 * trylock fails (a drain, or another thread on this CPU), or for larger
 * orders, from the zone's buddy lists directly.
 */
static inline __attribute__((always_inline))
struct pp_page *pp_rmqueue(struct pp_pool *pool, struct pp_zone *zone,
			   struct pp_alloc_ctx *ac, const char *call)
{
	struct pp_page *page;

	if (likely(ac->order == 0) && pool->pcp_rseq) {
		page = pp_rseq_rmqueue(pool, zone, ac, call);
		if (likely(page))
			return page;
	} else if (likely(ac->order == 0)) {
		struct pp_pcp *pcp = pp_zone_this_pcp(pool, zone);

		if (likely(pp_pcp_trylock(pcp))) {
			page = pp_rmqueue_pcplist(pool, pcp, call);
			if (likely(page))
				pp_prep_new_page(pool, page, 0, ac->gfp, call);
			pp_pcp_alloc_unlock(pcp, ac, page, 1);
			if (likely(page))
				return page;
		} else {
			pp_count(pool, PP_PCP_TRYLOCK_FAIL, 1);
		}
	}
	page = pp_rmqueue_buddy(pool, zone, ac->order);
	if (page) {
		pp_prep_new_page(pool, page, ac->order, ac->gfp, call);
		pp_count(pool, PP_PGALLOC, 1UL << ac->order);
	}
	return page;
}

static inline void pp_numa_add(struct pp_zone *zone, unsigned int cpu,
			       enum pp_numa_stat item, uint64_t n)
{
	atomic_fetch_add_explicit(&zone->numa[cpu].ev[item], n,
				  memory_order_relaxed);
}

/*
 * zone_statistics(): @n pages came from @z for a call that preferred node
 * @pref, on this CPU.  Pools of several nodes only (one node: every page
 * is a hit and local, read off pgalloc).
 */
static __attribute__((noinline))
void pp_zone_statistics(struct pp_pool *pool, unsigned int pref,
			struct pp_zone *z, uint64_t n)
{
	unsigned int cpu = pp_this_cpu(pool);

	if (z->node == pref) {
		pp_numa_add(z, cpu, PP_NUMA_HIT, n);
	} else {
		pp_numa_add(z, cpu, PP_NUMA_MISS, n);
		pp_numa_add(&pool->zones[pref], cpu, PP_NUMA_FOREIGN, n);
	}
	pp_numa_add(z, cpu, z->node == pool->cpu_node[cpu] ? PP_NUMA_LOCAL :
			    PP_NUMA_OTHER, n);
}

/*
 * zone_statistics() of a bulk call: its pages all come from the preferred
 * node's own zone.  Out of line, so that the one-node bulk core does not
 * keep the arguments around.
 */
static __attribute__((noinline))
void pp_bulk_statistics(struct pp_pool *pool, struct pp_zone *zone,
			unsigned long nr_account)
{
	pp_zone_statistics(pool, zone->node, zone, nr_account);
}

/* The preferred node of a call: @nid, or this CPU's (PP_NUMA_NO_NODE). */
static inline unsigned int pp_preferred_nid(const struct pp_pool *pool,
					    int nid)
{
	return nid < 0 ? pp_numa_node_id(pool) : (unsigned int)nid;
}

/*
 * get_page_from_freelist(): the zonelist of the preferred node, nearest
 * first (only that node with PP_GFP_THISNODE): the first zone above its
 * watermark that has the pages, through rmqueue().
 */
static inline __attribute__((always_inline))
struct pp_page *pp_get_page_from_freelist(struct pp_pool *pool,
					  struct pp_alloc_ctx *ac,
					  const char *call)
{
	unsigned int pref = pp_preferred_nid(pool, ac->nid);
	unsigned int nr = ac->gfp & PP_GFP_THISNODE ? 1 : pool->nr_nodes;

	for (unsigned int i = 0; i < nr; i++) {
		struct pp_zone *zone = &pool->zones[pool->zonelist[pref][i]];
		struct pp_page *page;

		if (!(ac->alloc_flags & PP_ALLOC_NO_WATERMARKS)) {
			unsigned long mark =
				zone->wmark[ac->alloc_flags &
					    PP_ALLOC_WMARK_MASK];

			if (!pp_zone_watermark_ok_inline(zone, ac->order, mark,
							 ac->alloc_flags))
				continue;
		}
		page = pp_rmqueue(pool, zone, ac, call);
		if (!page)
			continue;
		if (unlikely(pool->nr_nodes > 1))
			pp_zone_statistics(pool, pref, zone,
					   1UL << ac->order);
		return page;
	}
	return NULL;
}

/*
 * __alloc_pages_slowpath(), for a zone that has nothing to reclaim: retry
 * against min (lowered for atomic callers, ignored for MEMALLOC), and if
 * that fails while pcp lists hold pages, drain them all and retry once, as
 * direct reclaim's drain_all_pages() does.
 */
static __attribute__((noinline))
struct pp_page *pp_alloc_pages_slowpath(struct pp_pool *pool,
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
static inline __attribute__((always_inline))
struct pp_page *pp_alloc_pages_impl(struct pp_pool *pool,
				    struct pp_alloc_ctx *ac, const char *call)
{
	struct pp_page *page;

	ac->gfp &= PP_GFP_MASK;
	if (unlikely(!pp_pool_buddy(pool))) {
		page = pp_backend_alloc_pages(pool, ac, call);
	} else if (unlikely(pool->kernel)) {
		page = ppk_alloc_pages(pool, ac, call);
	} else {
		ac->alloc_flags = PP_WMARK_LOW;
		page = pp_get_page_from_freelist(pool, ac, call);
		if (unlikely(!page))
			page = pp_alloc_pages_slowpath(pool, ac, call);
	}
	if (unlikely(ac->nr_pending))
		pp_ctx_flush(pool, ac);
	pp_trace(mm_page_alloc, page ? pp_pfn(pool, page) : ~0UL, ac->order,
		 (unsigned long)ac->gfp, PP_MIGRATE_UNMOVABLE);
	return page;
}

struct pp_page *pp_alloc_pages(struct pp_pool *pool, pp_gfp_t gfp,
			       unsigned int order)
{
	struct pp_alloc_ctx ac = { .gfp = gfp, .order = order,
				   .nid = PP_NUMA_NO_NODE };

	if (unlikely(order > PP_MAX_ORDER)) {
		pp_count(pool, PP_ALLOC_SINGLE_CALLS, 1);
		pp_count(pool, PP_ALLOC_FAIL, 1);
		errno = EINVAL;
		return NULL;
	}
	pp_ctx_defer(&ac, PP_ALLOC_SINGLE_CALLS);
	return pp_alloc_pages_impl(pool, &ac, "pp_alloc_pages");
}

static __attribute__((noinline))
struct pp_page *pp_alloc_page_slow(struct pp_pool *pool, pp_gfp_t gfp)
{
	struct pp_alloc_ctx ac = { .gfp = gfp, .order = 0,
				   .nid = PP_NUMA_NO_NODE };

	pp_ctx_defer(&ac, PP_ALLOC_SINGLE_CALLS);
	return pp_alloc_pages_impl(pool, &ac, "pp_alloc_page");
}

/* The end of pp_alloc_page()'s fast path when GFP_ZERO or tracing ask. */
static __attribute__((noinline))
struct pp_page *pp_alloc_page_finish(struct pp_pool *pool,
				     struct pp_page *page, pp_gfp_t gfp)
{
	if (gfp & PP_GFP_ZERO)
		memset(pool->arena + (pp_pfn(pool, page) << PP_PAGE_SHIFT), 0,
		       PP_PAGE_SIZE);
	pp_trace(mm_page_alloc, pp_pfn(pool, page), 0U,
		 (unsigned long)(gfp & PP_GFP_MASK), PP_MIGRATE_UNMOVABLE);
	return page;
}

/*
 * The end of pp_alloc_page()'s fast path, @page taken: finished out of
 * line (a tail call) when GFP_ZERO or the tracepoint ask, else its probe
 * (alloc/trace.h) and the page.
 */
static inline __attribute__((always_inline))
struct pp_page *pp_alloc_page_done(struct pp_pool *pool, struct pp_page *page,
				   pp_gfp_t gfp)
{
	if (unlikely((gfp & PP_GFP_ZERO) || pp_trace_enabled(mm_page_alloc)))
		return pp_alloc_page_finish(pool, page, gfp);
	pp_trace_usdt(mm_page_alloc, pp_pfn(pool, page), 0U,
		      (unsigned long)(gfp & PP_GFP_MASK), PP_MIGRATE_UNMOVABLE);
	return page;
}

/*
 * The common case of the single-page path, straight-line: one node, its
 * zone above its low watermark (what pp_zone_watermark_ok() says for order 0 and no
 * ALLOC_* flags), this CPU's pcp list to be had (rseq: not stopped; lock:
 * taken at the first try), a page on it, debug checks off, buddy backend.  The same steps and counters
 * as the general path: PGALLOC, and the call's own counters (@ac's
 * deferred ones, or alloc_single_calls without @ac), under the pcp lock.
 * Returns NULL, having changed nothing, when any of that does not hold.
 */
static inline __attribute__((always_inline))
struct pp_page *pp_alloc_page_fast(struct pp_pool *pool,
				   struct pp_alloc_ctx *ac)
{
	struct pp_zone *zone = &pool->zones[0];
	struct pp_page *page;
	struct pp_pcp *pcp;
	unsigned int count;

	/* Several nodes (pp_pool_slow()): the general path's zonelist walk. */
	if (unlikely(pp_pool_slow(pool) ||
		     pp_zone_free(zone) <= zone->wmark[PP_WMARK_LOW]))
		return NULL;
	if (pool->pcp_rseq) {
		enum pp_pcp_miss miss;
		unsigned int cpu;

		if (unlikely(zone->pcp[0].fault_trylock))
			return NULL;
		page = pp_rseq_alloc_one(pool, zone, &cpu, &miss);
		if (unlikely(!page))
			return NULL;
		pp_prep_new_page_fast(pool, page);
#ifdef PP_RSEQ_PCP
		{
			struct rseq *rs = pp_rseq_area();

			pp_rseq_count_at(pool, zone, rs, cpu, PP_PGALLOC, 1);
			if (ac)
				pp_ctx_flush_rseq_at(pool, zone, rs, cpu, ac);
			else
				pp_rseq_count_at(pool, zone, rs, cpu,
						 PP_ALLOC_SINGLE_CALLS, 1);
		}
#endif
		return page;
	}
	pcp = pp_zone_this_pcp(pool, zone);
	if (unlikely(!pp_pcp_trylock_fast(pcp)))
		return NULL;
	count = pp_pcp_count(pcp);
	if (unlikely(!count)) {
		pp_pcp_unlock(pcp);
		return NULL;
	}
	page = pp_pcp_pop(pcp);
	pp_prep_new_page_fast(pool, page);
	pp_count_locked(pcp, PP_PGALLOC, 1);
	if (ac)
		pp_ctx_flush_locked(pcp, ac);
	else
		pp_count_locked(pcp, PP_ALLOC_SINGLE_CALLS, 1);
	pp_pcp_unlock(pcp);
	return page;
}

#ifdef PP_RSEQ_PCP
/*
 * pp_alloc_page()'s pop came back with @r, 0 (the list is empty) or a
 * PP_RSEQ_* code: an aborted section or a moved thread is a restart,
 * counted; then the general path, which tries the list again.
 */
static __attribute__((noinline))
struct pp_page *pp_alloc_page_rseq_miss(struct pp_pool *pool, pp_gfp_t gfp,
					long r)
{
	if (r == PP_RSEQ_ABORTED || r == PP_RSEQ_MOVED)
		pp_count(pool, PP_PCP_RESTART_ALLOC, 1);
	return pp_alloc_page_slow(pool, gfp);
}

/*
 * The counter section of pp_alloc_page() did not commit (a restart,
 * counted once): its two counts, which single_pages stands for, one by
 * one, then the end of the fast path.
 */
static __attribute__((noinline))
struct pp_page *pp_alloc_page_rseq_recount(struct pp_pool *pool,
					   struct pp_page *page, pp_gfp_t gfp)
{
	struct pp_zone *zone = &pool->zones[0];

	pp_rseq_count_slow(pool, zone, PP_PGALLOC, 1);
	pp_rseq_count(pool, PP_ALLOC_SINGLE_CALLS, 1);
	return pp_alloc_page_done(pool, page, gfp);
}

/*
 * pp_alloc_page_fast() on rseq lists without @ac, as pp_alloc_page()
 * takes it: the pop and the count a section each, and whatever does
 * not go straight finished out of line as a tail call, so that the path
 * saves no registers.  The same steps, checks and counters.
 */
static inline __attribute__((always_inline))
struct pp_page *pp_alloc_page_rseq(struct pp_pool *pool, pp_gfp_t gfp)
{
	struct pp_zone *zone = &pool->zones[0];
	struct pp_page *page;
	struct pp_pcp *pcp;
	struct rseq *rs;
	int cpu;
	long r;

	if (unlikely(pp_pool_slow(pool) ||
		     pp_zone_free(zone) <= zone->wmark[PP_WMARK_LOW] ||
		     zone->pcp[0].fault_trylock))
		return pp_alloc_page_slow(pool, gfp);
	rs = pp_rseq_area();
	cpu = pp_rseq_cpu(rs);
	if (unlikely((unsigned int)cpu >= pool->nr_cpus))
		return pp_alloc_page_slow(pool, gfp);
	pcp = &zone->pcp[cpu];
	r = pp_rseq_pop1(rs, pcp, cpu);
	if (unlikely(r <= 0))
		return pp_alloc_page_rseq_miss(pool, gfp, r);
	page = (struct pp_page *)r;
	pp_prep_new_page_fast(pool, page);
	/* PGALLOC and ALLOC_SINGLE_CALLS: see pp_pcp.single_pages. */
	if (unlikely(pp_rseq_add(rs, cpu, (uint64_t *)&pcp->single_pages, 1)))
		return pp_alloc_page_rseq_recount(pool, page, gfp);
	return pp_alloc_page_done(pool, page, gfp);
}
#endif

/*
 * pp_alloc_page(): the fast path, the rest to pp_alloc_page_slow(), which
 * starts over.  Every call out of here is a tail call, so the compiler
 * saves no registers on the way in.
 */
struct pp_page *pp_alloc_page(struct pp_pool *pool, pp_gfp_t gfp)
{
	struct pp_page *page;

#ifdef PP_RSEQ_PCP
	if (likely(pool->pcp_rseq))
		return pp_alloc_page_rseq(pool, gfp);
#endif
	page = pp_alloc_page_fast(pool, NULL);

	if (unlikely(!page))
		return pp_alloc_page_slow(pool, gfp);
	return pp_alloc_page_done(pool, page, gfp);
}

/*
 * The end of a bulk call that falls back to the single-page path (one
 * missing page, a failed trylock, a low zone, nothing in the loop): the
 * fast path first, as pp_alloc_page() would take it, else the general one
 * (either traces the page as mm_page_alloc, and adds the counters
 * deferred in @ac); the page goes at entry @nr_populated of the array or
 * at the head of the list; then the call's mm_page_alloc_bulk event.
 * Returns what the bulk call returns.  Shared by both profiles' bulk
 * cores, and not inlined into them.
 */
__attribute__((noinline))
unsigned long pp_bulk_fallback(struct pp_pool *pool, struct pp_alloc_ctx *ac,
			       const char *call, unsigned long nr_pages,
			       struct pp_list_head *page_list,
			       struct pp_page **page_array,
			       unsigned long nr_populated,
			       enum pp_trace_fallback fallback)
{
	const unsigned long nr_leading = nr_populated;
	unsigned long nr_account = 0;
	struct pp_page *page = pp_alloc_page_fast(pool, ac);

	if (unlikely(!page))
		page = pp_alloc_pages_impl(pool, ac, call);
	else
		page = pp_alloc_page_finish(pool, page, ac->gfp);
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
}

/*
 * A page a fill loop took off the pcp list of @cpu: checked against the
 * list (debug checks, PP_FILL_CHECKS), made ready (prep_new_page()), and
 * for a list call linked before *@run, the run the loop splices at the
 * list's head when it ends (in the order pp_list_add() per page would
 * leave).  The array's store is the loop's.
 */
static inline __attribute__((always_inline))
void pp_bulk_take(struct pp_pool *pool, struct pp_page *page,
		  unsigned int cpu, const struct pp_bulk_req *req,
		  struct pp_list_head **run, const unsigned int flags)
{
	if (flags & PP_FILL_CHECKS) {
		if (unlikely(pool->debug) &&
		    (pp_page_state(page) != PP_PAGE_PCP ||
		     page->pcp_cpu != cpu))
			pp_bad_page(pool, page, req->call,
				    "free list corruption: page on a pcp list "
				    "is not a free pcp page");
		pp_prep_new_page(pool, page, 0, req->gfp, req->call);
	} else {
		pp_prep_new_page_fast(pool, page);
	}
	if (flags & PP_FILL_LIST) {
		page->lru.next = *run;
		(*run)->prev = &page->lru;
		*run = &page->lru;
	}
}

/*
 * The loop of __alloc_pages_bulk() over this CPU's pcp list, @pcp->lock
 * held: fill the NULL entries of @req->page_array from @f->nr_populated on
 * (or every entry, PP_FILL_ALL), or add pages to @req->page_list
 * (PP_FILL_LIST), refilling the list from the buddy lists (rmqueue_bulk())
 * when it runs out; stop when the zone has nothing left, or (PP_FILL_STOP)
 * at the first populated entry.
 *
 * Always inlined into specialised copies: @flags (PP_FILL_*) is a constant
 * in each, so the common copies carry no per-page test of it.  Pages added
 * to a list are linked as one run and spliced at its head at the end, in
 * the order pp_list_add() per page would leave them.
 */
static inline __attribute__((always_inline))
void pp_bulk_fill_pcp(struct pp_pool *pool, struct pp_pcp *pcp,
		      const struct pp_bulk_req *req, struct pp_bulk_fill *f,
		      const unsigned int flags)
{
	const bool to_list = flags & PP_FILL_LIST;
	const bool fill_all = flags & PP_FILL_ALL;
	const bool stop = flags & PP_FILL_STOP;
	const bool per_page_stats = flags & PP_FILL_PER_PAGE_STATS;
	struct pp_list_head *page_list = to_list ? req->page_list : NULL;
	struct pp_page **page_array = to_list ? NULL : req->page_array;
	const unsigned long nr_pages = req->nr_pages;
	struct pp_list_head *run = to_list ? page_list->next : NULL;
	unsigned long nr_populated = f->nr_populated, nr_account = 0;
	unsigned int avail = pp_pcp_count(pcp);
	/*
	 * The ring's top in a register: the descriptor stores below would
	 * otherwise make the compiler reload and store it every page.
	 */
	struct pp_page **ring = pcp->ring;
	unsigned int top = pp_pcp_top(pcp), mask = pcp->mask;

	while (nr_populated < nr_pages) {
		struct pp_page *page;

		/* Skip existing pages (v5: stop at the first one). */
		if (!to_list && !fill_all && page_array[nr_populated]) {
			nr_populated++;
			if (stop) {
				f->stopped = true;
				break;
			}
			continue;
		}
		/* __rmqueue_pcplist(): the list ran out, refill it. */
		if (unlikely(!avail)) {
			pp_pcp_set(pcp, top, 0);
			avail = pp_rmqueue_bulk(pool, pcp, pcp->batch);
			top = pp_pcp_top(pcp);
			if (!avail) {
				f->dry = true;
				break;
			}
		}
		page = ring[--top & mask];
		avail--;
		/* Per-page statistics, inside the loop, as 5.13 did. */
		if (per_page_stats)
			pp_count_locked(pcp, PP_PGALLOC, 1);
		pp_bulk_take(pool, page, pcp->cpu, req, &run, flags);
		if (!to_list)
			page_array[nr_populated] = page;
		nr_populated++;
		nr_account++;
	}
	/* pcp->count settled once: readers only take racy snapshots. */
	pp_pcp_set(pcp, top, avail);
	if (to_list) {
		page_list->next = run;
		run->prev = page_list;
	}
	/* 5.14: once, after the loop. */
	if (!per_page_stats && nr_account)
		pp_count_locked(pcp, PP_PGALLOC, nr_account);
	f->nr_populated = nr_populated;
	f->nr_account = nr_account;
}

/* Pages a bulk list call takes per section (on the stack). */
#define PP_RSEQ_LIST_CHUNK	64U

/*
 * Up to @n pages off this CPU's rseq list into @dst: the number taken (0:
 * the list is empty; *@cpu_out is the list's CPU), or -1 when the list is
 * busy (stopped by a drain, or no list for this CPU).  @clear: @dst is a
 * run of the caller's array, all NULL on entry; an aborted section may
 * have written pages there that stayed on the list, so they are cleared
 * (back to what the caller had) before the section runs again.
 */
static inline long pp_rseq_pop_bulk(struct pp_pool *pool, struct pp_zone *zone,
				    struct pp_page **dst, unsigned long n,
				    bool clear, unsigned int *cpu_out)
{
#ifdef PP_RSEQ_PCP
	struct rseq *rs = pp_rseq_area();

	for (;;) {
		int cpu = pp_rseq_cpu(rs);
		long k;

		if (unlikely((unsigned int)cpu >= pool->nr_cpus))
			return -1;
		k = pp_rseq_pop_n(rs, &zone->pcp[cpu], cpu, dst, n);
		if (likely(k >= 0)) {
			*cpu_out = (unsigned int)cpu;
			return k;
		}
		if (k == PP_RSEQ_STOPPED)
			return -1;
		pp_count(pool, PP_PCP_RESTART_BULK_ALLOC, 1);
		if (clear)
			memset(dst, 0, n * sizeof(*dst));
	}
#else
	return -1;
#endif
}

/*
 * The bulk loop over an rseq list: pp_bulk_fill_pcp()'s work, one section
 * per run of holes (array) or per PP_RSEQ_LIST_CHUNK pages (list), then
 * prep_new_page() on the pages taken, outside the section (they are the
 * caller's once it commits).  Refills from the buddy lists when the list
 * is empty.  Returns false, having taken nothing, when the list was busy
 * at the first section: the caller falls back as after a failed trylock.
 */
static inline __attribute__((always_inline))
bool pp_bulk_fill_rseq(struct pp_pool *pool, struct pp_zone *zone,
		       const struct pp_bulk_req *req,
		       struct pp_bulk_fill *f, const unsigned int flags)
{
	const bool to_list = flags & PP_FILL_LIST;
	const bool fill_all = flags & PP_FILL_ALL;
	const bool per_page_stats = flags & PP_FILL_PER_PAGE_STATS;
	struct pp_list_head *page_list = to_list ? req->page_list : NULL;
	struct pp_page **page_array = to_list ? NULL : req->page_array;
	const unsigned long nr_pages = req->nr_pages;
	const char *call = req->call;
	struct pp_page *buf[PP_RSEQ_LIST_CHUNK];
	struct pp_list_head *run = to_list ? page_list->next : NULL;
	unsigned long nr_populated = f->nr_populated, nr_account = 0;
	/*
	 * Per-page PGALLOC.  In 5.13 each page's count is a this_cpu_add()
	 * inside the loop, which already runs with interrupts off; here the
	 * pages are counted one by one into this tally (a memory add per
	 * page: volatile, so the compiler cannot fold the adds into one, the
	 * lock implementation's per-page cost), and the tally goes to this
	 * CPU's counter in one section at the end.  A section per page would
	 * add the cost of entering it, which the kernel does not pay.
	 */
	volatile uint64_t tally = 0;

	PP_BULK_FILL_RUNS(req, f, buf, PP_RSEQ_LIST_CHUNK, flags, nr_pages,
			  nr_populated, nr_account, = 0,
			  pp_rseq_pop_bulk(pool, zone, dst, (unsigned long)want,
					   !to_list && !fill_all, &cpu),
			  pp_rseq_refill(pool, zone, call),
		/*
		 * Per-page statistics, as 5.13 did: one counter update
		 * per page (see the tally above).
		 */
		if (per_page_stats)
			tally = tally + 1;
		pp_bulk_take(pool, page, cpu, req, &run, flags);
		if (fill_all)
			page_array[nr_populated + (unsigned long)j] = page;
	);
	if (to_list) {
		page_list->next = run;
		run->prev = page_list;
	}
	/* 5.14: once, after the loop (5.13: the per-page tally). */
	if (nr_account)
		pp_rseq_count(pool, PP_PGALLOC,
			      per_page_stats ? tally : nr_account);
	f->nr_populated = nr_populated;
	f->nr_account = nr_account;
	return true;
}

/*
 * With debug checks or GFP_ZERO: one copy of each loop for a list and one
 * for an array, the other flags tested per page; on the rseq list (@pcp
 * NULL) or on @pcp, locked.  The request comes by value (see
 * pp_alloc_pages_bulk_core()).  Returns what pp_bulk_fill_rseq() does
 * (true on @pcp).
 */
static __attribute__((noinline))
bool pp_bulk_fill_checked(struct pp_pool *pool, struct pp_zone *zone,
			  struct pp_pcp *pcp, const struct pp_bulk_req r,
			  struct pp_bulk_fill *f, unsigned int flags)
{
	const struct pp_bulk_req *req = &r;

	if (!pcp && (flags & PP_FILL_LIST))
		return pp_bulk_fill_rseq(pool, zone, req, f,
					 PP_FILL_CHECKED_LIST(flags));
	if (!pcp)
		return pp_bulk_fill_rseq(pool, zone, req, f,
					 PP_FILL_CHECKED_ARRAY(flags));
	if (flags & PP_FILL_LIST)
		pp_bulk_fill_pcp(pool, pcp, req, f,
				 PP_FILL_CHECKED_LIST(flags));
	else
		pp_bulk_fill_pcp(pool, pcp, req, f,
				 PP_FILL_CHECKED_ARRAY(flags));
	return true;
}

/*
 * __alloc_pages_bulk(): the core of both bulk APIs.  With PP_BULK_MERGED,
 * the merged 5.13 semantics plus the later fixes the issue tracker calls
 * for (a full array returns nr_pages; the one-page fallback counts only
 * pages allocated by this call; a failed pcp trylock falls back to one
 * page); the other variants change what enum pp_bulk_variant says.  The
 * front end (skipping, fallbacks, counting, tracing) is the same for
 * every backend; the loop is the buddy allocator's pcp walk, or the
 * backend's.
 */
static inline __attribute__((always_inline))
unsigned long pp_alloc_pages_bulk_core(struct pp_pool *pool, pp_gfp_t gfp,
				       int nid, unsigned long nr_pages,
				       struct pp_list_head *page_list,
				       struct pp_page **page_array,
				       enum pp_vm_event call_event,
				       const char *call,
				       const enum pp_bulk_variant v)
{
	struct pp_alloc_ctx ac = { .gfp = gfp & PP_GFP_MASK, .order = 0,
				   .nid = nid };
	enum pp_trace_fallback fallback = PP_TRACE_FALLBACK_NONE;
	/*
	 * The fill loops' flags.  @v is a constant in each copy of the core
	 * (each variant gets its own, so comparing them compares what each
	 * contract does, not the cost of telling them apart); the list's
	 * are a constant too, and the list calls below pass them as such.
	 */
	const unsigned int fill = pp_fill_flags(v, page_list != NULL);
	const unsigned int list_fill = pp_fill_flags(v, true);
	const bool fill_all = fill & PP_FILL_ALL;
	/*
	 * Only the always-inline fills see its address; the out-of-line
	 * ones get it by value, so on the fast path it stays in registers.
	 * Letting &req escape to them cost the list path about 30
	 * instructions a call (callgrind, 64 pages).
	 */
	const struct pp_bulk_req req = {
		.gfp = ac.gfp, .nr_pages = nr_pages, .page_list = page_list,
		.page_array = page_array, .call = call,
	};
	struct pp_bulk_fill f = { 0 };
	unsigned long nr_populated = 0, nr_account = 0;
	/*
	 * The first zone of the preferred node's zonelist: its own.  Read
	 * once: a one-node pool's is zones[0], at a constant offset.
	 */
	const bool numa = pool->nr_nodes > 1;
	struct pp_zone *zone = &pool->zones[0];
	struct pp_pcp *pcp;

	pp_ctx_defer(&ac, call_event);
	if (unlikely(numa))
		zone = &pool->zones[pp_preferred_nid(pool, nid)];
	/* Before the pcp is taken: skip, done, or one page. */
	switch (pp_bulk_start(&ac, nr_pages, page_array, fill_all,
			      v != PP_BULK_NO_SINGLE_FALLBACK, &nr_populated,
			      &fallback)) {
	case PP_BULK_START_DONE:
		goto out_flush;
	case PP_BULK_START_ONE:
		goto failed;
	case PP_BULK_START_FILL:
		break;
	}

	/*
	 * The zone must stay above low + nr_pages (full nr_pages, as 5.13).
	 * The kernel's nr_pages is an int; ours is unsigned long, so a
	 * request larger than the pool must not wrap the sum.  A zone
	 * policy: the jemalloc backend manages its own pages.  With several
	 * nodes the next zone of the zonelist is another node's, which the
	 * bulk path never fills from (nor any with PP_GFP_THISNODE): one
	 * page through the zonelist walk instead.
	 */
	if (pp_pool_buddy(pool) &&
	    (nr_pages > pool->nr_pages ||
	     !pp_zone_watermark_ok_inline(zone, 0,
					  zone->wmark[PP_WMARK_LOW] + nr_pages,
					  0))) {
		pp_ctx_defer(&ac, PP_BULK_FALLBACK_WATERMARK);
		fallback = PP_TRACE_FALLBACK_WATERMARK;
		if (unlikely(numa) && !(ac.gfp & PP_GFP_THISNODE))
			pp_numa_add(zone, pp_this_cpu(pool),
				    PP_NUMA_BULK_FALLBACK_REMOTE, 1);
		goto failed;
	}

	f.nr_populated = nr_populated;
	if (pool->pcp_rseq) {
		bool ok;

		pcp = NULL;
		/* The list taken away by a drain: one page instead. */
		if (unlikely(pp_rseq_fault(pool)))
			ok = false;
		else if (unlikely(pool->debug || (ac.gfp & PP_GFP_ZERO)))
			ok = pp_bulk_fill_checked(pool, zone, NULL, req, &f,
						  fill);
		else if (page_list)
			ok = pp_bulk_fill_rseq(pool, zone, &req, &f,
					       list_fill);
		else
			ok = pp_bulk_fill_rseq(pool, zone, &req, &f, fill);
		if (unlikely(!ok)) {
			pp_ctx_defer(&ac, PP_BULK_FALLBACK_TRYLOCK);
			fallback = PP_TRACE_FALLBACK_TRYLOCK;
			goto failed;
		}
	} else {
		pcp = pp_zone_this_pcp(pool, zone);
		/* A drain or another thread on this CPU holds it. */
		if (unlikely(!pp_pcp_trylock(pcp))) {
			pp_ctx_defer(&ac, PP_BULK_FALLBACK_TRYLOCK);
			fallback = PP_TRACE_FALLBACK_TRYLOCK;
			goto failed;
		}
		/* The batch allocation with the pcp lock held once. */
		if (unlikely(!pp_pool_buddy(pool)))
			pp_backend_bulk_fill(pool, pcp, req, &f, fill);
		else if (unlikely(pool->debug || (ac.gfp & PP_GFP_ZERO)))
			pp_bulk_fill_checked(pool, zone, pcp, req, &f, fill);
		else if (page_list)
			pp_bulk_fill_pcp(pool, pcp, &req, &f,
					 list_fill);
		else
			pp_bulk_fill_pcp(pool, pcp, &req, &f, fill);
	}
	/* The one exit of the fill, either list. */
	nr_populated = f.nr_populated;
	nr_account = f.nr_account;
	if (unlikely(f.dry) && nr_account)
		pp_ctx_defer(&ac, PP_BULK_PARTIAL);
	if (pcp) {
		pp_ctx_flush_locked(pcp, &ac);
		pp_pcp_unlock(pcp);
	} else {
		pp_ctx_flush_rseq(pool, &ac);
	}
	/* Nothing anywhere: try and get at least one page. */
	if (unlikely(f.dry && !nr_account)) {
		pp_ctx_defer(&ac, PP_BULK_FALLBACK_EMPTY);
		fallback = PP_TRACE_FALLBACK_EMPTY;
		goto failed;
	}
	if (unlikely(numa))
		pp_bulk_statistics(pool, zone, nr_account);
	pp_trace(mm_page_alloc_bulk, nr_pages, nr_populated - nr_account,
		 nr_account, page_array != NULL, fallback);
	return page_list ? nr_account : nr_populated;

failed:
	return pp_bulk_fallback(pool, &ac, call, nr_pages, page_list,
				page_array, nr_populated, fallback);

out_flush:
	pp_ctx_flush(pool, &ac);
	pp_trace(mm_page_alloc_bulk, nr_pages, nr_populated, 0UL,
		 page_array != NULL, fallback);
	return page_list ? 0 : nr_populated;
}

/* One copy of the core per variant; the variant is read once per call. */
static inline __attribute__((always_inline))
unsigned long pp_alloc_pages_bulk_impl(struct pp_pool *pool, pp_gfp_t gfp,
				       int nid, unsigned long nr_pages,
				       struct pp_list_head *page_list,
				       struct pp_page **page_array,
				       enum pp_vm_event call_event,
				       const char *call)
{
	if (unlikely(pool->kernel))
		return ppk_alloc_pages_bulk(pool, gfp, nid, nr_pages,
					    page_list, page_array, call_event,
					    call);
	/* The same call to each copy, @v a constant in each. */
#define PP_BULK_CORE(v)							\
	pp_alloc_pages_bulk_core(pool, gfp, nid, nr_pages, page_list,	\
				 page_array, call_event, call, v)
	switch (atomic_load_explicit(&pool->bulk_variant,
				     memory_order_relaxed)) {
	case PP_BULK_STOP_AT_POPULATED:
		return PP_BULK_CORE(PP_BULK_STOP_AT_POPULATED);
	case PP_BULK_BATCHED_STATS:
		return PP_BULK_CORE(PP_BULK_BATCHED_STATS);
	case PP_BULK_NO_SINGLE_FALLBACK:
		return PP_BULK_CORE(PP_BULK_NO_SINGLE_FALLBACK);
	case PP_BULK_PURE_OUTPUT:
		return PP_BULK_CORE(PP_BULK_PURE_OUTPUT);
	case PP_BULK_MERGED:
	default:
		return PP_BULK_CORE(PP_BULK_MERGED);
	}
#undef PP_BULK_CORE
}

/*
 * A bulk call's array or list (@what) is NULL with pages asked for: one
 * test per call, not per page; the kernel would oops here.
 */
static inline void pp_bulk_check_dest(const void *dest, const char *what,
				      unsigned long nr_pages,
				      const char *call)
{
	if (unlikely(!dest) && nr_pages)
		pp_bad_call(call, "%s is NULL with nr_pages %lu", what,
			    nr_pages);
}

unsigned long pp_alloc_pages_bulk_array(struct pp_pool *pool, pp_gfp_t gfp,
					unsigned long nr_pages,
					struct pp_page **page_array)
{
	pp_bulk_check_dest(page_array, "page_array", nr_pages,
			   "pp_alloc_pages_bulk_array");
	return pp_alloc_pages_bulk_impl(pool, gfp, PP_NUMA_NO_NODE, nr_pages,
					NULL, page_array,
					PP_ALLOC_BULK_ARRAY_CALLS,
					"pp_alloc_pages_bulk_array");
}

unsigned long pp_alloc_pages_bulk_array_node(struct pp_pool *pool,
					     pp_gfp_t gfp, int nid,
					     unsigned long nr_pages,
					     struct pp_page **page_array)
{
	pp_bulk_check_dest(page_array, "page_array", nr_pages,
			   "pp_alloc_pages_bulk_array_node");
	if (unlikely(nid != PP_NUMA_NO_NODE &&
		     (nid < 0 || (unsigned int)nid >= pool->nr_nodes)))
		pp_bad_call("pp_alloc_pages_bulk_array_node",
			    "node %d is not one of the pool's %u", nid,
			    pool->nr_nodes);
	return pp_alloc_pages_bulk_impl(pool, gfp, nid, nr_pages, NULL,
					page_array, PP_ALLOC_BULK_ARRAY_CALLS,
					"pp_alloc_pages_bulk_array_node");
}

/* next_node_in(): the first node of @mask after @prev, wrapping. */
static unsigned int pp_next_node_in(unsigned int prev, unsigned long mask)
{
	unsigned long after = prev + 1 < PP_MAX_NODES ?
			      mask & ~((2UL << prev) - 1) : 0;

	return (unsigned int)__builtin_ctzl(after ? after : mask);
}

/*
 * alloc_pages_bulk_array_interleave() (5.14): @nr_pages split evenly over
 * the nodes of @mask, the remainder one page each to the first in
 * interleave order, each share a bulk call on its node.
 */
static unsigned long pp_bulk_array_interleave(struct pp_pool *pool,
					      pp_gfp_t gfp,
					      struct pp_mempolicy *pol,
					      unsigned long mask,
					      unsigned long nr_pages,
					      struct pp_page **page_array)
{
	unsigned long nodes = (unsigned long)__builtin_popcountl(mask);
	unsigned long per_node = nr_pages / nodes;
	unsigned long delta = nr_pages - nodes * per_node, total = 0;

	for (unsigned long i = 0; i < nodes; i++) {
		unsigned long want = per_node + (delta ? 1 : 0);
		unsigned int nid = pp_next_node_in(pol->il_prev, mask);

		if (delta)
			delta--;
		pol->il_prev = nid;
		total += pp_alloc_pages_bulk_array_node(pool, gfp, (int)nid,
							want,
							page_array + total);
	}
	return total;
}

unsigned long pp_alloc_pages_bulk_array_mempolicy(struct pp_pool *pool,
						  pp_gfp_t gfp,
						  struct pp_mempolicy *pol,
						  unsigned long nr_pages,
						  struct pp_page **page_array)
{
	unsigned long mask;

	if (!pol || pol->mode == PP_MPOL_DEFAULT || pol->mode == PP_MPOL_LOCAL)
		return pp_alloc_pages_bulk_array_node(pool, gfp,
						      PP_NUMA_NO_NODE,
						      nr_pages, page_array);
	if ((unsigned int)pol->mode >= PP_NR_MPOL_MODES)
		pp_bad_call("pp_alloc_pages_bulk_array_mempolicy",
			    "policy mode %u is not a pp_mpol_mode",
			    (unsigned int)pol->mode);
	mask = pol->nodes & ((1UL << pool->nr_nodes) - 1);
	if (!mask)
		pp_bad_call("pp_alloc_pages_bulk_array_mempolicy",
			    "policy nodes 0x%lx hold none of the pool's %u",
			    pol->nodes, pool->nr_nodes);
	if (pol->mode == PP_MPOL_PREFERRED)
		return pp_alloc_pages_bulk_array_node(pool, gfp,
						      __builtin_ctzl(mask),
						      nr_pages, page_array);
	return pp_bulk_array_interleave(pool, gfp, pol, mask, nr_pages,
					page_array);
}

unsigned long pp_alloc_pages_bulk_list(struct pp_pool *pool, pp_gfp_t gfp,
				       unsigned long nr_pages,
				       struct pp_list_head *list)
{
	pp_bulk_check_dest(list, "list", nr_pages, "pp_alloc_pages_bulk_list");
	return pp_alloc_pages_bulk_impl(pool, gfp, PP_NUMA_NO_NODE, nr_pages,
					list, NULL,
					PP_ALLOC_BULK_LIST_CALLS,
					"pp_alloc_pages_bulk_list");
}

int pp_pool_set_bulk_variant(struct pp_pool *pool,
			     enum pp_bulk_variant variant)
{
	if ((unsigned int)variant >= PP_NR_BULK_VARIANTS)
		return -EINVAL;
	atomic_store_explicit(&pool->bulk_variant, (unsigned int)variant,
			      memory_order_relaxed);
	return 0;
}

enum pp_bulk_variant pp_pool_bulk_variant(const struct pp_pool *pool)
{
	return (enum pp_bulk_variant)atomic_load_explicit(
		&((struct pp_pool *)pool)->bulk_variant, memory_order_relaxed);
}
