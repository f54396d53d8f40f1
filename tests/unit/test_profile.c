/* SPDX-License-Identifier: MIT */
/*
 * The profiles (enum pp_profile): names, PAGEPOOL_PROFILE, which pools
 * run which, and what only the kernel profile does, seen from outside:
 * pages come off lists threaded through page->lru (list_del()'s poison),
 * post_alloc_hook() clears private and index (the pfmemalloc mark for
 * PP_GFP_MEMALLOC), init_on_alloc zeroes, NR_FREE_PAGES folds per-CPU
 * differentials at stat_threshold, __free_pages() checks its order, and
 * the bad-page checks run where a production kernel runs them: not when
 * a page is freed, but when it goes from a pcp list to the buddy lists
 * (free_pages_prepare() clears the flags a freed page may keep, put_page()
 * drops a memcg charge, and a report names the flag set it checked);
 * with @debug_list, CONFIG_DEBUG_LIST's checks catch a broken link on a
 * pcp list, a buddy list and a consumer's list.
 * The contracts themselves are the whole suite's, run on both profiles
 * (tests/unit.am).  Buddy backend; PP_TEST_BACKEND=jemalloc skips it.
 */
#include <config.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <pagepool/pagepool.h>

#include "capture.h"
#include "pp_test.h"
#include "tap.h"

#define POOL_PAGES	4096UL

/*
 * A pool of @profile, zeroing pages on allocation with @init, its debug
 * checks (CONFIG_DEBUG_VM) on with @debug, else as PAGEPOOL_DEBUG says.
 */
static struct pp_pool *config_pool(enum pp_profile profile, bool init,
				   bool debug)
{
	struct pp_pool_config cfg;
	struct pp_pool *pool;

	test_pool_config(&cfg, POOL_PAGES, 8, 48, 1);
	cfg.profile = profile;
	cfg.init_on_alloc = init;
	if (debug)
		cfg.debug = true;
	pool = pp_pool_create(&cfg);
	if (!pool)
		bail_out("pp_pool_create(%s profile%s): %s",
			 pp_profile_name(profile), debug ? ", debug" : "",
			 strerror(errno));
	test_pool_pin(pool);
	return pool;
}

static struct pp_pool *profile_pool(enum pp_profile profile, bool init)
{
	return config_pool(profile, init, false);
}

/* pp_pool_create(@arg): 0 (the pool destroyed again), or its errno. */
static int create_errno(void *arg)
{
	struct pp_pool *pool = pp_pool_create(arg);

	if (!pool)
		return errno;
	pp_pool_destroy(pool);
	return 0;
}

static void test_names(void)
{
	struct pp_pool_config cfg;
	char err[256];
	int ret;

	ok(pp_profile_from_name("lean") == PP_PROFILE_LEAN &&
	   pp_profile_from_name("kernel") == PP_PROFILE_KERNEL &&
	   !strcmp(pp_profile_name(PP_PROFILE_KERNEL), "kernel") &&
	   pp_profile_from_name("Kernel") == -EINVAL &&
	   pp_profile_from_name(NULL) == -EINVAL &&
	   !strcmp(pp_profile_name(PP_NR_PROFILES), "unknown"),
	   "pp_profile_name/from_name - lean and kernel round-trip, others "
	   "-EINVAL or \"unknown\"");
	unsetenv("PAGEPOOL_PROFILE");
	ret = pp_pool_config_init(&cfg);
	ok(ret == 0 && cfg.profile == PP_PROFILE_LEAN && !cfg.init_on_alloc,
	   "pp_pool_config_init - lean by default, init_on_alloc off");
	setenv("PAGEPOOL_PROFILE", "kernel", 1);
	ret = pp_pool_config_init(&cfg);
	ok(ret == 0 && cfg.profile == PP_PROFILE_KERNEL,
	   "pp_pool_config_init - PAGEPOOL_PROFILE=kernel sets the default");
	setenv("PAGEPOOL_PROFILE", "fast", 1);
	ret = pp_pool_config_init(&cfg);
	err[0] = '\0';
	{
		/* pp_pool_create() names it on stderr: capture that. */
		int e = capture_stderr(create_errno, &cfg, err, sizeof(err));

		ok(ret == -EINVAL && e == EINVAL &&
		   strstr(err, "PAGEPOOL_PROFILE='fast': expected lean or "
			  "kernel"),
		   "PAGEPOOL_PROFILE=fast: pp_pool_config_init -EINVAL, "
		   "pp_pool_create EINVAL naming it");
	}
	unsetenv("PAGEPOOL_PROFILE");
}

