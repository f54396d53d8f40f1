/* SPDX-License-Identifier: MIT */
/*
 * The jemalloc backend: a jemalloc 5.3 arena of the pool's own behind the
 * three allocation APIs.
 *
 * The arena is created with extent hooks (arenas.create), so every byte it
 * hands out comes from the pool's arena: the hooks take runs of pages from
 * the buddy allocator (pp_zone_alloc_range(), the alloc_pages_exact()
 * analogue) and give any sub-range back (pp_zone_free_range()).  Page
 * descriptors, pfns and pp_virt_to_page() therefore keep working, and the
 * pool's leak check still sees every page.
 *
 *   single page   mallocx(4096, MALLOCX_ARENA(a) | tcache)
 *   bulk          the experimental.batch_alloc mallctl (looked up once),
 *                 into each run of NULL slots, or one mallocx() per page
 *   last put      sdallocx(addr, 4096 << order, same flags)
 *
 * Thread caches.  jemalloc's automatic thread cache is shared by every
 * arena a thread uses: a page freed there could come back out of a plain
 * malloc(4096) of the process, and a malloc'd buffer could come back as a
 * "page" of the pool.  So the backend never uses it: each CPU gets an
 * explicit tcache (tcache.create) used only under that CPU's pcp lock (an
 * explicit tcache must not be used by two threads at once), or none at all
 * (MALLOCX_TCACHE_NONE) when the pcp trylock fails or the pool was built
 * with je_tcache off.
 *
 * What 4 KiB costs in jemalloc 5.3: that size class has one region per
 * slab (arenas.bin.<i>.nregs = 1), so batch_alloc fills every page from a
 * fresh slab (arena_fill_small_fresh()) and never from the thread cache;
 * and the cache holds 20 pages of that class by default, so frees beyond
 * 20 in a row go back to the arena.  Both are jemalloc's behaviour and are
 * left visible: je_batch_alloc off puts one mallocx() per page instead,
 * MALLOC_CONF=tcache_nslots_small_min:N,tcache_nslots_small_max:N sizes
 * the cache (pp_jemalloc_tcache_slots() reports it).
 *
 * The hooks never call jemalloc or malloc, and take only the zone lock,
 * which nests inside a pcp lock everywhere in libpagepool.
 */
#include "internal.h"

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef HAVE_JEMALLOC
#include <jemalloc/jemalloc.h>

/* The pages a hook may be asked for at once, retained extents included. */
#define PP_JE_GROW_LIMIT	((size_t)PP_PAGE_SIZE << PP_MAX_ORDER)

/*
 * experimental.batch_alloc's argument, as jemalloc 5.3's src/ctl.c reads it
 * (the layout is not in a public header).
 */
struct pp_je_batch_packet {
	void **ptrs;
	size_t num;
	size_t size;
	int flags;
};

struct pp_je {
	extent_hooks_t hooks;		/* first: the hooks find us from it */
	struct pp_pool *pool;
	unsigned int arena;
	bool tcache_on;
	bool batch;
	int flags_none;			/* arena, no tcache */
	int *flags_cpu;			/* arena + that CPU's tcache */
	unsigned int *tcache;		/* per CPU, when tcache_on */
	size_t batch_mib[4], batch_miblen;
	size_t purge_mib[4], purge_miblen;
	/* Pages the hooks took from the zone and have not given back. */
	_Atomic unsigned long held;
};

static struct pp_je *pp_je_of(extent_hooks_t *hooks)
{
	return (struct pp_je *)((char *)hooks - offsetof(struct pp_je, hooks));
}

static struct pp_je *pp_je_pool(const struct pp_pool *pool)
{
	return pool->backend;
}

/* --- extent hooks: the arena's memory comes from the buddy allocator ----- */

static void *pp_je_extent_alloc(extent_hooks_t *hooks, void *new_addr,
				size_t size, size_t alignment, bool *zero,
				bool *commit, unsigned int arena_ind)
{
	struct pp_je *je = pp_je_of(hooks);
	struct pp_pool *pool = je->pool;
	unsigned long nr = size >> PP_PAGE_SHIFT;
	unsigned long align = alignment >> PP_PAGE_SHIFT;
	char *addr;
	long pfn;

	/* Growing an extent in place: we cannot promise the next pages. */
	if (new_addr || !nr || (size & (PP_PAGE_SIZE - 1)))
		return NULL;
	pfn = pp_zone_alloc_range(pool, nr, align ? align : 1);
	if (pfn < 0)
		return NULL;
	pp_backend_grow(pool, &je->held, nr);
	addr = pool->arena + ((unsigned long)pfn << PP_PAGE_SHIFT);
	if (*zero)
		memset(addr, 0, size);
	*commit = true;
	return addr;
}

