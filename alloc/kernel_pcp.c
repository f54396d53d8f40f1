/* SPDX-License-Identifier: MIT */
/*
 * The kernel profile's pcp lists (threaded through page->lru, one per
 * migratetype), their refill from the buddy lists (rmqueue_bulk()) and
 * drain back (free_pcppages_bulk()), the per-CPU vmstat differentials
 * (__mod_zone_page_state(), __inc_numa_state(), zone_statistics()), and
 * the pool's kernel-side setup: zonelists, the mem_section table with
 * its pageblock bitmaps, memmap_init's page flags.
 */
#include "kernel_pcp.h"
#include "kernel_rseq.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#if !defined(__x86_64__) && !defined(__aarch64__)
_Thread_local unsigned long ppk_irq_flags;
#endif

static inline uint64_t ppk_list_word(const struct ppk_list *l)
{
	return __atomic_load_n(&l->word, __ATOMIC_RELAXED);
}

static inline void ppk_list_set(struct ppk_list *l, uint64_t word)
{
	__atomic_store_n(&l->word, word, __ATOMIC_RELAXED);
}

unsigned int ppk_pcp_count(const struct pp_pcp *pcp)
{
	unsigned int n = 0;

	for (int mt = 0; mt < PPK_MIGRATE_PCPTYPES; mt++)
		n += ppk_word_count(ppk_list_word(&pcp->k.lists[mt]));
	return n;
}

/* --- the lists, by their owner under the pcp lock (or stopped) ---------- */

/*
 * list_add()'s checks for the chain @first (@k pages linked through
 * lru.next) going in at a list's head before @old (its first page, or
 * NULL when empty or not known).  Without @old the last page has no
 * neighbour to check, so a single page pushed by an rseq section (which
 * reads the first page inside the section) checks nothing and makes no
 * call.
 */
static void ppk_pcp_chain_add_check(const struct pp_page *first,
				    unsigned long k,
				    const struct pp_page *old)
{
	const struct pp_page *p = first;
	unsigned long n = k;

	if (!old && n)
		n--;	/* the last page's neighbour is not known */
	for (unsigned long i = 0; i < n; i++) {
		const struct pp_page *next = i + 1 < k ?
			pp_lru_to_page(p->lru.next) : old;

		ppk_pcp_list_add_check(p, next);
		p = next;
	}
}

#ifdef PP_RSEQ_PCP
/*
 * list_del()'s checks for @k pages an rseq section took (@dst, in the
 * order taken): the links among them are exact and theirs now; the link
 * to the page left first (or last) on the list may be changed by
 * another thread of the CPU once the section committed, so it is not
 * checked.
 */
static void ppk_pcp_taken_check(struct pp_page *const *dst, long k,
				bool tail)
{
	for (long i = 0; i < k; i++) {
		const struct pp_page *nb = i + 1 < k ? dst[i + 1] : NULL;

		if (tail)
			ppk_pcp_list_del_check(dst[i], nb, NULL);
		else
			ppk_pcp_list_del_check(dst[i], NULL, nb);
	}
}
#endif

/*
 * __rmqueue_pcplist()'s list_first_entry() and list_del(), up to @n
 * times: the kernel's stores, the next page's lru.prev included.
 */
static unsigned int ppk_list_take_locked(struct pp_pool *pool,
					 struct ppk_list *l,
					 struct pp_page **dst, unsigned long n)
{
	uint64_t w = ppk_list_word(l);
	unsigned int count = ppk_word_count(w);
	unsigned int k = n < count ? (unsigned int)n : count;
	struct pp_page *p = pool->mem_map + ppk_word_pfn(w);

	for (unsigned int i = 0; i < k; i++) {
		struct pp_page *next = i + 1 < count ?
				       pp_lru_to_page(p->lru.next) : NULL;

		if (unlikely(pool->debug_list))
			ppk_pcp_list_del_check(p, NULL, next);
		dst[i] = p;
		if (next) {
			p = next;
			p->lru.prev = ppk_list_head(l);
		}
	}
	if (k)
		ppk_list_set(l, ppk_word(count - k,
					 count > k ? pp_pfn(pool, p) : 0));
	return k;
}

