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
	struct seq_read s;		/* what reader.c's --jobs=1 folds with */
	const struct live_options *lo;
	struct timespec start;
	uint64_t next_ms;		/* when the next line is due */
	uint64_t count[LIVE_MODES];	/* as of the previous line */
	uint64_t sum[LIVE_MODES];
	/* the traces met, by name, counted as the report counts them */
	char **trace_names;
	unsigned int nr_trace_names;
	bool events;			/* any event came */
	/*
	 * Per process (vpid): whether a run_start of it came, whether a
	 * run of it ended whose run_start did not come (joined late), and
	 * the run_seq of its first run_start when that was not its first
	 * run (joined late too: between two runs, or in a warm-up).
	 */
	struct live_proc {
		int64_t vpid;
		bool started, late;
		uint64_t missed_seq;
	} *procs;
	unsigned int nr_procs;
};

static uint64_t since_ms(const struct timespec *t0)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (uint64_t)(now.tv_sec - t0->tv_sec) * 1000 +
	       (uint64_t)((now.tv_nsec - t0->tv_nsec) / 1000000);
}

/*
 * Whether the interval lines count group @g's calls: a run's, yes; those
 * outside any run (rpcsim --warmup's, before run_start), only once its
 * process is known to have been joined late (live_note()), when the
 * report counts them too.  So a mode's count only grows.
 */
