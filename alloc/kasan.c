/* SPDX-License-Identifier: MIT */
/*
 * The ASan build's report of a poisoned page (see zone.h, KASAN): ASan
 * prints the access and its stack, but it does not record where manual
 * poisoning happened, calls the address "a wild pointer" and knows
 * nothing of pages.  Its error report callback adds a line that does:
 *
 *	pagepool: KASAN: 0x7f3c80000064 is byte 100 of pfn 0x2a of pool
 *	0x620000000080 (state pcp, refcount 0): an access to a free page
 *
 * The live pools are in a fixed table, filled at pp_pool_create() and
 * emptied at destroy; nothing of it is on an allocation or free path.
 * Outside the ASan build this file is empty.
 */
#include "internal.h"

#ifdef PP_CONFIG_ASAN
#include <pthread.h>
#include <stdio.h>

#include <sanitizer/asan_interface.h>

/* More pools at once than this are not named in a report. */
#define PP_KASAN_POOLS	256

static struct pp_pool *_Atomic pp_kasan_pools[PP_KASAN_POOLS];

/* ASan's report is out: name the page of the bad address, if it is ours. */
static void pp_kasan_report(const char *report)
{
	uintptr_t addr = (uintptr_t)__asan_get_report_address();

	(void)report;
	if (!addr)
		return;
	for (unsigned int i = 0; i < PP_KASAN_POOLS; i++) {
		struct pp_pool *pool = atomic_load_explicit(&pp_kasan_pools[i],
							    memory_order_acquire);
		uintptr_t base, off;
		unsigned long pfn;
		const struct pp_page *page;
		int refs;

		if (!pool)
			continue;
		base = (uintptr_t)pool->arena;
		if (addr < base || addr - base >= pool->arena_bytes)
			continue;
		off = addr - base;
		pfn = off >> PP_PAGE_SHIFT;
		page = &pool->mem_map[pfn];
		refs = __atomic_load_n(&page->refcount, __ATOMIC_RELAXED);
		fprintf(stderr, "pagepool: KASAN: 0x%lx is byte %lu of pfn "
			"0x%lx of pool %p (state %s, refcount %d)%s\n",
			(unsigned long)addr,
			(unsigned long)(off & (PP_PAGE_SIZE - 1)), pfn,
			(void *)pool, pp_page_state_name(pp_page_state(page)),
			refs, refs ? "" : ": an access to a free page");
		return;
	}
}

static void pp_kasan_set_callback(void)
{
	__asan_set_error_report_callback(pp_kasan_report);
}

void pp_kasan_pool_add(struct pp_pool *pool)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;

	pthread_once(&once, pp_kasan_set_callback);
	for (unsigned int i = 0; i < PP_KASAN_POOLS; i++) {
		struct pp_pool *expected = NULL;

		if (atomic_compare_exchange_strong(&pp_kasan_pools[i],
						   &expected, pool))
			return;
	}
}

void pp_kasan_pool_del(struct pp_pool *pool)
{
	for (unsigned int i = 0; i < PP_KASAN_POOLS; i++) {
		struct pp_pool *expected = pool;

		if (atomic_compare_exchange_strong(&pp_kasan_pools[i],
						   &expected, NULL))
			return;
	}
}
#endif
