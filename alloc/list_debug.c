/* SPDX-License-Identifier: MIT */
/*
 * CONFIG_DEBUG_LIST: the checks a kernel built with it runs on every
 * list_add() and list_del(), out of line as lib/list_debug.c's
 * __list_add_valid() and __list_del_entry_valid() are.  Each loads the
 * neighbours of the entry and compares their links with it; a broken
 * link is a corruption, reported on one line by pp_bad_call(), which
 * aborts (the kernel warns or, with CONFIG_BUG_ON_DATA_CORRUPTION, BUGs).
 *
 * The kernel profile runs them where pool->debug_list says so (struct
 * pp_pool_config's @debug_list), on the lists it keeps as the kernel
 * does: the buddy free lists, a bulk call's list, release_pages()'s,
 * free_pcppages_bulk()'s.  Its pcp lists are not list_heads (kernel_rseq.h
 * says why): ppk_pcp_list_del_check() and ppk_pcp_list_add_check() check
 * the links those lists keep exact, which the callers pass, and the
 * poison of an entry deleted before.
 */
#include "internal.h"
#include "kernel_pcp.h"

/* __list_add_valid(): @entry goes between @prev and @next. */
void ppk_list_add_valid(const struct pp_list_head *entry,
			const struct pp_list_head *prev,
			const struct pp_list_head *next)
{
	if (unlikely(next->prev != prev))
		pp_bad_call("list_add corruption",
			    "adding %p between %p and %p, whose prev is %p",
			    (const void *)entry, (const void *)prev,
			    (const void *)next, (const void *)next->prev);
	if (unlikely(prev->next != next))
		pp_bad_call("list_add corruption",
			    "adding %p between %p and %p, whose next is %p",
			    (const void *)entry, (const void *)prev,
			    (const void *)next, (const void *)prev->next);
	if (unlikely(entry == prev || entry == next))
		pp_bad_call("list_add corruption",
			    "%p added next to itself (added twice)",
			    (const void *)entry);
}

/* The poison list_del() leaves in an entry, which no list holds. */
static inline void pp_list_poison_check(const struct pp_list_head *entry)
{
	if (unlikely(entry->next == PPK_LIST_POISON1))
		pp_bad_call("list_del corruption",
			    "%p: next is LIST_POISON1 (deleted before)",
			    (const void *)entry);
	if (unlikely(entry->prev == PPK_LIST_POISON2))
		pp_bad_call("list_del corruption",
			    "%p: prev is LIST_POISON2 (deleted before)",
			    (const void *)entry);
}

/* __list_del_entry_valid(): @entry leaves the list it is on. */
void ppk_list_del_entry_valid(const struct pp_list_head *entry)
{
	const struct pp_list_head *prev = entry->prev, *next = entry->next;

	pp_list_poison_check(entry);
	if (unlikely(prev->next != entry))
		pp_bad_call("list_del corruption",
			    "%p: its prev %p has next %p", (const void *)entry,
			    (const void *)prev, (const void *)prev->next);
	if (unlikely(next->prev != entry))
		pp_bad_call("list_del corruption",
			    "%p: its next %p has prev %p", (const void *)entry,
			    (const void *)next, (const void *)next->prev);
}

/* The exported names (pagepool.h); the library calls the hidden ones. */
void pp_list_add_check(const struct pp_list_head *entry,
		       const struct pp_list_head *prev,
		       const struct pp_list_head *next)
	__attribute__((alias("ppk_list_add_valid")));
void pp_list_del_check(const struct pp_list_head *entry)
	__attribute__((alias("ppk_list_del_entry_valid")));

void ppk_pcp_list_del_check(const struct pp_page *page,
			    const struct pp_page *prev,
			    const struct pp_page *next)
{
	pp_list_poison_check(&page->lru);
	if (prev && unlikely(prev->lru.next != &page->lru ||
			     page->lru.prev != &prev->lru))
		pp_bad_call("list_del corruption",
			    "pcp page %p: its prev %p has next %p",
			    (const void *)page, (const void *)page->lru.prev,
			    (const void *)prev->lru.next);
	if (next && unlikely(next->lru.prev != &page->lru ||
			     page->lru.next != &next->lru))
		pp_bad_call("list_del corruption",
			    "pcp page %p: its next %p has prev %p",
			    (const void *)page, (const void *)page->lru.next,
			    (const void *)next->lru.prev);
}

void ppk_pcp_list_add_check(const struct pp_page *page,
			    const struct pp_page *next)
{
	if (unlikely(page == next))
		pp_bad_call("list_add corruption",
			    "pcp page %p added next to itself (added twice)",
			    (const void *)page);
	if (unlikely(next->lru.next == PPK_LIST_POISON1 ||
		     next->lru.prev == PPK_LIST_POISON2))
		pp_bad_call("list_add corruption",
			    "pcp page %p added before %p, which is on no list "
			    "(poisoned)", (const void *)page, (const void *)next);
}
