/* SPDX-License-Identifier: MIT */
/*
 * pp-stress: many threads on tiny pools for a set time, then every page
 * must be back and every counter must add up.
 *
 *   pp-stress [--duration=SECONDS] [--round=SECONDS] [--threads=N]
 *             [--lanes=N] [--drainers=N] [--kickers=N] [--pcp=LIST]
 *             [--seed=N]
 *
 * The run is a sequence of rounds (default 1 s each, --duration in all,
 * default $STRESS_SECONDS or 10) on --lanes pools at a time (default 2),
 * out of step: while the driver (the main thread) checks, destroys and
 * replaces one lane's pool, the other lanes' threads keep working.  A
 * pool is destroyed only after its own threads have stopped and given
 * everything back, as pp_pool_destroy()'s contract asks.  Each round
 * builds a pool of its own with a random geometry: 64 to 1024 pages (1024
 * to 2048 for jemalloc), pcp batch 1..16 and high batch..6 * batch, all
 * CPUs or 1 to 4 pcp lists for the threads of a 2-CPU machine to fight
 * over, zero or the kernel's watermarks, debug checks on or off, a bulk
 * variant, and the next pcp implementation of --pcp (rounds take turns;
 * default $PAGEPOOL_PCP, or rseq,lock), on the buddy or (one round in
 * five that does not ask for rseq) the jemalloc backend.  Then --threads
 * threads (default 8: more than the CPUs, so they are preempted in the
 * middle of their list operations) each keep an rq_pages-like array with
 * holes and, at random:
 *
 *   - refill the holes with pp_alloc_page() per hole, with
 *     pp_alloc_pages_bulk_list() for the hole count, or with
 *     pp_alloc_pages_bulk_array() (GFP_ZERO now and then; on pools of
 *     2 to 4 nodes, one round in three of the buddy's, half the array
 *     calls are pp_alloc_pages_bulk_array_node() on a node or none);
 *   - punch holes: put the pages, release them in a batch with NULL
 *     entries, or send them to another thread, which frees them there
 *     (cross-thread frees, onto another CPU's pcp list);
 *   - take an extra reference and send it to another thread (both put);
 *   - allocate and free order 1..4 blocks;
 *   - churn: allocate and free at once, single pages or a bulk array,
 *     touching no page memory, so that much of their time is spent in
 *     list operations;
 *   - drain the pcp lists; thread 0 also switches the bulk variant;
 *   - move: flip their CPU affinity between one CPU, another and all of
 *     them (rseq: sections begun on a CPU the thread has just left,
 *     threads on CPUs without a list);
 *
 * while --drainers threads (default 1) drain every list over and over
 * (remote drains; with rseq: list stopped, membarrier to its CPU, drain),
 * moving between CPUs too, and --kickers threads (default 1) send the
 * workers signals and move them to other CPUs at random moments: under
 * rseq, each of these, a preemption, a migration, a signal, aborts the
 * section a worker is in, if it is in one.
 *
 * Every page handed out is claimed in a byte per pfn with an atomic
 * exchange (a page handed out twice shows at once), its holders counted
 * in a shadow refcount, a signature written in it and checked by the last
 * holder before the last put.  Threads only count; after the join the
 * driver frees what is left in the mailboxes and checks, per round: no
 * worker saw anything wrong; every page is back (ownership bytes and
 * shadow refcounts zero); pgalloc = pgfree = the pages the threads got
 * and freed, the call counters equal the calls made; drain_all counts
 * every drain the threads made (and no more than the slow path's on
 * top); the lock implementation counted no rseq restart; after a drain
 * the kernel profile's NR_FREE_PAGES is within the CPUs' differentials
 * of the pages free (the lean profile's exact), and the buddy lists have
 * their shape right after create;
 * pp_pool_destroy() returns 0.  At the end: the rseq rounds together
 * counted restarts (pcp_restart_*), so the kernel did abort sections and
 * they did run again (skipped, saying why, where no round ran rseq).
 *
 * TAP on stdout (seven checks per round, one at the end).  The restarts
 * counted say how often the abort paths ran; the checks above say they
 * lost nothing.  make check runs
 * it for 3 s (stress/pp-stress-check.sh); make stress for
 * STRESS_SECONDS (default 60); .ci/run for 10 s in the ThreadSanitizer
 * build (lock only) and in the AddressSanitizer build (rseq and lock).
 */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <pagepool/pagepool.h>

#include "number.h"
#include "pp_test.h"
#include "tap.h"
#include "tool.h"

#define MAX_THREADS	64
#define MAX_DRAINERS	8
#define MAX_LANES	8
#define MAX_SLOTS	256
#define MAX_BIG		8
#define MAX_BIG_ORDER	4
#define SIG_MAGIC	0x57e55c0ffee0000ULL
#define NR_RESTARTS	(PP_PCP_RESTART_COUNT - PP_PCP_RESTART_ALLOC + 1)

struct item {
	struct pp_page *page;
	unsigned int order;
};

struct mailbox {
	pthread_mutex_t lock;
	struct item *items;
	size_t nr, cap;
};

/* The CPUs the process may run on, as the run started. */
static cpu_set_t run_cpus;
static int run_cpu_list[CPU_SETSIZE];
static int run_nr_cpus;

struct worker;
struct drainer;
struct kicker;

/* What a round's threads share. */
struct round {
	unsigned int index, lane;
	struct pp_pool_config cfg;
	struct pp_pool *pool;
	enum pp_pcp_impl impl;		/* what the pool runs */
	struct pp_page *map;
	char *arena;
	unsigned long nr_pages;
	_Atomic unsigned char *owner;	/* per pfn: held by someone */
	atomic_int *refs;		/* per block head: our references */
	struct mailbox box[MAX_THREADS];
	unsigned int nr_threads, nr_drainers, nr_kickers;
	struct worker *workers;		/* nr_threads + the driver's cleanup */
	struct drainer *drainers;
	struct kicker *kickers;
	atomic_bool stop;
	pthread_barrier_t start;
	struct pp_vmstat initial;
	double end;			/* when the driver stops it */
	char desc[384];
};

enum { C_SINGLE, C_LIST, C_ARRAY, C_NR };

struct worker {
	pthread_t thread;
	atomic_int tid;			/* for the kicker: 0 until it runs */
	unsigned int id;
	uint64_t rng;
	struct round *r;
	struct pp_page *slots[MAX_SLOTS];
	unsigned int nr_slots;
	struct item big[MAX_BIG];
	unsigned int nr_big;
	/* Results, read by the driver after the join. */
	unsigned long got, freed, calls[C_NR], sent, shared, zeroed;
	unsigned long drains, moves;
	unsigned long errors;
	char error[256];
};

struct drainer {
	pthread_t thread;
	uint64_t rng;
	struct round *r;
	/* Results, read by the driver after the join. */
	unsigned long drains, moves;
};

struct kicker {
	pthread_t thread;
	uint64_t rng;
	struct round *r;
	/* Results, read by the driver after the join. */
	unsigned long signals, moves;
};

