/* SPDX-License-Identifier: MIT */
/*
 * Fault injection (PAGEPOOL_FAULT): each switch makes a rare path common,
 * and the path does what the contracts say.  Buddy backend only: the
 * fallbacks checked here are the buddy allocator's.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capture.h"
#include "pp_test.h"

#define NR_PAGES	512

/*
 * A pool made the way a user turns the faults on: PAGEPOOL_FAULT, read by
 * pp_pool_config_init() (in test_pool_create()).
 */
static struct pp_pool *fault_pool(const char *spec)
{
	struct pp_pool *pool;

	if (setenv("PAGEPOOL_FAULT", spec, 1))
		bail_out("setenv: %s", strerror(errno));
	pool = test_pool_create(NR_PAGES, 8, 32, 1);
	unsetenv("PAGEPOOL_FAULT");
	return pool;
}

static int config_init_call(void *arg)
{
	return pp_pool_config_init(arg);
}

static int pool_create_call(void *arg)
{
	struct pp_pool *pool = pp_pool_create(arg);

	if (pool) {
		pp_pool_destroy(pool);
		return 0;
	}
	return errno;
}

/*
 * pp_pool_config_init() reads PAGEPOOL_FAULT into cfg.fault, and only it:
 * pp_pool_create() builds what the configuration says.
 */
static void test_create_faults(void)
{
	struct pp_pool_config cfg;
	struct pp_pool *pool;
	static const char *const bad[] = {
		"bogus", "trylock=", "trylock=101", "trylock=-1", "mmap,",
		"buddy-empty=x", "trylock=5,,mmap",
	};
	char out[512], want[64];
	int err;

	setenv("PAGEPOOL_FAULT", "mmap", 1);
	err = pp_pool_config_init(&cfg);
	cfg.backend = test_backend();
	cfg.nr_pages = NR_PAGES;
	unsetenv("PAGEPOOL_FAULT");
	errno = 0;
	pool = pp_pool_create(&cfg);
	ok(err == 0 && cfg.fault.mmap && !pool && errno == ENOMEM,
	   "PAGEPOOL_FAULT=mmap - read by pp_pool_config_init, "
	   "pp_pool_create fails with ENOMEM (%s)", strerror(errno));
	if (pool)
		pp_pool_destroy(pool);

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char *nl;

		setenv("PAGEPOOL_FAULT", bad[i], 1);
		err = capture_stderr(config_init_call, &cfg, out, sizeof(out));
		unsetenv("PAGEPOOL_FAULT");
		cfg.backend = test_backend();
		cfg.nr_pages = NR_PAGES;
		snprintf(want, sizeof(want), "PAGEPOOL_FAULT='%s'", bad[i]);
		nl = strchr(out, '\n');
		ok(err == -EINVAL && strstr(out, want) &&
		   strstr(out, "expected") && nl && nl[1] == '\0' &&
		   cfg.fault.trylock > 100,
		   "PAGEPOOL_FAULT='%s' - pp_pool_config_init: -EINVAL, one "
		   "line naming it (%d)", bad[i], err);
		if (!strstr(out, want))
			diag_text("stderr: ", out);
		err = capture_stderr(pool_create_call, &cfg, out, sizeof(out));
		ok(err == EINVAL && !*out,
		   "  and pp_pool_create refuses that configuration: EINVAL "
		   "(%s), silently", strerror(err));
	}

	/* A key given twice: refused, naming the key, not the last kept. */
	{
		static const char *const twice[][2] = {
			{ "buddy-empty=1,buddy-empty=2", "buddy-empty" },
			{ "trylock=5,mmap,trylock=5", "trylock" },
			{ "mmap,mmap", "mmap" },
		};

		for (size_t i = 0; i < sizeof(twice) / sizeof(twice[0]); i++) {
			char *nl;

			setenv("PAGEPOOL_FAULT", twice[i][0], 1);
			err = capture_stderr(config_init_call, &cfg, out,
					     sizeof(out));
			unsetenv("PAGEPOOL_FAULT");
			snprintf(want, sizeof(want), "PAGEPOOL_FAULT='%s': %s "
				 "given twice", twice[i][0], twice[i][1]);
			nl = strchr(out, '\n');
			ok(err == -EINVAL && strstr(out, want) && nl &&
			   nl[1] == '\0' && cfg.fault.trylock > 100,
			   "PAGEPOOL_FAULT='%s' - pp_pool_config_init: -EINVAL, "
			   "one line naming %s (%d)", twice[i][0], twice[i][1],
			   err);
			if (!strstr(out, want))
				diag_text("stderr: ", out);
		}
	}

	setenv("PAGEPOOL_FAULT", "", 1);
	err = pp_pool_config_init(&cfg);
	cfg.backend = test_backend();
	cfg.nr_pages = NR_PAGES;
	pool = pp_pool_create(&cfg);
	ok(err == 0 && pool != NULL,
	   "PAGEPOOL_FAULT='' - no fault, the pool is created");
	ok(pool && pp_pool_destroy(pool) == 0, "  and destroyed");

	/* Set after the configuration was made: too late, create ignores it. */
	unsetenv("PAGEPOOL_FAULT");
	test_config_init(&cfg);
	cfg.nr_pages = NR_PAGES;
	setenv("PAGEPOOL_FAULT", "mmap", 1);
	pool = pp_pool_create(&cfg);
	unsetenv("PAGEPOOL_FAULT");
	ok(pool != NULL, "PAGEPOOL_FAULT=mmap set after pp_pool_config_init - "
	   "pp_pool_create does not read it");
	if (pool)
		pp_pool_destroy(pool);
}

