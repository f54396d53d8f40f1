/* SPDX-License-Identifier: MIT */
/*
 * rpcsim's configuration: the command line, checked, plus the sizes derived
 * from it the way the kernel derives them.
 */
#ifndef RPCSIM_OPTIONS_H
#define RPCSIM_OPTIONS_H

#include <stdbool.h>
#include <stdint.h>

#include <pagepool/pagepool.h>

enum rpcsim_mode {
	RPCSIM_SINGLE,
	RPCSIM_LIST,
	RPCSIM_ARRAY,
	RPCSIM_NR_MODES
};

/* --consumer: who calls the allocator. */
enum rpcsim_consumer {
	RPCSIM_CONSUMER_NFSD,		/* svc_alloc_arg(), nfsd/ */
	RPCSIM_CONSUMER_PAGE_POOL,	/* a NIC's RX page_pool, page_pool/ */
	RPCSIM_NR_CONSUMERS
};

enum rpcsim_completion {
	RPCSIM_COMPLETION_INLINE,
	RPCSIM_COMPLETION_THREAD,
};

/*
 * --sweep=KEY=V1,V2,...: the settings a sweep varies, each a list of
 * values as given (checked); several keys make a grid, the last key
 * varying fastest.  Point n (1-based) of the grid is one rpcsim run.
 */
#define RPCSIM_SWEEP_MAX_KEYS	12
#define RPCSIM_SWEEP_MAX_VALUES	64

struct rpcsim_sweep_key {
	const char *key;		/* threads, pcp-batch, ..., pcp */
	const char *arg;		/* --sweep's value, for messages */
	unsigned int nr;
	char *values[RPCSIM_SWEEP_MAX_VALUES];
};

struct rpcsim_sweep {
	unsigned int nr_keys;		/* 0: no sweep */
	struct rpcsim_sweep_key keys[RPCSIM_SWEEP_MAX_KEYS];
	uint64_t nr_points;		/* the grid's size */
	uint64_t point;			/* --point=N; 0: every point */
	const char *results;		/* --results=DIR, as given */
	char *results_dir;		/* ... on this host (%h expanded) */
	/*
	 * ... in the points' commands: absolute (the working directory,
	 * each % in it as %%, before a relative DIR), so that a --plan line
	 * runs the same from anywhere; %h kept
	 */
	char *results_arg;
	bool plan;			/* --plan: print the points' commands */
	bool plan_slurm;		/* --plan=slurm: as an sbatch script */
	uint64_t plan_limit;		/* --plan=slurm:K, 0: every task at once */
	/* The point this process runs (--point): */
	char *name;			/* its file's name, without .json */
	char *settings;			/* every setting, canonical */
	unsigned int value_of[RPCSIM_SWEEP_MAX_KEYS]; /* index per key */
	/*
	 * The settings given besides the sweep, "--name=value" each in
	 * the option table's order: a point's command is rpcsim, these,
	 * the --sweep options, --results and --point.
	 */
	unsigned int nr_fixed;
	char **fixed;
};

