/* SPDX-License-Identifier: MIT */
/*
 * Four threads allocate with the array, list and single APIs and hand
 * every page to the next thread, which frees it: frees come from another
 * thread (and usually another CPU) than the allocation, as reply pages
 * sent on another thread do.  The main thread drains the pcp lists and
 * reads the counters meanwhile.  A per-pfn ownership byte catches a page
 * handed out twice.  Then two threads share one pcp list, so that one
 * holds its lock while the other takes the trylock-failed paths, and the
 * counters must still be exact once they are joined.  Workers only count;
 * main reports after the join.  Runs on both backends; the buddy shapes
 * at the end are the buddy allocator's.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <time.h>

#include <pagepool/pagepool.h>

#include "pp_test.h"
#include "tap.h"

#define NR_THREADS	4
#define NR_PAGES	8192
#define RUN_NS		500000000L	/* 0.5 s */
#define MAX_BULK	32

struct inbox {
	pthread_mutex_t lock;
	struct pp_list_head pages;	/* linked through pp_page.lru */
	unsigned long count;
};

struct worker {
	pthread_t thread;
	unsigned int id;
	uint64_t rng;
	/* Results, read by main after the join. */
	unsigned long allocated, freed, cross_freed, extra_refs;
	unsigned long dup, bad_release, bad_ret, bad_dummy, calls;
};

static struct pp_pool *pool;
static _Atomic unsigned char *owner;	/* one byte per pfn */
static struct inbox inboxes[NR_THREADS];
static struct worker workers[NR_THREADS];
static atomic_bool stop;
static pthread_barrier_t start;

/* The sender records itself in page->index, extra refs in private. */
static void send_page(struct worker *w, struct pp_page *page,
		      struct pp_list_head *out)
{
	unsigned long pfn = pp_page_to_pfn(pool, page);

	if (atomic_exchange(&owner[pfn], 1) != 0)
		w->dup++;
	w->allocated++;
	page->index = w->id;
	page->private = 0;
	if (test_rand(&w->rng) % 8 == 0) {
		pp_get_page(pool, page);
		page->private = 1;
		w->extra_refs++;
	}
	pp_list_add(&page->lru, out);
}

static void post(struct worker *w, struct pp_list_head *out,
		 unsigned long n)
{
	struct inbox *box = &inboxes[(w->id + 1) % NR_THREADS];

	if (!n)
		return;
	pthread_mutex_lock(&box->lock);
	/* Splice @out at the tail of the inbox. */
	out->next->prev = box->pages.prev;
	box->pages.prev->next = out->next;
	out->prev->next = &box->pages;
	box->pages.prev = out->prev;
	box->count += n;
	pthread_mutex_unlock(&box->lock);
	pp_list_init(out);
}

static void alloc_some(struct worker *w)
{
	struct pp_list_head out = PP_LIST_HEAD_INIT(out);
	struct pp_page *arr[MAX_BULK], dummy;
	unsigned long n = 1 + test_rand(&w->rng) % MAX_BULK, ret, sent = 0;
	struct pp_page *page;

	w->calls++;
	switch (test_rand(&w->rng) % 3) {
	case 0:
		/* Holes between entries the library must not touch. */
		memset(&dummy, 0x5c, sizeof(dummy));
		for (unsigned long i = 0; i < n; i++)
			arr[i] = test_rand(&w->rng) % 4 ? NULL : &dummy;
		ret = pp_alloc_pages_bulk_array(pool, PP_GFP_KERNEL, n, arr);
		for (unsigned long i = 0; i < n; i++) {
			if (i < ret && !arr[i])
				w->bad_ret++;
			if (arr[i] && arr[i] != &dummy) {
				send_page(w, arr[i], &out);
				sent++;
			}
		}
		if (ret > n)
			w->bad_ret++;
		for (size_t i = 0; i < sizeof(dummy); i++)
			if (((unsigned char *)&dummy)[i] != 0x5c) {
				w->bad_dummy++;
				break;
			}
		break;
	case 1:
		ret = pp_alloc_pages_bulk_list(pool, PP_GFP_KERNEL, n, &out);
		if (list_length(&out) != ret)
			w->bad_ret++;
		/* Claim them; send_page() relinks each onto a new list. */
		{
			struct pp_list_head got = PP_LIST_HEAD_INIT(got);

			while ((page = pp_list_pop_page(&out)))
				pp_list_add(&page->lru, &got);
			while ((page = pp_list_pop_page(&got))) {
				send_page(w, page, &out);
				sent++;
			}
		}
		break;
	default:
		for (unsigned long i = 0; i < n % 4 + 1; i++) {
			page = pp_alloc_page(pool, PP_GFP_KERNEL);
			if (!page)
				break;
			send_page(w, page, &out);
			sent++;
		}
		break;
	}
	post(w, &out, sent);
}

