/* SPDX-License-Identifier: MIT */
/*
 * What pagebench's files share: the allocators it measures, its options,
 * one configuration's result and the state the timed loops work on.
 * pagebench.c plans and drives the runs, options.c reads the command
 * line, loops.c holds the timed loops and finds the baselines' functions,
 * report.c prints the header, the lines, the tables and the JSON document,
 * results.c writes that document into --results=DIR's file.
 */
#ifndef PAGEBENCH_PAGEBENCH_H
#define PAGEBENCH_PAGEBENCH_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <pagepool/pagepool.h>

#include "harness.h"
#include "helper.h"

#define MAX_BULK	PB_MAX_BULK
#define MAX_BULKS	16	/* sizes in --bulk */
#define MAX_RUNS	1000
#define DEFAULT_RUNS	5
#define DEFAULT_RUN_MS	20.0
#define LIFO_PAGES	65536UL
#define CONTRACT_PAGES	4096UL
#define MAX_NAMED	9	/* settings in a result file's name */
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

enum allocator {
	A_BUDDY,		/* libpagepool, buddy backend */
	A_JEMALLOC,		/* libpagepool, jemalloc backend */
	A_PLUGIN,		/* libpagepool, --backend=plugin:PATH */
	A_GLIBC,		/* aligned_alloc(4096, 4096) + free() */
	A_MALLOCX,		/* mallocx(4096, 0) + sdallocx() */
	A_MEMPOOL,		/* DPDK rte_mempool_get/put, pagebench-mempool */
	A_TCMALLOC,		/* tcmalloc aligned_alloc, pagebench-tcmalloc */
	A_LIFO,			/* a LIFO array of page pointers */
	A_CONTRACT,		/* the LIFO plus the kernel's per-page contract */
	A_PERCPU,		/* the contract on per-CPU rseq lists */
	NR_ALLOCATORS
};

/* Allocators 0..A_LAST_POOL are libpagepool pools. */
#define A_LAST_POOL	A_PLUGIN

extern const char *const pb_allocator_names[NR_ALLOCATORS];

/* The baselines that run in a child program (helper.h). */
struct child_baseline {
	const char *program;
	const char *not_built;	/* why, or NULL: it is built */
};

extern const struct child_baseline pb_children[NR_ALLOCATORS];

bool pb_is_child(int a);
/* Why allocator @a was not built, or NULL when it was. */
const char *pb_not_built_why(int a);
bool pb_is_built(int a);

struct options {
	bool allocator[NR_ALLOCATORS];
	bool api[PB_NR_APIS];
	bool variant[PP_NR_BULK_VARIANTS];
	unsigned int bulks[MAX_BULKS], nr_bulks;
	unsigned int runs;
	double run_ms;
	bool free_put;		/* put each page (page_bench04) */
	int profile;		/* --profile: enum pp_profile, -1 not given */
	bool je_tcache, je_batch;
	bool pin;
	bool smoke;
	bool interleave;	/* runs round-robin over the configurations */
	bool allocators_all;	/* by default or "all": not built ones noted */
	bool json;		/* --json, --output-format=json */
	bool csv;		/* --output-format=csv */
	const char *output;	/* --output=FILE, or NULL: stdout */
	const char *backend_plugin;	/* --backend=plugin:PATH: the PATH */
	/*
	 * libpagepool's configuration from the environment (PAGEPOOL_*),
	 * read once, so that a value it cannot read is named once; every
	 * pool starts from it, and a bad value makes the first one fail.
	 */
	struct pp_pool_config pool_env;
	/*
	 * --results=DIR: the file's name, from the settings given that say
	 * what is measured (named[], in the options' order, and
	 * PAGEPOOL_PCP as pcp), and every setting given with the
	 * environment libpagepool and jemalloc read, which a file must
	 * hold to stand for this run (options.c).
	 */
	char *results;			/* %h expanded: this host's name */
	char *name, *settings;
	struct { const char *key, *value; } named[MAX_NAMED];
	unsigned int nr_named;
};

/* One configuration's result. */
struct result {
	enum allocator allocator;
	enum pb_api api;
	unsigned int bulk;
	int variant;		/* -1: not a libpagepool bulk row */
	unsigned long pages_per_run;
	double ns[MAX_RUNS], ticks[MAX_RUNS];
	double median_ns, min_ns, max_ns, spread_pct, median_ticks;
};

/* What the timed loops work on. */
struct bench {
	enum allocator allocator;
	struct pp_pool *pool;		/* of @allocator */
	struct pp_pool *pools[A_LAST_POOL + 1];
	struct pb_helper helpers[NR_ALLOCATORS];
	bool running[NR_ALLOCATORS];	/* helpers[] started */
	struct pp_page *arr[MAX_BULK];
	void *ptrs[MAX_BULK];
	bool free_put;
	bool debug_list;		/* @pool checks list ops (the bench's too) */
	/* The LIFO floor. */
	void **lifo;
	unsigned long lifo_top;
	/*
	 * The contract floor: descriptors of its own, a LIFO of them, and
	 * the descriptor's refcount/order/state/flags word of a page handed
	 * out and of a free one.
	 */
	struct pp_page *cdesc;
	struct pp_page **clifo;
	unsigned long clifo_top;
	uint64_t cword_used, cword_free;
};

