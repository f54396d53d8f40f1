/* SPDX-License-Identifier: MIT */
/*
 * A backend plugin for unit/test_plugin, the adapter's own checks
 * (alloc/plugin.c).
 *
 * Its cache is shared by every CPU: order-0 pages freed go onto one list
 * under a mutex of its own, whatever the CPU, and order-0 allocations take
 * from it before the zone.  The cache goes back to the zone only when
 * drain is called with PP_BACKEND_NO_CPU (and at fini): the per-CPU
 * drains have nothing to give, so pp_pool_drain() and the slow path
 * before an allocation fails must call that one too.  Blocks above order
 * 0 come from the zone and go straight back to it.
 *
 * PP_SHARED_PLUGIN=misaligned (environment, read by init): a block of
 * order 1 or more is handed out one page past its alignment, the second
 * page of a block of the next order taken from the zone (its pfn is odd),
 * for the library to refuse.
 */
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <pagepool/backend.h>

struct shared {
	pthread_mutex_t lock;
	struct pp_list_head cache;	/* order-0 pages, through their lru */
	bool misaligned;
};

/* A pthread call that failed: say which and abort, as the library does. */
static void shared_check(int err, const char *call)
{
	if (err) {
		fprintf(stderr, "backend-shared: %s: %s\n", call,
			strerror(err));
		abort();
	}
}

static void shared_lock(struct shared *s)
{
	shared_check(pthread_mutex_lock(&s->lock), "pthread_mutex_lock");
}

static void shared_unlock(struct shared *s)
{
	shared_check(pthread_mutex_unlock(&s->lock), "pthread_mutex_unlock");
}

static int shared_init(struct pp_pool *pool, unsigned int nr_cpus,
		       void **priv)
{
	const char *mode = getenv("PP_SHARED_PLUGIN");
	struct shared *s;
	int err;

	(void)pool;
	(void)nr_cpus;
	if (mode && *mode && strcmp(mode, "misaligned"))
		return -EINVAL;
	s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	err = pthread_mutex_init(&s->lock, NULL);
	if (err) {
		free(s);
		return -err;
	}
	pp_list_init(&s->cache);
	s->misaligned = mode && *mode;
	*priv = s;
	return 0;
}

static struct pp_page *shared_alloc(struct pp_pool *pool, void *priv,
				    unsigned int cpu, unsigned int order)
{
	struct shared *s = priv;
	struct pp_page *page;

	(void)cpu;
	if (order) {
		if (!s->misaligned)
			return pp_zone_take_pages(pool, order);
		page = order < PP_MAX_ORDER ?
		       pp_zone_take_pages(pool, order + 1) : NULL;
		return page ? page + 1 : NULL;
	}
	shared_lock(s);
	page = pp_list_pop_page(&s->cache);
	shared_unlock(s);
	return page ? page : pp_zone_take_pages(pool, 0);
}

static void shared_free(struct pp_pool *pool, void *priv, unsigned int cpu,
			struct pp_page *page, unsigned int order)
{
	struct shared *s = priv;

	(void)cpu;
	if (order) {
		pp_zone_give_pages(pool, page, 1UL << order);
		return;
	}
	shared_lock(s);
	pp_list_add(&page->lru, &s->cache);
	shared_unlock(s);
}

/*
 * Nothing per CPU; with PP_BACKEND_NO_CPU, the whole cache back to the
 * zone (the zone lock nests inside the cache's).
 */
static void shared_drain(struct pp_pool *pool, void *priv, unsigned int cpu)
{
	struct shared *s = priv;
	struct pp_page *page;

	if (cpu != PP_BACKEND_NO_CPU)
		return;
	shared_lock(s);
	while ((page = pp_list_pop_page(&s->cache)))
		pp_zone_give_pages(pool, page, 1);
	shared_unlock(s);
}

static void shared_fini(struct pp_pool *pool, void *priv)
{
	struct shared *s = priv;

	shared_drain(pool, s, PP_BACKEND_NO_CPU);
	shared_check(pthread_mutex_destroy(&s->lock), "pthread_mutex_destroy");
	free(s);
}

const struct pp_backend_plugin pp_backend_plugin = {
	.abi_version	= PP_BACKEND_ABI_VERSION,
	.size		= sizeof(struct pp_backend_plugin),
	.name		= "shared",
	.init		= shared_init,
	.fini		= shared_fini,
	.alloc		= shared_alloc,
	.free		= shared_free,
	.drain		= shared_drain,
};
