/* SPDX-License-Identifier: MIT */
/*
 * The pcp lists of the lean profile and the locks: the zone lock, the pcp
 * lock and its trylock, the ring of page pointers a list is, and the CPU
 * a thread runs on.
 */
#ifndef PP_ALLOC_PCP_H
#define PP_ALLOC_PCP_H

#include "debug.h"

/* --- locks ------------------------------------------------------------- */

static inline void pp_zone_lock(struct pp_zone *zone)
{
	int err = pthread_mutex_lock(&zone->lock);

	if (unlikely(err))
		pp_die("pthread_mutex_lock: error %d", err);
}

static inline void pp_zone_unlock(struct pp_zone *zone)
{
	int err = pthread_mutex_unlock(&zone->lock);

	if (unlikely(err))
		pp_die("pthread_mutex_unlock: error %d", err);
}

static inline bool pp_pcp_trylock_raw(struct pp_pcp *pcp)
{
	/* Test first so a held lock costs a shared read, not a line steal. */
	if (atomic_load_explicit(&pcp->lock, memory_order_relaxed))
		return false;
	return !atomic_exchange_explicit(&pcp->lock, 1, memory_order_acquire);
}

/*
 * The hot paths' trylock.  With PAGEPOOL_FAULT=trylock=P it also fails P %
 * of the time (the field shares the lock's cache line: one extra test).
 */
static inline bool pp_pcp_trylock(struct pp_pcp *pcp)
{
	if (unlikely(pcp->fault_trylock) &&
	    pp_fault_trylock_hit(pcp->fault_trylock))
		return false;
	return pp_pcp_trylock_raw(pcp);
}

static inline void pp_pcp_unlock(struct pp_pcp *pcp)
{
	atomic_store_explicit(&pcp->lock, 0, memory_order_release);
}

/*
 * For the straight-line fast paths, whose only calls are tail calls: with
 * fault injection on it fails, so the general path (pp_pcp_trylock())
 * decides, and no call into the fault code is compiled in here.
 */
static inline bool pp_pcp_trylock_fast(struct pp_pcp *pcp)
{
	return likely(!pcp->fault_trylock) && pp_pcp_trylock_raw(pcp);
}

void pp_pcp_lock_slow(struct pp_pcp *pcp);

/* --- the pcp ring ----------------------------------------------------- */

static inline uint64_t pp_pcp_state(const struct pp_pcp *pcp)
{
	return atomic_load_explicit(&((struct pp_pcp *)pcp)->state,
				    memory_order_relaxed);
}

/* Pages on the list: exact for its owner, a snapshot for anyone else. */
static inline unsigned int pp_pcp_count(const struct pp_pcp *pcp)
{
	return (uint32_t)pp_pcp_state(pcp);
}

static inline unsigned int pp_pcp_top(const struct pp_pcp *pcp)
{
	return (uint32_t)(pp_pcp_state(pcp) >> 32);
}

/* The list's owner sets both ends at once (one store: racy readers). */
static inline void pp_pcp_set(struct pp_pcp *pcp, unsigned int top,
			      unsigned int count)
{
	atomic_store_explicit(&pcp->state, ((uint64_t)top << 32) | count,
			      memory_order_relaxed);
}

/* Onto the hot end; returns the new count.  The owner counts PGFREE. */
static inline unsigned int pp_pcp_push(struct pp_pcp *pcp,
				       struct pp_page *page)
{
	uint64_t st = pp_pcp_state(pcp);
	unsigned int top = (uint32_t)(st >> 32);

	pcp->ring[top & pcp->mask] = page;
	pp_pcp_set(pcp, top + 1, (uint32_t)st + 1);
	return (uint32_t)st + 1;
}

/* Off the hot end; the caller knows the list is not empty. */
static inline struct pp_page *pp_pcp_pop(struct pp_pcp *pcp)
{
	uint64_t st = pp_pcp_state(pcp);
	unsigned int top = (uint32_t)(st >> 32) - 1;

	pp_pcp_set(pcp, top, (uint32_t)st - 1);
	return pcp->ring[top & pcp->mask];
}

/*
 * The CPU this thread runs on.  glibc 2.35+ registers an rseq area per
 * thread, and the kernel keeps its cpu_id current on every return to user
 * space: one TLS load, where sched_getcpu() costs a call through the PLT
 * (about 3 ns here, twice per alloc + put).  Without rseq (older glibc,
 * glibc.pthread.rseq=0, valgrind) cpu_id is negative: ask glibc.
 */
static inline int pp_cpu_id(void)
{
#ifdef PP_HAVE_RSEQ
	const struct rseq *rs = (const struct rseq *)
		((char *)__builtin_thread_pointer() + __rseq_offset);
	int cpu = (int)__atomic_load_n(&rs->cpu_id, __ATOMIC_RELAXED);

	if (likely(cpu >= 0))
		return cpu;
#endif
	return sched_getcpu();
}

/* This thread's CPU as an index of the pool's per-CPU arrays. */
static inline unsigned int pp_this_cpu(const struct pp_pool *pool)
{
	int cpu = pp_cpu_id();

	if (unlikely(cpu < 0 || (unsigned int)cpu >= pool->nr_cpus))
		cpu = cpu < 0 ? 0 : (int)((unsigned int)cpu % pool->nr_cpus);
	return (unsigned int)cpu;
}

/* numa_node_id(): the node of the CPU this thread runs on. */
static inline unsigned int pp_numa_node_id(const struct pp_pool *pool)
{
	if (likely(pool->nr_nodes == 1))
		return 0;
	return pool->cpu_node[pp_this_cpu(pool)];
}

/*
 * The zone of the node this thread's CPU belongs to (numa_node_id()'s
 * zone): the first of its zonelist.
 */
static inline struct pp_zone *pp_local_zone(struct pp_pool *pool)
{
	return &pool->zones[pp_numa_node_id(pool)];
}

/*
 * @zone's pcp list of the CPU this thread runs on.  Always inlined: once
 * the bulk core had one exit for both pcp implementations, GCC called an
 * out-of-line copy from it (callgrind: +15 instructions a 64-page call).
 */
static inline __attribute__((always_inline))
struct pp_pcp *pp_zone_this_pcp(struct pp_pool *pool, struct pp_zone *zone)
{
	int cpu = pp_cpu_id();

	if (unlikely(cpu < 0 || (unsigned int)cpu >= pool->nr_cpus))
		cpu = cpu < 0 ? 0 : (int)((unsigned int)cpu % pool->nr_cpus);
	return &zone->pcp[cpu];
}

/* The local zone's pcp list of the CPU this thread runs on. */
static inline struct pp_pcp *pp_this_pcp(struct pp_pool *pool)
{
	return pp_zone_this_pcp(pool, pp_local_zone(pool));
}

#endif /* PP_ALLOC_PCP_H */
