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
 * A slot of release_pages()'s array: false for NULL (skipped, the lab's
 * contract); a pointer that is no page of the pool is reported.
 */
static inline __attribute__((always_inline))
bool pp_release_slot(const struct pp_pool *pool, const struct pp_page *page)
{
	if (!page)
		return false;
	if (unlikely(!pp_page_in_pool(pool, page)))
		pp_bad_pointer(pool, page, "pp_release_pages");
	return true;
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
		pp_bad_put(pool, page, call, old);
	}
	return old == 1;
}


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

/* How a bulk call goes on from its front (pp_bulk_start()). */
enum pp_bulk_start {
	PP_BULK_START_FILL,	/* pages to take: on to the fill loop */
	PP_BULK_START_DONE,	/* none asked for, or the array is full */
	PP_BULK_START_ONE,	/* one page missing: the single-page path */
};

/*
 * The front of __alloc_pages_bulk(), the same in both profiles: the
 * populated entries of the array are skipped before anything is taken
 * (none with @fill_all: every entry gets a new page), *@nr_populated
 * left at the first hole; a full array is done (5.13.0 returned 0 there,
 * the fix nr_pages); with @single_fallback, one missing page goes to the
 * single-page path, counted and traced as such.
 */
static inline __attribute__((always_inline))
enum pp_bulk_start pp_bulk_start(struct pp_alloc_ctx *ac,
				 unsigned long nr_pages,
				 struct pp_page *const *page_array,
				 bool fill_all, bool single_fallback,
				 unsigned long *nr_populated,
				 enum pp_trace_fallback *fallback)
{
	unsigned long i = 0;

	if (unlikely(nr_pages == 0))
		return PP_BULK_START_DONE;
	while (page_array && !fill_all && i < nr_pages && page_array[i])
		i++;
	*nr_populated = i;
	if (unlikely(page_array && i == nr_pages))
		return PP_BULK_START_DONE;
	if (single_fallback && nr_pages - i == 1) {
		pp_ctx_defer(ac, PP_BULK_FALLBACK_ONE_PAGE);
		*fallback = PP_TRACE_FALLBACK_ONE_PAGE;
		return PP_BULK_START_ONE;
	}
	return PP_BULK_START_FILL;
}

/*
 * One step of a fill loop that takes pages in runs (the rseq list's, the
 * kernel profile's), at entry *@i of @req: how many pages to take, and
 * where (*@dst).  A populated entry of the array is skipped (0), or ends
 * the loop with PP_FILL_STOP (-1, @f->stopped set).  A list, or an array
 * whose every entry gets a page (PP_FILL_ALL: the entries hold the
 * caller's old pages, which a section aborted after writing there would
 * lose), takes up to @chunk pages through @buf; otherwise the pages go
 * straight into the run of holes from *@i.  Always inlined: @flags is a
 * constant in each copy.
 */
static inline __attribute__((always_inline))
long pp_bulk_next_run(const struct pp_bulk_req *req, unsigned long *i,
		      struct pp_bulk_fill *f, struct pp_page **buf,
		      unsigned long chunk, struct pp_page ***dst,
		      const unsigned int flags)
{
	const unsigned long n = req->nr_pages;
	unsigned long want;

	if (flags & (PP_FILL_LIST | PP_FILL_ALL)) {
		want = n - *i;
		*dst = buf;
		return (long)(want > chunk ? chunk : want);
	}

	struct pp_page **const a = req->page_array;
	unsigned long j = *i;

	/* Skip existing pages (v5: stop at the first one). */
	if (a[j]) {
		if (flags & PP_FILL_STOP) {
			*i = j + 1;
			f->stopped = true;
			return -1;
		}
		do
			j++;
		while (j < n && a[j]);
		*i = j;
		return 0;
	}
	*dst = a + j;
	return (long)(pp_hole_run_end(a, j + 1, n) - j);
}

/*
 * The loop of both run-by-run fills (pp_bulk_fill_rseq(), the rseq list;
 * ppk_bulk_fill(), the kernel profile), 5.13 __alloc_pages_bulk()'s: up
 * to @nr_pages, a run at a time (pp_bulk_next_run()), @take pages of the
 * pcp list into dst[0..k) (< 0: the list could not be had), @refill it
 * from the buddy lists when it comes back empty (false: they are dry),
 * then the per-page statement (__VA_ARGS__, with `page' and `j' in scope)
 * on each page taken.  @take sees `dst', `want' and `cpu', which @take
 * sets when it takes pages; @cpu_init is its declaration's initialiser,
 * `= 0' or nothing, as each fill always had it (the two compile
 * differently).  Counts into @nr_populated and @nr_account; makes the
 * enclosing function return false when the first take fails, having
 * taken nothing.  A macro, not an inline function: the two fills take,
 * refill and finish a page with different calls, and the loop must
 * compile to what each wrote out.
 */
#define PP_BULK_FILL_RUNS(req, f, buf, chunk, flags, nr_pages,		\
			  nr_populated, nr_account, cpu_init, take,	\
			  refill, ...)					\
	do {								\
		bool first_ = true;					\
									\
		while ((nr_populated) < (nr_pages)) {			\
			struct pp_page **dst;				\
			unsigned int cpu cpu_init;			\
			long want, k;					\
									\
			want = pp_bulk_next_run(req, &(nr_populated),	\
						f, buf, chunk, &dst,	\
						flags);			\
			if (want <= 0) {				\
				if (want < 0)				\
					break;				\
				continue;				\
			}						\
			k = (take);					\
			if (unlikely(k < 0)) {				\
				if (first_)				\
					return false;			\
				(f)->dry = true;			\
				break;					\
			}						\
			first_ = false;					\
			/* __rmqueue_pcplist(): the list ran out. */	\
			if (unlikely(!k)) {				\
				if (!(refill)) {			\
					(f)->dry = true;		\
					break;				\
				}					\
				continue;				\
			}						\
			for (long j = 0; j < k; j++) {			\
				struct pp_page *page = dst[j];		\
									\
				__VA_ARGS__				\
			}						\
			(nr_populated) += (unsigned long)k;		\
			(nr_account) += (unsigned long)k;		\
		}							\
	} while (0)

/*
 * The end of a bulk call that falls back to one page (one missing page, a
 * failed trylock, a low zone, nothing in the loop): the single-page path
 * (traced as mm_page_alloc, the counters deferred in @ac added), the page
 * stored at @nr_populated or on the list, the mm_page_alloc_bulk event.
 * Returns the bulk call's result.
 */
unsigned long pp_bulk_fallback(struct pp_pool *pool, struct pp_alloc_ctx *ac,
			       const char *call, unsigned long nr_pages,
			       struct pp_list_head *page_list,
			       struct pp_page **page_array,
			       unsigned long nr_populated,
			       enum pp_trace_fallback fallback);

void pp_prep_new_page_checked(struct pp_pool *pool, struct pp_page *page,
			      unsigned int order, pp_gfp_t gfp,
			      const char *call);

#endif /* PP_ALLOC_PAGE_H */
