/* SPDX-License-Identifier: MIT */
/*
 * rpcsim-analyze: per-call latency of svc_alloc_arg() from an LTTng-UST
 * trace of rpcsim, printed the way the seed's cover letter did:
 *
 *   Bulk array:   4.590 us per call over 517,442 calls
 *
 * Exit status: 0 results printed (warnings, if any, on stderr); 1 runtime
 * error: a path missing or unreadable, no trace below a path, a trace
 * babeltrace2 cannot decode (truncated, corrupted), or no rpcsim or
 * page_pool event at all; 2 bad usage.
 */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <babeltrace2/babeltrace.h>

#include "analyze.h"
#include "ppool.h"
#include "cmdline.h"
#include "files.h"
#include "number.h"
#include "plot.h"
#include "tool.h"

#define TP_COST_DEFAULT_NS	300
#define TP_COST_MAX_NS		1000000	/* also in the message for ':' */
#define PID_MAX			4194304	/* Linux's PID_MAX_LIMIT, 64-bit */
#define PID_MAX_STR		"4194304"
#define JOBS_MAX		256
#define JOBS_MAX_STR		"256"

static void usage(FILE *f)
{
	fprintf(f,
"Usage: rpcsim-analyze [OPTION]... TRACE...\n"
"  or:  rpcsim-analyze [OPTION]... --live=URL\n"
"Per-call latency of svc_alloc_arg() from an LTTng-UST trace of rpcsim.\n"
"\n"
"TRACE is a directory lttng wrote (lttng create --output=TRACE); the CTF\n"
"traces below it (directories holding a 'metadata' file) are found\n"
"recursively.  Several TRACEs are read as one trace, in time order.\n"
"\n"
"Options:\n"
"  -j, --json               print one JSON document (default: text)\n"
"      --output-format=FMT  text, json (as --json), or text,json: the text\n"
"                           report, then the JSON document, as fio's\n"
"                           normal,json (default: text)\n"
"  -o, --output=FILE        write the report to FILE instead of stdout;\n"
"                           FILE is replaced only when the analysis\n"
"                           succeeds (default: stdout)\n"
"  -c, --tracepoint-cost=NS cost of one enabled tracepoint, in ns (default %d,\n"
"                           accepted 0..%d); see the check below\n"
"  -v, --verbose            babeltrace2's warnings, every cause of an error,\n"
"                           and how --jobs shared out the work (default:\n"
"                           off)\n"
"      --partial            accept an incomplete trace: stream files\n"
"                           missing, empty, cut or unreadable, runs that\n"
"                           lack their run_end or calls run_end counted,\n"
"                           with no discard recorded, are warnings and what\n"
"                           is there is reported (default: exit 1)\n"
"      --pid=PID            report only the process PID (0..%d; default:\n"
"                           each process apart, never merged)\n"
"      --jobs=N             read in N processes at once (1..%d; default: the\n"
"                           online CPUs): a trace with an LTTng index and no\n"
"                           discard is cut into N time ranges, each process\n"
"                           counting its own; others are shared out by\n"
"                           stream file, their events merged by time: the\n"
"                           results are those of --jobs=1\n"
"      --schema             print the trace fields this tool reads, one per\n"
"                           line (event, field, type, needed or optional,\n"
"                           its key in the --json runs), and exit\n"
"      --plot=FILE          draw each mode's per-call latency_ns (histogram,\n"
"                           CDF and tail, log x axis) and pages refilled\n"
"                           per call into FILE, an .svg or .png, with\n"
"                           gnuplot (default: no plot)\n"
"      --live=URL           follow a live session (rpcsim --trace-live)\n"
"                           at URL, net://HOST[:PORT]/host/HOSTNAME/SESSION\n"
"                           (the relay daemon's live port, default 5344):\n"
"                           each second a line of each mode's per-call\n"
"                           latency over that second, on stdout (stderr\n"
"                           with --json or --output), then, once the\n"
"                           session ends, the report of the whole run;\n"
"                           start it as soon as rpcsim prints the URL: a\n"
"                           viewer joining later misses the start (said,\n"
"                           exit 1; --partial reports what was seen)\n"
"  -h, --help               print this help and exit\n"
"  -V, --version            print the version and exit\n"
"\n"
"For each mode (Single page, Bulk list, Bulk array), one line\n"
"  Bulk array:   4.590 us per call over 517,442 calls\n"
"from svc_alloc_arg_exit's latency_ns, then its distribution, the same\n"
"latency_ns by refill size in rpcsim's words (\"by refill: 1 page: ...;\n"
"more: ...\", by the exit's allocated: at most one page, or more), the\n"
"latency from the entry/exit timestamps of each thread (needs the vtid\n"
"context: lttng add-context -u -t vtid), rpcsim's own run_end totals,\n"
"pages and allocator calls per call, no-progress retries and pagepool\n"
"events per call; one line per run when there were several.  Calls\n"
"outside a mode's runs (rpcsim --warmup's, before run_start) are left out\n"
"of its figures, on a line of their own, when every run was recorded\n"
"from run_start to run_end and made calls; else they count.  A trace\n"
"that holds several processes (the vpid context, or per-PID buffers,\n"
"tells them apart) is reported process by process.  With page_pool:*\n"
"events (rpcsim --consumer=page_pool), per refill mode\n"
"  Bulk array:  15.789 us per refill over 160 refills\n"
"from page_pool_alloc_slow's latency_ns, pages per refill, and per pool\n"
"its state_hold and state_release events against page_pool_release's\n"
"pages in flight.  Warnings (discarded events, unmatched entry/exit\n"
"events, counts differing from run_end, methods disagreeing, pools that\n"
"do not balance) go to stderr.\n"
"\n"
"The check between the two methods: per paired call, d = timestamps -\n"
"latency_ns holds the tracepoints' own cost, so it should be small and\n"
"positive.  Warned about: median(d) or mean(d) below -0.050 us (the events\n"
"do not bracket what rpcsim timed), or above 2 x the tracepoint cost.\n"
"\n"
"Environment: RPCSIM_GNUPLOT=PATH, the gnuplot --plot runs (default:\n"
"gnuplot in PATH); RPCSIM_GNUPLOT_SECONDS=N, how long it may draw before\n"
"it is stopped and the plot fails (default: 60).\n"
"\n"
"Exit status: 0 results printed; 1 a trace missing, unreadable,\n"
"corrupted or incomplete (without --partial), or without any rpcsim or\n"
"page_pool event, the reading process or a decoding worker killed by a\n"
"signal sent to it alone, the plot not drawn (no gnuplot, or it failed or\n"
"never finished), or with --live no relay daemon answering, no such\n"
"session, or one joined after its start; 2 bad usage.\n",
		TP_COST_DEFAULT_NS, TP_COST_MAX_NS, PID_MAX, JOBS_MAX);
}

