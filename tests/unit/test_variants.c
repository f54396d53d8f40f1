/* SPDX-License-Identifier: MIT */
/*
 * The bulk API's kernel-history variants (enum pp_bulk_variant), one
 * contract each: stop at the first populated entry (v5), statistics
 * batched after the loop (5.14), no single-page fallback for one missing
 * page, and the array as pure output (2025); the merged contract next to
 * them on the same arrays.  Plus the run-time switch and the names.  Runs
 * on both backends: the variants live in the front end they share.
 */
#include <pagepool/pagepool.h>

#include "pp_test.h"
#include "tap.h"

#define NR_PAGES	1024
#define SLOTS		8

static struct pp_pool *pool;

/* Slots 0, 3 and 5 populated: holes at 1-2, 4 and 6-7. */
static const unsigned int pattern[SLOTS] = { 1, 0, 0, 1, 0, 1, 0, 0 };

static void fill_pattern(struct pp_page **arr, struct pp_page **pre)
{
	for (unsigned int i = 0; i < SLOTS; i++) {
		arr[i] = pattern[i] ? pp_alloc_page(pool, PP_GFP_KERNEL) : NULL;
		pre[i] = arr[i];
	}
}

static unsigned long count_nonnull(struct pp_page **arr, unsigned long nr)
{
	unsigned long n = 0;

	for (unsigned long i = 0; i < nr; i++)
		n += arr[i] != NULL;
	return n;
}

static bool kept(struct pp_page **arr, struct pp_page **pre)
{
	for (unsigned int i = 0; i < SLOTS; i++)
		if (pre[i] && arr[i] != pre[i])
			return false;
	return true;
}

static void set_variant(enum pp_bulk_variant v)
{
	if (pp_pool_set_bulk_variant(pool, v))
		bail_out("pp_pool_set_bulk_variant(%d) failed", v);
}

static void test_switch(void)
{
	struct pp_vmstat st;
	unsigned int named = 0;

	ok(pp_pool_bulk_variant(pool) == PP_BULK_MERGED,
	   "bulk variant - a new pool runs merged (%s)",
	   pp_bulk_variant_name(pp_pool_bulk_variant(pool)));
	ok(pp_pool_set_bulk_variant(pool, PP_NR_BULK_VARIANTS) == -EINVAL &&
	   pp_pool_set_bulk_variant(pool, (enum pp_bulk_variant)-1) ==
	   -EINVAL && pp_pool_bulk_variant(pool) == PP_BULK_MERGED,
	   "pp_pool_set_bulk_variant - out of range: -EINVAL, unchanged");
	set_variant(PP_BULK_PURE_OUTPUT);
	pp_pool_vmstat(pool, &st);
	ok(pp_pool_bulk_variant(pool) == PP_BULK_PURE_OUTPUT &&
	   st.bulk_variant == PP_BULK_PURE_OUTPUT,
	   "pp_pool_set_bulk_variant - switches at run time, vmstat says so");
	set_variant(PP_BULK_MERGED);
	for (int v = 0; v < PP_NR_BULK_VARIANTS; v++)
		named += pp_bulk_variant_from_name(pp_bulk_variant_name(v)) ==
			 v;
	ok(named == PP_NR_BULK_VARIANTS &&
	   !strcmp(pp_bulk_variant_name(PP_BULK_STOP_AT_POPULATED),
		   "stop-at-first-populated") &&
	   pp_bulk_variant_from_name("bogus") == -EINVAL &&
	   !strcmp(pp_bulk_variant_name(PP_NR_BULK_VARIANTS), "unknown"),
	   "pp_bulk_variant_name/from_name - every name round-trips (%u)",
	   named);
}

