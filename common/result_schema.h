/* SPDX-License-Identifier: MIT */
/*
 * The result schema, written once: every fixed key of the JSON documents
 * rpcsim --json and rpcsim-analyze --json write, object by object, with
 * the JSON types it may have and whether a reader needs it (as
 * tracepoints/trace_schema.h is for the trace fields).
 *
 * Readers of this table:
 *   - the writers (rpcsim/report.c, analyze/report.c, and the parts both
 *     share: sweep/results.c's origin, common/hist_json.c's histogram)
 *     name each key as RK(object, member), which is the key's string and
 *     does not compile when the object has no such member; they expand
 *     the lists whose members are the fields of the same names in a
 *     struct of their own (marked below) to write them
 *     (RESULT_JSON_FIELD);
 *   - rpcsim-compare expands the objects into the schema it checks every
 *     input against (compare/schema.c), and reads members by the same
 *     RK() names (compare/load.c).
 *
 * An object is a macro taking M, called once per member:
 *
 *   M(member, key, types, need, sub)
 *
 *   member	the C name RK() takes: the key, a '.' in it spelled '_'
 *   key	the member's key in the document
 *   types	the JSON types it may have, T_* below or'ed (FIGURE: a
 *		measured figure, null when it does not exist)
 *   need	REQ: a document without it is refused; OPT: it may be
 *		missing (older documents, or written only in some runs)
 *   sub	what it holds: NONE; STRS(list): one of the strings of a
 *		list of RESULT_STRINGS; OBJ(object): an object of this table;
 *		ITEMS(types): an array of values of those types;
 *		OBJ_ITEMS(object): an array of objects of this table
 *
 * RESULT_OBJECTS lists the objects, with the types of the members an
 * object does not name (0: anything, as a later version may add some).
 * Some member lists are part of several objects (a run and a mode say the
 * same figures): those are fragments, macros taking (M, NEED), where NEED
 * is what the including object passes for the members it decides; RK()
 * names their members by the fragment's name.
 *
 * Keys that are data are not in the table: the objects that hold them
 * are maps whose other members' types the object gives.  They are the
 * allocator's counters (rpcsim "counters", named by pp_vm_event_name()),
 * the pagepool event names of rpcsim-analyze's "pagepool_per_call", the
 * labels of a trace enumeration in "op", "api" and "fallback"
 * (analyze/schema.c), and the swept settings of a sweep's "values".
 * trace_schema.h's report column names keys of rpcsim-analyze's runs
 * again, as paths ("entry.slots"): tests/analyze/test_session.sh holds
 * them against the output.
 */
#ifndef PP_RESULT_SCHEMA_H
#define PP_RESULT_SCHEMA_H

/* The JSON types, as rpcsim-compare checks them. */
enum result_type {
	T_NULL	= 1 << 0,
	T_BOOL	= 1 << 1,
	T_UINT	= 1 << 2,	/* an integer, 0 or more */
	T_INT	= 1 << 3,	/* an integer */
	T_NUM	= 1 << 4,	/* a finite number, 0 or more */
	T_SNUM	= 1 << 5,	/* a finite number */
	T_STR	= 1 << 6,
	T_OBJ	= 1 << 7,
	T_ARR	= 1 << 8,
	/*
	 * With T_UINT: any integer up to 2^64 - 1 included, which json-c's
	 * clamp of a larger one cannot be told from; for an identifier
	 * (rpcsim's --seed takes any), never for a count that is summed.
	 */
	T_FULL64 = 1 << 9,
};

#define FIGURE	(T_NUM | T_NULL)	/* json.c: non-finite -> null */

/*
 * The figures a reader takes (rpcsim-compare, its --sweep), beyond which
 * a document is refused: what no run can measure, so that no sum, square
 * or ratio of the figures it reads overflows.  A call's latency (a mean
 * or a percentile) up to 1000 s; a rate up to 10^12 per second; a mode's
 * runs up to 10^9 s together (rpcsim's longest: 1000 runs of 10^6 s, some
 * 32 years); per call, up to 10^12 of anything (one a ns for the longest
 * call).
 */
#define RESULT_LATENCY_MAX_US	1e9
#define RESULT_RATE_MAX		1e12
#define RESULT_SECONDS_MAX	1e9
#define RESULT_PER_CALL_MAX	1e12

/* The strings a T_STR member with STRS(list) may hold: S(list, ...). */
#define RESULT_STRINGS(S)						\
	S(rpcsim_modes, "single", "list", "array")			\
	S(rpcsim_allocs, "single", "list", "array", "all")		\
	S(completions, "thread", "inline")				\
	S(backends, "buddy", "jemalloc", "plugin")			\
	S(bulk_variants, "merged", "stop-at-first-populated",		\
	  "batched-stats", "no-single-fallback", "pure-output")		\
	S(profiles, "lean", "kernel")					\
	S(consumers, "nfsd", "page_pool")

/* A map: no member is named. */
#define RESULT_NO_MEMBERS(M)

/* --- rpcsim --json -------------------------------------------------------- */

/* The top level. */
#define RESULT_RPCSIM_DOC(M)						\
	M(program, "program", T_STR, REQ, NONE)				\
	M(version, "version", T_STR, OPT, NONE)				\
	M(libpagepool, "libpagepool", T_STR, OPT, NONE)			\
	RESULT_ORIGIN(M, OPT)						\
	M(sweep, "sweep", T_OBJ | T_NULL, OPT, OBJ(rpcsim_sweep))	\
	M(config, "config", T_OBJ, REQ, OBJ(rpcsim_config))		\
	M(modes, "modes", T_ARR, REQ, OBJ_ITEMS(rpcsim_mode))		\
	M(trace, "trace", T_OBJ | T_NULL, OPT, OBJ(rpcsim_trace))

/*
 * Where the document was made (results_json_origin(), which pagebench's
 * documents share; rpcsim --sweep marks other machines).
 */
#define RESULT_ORIGIN(M, NEED)						\
	M(host, "host", T_STR, NEED, NONE)				\
	M(build, "build", T_OBJ, NEED, OBJ(build))			\
	M(machine, "machine", T_OBJ, OPT, OBJ(machine))			\
	M(started, "started", T_STR, OPT, NONE)				\
	M(slurm, "slurm", T_OBJ | T_NULL, OPT, OBJ(slurm))		\
	M(interrupted, "interrupted", T_BOOL, OPT, NONE)		\
	M(signal, "signal", T_STR | T_NULL, OPT, NONE)

