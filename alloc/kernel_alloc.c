/* SPDX-License-Identifier: MIT */
/*
 * The kernel profile's allocation side, after Linux 5.13's
 * mm/page_alloc.c: __alloc_pages() with prepare_alloc_pages(), the
 * zonelist walk of get_page_from_freelist() and zone_watermark_fast(),
 * rmqueue(), rmqueue_pcplist() and __rmqueue_pcplist(), prep_new_page()
 * with post_alloc_hook(), and __alloc_pages_bulk().  Written from the
 * kernel's behaviour, not its code; each function names its counterpart.
 */
#include "kernel_pcp.h"

/* struct alloc_context. */
struct ppk_alloc_context {
	struct ppk_zonelist *zonelist;
	struct ppk_zoneref *preferred_zoneref;
	int migratetype;
	int highest_zoneidx;
	bool spread_dirty_pages;
};

/*
 * current->flags: the task's memalloc scopes (PF_MEMALLOC_NOIO and
 * _NOFS), which current_gfp_context() reads on every call.  Nothing sets
 * them here; the read is the kernel's.
 */
static _Thread_local unsigned int ppk_current_flags;
#define PPK_PF_MEMALLOC_SCOPES	0x3u

/* current_gfp_context(): a scope would strip __GFP_IO / __GFP_FS. */
static inline pp_gfp_t ppk_current_gfp_context(pp_gfp_t gfp)
{
	unsigned int pflags = __atomic_load_n(&ppk_current_flags,
					      __ATOMIC_RELAXED);

	if (unlikely(pflags & PPK_PF_MEMALLOC_SCOPES))
		gfp &= ~PP_GFP_KERNEL;	/* no I/O or FS bits of their own */
	return gfp;
}

/*
 * gfp_zone(), gfp_migratetype(): pp_gfp_t has no zone modifiers and no
 * __GFP_MOVABLE / __GFP_RECLAIMABLE, so every allocation is for
 * ZONE_NORMAL and unmovable; the kernel's table lookups compile to
 * these constants.
 */
static inline int ppk_gfp_zone(pp_gfp_t gfp)
{
	(void)gfp;
	return PPK_ZONE_NORMAL;
}

static inline int ppk_gfp_migratetype(pp_gfp_t gfp)
{
	(void)gfp;
	return PPK_MIGRATE_UNMOVABLE;
}

/* node_zonelist(): __GFP_THISNODE takes the node's own zones only. */
static inline struct ppk_zonelist *ppk_node_zonelist(struct pp_pool *pool,
						     int nid, pp_gfp_t gfp)
{
	return &pool->k->node_zonelists[nid][gfp & PP_GFP_THISNODE ?
					     PPK_ZONELIST_NOFALLBACK :
					     PPK_ZONELIST_FALLBACK];
}

/*
 * first_zones_zonelist(): the first zoneref of a zone the allocation may
 * use (no nodemask here: the callers' node choice is the zonelist).
 */
static inline struct ppk_zoneref *
ppk_first_zones_zonelist(struct ppk_zonelist *zonelist, int highest_zoneidx)
{
	struct ppk_zoneref *z = zonelist->zonerefs;

	while (z->zone && z->zone_idx > highest_zoneidx)
		z++;
	return z;
}

/* current_alloc_flags(): CMA pageblocks for movable allocations only. */
static inline unsigned int ppk_current_alloc_flags(pp_gfp_t gfp,
						   unsigned int alloc_flags)
{
	if (ppk_gfp_migratetype(gfp) == PPK_MIGRATE_MOVABLE)
		alloc_flags |= PPK_ALLOC_CMA;
	return alloc_flags;
}

/*
 * prepare_alloc_pages(): the allocation context of one call.  cpusets,
 * fault injection (should_fail_alloc_page()) and lockdep are off in a
 * production kernel, static keys that cost nothing.
 */
