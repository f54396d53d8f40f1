/* SPDX-License-Identifier: MIT */
/*
 * The run driver (svc_run()): one run of one allocation mode on a fresh
 * pool: fill the page cache, start the completion thread and the server
 * threads, watch the warm-up and the timed run (deadline, signals, stalls,
 * the progress line), gather the results, then take everything back and
 * check the pool is whole.
 */
#include <config.h>

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <pagepool/pagepool.h>

#include "svc_internal.h"
#include "trace.h"
#include "trace_schema.h"
#include "util.h"
#include "watchdog.h"
#include "workload.h"

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
	if (cfg->tcp_read)
		rqstp->sk_pages = xcalloc(cfg->pages, sizeof(*rqstp->sk_pages));
	rqstp->payload = xcalloc(1, cfg->io_size);
	for (size_t i = 0; i < cfg->io_size; i++)
		rqstp->payload[i] = (unsigned char)(i * 7 + id);
	for (unsigned int k = 0; k < BY_REFILL_NR; k++)
		hist_init(&rqstp->refill[k]);
	timeline_init(&rqstp->tl, (uint64_t)(cfg->interval_s * 1e9));
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
	free(rqstp->sk_pages);
	free(rqstp->payload);
	timeline_free(&rqstp->tl);
	free(rqstp);
}

/*
 * The time the run has left, from its deadline (--duration) and from
 * the requests it has left at its rate so far (--requests; not the
 * calls, which --tcp-read makes more than the requests), the sooner:
 * ", ETA 42 s", ", ETA 3m05s"; "" when neither bounds it or no request
 * is done yet.
 */
static void svc_eta(char *buf, size_t len, const struct svc_serv *serv,
		    uint64_t start, uint64_t now, uint64_t deadline,
		    uint64_t requests)
{
	double left = -1, s;

	if (deadline != UINT64_MAX)
		left = deadline > now ? (double)(deadline - now) / 1e9 : 0;
	if (serv->limit != UINT64_MAX && requests && now > start) {
		s = (double)(serv->limit > requests ?
			     serv->limit - requests : 0) *
		    ((double)(now - start) / 1e9) / (double)requests;
		if (left < 0 || s < left)
			left = s;
	}
	if (left < 0) {
		buf[0] = '\0';
		return;
	}
	s = ceil(left);
	if (s < 60)
		snprintf(buf, len, ", ETA %.0f s", s);
	else if (s < 3600)
		snprintf(buf, len, ", ETA %.0fm%02.0fs", floor(s / 60),
			 fmod(s, 60));
	else
		snprintf(buf, len, ", ETA %.0fh%02.0fm", floor(s / 3600),
			 floor(fmod(s, 3600) / 60));
}

static void svc_progress(struct svc_serv *serv, uint64_t start, uint64_t now,
			 uint64_t deadline, uint64_t *last_calls,
			 uint64_t *last_ns, unsigned int run)
{
	const struct rpcsim_config *cfg = serv->cfg;
	uint64_t calls = 0, pages = 0, requests = 0;
	char rate[32], eta[48];
	double dt;

	for (unsigned int i = 0; i < cfg->threads; i++) {
		calls += atomic_load_explicit(&serv->rqsts[i]->progress_calls,
					      memory_order_relaxed);
		pages += atomic_load_explicit(&serv->rqsts[i]->progress_pages,
					      memory_order_relaxed);
		requests += atomic_load_explicit(
			&serv->rqsts[i]->progress_requests,
			memory_order_relaxed);
	}
	dt = (double)(now - *last_ns) / 1e9;
	fmt_thousands(rate, sizeof(rate),
		      dt > 0 ? (uint64_t)((double)(calls - *last_calls) / dt)
			     : 0);
	svc_eta(eta, sizeof(eta), serv, start, now, deadline, requests);
	/* on a terminal rewritten in place; elsewhere (--progress) lines */
	fprintf(stderr, "%srpcsim: %s run %u/%u: %s calls/s, %.1f "
		"pages/call, %.0f s elapsed%s%s",
		cfg->progress_tty ? "\r\033[K" : "",
		rpcsim_mode_label(serv->mode), run, cfg->repeat, rate,
		calls ? (double)pages / (double)calls : 0.0,
		(double)(now - start) / 1e9, eta,
		cfg->progress_tty ? "" : "\n");
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
		if (!stopped && (now >= deadline || rpcsim_first_signal() ||
				 atomic_load_explicit(&serv->stuck,
						      memory_order_relaxed))) {
			/* A signal starts the watchdog's count itself. */
			if (now >= deadline)
				watchdog_arm("the run's deadline");
			else if (!rpcsim_first_signal())
				watchdog_arm("the stall");
			atomic_store_explicit(&serv->stop, true,
					      memory_order_relaxed);
			stopped = true;
		}
		if (progress && now >= tick) {
			svc_progress(serv, run_start, now, deadline,
				     &last_calls, &last_ns, run);
			while (tick <= now)
				tick += NSEC_PER_SEC;
		}
	}
	PTHREAD_CHECK(pthread_mutex_unlock(&serv->done_lock));
	if (progress && cfg->progress_tty)
		fputs("\r\033[K", stderr);
}

