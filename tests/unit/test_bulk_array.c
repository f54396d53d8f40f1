/* SPDX-License-Identifier: MIT */
/*
 * pp_alloc_pages_bulk_array(): only NULL entries are filled, pre-populated
 * ones are left alone, the return value counts the leading populated
 * entries, a full array returns nr_pages, and one missing page goes to the
 * single-page path.  The fallbacks that need a zone running dry are in
 * test_bulk_fallback.c.  Runs on both backends; the pcp and zone checks
 * are the buddy allocator's.
 */
#include <pagepool/pagepool.h>

#include "pp_test.h"
#include "tap.h"

#define NR_PAGES	1024
#define BATCH		8
#define HIGH		48

static struct pp_pool *pool;

/* Every "bulk went wrong" counter at once: none should move here. */
static uint64_t fallbacks(const struct pp_vmstat *a, const struct pp_vmstat *b)
{
	return vm_delta(a, b, PP_BULK_FALLBACK_ONE_PAGE) +
	       vm_delta(a, b, PP_BULK_FALLBACK_WATERMARK) +
	       vm_delta(a, b, PP_BULK_FALLBACK_TRYLOCK) +
	       vm_delta(a, b, PP_BULK_FALLBACK_EMPTY) +
	       vm_delta(a, b, PP_BULK_PARTIAL);
}

static unsigned long count_nonnull(struct pp_page **arr, unsigned long nr)
{
	unsigned long n = 0;

	for (unsigned long i = 0; i < nr; i++)
		n += arr[i] != NULL;
	return n;
}

static void test_fill_empty(void)
{
	struct pp_page *arr[32] = { NULL };
	struct pp_vmstat a, b;
	unsigned long ret, refs_ok = 0;

	pp_pool_vmstat(pool, &a);
	ret = pp_alloc_pages_bulk_array(pool, PP_GFP_KERNEL, 32, arr);
	pp_pool_vmstat(pool, &b);

	ok(ret == 32, "alloc_pages_bulk_array - empty array of 32 filled (%lu)",
	   ret);
	ok(count_nonnull(arr, 32) == 32,
	   "alloc_pages_bulk_array - every entry populated (%lu)",
	   count_nonnull(arr, 32));
	ok(pages_distinct(pool, arr, 32),
	   "alloc_pages_bulk_array - all 32 pages distinct");
	for (unsigned long i = 0; i < 32; i++)
		refs_ok += arr[i] && pp_page_count(arr[i]) == 1;
	ok(refs_ok == 32, "alloc_pages_bulk_array - refcount 1 on each (%lu)",
	   refs_ok);
	ok(vm_delta(&a, &b, PP_PGALLOC) == 32,
	   "alloc_pages_bulk_array - pgalloc +32 (%llu)",
	   (unsigned long long)vm_delta(&a, &b, PP_PGALLOC));
	ok(vm_delta(&a, &b, PP_ALLOC_BULK_ARRAY_CALLS) == 1 &&
	   vm_delta(&a, &b, PP_ALLOC_SINGLE_CALLS) == 0 &&
	   vm_delta(&a, &b, PP_ALLOC_BULK_LIST_CALLS) == 0,
	   "alloc_pages_bulk_array - counted as one array call, no single call");
	ok(fallbacks(&a, &b) == 0,
	   "alloc_pages_bulk_array - no fallback, no partial (%llu)",
	   (unsigned long long)fallbacks(&a, &b));
	/* An empty pcp list is refilled batch by batch: 32 / 8 = 4 refills. */
	ok_vm_deltas(ok_buddy, &a, &b, PP_PCP_REFILL, 4, PP_PCP_REFILL_PAGES, 32,
		     "alloc_pages_bulk_array - pcp refilled 4 times with 32 "
		     "pages (%llu, %llu)");
	ok_buddy(vm_delta(&a, &b, PP_ZONE_LOCK) == 4,
	   "alloc_pages_bulk_array - zone lock taken once per refill (%llu)",
	   (unsigned long long)vm_delta(&a, &b, PP_ZONE_LOCK));
	ok_buddy(b.nr_free == a.nr_free - 32 && b.nr_pcp == 0,
	   "alloc_pages_bulk_array - nr_free -32, pcp empty (%lu, %lu)",
	   a.nr_free - b.nr_free, b.nr_pcp);
	put_array(pool, arr, 32);
	pp_pool_drain(pool);
}

