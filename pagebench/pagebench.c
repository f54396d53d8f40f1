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
 */
#include <config.h>

#include <dlfcn.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <sched.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <pagepool/pagepool.h>
#include "cmdline.h"
#include "number.h"
#include "tool.h"

#include "harness.h"
#include "helper.h"

#define MAX_BULK	PB_MAX_BULK
#define MAX_RUNS	1000
#define DEFAULT_RUNS	5
#define DEFAULT_RUN_MS	20.0
#define LIFO_PAGES	65536UL
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

enum allocator {
	A_BUDDY,		/* libpagepool, buddy backend */
	A_JEMALLOC,		/* libpagepool, jemalloc backend */
	A_GLIBC,		/* aligned_alloc(4096, 4096) + free() */
	A_MALLOCX,		/* mallocx(4096, 0) + sdallocx() */
	A_MEMPOOL,		/* DPDK rte_mempool_get/put, pagebench-mempool */
	A_TCMALLOC,		/* tcmalloc aligned_alloc, pagebench-tcmalloc */
	A_LIFO,			/* a LIFO array of page pointers */
	NR_ALLOCATORS
};

static const char *const allocator_names[NR_ALLOCATORS] = {
	[A_BUDDY] = "buddy", [A_JEMALLOC] = "jemalloc", [A_GLIBC] = "glibc",
	[A_MALLOCX] = "mallocx", [A_MEMPOOL] = "mempool",
	[A_TCMALLOC] = "tcmalloc", [A_LIFO] = "lifo",
};

/* The baselines that run in a child program (helper.h). */
struct child_baseline {
	const char *program;
	const char *not_built;	/* why, or NULL: it is built */
};

