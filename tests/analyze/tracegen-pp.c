/* SPDX-License-Identifier: MIT */
/*
 * tracegen's definition of the "pagepool" tracepoints (libpagepool defines
 * them with dynamic linkage; tracegen links the probes statically, from
 * tracepoints/pagepool_tp.c).  The "rpcsim" ones come with
 * tracepoints/rpcsim_tp.c, which defines and probes them.
 */
#define LTTNG_UST_TRACEPOINT_DEFINE
#include "pagepool_tp.h"
