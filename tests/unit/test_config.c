/* SPDX-License-Identifier: MIT */
/*
 * Configuration: pp_pool_config_init() defaults and the PAGEPOOL_DEBUG
 * override, pp_pool_create() rejecting configurations that cannot work,
 * the watermarks derived the kernel's way, and the small reporting API.
 * Buddy backend pools (the jemalloc backend's configuration is checked in
 * test_jemalloc.c); PP_TEST_BACKEND=jemalloc skips it.
 */
#include <config.h>

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <pagepool/pagepool.h>

#include "capture.h"
#include "pp_test.h"
#include "tap.h"

static void test_defaults(void)
{
	struct pp_pool_config cfg;

	unsetenv("PAGEPOOL_DEBUG");
	memset(&cfg, 0xff, sizeof(cfg));
	pp_pool_config_init(&cfg);
	ok(cfg.nr_pages == 65536 && cfg.pcp_batch == 63 &&
	   cfg.pcp_high == 6 * 63 && cfg.nr_cpus == 0,
	   "pp_pool_config_init - 65536 pages, batch 63, high 378, all CPUs "
	   "(%lu, %u, %u, %u)", cfg.nr_pages, cfg.pcp_batch, cfg.pcp_high,
	   cfg.nr_cpus);
	ok(cfg.wmark_min == PP_WMARK_AUTO && cfg.wmark_low == PP_WMARK_AUTO &&
	   cfg.wmark_high == PP_WMARK_AUTO,
	   "pp_pool_config_init - watermarks computed automatically");
	ok(cfg.debug == !!PP_CONFIG_DEBUG_DEFAULT,
	   "pp_pool_config_init - debug follows the build default (%d)",
	   cfg.debug);
	ok(cfg.backend == PP_BACKEND_BUDDY &&
	   cfg.bulk_variant == PP_BULK_MERGED && cfg.je_tcache &&
	   cfg.je_tcache_slots == 0 && cfg.je_batch_alloc,
	   "pp_pool_config_init - buddy backend, merged bulk contract; "
	   "jemalloc knobs: thread cache on, its slots as started, "
	   "batch_alloc on");
}

static void test_env(void)
{
	static const char *const ignored[] = { "", "2", "yes", "10", "1 ",
					       "true", " 0" };
	struct pp_pool_config cfg;
	unsigned int kept = 0;
	int err;

	setenv("PAGEPOOL_DEBUG", "1", 1);
	err = pp_pool_config_init(&cfg);
	ok(err == 0 && cfg.debug,
	   "pp_pool_config_init - PAGEPOOL_DEBUG=1 turns debug on");
	setenv("PAGEPOOL_DEBUG", "0", 1);
	err = pp_pool_config_init(&cfg);
	ok(err == 0 && !cfg.debug,
	   "pp_pool_config_init - PAGEPOOL_DEBUG=0 turns debug off");
	for (unsigned int i = 0; i < sizeof(ignored) / sizeof(ignored[0]);
	     i++) {
		setenv("PAGEPOOL_DEBUG", ignored[i], 1);
		err = pp_pool_config_init(&cfg);
		kept += err == -EINVAL &&
			cfg.debug == !!PP_CONFIG_DEBUG_DEFAULT;
	}
	ok(kept == sizeof(ignored) / sizeof(ignored[0]),
	   "pp_pool_config_init - other PAGEPOOL_DEBUG values: -EINVAL, the "
	   "default kept, pp_pool_create() refuses them (%u of %zu)", kept,
	   sizeof(ignored) / sizeof(ignored[0]));
	unsetenv("PAGEPOOL_DEBUG");
}

struct bad_case {
	const char *what;
	unsigned long nr_pages;
	unsigned int batch, high;
	unsigned long min, low, high_wm;
	int backend;		/* an enum pp_backend, or out of range */
};

#define AUTO PP_WMARK_AUTO
#define BUDDY PP_BACKEND_BUDDY

