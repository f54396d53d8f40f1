/* SPDX-License-Identifier: MIT */
/*
 * Pools of several nodes (pp_pool_config.nr_nodes): the configuration's
 * rules, the arena's split and page -> node, the single-page path's
 * zonelist walk (nearest first, none past the preferred node with
 * PP_GFP_THISNODE) and its numa_* counters on 2 and 4 nodes, the bulk
 * path's first-zone rule, pp_alloc_pages_bulk_array_node(), the
 * interleave policy's split, and frees going back to the page's own node.
 *
 * The pools have one CPU, so the thread's CPU is CPU 0 (pinned there on
 * rseq lists, see test_pool_pin()) and its node is cpu_to_node[0].
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <pagepool/pagepool.h>

#include "pp_test.h"
#include "tap.h"

/* A one-CPU pool of @nodes nodes, watermarks 0, CPU 0 on node @local. */
static struct pp_pool *numa_pool(unsigned long nr_pages, unsigned int nodes,
				 unsigned int local,
				 const unsigned int *distance)
{
	struct pp_pool_config cfg;
	unsigned int map[1] = { local };

	test_pool_config(&cfg, nr_pages, 8, 48, 1);
	cfg.nr_nodes = nodes;
	cfg.cpu_to_node = map;
	cfg.node_distance = distance;
	return test_pool_create_config(&cfg);
}

static struct pp_node_vmstat node_stat(struct pp_pool *pool, unsigned int nid)
{
	struct pp_node_vmstat st;

	if (pp_pool_node_vmstat(pool, nid, &st))
		bail_out("pp_pool_node_vmstat(%u) failed", nid);
	return st;
}

/* pp_pool_create() of @cfg fails with EINVAL (and creates nothing). */
static bool create_einval(const struct pp_pool_config *cfg)
{
	struct pp_pool *pool;

	errno = 0;
	pool = pp_pool_create(cfg);
	if (pool) {
		pp_pool_destroy(pool);
		return false;
	}
	return errno == EINVAL;
}

static void test_config_rules(void)
{
	struct pp_pool_config cfg;
	unsigned int map[2] = { 0, 2 };
	unsigned int diag_bad[4] = { 10, 20, 20, 11 };
	unsigned int near[4] = { 10, 10, 10, 10 };
	unsigned int far[4] = { 10, 255, 255, 10 };
	/* 2 CPUs on 2 nodes, watermarks 0, and one thing the rules refuse. */
	const struct {
		unsigned long nr_pages;
		const unsigned int *cpu_to_node, *node_distance;
		enum pp_backend backend;
		const char *what;
	} bad[] = {
		{ 4096, map, NULL, PP_BACKEND_BUDDY, "CPU 1 on node 2 of 2" },
		{ 4096, NULL, diag_bad, PP_BACKEND_BUDDY,
		  "node 1 at 11 from itself" },
		{ 4096, NULL, near, PP_BACKEND_BUDDY, "remote distance 10" },
		{ 4096, NULL, far, PP_BACKEND_BUDDY, "remote distance 255" },
		{ 4096, NULL, NULL, PP_BACKEND_JEMALLOC,
		  "jemalloc backend, 2 nodes" },
		{ 1, NULL, NULL, PP_BACKEND_BUDDY, "1 page, 2 nodes" },
	};
	struct pp_pool *pool;

	pp_pool_config_init(&cfg);
	ok(cfg.nr_nodes == 1 && !cfg.cpu_to_node && !cfg.node_distance,
	   "config - default: one node, no map, no distances");
	cfg.nr_pages = 4096;
	cfg.nr_cpus = 2;
	cfg.nr_nodes = PP_MAX_NODES + 1;
	ok(create_einval(&cfg), "config - %u nodes: EINVAL",
	   PP_MAX_NODES + 1);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		pp_pool_config_init(&cfg);
		cfg.nr_pages = bad[i].nr_pages;
		cfg.nr_cpus = 2;
		cfg.nr_nodes = 2;
		cfg.cpu_to_node = bad[i].cpu_to_node;
		cfg.node_distance = bad[i].node_distance;
		cfg.backend = bad[i].backend;
		cfg.wmark_min = cfg.wmark_low = cfg.wmark_high = 0;
		ok(create_einval(&cfg), "config - %s: EINVAL", bad[i].what);
	}

	pp_pool_config_init(&cfg);
	cfg.nr_pages = 1024;
	cfg.nr_nodes = 0;
	pool = pp_pool_create(&cfg);
	ok(pool && pp_pool_nr_nodes(pool) == 1, "config - 0 nodes is one");
	if (pool)
		pp_pool_destroy(pool);
}

