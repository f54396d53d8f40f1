/* SPDX-License-Identifier: MIT */
/*
 * tracegen: emit a deterministic sequence of "rpcsim" (and optionally
 * "pagepool") LTTng-UST events, so that rpcsim-analyze can be tested
 * against known answers without rpcsim itself.
 *
 * For every mode of --modes and every run of --runs, the main thread fires
 * run_start, starts --threads threads that each make --calls
 * svc_alloc_arg_entry/exit pairs, joins them and fires run_end with the
 * totals.  Call i of a thread reports latency_ns = latency + (i % 5) * step;
 * with --spin (the default) the thread busy-waits that long between entry
 * and exit, so the timestamp distance is at least the reported latency.
 *
 * The totals are printed on stdout, one line per run, for the tests:
 *   tracegen: mode=2 run=0 calls=4000 latency_sum_ns=8400000 errs=40 ...
 */
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "number.h"
#include "tool.h"

#include "rpcsim_tp.h"
#include "pagepool_tp.h"

static const char *const mode_names[] = { "single", "list", "array" };

struct gen_config {
	unsigned int modes[8];
	unsigned int nr_modes;
	unsigned int runs;
	unsigned int threads;
	unsigned long calls;
	uint64_t latency;
	uint64_t step;
	bool spin;
	unsigned long err_every;
	unsigned long drop_exit_every;
	unsigned long drop_entry_every;
	bool pagepool;
	bool run_events;
	unsigned int allocated;
	const char *mode_name;	/* overrides run_start's mode_name */
};

struct gen_thread {
	pthread_t tid;
	const struct gen_config *cfg;
	unsigned int mode;
	/* results, read by the main thread after pthread_join() */
	uint64_t calls;
	uint64_t latency_sum;
	uint64_t pages;
	uint64_t errs;
};

static void *gen_thread_main(void *arg)
{
	struct gen_thread *t = arg;
	const struct gen_config *cfg = t->cfg;
	unsigned long i;

	for (i = 0; i < cfg->calls; i++) {
		uint64_t lat = cfg->latency + (i % 5) * cfg->step;
		unsigned int retries = 0;
		unsigned int alloc_calls = 1;
		uint64_t t0;

		if (!(cfg->drop_entry_every &&
		      (i + 1) % cfg->drop_entry_every == 0))
			lttng_ust_tracepoint(rpcsim, svc_alloc_arg_entry, 259,
					     cfg->allocated, t->mode);
		t0 = now_ns();
		if (cfg->pagepool) {
			lttng_ust_tracepoint(pagepool, mm_page_alloc_bulk,
					     cfg->allocated, 259,
					     cfg->allocated,
					     t->mode == 1 ? 0 : 1, 0);
			lttng_ust_tracepoint(pagepool,
					     mm_page_alloc_zone_locked,
					     1000 + i, 0, 0, 1);
			lttng_ust_tracepoint(pagepool,
					     mm_page_alloc_zone_locked,
					     2000 + i, 0, 0, 1);
		}
		if (cfg->err_every && (i + 1) % cfg->err_every == 0) {
			lttng_ust_tracepoint(rpcsim, svc_alloc_arg_err,
					     cfg->allocated, 0);
			retries = 1;
			alloc_calls = 2;
			t->errs++;
		}
		if (cfg->spin)
			while (now_ns() - t0 < lat)
				;
		if (!(cfg->drop_exit_every &&
		      (i + 1) % cfg->drop_exit_every == 0))
			lttng_ust_tracepoint(rpcsim, svc_alloc_arg_exit,
					     cfg->allocated, alloc_calls,
					     retries, lat);
		t->calls++;
		t->latency_sum += lat;
		t->pages += cfg->allocated;
	}
	return NULL;
}

