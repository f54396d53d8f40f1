/* SPDX-License-Identifier: MIT */
/*
 * The emulated NFS server: per-thread rq_pages[] refilled by
 * svc_alloc_arg() in one of three modes, requests received into those
 * pages, served from a page cache, and replies released inline or by a
 * completion thread, which is what leaves the holes the next
 * svc_alloc_arg() call refills.  DESIGN.md section 2.4 and
 * kernel-notes.md section 2 describe the kernel code emulated here.
 */
#include <config.h>

#include <errno.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <pagepool/pagepool.h>

#include "svc.h"
#include "trace.h"
#include "util.h"
#include "workload.h"

#define likely(x)	__builtin_expect(!!(x), 1)
#define unlikely(x)	__builtin_expect(!!(x), 0)

/* Page lock stripes of the page cache (folio_lock() analogue). */
#define CACHE_LOCKS	256
/* Pages per bulk call while filling the page cache. */
#define CACHE_FILL_BATCH 1024UL
/* Warm-up requests are numbered apart from the timed ones. */
#define WARMUP_SEQ	(1ULL << 63)

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

	struct svc_serv *serv __attribute__((aligned(64)));
	unsigned int id;
	pthread_t thread;
	struct pp_page **rq_pages;	/* pages + 1 slots */
	unsigned long rq_respages;	/* first reply slot */
	unsigned long rq_next_page;	/* one past the last reply slot */
	unsigned long rq_spliced;	/* page-cache pages in the reply */
	unsigned long holes;		/* NULL slots the last reply left */
	size_t arg_len;			/* bytes of the request received */
	void *arg_head;			/* rq_arg.head[0].iov_base */
	unsigned char *payload;		/* WRITE data source, io_size bytes */
	uint64_t finish_ns;
	struct svc_stats st;
	struct svc_acct acct;
	struct hist hist;
} __attribute__((aligned(64)));

struct svc_serv {
	const struct rpcsim_config *cfg;
	enum rpcsim_mode mode;
	struct pp_pool *pool;
	struct workload wl;
	struct pp_page **cache;		/* the file: one page per index */
	pthread_mutex_t cache_lock[CACHE_LOCKS];
	struct svc_completion *compl;	/* NULL: --completion=inline */
	struct svc_acct acct;		/* page cache fill and teardown */
	struct svc_rqst **rqsts;
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

/* --- pages as a byte stream -------------------------------------------- */

/* Copy @len bytes from @src into pages @pv, starting at byte @off. */
static void pages_write(struct pp_pool *pool, struct pp_page **pv, size_t off,
			const void *src, size_t len)
{
	const unsigned char *s = src;

	while (len) {
		size_t in = off % PP_PAGE_SIZE, n = PP_PAGE_SIZE - in;

		if (n > len)
			n = len;
		memcpy((unsigned char *)pp_page_address(pool,
				pv[off / PP_PAGE_SIZE]) + in, s, n);
		off += n;
		s += n;
		len -= n;
	}
}

/* Copy @len bytes out of pages @pv, starting at byte @off, into @dst. */
static void pages_read(struct pp_pool *pool, struct pp_page **pv, size_t off,
		       void *dst, size_t len)
{
	unsigned char *d = dst;

	while (len) {
		size_t in = off % PP_PAGE_SIZE, n = PP_PAGE_SIZE - in;

		if (n > len)
			n = len;
		memcpy(d, (const unsigned char *)pp_page_address(pool,
				pv[off / PP_PAGE_SIZE]) + in, n);
		off += n;
		d += n;
		len -= n;
	}
}

/* --- svc_alloc_arg() ---------------------------------------------------- */

struct svc_alloc_stats {
	unsigned long allocated;
	unsigned int alloc_calls;	/* calls into the allocator */
	uint64_t no_progress;
	uint64_t waits;
	uint64_t wait_ns;
};

/*
 * Told to stop: the deadline passed, a signal came, or svc_watch() found
 * the run stuck.  A thread in svc_alloc_arg() then gives up the call.
 */
static bool svc_stopping(struct svc_serv *serv)
{
	return atomic_load_explicit(&serv->stop, memory_order_relaxed);
}

/* A long retry wait is slept in slices of this, so a stop is seen soon. */
#define RETRY_WAIT_SLICE_NS	(NSEC_PER_SEC / 20)

/*
 * memalloc_retry_wait(): the allocator made no progress, so give the other
 * threads (and the completion thread, which frees) time to return pages.
 * The only wait in rpcsim's loop.  Returns false, and the caller gives up
 * the call, when the run is stopping: before the wait or during it.
 */
static bool svc_retry_wait(struct svc_serv *serv, struct svc_alloc_stats *as)
{
	const struct rpcsim_config *cfg = serv->cfg;
	uint64_t t0 = now_ns(), end = t0 + cfg->retry_wait_us * 1000ULL;

	if (svc_stopping(serv))
		return false;
	atomic_fetch_add_explicit(&serv->waiting, 1, memory_order_relaxed);
	atomic_fetch_add_explicit(&serv->waits, 1, memory_order_relaxed);
	if (!cfg->retry_wait_us)
		sched_yield();
	for (uint64_t now = t0; now < end && !svc_stopping(serv);
	     now = now_ns()) {
		uint64_t left = end - now;
		struct timespec ts;

		if (left > RETRY_WAIT_SLICE_NS)
			left = RETRY_WAIT_SLICE_NS;
		ts.tv_sec = (time_t)(left / NSEC_PER_SEC);
		ts.tv_nsec = (long)(left % NSEC_PER_SEC);
		/* EINTR: the loop works out what is left. */
		nanosleep(&ts, NULL);
	}
	atomic_fetch_sub_explicit(&serv->waiting, 1, memory_order_relaxed);
	as->waits++;
	as->wait_ns += now_ns() - t0;
	return !svc_stopping(serv);
}

/* Before 5.13: alloc_page() for each hole, waiting after each failure. */
static bool svc_alloc_arg_single(struct svc_rqst *rqstp,
				 struct svc_alloc_stats *as)
{
	struct svc_serv *serv = rqstp->serv;
	struct pp_page **rq = rqstp->rq_pages;
	unsigned long pages = serv->cfg->pages;