static void test_layout(void)
{
	struct pp_pool_config cfg;
	struct pp_node_vmstat n0, n1, n2;
	struct pp_page *page;
	struct pp_pool *pool;
	struct pp_vmstat st;
	unsigned long blocks = 0;
	bool rr = true;

	pp_pool_config_init(&cfg);
	cfg.nr_pages = 3001;
	cfg.nr_cpus = 5;
	cfg.nr_nodes = 3;
	pool = test_pool_create_config(&cfg);
	n0 = node_stat(pool, 0);
	n1 = node_stat(pool, 1);
	n2 = node_stat(pool, 2);
	ok(n0.start_pfn == 0 && n0.nr_pages == 1000 &&
	   n1.start_pfn == 1000 && n1.nr_pages == 1000 &&
	   n2.start_pfn == 2000 && n2.nr_pages == 1001,
	   "layout - 3001 pages on 3 nodes: 1000, 1000, 1001 (%lu, %lu, %lu)",
	   n0.nr_pages, n1.nr_pages, n2.nr_pages);
	ok(n0.nr_free + n1.nr_free + n2.nr_free == 3001,
	   "layout - every page free in its node's buddy lists");
	pp_pool_vmstat(pool, &st);
	for (unsigned int o = 0; o < PP_NR_ORDERS; o++)
		blocks += st.free_area[o] << o;
	ok(blocks == 3001 && st.nr_free == 3001,
	   "layout - the pool's free_area sums every node's buddy lists: "
	   "%lu pages in its blocks, nr_free %lu", blocks, st.nr_free);
	ok(n0.wmark_min && n0.wmark_min == n1.wmark_min &&
	   n2.wmark_min >= n0.wmark_min &&
	   st.wmark_min == n0.wmark_min + n1.wmark_min + n2.wmark_min,
	   "layout - watermarks shared by size (node 0 min %lu), the pool's "
	   "their sum (%lu)", n0.wmark_min, st.wmark_min);
	for (unsigned int c = 0; c < 5; c++)
		rr &= pp_pool_cpu_to_node(pool, c) == (int)(c % 3);
	ok(rr && pp_pool_cpu_to_node(pool, 5) == -EINVAL,
	   "layout - CPUs round robin over the nodes");
	ok(pp_pool_node_distance(pool, 1, 1) == 10 &&
	   pp_pool_node_distance(pool, 0, 2) == 20 &&
	   pp_pool_node_distance(pool, 3, 0) == -EINVAL,
	   "layout - default distances: 10 local, 20 remote");
	page = pp_pfn_to_page(pool, 999);
	ok(pp_page_to_nid(pool, page) == 0 &&
	   pp_page_to_nid(pool, pp_pfn_to_page(pool, 1000)) == 1 &&
	   pp_page_to_nid(pool, pp_pfn_to_page(pool, 3000)) == 2,
	   "layout - pp_page_to_nid() by pfn range");
	ok(pp_pool_destroy(pool) == 0, "layout - destroy");
}

/*
 * Allocate every page of a 4-node pool with single pages from a CPU of
 * node 0, whose zonelist by the distances is 0, 2, 3, 1: each node shows
 * up in that order, and the counters say where each page came from.
 */