static const struct child_baseline children[NR_ALLOCATORS] = {
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

static bool is_child(int a)
{
	return children[a].program != NULL;
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

/* Why allocator @a was not built, or NULL when it was. */
static const char *not_built_why(int a)
{
	if (a == A_JEMALLOC || a == A_MALLOCX)
		return PAGEBENCH_NO_JEMALLOC_WHY;
	return is_child(a) ? children[a].not_built : NULL;
}

static bool is_built(int a)
{
	return !not_built_why(a);
}

static const unsigned int default_bulks[] = { 1, 2, 4, 8, 16, 32, 64, 128 };

struct options {
	bool allocator[NR_ALLOCATORS];
	bool api[PB_NR_APIS];
	bool variant[PP_NR_BULK_VARIANTS];
	unsigned int bulks[16], nr_bulks;
	unsigned int runs;
	double run_ms;
	bool free_put;		/* put each page (page_bench04) */
	bool je_tcache, je_batch;
	bool pin;
	bool smoke;
	bool interleave;	/* runs round-robin over the configurations */
	bool allocators_all;	/* by default or "all": not built ones noted */
	bool json;
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
	struct pp_pool *pools[A_JEMALLOC + 1];
	struct pb_helper helpers[NR_ALLOCATORS];
	bool running[NR_ALLOCATORS];	/* helpers[] started */
	struct pp_page *arr[MAX_BULK];
	void *ptrs[MAX_BULK];
	bool free_put;
	/* The LIFO floor. */
	void **lifo;
	unsigned long lifo_top;
};

/* The baselines' functions, found at run time. */
static void *(*glibc_aligned_alloc)(size_t, size_t);
static void (*glibc_free)(void *);
static void *(*je_mallocx)(size_t, int);
static void (*je_sdallocx)(void *, size_t, int);
static int (*je_mallctl)(const char *, void *, size_t *, void *, size_t);
static char glibc_from[256], mallocx_from[256];

/* Keeps results alive: the compiler cannot drop the work. */
static volatile uintptr_t sink;

/* --- errors ---------------------------------------------------------------- */

/* For fail(): the children to stop. */
static struct bench *live_bench;
static int stop_children(struct bench *b);

__attribute__((noreturn, format(printf, 1, 2)))
static void fail(const char *fmt, ...)
{
	va_list ap;

	if (live_bench)
		stop_children(live_bench);
	va_start(ap, fmt);
	tool_vdie(1, fmt, ap);
}

/* --- the timed loops ---------------------------------------------------------- */

/* The floor: pop pointers into the NULL slots, push them back. */
static __attribute__((noinline))
unsigned long lifo_alloc(struct bench *b, void **arr, unsigned long n)
{
	unsigned long i;

	for (i = 0; i < n; i++) {
		if (arr[i])
			continue;
		if (!b->lifo_top)
			break;
		arr[i] = b->lifo[--b->lifo_top];
	}
	return i;
}

static __attribute__((noinline))
void lifo_free(struct bench *b, void **arr, unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		if (arr[i])
			b->lifo[b->lifo_top++] = arr[i];
}

/* @pages pages through the single-page API of @b's allocator. */
static unsigned long run_single(struct bench *b, unsigned long pages)
{
	uintptr_t acc = 0;

	switch (b->allocator) {
	case A_BUDDY:
	case A_JEMALLOC:
		for (unsigned long i = 0; i < pages; i++) {
			struct pp_page *p = pp_alloc_page(b->pool,
							  PP_GFP_KERNEL);

			if (!p)
				fail("pp_alloc_page failed");
			acc += (uintptr_t)p;
			pp_put_page(b->pool, p);
		}
		break;
	case A_GLIBC:
		for (unsigned long i = 0; i < pages; i++) {
			void *p = glibc_aligned_alloc(PP_PAGE_SIZE,
						      PP_PAGE_SIZE);

			if (!p)
				fail("aligned_alloc failed");
			acc += (uintptr_t)p;
			glibc_free(p);
		}
		break;
	case A_MALLOCX:
		for (unsigned long i = 0; i < pages; i++) {
			void *p = je_mallocx(PP_PAGE_SIZE, 0);

			if (!p)
				fail("mallocx failed");
			acc += (uintptr_t)p;
			je_sdallocx(p, PP_PAGE_SIZE, 0);
		}
		break;
	case A_LIFO:
		for (unsigned long i = 0; i < pages; i++) {
			void *p = NULL;

			lifo_alloc(b, &p, 1);
			acc += (uintptr_t)p;
			lifo_free(b, &p, 1);
		}
		break;
	default:
		break;
	}
	sink = acc;
	return pages;
}

/* Free the pages of one array round, then clear the slots. */
static void array_free(struct bench *b, unsigned long n)
{
	if (b->free_put) {
		/* page_bench04: put each page, clear its slot. */
		for (unsigned long i = 0; i < n; i++) {
			pp_put_page(b->pool, b->arr[i]);
			b->arr[i] = NULL;
		}
		return;
	}
	pp_release_pages(b->pool, b->arr, n);
	memset(b->arr, 0, n * sizeof(b->arr[0]));
}

/* Rounds of @bulk pages through the array API; at least @pages pages. */
static unsigned long run_array(struct bench *b, unsigned long pages,
			       unsigned int bulk)
{
	unsigned long done = 0, n;
	uintptr_t acc = 0;

	while (done < pages) {
		switch (b->allocator) {
		case A_BUDDY:
		case A_JEMALLOC:
			n = pp_alloc_pages_bulk_array(b->pool, PP_GFP_KERNEL,
						      bulk, b->arr);
			if (n != bulk)
				fail("pp_alloc_pages_bulk_array: %lu of %u",
				     n, bulk);
			acc += (uintptr_t)b->arr[n - 1];
			array_free(b, n);
			break;
		case A_GLIBC:
			for (n = 0; n < bulk; n++) {
				b->ptrs[n] = glibc_aligned_alloc(PP_PAGE_SIZE,
								 PP_PAGE_SIZE);
				if (!b->ptrs[n])
					fail("aligned_alloc failed");
			}
			acc += (uintptr_t)b->ptrs[n - 1];
			for (n = 0; n < bulk; n++)
				glibc_free(b->ptrs[n]);
			memset(b->ptrs, 0, bulk * sizeof(b->ptrs[0]));
			break;
		case A_MALLOCX:
			for (n = 0; n < bulk; n++) {
				b->ptrs[n] = je_mallocx(PP_PAGE_SIZE, 0);
				if (!b->ptrs[n])
					fail("mallocx failed");
			}
			acc += (uintptr_t)b->ptrs[n - 1];
			for (n = 0; n < bulk; n++)
				je_sdallocx(b->ptrs[n], PP_PAGE_SIZE, 0);
			memset(b->ptrs, 0, bulk * sizeof(b->ptrs[0]));
			break;
		case A_LIFO:
		default:
			n = lifo_alloc(b, b->ptrs, bulk);
			if (n != bulk)
				fail("lifo: %lu of %u", n, bulk);
			acc += (uintptr_t)b->ptrs[n - 1];
			lifo_free(b, b->ptrs, n);
			memset(b->ptrs, 0, n * sizeof(b->ptrs[0]));
			break;
		}
		done += n;
	}
	sink = acc;
	return done;
}

/* Rounds of @bulk pages through the list API (libpagepool only). */
static unsigned long run_list(struct bench *b, unsigned long pages,
			      unsigned int bulk)
{
	unsigned long done = 0;
	uintptr_t acc = 0;

	while (done < pages) {
		struct pp_list_head list = PP_LIST_HEAD_INIT(list);
		unsigned long n = pp_alloc_pages_bulk_list(b->pool,
							   PP_GFP_KERNEL,
							   bulk, &list);
		struct pp_page *page;
		unsigned long k = 0;

		if (n != bulk)
			fail("pp_alloc_pages_bulk_list: %lu of %u", n, bulk);
		acc += (uintptr_t)list.next;
		/* page_bench04: list_del + free each; or release them. */
		while ((page = pp_list_pop_page(&list))) {
			if (b->free_put)
				pp_put_page(b->pool, page);
			else
				b->arr[k++] = page;
		}
		if (!b->free_put) {
			pp_release_pages(b->pool, b->arr, k);
			memset(b->arr, 0, k * sizeof(b->arr[0]));
		}
		done += n;
	}
	sink = acc;
	return done;
}

/* pb_run_fn for libpagepool and the in-process baselines. */
static unsigned long run(void *ctx, enum pb_api api, unsigned int bulk,
			 unsigned long pages)
{
	struct bench *b = ctx;

	switch (api) {
	case PB_API_LIST:
		return run_list(b, pages, bulk);
	case PB_API_ARRAY:
		return run_array(b, pages, bulk);
	case PB_API_SINGLE:
	default:
		return run_single(b, pages);
	}
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
	b->pool = r->allocator <= A_JEMALLOC ? b->pools[r->allocator] : NULL;
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

	if (is_child(r->allocator)) {
		if (pb_helper_prepare(h, r->api, r->bulk, o->smoke, o->run_ms,
				      &r->pages_per_run))
			fail("the %s baseline: %s",
			     allocator_names[r->allocator], h->error);
		return;
	}
	select_config(b, r);
	r->pages_per_run = pb_prepare(run, b, r->api, r->bulk, o->smoke,
				      o->run_ms);
}

/* Timed run @i of @r's configuration. */
static void time_run(struct bench *b, struct result *r, unsigned int i)
{
	struct pb_helper *h = &b->helpers[r->allocator];

	if (is_child(r->allocator)) {
		if (pb_helper_run(h, r->api, r->bulk, r->pages_per_run,
				  &r->ns[i], &r->ticks[i]))
			fail("the %s baseline: %s",
			     allocator_names[r->allocator], h->error);
		return;
	}
	select_config(b, r);
	pb_time_run(run, b, r->api, r->bulk, r->pages_per_run, &r->ns[i],
		    &r->ticks[i]);
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

/* --- output ------------------------------------------------------------------- */

static void print_line(const struct result *r, const struct options *o)
{
	char variant[64] = "", ticks_s[32];

	if (r->variant >= 0)
		snprintf(variant, sizeof(variant), " variant=%s free=%s",
			 pp_bulk_variant_name(r->variant),
			 o->free_put ? "put" : "release");
#ifdef PB_HAVE_TSC
	snprintf(ticks_s, sizeof(ticks_s), "%.1f", r->median_ticks);
#else
	snprintf(ticks_s, sizeof(ticks_s), "n/a");
#endif
	printf("pagebench allocator=%s api=%s bulk=%u%s runs=%u "
	       "pages_per_run=%lu ns_per_page=%.3f min_ns=%.3f max_ns=%.3f "
	       "spread_pct=%.1f tsc_per_page=%s\n",
	       allocator_names[r->allocator], pb_api_names[r->api], r->bulk,
	       variant, o->runs, r->pages_per_run, r->median_ns, r->min_ns,
	       r->max_ns, r->spread_pct, ticks_s);
	fflush(stdout);
}

static void cpu_model(char *buf, size_t len)
{
	FILE *f = fopen("/proc/cpuinfo", "r");
	char line[512];

	snprintf(buf, len, "unknown");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':');

		if (!strncmp(line, "model name", 10) && colon) {
			colon += 2;
			colon[strcspn(colon, "\n")] = '\0';
			snprintf(buf, len, "%s", colon);
			break;
		}
	}
	fclose(f);
}

/* A JSON string: the few characters that need escaping here. */
/*
 * The pcp implementation the buddy pools run (PAGEPOOL_PCP, the build, the
 * kernel and glibc decide), and why not rseq when it was wanted.
 */
static enum pp_pcp_impl buddy_pcp_impl(const char **why)
{
	struct pp_pool_config cfg;

	pp_pool_config_init(&cfg);
	cfg.backend = PP_BACKEND_BUDDY;
	return pp_pool_config_pcp_impl(&cfg, why);
}

static void json_str(const char *s)
{
	putchar('"');
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			putchar('\\');
		if ((unsigned char)*s >= 0x20)
			putchar(*s);
	}
	putchar('"');
}

