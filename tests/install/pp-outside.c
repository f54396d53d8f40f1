/* SPDX-License-Identifier: MIT */
/*
 * pp-outside: a program outside the source tree, built against an
 * installed libpagepool with nothing but
 *	cc pp-outside.c $(pkg-config --cflags --libs pagepool)
 * It uses each part of the API once and checks what the header promises;
 * any surprise is a line on stderr and exit status 1.
 */
#include <stdio.h>
#include <string.h>

#include <pagepool/pagepool.h>

#define NR	32

static int failures;

static void check(int cond, const char *what)
{
	if (!cond) {
		fprintf(stderr, "pp-outside: %s\n", what);
		failures++;
	}
}

int main(void)
{
	struct pp_list_head list = PP_LIST_HEAD_INIT(list);
	struct pp_page *array[NR] = { NULL }, *page, *p;
	struct pp_pool_config cfg;
	unsigned long n, listed = 0, pfn;
	struct pp_vmstat st;
	struct pp_pool *pool;

	pp_pool_config_init(&cfg);
	cfg.nr_pages = 2048;		/* an 8 MiB arena */
	pool = pp_pool_create(&cfg);
	if (!pool) {
		perror("pp-outside: pp_pool_create");
		return 1;
	}

	page = pp_alloc_page(pool, PP_GFP_KERNEL);
	check(page != NULL, "alloc_page gave no page");
	if (!page)
		return 1;
	pfn = pp_page_to_pfn(pool, page);
	check(pp_pfn_to_page(pool, pfn) == page, "pfn does not map back");
	check(pp_virt_to_page(pool, (char *)pp_page_address(pool, page) + 100)
	      == page, "address does not map back");
	memset(pp_page_address(pool, page), 0x5a, PP_PAGE_SIZE);
	check(pp_page_count(page) == 1, "a new page's refcount is not 1");

	n = pp_alloc_pages_bulk_list(pool, PP_GFP_KERNEL, NR, &list);
	while ((p = pp_list_pop_page(&list))) {
		listed++;
		pp_put_page(pool, p);
	}
	check(n == NR && listed == NR, "bulk list did not add NR pages");

	array[5] = page;		/* a populated slot must be kept */
	n = pp_alloc_pages_bulk_array(pool, PP_GFP_KERNEL, NR, array);
	check(n == NR, "bulk array did not fill the array");
	check(array[5] == page, "bulk array replaced a populated slot");
	check(pp_alloc_pages_bulk_array(pool, PP_GFP_KERNEL, NR, array) == NR,
	      "a full array did not return nr_pages");
	pp_release_pages(pool, array, NR);

	pp_pool_vmstat(pool, &st);
	check(st.events[PP_PGALLOC] == 1 + 2 * NR - 1,
	      "pgalloc is not the pages allocated");
	check(st.events[PP_PGFREE] == st.events[PP_PGALLOC],
	      "pgfree differs from pgalloc with every page back");
	check(!strcmp(pp_vm_event_name(PP_PGALLOC), "pgalloc"),
	      "counter name");
	check(pp_pool_destroy(pool) == 0, "pp_pool_destroy found pages out");

	printf("pp-outside: libpagepool %s, %lu pages allocated and freed: %s\n",
	       pp_version(), (unsigned long)st.events[PP_PGALLOC],
	       failures ? "FAILED" : "ok");
	return failures ? 1 : 0;
}
