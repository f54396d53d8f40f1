/* SPDX-License-Identifier: MIT */
/*
 * What the reader's files share (the reader: reader.c says how it works
 * and which file does what).  Private to analyze/: the rest of the tool
 * sees the reader through analyze.h.
 */
#ifndef RPCSIM_ANALYZE_READER_H
#define RPCSIM_ANALYZE_READER_H

#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include <babeltrace2/babeltrace.h>

#include "analyze.h"

enum ev_kind {
	EV_OTHER,		/* not ours: counted only */
	EV_RPCSIM_OTHER,	/* an rpcsim event this tool does not know */
	EV_BAD,			/* ours, but a required field is missing */
	EV_RUN_START,
	EV_RUN_END,
	EV_ENTRY,
	EV_EXIT,
	EV_ERR,
	EV_REQUEST,
	EV_RECV_SHORT,		/* rpcsim:svc_tcp_recv_short */
	EV_PAGEPOOL,		/* counted by name */
	EV_ALLOC_BULK,		/* counted by name, and its fields read */
	EV_PP_HOLD,		/* page_pool:page_pool_state_hold */
	EV_PP_PUT,		/* page_pool:page_pool_state_release */
	EV_PP_DESTROY,		/* page_pool:page_pool_release */
	EV_PP_SLOW,		/* page_pool:page_pool_alloc_slow */
};

/*
 * Payload member indexes, per event, in the schema's row order: RS_mode
 * is run_start's "mode", RE_calls run_end's "calls", and so on.
 */
#define IDX_RS(T, ctype, field, arg, need, report) RS_##field,
#define IDX_RE(T, ctype, field, arg, need, report) RE_##field,
#define IDX_EN(T, ctype, field, arg, need, report) EN_##field,
#define IDX_EX(T, ctype, field, arg, need, report) EX_##field,
#define IDX_ER(T, ctype, field, arg, need, report) ER_##field,
#define IDX_RQ(T, ctype, field, arg, need, report) RQ_##field,
#define IDX_RR(T, ctype, field, arg, need, report) RR_##field,
#define IDX_BK(T, ctype, field, arg, need, report) BK_##field,
#define IDX_PH(T, ctype, field, arg, need, report) PH_##field,
#define IDX_PU(T, ctype, field, arg, need, report) PU_##field,
#define IDX_PD(T, ctype, field, arg, need, report) PD_##field,
#define IDX_PS(T, ctype, field, arg, need, report) PS_##field,
enum { TRACE_FIELDS_RUN_START(IDX_RS) RS_NR };
enum { TRACE_FIELDS_RUN_END(IDX_RE) RE_NR };
enum { TRACE_FIELDS_ENTRY(IDX_EN) EN_NR };
enum { TRACE_FIELDS_EXIT(IDX_EX) EX_NR };
enum { TRACE_FIELDS_ERR(IDX_ER) ER_NR };
enum { TRACE_FIELDS_REQUEST(IDX_RQ) RQ_NR };
enum { TRACE_FIELDS_RECV_SHORT(IDX_RR) RR_NR };
enum { TRACE_FIELDS_ALLOC_BULK(IDX_BK) BK_NR };
enum { TRACE_FIELDS_PP_HOLD(IDX_PH) PH_NR };
enum { TRACE_FIELDS_PP_PUT(IDX_PU) PU_NR };
enum { TRACE_FIELDS_PP_DESTROY(IDX_PD) PD_NR };
enum { TRACE_FIELDS_PP_SLOW(IDX_PS) PS_NR };

#define M_MAX	24
_Static_assert(RS_NR <= M_MAX && RE_NR <= M_MAX && EN_NR <= M_MAX &&
	       EX_NR <= M_MAX && ER_NR <= M_MAX && RQ_NR <= M_MAX &&
	       RR_NR <= M_MAX &&
	       BK_NR <= M_MAX && PH_NR <= M_MAX && PU_NR <= M_MAX &&
	       PD_NR <= M_MAX && PS_NR <= M_MAX, "M_MAX");

struct member {
	int16_t idx;		/* -1: absent */
	bool sgn;
	bool str;		/* an enumeration's value recorded as a string */
};

/*
 * The decode layer turns a babeltrace2 message into a struct rec, the fold
 * layer folds records into struct analysis.  In one process (--jobs=1) a
 * record goes from one to the other as it is made; with workers it
 * crosses a pipe (write_rec(), wsrc_next()).
 */