static void test_which_pools(void)
{
	struct pp_pool *lean = profile_pool(PP_PROFILE_LEAN, false);
	struct pp_pool *kern = profile_pool(PP_PROFILE_KERNEL, false);
	struct pp_vmstat a, b;

	pp_pool_vmstat(lean, &a);
	pp_pool_vmstat(kern, &b);
	ok(pp_pool_profile(lean) == PP_PROFILE_LEAN &&
	   pp_pool_profile(kern) == PP_PROFILE_KERNEL &&
	   a.profile == PP_PROFILE_LEAN && b.profile == PP_PROFILE_KERNEL,
	   "pp_pool_profile and vmstat - each pool runs the profile asked");
	ok(pp_pool_destroy(lean) == 0 && pp_pool_destroy(kern) == 0,
	   "lean and kernel pools - destroyed");
	if (pp_jemalloc_tcache_slots() == -EOPNOTSUPP) {
		skip(1, "libpagepool built without jemalloc");
	} else {
		struct pp_pool_config cfg;
		struct pp_pool *je;

		test_pool_config(&cfg, POOL_PAGES, 8, 48, 1);
		cfg.backend = PP_BACKEND_JEMALLOC;
		cfg.profile = PP_PROFILE_KERNEL;
		je = pp_pool_create(&cfg);
		ok(je && pp_pool_profile(je) == PP_PROFILE_LEAN &&
		   pp_pool_destroy(je) == 0,
		   "a jemalloc pool asked for the kernel profile runs its own "
		   "paths: lean");
	}
}

/*
 * A kernel pool with a real min watermark: a PP_GFP_MEMALLOC page above
 * low has index 0; once PP_GFP_KERNEL fails (below min, pcp lists
 * drained), one taken ignoring the watermarks has index ~0.
 */
static bool pfmemalloc_marks(void)
{
	struct pp_pool_config cfg;
	struct pp_list_head held = PP_LIST_HEAD_INIT(held);
	struct pp_pool *pool;
	struct pp_page *p, *q;
	bool above, below;

	test_pool_config(&cfg, POOL_PAGES, 8, 48, 1);
	cfg.profile = PP_PROFILE_KERNEL;
	test_config_wmarks(&cfg, 64, PP_WMARK_AUTO, PP_WMARK_AUTO);
	pool = pp_pool_create(&cfg);
	if (!pool)
		return false;
	test_pool_pin(pool);
	p = pp_alloc_page(pool, PP_GFP_MEMALLOC);
	above = p && p->index == 0;
	while ((q = pp_alloc_page(pool, PP_GFP_KERNEL)))
		pp_list_add(&q->lru, &held);
	q = pp_alloc_page(pool, PP_GFP_MEMALLOC);
	below = q && q->index == ~0UL;
	if (p)
		pp_put_page(pool, p);
	if (q)
		pp_put_page(pool, q);
	put_list(pool, &held);
	return above && below && pp_pool_destroy(pool) == 0;
}

