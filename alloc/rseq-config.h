/* SPDX-License-Identifier: MIT */
/*
 * Whether this build has the rseq pcp lists (PP_RSEQ_PCP): the answer is
 * <pagepool/internal/rseq-config.h>'s, which pagebench reads too; this
 * is the name alloc/pool.h includes it by.
 */
#ifndef PP_ALLOC_RSEQ_CONFIG_H
#define PP_ALLOC_RSEQ_CONFIG_H

#include <pagepool/internal/rseq-config.h>

#endif /* PP_ALLOC_RSEQ_CONFIG_H */
