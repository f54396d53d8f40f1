/* SPDX-License-Identifier: MIT */
/*
 * pp-example: the three allocation APIs of libpagepool in twenty lines,
 * then the pool's counters.
 */
#include <stdio.h>
#include <stdlib.h>

#include <pagepool/pagepool.h>

#define NR 16

int main(void)
{
	struct pp_pool_config cfg;
	struct pp_list_head list = PP_LIST_HEAD_INIT(list);
	struct pp_page *array[NR] = { NULL }, *page;
	struct pp_vmstat st;
	struct pp_pool *pool;
	unsigned long n;

	pp_pool_config_init(&cfg);
	cfg.nr_pages = 4096;			/* 16 MiB arena */
	pool = pp_pool_create(&cfg);
	if (!pool) {
		perror("pp_pool_create");
		return 1;
	}

	page = pp_alloc_page(pool, PP_GFP_KERNEL);	/* alloc_page() */
	printf("single page: pfn %lu at %p\n", pp_page_to_pfn(pool, page),
	       pp_page_address(pool, page));

	n = pp_alloc_pages_bulk_list(pool, PP_GFP_KERNEL, NR, &list);
	printf("bulk list:   %lu pages\n", n);

	array[3] = page;			/* a populated slot is kept */
	n = pp_alloc_pages_bulk_array(pool, PP_GFP_KERNEL, NR, array);
	printf("bulk array:  %lu of %d slots populated, slot 3 %s\n", n, NR,
	       array[3] == page ? "kept" : "replaced");

	pp_release_pages(pool, array, NR);	/* includes the single page */
	while ((page = pp_list_pop_page(&list)))
		pp_put_page(pool, page);

	pp_pool_vmstat(pool, &st);
	pp_vmstat_print(stdout, &st);
	if (pp_pool_destroy(pool))
		return 1;
	return 0;
}
