/* SPDX-License-Identifier: MIT */
/*
 * The plugin backend: an allocator of the user's own, loaded from a shared
 * object with dlopen(), behind the three APIs (<pagepool/backend.h> is its
 * interface).
 *
 * This file adapts the plugin's table (struct pp_backend_plugin) to the
 * library's struct pp_backend_ops, as jemalloc.c adapts jemalloc: the
 * API entry points keep the contracts, references, debug checks and
 * tracepoints; the adapter takes the pcp lock of this CPU around each
 * callback (the lock implementation always runs for a non-buddy backend),
 * prepares each page the plugin hands out (prep_new_page) and counts
 * PGALLOC and PGFREE.
 *
 * The plugin is not trusted: each block it hands out is checked before
 * anything is written to it (one of the pool's descriptors, aligned to
 * its order, held by the plugin: PP_PAGE_BACKEND), and a count above what
 * was asked is refused.  Those checks are what the built-in backends'
 * invariants guarantee by construction; they cost a compare or two per
 * page, next to an indirect call.  A failure is reported the way the
 * library reports a bad page, the call named with the plugin's name and
 * path.
 *
 * The pages the plugin holds are counted as they cross the zone
 * (pp_zone_take_pages(), pp_zone_give_pages()): nr_backend without the
 * plugin's help, and fini leaving pages behind is seen at destroy.
 */
#include "internal.h"

#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <pagepool/backend.h>

struct pp_plugin {
	const struct pp_backend_plugin *ops;
	void *priv;			/* the plugin's state for this pool */
	void *handle;			/* dlopen()'s */
	char *path;
	/* Pages taken from the zone and not given back. */
	_Atomic unsigned long held;
};

static struct pp_plugin *pp_plugin_of(const struct pp_pool *pool)
{
	return pool->backend;
}

/* --- the watch of the calling thread --------------------------------------- */

/*
 * The calling thread's, if it registered one (pp_plugin_watch_thread()).
 * Initial-exec: a load off the thread pointer, not a __tls_get_addr()
 * call on every callback (libpagepool is linked, not dlopen()ed; a word
 * fits the static TLS surplus if it ever is).
 */
static __thread struct pp_plugin_watch *pp_plugin_watch_tls
	__attribute__((tls_model("initial-exec")));

void pp_plugin_watch_thread(struct pp_plugin_watch *watch)
{
	if (watch) {
		__atomic_store_n(&watch->plugin, NULL, __ATOMIC_RELAXED);
		__atomic_store_n(&watch->callback, NULL, __ATOMIC_RELAXED);
	}
	pp_plugin_watch_tls = watch;
}

const char *pp_plugin_watch_read(const struct pp_plugin_watch *watch,
				 const char **plugin)
{
	const char *cb = __atomic_load_n(&watch->callback, __ATOMIC_ACQUIRE);

	if (cb && plugin)
		*plugin = __atomic_load_n(&watch->plugin, __ATOMIC_RELAXED);
	return cb;
}

/*
 * Around each callback: the thread's watch, if any, says which.  Plain
 * stores to the caller's memory: nothing next to the indirect call.
 */
static inline struct pp_plugin_watch *pp_plugin_enter(const struct pp_plugin *pl,
						      const char *callback)
{
	struct pp_plugin_watch *w = pp_plugin_watch_tls;

	if (w) {
		__atomic_store_n(&w->plugin, pl->path, __ATOMIC_RELAXED);
		__atomic_store_n(&w->callback, callback, __ATOMIC_RELEASE);
	}
	return w;
}

static inline void pp_plugin_leave(struct pp_plugin_watch *w)
{
	if (w)
		__atomic_store_n(&w->callback, NULL, __ATOMIC_RELEASE);
}

/* --- reports ------------------------------------------------------------- */

/* @call, with the plugin named: "pp_alloc_page (backend plugin x, path)". */
static const char *pp_plugin_call(const struct pp_pool *pool,
				  const char *call, char *buf, size_t len)
{
	const struct pp_plugin *pl = pp_plugin_of(pool);

	snprintf(buf, len, "%s (backend plugin %s, %s)", call, pl->ops->name,
		 pl->path);
	return buf;
}

