/* SPDX-License-Identifier: MIT */
/*
 * pp_alloc_pages_bulk_list(): adds exactly the pages it returns, at the
 * head of the list, keeps what the list held, and hands out distinct pages.
 * Watermark, empty and partial fallbacks are in test_bulk_fallback.c.
 * Runs on both backends; free-page counts and the zone's watermark are
 * the buddy allocator's.
 */
#include <limits.h>

#include <pagepool/pagepool.h>

#include "pp_test.h"
#include "tap.h"

#define NR_PAGES	1024
#define BATCH		8
#define HIGH		48

static struct pp_pool *pool;

static void test_adds(void)
{
	struct pp_list_head list = PP_LIST_HEAD_INIT(list);
	struct pp_page *pre[3], *got[20];
	struct pp_list_head *p;
	struct pp_vmstat a, b;
	unsigned long ret, n = 0, refs = 0, fresh = 0;

	for (int i = 0; i < 3; i++) {
		pre[i] = pp_alloc_page(pool, PP_GFP_KERNEL);
		pp_list_add_tail(&pre[i]->lru, &list);
	}
	pp_pool_vmstat(pool, &a);
	ret = pp_alloc_pages_bulk_list(pool, PP_GFP_KERNEL, 20, &list);
	pp_pool_vmstat(pool, &b);

	ok(ret == 20, "alloc_pages_bulk_list - returns the 20 pages asked "
	   "for (%lu)", ret);
	ok(list_length(&list) == 23,
	   "alloc_pages_bulk_list - list grows by exactly 20 (%lu)",
	   list_length(&list));
	ok(list.prev == &pre[2]->lru && list.prev->prev == &pre[1]->lru &&
	   list.prev->prev->prev == &pre[0]->lru,
	   "alloc_pages_bulk_list - pre-existing entries kept, in order, "
	   "behind the new ones");
	for (p = list.next; p != &list && n < 20; p = p->next) {
		got[n] = pp_lru_to_page(p);
		fresh += got[n] != pre[0] && got[n] != pre[1] &&
			 got[n] != pre[2];
		refs += pp_page_count(got[n]) == 1;
		n++;
	}
	ok(n == 20 && fresh == 20,
	   "alloc_pages_bulk_list - new pages added at the head (%lu)", fresh);
	ok(pages_distinct(pool, got, n),
	   "alloc_pages_bulk_list - the 20 pages are distinct");
	ok(refs == 20, "alloc_pages_bulk_list - refcount 1 on each (%lu)",
	   refs);
	ok(vm_delta(&a, &b, PP_PGALLOC) == 20,
	   "alloc_pages_bulk_list - pgalloc +20 (%llu)",
	   (unsigned long long)vm_delta(&a, &b, PP_PGALLOC));
	ok_buddy(b.nr_free + b.nr_pcp == a.nr_free + a.nr_pcp - 20,
	   "alloc_pages_bulk_list - 20 fewer free pages (%lu)",
	   a.nr_free + a.nr_pcp - b.nr_free - b.nr_pcp);
	ok(vm_delta(&a, &b, PP_ALLOC_BULK_LIST_CALLS) == 1 &&
	   vm_delta(&a, &b, PP_ALLOC_BULK_ARRAY_CALLS) == 0 &&
	   vm_delta(&a, &b, PP_ALLOC_SINGLE_CALLS) == 0,
	   "alloc_pages_bulk_list - counted as one list call");
	ok(vm_delta(&a, &b, PP_BULK_PARTIAL) == 0 &&
	   vm_delta(&a, &b, PP_BULK_FALLBACK_ONE_PAGE) == 0 &&
	   vm_delta(&a, &b, PP_BULK_FALLBACK_WATERMARK) == 0 &&
	   vm_delta(&a, &b, PP_BULK_FALLBACK_EMPTY) == 0 &&
	   vm_delta(&a, &b, PP_BULK_FALLBACK_TRYLOCK) == 0,
	   "alloc_pages_bulk_list - no fallback, not partial");
	put_list(pool, &list);
	pp_pool_drain(pool);
}

