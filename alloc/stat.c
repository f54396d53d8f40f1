/* SPDX-License-Identifier: MIT */
/* Counters: per-CPU event counts summed on read, and the zone's state. */
#include "internal.h"

#include <inttypes.h>
#include <string.h>

static const char *const pp_vm_event_names[PP_NR_VM_EVENTS] = {
	[PP_PGALLOC]			= "pgalloc",
	[PP_PGFREE]			= "pgfree",
	[PP_ALLOC_SINGLE_CALLS]		= "alloc_single_calls",
	[PP_ALLOC_BULK_LIST_CALLS]	= "alloc_bulk_list_calls",
	[PP_ALLOC_BULK_ARRAY_CALLS]	= "alloc_bulk_array_calls",
	[PP_BULK_FALLBACK_ONE_PAGE]	= "bulk_fallback_one_page",
	[PP_BULK_FALLBACK_WATERMARK]	= "bulk_fallback_watermark",
	[PP_BULK_FALLBACK_TRYLOCK]	= "bulk_fallback_trylock",
	[PP_BULK_FALLBACK_EMPTY]	= "bulk_fallback_empty",
	[PP_BULK_PARTIAL]		= "bulk_partial",
	[PP_PCP_REFILL]			= "pcp_refill",
	[PP_PCP_REFILL_PAGES]		= "pcp_refill_pages",
	[PP_PCP_DRAIN]			= "pcp_drain",
	[PP_PCP_DRAIN_PAGES]		= "pcp_drain_pages",
	[PP_PCP_TRYLOCK_FAIL]		= "pcp_trylock_fail",
	[PP_ZONE_LOCK]			= "zone_lock",
	[PP_ALLOC_SLOWPATH]		= "alloc_slowpath",
	[PP_DRAIN_ALL]			= "drain_all",
	[PP_ALLOC_FAIL]			= "alloc_fail",
	[PP_BACKEND_GROW]		= "backend_grow",
	[PP_BACKEND_GROW_PAGES]		= "backend_grow_pages",
	[PP_BACKEND_SHRINK]		= "backend_shrink",
	[PP_BACKEND_SHRINK_PAGES]	= "backend_shrink_pages",
	[PP_PCP_RESTART_ALLOC]		= "pcp_restart_alloc",
	[PP_PCP_RESTART_FREE]		= "pcp_restart_free",
	[PP_PCP_RESTART_BULK_ALLOC]	= "pcp_restart_bulk_alloc",
	[PP_PCP_RESTART_BULK_FREE]	= "pcp_restart_bulk_free",
	[PP_PCP_RESTART_DRAIN]		= "pcp_restart_drain",
	[PP_PCP_RESTART_COUNT]		= "pcp_restart_count",
};

const char *pp_vm_event_name(enum pp_vm_event item)
{
	return pp_table_name(pp_vm_event_names, PP_NR_VM_EVENTS, item);
}

void pp_pool_vmstat(struct pp_pool *pool, struct pp_vmstat *st)
{
	const struct pp_zone *z0 = &pool->zones[0];

	memset(st, 0, sizeof(*st));
	for (unsigned int nid = 0; nid < pool->nr_nodes; nid++) {
		struct pp_zone *zone = &pool->zones[nid];

		for (unsigned int cpu = 0; cpu < pool->nr_cpus; cpu++) {
			const struct pp_pcp *pcp = &zone->pcp[cpu];
			uint64_t single = atomic_load_explicit(
				&pcp->single_pages, memory_order_relaxed);

			for (unsigned int i = 0; i < PP_NR_VM_EVENTS; i++)
				st->events[i] += atomic_load_explicit(
						&pcp->events[i],
						memory_order_relaxed) +
					atomic_load_explicit(
						&pcp->events_unlocked[i],
						memory_order_relaxed);
			st->events[PP_PGALLOC] += single;
			st->events[PP_ALLOC_SINGLE_CALLS] += single;
		}
		/* Several nodes: the pool's are the zones' summed. */
		st->wmark_min += zone->wmark[PP_WMARK_MIN];
		st->wmark_low += zone->wmark[PP_WMARK_LOW];
		st->wmark_high += zone->wmark[PP_WMARK_HIGH];
		pp_zone_lock(zone);
		st->nr_free += pp_zone_free(zone);
		for (unsigned int o = 0; o < PP_NR_ORDERS; o++)
			st->free_area[o] += zone->free_area[o].nr_free;
		pp_zone_unlock(zone);
	}
	st->nr_pages = pool->nr_pages;
	st->nr_pcp = pp_pcp_pages(pool);
	st->nr_backend = pp_backend_nr_held(pool, st->events[PP_PGALLOC] -
					    st->events[PP_PGFREE]);
	st->backend = (enum pp_backend)pool->backend_id;
	st->bulk_variant = pp_pool_bulk_variant(pool);
	st->pcp_impl = pp_pool_pcp_impl(pool);
	st->profile = pp_pool_profile(pool);
	st->nr_free_folded = st->nr_free;
	if (pool->kernel) {
		st->nr_free_folded = 0;
		for (unsigned int nid = 0; nid < pool->nr_nodes; nid++)
			st->nr_free_folded +=
				ppk_zone_free_folded(pool, &pool->zones[nid]);
	}
	st->pcp_batch = z0->pcp[0].batch;
	st->pcp_high = z0->pcp[0].high;
	st->nr_cpus = pool->nr_cpus;
}

