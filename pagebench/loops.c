/* SPDX-License-Identifier: MIT */
/*
 * The timed loops of pagebench: libpagepool's single-page, list and array
 * APIs and the in-process baselines (glibc, mallocx, the LIFO floor),
 * which harness.c times through pb_bench_run(); and finding the baselines'
 * functions with dlsym().  glibc's aligned_alloc()/free() come from
 * libc.so.6 itself, so they stay glibc's even if another malloc is
 * interposed; jemalloc's mallocx()/sdallocx() are the ones libpagepool
 * loads for its jemalloc backend.
 */
#include <config.h>

#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "pagebench.h"

/* The baselines' functions, found at run time. */
static void *(*glibc_aligned_alloc)(size_t, size_t);
static void (*glibc_free)(void *);
static void *(*je_mallocx)(size_t, int);
static void (*je_sdallocx)(void *, size_t, int);
static int (*je_mallctl)(const char *, void *, size_t *, void *, size_t);
char pb_glibc_from[256], pb_mallocx_from[256];

/* Keeps results alive: the compiler cannot drop the work. */
static volatile uintptr_t sink;

/* --- the timed loops ---------------------------------------------------------- */

/* The floor: pop pointers into the NULL slots, push them back. */
static __attribute__((noinline))
unsigned long lifo_alloc(struct bench *b, void **arr, unsigned long n)
{
	unsigned long i;

	for (i = 0; i < n; i++) {
		if (arr[i])
			continue;
		if (!b->lifo_top)
			break;
		arr[i] = b->lifo[--b->lifo_top];
	}
	return i;
}

static __attribute__((noinline))
void lifo_free(struct bench *b, void **arr, unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		if (arr[i])
			b->lifo[b->lifo_top++] = arr[i];
}

/*
 * The contract floor: the LIFO floor plus the work the kernel's contract
 * asks of each page, and nothing else.  A page handed out gets
 * prep_new_page()'s store (one reference, order 0, in use: one word); a
 * page given back gets put_page()'s test (the last reference of an
 * order-0 page in use, one load) and the store that makes it free.  No
 * per-CPU list, lock, section, counter or watermark: what any allocator
 * keeping libpagepool's semantics pays at least.  The array loops take
 * the quickest form measured on the development machine: the copy of the
 * pointers and the descriptor work as separate loops (a run of NULL
 * slots, the usual refilled array, is one memcpy() from the LIFO, in its
 * order; slot by slot otherwise).
 */
static __attribute__((noinline))
unsigned long contract_alloc(struct bench *b, struct pp_page **arr,
			     unsigned long n)
{
	const uint64_t used = b->cword_used;
	uintptr_t any = 0;
	unsigned long i;

	for (i = 0; i < n; i++)
		any |= (uintptr_t)arr[i];
	if (!any && b->clifo_top >= n) {
		struct pp_page **top = b->clifo + b->clifo_top;

		memcpy(arr, top - n, n * sizeof(*arr));
		for (i = 0; i < n; i++)
			contract_set_word(arr[i], used);
		b->clifo_top -= n;
		return n;
	}
	for (i = 0; i < n; i++) {
		if (arr[i])
			continue;
		if (!b->clifo_top)
			break;
		arr[i] = b->clifo[--b->clifo_top];
		contract_set_word(arr[i], used);
	}
	return i;
}

/* The test and store of every page, then one copy onto the LIFO. */
static __attribute__((noinline))
void contract_free(struct bench *b, struct pp_page **arr, unsigned long n)
{
	const uint64_t used = b->cword_used, unused = b->cword_free;
	struct pp_page **top = b->clifo + b->clifo_top;
	uint64_t bad = 0;
	unsigned long k = 0, holes = 0;

	for (unsigned long i = 0; i < n; i++) {
		struct pp_page *p = arr[i];

		if (!p) {
			holes++;
			continue;
		}
		bad |= contract_give_back(p, used, unused);
	}
	if (bad)
		pb_fail("contract floor: a page given back was not in use");
	if (!holes) {
		memcpy(top, arr, n * sizeof(*arr));
		k = n;
	} else {
		for (unsigned long i = 0; i < n; i++)
			if (arr[i])
				top[k++] = arr[i];
	}
	b->clifo_top += k;
}

/* One page, as the single-page API hands it out and takes it back. */
static __attribute__((noinline)) struct pp_page *contract_get1(struct bench *b)
{
	struct pp_page *p;

	if (!b->clifo_top)
		pb_fail("contract floor: out of pages");
	p = b->clifo[--b->clifo_top];
	contract_set_word(p, b->cword_used);
	return p;
}

