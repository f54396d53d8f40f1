/* SPDX-License-Identifier: MIT */
/*
 * The statistics of rpcsim-compare: a cell's mean and sample standard
 * deviation, and Welch's t-test of two cells at 95 % confidence.
 *
 * The Student t quantile is found by bisection on the distribution's
 * tail, P(T > t) = I_x(df/2, 1/2) / 2 with x = df / (df + t^2), where I is
 * the regularized incomplete beta function, evaluated by its continued
 * fraction (modified Lentz).  Welch's degrees of freedom are not integers,
 * so no table would do.
 */
#include "config.h"

#include <float.h>
#include <math.h>

#include "compare.h"

struct cell cell_of(const struct series *s)
{
	struct cell c = { 0 };
	double sum = 0, sq = 0, min, max;

	if (!s || !s->n)
		return c;
	min = max = s->v[0];
	for (unsigned int i = 0; i < s->n; i++) {
		sum += s->v[i];
		min = s->v[i] < min ? s->v[i] : min;
		max = s->v[i] > max ? s->v[i] : max;
	}
	c.n = s->n;
	/* Equal values: their own mean, no spread (no rounding residue). */
	c.mean = min == max ? min : sum / s->n;
	for (unsigned int i = 0; min != max && i < s->n; i++)
		sq += (s->v[i] - c.mean) * (s->v[i] - c.mean);
	/* The sample standard deviation, as rpcsim and rpcsim-analyze. */
	c.stddev = s->n > 1 ? sqrt(sq / (s->n - 1)) : 0;
	c.rel_pct = c.mean != 0 ? 100.0 * c.stddev / fabs(c.mean) : 0;
	return c;
}

/* The continued fraction of I_x(a, b), for x < (a + 1) / (a + b + 2). */
static double beta_cf(double a, double b, double x)
{
	const double tiny = 1e-300, eps = 1e-15;
	double c = 1, d = 1 - (a + b) * x / (a + 1), h;

	d = 1 / (fabs(d) < tiny ? tiny : d);
	h = d;
	for (int m = 1; m <= 1000; m++) {
		/* The even step d_2m, then the odd step d_2m+1. */
		double num = m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m));

		d = 1 + num * d;
		d = 1 / (fabs(d) < tiny ? tiny : d);
		c = 1 + num / c;
		c = fabs(c) < tiny ? tiny : c;
		h *= d * c;
		num = -(a + m) * (a + b + m) * x /
		      ((a + 2 * m) * (a + 2 * m + 1));
		d = 1 + num * d;
		d = 1 / (fabs(d) < tiny ? tiny : d);
		c = 1 + num / c;
		c = fabs(c) < tiny ? tiny : c;
		h *= d * c;
		if (fabs(d * c - 1) < eps)
			break;
	}
	return h;
}

/* The regularized incomplete beta function I_x(a, b), 0 <= x <= 1. */
static double beta_inc(double a, double b, double x)
{
	double front;

	if (x <= 0)
		return 0;
	if (x >= 1)
		return 1;
	front = exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) +
		    b * log1p(-x));
	/* The fraction converges fast on this side; use symmetry else. */
	if (x < (a + 1) / (a + b + 2))
		return front * beta_cf(a, b, x) / a;
	return 1 - front * beta_cf(b, a, 1 - x) / b;
}

double t_tail(double t, double df)
{
	double tail;

	if (isinf(df))
		tail = 0.5 * erfc(fabs(t) / sqrt(2.0));
	else
		tail = 0.5 * beta_inc(df / 2, 0.5, df / (df + t * t));
	return t >= 0 ? tail : 1 - tail;
}

double t_quantile(double p, double df)
{
	double lo = 0, hi = 1, q;

	if (!(p > 0 && p < 1) || !(df > 0))
		return NAN;
	if (p < 0.5)
		return -t_quantile(1 - p, df);
	if (p == 0.5)
		return 0;
	q = 1 - p;		/* the upper tail to find */
	while (t_tail(hi, df) > q && hi < 1e300)
		hi *= 2;
	for (int i = 0; i < 2000 && hi - lo > 4 * DBL_EPSILON * hi; i++) {
		double mid = lo + (hi - lo) / 2;

		if (t_tail(mid, df) > q)
			lo = mid;
		else
			hi = mid;
	}
	return lo + (hi - lo) / 2;
}

struct welch welch_of(const struct cell *base, const struct cell *new)
{
	struct welch w = { .df = NAN, .t = NAN };
	double vb, vn;

	if (base->n < 2 || new->n < 2)
		return w;
	w.known = true;
	w.diff = new->mean - base->mean;
	vb = base->stddev * base->stddev / base->n;
	vn = new->stddev * new->stddev / new->n;
	w.se = sqrt(vb + vn);
	if (w.se > 0) {
		w.df = (vb + vn) * (vb + vn) /
		       (vb * vb / (base->n - 1) + vn * vn / (new->n - 1));
		w.t = t_quantile(0.975, w.df);
		w.half = w.t * w.se;
	}
	/*
	 * Neither side varies: the difference is exact, its interval the
	 * one point; it excludes 0 exactly when the means differ.
	 */
	w.changed = fabs(w.diff) > w.half;
	return w;
}
