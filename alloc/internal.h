/* SPDX-License-Identifier: MIT */
/*
 * libpagepool internals: the zone, its per-CPU lists, counters and the
 * helpers shared by the allocation and free paths.
 *
 * Who may touch a pcp list (enum pp_pcp_impl; pcp.c has the long story):
 *   rseq   only restartable sequences of the CPU the list belongs to
 *          (rseq.h), or a remote drain that has stopped the list and
 *          aborted that CPU's sections with membarrier();
 *   lock   the holder of pcp->lock, only ever taken with trylock on the
 *          hot paths (a drain spins on it), standing in for IRQ-off +
 *          pcp->lock.
 *
 * Locking, in the order it may nest:
 *   pcp->lock   lock implementation: the list; rseq: serialises remote
 *               drains of the list;
 *   zone->lock  the zone lock, a mutex, guards free_area[] and nr_free.
 * Nothing takes a pcp lock while holding the zone lock.  rseq sections
 * take no lock and may run while the zone lock is held.
 */
#ifndef PP_ALLOC_INTERNAL_H
#define PP_ALLOC_INTERNAL_H

#include <config.h>

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <pagepool/pagepool.h>

#include "kernel.h"
#include "rseq-config.h"
#include "trace.h"

#define likely(x)	__builtin_expect(!!(x), 1)
#define unlikely(x)	__builtin_expect(!!(x), 0)

#define PP_CACHELINE	64

/* free_unref_page_list() retakes the lock every SWAP_CLUSTER_MAX pages. */
#define PP_SWAP_CLUSTER_MAX	32

/* Byte written over freed pages in debug mode (PAGE_POISON is 0xaa). */
#define PP_POISON_BYTE	0xaa

/* pp_page.flags */
#define PP_PG_POISONED	0x0001u	/* freed with debug on: poison to verify */

enum pp_wmark { PP_WMARK_MIN, PP_WMARK_LOW, PP_WMARK_HIGH, PP_NR_WMARK };

/* Allocation flags derived from gfp (ALLOC_* in mm/internal.h). */
#define PP_ALLOC_WMARK_MASK	0x03u	/* index into zone->wmark[] */
#define PP_ALLOC_NO_WATERMARKS	0x04u
#define PP_ALLOC_HARDER		0x08u
#define PP_ALLOC_HIGH		0x10u

/*
 * A per-CPU page list.  The kernel threads its pcp lists through
 * page->lru; here the list is a ring of page pointers with the same two
 * ends: pages are freed to and allocated from the hot end (top - 1),
 * drained to the buddy lists from the cold end (top - count), refilled by
 * batch when empty.  Taking n pages is then n independent loads, not a
 * walk of n dependent ones (one L1 load latency per page, about 4 cycles
 * here, which alone held the bulk loop at twice the cost of moving
 * pointers).  The ring has a power-of-two number of slots, at least high
 * (or the pool's pages, if fewer); count never exceeds it.
 *
 * @state packs both ends in one word, (top << 32) | count, so that one
 * store commits any change of the list: an rseq section's commit (rseq.h).
 * top wraps modulo 2^32; the slot of index i is ring[i & mask].
 */
struct pp_pcp {
	atomic_int lock;		/* 0 free, 1 held */
	unsigned int fault_trylock;	/* cfg->fault.trylock, percent */
	_Atomic uint64_t state;		/* (top << 32) | count */
	atomic_uint stopped;		/* rseq: a remote drain owns the list */
	unsigned int high;
	unsigned int batch;
	unsigned int cpu;
	unsigned int mask;		/* ring slots - 1 (a power of two) */
	/*
	 * The node of the zone whose pages it holds: an index, not a
	 * pointer, as it fits the hole before @ring.
	 */
	unsigned int node;
	struct pp_page **ring;
	/*
	 * Counters of events on this CPU.  @events is written only by the
	 * list's owner: with plain stores by the holder of @lock, or by
	 * rseq sections of this CPU (one add instruction each).
	 * @events_unlocked takes atomic adds from anyone else.  They are
	 * kept apart because a plain store by the owner would undo a
	 * concurrent atomic add to the same word.  Readers sum both.
	 */
	_Atomic uint64_t events[PP_NR_VM_EVENTS];
	_Atomic uint64_t events_unlocked[PP_NR_VM_EVENTS];
	/*
	 * pp_alloc_page() on rseq lists: calls that took their one order-0
	 * page off this list, each one PGALLOC and one ALLOC_SINGLE_CALLS.
	 * The two move together there, so they are one add, one section
	 * (of the owner, as @events); pp_pool_vmstat() adds it to both.
	 * It makes the struct 520 bytes: aligned, so padded, to 1024, a
	 * power of two, so that pool->pcp[cpu] stays a shift (at 576 bytes
	 * the bulk array at 64 ran 3 to 5 % slower).  The lists are
	 * allocated with that alignment (pp_zone_setup()).
	 */
	_Atomic uint64_t single_pages;
	/* The kernel profile's lists and differentials (kernel.h). */
	struct ppk_pcp k;
} __attribute__((aligned(1024)));

struct pp_free_area {
	struct pp_list_head free_list;
	unsigned long nr_free;		/* blocks of this order */
};

/* One CPU's numa counters of one zone, on a line of their own. */
struct pp_numa_pcpu {
	_Atomic uint64_t ev[PP_NR_NUMA_STATS];
} __attribute__((aligned(PP_CACHELINE)));

/*
 * A zone (struct zone): one node's pages, pfns [@start_pfn, @start_pfn +
 * @nr_pages), with their buddy lists, watermarks and per-CPU lists.  The
 * read-mostly part comes first; the zone lock and what it guards start a
 * cache line of their own, as pool->lock did.
 */
struct pp_zone {
	struct pp_pcp *pcp;		/* pool->nr_cpus entries */
	unsigned long wmark[PP_NR_WMARK];
	/* cfg->fault.buddy_empty: pages the buddy lists pretend not to have */
	unsigned long fault_buddy_reserve;
	unsigned long start_pfn;
	unsigned long nr_pages;
	unsigned int node;
	struct pp_page **rings;		/* the pcp lists' rings, one mapping */
	size_t rings_bytes;
	/*
	 * zone_statistics() of a pool of several nodes, a cache line of
	 * counters per CPU (the CPU counting, atomic adds): pool->nr_cpus
	 * entries.
	 */
	struct pp_numa_pcpu *numa;

	/* The buddy lists under the zone lock. */
	pthread_mutex_t lock __attribute__((aligned(PP_CACHELINE)));
	/* Pages in the buddy lists; read without the lock by watermarks. */
	atomic_ulong nr_free;
	struct pp_free_area free_area[PP_NR_ORDERS];
};

