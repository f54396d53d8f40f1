/* SPDX-License-Identifier: MIT */
/*
 * The plugin adapter's own checks (alloc/plugin.c), on
 * unit/plugin/backend-shared.so, a plugin whose cache is shared by every
 * CPU (the API contracts run in the shared tests on examples/backend-lifo,
 * as plugin/NAME.plugin):
 *
 * - what the plugin keeps outside its per-CPU state comes back: its cache
 *   goes back to the zone only on drain(PP_BACKEND_NO_CPU), which
 *   pp_pool_drain() and the slow path before an allocation fails must
 *   call after the per-CPU drains, and at fini.
 *
 * TEST_SHARED_PLUGIN (tests/unit.am) is the module's path in the build
 * tree.
 */
#include <string.h>

#include <config.h>

#include <pagepool/pagepool.h>

#include "pp_test.h"
#include "tap.h"

#define NR_PAGES	1024

static struct pp_pool *shared_pool(unsigned int nr_cpus)
{
	struct pp_pool_config cfg;

	pp_pool_config_init(&cfg);
	cfg.backend = PP_BACKEND_PLUGIN;
	cfg.backend_plugin = TEST_SHARED_PLUGIN;
	cfg.nr_pages = NR_PAGES;
	cfg.nr_cpus = nr_cpus;
	return test_pool_create_config(&cfg);
}

static void test_drain(void)
{
	struct pp_pool *pool = shared_pool(2);
	struct pp_page *arr[NR_PAGES], *block;
	unsigned long n;
	uint64_t drains;
	struct pp_vmstat st;

	memset(arr, 0, sizeof(arr));
	n = pp_alloc_pages_bulk_array(pool, PP_GFP_KERNEL, 200, arr);
	pp_release_pages(pool, arr, n);
	pp_pool_vmstat(pool, &st);
	ok(n == 200 && st.nr_backend == 200 &&
	   st.nr_free == NR_PAGES - 200,
	   "plugin - 200 pages freed stay in its shared cache (held %lu, "
	   "free %lu)", st.nr_backend, st.nr_free);
	pp_pool_drain(pool);
	pp_pool_vmstat(pool, &st);
	ok(st.nr_free == st.nr_pages && st.nr_backend == 0,
	   "pp_pool_drain - drain(PP_BACKEND_NO_CPU) gives the shared cache "
	   "back: every page in the buddy lists (free %lu of %lu, held %lu)",
	   st.nr_free, st.nr_pages, st.nr_backend);

	/* Every page out, then all of them in the cache: the zone is empty. */
	for (n = 0; n < NR_PAGES &&
	     (arr[n] = pp_alloc_page(pool, PP_GFP_KERNEL)); n++)
		;
	pp_release_pages(pool, arr, n);
	drains = vm_event(pool, PP_DRAIN_ALL);
	block = pp_alloc_pages(pool, PP_GFP_KERNEL, 3);
	ok(n == NR_PAGES && block &&
	   vm_event(pool, PP_DRAIN_ALL) == drains + 1,
	   "pp_alloc_pages - order 3 with every page in the shared cache: "
	   "the slow path's drain gives them back and the retry succeeds "
	   "(%lu pages cached, %s)", n, block ? "allocated" : "NULL");
	if (block)
		pp_put_page(pool, block);

	memset(arr, 0, sizeof(arr));
	n = pp_alloc_pages_bulk_array(pool, PP_GFP_KERNEL, 10, arr);
	pp_release_pages(pool, arr, n);
	pp_pool_vmstat(pool, &st);
	ok(n == 10 && st.nr_backend > 0 && pp_pool_destroy(pool) == 0,
	   "pp_pool_destroy - pages in the shared cache (%lu): fini gives "
	   "them back, returns 0", st.nr_backend);
}

int main(void)
{
	plan_tests(4);
	test_drain();
	return exit_status();
}
