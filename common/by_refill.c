/* SPDX-License-Identifier: MIT */
/* The calls by refill size, as text and as JSON (see by_refill.h). */
#include "config.h"

#include <math.h>

#include "by_refill.h"
#include "hist.h"
#include "json.h"
#include "result_schema.h"
#include "tool.h"

static double ns_to_us(double ns)
{
	return ns / 1000.0;
}

void by_refill_text(FILE *out, const struct hist *one_page,
		    const struct hist *more_pages)
{
	const struct hist *const kind[BY_REFILL_NR] = {
		[BY_REFILL_ONE_PAGE] = one_page,
		[BY_REFILL_MORE_PAGES] = more_pages,
	};
	const char *const what[BY_REFILL_NR] = {
		[BY_REFILL_ONE_PAGE] = "1 page",
		[BY_REFILL_MORE_PAGES] = "more",
	};
	char n[32];

	fprintf(out, "  by refill:");
	for (unsigned int k = 0; k < BY_REFILL_NR; k++) {
		const struct hist *h = kind[k];

		if (!h->count) {
			fprintf(out, "%s %s: no calls", k ? ";" : "", what[k]);
			continue;
		}
		fprintf(out, "%s %s: mean %.3f, p50 %.3f us (%s calls)",
			k ? ";" : "", what[k], ns_to_us(hist_mean(h)),
			ns_to_us((double)hist_percentile(h, 50)),
			fmt_thousands(n, sizeof(n), h->count));
	}
	fputc('\n', out);
}

void by_refill_json(struct json *j, const char *key,
		    const struct hist *one_page,
		    const struct hist *more_pages)
{
	const struct hist *const kind[BY_REFILL_NR] = {
		[BY_REFILL_ONE_PAGE] = one_page,
		[BY_REFILL_MORE_PAGES] = more_pages,
	};
	const char *const name[BY_REFILL_NR] = {
		[BY_REFILL_ONE_PAGE] = RK(rpcsim_by_refill, one_page),
		[BY_REFILL_MORE_PAGES] = RK(rpcsim_by_refill, more_pages),
	};

	json_object_begin(j, key);
	for (unsigned int k = 0; k < BY_REFILL_NR; k++) {
		const struct hist *h = kind[k];
		double mean = NAN, p50 = NAN, p90 = NAN;	/* null */

		if (h->count) {
			mean = ns_to_us(hist_mean(h));
			p50 = ns_to_us((double)hist_percentile(h, 50));
			p90 = ns_to_us((double)hist_percentile(h, 90));
		}
		json_object_begin(j, name[k]);
		json_uint(j, RK(rpcsim_refill, calls), h->count);
		json_number(j, RK(rpcsim_refill, mean_us), mean);
		json_number(j, RK(rpcsim_refill, p50_us), p50);
		json_number(j, RK(rpcsim_refill, p90_us), p90);
		json_object_end(j);
	}
	json_object_end(j);
}