struct pp_backend_ops;

/* Fault injection (fault.c): cfg->fault from PAGEPOOL_FAULT, the draw. */
int pp_fault_config_env(struct pp_pool_config *cfg);
bool pp_fault_trylock_hit(unsigned int percent);

/*
 * pp_pool.magic: PP_POOL_LIVE from create until destroy frees the pool,
 * PP_POOL_DEAD just before.  Not at the start of the struct, where free()
 * keeps its own pointers, so a second destroy of a pool whose memory has
 * not been reused still finds PP_POOL_DEAD there.
 */
#define PP_POOL_LIVE	0x70706f6fU	/* "oopp" */
#define PP_POOL_DEAD	0xdeadb001U

struct pp_pool {
	/* Read-mostly: layout and configuration. */
	char *arena;
	size_t arena_bytes;
	struct pp_page *mem_map;
	size_t map_bytes;
	unsigned int magic;		/* PP_POOL_LIVE or PP_POOL_DEAD */
	unsigned long nr_pages;
	unsigned int nr_cpus;
	unsigned int nr_nodes;		/* zones in use in @zones */
	unsigned long node_span;	/* pages per node (the last: more) */
	uint8_t *cpu_node;		/* nr_cpus entries: cpu_to_node() */
	/* node_distance(i, j); the zonelist of node i, nearest first. */
	uint8_t distance[PP_MAX_NODES][PP_MAX_NODES];
	uint8_t zonelist[PP_MAX_NODES][PP_MAX_NODES];
	bool debug;
	bool slow;			/* see pp_pool_slow() */
	bool pcp_rseq;			/* PP_PCP_RSEQ, else PP_PCP_LOCK */
	bool kernel;			/* PP_PROFILE_KERNEL */
	bool init_on_alloc;		/* kernel profile: zero every page */
	uint8_t backend_id;		/* enum pp_backend */
	_Atomic unsigned int bulk_variant;	/* enum pp_bulk_variant */
	/*
	 * NULL for the buddy backend, whose paths are the inline ones here.
	 * Read only by the dispatch helpers below struct pp_backend_ops.
	 */
	const struct pp_backend_ops *ops;
	void *backend;			/* the backend's private state */
	struct ppk_pool *k;		/* the kernel profile's, else NULL */
	char *map_base;			/* the arena's mapping, before alignment */
	size_t map_len;

	/*
	 * One zone per node, embedded so that zones[0] (the only one of a
	 * one-node pool) is at a constant offset: the fast paths reach its
	 * pcp lists with the one load they took when they were the pool's.
	 */
	struct pp_zone zones[PP_MAX_NODES];
};

/*
 * Allocation context of one call (struct alloc_context).  Counters for the
 * call itself are deferred here and added while a pcp lock is held, so the
 * common path costs plain stores, not atomic read-modify-writes.
 */
struct pp_alloc_ctx {
	pp_gfp_t gfp;
	unsigned int order;
	int nid;		/* preferred node; PP_NUMA_NO_NODE: this CPU's */
	unsigned int alloc_flags;
	unsigned int nr_pending;
	enum pp_vm_event pending[4];
};

/*
 * One call of __alloc_pages_bulk() as the fill loops see it: the list or
 * the array to fill (the other NULL), up to @nr_pages, @gfp already
 * masked, @call the API entry point named in reports.
 */
struct pp_bulk_req {
	pp_gfp_t gfp;
	unsigned long nr_pages;
	struct pp_list_head *page_list;
	struct pp_page **page_array;
	const char *call;
};

/*
 * How a fill loop runs (its flags argument).  The bulk core passes
 * constants, so each always-inline copy of a loop is compiled for one
 * combination and tests none of them per page.
 */
#define PP_FILL_LIST		0x01u	/* onto @page_list, not the array */
#define PP_FILL_CHECKS		0x02u	/* debug checks, GFP_ZERO: the full
					   prep_new_page() per page */
#define PP_FILL_ALL		0x04u	/* every entry of the array, populated
					   or not (PP_BULK_PURE_OUTPUT) */
#define PP_FILL_STOP		0x08u	/* stop at the first populated entry
					   (PP_BULK_STOP_AT_POPULATED) */
#define PP_FILL_PER_PAGE_STATS	0x10u	/* PGALLOC per page in the loop, as
					   5.13; else once after it */

/* What the bulk loop did. */
struct pp_bulk_fill {
	unsigned long nr_populated;	/* index reached in the array */
	unsigned long nr_account;	/* pages allocated */
	bool dry;			/* stopped: no page to be had */
	bool stopped;			/* stopped at a populated entry */
};

/*
 * What a backend other than buddy provides (jemalloc.c, plugin.c).  The API entry
 * points keep the parts of the contracts every backend shares (counting the
 * call, the bulk variants' front end, fallbacks, references, debug checks,
 * tracepoints) and call these for the allocator's own work.
 */
struct pp_backend_ops {
	/*
	 * The single-page path: a block of 2^@ac->order pages, prepared
	 * (refcount 1, in use, checked and zeroed as @ac->gfp asks), PGALLOC
	 * and the deferred counters of @ac counted; NULL on failure (counted
	 * as alloc_fail).
	 */
	struct pp_page *(*alloc_pages)(struct pp_pool *pool,
				       struct pp_alloc_ctx *ac,
				       const char *call);
	/*
	 * The bulk loop, @pcp->lock held: fill the NULL entries of
	 * @req->page_array from @f->nr_populated on (all of
	 * [@f->nr_populated, @req->nr_pages) with PP_FILL_ALL), or add
	 * pages to @req->page_list, up to @req->nr_pages; stop at the first
	 * populated entry past a hole with PP_FILL_STOP.  Counts PGALLOC per
	 * page (PP_FILL_PER_PAGE_STATS) or once.  @flags: PP_FILL_*.
	 */
	void (*bulk_fill)(struct pp_pool *pool, struct pp_pcp *pcp,
			  const struct pp_bulk_req *req,
			  struct pp_bulk_fill *f, unsigned int flags);
	/*
	 * A block whose last reference went, prepared (state back to the
	 * backend's): give it back, counting PGFREE.  @pcp: this CPU's pcp,
	 * locked by the caller, or NULL.
	 */
	void (*free_pages)(struct pp_pool *pool, struct pp_pcp *pcp,
			   struct pp_page *page, unsigned int order);
	/*
	 * Optional (NULL: free_pages once per page): @nr order-0 pages of
	 * pp_release_pages(), prepared, given back at once, PGFREE counted.
	 * @pcp as for free_pages.
	 */
	void (*free_batch)(struct pp_pool *pool, struct pp_pcp *pcp,
			   struct pp_page **pages, unsigned int nr);
	/* pp_pool_drain(): give cached pages back to the zone. */
	void (*drain)(struct pp_pool *pool);
	/* Pages held, not handed out (vmstat's nr_backend). */
	unsigned long (*nr_held)(struct pp_pool *pool, uint64_t allocated);
	/* pp_pool_destroy(), no page out: tear down, give everything back. */
	int (*destroy)(struct pp_pool *pool);
};

