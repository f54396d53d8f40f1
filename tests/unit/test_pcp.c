/* SPDX-License-Identifier: MIT */
/*
 * Per-CPU lists: refill by batch from an empty list, drain by batch at
 * high, hot-end reuse, order > 0 bypassing the list, pp_pool_drain(), the
 * slow path draining every list before failing, and the counters adding up.
 * One pcp list (nr_cpus 1) unless a test pins itself to two CPUs.
 * Buddy backend only (PP_TEST_BACKEND=jemalloc skips it).
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>

#include <pagepool/pagepool.h>

#include "pp_test.h"
#include "tap.h"

#define NR_PAGES	256
#define BATCH		4
#define HIGH		12

static void test_refill(void)
{
	struct pp_pool *pool = test_pool_create(NR_PAGES, BATCH, HIGH, 1);
	struct pp_page *pages[5];
	struct pp_vmstat init, a, b;

	pp_pool_vmstat(pool, &init);
	ok(init.nr_pcp == 0 && init.nr_free == NR_PAGES &&
	   init.pcp_batch == BATCH && init.pcp_high == HIGH &&
	   init.nr_cpus == 1,
	   "pp_pool_vmstat - new pool: all %lu pages in the buddy lists, batch "
	   "%u, high %u, 1 cpu", init.nr_free, init.pcp_batch, init.pcp_high);

	pages[0] = test_alloc_page_vmstat(pool, &a, &b);
	ok(vm_delta(&a, &b, PP_PCP_REFILL) == 1,
	   "pp_alloc_page - empty pcp list: one refill (%llu)",
	   (unsigned long long)vm_delta(&a, &b, PP_PCP_REFILL));
	ok(vm_delta(&a, &b, PP_PCP_REFILL_PAGES) == BATCH,
	   "pp_alloc_page - the refill moves batch = %u pages (%llu)", BATCH,
	   (unsigned long long)vm_delta(&a, &b, PP_PCP_REFILL_PAGES));
	ok(b.nr_pcp == BATCH - 1 && b.nr_free == NR_PAGES - BATCH,
	   "pp_alloc_page - batch - 1 left on the pcp list (%lu), buddy %lu",
	   b.nr_pcp, b.nr_free);
	ok(vm_delta(&a, &b, PP_ZONE_LOCK) == 1 &&
	   vm_delta(&a, &b, PP_PGALLOC) == 1,
	   "pp_alloc_page - zone lock once, pgalloc +1");

	pp_pool_vmstat(pool, &a);
	for (int i = 1; i < 4; i++)
		pages[i] = pp_alloc_page(pool, PP_GFP_KERNEL);
	pp_pool_vmstat(pool, &b);
	ok(vm_delta(&a, &b, PP_PCP_REFILL) == 0 &&
	   vm_delta(&a, &b, PP_ZONE_LOCK) == 0 && b.nr_pcp == 0,
	   "pp_alloc_page - next 3 from the pcp list, no zone lock (pcp %lu)",
	   b.nr_pcp);
	pages[4] = pp_alloc_page(pool, PP_GFP_KERNEL);
	pp_pool_vmstat(pool, &b);
	ok(vm_delta(&a, &b, PP_PCP_REFILL) == 1 && b.nr_pcp == BATCH - 1,
	   "pp_alloc_page - 5th: second refill (pcp %lu)", b.nr_pcp);
	ok(pages_distinct(pool, pages, 5), "pp_alloc_page - 5 distinct pages");
	{
		/*
		 * rmqueue_bulk() adds at the tail the pages it takes in
		 * turn from the buddy lists, and a new pool's buddy lists
		 * give them in ascending pfns: both refills hand them out
		 * in that order.
		 */
		bool ascending = true;

		for (int i = 1; i < 5; i++)
			if (pp_page_to_pfn(pool, pages[i]) !=
			    pp_page_to_pfn(pool, pages[i - 1]) + 1)
				ascending = false;
		ok(ascending, "pp_alloc_page - the refills hand out pages in "
		   "physical order (pfns %lu %lu %lu %lu %lu)",
		   pp_page_to_pfn(pool, pages[0]), pp_page_to_pfn(pool, pages[1]),
		   pp_page_to_pfn(pool, pages[2]), pp_page_to_pfn(pool, pages[3]),
		   pp_page_to_pfn(pool, pages[4]));
	}

	pp_pool_vmstat(pool, &a);
	for (int i = 0; i < 5; i++)
		pp_put_page(pool, pages[i]);
	pp_pool_vmstat(pool, &b);
	ok(b.nr_pcp == BATCH - 1 + 5 && vm_delta(&a, &b, PP_PCP_DRAIN) == 0 &&
	   b.nr_free == a.nr_free,
	   "pp_put_page - 5 frees below high stay on the pcp list (pcp %lu)",
	   b.nr_pcp);

	pp_pool_vmstat(pool, &a);
	pp_pool_drain(pool);
	pp_pool_vmstat(pool, &b);
	ok(b.nr_pcp == 0 && b.nr_free == NR_PAGES &&
	   vm_delta(&a, &b, PP_DRAIN_ALL) == 1 &&
	   vm_delta(&a, &b, PP_PCP_DRAIN) == 1 &&
	   vm_delta(&a, &b, PP_PCP_DRAIN_PAGES) == 8,
	   "pp_pool_drain - the 8 pcp pages go back in one drain (%llu)",
	   (unsigned long long)vm_delta(&a, &b, PP_PCP_DRAIN_PAGES));
	ok(free_area_equal(&init, &b),
	   "pp_pool_drain - buddies merge back to the initial free_area");
	ok(pp_pool_destroy(pool) == 0, "pp_pool_destroy - returns 0");
}

