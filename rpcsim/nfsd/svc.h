/* SPDX-License-Identifier: MIT */
/*
 * One run of one allocation mode: a fresh pool, the page cache, N server
 * threads looping svc_alloc_arg() / receive / process / send, and the
 * completion thread; then everything goes back and the pool must be whole.
 */
#ifndef RPCSIM_SVC_H
#define RPCSIM_SVC_H

#include <stdbool.h>
#include <stdint.h>

#include <pagepool/pagepool.h>

#include "by_refill.h"
#include "hist.h"
#include "timeline.h"
#include "options.h"

/* What one server thread did in the timed part of a run. */
struct svc_stats {
	uint64_t calls;		/* svc_alloc_arg() calls, all timed */
	/*
	 * Calls given up, still waiting for pages when the run stopped: not
	 * in @calls, @pages or the latencies, but their allocator calls,
	 * failures and waits are in the counts below.
	 */
	uint64_t unfinished;
	uint64_t alloc_calls;	/* allocator calls they made */
	uint64_t pages;		/* holes they refilled */
	uint64_t no_progress;	/* allocator calls that gave nothing */
	uint64_t waits;		/* retry waits taken */
	uint64_t wait_ns;	/* time spent in them */
	uint64_t requests, reads, writes;
	uint64_t short_reads;	/* --tcp-read: reads that left a record short */
	uint64_t bytes_read, bytes_written;
	uint64_t digest;	/* sum of workload_digest() of its requests */
};

/*
 * rpcsim's own books over the whole run (warm-up, page cache and teardown
 * included): pages it took from the allocator and dropped its reference
 * to, and page-cache references taken and dropped by READ splices.  Both
 * pairs must be equal at exit; they do not depend on the pool's counters.
 */
struct svc_acct {
	uint64_t allocated, released;
	uint64_t cache_gets, cache_puts;
};

struct ppool_result;

struct svc_result {
	enum rpcsim_mode mode;
	unsigned int run;		/* 1-based */
	double elapsed_s;		/* start to the last thread's stop */
	struct hist hist;		/* latency of every call, ns */
	/* the same, by refill size (common/by_refill.h) */
	struct hist refill[BY_REFILL_NR];
	struct timeline tl;		/* --interval: latency over time */
	struct svc_stats total;
	struct svc_stats *threads;	/* cfg->threads entries */
	uint64_t completions;		/* replies the completion thread freed */
	struct svc_acct acct;
	bool counters_consistent;	/* pool's pgalloc == pgfree at exit */
	uint64_t events[PP_NR_VM_EVENTS]; /* pool counters over the run */
	struct pp_vmstat start;		/* pool at the start of timing */
	struct pp_vmstat exit;		/* pool once everything went back */
	/* Its nodes then (cfg->nodes): numa_* over the pool's life. */
	struct pp_node_vmstat nodes_exit[PP_MAX_NODES];
	struct ppool_result *page_pool; /* --consumer=page_pool only */
};

/*
 * Run @mode once.  Fills @res (free it with svc_result_free()).
 * Return: 0 (a signal during the run ends it early: still 0, with what
 * was measured), 1 when a signal came before the timed run began (nothing
 * measured, every page back), or -1 after printing the cause (no pool,
 * pages leaked, a stall).
 */
int svc_run(const struct rpcsim_config *cfg, enum rpcsim_mode mode,
	    unsigned int run, struct svc_result *res);
void svc_result_free(struct svc_result *res);

/* A fresh pool of @cfg's size and allocator; NULL, said, if it fails. */
struct pp_pool *svc_pool_create(const struct rpcsim_config *cfg);

/*
 * The end of a run, every page given back: @res->exit is the pool's state
 * and res->counters_consistent its counters' agreement.  -1, said, when
 * pages are still out, or when a backend plugin's nr_held disagrees with
 * the pool's own count (the plugin named).
 */
int svc_pool_out(const struct rpcsim_config *cfg, struct pp_pool *pool,
		 const char *label, struct svc_result *res);
/*
 * Then: warn when every page came back but the counters disagree, and
 * destroy @pool.  -1 when it still had pages out (said unless @ret, the
 * run's verdict so far, already is -1).
 */
int svc_pool_finish(struct pp_pool *pool, const char *label,
		    struct svc_result *res, int ret);

/* Add every count of @src to @dst (threads into a run, runs into a mode). */
void svc_stats_add(struct svc_stats *dst, const struct svc_stats *src);

#endif /* RPCSIM_SVC_H */
