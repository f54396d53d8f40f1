/* SPDX-License-Identifier: MIT */
/*
 * The free side: references (get/put), the per-CPU free path with its
 * high-watermark drain, batched release, and descriptor conversions.
 */
#include "internal.h"

/* Is @page one of @pool's descriptors (in range and aligned)? */
static inline bool pp_page_in_pool(const struct pp_pool *pool,
				   const struct pp_page *page)
{
	uintptr_t p = (uintptr_t)page, base = (uintptr_t)pool->mem_map;

	return p >= base && p < base + pool->map_bytes &&
	       (p - base) % sizeof(struct pp_page) == 0;
}

/*
 * free_pages_prepare(): the block's last reference is gone.  In debug mode,
 * check it was allocated and poison it.
 */
void pp_free_pages_prepare(struct pp_pool *pool, struct pp_page *page,
			   unsigned int order, const char *call)
{
	if (unlikely(pool->debug)) {
		if (pp_page_state(page) != PP_PAGE_INUSE)
			pp_bad_page(pool, page, call,
				    "freeing a page that is not allocated");
		pp_poison_pages(pool, page, order);
	}
	pp_set_page_state(page, PP_PAGE_NONE);
	pp_trace(mm_page_free, pp_pfn(pool, page), order);
}

/* free_one_page(): straight to the buddy lists under the zone lock. */
static void pp_free_one_page(struct pp_pool *pool, struct pp_page *page,
			     unsigned int order)
{
	pp_zone_lock(pool);
	pp_free_one_page_locked(pool, page, order);
	pp_zone_unlock(pool);
	pp_count(pool, PP_ZONE_LOCK, 1);
	pp_count(pool, PP_PGFREE, 1UL << order);
}

/*
 * free_unref_page_commit(): onto the hot end of @pcp; at high, return a
 * batch to the buddy lists.  @pcp->lock held.
 */
static inline void pp_free_unref_page_commit(struct pp_pool *pool,
					     struct pp_pcp *pcp,
					     struct pp_page *page)
{
	unsigned int count;

	pp_set_page_state(page, PP_PAGE_PCP);
	page->pcp_cpu = pcp->cpu;
	pp_list_add(&page->lru, &pcp->list);
	count = atomic_load_explicit(&pcp->count, memory_order_relaxed) + 1;
	atomic_store_explicit(&pcp->count, count, memory_order_relaxed);
	pp_count_locked(pcp, PP_PGFREE, 1);
	if (unlikely(count >= pcp->high))
		pp_free_pcppages_bulk(pool, pcp, pcp->batch);
}

/* __free_pages() once the refcount is zero. */
static void pp_free_pages(struct pp_pool *pool, struct pp_page *page,
			  const char *call)
{
	unsigned int order = page->order;
	struct pp_pcp *pcp;

	pp_free_pages_prepare(pool, page, order, call);
	if (likely(order == 0)) {
		pcp = pp_this_pcp(pool);
		if (likely(pp_pcp_trylock(pcp))) {
			pp_free_unref_page_commit(pool, pcp, page);
			pp_pcp_unlock(pcp);
			return;
		}
		pp_count(pool, PP_PCP_TRYLOCK_FAIL, 1);
	}
	pp_free_one_page(pool, page, order);
}

/*
 * Drop one reference.  Returns true when it was the last one.  An underflow
 * is always caught: the old value is at hand, so the check is free.
 */
static inline bool pp_put_page_testzero(struct pp_pool *pool,
					struct pp_page *page, const char *call)
{
	int old;

	if (unlikely(pool->debug) && !pp_page_in_pool(pool, page))
		pp_bad_pointer(pool, page, call);
	old = __atomic_fetch_sub(&page->refcount, 1, __ATOMIC_ACQ_REL);
	if (unlikely(old <= 0)) {
		__atomic_fetch_add(&page->refcount, 1, __ATOMIC_RELAXED);
		pp_bad_page(pool, page, call,
			    "refcount underflow: put of a free page "
			    "(double free?)");
	}
	return old == 1;
}