enum rec_type {
	R_EVENT,
	R_DISC_EVENTS,		/* v[0]: the count, if RF_COUNT */
	R_DISC_PACKETS,
	R_READ_ERROR,		/* worker: a->read_error, in S_TEXT */
	R_ERROR,		/* worker: failed, the message in S_TEXT */
	R_END,			/* worker: done; v[0]: events not ours */
};

#define RF_TS		0x01	/* ts holds the timestamp */
#define RF_VTID		0x02	/* vtid holds the vtid context */
#define RF_ENV		0x04	/* vpid is the trace environment's */
#define RF_COUNT	0x08	/* a discard's count is known */
#define RF_PP		0x10	/* S_PP holds the pagepool event name */

/* String slots past the members' */
#define S_PROCNAME	M_MAX		/* the first of a process or trace */
#define S_PP		(M_MAX + 1)	/* first event of its class */
#define S_TEXT		(M_MAX + 2)	/* a stream name, an error */
/*
 * A worker by file, with the first record of each stream it sends: the
 * stream as the muxer of one graph orders it (merge.c, mux_cmp()):
 * "UUID SC ID" (UUID in hex, "-" for none; its class's id, its id as
 * one graph numbers it), its trace's name (absent: none) and its path
 * as one graph names it.
 */
#define S_SKEY		(M_MAX + 3)
#define S_TNAME		(M_MAX + 4)
#define S_SPATH		(M_MAX + 5)
#define S_NR		(M_MAX + 6)

struct rec {
	uint8_t type;		/* enum rec_type */
	uint8_t kind;		/* R_EVENT: enum ev_kind */
	uint8_t flags;
	uint8_t nv;		/* v[] values held */
	uint32_t present;	/* bit i: member i is in the event */
	uint32_t strs;		/* bit i: s[i] is set */
	uint32_t cls;		/* event class, numbered per decoder */
	uint64_t trace;		/* trace key */
	/*
	 * A worker by file: its stream, numbered from 1 (0: none), and the
	 * event class's id in its trace (UINT32_MAX for one past it), for
	 * the parent's merge of equal timestamps (merge.c, mux_cmp())
	 */
	uint32_t stream;
	uint32_t ecid;
	int64_t ts, vtid, vpid;
	uint64_t v[M_MAX];	/* the members, in the schema's row order */
	const char *s[S_NR];
};

static inline const char *rec_str(const struct rec *rc, unsigned int i)
{
	return rc->strs & (1u << i) ? rc->s[i] : NULL;
}

/*
 * An enumeration's value as an index of its labels (see get_value()); the
 * label count for an absent member or a value outside the schema's.
 */
static inline unsigned int rec_enum(const struct rec *rc, unsigned int i,
				    enum member_type t)
{
	unsigned int n = schema_enum_count(t);

	if (!(rc->present & (1u << i)))
		return n;
	return rc->v[i] < n ? (unsigned int)rc->v[i] : n;
}

struct decoder {
	struct ev_info *evc;	/* open addressing on the class pointer */
	unsigned int evc_size;	/* power of two */
	unsigned int evc_used;
	struct ev_info *last;

	/*
	 * Worker: the trace directories are tmp/tN (N the trace index),
	 * whose name is the stream's, and the key is N; else the key is
	 * the bt_trace pointer.
	 */
	const char *tmp;
	const struct analysis *a;
	struct dec_trace *traces;
	unsigned int nr_traces;
	struct dec_trace *last_trace;

	int64_t *pids;		/* processes whose procname was sent */
	unsigned int nr_pids;

	char label[M_MAX][32];	/* get_label() of a number */
	char name[PATH_MAX + 64];	/* a stream's, its trace's path */

	/*
	 * A worker's graph has no muxer when it reads one stream, and the
	 * muxer is what refuses a stream whose timestamps go back (an empty
	 * last packet at 0, say): the worker checks that itself, so that
	 * --jobs=N refuses what --jobs=1 refuses.
	 */
	bool order_check;
	bool order_bad;
	uint64_t last_ts, bad_ts;

