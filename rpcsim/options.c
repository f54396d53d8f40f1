/* SPDX-License-Identifier: MIT */
/*
 * Command line: one table of the options (name, value, range, default,
 * help text) drives getopt_long, the strict number and size parsing and
 * their error messages, and --help with every default; then the checks
 * that keep a run from deadlocking (options_apply.c, with the options
 * that have more to them) and the sweeps' options (sweep_options.c);
 * options_internal.h is what the parts share.
 */
#include <config.h>

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <pagepool/pagepool.h>

#include "cmdline.h"
#include "number.h"
#include "options_internal.h"
#include "plot.h"
#include "util.h"

static const char *const mode_names[RPCSIM_NR_MODES] = {
	[RPCSIM_SINGLE]	= "single",
	[RPCSIM_LIST]	= "list",
	[RPCSIM_ARRAY]	= "array",
};

static const char *const mode_labels[RPCSIM_NR_MODES] = {
	[RPCSIM_SINGLE]	= "Single page",
	[RPCSIM_LIST]	= "Bulk list",
	[RPCSIM_ARRAY]	= "Bulk array",
};

const char *rpcsim_mode_name(enum rpcsim_mode mode)
{
	return mode_names[mode];
}

const char *rpcsim_mode_label(enum rpcsim_mode mode)
{
	return mode_labels[mode];
}

static const char *const words_consumer[] = { "nfsd", "page_pool", NULL };

const char *rpcsim_consumer_name(enum rpcsim_consumer consumer)
{
	return words_consumer[consumer];
}

/* --- the option table ------------------------------------------------------ */

#define CFG(member, type) \
	.field = (type), .offset = offsetof(struct rpcsim_config, member)

#ifdef HAVE_LTTNG_UST
#include <lttng/ust-version.h>
#define TRACING_BUILT	true
#define RPCSIM_LTTNG_UST_VERSION	LTTNG_UST_VERSION
#else
#define TRACING_BUILT	false
#define RPCSIM_LTTNG_UST_VERSION	NULL
#endif

static const char *const words_completion[] = { "inline", "thread", NULL };
static const char *const words_output_format[] = { "text", "json",
						   "text,json", NULL };
static const char *const words_trace_events[] = { "rpcsim", "all", NULL };
static const char *const words_off_on[] = { "off", "on", NULL };

static void apply_help(const struct opt_spec *o, const char *arg,
		       uint64_t value, struct opt_state *st);
static void apply_version(const struct opt_spec *o, const char *arg,
			  uint64_t value, struct opt_state *st);

