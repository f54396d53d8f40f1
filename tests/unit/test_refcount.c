/* SPDX-License-Identifier: MIT */
/*
 * References: pp_get_page()/pp_put_page() keep a page allocated until the
 * last put; pp_release_pages() drops one reference per non-NULL entry,
 * frees only the pages whose last reference went, and leaves the array
 * alone.  Runs on both backends; where freed pages land (pcp or buddy
 * lists) is the buddy allocator's.
 */
#include <pagepool/pagepool.h>

#include "pp_test.h"
#include "tap.h"

#define NR_PAGES	256

static struct pp_pool *pool;

static void test_get_put(void)
{
	struct pp_page *page = pp_alloc_page(pool, PP_GFP_KERNEL);
	struct pp_vmstat a, b;

	ok(page && pp_page_count(page) == 1,
	   "pp_alloc_page - new page has refcount 1");
	pp_get_page(pool, page);
	pp_get_page(pool, page);
	ok(pp_page_count(page) == 3, "pp_get_page - two gets: refcount 3 (%d)",
	   pp_page_count(page));

	pp_pool_vmstat(pool, &a);
	pp_put_page(pool, page);
	pp_put_page(pool, page);
	pp_pool_vmstat(pool, &b);
	ok(pp_page_count(page) == 1 && page->state == PP_PAGE_INUSE,
	   "pp_put_page - two puts: refcount 1, still allocated (%d)",
	   pp_page_count(page));
	ok(b.nr_free == a.nr_free && b.nr_pcp == a.nr_pcp &&
	   vm_delta(&a, &b, PP_PGFREE) == 0,
	   "pp_put_page - puts that are not the last free nothing (free %lu, "
	   "pcp %lu)", b.nr_free, b.nr_pcp);

	pp_put_page(pool, page);
	pp_pool_vmstat(pool, &b);
	ok(pp_page_count(page) == 0 && vm_delta(&a, &b, PP_PGFREE) == 1,
	   "pp_put_page - the last put frees the page (pgfree +%llu)",
	   (unsigned long long)vm_delta(&a, &b, PP_PGFREE));
	ok_buddy(b.nr_pcp == a.nr_pcp + 1,
		 "pp_put_page - ... to the pcp list (pcp +%lu)",
		 b.nr_pcp - a.nr_pcp);

	/* An order-2 block: references live on the head page. */
	page = pp_alloc_pages(pool, PP_GFP_KERNEL, 2);
	pp_get_page(pool, page);
	pp_pool_vmstat(pool, &a);
	pp_put_page(pool, page);
	pp_pool_vmstat(pool, &b);
	ok(pp_page_count(page) == 1 && b.nr_free == a.nr_free,
	   "pp_put_page - order-2 block with two references survives one put");
	pp_put_page(pool, page);
	pp_pool_vmstat(pool, &b);
	ok(vm_delta(&a, &b, PP_PGFREE) == 4,
	   "pp_put_page - its last put frees all 4 pages (pgfree +%llu)",
	   (unsigned long long)vm_delta(&a, &b, PP_PGFREE));
	ok_buddy(b.nr_free == a.nr_free + 4,
		 "pp_put_page - ... to the buddy lists (+%lu)",
		 b.nr_free - a.nr_free);
	pp_pool_drain(pool);
}

static void test_release(void)
{
	struct pp_page *arr[7], *copy[7], *shared;
	struct pp_vmstat a, b;
	unsigned long same = 0;

	/* [p, NULL, shared (2 refs), NULL, p, order-1 block, p] */
	arr[0] = pp_alloc_page(pool, PP_GFP_KERNEL);
	arr[1] = NULL;
	shared = arr[2] = pp_alloc_page(pool, PP_GFP_KERNEL);
	pp_get_page(pool, shared);
	arr[3] = NULL;
	arr[4] = pp_alloc_page(pool, PP_GFP_KERNEL);
	arr[5] = pp_alloc_pages(pool, PP_GFP_KERNEL, 1);
	arr[6] = pp_alloc_page(pool, PP_GFP_KERNEL);
	for (int i = 0; i < 7; i++)
		copy[i] = arr[i];

	pp_pool_vmstat(pool, &a);
	pp_release_pages(pool, arr, 7);
	pp_pool_vmstat(pool, &b);
	for (int i = 0; i < 7; i++)
		same += arr[i] == copy[i];
	ok(same == 7, "pp_release_pages - the array is not changed (%lu)",
	   same);
	ok(pp_page_count(shared) == 1 && shared->state == PP_PAGE_INUSE,
	   "pp_release_pages - a page with another reference stays allocated "
	   "(refcount %d)", pp_page_count(shared));
	ok(pp_page_count(copy[0]) == 0 && pp_page_count(copy[4]) == 0 &&
	   pp_page_count(copy[6]) == 0 && pp_page_count(copy[5]) == 0,
	   "pp_release_pages - the other pages lost their last reference");
	ok(vm_delta(&a, &b, PP_PGFREE) == 5,
	   "pp_release_pages - 3 pages + an order-1 block freed, NULLs "
	   "skipped: pgfree +5 (%llu)",
	   (unsigned long long)vm_delta(&a, &b, PP_PGFREE));
	ok_buddy(b.nr_pcp == a.nr_pcp + 3 && b.nr_free == a.nr_free + 2,
	   "pp_release_pages - order 0 to the pcp list, the order-1 block to "
	   "the buddy lists (pcp +%lu, buddy +%lu)", b.nr_pcp - a.nr_pcp,
	   b.nr_free - a.nr_free);

	pp_put_page(pool, shared);
	pp_pool_vmstat(pool, &a);
	pp_release_pages(pool, NULL, 0);
	pp_release_pages(pool, arr + 1, 1);	/* one NULL entry */
	pp_pool_vmstat(pool, &b);
	ok(vm_delta(&a, &b, PP_PGFREE) == 0 &&
	   vm_delta(&a, &b, PP_PCP_TRYLOCK_FAIL) == 0 &&
	   b.nr_pcp == a.nr_pcp && b.nr_free == a.nr_free,
	   "pp_release_pages - nr 0 and an all-NULL array do nothing");
	pp_pool_drain(pool);
}

/* More than one lock cluster (32 pages) in one call. */
static void test_release_many(void)
{
	struct pp_page *arr[100] = { NULL };
	struct pp_vmstat a, b;
	unsigned long ret;

	ret = pp_alloc_pages_bulk_array(pool, PP_GFP_KERNEL, 100, arr);
	pp_pool_vmstat(pool, &a);
	pp_release_pages(pool, arr, ret);
	pp_pool_vmstat(pool, &b);
	ok(ret == 100 && vm_delta(&a, &b, PP_PGFREE) == 100,
	   "pp_release_pages - 100 pages in one call all freed (%llu)",
	   (unsigned long long)vm_delta(&a, &b, PP_PGFREE));
	ok_buddy(b.nr_free + b.nr_pcp == NR_PAGES,
		 "pp_release_pages - ... back in the zone (%lu)",
		 b.nr_free + b.nr_pcp);
	pp_pool_drain(pool);
}

int main(void)
{
	struct pp_vmstat st;

	plan_tests(19);
	pool = test_pool_create(NR_PAGES, 8, 96, 1);
	test_get_put();
	test_release();
	test_release_many();

	pp_pool_vmstat(pool, &st);
	ok(test_all_back(&st), "refcount - every page back (%lu)",
	   st.nr_free);
	ok(pp_pool_destroy(pool) == 0, "pp_pool_destroy - returns 0");
	return exit_status();
}