static void test_repeated(void)
{
	struct pp_list_head list = PP_LIST_HEAD_INIT(list);
	struct owner_map map;
	unsigned long total = 0, dup = 0;

	for (int i = 0; i < 5; i++)
		total += pp_alloc_pages_bulk_list(pool, PP_GFP_KERNEL, 7, &list);
	owner_init(&map, pool);
	for (struct pp_list_head *p = list.next; p != &list; p = p->next)
		dup += !owner_claim(&map, pp_lru_to_page(p), 0);
	owner_fini(&map);
	ok(total == 35 && list_length(&list) == 35 && dup == 0,
	   "alloc_pages_bulk_list - 5 calls of 7 on one list: 35 distinct "
	   "pages (%lu, %lu dup)", list_length(&list), dup);
	put_list(pool, &list);
	pp_pool_drain(pool);
}

static void test_small(void)
{
	struct pp_list_head list = PP_LIST_HEAD_INIT(list);
	struct pp_page *pre = pp_alloc_page(pool, PP_GFP_KERNEL);
	struct pp_vmstat a, b;
	unsigned long ret;

	pp_list_add(&pre->lru, &list);
	pp_pool_vmstat(pool, &a);
	ret = pp_alloc_pages_bulk_list(pool, PP_GFP_KERNEL, 0, &list);
	pp_pool_vmstat(pool, &b);
	ok(ret == 0 && list_length(&list) == 1 && list.next == &pre->lru &&
	   vm_delta(&a, &b, PP_PGALLOC) == 0,
	   "alloc_pages_bulk_list - nr_pages 0 returns 0, list unchanged "
	   "(%lu)", ret);

	pp_pool_vmstat(pool, &a);
	ret = pp_alloc_pages_bulk_list(pool, PP_GFP_KERNEL, 1, &list);
	pp_pool_vmstat(pool, &b);
	ok(ret == 1 && list_length(&list) == 2 && list.prev == &pre->lru,
	   "alloc_pages_bulk_list - nr_pages 1 adds one page (%lu)", ret);
	ok(vm_delta(&a, &b, PP_BULK_FALLBACK_ONE_PAGE) == 1 &&
	   vm_delta(&a, &b, PP_ALLOC_SINGLE_CALLS) == 0 &&
	   vm_delta(&a, &b, PP_PGALLOC) == 1,
	   "alloc_pages_bulk_list - one page goes through the one-page "
	   "fallback, not a user single call (%llu)",
	   (unsigned long long)vm_delta(&a, &b, PP_BULK_FALLBACK_ONE_PAGE));
	put_list(pool, &list);
	pp_pool_drain(pool);
}

/*
 * "A zone below its low watermark + @nr_pages goes to the single-page
 * path": that has to hold for any nr_pages, the sum must not wrap.
 */
static void test_huge_request(void)
{
	struct pp_pool_config cfg;
	struct pp_list_head list = PP_LIST_HEAD_INIT(list);
	struct pp_pool *p;
	struct pp_vmstat a, b;
	unsigned long ret;

	if (!test_backend_is_buddy()) {
		skip(3, "buddy backend only: the zone's low watermark");
		return;
	}
	pp_pool_config_init(&cfg);
	cfg.nr_pages = 512;
	cfg.nr_cpus = 1;
	test_config_wmarks(&cfg, 32, 40, 48);
	p = test_pool_create_config(&cfg);
	pp_pool_vmstat(p, &a);
	ret = pp_alloc_pages_bulk_list(p, PP_GFP_KERNEL, ULONG_MAX, &list);
	pp_pool_vmstat(p, &b);
	ok(ret == 1 && vm_delta(&a, &b, PP_BULK_FALLBACK_WATERMARK) == 1,
	   "alloc_pages_bulk_list - nr_pages ULONG_MAX is below low + "
	   "nr_pages: one page through the single path (%lu)", ret);
	ok(b.nr_free > b.wmark_min,
	   "alloc_pages_bulk_list - a GFP_KERNEL bulk call leaves the zone "
	   "above min (%lu free, min %lu)", b.nr_free, b.wmark_min);
	put_list(p, &list);
	ok(pp_pool_destroy(p) == 0, "pp_pool_destroy - returns 0");
}

int main(void)
{
	struct pp_vmstat st;

	plan_tests(19);
	pool = test_pool_create(NR_PAGES, BATCH, HIGH, 1);

	test_adds();
	test_repeated();
	test_small();

	pp_pool_vmstat(pool, &st);
	ok(test_all_back(&st),
	   "alloc_pages_bulk_list - every page back (free %lu)", st.nr_free);
	ok(pp_pool_destroy(pool) == 0, "pp_pool_destroy - returns 0");

	test_huge_request();
	return exit_status();
}