/* pagebench's documents add "tsc_ghz". */
#define RESULT_MACHINE(M)						\
	M(cpu, "cpu", T_STR, OPT, NONE)					\
	M(online_cpus, "online_cpus", T_UINT, OPT, NONE)		\
	M(kernel, "kernel", T_STR, OPT, NONE)				\
	M(arch, "arch", T_STR, OPT, NONE)				\
	M(tsc_ghz, "tsc_ghz", FIGURE, OPT, NONE)

/* Slurm's ids as its environment gives them, null when not set. */
#define RESULT_SLURM(M)							\
	M(job_id, "job_id", T_STR | T_NULL, OPT, NONE)			\
	M(array_job_id, "array_job_id", T_STR | T_NULL, OPT, NONE)	\
	M(array_task_id, "array_task_id", T_STR | T_NULL, OPT, NONE)

#define RESULT_BUILD(M)							\
	M(version, "version", T_STR, OPT, NONE)				\
	M(libpagepool, "libpagepool", T_STR, OPT, NONE)			\
	M(configure, "configure", T_STR, OPT, NONE)			\
	M(asan, "asan", T_BOOL, OPT, NONE)				\
	M(pcp_impl, "pcp_impl", T_STR, OPT, NONE)

/* --point=N: the grid, this point of it, and its settings. */
#define RESULT_RPCSIM_SWEEP(M)						\
	M(point, "point", T_UINT, OPT, NONE)				\
	M(points, "points", T_UINT, OPT, NONE)				\
	M(name, "name", T_STR, OPT, NONE)				\
	M(settings, "settings", T_STR, OPT, NONE)			\
	M(keys, "keys", T_ARR, OPT, OBJ_ITEMS(sweep_key))		\
	M(values, "values", T_OBJ, OPT, OBJ(sweep_values))

#define RESULT_SWEEP_KEY(M)						\
	M(key, "key", T_STR, OPT, NONE)					\
	M(values, "values", T_ARR, OPT, ITEMS(T_STR))

#define RESULT_RPCSIM_CONFIG(M)						\
	M(consumer, "consumer", T_STR, OPT, STRS(consumers))		\
	M(page_pool, "page_pool", T_OBJ, OPT,				\
	  OBJ(rpcsim_page_pool_config))					\
	M(alloc, "alloc", T_STR, OPT, STRS(rpcsim_allocs))		\
	M(threads, "threads", T_UINT, OPT, NONE)			\
	M(duration_s, "duration_s", T_NUM | T_NULL, OPT, NONE)		\
	M(requests, "requests", T_UINT | T_NULL, OPT, NONE)		\
	M(mix, "mix", T_OBJ, OPT, OBJ(rpcsim_mix))			\
	M(io_size, "io_size", T_UINT, OPT, NONE)			\
	M(max_payload, "max_payload", T_UINT, OPT, NONE)		\
	M(sv_max_mesg, "sv_max_mesg", T_UINT, OPT, NONE)		\
	M(rq_pages, "rq_pages", T_UINT, OPT, NONE)			\
	M(pool_size, "pool_size", T_UINT, OPT, NONE)			\
	M(pool_pages, "pool_pages", T_UINT, OPT, NONE)			\
	M(min_pool_pages, "min_pool_pages", T_UINT, OPT, NONE)		\
	M(file_size, "file_size", T_UINT, OPT, NONE)			\
	M(file_pages, "file_pages", T_UINT, OPT, NONE)			\
	M(tcp_read, "tcp_read", T_UINT | T_NULL, OPT, NONE)		\
	M(pcp_batch, "pcp_batch", T_UINT, OPT, NONE)			\
	M(pcp_high, "pcp_high", T_UINT, OPT, NONE)			\
	M(backend, "backend", T_STR, OPT, STRS(backends))		\
	M(plugin, "plugin", T_STR, OPT, NONE)				\
	M(bulk_variant, "bulk_variant", T_STR, OPT, STRS(bulk_variants)) \
	M(profile, "profile", T_STR, OPT, STRS(profiles))		\
	M(debug_list, "debug_list", T_BOOL, OPT, NONE)			\
	M(pcp_impl, "pcp_impl", T_STR, OPT, NONE)			\
	M(pcp_unavailable, "pcp_unavailable", T_STR, OPT, NONE)		\
	M(jemalloc, "jemalloc", T_OBJ | T_NULL, OPT, OBJ(rpcsim_jemalloc)) \
	M(completion, "completion", T_STR, OPT, STRS(completions))	\
	M(queue_depth, "queue_depth", T_UINT, OPT, NONE)		\
	M(retry_wait_us, "retry_wait_us", T_UINT, OPT, NONE)		\
	M(seed, "seed", T_UINT | T_FULL64, OPT, NONE)		\
	M(repeat, "repeat", T_UINT, OPT, NONE)				\
	M(warmup, "warmup", T_UINT, OPT, NONE)				\
	M(asan, "asan", T_BOOL, OPT, NONE)				\
	M(debug_checks, "debug_checks", T_BOOL, OPT, NONE)		\
	M(clock_ns, "clock_ns", T_UINT, OPT, NONE)

/* --consumer=page_pool's settings. */
#define RESULT_RPCSIM_PAGE_POOL_CONFIG(M)				\
	M(rx_queues, "rx_queues", T_UINT, OPT, NONE)			\
	M(cache_size, "cache_size", T_UINT, OPT, NONE)			\
	M(refill_size, "refill_size", T_UINT, OPT, NONE)		\
	M(ring_size, "ring_size", T_UINT, OPT, NONE)			\
	M(packet_size, "packet_size", T_UINT, OPT, NONE)		\
	M(packet_pages, "packet_pages", T_UINT, OPT, NONE)		\
	M(rate, "rate", T_UINT, OPT, NONE)				\
	M(call_timing, "call_timing", T_BOOL, OPT, NONE)		\
	M(free_mix, "free_mix", T_OBJ, OPT, OBJ(rpcsim_free_mix))

