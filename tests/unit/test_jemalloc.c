/* SPDX-License-Identifier: MIT */
/*
 * The jemalloc backend's own checks (the API contracts run in the shared
 * tests, run again as jemalloc/NAME.jemalloc): every page jemalloc hands out is a page of
 * the pool's arena with a working descriptor; the extent hooks take their
 * memory from the buddy allocator and give it back (vmstat and the
 * backend_* counters agree); the CPU's thread cache used (two pages freed
 * come back last freed first) and flushed by a drain; the knobs (thread
 * cache on/off, its slot
 * count, batch_alloc on/off); pp_pool_destroy() refusing while a page is
 * out and then destroying the arena with every page back and giving its
 * thread caches back to jemalloc; the hooks zeroing what jemalloc asks
 * them to zero; a pool too small
 * for jemalloc's first metadata block; and the process's malloc() staying
 * glibc's (or ASan's), so a page freed to the pool never comes out of
 * malloc().
 *
 * "slots" as the first argument: print pp_jemalloc_tcache_slots() and
 * exit; "zeroed": test_zeroed()'s scenario (each run by the test under
 * another MALLOC_CONF).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <spawn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <pagepool/pagepool.h>

#include "capture.h"
#include "pp_test.h"
#include "tap.h"

#define NR_PAGES	4096

extern char **environ;

static struct pp_pool *je_pool(unsigned long nr_pages, bool tcache,
			       bool batch)
{
	struct pp_pool_config cfg;
	struct pp_pool *pool;

	pp_pool_config_init(&cfg);
	cfg.backend = PP_BACKEND_JEMALLOC;
	cfg.nr_pages = nr_pages;
	cfg.nr_cpus = 1;
	cfg.je_tcache = tcache;
	cfg.je_batch_alloc = batch;
	pool = pp_pool_create(&cfg);
	if (!pool)
		bail_out("pp_pool_create(jemalloc, %lu pages): %s", nr_pages,
			 strerror(errno));
	return pool;
}

static bool in_arena(struct pp_pool *pool, struct pp_page *page)
{
	char *base = pp_page_address(pool, pp_pfn_to_page(pool, 0));
	char *addr = pp_page_address(pool, page);

	return addr >= base && addr < base + NR_PAGES * PP_PAGE_SIZE &&
	       pp_virt_to_page(pool, addr + 123) == page;
}

static void test_pages(void)
{
	struct pp_pool *pool = je_pool(NR_PAGES, true, true);
	struct pp_list_head list = PP_LIST_HEAD_INIT(list);
	struct pp_page *arr[100] = { NULL }, *single, *big, *last, *p, *lo, *hi;
	struct pp_vmstat st;
	unsigned long n, nl, bad = 0;

	ok(pp_pool_backend(pool) == PP_BACKEND_JEMALLOC &&
	   !strcmp(pp_backend_name(pp_pool_backend(pool)), "jemalloc") &&
	   pp_backend_from_name("buddy") == PP_BACKEND_BUDDY &&
	   pp_backend_from_name("tcmalloc") == -EINVAL,
	   "jemalloc - the pool reports its backend, names round-trip");
	single = pp_alloc_page(pool, PP_GFP_KERNEL);
	last = pp_alloc_page(pool, PP_GFP_KERNEL);
	n = pp_alloc_pages_bulk_array(pool, PP_GFP_KERNEL, 100, arr);
	nl = pp_alloc_pages_bulk_list(pool, PP_GFP_KERNEL, 50, &list);
	big = pp_alloc_pages(pool, PP_GFP_KERNEL, 4);
	for (unsigned long i = 0; i < n; i++)
		bad += !in_arena(pool, arr[i]) ||
		       arr[i]->state != PP_PAGE_INUSE ||
		       pp_page_count(arr[i]) != 1;
	for (struct pp_list_head *l = list.next; l != &list; l = l->next)
		bad += !in_arena(pool, pp_lru_to_page(l));
	ok(single && in_arena(pool, single) && n == 100 && nl == 50 &&
	   bad == 0,
	   "jemalloc - single, array and list pages are the arena's, "
	   "allocated, refcount 1 (%lu bad)", bad);
	ok(big && in_arena(pool, big) &&
	   pp_page_to_pfn(pool, big) % 16 == 0 && big->order == 4,
	   "jemalloc - an order-4 block is aligned to 16 pages (pfn 0x%lx)",
	   big ? pp_page_to_pfn(pool, big) : 0UL);

	pp_pool_vmstat(pool, &st);
	ok(st.events[PP_BACKEND_GROW] > 0 &&
	   st.events[PP_BACKEND_GROW_PAGES] -
	   st.events[PP_BACKEND_SHRINK_PAGES] == NR_PAGES - st.nr_free &&
	   st.nr_free + st.nr_backend + (st.events[PP_PGALLOC] -
	   st.events[PP_PGFREE]) == NR_PAGES && st.nr_pcp == 0,
	   "jemalloc - the hooks took %llu pages from the buddy allocator; "
	   "free + held + out = all (%lu + %lu + %llu)",
	   (unsigned long long)st.events[PP_BACKEND_GROW_PAGES], st.nr_free,
	   st.nr_backend, (unsigned long long)(st.events[PP_PGALLOC] -
					      st.events[PP_PGFREE]));

	pp_put_page(pool, single);
	ok(single->state == PP_PAGE_BACKEND && pp_page_count(single) == 0,
	   "jemalloc - a freed page goes back to jemalloc (state backend)");
	p = pp_alloc_page(pool, PP_GFP_KERNEL);
	ok(p == single,
	   "jemalloc - the thread cache hands the freed page out next");
	/*
	 * A stack: the lower of two pages freed first, the higher second,
	 * come back higher first.  Without the CPU's thread cache the arena
	 * hands out the lower address first, so the order tells that the
	 * cache is used.
	 */
	lo = pp_page_to_pfn(pool, p) < pp_page_to_pfn(pool, last) ? p : last;
	hi = lo == p ? last : p;
	pp_put_page(pool, lo);
	pp_put_page(pool, hi);
	p = pp_alloc_page(pool, PP_GFP_KERNEL);
	last = pp_alloc_page(pool, PP_GFP_KERNEL);
	ok(p == hi && last == lo,
	   "jemalloc - two pages freed come back last freed first (pfn 0x%lx "
	   "then 0x%lx, freed 0x%lx then 0x%lx): the CPU's thread cache",
	   pp_page_to_pfn(pool, p), pp_page_to_pfn(pool, last),
	   pp_page_to_pfn(pool, lo), pp_page_to_pfn(pool, hi));
	pp_put_page(pool, p);
	pp_release_pages(pool, arr, n);
	put_list(pool, &list);
	pp_put_page(pool, big);
	/* Freed last, it sits in this CPU's thread cache until the drain. */
	pp_put_page(pool, last);

	pp_pool_vmstat(pool, &st);
	n = st.nr_backend;
	pp_pool_drain(pool);
	pp_pool_vmstat(pool, &st);
	ok(st.nr_backend < n && st.events[PP_BACKEND_SHRINK] > 0 &&
	   test_all_back(&st) && last->state != PP_PAGE_BACKEND,
	   "pp_pool_drain - jemalloc's caches and dirty extents go back to "
	   "the buddy allocator, the page freed last (in the thread cache) "
	   "too (held %lu -> %lu)", n, st.nr_backend);
	ok(pp_pool_destroy(pool) == 0, "pp_pool_destroy - returns 0");
}