/* list_add() of the chain @first .. @last at the head; returns pcp->count. */
static unsigned int ppk_list_add_locked(struct pp_pool *pool,
					struct pp_pcp *pcp, struct ppk_list *l,
					struct pp_page *first,
					struct pp_page *last, unsigned long k)
{
	uint64_t w = ppk_list_word(l);
	unsigned int count = ppk_word_count(w);

	if (unlikely(pool->debug_list))
		ppk_pcp_chain_add_check(first, k, count ? pool->mem_map +
					ppk_word_pfn(w) : NULL);
	if (count) {
		struct pp_page *old = pool->mem_map + ppk_word_pfn(w);

		last->lru.next = &old->lru;
		old->lru.prev = &last->lru;
	} else {
		l->tail = last;
	}
	ppk_list_set(l, ppk_word(count + (unsigned int)k, pp_pfn(pool, first)));
	return ppk_pcp_count(pcp);
}

/* free_pcppages_bulk()'s list_last_entry() and list_del(), up to @n times. */
static unsigned int ppk_list_take_tail_locked(struct pp_pool *pool,
					      struct ppk_list *l,
					      struct pp_page **dst,
					      unsigned long n)
{
	uint64_t w = ppk_list_word(l);
	unsigned int count = ppk_word_count(w);
	unsigned int k = n < count ? (unsigned int)n : count;
	struct pp_page *p = l->tail;

	for (unsigned int i = 0; i < k; i++) {
		struct pp_page *prev = i + 1 < count ?
				       pp_lru_to_page(p->lru.prev) : NULL;

		if (unlikely(pool->debug_list))
			ppk_pcp_list_del_check(p, prev, NULL);
		dst[i] = p;
		if (prev)
			p = prev;
	}
	if (k == count) {
		ppk_list_set(l, 0);
		l->tail = NULL;
	} else if (k) {
		p->lru.next = ppk_list_head(l);
		l->tail = p;
		ppk_list_set(l, ppk_word(count - k, ppk_word_pfn(w)));
	}
	return k;
}

/* --- the same through rseq sections, or the locked pcp ------------------ */

/*
 * Up to @n pages of list @mt of this CPU's rseq pcp of @zone into @dst,
 * from its head (the allocator's end) or, @tail, its tail (a drain's):
 * the number taken (*@cpu_out the list's CPU), or -1 when the list is
 * stopped or the CPU has none.  @clear: see ppk_pcp_take().
 */
static inline __attribute__((always_inline))
long ppk_rseq_pcp_take(struct pp_pool *pool, struct pp_zone *zone, int mt,
		       struct pp_page **dst, unsigned long n, bool clear,
		       unsigned int *cpu_out, const bool tail)
{
#ifdef PP_RSEQ_PCP
	struct rseq *rs = pp_rseq_area();

	for (;;) {
		int cpu = pp_rseq_cpu(rs);
		struct pp_pcp *pcp;
		long k;

		if (unlikely((unsigned int)cpu >= pool->nr_cpus))
			return -1;
		pcp = &zone->pcp[cpu];
		k = tail ? ppk_rseq_take_tail(rs, pcp, cpu, &pcp->k.lists[mt],
					      dst, n) :
			   ppk_rseq_take(rs, pcp, cpu, &pcp->k.lists[mt],
					 pool->mem_map, dst, n);
		if (likely(k >= 0)) {
			*cpu_out = (unsigned int)cpu;
			if (unlikely(pool->debug_list))
				ppk_pcp_taken_check(dst, k, tail);
			return k;
		}
		if (k == PP_RSEQ_STOPPED)
			return -1;
		pp_count(pool, tail ? PP_PCP_RESTART_DRAIN :
			 n == 1 ? PP_PCP_RESTART_ALLOC :
			 PP_PCP_RESTART_BULK_ALLOC, 1);
		if (clear)
			memset(dst, 0, n * sizeof(*dst));
	}
#else
	(void)pool, (void)zone, (void)mt, (void)dst, (void)n, (void)clear,
	(void)cpu_out, (void)tail;
	return -1;
#endif
}

