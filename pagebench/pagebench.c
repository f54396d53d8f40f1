/* SPDX-License-Identifier: MIT */
/*
 * pagebench: the per-page cost of allocating and freeing pages, for each
 * allocation API of libpagepool on each backend, at bulk sizes 1 to 128,
 * next to what a user would otherwise pick (glibc aligned_alloc(), jemalloc
 * mallocx() one page at a time, DPDK's rte_mempool through its per-lcore
 * cache, tcmalloc) and a plain LIFO array of page pointers, the floor:
 * what moving the pointers alone costs.
 *
 * Modelled on the kernel's page_bench04_bulk (time_bench: alloc + free
 * per element, in cycles and ns, one CPU) and DPDK's mempool_perf (one
 * greppable line per configuration).  Each configuration is warmed up,
 * then timed over several runs of about --run-ms each; the median, the
 * lowest and highest run, and their spread are reported.
 *
 * The baselines are called through pointers found with dlsym(): glibc's
 * aligned_alloc()/free() from libc.so.6 itself, so they stay glibc's even
 * if another malloc is interposed, and jemalloc's mallocx()/sdallocx(),
 * which libpagepool loads for its jemalloc backend.  pagebench does not
 * link jemalloc: the process's malloc() stays glibc's.  DPDK's mempool and
 * tcmalloc run in child programs (helper.h), built when configure finds
 * them; pagebench drives their runs and computes and prints their rows
 * like the others.
 *
 * This file plans the configurations and drives their runs; pagebench.h
 * says what the other files do.
 */
#include <config.h>

#include <errno.h>
#include <math.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "files.h"
#include "tool.h"
#include "../sweep/results.h"

#include "pagebench.h"

const char *const pb_allocator_names[NR_ALLOCATORS] = {
	[A_BUDDY] = "buddy", [A_JEMALLOC] = "jemalloc", [A_PLUGIN] = "plugin",
	[A_GLIBC] = "glibc",
	[A_MALLOCX] = "mallocx", [A_MEMPOOL] = "mempool",
	[A_TCMALLOC] = "tcmalloc", [A_LIFO] = "lifo",
	[A_CONTRACT] = "contract", [A_PERCPU] = "percpu",
};

const struct child_baseline pb_children[NR_ALLOCATORS] = {
#ifdef HAVE_DPDK
	[A_MEMPOOL] = { "pagebench-mempool", NULL },
#else
	[A_MEMPOOL] = { "pagebench-mempool", PAGEBENCH_NO_DPDK_WHY },
#endif
#ifdef HAVE_TCMALLOC
	[A_TCMALLOC] = { "pagebench-tcmalloc", NULL },
#else
	[A_TCMALLOC] = { "pagebench-tcmalloc", PAGEBENCH_NO_TCMALLOC_WHY },
#endif
};

bool pb_is_child(int a)
{
	return pb_children[a].program != NULL;
}

/*
 * Both jemalloc baselines need the jemalloc libpagepool links: its backend,
 * and the mallocx() that library loads.
 */
#ifdef HAVE_JEMALLOC
#define PAGEBENCH_NO_JEMALLOC_WHY	NULL
#else
#define PAGEBENCH_NO_JEMALLOC_WHY	"this build has no jemalloc: ./configure --without-jemalloc"
#endif

const char *pb_not_built_why(int a)
{
	if (a == A_JEMALLOC || a == A_MALLOCX)
		return PAGEBENCH_NO_JEMALLOC_WHY;
	if (a == A_PERCPU)
		return pb_percpu_unavailable();
	return pb_is_child(a) ? pb_children[a].not_built : NULL;
}

bool pb_is_built(int a)
{
	return !pb_not_built_why(a);
}

/* --- errors and signals ---------------------------------------------------- */

volatile sig_atomic_t pb_interrupted;

static const int stop_signals[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };

const char *pb_signal_name(int sig)
{
	switch (sig) {
	case SIGINT: return "SIGINT";
	case SIGTERM: return "SIGTERM";
	case SIGHUP: return "SIGHUP";
	case SIGQUIT: return "SIGQUIT";
	}
	return "a signal";
}

