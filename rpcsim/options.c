/* SPDX-License-Identifier: MIT */
/*
 * Command line: getopt_long, strict number and size parsing, the checks
 * that keep a run from deadlocking, and --help with every default.
 */
#include <config.h>

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include <pagepool/pagepool.h>

#include "cmdline.h"
#include "number.h"
#include "options.h"
#include "plot.h"
#include "util.h"

#define DEFAULT_DURATION_S	5.0
#define DEFAULT_IO_SIZE		(256ULL << 10)
#define DEFAULT_MAX_PAYLOAD	(1ULL << 20)	/* RPCSVC_MAXPAYLOAD */
#define DEFAULT_POOL_SIZE	(1ULL << 30)	/* pcp batch 63 zone size */
#define DEFAULT_FILE_SIZE	(64ULL << 20)
#define DEFAULT_PCP_BATCH	63U
#define DEFAULT_RETRY_WAIT_US	1000U		/* one jiffy at HZ=1000 */
#define DEFAULT_SEED		1ULL

#define MAX_THREADS		4096U
#define MAX_REQUESTS		1000000000000000ULL
#define MAX_REPEAT		1000U
#define MAX_DURATION_S		1000000.0
#define MAX_PAYLOAD		(64ULL << 20)
#define MAX_POOL_SIZE		(1024ULL << 30)
#define MAX_FILE_SIZE		(64ULL << 30)
#define MAX_PCP_BATCH		65536U
#define MAX_PCP_HIGH		(1U << 24)
#define MAX_QUEUE_DEPTH		65536U
#define MAX_WARMUP		1000000000ULL
#define MAX_RETRY_WAIT_US	10000000U
#define DEFAULT_TRACE_BUFFER	(16ULL << 20)
#define MIN_TRACE_BUFFER	(64ULL << 10)
#define MAX_TRACE_BUFFER	(1ULL << 30)
#define MAX_MIX_WEIGHT		1000000U

enum {
	OPT_MIX = 256,
	OPT_IO_SIZE,
	OPT_MAX_PAYLOAD,
	OPT_POOL_SIZE,
	OPT_FILE_SIZE,
	OPT_PCP_BATCH,
	OPT_PCP_HIGH,
	OPT_COMPLETION,
	OPT_QUEUE_DEPTH,
	OPT_SEED,
	OPT_WARMUP,
	OPT_RETRY_WAIT,
	OPT_TRACE,
	OPT_TRACE_EVENTS,
	OPT_TRACE_BUFFER,
	OPT_PLOT,
	OPT_BACKEND,
	OPT_BULK_VARIANT,
	OPT_JE_TCACHE,
	OPT_JE_TCACHE_SLOTS,
	OPT_JE_BATCH,
};

static const struct option long_options[] = {
	{ "alloc",		required_argument,	NULL, 'a' },
	{ "threads",		required_argument,	NULL, 't' },
	{ "duration",		required_argument,	NULL, 'd' },
	{ "requests",		required_argument,	NULL, 'n' },
	{ "mix",		required_argument,	NULL, OPT_MIX },
	{ "io-size",		required_argument,	NULL, OPT_IO_SIZE },
	{ "max-payload",	required_argument,	NULL, OPT_MAX_PAYLOAD },
	{ "pool-size",		required_argument,	NULL, OPT_POOL_SIZE },
	{ "file-size",		required_argument,	NULL, OPT_FILE_SIZE },
	{ "pcp-batch",		required_argument,	NULL, OPT_PCP_BATCH },
	{ "pcp-high",		required_argument,	NULL, OPT_PCP_HIGH },
	{ "completion",		required_argument,	NULL, OPT_COMPLETION },
	{ "queue-depth",	required_argument,	NULL, OPT_QUEUE_DEPTH },
	{ "seed",		required_argument,	NULL, OPT_SEED },
	{ "repeat",		required_argument,	NULL, 'r' },
	{ "warmup",		required_argument,	NULL, OPT_WARMUP },
	{ "retry-wait",		required_argument,	NULL, OPT_RETRY_WAIT },
	{ "trace",		optional_argument,	NULL, OPT_TRACE },
	{ "trace-events",	required_argument,	NULL, OPT_TRACE_EVENTS },
	{ "trace-buffer",	required_argument,	NULL, OPT_TRACE_BUFFER },
	{ "json",		no_argument,		NULL, 'j' },
	{ "plot",		required_argument,	NULL, OPT_PLOT },
	{ "backend",		required_argument,	NULL, OPT_BACKEND },
	{ "bulk-variant",	required_argument,	NULL, OPT_BULK_VARIANT },
	{ "je-tcache",		required_argument,	NULL, OPT_JE_TCACHE },
	{ "je-tcache-slots",	required_argument,	NULL,
	  OPT_JE_TCACHE_SLOTS },
	{ "je-batch",		required_argument,	NULL, OPT_JE_BATCH },
	{ "quiet",		no_argument,		NULL, 'q' },
	{ "help",		no_argument,		NULL, 'h' },
	{ "version",		no_argument,		NULL, 'V' },
	{ NULL, 0, NULL, 0 }
};

