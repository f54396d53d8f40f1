/* SPDX-License-Identifier: MIT */
/*
 * Helpers shared by the libpagepool unit tests: pools with a chosen
 * geometry, counter deltas, list walking and a pfn ownership map.
 * Everything is static inline so each test takes only what it uses.
 */
#ifndef PP_TESTS_PP_TEST_H
#define PP_TESTS_PP_TEST_H

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <pagepool/pagepool.h>

#include "pin.h"
#include "tap.h"

/*
 * An AddressSanitizer build (configure --enable-asan), whose reports of
 * some misuses come before libpagepool's own: a constant, so that the
 * checks of both kinds compile.  The test includes <config.h> first, as
 * every file does.
 */
#ifdef PP_CONFIG_ASAN
static const bool test_asan_build = true;
#else
static const bool test_asan_build = false;
#endif

/*
 * The backend the suite runs on: PP_TEST_BACKEND=buddy (the default),
 * jemalloc or plugin (with PP_TEST_PLUGIN, the plugin's path).
 * tests/unit.am runs the API tests once per backend
 * (tests/unit/jemalloc/run.sh and tests/unit/plugin/run.sh set it);
 * checks of the buddy allocator's internals (pcp refills, buddy shapes,
 * zone fallbacks) use ok_buddy() and are skipped, saying so, on the
 * others.
 */
static inline enum pp_backend test_backend(void)
{
	const char *env = getenv("PP_TEST_BACKEND");
	int b;

	if (!env || !*env)
		return PP_BACKEND_BUDDY;
	b = pp_backend_from_name(env);
	if (b < 0)
		bail_out("PP_TEST_BACKEND=%s: expected buddy, jemalloc or "
			 "plugin", env);
	return (enum pp_backend)b;
}

static inline bool test_backend_is_buddy(void)
{
	return test_backend() == PP_BACKEND_BUDDY;
}

/* A check of the buddy allocator's internals: skipped on other backends. */
#define ok_buddy(cond, ...)						\
	do {								\
		if (test_backend_is_buddy())				\
			ok(cond, __VA_ARGS__);				\
		else							\
			skip(1, "buddy backend only: " __VA_ARGS__);	\
	} while (0)

/*
 * Pages the jemalloc backend needs besides a test's own: its arena's first
 * metadata block and its first extent, 2 MiB each.
 */
#define TEST_JE_EXTRA_PAGES	1024UL

/*
 * pp_pool_config_init() with the suite's backend; for the plugin backend,
 * the shared object PP_TEST_PLUGIN names (tests/unit/plugin/run.sh).
 */
static inline void test_config_init(struct pp_pool_config *cfg)
{
	pp_pool_config_init(cfg);
	cfg->backend = test_backend();
	cfg->backend_plugin = getenv("PP_TEST_PLUGIN");
}

/* Pages a test of @nr_pages pages should ask for on the suite's backend. */
static inline unsigned long test_pool_pages(unsigned long nr_pages)
{
	return test_backend() != PP_BACKEND_JEMALLOC ? nr_pages :
	       nr_pages + TEST_JE_EXTRA_PAGES;
}

/*
 * Nothing out, as far as the counters tell: every page allocated was
 * freed, and the pages are in the buddy lists (buddy: all of them, pcp
 * lists empty, so drain first) or held by the backend for reuse.
 * pp_pool_destroy() then checks the page states themselves.
 */
static inline bool test_all_back(const struct pp_vmstat *st)
{
	if (st->events[PP_PGALLOC] != st->events[PP_PGFREE])
		return false;
	if (st->backend == PP_BACKEND_BUDDY)
		return st->nr_free == st->nr_pages && st->nr_pcp == 0;
	return st->nr_free + st->nr_pcp + st->nr_backend == st->nr_pages;
}

/*
 * The pcp implementation the suite runs on: PAGEPOOL_PCP, read by
 * pp_pool_config_init() (tests/unit.am runs the buddy suite once with
 * the default, auto, and once each with lock and rseq).  A pool the
 * helpers below create must run what was asked for, so that the rseq run
 * cannot silently test the lock: rseq where pp_pcp_rseq_supported() says
 * so (buddy backend), lock otherwise.
 */
