/* SPDX-License-Identifier: MIT */
/*
 * libpagepool: a user-space zone that behaves like the Linux kernel's
 * order-0 page allocator.
 *
 * One pool is one zone (or one per node, pp_pool_config.nr_nodes) over one
 * mmap'd arena of 4 KiB pages.  Every page has
 * a descriptor (struct pp_page, the struct page analogue) in an array
 * parallel to the arena: pfn = index, address = arena + pfn * PP_PAGE_SIZE.
 * Free pages live in buddy free lists (orders 0..PP_MAX_ORDER) under one
 * zone lock, and in per-CPU page lists (pcp) with batch/high.  A thread
 * works on its CPU's list inside restartable sequences (rseq(2)), the
 * user-space analogue of the kernel's preempt-off/IRQ-off sections, or
 * under a per-list lock taken with trylock (enum pp_pcp_impl).
 *
 * The three allocation APIs keep the kernel's contracts:
 *   pp_alloc_page()            alloc_page(): the full single-page path
 *   pp_alloc_pages_bulk_list() alloc_pages_bulk_list() (5.13 .. 6.13)
 *   pp_alloc_pages_bulk_array() alloc_pages_bulk_array() / alloc_pages_bulk()
 *
 * Behind the same three APIs, a pool can put jemalloc instead of the buddy
 * allocator (pp_pool_config.backend): its pages still come from the pool's
 * arena, so descriptors, pfns and conversions work the same.  And the bulk
 * API's contract can be switched to an earlier or proposed kernel version
 * (enum pp_bulk_variant), to see what each contract costs a consumer.
 *
 * Thread safety: every function taking a pool may be called concurrently
 * from any number of threads, except pp_pool_destroy(), which must not race
 * with any other call on the same pool.
 *
 * In a build with AddressSanitizer (./configure --enable-asan), the KASAN
 * analogue: the buddy backend's free pages (on pcp and buddy lists) are
 * poisoned and the pages it hands out unpoisoned, so ASan reports a read
 * or write of a page after its last put at the access.  The pages the
 * jemalloc backend holds are not poisoned.
 *
 * Caller bugs, in the kernel's spirit: what a kernel caller would oops or
 * corrupt memory on is not turned into an error code here either, but it
 * is documented, and where a check costs no more than a compare per call
 * it is made, debug checks on or off, and reported ("pagepool: BUG: ...")
 * before abort():
 *   - @pool must be a live pool from pp_pool_create().  NULL (except for
 *     pp_pool_destroy(), where it is a no-op) is dereferenced at once:
 *     SIGSEGV.  A destroyed pool is a use after free: pp_pool_destroy()
 *     called again reports "not a live pool ... destroyed already" while
 *     the freed memory has not been reused (the ASan build reports a
 *     heap-use-after-free); any other call on it is undefined.
 *   - a NULL page_array, list or pages with a count above 0: reported.
 *   - a page that is not one of the pool's descriptors, a double free, a
 *     get of a free page, a refcount overflow: reported (pp_put_page()).
 *   - an order above PP_MAX_ORDER is not a bug but a failed call: NULL
 *     with errno EINVAL.
 */
#ifndef PAGEPOOL_PAGEPOOL_H
#define PAGEPOOL_PAGEPOOL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * This header's release, which is the library's: configure.ac reads its
 * version from these three lines, and pp_version() returns the same
 * numbers as a string.  A program built against one header and run
 * against another library can compare them.
 */
#define PAGEPOOL_VERSION_MAJOR	0
#define PAGEPOOL_VERSION_MINOR	1
#define PAGEPOOL_VERSION_PATCH	0

#define PP_PAGE_SHIFT	12
#define PP_PAGE_SIZE	(1UL << PP_PAGE_SHIFT)
/* Largest buddy order: blocks of 2^10 pages (4 MiB), as MAX_ORDER 11 gave. */
#define PP_MAX_ORDER	10
#define PP_NR_ORDERS	(PP_MAX_ORDER + 1)

/* Nodes (zones) a pool may have (pp_pool_config.nr_nodes). */
#define PP_MAX_NODES	8

/* Allocation flags (gfp_t analogue). */
typedef unsigned int pp_gfp_t;

/* May wait; in user space there is nothing to reclaim, so it never sleeps. */
#define PP_GFP_KERNEL	0x01u
/* Cannot wait; may dip below the min watermark (ALLOC_HIGH | ALLOC_HARDER). */
#define PP_GFP_ATOMIC	0x02u
/* Ignore watermarks entirely (__GFP_MEMALLOC / ALLOC_NO_WATERMARKS). */
#define PP_GFP_MEMALLOC	0x04u
/* Zero the page(s) before returning them (__GFP_ZERO). */
#define PP_GFP_ZERO	0x08u
/*
 * The preferred node only, no fallback to the others of its zonelist
 * (__GFP_THISNODE): a pool of several nodes fails the call (the single
 * page path) or falls back to one page (the bulk path, which never leaves
 * the preferred node anyway) when that node is short.
 */
#define PP_GFP_THISNODE	0x10u
#define PP_GFP_MASK	0x1fu

/* No node given: the node of the CPU the thread runs on (NUMA_NO_NODE). */
#define PP_NUMA_NO_NODE	(-1)

/* Doubly linked list threaded through page descriptors (list_head). */
struct pp_list_head {
	struct pp_list_head *next, *prev;
};

#define PP_LIST_HEAD_INIT(name) { &(name), &(name) }

/*
 * struct pp_page - page descriptor, one per arena page.
 *
 * While the caller owns a page (refcount > 0), @lru, @private and @index are
 * the caller's to use, exactly like page->lru, page->private and page->index.
 * The other fields belong to the allocator; read them only for diagnostics.
 * The descriptor is one cache line, so descriptors of pages owned by
 * different threads never share a line.
 */
struct pp_page {
	struct pp_list_head lru;
	unsigned long private;
	unsigned long index;
	int refcount;		/* atomic; 0 while free */
	uint8_t order;		/* order of the block this page heads */
	uint8_t state;		/* enum pp_page_state */
	uint16_t flags;		/* PP_PG_* (allocator-internal) */
	uint32_t pcp_cpu;	/* pcp list the page sits on while PP_PAGE_PCP */
	/*
	 * The kernel profile's copies of the struct page fields that
	 * mm/page_alloc.c reads and writes on every allocation and free
	 * (PP_PROFILE_KERNEL; the lean profile leaves them 0).  Allocator
	 * fields, as the kernel's are: a free page must have all four 0
	 * (its "bad page" checks), and a caller never writes them.
	 * @mapcount is _mapcount + 1 (0: mapped nowhere, the kernel's -1),
	 * so that zeroed descriptors start right; @memcg stands for
	 * memcg_data (0: not charged); @page_flags holds PG_* bits, the
	 * zone and node ids and the last cpupid, as page->flags does.
	 */
	int16_t mapcount;
	uint16_t memcg;
	uint64_t page_flags;
	void *mapping;
} __attribute__((aligned(64)));

/* What a descriptor is at the moment (allocator-owned @state). */
enum pp_page_state {
	PP_PAGE_NONE = 0,	/* tail of a buddy block, or never touched */
	PP_PAGE_BUDDY,		/* head of a free block on a buddy list */
	PP_PAGE_PCP,		/* free, on a per-CPU list */
	PP_PAGE_INUSE,		/* allocated: head of an order-@order block */
	PP_PAGE_BACKEND,	/* held by the jemalloc backend, not handed out */
};

static inline void pp_list_init(struct pp_list_head *list)
{
	list->next = list;
	list->prev = list;
}

static inline bool pp_list_empty(const struct pp_list_head *list)
{
	return list->next == list;
}

