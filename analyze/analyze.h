/* SPDX-License-Identifier: MIT */
/*
 * rpcsim-analyze: shared types.
 *
 * The reader (reader.c) runs a babeltrace2 graph over the CTF traces found
 * by find_traces() (traces.c) and folds every event into struct analysis:
 * one struct group per (mode, run) of rpcsim, holding the latency
 * statistics of both methods (latency_ns field, entry/exit timestamps).
 * report.c prints the groups as text or JSON.
 */
#ifndef RPCSIM_ANALYZE_H
#define RPCSIM_ANALYZE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "by_refill.h"
#include "hist.h"
#include "tool.h"
#include "trace_schema.h"

/*
 * Latency statistics in ns: the common histogram, which keeps the exact
 * count, sum, minimum and maximum, and an exact 128-bit sum of squares
 * for the standard deviation.  The histogram's own stddev is a running
 * one in doubles (Welford): on values of ~10^15 ns it drifts in the
 * printed digits, where this one is exact, and merging groups stays an
 * addition.
 */
struct lat_stats {
	unsigned __int128 sumsq;
	struct hist *hist;	/* count, sum, min, max, buckets */
};

static inline void lat_add(struct lat_stats *s, uint64_t v)
{
	s->sumsq += (unsigned __int128)v * v;
	hist_add(s->hist, v);
}

int lat_init(struct lat_stats *s);
void lat_free(struct lat_stats *s);
void lat_merge(struct lat_stats *dst, const struct lat_stats *src);
/* Exact sum / count; 0 without values. */
double lat_mean(const struct lat_stats *s);
/* Sample standard deviation (n - 1), 0 below two values. */
double lat_stddev(const struct lat_stats *s);

/*
 * Per-call difference d = (exit timestamp - entry timestamp) - latency_ns,
 * which may be negative: positive and negative parts are kept apart.
 */
struct diff_stats {
	uint64_t n;
	__int128 sum;
	int64_t min;
	int64_t max;
	uint64_t n_neg;
	struct hist *pos;	/* d >= 0 */
	struct hist *neg;	/* -d for d < 0 */
};

int diff_init(struct diff_stats *s);
void diff_free(struct diff_stats *s);
void diff_add(struct diff_stats *s, int64_t d);
void diff_merge(struct diff_stats *dst, const struct diff_stats *src);
double diff_mean(const struct diff_stats *s);
/* Nearest-rank percentile, bucket resolution (< 1 %). */
int64_t diff_percentile(const struct diff_stats *s, double p);

/* Most "pagepool" event names the reader tells apart. */
#define PP_EVENTS_MAX	32

#define MODE_UNKNOWN	UINT32_MAX
#define RUN_UNKNOWN	(-1)
/*
 * Stand-ins a worker of a later time range folds into (fold.c): its
 * process's cur and last_entry as they were at its range's start, which
 * the parent alone knows; never in a report.
 */
#define RUN_CUR_IN	(-2)
#define RUN_LAST_IN	(-3)
#define PID_UNKNOWN	(-1)

/*
 * The schema's enumerations (tracepoints/trace_schema.h), as the reader
 * binds and the report names them: schema.c.
 */
enum member_type {
	MT_INT,
	MT_STR,
	MT_ENUM_MODE,
	MT_ENUM_OP,
	MT_ENUM_BACKEND,
	MT_ENUM_CONTRACT,
	MT_ENUM_BULK_API,
	MT_ENUM_FALLBACK,
	MT_NR
};

/* Labels of an enumeration type: NULL-terminated, indexed by value. */
const char *const *schema_enum_labels(enum member_type t);
/* How many labels; a value at or past it is counted as "other". */
unsigned int schema_enum_count(enum member_type t);

#define NR_OPS		2	/* TRACE_ENUM_OP */
#define NR_BULK_APIS	2	/* TRACE_ENUM_BULK_API */
#define NR_FALLBACKS	5	/* TRACE_ENUM_FALLBACK */

/* One row of the schema table, as rpcsim-analyze --schema prints it. */
struct schema_field {
	const char *name;
	enum member_type type;
	bool need;
	const char *report;
};