/*
 * A refill that finds fewer than batch pages in the buddy lists moves
 * what is there, and pcp_refill_pages counts the pages it moved: on 16
 * pages with batch 8, blocks of 8 and 4 pages leave 4 in the buddy lists
 * for the refill of an empty list.
 */
static void test_short_refill(void)
{
	struct pp_pool *pool = test_pool_create(16, 8, 48, 1);
	struct pp_page *eight, *four, *page;
	struct pp_vmstat a, b;

	eight = pp_alloc_pages(pool, PP_GFP_KERNEL, 3);
	four = pp_alloc_pages(pool, PP_GFP_KERNEL, 2);
	page = test_alloc_page_vmstat(pool, &a, &b);
	ok(eight && four && page && a.nr_free == 4 && a.nr_pcp == 0 &&
	   b.nr_free == 0 && b.nr_pcp == 3,
	   "pp_alloc_page - 4 pages left for a refill of 8: all of them move "
	   "(buddy %lu, pcp %lu)", b.nr_free, b.nr_pcp);
	ok_vm_deltas(ok, &a, &b, PP_PCP_REFILL, 1, PP_PCP_REFILL_PAGES, 4,
		     "pp_alloc_page - one refill, pcp_refill_pages counts the "
		     "4 pages moved, not batch (%llu, %llu)");
	pp_put_page(pool, page);
	pp_put_page(pool, four);
	pp_put_page(pool, eight);
	pp_pool_drain(pool);
	ok(pp_pool_destroy(pool) == 0, "pp_pool_destroy - returns 0");
}

/*
 * A free that brings the list to high drains batch pages.  With the debug
 * checks on, no free takes the fast path: each goes through the checks to
 * the general free_unref_page(), which must drain as the fast path does.
 */
static void test_high_drain(bool debug)
{
	const char *on = debug ? ", debug checks on" : "";
	struct pp_pool_config cfg;
	struct pp_pool *pool;
	struct pp_page *pages[HIGH], *again;
	struct pp_vmstat a, b;

	test_pool_config(&cfg, NR_PAGES, BATCH, HIGH, 1);
	cfg.debug = debug;
	pool = test_pool_create_config(&cfg);
	for (int i = 0; i < HIGH; i++)
		pages[i] = pp_alloc_page(pool, PP_GFP_KERNEL);
	pp_pool_vmstat(pool, &a);
	for (int i = 0; i < HIGH - 1; i++)
		pp_put_page(pool, pages[i]);
	pp_pool_vmstat(pool, &b);
	ok(a.nr_pcp == 0 && b.nr_pcp == HIGH - 1 &&
	   vm_delta(&a, &b, PP_PCP_DRAIN) == 0,
	   "pp_put_page%s - %d frees: pcp %lu, below high, no drain", on,
	   HIGH - 1, b.nr_pcp);
	pp_put_page(pool, pages[HIGH - 1]);
	pp_pool_vmstat(pool, &b);
	ok_vm_deltas(ok, &a, &b, PP_PCP_DRAIN, 1, PP_PCP_DRAIN_PAGES, BATCH,
		     "pp_put_page%s - reaching high drains batch = %u pages "
		     "(%llu, %llu)", on, BATCH);
	ok(b.nr_pcp == HIGH - BATCH && b.nr_free == a.nr_free + BATCH,
	   "pp_put_page%s - pcp %lu, buddy +%lu", on, b.nr_pcp,
	   b.nr_free - a.nr_free);
	ok(vm_delta(&a, &b, PP_PGFREE) == HIGH &&
	   vm_delta(&a, &b, PP_ZONE_LOCK) == 1,
	   "pp_put_page%s - pgfree +%d, one zone lock for the drain", on,
	   HIGH);

	/* The hot end: the last page freed is the next one handed out. */
	pp_put_page(pool, again = pp_alloc_page(pool, PP_GFP_KERNEL));
	ok(pp_alloc_page(pool, PP_GFP_KERNEL) == again,
	   "pp_alloc_page%s - reuses the page freed last (hot end)", on);
	pp_put_page(pool, again);
	pp_pool_drain(pool);
	ok(pp_pool_destroy(pool) == 0, "pp_pool_destroy - returns 0");
}

