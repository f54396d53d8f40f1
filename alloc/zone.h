/* SPDX-License-Identifier: MIT */
/*
 * The zone: pfns, a descriptor's state word, KASAN's poison in the ASan
 * build, the buddy lists' helpers and zone.c's functions.
 */
#ifndef PP_ALLOC_ZONE_H
#define PP_ALLOC_ZONE_H

#include "debug.h"

static inline unsigned long pp_pfn(const struct pp_pool *pool,
				   const struct pp_page *page)
{
	return (unsigned long)(page - pool->mem_map);
}

/*
 * A descriptor's state is written under whichever lock owns the page at the
 * time (zone, pcp, or none for an allocated page), and read by buddy merging
 * under the zone lock for any neighbour: relaxed atomics keep that defined.
 */
static inline unsigned int pp_page_state(const struct pp_page *page)
{
	return __atomic_load_n(&page->state, __ATOMIC_RELAXED);
}

static inline void pp_set_page_state(struct pp_page *page, unsigned int state)
{
	__atomic_store_n(&page->state, (uint8_t)state, __ATOMIC_RELAXED);
}

/*
 * A descriptor's refcount, order, state and flags make one aligned 8-byte
 * word (the layout in pagepool.h, checked here).  Where a fast path knows
 * all four, it reads or writes them with one access instead of three or
 * four: prep_new_page()'s stores, and release_pages()'s test that a page
 * is an order-0 page in use with one reference.  Only where debug checks
 * are off: then no page carries PP_PG_POISONED, so @flags is 0.
 */
typedef uint64_t __attribute__((may_alias, aligned(8))) pp_page_word_t;

_Static_assert(offsetof(struct pp_page, refcount) % 8 == 0 &&
	       offsetof(struct pp_page, order) ==
	       offsetof(struct pp_page, refcount) + 4 &&
	       offsetof(struct pp_page, state) ==
	       offsetof(struct pp_page, refcount) + 5 &&
	       offsetof(struct pp_page, flags) ==
	       offsetof(struct pp_page, refcount) + 6 &&
	       sizeof(((struct pp_page *)0)->refcount) == 4,
	       "refcount, order, state, flags: one 8-byte word");

/* The word's value for these fields, as memory holds it. */
static inline uint64_t pp_page_word(uint32_t refcount, unsigned int order,
				    unsigned int state, unsigned int flags)
{
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	return (uint64_t)refcount | (uint64_t)(uint8_t)order << 32 |
	       (uint64_t)(uint8_t)state << 40 |
	       (uint64_t)(uint16_t)flags << 48;
#else
	return (uint64_t)refcount << 32 | (uint64_t)(uint8_t)order << 24 |
	       (uint64_t)(uint8_t)state << 16 | (uint16_t)flags;
#endif
}

static inline uint64_t pp_page_word_load(const struct pp_page *page)
{
	return __atomic_load_n((const pp_page_word_t *)&page->refcount,
			       __ATOMIC_ACQUIRE);
}

static inline void pp_page_word_store(struct pp_page *page, uint64_t word)
{
	__atomic_store_n((pp_page_word_t *)&page->refcount, word,
			 __ATOMIC_RELAXED);
}

/*
 * The KASAN analogue, in the ASan build only (./configure --enable-asan,
 * PP_CONFIG_ASAN): KASAN poisons a page when it is freed and unpoisons it
 * when it is handed out, so an access to a free page is reported where
 * it happens.  Here ASan's manual poisoning does the same for the buddy
 * backend's arena: every page on a pcp or buddy list is poisoned, every
 * page handed out is not.  The invariant is kept at each hand-out site
 * (unpoison once the page is the caller's, before anything touches it:
 * GFP_ZERO, the debug poison check) and each free site (poison once the
 * last reference is gone, before the page is published on a list, where
 * another thread could take it and unpoison it first).  The free pages a
 * backend plugin holds are poisoned too (pp_zone_take_pages(), the free
 * path); those the jemalloc backend holds are left unpoisoned: jemalloc's
 * own memory, where it keeps its metadata.
 * Outside the ASan build these are empty and compile to nothing.
 */