/* Every option, in the order --help lists them (NR_OPT_SPECS entries). */
const struct opt_spec opt_table[] = {
	{ .help = "Allocation (each mode runs on a fresh pool):" },
	{ "consumer", 0, required_argument, "NAME", OPT_WORD,
	  .accepted = "nfsd or page_pool", .words = words_consumer,
	  CFG(consumer, FIELD_ENUM),
	  .help = "who calls the allocator: nfsd (svc_alloc_arg()\n"
		  "refilling rq_pages per request) or page_pool (a\n"
		  "NIC's RX queues, each page_pool refilling its\n"
		  "cache with 64 pages per slow-path call); a call\n"
		  "is one svc_alloc_arg() or one refill\n"
		  "(default: nfsd)" },
	{ "alloc", 'a', required_argument, "MODE", OPT_WORD,
	  .accepted = "single, list, array or all", .lookup = alloc_lookup,
	  .apply = apply_alloc,
	  .help = "single: alloc_page() for every hole (before 5.13)\n"
		  "list:   alloc_pages_bulk_list() for the holes,\n"
		  "        waiting when the list runs dry\n"
		  "array:  alloc_pages_bulk_array() until full,\n"
		  "        waiting only after no progress\n"
		  "all:    single, list and array in turn\n"
		  "page_pool: single is one alloc_page() per\n"
		  "refill, as before 5.13\n"
		  "(default: array)" },
	{ "retry-wait", 0, required_argument, "USEC", OPT_USEC,
	  .min = 0, .max = MAX_RETRY_WAIT_US, .def = DEFAULT_RETRY_WAIT_US,
	  CFG(retry_wait_us, FIELD_UINT),
	  .consumer_only = RPCSIM_CONSUMER_NFSD + 1,
	  .help = "the wait after an allocation made no progress,\n"
		  "as memalloc_retry_wait(), in us or with ms, s;\n"
		  "0 only yields the CPU\n"
		  "(default: {def})" },
	{ .help = "Server:" },
	{ "threads", 't', required_argument, "N", OPT_COUNT,
	  .min = 1, .max = MAX_THREADS, .def_per_cpu = 1,
	  CFG(threads, FIELD_UINT),
	  .help = "server threads (page_pool: RX queues, a NAPI\n"
		  "thread and a page_pool each), {min}..{max}\n"
		  "(default: online CPUs, {def})" },
	{ "max-payload", 0, required_argument, "SIZE", OPT_SIZE,
	  .min = 1, .max = MAX_PAYLOAD, .def = DEFAULT_MAX_PAYLOAD,
	  .accepted = "a size from {min} to {max}",
	  CFG(max_payload, FIELD_U64),
	  .consumer_only = RPCSIM_CONSUMER_NFSD + 1,
	  .help = "sv_max_payload, {min}..{max}; each thread's rq_pages\n"
		  "has (roundup(SIZE + 4k, 4k) + 8k) / 4k slots\n"
		  "(default: {def}, 259 slots)" },
	{ "completion", 0, required_argument, "WHERE", OPT_WORD,
	  .accepted = "inline or thread", .words = words_completion,
	  CFG(completion, FIELD_ENUM),
	  .consumer_only = RPCSIM_CONSUMER_NFSD + 1,
	  .help = "where reply pages are released: inline (the\n"
		  "server thread) or thread (a completion thread,\n"
		  "so frees land on another CPU) (default: thread)" },
	{ "queue-depth", 0, required_argument, "N", OPT_COUNT,
	  .min = 1, .max = MAX_QUEUE_DEPTH, .def_per_cpu = 2,
	  CFG(queue_depth, FIELD_UINT),
	  .help = "replies the completion thread (page_pool:\n"
		  "packets the stack thread) may have pending\n"
		  "before a server (RX) thread blocks (default:\n"
		  "2 x threads, {def}; page_pool: 64 x threads)" },
	{ .help = "Packets (--consumer=page_pool):" },
	{ "packet-size", 0, required_argument, "SIZE", OPT_SIZE,
	  .min = 1, .max = MAX_PACKET_SIZE, .def = DEFAULT_PACKET_SIZE,
	  .accepted = "a size from {min} to {max}",
	  CFG(packet_size, FIELD_U64),
	  .consumer_only = RPCSIM_CONSUMER_PAGE_POOL + 1,
	  .help = "bytes per received packet, {min}..{max}; one\n"
		  "page per 4k of it (whole-page fragments)\n"
		  "(default: {def}, one page)" },
	{ "rate", 0, required_argument, "PPS", OPT_COUNT,
	  .min = 0, .max = MAX_RATE, CFG(rate, FIELD_U64),
	  .consumer_only = RPCSIM_CONSUMER_PAGE_POOL + 1,
	  .help = "packets per second per RX queue, paced by the\n"
		  "clock; 0: as fast as the pool allows\n"
		  "(default: 0)" },
	{ "free-mix", 0, required_argument,
	  "direct:W,ring:W,held:W,released:W",
	  OPT_OTHER, .apply = apply_weights,
	  .consumer_only = RPCSIM_CONSUMER_PAGE_POOL + 1,
	  .help = "how a packet's pages come back, by weight:\n"
		  "direct: freed in NAPI context (into the\n"
		  "alloc cache); ring: freed by the stack thread\n"
		  "(into the ring); held: an skb clone keeps a\n"
		  "reference, so the pool releases the page;\n"
		  "released: the pool releases the page to an\n"
		  "skb that frees it at once, on the RX thread\n"
		  "(veth's XDP_PASS before 5.14)\n"
		  "(default: direct:6,ring:3,held:1)" },
	{ "ring-size", 0, required_argument, "N", OPT_COUNT,
	  .min = 1, .max = MAX_RING_SIZE, .def = DEFAULT_RING_SIZE,
	  CFG(ring_size, FIELD_UINT),
	  .consumer_only = RPCSIM_CONSUMER_PAGE_POOL + 1,
	  .help = "entries of each page_pool's ring (its\n"
		  "pool_size), {min}..{max} (default: {def})" },
	{ "call-timing", 0, required_argument, "on|off", OPT_WORD,
	  .accepted = "on or off", .words = words_off_on,
	  CFG(call_timing, FIELD_BOOL),
	  .consumer_only = RPCSIM_CONSUMER_PAGE_POOL + 1,
	  .help = "on: every refill is timed, two clock reads\n"
		  "around it (a single-page refill's are per\n"
		  "page, a bulk refill's per 64 pages); off: no\n"
		  "clock read, as the kernel's XDP measurement\n"
		  "timed none: packets/s only, no latency\n"
		  "(default: on)" },
	{ .help = "Workload:" },
	{ "mix", 0, required_argument, "read:W,write:W", OPT_OTHER,
	  .apply = apply_weights,
	  .consumer_only = RPCSIM_CONSUMER_NFSD + 1,
	  .help = "relative weights of READ and WRITE requests\n"
		  "(default: read:1,write:1)" },
	{ "io-size", 0, required_argument, "SIZE", OPT_SIZE,
	  .min = 1, .max = MAX_PAYLOAD, .def = DEFAULT_IO_SIZE,
	  .accepted = "a size from {min} to {max} (and at most "
		      "--max-payload)",
	  CFG(io_size, FIELD_U64),
	  .consumer_only = RPCSIM_CONSUMER_NFSD + 1,
	  .help = "bytes per READ or WRITE, {min}..max-payload\n"
		  "(default: {def})" },
	{ "file-size", 0, required_argument, "SIZE", OPT_SIZE,
	  .min = 1, .max = MAX_FILE_SIZE, .def = DEFAULT_FILE_SIZE,
	  .accepted = "a size from {min} to {max} (at least --io-size)",
	  CFG(file_size, FIELD_U64),
	  .consumer_only = RPCSIM_CONSUMER_NFSD + 1,
	  .help = "the file in the page cache, io-size..{max}\n"
		  "(default: {def})" },
	{ "tcp-read", 0, required_argument, "SIZE", OPT_SIZE,
	  .min = 0, .max = MAX_PAYLOAD, .def = 0,
	  .accepted = "0 or a size from 1k to {max}",
	  CFG(tcp_read, FIELD_U64),
	  .consumer_only = RPCSIM_CONSUMER_NFSD + 1,
	  .help = "bytes of a record one socket read finds, 1k..\n"
		  "{max}: a longer record (a WRITE's) comes in\n"
		  "pieces; after each short read the pages\n"
		  "received go aside and their slots are refilled\n"
		  "by one more svc_alloc_arg() call\n"
		  "(svc_tcp_save_pages()); 0: the whole record\n"
		  "at once (default: {def})" },
	{ "seed", 0, required_argument, "N", OPT_COUNT,
	  .min = 0, .max = UINT64_MAX, .def = DEFAULT_SEED,
	  CFG(seed, FIELD_U64),
	  .help = "request stream seed (page_pool: of each\n"
		  "packet's --free-mix draw) (default: {def})" },
	{ .help = "Length (whichever limit comes first; with neither, {def} "
		  "seconds):", .def = DEFAULT_DURATION_S },
	{ "duration", 'd', required_argument, "SECONDS", OPT_SECONDS,
	  .max = MAX_DURATION_S, .def = DEFAULT_DURATION_S,
	  CFG(duration_s, FIELD_DOUBLE),
	  .help = "time per run: 0.5, 500ms, 5s, 2m (default: {def},\n"
		  "none when only --requests is given)" },
	{ "requests", 'n', required_argument, "N", OPT_COUNT,
	  .min = 1, .max = MAX_REQUESTS, CFG(requests, FIELD_U64),
	  .help = "requests per run over all threads; each takes\n"
		  "one svc_alloc_arg() call, and one per short read\n"
		  "with --tcp-read (page_pool: packets over all RX\n"
		  "queues) (default: no limit)" },
	{ "warmup", 0, required_argument, "N", OPT_COUNT,
	  .min = 0, .max = MAX_WARMUP, CFG(warmup, FIELD_U64),
	  .consumer_only = RPCSIM_CONSUMER_NFSD + 1,
	  .help = "untimed requests per thread before each run\n"
		  "(default: 0: every call is reported)" },
	{ "repeat", 'r', required_argument, "N", OPT_COUNT,
	  .min = 1, .max = MAX_REPEAT, .def = 1, CFG(repeat, FIELD_UINT),
	  .help = "runs per mode, {min}..{max} (default: {def})" },
	{ "stop-grace", 0, required_argument, "SECONDS", OPT_SECONDS,
	  .max = MAX_STOP_GRACE_S, .def = DEFAULT_STOP_GRACE_S,
	  CFG(stop_grace_s, FIELD_DOUBLE), .not_setting = true,
	  .help = "after a signal, a run's deadline or a stall,\n"
		  "the time a thread has to come back before the\n"
		  "watchdog names the plugin callback it is stuck\n"
		  "in and ends rpcsim (default: {def})" },
	{ .help = "Pool:" },
	{ "pool-size", 0, required_argument, "SIZE", OPT_SIZE,
	  .min = PP_PAGE_SIZE, .max = MAX_POOL_SIZE, .def = DEFAULT_POOL_SIZE,
	  .accepted = "a multiple of 4k from {min} to {max}",
	  CFG(pool_size, FIELD_U64), .apply = apply_pool_size,
	  .help = "arena size, a multiple of 4k up to {max}; it must\n"
		  "hold threads x rq_pages + queue-depth reply heads\n"
		  "+ the file's pages + the min watermark\n"
		  "(default: {def})" },
	{ "pcp-batch", 0, required_argument, "N", OPT_COUNT,
	  .min = 1, .max = MAX_PCP_BATCH, .def = DEFAULT_PCP_BATCH,
	  CFG(pcp_batch, FIELD_UINT),
	  .help = "pages per pcp refill and drain, {min}..{max}\n"
		  "(default: {def}, the kernel's for a 1 GiB zone)" },
	{ "pcp-high", 0, required_argument, "N", OPT_COUNT,
	  .min = 1, .max = MAX_PCP_HIGH, .def = 6 * DEFAULT_PCP_BATCH,
	  CFG(pcp_high, FIELD_UINT),
	  .help = "pcp list length that triggers a drain,\n"
		  "batch..{max} (default: 6 x batch, {def})" },
	{ "nodes", 0, required_argument, "N", OPT_COUNT,
	  .min = 1, .max = PP_MAX_NODES, .def = 1, CFG(nodes, FIELD_UINT),
	  .help = "NUMA nodes of the pool, {min}..{max}: a zone each\n"
		  "over an equal share of the arena, CPUs round\n"
		  "robin over them, remote nodes at distance 20;\n"
		  "the vmstat counters get a line per node (buddy\n"
		  "backend only; default: {def})" },
	{ .help = "Allocator (what the same svc_alloc_arg() runs against):" },
	{ "backend", 0, required_argument, "NAME", OPT_WORD,
	  .accepted = "buddy, jemalloc or plugin:PATH.so",
	  .lookup = backend_lookup,
	  CFG(backend, FIELD_ENUM), .apply = apply_backend,
	  .help = "buddy: the kernel's design, emulated (buddy\n"
		  "lists + pcp lists); jemalloc: a jemalloc 5.3\n"
		  "arena whose extents come from the pool, single\n"
		  "page = mallocx(), bulk = batch_alloc, free =\n"
		  "sdallocx(); plugin:PATH.so: an allocator of\n"
		  "your own over the pool's pages, a shared object\n"
		  "(<pagepool/backend.h>, pagepool-backend(3))\n"
		  "(default: buddy)" },
	{ "bulk-variant", 0, required_argument, "NAME", OPT_WORD,
	  .accepted = "merged, stop-at-first-populated, batched-stats, "
		      "no-single-fallback or pure-output",
	  .lookup = pp_bulk_variant_from_name,
	  CFG(bulk_variant, FIELD_ENUM),
	  .help = "the bulk API's contract, after the kernel's\n"
		  "history (default: merged):\n"
		  "merged: 5.13 as merged, with its fixes: NULL\n"
		  "  slots only, one missing page -> single path,\n"
		  "  statistics per page\n"
		  "stop-at-first-populated: the v5 series Chuck\n"
		  "  Lever measured: stops at the first populated\n"
		  "  slot after a hole, svc_alloc_arg() loops\n"
		  "batched-stats: merged, statistics counted once\n"
		  "  per call (5.14)\n"
		  "no-single-fallback: merged, but one missing\n"
		  "  page stays on the bulk path\n"
		  "pure-output: the 2025 proposal: the array is\n"
		  "  output only; svc_alloc_arg() moves the pages\n"
		  "  it holds to the front and asks for the rest" },
	{ "profile", 0, required_argument, "NAME", OPT_WORD,
	  .accepted = "kernel or lean", .lookup = pp_profile_from_name,
	  CFG(profile, FIELD_ENUM),
	  .help = "what the buddy backend's paths cost besides\n"
		  "their contracts (default: kernel, or\n"
		  "PAGEPOOL_PROFILE):\n"
		  "kernel: the steps of 5.13's page allocator on\n"
		  "  every call (zonelist walk, lists through\n"
		  "  page->lru, IRQ flags saved and restored,\n"
		  "  vmstat, locked refcount drop), calibrated on\n"
		  "  page_bench04_bulk (bench/kernel-profile.sh)\n"
		  "lean: the contracts' own work only" },
	{ "je-tcache", 0, required_argument, "on|off", OPT_WORD,
	  .accepted = "on or off", .words = words_off_on,
	  CFG(je_tcache, FIELD_BOOL), .jemalloc_only = true,
	  .help = "jemalloc: a thread cache per CPU in front of\n"
		  "the arena (off: every call reaches the arena)\n"
		  "(default: on)" },
	{ "je-tcache-slots", 0, required_argument, "N", OPT_COUNT,
	  .min = 2, .max = 65534, .jemalloc_only = true,
	  .apply = apply_je_slots,
	  .help = "jemalloc: 4 KiB pages each thread cache holds,\n"
		  "even, {min}..{max}; jemalloc reads it at start, so\n"
		  "rpcsim restarts itself with MALLOC_CONF set\n"
		  "(default: as jemalloc starts, 20)" },
	{ "je-batch", 0, required_argument, "on|off", OPT_WORD,
	  .accepted = "on or off", .words = words_off_on,
	  CFG(je_batch, FIELD_BOOL), .jemalloc_only = true,
	  .help = "jemalloc: bulk calls through batch_alloc, which\n"
		  "takes 4 KiB pages from fresh slabs, never the\n"
		  "thread cache; off: one mallocx() per page\n"
		  "(default: on)" },
	{ .help = "Tracing (LTTng; a session daemon must be running):",
	  .hidden = !TRACING_BUILT },
	{ .help = "Tracing: not built in (this rpcsim was configured with\n"
		  "--disable-lttng-ust): --trace is refused",
	  .hidden = TRACING_BUILT },
	{ "trace", 0, optional_argument, "DIR", OPT_OTHER,
	  .apply = apply_trace, .hidden = !TRACING_BUILT,
	  .not_setting = true,
	  .help = "record the run in an LTTng session of its own\n"
		  "writing to DIR (default: a new folder\n"
		  "rpcsim-trace-YYYYMMDD-HHMMSS), then print\n"
		  "rpcsim-analyze's figures for the trace beside\n"
		  "rpcsim's own; a DIR that holds a trace, or\n"
		  "that another rpcsim records into, is refused" },
	{ "trace-live", 0, optional_argument, "URL", OPT_OTHER,
	  .apply = apply_trace_live, .hidden = !TRACING_BUILT,
	  .not_setting = true,
	  .help = "record the run in a live LTTng session sent to\n"
		  "the relay daemon (lttng-relayd) at URL,\n"
		  "net://HOST[:CONTROL_PORT[:DATA_PORT]] (default:\n"
		  "net://localhost); rpcsim-analyze --live follows\n"
		  "it as it runs, and the relay daemon writes the\n"
		  "trace below its output folder, in the\n"
		  "HOSTNAME/SESSION folder rpcsim names" },
	{ "trace-events", 0, required_argument, "SET", OPT_WORD,
	  .accepted = "rpcsim or all", .words = words_trace_events,
	  CFG(trace_all, FIELD_BOOL), .hidden = !TRACING_BUILT,
	  .not_setting = true,
	  .help = "rpcsim: the rpcsim:* events (with\n"
		  "--consumer=page_pool: the page_pool:* events);\n"
		  "all: also the allocator's pagepool:* events,\n"
		  "about 70 per call (default: rpcsim)" },
	{ "trace-buffer", 0, required_argument, "SIZE", OPT_SIZE,
	  .min = MIN_TRACE_BUFFER, .max = MAX_TRACE_BUFFER,
	  .def = DEFAULT_TRACE_BUFFER, .accepted = "a size from {min} to {max}",
	  CFG(trace_buffer, FIELD_U64), .hidden = !TRACING_BUILT,
	  .not_setting = true,
	  .help = "ring buffer per CPU, in 8 sub-buffers, {min}..{max};\n"
		  "too small and the tracer discards events,\n"
		  "which is reported (default: {def})" },
	{ .help = "Sweeps (each point is one rpcsim run of its own):" },
	{ "sweep", 0, required_argument, "KEY=V1,V2,...", OPT_OTHER,
	  .apply = apply_sweep, .not_setting = true,
	  .help = "run once per value of KEY; several --sweep make\n"
		  "a grid.  KEY: threads, pcp-batch, pcp-high,\n"
		  "io-size, max-payload, mix (its values split by\n"
		  "'/': mix=read:1,write:0/read:1,write:1),\n"
		  "tcp-read, alloc, backend, bulk-variant, profile\n"
		  "or pcp (PAGEPOOL_PCP: rseq, lock, auto); '\\'\n"
		  "before a ',' (or '/') keeps it in a value:\n"
		  "plugin:/a\\,b.so; each point's JSON document\n"
		  "goes into --results, then a table of all: the\n"
		  "latency per call, and for page_pool the\n"
		  "packets/s too (alone with --call-timing=off)\n"
		  "(default: no sweep)" },
	{ "results", 0, required_argument, "DIR", OPT_OTHER,
	  .apply = apply_results, .not_setting = true,
	  .help = "the sweep's folder: one file per point, named by\n"
		  "its swept settings (threads-2_pcp-batch-31.json);\n"
		  "a point whose file holds its settings and grid is\n"
		  "not run again (an interrupted sweep resumes); %h in\n"
		  "DIR is the host's name where the point runs\n"
		  "(res/%h: a folder per machine), %% a %" },
	{ "plan", 0, optional_argument, "FORMAT", OPT_OTHER,
	  .not_setting = true, .apply = apply_plan,
	  .help = "print each point's rpcsim command (--results\n"
		  "made absolute) and run nothing; FORMAT\n"
		  "parallel (default): one shell line per point,\n"
		  "for GNU parallel; slurm[:K]: an sbatch script of\n"
		  "a job array, one point per task and node, K\n"
		  "tasks at a time (default: all)" },
	{ "point", 0, required_argument, "N", OPT_COUNT, .not_setting = true,
	  .min = 1, .max = MAX_SWEEP_POINTS, CFG(sweep.point, FIELD_U64),
	  .help = "run point N of the sweep alone, 1..points (what\n"
		  "--plan's lines do)" },
	{ .help = "Output:" },
	{ "json", 'j', no_argument, NULL, OPT_FLAG, CFG(json, FIELD_BOOL),
	  .apply = apply_json,
	  .not_setting = true,
	  .help = "one JSON document on stdout instead of text" },
	{ "output-format", 0, required_argument, "FMT", OPT_WORD,
	  .accepted = "text, json or text,json",
	  .words = words_output_format, CFG(output_format, FIELD_ENUM),
	  .apply = apply_output_format,
	  .not_setting = true,
	  .help = "text, json (as --json), or text,json: the text\n"
		  "report, then the JSON document, as fio's\n"
		  "normal,json (default: text)" },
	{ "output", 'o', required_argument, "FILE", OPT_OTHER,
	  .apply = apply_output,
	  .not_setting = true,
	  .help = "write the report (and --trace's analysis) to\n"
		  "FILE instead of stdout; FILE is replaced when\n"
		  "the run succeeds or a signal cuts it short, not\n"
		  "when it fails (default: stdout)" },
	{ "interval", 0, required_argument, "SECONDS", OPT_SECONDS,
	  .max = MAX_DURATION_S, CFG(interval_s, FIELD_DOUBLE),
	  .not_setting = true, .apply = apply_interval,
	  .consumer_only = RPCSIM_CONSUMER_NFSD + 1,
	  .help = "record each run's latency per interval of\n"
		  "SECONDS (1ms or more): calls, mean, p50 and\n"
		  "p99 per interval in the JSON (intervals), and\n"
		  "over time in --plot (default: not recorded)" },
	{ "histogram", 0, required_argument, "FILE", OPT_OTHER,
	  .apply = apply_histogram, .not_setting = true,
	  .help = "write each mode's latency histogram into FILE\n"
		  "as CSV: mode, lower_ns, upper_ns, count, a row\n"
		  "per non-empty bucket of the runs pooled" },
	{ "plot", 0, required_argument, "FILE", OPT_OTHER,
	  .apply = apply_plot,
	  .not_setting = true,
	  .help = "draw each mode's per-call latency (histogram,\n"
		  "CDF and tail, log x axis) and pages refilled\n"
		  "per call into FILE, an .svg or .png, with\n"
		  "gnuplot (default: no plot)" },
	{ "quiet", 'q', no_argument, NULL, OPT_FLAG, CFG(quiet, FIELD_BOOL),
	  .not_setting = true,
	  .help = "only the per-call line of each mode (and the\n"
		  "table with --alloc=all); no progress line" },
	{ "progress", 0, no_argument, NULL, OPT_FLAG,
	  CFG(progress_forced, FIELD_BOOL), .not_setting = true,
	  .help = "the progress line even when stderr is no\n"
		  "terminal (a job's log): a line each second\n"
		  "(default: only on a terminal, rewritten)" },
	{ "help", 'h', no_argument, NULL, OPT_OTHER, .apply = apply_help,
	  .not_setting = true,
	  .help = "this help" },
	{ "version", 'V', no_argument, NULL, OPT_OTHER,
	  .apply = apply_version,
	  .not_setting = true,
	  .help = "rpcsim and libpagepool versions" },
};

