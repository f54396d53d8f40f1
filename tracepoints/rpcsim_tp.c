/* SPDX-License-Identifier: MIT */
/*
 * Probe object of the "rpcsim" provider and of "page_pool" (rpcsim's
 * page_pool consumer): linked into rpcsim.
 */
#define LTTNG_UST_TRACEPOINT_CREATE_PROBES
#define LTTNG_UST_TRACEPOINT_DEFINE
#include "rpcsim_tp.h"
#include "page_pool_tp.h"