struct rpcsim_config {
	enum rpcsim_consumer consumer;
	const char *alloc;		/* as given: single, list, array, all */
	bool mode[RPCSIM_NR_MODES];	/* modes to run */
	unsigned int threads;
	double duration_s;		/* 0: no time limit */
	uint64_t requests;		/* 0: no request limit */
	unsigned int read_weight, write_weight;
	uint64_t io_size;
	uint64_t max_payload;
	uint64_t pool_size;
	uint64_t file_size;
	uint64_t tcp_read;		/* bytes a socket read finds, 0: all */
	unsigned int pcp_batch, pcp_high;
	unsigned int nodes;		/* --nodes: the pool's NUMA nodes */
	/* The allocator behind the APIs and the bulk API's contract. */
	enum pp_backend backend;
	const char *backend_plugin;	/* --backend=plugin:PATH: the PATH */
	enum pp_bulk_variant bulk_variant;
	/* The buddy backend's profile (what ran: lean for the others). */
	enum pp_profile profile;
	bool je_tcache;			/* jemalloc: per-CPU thread caches */
	long je_tcache_slots;		/* jemalloc: 4 KiB slots each has */
	bool je_batch;			/* jemalloc: bulk via batch_alloc */
	/*
	 * libpagepool's defaults with what PAGEPOOL_DEBUG, PAGEPOOL_PCP and
	 * PAGEPOOL_FAULT set, read once (pp_pool_config_init()): every pool
	 * starts from it, and a bad PAGEPOOL_FAULT is named once, its pools
	 * then refused when created (exit 1).
	 */
	struct pp_pool_config pool_env;
	/* How the pools' pcp lists are owned: rseq or lock (what ran). */
	enum pp_pcp_impl pcp_impl;
	const char *pcp_why;		/* why not rseq, when it was wanted */
	enum rpcsim_completion completion;
	unsigned int queue_depth;	/* completion (stack) thread backlog */
	/* --consumer=page_pool: the packet stream and how it is freed. */
	uint64_t packet_size;		/* bytes per packet */
	uint64_t rate;			/* packets/s per RX queue, 0: no pacing */
	unsigned int free_direct, free_ring, free_held,	/* --free-mix */
		     free_released;
	unsigned int ring_size;		/* ptr_ring entries per page_pool */
	/*
	 * --call-timing: clock reads around each refill (on), or none, so
	 * that the packet rate carries no cost of rpcsim's own (off).
	 */
	bool call_timing;
	uint64_t seed;
	unsigned int repeat;
	uint64_t warmup;		/* untimed requests per thread */
	unsigned int retry_wait_us;
	double stop_grace_s;		/* --stop-grace: the watchdog's */
	bool json, quiet;
	/* --output-format=text,json: the text, then the JSON document */
	bool json_after_text;
	unsigned int output_format;	/* the word --output-format gave */
	const char *output;		/* --output=FILE instead of stdout */
	const char *plot;		/* --plot=FILE (.svg or .png), or NULL */
	double interval_s;		/* --interval: 0, none recorded */
	const char *histogram;		/* --histogram=FILE (CSV), or NULL */
	/* --trace: record the run with LTTng (rpcsim --trace[=DIR]). */
	bool trace;
	const char *trace_dir;		/* NULL: a new timestamped folder */
	const char *trace_live;		/* --trace-live: relay daemon URL */
	bool trace_all;			/* --trace-events=all: + pagepool:* */
	uint64_t trace_buffer;		/* ring buffer bytes per CPU */
	bool progress;			/* stderr is a terminal, not --quiet */
	bool progress_forced;		/* --progress: on any stderr */
	bool progress_tty;		/* rewritten in place (\r), not lines */
	/*
	 * Test hook, RPCSIM_LEAK_PAGES=N in the environment: keep N page-cache
	 * pages at exit, so the leak check can be seen to work.
	 */
	unsigned long leak_pages;

	struct rpcsim_sweep sweep;

	/* Derived. */
	unsigned long sv_max_mesg;	/* bytes */
	unsigned long pages;		/* rq_pages[] slots svc_alloc_arg fills */
	unsigned long pool_pages, file_pages, io_pages;
	unsigned long packet_pages;	/* pages per packet (page_pool) */
	unsigned long min_pool_pages;	/* smallest pool that cannot deadlock */
	unsigned long backend_pages;	/* of which the backend's headroom */
	unsigned long min_pool_wmark;	/* its min watermark */
	unsigned long aside_pages;	/* --tcp-read: a thread's set-aside pages */
	bool debug_checks;		/* libpagepool debug checks on */
	bool asan;			/* built with --enable-asan */
};

/*
 * Parse and check the command line into @cfg.  Bad input prints one line
 * naming the option, the value and what is accepted, and exits 2; --help
 * and --version print and exit 0.
 */
void rpcsim_parse_options(int argc, char **argv, struct rpcsim_config *cfg);
/* What parsing allocated (a sweep's values and settings). */
void rpcsim_free_options(struct rpcsim_config *cfg);

/* "Single page", "Bulk list", "Bulk array" (the seed's labels). */
const char *rpcsim_mode_label(enum rpcsim_mode mode);
/* "single", "list", "array" (the --alloc names). */
const char *rpcsim_mode_name(enum rpcsim_mode mode);
/* "nfsd", "page_pool" (the --consumer names). */
const char *rpcsim_consumer_name(enum rpcsim_consumer consumer);

/*
 * The command of sweep point @point (1-based): "rpcsim" (@prog), the
 * fixed settings, every --sweep, --results and --point.  A NULL-terminated
 * array of strings to free with rpcsim_free_argv().
 */
char **rpcsim_point_argv(const struct rpcsim_config *cfg, const char *prog,
			 uint64_t point);
void rpcsim_free_argv(char **argv);
/* Point @point's file name in the results folder, without .json (malloc'd). */
char *rpcsim_point_name(const struct rpcsim_config *cfg, uint64_t point);
/* The value of key @k at point @point (1-based). */
const char *rpcsim_point_value(const struct rpcsim_config *cfg,
			       unsigned int k, uint64_t point);

#endif /* RPCSIM_OPTIONS_H */