static inline void ppk_prepare_alloc_pages(struct pp_pool *pool, pp_gfp_t gfp,
					   int preferred_nid,
					   struct ppk_alloc_context *ac,
					   unsigned int *alloc_flags)
{
	ac->highest_zoneidx = ppk_gfp_zone(gfp);
	ac->zonelist = ppk_node_zonelist(pool, preferred_nid, gfp);
	ac->migratetype = ppk_gfp_migratetype(gfp);
	*alloc_flags = ppk_current_alloc_flags(gfp, *alloc_flags);
	/* Dirty zone balancing, for __GFP_WRITE: none here. */
	ac->spread_dirty_pages = false;
	ac->preferred_zoneref = ppk_first_zones_zonelist(ac->zonelist,
							 ac->highest_zoneidx);
}

/*
 * alloc_flags_nofragment(): kswapd may be woken for __GFP_KSWAPD_RECLAIM
 * (GFP_KERNEL and GFP_ATOMIC both carry it); a ZONE_NORMAL allocation
 * avoids fragmenting other pageblocks while the zone below it is
 * populated, which on a pool of several nodes it is not (no DMA32 zone).
 */
static inline unsigned int ppk_alloc_flags_nofragment(struct pp_pool *pool,
						      struct pp_zone *zone,
						      pp_gfp_t gfp)
{
	unsigned int alloc_flags = gfp & (PP_GFP_KERNEL | PP_GFP_ATOMIC) ?
				   PPK_ALLOC_KSWAPD : 0;

	if (!zone)
		return alloc_flags;
	if (pool->nr_nodes > 1)
		return alloc_flags;
	return alloc_flags | PPK_ALLOC_NOFRAGMENT;
}

/* wmark_pages(): a watermark plus any boost. */
static inline unsigned long ppk_wmark_pages(const struct pp_pool *pool,
					    const struct pp_zone *zone,
					    unsigned int i)
{
	return zone->wmark[i] + ppk_zone(pool, zone)->watermark_boost;
}

/* __zone_watermark_unusable_free(): pages the check may not count. */
static inline long ppk_zone_watermark_unusable_free(const struct ppk_zone *kz,
						    unsigned int order,
						    unsigned int alloc_flags)
{
	long unusable_free = (1L << order) - 1;

	if (likely(!(alloc_flags & PP_ALLOC_HARDER)))
		unusable_free += (long)kz->nr_reserved_highatomic;
	if (!(alloc_flags & PPK_ALLOC_CMA))
		unusable_free += atomic_load_explicit(
			&kz->vm_stat[PPK_NR_FREE_CMA_PAGES],
			memory_order_relaxed);
	return unusable_free;
}

/*
 * __zone_watermark_ok(): above @mark (lowered for ALLOC_HIGH and
 * ALLOC_HARDER) plus the lowmem reserve, after taking 2^order, and for
 * order > 0 a free block of the order.  @free_pages is the zone's free
 * count: the exact one (see pp_vmstat.nr_free_folded), so that the
 * profiles share the watermark contract.
 */
static bool ppk_zone_watermark_ok(const struct pp_zone *z,
				  const struct ppk_zone *kz, unsigned int order,
				  unsigned long mark, int highest_zoneidx,
				  unsigned int alloc_flags, long free_pages)
{
	long min = (long)mark;

	free_pages -= ppk_zone_watermark_unusable_free(kz, order, alloc_flags);
	if (alloc_flags & PP_ALLOC_HIGH)
		min -= min / 2;
	if (unlikely(alloc_flags & PP_ALLOC_HARDER))
		min -= min / 4;
	if (free_pages <= min + (long)kz->lowmem_reserve[highest_zoneidx])
		return false;
	return !order || pp_zone_has_block(z, order);
}

/* zone_watermark_fast(): the order-0 test first, the full one otherwise. */
static inline bool ppk_zone_watermark_fast(const struct pp_pool *pool,
					   const struct pp_zone *z,
					   unsigned int order,
					   unsigned long mark,
					   int highest_zoneidx,
					   unsigned int alloc_flags)
{
	const struct ppk_zone *kz = ppk_zone(pool, z);
	long free_pages = (long)pp_zone_free(z);

	if (!order) {
		long fast_free = free_pages -
			ppk_zone_watermark_unusable_free(kz, 0, alloc_flags);

		if (fast_free > (long)(mark +
				       kz->lowmem_reserve[highest_zoneidx]))
			return true;
	}
	return ppk_zone_watermark_ok(z, kz, order, mark, highest_zoneidx,
				     alloc_flags, free_pages);
}

