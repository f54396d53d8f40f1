/* SPDX-License-Identifier: MIT */
/*
 * A histogram's raw data as JSON, for the --json of rpcsim and
 * rpcsim-analyze: each non-empty bucket's bounds and count, so a reader
 * can recompute any percentile or plot the distribution itself.
 */
#include "config.h"

#include "hist.h"
#include "json.h"
#include "result_schema.h"

void hist_bucket_bounds(unsigned int idx, uint64_t *lo, uint64_t *hi)
{
	unsigned int shift;
	uint64_t mant;

	if (idx < 2 * HIST_VAL) {
		*lo = *hi = idx;
		return;
	}
	/* hist_index(): idx = shift * HIST_VAL + mantissa, mantissa >= VAL */
	shift = idx / HIST_VAL - 1;
	mant = idx - (uint64_t)shift * HIST_VAL;
	*lo = mant << shift;
	*hi = mant + 1 == 2 * HIST_VAL && shift + HIST_BITS + 1 == 64 ?
	      UINT64_MAX : ((mant + 1) << shift) - 1;
}

void hist_json(struct json *j, const char *key, const struct hist *h)
{
	json_object_begin(j, key);
	json_string(j, RK(histogram, unit), "ns");
	json_string(j, RK(histogram, buckets_are), "[lowest, highest, count]");
	json_array_begin(j, RK(histogram, buckets));
	for (unsigned int i = 0; i < HIST_NR; i++) {
		uint64_t lo, hi;

		if (!h->buckets[i])
			continue;
		hist_bucket_bounds(i, &lo, &hi);
		json_array_begin(j, NULL);
		json_uint(j, NULL, lo);
		json_uint(j, NULL, hi);
		json_uint(j, NULL, h->buckets[i]);
		json_array_end(j);
	}
	json_array_end(j);
	json_object_end(j);
}