_Static_assert(ARRAY_SIZE(opt_table) == NR_OPT_SPECS,
	       "NR_OPT_SPECS (options_internal.h) counts opt_table's entries");

/* Enum fields are stored as ints; words_completion is in enum order. */
_Static_assert(RPCSIM_COMPLETION_INLINE == 0 &&
	       RPCSIM_COMPLETION_THREAD == 1, "words_completion's order");
_Static_assert(sizeof(enum rpcsim_completion) == sizeof(int) &&
	       sizeof(enum pp_backend) == sizeof(int) &&
	       sizeof(enum pp_bulk_variant) == sizeof(int) &&
	       sizeof(enum pp_profile) == sizeof(int),
	       "FIELD_ENUM stores an int");

/* Said before a message: the --sweep value or point being checked. */
const char *usage_context;

/* Bad input: one line, exit status 2. */
__attribute__((noreturn, format(printf, 1, 2)))
void usage_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	tool_vdie_in(2, usage_context, fmt, ap);
}

unsigned int online_cpus(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	return n > 0 ? (unsigned int)(n > MAX_THREADS ? MAX_THREADS : n) : 1;
}

/* A size the way the options take it: 1, 4k, 64m, 1g, 1024g. */
static char *fmt_size_arg(char *buf, size_t len, uint64_t v)
{
	static const char suffix[] = "kmg";
	unsigned int i = 0;

	while (i < sizeof(suffix) - 1 && v && !(v % 1024)) {
		v /= 1024;
		i++;
	}
	snprintf(buf, len, "%llu%.*s", (unsigned long long)v, i ? 1 : 0,
		 i ? &suffix[i - 1] : "");
	return buf;
}

