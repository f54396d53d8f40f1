/* SPDX-License-Identifier: MIT */
/*
 * The zone: arena and descriptor mappings, buddy free lists, per-CPU list
 * refill and drain, pool creation and teardown.
 */
#include "internal.h"

#include <errno.h>
#include <stdio.h>
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
	/* Any other value makes pp_pool_create() fail, saying so. */
	if (env && (env[0] == '0' || env[0] == '1') && env[1] == '\0')
		cfg->debug = env[0] == '1';
	cfg->backend = PP_BACKEND_BUDDY;
	cfg->bulk_variant = PP_BULK_MERGED;
	cfg->je_tcache = true;
	cfg->je_tcache_slots = 0;
	cfg->je_batch_alloc = true;
	/* A value it cannot read makes pp_pool_create() fail, saying so. */
	env = getenv("PAGEPOOL_PCP");
	cfg->pcp_impl = PP_PCP_AUTO;
	if (env) {
		int impl = pp_pcp_impl_from_name(env);

		cfg->pcp_impl = impl < 0 ? PP_NR_PCP_IMPLS :
					   (enum pp_pcp_impl)impl;
	}
}

/*
 * PAGEPOOL_DEBUG, when set, must be 0 or 1: a value that would be
 * silently ignored ("yes", "2", "") leaves a user believing the checks are
 * on.  Refused the way PAGEPOOL_FAULT and PAGEPOOL_PCP are: one line, and
 * pp_pool_create() fails with EINVAL.
 */
