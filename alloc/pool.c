/* SPDX-License-Identifier: MIT */
/*
 * Pool setup and teardown: the configuration and its defaults (and the
 * environment variables read into them), the watermarks derived from it,
 * the arena, descriptor and ring mappings, pp_pool_create() and
 * pp_pool_destroy(), and the name tables of backends and bulk variants.
 * The kernel keeps the matching work in mm/mm_init.c, apart from the
 * allocator in mm/page_alloc.c; here the allocator is zone.c.
 */
#include "internal.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define PP_DEFAULT_NR_PAGES	65536UL		/* 256 MiB */
#define PP_DEFAULT_PCP_BATCH	63U
#define PP_LEAK_PFNS_SHOWN	8

int pp_pool_config_init(struct pp_pool_config *cfg)
{
	const char *env = getenv("PAGEPOOL_DEBUG");
	int err = 0;

	memset(cfg, 0, sizeof(*cfg));
	cfg->nr_pages = PP_DEFAULT_NR_PAGES;
	cfg->pcp_batch = PP_DEFAULT_PCP_BATCH;
	cfg->pcp_high = 6 * PP_DEFAULT_PCP_BATCH;
	cfg->wmark_min = PP_WMARK_AUTO;
	cfg->wmark_low = PP_WMARK_AUTO;
	cfg->wmark_high = PP_WMARK_AUTO;
	cfg->debug = PP_CONFIG_DEBUG_DEFAULT;
	cfg->nr_nodes = 1;
	/* Any other value makes pp_pool_create() fail, saying so. */
	if (env && (env[0] == '0' || env[0] == '1') && env[1] == '\0')
		cfg->debug = env[0] == '1';
	else if (env)
		err = -EINVAL;
	cfg->backend = PP_BACKEND_BUDDY;
	cfg->bulk_variant = PP_BULK_MERGED;
	cfg->je_tcache = true;
	cfg->je_tcache_slots = 0;
	cfg->je_batch_alloc = true;
	/* A value it cannot read makes pp_pool_create() fail, saying so. */
	env = getenv("PAGEPOOL_PCP");
	cfg->pcp_impl = PP_PCP_AUTO;
	if (env) {
		int impl = pp_pcp_impl_from_name(env);

		cfg->pcp_impl = impl < 0 ? PP_NR_PCP_IMPLS :
					   (enum pp_pcp_impl)impl;
		if (impl < 0)
			err = -EINVAL;
	}
	/* A value it cannot read makes pp_pool_create() fail, saying so. */
	env = getenv("PAGEPOOL_PROFILE");
	cfg->profile = PP_PROFILE_LEAN;
	if (env) {
		int profile = pp_profile_from_name(env);

		cfg->profile = profile < 0 ? PP_NR_PROFILES :
					     (enum pp_profile)profile;
		if (profile < 0)
			err = -EINVAL;
	}
	cfg->init_on_alloc = false;
	/* Any other value makes pp_pool_create() fail, saying so. */
	env = getenv("PAGEPOOL_DEBUG_LIST");
	cfg->debug_list = true;
	if (env && (env[0] == '0' || env[0] == '1') && env[1] == '\0')
		cfg->debug_list = env[0] == '1';
	else if (env)
		err = -EINVAL;
	/* Named here; the trylock share it leaves fails pp_pool_create(). */
	if (pp_fault_config_env(cfg))
		err = -EINVAL;
	return err;
}

/*
 * The profile of @cfg: 0, or -EINVAL for one out of range (a
 * PAGEPOOL_PROFILE it could not read is named).
 */
static int pp_profile_check(const struct pp_pool_config *cfg)
{
	if ((unsigned int)cfg->profile >= PP_NR_PROFILES) {
		const char *env = getenv("PAGEPOOL_PROFILE");

		if (env && pp_profile_from_name(env) < 0)
			fprintf(stderr, "pagepool: PAGEPOOL_PROFILE='%s': "
				"expected lean or kernel\n", env);
		return -EINVAL;
	}
	return 0;
}

