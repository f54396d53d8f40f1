/* SPDX-License-Identifier: MIT */
/*
 * Backends other than buddy (jemalloc.c, plugin.c): what they provide,
 * how the entry points dispatch to them, and the bulk loop they share.
 */
#ifndef PP_ALLOC_BACKEND_OPS_H
#define PP_ALLOC_BACKEND_OPS_H

#include "page.h"

/*
 * What a backend other than buddy provides (jemalloc.c, plugin.c).  The API entry
 * points keep the parts of the contracts every backend shares (counting the
 * call, the bulk variants' front end, fallbacks, references, debug checks,
 * tracepoints) and call these for the allocator's own work.
 */
struct pp_backend_ops {
	/*
	 * The single-page path: a block of 2^@ac->order pages, prepared
	 * (refcount 1, in use, checked and zeroed as @ac->gfp asks), PGALLOC
	 * and the deferred counters of @ac counted; NULL on failure (counted
	 * as alloc_fail).
	 */
	struct pp_page *(*alloc_pages)(struct pp_pool *pool,
				       struct pp_alloc_ctx *ac,
				       const char *call);
	/*
	 * The bulk loop, @pcp->lock held: fill the NULL entries of
	 * @req->page_array from @f->nr_populated on (all of
	 * [@f->nr_populated, @req->nr_pages) with PP_FILL_ALL), or add
	 * pages to @req->page_list, up to @req->nr_pages; stop at the first
	 * populated entry past a hole with PP_FILL_STOP.  Counts PGALLOC per
	 * page (PP_FILL_PER_PAGE_STATS) or once.  @flags: PP_FILL_*.
	 */
	void (*bulk_fill)(struct pp_pool *pool, struct pp_pcp *pcp,
			  const struct pp_bulk_req *req,
			  struct pp_bulk_fill *f, unsigned int flags);
	/*
	 * A block whose last reference went, prepared (state back to the
	 * backend's): give it back, counting PGFREE.  @pcp: this CPU's pcp,
	 * locked by the caller, or NULL.
	 */
	void (*free_pages)(struct pp_pool *pool, struct pp_pcp *pcp,
			   struct pp_page *page, unsigned int order);
	/*
	 * Optional (NULL: free_pages once per page): @nr order-0 pages of
	 * pp_release_pages(), prepared, given back at once, PGFREE counted.
	 * @pcp as for free_pages.
	 */
	void (*free_batch)(struct pp_pool *pool, struct pp_pcp *pcp,
			   struct pp_page **pages, unsigned int nr);
	/* pp_pool_drain(): give cached pages back to the zone. */
	void (*drain)(struct pp_pool *pool);
	/* Pages held, not handed out (vmstat's nr_backend). */
	unsigned long (*nr_held)(struct pp_pool *pool, uint64_t allocated);
	/* pp_pool_destroy(), no page out: tear down, give everything back. */
	int (*destroy)(struct pp_pool *pool);
};

/* The state a block whose last reference went is left in for its owner. */
static inline unsigned int pp_backend_free_state(const struct pp_pool *pool)
{
	return pp_pool_buddy(pool) ? PP_PAGE_NONE : PP_PAGE_BACKEND;
}

/* Another backend only: see struct pp_backend_ops for each contract. */
static inline struct pp_page *pp_backend_alloc_pages(struct pp_pool *pool,
						     struct pp_alloc_ctx *ac,
						     const char *call)
{
	return pool->ops->alloc_pages(pool, ac, call);
}

/* @req by value: see pp_alloc_pages_bulk_core(). */
static inline void pp_backend_bulk_fill(struct pp_pool *pool,
					struct pp_pcp *pcp,
					struct pp_bulk_req req,
					struct pp_bulk_fill *f,
					unsigned int flags)
{
	pool->ops->bulk_fill(pool, pcp, &req, f, flags);
}

static inline void pp_backend_free_pages(struct pp_pool *pool,
					 struct pp_pcp *pcp,
					 struct pp_page *page, unsigned int order)
{
	pool->ops->free_pages(pool, pcp, page, order);
}

static inline void pp_backend_free_batch(struct pp_pool *pool,
					 struct pp_pcp *pcp,
					 struct pp_page **pages,
					 unsigned int nr)
{
	if (pool->ops->free_batch) {
		pool->ops->free_batch(pool, pcp, pages, nr);
		return;
	}
	for (unsigned int i = 0; i < nr; i++)
		pool->ops->free_pages(pool, pcp, pages[i], 0);
}

