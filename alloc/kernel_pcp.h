/* SPDX-License-Identifier: MIT */
/*
 * The kernel profile's pcp lists, counters and page checks, as
 * kernel_alloc.c and kernel_free.c use them (bodies in kernel_pcp.c).
 *
 * Every list operation and counter comes in the two pcp implementations
 * behind one call: @locked is the pcp whose lock the caller holds (the
 * lock implementation), or NULL for the rseq lists, whose operations each
 * work on the list of the CPU the thread runs on at that moment.
 */
#ifndef PP_ALLOC_KERNEL_PCP_H
#define PP_ALLOC_KERNEL_PCP_H

#include "internal.h"

/* list_del()'s poison (LIST_POISON1/2 with x86_64's POISON_POINTER_DELTA). */
#define PPK_LIST_POISON1	((struct pp_list_head *)0xdead000000000100UL)
#define PPK_LIST_POISON2	((struct pp_list_head *)0xdead000000000122UL)

/* The list head's address, stored where the kernel's list ops store it. */
static inline struct pp_list_head *ppk_list_head(struct ppk_list *l)
{
	return (struct pp_list_head *)l;
}

/*
 * CONFIG_DEBUG_LIST's checks on a pcp list (list_debug.c), run where
 * pool->debug_list: @page leaving its list, @prev and @next its
 * neighbours where the list keeps those links exact (NULL: a list head,
 * or a link an rseq section leaves stale); @page going in before @next
 * (a page: the callers check nothing where the neighbour is not known).
 */
void ppk_pcp_list_del_check(const struct pp_page *page,
			    const struct pp_page *prev,
			    const struct pp_page *next);
void ppk_pcp_list_add_check(const struct pp_page *page,
			    const struct pp_page *next);

/* The kernel profile's part of @zone (struct zone's own fields). */
static inline struct ppk_zone *ppk_zone(const struct pp_pool *pool,
					const struct pp_zone *zone)
{
	return &pool->k->zones[zone->node];
}

/* page_zone(), page_zonenum(): from the node and zone ids in the flags. */
static inline struct pp_zone *ppk_page_zone(struct pp_pool *pool,
					    const struct pp_page *page)
{
	return &pool->zones[(page->page_flags >> PPK_NODES_PGSHIFT) &
			    PPK_NODES_MASK];
}

static inline int ppk_page_zonenum(const struct pp_page *page)
{
	return (int)((page->page_flags >> PPK_ZONES_PGSHIFT) & PPK_ZONES_MASK);
}

static inline unsigned int ppk_zone_to_nid(const struct pp_zone *zone)
{
	return zone->node;
}

/* The migratetype a free page carries in its index (set_pcppage_...). */
static inline void ppk_set_pcppage_migratetype(struct pp_page *page, int mt)
{
	page->index = (unsigned long)mt;
}

static inline int ppk_get_pcppage_migratetype(const struct pp_page *page)
{
	return (int)page->index;
}

/*
 * page_expected_state(): nothing says the page is in use or mapped: no
 * mapcount, mapping, reference or memcg charge, none of @check_flags.
 */
static inline bool ppk_page_expected_state(const struct pp_page *page,
					   uint64_t check_flags)
{
	if (unlikely(page->mapcount))
		return false;
	if (unlikely((uintptr_t)page->mapping |
		     (unsigned int)__atomic_load_n(&page->refcount,
						   __ATOMIC_RELAXED) |
		     page->memcg | (page->page_flags & check_flags)))
		return false;
	return true;
}

/* bad_page(): what is wrong with @page, reported; aborts, as the lab's. */
__attribute__((noreturn, cold))
void ppk_bad_page_state(const struct pp_pool *pool, const struct pp_page *page,
			const char *call, uint64_t check_flags);

/*
 * check_new_page(): a page leaving the buddy lists for a pcp list
 * (check_pcp_refill(), with CONFIG_DEBUG_VM off) or for a caller of the
 * order > 0 path (check_new_pages()).
 */
static inline void ppk_check_new_page(const struct pp_pool *pool,
				      const struct pp_page *page,
				      const char *call)
{
	const uint64_t check = PPK_PAGE_FLAGS_CHECK_AT_PREP | PPK_PG(hwpoison);

	if (unlikely(!ppk_page_expected_state(page, check)))
		ppk_bad_page_state(pool, page, call, check);
}

/*
 * check_free_page(): a page going back to the buddy lists
 * (bulkfree_pcp_prepare() with CONFIG_DEBUG_VM off), or freed with debug
 * checks on (free_pcp_prepare() with CONFIG_DEBUG_VM).
 */
static inline void ppk_check_free_page(const struct pp_pool *pool,
				       const struct pp_page *page,
				       const char *call)
{
	if (unlikely(!ppk_page_expected_state(page,
					      PPK_PAGE_FLAGS_CHECK_AT_FREE)))
		ppk_bad_page_state(pool, page, call,
				   PPK_PAGE_FLAGS_CHECK_AT_FREE);
}

/*
 * Up to @n pages off the head of list @mt of this CPU's pcp of @zone into
 * @dst, first first (__rmqueue_pcplist()'s pops).  Returns k, 0 when the
 * list is empty, with *@cpu_out the list's CPU, or -1 when the list
 * cannot be had (rseq: stopped by a drain, or no list for this CPU).
 * @clear: @dst is a run of the caller's array, NULL on entry, put back to
 * NULL before an aborted section runs again.
 */
long ppk_pcp_take(struct pp_pool *pool, struct pp_zone *zone,
		  struct pp_pcp *locked, int mt, struct pp_page **dst,
		  unsigned long n, bool clear, unsigned int *cpu_out);

/*
 * list_add() of the chain @first .. @last (@k of the caller's pages,
 * linked first to last through lru) at the head of list @mt of this CPU's
 * pcp of @zone, each marked a free pcp page of that CPU.  Returns the
 * pages on that pcp's lists after it (pcp->count), or -1 when the list
 * cannot be had: the pages are still the caller's.
 */
long ppk_pcp_add(struct pp_pool *pool, struct pp_zone *zone,
		 struct pp_pcp *locked, int mt, struct pp_page *first,
		 struct pp_page *last, unsigned long k);

/*
 * __count_vm_events(): this CPU's counter @ev: a plain add under the pcp
 * lock, an rseq section, or (the lock implementation without its lock)
 * an atomic add.
 */
static inline void ppk_count_vm_events(struct pp_pool *pool,
				       struct pp_pcp *locked,
				       enum pp_vm_event ev, uint64_t n)
{
	if (locked)
		pp_count_locked(locked, ev, n);
	else if (pool->pcp_rseq)
		pp_rseq_count(pool, ev, n);
	else
		pp_count(pool, ev, n);
}

void ppk_mod_zone_page_state(struct pp_pool *pool, struct pp_zone *zone,
			     enum ppk_zone_stat item, long delta);
void ppk_zone_statistics(struct pp_pool *pool, struct pp_zone *preferred,
			 struct pp_zone *z, unsigned int n);
unsigned int ppk_rmqueue_bulk(struct pp_pool *pool, struct pp_zone *zone,
			      struct pp_pcp *locked, int mt,
			      unsigned int count, const char *call);
void ppk_free_pcppages_bulk(struct pp_pool *pool, struct pp_zone *zone,
			    struct pp_pcp *pcp, unsigned int count);
void ppk_free_one_page(struct pp_pool *pool, struct pp_zone *zone,
		       struct pp_page *page, unsigned int order, int mt);

#endif /* PP_ALLOC_KERNEL_PCP_H */
