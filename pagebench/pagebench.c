/* SPDX-License-Identifier: MIT */
/*
 * pagebench: the per-page cost of allocating and freeing pages, for each
 * allocation API of libpagepool on each backend, at bulk sizes 1 to 128,
 * next to what a user would otherwise pick (glibc aligned_alloc(), jemalloc
 * mallocx() one page at a time) and a plain LIFO array of page pointers,
 * the floor: what moving the pointers alone costs.
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
 * link jemalloc: the process's malloc() stays glibc's.
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
#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#define HAVE_TSC 1
#endif

#include <pagepool/pagepool.h>
#include "cmdline.h"
#include "number.h"

#define MAX_BULK	128
#define MAX_RUNS	1000
#define DEFAULT_RUNS	5
#define DEFAULT_RUN_MS	20.0
#define LIFO_PAGES	65536UL

enum allocator {
	A_BUDDY,		/* libpagepool, buddy backend */
	A_JEMALLOC,		/* libpagepool, jemalloc backend */
	A_GLIBC,		/* aligned_alloc(4096, 4096) + free() */
	A_MALLOCX,		/* mallocx(4096, 0) + sdallocx() */
	A_LIFO,			/* a LIFO array of page pointers */
	NR_ALLOCATORS
};

enum api { API_SINGLE, API_LIST, API_ARRAY, NR_APIS };

static const char *const allocator_names[NR_ALLOCATORS] = {
	[A_BUDDY] = "buddy", [A_JEMALLOC] = "jemalloc", [A_GLIBC] = "glibc",
	[A_MALLOCX] = "mallocx", [A_LIFO] = "lifo",
};

static const char *const api_names[NR_APIS] = {
	[API_SINGLE] = "single", [API_LIST] = "list", [API_ARRAY] = "array",
};

static const unsigned int default_bulks[] = { 1, 2, 4, 8, 16, 32, 64, 128 };

struct options {
	bool allocator[NR_ALLOCATORS];
	bool api[NR_APIS];
	bool variant[PP_NR_BULK_VARIANTS];
	unsigned int bulks[16], nr_bulks;
	unsigned int runs;
	double run_ms;
	bool free_put;		/* put each page (page_bench04) */
	bool je_tcache, je_batch;
	bool pin;
	bool smoke;
	bool json;
};

/* One configuration's result. */
struct result {
	enum allocator allocator;
	enum api api;
	unsigned int bulk;
	int variant;		/* -1: not a libpagepool bulk row */
	unsigned long pages_per_run;
	double ns[MAX_RUNS], ticks[MAX_RUNS];
	double median_ns, min_ns, max_ns, spread_pct, median_ticks;
};