/* The row of @a/@api at @bulk, or NULL. */
static const struct result *find(const struct result *res, unsigned int nr,
				 enum allocator a, enum pb_api api,
				 unsigned int bulk, int variant)
{
	for (unsigned int i = 0; i < nr; i++)
		if (res[i].allocator == a && res[i].api == api &&
		    res[i].bulk == bulk && res[i].variant == variant)
			return &res[i];
	return NULL;
}

/* A baseline in the ratio lines under the table. */
struct ratio {
	enum allocator a;
	const char *label;
};

/*
 * The table: one row per allocator and API, one column per bulk size,
 * median ns per page; then the ratios the target is about.
 */
static void print_table(const struct result *res, unsigned int nr,
			const struct options *o, int variant)
{
	const struct result *floor, *r;

	printf("\nns per page (alloc + free), median of %u runs; "
	       "libpagepool rows: %s contract, free by %s\n", o->runs,
	       pp_bulk_variant_name(variant),
	       o->free_put ? "put" : "release");
	printf("%-9s %-6s", "allocator", "api");
	for (unsigned int k = 0; k < o->nr_bulks; k++)
		printf(" %8u", o->bulks[k]);
	printf("\n");
	for (int a = 0; a < NR_ALLOCATORS; a++) {
		for (int api = 0; api < PB_NR_APIS; api++) {
			bool any = false;

			for (unsigned int k = 0; k < o->nr_bulks; k++)
				any |= find(res, nr, a, api, o->bulks[k],
					    a <= A_JEMALLOC && api != PB_API_SINGLE ?
					    variant : -1) != NULL;
			if (!any)
				continue;
			printf("%-9s %-6s", allocator_names[a],
			       pb_api_names[api]);
			for (unsigned int k = 0; k < o->nr_bulks; k++) {
				r = find(res, nr, a, api, o->bulks[k],
					 a <= A_JEMALLOC && api != PB_API_SINGLE ?
					 variant : -1);
				if (r)
					printf(" %8.2f", r->median_ns);
				else
					printf(" %8s", "-");
			}
			printf("\n");
		}
	}
	/* The performance target, read off the table. */
	floor = find(res, nr, A_LIFO, PB_API_ARRAY, 64, -1);
	r = find(res, nr, A_BUDDY, PB_API_ARRAY, 64, variant);
	if (floor && r) {
		static const struct ratio bulk64[] = {
			{ A_GLIBC, "glibc" }, { A_MALLOCX, "mallocx" },
			{ A_MEMPOOL, "mempool" }, { A_TCMALLOC, "tcmalloc" },
		};

		printf("bulk 64: buddy array / lifo floor = %.2fx",
		       r->median_ns / floor->median_ns);
		for (size_t i = 0; i < ARRAY_SIZE(bulk64); i++) {
			const struct result *b = find(res, nr, bulk64[i].a,
						      PB_API_ARRAY, 64, -1);

			if (b)
				printf(", %s / buddy array = %.2fx",
				       bulk64[i].label,
				       b->median_ns / r->median_ns);
		}
		printf("\n");
	}
	r = find(res, nr, A_BUDDY, PB_API_SINGLE, 1, -1);
	if (r) {
		static const struct ratio single[] = {
			{ A_MALLOCX, "mallocx+sdallocx" },
			{ A_TCMALLOC, "tcmalloc" }, { A_MEMPOOL, "mempool" },
		};
		const char *sep = "single page: ";

		for (size_t i = 0; i < ARRAY_SIZE(single); i++) {
			const struct result *b = find(res, nr, single[i].a,
						      PB_API_SINGLE, 1, -1);

			if (!b)
				continue;
			printf("%s%s / buddy = %.2fx", sep, single[i].label,
			       b->median_ns / r->median_ns);
			sep = ", ";
		}
		if (sep[0] == ',')
			printf("\n");
	}
}