/* @entry between the neighbours @prev and @next. */
static inline void pp_list_insert(struct pp_list_head *entry,
				  struct pp_list_head *prev,
				  struct pp_list_head *next)
{
	entry->next = next;
	entry->prev = prev;
	next->prev = entry;
	prev->next = entry;
}

static inline void pp_list_add(struct pp_list_head *entry,
			       struct pp_list_head *head)
{
	pp_list_insert(entry, head, head->next);
}

static inline void pp_list_add_tail(struct pp_list_head *entry,
				    struct pp_list_head *head)
{
	pp_list_insert(entry, head->prev, head);
}

static inline void pp_list_del(struct pp_list_head *entry)
{
	entry->prev->next = entry->next;
	entry->next->prev = entry->prev;
	entry->next = entry;
	entry->prev = entry;
}

static inline struct pp_page *pp_lru_to_page(struct pp_list_head *lru)
{
	return (struct pp_page *)((char *)lru - offsetof(struct pp_page, lru));
}

/**
 * pp_list_pop_page() - unlink and return the first page of @list
 * @list: a list of pages linked through pp_page.lru
 *
 * Return: the page, or NULL when the list is empty.
 */
static inline struct pp_page *pp_list_pop_page(struct pp_list_head *list)
{
	struct pp_list_head *first = list->next;

	if (first == list)
		return NULL;
	pp_list_del(first);
	return pp_lru_to_page(first);
}

/**
 * pp_list_add_check() - CONFIG_DEBUG_LIST's check of a list_add()
 * @entry: the entry going in
 * @prev: the entry it goes after
 * @next: the entry it goes before (@prev's next)
 *
 * What a kernel built with CONFIG_DEBUG_LIST checks before each
 * list_add() (__list_add_valid()): @next's prev is @prev, @prev's next is
 * @next, and @entry is neither.  A consumer whose pool runs the checks
 * (pp_pool_debug_list()) calls it where the kernel's code adds a page to a
 * list.  A broken link is reported on stderr ("list_add corruption") and
 * the program aborts.
 */
void pp_list_add_check(const struct pp_list_head *entry,
		       const struct pp_list_head *prev,
		       const struct pp_list_head *next);

/**
 * pp_list_del_check() - CONFIG_DEBUG_LIST's check of a list_del()
 * @entry: the entry leaving its list
 *
 * __list_del_entry_valid(): @entry's links are not list_del()'s poison,
 * its prev's next and its next's prev are @entry.  Reported and aborted
 * as pp_list_add_check().
 */
void pp_list_del_check(const struct pp_list_head *entry);

/**
 * pp_list_pop_page_check() - pp_list_pop_page(), checked when @check
 * @list: a list of pages linked through pp_page.lru
 * @check: run pp_list_del_check() on the page first (pp_pool_debug_list())
 *
 * Return: the page, or NULL when the list is empty.
 */
static inline struct pp_page *pp_list_pop_page_check(struct pp_list_head *list,
						     bool check)
{
	struct pp_list_head *first = list->next;

	if (first == list)
		return NULL;
	if (check)
		pp_list_del_check(first);
	pp_list_del(first);
	return pp_lru_to_page(first);
}

/* Watermark fields left at this value are computed the kernel's way. */
#define PP_WMARK_AUTO	(~0UL)

/*
 * enum pp_backend - the allocator behind the three APIs.
 *
 * PP_BACKEND_BUDDY: the kernel's design, emulated: buddy lists under a zone
 * lock, per-CPU page lists in front.
 *
 * PP_BACKEND_JEMALLOC: a jemalloc 5.3 arena of its own (arenas.create) whose
 * extent hooks take blocks of pages from the pool's buddy allocator and give
 * them back.  A single page is mallocx(4096), the bulk calls use the
 * experimental.batch_alloc mallctl, the last put is sdallocx().  The API
 * contracts (NULL slots only, return values, fallbacks to the single path
 * on one page, a failed trylock or an empty pool) are the same; the zone's
 * watermarks and pcp lists are the buddy backend's and play no part.
 * jemalloc keeps pages it is not using (its caches, metadata, extents it
 * retains) counted as nr_backend in struct pp_vmstat.
 *
 * Geometry: jemalloc's first metadata block (2 MiB, 512 pages) is taken at
 * create, so a jemalloc pool needs more than 512 pages (fewer: create
 * fails with ENOMEM; exactly 512: nothing to hand out).  jemalloc pads
 * every large extent by one page, so an order-n block asks the hooks for
 * 2^n + 1 pages aligned to 2^n (after first trying to grow its retained
 * memory by the next size class above twice that).  Up to order 9 the
 * buddy allocator serves that from one block of the next order; an order
 * PP_MAX_ORDER block needs two adjacent free order-10 blocks.  A 2,048-page
 * pool, whose first block holds the metadata, therefore never serves
 * order 10, although its buddy lists hold a free order-10 block.
 *
 * PP_BACKEND_PLUGIN: an allocator of the user's own, a shared object named
 * by pp_pool_config.backend_plugin and loaded by pp_pool_create(); it
 * takes its pages from the pool's buddy allocator and hands out the pool's
 * descriptors (<pagepool/backend.h> has its interface).  As with jemalloc
 * the watermarks and pcp lists play no part (the pcp locks guard the
 * plugin's per-CPU state), and the pages it holds are nr_backend.
 */
enum pp_backend {
	PP_BACKEND_BUDDY,
	PP_BACKEND_JEMALLOC,
	PP_BACKEND_PLUGIN,
	PP_NR_BACKENDS
};

/*
 * enum pp_bulk_variant - the contract of the bulk API, after the kernel's
 * history: __alloc_pages_bulk() in mm/page_alloc.c from the patches its
 * first user measured (before the 5.13 merge) to the fixes after it.
 *
 * PP_BULK_MERGED: what 5.13 merged, with its later fixes (a full array
 * returns nr_pages; the one-page fallback counts only this call's pages; a
 * failed pcp trylock falls back to one page).  Only NULL entries are
 * filled, holes anywhere; exactly one missing page goes to the single-page
 * path; statistics are counted per page inside the loop.  The default.
 *
 * PP_BULK_STOP_AT_POPULATED: the v5 series Chuck Lever measured: the array
 * loop stops at the first populated entry after the leading ones and
 * returns the index past it, so a caller with several holes loops.
 *
 * PP_BULK_BATCHED_STATS: as merged, but PGALLOC is counted once after the
 * loop (5.14).
 *
 * PP_BULK_NO_SINGLE_FALLBACK: as merged, but one missing page still takes
 * the bulk path (the other fallbacks stay).
 *
 * PP_BULK_PURE_OUTPUT: the 2025 proposal: the array is output only; entries
 * [0, nr_pages) are overwritten with new pages whatever they held, and the
 * return value is the number stored.  nr_pages == 1 goes to the single
 * path; statistics are batched (it builds on 5.14+).  Lists behave as in
 * the merged variant with batched statistics.
 */
enum pp_bulk_variant {
	PP_BULK_MERGED,
	PP_BULK_STOP_AT_POPULATED,
	PP_BULK_BATCHED_STATS,
	PP_BULK_NO_SINGLE_FALLBACK,
	PP_BULK_PURE_OUTPUT,
	PP_NR_BULK_VARIANTS
};

