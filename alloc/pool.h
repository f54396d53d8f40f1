/* SPDX-License-Identifier: MIT */
/*
 * libpagepool internals: the pool, its zones and their per-CPU lists (the
 * structures every part shares), and how they are locked.  internal.h
 * includes this and the headers of each part.
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
#ifndef PP_ALLOC_POOL_H
#define PP_ALLOC_POOL_H

#include <config.h>

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <pagepool/internal/rseq-config.h>
#include <pagepool/pagepool.h>

#include "kernel.h"
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
	bool debug_list;		/* pool->debug_list, for the buddy lists */
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
	bool debug_list;		/* kernel profile: CONFIG_DEBUG_LIST */
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

/*
 * The fill loops' flags for a bulk call of variant @v onto a list
 * (@to_list) or into an array: what each contract of enum
 * pp_bulk_variant asks of the loop.  With @v and @to_list constants (the
 * lean core's copies) it folds to a constant.
 */
static inline unsigned int pp_fill_flags(enum pp_bulk_variant v,
					 bool to_list)
{
	unsigned int flags = v != PP_BULK_BATCHED_STATS &&
			     v != PP_BULK_PURE_OUTPUT ?
			     PP_FILL_PER_PAGE_STATS : 0;

	if (to_list)
		return flags | PP_FILL_LIST;
	if (v == PP_BULK_PURE_OUTPUT)
		flags |= PP_FILL_ALL;
	if (v == PP_BULK_STOP_AT_POPULATED)
		flags |= PP_FILL_STOP;
	return flags;
}

/*
 * The flags of a checked copy of a loop (debug checks, GFP_ZERO), one for
 * a list and one for an array: PP_FILL_LIST stays a constant in each,
 * the others are tested per page.
 */
#define PP_FILL_CHECKED_LIST(flags) \
	(PP_FILL_LIST | PP_FILL_CHECKS | ((flags) & PP_FILL_PER_PAGE_STATS))
#define PP_FILL_CHECKED_ARRAY(flags) \
	(PP_FILL_CHECKS | \
	 ((flags) & (PP_FILL_ALL | PP_FILL_STOP | PP_FILL_PER_PAGE_STATS)))

/* What the bulk loop did. */
struct pp_bulk_fill {
	unsigned long nr_populated;	/* index reached in the array */
	unsigned long nr_account;	/* pages allocated */
	bool dry;			/* stopped: no page to be had */
	bool stopped;			/* stopped at a populated entry */
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

#endif /* PP_ALLOC_POOL_H */
