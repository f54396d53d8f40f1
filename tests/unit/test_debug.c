/* SPDX-License-Identifier: MIT */
/*
 * Debug checks, as death tests: each misuse runs in a forked child whose
 * stderr is captured; the child must die of SIGABRT with a report naming
 * the call, the pfn (or the bad pointer) and the page state.  A control
 * child runs a correct sequence with the checks on and must exit cleanly.
 * Runs on both backends: a freed page's state is "pcp" (or "buddy") with
 * the buddy allocator, "backend" with jemalloc; the use-after-free cases
 * that depend on where the buddy allocator puts a freed page (merged
 * into a block, back out of the pcp list by a bulk call) are its own.
 */
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <config.h>

#ifdef PP_CONFIG_ASAN
#include <sanitizer/asan_interface.h>
#endif

#include <pagepool/pagepool.h>

#include "capture.h"
#include "pp_test.h"
#include "tap.h"

#define NR_PAGES	512

struct scenario {
	struct pp_pool *pool;
	struct pp_pool *other;
	struct pp_page *page;
	unsigned long pfn;
	const void *ptr;
};

static struct pp_pool *debug_pool(bool debug)
{
	struct pp_pool_config cfg;

	test_pool_config(&cfg, NR_PAGES, 8, 48, 1);
	cfg.debug = debug;
	return test_pool_create_config(&cfg);
}

/* --- what the children do ------------------------------------------------ */

/*
 * A write to a freed page that only the debug poison check is to see: in
 * the ASan build the page is poisoned and ASan would report the write
 * first (test_kasan() checks that), so the page is unpoisoned for it.
 */
static void write_freed(unsigned char *page_addr, size_t off,
			unsigned char v)
{
#ifdef PP_CONFIG_ASAN
	ASAN_UNPOISON_MEMORY_REGION(page_addr, PP_PAGE_SIZE);
#endif
	page_addr[off] = v;
}

static void child_double_put(void *arg)
{
	struct scenario *s = arg;

	pp_put_page(s->pool, s->page);
	pp_put_page(s->pool, s->page);
}

/* A put of the third page of the order-2 block at s->page. */
static void child_put_tail(void *arg)
{
	struct scenario *s = arg;

	pp_put_page(s->pool, s->page + 2);
}

static void child_double_release(void *arg)
{
	struct scenario *s = arg;
	struct pp_page *arr[2] = { s->page, NULL };

	pp_release_pages(s->pool, arr, 2);
	pp_release_pages(s->pool, arr, 2);
}

static void child_get_freed(void *arg)
{
	struct scenario *s = arg;

	pp_put_page(s->pool, s->page);
	pp_get_page(s->pool, s->page);
}

/* Write to a freed page, then allocate until it comes back. */
static void child_use_after_free(void *arg)
{
	struct scenario *s = arg;
	unsigned char *addr = pp_page_address(s->pool, s->page);

	pp_put_page(s->pool, s->page);
	write_freed(addr, 0x123, 0x11);
	for (int i = 0; i < NR_PAGES; i++)
		if (pp_alloc_page(s->pool, PP_GFP_KERNEL) == s->page)
			break;
}

static void child_use_after_free_bulk(void *arg)
{
	struct scenario *s = arg;
	unsigned char *addr = pp_page_address(s->pool, s->page);
	struct pp_page *arr[16];

	pp_put_page(s->pool, s->page);
	write_freed(addr, PP_PAGE_SIZE - 1, 0);
	for (int i = 0; i < NR_PAGES / 16; i++) {
		memset(arr, 0, sizeof(arr));
		pp_alloc_pages_bulk_array(s->pool, PP_GFP_KERNEL, 16, arr);
	}
}

/* The freed page merges into a block; an order-9 allocation checks it. */
static void child_use_after_free_block(void *arg)
{
	struct scenario *s = arg;
	unsigned char *addr = pp_page_address(s->pool, s->page);

	pp_put_page(s->pool, s->page);
	pp_pool_drain(s->pool);
	write_freed(addr, 0x40, 0x77);
	pp_alloc_pages(s->pool, PP_GFP_KERNEL, 9);
}

static void child_put_foreign(void *arg)
{
	struct scenario *s = arg;

	pp_put_page(s->pool, (struct pp_page *)s->ptr);
}

static void child_get_foreign(void *arg)
{
	struct scenario *s = arg;

	pp_get_page(s->pool, (struct pp_page *)s->ptr);
}