/* The merged contract on the pattern: every hole, one call. */
static void test_merged(void)
{
	struct pp_page *arr[SLOTS], *pre[SLOTS];
	struct pp_vmstat a, b;
	unsigned long ret;

	fill_pattern(arr, pre);
	pp_pool_vmstat(pool, &a);
	ret = pp_alloc_pages_bulk_array(pool, PP_GFP_KERNEL, SLOTS, arr);
	pp_pool_vmstat(pool, &b);
	ok(ret == SLOTS && count_nonnull(arr, SLOTS) == SLOTS &&
	   kept(arr, pre) && vm_delta(&a, &b, PP_PGALLOC) == 5,
	   "merged - holes anywhere filled in one call, returns %d (%lu)",
	   SLOTS, ret);
	put_array(pool, arr, SLOTS);
}

/*
 * v5: the loop stops at the first populated entry after a hole and
 * returns the index past it; a caller loops: 4, then 6, then 8.
 */
static void test_stop_at_populated(void)
{
	struct pp_page *arr[SLOTS], *pre[SLOTS];
	struct pp_vmstat a, b;
	unsigned long r1, r2, r3, r4;

	set_variant(PP_BULK_STOP_AT_POPULATED);
	fill_pattern(arr, pre);
	pp_pool_vmstat(pool, &a);
	r1 = pp_alloc_pages_bulk_array(pool, PP_GFP_KERNEL, SLOTS, arr);
	ok(r1 == 4 && arr[1] && arr[2] && !arr[4] && !arr[6] && !arr[7],
	   "stop-at-first-populated - first call fills holes 1-2, stops at "
	   "slot 3, returns 4 (%lu)", r1);
	r2 = pp_alloc_pages_bulk_array(pool, PP_GFP_KERNEL, SLOTS, arr);
	ok(r2 == 6 && arr[4] && !arr[6] && !arr[7],
	   "stop-at-first-populated - second call fills slot 4, stops at "
	   "slot 5, returns 6 (%lu)", r2);
	r3 = pp_alloc_pages_bulk_array(pool, PP_GFP_KERNEL, SLOTS, arr);
	r4 = pp_alloc_pages_bulk_array(pool, PP_GFP_KERNEL, SLOTS, arr);
	pp_pool_vmstat(pool, &b);
	ok(r3 == SLOTS && r4 == SLOTS && count_nonnull(arr, SLOTS) == SLOTS &&
	   kept(arr, pre) && pages_distinct(pool, arr, SLOTS),
	   "stop-at-first-populated - third call fills 6-7, a full array "
	   "returns %d (%lu, %lu)", SLOTS, r3, r4);
	ok(vm_delta(&a, &b, PP_PGALLOC) == 5 &&
	   vm_delta(&a, &b, PP_ALLOC_BULK_ARRAY_CALLS) == 4 &&
	   vm_delta(&a, &b, PP_BULK_PARTIAL) == 0 &&
	   vm_delta(&a, &b, PP_BULK_FALLBACK_ONE_PAGE) == 0,
	   "stop-at-first-populated - 5 pages in 4 calls, a stop is not a "
	   "partial fill (%llu partial)",
	   (unsigned long long)vm_delta(&a, &b, PP_BULK_PARTIAL));
	put_array(pool, arr, SLOTS);
	set_variant(PP_BULK_MERGED);
}

/* 5.14: the same pages and return values, PGALLOC counted once. */
static void test_batched_stats(void)
{
	struct pp_list_head list = PP_LIST_HEAD_INIT(list);
	struct pp_page *arr[SLOTS], *pre[SLOTS];
	struct pp_vmstat a, b;
	unsigned long ret, nl;

	set_variant(PP_BULK_BATCHED_STATS);
	fill_pattern(arr, pre);
	pp_pool_vmstat(pool, &a);
	ret = pp_alloc_pages_bulk_array(pool, PP_GFP_KERNEL, SLOTS, arr);
	nl = pp_alloc_pages_bulk_list(pool, PP_GFP_KERNEL, 20, &list);
	pp_pool_vmstat(pool, &b);
	ok(ret == SLOTS && count_nonnull(arr, SLOTS) == SLOTS &&
	   kept(arr, pre) && nl == 20 && list_length(&list) == 20,
	   "batched-stats - same fills and returns as merged (%lu, %lu)",
	   ret, nl);
	ok(vm_delta(&a, &b, PP_PGALLOC) == 25,
	   "batched-stats - pgalloc counts every page (+%llu)",
	   (unsigned long long)vm_delta(&a, &b, PP_PGALLOC));
	put_array(pool, arr, SLOTS);
	put_list(pool, &list);
	set_variant(PP_BULK_MERGED);
}