static __attribute__((noinline))
void contract_put1(struct bench *b, struct pp_page *p)
{
	if (contract_give_back(p, b->cword_used, b->cword_free))
		pb_fail("contract floor: a page given back was not in use");
	b->clifo[b->clifo_top++] = p;
}

/* @pages pages through the single-page API of @b's allocator. */
static unsigned long run_single(struct bench *b, unsigned long pages)
{
	uintptr_t acc = 0;

	switch (b->allocator) {
	case A_BUDDY:
	case A_JEMALLOC:
	case A_PLUGIN:
		for (unsigned long i = 0; i < pages; i++) {
			struct pp_page *p = pp_alloc_page(b->pool,
							  PP_GFP_KERNEL);

			if (!p)
				pb_fail("pp_alloc_page failed");
			acc += (uintptr_t)p;
			pp_put_page(b->pool, p);
		}
		break;
	case A_GLIBC:
		for (unsigned long i = 0; i < pages; i++) {
			void *p = glibc_aligned_alloc(PP_PAGE_SIZE,
						      PP_PAGE_SIZE);

			if (!p)
				pb_fail("aligned_alloc failed");
			acc += (uintptr_t)p;
			glibc_free(p);
		}
		break;
	case A_MALLOCX:
		for (unsigned long i = 0; i < pages; i++) {
			void *p = je_mallocx(PP_PAGE_SIZE, 0);

			if (!p)
				pb_fail("mallocx failed");
			acc += (uintptr_t)p;
			je_sdallocx(p, PP_PAGE_SIZE, 0);
		}
		break;
	case A_LIFO:
		for (unsigned long i = 0; i < pages; i++) {
			void *p = NULL;

			lifo_alloc(b, &p, 1);
			acc += (uintptr_t)p;
			lifo_free(b, &p, 1);
		}
		break;
	case A_PERCPU:
		acc = pb_percpu_single(pages);
		break;
	case A_CONTRACT:
		for (unsigned long i = 0; i < pages; i++) {
			struct pp_page *p = contract_get1(b);

			acc += (uintptr_t)p;
			contract_put1(b, p);
		}
		break;
	default:
		break;
	}
	sink = acc;
	return pages;
}

/* Free the pages of one array round, then clear the slots. */
static void array_free(struct bench *b, unsigned long n)
{
	if (b->free_put) {
		/* page_bench04: put each page, clear its slot. */
		for (unsigned long i = 0; i < n; i++) {
			pp_put_page(b->pool, b->arr[i]);
			b->arr[i] = NULL;
		}
		return;
	}
	pp_release_pages(b->pool, b->arr, n);
	memset(b->arr, 0, n * sizeof(b->arr[0]));
}

/* Rounds of @bulk pages through the array API; at least @pages pages. */
static unsigned long run_array(struct bench *b, unsigned long pages,
			       unsigned int bulk)
{
	unsigned long done = 0, n;
	uintptr_t acc = 0;

	while (done < pages) {
		switch (b->allocator) {
		case A_BUDDY:
		case A_JEMALLOC:
		case A_PLUGIN:
			n = pp_alloc_pages_bulk_array(b->pool, PP_GFP_KERNEL,
						      bulk, b->arr);
			if (n != bulk)
				pb_fail("pp_alloc_pages_bulk_array: %lu of %u",
					n, bulk);
			acc += (uintptr_t)b->arr[n - 1];
			array_free(b, n);
			break;
		case A_GLIBC:
			for (n = 0; n < bulk; n++) {
				b->ptrs[n] = glibc_aligned_alloc(PP_PAGE_SIZE,
								 PP_PAGE_SIZE);
				if (!b->ptrs[n])
					pb_fail("aligned_alloc failed");
			}
			acc += (uintptr_t)b->ptrs[n - 1];
			for (n = 0; n < bulk; n++)
				glibc_free(b->ptrs[n]);
			memset(b->ptrs, 0, bulk * sizeof(b->ptrs[0]));
			break;
		case A_MALLOCX:
			for (n = 0; n < bulk; n++) {
				b->ptrs[n] = je_mallocx(PP_PAGE_SIZE, 0);
				if (!b->ptrs[n])
					pb_fail("mallocx failed");
			}
			acc += (uintptr_t)b->ptrs[n - 1];
			for (n = 0; n < bulk; n++)
				je_sdallocx(b->ptrs[n], PP_PAGE_SIZE, 0);
			memset(b->ptrs, 0, bulk * sizeof(b->ptrs[0]));
			break;
		case A_PERCPU:
			n = bulk;
			acc += pb_percpu_array(b->arr, n);
			break;
		case A_CONTRACT:
			n = contract_alloc(b, b->arr, bulk);
			if (n != bulk)
				pb_fail("contract: %lu of %u", n, bulk);
			acc += (uintptr_t)b->arr[n - 1];
			contract_free(b, b->arr, n);
			memset(b->arr, 0, n * sizeof(b->arr[0]));
			break;
		case A_LIFO:
		default:
			n = lifo_alloc(b, b->ptrs, bulk);
			if (n != bulk)
				pb_fail("lifo: %lu of %u", n, bulk);
			acc += (uintptr_t)b->ptrs[n - 1];
			lifo_free(b, b->ptrs, n);
			memset(b->ptrs, 0, n * sizeof(b->ptrs[0]));
			break;
		}
		done += n;
	}
	sink = acc;
	return done;
}