long ppk_pcp_take(struct pp_pool *pool, struct pp_zone *zone,
		  struct pp_pcp *locked, int mt, struct pp_page **dst,
		  unsigned long n, bool clear, unsigned int *cpu_out)
{
	if (locked) {
		*cpu_out = locked->cpu;
		return ppk_list_take_locked(pool, &locked->k.lists[mt], dst, n);
	}
	return ppk_rseq_pcp_take(pool, zone, mt, dst, n, clear, cpu_out,
				 false);
}

/*
 * The chain's pages become free pcp pages of @cpu, and its ends point at
 * the list head, as list_add() leaves the first page's lru.prev (the
 * last page's lru.next is the next page's, or the head's).
 */
static void ppk_mark_chain(struct ppk_list *l, struct pp_page *first,
			   struct pp_page *last, unsigned long k,
			   unsigned int cpu)
{
	struct pp_page *p = first;

	for (unsigned long i = 0; i < k; i++) {
		pp_set_page_state(p, PP_PAGE_PCP);
		p->pcp_cpu = cpu;
		if (i + 1 < k)
			p = pp_lru_to_page(p->lru.next);
	}
	first->lru.prev = ppk_list_head(l);
	last->lru.next = ppk_list_head(l);
}

long ppk_pcp_add(struct pp_pool *pool, struct pp_zone *zone,
		 struct pp_pcp *locked, int mt, struct pp_page *first,
		 struct pp_page *last, unsigned long k)
{
	if (locked) {
		struct ppk_list *l = &locked->k.lists[mt];

		ppk_mark_chain(l, first, last, k, locked->cpu);
		return ppk_list_add_locked(pool, locked, l, first, last, k);
	}
#ifdef PP_RSEQ_PCP
	struct rseq *rs = pp_rseq_area();
	int marked = -1;

	/* The list's first page is read inside the section: not checked. */
	if (unlikely(pool->debug_list))
		ppk_pcp_chain_add_check(first, k, NULL);

	for (;;) {
		int cpu = pp_rseq_cpu(rs);
		struct pp_pcp *pcp;
		long r;

		if (unlikely((unsigned int)cpu >= pool->nr_cpus))
			return -1;
		pcp = &zone->pcp[cpu];
		if (cpu != marked) {
			ppk_mark_chain(&pcp->k.lists[mt], first, last, k,
				       (unsigned int)cpu);
			marked = cpu;
		}
		r = ppk_rseq_add(rs, pcp, cpu, &pcp->k.lists[mt],
				 pool->mem_map, first, last, k);
		if (likely(r > 0))
			return r;
		if (r == PP_RSEQ_STOPPED)
			return -1;
		pp_count(pool, k == 1 ? PP_PCP_RESTART_FREE :
			 PP_PCP_RESTART_BULK_FREE, 1);
	}
#else
	return -1;
#endif
}

/*
 * Up to @n pages off the tail of list @mt of this CPU's rseq pcp of @zone
 * (*@cpu_out that CPU).
 */
static long ppk_pcp_take_tail(struct pp_pool *pool, struct pp_zone *zone,
			      int mt, struct pp_page **dst, unsigned long n,
			      unsigned int *cpu_out)
{
	return ppk_rseq_pcp_take(pool, zone, mt, dst, n, false, cpu_out, true);
}

/* --- counters ------------------------------------------------------------ */

/* zone_page_state_add(): a folded differential into the zone and the pool. */
static void ppk_zone_page_state_add(struct pp_pool *pool, struct pp_zone *zone,
				    enum ppk_zone_stat item, long x)
{
	atomic_fetch_add_explicit(&ppk_zone(pool, zone)->vm_stat[item], x,
				  memory_order_relaxed);
	atomic_fetch_add_explicit(&pool->k->vm_zone_stat[item], x,
				  memory_order_relaxed);
}