/*
 * PAGEPOOL_DEBUG, when set, must be 0 or 1: a value that would be
 * silently ignored ("yes", "2", "") leaves a user believing the checks are
 * on.  Refused the way PAGEPOOL_PCP is: one line, and pp_pool_create()
 * fails with EINVAL.
 */
static int pp_bool_env_check(const char *name, const char *what)
{
	const char *env = getenv(name);

	if (!env || ((env[0] == '0' || env[0] == '1') && env[1] == '\0'))
		return 0;
	fprintf(stderr, "pagepool: %s='%s': expected 0 (%s off) or 1 (on)\n",
		name, env, what);
	return -EINVAL;
}

/* PAGEPOOL_DEBUG_LIST the same way (CONFIG_DEBUG_LIST's checks). */
static int pp_debug_env_check(void)
{
	int err = pp_bool_env_check("PAGEPOOL_DEBUG", "debug checks");

	return err ? err : pp_bool_env_check("PAGEPOOL_DEBUG_LIST",
					     "list checks");
}

static unsigned long pp_int_sqrt(unsigned long x)
{
	unsigned long r = 0, bit = 1UL << (sizeof(x) * 8 - 2);

	while (bit > x)
		bit >>= 2;
	while (bit) {
		if (x >= r + bit) {
			x -= r + bit;
			r = (r >> 1) + bit;
		} else {
			r >>= 1;
		}
		bit >>= 2;
	}
	return r;
}

/*
 * Watermarks the way init_per_zone_wmark_min() and
 * __setup_per_zone_wmarks() derive them for a single zone:
 * min_free_kbytes = sqrt(16 * zone KiB) clamped to 128 KiB..256 MiB, then
 * low/high one and two deltas above min.  A pool of a few hundred pages
 * would lose a third of itself to min, so min is capped at 1/8 of the pool.
 */
int pp_pool_config_wmarks(const struct pp_pool_config *cfg,
			  unsigned long *min_out, unsigned long *low_out,
			  unsigned long *high_out)
{
	unsigned long n = cfg->nr_pages, min, low, high, delta;

	if (cfg->wmark_min == PP_WMARK_AUTO) {
		unsigned long kib = pp_int_sqrt(16 * n * (PP_PAGE_SIZE / 1024));

		if (kib < 128)
			kib = 128;
		if (kib > 262144)
			kib = 262144;
		min = kib / (PP_PAGE_SIZE / 1024);
		if (min > n / 8)
			min = n / 8;
	} else {
		min = cfg->wmark_min;
	}
	delta = min / 4;
	if (delta < n / 1000)
		delta = n / 1000;	/* watermark_scale_factor 10 */
	low = cfg->wmark_low == PP_WMARK_AUTO ? min + delta : cfg->wmark_low;
	high = cfg->wmark_high == PP_WMARK_AUTO ? min + 2 * delta :
						   cfg->wmark_high;
	*min_out = min;
	*low_out = low;
	*high_out = high;
	if (low < min || high < low || high > n)
		return -EINVAL;
	return 0;
}