__attribute__((noreturn, cold))
static void pp_plugin_bad_page(const struct pp_pool *pool,
			       const struct pp_page *page, const char *call,
			       const char *reason)
{
	char buf[512];

	pp_bad_page(pool, page, pp_plugin_call(pool, call, buf, sizeof(buf)),
		    reason);
}

__attribute__((noreturn, cold))
static void pp_plugin_bad_pointer(const struct pp_pool *pool,
				  const struct pp_page *page,
				  const char *call)
{
	char buf[512];

	pp_bad_pointer(pool, page, pp_plugin_call(pool, call, buf,
						  sizeof(buf)));
}

__attribute__((noreturn, cold))
static void pp_plugin_bad_count(const struct pp_pool *pool, const char *call,
				unsigned long got, unsigned long asked)
{
	char buf[512];

	pp_bad_call(pp_plugin_call(pool, call, buf, sizeof(buf)),
		    "the plugin returned %lu pages for %lu slots", got, asked);
}

/* Is @page one of @pool's descriptors, aligned to a block of @order? */
static bool pp_plugin_page_ok(const struct pp_pool *pool,
			      const struct pp_page *page, unsigned int order)
{
	uintptr_t off = (uintptr_t)page - (uintptr_t)pool->mem_map;

	return off < pool->map_bytes && !(off % sizeof(struct pp_page)) &&
	       !(pp_pfn(pool, page) & ((1UL << order) - 1)) &&
	       pp_pfn(pool, page) + (1UL << order) <= pool->nr_pages;
}

/*
 * A block the plugin hands out: one of ours, and the plugin's to give.
 * Each page of it must be PP_PAGE_BACKEND: in use means handed out twice,
 * anything else that the plugin does not hold it.
 */
static void pp_plugin_check(struct pp_pool *pool, struct pp_page *page,
			    unsigned int order, const char *call)
{
	if (unlikely(!pp_plugin_page_ok(pool, page, order))) {
		if (pp_plugin_page_ok(pool, page, 0))
			pp_plugin_bad_page(pool, page, call,
					   "the plugin handed out a block "
					   "not aligned to its order");
		pp_plugin_bad_pointer(pool, page, call);
	}
	for (unsigned long i = 0; i < (1UL << order); i++) {
		unsigned int state = pp_page_state(&page[i]);

		if (likely(state == PP_PAGE_BACKEND))
			continue;
		pp_plugin_bad_page(pool, &page[i], call,
				   state == PP_PAGE_INUSE ?
				   "the plugin handed out a page that is in "
				   "use (handed out twice)" :
				   "the plugin handed out a page it does "
				   "not hold");
	}
}

/* --- the zone, for the plugin --------------------------------------------- */

/* The calls of <pagepool/backend.h> are for plugin pools only. */
static struct pp_plugin *pp_plugin_pool(struct pp_pool *pool,
					const char *call)
{
	if (unlikely(pool->backend_id != PP_BACKEND_PLUGIN || !pool->backend))
		pp_bad_call(call, "pool %p has no backend plugin",
			    (void *)pool);
	return pool->backend;
}

struct pp_page *pp_zone_take_pages(struct pp_pool *pool, unsigned int order)
{
	struct pp_plugin *pl = pp_plugin_pool(pool, "pp_zone_take_pages");
	long pfn;

	if (order > PP_MAX_ORDER) {
		errno = EINVAL;
		return NULL;
	}
	pfn = pp_zone_alloc_range(pool, 1UL << order, 1UL << order);
	if (pfn < 0) {
		errno = ENOMEM;
		return NULL;
	}
	/*
	 * KASAN: free pages the plugin holds stay poisoned (ASan build), as
	 * the buddy's do on its lists; the hand-out unpoisons each
	 * (pp_prep_new_page()).  A plugin keeps descriptors, never page
	 * memory (<pagepool/backend.h>).
	 */
	pp_kasan_poison_range(pool, (unsigned long)pfn, 1UL << order);
	pp_backend_grow(pool, &pl->held, 1UL << order);
	return &pool->mem_map[pfn];
}