#define RESULT_RPCSIM_FREE_MIX(M)					\
	M(direct, "direct", T_UINT, OPT, NONE)				\
	M(ring, "ring", T_UINT, OPT, NONE)				\
	M(held, "held", T_UINT, OPT, NONE)				\
	M(released, "released", T_UINT, OPT, NONE)

#define RESULT_RPCSIM_MIX(M)						\
	M(read, "read", T_UINT, REQ, NONE)				\
	M(write, "write", T_UINT, REQ, NONE)

#define RESULT_RPCSIM_JEMALLOC(M)					\
	M(tcache, "tcache", T_BOOL, OPT, NONE)				\
	M(tcache_slots, "tcache_slots", T_INT, OPT, NONE)		\
	M(batch_alloc, "batch_alloc", T_BOOL, OPT, NONE)		\
	M(headroom_pages, "headroom_pages", T_UINT, OPT, NONE)

/* What a run and a mode (all its runs) both say; NEED: REQ for a run. */
#define RESULT_RPCSIM_FIGURES(M, NEED)					\
	M(calls, "calls", T_UINT, REQ, NONE)				\
	M(mean_us, "mean_us", FIGURE, NEED, NONE)			\
	M(stddev_us, "stddev_us", FIGURE, OPT, NONE)			\
	M(min_us, "min_us", FIGURE, OPT, NONE)				\
	M(max_us, "max_us", FIGURE, OPT, NONE)				\
	M(percentiles_us, "percentiles_us", T_OBJ, NEED,		\
	  OBJ(rpcsim_percentiles))					\
	M(histogram, "histogram", T_OBJ, OPT, OBJ(histogram))		\
	M(pages, "pages", T_UINT, OPT, NONE)				\
	M(pages_per_call, "pages_per_call", FIGURE, NEED, NONE)		\
	M(alloc_calls, "alloc_calls", T_UINT, OPT, NONE)		\
	M(alloc_calls_per_call, "alloc_calls_per_call", FIGURE, OPT, NONE) \
	RESULT_RPCSIM_REQUESTS(M)					\
	M(requests_per_s, "requests_per_s", FIGURE, NEED, NONE)		\
	M(no_progress, "no_progress", T_UINT, NEED, NONE)		\
	M(waits, "waits", T_UINT, NEED, NONE)				\
	M(wait_s, "wait_s", FIGURE, OPT, NONE)				\
	M(elapsed_s, "elapsed_s", FIGURE, OPT, NONE)			\
	M(completions, "completions", T_UINT, OPT, NONE)		\
	M(digest, "digest", T_STR, OPT, NONE)				\
	M(counters, "counters", T_OBJ, NEED, OBJ(rpcsim_counters))	\
	M(by_refill, "by_refill", T_OBJ, OPT, OBJ(rpcsim_by_refill))	\
	M(page_pool, "page_pool", T_OBJ, OPT, OBJ(rpcsim_page_pool))

/*
 * The nfsd consumer's calls by what they refilled (enum by_refill,
 * common/by_refill.h): at most one page, or more.  rpcsim-analyze's
 * "by_refill" is this object too, so one reader reads both.
 */
#define RESULT_RPCSIM_BY_REFILL(M)					\
	M(one_page, "one_page", T_OBJ, OPT, OBJ(rpcsim_refill))		\
	M(more_pages, "more_pages", T_OBJ, OPT, OBJ(rpcsim_refill))

#define RESULT_RPCSIM_REFILL(M)						\
	M(calls, "calls", T_UINT, OPT, NONE)				\
	M(mean_us, "mean_us", FIGURE, OPT, NONE)			\
	M(p50_us, "p50_us", FIGURE, OPT, NONE)				\
	M(p90_us, "p90_us", FIGURE, OPT, NONE)

/*
 * The requests the figures count, named as struct svc_stats's counts
 * (rpcsim/nfsd/svc.h): rpcsim writes the list expanded.
 */
#define RESULT_RPCSIM_REQUESTS(M)					\
	M(requests, "requests", T_UINT, OPT, NONE)			\
	M(reads, "reads", T_UINT, OPT, NONE)				\
	M(writes, "writes", T_UINT, OPT, NONE)				\
	M(bytes_read, "bytes_read", T_UINT, OPT, NONE)			\
	M(bytes_written, "bytes_written", T_UINT, OPT, NONE)		\
	M(short_reads, "short_reads", T_UINT, OPT, NONE)

#define RESULT_RPCSIM_MODE(M)						\
	M(mode, "mode", T_STR, REQ, STRS(rpcsim_modes))			\
	M(label, "label", T_STR, OPT, NONE)				\
	M(runs, "runs", T_UINT, OPT, NONE)				\
	RESULT_RPCSIM_FIGURES(M, OPT)					\
	M(across_runs, "across_runs", T_OBJ, OPT,			\
	  OBJ(rpcsim_across_runs))					\
	M(per_run, "per_run", T_ARR, REQ, OBJ_ITEMS(rpcsim_run))

#define RESULT_RPCSIM_RUN(M)						\
	M(run, "run", T_UINT, REQ, NONE)				\
	RESULT_RPCSIM_FIGURES(M, REQ)					\
	M(threads, "threads", T_ARR, OPT, OBJ_ITEMS(rpcsim_thread))	\
	M(accounting, "accounting", T_OBJ, OPT, OBJ(rpcsim_accounting))	\
	M(pool_at_exit, "pool_at_exit", T_OBJ, OPT,			\
	  OBJ(rpcsim_pool_at_exit))					\
	M(intervals, "intervals", T_OBJ, OPT, OBJ(timeline))

/* --interval=DUR: the run's latency over time (timeline_json()). */
#define RESULT_TIMELINE(M)						\
	M(interval_s, "interval_s", T_NUM, OPT, NONE)			\
	M(beyond, "beyond", T_UINT, OPT, NONE)				\
	M(rows, "rows", T_ARR, OPT, OBJ_ITEMS(timeline_row))

#define RESULT_TIMELINE_ROW(M)						\
	M(start_s, "start_s", T_NUM, OPT, NONE)				\
	M(calls, "calls", T_UINT, OPT, NONE)				\
	M(mean_us, "mean_us", FIGURE, OPT, NONE)			\
	M(p50_us, "p50_us", FIGURE, OPT, NONE)				\
	M(p99_us, "p99_us", FIGURE, OPT, NONE)

