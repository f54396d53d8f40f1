/* SPDX-License-Identifier: MIT */
/*
 * A deliberately wrong backend plugin for tests/install/test_plugin.sh:
 * what libpagepool must catch and name instead of handing out.
 *
 * PP_BAD_PLUGIN (environment) picks the mistake of the bulk fill:
 *   twice    the same page in two slots (a page handed out twice)
 *   outside  a pointer that is not one of the pool's descriptors
 *   count    one page more than the slots it was given
 *   keep     (a free, not a fill) freed pages kept past fini: a leak
 *   initfail (init, not a fill) init takes pages, then fails without
 *            giving them back
 *   block    alloc and fill never return, in any thread but the one that
 *            ran init (which fills rpcsim's page cache): a plugin that
 *            hangs, for rpcsim's watchdog (tests/rpcsim/test_plugin.sh)
 *   block-all  alloc and fill never return, in any thread
 *   lie      nr_held claims 226 pages more than the plugin holds (none:
 *            every free goes back to the zone)
 *   scribble a fill that takes every slot's page, gives the last back to
 *            the zone and says one page fewer, its pointer left in the
 *            slot past the count (which must stay a hole)
 *   (unset)  none: a correct, if slow, allocator straight over the zone
 * Built with -DBAD_PLUGIN_ABI=N, the table claims ABI version N, for the
 * loader to refuse; with -DBAD_PLUGIN_NO_FREE, it has no free callback.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <pagepool/backend.h>

#ifndef BAD_PLUGIN_ABI
#define BAD_PLUGIN_ABI	PP_BACKEND_ABI_VERSION
#endif

/* Not a descriptor of any pool: what "outside" hands out. */
static struct pp_page bad_outside;

/* The thread that ran init ("block": it alone gets pages). */
static pthread_t bad_init_thread;

/*
 * "block", "block-all": never return (a signal's handler runs, no more),
 * saying so on standard output first, for a test to signal only then.
 */
static void bad_maybe_block(const char *mode)
{
	static const char said[] = "bad-plugin: blocked\n";

	if (!strcmp(mode, "block-all") ||
	    (!strcmp(mode, "block") &&
	     !pthread_equal(pthread_self(), bad_init_thread))) {
		ssize_t n = write(STDOUT_FILENO, said, sizeof(said) - 1);

		(void)n;	/* unsaid, the test waits and fails: no harm */
		for (;;)
			pause();
	}
}

static int bad_init(struct pp_pool *pool, unsigned int nr_cpus, void **priv)
{
	const char *mode = getenv("PP_BAD_PLUGIN");

	(void)nr_cpus;
	if (mode && !strcmp(mode, "initfail")) {
		for (int i = 0; i < 3; i++)
			pp_zone_take_pages(pool, 0);
		return -EIO;
	}
	bad_init_thread = pthread_self();
	*priv = (void *)(mode ? mode : "");
	return 0;
}

static void bad_fini(struct pp_pool *pool, void *priv)
{
	(void)pool;
	(void)priv;
}

static struct pp_page *bad_alloc(struct pp_pool *pool, void *priv,
				 unsigned int cpu, unsigned int order)
{
	(void)cpu;
	bad_maybe_block(priv);
	return pp_zone_take_pages(pool, order);
}

static unsigned long bad_fill(struct pp_pool *pool, void *priv,
			      unsigned int cpu, struct pp_page **pages,
			      unsigned long nr)
{
	const char *mode = priv;
	unsigned long got = 0;

	(void)cpu;
	bad_maybe_block(mode);
	while (got < nr && (pages[got] = pp_zone_take_pages(pool, 0)))
		got++;
	if (!strcmp(mode, "twice") && got >= 2)
		pages[1] = pages[0];	/* pages[1] is lost: the test aborts */
	else if (!strcmp(mode, "outside") && got)
		pages[got - 1] = &bad_outside;
	else if (!strcmp(mode, "count") && got == nr)
		got++;
	else if (!strcmp(mode, "scribble") && got >= 2) {
		got--;
		pp_zone_give_pages(pool, pages[got], 1);
	}
	return got;
}

#ifndef BAD_PLUGIN_NO_FREE
static void bad_free(struct pp_pool *pool, void *priv, unsigned int cpu,
		     struct pp_page *page, unsigned int order)
{
	(void)cpu;
	if (strcmp(priv, "keep"))
		pp_zone_give_pages(pool, page, 1UL << order);
}
#endif

/* Every free goes back to the zone: the plugin holds none, "lie" aside. */
static unsigned long bad_nr_held(struct pp_pool *pool, void *priv)
{
	(void)pool;
	return strcmp(priv, "lie") ? 0 : 226;
}

const struct pp_backend_plugin pp_backend_plugin = {
	.abi_version	= BAD_PLUGIN_ABI,
	.size		= sizeof(struct pp_backend_plugin),
	.name		= "bad",
	.init		= bad_init,
	.fini		= bad_fini,
	.alloc		= bad_alloc,
	.fill		= bad_fill,
#ifndef BAD_PLUGIN_NO_FREE
	.free		= bad_free,
#endif
	.nr_held	= bad_nr_held,
};
