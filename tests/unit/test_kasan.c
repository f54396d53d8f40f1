/* SPDX-License-Identifier: MIT */
/*
 * The KASAN analogue of the ASan build: free pages of the buddy backend
 * (and those a backend plugin holds) are poisoned, pages handed out are
 * not, so a read or a write of a page after it was freed is reported by
 * ASan where it happens, whichever path freed it (put fast path, batched
 * release, a block to the buddy lists) and whichever pcp implementation
 * the pool runs, and the library's line after ASan's report names the
 * page's pfn (ASan knows no pages).  unit/plugin/test_kasan.plugin runs
 * it on examples/backend-lifo.  A control child uses
 * every hand-out path (single page, both bulk APIs, GFP_ZERO, a block)
 * and touches every page it was given: no report.
 *
 * Outside the ASan build, and on the jemalloc backend (whose free pages
 * are jemalloc's memory), every check is skipped, saying why.
 */
#include <config.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <pagepool/pagepool.h>

#include "capture.h"
#include "pp_test.h"
#include "tap.h"

#define NR_PAGES	1024
#define NR_CASES	11	/* per pcp implementation */

struct kasan_case {
	struct pp_pool *pool;
	unsigned int order;
};

static struct pp_pool *kasan_pool(enum pp_pcp_impl impl)
{
	struct pp_pool_config cfg;
	struct pp_pool *pool;

	test_config_init(&cfg);
	cfg.nr_pages = NR_PAGES;
	cfg.pcp_batch = 8;
	cfg.pcp_high = 48;
	cfg.wmark_min = 0;
	cfg.wmark_low = 0;
	cfg.wmark_high = 0;
	cfg.debug = false;
	cfg.pcp_impl = impl;
	pool = pp_pool_create(&cfg);
	if (!pool)
		bail_out("pp_pool_create(%s): %s", pp_pcp_impl_name(impl),
			 strerror(errno));
	return pool;
}

/* Keep the compiler from deleting the access under test. */
static volatile unsigned char sink;

/*
 * The pfn the child is about to touch, for expect_report() to find in the
 * library's line after ASan's report.
 */
static void say_pfn(struct pp_pool *pool, const struct pp_page *page,
		    unsigned long nr)
{
	fprintf(stderr, "kasan-test: pfn 0x%lx\n",
		pp_page_to_pfn(pool, page) + nr);
}

static unsigned char *alloc_addr(struct pp_pool *pool, struct pp_page **out,
				 unsigned int order)
{
	struct pp_page *page = pp_alloc_pages(pool, PP_GFP_KERNEL, order);

	if (!page)
		_exit(5);
	*out = page;
	return pp_page_address(pool, page);
}

static void child_read_after_put(void *arg)
{
	struct kasan_case *c = arg;
	struct pp_page *page;
	unsigned char *addr = alloc_addr(c->pool, &page, 0);

	addr[100] = 1;
	pp_put_page(c->pool, page);
	say_pfn(c->pool, page, 0);
	sink = addr[100];
}

static void child_write_after_put(void *arg)
{
	struct kasan_case *c = arg;
	struct pp_page *page;
	unsigned char *addr = alloc_addr(c->pool, &page, 0);

	pp_put_page(c->pool, page);
	say_pfn(c->pool, page, 0);
	addr[PP_PAGE_SIZE - 1] = 2;
}

static void child_read_after_release(void *arg)
{
	struct kasan_case *c = arg;
	struct pp_page *arr[40] = { NULL };
	unsigned long n = pp_alloc_pages_bulk_array(c->pool, PP_GFP_KERNEL,
						    40, arr);
	unsigned char *addr;

	if (n != 40)
		_exit(5);
	addr = pp_page_address(c->pool, arr[33]);
	say_pfn(c->pool, arr[33], 0);
	pp_release_pages(c->pool, arr, n);
	sink = addr[8];
}

/* A page inside a block, the block back on the buddy lists. */
static void child_write_after_block_put(void *arg)
{
	struct kasan_case *c = arg;
	struct pp_page *page;
	unsigned char *addr = alloc_addr(c->pool, &page, c->order);

	pp_put_page(c->pool, page);
	say_pfn(c->pool, page, 3);
	addr[3 * PP_PAGE_SIZE + 16] = 3;
}

/* A page drained from the pcp list to the buddy lists stays poisoned. */
static void child_read_after_drain(void *arg)
{
	struct kasan_case *c = arg;
	struct pp_page *page;
	unsigned char *addr = alloc_addr(c->pool, &page, 0);

	pp_put_page(c->pool, page);
	pp_pool_drain(c->pool);
	say_pfn(c->pool, page, 0);
	sink = addr[0];
}