static inline void test_pool_check_impl(struct pp_pool *pool,
					enum pp_backend backend)
{
	const char *env = getenv("PAGEPOOL_PCP"), *why = "";
	enum pp_pcp_impl want, got = pp_pool_pcp_impl(pool);

	if (!env || !strcmp(env, "auto"))
		return;
	want = PP_PCP_LOCK;
	if (!strcmp(env, "rseq") && backend == PP_BACKEND_BUDDY &&
	    pp_pcp_rseq_supported(&why))
		want = PP_PCP_RSEQ;
	if (got != want)
		bail_out("PAGEPOOL_PCP=%s, %s backend: the pool runs %s, not %s",
			 env, pp_backend_name(backend), pp_pcp_impl_name(got),
			 pp_pcp_impl_name(want));
}

/*
 * The profile the suite runs on: PAGEPOOL_PROFILE (tests/unit.am runs the
 * buddy suite once more on the kernel profile): a buddy pool must run it,
 * any other the lean one, so that the kernel run cannot silently test the
 * lean paths.
 */
static inline void test_pool_check_profile(struct pp_pool *pool,
					   enum pp_backend backend)
{
	const char *env = getenv("PAGEPOOL_PROFILE");
	int want = env ? pp_profile_from_name(env) : PP_PROFILE_LEAN;

	if (backend != PP_BACKEND_BUDDY)
		want = PP_PROFILE_LEAN;
	if (want >= 0 && (int)pp_pool_profile(pool) != want)
		bail_out("PAGEPOOL_PROFILE=%s, %s backend: the pool runs %s, "
			 "not %s", env ? env : "", pp_backend_name(backend),
			 pp_profile_name(pp_pool_profile(pool)),
			 pp_profile_name((enum pp_profile)want));
}

/*
 * Under PP_PCP_RSEQ, list i serves CPU i only and a thread on a CPU
 * without a list bypasses the pcp lists (utils/pin.h).  Many tests make
 * pools with one list and count on every call using it, as the lock
 * implementation does (CPU c uses list c % nr_cpus): for an rseq pool
 * with fewer lists than the CPUs this thread may run on, pin the thread
 * to a CPU that has one, so the test stays deterministic.  For any other
 * pool, give back a mask an earlier pool's pinning took.  Tests that pin
 * themselves call test_cpu_unpin() before they read their mask.
 */
static inline void test_pool_pin(struct pp_pool *pool)
{
	struct pp_vmstat st;

	if (pp_pool_pcp_impl(pool) != PP_PCP_RSEQ) {
		test_cpu_unpin();
		return;
	}
	pp_pool_vmstat(pool, &st);
	if (test_cpu_pin_below(st.nr_cpus) < 0)
		test_cpu_unpin();
	if (!test_cpu_within(st.nr_cpus))
		bail_out("test_pool_pin: this thread may still run on a CPU "
			 "without one of the %u pcp lists", st.nr_cpus);
}

/*
 * pp_pool_create(@cfg) for a test that goes on to use the pool: bails
 * out if it fails, checks the pcp implementation and pins the thread
 * (test_pool_pin()).
 */
static inline struct pp_pool *
test_pool_create_config(const struct pp_pool_config *cfg)
{
	struct pp_pool *pool = pp_pool_create(cfg);

	if (!pool)
		bail_out("pp_pool_create(%lu pages, batch %u, high %u, %u cpus, "
			 "%s): %s", cfg->nr_pages, cfg->pcp_batch,
			 cfg->pcp_high, cfg->nr_cpus,
			 pp_backend_name(cfg->backend), strerror(errno));
	test_pool_check_impl(pool, cfg->backend);
	test_pool_check_profile(pool, cfg->backend);
	test_pool_pin(pool);
	return pool;
}

/*
 * A pool of @nr_pages pages with @nr_cpus pcp lists of @batch/@high and
 * all watermarks at 0, so only a really empty zone fails an allocation,
 * on the suite's backend (jemalloc gets TEST_JE_EXTRA_PAGES more).
 * The debug default (PAGEPOOL_DEBUG) is left alone: the whole suite can
 * run with the debug checks on; so is the pcp implementation's
 * (PAGEPOOL_PCP).  The thread may be pinned (test_pool_pin()) once it
 * is created.  test_pool_config() fills @cfg so; a test sets more fields
 * before creating it.
 */