__attribute__((format(printf, 2, 3)))
static void w_error(struct worker *w, const char *fmt, ...)
{
	va_list ap;

	if (w->errors++)
		return;
	va_start(ap, fmt);
	vsnprintf(w->error, sizeof(w->error), fmt, ap);
	va_end(ap);
}

static void die_errno(const char *what, int err)
{
	bail_out("%s: %s", what, strerror(err));
}

static unsigned long rnd(struct worker *w, unsigned long n)
{
	return n ? test_rand(&w->rng) % n : 0;
}

/* --- ownership ------------------------------------------------------------ */

static bool pfn_of(struct worker *w, struct pp_page *page,
		   unsigned int order, unsigned long *pfn)
{
	struct round *r = w->r;
	uintptr_t p = (uintptr_t)page, base = (uintptr_t)r->map;

	if (p < base || (p - base) % sizeof(*page) ||
	    (p - base) / sizeof(*page) + (1UL << order) > r->nr_pages) {
		w_error(w, "%p (order %u) is not a block of the pool",
			(void *)page, order);
		return false;
	}
	*pfn = (unsigned long)((p - base) / sizeof(*page));
	return true;
}

static uint64_t sig(unsigned long pfn)
{
	return SIG_MAGIC ^ pfn;
}

/* A block just handed out to @w. */
static void claim(struct worker *w, struct pp_page *page, unsigned int order,
		  pp_gfp_t gfp)
{
	struct round *r = w->r;
	unsigned long pfn, n = 1UL << order;

	if (!pfn_of(w, page, order, &pfn))
		return;
	if (pfn & (n - 1))
		w_error(w, "order-%u block at unaligned pfn 0x%lx", order,
			pfn);
	for (unsigned long i = 0; i < n; i++)
		if (atomic_exchange(&r->owner[pfn + i], 1))
			w_error(w, "pfn 0x%lx handed out twice", pfn + i);
	if (atomic_exchange(&r->refs[pfn], 1))
		w_error(w, "pfn 0x%lx handed out while referenced", pfn);
	if (pp_page_count(page) != 1)
		w_error(w, "pfn 0x%lx handed out with refcount %d", pfn,
			pp_page_count(page));
	for (unsigned long i = 0; i < n; i++) {
		uint64_t *a = (uint64_t *)(r->arena + (pfn + i) * PP_PAGE_SIZE);

		if (gfp & PP_GFP_ZERO) {
			for (unsigned long k = 0; k < PP_PAGE_SIZE / 8; k++)
				if (a[k]) {
					w_error(w, "GFP_ZERO page 0x%lx is not "
						"zero", pfn + i);
					break;
				}
			w->zeroed++;
		}
		a[0] = sig(pfn + i);
		a[PP_PAGE_SIZE / 8 - 1] = sig(pfn + i);
	}
	w->got += n;
}

/* Another reference, for someone else to put. */
static void get_ref(struct worker *w, struct pp_page *page)
{
	unsigned long pfn;

	if (!pfn_of(w, page, 0, &pfn))
		return;
	if (atomic_fetch_add(&w->r->refs[pfn], 1) <= 0)
		w_error(w, "get of pfn 0x%lx that nobody holds", pfn);
	pp_get_page(w->r->pool, page);
}

/*
 * Before a put of one reference: the last holder checks the signature
 * and gives the pfns up (before the pool can hand them out again).
 */
static void unref(struct worker *w, struct pp_page *page, unsigned int order)
{
	struct round *r = w->r;
	unsigned long pfn, n = 1UL << order;
	int old;

	if (!pfn_of(w, page, order, &pfn))
		return;
	old = atomic_fetch_sub(&r->refs[pfn], 1);
	if (old <= 0) {
		w_error(w, "put of pfn 0x%lx that nobody holds", pfn);
		return;
	}
	if (old > 1)
		return;
	for (unsigned long i = 0; i < n; i++) {
		const uint64_t *a = (const uint64_t *)(r->arena +
						       (pfn + i) * PP_PAGE_SIZE);

		if (a[0] != sig(pfn + i) || a[PP_PAGE_SIZE / 8 - 1] !=
		    sig(pfn + i))
			w_error(w, "pfn 0x%lx written while held", pfn + i);
		if (atomic_exchange(&r->owner[pfn + i], 0) != 1)
			w_error(w, "pfn 0x%lx freed twice", pfn + i);
	}
	w->freed += n;
}

static void put_ref(struct worker *w, struct pp_page *page, unsigned int order)
{
	unref(w, page, order);
	pp_put_page(w->r->pool, page);
}

/* --- mailboxes: references sent to another thread ------------------------ */

static void send(struct worker *w, struct pp_page *page, unsigned int order)
{
	struct round *r = w->r;
	unsigned int to = (unsigned int)rnd(w, r->nr_threads);
	struct mailbox *box = &r->box[to == w->id ? (to + 1) % r->nr_threads :
				       to];
	int err;

	err = pthread_mutex_lock(&box->lock);
	if (err)
		die_errno("pthread_mutex_lock", err);
	if (box->nr == box->cap) {
		size_t cap = box->cap ? 2 * box->cap : 64;
		struct item *p = realloc(box->items, cap * sizeof(*p));

		if (!p)
			bail_out("out of memory");
		box->items = p;
		box->cap = cap;
	}
	box->items[box->nr].page = page;
	box->items[box->nr].order = order;
	box->nr++;
	err = pthread_mutex_unlock(&box->lock);
	if (err)
		die_errno("pthread_mutex_unlock", err);
	w->sent++;
}

/* Put everything in @box (batched with pp_release_pages() or not). */
static void empty_box(struct worker *w, struct mailbox *box, bool batch)
{
	struct pp_page *pages[64];
	struct item *items;
	size_t nr;
	int err;

	err = pthread_mutex_lock(&box->lock);
	if (err)
		die_errno("pthread_mutex_lock", err);
	items = box->items;
	nr = box->nr;
	box->items = NULL;
	box->nr = box->cap = 0;
	err = pthread_mutex_unlock(&box->lock);
	if (err)
		die_errno("pthread_mutex_unlock", err);

	for (size_t i = 0; i < nr;) {
		size_t k = 0;

		if (!batch) {
			put_ref(w, items[i].page, items[i].order);
			i++;
			continue;
		}
		while (i < nr && k < 64) {
			unref(w, items[i].page, items[i].order);
			pages[k++] = items[i++].page;
		}
		pp_release_pages(w->r->pool, pages, k);
	}
	free(items);
}

/* --- what a worker does ---------------------------------------------------- */

static pp_gfp_t pick_gfp(struct worker *w)
{
	switch (rnd(w, 16)) {
	case 0:
		return PP_GFP_KERNEL | PP_GFP_ZERO;
	case 1:
		return PP_GFP_ATOMIC;
	default:
		return PP_GFP_KERNEL;
	}
}