struct schema_event {
	const char *provider;
	const char *event;
	const struct schema_field *fields;
};

/* The schema's events, in TRACE_EVENTS() order: SE_run_start, ... */
#define SE_ENUM(provider, event, FIELDS) SE_##event,
enum schema_ev { TRACE_EVENTS(SE_ENUM) SE_NR };

/* The schema's events, by enum schema_ev, then a NULL row (schema.c). */
extern const struct schema_event schema_events[];
/* rpcsim-analyze --schema: one line per field. */
void schema_print(FILE *out);

/*
 * One traced process: events carry its vpid (vpid context) or their
 * trace does (per-PID buffers); PID_UNKNOWN when neither says.
 */
struct process {
	int64_t pid;
	char *procname;			/* NULL: not recorded */
	struct group *cur;		/* run between run_start and run_end */
	struct group *last_entry;	/* group of the latest entry */
	int64_t run_pid;		/* pid field of its first run_start */
	bool run_pids_differ;		/* run_start pids that differ */
	/*
	 * A decoding worker of a later time range (reader.h, "folded in
	 * the workers"): what it assumed of cur and last_entry as they
	 * were at its range's start, for the parent to check (AS_*).
	 */
	unsigned int assume;
	uint32_t assume_mode;
	int64_t assume_run;
};

struct run_config {
	int64_t pid;			/* PID_UNKNOWN: an older trace */
	char *backend;			/* NULL: an older trace */
	char *contract;
	char *mode_name;
	uint64_t threads;
	uint64_t slots;
	uint64_t io_size;
	uint64_t max_payload;
	uint64_t pool_pages;
	uint64_t file_pages;
	uint64_t pcp_batch;
	uint64_t pcp_high;
	char *completion;
	uint64_t read_weight;
	uint64_t write_weight;
	uint64_t seed;
	char *version;
	uint64_t tcp_read;		/* 0: whole records, or not recorded */
	uint64_t run_seq;		/* the process's nth run; 0: unknown */
};

struct run_totals {
	uint64_t calls;
	uint64_t pages;
	uint64_t latency_sum_ns;
	uint64_t requests;
	uint64_t no_progress;
	uint64_t short_reads;
};

/*
 * Sums of the fields of the events a group holds, a struct per object of
 * a run in rpcsim-analyze's JSON ("entry", "exit", ...) whose counts have
 * the names of the object's members (common/result_schema.h): the writer
 * and the merge expand the member lists.
 */
struct entry_sums {
	uint64_t events;
	uint64_t slots, holes;
};

struct exit_sums {			/* events: latency_ns's count */
	uint64_t allocated, alloc_calls, retries;
};

struct err_sums {			/* svc_alloc_arg_err */
	uint64_t events;
	uint64_t requested, allocated;
};

struct request_sums {			/* events: the sum of op */
	uint64_t op[NR_OPS + 1];	/* + other */
	uint64_t bytes, pages;
};

struct recv_short_sums {		/* svc_tcp_recv_short */
	uint64_t events;
	uint64_t expected, received;
};

struct bulk_sums {			/* mm_page_alloc_bulk */
	uint64_t calls;
	uint64_t requested, populated, allocated;
	uint64_t api[NR_BULK_APIS + 1];
	uint64_t fallback[NR_FALLBACKS + 1];
};

struct field_sums {
	struct entry_sums entry;
	struct exit_sums exit;
	struct err_sums err;
	struct request_sums request;
	struct recv_short_sums recv_short;
	struct bulk_sums bulk;
};

/*
 * One run of one mode of one process (or everything of a mode of a
 * process seen outside any run).
 */
struct group {
	struct process *proc;
	uint32_t mode;
	int64_t run;			/* RUN_UNKNOWN: outside any run_start */
	unsigned int nr_starts;		/* run_start events seen */
	unsigned int nr_ends;		/* run_end events seen */
	struct run_config cfg;		/* from the (first) run_start */
	struct run_totals end;		/* sum of the run_end events */