	/*
	 * A worker over a time range (split_plan()): only the events whose
	 * clock value (cycles, the one clock of the trace) is in [lo, hi)
	 * are decoded, the others skipped uncounted: the worker of the next
	 * or previous range takes them.  That is exact only if each event
	 * lies within its packet's beginning and end, as the index that
	 * placed the cuts says, and every stream has the same clock: each
	 * is checked, and range_bad sends the parent back to one process.
	 */
	bool range;
	bool range_bad;
	const struct sfile *files;	/* the stream files and their index */
	unsigned int nr_files;
	bool range_end;		/* past hi: the rest is the next range's */
	bool have_lim;
	int64_t lim_ns;		/* hi - 1 in ns from origin */
	uint64_t lo, hi;
	const bt_clock_class *clock;
	struct range_stream *rs;	/* per stream: its packet's bounds */
	unsigned int nr_rs;
	struct range_stream *last_rs;

	/* per stream: its events_discarded as read (decode_discard()) */
	struct disc_stream *ds;
	unsigned int nr_ds;

	/*
	 * A worker by file: each record's stream (rec.stream) and, the
	 * first time, how one graph would order it (S_SKEY), for the
	 * parent's merge.  One graph numbers the streams of a trace
	 * without stream instance ids by their files' names, among all
	 * the trace's files (@files, every worker's): such a stream's port
	 * is named after its file (@ports, the names of the worker's
	 * source ports).
	 */
	bool skeys;
	struct dec_stream *ss;
	unsigned int nr_ss;
	struct dec_stream *last_ss;
	char **ports;
	unsigned int nr_ports;
};

/* Fields of a packet's index entry, for pk() */
#define PK_OFF		0
#define PK_BITS		1
#define PK_TB		3
#define PK_TE		4
#define PK_DISC		5
#define PK_SEQ		8

/* One stream file, and the worker it goes to. */
struct sfile {
	unsigned int trace;
	char *name;
	uint64_t size;
	unsigned int worker;
	/* its LTTng index, when the work is split by time (split_plan()) */
	unsigned char hdr[16];	/* the index's header */
	unsigned char *idx;	/* the entries as in the file */
	uint32_t elen;		/* bytes per entry */
	unsigned int npk;	/* entries: packets */
};

/* Field @field (0: offset, 1: size in bits, ...) of packet @i of @f. */
static inline uint64_t pk(const struct sfile *f, unsigned int i,
			  unsigned int field)
{
	return load_be64(f->idx + (size_t)i * f->elen + 8 * field);
}

/* (trace, vtid) -> the open svc_alloc_arg call of that thread */
struct thread_slot {
	uint64_t trace;		/* trace key */
	int64_t vtid;
	bool used;		/* false: free slot */
	bool in;		/* a later range's worker: as it came in,
				 * unknown until the thread's first entry or
				 * exit (struct pend) */
	bool open;
	bool lost;		/* open when events were discarded */
	int64_t ts;		/* entry timestamp, ns from origin */
	struct group *g;
};

struct reader {
	struct analysis *a;

	struct thread_slot *threads;
	unsigned int thr_size;	/* power of two */
	unsigned int thr_used;

	struct process *last_proc;	/* of the latest event */
	struct pp_map *ppm;		/* per source of records */
	unsigned int nr_ppm;

	/*
	 * A worker of a later time range folds from a state it does not
	 * know (edge): a process's cur and last_entry as they came in are
	 * stand-in groups (RUN_CUR_IN, RUN_LAST_IN) and what is assumed of
	 * them is noted (AS_*); a thread's slot is "in" until its first
	 * entry or exit, and what depends on it is left to the parent
	 * (pend).  Assumptions that contradict each other: edge_fail.
	 */
	bool edge;
	bool edge_fail;
	struct pend *pend;
	unsigned int nr_pend, cap_pend;
};

/* A group's identity, to name it to the parent; none: NULL. */
struct gkey {
	int64_t pid;
	int64_t run;
	uint32_t mode;
	bool none;
};

/*
 * What a later range's worker leaves to the parent, in order: the
 * first entry of a thread whose slot was "in" (an open call as it came
 * in lost its exit: entry_twice), and its exits and errs before that,
 * which depend on the slot as it came in; with the process's cur and
 * last_entry at that point, should the slot turn out closed.
 */
enum pend_what { PEND_ENTRY, PEND_EXIT, PEND_ERR };

struct pend {
	uint8_t what;
	struct gkey cur, last;
	struct rec rc;		/* no strings */
};

#define AS_CUR		0x01	/* cur as it came in is a group */
#define AS_LAST		0x02	/* last_entry as it came in is a group */
#define AS_MODE		0x04	/* cur as it came in has assume_mode */
#define AS_IS		0x08	/* ... is (assume_mode, assume_run) */