static void on_stop_signal(int sig)
{
	if (!pb_interrupted)
		pb_interrupted = sig;
}

/*
 * Ctrl-C (and SIGTERM, SIGHUP, SIGQUIT) ends the runs after the one in
 * progress: the configurations measured so far are reported.  A signal
 * ignored when pagebench started stays ignored: nohup's SIGHUP, and
 * SIGINT and SIGQUIT of a command a shell started in the background.
 * SA_RESTART: a child baseline's socket is read again, its run ends.
 */
static void catch_stop_signals(void)
{
	struct sigaction sa, old;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_stop_signal;
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < ARRAY_SIZE(stop_signals); i++) {
		if (sigaction(stop_signals[i], NULL, &old) ||
		    old.sa_handler == SIG_IGN)
			continue;
		if (sigaction(stop_signals[i], &sa, NULL))
			pb_fail("sigaction: %s", strerror(errno));
	}
}

/* For pb_fail(): the children to stop. */
static struct bench *live_bench;
static int stop_children(struct bench *b);

void pb_fail(const char *fmt, ...)
{
	va_list ap;

	if (live_bench)
		stop_children(live_bench);
	va_start(ap, fmt);
	tool_vdie(1, fmt, ap);
}

/* --- measuring one configuration ------------------------------------------- */

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double median(const double *v, unsigned int n)
{
	double s[MAX_RUNS];

	memcpy(s, v, n * sizeof(*v));
	qsort(s, n, sizeof(*s), cmp_double);
	return n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
}

/* Points the loops at @r's allocator and bulk contract. */
static void select_config(struct bench *b, const struct result *r)
{
	b->allocator = r->allocator;
	b->pool = r->allocator <= A_LAST_POOL ? b->pools[r->allocator] : NULL;
	b->debug_list = b->pool && pp_pool_debug_list(b->pool);
	if (r->variant >= 0)
		pp_pool_set_bulk_variant(b->pool, r->variant);
}

/*
 * Warm @r's configuration up and size its runs to about @o->run_ms each
 * (harness.c), here or in its child program.  Smoke mode: tiny fixed
 * runs, format only.
 */
static void prepare(struct bench *b, const struct options *o,
		    struct result *r)
{
	struct pb_helper *h = &b->helpers[r->allocator];

	if (pb_is_child(r->allocator)) {
		if (pb_helper_prepare(h, r->api, r->bulk, o->smoke, o->run_ms,
				      &r->pages_per_run))
			pb_fail("the %s baseline: %s",
				pb_allocator_names[r->allocator], h->error);
		return;
	}
	select_config(b, r);
	r->pages_per_run = pb_prepare(pb_bench_run, b, r->api, r->bulk,
				      o->smoke, o->run_ms);
}

/* Timed run @i of @r's configuration. */
static void time_run(struct bench *b, struct result *r, unsigned int i)
{
	struct pb_helper *h = &b->helpers[r->allocator];

	if (pb_is_child(r->allocator)) {
		if (pb_helper_run(h, r->api, r->bulk, r->pages_per_run,
				  &r->ns[i], &r->ticks[i]))
			pb_fail("the %s baseline: %s",
				pb_allocator_names[r->allocator], h->error);
		return;
	}
	select_config(b, r);
	pb_time_run(pb_bench_run, b, r->api, r->bulk, r->pages_per_run,
		    &r->ns[i], &r->ticks[i]);
}

/* The median, fastest and slowest of @r's runs, and their spread. */
static void summarize(struct result *r, const struct options *o)
{
	r->median_ns = median(r->ns, o->runs);
	r->median_ticks = median(r->ticks, o->runs);
	r->min_ns = r->max_ns = r->ns[0];
	for (unsigned int i = 1; i < o->runs; i++) {
		r->min_ns = fmin(r->min_ns, r->ns[i]);
		r->max_ns = fmax(r->max_ns, r->ns[i]);
	}
	r->spread_pct = r->median_ns > 0 ?
			100.0 * (r->max_ns - r->min_ns) / r->median_ns : 0;
}

/* --- setup and the runs ------------------------------------------------------ */