static int leaked_destroy(void *arg)
{
	return pp_pool_destroy(arg);
}

static void test_destroy(void)
{
	struct pp_pool *pool = je_pool(NR_PAGES, true, true);
	struct pp_page *page = pp_alloc_page(pool, PP_GFP_KERNEL);
	char buf[512], pfn[32];
	int ret;

	ret = capture_stderr(leaked_destroy, pool, buf, sizeof(buf));
	snprintf(pfn, sizeof(pfn), "0x%lx", pp_page_to_pfn(pool, page));
	ok(ret == -EBUSY && strstr(buf, "1 of 4096 pages still in use") &&
	   strstr(buf, pfn),
	   "pp_pool_destroy - a page out: -EBUSY, the arena kept, the pfn "
	   "named");
	if (!strstr(buf, pfn))
		diag_text("stderr: ", buf);
	pp_put_page(pool, page);
	ok(pp_pool_destroy(pool) == 0,
	   "pp_pool_destroy - after the put: arena destroyed, every page "
	   "back in the buddy allocator");
}

/*
 * pp_pool_destroy() gives the pool's explicit tcaches back: jemalloc has
 * a few thousand (MALLOCX_TCACHE_MAX), so a program that creates and
 * destroys pools would run out of them otherwise.  jemalloc hands out
 * the index destroyed last first: an index taken and given back just
 * before the pool, the pool's one tcache (one CPU) takes it, and it is
 * the next one handed out after the pool is destroyed, unless the pool
 * kept it.  mallctl() is looked up in the process (libpagepool's
 * jemalloc), as this program does not link jemalloc itself.
 */
