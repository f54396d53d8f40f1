/* SPDX-License-Identifier: MIT */
/*
 * The bulk allocator's fallbacks and short returns, for both variants:
 * the low watermark + nr_pages check (pcp pages do not count), the empty
 * pcp-and-buddy fallback to one page, and the partial fill.
 *
 * A single thread cannot run the zone dry between the bulk call's
 * watermark check and its loop: the check needs more buddy pages than
 * the call can take.  In a kernel, other CPUs do that.  Here the test
 * defines sched_getcpu(), which the library calls to pick its pcp list
 * right after the watermark check: the definition returns a CPU index the
 * test chooses and can run a hook once, standing in for another CPU that
 * allocates at that moment.  That makes the scenarios exact and
 * independent of the machine's CPUs.
 *
 * The library reads the CPU from glibc's rseq area and calls
 * sched_getcpu() only when rseq is not registered, so the test runs itself
 * again with rseq turned off (GLIBC_TUNABLES=glibc.pthread.rseq=0).
 *
 * These scenarios shape the buddy and pcp lists by hand: buddy backend
 * only (PP_TEST_BACKEND=jemalloc skips them).
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <unistd.h>

#include <pagepool/pagepool.h>

#include "pp_test.h"
#include "tap.h"

#define NR_PAGES	512
#define BATCH		8
#define HIGH		64

/* --- sched_getcpu() stand-in -------------------------------------------- */

static __thread int fake_cpu;
static void (*cpu_hook)(void);
static unsigned long getcpu_calls;

int sched_getcpu(void)
{
	void (*hook)(void) = cpu_hook;

	getcpu_calls++;
	if (hook) {
		cpu_hook = NULL;
		hook();
	}
	return fake_cpu;
}

/* --- taking buddy pages away -------------------------------------------- */

static struct pp_pool *pool;
static struct pp_page *taken[2 * PP_NR_ORDERS * 8];
static unsigned int taken_order[2 * PP_NR_ORDERS * 8];
static unsigned int nr_taken;
static unsigned long keep;		/* buddy pages the hook leaves */
static struct pp_vmstat hook_after;	/* counters right after the hook */

/*
 * Allocate blocks of order >= 1 (they bypass the pcp lists) until exactly
 * @keep pages remain in the buddy lists.  The difference must be even.
 */
static void shrink_buddy(unsigned long keep_pages)
{
	struct pp_vmstat st;

	for (;;) {
		unsigned long excess;
		unsigned int o, have;
		struct pp_page *page;

		pp_pool_vmstat(pool, &st);
		if (st.nr_free <= keep_pages)
			break;
		excess = st.nr_free - keep_pages;
		if (excess & 1)
			bail_out("shrink_buddy: odd difference %lu", excess);
		for (o = PP_MAX_ORDER; o >= 1; o--) {
			if ((1UL << o) > excess)
				continue;
			have = 0;
			for (unsigned int p = o; p < PP_NR_ORDERS; p++)
				have += st.free_area[p] != 0;
			if (have)
				break;
		}
		if (o == 0 || nr_taken == sizeof(taken) / sizeof(taken[0]))
			bail_out("shrink_buddy: cannot take %lu pages", excess);
		page = pp_alloc_pages(pool, PP_GFP_MEMALLOC, o);
		if (!page)
			bail_out("shrink_buddy: order-%u allocation failed", o);
		taken[nr_taken] = page;
		taken_order[nr_taken++] = o;
	}
	if (st.nr_free != keep_pages)
		bail_out("shrink_buddy: %lu buddy pages left, wanted %lu",
			 st.nr_free, keep_pages);
}

static void give_back(void)
{
	while (nr_taken) {
		nr_taken--;
		pp_put_page(pool, taken[nr_taken]);
	}
}

/* Another CPU takes buddy pages right after the watermark check. */
static void steal_hook(void)
{
	int cpu = fake_cpu;

	fake_cpu = 1;
	shrink_buddy(keep);
	fake_cpu = cpu;
	pp_pool_vmstat(pool, &hook_after);
}

