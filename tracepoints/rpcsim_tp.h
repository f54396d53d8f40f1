/* SPDX-License-Identifier: MIT */
/*
 * LTTng-UST provider "rpcsim": the SUNRPC-like server's events.  Every
 * svc_alloc_arg() call is bracketed by an entry and an exit event; the exit
 * carries the latency rpcsim measured itself, so an analysis can compare it
 * with the distance between the two timestamps.  run_start/run_end make a
 * trace self-describing.  The fields are listed in trace_schema.h; mode,
 * op, backend and the bulk contract are enumerations there.
 */
#undef LTTNG_UST_TRACEPOINT_PROVIDER
#define LTTNG_UST_TRACEPOINT_PROVIDER rpcsim

#undef LTTNG_UST_TRACEPOINT_INCLUDE
#define LTTNG_UST_TRACEPOINT_INCLUDE "rpcsim_tp.h"

#if !defined(RPCSIM_TP_H) || defined(LTTNG_UST_TRACEPOINT_HEADER_MULTI_READ)
#define RPCSIM_TP_H

#include <lttng/tracepoint.h>
#include <stdint.h>

#include "rpcsim_tp_types.h"
#include "trace_schema.h"

/*
 * The payload fields come from trace_schema.h: F(TYPE, ctype, field,
 * argument, need, report) becomes the LTTng field of TYPE.
 */
#define RPCSIM_TP_F(T, ctype, field, arg, need, report) \
	RPCSIM_TP_F_##T(ctype, field, arg)
#define RPCSIM_TP_F_INT(ctype, field, arg) \
	lttng_ust_field_integer(ctype, field, arg)
#define RPCSIM_TP_F_STR(ctype, field, arg) \
	lttng_ust_field_string(field, arg)
#define RPCSIM_TP_F_ENUM_MODE(ctype, field, arg) \
	lttng_ust_field_enum(rpcsim, mode, ctype, field, arg)
#define RPCSIM_TP_F_ENUM_OP(ctype, field, arg) \
	lttng_ust_field_enum(rpcsim, op, ctype, field, arg)
#define RPCSIM_TP_F_ENUM_BACKEND(ctype, field, arg) \
	lttng_ust_field_enum(rpcsim, backend, ctype, field, arg)
#define RPCSIM_TP_F_ENUM_CONTRACT(ctype, field, arg) \
	lttng_ust_field_enum(rpcsim, contract, ctype, field, arg)
#define RPCSIM_TP_ENUM_VALUE(label, value) \
	lttng_ust_field_enum_value(label, value)

LTTNG_UST_TRACEPOINT_ENUM(rpcsim, mode,
	LTTNG_UST_TP_ENUM_VALUES(TRACE_ENUM_MODE(RPCSIM_TP_ENUM_VALUE)))
LTTNG_UST_TRACEPOINT_ENUM(rpcsim, op,
	LTTNG_UST_TP_ENUM_VALUES(TRACE_ENUM_OP(RPCSIM_TP_ENUM_VALUE)))
LTTNG_UST_TRACEPOINT_ENUM(rpcsim, backend,
	LTTNG_UST_TP_ENUM_VALUES(TRACE_ENUM_BACKEND(RPCSIM_TP_ENUM_VALUE)))
LTTNG_UST_TRACEPOINT_ENUM(rpcsim, contract,
	LTTNG_UST_TP_ENUM_VALUES(TRACE_ENUM_CONTRACT(RPCSIM_TP_ENUM_VALUE)))

/* run_start: the run's configuration (struct rpcsim_tp_run). */
LTTNG_UST_TRACEPOINT_EVENT(rpcsim, run_start,
	LTTNG_UST_TP_ARGS(const struct rpcsim_tp_run *, r),
	LTTNG_UST_TP_FIELDS(TRACE_FIELDS_RUN_START(RPCSIM_TP_F))
)

/* run_end: rpcsim's own totals for the run, to check a trace against. */
LTTNG_UST_TRACEPOINT_EVENT(rpcsim, run_end,
	LTTNG_UST_TP_ARGS(unsigned int, mode, unsigned int, run,
			  uint64_t, calls, uint64_t, pages,
			  uint64_t, latency_sum_ns, uint64_t, requests,
			  uint64_t, no_progress, uint64_t, short_reads),
	LTTNG_UST_TP_FIELDS(TRACE_FIELDS_RUN_END(RPCSIM_TP_F))
)