void ppk_mod_zone_page_state(struct pp_pool *pool, struct pp_zone *zone,
			     enum ppk_zone_stat item, long delta)
{
	struct pp_pcp *pcp;
	int8_t old, nv;
	long x;

#ifdef PP_RSEQ_PCP
	if (pool->pcp_rseq) {
		struct rseq *rs = pp_rseq_area();

		for (;;) {
			int cpu = pp_rseq_cpu(rs);
			long fold;

			/*
			 * A CPU without a list of its own: the list it
			 * shares is CPU (cpu % nr_cpus)'s, whose
			 * differentials that CPU's sections store without
			 * a compare-and-swap.  Straight to the zone.
			 */
			if (unlikely((unsigned int)cpu >= pool->nr_cpus)) {
				ppk_zone_page_state_add(pool, zone, item,
							delta);
				return;
			}
			pcp = &zone->pcp[cpu];
			if (likely(!ppk_rseq_mod_diff8(rs, cpu,
					&pcp->k.vm_stat_diff[item], (int)delta,
					pcp->k.stat_threshold, &fold))) {
				if (fold)
					ppk_zone_page_state_add(pool, zone,
								item, fold);
				return;
			}
			pp_count(pool, PP_PCP_RESTART_COUNT, 1);
		}
	}
#endif
	/*
	 * The lock implementation: another thread may use this CPU's
	 * differentials under another zone's pcp lock, so the
	 * read-modify-write is a compare-and-swap.
	 */
	pcp = &zone->pcp[pp_this_cpu(pool)];
	old = __atomic_load_n(&pcp->k.vm_stat_diff[item], __ATOMIC_RELAXED);
	do {
		x = old + delta;
		nv = (int8_t)(labs(x) > pcp->k.stat_threshold ? 0 : x);
	} while (!__atomic_compare_exchange_n(&pcp->k.vm_stat_diff[item], &old,
					      nv, true, __ATOMIC_RELAXED,
					      __ATOMIC_RELAXED));
	if (labs(x) > pcp->k.stat_threshold)
		ppk_zone_page_state_add(pool, zone, item, x);
}

/* __inc_numa_state(): @n more @item of @zone on this CPU (5.13: n is 1). */
static void ppk_inc_numa_state(struct pp_pool *pool, struct pp_zone *zone,
			       enum pp_numa_stat item, unsigned int n)
{
	struct pp_pcp *pcp;
	uint16_t old, nv;
	long fold;

#ifdef PP_RSEQ_PCP
	if (pool->pcp_rseq) {
		struct rseq *rs = pp_rseq_area();

		for (;;) {
			int cpu = pp_rseq_cpu(rs);

			/* No list of its own: as in the function above. */
			if (unlikely((unsigned int)cpu >= pool->nr_cpus)) {
				fold = n;
				goto folded;
			}
			pcp = &zone->pcp[cpu];
			fold = ppk_rseq_add_diff16(rs, cpu,
					&pcp->k.vm_numa_stat_diff[item], n,
					PPK_NUMA_STATS_THRESHOLD);
			if (likely(fold >= 0))
				goto folded;
			pp_count(pool, PP_PCP_RESTART_COUNT, 1);
		}
	}
#endif
	pcp = &zone->pcp[pp_this_cpu(pool)];
	old = __atomic_load_n(&pcp->k.vm_numa_stat_diff[item],
			      __ATOMIC_RELAXED);
	do {
		fold = old + n > PPK_NUMA_STATS_THRESHOLD ? old + n : 0;
		nv = (uint16_t)(old + n - fold);
	} while (!__atomic_compare_exchange_n(&pcp->k.vm_numa_stat_diff[item],
					      &old, nv, true,
					      __ATOMIC_RELAXED,
					      __ATOMIC_RELAXED));
#ifdef PP_RSEQ_PCP
folded:
#endif
	if (unlikely(fold)) {
		atomic_fetch_add_explicit(&ppk_zone(pool, zone)->
					  vm_numa_stat[item], fold,
					  memory_order_relaxed);
		atomic_fetch_add_explicit(&pool->k->vm_numa_stat[item], fold,
					  memory_order_relaxed);
	}
}

void ppk_zone_statistics(struct pp_pool *pool, struct pp_zone *preferred,
			 struct pp_zone *z, unsigned int n)
{
	enum pp_numa_stat local_stat = PP_NUMA_LOCAL;

	if (ppk_zone_to_nid(z) != pp_numa_node_id(pool))
		local_stat = PP_NUMA_OTHER;
	if (ppk_zone_to_nid(z) == ppk_zone_to_nid(preferred)) {
		ppk_inc_numa_state(pool, z, PP_NUMA_HIT, n);
	} else {
		ppk_inc_numa_state(pool, z, PP_NUMA_MISS, n);
		ppk_inc_numa_state(pool, preferred, PP_NUMA_FOREIGN, n);
	}
	ppk_inc_numa_state(pool, z, local_stat, n);
}

