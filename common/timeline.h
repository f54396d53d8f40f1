/* SPDX-License-Identifier: MIT */
/*
 * Latency over time (rpcsim --interval=DUR): per interval of a run, the
 * calls that ended in it, their exact sum, minimum and maximum, and a
 * coarse histogram for the percentiles: hist.h's buckets eight at a time
 * (8 per power of two above 128 ns, so a percentile is the midpoint of a
 * bucket within 1/16 of any value in it), 3.7 KiB per interval.  The
 * buckets are 64-bit like @count: merged over threads and runs, one
 * interval's bucket can pass 2^32 calls (a coarse --interval as long as
 * the run), and a wrapped one would shift every percentile to the max.
 *
 * One timeline per server thread, updated by its owner only between two
 * calls (after the call's end was read: growing it never lands inside a
 * measured call), merged by the main thread after pthread_join().  At
 * most TIMELINE_MAX intervals: the calls of later ones are only counted
 * (@beyond).  Not thread-safe.
 */
#ifndef PP_COMMON_TIMELINE_H
#define PP_COMMON_TIMELINE_H

#include <stdint.h>

#include "hist.h"

#define TIMELINE_SHIFT	3
#define TIMELINE_NR	(HIST_NR >> TIMELINE_SHIFT)
#define TIMELINE_MAX	10000U

struct timeline_slot {
	uint64_t count, sum, min, max;
	uint64_t buckets[TIMELINE_NR];
};

struct timeline {
	uint64_t interval_ns;		/* 0: not recording */
	unsigned int nr;		/* slots in use: the last one's index + 1 */
	unsigned int cap;		/* slots allocated */
	uint64_t beyond;		/* calls after TIMELINE_MAX intervals */
	struct timeline_slot *slot;
};

/* Start empty; @interval_ns 0 records nothing. */
void timeline_init(struct timeline *t, uint64_t interval_ns);
void timeline_free(struct timeline *t);
/* Make room for slot @idx (zeroed); false past TIMELINE_MAX. */
int timeline_grow(struct timeline *t, unsigned int idx);

/* A call of latency @v (ns) that ended @at_ns after the run's start. */
static inline void timeline_add(struct timeline *t, uint64_t at_ns,
				uint64_t v)
{
	struct timeline_slot *s;
	uint64_t idx;

	if (!t->interval_ns)
		return;
	idx = at_ns / t->interval_ns;
	if (idx >= TIMELINE_MAX || (idx >= t->cap &&
				    !timeline_grow(t, (unsigned int)idx))) {
		t->beyond++;
		return;
	}
	if (idx >= t->nr)
		t->nr = (unsigned int)idx + 1;
	s = &t->slot[idx];
	if (!s->count || v < s->min)
		s->min = v;
	if (v > s->max)
		s->max = v;
	s->count++;
	s->sum += v;
	s->buckets[hist_index(v) >> TIMELINE_SHIFT]++;
}

/* Add @src's intervals into @dst's (the same interval). */
void timeline_merge(struct timeline *dst, const struct timeline *src);
/*
 * The value at percentile @pct (0 < pct <= 100) of slot @s: the midpoint
 * of the coarse bucket holding that rank, clamped to the exact min and
 * max; 0 for an empty slot.
 */
uint64_t timeline_percentile(const struct timeline_slot *s, double pct);

struct json;
/*
 * @key: {"interval_s": I, "beyond": N, "rows": [{"start_s", "calls",
 * "mean_us", "p50_us", "p99_us"}, ...]}, a row per interval from the
 * run's start to its last call (figures null in an interval without a
 * call).
 */
void timeline_json(struct json *j, const char *key, const struct timeline *t);

#endif /* PP_COMMON_TIMELINE_H */