static void child_release_foreign(void *arg)
{
	struct scenario *s = arg;
	struct pp_page *arr[3] = { s->page, (struct pp_page *)s->ptr, NULL };

	pp_get_page(s->pool, s->page);
	pp_release_pages(s->pool, arr, 3);
}

static void child_pfn_foreign(void *arg)
{
	struct scenario *s = arg;

	printf("%lu\n", pp_page_to_pfn(s->pool, (struct pp_page *)s->ptr));
}

static void child_address_foreign(void *arg)
{
	struct scenario *s = arg;

	printf("%p\n", pp_page_address(s->pool, (struct pp_page *)s->ptr));
}

/* 2^31 - 1 references, then one more get. */
static void child_get_overflow(void *arg)
{
	struct scenario *s = arg;

	/* Two gets short of the limit: 2^31 real gets take too long. */
	__atomic_store_n(&s->page->refcount, INT_MAX - 2, __ATOMIC_RELAXED);
	for (int i = 0; i < 4; i++)
		pp_get_page(s->pool, s->page);
}

/* Correct use of every API with the checks on: must not abort. */
static void child_clean(void *arg)
{
	struct scenario *s = arg;
	struct pp_list_head list = PP_LIST_HEAD_INIT(list);
	struct pp_page *arr[40] = { NULL }, *big;
	unsigned long n;

	pp_put_page(s->pool, s->page);
	for (int round = 0; round < 20; round++) {
		n = pp_alloc_pages_bulk_array(s->pool, PP_GFP_KERNEL, 40, arr);
		for (unsigned long i = 0; i < n; i++)
			memset(pp_page_address(s->pool, arr[i]), round,
			       PP_PAGE_SIZE);
		pp_alloc_pages_bulk_list(s->pool, PP_GFP_KERNEL, 30, &list);
		big = pp_alloc_pages(s->pool, PP_GFP_ZERO, 3);
		pp_get_page(s->pool, arr[0]);
		pp_release_pages(s->pool, arr, n);
		pp_put_page(s->pool, arr[0]);
		memset(arr, 0, sizeof(arr));
		put_list(s->pool, &list);
		if (big)
			pp_put_page(s->pool, big);
		if (round % 5 == 0)
			pp_pool_drain(s->pool);
	}
	if (pp_pool_destroy(s->pool) != 0)
		_exit(3);
}

/*
 * PAGEPOOL_DEBUG decides for a pool built from pp_pool_config_init()
 * (one pcp list, so the freed page is the next one handed out).
 */
static void child_env_debug(void *arg)
{
	const char *value = arg;
	struct pp_pool_config cfg;
	struct pp_pool *pool;
	struct pp_page *page;
	unsigned char *addr;

	setenv("PAGEPOOL_DEBUG", value, 1);
	pp_pool_config_init(&cfg);
	cfg.nr_cpus = 1;
	pool = pp_pool_create(&cfg);
	if (!pool)
		_exit(4);
	page = pp_alloc_page(pool, PP_GFP_KERNEL);
	addr = pp_page_address(pool, page);
	pp_put_page(pool, page);
	write_freed(addr, 7, 0x01);
	for (int i = 0; i < 1024; i++)
		if (pp_alloc_page(pool, PP_GFP_KERNEL) == page)
			break;
}

/* --- the parent side ------------------------------------------------------ */

static bool has_all(const char *out, const char *const *needles)
{
	for (; *needles; needles++)
		if (!strstr(out, *needles))
			return false;
	return true;
}

/*
 * Run @fn in a child against a fresh pool with one allocated page and
 * check that it aborts with every string of @needles ("%pfn" is replaced
 * by the page's pfn, "%ptr" by @s->ptr) in its report.  Two checks.
 */
static void expect_death(const char *what, void (*fn)(void *),
			 struct scenario *s, const char *const *tmpl)
{
	struct child_result res;
	char pfn[32], ptr[32], how[32], needle_buf[8][64];
	const char *needles[9];
	unsigned int n = 0;

	snprintf(pfn, sizeof(pfn), "pfn 0x%lx", s->pfn);
	snprintf(ptr, sizeof(ptr), "%p", s->ptr);
	for (; tmpl[n] && n < 8; n++) {
		if (!strcmp(tmpl[n], "%pfn"))
			snprintf(needle_buf[n], sizeof(needle_buf[n]), "%s",
				 pfn);
		else if (!strcmp(tmpl[n], "%ptr"))
			snprintf(needle_buf[n], sizeof(needle_buf[n]), "%s",
				 ptr);
		else
			snprintf(needle_buf[n], sizeof(needle_buf[n]), "%s",
				 tmpl[n]);
		needles[n] = needle_buf[n];
	}
	needles[n] = NULL;

