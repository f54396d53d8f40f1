/* SPDX-License-Identifier: MIT */
/* Log-linear latency histogram: merge and percentiles (see hist.h). */
#include <math.h>
#include <string.h>

#include "hist.h"

void hist_init(struct hist *h)
{
	memset(h, 0, sizeof(*h));
	h->min = UINT64_MAX;
}

void hist_merge(struct hist *dst, const struct hist *src)
{
	uint64_t n;
	double delta;

	if (!src->count)
		return;
	if (!dst->count) {
		memcpy(dst, src, sizeof(*dst));
		return;
	}
	n = dst->count + src->count;
	delta = src->mean - dst->mean;
	dst->m2 += src->m2 + delta * delta *
		   ((double)dst->count * (double)src->count / (double)n);
	dst->mean += delta * (double)src->count / (double)n;
	dst->count = n;
	dst->sum += src->sum;
	if (src->min < dst->min)
		dst->min = src->min;
	if (src->max > dst->max)
		dst->max = src->max;
	for (unsigned int i = 0; i < HIST_NR; i++)
		dst->buckets[i] += src->buckets[i];
}

double hist_mean(const struct hist *h)
{
	return h->count ? (double)h->sum / (double)h->count : 0.0;
}

double hist_stddev(const struct hist *h)
{
	if (h->count < 2 || h->m2 <= 0)
		return 0.0;
	return sqrt(h->m2 / (double)(h->count - 1));
}

uint64_t hist_bucket_value(unsigned int idx)
{
	unsigned int shift;
	uint64_t mant;

	if (idx < 2 * HIST_VAL)
		return idx;
	shift = idx / HIST_VAL - 1;
	mant = idx - shift * HIST_VAL;
	return (mant << shift) + (((uint64_t)1 << shift) - 1) / 2;
}

uint64_t hist_rank(uint64_t n, double pct)
{
	double r = ceil(pct / 100.0 * (double)n);

	if (r < 1)
		return 1;
	if (r > (double)n)
		return n;
	return (uint64_t)r;
}

unsigned int hist_rank_bucket(const struct hist *h, uint64_t rank)
{
	uint64_t seen = 0;

	for (unsigned int i = 0; i < HIST_NR; i++) {
		seen += h->buckets[i];
		if (seen >= rank)
			return i;
	}
	return HIST_NR - 1;
}

uint64_t hist_percentile(const struct hist *h, double pct)
{
	uint64_t v;

	if (!h->count)
		return 0;
	v = hist_bucket_value(hist_rank_bucket(h, hist_rank(h->count, pct)));
	if (v < h->min)
		v = h->min;
	if (v > h->max)
		v = h->max;
	return v;
}