static uint64_t opt_default(const struct opt_spec *o)
{
	return o->def_per_cpu ? (uint64_t)o->def_per_cpu * online_cpus() :
				o->def;
}

/* @text with {min}, {max} and {def} replaced by @o's values. */
static char *opt_text(char *buf, size_t len, const char *text,
		      const struct opt_spec *o)
{
	size_t n = 0;

	while (*text && n + 1 < len) {
		uint64_t v;
		int w;

		if (!strncmp(text, "{min}", 5))
			v = o->min;
		else if (!strncmp(text, "{max}", 5))
			v = o->max;
		else if (!strncmp(text, "{def}", 5))
			v = opt_default(o);
		else {
			buf[n++] = *text++;
			continue;
		}
		text += 5;
		if (o->kind == OPT_SIZE)
			fmt_size_arg(buf + n, len - n, v);
		else
			snprintf(buf + n, len - n, "%llu",
				 (unsigned long long)v);
		w = (int)strlen(buf + n);
		n += (size_t)w;
	}
	buf[n] = '\0';
	return buf;
}

const struct opt_spec *opt_find(const char *name)
{
	for (size_t i = 0; i < NR_OPT_SPECS; i++)
		if (opt_table[i].name && !strcmp(opt_table[i].name, name))
			return &opt_table[i];
	rpcsim_die("no option --%s in the table", name);
}