/*
 * The most one gap between two packets of a stream can really have lost:
 * 2^48 events (a day at 3 billion events a second) and 2^32 packets (16
 * TiB of trace at the smallest sub-buffer).  libbabeltrace2 takes each
 * count as the difference of two packets' counters (the tracer's running
 * count of discarded events, the packets' sequence numbers) modulo 2^64,
 * so a counter that went backwards, or one flipped bit in a high byte,
 * makes a count no tracer could have lost: the trace is corrupted.
 */
#define GAP_EVENTS_MAX	(1ULL << 48)
/*
 * Except one reading: lttng-ust 2.13 writes some packets whose
 * events_discarded reads 0 between packets that count thousands (seen
 * under a heavy discard, 3 runs of 3), and libbabeltrace2 takes that 0 as
 * the counter going back, then the next packet's whole count as lost.  A
 * stream's counter that reads 0 after counting is therefore skipped: the
 * losses are what the counter gained over the most it read before
 * (decode_discard()).  Any other step back is corruption.
 */
#define GAP_PACKETS_MAX	(1ULL << 32)

/* A libbabeltrace2 object that could not be made (common/tool.h). */
static inline void oom_exit(void)
{
	tool_die(1, "out of memory");
}

/* @x hashed into [0, @mask], for open addressing. */
static inline unsigned int mix_hash(uint64_t x, unsigned int mask)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	return (unsigned int)x & mask;
}

/* decode.c */
/* A message as a record: false for one the fold has no use for. */
bool decode(struct decoder *d, const bt_message *msg, struct rec *rc);
/*
 * A worker by file: whether @rc's stream was described to the parent
 * already; if not, stream_describe() adds its S_SKEY, S_TNAME and S_SPATH
 * to @rc, which is to be sent.
 */
bool stream_described(const struct decoder *d, const struct rec *rc);
void stream_describe(struct decoder *d, struct rec *rc);
void decoder_free(struct decoder *d);

/* fold.c */
/*
 * The fold's state, into @a, for records of @sources sources (the
 * workers, or 1), each numbering its event classes its own way.
 */
void reader_init(struct reader *r, struct analysis *a, unsigned int sources);
/* Fold one record of source @src (a worker, or 0) into the analysis. */
void fold(struct reader *r, unsigned int src, const struct rec *rc);
/* The end: calls still open lost their exit. */
void reader_finish(struct reader *r);
void reader_free(struct reader *r);
/* Forget what was folded: the traces are read again. */
void analysis_clear(struct analysis *a);
/* Steps of the fold that a worker's partial is written or merged with: */
/* @name's index in a->pp_names, added if new; PP_EVENTS_MAX if full. */
unsigned int pp_index(struct analysis *a, const char *name);
/* The slot of thread (@trace, @vtid), made if new. */
struct thread_slot *thr_lookup(struct reader *r, uint64_t trace,
			       int64_t vtid);
/* The process of @rc, made if new (its procname noted). */
struct process *rec_process(struct reader *r, const struct rec *rc);
struct gkey group_key(const struct group *g);
/* An svc_alloc_arg exit, an svc_alloc_arg_err of process @proc. */
void on_call_exit(struct reader *r, struct process *proc,
		  const struct rec *rc);
void on_err(struct reader *r, struct process *proc, const struct rec *rc);

/* graph.c */
/*
 * A worker's temporary directory (TMP/wK), whose TMP/wK/tN stands for
 * trace N in what libbabeltrace2 says, and per trace the path it names
 * the trace by (NULL: a->traces[N]).  NULL in one process.
 */
extern const char *tmp_base;
extern char **tmp_canon;
/* -v: libbabeltrace2's every cause, and what the parallel reading does. */
bool verbose_errors(const struct reader_options *o);
/* The names of a graph's source ports (build_graph()), each allocated. */
struct port_names {
	char **v;
	unsigned int n;
};
/*
 * The graph over the @n trace directories @inputs (trace indexes @idx)
 * -> a simple sink calling @consume with @data, in *@out; with @pn, the
 * names of its sources' output ports added to it.  0, or 1 after
 * printing why on @err.
 */