/* What a page handed out looks like, in each profile. */
static void test_hand_out(void)
{
	struct pp_pool *lean = profile_pool(PP_PROFILE_LEAN, false);
	struct pp_pool *kern = profile_pool(PP_PROFILE_KERNEL, false);
	struct pp_pool *pools[2] = { lean, kern };
	bool cleared[2], poisoned[2], pfmemalloc;

	for (int i = 0; i < 2; i++) {
		struct pp_page *p = pp_alloc_page(pools[i], PP_GFP_KERNEL), *q;

		p->private = 123;
		p->index = 456;
		p->lru.next = p->lru.prev = NULL;
		pp_put_page(pools[i], p);
		/* LIFO: the same page comes back. */
		q = pp_alloc_page(pools[i], PP_GFP_KERNEL);
		cleared[i] = q == p && q->private == 0 && q->index == 0;
		poisoned[i] = (uintptr_t)q->lru.next == 0xdead000000000100UL &&
			      (uintptr_t)q->lru.prev == 0xdead000000000122UL;
		pp_put_page(pools[i], q);
	}
	ok(cleared[1] && !cleared[0],
	   "kernel profile: post_alloc_hook() clears private, and index "
	   "(the pfmemalloc mark); lean leaves both");
	ok(poisoned[1] && !poisoned[0],
	   "kernel profile: a page comes off a list through its lru, which "
	   "list_del() poisons; lean: a ring, lru untouched");
	pfmemalloc = pfmemalloc_marks();
	ok(pfmemalloc, "kernel profile: a page taken below min with "
	   "PP_GFP_MEMALLOC (ALLOC_NO_WATERMARKS) carries the pfmemalloc "
	   "mark, index ~0, as 5.13 keeps it; one above low does not");
	ok(pp_pool_destroy(lean) == 0 && pp_pool_destroy(kern) == 0,
	   "hand-out pools - destroyed");
}

static void test_init_on_alloc(void)
{
	struct pp_pool *lean = profile_pool(PP_PROFILE_LEAN, true);
	struct pp_pool *kern = profile_pool(PP_PROFILE_KERNEL, true);
	struct pp_pool *pools[2] = { lean, kern };
	bool zero[2];

	for (int i = 0; i < 2; i++) {
		struct pp_page *p = pp_alloc_page(pools[i], PP_GFP_KERNEL);
		unsigned char *addr = pp_page_address(pools[i], p);
		struct pp_page *arr[4] = { NULL };
		unsigned long n;

		memset(addr, 0x5a, PP_PAGE_SIZE);
		pp_put_page(pools[i], p);
		n = pp_alloc_pages_bulk_array(pools[i], PP_GFP_KERNEL, 4, arr);
		zero[i] = n == 4 && arr[0] == p;
		for (unsigned long b = 0; zero[i] && b < PP_PAGE_SIZE; b++)
			zero[i] = addr[b] == 0;
		put_array(pools[i], arr, n);
	}
	ok(zero[1] && !zero[0],
	   "init_on_alloc: the kernel profile zeroes pages it hands out (bulk "
	   "too); the lean profile ignores it");
	ok(pp_pool_destroy(lean) == 0 && pp_pool_destroy(kern) == 0,
	   "init_on_alloc pools - destroyed");
}

/*
 * NR_FREE_PAGES: each refill takes batch (8) pages off the buddy lists,
 * the CPU's differential passes stat_threshold (2 for one CPU and a zone
 * under 128 MiB: 2 * fls(1) * (1 + fls(0))) and is folded, so the folded
 * count follows the exact one to within the threshold.
 */
static void test_folded(void)
{
	struct pp_pool *kern = profile_pool(PP_PROFILE_KERNEL, false);
	struct pp_pool *lean = profile_pool(PP_PROFILE_LEAN, false);
	struct pp_page *pages[200];
	struct pp_vmstat st, sl;
	long gap;

	for (int i = 0; i < 200; i++)
		pages[i] = pp_alloc_page(kern, PP_GFP_KERNEL);
	pp_pool_vmstat(kern, &st);
	gap = (long)st.nr_free - (long)st.nr_free_folded;
	ok(st.nr_free == POOL_PAGES - 200 - st.nr_pcp &&
	   st.nr_free_folded < POOL_PAGES - 100 && gap >= -8 && gap <= 8,
	   "kernel profile: NR_FREE_PAGES folded from the CPU's differential "
	   "follows nr_free to within the threshold (%lu exact, %lu folded)",
	   st.nr_free, st.nr_free_folded);
	for (int i = 0; i < 200; i++)
		pp_put_page(kern, pages[i]);
	pp_pool_drain(kern);
	pp_pool_vmstat(kern, &st);
	pp_pool_vmstat(lean, &sl);
	gap = (long)st.nr_free - (long)st.nr_free_folded;
	ok(st.nr_free == POOL_PAGES && gap >= -8 && gap <= 8 &&
	   sl.nr_free_folded == sl.nr_free,
	   "drained: every page counted back within the threshold (%lu "
	   "folded); lean: nr_free_folded is nr_free", st.nr_free_folded);
	ok(pp_pool_destroy(kern) == 0 && pp_pool_destroy(lean) == 0,
	   "folded-count pools - destroyed");
}

