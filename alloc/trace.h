/* SPDX-License-Identifier: MIT */
/*
 * Tracepoints of the "pagepool" provider, or nothing when built with
 * --disable-lttng-ust.  A disabled tracepoint is one load and one branch.
 *
 * pp_trace() checks and fires.  Fast paths split the two:
 * pp_trace_enabled() is the check alone, so that the call (which makes the
 * compiler save registers for the whole function) sits in an out-of-line
 * function, and pp_do_trace() fires without checking again.
 */
#ifndef PP_ALLOC_TRACE_H
#define PP_ALLOC_TRACE_H

#include <config.h>

#ifdef HAVE_LTTNG_UST
#include "pagepool_tp.h"
#define pp_trace(name, ...) lttng_ust_tracepoint(pagepool, name, __VA_ARGS__)
#define pp_trace_enabled(name) lttng_ust_tracepoint_enabled(pagepool, name)
#define pp_do_trace(name, ...) \
	lttng_ust_do_tracepoint(pagepool, name, __VA_ARGS__)
#else
/* Arguments stay type-checked and "used"; the call compiles to nothing. */
static inline void pp_trace_nop(int unused, ...)
{
}
#define pp_trace(name, ...) pp_trace_nop(0, __VA_ARGS__)
#define pp_trace_enabled(name) 0
#define pp_do_trace(name, ...) pp_trace_nop(0, __VA_ARGS__)
#endif

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