/* Digits only (common/number.h: the tools' one number syntax). */
static uint64_t parse_ns(const char *opt, const char *arg, uint64_t max)
{
	uint64_t v;

	if (num_parse_u64(arg, &v) || v > max)
		tool_die(2, "invalid %s '%s': accepted an integer 0..%" PRIu64
			 "%s", opt, arg, max,
			 strcmp(opt, "--pid") ? " (ns)" : " (a process id)");
	return v;
}

/* --jobs: 1..JOBS_MAX processes. */
static unsigned int parse_jobs(const char *arg)
{
	uint64_t v;

	if (num_parse_u64(arg, &v) || v < 1 || v > JOBS_MAX)
		tool_die(2, "invalid --jobs '%s': accepted an integer 1..%d "
			 "(decoding processes)", arg, JOBS_MAX);
	return (unsigned int)v;
}

/* The default --jobs: the online CPUs. */
static unsigned int default_jobs(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	if (n < 1)
		return 1;
	return n > JOBS_MAX ? JOBS_MAX : (unsigned int)n;
}

/* --plot: the modes of @a into @path; 0, or 1 after saying why not. */
static int write_plot(struct analysis *a, const struct report_options *o,
		      const char *path, const char *gnuplot, char **traces,
		      int nr)
{
	char title[PATH_MAX + 128], err[1024];
	struct plot *p;
	int ret = 1;

	snprintf(title, sizeof(title), "rpcsim-analyze %s%s: svc_alloc_arg() "
		 "per call (latency_ns)", traces[0], nr > 1 ? " ..." : "");
	p = plot_new(title);
	if (!p || report_plot(a, o, p))
		fprintf(stderr, "rpcsim-analyze: --plot=%s: out of memory\n",
			path);
	else if (plot_write(p, path, gnuplot, err, sizeof(err)))
		fprintf(stderr, "rpcsim-analyze: --plot=%s: %s\n", path, err);
	else
		ret = 0;
	plot_free(p);
	return ret;
}

