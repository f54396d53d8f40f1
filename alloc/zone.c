/* SPDX-License-Identifier: MIT */
/*
 * The zone: the buddy allocator over the arena (free lists, split and
 * merge, contiguous ranges for a backend), and the per-CPU lists' refill
 * from it and drain back to it.  Setting a pool up and tearing it down is
 * pool.c's.
 */
#include "internal.h"

#include <errno.h>

/* One cache line per descriptor: metadata is 64 / 4096 = 1.6 % of the arena. */
_Static_assert(sizeof(struct pp_page) == PP_CACHELINE,
	       "struct pp_page must be one cache line");

static void pp_add_to_free_list(struct pp_zone *zone, struct pp_page *page,
				unsigned int order, bool tail)
{
	struct pp_list_head *list = &zone->free_area[order].free_list;

	pp_set_page_state(page, PP_PAGE_BUDDY);
	page->order = (uint8_t)order;
	if (unlikely(zone->debug_list))
		ppk_list_add_valid(&page->lru, tail ? list->prev : list,
				   tail ? list : list->next);
	if (tail)
		pp_list_add_tail(&page->lru, list);
	else
		pp_list_add(&page->lru, list);
	/* Read without the lock by the order > 0 watermark check. */
	__atomic_store_n(&zone->free_area[order].nr_free,
			 zone->free_area[order].nr_free + 1, __ATOMIC_RELAXED);
}

static void pp_del_from_free_list(struct pp_zone *zone, struct pp_page *page,
				  unsigned int order)
{
	if (unlikely(zone->debug_list))
		ppk_list_del_entry_valid(&page->lru);
	pp_list_del(&page->lru);
	pp_set_page_state(page, PP_PAGE_NONE);
	__atomic_store_n(&zone->free_area[order].nr_free,
			 zone->free_area[order].nr_free - 1, __ATOMIC_RELAXED);
}

/*
 * memmap_init + free_all_bootmem: descriptors start zeroed (fresh anonymous
 * memory, touched here only for block heads), and the zone's pages go to
 * its buddy lists as the largest aligned blocks.  Pool creation, before
 * the pool is shared: no lock taken.
 */
void pp_zone_init_free_lists(struct pp_pool *pool, struct pp_zone *zone)
{
	unsigned long end = zone->start_pfn + zone->nr_pages;

	for (unsigned int o = 0; o < PP_NR_ORDERS; o++)
		pp_list_init(&zone->free_area[o].free_list);
	for (unsigned long pfn = zone->start_pfn; pfn < end;) {
		unsigned int order = PP_MAX_ORDER;

		while ((pfn & ((1UL << order) - 1)) ||
		       pfn + (1UL << order) > end)
			order--;
		/* At the tail, so the lowest pfns are handed out first. */
		pp_add_to_free_list(zone, &pool->mem_map[pfn], order, true);
		pfn += 1UL << order;
	}
	atomic_store(&zone->nr_free, zone->nr_pages);
	/* KASAN: every page starts free, so poisoned (ASan build). */
	pp_kasan_poison_range(pool, zone->start_pfn, zone->nr_pages);
}

/*
 * __rmqueue_smallest() + expand(): take the first block of the smallest
 * order >= @order and give the unused halves back.  Zone lock held; the
 * caller adjusts nr_free.
 */
struct pp_page *pp_rmqueue_smallest(struct pp_pool *pool, struct pp_zone *zone,
				    unsigned int order, const char *call)
{
	for (unsigned int o = order; o < PP_NR_ORDERS; o++) {
		struct pp_free_area *area = &zone->free_area[o];
		struct pp_page *page;

		if (pp_list_empty(&area->free_list))
			continue;
		page = pp_lru_to_page(area->free_list.next);
		if (pool->debug &&
		    (pp_page_state(page) != PP_PAGE_BUDDY || page->order != o ||
		     page->lru.next->prev != &page->lru ||
		     __atomic_load_n(&page->refcount, __ATOMIC_RELAXED)))
			pp_bad_page(pool, page, call,
				    "free list corruption: block on the buddy "
				    "list is not a free block of this order");
		pp_del_from_free_list(zone, page, o);
		while (o > order) {
			o--;
			pp_add_to_free_list(zone, page + (1UL << o), o, false);
		}
		return page;
	}
	return NULL;
}

/*
 * __free_one_page(): give a block back, merging it with its buddy while the
 * buddy is a free block of the same order.  @zone's lock held, @page one of
 * its pages; a buddy outside the zone never merges (a node's zone may
 * begin and end inside an aligned block: 1000-page nodes do).
 */