	if (!run_in_child(fn, s, 10, &res))
		bail_out("fork: %s", strerror(errno));
	ok(child_aborted(&res), "%s - aborts (%s)", what,
	   child_how(&res, how, sizeof(how)));
	ok(has_all(res.output, needles), "%s - report names %s%s%s%s%s%s",
	   what, needles[0] ? needles[0] : "",
	   needles[1] ? ", " : "", needles[1] ? needles[1] : "",
	   needles[2] ? ", " : "", needles[2] ? needles[2] : "",
	   needles[3] ? ", ..." : "");
	if (!has_all(res.output, needles))
		diag_text("child stderr: ", res.output);
}

static void setup(struct scenario *s, bool debug)
{
	memset(s, 0, sizeof(*s));
	s->pool = debug_pool(debug);
	s->page = pp_alloc_page(s->pool, PP_GFP_KERNEL);
	if (!s->page)
		bail_out("pp_alloc_page failed");
	s->pfn = pp_page_to_pfn(s->pool, s->page);
}

static void teardown(struct scenario *s)
{
	/* The child's misuse happened in its own copy of the pool. */
	pp_put_page(s->pool, s->page);
	if (s->other)
		pp_pool_destroy(s->other);
	if (pp_pool_destroy(s->pool) != 0)
		diag("pool of a death test not empty in the parent");
}

/* The state of a page freed to the allocator, as reports name it. */
static const char *freed_state(const char *buddy_state)
{
	return test_backend_is_buddy() ? buddy_state : "state backend";
}

static void test_double_free(void)
{
	const char *const put[] = {
		"Bad page state in pp_put_page", "%pfn",
		freed_state("state pcp"), "double free", NULL };
	/*
	 * The plugin suite runs on examples/backend-lifo, which gives blocks
	 * above order 0 straight back to the zone.
	 */
	const char *const put_block[] = {
		"Bad page state in pp_put_page", "%pfn",
		test_backend() == PP_BACKEND_PLUGIN ? "state buddy" :
		freed_state("state buddy"), "double free", NULL };
	const char *const release[] = {
		"Bad page state in pp_release_pages", "%pfn",
		freed_state("state pcp"), "double free", NULL };
	const char *const get[] = {
		"Bad page state in pp_get_page", "%pfn",
		freed_state("state pcp"), "use after free", NULL };
	const char *put_tail[] = {
		"Bad page state in pp_put_page", "%pfn",
		"put of a tail page of a compound page: pfn", NULL, NULL };
	char head[64];
	struct scenario s;

	setup(&s, true);
	expect_death("pp_put_page - double free (debug)", child_double_put,
		     &s, put);
	teardown(&s);

	/* The refcount underflow check does not depend on debug mode. */
	setup(&s, false);
	expect_death("pp_put_page - double free (no debug)", child_double_put,
		     &s, put);
	teardown(&s);

	setup(&s, true);
	pp_put_page(s.pool, s.page);
	s.page = pp_alloc_pages(s.pool, PP_GFP_KERNEL, 2);
	s.pfn = pp_page_to_pfn(s.pool, s.page);
	expect_death("pp_put_page - double free of an order-2 block",
		     child_double_put, &s, put_block);
	teardown(&s);

	/*
	 * A tail page of an allocated block: not a double free, and said so,
	 * with the head to put instead.  s.pfn is the tail's for %pfn.
	 */
	for (int debug = 1; debug >= 0; debug--) {
		setup(&s, debug);
		pp_put_page(s.pool, s.page);
		s.page = pp_alloc_pages(s.pool, PP_GFP_KERNEL, 2);
		s.pfn = pp_page_to_pfn(s.pool, s.page) + 2;
		snprintf(head, sizeof(head), "block at head pfn 0x%lx",
			 s.pfn - 2);
		put_tail[3] = head;
		expect_death(debug ? "pp_put_page - a tail page (debug)" :
			     "pp_put_page - a tail page (no debug)",
			     child_put_tail, &s, put_tail);
		teardown(&s);
	}

	setup(&s, true);
	expect_death("pp_release_pages - double free", child_double_release,
		     &s, release);
	teardown(&s);

	setup(&s, false);
	expect_death("pp_get_page - get of a freed page", child_get_freed, &s,
		     get);
	teardown(&s);
}

