/* SPDX-License-Identifier: MIT */
/*
 * Per-CPU page lists: which implementation a pool gets, and the slow
 * paths and remote access of the rseq one.
 *
 * The design, and what each piece stands for in the kernel:
 *
 *   kernel                                here (PP_PCP_RSEQ)
 *   ------------------------------------  ---------------------------------
 *   this_cpu_ptr(zone->per_cpu_pageset)   zone->pcp[rseq->cpu_id]
 *   preempt_disable() / local_irq_save()  an rseq critical section: the
 *   + pcp->lock around a list change      kernel aborts it if the thread
 *                                         is preempted, migrated or
 *                                         signalled, and it starts over
 *   __rmqueue_pcplist() popping a page    pp_rseq_pop1() (internal/rseq.h)
 *   the bulk loop's pops                  pp_rseq_pop_n(): up to n pages
 *                                         into the caller's array, one
 *                                         commit
 *   free_unref_page_commit()              pp_rseq_push1(); at high, the
 *                                         drain below
 *   free_unref_page_list() commits        pp_rseq_push_n(), up to 32
 *                                         (pp_rseq_push_n_marked() for
 *                                         release_pages(), whose pages
 *                                         are marked beforehand)
 *   rmqueue_bulk() filling an empty list  pp_rseq_refill(): pages taken
 *                                         from the buddy lists under the
 *                                         zone lock, then published onto
 *                                         this CPU's list with push_n
 *   free_pcppages_bulk() at high          pp_rseq_drain_high(): a batch
 *                                         taken off the cold end in one
 *                                         section, freed to the buddy
 *                                         lists under the zone lock
 *   __count_vm_events() (this_cpu_add)    pp_rseq_count(): an rseq
 *                                         section whose commit is the add
 *   drain_all_pages() on another CPU's    pp_pcp_stop(): mark the list
 *   list (pcp->lock taken by the          stopped, abort any section in
 *   draining CPU; spin_trylock fails      flight on that CPU with
 *   for the owner meanwhile)              membarrier(PRIVATE_EXPEDITED_
 *                                         RSEQ, that CPU), drain, restart
 *
 * A section that finds its list stopped takes the path a failed trylock
 * takes (bulk: one page through the single-page path; single page and
 * free: straight to the buddy lists), counted as pcp_trylock_fail or
 * bulk_fallback_trylock: as in the kernel, a remote drain is the one thing
 * an owner can fail against.  Restarts are counted per operation
 * (pcp_restart_*).
 *
 * What still differs from the kernel:
 *   - the kernel holds the list for a whole bulk call; here the bulk loop
 *     is one section per run of holes, and a refill or a drain is a
 *     section of its own, so another thread of the same CPU may run
 *     between them (it could also in the kernel between two calls);
 *   - a refill takes pages from the buddy lists first and publishes them
 *     after, so they are briefly on no list; a thread that moved to
 *     another CPU in between publishes them there;
 *   - counters are one section each, not one instruction (x86's
 *     per-CPU segment has no user-space analogue);
 *   - list i serves CPU i only; a pool with fewer lists than CPUs sends
 *     the other CPUs' threads to the buddy lists (PP_PCP_AUTO picks the
 *     lock implementation for such pools).
 */
#include "internal.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <linux/membarrier.h>

static const char *const pp_pcp_impl_names[PP_NR_PCP_IMPLS] = {
	[PP_PCP_AUTO]	= "auto",
	[PP_PCP_RSEQ]	= "rseq",
	[PP_PCP_LOCK]	= "lock",
};

/* pp_pcp_impl_name(), pp_pcp_impl_from_name() */
PP_NAME_LOOKUPS(pp_pcp_impl, enum pp_pcp_impl, pp_pcp_impl_names,
		PP_NR_PCP_IMPLS)

enum pp_pcp_impl pp_pool_pcp_impl(const struct pp_pool *pool)
{
	return pool->pcp_rseq ? PP_PCP_RSEQ : PP_PCP_LOCK;
}

#ifdef PP_RSEQ_PCP
static long pp_membarrier(int cmd, unsigned int flags, int cpu)
{
	return syscall(__NR_membarrier, cmd, flags, cpu);
}
#endif