/* Any sub-range of what the hooks handed out, as jemalloc split it. */
static void pp_je_extent_return(struct pp_je *je, void *addr, size_t size)
{
	struct pp_pool *pool = je->pool;
	unsigned long pfn = (unsigned long)((char *)addr - pool->arena) >>
			    PP_PAGE_SHIFT;
	unsigned long nr = size >> PP_PAGE_SHIFT;

	if ((char *)addr < pool->arena ||
	    pfn + nr > pool->nr_pages || (size & (PP_PAGE_SIZE - 1)))
		pp_die("jemalloc gave back %p+%zu, not in the arena", addr,
		       size);
	pp_backend_shrink(pool, &je->held, pfn, nr);
}

static bool pp_je_extent_dalloc(extent_hooks_t *hooks, void *addr,
				size_t size, bool committed,
				unsigned int arena_ind)
{
	pp_je_extent_return(pp_je_of(hooks), addr, size);
	return false;
}

static void pp_je_extent_destroy(extent_hooks_t *hooks, void *addr,
				 size_t size, bool committed,
				 unsigned int arena_ind)
{
	pp_je_extent_return(pp_je_of(hooks), addr, size);
}

/* The pool's memory is always committed: nothing to do. */
static bool pp_je_extent_commit(extent_hooks_t *hooks, void *addr,
				size_t size, size_t offset, size_t length,
				unsigned int arena_ind)
{
	return false;
}

/* Any page range of the arena can be split and merged. */
static bool pp_je_extent_split(extent_hooks_t *hooks, void *addr,
			       size_t size, size_t size_a, size_t size_b,
			       bool committed, unsigned int arena_ind)
{
	return false;
}

static bool pp_je_extent_merge(extent_hooks_t *hooks, void *addr_a,
			       size_t size_a, void *addr_b, size_t size_b,
			       bool committed, unsigned int arena_ind)
{
	return false;
}

/* --- jemalloc calls --------------------------------------------------------- */

static int pp_je_flags(const struct pp_je *je, const struct pp_pcp *pcp,
		       unsigned int order)
{
	int flags = pcp ? je->flags_cpu[pcp->cpu] : je->flags_none;

	/* Blocks are aligned to their size, as the buddy allocator's are. */
	if (order)
		flags |= MALLOCX_LG_ALIGN(PP_PAGE_SHIFT + order);
	return flags;
}

/* The page of a pointer jemalloc returned: it must be one of ours. */
static struct pp_page *pp_je_page(struct pp_pool *pool, void *addr,
				  unsigned int order)
{
	uintptr_t off = (uintptr_t)addr - (uintptr_t)pool->arena;

	if (unlikely(off >= pool->arena_bytes ||
		     (off & ((PP_PAGE_SIZE << order) - 1))))
		pp_die("jemalloc returned %p for an order-%u block, not an "
		       "aligned block of the arena %p", addr, order,
		       (void *)pool->arena);
	return &pool->mem_map[off >> PP_PAGE_SHIFT];
}

/* Up to @n 4 KiB regions into @ptrs; returns how many. */
static size_t pp_je_batch(struct pp_je *je, void **ptrs, size_t n, int flags)
{
	struct pp_je_batch_packet pk = {
		.ptrs = ptrs, .num = n, .size = PP_PAGE_SIZE, .flags = flags,
	};
	size_t filled = 0, len = sizeof(filled);

	if (!je->batch) {
		/* A failed mallocx() must not write its NULL over an entry. */
		for (void *p; filled < n &&
		     (p = mallocx(PP_PAGE_SIZE, flags)); filled++)
			ptrs[filled] = p;
		return filled;
	}
	if (mallctlbymib(je->batch_mib, je->batch_miblen, &filled, &len, &pk,
			 sizeof(pk)))
		return 0;
	return filled;
}

/*
 * Flush every CPU's thread cache (each under its pcp lock, which guards
 * it) and purge the arena: the extents jemalloc keeps unused go back to
 * the zone through the dalloc hook.
 */