/* What --@name was last given, NULL if it was not. */
const char *opt_given(const struct opt_state *st, const char *name)
{
	return st->given[opt_find(name) - opt_table];
}

/* --@name as given, else its default as the option would take it. */
const char *opt_given_or_default(const struct opt_state *st,
				 const char *name, char *buf, size_t len)
{
	const char *arg = opt_given(st, name);

	return arg ? arg : opt_text(buf, len, "{def}", opt_find(name));
}

/* --- --help ------------------------------------------------------------------ */

/* The column option descriptions start at. */
#define HELP_COLUMN	26

static const char help_intro[] =
"Usage: rpcsim [OPTION]...\n"
"Run SUNRPC's svc_alloc_arg() refill loop on server threads against a\n"
"libpagepool pool, serving a seeded stream of NFSv3-over-TCP READs and\n"
"WRITEs from an emulated page cache, and report the latency of every\n"
"svc_alloc_arg() call, as the bulk allocator's SUNRPC consumer was measured.\n"
"With --consumer=page_pool, a NIC's RX queues receive packets instead, each\n"
"page_pool refilling its cache in bulk, and every refill is timed (or,\n"
"with --call-timing=off, none: the packet rate alone).\n"
"\n";

static const char help_footer[] =
"\n"
"Numbers are decimal digits; no sign, 0x or exponent.  SIZE is a number of\n"
"bytes with an optional k, K, KiB, m, M, MiB, g, G or GiB (powers of 1024:\n"
"256KiB).  SECONDS may have a fraction and a unit, ms, s or m (0.5, 500ms,\n"
"5s, 2m).  A once-a-second progress line with the run's ETA goes to stderr\n"
"when it is a terminal (or with --progress).  Exit status: 0 ok, 1 runtime\n"
"failure (pages leaked, no memory, a stalled or starved run, the plot not\n"
"drawn), 2 bad command line, 128 + N stopped by signal N (SIGHUP, SIGINT,\n"
"SIGQUIT, SIGTERM, SIGPIPE, SIGALRM, SIGUSR1, SIGUSR2: the run ends early,\n"
"pages are checked, a trace session is destroyed).\n"
"\n"
"Environment:\n"
"  PAGEPOOL_DEBUG=1       the allocator's debug checks: poisoned free pages\n"
"                         catch any write after a put\n"
"  PAGEPOOL_DEBUG_LIST=0  the kernel profile without CONFIG_DEBUG_LIST's\n"
"                         list checks, which it runs by default\n"
"  PAGEPOOL_FAULT=SPEC    libpagepool's fault injection for every pool, a\n"
"                         comma-separated list of trylock=PERCENT,\n"
"                         buddy-empty=PAGES and mmap (see pagepool(3)); a\n"
"                         SPEC it cannot read is named and fails the run\n"
"                         (exit 1)\n"
"  PAGEPOOL_PCP=IMPL      how threads own their CPU's pcp list: rseq\n"
"                         (restartable sequences), lock (spin trylock) or\n"
"                         auto (rseq where it can run; the default)\n"
"  PAGEPOOL_PROFILE=NAME  the default of --profile: kernel or lean\n"
"  RPCSIM_LEAK_PAGES=N    (tests) keep N page-cache pages at exit, to see\n"
"                         the leak check report them and exit 1\n"
"  RPCSIM_GNUPLOT=PATH    the gnuplot --plot runs (default: gnuplot in\n"
"                         PATH)\n"
"  RPCSIM_GNUPLOT_SECONDS=N  how long gnuplot may draw before it is\n"
"                         stopped and the plot fails (default: 60)\n"
"  RPCSIM_ANALYZE=PATH    the rpcsim-analyze --trace runs (default: the build\n"
"                         tree's when rpcsim runs from it, else the installed\n"
"                         one, else rpcsim-analyze in PATH)\n"
"  MALLOC_CONF=CONF       jemalloc's options, read when it starts;\n"
"                         --je-tcache-slots adds its slots to them\n"
"  TMPDIR=DIR             where --plot writes its data and script while\n"
"                         gnuplot draws (default: /tmp)\n";

