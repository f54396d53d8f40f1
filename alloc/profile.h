/* SPDX-License-Identifier: MIT */
/*
 * The kernel profile's entry points, as the lean paths hand a kernel
 * pool over to them (kernel.h has the map of kernel*.c).
 */
#ifndef PP_ALLOC_PROFILE_H
#define PP_ALLOC_PROFILE_H

#include "pcp.h"

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

#endif /* PP_ALLOC_PROFILE_H */
