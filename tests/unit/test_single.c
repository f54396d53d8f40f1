/* SPDX-License-Identifier: MIT */
/*
 * pp_alloc_page() / pp_alloc_pages(): blocks of every order, aligned and
 * accounted; out-of-range orders; the watermark ladder of GFP_KERNEL,
 * GFP_ATOMIC and GFP_MEMALLOC; GFP_ZERO on every allocation path.
 * Runs on both backends; where blocks come from and go back to, the
 * fragmentation case and the watermark ladder are the buddy allocator's.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <pagepool/backend.h>
#include <pagepool/pagepool.h>

#include "pp_test.h"
#include "tap.h"

static bool page_is_zero(struct pp_pool *pool, struct pp_page *page,
			 unsigned int order)
{
	const unsigned char *p = pp_page_address(pool, page);

	for (unsigned long i = 0; i < (PP_PAGE_SIZE << order); i++)
		if (p[i])
			return false;
	return true;
}

static void test_orders(void)
{
	struct pp_pool *pool = test_pool_create(4096, 8, 48, 1);
	struct pp_page *blocks[PP_NR_ORDERS];
	struct pp_vmstat init, a, b;
	struct owner_map map;
	unsigned long bad_free = 0, bad_buddy = 0, disjoint = 0;
	unsigned int o;

	pp_pool_vmstat(pool, &init);
	owner_init(&map, pool);
	for (o = 0; o <= PP_MAX_ORDER; o++) {
		unsigned long pfn;
		char *addr;

		pp_pool_vmstat(pool, &a);
		blocks[o] = pp_alloc_pages(pool, PP_GFP_KERNEL, o);
		pp_pool_vmstat(pool, &b);
		if (!blocks[o]) {
			ok(0, "pp_alloc_pages - order %u block", o);
			skip(1, "no order-%u block", o);
			continue;
		}
		pfn = pp_page_to_pfn(pool, blocks[o]);
		/* The whole block is usable memory. */
		addr = pp_page_address(pool, blocks[o]);
		memset(addr, 0x5a, PP_PAGE_SIZE << o);
		disjoint += owner_claim(&map, blocks[o], o);
		ok((pfn & ((1UL << o) - 1)) == 0 &&
		   pp_page_count(blocks[o]) == 1 &&
		   vm_delta(&a, &b, PP_PGALLOC) == (1UL << o) &&
		   vm_delta(&a, &b, PP_ALLOC_SINGLE_CALLS) == 1,
		   "pp_alloc_pages - order %u: pfn 0x%lx aligned to %lu, "
		   "pgalloc +%llu", o, pfn, 1UL << o,
		   (unsigned long long)vm_delta(&a, &b, PP_PGALLOC));
		ok_buddy(o == 0 || (a.nr_free - b.nr_free == (1UL << o) &&
				    a.nr_pcp == b.nr_pcp),
			 "pp_alloc_pages - order %u from the buddy lists, "
			 "not a pcp list", o);
	}
	ok(disjoint == PP_NR_ORDERS,
	   "pp_alloc_pages - blocks of all orders disjoint (%lu)", disjoint);
	owner_fini(&map);

	pp_pool_vmstat(pool, &a);
	ok(pp_alloc_pages(pool, PP_GFP_KERNEL, PP_MAX_ORDER + 1) == NULL &&
	   pp_alloc_pages(pool, PP_GFP_MEMALLOC, 100) == NULL,
	   "pp_alloc_pages - order > PP_MAX_ORDER returns NULL");
	pp_pool_vmstat(pool, &b);
	ok(vm_delta(&a, &b, PP_ALLOC_FAIL) == 2 &&
	   vm_delta(&a, &b, PP_PGALLOC) == 0 && b.nr_free == a.nr_free,
	   "pp_alloc_pages - a bad order allocates nothing, counts alloc_fail "
	   "(%llu)", (unsigned long long)vm_delta(&a, &b, PP_ALLOC_FAIL));

	for (o = 1; o <= PP_MAX_ORDER; o++) {
		if (!blocks[o])
			continue;
		pp_pool_vmstat(pool, &a);
		pp_put_page(pool, blocks[o]);
		pp_pool_vmstat(pool, &b);
		bad_free += vm_delta(&a, &b, PP_PGFREE) != (1UL << o);
		bad_buddy += b.nr_free - a.nr_free != (1UL << o) ||
			     b.nr_pcp != a.nr_pcp;
	}
	ok(bad_free == 0, "pp_put_page - order > 0 blocks freed, pgfree "
	   "+2^order (%lu bad)", bad_free);
	ok_buddy(bad_buddy == 0, "pp_put_page - order > 0 blocks go straight "
		 "back to the buddy lists (%lu bad)", bad_buddy);
	if (blocks[0])
		pp_put_page(pool, blocks[0]);
	pp_pool_drain(pool);
	pp_pool_vmstat(pool, &b);
	ok_buddy(b.nr_free == 4096 && free_area_equal(&init, &b),
	   "pp_alloc_pages - blocks merge back into %lu order-10 blocks "
	   "(%lu)", init.free_area[PP_MAX_ORDER],
	   b.free_area[PP_MAX_ORDER]);
	ok(pp_pool_destroy(pool) == 0, "pp_pool_destroy - returns 0");
}