static void pp_je_drain(struct pp_pool *pool)
{
	struct pp_je *je = pp_je_pool(pool);

	for (unsigned int cpu = 0; je->tcache_on && cpu < pool->nr_cpus;
	     cpu++) {
		struct pp_pcp *pcp = &pool->zones[0].pcp[cpu];

		pp_pcp_lock_slow(pcp);
		if (mallctl("tcache.flush", NULL, NULL, &je->tcache[cpu],
			    sizeof(je->tcache[cpu])))
			pp_die("mallctl tcache.flush %u failed",
			       je->tcache[cpu]);
		pp_pcp_unlock(pcp);
	}
	if (mallctlbymib(je->purge_mib, je->purge_miblen, NULL, NULL, NULL, 0))
		pp_die("mallctl arena.%u.purge failed", je->arena);
}

/* --- the backend ops -------------------------------------------------------- */

/*
 * pp_backend_alloc_walk()'s get: a block from the arena, through this
 * CPU's thread cache when @pcp is given.
 */
static struct pp_page *pp_je_get(struct pp_pool *pool, struct pp_pcp *pcp,
				 struct pp_alloc_ctx *ac, const char *call)
{
	struct pp_je *je = pp_je_pool(pool);
	void *addr = mallocx(PP_PAGE_SIZE << ac->order,
			     pp_je_flags(je, pcp, ac->order));
	struct pp_page *page;

	if (unlikely(!addr))
		return NULL;
	page = pp_je_page(pool, addr, ac->order);
	pp_prep_new_page_checked(pool, page, ac->order, ac->gfp, call);
	return page;
}

/*
 * The slow path's drain (pp_je_drain()): pages may sit in other CPUs'
 * thread caches or in the arena's dirty extents.
 */
static struct pp_page *pp_je_alloc_pages(struct pp_pool *pool,
					 struct pp_alloc_ctx *ac,
					 const char *call)
{
	return pp_backend_alloc_walk(pool, ac, call, pp_je_get, pp_je_drain);
}

/* The descriptor of slot @slot, which holds the address jemalloc wrote. */
static struct pp_page *pp_je_slot_page(struct pp_pool *pool,
				       struct pp_page **slot)
{
	void *addr;

	memcpy(&addr, slot, sizeof(addr));
	return pp_je_page(pool, addr, 0);
}

/*
 * pp_backend_fill_walk()'s run: a batch from jemalloc written into @slots,
 * each address then turned into its page, checked and prepared in place.
 */
static unsigned long pp_je_fill_run(struct pp_pool *pool, struct pp_pcp *pcp,
				    const struct pp_bulk_req *req,
				    struct pp_page **slots, unsigned long nr,
				    unsigned int flags)
{
	struct pp_je *je = pp_je_pool(pool);
	size_t got = pp_je_batch(je, (void **)slots, nr,
				 pp_je_flags(je, pcp, 0));

	for (size_t k = 0; k < got; k++) {
		struct pp_page *page = pp_je_slot_page(pool, slots + k);

		pp_backend_prep_filled(pool, pcp, page, req, flags);
		slots[k] = page;
	}
	return got;
}

static void pp_je_bulk_fill(struct pp_pool *pool, struct pp_pcp *pcp,
			    const struct pp_bulk_req *req,
			    struct pp_bulk_fill *f, unsigned int flags)
{
	pp_backend_fill_walk(pool, pcp, req, f, flags, pp_je_fill_run);
}

static void pp_je_free_pages(struct pp_pool *pool, struct pp_pcp *pcp,
			     struct pp_page *page, unsigned int order)
{
	struct pp_je *je = pp_je_pool(pool);

	sdallocx(pool->arena + (pp_pfn(pool, page) << PP_PAGE_SHIFT),
		 PP_PAGE_SIZE << order, pp_je_flags(je, pcp, order));
	pp_backend_count_free(pool, pcp, 1UL << order);
}

static unsigned long pp_je_nr_held(struct pp_pool *pool, uint64_t allocated)
{
	return pp_backend_held_free(&pp_je_pool(pool)->held, allocated);
}

/* Thread caches, then the arena: every extent comes back via the hooks. */
static int pp_je_teardown(struct pp_je *je, unsigned int nr_tcaches,
			  bool arena)
{
	char name[64];
	int err = 0;

	for (unsigned int cpu = 0; cpu < nr_tcaches; cpu++)
		if (mallctl("tcache.destroy", NULL, NULL, &je->tcache[cpu],
			    sizeof(je->tcache[cpu])))
			err = -EBUSY;
	if (arena) {
		snprintf(name, sizeof(name), "arena.%u.destroy", je->arena);
		if (mallctl(name, NULL, NULL, NULL, 0)) {
			fprintf(stderr, "pagepool: mallctl %s failed\n", name);
			err = -EBUSY;
		}
	}
	return err;
}

