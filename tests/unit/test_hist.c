/* SPDX-License-Identifier: MIT */
/*
 * The log-linear latency histogram of rpcsim and rpcsim-analyze
 * (common/hist.h): its bucket layout, the value a bucket reports, nearest
 * rank percentiles clamped to the exact min and max, and merging.
 * rpcsim's numbers are timings, so its histogram is checked here rather
 * than through its output.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "hist.h"
#include "tap.h"

/* rpcsim-analyze's own index before the histogram was shared. */
static unsigned int analyze_index(uint64_t v)
{
	unsigned int msb;

	if (v < HIST_VAL)
		return (unsigned int)v;
	msb = 63 - (unsigned int)__builtin_clzll(v);
	return (msb - HIST_BITS + 1) * HIST_VAL +
	       (unsigned int)((v >> (msb - HIST_BITS)) & (HIST_VAL - 1));
}

/* Values to try: every one below 2^16, then edges of powers of two. */
static uint64_t probe(unsigned int i)
{
	unsigned int k = i >> 2;

	if (i < 65536 * 4)
		return i >> 2;
	k = 16 + (i - 65536 * 4) / 4;
	if (k > 63)
		return UINT64_MAX;
	switch (i & 3) {
	case 0:
		return (uint64_t)1 << k;
	case 1:
		return ((uint64_t)1 << k) - 1;
	case 2:
		return ((uint64_t)1 << k) + 1;
	default:
		return ((uint64_t)1 << k) + ((uint64_t)1 << (k - 1)) + 12345;
	}
}

static void test_layout(void)
{
	unsigned int bad_index = 0, bad_order = 0, bad_value = 0;
	unsigned int prev = 0;

	for (unsigned int i = 0; i < 65536 * 4 + 48 * 4; i++) {
		uint64_t v = probe(i);
		unsigned int idx = hist_index(v);
		uint64_t mid = hist_bucket_value(idx);

		if (idx != analyze_index(v) || idx >= HIST_NR)
			bad_index++;
		if (i < 65536 * 4 && (idx < prev || idx > prev + 1))
			bad_order++;
		prev = idx;
		/* the midpoint lies in the bucket, within 1/128 of v */
		if (hist_index(mid) != idx ||
		    fabs((double)mid - (double)v) > (double)v / 128.0)
			bad_value++;
	}
	ok(bad_index == 0, "hist_index - the layout rpcsim-analyze had, "
	   "inside HIST_NR (%u differ)", bad_index);
	ok(bad_order == 0, "hist_index - buckets in order, none skipped "
	   "(%u out of order)", bad_order);
	ok(bad_value == 0, "hist_bucket_value - in its bucket, within 1/128 "
	   "of every value there (%u off)", bad_value);
	ok(hist_index(127) == 127 && hist_index(128) == 128 &&
	   hist_index(255) == 191 && hist_index(256) == 192,
	   "hist_index - one bucket per value below 128, then 64 per power "
	   "of two");
	ok(hist_bucket_value(hist_index(1000)) == 1003,
	   "hist_bucket_value - the midpoint of [1000, 1007] is 1003 (%llu)",
	   (unsigned long long)hist_bucket_value(hist_index(1000)));
}

static void test_percentiles(void)
{
	struct hist *h = malloc(sizeof(*h));

	hist_init(h);
	ok(hist_percentile(h, 50) == 0 && hist_mean(h) == 0 &&
	   hist_stddev(h) == 0, "hist_percentile - 0 for an empty histogram");
	hist_add(h, 1000);
	ok(hist_percentile(h, 99) == 1000,
	   "hist_percentile - clamped to the exact max (%llu, not 1003)",
	   (unsigned long long)hist_percentile(h, 99));
	hist_init(h);
	for (uint64_t v = 1; v <= 1000; v++)
		hist_add(h, v);
	ok(hist_rank(1000, 50) == 500 && hist_rank(1000, 0.01) == 1 &&
	   hist_rank(1000, 100) == 1000 && hist_rank(1000, 75) == 750,
	   "hist_rank - nearest rank, 1..n");
	ok(hist_percentile(h, 50) == 501 && hist_percentile(h, 90) == 899 &&
	   hist_percentile(h, 100) == 1000 && hist_percentile(h, 0.1) == 1,
	   "hist_percentile - p50 %llu, p90 %llu, p100 %llu, p0.1 %llu",
	   (unsigned long long)hist_percentile(h, 50),
	   (unsigned long long)hist_percentile(h, 90),
	   (unsigned long long)hist_percentile(h, 100),
	   (unsigned long long)hist_percentile(h, 0.1));
	ok(hist_mean(h) == 500.5 && h->min == 1 && h->max == 1000 &&
	   fabs(hist_stddev(h) - 288.8194360957494) < 1e-6,
	   "hist_mean, hist_stddev - exact mean, sample stddev (%.6f)",
	   hist_stddev(h));
	free(h);
}

static void test_merge(void)
{
	struct hist *all = malloc(sizeof(*all)), *a = malloc(sizeof(*a));
	struct hist *b = malloc(sizeof(*b));
	unsigned int differ = 0;

	hist_init(all);
	hist_init(a);
	hist_init(b);
	for (uint64_t v = 0; v < 5000; v++) {
		uint64_t x = v * v % 100003 + 7;

		hist_add(all, x);
		hist_add(v % 3 ? a : b, x);
	}
	hist_merge(a, b);
	for (unsigned int i = 0; i < HIST_NR; i++)
		differ += a->buckets[i] != all->buckets[i];
	ok(differ == 0 && a->count == all->count && a->sum == all->sum &&
	   a->min == all->min && a->max == all->max,
	   "hist_merge - buckets, count, sum, min, max of all values");
	ok(fabs(hist_stddev(a) - hist_stddev(all)) < 1e-6 * hist_stddev(all),
	   "hist_merge - the stddev of all values (%.3f vs %.3f)",
	   hist_stddev(a), hist_stddev(all));
	hist_init(b);
	hist_merge(b, all);
	ok(b->count == all->count && hist_percentile(b, 99) ==
	   hist_percentile(all, 99), "hist_merge - into an empty histogram");
	free(all);
	free(a);
	free(b);
}

int main(void)
{
	plan_tests(13);
	test_layout();
	test_percentiles();
	test_merge();
	return exit_status();
}