/* An info value of a child: a number if it is a plain integer. */
static void json_value(const char *s)
{
	size_t n = strlen(s);

	if (n && n < 16 && strspn(s, "0123456789") == n &&
	    (s[0] != '0' || n == 1))
		printf("%s", s);
	else
		json_str(s);
}

/* "mempool": {...}, "tcmalloc": {...}: built or why not, what it said. */
static void json_children(const struct bench *b)
{
	bool first = true;

	printf(",\n \"children\": {");
	for (int a = 0; a < NR_ALLOCATORS; a++) {
		const struct pb_helper *h = &b->helpers[a];

		if (!is_child(a))
			continue;
		printf("%s\"%s\": {\"program\": ", first ? "" : ", ",
		       allocator_names[a]);
		first = false;
		json_str(children[a].program);
		printf(", \"built\": %s", is_built(a) ? "true" : "false");
		if (!is_built(a)) {
			printf(", \"not_built\": ");
			json_str(children[a].not_built);
		}
		printf(", \"ran\": %s", b->running[a] ? "true" : "false");
		if (b->running[a]) {
			printf(", \"path\": ");
			json_str(h->path);
		}
		for (unsigned int i = 0; b->running[a] && i < h->nr_info; i++) {
			printf(", ");
			json_str(h->info_key[i]);
			printf(": ");
			json_value(h->info_value[i]);
		}
		printf("}");
	}
	printf("}");
}

static void print_json(const struct result *res, unsigned int nr,
		       const struct options *o, const struct bench *b,
		       const char *model, double tsc_ghz, long cpus)
{
	printf("{\"program\": \"pagebench\", \"version\": ");
	json_str(PACKAGE_VERSION);
	printf(",\n \"machine\": {\"cpu\": ");
	json_str(model);
	printf(", \"online_cpus\": %ld, \"tsc_ghz\": ", cpus);
	if (tsc_ghz > 0)
		printf("%.4f", tsc_ghz);
	else
		printf("null");
	printf("},\n \"config\": {\"pcp_impl\": \"%s\", "
	       "\"runs\": %u, \"run_ms\": %g, "
	       "\"smoke\": %s, \"interleave\": %s, \"free\": \"%s\", "
	       "\"je_tcache\": %s, "
	       "\"je_batch_alloc\": %s, \"jemalloc_tcache_slots\": ",
	       pp_pcp_impl_name(buddy_pcp_impl(NULL)),
	       o->runs, o->run_ms,
	       o->smoke ? "true" : "false", o->interleave ? "true" : "false",
	       o->free_put ? "put" : "release",
	       o->je_tcache ? "true" : "false",
	       o->je_batch ? "true" : "false");
	/* Without jemalloc (./configure --without-jemalloc): null, not -95. */
	if (is_built(A_MALLOCX))
		printf("%ld", pp_jemalloc_tcache_slots());
	else
		printf("null");
	printf(", \"glibc_from\": ");
	json_str(glibc_from);
	printf(", \"mallocx_from\": ");
	if (is_built(A_MALLOCX))
		json_str(mallocx_from);
	else
		printf("null");
	json_children(b);
	printf("},\n \"results\": [");
	for (unsigned int i = 0; i < nr; i++) {
		const struct result *r = &res[i];

		printf("%s\n  {\"allocator\": \"%s\", \"api\": \"%s\", "
		       "\"bulk\": %u, \"variant\": ", i ? "," : "",
		       allocator_names[r->allocator], pb_api_names[r->api],
		       r->bulk);
		if (r->variant >= 0)
			json_str(pp_bulk_variant_name(r->variant));
		else
			printf("null");
		printf(", \"pages_per_run\": %lu, \"ns_per_page\": %.4f, "
		       "\"min_ns\": %.4f, \"max_ns\": %.4f, "
		       "\"spread_pct\": %.2f, \"tsc_per_page\": ",
		       r->pages_per_run, r->median_ns, r->min_ns, r->max_ns,
		       r->spread_pct);
		if (tsc_ghz > 0)
			printf("%.2f", r->median_ticks);
		else
			printf("null");
		printf(", \"runs_ns\": [");
		for (unsigned int k = 0; k < o->runs; k++)
			printf("%s%.4f", k ? ", " : "", r->ns[k]);
		printf("]}");
	}
	printf("\n ]\n}\n");
}

/* --- setup ----------------------------------------------------------------------- */

/* Where the function at @addr lives, for the header. */
static void lib_of(void *addr, char *buf, size_t len)
{
	Dl_info info;

	if (addr && dladdr(addr, &info) && info.dli_fname)
		snprintf(buf, len, "%s", info.dli_fname);
	else
		snprintf(buf, len, "?");
}

