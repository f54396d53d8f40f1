/* SPDX-License-Identifier: MIT */
/*
 * The svc_alloc_arg() calls by what they refilled, written once for the
 * two programs that split them: rpcsim, whose nfsd consumer times each
 * kind (rpcsim/nfsd/svc.h), and rpcsim-analyze, which splits a trace's
 * calls by their svc_alloc_arg_exit event's "allocated" (analyze/fold.c).
 * Both say them in the same words: the text line by_refill_text() prints
 * and the JSON object "by_refill" by_refill_json() writes
 * (common/result_schema.h, RESULT_RPCSIM_BY_REFILL), so one reader reads
 * either program's.
 *
 * A call refills at most one page (after a WRITE, its reply page; a list
 * call for one page takes 5.13's single-page path) or more (after a READ,
 * the spliced pages too).  With the default mix half the calls are of
 * each kind, so the median of all the calls lies where the two meet; each
 * kind has a median of its own.
 */
#ifndef PP_COMMON_BY_REFILL_H
#define PP_COMMON_BY_REFILL_H

#include <stdint.h>
#include <stdio.h>

struct hist;
struct json;

enum by_refill {
	BY_REFILL_ONE_PAGE,
	BY_REFILL_MORE_PAGES,
	BY_REFILL_NR,
};

/* The kind of a call that refilled @pages pages: at most one, or more. */
static inline enum by_refill by_refill_of(uint64_t pages)
{
	return pages <= 1 ? BY_REFILL_ONE_PAGE : BY_REFILL_MORE_PAGES;
}

/*
 * by_refill_text() - the line of the two kinds' latency histograms (ns):
 *   "  by refill: 1 page: mean 0.336, p50 0.230 us (1,021 calls); more:
 *   mean 1.162, p50 0.995 us (979 calls)\n"
 * with "1 page: no calls" (or "more: no calls") for a kind without one.
 */
void by_refill_text(FILE *out, const struct hist *one_page,
		    const struct hist *more_pages);

/*
 * by_refill_json() - @key ("by_refill" in both documents): {"one_page":
 * {"calls", "mean_us", "p50_us", "p90_us"}, "more_pages": {...}} of the
 * same histograms, the figures null for a kind without a call.
 */
void by_refill_json(struct json *j, const char *key,
		    const struct hist *one_page,
		    const struct hist *more_pages);

#endif /* PP_COMMON_BY_REFILL_H */