#define RESULT_RPCSIM_PERCENTILES(M)					\
	M(p50, "p50", FIGURE, REQ, NONE)				\
	M(p90, "p90", FIGURE, REQ, NONE)				\
	M(p99, "p99", FIGURE, REQ, NONE)				\
	M(p99_9, "p99.9", FIGURE, REQ, NONE)				\
	M(p99_99, "p99.99", FIGURE, OPT, NONE)

/* A histogram's buckets (hist_json()), in both documents. */
#define RESULT_HISTOGRAM(M)						\
	M(unit, "unit", T_STR, OPT, NONE)				\
	M(buckets_are, "buckets_are", T_STR, OPT, NONE)			\
	M(buckets, "buckets", T_ARR, OPT, ITEMS(T_ARR))

/* How the runs' means spread (every other member a figure). */
#define RESULT_RPCSIM_ACROSS_RUNS(M)					\
	M(n, "n", T_UINT, OPT, NONE)					\
	M(avg_us, "avg_us", FIGURE, OPT, NONE)				\
	M(stddev_us, "stddev_us", FIGURE, OPT, NONE)			\
	M(min_us, "min_us", FIGURE, OPT, NONE)				\
	M(max_us, "max_us", FIGURE, OPT, NONE)				\
	M(trimmed_mean_us, "trimmed_mean_us", FIGURE, OPT, NONE)	\
	M(trimmed, "trimmed", T_UINT, OPT, NONE)

/*
 * A server thread's share of a run (every other member a count).  Members
 * named as struct svc_stats's: rpcsim writes the list expanded.
 */
#define RESULT_RPCSIM_THREAD(M)						\
	M(calls, "calls", T_UINT, OPT, NONE)				\
	M(pages, "pages", T_UINT, OPT, NONE)				\
	M(requests, "requests", T_UINT, OPT, NONE)			\
	M(no_progress, "no_progress", T_UINT, OPT, NONE)		\
	M(waits, "waits", T_UINT, OPT, NONE)

/* The pool when the run ended (every other member a count). */
#define RESULT_RPCSIM_POOL_AT_EXIT(M)					\
	M(nr_pages, "nr_pages", T_UINT, OPT, NONE)			\
	M(nr_free, "nr_free", T_UINT, OPT, NONE)			\
	M(nr_pcp, "nr_pcp", T_UINT, OPT, NONE)				\
	M(nr_backend, "nr_backend", T_UINT, OPT, NONE)			\
	M(pgalloc, "pgalloc", T_UINT, OPT, NONE)			\
	M(pgfree, "pgfree", T_UINT, OPT, NONE)				\
	M(leaked, "leaked", T_UINT, OPT, NONE)				\
	M(counters_consistent, "counters_consistent", T_BOOL, OPT, NONE)

/* rpcsim's own books (every other member a count). */
#define RESULT_RPCSIM_ACCOUNTING(M)					\
	M(pages_allocated, "pages_allocated", T_UINT, OPT, NONE)	\
	M(pages_released, "pages_released", T_UINT, OPT, NONE)		\
	M(cache_gets, "cache_gets", T_UINT, OPT, NONE)			\
	M(cache_puts, "cache_puts", T_UINT, OPT, NONE)

/*
 * --consumer=page_pool: what the page_pools did (the kernel's names).  The
 * *_PAGES and *_PACKETS lists are named as the counts of struct
 * page_pool_alloc_stats and struct ppool_result (rpcsim/page_pool/):
 * rpcsim writes them expanded.
 */
#define RESULT_RPCSIM_PAGE_POOL(M)					\
	M(refills, "refills", T_UINT, OPT, NONE)			\
	M(refill_pages, "refill_pages", T_UINT, OPT, NONE)		\
	M(pages_per_refill, "pages_per_refill", FIGURE, OPT, NONE)	\
	M(ns_per_page, "ns_per_page", FIGURE, OPT, NONE)		\
	M(refills_empty, "refills_empty", T_UINT, OPT, NONE)		\
	M(hit_rate, "hit_rate", FIGURE, OPT, NONE)			\
	RESULT_RPCSIM_PAGE_POOL_PAGES(M)				\
	M(alloc_stats, "alloc_stats", T_OBJ, OPT, OBJ(rpcsim_alloc_stats)) \
	M(recycle_napi, "recycle_napi", T_OBJ, OPT, OBJ(rpcsim_recycle)) \
	M(recycle_stack, "recycle_stack", T_OBJ, OPT, OBJ(rpcsim_recycle)) \
	RESULT_RPCSIM_PAGE_POOL_PACKETS(M)				\
	M(packets_per_s, "packets_per_s", FIGURE, OPT, NONE)		\
	RESULT_RPCSIM_PAGE_POOL_FREED(M)

/* The pages handed out, by where they came from. */
#define RESULT_RPCSIM_PAGE_POOL_PAGES(M)				\
	M(handed_out, "handed_out", T_UINT, OPT, NONE)			\
	M(from_cache, "from_cache", T_UINT, OPT, NONE)			\
	M(from_ring, "from_ring", T_UINT, OPT, NONE)			\
	M(from_alloc, "from_alloc", T_UINT, OPT, NONE)

/* The pages' references and the packets. */
#define RESULT_RPCSIM_PAGE_POOL_PACKETS(M)				\
	M(hold, "hold", T_UINT, OPT, NONE)				\
	M(release, "release", T_UINT, OPT, NONE)			\
	M(inflight, "inflight", T_UINT, OPT, NONE)			\
	M(packets, "packets", T_UINT, OPT, NONE)			\
	M(dropped, "dropped", T_UINT, OPT, NONE)

/* How the received packets were freed. */
#define RESULT_RPCSIM_PAGE_POOL_FREED(M)				\
	M(freed_direct, "freed_direct", T_UINT, OPT, NONE)		\
	M(freed_ring, "freed_ring", T_UINT, OPT, NONE)			\
	M(freed_held, "freed_held", T_UINT, OPT, NONE)			\
	M(freed_released, "freed_released", T_UINT, OPT, NONE)		\
	M(clone_puts, "clone_puts", T_UINT, OPT, NONE)

