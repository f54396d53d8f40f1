/* SPDX-License-Identifier: MIT */
/*
 * rpcsim-analyze --live=URL: follow a live LTTng session (rpcsim
 * --trace-live) through babeltrace2's source.ctf.lttng-live, served by
 * the relay daemon's live port.
 *
 * The events are decoded and folded exactly as the on-disk reading does
 * them (decode.c, fold.c: the same struct analysis), so that once the
 * session ends (destroyed at the end of rpcsim's run, and every event
 * sent) the report printed is the one rpcsim-analyze prints for the trace
 * the relay daemon wrote.  While the session runs, once per interval, a
 * line gives each mode's per-call latency (latency_ns) over the calls
 * that ended in that interval, from the differences of the groups'
 * counts and sums since the previous line:
 *
 *   t=3s single 0.520 us (1,234 calls) list 0.610 us (2,000 calls)
 *
 * t is the wall-clock time since rpcsim-analyze connected.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "reader.h"

#define LIVE_MODES	3	/* single, list, array; others: not shown */

struct live {
	struct reader r;
	struct decoder d;
	const struct live_options *lo;
	struct timespec start;
	uint64_t next_ms;		/* when the next line is due */
	uint64_t count[LIVE_MODES];	/* as of the previous line */
	uint64_t sum[LIVE_MODES];
};

static uint64_t since_ms(const struct timespec *t0)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (uint64_t)(now.tv_sec - t0->tv_sec) * 1000 +
	       (uint64_t)((now.tv_nsec - t0->tv_nsec) / 1000000);
}

/*
 * One interval line on lo->out, if it is due (or @last, at the end, for
 * the calls no line has shown yet: the lines add up to the whole run).
 */
static void live_tick(struct live *l, bool last)
{
	static const char *const names[LIVE_MODES] = { "single", "list",
						       "array" };
	uint64_t count[LIVE_MODES] = { 0 }, sum[LIVE_MODES] = { 0 };
	uint64_t ms = since_ms(&l->start);
	const struct analysis *a = l->r.a;
	FILE *out = l->lo->out;
	bool any = false;
	unsigned int i;

	if (ms < l->next_ms && !last)
		return;
	l->next_ms = (ms / l->lo->interval_ms + 1) * l->lo->interval_ms;
	for (i = 0; i < a->nr_groups; i++) {
		const struct group *g = a->groups[i];

		if (g->mode < LIVE_MODES) {
			count[g->mode] += g->field.hist->count;
			sum[g->mode] += g->field.hist->sum;
		}
	}
	for (i = 0; i < LIVE_MODES; i++)
		any |= count[i] != l->count[i];
	if (!any && last)
		return;		/* the end: nothing new to say */
	fprintf(out, "t=%" PRIu64 "s", ms / 1000);
	for (i = 0; i < LIVE_MODES; i++) {
		uint64_t n = count[i] - l->count[i];
		char cnt[32];

		if (!n)
			continue;
		fprintf(out, " %s %.3f us (%s call%s)", names[i],
			(double)(sum[i] - l->sum[i]) / (double)n / 1000.0,
			fmt_thousands(cnt, sizeof(cnt), n), n == 1 ? "" : "s");
	}
	if (!any)
		fputs(" no call ended", out);
	fputc('\n', out);
	fflush(out);
	memcpy(l->count, count, sizeof(count));
	memcpy(l->sum, sum, sizeof(sum));
}

static void fold_live(void *data, const struct rec *rc)
{
	struct live *l = data;

	fold(&l->r, 0, rc);
}

static bt_graph_simple_sink_component_consume_func_status
consume_live(bt_message_iterator *it, void *data)
{
	struct live *l = data;
	bt_graph_simple_sink_component_consume_func_status st;

	st = consume_records(it, &l->d, fold_live, l);
	live_tick(l, false);
	return st;
}

/*
 * The cause libbabeltrace2 gave, as one line: "cannot follow URL: WHY".
 * Its lttng-live source says where it failed in several causes; the
 * oldest one says what was wrong (connection refused, ...).
 */
static void live_error(const char *url, const char *what, bool verbose)
{
	const bt_error *err = bt_current_thread_take_error();
	uint64_t n = err ? bt_error_get_cause_count(err) : 0, i;
	const char *root = n ? bt_error_cause_get_message(
		bt_error_borrow_cause_by_index(err, 0)) : NULL;

	/* the causes are oldest first: the first is the root */
	fprintf(stderr, "rpcsim-analyze: --live=%s: %s: %s%s\n", url, what,
		root ? root : "unknown error",
		verbose || n < 2 ? "" : " (-v tells more)");
	if (verbose)
		for (i = 0; i < n; i++)
			fprintf(stderr, "  caused by [%s]: %s\n",
				bt_error_cause_get_module_name(
					bt_error_borrow_cause_by_index(err, i)),
				bt_error_cause_get_message(
					bt_error_borrow_cause_by_index(err, i)));
	if (err)
		bt_error_release(err);
}