/* Free pages but no block of the order: the allocation fails. */
static void test_fragmented(void)
{
	struct pp_pool *pool;
	struct pp_page *halves[8], *page;
	struct pp_vmstat a, b;
	unsigned int got = 0;

	if (!test_backend_is_buddy()) {
		skip(4, "buddy backend only: fragmenting the buddy lists");
		return;
	}
	pool = test_pool_create(4096, 8, 48, 1);

	for (int i = 0; i < 8; i++) {
		halves[i] = pp_alloc_pages(pool, PP_GFP_KERNEL, 9);
		got += halves[i] != NULL;
	}
	ok(got == 8, "pp_alloc_pages - eight order-9 blocks fill 4096 pages "
	   "(%u)", got);
	/* Free the lower half of each order-10 block. */
	for (int i = 0; i < 8; i++) {
		if (halves[i] &&
		    pp_page_to_pfn(pool, halves[i]) % 1024 == 0) {
			pp_put_page(pool, halves[i]);
			halves[i] = NULL;
		}
	}
	pp_pool_vmstat(pool, &a);
	page = pp_alloc_pages(pool, PP_GFP_MEMALLOC, PP_MAX_ORDER);
	pp_pool_vmstat(pool, &b);
	ok(a.nr_free == 2048 && page == NULL &&
	   vm_delta(&a, &b, PP_ALLOC_FAIL) == 1,
	   "pp_alloc_pages - 2048 free pages, no order-10 block: order 10 "
	   "fails (%lu free)", a.nr_free);
	page = pp_alloc_pages(pool, PP_GFP_KERNEL, 9);
	ok(page != NULL, "pp_alloc_pages - order 9 still succeeds");
	if (page)
		pp_put_page(pool, page);
	for (int i = 0; i < 8; i++)
		if (halves[i])
			pp_put_page(pool, halves[i]);
	ok(pp_pool_destroy(pool) == 0, "pp_pool_destroy - returns 0");
}

/*
 * The watermark ladder, on 64 pages with min 8, low 16, high 24 and
 * batch 1 / high 1 so that no page ever waits on a pcp list: GFP_KERNEL
 * goes down to min, GFP_ATOMIC to min - min/2 - (min/2)/4 = 3,
 * GFP_MEMALLOC to nothing.
 */
static void test_watermarks(void)
{
	struct pp_pool_config cfg;
	struct pp_pool *pool;
	struct pp_page *pages[64];
	struct pp_vmstat a, b;
	unsigned int n = 0, kernel, atomic, memalloc;

	if (!test_backend_is_buddy()) {
		skip(8, "buddy backend only: the zone's watermark ladder");
		return;
	}
	test_pool_config(&cfg, 64, 1, 1, 1);
	test_config_wmarks(&cfg, 8, 16, 24);
	pool = test_pool_create_config(&cfg);

	pp_pool_vmstat(pool, &a);
	while (n < 64 && (pages[n] = pp_alloc_page(pool, PP_GFP_KERNEL)))
		n++;
	pp_pool_vmstat(pool, &b);
	kernel = n;
	ok(kernel == 56 && b.nr_free == 8,
	   "pp_alloc_page - GFP_KERNEL stops at the min watermark: %u pages, "
	   "%lu left", kernel, b.nr_free);
	ok_vm_deltas(ok, &a, &b, PP_ALLOC_SLOWPATH, 9, PP_ALLOC_FAIL, 1,
		     "pp_alloc_page - the 8 allocations at or below low and the "
		     "failure take the slow path (%llu, %llu fail)");

	while (n < 64 && (pages[n] = pp_alloc_page(pool, PP_GFP_ATOMIC)))
		n++;
	atomic = n - kernel;
	ok(atomic == 5, "pp_alloc_page - GFP_ATOMIC dips to 3 free pages (%u)",
	   atomic);
	while (n < 64 && (pages[n] = pp_alloc_page(pool, PP_GFP_MEMALLOC)))
		n++;
	memalloc = n - kernel - atomic;
	pp_pool_vmstat(pool, &b);
	ok(memalloc == 3 && b.nr_free == 0,
	   "pp_alloc_page - GFP_MEMALLOC takes the last pages (%u)", memalloc);
	ok(pp_alloc_page(pool, PP_GFP_MEMALLOC) == NULL,
	   "pp_alloc_page - GFP_MEMALLOC fails on an empty zone");
	ok(pages_distinct(pool, pages, n),
	   "pp_alloc_page - %u distinct pages", n);

	pp_pool_vmstat(pool, &a);
	for (unsigned int i = 0; i < n; i++)
		pp_put_page(pool, pages[i]);
	pp_pool_vmstat(pool, &b);
	ok(b.nr_free == 64 && b.nr_pcp == 0 &&
	   vm_delta(&a, &b, PP_PCP_DRAIN) == n,
	   "pp_put_page - with high 1 every free drains at once (%llu "
	   "drains)", (unsigned long long)vm_delta(&a, &b, PP_PCP_DRAIN));
	ok(pp_pool_destroy(pool) == 0, "pp_pool_destroy - returns 0");
}