static inline void test_pool_config(struct pp_pool_config *cfg,
				    unsigned long nr_pages, unsigned int batch,
				    unsigned int high, unsigned int nr_cpus)
{
	test_config_init(cfg);
	cfg->nr_pages = test_pool_pages(nr_pages);
	cfg->pcp_batch = batch;
	cfg->pcp_high = high;
	cfg->nr_cpus = nr_cpus;
	cfg->wmark_min = 0;
	cfg->wmark_low = 0;
	cfg->wmark_high = 0;
}

/*
 * The zone's watermarks of @cfg at @min, @low and @high, for the tests
 * of the paths below them (buddy backend).
 */
static inline void test_config_wmarks(struct pp_pool_config *cfg,
				      unsigned long min, unsigned long low,
				      unsigned long high)
{
	cfg->wmark_min = min;
	cfg->wmark_low = low;
	cfg->wmark_high = high;
}

/* test_pool_config()'s pool, created (test_pool_create_config()). */
static inline struct pp_pool *test_pool_create(unsigned long nr_pages,
					       unsigned int batch,
					       unsigned int high,
					       unsigned int nr_cpus)
{
	struct pp_pool_config cfg;

	test_pool_config(&cfg, nr_pages, batch, high, nr_cpus);
	return test_pool_create_config(&cfg);
}

#define TEST_PCP_FILL_MAX	256

/*
 * Allocate @n single pages (GFP_KERNEL) and free them again, so that
 * they end on the pcp list of the CPU this thread runs on (when the
 * list's high mark leaves room for them).
 */
static inline void test_pcp_fill(struct pp_pool *pool, unsigned int n)
{
	struct pp_page *pages[TEST_PCP_FILL_MAX];

	if (n > TEST_PCP_FILL_MAX)
		bail_out("test_pcp_fill: %u pages, at most %u", n,
			 TEST_PCP_FILL_MAX);
	for (unsigned int i = 0; i < n; i++)
		pages[i] = pp_alloc_page(pool, PP_GFP_KERNEL);
	for (unsigned int i = 0; i < n; i++)
		pp_put_page(pool, pages[i]);
}

/* Change of counter @ev between two snapshots. */
static inline uint64_t vm_delta(const struct pp_vmstat *before,
				const struct pp_vmstat *after,
				enum pp_vm_event ev)
{
	return after->events[ev] - before->events[ev];
}

/*
 * One pp_alloc_page(@pool, PP_GFP_KERNEL), the pool's counters taken just
 * before it into @before and just after it into @after.
 */
static inline struct pp_page *test_alloc_page_vmstat(struct pp_pool *pool,
						     struct pp_vmstat *before,
						     struct pp_vmstat *after)
{
	struct pp_page *page;

	pp_pool_vmstat(pool, before);
	page = pp_alloc_page(pool, PP_GFP_KERNEL);
	pp_pool_vmstat(pool, after);
	return page;
}

/*
 * ok_vm_deltas(OK, A, B, EV1, N1, EV2, N2, FMT, ...) - check with OK (ok
 * or ok_buddy) that counters EV1 and EV2 changed by N1 and N2 from
 * snapshot A to snapshot B; FMT, after its own arguments, is given the
 * two changes (unsigned long long: "%llu").
 */
#define ok_vm_deltas(okf, a, b, ev1, n1, ev2, n2, ...)			\
	okf(vm_delta(a, b, ev1) == (n1) && vm_delta(a, b, ev2) == (n2),	\
	    __VA_ARGS__, (unsigned long long)vm_delta(a, b, ev1),		\
	    (unsigned long long)vm_delta(a, b, ev2))

static inline uint64_t vm_event(struct pp_pool *pool, enum pp_vm_event ev)
{
	struct pp_vmstat st;

	pp_pool_vmstat(pool, &st);
	return st.events[ev];
}

static inline bool free_area_equal(const struct pp_vmstat *a,
				   const struct pp_vmstat *b)
{
	for (unsigned int o = 0; o < PP_NR_ORDERS; o++)
		if (a->free_area[o] != b->free_area[o])
			return false;
	return true;
}