static void test_fallback_4(void)
{
	const unsigned int dist[16] = {
		10, 30, 15, 20,
		30, 10, 20, 15,
		15, 20, 10, 30,
		20, 15, 30, 10,
	};
	struct pp_pool *pool = numa_pool(4096, 4, 0, dist);
	static struct pp_page *pages[4096];
	unsigned long got = 0, per_node[4] = { 0 };
	int first_seen[4] = { -1, -1, -1, -1 }, order = 0;
	const unsigned int want_order[4] = { 0, 2, 3, 1 };
	struct pp_node_vmstat st[4];
	bool in_order = true, counters = true;
	struct pp_page *page;

	while (got < 4096 && (page = pp_alloc_page(pool, PP_GFP_KERNEL))) {
		int nid = pp_page_to_nid(pool, page);

		if (first_seen[nid] < 0)
			first_seen[nid] = order++;
		per_node[nid]++;
		pages[got++] = page;
	}
	for (unsigned int i = 0; i < 4; i++)
		in_order &= first_seen[want_order[i]] == (int)i;
	ok(got == 4096, "fallback 4 nodes - every page had (%lu)", got);
	ok(in_order, "fallback 4 nodes - zonelist 0, 2, 3, 1 by distance "
	   "(first seen: %d %d %d %d)", first_seen[0], first_seen[1],
	   first_seen[2], first_seen[3]);
	for (unsigned int n = 0; n < 4; n++)
		st[n] = node_stat(pool, n);
	counters &= st[0].numa[PP_NUMA_HIT] == per_node[0] &&
		    st[0].numa[PP_NUMA_LOCAL] == per_node[0] &&
		    st[0].numa[PP_NUMA_MISS] == 0 &&
		    st[0].numa[PP_NUMA_FOREIGN] == 4096 - per_node[0];
	for (unsigned int n = 1; n < 4; n++)
		counters &= st[n].numa[PP_NUMA_HIT] == 0 &&
			    st[n].numa[PP_NUMA_MISS] == per_node[n] &&
			    st[n].numa[PP_NUMA_OTHER] == per_node[n] &&
			    st[n].numa[PP_NUMA_LOCAL] == 0 &&
			    st[n].numa[PP_NUMA_FOREIGN] == 0;
	ok(counters, "fallback 4 nodes - numa_hit/local on node 0 (%lu), "
	   "numa_miss/other on the others, numa_foreign on node 0 (%llu)",
	   per_node[0], (unsigned long long)st[0].numa[PP_NUMA_FOREIGN]);
	pp_release_pages(pool, pages, got);
	pp_pool_drain(pool);
	counters = true;
	for (unsigned int n = 0; n < 4; n++) {
		st[n] = node_stat(pool, n);
		counters &= st[n].nr_free == st[n].nr_pages && !st[n].nr_pcp;
	}
	ok(counters, "fallback 4 nodes - released: each node's pages back "
	   "in its own buddy lists");
	ok(pp_pool_destroy(pool) == 0, "fallback 4 nodes - destroy");
}

/*
 * Four nodes at the default distances (10 local, 20 remote), the CPU on
 * node 2: the remote nodes are all as far, so the zonelist takes them in
 * turn from the node on, 2, 3, 0, 1, and single pages show up in that
 * order.
 */
static void test_fallback_4_equal(void)
{
	struct pp_pool *pool = numa_pool(4096, 4, 2, NULL);
	static struct pp_page *pages[4096];
	unsigned long got = 0;
	int first_seen[4] = { -1, -1, -1, -1 }, order = 0;
	const unsigned int want_order[4] = { 2, 3, 0, 1 };
	bool in_order = true;
	struct pp_page *page;

	while (got < 4096 && (page = pp_alloc_page(pool, PP_GFP_KERNEL))) {
		int nid = pp_page_to_nid(pool, page);

		if (first_seen[nid] < 0)
			first_seen[nid] = order++;
		pages[got++] = page;
	}
	for (unsigned int i = 0; i < 4; i++)
		in_order &= first_seen[want_order[i]] == (int)i;
	ok(got == 4096 && in_order, "fallback 4 equal nodes - zonelist 2, 3, "
	   "0, 1: equal distances in turn from the node on (first seen: %d "
	   "%d %d %d, %lu pages)", first_seen[0], first_seen[1],
	   first_seen[2], first_seen[3], got);
	pp_release_pages(pool, pages, got);
	ok(pp_pool_destroy(pool) == 0, "fallback 4 equal nodes - destroy");
}