bool pp_pcp_rseq_supported(const char **why)
{
	const char *reason;

#if defined(PP_RSEQ_PCP)
	long mask;

	if (__rseq_size == 0 || pp_rseq_cpu(pp_rseq_area()) < 0) {
		reason = "glibc did not register rseq for this thread "
			 "(GLIBC_TUNABLES=glibc.pthread.rseq=0, or a kernel "
			 "without rseq)";
		goto no;
	}
	mask = pp_membarrier(MEMBARRIER_CMD_QUERY, 0, 0);
	if (mask < 0 || !(mask & MEMBARRIER_CMD_PRIVATE_EXPEDITED_RSEQ)) {
		reason = "the kernel has no membarrier "
			 "PRIVATE_EXPEDITED_RSEQ (Linux 5.10+)";
		goto no;
	}
	/* Once per process; registering again is harmless. */
	if (pp_membarrier(MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED_RSEQ, 0,
			  0)) {
		reason = "membarrier registration for rseq failed";
		goto no;
	}
	return true;
no:
#elif defined(PP_CONFIG_TSAN)
	reason = "a ThreadSanitizer build";
#elif !defined(__x86_64__)
	reason = "rseq sections are written for x86_64 only";
#else
	reason = "glibc without <sys/rseq.h> (2.35+ needed)";
#endif
	if (why)
		*why = reason;
	return false;
}

/* The fallback notice: one line, once per process. */
static void pp_rseq_notice(const char *why)
{
	static atomic_bool done;

	if (!atomic_exchange(&done, true))
		fprintf(stderr, "pagepool: rseq per-CPU lists unavailable (%s): "
			"using the lock implementation\n", why);
}

enum pp_pcp_impl pp_pool_config_pcp_impl(const struct pp_pool_config *cfg,
					 const char **why)
{
	enum pp_pcp_impl impl = cfg->pcp_impl;
	unsigned long nr_cpus = cfg->nr_cpus;
	const char *reason = NULL;
	long conf = sysconf(_SC_NPROCESSORS_CONF);

	if (why)
		*why = NULL;
	if ((unsigned int)impl >= PP_NR_PCP_IMPLS)
		return PP_NR_PCP_IMPLS;
	/* jemalloc's per-CPU thread caches are not restartable code. */
	if (impl == PP_PCP_LOCK || cfg->backend != PP_BACKEND_BUDDY)
		return PP_PCP_LOCK;
#ifndef PP_RSEQ_PCP
	/* The build's default: no notice for what the build cannot do. */
	if (impl == PP_PCP_AUTO)
		return PP_PCP_LOCK;
#endif
	if (!nr_cpus)
		nr_cpus = conf > 0 ? (unsigned long)conf : 1;
	if (impl == PP_PCP_AUTO && conf > 0 && nr_cpus < (unsigned long)conf)
		return PP_PCP_LOCK;
	if (!pp_pcp_rseq_supported(&reason)) {
		if (why)
			*why = reason;
		return PP_PCP_LOCK;
	}
	return PP_PCP_RSEQ;
}

int pp_pcp_setup(struct pp_pool *pool, const struct pp_pool_config *cfg)
{
	const char *why;
	enum pp_pcp_impl impl = pp_pool_config_pcp_impl(cfg, &why);

	pool->pcp_rseq = false;
	if (impl == PP_NR_PCP_IMPLS) {
		const char *env = getenv("PAGEPOOL_PCP");

		if (env && pp_pcp_impl_from_name(env) < 0)
			fprintf(stderr, "pagepool: PAGEPOOL_PCP='%s': expected "
				"auto, rseq or lock\n", env);
		return -EINVAL;
	}
	if (why)
		pp_rseq_notice(why);
	pool->pcp_rseq = impl == PP_PCP_RSEQ;
	return 0;
}

/*
 * Take @pcp away from its CPU for a remote drain (or any access from
 * elsewhere): drains serialise on the list's lock; with rseq, the list is
 * marked stopped and every section in flight on its CPU is aborted, so
 * none commits after this returns and any new one sees the mark.
 */
void pp_pcp_stop(struct pp_pool *pool, struct pp_pcp *pcp)
{
	pp_pcp_lock_slow(pcp);
#ifdef PP_RSEQ_PCP
	if (!pool->pcp_rseq)
		return;
	atomic_store_explicit(&pcp->stopped, 1, memory_order_seq_cst);
	/* EINVAL: no such CPU, so no section can run there. */
	if (pp_membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED_RSEQ,
			  MEMBARRIER_CMD_FLAG_CPU, (int)pcp->cpu) &&
	    errno != EINVAL)
		pp_die("membarrier(PRIVATE_EXPEDITED_RSEQ, cpu %u): %s",
		       pcp->cpu, strerror(errno));
#endif
}

