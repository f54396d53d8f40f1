/* SPDX-License-Identifier: MIT */
/*
 * Tracepoints of the "pagepool" provider, and the USDT probe of the same
 * name and arguments beside each (tracepoints/usdt.h); either is nothing
 * when built without it (--disable-lttng-ust, --disable-usdt).  A
 * disabled tracepoint is one load and one branch, a detached probe one
 * more of each, or a nop (below).
 *
 * pp_trace() checks and fires.  Fast paths split the two:
 * pp_trace_enabled() is the check alone, so that the call (which makes the
 * compiler save registers for the whole function) sits in an out-of-line
 * function, and pp_do_trace() fires whichever of the two is enabled.
 */
#ifndef PP_ALLOC_TRACE_H
#define PP_ALLOC_TRACE_H

#include <config.h>

#include "usdt.h"

/* The provider's USDT semaphore, under each of its events' names. */
PP_USDT_SEMAPHORE(pagepool)
#define pagepool_mm_page_alloc_semaphore pagepool_usdt_semaphore
#define pagepool_mm_page_alloc_bulk_semaphore pagepool_usdt_semaphore
#define pagepool_mm_page_alloc_zone_locked_semaphore pagepool_usdt_semaphore
#define pagepool_mm_page_free_semaphore pagepool_usdt_semaphore
#define pagepool_mm_page_free_batched_semaphore pagepool_usdt_semaphore
#define pagepool_mm_page_pcpu_drain_semaphore pagepool_usdt_semaphore

#ifdef HAVE_LTTNG_UST
#include "pagepool_tp.h"
#define pp_lttng_enabled(name) lttng_ust_tracepoint_enabled(pagepool, name)
#define pp_lttng_fire(name, ...) \
	lttng_ust_do_tracepoint(pagepool, name, __VA_ARGS__)
#else
/* Arguments stay type-checked and "used"; the call compiles to nothing. */
static inline void pp_trace_nop(int unused, ...)
{
}
#define pp_lttng_enabled(name) 0
#define pp_lttng_fire(name, ...) pp_trace_nop(0, __VA_ARGS__)
#endif

/*
 * How each event's USDT probe fires.  mm_page_alloc and mm_page_free,
 * which the single-page fast paths meet for every page, fire without
 * testing the semaphore: the probe site is a nop whose operands (the pfn,
 * the gfp mask) are computed whether a tracer is attached or not, which
 * costs the lean single page about 0.35 ns (4 %), where the semaphore's
 * test cost 0.5 ns (6 %), in a pinned pagebench A/B (doc/tracing.md,
 * doc/results/2026-12-05-usdt-cost.md).  The fast paths fire them with
 * pp_trace_usdt() where they finish a page themselves; everywhere else
 * pp_trace() fires both.  pp_release_pages()'s loops fire none: the
 * semaphore, tested there once per call, sends the pages to the checked
 * path.  The other events test it: they fire once per call or on a slow
 * path.
 */
#define pp_usdt_how_mm_page_alloc		pp_usdt_fire
#define pp_usdt_how_mm_page_free		pp_usdt_fire
#define pp_usdt_how_mm_page_alloc_bulk		pp_usdt
#define pp_usdt_how_mm_page_alloc_zone_locked	pp_usdt
#define pp_usdt_how_mm_page_free_batched	pp_usdt
#define pp_usdt_how_mm_page_pcpu_drain		pp_usdt
/* Whether the probe's semaphore is tested (and so whether it says "on"). */
#define pp_usdt_tested_mm_page_alloc		0
#define pp_usdt_tested_mm_page_free		0
#define pp_usdt_tested_mm_page_alloc_bulk	1
#define pp_usdt_tested_mm_page_alloc_zone_locked 1
#define pp_usdt_tested_mm_page_free_batched	1
#define pp_usdt_tested_mm_page_pcpu_drain	1

#define pp_trace_enabled(name)						\
	(pp_lttng_enabled(name) ||					\
	 (pp_usdt_tested_##name && pp_usdt_enabled(pagepool)))
#define pp_do_trace(name, ...)						\
	do {								\
		if (pp_lttng_enabled(name))				\
			pp_lttng_fire(name, __VA_ARGS__);		\
		pp_usdt_how_##name(pagepool, name, __VA_ARGS__);	\
	} while (0)
/*
 * The probe alone, where a fast path finishes a page itself with the
 * tracepoint off (pp_trace_enabled() false: for these two, the LTTng
 * tracepoint alone).
 */
#define pp_trace_usdt(name, ...) pp_usdt_fire(pagepool, name, __VA_ARGS__)
#define pp_trace(name, ...) pp_do_trace(name, __VA_ARGS__)

/* Bulk fallback reasons, as recorded in mm_page_alloc_bulk.fallback. */
enum pp_trace_fallback {
	PP_TRACE_FALLBACK_NONE,
	PP_TRACE_FALLBACK_ONE_PAGE,
	PP_TRACE_FALLBACK_WATERMARK,
	PP_TRACE_FALLBACK_TRYLOCK,
	PP_TRACE_FALLBACK_EMPTY,
};

#define PP_MIGRATE_UNMOVABLE	0	/* the only migratetype here */

#endif /* PP_ALLOC_TRACE_H */