static void test_poison(void)
{
	const char *const single[] = {
		"Bad page state in pp_alloc_page", "%pfn",
		freed_state("state pcp"), "poison overwritten", "offset 0x123",
		NULL };
	static const char *const bulk[] = {
		"Bad page state in pp_alloc_pages_bulk_array", "%pfn",
		"poison overwritten", "offset 0xfff", NULL };
	static const char *const block[] = {
		"Bad page state in pp_alloc_pages", "%pfn",
		"poison overwritten", "offset 0x40", NULL };
	struct scenario s;

	setup(&s, true);
	expect_death("pp_alloc_page - write after free", child_use_after_free,
		     &s, single);
	teardown(&s);

	if (!test_backend_is_buddy()) {
		/*
		 * jemalloc's batch_alloc takes fresh slabs for 4 KiB and
		 * never the thread cache, where the freed page waits.
		 */
		skip(4, "buddy backend only: a freed page back out of a "
		     "bulk call, or merged into a block");
		return;
	}
	setup(&s, true);
	expect_death("alloc_pages_bulk_array - write after free",
		     child_use_after_free_bulk, &s, bulk);
	teardown(&s);

	/* Not the block's head: the report names the page written to. */
	setup(&s, true);
	{
		struct pp_page *first = s.page;

		s.page = pp_alloc_page(s.pool, PP_GFP_KERNEL);
		s.pfn = pp_page_to_pfn(s.pool, s.page);
		pp_put_page(s.pool, first);
	}
	expect_death("pp_alloc_pages - write after free inside an order-9 "
		     "block", child_use_after_free_block, &s, block);
	teardown(&s);
}

static void test_bad_pointer(void)
{
	static const char *const put[] = {
		"pp_put_page", "%ptr", "not a page descriptor", NULL };
	static const char *const get[] = {
		"pp_get_page", "%ptr", "not a page descriptor", NULL };
	struct pp_page fake;
	struct scenario s;

	memset(&fake, 0, sizeof(fake));
	fake.refcount = 1;

	setup(&s, true);
	s.ptr = &fake;
	expect_death("pp_put_page - a descriptor not from the pool",
		     child_put_foreign, &s, put);
	teardown(&s);

	setup(&s, true);
	s.ptr = (const char *)s.page + 8;
	expect_death("pp_put_page - a pointer inside a descriptor",
		     child_put_foreign, &s, put);
	teardown(&s);

	setup(&s, true);
	s.other = debug_pool(true);
	s.ptr = pp_pfn_to_page(s.other, 0);
	expect_death("pp_get_page - another pool's descriptor",
		     child_get_foreign, &s, get);
	teardown(&s);
}

/*
 * The same checks with debug off: the range and alignment check is
 * unconditional, and what it finds is named as such (not as a double free
 * or a use after free, which is what the refcount of whatever the pointer
 * points at would suggest).
 */