/*
 * check_new_pcp(): with CONFIG_DEBUG_VM off the kernel checks nothing
 * here (debug_pagealloc is a static key, off); debug checks on stand for
 * CONFIG_DEBUG_VM: the page must be a free page of this CPU's list, in
 * the state check_new_page() expects.
 */
static inline void ppk_check_new_pcp(const struct pp_pool *pool,
				     const struct pp_page *page,
				     unsigned int cpu, const char *call)
{
	if (likely(!pool->debug))
		return;
	if (pp_page_state(page) != PP_PAGE_PCP || page->pcp_cpu != cpu)
		pp_bad_page(pool, page, call, "free list corruption: page on "
			    "a pcp list is not a free pcp page");
	ppk_check_new_page(pool, page, call);
}

/*
 * prep_new_page() and its post_alloc_hook(): set_page_private(page, 0),
 * set_page_refcounted() (with the lab's state and order: one word),
 * KASAN's unpoison, init_on_alloc or __GFP_ZERO's clearing, and the
 * pfmemalloc mark, which 5.13 keeps in page->index.
 */
static inline void ppk_prep_new_page(struct pp_pool *pool, struct pp_page *page,
				     unsigned int order, pp_gfp_t gfp,
				     unsigned int alloc_flags,
				     const char *call)
{
	page->private = 0;
	pp_prep_new_page(pool, page, order,
			 pool->init_on_alloc ? gfp | PP_GFP_ZERO : gfp, call);
	page->index = alloc_flags & PP_ALLOC_NO_WATERMARKS ? ~0UL : 0;
}

/*
 * __rmqueue_pcplist(): a page off the head of list @mt of this CPU's pcp
 * of @zone, the list refilled with rmqueue_bulk(batch) when empty.  NULL
 * when nothing is left, or the list cannot be had (counted as a failed
 * trylock).  @pcp: locked, or NULL (rseq).
 */
static struct pp_page *ppk_rmqueue_pcplist_core(struct pp_pool *pool,
						struct pp_zone *zone, int mt,
						struct pp_pcp *pcp,
						const char *call)
{
	struct pp_page *page;
	unsigned int cpu;
	long k;

	for (;;) {
		k = ppk_pcp_take(pool, zone, pcp, mt, &page, 1, false, &cpu);
		if (unlikely(k < 0)) {
			pp_count(pool, PP_PCP_TRYLOCK_FAIL, 1);
			return NULL;
		}
		if (likely(k))
			break;
		if (!ppk_rmqueue_bulk(pool, zone, pcp, mt, zone->pcp[0].batch,
				      call))
			return NULL;
	}
	/* list_del()'s poison of the page's own links. */
	page->lru.next = PPK_LIST_POISON1;
	page->lru.prev = PPK_LIST_POISON2;
	ppk_check_new_pcp(pool, page, cpu, call);
	return page;
}

/*
 * rmqueue_pcplist(): interrupts "off" around the pop and the statistics:
 * __count_zid_vm_events(PGALLOC) and zone_statistics().  The lock
 * implementation takes this CPU's pcp lock inside (a failed trylock:
 * NULL, as since 2022).
 */
static struct pp_page *ppk_rmqueue_pcplist(struct pp_pool *pool,
					   struct pp_zone *preferred_zone,
					   struct pp_zone *zone, int mt,
					   const char *call)
{
	unsigned long flags = ppk_local_irq_save();
	struct pp_pcp *pcp = NULL;
	struct pp_page *page = NULL;

	if (!pool->pcp_rseq) {
		pcp = pp_zone_this_pcp(pool, zone);
		if (unlikely(!pp_pcp_trylock(pcp))) {
			pp_count(pool, PP_PCP_TRYLOCK_FAIL, 1);
			goto out;
		}
	} else if (unlikely(pp_rseq_fault(pool))) {
		pp_count(pool, PP_PCP_TRYLOCK_FAIL, 1);
		goto out;
	}
	page = ppk_rmqueue_pcplist_core(pool, zone, mt, pcp, call);
	if (likely(page)) {
		ppk_count_vm_events(pool, pcp, PP_PGALLOC, 1);
		ppk_zone_statistics(pool, preferred_zone, zone, 1);
	}
	if (pcp)
		pp_pcp_unlock(pcp);
out:
	ppk_local_irq_restore(flags);
	return page;
}

