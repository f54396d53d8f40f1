/* SPDX-License-Identifier: MIT */
/*
 * pagebench-tcmalloc: pagebench's tcmalloc baseline, in a child process
 * of its own (helper.h) because linking tcmalloc replaces malloc() for the
 * whole process.  One page is aligned_alloc(4096, 4096) + free(), as the
 * glibc baseline; a bulk of n is n allocations into an array, then n
 * frees.  The functions are found with dlsym(RTLD_DEFAULT), like
 * pagebench's other baselines, and must come from libtcmalloc: this
 * program is built without sanitizers, whose runtimes would replace them.
 */
#include <config.h>

#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <gperftools/tcmalloc.h>

#include "helper.h"

#define PAGE_SIZE	4096

static void *(*tcm_aligned_alloc)(size_t, size_t);
static void (*tcm_free)(void *);

/* Keeps results alive: the compiler cannot drop the work. */
static volatile uintptr_t sink;

static unsigned long tcmalloc_run(void *ctx, enum pb_api api,
				  unsigned int bulk, unsigned long pages)
{
	void *ptrs[PB_MAX_BULK] = { NULL };
	unsigned long done = 0;
	uintptr_t acc = 0;
	unsigned int n;

	(void)ctx;
	if (api == PB_API_SINGLE) {
		for (; done < pages; done++) {
			void *p = tcm_aligned_alloc(PAGE_SIZE, PAGE_SIZE);

			if (!p)
				pb_helper_fail("aligned_alloc failed");
			acc += (uintptr_t)p;
			tcm_free(p);
		}
		sink = acc;
		return done;
	}
	while (done < pages) {
		for (n = 0; n < bulk; n++) {
			ptrs[n] = tcm_aligned_alloc(PAGE_SIZE, PAGE_SIZE);
			if (!ptrs[n])
				pb_helper_fail("aligned_alloc failed");
		}
		acc += (uintptr_t)ptrs[n - 1];
		for (n = 0; n < bulk; n++)
			tcm_free(ptrs[n]);
		memset(ptrs, 0, bulk * sizeof(ptrs[0]));
		done += bulk;
	}
	sink = acc;
	return done;
}

/* The file @fn comes from; fails unless it is libtcmalloc. */
static const char *tcmalloc_file(const char *name, void *fn)
{
	Dl_info info;

	if (!fn || !dladdr(fn, &info) || !info.dli_fname)
		pb_helper_fail("%s not found", name);
	if (!strstr(info.dli_fname, "libtcmalloc"))
		pb_helper_fail("%s comes from %s, not from libtcmalloc (a "
			       "sanitizer runtime or an LD_PRELOAD replaced "
			       "it)", name, info.dli_fname);
	return info.dli_fname;
}

int main(int argc, char **argv)
{
	const char *from;
	void *p;
	int major, minor;
	const char *patch;

	pb_helper_init("pagebench-tcmalloc", argc, argv);
	*(void **)&tcm_aligned_alloc = dlsym(RTLD_DEFAULT, "aligned_alloc");
	*(void **)&tcm_free = dlsym(RTLD_DEFAULT, "free");
	from = tcmalloc_file("aligned_alloc", (void *)tcm_aligned_alloc);
	tcmalloc_file("free", (void *)tcm_free);
	p = tcm_aligned_alloc(PAGE_SIZE, PAGE_SIZE);
	if (!p || (uintptr_t)p % PAGE_SIZE)
		pb_helper_fail("aligned_alloc(4096, 4096) returned %p", p);
	tcm_free(p);

	pb_helper_info("version", "%s", tc_version(&major, &minor, &patch));
	pb_helper_info("from", "%s", from);
	pb_helper_info("summary", "%s aligned_alloc(4096, 4096) + free() "
		       "from %s", tc_version(&major, &minor, &patch), from);
	return pb_helper_serve(tcmalloc_run, NULL);
}