/*
 * Backend dispatch: the one place that reads pool->ops (jemalloc.c sets it
 * when the pool is created, pp_pool_destroy() clears it).  NULL means the
 * buddy allocator, whose paths are inline in alloc.c and free.c: it gets no
 * table, so its paths pay one branch for the choice (the callers say which
 * way it is likely to go), not an indirect call.  An entry point asks
 * pp_pool_buddy() (or, on the straight-line fast paths, pp_pool_slow())
 * once; for another backend it calls the pp_backend_*() helper of the
 * step, which goes through the table.  The steps the buddy allocator has
 * no work in (drain, nr_held) may be called for any pool.
 *
 * The two tests are macros, not inline functions, so that each is part of
 * the expression of the caller's likely()/unlikely(): as functions their
 * tests got branch weights of their own before inlining, and the fast
 * paths and the bulk core came out laid out otherwise than with the test
 * written in place.
 */
#define pp_pool_buddy(pool)	(!(pool)->ops)

/*
 * The straight-line fast paths do not apply: debug checks, a backend,
 * several nodes (a zonelist to walk, pages of several zones to free), or
 * the kernel profile (its own paths, kernel*.c, from the slow ones).  One
 * flag, set when the pool is created, so that they test one byte: the
 * fast paths know zones[0] is the pool's only zone past it.
 */
#define pp_pool_slow(pool)	((pool)->slow)

/* The state a block whose last reference went is left in for its owner. */
static inline unsigned int pp_backend_free_state(const struct pp_pool *pool)
{
	return pp_pool_buddy(pool) ? PP_PAGE_NONE : PP_PAGE_BACKEND;
}

/* Another backend only: see struct pp_backend_ops for each contract. */
static inline struct pp_page *pp_backend_alloc_pages(struct pp_pool *pool,
						     struct pp_alloc_ctx *ac,
						     const char *call)
{
	return pool->ops->alloc_pages(pool, ac, call);
}

/* @req by value: see pp_alloc_pages_bulk_core(). */
static inline void pp_backend_bulk_fill(struct pp_pool *pool,
					struct pp_pcp *pcp,
					struct pp_bulk_req req,
					struct pp_bulk_fill *f,
					unsigned int flags)
{
	pool->ops->bulk_fill(pool, pcp, &req, f, flags);
}

static inline void pp_backend_free_pages(struct pp_pool *pool,
					 struct pp_pcp *pcp,
					 struct pp_page *page, unsigned int order)
{
	pool->ops->free_pages(pool, pcp, page, order);
}

static inline void pp_backend_free_batch(struct pp_pool *pool,
					 struct pp_pcp *pcp,
					 struct pp_page **pages,
					 unsigned int nr)
{
	if (pool->ops->free_batch) {
		pool->ops->free_batch(pool, pcp, pages, nr);
		return;
	}
	for (unsigned int i = 0; i < nr; i++)
		pool->ops->free_pages(pool, pcp, pages[i], 0);
}

/* Any backend: nothing to do for the buddy allocator. */
static inline void pp_backend_drain(struct pp_pool *pool)
{
	if (unlikely(!pp_pool_buddy(pool)))
		pool->ops->drain(pool);
}

static inline unsigned long pp_backend_nr_held(struct pp_pool *pool,
					       uint64_t allocated)
{
	return pp_pool_buddy(pool) ? 0 : pool->ops->nr_held(pool, allocated);
}

/*
 * Another backend, pp_pool_destroy() with no page out: it gives everything
 * back and the pool is the buddy allocator's alone from then on.  0, or
 * -EBUSY.
 */
static inline int pp_backend_destroy(struct pp_pool *pool)
{
	if (pool->ops->destroy(pool))
		return -EBUSY;
	pool->ops = NULL;
	return 0;
}

/* --- fatal reports (debug.c) ------------------------------------------ */

/*
 * An internal failure (a pthread call failing): "pagepool: file:func@line:
 * message", abort().  Not common/tool.c's tool_die_at(): an installed
 * library does not link the tools' noinst libcommon (see tool.h).
 */
__attribute__((noreturn, cold, format(printf, 4, 5)))
void pp_die_at(const char *file, const char *func, int line,
	       const char *fmt, ...);
#define pp_die(...)	pp_die_at(__FILE__, __func__, __LINE__, __VA_ARGS__)

__attribute__((noreturn, cold))
void pp_bad_page(const struct pp_pool *pool, const struct pp_page *page,
		 const char *call, const char *reason);

/* A call the API's contract rules out (a NULL array, ...): report, abort. */
__attribute__((noreturn, cold, format(printf, 2, 3)))
void pp_bad_call(const char *call, const char *fmt, ...);

__attribute__((noreturn, cold))
void pp_bad_pointer(const struct pp_pool *pool, const void *page,
		    const char *call);

void pp_poison_pages(struct pp_pool *pool, struct pp_page *page,
		     unsigned int order);
void pp_check_poison(const struct pp_pool *pool, struct pp_page *page,
		     unsigned int order, const char *call);

const char *pp_page_state_name(unsigned int state);
/* The enum <-> name tables' lookups (pool.c). */
const char *pp_table_name(const char *const *names, unsigned int n,
			  unsigned int i);
int pp_table_index(const char *const *names, unsigned int n, const char *name);

/* --- locks ------------------------------------------------------------- */

static inline void pp_zone_lock(struct pp_zone *zone)
{
	int err = pthread_mutex_lock(&zone->lock);

	if (unlikely(err))
		pp_die("pthread_mutex_lock: error %d", err);
}

static inline void pp_zone_unlock(struct pp_zone *zone)
{
	int err = pthread_mutex_unlock(&zone->lock);

	if (unlikely(err))
		pp_die("pthread_mutex_unlock: error %d", err);
}

static inline bool pp_pcp_trylock_raw(struct pp_pcp *pcp)
{
	/* Test first so a held lock costs a shared read, not a line steal. */
	if (atomic_load_explicit(&pcp->lock, memory_order_relaxed))
		return false;
	return !atomic_exchange_explicit(&pcp->lock, 1, memory_order_acquire);
}

/*
 * The hot paths' trylock.  With PAGEPOOL_FAULT=trylock=P it also fails P %
 * of the time (the field shares the lock's cache line: one extra test).
 */