static void test_bad_pointer_nodebug(void)
{
	static const char *const put[] = {
		"pp_put_page", "%ptr", "not a page descriptor", NULL };
	static const char *const put_inside[] = {
		"pp_put_page", "%ptr", "not a page descriptor",
		"points 8 bytes into the descriptor of pfn", NULL };
	static const char *const put_other[] = {
		"pp_put_page", "%ptr", "not a page descriptor",
		"a page of another pool", NULL };
	static const char *const get[] = {
		"pp_get_page", "%ptr", "not a page descriptor", NULL };
	static const char *const release[] = {
		"pp_release_pages", "%ptr", "not a page descriptor", NULL };
	static const char *const pfn[] = {
		"pp_page_to_pfn", "%ptr", "not a page descriptor", NULL };
	static const char *const addr[] = {
		"pp_page_address", "%ptr", "not a page descriptor", NULL };
	static const char *const overflow[] = {
		"Bad page state in pp_get_page", "%pfn", "refcount overflow",
		NULL };
	struct pp_page fake;
	struct scenario s;

	memset(&fake, 0, sizeof(fake));
	fake.refcount = 1;

	setup(&s, false);
	s.ptr = &fake;
	expect_death("pp_put_page - a descriptor not from the pool (no debug)",
		     child_put_foreign, &s, put);
	teardown(&s);

	setup(&s, false);
	s.ptr = (const char *)s.page + 8;
	expect_death("pp_put_page - a pointer inside a descriptor (no debug)",
		     child_put_foreign, &s, put_inside);
	teardown(&s);

	/* Another pool's free page: today's refcount says "double free". */
	setup(&s, false);
	s.other = debug_pool(false);
	s.ptr = pp_pfn_to_page(s.other, 3);
	expect_death("pp_put_page - another pool's free page (no debug)",
		     child_put_foreign, &s, put_other);
	teardown(&s);

	/* Another pool's allocated page: would join this pool's lists. */
	setup(&s, false);
	s.other = debug_pool(false);
	{
		struct pp_page *theirs = pp_alloc_page(s.other, PP_GFP_KERNEL);

		s.ptr = theirs;
		expect_death("pp_put_page - another pool's allocated page "
			     "(no debug)", child_put_foreign, &s, put_other);
		pp_put_page(s.other, theirs);
	}
	teardown(&s);

	setup(&s, false);
	s.other = debug_pool(false);
	s.ptr = pp_pfn_to_page(s.other, 0);
	expect_death("pp_get_page - another pool's descriptor (no debug)",
		     child_get_foreign, &s, get);
	teardown(&s);

	setup(&s, false);
	s.ptr = &fake;
	expect_death("pp_release_pages - a descriptor not from the pool "
		     "(no debug)", child_release_foreign, &s, release);
	teardown(&s);

	setup(&s, false);
	s.ptr = (const char *)s.page + 8;
	expect_death("pp_page_to_pfn - a pointer inside a descriptor "
		     "(no debug)", child_pfn_foreign, &s, pfn);
	teardown(&s);

	setup(&s, false);
	s.ptr = &fake;
	expect_death("pp_page_address - a descriptor not from the pool "
		     "(no debug)", child_address_foreign, &s, addr);
	teardown(&s);

	setup(&s, false);
	expect_death("pp_get_page - refcount overflow is named as such",
		     child_get_overflow, &s, overflow);
	teardown(&s);
}

static void test_clean_run(void)
{
	struct child_result res;
	struct scenario s;
	char how[32];

	setup(&s, true);
	if (!run_in_child(child_clean, &s, 10, &res))
		bail_out("fork: %s", strerror(errno));
	ok(child_exited_ok(&res) && res.output[0] == '\0',
	   "debug - correct use of every API passes the checks (%s)",
	   child_how(&res, how, sizeof(how)));
	if (res.output[0])
		diag_text("child stderr: ", res.output);
	teardown(&s);
}

static void test_env(void)
{
	static char on[] = "1", off[] = "0";
	struct child_result res;
	char how[32];

	if (!run_in_child(child_env_debug, on, 10, &res))
		bail_out("fork: %s", strerror(errno));
	ok(child_aborted(&res) && strstr(res.output, "poison overwritten"),
	   "PAGEPOOL_DEBUG=1 - a default pool checks poison (%s)",
	   child_how(&res, how, sizeof(how)));
	if (!run_in_child(child_env_debug, off, 10, &res))
		bail_out("fork: %s", strerror(errno));
	ok(child_exited_ok(&res),
	   "PAGEPOOL_DEBUG=0 - a default pool does not (%s)",
	   child_how(&res, how, sizeof(how)));
}

static void child_destroy_twice(void *arg)
{
	struct pp_pool *pool = debug_pool(false);

	(void)arg;
	pp_pool_destroy(pool);
	pp_pool_destroy(pool);
}

static void child_null_array(void *arg)
{
	struct scenario *s = arg;

	pp_alloc_pages_bulk_array(s->pool, PP_GFP_KERNEL, 4, NULL);
}

static void child_null_list(void *arg)
{
	struct scenario *s = arg;

	pp_alloc_pages_bulk_list(s->pool, PP_GFP_KERNEL, 4, NULL);
}

static void child_null_release(void *arg)
{
	struct scenario *s = arg;

	pp_release_pages(s->pool, NULL, 4);
}

/*
 * Caller bugs whose contract the header states: a second destroy, a NULL
 * array or list with pages wanted, a NULL release array with entries,
 * abort with a report naming the mistake (a hang, or a bare SIGSEGV,
 * before); an order out of range fails with EINVAL.
 */
