/* SPDX-License-Identifier: MIT */
/*
 * LTTng-UST provider "page_pool": the events of rpcsim's page_pool consumer
 * (rpcsim --consumer=page_pool), named and shaped after the kernel's
 * (include/trace/events/page_pool.h): a page entering the pool from the
 * allocator (state_hold), a page leaving it (state_release), the pool's
 * release at destroy time, each with the pool's running count.  One event
 * the kernel does not have, page_pool_alloc_slow, carries the latency of
 * each slow-path refill, so a trace gives the per-refill figures rpcsim
 * prints.  page_pool_update_nid is not here: rpcsim's pools have one node.
 */
#undef LTTNG_UST_TRACEPOINT_PROVIDER
#define LTTNG_UST_TRACEPOINT_PROVIDER page_pool

#undef LTTNG_UST_TRACEPOINT_INCLUDE
#define LTTNG_UST_TRACEPOINT_INCLUDE "page_pool_tp.h"

#if !defined(PAGE_POOL_TP_H) || defined(LTTNG_UST_TRACEPOINT_HEADER_MULTI_READ)
#define PAGE_POOL_TP_H

#include <lttng/tracepoint.h>
#include <stdint.h>

#include "trace_schema.h"

#define PAGE_POOL_TP_ENUM_VALUE(label, value) \
	lttng_ust_field_enum_value(label, value)

LTTNG_UST_TRACEPOINT_ENUM(page_pool, mode,
	LTTNG_UST_TP_ENUM_VALUES(TRACE_ENUM_MODE(PAGE_POOL_TP_ENUM_VALUE)))

/* page_pool_state_hold: @pfn entered the pool; @hold its count after. */
LTTNG_UST_TRACEPOINT_EVENT(page_pool, page_pool_state_hold,
	LTTNG_UST_TP_ARGS(const void *, pool, unsigned long, pfn,
			  uint32_t, hold),
	LTTNG_UST_TP_FIELDS(
		lttng_ust_field_integer_hex(uintptr_t, pool, (uintptr_t)pool)
		lttng_ust_field_integer_hex(unsigned long, pfn, pfn)
		lttng_ust_field_integer(uint32_t, hold, hold)
	)
)

/* page_pool_state_release: @pfn left the pool; @release its count after. */
LTTNG_UST_TRACEPOINT_EVENT(page_pool, page_pool_state_release,
	LTTNG_UST_TP_ARGS(const void *, pool, unsigned long, pfn,
			  uint32_t, release),
	LTTNG_UST_TP_FIELDS(
		lttng_ust_field_integer_hex(uintptr_t, pool, (uintptr_t)pool)
		lttng_ust_field_integer_hex(unsigned long, pfn, pfn)
		lttng_ust_field_integer(uint32_t, release, release)
	)
)

/*
 * page_pool_release: the pool is being destroyed; @inflight pages it took
 * from the allocator have not come back (hold - release).
 */
LTTNG_UST_TRACEPOINT_EVENT(page_pool, page_pool_release,
	LTTNG_UST_TP_ARGS(const void *, pool, int32_t, inflight,
			  uint32_t, hold, uint32_t, release),
	LTTNG_UST_TP_FIELDS(
		lttng_ust_field_integer_hex(uintptr_t, pool, (uintptr_t)pool)
		lttng_ust_field_integer(int32_t, inflight, inflight)
		lttng_ust_field_integer(uint32_t, hold, hold)
		lttng_ust_field_integer(uint32_t, release, release)
	)
)

/*
 * page_pool_alloc_slow (rpcsim's own): one slow-path refill of an empty
 * alloc cache, the mode it allocated in (single: one page, before 5.13),
 * the pages it got, the allocator calls it made and the latency rpcsim
 * measured around it.
 */
LTTNG_UST_TRACEPOINT_EVENT(page_pool, page_pool_alloc_slow,
	LTTNG_UST_TP_ARGS(const void *, pool, unsigned int, mode,
			  unsigned int, allocated, unsigned int, alloc_calls,
			  uint64_t, latency_ns),
	LTTNG_UST_TP_FIELDS(
		lttng_ust_field_integer_hex(uintptr_t, pool, (uintptr_t)pool)
		lttng_ust_field_enum(page_pool, mode, unsigned int, mode, mode)
		lttng_ust_field_integer(unsigned int, allocated, allocated)
		lttng_ust_field_integer(unsigned int, alloc_calls, alloc_calls)
		lttng_ust_field_integer(uint64_t, latency_ns, latency_ns)
	)
)

/* Per page below per refill below the pool's release (rpcsim_tp.h). */
LTTNG_UST_TRACEPOINT_LOGLEVEL(page_pool, page_pool_release,
			      LTTNG_UST_TRACEPOINT_LOGLEVEL_INFO)
LTTNG_UST_TRACEPOINT_LOGLEVEL(page_pool, page_pool_alloc_slow,
			      LTTNG_UST_TRACEPOINT_LOGLEVEL_DEBUG_FUNCTION)
LTTNG_UST_TRACEPOINT_LOGLEVEL(page_pool, page_pool_state_hold,
			      LTTNG_UST_TRACEPOINT_LOGLEVEL_DEBUG_LINE)
LTTNG_UST_TRACEPOINT_LOGLEVEL(page_pool, page_pool_state_release,
			      LTTNG_UST_TRACEPOINT_LOGLEVEL_DEBUG_LINE)

#endif /* PAGE_POOL_TP_H */

#include <lttng/tracepoint-event.h>