static inline bool pp_pcp_trylock(struct pp_pcp *pcp)
{
	if (unlikely(pcp->fault_trylock) &&
	    pp_fault_trylock_hit(pcp->fault_trylock))
		return false;
	return pp_pcp_trylock_raw(pcp);
}

static inline void pp_pcp_unlock(struct pp_pcp *pcp)
{
	atomic_store_explicit(&pcp->lock, 0, memory_order_release);
}

/*
 * For the straight-line fast paths, whose only calls are tail calls: with
 * fault injection on it fails, so the general path (pp_pcp_trylock())
 * decides, and no call into the fault code is compiled in here.
 */
static inline bool pp_pcp_trylock_fast(struct pp_pcp *pcp)
{
	return likely(!pcp->fault_trylock) && pp_pcp_trylock_raw(pcp);
}

void pp_pcp_lock_slow(struct pp_pcp *pcp);

/* --- the pcp ring ----------------------------------------------------- */

static inline uint64_t pp_pcp_state(const struct pp_pcp *pcp)
{
	return atomic_load_explicit(&((struct pp_pcp *)pcp)->state,
				    memory_order_relaxed);
}

/* Pages on the list: exact for its owner, a snapshot for anyone else. */
static inline unsigned int pp_pcp_count(const struct pp_pcp *pcp)
{
	return (uint32_t)pp_pcp_state(pcp);
}

static inline unsigned int pp_pcp_top(const struct pp_pcp *pcp)
{
	return (uint32_t)(pp_pcp_state(pcp) >> 32);
}

/* The list's owner sets both ends at once (one store: racy readers). */
static inline void pp_pcp_set(struct pp_pcp *pcp, unsigned int top,
			      unsigned int count)
{
	atomic_store_explicit(&pcp->state, ((uint64_t)top << 32) | count,
			      memory_order_relaxed);
}

/* Onto the hot end; returns the new count.  The owner counts PGFREE. */
static inline unsigned int pp_pcp_push(struct pp_pcp *pcp,
				       struct pp_page *page)
{
	uint64_t st = pp_pcp_state(pcp);
	unsigned int top = (uint32_t)(st >> 32);

	pcp->ring[top & pcp->mask] = page;
	pp_pcp_set(pcp, top + 1, (uint32_t)st + 1);
	return (uint32_t)st + 1;
}

/* Off the hot end; the caller knows the list is not empty. */
static inline struct pp_page *pp_pcp_pop(struct pp_pcp *pcp)
{
	uint64_t st = pp_pcp_state(pcp);
	unsigned int top = (uint32_t)(st >> 32) - 1;

	pp_pcp_set(pcp, top, (uint32_t)st - 1);
	return pcp->ring[top & pcp->mask];
}

/*
 * The CPU this thread runs on.  glibc 2.35+ registers an rseq area per
 * thread, and the kernel keeps its cpu_id current on every return to user
 * space: one TLS load, where sched_getcpu() costs a call through the PLT
 * (about 3 ns here, twice per alloc + put).  Without rseq (older glibc,
 * glibc.pthread.rseq=0, valgrind) cpu_id is negative: ask glibc.
 */
static inline int pp_cpu_id(void)
{
#ifdef PP_HAVE_RSEQ
	const struct rseq *rs = (const struct rseq *)
		((char *)__builtin_thread_pointer() + __rseq_offset);
	int cpu = (int)__atomic_load_n(&rs->cpu_id, __ATOMIC_RELAXED);

	if (likely(cpu >= 0))
		return cpu;
#endif
	return sched_getcpu();
}

/* This thread's CPU as an index of the pool's per-CPU arrays. */
static inline unsigned int pp_this_cpu(const struct pp_pool *pool)
{
	int cpu = pp_cpu_id();

	if (unlikely(cpu < 0 || (unsigned int)cpu >= pool->nr_cpus))
		cpu = cpu < 0 ? 0 : (int)((unsigned int)cpu % pool->nr_cpus);
	return (unsigned int)cpu;
}

/* numa_node_id(): the node of the CPU this thread runs on. */
static inline unsigned int pp_numa_node_id(const struct pp_pool *pool)
{
	if (likely(pool->nr_nodes == 1))
		return 0;
	return pool->cpu_node[pp_this_cpu(pool)];
}

/*
 * The zone of the node this thread's CPU belongs to (numa_node_id()'s
 * zone): the first of its zonelist.
 */
static inline struct pp_zone *pp_local_zone(struct pp_pool *pool)
{
	return &pool->zones[pp_numa_node_id(pool)];
}

/* @zone's pcp list of the CPU this thread runs on. */
static inline struct pp_pcp *pp_zone_this_pcp(struct pp_pool *pool,
					      struct pp_zone *zone)
{
	int cpu = pp_cpu_id();

	if (unlikely(cpu < 0 || (unsigned int)cpu >= pool->nr_cpus))
		cpu = cpu < 0 ? 0 : (int)((unsigned int)cpu % pool->nr_cpus);
	return &zone->pcp[cpu];
}

/* The local zone's pcp list of the CPU this thread runs on. */
static inline struct pp_pcp *pp_this_pcp(struct pp_pool *pool)
{
	return pp_zone_this_pcp(pool, pp_local_zone(pool));
}

/* --- counters ---------------------------------------------------------- */

/* Caller holds @pcp->lock: a plain add, no locked instruction. */
static inline void pp_count_locked(struct pp_pcp *pcp, enum pp_vm_event ev,
				   uint64_t n)
{
	uint64_t v = atomic_load_explicit(&pcp->events[ev],
					  memory_order_relaxed);

	atomic_store_explicit(&pcp->events[ev], v + n, memory_order_relaxed);
}

/*
 * No pcp lock held: an atomic add to this CPU's counters (slow paths).
 * The pool's counters are the sum over every zone's lists; those of no
 * zone in particular go to the first zone's.
 */
static inline void pp_count(struct pp_pool *pool, enum pp_vm_event ev,
			    uint64_t n)
{
	atomic_fetch_add_explicit(&pp_zone_this_pcp(pool, &pool->zones[0])->
				  events_unlocked[ev], n,
				  memory_order_relaxed);
}

/*
 * A count by the list's owner from a path that may also run remotely (a
 * drain): a plain add under the lock implementation's lock, an atomic one
 * to the unlocked counters when rseq sections of that CPU may be adding
 * to @events at the same time.
 */
static inline void pp_count_owner(struct pp_pool *pool, struct pp_pcp *pcp,
				  enum pp_vm_event ev, uint64_t n)
{
	if (pool->pcp_rseq)
		atomic_fetch_add_explicit(&pcp->events_unlocked[ev], n,
					  memory_order_relaxed);
	else
		pp_count_locked(pcp, ev, n);
}