static void arm_steal(unsigned long keep_pages)
{
	keep = keep_pages;
	cpu_hook = steal_hook;
}

static struct pp_pool *pool_with_wmarks(unsigned int nr_cpus,
					unsigned long min, unsigned long low,
					unsigned long high)
{
	struct pp_pool_config cfg;

	test_pool_config(&cfg, NR_PAGES, BATCH, HIGH, nr_cpus);
	test_config_wmarks(&cfg, min, low, high);
	return test_pool_create_config(&cfg);
}

/* Put pages on pcp list @cpu: allocate @n there, then free them there. */
static void fill_pcp(int cpu, unsigned int n)
{
	int saved = fake_cpu;

	fake_cpu = cpu;
	test_pcp_fill(pool, n);
	fake_cpu = saved;
}

static bool all_back(void)
{
	struct pp_vmstat st;

	pp_pool_drain(pool);
	pp_pool_vmstat(pool, &st);
	return st.nr_free == NR_PAGES && st.nr_pcp == 0 &&
	       st.events[PP_PGALLOC] == st.events[PP_PGFREE];
}

/* --- tests ---------------------------------------------------------------- */

static bool test_interposition(void)
{
	unsigned long calls = getcpu_calls;
	struct pp_vmstat st;
	struct pp_page *page;
	bool works;

	pool = test_pool_create(NR_PAGES, BATCH, HIGH, 2);
	fake_cpu = 1;
	page = pp_alloc_page(pool, PP_GFP_KERNEL);
	pp_put_page(pool, page);
	fake_cpu = 0;
	pp_pool_vmstat(pool, &st);
	/* Pages on a pcp list sit on list 1 only if the library asked us. */
	works = getcpu_calls > calls && st.nr_pcp == BATCH &&
		page->pcp_cpu == 1;
	pp_pool_drain(pool);
	pp_pool_destroy(pool);
	pool = NULL;
	return works;
}

/*
 * The watermark fallback's return value, @arr holding the two pages the
 * array calls before took (entries 0 and 1).
 */
static void test_watermark_return(struct pp_page **arr)
{
	struct pp_page *arr2[32] = { NULL };
	struct pp_vmstat a, b;
	unsigned long ret;

	/*
	 * As in the kernel, the fallback returns the filled slot + 1, not a
	 * census: with hole 0 filled and entries 1 and 2 populated it is 1,
	 * and with every other entry populated the array is full while the
	 * call still says 1; the next call skips the full array and says 32.
	 */
	arr2[1] = arr[0];
	arr2[2] = arr[1];
	pp_pool_vmstat(pool, &a);
	ret = pp_alloc_pages_bulk_array(pool, PP_GFP_KERNEL, 32, arr2);
	pp_pool_vmstat(pool, &b);
	ok(vm_delta(&a, &b, PP_BULK_FALLBACK_WATERMARK) == 1 &&
	   arr2[0] != NULL && arr2[3] == NULL,
	   "alloc_pages_bulk_array - setup: watermark fallback fills hole 0");
	ok(ret == 1, "alloc_pages_bulk_array - fallback returns the filled "
	   "slot + 1, not the populated run [0, 3) (%lu)", ret);
	if (arr2[0])
		pp_put_page(pool, arr2[0]);
	arr2[0] = NULL;
	for (int i = 1; i < 32; i++)
		arr2[i] = arr[0];
	pp_pool_vmstat(pool, &a);
	ret = pp_alloc_pages_bulk_array(pool, PP_GFP_KERNEL, 32, arr2);
	pp_pool_vmstat(pool, &b);
	ok(vm_delta(&a, &b, PP_BULK_FALLBACK_WATERMARK) == 1 &&
	   arr2[0] != NULL && ret == 1,
	   "alloc_pages_bulk_array - fallback that fills the last hole "
	   "returns 1 though the array is full (%lu)", ret);
	ret = pp_alloc_pages_bulk_array(pool, PP_GFP_KERNEL, 32, arr2);
	ok(ret == 32, "alloc_pages_bulk_array - called again on the full "
	   "array: 32 (%lu)", ret);
	if (arr2[0])
		pp_put_page(pool, arr2[0]);
}