static int pp_je_destroy(struct pp_pool *pool)
{
	struct pp_je *je = pp_je_pool(pool);
	int err = pp_je_teardown(je, je->tcache_on ? pool->nr_cpus : 0, true);

	if (err)
		return err;
	free(je->flags_cpu);
	free(je->tcache);
	free(je);
	pool->backend = NULL;
	return 0;
}

static const struct pp_backend_ops pp_je_ops = {
	.alloc_pages	= pp_je_alloc_pages,
	.bulk_fill	= pp_je_bulk_fill,
	.free_pages	= pp_je_free_pages,
	.drain		= pp_je_drain,
	.nr_held	= pp_je_nr_held,
	.destroy	= pp_je_destroy,
};

/* --- setup ------------------------------------------------------------------ */

/* Read an option or statistic; 0 or -errno. */
static int pp_je_read(const char *name, void *out, size_t len)
{
	size_t got = len;
	int err = mallctl(name, out, &got, NULL, 0);

	if (err)
		return -err;
	return got == len ? 0 : -EINVAL;
}

/* The bin of the 4 KiB class, and its regions per slab. */
static int pp_je_page_bin(unsigned int *bin, uint32_t *nregs)
{
	unsigned int nbins;
	char name[64];
	int err = pp_je_read("arenas.nbins", &nbins, sizeof(nbins));

	for (unsigned int i = 0; !err && i < nbins; i++) {
		size_t size;

		snprintf(name, sizeof(name), "arenas.bin.%u.size", i);
		err = pp_je_read(name, &size, sizeof(size));
		if (err || size != PP_PAGE_SIZE)
			continue;
		snprintf(name, sizeof(name), "arenas.bin.%u.nregs", i);
		*bin = i;
		return pp_je_read(name, nregs, sizeof(*nregs));
	}
	return err ? err : -ENOENT;
}

long pp_jemalloc_tcache_slots(void)
{
	unsigned int min, max, bin;
	ssize_t lg_mul;
	size_t tcache_max;
	uint32_t nregs;
	unsigned long slots;
	bool on;
	int err;

	err = pp_je_read("opt.tcache", &on, sizeof(on));
	if (!err && !on)
		return 0;
	if (!err)
		err = pp_je_read("opt.tcache_max", &tcache_max,
				 sizeof(tcache_max));
	if (!err && tcache_max < PP_PAGE_SIZE)
		return 0;
	if (!err)
		err = pp_je_read("opt.tcache_nslots_small_min", &min,
				 sizeof(min));
	if (!err)
		err = pp_je_read("opt.tcache_nslots_small_max", &max,
				 sizeof(max));
	if (!err)
		err = pp_je_read("opt.lg_tcache_nslots_mul", &lg_mul,
				 sizeof(lg_mul));
	if (!err)
		err = pp_je_page_bin(&bin, &nregs);
	if (err)
		return err;
	/*
	 * jemalloc 5.3's rule (tcache_ncached_max_compute()): min and max
	 * made even, at least 2, max at most the 16-bit bin capacity, min at
	 * most max; the candidate nregs << lg_mul (>> for a negative mul),
	 * made even, clamped to [min, max].
	 */
	if (max > 65535)
		max = 65535;
	min += min & 1;
	max -= max & 1;
	if (min < 2)
		min = 2;
	if (max < 2)
		max = 2;
	if (min > max)
		min = max;
	slots = lg_mul < 0 ? (unsigned long)nregs >> -lg_mul :
			     (unsigned long)nregs << lg_mul;
	slots += slots & 1;
	if (slots < min)
		slots = min;
	if (slots > max)
		slots = max;
	return (long)slots;
}

/*
 * The new arena's settings and the controls the hot paths call by MIB:
 * retained memory grows by at most the largest block, so that the hooks'
 * extents come from one buddy block (metadata blocks may still be larger:
 * pp_zone_alloc_range() finds runs of largest blocks); batch_alloc's and
 * the arena's purge MIBs.  0 or -errno.
 */
static int pp_je_arena_setup(struct pp_je *je)
{
	size_t limit = PP_JE_GROW_LIMIT;
	char name[64];
	int err;

	snprintf(name, sizeof(name), "arena.%u.retain_grow_limit", je->arena);
	err = -mallctl(name, NULL, NULL, &limit, sizeof(limit));
	if (!err) {
		je->batch_miblen = sizeof(je->batch_mib) /
				   sizeof(je->batch_mib[0]);
		err = -mallctlnametomib("experimental.batch_alloc",
					je->batch_mib, &je->batch_miblen);
	}
	if (!err) {
		snprintf(name, sizeof(name), "arena.%u.purge", je->arena);
		je->purge_miblen = sizeof(je->purge_mib) /
				   sizeof(je->purge_mib[0]);
		err = -mallctlnametomib(name, je->purge_mib,
					&je->purge_miblen);
	}
	return err;
}

