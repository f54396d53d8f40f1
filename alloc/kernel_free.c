/* SPDX-License-Identifier: MIT */
/*
 * The kernel profile's free side, after Linux 5.13's mm/swap.c and
 * mm/page_alloc.c: put_page() and __put_page(), __free_pages(),
 * free_unref_page() with its prepare and commit halves,
 * free_pages_prepare(), get_pfnblock_migratetype(), __free_pages_ok(),
 * release_pages() and free_unref_page_list().  Written from the kernel's
 * behaviour, not its code; each function names its counterpart.
 */
#include "kernel_pcp.h"

/* ZONE_DEVICE: after the zones a pool has; no page is ever one. */
#define PPK_ZONE_DEVICE	PPK_MAX_NR_ZONES

/*
 * compound_head(): a tail page of a compound page has bit 0 set in its
 * first word (lru.next).  Pages here are never compound (the lab has no
 * __GFP_COMP), so a set bit is a corrupted descriptor.
 */
static inline struct pp_page *ppk_compound_head(const struct pp_pool *pool,
						struct pp_page *page,
						const char *call)
{
	uintptr_t head = (uintptr_t)__atomic_load_n(&page->lru.next,
						    __ATOMIC_RELAXED);

	if (unlikely(head & 1))
		pp_bad_page(pool, page, call, "lru.next has bit 0 set, a "
			    "compound tail page's mark (compound_head()), "
			    "and no page here is compound");
	return page;
}

static inline bool ppk_is_zone_device_page(const struct pp_page *page)
{
	return ppk_page_zonenum(page) == PPK_ZONE_DEVICE;
}

/*
 * get_pfnblock_migratetype(): the pageblock's migratetype from the bitmap
 * of the section holding @pfn (mem_section root, section, usemap word).
 */
static inline int ppk_get_pfnblock_migratetype(const struct pp_pool *pool,
					       unsigned long pfn)
{
	unsigned long nr = pfn >> PPK_PFN_SECTION_SHIFT;
	const struct ppk_mem_section *ms =
		&pool->k->mem_section[nr / PPK_SECTIONS_PER_ROOT]
				     [nr % PPK_SECTIONS_PER_ROOT];
	unsigned long bitidx = ((pfn & (PPK_PAGES_PER_SECTION - 1)) >>
				PPK_PAGEBLOCK_ORDER) * PPK_NR_PAGEBLOCK_BITS;
	unsigned long word = __atomic_load_n(
		&ms->usage->pageblock_flags[bitidx / (8 * sizeof(long))],
		__ATOMIC_RELAXED);

	return (int)((word >> (bitidx & (8 * sizeof(long) - 1))) &
		     PPK_MIGRATETYPE_MASK);
}

/*
 * free_pages_prepare(): the block's last reference is gone.  What a
 * production kernel runs: the tracepoint, the hwpoison test, a mapping
 * left with flag bits cleared, a kmem charge dropped, the bad-page check
 * only when asked (@check_free: CONFIG_DEBUG_VM, here the debug checks,
 * or an order > 0 block), the last cpupid reset and the page flags
 * cleared.  page_owner, lockdep and debugobjects, init_on_free,
 * arch_free_page() and debug_pagealloc are off or empty.  Then the lab's
 * debug poison (page poisoning) and KASAN's.
 */
static inline void ppk_free_pages_prepare(struct pp_pool *pool,
					  struct pp_page *page,
					  unsigned int order, bool check_free,
					  const char *call)
{
	pp_trace(mm_page_free, pp_pfn(pool, page), order);
	if (unlikely(page->page_flags & PPK_PG(hwpoison)) && !order)
		page->page_flags &= ~PPK_PG(hwpoison);
	if ((uintptr_t)page->mapping & PPK_PAGE_MAPPING_FLAGS)
		page->mapping = NULL;
	if (unlikely(page->memcg & PPK_MEMCG_DATA_KMEM))
		page->memcg = 0;	/* __memcg_kmem_uncharge_page() */
	if (check_free) {
		if (unlikely(pool->debug) &&
		    pp_page_state(page) != PP_PAGE_INUSE)
			pp_bad_page(pool, page, call,
				    "freeing a page that is not allocated");
		ppk_check_free_page(pool, page, call);
	}
	/* page_cpupid_reset_last(), then the flags a free page may not keep */
	page->page_flags |= PPK_LAST_CPUPID_MASK << PPK_LAST_CPUPID_SHIFT;
	page->page_flags &= ~PPK_PAGE_FLAGS_CHECK_AT_PREP;
	if (unlikely(pool->debug))
		pp_poison_pages(pool, page, order);
	pp_kasan_poison(pool, page, order);
	pp_set_page_state(page, PP_PAGE_NONE);
}