/* One missing page stays on the bulk path (no mm_page_alloc, no fallback). */
static void test_no_single_fallback(void)
{
	struct pp_list_head list = PP_LIST_HEAD_INIT(list);
	struct pp_page *arr[SLOTS], *pre[SLOTS];
	struct pp_vmstat a, b;
	unsigned long ret, one, nl;

	/* Slots 0-5 populated, 6 and 7 holes. */
	for (unsigned int i = 0; i < SLOTS; i++)
		pre[i] = arr[i] = i >= 6 ? NULL :
				  pp_alloc_page(pool, PP_GFP_KERNEL);

	/* Merged first: the one hole goes to the single-page path. */
	pp_pool_vmstat(pool, &a);
	ret = pp_alloc_pages_bulk_array(pool, PP_GFP_KERNEL, 7, arr);
	pp_pool_vmstat(pool, &b);
	ok(ret == 7 && arr[6] &&
	   vm_delta(&a, &b, PP_BULK_FALLBACK_ONE_PAGE) == 1,
	   "merged - one missing page takes the single-page path (%lu)", ret);
	pp_put_page(pool, arr[6]);
	arr[6] = NULL;

	set_variant(PP_BULK_NO_SINGLE_FALLBACK);
	pp_pool_vmstat(pool, &a);
	ret = pp_alloc_pages_bulk_array(pool, PP_GFP_KERNEL, 7, arr);
	one = pp_alloc_pages_bulk_array(pool, PP_GFP_KERNEL, 8, arr);
	nl = pp_alloc_pages_bulk_list(pool, PP_GFP_KERNEL, 1, &list);
	pp_pool_vmstat(pool, &b);
	ok(ret == 7 && arr[6] && one == SLOTS && arr[7] && nl == 1 &&
	   list_length(&list) == 1 && kept(arr, pre),
	   "no-single-fallback - one missing page (array slot 6, then 7; a "
	   "list of 1) filled (%lu, %lu, %lu)", ret, one, nl);
	ok(vm_delta(&a, &b, PP_BULK_FALLBACK_ONE_PAGE) == 0 &&
	   vm_delta(&a, &b, PP_PGALLOC) == 3 &&
	   vm_delta(&a, &b, PP_BULK_PARTIAL) == 0,
	   "no-single-fallback - all three on the bulk path, no fallback "
	   "counted (%llu)",
	   (unsigned long long)vm_delta(&a, &b, PP_BULK_FALLBACK_ONE_PAGE));
	put_array(pool, arr, SLOTS);
	put_list(pool, &list);
	set_variant(PP_BULK_MERGED);
}

/*
 * 2025: the array is output only.  Whatever it holds is overwritten (the
 * caller still owns what was there), nr_pages new pages are stored from
 * slot 0 and counted in the return value; a full array is no exception.
 */
