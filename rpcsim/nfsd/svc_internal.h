/* SPDX-License-Identifier: MIT */
/*
 * What the parts of the emulated server share, private to
 * rpcsim/nfsd/svc*.c: the server (struct svc_serv), its threads (struct
 * svc_rqst), the completion queue, and the calls each part makes into
 * another.  svc.h is the one interface the rest of rpcsim uses.
 */
#ifndef RPCSIM_SVC_INTERNAL_H
#define RPCSIM_SVC_INTERNAL_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include <pagepool/pagepool.h>

#include "hist.h"
#include "svc.h"
#include "workload.h"

/* Page lock stripes of the page cache (folio_lock() analogue). */
#define CACHE_LOCKS	256

/* A reply handed to the completion thread: its page pointers. */
struct svc_reply {
	unsigned long nr;
	unsigned long nr_cache;		/* of which page-cache pages */
	struct pp_page **pages;		/* cfg->pages slots */
};

/*
 * The completion thread's queue: a bounded ring, so replies in flight (and
 * the pages they hold) are bounded; a server thread finding it full
 * blocks until the completion thread catches up.
 */
struct svc_completion {
	pthread_mutex_t lock;
	pthread_cond_t more;		/* a reply was queued, or stop */
	pthread_cond_t space;		/* replies were released */
	struct svc_reply *ring;
	struct pp_page **slots;		/* depth x pages pointers */
	unsigned int depth;
	uint64_t head;			/* replies queued */
	uint64_t tail;			/* replies released */
	bool stop;
	struct svc_acct acct;		/* the completion thread's puts */
	struct pp_pool *pool;
	pthread_t thread;
};

struct svc_serv;

/* One server thread (struct svc_rqst). */
struct svc_rqst {
	/* Sampled by the main thread for the progress line. */
	_Atomic uint64_t progress_calls;
	_Atomic uint64_t progress_pages;
	_Atomic uint64_t progress_requests;	/* --requests' ETA */

	struct svc_serv *serv __attribute__((aligned(64)));
	unsigned int id;
	pthread_t thread;
	struct pp_page **rq_pages;	/* pages + 1 slots */
	unsigned long rq_respages;	/* first reply slot */
	unsigned long rq_next_page;	/* one past the last reply slot */
	unsigned long rq_spliced;	/* page-cache pages in the reply */
	unsigned long holes;		/* NULL slots the last reply left */
	size_t arg_len;			/* bytes of the request received */
	/*
	 * --tcp-read: the received part of a record set aside between two
	 * reads (svsk->sk_pages; this thread reads its record to the end).
	 */
	struct pp_page **sk_pages;	/* pages slots */
	unsigned long sk_saved;		/* pages in it */
	void *arg_head;			/* rq_arg.head[0].iov_base */
	unsigned char *payload;		/* WRITE data source, io_size bytes */
	uint64_t finish_ns;
	struct svc_stats st;
	struct svc_acct acct;
	/* Latency of every call by its kind; svc_collect() sums them. */
	struct hist refill[BY_REFILL_NR];
	struct timeline tl;		/* --interval */
} __attribute__((aligned(64)));

struct svc_serv {
	const struct rpcsim_config *cfg;
	enum rpcsim_mode mode;
	struct pp_pool *pool;
	bool debug_list;		/* list_del() checked (pp_pool_debug_list) */
	struct workload wl;
	struct pp_page **cache;		/* the file: one page per index */
	pthread_mutex_t cache_lock[CACHE_LOCKS];
	struct svc_completion *compl;	/* NULL: --completion=inline */
	struct svc_acct acct;		/* page cache fill and teardown */
	struct svc_rqst **rqsts;
	uint64_t start_ns;		/* the timed run's start (set before go) */
	pthread_barrier_t go;
	atomic_bool stop;
	/*
	 * The stall detector (svc_watch()): server threads in a retry wait,
	 * waits and requests done so far.  When every thread keeps waiting
	 * and nothing can free a page, @stuck makes them give up.
	 */
	atomic_uint waiting;
	_Atomic uint64_t waits, handled;
	atomic_bool stuck;
	_Atomic uint64_t gave_up;	/* calls given up when told to stop */
	_Atomic uint64_t next_seq;
	uint64_t limit;			/* requests; UINT64_MAX: no limit */
	pthread_mutex_t done_lock;
	pthread_cond_t done_cond;	/* CLOCK_MONOTONIC */
	unsigned int nr_ready;		/* threads done warming up */
	unsigned int nr_done;		/* threads done with the run */
};

/*
 * Told to stop: the deadline passed, a signal came, or svc_watch() found
 * the run stuck.  A thread in svc_alloc_arg() then gives up the call.
 */
static inline bool svc_stopping(struct svc_serv *serv)
{
	return atomic_load_explicit(&serv->stop, memory_order_relaxed);
}

static inline void svc_acct_add(struct svc_acct *dst,
				const struct svc_acct *src)
{
	dst->allocated += src->allocated;
	dst->released += src->released;
	dst->cache_gets += src->cache_gets;
	dst->cache_puts += src->cache_puts;
}

/* svc.c: a server thread's loop. */
void *svc_thread(void *arg);
void svc_barrier_wait(pthread_barrier_t *b);

/* svc_completion.c: the completion thread and its queue. */
struct svc_completion *svc_completion_start(struct svc_serv *serv);
void svc_completion_queue(struct svc_completion *c, struct pp_page **pages,
			  unsigned long nr, unsigned long nr_cache);
uint64_t svc_completion_drain(struct svc_completion *c);
void svc_completion_stop(struct svc_serv *serv, struct svc_completion *c);

/* svc_cache.c: the file in the page cache. */
int svc_cache_fill(struct svc_serv *serv);
void svc_cache_release(struct svc_serv *serv);

#endif /* RPCSIM_SVC_INTERNAL_H */
