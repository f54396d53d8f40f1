/* SPDX-License-Identifier: MIT */
/*
 * The kernel profile (PP_PROFILE_KERNEL): the work Linux 5.13's
 * mm/page_alloc.c does on every order-0 allocation and free, done here for
 * real, each step in a function named after its kernel counterpart (the
 * prefix ppk_, then the kernel's name; a leading "__" becomes a suffix
 * "_core" where both exist).  The lean profile keeps the same contracts
 * with the fewest stores; this one pays what the kernel pays, so that
 * the costs the seed measured come from the same steps.
 *
 *   kernel_alloc.c   __alloc_pages(), prepare_alloc_pages(),
 *                    get_page_from_freelist(), zone_watermark_fast(),
 *                    rmqueue(), rmqueue_pcplist(), __rmqueue_pcplist(),
 *                    prep_new_page() / post_alloc_hook(),
 *                    __alloc_pages_bulk()
 *   kernel_free.c    put_page(), __put_page(), __free_pages(),
 *                    free_unref_page() and its prepare / commit,
 *                    free_pages_prepare(), get_pfnblock_migratetype(),
 *                    release_pages(), free_unref_page_list()
 *   kernel_pcp.c     the pcp lists through page->lru (both
 *                    implementations), rmqueue_bulk(),
 *                    free_pcppages_bulk(), the vmstat differentials,
 *                    zone_statistics(), pool setup (zonelists,
 *                    mem_section and pageblock bitmaps, memmap_init)
 *   kernel_rseq.h    the restartable sections over those lists
 *   list_debug.c     CONFIG_DEBUG_LIST's __list_add_valid() and
 *                    __list_del_entry_valid(), on by default
 *                    (pool->debug_list), exported for consumers
 *
 * What user space cannot do, and what stands in (doc/experiments.md has
 * the long form):
 *   - interrupts: local_irq_save()/local_irq_restore() save and restore
 *     the flags register (pushf/popf on x86_64, nzcv on aarch64; user
 *     space cannot clear IF, so cli has no counterpart); exclusion on the
 *     CPU comes from the rseq sections or the pcp lock, as in the lean
 *     profile;
 *   - per-CPU operations (this_cpu_add() and friends, one instruction on
 *     %gs) are one rseq section each, or plain stores under the pcp lock;
 *   - list_del() of the first page of a pcp list does not store the next
 *     page's lru.prev in an rseq section, whose one commit cannot cover
 *     it (kernel_rseq.h says why and what the lists keep instead).
 */
#ifndef PP_ALLOC_KERNEL_H
#define PP_ALLOC_KERNEL_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include <pagepool/pagepool.h>

/* Migrate types (include/linux/mmzone.h). */
enum ppk_migratetype {
	PPK_MIGRATE_UNMOVABLE,
	PPK_MIGRATE_MOVABLE,
	PPK_MIGRATE_RECLAIMABLE,
	PPK_MIGRATE_PCPTYPES,		/* one pcp list per type above */
	PPK_MIGRATE_HIGHATOMIC = PPK_MIGRATE_PCPTYPES,
	PPK_MIGRATE_ISOLATE,
	PPK_MIGRATE_TYPES
};

/*
 * Zone types of an x86_64 kernel.  Every zone of a pool is its node's
 * ZONE_NORMAL; the zonelists hold no others.
 */
enum ppk_zone_type {
	PPK_ZONE_DMA,
	PPK_ZONE_DMA32,
	PPK_ZONE_NORMAL,
	PPK_ZONE_MOVABLE,
	PPK_MAX_NR_ZONES
};

/* Zone counters of __mod_zone_page_state() (enum zone_stat_item). */
enum ppk_zone_stat {
	PPK_NR_FREE_PAGES,
	PPK_NR_FREE_CMA_PAGES,		/* read by the watermark; no CMA here */
	PPK_NR_ZONE_STATS
};

/*
 * NUMA counters of zone_statistics(), kept in the order of enum
 * pp_numa_stat (HIT, MISS, FOREIGN, LOCAL, OTHER): the first five.
 * NUMA_STATS_THRESHOLD: 5.13 folds a u16 differential at U16_MAX - 2.
 */
#define PPK_NR_NUMA_DIFFS	5
#define PPK_NUMA_STATS_THRESHOLD	(UINT16_MAX - 2)

/* Allocation flags beyond pool.h's PP_ALLOC_* (mm/internal.h). */
#define PPK_ALLOC_CPUSET	0x040u
#define PPK_ALLOC_CMA		0x080u
#define PPK_ALLOC_NOFRAGMENT	0x100u
#define PPK_ALLOC_KSWAPD	0x800u