	struct lat_stats field;		/* method (a): latency_ns */
	struct lat_stats stamps;	/* method (b): timestamps, paired */
	struct diff_stats diff;		/* (b) - (a), per paired call */
	/*
	 * (a) again, by the exit's allocated: at most one page or more
	 * (common/by_refill.h); an exit without that field is in neither.
	 */
	struct hist *refill[BY_REFILL_NR];
	/*
	 * A mode's groups merged (report.c, merge_mode()): the calls outside
	 * its runs that its figures leave out, rpcsim --warmup's.  Not in a
	 * worker's partial, which copies the members from requests on.
	 */
	uint64_t calls_outside;

	uint64_t requests;		/* request events */
	uint64_t pp[PP_EVENTS_MAX];	/* pagepool events, by pp name index */
	struct field_sums sums;

	uint64_t entry_twice;		/* entry while one was open */
	uint64_t exit_no_entry;
	uint64_t entry_no_exit;		/* still open at the end */
	uint64_t across_discard;	/* open when events were discarded */
	uint64_t no_vtid;		/* entry/exit without vtid */
	uint64_t no_timestamp;		/* entry/exit without timestamp */
};

/*
 * stats.c: a group's statistics (field, stamps, diff, refill) made
 * empty, 0, or -1 when out of memory; freed, whether they were all made
 * or not.
 */
int group_stats_init(struct group *g);
void group_stats_free(struct group *g);

/*
 * What the tracer lost, by its discarded events or discarded packets
 * messages (the reader checks each count: reader.h, GAP_*_MAX).
 */
struct loss {
	uint64_t count;		/* summed over the messages that had one */
	uint64_t msgs;		/* messages */
	uint64_t unknown;	/* messages without a count */
};

struct analysis {
	/* inputs */
	char **traces;			/* directories holding "metadata" */
	unsigned int nr_traces;

	struct group **groups;
	unsigned int nr_groups;
	unsigned int cap_groups;

	struct process **procs;
	unsigned int nr_procs;

	char *pp_names[PP_EVENTS_MAX];	/* "mm_page_alloc_bulk", ... */
	unsigned int nr_pp;

	uint64_t events;		/* all event messages */
	uint64_t rpcsim_events;
	uint64_t pagepool_events;
	uint64_t pp_outside;		/* pagepool events outside any run */
	uint64_t pp_overflow;		/* pagepool names past PP_EVENTS_MAX */
	uint64_t bad_schema;		/* rpcsim events whose fields differ */
	struct loss discarded_events;	/* discarded events messages */
	struct loss discarded_packets;	/* discarded packets messages */
	uint64_t run_start_twice;	/* run_start for a (mode, run) seen */
	uint64_t mixed_pids;		/* run_starts of another pid, same process */
	char *read_error;		/* libbabeltrace2 stopped a stream early */
	char *corrupt;			/* a loss count no tracer could make */
	bool have_vtid;			/* any entry/exit had vtid */
	struct ppool_view *ppv;		/* page_pool:* events (ppool.c) */
};

/* traces.c */
/*
 * find_traces() - collect the directories holding a CTF "metadata" file
 * below each path, recursively.  Returns 0, or 1 after printing why on
 * stderr (path missing, unreadable, no trace found).
 */
int find_traces(struct analysis *a, char *const *paths, unsigned int n);
/* Refuse a metadata file babeltrace2 2.0.4 would hang on.  0 or 1. */
int check_metadata(const char *dir);
/*
 * check_input_files() - each trace's metadata and index files
 * (index/NAME.idx), which libbabeltrace2 opens and reads blocking, must
 * be regular files: a FIFO would stop it for good.  0, or 1 after one
 * line naming the first that is not.
 */
int check_input_files(const struct analysis *a);
/*
 * check_streams() - the stream files of every trace: each must be a
 * readable, non-empty regular file, at least as long as LTTng's index
 * (index/NAME.idx) says, and every stream the index lists must be there.
 * Returns how many problems there were; with @partial each is said on
 * stderr as a warning, else the first is left in @first.
 */
unsigned int check_streams(const struct analysis *a, bool partial,
			   char *first, size_t len);
/*
 * LTTng's packet index (TRACE/index/STREAM.idx): a header of
 * CTF_INDEX_HEADER_SIZE bytes (magic, major, minor, entry length:
 * big-endian 32-bit), then one entry per packet of big-endian 64-bit
 * fields, the first ones the packet's offset and its size in bits.
 */