/* What the timed loops work on. */
struct bench {
	enum allocator allocator;
	struct pp_pool *pool;
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

__attribute__((noreturn, format(printf, 1, 2)))
static void usage_error(const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fputs("pagebench: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(2);
}

__attribute__((noreturn, format(printf, 1, 2)))
static void fail(const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fputs("pagebench: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

/* --- clocks ------------------------------------------------------------------ */

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

static uint64_t ticks(void)
{
#ifdef HAVE_TSC
	return __rdtsc();
#else
	return 0;
#endif
}

/* TSC ticks per ns, against CLOCK_MONOTONIC over @ms; 0 without a TSC. */
static double tsc_per_ns(double ms)
{
#ifdef HAVE_TSC
	uint64_t t0 = now_ns(), c0 = ticks(), t1, c1;

	do {
		t1 = now_ns();
		c1 = ticks();
	} while ((double)(t1 - t0) < ms * 1e6);
	return (double)(c1 - c0) / (double)(t1 - t0);
#else
	(void)ms;
	return 0;
#endif
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

static unsigned long run(struct bench *b, enum api api, unsigned int bulk,
			 unsigned long pages)
{
	switch (api) {
	case API_LIST:
		return run_list(b, pages, bulk);
	case API_ARRAY:
		return run_array(b, pages, bulk);
	case API_SINGLE:
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

/*
 * Warm up (and size the runs: about @o->run_ms each), then time
 * @o->runs runs.  Smoke mode: tiny fixed runs, format only.
 */
static void measure(struct bench *b, const struct options *o,
		    struct result *r)
{
	unsigned long pages;
	uint64_t t0, t1;

	if (o->smoke) {
		pages = (unsigned long)r->bulk * 4;
		run(b, r->api, r->bulk, pages);
	} else {
		/* A first pass warms the caches and lists, a second sizes. */
		run(b, r->api, r->bulk, 1UL << 14);
		t0 = now_ns();
		pages = run(b, r->api, r->bulk, 1UL << 14);
		t1 = now_ns();
		pages = (unsigned long)((double)pages * o->run_ms * 1e6 /
					(double)(t1 - t0 ? t1 - t0 : 1));
		if (pages < r->bulk)
			pages = r->bulk;
		run(b, r->api, r->bulk, pages);
	}
	r->pages_per_run = pages;
	for (unsigned int i = 0; i < o->runs; i++) {
		uint64_t c0, c1;
		unsigned long done;

		t0 = now_ns();
		c0 = ticks();
		done = run(b, r->api, r->bulk, pages);
		c1 = ticks();
		t1 = now_ns();
		r->ns[i] = (double)(t1 - t0) / (double)done;
		r->ticks[i] = (double)(c1 - c0) / (double)done;
	}
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
#ifdef HAVE_TSC
	snprintf(ticks_s, sizeof(ticks_s), "%.1f", r->median_ticks);
#else
	snprintf(ticks_s, sizeof(ticks_s), "n/a");
#endif
	printf("pagebench allocator=%s api=%s bulk=%u%s runs=%u "
	       "pages_per_run=%lu ns_per_page=%.3f min_ns=%.3f max_ns=%.3f "
	       "spread_pct=%.1f tsc_per_page=%s\n",
	       allocator_names[r->allocator], api_names[r->api], r->bulk,
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
				 enum allocator a, enum api api,
				 unsigned int bulk, int variant)
{
	for (unsigned int i = 0; i < nr; i++)
		if (res[i].allocator == a && res[i].api == api &&
		    res[i].bulk == bulk && res[i].variant == variant)
			return &res[i];
	return NULL;
}

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
		for (int api = 0; api < NR_APIS; api++) {
			bool any = false;

			for (unsigned int k = 0; k < o->nr_bulks; k++)
				any |= find(res, nr, a, api, o->bulks[k],
					    a <= A_JEMALLOC && api != API_SINGLE ?
					    variant : -1) != NULL;
			if (!any)
				continue;
			printf("%-9s %-6s", allocator_names[a],
			       api_names[api]);
			for (unsigned int k = 0; k < o->nr_bulks; k++) {
				r = find(res, nr, a, api, o->bulks[k],
					 a <= A_JEMALLOC && api != API_SINGLE ?
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
	floor = find(res, nr, A_LIFO, API_ARRAY, 64, -1);
	r = find(res, nr, A_BUDDY, API_ARRAY, 64, variant);
	if (floor && r) {
		const struct result *g = find(res, nr, A_GLIBC, API_ARRAY, 64,
					      -1);
		const struct result *m = find(res, nr, A_MALLOCX, API_ARRAY,
					      64, -1);

		printf("bulk 64: buddy array / lifo floor = %.2fx",
		       r->median_ns / floor->median_ns);
		if (g)
			printf(", glibc / buddy array = %.2fx",
			       g->median_ns / r->median_ns);
		if (m)
			printf(", mallocx / buddy array = %.2fx",
			       m->median_ns / r->median_ns);
		printf("\n");
	}
	r = find(res, nr, A_BUDDY, API_SINGLE, 1, -1);
	floor = find(res, nr, A_MALLOCX, API_SINGLE, 1, -1);
	if (r && floor)
		printf("single page: mallocx+sdallocx / buddy = %.2fx\n",
		       floor->median_ns / r->median_ns);
}

static void print_json(const struct result *res, unsigned int nr,
		       const struct options *o, const char *model,
		       double tsc_ghz, long cpus)
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
	printf("},\n \"config\": {\"runs\": %u, \"run_ms\": %g, "
	       "\"smoke\": %s, \"free\": \"%s\", \"je_tcache\": %s, "
	       "\"je_batch_alloc\": %s, \"jemalloc_tcache_slots\": %ld, "
	       "\"glibc_from\": ", o->runs, o->run_ms,
	       o->smoke ? "true" : "false", o->free_put ? "put" : "release",
	       o->je_tcache ? "true" : "false",
	       o->je_batch ? "true" : "false", pp_jemalloc_tcache_slots());
	json_str(glibc_from);
	printf(", \"mallocx_from\": ");
	json_str(mallocx_from);
	printf("},\n \"results\": [");
	for (unsigned int i = 0; i < nr; i++) {
		const struct result *r = &res[i];

		printf("%s\n  {\"allocator\": \"%s\", \"api\": \"%s\", "
		       "\"bulk\": %u, \"variant\": ", i ? "," : "",
		       allocator_names[r->allocator], api_names[r->api],
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
	OPT_SMOKE,
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
	{ "json",	no_argument,		NULL, 'j' },
	{ "help",	no_argument,		NULL, 'h' },
	{ "version",	no_argument,		NULL, 'V' },
	{ NULL, 0, NULL, 0 }
};

static void print_help(void)
{
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
"                          default arena and thread cache), lifo (the floor)\n"
"                          (default: all)\n"
"      --api=LIST          single, list, array, or all; the baselines have\n"
"                          single and array (bulk n = n allocations into an\n"
"                          array, then n frees) (default: all)\n"
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
"Output:\n"
"  -j, --json              one JSON document instead of text\n"
"  -h, --help              this help\n"
"  -V, --version           pagebench and libpagepool versions\n"
"\n"
"jemalloc's thread caches hold 20 pages of 4 KiB unless MALLOC_CONF says\n"
"otherwise (tcache_nslots_small_min:N,tcache_nslots_small_max:N), and it\n"
"reads that when the process starts: set it in the environment.  Exit\n"
"status: 0 ok, 1 runtime failure, 2 bad command line.\n",
	       MAX_BULK, MAX_RUNS, DEFAULT_RUNS, DEFAULT_RUN_MS);
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
	usage_error("--%s=%s: expected on or off", name, arg);
}

/*
 * A comma-separated list of names from @names (or "all") into @set;
 * @what names the accepted values for the message.
 */
static void parse_names(const char *opt, const char *arg,
			const char *const *names, unsigned int nr, bool *set,
			const char *what)
{
	char buf[256], *save = NULL, *tok;

	if (strlen(arg) >= sizeof(buf) || !*arg)
		usage_error("--%s=%s: expected %s, comma-separated, or all",
			    opt, arg, what);
	memset(set, 0, nr * sizeof(*set));
	if (!strcmp(arg, "all")) {
		for (unsigned int i = 0; i < nr; i++)
			set[i] = true;
		return;
	}
	snprintf(buf, sizeof(buf), "%s", arg);
	for (tok = strtok_r(buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		unsigned int i;

		for (i = 0; i < nr; i++)
			if (names[i] && !strcmp(tok, names[i]))
				break;
		if (i == nr)
			usage_error("--%s=%s: unknown '%s'; expected %s, "
				    "comma-separated, or all", opt, arg, tok,
				    what);
		set[i] = true;
	}
	if (arg[strlen(arg) - 1] == ',' || strstr(arg, ",,"))
		usage_error("--%s=%s: expected %s, comma-separated, or all",
			    opt, arg, what);
}

static void parse_options(int argc, char **argv, struct options *o)
{
	const char *variant_names[PP_NR_BULK_VARIANTS];
	int opt;

	memset(o, 0, sizeof(*o));
	for (int a = 0; a < NR_ALLOCATORS; a++)
		o->allocator[a] = true;
	for (int a = 0; a < NR_APIS; a++)
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
			parse_names("allocators", optarg, allocator_names,
				    NR_ALLOCATORS, o->allocator,
				    "buddy, jemalloc, glibc, mallocx, lifo");
			break;
		case OPT_APIS:
			parse_names("api", optarg, api_names, NR_APIS, o->api,
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
				usage_error("--bulk=%s: expected sizes from 1 "
					    "to %d, comma-separated", optarg,
					    MAX_BULK);
			snprintf(buf, sizeof(buf), "%s", optarg);
			o->nr_bulks = 0;
			for (tok = strtok_r(buf, ",", &save); tok;
			     tok = strtok_r(NULL, ",", &save)) {
				if (!parse_uint(tok, MAX_BULK, &v) || !v ||
				    o->nr_bulks == 16)
					usage_error("--bulk=%s: expected up "
						    "to 16 sizes from 1 to "
						    "%d, comma-separated",
						    optarg, MAX_BULK);
				o->bulks[o->nr_bulks++] = (unsigned int)v;
			}
			break;
		}
		case OPT_RUNS:
			if (!parse_uint(optarg, MAX_RUNS, &v) || !v)
				usage_error("--runs=%s: expected an integer "
					    "from 1 to %d", optarg, MAX_RUNS);
			o->runs = (unsigned int)v;
			break;
		case OPT_RUN_MS: {
			if (num_parse_decimal(optarg, &o->run_ms) ||
			    o->run_ms < 0.1 || o->run_ms > 10000)
				usage_error("--run-ms=%s: expected a number of "
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
				usage_error("--free=%s: expected release or "
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
			usage_error("option '%s' needs a value; see pagebench "
				    "--help", argv[optind - 1]);
		default: {
			const char *name = cmdline_refused_value(long_options,
							argv[optind - 1]);

			if (name)
				usage_error("option '--%s' takes no value (in "
					    "'%s'); see pagebench --help",
					    name, argv[optind - 1]);
			usage_error("unknown option '%s'; see pagebench --help "
				    "for the accepted options",
				    argv[optind - 1]);
		}
		}
	}
	if (optind < argc)
		usage_error("unexpected argument '%s': pagebench takes "
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

int main(int argc, char **argv)
{
	static struct bench bench;
	struct options o;
	struct result *res;
	unsigned int nr = 0, cap;
	struct pp_pool *pools[2] = { NULL, NULL };
	char model[256];
	double tsc;
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);

	parse_options(argc, argv, &o);
	if (o.pin)
		pin_to_this_cpu();
	find_baselines();
	cpu_model(model, sizeof(model));
	tsc = tsc_per_ns(o.smoke ? 1 : 50);

	cap = NR_ALLOCATORS * NR_APIS * PP_NR_BULK_VARIANTS * 16;
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

	if (!o.json) {
		printf("pagebench %s (libpagepool %s): %s, %ld online CPUs%s\n",
		       PACKAGE_VERSION, pp_version(), model, cpus,
		       o.pin ? ", pinned to one" : "");
		if (tsc > 0)
			printf("  TSC %.3f GHz (against CLOCK_MONOTONIC)\n",
			       tsc);
		else
			printf("  no TSC on this architecture: ticks n/a\n");
		printf("  glibc baseline: aligned_alloc from %s\n", glibc_from);
		printf("  jemalloc baseline: mallocx from %s, %ld thread-cache "
		       "slots for 4 KiB\n", mallocx_from,
		       pp_jemalloc_tcache_slots());
		printf("  %u runs of ~%g ms per configuration%s; bulk rounds "
		       "free by %s\n\n", o.runs, o.run_ms,
		       o.smoke ? " (smoke: a few pages, numbers meaningless)"
			       : "", o.free_put ? "put" : "release");
		fflush(stdout);
	}

	for (int a = 0; a < NR_ALLOCATORS; a++) {
		bool ours = a == A_BUDDY || a == A_JEMALLOC;

		if (!o.allocator[a])
			continue;
		bench.allocator = a;
		bench.pool = NULL;
		if (ours) {
			pools[a] = make_pool(a == A_BUDDY ? PP_BACKEND_BUDDY :
					     PP_BACKEND_JEMALLOC, &o);
			bench.pool = pools[a];
		}
		for (int api = 0; api < NR_APIS; api++) {
			/* Bulk variants apply to libpagepool's bulk APIs. */
			bool variants = ours && api != API_SINGLE;

			if (!o.api[api] || (!ours && api == API_LIST))
				continue;
			for (int v = 0; v < PP_NR_BULK_VARIANTS; v++) {
				if (variants && !o.variant[v])
					continue;
				if (variants)
					pp_pool_set_bulk_variant(bench.pool, v);
				for (unsigned int k = 0; k < o.nr_bulks; k++) {
					struct result *r = &res[nr++];

					r->allocator = a;
					r->api = api;
					r->bulk = api == API_SINGLE ? 1 :
						  o.bulks[k];
					r->variant = variants ? v : -1;
					measure(&bench, &o, r);
					if (!o.json)
						print_line(r, &o);
					if (api == API_SINGLE)
						break;
				}
				if (!variants)
					break;
			}
		}
		if (ours && pp_pool_destroy(pools[a]))
			fail("the %s pool has pages out after the runs",
			     allocator_names[a]);
	}

	if (o.json) {
		print_json(res, nr, &o, model, tsc, cpus);
	} else {
		for (int v = 0; v < PP_NR_BULK_VARIANTS; v++)
			if (o.variant[v])
				print_table(res, nr, &o, v);
	}
	munmap(bench.lifo, LIFO_PAGES * sizeof(void *));
	free(res);
	if (fflush(stdout) || ferror(stdout)) {
		perror("pagebench: writing the results");
		return 1;
	}
	return 0;
}