/* --- between the pcp and the buddy lists ------------------------------- */

void ppk_bad_page_state(const struct pp_pool *pool, const struct pp_page *page,
			const char *call, uint64_t check_flags)
{
	const char *reason = "page_flags corrupted";

	if (page->mapcount)
		reason = "nonzero mapcount";
	else if (page->mapping)
		reason = "non-NULL mapping";
	else if (__atomic_load_n(&page->refcount, __ATOMIC_RELAXED))
		reason = "nonzero _refcount";
	else if (page->page_flags & PPK_PG(hwpoison) & check_flags)
		reason = "HWPoisoned (hardware-corrupted)";
	else if (page->page_flags & check_flags)
		reason = check_flags == PPK_PAGE_FLAGS_CHECK_AT_FREE ?
			 "PAGE_FLAGS_CHECK_AT_FREE flag(s) set" :
			 "PAGE_FLAGS_CHECK_AT_PREP flag(s) set";
	else if (page->memcg)
		reason = "page still charged to cgroup";
	pp_bad_page(pool, page, call, reason);
}

/*
 * free_one_page(): a block straight to @zone's buddy lists under the zone
 * lock (the pcp list could not be had, or order > 0).  PGFREE is the
 * caller's.
 */
void ppk_free_one_page(struct pp_pool *pool, struct pp_zone *zone,
		       struct pp_page *page, unsigned int order, int mt)
{
	pp_zone_lock(zone);
	pp_set_page_state(page, PP_PAGE_NONE);
	pp_free_one_page_locked(pool, zone, page, order);
	/* __free_one_page()'s __mod_zone_freepage_state() */
	ppk_mod_zone_page_state(pool, zone, PPK_NR_FREE_PAGES, 1L << order);
	pp_zone_unlock(zone);
	pp_count(pool, PP_ZONE_LOCK, 1);
	(void)mt;
}

unsigned int ppk_rmqueue_bulk(struct pp_pool *pool, struct pp_zone *zone,
			      struct pp_pcp *locked, int mt,
			      unsigned int count, const char *call)
{
	struct pp_page *first = NULL, *last = NULL;
	unsigned int i, alloced = 0;
	long added = 0;

	pp_zone_lock(zone);
	count = pp_fault_buddy_clamp(zone, count);
	for (i = 0; i < count; i++) {
		/* __rmqueue() */
		struct pp_page *page = pp_rmqueue_bulk_one(pool, zone, mt);

		if (unlikely(!page))
			break;
		ppk_set_pcppage_migratetype(page, mt);
		/* check_pcp_refill(): a bad page is reported (and aborts). */
		ppk_check_new_page(pool, page, call);
		/* list_add_tail(): the chain in the order the pages came. */
		if (last) {
			last->lru.next = &page->lru;
			page->lru.prev = &last->lru;
		} else {
			first = page;
		}
		last = page;
		alloced++;
	}
	pp_zone_sub_free(zone, i);
	ppk_mod_zone_page_state(pool, zone, PPK_NR_FREE_PAGES, -(long)i);
	/*
	 * Onto the list, the zone lock still held: the list was empty when
	 * the caller looked; with rseq another thread of this CPU may have
	 * freed to it since, and the chain goes in front of its pages.
	 */
	if (alloced)
		added = ppk_pcp_add(pool, zone, locked, mt, first, last,
				    alloced);
	if (unlikely(added < 0)) {
		/* The list was stopped: back where they came from. */
		struct pp_page *p = first;

		for (i = 0; i < alloced; i++) {
			struct pp_page *next = pp_lru_to_page(p->lru.next);

			pp_set_page_state(p, PP_PAGE_NONE);
			pp_free_one_page_locked(pool, zone, p, 0);
			p = next;
		}
		ppk_mod_zone_page_state(pool, zone, PPK_NR_FREE_PAGES,
					alloced);
		alloced = 0;
	}
	pp_zone_unlock(zone);
	pp_count(pool, PP_ZONE_LOCK, 1);
	pp_count(pool, PP_PCP_REFILL, 1);
	pp_count(pool, PP_PCP_REFILL_PAGES, alloced);
	return alloced;
}