static bool live_counts(const struct live *l, const struct group *g)
{
	if (g->run != RUN_UNKNOWN)
		return true;
	for (unsigned int i = 0; i < l->nr_procs; i++)
		if (l->procs[i].vpid == g->proc->pid)
			return l->procs[i].late;
	return false;
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
	const struct analysis *a = l->s.r.a;
	FILE *out = l->lo->out;
	bool any = false;
	unsigned int i;

	if (ms < l->next_ms && !last)
		return;
	l->next_ms = (ms / l->lo->interval_ms + 1) * l->lo->interval_ms;
	for (i = 0; i < a->nr_groups; i++) {
		const struct group *g = a->groups[i];

		if (g->mode < LIVE_MODES && live_counts(l, g)) {
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

/*
 * babeltrace2's lttng-live source attaches to a session at the relay
 * daemon's newest packet of each stream: what was sent before is never
 * seen.  rpcsim starts each run with a run_start, so a process with a
 * run_end before any run_start was joined late.  Calls before its first
 * run_start are not enough to say so: with --warmup, rpcsim's untimed
 * calls come first (the report leaves them out, as rpcsim does).  But
 * rpcsim numbers its runs (run_seq): a first run_start numbered above 1
 * says the viewer joined after the process's earlier runs, whole.
 */
static void live_note(struct live *l, const struct rec *rc)
{
	struct live_proc *lp = NULL;
	unsigned int i;

	if (rc->type != R_EVENT)
		return;
	l->events = true;
	if (rc->kind < EV_RUN_START || rc->kind == EV_PAGEPOOL ||
	    rc->kind == EV_ALLOC_BULK)
		return;
	for (i = 0; i < l->nr_procs && !lp; i++)
		if (l->procs[i].vpid == rc->vpid)
			lp = &l->procs[i];
	if (!lp) {
		l->procs = xrealloc(l->procs, l->nr_procs + 1,
				    sizeof(*l->procs));
		lp = &l->procs[l->nr_procs++];
		*lp = (struct live_proc){ .vpid = rc->vpid };
	}
	if (rc->kind == EV_RUN_START) {
		if (!lp->started && (rc->present & (1u << RS_run_seq)) &&
		    rc->v[RS_run_seq] > 1)
			lp->missed_seq = rc->v[RS_run_seq];
		lp->started = true;
	} else if (rc->kind == EV_RUN_END && !lp->started)
		lp->late = true;
}

static void fold_live(void *data, const struct rec *rc)
{
	struct live *l = data;

	live_note(l, rc);
	fold(&l->s.r, 0, rc);
}

/* A stream's beginning: its trace's name, noted once. */
static void live_stream(struct live *l, const bt_message *msg)
{
	const bt_trace *t = bt_stream_borrow_trace_const(
		bt_message_stream_beginning_borrow_stream_const(msg));
	const char *name = bt_trace_get_name(t);
	unsigned int i;

	if (!name)
		name = "";
	for (i = 0; i < l->nr_trace_names; i++)
		if (!strcmp(l->trace_names[i], name))
			return;
	l->trace_names = xrealloc(l->trace_names, i + 1,
				  sizeof(*l->trace_names));
	l->trace_names[l->nr_trace_names++] = xstrdup(name);
}

/*
 * The sink: as consume_records() does, and each stream's beginning
 * noted (a trace is freed once its streams end: its name is kept).
 */
static bt_graph_simple_sink_component_consume_func_status
consume_live(bt_message_iterator *it, void *data)
{
	struct live *l = data;
	bt_graph_simple_sink_component_consume_func_status st;
	bt_message_array_const msgs;
	uint64_t count, i;
	struct rec rc;

	st = next_messages(it, &msgs, &count);
	if (st == BT_GRAPH_SIMPLE_SINK_COMPONENT_CONSUME_FUNC_STATUS_OK) {
		for (i = 0; i < count; i++) {
			if (bt_message_get_type(msgs[i]) ==
			    BT_MESSAGE_TYPE_STREAM_BEGINNING)
				live_stream(l, msgs[i]);
			if (decode(&l->s.d, msgs[i], &rc))
				fold_live(l, &rc);
			bt_message_put_ref(msgs[i]);
		}
	}
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
 * The traces the session held, as the report counts them, each named by
 * the URL and the name the live source gave it (HOST/SESSION/...: a path
 * below the relay daemon's output folder).
 */
static void live_traces(struct analysis *a, const struct live *l,
			const char *url)
{
	unsigned int i, n = l->nr_trace_names;

	a->traces = xcalloc(n ? n : 1, sizeof(*a->traces));
	for (i = 0; i < n; i++) {
		size_t len = strlen(url) + strlen(l->trace_names[i]) + 2;

		a->traces[i] = xcalloc(len, 1);
		snprintf(a->traces[i], len, "%s%s%s", url,
			 l->trace_names[i][0] ? " " : "", l->trace_names[i]);
	}
	a->nr_traces = n;
}

/*
 * Joined late: how many processes, the first in @pid, and in *@seq the
 * run_seq of its first run_start when that is how it showed (else 0).
 */
static unsigned int live_late(const struct live *l, int64_t *pid,
			      uint64_t *seq)
{
	unsigned int i, n = 0;

	for (i = 0; i < l->nr_procs; i++)
		if ((l->procs[i].late || l->procs[i].missed_seq) && !n++) {
			*pid = l->procs[i].vpid;
			*seq = l->procs[i].late ? 0 : l->procs[i].missed_seq;
		}
	return n;
}

/*
 * babeltrace2's source.ctf.lttng-live, from its ctf plugin (in *@ctf, to
 * put); NULL after saying it is missing.
 */
static const bt_component_class_source *live_class(const char *url,
						   const bt_plugin **ctf)
{
	const bt_component_class_source *cls;

	if (bt_plugin_find("ctf", BT_TRUE, BT_TRUE, BT_TRUE, BT_TRUE,
			   BT_FALSE, ctf) != BT_PLUGIN_FIND_STATUS_OK ||
	    !(cls = bt_plugin_borrow_source_component_class_by_name_const(
		      *ctf, "lttng-live"))) {
		bt_current_thread_clear_error();
		fprintf(stderr, "rpcsim-analyze: --live=%s: babeltrace2's "
			"source.ctf.lttng-live is missing (apt-get install "
			"libbabeltrace2-0)\n", url);
		return NULL;
	}
	return cls;
}

/* The live source's parameters: @url, and a session it lacks ends it. */
static bt_value *live_params(const char *url)
{
	bt_value *params = bt_value_map_create(), *inputs;

	if (!params ||
	    bt_value_map_insert_empty_array_entry(params, "inputs", &inputs) ||
	    bt_value_array_append_string_element(inputs, url) ||
	    /* a session the relay does not have: end, not wait forever */
	    bt_value_map_insert_string_entry(params,
					     "session-not-found-action",
					     "end"))
		oom_exit();
	return params;
}

/*
 * The graph: the live source of class @cls with @params -> a simple sink
 * (consume_live()) into @l.  NULL after saying why.
 */
static bt_graph *live_graph(struct live *l, const struct reader_options *o,
			    const bt_component_class_source *cls,
			    const bt_value *params, bool verbose)
{
	const char *url = l->lo->url;
	const bt_component_source *src;
	const bt_component_sink *sink;
	bt_graph *graph = bt_graph_create(0);

	if (!graph)
		oom_exit();
	if (bt_graph_add_simple_sink_component(graph, "sink", NULL,
					       consume_live, NULL, l,
					       &sink) !=
	    BT_GRAPH_ADD_COMPONENT_STATUS_OK) {
		live_error(url, "cannot create the sink", verbose);
		goto fail;
	}
	if (bt_graph_add_source_component(graph, cls, "live", params,
					  o->bt_log_level, &src) !=
	    BT_GRAPH_ADD_COMPONENT_STATUS_OK) {
		live_error(url, "cannot connect to the relay daemon", verbose);
		goto fail;
	}
	if (bt_graph_connect_ports(graph,
		bt_component_source_borrow_output_port_by_index_const(src, 0),
		bt_component_sink_borrow_input_port_by_index_const(sink, 0),
		NULL) != BT_GRAPH_CONNECT_PORTS_STATUS_OK) {
		live_error(url, "cannot connect the live source", verbose);
		goto fail;
	}
	return graph;
fail:
	bt_graph_put_ref(graph);
	return NULL;
}

/*
 * Run the graph until the session ends, an interval line whenever one is
 * due while the relay has nothing new.  0, or 1 after saying why.
 */
static int live_run(struct live *l, bt_graph *graph, bool verbose)
{
	clock_gettime(CLOCK_MONOTONIC, &l->start);
	l->next_ms = l->lo->interval_ms;
	for (;;) {
		bt_graph_run_once_status st = bt_graph_run_once(graph);

		if (st == BT_GRAPH_RUN_ONCE_STATUS_END)
			return 0;
		if (st == BT_GRAPH_RUN_ONCE_STATUS_AGAIN) {
			struct timespec ts = { 0, 20000000 };

			live_tick(l, false);
			nanosleep(&ts, NULL);
			continue;
		}
		if (st != BT_GRAPH_RUN_ONCE_STATUS_OK) {
			live_error(l->lo->url, "cannot read the live session",
				   verbose);
			return 1;
		}
	}
}

/*
 * The session ended: the last interval line and the traces it held, or
 * why there is no report (no event came; joined late, without
 * --partial).  0, or 1 after saying why.
 */
static int live_end(struct analysis *a, const struct reader_options *o,
		    struct live *l)
{
	const char *url = l->lo->url;
	int64_t late_pid = 0;
	uint64_t seq = 0;
	char why[96];

	if (!l->events) {
		/* session-not-found-action=end: its only sign, no event */
		const char *sess = strrchr(url, '/');

		bt_current_thread_clear_error();
		fprintf(stderr, "rpcsim-analyze: --live=%s: no event came: "
			"the relay daemon has no session '%s' of that host, or "
			"it ended before sending any (rpcsim --trace-live "
			"prints the URL)\n", url, sess + 1);
		return 1;
	}
	live_tick(l, true);
	live_traces(a, l, url);
	if (live_late(l, &late_pid, &seq)) {
		if (seq)
			snprintf(why, sizeof(why), "the first run_start of it "
				 "that came is its run %" PRIu64, seq);
		else
			snprintf(why, sizeof(why), "a run of it ended whose "
				 "run_start never came");
		fprintf(stderr, "rpcsim-analyze: --live=%s: %s: joined after "
			"process %" PRId64 " had started (%s): babeltrace2's "
			"live source starts at the newest packets, so the "
			"report would miss %s; start rpcsim-analyze "
			"--live as soon as rpcsim prints the URL, or read the "
			"relay daemon's folder%s\n", url,
			o->partial ? "warning" : "incomplete",
			late_pid, why, seq ? "the runs before it" :
			"the start of the run", o->partial ? "" :
			" (--partial reports what was seen)");
		if (!o->partial)
			return 1;
	}
	return 0;
}

int read_live(struct analysis *a, const struct reader_options *o,
	      const struct live_options *lo)
{
	const bt_plugin *ctf = NULL;
	const bt_component_class_source *cls;
	bt_graph *graph = NULL;
	bt_value *params = NULL;
	bool verbose = verbose_errors(o);
	struct live l;
	int ret = 1;

	memset(&l, 0, sizeof(l));
	seq_read_init(&l.s, a);
	l.lo = lo;
	cls = live_class(lo->url, &ctf);
	if (!cls)
		goto out;
	params = live_params(lo->url);
	graph = live_graph(&l, o, cls, params, verbose);
	if (!graph || live_run(&l, graph, verbose) || live_end(a, o, &l))
		goto out;
	seq_read_finish(&l.s);
	ret = 0;
out:
	bt_graph_put_ref(graph);
	bt_value_put_ref(params);
	bt_plugin_put_ref(ctf);
	seq_read_free(&l.s);
	for (unsigned int i = 0; i < l.nr_trace_names; i++)
		free(l.trace_names[i]);
	free(l.trace_names);
	free(l.procs);
	return ret;
}