/*
 * enum pp_pcp_impl - how a thread owns its CPU's pcp list while it works
 * on it.
 *
 * PP_PCP_RSEQ: restartable sequences (rseq(2), x86_64 with glibc 2.35+
 * registering each thread's rseq area, and membarrier's
 * PRIVATE_EXPEDITED_RSEQ command, Linux 5.10+).  Each list operation is
 * one critical section that the kernel aborts and restarts if the thread
 * is preempted, migrated or signalled, so a preempted thread never holds
 * a list, as in the kernel, where pcp lists are used with preemption off.
 * List i serves CPU i only: a thread on a CPU without a list (i >=
 * nr_cpus) bypasses the pcp lists, as a failed trylock does.  A remote
 * drain (pp_pool_drain(), the slow path) marks the list stopped, aborts
 * any section running on that CPU with membarrier(), and drains it; a
 * local operation that meets a stopped list takes the fallback a failed
 * trylock takes.
 *
 * PP_PCP_LOCK: a spin lock per list, only ever taken with trylock on the
 * allocation and free paths (kernels since 2022); a thread preempted
 * while it holds the list makes the others on that CPU fail their
 * trylock.  CPU c uses list c % nr_cpus.  The ThreadSanitizer build and
 * machines without rseq use it; so does the jemalloc backend, whose
 * per-CPU thread caches are jemalloc code that cannot be restarted.
 *
 * PP_PCP_AUTO: rseq where this build, the kernel and glibc support it and
 * every CPU has a list (nr_cpus 0 or at least the configured CPUs); lock
 * otherwise.  A pool that asked for rseq (AUTO on an rseq-capable build,
 * or RSEQ) and cannot have it prints a one-line notice, once per process,
 * and uses the lock.  The PAGEPOOL_PCP environment variable (auto, rseq or
 * lock), read by pp_pool_config_init(), sets the default.
 */
enum pp_pcp_impl {
	PP_PCP_AUTO,
	PP_PCP_RSEQ,
	PP_PCP_LOCK,
	PP_NR_PCP_IMPLS
};

/*
 * enum pp_profile - how much of the kernel's work the buddy allocator does
 * besides what its contracts ask.  Both keep every contract of this
 * header (return values, fallbacks, counters, checks); they differ in
 * cost, which is what a comparison of the APIs measures.
 *
 * PP_PROFILE_LEAN: the contracts' own work and nothing else: a ring of
 * page pointers per CPU, one store to prepare a page, the last put of a
 * page without a locked instruction.  The quickest this lab can keep the
 * kernel's semantics; the default.
 *
 * PP_PROFILE_KERNEL: the steps Linux 5.13's mm/page_alloc.c runs on every
 * order-0 allocation and free with CONFIG_DEBUG_VM off, done for real,
 * each in a function named after its kernel counterpart (alloc/kernel*.c):
 * prepare_alloc_pages() and the zonelist walk with zone_watermark_fast()
 * (lowmem_reserve included) on every call; pcp lists per migratetype
 * linked through page->lru; the interrupt flag saved and restored around
 * every pcp section (pushf/popf on x86_64); post_alloc_hook(),
 * __count_zid_vm_events(), zone_statistics() and per-CPU vmstat
 * differentials folded at stat_threshold; put_page_testzero()'s locked
 * decrement, __page_cache_release(), mem_cgroup_uncharge(),
 * free_pages_prepare(), get_pfnblock_migratetype() from a pageblock
 * bitmap, and the bad-page checks where a production kernel makes them
 * (pages moving between the pcp and buddy lists); with @debug_list of
 * struct pp_pool_config (on by default), CONFIG_DEBUG_LIST's checks on
 * every list operation of those paths.  doc/experiments.md,
 * "Reproducing the seed's comparison", says what each step costs and what
 * user space cannot do.  The profiles are the buddy allocator's: a pool
 * of another backend runs that backend's own paths whatever the profile
 * asks, and pp_pool_profile() says lean (as a jemalloc pool asked for
 * rseq lists runs the lock ones).
 */
enum pp_profile {
	PP_PROFILE_LEAN,
	PP_PROFILE_KERNEL,
	PP_NR_PROFILES
};

/*
 * struct pp_pool_config - how to build a pool.  Start from
 * pp_pool_config_init() and change what you need.
 */
struct pp_pool_config {
	unsigned long nr_pages;	/* arena size in 4 KiB pages (default 65536) */
	unsigned int pcp_batch;	/* pages moved per refill/drain (default 63) */
	unsigned int pcp_high;	/* drain when a pcp list reaches this (6*batch) */
	unsigned int nr_cpus;	/* per-CPU lists; 0: the configured CPUs */
	/*
	 * Watermarks in pages.  PP_WMARK_AUTO: min from the kernel's
	 * min_free_kbytes rule (sqrt(16 * KiB), 128 KiB..256 MiB), then
	 * capped at nr_pages / 8 so a small pool does not lose a third of
	 * itself to min: below 256 pages min is under the 128 KiB floor (a
	 * 128-page pool gets 16).  Low and high at min + delta and min + 2 *
	 * delta, delta = max(min / 4, 0.1 % of the zone).  A set min with
	 * AUTO low/high derives them.
	 */
	unsigned long wmark_min, wmark_low, wmark_high;
	/*
	 * Debug checks: poison freed pages and verify the poison on
	 * allocation, check free-list and page-state consistency.  Defaults
	 * to on in --enable-debug builds; the PAGEPOOL_DEBUG environment
	 * variable (0 or 1) overrides the default.  Any other value of it
	 * ("yes", "2", "") makes pp_pool_create() fail with EINVAL, with one
	 * line on stderr naming it.
	 */
	bool debug;
	/* The allocator behind the APIs (default PP_BACKEND_BUDDY). */
	enum pp_backend backend;
	/* The bulk API's contract (default PP_BULK_MERGED). */
	enum pp_bulk_variant bulk_variant;
	/*
	 * jemalloc backend only.  @je_tcache: pages go through a jemalloc
	 * thread cache of their own per CPU (an explicit tcache, used under
	 * that CPU's pcp lock), as mallocx() would through the thread's;
	 * false: MALLOCX_TCACHE_NONE, every call reaches the arena (default
	 * true).  @je_tcache_slots: 0 accepts whatever jemalloc started with;
	 * otherwise the number of 4 KiB slots each thread cache must have,
	 * and pp_pool_create() fails with EINVAL if jemalloc started with
	 * another (it sizes its caches once, at process start, from
	 * MALLOC_CONF: see pp_jemalloc_tcache_slots()).  @je_batch_alloc:
	 * the bulk calls use experimental.batch_alloc (default true); false:
	 * one mallocx() per page.
	 */
	bool je_tcache;
	unsigned int je_tcache_slots;
	bool je_batch_alloc;
	/*
	 * How the pcp lists are owned (default PP_PCP_AUTO, or what
	 * PAGEPOOL_PCP says; pp_pool_create() fails with EINVAL for a
	 * PAGEPOOL_PCP it cannot read).  pp_pool_pcp_impl() says which ran.
	 */
	enum pp_pcp_impl pcp_impl;
	/*
	 * Fault injection, to make rare paths common in tests (default: none,
	 * or what the PAGEPOOL_FAULT environment variable says; see
	 * pp_pool_config_fault()).  @trylock: that percentage (0..100) of
	 * the hot paths' pcp trylocks fail, as a drain on another CPU makes
	 * them fail in the kernel.  @buddy_empty: the buddy allocator says
	 * it is empty once only that many pages are left in it (0: off).
	 * @mmap: the arena mapping fails, pp_pool_create() gives ENOMEM.
	 * A @trylock above 100 makes pp_pool_create() fail with EINVAL.
	 */
	struct pp_fault_config {
		unsigned int trylock;
		unsigned long buddy_empty;
		bool mmap;
	} fault;
	/*
	 * PP_BACKEND_PLUGIN only: the path of the plugin's shared object, as
	 * dlopen() takes it (a name without a slash is searched for the way
	 * dlopen() searches).  pp_pool_create() fails with EINVAL when it
	 * is NULL, with ENOENT when dlopen() or the symbol lookup fails,
	 * with ENOTSUP when the plugin's ABI version or table size is not
	 * this library's; each with one line on stderr saying why.  The
	 * string is not kept past pp_pool_create().
	 *
	 * Added at the end: a program built against an earlier header
	 * passes a shorter struct, so the library reads this field only
	 * when @backend is PP_BACKEND_PLUGIN, a value such a program never
	 * sets.
	 */
	const char *backend_plugin;
	/*
	 * Nodes (default 1; 0 is taken as 1), each a zone with its own buddy lists,
	 * watermarks and pcp lists (struct zone per NUMA node): 1 to
	 * PP_MAX_NODES.  The arena is split in pfn ranges: node n holds
	 * pfns [n * (nr_pages / nr_nodes), (n + 1) * (nr_pages / nr_nodes)),
	 * the last node the remainder too; each zone gets the pool's
	 * watermarks in proportion to its pages.  Only the buddy backend
	 * takes more than one node (another backend: EINVAL).
	 *
	 * @cpu_to_node: NULL (CPU c on node c % nr_nodes, round robin), or
	 * nr_cpus entries (the pool's CPUs, see @nr_cpus), each below
	 * nr_nodes.  @node_distance: NULL (10 within a node, 20 between
	 * two), or nr_nodes * nr_nodes entries, row i the distances from
	 * node i (node_distance(i, j)): 10 on the diagonal, 11..254
	 * elsewhere, as the kernel's SLIT.  Both are copied by
	 * pp_pool_create(); any rule broken: EINVAL.
	 *
	 * Added at the end, as @backend_plugin; the library has had no
	 * release (soname 0:0:0), so a program built against an earlier
	 * header must be rebuilt.
	 */
	unsigned int nr_nodes;
	const unsigned int *cpu_to_node;
	const unsigned int *node_distance;
	/*
	 * How much of the kernel's work the buddy allocator does (default
	 * PP_PROFILE_LEAN, or what the PAGEPOOL_PROFILE environment
	 * variable says: lean or kernel; pp_pool_create() fails with EINVAL
	 * for a value it cannot read, naming it).  See enum pp_profile.
	 * @init_on_alloc: the kernel profile zeroes every page it hands out,
	 * as init_on_alloc=1 (CONFIG_INIT_ON_ALLOC_DEFAULT_ON) does; off by
	 * default, as in the kernel's defconfig.  Ignored by the lean
	 * profile (PP_GFP_ZERO zeroes in both).  Added at the end, as
	 * @nr_nodes.
	 * @debug_list: the kernel profile runs CONFIG_DEBUG_LIST's checks
	 * (pp_list_add_check(), pp_list_del_check()) on every list
	 * operation of its paths, as a kernel built with it does, as the
	 * kernel whose page_bench04_bulk figures calibrate the profile very
	 * likely was (doc/experiments.md).  Default: on, or what the
	 * PAGEPOOL_DEBUG_LIST environment variable says (0 or 1).  Ignored
	 * by the lean profile.  Added at the end, as @init_on_alloc.
	 */
	enum pp_profile profile;
	bool init_on_alloc;
	bool debug_list;
};