/*
 * rmqueue()'s buddy half: a block of 2^@order pages under the zone lock
 * with interrupts "off" (spin_lock_irqsave()), checked page by page
 * (check_new_pages()), NR_FREE_PAGES, PGALLOC and zone_statistics().
 * Also the order-0 pages whose pcp list could not be had, as the kernel
 * since 2022 and the lean profile take them.
 */
static struct pp_page *ppk_rmqueue_buddy(struct pp_pool *pool,
					 struct pp_zone *preferred_zone,
					 struct pp_zone *zone,
					 unsigned int order, int mt,
					 const char *call)
{
	unsigned long flags = ppk_local_irq_save();
	struct pp_page *page;

	pp_zone_lock(zone);
	page = pp_zone_take_block(pool, zone, order, "rmqueue");
	if (page) {
		ppk_set_pcppage_migratetype(page, mt);
		pp_trace(mm_page_alloc_zone_locked, pp_pfn(pool, page), order,
			 mt, 0);
		for (unsigned long i = 0; i < 1UL << order; i++)
			ppk_check_new_page(pool, page + i, call);
	}
	pp_zone_unlock(zone);
	pp_count(pool, PP_ZONE_LOCK, 1);
	if (page) {
		ppk_mod_zone_page_state(pool, zone, PPK_NR_FREE_PAGES,
					-(1L << order));
		ppk_count_vm_events(pool, NULL, PP_PGALLOC, 1UL << order);
		/*
		 * 5.13 counts a block once here; the lab's NUMA counters
		 * are in pages (pp_pool_node_vmstat()), as 5.14's
		 * zone_statistics(.., nr) counts a bulk call's.
		 */
		ppk_zone_statistics(pool, preferred_zone, zone, 1U << order);
	}
	ppk_local_irq_restore(flags);
	return page;
}

/*
 * rmqueue(): order 0 from this CPU's pcp list (CMA is never in the way
 * here), larger orders from the buddy lists.  Then the test of
 * ZONE_BOOSTED_WATERMARK that would wake kswapd.
 */
static inline struct pp_page *ppk_rmqueue(struct pp_pool *pool,
					  struct pp_zone *preferred_zone,
					  struct pp_zone *zone,
					  unsigned int order, int mt,
					  const char *call)
{
	struct pp_page *page = NULL;

	if (likely(order == 0))
		page = ppk_rmqueue_pcplist(pool, preferred_zone, zone, mt,
					   call);
	if (!page)
		page = ppk_rmqueue_buddy(pool, preferred_zone, zone, order, mt,
					 call);
	/* No watermark boost here: kswapd is never woken. */
	if (unlikely(__atomic_load_n(&ppk_zone(pool, zone)->flags,
				     __ATOMIC_RELAXED) & 1))
		__atomic_and_fetch(&ppk_zone(pool, zone)->flags, ~1UL,
				   __ATOMIC_RELAXED);
	return page;
}

/*
 * get_page_from_freelist(): from the preferred zoneref on, the first
 * zone above its watermark that has the pages.  ALLOC_NOFRAGMENT on a
 * pool of several nodes keeps to the local node first, then retries
 * without.
 */
