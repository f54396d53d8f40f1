/* SPDX-License-Identifier: MIT */
/* Probe object of the "rpcsim" provider: linked into rpcsim. */
#define LTTNG_UST_TRACEPOINT_CREATE_PROBES
#define LTTNG_UST_TRACEPOINT_DEFINE
#include "rpcsim_tp.h"
