/* SPDX-License-Identifier: MIT */
/*
 * pp-stress: many threads on tiny pools for a set time, then every page
 * must be back and every counter must add up.
 *
 *   pp-stress [--duration=SECONDS] [--round=SECONDS] [--threads=N]
 *             [--seed=N]
 *
 * The run is a sequence of rounds (default 1 s each, --duration in all,
 * default $STRESS_SECONDS or 10).  Each round builds a pool of its own
 * with a random geometry: 64 to 1024 pages (1024 to 2048 for jemalloc),
 * pcp batch 1..16 and high batch..6 * batch, 1 to 4 pcp lists for the
 * threads of a 2-CPU machine to fight over, zero or the kernel's
 * watermarks, debug checks on or off, the buddy or (one round in five)
 * the jemalloc backend, a bulk variant.  Then --threads threads (default
 * 12) each keep an rq_pages-like array with holes and, at random:
 *
 *   - refill the holes with pp_alloc_page() per hole, with
 *     pp_alloc_pages_bulk_list() for the hole count, or with
 *     pp_alloc_pages_bulk_array() (GFP_ZERO now and then);
 *   - punch holes: put the pages, release them in a batch with NULL
 *     entries, or send them to another thread, which frees them there
 *     (cross-thread frees, onto another CPU's pcp list);
 *   - take an extra reference and send it to another thread (both put);
 *   - allocate and free order 1..4 blocks;
 *   - drain the pcp lists; thread 0 also switches the bulk variant.
 *
 * Every page handed out is claimed in a byte per pfn with an atomic
 * exchange (a page handed out twice shows at once), its holders counted
 * in a shadow refcount, a signature written in it and checked by the last
 * holder before the last put.  Workers only count; after the join the
 * main thread frees what is left in the mailboxes and checks, per round:
 * no worker saw anything wrong; every page is back (ownership bytes and
 * shadow refcounts zero); pgalloc = pgfree = the pages the threads got and
 * freed, the call counters equal the calls made; after a drain the buddy
 * lists have their shape right after create; pp_pool_destroy() returns 0.
 *
 * TAP on stdout (four checks per round).  Not part of make check: make
 * stress runs it (STRESS_SECONDS, default 60), .ci/run for 10 s in the
 * ThreadSanitizer build.
 */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <pagepool/pagepool.h>

#include "pp_test.h"
#include "tap.h"

#define MAX_THREADS	64
#define MAX_SLOTS	256
#define MAX_BIG		8
#define MAX_BIG_ORDER	4
#define SIG_MAGIC	0x57e55c0ffee0000ULL

struct item {
	struct pp_page *page;
	unsigned int order;
};

struct mailbox {
	pthread_mutex_t lock;
	struct item *items;
	size_t nr, cap;
};

/* What the round's threads share. */
struct round {
	unsigned int index;
	struct pp_pool_config cfg;
	struct pp_pool *pool;
	struct pp_page *map;
	char *arena;
	unsigned long nr_pages;
	_Atomic unsigned char *owner;	/* per pfn: held by someone */
	atomic_int *refs;		/* per block head: our references */
	struct mailbox box[MAX_THREADS];
	unsigned int nr_threads;
	atomic_bool stop;
	pthread_barrier_t start;
};

enum { C_SINGLE, C_LIST, C_ARRAY, C_NR };

struct worker {
	pthread_t thread;
	unsigned int id;
	uint64_t rng;
	struct round *r;
	struct pp_page *slots[MAX_SLOTS];
	unsigned int nr_slots;
	struct item big[MAX_BIG];
	unsigned int nr_big;
	/* Results, read by main after the join. */
	unsigned long got, freed, calls[C_NR], sent, shared, zeroed;
	unsigned long errors;
	char error[256];
};