static struct pp_page *ppk_get_page_from_freelist(struct pp_pool *pool,
						  pp_gfp_t gfp,
						  unsigned int order,
						  unsigned int alloc_flags,
						  const struct ppk_alloc_context *ac,
						  const char *call)
{
	struct ppk_zoneref *z;
	bool no_fallback;

retry:
	no_fallback = alloc_flags & PPK_ALLOC_NOFRAGMENT;
	for (z = ac->preferred_zoneref; z->zone; z++) {
		struct pp_zone *zone = z->zone;
		struct pp_page *page;
		unsigned long mark;

		if (z->zone_idx > ac->highest_zoneidx)
			continue;
		if (no_fallback && pool->nr_nodes > 1 &&
		    zone != ac->preferred_zoneref->zone &&
		    ppk_zone_to_nid(zone) !=
		    ppk_zone_to_nid(ac->preferred_zoneref->zone)) {
			alloc_flags &= ~PPK_ALLOC_NOFRAGMENT;
			goto retry;
		}
		mark = ppk_wmark_pages(pool, zone,
				       alloc_flags & PP_ALLOC_WMARK_MASK);
		if (!ppk_zone_watermark_fast(pool, zone, order, mark,
					     ac->highest_zoneidx,
					     alloc_flags) &&
		    !(alloc_flags & PP_ALLOC_NO_WATERMARKS))
			continue;	/* nothing to reclaim from a node */
		page = ppk_rmqueue(pool, ac->preferred_zoneref->zone, zone,
				   order, ac->migratetype, call);
		if (page) {
			ppk_prep_new_page(pool, page, order, gfp, alloc_flags,
					  call);
			return page;
		}
	}
	if (no_fallback) {
		alloc_flags &= ~PPK_ALLOC_NOFRAGMENT;
		goto retry;
	}
	return NULL;
}

/*
 * __alloc_pages_slowpath() for zones with nothing to reclaim: the
 * minimum watermark (gfp_to_alloc_flags(): lowered for atomic callers,
 * none for __GFP_MEMALLOC), then once more after draining every pcp list
 * (direct reclaim's drain_all_pages()), as the lean profile.
 */
static __attribute__((noinline))
struct pp_page *ppk_alloc_pages_slowpath(struct pp_pool *pool, pp_gfp_t gfp,
					 struct pp_alloc_ctx *lac,
					 struct ppk_alloc_context *ac,
					 const char *call)
{
	unsigned int alloc_flags = PP_WMARK_MIN | PPK_ALLOC_CPUSET |
				   PPK_ALLOC_KSWAPD;
	struct pp_page *page;

	pp_ctx_defer(lac, PP_ALLOC_SLOWPATH);
	if (gfp & PP_GFP_ATOMIC)
		alloc_flags |= PP_ALLOC_HIGH | PP_ALLOC_HARDER;
	if (gfp & PP_GFP_MEMALLOC)
		alloc_flags |= PP_ALLOC_NO_WATERMARKS;
	ac->preferred_zoneref = ppk_first_zones_zonelist(ac->zonelist,
							 ac->highest_zoneidx);
	page = ppk_get_page_from_freelist(pool, gfp, lac->order, alloc_flags,
					  ac, call);
	if (page)
		return page;
	if (pp_pcp_pages(pool)) {
		pp_count(pool, PP_DRAIN_ALL, 1);
		pp_drain_all_pages(pool);
		page = ppk_get_page_from_freelist(pool, gfp, lac->order,
						  alloc_flags, ac, call);
		if (page)
			return page;
	}
	pp_ctx_defer(lac, PP_ALLOC_FAIL);
	return NULL;
}

/* numa_mem_id() when the caller named no node. */
static inline int ppk_preferred_nid(const struct pp_pool *pool, int nid)
{
	return nid < 0 ? (int)pp_numa_node_id(pool) : nid;
}

struct pp_page *ppk_alloc_pages(struct pp_pool *pool, struct pp_alloc_ctx *lac,
				const char *call)
{
	struct ppk_alloc_context ac;
	unsigned int alloc_flags = PP_WMARK_LOW;
	pp_gfp_t gfp = ppk_current_gfp_context(lac->gfp);
	struct pp_page *page;

	ppk_prepare_alloc_pages(pool, gfp, ppk_preferred_nid(pool, lac->nid),
				&ac, &alloc_flags);
	alloc_flags |= ppk_alloc_flags_nofragment(pool,
						  ac.preferred_zoneref->zone,
						  gfp);
	page = ppk_get_page_from_freelist(pool, gfp, lac->order, alloc_flags,
					  &ac, call);
	if (unlikely(!page))
		page = ppk_alloc_pages_slowpath(pool, gfp, lac, &ac, call);
	/* memcg_kmem_enabled() && __GFP_ACCOUNT: nothing is accounted. */
	/* The lab's own counters of the call, this CPU's. */
	if (pool->pcp_rseq)
		pp_ctx_flush_rseq(pool, lac);
	return page;
}