static void release_page_ref(struct worker *w, struct pp_page *page)
{
	if (page->index != w->id)
		w->cross_freed++;
	if (page->private) {
		page->private = 0;
		pp_put_page(pool, page);	/* not the last reference */
	}
	if (atomic_exchange(&owner[pp_page_to_pfn(pool, page)], 0) != 1)
		w->bad_release++;
	w->freed++;
}

static void free_inbox(struct worker *w)
{
	struct inbox *box = &inboxes[w->id];
	struct pp_list_head in = PP_LIST_HEAD_INIT(in);
	struct pp_page *batch[64], *page;
	unsigned int n = 0;
	bool batched = test_rand(&w->rng) % 2;

	pthread_mutex_lock(&box->lock);
	if (!pp_list_empty(&box->pages)) {
		in.next = box->pages.next;
		in.prev = box->pages.prev;
		in.next->prev = &in;
		in.prev->next = &in;
		pp_list_init(&box->pages);
		box->count = 0;
	}
	pthread_mutex_unlock(&box->lock);

	while ((page = pp_list_pop_page(&in))) {
		release_page_ref(w, page);
		if (!batched) {
			pp_put_page(pool, page);
			continue;
		}
		batch[n++] = page;
		if (n == 64) {
			pp_release_pages(pool, batch, n);
			n = 0;
		}
	}
	if (n)
		pp_release_pages(pool, batch, n);
}

static void *worker_fn(void *arg)
{
	struct worker *w = arg;

	pthread_barrier_wait(&start);
	while (!atomic_load_explicit(&stop, memory_order_relaxed)) {
		alloc_some(w);
		free_inbox(w);
	}
	return NULL;
}

static long elapsed_ns(const struct timespec *t0)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (t.tv_sec - t0->tv_sec) * 1000000000L +
	       (t.tv_nsec - t0->tv_nsec);
}