/*
 * page_flags: the PG_* bits of include/linux/page-flags.h this lab's paths
 * test or clear, then the last cpupid, the zone and the node, as
 * page->flags packs them on x86_64 (fields from the top down).
 */
enum ppk_pageflags {
	PPK_PG_locked,
	PPK_PG_referenced,
	PPK_PG_uptodate,
	PPK_PG_dirty,
	PPK_PG_lru,
	PPK_PG_active,
	PPK_PG_workingset,
	PPK_PG_waiters,
	PPK_PG_error,
	PPK_PG_slab,
	PPK_PG_owner_priv_1,
	PPK_PG_arch_1,
	PPK_PG_reserved,
	PPK_PG_private,
	PPK_PG_private_2,
	PPK_PG_writeback,
	PPK_PG_head,
	PPK_PG_mappedtodisk,
	PPK_PG_reclaim,
	PPK_PG_swapbacked,
	PPK_PG_unevictable,
	PPK_PG_mlocked,
	PPK_PG_hwpoison,
	PPK_NR_PAGEFLAGS
};

#define PPK_PG(bit)		(1ULL << PPK_PG_##bit)
#define PPK_LAST_CPUPID_SHIFT	32
#define PPK_LAST_CPUPID_WIDTH	21
#define PPK_LAST_CPUPID_MASK	((1ULL << PPK_LAST_CPUPID_WIDTH) - 1)
#define PPK_ZONES_PGSHIFT	58
#define PPK_ZONES_MASK		0x3ULL
#define PPK_NODES_PGSHIFT	60
#define PPK_NODES_MASK		0xfULL

/* Flags a page may not have when it is freed or handed out. */
#define PPK_PAGE_FLAGS_CHECK_AT_FREE					\
	(PPK_PG(lru) | PPK_PG(locked) | PPK_PG(private) |		\
	 PPK_PG(private_2) | PPK_PG(writeback) | PPK_PG(reserved) |	\
	 PPK_PG(slab) | PPK_PG(active) | PPK_PG(unevictable) |		\
	 PPK_PG(mlocked))
#define PPK_PAGE_FLAGS_CHECK_AT_PREP					\
	(((1ULL << PPK_NR_PAGEFLAGS) - 1) & ~PPK_PG(hwpoison))

/* page->mapping's low bits: PAGE_MAPPING_ANON | PAGE_MAPPING_MOVABLE. */
#define PPK_PAGE_MAPPING_FLAGS	0x3UL
/* memcg_data's bit for a kernel-memory charge (MEMCG_DATA_KMEM). */
#define PPK_MEMCG_DATA_KMEM	0x2u

/*
 * SPARSEMEM: sections of 2^15 pages (SECTION_SIZE_BITS 27, 128 MiB), 256
 * sections per root (4096 / sizeof(struct mem_section)); pageblocks of
 * 2^9 pages (pageblock_order: 2 MiB), 4 bits each in the section's
 * usemap (NR_PAGEBLOCK_BITS), the migratetype in the low 3.
 */
#define PPK_PFN_SECTION_SHIFT	15
#define PPK_PAGES_PER_SECTION	(1UL << PPK_PFN_SECTION_SHIFT)
#define PPK_SECTIONS_PER_ROOT	256UL
#define PPK_PAGEBLOCK_ORDER	9
#define PPK_NR_PAGEBLOCK_BITS	4
#define PPK_MIGRATETYPE_MASK	0x7UL
#define PPK_USEMAP_LONGS						\
	((PPK_PAGES_PER_SECTION >> PPK_PAGEBLOCK_ORDER) *		\
	 PPK_NR_PAGEBLOCK_BITS / (8 * sizeof(unsigned long)))

struct ppk_mem_section_usage {
	unsigned long subsection_map;
	unsigned long pageblock_flags[PPK_USEMAP_LONGS];
};

struct ppk_mem_section {
	unsigned long section_mem_map;
	struct ppk_mem_section_usage *usage;
};

/*
 * One pcp list, threaded through the pages' lru.  @word packs the count
 * and the first page's pfn, (count << 32) | pfn, so that one store
 * commits a change at the head (an rseq section's commit); @tail is the
 * last page.  Both are read only while count > 0.  See kernel_rseq.h for
 * which lru links are kept exact.
 */
struct ppk_list {
	uint64_t word;
	struct pp_page *tail;
} __attribute__((aligned(16)));

static inline unsigned int ppk_word_count(uint64_t word)
{
	return (uint32_t)(word >> 32);
}