/* The help on stdout and exit 0, or on stderr and exit @status (bad usage). */
__attribute__((noreturn))
static void usage(int status)
{
	fprintf(status ? stderr : stdout,
"Usage: tracegen [OPTION]...\n"
"Emit a known sequence of rpcsim/pagepool LTTng-UST events (test helper).\n"
"\n"
"  -m, --modes=LIST        modes to run, comma-separated, 0..2 (default 2)\n"
"  -r, --runs=N            runs per mode, the run field (default 1)\n"
"  -t, --threads=N         threads per run, 1..64 (default 1)\n"
"  -n, --calls=N           svc_alloc_arg calls per thread per run (default 1000)\n"
"  -l, --latency=NS        latency_ns of call 0 (default 2000)\n"
"  -s, --step=NS           call i reports latency + (i %% 5) * step (default 100)\n"
"      --no-spin           do not busy-wait the latency between entry and exit\n"
"  -e, --err-every=K       fire svc_alloc_arg_err every K-th call (default 0: never)\n"
"      --drop-exit-every=K   omit the exit event of every K-th call (default 0)\n"
"      --drop-entry-every=K  omit the entry event of every K-th call (default 0)\n"
"  -p, --pagepool          also fire 1 mm_page_alloc_bulk and 2\n"
"                          mm_page_alloc_zone_locked per call (default off)\n"
"  -a, --allocated=N       pages allocated per call (default 3)\n"
"      --no-run-events     omit run_start and run_end\n"
"      --mode-name=STR     run_start's mode_name (default: single, list, array)\n"
"  -h, --help              this help\n");
	exit(status);
}

/* Digits only: the tools' one number syntax (common/number.h). */
static unsigned long parse_ulong(const char *opt, const char *arg,
				 unsigned long min, unsigned long max)
{
	uint64_t v;

	if (num_parse_u64(arg, &v) || v < min || v > max)
		tool_die(2, "invalid %s '%s': accepted %lu..%lu", opt, arg,
			 min, max);
	return (unsigned long)v;
}