/*
 * free_unref_page_prepare(): free_pcp_prepare() (free_pages_prepare()
 * without the bad-page check unless debugging), then the pageblock's
 * migratetype into the page (set_pcppage_migratetype()).
 */
static inline void ppk_free_unref_page_prepare(struct pp_pool *pool,
					       struct pp_page *page,
					       unsigned long pfn,
					       const char *call)
{
	ppk_free_pages_prepare(pool, page, 0, pool->debug, call);
	ppk_set_pcppage_migratetype(page,
				    ppk_get_pfnblock_migratetype(pool, pfn));
}

/*
 * free_unref_page_commit(), interrupts "off", the list had (@pcp held, or
 * NULL: this CPU's rseq lists): PGFREE, the page onto this CPU's list of
 * its migratetype @mt (isolated pageblocks straight to the buddy lists;
 * HIGHATOMIC ones onto the movable list), and at high a batch back to the
 * buddy lists.  A list stopped by a drain meanwhile: the page goes to the
 * buddy lists.
 */
static void ppk_free_unref_page_commit_had(struct pp_pool *pool,
					   struct pp_zone *zone,
					   struct pp_pcp *pcp,
					   struct pp_page *page, int mt)
{
	long count;

	ppk_count_vm_events(pool, pcp, PP_PGFREE, 1);
	if (unlikely(mt >= PPK_MIGRATE_PCPTYPES)) {
		if (mt == PPK_MIGRATE_ISOLATE) {
			ppk_free_one_page(pool, zone, page, 0, mt);
			return;
		}
		mt = PPK_MIGRATE_MOVABLE;
	}
	count = ppk_pcp_add(pool, zone, pcp, mt, page, page, 1);
	if (unlikely(count < 0)) {
		/* Stopped by a drain after PGFREE was counted. */
		pp_count(pool, PP_PCP_TRYLOCK_FAIL, 1);
		ppk_free_one_page(pool, zone, page, 0, mt);
	} else if ((unsigned long)count >= zone->pcp[0].high) {
		ppk_free_pcppages_bulk(pool, zone, pcp, zone->pcp[0].batch);
	}
}

/*
 * The list could not be had (a failed trylock, an injected fault): the
 * page to the buddy lists, and @fails more pcp_trylock_fail (0 for the
 * pages after the first of a stretch that had no list).
 */
static void ppk_free_unref_page_busy(struct pp_pool *pool,
				     struct pp_zone *zone,
				     struct pp_page *page, int mt,
				     unsigned int fails)
{
	if (fails)
		pp_count(pool, PP_PCP_TRYLOCK_FAIL, fails);
	ppk_free_one_page(pool, zone, page, 0, mt);
	pp_count(pool, PP_PGFREE, 1);
}

/*
 * One page of free_unref_page_list()'s stretch: the list had as the
 * stretch has it (*@pcp, *@held_zone: the pcp held and its zone, lock
 * implementation; *@rseq_ok: may the rseq lists be used, -1 not yet
 * decided), taken when it is not.  Inlined in both its callers: the
 * single-page free's stretch of one folds to the checks it needs.
 */
static inline __attribute__((always_inline))
void ppk_free_unref_page_list_commit(struct pp_pool *pool,
				     struct pp_page *page, struct pp_pcp **pcp,
				     struct pp_zone **held_zone, int *rseq_ok)
{
	struct pp_zone *zone = ppk_page_zone(pool, page);
	int mt = ppk_get_pcppage_migratetype(page);

	if (pool->pcp_rseq) {
		unsigned int fails = 0;

		if (*rseq_ok < 0) {
			*rseq_ok = !pp_rseq_fault(pool);
			fails = 1;
		}
		if (unlikely(!*rseq_ok))
			return ppk_free_unref_page_busy(pool, zone, page, mt,
							fails);
		return ppk_free_unref_page_commit_had(pool, zone, NULL, page,
						      mt);
	}
	if (unlikely(*pcp && *held_zone != zone)) {
		pp_pcp_unlock(*pcp);
		*pcp = NULL;
	}
	if (!*pcp) {
		struct pp_pcp *p = pp_zone_this_pcp(pool, zone);

		if (unlikely(!pp_pcp_trylock(p)))
			return ppk_free_unref_page_busy(pool, zone, page, mt,
							1);
		*pcp = p;
		*held_zone = zone;
	}
	ppk_free_unref_page_commit_had(pool, zone, *pcp, page, mt);
}

