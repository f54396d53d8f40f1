/* SPDX-License-Identifier: MIT */
/*
 * libpagepool's internal headers, one per part, all of them:
 *
 *   pool.h         the pool, zones, pcp lists as structures; the lock order
 *   debug.h        fatal reports, the debug poison
 *   pcp.h          the locks, the lean profile's pcp ring, this CPU
 *   stat.h         counters
 *   rseq_pcp.h     the rseq lists' C side (rseq.h has the sections)
 *   zone.h         pfns, page state, KASAN poison, the buddy lists
 *   page.h         what the allocation and free paths share about a page
 *   backend_ops.h  backends other than buddy
 *   profile.h      the kernel profile's entry points (kernel*.c)
 *
 * Each includes what it needs; a file of the library includes this one.
 */
#ifndef PP_ALLOC_INTERNAL_H
#define PP_ALLOC_INTERNAL_H

#include "pool.h"
#include "debug.h"
#include "pcp.h"
#include "stat.h"
#include "rseq_pcp.h"
#include "zone.h"
#include "page.h"
#include "backend_ops.h"
#include "profile.h"

#endif /* PP_ALLOC_INTERNAL_H */