/* The same faults set by the program: pp_pool_config_fault(), fields. */
static void test_config_faults(void)
{
	struct pp_pool_config cfg;
	struct pp_pool *pool;
	int err;

	test_config_init(&cfg);
	cfg.nr_pages = NR_PAGES;
	err = pp_pool_config_fault(&cfg, "trylock=5,buddy-empty=7,mmap");
	errno = 0;
	pool = pp_pool_create(&cfg);
	ok(err == 0 && cfg.fault.trylock == 5 && cfg.fault.buddy_empty == 7 &&
	   cfg.fault.mmap && !pool && errno == ENOMEM,
	   "pp_pool_config_fault - every item read; mmap: ENOMEM (%s)",
	   strerror(errno));
	if (pool)
		pp_pool_destroy(pool);
	ok(pp_pool_config_fault(&cfg, "trylock=5,bogus") == -EINVAL &&
	   cfg.fault.trylock == 5 && cfg.fault.buddy_empty == 7 &&
	   cfg.fault.mmap,
	   "pp_pool_config_fault - a bad spec: -EINVAL, cfg.fault untouched");
	ok(pp_pool_config_fault(&cfg, "buddy-empty=1,buddy-empty=2") ==
	   -EINVAL && cfg.fault.buddy_empty == 7,
	   "pp_pool_config_fault - a key twice: -EINVAL, cfg.fault untouched");
	ok(pp_pool_config_fault(&cfg, NULL) == 0 && !cfg.fault.trylock &&
	   !cfg.fault.buddy_empty && !cfg.fault.mmap,
	   "pp_pool_config_fault - NULL: no fault");
	cfg.fault.trylock = 101;
	errno = 0;
	pool = pp_pool_create(&cfg);
	ok(!pool && errno == EINVAL,
	   "cfg.fault.trylock = 101 - pp_pool_create refuses it: EINVAL (%s)",
	   strerror(errno));
	if (pool)
		pp_pool_destroy(pool);
}