static inline void pp_ctx_defer(struct pp_alloc_ctx *ac, enum pp_vm_event ev)
{
	ac->pending[ac->nr_pending++] = ev;
}

static inline void pp_ctx_flush_locked(struct pp_pcp *pcp,
				       struct pp_alloc_ctx *ac)
{
	for (unsigned int i = 0; i < ac->nr_pending; i++)
		pp_count_locked(pcp, ac->pending[i], 1);
	ac->nr_pending = 0;
}

static inline void pp_ctx_flush(struct pp_pool *pool, struct pp_alloc_ctx *ac)
{
	for (unsigned int i = 0; i < ac->nr_pending; i++)
		pp_count(pool, ac->pending[i], 1);
	ac->nr_pending = 0;
}

/* --- rseq pcp lists (rseq.h, pcp.c) ------------------------------------- */

/* What a list operation found instead of doing its work. */
enum pp_pcp_miss {
	PP_PCP_EMPTY = 1,	/* nothing on the list */
	PP_PCP_BUSY,		/* stopped by a drain, no list, fault injected */
};

#ifdef PP_RSEQ_PCP
#include "rseq.h"

void pp_rseq_count_slow(struct pp_pool *pool, struct pp_zone *zone,
			enum pp_vm_event ev, uint64_t n);

/*
 * Add @n to counter @ev of @zone's list of @cpu, which the caller just
 * worked on, in an rseq section (a this_cpu_add()); if the thread has
 * moved since, to the counter of the CPU it is on now.
 */
static inline void pp_rseq_count_at(struct pp_pool *pool,
				    struct pp_zone *zone, struct rseq *rs,
				    unsigned int cpu, enum pp_vm_event ev,
				    uint64_t n)
{
	if (likely(!pp_rseq_add(rs, (int)cpu,
				(uint64_t *)&zone->pcp[cpu].events[ev], n)))
		return;
	pp_rseq_count_slow(pool, zone, ev, n);
}

/* The same for the CPU this thread runs on. */
static inline void pp_rseq_count(struct pp_pool *pool, enum pp_vm_event ev,
				 uint64_t n)
{
	struct rseq *rs = pp_rseq_area();
	int cpu = pp_rseq_cpu(rs);

	if (unlikely((unsigned int)cpu >= pool->nr_cpus))
		return pp_count(pool, ev, n);
	/* As pp_count(): on the first zone's lists. */
	pp_rseq_count_at(pool, &pool->zones[0], rs, (unsigned int)cpu, ev, n);
}

/*
 * Take one page off this CPU's list of @zone.  Returns it, with *@cpu_out
 * the list it came from, or NULL with *@miss saying why.
 */
static inline struct pp_page *pp_rseq_alloc_one(struct pp_pool *pool,
						struct pp_zone *zone,
						unsigned int *cpu_out,
						enum pp_pcp_miss *miss)
{
	struct rseq *rs = pp_rseq_area();

	for (;;) {
		int cpu = pp_rseq_cpu(rs);
		long r;

		if (unlikely((unsigned int)cpu >= pool->nr_cpus)) {
			*miss = PP_PCP_BUSY;
			return NULL;
		}
		r = pp_rseq_pop1(rs, &zone->pcp[cpu], cpu);
		if (likely(r > 0)) {
			*cpu_out = (unsigned int)cpu;
			return (struct pp_page *)r;
		}
		if (r == 0) {
			*miss = PP_PCP_EMPTY;
			return NULL;
		}
		if (r == PP_RSEQ_STOPPED) {
			*miss = PP_PCP_BUSY;
			return NULL;
		}
		pp_count(pool, PP_PCP_RESTART_ALLOC, 1);
	}
}

/*
 * Give one page (refcount 0, the caller's) back to this CPU's list of
 * @zone, the page's own.  Returns the list's new count, 0 if the list was
 * busy (the caller frees to the buddy lists), or -1 if it was full
 * (drain, then try again).
 */
static inline long pp_rseq_free_one(struct pp_pool *pool, struct pp_zone *zone,
				    struct pp_page *page)
{
	struct rseq *rs = pp_rseq_area();

	for (;;) {
		int cpu = pp_rseq_cpu(rs);
		long r;

		if (unlikely((unsigned int)cpu >= pool->nr_cpus))
			return 0;
		r = pp_rseq_push1(rs, &zone->pcp[cpu], cpu, page);
		if (likely(r > 0))
			return r;
		if (r == PP_RSEQ_STOPPED)
			return 0;
		if (r == PP_RSEQ_FULL)
			return -1;
		pp_count(pool, PP_PCP_RESTART_FREE, 1);
	}
}

#else
static inline void pp_rseq_count(struct pp_pool *pool, enum pp_vm_event ev,
				 uint64_t n)
{
	pp_count(pool, ev, n);
}

static inline struct pp_page *pp_rseq_alloc_one(struct pp_pool *pool,
						struct pp_zone *zone,
						unsigned int *cpu_out,
						enum pp_pcp_miss *miss)
{
	*miss = PP_PCP_BUSY;
	return NULL;
}

static inline long pp_rseq_free_one(struct pp_pool *pool, struct pp_zone *zone,
				    struct pp_page *page)
{
	return 0;
}

#endif

/* The high mark of this CPU's list (the same on every list). */
static inline unsigned int pp_rseq_high(const struct pp_pool *pool)
{
	return pool->zones[0].pcp[0].high;
}


static inline void pp_ctx_flush_rseq(struct pp_pool *pool,
				     struct pp_alloc_ctx *ac)
{
	for (unsigned int i = 0; i < ac->nr_pending; i++)
		pp_rseq_count(pool, ac->pending[i], 1);
	ac->nr_pending = 0;
}

#ifdef PP_RSEQ_PCP
/*
 * pp_ctx_flush_rseq() on the counters of @zone's list of @cpu (see
 * pp_rseq_count_at()).
 */
static inline void pp_ctx_flush_rseq_at(struct pp_pool *pool,
					struct pp_zone *zone,
					struct rseq *rs, unsigned int cpu,
					struct pp_alloc_ctx *ac)
{
	for (unsigned int i = 0; i < ac->nr_pending; i++)
		pp_rseq_count_at(pool, zone, rs, cpu, ac->pending[i], 1);
	ac->nr_pending = 0;
}
#endif

/* pcp.c: the slow paths and remote access of the rseq lists. */
unsigned int pp_rseq_refill(struct pp_pool *pool, struct pp_zone *zone,
			    const char *call);
void pp_rseq_drain_high(struct pp_pool *pool, struct pp_zone *zone);
unsigned int pp_rseq_free_batch(struct pp_pool *pool, struct pp_zone *zone,
				struct pp_page **pages, unsigned int nr,
				int marked);
