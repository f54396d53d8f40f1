/* SPDX-License-Identifier: MIT */
/*
 * Tracepoints of the "pagepool" provider, or nothing when built with
 * --disable-lttng-ust.  A disabled tracepoint is one load and one branch.
 */
#ifndef PP_ALLOC_TRACE_H
#define PP_ALLOC_TRACE_H

#include <config.h>

#ifdef HAVE_LTTNG_UST
#include "pagepool_tp.h"
#define pp_trace(name, ...) lttng_ust_tracepoint(pagepool, name, __VA_ARGS__)
#else
/* Arguments stay type-checked and "used"; the call compiles to nothing. */
static inline void pp_trace_nop(int unused, ...)
{
}
#define pp_trace(name, ...) pp_trace_nop(0, __VA_ARGS__)
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
