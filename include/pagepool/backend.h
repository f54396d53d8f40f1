/* SPDX-License-Identifier: MIT */
/*
 * <pagepool/backend.h>: the interface of a backend plugin, an allocator of
 * one's own put behind libpagepool's three APIs (PP_BACKEND_PLUGIN,
 * pp_pool_config.backend_plugin, rpcsim and pagebench --backend=plugin:PATH).
 *
 * A plugin is a shared object that exports one table,
 *
 *	const struct pp_backend_plugin pp_backend_plugin = {
 *		.abi_version = PP_BACKEND_ABI_VERSION,
 *		.size = sizeof(struct pp_backend_plugin),
 *		.name = "mine",
 *		...
 *	};
 *
 * and pp_pool_create() loads it with dlopen().  A table whose abi_version
 * or size differ from the library's is refused (pp_pool_create() fails
 * with ENOTSUP, one line on stderr naming both versions).
 *
 * The plugin manages the pool's own pages: it takes them from the pool's
 * zone (the buddy allocator) with pp_zone_take_pages() and gives them back
 * with pp_zone_give_pages(), and hands out and takes back the pool's page
 * descriptors (struct pp_page).  The library keeps everything else around
 * it: the API contracts (NULL slots only, fallbacks, return values),
 * references, the debug checks and poisoning, GFP_ZERO, tracepoints,
 * vmstat counters and the leak check at pp_pool_destroy().  It checks each
 * page the plugin hands out: a pointer that is not one of the pool's
 * descriptors, a block not aligned to its order, a page the plugin does
 * not hold (in use already: handed out twice; or back in the zone), a
 * count above what was asked, are reported as the library reports a bad
 * page ("pagepool: BUG: ..."), naming the plugin, and abort().
 *
 * Locking.  The callbacks that take @cpu are called with that CPU's pcp
 * lock held (the pool runs the lock pcp implementation for a plugin), so
 * per-CPU state indexed by @cpu needs no lock of its own; @cpu is
 * PP_BACKEND_NO_CPU when the lock could not be had (a failed trylock) and
 * the plugin must then use state it guards itself, or the zone directly.
 * pp_zone_take_pages() and pp_zone_give_pages() take the zone lock, which
 * nests inside the pcp locks: call them from any callback.
 *
 * The page states (struct pp_page.state): pages the plugin holds are
 * PP_PAGE_BACKEND; the library makes a block PP_PAGE_INUSE when it hands
 * it to the caller and PP_PAGE_BACKEND again when the last reference goes
 * and it gives it to .free.  A plugin must not write a descriptor's
 * fields other than @lru, @private and @index while it holds the page
 * (they are its to use, as a free page's list linkage is the kernel
 * allocator's), nor the page's memory: in the ASan build (--enable-asan)
 * the pages a plugin holds are poisoned, as the buddy allocator's free
 * pages are, so that a use after free is reported where it happens.
 *
 * The built-in buddy and jemalloc backends are not described through this
 * table, because it would cost their fast paths.  Measured with
 * examples/backend-lifo, a per-CPU LIFO over the zone's pages (the buddy
 * backend's pcp job) as a plugin, against the buddy backend on the lock
 * pcp lists that every other backend runs (bench/plugin-cost.sh, make
 * bench-plugin; three interleaved pagebench runs on 2 shared vCPUs, load
 * 2-3): ns per page, alloc + free, 1.6-1.7x buddy's for single pages,
 * 2.0-2.1x for 64-page bulk lists, 2.9-3.1x for 64-page arrays.  In
 * instructions (callgrind, 20,000 calls of 64 pages): single 491 per
 * page against 246, array 155 against 60, list 172 against 71.  Of an
 * array's 95 more, about 29 are the library's checks of each page a
 * plugin hands out (a built-in backend is trusted and skips them), 32 the
 * plugin's own code and the rest the indirect calls and the generic
 * (not inline) paths around them.  jemalloc's backend also needs the pcp
 * lock held across calls into jemalloc, which this table does not
 * express.
 */
#ifndef PAGEPOOL_BACKEND_H
#define PAGEPOOL_BACKEND_H

#include <pagepool/pagepool.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * The version of struct pp_backend_plugin and of the calls below.  Raised
 * whenever a field is added, removed or changes meaning: a plugin built
 * against another version is refused, not guessed at.
 */
#define PP_BACKEND_ABI_VERSION	1

/* The symbol pp_pool_create() looks the table up by. */
#define PP_BACKEND_PLUGIN_SYMBOL	"pp_backend_plugin"

/* @cpu of a call made without a pcp lock. */
#define PP_BACKEND_NO_CPU	(~0U)