/* Every hot-path trylock fails: every path still gets its pages. */
static void test_trylock_always(void)
{
	struct pp_pool *pool = fault_pool("trylock=100");
	struct pp_list_head list = PP_LIST_HEAD_INIT(list);
	struct pp_page *arr[16] = { NULL }, *big[64], *page;
	struct pp_vmstat a, b;
	unsigned long ret;
	uint64_t fails;
	bool rseq;

	page = test_alloc_page_vmstat(pool, &a, &b);
	ok(page && vm_delta(&a, &b, PP_PCP_TRYLOCK_FAIL) == 1 &&
	   vm_delta(&a, &b, PP_PCP_REFILL) == 0 && b.nr_pcp == 0,
	   "trylock=100 - pp_alloc_page takes its page from the buddy lists");

	pp_pool_vmstat(pool, &a);
	ret = pp_alloc_pages_bulk_array(pool, PP_GFP_KERNEL, 16, arr);
	pp_pool_vmstat(pool, &b);
	ok(ret == 1 && arr[0] && !arr[1] &&
	   vm_delta(&a, &b, PP_BULK_FALLBACK_TRYLOCK) == 1 &&
	   vm_delta(&a, &b, PP_PGALLOC) == 1,
	   "trylock=100 - bulk array falls back to one page (%lu)", ret);

	pp_pool_vmstat(pool, &a);
	ret = pp_alloc_pages_bulk_list(pool, PP_GFP_KERNEL, 16, &list);
	pp_pool_vmstat(pool, &b);
	ok(ret == 1 && list_length(&list) == 1 &&
	   vm_delta(&a, &b, PP_BULK_FALLBACK_TRYLOCK) == 1,
	   "trylock=100 - bulk list falls back to one page (%lu)", ret);

	/* The callers' loop: call until full, one page at a time. */
	while (ret < 16 && pp_alloc_pages_bulk_array(pool, PP_GFP_KERNEL, 16,
						     arr) > ret)
		ret++;
	ok(ret == 16, "trylock=100 - a caller looping still fills the array");

	pp_pool_vmstat(pool, &a);
	pp_put_page(pool, page);
	put_list(pool, &list);
	put_array(pool, arr, 16);
	pp_pool_vmstat(pool, &b);
	ok(b.nr_pcp == 0 && b.nr_free == NR_PAGES &&
	   vm_delta(&a, &b, PP_PCP_TRYLOCK_FAIL) >= 1,
	   "trylock=100 - frees go straight to the buddy lists");
	ok(test_all_back(&b), "trylock=100 - every page is back");

	/*
	 * pp_release_pages() asks for the list once per PP_SWAP_CLUSTER_MAX
	 * pages (32): on rseq lists a stretch that cannot have it goes to
	 * the buddy lists whole, one failure; the lock is tried again page
	 * by page.  Both profiles.
	 */
	for (int i = 0; i < 64; i++)
		big[i] = pp_alloc_page(pool, PP_GFP_KERNEL);
	pp_pool_vmstat(pool, &a);
	pp_release_pages(pool, big, 64);
	pp_pool_vmstat(pool, &b);
	fails = vm_delta(&a, &b, PP_PCP_TRYLOCK_FAIL);
	rseq = b.pcp_impl == PP_PCP_RSEQ;
	ok(fails == (rseq ? 2 : 64) && b.nr_free == NR_PAGES,
	   "trylock=100 - pp_release_pages of 64 pages: %llu failures "
	   "(%s profile, %s: %s)", (unsigned long long)fails,
	   pp_profile_name(b.profile), pp_pcp_impl_name(b.pcp_impl),
	   rseq ? "one per 32-page stretch" : "one per page");
	ok(pp_pool_destroy(pool) == 0, "trylock=100 - destroy finds no leak");
}

/* Half the trylocks fail: a random workload keeps its invariants. */
static void test_trylock_half(void)
{
	struct pp_pool *pool = fault_pool("trylock=50");
	struct pp_page *arr[64] = { NULL };
	struct pp_vmstat st;
	unsigned int seed = 1;
	bool filled = true;

	for (int round = 0; round < 2000; round++) {
		unsigned long ret = 0;

		for (int i = 0; i < 64; i++)
			if (rand_r(&seed) % 3 == 0 && arr[i]) {
				pp_put_page(pool, arr[i]);
				arr[i] = NULL;
			}
		for (int tries = 0; tries < 1000 && ret < 64; tries++)
			ret = pp_alloc_pages_bulk_array(pool, PP_GFP_KERNEL,
							64, arr);
		if (ret != 64)
			filled = false;
	}
	ok(filled, "trylock=50 - every array filled by looping");
	pp_pool_vmstat(pool, &st);
	ok(st.events[PP_BULK_FALLBACK_TRYLOCK] > 0 &&
	   st.events[PP_PCP_TRYLOCK_FAIL] > 0,
	   "trylock=50 - both fallbacks happened (bulk %llu, other %llu)",
	   (unsigned long long)st.events[PP_BULK_FALLBACK_TRYLOCK],
	   (unsigned long long)st.events[PP_PCP_TRYLOCK_FAIL]);
	put_array(pool, arr, 64);
	pp_pool_drain(pool);
	pp_pool_vmstat(pool, &st);
	ok(test_all_back(&st), "trylock=50 - every page is back");
	ok(pp_pool_destroy(pool) == 0, "trylock=50 - destroy finds no leak");
}

/*
 * trylock=PERCENT fails that share of the draws: single pages allocated
 * and put back, once with every trylock failing (the number of draws),
 * once with 1 % of them.  Binomial: 2000 +- 44.5 of 200,000 draws; the
 * bounds are 9 standard deviations away, and a draw of "< percent + 1"
 * (2 %, 4000) is far outside them.
 */
static unsigned long long trylock_fails(const char *spec)
{
	struct pp_pool *pool = fault_pool(spec);
	struct pp_vmstat st;

	for (int i = 0; i < 100000; i++)
		pp_put_page(pool, pp_alloc_page(pool, PP_GFP_KERNEL));
	pp_pool_vmstat(pool, &st);
	if (pp_pool_destroy(pool))
		bail_out("%s: pages left", spec);
	return (unsigned long long)st.events[PP_PCP_TRYLOCK_FAIL];
}