void pp_get_page(struct pp_pool *pool, struct pp_page *page)
{
	int old;

	if (unlikely(pool->debug) && !pp_page_in_pool(pool, page))
		pp_bad_pointer(pool, page, "pp_get_page");
	old = __atomic_fetch_add(&page->refcount, 1, __ATOMIC_RELAXED);
	if (unlikely(old <= 0)) {
		__atomic_fetch_sub(&page->refcount, 1, __ATOMIC_RELAXED);
		pp_bad_page(pool, page, "pp_get_page",
			    "get of a free page (use after free?)");
	}
}

void pp_put_page(struct pp_pool *pool, struct pp_page *page)
{
	if (pp_put_page_testzero(pool, page, "pp_put_page"))
		pp_free_pages(pool, page, "pp_put_page");
}

/*
 * release_pages() + free_unref_page_list(): drop a reference on each page,
 * gather the ones that reach zero on a private list, then free them to this
 * CPU's pcp list retaking its lock every PP_SWAP_CLUSTER_MAX pages.
 */
void pp_release_pages(struct pp_pool *pool, struct pp_page **pages,
		      unsigned long nr)
{
	struct pp_list_head list = PP_LIST_HEAD_INIT(list);
	struct pp_pcp *pcp = NULL;
	struct pp_page *page;
	unsigned int batch_count = 0;

	for (unsigned long i = 0; i < nr; i++) {
		page = pages[i];
		if (!page)
			continue;
		if (!pp_put_page_testzero(pool, page, "pp_release_pages"))
			continue;
		if (page->order) {
			pp_free_pages(pool, page, "pp_release_pages");
			continue;
		}
		pp_free_pages_prepare(pool, page, 0, "pp_release_pages");
		pp_trace(mm_page_free_batched, pp_pfn(pool, page));
		pp_list_add_tail(&page->lru, &list);
	}

	while ((page = pp_list_pop_page(&list))) {
		if (!pcp) {
			pcp = pp_this_pcp(pool);
			if (unlikely(!pp_pcp_trylock(pcp))) {
				pcp = NULL;
				pp_count(pool, PP_PCP_TRYLOCK_FAIL, 1);
				pp_free_one_page(pool, page, 0);
				continue;
			}
		}
		pp_free_unref_page_commit(pool, pcp, page);
		/* Bound the lock hold time, as SWAP_CLUSTER_MAX does. */
		if (++batch_count == PP_SWAP_CLUSTER_MAX) {
			pp_pcp_unlock(pcp);
			pcp = NULL;
			batch_count = 0;
		}
	}
	if (pcp)
		pp_pcp_unlock(pcp);
}

unsigned long pp_page_to_pfn(const struct pp_pool *pool,
			     const struct pp_page *page)
{
	if (unlikely(pool->debug) && !pp_page_in_pool(pool, page))
		pp_bad_pointer(pool, page, "pp_page_to_pfn");
	return pp_pfn(pool, page);
}

struct pp_page *pp_pfn_to_page(const struct pp_pool *pool, unsigned long pfn)
{
	if (pfn >= pool->nr_pages)
		return NULL;
	return &pool->mem_map[pfn];
}

void *pp_page_address(const struct pp_pool *pool, const struct pp_page *page)
{
	if (unlikely(pool->debug) && !pp_page_in_pool(pool, page))
		pp_bad_pointer(pool, page, "pp_page_address");
	return pool->arena + (pp_pfn(pool, page) << PP_PAGE_SHIFT);
}

struct pp_page *pp_virt_to_page(const struct pp_pool *pool, const void *addr)
{
	uintptr_t a = (uintptr_t)addr, base = (uintptr_t)pool->arena;

	if (a < base || a >= base + pool->arena_bytes)
		return NULL;
	return &pool->mem_map[(a - base) >> PP_PAGE_SHIFT];
}

int pp_page_count(const struct pp_page *page)
{
	return __atomic_load_n(&page->refcount, __ATOMIC_RELAXED);
}
