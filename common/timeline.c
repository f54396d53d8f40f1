/* SPDX-License-Identifier: MIT */
/* Latency over time: see timeline.h. */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "result_schema.h"
#include "timeline.h"
#include "tool.h"

void timeline_init(struct timeline *t, uint64_t interval_ns)
{
	memset(t, 0, sizeof(*t));
	t->interval_ns = interval_ns;
}

void timeline_free(struct timeline *t)
{
	free(t->slot);
	t->slot = NULL;
	t->nr = t->cap = 0;
}

int timeline_grow(struct timeline *t, unsigned int idx)
{
	unsigned int cap = t->cap ? t->cap : 16;

	if (idx >= TIMELINE_MAX)
		return 0;
	while (cap <= idx)
		cap *= 2;
	if (cap > TIMELINE_MAX)
		cap = TIMELINE_MAX;
	t->slot = xrealloc(t->slot, cap, sizeof(*t->slot));
	memset(t->slot + t->cap, 0, (cap - t->cap) * sizeof(*t->slot));
	t->cap = cap;
	return 1;
}

void timeline_merge(struct timeline *dst, const struct timeline *src)
{
	dst->beyond += src->beyond;
	if (!src->nr)
		return;
	if (src->nr > dst->cap)
		timeline_grow(dst, src->nr - 1);
	if (src->nr > dst->nr)
		dst->nr = src->nr;
	for (unsigned int i = 0; i < src->nr; i++) {
		struct timeline_slot *d = &dst->slot[i];
		const struct timeline_slot *s = &src->slot[i];

		if (!s->count)
			continue;
		if (!d->count || s->min < d->min)
			d->min = s->min;
		if (s->max > d->max)
			d->max = s->max;
		d->count += s->count;
		d->sum += s->sum;
		for (unsigned int b = 0; b < TIMELINE_NR; b++)
			d->buckets[b] += s->buckets[b];
	}
}

uint64_t timeline_percentile(const struct timeline_slot *s, double pct)
{
	uint64_t rank, seen = 0, lo, hi, lo2, hi2, v;
	unsigned int b;

	if (!s->count)
		return 0;
	rank = hist_rank(s->count, pct);
	for (b = 0; b < TIMELINE_NR - 1; b++) {
		seen += s->buckets[b];
		if (seen >= rank)
			break;
	}
	/* coarse bucket b: fine buckets b << SHIFT .. its last */
	hist_bucket_bounds(b << TIMELINE_SHIFT, &lo, &hi);
	hist_bucket_bounds(((b + 1) << TIMELINE_SHIFT) - 1, &lo2, &hi2);
	v = lo + (hi2 - lo) / 2;
	if (v < s->min)
		v = s->min;
	if (v > s->max)
		v = s->max;
	return v;
}

void timeline_json(struct json *j, const char *key, const struct timeline *t)
{
	json_object_begin(j, key);
	json_double(j, RK(timeline, interval_s), (double)t->interval_ns / 1e9,
		    6);
	json_uint(j, RK(timeline, beyond), t->beyond);
	json_array_begin(j, RK(timeline, rows));
	for (unsigned int i = 0; i < t->nr; i++) {
		const struct timeline_slot *s = &t->slot[i];

		json_object_begin(j, NULL);
		json_double(j, RK(timeline_row, start_s),
			    (double)i * (double)t->interval_ns / 1e9, 6);
		json_uint(j, RK(timeline_row, calls), s->count);
		if (s->count) {
			json_double(j, RK(timeline_row, mean_us),
				    (double)s->sum / (double)s->count / 1e3,
				    3);
			json_double(j, RK(timeline_row, p50_us),
				    (double)timeline_percentile(s, 50) / 1e3,
				    3);
			json_double(j, RK(timeline_row, p99_us),
				    (double)timeline_percentile(s, 99) / 1e3,
				    3);
		} else {
			json_null(j, RK(timeline_row, mean_us));
			json_null(j, RK(timeline_row, p50_us));
			json_null(j, RK(timeline_row, p99_us));
		}
		json_object_end(j);
	}
	json_array_end(j);
	json_object_end(j);
}