/* Pages a drain takes off a list per step (on the stack). */
#define PPK_DRAIN_CHUNK	64U

/*
 * free_pcppages_bulk(): @count pages off the tails of the lists, round
 * robin over the migratetypes from the one after the last (5.13: lists
 * 1, 2, 0; the only non-empty list gives all), checked, gathered on a
 * list of our own, then given to @zone's buddy lists under one hold of
 * the zone lock.  @pcp: a pcp the caller holds (its lock, or stopped for
 * a remote drain), whose lists plain code changes; NULL: the rseq lists
 * of the CPU the thread runs on, a section per run.  The thread can move
 * to another CPU between two sections: the lists it looks at are then
 * those of the CPU its last section ran on, and a section that finds its
 * list empty (the thread moved, or another on the CPU took the pages)
 * ends the drain with what it has, so that it always ends.
 */
void ppk_free_pcppages_bulk(struct pp_pool *pool, struct pp_zone *zone,
			    struct pp_pcp *pcp, unsigned int count)
{
	struct pp_list_head head = PP_LIST_HEAD_INIT(head);
	struct pp_page *buf[PPK_DRAIN_CHUNK];
	struct pp_pcp *view = pcp ? pcp : &zone->pcp[pp_this_cpu(pool)];
	unsigned int batch = zone->pcp[0].batch, batch_free = 0;
	unsigned int prefetch_nr = 0, done = 0, total = ppk_pcp_count(view);
	int migratetype = 0;

	if (count > total)
		count = total;
	while (count) {
		struct ppk_list *l;
		unsigned int empty = 0;

		do {
			batch_free++;
			if (++migratetype == PPK_MIGRATE_PCPTYPES)
				migratetype = 0;
			l = &view->k.lists[migratetype];
		} while (!ppk_word_count(ppk_list_word(l)) &&
			 ++empty < PPK_MIGRATE_PCPTYPES);
		if (empty == PPK_MIGRATE_PCPTYPES)
			break;		/* emptied meanwhile (rseq) */
		/* This is the only non-empty list: free them all. */
		if (batch_free == PPK_MIGRATE_PCPTYPES)
			batch_free = count;
		do {
			unsigned int want = count < batch_free ? count :
					    batch_free, cpu;
			long k;

			if (want > PPK_DRAIN_CHUNK)
				want = PPK_DRAIN_CHUNK;
			k = pcp ? (long)ppk_list_take_tail_locked(pool, l, buf,
								  want) :
				  ppk_pcp_take_tail(pool, zone, migratetype,
						    buf, want, &cpu);
			/* Stopped by a drain, or (rseq) nothing there. */
			if (k <= 0)
				goto taken;
			if (!pcp && unlikely(cpu != view->cpu)) {
				view = &zone->pcp[cpu];
				l = &view->k.lists[migratetype];
			}
			for (long i = 0; i < k; i++) {
				struct pp_page *page = buf[i];

				if (unlikely(pool->debug) &&
				    pp_page_state(page) != PP_PAGE_PCP)
					pp_bad_page(pool, page,
						    "free_pcppages_bulk",
						    "free list corruption: "
						    "page on a pcp list is "
						    "not a free pcp page");
				/* bulkfree_pcp_prepare() */
				ppk_check_free_page(pool, page,
						    "free_pcppages_bulk");
				if (unlikely(pool->debug_list))
					ppk_list_add_valid(&page->lru,
							   head.prev, &head);
				pp_list_add_tail(&page->lru, &head);
				/* prefetch_buddy(), the first batch pages */
				if (prefetch_nr++ < batch)
					__builtin_prefetch(&pool->mem_map[
						pp_pfn(pool, page) ^ 1]);
			}
			count -= (unsigned int)k;
			batch_free -= (unsigned int)k;
			done += (unsigned int)k;
		} while (count && batch_free &&
			 ppk_word_count(ppk_list_word(l)));
	}
taken:
	if (!done)
		return;
	pp_zone_lock(zone);
	/* has_isolate_pageblock(): no pageblock is ever isolated here. */
	while (!pp_list_empty(&head)) {
		struct pp_page *page = pp_lru_to_page(head.next);
		int mt = ppk_get_pcppage_migratetype(page);

		if (unlikely(pool->debug_list))
			ppk_list_del_entry_valid(&page->lru);
		pp_list_del(&page->lru);
		pp_set_page_state(page, PP_PAGE_NONE);
		pp_free_one_page_locked(pool, zone, page, 0);
		ppk_mod_zone_page_state(pool, zone, PPK_NR_FREE_PAGES, 1);
		pp_trace(mm_page_pcpu_drain, pp_pfn(pool, page), 0, mt);
	}
	pp_zone_unlock(zone);
	pp_count(pool, PP_ZONE_LOCK, 1);
	pp_count(pool, PP_PCP_DRAIN, 1);
	pp_count(pool, PP_PCP_DRAIN_PAGES, done);
}