void pp_zone_give_pages(struct pp_pool *pool, struct pp_page *page,
			unsigned long nr)
{
	static const char call[] = "pp_zone_give_pages";
	struct pp_plugin *pl = pp_plugin_pool(pool, call);
	unsigned long pfn;

	if (!nr)
		return;
	if (unlikely(!pp_plugin_page_ok(pool, page, 0)))
		pp_plugin_bad_pointer(pool, page, call);
	pfn = pp_pfn(pool, page);
	if (unlikely(nr > pool->nr_pages - pfn))
		pp_plugin_bad_count(pool, call, nr, pool->nr_pages - pfn);
	/* Checked before any is freed: a bad page leaves the zone intact. */
	for (unsigned long i = 0; i < nr; i++)
		if (unlikely(pp_page_state(&page[i]) != PP_PAGE_BACKEND))
			pp_plugin_bad_page(pool, &page[i], call,
					   "the plugin gave back a page it "
					   "does not hold");
	pp_backend_shrink(pool, &pl->held, pfn, nr);
}

/* --- the backend ops -------------------------------------------------------- */

/* The CPU a callback is given: @pcp's, or none without a pcp. */
static inline unsigned int pp_plugin_cpu(const struct pp_pcp *pcp)
{
	return pcp ? pcp->cpu : PP_BACKEND_NO_CPU;
}

/* Every CPU's cache under its lock, then what the plugin keeps shared. */
static void pp_plugin_drain(struct pp_pool *pool)
{
	struct pp_plugin *pl = pp_plugin_of(pool);

	if (!pl->ops->drain)
		return;
	for (unsigned int cpu = 0; cpu < pool->nr_cpus; cpu++) {
		struct pp_pcp *pcp = &pool->zones[0].pcp[cpu];

		struct pp_plugin_watch *w;

		pp_pcp_lock_slow(pcp);
		w = pp_plugin_enter(pl, "drain");
		pl->ops->drain(pool, pl->priv, cpu);
		pp_plugin_leave(w);
		pp_pcp_unlock(pcp);
	}
	{
		struct pp_plugin_watch *w = pp_plugin_enter(pl, "drain");

		pl->ops->drain(pool, pl->priv, PP_BACKEND_NO_CPU);
		pp_plugin_leave(w);
	}
}

/* pp_backend_alloc_walk()'s get: a block from the plugin. */
static struct pp_page *pp_plugin_get(struct pp_pool *pool, struct pp_pcp *pcp,
				     struct pp_alloc_ctx *ac, const char *call)
{
	struct pp_plugin *pl = pp_plugin_of(pool);
	struct pp_plugin_watch *w = pp_plugin_enter(pl, "alloc");
	struct pp_page *page = pl->ops->alloc(pool, pl->priv,
					      pp_plugin_cpu(pcp), ac->order);

	pp_plugin_leave(w);
	if (page) {
		pp_plugin_check(pool, page, ac->order, call);
		pp_prep_new_page_checked(pool, page, ac->order, ac->gfp, call);
	}
	return page;
}

static struct pp_page *pp_plugin_alloc_pages(struct pp_pool *pool,
					     struct pp_alloc_ctx *ac,
					     const char *call)
{
	return pp_backend_alloc_walk(pool, ac, call, pp_plugin_get,
				     pp_plugin_drain);
}

/*
 * pp_backend_fill_walk()'s run: up to @nr order-0 pages from the plugin
 * into @slots (holes of the caller's array, or a buffer), each checked
 * and prepared; returns how many.
 */