/* Members named as struct page_pool_alloc_stats's (as the thread's). */
#define RESULT_RPCSIM_ALLOC_STATS(M)					\
	M(fast, "fast", T_UINT, OPT, NONE)				\
	M(slow, "slow", T_UINT, OPT, NONE)				\
	M(empty, "empty", T_UINT, OPT, NONE)				\
	M(refill, "refill", T_UINT, OPT, NONE)				\
	M(refill_pages, "refill_pages", T_UINT, OPT, NONE)

/* Members named as struct page_pool_recycle_stats's (as the thread's). */
#define RESULT_RPCSIM_RECYCLE(M)					\
	M(cached, "cached", T_UINT, OPT, NONE)				\
	M(cache_full, "cache_full", T_UINT, OPT, NONE)			\
	M(ring, "ring", T_UINT, OPT, NONE)				\
	M(ring_full, "ring_full", T_UINT, OPT, NONE)			\
	M(released_refcnt, "released_refcnt", T_UINT, OPT, NONE)

/* --trace: the session's folder and what the tracer lost. */
#define RESULT_RPCSIM_TRACE(M)						\
	M(dir, "dir", T_STR, OPT, NONE)					\
	M(events, "events", T_STR, OPT, NONE)				\
	M(discarded_events, "discarded_events", T_UINT, OPT, NONE)	\
	M(lost_packets, "lost_packets", T_UINT, OPT, NONE)

/* --- rpcsim-analyze --json ------------------------------------------------ */

#define RESULT_ANALYZE_DOC(M)						\
	M(tool, "tool", T_STR, REQ, NONE)				\
	M(traces, "traces", T_ARR, OPT, ITEMS(T_STR))			\
	M(events, "events", T_UINT, OPT, NONE)				\
	M(rpcsim_events, "rpcsim_events", T_UINT, OPT, NONE)		\
	M(pagepool_events, "pagepool_events", T_UINT, OPT, NONE)	\
	M(discarded_events, "discarded_events", T_UINT, OPT, NONE)	\
	M(discarded_events_records, "discarded_events_records", T_UINT, \
	  OPT, NONE)							\
	M(discarded_events_unknown_count,				\
	  "discarded_events_unknown_count", T_UINT, OPT, NONE)		\
	M(discarded_packets, "discarded_packets", T_UINT, OPT, NONE)	\
	M(discarded_packets_records, "discarded_packets_records", T_UINT, \
	  OPT, NONE)							\
	M(discarded_packets_unknown_count,				\
	  "discarded_packets_unknown_count", T_UINT, OPT, NONE)		\
	M(vtid, "vtid", T_BOOL, OPT, NONE)				\
	M(tracepoint_cost_ns, "tracepoint_cost_ns", T_UINT, OPT, NONE)	\
	M(processes, "processes", T_ARR, OPT, OBJ_ITEMS(analyze_process)) \
	M(modes, "modes", T_ARR, REQ, OBJ_ITEMS(analyze_mode))		\
	M(page_pool, "page_pool", T_OBJ, OPT, OBJ(analyze_page_pool))	\
	M(warnings, "warnings", T_ARR, OPT, ITEMS(T_STR))

/*
 * rpcsim --consumer=page_pool's events (analyze/ppool.c): per process
 * and refill mode, and per pool.
 */
#define RESULT_ANALYZE_PAGE_POOL(M)					\
	M(events, "events", T_UINT, REQ, NONE)				\
	M(modes, "modes", T_ARR, REQ, OBJ_ITEMS(analyze_pp_mode))	\
	M(pools, "pools", T_ARR, REQ, OBJ_ITEMS(analyze_pp_pool))

#define RESULT_ANALYZE_PP_MODE(M)					\
	M(pid, "pid", T_UINT | T_NULL, REQ, NONE)			\
	M(mode, "mode", T_STR | T_NULL, REQ, STRS(rpcsim_modes))	\
	M(refills, "refills", T_UINT, REQ, NONE)			\
	M(pages, "pages", T_UINT, REQ, NONE)				\
	M(alloc_calls, "alloc_calls", T_UINT, REQ, NONE)		\
	M(empty, "empty", T_UINT, REQ, NONE)				\
	M(pages_per_refill, "pages_per_refill", FIGURE, REQ, NONE)	\
	M(mean_ns, "mean_ns", FIGURE, REQ, NONE)			\
	M(mean_us, "mean_us", FIGURE, REQ, NONE)			\
	M(min_ns, "min_ns", T_UINT, REQ, NONE)				\
	M(max_ns, "max_ns", T_UINT, REQ, NONE)				\
	M(sum_ns, "sum_ns", T_UINT, REQ, NONE)

#define RESULT_ANALYZE_PP_POOL(M)					\
	M(pid, "pid", T_UINT | T_NULL, REQ, NONE)			\
	M(pool, "pool", T_STR, REQ, NONE)				\
	M(mode, "mode", T_STR | T_NULL, REQ, STRS(rpcsim_modes))	\
	M(refills, "refills", T_UINT, REQ, NONE)			\
	M(holds, "holds", T_UINT, REQ, NONE)				\
	M(releases, "releases", T_UINT, REQ, NONE)			\
	M(hold_count, "hold_count", T_UINT, REQ, NONE)			\
	M(release_count, "release_count", T_UINT, REQ, NONE)		\
	M(destroyed, "destroyed", T_BOOL, REQ, NONE)			\
	M(inflight, "inflight", T_INT | T_NULL, REQ, NONE)		\
	M(balanced, "balanced", T_BOOL, REQ, NONE)			\
	M(balance, "balance", T_STR, REQ, NONE)

#define RESULT_ANALYZE_PROCESS(M)					\
	M(pid, "pid", T_UINT | T_NULL, OPT, NONE)			\
	M(procname, "procname", T_STR | T_NULL, OPT, NONE)

/*
 * What a mode and each of its runs say.  "by_refill" is rpcsim's object:
 * latency_ns by the exit's allocated, one page or more.
 */