/* One option: its names, then @text's lines from HELP_COLUMN on. */
static void print_option_help(const struct opt_spec *o, const char *text)
{
	char left[64];
	int n;

	if (o->letter)
		n = snprintf(left, sizeof(left), "  -%c, --%s", o->letter,
			     o->name);
	else
		n = snprintf(left, sizeof(left), "      --%s", o->name);
	if (o->arg)
		n += snprintf(left + n, sizeof(left) - (size_t)n,
			      o->has_arg == optional_argument ? "[=%s]" :
								"=%s", o->arg);
	/* A name that reaches the column is followed by two blanks. */
	printf("%s%*s", left, n < HELP_COLUMN ? HELP_COLUMN - n : 2, "");
	for (;;) {
		size_t len = strcspn(text, "\n");

		printf("%.*s\n", (int)len, text);
		if (!text[len])
			break;
		text += len + 1;
		printf("%*s", HELP_COLUMN, "");
	}
}

static void print_help(void)
{
	char text[2048];

	fputs(help_intro, stdout);
	for (size_t i = 0; i < NR_OPT_SPECS; i++) {
		const struct opt_spec *o = &opt_table[i];

		if (o->hidden)
			continue;
		opt_text(text, sizeof(text), o->help, o);
		if (o->name)
			print_option_help(o, text);
		else
			printf("%s\n", text);
	}
	fputs(help_footer, stdout);
}

static void apply_help(const struct opt_spec *o, const char *arg,
		       uint64_t value, struct opt_state *st)
{
	print_help();
	exit(0);
}

