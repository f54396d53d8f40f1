/* SPDX-License-Identifier: MIT */
/*
 * rpcsim-compare's statistics (compare/stats.c, included whole): the
 * Student t quantile against the textbook table and against values
 * computed independently (Simpson's rule on the t density, then
 * bisection, in Python), the sample standard deviation, and Welch's test
 * on small data sets whose difference, standard error, degrees of freedom
 * and interval were computed the same independent way.
 */
#include "stats.c"

#include "tap.h"

/* |got - want| within @rel of want (or of 1 near 0). */
static bool near(double got, double want, double rel)
{
	double scale = fabs(want) > 1 ? fabs(want) : 1;

	return fabs(got - want) <= rel * scale;
}

static struct cell cell_from(const double *v, unsigned int n)
{
	struct series s = { .v = (double *)v, .n = n, .cap = n };

	return cell_of(&s);
}

int main(void)
{
	/* t(0.975, df): the two-sided 95 % critical values of the tables. */
	static const struct { double df, t; } table[] = {
		{ 1, 12.706205 }, { 2, 4.302653 }, { 3, 3.182446 },
		{ 4, 2.776445 }, { 5, 2.570582 }, { 10, 2.228139 },
		{ 30, 2.042272 }, { 100, 1.983972 }, { 1e6, 1.959966 },
		{ INFINITY, 1.959964 },
		/* Welch's df are not integers (independent computation). */
		{ 1.5, 6.0166631 }, { 3.7, 2.86752071 },
		{ 1.47058824, 6.18811494 }, { 8.99218258, 2.26245698 },
	};
	const double a[] = { 10.0, 10.5, 9.8, 10.2, 10.1 };
	const double b[] = { 11.0, 11.4, 10.9, 11.8, 11.2, 11.1 };
	const double c[] = { 1.0, 1.2 }, d[] = { 1.15, 1.25 };
	const double e[] = { 5.0, 5.0, 5.0 }, f[] = { 4.0, 6.0, 5.5, 4.5 };
	const double g[] = { 5.0, 5.0 }, h[] = { 5.5, 5.5, 5.5 };
	const double tenth[] = { 0.1, 0.1, 0.1 }, one[] = { 7.0 };
	struct cell ca, cb, cc, cd, ce, cf, cg, ch, c1;
	struct welch w;
	unsigned int i;

	plan_tests(29);

	for (i = 0; i < sizeof(table) / sizeof(*table); i++) {
		double t = t_quantile(0.975, table[i].df);

		ok(near(t, table[i].t, 1e-6), "t(0.975, df=%g) = %.6f (%.6f)",
		   table[i].df, t, table[i].t);
	}
	ok(near(t_quantile(0.995, 10), 3.169273, 1e-6) &&
	   near(t_quantile(0.95, 5), 2.015048, 1e-6),
	   "t(0.995, 10) = 3.169273, t(0.95, 5) = 2.015048");
	ok(near(t_quantile(0.025, 10), -2.228139, 1e-6) &&
	   t_quantile(0.5, 3) == 0, "lower quantiles by symmetry; the median 0");
	ok(isnan(t_quantile(1, 3)) && isnan(t_quantile(0.975, 0)),
	   "no quantile for p = 1 or df = 0");
	ok(near(t_tail(12.706205, 1), 0.025, 1e-6) &&
	   t_tail(0, 7) == 0.5 && near(t_tail(-2.228139, 10), 0.975, 1e-6),
	   "the tail P(T > t) at the table's points");

	/* The sample standard deviation. */
	ca = cell_from(a, 5);
	ok(near(ca.mean, 10.12, 1e-12) &&
	   near(ca.stddev, sqrt(0.268 / 4), 1e-12),
	   "10.0 10.5 9.8 10.2 10.1: mean 10.12, sample stddev %.6f "
	   "(sqrt(0.268 / 4))", ca.stddev);
	c1 = cell_from(one, 1);
	ok(c1.n == 1 && c1.mean == 7 && c1.stddev == 0,
	   "one run: its value, stddev 0");
	ce = cell_from(tenth, 3);
	ok(ce.mean == 0.1 && ce.stddev == 0 && ce.rel_pct == 0,
	   "0.1 three times: mean exactly 0.1, no spread from rounding");

	/* Welch: a clear change. */
	cb = cell_from(b, 6);
	w = welch_of(&ca, &cb);
	ok(w.known && w.changed, "a: +1.11 with runs spreading by 0.2-0.3: "
	   "a change");
	ok(near(w.diff, 1.11333333, 1e-8) && near(w.se, 0.176572302, 1e-8) &&
	   near(w.df, 8.99218258, 1e-8) && near(w.t, 2.26245698, 1e-7) &&
	   near(w.half, 0.399487237, 1e-7),
	   "a: difference %.8f, se %.9f, df %.8f, t %.8f, +/- %.9f",
	   w.diff, w.se, w.df, w.t, w.half);

	/* Within the noise, and with two runs a side a wide interval. */
	cc = cell_from(c, 2);
	cd = cell_from(d, 2);
	w = welch_of(&cc, &cd);
	ok(w.known && !w.changed && near(w.df, 1.47058824, 1e-8) &&
	   near(w.half, 0.691852283, 1e-7),
	   "1.0 1.2 against 1.15 1.25: 0.1 +/- %.6f, within the noise",
	   w.half);

	/* One side without spread: df is the other side's n - 1. */
	ce = cell_from(e, 3);
	cf = cell_from(f, 4);
	w = welch_of(&ce, &cf);
	ok(w.known && !w.changed && near(w.df, 3, 1e-12) &&
	   near(w.half, 1.45258136, 1e-7),
	   "5 5 5 against 4 6 5.5 4.5: df 3, 0 +/- %.6f", w.half);

	/* Neither side varies: the difference is exact. */
	cg = cell_from(g, 2);
	ch = cell_from(h, 3);
	w = welch_of(&cg, &ch);
	ok(w.known && w.changed && w.half == 0 && w.se == 0 &&
	   isnan(w.df) && isnan(w.t) && w.diff == 0.5,
	   "5 5 against 5.5 5.5 5.5: exactly +0.5, a change");
	w = welch_of(&cg, &ce);
	ok(w.known && !w.changed && w.half == 0 && w.diff == 0,
	   "5 5 against 5 5 5: exactly 0, within the noise");

	/* Fewer than 2 runs on a side: unknown. */
	w = welch_of(&c1, &ca);
	ok(!w.known && !w.changed, "one run on the base side: unknown");
	w = welch_of(&ca, &c1);
	ok(!w.known, "one run on the new side: unknown");

	return exit_status();
}
