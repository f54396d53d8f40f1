/* SPDX-License-Identifier: MIT */
/*
 * ppk-probes: libpagepool's answers to the contract probes that
 * ppkbench.c, beside it, puts to a real kernel (its ppk_probes()), one
 * line each in the module's words without its "ppkbench: tag=T "
 * prefix, so that the two compare word for word: bench/kernel-bench.sh
 * builds it against a build tree's library and names each answer that
 * differs from the kernel's, and tests/bench/test_kernel_probes.sh holds
 * it to Linux 6.1's recorded answers.  User space: built by the script
 * or as a check program, never by the kernel's Kbuild.
 *
 * The same calls in the same order: a bulk array call at each of its
 * corners (empty, prefilled slots, holes, one page, none, slots past
 * nr_pages), then the bulk list onto an empty list and onto one holding
 * three pages, then PP_GFP_ZERO through each API after dirty pages went
 * back.  Every page goes back: the pool's own destruction check says so
 * (exit 1 otherwise).
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include <pagepool/pagepool.h>

static struct pp_pool *pool;

static void probe_array(const char *name, unsigned int nr,
			unsigned int prefill)	/* bit i: slot i prefilled */
{
	struct pp_page *slots[8] = { NULL }, *before[8] = { NULL };
	unsigned int i, kept = 0, filled = 0, refs = 1;
	unsigned long ret;

	for (i = 0; i < 8; i++)
		if (prefill & (1U << i))
			slots[i] = before[i] = pp_alloc_page(pool,
							     PP_GFP_KERNEL);
	ret = pp_alloc_pages_bulk_array(pool, PP_GFP_KERNEL, nr, slots);
	for (i = 0; i < 8; i++) {
		if (!slots[i])
			continue;
		filled++;
		if (before[i])
			kept += slots[i] == before[i];
		else if (pp_page_count(slots[i]) != 1)
			refs = 0;
	}
	printf("probe=%s ret=%lu kept=%u filled=%u refs=%u\n", name, ret,
	       kept, filled, refs);
	for (i = 0; i < 8; i++)
		if (slots[i])
			pp_put_page(pool, slots[i]);
}

static void probe_list(const char *name, unsigned int nr,
		       unsigned int nr_old)
{
	struct pp_list_head list = PP_LIST_HEAD_INIT(list);
	unsigned int i, len = 0, first_old = 0, refs = 1;
	struct pp_page *old[3] = { NULL }, *page;
	struct pp_list_head *pos;
	unsigned long ret;

	for (i = 0; i < nr_old && i < 3; i++) {
		old[i] = pp_alloc_page(pool, PP_GFP_KERNEL);
		pp_list_add_tail(&old[i]->lru, &list);
	}
	ret = pp_alloc_pages_bulk_list(pool, PP_GFP_KERNEL, nr, &list);
	for (pos = list.next; pos != &list; pos = pos->next) {
		bool is_old = false;

		page = pp_lru_to_page(pos);
		for (i = 0; i < nr_old; i++)
			is_old |= page == old[i];
		if (nr_old && page == old[0])
			first_old = len;
		if (!is_old && pp_page_count(page) != 1)
			refs = 0;
		len++;
	}
	if (nr_old)
		printf("probe=%s ret=%lu len=%u old=%u refs=%u\n", name, ret,
		       len, first_old, refs);
	else
		printf("probe=%s ret=%lu len=%u refs=%u\n", name, ret, len,
		       refs);
	while ((page = pp_list_pop_page(&list)))
		pp_put_page(pool, page);
}

/* As the module's: 16 pages written 0xa5 and given back. */
static void dirty_some(void)
{
	struct pp_page *dirty[16];
	unsigned int i;

	for (i = 0; i < 16; i++) {
		dirty[i] = pp_alloc_page(pool, PP_GFP_KERNEL);
		memset(pp_page_address(pool, dirty[i]), 0xa5, PP_PAGE_SIZE);
	}
	for (i = 0; i < 16; i++)
		pp_put_page(pool, dirty[i]);
}

static bool all_zero(const struct pp_page *page)
{
	const unsigned char *p = pp_page_address(pool, page);
	size_t i;

	for (i = 0; i < PP_PAGE_SIZE; i++)
		if (p[i])
			return false;
	return true;
}

/* PP_GFP_ZERO through each API, after dirty pages went back. */
static void probe_zero(void)
{
	struct pp_list_head list = PP_LIST_HEAD_INIT(list);
	struct pp_page *slots[8] = { NULL }, *page;
	unsigned int i, zeroed = 0;
	unsigned long ret;

	dirty_some();
	page = pp_alloc_page(pool, PP_GFP_KERNEL | PP_GFP_ZERO);
	if (page) {
		zeroed = all_zero(page);
		pp_put_page(pool, page);
	}
	printf("probe=single_zero ret=%u zeroed=%u\n", !!page, zeroed);

	dirty_some();
	ret = pp_alloc_pages_bulk_array(pool, PP_GFP_KERNEL | PP_GFP_ZERO, 8,
					slots);
	for (zeroed = 0, i = 0; i < 8; i++)
		if (slots[i])
			zeroed += all_zero(slots[i]);
	printf("probe=array_zero ret=%lu zeroed=%u\n", ret, zeroed);
	for (i = 0; i < 8; i++)
		if (slots[i])
			pp_put_page(pool, slots[i]);

	dirty_some();
	ret = pp_alloc_pages_bulk_list(pool, PP_GFP_KERNEL | PP_GFP_ZERO, 8,
				       &list);
	zeroed = 0;
	while ((page = pp_list_pop_page(&list))) {
		zeroed += all_zero(page);
		pp_put_page(pool, page);
	}
	printf("probe=list_zero ret=%lu zeroed=%u\n", ret, zeroed);
}

int main(void)
{
	struct pp_pool_config cfg;

	pp_pool_config_init(&cfg);
	cfg.nr_pages = 4096;
	pool = pp_pool_create(&cfg);
	if (!pool) {
		perror("ppk-probes: pp_pool_create");
		return 1;
	}
	probe_array("array_empty", 8, 0);
	probe_array("array_prefix", 8, 0x07);
	probe_array("array_full", 8, 0xff);
	probe_array("array_holes", 8, 0xff & ~0x24);
	probe_array("array_first_hole", 8, 0xfe);
	probe_array("array_last_hole", 8, 0x7f);
	probe_array("array_one", 1, 0);
	probe_array("array_none", 0, 0);
	probe_array("array_short_prefilled", 4, 0xf0);
	probe_list("list_empty", 8, 0);
	probe_list("list_onto_three", 8, 3);
	probe_list("list_one", 1, 0);
	probe_list("list_none", 0, 0);
	probe_zero();
	return pp_pool_destroy(pool) ? 1 : 0;
}
