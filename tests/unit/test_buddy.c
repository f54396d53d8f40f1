/* SPDX-License-Identifier: MIT */
/*
 * The buddy lists: the initial shape of the free_area for several pool
 * sizes, a seeded random workload over every API after which all pages
 * come back and merge into the initial shape, and pp_pool_destroy()
 * refusing a pool with pages still out.  Buddy backend only
 * (PP_TEST_BACKEND=jemalloc skips it).
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <pagepool/pagepool.h>

#include "capture.h"
#include "pp_test.h"
#include "tap.h"

static void test_initial_shape(void)
{
	static const struct {
		unsigned long nr_pages;
		unsigned long area[PP_NR_ORDERS];
	} cases[] = {
		{ 1,    { [0] = 1 } },
		{ 512,  { [9] = 1 } },
		{ 1000, { [3] = 1, [5] = 1, [6] = 1, [7] = 1, [8] = 1,
			  [9] = 1 } },
		{ 1025, { [0] = 1, [10] = 1 } },
		{ 4096, { [10] = 4 } },
		{ 6000, { [4] = 1, [5] = 1, [6] = 1, [8] = 1, [9] = 1,
			  [10] = 5 } },
	};

	for (unsigned int i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct pp_pool *pool = test_pool_create(cases[i].nr_pages, 8,
							48, 1);
		struct pp_vmstat st;
		bool same = true;

		pp_pool_vmstat(pool, &st);
		for (unsigned int o = 0; o < PP_NR_ORDERS; o++)
			same &= st.free_area[o] == cases[i].area[o];
		ok(same && st.nr_free == cases[i].nr_pages && st.nr_pcp == 0 &&
		   st.nr_pages == cases[i].nr_pages,
		   "pp_pool_create - %lu pages start as the largest aligned "
		   "blocks", cases[i].nr_pages);
		if (!same)
			for (unsigned int o = 0; o < PP_NR_ORDERS; o++)
				diag("order %u: %lu blocks, want %lu", o,
				     st.free_area[o], cases[i].area[o]);
		pp_pool_destroy(pool);
	}
}

/* --- random workload ----------------------------------------------------- */

struct held {
	struct pp_page *page;
	unsigned int order;
	int refs;
};

struct workload {
	struct pp_pool *pool;
	unsigned long nr_pages;
	struct owner_map map;
	struct held *held;
	unsigned long nr_held;
	unsigned long in_use;		/* pages, 2^order per block */
	uint64_t rng;
	/* Failures, counted; reported once at the end. */
	unsigned long dup, bad_content, bad_ret, bad_zero, bad_counters;
	unsigned long short_ret;	/* ret < leading populated entries */
	unsigned long allocs, frees, checks;
};

static void tag_page(struct workload *w, struct pp_page *page)
{
	unsigned long *p = pp_page_address(w->pool, page);

	p[0] = pp_page_to_pfn(w->pool, page);
	p[PP_PAGE_SIZE / sizeof(*p) - 1] = ~p[0];
}

static bool tag_ok(struct workload *w, struct pp_page *page)
{
	unsigned long *p = pp_page_address(w->pool, page);

	return p[0] == pp_page_to_pfn(w->pool, page) &&
	       p[PP_PAGE_SIZE / sizeof(*p) - 1] == ~p[0];
}

static void took(struct workload *w, struct pp_page *page,
		 unsigned int order, pp_gfp_t gfp)
{
	if (gfp & PP_GFP_ZERO) {
		const unsigned char *p = pp_page_address(w->pool, page);

		for (unsigned long i = 0; i < (PP_PAGE_SIZE << order); i++) {
			if (p[i]) {
				w->bad_zero++;
				break;
			}
		}
	}
	if (!owner_claim(&w->map, page, order))
		w->dup++;
	tag_page(w, page);
	w->held[w->nr_held].page = page;
	w->held[w->nr_held].order = order;
	w->held[w->nr_held].refs = 1;
	w->nr_held++;
	w->in_use += 1UL << order;
	w->allocs++;
}

/*
 * Before a put: if it drops the last reference, check that nobody wrote to
 * the page while we held it (after the put, debug mode poisons it).
 */
static void before_put(struct workload *w, unsigned long i)
{
	if (w->held[i].refs == 1 && !tag_ok(w, w->held[i].page))
		w->bad_content++;
}