#define CTF_INDEX_MAGIC		0xC1F1DCC1u
#define CTF_INDEX_HEADER_SIZE	16
/* A 32-bit integer of @be byte order; a big-endian 64-bit one. */
uint32_t load_u32(const unsigned char *p, bool be);
uint64_t load_be64(const unsigned char *p);
/* Bytes of the files other than "metadata" in the trace directories. */
uint64_t stream_bytes(const struct analysis *a);

/* reader.c */
struct reader_options {
	int bt_log_level;		/* bt_logging_level for components */
	/*
	 * Seconds libbabeltrace2 may take to index the stream files (the
	 * creation of the source components) before SIGALRM ends the
	 * process, plus one per 16 MiB of stream files; 0: no watchdog.
	 * Only for a process of its own (analyze_isolate's child).
	 */
	unsigned int index_watchdog_s;
	/*
	 * Processes decoding the stream files at once (--jobs), each over
	 * a share of them, their records merged by timestamp; 1: one graph
	 * in this process.  More than 1 only in a process of its own.
	 */
	unsigned int jobs;
	/* --partial: a stream file cut mid-packet is read to its cut */
	bool partial;
};
/* Read every trace of a into it.  0, or 1 after printing the cause. */
int read_traces(struct analysis *a, const struct reader_options *o);

/* live.c */
struct live_options {
	const char *url;	/* net://HOST[:PORT]/host/HOSTNAME/SESSION */
	FILE *out;		/* the interval lines */
	unsigned int interval_ms;
};
/*
 * --live: follow the live session at lo->url (babeltrace2's lttng-live
 * source) into @a, a line per interval on lo->out, until the session
 * ends.  0, or 1 after printing the cause.
 */
int read_live(struct analysis *a, const struct reader_options *o,
	      const struct live_options *lo);

/* fold.c */
struct group *group_get(struct analysis *a, struct process *p, uint32_t mode,
			int64_t run);
struct process *process_get(struct analysis *a, int64_t pid);
void analysis_free(struct analysis *a);

/* report.c */
struct report_options {
	bool json;
	bool json_after_text;		/* --output-format=text,json */
	bool no_warnings;		/* on stderr: said by an earlier call */
	bool partial;			/* --partial: incomplete is a warning */
	uint64_t tp_cost_ns;		/* --tracepoint-cost */
	int64_t pid;			/* --pid, or PID_UNKNOWN: all */
};
/*
 * --pid: whether the analysis holds process @pid; if not, the pids it
 * holds are listed in @have.
 */
bool report_has_pid(const struct analysis *a, int64_t pid, char *have,
		    size_t len);
/*
 * find_incomplete() - runs that lack what rpcsim announced (a run_start
 * without its run_end) or counted (fewer calls than run_end's), when no
 * discard was recorded to explain it.  Returns how many; the first is
 * described in @first.
 */
unsigned int find_incomplete(const struct analysis *a, char *first,
			     size_t len);
/*
 * Add @src's counts and statistics into @dst, but its run_start
 * configuration and pagepool event counts (pp[], whose names are the
 * analysis's).
 */
void group_merge(struct group *dst, const struct group *src);
/* Print the analysis; returns the number of warnings. */
unsigned int report(struct analysis *a, const struct report_options *o,
		    FILE *out);
struct plot;
/* --plot: each mode's latency_ns histogram and pages per call into @p. */
int report_plot(struct analysis *a, const struct report_options *o,
		struct plot *p);

/*
 * rpcsim-analyze.c: the whole program (options, reading, report) as a
 * function, so the trace fuzzer (fuzz/trace.c) runs it in process.
 * Returns the exit status: 0, 1 runtime error, 2 bad usage (a bad option
 * still exits the process).
 */
int rpcsim_analyze_main(int argc, char **argv);
/*
 * Read and report in a child process, so that a crash of libbabeltrace2
 * on a corrupted trace is an error message (default true).
 */
extern bool analyze_isolate;

#endif /* RPCSIM_ANALYZE_H */