void pp_pcp_stop(struct pp_pool *pool, struct pp_pcp *pcp);
void pp_pcp_restart(struct pp_pool *pool, struct pp_pcp *pcp);
int pp_pcp_setup(struct pp_pool *pool, const struct pp_pool_config *cfg);

/*
 * PAGEPOOL_FAULT trylock=P on rseq lists: P % of the operations find the
 * list busy, as a failed trylock would.
 */
static inline bool pp_rseq_fault(const struct pp_pool *pool)
{
	unsigned int p = pool->zones[0].pcp[0].fault_trylock;

	return unlikely(p) && pp_fault_trylock_hit(p);
}

/* --- zone (zone.c) ------------------------------------------------------ */

static inline unsigned long pp_pfn(const struct pp_pool *pool,
				   const struct pp_page *page)
{
	return (unsigned long)(page - pool->mem_map);
}

/*
 * A descriptor's state is written under whichever lock owns the page at the
 * time (zone, pcp, or none for an allocated page), and read by buddy merging
 * under the zone lock for any neighbour: relaxed atomics keep that defined.
 */
static inline unsigned int pp_page_state(const struct pp_page *page)
{
	return __atomic_load_n(&page->state, __ATOMIC_RELAXED);
}

static inline void pp_set_page_state(struct pp_page *page, unsigned int state)
{
	__atomic_store_n(&page->state, (uint8_t)state, __ATOMIC_RELAXED);
}

/*
 * A descriptor's refcount, order, state and flags make one aligned 8-byte
 * word (the layout in pagepool.h, checked here).  Where a fast path knows
 * all four, it reads or writes them with one access instead of three or
 * four: prep_new_page()'s stores, and release_pages()'s test that a page
 * is an order-0 page in use with one reference.  Only where debug checks
 * are off: then no page carries PP_PG_POISONED, so @flags is 0.
 */
typedef uint64_t __attribute__((may_alias, aligned(8))) pp_page_word_t;

_Static_assert(offsetof(struct pp_page, refcount) % 8 == 0 &&
	       offsetof(struct pp_page, order) ==
	       offsetof(struct pp_page, refcount) + 4 &&
	       offsetof(struct pp_page, state) ==
	       offsetof(struct pp_page, refcount) + 5 &&
	       offsetof(struct pp_page, flags) ==
	       offsetof(struct pp_page, refcount) + 6 &&
	       sizeof(((struct pp_page *)0)->refcount) == 4,
	       "refcount, order, state, flags: one 8-byte word");

/* The word's value for these fields, as memory holds it. */
static inline uint64_t pp_page_word(uint32_t refcount, unsigned int order,
				    unsigned int state, unsigned int flags)
{
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	return (uint64_t)refcount | (uint64_t)(uint8_t)order << 32 |
	       (uint64_t)(uint8_t)state << 40 |
	       (uint64_t)(uint16_t)flags << 48;
#else
	return (uint64_t)refcount << 32 | (uint64_t)(uint8_t)order << 24 |
	       (uint64_t)(uint8_t)state << 16 | (uint16_t)flags;
#endif
}

static inline uint64_t pp_page_word_load(const struct pp_page *page)
{
	return __atomic_load_n((const pp_page_word_t *)&page->refcount,
			       __ATOMIC_ACQUIRE);
}

static inline void pp_page_word_store(struct pp_page *page, uint64_t word)
{
	__atomic_store_n((pp_page_word_t *)&page->refcount, word,
			 __ATOMIC_RELAXED);
}

/*
 * The KASAN analogue, in the ASan build only (./configure --enable-asan,
 * PP_CONFIG_ASAN): KASAN poisons a page when it is freed and unpoisons it
 * when it is handed out, so an access to a free page is reported where
 * it happens.  Here ASan's manual poisoning does the same for the buddy
 * backend's arena: every page on a pcp or buddy list is poisoned, every
 * page handed out is not.  The invariant is kept at each hand-out site
 * (unpoison once the page is the caller's, before anything touches it:
 * GFP_ZERO, the debug poison check) and each free site (poison once the
 * last reference is gone, before the page is published on a list, where
 * another thread could take it and unpoison it first).  Pages the
 * jemalloc backend holds are left unpoisoned: jemalloc's own memory.
 * Outside the ASan build these are empty and compile to nothing.
 */
#ifdef PP_CONFIG_ASAN
#include <sanitizer/asan_interface.h>

static inline void pp_kasan_poison_range(const struct pp_pool *pool,
					 unsigned long pfn, unsigned long nr)
{
	ASAN_POISON_MEMORY_REGION(pool->arena + (pfn << PP_PAGE_SHIFT),
				  nr << PP_PAGE_SHIFT);
}

static inline void pp_kasan_unpoison_range(const struct pp_pool *pool,
					   unsigned long pfn, unsigned long nr)
{
	ASAN_UNPOISON_MEMORY_REGION(pool->arena + (pfn << PP_PAGE_SHIFT),
				    nr << PP_PAGE_SHIFT);
}
#else
static inline void pp_kasan_poison_range(const struct pp_pool *pool,
					 unsigned long pfn, unsigned long nr)
{
}

static inline void pp_kasan_unpoison_range(const struct pp_pool *pool,
					   unsigned long pfn, unsigned long nr)
{
}
#endif

/* A block of 2^@order pages goes free (on a list) / is handed out. */
static inline void pp_kasan_poison(const struct pp_pool *pool,
				   const struct pp_page *page,
				   unsigned int order)
{
	pp_kasan_poison_range(pool, pp_pfn(pool, page), 1UL << order);
}

static inline void pp_kasan_unpoison(const struct pp_pool *pool,
				     const struct pp_page *page,
				     unsigned int order)
{
	pp_kasan_unpoison_range(pool, pp_pfn(pool, page), 1UL << order);
}

static inline unsigned long pp_zone_free(const struct pp_zone *zone)
{
	return atomic_load_explicit(&zone->nr_free, memory_order_relaxed);
}

/* The zone whose pages @pcp holds. */
static inline struct pp_zone *pp_pcp_zone(struct pp_pool *pool,
					  const struct pp_pcp *pcp)
{
	return &pool->zones[pcp->node];
}

/* The node holding @pfn: the range it falls in, the last takes the rest. */
static inline unsigned int pp_pfn_nid(const struct pp_pool *pool,
				      unsigned long pfn)
{
	unsigned long nid;

	if (likely(pool->nr_nodes == 1))
		return 0;
	nid = pfn / pool->node_span;
	return nid < pool->nr_nodes ? (unsigned int)nid : pool->nr_nodes - 1;
}