static unsigned long pp_plugin_fill_run(struct pp_pool *pool,
					struct pp_pcp *pcp,
					const struct pp_bulk_req *req,
					struct pp_page **slots,
					unsigned long nr, unsigned int flags)
{
	struct pp_plugin *pl = pp_plugin_of(pool);
	struct pp_plugin_watch *w;
	unsigned long got = 0;

	if (pl->ops->fill) {
		w = pp_plugin_enter(pl, "fill");
		got = pl->ops->fill(pool, pl->priv, pcp->cpu, slots, nr);
		pp_plugin_leave(w);
		if (unlikely(got > nr))
			pp_plugin_bad_count(pool, req->call, got, nr);
		/* Slots past the count stay holes, whatever it wrote. */
		for (unsigned long k = got; k < nr; k++)
			slots[k] = NULL;
	} else {
		w = pp_plugin_enter(pl, "alloc");
		while (got < nr && (slots[got] = pl->ops->alloc(pool, pl->priv,
								pcp->cpu, 0)))
			got++;
		pp_plugin_leave(w);
	}
	for (unsigned long k = 0; k < got; k++) {
		pp_plugin_check(pool, slots[k], 0, req->call);
		pp_backend_prep_filled(pool, pcp, slots[k], req, flags);
	}
	return got;
}

static void pp_plugin_bulk_fill(struct pp_pool *pool, struct pp_pcp *pcp,
				const struct pp_bulk_req *req,
				struct pp_bulk_fill *f, unsigned int flags)
{
	pp_backend_fill_walk(pool, pcp, req, f, flags, pp_plugin_fill_run);
}

static void pp_plugin_free_pages(struct pp_pool *pool, struct pp_pcp *pcp,
				 struct pp_page *page, unsigned int order)
{
	struct pp_plugin *pl = pp_plugin_of(pool);
	struct pp_plugin_watch *w = pp_plugin_enter(pl, "free");

	pl->ops->free(pool, pl->priv, pp_plugin_cpu(pcp), page, order);
	pp_plugin_leave(w);
	pp_backend_count_free(pool, pcp, 1UL << order);
}

static void pp_plugin_free_batch(struct pp_pool *pool, struct pp_pcp *pcp,
				 struct pp_page **pages, unsigned int nr)
{
	struct pp_plugin *pl = pp_plugin_of(pool);
	struct pp_plugin_watch *w;

	if (!pl->ops->free_batch) {
		for (unsigned int i = 0; i < nr; i++)
			pp_plugin_free_pages(pool, pcp, pages[i], 0);
		return;
	}
	w = pp_plugin_enter(pl, "free_batch");
	pl->ops->free_batch(pool, pl->priv, pp_plugin_cpu(pcp), pages, nr);
	pp_plugin_leave(w);
	pp_backend_count_free(pool, pcp, nr);
}

static unsigned long pp_plugin_nr_held(struct pp_pool *pool,
				       uint64_t allocated)
{
	struct pp_plugin *pl = pp_plugin_of(pool);
	unsigned long held;

	if (pl->ops->nr_held) {
		struct pp_plugin_watch *w = pp_plugin_enter(pl, "nr_held");

		held = pl->ops->nr_held(pool, pl->priv);
		pp_plugin_leave(w);
		return held;
	}
	return pp_backend_held_free(&pl->held, allocated);
}

/* Unload; the plugin's state is gone already (or was never made). */
static void pp_plugin_unload(struct pp_plugin *pl)
{
	if (pl->handle)
		dlclose(pl->handle);
	free(pl->path);
	free(pl);
}

static int pp_plugin_destroy(struct pp_pool *pool)
{
	struct pp_plugin *pl = pp_plugin_of(pool);
	struct pp_plugin_watch *w;
	unsigned long held;

	w = pp_plugin_enter(pl, "fini");
	pl->ops->fini(pool, pl->priv);
	pp_plugin_leave(w);
	held = atomic_load_explicit(&pl->held, memory_order_relaxed);
	if (held) {
		/* pp_pool_destroy() names the pages: still PP_PAGE_BACKEND. */
		fprintf(stderr, "pagepool: destroy: backend plugin %s (%s) "
			"kept %lu pages after fini\n", pl->ops->name, pl->path,
			held);
		return -EBUSY;
	}
	pool->backend = NULL;
	pp_plugin_unload(pl);
	return 0;
}