void pp_free_one_page_locked(struct pp_pool *pool, struct pp_zone *zone,
			     struct pp_page *page, unsigned int order)
{
	unsigned long pfn = pp_pfn(pool, page);
	unsigned long end = zone->start_pfn + zone->nr_pages;
	unsigned int o = order;

	while (o < PP_MAX_ORDER) {
		unsigned long buddy_pfn = pfn ^ (1UL << o);
		struct pp_page *buddy;

		if (buddy_pfn >= end || buddy_pfn < zone->start_pfn)
			break;
		buddy = &pool->mem_map[buddy_pfn];
		if (pp_page_state(buddy) != PP_PAGE_BUDDY || buddy->order != o)
			break;
		pp_del_from_free_list(zone, buddy, o);
		pfn &= buddy_pfn;
		o++;
	}
	pp_add_to_free_list(zone, &pool->mem_map[pfn], o, false);
	pp_zone_add_free(zone, 1UL << order);
}

/*
 * rmqueue_buddy()'s take, zone lock held: a block of @order off @zone's
 * buddy lists, nr_free lowered; NULL when there is none (or a shortage
 * is injected).
 */
struct pp_page *pp_zone_take_block(struct pp_pool *pool, struct pp_zone *zone,
				   unsigned int order, const char *call)
{
	struct pp_page *page;

	if (pp_fault_buddy_short(zone, 1UL << order))
		return NULL;
	page = pp_rmqueue_smallest(pool, zone, order, call);
	if (page)
		pp_zone_sub_free(zone, 1UL << order);
	return page;
}

/*
 * rmqueue_bulk(): refill an empty @pcp with up to @count order-0 pages,
 * taking the zone lock once.  @pcp->lock held.  Returns the number of
 * pages added.
 */
unsigned int pp_rmqueue_bulk(struct pp_pool *pool, struct pp_pcp *pcp,
			     unsigned int count)
{
	struct pp_zone *zone = pp_pcp_zone(pool, pcp);
	unsigned int base = pp_pcp_top(pcp), i;

	if (pool->debug && pp_pcp_count(pcp))
		pp_die("rmqueue_bulk: pcp list %u not empty (%u pages)",
		       pcp->cpu, pp_pcp_count(pcp));
	pp_zone_lock(zone);
	count = pp_fault_buddy_clamp(zone, count);
	for (i = 0; i < count; i++) {
		struct pp_page *page = pp_rmqueue_bulk_one(pool, zone,
							   PP_MIGRATE_UNMOVABLE);

		if (unlikely(!page))
			break;
		pp_set_page_state(page, PP_PAGE_PCP);
		page->pcp_cpu = pcp->cpu;
		pcp->ring[(base + i) & pcp->mask] = page;
	}
	pp_zone_sub_free(zone, i);
	pp_zone_unlock(zone);

	/*
	 * Physical order, as list_add_tail() leaves it: the first page taken
	 * at the hot end, so the list hands out ascending pfns.
	 */
	for (unsigned int a = base, b = base + i - 1; i && a < b; a++, b--) {
		struct pp_page *t = pcp->ring[a & pcp->mask];

		pcp->ring[a & pcp->mask] = pcp->ring[b & pcp->mask];
		pcp->ring[b & pcp->mask] = t;
	}
	pp_pcp_set(pcp, base + i, i);
	pp_count_locked(pcp, PP_ZONE_LOCK, 1);
	pp_count_locked(pcp, PP_PCP_REFILL, 1);
	pp_count_locked(pcp, PP_PCP_REFILL_PAGES, i);
	return i;
}

/*
 * One page of free_pcppages_bulk(), just taken off CPU @cpu's pcp list
 * (either implementation): it must be a free pcp page of that CPU; trace
 * it and merge it into the buddy lists.  Zone lock held.
 */
void pp_free_pcppage_locked(struct pp_pool *pool, struct pp_zone *zone,
			    struct pp_page *page, unsigned int cpu)
{
	if (pool->debug &&
	    (pp_page_state(page) != PP_PAGE_PCP || page->pcp_cpu != cpu))
		pp_bad_page(pool, page, "free_pcppages_bulk",
			    "free list corruption: page on a pcp list is not "
			    "a free pcp page");
	pp_set_page_state(page, PP_PAGE_NONE);
	pp_trace(mm_page_pcpu_drain, pp_pfn(pool, page), 0,
		 PP_MIGRATE_UNMOVABLE);
	pp_free_one_page_locked(pool, zone, page, 0);
}

/*
 * free_pcppages_bulk(): move @count pages from the cold end of @pcp back to
 * the buddy lists under the zone lock.  @pcp->lock held.
 */
