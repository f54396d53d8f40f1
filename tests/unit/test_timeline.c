/* SPDX-License-Identifier: MIT */
/*
 * rpcsim --interval's latency over time (common/timeline.h): calls land
 * in their interval, merging adds intervals (their counts, sums, minima,
 * maxima and the calls past the last one), a percentile is the middle of
 * its coarse bucket, and the percentiles of an
 * interval whose merged buckets pass 2^32 calls (threads and runs merged
 * over a coarse --interval) are still those of its calls, not its max.
 * The buckets of such a slot are set by hand: adding 2^32 calls would
 * take minutes.
 */
#include <stdint.h>
#include <stdlib.h>

#include "hist.h"
#include "tap.h"
#include "timeline.h"

#define FAST_NS		1000U		/* most calls */
#define SLOW_NS		1000000U	/* a few */

/* Slot 0 of a one-second timeline: @fast calls of FAST_NS, @slow of SLOW_NS. */
static void slot_set(struct timeline *t, uint64_t fast, uint64_t slow)
{
	struct timeline_slot *s;

	timeline_init(t, 1000000000);
	timeline_grow(t, 0);
	t->nr = 1;
	s = &t->slot[0];
	s->count = fast + slow;
	s->sum = fast * FAST_NS + slow * SLOW_NS;
	s->min = FAST_NS;
	s->max = SLOW_NS;
	s->buckets[hist_index(FAST_NS) >> TIMELINE_SHIFT] = fast;
	s->buckets[hist_index(SLOW_NS) >> TIMELINE_SHIFT] = slow;
}

/* Is @v within the coarse bucket of @want (1/16 either side)? */
static int near(uint64_t v, uint64_t want)
{
	return v >= want - want / 16 && v <= want + want / 16;
}

static void test_add_merge(void)
{
	struct timeline a, b, all;
	unsigned int differ = 0;

	timeline_init(&a, 1000);
	timeline_init(&b, 1000);
	timeline_init(&all, 1000);
	for (uint64_t i = 0; i < 20000; i++) {
		uint64_t v = i * i % 100003 + 7, at = i * 3;

		timeline_add(&all, at, v);
		timeline_add(i % 3 ? &a : &b, at, v);
	}
	/* calls past the last interval: only counted, in either */
	for (uint64_t i = 0; i < 5; i++)
		timeline_add(i % 2 ? &a : &b, (uint64_t)TIMELINE_MAX * 1000 + i,
			     100);
	all.beyond = 5;
	timeline_merge(&a, &b);
	for (unsigned int k = 0; k < all.nr; k++) {
		const struct timeline_slot *x = &a.slot[k], *y = &all.slot[k];

		for (unsigned int i = 0; i < TIMELINE_NR; i++)
			differ += x->buckets[i] != y->buckets[i];
		differ += x->count != y->count || x->sum != y->sum ||
			  x->min != y->min || x->max != y->max;
	}
	ok(a.nr == all.nr && all.nr == 60 && differ == 0 && a.beyond == 5 &&
	   timeline_percentile(&a.slot[7], 99) ==
	   timeline_percentile(&all.slot[7], 99),
	   "timeline_merge - the intervals of all calls (%u), count, sum, "
	   "min, max, the calls beyond them", all.nr);
	timeline_free(&a);
	timeline_free(&b);
	timeline_free(&all);
}

static void test_merge_past_2_32(void)
{
	/* 2 threads of 2.5e9 fast calls: 5e9 in one bucket, past 2^32 */
	const uint64_t fast = 2500000000ULL, slow = 10000000ULL;
	struct timeline run, t1, t2, plot;
	const struct timeline_slot *s;
	unsigned int b = hist_index(FAST_NS) >> TIMELINE_SHIFT;

	timeline_init(&run, 1000000000);
	slot_set(&t1, fast, slow);
	slot_set(&t2, fast, slow);
	timeline_merge(&run, &t1);
	timeline_merge(&run, &t2);
	s = &run.slot[0];
	ok(s->buckets[b] == 2 * fast && s->count == 2 * (fast + slow),
	   "timeline_merge - threads: a bucket past 2^32 (%llu calls)",
	   (unsigned long long)s->buckets[b]);
	ok(near(timeline_percentile(s, 50), FAST_NS) &&
	   near(timeline_percentile(s, 99), FAST_NS),
	   "timeline_percentile - p50, p99 of the fast calls, not the max "
	   "(%llu, %llu ns)",
	   (unsigned long long)timeline_percentile(s, 50),
	   (unsigned long long)timeline_percentile(s, 99));
	ok(near(timeline_percentile(s, 99.9), SLOW_NS),
	   "timeline_percentile - p99.9 of the slow calls (%llu ns)",
	   (unsigned long long)timeline_percentile(s, 99.9));

	/* a run of it merged twice more, as the plot pools the runs */
	timeline_init(&plot, 1000000000);
	for (unsigned int r = 0; r < 3; r++)
		timeline_merge(&plot, &run);
	s = &plot.slot[0];
	ok(s->buckets[b] == 6 * fast && s->count == 6 * (fast + slow) &&
	   near(timeline_percentile(s, 99), FAST_NS),
	   "timeline_merge - runs: %llu calls in a bucket, p99 %llu ns",
	   (unsigned long long)s->buckets[b],
	   (unsigned long long)timeline_percentile(s, 99));
	timeline_free(&run);
	timeline_free(&t1);
	timeline_free(&t2);
	timeline_free(&plot);
}

/*
 * A percentile is the middle of its coarse bucket: 960..1023 ns for
 * these calls (fine buckets of 8 ns from 512 ns on, eight to a coarse
 * one), so 991 ns, within the slot's min and max.
 */
static void test_percentile_middle(void)
{
	struct timeline t;

	timeline_init(&t, 1000);
	timeline_add(&t, 0, 962);
	timeline_add(&t, 1, 1000);
	timeline_add(&t, 2, 1020);
	ok(t.nr == 1 && timeline_percentile(&t.slot[0], 50) == 991,
	   "timeline_percentile - the middle of 960..1023 ns (%llu)",
	   (unsigned long long)timeline_percentile(&t.slot[0], 50));
	timeline_free(&t);
}

int main(void)
{
	plan_tests(6);
	test_add_merge();
	test_percentile_middle();
	test_merge_past_2_32();
	return exit_status();
}