	for (unsigned long i = 0; i < pages; i++) {
		while (!rq[i]) {
			struct pp_page *p = pp_alloc_page(serv->pool,
							  PP_GFP_KERNEL);

			as->alloc_calls++;
			if (unlikely(!p)) {
				as->no_progress++;
				rpcsim_trace(svc_alloc_arg_err, 1, 0);
				if (!svc_retry_wait(serv, as))
					return false;
				continue;
			}
			rq[i] = p;
			as->allocated++;
		}
	}
	return true;
}

/*
 * The list version Chuck Lever posted before the array API existed (v4
 * 5/7, March 2021): count the holes, allocate that many onto a list, fill
 * the holes from it in order; if the list runs dry, wait and start over.
 */
static bool svc_alloc_arg_list(struct svc_rqst *rqstp,
			       struct svc_alloc_stats *as)
{
	struct svc_serv *serv = rqstp->serv;
	struct pp_list_head list = PP_LIST_HEAD_INIT(list);
	struct pp_page **rq = rqstp->rq_pages;
	unsigned long pages = serv->cfg->pages, needed, i;

retry:
	needed = 0;
	for (i = 0; i < pages; i++)
		if (!rq[i])
			needed++;
	if (!needed)
		return true;
	as->alloc_calls++;
	if (!pp_alloc_pages_bulk_list(serv->pool, PP_GFP_KERNEL, needed,
				      &list)) {
		as->no_progress++;
		rpcsim_trace(svc_alloc_arg_err, (unsigned int)needed, 0);
	}
	for (i = 0; i < pages; i++) {
		struct pp_page *p;

		if (rq[i])
			continue;
		p = pp_list_pop_page(&list);
		if (unlikely(!p)) {
			if (!svc_retry_wait(serv, as))
				return false;
			goto retry;
		}
		rq[i] = p;
		as->allocated++;
	}
	return true;
}

/*
 * The consumer of the 2025 proposal (--bulk-variant=pure-output), where
 * the array is output only: its alloc_pages_bulk_refill() moves the pages
 * still in rq_pages to the front, then asks for the rest into the slots
 * after them; a short return means try again, nothing means wait.  The
 * order of rq_pages does not matter here: every slot is a blank page for
 * the next receive (the reply slots were emptied by svc_send()).
 */
static bool svc_alloc_arg_refill(struct svc_rqst *rqstp,
				 struct svc_alloc_stats *as)
{
	struct svc_serv *serv = rqstp->serv;
	struct pp_page **rq = rqstp->rq_pages;
	unsigned long pages = serv->cfg->pages, held, ret, i;

	for (;;) {
		for (held = 0, i = 0; i < pages; i++) {
			if (!rq[i])
				continue;
			if (i != held) {
				rq[held] = rq[i];
				rq[i] = NULL;
			}
			held++;
		}
		if (held == pages)
			return true;
		ret = pp_alloc_pages_bulk_array(serv->pool, PP_GFP_KERNEL,
						pages - held, rq + held);
		as->alloc_calls++;
		if (ret)
			continue;	/* made progress, don't sleep yet */
		as->no_progress++;
		rpcsim_trace(svc_alloc_arg_err, (unsigned int)(pages - held),
			     0U);
		if (!svc_retry_wait(serv, as))
			return false;
	}
}

/*
 * 5.13's array version with NeilBrown's "don't pause on incomplete
 * allocation" (5.15): the return value counts the leading populated slots;
 * wait only when a call made no progress (svc_alloc_arg_err fires there).
 * The merged contract's consumer; also the one for the v5
 * contract (stop-at-first-populated), which returns at the first populated
 * slot after a hole: each call makes progress, so the loop simply calls
 * again, once per run of holes.
 */
static bool svc_alloc_arg_array(struct svc_rqst *rqstp,
				struct svc_alloc_stats *as)
{
	struct svc_serv *serv = rqstp->serv;
	unsigned long pages = serv->cfg->pages, filled, ret;

