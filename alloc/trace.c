/* SPDX-License-Identifier: MIT */
/*
 * Defines the "pagepool" tracepoints with dynamic linkage: libpagepool does
 * not depend on liblttng-ust; the probes come with libpagepool-tp.so.
 */
#define LTTNG_UST_TRACEPOINT_DEFINE
#define LTTNG_UST_TRACEPOINT_PROBE_DYNAMIC_LINKAGE
#include "pagepool_tp.h"