/* Expected pcp count and drains after @n order-0 frees onto @count. */
static unsigned long simulate_frees(unsigned long count, unsigned long n,
				    unsigned long *drains)
{
	*drains = 0;
	while (n--) {
		count++;
		if (count >= HIGH) {
			count -= count < BATCH ? count : BATCH;
			(*drains)++;
		}
	}
	return count;
}

static void test_release_drain(void)
{
	struct pp_pool *pool = test_pool_create(NR_PAGES, BATCH, HIGH, 1);
	struct pp_page *pages[70] = { NULL };
	struct pp_vmstat a, b;
	unsigned long ret, want, drains;

	ret = pp_alloc_pages_bulk_array(pool, PP_GFP_KERNEL, 70, pages);
	pp_pool_vmstat(pool, &a);
	pp_release_pages(pool, pages, ret);
	pp_pool_vmstat(pool, &b);
	want = simulate_frees(a.nr_pcp, ret, &drains);
	ok(ret == 70 && b.nr_pcp == want &&
	   vm_delta(&a, &b, PP_PCP_DRAIN) == drains &&
	   vm_delta(&a, &b, PP_PCP_DRAIN_PAGES) == drains * BATCH,
	   "pp_release_pages - 70 frees drain at high like single puts (pcp "
	   "%lu/%lu, drains %llu/%lu)", b.nr_pcp, want,
	   (unsigned long long)vm_delta(&a, &b, PP_PCP_DRAIN), drains);
	ok(b.nr_free + b.nr_pcp == NR_PAGES &&
	   vm_delta(&a, &b, PP_PGFREE) == 70,
	   "pp_release_pages - every page free again (pgfree +%llu)",
	   (unsigned long long)vm_delta(&a, &b, PP_PGFREE));
	pp_pool_drain(pool);
	ok(pp_pool_destroy(pool) == 0, "pp_pool_destroy - returns 0");
}

static void test_order_bypass(void)
{
	struct pp_pool *pool = test_pool_create(NR_PAGES, BATCH, HIGH, 1);
	struct pp_page *page;
	struct pp_vmstat a, b;

	pp_pool_vmstat(pool, &a);
	page = pp_alloc_pages(pool, PP_GFP_KERNEL, 3);
	pp_pool_vmstat(pool, &b);
	ok(page && b.nr_pcp == 0 && vm_delta(&a, &b, PP_PCP_REFILL) == 0 &&
	   a.nr_free - b.nr_free == 8,
	   "pp_alloc_pages - order 3 comes from the buddy lists, not the pcp "
	   "list");
	pp_put_page(pool, page);
	pp_pool_vmstat(pool, &b);
	ok(b.nr_pcp == 0 && b.nr_free == NR_PAGES && free_area_equal(&a, &b),
	   "pp_put_page - order 3 goes back to the buddy lists and merges");
	ok(pp_pool_destroy(pool) == 0, "pp_pool_destroy - returns 0");
}

/*
 * The check of a drain test's setup, as @a (the counters before the page)
 * has it: the 32-page @block taken, @buddy pages left in the buddy lists
 * and @pcp on the pcp lists.
 */
#define ok_drain_setup(block, a, buddy, pcp, desc)			\
	ok((block) && (a)->nr_free == (buddy) && (a)->nr_pcp == (pcp),	\
	   desc " (buddy %lu, pcp %lu)", (a)->nr_free, (a)->nr_pcp)

/*
 * And the check of its end, as @b (the counters after the page) has it:
 * with every pcp page drained back, the 32 pages outside the block in the
 * buddy lists, the page came from a refill of this CPU's list with a
 * batch of 8: 7 left on it, 24 in the buddy lists.
 */
#define ok_drain_refill(b, desc)						\
	ok((b)->nr_pcp == 7 && (b)->nr_free == 24,			\
	   desc " (pcp %lu, buddy %lu)", (b)->nr_pcp, (b)->nr_free)