void pp_vmstat_print(FILE *out, const struct pp_vmstat *st)
{
	fprintf(out, "backend %s\nbulk_variant %s\npcp_impl %s\nprofile %s\n",
		pp_backend_name(st->backend),
		pp_bulk_variant_name(st->bulk_variant),
		pp_pcp_impl_name(st->pcp_impl), pp_profile_name(st->profile));
	fprintf(out, "nr_pages %lu\nnr_free_pages %lu\nnr_pcp_pages %lu\n"
		"nr_backend_pages %lu\nnr_free_pages_folded %lu\n",
		st->nr_pages, st->nr_free, st->nr_pcp, st->nr_backend,
		st->nr_free_folded);
	fprintf(out, "free_area");
	for (unsigned int o = 0; o < PP_NR_ORDERS; o++)
		fprintf(out, " %lu", st->free_area[o]);
	fprintf(out, "\nwmark_min %lu\nwmark_low %lu\nwmark_high %lu\n",
		st->wmark_min, st->wmark_low, st->wmark_high);
	fprintf(out, "pcp_batch %u\npcp_high %u\nnr_cpus %u\n",
		st->pcp_batch, st->pcp_high, st->nr_cpus);
	for (unsigned int i = 0; i < PP_NR_VM_EVENTS; i++)
		fprintf(out, "%s %" PRIu64 "\n", pp_vm_event_names[i],
			st->events[i]);
}

static const char *const pp_numa_stat_names[PP_NR_NUMA_STATS] = {
	[PP_NUMA_HIT]			= "numa_hit",
	[PP_NUMA_MISS]			= "numa_miss",
	[PP_NUMA_FOREIGN]		= "numa_foreign",
	[PP_NUMA_LOCAL]			= "numa_local",
	[PP_NUMA_OTHER]			= "numa_other",
	[PP_NUMA_BULK_FALLBACK_REMOTE]	= "bulk_fallback_remote",
};

const char *pp_numa_stat_name(enum pp_numa_stat item)
{
	return pp_table_name(pp_numa_stat_names, PP_NR_NUMA_STATS, item);
}

int pp_pool_node_vmstat(struct pp_pool *pool, unsigned int nid,
			struct pp_node_vmstat *st)
{
	struct pp_zone *zone;

	if (nid >= pool->nr_nodes)
		return -EINVAL;
	zone = &pool->zones[nid];
	memset(st, 0, sizeof(*st));
	if (pool->kernel) {
		/* zone_statistics() counted them, on one node too. */
		ppk_node_numa(pool, zone, st->numa);
	} else if (pool->nr_nodes == 1) {
		/* Not counted on one node: every page is a local hit. */
		struct pp_vmstat all;

		pp_pool_vmstat(pool, &all);
		st->numa[PP_NUMA_HIT] = all.events[PP_PGALLOC];
		st->numa[PP_NUMA_LOCAL] = all.events[PP_PGALLOC];
	} else {
		for (unsigned int cpu = 0; cpu < pool->nr_cpus; cpu++)
			for (unsigned int i = 0; i < PP_NR_NUMA_STATS; i++)
				st->numa[i] += atomic_load_explicit(
						&zone->numa[cpu].ev[i],
						memory_order_relaxed);
	}
	st->start_pfn = zone->start_pfn;
	st->nr_pages = zone->nr_pages;
	pp_zone_lock(zone);
	st->nr_free = pp_zone_free(zone);
	pp_zone_unlock(zone);
	st->nr_pcp = pp_zone_pcp_pages(pool, zone);
	st->wmark_min = zone->wmark[PP_WMARK_MIN];
	st->wmark_low = zone->wmark[PP_WMARK_LOW];
	st->wmark_high = zone->wmark[PP_WMARK_HIGH];
	return 0;
}

void pp_node_vmstat_print(FILE *out, const struct pp_node_vmstat *st,
			  unsigned int nr)
{
	for (unsigned int nid = 0; nid < nr; nid++) {
		const struct pp_node_vmstat *n = &st[nid];

		fprintf(out, "node %u\n  start_pfn %lu\n  nr_pages %lu\n"
			"  nr_free_pages %lu\n  nr_pcp_pages %lu\n"
			"  wmark_min %lu\n  wmark_low %lu\n  wmark_high %lu\n",
			nid, n->start_pfn, n->nr_pages, n->nr_free, n->nr_pcp,
			n->wmark_min, n->wmark_low, n->wmark_high);
		for (unsigned int i = 0; i < PP_NR_NUMA_STATS; i++)
			fprintf(out, "  %s %" PRIu64 "\n",
				pp_numa_stat_names[i], n->numa[i]);
	}
}

const char *pp_version(void)
{
	return PACKAGE_VERSION;
}