/*
 * The fold itself, exactly: 5.13's __mod_zone_page_state() adds the CPU's
 * differential to the zone once its absolute value is above
 * stat_threshold (2 here: one CPU, a zone under 128 MiB), and keeps it
 * at the threshold.  One page taken refills the list with batch (8)
 * pages: -8 folds at once and leaves 0.  The drain gives the 8 back one
 * by one: +1, +2, +3 folds, +1, +2, +3 folds, +1, +2: the folded count
 * is 2 short of the exact one (a fold at the threshold, or a threshold
 * of 1, would leave 0).  An order-3 block then goes through the buddy
 * path (rmqueue()'s NR_FREE_PAGES of 2^order): 2 - 8 folds, the counts
 * agree; and its free (__free_pages_ok()) folds +8 back.
 */
static bool fold_exact(enum pp_pcp_impl impl, long gap[3])
{
	struct pp_pool_config cfg;
	struct pp_pool *pool;
	struct pp_page *p;
	struct pp_vmstat st;

	test_pool_config(&cfg, POOL_PAGES, 8, 48, 1);
	cfg.profile = PP_PROFILE_KERNEL;
	cfg.pcp_impl = impl;
	pool = pp_pool_create(&cfg);
	if (!pool || pp_pool_pcp_impl(pool) != impl)
		bail_out("pp_pool_create(kernel profile, %s): %s",
			 pp_pcp_impl_name(impl),
			 pool ? "another pcp implementation" : strerror(errno));
	test_pool_pin(pool);
	p = pp_alloc_page(pool, PP_GFP_KERNEL);
	pp_put_page(pool, p);
	pp_pool_drain(pool);
	pp_pool_vmstat(pool, &st);
	gap[0] = (long)st.nr_free - (long)st.nr_free_folded;
	p = pp_alloc_pages(pool, PP_GFP_KERNEL, 3);
	pp_pool_vmstat(pool, &st);
	gap[1] = (long)st.nr_free - (long)st.nr_free_folded;
	if (p)
		pp_free_pages(pool, p, 3);
	pp_pool_vmstat(pool, &st);
	gap[2] = (long)st.nr_free - (long)st.nr_free_folded;
	return p && st.nr_free == POOL_PAGES && pp_pool_destroy(pool) == 0;
}

static void test_fold_exact(void)
{
	long lock[3], rseq[3] = { 2, 0, 0 };
	bool ok_lock = fold_exact(PP_PCP_LOCK, lock), ok_rseq = true;

	if (pp_pcp_rseq_supported(NULL))
		ok_rseq = fold_exact(PP_PCP_RSEQ, rseq);
	ok(ok_lock && ok_rseq && lock[0] == 2 && lock[1] == 0 &&
	   lock[2] == 0 && rseq[0] == 2 && rseq[1] == 0 && rseq[2] == 0,
	   "kernel profile: NR_FREE_PAGES folds above stat_threshold, not at "
	   "it, and an order-3 block's alloc and free fold 8 pages (exact - "
	   "folded: lock %ld, %ld, %ld; rseq %ld, %ld, %ld%s)", lock[0],
	   lock[1], lock[2], rseq[0], rseq[1], rseq[2],
	   pp_pcp_rseq_supported(NULL) ? "" : ", not run: no rseq here");
}

/*
 * With the statistics counted once after the bulk loop (5.14,
 * PP_BULK_BATCHED_STATS), a call counts the pages it took, not the
 * entries it returns: 4 entries populated by single calls, then a bulk
 * call filling the other 12 of 16.  On one node every page allocated is
 * a hit and local: numa_hit and numa_local grow as pgalloc does.
 */