static void test_pure_output(void)
{
	struct pp_page *arr[SLOTS], *pre[SLOTS], *one[1];
	struct pp_vmstat a, b;
	unsigned long ret, r1, fresh = 0;

	set_variant(PP_BULK_PURE_OUTPUT);
	fill_pattern(arr, pre);
	pp_pool_vmstat(pool, &a);
	ret = pp_alloc_pages_bulk_array(pool, PP_GFP_KERNEL, SLOTS, arr);
	pp_pool_vmstat(pool, &b);
	for (unsigned int i = 0; i < SLOTS; i++)
		fresh += arr[i] && arr[i] != pre[0] && arr[i] != pre[3] &&
			 arr[i] != pre[5] && pp_page_count(arr[i]) == 1;
	ok(ret == SLOTS && fresh == SLOTS && pages_distinct(pool, arr, SLOTS),
	   "pure-output - populated entries overwritten: %d new pages "
	   "(%lu, %lu fresh)", SLOTS, ret, fresh);
	ok(vm_delta(&a, &b, PP_PGALLOC) == SLOTS &&
	   vm_delta(&a, &b, PP_BULK_FALLBACK_ONE_PAGE) == 0,
	   "pure-output - pgalloc +%d, one bulk call (%llu)", SLOTS,
	   (unsigned long long)vm_delta(&a, &b, PP_PGALLOC));
	/* The caller still holds the pages the array had. */
	for (unsigned int i = 0; i < SLOTS; i++)
		if (pre[i])
			pp_put_page(pool, pre[i]);

	/* A full array: still SLOTS new pages. */
	memcpy(pre, arr, sizeof(arr));
	ret = pp_alloc_pages_bulk_array(pool, PP_GFP_KERNEL, SLOTS, arr);
	fresh = 0;
	for (unsigned int i = 0; i < SLOTS; i++)
		fresh += arr[i] != pre[i];
	ok(ret == SLOTS && fresh == SLOTS,
	   "pure-output - a full array gets %d new pages, not 'already "
	   "full' (%lu)", SLOTS, fresh);
	put_array(pool, pre, SLOTS);

	one[0] = arr[0];
	pp_pool_vmstat(pool, &a);
	r1 = pp_alloc_pages_bulk_array(pool, PP_GFP_KERNEL, 1, one);
	pp_pool_vmstat(pool, &b);
	ok(r1 == 1 && one[0] != arr[0] &&
	   vm_delta(&a, &b, PP_BULK_FALLBACK_ONE_PAGE) == 1,
	   "pure-output - nr_pages 1 takes the single-page path (%lu)", r1);
	pp_put_page(pool, one[0]);
	put_array(pool, arr, SLOTS);
	set_variant(PP_BULK_MERGED);
}

/* Given at creation, the variant is there from the first call. */
static void test_config(void)
{
	struct pp_pool_config cfg;
	struct pp_page *arr[SLOTS], *pre[SLOTS];
	struct pp_pool *p, *saved = pool;
	unsigned long ret;

	test_config_init(&cfg);
	ok(cfg.bulk_variant == PP_BULK_MERGED,
	   "pp_pool_config_init - bulk variant merged by default");
	cfg.nr_pages = test_pool_pages(256);
	cfg.bulk_variant = PP_BULK_STOP_AT_POPULATED;
	p = test_pool_create_config(&cfg);
	pool = p;
	fill_pattern(arr, pre);
	ret = pp_alloc_pages_bulk_array(p, PP_GFP_KERNEL, SLOTS, arr);
	ok(ret == 4 && pp_pool_bulk_variant(p) == PP_BULK_STOP_AT_POPULATED,
	   "pp_pool_create - cfg.bulk_variant applies from the first call "
	   "(%lu)", ret);
	put_array(p, arr, SLOTS);
	ok(pp_pool_destroy(p) == 0, "pp_pool_destroy - returns 0");
	pool = saved;

	cfg.bulk_variant = PP_NR_BULK_VARIANTS;
	errno = 0;
	p = pp_pool_create(&cfg);
	ok(p == NULL && errno == EINVAL,
	   "pp_pool_create - a bulk variant out of range: NULL, EINVAL");
}

int main(void)
{
	struct pp_vmstat st;

	plan_tests(24);
	pool = test_pool_create(NR_PAGES, 8, 48, 1);
	test_switch();
	test_merged();
	test_stop_at_populated();
	test_batched_stats();
	test_no_single_fallback();
	test_pure_output();
	test_config();

	pp_pool_drain(pool);
	pp_pool_vmstat(pool, &st);
	ok(test_all_back(&st), "variants - every page back (pgalloc %llu, "
	   "pgfree %llu)", (unsigned long long)st.events[PP_PGALLOC],
	   (unsigned long long)st.events[PP_PGFREE]);
	ok(pp_pool_destroy(pool) == 0, "pp_pool_destroy - returns 0");
	return exit_status();
}