static void apply_version(const struct opt_spec *o, const char *arg,
			  uint64_t value, struct opt_state *st)
{
	const struct tool_component c[] = {
		{ "libpagepool", pp_version() },
		/* The tracepoints' provider, or "without lttng-ust". */
		{ "lttng-ust", RPCSIM_LTTNG_UST_VERSION },
	};

	tool_print_version(c, ARRAY_SIZE(c));
	exit(0);
}

/* --- values ------------------------------------------------------------------ */

/* Digits only (common/number.h: one syntax for every number). */
static uint64_t opt_count(const struct opt_spec *o, const char *arg)
{
	uint64_t v;
	int err = num_parse_u64(arg, &v);

	if (err || v < o->min || v > o->max)
		usage_error("--%s=%s: %sexpected an integer from %llu to %llu",
			    o->name, arg, err == -ERANGE ? "out of range; " : "",
			    (unsigned long long)o->min,
			    (unsigned long long)o->max);
	return v;
}

/*
 * --@o=@arg refused: @why ("" or "out of range; "), then what @o accepts
 * (@o->accepted, {min} and {max} filled in).
 */
__attribute__((noreturn))
void refuse_value(const struct opt_spec *o, const char *arg,
		  const char *why)
{
	char accepted[160];

	usage_error("--%s=%s: %sexpected %s", o->name, arg, why,
		    opt_text(accepted, sizeof(accepted), o->accepted, o));
}

/* common/number.h's sizes: digits with k, K, KiB, m, M, MiB, g, G, GiB. */
static uint64_t opt_size(const struct opt_spec *o, const char *arg)
{
	char accepted[160];
	uint64_t v;
	int err = num_parse_size(arg, &v);

	if (err || v < o->min || v > o->max)
		usage_error("--%s=%s: %sexpected %s; %s", o->name, arg,
			    err == -ERANGE ? "out of range; " : "",
			    opt_text(accepted, sizeof(accepted), o->accepted,
				     o), NUM_SIZE_FORMS);
	return v;
}

/*
 * common/number.h's durations: decimal digits with an optional fraction
 * and ms, s or m, seconds without (strtod() alone read --duration=0x10
 * as 16 s and 1e3 as 1000, where --threads=0x10 was refused).
 */
static double opt_seconds(const struct opt_spec *o, const char *arg)
{
	double v;

	if (num_parse_duration(arg, "s", &v) || !(v > 0) ||
	    v > (double)o->max)
		usage_error("--%s=%s: expected a duration above 0 and at most "
			    "%llu s: %s, seconds without a unit",
			    o->name, arg, (unsigned long long)o->max,
			    NUM_DURATION_FORMS);
	return v;
}

/*
 * A duration in whole microseconds: plain digits are us, or 5ms, 0.01s
 * (1e-6: 0.01 s is 10000 us after the trip through seconds).
 */
static uint64_t opt_usec(const struct opt_spec *o, const char *arg)
{
	double s = -1, us;

	if (num_parse_duration(arg, "us", &s))
		s = -1;
	us = s * 1e6;
	if (s < 0 || fabs(us - round(us)) > 1e-6 ||
	    round(us) < (double)o->min || round(us) > (double)o->max)
		usage_error("--%s=%s: expected a duration from %llu to %llu "
			    "us, in whole us: %s, microseconds without a unit",
			    o->name, arg, (unsigned long long)o->min,
			    (unsigned long long)o->max, NUM_DURATION_FORMS);
	return (uint64_t)round(us);
}

/* The number of the word @arg among @o's words. */
static int opt_word(const struct opt_spec *o, const char *arg)
{
	int n = -1;

	if (o->lookup) {
		n = o->lookup(arg);
	} else {
		for (int i = 0; o->words[i]; i++)
			if (!strcmp(arg, o->words[i]))
				n = i;
	}
	if (n < 0)
		refuse_value(o, arg, "");
	return n;
}

static void opt_store(const struct opt_spec *o, struct rpcsim_config *cfg,
		      uint64_t v, double d)
{
	void *f = (char *)cfg + o->offset;
	int e = (int)v;

	switch (o->field) {
	case FIELD_UINT:
		*(unsigned int *)f = (unsigned int)v;
		break;
	case FIELD_U64:
		*(uint64_t *)f = v;
		break;
	case FIELD_DOUBLE:
		*(double *)f = d;
		break;
	case FIELD_BOOL:
		*(bool *)f = v != 0;
		break;
	case FIELD_ENUM:
		memcpy(f, &e, sizeof(e));
		break;
	case FIELD_NONE:
		break;
	}
}

/* Option @o given @arg (NULL: none): check it and store it. */
void opt_apply(const struct opt_spec *o, const char *arg,
	       struct opt_state *st)
{
	uint64_t v = 0;
	double d = 0;

	switch (o->kind) {
	case OPT_FLAG:
		v = 1;
		break;
	case OPT_COUNT:
		v = opt_count(o, arg);
		break;
	case OPT_SIZE:
		v = opt_size(o, arg);
		break;
	case OPT_SECONDS:
		d = opt_seconds(o, arg);
		break;
	case OPT_USEC:
		v = opt_usec(o, arg);
		break;
	case OPT_WORD:
		v = (uint64_t)opt_word(o, arg);
		break;
	case OPT_HEADING:
	case OPT_OTHER:
		break;
	}
	opt_store(o, st->cfg, v, d);
	st->given[o - opt_table] = arg ? arg : "";
	if (o->jemalloc_only) {
		st->je_last = o;
		st->je_last_arg = arg;
	}
	if (o->apply)
		o->apply(o, arg, v, st);
}

/* --- the command line ---------------------------------------------------- */

/*
 * getopt_long()'s tables from opt_table: an option's val is its letter,
 * or 256 + its index when it has none.
 */
