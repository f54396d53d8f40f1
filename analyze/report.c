/* SPDX-License-Identifier: MIT */
/*
 * Report: one block per mode (runs of a mode merged), with one line per
 * run when there were several, as text or as one JSON document.
 *
 * The first line of a block has the seed's shape and is the greppable
 * result:
 *   Bulk array:   4.590 us per call over 517,442 calls
 * ("%-12s%7.3f": the label with its colon padded to 12 columns, which is
 * what reproduces the seed's spacing for all three labels).  Its mean and
 * count come from the latency_ns field of svc_alloc_arg_exit (method a),
 * the number rpcsim measured around the call.
 *
 * Method (b), exit timestamp - entry timestamp of the same thread, also
 * counts the part of the two tracepoints that lies between the two
 * timestamps (plus the clock reads rpcsim makes), so per call
 *   d = (b) - (a)
 * is expected to be positive and about one tracepoint's cost.  The check,
 * on the calls that have both numbers:
 *   - median(d) < -50 ns: warning.  The timestamps do not bracket the
 *     measured region, or the clocks differ: (a) or (b) is wrong.  50 ns
 *     allows for clock granularity only.
 *   - median(d) > 2 * T (T = --tracepoint-cost, default 300 ns, the cost
 *     of one enabled tracepoint measured on this project's VM): warning;
 *     the typical call is slower than the tracing explains.
 *   - mean(d) > 2 * T (or < -50 ns) while the median is within: warning
 *     too, as the means disagree by more than tracing explains, with the
 *     share of calls with d > 10 * T printed: then a few calls carry the
 *     difference, typically a thread preempted between a tracepoint and
 *     rpcsim's clock read (tracegen's spin loop, whose latency_ns is a
 *     fixed number, shows it on a loaded machine).
 * The median is used for the typical call because one preemption of a
 * few ms weighs more in the mean than a million calls' tracing cost; a
 * relative tolerance (say 50 % of the mean) would hide a real 1 us error
 * in a 4 us call and flag nothing useful, so none is used.
 */
#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "analyze.h"
#include "ppool.h"
#include "json.h"
#include "plot.h"
#include "result_schema.h"

#define DIFF_NEG_SLACK_NS	50

static const double pcts[] = { 50, 90, 99, 99.9 };
static const char *const pct_names[] = { "p50", "p90", "p99", "p99.9" };
static const char *const pct_keys[] = {
	RK(analyze_latency, p50_ns), RK(analyze_latency, p90_ns),
	RK(analyze_latency, p99_ns), RK(analyze_latency, p99_9_ns),
};
#define NR_PCTS	(sizeof(pcts) / sizeof(pcts[0]))

struct warnings {
	char **msg;
	unsigned int n, cap;
};