/* Any backend: nothing to do for the buddy allocator. */
static inline void pp_backend_drain(struct pp_pool *pool)
{
	if (unlikely(!pp_pool_buddy(pool)))
		pool->ops->drain(pool);
}

static inline unsigned long pp_backend_nr_held(struct pp_pool *pool,
					       uint64_t allocated)
{
	return pp_pool_buddy(pool) ? 0 : pool->ops->nr_held(pool, allocated);
}

/*
 * Another backend, pp_pool_destroy() with no page out: it gives everything
 * back and the pool is the buddy allocator's alone from then on.  0, or
 * -EBUSY.
 */
static inline int pp_backend_destroy(struct pp_pool *pool)
{
	if (pool->ops->destroy(pool))
		return -EBUSY;
	pool->ops = NULL;
	return 0;
}

/*
 * A backend's get for pp_backend_alloc_walk(): one block of 2^@ac->order
 * pages, checked and prepared, from this CPU's share when @pcp (locked)
 * is given, else from what all CPUs share; NULL when there is none.
 */
typedef struct pp_page *pp_get_fn(struct pp_pool *pool, struct pp_pcp *pcp,
				  struct pp_alloc_ctx *ac, const char *call);

/*
 * The single-page path the backends share (struct pp_backend_ops'
 * alloc_pages): @get under this CPU's pcp lock, PGALLOC and @ac's
 * deferred counters counted there; a failed trylock counted, and @get
 * without the pcp; nothing: the slow path's drain_all_pages() (@drain),
 * one more @get, else a failure.
 */
static inline __attribute__((always_inline))
struct pp_page *pp_backend_alloc_walk(struct pp_pool *pool,
				      struct pp_alloc_ctx *ac,
				      const char *call, pp_get_fn *get,
				      void (*drain)(struct pp_pool *pool))
{
	struct pp_pcp *pcp = pp_this_pcp(pool);
	struct pp_page *page;

	if (likely(pp_pcp_trylock(pcp))) {
		page = get(pool, pcp, ac, call);
		pp_pcp_alloc_unlock(pcp, ac, page, 1UL << ac->order);
		if (likely(page))
			return page;
	} else {
		pp_count(pool, PP_PCP_TRYLOCK_FAIL, 1);
		page = get(pool, NULL, ac, call);
		if (page)
			goto found;
	}
	pp_ctx_defer(ac, PP_ALLOC_SLOWPATH);
	pp_count(pool, PP_DRAIN_ALL, 1);
	drain(pool);
	page = get(pool, NULL, ac, call);
	if (!page) {
		pp_ctx_defer(ac, PP_ALLOC_FAIL);
		return NULL;
	}
found:
	pp_count(pool, PP_PGALLOC, 1UL << ac->order);
	return page;
}

/*
 * The bulk loop of a backend other than buddy, for its bulk_fill op: the
 * request's list filled a chunk at a time, or the array's runs of holes
 * from @f->nr_populated on (every entry with PP_FILL_ALL; stopping at a
 * populated one with PP_FILL_STOP).  @fill_run is the backend's own work:
 * up to @nr order-0 pages into @slots, each prepared (and counted as
 * PGALLOC with PP_FILL_PER_PAGE_STATS), returning how many; fewer than
 * @nr ends the loop (the backend ran dry).  Always inlined, so that each
 * backend's copy calls its @fill_run directly.
 */
typedef unsigned long pp_fill_run_fn(struct pp_pool *pool, struct pp_pcp *pcp,
				     const struct pp_bulk_req *req,
				     struct pp_page **slots, unsigned long nr,
				     unsigned int flags);

/* Pages a backend's bulk list call gathers per @fill_run (on the stack). */
#define PP_BACKEND_LIST_CHUNK	64