int build_graph(const struct analysis *a, const struct reader_options *o,
		const bt_plugin *ctf, const bt_plugin *utils,
		char *const *inputs, const unsigned int *idx,
		unsigned int n, bool direct,
		bt_graph_simple_sink_component_consume_func consume,
		void *data, FILE *err, bt_graph **out, struct port_names *pn);
/*
 * The streams libbabeltrace2 makes of trace @t's files, in *@nr.  0, or
 * -1 (its error cleared).
 */
int count_streams(const struct analysis *a, const struct reader_options *o,
		  const bt_plugin *ctf, unsigned int t, uint64_t *nr);
/* Run the graph to its end.  0, or 1 after printing why on @err. */
int run_graph(bt_graph *graph, const struct analysis *a,
	      const struct reader_options *o, FILE *err);
/* The error a stream left that libbabeltrace2 ended early, or NULL. */
char *take_read_error(const struct analysis *a);

/* The graph's sink, in reader.c (one process) and worker.c */
static inline bt_graph_simple_sink_component_consume_func_status
next_messages(bt_message_iterator *it, bt_message_array_const *msgs,
	      uint64_t *count)
{
	switch (bt_message_iterator_next(it, msgs, count)) {
	case BT_MESSAGE_ITERATOR_NEXT_STATUS_OK:
		return BT_GRAPH_SIMPLE_SINK_COMPONENT_CONSUME_FUNC_STATUS_OK;
	case BT_MESSAGE_ITERATOR_NEXT_STATUS_END:
		return BT_GRAPH_SIMPLE_SINK_COMPONENT_CONSUME_FUNC_STATUS_END;
	case BT_MESSAGE_ITERATOR_NEXT_STATUS_AGAIN:
		return BT_GRAPH_SIMPLE_SINK_COMPONENT_CONSUME_FUNC_STATUS_AGAIN;
	case BT_MESSAGE_ITERATOR_NEXT_STATUS_MEMORY_ERROR:
		return BT_GRAPH_SIMPLE_SINK_COMPONENT_CONSUME_FUNC_STATUS_MEMORY_ERROR;
	default:
		return BT_GRAPH_SIMPLE_SINK_COMPONENT_CONSUME_FUNC_STATUS_ERROR;
	}
}

/*
 * The sink's step, in one process or in a worker: decode the next
 * messages and hand each record to @use.  Always inline, so that in each
 * caller @use is a direct call on this per-event path.
 */
static inline __attribute__((always_inline))
bt_graph_simple_sink_component_consume_func_status
consume_records(bt_message_iterator *it, struct decoder *d,
		void (*use)(void *data, const struct rec *rc), void *data)
{
	bt_message_array_const msgs;
	uint64_t count, i;
	bt_graph_simple_sink_component_consume_func_status st;
	struct rec rc;

	st = next_messages(it, &msgs, &count);
	if (st != BT_GRAPH_SIMPLE_SINK_COMPONENT_CONSUME_FUNC_STATUS_OK)
		return st;
	for (i = 0; i < count; i++) {
		if (!d->range_end && decode(d, msgs[i], &rc))
			use(data, &rc);
		bt_message_put_ref(msgs[i]);
	}
	if (__builtin_expect(d->range_end, 0) && !d->range_bad &&
	    !d->order_bad)
		return BT_GRAPH_SIMPLE_SINK_COMPONENT_CONSUME_FUNC_STATUS_END;
	if (__builtin_expect(d->range_bad, 0)) {
		bt_current_thread_error_append_cause_from_unknown(
			"rpcsim-analyze", __FILE__, __LINE__,
			"an event outside its packet's clock values, or "
			"streams of different clocks: no time range");
		return BT_GRAPH_SIMPLE_SINK_COMPONENT_CONSUME_FUNC_STATUS_ERROR;
	}
	if (__builtin_expect(d->order_bad, 0)) {
		bt_current_thread_error_append_cause_from_unknown(
			"rpcsim-analyze", __FILE__, __LINE__,
			"a message's timestamp is less than the last one of "
			"its stream: ts=%" PRIu64 ", last-returned-ts=%" PRIu64,
			d->bad_ts, d->last_ts);
		return BT_GRAPH_SIMPLE_SINK_COMPONENT_CONSUME_FUNC_STATUS_ERROR;
	}
	return BT_GRAPH_SIMPLE_SINK_COMPONENT_CONSUME_FUNC_STATUS_OK;
}

/*
 * --jobs=N: the workers, their temporary directory, what they send the
 * parent.
 */