/* " (and 2 more stream files)" for @n more, or "". */
static const char *more(char *buf, size_t len, unsigned int n,
			const char *what)
{
	if (!n)
		return "";
	snprintf(buf, len, " (and %u more %s%s)", n, what, n == 1 ? "" : "s");
	return buf;
}

/* What the command line asked for, once parsed. */
struct run {
	char **traces;
	int nr;
	struct report_options ro;
	struct reader_options rd;
	const char *plot_path;
	const char *gnuplot;
	struct live_options live;	/* --live: url set */
};

/* Read the traces, print the report (and the plot): the exit status. */
static int run(const struct run *r)
{
	struct analysis a = { 0 };
	char what[PATH_MAX + 256], extra[64];
	unsigned int problems;
	int ret;

	if (r->live.url) {
		if (read_live(&a, &r->rd, &r->live)) {
			analysis_free(&a);
			return 1;
		}
		goto read;	/* the rest as for a trace on disk */
	}

	if (find_traces(&a, r->traces, (unsigned int)r->nr)) {
		analysis_free(&a);
		return 1;
	}
	if (check_input_files(&a)) {
		analysis_free(&a);
		return 1;
	}
	/* Before reading: libbabeltrace2 skips such files without a word. */
	problems = check_streams(&a, r->ro.partial, what, sizeof(what));
	if (problems && !r->ro.partial) {
		fprintf(stderr, "rpcsim-analyze: incomplete trace: %s%s; its "
			"report would be wrong (--partial reads what is "
			"there)\n", what,
			more(extra, sizeof(extra), problems - 1, "stream file"));
		analysis_free(&a);
		return 1;
	}
	if (read_traces(&a, &r->rd)) {
		analysis_free(&a);
		return 1;
	}
read:
	if (a.corrupt) {
		fprintf(stderr, "rpcsim-analyze: %s%s: corrupted trace: %s\n",
			r->traces[0], r->nr > 1 ? " ..." : "", a.corrupt);
		analysis_free(&a);
		return 1;
	}
	if (!a.rpcsim_events && !ppool_events(&a)) {
		char cnt[32];

		fprintf(stderr, "rpcsim-analyze: %s%s: no rpcsim or page_pool event among %s events (record with: lttng enable-event -u 'rpcsim:*', or 'page_pool:*' for rpcsim --consumer=page_pool)\n",
			r->traces[0], r->nr > 1 ? " ..." : "",
			fmt_thousands(cnt, sizeof(cnt), a.events));
		analysis_free(&a);
		return 1;
	}
	if (r->ro.pid != PID_UNKNOWN &&
	    !report_has_pid(&a, r->ro.pid, what, sizeof(what))) {
		fprintf(stderr, "rpcsim-analyze: %s%s: no event of process %"
			PRId64 " (--pid): the trace holds %s\n", r->traces[0],
			r->nr > 1 ? " ..." : "", r->ro.pid,
			what[0] ? what : "no process id (record with: lttng "
			"add-context -u -t vpid)");
		analysis_free(&a);
		return 1;
	}
	problems = find_incomplete(&a, what, sizeof(what));
	if (problems && !r->ro.partial) {
		fprintf(stderr, "rpcsim-analyze: %s%s: incomplete trace: "
			"%s%s, and no discard was recorded to explain it "
			"(--partial reports what is there)\n", r->traces[0],
			r->nr > 1 ? " ..." : "", what,
			more(extra, sizeof(extra), problems - 1, "run"));
		analysis_free(&a);
		return 1;
	}
	report(&a, &r->ro, stdout);
	if (r->ro.json_after_text) {
		struct report_options jo = r->ro;

		jo.json = true;
		jo.no_warnings = true;
		fputc('\n', stdout);
		report(&a, &jo, stdout);
	}
	ret = ferror(stdout) || fflush(stdout) ? 1 : 0;
	if (ret)
		fprintf(stderr, "rpcsim-analyze: writing the report: %s\n",
			strerror(errno));
	if (r->plot_path && write_plot(&a, &r->ro, r->plot_path, r->gnuplot,
				       r->traces, r->nr))
		ret = 1;
	analysis_free(&a);
	return ret;
}

