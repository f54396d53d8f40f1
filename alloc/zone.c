/* SPDX-License-Identifier: MIT */
/*
 * The zone: arena and descriptor mappings, buddy free lists, per-CPU list
 * refill and drain, pool creation and teardown.
 */
#include "internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* One cache line per descriptor: metadata is 64 / 4096 = 1.6 % of the arena. */
_Static_assert(sizeof(struct pp_page) == PP_CACHELINE,
	       "struct pp_page must be one cache line");

#define PP_DEFAULT_NR_PAGES	65536UL		/* 256 MiB */
#define PP_DEFAULT_PCP_BATCH	63U
#define PP_LEAK_PFNS_SHOWN	8

void pp_pool_config_init(struct pp_pool_config *cfg)
{
	const char *env = getenv("PAGEPOOL_DEBUG");

	memset(cfg, 0, sizeof(*cfg));
	cfg->nr_pages = PP_DEFAULT_NR_PAGES;
	cfg->pcp_batch = PP_DEFAULT_PCP_BATCH;
	cfg->pcp_high = 6 * PP_DEFAULT_PCP_BATCH;
	cfg->wmark_min = PP_WMARK_AUTO;
	cfg->wmark_low = PP_WMARK_AUTO;
	cfg->wmark_high = PP_WMARK_AUTO;
	cfg->debug = PP_CONFIG_DEBUG_DEFAULT;
	if (env && (env[0] == '0' || env[0] == '1') && env[1] == '\0')
		cfg->debug = env[0] == '1';
}

static unsigned long pp_int_sqrt(unsigned long x)
{
	unsigned long r = 0, bit = 1UL << (sizeof(x) * 8 - 2);

	while (bit > x)
		bit >>= 2;
	while (bit) {
		if (x >= r + bit) {
			x -= r + bit;
			r = (r >> 1) + bit;
		} else {
			r >>= 1;
		}
		bit >>= 2;
	}
	return r;
}

/*
 * Watermarks the way init_per_zone_wmark_min() and
 * __setup_per_zone_wmarks() derive them for a single zone:
 * min_free_kbytes = sqrt(16 * zone KiB) clamped to 128 KiB..256 MiB, then
 * low/high one and two deltas above min.  A pool of a few hundred pages
 * would lose a third of itself to min, so min is capped at 1/8 of the pool.
 */
int pp_pool_config_wmarks(const struct pp_pool_config *cfg,
			  unsigned long *min_out, unsigned long *low_out,
			  unsigned long *high_out)
{
	unsigned long n = cfg->nr_pages, min, low, high, delta;

	if (cfg->wmark_min == PP_WMARK_AUTO) {
		unsigned long kib = pp_int_sqrt(16 * n * (PP_PAGE_SIZE / 1024));

		if (kib < 128)
			kib = 128;
		if (kib > 262144)
			kib = 262144;
		min = kib / (PP_PAGE_SIZE / 1024);
		if (min > n / 8)
			min = n / 8;
	} else {
		min = cfg->wmark_min;
	}
	delta = min / 4;
	if (delta < n / 1000)
		delta = n / 1000;	/* watermark_scale_factor 10 */
	low = cfg->wmark_low == PP_WMARK_AUTO ? min + delta : cfg->wmark_low;
	high = cfg->wmark_high == PP_WMARK_AUTO ? min + 2 * delta :
						   cfg->wmark_high;
	*min_out = min;
	*low_out = low;
	*high_out = high;
	if (low < min || high < low || high > n)
		return -EINVAL;
	return 0;
}