/* Drop our count of one reference on held[i]; true when it was the last. */
static bool dropped(struct workload *w, unsigned long i)
{
	struct held *h = &w->held[i];

	if (--h->refs > 0)
		return false;
	owner_release(&w->map, h->page, h->order);
	w->in_use -= 1UL << h->order;
	*h = w->held[--w->nr_held];
	w->frees++;
	return true;
}

static pp_gfp_t random_gfp(struct workload *w)
{
	static const pp_gfp_t gfps[] = {
		PP_GFP_KERNEL, PP_GFP_KERNEL, PP_GFP_ATOMIC, PP_GFP_MEMALLOC,
		PP_GFP_KERNEL | PP_GFP_ZERO,
	};

	return gfps[test_rand(&w->rng) % (sizeof(gfps) / sizeof(gfps[0]))];
}

static void op_array(struct workload *w)
{
	struct pp_page *arr[64], *before[64];
	unsigned long n = 1 + test_rand(&w->rng) % 64, ret, first_hole;
	pp_gfp_t gfp = random_gfp(w);

	/* Holes anywhere, between entries we hold (never freed meanwhile). */
	for (unsigned long i = 0; i < n; i++) {
		arr[i] = NULL;
		if (w->nr_held && test_rand(&w->rng) % 4 == 0)
			arr[i] = w->held[test_rand(&w->rng) %
					 w->nr_held].page;
		before[i] = arr[i];
	}
	ret = pp_alloc_pages_bulk_array(w->pool, gfp, n, arr);
	for (first_hole = 0; first_hole < n && arr[first_hole]; first_hole++)
		;
	/*
	 * Entries [0, ret) populated.  ret below the first hole is counted
	 * apart: test_bulk_fallback.c checks that case exactly.
	 */
	if (ret > first_hole)
		w->bad_ret++;
	else if (ret < first_hole)
		w->short_ret++;
	for (unsigned long i = 0; i < n; i++) {
		if (before[i] && arr[i] != before[i])
			w->bad_ret++;
		else if (!before[i] && arr[i])
			took(w, arr[i], 0, gfp);
	}
}

static void op_list(struct workload *w)
{
	struct pp_list_head list = PP_LIST_HEAD_INIT(list);
	unsigned long n = 1 + test_rand(&w->rng) % 64, ret;
	pp_gfp_t gfp = random_gfp(w);
	struct pp_page *page;

	ret = pp_alloc_pages_bulk_list(w->pool, gfp, n, &list);
	if (ret > n || list_length(&list) != ret)
		w->bad_ret++;
	while ((page = pp_list_pop_page(&list)))
		took(w, page, 0, gfp);
}

static void op_release(struct workload *w)
{
	struct pp_page *arr[48];
	unsigned long idx[48], n = 0, want = test_rand(&w->rng) % 48;

	/* Distinct held blocks, NULLs in between. */
	for (unsigned long i = 0; i < w->nr_held && n < want; i++) {
		if (test_rand(&w->rng) % 3)
			continue;
		if (n < want && test_rand(&w->rng) % 8 == 0) {
			arr[n] = NULL;
			idx[n++] = ~0UL;
		}
		if (n < want) {
			before_put(w, i);
			arr[n] = w->held[i].page;
			idx[n++] = i;
		}
	}
	pp_release_pages(w->pool, arr, n);
	/* Drop from the highest index down: dropped() moves the last one. */
	for (unsigned long k = n; k-- > 0;) {
		unsigned long best = ~0UL, pos = 0;

		for (unsigned long j = 0; j < n; j++)
			if (idx[j] != ~0UL && (best == ~0UL || idx[j] > best)) {
				best = idx[j];
				pos = j;
			}
		if (best == ~0UL)
			break;
		idx[pos] = ~0UL;
		dropped(w, best);
	}
}

static void check_counters(struct workload *w)
{
	struct pp_vmstat st;

	pp_pool_vmstat(w->pool, &st);
	w->checks++;
	if (st.events[PP_PGALLOC] - st.events[PP_PGFREE] != w->in_use ||
	    st.nr_free + st.nr_pcp + w->in_use != w->nr_pages ||
	    owner_count(&w->map) != w->in_use)
		w->bad_counters++;
}