static void test_handoff(uint64_t seed)
{
	unsigned long allocated = 0, freed = 0, cross = 0, dup = 0;
	unsigned long bad_release = 0, bad_ret = 0, calls = 0, extra = 0;
	unsigned long main_freed = 0, drains = 0, left = 0;
	struct pp_vmstat init, st;
	struct timespec t0;
	struct worker main_w = { .id = NR_THREADS };

	pool = test_pool_create(NR_PAGES, 16, 96, 0);
	pp_pool_vmstat(pool, &init);
	owner = calloc(test_pool_pages(NR_PAGES), sizeof(*owner));
	if (!owner)
		bail_out("calloc: out of memory");
	pthread_barrier_init(&start, NULL, NR_THREADS + 1);
	for (unsigned int i = 0; i < NR_THREADS; i++) {
		pthread_mutex_init(&inboxes[i].lock, NULL);
		pp_list_init(&inboxes[i].pages);
		workers[i].id = i;
		workers[i].rng = seed + i;
		if (pthread_create(&workers[i].thread, NULL, worker_fn,
				   &workers[i]))
			bail_out("pthread_create failed");
	}
	pthread_barrier_wait(&start);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	/* Drains and counter reads race with the workers. */
	while (elapsed_ns(&t0) < RUN_NS) {
		struct timespec pause = { 0, 5000000 };

		nanosleep(&pause, NULL);
		pp_pool_drain(pool);
		pp_pool_vmstat(pool, &st);
		drains++;
	}
	atomic_store(&stop, true);
	for (unsigned int i = 0; i < NR_THREADS; i++)
		pthread_join(workers[i].thread, NULL);

	/* Pages still in the inboxes: main frees them. */
	for (unsigned int i = 0; i < NR_THREADS; i++) {
		left += inboxes[i].count;
		main_w.id = i;
		main_w.rng = seed;
		free_inbox(&main_w);
	}
	main_freed = main_w.freed;
	bad_release += main_w.bad_release;

	for (unsigned int i = 0; i < NR_THREADS; i++) {
		struct worker *w = &workers[i];

		allocated += w->allocated;
		freed += w->freed;
		cross += w->cross_freed;
		dup += w->dup;
		bad_release += w->bad_release;
		bad_ret += w->bad_ret + w->bad_dummy;
		calls += w->calls;
		extra += w->extra_refs;
	}
	pp_pool_vmstat(pool, &st);
	diag("%lu calls, %lu pages, %lu extra references, %lu left in "
	     "inboxes, %lu concurrent drains, %llu trylock fallbacks", calls,
	     allocated, extra, left, drains,
	     (unsigned long long)(st.events[PP_BULK_FALLBACK_TRYLOCK] +
				  st.events[PP_PCP_TRYLOCK_FAIL]));

	ok(allocated > 10000 && calls > 1000,
	   "threads - %d threads made progress (%lu pages in %lu calls)",
	   NR_THREADS, allocated, calls);
	ok(dup == 0, "threads - no page handed out twice (%lu)", dup);
	ok(bad_release == 0, "threads - every freed page was held (%lu)",
	   bad_release);
	ok(bad_ret == 0, "threads - bulk returns match their arrays and "
	   "lists, populated entries untouched (%lu)", bad_ret);
	ok(freed + main_freed == allocated && cross == freed,
	   "threads - every page freed, by another thread than its allocator "
	   "(%lu + %lu of %lu, %lu cross)", freed, main_freed, allocated,
	   cross);
	ok(st.events[PP_PGALLOC] == allocated &&
	   st.events[PP_PGFREE] == allocated,
	   "threads - pgalloc and pgfree match the pages handed out (%llu, "
	   "%llu, %lu)", (unsigned long long)st.events[PP_PGALLOC],
	   (unsigned long long)st.events[PP_PGFREE], allocated);
	pp_pool_drain(pool);
	pp_pool_vmstat(pool, &st);
	ok(test_all_back(&st),
	   "threads - every page back after the drain (%lu, pcp %lu, "
	   "backend %lu)", st.nr_free, st.nr_pcp, st.nr_backend);
	ok_buddy(free_area_equal(&init, &st),
		 "threads - buddies merge back to the initial free_area");
	ok(pp_pool_destroy(pool) == 0, "pp_pool_destroy - returns 0");

	for (unsigned int i = 0; i < NR_THREADS; i++)
		pthread_mutex_destroy(&inboxes[i].lock);
	pthread_barrier_destroy(&start);
	free(owner);
}

/*
 * Threads sharing one pcp list (nr_cpus 1, or more threads than CPUs):
 * with the lock implementation, on two CPUs, one holds the pcp lock while
 * the other takes the trylock-failed paths; with rseq, where list 0
 * serves CPU 0 only, both on CPU 0, each preempting the other in the
 * middle of its sections (restarts).  Once they are joined the pool is
 * quiet and the counters must be exact.
 */
struct sharer {
	pthread_t thread;
	int cpu;			/* -1: not pinned */
	unsigned long allocs;
};