#define RESULT_ANALYZE_GROUP(M, NEED)					\
	M(calls, "calls", T_UINT, REQ, NONE)				\
	M(mean_us, "mean_us", FIGURE, OPT, NONE)			\
	M(latency_ns, "latency_ns", T_OBJ | T_NULL, REQ,		\
	  OBJ(analyze_latency))						\
	M(by_refill, "by_refill", T_OBJ, OPT, OBJ(rpcsim_by_refill))	\
	M(timestamps, "timestamps", T_OBJ | T_NULL, OPT,		\
	  OBJ(analyze_latency))						\
	M(difference, "difference", T_OBJ | T_NULL, OPT,		\
	  OBJ(analyze_difference))					\
	M(run_end, "run_end", T_OBJ | T_NULL, OPT, OBJ(analyze_run_end)) \
	M(pages_per_call, "pages_per_call", FIGURE, REQ, NONE)		\
	M(alloc_calls_per_call, "alloc_calls_per_call", FIGURE, REQ, NONE) \
	M(svc_alloc_arg_err, "svc_alloc_arg_err", T_UINT, OPT, NONE)	\
	M(svc_alloc_arg_err_per_call, "svc_alloc_arg_err_per_call",	\
	  FIGURE, REQ, NONE)						\
	M(retries, "retries", T_UINT, OPT, NONE)			\
	M(requests, "requests", T_UINT, OPT, NONE)			\
	M(pagepool_per_call, "pagepool_per_call", T_OBJ, OPT,		\
	  OBJ(analyze_pagepool_per_call))				\
	M(entry, "entry", T_OBJ, OPT, OBJ(analyze_entry))		\
	M(exit, "exit", T_OBJ, OPT, OBJ(analyze_exit))			\
	M(err, "err", T_OBJ, OPT, OBJ(analyze_err))			\
	M(request, "request", T_OBJ, OPT, OBJ(analyze_request))		\
	M(recv_short, "recv_short", T_OBJ, OPT, OBJ(analyze_recv_short)) \
	M(bulk, "bulk", T_OBJ, OPT, OBJ(analyze_bulk))			\
	M(pairing, "pairing", T_OBJ, OPT, OBJ(analyze_pairing))

#define RESULT_ANALYZE_MODE(M)						\
	M(mode, "mode", T_UINT | T_NULL, REQ, NONE)			\
	M(label, "label", T_STR, REQ, NONE)				\
	M(summary, "summary", T_STR, OPT, NONE)				\
	M(pid, "pid", T_UINT | T_NULL, OPT, NONE)			\
	M(procname, "procname", T_STR | T_NULL, OPT, NONE)		\
	M(calls_outside_runs, "calls_outside_runs", T_UINT, OPT, NONE)	\
	RESULT_ANALYZE_GROUP(M, REQ)					\
	M(runs, "runs", T_ARR, OPT, OBJ_ITEMS(analyze_run))

#define RESULT_ANALYZE_RUN(M)						\
	M(mode, "mode", T_UINT | T_NULL, OPT, NONE)			\
	M(run, "run", T_UINT | T_NULL, REQ, NONE)			\
	RESULT_ANALYZE_GROUP(M, REQ)					\
	M(config, "config", T_OBJ | T_NULL, OPT, OBJ(analyze_config))

/* latency_ns and timestamps: what method (a) or (b) measured. */
#define RESULT_ANALYZE_LATENCY(M)					\
	M(count, "count", T_UINT, OPT, NONE)				\
	M(sum_ns, "sum_ns", T_UINT, OPT, NONE)				\
	M(mean_ns, "mean_ns", FIGURE, REQ, NONE)			\
	M(stddev_ns, "stddev_ns", FIGURE, OPT, NONE)			\
	M(min_ns, "min_ns", T_UINT, OPT, NONE)				\
	M(max_ns, "max_ns", T_UINT, OPT, NONE)				\
	M(p50_ns, "p50_ns", FIGURE, REQ, NONE)				\
	M(p90_ns, "p90_ns", FIGURE, REQ, NONE)				\
	M(p99_ns, "p99_ns", FIGURE, REQ, NONE)				\
	M(p99_9_ns, "p99_9_ns", FIGURE, REQ, NONE)			\
	M(p99_99_ns, "p99_99_ns", FIGURE, OPT, NONE)			\
	M(histogram, "histogram", T_OBJ, OPT, OBJ(histogram))

/* Timestamps minus latency_ns: signed (every other member so). */
#define RESULT_ANALYZE_DIFFERENCE(M)					\
	M(count, "count", T_UINT, OPT, NONE)				\
	M(mean_ns, "mean_ns", T_SNUM | T_NULL, OPT, NONE)		\
	M(median_ns, "median_ns", T_SNUM | T_NULL, OPT, NONE)		\
	M(min_ns, "min_ns", T_SNUM | T_NULL, OPT, NONE)			\
	M(max_ns, "max_ns", T_SNUM | T_NULL, OPT, NONE)			\
	M(negative, "negative", T_UINT, OPT, NONE)			\
	M(expected_min_ns, "expected_min_ns", T_SNUM | T_NULL, OPT, NONE) \
	M(expected_max_ns, "expected_max_ns", T_SNUM | T_NULL, OPT, NONE) \
	M(ok, "ok", T_BOOL, OPT, NONE)

/* The sums of rpcsim's run_end events. */
#define RESULT_ANALYZE_RUN_END(M)					\
	M(events, "events", T_UINT, OPT, NONE)				\
	M(calls, "calls", T_UINT, OPT, NONE)				\
	M(latency_sum_ns, "latency_sum_ns", T_UINT, OPT, NONE)		\
	M(mean_ns, "mean_ns", FIGURE, OPT, NONE)			\
	M(pages, "pages", T_UINT, OPT, NONE)				\
	M(requests, "requests", T_UINT, OPT, NONE)			\
	M(no_progress, "no_progress", T_UINT, OPT, NONE)		\
	M(short_reads, "short_reads", T_UINT, OPT, NONE)		\
	M(calls_match, "calls_match", T_BOOL, OPT, NONE)

/*
 * A run's run_start fields (every other member a count); bulk_variant is
 * what rpcsim-analyze before "contract" wrote.
 */
#define RESULT_ANALYZE_CONFIG(M)					\
	M(pid, "pid", T_UINT | T_NULL, OPT, NONE)			\
	RESULT_ANALYZE_RUN_START(M)					\
	M(bulk_variant, "bulk_variant", T_STR, OPT, NONE)

/*
 * The members after "pid", named and ordered as struct run_config's
 * fields (analyze/analyze.h): rpcsim-analyze writes the list expanded.
 */