/*
 * NUMA policies of pp_alloc_pages_bulk_array_mempolicy() (struct
 * mempolicy's modes): the node of the running CPU (PP_MPOL_DEFAULT and
 * PP_MPOL_LOCAL, the same for a bulk call), one node (PP_MPOL_PREFERRED,
 * the lowest of @nodes, falling back along its zonelist), or pages spread
 * over @nodes in turn (PP_MPOL_INTERLEAVE).
 */
enum pp_mpol_mode {
	PP_MPOL_DEFAULT,
	PP_MPOL_PREFERRED,
	PP_MPOL_INTERLEAVE,
	PP_MPOL_LOCAL,
	PP_NR_MPOL_MODES
};

/*
 * A memory policy.  @nodes: a mask of node ids (bit n: node n) for
 * PREFERRED and INTERLEAVE, ignored otherwise.  @il_prev: the last node
 * interleaving used (the kernel keeps it in the task, current->il_prev);
 * start it at 0 or anything: the next node is the first of @nodes after
 * it, wrapping.  The call updates it, so a policy is one thread's at a
 * time, as a task's is.
 */
struct pp_mempolicy {
	enum pp_mpol_mode mode;
	unsigned long nodes;
	unsigned int il_prev;
};

struct pp_pool;

/**
 * pp_pool_config_wmarks() - the watermarks a pool built from @cfg would get
 * @cfg: configuration (nr_pages and the wmark_* fields are used)
 * @min, @low, @high: filled in pages
 *
 * Lets a program size a pool (the pages it needs + min) before creating it.
 *
 * Return: 0, or -EINVAL when the watermarks would be out of order or above
 * the pool size (pp_pool_create() would fail).
 */
int pp_pool_config_wmarks(const struct pp_pool_config *cfg,
			  unsigned long *min, unsigned long *low,
			  unsigned long *high);

/**
 * pp_pool_config_init() - fill @cfg with the defaults
 * @cfg: configuration to initialise
 *
 * The environment sets some defaults, read here: PAGEPOOL_DEBUG (@debug),
 * PAGEPOOL_DEBUG_LIST (@debug_list), PAGEPOOL_PCP (@pcp_impl),
 * PAGEPOOL_PROFILE (@profile) and PAGEPOOL_FAULT (@fault, in the syntax
 * of pp_pool_config_fault()).
 * Change the fields to override them: pp_pool_create() takes @fault as it
 * finds it and does not read PAGEPOOL_FAULT.  (It still refuses a
 * PAGEPOOL_DEBUG or PAGEPOOL_DEBUG_LIST other than 0 or 1 whatever @debug
 * and @debug_list say, and reads PAGEPOOL_PCP and PAGEPOOL_PROFILE again
 * to name a bad one.)
 *
 * Thread safety: touches only @cfg (and reads the environment).
 *
 * Return: 0, or -EINVAL when one of these variables holds a value it
 * cannot read.  @cfg is filled all the same, in a way pp_pool_create()
 * refuses with EINVAL, so a caller that ignores the return value does not
 * run without the checks or faults the user asked for.  A bad
 * PAGEPOOL_FAULT is named here, in one line on stderr (what it is, what
 * is accepted), and leaves @fault.trylock above 100; a bad PAGEPOOL_DEBUG,
 * PAGEPOOL_DEBUG_LIST, PAGEPOOL_PCP or PAGEPOOL_PROFILE is named by
 * pp_pool_create().
 */
int pp_pool_config_init(struct pp_pool_config *cfg);

/**
 * pp_pool_config_fault() - set @cfg's fault injection from a spec
 * @cfg: configuration
 * @spec: the PAGEPOOL_FAULT syntax, a comma-separated list of
 *        trylock=PERCENT (0..100), buddy-empty=PAGES and mmap, e.g.
 *        "trylock=25,buddy-empty=512"; NULL or "": no fault
 *
 * Return: 0 with @cfg->fault replaced, or -EINVAL with @cfg untouched when
 * @spec cannot be read or gives a key twice (nothing is printed).
 */
int pp_pool_config_fault(struct pp_pool_config *cfg, const char *spec);

/**
 * pp_pool_create() - map an arena and build a zone over it
 * @cfg: configuration; NULL means the defaults
 *
 * Maps the arena and the descriptor array (lazily backed by the kernel),
 * puts every page in the buddy lists as the largest aligned blocks that fit,
 * and sets up one pcp list per CPU.
 *
 * Return: the pool, or NULL with errno set: EINVAL for a configuration that
 * cannot work (no pages, batch 0 or above high, watermarks out of order or
 * above the pool size, a fault.trylock above 100, pcp_high and nr_pages
 * both above 2^31: a pcp list's ring has at most 2^31 slots) or one that
 * pp_pool_config_init() made from an environment variable it could not
 * read (PAGEPOOL_DEBUG other than 0 or 1, PAGEPOOL_PCP, PAGEPOOL_PROFILE:
 * one line on stderr names the variable, its value and what is accepted;
 * PAGEPOOL_FAULT: pp_pool_config_init() named it), a kernel profile of
 * 2^32 pages or more, ENOMEM when the mappings fail (or
 * fault.mmap asks them to), EOPNOTSUPP for PP_BACKEND_JEMALLOC in a
 * libpagepool built without jemalloc (./configure --without-jemalloc).
 */