static void *sharer_fn(void *arg)
{
	struct sharer *sh = arg;
	struct pp_page *pages[4];

	/* On different CPUs the two really run at the same time. */
	if (sh->cpu >= 0) {
		cpu_set_t set;

		CPU_ZERO(&set);
		CPU_SET(sh->cpu, &set);
		pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
	}
	pthread_barrier_wait(&start);
	while (!atomic_load_explicit(&stop, memory_order_relaxed)) {
		for (int i = 0; i < 4; i++) {
			pages[i] = pp_alloc_page(pool, PP_GFP_KERNEL);
			sh->allocs += pages[i] != NULL;
		}
		for (int i = 0; i < 4; i++)
			if (pages[i])
				pp_put_page(pool, pages[i]);
	}
	return NULL;
}

static void test_shared_pcp(void)
{
	struct sharer sharers[2] = { { 0 } };
	struct timespec pause = { 0, 250000000L };
	unsigned long allocs = 0;
	struct pp_vmstat st;
	cpu_set_t allowed;
	int next = 0;
	bool rseq;

	/* The pool helpers may pin this thread (rseq): its own mask first. */
	test_cpu_unpin();
	if (pthread_getaffinity_np(pthread_self(), sizeof(allowed), &allowed))
		CPU_ZERO(&allowed);
	pool = test_pool_create(NR_PAGES, 16, 96, 1);
	rseq = pp_pool_pcp_impl(pool) == PP_PCP_RSEQ;
	for (int i = 0; i < 2; i++) {
		sharers[i].cpu = -1;
		while (next < CPU_SETSIZE && !CPU_ISSET(next, &allowed))
			next++;
		if (rseq)
			sharers[i].cpu = 0;
		else if (next < CPU_SETSIZE && CPU_COUNT(&allowed) >= 2)
			sharers[i].cpu = next++;
	}
	atomic_store(&stop, false);
	pthread_barrier_init(&start, NULL, 3);
	for (int i = 0; i < 2; i++)
		if (pthread_create(&sharers[i].thread, NULL, sharer_fn,
				   &sharers[i]))
			bail_out("pthread_create failed");
	pthread_barrier_wait(&start);
	nanosleep(&pause, NULL);
	atomic_store(&stop, true);
	for (int i = 0; i < 2; i++) {
		pthread_join(sharers[i].thread, NULL);
		allocs += sharers[i].allocs;
	}
	pthread_barrier_destroy(&start);
	pp_pool_drain(pool);
	pp_pool_vmstat(pool, &st);
	diag("shared pcp list (%s): %lu allocations, %llu trylock failures, "
	     "%llu restarts", pp_pcp_impl_name(pp_pool_pcp_impl(pool)), allocs,
	     (unsigned long long)st.events[PP_PCP_TRYLOCK_FAIL],
	     (unsigned long long)(st.events[PP_PCP_RESTART_ALLOC] +
				  st.events[PP_PCP_RESTART_FREE] +
				  st.events[PP_PCP_RESTART_COUNT]));
	ok(st.events[PP_PGALLOC] == allocs && st.events[PP_PGFREE] == allocs,
	   "threads - one pcp list shared by 2 threads: pgalloc and pgfree "
	   "exact once quiet (%llu, %llu, %lu)",
	   (unsigned long long)st.events[PP_PGALLOC],
	   (unsigned long long)st.events[PP_PGFREE], allocs);
	ok(st.events[PP_ALLOC_SINGLE_CALLS] == allocs,
	   "threads - alloc_single_calls exact once quiet (%llu, %lu)",
	   (unsigned long long)st.events[PP_ALLOC_SINGLE_CALLS], allocs);
	ok(test_all_back(&st) && pp_pool_destroy(pool) == 0,
	   "threads - every page back, pp_pool_destroy returns 0");
	pool = NULL;
}

int main(void)
{
	uint64_t seed = test_seed(4242);

	plan_tests(12);
	test_handoff(seed);
	test_shared_pcp();
	return exit_status();
}