#define RESULT_ANALYZE_RUN_START(M)					\
	M(backend, "backend", T_STR | T_NULL, OPT, NONE)		\
	M(contract, "contract", T_STR | T_NULL, OPT, NONE)		\
	M(mode_name, "mode_name", T_STR, OPT, NONE)			\
	M(threads, "threads", T_UINT, OPT, NONE)			\
	M(slots, "slots", T_UINT, OPT, NONE)				\
	M(io_size, "io_size", T_UINT, OPT, NONE)			\
	M(max_payload, "max_payload", T_UINT, OPT, NONE)		\
	M(pool_pages, "pool_pages", T_UINT, OPT, NONE)			\
	M(file_pages, "file_pages", T_UINT, OPT, NONE)			\
	M(pcp_batch, "pcp_batch", T_UINT, OPT, NONE)			\
	M(pcp_high, "pcp_high", T_UINT, OPT, NONE)			\
	M(completion, "completion", T_STR, OPT, NONE)			\
	M(read_weight, "read_weight", T_UINT, OPT, NONE)		\
	M(write_weight, "write_weight", T_UINT, OPT, NONE)		\
	M(seed, "seed", T_UINT | T_FULL64, OPT, NONE)		\
	M(version, "version", T_STR, OPT, NONE)				\
	M(tcp_read, "tcp_read", T_UINT, OPT, NONE)			\
	M(run_seq, "run_seq", T_UINT, OPT, NONE)

/*
 * The fields of each event, summed (trace_schema.h's report column).  The
 * counts are named as the fields of the event's struct in struct
 * field_sums (analyze/analyze.h): rpcsim-analyze writes ENTRY, ERR,
 * RECV_SHORT and the *_SUMS lists expanded, and adds them up so.
 */
#define RESULT_ANALYZE_ENTRY(M)						\
	M(events, "events", T_UINT, OPT, NONE)				\
	M(slots, "slots", T_UINT, OPT, NONE)				\
	M(holes, "holes", T_UINT, OPT, NONE)

#define RESULT_ANALYZE_EXIT(M)						\
	M(events, "events", T_UINT, OPT, NONE)				\
	RESULT_ANALYZE_EXIT_SUMS(M)

#define RESULT_ANALYZE_EXIT_SUMS(M)					\
	M(allocated, "allocated", T_UINT, OPT, NONE)			\
	M(alloc_calls, "alloc_calls", T_UINT, OPT, NONE)		\
	M(retries, "retries", T_UINT, OPT, NONE)

#define RESULT_ANALYZE_ERR(M)						\
	M(events, "events", T_UINT, OPT, NONE)				\
	M(requested, "requested", T_UINT, OPT, NONE)			\
	M(allocated, "allocated", T_UINT, OPT, NONE)

#define RESULT_ANALYZE_REQUEST(M)					\
	M(events, "events", T_UINT, OPT, NONE)				\
	M(op, "op", T_OBJ, OPT, OBJ(analyze_counts))			\
	RESULT_ANALYZE_REQUEST_SUMS(M)

#define RESULT_ANALYZE_REQUEST_SUMS(M)					\
	M(bytes, "bytes", T_UINT, OPT, NONE)				\
	M(pages, "pages", T_UINT, OPT, NONE)

#define RESULT_ANALYZE_RECV_SHORT(M)					\
	M(events, "events", T_UINT, OPT, NONE)				\
	M(expected, "expected", T_UINT, OPT, NONE)			\
	M(received, "received", T_UINT, OPT, NONE)

#define RESULT_ANALYZE_BULK(M)						\
	RESULT_ANALYZE_BULK_SUMS(M)					\
	M(api, "api", T_OBJ, OPT, OBJ(analyze_counts))			\
	M(fallback, "fallback", T_OBJ, OPT, OBJ(analyze_counts))

#define RESULT_ANALYZE_BULK_SUMS(M)					\
	M(calls, "calls", T_UINT, OPT, NONE)				\
	M(requested, "requested", T_UINT, OPT, NONE)			\
	M(populated, "populated", T_UINT, OPT, NONE)			\
	M(allocated, "allocated", T_UINT, OPT, NONE)

/* An enumeration's counts by label; "other" for values it does not name. */
#define RESULT_ANALYZE_COUNTS(M)					\
	M(other, "other", T_UINT, OPT, NONE)

/* How the entry and exit events paired (every other member a count). */
#define RESULT_ANALYZE_PAIRING(M)					\
	M(entries, "entries", T_UINT, OPT, NONE)			\
	M(paired, "paired", T_UINT, OPT, NONE)				\
	RESULT_ANALYZE_UNPAIRED(M)

/*
 * The events that did not pair, by why: named as struct group's counts
 * (analyze/analyze.h), rpcsim-analyze writes the list expanded.
 */
#define RESULT_ANALYZE_UNPAIRED(M)					\
	M(entry_no_exit, "entry_no_exit", T_UINT, OPT, NONE)		\
	M(exit_no_entry, "exit_no_entry", T_UINT, OPT, NONE)		\
	M(entry_twice, "entry_twice", T_UINT, OPT, NONE)		\
	M(across_discard, "across_discard", T_UINT, OPT, NONE)		\
	M(no_vtid, "no_vtid", T_UINT, OPT, NONE)			\
	M(no_timestamp, "no_timestamp", T_UINT, OPT, NONE)

/* --- the objects ---------------------------------------------------------- */