/*
 * The contract floor's view of a descriptor: its refcount, order, state
 * and flags, which sit together in one aligned 8-byte word (libpagepool
 * tests and stores them as one; see pp_page_word() in alloc/).
 */
static inline uint64_t contract_word(const struct pp_page *page)
{
	uint64_t w;

	memcpy(&w, (const char *)page + offsetof(struct pp_page, refcount),
	       sizeof(w));
	return w;
}

static inline void contract_set_word(struct pp_page *page, uint64_t w)
{
	memcpy((char *)page + offsetof(struct pp_page, refcount), &w,
	       sizeof(w));
}

/*
 * A page given back: put_page()'s test (was it @used, the word of a page
 * handed out?) and the store of @unused.  Nonzero when the test failed.
 */
static inline uint64_t contract_give_back(struct pp_page *page,
					  uint64_t used, uint64_t unused)
{
	uint64_t bad = contract_word(page) ^ used;

	contract_set_word(page, unused);
	return bad;
}

/*
 * percpu.c: the per-CPU floor.  Why it cannot run here, or NULL; its
 * lists, made with the contract floor's two words (nothing when it cannot
 * run); one page out and back @pages times; one round of @n pages
 * through @arr, all NULL (the sums of pages it handed out, kept alive).
 */
#define PAGEBENCH_NO_PERCPU_WHY	"this build has no rseq lists: x86_64, " \
	"glibc 2.35 and no ThreadSanitizer needed"
const char *pb_percpu_unavailable(void);
void pb_percpu_setup(uint64_t used, uint64_t unused);
void pb_percpu_teardown(void);
uintptr_t pb_percpu_single(unsigned long pages);
uintptr_t pb_percpu_array(struct pp_page **arr, unsigned long n);

/*
 * pagebench.c: the signal that ended the runs early (SIGINT, SIGTERM,
 * SIGHUP, SIGQUIT), or 0.  The configurations measured before it are
 * reported, marked as interrupted, and the exit status is 128 + it.
 */
extern volatile sig_atomic_t pb_interrupted;
/* "SIGINT" */
const char *pb_signal_name(int sig);

/*
 * pagebench.c: stop the child baselines, then "pagebench: message" and
 * exit status 1.
 */
__attribute__((noreturn, format(printf, 1, 2)))
void pb_fail(const char *fmt, ...);

/* loops.c: where glibc's aligned_alloc() and jemalloc's mallocx() live. */
extern char pb_glibc_from[256], pb_mallocx_from[256];
/* Find the in-process baselines' functions (pb_fail() if one is missing). */
void pb_find_baselines(void);
/* pb_run_fn for libpagepool and the in-process baselines (a bench). */
unsigned long pb_bench_run(void *ctx, enum pb_api api, unsigned int bulk,
			   unsigned long pages);

/* options.c: the command line into @o; bad usage exits 2. */
void pb_parse_options(int argc, char **argv, struct options *o);
/* What pb_parse_options() allocated (the --results folder, name, settings). */
void pb_options_release(struct options *o);

/* One run's document, for --json and --results (report.c). */
struct pb_doc {
	const struct result *res;
	unsigned int nr;
	const struct options *o;
	const struct bench *b;
	const char *model;
	double tsc_ghz;
	long cpus;
};

/*
 * results.c: --results=DIR.  Before the runs: the folder made (exit 1
 * when it cannot be), and 1, said on stdout, when its file holds this
 * run's settings already: nothing to run; -1, said on stderr, when
 * something that is no result file (a FIFO) has its name; 0: run.
 * After them: the
 * document written into the file; 0, or -1 said on stderr.
 */
int pb_results_done(const struct options *o);
int pb_results_write(const struct pb_doc *d);

/* report.c */
void pb_print_header(const struct bench *b, const struct options *o,
		     const char *model, double tsc_ghz, long cpus);
void pb_print_line(const struct result *r, const struct options *o);
void pb_print_table(const struct result *res, unsigned int nr,
		    const struct options *o, int variant);
void pb_print_json(const struct result *res, unsigned int nr,
		   const struct options *o, const struct bench *b,
		   const char *model, double tsc_ghz, long cpus);
/*
 * --output-format=csv: a header line, then one row per configuration
 * with the fields of its text line.
 */
void pb_print_csv(const struct result *res, unsigned int nr,
		  const struct options *o);
/* The --json document of @d to @out. */
void pb_write_json(FILE *out, const struct pb_doc *d);

#endif /* PAGEBENCH_PAGEBENCH_H */