static inline unsigned long list_length(struct pp_list_head *list)
{
	unsigned long n = 0;

	for (struct pp_list_head *p = list->next; p != list; p = p->next)
		n++;
	return n;
}

static inline bool list_contains(struct pp_list_head *list,
				 struct pp_page *page)
{
	for (struct pp_list_head *p = list->next; p != list; p = p->next)
		if (pp_lru_to_page(p) == page)
			return true;
	return false;
}

/* Put every page of @list (unlinking them first). Returns how many. */
static inline unsigned long put_list(struct pp_pool *pool,
				     struct pp_list_head *list)
{
	struct pp_page *page;
	unsigned long n = 0;

	while ((page = pp_list_pop_page(list))) {
		pp_put_page(pool, page);
		n++;
	}
	return n;
}

/* Put the non-NULL entries of @pages and clear them. */
static inline void put_array(struct pp_pool *pool, struct pp_page **pages,
			     unsigned long nr)
{
	for (unsigned long i = 0; i < nr; i++) {
		if (pages[i])
			pp_put_page(pool, pages[i]);
		pages[i] = NULL;
	}
}

/*
 * One byte per pfn: which pages a test holds.  owner_claim() fails if the
 * page is already held (handed out twice), owner_release() if it is not.
 */
struct owner_map {
	struct pp_pool *pool;
	unsigned long nr_pages;
	unsigned char *held;
};

static inline void owner_init(struct owner_map *map, struct pp_pool *pool)
{
	struct pp_vmstat st;

	pp_pool_vmstat(pool, &st);
	map->pool = pool;
	map->nr_pages = st.nr_pages;
	map->held = calloc(st.nr_pages, 1);
	if (!map->held)
		bail_out("calloc(%lu): out of memory", st.nr_pages);
}

static inline void owner_fini(struct owner_map *map)
{
	free(map->held);
	map->held = NULL;
}

/*
 * Mark the 2^@order pages from @page as held (@held 1) or not (0); false
 * if one of them was so already, or the block runs past the pool.
 */
static inline bool owner_mark(struct owner_map *map, struct pp_page *page,
			      unsigned int order, unsigned char held)
{
	unsigned long pfn = pp_page_to_pfn(map->pool, page);
	bool ok = true;

	if (pfn + (1UL << order) > map->nr_pages)
		return false;
	for (unsigned long i = 0; i < (1UL << order); i++) {
		if (map->held[pfn + i] == held)
			ok = false;
		map->held[pfn + i] = held;
	}
	return ok;
}

static inline bool owner_claim(struct owner_map *map, struct pp_page *page,
			       unsigned int order)
{
	return owner_mark(map, page, order, 1);
}

static inline bool owner_release(struct owner_map *map, struct pp_page *page,
				 unsigned int order)
{
	return owner_mark(map, page, order, 0);
}

static inline unsigned long owner_count(const struct owner_map *map)
{
	unsigned long n = 0;

	for (unsigned long pfn = 0; pfn < map->nr_pages; pfn++)
		n += map->held[pfn];
	return n;
}

/* Are the @nr non-NULL pages of @pages pairwise distinct? */
static inline bool pages_distinct(struct pp_pool *pool,
				  struct pp_page **pages, unsigned long nr)
{
	struct owner_map map;
	bool ok = true;

	owner_init(&map, pool);
	for (unsigned long i = 0; i < nr; i++)
		if (pages[i] && !owner_claim(&map, pages[i], 0))
			ok = false;
	owner_fini(&map);
	return ok;
}

/* xorshift64*: a small seeded generator, the same sequence everywhere. */
static inline uint64_t test_rand(uint64_t *state)
{
	uint64_t x = *state;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*state = x;
	return x * 0x2545f4914f6cdd1dULL;
}

/* Seed from PP_TEST_SEED when set (to replay a failure), else @def. */
static inline uint64_t test_seed(uint64_t def)
{
	const char *env = getenv("PP_TEST_SEED");
	uint64_t seed = def;

	if (env && *env)
		seed = strtoull(env, NULL, 0);
	diag("seed %llu (set PP_TEST_SEED to replay)",
	     (unsigned long long)seed);
	return seed ? seed : 1;
}

#endif /* PP_TESTS_PP_TEST_H */
