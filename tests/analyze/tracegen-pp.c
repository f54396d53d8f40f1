/* SPDX-License-Identifier: MIT */
/*
 * tracegen's definition of the "pagepool" tracepoints (libpagepool defines
 * them with dynamic linkage; tracegen links the probes statically, from
 * tracepoints/libpagepool-tp-static).  The "rpcsim" ones come
 * with librpcsim-tp (tracepoints/rpcsim_tp.c), which defines and probes
 * them.
 */
#define LTTNG_UST_TRACEPOINT_DEFINE
#include "pagepool_tp.h"