static void opt_getopt_tables(struct opt_state *st)
{
	struct option *lo = st->longopts;
	char *so = st->shortopts;

	*so++ = ':';
	for (size_t i = 0; i < NR_OPT_SPECS; i++) {
		const struct opt_spec *o = &opt_table[i];

		if (!o->name)
			continue;
		*lo++ = (struct option){
			.name = o->name,
			.has_arg = o->has_arg,
			.val = o->letter ? o->letter : 256 + (int)i,
		};
		if (!o->letter)
			continue;
		*so++ = (char)o->letter;
		if (o->has_arg != no_argument)
			*so++ = ':';
		if (o->has_arg == optional_argument)
			*so++ = ':';
	}
	*lo = (struct option){ 0 };
	*so = '\0';
}

/* The option getopt_long() returned @val for, NULL if it refused one. */
static const struct opt_spec *opt_by_val(int val)
{
	if (val >= 256 && val < 256 + (int)NR_OPT_SPECS)
		return &opt_table[val - 256];
	for (size_t i = 0; i < NR_OPT_SPECS; i++)
		if (opt_table[i].name && opt_table[i].letter == val)
			return &opt_table[i];
	return NULL;
}

/* getopt_long() rejected an option: say which, and why if we can tell. */
__attribute__((noreturn))
static void bad_option(const struct option *longopts, const char *arg)
{
	const char *name = cmdline_refused_value(longopts, arg);

	if (name)
		usage_error("option '--%s' takes no value (in '%s'); see "
			    "rpcsim --help", name, arg);
	if (!strncmp(arg, "--", 2)) {
		size_t len = strcspn(arg + 2, "=");

		usage_error("unknown or ambiguous option '%.*s'; see rpcsim "
			    "--help for the accepted options",
			    (int)(len + 2), arg);
	}
	if (optopt > 0 && optopt < 128)
		usage_error("unknown option '-%c'; see rpcsim --help for the "
			    "accepted options", optopt);
	usage_error("unknown option '%s'; see rpcsim --help for the "
		    "accepted options", arg);
}

static void config_defaults(struct rpcsim_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->alloc = "array";
	cfg->mode[RPCSIM_ARRAY] = true;
	cfg->threads = online_cpus();
	cfg->read_weight = 1;
	cfg->write_weight = 1;
	cfg->io_size = DEFAULT_IO_SIZE;
	cfg->max_payload = DEFAULT_MAX_PAYLOAD;
	cfg->pool_size = DEFAULT_POOL_SIZE;
	cfg->file_size = DEFAULT_FILE_SIZE;
	cfg->pcp_batch = DEFAULT_PCP_BATCH;
	cfg->completion = RPCSIM_COMPLETION_THREAD;
	cfg->seed = DEFAULT_SEED;
	cfg->repeat = 1;
	cfg->retry_wait_us = DEFAULT_RETRY_WAIT_US;
	cfg->stop_grace_s = DEFAULT_STOP_GRACE_S;
	cfg->backend = PP_BACKEND_BUDDY;
	cfg->bulk_variant = PP_BULK_MERGED;
	cfg->profile = PP_NR_PROFILES;	/* not given: see profile_resolve() */
	cfg->je_tcache = true;
	cfg->je_batch = true;
	cfg->trace_buffer = DEFAULT_TRACE_BUFFER;
	cfg->consumer = RPCSIM_CONSUMER_NFSD;
	cfg->packet_size = DEFAULT_PACKET_SIZE;
	cfg->ring_size = DEFAULT_RING_SIZE;
	cfg->call_timing = true;
	cfg->free_direct = DEFAULT_FREE_DIRECT;
	cfg->free_ring = DEFAULT_FREE_RING;
	cfg->free_held = DEFAULT_FREE_HELD;
	cfg->free_released = DEFAULT_FREE_RELEASED;
}

void rpcsim_parse_options(int argc, char **argv, struct rpcsim_config *cfg)
{
	struct opt_state st = { .cfg = cfg, .argv = argv };
	const char *env;
	int opt;

	config_defaults(cfg);
	opt_getopt_tables(&st);
	opterr = 0;
	while ((opt = getopt_long(argc, argv, st.shortopts, st.longopts,
				  NULL)) != -1) {
		const struct opt_spec *o;

		if (opt == ':')
			usage_error("option '%s' needs a value; see "
				    "rpcsim --help", argv[optind - 1]);
		o = opt_by_val(opt);
		if (!o)
			bad_option(st.longopts, argv[optind - 1]);
		opt_apply(o, optarg, &st);
	}
	if (optind < argc)
		usage_error("unexpected argument '%s': rpcsim takes options "
			    "only; see rpcsim --help", argv[optind]);
	/* Before anything runs, as PAGEPOOL_PCP and the others are. */
	if (cfg->plot) {
		char why[160];

		if (plot_read_timeout(why, sizeof(why)))
			usage_error("%s", why);
	}

	check_sweep(&st);
	/* What it cannot read, a pool made from it refuses (see options.h). */
	if (cfg->sweep.nr_keys && !cfg->sweep.point) {
		/* The points run, not these settings alone: check each. */
		(void)pp_pool_config_init(&cfg->pool_env);
		sweep_check_points(&st);
		env = NULL;
	} else {
		check_dependencies(&st);
		check_sizes(&st);
		(void)pp_pool_config_init(&cfg->pool_env);
		derive_sizes(&st);
		env = getenv("RPCSIM_LEAK_PAGES");
	}
	if (env) {
		uint64_t n;

		if (cfg->consumer == RPCSIM_CONSUMER_PAGE_POOL)
			usage_error("RPCSIM_LEAK_PAGES=%s: only with "
				    "--consumer=nfsd (page_pool has no page "
				    "cache)", env);
		if (num_parse_u64(env, &n) || n > cfg->file_pages)
			usage_error("RPCSIM_LEAK_PAGES=%s: expected an integer "
				    "from 0 to the file's %lu pages", env,
				    cfg->file_pages);
		cfg->leak_pages = (unsigned long)n;
	}

	cfg->debug_checks = cfg->pool_env.debug;
#ifdef PP_CONFIG_ASAN
	cfg->asan = true;
#endif
	cfg->progress_tty = isatty(STDERR_FILENO);
	cfg->progress = !cfg->quiet && (cfg->progress_tty ||
					cfg->progress_forced);
}
