/* SPDX-License-Identifier: MIT */
/*
 * The trace schema, written once: every payload field of the "rpcsim"
 * provider and of pagepool:mm_page_alloc_bulk, and the enumerations their
 * fields use.
 *
 * Readers of this table:
 *   - the providers (rpcsim_tp.h, pagepool_tp.h) expand the field lists
 *     into their LTTNG_UST_TP_FIELDS and the value lists into
 *     LTTNG_UST_TRACEPOINT_ENUM, so babeltrace2 prints names;
 *   - rpcsim-analyze expands them into the field indexes (analyze/reader.h)
 *     and the payload members it binds, by name, once per event class
 *     (analyze/decode.c), and into the names it reports enumeration
 *     values by; `rpcsim-analyze --schema` prints the table;
 *   - tests/analyze/ctfgen.py parses this file to write test traces;
 *   - tests/analyze/test_session.sh records a real trace and fails when a
 *     field the providers emit is missing here, or when a row's report
 *     key is missing from rpcsim-analyze --json: a field is either read
 *     and reported, or it is not emitted.
 *
 * A field list is a macro taking F, called once per field:
 *
 *   F(TYPE, ctype, field, argument, need, report)
 *
 *   TYPE	INT, STR, or ENUM_<name> for an enumeration below (the field is
 *		then an LTTng enumeration of ctype; older traces carry a plain
 *		integer, or for backend and contract a string, and the reader
 *		takes either)
 *   argument	the expression of the tracepoint's arguments it records
 *   need	1 when rpcsim-analyze cannot use the event without the field,
 *		0 when it can (traces of older versions lack some fields)
 *   report	where rpcsim-analyze --json reports it, as a key path inside
 *		each element of "runs" (dots separate the levels); for the
 *		page_pool events, which come outside any run, a path from
 *		the document's "page_pool" object, "-" for a field not read
 *
 * The kmem-shaped pagepool events (mm_page_alloc, mm_page_free, ...) keep
 * the kernel's field layout for tools that know the kernel's events; this
 * project's analysis counts them by name and reads none of their fields,
 * so they are not in this table.
 */
#ifndef PP_TRACE_SCHEMA_H
#define PP_TRACE_SCHEMA_H

/*
 * Enumerations: V(label, value).  The values are the integers the fields
 * carried before they were enumerations.
 */

/* rpcsim modes (rpcsim --alloc): enum rpcsim_tp_mode */
#define TRACE_ENUM_MODE(V)						\
	V("single", 0)							\
	V("list", 1)							\
	V("array", 2)

/* request.op */
#define TRACE_ENUM_OP(V)						\
	V("READ", 0)							\
	V("WRITE", 1)

/* the page backend: enum pp_backend */
#define TRACE_ENUM_BACKEND(V)						\
	V("buddy", 0)							\
	V("jemalloc", 1)						\
	V("plugin", 2)

/* the bulk contract: enum pp_bulk_variant, pp_bulk_variant_name() */
#define TRACE_ENUM_CONTRACT(V)						\
	V("merged", 0)							\
	V("stop-at-first-populated", 1)					\
	V("batched-stats", 2)						\
	V("no-single-fallback", 3)					\
	V("pure-output", 4)

/* mm_page_alloc_bulk.variant: which bulk API */
#define TRACE_ENUM_BULK_API(V)						\
	V("list", 0)							\
	V("array", 1)

/* mm_page_alloc_bulk.fallback: enum pp_trace_fallback */
#define TRACE_ENUM_FALLBACK(V)						\
	V("none", 0)							\
	V("one_page", 1)						\
	V("watermark", 2)						\
	V("trylock", 3)							\
	V("empty", 4)