/* Two nodes, CPU on node 1: fallback to 0, and PP_GFP_THISNODE. */
static void test_fallback_2_thisnode(void)
{
	struct pp_pool *pool = numa_pool(2048, 2, 1, NULL);
	static struct pp_page *pages[2048];
	unsigned long n = 0, on1 = 0;
	struct pp_node_vmstat s0, s1;
	struct pp_page *page;

	while ((page = pp_alloc_page(pool, PP_GFP_THISNODE))) {
		on1 += pp_page_to_nid(pool, page) == 1;
		pages[n++] = page;
	}
	s0 = node_stat(pool, 0);
	ok(n > 0 && on1 == n && s0.nr_free == 1024,
	   "2 nodes - PP_GFP_THISNODE: %lu pages, all of node 1, node 0 "
	   "untouched", n);
	page = pp_alloc_page(pool, PP_GFP_KERNEL);
	ok(page && pp_page_to_nid(pool, page) == 0,
	   "2 nodes - without it the next page comes from node 0");
	if (page)
		pages[n++] = page;
	s0 = node_stat(pool, 0);
	s1 = node_stat(pool, 1);
	ok(s0.numa[PP_NUMA_MISS] == 1 && s0.numa[PP_NUMA_OTHER] == 1 &&
	   s1.numa[PP_NUMA_FOREIGN] == 1 && s1.numa[PP_NUMA_HIT] == n - 1 &&
	   s1.numa[PP_NUMA_LOCAL] == n - 1,
	   "2 nodes - counters: node 0 miss 1 other 1, node 1 foreign 1 "
	   "hit %lu local %lu", (unsigned long)s1.numa[PP_NUMA_HIT],
	   (unsigned long)s1.numa[PP_NUMA_LOCAL]);
	/* An order-2 block from the remote node counts 4 pages. */
	page = pp_alloc_pages(pool, PP_GFP_KERNEL, 2);
	s0 = node_stat(pool, 0);
	ok(page && pp_page_to_nid(pool, page) == 0 &&
	   s0.numa[PP_NUMA_MISS] == 5,
	   "2 nodes - an order-2 block counts 4 pages");
	if (page)
		pp_put_page(pool, page);
	pp_release_pages(pool, pages, n);
	ok(pp_pool_destroy(pool) == 0, "2 nodes - destroy: every page back");
}

/*
 * A block never merges with a buddy past its zone's end.  Node 0 of a
 * 2000-page pool ends at pfn 1000, inside an aligned 16-page block: its
 * last block, pfns 992-999, has node 1's first (1000-1007) for buddy.
 * Every page of node 0 taken and given back (the pcp lists drained), node
 * 0 must still hand out exactly its own 1000 pages, and node 1 its own:
 * a merge across the border would give node 0 eight of node 1's pages.
 */
static void test_no_merge_across_nodes(void)
{
	struct pp_pool *pool = numa_pool(2000, 2, 0, NULL);
	static struct pp_page *pages[2000];
	unsigned long n = 0, foreign = 0, n1 = 0;
	struct pp_node_vmstat s0, s1;
	struct pp_page *page;

	for (int round = 0; round < 2; round++) {
		n = foreign = 0;
		while ((page = pp_alloc_page(pool, PP_GFP_THISNODE))) {
			foreign += pp_page_to_nid(pool, page) != 0;
			pages[n++] = page;
		}
		pp_release_pages(pool, pages, n);
		pp_pool_drain(pool);
	}
	s0 = node_stat(pool, 0);
	s1 = node_stat(pool, 1);
	ok(n == 1000 && !foreign && s0.nr_free == 1000 && s1.nr_free == 1000,
	   "2 nodes - node 0's pages taken and given back twice: %lu pages, "
	   "%lu of node 1, no merge across the nodes' border", n, foreign);
	/* Then every page of the pool: each node's own 1000. */
	n = 0;
	while ((page = pp_alloc_page(pool, PP_GFP_KERNEL))) {
		n1 += pp_page_to_nid(pool, page) == 1;
		pages[n++] = page;
	}
	ok(n == 2000 && n1 == 1000,
	   "2 nodes - then every page of the pool once: %lu, %lu of node 1",
	   n, n1);
	pp_release_pages(pool, pages, n);
	ok(pp_pool_destroy(pool) == 0, "2 nodes - border: destroy, every "
	   "page back");
}

/*
 * The bulk path fills from the preferred node's zone only; short of it,
 * one page through the zonelist walk, counted as why.
 */