/*
 * The low watermark is checked before the pcp list is looked at, also
 * when a page waits there: on 64 pages with min 8, low 16, high 24 and
 * batch 8, a page comes straight off the list while the buddy lists hold
 * more than low, and through the slow path (against min) once they hold
 * low, which still hands out the list's next page.
 */
static void test_low_with_pcp_pages(void)
{
	struct pp_pool_config cfg;
	struct pp_pool *pool;
	struct pp_page *first, *big, *mid, *above, *at;
	struct pp_vmstat a, b;

	if (!test_backend_is_buddy()) {
		skip(4, "buddy backend only: the zone's low watermark");
		return;
	}
	test_pool_config(&cfg, 64, 8, 48, 1);
	test_config_wmarks(&cfg, 8, 16, 24);
	pool = test_pool_create_config(&cfg);

	/* A refill of 8 (7 left on the list), then 32 + 8 pages as blocks. */
	first = pp_alloc_page(pool, PP_GFP_KERNEL);
	big = pp_alloc_pages(pool, PP_GFP_KERNEL, 5);
	above = test_alloc_page_vmstat(pool, &a, &b);
	ok(first && big && above && b.nr_free == 24 && b.nr_pcp == 6 &&
	   vm_delta(&a, &b, PP_ALLOC_SLOWPATH) == 0 &&
	   vm_delta(&a, &b, PP_PCP_REFILL) == 0,
	   "pp_alloc_page - buddy 24 above low 16: off the pcp list, no slow "
	   "path (pcp %lu, %llu slow)", b.nr_pcp,
	   (unsigned long long)vm_delta(&a, &b, PP_ALLOC_SLOWPATH));
	mid = pp_alloc_pages(pool, PP_GFP_KERNEL, 3);
	at = test_alloc_page_vmstat(pool, &a, &b);
	ok(mid && at && b.nr_free == 16 && b.nr_pcp == 5 &&
	   vm_delta(&a, &b, PP_PCP_REFILL) == 0 &&
	   vm_delta(&a, &b, PP_ALLOC_FAIL) == 0,
	   "pp_alloc_page - buddy 16 at low: the pcp list's next page (pcp "
	   "%lu, buddy %lu)", b.nr_pcp, b.nr_free);
	ok(vm_delta(&a, &b, PP_ALLOC_SLOWPATH) == 1,
	   "pp_alloc_page - buddy at low with pages on the pcp list: the slow "
	   "path (%llu)",
	   (unsigned long long)vm_delta(&a, &b, PP_ALLOC_SLOWPATH));
	pp_put_page(pool, at);
	pp_put_page(pool, mid);
	pp_put_page(pool, above);
	pp_put_page(pool, big);
	pp_put_page(pool, first);
	pp_pool_drain(pool);
	ok(pp_pool_destroy(pool) == 0, "pp_pool_destroy - returns 0");
}

static void test_gfp_zero(void)
{
	struct pp_pool *pool = test_pool_create(64, 8, 48, 1);
	struct pp_list_head list = PP_LIST_HEAD_INIT(list);
	struct pp_page *pages[64] = { NULL }, *page;
	unsigned long n = 0, zero = 0, ret;

	/* Dirty every page of the pool, then free them all. */
	while (n < 64 && (pages[n] = pp_alloc_page(pool, PP_GFP_KERNEL)))
		memset(pp_page_address(pool, pages[n++]), 0x5a, PP_PAGE_SIZE);
	ok(n == 64, "pp_alloc_page - the whole 64-page pool dirtied (%lu)", n);
	pp_release_pages(pool, pages, n);
	memset(pages, 0, sizeof(pages));

	page = pp_alloc_page(pool, PP_GFP_KERNEL | PP_GFP_ZERO);
	ok(page && page_is_zero(pool, page, 0),
	   "pp_alloc_page - GFP_ZERO returns a zeroed page");
	if (page)
		pp_put_page(pool, page);
	page = pp_alloc_pages(pool, PP_GFP_KERNEL | PP_GFP_ZERO, 2);
	ok(page && page_is_zero(pool, page, 2),
	   "pp_alloc_pages - GFP_ZERO zeroes all 4 pages of an order-2 block");
	if (page)
		pp_put_page(pool, page);

	ret = pp_alloc_pages_bulk_array(pool, PP_GFP_KERNEL | PP_GFP_ZERO, 16,
					pages);
	for (unsigned long i = 0; i < ret; i++)
		zero += page_is_zero(pool, pages[i], 0);
	ok(ret == 16 && zero == 16,
	   "alloc_pages_bulk_array - GFP_ZERO zeroes every page (%lu of %lu)",
	   zero, ret);
	put_array(pool, pages, 16);

	zero = 0;
	ret = pp_alloc_pages_bulk_list(pool, PP_GFP_KERNEL | PP_GFP_ZERO, 16,
				       &list);
	for (struct pp_list_head *p = list.next; p != &list; p = p->next)
		zero += page_is_zero(pool, pp_lru_to_page(p), 0);
	ok(ret == 16 && zero == 16,
	   "alloc_pages_bulk_list - GFP_ZERO zeroes every page (%lu of %lu)",
	   zero, ret);
	put_list(pool, &list);
	ok(pp_pool_destroy(pool) == 0, "pp_pool_destroy - returns 0");
}