static inline unsigned long ppk_word_pfn(uint64_t word)
{
	return (uint32_t)word;
}

static inline uint64_t ppk_word(unsigned int count, unsigned long pfn)
{
	return (uint64_t)count << 32 | (uint32_t)pfn;
}

/*
 * The kernel profile's part of one CPU's pageset of a zone (struct
 * per_cpu_pageset in 5.13): the pcp lists, one per migratetype, and the
 * per-CPU differentials of the zone's counters.
 */
struct ppk_pcp {
	struct ppk_list lists[PPK_MIGRATE_PCPTYPES];
	int8_t stat_threshold;
	int8_t vm_stat_diff[PPK_NR_ZONE_STATS];
	uint16_t vm_numa_stat_diff[PPK_NR_NUMA_DIFFS];
};

/*
 * The kernel profile's part of a zone, kept with the rest of its state in
 * struct ppk_pool (ppk_zone()), so that a lean pool does not carry it.
 */
struct ppk_zone {
	unsigned long lowmem_reserve[PPK_MAX_NR_ZONES];
	unsigned long nr_reserved_highatomic;
	unsigned long watermark_boost;
	unsigned long flags;		/* ZONE_BOOSTED_WATERMARK: bit 0 */
	atomic_long vm_stat[PPK_NR_ZONE_STATS];
	atomic_long vm_numa_stat[PPK_NR_NUMA_DIFFS];
};

/* A zonelist entry (struct zoneref); a NULL zone ends the list. */
struct ppk_zoneref {
	struct pp_zone *zone;
	int zone_idx;
};

/* ZONELIST_FALLBACK (every node, nearest first), ZONELIST_NOFALLBACK. */
#define PPK_ZONELIST_FALLBACK	0
#define PPK_ZONELIST_NOFALLBACK	1
#define PPK_MAX_ZONELISTS	2

struct ppk_zonelist {
	struct ppk_zoneref zonerefs[PP_MAX_NODES + 1];
};

/* The kernel profile's part of a pool: what the kernel keeps globally. */
struct ppk_pool {
	struct ppk_zone zones[PP_MAX_NODES];
	struct ppk_zonelist node_zonelists[PP_MAX_NODES][PPK_MAX_ZONELISTS];
	struct ppk_mem_section **mem_section;	/* roots */
	unsigned long nr_section_roots;
	atomic_long vm_zone_stat[PPK_NR_ZONE_STATS];
	atomic_long vm_numa_stat[PPK_NR_NUMA_DIFFS];
};

/*
 * local_irq_save() / local_irq_restore(): user space cannot turn
 * interrupts off (cli and sti fault at CPL 3, and popf leaves IF alone),
 * but the save and the restore of the flags register run there: on
 * x86_64 pushf/pop and push/popf, popf being the costly half, as in the
 * kernel's restore; on aarch64 the condition flags (nzcv), the register
 * user space may read and write; elsewhere a thread-local word stands in.
 * What keeps other threads of the CPU away is the rseq section or the
 * pcp lock.  The stack pointer steps over the red zone first: the
 * compiler may keep data below it, which a push would overwrite.
 */
#if !defined(__x86_64__) && !defined(__aarch64__)
extern _Thread_local unsigned long ppk_irq_flags;
#endif

static inline unsigned long ppk_local_irq_save(void)
{
	unsigned long flags;

#if defined(__x86_64__)
	__asm__ __volatile__("leaq -128(%%rsp), %%rsp\n\t"
			     "pushfq\n\t"
			     "popq %0\n\t"
			     "leaq 128(%%rsp), %%rsp"
			     : "=r" (flags) : : "memory");
#elif defined(__aarch64__)
	__asm__ __volatile__("mrs %0, nzcv" : "=r" (flags) : : "memory");
#else
	flags = __atomic_load_n(&ppk_irq_flags, __ATOMIC_RELAXED);
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
#endif
	return flags;
}

static inline void ppk_local_irq_restore(unsigned long flags)
{
#if defined(__x86_64__)
	__asm__ __volatile__("leaq -128(%%rsp), %%rsp\n\t"
			     "pushq %0\n\t"
			     "popfq\n\t"
			     "leaq 128(%%rsp), %%rsp"
			     : : "r" (flags) : "memory", "cc");
#elif defined(__aarch64__)
	__asm__ __volatile__("msr nzcv, %0" : : "r" (flags) : "memory", "cc");
#else
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	__atomic_store_n(&ppk_irq_flags, flags, __ATOMIC_RELAXED);
#endif
}

#endif /* PP_ALLOC_KERNEL_H */