static struct worker workers[MAX_THREADS + 1];	/* + main's cleanup */

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

	memcpy(old, w->slots, w->nr_slots * sizeof(*old));
	w->calls[C_ARRAY]++;
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

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	struct round *r = w->r;
	int err;

	err = pthread_barrier_wait(&r->start);
	if (err && err != PTHREAD_BARRIER_SERIAL_THREAD)
		die_errno("pthread_barrier_wait", err);
	while (!atomic_load_explicit(&r->stop, memory_order_relaxed)) {
		unsigned long a = rnd(w, 1000);

		if (a < 400) {
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
		} else if (a < 700) {
			punch(w);
		} else if (a < 760) {
			share(w);
		} else if (a < 850) {
			big(w);
		} else if (a < 990) {
			empty_box(w, &r->box[w->id], rnd(w, 2));
		} else if (a < 997) {
			pp_pool_drain(r->pool);
		} else if (w->id == 0) {
			pp_pool_set_bulk_variant(r->pool, (enum pp_bulk_variant)
						 rnd(w, PP_NR_BULK_VARIANTS));
		}
	}
	/* Give back what this thread holds; mailboxes are main's. */
	for (unsigned int i = 0; i < w->nr_slots; i++)
		if (w->slots[i])
			put_ref(w, w->slots[i], 0);
	while (w->nr_big) {
		w->nr_big--;
		put_ref(w, w->big[w->nr_big].page, w->big[w->nr_big].order);
	}
	return NULL;
}

/* --- a round --------------------------------------------------------------- */