/* drain_pages_zone(): @pcp, stopped by the caller, emptied. */
void ppk_drain_pcp(struct pp_pool *pool, struct pp_zone *zone,
		   struct pp_pcp *pcp)
{
	unsigned int count = ppk_pcp_count(pcp);

	if (count)
		ppk_free_pcppages_bulk(pool, zone, pcp, count);
}

/* --- reading the counters ------------------------------------------------ */

unsigned long ppk_zone_free_folded(const struct pp_pool *pool,
				   const struct pp_zone *zone)
{
	long x = atomic_load_explicit(
		&ppk_zone(pool, zone)->vm_stat[PPK_NR_FREE_PAGES],
		memory_order_relaxed);

	return x < 0 ? 0 : (unsigned long)x;	/* zone_page_state() */
}

void ppk_node_numa(const struct pp_pool *pool, const struct pp_zone *zone,
		   uint64_t *numa)
{
	for (unsigned int i = 0; i < PPK_NR_NUMA_DIFFS; i++) {
		int64_t v = atomic_load_explicit(
			&ppk_zone(pool, zone)->vm_numa_stat[i],
			memory_order_relaxed);

		for (unsigned int cpu = 0; cpu < pool->nr_cpus; cpu++)
			v += __atomic_load_n(&zone->pcp[cpu].k.
					     vm_numa_stat_diff[i],
					     __ATOMIC_RELAXED);
		numa[i] = (uint64_t)v;
	}
	if (zone->numa)
		for (unsigned int cpu = 0; cpu < pool->nr_cpus; cpu++)
			numa[PP_NUMA_BULK_FALLBACK_REMOTE] +=
				atomic_load_explicit(&zone->numa[cpu].ev[
					PP_NUMA_BULK_FALLBACK_REMOTE],
					memory_order_relaxed);
}

/* --- setup ----------------------------------------------------------------- */

static int ppk_fls(unsigned long x)
{
	return x ? (int)(8 * sizeof(x)) - __builtin_clzl(x) : 0;
}

/*
 * calculate_normal_threshold(): the differentials' fold threshold grows
 * with the CPUs and the zone's size (in 128 MiB units), at most 125.
 */
static int8_t ppk_stat_threshold(const struct pp_pool *pool,
				 const struct pp_zone *zone)
{
	unsigned long mem = zone->nr_pages >> (27 - PP_PAGE_SHIFT);
	int threshold = 2 * ppk_fls(pool->nr_cpus) * (1 + ppk_fls(mem));

	return (int8_t)(threshold < 125 ? threshold : 125);
}

/*
 * build_zonelists(): each node's fallback list, its own zone first and
 * the others by distance (the pool's zonelist order), and its no-fallback
 * list (__GFP_THISNODE), each ended by a NULL zone.
 */
static void ppk_build_zonelists(struct pp_pool *pool, struct ppk_pool *k)
{
	for (unsigned int n = 0; n < pool->nr_nodes; n++) {
		struct ppk_zoneref *fb =
			k->node_zonelists[n][PPK_ZONELIST_FALLBACK].zonerefs;
		struct ppk_zoneref *own =
			k->node_zonelists[n][PPK_ZONELIST_NOFALLBACK].zonerefs;

		for (unsigned int i = 0; i < pool->nr_nodes; i++) {
			fb[i].zone = &pool->zones[pool->zonelist[n][i]];
			fb[i].zone_idx = PPK_ZONE_NORMAL;
		}
		own[0].zone = &pool->zones[n];
		own[0].zone_idx = PPK_ZONE_NORMAL;
	}
}