/* --- __alloc_pages_bulk() ------------------------------------------------- */

/* Pages a list call (or a pure-output array) takes per step (stack). */
#define PPK_BULK_CHUNK	64U

/*
 * The bulk loop, interrupts "off": fill the holes of the array from
 * @f->nr_populated on (every entry, PP_FILL_ALL; stop at a populated
 * one past a hole, PP_FILL_STOP), or add pages to the list, from list @mt
 * of this CPU's pcp of @zone, refilled when it runs out.  Per page:
 * __rmqueue_pcplist()'s pop, the statistics (5.13; once after the loop
 * with PP_FILL_PER_PAGE_STATS clear), prep_new_page(), the store.
 * Returns false, having taken nothing, when the list could not be had at
 * the first try (the caller falls back as after a failed trylock).
 * Always inlined: @flags is a constant in each copy.
 */
static inline __attribute__((always_inline))
bool ppk_bulk_fill(struct pp_pool *pool, struct pp_zone *preferred_zone,
		   struct pp_zone *zone, struct pp_pcp *pcp, int mt,
		   const struct pp_bulk_req *req, struct pp_bulk_fill *f,
		   const unsigned int flags)
{
	const bool to_list = flags & PP_FILL_LIST;
	const bool fill_all = flags & PP_FILL_ALL;
	const bool per_page_stats = flags & PP_FILL_PER_PAGE_STATS;
	struct pp_page **page_array = req->page_array;
	unsigned long nr_populated = f->nr_populated, nr_account = 0;
	struct pp_page *buf[PPK_BULK_CHUNK];

	PP_BULK_FILL_RUNS(req, f, buf, PPK_BULK_CHUNK, flags, req->nr_pages,
			  nr_populated, nr_account, /* cpu unset */,
			  ppk_pcp_take(pool, zone, pcp, mt, dst,
				       (unsigned long)want,
				       !to_list && !fill_all, &cpu),
			  ppk_rmqueue_bulk(pool, zone, pcp, mt,
					   zone->pcp[0].batch, req->call),
		page->lru.next = PPK_LIST_POISON1;
		page->lru.prev = PPK_LIST_POISON2;
		ppk_check_new_pcp(pool, page, cpu, req->call);
		if (per_page_stats) {
			ppk_count_vm_events(pool, pcp, PP_PGALLOC, 1);
			ppk_zone_statistics(pool, preferred_zone, zone, 1);
		}
		ppk_prep_new_page(pool, page, 0, req->gfp, 0, req->call);
		if (to_list) {
			if (unlikely(pool->debug_list))
				ppk_list_add_valid(&page->lru, req->page_list,
						   req->page_list->next);
			pp_list_add(&page->lru, req->page_list);
		}
		else if (fill_all)
			page_array[nr_populated + (unsigned long)j] = page;
	);
	f->nr_populated = nr_populated;
	f->nr_account = nr_account;
	return true;
}

/*
 * The loop's copies: list, array, pure output, stop-at-populated.  Out of
 * line, so that the bulk call's front end (and its one-page fallback,
 * a WRITE's usual call) keeps a small frame, as the kernel's
 * __alloc_pages_bulk() keeps its slow paths out of the way.
 */