static void test_uses_pcp_first(void)
{
	struct pp_page *arr[10] = { NULL };
	struct pp_page *single = pp_alloc_page(pool, PP_GFP_KERNEL);
	struct pp_vmstat a, b;
	unsigned long ret;

	/* The single allocation left batch - 1 = 7 pages on the pcp list. */
	pp_pool_vmstat(pool, &a);
	ret = pp_alloc_pages_bulk_array(pool, PP_GFP_KERNEL, 10, arr);
	pp_pool_vmstat(pool, &b);
	ok_buddy(a.nr_pcp == BATCH - 1,
	   "alloc_pages_bulk_array - setup: %u pages on the pcp list (%lu)",
	   BATCH - 1, a.nr_pcp);
	ok(ret == 10, "alloc_pages_bulk_array - 10 filled (%lu)", ret);
	ok_buddy(vm_delta(&a, &b, PP_PCP_REFILL) == 1 && b.nr_pcp == 5,
	   "alloc_pages_bulk_array - 7 from the pcp list, one refill, 5 left "
	   "(%llu, %lu)",
	   (unsigned long long)vm_delta(&a, &b, PP_PCP_REFILL), b.nr_pcp);
	pp_put_page(pool, single);
	put_array(pool, arr, 10);
	pp_pool_drain(pool);
}

static void test_holes(void)
{
	static const unsigned int filled[] = { 0, 1, 5, 9, 10, 15 };
	struct pp_page *arr[16] = { NULL }, *before[16] = { NULL };
	struct pp_vmstat a, b;
	unsigned long ret, kept = 0, refs = 0;
	unsigned int i;

	for (i = 0; i < sizeof(filled) / sizeof(filled[0]); i++) {
		arr[filled[i]] = pp_alloc_page(pool, PP_GFP_KERNEL);
		before[filled[i]] = arr[filled[i]];
	}
	pp_pool_vmstat(pool, &a);
	ret = pp_alloc_pages_bulk_array(pool, PP_GFP_KERNEL, 16, arr);
	pp_pool_vmstat(pool, &b);

	ok(ret == 16, "alloc_pages_bulk_array - 16 with 6 pre-populated "
	   "returns 16 (%lu)", ret);
	for (i = 0; i < sizeof(filled) / sizeof(filled[0]); i++) {
		kept += arr[filled[i]] == before[filled[i]];
		refs += pp_page_count(before[filled[i]]) == 1;
	}
	ok(kept == 6, "alloc_pages_bulk_array - pre-populated entries left "
	   "untouched (%lu of 6)", kept);
	ok(refs == 6, "alloc_pages_bulk_array - pre-populated pages keep "
	   "refcount 1 (%lu of 6)", refs);
	ok(count_nonnull(arr, 16) == 16,
	   "alloc_pages_bulk_array - holes at the start, middle and end "
	   "filled (%lu)", count_nonnull(arr, 16));
	ok(pages_distinct(pool, arr, 16),
	   "alloc_pages_bulk_array - new pages differ from the old ones");
	ok(vm_delta(&a, &b, PP_PGALLOC) == 10,
	   "alloc_pages_bulk_array - allocates only the 10 holes (%llu)",
	   (unsigned long long)vm_delta(&a, &b, PP_PGALLOC));
	ok(fallbacks(&a, &b) == 0,
	   "alloc_pages_bulk_array - 10 holes take the bulk path (%llu)",
	   (unsigned long long)fallbacks(&a, &b));
	put_array(pool, arr, 16);
	pp_pool_drain(pool);
}

static void test_full(void)
{
	struct pp_page *arr[8], *before[8];
	struct pp_vmstat a, b;
	unsigned long ret, kept = 0;

	for (int i = 0; i < 8; i++)
		before[i] = arr[i] = pp_alloc_page(pool, PP_GFP_KERNEL);
	pp_pool_vmstat(pool, &a);
	ret = pp_alloc_pages_bulk_array(pool, PP_GFP_KERNEL, 8, arr);
	pp_pool_vmstat(pool, &b);
	for (int i = 0; i < 8; i++)
		kept += arr[i] == before[i];
	ok(ret == 8, "alloc_pages_bulk_array - full array returns nr_pages, "
	   "not 0 (%lu)", ret);
	ok(kept == 8, "alloc_pages_bulk_array - full array unchanged (%lu)",
	   kept);
	ok(vm_delta(&a, &b, PP_PGALLOC) == 0 && fallbacks(&a, &b) == 0 &&
	   vm_delta(&a, &b, PP_ALLOC_BULK_ARRAY_CALLS) == 1,
	   "alloc_pages_bulk_array - full array allocates nothing, one call "
	   "counted");
	put_array(pool, arr, 8);
	pp_pool_drain(pool);
}

static void test_nr_zero(void)
{
	struct pp_page *arr[4] = { NULL };
	struct pp_page *page = pp_alloc_page(pool, PP_GFP_KERNEL);
	struct pp_vmstat a, b;
	unsigned long ret, ret2;

	pp_pool_vmstat(pool, &a);
	ret = pp_alloc_pages_bulk_array(pool, PP_GFP_KERNEL, 0, arr);
	arr[0] = page;
	ret2 = pp_alloc_pages_bulk_array(pool, PP_GFP_KERNEL, 0, arr);
	pp_pool_vmstat(pool, &b);
	ok(ret == 0 && count_nonnull(arr + 1, 3) == 0,
	   "alloc_pages_bulk_array - nr_pages 0 returns 0, fills nothing "
	   "(%lu)", ret);
	ok(ret2 == 0 && arr[0] == page,
	   "alloc_pages_bulk_array - nr_pages 0 returns 0 even with a "
	   "populated first entry (%lu)", ret2);
	ok(vm_delta(&a, &b, PP_PGALLOC) == 0 && fallbacks(&a, &b) == 0,
	   "alloc_pages_bulk_array - nr_pages 0 allocates nothing");
	pp_put_page(pool, page);
	pp_pool_drain(pool);
}

