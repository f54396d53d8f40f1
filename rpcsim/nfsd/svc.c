/* SPDX-License-Identifier: MIT */
/*
 * A server thread's loop, the heart of the emulated NFS server: per-thread
 * rq_pages[] refilled by svc_alloc_arg() in one of three modes, a request
 * received into those pages, served from the page cache (svc_cache.c),
 * and the reply released inline or handed to the completion thread
 * (svc_completion.c), which is what leaves the holes the next
 * svc_alloc_arg() call refills.  svc_run.c drives the threads.
 * The kernel code emulated here is svc_alloc_arg() in
 * net/sunrpc/svc_xprt.c as Linux 5.13 merged it (the bulk allocator's
 * first user), and the places that release rq_pages: svc_send(),
 * svc_xprt_release(), the READ path's page splicing.
 */
#include <config.h>

#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <time.h>

#include <pagepool/pagepool.h>

#include "svc_internal.h"
#include "trace.h"
#include "util.h"
#include "watchdog.h"
#include "workload.h"

#define likely(x)	__builtin_expect(!!(x), 1)
#define unlikely(x)	__builtin_expect(!!(x), 0)

/* Warm-up requests are numbered apart from the timed ones. */
#define WARMUP_SEQ	(1ULL << 63)

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
		p = pp_list_pop_page_check(&list, serv->debug_list);
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
 * Write bytes [@off, @off + @len) of the record made of @part[0..@nr)
 * into pages @pv at the same offsets.
 */
static void record_write(struct pp_pool *pool, struct pp_page **pv,
			 const struct iovec *part, unsigned int nr, size_t off,
			 size_t len)
{
	size_t base = 0;

	for (unsigned int k = 0; k < nr && len; k++) {
		size_t end = base + part[k].iov_len;

		if (off < end) {
			size_t n = end - off < len ? end - off : len;

			pages_write(pool, pv, off, (const unsigned char *)
				    part[k].iov_base + (off - base), n);
			off += n;
			len -= n;
		}
		base = end;
	}
}

/*
 * svc_tcp_save_pages(): a read left the record short; the pages holding
 * its first @got bytes go aside and their slots become holes, which the
 * next svc_alloc_arg() call refills.
 */
static void svc_tcp_save_pages(struct svc_rqst *rqstp, size_t got)
{
	unsigned long n = (unsigned long)DIV_ROUND_UP(got, PP_PAGE_SIZE);

	memcpy(rqstp->sk_pages, rqstp->rq_pages, n * sizeof(*rqstp->sk_pages));
	memset(rqstp->rq_pages, 0, n * sizeof(*rqstp->rq_pages));
	rqstp->sk_saved = n;
	rqstp->holes = n;
}

/*
 * svc_tcp_restore_pages(): the next read; the pages just refilled into
 * those slots are put, and the record's own pages come back.
 */
static void svc_tcp_restore_pages(struct svc_rqst *rqstp)
{
	struct pp_pool *pool = rqstp->serv->pool;

	for (unsigned long i = 0; i < rqstp->sk_saved; i++) {
		if (rqstp->rq_pages[i]) {
			pp_put_page(pool, rqstp->rq_pages[i]);
			rqstp->acct.released++;
		}
		rqstp->rq_pages[i] = rqstp->sk_pages[i];
		rqstp->sk_pages[i] = NULL;
	}
	rqstp->sk_saved = 0;
	rqstp->arg_head = pp_page_address(pool, rqstp->rq_pages[0]);
}

/* svc_tcp_clear_pages(): the record is dropped (the run stops). */
static void svc_tcp_clear_pages(struct svc_rqst *rqstp)
{
	struct pp_pool *pool = rqstp->serv->pool;

	for (unsigned long i = 0; i < rqstp->sk_saved; i++) {
		pp_put_page(pool, rqstp->sk_pages[i]);
		rqstp->acct.released++;
		rqstp->sk_pages[i] = NULL;
	}
	rqstp->sk_saved = 0;
}

static bool svc_refill(struct svc_rqst *rqstp, bool timed);

/*
 * svc_tcp_recvfrom(): the record lands in rq_pages[0..i) (a WRITE's data
 * included); the reply starts at rq_pages[i].  With --tcp-read a record
 * longer than that comes in pieces: after each short read the received
 * pages are set aside, the thread goes round again through svc_alloc_arg()
 * (nfsd()'s loop on -EAGAIN), and the next read puts the refilled pages
 * and takes the record's back.  False: that refill was given up.
 */