static void test_tcache_returned(void)
{
	int (*ctl)(const char *, void *, size_t *, void *, size_t) =
		(int (*)(const char *, void *, size_t *, void *, size_t))
		dlsym(RTLD_DEFAULT, "mallctl");
	unsigned int before = 0, after = 0;
	size_t len = sizeof(before);
	bool got;

	if (!ctl) {
		skip(1, "mallctl() not found in the process");
		return;
	}
	got = !ctl("tcache.create", &before, &len, NULL, 0) &&
	      !ctl("tcache.destroy", NULL, NULL, &before, sizeof(before));
	pp_pool_destroy(je_pool(NR_PAGES, true, true));
	len = sizeof(after);
	got = got && !ctl("tcache.create", &after, &len, NULL, 0);
	ok(got && after == before,
	   "pp_pool_destroy - the pool's tcache is given back to jemalloc "
	   "(index %u before the pool, %u after)", before, after);
	if (got)
		ctl("tcache.destroy", NULL, NULL, &after, sizeof(after));
}

static void test_too_small(void)
{
	struct pp_pool_config cfg;
	struct pp_pool *pool;

	pp_pool_config_init(&cfg);
	cfg.backend = PP_BACKEND_JEMALLOC;
	cfg.nr_pages = 256;
	errno = 0;
	pool = pp_pool_create(&cfg);
	ok(pool == NULL && errno == ENOMEM,
	   "pp_pool_create - 1 MiB cannot hold jemalloc's first 2 MiB "
	   "metadata block: NULL, ENOMEM (%s)", strerror(errno));
	if (pool)
		pp_pool_destroy(pool);
}

/*
 * The documented limits of the backend's geometry: jemalloc's first
 * metadata block takes 512 pages, so a 512-page pool is created but has
 * nothing to hand out and 513 pages give one; an order-PP_MAX_ORDER block
 * needs 2^10 + 1 contiguous pages aligned to 2^10 (jemalloc pads every
 * large extent by a page), which a 2,048-page pool cannot hold next to the
 * metadata while one with a second free order-10 block after the first
 * can.
 */
static void test_geometry(void)
{
	struct pp_page *page;
	struct pp_pool *pool;
	struct pp_vmstat st;

	pool = je_pool(512, false, true);
	page = pool ? pp_alloc_page(pool, PP_GFP_KERNEL) : NULL;
	ok(pool && !page, "jemalloc - 512 pages: created, nothing to hand out");
	if (page)
		pp_put_page(pool, page);
	pp_pool_destroy(pool);

	pool = je_pool(513, false, true);
	page = pool ? pp_alloc_page(pool, PP_GFP_KERNEL) : NULL;
	ok(pool && page, "jemalloc - 513 pages: one page to hand out");
	if (page)
		pp_put_page(pool, page);
	pp_pool_destroy(pool);

	pool = je_pool(2048, false, true);
	pp_pool_vmstat(pool, &st);
	page = pp_alloc_pages(pool, PP_GFP_KERNEL, PP_MAX_ORDER);
	ok(st.free_area[PP_MAX_ORDER] == 1 && !page,
	   "jemalloc - 2048 pages: no order-10 block although the buddy "
	   "lists hold one (%lu): 1025 pages needed", st.free_area[10]);
	if (page)
		pp_put_page(pool, page);
	pp_pool_destroy(pool);

	pool = je_pool(3072, false, true);
	page = pp_alloc_pages(pool, PP_GFP_KERNEL, PP_MAX_ORDER);
	ok(page != NULL, "jemalloc - 3072 pages: two adjacent free order-10 "
	   "blocks serve an order-10 allocation");
	if (page)
		pp_put_page(pool, page);
	pp_pool_destroy(pool);
}