static void test_one_hole(void)
{
	struct pp_page *arr[8] = { NULL }, *before[8] = { NULL };
	struct pp_vmstat a, b;
	unsigned long ret, kept = 0;

	for (int i = 0; i < 7; i++)
		before[i] = arr[i] = pp_alloc_page(pool, PP_GFP_KERNEL);
	pp_pool_vmstat(pool, &a);
	ret = pp_alloc_pages_bulk_array(pool, PP_GFP_KERNEL, 8, arr);
	pp_pool_vmstat(pool, &b);
	for (int i = 0; i < 7; i++)
		kept += arr[i] == before[i];

	ok(ret == 8 && arr[7] != NULL,
	   "alloc_pages_bulk_array - last hole after 7 populated filled "
	   "(%lu)", ret);
	ok(kept == 7 && pages_distinct(pool, arr, 8),
	   "alloc_pages_bulk_array - populated entries kept, new page "
	   "distinct (%lu)", kept);
	ok(vm_delta(&a, &b, PP_BULK_FALLBACK_ONE_PAGE) == 1,
	   "alloc_pages_bulk_array - one hole counts bulk_fallback_one_page "
	   "(%llu)",
	   (unsigned long long)vm_delta(&a, &b, PP_BULK_FALLBACK_ONE_PAGE));
	ok(vm_delta(&a, &b, PP_ALLOC_SINGLE_CALLS) == 0,
	   "alloc_pages_bulk_array - the fallback is not a user single call "
	   "(%llu)",
	   (unsigned long long)vm_delta(&a, &b, PP_ALLOC_SINGLE_CALLS));
	ok(vm_delta(&a, &b, PP_PGALLOC) == 1 &&
	   vm_delta(&a, &b, PP_ALLOC_BULK_ARRAY_CALLS) == 1 &&
	   vm_delta(&a, &b, PP_BULK_PARTIAL) == 0,
	   "alloc_pages_bulk_array - one page, one array call, not partial");
	put_array(pool, arr, 8);

	arr[0] = NULL;
	pp_pool_vmstat(pool, &a);
	ret = pp_alloc_pages_bulk_array(pool, PP_GFP_KERNEL, 1, arr);
	pp_pool_vmstat(pool, &b);
	ok(ret == 1 && arr[0] != NULL &&
	   vm_delta(&a, &b, PP_BULK_FALLBACK_ONE_PAGE) == 1 &&
	   vm_delta(&a, &b, PP_ALLOC_SINGLE_CALLS) == 0,
	   "alloc_pages_bulk_array - nr_pages 1 takes the one-page path "
	   "(%lu)", ret);
	put_array(pool, arr, 1);

	/* One hole in the middle: filled, the entries after it counted. */
	for (int i = 0; i < 8; i++)
		before[i] = arr[i] = i == 3 ? NULL :
				     pp_alloc_page(pool, PP_GFP_KERNEL);
	pp_pool_vmstat(pool, &a);
	ret = pp_alloc_pages_bulk_array(pool, PP_GFP_KERNEL, 8, arr);
	pp_pool_vmstat(pool, &b);
	kept = 0;
	for (int i = 0; i < 8; i++)
		kept += i == 3 || arr[i] == before[i];
	ok(ret == 8 && arr[3] != NULL && kept == 8 &&
	   vm_delta(&a, &b, PP_PGALLOC) == 1,
	   "alloc_pages_bulk_array - single hole in the middle filled, "
	   "returns 8 (%lu)", ret);
	put_array(pool, arr, 8);
	pp_pool_drain(pool);
}

static void test_every_page_back(void)
{
	struct pp_vmstat st;

	pp_pool_vmstat(pool, &st);
	ok(test_all_back(&st),
	   "alloc_pages_bulk_array - every page back (free %lu, pgalloc %llu, "
	   "pgfree %llu)", st.nr_free,
	   (unsigned long long)st.events[PP_PGALLOC],
	   (unsigned long long)st.events[PP_PGFREE]);
}

int main(void)
{
	plan_tests(35);
	pool = test_pool_create(NR_PAGES, BATCH, HIGH, 1);

	test_fill_empty();
	test_uses_pcp_first();
	test_holes();
	test_full();
	test_nr_zero();
	test_one_hole();
	test_every_page_back();

	ok(pp_pool_destroy(pool) == 0, "pp_pool_destroy - returns 0");
	return exit_status();
}