static bool svc_recv(struct svc_rqst *rqstp, const struct nfs_request *req,
		     bool timed)
{
	static const unsigned char zeros[4];
	struct svc_serv *serv = rqstp->serv;
	unsigned char hdr[NFS3_CALL_HDR_MAX];
	size_t record, len = nfs3_encode_call(req, hdr, &record);
	size_t got = 0, step = serv->cfg->tcp_read ? serv->cfg->tcp_read :
			       record;
	struct iovec part[3] = {
		{ .iov_base = hdr, .iov_len = len },
	};
	unsigned int nr = 1;
	unsigned long i;

	if (req->op == NFS_WRITE) {
		/* The client's data: stamp each page's worth with the seq. */
		for (size_t off = 0; off < req->count; off += PP_PAGE_SIZE) {
			size_t n = req->count - off;

			memcpy(rqstp->payload + off, &req->seq,
			       n < sizeof(req->seq) ? n : sizeof(req->seq));
		}
		part[nr++] = (struct iovec){ .iov_base = rqstp->payload,
					     .iov_len = req->count };
		part[nr++] = (struct iovec){ .iov_base = (void *)zeros,
					     .iov_len = record - len -
							req->count };
	}
	i = (unsigned long)DIV_ROUND_UP(record, PP_PAGE_SIZE);
	if (i >= serv->cfg->pages)
		rpcsim_die("request of %zu bytes overflows rq_pages", record);
	for (;;) {
		size_t n = record - got < step ? record - got : step;

		record_write(serv->pool, rqstp->rq_pages, part, nr, got, n);
		got += n;
		if (got == record)
			break;
		svc_tcp_save_pages(rqstp, got);
		if (timed)
			rqstp->st.short_reads++;
		rpcsim_trace(svc_tcp_recv_short,
			     (uint64_t)(record - RPC_FRAGHDR_SIZE),
			     (uint64_t)(got - RPC_FRAGHDR_SIZE));
		if (!svc_refill(rqstp, timed)) {
			svc_tcp_clear_pages(rqstp);
			return false;
		}
		svc_tcp_restore_pages(rqstp);
	}
	rpcsim_trace(request, req->op == NFS_WRITE, (uint64_t)req->count,
		     (unsigned int)i);
	rqstp->arg_len = record;
	rqstp->rq_respages = i;
	rqstp->rq_next_page = i + 1;
	rqstp->rq_spliced = 0;
	return true;
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

/*
 * One svc_alloc_arg() call, timed and booked (@timed: it counts toward the
 * results).  False: given up, the run stops.
 */
static bool svc_refill(struct svc_rqst *rqstp, bool timed)
{
	struct svc_serv *serv = rqstp->serv;
	struct svc_alloc_stats as = { 0 };
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
		/*
		 * Its failed allocator calls and waits happened in the timed
		 * run: a run that starved at the end must show them.
		 */
		if (timed) {
			rqstp->st.unfinished++;
			rqstp->st.alloc_calls += as.alloc_calls;
			rqstp->st.no_progress += as.no_progress;
			rqstp->st.waits += as.waits;
			rqstp->st.wait_ns += as.wait_ns;
		}
		return false;
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
	rqstp->holes = 0;
	if (!timed)
		return true;
	hist_add(&rqstp->refill[by_refill_of(as.allocated)], t1 - t0);
	timeline_add(&rqstp->tl, t1 - serv->start_ns, t1 - t0);
	rqstp->st.calls++;
	rqstp->st.alloc_calls += as.alloc_calls;
	rqstp->st.pages += as.allocated;
	rqstp->st.no_progress += as.no_progress;
	rqstp->st.waits += as.waits;
	rqstp->st.wait_ns += as.wait_ns;
	atomic_store_explicit(&rqstp->progress_calls, rqstp->st.calls,
			      memory_order_relaxed);
	atomic_store_explicit(&rqstp->progress_pages, rqstp->st.pages,
			      memory_order_relaxed);
	return true;
}

/* One request, start to finish; @timed: it counts toward the results. */
static void svc_handle(struct svc_rqst *rqstp, uint64_t seq, bool timed)
{
	struct svc_serv *serv = rqstp->serv;
	struct nfs_request req;

	if (!svc_refill(rqstp, timed))
		return;
	workload_request(&serv->wl, seq, &req);
	if (!svc_recv(rqstp, &req, timed))
		return;
	svc_process(rqstp, &req);
	svc_send(rqstp);

	if (!timed)
		return;
	rqstp->st.requests++;
	if (req.op == NFS_READ) {
		rqstp->st.reads++;
		rqstp->st.bytes_read += req.count;
	} else {
		rqstp->st.writes++;
		rqstp->st.bytes_written += req.count;
	}
	rqstp->st.digest += workload_digest(&req);
	atomic_store_explicit(&rqstp->progress_requests, rqstp->st.requests,
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

void svc_barrier_wait(pthread_barrier_t *b)
{
	int err = pthread_barrier_wait(b);

	if (err && err != PTHREAD_BARRIER_SERIAL_THREAD)
		rpcsim_die("pthread_barrier_wait: %s", strerror(err));
}

void *svc_thread(void *arg)
{
	struct svc_rqst *rqstp = arg;
	struct svc_serv *serv = rqstp->serv;
	struct watchdog_thread *wdt = watchdog_enter("server thread",
						     rqstp->id + 1);
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
	watchdog_leave(wdt);
	return NULL;
}
