/* SPDX-License-Identifier: MIT */
/*
 * Conversions between descriptors, pfns and addresses: pfn = index,
 * address = arena + pfn * 4096, and NULL for anything outside the pool.
 * The same on both backends.
 */
#include <stdalign.h>
#include <stdint.h>

#include <pagepool/pagepool.h>

#include "pp_test.h"
#include "tap.h"

#define NR_PAGES	1000

static void test_layout(void)
{
	ok(sizeof(struct pp_page) == 64,
	   "struct pp_page - descriptor is 64 bytes (%zu)",
	   sizeof(struct pp_page));
	ok(alignof(struct pp_page) == 64,
	   "struct pp_page - descriptor is cache-line aligned (%zu)",
	   alignof(struct pp_page));
	ok(PP_PAGE_SIZE == 4096 && PP_NR_ORDERS == PP_MAX_ORDER + 1,
	   "PP_PAGE_SIZE - 4096 bytes");
}

static void test_round_trips(struct pp_pool *pool)
{
	static const unsigned long pfns[] = { 0, 1, 2, 511, 512, 998, 999 };
	char *base = pp_page_address(pool, pp_pfn_to_page(pool, 0));
	unsigned long bad_pfn = 0, bad_addr = 0, bad_virt = 0, bad_next = 0;

	ok(((uintptr_t)base & (PP_PAGE_SIZE - 1)) == 0,
	   "pp_page_address - the arena is page aligned (%p)", (void *)base);
	for (unsigned int i = 0; i < sizeof(pfns) / sizeof(pfns[0]); i++) {
		unsigned long pfn = pfns[i];
		struct pp_page *page = pp_pfn_to_page(pool, pfn);
		char *addr;

		if (!page || pp_page_to_pfn(pool, page) != pfn) {
			bad_pfn++;
			continue;
		}
		addr = pp_page_address(pool, page);
		bad_addr += addr != base + pfn * PP_PAGE_SIZE;
		bad_virt += pp_virt_to_page(pool, addr) != page ||
			    pp_virt_to_page(pool, addr + 1) != page ||
			    pp_virt_to_page(pool, addr + PP_PAGE_SIZE - 1) != page;
		if (pfn + 1 < NR_PAGES)
			bad_next += pp_pfn_to_page(pool, pfn + 1) != page + 1 ||
				    (char *)pp_page_address(pool, page + 1) -
				    addr != PP_PAGE_SIZE;
	}
	ok(bad_pfn == 0,
	   "pp_pfn_to_page/pp_page_to_pfn - round trip (%lu bad)", bad_pfn);
	ok(bad_addr == 0,
	   "pp_page_address - address is arena + pfn * 4096 (%lu bad)",
	   bad_addr);
	ok(bad_virt == 0,
	   "pp_virt_to_page - any byte of a page maps back to it (%lu bad)",
	   bad_virt);
	ok(bad_next == 0,
	   "pp_pfn_to_page - consecutive pfns: adjacent descriptors, pages "
	   "4096 bytes apart (%lu bad)", bad_next);
}

static void test_allocated(struct pp_pool *pool)
{
	struct pp_page *pages[16] = { NULL };
	unsigned long ret, bad = 0;

	ret = pp_alloc_pages_bulk_array(pool, PP_GFP_KERNEL, 16, pages);
	for (unsigned long i = 0; i < ret; i++) {
		char *addr = pp_page_address(pool, pages[i]);

		/* The whole page is ours to write. */
		memset(addr, (int)i, PP_PAGE_SIZE);
		bad += pp_virt_to_page(pool, addr + 100) != pages[i] ||
		       pp_pfn_to_page(pool, pp_page_to_pfn(pool, pages[i])) !=
		       pages[i];
	}
	ok(ret == 16 && bad == 0,
	   "pp_virt_to_page - allocated pages convert back (%lu bad)", bad);
	put_array(pool, pages, ret);
}

static void test_out_of_range(struct pp_pool *pool)
{
	unsigned long nr = test_pool_pages(NR_PAGES);
	char *base = pp_page_address(pool, pp_pfn_to_page(pool, 0));
	char *last = pp_page_address(pool, pp_pfn_to_page(pool, nr - 1));
	int local;

	ok(pp_pfn_to_page(pool, nr) == NULL &&
	   pp_pfn_to_page(pool, nr + 1) == NULL &&
	   pp_pfn_to_page(pool, ~0UL) == NULL,
	   "pp_pfn_to_page - pfn >= nr_pages returns NULL");
	ok(pp_virt_to_page(pool, last + PP_PAGE_SIZE) == NULL,
	   "pp_virt_to_page - one past the arena returns NULL");
	ok(pp_virt_to_page(pool, base - 1) == NULL,
	   "pp_virt_to_page - one byte before the arena returns NULL");
	ok(pp_virt_to_page(pool, &local) == NULL &&
	   pp_virt_to_page(pool, NULL) == NULL,
	   "pp_virt_to_page - stack and NULL addresses return NULL");
}

int main(void)
{
	struct pp_pool *pool, *other;

	plan_tests(15);
	test_layout();
	pool = test_pool_create(NR_PAGES, 8, 48, 1);
	test_round_trips(pool);
	test_allocated(pool);
	test_out_of_range(pool);

	/* Another pool's addresses do not belong to this one. */
	other = test_pool_create(16, 4, 12, 1);
	ok(pp_virt_to_page(pool, pp_page_address(other,
			   pp_pfn_to_page(other, 0))) == NULL,
	   "pp_virt_to_page - another pool's page returns NULL");
	ok(pp_pool_destroy(other) == 0 && pp_pool_destroy(pool) == 0,
	   "pp_pool_destroy - returns 0");
	return exit_status();
}