static void refill_single(struct worker *w, pp_gfp_t gfp)
{
	for (unsigned int i = 0; i < w->nr_slots; i++) {
		struct pp_page *page;

		if (w->slots[i])
			continue;
		w->calls[C_SINGLE]++;
		page = pp_alloc_page(w->r->pool, gfp);
		if (!page)
			return;		/* the pool ran dry: try later */
		claim(w, page, 0, gfp);
		w->slots[i] = page;
	}
}

static void refill_list(struct worker *w, pp_gfp_t gfp)
{
	struct pp_list_head list = PP_LIST_HEAD_INIT(list);
	unsigned long holes = 0, got, n = 0;
	struct pp_page *page;

	for (unsigned int i = 0; i < w->nr_slots; i++)
		holes += !w->slots[i];
	w->calls[C_LIST]++;
	got = pp_alloc_pages_bulk_list(w->r->pool, gfp, holes, &list);
	if (got > holes)
		w_error(w, "bulk list returned %lu for %lu", got, holes);
	for (unsigned int i = 0; i < w->nr_slots; i++) {
		if (w->slots[i])
			continue;
		page = pp_list_pop_page(&list);
		if (!page)
			break;
		claim(w, page, 0, gfp);
		w->slots[i] = page;
		n++;
	}
	while ((page = pp_list_pop_page(&list))) {
		claim(w, page, 0, gfp);
		put_ref(w, page, 0);
		n++;
	}
	if (n != got)
		w_error(w, "bulk list returned %lu but added %lu pages", got, n);
}

/*
 * The array call, whatever variant the pool runs at that moment (thread 0
 * may switch it): new pages are the entries that changed; an entry that
 * held a page and now holds another was overwritten (pure output) and
 * the old page is still ours to put.
 */
static void refill_array(struct worker *w, pp_gfp_t gfp)
{
	struct pp_page *old[MAX_SLOTS];
	unsigned long ret;

	unsigned int nodes = pp_pool_nr_nodes(w->r->pool);

	memcpy(old, w->slots, w->nr_slots * sizeof(*old));
	w->calls[C_ARRAY]++;
	/* Several nodes: half the calls name one, or PP_NUMA_NO_NODE. */
	if (nodes > 1 && test_rand(&w->rng) % 2)
		ret = pp_alloc_pages_bulk_array_node(w->r->pool, gfp,
			(int)(test_rand(&w->rng) % (nodes + 1)) - 1,
			w->nr_slots, w->slots);
	else
		ret = pp_alloc_pages_bulk_array(w->r->pool, gfp, w->nr_slots,
						w->slots);
	if (ret > w->nr_slots)
		w_error(w, "bulk array returned %lu for %u", ret, w->nr_slots);
	for (unsigned long i = 0; i < ret && i < w->nr_slots; i++)
		if (!w->slots[i])
			w_error(w, "bulk array returned %lu, entry %lu is NULL",
				ret, i);
	for (unsigned int i = 0; i < w->nr_slots; i++) {
		if (w->slots[i] == old[i])
			continue;
		if (!w->slots[i]) {
			w_error(w, "bulk array cleared entry %u", i);
			w->slots[i] = old[i];
			continue;
		}
		claim(w, w->slots[i], 0, gfp);
		if (old[i])
			put_ref(w, old[i], 0);
	}
}

/* Punch holes: put, release in a batch, or send to another thread. */
static void punch(struct worker *w)
{
	struct pp_page *batch[MAX_SLOTS];
	unsigned int k = (unsigned int)rnd(w, w->nr_slots / 2 + 1), nr = 0;
	unsigned int how = (unsigned int)rnd(w, 3);

	for (unsigned int j = 0; j < k; j++) {
		unsigned int i = (unsigned int)rnd(w, w->nr_slots);
		struct pp_page *page = w->slots[i];

		w->slots[i] = NULL;
		if (how == 0 && page) {
			put_ref(w, page, 0);
		} else if (how == 1) {
			/* NULL entries too: release skips them */
			if (page)
				unref(w, page, 0);
			batch[nr++] = page;
		} else if (page) {
			send(w, page, 0);
		}
	}
	if (nr)
		pp_release_pages(w->r->pool, batch, nr);
}

static void share(struct worker *w)
{
	struct pp_page *page = w->slots[rnd(w, w->nr_slots)];

	if (!page)
		return;
	get_ref(w, page);
	send(w, page, 0);
	w->shared++;
}

/*
 * Churn: short allocate-and-free cycles (single pages, or a bulk array
 * released at once) that touch no page memory, so that the threads spend
 * much of their time inside list operations, where a preemption, a
 * migration or a signal aborts them.  Ownership is still claimed and
 * given up per pfn.
 */
static void claim_light(struct worker *w, struct pp_page *page)
{
	struct round *r = w->r;
	unsigned long pfn;

	if (!pfn_of(w, page, 0, &pfn))
		return;
	if (atomic_exchange(&r->owner[pfn], 1))
		w_error(w, "pfn 0x%lx handed out twice", pfn);
	if (atomic_exchange(&r->refs[pfn], 1))
		w_error(w, "pfn 0x%lx handed out while referenced", pfn);
	if (pp_page_count(page) != 1)
		w_error(w, "pfn 0x%lx handed out with refcount %d", pfn,
			pp_page_count(page));
	w->got++;
}

static void unref_light(struct worker *w, struct pp_page *page)
{
	struct round *r = w->r;
	unsigned long pfn;

	if (!pfn_of(w, page, 0, &pfn))
		return;
	if (atomic_exchange(&r->refs[pfn], 0) != 1)
		w_error(w, "churn: pfn 0x%lx referenced by another", pfn);
	if (atomic_exchange(&r->owner[pfn], 0) != 1)
		w_error(w, "pfn 0x%lx freed twice", pfn);
	w->freed++;
}

static void churn(struct worker *w)
{
	struct pp_pool *pool = w->r->pool;
	struct pp_page *pages[64] = { NULL }, *page;
	unsigned long n = 1 + rnd(w, 64), ret, held = 0;

	if (rnd(w, 2)) {
		for (int i = 0; i < 16; i++) {
			w->calls[C_SINGLE]++;
			page = pp_alloc_page(pool, PP_GFP_KERNEL);
			if (!page)
				return;
			claim_light(w, page);
			unref_light(w, page);
			pp_put_page(pool, page);
		}
		return;
	}
	w->calls[C_ARRAY]++;
	ret = pp_alloc_pages_bulk_array(pool, PP_GFP_KERNEL, n, pages);
	for (unsigned long i = 0; i < n; i++) {
		if (!pages[i])
			continue;
		claim_light(w, pages[i]);
		held++;
	}
	if (ret > n || held != ret)
		w_error(w, "churn: bulk array returned %lu, filled %lu of %lu",
			ret, held, n);
	for (unsigned long i = 0; i < n; i++)
		if (pages[i])
			unref_light(w, pages[i]);
	pp_release_pages(pool, pages, (unsigned int)n);
}

