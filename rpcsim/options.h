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

enum rpcsim_completion {
	RPCSIM_COMPLETION_INLINE,
	RPCSIM_COMPLETION_THREAD,
};

struct rpcsim_config {
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
	unsigned int pcp_batch, pcp_high;
	/* The allocator behind the APIs and the bulk API's contract. */
	enum pp_backend backend;
	enum pp_bulk_variant bulk_variant;
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
	unsigned int queue_depth;	/* completion thread backlog */
	uint64_t seed;
	unsigned int repeat;
	uint64_t warmup;		/* untimed requests per thread */
	unsigned int retry_wait_us;
	bool json, quiet;
	/* --output-format=text,json: the text, then the JSON document */
	bool json_after_text;
	unsigned int output_format;	/* the word --output-format gave */
	const char *output;		/* --output=FILE instead of stdout */
	const char *plot;		/* --plot=FILE (.svg or .png), or NULL */
	/* --trace: record the run with LTTng (rpcsim --trace[=DIR]). */
	bool trace;
	const char *trace_dir;		/* NULL: a new timestamped folder */
	bool trace_all;			/* --trace-events=all: + pagepool:* */
	uint64_t trace_buffer;		/* ring buffer bytes per CPU */
	bool progress;			/* stderr is a terminal, not --quiet */
	/*
	 * Test hook, RPCSIM_LEAK_PAGES=N in the environment: keep N page-cache
	 * pages at exit, so the leak check can be seen to work.
	 */
	unsigned long leak_pages;

	/* Derived. */
	unsigned long sv_max_mesg;	/* bytes */
	unsigned long pages;		/* rq_pages[] slots svc_alloc_arg fills */
	unsigned long pool_pages, file_pages, io_pages;
	unsigned long min_pool_pages;	/* smallest pool that cannot deadlock */
	unsigned long backend_pages;	/* of which the backend's headroom */
	unsigned long min_pool_wmark;	/* its min watermark */
	bool debug_checks;		/* libpagepool debug checks on */
	bool asan;			/* built with --enable-asan */
};

/*
 * Parse and check the command line into @cfg.  Bad input prints one line
 * naming the option, the value and what is accepted, and exits 2; --help
 * and --version print and exit 0.
 */
void rpcsim_parse_options(int argc, char **argv, struct rpcsim_config *cfg);

/* "Single page", "Bulk list", "Bulk array" (the seed's labels). */
const char *rpcsim_mode_label(enum rpcsim_mode mode);
/* "single", "list", "array" (the --alloc names). */
const char *rpcsim_mode_name(enum rpcsim_mode mode);

#endif /* RPCSIM_OPTIONS_H */