void svc_stats_add(struct svc_stats *dst, const struct svc_stats *src)
{
	dst->calls += src->calls;
	dst->unfinished += src->unfinished;
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
	dst->short_reads += src->short_reads;
	dst->digest += src->digest;
}

struct pp_pool *svc_pool_create(const struct rpcsim_config *cfg)
{
	struct pp_pool_config pc = cfg->pool_env;
	struct pp_pool *pool;

	pc.nr_pages = cfg->pool_pages;
	pc.pcp_batch = cfg->pcp_batch;
	pc.pcp_high = cfg->pcp_high;
	pc.nr_nodes = cfg->nodes;
	pc.backend = cfg->backend;
	pc.backend_plugin = cfg->backend_plugin;
	pc.bulk_variant = cfg->bulk_variant;
	pc.profile = cfg->profile;
	pc.je_tcache = cfg->je_tcache;
	pc.je_batch_alloc = cfg->je_batch;
	pool = pp_pool_create(&pc);
	if (!pool) {
		fprintf(stderr, "rpcsim: cannot create a %s pool of %lu pages: "
			"%s\n", pp_backend_name(cfg->backend),
			cfg->pool_pages, strerror(errno));
		return NULL;
	}
	/*
	 * The header, the JSON's config.pcp_impl and a sweep's pcp column
	 * name what was resolved before the runs: it must be what the pool
	 * runs, or every row would carry a wrong label.
	 */
	if (pp_pool_pcp_impl(pool) != cfg->pcp_impl) {
		fprintf(stderr, "rpcsim: the pool runs the %s pcp lists, not "
			"the %s ones its report would name\n",
			pp_pcp_impl_name(pp_pool_pcp_impl(pool)),
			pp_pcp_impl_name(cfg->pcp_impl));
		pp_pool_destroy(pool);
		return NULL;
	}
	return pool;
}

/*
 * A plugin's nr_held is its word for the free pages it holds, and the
 * leak check takes it (nr_backend).  The pool keeps its own count: the
 * pages the plugin took from the zone and did not give back
 * (backend_grow_pages - backend_shrink_pages), less those in use
 * (pgalloc - pgfree), exact once the run is over.  When the two differ,
 * the plugin's count is wrong, not a page leaked: say so, naming it.
 */
static bool svc_plugin_count_wrong(const struct rpcsim_config *cfg,
				   const struct pp_vmstat *st,
				   const char *label, unsigned int run)
{
	uint64_t taken, in_use, counted;

	if (st->backend != PP_BACKEND_PLUGIN)
		return false;
	taken = st->events[PP_BACKEND_GROW_PAGES] -
		st->events[PP_BACKEND_SHRINK_PAGES];
	in_use = st->events[PP_PGALLOC] - st->events[PP_PGFREE];
	counted = taken > in_use ? taken - in_use : 0;
	if (counted == st->nr_backend)
		return false;
	fprintf(stderr, "rpcsim: backend plugin %s: after %s run %u its "
		"nr_held says it holds %lu free pages, the pool counts %llu "
		"(%llu taken from the zone and not given back, %llu in use): "
		"the plugin's count is wrong, the leak check cannot use it\n",
		cfg->backend_plugin, label, run, st->nr_backend,
		(unsigned long long)counted, (unsigned long long)taken,
		(unsigned long long)in_use);
	return true;
}

/* A pool that could not be destroyed stays reachable (for LeakSanitizer). */
static struct pp_pool *volatile svc_leaked_pool;

/*
 * The verdict comes from page state (free + pcp pages == all pages, and
 * pp_pool_destroy() agreeing), not from the pool's event counters, which
 * are statistics.  With the jemalloc backend the pages jemalloc keeps for
 * reuse (nr_backend) are not out; pp_pool_destroy() then checks that no
 * page is in use, destroys the jemalloc arena and checks that every page
 * came back.
 */
