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
 *   call after the per-CPU drains, and at fini;
 * - a block it hands out at a pfn that is not aligned to its order
 *   (PP_SHARED_PLUGIN=misaligned) is reported as a bad page naming the
 *   plugin, and aborts, in a child.
 *
 * TEST_SHARED_PLUGIN (tests/unit.am) is the module's path in the build
 * tree.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <config.h>

#include <pagepool/pagepool.h>

#include "capture.h"
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

static void child_misaligned(void *arg)
{
	struct pp_pool *pool;
	struct pp_page *block;

	(void)arg;
	if (setenv("PP_SHARED_PLUGIN", "misaligned", 1))
		exit(2);
	pool = shared_pool(1);
	block = pp_alloc_pages(pool, PP_GFP_KERNEL, 2);
	if (block)
		pp_put_page(pool, block);
}

static void test_misaligned(void)
{
	static const char call[] = "Bad page state in pp_alloc_pages "
				   "(backend plugin shared, " TEST_SHARED_PLUGIN
				   ")";
	static const char reason[] = "bad because: the plugin handed out a "
				     "block not aligned to its order";
	struct child_result res;
	unsigned long pfn = 0;
	const char *at;
	char how[32];
	bool said;

	if (!run_in_child(child_misaligned, NULL, 10, &res))
		bail_out("fork: %s", strerror(errno));
	at = strstr(res.output, "pfn 0x");
	said = strstr(res.output, call) && strstr(res.output, reason) && at &&
	       sscanf(at, "pfn 0x%lx", &pfn) == 1;
	ok(child_aborted(&res) && said && (pfn & 3),
	   "pp_alloc_pages - an order-2 block at pfn 0x%lx from the plugin: "
	   "a bad page naming the plugin, not aligned to its order, abort "
	   "(%s)", pfn, child_how(&res, how, sizeof(how)));
	if (!said)
		diag_text("child stderr: ", res.output);
}

int main(void)
{
	plan_tests(5);
	test_drain();
	test_misaligned();
	return exit_status();
}