static void round_config(struct round *r, uint64_t *rng)
{
	struct pp_pool_config *cfg = &r->cfg;

	pp_pool_config_init(cfg);
	cfg->backend = test_rand(rng) % 5 == 0 ? PP_BACKEND_JEMALLOC :
						   PP_BACKEND_BUDDY;
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
	cfg->nr_cpus = 1 + (unsigned int)(test_rand(rng) % 4);
	if (test_rand(rng) % 2)
		cfg->wmark_min = cfg->wmark_low = cfg->wmark_high = 0;
	cfg->debug = test_rand(rng) % 2;
	cfg->bulk_variant = (enum pp_bulk_variant)(test_rand(rng) %
						   PP_NR_BULK_VARIANTS);
}

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void run_round(unsigned int index, unsigned int nr_threads,
		      double seconds, uint64_t seed)
{
	struct round r = { .index = index, .nr_threads = nr_threads };
	struct worker *cleanup = &workers[nr_threads];
	struct pp_vmstat initial, st;
	unsigned long got = 0, freed = 0, errors = 0, calls[C_NR] = { 0 };
	unsigned long sent = 0, shared = 0, held = 0, refs = 0;
	const char *first_error = NULL;
	uint64_t rng = seed ^ (0x9e3779b97f4a7c15ULL * (index + 1));
	double end;
	bool same_shape = true;
	int err;
	char desc[256];

	round_config(&r, &rng);
	r.pool = pp_pool_create(&r.cfg);
	if (!r.pool)
		bail_out("round %u: pp_pool_create(%lu pages, %s): %s", index,
			 r.cfg.nr_pages, pp_backend_name(r.cfg.backend),
			 strerror(errno));
	r.nr_pages = r.cfg.nr_pages;
	r.map = pp_pfn_to_page(r.pool, 0);
	r.arena = pp_page_address(r.pool, r.map);
	r.owner = calloc(r.nr_pages, sizeof(*r.owner));
	r.refs = calloc(r.nr_pages, sizeof(*r.refs));
	if (!r.owner || !r.refs)
		bail_out("out of memory");
	snprintf(desc, sizeof(desc), "round %u: %lu pages, batch %u high %u, "
		 "%u cpus, %s, debug %s, %s%s%s, %s, %u threads", index,
		 r.nr_pages, r.cfg.pcp_batch, r.cfg.pcp_high, r.cfg.nr_cpus,
		 r.cfg.wmark_min ? "kernel watermarks" : "watermarks 0",
		 r.cfg.debug ? "on" : "off", pp_backend_name(r.cfg.backend),
		 r.cfg.backend != PP_BACKEND_JEMALLOC ? "" :
		 r.cfg.je_batch_alloc ? " (batch_alloc" : " (mallocx per page",
		 r.cfg.backend != PP_BACKEND_JEMALLOC ? "" :
		 r.cfg.je_tcache ? ", tcache)" : ", no tcache)",
		 pp_bulk_variant_name(r.cfg.bulk_variant), nr_threads);
	pp_pool_vmstat(r.pool, &initial);
	for (unsigned int i = 0; i < nr_threads; i++) {
		err = pthread_mutex_init(&r.box[i].lock, NULL);
		if (err)
			die_errno("pthread_mutex_init", err);
	}
	err = pthread_barrier_init(&r.start, NULL, nr_threads + 1);
	if (err)
		die_errno("pthread_barrier_init", err);

	for (unsigned int i = 0; i <= nr_threads; i++) {
		struct worker *w = &workers[i];

		memset(w, 0, sizeof(*w));
		w->id = i;
		w->r = &r;
		w->rng = rng ^ (0xbf58476d1ce4e5b9ULL * (i + 1));
		/* together about the pool: it runs dry now and then */
		w->nr_slots = 4 + (unsigned int)rnd(w, 2 * r.nr_pages /
						    nr_threads + 1);
		if (w->nr_slots > MAX_SLOTS)
			w->nr_slots = MAX_SLOTS;
		if (i == nr_threads)
			break;
		err = pthread_create(&w->thread, NULL, worker_main, w);
		if (err)
			die_errno("pthread_create", err);
	}
	err = pthread_barrier_wait(&r.start);
	if (err && err != PTHREAD_BARRIER_SERIAL_THREAD)
		die_errno("pthread_barrier_wait", err);
	/* Meanwhile: counters read while everything moves. */
	end = now_s() + seconds;
	while (now_s() < end) {
		pp_pool_vmstat(r.pool, &st);
		sleep_ms(10);
	}
	atomic_store(&r.stop, true);
	for (unsigned int i = 0; i < nr_threads; i++) {
		err = pthread_join(workers[i].thread, NULL);
		if (err)
			die_errno("pthread_join", err);
	}
	/* What was still in flight between threads. */
	for (unsigned int i = 0; i < nr_threads; i++)
		empty_box(cleanup, &r.box[i], i % 2);

	for (unsigned int i = 0; i <= nr_threads; i++) {
		const struct worker *w = &workers[i];

		got += w->got;
		freed += w->freed;
		sent += w->sent;
		shared += w->shared;
		for (unsigned int c = 0; c < C_NR; c++)
			calls[c] += w->calls[c];
		if (w->errors && !first_error)
			first_error = w->error;
		errors += w->errors;
	}
	for (unsigned long pfn = 0; pfn < r.nr_pages; pfn++) {
		held += atomic_load(&r.owner[pfn]) != 0;
		refs += atomic_load(&r.refs[pfn]) != 0;
	}

	diag("%s: %lu pages allocated, %lu sent to another thread (%lu extra "
	     "references), calls: %lu single, %lu list, %lu array", desc, got,
	     sent, shared, calls[C_SINGLE], calls[C_LIST], calls[C_ARRAY]);
	ok(errors == 0, "round %u: no page handed out twice, written while "
	   "held or freed twice; array and list contracts kept (%lu errors%s%s)",
	   index, errors, first_error ? ": " : "",
	   first_error ? first_error : "");
	pp_pool_vmstat(r.pool, &st);
	ok(held == 0 && refs == 0 && got == freed &&
	   st.nr_free + st.nr_pcp + st.nr_backend == r.nr_pages,
	   "round %u: every page back (%lu still owned, %lu referenced, %lu "
	   "got, %lu freed; %lu free + %lu pcp + %lu backend of %lu)", index,
	   held, refs, got, freed, st.nr_free, st.nr_pcp, st.nr_backend,
	   r.nr_pages);
	ok(st.events[PP_PGALLOC] == got && st.events[PP_PGFREE] == freed &&
	   st.events[PP_ALLOC_SINGLE_CALLS] == calls[C_SINGLE] &&
	   st.events[PP_ALLOC_BULK_LIST_CALLS] == calls[C_LIST] &&
	   st.events[PP_ALLOC_BULK_ARRAY_CALLS] == calls[C_ARRAY],
	   "round %u: counters add up (pgalloc %llu / %lu got, pgfree %llu / "
	   "%lu freed, calls %llu/%llu/%llu / %lu/%lu/%lu)", index,
	   (unsigned long long)st.events[PP_PGALLOC], got,
	   (unsigned long long)st.events[PP_PGFREE], freed,
	   (unsigned long long)st.events[PP_ALLOC_SINGLE_CALLS],
	   (unsigned long long)st.events[PP_ALLOC_BULK_LIST_CALLS],
	   (unsigned long long)st.events[PP_ALLOC_BULK_ARRAY_CALLS],
	   calls[C_SINGLE], calls[C_LIST], calls[C_ARRAY]);
	pp_pool_drain(r.pool);
	pp_pool_vmstat(r.pool, &st);
	if (r.cfg.backend == PP_BACKEND_BUDDY)
		same_shape = st.nr_free == r.nr_pages && st.nr_pcp == 0 &&
			     free_area_equal(&st, &initial);
	err = pp_pool_destroy(r.pool);
	ok(same_shape && err == 0, "round %u: %s, pp_pool_destroy() %d", index,
	   r.cfg.backend == PP_BACKEND_BUDDY ?
	   (same_shape ? "buddy lists as after create" :
	    "buddy lists NOT as after create") :
	   "jemalloc gives every page back", err);

	for (unsigned int i = 0; i < nr_threads; i++) {
		pthread_mutex_destroy(&r.box[i].lock);
		free(r.box[i].items);
	}
	pthread_barrier_destroy(&r.start);
	free((void *)r.owner);
	free(r.refs);
}