static void *pp_map(size_t bytes)
{
	void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

/* The largest block's size: the arena is aligned to it. */
#define PP_MAX_BLOCK_BYTES	(PP_PAGE_SIZE << PP_MAX_ORDER)

/*
 * The arena, aligned to the largest block, so that a block of order n is
 * aligned to 2^n pages in address as well as in pfn (jemalloc asks for
 * 2 MiB-aligned metadata blocks).  The slack around it is mapped but never
 * touched.
 */
static bool pp_map_arena(struct pp_pool *pool)
{
	uintptr_t base;

	if (pool->arena_bytes > SIZE_MAX - PP_MAX_BLOCK_BYTES)
		return false;
	pool->map_len = pool->arena_bytes + PP_MAX_BLOCK_BYTES - PP_PAGE_SIZE;
	pool->map_base = pp_map(pool->map_len);
	if (!pool->map_base)
		return false;
	base = ((uintptr_t)pool->map_base + PP_MAX_BLOCK_BYTES - 1) &
	       ~(uintptr_t)(PP_MAX_BLOCK_BYTES - 1);
	pool->arena = (char *)base;
	return true;
}

static void pp_zone_lock_destroy(struct pp_zone *zone)
{
	int err = pthread_mutex_destroy(&zone->lock);

	if (err)
		pp_die("pthread_mutex_destroy: error %d", err);
}

/* Undo pp_zone_setup() of zones [0, @nr). */
static void pp_zones_teardown(struct pp_pool *pool, unsigned int nr)
{
	for (unsigned int nid = 0; nid < nr; nid++) {
		struct pp_zone *zone = &pool->zones[nid];

		pp_zone_lock_destroy(zone);
		munmap(zone->rings, zone->rings_bytes);
		free(zone->pcp);
		free(zone->numa);
	}
}

/* Unmap and free a pool whose pages are all back (or never used). */
static void pp_pool_unmap(struct pp_pool *pool)
{
	ppk_pool_teardown(pool);
	pp_zones_teardown(pool, pool->nr_nodes);
	pool->magic = PP_POOL_DEAD;
	pp_kasan_pool_del(pool);
	/* KASAN: a later mapping at this address must not inherit poison. */
	pp_kasan_unpoison_range(pool, 0, pool->nr_pages);
	munmap(pool->map_base, pool->map_len);
	munmap(pool->mem_map, pool->map_bytes);
	free(pool->cpu_node);
	free(pool);
}

/*
 * The most slots a pcp ring may have: its slot count is an unsigned int
 * (and its two ends are 32-bit halves of one word), so a ring stops at
 * 2^31 slots, and pp_pool_create() refuses a configuration whose lists
 * could hold more pages than that (pcp_high and nr_pages both above it).
 */
#define PP_RING_MAX_SLOTS	(1U << 31)

/*
 * Ring slots for a pcp list: all it can hold, as a power of two (at most
 * PP_RING_MAX_SLOTS, which pp_pool_create() checked).
 */
static unsigned int pp_ring_slots(const struct pp_pool_config *cfg)
{
	unsigned long need = cfg->pcp_high < cfg->nr_pages ? cfg->pcp_high :
			     cfg->nr_pages;
	unsigned int slots = 1;

	while (slots < need)
		slots <<= 1;
	return slots;
}

/* @zone's pcp lists: empty, each with its slice of the ring mapping. */
static void pp_zone_init_pcp(struct pp_pool *pool, struct pp_zone *zone,
			     const struct pp_pool_config *cfg,
			     unsigned int slots)
{
	memset(zone->pcp, 0, pool->nr_cpus * sizeof(*zone->pcp));
	for (unsigned int cpu = 0; cpu < pool->nr_cpus; cpu++) {
		struct pp_pcp *pcp = &zone->pcp[cpu];

		pcp->batch = cfg->pcp_batch;
		pcp->fault_trylock = cfg->fault.trylock;
		pcp->high = cfg->pcp_high;
		pcp->cpu = cpu;
		pcp->mask = slots - 1;
		pcp->ring = zone->rings + (size_t)cpu * slots;
		pcp->node = zone->node;
	}
}

/*
 * Node @nid's zone over pfns [@start, @start + @nr): its pcp lists and
 * rings, its lock, its pages on its buddy lists.  0 or -ENOMEM.
 */
static int pp_zone_setup(struct pp_pool *pool, unsigned int nid,
			 const struct pp_pool_config *cfg,
			 unsigned long start, unsigned long nr)
{
	struct pp_zone *zone = &pool->zones[nid];
	unsigned int slots = pp_ring_slots(cfg);
	int err;

	zone->node = nid;
	zone->debug_list = pool->debug_list;
	zone->start_pfn = start;
	zone->nr_pages = nr;
	zone->fault_buddy_reserve = cfg->fault.buddy_empty;
	/* The lists' alignment: 1024 (see pp_pcp.single_pages). */
	if (posix_memalign((void **)&zone->pcp, _Alignof(struct pp_pcp),
			   pool->nr_cpus * sizeof(*zone->pcp)))
		return -ENOMEM;
	zone->numa = NULL;
	if (pool->nr_nodes > 1) {
		if (posix_memalign((void **)&zone->numa, PP_CACHELINE,
				   pool->nr_cpus * sizeof(*zone->numa))) {
			free(zone->pcp);
			return -ENOMEM;
		}
		memset(zone->numa, 0, pool->nr_cpus * sizeof(*zone->numa));
	}
	zone->rings_bytes = (size_t)pool->nr_cpus * slots * sizeof(void *);
	zone->rings = pp_map(zone->rings_bytes);
	if (!zone->rings) {
		free(zone->pcp);
		free(zone->numa);
		return -ENOMEM;
	}
	err = pthread_mutex_init(&zone->lock, NULL);
	if (err)
		pp_die("pthread_mutex_init: error %d", err);
	pp_zone_init_pcp(pool, zone, cfg, slots);
	pp_zone_init_free_lists(pool, zone);
	return 0;
}

/*
 * The zones, one per node, over consecutive pfn ranges: 0, or -ENOMEM
 * with none left set up.  Each zone gets the pool's watermarks in
 * proportion to its pages, as the kernel shares min_free_kbytes among
 * zones (one node: the configuration's, unchanged).
 */
static int pp_pool_setup_zones(struct pp_pool *pool,
			       const struct pp_pool_config *cfg)
{
	unsigned long wmark[PP_NR_WMARK];
	unsigned int nr = pool->nr_nodes;
	int err;

	err = pp_pool_config_wmarks(cfg, &wmark[PP_WMARK_MIN],
				    &wmark[PP_WMARK_LOW],
				    &wmark[PP_WMARK_HIGH]);
	if (err)
		return err;
	pool->node_span = pool->nr_pages / nr;
	for (unsigned int nid = 0; nid < nr; nid++) {
		unsigned long start = nid * pool->node_span;
		unsigned long pages = nid == nr - 1 ?
				      pool->nr_pages - start : pool->node_span;

		for (unsigned int w = 0; w < PP_NR_WMARK; w++)
			pool->zones[nid].wmark[w] = nr == 1 ? wmark[w] :
				wmark[w] * pages / pool->nr_pages;
		err = pp_zone_setup(pool, nid, cfg, start, pages);
		if (err) {
			pp_zones_teardown(pool, nid);
			pool->nr_nodes = 0;
			return err;
		}
	}
	return 0;
}

/*
 * build_zonelists(): each node's zones by distance from it, nearest
 * first (the node itself, at 10).  Equal distances go round from the
 * node on (node n + 1 before n + 2 ...), so that nodes at the same
 * distance share the fallback load, as find_next_best_node()'s penalty
 * for nodes already used spreads it.
 */
static void pp_build_zonelists(struct pp_pool *pool)
{
	unsigned int nr = pool->nr_nodes;

	for (unsigned int n = 0; n < nr; n++) {
		uint8_t *list = pool->zonelist[n];

		for (unsigned int i = 0; i < nr; i++)
			list[i] = (uint8_t)((n + i) % nr);
		/* Insertion sort by distance; stable keeps the round order. */
		for (unsigned int i = 1; i < nr; i++) {
			uint8_t v = list[i];
			unsigned int j = i;

			while (j && pool->distance[n][list[j - 1]] >
				    pool->distance[n][v]) {
				list[j] = list[j - 1];
				j--;
			}
			list[j] = v;
		}
	}
}

/* LOCAL_DISTANCE, REMOTE_DISTANCE: the defaults of the distance table. */
#define PP_LOCAL_DISTANCE	10
#define PP_REMOTE_DISTANCE	20

/*
 * The node rules of pp_pool_config (see its @nr_nodes): 0, or -EINVAL.
 * @nr_cpus is the pool's CPU count.
 */
static int pp_pool_config_nodes_ok(const struct pp_pool_config *cfg,
				   unsigned int nr_cpus)
{
	unsigned int nr = cfg->nr_nodes ? cfg->nr_nodes : 1;

	if (nr > PP_MAX_NODES || cfg->nr_pages < nr)
		return -EINVAL;
	if (nr > 1 && cfg->backend != PP_BACKEND_BUDDY)
		return -EINVAL;
	for (unsigned int c = 0; cfg->cpu_to_node && c < nr_cpus; c++)
		if (cfg->cpu_to_node[c] >= nr)
			return -EINVAL;
	for (unsigned int i = 0; cfg->node_distance && i < nr; i++)
		for (unsigned int j = 0; j < nr; j++) {
			unsigned int d = cfg->node_distance[i * nr + j];

			if (i == j ? d != PP_LOCAL_DISTANCE :
			    d <= PP_LOCAL_DISTANCE || d > 254)
				return -EINVAL;
		}
	return 0;
}

/* The CPU map, the distances and the zonelists: 0 or -ENOMEM. */
static int pp_pool_setup_nodes(struct pp_pool *pool,
			       const struct pp_pool_config *cfg)
{
	unsigned int nr = cfg->nr_nodes ? cfg->nr_nodes : 1;

	pool->nr_nodes = nr;
	pool->cpu_node = calloc(pool->nr_cpus, 1);
	if (!pool->cpu_node)
		return -ENOMEM;
	for (unsigned int c = 0; c < pool->nr_cpus; c++)
		pool->cpu_node[c] = (uint8_t)(cfg->cpu_to_node ?
					      cfg->cpu_to_node[c] : c % nr);
	for (unsigned int i = 0; i < nr; i++)
		for (unsigned int j = 0; j < nr; j++)
			pool->distance[i][j] = (uint8_t)(cfg->node_distance ?
				cfg->node_distance[i * nr + j] :
				i == j ? PP_LOCAL_DISTANCE :
					 PP_REMOTE_DISTANCE);
	pp_build_zonelists(pool);
	return 0;
}

/*
 * The pool's settings from @cfg, and the environment's debug and profile
 * settings, checked before anything is mapped (the watermarks too, which
 * pp_pool_setup_zones() sets): 0 or -errno.
 */
static int pp_pool_settings(struct pp_pool *pool,
			    const struct pp_pool_config *cfg)
{
	unsigned long wmark[PP_NR_WMARK];
	int err = pp_debug_env_check();

	if (!err)
		err = pp_profile_check(cfg);
	if (err)
		return err;
	/* kernel*.c are the buddy allocator's paths: see enum pp_profile. */
	pool->kernel = cfg->profile == PP_PROFILE_KERNEL &&
		       cfg->backend == PP_BACKEND_BUDDY;
	pool->init_on_alloc = pool->kernel && cfg->init_on_alloc;
	pool->debug_list = pool->kernel && cfg->debug_list;
	pool->nr_pages = cfg->nr_pages;
	pool->debug = cfg->debug;
	atomic_init(&pool->bulk_variant, (unsigned int)cfg->bulk_variant);
	pool->backend_id = (uint8_t)cfg->backend;
	err = pp_pool_config_wmarks(cfg, &wmark[PP_WMARK_MIN],
				    &wmark[PP_WMARK_LOW],
				    &wmark[PP_WMARK_HIGH]);
	if (err)
		return err;
	pool->nr_cpus = cfg->nr_cpus;
	if (!pool->nr_cpus) {
		long n = sysconf(_SC_NPROCESSORS_CONF);

		pool->nr_cpus = n > 0 ? (unsigned int)n : 1;
	}
	return pp_pool_config_nodes_ok(cfg, pool->nr_cpus);
}

struct pp_pool *pp_pool_create(const struct pp_pool_config *cfg)
{
	struct pp_pool_config defaults;
	struct pp_pool *pool;
	int err;

	if (!cfg) {
		pp_pool_config_init(&defaults);
		cfg = &defaults;
	}
	if (cfg->nr_pages == 0 || cfg->nr_pages > (SIZE_MAX >> PP_PAGE_SHIFT) ||
	    cfg->pcp_batch == 0 || cfg->pcp_high < cfg->pcp_batch ||
	    (unsigned int)cfg->backend >= PP_NR_BACKENDS ||
	    (unsigned int)cfg->bulk_variant >= PP_NR_BULK_VARIANTS ||
	    cfg->fault.trylock > 100 ||
	    (cfg->pcp_high > PP_RING_MAX_SLOTS &&
	     cfg->nr_pages > PP_RING_MAX_SLOTS)) {
		errno = EINVAL;
		return NULL;
	}
	if (posix_memalign((void **)&pool, PP_CACHELINE, sizeof(*pool))) {
		errno = ENOMEM;
		return NULL;
	}
	memset(pool, 0, sizeof(*pool));
	err = pp_pool_settings(pool, cfg);
	if (err)
		goto fail_free;
	err = pp_pool_setup_nodes(pool, cfg);
	if (err)
		goto fail_free;

	/* The mappings, each undone below in the reverse order. */
	err = -ENOMEM;
	pool->arena_bytes = pool->nr_pages << PP_PAGE_SHIFT;
	if (cfg->fault.mmap || !pp_map_arena(pool))
		goto fail_free;
	pool->map_bytes = pool->nr_pages * sizeof(struct pp_page);
	pool->mem_map = pp_map(pool->map_bytes);
	if (!pool->mem_map)
		goto fail_arena;

	err = pp_pcp_setup(pool, cfg);
	if (err)
		goto fail_mem_map;
	err = pp_pool_setup_zones(pool, cfg);
	if (err)
		goto fail_mem_map;
	if (pool->kernel) {
		err = ppk_pool_setup(pool);
		if (err)
			goto fail_zones;
	}

	if (cfg->backend == PP_BACKEND_JEMALLOC)
		err = pp_je_create(pool, cfg);
	else if (cfg->backend == PP_BACKEND_PLUGIN)
		err = pp_plugin_create(pool, cfg);
	if (err)
		goto fail_zones;
	pool->slow = pool->debug || pool->ops || pool->nr_nodes > 1 ||
		     pool->kernel;
	pool->magic = PP_POOL_LIVE;
	pp_kasan_pool_add(pool);
	return pool;

fail_zones:
	ppk_pool_teardown(pool);
	pp_zones_teardown(pool, pool->nr_nodes);
	/* KASAN: a later mapping at this address must not inherit poison. */
	pp_kasan_unpoison_range(pool, 0, pool->nr_pages);
fail_mem_map:
	munmap(pool->mem_map, pool->map_bytes);
fail_arena:
	munmap(pool->map_base, pool->map_len);
fail_free:
	free(pool->cpu_node);
	free(pool);
	errno = -err;
	return NULL;
}

/*
 * The leak report: how many pages are out, and the first few pfns in
 * @state.
 */
static void pp_report_leak(const struct pp_pool *pool, unsigned long out,
			   const char *what, unsigned int state)
{
	unsigned long shown = 0;

	fprintf(stderr, "pagepool: destroy: %lu of %lu pages still %s "
		"(first pfns:", out, pool->nr_pages, what);
	for (unsigned long pfn = 0; pfn < pool->nr_pages &&
	     shown < PP_LEAK_PFNS_SHOWN; pfn++) {
		if (pp_page_state(&pool->mem_map[pfn]) == state) {
			fprintf(stderr, " 0x%lx", pfn);
			shown++;
		}
	}
	fprintf(stderr, "%s)\n", out > shown ? " ..." : "");
}

int pp_pool_destroy(struct pp_pool *pool)
{
	unsigned long nr_free;

	if (!pool)
		return 0;
	/*
	 * A second destroy is a use after free, the caller's bug, as a
	 * second kfree() is; it used to spin forever on a freed pcp lock.
	 * While the memory has not been reused the mark says what happened
	 * (the ASan build reports the heap-use-after-free first).
	 */
	if (unlikely(pool->magic != PP_POOL_LIVE))
		pp_bad_call("pp_pool_destroy", "%p is not a live pool (%s)",
			    (void *)pool, pool->magic == PP_POOL_DEAD ?
			    "destroyed already: a second destroy" :
			    "never created, or its memory reused");
	if (!pp_pool_buddy(pool)) {
		unsigned long out = 0;

		/* Nothing may be out before the backend goes: count pages. */
		for (unsigned long pfn = 0; pfn < pool->nr_pages; pfn++)
			if (pp_page_state(&pool->mem_map[pfn]) ==
			    PP_PAGE_INUSE)
				out += 1UL << pool->mem_map[pfn].order;
		if (out) {
			pp_report_leak(pool, out, "in use", PP_PAGE_INUSE);
			return -EBUSY;
		}
		if (pp_backend_destroy(pool))
			return -EBUSY;
	}
	pp_drain_all_pages(pool);
	nr_free = pp_pool_free(pool);
	if (nr_free != pool->nr_pages) {
		if (pool->backend_id == PP_BACKEND_BUDDY)
			pp_report_leak(pool, pool->nr_pages - nr_free,
				       "in use", PP_PAGE_INUSE);
		else
			pp_report_leak(pool, pool->nr_pages - nr_free,
				       "held by the backend", PP_PAGE_BACKEND);
		return -EBUSY;
	}
	pp_pool_unmap(pool);
	return 0;
}

unsigned int pp_pool_nr_nodes(const struct pp_pool *pool)
{
	return pool->nr_nodes;
}

int pp_pool_cpu_to_node(const struct pp_pool *pool, unsigned int cpu)
{
	return cpu < pool->nr_cpus ? pool->cpu_node[cpu] : -EINVAL;
}

int pp_pool_node_distance(const struct pp_pool *pool, unsigned int from,
			  unsigned int to)
{
	if (from >= pool->nr_nodes || to >= pool->nr_nodes)
		return -EINVAL;
	return pool->distance[from][to];
}

enum pp_backend pp_pool_backend(const struct pp_pool *pool)
{
	return (enum pp_backend)pool->backend_id;
}

static const char *const pp_backend_names[PP_NR_BACKENDS] = {
	[PP_BACKEND_BUDDY]	= "buddy",
	[PP_BACKEND_JEMALLOC]	= "jemalloc",
	[PP_BACKEND_PLUGIN]	= "plugin",
};

static const char *const pp_profile_names[PP_NR_PROFILES] = {
	[PP_PROFILE_LEAN]	= "lean",
	[PP_PROFILE_KERNEL]	= "kernel",
};

static const char *const pp_variant_names[PP_NR_BULK_VARIANTS] = {
	[PP_BULK_MERGED]		= "merged",
	[PP_BULK_STOP_AT_POPULATED]	= "stop-at-first-populated",
	[PP_BULK_BATCHED_STATS]		= "batched-stats",
	[PP_BULK_NO_SINGLE_FALLBACK]	= "no-single-fallback",
	[PP_BULK_PURE_OUTPUT]		= "pure-output",
};

/* @names[@i] of a table of @n names; "unknown" out of range. */
const char *pp_table_name(const char *const *names, unsigned int n,
			  unsigned int i)
{
	return i < n ? names[i] : "unknown";
}

/* The index of @name in a table of @n names, or -EINVAL (NULL too). */
int pp_table_index(const char *const *names, unsigned int n, const char *name)
{
	for (unsigned int i = 0; name && i < n; i++)
		if (!strcmp(name, names[i]))
			return (int)i;
	return -EINVAL;
}

/* pp_backend_name(), pp_backend_from_name() */
PP_NAME_LOOKUPS(pp_backend, enum pp_backend, pp_backend_names, PP_NR_BACKENDS)
/* pp_bulk_variant_name(), pp_bulk_variant_from_name() */
PP_NAME_LOOKUPS(pp_bulk_variant, enum pp_bulk_variant, pp_variant_names,
		PP_NR_BULK_VARIANTS)
/* pp_profile_name(), pp_profile_from_name() */
PP_NAME_LOOKUPS(pp_profile, enum pp_profile, pp_profile_names, PP_NR_PROFILES)

enum pp_profile pp_pool_profile(const struct pp_pool *pool)
{
	return pool->kernel ? PP_PROFILE_KERNEL : PP_PROFILE_LEAN;
}

bool pp_pool_debug_list(const struct pp_pool *pool)
{
	return pool->debug_list;
}