struct pp_pool *pp_pool_create(const struct pp_pool_config *cfg);

/**
 * pp_pool_destroy() - check that every page is back and unmap the pool
 * @pool: the pool; NULL is a no-op returning 0.  A pool destroyed already
 *        is a caller bug: reported ("not a live pool") and aborts while its
 *        memory has not been reused, undefined after.
 *
 * Drains every pcp list into the buddy lists, then counts the free pages.
 * If any page is still allocated it prints how many, and the first few pfns,
 * to stderr and returns -EBUSY without freeing anything: the caller may put
 * the pages and call it again.  With the jemalloc backend it looks for
 * allocated pages first, then destroys the jemalloc arena and its thread
 * caches (arena.<i>.destroy gives every extent back through the hooks) and
 * checks that the buddy allocator holds every page again.
 *
 * Thread safety: no other call on @pool may run concurrently.
 *
 * Return: 0, or -EBUSY when pages are still out (or, with jemalloc, when
 * the arena did not give every page back, which is reported).
 */
int pp_pool_destroy(struct pp_pool *pool);

/**
 * pp_pool_drain() - return every pcp list's pages to the buddy allocator
 * @pool: the pool
 *
 * The drain_all_pages() analogue.  Each pcp list is taken from its CPU
 * in turn (its lock; with rseq, marked stopped and that CPU's critical
 * sections aborted with membarrier()); a bulk call that meets a drain in
 * progress falls back to one page, a single page or a free goes to the
 * buddy lists.  With the
 * jemalloc backend: flush each CPU's thread cache (under its pcp lock) and
 * purge the arena, so the extents jemalloc is not using go back to the
 * buddy allocator.
 *
 * Thread safety: may run concurrently with allocations and frees.
 */
void pp_pool_drain(struct pp_pool *pool);

/**
 * pp_pool_set_bulk_variant() - switch the bulk API's contract at run time
 * @pool: the pool
 * @variant: one of enum pp_bulk_variant
 *
 * Calls already running finish under the variant they started with.
 *
 * Thread safety: any thread, concurrently with any call.
 *
 * Return: 0, or -EINVAL for a value outside enum pp_bulk_variant.
 */
int pp_pool_set_bulk_variant(struct pp_pool *pool,
			     enum pp_bulk_variant variant);

/**
 * pp_pool_bulk_variant() - the bulk variant @pool runs now
 * @pool: the pool
 *
 * Return: the variant.
 */
enum pp_bulk_variant pp_pool_bulk_variant(const struct pp_pool *pool);

/**
 * pp_pool_backend() - the allocator behind @pool
 * @pool: the pool
 *
 * Return: the backend it was created with.
 */
enum pp_backend pp_pool_backend(const struct pp_pool *pool);

/**
 * pp_backend_name() - "buddy", "jemalloc" or "plugin"
 * @backend: a backend
 *
 * Return: the name, or "unknown" for a value outside enum pp_backend.
 */
const char *pp_backend_name(enum pp_backend backend);

/**
 * pp_backend_from_name() - the backend called @name
 * @name: "buddy" or "jemalloc"
 *
 * Return: the backend, or -EINVAL for any other string.
 */
int pp_backend_from_name(const char *name);

/**
 * struct pp_plugin_watch - which callback of a backend plugin a thread is in
 * @callback: the callback's name ("init", "fini", "alloc", "fill", "free",
 *	"free_batch", "drain" or "nr_held") while the thread is inside it,
 *	else NULL
 * @plugin: the plugin's path, when @callback is set
 *
 * A plugin is not trusted: a callback that never returns leaves its
 * thread inside libpagepool for good.  A thread that registers a watch
 * (pp_plugin_watch_thread()) has it kept up to date around every callback
 * it makes, for another thread (a watchdog) to read with
 * pp_plugin_watch_read(): the caller's memory, two stores before and one
 * after each callback, no lock and no system call.
 */
struct pp_plugin_watch {
	const char *callback;
	const char *plugin;
};

/**
 * pp_plugin_watch_thread() - keep @watch up to date for the calling thread
 * @watch: where the thread's plugin callbacks are noted, or NULL to stop
 *
 * @watch must stay valid until the thread stops it (NULL) or ends; it is
 * cleared here.  Threads that registered none are not watched.
 */
void pp_plugin_watch_thread(struct pp_plugin_watch *watch);

/**
 * pp_plugin_watch_read() - the callback a watched thread is inside
 * @watch: a watch registered with pp_plugin_watch_thread()
 * @plugin: if not NULL, set to the plugin's path when one is returned
 *
 * May be called from any thread.
 *
 * Return: the callback's name, or NULL when the thread is in none.
 */
const char *pp_plugin_watch_read(const struct pp_plugin_watch *watch,
				 const char **plugin);

/**
 * pp_bulk_variant_name() - the name of a bulk variant
 * @variant: a variant
 *
 * Return: "merged", "stop-at-first-populated", "batched-stats",
 * "no-single-fallback" or "pure-output"; "unknown" outside the enum.
 */
const char *pp_bulk_variant_name(enum pp_bulk_variant variant);

/**
 * pp_bulk_variant_from_name() - the variant called @name
 * @name: a name pp_bulk_variant_name() returns
 *
 * Return: the variant, or -EINVAL for any other string.
 */
int pp_bulk_variant_from_name(const char *name);

/**
 * pp_pool_pcp_impl() - how @pool's pcp lists are owned
 * @pool: the pool
 *
 * Return: PP_PCP_RSEQ or PP_PCP_LOCK (never PP_PCP_AUTO).
 */
enum pp_pcp_impl pp_pool_pcp_impl(const struct pp_pool *pool);

/**
 * pp_pool_config_pcp_impl() - the pcp implementation a pool built from
 * @cfg would run
 * @cfg: configuration (pcp_impl, backend and nr_cpus are used)
 * @why: if not NULL, set to why rseq cannot be had when @cfg wants it
 *       (the reason pp_pool_create()'s notice gives), NULL otherwise
 *
 * Lets a program say which implementation it will measure before it
 * creates pools.
 *
 * Return: PP_PCP_RSEQ or PP_PCP_LOCK; PP_NR_PCP_IMPLS when @cfg's
 * pcp_impl is not a value of the enum (pp_pool_create() would fail).
 */
enum pp_pcp_impl pp_pool_config_pcp_impl(const struct pp_pool_config *cfg,
					 const char **why);

/**
 * pp_pcp_impl_name() - "auto", "rseq" or "lock"
 * @impl: a value of enum pp_pcp_impl
 *
 * Return: the name, or "unknown" outside the enum.
 */
const char *pp_pcp_impl_name(enum pp_pcp_impl impl);

/**
 * pp_pcp_impl_from_name() - the pcp implementation called @name
 * @name: "auto", "rseq" or "lock"
 *
 * Return: the value, or -EINVAL for any other string.
 */
int pp_pcp_impl_from_name(const char *name);

/**
 * pp_pcp_rseq_supported() - could a pool use PP_PCP_RSEQ here?
 * @why: if not NULL, set to a short reason when the answer is no
 *
 * Checks this build (x86_64, not ThreadSanitizer), glibc's rseq
 * registration for the calling thread (off with
 * GLIBC_TUNABLES=glibc.pthread.rseq=0) and the kernel's membarrier
 * support.
 *
 * Return: true when rseq pcp lists can be used.
 */