/* What was made in the temporary directory, removed in reverse. */
struct tmpdir {
	char *base;
	char **made;
	unsigned int n;
};

/* read_parallel()'s state, for its steps and for each worker it forks. */
struct par {
	struct analysis *a;
	const struct reader_options *o;
	const bt_plugin *ctf, *utils;
	struct sfile *f;	/* the stream files, and their workers */
	unsigned int nf;
	unsigned int n;		/* workers */
	char **real;		/* per trace: its realpath() */
	struct tmpdir t;
	struct wsrc *w;		/* per worker: the parent's end */
	/*
	 * By time (split_plan()): worker k reads the events whose clock
	 * value is in [cut[k], cut[k + 1]), from a copy of the packets of
	 * each stream file that hold such events; else by file.
	 */
	uint64_t *cut;		/* n + 1 bounds, or NULL */
	uint64_t twice;		/* bytes of packets two workers decode */
	sigset_t mask;		/* the signal mask before spawn_workers() */
	pid_t parent;		/* the process that forks the workers */
};

/* On the pipe: this, nv values, then per string a uint32_t length
 * (with its NUL) and the string. */
struct wire {
	uint32_t len;		/* of the whole record */
	uint8_t type, kind, flags, nv;
	uint32_t present, strs, cls;
	uint32_t trace;
	uint32_t stream, ecid;
	int64_t ts, vtid, vpid;
};

#define WIRE_MAX	(64u << 20)

/*
 * Folded in the workers (by time).  The fold of a range depends on what
 * came before it only through a little state: per process, the run open
 * (cur) and the group of its latest entry (last_entry); per thread, the
 * call open (its slot); and through the first run_start of each group
 * and the first procname and pagepool names, which merge in order.  The
 * worker of the first range starts from nothing, as one process does.  A
 * worker of a later range starts each process on two stand-in groups
 * (RUN_CUR_IN, RUN_LAST_IN) and notes what it takes for granted of them:
 * that the run that came in is a run (AS_CUR), of the mode of the
 * entries that follow (AS_MODE), the one a run_end ends (AS_IS), that
 * there was an entry before (AS_LAST).  Each thread's slot starts "in":
 * its first entry, and the exits and errs before it, depend on whether a
 * call was open, and go to the parent as records (struct pend).  The
 * rest it folds as one process would.
 *
 * The parent merges the workers' results in time order: with its state
 * as at the start of worker k's range, it checks the assumptions (one
 * that fails sends the reading back to one process: READ_AGAIN), puts
 * the stand-ins' counts into the groups they stand for, folds the
 * records left to it with the fold itself (on_call_exit(), on_err()),
 * then takes the worker's state at its range's end.  Every count is a
 * sum, and the histograms merge exactly, so the results are those of
 * one process.  tests/analyze/test_ctf_jobs.sh compares them on random
 * traces under several --jobs.
 *
 * A worker sends what it folded when it is done (write_partial()): a
 * status, then its counters, pagepool names, processes (with what was
 * assumed of them), groups, the records left to the parent and its
 * threads' slots.  Numbers in host order: the parent is the same program.
 */
#define PART_MAGIC	0x70617274u
enum part_status { PART_OK, PART_AGAIN, PART_ERROR };

/* The parent's end of a worker. */
struct wsrc {
	pid_t pid;
	int fd;
	unsigned char *buf;
	size_t cap, start, end;
	struct rec rc;		/* the next record, if have */
	bool have;
	bool done;		/* R_END folded */
};

/* The result of read_parallel() when it cannot merge: read in one process. */
#define READ_AGAIN	2

/* tmpdir.c */
/* Where the temporary directory goes: TMPDIR, or /tmp. */
const char *tmp_parent(void);
/*
 * While there are temporary files: the signals that would end the
 * process (SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM,
 * SIGPIPE, ...) kill and wait for the workers (tmp_add_pid()), remove
 * what was noted in @t, then end it as they would have; those ignored on
 * entry stay ignored.  Set before tmp_make_base() (tmp_unguard(): no
 * longer; a worker calls it first).
 */