static void usage(FILE *f)
{
	fprintf(f,
"Usage: pp-stress [OPTION]...\n"
"Many threads on tiny libpagepool pools for a set time; then every page\n"
"must be back and every counter must add up.  TAP on stdout.\n"
"\n"
"  -d, --duration=SECONDS  the whole run (default: $STRESS_SECONDS, or 10)\n"
"  -r, --round=SECONDS     one pool, one geometry (default: 1)\n"
"  -t, --threads=N         threads, 2..%d (default: 12)\n"
"  -s, --seed=N            geometry and choices (default: 1; also\n"
"                          $PP_TEST_SEED)\n"
"  -h, --help              this help\n", MAX_THREADS);
}

static double parse_seconds(const char *opt, const char *arg)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(arg, &end);
	if (errno || end == arg || *end || !(v > 0) || v > 86400) {
		fprintf(stderr, "pp-stress: invalid %s '%s': accepted seconds "
			"above 0, up to 86400\n", opt, arg);
		exit(2);
	}
	return v;
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "duration", required_argument, NULL, 'd' },
		{ "round", required_argument, NULL, 'r' },
		{ "threads", required_argument, NULL, 't' },
		{ "seed", required_argument, NULL, 's' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	const char *env = getenv("STRESS_SECONDS");
	double duration = 10, round_s = 1, start;
	unsigned int nr_threads = 12, rounds = 0;
	uint64_t seed = 1;
	char *end;
	int c;

	if (env && *env)
		duration = parse_seconds("STRESS_SECONDS", env);
	while ((c = getopt_long(argc, argv, "d:r:t:s:h", longopts, NULL)) !=
	       -1) {
		switch (c) {
		case 'd':
			duration = parse_seconds("--duration", optarg);
			break;
		case 'r':
			round_s = parse_seconds("--round", optarg);
			break;
		case 't':
			errno = 0;
			nr_threads = (unsigned int)strtoul(optarg, &end, 10);
			if (errno || end == optarg || *end || nr_threads < 2 ||
			    nr_threads > MAX_THREADS) {
				fprintf(stderr, "pp-stress: invalid --threads "
					"'%s': accepted 2..%d\n", optarg,
					MAX_THREADS);
				return 2;
			}
			break;
		case 's':
			errno = 0;
			seed = strtoull(optarg, &end, 0);
			if (errno || end == optarg || *end) {
				fprintf(stderr, "pp-stress: invalid --seed "
					"'%s': accepted an integer\n", optarg);
				return 2;
			}
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "pp-stress: unexpected argument '%s'\n",
			argv[optind]);
		return 2;
	}
	if (getenv("PP_TEST_SEED"))
		seed = test_seed(seed);
	if (round_s > duration)
		round_s = duration;

	plan_no_plan();
	diag("pp-stress: %.1f s in rounds of %.1f s, %u threads, seed %llu "
	     "(--seed or PP_TEST_SEED to replay)", duration, round_s,
	     nr_threads, (unsigned long long)seed);
	start = now_s();
	do {
		double left = duration - (now_s() - start);

		run_round(rounds++, nr_threads, left < round_s ? left : round_s,
			  seed);
	} while (now_s() - start < duration - 0.05);
	diag("pp-stress: %u rounds in %.1f s", rounds, now_s() - start);
	return exit_status();
}