static void test_bulk_first_zone(void)
{
	struct pp_pool *pool = numa_pool(2048, 2, 0, NULL);
	static struct pp_page *held[1024];
	struct pp_page *arr[16] = { NULL };
	struct pp_node_vmstat s0, s1, b0;
	struct pp_vmstat a, b;
	unsigned long n, k = 0, remote = 0;

	n = pp_alloc_pages_bulk_array(pool, PP_GFP_KERNEL, 16, arr);
	for (unsigned long i = 0; i < n; i++)
		remote += pp_page_to_nid(pool, arr[i]) != 0;
	s0 = node_stat(pool, 0);
	ok(n == 16 && !remote && s0.numa[PP_NUMA_HIT] == 16 &&
	   s0.numa[PP_NUMA_LOCAL] == 16,
	   "bulk - 16 pages from the local node, 16 local hits");
	pp_release_pages(pool, arr, n);
	memset(arr, 0, sizeof(arr));

	n = pp_alloc_pages_bulk_array_node(pool, PP_GFP_KERNEL, 1, 16, arr);
	remote = 0;
	for (unsigned long i = 0; i < n; i++)
		remote += pp_page_to_nid(pool, arr[i]) == 1;
	s1 = node_stat(pool, 1);
	ok(n == 16 && remote == 16 && s1.numa[PP_NUMA_HIT] == 16 &&
	   s1.numa[PP_NUMA_OTHER] == 16 && s1.numa[PP_NUMA_MISS] == 0,
	   "bulk _node(1) - 16 pages of node 1: hits there, other (CPU on "
	   "node 0)");
	pp_release_pages(pool, arr, n);
	memset(arr, 0, sizeof(arr));
	s1 = node_stat(pool, 1);
	ok(s1.nr_pcp == 16, "bulk _node(1) - released onto node 1's pcp "
	   "list of this CPU (%lu there)", s1.nr_pcp);

	/*
	 * Take all of node 0: short for a bulk call, and for the single
	 * page of its fallback too, which then goes on to node 1.
	 */
	while (k < 1024 && (held[k] = pp_alloc_page(pool, PP_GFP_THISNODE)))
		k++;
	pp_pool_drain(pool);
	b0 = node_stat(pool, 0);
	pp_pool_vmstat(pool, &a);
	n = pp_alloc_pages_bulk_array(pool, PP_GFP_KERNEL, 16, arr);
	pp_pool_vmstat(pool, &b);
	s0 = node_stat(pool, 0);
	ok(n == 1 && arr[0] && pp_page_to_nid(pool, arr[0]) == 1 &&
	   vm_delta(&a, &b, PP_BULK_FALLBACK_WATERMARK) == 1 &&
	   s0.numa[PP_NUMA_BULK_FALLBACK_REMOTE] ==
	   b0.numa[PP_NUMA_BULK_FALLBACK_REMOTE] + 1,
	   "bulk - node 0 empty (%lu of its pages held): one page, from node "
	   "1, counted as bulk_fallback_watermark and node 0's "
	   "bulk_fallback_remote", k);
	pp_release_pages(pool, arr, n);
	memset(arr, 0, sizeof(arr));
	n = pp_alloc_pages_bulk_array(pool, PP_GFP_THISNODE, 16, arr);
	s0 = node_stat(pool, 0);
	ok(n == 0 &&
	   s0.numa[PP_NUMA_BULK_FALLBACK_REMOTE] ==
	   b0.numa[PP_NUMA_BULK_FALLBACK_REMOTE] + 1,
	   "bulk - PP_GFP_THISNODE, node 0 empty: no page, no remote "
	   "fallback counted (%lu)", n);
	pp_release_pages(pool, arr, n);
	pp_release_pages(pool, held, k);
	ok(pp_pool_destroy(pool) == 0, "bulk - destroy: every page back");
}

/*
 * A bulk call for more pages than the whole pool: the preferred zone is
 * short, so the call goes to the single-page path and counts the remote
 * fallback, in both profiles alike (the kernel profile's zonelist walk
 * once stopped before the first zone for such a call and counted none).
 */