static void numa_batched(struct pp_pool *kern)
{
	struct pp_node_vmstat a, b;
	struct pp_vmstat va, vb;
	struct pp_page *arr[16] = { NULL };
	unsigned long n;

	pp_pool_set_bulk_variant(kern, PP_BULK_BATCHED_STATS);
	pp_pool_node_vmstat(kern, 0, &a);
	pp_pool_vmstat(kern, &va);
	for (int i = 0; i < 4; i++)
		arr[i] = pp_alloc_page(kern, PP_GFP_KERNEL);
	n = pp_alloc_pages_bulk_array(kern, PP_GFP_KERNEL, 16, arr);
	pp_pool_node_vmstat(kern, 0, &b);
	pp_pool_vmstat(kern, &vb);
	ok(n == 16 && vb.events[PP_PGALLOC] - va.events[PP_PGALLOC] == 16 &&
	   b.numa[PP_NUMA_HIT] - a.numa[PP_NUMA_HIT] == 16 &&
	   b.numa[PP_NUMA_LOCAL] - a.numa[PP_NUMA_LOCAL] == 16,
	   "kernel profile, batched statistics: 4 single pages, then a bulk "
	   "call that takes the other 12 of 16 counts 12, not its 16 entries "
	   "(4 + 12: numa_hit +%llu, numa_local +%llu, pgalloc +%llu)",
	   (unsigned long long)(b.numa[PP_NUMA_HIT] - a.numa[PP_NUMA_HIT]),
	   (unsigned long long)(b.numa[PP_NUMA_LOCAL] - a.numa[PP_NUMA_LOCAL]),
	   (unsigned long long)(vb.events[PP_PGALLOC] -
				va.events[PP_PGALLOC]));
	put_array(kern, arr, n);
	pp_pool_set_bulk_variant(kern, PP_BULK_MERGED);
}

/* A one-node pool counts zone_statistics() for real: hit and local. */
static void test_numa_one_node(void)
{
	struct pp_pool *kern = profile_pool(PP_PROFILE_KERNEL, false);
	struct pp_node_vmstat nst;
	struct pp_page *arr[16] = { NULL };
	struct pp_page *p;
	unsigned long n;

	p = pp_alloc_page(kern, PP_GFP_KERNEL);
	n = pp_alloc_pages_bulk_array(kern, PP_GFP_KERNEL, 16, arr);
	pp_pool_node_vmstat(kern, 0, &nst);
	ok(nst.numa[PP_NUMA_HIT] == 1 + n && nst.numa[PP_NUMA_LOCAL] == 1 + n &&
	   nst.numa[PP_NUMA_MISS] == 0 && nst.numa[PP_NUMA_OTHER] == 0,
	   "kernel profile, one node: numa_hit and numa_local count every "
	   "page (%llu, %llu of %lu)",
	   (unsigned long long)nst.numa[PP_NUMA_HIT],
	   (unsigned long long)nst.numa[PP_NUMA_LOCAL], 1 + n);
	pp_put_page(kern, p);
	put_array(kern, arr, n);
	numa_batched(kern);
	ok(pp_pool_destroy(kern) == 0, "numa pool - destroyed");
}

struct misuse {
	enum pp_profile profile;
	int what;
};

/*
 * page_flags bits of alloc/kernel.h (include/linux/page-flags.h's order):
 * PG_locked is one of PAGE_FLAGS_CHECK_AT_FREE; PG_referenced and
 * PG_uptodate, which a page cache leaves on the pages it frees, only of
 * PAGE_FLAGS_CHECK_AT_PREP, cleared by free_pages_prepare().
 */
#define TEST_PG_LOCKED		(1ULL << 0)
#define TEST_PG_REFERENCED	(1ULL << 1)
#define TEST_PG_UPTODATE	(1ULL << 2)

/* Every page of @pool taken, then put back: each passes the refill check. */
static void take_every_page(struct pp_pool *pool)
{
	struct pp_list_head held = PP_LIST_HEAD_INIT(held);
	struct pp_page *q;

	while ((q = pp_alloc_page(pool, PP_GFP_KERNEL)))
		pp_list_add(&q->lru, &held);
	put_list(pool, &held);
}