bool pp_pcp_rseq_supported(const char **why);

/**
 * pp_pool_profile() - the pool's profile (enum pp_profile)
 */
enum pp_profile pp_pool_profile(const struct pp_pool *pool);

/**
 * pp_pool_debug_list() - whether the pool runs CONFIG_DEBUG_LIST's checks
 *
 * True for a kernel profile pool created with @debug_list: a consumer
 * then checks its own list operations on pages (pp_list_pop_page_check()),
 * as the kernel's consumers' list_del() does.
 */
bool pp_pool_debug_list(const struct pp_pool *pool);

/**
 * pp_profile_name() - "lean" or "kernel"; "unknown" out of range
 */
const char *pp_profile_name(enum pp_profile profile);

/**
 * pp_profile_from_name() - the profile called @name
 *
 * Return: the enum pp_profile value, or -EINVAL (NULL too).
 */
int pp_profile_from_name(const char *name);

/**
 * pp_jemalloc_tcache_slots() - slots jemalloc's thread caches have for 4 KiB
 *
 * jemalloc 5.3 sizes each thread-cache bin once, at process start, from its
 * options (MALLOC_CONF's tcache_nslots_small_min and _max,
 * lg_tcache_nslots_mul): an even count between min and max, from the number
 * of regions per slab, which is 1 for the 4 KiB class.  With the defaults
 * (min 20) that is 20 pages, so a bulk of more than 20 pages freed at once
 * overflows into the arena.  MALLOC_CONF=tcache_nslots_small_min:N,
 * tcache_nslots_small_max:N (N even) before the process starts gives N.
 *
 * Thread safety: any thread.
 *
 * Return: the slot count, 0 if the thread cache is off (opt.tcache false,
 * or 4 KiB above opt.tcache_max), -EOPNOTSUPP in a libpagepool built
 * without jemalloc (a cheap way to ask whether it was), or -errno if
 * jemalloc cannot be asked.
 */
long pp_jemalloc_tcache_slots(void);

/**
 * pp_alloc_pages() - allocate a block of 2^@order pages
 * @pool: the pool
 * @gfp: PP_GFP_* flags
 * @order: 0..PP_MAX_ORDER
 *
 * The __alloc_pages() path in full on every call: prepare the allocation
 * context, check the zone's low watermark, then take order-0 pages from this
 * CPU's pcp list (refilled from the buddy lists with rmqueue_bulk(batch)
 * under the zone lock when empty) and larger orders from the buddy lists.
 * Below the low watermark it retries against min (lower still for
 * PP_GFP_ATOMIC; none for PP_GFP_MEMALLOC), draining all pcp lists once
 * before failing, as direct reclaim would.
 *
 * Thread safety: any thread, concurrently.
 *
 * Return: the head page with refcount 1, or NULL when no page could be had
 * (errno is not set: the kernel's allocator has no errno either), or NULL
 * with errno EINVAL when @order is above PP_MAX_ORDER.
 */
struct pp_page *pp_alloc_pages(struct pp_pool *pool, pp_gfp_t gfp,
			       unsigned int order);

/**
 * pp_alloc_page() - allocate one page: pp_alloc_pages(@pool, @gfp, 0)
 */
struct pp_page *pp_alloc_page(struct pp_pool *pool, pp_gfp_t gfp);

/**
 * pp_alloc_pages_bulk_array() - fill the NULL entries of an array with pages
 * @pool: the pool
 * @gfp: PP_GFP_* flags
 * @nr_pages: number of entries of @page_array to consider
 * @page_array: array of page pointers; non-NULL entries are left untouched.
 *              NULL is allowed only with @nr_pages 0; otherwise the call
 *              reports it and aborts.
 *
 * Only NULL elements are populated, and @nr_pages is the maximum number of
 * pages the array will hold (5.13 semantics, with the 5.13.1 fix for a full
 * array).  The leading populated entries are skipped first.  Exactly one
 * missing page, or a zone below its low watermark + @nr_pages, goes to the
 * single-page path.  Otherwise the loop fills the remaining holes from this
 * CPU's pcp list, refilling it from the buddy lists as needed: with the
 * lock implementation under one hold of the pcp lock (trylock: on failure,
 * one page through the single-page path), with rseq one critical section
 * per run of holes (a list stopped by a drain: one page through the
 * single-page path).
 * When pages run out the call returns what it has; if it allocated nothing
 * at all it tries the single-page path for one page.
 *
 * Thread safety: any thread, concurrently; @page_array is the caller's.
 *
 * Return: n such that entries [0, n) of @page_array are all populated on
 * return, pre-populated ones included; n == @nr_pages means the array is
 * full, and an array full on entry returns @nr_pages (never 0).  As in the
 * kernel, n is the index where the call stopped, not a census: after a
 * partial fill it is the first hole left, and after a single-page fallback
 * it is the filled slot + 1 even when populated entries follow, so an
 * array can be full while n < @nr_pages (calling again returns @nr_pages).
 * 0 if @nr_pages is 0 or no page could be had for a hole at index 0.
 *
 * That is the default contract (PP_BULK_MERGED).  The pool's bulk variant
 * (pp_pool_set_bulk_variant()) can make the loop stop at the first
 * populated entry after a hole, keep one missing page on the bulk path, or
 * treat the array as output only (n new pages stored at [0, n), whatever
 * the entries held): see enum pp_bulk_variant.
 */
unsigned long pp_alloc_pages_bulk_array(struct pp_pool *pool, pp_gfp_t gfp,
					unsigned long nr_pages,
					struct pp_page **page_array);

/**
 * pp_alloc_pages_bulk_array_node() - pp_alloc_pages_bulk_array() on a node
 * @pool: the pool
 * @gfp: PP_GFP_* flags
 * @nid: the preferred node, 0 .. nr_nodes - 1, or PP_NUMA_NO_NODE for the
 *       node of the CPU the thread runs on; any other value is a bug of
 *       the caller: the call reports it and aborts
 * @nr_pages: as pp_alloc_pages_bulk_array()
 * @page_array: as pp_alloc_pages_bulk_array()
 *
 * alloc_pages_bulk_array_node(): the same contract, with the zonelist of
 * @nid.  The bulk loop works on the first zone of the zonelist that is
 * above its low watermark + @nr_pages, and only if that zone is @nid's
 * own: on a pool of several nodes it never fills from another node (the
 * kernel's rule in __alloc_pages_bulk()).  Otherwise one page comes
 * through the single-page path, which walks @nid's zonelist (nearest
 * first; none but @nid with PP_GFP_THISNODE); the pool's
 * bulk_fallback_watermark counts it, and @nid's bulk_fallback_remote too
 * when another node's zone was next (pp_pool_node_vmstat()).  The pages
 * come from @nid's pcp list of the running CPU.
 *
 * Thread safety: any thread, concurrently; @page_array is the caller's.
 *
 * Return: as pp_alloc_pages_bulk_array().
 */
unsigned long pp_alloc_pages_bulk_array_node(struct pp_pool *pool,
					     pp_gfp_t gfp, int nid,
					     unsigned long nr_pages,
					     struct pp_page **page_array);