static inline struct pp_zone *pp_pfn_zone(struct pp_pool *pool,
					  unsigned long pfn)
{
	return &pool->zones[pp_pfn_nid(pool, pfn)];
}

static inline struct pp_zone *pp_page_zone(struct pp_pool *pool,
					   const struct pp_page *page)
{
	return pp_pfn_zone(pool, pp_pfn(pool, page));
}

void pp_zone_init_free_lists(struct pp_pool *pool, struct pp_zone *zone);
struct pp_page *pp_rmqueue_smallest(struct pp_pool *pool, struct pp_zone *zone,
				    unsigned int order, const char *call);

/*
 * PAGEPOOL_FAULT buddy-empty=N: would taking @nr pages leave fewer than N
 * in the buddy lists?  Then the buddy allocator reports itself empty.
 * Zone lock held.
 */
static inline bool pp_fault_buddy_short(const struct pp_zone *zone,
					unsigned long nr)
{
	return unlikely(zone->fault_buddy_reserve) &&
	       pp_zone_free(zone) < zone->fault_buddy_reserve + nr;
}

/*
 * PAGEPOOL_FAULT buddy-empty=N: at most how many of @want pages a refill
 * may take and leave N in the buddy lists.  Zone lock held.
 */
static inline unsigned int pp_fault_buddy_clamp(const struct pp_zone *zone,
						unsigned int want)
{
	unsigned long avail;

	if (likely(!zone->fault_buddy_reserve))
		return want;
	avail = pp_zone_free(zone);
	avail = avail > zone->fault_buddy_reserve ?
		avail - zone->fault_buddy_reserve : 0;
	return want > avail ? (unsigned int)avail : want;
}
void pp_free_one_page_locked(struct pp_pool *pool, struct pp_zone *zone,
			     struct pp_page *page, unsigned int order);
unsigned int pp_rmqueue_bulk(struct pp_pool *pool, struct pp_pcp *pcp,
			     unsigned int count);
void pp_free_pcppage_locked(struct pp_pool *pool, struct pp_zone *zone,
			    struct pp_page *page, unsigned int cpu);
void pp_free_pcppages_bulk(struct pp_pool *pool, struct pp_pcp *pcp,
			   unsigned int count);
void pp_drain_all_pages(struct pp_pool *pool);
unsigned long pp_zone_pcp_pages(const struct pp_pool *pool,
				const struct pp_zone *zone);
unsigned long pp_pcp_pages(const struct pp_pool *pool);
unsigned long pp_pool_free(const struct pp_pool *pool);

void pp_zone_free_range(struct pp_pool *pool, unsigned long pfn,
			unsigned long nr);
long pp_zone_alloc_range(struct pp_pool *pool, unsigned long nr,
			 unsigned long align);

/* --- free side (free.c) ------------------------------------------------- */

/*
 * Is @page one of @pool's descriptors (in range and aligned)?  Checked on
 * every put, get, release and conversion, debug or not: one subtraction,
 * and one compare folded with the alignment test, on paths that already
 * branch on the page.  Without it a page put to the wrong pool joins that
 * pool's lists and is handed out by it, and a pointer into the middle of
 * a descriptor corrupts its neighbours' fields.
 */
static inline bool pp_page_in_pool(const struct pp_pool *pool,
				   const struct pp_page *page)
{
	uintptr_t off = (uintptr_t)page - (uintptr_t)pool->mem_map;

	_Static_assert((sizeof(struct pp_page) &
			(sizeof(struct pp_page) - 1)) == 0,
		       "descriptor size must be a power of two");
	/* Below the base, off wraps to a huge value: one unsigned compare. */
	return off < pool->map_bytes &&
	       !(off & (sizeof(struct pp_page) - 1));
}

/*
 * page_ref_dec_and_test(): drop one reference with a locked decrement;
 * true when it was the last.  An underflow is always caught: the old
 * value is at hand, so the check is free.
 */
static inline bool pp_page_ref_dec_and_test(struct pp_pool *pool,
					    struct pp_page *page,
					    const char *call)
{
	int old = __atomic_fetch_sub(&page->refcount, 1, __ATOMIC_ACQ_REL);

	if (unlikely(old <= 0)) {
		__atomic_fetch_add(&page->refcount, 1, __ATOMIC_RELAXED);
		pp_bad_page(pool, page, call, old == 0 ?
			    "refcount underflow: put of a free page "
			    "(double free?)" :
			    "refcount negative: corrupted, or overflowed by "
			    "2^31 references");
	}
	return old == 1;
}


void pp_free_pages_prepare(struct pp_pool *pool, struct pp_page *page,
			   unsigned int order, const char *call);

/* --- allocation side (alloc.c), shared with the backends ----------------- */

/*
 * prep_new_page()'s stores: the block is the caller's now, with one
 * reference.  The one body of every hand-out site.  Always inlined, and
 * with @order a constant at the order-0 sites the fast paths and bulk
 * loops compile to the three stores they had when each site wrote them
 * out.
 */
static inline __attribute__((always_inline))
void pp_set_page_allocated(struct pp_page *page, unsigned int order)
{
	page->order = (uint8_t)order;
	pp_set_page_state(page, PP_PAGE_INUSE);
	__atomic_store_n(&page->refcount, 1, __ATOMIC_RELAXED);
}

/*
 * prep_new_page(): the page leaves the allocator.  Verifies the poison left
 * by a debug free (a use after free shows up here), zeroes on request.
 */
static inline void pp_prep_new_page(struct pp_pool *pool, struct pp_page *page,
				    unsigned int order, pp_gfp_t gfp,
				    const char *call)
{
	/* KASAN: the caller's now; before the poison check and GFP_ZERO. */
	pp_kasan_unpoison(pool, page, order);
	if (unlikely(pool->debug))
		pp_check_poison(pool, page, order, call);
	pp_set_page_allocated(page, order);
	if (unlikely(gfp & PP_GFP_ZERO))
		memset(pool->arena + (pp_pfn(pool, page) << PP_PAGE_SHIFT), 0,
		       PP_PAGE_SIZE << order);
}


/*
 * The end of the run of NULL slots of @a that starts before @i: the first
 * populated slot at or after @i, or @n.  Four slots a step while all four
 * are NULL (an OR of four words, one branch), as a refilled array mostly
 * is: a slot a step cost about a quarter of the 64-page array call.
 */
static inline unsigned long pp_hole_run_end(struct pp_page *const *a,
					    unsigned long i, unsigned long n)
{
	while (i + 4 <= n &&
	       !((uintptr_t)a[i] | (uintptr_t)a[i + 1] |
		 (uintptr_t)a[i + 2] | (uintptr_t)a[i + 3]))
		i += 4;
	while (i < n && !a[i])
		i++;
	return i;
}