/* O(object, MEMBERS, types of the members MEMBERS does not name) */
#define RESULT_OBJECTS(O)						\
	O(rpcsim_doc, RESULT_RPCSIM_DOC, 0)				\
	O(build, RESULT_BUILD, 0)					\
	O(machine, RESULT_MACHINE, 0)					\
	O(slurm, RESULT_SLURM, 0)					\
	O(rpcsim_sweep, RESULT_RPCSIM_SWEEP, 0)				\
	O(sweep_key, RESULT_SWEEP_KEY, 0)				\
	O(sweep_values, RESULT_NO_MEMBERS, T_STR)			\
	O(rpcsim_config, RESULT_RPCSIM_CONFIG, 0)			\
	O(rpcsim_page_pool_config, RESULT_RPCSIM_PAGE_POOL_CONFIG, 0)	\
	O(rpcsim_free_mix, RESULT_RPCSIM_FREE_MIX, 0)			\
	O(rpcsim_mix, RESULT_RPCSIM_MIX, 0)				\
	O(rpcsim_jemalloc, RESULT_RPCSIM_JEMALLOC, 0)			\
	O(rpcsim_mode, RESULT_RPCSIM_MODE, 0)				\
	O(rpcsim_run, RESULT_RPCSIM_RUN, 0)				\
	O(rpcsim_percentiles, RESULT_RPCSIM_PERCENTILES, 0)		\
	O(rpcsim_by_refill, RESULT_RPCSIM_BY_REFILL, 0)			\
	O(rpcsim_refill, RESULT_RPCSIM_REFILL, 0)			\
	O(histogram, RESULT_HISTOGRAM, 0)				\
	O(timeline, RESULT_TIMELINE, 0)					\
	O(timeline_row, RESULT_TIMELINE_ROW, 0)				\
	O(rpcsim_counters, RESULT_NO_MEMBERS, T_UINT)			\
	O(rpcsim_across_runs, RESULT_RPCSIM_ACROSS_RUNS, FIGURE)	\
	O(rpcsim_thread, RESULT_RPCSIM_THREAD, T_UINT)			\
	O(rpcsim_pool_at_exit, RESULT_RPCSIM_POOL_AT_EXIT, T_UINT)	\
	O(rpcsim_accounting, RESULT_RPCSIM_ACCOUNTING, T_UINT)		\
	O(rpcsim_page_pool, RESULT_RPCSIM_PAGE_POOL, 0)			\
	O(rpcsim_alloc_stats, RESULT_RPCSIM_ALLOC_STATS, 0)		\
	O(rpcsim_recycle, RESULT_RPCSIM_RECYCLE, 0)			\
	O(rpcsim_trace, RESULT_RPCSIM_TRACE, 0)				\
	O(analyze_doc, RESULT_ANALYZE_DOC, 0)				\
	O(analyze_process, RESULT_ANALYZE_PROCESS, 0)			\
	O(analyze_mode, RESULT_ANALYZE_MODE, 0)				\
	O(analyze_run, RESULT_ANALYZE_RUN, 0)				\
	O(analyze_latency, RESULT_ANALYZE_LATENCY, 0)			\
	O(analyze_difference, RESULT_ANALYZE_DIFFERENCE, T_SNUM | T_NULL) \
	O(analyze_run_end, RESULT_ANALYZE_RUN_END, 0)			\
	O(analyze_config, RESULT_ANALYZE_CONFIG, T_UINT)		\
	O(analyze_pagepool_per_call, RESULT_NO_MEMBERS, FIGURE)		\
	O(analyze_entry, RESULT_ANALYZE_ENTRY, 0)			\
	O(analyze_exit, RESULT_ANALYZE_EXIT, 0)				\
	O(analyze_err, RESULT_ANALYZE_ERR, 0)				\
	O(analyze_request, RESULT_ANALYZE_REQUEST, 0)			\
	O(analyze_recv_short, RESULT_ANALYZE_RECV_SHORT, 0)		\
	O(analyze_bulk, RESULT_ANALYZE_BULK, 0)				\
	O(analyze_counts, RESULT_ANALYZE_COUNTS, T_UINT)		\
	O(analyze_pairing, RESULT_ANALYZE_PAIRING, T_UINT)		\
	O(analyze_page_pool, RESULT_ANALYZE_PAGE_POOL, 0)		\
	O(analyze_pp_mode, RESULT_ANALYZE_PP_MODE, 0)			\
	O(analyze_pp_pool, RESULT_ANALYZE_PP_POOL, 0)

/* F(fragment, MEMBERS): the member lists several objects include. */
#define RESULT_FRAGMENTS(F)						\
	F(origin, RESULT_ORIGIN)					\
	F(rpcsim_figures, RESULT_RPCSIM_FIGURES)			\
	F(analyze_group, RESULT_ANALYZE_GROUP)

/* --- RK() ------------------------------------------------------------------ */

/*
 * For each object and fragment, a constant struct whose members are its
 * keys: struct result_keys_rpcsim_mix { char read[5], write[6]; ... }.
 * RK(rpcsim_mix, read) is then "read", a constant address (it may
 * initialize a static table), and a compile error for a member the object
 * does not have.
 */
#define RESULT_KEY_MEMBER(member, key, types, need, sub) \
	char member[sizeof(key)];
#define RESULT_KEY_INIT(member, key, types, need, sub) .member = key,

#define RESULT_KEYS_OBJECT(object, MEMBERS, others)			\
	struct result_keys_##object {					\
		MEMBERS(RESULT_KEY_MEMBER)				\
		char end_;						\
	};								\
	static const struct result_keys_##object result_keys_##object	\
		__attribute__((unused)) = {				\
		MEMBERS(RESULT_KEY_INIT) .end_ = 0			\
	};
#define RESULT_KEYS_FRAGMENT(fragment, MEMBERS)				\
	struct result_keys_##fragment {					\
		MEMBERS(RESULT_KEY_MEMBER, OPT)				\
		char end_;						\
	};								\
	static const struct result_keys_##fragment result_keys_##fragment \
		__attribute__((unused)) = {				\
		MEMBERS(RESULT_KEY_INIT, OPT) .end_ = 0			\
	};

RESULT_OBJECTS(RESULT_KEYS_OBJECT)
RESULT_FRAGMENTS(RESULT_KEYS_FRAGMENT)

#define RK(object, member)	(result_keys_##object.member)

/*
 * A writer's M for an object whose members are the fields of the same
 * names in the struct *s in scope, written to struct json *j:
 * RESULT_RPCSIM_THREAD(RESULT_JSON_FIELD) writes a thread's object.
 * json_value() (common/json.h) picks the call by the field's C type.
 */
#define RESULT_JSON_FIELD(member, key, types, need, sub)		\
	json_value(j, key, s->member);

/*
 * The members MEMBERS lists written from the fields of the same names of
 * the TYPE at @fields, for a writer that holds several such structs.
 */
#define RESULT_JSON_FIELDS(MEMBERS, TYPE, fields)			\
	do {								\
		const TYPE *s = (fields);				\
									\
		MEMBERS(RESULT_JSON_FIELD)				\
	} while (0)

#endif /* PP_RESULT_SCHEMA_H */
