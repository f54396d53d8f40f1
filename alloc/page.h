/* SPDX-License-Identifier: MIT */
/*
 * What the allocation and free paths share about a page: is it the
 * pool's, dropping a reference, prep_new_page(), the runs of holes of an
 * array, the single-page fallback of a bulk call.
 */
#ifndef PP_ALLOC_PAGE_H
#define PP_ALLOC_PAGE_H

#include "stat.h"
#include "zone.h"

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

#endif /* PP_ALLOC_PAGE_H */
