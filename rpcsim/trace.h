/* SPDX-License-Identifier: MIT */
/*
 * rpcsim's tracepoints (providers "rpcsim", tracepoints/rpcsim_tp.h, and
 * "page_pool", tracepoints/page_pool_tp.h), or
 * nothing when built with --disable-lttng-ust.  Disabled, each is one load
 * and one branch.
 */
#ifndef RPCSIM_TRACE_H
#define RPCSIM_TRACE_H

#include <config.h>

#include "rpcsim_tp_types.h"

#ifdef HAVE_LTTNG_UST
#include "rpcsim_tp.h"
#include "page_pool_tp.h"
#define rpcsim_trace(name, ...) lttng_ust_tracepoint(rpcsim, name, __VA_ARGS__)
#define page_pool_trace(name, ...) \
	lttng_ust_tracepoint(page_pool, name, __VA_ARGS__)
/* Whether a session records @name: the arguments cost only then. */
#define page_pool_trace_enabled(name) \
	lttng_ust_tracepoint_enabled(page_pool, name)
#else
/* Arguments stay type-checked and "used"; the call compiles to nothing. */
static inline void rpcsim_trace_nop(int unused, ...)
{
}
#define rpcsim_trace(name, ...) rpcsim_trace_nop(0, __VA_ARGS__)
#define page_pool_trace(name, ...) rpcsim_trace_nop(0, __VA_ARGS__)
#define page_pool_trace_enabled(name) 0
#endif

#endif /* RPCSIM_TRACE_H */