static __attribute__((noinline))
bool ppk_bulk_fill_any(struct pp_pool *pool,
			      struct pp_zone *preferred_zone,
			      struct pp_zone *zone, struct pp_pcp *pcp, int mt,
			      const struct pp_bulk_req *req,
			      struct pp_bulk_fill *f, unsigned int flags)
{
	if (flags & PP_FILL_PER_PAGE_STATS) {
		if (flags & PP_FILL_LIST)
			return ppk_bulk_fill(pool, preferred_zone, zone, pcp,
					     mt, req, f, PP_FILL_LIST |
					     PP_FILL_PER_PAGE_STATS);
		if (flags & PP_FILL_STOP)
			return ppk_bulk_fill(pool, preferred_zone, zone, pcp,
					     mt, req, f, PP_FILL_STOP |
					     PP_FILL_PER_PAGE_STATS);
		return ppk_bulk_fill(pool, preferred_zone, zone, pcp, mt, req,
				     f, PP_FILL_PER_PAGE_STATS);
	}
	if (flags & PP_FILL_LIST)
		return ppk_bulk_fill(pool, preferred_zone, zone, pcp, mt, req,
				     f, PP_FILL_LIST);
	if (flags & PP_FILL_ALL)
		return ppk_bulk_fill(pool, preferred_zone, zone, pcp, mt, req,
				     f, PP_FILL_ALL);
	return ppk_bulk_fill(pool, preferred_zone, zone, pcp, mt, req, f, 0);
}

static inline void ppk_numa_add(struct pp_zone *zone, unsigned int cpu,
				enum pp_numa_stat item)
{
	atomic_fetch_add_explicit(&zone->numa[cpu].ev[item], 1,
				  memory_order_relaxed);
}

