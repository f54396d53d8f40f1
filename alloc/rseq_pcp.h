/* SPDX-License-Identifier: MIT */
/*
 * The rseq pcp lists as the C paths use them: counting in a section,
 * taking and giving one page with restarts, and pcp.c's slow paths.
 */
#ifndef PP_ALLOC_RSEQ_PCP_H
#define PP_ALLOC_RSEQ_PCP_H

#include "stat.h"

/* --- rseq pcp lists (rseq.h, pcp.c) ------------------------------------- */

/* What a list operation found instead of doing its work. */
enum pp_pcp_miss {
	PP_PCP_EMPTY = 1,	/* nothing on the list */
	PP_PCP_BUSY,		/* stopped by a drain, no list, fault injected */
};

#ifdef PP_RSEQ_PCP
#include "rseq.h"

void pp_rseq_count_slow(struct pp_pool *pool, struct pp_zone *zone,
			enum pp_vm_event ev, uint64_t n);

/*
 * Add @n to counter @ev of @zone's list of @cpu, which the caller just
 * worked on, in an rseq section (a this_cpu_add()); if the thread has
 * moved since, to the counter of the CPU it is on now.
 */
static inline void pp_rseq_count_at(struct pp_pool *pool,
				    struct pp_zone *zone, struct rseq *rs,
				    unsigned int cpu, enum pp_vm_event ev,
				    uint64_t n)
{
	if (likely(!pp_rseq_add(rs, (int)cpu,
				(uint64_t *)&zone->pcp[cpu].events[ev], n)))
		return;
	pp_rseq_count_slow(pool, zone, ev, n);
}

/* The same for the CPU this thread runs on. */
static inline void pp_rseq_count(struct pp_pool *pool, enum pp_vm_event ev,
				 uint64_t n)
{
	struct rseq *rs = pp_rseq_area();
	int cpu = pp_rseq_cpu(rs);

	if (unlikely((unsigned int)cpu >= pool->nr_cpus))
		return pp_count(pool, ev, n);
	/* As pp_count(): on the first zone's lists. */
	pp_rseq_count_at(pool, &pool->zones[0], rs, (unsigned int)cpu, ev, n);
}

/*
 * Take one page off this CPU's list of @zone.  Returns it, with *@cpu_out
 * the list it came from, or NULL with *@miss saying why.
 */
static inline struct pp_page *pp_rseq_alloc_one(struct pp_pool *pool,
						struct pp_zone *zone,
						unsigned int *cpu_out,
						enum pp_pcp_miss *miss)
{
	struct rseq *rs = pp_rseq_area();

	for (;;) {
		int cpu = pp_rseq_cpu(rs);
		long r;

		if (unlikely((unsigned int)cpu >= pool->nr_cpus)) {
			*miss = PP_PCP_BUSY;
			return NULL;
		}
		r = pp_rseq_pop1(rs, &zone->pcp[cpu], cpu);
		if (likely(r > 0)) {
			*cpu_out = (unsigned int)cpu;
			return (struct pp_page *)r;
		}
		if (r == 0) {
			*miss = PP_PCP_EMPTY;
			return NULL;
		}
		if (r == PP_RSEQ_STOPPED) {
			*miss = PP_PCP_BUSY;
			return NULL;
		}
		pp_count(pool, PP_PCP_RESTART_ALLOC, 1);
	}
}

/*
 * Give one page (refcount 0, the caller's) back to this CPU's list of
 * @zone, the page's own.  Returns the list's new count, 0 if the list was
 * busy (the caller frees to the buddy lists), or -1 if it was full
 * (drain, then try again).
 */
static inline long pp_rseq_free_one(struct pp_pool *pool, struct pp_zone *zone,
				    struct pp_page *page)
{
	struct rseq *rs = pp_rseq_area();

	for (;;) {
		int cpu = pp_rseq_cpu(rs);
		long r;

		if (unlikely((unsigned int)cpu >= pool->nr_cpus))
			return 0;
		r = pp_rseq_push1(rs, &zone->pcp[cpu], cpu, page);
		if (likely(r > 0))
			return r;
		if (r == PP_RSEQ_STOPPED)
			return 0;
		if (r == PP_RSEQ_FULL)
			return -1;
		pp_count(pool, PP_PCP_RESTART_FREE, 1);
	}
}

#else
static inline void pp_rseq_count(struct pp_pool *pool, enum pp_vm_event ev,
				 uint64_t n)
{
	pp_count(pool, ev, n);
}

static inline struct pp_page *pp_rseq_alloc_one(struct pp_pool *pool,
						struct pp_zone *zone,
						unsigned int *cpu_out,
						enum pp_pcp_miss *miss)
{
	*miss = PP_PCP_BUSY;
	return NULL;
}

static inline long pp_rseq_free_one(struct pp_pool *pool, struct pp_zone *zone,
				    struct pp_page *page)
{
	return 0;
}

#endif

/* The high mark of this CPU's list (the same on every list). */
static inline unsigned int pp_rseq_high(const struct pp_pool *pool)
{
	return pool->zones[0].pcp[0].high;
}


static inline void pp_ctx_flush_rseq(struct pp_pool *pool,
				     struct pp_alloc_ctx *ac)
{
	for (unsigned int i = 0; i < ac->nr_pending; i++)
		pp_rseq_count(pool, ac->pending[i], 1);
	ac->nr_pending = 0;
}

#ifdef PP_RSEQ_PCP
/*
 * pp_ctx_flush_rseq() on the counters of @zone's list of @cpu (see
 * pp_rseq_count_at()).
 */
static inline void pp_ctx_flush_rseq_at(struct pp_pool *pool,
					struct pp_zone *zone,
					struct rseq *rs, unsigned int cpu,
					struct pp_alloc_ctx *ac)
{
	for (unsigned int i = 0; i < ac->nr_pending; i++)
		pp_rseq_count_at(pool, zone, rs, cpu, ac->pending[i], 1);
	ac->nr_pending = 0;
}
#endif

/* pcp.c: the slow paths and remote access of the rseq lists. */
unsigned int pp_rseq_refill(struct pp_pool *pool, struct pp_zone *zone,
			    const char *call);
void pp_rseq_drain_high(struct pp_pool *pool, struct pp_zone *zone);
unsigned int pp_rseq_free_batch(struct pp_pool *pool, struct pp_zone *zone,
				struct pp_page **pages, unsigned int nr,
				int marked);
void pp_pcp_stop(struct pp_pool *pool, struct pp_pcp *pcp);
void pp_pcp_restart(struct pp_pool *pool, struct pp_pcp *pcp);
int pp_pcp_setup(struct pp_pool *pool, const struct pp_pool_config *cfg);

/*
 * PAGEPOOL_FAULT trylock=P on rseq lists: P % of the operations find the
 * list busy, as a failed trylock would.
 */
static inline bool pp_rseq_fault(const struct pp_pool *pool)
{
	unsigned int p = pool->zones[0].pcp[0].fault_trylock;

	return unlikely(p) && pp_fault_trylock_hit(p);
}

#endif /* PP_ALLOC_RSEQ_PCP_H */