static void warn(struct warnings *w, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void warn(struct warnings *w, const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		tool_die(1, "out of memory");
	va_end(ap);
	if (w->n == w->cap) {
		unsigned int cap = w->cap ? 2 * w->cap : 16;

		w->msg = xrealloc(w->msg, cap, sizeof(*w->msg));
		w->cap = cap;
	}
	w->msg[w->n++] = s;
}

/* A warning made elsewhere (ppool.c), as it is. */
static void warn_line(void *w, const char *msg)
{
	warn(w, "%s", msg);
}

static const char *mode_label(uint32_t mode, char *buf, size_t len)
{
	static const char *const labels[] = { "Single page", "Bulk list",
					      "Bulk array" };

	if (mode < 3)
		return labels[mode];
	if (mode == MODE_UNKNOWN)
		return "Unknown mode";
	snprintf(buf, len, "Mode %" PRIu32, mode);
	return buf;
}

static int group_cmp(const void *x, const void *y)
{
	const struct group *a = *(struct group *const *)x;
	const struct group *b = *(struct group *const *)y;

	if (a->proc->pid != b->proc->pid)	/* PID_UNKNOWN first */
		return a->proc->pid < b->proc->pid ? -1 : 1;
	if (a->mode != b->mode)
		return a->mode < b->mode ? -1 : 1;
	if (a->run != b->run)
		return a->run < b->run ? -1 : 1;	/* RUN_UNKNOWN first */
	return 0;
}

/* The M of SUMS_ADD(): a field of *s added to *d's. */
#define SUM_ADD(member, key, types, need, sub)	d->member += s->member;

/* The fields MEMBERS lists of the TYPE at @src added to @dst's. */
#define SUMS_ADD(MEMBERS, TYPE, dst, src)				\
	do {								\
		TYPE *d = (dst);					\
		const TYPE *s = (src);					\
									\
		MEMBERS(SUM_ADD)					\
	} while (0)

static void counts_add(uint64_t *dst, const uint64_t *src, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		dst[i] += src[i];
}

static void sums_merge(struct field_sums *dst, const struct field_sums *src)
{
	SUMS_ADD(RESULT_ANALYZE_ENTRY, struct entry_sums, &dst->entry,
		 &src->entry);
	SUMS_ADD(RESULT_ANALYZE_EXIT_SUMS, struct exit_sums, &dst->exit,
		 &src->exit);
	SUMS_ADD(RESULT_ANALYZE_ERR, struct err_sums, &dst->err, &src->err);
	SUMS_ADD(RESULT_ANALYZE_REQUEST_SUMS, struct request_sums,
		 &dst->request, &src->request);
	counts_add(dst->request.op, src->request.op, NR_OPS + 1);
	SUMS_ADD(RESULT_ANALYZE_RECV_SHORT, struct recv_short_sums,
		 &dst->recv_short, &src->recv_short);
	SUMS_ADD(RESULT_ANALYZE_BULK_SUMS, struct bulk_sums, &dst->bulk,
		 &src->bulk);
	counts_add(dst->bulk.api, src->bulk.api, NR_BULK_APIS + 1);
	counts_add(dst->bulk.fallback, src->bulk.fallback, NR_FALLBACKS + 1);
}

void group_merge(struct group *dst, const struct group *src)
{
	dst->nr_starts += src->nr_starts;
	dst->nr_ends += src->nr_ends;
	dst->end.calls += src->end.calls;
	dst->end.pages += src->end.pages;
	dst->end.latency_sum_ns += src->end.latency_sum_ns;
	dst->end.requests += src->end.requests;
	dst->end.no_progress += src->end.no_progress;
	dst->end.short_reads += src->end.short_reads;
	lat_merge(&dst->field, &src->field);
	lat_merge(&dst->stamps, &src->stamps);
	diff_merge(&dst->diff, &src->diff);
	for (unsigned int k = 0; k < BY_REFILL_NR; k++)
		hist_merge(dst->refill[k], src->refill[k]);
	dst->requests += src->requests;
	dst->entry_twice += src->entry_twice;
	dst->exit_no_entry += src->exit_no_entry;
	dst->entry_no_exit += src->entry_no_exit;
	dst->across_discard += src->across_discard;
	dst->no_vtid += src->no_vtid;
	dst->no_timestamp += src->no_timestamp;
	sums_merge(&dst->sums, &src->sums);
}

/* The calls of a group: its exit events' latency_ns values. */
static uint64_t group_calls(const struct group *g)
{
	return g->field.hist->count;
}

static uint64_t lat_pct(const struct lat_stats *s, double p)
{
	/* the bucket's middle, within min..max (the same as s's) */
	return hist_percentile(s->hist, p);
}

static double per_call(uint64_t count, uint64_t calls)
{
	return calls ? (double)count / (double)calls : 0.0;
}

static double us(double ns)
{
	return ns / 1000.0;
}

/* checks */

struct diff_verdict {
	bool checked;
	bool ok;
	int64_t median;
	double mean;
	uint64_t tail;		/* calls with d > 10 T */
};

static uint64_t diff_count_above(const struct diff_stats *d, int64_t limit)
{
	uint64_t n = 0;
	unsigned int i;

	if (limit < 0)
		limit = 0;
	for (i = 0; i < HIST_NR; i++)
		if (d->pos->buckets[i] && hist_bucket_value(i) > (uint64_t)limit)
			n += d->pos->buckets[i];
	return n;
}

static struct diff_verdict diff_check(const struct group *g, uint64_t tp_cost)
{
	struct diff_verdict v = { 0 };
	int64_t hi = 2 * (int64_t)tp_cost;

	if (!g->diff.n)
		return v;
	v.checked = true;
	v.median = diff_percentile(&g->diff, 50);
	v.mean = diff_mean(&g->diff);
	v.tail = diff_count_above(&g->diff, 10 * (int64_t)tp_cost);
	v.ok = v.median >= -DIFF_NEG_SLACK_NS && v.median <= hi &&
	       v.mean >= -DIFF_NEG_SLACK_NS && v.mean <= (double)hi;
	return v;
}

/*
 * A run recorded by its summaries alone (lttng enable-event --loglevel=
 * TRACE_INFO: run_start and run_end, no per-call event): its figures are
 * run_end's, and nothing is missing.
 */
static bool summaries_only(const struct group *g)
{
	return g->nr_ends && g->nr_ends >= g->nr_starts &&
	       !g->sums.entry.events && !group_calls(g);
}

static void group_warnings(struct warnings *w, const struct analysis *a,
			   const struct group *g, const char *who,
			   bool is_mode, uint64_t tp_cost)
{
	char c1[32], c2[32];
	uint64_t calls = group_calls(g);
	uint64_t discards = a->discarded_events.count +
			    a->discarded_packets.count +
			    a->discarded_events.unknown +
			    a->discarded_packets.unknown;

	if (is_mode) {
		struct diff_verdict v = diff_check(g, tp_cost);

		if (v.checked && !v.ok) {
			if (v.median < -DIFF_NEG_SLACK_NS ||
			    v.mean < -DIFF_NEG_SLACK_NS)
				warn(w, "%s: timestamps give shorter calls than latency_ns (median %+.3f us, mean %+.3f us per call): the entry/exit events do not bracket the measured region, or the clocks differ",
				     who, us((double)v.median), us(v.mean));
			else if (v.median > 2 * (int64_t)tp_cost)
				warn(w, "%s: timestamps - latency_ns is %+.3f us per call (median; mean %+.3f us), more than two tracepoints (2 x %.3f us) explain",
				     who, us((double)v.median), us(v.mean),
				     us((double)tp_cost));
			else
				warn(w, "%s: mean timestamps - latency_ns is %+.3f us per call, more than two tracepoints (2 x %.3f us) explain; the median call differs by %+.3f us and %s calls (%.3f%%) by more than %.3f us (a thread preempted between a tracepoint and rpcsim's clock read?)",
				     who, us(v.mean), us((double)tp_cost),
				     us((double)v.median),
				     fmt_thousands(c1, sizeof(c1), v.tail),
				     100.0 * per_call(v.tail, g->diff.n),
				     us(10.0 * (double)tp_cost));
		}
		if (g->entry_twice || g->exit_no_entry || g->entry_no_exit ||
		    g->across_discard)
			warn(w, "%s: unmatched svc_alloc_arg events: %" PRIu64 " entries without exit, %" PRIu64 " exits without entry, %" PRIu64 " entries twice in a row on one thread, %" PRIu64 " calls open across a discard (not timed by timestamps)%s",
			     who, g->entry_no_exit, g->exit_no_entry,
			     g->entry_twice, g->across_discard,
			     discards ? "; events were discarded" : "");
	}
	if (g->nr_starts && !g->nr_ends)
		warn(w, "%s: no run_end: the run did not finish inside the trace%s",
		     who, discards ? ", or its run_end event was discarded" : "");
	if (g->nr_ends && g->end.calls != calls && !summaries_only(g))
		warn(w, "%s: the trace has %s calls, rpcsim's run_end counted %s%s",
		     who, fmt_thousands(c1, sizeof(c1), calls),
		     fmt_thousands(c2, sizeof(c2), g->end.calls),
		     discards ? ": events were discarded" :
		     g->nr_ends < g->nr_starts ? ": some runs did not end" :
		     ": no discard was recorded; was the session started late or stopped early?");
	else if (g->nr_ends && g->end.latency_sum_ns != g->field.hist->sum &&
		 !summaries_only(g))
		warn(w, "%s: latency_ns sums to %" PRIu64 " ns in the trace but to %" PRIu64 " ns in run_end for the same number of calls",
		     who, g->field.hist->sum, g->end.latency_sum_ns);
	if (g->sums.entry.events && !calls)
		warn(w, "%s: %s svc_alloc_arg entries but no exit",
		     who, fmt_thousands(c1, sizeof(c1), g->sums.entry.events));
}

unsigned int find_incomplete(const struct analysis *a, char *first,
			     size_t len)
{
	char lab[64], c1[32], c2[32];
	unsigned int n = 0;

	first[0] = '\0';
	/* A discard record explains missing events: warned about, not this. */
	if (a->discarded_events.count || a->discarded_packets.count ||
	    a->discarded_events.unknown || a->discarded_packets.unknown)
		return 0;
	for (unsigned int i = 0; i < a->nr_groups; i++) {
		const struct group *g = a->groups[i];
		const char *label;

		if (g->run == RUN_UNKNOWN || !g->nr_starts ||
		    summaries_only(g) ||
		    (g->nr_ends && g->end.calls <= group_calls(g) &&
		     g->nr_ends >= g->nr_starts))
			continue;
		if (n++)
			continue;
		label = mode_label(g->mode, lab, sizeof(lab));
		if (!g->nr_ends || g->nr_ends < g->nr_starts)
			snprintf(first, len, "%s run %" PRId64 " started "
				 "(run_start) but never ended (no run_end)",
				 label, g->run);
		else
			snprintf(first, len, "%s run %" PRId64 ": rpcsim's "
				 "run_end counted %s calls, the trace holds %s",
				 label, g->run,
				 fmt_thousands(c1, sizeof(c1), g->end.calls),
				 fmt_thousands(c2, sizeof(c2), group_calls(g)));
	}
	return n;
}

/* text */

static void text_lat(FILE *out, const char *title, const struct lat_stats *s)
{
	unsigned int i;

	fprintf(out, "  %-12s mean %.3f us, stddev %.3f us, min %.3f",
		title, us(lat_mean(s)), us(lat_stddev(s)),
		us((double)s->hist->min));
	for (i = 0; i < NR_PCTS; i++)
		fprintf(out, ", %s %.3f", pct_names[i],
			us((double)lat_pct(s, pcts[i])));
	fprintf(out, ", max %.3f us\n", us((double)s->hist->max));
}

/*
 * What a group without a per-call event (svc_alloc_arg_exit) holds:
 * "1 run_start, 1 run_end (500 calls, 0.800 us per call in-process)".
 */
static const char *no_call_events(char *buf, size_t len, const struct group *g)
{
	char c1[32], c2[32];
	size_t n;

	snprintf(buf, len, "%u run_start, %u run_end", g->nr_starts,
		 g->nr_ends);
	n = strlen(buf);
	if (g->nr_ends && g->end.calls)
		snprintf(buf + n, len - n, " (%s calls, %.3f us per call "
			 "in-process)", fmt_thousands(c1, sizeof(c1),
						      g->end.calls),
			 us(per_call(g->end.latency_sum_ns, g->end.calls)));
	n = strlen(buf);
	if (g->sums.entry.events || g->sums.err.events)
		snprintf(buf + n, len - n, ", %s svc_alloc_arg_entry, %s "
			 "svc_alloc_arg_err",
			 fmt_thousands(c1, sizeof(c1), g->sums.entry.events),
			 fmt_thousands(c2, sizeof(c2), g->sums.err.events));
	return buf;
}

/*
 * The seed's line: "Bulk array:   4.590 us per call over 517,442 calls";
 * without a call in the trace, what it holds instead (no mean of none).
 */
static const char *summary_line(char *buf, size_t len, const char *label,
				const struct group *g)
{
	char lab[64], cnt[32], held[192];

	snprintf(lab, sizeof(lab), "%s:", label);
	if (!group_calls(g))
		snprintf(buf, len, "%-12s no per-call event in the trace "
			 "(svc_alloc_arg_exit): it holds %s", lab,
			 no_call_events(held, sizeof(held), g));
	else
		/* "%-12s %6.3f": the seed's columns up to 99.999 us,
		 * and a space after the label at any width. */
		snprintf(buf, len, "%-12s %6.3f us per call over %s calls", lab,
			 us(lat_mean(&g->field)),
			 fmt_thousands(cnt, sizeof(cnt), group_calls(g)));
	return buf;
}

/* " name N" for each non-zero count of an enumeration, then "other". */
static void text_counts(FILE *out, const uint64_t *n, enum member_type t)
{
	const char *const *labels = schema_enum_labels(t);
	unsigned int i, nr = schema_enum_count(t);
	char c[32];

	const char *sep = " ";

	for (i = 0; i <= nr; i++)
		if (n[i]) {
			fprintf(out, "%s%s %s", sep, i < nr ? labels[i] :
				"other", fmt_thousands(c, sizeof(c), n[i]));
			sep = ", ";
		}
}

/*
 * The fields of entry, err, request, svc_tcp_recv_short and
 * mm_page_alloc_bulk events.
 */
static void text_sums(FILE *out, const struct group *g)
{
	const struct field_sums *s = &g->sums;
	const struct bulk_sums *bk = &s->bulk;
	uint64_t reqs = 0;
	unsigned int i;
	char c1[32], c2[32], c3[32];

	if (s->entry.slots)
		fprintf(out, "  %-12s %.2f NULL slots of %.2f per call\n",
			"holes:", per_call(s->entry.holes, s->entry.events),
			per_call(s->entry.slots, s->entry.events));
	if (s->err.events)
		fprintf(out, "  %-12s %s pages asked, %s got, over %s "
			"svc_alloc_arg_err\n", "stalls:",
			fmt_thousands(c1, sizeof(c1), s->err.requested),
			fmt_thousands(c2, sizeof(c2), s->err.allocated),
			fmt_thousands(c3, sizeof(c3), s->err.events));
	for (i = 0; i <= NR_OPS; i++)
		reqs += s->request.op[i];
	if (reqs) {
		fprintf(out, "  %-12s %s:", "requests:",
			fmt_thousands(c1, sizeof(c1), reqs));
		text_counts(out, s->request.op, MT_ENUM_OP);
		fprintf(out, "; %.2f pages, %.1f KiB per request\n",
			per_call(s->request.pages, reqs),
			per_call(s->request.bytes, reqs) / 1024.0);
	}
	if (s->recv_short.events) {
		fprintf(out, "  %-12s %s svc_tcp_recv_short: %.1f KiB of "
			"%.1f KiB in hand per short read", "short reads:",
			fmt_thousands(c1, sizeof(c1), s->recv_short.events),
			per_call(s->recv_short.received,
				 s->recv_short.events) / 1024.0,
			per_call(s->recv_short.expected,
				 s->recv_short.events) / 1024.0);
		if (g->nr_ends)
			fprintf(out, " (run_end short_reads %s)",
				fmt_thousands(c2, sizeof(c2),
					      g->end.short_reads));
		fputc('\n', out);
	}
	if (bk->calls) {
		fprintf(out, "  %-12s %s: %.2f pages asked, %.2f populated, "
			"%.2f allocated per bulk call;", "bulk calls:",
			fmt_thousands(c1, sizeof(c1), bk->calls),
			per_call(bk->requested, bk->calls),
			per_call(bk->populated, bk->calls),
			per_call(bk->allocated, bk->calls));
		text_counts(out, bk->api, MT_ENUM_BULK_API);
		fprintf(out, "; fallback");
		text_counts(out, bk->fallback, MT_ENUM_FALLBACK);
		fputc('\n', out);
	}
}

static void text_group(FILE *out, const struct analysis *a,
		       const struct group *g, uint64_t tp_cost)
{
	char c1[32], c2[32];
	unsigned int i;

	if (group_calls(g)) {
		text_lat(out, "latency_ns:", &g->field);
		/* rpcsim's line, in its words (common/by_refill.h) */
		by_refill_text(out, g->refill[BY_REFILL_ONE_PAGE],
			       g->refill[BY_REFILL_MORE_PAGES]);
	}
	if (g->stamps.hist->count) {
		struct diff_verdict v = diff_check(g, tp_cost);

		text_lat(out, "timestamps:", &g->stamps);
		fprintf(out, "  %-12s %+.3f us mean, %+.3f us median, min %+.3f, max %+.3f us over %s paired calls (%s: expected %+.3f..%+.3f us)\n",
			"ts - field:", us(v.mean), us((double)v.median),
			us((double)g->diff.min), us((double)g->diff.max),
			fmt_thousands(c1, sizeof(c1), g->diff.n),
			v.ok ? "ok" : "WARNING",
			-us(DIFF_NEG_SLACK_NS), us(2.0 * (double)tp_cost));
	} else if (!a->have_vtid && group_calls(g)) {
		fprintf(out, "  %-12s skipped: no vtid context in the trace\n",
			"timestamps:");
	}
	if (g->nr_ends)
		fprintf(out, "  %-12s %.3f us per call over %s calls (in-process)%s\n",
			"run_end:",
			us(per_call(g->end.latency_sum_ns, g->end.calls)),
			fmt_thousands(c1, sizeof(c1), g->end.calls),
			g->end.calls == group_calls(g) ? "" :
			summaries_only(g) ? "  (no per-call event recorded)" :
			"  CALLS DIFFER FROM THE TRACE");
	if (!group_calls(g))
		goto sums;
	fprintf(out, "  %-12s %.2f pages allocated, %.3f allocator calls, %.4f no-progress retries (%s svc_alloc_arg_err",
		"per call:", per_call(g->sums.exit.allocated, group_calls(g)),
		per_call(g->sums.exit.alloc_calls, group_calls(g)),
		per_call(g->sums.err.events, group_calls(g)),
		fmt_thousands(c1, sizeof(c1), g->sums.err.events));
	if (g->nr_ends)
		fprintf(out, ", run_end no_progress %s",
			fmt_thousands(c2, sizeof(c2), g->end.no_progress));
	fprintf(out, ")\n");
sums:
	text_sums(out, g);
	if (g->entry_twice || g->exit_no_entry || g->entry_no_exit ||
	    g->across_discard)
		fprintf(out, "  %-12s %" PRIu64 " entries without exit, %" PRIu64 " exits without entry, %" PRIu64 " entries twice in a row, %" PRIu64 " calls open across a discard (not timed)\n",
			"unmatched:", g->entry_no_exit, g->exit_no_entry,
			g->entry_twice, g->across_discard);
	for (i = 0; i < a->nr_pp; i++)
		if (g->pp[i])
			break;
	if (i < a->nr_pp) {
		fprintf(out, "  %-12s", "pagepool:");
		for (i = 0; i < a->nr_pp; i++)
			if (g->pp[i])
				fprintf(out, " %s %.3f", a->pp_names[i],
					per_call(g->pp[i], group_calls(g)));
		fprintf(out, " per call\n");
	}
}

/* @left_out: the mode's figures leave this group out (runs_only()). */
static void text_run_line(FILE *out, const struct group *g, bool left_out)
{
	char c1[32], c2[32], title[32], tr[48] = "";

	if (g->cfg.tcp_read)
		snprintf(tr, sizeof(tr), ", tcp_read %" PRIu64,
			 g->cfg.tcp_read);
	if (g->run == RUN_UNKNOWN)
		snprintf(title, sizeof(title), "no run:");
	else
		snprintf(title, sizeof(title), "run %" PRId64 ":", g->run);
	fprintf(out, "  %-12s", title);
	if (group_calls(g))
		fprintf(out, " %.3f us per call over %s calls",
			us(lat_mean(&g->field)),
			fmt_thousands(c1, sizeof(c1), group_calls(g)));
	else
		fprintf(out, " no per-call event");
	if (g->stamps.hist->count)
		fprintf(out, ", timestamps %.3f us", us(lat_mean(&g->stamps)));
	if (g->nr_ends)
		fprintf(out, "; run_end %.3f us over %s calls",
			us(per_call(g->end.latency_sum_ns, g->end.calls)),
			fmt_thousands(c2, sizeof(c2), g->end.calls));
	if (g->nr_starts)
		fprintf(out, " (threads %" PRIu64 ", slots %" PRIu64 ", io_size %" PRIu64 ", completion %s, pcp %" PRIu64 "/%" PRIu64 ", seed %" PRIu64 "%s%s%s%s%s)",
			g->cfg.threads, g->cfg.slots, g->cfg.io_size,
			g->cfg.completion ? g->cfg.completion : "?",
			g->cfg.pcp_batch, g->cfg.pcp_high, g->cfg.seed,
			g->cfg.backend ? ", backend " : "",
			g->cfg.backend ? g->cfg.backend : "",
			g->cfg.contract ? ", contract " : "",
			g->cfg.contract ? g->cfg.contract : "", tr);
	if (left_out)
		fprintf(out, "; left out of the figures above: calls outside "
			"the runs (rpcsim --warmup's, before run_start)");
	fputc('\n', out);
}

/* JSON */

static void json_lat(struct json *j, const char *key, const struct lat_stats *s)
{
	unsigned int i;

	if (!json_object_or_null(j, key, s->hist->count))
		return;
	json_uint(j, RK(analyze_latency, count), s->hist->count);
	json_double(j, RK(analyze_latency, mean_ns), lat_mean(s), 3);
	json_double(j, RK(analyze_latency, stddev_ns), lat_stddev(s), 3);
	json_uint(j, RK(analyze_latency, min_ns), s->hist->min);
	for (i = 0; i < NR_PCTS; i++)
		json_uint(j, pct_keys[i], lat_pct(s, pcts[i]));
	json_uint(j, RK(analyze_latency, p99_99_ns), lat_pct(s, 99.99));
	json_uint(j, RK(analyze_latency, max_ns), s->hist->max);
	json_uint(j, RK(analyze_latency, sum_ns), s->hist->sum);
	hist_json(j, RK(analyze_latency, histogram), s->hist);
	json_object_end(j);
}

/* {"label": count, ...} of an enumeration, "other" when not zero. */
static void json_counts(struct json *j, const char *key, const uint64_t *n,
			enum member_type t)
{
	const char *const *labels = schema_enum_labels(t);
	unsigned int i, nr = schema_enum_count(t);

	json_object_begin(j, key);
	for (i = 0; i < nr; i++)
		json_uint(j, labels[i], n[i]);
	if (n[nr])
		json_uint(j, RK(analyze_counts, other), n[nr]);
	json_object_end(j);
}

/*
 * The fields of each event, summed (the report keys of the schema:
 * tracepoints/trace_schema.h), an object per event: the counts of the
 * event's struct in struct field_sums by the schema's member lists, the
 * exit and request events (counted in other ways) and the counts by
 * enumeration label one by one.
 */
static void json_sums(struct json *j, const struct group *g)
{
	const struct field_sums *sums = &g->sums;
	uint64_t reqs = 0;
	unsigned int i;

	for (i = 0; i <= NR_OPS; i++)
		reqs += sums->request.op[i];
	json_object_begin(j, RK(analyze_group, entry));
	RESULT_JSON_FIELDS(RESULT_ANALYZE_ENTRY, struct entry_sums,
			   &sums->entry);
	json_object_end(j);
	json_object_begin(j, RK(analyze_group, exit));
	json_uint(j, RK(analyze_exit, events), group_calls(g));
	RESULT_JSON_FIELDS(RESULT_ANALYZE_EXIT_SUMS, struct exit_sums,
			   &sums->exit);
	json_object_end(j);
	json_object_begin(j, RK(analyze_group, err));
	RESULT_JSON_FIELDS(RESULT_ANALYZE_ERR, struct err_sums, &sums->err);
	json_object_end(j);
	json_object_begin(j, RK(analyze_group, request));
	json_uint(j, RK(analyze_request, events), reqs);
	json_counts(j, RK(analyze_request, op), sums->request.op, MT_ENUM_OP);
	RESULT_JSON_FIELDS(RESULT_ANALYZE_REQUEST_SUMS, struct request_sums,
			   &sums->request);
	json_object_end(j);
	json_object_begin(j, RK(analyze_group, recv_short));
	RESULT_JSON_FIELDS(RESULT_ANALYZE_RECV_SHORT, struct recv_short_sums,
			   &sums->recv_short);
	json_object_end(j);
	json_object_begin(j, RK(analyze_group, bulk));
	RESULT_JSON_FIELDS(RESULT_ANALYZE_BULK_SUMS, struct bulk_sums,
			   &sums->bulk);
	json_counts(j, RK(analyze_bulk, api), sums->bulk.api,
		    MT_ENUM_BULK_API);
	json_counts(j, RK(analyze_bulk, fallback), sums->bulk.fallback,
		    MT_ENUM_FALLBACK);
	json_object_end(j);
}

/* A merged mode's identity (is_mode), or a run's. */
static void json_group_id(struct json *j, const struct group *g, bool is_mode)
{
	const char *mode = is_mode ? RK(analyze_mode, mode) :
				     RK(analyze_run, mode);

	if (g->mode == MODE_UNKNOWN)
		json_null(j, mode);
	else
		json_uint(j, mode, g->mode);
	if (is_mode) {
		char lab[64], line[320];
		const char *label = mode_label(g->mode, lab, sizeof(lab));

		json_string(j, RK(analyze_mode, label), label);
		json_string(j, RK(analyze_mode, summary),
			    summary_line(line, sizeof(line), label, g));
		if (g->proc->pid == PID_UNKNOWN)
			json_null(j, RK(analyze_mode, pid));
		else
			json_int(j, RK(analyze_mode, pid), g->proc->pid);
		if (g->proc->procname)
			json_string(j, RK(analyze_mode, procname),
				    g->proc->procname);
		else
			json_null(j, RK(analyze_mode, procname));
		json_uint(j, RK(analyze_mode, calls_outside_runs),
			  g->calls_outside);
	} else {
		if (g->run == RUN_UNKNOWN)
			json_null(j, RK(analyze_run, run));
		else
			json_int(j, RK(analyze_run, run), g->run);
	}
}

/* "difference": timestamps - latency_ns per paired call, and the check. */
static void json_difference(struct json *j, const struct group *g,
			    uint64_t tp_cost)
{
	struct diff_verdict v;

	if (!json_object_or_null(j, RK(analyze_group, difference), g->diff.n))
		return;
	v = diff_check(g, tp_cost);
	json_uint(j, RK(analyze_difference, count), g->diff.n);
	json_double(j, RK(analyze_difference, mean_ns), v.mean, 3);
	json_int(j, RK(analyze_difference, median_ns), v.median);
	json_int(j, RK(analyze_difference, min_ns), g->diff.min);
	json_int(j, RK(analyze_difference, max_ns), g->diff.max);
	json_uint(j, RK(analyze_difference, negative), g->diff.n_neg);
	json_int(j, RK(analyze_difference, expected_min_ns),
		 -DIFF_NEG_SLACK_NS);
	json_uint(j, RK(analyze_difference, expected_max_ns), 2 * tp_cost);
	json_bool(j, RK(analyze_difference, ok), v.ok);
	json_object_end(j);
}

/* "run_end": the sums of rpcsim's run_end events. */
static void json_run_end(struct json *j, const struct group *g)
{
	if (!json_object_or_null(j, RK(analyze_group, run_end), g->nr_ends))
		return;
	json_uint(j, RK(analyze_run_end, events), g->nr_ends);
	json_uint(j, RK(analyze_run_end, calls), g->end.calls);
	json_uint(j, RK(analyze_run_end, latency_sum_ns),
		  g->end.latency_sum_ns);
	json_double(j, RK(analyze_run_end, mean_ns),
		    per_call(g->end.latency_sum_ns, g->end.calls), 3);
	json_uint(j, RK(analyze_run_end, pages), g->end.pages);
	json_uint(j, RK(analyze_run_end, requests), g->end.requests);
	json_uint(j, RK(analyze_run_end, no_progress), g->end.no_progress);
	json_uint(j, RK(analyze_run_end, short_reads), g->end.short_reads);
	json_bool(j, RK(analyze_run_end, calls_match),
		  g->end.calls == group_calls(g));
	json_object_end(j);
}

/* Pages, allocator calls, stalls and pagepool events per call. */
static void json_per_call(struct json *j, const struct analysis *a,
			  const struct group *g)
{
	uint64_t calls = group_calls(g);

	json_double(j, RK(analyze_group, pages_per_call),
		    per_call(g->sums.exit.allocated, calls), 4);
	json_double(j, RK(analyze_group, alloc_calls_per_call),
		    per_call(g->sums.exit.alloc_calls, calls), 4);
	json_uint(j, RK(analyze_group, svc_alloc_arg_err),
		  g->sums.err.events);
	json_double(j, RK(analyze_group, svc_alloc_arg_err_per_call),
		    per_call(g->sums.err.events, calls), 6);
	json_uint(j, RK(analyze_group, retries), g->sums.exit.retries);
	json_uint(j, RK(analyze_group, requests), g->requests);
	json_object_begin(j, RK(analyze_group, pagepool_per_call));
	for (unsigned int i = 0; i < a->nr_pp; i++)
		if (g->pp[i])
			json_double(j, a->pp_names[i],
				    per_call(g->pp[i], calls), 6);
	json_object_end(j);
}

/* "pairing": how the entry and exit events paired. */
static void json_pairing(struct json *j, const struct group *g)
{
	const struct group *s = g;	/* RESULT_JSON_FIELD's */

	json_object_begin(j, RK(analyze_group, pairing));
	json_uint(j, RK(analyze_pairing, entries), g->sums.entry.events);
	json_uint(j, RK(analyze_pairing, paired), g->stamps.hist->count);
	RESULT_ANALYZE_UNPAIRED(RESULT_JSON_FIELD)
	json_object_end(j);
}

/* A run's "config": its run_start's fields, null without one. */
static void json_config(struct json *j, const struct group *g)
{
	const struct run_config *s = &g->cfg;

	if (!json_object_or_null(j, RK(analyze_run, config), g->nr_starts))
		return;
	if (s->pid == PID_UNKNOWN)
		json_null(j, RK(analyze_config, pid));
	else
		json_int(j, RK(analyze_config, pid), s->pid);
	RESULT_ANALYZE_RUN_START(RESULT_JSON_FIELD)
	json_object_end(j);
}

/* A merged mode (@is_mode) or one of its runs, as JSON members. */
static void json_group(struct json *j, const struct analysis *a,
		       const struct group *g, uint64_t tp_cost, bool is_mode)
{
	json_group_id(j, g, is_mode);
	json_uint(j, RK(analyze_group, calls), group_calls(g));
	if (group_calls(g))
		json_double(j, RK(analyze_group, mean_us),
			    us(lat_mean(&g->field)), 3);
	else
		json_null(j, RK(analyze_group, mean_us));
	json_lat(j, RK(analyze_group, latency_ns), &g->field);
	by_refill_json(j, RK(analyze_group, by_refill),
		       g->refill[BY_REFILL_ONE_PAGE],
		       g->refill[BY_REFILL_MORE_PAGES]);
	json_lat(j, RK(analyze_group, timestamps), &g->stamps);
	json_difference(j, g, tp_cost);
	json_run_end(j, g);
	json_per_call(j, a, g);
	json_sums(j, g);
	json_pairing(j, g);
	if (!is_mode)
		json_config(j, g);
}

/* Whether any svc_alloc_arg event was recorded. */
static bool has_calls(const struct analysis *a)
{
	for (unsigned int i = 0; i < a->nr_groups; i++) {
		const struct group *g = a->groups[i];

		if (g->sums.entry.events || group_calls(g))
			return true;
	}
	return false;
}

/* "pid 1234, rpcsim", "pid 1234" or "unknown process" */
static const char *proc_label(const struct process *p, char *buf, size_t len)
{
	if (p->pid == PID_UNKNOWN)
		snprintf(buf, len, "unknown process");
	else if (p->procname)
		snprintf(buf, len, "pid %" PRId64 ", %s", p->pid, p->procname);
	else
		snprintf(buf, len, "pid %" PRId64, p->pid);
	return buf;
}

/*
 * rpcsim numbers a process's runs from 1 (run_start's run_seq): a process
 * whose first run in the trace has a higher number lost the runs before
 * it.  Those are not partly there, so nothing else catches them.
 */
static void missing_runs_warnings(struct warnings *w,
				  const struct analysis *a)
{
	char who[96], lab[64];

	for (unsigned int i = 0; i < a->nr_procs; i++) {
		const struct process *p = a->procs[i];
		const struct group *first = NULL;

		for (unsigned int k = 0; k < a->nr_groups; k++) {
			const struct group *g = a->groups[k];

			if (g->proc == p && g->nr_starts && g->cfg.run_seq &&
			    (!first || g->cfg.run_seq < first->cfg.run_seq))
				first = g;
		}
		if (!first || first->cfg.run_seq <= 1)
			continue;
		/* as the report names a process; no pid: rpcsim's runs */
		if (p->pid == PID_UNKNOWN)
			snprintf(who, sizeof(who), "rpcsim");
		else
			proc_label(p, who, sizeof(who));
		warn(w, "%s: the trace starts at its run %" PRIu64 " (%s run %" PRId64 "): the %" PRIu64 " run%s before it %s not in the trace (the session started after %s, or an overwrite-mode channel dropped %s)",
		     who, first->cfg.run_seq,
		     mode_label(first->mode, lab, sizeof(lab)), first->run,
		     first->cfg.run_seq - 1,
		     first->cfg.run_seq > 2 ? "s" : "",
		     first->cfg.run_seq > 2 ? "are" : "is",
		     first->cfg.run_seq > 2 ? "them" : "it",
		     first->cfg.run_seq > 2 ? "them" : "it");
	}
}

static void global_warnings(struct warnings *w, const struct analysis *a)
{
	char c1[32];

	if (a->discarded_events.count || a->discarded_events.unknown)
		warn(w, "the tracer discarded %s events%s (%" PRIu64 " discard records): call counts and pairing are incomplete; record with bigger sub-buffers (lttng enable-channel --subbuf-size/--num-subbuf) or a blocking channel",
		     fmt_thousands(c1, sizeof(c1), a->discarded_events.count),
		     a->discarded_events.unknown ? " or more (some counts unknown)" : "",
		     a->discarded_events.msgs);
	if (a->discarded_packets.count || a->discarded_packets.unknown)
		warn(w, "%s packets were lost%s (%" PRIu64 " records): call counts and pairing are incomplete",
		     fmt_thousands(c1, sizeof(c1), a->discarded_packets.count),
		     a->discarded_packets.unknown ? " or more (some counts unknown)" : "",
		     a->discarded_packets.msgs);
	if (!a->have_vtid && has_calls(a))
		warn(w, "no vtid context in the trace: latency from timestamps skipped (record with: lttng add-context -u -t vtid)");
	if (a->bad_schema)
		warn(w, "%s rpcsim events lack fields this tool reads (another rpcsim version?): ignored",
		     fmt_thousands(c1, sizeof(c1), a->bad_schema));
	if (a->run_start_twice)
		warn(w, "%" PRIu64 " run_start events repeat a (mode, run) a process already ran: those runs are merged",
		     a->run_start_twice);
	if (a->mixed_pids)
		warn(w, "runs of several processes (run_start pids differ) share streams without a vpid context, so their events cannot be told apart and are reported as one process; record with: lttng add-context -u -t vpid -t procname");
	if (a->pp_overflow)
		warn(w, "more than %d pagepool event names: %" PRIu64 " events not broken down",
		     PP_EVENTS_MAX, a->pp_overflow);
	if (a->read_error)
		warn(w, "libbabeltrace2 stopped reading a stream early (%s): the trace is cut or corrupted, and only what it could read is reported",
		     a->read_error);
	missing_runs_warnings(w, a);
}

static int proc_cmp(const void *x, const void *y)
{
	const struct process *a = *(struct process *const *)x;
	const struct process *b = *(struct process *const *)y;

	return a->pid < b->pid ? -1 : a->pid > b->pid;
}

static bool selected(const struct report_options *o, const struct process *p)
{
	return o->pid == PID_UNKNOWN || p->pid == o->pid;
}

/* The processes that have a group and that --pid selects. */
static unsigned int count_selected(const struct analysis *a,
				   const struct report_options *o)
{
	unsigned int i, k, n = 0;

	for (i = 0; i < a->nr_procs; i++) {
		if (!selected(o, a->procs[i]))
			continue;
		for (k = 0; k < a->nr_groups; k++)
			if (a->groups[k]->proc == a->procs[i])
				break;
		n += k < a->nr_groups;
	}
	return n;
}

bool report_has_pid(const struct analysis *a, int64_t pid, char *have,
		    size_t len)
{
	unsigned int i;
	size_t o = 0;

	have[0] = '\0';
	for (i = 0; i < a->nr_procs; i++) {
		if (a->procs[i]->pid == pid)
			return true;
		if (a->procs[i]->pid != PID_UNKNOWN && o < len)
			o += (size_t)snprintf(have + o, len - o, "%s%" PRId64,
					      o ? ", " : "", a->procs[i]->pid);
	}
	return false;
}

static struct group *group_new_merged(void)
{
	struct group *m = xcalloc(1, sizeof(*m));

	if (group_stats_init(m))
		tool_die(1, "out of memory");
	return m;
}

static void group_free_merged(struct group *m)
{
	group_stats_free(m);
	free(m);
}

/*
 * Whether the calls of groups @i to @k - 1 (one process and mode) outside
 * its runs stay out of the mode's figures: when every run was seen whole,
 * from its run_start to its run_end, and one made calls, the calls outside
 * them are no run's: rpcsim --warmup's untimed calls come before
 * run_start, and rpcsim's own figures leave them out.  A run without its
 * run_start (a session started late) has its calls outside: then every
 * call counts, as a mode without runs has all of its counted.  So does a
 * trace without timestamps, whose streams are read one after the other:
 * which call came before which run_start, it cannot say.
 */
static bool runs_only(const struct analysis *a, unsigned int i,
		      unsigned int k)
{
	bool outside = false, calls = false;

	for (unsigned int r = i; r < k; r++) {
		const struct group *g = a->groups[r];

		if (g->no_timestamp)
			return false;
		if (g->run == RUN_UNKNOWN) {
			outside = true;
			continue;
		}
		if (!g->nr_starts || !g->nr_ends)
			return false;
		calls |= group_calls(g) != 0;
	}
	return outside && calls;
}

/*
 * The groups from @i on of one process and mode, its runs (and the calls
 * outside them, unless runs_only()), merged into a new group
 * (group_free_merged()); the first group past them in *@end.
 */
static struct group *merge_mode(const struct analysis *a, unsigned int i,
				unsigned int *end)
{
	struct group *m = group_new_merged();
	unsigned int k;
	bool only;

	m->proc = a->groups[i]->proc;
	m->mode = a->groups[i]->mode;
	m->run = RUN_UNKNOWN;
	for (k = i; k < a->nr_groups && a->groups[k]->mode == m->mode &&
	     a->groups[k]->proc == m->proc; k++)
		;
	only = runs_only(a, i, k);
	for (unsigned int r = i; r < k; r++) {
		const struct group *g = a->groups[r];

		if (only && g->run == RUN_UNKNOWN) {
			m->calls_outside += group_calls(g);
			continue;
		}
		group_merge(m, g);
		for (unsigned int p = 0; p < a->nr_pp; p++)
			m->pp[p] += g->pp[p];
	}
	*end = k;
	return m;
}

/* What report() carries from one mode to the next. */
struct report_state {
	const struct analysis *a;
	const struct report_options *o;
	FILE *out;
	struct json j;			/* with o->json */
	struct warnings w;
	unsigned int nr_procs;		/* processes selected */
	const struct process *shown;	/* text: its "Process" line printed */
};

/*
 * What the tracer lost by one kind of discard message: the count, the
 * messages (@records) and those without a count (@unknown).
 */
static void json_loss(struct json *j, const struct loss *l, const char *count,
		      const char *records, const char *unknown)
{
	json_uint(j, count, l->count);
	json_uint(j, records, l->msgs);
	json_uint(j, unknown, l->unknown);
}

/* The JSON document up to its "modes" array, which it opens. */
static void json_head(struct json *j, const struct analysis *a,
		      const struct report_options *o)
{
	unsigned int i;

	json_object_begin(j, NULL);
	json_string(j, RK(analyze_doc, tool), "rpcsim-analyze");
	json_array_begin(j, RK(analyze_doc, traces));
	for (i = 0; i < a->nr_traces; i++)
		json_string(j, NULL, a->traces[i]);
	json_array_end(j);
	json_uint(j, RK(analyze_doc, events), a->events);
	json_uint(j, RK(analyze_doc, rpcsim_events), a->rpcsim_events);
	json_uint(j, RK(analyze_doc, pagepool_events), a->pagepool_events);
	json_loss(j, &a->discarded_events, RK(analyze_doc, discarded_events),
		  RK(analyze_doc, discarded_events_records),
		  RK(analyze_doc, discarded_events_unknown_count));
	json_loss(j, &a->discarded_packets, RK(analyze_doc, discarded_packets),
		  RK(analyze_doc, discarded_packets_records),
		  RK(analyze_doc, discarded_packets_unknown_count));
	json_bool(j, RK(analyze_doc, vtid), a->have_vtid);
	json_uint(j, RK(analyze_doc, tracepoint_cost_ns), o->tp_cost_ns);
	json_array_begin(j, RK(analyze_doc, processes));
	for (i = 0; i < a->nr_procs; i++) {
		if (!selected(o, a->procs[i]))
			continue;
		json_object_begin(j, NULL);
		if (a->procs[i]->pid == PID_UNKNOWN)
			json_null(j, RK(analyze_process, pid));
		else
			json_int(j, RK(analyze_process, pid), a->procs[i]->pid);
		json_string(j, RK(analyze_process, procname),
			    a->procs[i]->procname);
		json_object_end(j);
	}
	json_array_end(j);
	json_array_begin(j, RK(analyze_doc, modes));
}

/* The text report's first line: what was read. */
static void text_head(FILE *out, const struct analysis *a)
{
	char c1[32], c2[32], c3[32], c4[32], c5[32], c6[32];

	fprintf(out, "%s trace%s, %s events (%s rpcsim, %s pagepool), discarded: %s events, %s packets\n",
		fmt_thousands(c1, sizeof(c1), a->nr_traces),
		a->nr_traces == 1 ? "" : "s",
		fmt_thousands(c2, sizeof(c2), a->events),
		fmt_thousands(c3, sizeof(c3), a->rpcsim_events),
		fmt_thousands(c4, sizeof(c4), a->pagepool_events),
		fmt_thousands(c5, sizeof(c5), a->discarded_events.count),
		fmt_thousands(c6, sizeof(c6), a->discarded_packets.count));
}

/*
 * The warnings of mode @m (@label) and, when it has several, of each of
 * its runs, groups @i to @k - 1.
 */
static void mode_warnings(struct report_state *st, const struct group *m,
			  const char *label, unsigned int i, unsigned int k)
{
	const struct analysis *a = st->a;
	char who[200];

	group_warnings(&st->w, a, m, label, true, st->o->tp_cost_ns);
	for (unsigned int r = i; r < k && k - i > 1; r++) {
		const struct group *g = a->groups[r];

		if (g->run == RUN_UNKNOWN)
			snprintf(who, sizeof(who), "%s outside runs", label);
		else
			snprintf(who, sizeof(who), "%s run %" PRId64, label,
				 g->run);
		group_warnings(&st->w, a, g, who, false, st->o->tp_cost_ns);
	}
}

/* Mode @m, groups @i to @k - 1, as one object of the "modes" array. */
static void json_mode(struct report_state *st, const struct group *m,
		      unsigned int i, unsigned int k)
{
	struct json *j = &st->j;

	json_object_begin(j, NULL);
	json_group(j, st->a, m, st->o->tp_cost_ns, true);
	json_array_begin(j, RK(analyze_mode, runs));
	for (unsigned int r = i; r < k; r++) {
		json_object_begin(j, NULL);
		json_group(j, st->a, st->a->groups[r], st->o->tp_cost_ns,
			   false);
		json_object_end(j);
	}
	json_array_end(j);
	json_object_end(j);
}

/* Mode @m, groups @i to @k - 1, as text: its block, then its runs. */
static void text_mode(struct report_state *st, const struct group *m,
		      const char *label, unsigned int i, unsigned int k)
{
	const struct analysis *a = st->a;
	char line[320];

	fprintf(st->out, "%s\n", summary_line(line, sizeof(line), label, m));
	text_group(st->out, a, m, st->o->tp_cost_ns);
	if (k - i > 1 || a->groups[i]->nr_starts)
		for (unsigned int r = i; r < k; r++)
			text_run_line(st->out, a->groups[r],
				      m->calls_outside &&
				      a->groups[r]->run == RUN_UNKNOWN);
}

/*
 * The mode whose groups start at @i, if --pid selects its process: its
 * warnings, and its report.  Returns the first group past it.
 */
static unsigned int report_mode(struct report_state *st, unsigned int i)
{
	char lab[64], plab[160], pbuf[96];
	unsigned int k;
	struct group *m = merge_mode(st->a, i, &k);
	const char *label;

	if (!selected(st->o, m->proc)) {
		group_free_merged(m);
		return k;
	}
	label = mode_label(m->mode, lab, sizeof(lab));
	if (st->nr_procs > 1) {
		snprintf(plab, sizeof(plab), "%s (%s)", label,
			 proc_label(m->proc, pbuf, sizeof(pbuf)));
		label = plab;
		if (!st->o->json && m->proc != st->shown) {
			fprintf(st->out, "Process %s:\n", pbuf);
			st->shown = m->proc;
		}
	}
	mode_warnings(st, m, label, i, k);
	if (st->o->json)
		json_mode(st, m, i, k);
	else
		text_mode(st, m, label, i, k);
	group_free_merged(m);
	return k;
}

/* The JSON document's end: its "warnings" array. */
/* The document past "modes", which the caller closed. */
static void json_tail(struct json *j, const struct warnings *w)
{
	json_array_begin(j, RK(analyze_doc, warnings));
	for (unsigned int i = 0; i < w->n; i++)
		json_string(j, NULL, w->msg[i]);
	json_array_end(j);
	json_object_end(j);
	json_finish(j);
}

unsigned int report(struct analysis *a, const struct report_options *o,
		    FILE *out)
{
	struct report_state st = { .a = a, .o = o, .out = out };
	unsigned int i, nw;

	st.nr_procs = count_selected(a, o);
	/* a trace of page_pool events only has no group (NULL, 0) */
	if (a->nr_groups)
		qsort(a->groups, a->nr_groups, sizeof(*a->groups), group_cmp);
	if (a->nr_procs)
		qsort(a->procs, a->nr_procs, sizeof(*a->procs), proc_cmp);
	global_warnings(&st.w, a);
	ppool_warnings(a, o, warn_line, &st.w);
	if (o->json) {
		json_init(&st.j, out);
		json_head(&st.j, a, o);
	} else {
		text_head(out, a);
	}
	for (i = 0; i < a->nr_groups;)
		i = report_mode(&st, i);
	if (o->json) {
		json_array_end(&st.j);	/* "modes" */
		ppool_json(a, o, &st.j);
		json_tail(&st.j, &st.w);
	} else {
		ppool_text(a, o, out);
	}
	fflush(out);
	for (i = 0; i < st.w.n; i++) {
		if (!o->no_warnings)
			fprintf(stderr, "rpcsim-analyze: warning: %s\n",
				st.w.msg[i]);
		free(st.w.msg[i]);
	}
	free(st.w.msg);
	nw = st.w.n;
	return nw;
}

/*
 * Each mode, its runs merged, as rpcsim --plot draws it: latency_ns (what
 * rpcsim measured around the call), bucket by bucket, and pages per call.
 * Returns 0, or -1 when out of memory.
 */
int report_plot(struct analysis *a, const struct report_options *o,
		struct plot *p)
{
	unsigned int i, k, nr_procs = count_selected(a, o);
	int ret = 0;

	if (a->nr_groups)
		qsort(a->groups, a->nr_groups, sizeof(*a->groups), group_cmp);
	for (i = 0; i < a->nr_groups && !ret; i = k) {
		struct group *m = merge_mode(a, i, &k);
		struct plot_series *s;
		char lab[64], plab[160], pbuf[96], key[256], cnt[32];

		if (group_calls(m) && selected(o, m->proc)) {
			const char *label = mode_label(m->mode, lab,
						       sizeof(lab));

			if (nr_procs > 1) {
				snprintf(plab, sizeof(plab), "%s (%s)", label,
					 proc_label(m->proc, pbuf,
						    sizeof(pbuf)));
				label = plab;
			}
			snprintf(key, sizeof(key), "%s: %.3f us per call over "
				 "%s calls", label, us(lat_mean(&m->field)),
				 fmt_thousands(cnt, sizeof(cnt),
					       group_calls(m)));
			s = plot_add_series(p, label, key, lat_mean(&m->field),
					    per_call(m->sums.exit.allocated,
						     group_calls(m)));
			if (!s)
				ret = -1;
			for (unsigned int b = 0; s && b < HIST_NR; b++) {
				uint64_t v = hist_bucket_value(b);

				if (!m->field.hist->buckets[b])
					continue;
				/* the bucket's middle, within min..max */
				if (v < m->field.hist->min)
					v = m->field.hist->min;
				if (v > m->field.hist->max)
					v = m->field.hist->max;
				if (plot_series_add(s, v,
						    m->field.hist->buckets[b])) {
					ret = -1;
					break;
				}
			}
		}
		group_free_merged(m);
	}
	return ret;
}