/* Every hand-out path, every page touched: nothing to report. */
static void child_clean(void *arg)
{
	struct kasan_case *c = arg;
	struct pp_list_head list = PP_LIST_HEAD_INIT(list);
	struct pp_page *arr[64] = { NULL }, *page;

	for (int round = 0; round < 30; round++) {
		unsigned long n = pp_alloc_pages_bulk_array(c->pool,
				round & 1 ? PP_GFP_ZERO : PP_GFP_KERNEL,
				64, arr);

		for (unsigned long i = 0; i < n; i++)
			memset(pp_page_address(c->pool, arr[i]), round,
			       PP_PAGE_SIZE);
		pp_alloc_pages_bulk_list(c->pool, PP_GFP_KERNEL, 50, &list);
		for (struct pp_list_head *p = list.next; p != &list;
		     p = p->next)
			memset(pp_page_address(c->pool, pp_lru_to_page(p)),
			       round, PP_PAGE_SIZE);
		page = pp_alloc_page(c->pool, round & 1 ? PP_GFP_ZERO :
						       PP_GFP_KERNEL);
		if (page) {
			memset(pp_page_address(c->pool, page), 1,
			       PP_PAGE_SIZE);
			pp_put_page(c->pool, page);
		}
		page = pp_alloc_pages(c->pool, PP_GFP_ZERO, 3);
		if (page) {
			memset(pp_page_address(c->pool, page), 2,
			       PP_PAGE_SIZE << 3);
			pp_put_page(c->pool, page);
		}
		pp_release_pages(c->pool, arr, n);
		memset(arr, 0, sizeof(arr));
		put_list(c->pool, &list);
		if (round % 7 == 0)
			pp_pool_drain(c->pool);
	}
	if (pp_pool_destroy(c->pool))
		_exit(3);
}

static void expect_report(const char *impl, const char *what,
			  void (*fn)(void *), struct kasan_case *c,
			  const char *access)
{
	struct child_result res;
	char how[32], named[64];
	const char *said;
	unsigned long pfn;
	bool seen;

	if (!run_in_child(fn, c, 20, &res))
		bail_out("fork: %s", strerror(errno));
	seen = !child_exited_ok(&res) &&
	       strstr(res.output, "AddressSanitizer: use-after-poison") &&
	       strstr(res.output, access);
	ok(seen, "kasan (%s) - %s: ASan reports a %s (%s)", impl, what,
	   access, child_how(&res, how, sizeof(how)));
	if (!seen)
		diag_text("child stderr: ", res.output);
	/* ASan names no page: the library's line after it does. */
	said = strstr(res.output, "kasan-test: pfn 0x");
	seen = said && sscanf(said, "kasan-test: pfn 0x%lx", &pfn) == 1;
	if (seen) {
		snprintf(named, sizeof(named), " of pfn 0x%lx of pool ", pfn);
		said = strstr(res.output, "pagepool: KASAN: 0x");
		seen = said && strstr(said, named) &&
		       strstr(said, ": an access to a free page");
	}
	ok(seen, "kasan (%s) - %s: the report names the page, pfn 0x%lx",
	   impl, what, seen ? pfn : 0UL);
	if (!seen)
		diag_text("child stderr: ", res.output);
}

static void test_impl(enum pp_pcp_impl impl)
{
	const char *name = pp_pcp_impl_name(impl);
	struct kasan_case c = { .pool = kasan_pool(impl), .order = 3 };
	struct child_result res;
	char how[32];

	diag("pool runs the %s pcp lists",
	     pp_pcp_impl_name(pp_pool_pcp_impl(c.pool)));
	expect_report(name, "read after pp_put_page", child_read_after_put,
		      &c, "READ of size 1");
	expect_report(name, "write after pp_put_page", child_write_after_put,
		      &c, "WRITE of size 1");
	expect_report(name, "read after pp_release_pages",
		      child_read_after_release, &c, "READ of size 1");
	expect_report(name, "write into an order-3 block after its put",
		      child_write_after_block_put, &c, "WRITE of size 1");
	expect_report(name, "read of a page drained to the buddy lists",
		      child_read_after_drain, &c, "READ of size 1");

	if (!run_in_child(child_clean, &c, 20, &res))
		bail_out("fork: %s", strerror(errno));
	ok(child_exited_ok(&res) && !strstr(res.output, "AddressSanitizer"),
	   "kasan (%s) - every hand-out path unpoisons what it hands out "
	   "(%s)", name, child_how(&res, how, sizeof(how)));
	if (!child_exited_ok(&res))
		diag_text("child stderr: ", res.output);
	if (pp_pool_destroy(c.pool))
		diag("pool not empty in the parent");
}

int main(void)
{
	plan_tests(2 * NR_CASES);
	if (!test_asan_build)
		skip(2 * NR_CASES, "not the ASan build: free pages are poisoned only "
		     "with ./configure --enable-asan");
	else if (test_backend() == PP_BACKEND_JEMALLOC)
		skip(2 * NR_CASES, "not on the jemalloc backend: the pages "
		     "jemalloc holds are its memory, not poisoned");
	else {
		test_impl(PP_PCP_RSEQ);
		test_impl(PP_PCP_LOCK);
	}
	return exit_status();
}