/*
 * libbabeltrace2 2.0.4 aborts on some corrupted traces instead of
 * returning an error: assertions in its CTF decoder (for one, a packet
 * whose packet_size and content_size fields disagree in sign once read
 * as signed 64-bit values: msg-iter.c set_current_packet_content_sizes()),
 * which no check of ours can foresee without decoding CTF itself.  Bad
 * input must never crash the tool, so the reading and the report run in
 * a child process: its stdout is ours, its stderr comes through a pipe
 * and is passed on unchanged when it exits, and a child killed by a
 * signal becomes a one-line error (exit status 1), its own last words
 * shown only with -v.  The fuzzer (fuzz/trace.c) turns this off to run
 * the reading in its own process.
 */
bool analyze_isolate = true;

/*
 * The indexing watchdog's base allowance (struct reader_options): 10 s,
 * or RPCSIM_ANALYZE_INDEX_SECONDS (1..86400; the tests shorten it).
 */
static unsigned int index_watchdog_seconds(void)
{
	const char *env = getenv("RPCSIM_ANALYZE_INDEX_SECONDS");
	unsigned long v;
	char *end;

	if (!env || !*env)
		return 10;
	errno = 0;
	v = strtoul(env, &end, 10);
	if (errno || *end || v < 1 || v > 86400)
		return 10;
	return (unsigned int)v;
}

/* ASan builds: the child checks for leaks as exit() would have. */
void __lsan_do_leak_check(void) __attribute__((weak));

/*
 * A signal that would end the isolating parent goes to the child too,
 * so that it removes its temporary files and stops its workers (its own
 * guard, tmpdir.c) instead of reading on, or dying of SIGPIPE on its
 * stderr once the parent is gone.  The parent then ends as the signal
 * would have.  Those ignored on entry stay ignored, in both, and so do
 * the handlers of a timer's signals (fwd_timer_signal()).
 */
static const int fwd_signals[] = {
	SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGUSR1, SIGUSR2, SIGALRM,
	SIGPIPE, SIGXCPU, SIGXFSZ, SIGVTALRM, SIGPROF,
};
#define NR_FWD (sizeof(fwd_signals) / sizeof(fwd_signals[0]))
static volatile pid_t fwd_child;	/* 0 once reaped */
static volatile sig_atomic_t fwd_sig;
static struct sigaction fwd_old[NR_FWD];

static void fwd_on_signal(int sig)
{
	int saved = errno;

	fwd_sig = sig;
	if (fwd_child > 0)
		kill(fwd_child, sig);
	errno = saved;
}

static void fwd_block(sigset_t *old)
{
	sigset_t set;

	sigemptyset(&set);
	for (unsigned int i = 0; i < NR_FWD; i++)
		sigaddset(&set, fwd_signals[i]);
	sigprocmask(SIG_BLOCK, &set, old);
}

/*
 * A timer's signal that the program handles itself (a program that runs
 * the analysis in its own process, as the trace fuzzer runs it under
 * libFuzzer's SIGALRM timer) is its timer ticking, not a request to end:
 * it stays the program's.
 */
static bool fwd_timer_signal(int sig)
{
	return sig == SIGALRM || sig == SIGVTALRM || sig == SIGPROF;
}

/* Set (with the signals blocked, before fork()), or restore. */
static void fwd_set(bool on)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = fwd_on_signal;
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	for (unsigned int i = 0; i < NR_FWD; i++) {
		if (!on) {
			sigaction(fwd_signals[i], &fwd_old[i], NULL);
			continue;
		}
		sigaction(fwd_signals[i], NULL, &fwd_old[i]);
		if (fwd_old[i].sa_handler == SIG_IGN ||
		    (fwd_old[i].sa_handler != SIG_DFL &&
		     fwd_timer_signal(fwd_signals[i])))
			continue;
		sigaction(fwd_signals[i], &sa, NULL);
	}
}