/* Give @pcp back to its CPU. */
void pp_pcp_restart(struct pp_pool *pool, struct pp_pcp *pcp)
{
	if (pool->pcp_rseq)
		atomic_store_explicit(&pcp->stopped, 0, memory_order_release);
	pp_pcp_unlock(pcp);
}

#ifdef PP_RSEQ_PCP

/* pp_rseq_count_at() found the thread on another CPU, or was aborted. */
void pp_rseq_count_slow(struct pp_pool *pool, struct pp_zone *zone,
			enum pp_vm_event ev, uint64_t n)
{
	struct rseq *rs = pp_rseq_area();

	pp_count(pool, PP_PCP_RESTART_COUNT, 1);
	for (;;) {
		int cpu = pp_rseq_cpu(rs);

		if ((unsigned int)cpu >= pool->nr_cpus)
			return pp_count(pool, ev, n);
		if (!pp_rseq_add(rs, cpu,
				 (uint64_t *)&zone->pcp[cpu].events[ev], n))
			return;
		pp_count(pool, PP_PCP_RESTART_COUNT, 1);
	}
}

/* Pages a slow path moves per section (on the stack). */
#define PP_RSEQ_CHUNK	128U

/* Slots a list may fill: the ring's, and no more than high for frees. */
static inline unsigned int pp_rseq_slots(const struct pp_zone *zone)
{
	return zone->pcp[0].mask + 1;
}

/*
 * rmqueue_bulk() for an rseq list: take up to batch pages from @zone's
 * buddy lists under the zone lock, then publish them onto the zone's list
 * of the CPU this thread runs on, a chunk per section, the zone lock still
 * held (a section takes no lock).  Pages that find no room, or a stopped
 * list, go back to the buddy lists.  Returns the pages published.
 */
unsigned int pp_rseq_refill(struct pp_pool *pool, struct pp_zone *zone,
			    const char *call)
{
	struct rseq *rs = pp_rseq_area();
	struct pp_page *buf[PP_RSEQ_CHUNK];
	unsigned int want = zone->pcp[0].batch, published = 0;
	bool busy = false;

	pp_zone_lock(zone);
	want = pp_fault_buddy_clamp(zone, want);
	while (published < want && !busy) {
		unsigned int n = want - published, got, pushed = 0;

		if (n > PP_RSEQ_CHUNK)
			n = PP_RSEQ_CHUNK;
		for (got = 0; got < n; got++) {
			buf[got] = pp_rmqueue_bulk_one(pool, zone,
						       PP_MIGRATE_UNMOVABLE);
			if (unlikely(!buf[got]))
				break;
		}
		pp_zone_sub_free(zone, got);
		/*
		 * Physical order, as list_add_tail() leaves it: the first
		 * page taken goes on last, at the hot end, so the list hands
		 * out ascending pfns.
		 */
		for (unsigned int a = 0, b = got - 1; got && a < b; a++, b--) {
			struct pp_page *t = buf[a];

			buf[a] = buf[b];
			buf[b] = t;
		}
		while (pushed < got) {
			int cpu = pp_rseq_cpu(rs);
			uint64_t st;
			long r;

			if ((unsigned int)cpu >= pool->nr_cpus) {
				busy = true;
				break;
			}
			r = pp_rseq_push_n(rs, &zone->pcp[cpu], cpu,
					   buf + pushed, got - pushed,
					   pp_rseq_slots(zone), &st);
			if (r > 0) {
				pushed += (unsigned int)r;
			} else if (r == 0 || r == PP_RSEQ_STOPPED) {
				busy = true;
				break;
			} else {
				pp_count(pool, PP_PCP_RESTART_BULK_FREE, 1);
			}
		}
		/* No room after all: back where they came from. */
		for (unsigned int i = pushed; i < got; i++) {
			pp_set_page_state(buf[i], PP_PAGE_NONE);
			pp_free_one_page_locked(pool, zone, buf[i], 0);
		}
		published += pushed;
		if (got < n)
			break;
	}
	pp_zone_unlock(zone);
	pp_count(pool, PP_ZONE_LOCK, 1);
	pp_count(pool, PP_PCP_REFILL, 1);
	pp_count(pool, PP_PCP_REFILL_PAGES, published);
	return published;
}

/*
 * free_pcppages_bulk() at high: if this CPU's list of @zone holds high
 * pages or more, take a batch off its cold end (a section per chunk) and
 * give it to the zone's buddy lists under the zone lock.
 */