static void test_bulk_larger_than_pool(void)
{
	struct pp_pool *pool = numa_pool(1024, 2, 0, NULL);
	struct pp_list_head list = PP_LIST_HEAD_INIT(list);
	struct pp_page **arr = calloc(2048, sizeof(*arr));
	struct pp_node_vmstat s0, b0;
	struct pp_vmstat a, b;
	unsigned long n;

	if (!arr)
		bail_out("calloc: %s", strerror(errno));
	b0 = node_stat(pool, 0);
	pp_pool_vmstat(pool, &a);
	n = pp_alloc_pages_bulk_array_node(pool, PP_GFP_KERNEL, 0, 2048, arr);
	pp_pool_vmstat(pool, &b);
	s0 = node_stat(pool, 0);
	ok(n == 1 && arr[0] && !arr[1] &&
	   vm_delta(&a, &b, PP_BULK_FALLBACK_WATERMARK) == 1 &&
	   s0.numa[PP_NUMA_BULK_FALLBACK_REMOTE] ==
	   b0.numa[PP_NUMA_BULK_FALLBACK_REMOTE] + 1,
	   "bulk array of 2048 on a 1024-page pool - one page, "
	   "bulk_fallback_watermark and node 0's bulk_fallback_remote "
	   "(%lu, remote +%llu)", n,
	   (unsigned long long)(s0.numa[PP_NUMA_BULK_FALLBACK_REMOTE] -
				b0.numa[PP_NUMA_BULK_FALLBACK_REMOTE]));
	pp_release_pages(pool, arr, n);

	b0 = s0;
	n = pp_alloc_pages_bulk_list(pool, PP_GFP_KERNEL, 2048, &list);
	s0 = node_stat(pool, 0);
	ok(n == 1 && s0.numa[PP_NUMA_BULK_FALLBACK_REMOTE] ==
	   b0.numa[PP_NUMA_BULK_FALLBACK_REMOTE] + 1,
	   "bulk list of 2048 on a 1024-page pool - one page, node 0's "
	   "bulk_fallback_remote (%lu)", n);
	put_list(pool, &list);

	b0 = s0;
	memset(arr, 0, 2048 * sizeof(*arr));
	n = pp_alloc_pages_bulk_array(pool, PP_GFP_THISNODE, 2048, arr);
	s0 = node_stat(pool, 0);
	ok(n == 1 && pp_page_to_nid(pool, arr[0]) == 0 &&
	   s0.numa[PP_NUMA_BULK_FALLBACK_REMOTE] ==
	   b0.numa[PP_NUMA_BULK_FALLBACK_REMOTE],
	   "bulk array of 2048, PP_GFP_THISNODE - one page of node 0, no "
	   "remote fallback counted (%lu)", n);
	pp_release_pages(pool, arr, n);
	free(arr);
	ok(pp_pool_destroy(pool) == 0,
	   "bulk larger than the pool - destroy: every page back");
}

/* Pages of @arr[0, @n) per node. */
static void count_nodes(struct pp_pool *pool, struct pp_page **arr,
			unsigned long n, unsigned long *per_node)
{
	for (unsigned int i = 0; i < 4; i++)
		per_node[i] = 0;
	for (unsigned long i = 0; i < n; i++)
		if (arr[i])
			per_node[pp_page_to_nid(pool, arr[i])]++;
}

static void test_interleave(void)
{
	struct pp_pool *pool = numa_pool(4096, 4, 0, NULL);
	struct pp_mempolicy pol = {
		.mode = PP_MPOL_INTERLEAVE, .nodes = 0xb, .il_prev = 0,
	};
	struct pp_page *arr[64] = { NULL };
	unsigned long n, per[4];

	/* Nodes 0, 1, 3: 10 pages are 4 + 3 + 3, from node 1 on. */
	n = pp_alloc_pages_bulk_array_mempolicy(pool, PP_GFP_KERNEL, &pol, 10,
						arr);
	count_nodes(pool, arr, 10, per);
	ok(n == 10 && per[1] == 4 && per[3] == 3 && per[0] == 3 &&
	   per[2] == 0 && pol.il_prev == 0,
	   "interleave - 10 pages over nodes 0,1,3 after 0: 1:%lu 3:%lu "
	   "0:%lu 2:%lu, il_prev %u", per[1], per[3], per[0], per[2],
	   pol.il_prev);
	ok(pp_page_to_nid(pool, arr[0]) == 1 &&
	   pp_page_to_nid(pool, arr[4]) == 3 &&
	   pp_page_to_nid(pool, arr[7]) == 0,
	   "interleave - each node's share in turn along the array");
	pp_release_pages(pool, arr, 10);
	memset(arr, 0, sizeof(arr));

	pol.il_prev = 1;
	n = pp_alloc_pages_bulk_array_mempolicy(pool, PP_GFP_KERNEL, &pol, 2,
						arr);
	count_nodes(pool, arr, 2, per);
	ok(n == 2 && per[3] == 1 && per[0] == 1 && pol.il_prev == 1,
	   "interleave - 2 pages on 3 nodes: nodes 3 and 0 get one, 1 none");
	pp_release_pages(pool, arr, 2);
	memset(arr, 0, sizeof(arr));

	pol.mode = PP_MPOL_PREFERRED;
	pol.nodes = 0x4;
	n = pp_alloc_pages_bulk_array_mempolicy(pool, PP_GFP_KERNEL, &pol, 8,
						arr);
	count_nodes(pool, arr, 8, per);
	ok(n == 8 && per[2] == 8, "preferred - node 2's pages");
	pp_release_pages(pool, arr, 8);
	memset(arr, 0, sizeof(arr));

	n = pp_alloc_pages_bulk_array_mempolicy(pool, PP_GFP_KERNEL, NULL, 8,
						arr);
	count_nodes(pool, arr, 8, per);
	ok(n == 8 && per[0] == 8, "default policy - the local node's pages");
	pp_release_pages(pool, arr, 8);
	ok(pp_pool_destroy(pool) == 0, "interleave - destroy");
}

