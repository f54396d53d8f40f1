/* SPDX-License-Identifier: MIT */
/*
 * A user-space page_pool (net/core/page_pool.c, 5.13 on) over libpagepool:
 * one per RX queue, an alloc cache of 128 pages that only the queue's own
 * (NAPI) thread touches, a ring for pages returned from other threads, the
 * slow path that refills the empty cache with one bulk call of 64 pages,
 * and the recycle-or-release decision of page_pool_put_page().  Used by
 * rpcsim's page_pool consumer (consumer.c).
 */
#ifndef RPCSIM_PAGE_POOL_H
#define RPCSIM_PAGE_POOL_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include <pagepool/pagepool.h>

#include "hist.h"
#include "options.h"

/*
 * The kernel's sizes (include/net/page_pool.h: PP_ALLOC_CACHE_SIZE and
 * PP_ALLOC_CACHE_REFILL; PP_ is libpagepool's prefix here).
 */
#define PAGE_POOL_CACHE_SIZE	128
#define PAGE_POOL_CACHE_REFILL	64

/*
 * Where a page handed out came from, kept per pfn: fresh from the
 * allocator, recycled into the alloc cache by the NAPI thread, or
 * recycled through the ring.  A page is in one page_pool at a time, so
 * one byte per pfn serves every pool of a run.
 */
enum page_pool_origin {
	PAGE_POOL_FROM_ALLOC,
	PAGE_POOL_FROM_CACHE,
	PAGE_POOL_FROM_RING,
};

/* The allocation side, counted by the pool's own thread (kernel names). */
struct page_pool_alloc_stats {
	uint64_t handed_out;		/* pages page_pool_alloc_pages() gave */
	uint64_t from_alloc, from_cache, from_ring;	/* their origins */
	uint64_t fast;			/* pages popped from the alloc cache */
	uint64_t slow;			/* slow-path calls (timed) */
	uint64_t slow_pages;		/* pages those calls allocated */
	uint64_t slow_fail;		/* slow-path calls that got none */
	uint64_t alloc_calls;		/* allocator calls they made */
	uint64_t refill;		/* ring refills that gave a page */
	uint64_t refill_pages;		/* pages moved from ring to cache */
	uint64_t empty;			/* refills that found the ring empty */
};

/* The return side, counted by whoever returns pages (kernel names). */
struct page_pool_recycle_stats {
	uint64_t cached;		/* into the alloc cache (direct) */
	uint64_t cache_full;		/* direct, but the cache was full */
	uint64_t ring;			/* into the ring */
	uint64_t ring_full;		/* the ring was full: released */
	uint64_t released_refcnt;	/* still referenced: released */
};

/* A ptr_ring: a bounded FIFO of page pointers under one lock. */
struct page_pool_ring {
	pthread_mutex_t lock;
	struct pp_page **slots;
	unsigned int size;		/* entries */
	unsigned int head, count;	/* oldest entry, entries held */
};

struct page_pool {
	struct pp_pool *pp;		/* the page allocator */
	enum rpcsim_mode mode;		/* how the slow path allocates */
	bool pure_output;		/* the bulk array is output only */
	bool debug_list;		/* list_del() checked (pp_pool_debug_list) */
	bool timed;			/* slow-path calls timed into hist */
	unsigned int id;		/* RX queue number */
	unsigned char *origin;		/* per pfn, shared by a run's pools */
	unsigned int count;		/* alloc.count */
	struct pp_page *cache[PAGE_POOL_CACHE_SIZE];	/* alloc.cache */
	struct page_pool_ring ring;
	/*
	 * pages_state_hold_cnt (only the pool's thread allocates) and
	 * pages_state_release_cnt (any thread releases): what the pool
	 * took from the allocator and gave back; the difference is the
	 * pages in flight.  32 bits, as the kernel's, wrapping alike: the
	 * tracepoints' values and the in-flight check at destroy.
	 * hold_total and release_total count the same, updated beside
	 * them (release_total atomically too), in 64 bits for the report
	 * and rpcsim's books: one pool passes 2^32 pages in about 500 s
	 * at 8.5 M pages/s.
	 */
	uint32_t hold_cnt;
	_Atomic uint32_t release_cnt;
	uint64_t hold_total;
	_Atomic uint64_t release_total;
	struct page_pool_alloc_stats alloc;
	struct hist hist;		/* ns per slow-path call, when timed */
};

/*
 * page_pool_create(): an empty pool for RX queue @id over @pp whose slow
 * path allocates the way @mode says, its ring of @ring_size entries;
 * @timed: each slow-path call is timed (two clock reads) into its hist.
 * Dies if out of memory.
 */
void page_pool_init(struct page_pool *pool, struct pp_pool *pp,
		    enum rpcsim_mode mode, unsigned int id,
		    unsigned int ring_size, unsigned char *origin,
		    bool timed);

/*
 * page_pool_alloc_pages(): one page for a received packet, from the alloc
 * cache, else refilled from the ring, else from the slow path (timed into
 * pool->hist when pool->timed).  Only the pool's own thread.  NULL when the allocator had
 * nothing (GFP_ATOMIC: the driver drops the packet, nobody waits).
 */
struct pp_page *page_pool_alloc_pages(struct page_pool *pool);

/*
 * page_pool_put_page(): the pool's reference to @page goes.  The only
 * reference left: recycled, into the alloc cache when @allow_direct (the
 * pool's own thread, NAPI context) and it has room, else into the ring;
 * the ring full, or @page referenced elsewhere too: released from the
 * pool (page_pool_return_page()) and its reference dropped.  Any thread;
 * @allow_direct only from the pool's.  Counts into @st, the caller's.
 */
void page_pool_put_page(struct page_pool *pool, struct pp_page *page,
			bool allow_direct, struct page_pool_recycle_stats *st);

/*
 * page_pool_release_page(): @page leaves the pool's books (release
 * count, state_release event) and its reference passes to the caller,
 * who puts it: 5.13's page_pool_release_page(), as xdp_release_frame()
 * calls it for a frame that becomes an skb.  Any thread.
 */
void page_pool_release_page(struct page_pool *pool, struct pp_page *page);

/*
 * page_pool_destroy(): every page in the alloc cache and the ring goes
 * back to the allocator; no other thread may use @pool any more.
 * Returns the pages still in flight (hold - release), 0 when every page
 * the pool ever held came back.
 */
uint32_t page_pool_destroy(struct page_pool *pool);

void page_pool_alloc_stats_add(struct page_pool_alloc_stats *dst,
			       const struct page_pool_alloc_stats *src);
void page_pool_recycle_stats_add(struct page_pool_recycle_stats *dst,
				 const struct page_pool_recycle_stats *src);

#endif /* RPCSIM_PAGE_POOL_H */