/* Allocate and free bulks of 64 on @pool; pages stay the arena's. */
static bool churn(struct pp_pool *pool)
{
	struct pp_page *arr[64];
	struct pp_list_head list = PP_LIST_HEAD_INIT(list);
	bool good = true;

	for (int round = 0; round < 50; round++) {
		unsigned long n;

		memset(arr, 0, sizeof(arr));
		n = pp_alloc_pages_bulk_array(pool, PP_GFP_KERNEL, 64, arr);
		good &= n == 64 && pages_distinct(pool, arr, 64);
		for (unsigned long i = 0; i < n; i++)
			good &= in_arena(pool, arr[i]);
		pp_release_pages(pool, arr, n);
		good &= pp_alloc_pages_bulk_list(pool, PP_GFP_KERNEL, 64,
						 &list) == 64;
		put_list(pool, &list);
	}
	return good;
}

static void test_knobs(void)
{
	struct pp_pool_config cfg;
	struct pp_pool *pool;
	long slots = pp_jemalloc_tcache_slots();
	struct pp_vmstat st;

	diag("jemalloc thread cache: %ld slots for 4 KiB", slots);
	pool = je_pool(NR_PAGES, false, true);
	ok(churn(pool), "je_tcache off - bulks of 64 allocated and freed");
	pp_pool_vmstat(pool, &st);
	ok(test_all_back(&st) && pp_pool_destroy(pool) == 0,
	   "je_tcache off - every page back, destroyed");

	pool = je_pool(NR_PAGES, true, false);
	ok(churn(pool), "je_batch_alloc off - bulks of 64, one mallocx() "
	   "per page");
	ok(pp_pool_destroy(pool) == 0,
	   "je_batch_alloc off - every page back, destroyed");

	pp_pool_config_init(&cfg);
	cfg.backend = PP_BACKEND_JEMALLOC;
	cfg.nr_pages = NR_PAGES;
	cfg.je_tcache_slots = (unsigned int)slots;
	pool = pp_pool_create(&cfg);
	ok(slots > 0 && pool != NULL,
	   "je_tcache_slots - the count jemalloc started with is accepted "
	   "(%ld)", slots);
	if (pool)
		pp_pool_destroy(pool);
	cfg.je_tcache_slots = (unsigned int)slots + 2;
	errno = 0;
	pool = pp_pool_create(&cfg);
	ok(pool == NULL && errno == EINVAL,
	   "je_tcache_slots - another count: NULL, EINVAL (jemalloc sizes its "
	   "caches at start)");
	if (pool)
		pp_pool_destroy(pool);
}

/*
 * This program run again as "test_jemalloc @mode" with MALLOC_CONF=@conf
 * (jemalloc reads it once, at start); what it printed in @out.  False if
 * it could not run or printed nothing.
 */
static bool run_self_under(const char *conf, char *mode, char *out,
			   size_t len)
{
	char *argv[] = { "test_jemalloc", mode, NULL };
	char path[64];
	int fd[2], status;
	pid_t pid;
	posix_spawn_file_actions_t fa;
	size_t got = 0;
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/%d/exe", (int)getpid());
	if (pipe(fd))
		return false;
	setenv("MALLOC_CONF", conf, 1);
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, fd[1], STDOUT_FILENO);
	posix_spawn_file_actions_addclose(&fa, fd[0]);
	if (posix_spawn(&pid, path, &fa, NULL, argv, environ))
		pid = -1;
	posix_spawn_file_actions_destroy(&fa);
	unsetenv("MALLOC_CONF");
	close(fd[1]);
	while (got + 1 < len &&
	       (n = read(fd[0], out + got, len - 1 - got)) > 0)
		got += (size_t)n;
	out[got] = '\0';
	close(fd[0]);
	return pid >= 0 && waitpid(pid, &status, 0) >= 0 && got > 0;
}

/* pp_jemalloc_tcache_slots() of a child started with @conf. */
static long slots_under(const char *conf)
{
	char out[32];

	if (!run_self_under(conf, "slots", out, sizeof(out)))
		return -1;
	return strtol(out, NULL, 10);
}