/*
 * Pages on the pcp list do not count for the watermark: with the buddy
 * lists at min, an allocation takes the slow path, which drains every pcp
 * list into the buddy lists and then succeeds.
 */
static void test_slowpath_drain(void)
{
	struct pp_pool_config cfg;
	struct pp_pool *pool;
	struct pp_page *block, *page;
	struct pp_vmstat a, b;

	test_pool_config(&cfg, 64, 8, 48, 1);
	test_config_wmarks(&cfg, 8, 16, 24);
	pool = test_pool_create_config(&cfg);
	test_pcp_fill(pool, 24);
	block = pp_alloc_pages(pool, PP_GFP_MEMALLOC, 5);

	page = test_alloc_page_vmstat(pool, &a, &b);
	ok_drain_setup(block, &a, 8, 24,
		       "pp_alloc_page - setup: buddy at min, 24 on the pcp list");
	ok(page != NULL && vm_delta(&a, &b, PP_ALLOC_SLOWPATH) == 1 &&
	   vm_delta(&a, &b, PP_ALLOC_FAIL) == 0,
	   "pp_alloc_page - below low with pages on the pcp list: slow path, "
	   "success");
	ok(vm_delta(&a, &b, PP_DRAIN_ALL) == 1 &&
	   vm_delta(&a, &b, PP_PCP_DRAIN_PAGES) == 24,
	   "pp_alloc_page - the slow path drained all 24 pcp pages (%llu)",
	   (unsigned long long)vm_delta(&a, &b, PP_PCP_DRAIN_PAGES));
	ok_drain_refill(&b, "pp_alloc_page - then refilled the pcp list from "
			"the buddy lists");
	pp_put_page(pool, page);
	pp_put_page(pool, block);
	ok(pp_pool_destroy(pool) == 0, "pp_pool_destroy - returns 0");
}

/* Counters add up at every step of a mixed sequence. */
static void test_accounting(void)
{
	struct pp_pool *pool = test_pool_create(NR_PAGES, BATCH, HIGH, 1);
	struct pp_list_head list = PP_LIST_HEAD_INIT(list);
	struct pp_page *arr[40] = { NULL }, *big, *one;
	unsigned long in_use = 0, bad = 0, steps = 0;
	struct pp_vmstat st;

#define CHECK_STEP()							\
	do {								\
		pp_pool_vmstat(pool, &st);				\
		bad += st.events[PP_PGALLOC] - st.events[PP_PGFREE] !=	\
		       in_use ||					\
		       st.nr_free + st.nr_pcp + in_use != NR_PAGES;	\
		steps++;						\
	} while (0)

	CHECK_STEP();
	in_use += pp_alloc_pages_bulk_array(pool, PP_GFP_KERNEL, 40, arr);
	CHECK_STEP();
	in_use += pp_alloc_pages_bulk_list(pool, PP_GFP_KERNEL, 17, &list);
	CHECK_STEP();
	big = pp_alloc_pages(pool, PP_GFP_KERNEL, 4);
	in_use += 16;
	CHECK_STEP();
	one = pp_alloc_page(pool, PP_GFP_KERNEL);
	in_use++;
	CHECK_STEP();
	pp_release_pages(pool, arr, 20);
	in_use -= 20;
	CHECK_STEP();
	in_use -= put_list(pool, &list);
	CHECK_STEP();
	pp_put_page(pool, big);
	in_use -= 16;
	CHECK_STEP();
	put_array(pool, arr + 20, 20);
	in_use -= 20;
	CHECK_STEP();
	pp_put_page(pool, one);
	in_use--;
	CHECK_STEP();
	pp_pool_drain(pool);
	CHECK_STEP();
#undef CHECK_STEP
	ok(bad == 0 && in_use == 0,
	   "pp_pool_vmstat - pgalloc - pgfree == pages in use and nr_free + "
	   "nr_pcp + in use == nr_pages at all %lu steps (%lu bad)", steps,
	   bad);
	ok(pp_pool_destroy(pool) == 0, "pp_pool_destroy - returns 0");
}

/* --- two pcp lists, two CPUs ----------------------------------------- */

static cpu_set_t saved_mask;
static int cpu_even = -1, cpu_odd = -1;

static bool pin_to(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (pthread_setaffinity_np(pthread_self(), sizeof(set), &set))
		return false;
	return sched_getcpu() == cpu;
}

/*
 * Two allowed CPUs that map to pcp lists 0 and 1 of a 2-list pool: CPU c
 * uses list c % 2 under the lock implementation; under rseq, list i
 * serves CPU i only, so CPUs 0 and 1 themselves.  The pool helpers may
 * have pinned this thread: start from the mask it had before.
 */