static void big(struct worker *w)
{
	if (w->nr_big < MAX_BIG && rnd(w, 2)) {
		unsigned int order = 1 + (unsigned int)rnd(w, MAX_BIG_ORDER);
		pp_gfp_t gfp = pick_gfp(w);
		struct pp_page *page;

		w->calls[C_SINGLE]++;
		page = pp_alloc_pages(w->r->pool, gfp, order);
		if (page) {
			claim(w, page, order, gfp);
			w->big[w->nr_big].page = page;
			w->big[w->nr_big].order = order;
			w->nr_big++;
		}
	} else if (w->nr_big) {
		unsigned int i = (unsigned int)rnd(w, w->nr_big);
		struct item it = w->big[i];

		w->big[i] = w->big[--w->nr_big];
		if (rnd(w, 2))
			put_ref(w, it.page, it.order);
		else
			send(w, it.page, it.order);
	}
}

/*
 * Run on one CPU of the run's, on another, or on all of them.  Under rseq
 * a thread that moves in the middle of a list operation restarts it on
 * its new CPU's list (or, without one there, bypasses the lists).
 */
static void move_cpu(uint64_t *rng, unsigned long *moves)
{
	unsigned int k = (unsigned int)(test_rand(rng) %
					 (unsigned int)(run_nr_cpus + 1));
	cpu_set_t set;

	if (run_nr_cpus < 2)
		return;
	if (k == (unsigned int)run_nr_cpus) {
		set = run_cpus;
	} else {
		CPU_ZERO(&set);
		CPU_SET(run_cpu_list[k], &set);
	}
	/* A CPU taken offline meanwhile: stay where we are. */
	if (!sched_setaffinity(0, sizeof(set), &set))
		(*moves)++;
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	struct round *r = w->r;
	int err;

	atomic_store(&w->tid, (int)gettid());
	err = pthread_barrier_wait(&r->start);
	if (err && err != PTHREAD_BARRIER_SERIAL_THREAD)
		die_errno("pthread_barrier_wait", err);
	while (!atomic_load_explicit(&r->stop, memory_order_relaxed)) {
		unsigned long a = rnd(w, 1000);

		if (a < 350) {
			pp_gfp_t gfp = pick_gfp(w);

			switch (rnd(w, 3)) {
			case 0:
				refill_single(w, gfp);
				break;
			case 1:
				refill_list(w, gfp);
				break;
			default:
				refill_array(w, gfp);
				break;
			}
		} else if (a < 650) {
			punch(w);
		} else if (a < 710) {
			share(w);
		} else if (a < 800) {
			big(w);
		} else if (a < 850) {
			churn(w);
		} else if (a < 987) {
			empty_box(w, &r->box[w->id], rnd(w, 2));
		} else if (a < 992) {
			pp_pool_drain(r->pool);
			w->drains++;
		} else if (a < 997) {
			move_cpu(&w->rng, &w->moves);
		} else if (w->id == 0) {
			pp_pool_set_bulk_variant(r->pool, (enum pp_bulk_variant)
						 rnd(w, PP_NR_BULK_VARIANTS));
		}
	}
	/* Give back what this thread holds; mailboxes are the driver's. */
	for (unsigned int i = 0; i < w->nr_slots; i++)
		if (w->slots[i])
			put_ref(w, w->slots[i], 0);
	while (w->nr_big) {
		w->nr_big--;
		put_ref(w, w->big[w->nr_big].page, w->big[w->nr_big].order);
	}
	return NULL;
}

