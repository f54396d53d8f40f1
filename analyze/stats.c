/* SPDX-License-Identifier: MIT */
/*
 * Latency accumulators: the common log-linear histogram (common/hist.h)
 * with an exact sum of squares, and percentiles of the signed
 * differences; a group's set of them.
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>

#include "analyze.h"

int lat_init(struct lat_stats *s)
{
	s->sumsq = 0;
	s->hist = malloc(sizeof(*s->hist));
	if (!s->hist)
		return -1;
	hist_init(s->hist);
	return 0;
}

void lat_free(struct lat_stats *s)
{
	free(s->hist);
	s->hist = NULL;
}

void lat_merge(struct lat_stats *dst, const struct lat_stats *src)
{
	dst->sumsq += src->sumsq;
	hist_merge(dst->hist, src->hist);
}

double lat_mean(const struct lat_stats *s)
{
	return hist_mean(s->hist);
}

/*
 * var = (n * sumsq - sum^2) / (n * (n - 1)).  The numerator is computed
 * exactly in 128 bits (it cannot go negative: Cauchy-Schwarz), so no
 * cancellation is lost to floating point; it overflows only past ~2^128,
 * i.e. never for ns latencies of realistic traces.
 */
double lat_stddev(const struct lat_stats *s)
{
	uint64_t n = s->hist->count, sum = s->hist->sum;
	unsigned __int128 num;
	long double var;

	if (n < 2)
		return 0.0;
	num = (unsigned __int128)n * s->sumsq - (unsigned __int128)sum * sum;
	var = (long double)num / ((long double)n * (long double)(n - 1));
	return sqrt((double)var);
}

int diff_init(struct diff_stats *s)
{
	s->n = 0;
	s->sum = 0;
	s->min = INT64_MAX;
	s->max = INT64_MIN;
	s->n_neg = 0;
	s->pos = malloc(sizeof(*s->pos));
	s->neg = malloc(sizeof(*s->neg));
	if (!s->pos || !s->neg)
		return -1;
	hist_init(s->pos);
	hist_init(s->neg);
	return 0;
}

void diff_free(struct diff_stats *s)
{
	free(s->pos);
	free(s->neg);
	s->pos = s->neg = NULL;
}

void diff_add(struct diff_stats *s, int64_t d)
{
	s->n++;
	s->sum += d;
	if (d < s->min)
		s->min = d;
	if (d > s->max)
		s->max = d;
	if (d >= 0) {
		hist_add(s->pos, (uint64_t)d);
	} else {
		s->n_neg++;
		hist_add(s->neg, -(uint64_t)d);
	}
}

void diff_merge(struct diff_stats *dst, const struct diff_stats *src)
{
	dst->n += src->n;
	dst->sum += src->sum;
	dst->n_neg += src->n_neg;
	if (src->min < dst->min)
		dst->min = src->min;
	if (src->max > dst->max)
		dst->max = src->max;
	hist_merge(dst->pos, src->pos);
	hist_merge(dst->neg, src->neg);
}

double diff_mean(const struct diff_stats *s)
{
	return s->n ? (double)s->sum / (double)s->n : 0.0;
}

int64_t diff_percentile(const struct diff_stats *s, double p)
{
	uint64_t rank;
	unsigned int i;
	int64_t v;

	if (!s->n)
		return 0;
	rank = hist_rank(s->n, p);
	if (rank <= s->n_neg) {
		/* the rank-th smallest is the (n_neg - rank + 1)-th largest -d */
		i = hist_rank_bucket(s->neg, s->n_neg - rank + 1);
		v = -(int64_t)hist_bucket_value(i);
	} else {
		i = hist_rank_bucket(s->pos, rank - s->n_neg);
		v = (int64_t)hist_bucket_value(i);
	}
	/* exact at the ends */
	if (v < s->min)
		v = s->min;
	if (v > s->max)
		v = s->max;
	return v;
}

int group_stats_init(struct group *g)
{
	int ret = lat_init(&g->field) | lat_init(&g->stamps) |
		  diff_init(&g->diff);

	for (unsigned int k = 0; k < BY_REFILL_NR; k++) {
		g->refill[k] = malloc(sizeof(*g->refill[k]));
		if (!g->refill[k])
			ret = -1;
		else
			hist_init(g->refill[k]);
	}
	return ret;
}

void group_stats_free(struct group *g)
{
	lat_free(&g->field);
	lat_free(&g->stamps);
	diff_free(&g->diff);
	for (unsigned int k = 0; k < BY_REFILL_NR; k++) {
		free(g->refill[k]);
		g->refill[k] = NULL;
	}
}