int svc_pool_out(const struct rpcsim_config *cfg, struct pp_pool *pool,
		 const char *label, struct svc_result *res)
{
	struct pp_vmstat *st = &res->exit;
	unsigned long out;

	pp_pool_vmstat(pool, st);
	for (unsigned int n = 0; n < pp_pool_nr_nodes(pool); n++)
		pp_pool_node_vmstat(pool, n, &res->nodes_exit[n]);
	out = st->nr_pages - st->nr_free - st->nr_pcp - st->nr_backend;
	res->counters_consistent = st->events[PP_PGALLOC] ==
				   st->events[PP_PGFREE];
	if (svc_plugin_count_wrong(cfg, st, label, res->run))
		return -1;
	if (!out)
		return 0;
	fprintf(stderr, "rpcsim: leak: %lu of %lu pages did not come "
		"back to the pool after %s run %u\n", out, st->nr_pages, label,
		res->run);
	return -1;
}

int svc_pool_finish(struct pp_pool *pool, const char *label,
		    struct svc_result *res, int ret)
{
	const struct pp_vmstat *st = &res->exit;
	bool out = st->nr_pages != st->nr_free + st->nr_pcp + st->nr_backend;

	if (!out && !res->counters_consistent)
		fprintf(stderr, "rpcsim: warning: every page came back after "
			"%s run %u, but libpagepool's counters disagree: "
			"pgalloc %llu, pgfree %llu\n", label, res->run,
			(unsigned long long)st->events[PP_PGALLOC],
			(unsigned long long)st->events[PP_PGFREE]);
	/* Destroy checks again, and names the first pages still out. */
	if (pp_pool_destroy(pool)) {
		if (!ret)
			fprintf(stderr, "rpcsim: leak: the pool of %s run %u "
				"still has pages out\n", label, res->run);
		svc_leaked_pool = pool;
		return -1;
	}
	return 0;
}

/*
 * Everything back; the pool must be whole (svc_pool_out()) and rpcsim's
 * own books must balance.  Returns -1 on a leak.
 */
static int svc_teardown(struct svc_serv *serv, struct svc_result *res)
{
	const struct rpcsim_config *cfg = serv->cfg;
	const char *label = rpcsim_mode_label(serv->mode);
	struct svc_acct *a = &res->acct;
	int ret = 0;

	for (unsigned int i = 0; i < cfg->threads; i++)
		svc_rqst_destroy(serv, serv->rqsts[i]);
	free(serv->rqsts);
	svc_cache_release(serv);
	*a = serv->acct;
	if (svc_pool_out(cfg, serv->pool, label, res))
		ret = -1;
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
	if (svc_pool_finish(serv->pool, label, res, ret))
		ret = -1;
	return ret;
}

/* The trace's backend enumeration has a label for every enum pp_backend. */
#define SVC_ONE_LABEL(label, value) + 1
_Static_assert(0 TRACE_ENUM_BACKEND(SVC_ONE_LABEL) == PP_NR_BACKENDS,
	       "trace_schema.h: TRACE_ENUM_BACKEND misses a backend");
#undef SVC_ONE_LABEL

/* The process's runs so far (rpcsim_tp_run.run_seq); they run one by one. */
static unsigned int svc_runs_started;

/* run_start: the configuration, so a trace describes itself. */
static void svc_trace_run_start(const struct rpcsim_config *cfg,
				enum rpcsim_mode mode, unsigned int run)
{
	struct rpcsim_tp_run r = {
		.mode_name = rpcsim_mode_name(mode),
		.mode = (unsigned int)mode,
		.run = run,
		.pid = (int)getpid(),
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
		.backend = (unsigned int)cfg->backend,
		.bulk_variant = (unsigned int)cfg->bulk_variant,
		.tcp_read = cfg->tcp_read,
		.run_seq = ++svc_runs_started,
	};

	rpcsim_trace(run_start, &r);
}

/*
 * The server before its threads: the workload, the pool and the page
 * cache filled from it.  0, or what svc_run() returns, everything undone.
 */
static int svc_serv_setup(struct svc_serv *serv,
			  const struct rpcsim_config *cfg,
			  enum rpcsim_mode mode)
{
	int ret;

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
	if (!serv->pool)
		return -1;
	serv->debug_list = pp_pool_debug_list(serv->pool);
	ret = svc_cache_fill(serv);
	if (ret) {
		/* pp_release_pages() skips the NULL slots not yet filled. */
		pp_release_pages(serv->pool, serv->cache, cfg->file_pages);
		free(serv->cache);
		pp_pool_destroy(serv->pool);
	}
	return ret;
}