#ifdef PP_CONFIG_ASAN
#include <sanitizer/asan_interface.h>

static inline void pp_kasan_poison_range(const struct pp_pool *pool,
					 unsigned long pfn, unsigned long nr)
{
	ASAN_POISON_MEMORY_REGION(pool->arena + (pfn << PP_PAGE_SHIFT),
				  nr << PP_PAGE_SHIFT);
}

static inline void pp_kasan_unpoison_range(const struct pp_pool *pool,
					   unsigned long pfn, unsigned long nr)
{
	ASAN_UNPOISON_MEMORY_REGION(pool->arena + (pfn << PP_PAGE_SHIFT),
				    nr << PP_PAGE_SHIFT);
}

/*
 * A live pool, whose pages ASan's report names (kasan.c): from create to
 * destroy.
 */
void pp_kasan_pool_add(struct pp_pool *pool);
void pp_kasan_pool_del(struct pp_pool *pool);
#else
static inline void pp_kasan_pool_add(struct pp_pool *pool)
{
}

static inline void pp_kasan_pool_del(struct pp_pool *pool)
{
}

static inline void pp_kasan_poison_range(const struct pp_pool *pool,
					 unsigned long pfn, unsigned long nr)
{
}

static inline void pp_kasan_unpoison_range(const struct pp_pool *pool,
					   unsigned long pfn, unsigned long nr)
{
}
#endif

/* A block of 2^@order pages goes free (on a list) / is handed out. */
static inline void pp_kasan_poison(const struct pp_pool *pool,
				   const struct pp_page *page,
				   unsigned int order)
{
	pp_kasan_poison_range(pool, pp_pfn(pool, page), 1UL << order);
}

static inline void pp_kasan_unpoison(const struct pp_pool *pool,
				     const struct pp_page *page,
				     unsigned int order)
{
	pp_kasan_unpoison_range(pool, pp_pfn(pool, page), 1UL << order);
}

static inline unsigned long pp_zone_free(const struct pp_zone *zone)
{
	return atomic_load_explicit(&zone->nr_free, memory_order_relaxed);
}

/*
 * nr_free after @nr pages left @zone's buddy lists, zone lock held: a
 * plain load and store, the lock orders them (readers take snapshots).
 */
static inline void pp_zone_sub_free(struct pp_zone *zone, unsigned long nr)
{
	atomic_store_explicit(&zone->nr_free, pp_zone_free(zone) - nr,
			      memory_order_relaxed);
}

/* nr_free after @nr pages joined @zone's buddy lists, zone lock held. */
static inline void pp_zone_add_free(struct pp_zone *zone, unsigned long nr)
{
	atomic_store_explicit(&zone->nr_free, pp_zone_free(zone) + nr,
			      memory_order_relaxed);
}

/*
 * The end of zone_watermark_ok() for order > 0: a free block of @order or
 * larger exists (nr_free read racily, as the kernel does).
 */
static inline bool pp_zone_has_block(const struct pp_zone *zone,
				     unsigned int order)
{
	for (unsigned int o = order; o < PP_NR_ORDERS; o++)
		if (__atomic_load_n(&zone->free_area[o].nr_free,
				    __ATOMIC_RELAXED))
			return true;
	return false;
}

/* The zone whose pages @pcp holds. */
static inline struct pp_zone *pp_pcp_zone(struct pp_pool *pool,
					  const struct pp_pcp *pcp)
{
	return &pool->zones[pcp->node];
}

/* The node holding @pfn: the range it falls in, the last takes the rest. */
static inline unsigned int pp_pfn_nid(const struct pp_pool *pool,
				      unsigned long pfn)
{
	unsigned long nid;

	if (likely(pool->nr_nodes == 1))
		return 0;
	nid = pfn / pool->node_span;
	return nid < pool->nr_nodes ? (unsigned int)nid : pool->nr_nodes - 1;
}