/*
 * The traces the session held, as the report counts and names them: the
 * name the lttng-live source gave each (HOST/SESSION/..., the relay
 * daemon's path), else the URL.  While the graph still holds them.
 */
static void live_traces(struct analysis *a, const struct decoder *d,
			const char *url)
{
	const bt_trace *t;
	unsigned int n = 0;

	while (decoder_trace(d, n))
		n++;
	if (!n)
		return;
	a->traces = xcalloc(n, sizeof(*a->traces));
	for (n = 0; (t = decoder_trace(d, n)); n++) {
		const char *name = bt_trace_get_name(t);

		a->traces[n] = xstrdup(name ? name : url);
	}
	a->nr_traces = n;
}

int read_live(struct analysis *a, const struct reader_options *o,
	      const struct live_options *lo)
{
	const bt_plugin *ctf = NULL;
	const bt_component_class_source *cls;
	const bt_component_source *src;
	const bt_component_sink *sink;
	bt_graph *graph = NULL;
	bt_value *params = NULL, *inputs;
	bool verbose = verbose_errors(o);
	struct live l;
	int ret = 1;

	memset(&l, 0, sizeof(l));
	reader_init(&l.r, a, 1);
	l.d.a = a;
	l.lo = lo;
	if (bt_plugin_find("ctf", BT_TRUE, BT_TRUE, BT_TRUE, BT_TRUE,
			   BT_FALSE, &ctf) != BT_PLUGIN_FIND_STATUS_OK ||
	    !(cls = bt_plugin_borrow_source_component_class_by_name_const(
		      ctf, "lttng-live"))) {
		bt_current_thread_clear_error();
		fprintf(stderr, "rpcsim-analyze: --live=%s: babeltrace2's "
			"source.ctf.lttng-live is missing (apt-get install "
			"libbabeltrace2-0)\n", lo->url);
		goto out;
	}
	params = bt_value_map_create();
	if (!params ||
	    bt_value_map_insert_empty_array_entry(params, "inputs", &inputs) ||
	    bt_value_array_append_string_element(inputs, lo->url) ||
	    /* a session the relay does not have: end, not wait forever */
	    bt_value_map_insert_string_entry(params,
					     "session-not-found-action",
					     "end"))
		oom_exit();
	graph = bt_graph_create(0);
	if (!graph)
		oom_exit();
	if (bt_graph_add_simple_sink_component(graph, "sink", NULL,
					       consume_live, NULL, &l,
					       &sink) !=
	    BT_GRAPH_ADD_COMPONENT_STATUS_OK) {
		live_error(lo->url, "cannot create the sink", verbose);
		goto out;
	}
	if (bt_graph_add_source_component(graph, cls, "live", params,
					  o->bt_log_level, &src) !=
	    BT_GRAPH_ADD_COMPONENT_STATUS_OK) {
		live_error(lo->url, "cannot connect to the relay daemon",
			   verbose);
		goto out;
	}
	if (bt_graph_connect_ports(graph,
		bt_component_source_borrow_output_port_by_index_const(src, 0),
		bt_component_sink_borrow_input_port_by_index_const(sink, 0),
		NULL) != BT_GRAPH_CONNECT_PORTS_STATUS_OK) {
		live_error(lo->url, "cannot connect the live source", verbose);
		goto out;
	}
	clock_gettime(CLOCK_MONOTONIC, &l.start);
	l.next_ms = lo->interval_ms;
	for (;;) {
		bt_graph_run_once_status st = bt_graph_run_once(graph);

		if (st == BT_GRAPH_RUN_ONCE_STATUS_END)
			break;
		if (st == BT_GRAPH_RUN_ONCE_STATUS_AGAIN) {
			struct timespec ts = { 0, 20000000 };

			live_tick(&l, false);
			nanosleep(&ts, NULL);
			continue;
		}
		if (st != BT_GRAPH_RUN_ONCE_STATUS_OK) {
			live_error(lo->url, "cannot read the live session",
				   verbose);
			goto out;
		}
	}
	live_tick(&l, true);
	live_traces(a, &l.d, lo->url);
	a->read_error = take_read_error(a);
	reader_finish(&l.r);
	ret = 0;
out:
	bt_graph_put_ref(graph);
	bt_value_put_ref(params);
	bt_plugin_put_ref(ctf);
	reader_free(&l.r);
	decoder_free(&l.d);
	return ret;
}