static struct pp_pool *make_pool(enum pp_backend backend,
				 const struct options *o)
{
	struct pp_pool_config cfg = o->pool_env;
	struct pp_pool *pool;

	cfg.backend = backend;
	cfg.backend_plugin = o->backend_plugin;
	cfg.je_tcache = o->je_tcache;
	cfg.je_batch_alloc = o->je_batch;
	pool = pp_pool_create(&cfg);
	if (!pool)
		pb_fail("cannot create a %s pool: %s", pp_backend_name(backend),
			strerror(errno));
	return pool;
}

static void pin_to_this_cpu(void)
{
	cpu_set_t set;
	int cpu = sched_getcpu();

	if (cpu < 0)
		return;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		fprintf(stderr, "%s: warning: cannot pin to CPU %d: %s\n",
			tool_name, cpu, strerror(errno));
}

/* The first and last configuration of allocator @a; false if none. */
static bool span_of(const struct result *res, unsigned int nr, int a,
		    unsigned int *first, unsigned int *last)
{
	bool any = false;

	for (unsigned int i = 0; i < nr; i++) {
		if (res[i].allocator != (enum allocator)a)
			continue;
		if (!any)
			*first = i;
		*last = i;
		any = true;
	}
	return any;
}

static void open_pool(struct bench *b, const struct options *o, int a)
{
	b->pools[a] = make_pool(a == A_BUDDY ? PP_BACKEND_BUDDY :
				a == A_JEMALLOC ? PP_BACKEND_JEMALLOC :
				PP_BACKEND_PLUGIN, o);
}

static void close_pool(struct bench *b, int a)
{
	if (pp_pool_destroy(b->pools[a]))
		pb_fail("the %s pool has pages out after the runs",
			pb_allocator_names[a]);
	b->pools[a] = NULL;
}

/* The children running; 0 or -1 and a message for each that failed. */
static int stop_children(struct bench *b)
{
	int ret = 0;

	for (int a = 0; a < NR_ALLOCATORS; a++) {
		if (!b->running[a])
			continue;
		b->running[a] = false;
		if (pb_helper_stop(&b->helpers[a])) {
			fprintf(stderr, "%s: the %s baseline: %s\n", tool_name,
				pb_allocator_names[a], b->helpers[a].error);
			ret = -1;
		}
	}
	return ret;
}


/* The LIFO floor's pages: addresses only, never touched. */
static void setup_lifo(struct bench *b)
{
	b->lifo = mmap(NULL, LIFO_PAGES * sizeof(void *),
		       PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
		       -1, 0);
	if (b->lifo == MAP_FAILED)
		pb_fail("out of memory");
	for (unsigned long i = 0; i < LIFO_PAGES; i++)
		b->lifo[i] = (char *)(uintptr_t)0x100000000000ULL +
			     i * PP_PAGE_SIZE;
	b->lifo_top = LIFO_PAGES;
}

/*
 * The contract floor's pages: descriptors never handed to libpagepool, on
 * a LIFO of their own, and the two words it stores (contract_word()).
 */
static void setup_contract(struct bench *b)
{
	struct pp_page model;

	b->cdesc = mmap(NULL, CONTRACT_PAGES * sizeof(struct pp_page),
			PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
			-1, 0);
	b->clifo = mmap(NULL, CONTRACT_PAGES * sizeof(struct pp_page *),
			PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
			-1, 0);
	if (b->cdesc == MAP_FAILED || b->clifo == MAP_FAILED)
		pb_fail("out of memory");
	memset(&model, 0, sizeof(model));
	model.state = PP_PAGE_PCP;
	b->cword_free = contract_word(&model);
	model.refcount = 1;
	model.state = PP_PAGE_INUSE;
	b->cword_used = contract_word(&model);
	for (unsigned long i = 0; i < CONTRACT_PAGES; i++) {
		b->cdesc[i].state = PP_PAGE_PCP;
		b->clifo[i] = &b->cdesc[i];
	}
	b->clifo_top = CONTRACT_PAGES;
}

/*
 * The configurations of allocator @a into @res from @nr on, in the
 * table's order; returns the new count.
 */
static unsigned int plan_allocator(const struct options *o, int a,
				   struct result *res, unsigned int nr)
{
	bool ours = a <= A_LAST_POOL;