/*
 * free_unref_page_commit() of one page: a stretch of one, the list had for
 * it alone (5.13: local_lock_irqsave() around it).
 */
static void ppk_free_unref_page_commit(struct pp_pool *pool,
				       struct pp_page *page)
{
	struct pp_pcp *pcp = NULL;
	struct pp_zone *held_zone = NULL;
	int rseq_ok = -1;

	ppk_free_unref_page_list_commit(pool, page, &pcp, &held_zone,
					&rseq_ok);
	if (pcp)
		pp_pcp_unlock(pcp);
}

/* free_unref_page(): prepare, then the commit with interrupts "off". */
static void ppk_free_unref_page(struct pp_pool *pool, struct pp_page *page,
				const char *call)
{
	unsigned long flags;

	ppk_free_unref_page_prepare(pool, page, pp_pfn(pool, page), call);
	flags = ppk_local_irq_save();
	ppk_free_unref_page_commit(pool, page);
	ppk_local_irq_restore(flags);
}

/*
 * __free_pages_ok(): a block of 2^@order pages, checked, straight to the
 * buddy lists with interrupts "off", PGFREE for each page.
 */
static void ppk_free_pages_ok(struct pp_pool *pool, struct pp_page *page,
			      unsigned int order, const char *call)
{
	unsigned long pfn = pp_pfn(pool, page), flags;
	int mt;

	ppk_free_pages_prepare(pool, page, order, true, call);
	mt = ppk_get_pfnblock_migratetype(pool, pfn);
	flags = ppk_local_irq_save();
	ppk_count_vm_events(pool, NULL, PP_PGFREE, 1UL << order);
	ppk_free_one_page(pool, ppk_page_zone(pool, page), page, order, mt);
	ppk_local_irq_restore(flags);
}

/* free_the_page(): order 0 to the pcp lists, larger blocks to the buddy. */
static inline void ppk_free_the_page(struct pp_pool *pool,
				     struct pp_page *page, unsigned int order,
				     const char *call)
{
	if (likely(order == 0))
		ppk_free_unref_page(pool, page, call);
	else
		ppk_free_pages_ok(pool, page, order, call);
}

/* __page_cache_release(): off any LRU list, the waiters bit cleared. */
static inline void ppk_page_cache_release(struct pp_page *page)
{
	if (unlikely(page->page_flags & PPK_PG(lru)))
		page->page_flags &= ~(PPK_PG(lru) | PPK_PG(active));
	page->page_flags &= ~PPK_PG(waiters);	/* __ClearPageWaiters() */
}

/* mem_cgroup_uncharge(): memcg is on, but no page is charged here. */
static inline void ppk_mem_cgroup_uncharge(struct pp_page *page)
{
	if (!page->memcg)
		return;
	page->memcg = 0;
}

/*
 * __put_page(): the last reference of a page went.  Not a ZONE_DEVICE
 * page, not compound; the lab's blocks of order > 0 (its pp_put_page()
 * contract frees the whole block) go to __free_pages_ok().
 */
static void ppk_put_page_final(struct pp_pool *pool, struct pp_page *page,
			       const char *call)
{
	if (unlikely(ppk_is_zone_device_page(page)))
		pp_bad_page(pool, page, call, "a ZONE_DEVICE page");
	if (unlikely(page->order)) {
		ppk_free_pages_ok(pool, page, page->order, call);
		return;
	}
	/* __put_single_page() */
	ppk_page_cache_release(page);
	ppk_mem_cgroup_uncharge(page);
	ppk_free_unref_page(pool, page, call);
}

void ppk_put_page(struct pp_pool *pool, struct pp_page *page)
{
	if (unlikely(!pp_page_in_pool(pool, page)))
		pp_bad_pointer(pool, page, "pp_put_page");
	page = ppk_compound_head(pool, page, "pp_put_page");
	/* page_is_devmap_managed(): a static key, off. */
	if (pp_page_ref_dec_and_test(pool, page, "pp_put_page"))
		ppk_put_page_final(pool, page, "pp_put_page");
}