/* One random operation of the workload, then the counters' check. */
static void workload_step(struct workload *w)
{
	unsigned int r = test_rand(&w->rng) % 100;
	struct pp_page *page;
	unsigned int order;
	pp_gfp_t gfp;

	/* Lean towards freeing when most of the pool is out. */
	if (w->in_use > w->nr_pages * 3 / 4 && r < 60)
		r += 40;
	if (r < 20) {
		gfp = random_gfp(w);
		page = pp_alloc_page(w->pool, gfp);
		if (page)
			took(w, page, 0, gfp);
	} else if (r < 30) {
		gfp = random_gfp(w);
		order = 1 + test_rand(&w->rng) % 6;
		page = pp_alloc_pages(w->pool, gfp, order);
		if (page)
			took(w, page, order, gfp);
	} else if (r < 45) {
		op_array(w);
	} else if (r < 55) {
		op_list(w);
	} else if (r < 65) {
		if (w->nr_held) {
			struct held *h = &w->held[test_rand(&w->rng) %
						  w->nr_held];

			pp_get_page(w->pool, h->page);
			h->refs++;
		}
	} else if (r < 90) {
		if (w->nr_held) {
			unsigned long i = test_rand(&w->rng) % w->nr_held;

			before_put(w, i);
			pp_put_page(w->pool, w->held[i].page);
			dropped(w, i);
		}
	} else if (r < 99) {
		op_release(w);
	} else {
		pp_pool_drain(w->pool);
	}
	check_counters(w);
}

/*
 * The workload's verdict: what it counted on the way, and the pool at the
 * end (@st) against the pool after create (@init).
 */
static void workload_report(const struct workload *w, unsigned int nr_ops,
			    const struct pp_vmstat *init,
			    const struct pp_vmstat *st)
{
	unsigned long nr_pages = w->nr_pages;

	diag("%lu pages: %lu blocks allocated, %lu freed, %u ops", nr_pages,
	     w->allocs, w->frees, nr_ops);
	if (w->short_ret)
		diag("%lu array calls returned less than their leading "
		     "populated entries", w->short_ret);
	ok(w->dup == 0, "random workload (%lu pages) - no page handed out "
	   "twice (%lu)", nr_pages, w->dup);
	ok(w->bad_ret == 0,
	   "random workload (%lu pages) - bulk returns: entries [0, ret) "
	   "populated, old entries kept (%lu bad)", nr_pages, w->bad_ret);
	ok(w->bad_content == 0 && w->bad_zero == 0,
	   "random workload (%lu pages) - held pages never overwritten, "
	   "GFP_ZERO pages zero (%lu, %lu bad)", nr_pages, w->bad_content,
	   w->bad_zero);
	ok(w->bad_counters == 0,
	   "random workload (%lu pages) - counters add up after each of %lu "
	   "steps (%lu bad)", nr_pages, w->checks, w->bad_counters);
	ok(st->nr_free == nr_pages && st->nr_pcp == 0 &&
	   st->events[PP_PGALLOC] == st->events[PP_PGFREE],
	   "random workload (%lu pages) - every page back (free %lu, pgalloc "
	   "%llu, pgfree %llu)", nr_pages, st->nr_free,
	   (unsigned long long)st->events[PP_PGALLOC],
	   (unsigned long long)st->events[PP_PGFREE]);
	ok(free_area_equal(init, st),
	   "random workload (%lu pages) - buddies merge back to the initial "
	   "free_area", nr_pages);
	if (!free_area_equal(init, st))
		for (unsigned int o = 0; o < PP_NR_ORDERS; o++)
			diag("order %u: %lu blocks, initially %lu", o,
			     st->free_area[o], init->free_area[o]);
	ok(w->allocs > nr_ops / 4 && w->frees == w->allocs,
	   "random workload (%lu pages) - exercised: %lu allocations",
	   nr_pages, w->allocs);
}

static void run_workload(unsigned long nr_pages, uint64_t seed,
			 unsigned int nr_ops)
{
	struct workload w = { .nr_pages = nr_pages };
	struct pp_vmstat init, st;

	w.rng = seed;
	/* Two pcp lists: frees and allocations move between them. */
	w.pool = test_pool_create(nr_pages, 8, 48, 2);
	owner_init(&w.map, w.pool);
	w.held = calloc(nr_pages, sizeof(*w.held));
	if (!w.held)
		bail_out("calloc: out of memory");
	pp_pool_vmstat(w.pool, &init);

	for (unsigned int op = 0; op < nr_ops; op++)
		workload_step(&w);

	/* Put every reference still held. */
	while (w.nr_held) {
		before_put(&w, w.nr_held - 1);
		pp_put_page(w.pool, w.held[w.nr_held - 1].page);
		dropped(&w, w.nr_held - 1);
	}
	check_counters(&w);
	pp_pool_drain(w.pool);
	pp_pool_vmstat(w.pool, &st);
	workload_report(&w, nr_ops, &init, &st);
	ok(pp_pool_destroy(w.pool) == 0, "pp_pool_destroy - returns 0");
	free(w.held);
	owner_fini(&w.map);
}