static void find_baselines(void)
{
	void *libc = dlopen("libc.so.6", RTLD_NOW | RTLD_NOLOAD);

	if (!libc)
		fail("cannot find libc.so.6: %s", dlerror());
	*(void **)&glibc_aligned_alloc = dlsym(libc, "aligned_alloc");
	*(void **)&glibc_free = dlsym(libc, "free");
	if (!glibc_aligned_alloc || !glibc_free)
		fail("glibc's aligned_alloc/free not found");
	/* Not RTLD_DEFAULT: whatever malloc is interposed, glibc's own. */
	lib_of((void *)glibc_aligned_alloc, glibc_from, sizeof(glibc_from));
	if (!is_built(A_MALLOCX))
		return;
	*(void **)&je_mallocx = dlsym(RTLD_DEFAULT, "mallocx");
	*(void **)&je_sdallocx = dlsym(RTLD_DEFAULT, "sdallocx");
	*(void **)&je_mallctl = dlsym(RTLD_DEFAULT, "mallctl");
	if (!je_mallocx || !je_sdallocx || !je_mallctl)
		fail("jemalloc's mallocx/sdallocx not found (libpagepool "
		     "loads libjemalloc.so.2)");
	lib_of((void *)je_mallocx, mallocx_from, sizeof(mallocx_from));
}

static struct pp_pool *make_pool(enum pp_backend backend,
				 const struct options *o)
{
	struct pp_pool_config cfg;
	struct pp_pool *pool;

	pp_pool_config_init(&cfg);
	cfg.backend = backend;
	cfg.je_tcache = o->je_tcache;
	cfg.je_batch_alloc = o->je_batch;
	pool = pp_pool_create(&cfg);
	if (!pool)
		fail("cannot create a %s pool: %s", pp_backend_name(backend),
		     strerror(errno));
	return pool;
}

/* --- the command line -------------------------------------------------------- */

enum {
	OPT_ALLOCATORS = 256, OPT_APIS, OPT_BULK, OPT_VARIANTS, OPT_RUNS,
	OPT_RUN_MS, OPT_FREE, OPT_JE_TCACHE, OPT_JE_BATCH, OPT_PIN,
	OPT_SMOKE, OPT_INTERLEAVE,
};

static const struct option long_options[] = {
	{ "allocators",	required_argument,	NULL, OPT_ALLOCATORS },
	{ "api",	required_argument,	NULL, OPT_APIS },
	{ "bulk",	required_argument,	NULL, OPT_BULK },
	{ "variant",	required_argument,	NULL, OPT_VARIANTS },
	{ "runs",	required_argument,	NULL, OPT_RUNS },
	{ "run-ms",	required_argument,	NULL, OPT_RUN_MS },
	{ "free",	required_argument,	NULL, OPT_FREE },
	{ "je-tcache",	required_argument,	NULL, OPT_JE_TCACHE },
	{ "je-batch",	required_argument,	NULL, OPT_JE_BATCH },
	{ "pin",	required_argument,	NULL, OPT_PIN },
	{ "smoke",	no_argument,		NULL, OPT_SMOKE },
	{ "interleave",	no_argument,		NULL, OPT_INTERLEAVE },
	{ "json",	no_argument,		NULL, 'j' },
	{ "help",	no_argument,		NULL, 'h' },
	{ "version",	no_argument,		NULL, 'V' },
	{ NULL, 0, NULL, 0 }
};

static void print_help(void)
{
	char not_built[128] = "";

	for (int a = 0; a < NR_ALLOCATORS; a++)
		if (!is_built(a))
			snprintf(not_built + strlen(not_built),
				 sizeof(not_built) - strlen(not_built), "%s%s",
				 not_built[0] ? ", " : "                          "
				 "not built here: ", allocator_names[a]);
	if (not_built[0])
		strcat(not_built, "\n");
	printf(
"Usage: pagebench [OPTION]...\n"
"Measure the per-page cost of allocating and freeing 4 KiB pages with\n"
"libpagepool's single-page, bulk-list and bulk-array APIs on the buddy and\n"
"jemalloc backends, at several bulk sizes, next to the allocators a user\n"
"would otherwise pick and a plain LIFO array of page pointers, the floor.\n"
"Each configuration is warmed up, then timed over several runs; one line\n"
"per configuration gives the median ns and TSC ticks per page (one\n"
"alloc + one free), the fastest and slowest run and their spread, then a\n"
"table.  The process pins itself to one CPU, as page_bench04_bulk runs.\n"
"\n"
"What is measured:\n"
"      --allocators=LIST   comma-separated, or all: buddy, jemalloc (the\n"
"                          libpagepool backends), glibc (aligned_alloc(4096,\n"
"                          4096) + free(), glibc's own even if another\n"
"                          malloc is interposed), mallocx (jemalloc's\n"
"                          mallocx(4096, 0) + sdallocx(), one page at a time,\n"
"                          default arena and thread cache), mempool (DPDK's\n"
"                          rte_mempool_get/put[_bulk] through a per-lcore\n"
"                          cache of 512), tcmalloc (aligned_alloc(4096,\n"
"                          4096) + free() from tcmalloc), the two in child\n"
"                          processes, lifo (the floor); all leaves out a\n"
"                          baseline that was not built (default: all)\n"
"%s"
"      --api=LIST          single, list, array, or all; the baselines have\n"
"                          single and array (bulk n = n allocations into an\n"
"                          array, then n frees; mempool: one get_bulk of n,\n"
"                          one put_bulk) (default: all)\n"
"      --bulk=LIST         bulk sizes, 1..%d (default: 1,2,4,8,16,32,64,128)\n"
"      --variant=LIST      libpagepool's bulk contract(s): merged,\n"
"                          stop-at-first-populated, batched-stats,\n"
"                          no-single-fallback, pure-output, or all\n"
"                          (default: merged)\n"
"      --free=HOW          bulk rounds free with release (pp_release_pages(),\n"
"                          as the kernel's release_pages()) or put (one\n"
"                          put per page and the slot cleared, as\n"
"                          page_bench04_bulk does) (default: release)\n"
"      --je-tcache=on|off  the jemalloc backend's per-CPU thread caches\n"
"                          (default: on)\n"
"      --je-batch=on|off   the jemalloc backend's bulk calls through\n"
"                          batch_alloc; off: one mallocx() per page\n"
"                          (default: on)\n"
"How long:\n"
"      --runs=N            timed runs per configuration, 1..%d (default: %d)\n"
"      --run-ms=MS         about how long each run takes, 0.1..10000\n"
"                          (default: %g)\n"
"      --smoke             a few pages per configuration: checks the\n"
"                          output, measures nothing (default: off)\n"
"      --pin=on|off        pin to the CPU pagebench starts on (default: on)\n"
"      --interleave        warm every configuration up, then time their runs\n"
"                          round-robin (run 1 of each, run 2 of each, ...)\n"
"                          so that a shared machine's noise falls on all\n"
"                          alike; the lines come at the end (default: off)\n"
"Output:\n"
"  -j, --json              one JSON document instead of text\n"
"  -h, --help              this help\n"
"  -V, --version           pagebench and libpagepool versions\n"
"\n"
"jemalloc's thread caches hold 20 pages of 4 KiB unless MALLOC_CONF says\n"
"otherwise (tcache_nslots_small_min:N,tcache_nslots_small_max:N), and it\n"
"reads that when the process starts: set it in the environment.\n"
"mempool and tcmalloc run in child programs of their own, pagebench-mempool\n"
"and pagebench-tcmalloc, started once per run; they time their loops the\n"
"same way and pagebench reports them like the others (pagebench(1) lists\n"
"the DPDK EAL arguments).  Exit status: 0 ok, 1 runtime failure, 2 bad\n"
"command line.\n",
	       not_built, MAX_BULK, MAX_RUNS, DEFAULT_RUNS, DEFAULT_RUN_MS);
}

