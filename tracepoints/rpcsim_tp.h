/* SPDX-License-Identifier: MIT */
/*
 * LTTng-UST provider "rpcsim": the SUNRPC-like server's events.  Every
 * svc_alloc_arg() call is bracketed by an entry and an exit event; the exit
 * carries the latency rpcsim measured itself, so an analysis can compare it
 * with the distance between the two timestamps.  run_start/run_end make a
 * trace self-describing.
 *
 * mode: 0 single, 1 list, 2 array.
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

/* run_start: the run's configuration (struct rpcsim_tp_run). */
LTTNG_UST_TRACEPOINT_EVENT(rpcsim, run_start,
	LTTNG_UST_TP_ARGS(const struct rpcsim_tp_run *, r),
	LTTNG_UST_TP_FIELDS(
		lttng_ust_field_string(mode_name, r->mode_name)
		lttng_ust_field_integer(unsigned int, mode, r->mode)
		lttng_ust_field_integer(unsigned int, run, r->run)
		lttng_ust_field_integer(unsigned int, threads, r->threads)
		lttng_ust_field_integer(unsigned int, slots, r->slots)
		lttng_ust_field_integer(uint64_t, io_size, r->io_size)
		lttng_ust_field_integer(uint64_t, max_payload, r->max_payload)
		lttng_ust_field_integer(uint64_t, pool_pages, r->pool_pages)
		lttng_ust_field_integer(uint64_t, file_pages, r->file_pages)
		lttng_ust_field_integer(unsigned int, pcp_batch, r->pcp_batch)
		lttng_ust_field_integer(unsigned int, pcp_high, r->pcp_high)
		lttng_ust_field_string(completion, r->completion)
		lttng_ust_field_integer(unsigned int, read_weight, r->read_weight)
		lttng_ust_field_integer(unsigned int, write_weight,
					r->write_weight)
		lttng_ust_field_integer(uint64_t, seed, r->seed)
		lttng_ust_field_string(version, r->version)
		lttng_ust_field_string(backend, r->backend)
		lttng_ust_field_string(bulk_variant, r->bulk_variant)
	)
)

/* run_end: rpcsim's own totals for the run, to check a trace against. */
LTTNG_UST_TRACEPOINT_EVENT(rpcsim, run_end,
	LTTNG_UST_TP_ARGS(unsigned int, mode, unsigned int, run,
			  uint64_t, calls, uint64_t, pages,
			  uint64_t, latency_sum_ns, uint64_t, requests,
			  uint64_t, no_progress),
	LTTNG_UST_TP_FIELDS(
		lttng_ust_field_integer(unsigned int, mode, mode)
		lttng_ust_field_integer(unsigned int, run, run)
		lttng_ust_field_integer(uint64_t, calls, calls)
		lttng_ust_field_integer(uint64_t, pages, pages)
		lttng_ust_field_integer(uint64_t, latency_sum_ns, latency_sum_ns)
		lttng_ust_field_integer(uint64_t, requests, requests)
		lttng_ust_field_integer(uint64_t, no_progress, no_progress)
	)
)

/* svc_alloc_arg_entry: slots is the rq_pages size, holes the NULL ones. */
LTTNG_UST_TRACEPOINT_EVENT(rpcsim, svc_alloc_arg_entry,
	LTTNG_UST_TP_ARGS(unsigned int, slots, unsigned int, holes,
			  unsigned int, mode),
	LTTNG_UST_TP_FIELDS(
		lttng_ust_field_integer(unsigned int, slots, slots)
		lttng_ust_field_integer(unsigned int, holes, holes)
		lttng_ust_field_integer(unsigned int, mode, mode)
	)
)

/*
 * svc_alloc_arg_exit: pages allocated by the call, calls made into the
 * allocator, no-progress retries, and the latency rpcsim measured with
 * CLOCK_MONOTONIC around the call.
 */
LTTNG_UST_TRACEPOINT_EVENT(rpcsim, svc_alloc_arg_exit,
	LTTNG_UST_TP_ARGS(unsigned int, allocated, unsigned int, alloc_calls,
			  unsigned int, retries, uint64_t, latency_ns),
	LTTNG_UST_TP_FIELDS(
		lttng_ust_field_integer(unsigned int, allocated, allocated)
		lttng_ust_field_integer(unsigned int, alloc_calls, alloc_calls)
		lttng_ust_field_integer(unsigned int, retries, retries)
		lttng_ust_field_integer(uint64_t, latency_ns, latency_ns)
	)
)

/* svc_alloc_arg_err: an allocator call made no progress (then it waits). */
LTTNG_UST_TRACEPOINT_EVENT(rpcsim, svc_alloc_arg_err,
	LTTNG_UST_TP_ARGS(unsigned int, requested, unsigned int, allocated),
	LTTNG_UST_TP_FIELDS(
		lttng_ust_field_integer(unsigned int, requested, requested)
		lttng_ust_field_integer(unsigned int, allocated, allocated)
	)
)

/* request: one received request.  op: 0 READ, 1 WRITE. */
LTTNG_UST_TRACEPOINT_EVENT(rpcsim, request,
	LTTNG_UST_TP_ARGS(unsigned int, op, uint64_t, bytes,
			  unsigned int, request_pages),
	LTTNG_UST_TP_FIELDS(
		lttng_ust_field_integer(unsigned int, op, op)
		lttng_ust_field_integer(uint64_t, bytes, bytes)
		lttng_ust_field_integer(unsigned int, request_pages, request_pages)
	)
)

#endif /* RPCSIM_TP_H */

#include <lttng/tracepoint-event.h>