/* The list variant of the watermark fallback, at the same boundary. */
static void test_watermark_list(void)
{
	struct pp_list_head list = PP_LIST_HEAD_INIT(list);
	struct pp_vmstat a, b;
	unsigned long ret;

	shrink_buddy(40);
	pp_pool_vmstat(pool, &a);
	ret = pp_alloc_pages_bulk_list(pool, PP_GFP_KERNEL, 24, &list);
	pp_pool_vmstat(pool, &b);
	ok(a.nr_free == 40 && ret == 1 && list_length(&list) == 1 &&
	   vm_delta(&a, &b, PP_BULK_FALLBACK_WATERMARK) == 1 &&
	   vm_delta(&a, &b, PP_PGALLOC) == 1,
	   "alloc_pages_bulk_list - buddy 40 <= low 16 + 24: one page through "
	   "the watermark fallback (%lu)", ret);
	put_list(pool, &list);
	pp_pool_drain(pool);
	pp_pool_vmstat(pool, &a);
	ret = pp_alloc_pages_bulk_list(pool, PP_GFP_KERNEL, 23, &list);
	pp_pool_vmstat(pool, &b);
	ok(a.nr_free == 40 && ret == 23 && list_length(&list) == 23 &&
	   vm_delta(&a, &b, PP_BULK_FALLBACK_WATERMARK) == 0,
	   "alloc_pages_bulk_list - buddy 40 > low 16 + 23: bulk path, 23 "
	   "pages (%lu)", ret);
	put_list(pool, &list);
	give_back();
}

static void test_watermark(void)
{
	struct pp_page *arr[32] = { NULL };
	struct pp_vmstat a, b;
	unsigned long ret;

	/* min 8, low 16, high 24: the bulk check is buddy > 16 + nr_pages. */
	pool = pool_with_wmarks(1, 8, 16, 24);
	fill_pcp(0, 24);
	shrink_buddy(48);

	pp_pool_vmstat(pool, &a);
	ret = pp_alloc_pages_bulk_array(pool, PP_GFP_KERNEL, 32, arr);
	pp_pool_vmstat(pool, &b);
	ok(a.nr_free == 48 && a.nr_pcp == 24,
	   "alloc_pages_bulk_array - setup: 48 buddy pages, 24 on the pcp "
	   "list (%lu, %lu)", a.nr_free, a.nr_pcp);
	ok(vm_delta(&a, &b, PP_BULK_FALLBACK_WATERMARK) == 1,
	   "alloc_pages_bulk_array - buddy 48 <= low 16 + 32: watermark "
	   "fallback, pcp pages not counted (%llu)",
	   (unsigned long long)vm_delta(&a, &b, PP_BULK_FALLBACK_WATERMARK));
	ok(ret == 1 && arr[0] != NULL && arr[1] == NULL && arr[31] == NULL,
	   "alloc_pages_bulk_array - watermark fallback returns exactly one "
	   "page (%lu)", ret);
	ok(vm_delta(&a, &b, PP_PGALLOC) == 1 &&
	   vm_delta(&a, &b, PP_ALLOC_SINGLE_CALLS) == 0 &&
	   vm_delta(&a, &b, PP_BULK_PARTIAL) == 0 &&
	   vm_delta(&a, &b, PP_ALLOC_SLOWPATH) == 0,
	   "alloc_pages_bulk_array - one page through the single path, no "
	   "user single call, not partial");
	ok(b.nr_pcp == 23 && b.nr_free == 48,
	   "alloc_pages_bulk_array - the page came from the pcp list (pcp "
	   "%lu, buddy %lu)", b.nr_pcp, b.nr_free);

	/* Leading populated entries: the one page goes to the first hole. */
	pp_pool_vmstat(pool, &a);
	ret = pp_alloc_pages_bulk_array(pool, PP_GFP_KERNEL, 32, arr);
	pp_pool_vmstat(pool, &b);
	ok(ret == 2 && arr[1] != NULL && arr[2] == NULL &&
	   vm_delta(&a, &b, PP_BULK_FALLBACK_WATERMARK) == 1,
	   "alloc_pages_bulk_array - fallback fills the first hole after the "
	   "populated one (%lu)", ret);

	test_watermark_return(arr);
	put_array(pool, arr, 32);

	/* One page fewer and the zone qualifies: 48 > 16 + 31. */
	pp_pool_vmstat(pool, &a);
	ret = pp_alloc_pages_bulk_array(pool, PP_GFP_KERNEL, 31, arr);
	pp_pool_vmstat(pool, &b);
	ok(a.nr_free == 48 && ret == 31 &&
	   vm_delta(&a, &b, PP_BULK_FALLBACK_WATERMARK) == 0 &&
	   vm_delta(&a, &b, PP_PGALLOC) == 31,
	   "alloc_pages_bulk_array - buddy 48 > low 16 + 31: bulk path, 31 "
	   "pages (%lu)", ret);
	put_array(pool, arr, 32);
	give_back();
	pp_pool_drain(pool);

	test_watermark_list();
	ok(all_back(), "bulk watermark - every page back");
	ok(pp_pool_destroy(pool) == 0, "pp_pool_destroy - returns 0");
}