/*
 * sparse_init(): a mem_section per 2^15 pages, in roots of 256, each with
 * its usemap, every pageblock's migratetype MIGRATE_UNMOVABLE (0).  The
 * kernel starts pageblocks movable and lets unmovable allocations claim
 * them (__rmqueue_fallback()); here every allocation is unmovable and the
 * buddy lists are not split by migratetype, so the pool starts as if all
 * had been claimed.
 */
static int ppk_sparse_init(struct pp_pool *pool, struct ppk_pool *k)
{
	unsigned long sections = (pool->nr_pages + PPK_PAGES_PER_SECTION - 1) >>
				 PPK_PFN_SECTION_SHIFT;

	k->nr_section_roots = (sections + PPK_SECTIONS_PER_ROOT - 1) /
			      PPK_SECTIONS_PER_ROOT;
	k->mem_section = calloc(k->nr_section_roots, sizeof(*k->mem_section));
	if (!k->mem_section)
		return -ENOMEM;
	for (unsigned long r = 0; r < k->nr_section_roots; r++) {
		k->mem_section[r] = calloc(PPK_SECTIONS_PER_ROOT,
					   sizeof(*k->mem_section[r]));
		if (!k->mem_section[r])
			return -ENOMEM;
	}
	for (unsigned long nr = 0; nr < sections; nr++) {
		struct ppk_mem_section *ms =
			&k->mem_section[nr / PPK_SECTIONS_PER_ROOT]
				       [nr % PPK_SECTIONS_PER_ROOT];

		ms->usage = calloc(1, sizeof(*ms->usage));
		if (!ms->usage)
			return -ENOMEM;
		ms->section_mem_map = 1;	/* present */
	}
	return 0;
}

void ppk_pool_teardown(struct pp_pool *pool)
{
	struct ppk_pool *k = pool->k;

	if (!k)
		return;
	for (unsigned long r = 0; k->mem_section && r < k->nr_section_roots;
	     r++) {
		for (unsigned long i = 0; k->mem_section[r] &&
		     i < PPK_SECTIONS_PER_ROOT; i++)
			free(k->mem_section[r][i].usage);
		free(k->mem_section[r]);
	}
	free(k->mem_section);
	free(k);
	pool->k = NULL;
}

int ppk_pool_setup(struct pp_pool *pool)
{
	struct ppk_pool *k;
	int err;

	if (pool->nr_pages > UINT32_MAX)
		return -EINVAL;		/* the lists keep 32-bit pfns */
	k = calloc(1, sizeof(*k));
	if (!k)
		return -ENOMEM;
	pool->k = k;
	err = ppk_sparse_init(pool, k);
	if (err) {
		ppk_pool_teardown(pool);
		return err;
	}
	ppk_build_zonelists(pool, k);
	for (unsigned int nid = 0; nid < pool->nr_nodes; nid++) {
		struct pp_zone *zone = &pool->zones[nid];
		int8_t threshold = ppk_stat_threshold(pool, zone);
		uint64_t flags = (uint64_t)nid << PPK_NODES_PGSHIFT |
				 (uint64_t)PPK_ZONE_NORMAL << PPK_ZONES_PGSHIFT |
				 PPK_LAST_CPUPID_MASK << PPK_LAST_CPUPID_SHIFT;

		atomic_store(&k->zones[nid].vm_stat[PPK_NR_FREE_PAGES],
			     (long)zone->nr_pages);
		atomic_fetch_add(&k->vm_zone_stat[PPK_NR_FREE_PAGES],
				 (long)zone->nr_pages);
		for (unsigned int cpu = 0; cpu < pool->nr_cpus; cpu++)
			zone->pcp[cpu].k.stat_threshold = threshold;
		/*
		 * memmap_init(): set_page_links() and
		 * page_cpupid_reset_last() on every page of the zone.
		 */
		for (unsigned long pfn = zone->start_pfn;
		     pfn < zone->start_pfn + zone->nr_pages; pfn++)
			pool->mem_map[pfn].page_flags = flags;
	}
	return 0;
}
