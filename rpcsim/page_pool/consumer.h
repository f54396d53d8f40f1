/* SPDX-License-Identifier: MIT */
/*
 * rpcsim's second consumer (--consumer=page_pool): network RX queues, each
 * with a page_pool (page_pool.h) refilled in bulk, fed by a stream of
 * packets, and a stack thread that frees what NAPI context did not.  One
 * run of one allocation mode, reported through the same struct svc_result
 * as the nfsd consumer's (a "call" is one slow-path refill), plus the
 * pool's own figures in struct ppool_result.
 */
#ifndef RPCSIM_PAGE_POOL_CONSUMER_H
#define RPCSIM_PAGE_POOL_CONSUMER_H

#include <stdint.h>

#include "nfsd/svc.h"
#include "options.h"
#include "page_pool.h"

/* What the page_pools of one run did, summed over its RX queues. */
struct ppool_result {
	struct page_pool_alloc_stats alloc;
	/* Returns: by the NAPI threads (direct) and by the stack thread. */
	struct page_pool_recycle_stats recycle_direct, recycle_stack;
	uint64_t hold, release;		/* pages_state_{hold,release}_cnt, 64-bit */
	uint64_t inflight;		/* at destroy: must be 0 */
	uint64_t packets;		/* received (timed run) */
	uint64_t dropped;		/* no page for them */
	/* How the received packets were freed (--free-mix). */
	uint64_t freed_direct, freed_ring, freed_held, freed_released;
	uint64_t clone_puts;		/* clone references dropped */
};

/*
 * Run @mode once with the page_pool consumer.  Same contract as svc_run():
 * fills @res (res->page_pool allocated; svc_result_free() frees it); 0, 1 when
 * a signal came before the run began, -1 after printing the cause.
 */
int ppool_run(const struct rpcsim_config *cfg, enum rpcsim_mode mode,
	      unsigned int run, struct svc_result *res);

/* Add @src into @dst (runs into a mode). */
void ppool_result_add(struct ppool_result *dst, const struct ppool_result *src);

/* Recycle hit rate: pages handed out that were recycled, over all. */
double ppool_hit_rate(const struct ppool_result *r);

#endif /* RPCSIM_PAGE_POOL_CONSUMER_H */