void ppk_free_pages(struct pp_pool *pool, struct pp_page *page,
		    unsigned int order)
{
	if (pp_page_ref_dec_and_test(pool, page, "pp_free_pages"))
		ppk_free_the_page(pool, page, order, "pp_free_pages");
}

/*
 * free_unref_page_list(): prepare every page (its pfn kept in private
 * meanwhile), then commit them with interrupts "off", turned back on
 * every SWAP_CLUSTER_MAX pages.  The list is had once per such stretch,
 * as 5.13's local_lock_irqsave() is taken: the lock implementation holds
 * the pcp lock of the stretch's zone across it (taken again for a page of
 * another zone, and page by page after a failed trylock, as the lean
 * profile's release does); on rseq lists each page is a section of its
 * own, but whether the lists may be used (an injected fault) is decided
 * once per stretch, as the lean profile's is per batch.
 */
static void ppk_free_unref_page_list(struct pp_pool *pool,
				     struct pp_list_head *list)
{
	struct pp_list_head *pos;
	unsigned int batch_count = 0;
	unsigned long flags;
	bool traced = pp_trace_enabled(mm_page_free_batched);
	struct pp_pcp *pcp = NULL;	/* lock: the pcp held */
	struct pp_zone *held_zone = NULL;
	int rseq_ok = -1;		/* rseq: -1 undecided for the stretch */

	for (pos = list->next; pos != list; pos = pos->next) {
		struct pp_page *page = pp_lru_to_page(pos);
		unsigned long pfn = pp_pfn(pool, page);

		ppk_free_unref_page_prepare(pool, page, pfn,
					    "pp_release_pages");
		page->private = pfn;
	}
	flags = ppk_local_irq_save();
	while (!pp_list_empty(list)) {
		struct pp_page *page = pp_lru_to_page(list->next);

		if (unlikely(pool->debug_list))
			ppk_list_del_entry_valid(&page->lru);
		pp_list_del(&page->lru);
		page->private = 0;
		if (unlikely(traced))
			pp_do_trace(mm_page_free_batched, pp_pfn(pool, page));
		ppk_free_unref_page_list_commit(pool, page, &pcp, &held_zone,
						&rseq_ok);
		/* Guard against excessive IRQ-disabled times. */
		if (++batch_count == PP_SWAP_CLUSTER_MAX) {
			if (pcp)
				pp_pcp_unlock(pcp);
			pcp = NULL;
			rseq_ok = -1;
			ppk_local_irq_restore(flags);
			batch_count = 0;
			flags = ppk_local_irq_save();
		}
	}
	if (pcp)
		pp_pcp_unlock(pcp);
	ppk_local_irq_restore(flags);
}

/*
 * release_pages(): drop a reference on each page (NULL slots skipped, the
 * lab's contract); those whose last one went leave the LRU, lose the
 * waiters bit and gather on a list, which mem_cgroup_uncharge_list() and
 * free_unref_page_list() take.  Blocks of order > 0 are freed whole on
 * the way, as __put_compound_page() frees compound ones.
 */
void ppk_release_pages(struct pp_pool *pool, struct pp_page **pages,
		       unsigned long nr)
{
	struct pp_list_head pages_to_free = PP_LIST_HEAD_INIT(pages_to_free);
	struct pp_list_head *pos;

	for (unsigned long i = 0; i < nr; i++) {
		struct pp_page *page = pages[i];

		if (!pp_release_slot(pool, page))
			continue;
		page = ppk_compound_head(pool, page, "pp_release_pages");
		if (unlikely(ppk_is_zone_device_page(page)))
			pp_bad_page(pool, page, "pp_release_pages",
				    "a ZONE_DEVICE page");
		if (!pp_page_ref_dec_and_test(pool, page, "pp_release_pages"))
			continue;
		if (unlikely(page->order)) {
			ppk_free_pages_ok(pool, page, page->order,
					  "pp_release_pages");
			continue;
		}
		ppk_page_cache_release(page);
		if (unlikely(pool->debug_list))
			ppk_list_add_valid(&page->lru, &pages_to_free,
					   pages_to_free.next);
		pp_list_add(&page->lru, &pages_to_free);
	}
	/* mem_cgroup_uncharge_list() */
	for (pos = pages_to_free.next; pos != &pages_to_free; pos = pos->next)
		ppk_mem_cgroup_uncharge(pp_lru_to_page(pos));
	ppk_free_unref_page_list(pool, &pages_to_free);
}