static void misuse_child(void *arg)
{
	const struct misuse *m = arg;
	struct pp_pool *pool = profile_pool(m->profile, false);
	struct pp_page *p = pp_alloc_page(pool, PP_GFP_KERNEL);

	switch (m->what) {
	case 0:	/* __free_pages() with the wrong order */
		pp_free_pages(pool, p, 1);
		break;
	case 1:	/* a mapping left on a freed page, then the drain */
		p->mapping = (void *)0x1000;
		pp_put_page(pool, p);
		pp_pool_drain(pool);
		break;
	case 2:	/* a mapping with PAGE_MAPPING_ANON: cleared on free */
		p->mapping = (void *)0x1001;
		pp_put_page(pool, p);
		pp_pool_drain(pool);
		break;
	case 3:	/* a tail page's mark in lru.next */
		p->lru.next = (void *)((uintptr_t)&p->lru | 1);
		pp_put_page(pool, p);
		break;
	case 4:	/* PG_referenced and PG_uptodate: cleared on free */
		p->page_flags |= TEST_PG_REFERENCED | TEST_PG_UPTODATE;
		pp_put_page(pool, p);
		pp_pool_drain(pool);
		take_every_page(pool);
		break;
	case 5:	/* a memcg charge: mem_cgroup_uncharge() on the last put */
		p->memcg = 1;
		pp_put_page(pool, p);
		pp_pool_drain(pool);
		break;
	case 6:	/* PG_locked on a page freed, debug checks on */
		pp_put_page(pool, p);
		pp_pool_destroy(pool);
		pool = config_pool(PP_PROFILE_KERNEL, false, true);
		p = pp_alloc_page(pool, PP_GFP_KERNEL);
		p->page_flags |= TEST_PG_LOCKED;
		pp_put_page(pool, p);
		break;
	case 7:	/* a free page's flags written after its last put */
		pp_put_page(pool, p);
		pp_pool_drain(pool);
		p->page_flags |= TEST_PG_REFERENCED;
		take_every_page(pool);
		break;
	}
	exit(pp_pool_destroy(pool) == 0 ? 0 : 3);
}

/*
 * Misuse @what (misuse_child()) on a @profile pool, in a child: with
 * @text it must abort saying @text, without it exit 0.  The child's
 * output is shown when it does not.
 */
static bool misuse(enum pp_profile profile, int what, const char *text,
		   struct child_result *res)
{
	struct misuse m = { profile, what };
	bool as_said;

	if (!run_in_child(misuse_child, &m, 30, res))
		return false;
	if (!text)
		as_said = child_exited_ok(res);
	else
		as_said = child_aborted(res) && strstr(res->output, text);
	if (!as_said)
		diag_text("child: ", res->output);
	return as_said;
}

static void test_checks(void)
{
	struct child_result res;
	bool k, l;

	k = misuse(PP_PROFILE_KERNEL, 0, "allocated with order 0, freed with "
		   "order 1", &res);
	l = misuse(PP_PROFILE_LEAN, 0, "allocated with order 0, freed with "
		   "order 1", &res);
	ok(k && l, "pp_free_pages - an order other than the block's is "
	   "reported and aborts, both profiles");
	k = misuse(PP_PROFILE_KERNEL, 1, "bad because: non-NULL mapping",
		   &res);
	l = misuse(PP_PROFILE_LEAN, 1, NULL, &res);
	ok(k && l, "kernel profile: a page freed with a mapping is a bad page "
	   "when it goes to the buddy lists (bulkfree_pcp_prepare()), not "
	   "before; the lean profile does not look");
	k = misuse(PP_PROFILE_KERNEL, 2, NULL, &res);
	ok(k, "kernel profile: a mapping with PAGE_MAPPING_ANON set is "
	   "cleared by free_pages_prepare(), no bad page");
	k = misuse(PP_PROFILE_KERNEL, 3, "compound_head", &res);
	ok(k, "kernel profile: put_page() of a page whose lru.next carries a "
	   "tail page's bit is reported (compound_head())");
	k = misuse(PP_PROFILE_KERNEL, 4, NULL, &res);
	l = misuse(PP_PROFILE_KERNEL, 5, NULL, &res);
	ok(k && l, "kernel profile: PG_referenced and PG_uptodate left on a "
	   "freed page are cleared (free_pages_prepare()), a memcg charge "
	   "dropped (mem_cgroup_uncharge()): no bad page when the page goes "
	   "to the buddy lists or comes back");
	k = misuse(PP_PROFILE_KERNEL, 6, "bad because: PAGE_FLAGS_CHECK_AT_FREE "
		   "flag(s) set", &res);
	l = misuse(PP_PROFILE_KERNEL, 7, "bad because: PAGE_FLAGS_CHECK_AT_PREP "
		   "flag(s) set", &res);
	ok(k && l, "kernel profile: PG_locked on a page freed with debug checks "
	   "on is a bad page of PAGE_FLAGS_CHECK_AT_FREE; a flag written on "
	   "a free page, one of PAGE_FLAGS_CHECK_AT_PREP when a refill takes "
	   "it");
}