/*
 * Each CPU's mallocx() flags, with a thread cache of its own when
 * je_tcache asks for one; *@nr_tcaches counts those created, for the
 * teardown.  0 or -errno.
 */
static int pp_je_cpu_setup(struct pp_pool *pool, struct pp_je *je,
			   unsigned int *nr_tcaches)
{
	for (unsigned int cpu = 0; cpu < pool->nr_cpus; cpu++) {
		size_t len = sizeof(je->tcache[cpu]);
		int err;

		je->flags_cpu[cpu] = je->flags_none;
		if (!je->tcache_on)
			continue;
		err = -mallctl("tcache.create", &je->tcache[cpu], &len, NULL,
			       0);
		if (err)
			return err;
		(*nr_tcaches)++;
		je->flags_cpu[cpu] = MALLOCX_ARENA(je->arena) |
				     MALLOCX_TCACHE(je->tcache[cpu]);
	}
	return 0;
}

int pp_je_create(struct pp_pool *pool, const struct pp_pool_config *cfg)
{
	extent_hooks_t *hooks;
	unsigned int nr_tcaches = 0;
	size_t page, len;
	struct pp_je *je;
	int err;

	/* Our pages are jemalloc's pages: the sizes must agree. */
	err = pp_je_read("arenas.page", &page, sizeof(page));
	if (err)
		return err;
	if (page != PP_PAGE_SIZE)
		return -ENOTSUP;
	if (cfg->je_tcache_slots && cfg->je_tcache &&
	    pp_jemalloc_tcache_slots() != (long)cfg->je_tcache_slots)
		return -EINVAL;

	je = calloc(1, sizeof(*je));
	if (!je)
		return -ENOMEM;
	je->pool = pool;
	je->tcache_on = cfg->je_tcache;
	je->batch = cfg->je_batch_alloc;
	je->flags_cpu = calloc(pool->nr_cpus, sizeof(*je->flags_cpu));
	je->tcache = calloc(pool->nr_cpus, sizeof(*je->tcache));
	if (!je->flags_cpu || !je->tcache) {
		err = -ENOMEM;
		goto fail;
	}
	je->hooks = (extent_hooks_t){
		.alloc		= pp_je_extent_alloc,
		.dalloc		= pp_je_extent_dalloc,
		.destroy	= pp_je_extent_destroy,
		.commit		= pp_je_extent_commit,
		.split		= pp_je_extent_split,
		.merge		= pp_je_extent_merge,
	};
	/* Before any call that can reach the hooks. */
	pool->backend = je;

	hooks = &je->hooks;
	len = sizeof(je->arena);
	err = mallctl("arenas.create", &je->arena, &len, &hooks,
		      sizeof(hooks));
	if (err) {
		/*
		 * jemalloc says EAGAIN or EFAULT when the arena's first
		 * metadata block (2 MiB, 2 MiB-aligned) could not be had
		 * from the pool: out of memory, for the caller.
		 */
		err = -ENOMEM;
		goto fail;
	}
	err = pp_je_arena_setup(je);
	je->flags_none = MALLOCX_ARENA(je->arena) | MALLOCX_TCACHE_NONE;
	if (!err)
		err = pp_je_cpu_setup(pool, je, &nr_tcaches);
	if (err) {
		pp_je_teardown(je, nr_tcaches, true);
		goto fail;
	}
	pool->ops = &pp_je_ops;
	return 0;

fail:
	pool->backend = NULL;
	free(je->flags_cpu);
	free(je->tcache);
	free(je);
	return err;
}

#else /* !HAVE_JEMALLOC */

/*
 * ./configure --without-jemalloc: the backend is not built and libpagepool
 * does not link jemalloc.  The names stay (pp_backend_from_name() knows
 * "jemalloc"), so a program asking for it is told why it cannot have it.
 */
int pp_je_create(struct pp_pool *pool, const struct pp_pool_config *cfg)
{
	return -EOPNOTSUPP;
}

long pp_jemalloc_tcache_slots(void)
{
	return -EOPNOTSUPP;
}

#endif /* HAVE_JEMALLOC */
