/* SPDX-License-Identifier: MIT */
/*
 * The free side: references (get/put), the per-CPU free path with its
 * high-watermark drain, batched release, and descriptor conversions.
 */
#include "internal.h"

#include <limits.h>

/*
 * free_pages_prepare(): the block's last reference is gone.  In debug mode,
 * check it was allocated and poison it.
 */
static inline void pp_free_pages_prepare(struct pp_pool *pool,
					 struct pp_page *page,
					 unsigned int order, const char *call)
{
	if (unlikely(pool->debug)) {
		if (pp_page_state(page) != PP_PAGE_INUSE)
			pp_bad_page(pool, page, call,
				    "freeing a page that is not allocated");
		pp_poison_pages(pool, page, order);
	}
	/*
	 * KASAN: the free pages of the buddy backend and of a plugin are
	 * poisoned (ASan build); jemalloc's are its own memory.
	 */
	if (pool->backend_id != PP_BACKEND_JEMALLOC)
		pp_kasan_poison(pool, page, order);
	/* Back to the allocator: the buddy lists, or another backend. */
	pp_set_page_state(page, pp_backend_free_state(pool));
	pp_trace(mm_page_free, pp_pfn(pool, page), order);
}

/*
 * free_one_page(): straight to the buddy lists of the page's zone under
 * the zone lock.
 */
static void pp_free_one_page(struct pp_pool *pool, struct pp_page *page,
			     unsigned int order)
{
	struct pp_zone *zone = pp_page_zone(pool, page);

	pp_zone_lock(zone);
	pp_free_one_page_locked(pool, zone, page, order);
	pp_zone_unlock(zone);
	pp_count(pool, PP_ZONE_LOCK, 1);
	pp_count(pool, PP_PGFREE, 1UL << order);
}

/*
 * The pcp free commit, in one body for every site that writes a page onto
 * a lock implementation's list (the rseq sections do it in rseq.h).  Both
 * helpers are always inlined: each site compiles to the instructions it
 * had with the steps written out in place (where the site passes
 * pcp->cpu, its load now comes before the state store, not after).
 *
 * pp_page_set_pcp(): @page, its last reference gone, now sits on the list
 * of @cpu (the sites that hold @cpu in a register pass that).
 */
static inline __attribute__((always_inline))
void pp_page_set_pcp(struct pp_page *page, unsigned int cpu)
{
	pp_set_page_state(page, PP_PAGE_PCP);
	page->pcp_cpu = cpu;
}

/*
 * One page onto the hot end of @pcp, PGFREE counted.  True when the list
 * reached high: the caller returns a batch to the buddy lists.  @pcp->lock
 * held.
 */
static inline __attribute__((always_inline))
bool pp_pcp_commit_page(struct pp_pcp *pcp, struct pp_page *page)
{
	unsigned int count;

	pp_page_set_pcp(page, pcp->cpu);
	count = pp_pcp_push(pcp, page);
	pp_count_locked(pcp, PP_PGFREE, 1);
	return count >= pcp->high;
}

/*
 * free_unref_page_commit(): onto the hot end of @pcp; at high, return a
 * batch to the buddy lists.  @pcp->lock held.
 */
static inline void pp_free_unref_page_commit(struct pp_pool *pool,
					     struct pp_pcp *pcp,
					     struct pp_page *page)
{
	if (unlikely(pp_pcp_commit_page(pcp, page)))
		pp_free_pcppages_bulk(pool, pcp, pcp->batch);
}

/*
 * The same for @nr pages at once (free_unref_page_list()'s commit loop),
 * with the count and PGFREE settled once per stretch: a stretch stops
 * where the list reaches high, which drains a batch exactly as a
 * page-by-page commit would.  @traced: mm_page_free_batched was enabled
 * when the caller looked.  @pcp->lock held.
 */
