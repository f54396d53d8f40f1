/* SPDX-License-Identifier: MIT */
/*
 * backend-lifo: a libpagepool backend plugin, built out of tree.
 *
 * A per-CPU LIFO of order-0 pages in front of the pool's zone, the
 * simplest allocator that shows the whole interface of
 * <pagepool/backend.h>: each CPU's stack is refilled with a block of
 * LIFO_BATCH pages taken from the zone at once when it runs empty, and
 * gives LIFO_BATCH pages back, from its cold end, when it reaches
 * LIFO_HIGH.  Blocks of higher order, and calls made without a pcp lock
 * (cpu == PP_BACKEND_NO_CPU), go straight to the zone, so the plugin
 * needs no lock of its own: libpagepool calls it for CPU c only with
 * CPU c's pcp lock held.
 *
 * Build: make (see Makefile; pkg-config must find pagepool.pc).
 * Use:   rpcsim --backend=plugin:./backend-lifo.so
 */
#include <errno.h>
#include <stdlib.h>

#include <pagepool/backend.h>

#define LIFO_BATCH_ORDER	5
#define LIFO_BATCH		(1U << LIFO_BATCH_ORDER)
#define LIFO_HIGH		(4 * LIFO_BATCH)

struct lifo_cpu {
	unsigned int count;
	struct pp_page *pages[LIFO_HIGH];
} __attribute__((aligned(64)));

struct lifo {
	unsigned int nr_cpus;
	struct lifo_cpu cpu[];
};

static int lifo_init(struct pp_pool *pool __attribute__((unused)),
		     unsigned int nr_cpus, void **priv)
{
	struct lifo *l = calloc(1, sizeof(*l) + nr_cpus * sizeof(l->cpu[0]));

	if (!l)
		return -ENOMEM;
	l->nr_cpus = nr_cpus;
	*priv = l;
	return 0;
}

/*
 * Refill an empty stack: the largest block up to LIFO_BATCH pages the zone
 * has.  Returns the pages pushed, 0 when the zone is empty.
 */
static unsigned int lifo_refill(struct pp_pool *pool, struct lifo_cpu *c)
{
	for (int order = LIFO_BATCH_ORDER; order >= 0; order--) {
		struct pp_page *block = pp_zone_take_pages(pool, order);

		if (!block)
			continue;
		/* Highest pfn pushed first: the block is handed out in order. */
		for (unsigned int i = 1U << order; i-- > 0;)
			c->pages[c->count++] = &block[i];
		return 1U << order;
	}
	return 0;
}

/* Give @nr pages from the cold end (the bottom) of @c back to the zone. */
static void lifo_shrink(struct pp_pool *pool, struct lifo_cpu *c,
			unsigned int nr)
{
	for (unsigned int i = 0; i < nr; i++)
		pp_zone_give_pages(pool, c->pages[i], 1);
	for (unsigned int i = nr; i < c->count; i++)
		c->pages[i - nr] = c->pages[i];
	c->count -= nr;
}

static struct pp_page *lifo_pop(struct pp_pool *pool, struct lifo_cpu *c)
{
	if (!c->count && !lifo_refill(pool, c))
		return NULL;
	return c->pages[--c->count];
}

static struct pp_page *lifo_alloc(struct pp_pool *pool, void *priv,
				  unsigned int cpu, unsigned int order)
{
	struct lifo *l = priv;

	if (order || cpu == PP_BACKEND_NO_CPU)
		return pp_zone_take_pages(pool, order);
	return lifo_pop(pool, &l->cpu[cpu]);
}

static unsigned long lifo_fill(struct pp_pool *pool, void *priv,
			       unsigned int cpu, struct pp_page **pages,
			       unsigned long nr)
{
	struct lifo_cpu *c = &((struct lifo *)priv)->cpu[cpu];
	unsigned long got = 0;

	while (got < nr && (pages[got] = lifo_pop(pool, c)))
		got++;
	return got;
}

static void lifo_free(struct pp_pool *pool, void *priv, unsigned int cpu,
		      struct pp_page *page, unsigned int order)
{
	struct lifo_cpu *c;

	if (order || cpu == PP_BACKEND_NO_CPU) {
		pp_zone_give_pages(pool, page, 1UL << order);
		return;
	}
	c = &((struct lifo *)priv)->cpu[cpu];
	c->pages[c->count++] = page;
	if (c->count == LIFO_HIGH)
		lifo_shrink(pool, c, LIFO_BATCH);
}

static void lifo_free_batch(struct pp_pool *pool, void *priv,
			    unsigned int cpu, struct pp_page **pages,
			    unsigned int nr)
{
	for (unsigned int i = 0; i < nr; i++)
		lifo_free(pool, priv, cpu, pages[i], 0);
}

/* Everything a stack holds back to the zone; nothing is shared. */
static void lifo_drain(struct pp_pool *pool, void *priv, unsigned int cpu)
{
	struct lifo *l = priv;

	if (cpu != PP_BACKEND_NO_CPU)
		lifo_shrink(pool, &l->cpu[cpu], l->cpu[cpu].count);
}

static void lifo_fini(struct pp_pool *pool, void *priv)
{
	struct lifo *l = priv;

	for (unsigned int cpu = 0; cpu < l->nr_cpus; cpu++)
		lifo_drain(pool, l, cpu);
	free(l);
}

const struct pp_backend_plugin pp_backend_plugin = {
	.abi_version	= PP_BACKEND_ABI_VERSION,
	.size		= sizeof(struct pp_backend_plugin),
	.name		= "lifo",
	.init		= lifo_init,
	.fini		= lifo_fini,
	.alloc		= lifo_alloc,
	.fill		= lifo_fill,
	.free		= lifo_free,
	.free_batch	= lifo_free_batch,
	.drain		= lifo_drain,
};
