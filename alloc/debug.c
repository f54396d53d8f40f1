/* SPDX-License-Identifier: MIT */
/*
 * Debug checks and fatal reports: page poisoning, the bad-page report, and
 * the die-on-internal-error helper.
 */
#include "internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * The end of both fatal reports, after their "pagepool: ..." prefix: the
 * message, a newline, and abort().  stderr is flushed first, in case the
 * program made it buffered.
 */
__attribute__((noreturn, format(printf, 1, 0)))
static void pp_vabort(const char *fmt, va_list ap)
{
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	fflush(stderr);
	abort();
}

void pp_die_at(const char *file, const char *func, int line,
	       const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "pagepool: %s:%s@%d: ", file, func, line);
	va_start(ap, fmt);
	pp_vabort(fmt, ap);
}

void pp_bad_call(const char *call, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "pagepool: BUG: %s: ", call);
	va_start(ap, fmt);
	pp_vabort(fmt, ap);
}

const char *pp_page_state_name(unsigned int state)
{
	switch (state) {
	case PP_PAGE_NONE:
		return "none";
	case PP_PAGE_BUDDY:
		return "buddy";
	case PP_PAGE_PCP:
		return "pcp";
	case PP_PAGE_INUSE:
		return "in-use";
	case PP_PAGE_BACKEND:
		return "backend";
	default:
		return "corrupt";
	}
}

/* The bad_page() report: what the page looks like, who found it, why. */
void pp_bad_page(const struct pp_pool *pool, const struct pp_page *page,
		 const char *call, const char *reason)
{
	fprintf(stderr,
		"pagepool: BUG: Bad page state in %s: pfn 0x%lx refcount %d "
		"order %u state %s flags 0x%x\n"
		"pagepool: bad because: %s\n",
		call, (unsigned long)(page - pool->mem_map),
		__atomic_load_n(&page->refcount, __ATOMIC_RELAXED),
		page->order, pp_page_state_name(pp_page_state(page)),
		page->flags, reason);
	fflush(stderr);
	abort();
}

/*
 * The head pfn of the allocated block of order 1 or more that @page is a
 * tail page of, or -1.  A block is aligned to its order, so its head is
 * @page's pfn with the order's low bits cleared.
 */
static long pp_tail_head(const struct pp_pool *pool,
			 const struct pp_page *page, unsigned int *order)
{
	unsigned long pfn = (unsigned long)(page - pool->mem_map);

	for (unsigned int o = 1; o <= PP_MAX_ORDER; o++) {
		unsigned long head = pfn & ~((1UL << o) - 1);
		const struct pp_page *hp = &pool->mem_map[head];

		if (head == pfn || head + (1UL << o) > pool->nr_pages)
			continue;
		if (pp_page_state(hp) == PP_PAGE_INUSE && hp->order == o &&
		    __atomic_load_n(&hp->refcount, __ATOMIC_RELAXED) > 0) {
			*order = o;
			return (long)head;
		}
	}
	return -1;
}

void pp_bad_put(const struct pp_pool *pool, const struct pp_page *page,
		const char *call, int old)
{
	char reason[192];
	unsigned int order;
	long head;

	if (old < 0)
		pp_bad_page(pool, page, call, "refcount negative: corrupted, "
			    "or overflowed by 2^31 references");
	head = pp_tail_head(pool, page, &order);
	if (head < 0)
		pp_bad_page(pool, page, call, "refcount underflow: put of a "
			    "free page (double free?)");
	snprintf(reason, sizeof(reason), "put of a tail page of a compound "
		 "page: pfn 0x%lx is page %lu of the order-%u block at head "
		 "pfn 0x%lx (references are the head's: put the head)",
		 (unsigned long)(page - pool->mem_map),
		 (unsigned long)(page - pool->mem_map) - (unsigned long)head,
		 order, (unsigned long)head);
	pp_bad_page(pool, page, call, reason);
}

/*
 * A pointer that is not one of @pool's descriptors: say which of the
 * likely mistakes it looks like, from where it points.
 */
void pp_bad_pointer(const struct pp_pool *pool, const void *page,
		    const char *call)
{
	uintptr_t off = (uintptr_t)page - (uintptr_t)pool->mem_map;

	if (off < pool->map_bytes)
		fprintf(stderr,
			"pagepool: BUG: %s: %p is not a page descriptor of "
			"pool %p: it points %lu bytes into the descriptor of "
			"pfn 0x%lx (descriptors %p..%p)\n",
			call, page, (const void *)pool,
			(unsigned long)(off % sizeof(struct pp_page)),
			(unsigned long)(off / sizeof(struct pp_page)),
			(const void *)pool->mem_map,
			(const void *)(pool->mem_map + pool->nr_pages));
	else
		fprintf(stderr,
			"pagepool: BUG: %s: %p is not a page descriptor of "
			"pool %p (descriptors %p..%p): a page of another "
			"pool, or not a page at all\n",
			call, page, (const void *)pool,
			(const void *)pool->mem_map,
			(const void *)(pool->mem_map + pool->nr_pages));
	fflush(stderr);
	abort();
}

void pp_poison_pages(struct pp_pool *pool, struct pp_page *page,
		     unsigned int order)
{
	memset(pool->arena + ((unsigned long)(page - pool->mem_map)
			      << PP_PAGE_SHIFT),
	       PP_POISON_BYTE, PP_PAGE_SIZE << order);
	for (unsigned long i = 0; i < (1UL << order); i++)
		page[i].flags |= PP_PG_POISONED;
}

/*
 * Verify the poison of pages freed in debug mode.  A byte that changed
 * means someone wrote to the page after freeing it.
 */
void pp_check_poison(const struct pp_pool *pool, struct pp_page *page,
		     unsigned int order, const char *call)
{
	for (unsigned long i = 0; i < (1UL << order); i++) {
		const unsigned char *p;
		char reason[128];

		if (!(page[i].flags & PP_PG_POISONED))
			continue;
		page[i].flags &= (uint16_t)~PP_PG_POISONED;
		p = (const unsigned char *)pool->arena +
		    ((unsigned long)(page + i - pool->mem_map)
		     << PP_PAGE_SHIFT);
		for (unsigned long off = 0; off < PP_PAGE_SIZE; off++) {
			if (p[off] == PP_POISON_BYTE)
				continue;
			snprintf(reason, sizeof(reason),
				 "poison overwritten at offset 0x%lx "
				 "(0x%02x, expected 0x%02x): use after free",
				 off, p[off], PP_POISON_BYTE);
			pp_bad_page(pool, page + i, call, reason);
		}
	}
}