static bool find_two_cpus(bool rseq)
{
	test_cpu_unpin();
	if (pthread_getaffinity_np(pthread_self(), sizeof(saved_mask),
				   &saved_mask))
		return false;
	for (int cpu = 0; cpu < (rseq ? 2 : CPU_SETSIZE); cpu++) {
		if (!CPU_ISSET(cpu, &saved_mask))
			continue;
		if (cpu % 2 == 0 && cpu_even < 0)
			cpu_even = cpu;
		if (cpu % 2 == 1 && cpu_odd < 0)
			cpu_odd = cpu;
	}
	return cpu_even >= 0 && cpu_odd >= 0 && pin_to(cpu_odd) &&
	       pin_to(cpu_even);
}

static void unpin(void)
{
	pthread_setaffinity_np(pthread_self(), sizeof(saved_mask),
			       &saved_mask);
}

#define OTHER_CPU_CHECKS	7

/*
 * 32 pages on pcp list 1 (filled from cpu_odd), the other 32 taken as one
 * block (single pages would hit the watermark as the buddy lists empty);
 * the thread back on cpu_even.  Returns the block.
 */
static struct pp_page *fill_other_list(struct pp_pool *pool)
{
	pin_to(cpu_odd);
	test_pcp_fill(pool, 32);
	pin_to(cpu_even);
	return pp_alloc_pages(pool, PP_GFP_KERNEL, 5);
}

static void test_other_cpu(void)
{
	struct pp_pool *pool;
	struct pp_page *page, *arr[4] = { NULL }, *block;
	struct pp_vmstat a, b;
	unsigned long ret;
	bool rseq;

	pool = test_pool_create(64, 8, 64, 2);
	rseq = pp_pool_pcp_impl(pool) == PP_PCP_RSEQ;
	if (!find_two_cpus(rseq)) {
		pp_pool_destroy(pool);
		skip(OTHER_CPU_CHECKS, "needs two CPUs this thread may run on%s",
		     rseq ? " (rseq: CPUs 0 and 1)" : "");
		return;
	}

	block = fill_other_list(pool);
	page = test_alloc_page_vmstat(pool, &a, &b);
	ok_drain_setup(block, &a, 0, 32,
		       "pcp - setup: buddy empty, 32 pages on the other CPU's list");
	ok(page != NULL && vm_delta(&a, &b, PP_DRAIN_ALL) == 1 &&
	   vm_delta(&a, &b, PP_PCP_DRAIN_PAGES) == 32,
	   "pp_alloc_page - drains the other CPU's list and succeeds (%llu)",
	   (unsigned long long)vm_delta(&a, &b, PP_PCP_DRAIN_PAGES));
	ok_drain_refill(&b, "pp_alloc_page - the drained pages refill this "
			"CPU's list");
	if (page)
		pp_put_page(pool, page);
	if (block)
		pp_put_page(pool, block);
	pp_pool_drain(pool);

	/* A bulk call on an empty buddy with pages on the other list. */
	block = fill_other_list(pool);
	pp_pool_vmstat(pool, &a);
	ret = pp_alloc_pages_bulk_array(pool, PP_GFP_KERNEL, 4, arr);
	pp_pool_vmstat(pool, &b);
	ok_drain_setup(block, &a, 0, 32,
		       "pcp - setup: buddy empty, 32 pages on the other CPU's list");
	ok(ret == 1 && arr[0] != NULL && arr[1] == NULL,
	   "alloc_pages_bulk_array - one page from the other CPU's pages "
	   "(%lu)", ret);
	/* The watermark check sees an empty zone before the loop could. */
	ok(vm_delta(&a, &b, PP_BULK_FALLBACK_WATERMARK) == 1 &&
	   vm_delta(&a, &b, PP_BULK_FALLBACK_EMPTY) == 0 &&
	   vm_delta(&a, &b, PP_DRAIN_ALL) == 1,
	   "alloc_pages_bulk_array - watermark fallback, whose slow path "
	   "drains the other list");
	put_array(pool, arr, 4);
	pp_put_page(pool, block);
	unpin();
	ok(pp_pool_destroy(pool) == 0, "pp_pool_destroy - returns 0");
}

#define NR_CHECKS	48

int main(void)
{
	plan_tests(NR_CHECKS);
	if (!test_backend_is_buddy()) {
		skip(NR_CHECKS, "buddy backend only: %s", "the per-CPU lists");
		return exit_status();
	}
	test_refill();
	test_short_refill();
	test_high_drain(false);
	test_high_drain(true);
	test_release_drain();
	test_order_bypass();
	test_slowpath_drain();
	test_accounting();
	test_other_cpu();
	return exit_status();
}