/* Wait for the child and reap it, never signalling a pid reused since. */
static int fwd_reap(pid_t pid, int *status)
{
	siginfo_t si;
	sigset_t old;
	int ret;

	while (waitid(P_PID, (id_t)pid, &si, WEXITED | WNOWAIT) < 0)
		if (errno != EINTR)
			return -1;
	fwd_block(&old);
	ret = waitpid(pid, status, WNOHANG) == pid ? 0 : -1;
	fwd_child = 0;
	sigprocmask(SIG_SETMASK, &old, NULL);
	return ret;
}

/* The signals of a crash (libbabeltrace2's assertions abort). */
static bool crash_signal(int sig)
{
	return sig == SIGABRT || sig == SIGSEGV || sig == SIGBUS ||
	       sig == SIGILL || sig == SIGFPE || sig == SIGTRAP ||
	       sig == SIGSYS;
}

/*
 * The isolated reader, in the child: the signals as on entry, its stderr
 * into the pipe @pfd for the parent to hold, then run() and _exit().
 */
static __attribute__((noreturn)) void isolated_child(const struct run *r,
						     int pfd[2],
						     const sigset_t *mask)
{
	struct run rc = *r;
	int ret;

	sigprocmask(SIG_SETMASK, mask, NULL);
	/*
	 * These end the child, whatever handlers we inherited: an abort, the
	 * indexing watchdog, and an arithmetic fault (libbabeltrace2 2.0.4's
	 * CTF plugin divides by zero on some clock declarations), which a
	 * sanitizer's handler would otherwise turn into its own report and
	 * exit status instead of the signal the parent reports; our own
	 * integer divisions are checked by UBSan in those builds.
	 */
	signal(SIGABRT, SIG_DFL);
	signal(SIGALRM, SIG_DFL);	/* the indexing watchdog */
	signal(SIGFPE, SIG_DFL);
	rc.rd.index_watchdog_s = index_watchdog_seconds();
	close(pfd[0]);
	if (dup2(pfd[1], STDERR_FILENO) < 0)
		_exit(1);
	close(pfd[1]);
	ret = run(&rc);
	fflush(NULL);
	if (__lsan_do_leak_check)
		__lsan_do_leak_check();
	/* no atexit handlers: they are the parent's */
	_exit(ret);
}

/*
 * What the child wrote on @fd (its stderr) until it closed it, malloc'd,
 * its length in *@len; NULL with what could be held dropped when memory
 * runs out, still read to the end so that the child never blocks.
 */