/* --- pp_pool_destroy() with pages out ------------------------------------ */

/* Is @word in @text, not as part of a longer alphanumeric token? */
static bool has_word(const char *text, const char *word)
{
	size_t len = strlen(word);

	for (const char *p = strstr(text, word); p; p = strstr(p + 1, word)) {
		bool left = p == text || !isalnum((unsigned char)p[-1]);
		bool right = !isalnum((unsigned char)p[len]);

		if (left && right)
			return true;
	}
	return false;
}

static int cmp_ulong(const void *a, const void *b)
{
	unsigned long x = *(const unsigned long *)a;
	unsigned long y = *(const unsigned long *)b;

	return x < y ? -1 : x > y;
}

static int destroy_cb(void *arg)
{
	return pp_pool_destroy(arg);
}

static void test_destroy_busy(void)
{
	struct pp_pool *pool = test_pool_create(512, 8, 48, 1);
	struct pp_page *page, *pages[10], *block;
	char out[CAPTURE_MAX], pfn[32];
	unsigned long heads[11];
	int ret;
	bool all;

	page = pp_alloc_page(pool, PP_GFP_KERNEL);
	ret = capture_stderr(destroy_cb, pool, out, sizeof(out));
	snprintf(pfn, sizeof(pfn), "0x%lx", pp_page_to_pfn(pool, page));
	ok(ret == -EBUSY, "pp_pool_destroy - a page still out: -EBUSY (%d)",
	   ret);
	ok(has_word(out, "1") && has_word(out, pfn),
	   "pp_pool_destroy - message names the count and pfn %s", pfn);
	if (!has_word(out, pfn))
		diag_text("stderr: ", out);
	pp_put_page(pool, page);

	/* Still usable after -EBUSY; more heads out than it shows. */
	for (int i = 0; i < 10; i++)
		pages[i] = pp_alloc_page(pool, PP_GFP_KERNEL);
	block = pp_alloc_pages(pool, PP_GFP_KERNEL, 2);
	for (int i = 0; i < 10; i++)
		heads[i] = pp_page_to_pfn(pool, pages[i]);
	heads[10] = pp_page_to_pfn(pool, block);
	qsort(heads, 11, sizeof(heads[0]), cmp_ulong);
	ret = capture_stderr(destroy_cb, pool, out, sizeof(out));
	/*
	 * The whole line: the pages out (a block counts its 4), and the
	 * first eight heads in pfn order, then "..." for the three more.
	 */
	{
		char want[CAPTURE_MAX];
		int len = snprintf(want, sizeof(want), "pagepool: destroy: 14 "
				   "of 512 pages still in use (first pfns:");

		for (int i = 0; i < 8; i++)
			len += snprintf(want + len, sizeof(want) - (size_t)len,
					" 0x%lx", heads[i]);
		snprintf(want + len, sizeof(want) - (size_t)len, " ...)\n");
		all = !strcmp(out, want);
		ok(ret == -EBUSY && all,
		   "pp_pool_destroy - 10 pages and an order-2 block out: "
		   "count 14, the eight lowest heads named, then \"...\"");
		if (!all) {
			diag_text("stderr: ", out);
			diag_text("wanted: ", want);
		}
	}
	for (int i = 0; i < 10; i++)
		pp_put_page(pool, pages[i]);
	pp_put_page(pool, block);
	ret = capture_stderr(destroy_cb, pool, out, sizeof(out));
	ok(ret == 0 && out[0] == '\0',
	   "pp_pool_destroy - after the puts: 0, nothing printed (%d)", ret);
	ok(pp_pool_destroy(NULL) == 0, "pp_pool_destroy - NULL is a no-op");
}

int main(void)
{
	uint64_t seed = test_seed(20260130);

	plan_tests(6 + 2 * 8 + 5);
	if (!test_backend_is_buddy()) {
		skip(6 + 2 * 8 + 5, "buddy backend only: %s",
		     "the buddy lists");
		return exit_status();
	}
	test_initial_shape();
	run_workload(1024, seed, 20000);
	run_workload(1000, seed + 1, 20000);
	test_destroy_busy();
	return exit_status();
}
