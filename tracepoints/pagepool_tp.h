/* SPDX-License-Identifier: MIT */
/*
 * LTTng-UST provider "pagepool": page allocator events named and shaped
 * after the kernel's kmem events (include/trace/events/kmem.h), plus one
 * event per bulk call, which the kernel does not have.
 *
 * Fired from libpagepool, which defines the tracepoints with dynamic
 * linkage: they cost one load and one branch until the provider object
 * (libpagepool-tp.so, linked into rpcsim, or LD_PRELOAD'ed into any other
 * program) is loaded and a session enables them.
 */
#undef LTTNG_UST_TRACEPOINT_PROVIDER
#define LTTNG_UST_TRACEPOINT_PROVIDER pagepool

#undef LTTNG_UST_TRACEPOINT_INCLUDE
#define LTTNG_UST_TRACEPOINT_INCLUDE "pagepool_tp.h"

#if !defined(PAGEPOOL_TP_H) || defined(LTTNG_UST_TRACEPOINT_HEADER_MULTI_READ)
#define PAGEPOOL_TP_H

#include <lttng/tracepoint.h>

#include "trace_schema.h"

/*
 * mm_page_alloc: end of the single-page path (__alloc_pages()), also on
 * failure (pfn -1).  Not fired by the bulk loop, as in the kernel.
 */
LTTNG_UST_TRACEPOINT_EVENT(pagepool, mm_page_alloc,
	LTTNG_UST_TP_ARGS(unsigned long, pfn, unsigned int, order,
			  unsigned long, gfp_flags, int, migratetype),
	LTTNG_UST_TP_FIELDS(
		lttng_ust_field_integer_hex(unsigned long, pfn, pfn)
		lttng_ust_field_integer(unsigned int, order, order)
		lttng_ust_field_integer_hex(unsigned long, gfp_flags, gfp_flags)
		lttng_ust_field_integer(int, migratetype, migratetype)
	)
)

/*
 * The bulk event's fields come from trace_schema.h, as the rpcsim
 * provider's do (rpcsim_tp.h).
 */
#define PAGEPOOL_TP_F(T, ctype, field, arg, need, report) \
	PAGEPOOL_TP_F_##T(ctype, field, arg)
#define PAGEPOOL_TP_F_INT(ctype, field, arg) \
	lttng_ust_field_integer(ctype, field, arg)
#define PAGEPOOL_TP_F_ENUM_BULK_API(ctype, field, arg) \
	lttng_ust_field_enum(pagepool, bulk_api, ctype, field, arg)
#define PAGEPOOL_TP_F_ENUM_FALLBACK(ctype, field, arg) \
	lttng_ust_field_enum(pagepool, fallback, ctype, field, arg)
#define PAGEPOOL_TP_ENUM_VALUE(label, value) \
	lttng_ust_field_enum_value(label, value)

LTTNG_UST_TRACEPOINT_ENUM(pagepool, bulk_api,
	LTTNG_UST_TP_ENUM_VALUES(TRACE_ENUM_BULK_API(PAGEPOOL_TP_ENUM_VALUE)))
LTTNG_UST_TRACEPOINT_ENUM(pagepool, fallback,
	LTTNG_UST_TP_ENUM_VALUES(TRACE_ENUM_FALLBACK(PAGEPOOL_TP_ENUM_VALUE)))

/*
 * mm_page_alloc_bulk: one per bulk call.  requested: nr_pages;
 * populated: the array's entries that already held a page and that the
 * call stepped over, wherever they lie (0 for a list); allocated: the
 * pages the call added.  A call that filled every entry asked for has
 * populated + allocated = requested.  variant: the list or the array
 * API; fallback: why the call fell back to the single-page path (none,
 * one_page, watermark, trylock, empty; the single-page path then fires
 * mm_page_alloc for its page).
 */