static void sleep_us(long us)
{
	struct timespec ts = { us / 1000000, (us % 1000000) * 1000L };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/*
 * Remote drains, paced (up to 200 us apart) so that the workers also get
 * at the lists between them.
 */
static void *drainer_main(void *arg)
{
	struct drainer *d = arg;
	struct round *r = d->r;
	int err;

	err = pthread_barrier_wait(&r->start);
	if (err && err != PTHREAD_BARRIER_SERIAL_THREAD)
		die_errno("pthread_barrier_wait", err);
	while (!atomic_load_explicit(&r->stop, memory_order_relaxed)) {
		pp_pool_drain(r->pool);
		d->drains++;
		if (test_rand(&d->rng) % 8 == 0)
			move_cpu(&d->rng, &d->moves);
		sleep_us((long)(test_rand(&d->rng) % 200));
	}
	return NULL;
}

/* A signal that does nothing but abort an rseq section in flight. */
static void on_kick(int sig)
{
	(void)sig;
}

/*
 * Kick the round's workers at random moments: a signal, or now and then
 * a move to another CPU set.  Under rseq either aborts the section the
 * worker is in, if it is in one; the threads' own moves and preemptions
 * do too, but seldom inside a section, which is a few instructions long.
 */
static void *kicker_main(void *arg)
{
	struct kicker *k = arg;
	struct round *r = k->r;
	unsigned long n = 0;
	int err;

	err = pthread_barrier_wait(&r->start);
	if (err && err != PTHREAD_BARRIER_SERIAL_THREAD)
		die_errno("pthread_barrier_wait", err);
	while (!atomic_load_explicit(&r->stop, memory_order_relaxed)) {
		struct worker *w = &r->workers[test_rand(&k->rng) %
					       r->nr_threads];

		/* Bursts of eight, then a pause of up to 100 us. */
		if (++n % 8 == 0)
			sleep_us((long)(test_rand(&k->rng) % 100));
		if (test_rand(&k->rng) % 4 == 0 && run_nr_cpus > 1) {
			unsigned int c = (unsigned int)(test_rand(&k->rng) %
						(unsigned int)run_nr_cpus);
			pid_t tid = atomic_load(&w->tid);
			cpu_set_t set;

			CPU_ZERO(&set);
			CPU_SET(run_cpu_list[c], &set);
			if (tid && !sched_setaffinity(tid, sizeof(set), &set))
				k->moves++;
		} else {
			err = pthread_kill(w->thread, SIGUSR1);
			if (err)
				die_errno("pthread_kill", err);
			k->signals++;
		}
	}
	return NULL;
}

/* --- a round --------------------------------------------------------------- */

static void round_config(struct round *r, uint64_t *rng, enum pp_pcp_impl impl)
{
	struct pp_pool_config *cfg = &r->cfg;

	pp_pool_config_init(cfg);
	cfg->pcp_impl = impl;
	/* jemalloc always runs the lock: not in the rounds that ask for rseq */
	cfg->backend = test_rand(rng) % 5 == 0 && impl != PP_PCP_RSEQ &&
		       pp_jemalloc_tcache_slots() != -EOPNOTSUPP ?
		       PP_BACKEND_JEMALLOC : PP_BACKEND_BUDDY;
	if (cfg->backend == PP_BACKEND_JEMALLOC) {
		cfg->nr_pages = 1024 + test_rand(rng) % 1025;
		cfg->je_tcache = test_rand(rng) % 2;
		cfg->je_batch_alloc = test_rand(rng) % 2;
	} else {
		cfg->nr_pages = 64 + test_rand(rng) % 961;
	}
	cfg->pcp_batch = 1 + (unsigned int)(test_rand(rng) % 16);
	cfg->pcp_high = cfg->pcp_batch +
			(unsigned int)(test_rand(rng) % (5 * cfg->pcp_batch + 1));
	cfg->nr_cpus = (unsigned int)(test_rand(rng) % 5);
	if (test_rand(rng) % 2)
		cfg->wmark_min = cfg->wmark_low = cfg->wmark_high = 0;
	cfg->debug = test_rand(rng) % 2;
	cfg->bulk_variant = (enum pp_bulk_variant)(test_rand(rng) %
						   PP_NR_BULK_VARIANTS);
	/* Drawn last, so the draws above are what they were before. */
	if (cfg->backend == PP_BACKEND_BUDDY && test_rand(rng) % 3 == 0)
		cfg->nr_nodes = 2 + (unsigned int)(test_rand(rng) % 3);
	/*
	 * Half the rounds on each profile, unless PAGEPOOL_PROFILE chose
	 * one (another backend runs lean whatever it says).
	 */
	if (!getenv("PAGEPOOL_PROFILE"))
		cfg->profile = test_rand(rng) % 2 ? PP_PROFILE_KERNEL :
						    PP_PROFILE_LEAN;
}

static void sleep_ms(long ms)
{
	sleep_us(ms * 1000);
}

static double now_s(void)
{
	return (double)now_ns() / 1e9;
}

/* Restarts the rseq rounds counted, per counter, over the whole run. */
static uint64_t rseq_restarts[NR_RESTARTS];
static unsigned int rseq_rounds;

/*
 * Round @index on lane @lane: a new pool, its threads started; the driver
 * stops it at r->end.
 */
static struct round *round_start(unsigned int index, unsigned int lane,
				 unsigned int nr_threads,
				 unsigned int nr_drainers,
				 unsigned int nr_kickers, double seconds,
				 uint64_t seed, enum pp_pcp_impl impl)
{
	struct round *r = calloc(1, sizeof(*r));
	uint64_t rng = seed ^ (0x9e3779b97f4a7c15ULL * (index + 1));
	int err;

	if (!r)
		bail_out("out of memory");
	r->index = index;
	r->lane = lane;
	r->nr_threads = nr_threads;
	r->nr_drainers = nr_drainers;
	r->nr_kickers = nr_kickers;
	r->workers = calloc(nr_threads + 1, sizeof(*r->workers));
	r->drainers = calloc(nr_drainers + 1, sizeof(*r->drainers));
	r->kickers = calloc(nr_kickers + 1, sizeof(*r->kickers));
	if (!r->workers || !r->drainers || !r->kickers)
		bail_out("out of memory");
	round_config(r, &rng, impl);
	r->pool = pp_pool_create(&r->cfg);
	if (!r->pool)
		bail_out("round %u: pp_pool_create(%lu pages, %s, pcp %s): %s",
			 index, r->cfg.nr_pages, pp_backend_name(r->cfg.backend),
			 pp_pcp_impl_name(impl), strerror(errno));
	r->impl = pp_pool_pcp_impl(r->pool);
	r->nr_pages = r->cfg.nr_pages;
	r->map = pp_pfn_to_page(r->pool, 0);
	r->arena = pp_page_address(r->pool, r->map);
	r->owner = calloc(r->nr_pages, sizeof(*r->owner));
	r->refs = calloc(r->nr_pages, sizeof(*r->refs));
	if (!r->owner || !r->refs)
		bail_out("out of memory");
	pp_pool_vmstat(r->pool, &r->initial);
	snprintf(r->desc, sizeof(r->desc), "round %u (lane %u): %lu pages, "
		 "batch %u high %u, %u pcp lists, %u nodes, pcp %s (asked %s), "
		 "%s profile, %s, "
		 "debug %s, %s%s%s, %s, %u threads, %u drainers, %u kickers",
		 index, lane,
		 r->nr_pages, r->cfg.pcp_batch, r->cfg.pcp_high,
		 r->initial.nr_cpus, pp_pool_nr_nodes(r->pool),
		 pp_pcp_impl_name(r->impl),
		 pp_pcp_impl_name(impl),
		 pp_profile_name(pp_pool_profile(r->pool)),
		 r->cfg.wmark_min ? "kernel watermarks" : "watermarks 0",
		 r->cfg.debug ? "on" : "off", pp_backend_name(r->cfg.backend),
		 r->cfg.backend != PP_BACKEND_JEMALLOC ? "" :
		 r->cfg.je_batch_alloc ? " (batch_alloc" : " (mallocx per page",
		 r->cfg.backend != PP_BACKEND_JEMALLOC ? "" :
		 r->cfg.je_tcache ? ", tcache)" : ", no tcache)",
		 pp_bulk_variant_name(r->cfg.bulk_variant), nr_threads,
		 nr_drainers, nr_kickers);
	for (unsigned int i = 0; i < nr_threads; i++) {
		err = pthread_mutex_init(&r->box[i].lock, NULL);
		if (err)
			die_errno("pthread_mutex_init", err);
	}
	err = pthread_barrier_init(&r->start, NULL,
				   nr_threads + nr_drainers + nr_kickers + 1);
	if (err)
		die_errno("pthread_barrier_init", err);

	for (unsigned int i = 0; i <= nr_threads; i++) {
		struct worker *w = &r->workers[i];

		w->id = i;
		w->r = r;
		w->rng = rng ^ (0xbf58476d1ce4e5b9ULL * (i + 1));
		/* together about the pool: it runs dry now and then */
		w->nr_slots = 4 + (unsigned int)rnd(w, 2 * r->nr_pages /
						    nr_threads + 1);
		if (w->nr_slots > MAX_SLOTS)
			w->nr_slots = MAX_SLOTS;
		if (i == nr_threads)
			break;
		err = pthread_create(&w->thread, NULL, worker_main, w);
		if (err)
			die_errno("pthread_create", err);
	}
	for (unsigned int i = 0; i < nr_drainers; i++) {
		struct drainer *d = &r->drainers[i];

		d->r = r;
		d->rng = rng ^ (0x94d049bb133111ebULL * (i + 1));
		err = pthread_create(&d->thread, NULL, drainer_main, d);
		if (err)
			die_errno("pthread_create", err);
	}
	for (unsigned int i = 0; i < nr_kickers; i++) {
		struct kicker *k = &r->kickers[i];

		k->r = r;
		k->rng = rng ^ (0xd6e8feb86659fd93ULL * (i + 1));
		err = pthread_create(&k->thread, NULL, kicker_main, k);
		if (err)
			die_errno("pthread_create", err);
	}
	err = pthread_barrier_wait(&r->start);
	if (err && err != PTHREAD_BARRIER_SERIAL_THREAD)
		die_errno("pthread_barrier_wait", err);
	r->end = now_s() + seconds;
	return r;
}

static uint64_t restarts_of(const struct pp_vmstat *st, char *buf,
			    size_t len)
{
	uint64_t sum = 0;
	size_t off = 0;

	buf[0] = '\0';
	for (unsigned int i = 0; i < NR_RESTARTS; i++) {
		enum pp_vm_event ev = (enum pp_vm_event)(PP_PCP_RESTART_ALLOC + i);

		sum += st->events[ev];
		if (off < len)
			off += (size_t)snprintf(buf + off, len - off, "%s%s %llu",
						i ? ", " : "",
						pp_vm_event_name(ev) +
						strlen("pcp_restart_"),
						(unsigned long long)st->events[ev]);
	}
	return sum;
}

/* What a round's threads did, summed when it stops. */
struct round_tally {
	unsigned long got, freed, errors, calls[C_NR];
	unsigned long sent, shared, held, refs;
	unsigned long drains, moves, signals;
	const char *first_error;
};

/*
 * Stop round @r: join its threads (the kickers first: they signal workers
 * by their pthread_t), put what was still in flight between them, and sum
 * what they did into @t, with the pages still owned or referenced.
 */
static void round_stop(struct round *r, struct round_tally *t)
{
	struct worker *cleanup = &r->workers[r->nr_threads];
	int err;

	memset(t, 0, sizeof(*t));
	atomic_store(&r->stop, true);
	for (unsigned int i = 0; i < r->nr_kickers; i++) {
		err = pthread_join(r->kickers[i].thread, NULL);
		if (err)
			die_errno("pthread_join", err);
		t->signals += r->kickers[i].signals;
		t->moves += r->kickers[i].moves;
	}
	for (unsigned int i = 0; i < r->nr_threads; i++) {
		err = pthread_join(r->workers[i].thread, NULL);
		if (err)
			die_errno("pthread_join", err);
	}
	for (unsigned int i = 0; i < r->nr_drainers; i++) {
		err = pthread_join(r->drainers[i].thread, NULL);
		if (err)
			die_errno("pthread_join", err);
		t->drains += r->drainers[i].drains;
		t->moves += r->drainers[i].moves;
	}
	/* What was still in flight between threads. */
	for (unsigned int i = 0; i < r->nr_threads; i++)
		empty_box(cleanup, &r->box[i], i % 2);

	for (unsigned int i = 0; i <= r->nr_threads; i++) {
		const struct worker *w = &r->workers[i];

		t->got += w->got;
		t->freed += w->freed;
		t->sent += w->sent;
		t->shared += w->shared;
		t->drains += w->drains;
		t->moves += w->moves;
		for (unsigned int c = 0; c < C_NR; c++)
			t->calls[c] += w->calls[c];
		if (w->errors && !t->first_error)
			t->first_error = w->error;
		t->errors += w->errors;
	}
	for (unsigned long pfn = 0; pfn < r->nr_pages; pfn++) {
		t->held += atomic_load(&r->owner[pfn]) != 0;
		t->refs += atomic_load(&r->refs[pfn]) != 0;
	}
}

/*
 * Round @r's checks against its pool's counters: no error, every page
 * back, the counters adding up to what the threads did, drains, rseq
 * restarts (counted for the end) or none under the lock.
 */
static void round_check(struct round *r, const struct round_tally *t)
{
	unsigned int index = r->index;
	struct pp_vmstat st;
	uint64_t restarts;
	char restart_desc[256];

	pp_pool_vmstat(r->pool, &st);
	restarts = restarts_of(&st, restart_desc, sizeof(restart_desc));
	diag("%s: %lu pages allocated, %lu sent to another thread (%lu extra "
	     "references), calls: %lu single, %lu list, %lu array; %lu drains, "
	     "%lu moves between CPUs, %lu signals; trylock fallbacks %llu + "
	     "%llu; restarts: %s", r->desc, t->got, t->sent, t->shared,
	     t->calls[C_SINGLE], t->calls[C_LIST], t->calls[C_ARRAY],
	     t->drains, t->moves, t->signals,
	     (unsigned long long)st.events[PP_PCP_TRYLOCK_FAIL],
	     (unsigned long long)st.events[PP_BULK_FALLBACK_TRYLOCK],
	     restart_desc);
	ok(t->errors == 0, "round %u: no page handed out twice, written while "
	   "held or freed twice; array and list contracts kept (%lu errors%s%s)",
	   index, t->errors, t->first_error ? ": " : "",
	   t->first_error ? t->first_error : "");
	ok(t->held == 0 && t->refs == 0 && t->got == t->freed &&
	   st.nr_free + st.nr_pcp + st.nr_backend == r->nr_pages,
	   "round %u: every page back (%lu still owned, %lu referenced, %lu "
	   "got, %lu freed; %lu free + %lu pcp + %lu backend of %lu)", index,
	   t->held, t->refs, t->got, t->freed, st.nr_free, st.nr_pcp,
	   st.nr_backend, r->nr_pages);
	ok(st.events[PP_PGALLOC] == t->got &&
	   st.events[PP_PGFREE] == t->freed &&
	   st.events[PP_ALLOC_SINGLE_CALLS] == t->calls[C_SINGLE] &&
	   st.events[PP_ALLOC_BULK_LIST_CALLS] == t->calls[C_LIST] &&
	   st.events[PP_ALLOC_BULK_ARRAY_CALLS] == t->calls[C_ARRAY],
	   "round %u: counters add up (pgalloc %llu / %lu got, pgfree %llu / "
	   "%lu freed, calls %llu/%llu/%llu / %lu/%lu/%lu)", index,
	   (unsigned long long)st.events[PP_PGALLOC], t->got,
	   (unsigned long long)st.events[PP_PGFREE], t->freed,
	   (unsigned long long)st.events[PP_ALLOC_SINGLE_CALLS],
	   (unsigned long long)st.events[PP_ALLOC_BULK_LIST_CALLS],
	   (unsigned long long)st.events[PP_ALLOC_BULK_ARRAY_CALLS],
	   t->calls[C_SINGLE], t->calls[C_LIST], t->calls[C_ARRAY]);
	/* Every pp_pool_drain() is one; the slow path adds one at most. */
	ok(st.events[PP_DRAIN_ALL] >= t->drains &&
	   st.events[PP_DRAIN_ALL] - t->drains <= st.events[PP_ALLOC_SLOWPATH],
	   "round %u: drain_all %llu counts the %lu drains made (and the slow "
	   "path's, %llu slow paths)", index,
	   (unsigned long long)st.events[PP_DRAIN_ALL], t->drains,
	   (unsigned long long)st.events[PP_ALLOC_SLOWPATH]);
	if (r->impl == PP_PCP_RSEQ) {
		for (unsigned int i = 0; i < NR_RESTARTS; i++)
			rseq_restarts[i] +=
				st.events[PP_PCP_RESTART_ALLOC + i];
		rseq_rounds++;
		ok(st.pcp_impl == PP_PCP_RSEQ, "round %u: rseq, vmstat says so "
		   "(%llu restarts)", index, (unsigned long long)restarts);
	} else {
		ok(restarts == 0 && st.pcp_impl == PP_PCP_LOCK,
		   "round %u: the lock counts no rseq restart (%s)", index,
		   restart_desc);
	}
}

/*
 * The most the kernel profile's NR_FREE_PAGES may lag nr_free: each CPU's
 * differential of each zone stays within the zone's stat_threshold, which
 * is calculate_normal_threshold()'s 2 * fls(CPUs) * (1 + fls(the zone's
 * size in 128 MiB units)), at most 125 (include/pagepool/pagepool.h,
 * nr_free_folded).
 */
static unsigned long fls_of(unsigned long x)
{
	return x ? 64UL - (unsigned long)__builtin_clzl(x) : 0;
}

static unsigned long fold_bound(struct pp_pool *pool, unsigned int nr_cpus)
{
	unsigned long bound = 0;

	for (unsigned int n = 0; n < pp_pool_nr_nodes(pool); n++) {
		struct pp_node_vmstat nv;
		unsigned long t;

		if (pp_pool_node_vmstat(pool, n, &nv))
			return 0;
		/* 128 MiB of 4 KiB pages: 2^15 */
		t = 2 * fls_of(nr_cpus) * (1 + fls_of(nv.nr_pages >> 15));
		bound += nr_cpus * (t < 125 ? t : 125);
	}
	return bound;
}

/*
 * Round @r's pool drained must have the shape it had after create (buddy
 * backend), NR_FREE_PAGES must be within the CPUs' differentials of the
 * pages free (exact on the lean profile), and the pool must be destroyed
 * without a leak; then the round is freed.
 */
static void round_destroy(struct round *r)
{
	struct pp_vmstat st;
	bool same_shape = true;
	unsigned long bound, gap;
	int err;

	pp_pool_drain(r->pool);
	pp_pool_vmstat(r->pool, &st);
	/*
	 * Every path that moves pages between the buddy lists and anywhere
	 * else moves NR_FREE_PAGES with them, the rare ones included: a
	 * refill that finds its list stopped by a remote drain (rseq) puts
	 * its pages back, and their count, under the same zone lock.
	 */
	bound = st.profile == PP_PROFILE_KERNEL ?
		fold_bound(r->pool, st.nr_cpus) : 0;
	gap = st.nr_free > st.nr_free_folded ? st.nr_free - st.nr_free_folded :
	      st.nr_free_folded - st.nr_free;
	ok(gap <= bound, "round %u: NR_FREE_PAGES %lu, %lu pages free: %lu "
	   "apart, the CPUs' differentials allow %lu", r->index,
	   st.nr_free_folded, st.nr_free, gap, bound);
	if (r->cfg.backend == PP_BACKEND_BUDDY)
		same_shape = st.nr_free == r->nr_pages && st.nr_pcp == 0 &&
			     free_area_equal(&st, &r->initial);
	err = pp_pool_destroy(r->pool);
	ok(same_shape && err == 0, "round %u: %s, pp_pool_destroy() %d",
	   r->index, r->cfg.backend == PP_BACKEND_BUDDY ?
	   (same_shape ? "buddy lists as after create" :
	    "buddy lists NOT as after create") :
	   "jemalloc gives every page back", err);

	for (unsigned int i = 0; i < r->nr_threads; i++) {
		pthread_mutex_destroy(&r->box[i].lock);
		free(r->box[i].items);
	}
	pthread_barrier_destroy(&r->start);
	free((void *)r->owner);
	free(r->refs);
	free(r->workers);
	free(r->drainers);
	free(r->kickers);
	free(r);
}

/* Stop round @r, check it, destroy its pool. */
static void round_finish(struct round *r)
{
	struct round_tally t;

	round_stop(r, &t);
	round_check(r, &t);
	round_destroy(r);
}

/* --- the driver ------------------------------------------------------------ */

/* The help on stdout and exit 0, or on stderr and exit @status (bad usage). */
__attribute__((noreturn))
static void usage(int status)
{
	fprintf(status ? stderr : stdout,
"Usage: pp-stress [OPTION]...\n"
"Many threads on tiny libpagepool pools for a set time; then every page\n"
"must be back and every counter must add up.  TAP on stdout.\n"
"\n"
"  -d, --duration=SECONDS  the whole run (default: $STRESS_SECONDS, or 10)\n"
"  -r, --round=SECONDS     one pool, one geometry (default: 1)\n"
"  -t, --threads=N         worker threads per pool, 2..%d (default: 8)\n"
"  -l, --lanes=N           pools at a time, out of step, 1..%d (default: 2)\n"
"  -D, --drainers=N        threads per pool that only drain, 0..%d\n"
"                          (default: 1)\n"
"  -k, --kickers=N         threads per pool that signal the workers and\n"
"                          move them between CPUs, 0..%d (default: 1)\n"
"  -p, --pcp=LIST          pcp implementations the rounds take in turn,\n"
"                          of auto, rseq, lock (default: $PAGEPOOL_PCP,\n"
"                          or rseq,lock)\n"
"  -s, --seed=N            geometry and choices (default: 1; also\n"
"                          $PP_TEST_SEED)\n"
"  -h, --help              this help\n", MAX_THREADS, MAX_LANES,
		MAX_DRAINERS, MAX_DRAINERS);
	exit(status);
}

/* Decimal digits with an optional fraction (common/number.h). */
static double parse_seconds(const char *opt, const char *arg)
{
	double v;

	if (num_parse_decimal(arg, &v) || !(v > 0) || v > 86400)
		tool_die(2, "invalid %s '%s': accepted seconds above 0, up to "
			 "86400", opt, arg);
	return v;
}

/* Digits only (common/number.h). */
static unsigned int parse_count(const char *opt, const char *arg,
				unsigned int min, unsigned int max)
{
	uint64_t v;

	if (num_parse_u64(arg, &v) || v < min || v > max)
		tool_die(2, "invalid %s '%s': accepted %u..%u", opt, arg, min,
			 max);
	return (unsigned int)v;
}

/* "rseq,lock" into @impls; returns how many. */
static unsigned int parse_pcp(const char *opt, const char *arg,
			      enum pp_pcp_impl *impls, unsigned int max)
{
	unsigned int n = 0;
	const char *p = arg;

	for (;;) {
		size_t len = strcspn(p, ",");
		char name[16];
		int impl = -EINVAL;

		if (len < sizeof(name)) {
			memcpy(name, p, len);
			name[len] = '\0';
			impl = pp_pcp_impl_from_name(name);
		}
		if (impl < 0 || n == max) {
			fprintf(stderr, "pp-stress: invalid %s '%s': accepted a "
				"list of auto, rseq, lock\n", opt, arg);
			exit(2);
		}
		impls[n++] = (enum pp_pcp_impl)impl;
		if (!p[len])
			return n;
		p += len + 1;
	}
}

/* What the command line and the environment ask for. */
struct stress_opts {
	double duration, round_s;
	unsigned int nr_threads, nr_lanes, nr_drainers, nr_kickers;
	unsigned int nr_impls;
	enum pp_pcp_impl impls[16];
	uint64_t seed;
};

/* The options and STRESS_SECONDS, PAGEPOOL_PCP, PP_TEST_SEED into @o. */
static void parse_args(int argc, char **argv, struct stress_opts *o)
{
	static const struct option longopts[] = {
		{ "duration", required_argument, NULL, 'd' },
		{ "round", required_argument, NULL, 'r' },
		{ "threads", required_argument, NULL, 't' },
		{ "lanes", required_argument, NULL, 'l' },
		{ "drainers", required_argument, NULL, 'D' },
		{ "kickers", required_argument, NULL, 'k' },
		{ "pcp", required_argument, NULL, 'p' },
		{ "seed", required_argument, NULL, 's' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	const char *env = getenv("STRESS_SECONDS");
	const char *pcp_env = getenv("PAGEPOOL_PCP");
	char *end;
	int c;

	*o = (struct stress_opts){
		.duration = 10, .round_s = 1, .nr_threads = 8, .nr_lanes = 2,
		.nr_drainers = 1, .nr_kickers = 1, .seed = 1,
	};
	if (env && *env)
		o->duration = parse_seconds("STRESS_SECONDS", env);
	o->nr_impls = parse_pcp("PAGEPOOL_PCP", pcp_env && *pcp_env ?
				pcp_env : "rseq,lock", o->impls, 16);
	while ((c = getopt_long(argc, argv, "d:r:t:l:D:k:p:s:h", longopts,
				NULL)) != -1) {
		switch (c) {
		case 'd':
			o->duration = parse_seconds("--duration", optarg);
			break;
		case 'r':
			o->round_s = parse_seconds("--round", optarg);
			break;
		case 't':
			o->nr_threads = parse_count("--threads", optarg, 2,
						    MAX_THREADS);
			break;
		case 'l':
			o->nr_lanes = parse_count("--lanes", optarg, 1,
						  MAX_LANES);
			break;
		case 'D':
			o->nr_drainers = parse_count("--drainers", optarg, 0,
						     MAX_DRAINERS);
			break;
		case 'k':
			o->nr_kickers = parse_count("--kickers", optarg, 0,
						    MAX_DRAINERS);
			break;
		case 'p':
			o->nr_impls = parse_pcp("--pcp", optarg, o->impls, 16);
			break;
		case 's':
			errno = 0;
			o->seed = strtoull(optarg, &end, 0);
			if (errno || end == optarg || *end) {
				fprintf(stderr, "pp-stress: invalid --seed "
					"'%s': accepted an integer\n", optarg);
				exit(2);
			}
			break;
		default:	/* -h, --help: exit 0; anything else: bad usage */
			usage(c == 'h' ? 0 : 2);
		}
	}
	if (optind < argc)
		tool_die(2, "unexpected argument '%s'", argv[optind]);
	if (getenv("PP_TEST_SEED"))
		o->seed = test_seed(o->seed);
	if (o->round_s > o->duration)
		o->round_s = o->duration;
}

/* The CPUs this process may run on (run_cpus), and the kickers' signal. */
static void setup_process(void)
{
	struct sigaction sa;

	if (sched_getaffinity(0, sizeof(run_cpus), &run_cpus))
		die_errno("sched_getaffinity", errno);
	for (int cpu = 0; cpu < CPU_SETSIZE; cpu++)
		if (CPU_ISSET(cpu, &run_cpus))
			run_cpu_list[run_nr_cpus++] = cpu;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_kick;
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGUSR1, &sa, NULL))
		die_errno("sigaction", errno);
}

/*
 * Rounds in @o->nr_lanes lanes, out of step, until @o->duration from
 * @start is spent: each round that ends is checked and replaced.
 * Returns how many rounds ran.
 */
static unsigned int run_lanes(const struct stress_opts *o, double start)
{
	struct round *lanes[MAX_LANES] = { NULL };
	unsigned int rounds = 0, running = 0;

	/* Out of step: lane l's first round ends at (l + 1) / lanes rounds. */
	for (unsigned int l = 0; l < o->nr_lanes; l++) {
		lanes[l] = round_start(rounds, l, o->nr_threads,
				       o->nr_drainers, o->nr_kickers,
				       o->round_s * (l + 1) / o->nr_lanes,
				       o->seed,
				       o->impls[rounds % o->nr_impls]);
		rounds++;
		running++;
	}
	while (running) {
		unsigned int next = MAX_LANES;
		double left;

		for (unsigned int l = 0; l < o->nr_lanes; l++)
			if (lanes[l] && (next == MAX_LANES ||
					 lanes[l]->end < lanes[next]->end))
				next = l;
		/* Meanwhile: counters read while everything moves. */
		while (now_s() < lanes[next]->end) {
			struct pp_vmstat st;

			for (unsigned int l = 0; l < o->nr_lanes; l++)
				if (lanes[l])
					pp_pool_vmstat(lanes[l]->pool, &st);
			sleep_ms(10);
		}
		round_finish(lanes[next]);
		lanes[next] = NULL;
		running--;
		left = o->duration - (now_s() - start);
		if (left < 0.05)
			continue;
		lanes[next] = round_start(rounds, next, o->nr_threads,
					  o->nr_drainers, o->nr_kickers,
					  left < o->round_s ? left : o->round_s,
					  o->seed,
					  o->impls[rounds % o->nr_impls]);
		rounds++;
		running++;
	}
	return rounds;
}

/* The rseq rounds must have counted restarts: the abort paths ran. */
static void check_restarts(void)
{
	const char *why = "";
	uint64_t total = 0;

	for (unsigned int i = 0; i < NR_RESTARTS; i++)
		total += rseq_restarts[i];
	if (rseq_rounds) {
		char desc[256];
		size_t off = 0;

		for (unsigned int i = 0; i < NR_RESTARTS && off < sizeof(desc);
		     i++)
			off += (size_t)snprintf(desc + off, sizeof(desc) - off,
				"%s%s %llu", i ? ", " : "",
				pp_vm_event_name((enum pp_vm_event)
						 (PP_PCP_RESTART_ALLOC + i)),
				(unsigned long long)rseq_restarts[i]);
		ok(total > 0, "rseq: the %u rseq rounds counted %llu restarts, "
		   "sections aborted and run again (%s)", rseq_rounds,
		   (unsigned long long)total, desc);
	} else if (!pp_pcp_rseq_supported(&why)) {
		skip(1, "rseq restarts: no round ran rseq (%s)", why);
	} else {
		skip(1, "rseq restarts: no round ran rseq (--pcp, or rounds "
		     "too few to reach one)");
	}
}

int main(int argc, char **argv)
{
	struct stress_opts o;
	unsigned int rounds;
	double start;

	tool_set_name("pp-stress");
	parse_args(argc, argv, &o);
	setup_process();

	plan_no_plan();
	diag("pp-stress: %.1f s in rounds of %.1f s, %u lanes of %u threads, "
	     "%u drainers and %u kickers, %d CPUs, seed %llu (--seed or "
	     "PP_TEST_SEED to replay)", o.duration, o.round_s, o.nr_lanes,
	     o.nr_threads, o.nr_drainers, o.nr_kickers, run_nr_cpus,
	     (unsigned long long)o.seed);
	start = now_s();
	rounds = run_lanes(&o, start);
	check_restarts();
	diag("pp-stress: %u rounds in %.1f s", rounds, now_s() - start);
	return exit_status();
}
