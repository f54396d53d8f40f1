/* SPDX-License-Identifier: MIT */
/* Probe object of the "pagepool" provider: built into libpagepool-tp.so. */
#define LTTNG_UST_TRACEPOINT_CREATE_PROBES
#include "pagepool_tp.h"