/**
 * pp_alloc_pages_bulk_array_mempolicy() - bulk array under a NUMA policy
 * @pool: the pool
 * @gfp: PP_GFP_* flags
 * @pol: the policy, NULL for the default (the running CPU's node);
 *       @pol->il_prev is updated by an interleaving call
 * @nr_pages: as pp_alloc_pages_bulk_array()
 * @page_array: as pp_alloc_pages_bulk_array()
 *
 * alloc_pages_bulk_array_mempolicy() as 5.14 has it.  PP_MPOL_INTERLEAVE:
 * @nr_pages is split evenly over the nodes of @pol->nodes (those of the
 * pool), the first (@nr_pages % nodes) in interleave order getting one
 * page more; each node in turn, the next of @pol->nodes after
 * @pol->il_prev, gets a pp_alloc_pages_bulk_array_node() call for its
 * share, starting where the previous call's return left the array.  Any
 * other mode: one pp_alloc_pages_bulk_array_node() call for the policy's
 * node.  An empty interleave mask (no node of the pool in it), a mode out
 * of range or a PREFERRED mask without a node of the pool is the
 * caller's bug: reported, abort.
 *
 * Thread safety: any thread, concurrently, each with a policy of its own
 * (interleaving writes @pol->il_prev); @page_array is the caller's.
 *
 * Return: the sum of the per-node calls' returns: as
 * pp_alloc_pages_bulk_array() for an array that starts empty (each share
 * lands after the last); with pre-populated entries the kernel's
 * arithmetic, kept as it is, may count them more than once.
 */
unsigned long pp_alloc_pages_bulk_array_mempolicy(struct pp_pool *pool,
						  pp_gfp_t gfp,
						  struct pp_mempolicy *pol,
						  unsigned long nr_pages,
						  struct pp_page **page_array);

/**
 * pp_alloc_pages_bulk_list() - allocate up to @nr_pages pages onto a list
 * @pool: the pool
 * @gfp: PP_GFP_* flags
 * @nr_pages: number of pages wanted
 * @list: an initialised list; pages are added at its head through
 *        pp_page.lru, existing entries are kept.  NULL is allowed only
 *        with @nr_pages 0; otherwise the call reports it and aborts.
 *
 * Same core, fallbacks, locking and variants as
 * pp_alloc_pages_bulk_array().
 *
 * Thread safety: any thread, concurrently; @list is the caller's.
 *
 * Return: the number of pages added to @list by this call; fewer than
 * @nr_pages when the pool ran short (a partial fill is success), 0 when no
 * page could be had.
 */
unsigned long pp_alloc_pages_bulk_list(struct pp_pool *pool, pp_gfp_t gfp,
				       unsigned long nr_pages,
				       struct pp_list_head *list);

/**
 * pp_get_page() - take another reference on an allocated page
 * @pool: the pool the page came from
 * @page: a page the caller holds a reference to, or knows to be held by
 *        someone until this call returns (get_page()'s rule)
 *
 * Reported as a bad page, aborting, debug checks on or off: a pointer that
 * is not one of @pool's descriptors (another pool's page, a pointer into
 * a descriptor), a get of a free page, and a get that would take the
 * refcount past INT_MAX (2^31 - 1 references: named as an overflow).
 *
 * Thread safety: any thread, concurrently.  The last put of a page takes
 * no atomic read-modify-write (nobody else can hold a reference then), so
 * a get by a thread that holds none, racing with that put, is lost.
 */
void pp_get_page(struct pp_pool *pool, struct pp_page *page);

/**
 * pp_put_page() - drop a reference; the last one frees the block
 * @pool: the pool the page came from
 * @page: a page with refcount > 0 (the head page for order > 0)
 *
 * An order-0 page goes to this CPU's pcp list; when the list reaches high,
 * batch pages go back to the buddy lists under the zone lock, merging
 * buddies (free_pcppages_bulk()).  If the pcp list cannot be had (trylock
 * failed, or stopped by a drain), or the block is larger than one page, it
 * goes straight to the buddy lists.
 *
 * Reported as a bad page, aborting, debug checks on or off: a put of a
 * pointer that is not one of @pool's descriptors (a page of another pool,
 * a pointer into a descriptor; named as such, not as a double free), and
 * a put that would take the refcount below zero (a double free; a
 * negative count is named as corruption or overflow).  The descriptor
 * check is a range and alignment compare on every call.
 *
 * Thread safety: any thread, concurrently; frees may come from a different
 * thread and CPU than the allocation.
 */
void pp_put_page(struct pp_pool *pool, struct pp_page *page);

/**
 * pp_free_pages() - drop a reference; the last one frees the block
 * @pool: the pool the page came from
 * @page: the head page of a block of 2^@order pages, refcount > 0
 * @order: the order it was allocated with (any other is reported and
 *         aborts)
 *
 * __free_pages(): pp_put_page() without the steps put_page() adds on the
 * way (compound_head(), __page_cache_release(), mem_cgroup_uncharge()),
 * which the kernel profile does and the lean profile has no work in.
 * page_bench04_bulk frees its list pages this way ("avoid
 * __page_cache_release()"), its array pages with put_page().  The same
 * checks as pp_put_page().
 *
 * Thread safety: any thread, concurrently.
 */
void pp_free_pages(struct pp_pool *pool, struct pp_page *page,
		   unsigned int order);

/**
 * pp_release_pages() - drop one reference on each of @nr pages
 * @pool: the pool
 * @pages: array of pages; NULL entries are skipped, the array is not changed
 * @nr: number of entries (a NULL @pages with @nr above 0 is reported and
 *      aborts)
 *
 * The release_pages() / free_unref_page_list() analogue: pages whose last
 * reference goes are collected and freed to this CPU's pcp list once per 32
 * pages (one hold of the pcp lock, or one rseq critical section) instead
 * of once per page.  The kernel profile, as free_unref_page_list(), commits
 * the pages one by one (an rseq section each), but has the list once per
 * 32 pages too: one hold of the pcp lock, one decision of an injected
 * trylock fault on rseq lists.
 *
 * Each non-NULL entry is checked as pp_put_page() checks its page.
 *
 * Thread safety: any thread, concurrently.
 */
void pp_release_pages(struct pp_pool *pool, struct pp_page **pages,
		      unsigned long nr);

/*
 * Page <-> pfn <-> address conversions.  pp_pfn_to_page() returns NULL for a
 * pfn outside the pool.  pp_page_to_pfn() and pp_page_address() report a
 * descriptor pointer that is not the pool's and abort, debug checks on or
 * off (a range and alignment compare).
 */
unsigned long pp_page_to_pfn(const struct pp_pool *pool,
			     const struct pp_page *page);
struct pp_page *pp_pfn_to_page(const struct pp_pool *pool, unsigned long pfn);
void *pp_page_address(const struct pp_pool *pool, const struct pp_page *page);
/* Any address inside the arena maps to its page; NULL outside it. */
struct pp_page *pp_virt_to_page(const struct pp_pool *pool, const void *addr);

/* Reference count of a page (page_ref_count()). */
int pp_page_count(const struct pp_page *page);

/*
 * Event counters (vm_event_item analogue).  Kept per CPU, summed when read.
 */