static int pp_debug_env_check(void)
{
	const char *env = getenv("PAGEPOOL_DEBUG");

	if (!env || ((env[0] == '0' || env[0] == '1') && env[1] == '\0'))
		return 0;
	fprintf(stderr, "pagepool: PAGEPOOL_DEBUG='%s': expected 0 (debug "
		"checks off) or 1 (on)\n", env);
	return -EINVAL;
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

/* The largest block's size: the arena is aligned to it. */
#define PP_MAX_BLOCK_BYTES	(PP_PAGE_SIZE << PP_MAX_ORDER)

/*
 * The arena, aligned to the largest block, so that a block of order n is
 * aligned to 2^n pages in address as well as in pfn (jemalloc asks for
 * 2 MiB-aligned metadata blocks).  The slack around it is mapped but never
 * touched.
 */
static bool pp_map_arena(struct pp_pool *pool)
{
	uintptr_t base;

	if (pool->arena_bytes > SIZE_MAX - PP_MAX_BLOCK_BYTES)
		return false;
	pool->map_len = pool->arena_bytes + PP_MAX_BLOCK_BYTES - PP_PAGE_SIZE;
	pool->map_base = pp_map(pool->map_len);
	if (!pool->map_base)
		return false;
	base = ((uintptr_t)pool->map_base + PP_MAX_BLOCK_BYTES - 1) &
	       ~(uintptr_t)(PP_MAX_BLOCK_BYTES - 1);
	pool->arena = (char *)base;
	return true;
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
	/* Read without the lock by the order > 0 watermark check. */
	__atomic_store_n(&pool->free_area[order].nr_free,
			 pool->free_area[order].nr_free + 1, __ATOMIC_RELAXED);
}

static void pp_del_from_free_list(struct pp_pool *pool, struct pp_page *page,
				  unsigned int order)
{
	pp_list_del(&page->lru);
	pp_set_page_state(page, PP_PAGE_NONE);
	__atomic_store_n(&pool->free_area[order].nr_free,
			 pool->free_area[order].nr_free - 1, __ATOMIC_RELAXED);
}

/* Unmap and free a pool whose pages are all back (or never used). */
static void pp_pool_unmap(struct pp_pool *pool)
{
	int err = pthread_mutex_destroy(&pool->lock);

	if (err)
		pp_die("pthread_mutex_destroy: error %d", err);
	pool->magic = PP_POOL_DEAD;
	/* KASAN: a later mapping at this address must not inherit poison. */
	pp_kasan_unpoison_range(pool, 0, pool->nr_pages);
	munmap(pool->map_base, pool->map_len);
	munmap(pool->mem_map, pool->map_bytes);
	munmap(pool->rings, pool->rings_bytes);
	free(pool->pcp);
	free(pool);
}

/* Ring slots for a pcp list: all it can hold, as a power of two. */
static unsigned int pp_ring_slots(const struct pp_pool_config *cfg)
{
	unsigned long need = cfg->pcp_high < cfg->nr_pages ? cfg->pcp_high :
			     cfg->nr_pages;
	unsigned int slots = 1;

	while (slots < need)
		slots <<= 1;
	return slots;
}

struct pp_pool *pp_pool_create(const struct pp_pool_config *cfg)
{
	struct pp_pool_config defaults;
	struct pp_fault fault;
	struct pp_pool *pool;
	unsigned long pfn;
	unsigned int slots;
	int err;

	if (!cfg) {
		pp_pool_config_init(&defaults);
		cfg = &defaults;
	}
	if (cfg->nr_pages == 0 || cfg->nr_pages > (SIZE_MAX >> PP_PAGE_SHIFT) ||
	    cfg->pcp_batch == 0 || cfg->pcp_high < cfg->pcp_batch ||
	    (unsigned int)cfg->backend >= PP_NR_BACKENDS ||
	    (unsigned int)cfg->bulk_variant >= PP_NR_BULK_VARIANTS) {
		errno = EINVAL;
		return NULL;
	}
	if (posix_memalign((void **)&pool, PP_CACHELINE, sizeof(*pool))) {
		errno = ENOMEM;
		return NULL;
	}
	memset(pool, 0, sizeof(*pool));
	if (pp_debug_env_check() ||
	    pp_fault_parse(getenv("PAGEPOOL_FAULT"), &fault)) {
		free(pool);
		errno = EINVAL;
		return NULL;
	}
	pool->fault_buddy_reserve = fault.buddy_reserve;
	pool->nr_pages = cfg->nr_pages;
	pool->debug = cfg->debug;
	atomic_init(&pool->bulk_variant, (unsigned int)cfg->bulk_variant);
	pool->backend_id = (uint8_t)cfg->backend;
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
	if (fault.mmap_fail || !pp_map_arena(pool))
		pool->arena = NULL;
	pool->mem_map = pp_map(pool->map_bytes);
	if (posix_memalign((void **)&pool->pcp, PP_CACHELINE,
			   pool->nr_cpus * sizeof(*pool->pcp)))
		pool->pcp = NULL;
	slots = pp_ring_slots(cfg);
	pool->rings_bytes = (size_t)pool->nr_cpus * slots * sizeof(void *);
	pool->rings = pp_map(pool->rings_bytes);
	if (!pool->arena || !pool->mem_map || !pool->pcp || !pool->rings)
		goto nomem;

	err = pp_pcp_setup(pool, cfg);
	if (err) {
		errno = -err;
		goto fail_unmap;
	}
	err = pthread_mutex_init(&pool->lock, NULL);
	if (err)
		pp_die("pthread_mutex_init: error %d", err);

	memset(pool->pcp, 0, pool->nr_cpus * sizeof(*pool->pcp));
	for (unsigned int cpu = 0; cpu < pool->nr_cpus; cpu++) {
		struct pp_pcp *pcp = &pool->pcp[cpu];

		pcp->batch = cfg->pcp_batch;
		pcp->fault_trylock = fault.trylock_fail;
		pcp->high = cfg->pcp_high;
		pcp->cpu = cpu;
		pcp->mask = slots - 1;
		pcp->ring = pool->rings + (size_t)cpu * slots;
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
	/* KASAN: every page starts free, so poisoned (ASan build). */
	pp_kasan_poison_range(pool, 0, pool->nr_pages);

	if (cfg->backend == PP_BACKEND_JEMALLOC) {
		err = pp_je_create(pool, cfg);
		if (err) {
			pp_pool_unmap(pool);
			errno = -err;
			return NULL;
		}
	}
	pool->magic = PP_POOL_LIVE;
	return pool;

nomem:
	errno = ENOMEM;
fail_unmap:
	if (pool->arena)
		munmap(pool->map_base, pool->map_len);
	if (pool->mem_map)
		munmap(pool->mem_map, pool->map_bytes);
	if (pool->rings)
		munmap(pool->rings, pool->rings_bytes);
	free(pool->pcp);
	free(pool);
	return NULL;
}

/*
 * The leak report: how many pages are out, and the first few pfns in
 * @state.
 */
static void pp_report_leak(const struct pp_pool *pool, unsigned long out,
			   const char *what, unsigned int state)
{
	unsigned long shown = 0;

	fprintf(stderr, "pagepool: destroy: %lu of %lu pages still %s "
		"(first pfns:", out, pool->nr_pages, what);
	for (unsigned long pfn = 0; pfn < pool->nr_pages &&
	     shown < PP_LEAK_PFNS_SHOWN; pfn++) {
		if (pp_page_state(&pool->mem_map[pfn]) == state) {
			fprintf(stderr, " 0x%lx", pfn);
			shown++;
		}
	}
	fprintf(stderr, "%s)\n", out > shown ? " ..." : "");
}

int pp_pool_destroy(struct pp_pool *pool)
{
	unsigned long nr_free;

	if (!pool)
		return 0;
	/*
	 * A second destroy is a use after free, the caller's bug, as a
	 * second kfree() is; it used to spin forever on a freed pcp lock.
	 * While the memory has not been reused the mark says what happened
	 * (the ASan build reports the heap-use-after-free first).
	 */
	if (unlikely(pool->magic != PP_POOL_LIVE))
		pp_bad_call("pp_pool_destroy", "%p is not a live pool (%s)",
			    (void *)pool, pool->magic == PP_POOL_DEAD ?
			    "destroyed already: a second destroy" :
			    "never created, or its memory reused");
	if (pool->ops) {
		unsigned long out = 0;

		/* Nothing may be out before the backend goes: count pages. */
		for (unsigned long pfn = 0; pfn < pool->nr_pages; pfn++)
			if (pp_page_state(&pool->mem_map[pfn]) ==
			    PP_PAGE_INUSE)
				out += 1UL << pool->mem_map[pfn].order;
		if (out) {
			pp_report_leak(pool, out, "in use", PP_PAGE_INUSE);
			return -EBUSY;
		}
		if (pool->ops->destroy(pool))
			return -EBUSY;
		pool->ops = NULL;
	}
	pp_drain_all_pages(pool);
	nr_free = pp_zone_free(pool);
	if (nr_free != pool->nr_pages) {
		if (pool->backend_id == PP_BACKEND_BUDDY)
			pp_report_leak(pool, pool->nr_pages - nr_free,
				       "in use", PP_PAGE_INUSE);
		else
			pp_report_leak(pool, pool->nr_pages - nr_free,
				       "held by the backend", PP_PAGE_BACKEND);
		return -EBUSY;
	}
	pp_pool_unmap(pool);
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
 * rmqueue_bulk(): refill an empty @pcp with up to @count order-0 pages,
 * taking the zone lock once.  @pcp->lock held.  Returns the number of
 * pages added.
 */
unsigned int pp_rmqueue_bulk(struct pp_pool *pool, struct pp_pcp *pcp,
			     unsigned int count)
{
	unsigned int base = pp_pcp_top(pcp), i;

	if (pool->debug && pp_pcp_count(pcp))
		pp_die("rmqueue_bulk: pcp list %u not empty (%u pages)",
		       pcp->cpu, pp_pcp_count(pcp));
	pp_zone_lock(pool);
	if (unlikely(pool->fault_buddy_reserve)) {
		unsigned long avail = pp_zone_free(pool);

		avail = avail > pool->fault_buddy_reserve ?
			avail - pool->fault_buddy_reserve : 0;
		if (count > avail)
			count = (unsigned int)avail;
	}
	for (i = 0; i < count; i++) {
		struct pp_page *page = pp_rmqueue_smallest(pool, 0,
							   "rmqueue_bulk");

		if (unlikely(!page))
			break;
		pp_set_page_state(page, PP_PAGE_PCP);
		page->pcp_cpu = pcp->cpu;
		pp_trace(mm_page_alloc_zone_locked, pp_pfn(pool, page), 0,
			 PP_MIGRATE_UNMOVABLE, 1);
		pcp->ring[(base + i) & pcp->mask] = page;
	}
	atomic_store_explicit(&pool->nr_free, pp_zone_free(pool) - i,
			      memory_order_relaxed);
	pp_zone_unlock(pool);

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
 * free_pcppages_bulk(): move @count pages from the cold end of @pcp back to
 * the buddy lists under the zone lock.  @pcp->lock held.
 */
void pp_free_pcppages_bulk(struct pp_pool *pool, struct pp_pcp *pcp,
			   unsigned int count)
{
	unsigned int left = pp_pcp_count(pcp), top = pp_pcp_top(pcp), n = 0;

	pp_zone_lock(pool);
	while (n < count && left) {
		struct pp_page *page = pcp->ring[(top - left) & pcp->mask];

		if (pool->debug &&
		    (pp_page_state(page) != PP_PAGE_PCP ||
		     page->pcp_cpu != pcp->cpu))
			pp_bad_page(pool, page, "free_pcppages_bulk",
				    "free list corruption: page on a pcp list "
				    "is not a free pcp page");
		pp_set_page_state(page, PP_PAGE_NONE);
		pp_trace(mm_page_pcpu_drain, pp_pfn(pool, page), 0,
			 PP_MIGRATE_UNMOVABLE);
		pp_free_one_page_locked(pool, page, 0);
		left--;
		n++;
	}
	pp_zone_unlock(pool);

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
	for (unsigned int cpu = 0; cpu < pool->nr_cpus; cpu++) {
		struct pp_pcp *pcp = &pool->pcp[cpu];

		if (!pp_pcp_count(pcp))
			continue;
		pp_pcp_stop(pool, pcp);
		if (pp_pcp_count(pcp))
			pp_free_pcppages_bulk(pool, pcp, pp_pcp_count(pcp));
		pp_pcp_restart(pool, pcp);
	}
}

void pp_pool_drain(struct pp_pool *pool)
{
	pp_count(pool, PP_DRAIN_ALL, 1);
	if (unlikely(pool->ops))
		pool->ops->drain(pool);
	pp_drain_all_pages(pool);
}

/*
 * Give pfns [@pfn, @pfn + @nr) to the buddy lists as the largest aligned
 * blocks they hold; each merges with its free buddies.  The pages' states
 * must be "none".  Zone lock held.
 */
static void pp_free_range_locked(struct pp_pool *pool, unsigned long pfn,
				 unsigned long nr)
{
	while (nr) {
		unsigned int o = PP_MAX_ORDER;

		while ((pfn & ((1UL << o) - 1)) || (1UL << o) > nr)
			o--;
		pp_free_one_page_locked(pool, &pool->mem_map[pfn], o);
		pfn += 1UL << o;
		nr -= 1UL << o;
	}
}

/*
 * alloc_contig_range() for a run longer than the largest block: @nblocks
 * free order-PP_MAX_ORDER blocks side by side, found by a walk over the
 * zone.  Zone lock held.  Returns the first pfn, or -ENOMEM.
 */
static long pp_take_contig_locked(struct pp_pool *pool, unsigned long nblocks)
{
	unsigned long step = 1UL << PP_MAX_ORDER;

	for (unsigned long pfn = 0; pfn + nblocks * step <= pool->nr_pages;
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
			pp_del_from_free_list(pool,
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
 * it keeps.  The pages leave as PP_PAGE_BACKEND.
 *
 * Return: the first pfn, or -ENOMEM (-EINVAL for a bad @align).
 */
long pp_zone_alloc_range(struct pp_pool *pool, unsigned long nr,
			 unsigned long align)
{
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
	pp_zone_lock(pool);
	if (pp_fault_buddy_short(pool, nr)) {
		pfn = -ENOMEM;
		span = 0;
	} else if ((1UL << order) >= nr) {
		struct pp_page *page = pp_rmqueue_smallest(pool, order,
							   "extent_alloc");

		pfn = page ? (long)pp_pfn(pool, page) : -ENOMEM;
		span = 1UL << order;
	} else {
		span = (nr + (1UL << PP_MAX_ORDER) - 1) >> PP_MAX_ORDER;
		pfn = pp_take_contig_locked(pool, span);
		span <<= PP_MAX_ORDER;
	}
	if (pfn >= 0) {
		atomic_store_explicit(&pool->nr_free, pp_zone_free(pool) - span,
				      memory_order_relaxed);
		pp_trace(mm_page_alloc_zone_locked, (unsigned long)pfn, order,
			 PP_MIGRATE_UNMOVABLE, 0);
		if (span > nr)
			pp_free_range_locked(pool, (unsigned long)pfn + nr,
					     span - nr);
	}
	pp_zone_unlock(pool);
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
	pp_zone_lock(pool);
	pp_free_range_locked(pool, pfn, nr);
	pp_zone_unlock(pool);
	pp_count(pool, PP_ZONE_LOCK, 1);
}

enum pp_backend pp_pool_backend(const struct pp_pool *pool)
{
	return (enum pp_backend)pool->backend_id;
}

static const char *const pp_backend_names[PP_NR_BACKENDS] = {
	[PP_BACKEND_BUDDY]	= "buddy",
	[PP_BACKEND_JEMALLOC]	= "jemalloc",
};

static const char *const pp_variant_names[PP_NR_BULK_VARIANTS] = {
	[PP_BULK_MERGED]		= "merged",
	[PP_BULK_STOP_AT_POPULATED]	= "stop-at-first-populated",
	[PP_BULK_BATCHED_STATS]		= "batched-stats",
	[PP_BULK_NO_SINGLE_FALLBACK]	= "no-single-fallback",
	[PP_BULK_PURE_OUTPUT]		= "pure-output",
};

const char *pp_backend_name(enum pp_backend backend)
{
	if ((unsigned int)backend >= PP_NR_BACKENDS)
		return "unknown";
	return pp_backend_names[backend];
}

int pp_backend_from_name(const char *name)
{
	for (unsigned int i = 0; name && i < PP_NR_BACKENDS; i++)
		if (!strcmp(name, pp_backend_names[i]))
			return (int)i;
	return -EINVAL;
}

const char *pp_bulk_variant_name(enum pp_bulk_variant variant)
{
	if ((unsigned int)variant >= PP_NR_BULK_VARIANTS)
		return "unknown";
	return pp_variant_names[variant];
}

int pp_bulk_variant_from_name(const char *name)
{
	for (unsigned int i = 0; name && i < PP_NR_BULK_VARIANTS; i++)
		if (!strcmp(name, pp_variant_names[i]))
			return (int)i;
	return -EINVAL;
}

unsigned long pp_pcp_pages(const struct pp_pool *pool)
{
	unsigned long n = 0;

	for (unsigned int cpu = 0; cpu < pool->nr_cpus; cpu++)
		n += pp_pcp_count(&pool->pcp[cpu]);
	return n;
}