	for (int api = 0; api < PB_NR_APIS; api++) {
		/* Bulk variants apply to libpagepool's bulk APIs. */
		bool variants = ours && api != PB_API_SINGLE;

		if (!o->api[api] || (!ours && api == PB_API_LIST))
			continue;
		for (int v = 0; v < PP_NR_BULK_VARIANTS; v++) {
			if (variants && !o->variant[v])
				continue;
			for (unsigned int k = 0; k < o->nr_bulks; k++) {
				struct result *r = &res[nr++];

				r->allocator = a;
				r->api = api;
				r->bulk = api == PB_API_SINGLE ? 1 : o->bulks[k];
				r->variant = variants ? v : -1;
				if (api == PB_API_SINGLE)
					break;
			}
			if (!variants)
				break;
		}
	}
	return nr;
}

/* The child baselines in use: they take a while, the header names them. */
static void start_children(struct bench *b, const bool *used)
{
	live_bench = b;
	for (int a = 0; a < NR_ALLOCATORS; a++) {
		if (!pb_is_child(a) || !used[a])
			continue;
		if (pb_helper_start(&b->helpers[a], pb_children[a].program,
				    PAGEBENCH_LIBEXECDIR)) {
			pb_helper_stop(&b->helpers[a]);
			pb_fail("the %s baseline: %s", pb_allocator_names[a],
				b->helpers[a].error);
		}
		b->running[a] = true;
	}
}

/*
 * Every configuration warm, then run k of each in turn.  A signal ends
 * it after the last whole round: @o->runs becomes the rounds done.
 * Returns the configurations measured: @nr, or 0 before a whole round.
 */
static unsigned int run_interleaved(struct bench *b, struct options *o,
				    struct result *res, unsigned int nr,
				    const bool *used)
{
	unsigned int k = 0;

	for (int a = 0; a <= A_LAST_POOL; a++)
		if (used[a])
			open_pool(b, o, a);
	for (unsigned int i = 0; i < nr && !pb_interrupted; i++)
		prepare(b, o, &res[i]);
	for (; k < o->runs && !pb_interrupted; k++) {
		for (unsigned int i = 0; i < nr && !pb_interrupted; i++)
			time_run(b, &res[i], k);
		if (pb_interrupted)
			break;	/* the round it came in is left out */
	}
	if (k < o->runs)
		o->runs = k;
	for (unsigned int i = 0; i < nr && o->runs; i++) {
		summarize(&res[i], o);
		if (!o->json && !o->csv)
			pb_print_line(&res[i], o);
	}
	for (int a = 0; a <= A_LAST_POOL; a++)
		if (used[a])
			close_pool(b, a);
	return o->runs ? nr : 0;
}

/*
 * One configuration after the other; a pool while in use.  A signal ends
 * it after the run in progress, the configuration it cut short left
 * out.  Returns the configurations measured.
 */
static unsigned int run_in_order(struct bench *b, const struct options *o,
				 struct result *res, unsigned int nr,
				 const unsigned int *first,
				 const unsigned int *last)
{
	unsigned int i;

	for (i = 0; i < nr && !pb_interrupted; i++) {
		struct result *r = &res[i];
		int a = r->allocator;

		if (a <= A_LAST_POOL && i == first[a])
			open_pool(b, o, a);
		prepare(b, o, r);
		for (unsigned int k = 0; k < o->runs && !pb_interrupted; k++)
			time_run(b, r, k);
		if (pb_interrupted)
			break;
		summarize(r, o);
		if (!o->json && !o->csv)
			pb_print_line(r, o);
		if (a <= A_LAST_POOL && i == last[a])
			close_pool(b, a);
	}
	/* The pool of the configuration cut short. */
	for (int a = 0; a <= A_LAST_POOL; a++)
		if (b->pools[a])
			close_pool(b, a);
	return i;
}

/*
 * --output=FILE: replaced by what was written when the run succeeded or
 * a signal cut it short (what was measured, marked), left as it was when
 * it failed.  Returns the exit status, @status or 1.
 */
static int finish_output(const struct options *o, int status)
{
	bool cut = pb_interrupted && status == 128 + pb_interrupted;

	if (!o->output)
		return status;
	return atomic_stdout_finish(o->output, status, "run",
				    cut ? pb_signal_name(pb_interrupted) : NULL);
}