static void parse_modes(struct gen_config *cfg, const char *arg)
{
	char buf[64], *save = NULL, *tok;

	if (strlen(arg) >= sizeof(buf)) {
		fprintf(stderr, "tracegen: invalid --modes '%s': accepted a list of 0, 1, 2\n",
			arg);
		exit(2);
	}
	strcpy(buf, arg);
	cfg->nr_modes = 0;
	for (tok = strtok_r(buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		if (cfg->nr_modes == 8) {
			fprintf(stderr, "tracegen: invalid --modes '%s': at most 8 entries\n",
				arg);
			exit(2);
		}
		cfg->modes[cfg->nr_modes++] =
			parse_ulong("--modes", tok, 0, 2);
	}
	if (!cfg->nr_modes) {
		fprintf(stderr, "tracegen: invalid --modes '%s': accepted a list of 0, 1, 2\n",
			arg);
		exit(2);
	}
}

enum { OPT_NO_SPIN = 256, OPT_DROP_EXIT, OPT_DROP_ENTRY, OPT_NO_RUN,
       OPT_MODE_NAME };

/* The options into @cfg; --help and bad usage exit here. */
static void parse_args(int argc, char **argv, struct gen_config *cfg)
{
	static const struct option longopts[] = {
		{ "modes", required_argument, NULL, 'm' },
		{ "runs", required_argument, NULL, 'r' },
		{ "threads", required_argument, NULL, 't' },
		{ "calls", required_argument, NULL, 'n' },
		{ "latency", required_argument, NULL, 'l' },
		{ "step", required_argument, NULL, 's' },
		{ "no-spin", no_argument, NULL, OPT_NO_SPIN },
		{ "err-every", required_argument, NULL, 'e' },
		{ "drop-exit-every", required_argument, NULL, OPT_DROP_EXIT },
		{ "drop-entry-every", required_argument, NULL, OPT_DROP_ENTRY },
		{ "pagepool", no_argument, NULL, 'p' },
		{ "allocated", required_argument, NULL, 'a' },
		{ "no-run-events", no_argument, NULL, OPT_NO_RUN },
		{ "mode-name", required_argument, NULL, OPT_MODE_NAME },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	int c;

	while ((c = getopt_long(argc, argv, "m:r:t:n:l:s:e:pa:h", longopts,
				NULL)) != -1) {
		switch (c) {
		case 'm':
			parse_modes(cfg, optarg);
			break;
		case 'r':
			cfg->runs = parse_ulong("--runs", optarg, 1, 1000);
			break;
		case 't':
			cfg->threads = parse_ulong("--threads", optarg, 1, 64);
			break;
		case 'n':
			cfg->calls = parse_ulong("--calls", optarg, 0,
						 100000000);
			break;
		case 'l':
			cfg->latency = parse_ulong("--latency", optarg, 0,
						   1000000000);
			break;
		case 's':
			cfg->step = parse_ulong("--step", optarg, 0,
						1000000000);
			break;
		case OPT_NO_SPIN:
			cfg->spin = false;
			break;
		case 'e':
			cfg->err_every = parse_ulong("--err-every", optarg, 0,
						     ULONG_MAX);
			break;
		case OPT_DROP_EXIT:
			cfg->drop_exit_every = parse_ulong("--drop-exit-every",
							   optarg, 0,
							   ULONG_MAX);
			break;
		case OPT_DROP_ENTRY:
			cfg->drop_entry_every =
				parse_ulong("--drop-entry-every", optarg, 0,
					    ULONG_MAX);
			break;
		case 'p':
			cfg->pagepool = true;
			break;
		case 'a':
			cfg->allocated = parse_ulong("--allocated", optarg, 0,
						     4096);
			break;
		case OPT_NO_RUN:
			cfg->run_events = false;
			break;
		case OPT_MODE_NAME:
			cfg->mode_name = optarg;
			break;
		default:	/* -h, --help: exit 0; anything else: bad usage */
			usage(c == 'h' ? 0 : 2);
		}
	}
	if (optind < argc)
		tool_die(2, "unexpected argument '%s': accepted options only",
			 argv[optind]);
}

static unsigned int runs_started;	/* run_seq, as rpcsim numbers runs */

/* run_start with the fixed configuration rpcsim-analyze's tests expect. */
static void fire_run_start(const struct gen_config *cfg, unsigned int mode,
			   unsigned int run)
{
	struct rpcsim_tp_run rs = {
		.mode_name = cfg->mode_name ? cfg->mode_name :
					      mode_names[mode],
		.mode = mode, .run = run,
		.pid = (int)getpid(),
		.threads = cfg->threads, .slots = 259,
		.io_size = 262144,
		.max_payload = 1048576,
		.pool_pages = 65536,
		.file_pages = 1024, .pcp_batch = 63,
		.pcp_high = 378,
		.completion = "inline",
		.read_weight = 1, .write_weight = 1,
		.seed = 1, .version = "tracegen",
		.backend = 0,	/* buddy */
		.bulk_variant = 0, /* merged */
		.run_seq = ++runs_started,
	};

	lttng_ust_tracepoint(rpcsim, run_start, &rs);
}

/*
 * One run of @mode: the threads' calls between run_start and run_end,
 * and its totals line on stdout.  0, or 1 when a thread call failed.
 */
static int one_run(const struct gen_config *cfg, struct gen_thread *threads,
		   unsigned int mode, unsigned int run)
{
	uint64_t calls = 0, sum = 0, pages = 0, errs = 0;
	unsigned int k;

	if (cfg->run_events)
		fire_run_start(cfg, mode, run);
	for (k = 0; k < cfg->threads; k++) {
		int err;

		memset(&threads[k], 0, sizeof(threads[k]));
		threads[k].cfg = cfg;
		threads[k].mode = mode;
		err = pthread_create(&threads[k].tid, NULL, gen_thread_main,
				     &threads[k]);
		if (err) {
			fprintf(stderr, "tracegen: pthread_create: %s\n",
				strerror(err));
			return 1;
		}
	}
	for (k = 0; k < cfg->threads; k++) {
		int err = pthread_join(threads[k].tid, NULL);

		if (err) {
			fprintf(stderr, "tracegen: pthread_join: %s\n",
				strerror(err));
			return 1;
		}
		calls += threads[k].calls;
		sum += threads[k].latency_sum;
		pages += threads[k].pages;
		errs += threads[k].errs;
	}
	if (cfg->run_events)
		lttng_ust_tracepoint(rpcsim, run_end, mode, run, calls, pages,
				     sum, calls, errs, (uint64_t)0);
	printf("tracegen: mode=%u run=%u calls=%" PRIu64
	       " latency_sum_ns=%" PRIu64 " errs=%" PRIu64
	       " pages=%" PRIu64 "\n",
	       mode, run, calls, sum, errs, pages);
	return 0;
}

int main(int argc, char **argv)
{
	struct gen_config cfg = {
		.modes = { 2 }, .nr_modes = 1, .runs = 1, .threads = 1,
		.calls = 1000, .latency = 2000, .step = 100, .spin = true,
		.run_events = true, .allocated = 3,
	};
	struct gen_thread *threads;

	tool_set_name("tracegen");
	parse_args(argc, argv, &cfg);
	threads = calloc(cfg.threads, sizeof(*threads));
	if (!threads) {
		perror("tracegen: calloc");
		return 1;
	}
	for (unsigned int m = 0; m < cfg.nr_modes; m++)
		for (unsigned int r = 0; r < cfg.runs; r++)
			if (one_run(&cfg, threads, cfg.modes[m], r))
				return 1;
	free(threads);
	return 0;
}