/*
 * The single-page path as a bulk call's fallback (one missing page, a
 * failed trylock, a low zone, nothing in the loop), traced as
 * mm_page_alloc; the counters deferred in @ac are added.
 */
struct pp_page *pp_alloc_pages_fallback(struct pp_pool *pool,
					struct pp_alloc_ctx *ac,
					const char *call);

void pp_prep_new_page_checked(struct pp_pool *pool, struct pp_page *page,
			      unsigned int order, pp_gfp_t gfp,
			      const char *call);

/*
 * The bulk loop of a backend other than buddy, for its bulk_fill op: the
 * request's list filled a chunk at a time, or the array's runs of holes
 * from @f->nr_populated on (every entry with PP_FILL_ALL; stopping at a
 * populated one with PP_FILL_STOP).  @fill_run is the backend's own work:
 * up to @nr order-0 pages into @slots, each prepared (and counted as
 * PGALLOC with PP_FILL_PER_PAGE_STATS), returning how many; fewer than
 * @nr ends the loop (the backend ran dry).  Always inlined, so that each
 * backend's copy calls its @fill_run directly.
 */
typedef unsigned long pp_fill_run_fn(struct pp_pool *pool, struct pp_pcp *pcp,
				     const struct pp_bulk_req *req,
				     struct pp_page **slots, unsigned long nr,
				     unsigned int flags);

/* Pages a backend's bulk list call gathers per @fill_run (on the stack). */
#define PP_BACKEND_LIST_CHUNK	64

static inline __attribute__((always_inline))
void pp_backend_fill_walk(struct pp_pool *pool, struct pp_pcp *pcp,
			  const struct pp_bulk_req *req,
			  struct pp_bulk_fill *f, unsigned int flags,
			  pp_fill_run_fn *fill_run)
{
	const bool fill_all = flags & PP_FILL_ALL;
	const bool stop = flags & PP_FILL_STOP;
	struct pp_page **page_array = req->page_array;
	unsigned long i = f->nr_populated, nr_account = 0;

	while (req->page_list && nr_account < req->nr_pages) {
		struct pp_page *buf[PP_BACKEND_LIST_CHUNK];
		unsigned long want = req->nr_pages - nr_account, got;

		if (want > PP_BACKEND_LIST_CHUNK)
			want = PP_BACKEND_LIST_CHUNK;
		got = fill_run(pool, pcp, req, buf, want, flags);
		for (unsigned long k = 0; k < got; k++)
			pp_list_add(&buf[k]->lru, req->page_list);
		nr_account += got;
		if (got < want) {
			f->dry = true;
			break;
		}
	}
	if (req->page_list)
		i = nr_account;
	while (!req->page_list && i < req->nr_pages) {
		unsigned long end = i + 1, got;

		if (!fill_all && page_array[i]) {
			i++;
			if (stop) {
				f->stopped = true;
				break;
			}
			continue;
		}
		/* The run of holes [i, end), or all of it with PP_FILL_ALL. */
		if (fill_all)
			end = req->nr_pages;
		else
			while (end < req->nr_pages && !page_array[end])
				end++;
		got = fill_run(pool, pcp, req, page_array + i, end - i, flags);
		nr_account += got;
		i += got;
		if (i < end) {
			f->dry = true;
			break;
		}
	}
	if (!(flags & PP_FILL_PER_PAGE_STATS) && nr_account)
		pp_count_locked(pcp, PP_PGALLOC, nr_account);
	f->nr_populated = i;
	f->nr_account = nr_account;
}

/* A page a backend's @fill_run hands out: prepared, counted per page. */
static inline void pp_backend_prep_filled(struct pp_pool *pool,
					  struct pp_pcp *pcp,
					  struct pp_page *page,
					  const struct pp_bulk_req *req,
					  unsigned int flags)
{
	pp_prep_new_page_checked(pool, page, 0, req->gfp, req->call);
	if (flags & PP_FILL_PER_PAGE_STATS)
		pp_count_locked(pcp, PP_PGALLOC, 1);
}

/* PGFREE of a backend's free: on @pcp (locked), or the pool's if NULL. */
static inline void pp_backend_count_free(struct pp_pool *pool,
					 struct pp_pcp *pcp, uint64_t nr)
{
	if (pcp)
		pp_count_locked(pcp, PP_PGFREE, nr);
	else
		pp_count(pool, PP_PGFREE, nr);
}

/* --- the kernel profile (kernel*.c; kernel.h has the map) -------------- */

/*
 * The entry points' kernel profile paths: pools with pool->kernel set are
 * pp_pool_slow(), and the slow paths of the API calls hand them here.
 * ppk_alloc_pages() is __alloc_pages() without its tracepoint (the
 * caller's), the others the whole call.
 */
struct pp_page *ppk_alloc_pages(struct pp_pool *pool, struct pp_alloc_ctx *ac,
				const char *call);
unsigned long ppk_alloc_pages_bulk(struct pp_pool *pool, pp_gfp_t gfp, int nid,
				   unsigned long nr_pages,
				   struct pp_list_head *page_list,
				   struct pp_page **page_array,
				   enum pp_vm_event call_event,
				   const char *call);
void ppk_put_page(struct pp_pool *pool, struct pp_page *page);
void ppk_free_pages(struct pp_pool *pool, struct pp_page *page,
		    unsigned int order);
void ppk_release_pages(struct pp_pool *pool, struct pp_page **pages,
		       unsigned long nr);

/* The pool's side (kernel_pcp.c). */
int ppk_pool_setup(struct pp_pool *pool);
void ppk_pool_teardown(struct pp_pool *pool);
unsigned int ppk_pcp_count(const struct pp_pcp *pcp);
void ppk_drain_pcp(struct pp_pool *pool, struct pp_zone *zone,
		   struct pp_pcp *pcp);
void ppk_node_numa(const struct pp_pool *pool, const struct pp_zone *zone,
		   uint64_t *numa);
unsigned long ppk_zone_free_folded(const struct pp_pool *pool,
				   const struct pp_zone *zone);

/* Pages on @pcp's lists, either profile (a snapshot but for its owner). */
static inline unsigned int pp_pcp_nr(const struct pp_pool *pool,
				     const struct pp_pcp *pcp)
{
	return pool->kernel ? ppk_pcp_count(pcp) : pp_pcp_count(pcp);
}

/* --- the jemalloc backend (jemalloc.c) ----------------------------------- */

int pp_je_create(struct pp_pool *pool, const struct pp_pool_config *cfg);

/* --- a backend plugin (plugin.c, <pagepool/backend.h>) -------------------- */

int pp_plugin_create(struct pp_pool *pool, const struct pp_pool_config *cfg);

#endif /* PP_ALLOC_INTERNAL_H */