/* What the threads meet on: the done lock and condition, the barrier. */
static void svc_sync_init(struct svc_serv *serv)
{
	pthread_condattr_t attr;

	PTHREAD_CHECK(pthread_mutex_init(&serv->done_lock, NULL));
	PTHREAD_CHECK(pthread_condattr_init(&attr));
	PTHREAD_CHECK(pthread_condattr_setclock(&attr, CLOCK_MONOTONIC));
	PTHREAD_CHECK(pthread_cond_init(&serv->done_cond, &attr));
	PTHREAD_CHECK(pthread_condattr_destroy(&attr));
	PTHREAD_CHECK(pthread_barrier_init(&serv->go, NULL,
					   serv->cfg->threads + 1));
	atomic_init(&serv->stop, false);
	atomic_init(&serv->stuck, false);
	atomic_init(&serv->gave_up, 0);
	atomic_init(&serv->waiting, 0);
	atomic_init(&serv->waits, 0);
	atomic_init(&serv->handled, 0);
	atomic_init(&serv->next_seq, 0);
}

static void svc_sync_destroy(struct svc_serv *serv)
{
	PTHREAD_CHECK(pthread_barrier_destroy(&serv->go));
	PTHREAD_CHECK(pthread_cond_destroy(&serv->done_cond));
	PTHREAD_CHECK(pthread_mutex_destroy(&serv->done_lock));
}

/*
 * The timed run is over: join the threads and sum what they did into
 * @res, with the completions since @released and the pool's counters
 * since @res->start.
 */
static void svc_collect(struct svc_serv *serv, struct svc_result *res,
			uint64_t start, uint64_t released, bool traced)
{
	const struct rpcsim_config *cfg = serv->cfg;
	struct pp_vmstat end;
	uint64_t last = 0;

	for (unsigned int i = 0; i < cfg->threads; i++) {
		struct svc_rqst *rqstp = serv->rqsts[i];

		PTHREAD_CHECK(pthread_join(rqstp->thread, NULL));
		if (rqstp->finish_ns > last)
			last = rqstp->finish_ns;
		res->threads[i] = rqstp->st;
		svc_stats_add(&res->total, &rqstp->st);
		for (unsigned int k = 0; k < BY_REFILL_NR; k++) {
			hist_merge(&res->hist, &rqstp->refill[k]);
			hist_merge(&res->refill[k], &rqstp->refill[k]);
		}
		timeline_merge(&res->tl, &rqstp->tl);
	}
	if (serv->compl) {
		res->completions = svc_completion_drain(serv->compl) -
				   released;
		svc_completion_stop(serv, serv->compl);
	}
	if (traced)
		rpcsim_trace(run_end, (unsigned int)serv->mode, res->run,
			     res->total.calls, res->total.pages, res->hist.sum,
			     res->total.requests, res->total.no_progress,
			     res->total.short_reads);
	pp_pool_vmstat(serv->pool, &end);
	res->elapsed_s = (double)(last - start) / 1e9;
	for (unsigned int i = 0; i < PP_NR_VM_EVENTS; i++)
		res->events[i] = end.events[i] - res->start.events[i];
}

/*
 * A run that starved before the stall detector's window was over: most
 * of its allocator calls failed, or its threads spent most of their time
 * waiting for pages and were still waiting when it ended.  Its mean is
 * then over the few calls that got through, not an answer.
 */
static bool svc_mostly_waited(const struct svc_serv *serv,
			      const struct svc_result *res)
{
	const struct svc_stats *t = &res->total;
	double thread_ns = res->elapsed_s * 1e9 * serv->cfg->threads;

	if (t->no_progress * 2 > t->alloc_calls)
		return true;
	return t->unfinished && (double)t->wait_ns * 2 > thread_ns;
}

/*
 * A run whose threads waited for pages to the end: the stall detector
 * fired, the deadline came first with no call completed, or the pool
 * starved (svc_mostly_waited()).  Says so: -1; otherwise 0.
 */