void tmp_guard(struct tmpdir *t);
void tmp_unguard(void);
/* t->base: a new directory in tmp_parent().  0, or -1 (errno). */
int tmp_make_base(struct tmpdir *t);
/* Note @path, made (or to be made) in @t, for tmp_remove(). */
void tmp_note(struct tmpdir *t, const char *path);
/* A directory, a symbolic link to @target, noted.  0, or -1. */
int tmp_mkdir(struct tmpdir *t, const char *path);
int tmp_link(struct tmpdir *t, const char *target, const char *path);
/* Remove what was noted, in reverse, and t->base. */
void tmp_remove(struct tmpdir *t);
/* Block the guarded signals (the old mask in @old); restore @old. */
void tmp_block(sigset_t *old);
void tmp_unblock(const sigset_t *old);
/*
 * A worker the guard kills before removing the files: noted with the
 * signals blocked (tmp_block(), around fork()), forgotten when reaped
 * (tmp_reap(): waits for @pid to end, reaps it; waitpid()'s result).
 */
#define TMP_PIDS_MAX	256
void tmp_add_pid(pid_t pid);
pid_t tmp_reap(pid_t pid, int *status);

/* partial.c */
/*
 * --partial: when a stream file is cut in the middle of a packet, a copy
 * of each trace in @t (guarded: tmp_guard()), TMP/tN, with the cut files'
 * whole packets, said on stderr: per trace, the directory to read.  NULL
 * when no file is cut (or the copy could not be made: said).
 */
char **partial_trim(const struct analysis *a, struct tmpdir *t);

/* plan_file.c */
/* The stream files of every trace (what check_streams() looks at). */
struct sfile *list_streams(const struct analysis *a, unsigned int *nr);
/*
 * The files to @n workers: the biggest first, each to the least loaded.
 * Returns the most bytes one worker got.
 */
uint64_t share_out(struct sfile *f, unsigned int nf, unsigned int n);
/*
 * TMP/wK/tN for each trace N with files of worker K: links to its
 * metadata, to its files and to their index entries.  0 or 1.
 */
int make_links(const struct analysis *a, struct tmpdir *t,
	       const struct sfile *f, unsigned int nf,
	       unsigned int workers, char **real);

/* plan_time.c */
/*
 * Cut the work by time for up to @jobs workers (p->cut, p->n, p->twice)
 * when the indexes allow it.  Returns whether it cut.
 */
bool split_plan(struct par *p, unsigned int jobs);
/* TMP/wK/tN of each worker K, for its copies (worker_copy()).  0, or 1. */
int make_split_dirs(const struct par *p, struct tmpdir *t);
/* Worker @k's copies of the packets of its range, in @base.  0, or -1. */
int worker_copy(const struct par *p, unsigned int k, const char *base);
/*
 * The packets of @f that can hold events of [lo, hi): [*first, *last];
 * false if none.
 */
bool range_packets(const struct sfile *f, uint64_t lo, uint64_t hi,
		   unsigned int *first, unsigned int *last);

/* worker.c */
/*
 * Worker @k, just forked, writing into pipe @pfd: its trace directories
 * (TMP/wK/tN), then its graph.  Does not return.
 */
void __attribute__((noreturn))
worker_child(struct par *p, unsigned int k, int pfd[2]);

/* merge.c */
/*
 * By file: merge the workers' records and fold them.  0; 1 after printing
 * why (a worker failed), or with *@ended the worker whose records ended
 * early; READ_AGAIN.
 */
int merge(struct analysis *a, struct wsrc *w, unsigned int n, int *ended);
/*
 * By time: merge what the workers folded, in time order.  0; 1 after
 * printing why (a worker failed), or with *@ended the worker whose output
 * ended early or made no sense; READ_AGAIN.
 */
int merge_folded(struct analysis *a, struct wsrc *w, unsigned int n,
		 int *ended, bool verbose);

/* reader.c: --jobs=N */
/* What the parent allocated, but the temporary directory's files. */
void par_free(struct par *p);

/*
 * reader.c: a reading folded in this process as it is decoded (--jobs=1,
 * and live.c's --live): its reader and its decoder.  seq_read_init() sets
 * both up for @a; seq_read_finish() ends a reading that went through: the
 * error libbabeltrace2 left on the thread taken as @a's read_error
 * (take_read_error()), then reader_finish(); seq_read_free() frees both,
 * whether it went through or not.
 */
struct seq_read {
	struct reader r;
	struct decoder d;
};
void seq_read_init(struct seq_read *s, struct analysis *a);
void seq_read_finish(struct seq_read *s);
void seq_read_free(struct seq_read *s);

#endif /* RPCSIM_ANALYZE_READER_H */