unsigned long ppk_alloc_pages_bulk(struct pp_pool *pool, pp_gfp_t gfp, int nid,
				   unsigned long nr_pages,
				   struct pp_list_head *page_list,
				   struct pp_page **page_array,
				   enum pp_vm_event call_event,
				   const char *call)
{
	const enum pp_bulk_variant v = (enum pp_bulk_variant)
		atomic_load_explicit(&pool->bulk_variant, memory_order_relaxed);
	const unsigned int fill = pp_fill_flags(v, page_list != NULL);
	const bool fill_all = fill & PP_FILL_ALL;
	const bool per_page_stats = fill & PP_FILL_PER_PAGE_STATS;
	struct pp_alloc_ctx lac = { .gfp = gfp & PP_GFP_MASK, .order = 0,
				    .nid = nid };
	enum pp_trace_fallback fallback = PP_TRACE_FALLBACK_NONE;
	unsigned int alloc_flags = PP_WMARK_LOW;
	unsigned long nr_populated = 0, nr_account = 0;
	struct pp_bulk_fill f = { 0 };
	struct ppk_alloc_context ac;
	struct pp_bulk_req req;
	struct pp_zone *zone = NULL;
	struct pp_pcp *pcp = NULL;
	struct ppk_zoneref *z;
	unsigned long flags;
	int preferred_nid = ppk_preferred_nid(pool, nid);

	pp_ctx_defer(&lac, call_event);
	/* Before interrupts go "off": skip, done, or one page. */
	switch (pp_bulk_start(&lac, nr_pages, page_array, fill_all,
			      v != PP_BULK_NO_SINGLE_FALLBACK, &nr_populated,
			      &fallback)) {
	case PP_BULK_START_DONE:
		goto out;
	case PP_BULK_START_ONE:
		goto failed;
	case PP_BULK_START_FILL:
		break;
	}

	gfp = ppk_current_gfp_context(lac.gfp);
	ppk_prepare_alloc_pages(pool, gfp, preferred_nid, &ac, &alloc_flags);
	/*
	 * Find an allowed local zone that meets the low watermark + all the
	 * pages (5.13 adds nr_pages in full).
	 */
	for (z = ac.zonelist->zonerefs; z->zone; z++) {
		unsigned long mark;

		if (z->zone_idx > ac.highest_zoneidx)
			continue;
		if (pool->nr_nodes > 1 && z->zone != ac.preferred_zoneref->zone &&
		    ppk_zone_to_nid(z->zone) !=
		    ppk_zone_to_nid(ac.preferred_zoneref->zone)) {
			/* The bulk path never fills from another node. */
			ppk_numa_add(ac.preferred_zoneref->zone,
				     pp_this_cpu(pool),
				     PP_NUMA_BULK_FALLBACK_REMOTE);
			break;
		}
		/*
		 * A request larger than the pool fails every zone's
		 * watermark, and must not wrap the sum: the walk goes on,
		 * as 5.13's, to the next zone, another node's on a pool of
		 * several (counted above, as the lean profile counts it).
		 * One compare per zone visited, one on the common call.
		 */
		if (unlikely(nr_pages > pool->nr_pages))
			continue;
		mark = ppk_wmark_pages(pool, z->zone,
				       alloc_flags & PP_ALLOC_WMARK_MASK) +
		       nr_pages;
		if (ppk_zone_watermark_fast(pool, z->zone, 0, mark,
					    ac.preferred_zoneref->zone_idx,
					    alloc_flags)) {
			zone = z->zone;
			break;
		}
	}
	if (unlikely(!zone)) {
		pp_ctx_defer(&lac, PP_BULK_FALLBACK_WATERMARK);
		fallback = PP_TRACE_FALLBACK_WATERMARK;
		goto failed;
	}

	/* Attempt the batch allocation, interrupts "off" once for it all. */
	flags = ppk_local_irq_save();
	if (!pool->pcp_rseq) {
		pcp = pp_zone_this_pcp(pool, zone);
		if (unlikely(!pp_pcp_trylock(pcp)))
			goto failed_trylock;
	} else if (unlikely(pp_rseq_fault(pool))) {
		goto failed_trylock;
	}
	req = (struct pp_bulk_req){ .gfp = gfp, .nr_pages = nr_pages,
				    .page_list = page_list,
				    .page_array = page_array, .call = call };
	f.nr_populated = nr_populated;
	if (unlikely(!ppk_bulk_fill_any(pool, ac.preferred_zoneref->zone,
					zone, pcp, ac.migratetype, &req, &f,
					fill))) {
		if (pcp)
			pp_pcp_unlock(pcp);
		goto failed_trylock;
	}
	nr_populated = f.nr_populated;
	nr_account = f.nr_account;
	/* Nothing anywhere: try and get at least one page. */
	if (unlikely(f.dry && !nr_account)) {
		if (pcp)
			pp_pcp_unlock(pcp);
		ppk_local_irq_restore(flags);
		pp_ctx_defer(&lac, PP_BULK_FALLBACK_EMPTY);
		fallback = PP_TRACE_FALLBACK_EMPTY;
		goto failed;
	}
	if (f.dry)
		pp_ctx_defer(&lac, PP_BULK_PARTIAL);
	if (pcp) {
		pp_ctx_flush_locked(pcp, &lac);
		pp_pcp_unlock(pcp);
	}
	ppk_local_irq_restore(flags);
	/* 5.14: the statistics once, after the loop. */
	if (!per_page_stats && nr_account) {
		ppk_count_vm_events(pool, NULL, PP_PGALLOC, nr_account);
		ppk_zone_statistics(pool, ac.preferred_zoneref->zone, zone,
				    (unsigned int)nr_account);
	}
	if (pool->pcp_rseq)
		pp_ctx_flush_rseq(pool, &lac);
	pp_trace(mm_page_alloc_bulk, nr_pages, nr_populated - nr_account,
		 nr_account, page_array != NULL, fallback);
	return page_list ? nr_account : nr_populated;

failed_trylock:
	/* A drain or another thread on this CPU holds it: one page. */
	ppk_local_irq_restore(flags);
	pp_ctx_defer(&lac, PP_BULK_FALLBACK_TRYLOCK);
	fallback = PP_TRACE_FALLBACK_TRYLOCK;
failed:
	return pp_bulk_fallback(pool, &lac, call, nr_pages, page_list,
				page_array, nr_populated, fallback);

out:
	if (pool->pcp_rseq)
		pp_ctx_flush_rseq(pool, &lac);
	else
		pp_ctx_flush(pool, &lac);
	pp_trace(mm_page_alloc_bulk, nr_pages, nr_populated, 0UL,
		 page_array != NULL, fallback);
	return page_list ? 0 : nr_populated;
}