int main(int argc, char **argv)
{
	static struct bench bench;
	struct options o;
	struct result *res;
	unsigned int nr = 0, measured, runs, first[NR_ALLOCATORS], last[NR_ALLOCATORS];
	bool used[NR_ALLOCATORS], written;
	char model[256], err[512];
	double tsc;
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);

	tool_set_name("pagebench");
	pb_parse_options(argc, argv, &o);
	catch_stop_signals();
	/* stdout itself: what the children print goes there too */
	if (o.output && atomic_stdout_open(o.output, err, sizeof(err)))
		tool_die(1, "--output=%s: %s", o.output, err);
	if (o.results) {
		int done = pb_results_done(&o);

		if (done) {
			pb_options_release(&o);
			return finish_output(&o, done < 0 ? 1 : 0);
		}
	}
	if (o.pin)
		pin_to_this_cpu();
	pb_find_baselines();
	results_origin_start();
	results_cpu_model(model, sizeof(model));
	tsc = pb_tsc_per_ns(o.smoke ? 1 : 50);

	res = xcalloc(NR_ALLOCATORS * PB_NR_APIS * PP_NR_BULK_VARIANTS *
		      MAX_BULKS, sizeof(*res));
	setup_lifo(&bench);
	setup_contract(&bench);
	pb_percpu_setup(bench.cword_used, bench.cword_free);
	bench.free_put = o.free_put;
	for (int a = 0; a < NR_ALLOCATORS; a++)
		if (o.allocator[a])
			nr = plan_allocator(&o, a, res, nr);
	for (int a = 0; a < NR_ALLOCATORS; a++)
		used[a] = span_of(res, nr, a, &first[a], &last[a]);
	start_children(&bench, used);

	if (!o.json && !o.csv)
		pb_print_header(&bench, &o, model, tsc, cpus);
	runs = o.runs;	/* --interleave: o.runs becomes the rounds done */
	if (o.interleave)
		measured = run_interleaved(&bench, &o, res, nr, used);
	else
		measured = run_in_order(&bench, &o, res, nr, first, last);
	if (pb_interrupted && !o.json && !o.csv && o.interleave)
		printf("\ninterrupted by %s: %u of %u rounds of runs measured, "
		       "the tables hold those\n",
		       pb_signal_name(pb_interrupted), o.runs, runs);
	else if (pb_interrupted && !o.json && !o.csv)
		printf("\ninterrupted by %s: %u of %u configurations measured, "
		       "the tables hold those\n",
		       pb_signal_name(pb_interrupted), measured, nr);
	if (o.json) {
		pb_print_json(res, measured, &o, &bench, model, tsc, cpus);
	} else if (o.csv) {
		pb_print_csv(res, measured, &o);
	} else {
		for (int v = 0; v < PP_NR_BULK_VARIANTS; v++)
			if (o.variant[v])
				pb_print_table(res, measured, &o, v);
	}
	/* A cut-short run is no result file: it runs again next time. */
	if (o.results && pb_interrupted)
		fprintf(stderr, "pagebench: --results: no file written, the "
			"run was cut short\n");
	written = !o.results || pb_interrupted ||
		  !pb_results_write(&(struct pb_doc){
			res, measured, &o, &bench, model, tsc, cpus });
	munmap(bench.lifo, LIFO_PAGES * sizeof(void *));
	munmap(bench.cdesc, CONTRACT_PAGES * sizeof(struct pp_page));
	munmap(bench.clifo, CONTRACT_PAGES * sizeof(struct pp_page *));
	pb_percpu_teardown();
	free(res);
	pb_options_release(&o);
	if (stop_children(&bench) || !written)
		return finish_output(&o, 1);
	if (fflush(stdout) || ferror(stdout)) {
		perror("pagebench: writing the results");
		return finish_output(&o, 1);
	}
	if (pb_interrupted) {
		fprintf(stderr, "pagebench: interrupted by %s\n",
			pb_signal_name(pb_interrupted));
		return finish_output(&o, 128 + pb_interrupted);
	}
	return finish_output(&o, 0);
}