static void test_exhausted(void)
{
	struct pp_page *arr[4] = { NULL };
	struct pp_list_head list = PP_LIST_HEAD_INIT(list);
	struct pp_vmstat a, b;
	unsigned long ret, ret2, ret3;

	pool = test_pool_create(NR_PAGES, BATCH, HIGH, 1);
	shrink_buddy(0);
	pp_pool_vmstat(pool, &a);
	ret = pp_alloc_pages_bulk_array(pool, PP_GFP_KERNEL, 4, arr);
	ret3 = pp_alloc_pages_bulk_list(pool, PP_GFP_KERNEL, 4, &list);
	pp_pool_vmstat(pool, &b);
	ok(ret == 0 && arr[0] == NULL && ret3 == 0 && pp_list_empty(&list),
	   "alloc_pages_bulk - nothing to be had: array and list return 0 "
	   "(%lu, %lu)", ret, ret3);
	ok(vm_delta(&a, &b, PP_ALLOC_FAIL) == 2 &&
	   vm_delta(&a, &b, PP_PGALLOC) == 0,
	   "alloc_pages_bulk - both fallbacks counted as failed allocations "
	   "(%llu)", (unsigned long long)vm_delta(&a, &b, PP_ALLOC_FAIL));
	/* Any non-NULL pointer is a populated entry; the library skips it. */
	arr[0] = taken[0];
	ret2 = pp_alloc_pages_bulk_array(pool, PP_GFP_KERNEL, 4, arr);
	ok(ret2 == 1 && arr[0] == taken[0] && arr[1] == NULL,
	   "alloc_pages_bulk_array - nothing to be had: returns the leading "
	   "populated count (%lu)", ret2);
	give_back();
	ok(all_back(), "bulk exhausted - every page back");
	ok(pp_pool_destroy(pool) == 0, "pp_pool_destroy - returns 0");
}