/* rpcsim:run_start (argument: const struct rpcsim_tp_run *r) */
#define TRACE_FIELDS_RUN_START(F)					\
	F(STR, const char *, mode_name, r->mode_name, 0, "config.mode_name") \
	F(ENUM_MODE, unsigned int, mode, r->mode, 1, "mode")		\
	F(INT, unsigned int, run, r->run, 1, "run")			\
	F(INT, int, pid, r->pid, 0, "config.pid")			\
	F(INT, unsigned int, threads, r->threads, 0, "config.threads")	\
	F(INT, unsigned int, slots, r->slots, 0, "config.slots")	\
	F(INT, uint64_t, io_size, r->io_size, 0, "config.io_size")	\
	F(INT, uint64_t, max_payload, r->max_payload, 0,		\
	  "config.max_payload")						\
	F(INT, uint64_t, pool_pages, r->pool_pages, 0, "config.pool_pages") \
	F(INT, uint64_t, file_pages, r->file_pages, 0, "config.file_pages") \
	F(INT, unsigned int, pcp_batch, r->pcp_batch, 0, "config.pcp_batch") \
	F(INT, unsigned int, pcp_high, r->pcp_high, 0, "config.pcp_high") \
	F(STR, const char *, completion, r->completion, 0,		\
	  "config.completion")						\
	F(INT, unsigned int, read_weight, r->read_weight, 0,		\
	  "config.read_weight")						\
	F(INT, unsigned int, write_weight, r->write_weight, 0,		\
	  "config.write_weight")					\
	F(INT, uint64_t, seed, r->seed, 0, "config.seed")		\
	F(STR, const char *, version, r->version, 0, "config.version")	\
	F(ENUM_BACKEND, unsigned int, backend, r->backend, 0,		\
	  "config.backend")						\
	F(ENUM_CONTRACT, unsigned int, bulk_variant, r->bulk_variant, 0, \
	  "config.contract")						\
	F(INT, uint64_t, tcp_read, r->tcp_read, 0, "config.tcp_read")	\
	F(INT, unsigned int, run_seq, r->run_seq, 0, "config.run_seq")

/* rpcsim:run_end: rpcsim's own totals for the run */
#define TRACE_FIELDS_RUN_END(F)						\
	F(ENUM_MODE, unsigned int, mode, mode, 1, "mode")		\
	F(INT, unsigned int, run, run, 1, "run")			\
	F(INT, uint64_t, calls, calls, 1, "run_end.calls")		\
	F(INT, uint64_t, pages, pages, 0, "run_end.pages")		\
	F(INT, uint64_t, latency_sum_ns, latency_sum_ns, 1,		\
	  "run_end.latency_sum_ns")					\
	F(INT, uint64_t, requests, requests, 0, "run_end.requests")	\
	F(INT, uint64_t, no_progress, no_progress, 0, "run_end.no_progress") \
	F(INT, uint64_t, short_reads, short_reads, 0, "run_end.short_reads")

/* rpcsim:svc_alloc_arg_entry */
#define TRACE_FIELDS_ENTRY(F)						\
	F(INT, unsigned int, slots, slots, 0, "entry.slots")		\
	F(INT, unsigned int, holes, holes, 0, "entry.holes")		\
	F(ENUM_MODE, unsigned int, mode, mode, 1, "mode")

/* rpcsim:svc_alloc_arg_exit */
#define TRACE_FIELDS_EXIT(F)						\
	F(INT, unsigned int, allocated, allocated, 0, "exit.allocated")	\
	F(INT, unsigned int, alloc_calls, alloc_calls, 0,		\
	  "exit.alloc_calls")						\
	F(INT, unsigned int, retries, retries, 0, "exit.retries")	\
	F(INT, uint64_t, latency_ns, latency_ns, 1, "latency_ns")

/* rpcsim:svc_alloc_arg_err */
#define TRACE_FIELDS_ERR(F)						\
	F(INT, unsigned int, requested, requested, 0, "err.requested")	\
	F(INT, unsigned int, allocated, allocated, 0, "err.allocated")

/* rpcsim:request */
#define TRACE_FIELDS_REQUEST(F)						\
	F(ENUM_OP, unsigned int, op, op, 0, "request.op")		\
	F(INT, uint64_t, bytes, bytes, 0, "request.bytes")		\
	F(INT, unsigned int, request_pages, request_pages, 0,		\
	  "request.pages")

/*
 * rpcsim:svc_tcp_recv_short (rpcsim --tcp-read): a read left a record
 * short.  The two counts of the kernel's sunrpc:svcsock_tcp_recv_short,
 * both without the 4-byte record marker: expected, the record's length;
 * received, how much of it is in hand after this read.
 */
#define TRACE_FIELDS_RECV_SHORT(F)					\
	F(INT, uint64_t, expected, expected, 0, "recv_short.expected")	\
	F(INT, uint64_t, received, received, 0, "recv_short.received")