static void test_tcache_slots(void)
{
	long def = slots_under("");
	long n64 = slots_under("tcache_nslots_small_min:64,"
			       "tcache_nslots_small_max:64");
	long odd = slots_under("tcache_nslots_small_min:33,"
			       "tcache_nslots_small_max:300");
	long off = slots_under("tcache:false");

	ok(def == 20, "pp_jemalloc_tcache_slots - 20 slots for 4 KiB by "
	   "default (one region per slab, nslots_small_min 20) (%ld)", def);
	ok(n64 == 64 && odd == 34 && off == 0,
	   "pp_jemalloc_tcache_slots - follows MALLOC_CONF: min=max=64 -> "
	   "64, min 33 -> 34, tcache:false -> 0 (%ld, %ld, %ld)", n64, odd,
	   off);
}

/*
 * The scenario of test_zeroed(), in a child: a 1,024-page pool (512 for
 * jemalloc's first metadata block), every page it hands out written with
 * 0xa5, one page in 16 kept and the others given back to the buddy
 * allocator (pp_pool_drain()), so that its free pages are dirty runs of
 * 15; then one order-2 block.  Prints the block's pfn, its bytes that are
 * not zero and its pages that were not written before ("-1" without a
 * block), and what pp_pool_destroy() returned.
 */
static int child_zeroed(void)
{
	struct pp_pool *pool = je_pool(1024, true, true);
	struct pp_page *pages[1024], *keep[1024], *p, *block;
	unsigned char dirty[1024] = { 0 };
	unsigned long n = 0, k = 0, nonzero = 0, clean = 0;

	while (n < 1024 && (p = pp_alloc_page(pool, PP_GFP_KERNEL))) {
		memset(pp_page_address(pool, p), 0xa5, PP_PAGE_SIZE);
		dirty[pp_page_to_pfn(pool, p)] = 1;
		if (pp_page_to_pfn(pool, p) % 16)
			pages[n++] = p;
		else
			keep[k++] = p;
	}
	pp_release_pages(pool, pages, n);
	pp_pool_drain(pool);
	block = pp_alloc_pages(pool, PP_GFP_KERNEL, 2);
	if (!block) {
		printf("-1\n");
	} else {
		const unsigned char *b = pp_page_address(pool, block);
		unsigned long pfn = pp_page_to_pfn(pool, block);

		for (unsigned long i = 0; i < 4 * PP_PAGE_SIZE; i++)
			nonzero += b[i] != 0;
		for (unsigned long i = 0; i < 4; i++)
			clean += !dirty[pfn + i];
		pp_put_page(pool, block);
		printf("%lu %lu %lu ", pfn, nonzero, clean);
	}
	pp_release_pages(pool, keep, k);
	printf("%d\n", pp_pool_destroy(pool));
	return 0;
}

/*
 * What jemalloc asks the extent hooks to zero (*zero), they must zero:
 * jemalloc takes that memory as zeroed and does not clear it again.  It
 * asks for its metadata blocks (2 MiB; the first comes from the fresh
 * mapping of a new pool, so only a later one could be dirty) and, for a
 * request that must be zeroed, for the extent it takes when it cannot
 * grow its retained memory (its growth steps are 2 MiB or more).  The
 * library never asks jemalloc for zeroed memory (PP_GFP_ZERO is its own
 * memset); MALLOC_CONF=zero:true makes every request one that must be.
 * In child_zeroed() the order-2 block is such an extent, 5 pages (one
 * of padding) taken from the dirty runs: without zero:true it comes back
 * as the pages were left, with it it must read zero.
 */