static void test_invalid(void)
{
	static const struct bad_case cases[] = {
		{ "nr_pages 0", 0, 8, 48, AUTO, AUTO, AUTO, BUDDY },
		{ "batch 0", 1024, 0, 48, AUTO, AUTO, AUTO, BUDDY },
		{ "high below batch", 1024, 8, 7, AUTO, AUTO, AUTO, BUDDY },
		{ "min above low", 1024, 8, 48, 20, 10, 30, BUDDY },
		{ "low above high", 1024, 8, 48, 10, 30, 20, BUDDY },
		{ "high watermark above nr_pages", 64, 8, 48, 0, 0, 65, BUDDY },
		{ "all watermarks above nr_pages", 64, 8, 48, 100, 100, 100, BUDDY },
		{ "min alone above nr_pages", 64, 8, 48, 100, AUTO, AUTO, BUDDY },
		{ "backend out of range", 1024, 8, 48, AUTO, AUTO, AUTO, 7 },
	};

	for (unsigned int i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct bad_case *c = &cases[i];
		struct pp_pool_config cfg;
		struct pp_pool *pool;
		int err;

		pp_pool_config_init(&cfg);
		cfg.nr_pages = c->nr_pages;
		cfg.pcp_batch = c->batch;
		cfg.pcp_high = c->high;
		cfg.wmark_min = c->min;
		cfg.wmark_low = c->low;
		cfg.wmark_high = c->high_wm;
		cfg.backend = (enum pp_backend)c->backend;
		errno = 0;
		pool = pp_pool_create(&cfg);
		err = errno;
		ok(pool == NULL && err == EINVAL,
		   "pp_pool_create - %s: NULL, EINVAL (%s)", c->what,
		   strerror(err));
		if (pool)
			pp_pool_destroy(pool);
	}
}

/* pp_pool_create(@arg) in a child: exit 0 for NULL with EINVAL. */
static void create_refused(void *arg)
{
	struct pp_pool *pool;

	errno = 0;
	pool = pp_pool_create(arg);
	if (pool == NULL && errno == EINVAL)
		_exit(0);
	fprintf(stderr, "pool %p, errno %d (%s)\n", (void *)pool, errno,
		strerror(errno));
	_exit(1);
}

/*
 * A pcp list's ring holds min(pcp_high, nr_pages) pages in a power of two
 * of slots, counted in 32 bits: 2^31 at most.  Above that the ring's size
 * doubled an unsigned int past 2^31 to 0 and pp_pool_create() never
 * returned, so the refusal runs in a child killed after 10 s.  A pcp_high
 * far above a small pool's pages is fine.
 */
static void test_ring_slots(void)
{
	struct pp_pool_config cfg;
	struct child_result res;
	struct pp_pool *pool;
	char how[32];
	bool ran;

	pp_pool_config_init(&cfg);
	cfg.nr_pages = (1UL << 31) + 1;
	cfg.pcp_high = UINT_MAX;
	cfg.nr_cpus = 1;
	ran = run_in_child(create_refused, &cfg, 10, &res);
	ok(ran && child_exited_ok(&res),
	   "pp_pool_create - pcp_high and nr_pages above 2^31 (a ring of "
	   "2^32 slots): NULL, EINVAL (%s)",
	   child_how(&res, how, sizeof(how)));
	if (res.output[0])
		diag_text("child: ", res.output);

	pp_pool_config_init(&cfg);
	cfg.nr_pages = 64;
	cfg.pcp_high = UINT_MAX;
	cfg.nr_cpus = 1;
	pool = pp_pool_create(&cfg);
	ok(pool != NULL, "pp_pool_create - pcp_high UINT_MAX over 64 pages "
	   "is accepted (%s)", pool ? "a pool" : strerror(errno));
	if (pool)
		pp_pool_destroy(pool);
}

