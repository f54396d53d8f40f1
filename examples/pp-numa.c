/* SPDX-License-Identifier: MIT */
/*
 * pp-numa: a pool of two nodes, as doc/library.md's "Nodes" runs it.  One
 * CPU list, on node 0: a bulk call fills from node 0; an interleaved one
 * spreads its pages over both nodes; once node 0 is down to its min
 * watermark, a single page falls back to node 1 and a PP_GFP_THISNODE one
 * fails; the per-node
 * counters say what happened.
 */
#include <stdio.h>
#include <stdlib.h>

#include <pagepool/pagepool.h>

#define NR_PAGES	4096

static struct pp_page *held[NR_PAGES];

int main(void)
{
	unsigned int cpu_to_node[1] = { 0 };
	struct pp_mempolicy il = { .mode = PP_MPOL_INTERLEAVE, .nodes = 0x3 };
	struct pp_node_vmstat st[2];
	struct pp_page *arr[10] = { NULL }, *page;
	struct pp_pool_config cfg;
	struct pp_pool *pool;
	unsigned long n, k = 0;

	pp_pool_config_init(&cfg);
	cfg.nr_pages = NR_PAGES;
	cfg.nr_cpus = 1;
	cfg.nr_nodes = 2;
	cfg.cpu_to_node = cpu_to_node;
	pool = pp_pool_create(&cfg);
	if (!pool) {
		perror("pp_pool_create");
		return 1;
	}

	n = pp_alloc_pages_bulk_array(pool, PP_GFP_KERNEL, 8, arr);
	printf("bulk array of 8 on node 0's CPU:");
	for (unsigned long i = 0; i < n; i++)
		printf(" %d", pp_page_to_nid(pool, arr[i]));
	printf("\n");
	pp_release_pages(pool, arr, n);
	for (unsigned long i = 0; i < n; i++)
		arr[i] = NULL;

	n = pp_alloc_pages_bulk_array_mempolicy(pool, PP_GFP_KERNEL, &il, 5,
						arr);
	printf("interleave 5 over nodes 0,1:");
	for (unsigned long i = 0; i < n; i++)
		printf(" %d", pp_page_to_nid(pool, arr[i]));
	printf(" (il_prev %u)\n", il.il_prev);
	pp_release_pages(pool, arr, n);

	/* Take node 0's pages; then where do single pages come from? */
	while (k < NR_PAGES &&
	       (held[k] = pp_alloc_page(pool, PP_GFP_THISNODE)))
		k++;
	page = pp_alloc_page(pool, PP_GFP_KERNEL);
	printf("node 0 down to its min watermark (%lu pages taken): "
	       "PP_GFP_THISNODE gives %s, GFP_KERNEL a page of node %d\n", k,
	       pp_alloc_page(pool, PP_GFP_THISNODE) ? "a page" : "NULL",
	       page ? pp_page_to_nid(pool, page) : -1);
	if (page)
		pp_put_page(pool, page);
	pp_release_pages(pool, held, k);

	for (unsigned int nid = 0; nid < 2; nid++)
		pp_pool_node_vmstat(pool, nid, &st[nid]);
	pp_node_vmstat_print(stdout, st, 2);
	return pp_pool_destroy(pool) ? 1 : 0;
}