static void test_zeroed(void)
{
	unsigned long pfn, nonzero, clean, dpfn, dnonzero, dclean;
	char out[128], dout[128];
	int destroyed, ddestroyed;
	bool ran, dran;

	dran = run_self_under("", "zeroed", dout, sizeof(dout)) &&
	       sscanf(dout, "%lu %lu %lu %d", &dpfn, &dnonzero, &dclean,
		      &ddestroyed) == 4;
	ok(dran && dnonzero == 4 * PP_PAGE_SIZE && dclean == 0 &&
	   ddestroyed == 0,
	   "jemalloc - an order-2 block from pages written before and given "
	   "back: as they were left (%lu bytes of %lu not zero, pfn 0x%lx)",
	   dran ? dnonzero : 0UL, 4 * PP_PAGE_SIZE, dran ? dpfn : 0UL);
	if (!dran)
		diag("child said: %s", dout);
	ran = run_self_under("zero:true", "zeroed", out, sizeof(out)) &&
	      sscanf(out, "%lu %lu %lu %d", &pfn, &nonzero, &clean,
		     &destroyed) == 4;
	ok(ran && nonzero == 0 && clean == 0 && destroyed == 0,
	   "jemalloc - MALLOC_CONF=zero:true: the same block, its extent "
	   "asked zeroed from the hook, reads zero (%lu bytes not zero, pfn "
	   "0x%lx, %lu pages not written before)", ran ? nonzero : 0UL,
	   ran ? pfn : 0UL, ran ? clean : 0UL);
	if (!ran)
		diag("child said: %s", out);
}

/*
 * libpagepool needs libjemalloc.so, which also exports malloc(): it comes
 * after libc in this program's search order (a dependency of libpagepool,
 * not of the program), so malloc() is glibc's and jemalloc serves only
 * the calls made to it by name.  A page freed to the pool cannot come out
 * of malloc().
 */
static bool from_jemalloc(const char *sym)
{
	void *addr = dlsym(RTLD_DEFAULT, sym);
	Dl_info info;

	return !addr || !dladdr(addr, &info) || !info.dli_fname ||
	       strstr(info.dli_fname, "jemalloc");
}

static void test_malloc_untouched(void)
{
	struct pp_pool *pool = je_pool(NR_PAGES, true, true);
	struct pp_page *arr[64] = { NULL };
	void *bufs[256];
	unsigned long n, inside = 0;

	/* glibc's, or AddressSanitizer's in an ASan build: not jemalloc's. */
	ok(!from_jemalloc("malloc") && !from_jemalloc("free") &&
	   !from_jemalloc("aligned_alloc"),
	   "malloc - not jemalloc's, with jemalloc loaded for the backend");
	n = pp_alloc_pages_bulk_array(pool, PP_GFP_KERNEL, 64, arr);
	pp_release_pages(pool, arr, n);
	for (int i = 0; i < 256; i++) {
		bufs[i] = malloc(PP_PAGE_SIZE);
		inside += bufs[i] && pp_virt_to_page(pool, bufs[i]) != NULL;
	}
	for (int i = 0; i < 256; i++)
		free(bufs[i]);
	ok(n == 64 && inside == 0,
	   "malloc - never returns a page of the pool (%lu of 256)", inside);
	ok(pp_pool_destroy(pool) == 0, "pp_pool_destroy - returns 0");
}

/*
 * ./configure --without-jemalloc: a jemalloc pool fails cleanly, with
 * the error the header documents, and the pool's memory is given back.
 */
static void test_without_jemalloc(void)
{
	struct pp_pool_config cfg;
	struct pp_pool *pool;

	pp_pool_config_init(&cfg);
	cfg.nr_pages = 2048;
	cfg.backend = PP_BACKEND_JEMALLOC;
	errno = 0;
	pool = pp_pool_create(&cfg);
	ok(!pool && errno == EOPNOTSUPP,
	   "pp_pool_create - jemalloc backend without jemalloc: NULL, "
	   "EOPNOTSUPP (errno %d)", errno);
	if (pool)
		pp_pool_destroy(pool);
	ok(pp_jemalloc_tcache_slots() == -EOPNOTSUPP,
	   "pp_jemalloc_tcache_slots - without jemalloc: -EOPNOTSUPP");
}

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "slots")) {
		printf("%ld\n", pp_jemalloc_tcache_slots());
		return 0;
	}
	if (argc > 1 && !strcmp(argv[1], "zeroed"))
		return child_zeroed();
	plan_tests(30);
	if (pp_jemalloc_tcache_slots() == -EOPNOTSUPP) {
		test_without_jemalloc();
		skip(28, "libpagepool built without jemalloc "
		     "(./configure --without-jemalloc)");
		return exit_status();
	}
	test_pages();
	test_destroy();
	test_tcache_returned();
	test_too_small();
	test_geometry();
	test_knobs();
	test_tcache_slots();
	test_zeroed();
	test_malloc_untouched();
	return exit_status();
}