void pp_free_pcppages_bulk(struct pp_pool *pool, struct pp_pcp *pcp,
			   unsigned int count)
{
	struct pp_zone *zone = pp_pcp_zone(pool, pcp);
	unsigned int left = pp_pcp_count(pcp), top = pp_pcp_top(pcp), n = 0;

	pp_zone_lock(zone);
	while (n < count && left) {
		pp_free_pcppage_locked(pool, zone,
				       pcp->ring[(top - left) & pcp->mask],
				       pcp->cpu);
		left--;
		n++;
	}
	pp_zone_unlock(zone);

	pp_pcp_set(pcp, top, left);
	pp_count_owner(pool, pcp, PP_ZONE_LOCK, 1);
	pp_count_owner(pool, pcp, PP_PCP_DRAIN, 1);
	pp_count_owner(pool, pcp, PP_PCP_DRAIN_PAGES, n);
}

/*
 * Wait for a pcp lock.  Only drains do this: holders keep it for one refill
 * or drain at most, and yielding lets a preempted holder on an
 * oversubscribed machine run.
 */
void pp_pcp_lock_slow(struct pp_pcp *pcp)
{
	while (!pp_pcp_trylock_raw(pcp))
		sched_yield();
}

/*
 * drain_all_pages(): empty every pcp list into the buddy lists, each taken
 * from its CPU first (pp_pcp_stop(): its lock, or, with rseq, stopped and
 * that CPU's sections aborted).
 */
void pp_drain_all_pages(struct pp_pool *pool)
{
	for (unsigned int nid = 0; nid < pool->nr_nodes; nid++) {
		struct pp_zone *zone = &pool->zones[nid];

		for (unsigned int cpu = 0; cpu < pool->nr_cpus; cpu++) {
			struct pp_pcp *pcp = &zone->pcp[cpu];

			if (!pp_pcp_nr(pool, pcp))
				continue;
			pp_pcp_stop(pool, pcp);
			if (pool->kernel)
				ppk_drain_pcp(pool, zone, pcp);
			else if (pp_pcp_count(pcp))
				pp_free_pcppages_bulk(pool, pcp,
						      pp_pcp_count(pcp));
			pp_pcp_restart(pool, pcp);
		}
	}
}

void pp_pool_drain(struct pp_pool *pool)
{
	pp_count(pool, PP_DRAIN_ALL, 1);
	pp_backend_drain(pool);
	pp_drain_all_pages(pool);
}

/*
 * Give pfns [@pfn, @pfn + @nr) to the buddy lists as the largest aligned
 * blocks they hold; each merges with its free buddies.  The pages' states
 * must be "none".  Zone lock held.
 */
static void pp_free_range_locked(struct pp_pool *pool, struct pp_zone *zone,
				 unsigned long pfn, unsigned long nr)
{
	while (nr) {
		unsigned int o = PP_MAX_ORDER;

		while ((pfn & ((1UL << o) - 1)) || (1UL << o) > nr)
			o--;
		pp_free_one_page_locked(pool, zone, &pool->mem_map[pfn], o);
		pfn += 1UL << o;
		nr -= 1UL << o;
	}
}

/*
 * alloc_contig_range() for a run longer than the largest block: @nblocks
 * free order-PP_MAX_ORDER blocks side by side, found by a walk over the
 * zone.  Zone lock held.  Returns the first pfn, or -ENOMEM.
 */
static long pp_take_contig_locked(struct pp_pool *pool, struct pp_zone *zone,
				  unsigned long nblocks)
{
	unsigned long step = 1UL << PP_MAX_ORDER;
	unsigned long end = zone->start_pfn + zone->nr_pages;

	for (unsigned long pfn = zone->start_pfn; pfn + nblocks * step <= end;
	     pfn += step) {
		unsigned long i;

		for (i = 0; i < nblocks; i++) {
			const struct pp_page *p =
				&pool->mem_map[pfn + i * step];

			if (pp_page_state(p) != PP_PAGE_BUDDY ||
			    p->order != PP_MAX_ORDER)
				break;
		}
		if (i < nblocks) {
			pfn += i * step;	/* skip what cannot start one */
			continue;
		}
		for (i = 0; i < nblocks; i++)
			pp_del_from_free_list(zone,
					      &pool->mem_map[pfn + i * step],
					      PP_MAX_ORDER);
		return (long)pfn;
	}
	return -ENOMEM;
}