enum pp_vm_event {
	PP_PGALLOC,			/* pages allocated (all paths) */
	PP_PGFREE,			/* pages freed */
	PP_ALLOC_SINGLE_CALLS,		/* pp_alloc_page()/pp_alloc_pages() */
	PP_ALLOC_BULK_LIST_CALLS,	/* pp_alloc_pages_bulk_list() */
	PP_ALLOC_BULK_ARRAY_CALLS,	/* pp_alloc_pages_bulk_array() */
	PP_BULK_FALLBACK_ONE_PAGE,	/* exactly one page needed */
	PP_BULK_FALLBACK_WATERMARK,	/* zone below low + nr_pages */
	PP_BULK_FALLBACK_TRYLOCK,	/* pcp trylock failed */
	PP_BULK_FALLBACK_EMPTY,		/* pcp and buddy empty, nothing yet */
	PP_BULK_PARTIAL,		/* bulk call returned short */
	PP_PCP_REFILL,			/* rmqueue_bulk() calls */
	PP_PCP_REFILL_PAGES,		/* pages moved buddy -> pcp */
	PP_PCP_DRAIN,			/* free_pcppages_bulk() calls */
	PP_PCP_DRAIN_PAGES,		/* pages moved pcp -> buddy */
	PP_PCP_TRYLOCK_FAIL,		/* single path or free skipped the pcp */
	PP_ZONE_LOCK,			/* zone lock acquisitions */
	PP_ALLOC_SLOWPATH,		/* single path retried below low */
	PP_DRAIN_ALL,			/* pcp lists drained to satisfy a
					 * failing allocation or a drain */
	PP_ALLOC_FAIL,			/* allocations that returned NULL */
	PP_BACKEND_GROW,		/* jemalloc took a block from the zone */
	PP_BACKEND_GROW_PAGES,		/* pages in those blocks */
	PP_BACKEND_SHRINK,		/* jemalloc gave a range back */
	PP_BACKEND_SHRINK_PAGES,	/* pages in those ranges */
	/*
	 * rseq pcp lists: critical sections that did not commit and ran
	 * again (aborted by the kernel on preemption, migration or a
	 * signal, or begun on a CPU the thread had just left), per
	 * operation: take one page, give one back, take up to n, give n
	 * back (a release batch or a refill being published), take a batch
	 * from the cold end for a drain, add to a counter.
	 */
	PP_PCP_RESTART_ALLOC,
	PP_PCP_RESTART_FREE,
	PP_PCP_RESTART_BULK_ALLOC,
	PP_PCP_RESTART_BULK_FREE,
	PP_PCP_RESTART_DRAIN,
	PP_PCP_RESTART_COUNT,
	PP_NR_VM_EVENTS
};

/* A snapshot of a pool's counters and free-page state. */
struct pp_vmstat {
	uint64_t events[PP_NR_VM_EVENTS];
	unsigned long nr_pages;		/* pages in the arena */
	unsigned long nr_free;		/* pages in the buddy lists */
	unsigned long nr_pcp;		/* pages on pcp lists */
	/*
	 * Pages the backend allocator holds but has not handed out: with
	 * jemalloc, the pages it took from the zone (backend_grow_pages -
	 * backend_shrink_pages) minus those allocated (pgalloc - pgfree):
	 * its caches, retained extents and metadata.  0 with the buddy
	 * backend.  Pages out = nr_pages - nr_free - nr_pcp - nr_backend.
	 */
	unsigned long nr_backend;
	unsigned long free_area[PP_NR_ORDERS];	/* free blocks per order */
	unsigned long wmark_min, wmark_low, wmark_high;	/* summed over nodes */
	unsigned int pcp_batch, pcp_high, nr_cpus;
	enum pp_backend backend;
	enum pp_bulk_variant bulk_variant;
	enum pp_pcp_impl pcp_impl;	/* PP_PCP_RSEQ or PP_PCP_LOCK */
	enum pp_profile profile;
	/*
	 * NR_FREE_PAGES as the kernel profile's zone_page_state() reads it:
	 * the zones' counters, to which each CPU folds its differential
	 * once it passes stat_threshold (__mod_zone_page_state()), so it
	 * lags nr_free by at most nr_cpus * stat_threshold pages per zone.
	 * The watermark checks read the exact nr_free in both profiles, so
	 * that both keep the same contract.  Lean profile: nr_free.
	 */
	unsigned long nr_free_folded;
};

/**
 * pp_pool_vmstat() - read the pool's counters
 * @pool: the pool
 * @st: filled with a snapshot
 *
 * Event counters are summed over CPUs with relaxed loads: exact when the
 * pool is quiet, a close snapshot while other threads allocate.
 * nr_free and free_area are read under the zone lock; nr_pcp is a sum of
 * per-CPU counts.
 */
void pp_pool_vmstat(struct pp_pool *pool, struct pp_vmstat *st);

/* Name of a counter, as printed by pp_vmstat_print() ("pgalloc", ...). */
const char *pp_vm_event_name(enum pp_vm_event item);

/* Print every counter as "name value" lines (the /proc/vmstat shape). */
void pp_vmstat_print(FILE *out, const struct pp_vmstat *st);

/* Per node counters, as /proc/vmstat and /sys/devices/system/node have. */
enum pp_numa_stat {
	PP_NUMA_HIT,		/* allocated on the preferred node */
	PP_NUMA_MISS,		/* allocated here, another node preferred */
	PP_NUMA_FOREIGN,	/* preferred here, allocated elsewhere */
	PP_NUMA_LOCAL,		/* allocated here by a CPU of this node */
	PP_NUMA_OTHER,		/* allocated here by another node's CPU */
	PP_NUMA_BULK_FALLBACK_REMOTE,	/* bulk call preferring this node
					   went single-page: its zone was
					   short and the next is remote */
	PP_NR_NUMA_STATS
};

/* One node of pp_pool_node_vmstat(). */
struct pp_node_vmstat {
	uint64_t numa[PP_NR_NUMA_STATS];
	unsigned long start_pfn;	/* the node's pfns: [start_pfn, */
	unsigned long nr_pages;		/*   start_pfn + nr_pages) */
	unsigned long nr_free;		/* in its buddy lists */
	unsigned long nr_pcp;		/* on its pcp lists */
	unsigned long wmark_min, wmark_low, wmark_high;
};

/**
 * pp_pool_nr_nodes() - the pool's nodes (pp_pool_config.nr_nodes)
 */
unsigned int pp_pool_nr_nodes(const struct pp_pool *pool);

/**
 * pp_pool_cpu_to_node() - the node of CPU @cpu (cpu_to_node())
 *
 * Return: the node, or -EINVAL when @cpu is not one of the pool's CPUs.
 */
int pp_pool_cpu_to_node(const struct pp_pool *pool, unsigned int cpu);

/**
 * pp_pool_node_distance() - node_distance(@from, @to) of the pool
 *
 * Return: the distance, or -EINVAL for a node out of range.
 */
int pp_pool_node_distance(const struct pp_pool *pool, unsigned int from,
			  unsigned int to);

/**
 * pp_page_to_nid() - the node whose zone @page belongs to (page_to_nid())
 *
 * A page outside the pool is reported and the call aborts.
 */
int pp_page_to_nid(const struct pp_pool *pool, const struct pp_page *page);

/**
 * pp_pool_node_vmstat() - read one node's counters
 * @pool: the pool
 * @nid: 0 .. pp_pool_nr_nodes() - 1
 * @st: filled with a snapshot
 *
 * The counters are zone_statistics()'s, in pages: a page allocated from
 * node z for a call preferring node p, by a CPU of node c, counts numa_hit
 * on z if z == p, else numa_miss on z and numa_foreign on p; numa_local
 * on z if z == c, else numa_other on z.  On a one-node pool every page is
 * a hit and local: both read as the pool's pgalloc.  nr_free is read
 * under the node's zone lock, nr_pcp is a racy sum.
 *
 * Thread safety: any thread, concurrently with allocations.
 *
 * Return: 0, or -EINVAL when @nid is out of range.
 */
int pp_pool_node_vmstat(struct pp_pool *pool, unsigned int nid,
			struct pp_node_vmstat *st);

/* Name of a per node counter ("numa_hit", ...); "unknown" out of range. */
const char *pp_numa_stat_name(enum pp_numa_stat item);

/*
 * Print each node's counters, /proc/zoneinfo-like: "node N" then one
 * "NAME VALUE" line each (indented by two spaces), for nodes 0 .. nr - 1
 * of @st.
 */
void pp_node_vmstat_print(FILE *out, const struct pp_node_vmstat *st,
			  unsigned int nr);

/* Library version string ("0.1.0"). */
const char *pp_version(void);

#ifdef __cplusplus
}
#endif

#endif /* PAGEPOOL_PAGEPOOL_H */
