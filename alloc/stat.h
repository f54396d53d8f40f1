/* SPDX-License-Identifier: MIT */
/*
 * Counters: per-CPU event counts (plain under the pcp lock, atomic
 * otherwise) and the counters a call defers until it holds a list.
 */
#ifndef PP_ALLOC_STAT_H
#define PP_ALLOC_STAT_H

#include "pcp.h"

/* Caller holds @pcp->lock: a plain add, no locked instruction. */
static inline void pp_count_locked(struct pp_pcp *pcp, enum pp_vm_event ev,
				   uint64_t n)
{
	uint64_t v = atomic_load_explicit(&pcp->events[ev],
					  memory_order_relaxed);

	atomic_store_explicit(&pcp->events[ev], v + n, memory_order_relaxed);
}

/*
 * No pcp lock held: an atomic add to this CPU's counters (slow paths).
 * The pool's counters are the sum over every zone's lists; those of no
 * zone in particular go to the first zone's.
 */
static inline void pp_count(struct pp_pool *pool, enum pp_vm_event ev,
			    uint64_t n)
{
	atomic_fetch_add_explicit(&pp_zone_this_pcp(pool, &pool->zones[0])->
				  events_unlocked[ev], n,
				  memory_order_relaxed);
}

/*
 * A count by the list's owner from a path that may also run remotely (a
 * drain): a plain add under the lock implementation's lock, an atomic one
 * to the unlocked counters when rseq sections of that CPU may be adding
 * to @events at the same time.
 */
static inline void pp_count_owner(struct pp_pool *pool, struct pp_pcp *pcp,
				  enum pp_vm_event ev, uint64_t n)
{
	if (pool->pcp_rseq)
		atomic_fetch_add_explicit(&pcp->events_unlocked[ev], n,
					  memory_order_relaxed);
	else
		pp_count_locked(pcp, ev, n);
}

static inline void pp_ctx_defer(struct pp_alloc_ctx *ac, enum pp_vm_event ev)
{
	ac->pending[ac->nr_pending++] = ev;
}

static inline void pp_ctx_flush_locked(struct pp_pcp *pcp,
				       struct pp_alloc_ctx *ac)
{
	for (unsigned int i = 0; i < ac->nr_pending; i++)
		pp_count_locked(pcp, ac->pending[i], 1);
	ac->nr_pending = 0;
}

/*
 * The end of a single-page allocation under @pcp's lock, the same for
 * every backend: PGALLOC counted (@nr_pages) when @page was had, then
 * @ac's deferred counters, then the lock released.
 */
static inline void pp_pcp_alloc_unlock(struct pp_pcp *pcp,
				       struct pp_alloc_ctx *ac,
				       const struct pp_page *page,
				       unsigned long nr_pages)
{
	if (likely(page))
		pp_count_locked(pcp, PP_PGALLOC, nr_pages);
	pp_ctx_flush_locked(pcp, ac);
	pp_pcp_unlock(pcp);
}

static inline void pp_ctx_flush(struct pp_pool *pool, struct pp_alloc_ctx *ac)
{
	for (unsigned int i = 0; i < ac->nr_pending; i++)
		pp_count(pool, ac->pending[i], 1);
	ac->nr_pending = 0;
}

#endif /* PP_ALLOC_STAT_H */