static void test_valid_edges(void)
{
	struct pp_pool_config cfg;
	struct pp_pool *pool;
	struct pp_vmstat st;

	/* batch == high, every watermark == nr_pages, one page. */
	pp_pool_config_init(&cfg);
	cfg.nr_pages = 64;
	cfg.pcp_batch = 8;
	cfg.pcp_high = 8;
	test_config_wmarks(&cfg, 64, 64, 64);
	pool = pp_pool_create(&cfg);
	ok(pool != NULL, "pp_pool_create - batch == high and watermarks == "
	   "nr_pages are accepted");
	if (pool) {
		pp_pool_vmstat(pool, &st);
		ok(st.wmark_min == 64 && st.wmark_low == 64 &&
		   st.wmark_high == 64 && st.pcp_batch == 8 &&
		   st.pcp_high == 8,
		   "pp_pool_vmstat - reports the configured values");
		/* A zone at min has nothing for GFP_KERNEL. */
		ok(pp_alloc_page(pool, PP_GFP_KERNEL) == NULL,
		   "pp_alloc_page - nothing above a min of nr_pages");
		ok(pp_pool_destroy(pool) == 0, "pp_pool_destroy - returns 0");
	} else {
		skip(3, "no pool");
	}

	test_pool_config(&cfg, 1, 1, 1, 1);
	pool = pp_pool_create(&cfg);
	ok(pool != NULL, "pp_pool_create - a pool of one page");
	if (pool) {
		struct pp_page *page = pp_alloc_page(pool, PP_GFP_KERNEL);

		ok(page && pp_page_to_pfn(pool, page) == 0 &&
		   pp_alloc_page(pool, PP_GFP_MEMALLOC) == NULL,
		   "pp_alloc_page - one page, then nothing");
		if (page)
			pp_put_page(pool, page);
		ok(pp_pool_destroy(pool) == 0, "pp_pool_destroy - returns 0");
	} else {
		skip(2, "no pool");
	}
}

static void test_enomem(void)
{
	struct pp_pool_config cfg;
	struct pp_pool *pool;
	int err;

	/* An arena of 2^64 - 4 KiB bytes cannot be mapped. */
	pp_pool_config_init(&cfg);
	cfg.nr_pages = SIZE_MAX >> PP_PAGE_SHIFT;
	cfg.nr_cpus = 1;
	errno = 0;
	pool = pp_pool_create(&cfg);
	err = errno;
	ok(pool == NULL && err == ENOMEM,
	   "pp_pool_create - an arena that cannot be mapped: NULL, ENOMEM "
	   "(%s)", strerror(err));
	if (pool)
		pp_pool_destroy(pool);
}

static void check_wmarks(unsigned long nr_pages, unsigned long min_cfg,
			 unsigned long min, unsigned long low,
			 unsigned long high)
{
	struct pp_pool_config cfg;
	struct pp_pool *pool;
	struct pp_vmstat st;

	pp_pool_config_init(&cfg);
	cfg.nr_pages = nr_pages;
	cfg.nr_cpus = 1;
	cfg.wmark_min = min_cfg;
	pool = pp_pool_create(&cfg);
	if (!pool) {
		ok(0, "pp_pool_create - %lu pages: %s", nr_pages,
		   strerror(errno));
		return;
	}
	pp_pool_vmstat(pool, &st);
	ok(st.wmark_min == min && st.wmark_low == low && st.wmark_high == high,
	   "pp_pool_create - %lu pages%s: watermarks %lu/%lu/%lu (%lu/%lu/%lu)",
	   nr_pages, min_cfg == AUTO ? "" : ", min set", min, low, high,
	   st.wmark_min, st.wmark_low, st.wmark_high);
	pp_pool_destroy(pool);
}

static void test_wmarks(void)
{
	/* sqrt(16 * 256 MiB in KiB) = 2048 KiB = 512 pages; delta 128. */
	check_wmarks(65536, AUTO, 512, 640, 768);
	/* sqrt(16 * 4096) = 256 KiB = 64 pages; delta 16. */
	check_wmarks(1024, AUTO, 64, 80, 96);
	/* 4 GiB: min 2048, delta max(512, 0.1 % = 1048). */
	check_wmarks(1UL << 20, AUTO, 2048, 3096, 4144);
	/* A set min derives low and high: delta max(25, 65). */
	check_wmarks(65536, 100, 100, 165, 230);
	/*
	 * The documented cap: min at most nr_pages / 8, below the 128 KiB
	 * (32-page) floor for pools under 256 pages: 128 pages get 16,
	 * delta max(4, 0).
	 */
	check_wmarks(128, AUTO, 16, 20, 24);
}

