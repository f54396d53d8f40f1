/* SPDX-License-Identifier: MIT */
/*
 * The completion thread: server threads queue their replies in a bounded
 * ring (svc_send()), and this thread puts the reply pages, so frees land
 * on another CPU than the allocations, as in the kernel where a reply's
 * pages are released when the transport is done with them.
 */
#include <config.h>

#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <pagepool/pagepool.h>

#include "svc_internal.h"
#include "util.h"
#include "watchdog.h"

void svc_completion_queue(struct svc_completion *c,
				 struct pp_page **pages, unsigned long nr,
				 unsigned long nr_cache)
{
	struct svc_reply *r;

	PTHREAD_CHECK(pthread_mutex_lock(&c->lock));
	while (c->head - c->tail == c->depth)
		PTHREAD_CHECK(pthread_cond_wait(&c->space, &c->lock));
	r = &c->ring[c->head % c->depth];
	memcpy(r->pages, pages, nr * sizeof(*pages));
	r->nr = nr;
	r->nr_cache = nr_cache;
	c->head++;
	PTHREAD_CHECK(pthread_cond_signal(&c->more));
	PTHREAD_CHECK(pthread_mutex_unlock(&c->lock));
}

static void *svc_completion_thread(void *arg)
{
	struct svc_completion *c = arg;
	struct watchdog_thread *wdt = watchdog_enter("the completion thread",
						     0);

	PTHREAD_CHECK(pthread_mutex_lock(&c->lock));
	for (;;) {
		uint64_t first, last;

		while (c->head == c->tail && !c->stop)
			PTHREAD_CHECK(pthread_cond_wait(&c->more, &c->lock));
		if (c->head == c->tail)
			break;
		first = c->tail;
		last = c->head;
		PTHREAD_CHECK(pthread_mutex_unlock(&c->lock));
		/* Slots [first, last) stay ours until tail moves past them. */
		for (uint64_t s = first; s != last; s++) {
			struct svc_reply *r = &c->ring[s % c->depth];

			pp_release_pages(c->pool, r->pages, r->nr);
			c->acct.released += r->nr - r->nr_cache;
			c->acct.cache_puts += r->nr_cache;
		}
		PTHREAD_CHECK(pthread_mutex_lock(&c->lock));
		c->tail = last;
		PTHREAD_CHECK(pthread_cond_broadcast(&c->space));
	}
	PTHREAD_CHECK(pthread_mutex_unlock(&c->lock));
	watchdog_leave(wdt);
	return NULL;
}

/* Wait until every queued reply has been released; returns the count. */
uint64_t svc_completion_drain(struct svc_completion *c)
{
	uint64_t n;

	PTHREAD_CHECK(pthread_mutex_lock(&c->lock));
	while (c->head != c->tail)
		PTHREAD_CHECK(pthread_cond_wait(&c->space, &c->lock));
	n = c->tail;
	PTHREAD_CHECK(pthread_mutex_unlock(&c->lock));
	return n;
}

struct svc_completion *svc_completion_start(struct svc_serv *serv)
{
	const struct rpcsim_config *cfg = serv->cfg;
	struct svc_completion *c = xcalloc(1, sizeof(*c));
	int err;

	c->pool = serv->pool;
	c->depth = cfg->queue_depth;
	c->ring = xcalloc(c->depth, sizeof(*c->ring));
	c->slots = xcalloc((size_t)c->depth * cfg->pages, sizeof(*c->slots));
	for (unsigned int i = 0; i < c->depth; i++)
		c->ring[i].pages = c->slots + (size_t)i * cfg->pages;
	PTHREAD_CHECK(pthread_mutex_init(&c->lock, NULL));
	PTHREAD_CHECK(pthread_cond_init(&c->more, NULL));
	PTHREAD_CHECK(pthread_cond_init(&c->space, NULL));
	err = pthread_create(&c->thread, NULL, svc_completion_thread, c);
	if (err) {
		fprintf(stderr, "rpcsim: cannot start the completion thread: "
			"%s\n", strerror(err));
		exit(1);
	}
	return c;
}

void svc_completion_stop(struct svc_serv *serv,
				struct svc_completion *c)
{
	PTHREAD_CHECK(pthread_mutex_lock(&c->lock));
	c->stop = true;
	PTHREAD_CHECK(pthread_cond_signal(&c->more));
	PTHREAD_CHECK(pthread_mutex_unlock(&c->lock));
	PTHREAD_CHECK(pthread_join(c->thread, NULL));
	PTHREAD_CHECK(pthread_cond_destroy(&c->more));
	PTHREAD_CHECK(pthread_cond_destroy(&c->space));
	PTHREAD_CHECK(pthread_mutex_destroy(&c->lock));
	svc_acct_add(&serv->acct, &c->acct);
	free(c->slots);
	free(c->ring);
	free(c);
}