static int svc_starved(const struct svc_serv *serv,
		       const struct svc_result *res)
{
	const struct rpcsim_config *cfg = serv->cfg;
	enum rpcsim_mode mode = serv->mode;

	if (atomic_load_explicit(&serv->stuck, memory_order_relaxed)) {
		fprintf(stderr, "rpcsim: %s run %u stalled: every server thread "
			"waited for pages for %llu s with nothing left to free "
			"them; the pool is too small for this run (the minimum "
			"is %lu pages, and PAGEPOOL_FAULT=buddy-empty takes "
			"pages away)\n", rpcsim_mode_label(mode), res->run,
			(unsigned long long)(STALL_NS / NSEC_PER_SEC),
			cfg->min_pool_pages);
		return -1;
	}
	if (!rpcsim_first_signal() && svc_mostly_waited(serv, res)) {
		const struct svc_stats *t = &res->total;

		fprintf(stderr, "rpcsim: %s run %u: the pool starved: %llu of "
			"%llu allocator calls failed and the server threads "
			"waited for pages %llu times (%.3f s of their %.3f s); "
			"%llu svc_alloc_arg() calls completed, %llu were still "
			"waiting at the end: the pool is too small for this "
			"run (the minimum is %lu pages, and "
			"PAGEPOOL_FAULT=buddy-empty takes pages away)\n",
			rpcsim_mode_label(mode), res->run,
			(unsigned long long)t->no_progress,
			(unsigned long long)t->alloc_calls,
			(unsigned long long)t->waits, (double)t->wait_ns / 1e9,
			res->elapsed_s * cfg->threads,
			(unsigned long long)t->calls,
			(unsigned long long)t->unfinished, cfg->min_pool_pages);
		return -1;
	}
	if (!rpcsim_first_signal() && !res->total.calls &&
	    atomic_load_explicit(&serv->gave_up, memory_order_relaxed)) {
		/* The deadline came before the stall detector could. */
		fprintf(stderr, "rpcsim: %s run %u: no svc_alloc_arg() call "
			"completed before the run's end; the server threads "
			"were still waiting for pages: the pool is too small "
			"for this run (the minimum is %lu pages, and "
			"PAGEPOOL_FAULT=buddy-empty takes pages away)\n",
			rpcsim_mode_label(mode), res->run,
			cfg->min_pool_pages);
		return -1;
	}
	return 0;
}

int svc_run(const struct rpcsim_config *cfg, enum rpcsim_mode mode,
	    unsigned int run, struct svc_result *res)
{
	struct svc_serv *serv = xcalloc(1, sizeof(*serv));
	uint64_t start, released = 0;
	bool early;
	int ret;

	memset(res, 0, sizeof(*res));
	res->mode = mode;
	res->run = run;
	hist_init(&res->hist);
	for (unsigned int k = 0; k < BY_REFILL_NR; k++)
		hist_init(&res->refill[k]);
	timeline_init(&res->tl, (uint64_t)(cfg->interval_s * 1e9));
	res->threads = xcalloc(cfg->threads, sizeof(*res->threads));

	/* From the pool's creation (a plugin's init) to its destruction. */
	watchdog_run_begin();
	ret = svc_serv_setup(serv, cfg, mode);
	if (ret) {
		free(serv);
		watchdog_run_end();
		return ret;
	}
	svc_sync_init(serv);
	if (cfg->completion == RPCSIM_COMPLETION_THREAD)
		serv->compl = svc_completion_start(serv);
	serv->rqsts = xcalloc(cfg->threads, sizeof(*serv->rqsts));
	for (unsigned int i = 0; i < cfg->threads; i++)
		serv->rqsts[i] = svc_rqst_create(serv, i);

	/* Warm-up done (or given up): quiesce, take the counters, go. */
	svc_watch(serv, &serv->nr_ready, 0, run);
	/*
	 * A signal during the warm-up or the threads' start stopped them
	 * before their timed run (svc_watch()): they pass the barrier and
	 * end at once.  Nothing is measured, so it is no run: 1, as for a
	 * signal during the cache fill, and no run_start or run_end in the
	 * trace.
	 */
	early = rpcsim_first_signal() != 0;
	if (serv->compl)
		released = svc_completion_drain(serv->compl);
	pp_pool_vmstat(serv->pool, &res->start);
	if (!early)
		svc_trace_run_start(cfg, mode, run);
	start = now_ns();
	serv->start_ns = start;
	svc_barrier_wait(&serv->go);

	svc_watch(serv, &serv->nr_done, start, run);
	svc_collect(serv, res, start, released, !early);
	svc_sync_destroy(serv);
	ret = svc_teardown(serv, res);
	if (early)
		ret = ret ? ret : 1;
	else if (svc_starved(serv, res))
		ret = -1;
	free(serv);
	watchdog_run_end();
	return ret;
}

void svc_result_free(struct svc_result *res)
{
	free(res->threads);
	res->threads = NULL;
	free(res->page_pool);
	res->page_pool = NULL;
	timeline_free(&res->tl);
}