void pp_rseq_drain_high(struct pp_pool *pool, struct pp_zone *zone)
{
	struct rseq *rs = pp_rseq_area();
	struct pp_page *buf[PP_RSEQ_CHUNK];
	unsigned int batch = zone->pcp[0].batch, done = 0;
	unsigned int high = zone->pcp[0].high;
	bool locked = false;

	if (high > pp_rseq_slots(zone))
		high = pp_rseq_slots(zone);
	while (done < batch) {
		unsigned int n = batch - done;
		int cpu = pp_rseq_cpu(rs);
		long r;

		if ((unsigned int)cpu >= pool->nr_cpus)
			break;
		if (n > PP_RSEQ_CHUNK)
			n = PP_RSEQ_CHUNK;
		r = pp_rseq_pop_cold(rs, &zone->pcp[cpu], cpu, buf, n,
				     done ? 1 : high);
		if (r == PP_RSEQ_ABORTED || r == PP_RSEQ_MOVED) {
			pp_count(pool, PP_PCP_RESTART_DRAIN, 1);
			continue;
		}
		if (r <= 0)
			break;
		if (!locked) {
			pp_zone_lock(zone);
			locked = true;
		}
		for (long i = 0; i < r; i++)
			pp_free_pcppage_locked(pool, zone, buf[i],
					       (unsigned int)cpu);
		done += (unsigned int)r;
	}
	if (!locked)
		return;
	pp_zone_unlock(zone);
	pp_count(pool, PP_ZONE_LOCK, 1);
	pp_count(pool, PP_PCP_DRAIN, 1);
	pp_count(pool, PP_PCP_DRAIN_PAGES, done);
}

/*
 * free_unref_page_list()'s commits: give @nr prepared order-0 pages
 * (refcount 0, the caller's, all of @zone) back to this CPU's list of
 * @zone, as many per section as fit below high, draining a batch whenever
 * the list reaches high.  Returns how many went onto lists; the caller
 * frees the rest ([return, @nr)) to the buddy lists: the list was
 * stopped, or the thread runs on a CPU without one.  @marked: -1, or the
 * CPU whose free pcp pages the caller has already marked the pages
 * (state and pcp_cpu, pp_release_pages_rseq()); the sections then only
 * move pointers, and if the thread runs elsewhere by then, the pages not
 * yet given back are marked again for its CPU first.
 */
unsigned int pp_rseq_free_batch(struct pp_pool *pool, struct pp_zone *zone,
				struct pp_page **pages, unsigned int nr,
				int marked)
{
	struct rseq *rs = pp_rseq_area();
	unsigned int high = zone->pcp[0].high, i = 0;

	if (high > pp_rseq_slots(zone))
		high = pp_rseq_slots(zone);
	while (i < nr) {
		int cpu = pp_rseq_cpu(rs);
		uint64_t st;
		long r;

		if ((unsigned int)cpu >= pool->nr_cpus)
			break;
		if (marked < 0) {
			r = pp_rseq_push_n(rs, &zone->pcp[cpu], cpu, pages + i,
					   nr - i, high, &st);
		} else {
			/* Marked for another CPU: the thread moved since. */
			if (unlikely(cpu != marked)) {
				for (unsigned int j = i; j < nr; j++)
					pages[j]->pcp_cpu = (uint32_t)cpu;
				marked = cpu;
			}
			r = pp_rseq_push_n_marked(rs, &zone->pcp[cpu], cpu,
						  pages + i, nr - i, high,
						  &st);
		}
		if (r > 0) {
			i += (unsigned int)r;
			if ((uint32_t)st >= high)
				pp_rseq_drain_high(pool, zone);
		} else if (r == 0) {
			/* At high already (a refill overshot it): drain. */
			pp_rseq_drain_high(pool, zone);
		} else if (r == PP_RSEQ_STOPPED) {
			break;
		} else {
			pp_count(pool, PP_PCP_RESTART_BULK_FREE, 1);
		}
	}
	if (i)
		pp_rseq_count(pool, PP_PGFREE, i);
	return i;
}

#else /* !PP_RSEQ_PCP: never called, pool->pcp_rseq is always false */

unsigned int pp_rseq_refill(struct pp_pool *pool, struct pp_zone *zone,
			    const char *call)
{
	return 0;
}

void pp_rseq_drain_high(struct pp_pool *pool, struct pp_zone *zone)
{
}

unsigned int pp_rseq_free_batch(struct pp_pool *pool, struct pp_zone *zone,
				struct pp_page **pages, unsigned int nr,
				int marked)
{
	return 0;
}

#endif /* PP_RSEQ_PCP */
