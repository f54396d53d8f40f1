/* SPDX-License-Identifier: MIT */
/*
 * Fatal reports of the library (debug.c): internal failures, bad pages,
 * bad calls and pointers, and the debug poison of freed pages.
 */
#ifndef PP_ALLOC_DEBUG_H
#define PP_ALLOC_DEBUG_H

#include "pool.h"

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

/*
 * A put that found @page's refcount at @old (0: free; below: corrupt):
 * a tail page of an allocated block is named as such, with its head.
 */
__attribute__((noreturn, cold))
void pp_bad_put(const struct pp_pool *pool, const struct pp_page *page,
		const char *call, int old);

__attribute__((noreturn, cold))
void pp_bad_pointer(const struct pp_pool *pool, const void *page,
		    const char *call);

/*
 * CONFIG_DEBUG_LIST's __list_add_valid() and __list_del_entry_valid()
 * (list_debug.c): a broken link is reported and aborts.  Exported as
 * pp_list_add_check() and pp_list_del_check(); the library calls these
 * names, bound inside it, as the kernel calls its own.
 */
__attribute__((visibility("hidden")))
void ppk_list_add_valid(const struct pp_list_head *entry,
			const struct pp_list_head *prev,
			const struct pp_list_head *next);
__attribute__((visibility("hidden")))
void ppk_list_del_entry_valid(const struct pp_list_head *entry);

void pp_poison_pages(struct pp_pool *pool, struct pp_page *page,
		     unsigned int order);
void pp_check_poison(const struct pp_pool *pool, struct pp_page *page,
		     unsigned int order, const char *call);

const char *pp_page_state_name(unsigned int state);
/* The enum <-> name tables' lookups (pool.c). */
const char *pp_table_name(const char *const *names, unsigned int n,
			  unsigned int i);
int pp_table_index(const char *const *names, unsigned int n, const char *name);

/*
 * The two exported lookups of an enumeration's name table @names of @n
 * entries, defined once for every table: PP_NAME_LOOKUPS(pp_backend, ...)
 * defines
 *	const char *pp_backend_name(enum pp_backend v)	(pp_table_name())
 *	int pp_backend_from_name(const char *name)	(pp_table_index())
 */
#define PP_NAME_LOOKUPS(prefix, type, names, n)				\
	const char *prefix##_name(type v)				\
	{								\
		return pp_table_name(names, n, v);			\
	}								\
	int prefix##_from_name(const char *name)			\
	{								\
		return pp_table_index(names, n, name);			\
	}

#endif /* PP_ALLOC_DEBUG_H */