/**
 * struct pp_backend_plugin - what a plugin exports as pp_backend_plugin.
 * @abi_version: PP_BACKEND_ABI_VERSION of the header it was built with.
 * @size: sizeof(struct pp_backend_plugin) it was built with.
 * @name: a short name for messages ("lifo").
 * @init: a pool is created (its zone is full, nothing taken yet): set up
 *	the plugin's state for it and store it in *@priv.  @nr_cpus: the
 *	pcp lists, @cpu of the other calls is below it.  0 or -errno
 *	(pp_pool_create() fails with that errno).  A failing init gets no
 *	@fini: it gives back the pages it took and frees what it allocated
 *	itself; pages it keeps are reported on stderr (they go with the
 *	pool's arena).
 * @fini: the pool is destroyed, no page is out: give every page held back
 *	with pp_zone_give_pages() and free the state.  Pages still held
 *	afterwards make pp_pool_destroy() fail with EBUSY, reported as
 *	pages "held by the backend".
 * @alloc: one block of 2^@order pages (naturally aligned, as the buddy
 *	allocator's), its head descriptor; NULL when there is none.  The
 *	library retries once after @drain before it fails the call.
 * @fill: the bulk calls: up to @nr order-0 pages into @pages[0..@nr),
 *	returning how many (the first that many entries).  The library has
 *	already found the holes of the caller's array (only NULL entries are
 *	filled; @pages is a run of them) or gathers pages for the caller's
 *	list.  Optional: without it, @alloc once per page.
 * @free: a block whose last reference went, state PP_PAGE_BACKEND again:
 *	take it back.
 * @free_batch: @nr order-0 pages at once (pp_release_pages()).  Optional:
 *	without it, @free once per page.
 * @drain: give cached pages back to the zone: pp_pool_drain(), and the
 *	slow path before an allocation fails.  Called once per CPU with that
 *	CPU's lock held, for what the plugin keeps for that CPU, then once
 *	with PP_BACKEND_NO_CPU and no pcp lock, for what it keeps outside
 *	its per-CPU state (a cache every CPU shares, under a lock of its
 *	own; pages freed with PP_BACKEND_NO_CPU): pages kept there come
 *	back only on that call.  Optional.
 * @nr_held: pages the plugin holds and has not handed out (vmstat's
 *	nr_backend).  Optional: without it, the library counts the pages
 *	taken from the zone less those given back and those out.
 */
struct pp_backend_plugin {
	unsigned int abi_version;
	unsigned int size;
	const char *name;
	int (*init)(struct pp_pool *pool, unsigned int nr_cpus, void **priv);
	void (*fini)(struct pp_pool *pool, void *priv);
	struct pp_page *(*alloc)(struct pp_pool *pool, void *priv,
				 unsigned int cpu, unsigned int order);
	unsigned long (*fill)(struct pp_pool *pool, void *priv,
			      unsigned int cpu, struct pp_page **pages,
			      unsigned long nr);
	void (*free)(struct pp_pool *pool, void *priv, unsigned int cpu,
		     struct pp_page *page, unsigned int order);
	void (*free_batch)(struct pp_pool *pool, void *priv, unsigned int cpu,
			   struct pp_page **pages, unsigned int nr);
	void (*drain)(struct pp_pool *pool, void *priv, unsigned int cpu);
	unsigned long (*nr_held)(struct pp_pool *pool, void *priv);
};

/**
 * pp_zone_take_pages() - take a block from the pool's zone for a plugin
 * @pool: a pool whose backend is a plugin
 * @order: 0..PP_MAX_ORDER
 *
 * The block's 2^@order pages (aligned to their number) become the
 * plugin's, each an order-0 page in state PP_PAGE_BACKEND: hand them out
 * one by one or as blocks, give them back in any split.  No watermark
 * applies.  Counted as backend_grow and backend_grow_pages.
 *
 * Return: the first page's descriptor; or NULL with errno EINVAL for an
 * @order above PP_MAX_ORDER, ENOMEM when the zone has no such block (errno
 * is left alone on success).
 */
struct pp_page *pp_zone_take_pages(struct pp_pool *pool, unsigned int order);

/**
 * pp_zone_give_pages() - give @nr pages from @page on back to the zone
 * @pool: a pool whose backend is a plugin
 * @page: the first of @nr consecutive descriptors, each PP_PAGE_BACKEND
 * @nr: pages
 *
 * Any page that is not one of the pool's or that the plugin does not hold
 * is reported and aborts, as a bad free does.  Counted as backend_shrink
 * and backend_shrink_pages.
 */
void pp_zone_give_pages(struct pp_pool *pool, struct pp_page *page,
			unsigned long nr);

#ifdef __cplusplus
}
#endif

#endif /* PAGEPOOL_BACKEND_H */