static void test_trylock_share(void)
{
	unsigned long long all = trylock_fails("trylock=100");
	unsigned long long one = trylock_fails("trylock=1");

	ok(all >= 100000 && one * 1000 >= all * 8 && one * 1000 <= all * 12,
	   "trylock=1 - 1 %% of the trylocks fail (%llu of %llu)", one, all);
}

/* The buddy allocator says it is empty with 100 pages left. */
static void test_buddy_empty(void)
{
	struct pp_pool *pool = fault_pool("buddy-empty=100");
	struct pp_list_head list = PP_LIST_HEAD_INIT(list);
	struct pp_page *arr[64] = { NULL }, *page;
	struct pp_vmstat a, b;
	unsigned long got = 0, ret;

	while ((page = pp_alloc_page(pool, PP_GFP_KERNEL))) {
		pp_list_add(&page->lru, &list);
		got++;
	}
	pp_pool_vmstat(pool, &b);
	ok(got == NR_PAGES - 100 && b.nr_free == 100 &&
	   b.events[PP_ALLOC_FAIL] == 1,
	   "buddy-empty=100 - single pages run out with 100 left (%lu "
	   "allocated, %lu free)", got, b.nr_free);

	/* Give 10 back to the pcp list: a bulk call takes them, then stops. */
	for (int i = 0; i < 10; i++)
		pp_put_page(pool, pp_list_pop_page(&list));
	pp_pool_vmstat(pool, &a);
	ret = pp_alloc_pages_bulk_array(pool, PP_GFP_MEMALLOC, 64, arr);
	pp_pool_vmstat(pool, &b);
	ok(a.nr_pcp == 10 && ret == 10 &&
	   vm_delta(&a, &b, PP_BULK_PARTIAL) == 1,
	   "buddy-empty=100 - a bulk call returns the 10 pcp pages, partial "
	   "(%lu)", ret);
	ret = pp_alloc_pages_bulk_array(pool, PP_GFP_MEMALLOC, 64, arr);
	pp_pool_vmstat(pool, &a);
	ok(ret == 10 && vm_delta(&b, &a, PP_BULK_FALLBACK_EMPTY) == 1 &&
	   vm_delta(&b, &a, PP_ALLOC_FAIL) == 1,
	   "buddy-empty=100 - then nothing: the one-page fallback fails too "
	   "(%lu)", ret);

	put_array(pool, arr, 64);
	put_list(pool, &list);
	pp_pool_drain(pool);
	pp_pool_vmstat(pool, &b);
	ok(test_all_back(&b), "buddy-empty=100 - every page is back");
	ok(pp_pool_destroy(pool) == 0, "buddy-empty=100 - destroy finds no leak");
}

/*
 * A reserve near ULONG_MAX leaves the buddy allocator nothing to give.
 * The check once added the reserve to the pages asked for: ULONG_MAX + 1
 * and (ULONG_MAX - 7) + 8 wrapped to small numbers, and the "empty" buddy
 * lists handed out single pages and order-3 blocks.
 */
static void test_buddy_empty_huge(void)
{
	static const unsigned long reserves[] = { ULONG_MAX, ULONG_MAX - 7 };

	for (unsigned int i = 0; i < 2; i++) {
		struct pp_page *arr[16] = { NULL }, *page, *block;
		struct pp_pool *pool;
		unsigned long ret;
		char spec[64];

		snprintf(spec, sizeof(spec), "buddy-empty=%lu", reserves[i]);
		pool = fault_pool(spec);
		page = pp_alloc_page(pool, PP_GFP_KERNEL);
		block = pp_alloc_pages(pool, PP_GFP_KERNEL, 3);
		ret = pp_alloc_pages_bulk_array(pool, PP_GFP_KERNEL, 16, arr);
		ok(!page && !block && ret == 0,
		   "%s - nothing from the buddy lists: page %s, order 3 %s, "
		   "bulk %lu", spec, page ? "given" : "NULL",
		   block ? "given" : "NULL", ret);
		if (page)
			pp_put_page(pool, page);
		if (block)
			pp_put_page(pool, block);
		put_array(pool, arr, 16);
		ok(pp_pool_destroy(pool) == 0, "%s - destroy finds no leak",
		   spec);
	}
}

int main(void)
{
	const unsigned int planned = 18 + 3 + 4 + 9 + 4 + 5 + 4 + 1;

	plan_tests(planned);
	if (!test_backend_is_buddy()) {
		skip(planned, "fault injection is checked on the buddy backend");
		return exit_status();
	}
	test_create_faults();
	test_config_faults();
	test_trylock_always();
	test_trylock_half();
	test_trylock_share();
	test_buddy_empty();
	test_buddy_empty_huge();
	return exit_status();
}