static void *pp_map(size_t bytes)
{
	void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

static void pp_add_to_free_list(struct pp_pool *pool, struct pp_page *page,
				unsigned int order, bool tail)
{
	pp_set_page_state(page, PP_PAGE_BUDDY);
	page->order = (uint8_t)order;
	if (tail)
		pp_list_add_tail(&page->lru, &pool->free_area[order].free_list);
	else
		pp_list_add(&page->lru, &pool->free_area[order].free_list);
	pool->free_area[order].nr_free++;
}

static void pp_del_from_free_list(struct pp_pool *pool, struct pp_page *page,
				  unsigned int order)
{
	pp_list_del(&page->lru);
	pp_set_page_state(page, PP_PAGE_NONE);
	pool->free_area[order].nr_free--;
}

struct pp_pool *pp_pool_create(const struct pp_pool_config *cfg)
{
	struct pp_pool_config defaults;
	struct pp_pool *pool;
	unsigned long pfn;
	int err;

	if (!cfg) {
		pp_pool_config_init(&defaults);
		cfg = &defaults;
	}
	if (cfg->nr_pages == 0 || cfg->nr_pages > (SIZE_MAX >> PP_PAGE_SHIFT) ||
	    cfg->pcp_batch == 0 || cfg->pcp_high < cfg->pcp_batch) {
		errno = EINVAL;
		return NULL;
	}
	if (posix_memalign((void **)&pool, PP_CACHELINE, sizeof(*pool))) {
		errno = ENOMEM;
		return NULL;
	}
	memset(pool, 0, sizeof(*pool));
	pool->nr_pages = cfg->nr_pages;
	pool->debug = cfg->debug;
	if (pp_pool_config_wmarks(cfg, &pool->wmark[PP_WMARK_MIN],
				  &pool->wmark[PP_WMARK_LOW],
				  &pool->wmark[PP_WMARK_HIGH])) {
		free(pool);
		errno = EINVAL;
		return NULL;
	}
	pool->nr_cpus = cfg->nr_cpus;
	if (!pool->nr_cpus) {
		long n = sysconf(_SC_NPROCESSORS_CONF);

		pool->nr_cpus = n > 0 ? (unsigned int)n : 1;
	}

	pool->arena_bytes = pool->nr_pages << PP_PAGE_SHIFT;
	pool->map_bytes = pool->nr_pages * sizeof(struct pp_page);
	pool->arena = pp_map(pool->arena_bytes);
	pool->mem_map = pp_map(pool->map_bytes);
	if (posix_memalign((void **)&pool->pcp, PP_CACHELINE,
			   pool->nr_cpus * sizeof(*pool->pcp)))
		pool->pcp = NULL;
	if (!pool->arena || !pool->mem_map || !pool->pcp)
		goto nomem;

	err = pthread_mutex_init(&pool->lock, NULL);
	if (err)
		pp_die("pthread_mutex_init: error %d", err);

	memset(pool->pcp, 0, pool->nr_cpus * sizeof(*pool->pcp));
	for (unsigned int cpu = 0; cpu < pool->nr_cpus; cpu++) {
		struct pp_pcp *pcp = &pool->pcp[cpu];

		pcp->batch = cfg->pcp_batch;
		pcp->high = cfg->pcp_high;
		pcp->cpu = cpu;
		pp_list_init(&pcp->list);
	}

	/*
	 * memmap_init + free_all_bootmem: descriptors start zeroed (fresh
	 * anonymous memory, touched here only for block heads), and the
	 * arena goes to the buddy lists as the largest aligned blocks.
	 */
	for (unsigned int o = 0; o < PP_NR_ORDERS; o++)
		pp_list_init(&pool->free_area[o].free_list);
	for (pfn = 0; pfn < pool->nr_pages;) {
		unsigned int order = PP_MAX_ORDER;

		while ((pfn & ((1UL << order) - 1)) ||
		       pfn + (1UL << order) > pool->nr_pages)
			order--;
		/* At the tail, so the lowest pfns are handed out first. */
		pp_add_to_free_list(pool, &pool->mem_map[pfn], order, true);
		pfn += 1UL << order;
	}
	atomic_store(&pool->nr_free, pool->nr_pages);
	return pool;

nomem:
	if (pool->arena)
		munmap(pool->arena, pool->arena_bytes);
	if (pool->mem_map)
		munmap(pool->mem_map, pool->map_bytes);
	free(pool->pcp);
	free(pool);
	errno = ENOMEM;
	return NULL;
}

int pp_pool_destroy(struct pp_pool *pool)
{
	unsigned long nr_free, out, shown = 0;
	int err;

	if (!pool)
		return 0;
	pp_drain_all_pages(pool);
	nr_free = pp_zone_free(pool);
	if (nr_free != pool->nr_pages) {
		out = pool->nr_pages - nr_free;
		fprintf(stderr, "pagepool: destroy: %lu of %lu pages still in "
			"use (first pfns:", out, pool->nr_pages);
		for (unsigned long pfn = 0; pfn < pool->nr_pages &&
		     shown < PP_LEAK_PFNS_SHOWN; pfn++) {
			if (pp_page_state(&pool->mem_map[pfn]) == PP_PAGE_INUSE) {
				fprintf(stderr, " 0x%lx", pfn);
				shown++;
			}
		}
		fprintf(stderr, "%s)\n", out > shown ? " ..." : "");
		return -EBUSY;
	}
	err = pthread_mutex_destroy(&pool->lock);
	if (err)
		pp_die("pthread_mutex_destroy: error %d", err);
	munmap(pool->arena, pool->arena_bytes);
	munmap(pool->mem_map, pool->map_bytes);
	free(pool->pcp);
	free(pool);
	return 0;
}

/*
 * __rmqueue_smallest() + expand(): take the first block of the smallest
 * order >= @order and give the unused halves back.  Zone lock held; the
 * caller adjusts nr_free.
 */
struct pp_page *pp_rmqueue_smallest(struct pp_pool *pool, unsigned int order,
				    const char *call)
{
	for (unsigned int o = order; o < PP_NR_ORDERS; o++) {
		struct pp_free_area *area = &pool->free_area[o];
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
		pp_del_from_free_list(pool, page, o);
		while (o > order) {
			o--;
			pp_add_to_free_list(pool, page + (1UL << o), o, false);
		}
		return page;
	}
	return NULL;
}

/*
 * __free_one_page(): give a block back, merging it with its buddy while the
 * buddy is a free block of the same order.  Zone lock held.
 */
void pp_free_one_page_locked(struct pp_pool *pool, struct pp_page *page,
			     unsigned int order)
{
	unsigned long pfn = pp_pfn(pool, page);
	unsigned int o = order;

	while (o < PP_MAX_ORDER) {
		unsigned long buddy_pfn = pfn ^ (1UL << o);
		struct pp_page *buddy;

		if (buddy_pfn >= pool->nr_pages)
			break;
		buddy = &pool->mem_map[buddy_pfn];
		if (pp_page_state(buddy) != PP_PAGE_BUDDY || buddy->order != o)
			break;
		pp_del_from_free_list(pool, buddy, o);
		pfn &= buddy_pfn;
		o++;
	}
	pp_add_to_free_list(pool, &pool->mem_map[pfn], o, false);
	atomic_store_explicit(&pool->nr_free,
			      pp_zone_free(pool) + (1UL << order),
			      memory_order_relaxed);
}

/*
 * rmqueue_bulk(): refill @pcp with up to @count order-0 pages, taking the
 * zone lock once.  @pcp->lock held.  Returns the number of pages added.
 */
unsigned int pp_rmqueue_bulk(struct pp_pool *pool, struct pp_pcp *pcp,
			     unsigned int count)
{
	unsigned int i;

	pp_zone_lock(pool);
	for (i = 0; i < count; i++) {
		struct pp_page *page = pp_rmqueue_smallest(pool, 0,
							   "rmqueue_bulk");

		if (unlikely(!page))
			break;
		pp_set_page_state(page, PP_PAGE_PCP);
		page->pcp_cpu = pcp->cpu;
		pp_trace(mm_page_alloc_zone_locked, pp_pfn(pool, page), 0,
			 PP_MIGRATE_UNMOVABLE, 1);
		/* Physical order, so the list hands out ascending pfns. */
		pp_list_add_tail(&page->lru, &pcp->list);
	}
	atomic_store_explicit(&pool->nr_free, pp_zone_free(pool) - i,
			      memory_order_relaxed);
	pp_zone_unlock(pool);

	atomic_store_explicit(&pcp->count,
			      atomic_load_explicit(&pcp->count,
						   memory_order_relaxed) + i,
			      memory_order_relaxed);
	pp_count_locked(pcp, PP_ZONE_LOCK, 1);
	pp_count_locked(pcp, PP_PCP_REFILL, 1);
	pp_count_locked(pcp, PP_PCP_REFILL_PAGES, i);
	return i;
}

/*
 * free_pcppages_bulk(): move @count pages from the cold end of @pcp back to
 * the buddy lists under the zone lock.  @pcp->lock held.
 */
void pp_free_pcppages_bulk(struct pp_pool *pool, struct pp_pcp *pcp,
			   unsigned int count)
{
	unsigned int n = 0;

	pp_zone_lock(pool);
	while (n < count && !pp_list_empty(&pcp->list)) {
		struct pp_page *page = pp_lru_to_page(pcp->list.prev);

		if (pool->debug &&
		    (pp_page_state(page) != PP_PAGE_PCP ||
		     page->lru.next->prev != &page->lru))
			pp_bad_page(pool, page, "free_pcppages_bulk",
				    "free list corruption: page on a pcp list "
				    "is not a free pcp page");
		pp_list_del(&page->lru);
		pp_set_page_state(page, PP_PAGE_NONE);
		pp_trace(mm_page_pcpu_drain, pp_pfn(pool, page), 0,
			 PP_MIGRATE_UNMOVABLE);
		pp_free_one_page_locked(pool, page, 0);
		n++;
	}
	pp_zone_unlock(pool);

	atomic_store_explicit(&pcp->count,
			      atomic_load_explicit(&pcp->count,
						   memory_order_relaxed) - n,
			      memory_order_relaxed);
	pp_count_locked(pcp, PP_ZONE_LOCK, 1);
	pp_count_locked(pcp, PP_PCP_DRAIN, 1);
	pp_count_locked(pcp, PP_PCP_DRAIN_PAGES, n);
}

/*
 * Wait for a pcp lock.  Only drains do this: holders keep it for one refill
 * or drain at most, and yielding lets a preempted holder on an
 * oversubscribed machine run.
 */
void pp_pcp_lock_slow(struct pp_pcp *pcp)
{
	while (!pp_pcp_trylock(pcp))
		sched_yield();
}

/* drain_all_pages(): empty every pcp list into the buddy lists. */
void pp_drain_all_pages(struct pp_pool *pool)
{
	for (unsigned int cpu = 0; cpu < pool->nr_cpus; cpu++) {
		struct pp_pcp *pcp = &pool->pcp[cpu];

		if (!atomic_load_explicit(&pcp->count, memory_order_relaxed))
			continue;
		pp_pcp_lock_slow(pcp);
		if (atomic_load_explicit(&pcp->count, memory_order_relaxed))
			pp_free_pcppages_bulk(pool, pcp,
					      atomic_load_explicit(&pcp->count,
						memory_order_relaxed));
		pp_pcp_unlock(pcp);
	}
}

void pp_pool_drain(struct pp_pool *pool)
{
	pp_count(pool, PP_DRAIN_ALL, 1);
	pp_drain_all_pages(pool);
}

unsigned long pp_pcp_pages(const struct pp_pool *pool)
{
	unsigned long n = 0;

	for (unsigned int cpu = 0; cpu < pool->nr_cpus; cpu++)
		n += atomic_load_explicit(&pool->pcp[cpu].count,
					  memory_order_relaxed);
	return n;
}