static inline void pp_free_unref_pages_commit(struct pp_pool *pool,
					      struct pp_pcp *pcp,
					      struct pp_page **pages,
					      unsigned int nr, bool traced)
{
	unsigned int count = pp_pcp_count(pcp), cpu = pcp->cpu, i = 0;

	while (i < nr) {
		unsigned int k = nr - i;
		unsigned int room = count < pcp->high ? pcp->high - count : 1;

		if (k > room)
			k = room;
		for (unsigned int j = i; j < i + k; j++) {
			struct pp_page *page = pages[j];

			if (unlikely(traced))
				pp_do_trace(mm_page_free_batched,
					    pp_pfn(pool, page));
			pp_page_set_pcp(page, cpu);
			count = pp_pcp_push(pcp, page);
		}
		i += k;
		pp_count_locked(pcp, PP_PGFREE, k);
		if (count >= pcp->high) {
			pp_free_pcppages_bulk(pool, pcp, pcp->batch);
			count = pp_pcp_count(pcp);
		}
	}
}

/*
 * free_unref_page() onto an rseq list (this CPU's of the page's zone):
 * push, and drain a batch at high.  False when the list is busy (stopped
 * by a drain, no list for this CPU, or an injected trylock failure): the
 * caller frees to the buddy lists.
 */
static bool pp_rseq_free_unref_page(struct pp_pool *pool, struct pp_page *page)
{
	struct pp_zone *zone = pp_page_zone(pool, page);
	long count;

	if (pp_rseq_fault(pool))
		return false;
	/* Every ring slot in use (a refill overshot high): drain first. */
	while ((count = pp_rseq_free_one(pool, zone, page)) < 0)
		pp_rseq_drain_high(pool, zone);
	if (!count)
		return false;
	pp_rseq_count(pool, PP_PGFREE, 1);
	if ((unsigned long)count >= pp_rseq_high(pool))
		pp_rseq_drain_high(pool, zone);
	return true;
}