static inline struct pp_zone *pp_pfn_zone(struct pp_pool *pool,
					  unsigned long pfn)
{
	return &pool->zones[pp_pfn_nid(pool, pfn)];
}

static inline struct pp_zone *pp_page_zone(struct pp_pool *pool,
					   const struct pp_page *page)
{
	return pp_pfn_zone(pool, pp_pfn(pool, page));
}

void pp_zone_init_free_lists(struct pp_pool *pool, struct pp_zone *zone);
struct pp_page *pp_rmqueue_smallest(struct pp_pool *pool, struct pp_zone *zone,
				    unsigned int order, const char *call);

/*
 * The take of every rmqueue_bulk() (the lock pcp's, the rseq list's, the
 * kernel profile's): __rmqueue() of an order-0 page for a pcp list of
 * migratetype @mt, traced as a refill's; NULL when the buddy lists are
 * empty.  Zone lock held; the caller lowers nr_free once for the batch.
 */
static inline struct pp_page *pp_rmqueue_bulk_one(struct pp_pool *pool,
						  struct pp_zone *zone, int mt)
{
	struct pp_page *page = pp_rmqueue_smallest(pool, zone, 0,
						   "rmqueue_bulk");

	if (likely(page))
		pp_trace(mm_page_alloc_zone_locked, pp_pfn(pool, page), 0, mt,
			 1);
	return page;
}
struct pp_page *pp_zone_take_block(struct pp_pool *pool, struct pp_zone *zone,
				   unsigned int order, const char *call);

/*
 * PAGEPOOL_FAULT buddy-empty=N: would taking @nr pages leave fewer than N
 * in the buddy lists?  Then the buddy allocator reports itself empty.
 * Compared as nr_free - nr against N, never N + nr, which wraps for an N
 * near ULONG_MAX (it is the user's number) and made such a reserve give
 * pages.  Zone lock held.
 */
static inline bool pp_fault_buddy_short(const struct pp_zone *zone,
					unsigned long nr)
{
	unsigned long nr_free;

	if (likely(!zone->fault_buddy_reserve))
		return false;
	nr_free = pp_zone_free(zone);
	return nr_free < nr || nr_free - nr < zone->fault_buddy_reserve;
}

/*
 * PAGEPOOL_FAULT buddy-empty=N: at most how many of @want pages a refill
 * may take and leave N in the buddy lists.  Zone lock held.
 */
static inline unsigned int pp_fault_buddy_clamp(const struct pp_zone *zone,
						unsigned int want)
{
	unsigned long avail;

	if (likely(!zone->fault_buddy_reserve))
		return want;
	avail = pp_zone_free(zone);
	avail = avail > zone->fault_buddy_reserve ?
		avail - zone->fault_buddy_reserve : 0;
	return want > avail ? (unsigned int)avail : want;
}
void pp_free_one_page_locked(struct pp_pool *pool, struct pp_zone *zone,
			     struct pp_page *page, unsigned int order);
unsigned int pp_rmqueue_bulk(struct pp_pool *pool, struct pp_pcp *pcp,
			     unsigned int count);
void pp_free_pcppage_locked(struct pp_pool *pool, struct pp_zone *zone,
			    struct pp_page *page, unsigned int cpu);
void pp_free_pcppages_bulk(struct pp_pool *pool, struct pp_pcp *pcp,
			   unsigned int count);
void pp_drain_all_pages(struct pp_pool *pool);
unsigned long pp_zone_pcp_pages(const struct pp_pool *pool,
				const struct pp_zone *zone);
unsigned long pp_pcp_pages(const struct pp_pool *pool);
unsigned long pp_pool_free(const struct pp_pool *pool);

void pp_zone_free_range(struct pp_pool *pool, unsigned long pfn,
			unsigned long nr);
long pp_zone_alloc_range(struct pp_pool *pool, unsigned long nr,
			 unsigned long align);

#endif /* PP_ALLOC_ZONE_H */
