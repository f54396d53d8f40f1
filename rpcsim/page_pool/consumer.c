/* SPDX-License-Identifier: MIT */
/*
 * The page_pool consumer (see consumer.h).  The packet model:
 *
 * - one RX queue per --threads, each a thread standing for its NAPI
 *   poll loop, with a page_pool of its own;
 * - a packet of --packet-size bytes takes one page per 4 KiB of it (a
 *   driver receiving into whole-page fragments, as multi-buffer XDP
 *   does), each from page_pool_alloc_pages(); a packet short of a page is
 *   dropped, its pages given back;
 * - --rate paces each queue by the clock (packet n is due n / rate s
 *   after the start); 0 receives as fast as the pool allows;
 * - --free-mix decides, per packet, how its pages come back: direct (the
 *   skb consumed in NAPI context: recycled into the alloc cache), ring
 *   (freed later by the stack thread, another CPU: into the ring), held
 *   (an skb clone keeps a reference: the pool releases the page, the
 *   stack thread later drops the clone's reference, which frees it to
 *   the allocator), or released (the frame becomes an skb that does not
 *   recycle, as veth's XDP_PASS before 5.14: the pool releases the page
 *   and the skb, consumed in the same NAPI context, frees it to the
 *   allocator on the RX thread's CPU);
 * - one stack thread frees the ring and held packets from a bounded
 *   queue (--queue-depth packets; a full queue makes the RX thread wait,
 *   counted as a wait).
 *
 * A timed "call" is one slow-path refill (__page_pool_alloc_pages_slow()),
 * as svc_alloc_arg() is for the nfsd consumer; --call-timing=off times
 * none (the calls are still counted).  At the end every pool is
 * destroyed, its pages in flight must be 0, and libpagepool's pool must
 * be whole, as after an nfsd run.
 */
#include <config.h>

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <pagepool/pagepool.h>

#include "consumer.h"
#include "util.h"
#include "watchdog.h"

/* How the stack thread frees a queued packet. */
enum ppool_fate {
	PPOOL_DIRECT,		/* not queued: freed in NAPI context */
	PPOOL_RING,		/* page_pool_put_page(), not direct */
	PPOOL_HELD,		/* the clone's reference: pp_put_page() */
	PPOOL_RELEASED,		/* not queued: released, then put */
	PPOOL_NR_FATES
};

struct ppool_packet {
	unsigned int queue;
	enum ppool_fate fate;
	struct pp_page **pages;		/* packet_pages slots */
};

/* The stack thread and the packets it has yet to free. */
struct ppool_stack {
	pthread_mutex_t lock;
	pthread_cond_t more;		/* a packet was queued, or stop */
	pthread_cond_t space;		/* a packet was freed */
	struct ppool_packet *ring;
	struct pp_page **slots;		/* depth x packet_pages */
	unsigned int depth;
	uint64_t head, tail;		/* packets queued, freed */
	bool stop;
	struct page_pool_recycle_stats rst;
	uint64_t clone_puts;
	pthread_t thread;
};

struct ppool_run;

/* One RX queue and its NAPI thread. */
struct ppool_rxq {
	struct page_pool pool;
	struct ppool_run *run;
	unsigned int id;
	pthread_t thread;
	struct pp_page **pkt;		/* the packet being received */
	uint64_t rng;
	uint64_t packets, dropped, freed[PPOOL_NR_FATES];
	uint64_t waits, wait_ns;
	uint64_t finish_ns;
	struct page_pool_recycle_stats rst;	/* direct returns */
} __attribute__((aligned(64)));

struct ppool_run {
	const struct rpcsim_config *cfg;
	enum rpcsim_mode mode;
	struct pp_pool *pp;
	unsigned char *origin;		/* per pfn (page_pool.h) */
	struct ppool_stack stack;
	struct ppool_rxq *rxq;		/* cfg->threads */
	pthread_barrier_t go;
	uint64_t start_ns;
	atomic_bool stop;
	_Atomic uint64_t next_packet;	/* packets claimed, --requests */
	uint64_t limit;			/* UINT64_MAX: none */
	atomic_uint nr_done;
};

static bool ppool_stopping(struct ppool_run *run)
{
	return atomic_load_explicit(&run->stop, memory_order_relaxed);
}

