/* SPDX-License-Identifier: MIT */
/*
 * Latency histogram, log-linear in the manner of fio's completion latency
 * buckets: values below 2 * 64 ns have a bucket each, above that every
 * power of two is split into 64 equal buckets (6 bits of mantissa), so a
 * bucket's midpoint is within 1/128 (< 1 %) of any value in it.  Alongside
 * the buckets the exact count, sum, minimum and maximum are kept, and a
 * running mean and sum of squared deviations (Welford) for the stddev.
 *
 * The one histogram of rpcsim (per-call latency: one per thread, updated
 * by its owner only, merged by the main thread after pthread_join()) and
 * rpcsim-analyze (latency_ns, and the two halves of the timestamps -
 * latency_ns differences).  Not thread-safe.
 */
#ifndef PP_COMMON_HIST_H
#define PP_COMMON_HIST_H

#include <stdint.h>

#define HIST_BITS	6
#define HIST_VAL	(1U << HIST_BITS)
/* Groups of HIST_VAL buckets: two exact ones, then one per power of two. */
#define HIST_GROUPS	(64 - HIST_BITS + 1)
#define HIST_NR		(HIST_GROUPS * HIST_VAL)

struct hist {
	uint64_t count;
	uint64_t sum;		/* exact, in the recorded unit (ns) */
	uint64_t min, max;
	double mean;		/* Welford running mean */
	double m2;		/* Welford sum of squared deviations */
	uint64_t buckets[HIST_NR];
};

void hist_init(struct hist *h);
/* Add @src into @dst (Chan et al.'s pairwise update for mean/m2). */
void hist_merge(struct hist *dst, const struct hist *src);
/* Exact mean; 0 for an empty histogram. */
double hist_mean(const struct hist *h);
/* Sample standard deviation; 0 with fewer than two values. */
double hist_stddev(const struct hist *h);
/*
 * Value at percentile @pct (0 < pct <= 100): the midpoint of the bucket
 * holding the ceil(pct / 100 * count)-th smallest value, clamped to the
 * exact min and max.  0 for an empty histogram.
 */
uint64_t hist_percentile(const struct hist *h, double pct);
/* The nearest rank of @pct among @n values: ceil(pct / 100 * n), 1..n. */
uint64_t hist_rank(uint64_t n, double pct);
/* The bucket holding the @rank-th smallest value (1 <= rank <= count). */
unsigned int hist_rank_bucket(const struct hist *h, uint64_t rank);
/* The value reported for bucket @idx: its midpoint (fio's choice). */
uint64_t hist_bucket_value(unsigned int idx);
/* The lowest and highest value bucket @idx holds (hist_json.c). */
void hist_bucket_bounds(unsigned int idx, uint64_t *lo, uint64_t *hi);
struct json;
/*
 * @key: {"unit": "ns", "buckets": [[lowest, highest, count], ...]}, the
 * non-empty buckets in order (hist_json.c).
 */
void hist_json(struct json *j, const char *key, const struct hist *h);

static inline unsigned int hist_index(uint64_t v)
{
	unsigned int msb, shift;

	if (v < 2 * HIST_VAL)
		return (unsigned int)v;
	msb = 63 - (unsigned int)__builtin_clzll(v);
	shift = msb - HIST_BITS;
	/* v >> shift is in [HIST_VAL, 2 * HIST_VAL): the mantissa. */
	return shift * HIST_VAL + (unsigned int)(v >> shift);
}

/* Record one value.  Hot path: a handful of integer and FP operations. */
static inline void hist_add(struct hist *h, uint64_t v)
{
	double delta = (double)v - h->mean;

	h->count++;
	h->sum += v;
	if (v < h->min)
		h->min = v;
	if (v > h->max)
		h->max = v;
	h->mean += delta / (double)h->count;
	h->m2 += delta * ((double)v - h->mean);
	h->buckets[hist_index(v)]++;
}

#endif /* PP_COMMON_HIST_H */