static void test_default_pool(void)
{
	struct pp_pool *pool;
	struct pp_vmstat st;
	long cpus = sysconf(_SC_NPROCESSORS_CONF);

	pool = pp_pool_create(NULL);
	ok(pool != NULL, "pp_pool_create - NULL config builds the default "
	   "pool");
	if (!pool) {
		skip(2, "no pool");
		return;
	}
	pp_pool_vmstat(pool, &st);
	ok(st.nr_pages == 65536 && st.nr_free == 65536 &&
	   st.pcp_batch == 63 && st.pcp_high == 378 &&
	   st.nr_cpus == (unsigned int)(cpus > 0 ? cpus : 1),
	   "pp_pool_vmstat - default pool: 65536 pages, batch 63, high 378, "
	   "%u pcp lists", st.nr_cpus);
	ok(pp_pool_destroy(pool) == 0, "pp_pool_destroy - returns 0");
}

static void test_reporting(void)
{
	struct pp_pool *pool = test_pool_create(64, 8, 48, 1);
	struct pp_page *pages[3];
	struct pp_vmstat st;
	unsigned int named = 0;
	char *buf = NULL;
	size_t len = 0;
	FILE *out;

	{
		char hdr[32];

		snprintf(hdr, sizeof(hdr), "%d.%d.%d", PAGEPOOL_VERSION_MAJOR,
			 PAGEPOOL_VERSION_MINOR, PAGEPOOL_VERSION_PATCH);
		ok(strcmp(pp_version(), PACKAGE_VERSION) == 0 &&
		   strcmp(pp_version(), hdr) == 0,
		   "pp_version - %s, the header's PAGEPOOL_VERSION_* (%s)",
		   pp_version(), hdr);
	}
	ok(strcmp(pp_vm_event_name(PP_PGALLOC), "pgalloc") == 0 &&
	   strcmp(pp_vm_event_name(PP_PGFREE), "pgfree") == 0 &&
	   strcmp(pp_vm_event_name(PP_NR_VM_EVENTS), "unknown") == 0,
	   "pp_vm_event_name - pgalloc, pgfree, unknown past the end");
	for (int i = 0; i < PP_NR_VM_EVENTS; i++) {
		const char *name = pp_vm_event_name(i);
		bool unique = strcmp(name, "unknown") != 0 && *name;

		for (int j = 0; j < i; j++)
			unique &= strcmp(name, pp_vm_event_name(j)) != 0;
		named += unique;
	}
	ok(named == PP_NR_VM_EVENTS,
	   "pp_vm_event_name - every counter has its own name (%u)", named);

	for (int i = 0; i < 3; i++)
		pages[i] = pp_alloc_page(pool, PP_GFP_KERNEL);
	pp_pool_vmstat(pool, &st);
	out = open_memstream(&buf, &len);
	if (out) {
		pp_vmstat_print(out, &st);
		fclose(out);
	}
	ok(buf && strstr(buf, "nr_pages 64\n") && strstr(buf, "pgalloc 3\n") &&
	   strstr(buf, "pgfree 0\n") && strstr(buf, "pcp_refill 1\n") &&
	   strstr(buf, "backend buddy\n") &&
	   strstr(buf, "bulk_variant merged\n") &&
	   strstr(buf, "nr_backend_pages 0\n") &&
	   strstr(buf, "backend_grow_pages 0\n"),
	   "pp_vmstat_print - name value lines, backend and bulk variant");
	free(buf);
	for (int i = 0; i < 3; i++)
		pp_put_page(pool, pages[i]);
	pp_pool_destroy(pool);
}

int main(void)
{
	plan_tests(38);
	if (!test_backend_is_buddy()) {
		skip(38, "buddy backend only: %s", "the buddy pool's config");
		return exit_status();
	}
	test_defaults();
	test_env();
	test_invalid();
	test_ring_slots();
	test_valid_edges();
	test_enomem();
	test_wmarks();
	test_default_pool();
	test_reporting();
	return exit_status();
}