static void test_misuse(void)
{
	static const char *const twice[] = {
		"pp_pool_destroy", "not a live pool", "destroyed already",
		NULL };
	static const char *const twice_asan[] = {
		"heap-use-after-free", "pp_pool_destroy", NULL };
	static const char *const array[] = {
		"pp_alloc_pages_bulk_array", "page_array is NULL",
		"nr_pages 4", NULL };
	static const char *const list[] = {
		"pp_alloc_pages_bulk_list", "list is NULL", "nr_pages 4",
		NULL };
	static const char *const release[] = {
		"pp_release_pages", "pages is NULL", "nr 4", NULL };
	struct child_result res;
	struct scenario s;
	struct pp_page *page;
	char how[32];

	/* ASan sees the freed pool before the mark is read, and says so. */
	if (!run_in_child(child_destroy_twice, NULL, 10, &res))
		bail_out("fork: %s", strerror(errno));
	if (test_asan_build)
		ok(!child_exited_ok(&res) && has_all(res.output, twice_asan),
		   "pp_pool_destroy - twice: ASan reports the use after free "
		   "(%s)", child_how(&res, how, sizeof(how)));
	else
		ok(child_aborted(&res) && has_all(res.output, twice),
		   "pp_pool_destroy - twice: reported and aborts, no hang (%s)",
		   child_how(&res, how, sizeof(how)));
	if (!child_aborted(&res))
		diag_text("child stderr: ", res.output);

	setup(&s, false);
	s.ptr = NULL;
	expect_death("pp_alloc_pages_bulk_array - NULL array, nr 4",
		     child_null_array, &s, array);
	expect_death("pp_alloc_pages_bulk_list - NULL list, nr 4",
		     child_null_list, &s, list);
	expect_death("pp_release_pages - NULL array, nr 4",
		     child_null_release, &s, release);
	ok(pp_alloc_pages_bulk_array(s.pool, PP_GFP_KERNEL, 0, NULL) == 0 &&
	   pp_alloc_pages_bulk_list(s.pool, PP_GFP_KERNEL, 0, NULL) == 0,
	   "bulk calls - NULL array or list with nr_pages 0: 0, no report");
	pp_release_pages(s.pool, NULL, 0);

	errno = 0;
	page = pp_alloc_pages(s.pool, PP_GFP_KERNEL, PP_MAX_ORDER + 1);
	ok(!page && errno == EINVAL,
	   "pp_alloc_pages - order %d: NULL with errno EINVAL (%s)",
	   PP_MAX_ORDER + 1, strerror(errno));
	errno = 0;
	page = pp_alloc_pages(s.pool, PP_GFP_KERNEL, ~0U);
	ok(!page && errno == EINVAL,
	   "pp_alloc_pages - order ~0U: NULL with errno EINVAL (%s)",
	   strerror(errno));
	teardown(&s);
}

static int create_default_pool(void *arg)
{
	struct pp_pool *pool = pp_pool_create(NULL);

	(void)arg;
	if (pool) {
		pp_pool_destroy(pool);
		return 0;
	}
	return errno;
}

/*
 * A PAGEPOOL_DEBUG value other than 0 or 1 used to be ignored silently;
 * it is refused as a bad PAGEPOOL_PCP is: EINVAL and one line naming
 * the variable, the value and what is accepted.
 */
static void test_env_bad(void)
{
	static const char *const bad[] = { "yes", "2", "-1", "", "1 " };
	char out[512], want[64];

	for (unsigned int i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		int err;
		char *nl;

		setenv("PAGEPOOL_DEBUG", bad[i], 1);
		err = capture_stderr(create_default_pool, NULL, out,
				     sizeof(out));
		snprintf(want, sizeof(want), "PAGEPOOL_DEBUG='%s'", bad[i]);
		nl = strchr(out, '\n');
		ok(err == EINVAL && strstr(out, want) &&
		   strstr(out, "expected 0") && nl && nl[1] == '\0',
		   "PAGEPOOL_DEBUG='%s' - pp_pool_create refuses it: EINVAL, "
		   "one line naming it (%s)", bad[i], strerror(err));
		if (err != EINVAL || !strstr(out, want))
			diag_text("stderr: ", out);
	}
	unsetenv("PAGEPOOL_DEBUG");
}

int main(void)
{
	plan_tests(2 * 7 + 2 * 3 + 2 * 3 + 2 * 9 + 1 + 2 + 5 + 1 + 2 * 3 + 3);
	test_double_free();
	test_poison();
	test_bad_pointer();
	test_bad_pointer_nodebug();
	test_clean_run();
	test_env();
	test_env_bad();
	test_misuse();
	return exit_status();
}