LTTNG_UST_TRACEPOINT_EVENT(pagepool, mm_page_alloc_bulk,
	LTTNG_UST_TP_ARGS(unsigned long, requested, unsigned long, populated,
			  unsigned long, allocated, unsigned int, variant,
			  unsigned int, fallback),
	LTTNG_UST_TP_FIELDS(TRACE_FIELDS_ALLOC_BULK(PAGEPOOL_TP_F))
)

/* mm_page_alloc_zone_locked: a page taken from the buddy lists. */
LTTNG_UST_TRACEPOINT_EVENT(pagepool, mm_page_alloc_zone_locked,
	LTTNG_UST_TP_ARGS(unsigned long, pfn, unsigned int, order,
			  int, migratetype, int, percpu_refill),
	LTTNG_UST_TP_FIELDS(
		lttng_ust_field_integer_hex(unsigned long, pfn, pfn)
		lttng_ust_field_integer(unsigned int, order, order)
		lttng_ust_field_integer(int, migratetype, migratetype)
		lttng_ust_field_integer(int, percpu_refill, percpu_refill)
	)
)

/* mm_page_free: a block's last reference went (free_pages_prepare()). */
LTTNG_UST_TRACEPOINT_EVENT(pagepool, mm_page_free,
	LTTNG_UST_TP_ARGS(unsigned long, pfn, unsigned int, order),
	LTTNG_UST_TP_FIELDS(
		lttng_ust_field_integer_hex(unsigned long, pfn, pfn)
		lttng_ust_field_integer(unsigned int, order, order)
	)
)

/* mm_page_free_batched: a page freed by pp_release_pages(). */
LTTNG_UST_TRACEPOINT_EVENT(pagepool, mm_page_free_batched,
	LTTNG_UST_TP_ARGS(unsigned long, pfn),
	LTTNG_UST_TP_FIELDS(
		lttng_ust_field_integer_hex(unsigned long, pfn, pfn)
	)
)

/* mm_page_pcpu_drain: a page moved from a pcp list to the buddy lists. */
LTTNG_UST_TRACEPOINT_EVENT(pagepool, mm_page_pcpu_drain,
	LTTNG_UST_TP_ARGS(unsigned long, pfn, unsigned int, order,
			  int, migratetype),
	LTTNG_UST_TP_FIELDS(
		lttng_ust_field_integer_hex(unsigned long, pfn, pfn)
		lttng_ust_field_integer(unsigned int, order, order)
		lttng_ust_field_integer(int, migratetype, migratetype)
	)
)

/*
 * Log levels: below every rpcsim event (rpcsim_tp.h), the per-page events
 * lowest, so a --loglevel that keeps the per-call rpcsim events leaves
 * these out.
 */
LTTNG_UST_TRACEPOINT_LOGLEVEL(pagepool, mm_page_alloc_bulk,
			      LTTNG_UST_TRACEPOINT_LOGLEVEL_DEBUG_LINE)
LTTNG_UST_TRACEPOINT_LOGLEVEL(pagepool, mm_page_alloc,
			      LTTNG_UST_TRACEPOINT_LOGLEVEL_DEBUG)
LTTNG_UST_TRACEPOINT_LOGLEVEL(pagepool, mm_page_alloc_zone_locked,
			      LTTNG_UST_TRACEPOINT_LOGLEVEL_DEBUG)
LTTNG_UST_TRACEPOINT_LOGLEVEL(pagepool, mm_page_free,
			      LTTNG_UST_TRACEPOINT_LOGLEVEL_DEBUG)
LTTNG_UST_TRACEPOINT_LOGLEVEL(pagepool, mm_page_free_batched,
			      LTTNG_UST_TRACEPOINT_LOGLEVEL_DEBUG)
LTTNG_UST_TRACEPOINT_LOGLEVEL(pagepool, mm_page_pcpu_drain,
			      LTTNG_UST_TRACEPOINT_LOGLEVEL_DEBUG)

#endif /* PAGEPOOL_TP_H */

#include <lttng/tracepoint-event.h>