/*
 * Take @nr contiguous pages aligned to @align pages (a power of two up to
 * the largest block) from the buddy lists for a backend allocator, as
 * alloc_pages_exact() does: the smallest block that holds them, the tail
 * given back; runs longer than the largest block come from free largest
 * blocks side by side.  No watermark applies: the backend decides how much
 * it keeps.  The pages leave as PP_PAGE_BACKEND.  The backends run on
 * one-node pools only: the zone is the first.
 *
 * Return: the first pfn, or -ENOMEM (-EINVAL for a bad @align).
 */
long pp_zone_alloc_range(struct pp_pool *pool, unsigned long nr,
			 unsigned long align)
{
	struct pp_zone *zone = &pool->zones[0];
	unsigned int order = 0;
	unsigned long span;
	long pfn;

	if (!nr || !align || (align & (align - 1)) ||
	    align > (1UL << PP_MAX_ORDER))
		return -EINVAL;
	while ((1UL << order) < nr || (1UL << order) < align) {
		if (order == PP_MAX_ORDER)
			break;
		order++;
	}
	pp_zone_lock(zone);
	if (pp_fault_buddy_short(zone, nr)) {
		pfn = -ENOMEM;
		span = 0;
	} else if ((1UL << order) >= nr) {
		struct pp_page *page = pp_rmqueue_smallest(pool, zone, order,
							   "extent_alloc");

		pfn = page ? (long)pp_pfn(pool, page) : -ENOMEM;
		span = 1UL << order;
	} else {
		span = (nr + (1UL << PP_MAX_ORDER) - 1) >> PP_MAX_ORDER;
		pfn = pp_take_contig_locked(pool, zone, span);
		span <<= PP_MAX_ORDER;
	}
	if (pfn >= 0) {
		pp_zone_sub_free(zone, span);
		pp_trace(mm_page_alloc_zone_locked, (unsigned long)pfn, order,
			 PP_MIGRATE_UNMOVABLE, 0);
		if (span > nr)
			pp_free_range_locked(pool, zone,
					     (unsigned long)pfn + nr,
					     span - nr);
	}
	pp_zone_unlock(zone);
	pp_count(pool, PP_ZONE_LOCK, 1);
	if (pfn < 0)
		return pfn;
	/* KASAN: the backend's memory now; before the poison check. */
	pp_kasan_unpoison_range(pool, (unsigned long)pfn, nr);
	for (unsigned long i = 0; i < nr; i++) {
		struct pp_page *page = &pool->mem_map[pfn + i];

		if (unlikely(pool->debug))
			pp_check_poison(pool, page, 0, "extent_alloc");
		page->order = 0;
		pp_set_page_state(page, PP_PAGE_BACKEND);
	}
	return pfn;
}

/*
 * Give back pfns [@pfn, @pfn + @nr) a backend took with
 * pp_zone_alloc_range(), in any split or merge of what it took.
 */
void pp_zone_free_range(struct pp_pool *pool, unsigned long pfn,
			unsigned long nr)
{
	struct pp_zone *zone = pp_pfn_zone(pool, pfn);

	for (unsigned long i = 0; i < nr; i++) {
		struct pp_page *page = &pool->mem_map[pfn + i];

		if (unlikely(pool->debug) &&
		    pp_page_state(page) != PP_PAGE_BACKEND)
			pp_bad_page(pool, page, "extent_dalloc",
				    "the backend gave back a page it did not "
				    "hold");
		pp_set_page_state(page, PP_PAGE_NONE);
	}
	/* KASAN: free again; before the buddy lists can hand it out. */
	pp_kasan_poison_range(pool, pfn, nr);
	pp_zone_lock(zone);
	pp_free_range_locked(pool, zone, pfn, nr);
	pp_zone_unlock(zone);
	pp_count(pool, PP_ZONE_LOCK, 1);
}

/* Pages on @zone's pcp lists (a racy snapshot). */
unsigned long pp_zone_pcp_pages(const struct pp_pool *pool,
				const struct pp_zone *zone)
{
	unsigned long n = 0;

	for (unsigned int cpu = 0; cpu < pool->nr_cpus; cpu++)
		n += pp_pcp_nr(pool, &zone->pcp[cpu]);
	return n;
}

/* Pages on all pcp lists of the pool (a racy snapshot). */
unsigned long pp_pcp_pages(const struct pp_pool *pool)
{
	unsigned long n = 0;

	for (unsigned int nid = 0; nid < pool->nr_nodes; nid++)
		n += pp_zone_pcp_pages(pool, &pool->zones[nid]);
	return n;
}

/* Pages in the buddy lists of all zones. */
unsigned long pp_pool_free(const struct pp_pool *pool)
{
	unsigned long n = 0;

	for (unsigned int nid = 0; nid < pool->nr_nodes; nid++)
		n += pp_zone_free(&pool->zones[nid]);
	return n;
}