/* svc_alloc_arg_entry: slots is the rq_pages size, holes the NULL ones. */
LTTNG_UST_TRACEPOINT_EVENT(rpcsim, svc_alloc_arg_entry,
	LTTNG_UST_TP_ARGS(unsigned int, slots, unsigned int, holes,
			  unsigned int, mode),
	LTTNG_UST_TP_FIELDS(TRACE_FIELDS_ENTRY(RPCSIM_TP_F))
)

/*
 * svc_alloc_arg_exit: pages allocated by the call, calls made into the
 * allocator, no-progress retries, and the latency rpcsim measured with
 * CLOCK_MONOTONIC around the call.
 */
LTTNG_UST_TRACEPOINT_EVENT(rpcsim, svc_alloc_arg_exit,
	LTTNG_UST_TP_ARGS(unsigned int, allocated, unsigned int, alloc_calls,
			  unsigned int, retries, uint64_t, latency_ns),
	LTTNG_UST_TP_FIELDS(TRACE_FIELDS_EXIT(RPCSIM_TP_F))
)

/* svc_alloc_arg_err: an allocator call made no progress (then it waits). */
LTTNG_UST_TRACEPOINT_EVENT(rpcsim, svc_alloc_arg_err,
	LTTNG_UST_TP_ARGS(unsigned int, requested, unsigned int, allocated),
	LTTNG_UST_TP_FIELDS(TRACE_FIELDS_ERR(RPCSIM_TP_F))
)

/* request: one received request.  op: 0 READ, 1 WRITE. */
LTTNG_UST_TRACEPOINT_EVENT(rpcsim, request,
	LTTNG_UST_TP_ARGS(unsigned int, op, uint64_t, bytes,
			  unsigned int, request_pages),
	LTTNG_UST_TP_FIELDS(TRACE_FIELDS_REQUEST(RPCSIM_TP_F))
)

/*
 * svc_tcp_recv_short: with --tcp-read, a read that left its record short
 * (the thread goes round through svc_alloc_arg() before the next one).
 */
LTTNG_UST_TRACEPOINT_EVENT(rpcsim, svc_tcp_recv_short,
	LTTNG_UST_TP_ARGS(uint64_t, expected, uint64_t, received),
	LTTNG_UST_TP_FIELDS(TRACE_FIELDS_RECV_SHORT(RPCSIM_TP_F))
)

/*
 * Log levels by rate: a run's start and end (a few per run) above the
 * stalls (svc_alloc_arg_err, a handful per run when the pool runs dry),
 * above one event per request or short read, above the per-call pair.  The pagepool
 * provider's events sit lower still (pagepool_tp.h).  So
 * `lttng enable-event -u 'rpcsim:*' --loglevel=TRACE_INFO` records the run
 * summaries alone.
 */
LTTNG_UST_TRACEPOINT_LOGLEVEL(rpcsim, run_start,
			      LTTNG_UST_TRACEPOINT_LOGLEVEL_INFO)
LTTNG_UST_TRACEPOINT_LOGLEVEL(rpcsim, run_end,
			      LTTNG_UST_TRACEPOINT_LOGLEVEL_INFO)
LTTNG_UST_TRACEPOINT_LOGLEVEL(rpcsim, svc_alloc_arg_err,
			      LTTNG_UST_TRACEPOINT_LOGLEVEL_NOTICE)
LTTNG_UST_TRACEPOINT_LOGLEVEL(rpcsim, request,
			      LTTNG_UST_TRACEPOINT_LOGLEVEL_DEBUG_PROCESS)
LTTNG_UST_TRACEPOINT_LOGLEVEL(rpcsim, svc_tcp_recv_short,
			      LTTNG_UST_TRACEPOINT_LOGLEVEL_DEBUG_PROCESS)
LTTNG_UST_TRACEPOINT_LOGLEVEL(rpcsim, svc_alloc_arg_entry,
			      LTTNG_UST_TRACEPOINT_LOGLEVEL_DEBUG_FUNCTION)
LTTNG_UST_TRACEPOINT_LOGLEVEL(rpcsim, svc_alloc_arg_exit,
			      LTTNG_UST_TRACEPOINT_LOGLEVEL_DEBUG_FUNCTION)

#endif /* RPCSIM_TP_H */

#include <lttng/tracepoint-event.h>