static char *read_child_stderr(int fd, size_t *len)
{
	size_t cap = 0;
	char *buf = NULL;

	*len = 0;
	for (;;) {
		ssize_t n;

		if (*len == cap) {
			char *p = realloc(buf, cap ? 2 * cap : 4096);

			if (!p) {
				/* keep reading, or the child blocks */
				char sink[512];

				n = read(fd, sink, sizeof(sink));
				if (n > 0 || (n < 0 && errno == EINTR))
					continue;
				break;
			}
			buf = p;
			cap = cap ? 2 * cap : 4096;
		}
		n = read(fd, buf + *len, cap - *len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		*len += (size_t)n;
	}
	return buf;
}

/*
 * The exit status of an isolated reading that no signal of ours ended,
 * from the child's @status: its own when it exited (its stderr, @buf of
 * @len bytes, passed on), else 1 and one line saying why it was killed
 * (its stderr passed on too with -v).
 */
static int isolated_status(const struct run *r, int status, const char *buf,
			   size_t len, bool verbose)
{
	if (WIFEXITED(status) || verbose)
		fwrite(buf ? buf : "", 1, len, stderr);
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	if (WIFSIGNALED(status) && !crash_signal(WTERMSIG(status)) &&
	    WTERMSIG(status) != SIGALRM)
		fprintf(stderr, "rpcsim-analyze: %s%s: the reading process was killed by signal %d (%s)\n",
			r->traces[0], r->nr > 1 ? " ..." : "",
			WTERMSIG(status), strsignal(WTERMSIG(status)));
	else if (WIFSIGNALED(status) && WTERMSIG(status) == SIGALRM)
		fprintf(stderr, "rpcsim-analyze: %s%s: cannot read trace: libbabeltrace2 was still indexing its stream files when the watchdog stopped it (a packet of size 0?): the trace is corrupted\n",
			r->traces[0], r->nr > 1 ? " ..." : "");
	else
		fprintf(stderr, "rpcsim-analyze: %s%s: cannot read trace: libbabeltrace2 crashed on it (%s): the trace is corrupted%s\n",
			r->traces[0], r->nr > 1 ? " ..." : "",
			WIFSIGNALED(status) ? strsignal(WTERMSIG(status)) :
			"stopped", verbose ? "" : " (-v tells more)");
	return 1;
}

/*
 * run() in a forked child, so that libbabeltrace2 crashing or stalling on
 * a corrupted trace ends the child only and is said in one line; the
 * parent forwards the ending signals (fwd_*) and ends as they would.
 */
static int run_isolated(const struct run *r)
{
	bool verbose = r->rd.bt_log_level < BT_LOGGING_LEVEL_NONE;
	size_t len;
	char *buf;
	int pfd[2], status, ret, sig;
	sigset_t mask;
	pid_t pid;

	fflush(NULL);
	if (pipe(pfd)) {
		fprintf(stderr, "rpcsim-analyze: pipe: %s\n", strerror(errno));
		return 1;
	}
	fwd_block(&mask);
	pid = fork();
	if (pid < 0) {
		sigprocmask(SIG_SETMASK, &mask, NULL);
		fprintf(stderr, "rpcsim-analyze: fork: %s\n", strerror(errno));
		close(pfd[0]);
		close(pfd[1]);
		return 1;
	}
	if (pid == 0)
		isolated_child(r, pfd, &mask);
	fwd_child = pid;
	fwd_set(true);
	sigprocmask(SIG_SETMASK, &mask, NULL);
	close(pfd[1]);
	buf = read_child_stderr(pfd[0], &len);
	close(pfd[0]);
	if (fwd_reap(pid, &status)) {
		fwd_set(false);
		fprintf(stderr, "rpcsim-analyze: waitpid: %s\n",
			strerror(errno));
		free(buf);
		return 1;
	}
	fwd_set(false);
	sig = fwd_sig;
	if (sig && !(WIFSIGNALED(status) && WTERMSIG(status) == sig))
		fwrite(buf ? buf : "", 1, len, stderr);
	if (sig) {
		/*
		 * Ended by a signal: end as it would have (the child did),
		 * through what handled it before (SIG_DFL, or a handler
		 * that removes a file of its own first).
		 */
		free(buf);
		fflush(NULL);
		raise(sig);
		return 128 + sig;	/* blocked on entry, or handled */
	}
	ret = isolated_status(r, status, buf, len, verbose);
	free(buf);
	return ret;
}

#define LIVE_ACCEPTED "accepted net://HOST[:PORT]/host/HOSTNAME/SESSION " \
	"(or net6://), the relay daemon's live URL"
/*
 * babeltrace2 (2.0.4) reads the port from the first colon after the
 * scheme: a bracketed IPv6 address fails there ("Invalid port"), after
 * the graph was built.  Told at once instead; a host name resolves.
 */
#define LIVE_NO_BRACKETS "babeltrace2's live URL takes no bracketed " \
	"IPv6 address: give the relay daemon's host name (net6://HOST works)"

/* A port: digits 1..65535, its end or NULL. */
static const char *url_port(const char *p)
{
	unsigned long v = 0;
	const char *q = p;

	while (*q >= '0' && *q <= '9' && q - p < 6)
		v = v * 10 + (unsigned long)(*q++ - '0');
	return q == p || v < 1 || v > 65535 ? NULL : q;
}

/*
 * --live: net[6]://HOST[:PORT]/host/HOSTNAME/SESSION.  0, -1, or -2 for a
 * bracketed host otherwise right (LIVE_NO_BRACKETS).
 */
static int check_live_url(const char *url)
{
	const char *p = url, *host;
	size_t n;

	if (!strncmp(p, "net://", 6))
		p += 6;
	else if (!strncmp(p, "net6://", 7))
		p += 7;
	else
		return -1;
	host = p;
	if (*p == '[') {
		p = strchr(p, ']');
		if (!p || p == host + 1)
			return -1;
		p++;
	} else {
		p += strcspn(p, ":/");
	}
	if (p == host)
		return -1;
	if (*p == ':' && !(p = url_port(p + 1)))
		return -1;
	if (strncmp(p, "/host/", 6))
		return -1;
	p += 6;
	n = strcspn(p, "/");
	if (!n || p[n] != '/')
		return -1;
	p += n + 1;
	if (!*p || strchr(p, '/'))
		return -1;
	return *host == '[' ? -2 : 0;
}

/* What an option given without its value takes, for the message. */
static const char *value_needed(int opt)
{
	switch (opt) {
	case 'p':
		return "a file name ending in .svg or .png";
	case 'i':
		return "accepted a process id 0.." PID_MAX_STR;
	case 'o':
		return "accepted a file name";
	case 'F':
		return "accepted text, json or text,json";
	case 'J':
		return "accepted an integer 1.." JOBS_MAX_STR;
	case 'L':
		return LIVE_ACCEPTED;
	default:
		return "accepted an integer 0..1000000 (ns)";
	}
}

/*
 * getopt_long() refused an option.  For "--json=1" it reports optopt 'j',
 * which would name a "-j" nobody typed: look at what was typed.
 */
static void bad_option(const struct option *longopts, const char *arg)
{
	const char *name = cmdline_refused_value(longopts, arg);

	if (name)
		tool_die(2, "option '--%s' takes no value (in '%s'): see --help",
			  name, arg);
	if (!strncmp(arg, "--", 2))
		tool_die(2, "unknown or ambiguous option '%.*s': see --help",
			  (int)(strcspn(arg + 2, "=") + 2), arg);
	if (optopt > 0 && optopt < 128) {
		char opt[3] = { '-', (char)optopt, '\0' };

		tool_die(2, "unknown option '%s': see --help", opt);
	}
	tool_die(2, "unknown option '%s': see --help", arg);
}

/* take_option(): go on with the next option. */
#define OPT_NEXT	(-1)

/* --version: the tools' one line, with the babeltrace2 library's. */
static void print_version(void)
{
	char bt[32];

	snprintf(bt, sizeof(bt), "%u.%u.%u", bt_version_get_major(),
		 bt_version_get_minor(), bt_version_get_patch());
	tool_print_version(&(struct tool_component){ "libbabeltrace2", bt },
			   1);
}

/*
 * Option @c, as getopt_long() returned it, into @r and @output: OPT_NEXT,
 * or the exit status of an option that ends the program here (--schema,
 * --help, --version, a --plot file name refused).  A bad value exits 2.
 */
static int take_option(int c, char **argv, const struct option *longopts,
		       struct run *r, const char **output)
{
	char why[512];

	switch (c) {
	case 'j':
		r->ro.json = true;
		r->ro.json_after_text = false;
		break;
	case 'F':
		if (!strcmp(optarg, "text") || !strcmp(optarg, "json") ||
		    !strcmp(optarg, "text,json")) {
			r->ro.json = !strcmp(optarg, "json");
			r->ro.json_after_text = !strcmp(optarg, "text,json");
		} else {
			tool_die(2, "invalid --output-format '%s': accepted "
				 "text, json or text,json", optarg);
		}
		break;
	case 'o':
		if (!*optarg)
			tool_die(2, "%s", "invalid --output '': accepted a "
				 "file name");
		*output = optarg;
		break;
	case 'P':
		r->ro.partial = true;
		r->rd.partial = true;
		break;
	case 'c':
		r->ro.tp_cost_ns = parse_ns("--tracepoint-cost", optarg,
					    TP_COST_MAX_NS);
		break;
	case 'v':
		r->rd.bt_log_level = BT_LOGGING_LEVEL_WARNING;
		break;
	case 'i':
		/* One process per report: the last of two is no choice. */
		if (r->ro.pid != PID_UNKNOWN)
			tool_die(2, "--pid given twice (--pid=%" PRId64 ", then "
				 "--pid=%s): a report is of one process; give "
				 "--pid once", r->ro.pid, optarg);
		r->ro.pid = (int64_t)parse_ns("--pid", optarg, PID_MAX);
		break;
	case 'J':
		r->rd.jobs = parse_jobs(optarg);
		break;
	case 'L':
		switch (check_live_url(optarg)) {
		case 0:
			break;
		case -2:
			tool_die(2, "invalid --live '%s': %s", optarg,
				 LIVE_NO_BRACKETS);
			break;
		default:
			tool_die(2, "invalid --live '%s': %s", optarg,
				 LIVE_ACCEPTED);
		}
		r->live.url = optarg;
		break;
	case 'S':
		schema_print(stdout);
		return 0;
	case 'p':
		if (plot_check_path(optarg, why, sizeof(why))) {
			fprintf(stderr, "rpcsim-analyze: --plot=%s: %s\n",
				optarg, why);
			return 2;
		}
		r->plot_path = optarg;
		break;
	case 'h':
		usage(stdout);
		return 0;
	case 'V':
		print_version();
		return 0;
	case ':':
		tool_die(2, "option '%s' needs a value: %s", argv[optind - 1],
			 value_needed(optopt));
		break;
	default:
		bad_option(longopts, argv[optind - 1]);
	}
	return OPT_NEXT;
}

int rpcsim_analyze_main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "tracepoint-cost", required_argument, NULL, 'c' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "plot", required_argument, NULL, 'p' },
		{ "partial", no_argument, NULL, 'P' },
		{ "pid", required_argument, NULL, 'i' },
		{ "jobs", required_argument, NULL, 'J' },
		{ "output", required_argument, NULL, 'o' },
		{ "output-format", required_argument, NULL, 'F' },
		{ "schema", no_argument, NULL, 'S' },
		{ "live", required_argument, NULL, 'L' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 }
	};
	struct run r = {
		.ro = { .tp_cost_ns = TP_COST_DEFAULT_NS, .pid = PID_UNKNOWN },
		.rd = { .bt_log_level = BT_LOGGING_LEVEL_NONE },
	};
	const char *output = NULL;
	char gnuplot[PATH_MAX], why[512];
	int c, ret;

	tool_set_name("rpcsim-analyze");
	opterr = 0;
	optind = 0;	/* a second call parses its own argv from the start */
	while ((c = getopt_long(argc, argv, ":jc:vhVo:", longopts,
				NULL)) != -1) {
		ret = take_option(c, argv, longopts, &r, &output);
		if (ret != OPT_NEXT)
			return ret;
	}
	if (r.live.url) {
		if (optind < argc)
			tool_die(2, "--live=%s and TRACE '%s': give one of "
				 "them", r.live.url, argv[optind]);
		if (r.plot_path)
			tool_die(2, "%s", "--live and --plot: plot the trace "
				 "the relay daemon wrote instead");
		r.live.out = output || r.ro.json ? stderr : stdout;
		r.live.interval_ms = 1000;
		/*
		 * In this process: the isolating parent would hold the
		 * child's stderr (the lines with --json) until its end.
		 */
		r.rd.jobs = 1;
		r.traces = (char **)&r.live.url;
		r.nr = 1;
		ret = run(&r);
		return output ? atomic_stdout_finish(output, ret, "analysis",
						     NULL) : ret;
	}
	if (optind >= argc)
		tool_die(2, "%s", "missing TRACE: accepted one or more trace directories (see --help)");
	/* Before anything runs, as a bad option value is. */
	if (r.plot_path && plot_read_timeout(why, sizeof(why)))
		tool_die(2, "%s", why);
	if (r.plot_path && (plot_find_gnuplot(gnuplot, sizeof(gnuplot), why,
					      sizeof(why)) ||
			    plot_check_dest(r.plot_path, why, sizeof(why)))) {
		fprintf(stderr, "rpcsim-analyze: --plot=%s: %s\n",
			r.plot_path, why);
		return 1;
	}

	/*
	 * stdout itself: what the isolated child prints goes there too;
	 * FILE replaced only when the analysis succeeds (files.h)
	 */
	if (output && atomic_stdout_open(output, why, sizeof(why))) {
		fprintf(stderr, "rpcsim-analyze: --output=%s: %s\n", output,
			why);
		return 1;
	}
	/* workers are processes: only under a process of our own */
	if (!r.rd.jobs)
		r.rd.jobs = default_jobs();
	if (!analyze_isolate)
		r.rd.jobs = 1;
	r.traces = argv + optind;
	r.nr = argc - optind;
	r.gnuplot = gnuplot;
	ret = analyze_isolate ? run_isolated(&r) : run(&r);
	return output ? atomic_stdout_finish(output, ret, "analysis", NULL)
		      : ret;
}