/* pagepool:mm_page_alloc_bulk */
#define TRACE_FIELDS_ALLOC_BULK(F)					\
	F(INT, unsigned long, requested, requested, 0, "bulk.requested") \
	F(INT, unsigned long, populated, populated, 0, "bulk.populated") \
	F(INT, unsigned long, allocated, allocated, 0, "bulk.allocated") \
	F(ENUM_BULK_API, unsigned int, variant, variant, 0, "bulk.api")	\
	F(ENUM_FALLBACK, unsigned int, fallback, fallback, 0,		\
	  "bulk.fallback")

/*
 * The page_pool provider (tracepoints/page_pool_tp.h), rpcsim's
 * --consumer=page_pool.  The pages are balanced by count: a pfn is not
 * read (report "-"), the running counts only checked against the events.
 */

/* page_pool:page_pool_state_hold: a page entered the pool */
#define TRACE_FIELDS_PP_HOLD(F)						\
	F(INT, uintptr_t, pool, pool, 1, "page_pool.pools.holds")	\
	F(INT, unsigned long, pfn, pfn, 0, "-")				\
	F(INT, uint32_t, hold, hold, 0, "page_pool.pools.hold_count")

/* page_pool:page_pool_state_release: a page left the pool */
#define TRACE_FIELDS_PP_PUT(F)						\
	F(INT, uintptr_t, pool, pool, 1, "page_pool.pools.releases")	\
	F(INT, unsigned long, pfn, pfn, 0, "-")				\
	F(INT, uint32_t, release, release, 0,				\
	  "page_pool.pools.release_count")

/* page_pool:page_pool_release: the pool is destroyed */
#define TRACE_FIELDS_PP_DESTROY(F)					\
	F(INT, uintptr_t, pool, pool, 1, "page_pool.pools.pool")	\
	F(INT, int32_t, inflight, inflight, 1, "page_pool.pools.inflight") \
	F(INT, uint32_t, hold, hold, 0, "page_pool.pools.hold_count")	\
	F(INT, uint32_t, release, release, 0,				\
	  "page_pool.pools.release_count")

/* page_pool:page_pool_alloc_slow: one slow-path refill */
#define TRACE_FIELDS_PP_SLOW(F)						\
	F(INT, uintptr_t, pool, pool, 1, "page_pool.pools.refills")	\
	F(ENUM_MODE, unsigned int, mode, mode, 1, "page_pool.modes.mode") \
	F(INT, unsigned int, allocated, allocated, 0,			\
	  "page_pool.modes.pages")					\
	F(INT, unsigned int, alloc_calls, alloc_calls, 0,		\
	  "page_pool.modes.alloc_calls")				\
	F(INT, uint64_t, latency_ns, latency_ns, 1,			\
	  "page_pool.modes.mean_ns")

/*
 * The events, with the name of their field list: E(provider, event,
 * FIELDS).  Only these events are in the schema.
 */
#define TRACE_EVENTS(E)							\
	E(rpcsim, run_start, TRACE_FIELDS_RUN_START)			\
	E(rpcsim, run_end, TRACE_FIELDS_RUN_END)			\
	E(rpcsim, svc_alloc_arg_entry, TRACE_FIELDS_ENTRY)		\
	E(rpcsim, svc_alloc_arg_exit, TRACE_FIELDS_EXIT)		\
	E(rpcsim, svc_alloc_arg_err, TRACE_FIELDS_ERR)			\
	E(rpcsim, request, TRACE_FIELDS_REQUEST)			\
	E(rpcsim, svc_tcp_recv_short, TRACE_FIELDS_RECV_SHORT)		\
	E(pagepool, mm_page_alloc_bulk, TRACE_FIELDS_ALLOC_BULK)	\
	E(page_pool, page_pool_state_hold, TRACE_FIELDS_PP_HOLD)	\
	E(page_pool, page_pool_state_release, TRACE_FIELDS_PP_PUT)	\
	E(page_pool, page_pool_release, TRACE_FIELDS_PP_DESTROY)	\
	E(page_pool, page_pool_alloc_slow, TRACE_FIELDS_PP_SLOW)

#endif /* PP_TRACE_SCHEMA_H */