	if (serv->cfg->bulk_variant == PP_BULK_PURE_OUTPUT)
		return svc_alloc_arg_refill(rqstp, as);
	for (filled = 0; filled < pages; filled = ret) {
		ret = pp_alloc_pages_bulk_array(serv->pool, PP_GFP_KERNEL,
						pages, rqstp->rq_pages);
		as->alloc_calls++;
		if (ret > filled)
			continue;	/* made progress, don't sleep yet */
		as->no_progress++;
		rpcsim_trace(svc_alloc_arg_err, (unsigned int)pages,
			     (unsigned int)ret);
		if (!svc_retry_wait(serv, as))
			return false;
	}
	return true;
}

/*
 * Returns false when the call gave up, the run stopping while it waited
 * for pages: rq_pages may then still have holes.
 */
static bool svc_alloc_arg(struct svc_rqst *rqstp, struct svc_alloc_stats *as)
{
	struct svc_serv *serv = rqstp->serv;
	bool full;

	switch (serv->mode) {
	case RPCSIM_SINGLE:
		full = svc_alloc_arg_single(rqstp, as);
		break;
	case RPCSIM_LIST:
		full = svc_alloc_arg_list(rqstp, as);
		break;
	case RPCSIM_ARRAY:
	default:
		full = svc_alloc_arg_array(rqstp, as);
		break;
	}
	/* The rest of svc_alloc_arg(): sentinel and receive buffer head. */
	rqstp->rq_pages[serv->cfg->pages] = NULL;
	/* Given up: slot 0 may still be a hole. */
	rqstp->arg_head = rqstp->rq_pages[0] ?
			  pp_page_address(serv->pool, rqstp->rq_pages[0]) :
			  NULL;
	return full;
}

/* --- receive, process, send ---------------------------------------------- */

/*
 * svc_tcp_recvfrom(): the record lands in rq_pages[0..i) (a WRITE's data
 * included); the reply starts at rq_pages[i].
 */
static void svc_recv(struct svc_rqst *rqstp, const struct nfs_request *req)
{
	static const unsigned char zeros[4];
	struct svc_serv *serv = rqstp->serv;
	unsigned char hdr[NFS3_CALL_HDR_MAX];
	size_t record, len = nfs3_encode_call(req, hdr, &record);
	unsigned long i;

	pages_write(serv->pool, rqstp->rq_pages, 0, hdr, len);
	if (req->op == NFS_WRITE) {
		/* The client's data: stamp each page's worth with the seq. */
		for (size_t off = 0; off < req->count; off += PP_PAGE_SIZE) {
			size_t n = req->count - off;

			memcpy(rqstp->payload + off, &req->seq,
			       n < sizeof(req->seq) ? n : sizeof(req->seq));
		}
		pages_write(serv->pool, rqstp->rq_pages, len, rqstp->payload,
			    req->count);
		pages_write(serv->pool, rqstp->rq_pages, len + req->count,
			    zeros, record - len - req->count);
	}
	i = (unsigned long)DIV_ROUND_UP(record, PP_PAGE_SIZE);
	if (i >= serv->cfg->pages)
		rpcsim_die("request of %zu bytes overflows rq_pages", record);
	rpcsim_trace(request, req->op == NFS_WRITE, (uint64_t)req->count,
		     (unsigned int)i);
	rqstp->arg_len = record;
	rqstp->rq_respages = i;
	rqstp->rq_next_page = i + 1;
	rqstp->rq_spliced = 0;
}

/*
 * Decode the call from the received pages and serve it: a WRITE copies its
 * data into the page cache; a READ splices: each reply slot after the head
 * is swapped for the page-cache page (nfsd_splice_actor(): get the cache
 * page, put the original).
 */
static void svc_process(struct svc_rqst *rqstp, const struct nfs_request *sent)
{
	struct svc_serv *serv = rqstp->serv;
	struct pp_pool *pool = serv->pool;
	struct pp_page **rq = rqstp->rq_pages;
	unsigned char reply[NFS3_REPLY_HDR_MAX];
	struct nfs_request req;
	unsigned long pgoff, npages;
	size_t hdr, len;

	len = rqstp->arg_len < PP_PAGE_SIZE ? rqstp->arg_len : PP_PAGE_SIZE;
	hdr = nfs3_decode_call(rqstp->arg_head, len, &req);
	if (!hdr || req.xid != sent->xid || req.op != sent->op ||
	    req.offset != sent->offset || req.count != sent->count)
		rpcsim_die("request %llu did not survive rq_pages",
			   (unsigned long long)sent->seq);
	req.seq = sent->seq;
	pgoff = (unsigned long)(req.offset / PP_PAGE_SIZE);
	npages = (unsigned long)DIV_ROUND_UP(req.count, PP_PAGE_SIZE);

	if (req.op == NFS_WRITE) {
		for (unsigned long j = 0; j < npages; j++) {
			struct pp_page *cp = serv->cache[pgoff + j];
			pthread_mutex_t *lock =
				&serv->cache_lock[(pgoff + j) % CACHE_LOCKS];
			size_t n = req.count - j * PP_PAGE_SIZE;

			if (n > PP_PAGE_SIZE)
				n = PP_PAGE_SIZE;
			PTHREAD_CHECK(pthread_mutex_lock(lock));
			pages_read(pool, rq, hdr + j * PP_PAGE_SIZE,
				   pp_page_address(pool, cp), n);
			PTHREAD_CHECK(pthread_mutex_unlock(lock));
		}
	}

	len = nfs3_encode_reply(&req, serv->cfg->file_size, reply);
	memcpy(pp_page_address(pool, rq[rqstp->rq_respages]), reply, len);

	if (req.op == NFS_READ) {
		for (unsigned long j = 0; j < npages; j++) {
			unsigned long slot = rqstp->rq_next_page++;
			struct pp_page *cp = serv->cache[pgoff + j];

			if (slot >= serv->cfg->pages)
				rpcsim_die("READ reply overflows rq_pages");
			pp_get_page(pool, cp);
			rqstp->acct.cache_gets++;
			if (rq[slot]) {
				pp_put_page(pool, rq[slot]);
				rqstp->acct.released++;
			}
			rq[slot] = cp;
			rqstp->rq_spliced++;
		}
	}
}

static void svc_completion_queue(struct svc_completion *c,
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

/*
 * svc_send() + svc_xprt_release(): the reply pages [rq_respages,
 * rq_next_page) are put and their slots set to NULL, here
 * (svc_free_res_pages()) or by the completion thread, which then owns
 * them.  Either way the slots are holes for the next svc_alloc_arg().
 */
static void svc_send(struct svc_rqst *rqstp)
{
	struct svc_serv *serv = rqstp->serv;
	struct pp_page **rq = rqstp->rq_pages;
	unsigned long first = rqstp->rq_respages;
	unsigned long nr = rqstp->rq_next_page - first;

	if (serv->compl) {
		svc_completion_queue(serv->compl, &rq[first], nr,
				     rqstp->rq_spliced);
		memset(&rq[first], 0, nr * sizeof(*rq));
		rqstp->rq_next_page = first;
	} else {
		/* The head page is ours; the spliced ones the cache's. */
		rqstp->acct.released += nr - rqstp->rq_spliced;
		rqstp->acct.cache_puts += rqstp->rq_spliced;
		while (rqstp->rq_next_page != first) {
			unsigned long pp = --rqstp->rq_next_page;

			if (rq[pp]) {
				pp_put_page(serv->pool, rq[pp]);
				rq[pp] = NULL;
			}
		}
	}
	rqstp->holes = nr;
}

/* One request, start to finish; @timed: it counts toward the results. */
static void svc_handle(struct svc_rqst *rqstp, uint64_t seq, bool timed)
{
	struct svc_serv *serv = rqstp->serv;
	struct svc_alloc_stats as = { 0 };
	struct nfs_request req;
	uint64_t t0, t1;
	bool full;

	/* The events sit outside [t0, t1]: latency_ns excludes their cost. */
	rpcsim_trace(svc_alloc_arg_entry, (unsigned int)serv->cfg->pages,
		     (unsigned int)rqstp->holes, (unsigned int)serv->mode);
	t0 = now_ns();
	full = svc_alloc_arg(rqstp, &as);
	t1 = now_ns();

	if (unlikely(!full)) {
		/* Given up (the run stops): book what came, serve nothing. */
		unsigned long held = 0;

		atomic_fetch_add_explicit(&serv->gave_up, 1,
					  memory_order_relaxed);
		for (unsigned long i = 0; i < serv->cfg->pages; i++)
			held += rqstp->rq_pages[i] != NULL;
		rqstp->acct.allocated += held - (serv->cfg->pages -
						 rqstp->holes);
		rqstp->holes = serv->cfg->pages - held;
		return;
	}
	atomic_fetch_add_explicit(&serv->handled, 1, memory_order_relaxed);
	if (serv->mode == RPCSIM_ARRAY)
		as.allocated = rqstp->holes;
	else if (as.allocated != rqstp->holes)
		rpcsim_die("svc_alloc_arg filled %lu slots, %lu were empty",
			   as.allocated, rqstp->holes);
	rpcsim_trace(svc_alloc_arg_exit, (unsigned int)as.allocated,
		     as.alloc_calls, (unsigned int)as.no_progress, t1 - t0);
	rqstp->acct.allocated += as.allocated;

	workload_request(&serv->wl, seq, &req);
	svc_recv(rqstp, &req);
	svc_process(rqstp, &req);
	svc_send(rqstp);

	if (!timed)
		return;
	hist_add(&rqstp->hist, t1 - t0);
	rqstp->st.calls++;
	rqstp->st.alloc_calls += as.alloc_calls;
	rqstp->st.pages += as.allocated;
	rqstp->st.no_progress += as.no_progress;
	rqstp->st.waits += as.waits;
	rqstp->st.wait_ns += as.wait_ns;
	rqstp->st.requests++;
	if (req.op == NFS_READ) {
		rqstp->st.reads++;
		rqstp->st.bytes_read += req.count;
	} else {
		rqstp->st.writes++;
		rqstp->st.bytes_written += req.count;
	}
	rqstp->st.digest += workload_digest(&req);
	atomic_store_explicit(&rqstp->progress_calls, rqstp->st.calls,
			      memory_order_relaxed);
	atomic_store_explicit(&rqstp->progress_pages, rqstp->st.pages,
			      memory_order_relaxed);
}

/* The next request number, or false when the run is over. */
static bool svc_next(struct svc_serv *serv, uint64_t *seq)
{
	if (atomic_load_explicit(&serv->stop, memory_order_relaxed))
		return false;
	*seq = atomic_fetch_add_explicit(&serv->next_seq, 1,
					 memory_order_relaxed);
	return *seq < serv->limit;
}

static void svc_barrier_wait(pthread_barrier_t *b)
{
	int err = pthread_barrier_wait(b);

	if (err && err != PTHREAD_BARRIER_SERIAL_THREAD)
		rpcsim_die("pthread_barrier_wait: %s", strerror(err));
}

static void *svc_thread(void *arg)
{
	struct svc_rqst *rqstp = arg;
	struct svc_serv *serv = rqstp->serv;
	uint64_t seq;

	for (uint64_t i = 0; i < serv->cfg->warmup && !svc_stopping(serv); i++)
		svc_handle(rqstp, WARMUP_SEQ | (uint64_t)rqstp->id << 32 | i,
			   false);
	/* Not a barrier: the main thread watches the warm-up for stalls. */
	PTHREAD_CHECK(pthread_mutex_lock(&serv->done_lock));
	serv->nr_ready++;
	PTHREAD_CHECK(pthread_cond_signal(&serv->done_cond));
	PTHREAD_CHECK(pthread_mutex_unlock(&serv->done_lock));
	svc_barrier_wait(&serv->go);
	while (svc_next(serv, &seq))
		svc_handle(rqstp, seq, true);
	rqstp->finish_ns = now_ns();

	PTHREAD_CHECK(pthread_mutex_lock(&serv->done_lock));
	serv->nr_done++;
	PTHREAD_CHECK(pthread_cond_signal(&serv->done_cond));
	PTHREAD_CHECK(pthread_mutex_unlock(&serv->done_lock));
	return NULL;
}

static void svc_acct_add(struct svc_acct *dst, const struct svc_acct *src)
{
	dst->allocated += src->allocated;
	dst->released += src->released;
	dst->cache_gets += src->cache_gets;
	dst->cache_puts += src->cache_puts;
}

/* --- completion thread ---------------------------------------------------- */

static void *svc_completion_thread(void *arg)
{
	struct svc_completion *c = arg;

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
	return NULL;
}

/* Wait until every queued reply has been released; returns the count. */
static uint64_t svc_completion_drain(struct svc_completion *c)
{
	uint64_t n;

	PTHREAD_CHECK(pthread_mutex_lock(&c->lock));
	while (c->head != c->tail)
		PTHREAD_CHECK(pthread_cond_wait(&c->space, &c->lock));
	n = c->tail;
	PTHREAD_CHECK(pthread_mutex_unlock(&c->lock));
	return n;
}

static struct svc_completion *svc_completion_start(struct svc_serv *serv)
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

static void svc_completion_stop(struct svc_serv *serv,
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

/* --- page cache ----------------------------------------------------------- */

/*
 * Fill the file's pages from the pool and write their contents, a batch
 * at a time.  A large file takes seconds (every page is faulted in and
 * written), so a signal is looked for after each batch.  Returns 0, 1
 * when interrupted, -1 when the pool ran out (said).  The pages taken so
 * far are in serv->cache either way.
 */
static int svc_cache_fill(struct svc_serv *serv)
{
	unsigned long n = serv->cfg->file_pages, filled = 0;

	serv->cache = xcalloc(n, sizeof(*serv->cache));
	while (filled < n) {
		unsigned long want = n - filled, got;

		if (rpcsim_interrupted)
			return 1;
		if (want > CACHE_FILL_BATCH)
			want = CACHE_FILL_BATCH;
		got = pp_alloc_pages_bulk_array(serv->pool, PP_GFP_KERNEL,
						want, serv->cache + filled);
		if (!got) {
			fprintf(stderr, "rpcsim: the pool ran out after %lu "
				"of the file's %lu pages\n", filled, n);
			return -1;
		}
		for (unsigned long i = filled; i < filled + got; i++) {
			unsigned char *p = pp_page_address(serv->pool,
							   serv->cache[i]);
			uint64_t off = (uint64_t)i * PP_PAGE_SIZE;

			memset(p, (int)(i * 31 + 7) & 0xff, PP_PAGE_SIZE);
			memcpy(p, &off, sizeof(off));
		}
		filled += got;
	}
	serv->acct.allocated += n;
	for (unsigned int i = 0; i < CACHE_LOCKS; i++)
		PTHREAD_CHECK(pthread_mutex_init(&serv->cache_lock[i], NULL));
	return 0;
}

static void svc_cache_release(struct svc_serv *serv)
{
	unsigned long keep = serv->cfg->leak_pages;

	/* RPCSIM_LEAK_PAGES keeps the first pages: the leak check's test. */
	pp_release_pages(serv->pool, serv->cache + keep,
			 serv->cfg->file_pages - keep);
	serv->acct.released += serv->cfg->file_pages - keep;
	for (unsigned int i = 0; i < CACHE_LOCKS; i++)
		PTHREAD_CHECK(pthread_mutex_destroy(&serv->cache_lock[i]));
	free(serv->cache);
	serv->cache = NULL;
}

/* --- a run ------------------------------------------------------------------ */

static struct svc_rqst *svc_rqst_create(struct svc_serv *serv, unsigned int id)
{
	const struct rpcsim_config *cfg = serv->cfg;
	struct svc_rqst *rqstp;
	int err;

	if (posix_memalign((void **)&rqstp, 64, sizeof(*rqstp)))
		rpcsim_die("out of memory for a server thread");
	memset(rqstp, 0, sizeof(*rqstp));
	rqstp->serv = serv;
	rqstp->id = id;
	rqstp->rq_pages = xcalloc(cfg->pages + 1, sizeof(*rqstp->rq_pages));
	rqstp->holes = cfg->pages;
	rqstp->payload = xcalloc(1, cfg->io_size);
	for (size_t i = 0; i < cfg->io_size; i++)
		rqstp->payload[i] = (unsigned char)(i * 7 + id);
	hist_init(&rqstp->hist);
	err = pthread_create(&rqstp->thread, NULL, svc_thread, rqstp);
	if (err) {
		fprintf(stderr, "rpcsim: cannot start server thread %u of %u: "
			"%s\n", id + 1, cfg->threads, strerror(err));
		exit(1);
	}
	return rqstp;
}

static void svc_rqst_destroy(struct svc_serv *serv, struct svc_rqst *rqstp)
{
	/* svc_rqst_free(): whatever rq_pages still holds goes back. */
	for (unsigned long i = 0; i < serv->cfg->pages; i++)
		if (rqstp->rq_pages[i])
			rqstp->acct.released++;
	pp_release_pages(serv->pool, rqstp->rq_pages, serv->cfg->pages);
	svc_acct_add(&serv->acct, &rqstp->acct);
	free(rqstp->rq_pages);
	free(rqstp->payload);
	free(rqstp);
}

static void svc_progress(struct svc_serv *serv, uint64_t start, uint64_t now,
			 uint64_t *last_calls, uint64_t *last_ns,
			 unsigned int run)
{
	const struct rpcsim_config *cfg = serv->cfg;
	uint64_t calls = 0, pages = 0;
	char rate[32];
	double dt;

	for (unsigned int i = 0; i < cfg->threads; i++) {
		calls += atomic_load_explicit(&serv->rqsts[i]->progress_calls,
					      memory_order_relaxed);
		pages += atomic_load_explicit(&serv->rqsts[i]->progress_pages,
					      memory_order_relaxed);
	}
	dt = (double)(now - *last_ns) / 1e9;
	fmt_thousands(rate, sizeof(rate),
		      dt > 0 ? (uint64_t)((double)(calls - *last_calls) / dt)
			     : 0);
	fprintf(stderr, "\r\033[Krpcsim: %s run %u/%u: %s calls/s, %.1f "
		"pages/call, %.0f s elapsed", rpcsim_mode_label(serv->mode),
		run, cfg->repeat, rate,
		calls ? (double)pages / (double)calls : 0.0,
		(double)(now - start) / 1e9);
	*last_calls = calls;
	*last_ns = now;
}

/*
 * Main thread: watch the threads (warm-up, then the timed run), stopping
 * them at the deadline, on a signal or on a stall.
 */
#define INTERRUPT_POLL_NS	(NSEC_PER_SEC / 10)
#define STALL_NS		(2 * NSEC_PER_SEC)

struct svc_stall {
	uint64_t since;			/* last time something moved */
	uint64_t handled, waits;	/* the counters then */
};

static bool svc_queue_empty(struct svc_serv *serv)
{
	struct svc_completion *c = serv->compl;
	bool empty;

	if (!c)
		return true;
	PTHREAD_CHECK(pthread_mutex_lock(&c->lock));
	empty = c->head == c->tail;
	PTHREAD_CHECK(pthread_mutex_unlock(&c->lock));
	return empty;
}

/*
 * A stall: for STALL_NS no svc_alloc_arg() call completed while threads
 * kept retrying, and no reply was ever queued for the completion thread to
 * free.  Every page is then held by a server thread waiting for more, or
 * by the page cache: nothing can give one back, the pool is too small
 * (PAGEPOOL_FAULT=buddy-empty can make it so).  The kernel would hang
 * there; rpcsim gives up and says why.
 */
static bool svc_stalled(struct svc_serv *serv, uint64_t now,
			struct svc_stall *st)
{
	uint64_t handled = atomic_load_explicit(&serv->handled,
						memory_order_relaxed);
	uint64_t waits = atomic_load_explicit(&serv->waits,
					      memory_order_relaxed);

	if (handled != st->handled || !svc_queue_empty(serv) ||
	    !atomic_load_explicit(&serv->waiting, memory_order_relaxed)) {
		st->since = now;
		st->handled = handled;
		st->waits = waits;
		return false;
	}
	return now - st->since >= STALL_NS &&
	       waits - st->waits >= serv->cfg->threads;
}

/*
 * Wait until *@count (under done_lock) reaches the number of threads: the
 * warm-up (@run_start 0: no deadline, no progress line) or the timed run
 * started at @run_start.  Whatever the threads do, the deadline, a signal
 * or a stall sets serv->stop, which every wait of theirs gives up on; the
 * wait here is never longer than INTERRUPT_POLL_NS.
 */
static void svc_watch(struct svc_serv *serv, const unsigned int *count,
		      uint64_t run_start, unsigned int run)
{
	const struct rpcsim_config *cfg = serv->cfg;
	uint64_t begin = now_ns(), deadline = UINT64_MAX, tick = UINT64_MAX;
	uint64_t last_calls = 0, last_ns = run_start;
	struct svc_stall stall = { .since = begin };
	bool stopped = svc_stopping(serv), progress = false;

	if (run_start && cfg->duration_s > 0)
		deadline = run_start + (uint64_t)(cfg->duration_s * 1e9);
	if (run_start && cfg->progress) {
		progress = true;
		tick = run_start + NSEC_PER_SEC;
	}
	PTHREAD_CHECK(pthread_mutex_lock(&serv->done_lock));
	while (*count < cfg->threads) {
		uint64_t now = now_ns(), wake = now + INTERRUPT_POLL_NS;
		struct timespec ts;
		int err;

		/* Signals cannot wake a condition wait: look ten times a s. */
		if (!stopped && deadline < wake)
			wake = deadline;
		if (tick < wake)
			wake = tick;
		ts.tv_sec = (time_t)(wake / NSEC_PER_SEC);
		ts.tv_nsec = (long)(wake % NSEC_PER_SEC);
		err = pthread_cond_timedwait(&serv->done_cond,
					     &serv->done_lock, &ts);
		if (err && err != ETIMEDOUT)
			rpcsim_die("pthread_cond_timedwait: %s",
				   strerror(err));
		now = now_ns();
		if (!stopped && svc_stalled(serv, now, &stall))
			atomic_store_explicit(&serv->stuck, true,
					      memory_order_relaxed);
		if (!stopped && (now >= deadline || rpcsim_interrupted ||
				 atomic_load_explicit(&serv->stuck,
						      memory_order_relaxed))) {
			atomic_store_explicit(&serv->stop, true,
					      memory_order_relaxed);
			stopped = true;
		}
		if (progress && now >= tick) {
			svc_progress(serv, run_start, now, &last_calls,
				     &last_ns, run);
			while (tick <= now)
				tick += NSEC_PER_SEC;
		}
	}
	PTHREAD_CHECK(pthread_mutex_unlock(&serv->done_lock));
	if (progress)
		fputs("\r\033[K", stderr);
}

static void svc_stats_add(struct svc_stats *dst, const struct svc_stats *src)
{
	dst->calls += src->calls;
	dst->alloc_calls += src->alloc_calls;
	dst->pages += src->pages;
	dst->no_progress += src->no_progress;
	dst->waits += src->waits;
	dst->wait_ns += src->wait_ns;
	dst->requests += src->requests;
	dst->reads += src->reads;
	dst->writes += src->writes;
	dst->bytes_read += src->bytes_read;
	dst->bytes_written += src->bytes_written;
	dst->digest += src->digest;
}

static struct pp_pool *svc_pool_create(const struct rpcsim_config *cfg)
{
	struct pp_pool_config pc;
	struct pp_pool *pool;

	pp_pool_config_init(&pc);
	pc.nr_pages = cfg->pool_pages;
	pc.pcp_batch = cfg->pcp_batch;
	pc.pcp_high = cfg->pcp_high;
	pc.backend = cfg->backend;
	pc.bulk_variant = cfg->bulk_variant;
	pc.je_tcache = cfg->je_tcache;
	pc.je_batch_alloc = cfg->je_batch;
	pool = pp_pool_create(&pc);
	if (!pool)
		fprintf(stderr, "rpcsim: cannot create a %s pool of %lu pages: "
			"%s\n", pp_backend_name(cfg->backend),
			cfg->pool_pages, strerror(errno));
	return pool;
}

/* A pool that could not be destroyed stays reachable (for LeakSanitizer). */
static struct pp_pool *volatile svc_leaked_pool;

/*
 * Everything back; the pool must be whole.  The verdict comes from page
 * state (free + pcp pages == all pages, and pp_pool_destroy() agreeing),
 * not from the pool's event counters, which are statistics.  With the
 * jemalloc backend the pages jemalloc keeps for reuse (nr_backend) are
 * not out; pp_pool_destroy() then checks that no page is in use, destroys
 * the jemalloc arena and checks that every page came back.
 * Returns -1 on a leak.
 */
static int svc_teardown(struct svc_serv *serv, struct svc_result *res)
{
	const struct rpcsim_config *cfg = serv->cfg;
	const char *label = rpcsim_mode_label(serv->mode);
	struct pp_vmstat *st = &res->exit;
	struct svc_acct *a = &res->acct;
	unsigned long out;
	int ret = 0;

	for (unsigned int i = 0; i < cfg->threads; i++)
		svc_rqst_destroy(serv, serv->rqsts[i]);
	free(serv->rqsts);
	svc_cache_release(serv);
	*a = serv->acct;
	pp_pool_vmstat(serv->pool, st);
	out = st->nr_pages - st->nr_free - st->nr_pcp - st->nr_backend;
	res->counters_consistent = st->events[PP_PGALLOC] ==
				   st->events[PP_PGFREE];
	if (out) {
		fprintf(stderr, "rpcsim: leak: %lu of %lu pages did not come "
			"back to the pool after %s run %u\n", out,
			st->nr_pages, label, res->run);
		ret = -1;
	}
	if (a->allocated != a->released || a->cache_gets != a->cache_puts) {
		fprintf(stderr, "rpcsim: leak: after %s run %u rpcsim "
			"allocated %llu pages and released %llu, took %llu "
			"page-cache references and dropped %llu\n", label,
			res->run, (unsigned long long)a->allocated,
			(unsigned long long)a->released,
			(unsigned long long)a->cache_gets,
			(unsigned long long)a->cache_puts);
		ret = -1;
	}
	if (!out && !res->counters_consistent)
		fprintf(stderr, "rpcsim: warning: every page came back after "
			"%s run %u, but libpagepool's counters disagree: "
			"pgalloc %llu, pgfree %llu\n", label, res->run,
			(unsigned long long)st->events[PP_PGALLOC],
			(unsigned long long)st->events[PP_PGFREE]);
	/* Destroy checks again, and names the first pages still out. */
	if (pp_pool_destroy(serv->pool)) {
		if (!ret)
			fprintf(stderr, "rpcsim: leak: the pool of %s run %u "
				"still has pages out\n", label, res->run);
		svc_leaked_pool = serv->pool;
		ret = -1;
	}
	return ret;
}

/* run_start: the configuration, so a trace describes itself. */
static void svc_trace_run_start(const struct rpcsim_config *cfg,
				enum rpcsim_mode mode, unsigned int run)
{
	struct rpcsim_tp_run r = {
		.mode_name = rpcsim_mode_name(mode),
		.mode = (unsigned int)mode,
		.run = run,
		.threads = cfg->threads,
		.slots = (unsigned int)cfg->pages,
		.io_size = cfg->io_size,
		.max_payload = cfg->max_payload,
		.pool_pages = cfg->pool_pages,
		.file_pages = cfg->file_pages,
		.pcp_batch = cfg->pcp_batch,
		.pcp_high = cfg->pcp_high,
		.completion = cfg->completion == RPCSIM_COMPLETION_THREAD ?
			      "thread" : "inline",
		.read_weight = cfg->read_weight,
		.write_weight = cfg->write_weight,
		.seed = cfg->seed,
		.version = PACKAGE_VERSION,
		.backend = pp_backend_name(cfg->backend),
		.bulk_variant = pp_bulk_variant_name(cfg->bulk_variant),
	};

	rpcsim_trace(run_start, &r);
}

int svc_run(const struct rpcsim_config *cfg, enum rpcsim_mode mode,
	    unsigned int run, struct svc_result *res)
{
	struct svc_serv *serv = xcalloc(1, sizeof(*serv));
	struct pp_vmstat end;
	pthread_condattr_t attr;
	uint64_t start, released = 0, last = 0;
	int ret = 0;

	memset(res, 0, sizeof(*res));
	res->mode = mode;
	res->run = run;
	hist_init(&res->hist);
	res->threads = xcalloc(cfg->threads, sizeof(*res->threads));

	serv->cfg = cfg;
	serv->mode = mode;
	serv->limit = cfg->requests ? cfg->requests : UINT64_MAX;
	serv->wl = (struct workload){
		.seed = cfg->seed,
		.read_weight = cfg->read_weight,
		.write_weight = cfg->write_weight,
		.io_size = (uint32_t)cfg->io_size,
		.file_pages = cfg->file_pages,
		.io_pages = cfg->io_pages,
	};
	serv->pool = svc_pool_create(cfg);
	if (!serv->pool) {
		free(serv);
		return -1;
	}
	ret = svc_cache_fill(serv);
	if (ret) {
		/* pp_release_pages() skips the NULL slots not yet filled. */
		pp_release_pages(serv->pool, serv->cache, cfg->file_pages);
		free(serv->cache);
		pp_pool_destroy(serv->pool);
		free(serv);
		return ret;
	}

	PTHREAD_CHECK(pthread_mutex_init(&serv->done_lock, NULL));
	PTHREAD_CHECK(pthread_condattr_init(&attr));
	PTHREAD_CHECK(pthread_condattr_setclock(&attr, CLOCK_MONOTONIC));
	PTHREAD_CHECK(pthread_cond_init(&serv->done_cond, &attr));
	PTHREAD_CHECK(pthread_condattr_destroy(&attr));
	PTHREAD_CHECK(pthread_barrier_init(&serv->go, NULL, cfg->threads + 1));
	atomic_init(&serv->stop, false);
	atomic_init(&serv->stuck, false);
	atomic_init(&serv->gave_up, 0);
	atomic_init(&serv->waiting, 0);
	atomic_init(&serv->waits, 0);
	atomic_init(&serv->handled, 0);
	atomic_init(&serv->next_seq, 0);

	if (cfg->completion == RPCSIM_COMPLETION_THREAD)
		serv->compl = svc_completion_start(serv);
	serv->rqsts = xcalloc(cfg->threads, sizeof(*serv->rqsts));
	for (unsigned int i = 0; i < cfg->threads; i++)
		serv->rqsts[i] = svc_rqst_create(serv, i);

	/* Warm-up done (or given up): quiesce, take the counters, go. */
	svc_watch(serv, &serv->nr_ready, 0, run);
	if (serv->compl)
		released = svc_completion_drain(serv->compl);
	pp_pool_vmstat(serv->pool, &res->start);
	svc_trace_run_start(cfg, mode, run);
	start = now_ns();
	svc_barrier_wait(&serv->go);

	svc_watch(serv, &serv->nr_done, start, run);
	for (unsigned int i = 0; i < cfg->threads; i++) {
		struct svc_rqst *rqstp = serv->rqsts[i];

		PTHREAD_CHECK(pthread_join(rqstp->thread, NULL));
		if (rqstp->finish_ns > last)
			last = rqstp->finish_ns;
		res->threads[i] = rqstp->st;
		svc_stats_add(&res->total, &rqstp->st);
		hist_merge(&res->hist, &rqstp->hist);
	}
	if (serv->compl) {
		res->completions = svc_completion_drain(serv->compl) -
				   released;
		svc_completion_stop(serv, serv->compl);
	}
	rpcsim_trace(run_end, (unsigned int)mode, run, res->total.calls,
		     res->total.pages, res->hist.sum, res->total.requests,
		     res->total.no_progress);
	pp_pool_vmstat(serv->pool, &end);
	res->elapsed_s = (double)(last - start) / 1e9;
	for (unsigned int i = 0; i < PP_NR_VM_EVENTS; i++)
		res->events[i] = end.events[i] - res->start.events[i];

	PTHREAD_CHECK(pthread_barrier_destroy(&serv->go));
	PTHREAD_CHECK(pthread_cond_destroy(&serv->done_cond));
	PTHREAD_CHECK(pthread_mutex_destroy(&serv->done_lock));
	ret = svc_teardown(serv, res);
	if (atomic_load_explicit(&serv->stuck, memory_order_relaxed)) {
		fprintf(stderr, "rpcsim: %s run %u stalled: every server thread "
			"waited for pages for %llu s with nothing left to free "
			"them; the pool is too small for this run (the minimum "
			"is %lu pages, and PAGEPOOL_FAULT=buddy-empty takes "
			"pages away)\n", rpcsim_mode_label(mode), run,
			(unsigned long long)(STALL_NS / NSEC_PER_SEC),
			cfg->min_pool_pages);
		ret = -1;
	} else if (!rpcsim_interrupted && !res->total.calls &&
		   atomic_load_explicit(&serv->gave_up,
					memory_order_relaxed)) {
		/* The deadline came before the stall detector could. */
		fprintf(stderr, "rpcsim: %s run %u: no svc_alloc_arg() call "
			"completed before the run's end; the server threads "
			"were still waiting for pages: the pool is too small "
			"for this run (the minimum is %lu pages, and "
			"PAGEPOOL_FAULT=buddy-empty takes pages away)\n",
			rpcsim_mode_label(mode), run, cfg->min_pool_pages);
		ret = -1;
	}
	free(serv);
	return ret;
}

void svc_result_free(struct svc_result *res)
{
	free(res->threads);
	res->threads = NULL;
}