static const char short_options[] = ":a:t:d:n:r:jqhV";

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

/* Bad input: one line, exit status 2. */
__attribute__((noreturn, format(printf, 1, 2)))
static void usage_error(const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fputs("rpcsim: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(2);
}

/* The long name of option @val, for messages. */
static const char *option_name(int val)
{
	for (const struct option *o = long_options; o->name; o++)
		if (o->val == val)
			return o->name;
	return "?";
}

/* Digits only (common/number.h: one syntax for every number). */
static int parse_u64(const char *s, uint64_t *out)
{
	return num_parse_u64(s, out);
}

/* Digits with an optional k, m or g suffix (powers of 1024). */
static int parse_size(const char *s, uint64_t *out)
{
	unsigned int shift = 0;
	size_t len = strlen(s);
	char digits[32];
	uint64_t v;
	int err;

	if (len) {
		switch (s[len - 1]) {
		case 'k': case 'K':
			shift = 10;
			break;
		case 'm': case 'M':
			shift = 20;
			break;
		case 'g': case 'G':
			shift = 30;
			break;
		}
	}
	if (shift)
		len--;
	if (len >= sizeof(digits))	/* 20 digits at most fit 64 bits */
		return strspn(s, "0123456789") >= len ? -ERANGE : -EINVAL;
	memcpy(digits, s, len);
	digits[len] = '\0';
	err = num_parse_u64(digits, &v);
	if (err)
		return err;
	if (shift && v > (UINT64_MAX >> shift))
		return -ERANGE;
	*out = v << shift;
	return 0;
}

static uint64_t opt_count(int opt, const char *arg, uint64_t min,
			  uint64_t max)
{
	uint64_t v;
	int err = parse_u64(arg, &v);

	if (err || v < min || v > max)
		usage_error("--%s=%s: %sexpected an integer from %llu to %llu",
			    option_name(opt), arg,
			    err == -ERANGE ? "out of range; " : "",
			    (unsigned long long)min, (unsigned long long)max);
	return v;
}

static uint64_t opt_size(int opt, const char *arg, uint64_t min,
			 uint64_t max, const char *accepted)
{
	uint64_t v;
	int err = parse_size(arg, &v);

	if (err || v < min || v > max)
		usage_error("--%s=%s: %sexpected %s", option_name(opt), arg,
			    err == -ERANGE ? "out of range; " : "", accepted);
	return v;
}

/*
 * Decimal digits with an optional fraction, nothing else: strtod() alone
 * read --duration=0x10 as 16 s and 1e3 as 1000, where --threads=0x10 was
 * refused.
 */
static double opt_seconds(int opt, const char *arg)
{
	double v;

	if (num_parse_decimal(arg, &v) || !(v > 0) || v > MAX_DURATION_S)
		usage_error("--%s=%s: expected a number of seconds above 0 "
			    "and at most %.0f, in decimal digits with an "
			    "optional fraction (e.g. 2 or 0.5)",
			    option_name(opt), arg, MAX_DURATION_S);
	return v;
}

/* --mix=read:W,write:W, either part optional, each at most once. */
static void opt_mix(const char *arg, struct rpcsim_config *cfg)
{
	static const char accepted[] = "expected read:W,write:W with integer "
				       "weights from 0 to 1000000, not both 0";
	bool seen_read = false, seen_write = false;
	const char *p = arg;

	cfg->read_weight = 0;
	cfg->write_weight = 0;
	while (*p) {
		const char *colon = strchr(p, ':'), *comma;
		char num[24];
		uint64_t w;
		size_t len;
		bool *seen;
		unsigned int *weight;

		if (!colon)
			usage_error("--mix=%s: %s", arg, accepted);
		if ((size_t)(colon - p) == 4 && !strncasecmp(p, "read", 4)) {
			seen = &seen_read;
			weight = &cfg->read_weight;
		} else if ((size_t)(colon - p) == 5 &&
			   !strncasecmp(p, "write", 5)) {
			seen = &seen_write;
			weight = &cfg->write_weight;
		} else {
			usage_error("--mix=%s: unknown operation '%.*s'; %s",
				    arg, (int)(colon - p), p, accepted);
		}
		if (*seen)
			usage_error("--mix=%s: '%.*s' given twice; %s", arg,
				    (int)(colon - p), p, accepted);
		*seen = true;
		comma = strchr(colon + 1, ',');
		len = comma ? (size_t)(comma - colon - 1) : strlen(colon + 1);
		if (len == 0 || len >= sizeof(num))
			usage_error("--mix=%s: %s", arg, accepted);
		memcpy(num, colon + 1, len);
		num[len] = '\0';
		if (parse_u64(num, &w) || w > MAX_MIX_WEIGHT)
			usage_error("--mix=%s: bad weight '%s'; %s", arg, num,
				    accepted);
		*weight = (unsigned int)w;
		if (!comma)
			break;
		p = comma + 1;
		if (!*p)
			usage_error("--mix=%s: %s", arg, accepted);
	}
	if (!seen_read && !seen_write)
		usage_error("--mix=%s: %s", arg, accepted);
	if (!cfg->read_weight && !cfg->write_weight)
		usage_error("--mix=%s: all weights are zero; %s", arg,
			    accepted);
}

/* getopt_long() rejected an option: say which, and why if we can tell. */
__attribute__((noreturn))
static void bad_option(const char *arg)
{
	const char *name = cmdline_refused_value(long_options, arg);

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

static unsigned int online_cpus(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	return n > 0 ? (unsigned int)(n > MAX_THREADS ? MAX_THREADS : n) : 1;
}

#ifdef HAVE_LTTNG_UST
#define TRACING_HELP \
	"Tracing (LTTng; a session daemon must be running):\n" \
	"      --trace[=DIR]       record the run in an LTTng session of its own\n" \
	"                          writing to DIR (default: a new folder\n" \
	"                          rpcsim-trace-YYYYMMDD-HHMMSS), then print\n" \
	"                          rpcsim-analyze's figures for the trace beside\n" \
	"                          rpcsim's own; a DIR that holds a trace, or\n" \
	"                          that another rpcsim records into, is refused\n" \
	"      --trace-events=SET  rpcsim: the rpcsim:* events; all: also the\n" \
	"                          allocator's pagepool:* events, about 70 per\n" \
	"                          call (default: rpcsim)\n" \
	"      --trace-buffer=SIZE ring buffer per CPU, in 8 sub-buffers, 64k..1g;\n" \
	"                          too small and the tracer discards events,\n" \
	"                          which is reported (default: 16m)\n"
#else
#define TRACING_HELP \
	"Tracing: not built in (this rpcsim was configured with\n" \
	"--disable-lttng-ust): --trace is refused\n"
#endif

static void print_help(void)
{
	unsigned int cpus = online_cpus();

	printf(
"Usage: rpcsim [OPTION]...\n"
"Run SUNRPC's svc_alloc_arg() refill loop on server threads against a\n"
"libpagepool pool, serving a seeded stream of NFSv3-over-TCP READs and\n"
"WRITEs from an emulated page cache, and report the latency of every\n"
"svc_alloc_arg() call, as the bulk allocator's SUNRPC consumer was measured.\n"
"\n"
"Allocation (each mode runs on a fresh pool):\n"
"  -a, --alloc=MODE        single: alloc_page() for every hole (before 5.13)\n"
"                          list:   alloc_pages_bulk_list() for the holes,\n"
"                                  waiting when the list runs dry\n"
"                          array:  alloc_pages_bulk_array() until full,\n"
"                                  waiting only after no progress\n"
"                          all:    single, list and array in turn\n"
"                          (default: array)\n"
"      --retry-wait=USEC   the wait after an allocation made no progress,\n"
"                          as memalloc_retry_wait(); 0 only yields the CPU\n"
"                          (default: %u)\n"
"Server:\n"
"  -t, --threads=N         server threads, 1..%u (default: online CPUs, %u)\n"
"      --max-payload=SIZE  sv_max_payload, 1..64m; each thread's rq_pages\n"
"                          has (roundup(SIZE + 4k, 4k) + 8k) / 4k slots\n"
"                          (default: 1m, 259 slots)\n"
"      --completion=WHERE  where reply pages are released: inline (the\n"
"                          server thread) or thread (a completion thread,\n"
"                          so frees land on another CPU) (default: thread)\n"
"      --queue-depth=N     replies the completion thread may have pending\n"
"                          before a server thread blocks (default: 2 x\n"
"                          threads, %u)\n"
"Workload:\n"
"      --mix=read:W,write:W  relative weights of READ and WRITE requests\n"
"                          (default: read:1,write:1)\n"
"      --io-size=SIZE      bytes per READ or WRITE, 1..max-payload\n"
"                          (default: 256k)\n"
"      --file-size=SIZE    the file in the page cache, io-size..64g\n"
"                          (default: 64m)\n"
"      --seed=N            request stream seed (default: %llu)\n"
"Length (whichever limit comes first; with neither, %.0f seconds):\n"
"  -d, --duration=SECONDS  time per run, decimals allowed (default: %.0f,\n"
"                          none when only --requests is given)\n"
"  -n, --requests=N        requests per run over all threads; each takes\n"
"                          one svc_alloc_arg() call (default: no limit)\n"
"      --warmup=N          untimed requests per thread before each run\n"
"                          (default: 0: every call is reported)\n"
"  -r, --repeat=N          runs per mode, 1..%u (default: 1)\n"
"Pool:\n"
"      --pool-size=SIZE    arena size, a multiple of 4k up to 1024g; it must\n"
"                          hold threads x rq_pages + queue-depth reply heads\n"
"                          + the file's pages + the min watermark\n"
"                          (default: 1g)\n"
"      --pcp-batch=N       pages per pcp refill and drain, 1..%u\n"
"                          (default: %u, the kernel's for a 1 GiB zone)\n"
"      --pcp-high=N        pcp list length that triggers a drain,\n"
"                          batch..%u (default: 6 x batch, %u)\n"
"Allocator (what the same svc_alloc_arg() runs against):\n"
"      --backend=NAME      buddy: the kernel's design, emulated (buddy\n"
"                          lists + pcp lists); jemalloc: a jemalloc 5.3\n"
"                          arena whose extents come from the pool, single\n"
"                          page = mallocx(), bulk = batch_alloc, free =\n"
"                          sdallocx() (default: buddy)\n"
"      --bulk-variant=NAME the bulk API's contract, after the kernel's\n"
"                          history (default: merged):\n"
"                          merged: 5.13 as merged, with its fixes: NULL\n"
"                            slots only, one missing page -> single path,\n"
"                            statistics per page\n"
"                          stop-at-first-populated: the v5 series Chuck\n"
"                            Lever measured: stops at the first populated\n"
"                            slot after a hole, svc_alloc_arg() loops\n"
"                          batched-stats: merged, statistics counted once\n"
"                            per call (5.14)\n"
"                          no-single-fallback: merged, but one missing\n"
"                            page stays on the bulk path\n"
"                          pure-output: the 2025 proposal: the array is\n"
"                            output only; svc_alloc_arg() moves the pages\n"
"                            it holds to the front and asks for the rest\n"
"      --je-tcache=on|off  jemalloc: a thread cache per CPU in front of\n"
"                          the arena (off: every call reaches the arena)\n"
"                          (default: on)\n"
"      --je-tcache-slots=N jemalloc: 4 KiB pages each thread cache holds,\n"
"                          even, 2..65534; jemalloc reads it at start, so\n"
"                          rpcsim restarts itself with MALLOC_CONF set\n"
"                          (default: as jemalloc starts, 20)\n"
"      --je-batch=on|off   jemalloc: bulk calls through batch_alloc, which\n"
"                          takes 4 KiB pages from fresh slabs, never the\n"
"                          thread cache; off: one mallocx() per page\n"
"                          (default: on)\n"
TRACING_HELP
"Output:\n"
"  -j, --json              one JSON document on stdout instead of text\n"
"      --plot=FILE         draw each mode's per-call latency (histogram,\n"
"                          CDF and tail, log x axis) and pages refilled\n"
"                          per call into FILE, an .svg or .png, with\n"
"                          gnuplot (default: no plot)\n"
"  -q, --quiet             only the per-call line of each mode (and the\n"
"                          table with --alloc=all); no progress line\n"
"  -h, --help              this help\n"
"  -V, --version           rpcsim and libpagepool versions\n"
"\n"
"Numbers are decimal digits (a duration may have a fraction: 0.5); no sign,\n"
"0x or exponent.  SIZE is a number of bytes with an optional k, m or g\n"
"suffix (powers of 1024).  A once-a-second progress line goes to stderr when it is a\n"
"terminal.  Exit status: 0 ok, 1 runtime failure (pages leaked, no memory,\n"
"a stalled run, the plot not drawn), 2 bad command line, 128 + N stopped by\n"
"signal N (SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGPIPE, SIGALRM, SIGUSR1,\n"
"SIGUSR2: the run ends early, pages are checked, a trace session is\n"
"destroyed).\n"
"\n"
"Environment:\n"
"  PAGEPOOL_DEBUG=1       the allocator's debug checks: poisoned free pages\n"
"                         catch any write after a put\n"
"  PAGEPOOL_PCP=IMPL      how threads own their CPU's pcp list: rseq\n"
"                         (restartable sequences), lock (spin trylock) or\n"
"                         auto (rseq where it can run; the default)\n"
"  RPCSIM_LEAK_PAGES=N    (tests) keep N page-cache pages at exit, to see\n"
"                         the leak check report them and exit 1\n"
"  RPCSIM_GNUPLOT=PATH    the gnuplot --plot runs (default: gnuplot in\n"
"                         PATH)\n"
"  RPCSIM_GNUPLOT_SECONDS=N  how long gnuplot may draw before it is\n"
"                         stopped and the plot fails (default: 60)\n"
"  RPCSIM_ANALYZE=PATH    the rpcsim-analyze --trace runs (default: the one\n"
"                         beside rpcsim, else rpcsim-analyze in PATH)\n",
	       DEFAULT_RETRY_WAIT_US, MAX_THREADS, cpus, 2 * cpus,
	       DEFAULT_SEED, DEFAULT_DURATION_S, DEFAULT_DURATION_S,
	       MAX_REPEAT, MAX_PCP_BATCH, DEFAULT_PCP_BATCH, MAX_PCP_HIGH,
	       6 * DEFAULT_PCP_BATCH);
}

/*
 * jemalloc sizes its thread caches once, when it starts, from MALLOC_CONF:
 * for --je-tcache-slots=N that jemalloc did not start with, run this
 * rpcsim again with N added to MALLOC_CONF (once: RPCSIM_JE_RESTARTED
 * says it was done).  Then record the count the caches really have.
 */
static void je_tcache_setup(struct rpcsim_config *cfg, uint64_t slots,
			    char **argv)
{
	char conf[1024];
	const char *old = getenv("MALLOC_CONF");
	long have = pp_jemalloc_tcache_slots();

	if (slots && cfg->je_tcache && have != (long)slots) {
		if (getenv("RPCSIM_JE_RESTARTED")) {
			fprintf(stderr, "rpcsim: --je-tcache-slots=%llu: "
				"jemalloc started with %ld slots for 4 KiB "
				"even with MALLOC_CONF=%s\n",
				(unsigned long long)slots, have,
				old ? old : "");
			exit(1);
		}
		snprintf(conf, sizeof(conf), "%s%stcache_nslots_small_min:%llu,"
			 "tcache_nslots_small_max:%llu", old ? old : "",
			 old && *old ? "," : "", (unsigned long long)slots,
			 (unsigned long long)slots);
		if (setenv("MALLOC_CONF", conf, 1) ||
		    setenv("RPCSIM_JE_RESTARTED", "1", 1))
			rpcsim_die("setenv: %s", strerror(errno));
		fflush(NULL);
		execv("/proc/self/exe", argv);
		fprintf(stderr, "rpcsim: --je-tcache-slots=%llu: cannot run "
			"again with MALLOC_CONF=%s: %s\n",
			(unsigned long long)slots, conf, strerror(errno));
		exit(1);
	}
	cfg->je_tcache_slots = cfg->je_tcache ? have : 0;
}

/*
 * The pcp implementation the pools will run (PAGEPOOL_PCP, the build, the
 * kernel and glibc decide): printed in the header and the JSON.
 */
static void pcp_impl_resolve(struct rpcsim_config *cfg)
{
	struct pp_pool_config pc;

	pp_pool_config_init(&pc);
	pc.backend = cfg->backend;
	cfg->pcp_impl = pp_pool_config_pcp_impl(&pc, &cfg->pcp_why);
	if (cfg->pcp_impl == PP_NR_PCP_IMPLS) {
		fprintf(stderr, "rpcsim: PAGEPOOL_PCP=%s: expected auto, rseq "
			"or lock\n", getenv("PAGEPOOL_PCP"));
		exit(2);
	}
}

/* The min watermark libpagepool gives a pool of @nr_pages. */
static unsigned long pool_wmark_min(const struct rpcsim_config *cfg,
				    unsigned long nr_pages)
{
	struct pp_pool_config pc;
	unsigned long min, low, high;

	pp_pool_config_init(&pc);
	pc.nr_pages = nr_pages;
	pc.pcp_batch = cfg->pcp_batch;
	pc.pcp_high = cfg->pcp_high;
	if (pp_pool_config_wmarks(&pc, &min, &low, &high))
		rpcsim_die("no watermarks for a pool of %lu pages", nr_pages);
	return min;
}

/*
 * The smallest pool in which every thread can hold a full rq_pages at once
 * while the completion queue is full and the page cache is resident:
 * allocations succeed down to the min watermark (the slow path drains the
 * pcp lists first), so the pool needs demand + wmark_min(pool) pages.  The
 * watermark grows with the pool (sqrt rule), so search for the size.
 * demand - wmark_min(n) never decreases as n grows: min grows by at most
 * one page per page.
 */
static void compute_min_pool(struct rpcsim_config *cfg)
{
	unsigned long demand = cfg->threads * cfg->pages + cfg->file_pages;
	unsigned long lo, hi;

	if (cfg->completion == RPCSIM_COMPLETION_THREAD)
		demand += cfg->queue_depth;	/* one reply head each */
	/*
	 * jemalloc keeps pages of its own out of the pool: its first
	 * metadata block (512 pages), about 150 bytes of metadata per page
	 * it hands out (demand / 16 is more), retained extents it grows by
	 * up to 1024 pages at a time (two of them), and what its thread
	 * caches hold.
	 */
	cfg->backend_pages = 0;
	if (cfg->backend == PP_BACKEND_JEMALLOC)
		cfg->backend_pages = 512 + demand / 16 + 2048 +
				     online_cpus() *
				     (unsigned long)(cfg->je_tcache_slots > 0 ?
						     cfg->je_tcache_slots : 0);
	demand += cfg->backend_pages;
	lo = demand;
	hi = demand + demand / 7 + 64;
	while (hi - pool_wmark_min(cfg, hi) < demand)
		hi *= 2;
	while (lo < hi) {
		unsigned long mid = lo + (hi - lo) / 2;

		if (mid - pool_wmark_min(cfg, mid) >= demand)
			hi = mid;
		else
			lo = mid + 1;
	}
	cfg->min_pool_pages = lo;
	cfg->min_pool_wmark = pool_wmark_min(cfg, lo);
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
	cfg->backend = PP_BACKEND_BUDDY;
	cfg->bulk_variant = PP_BULK_MERGED;
	cfg->je_tcache = true;
	cfg->je_batch = true;
	cfg->trace_buffer = DEFAULT_TRACE_BUFFER;
}

void rpcsim_parse_options(int argc, char **argv, struct rpcsim_config *cfg)
{
	const char *io_arg = NULL, *file_arg = NULL, *pool_arg = NULL;
	const char *trace_events_arg = NULL, *trace_buffer_arg = NULL;
	const char *je_name = NULL, *je_val = NULL, *je_slots_arg = NULL;
	uint64_t je_slots = 0;
	bool have_duration = false, have_high = false, have_depth = false;
	struct pp_pool_config pc;
	const char *env;
	char buf[32];
	int opt;

	config_defaults(cfg);
	opterr = 0;
	while ((opt = getopt_long(argc, argv, short_options, long_options,
				  NULL)) != -1) {
		switch (opt) {
		case 'a':
			memset(cfg->mode, 0, sizeof(cfg->mode));
			if (!strcmp(optarg, "all")) {
				for (int m = 0; m < RPCSIM_NR_MODES; m++)
					cfg->mode[m] = true;
			} else {
				int m;

				for (m = 0; m < RPCSIM_NR_MODES; m++)
					if (!strcmp(optarg, mode_names[m]))
						break;
				if (m == RPCSIM_NR_MODES)
					usage_error("--alloc=%s: expected "
						    "single, list, array or "
						    "all", optarg);
				cfg->mode[m] = true;
			}
			cfg->alloc = optarg;
			break;
		case 't':
			cfg->threads = (unsigned int)opt_count(opt, optarg, 1,
							       MAX_THREADS);
			break;
		case 'd':
			cfg->duration_s = opt_seconds(opt, optarg);
			have_duration = true;
			break;
		case 'n':
			cfg->requests = opt_count(opt, optarg, 1,
						  MAX_REQUESTS);
			break;
		case OPT_MIX:
			opt_mix(optarg, cfg);
			break;
		case OPT_IO_SIZE:
			cfg->io_size = opt_size(opt, optarg, 1, MAX_PAYLOAD,
						"a size from 1 to 64m (and at "
						"most --max-payload)");
			io_arg = optarg;
			break;
		case OPT_MAX_PAYLOAD:
			cfg->max_payload = opt_size(opt, optarg, 1,
						    MAX_PAYLOAD,
						    "a size from 1 to 64m");
			break;
		case OPT_POOL_SIZE:
			cfg->pool_size = opt_size(opt, optarg, PP_PAGE_SIZE,
						  MAX_POOL_SIZE,
						  "a multiple of 4k from 4k "
						  "to 1024g");
			if (cfg->pool_size % PP_PAGE_SIZE)
				usage_error("--pool-size=%s: expected a "
					    "multiple of 4k from 4k to 1024g",
					    optarg);
			pool_arg = optarg;
			break;
		case OPT_FILE_SIZE:
			cfg->file_size = opt_size(opt, optarg, 1,
						  MAX_FILE_SIZE,
						  "a size from 1 to 64g (at "
						  "least --io-size)");
			file_arg = optarg;
			break;
		case OPT_PCP_BATCH:
			cfg->pcp_batch = (unsigned int)opt_count(opt, optarg,
								 1,
								 MAX_PCP_BATCH);
			break;
		case OPT_PCP_HIGH:
			cfg->pcp_high = (unsigned int)opt_count(opt, optarg, 1,
								MAX_PCP_HIGH);
			have_high = true;
			break;
		case OPT_COMPLETION:
			if (!strcmp(optarg, "inline"))
				cfg->completion = RPCSIM_COMPLETION_INLINE;
			else if (!strcmp(optarg, "thread"))
				cfg->completion = RPCSIM_COMPLETION_THREAD;
			else
				usage_error("--completion=%s: expected inline "
					    "or thread", optarg);
			break;
		case OPT_QUEUE_DEPTH:
			cfg->queue_depth = (unsigned int)opt_count(opt, optarg,
							1, MAX_QUEUE_DEPTH);
			have_depth = true;
			break;
		case OPT_SEED:
			cfg->seed = opt_count(opt, optarg, 0, UINT64_MAX);
			break;
		case 'r':
			cfg->repeat = (unsigned int)opt_count(opt, optarg, 1,
							      MAX_REPEAT);
			break;
		case OPT_WARMUP:
			cfg->warmup = opt_count(opt, optarg, 0, MAX_WARMUP);
			break;
		case OPT_RETRY_WAIT:
			cfg->retry_wait_us = (unsigned int)opt_count(opt,
						optarg, 0, MAX_RETRY_WAIT_US);
			break;
		case OPT_TRACE:
			cfg->trace = true;
			if (optarg && !*optarg)
				usage_error("--trace=: expected a folder name "
					    "(or --trace alone)");
			cfg->trace_dir = optarg;
			break;
		case OPT_TRACE_EVENTS:
			if (!strcmp(optarg, "rpcsim"))
				cfg->trace_all = false;
			else if (!strcmp(optarg, "all"))
				cfg->trace_all = true;
			else
				usage_error("--trace-events=%s: expected "
					    "rpcsim or all", optarg);
			trace_events_arg = optarg;
			break;
		case OPT_TRACE_BUFFER:
			cfg->trace_buffer = opt_size(opt, optarg, MIN_TRACE_BUFFER,
						     MAX_TRACE_BUFFER,
						     "a size from 64k to 1g");
			trace_buffer_arg = optarg;
			break;
		case 'j':
			cfg->json = true;
			break;
		case OPT_BACKEND: {
			int b = pp_backend_from_name(optarg);

			if (b < 0)
				usage_error("--backend=%s: expected buddy or "
					    "jemalloc", optarg);
			cfg->backend = (enum pp_backend)b;
			break;
		}
		case OPT_BULK_VARIANT: {
			int v = pp_bulk_variant_from_name(optarg);

			if (v < 0)
				usage_error("--bulk-variant=%s: expected merged, "
					    "stop-at-first-populated, "
					    "batched-stats, no-single-fallback "
					    "or pure-output", optarg);
			cfg->bulk_variant = (enum pp_bulk_variant)v;
			break;
		}
		case OPT_JE_TCACHE:
		case OPT_JE_BATCH: {
			bool on = !strcmp(optarg, "on");

			if (!on && strcmp(optarg, "off"))
				usage_error("--%s=%s: expected on or off",
					    option_name(opt), optarg);
			if (opt == OPT_JE_TCACHE)
				cfg->je_tcache = on;
			else
				cfg->je_batch = on;
			je_name = option_name(opt);
			je_val = optarg;
			break;
		}
		case OPT_JE_TCACHE_SLOTS:
			je_slots = opt_count(opt, optarg, 2, 65534);
			if (je_slots % 2)
				usage_error("--je-tcache-slots=%s: expected an "
					    "even integer from 2 to 65534 "
					    "(jemalloc's cache bins hold an "
					    "even count)", optarg);
			je_slots_arg = optarg;
			je_name = option_name(opt);
			je_val = optarg;
			break;
		case OPT_PLOT: {
			char why[160];

			if (plot_check_path(optarg, why, sizeof(why)))
				usage_error("--plot=%s: %s", optarg, why);
			cfg->plot = optarg;
			break;
		}
		case 'q':
			cfg->quiet = true;
			break;
		case 'h':
			print_help();
			exit(0);
		case 'V':
			printf("rpcsim %s (libpagepool %s, %s)\n",
			       PACKAGE_VERSION, pp_version(),
#ifdef HAVE_LTTNG_UST
			       "LTTng-UST tracepoints"
#else
			       "no tracepoints"
#endif
			       );
			exit(0);
		case ':':
			usage_error("option '%s' needs a value; see "
				    "rpcsim --help", argv[optind - 1]);
		default:
			bad_option(argv[optind - 1]);
		}
	}
	if (optind < argc)
		usage_error("unexpected argument '%s': rpcsim takes options "
			    "only; see rpcsim --help", argv[optind]);

	if (!cfg->trace && trace_events_arg)
		usage_error("--trace-events=%s: only with --trace",
			    trace_events_arg);
	if (!cfg->trace && trace_buffer_arg)
		usage_error("--trace-buffer=%s: only with --trace",
			    trace_buffer_arg);
#ifndef HAVE_LTTNG_UST
	if (cfg->trace)
		usage_error("--trace: this rpcsim was built without LTTng-UST "
			    "(./configure --disable-lttng-ust)");
#endif

	if (cfg->backend != PP_BACKEND_JEMALLOC && je_name)
		usage_error("--%s=%s: only with --backend=jemalloc", je_name,
			    je_val);
	if (je_slots_arg && !cfg->je_tcache)
		usage_error("--je-tcache-slots=%s: only with --je-tcache=on",
			    je_slots_arg);
	if (cfg->backend == PP_BACKEND_JEMALLOC)
		je_tcache_setup(cfg, je_slots, argv);

	/* Length: whichever comes first; the default only without either. */
	if (!have_duration && !cfg->requests)
		cfg->duration_s = DEFAULT_DURATION_S;

	if (!have_high)
		cfg->pcp_high = cfg->pcp_batch * 6;
	else if (cfg->pcp_high < cfg->pcp_batch)
		usage_error("--pcp-high=%u: expected an integer from the pcp "
			    "batch (%u) to %u", cfg->pcp_high, cfg->pcp_batch,
			    MAX_PCP_HIGH);
	if (!have_depth)
		cfg->queue_depth = cfg->threads * 2 > MAX_QUEUE_DEPTH ?
				   MAX_QUEUE_DEPTH : cfg->threads * 2;

	if (cfg->io_size > cfg->max_payload)
		usage_error("--io-size=%s: larger than the max payload (%s); "
			    "expected a size from 1 to --max-payload",
			    io_arg ? io_arg : "256k",
			    fmt_size(buf, sizeof(buf), cfg->max_payload));
	if (cfg->file_size < cfg->io_size)
		usage_error("--file-size=%s: smaller than one request (%s); "
			    "expected at least --io-size",
			    file_arg ? file_arg : "64m",
			    fmt_size(buf, sizeof(buf), cfg->io_size));

	/* The kernel's sizes: __svc_create() and svc_alloc_arg(). */
	cfg->sv_max_mesg = (unsigned long)DIV_ROUND_UP(cfg->max_payload +
						       PP_PAGE_SIZE,
						       PP_PAGE_SIZE) *
			   PP_PAGE_SIZE;
	cfg->pages = (cfg->sv_max_mesg + 2 * PP_PAGE_SIZE) / PP_PAGE_SIZE;
	cfg->pool_pages = (unsigned long)(cfg->pool_size / PP_PAGE_SIZE);
	pcp_impl_resolve(cfg);
	cfg->file_pages = (unsigned long)DIV_ROUND_UP(cfg->file_size,
						      PP_PAGE_SIZE);
	cfg->io_pages = (unsigned long)DIV_ROUND_UP(cfg->io_size,
						    PP_PAGE_SIZE);

	compute_min_pool(cfg);
	if (cfg->pool_pages < cfg->min_pool_pages)
		usage_error("--pool-size=%s: too small for %u threads x %lu "
			    "rq_pages + %u queued reply pages + %lu page-cache "
			    "pages + a %lu-page min watermark%s%.0lu%s; "
			    "expected at least %luk (%lu pages)",
			    pool_arg ? pool_arg : "1g", cfg->threads,
			    cfg->pages,
			    cfg->completion == RPCSIM_COMPLETION_THREAD ?
			    cfg->queue_depth : 0,
			    cfg->file_pages, cfg->min_pool_wmark,
			    cfg->backend_pages ? " + " : "",
			    cfg->backend_pages,
			    cfg->backend_pages ? " pages for jemalloc" : "",
			    cfg->min_pool_pages * (PP_PAGE_SIZE / 1024),
			    cfg->min_pool_pages);

	env = getenv("RPCSIM_LEAK_PAGES");
	if (env) {
		uint64_t n;

		if (parse_u64(env, &n) || n > cfg->file_pages)
			usage_error("RPCSIM_LEAK_PAGES=%s: expected an integer "
				    "from 0 to the file's %lu pages", env,
				    cfg->file_pages);
		cfg->leak_pages = (unsigned long)n;
	}

	pp_pool_config_init(&pc);
	cfg->debug_checks = pc.debug;
#ifdef PP_CONFIG_ASAN
	cfg->asan = true;
#endif
	cfg->progress = !cfg->quiet && isatty(STDERR_FILENO);
}