static void test_empty(void)
{
	struct pp_page *arr[4] = { NULL };
	struct pp_list_head list = PP_LIST_HEAD_INIT(list);
	struct pp_vmstat b;
	unsigned long ret;

	/*
	 * Pages on pcp list 1 only; this thread uses list 0.  The call passes
	 * the watermark check, then another CPU takes every buddy page: pcp
	 * list 0 and the buddy lists are empty with nothing allocated, so the
	 * call falls back to one page, whose slow path drains list 1.
	 */
	pool = test_pool_create(NR_PAGES, BATCH, HIGH, 2);
	fill_pcp(1, 1);
	arm_steal(0);
	ret = pp_alloc_pages_bulk_array(pool, PP_GFP_KERNEL, 4, arr);
	pp_pool_vmstat(pool, &b);
	ok(hook_after.nr_free == 0 && hook_after.nr_pcp == BATCH,
	   "alloc_pages_bulk_array - setup: buddy empty, %u pages on the "
	   "other pcp list (%lu, %lu)", BATCH, hook_after.nr_free,
	   hook_after.nr_pcp);
	ok(vm_delta(&hook_after, &b, PP_BULK_FALLBACK_EMPTY) == 1,
	   "alloc_pages_bulk_array - empty pcp and buddy count "
	   "bulk_fallback_empty (%llu)",
	   (unsigned long long)vm_delta(&hook_after, &b,
					PP_BULK_FALLBACK_EMPTY));
	ok(ret == 1 && arr[0] != NULL && arr[1] == NULL,
	   "alloc_pages_bulk_array - empty fallback returns one page (%lu)",
	   ret);
	ok(vm_delta(&hook_after, &b, PP_ALLOC_SLOWPATH) == 1 &&
	   vm_delta(&hook_after, &b, PP_DRAIN_ALL) == 1 &&
	   vm_delta(&hook_after, &b, PP_ALLOC_FAIL) == 0,
	   "alloc_pages_bulk_array - the single path drained the other pcp "
	   "list to find it");
	ok(vm_delta(&hook_after, &b, PP_PGALLOC) == 1 &&
	   vm_delta(&hook_after, &b, PP_ALLOC_SINGLE_CALLS) == 0 &&
	   vm_delta(&hook_after, &b, PP_BULK_PARTIAL) == 0 &&
	   vm_delta(&hook_after, &b, PP_BULK_FALLBACK_WATERMARK) == 0,
	   "alloc_pages_bulk_array - one page, no user single call, not "
	   "partial, no watermark fallback");
	ok(b.nr_pcp == BATCH - 1 && b.nr_free == 0,
	   "alloc_pages_bulk_array - drained pages refilled this pcp list "
	   "(pcp %lu, buddy %lu)", b.nr_pcp, b.nr_free);
	put_array(pool, arr, 4);
	give_back();
	ok(all_back(), "bulk empty - every page back");

	fill_pcp(1, 1);
	arm_steal(0);
	ret = pp_alloc_pages_bulk_list(pool, PP_GFP_KERNEL, 4, &list);
	pp_pool_vmstat(pool, &b);
	ok(ret == 1 && list_length(&list) == 1 &&
	   vm_delta(&hook_after, &b, PP_BULK_FALLBACK_EMPTY) == 1 &&
	   vm_delta(&hook_after, &b, PP_PGALLOC) == 1,
	   "alloc_pages_bulk_list - empty fallback adds exactly one page "
	   "(%lu)", ret);
	put_list(pool, &list);
	give_back();
	ok(all_back(), "bulk empty list - every page back");
	ok(pp_pool_destroy(pool) == 0, "pp_pool_destroy - returns 0");
}

