/* SPDX-License-Identifier: MIT */
/*
 * harness: warm-up, sizing and timing of one pagebench configuration
 * (harness.h).  Compiled into pagebench and into each baseline helper.
 */
#include <config.h>

#include <time.h>

#include "harness.h"
/*
 * For now_ns() only, an inline function: the helpers do not link the
 * common library, whose objects carry this build's sanitizer flags that
 * the tcmalloc helper must not have.
 */
#include "tool.h"

#ifdef PB_HAVE_TSC
#include <x86intrin.h>
#endif

const char *const pb_api_names[PB_NR_APIS] = {
	[PB_API_SINGLE] = "single", [PB_API_LIST] = "list",
	[PB_API_ARRAY] = "array",
};

uint64_t pb_ticks(void)
{
#ifdef PB_HAVE_TSC
	return __rdtsc();
#else
	return 0;
#endif
}

double pb_tsc_per_ns(double ms)
{
#ifdef PB_HAVE_TSC
	uint64_t t0 = now_ns(), c0 = pb_ticks(), t1, c1;

	do {
		t1 = now_ns();
		c1 = pb_ticks();
	} while ((double)(t1 - t0) < ms * 1e6);
	return (double)(c1 - c0) / (double)(t1 - t0);
#else
	(void)ms;
	return 0;
#endif
}

#ifdef __x86_64__
#define PB_CHAIN_LOOPS	(1UL << 20)

/* ns for 8 x PB_CHAIN_LOOPS dependent register adds: a cycle each. */
static uint64_t pb_add_chain(void)
{
	uint64_t x = 0, t0 = now_ns();

	for (unsigned long i = 0; i < PB_CHAIN_LOOPS; i++)
		__asm__ volatile("add $1, %0\n\tadd $1, %0\n\tadd $1, %0\n\t"
				 "add $1, %0\n\tadd $1, %0\n\tadd $1, %0\n\t"
				 "add $1, %0\n\tadd $1, %0" : "+r"(x));
	return now_ns() - t0;
}

/* ns for PB_CHAIN_LOOPS load-add-store round trips through one cell. */
static uint64_t pb_forward_chain(void)
{
	static uint64_t cell;
	uint64_t v, t0 = now_ns();

	for (unsigned long i = 0; i < PB_CHAIN_LOOPS; i++)
		__asm__ volatile("mov (%1), %0\n\tadd $1, %0\n\tmov %0, (%1)"
				 : "=&r"(v) : "r"(&cell) : "memory");
	return now_ns() - t0;
}
#endif

bool pb_store_forward(double *cycles, double *core_ghz)
{
#ifdef __x86_64__
	uint64_t add = UINT64_MAX, fwd = UINT64_MAX;

	/* the best of five: a neighbour only ever adds time */
	for (int r = 0; r < 5; r++) {
		uint64_t a = pb_add_chain(), f = pb_forward_chain();

		if (a < add)
			add = a;
		if (f < fwd)
			fwd = f;
	}
	if (!add || !fwd)
		return false;
	*core_ghz = 8.0 * (double)PB_CHAIN_LOOPS / (double)add;
	*cycles = (double)fwd * *core_ghz / (double)PB_CHAIN_LOOPS;
	return true;
#else
	(void)cycles;
	(void)core_ghz;
	return false;
#endif
}

unsigned long pb_prepare(pb_run_fn run, void *ctx, enum pb_api api,
			 unsigned int bulk, bool smoke, double run_ms)
{
	unsigned long pages;
	uint64_t t0, t1;

	if (smoke) {
		pages = (unsigned long)bulk * 4;
		run(ctx, api, bulk, pages);
		return pages;
	}
	/* A first pass warms the caches and lists, a second sizes. */
	run(ctx, api, bulk, 1UL << 14);
	t0 = now_ns();
	pages = run(ctx, api, bulk, 1UL << 14);
	t1 = now_ns();
	pages = (unsigned long)((double)pages * run_ms * 1e6 /
				(double)(t1 - t0 ? t1 - t0 : 1));
	if (pages < bulk)
		pages = bulk;
	run(ctx, api, bulk, pages);
	return pages;
}

void pb_time_run(pb_run_fn run, void *ctx, enum pb_api api,
		 unsigned int bulk, unsigned long pages, double *ns,
		 double *ticks)
{
	uint64_t t0, t1, c0, c1;
	unsigned long done;

	t0 = now_ns();
	c0 = pb_ticks();
	done = run(ctx, api, bulk, pages);
	c1 = pb_ticks();
	t1 = now_ns();
	*ns = (double)(t1 - t0) / (double)done;
	*ticks = (double)(c1 - c0) / (double)done;
}