static inline __attribute__((always_inline))
void pp_backend_fill_walk(struct pp_pool *pool, struct pp_pcp *pcp,
			  const struct pp_bulk_req *req,
			  struct pp_bulk_fill *f, unsigned int flags,
			  pp_fill_run_fn *fill_run)
{
	const bool fill_all = flags & PP_FILL_ALL;
	const bool stop = flags & PP_FILL_STOP;
	struct pp_page **page_array = req->page_array;
	unsigned long i = f->nr_populated, nr_account = 0;

	while (req->page_list && nr_account < req->nr_pages) {
		struct pp_page *buf[PP_BACKEND_LIST_CHUNK];
		unsigned long want = req->nr_pages - nr_account, got;

		if (want > PP_BACKEND_LIST_CHUNK)
			want = PP_BACKEND_LIST_CHUNK;
		got = fill_run(pool, pcp, req, buf, want, flags);
		for (unsigned long k = 0; k < got; k++)
			pp_list_add(&buf[k]->lru, req->page_list);
		nr_account += got;
		if (got < want) {
			f->dry = true;
			break;
		}
	}
	if (req->page_list)
		i = nr_account;
	while (!req->page_list && i < req->nr_pages) {
		unsigned long end = i + 1, got;

		if (!fill_all && page_array[i]) {
			i++;
			if (stop) {
				f->stopped = true;
				break;
			}
			continue;
		}
		/* The run of holes [i, end), or all of it with PP_FILL_ALL. */
		if (fill_all)
			end = req->nr_pages;
		else
			while (end < req->nr_pages && !page_array[end])
				end++;
		got = fill_run(pool, pcp, req, page_array + i, end - i, flags);
		nr_account += got;
		i += got;
		if (i < end) {
			f->dry = true;
			break;
		}
	}
	if (!(flags & PP_FILL_PER_PAGE_STATS) && nr_account)
		pp_count_locked(pcp, PP_PGALLOC, nr_account);
	f->nr_populated = i;
	f->nr_account = nr_account;
}

/* A page a backend's @fill_run hands out: prepared, counted per page. */
static inline void pp_backend_prep_filled(struct pp_pool *pool,
					  struct pp_pcp *pcp,
					  struct pp_page *page,
					  const struct pp_bulk_req *req,
					  unsigned int flags)
{
	pp_prep_new_page_checked(pool, page, 0, req->gfp, req->call);
	if (flags & PP_FILL_PER_PAGE_STATS)
		pp_count_locked(pcp, PP_PGALLOC, 1);
}

/* PGFREE of a backend's free: on @pcp (locked), or the pool's if NULL. */
static inline void pp_backend_count_free(struct pp_pool *pool,
					 struct pp_pcp *pcp, uint64_t nr)
{
	if (pcp)
		pp_count_locked(pcp, PP_PGFREE, nr);
	else
		pp_count(pool, PP_PGFREE, nr);
}

/*
 * The pages a backend holds, counted as they cross the zone (jemalloc's
 * extent hooks, a plugin's pp_zone_take_pages() and pp_zone_give_pages()):
 * @nr pages taken from the zone, now the backend's.
 */
static inline void pp_backend_grow(struct pp_pool *pool,
				   _Atomic unsigned long *held,
				   unsigned long nr)
{
	atomic_fetch_add_explicit(held, nr, memory_order_relaxed);
	pp_count(pool, PP_BACKEND_GROW, 1);
	pp_count(pool, PP_BACKEND_GROW_PAGES, nr);
}

/* @nr pages from @pfn on, checked, given back to the zone. */
static inline void pp_backend_shrink(struct pp_pool *pool,
				     _Atomic unsigned long *held,
				     unsigned long pfn, unsigned long nr)
{
	pp_zone_free_range(pool, pfn, nr);
	atomic_fetch_sub_explicit(held, nr, memory_order_relaxed);
	pp_count(pool, PP_BACKEND_SHRINK, 1);
	pp_count(pool, PP_BACKEND_SHRINK_PAGES, nr);
}

/*
 * nr_held from the pages held: those not handed out (@allocated of them
 * are), racy counts read apart, so never below 0.
 */
static inline unsigned long pp_backend_held_free(_Atomic unsigned long *held,
						 uint64_t allocated)
{
	unsigned long n = atomic_load_explicit(held, memory_order_relaxed);

	return n > allocated ? n - (unsigned long)allocated : 0;
}

/* --- the jemalloc backend (jemalloc.c) ----------------------------------- */

int pp_je_create(struct pp_pool *pool, const struct pp_pool_config *cfg);

/* --- a backend plugin (plugin.c, <pagepool/backend.h>) -------------------- */

int pp_plugin_create(struct pp_pool *pool, const struct pp_pool_config *cfg);

#endif /* PP_ALLOC_BACKEND_OPS_H */
