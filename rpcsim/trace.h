/* SPDX-License-Identifier: MIT */
/*
 * rpcsim's tracepoints (providers "rpcsim", tracepoints/rpcsim_tp.h, and
 * "page_pool", tracepoints/page_pool_tp.h), and the USDT probe of the same
 * name and arguments beside each (tracepoints/usdt.h); either is nothing
 * when built without it (--disable-lttng-ust, --disable-usdt).  Disabled,
 * each is one load and one branch.
 */
#ifndef RPCSIM_TRACE_H
#define RPCSIM_TRACE_H

#include <config.h>

#include "rpcsim_tp_types.h"
#include "usdt.h"

/* The providers' USDT semaphores, under each of their events' names. */
PP_USDT_SEMAPHORE(rpcsim)
PP_USDT_SEMAPHORE(page_pool)
#define rpcsim_run_start_semaphore rpcsim_usdt_semaphore
#define rpcsim_run_end_semaphore rpcsim_usdt_semaphore
#define rpcsim_svc_alloc_arg_entry_semaphore rpcsim_usdt_semaphore
#define rpcsim_svc_alloc_arg_exit_semaphore rpcsim_usdt_semaphore
#define rpcsim_svc_alloc_arg_err_semaphore rpcsim_usdt_semaphore
#define rpcsim_request_semaphore rpcsim_usdt_semaphore
#define rpcsim_svc_tcp_recv_short_semaphore rpcsim_usdt_semaphore
#define page_pool_page_pool_state_hold_semaphore page_pool_usdt_semaphore
#define page_pool_page_pool_state_release_semaphore page_pool_usdt_semaphore
#define page_pool_page_pool_release_semaphore page_pool_usdt_semaphore
#define page_pool_page_pool_alloc_slow_semaphore page_pool_usdt_semaphore

#ifdef HAVE_LTTNG_UST
#include "rpcsim_tp.h"
#include "page_pool_tp.h"
#define rpcsim_lttng(provider, name, ...) \
	lttng_ust_tracepoint(provider, name, __VA_ARGS__)
#define rpcsim_lttng_enabled(provider, name) \
	lttng_ust_tracepoint_enabled(provider, name)
#else
/* Arguments stay type-checked and "used"; the call compiles to nothing. */
static inline void rpcsim_trace_nop(int unused, ...)
{
}
#define rpcsim_lttng(provider, name, ...) rpcsim_trace_nop(0, __VA_ARGS__)
#define rpcsim_lttng_enabled(provider, name) 0
#endif

#define rpcsim_trace(name, ...)						\
	do {								\
		rpcsim_lttng(rpcsim, name, __VA_ARGS__);		\
		pp_usdt(rpcsim, name, __VA_ARGS__);			\
	} while (0)
#define page_pool_trace(name, ...)					\
	do {								\
		rpcsim_lttng(page_pool, name, __VA_ARGS__);		\
		pp_usdt(page_pool, name, __VA_ARGS__);			\
	} while (0)
/* Whether a session or a tracer takes @name: the arguments cost only then. */
#define page_pool_trace_enabled(name)					\
	(rpcsim_lttng_enabled(page_pool, name) ||			\
	 pp_usdt_enabled(page_pool))

#endif /* RPCSIM_TRACE_H */