/* --- CONFIG_DEBUG_LIST (@debug_list) ------------------------------------ */

static void test_debug_list_env(void)
{
	struct pp_pool_config cfg;
	char err[256] = "";
	int ret, e;

	unsetenv("PAGEPOOL_DEBUG_LIST");
	ret = pp_pool_config_init(&cfg);
	ok(ret == 0 && cfg.debug_list, "pp_pool_config_init - debug_list on "
	   "without PAGEPOOL_DEBUG_LIST");
	setenv("PAGEPOOL_DEBUG_LIST", "0", 1);
	ret = pp_pool_config_init(&cfg);
	ok(ret == 0 && !cfg.debug_list, "PAGEPOOL_DEBUG_LIST=0 - debug_list "
	   "off");
	setenv("PAGEPOOL_DEBUG_LIST", "yes", 1);
	ret = pp_pool_config_init(&cfg);
	e = capture_stderr(create_errno, &cfg, err, sizeof(err));
	ok(ret == -EINVAL && e == EINVAL &&
	   strstr(err, "PAGEPOOL_DEBUG_LIST='yes': expected 0 (list checks "
		  "off) or 1 (on)"),
	   "PAGEPOOL_DEBUG_LIST=yes: pp_pool_config_init -EINVAL, "
	   "pp_pool_create EINVAL naming it");
	unsetenv("PAGEPOOL_DEBUG_LIST");
}

static struct pp_pool *debug_list_pool(enum pp_profile profile, bool on,
				       enum pp_pcp_impl impl)
{
	struct pp_pool_config cfg;
	struct pp_pool *pool;

	test_pool_config(&cfg, POOL_PAGES, 8, 48, 1);
	cfg.profile = profile;
	cfg.debug_list = on;
	cfg.pcp_impl = impl;
	pool = pp_pool_create(&cfg);
	if (!pool)
		bail_out("pp_pool_create(debug_list): %s", strerror(errno));
	test_pool_pin(pool);
	return pool;
}

struct list_misuse {
	bool on;
	int what;
	enum pp_pcp_impl impl;
};

static void list_misuse_child(void *arg)
{
	const struct list_misuse *m = arg;
	struct pp_pool *pool = debug_list_pool(PP_PROFILE_KERNEL, m->on,
					       m->impl);
	struct pp_page *arr[2] = { NULL, NULL }, *p, *q;
	struct pp_list_head head = PP_LIST_HEAD_INIT(head);

	switch (m->what) {
	case 0:	/* a write to a free pcp page's lru.prev, then a bulk call */
		if (pp_alloc_pages_bulk_array(pool, PP_GFP_KERNEL, 2, arr) != 2)
			exit(4);
		p = arr[0];
		q = arr[1];
		arr[0] = arr[1] = NULL;
		pp_put_page(pool, q);
		pp_put_page(pool, p);	/* the list: p, q, ... */
		q->lru.prev = &q->lru;
		if (pp_alloc_pages_bulk_array(pool, PP_GFP_KERNEL, 2, arr) != 2)
			exit(4);
		pp_put_page(pool, arr[0]);
		pp_put_page(pool, arr[1]);
		break;
	case 1:	/* the first block on a buddy list points at another */
		p = pp_pfn_to_page(pool, 0);
		p->lru.next = &pp_pfn_to_page(pool, 1)->lru;
		q = pp_alloc_page(pool, PP_GFP_KERNEL);
		if (q)
			pp_put_page(pool, q);
		break;
	case 2:	/* list_del() of a page a pcp list gave (poisoned) */
		p = pp_alloc_page(pool, PP_GFP_KERNEL);
		pp_list_del_check(&p->lru);
		break;
	case 3:	/* list_add() next to a neighbour that is not one */
		p = pp_alloc_page(pool, PP_GFP_KERNEL);
		q = pp_alloc_page(pool, PP_GFP_KERNEL);
		pp_list_add(&p->lru, &head);
		pp_list_add_check(&q->lru, &head, &head);
		break;
	}
	_exit(0);	/* the pool is this child's copy, left as it is */
}