static const struct pp_backend_ops pp_plugin_ops = {
	.alloc_pages	= pp_plugin_alloc_pages,
	.bulk_fill	= pp_plugin_bulk_fill,
	.free_pages	= pp_plugin_free_pages,
	.free_batch	= pp_plugin_free_batch,
	.drain		= pp_plugin_drain,
	.nr_held	= pp_plugin_nr_held,
	.destroy	= pp_plugin_destroy,
};

/* --- loading ------------------------------------------------------------------ */

/* The table of @pl->handle, checked; 0 or -errno, said on stderr. */
static int pp_plugin_lookup(struct pp_plugin *pl)
{
	const struct pp_backend_plugin *t;

	dlerror();
	t = dlsym(pl->handle, PP_BACKEND_PLUGIN_SYMBOL);
	if (!t) {
		const char *why = dlerror();

		fprintf(stderr, "pagepool: backend plugin %s: no symbol %s "
			"(%s)\n", pl->path, PP_BACKEND_PLUGIN_SYMBOL,
			why ? why : "it is NULL");
		return -ENOENT;
	}
	if (t->abi_version != PP_BACKEND_ABI_VERSION ||
	    t->size != sizeof(*t)) {
		fprintf(stderr, "pagepool: backend plugin %s: ABI version %u "
			"(table of %u bytes), this libpagepool has ABI version "
			"%u (table of %zu bytes): rebuild the plugin against "
			"this <pagepool/backend.h>\n", pl->path,
			t->abi_version, t->size, PP_BACKEND_ABI_VERSION,
			sizeof(*t));
		return -ENOTSUP;
	}
	if (!t->name || !t->init || !t->fini || !t->alloc || !t->free) {
		fprintf(stderr, "pagepool: backend plugin %s: its table lacks "
			"one of name, init, fini, alloc, free\n", pl->path);
		return -EINVAL;
	}
	pl->ops = t;
	return 0;
}

int pp_plugin_create(struct pp_pool *pool, const struct pp_pool_config *cfg)
{
	struct pp_plugin_watch *w;
	struct pp_plugin *pl;
	int err;

	if (!cfg->backend_plugin || !cfg->backend_plugin[0]) {
		fprintf(stderr, "pagepool: the plugin backend needs "
			"pp_pool_config.backend_plugin, the plugin's path\n");
		return -EINVAL;
	}
	pl = calloc(1, sizeof(*pl));
	if (!pl || !(pl->path = strdup(cfg->backend_plugin))) {
		free(pl);
		return -ENOMEM;
	}
	/* RTLD_LOCAL: two pools may load two plugins of the same symbols. */
	pl->handle = dlopen(pl->path, RTLD_NOW | RTLD_LOCAL);
	if (!pl->handle) {
		fprintf(stderr, "pagepool: backend plugin %s: %s\n", pl->path,
			dlerror());
		err = -ENOENT;
		goto fail;
	}
	err = pp_plugin_lookup(pl);
	if (err)
		goto fail;
	/* Before init: it may take pages from the zone already. */
	pool->backend = pl;
	w = pp_plugin_enter(pl, "init");
	err = pl->ops->init(pool, pool->nr_cpus, &pl->priv);
	pp_plugin_leave(w);
	if (err) {
		unsigned long held = atomic_load_explicit(&pl->held,
							  memory_order_relaxed);

		fprintf(stderr, "pagepool: backend plugin %s (%s): init: %s\n",
			pl->ops->name, pl->path, strerror(-err));
		/*
		 * No fini follows a failed init: what it took is lost to the
		 * plugin.  The pages go with the arena, but say so, as the
		 * leak it would be in a longer-lived zone.
		 */
		if (held)
			fprintf(stderr, "pagepool: backend plugin %s (%s): "
				"init failed and kept %lu pages taken from the "
				"zone: a failing init must give them back\n",
				pl->ops->name, pl->path, held);
		pool->backend = NULL;
		goto fail;
	}
	pool->ops = &pp_plugin_ops;
	return 0;

fail:
	pp_plugin_unload(pl);
	return err;
}