/* Rounds of @bulk pages through the list API (libpagepool only). */
static unsigned long run_list(struct bench *b, unsigned long pages,
			      unsigned int bulk)
{
	unsigned long done = 0;
	uintptr_t acc = 0;

	while (done < pages) {
		struct pp_list_head list = PP_LIST_HEAD_INIT(list);
		unsigned long n = pp_alloc_pages_bulk_list(b->pool,
							   PP_GFP_KERNEL,
							   bulk, &list);
		struct pp_page *page;
		unsigned long k = 0;

		if (n != bulk)
			pb_fail("pp_alloc_pages_bulk_list: %lu of %u", n, bulk);
		acc += (uintptr_t)list.next;
		/*
		 * page_bench04: list_del + __free_pages() each (list_del()
		 * checked where the pool runs CONFIG_DEBUG_LIST's checks, as
		 * the module's is in such a kernel); or release them.
		 */
		while ((page = pp_list_pop_page_check(&list, b->debug_list))) {
			if (b->free_put)
				pp_free_pages(b->pool, page, 0);
			else
				b->arr[k++] = page;
		}
		if (!b->free_put) {
			pp_release_pages(b->pool, b->arr, k);
			memset(b->arr, 0, k * sizeof(b->arr[0]));
		}
		done += n;
	}
	sink = acc;
	return done;
}

unsigned long pb_bench_run(void *ctx, enum pb_api api, unsigned int bulk,
			   unsigned long pages)
{
	struct bench *b = ctx;

	switch (api) {
	case PB_API_LIST:
		return run_list(b, pages, bulk);
	case PB_API_ARRAY:
		return run_array(b, pages, bulk);
	case PB_API_SINGLE:
	default:
		return run_single(b, pages);
	}
}

/* --- finding the baselines --------------------------------------------------- */

/* Where the function at @addr lives, for the header. */
static void lib_of(void *addr, char *buf, size_t len)
{
	Dl_info info;

	if (addr && dladdr(addr, &info) && info.dli_fname)
		snprintf(buf, len, "%s", info.dli_fname);
	else
		snprintf(buf, len, "?");
}

void pb_find_baselines(void)
{
	void *libc = dlopen("libc.so.6", RTLD_NOW | RTLD_NOLOAD);

	if (!libc)
		pb_fail("cannot find libc.so.6: %s", dlerror());
	*(void **)&glibc_aligned_alloc = dlsym(libc, "aligned_alloc");
	*(void **)&glibc_free = dlsym(libc, "free");
	if (!glibc_aligned_alloc || !glibc_free)
		pb_fail("glibc's aligned_alloc/free not found");
	/* Not RTLD_DEFAULT: whatever malloc is interposed, glibc's own. */
	lib_of((void *)glibc_aligned_alloc, pb_glibc_from,
	       sizeof(pb_glibc_from));
	if (!pb_is_built(A_MALLOCX))
		return;
	*(void **)&je_mallocx = dlsym(RTLD_DEFAULT, "mallocx");
	*(void **)&je_sdallocx = dlsym(RTLD_DEFAULT, "sdallocx");
	*(void **)&je_mallctl = dlsym(RTLD_DEFAULT, "mallctl");
	if (!je_mallocx || !je_sdallocx || !je_mallctl)
		pb_fail("jemalloc's mallocx/sdallocx not found (libpagepool "
		     "loads libjemalloc.so.2)");
	lib_of((void *)je_mallocx, pb_mallocx_from, sizeof(pb_mallocx_from));
}