static void test_partial(void)
{
	struct pp_page *arr[32] = { NULL }, *pre3, *pre20, *pre;
	struct pp_list_head list = PP_LIST_HEAD_INIT(list);
	struct pp_vmstat b;
	unsigned long ret, filled = 0, empty = 0;

	pool = test_pool_create(NR_PAGES, BATCH, HIGH, 2);
	fake_cpu = 1;
	pre3 = arr[3] = pp_alloc_page(pool, PP_GFP_KERNEL);
	pre20 = arr[20] = pp_alloc_page(pool, PP_GFP_KERNEL);
	fake_cpu = 0;
	/* After the check, only 10 buddy pages are left for 30 holes. */
	arm_steal(10);
	ret = pp_alloc_pages_bulk_array(pool, PP_GFP_KERNEL, 32, arr);
	pp_pool_vmstat(pool, &b);
	for (unsigned int i = 0; i < 11; i++)
		filled += arr[i] != NULL;
	for (unsigned int i = 11; i < 32; i++)
		empty += i != 20 && arr[i] == NULL;

	ok(hook_after.nr_free == 10,
	   "alloc_pages_bulk_array - setup: 10 buddy pages after the check "
	   "(%lu)", hook_after.nr_free);
	ok(ret == 11,
	   "alloc_pages_bulk_array - partial fill returns the first remaining "
	   "hole, pre-populated entry 3 included (%lu)", ret);
	ok(filled == 11 && arr[3] == pre3,
	   "alloc_pages_bulk_array - entries [0, ret) populated (%lu)", filled);
	ok(empty == 20 && arr[20] == pre20,
	   "alloc_pages_bulk_array - entries after it untouched, populated "
	   "entry 20 not counted (%lu)", empty);
	ok(vm_delta(&hook_after, &b, PP_BULK_PARTIAL) == 1,
	   "alloc_pages_bulk_array - short return counts bulk_partial (%llu)",
	   (unsigned long long)vm_delta(&hook_after, &b, PP_BULK_PARTIAL));
	ok(vm_delta(&hook_after, &b, PP_PGALLOC) == 10 &&
	   vm_delta(&hook_after, &b, PP_BULK_FALLBACK_EMPTY) == 0 &&
	   vm_delta(&hook_after, &b, PP_ALLOC_SLOWPATH) == 0 &&
	   b.nr_free == 0,
	   "alloc_pages_bulk_array - took the 10 pages left, no fallback "
	   "(%llu)", (unsigned long long)vm_delta(&hook_after, &b, PP_PGALLOC));
	ok(pages_distinct(pool, arr, 32),
	   "alloc_pages_bulk_array - partial fill pages distinct");
	put_array(pool, arr, 32);
	give_back();
	ok(all_back(), "bulk partial - every page back");

	fake_cpu = 1;
	pre = pp_alloc_page(pool, PP_GFP_KERNEL);
	fake_cpu = 0;
	pp_list_add(&pre->lru, &list);
	arm_steal(10);
	ret = pp_alloc_pages_bulk_list(pool, PP_GFP_KERNEL, 32, &list);
	pp_pool_vmstat(pool, &b);
	ok(ret == 10 && list_length(&list) == 11 && list_contains(&list, pre),
	   "alloc_pages_bulk_list - partial fill returns the 10 pages added "
	   "(%lu)", ret);
	ok(vm_delta(&hook_after, &b, PP_BULK_PARTIAL) == 1 &&
	   vm_delta(&hook_after, &b, PP_PGALLOC) == 10,
	   "alloc_pages_bulk_list - short return counts bulk_partial (%llu)",
	   (unsigned long long)vm_delta(&hook_after, &b, PP_BULK_PARTIAL));
	put_list(pool, &list);
	give_back();
	ok(all_back(), "bulk partial list - every page back");
	ok(pp_pool_destroy(pool) == 0, "pp_pool_destroy - returns 0");
}

/* Run again without rseq, so that the library asks sched_getcpu(). */
static void reexec_without_rseq(char **argv)
{
	static const char tunable[] = "glibc.pthread.rseq=0";
	const char *old = getenv("GLIBC_TUNABLES");
	char buf[1024];

	if (getenv("PP_TEST_NO_RSEQ"))
		return;
	snprintf(buf, sizeof(buf), "%s%s%s", old ? old : "", old ? ":" : "",
		 tunable);
	setenv("GLIBC_TUNABLES", buf, 1);
	setenv("PP_TEST_NO_RSEQ", "1", 1);
	execv("/proc/self/exe", argv);
	/* Could not: the interposition check below says so. */
}

int main(int argc, char **argv)
{
	(void)argc;
	reexec_without_rseq(argv);
	plan_tests(42);
	if (getenv("PAGEPOOL_PCP") && !strcmp(getenv("PAGEPOOL_PCP"), "rseq"))
		diag("PAGEPOOL_PCP=rseq: without glibc's rseq (see above) the "
		     "pools fall back to the lock; the rseq lists are not "
		     "tested here");

	if (!test_backend_is_buddy()) {
		skip(42, "buddy backend only: %s", "shapes the zone by hand");
		return exit_status();
	}
	if (!test_interposition()) {
		/* A library that no longer calls sched_getcpu() through the
		 * dynamic symbol: the scenarios cannot be set up. */
		skip(42, "sched_getcpu() stand-in not used by the library");
		return exit_status();
	}
	test_watermark();
	test_exhausted();
	test_empty();
	test_partial();
	return exit_status();
}