static bool list_misuse_impl(bool on, int what, enum pp_pcp_impl impl,
			     const char *text, struct child_result *res)
{
	struct list_misuse m = { on, what, impl };

	if (!run_in_child(list_misuse_child, &m, 30, res))
		return false;
	if (!text)
		return child_exited_ok(res);
	if (!(child_aborted(res) && strstr(res->output, text))) {
		diag_text("child: ", res->output);
		return false;
	}
	return true;
}

static bool list_misuse(bool on, int what, const char *text,
			struct child_result *res)
{
	return list_misuse_impl(on, what, PP_PCP_AUTO, text, res);
}

static void test_debug_list(void)
{
	struct pp_pool *lean = debug_list_pool(PP_PROFILE_LEAN, true,
					       PP_PCP_AUTO);
	struct pp_pool *kern = debug_list_pool(PP_PROFILE_KERNEL, true,
					       PP_PCP_AUTO);
	struct child_result res;
	bool on, off;

	ok(pp_pool_debug_list(kern) && !pp_pool_debug_list(lean),
	   "pp_pool_debug_list - the kernel profile runs the list checks "
	   "asked for, the lean profile never");
	ok(pp_pool_destroy(lean) == 0 && pp_pool_destroy(kern) == 0,
	   "debug_list pools - destroyed");
	/* Both pcp implementations: the lock's, and the rseq sections'. */
	on = list_misuse_impl(true, 0, PP_PCP_LOCK, "list_del corruption: "
			      "pcp page", &res);
	off = list_misuse_impl(false, 0, PP_PCP_LOCK, NULL, &res);
	if (pp_pcp_rseq_supported(NULL)) {
		on = on && list_misuse_impl(true, 0, PP_PCP_RSEQ,
					    "list_del corruption: pcp page",
					    &res);
		off = off && list_misuse_impl(false, 0, PP_PCP_RSEQ, NULL,
					      &res);
	}
	ok(on && off, "debug_list: a free pcp page whose lru.prev was "
	   "overwritten is reported when a bulk call takes it off the list "
	   "(list_del corruption), and aborts, with %s; without the checks "
	   "it is not looked at", pp_pcp_rseq_supported(NULL) ?
	   "the lock and the rseq lists" : "the lock lists (no rseq here)");
	ok(list_misuse(true, 1, "list_del corruption", &res),
	   "debug_list: a buddy block whose lru.next was overwritten is "
	   "reported when the allocator takes it");
	on = list_misuse(true, 2, "next is LIST_POISON1 (deleted before)",
			 &res) &&
	     list_misuse(true, 3, "list_add corruption", &res);
	ok(on, "pp_list_del_check and pp_list_add_check - an entry list_del() "
	   "poisoned and a neighbour whose link does not match are reported");
}

int main(void)
{
	plan_tests(34);
	if (!test_backend_is_buddy()) {
		skip(34, "the profiles are the buddy backend's");
		return exit_status();
	}
	test_names();
	test_which_pools();
	test_hand_out();
	test_init_on_alloc();
	test_folded();
	test_fold_exact();
	test_numa_one_node();
	test_checks();
	test_debug_list_env();
	test_debug_list();
	return exit_status();
}