/* A page freed on another node's CPU goes back to its own node. */
static void test_remote_free(void)
{
	struct pp_pool *pool = numa_pool(2048, 2, 0, NULL);
	struct pp_page *arr[8] = { NULL }, *page;
	struct pp_node_vmstat s0, s1;
	unsigned long n;

	n = pp_alloc_pages_bulk_array_node(pool, PP_GFP_KERNEL, 1, 8, arr);
	page = pp_alloc_page(pool, PP_GFP_KERNEL);
	pp_pool_drain(pool);
	s0 = node_stat(pool, 0);
	s1 = node_stat(pool, 1);
	ok(n == 8 && page && s1.nr_free == 1024 - 8 && s0.nr_free == 1023,
	   "remote free - 8 pages of node 1 out, 1 of node 0");
	pp_put_page(pool, arr[0]);
	pp_release_pages(pool, arr + 1, 7);
	pp_put_page(pool, page);
	s0 = node_stat(pool, 0);
	s1 = node_stat(pool, 1);
	ok(s1.nr_pcp + s1.nr_free == 1024 && s0.nr_pcp + s0.nr_free == 1024,
	   "remote free - each page back on its own node's lists (node 1: "
	   "%lu pcp + %lu free)", s1.nr_pcp, s1.nr_free);
	ok(s1.nr_pcp == 8,
	   "remote free - node 1's pages on node 1's pcp list of this CPU");
	pp_pool_drain(pool);
	s1 = node_stat(pool, 1);
	ok(s1.nr_free == 1024, "remote free - drained into node 1's buddy "
	   "lists");
	ok(pp_pool_destroy(pool) == 0, "remote free - destroy");
}

/* One node: the counters read as every page a local hit. */
static void test_one_node(void)
{
	struct pp_pool *pool = test_pool_create(1024, 8, 48, 1);
	struct pp_page *arr[16] = { NULL };
	struct pp_node_vmstat s;
	struct pp_vmstat st;
	unsigned long n;

	n = pp_alloc_pages_bulk_array_node(pool, PP_GFP_KERNEL, 0, 16, arr);
	pp_pool_vmstat(pool, &st);
	s = node_stat(pool, 0);
	ok(n == 16 && s.numa[PP_NUMA_HIT] == st.events[PP_PGALLOC] &&
	   s.numa[PP_NUMA_LOCAL] == st.events[PP_PGALLOC] &&
	   !s.numa[PP_NUMA_MISS] && !s.numa[PP_NUMA_OTHER] &&
	   s.nr_pages == 1024 && pp_pool_node_vmstat(pool, 1, &s) == -EINVAL,
	   "one node - numa_hit = numa_local = pgalloc; node 1: EINVAL");
	pp_release_pages(pool, arr, n);
	ok(pp_pool_destroy(pool) == 0, "one node - destroy");
}

int main(void)
{
	plan_tests(55);
	test_config_rules();
	test_layout();
	test_fallback_4();
	test_fallback_4_equal();
	test_fallback_2_thisnode();
	test_no_merge_across_nodes();
	test_bulk_first_zone();
	test_bulk_larger_than_pool();
	test_interleave();
	test_remote_free();
	test_one_node();
	return exit_status();
}
