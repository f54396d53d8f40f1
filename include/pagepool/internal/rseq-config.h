/* SPDX-License-Identifier: MIT */
/*
 * Whether this build has the rseq pcp lists (PP_RSEQ_PCP): x86_64 (the
 * sections are written in its assembly), a glibc that registers rseq
 * (2.35+, <sys/rseq.h> with __rseq_offset), and not ThreadSanitizer,
 * which cannot see the stores made in assembly and would report every
 * list access as a race.
 *
 * Internal, not installed: the build's answer for libpagepool
 * (alloc/pool.h, through alloc/rseq-config.h) and for pagebench's
 * per-CPU floor, which runs the same sections
 * (<pagepool/internal/rseq.h>).
 */
#ifndef PP_INTERNAL_RSEQ_CONFIG_H
#define PP_INTERNAL_RSEQ_CONFIG_H

#include <config.h>

#if defined(__has_include)
#if __has_include(<sys/rseq.h>)
#include <sys/rseq.h>
#define PP_HAVE_RSEQ	1
#endif
#endif

#if defined(__x86_64__) && defined(PP_HAVE_RSEQ) && !defined(PP_CONFIG_TSAN)
#define PP_RSEQ_PCP	1
#endif

#endif /* PP_INTERNAL_RSEQ_CONFIG_H */