static void test_call_counters(void)
{
	struct pp_pool *pool = test_pool_create(256, 8, 48, 1);
	struct pp_page *p1, *p2, *p3;
	struct pp_vmstat a, b;

	pp_pool_vmstat(pool, &a);
	p1 = pp_alloc_page(pool, PP_GFP_KERNEL);
	p2 = pp_alloc_pages(pool, PP_GFP_KERNEL, 0);
	p3 = pp_alloc_pages(pool, PP_GFP_KERNEL, 3);
	pp_pool_vmstat(pool, &b);
	ok(p1 && p2 && p3 && vm_delta(&a, &b, PP_ALLOC_SINGLE_CALLS) == 3 &&
	   vm_delta(&a, &b, PP_PGALLOC) == 10 &&
	   vm_delta(&a, &b, PP_ALLOC_BULK_ARRAY_CALLS) == 0 &&
	   vm_delta(&a, &b, PP_ALLOC_BULK_LIST_CALLS) == 0,
	   "pp_alloc_page/pp_alloc_pages - 3 calls counted, pgalloc 1 + 1 + 8 "
	   "(%llu)", (unsigned long long)vm_delta(&a, &b, PP_PGALLOC));
	pp_put_page(pool, p1);
	pp_put_page(pool, p2);
	pp_put_page(pool, p3);
	ok(pp_pool_destroy(pool) == 0, "pp_pool_destroy - returns 0");
}

/*
 * <pagepool/backend.h>'s pp_zone_take_pages() on the plugin backend (the
 * run as unit/plugin/test_single.plugin): a failure says why in errno,
 * EINVAL for an order above PP_MAX_ORDER, ENOMEM for an empty zone.
 */
static void test_zone_take_errno(void)
{
	struct pp_pool *pool;
	struct pp_page **taken, *page;
	struct pp_vmstat st;
	unsigned long n = 0;
	int err;

	if (test_backend() != PP_BACKEND_PLUGIN) {
		skip(3, "pp_zone_take_pages() is for plugin pools: the run "
		     "as unit/plugin/test_single.plugin checks it");
		return;
	}
	pool = test_pool_create(1024, 8, 48, 1);
	pp_pool_vmstat(pool, &st);
	errno = 0;
	page = pp_zone_take_pages(pool, PP_MAX_ORDER + 1);
	err = errno;
	ok(!page && err == EINVAL,
	   "pp_zone_take_pages - order %d (above PP_MAX_ORDER): NULL, errno "
	   "EINVAL (%s)", PP_MAX_ORDER + 1, strerror(err));
	/* No watermark applies: every page of the zone, then none. */
	taken = calloc(st.nr_pages + 1, sizeof(*taken));
	if (!taken)
		bail_out("out of memory");
	errno = 0;
	while (n <= st.nr_pages && (taken[n] = pp_zone_take_pages(pool, 0)))
		n++;
	err = errno;
	ok(n > 0 && n <= st.nr_pages && err == ENOMEM,
	   "pp_zone_take_pages - the zone emptied after %lu pages: NULL, "
	   "errno ENOMEM (%s)", n, strerror(err));
	errno = 0;
	while (n)
		pp_zone_give_pages(pool, taken[--n], 1);
	free(taken);
	ok(errno == 0 && !pp_pool_destroy(pool),
	   "pp_zone_give_pages - every page back, errno untouched");
}

int main(void)
{
	plan_tests(56);
	test_orders();
	test_fragmented();
	test_watermarks();
	test_low_with_pcp_pages();
	test_gfp_zero();
	test_call_counters();
	test_zone_take_errno();
	return exit_status();
}