/* free_the_page(): __free_pages() once the refcount is zero. */
static void pp_free_the_page(struct pp_pool *pool, struct pp_page *page,
			  const char *call)
{
	unsigned int order = page->order;
	struct pp_pcp *pcp;

	pp_free_pages_prepare(pool, page, order, call);
	if (unlikely(!pp_pool_buddy(pool))) {
		/* The backend's per-CPU state is guarded by the pcp lock. */
		pcp = pp_this_pcp(pool);
		if (likely(pp_pcp_trylock(pcp))) {
			pp_backend_free_pages(pool, pcp, page, order);
			pp_pcp_unlock(pcp);
			return;
		}
		pp_count(pool, PP_PCP_TRYLOCK_FAIL, 1);
		pp_backend_free_pages(pool, NULL, page, order);
		return;
	}
	if (likely(order == 0) && pool->pcp_rseq) {
		if (likely(pp_rseq_free_unref_page(pool, page)))
			return;
		pp_count(pool, PP_PCP_TRYLOCK_FAIL, 1);
	} else if (likely(order == 0)) {
		pcp = pp_zone_this_pcp(pool, pp_page_zone(pool, page));
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
 *
 * The last reference takes no atomic read-modify-write: if the count is 1
 * the caller holds the only reference, and nobody may take one without
 * holding one (pp_get_page()'s contract), so the count cannot change under
 * us.  page_pool does the same for its last reference
 * (page_pool_unref_netmem()).  It saves a locked instruction per page on
 * every free; a racy double put of a page with one reference is then not
 * always caught (a sequential one still is).
 */
static inline bool pp_put_page_testzero(struct pp_pool *pool,
					struct pp_page *page, const char *call)
{
	if (unlikely(!pp_page_in_pool(pool, page)))
		pp_bad_pointer(pool, page, call);
	if (likely(__atomic_load_n(&page->refcount, __ATOMIC_ACQUIRE) == 1)) {
		__atomic_store_n(&page->refcount, 0, __ATOMIC_RELAXED);
		return true;
	}
	return pp_page_ref_dec_and_test(pool, page, call);
}

void pp_get_page(struct pp_pool *pool, struct pp_page *page)
{
	int old;

	if (unlikely(!pp_page_in_pool(pool, page)))
		pp_bad_pointer(pool, page, "pp_get_page");
	old = __atomic_fetch_add(&page->refcount, 1, __ATOMIC_RELAXED);
	/*
	 * INT_MAX + 1 would wrap to a negative count, which every later get
	 * and put would take for a free page: name the overflow here, where
	 * it happens (the kernel's page_ref_inc() would wrap silently; its
	 * try_get_page() refuses instead).
	 */
	if (unlikely(old <= 0 || old == INT_MAX)) {
		__atomic_fetch_sub(&page->refcount, 1, __ATOMIC_RELAXED);
		pp_bad_page(pool, page, "pp_get_page",
			    old == INT_MAX ?
			    "refcount overflow: 2^31 - 1 references held "
			    "already (a get without a put?)" :
			    old == 0 ? "get of a free page (use after free?)" :
			    "refcount negative: corrupted, or overflowed by "
			    "2^31 references");
	}
}

/* pp_put_page() for everything its fast path does not handle. */
static __attribute__((noinline))
void pp_put_page_slow(struct pp_pool *pool, struct pp_page *page)
{
	if (pool->kernel)
		return ppk_put_page(pool, page);
	if (pp_put_page_testzero(pool, page, "pp_put_page"))
		pp_free_the_page(pool, page, "pp_put_page");
}

#ifdef PP_RSEQ_PCP
/*
 * pp_put_page()'s rseq list was full or busy; the page's last reference
 * is gone already.  Onto a list after a drain, or to the buddy lists.
 */
static __attribute__((noinline))
void pp_put_page_rseq_miss(struct pp_pool *pool, struct pp_page *page)
{
	if (pp_rseq_free_unref_page(pool, page))
		return;
	pp_set_page_state(page, PP_PAGE_NONE);
	pp_count(pool, PP_PCP_TRYLOCK_FAIL, 1);
	pp_free_one_page(pool, page, 0);
}

/*
 * pp_put_page()'s push came back with @r, a PP_RSEQ_* code: an aborted
 * section or a moved thread is a restart, counted, then the push is tried
 * again as pp_put_page_rseq_miss() tries it.
 */
static __attribute__((noinline))
void pp_put_page_rseq_retry(struct pp_pool *pool, struct pp_page *page,
			    long r)
{
	if (r == PP_RSEQ_ABORTED || r == PP_RSEQ_MOVED)
		pp_count(pool, PP_PCP_RESTART_FREE, 1);
	pp_put_page_rseq_miss(pool, page);
}

/*
 * pp_put_page()'s PGFREE section did not commit: count it as
 * pp_rseq_count() does, then the drain at high; @n is the list's count
 * after the push.
 */
static __attribute__((noinline))
void pp_put_page_rseq_recount(struct pp_pool *pool, long n)
{
	struct pp_zone *zone = &pool->zones[0];

	pp_rseq_count_slow(pool, zone, PP_PGFREE, 1);
	if ((unsigned long)n >= pp_rseq_high(pool))
		pp_rseq_drain_high(pool, zone);
}
#endif

/* The fast path's page reached high: drain a batch, then unlock. */
static __attribute__((noinline))
void pp_pcp_drain_unlock(struct pp_pool *pool, struct pp_pcp *pcp)
{
	pp_free_pcppages_bulk(pool, pcp, pcp->batch);
	pp_pcp_unlock(pcp);
}

/*
 * The common case, straight-line: the last reference of an order-0 page,
 * debug checks and the mm_page_free tracepoint off, this CPU's pcp lock
 * taken at the first try.  The same steps and counters as pp_free_the_page();
 * the page's state goes from in-use straight to pcp (nothing reads the
 * transient "none" in between).  Every call out of here is a tail call,
 * so the compiler saves no registers on the way in.
 */
static inline __attribute__((always_inline))
void pp_put_page_inline(struct pp_pool *pool, struct pp_page *page)
{
	struct pp_zone *zone;
	struct pp_pcp *pcp;

	/*
	 * Past pp_pool_slow() debug checks are off, so flags is 0: an
	 * order-0 page in use with one reference is one word (see
	 * pp_page_word()); any other goes the general way.
	 */
	if (unlikely(!pp_page_in_pool(pool, page) || pp_pool_slow(pool) ||
		     pp_page_word_load(page) !=
		     pp_page_word(1, 0, PP_PAGE_INUSE, 0) ||
		     pp_trace_enabled(mm_page_free)))
		return pp_put_page_slow(pool, page);
	/* One node past pp_pool_slow(): the page is the first zone's. */
	zone = &pool->zones[0];
#ifdef PP_RSEQ_PCP
	if (pool->pcp_rseq) {
		struct rseq *rs = pp_rseq_area();
		int cpu = pp_rseq_cpu(rs);
		long n;

		if (unlikely(zone->pcp[0].fault_trylock))
			return pp_put_page_slow(pool, page);
		/* The only reference is ours: see pp_put_page_testzero(). */
		__atomic_store_n(&page->refcount, 0, __ATOMIC_RELAXED);
		pp_trace_usdt(mm_page_free, pp_pfn(pool, page), 0U);
		pp_kasan_poison(pool, page, 0);
		/*
		 * free_unref_page_commit() and PGFREE, a section each; what
		 * does not go straight is finished out of line, as a tail
		 * call, so that this path saves no registers.
		 */
		if (unlikely((unsigned int)cpu >= pool->nr_cpus))
			return pp_put_page_rseq_miss(pool, page);
		n = pp_rseq_push1(rs, &zone->pcp[cpu], cpu, page);
		if (unlikely(n <= 0))
			return pp_put_page_rseq_retry(pool, page, n);
		if (unlikely(pp_rseq_add(rs, cpu, (uint64_t *)
					 &zone->pcp[cpu].events[PP_PGFREE],
					 1)))
			return pp_put_page_rseq_recount(pool, n);
		if (unlikely((unsigned long)n >= pp_rseq_high(pool)))
			return pp_rseq_drain_high(pool, zone);
		return;
	}
#endif
	pcp = pp_zone_this_pcp(pool, zone);
	if (unlikely(!pp_pcp_trylock_fast(pcp)))
		return pp_put_page_slow(pool, page);
	/* The only reference is ours: see pp_put_page_testzero(). */
	__atomic_store_n(&page->refcount, 0, __ATOMIC_RELAXED);
	pp_trace_usdt(mm_page_free, pp_pfn(pool, page), 0U);
	pp_kasan_poison(pool, page, 0);
	if (unlikely(pp_pcp_commit_page(pcp, page)))
		return pp_pcp_drain_unlock(pool, pcp);
	pp_pcp_unlock(pcp);
}

void pp_put_page(struct pp_pool *pool, struct pp_page *page)
{
	pp_put_page_inline(pool, page);
}

/*
 * The pcp trylock failed: @nr prepared pages, all of @zone, straight to its
 * buddy lists.
 */
static void pp_free_pages_batch_buddy(struct pp_pool *pool,
				      struct pp_zone *zone,
				      struct pp_page **pages, unsigned int nr,
				      bool traced)
{
	pp_zone_lock(zone);
	for (unsigned int i = 0; i < nr; i++) {
		if (traced)
			pp_do_trace(mm_page_free_batched,
				    pp_pfn(pool, pages[i]));
		pp_free_one_page_locked(pool, zone, pages[i], 0);
	}
	pp_zone_unlock(zone);
	pp_count(pool, PP_ZONE_LOCK, 1);
	pp_count(pool, PP_PGFREE, nr);
}

/*
 * @nr order-0 pages of @zone whose last reference went onto this CPU's
 * rseq list of the zone (pp_rseq_free_batch()); those that find it busy
 * go to the buddy lists.
 */
static void pp_rseq_release_batch(struct pp_pool *pool, struct pp_zone *zone,
				  struct pp_page **pages, unsigned int nr,
				  int marked)
{
	unsigned int done = pp_rseq_fault(pool) ? 0 :
			    pp_rseq_free_batch(pool, zone, pages, nr, marked);

	if (likely(done == nr))
		return;
	for (unsigned int i = done; i < nr; i++)
		pp_set_page_state(pages[i], PP_PAGE_NONE);
	pp_count(pool, PP_PCP_TRYLOCK_FAIL, 1);
	pp_free_pages_batch_buddy(pool, zone, pages + done, nr - done, false);
}

/*
 * pp_release_pages() on rseq lists, no checks to make: the pages whose
 * last reference goes are collected by PP_SWAP_CLUSTER_MAX and given back
 * a section per batch (or per stretch below high).
 */
static __attribute__((noinline))
void pp_release_pages_rseq(struct pp_pool *pool, struct pp_page **pages,
			   unsigned long nr)
{
	struct pp_page *batch[PP_SWAP_CLUSTER_MAX];
	/* One node past pp_pool_slow(): every page is the first zone's. */
	struct pp_zone *zone = &pool->zones[0];
	/*
	 * Debug checks are off here: flags is 0 (pp_page_word()).  A page
	 * whose last reference goes is marked a free pcp page of this CPU
	 * in the same store (and pcp_cpu), so that the sections only move
	 * pointers (pp_rseq_free_batch() marks again if the thread moves).
	 */
	const uint64_t in_use = pp_page_word(1, 0, PP_PAGE_INUSE, 0);
	const uint64_t unref = pp_page_word(0, 0, PP_PAGE_PCP, 0);
#ifdef PP_RSEQ_PCP
	const int cpu = pp_rseq_cpu(pp_rseq_area());
#else
	const int cpu = -1;	/* never called: pool->pcp_rseq is false */
#endif
	unsigned int n = 0;

	for (unsigned long i = 0; i < nr; i++) {
		struct pp_page *page = pages[i];

		if (!pp_release_slot(pool, page))
			continue;
		/*
		 * The common page, an order-0 page in use whose only
		 * reference is ours (see pp_put_page_testzero()), tested and
		 * dropped with one load and one store (pp_page_word()).
		 */
		if (likely(pp_page_word_load(page) == in_use)) {
			pp_page_word_store(page, unref);
		} else {
			if (__atomic_load_n(&page->refcount,
					    __ATOMIC_ACQUIRE) == 1)
				__atomic_store_n(&page->refcount, 0,
						 __ATOMIC_RELAXED);
			else if (!pp_put_page_testzero(pool, page,
						       "pp_release_pages"))
				continue;
			if (unlikely(page->order)) {
				pp_free_the_page(pool, page, "pp_release_pages");
				continue;
			}
			pp_set_page_state(page, PP_PAGE_PCP);
		}
		page->pcp_cpu = (uint32_t)cpu;
		pp_kasan_poison(pool, page, 0);
		batch[n++] = page;
		if (n == PP_SWAP_CLUSTER_MAX) {
			pp_rseq_release_batch(pool, zone, batch, n, cpu);
			n = 0;
		}
	}
	if (n)
		pp_rseq_release_batch(pool, zone, batch, n, cpu);
}

/*
 * Free @nr prepared order-0 pages, all of @zone, to this CPU's pcp list of
 * the zone under one hold of its lock; if the trylock fails, straight to
 * the zone's buddy lists.
 */
static void pp_free_unref_page_batch(struct pp_pool *pool,
				     struct pp_zone *zone,
				     struct pp_page **pages, unsigned int nr)
{
	struct pp_pcp *pcp;
	bool traced = pp_trace_enabled(mm_page_free_batched);
	bool locked;

	if (pool->pcp_rseq) {
		if (traced)
			for (unsigned int i = 0; i < nr; i++)
				pp_do_trace(mm_page_free_batched,
					    pp_pfn(pool, pages[i]));
		return pp_rseq_release_batch(pool, zone, pages, nr, -1);
	}
	pcp = pp_zone_this_pcp(pool, zone);
	locked = pp_pcp_trylock(pcp);

	if (unlikely(!locked))
		pp_count(pool, PP_PCP_TRYLOCK_FAIL, 1);
	if (unlikely(!pp_pool_buddy(pool))) {
		for (unsigned int i = 0; traced && i < nr; i++)
			pp_do_trace(mm_page_free_batched,
				    pp_pfn(pool, pages[i]));
		pp_backend_free_batch(pool, locked ? pcp : NULL, pages, nr);
	} else if (likely(locked)) {
		pp_free_unref_pages_commit(pool, pcp, pages, nr, traced);
	} else {
		pp_free_pages_batch_buddy(pool, zone, pages, nr, traced);
	}
	if (likely(locked))
		pp_pcp_unlock(pcp);
}

/* pp_release_pages() found this CPU's pcp lock held: to the buddy lists. */
static __attribute__((noinline))
void pp_free_page_skip_pcp(struct pp_pool *pool, struct pp_page *page)
{
	pp_set_page_state(page, PP_PAGE_NONE);
	pp_count(pool, PP_PCP_TRYLOCK_FAIL, 1);
	pp_free_pages_batch_buddy(pool, pp_page_zone(pool, page), &page, 1,
				  pp_trace_enabled(mm_page_free_batched));
}

/*
 * pp_release_pages() with debug checks on, another backend, several
 * nodes, or the kernel profile (its own path): every check, page by page, then the pages in batches of
 * PP_SWAP_CLUSTER_MAX, each of one zone.
 */
static __attribute__((noinline))
void pp_release_pages_checked(struct pp_pool *pool, struct pp_page **pages,
			      unsigned long nr)
{
	struct pp_page *batch[PP_SWAP_CLUSTER_MAX];
	struct pp_zone *zone = NULL;
	unsigned int n = 0;

	if (pool->kernel)
		return ppk_release_pages(pool, pages, nr);
	for (unsigned long i = 0; i < nr; i++) {
		struct pp_page *page = pages[i];

		if (!page)
			continue;
		if (!pp_put_page_testzero(pool, page, "pp_release_pages"))
			continue;
		if (page->order) {
			pp_free_the_page(pool, page, "pp_release_pages");
			continue;
		}
		pp_free_pages_prepare(pool, page, 0, "pp_release_pages");
		/* A batch is of one zone: each page to its own node's. */
		if (n && pp_page_zone(pool, page) != zone) {
			pp_free_unref_page_batch(pool, zone, batch, n);
			n = 0;
		}
		zone = pp_page_zone(pool, page);
		batch[n++] = page;
		if (n == PP_SWAP_CLUSTER_MAX) {
			pp_free_unref_page_batch(pool, zone, batch, n);
			n = 0;
		}
	}
	if (n)
		pp_free_unref_page_batch(pool, zone, batch, n);
}

/* A put that is not of a page's only reference: the atomic path. */
static __attribute__((noinline))
bool pp_put_page_testzero_shared(struct pp_pool *pool, struct pp_page *page)
{
	return pp_put_page_testzero(pool, page, "pp_release_pages");
}

/*
 * Pages this hold of @pcp->lock may still free before a check: up to the
 * lock batch (@held went already) and up to where the list reaches high.
 * @pcp->lock held.
 */
static inline unsigned int pp_stretch(const struct pp_pcp *pcp,
				      unsigned int held)
{
	unsigned int count = pp_pcp_count(pcp);
	unsigned int limit = PP_SWAP_CLUSTER_MAX - held;

	if (count >= pcp->high)
		return 1;
	if (pcp->high - count < limit)
		limit = pcp->high - count;
	return limit;
}

/*
 * release_pages() + free_unref_page_list(): drop a reference on each page;
 * the order-0 pages whose last reference went are freed to this CPU's pcp
 * list under one hold of its lock per PP_SWAP_CLUSTER_MAX pages (the
 * kernel's lock batch).
 *
 * The common case on lock pcp lists (no debug checks, buddy backend, the
 * free tracepoints off) is one pass: each page goes from its last put straight to the hot
 * end of the pcp list; the count and PGFREE are settled when the lock is
 * let go (every PP_SWAP_CLUSTER_MAX pages) or when the list reaches high,
 * which drains a batch exactly where a page-by-page commit would.  One
 * counter per page: the stretch ends at whichever limit comes first.
 * rseq lists go to pp_release_pages_rseq(); anything else to
 * pp_release_pages_checked(), page by page.
 */
void pp_release_pages(struct pp_pool *pool, struct pp_page **pages,
		      unsigned long nr)
{
	struct pp_pcp *pcp = NULL;
	struct pp_page **ring = NULL;
	unsigned int n = 0, limit = 0, held = 0, top = 0, mask = 0, cpu = 0;

	if (unlikely(!pages) && nr)
		pp_bad_call("pp_release_pages", "pages is NULL with nr %lu",
			    nr);
	/*
	 * Several nodes are pp_pool_slow(): the batches of the general path
	 * go each to the list of their pages' zone; one zone, zones[0], is
	 * all the loops below know.  The loops fire no probe: a tracer
	 * attached to any pagepool probe raises the one semaphore that
	 * pp_trace_enabled(mm_page_free_batched) tests, and sends the pages
	 * to the checked path, which fires mm_page_free's for each.
	 */
	if (unlikely(pp_pool_slow(pool) || pp_trace_enabled(mm_page_free) ||
		     pp_trace_enabled(mm_page_free_batched)))
		return pp_release_pages_checked(pool, pages, nr);
	if (pool->pcp_rseq)
		return pp_release_pages_rseq(pool, pages, nr);
	for (unsigned long i = 0; i < nr; i++) {
		struct pp_page *page = pages[i];

		if (!pp_release_slot(pool, page))
			continue;
		/* The only reference is ours: see pp_put_page_testzero(). */
		if (likely(__atomic_load_n(&page->refcount,
					   __ATOMIC_ACQUIRE) == 1))
			__atomic_store_n(&page->refcount, 0,
					 __ATOMIC_RELAXED);
		else if (!pp_put_page_testzero_shared(pool, page))
			continue;
		if (unlikely(page->order)) {
			pp_free_the_page(pool, page, "pp_release_pages");
			continue;
		}
		if (unlikely(!pcp)) {
			pcp = pp_zone_this_pcp(pool, &pool->zones[0]);
			if (unlikely(!pp_pcp_trylock(pcp))) {
				pcp = NULL;
				pp_free_page_skip_pcp(pool, page);
				continue;
			}
			held = 0;
			limit = pp_stretch(pcp, held);
			/* In registers: see pp_bulk_fill_pcp(). */
			ring = pcp->ring;
			top = pp_pcp_top(pcp);
			mask = pcp->mask;
			cpu = pcp->cpu;
		}
		/* free_unref_page_commit(), count and PGFREE settled below */
		pp_kasan_poison(pool, page, 0);
		pp_page_set_pcp(page, cpu);
		ring[top++ & mask] = page;
		if (likely(++n < limit))
			continue;
		/* At high: drain a batch.  At the lock batch: let go. */
		pp_pcp_set(pcp, top, pp_pcp_count(pcp) + n);
		pp_count_locked(pcp, PP_PGFREE, n);
		held += n;
		n = 0;
		if (pp_pcp_count(pcp) >= pcp->high)
			pp_free_pcppages_bulk(pool, pcp, pcp->batch);
		/* Bound the lock hold time, as SWAP_CLUSTER_MAX does. */
		if (held == PP_SWAP_CLUSTER_MAX) {
			pp_pcp_unlock(pcp);
			pcp = NULL;
			continue;
		}
		limit = pp_stretch(pcp, held);
	}
	if (pcp) {
		if (n) {
			pp_pcp_set(pcp, top, pp_pcp_count(pcp) + n);
			pp_count_locked(pcp, PP_PGFREE, n);
		}
		pp_pcp_unlock(pcp);
	}
}

/*
 * __free_pages(): the lean profile has no work in the steps put_page()
 * adds (its pp_put_page() is this); the kernel profile does them there.
 */
void pp_free_pages(struct pp_pool *pool, struct pp_page *page,
		   unsigned int order)
{
	if (unlikely(!pp_page_in_pool(pool, page)))
		pp_bad_pointer(pool, page, "pp_free_pages");
	if (unlikely(order != page->order && pp_page_count(page) > 0))
		pp_bad_call("pp_free_pages", "pfn 0x%lx was allocated with "
			    "order %u, freed with order %u",
			    pp_pfn(pool, page), page->order, order);
	if (pool->kernel)
		return ppk_free_pages(pool, page, order);
	pp_put_page_inline(pool, page);
}

unsigned long pp_page_to_pfn(const struct pp_pool *pool,
			     const struct pp_page *page)
{
	if (unlikely(!pp_page_in_pool(pool, page)))
		pp_bad_pointer(pool, page, "pp_page_to_pfn");
	return pp_pfn(pool, page);
}

int pp_page_to_nid(const struct pp_pool *pool, const struct pp_page *page)
{
	if (unlikely(!pp_page_in_pool(pool, page)))
		pp_bad_pointer(pool, page, "pp_page_to_nid");
	return (int)pp_pfn_nid(pool, pp_pfn(pool, page));
}

struct pp_page *pp_pfn_to_page(const struct pp_pool *pool, unsigned long pfn)
{
	if (pfn >= pool->nr_pages)
		return NULL;
	return &pool->mem_map[pfn];
}

void *pp_page_address(const struct pp_pool *pool, const struct pp_page *page)
{
	if (unlikely(!pp_page_in_pool(pool, page)))
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