/* Digits only (common/number.h: the tools' one number syntax). */
static bool parse_uint(const char *s, unsigned long max, unsigned long *out)
{
	uint64_t v;

	if (num_parse_u64(s, &v) || v > max)
		return false;
	*out = (unsigned long)v;
	return true;
}

static bool parse_onoff(const char *name, const char *arg)
{
	if (!strcmp(arg, "on"))
		return true;
	if (!strcmp(arg, "off"))
		return false;
	tool_die(2, "--%s=%s: expected on or off", name, arg);
}

/*
 * A comma-separated list of names from @names (or "all") into @set;
 * @what names the accepted values for the message.  Returns true for
 * "all".
 */
static bool parse_names(const char *opt, const char *arg,
			const char *const *names, unsigned int nr, bool *set,
			const char *what)
{
	char buf[256], *save = NULL, *tok;

	if (strlen(arg) >= sizeof(buf) || !*arg)
		tool_die(2, "--%s=%s: expected %s, comma-separated, or all",
			    opt, arg, what);
	memset(set, 0, nr * sizeof(*set));
	if (!strcmp(arg, "all")) {
		for (unsigned int i = 0; i < nr; i++)
			set[i] = true;
		return true;
	}
	snprintf(buf, sizeof(buf), "%s", arg);
	for (tok = strtok_r(buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		unsigned int i;

		for (i = 0; i < nr; i++)
			if (names[i] && !strcmp(tok, names[i]))
				break;
		if (i == nr)
			tool_die(2, "--%s=%s: unknown '%s'; expected %s, "
				    "comma-separated, or all", opt, arg, tok,
				    what);
		set[i] = true;
	}
	if (arg[strlen(arg) - 1] == ',' || strstr(arg, ",,"))
		tool_die(2, "--%s=%s: expected %s, comma-separated, or all",
			    opt, arg, what);
	return false;
}

/*
 * --allocators: a baseline that was not built is an error when named,
 * and left out (with a note in the header) by "all", as by default.
 */
static void parse_allocators(const char *arg, struct options *o)
{
	char what[160] = "";
	bool all;

	for (int a = 0; a < NR_ALLOCATORS; a++)
		if (is_built(a))
			snprintf(what + strlen(what), sizeof(what) - strlen(what),
				 "%s%s", what[0] ? ", " : "",
				 allocator_names[a]);
	all = parse_names("allocators", arg, allocator_names, NR_ALLOCATORS,
			  o->allocator, what);
	o->allocators_all = all;
	for (int a = 0; a < NR_ALLOCATORS; a++) {
		if (is_built(a))
			continue;
		if (o->allocator[a] && !all)
			tool_die(2, "--allocators=%s: the %s baseline was not "
				    "built (%s); expected %s, comma-separated, "
				    "or all", arg, allocator_names[a],
				    not_built_why(a), what);
		o->allocator[a] = false;
	}
}

static void parse_options(int argc, char **argv, struct options *o)
{
	const char *variant_names[PP_NR_BULK_VARIANTS];
	int opt;

	memset(o, 0, sizeof(*o));
	for (int a = 0; a < NR_ALLOCATORS; a++)
		o->allocator[a] = is_built(a);
	o->allocators_all = true;
	for (int a = 0; a < PB_NR_APIS; a++)
		o->api[a] = true;
	o->variant[PP_BULK_MERGED] = true;
	memcpy(o->bulks, default_bulks, sizeof(default_bulks));
	o->nr_bulks = sizeof(default_bulks) / sizeof(default_bulks[0]);
	o->runs = DEFAULT_RUNS;
	o->run_ms = DEFAULT_RUN_MS;
	o->je_tcache = true;
	o->je_batch = true;
	o->pin = true;
	for (int v = 0; v < PP_NR_BULK_VARIANTS; v++)
		variant_names[v] = pp_bulk_variant_name(v);

	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":jhV", long_options, NULL)) !=
	       -1) {
		unsigned long v;

		switch (opt) {
		case OPT_ALLOCATORS:
			parse_allocators(optarg, o);
			break;
		case OPT_APIS:
			parse_names("api", optarg, pb_api_names, PB_NR_APIS, o->api,
				    "single, list, array");
			break;
		case OPT_VARIANTS:
			parse_names("variant", optarg, variant_names,
				    PP_NR_BULK_VARIANTS, o->variant,
				    "merged, stop-at-first-populated, "
				    "batched-stats, no-single-fallback, "
				    "pure-output");
			break;
		case OPT_BULK: {
			char buf[128], *save = NULL, *tok;

			if (strlen(optarg) >= sizeof(buf) || !*optarg ||
			    optarg[strlen(optarg) - 1] == ',' ||
			    strstr(optarg, ",,"))
				tool_die(2, "--bulk=%s: expected sizes from 1 "
					    "to %d, comma-separated", optarg,
					    MAX_BULK);
			snprintf(buf, sizeof(buf), "%s", optarg);
			o->nr_bulks = 0;
			for (tok = strtok_r(buf, ",", &save); tok;
			     tok = strtok_r(NULL, ",", &save)) {
				if (!parse_uint(tok, MAX_BULK, &v) || !v ||
				    o->nr_bulks == 16)
					tool_die(2, "--bulk=%s: expected up "
						    "to 16 sizes from 1 to "
						    "%d, comma-separated",
						    optarg, MAX_BULK);
				o->bulks[o->nr_bulks++] = (unsigned int)v;
			}
			break;
		}
		case OPT_RUNS:
			if (!parse_uint(optarg, MAX_RUNS, &v) || !v)
				tool_die(2, "--runs=%s: expected an integer "
					    "from 1 to %d", optarg, MAX_RUNS);
			o->runs = (unsigned int)v;
			break;
		case OPT_RUN_MS: {
			if (num_parse_decimal(optarg, &o->run_ms) ||
			    o->run_ms < 0.1 || o->run_ms > 10000)
				tool_die(2, "--run-ms=%s: expected a number of "
					    "milliseconds from 0.1 to 10000",
					    optarg);
			break;
		}
		case OPT_FREE:
			if (!strcmp(optarg, "put"))
				o->free_put = true;
			else if (!strcmp(optarg, "release"))
				o->free_put = false;
			else
				tool_die(2, "--free=%s: expected release or "
					    "put", optarg);
			break;
		case OPT_JE_TCACHE:
			o->je_tcache = parse_onoff("je-tcache", optarg);
			break;
		case OPT_JE_BATCH:
			o->je_batch = parse_onoff("je-batch", optarg);
			break;
		case OPT_PIN:
			o->pin = parse_onoff("pin", optarg);
			break;
		case OPT_SMOKE:
			o->smoke = true;
			break;
		case OPT_INTERLEAVE:
			o->interleave = true;
			break;
		case 'j':
			o->json = true;
			break;
		case 'h':
			print_help();
			exit(0);
		case 'V':
			printf("pagebench %s (libpagepool %s)\n",
			       PACKAGE_VERSION, pp_version());
			exit(0);
		case ':':
			tool_die(2, "option '%s' needs a value; see pagebench "
				    "--help", argv[optind - 1]);
		default: {
			const char *name = cmdline_refused_value(long_options,
							argv[optind - 1]);

			if (name)
				tool_die(2, "option '--%s' takes no value (in "
					    "'%s'); see pagebench --help",
					    name, argv[optind - 1]);
			tool_die(2, "unknown option '%s'; see pagebench --help "
				    "for the accepted options",
				    argv[optind - 1]);
		}
		}
	}
	if (optind < argc)
		tool_die(2, "unexpected argument '%s': pagebench takes "
			    "options only; see pagebench --help",
			    argv[optind]);
	if (o->smoke)
		o->runs = o->runs < 3 ? o->runs : 3;
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
		fprintf(stderr, "pagebench: warning: cannot pin to CPU %d: "
			"%s\n", cpu, strerror(errno));
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
				PP_BACKEND_JEMALLOC, o);
}