/* splitmix64: the per-queue stream deciding each packet's fate. */
static uint64_t ppool_random(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* --- the stack thread --------------------------------------------------- */

static void ppool_free_packet(struct ppool_run *run, struct ppool_packet *p)
{
	unsigned long n = run->cfg->packet_pages;
	struct ppool_stack *s = &run->stack;

	for (unsigned long i = 0; i < n; i++) {
		if (p->fate == PPOOL_HELD) {
			pp_put_page(run->pp, p->pages[i]);
			s->clone_puts++;
		} else {
			page_pool_put_page(&run->rxq[p->queue].pool,
					   p->pages[i], false, &s->rst);
		}
	}
}

/*
 * The stack: free the queued packets oldest first, all that are there at
 * once, outside the lock (each page_pool's ring has a lock of its own).
 * Stops when told to and the queue is empty.
 */
static void *ppool_stack_thread(void *arg)
{
	struct ppool_run *run = arg;
	struct ppool_stack *s = &run->stack;
	struct watchdog_thread *wdt = watchdog_enter("the stack thread", 0);

	PTHREAD_CHECK(pthread_mutex_lock(&s->lock));
	for (;;) {
		uint64_t head, tail = s->tail;

		while (s->head == tail && !s->stop)
			PTHREAD_CHECK(pthread_cond_wait(&s->more, &s->lock));
		head = s->head;
		if (head == tail)
			break;
		PTHREAD_CHECK(pthread_mutex_unlock(&s->lock));
		for (uint64_t i = tail; i < head; i++)
			ppool_free_packet(run, &s->ring[i % s->depth]);
		PTHREAD_CHECK(pthread_mutex_lock(&s->lock));
		s->tail = head;
		PTHREAD_CHECK(pthread_cond_broadcast(&s->space));
	}
	PTHREAD_CHECK(pthread_mutex_unlock(&s->lock));
	watchdog_leave(wdt);
	return NULL;
}

static void ppool_stack_start(struct ppool_run *run)
{
	const struct rpcsim_config *cfg = run->cfg;
	struct ppool_stack *s = &run->stack;
	int err;

	PTHREAD_CHECK(pthread_mutex_init(&s->lock, NULL));
	PTHREAD_CHECK(pthread_cond_init(&s->more, NULL));
	PTHREAD_CHECK(pthread_cond_init(&s->space, NULL));
	s->depth = cfg->queue_depth;
	s->ring = xcalloc(s->depth, sizeof(*s->ring));
	s->slots = xcalloc((size_t)s->depth * cfg->packet_pages,
			   sizeof(*s->slots));
	for (unsigned int i = 0; i < s->depth; i++)
		s->ring[i].pages = s->slots + (size_t)i * cfg->packet_pages;
	err = pthread_create(&s->thread, NULL, ppool_stack_thread, run);
	if (err) {
		fprintf(stderr, "rpcsim: cannot start the stack thread: %s\n",
			strerror(err));
		exit(1);
	}
}

/* Everything queued is freed, then the thread ends. */
static void ppool_stack_stop(struct ppool_run *run)
{
	struct ppool_stack *s = &run->stack;

	PTHREAD_CHECK(pthread_mutex_lock(&s->lock));
	s->stop = true;
	PTHREAD_CHECK(pthread_cond_signal(&s->more));
	PTHREAD_CHECK(pthread_mutex_unlock(&s->lock));
	PTHREAD_CHECK(pthread_join(s->thread, NULL));
	PTHREAD_CHECK(pthread_cond_destroy(&s->space));
	PTHREAD_CHECK(pthread_cond_destroy(&s->more));
	PTHREAD_CHECK(pthread_mutex_destroy(&s->lock));
	free(s->slots);
	free(s->ring);
}

/*
 * Hand @rxq's packet to the stack thread, waiting while the queue is
 * full (the stack thread always makes progress, so the wait ends).
 */
static void ppool_stack_queue(struct ppool_rxq *rxq, enum ppool_fate fate)
{
	struct ppool_run *run = rxq->run;
	struct ppool_stack *s = &run->stack;
	struct ppool_packet *p;

	PTHREAD_CHECK(pthread_mutex_lock(&s->lock));
	if (s->head - s->tail == s->depth) {
		uint64_t t0 = now_ns();

		while (s->head - s->tail == s->depth)
			PTHREAD_CHECK(pthread_cond_wait(&s->space, &s->lock));
		rxq->waits++;
		rxq->wait_ns += now_ns() - t0;
	}
	p = &s->ring[s->head % s->depth];
	p->queue = rxq->id;
	p->fate = fate;
	memcpy(p->pages, rxq->pkt, run->cfg->packet_pages * sizeof(*p->pages));
	/* The stack thread sleeps only on an empty queue: wake it then. */
	if (s->head++ == s->tail)
		PTHREAD_CHECK(pthread_cond_signal(&s->more));
	PTHREAD_CHECK(pthread_mutex_unlock(&s->lock));
}

/* --- an RX queue ----------------------------------------------------------- */

static void ppool_barrier_wait(pthread_barrier_t *b)
{
	int err = pthread_barrier_wait(b);

	if (err && err != PTHREAD_BARRIER_SERIAL_THREAD)
		rpcsim_die("pthread_barrier_wait: %s", strerror(err));
}

/*
 * --rate: sleep until packet @n of this queue is due.  False when the run
 * is stopping.  Slept in slices so a stop is seen within 50 ms.
 */
static bool ppool_pace(struct ppool_rxq *rxq, uint64_t n)
{
	struct ppool_run *run = rxq->run;
	uint64_t due = run->start_ns +
		       (uint64_t)((double)n * 1e9 / (double)run->cfg->rate);

	for (uint64_t now = now_ns(); now < due; now = now_ns()) {
		uint64_t left = due - now;
		struct timespec ts;

		if (ppool_stopping(run))
			return false;
		if (left > NSEC_PER_SEC / 20)
			left = NSEC_PER_SEC / 20;
		ts.tv_sec = (time_t)(left / NSEC_PER_SEC);
		ts.tv_nsec = (long)(left % NSEC_PER_SEC);
		nanosleep(&ts, NULL);
	}
	return true;
}

/*
 * Receive one packet into rxq->pkt: a page per 4 KiB, the device's
 * write stamped on each (its sequence number).  False, the pages given
 * back, when the pool had none left (the packet is dropped).
 */
static bool ppool_receive(struct ppool_rxq *rxq, uint64_t seq)
{
	struct ppool_run *run = rxq->run;
	unsigned long n = run->cfg->packet_pages;

	for (unsigned long i = 0; i < n; i++) {
		rxq->pkt[i] = page_pool_alloc_pages(&rxq->pool);
		if (!rxq->pkt[i]) {
			while (i--)
				page_pool_put_page(&rxq->pool, rxq->pkt[i],
						   true, &rxq->rst);
			return false;
		}
		memcpy(pp_page_address(run->pp, rxq->pkt[i]), &seq,
		       sizeof(seq));
	}
	return true;
}

/* The packet's pages come back the way --free-mix drew for it. */
static void ppool_consume(struct ppool_rxq *rxq)
{
	const struct rpcsim_config *cfg = rxq->run->cfg;
	unsigned int total = cfg->free_direct + cfg->free_ring +
			     cfg->free_held + cfg->free_released;
	unsigned int r = (unsigned int)(ppool_random(&rxq->rng) % total);
	unsigned long n = cfg->packet_pages;
	enum ppool_fate fate;

	if (r < cfg->free_direct)
		fate = PPOOL_DIRECT;
	else if (r < cfg->free_direct + cfg->free_ring)
		fate = PPOOL_RING;
	else if (r < cfg->free_direct + cfg->free_ring + cfg->free_held)
		fate = PPOOL_HELD;
	else
		fate = PPOOL_RELEASED;
	rxq->freed[fate]++;
	if (fate == PPOOL_RING) {
		ppool_stack_queue(rxq, fate);
		return;
	}
	if (fate == PPOOL_RELEASED) {
		/* xdp_release_frame(), then the skb's free: this CPU */
		for (unsigned long i = 0; i < n; i++) {
			page_pool_release_page(&rxq->pool, rxq->pkt[i]);
			pp_put_page(rxq->run->pp, rxq->pkt[i]);
		}
		return;
	}
	for (unsigned long i = 0; i < n; i++) {
		/* The clone's reference first, then the skb's goes. */
		if (fate == PPOOL_HELD)
			pp_get_page(rxq->run->pp, rxq->pkt[i]);
		page_pool_put_page(&rxq->pool, rxq->pkt[i], true, &rxq->rst);
	}
	if (fate == PPOOL_HELD)
		ppool_stack_queue(rxq, fate);
}

static void *ppool_rx_thread(void *arg)
{
	struct ppool_rxq *rxq = arg;
	struct ppool_run *run = rxq->run;
	struct watchdog_thread *wdt = watchdog_enter("RX queue thread",
						     rxq->id + 1);

	ppool_barrier_wait(&run->go);
	for (uint64_t n = 0; !ppool_stopping(run); n++) {
		uint64_t seq = atomic_fetch_add_explicit(&run->next_packet, 1,
							 memory_order_relaxed);

		if (seq >= run->limit)
			break;
		if (run->cfg->rate && !ppool_pace(rxq, n))
			break;
		if (!ppool_receive(rxq, seq)) {
			rxq->dropped++;
			continue;
		}
		rxq->packets++;
		ppool_consume(rxq);
	}
	rxq->finish_ns = now_ns();
	watchdog_leave(wdt);
	atomic_fetch_add_explicit(&run->nr_done, 1, memory_order_release);
	return NULL;
}

/* --- the run ------------------------------------------------------------- */

#define PPOOL_POLL_NS	(NSEC_PER_SEC / 100)

/* Main thread: until every queue is done; the deadline or a signal stops. */
static void ppool_watch(struct ppool_run *run)
{
	const struct rpcsim_config *cfg = run->cfg;
	uint64_t deadline = UINT64_MAX;

	if (cfg->duration_s > 0)
		deadline = run->start_ns + (uint64_t)(cfg->duration_s * 1e9);
	while (atomic_load_explicit(&run->nr_done, memory_order_acquire) <
	       cfg->threads) {
		uint64_t now = now_ns(), wait = PPOOL_POLL_NS;
		struct timespec ts;

		if (now >= deadline || rpcsim_first_signal()) {
			if (now >= deadline)
				watchdog_arm("the run's deadline");
			atomic_store_explicit(&run->stop, true,
					      memory_order_relaxed);
		}
		else if (deadline - now < wait)
			wait = deadline - now;
		ts.tv_sec = 0;
		ts.tv_nsec = (long)wait;
		nanosleep(&ts, NULL);
	}
}

static void ppool_rxq_start(struct ppool_run *run, unsigned int id)
{
	const struct rpcsim_config *cfg = run->cfg;
	struct ppool_rxq *rxq = &run->rxq[id];
	int err;

	rxq->run = run;
	rxq->id = id;
	rxq->rng = cfg->seed * 0x100000001b3ULL + id;
	rxq->pkt = xcalloc(cfg->packet_pages, sizeof(*rxq->pkt));
	page_pool_init(&rxq->pool, run->pp, run->mode, id, cfg->ring_size,
		       run->origin, cfg->call_timing);
	err = pthread_create(&rxq->thread, NULL, ppool_rx_thread, rxq);
	if (err) {
		fprintf(stderr, "rpcsim: cannot start RX queue thread %u of "
			"%u: %s\n", id + 1, cfg->threads, strerror(err));
		exit(1);
	}
}

/* The RX threads are done: their figures and latencies into @res. */
static void ppool_collect(struct ppool_run *run, struct svc_result *res)
{
	const struct rpcsim_config *cfg = run->cfg;
	struct ppool_result *pr = res->page_pool;
	uint64_t last = run->start_ns;

	for (unsigned int i = 0; i < cfg->threads; i++) {
		struct ppool_rxq *rxq = &run->rxq[i];
		const struct page_pool_alloc_stats *a = &rxq->pool.alloc;
		struct svc_stats *st = &res->threads[i];

		PTHREAD_CHECK(pthread_join(rxq->thread, NULL));
		if (rxq->finish_ns > last)
			last = rxq->finish_ns;
		st->calls = a->slow;
		st->alloc_calls = a->alloc_calls;
		st->pages = a->slow_pages;
		st->no_progress = a->slow_fail;
		st->waits = rxq->waits;
		st->wait_ns = rxq->wait_ns;
		st->requests = rxq->packets;
		st->bytes_read = rxq->packets * cfg->packet_size;
		svc_stats_add(&res->total, st);
		hist_merge(&res->hist, &rxq->pool.hist);
		page_pool_alloc_stats_add(&pr->alloc, a);
		page_pool_recycle_stats_add(&pr->recycle_direct, &rxq->rst);
		pr->packets += rxq->packets;
		pr->dropped += rxq->dropped;
		pr->freed_direct += rxq->freed[PPOOL_DIRECT];
		pr->freed_ring += rxq->freed[PPOOL_RING];
		pr->freed_held += rxq->freed[PPOOL_HELD];
		pr->freed_released += rxq->freed[PPOOL_RELEASED];
	}
	res->elapsed_s = (double)(last - run->start_ns) / 1e9;
}

/*
 * After the RX threads: the stack thread frees what it holds, then each
 * page_pool is destroyed (its cache and ring back to the allocator).
 * Returns -1, said, when a pool still has pages in flight.
 */
static int ppool_teardown_pools(struct ppool_run *run, struct svc_result *res)
{
	const struct rpcsim_config *cfg = run->cfg;
	struct ppool_result *pr = res->page_pool;
	int ret = 0;

	ppool_stack_stop(run);
	page_pool_recycle_stats_add(&pr->recycle_stack, &run->stack.rst);
	pr->clone_puts = run->stack.clone_puts;
	for (unsigned int i = 0; i < cfg->threads; i++) {
		struct ppool_rxq *rxq = &run->rxq[i];
		uint32_t inflight = page_pool_destroy(&rxq->pool);

		pr->hold += rxq->pool.hold_total;
		pr->release += atomic_load_explicit(&rxq->pool.release_total,
						    memory_order_relaxed);
		pr->inflight += inflight;
		if (inflight) {
			fprintf(stderr, "rpcsim: leak: the page_pool of RX "
				"queue %u has %u pages in flight after %s run "
				"%u\n", i, inflight,
				rpcsim_mode_label(run->mode), res->run);
			ret = -1;
		}
		free(rxq->pkt);
	}
	return ret;
}

int ppool_run(const struct rpcsim_config *cfg, enum rpcsim_mode mode,
	      unsigned int run_nr, struct svc_result *res)
{
	struct ppool_run run = {
		.cfg = cfg,
		.mode = mode,
		.limit = cfg->requests ? cfg->requests : UINT64_MAX,
	};
	const char *label = rpcsim_mode_label(mode);
	struct svc_acct *acct = &res->acct;
	struct pp_vmstat end;
	bool early;
	int ret;

	memset(res, 0, sizeof(*res));
	res->mode = mode;
	res->run = run_nr;
	hist_init(&res->hist);
	res->threads = xcalloc(cfg->threads, sizeof(*res->threads));
	res->page_pool = xcalloc(1, sizeof(*res->page_pool));
	if (rpcsim_first_signal())
		return 1;
	/* From the pool's creation (a plugin's init) to its destruction. */
	watchdog_run_begin();
	run.pp = svc_pool_create(cfg);
	if (!run.pp) {
		watchdog_run_end();
		return -1;
	}
	run.origin = xcalloc(cfg->pool_pages, 1);
	atomic_init(&run.stop, false);
	atomic_init(&run.next_packet, 0);
	atomic_init(&run.nr_done, 0);
	PTHREAD_CHECK(pthread_barrier_init(&run.go, NULL, cfg->threads + 1));
	ppool_stack_start(&run);
	if (posix_memalign((void **)&run.rxq, 64,
			   cfg->threads * sizeof(*run.rxq)))
		rpcsim_die("out of memory for the RX queues");
	memset(run.rxq, 0, cfg->threads * sizeof(*run.rxq));
	for (unsigned int i = 0; i < cfg->threads; i++)
		ppool_rxq_start(&run, i);

	/*
	 * A signal while the pools and the threads were set up: nothing is
	 * measured, so it is no run (1, as for one before the setup).  The
	 * threads pass the barrier and stop at once.
	 */
	early = rpcsim_first_signal() != 0;
	if (early)
		atomic_store_explicit(&run.stop, true, memory_order_relaxed);
	pp_pool_vmstat(run.pp, &res->start);
	run.start_ns = now_ns();
	ppool_barrier_wait(&run.go);
	ppool_watch(&run);
	ppool_collect(&run, res);
	pp_pool_vmstat(run.pp, &end);
	for (unsigned int e = 0; e < PP_NR_VM_EVENTS; e++)
		res->events[e] = end.events[e] - res->start.events[e];
	PTHREAD_CHECK(pthread_barrier_destroy(&run.go));
	ret = ppool_teardown_pools(&run, res);
	free(run.rxq);
	free(run.origin);

	/* Every page the pools held came back: rpcsim's own books. */
	acct->allocated = res->page_pool->hold;
	acct->released = res->page_pool->release;
	if (svc_pool_out(cfg, run.pp, label, res))
		ret = -1;
	if (svc_pool_finish(run.pp, label, res, ret))
		ret = -1;
	watchdog_run_end();
	return early && !ret ? 1 : ret;
}

void ppool_result_add(struct ppool_result *dst, const struct ppool_result *src)
{
	page_pool_alloc_stats_add(&dst->alloc, &src->alloc);
	page_pool_recycle_stats_add(&dst->recycle_direct,
				    &src->recycle_direct);
	page_pool_recycle_stats_add(&dst->recycle_stack, &src->recycle_stack);
	dst->hold += src->hold;
	dst->release += src->release;
	dst->inflight += src->inflight;
	dst->packets += src->packets;
	dst->dropped += src->dropped;
	dst->freed_direct += src->freed_direct;
	dst->freed_ring += src->freed_ring;
	dst->freed_held += src->freed_held;
	dst->freed_released += src->freed_released;
	dst->clone_puts += src->clone_puts;
}

double ppool_hit_rate(const struct ppool_result *r)
{
	return r->alloc.handed_out ?
	       (double)(r->alloc.from_cache + r->alloc.from_ring) /
	       (double)r->alloc.handed_out : 0;
}