static void close_pool(struct bench *b, int a)
{
	if (pp_pool_destroy(b->pools[a]))
		fail("the %s pool has pages out after the runs",
		     allocator_names[a]);
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
			fprintf(stderr, "pagebench: the %s baseline: %s\n",
				allocator_names[a], b->helpers[a].error);
			ret = -1;
		}
	}
	return ret;
}

/* The header's line about each child baseline: what runs, or why not. */
static void print_children(const struct bench *b, const struct options *o)
{
	for (int a = 0; a < NR_ALLOCATORS; a++) {
		const struct pb_helper *h = &b->helpers[a];

		const char *summary = pb_helper_info_get(h, "summary");
		const char *note = pb_helper_info_get(h, "note");

		if (b->running[a]) {
			printf("  %s baseline: %s (child %s)\n",
			       allocator_names[a], summary ? summary : "?",
			       h->path);
			if (note)
				printf("    %s\n", note);
		}
		else if (!is_built(a) && o->allocators_all)
			printf("  %s baseline: not built, left out (%s)\n",
			       allocator_names[a], not_built_why(a));
	}
}

int main(int argc, char **argv)
{
	static struct bench bench;
	struct options o;
	struct result *res;
	unsigned int nr = 0, cap, first[NR_ALLOCATORS], last[NR_ALLOCATORS];
	bool used[NR_ALLOCATORS];
	char model[256];
	double tsc;
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);

	tool_set_name("pagebench");
	parse_options(argc, argv, &o);
	if (o.pin)
		pin_to_this_cpu();
	find_baselines();
	cpu_model(model, sizeof(model));
	tsc = pb_tsc_per_ns(o.smoke ? 1 : 50);

	cap = NR_ALLOCATORS * PB_NR_APIS * PP_NR_BULK_VARIANTS * 16;
	res = calloc(cap, sizeof(*res));
	bench.lifo = mmap(NULL, LIFO_PAGES * sizeof(void *),
			  PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
			  -1, 0);
	if (!res || bench.lifo == MAP_FAILED)
		fail("out of memory");
	/* The floor's pages: addresses only, never touched. */
	for (unsigned long i = 0; i < LIFO_PAGES; i++)
		bench.lifo[i] = (char *)(uintptr_t)0x100000000000ULL +
				i * PP_PAGE_SIZE;
	bench.lifo_top = LIFO_PAGES;
	bench.free_put = o.free_put;

	/* The configurations, in the table's order. */
	for (int a = 0; a < NR_ALLOCATORS; a++) {
		bool ours = a == A_BUDDY || a == A_JEMALLOC;

		if (!o.allocator[a])
			continue;
		for (int api = 0; api < PB_NR_APIS; api++) {
			/* Bulk variants apply to libpagepool's bulk APIs. */
			bool variants = ours && api != PB_API_SINGLE;

			if (!o.api[api] || (!ours && api == PB_API_LIST))
				continue;
			for (int v = 0; v < PP_NR_BULK_VARIANTS; v++) {
				if (variants && !o.variant[v])
					continue;
				for (unsigned int k = 0; k < o.nr_bulks; k++) {
					struct result *r = &res[nr++];

					r->allocator = a;
					r->api = api;
					r->bulk = api == PB_API_SINGLE ? 1 :
						  o.bulks[k];
					r->variant = variants ? v : -1;
					if (api == PB_API_SINGLE)
						break;
				}
				if (!variants)
					break;
			}
		}
	}
	for (int a = 0; a < NR_ALLOCATORS; a++)
		used[a] = span_of(res, nr, a, &first[a], &last[a]);

	/* The children first: they take a while, the header names them. */
	live_bench = &bench;
	for (int a = 0; a < NR_ALLOCATORS; a++) {
		if (!is_child(a) || !used[a])
			continue;
		if (pb_helper_start(&bench.helpers[a], children[a].program,
				    PAGEBENCH_LIBEXECDIR)) {
			pb_helper_stop(&bench.helpers[a]);
			fail("the %s baseline: %s", allocator_names[a],
			     bench.helpers[a].error);
		}
		bench.running[a] = true;
	}

	if (!o.json) {
		printf("pagebench %s (libpagepool %s): %s, %ld online CPUs%s\n",
		       PACKAGE_VERSION, pp_version(), model, cpus,
		       o.pin ? ", pinned to one" : "");
		if (tsc > 0)
			printf("  TSC %.3f GHz (against CLOCK_MONOTONIC)\n",
			       tsc);
		else
			printf("  no TSC on this architecture: ticks n/a\n");
		{
			const char *why;
			enum pp_pcp_impl impl = buddy_pcp_impl(&why);

			printf("  buddy pcp lists: %s%s%s\n",
			       pp_pcp_impl_name(impl),
			       why ? "; rseq unavailable: " : "",
			       why ? why : "");
		}
		printf("  glibc baseline: aligned_alloc from %s\n", glibc_from);
		if (is_built(A_MALLOCX))
			printf("  jemalloc baseline: mallocx from %s, %ld "
			       "thread-cache slots for 4 KiB\n", mallocx_from,
			       pp_jemalloc_tcache_slots());
		print_children(&bench, &o);
		printf("  %u runs of ~%g ms per configuration%s%s; bulk rounds "
		       "free by %s\n\n", o.runs, o.run_ms,
		       o.interleave ? ", interleaved" : "",
		       o.smoke ? " (smoke: a few pages, numbers meaningless)"
			       : "", o.free_put ? "put" : "release");
		fflush(stdout);
	}

	if (o.interleave) {
		/* Every configuration warm, then run k of each in turn. */
		for (int a = 0; a <= A_JEMALLOC; a++)
			if (used[a])
				open_pool(&bench, &o, a);
		for (unsigned int i = 0; i < nr; i++)
			prepare(&bench, &o, &res[i]);
		for (unsigned int k = 0; k < o.runs; k++)
			for (unsigned int i = 0; i < nr; i++)
				time_run(&bench, &res[i], k);
		for (unsigned int i = 0; i < nr; i++) {
			summarize(&res[i], &o);
			if (!o.json)
				print_line(&res[i], &o);
		}
		for (int a = 0; a <= A_JEMALLOC; a++)
			if (used[a])
				close_pool(&bench, a);
	} else {
		/* One configuration after the other; a pool while in use. */
		for (unsigned int i = 0; i < nr; i++) {
			struct result *r = &res[i];
			int a = r->allocator;

			if (a <= A_JEMALLOC && i == first[a])
				open_pool(&bench, &o, a);
			prepare(&bench, &o, r);
			for (unsigned int k = 0; k < o.runs; k++)
				time_run(&bench, r, k);
			summarize(r, &o);
			if (!o.json)
				print_line(r, &o);
			if (a <= A_JEMALLOC && i == last[a])
				close_pool(&bench, a);
		}
	}

	if (o.json) {
		print_json(res, nr, &o, &bench, model, tsc, cpus);
	} else {
		for (int v = 0; v < PP_NR_BULK_VARIANTS; v++)
			if (o.variant[v])
				print_table(res, nr, &o, v);
	}
	munmap(bench.lifo, LIFO_PAGES * sizeof(void *));
	free(res);
	if (stop_children(&bench))
		return 1;
	if (fflush(stdout) || ferror(stdout)) {
		perror("pagebench: writing the results");
		return 1;
	}
	return 0;
}
