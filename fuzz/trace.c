/* SPDX-License-Identifier: MIT */
/*
 * trace: libFuzzer target for rpcsim-analyze's trace reading.
 *
 * The base is a small real trace (fuzz/trace-base: LTTng-UST recording of
 * tests/analyze's tracegen, two modes, a few dozen events, packet padding
 * trimmed by trim-trace.py).  An input replaces part of it:
 *
 *   byte 0, bits 0-2  what the rest of the input is:
 *                     0 the metadata file (packetized or not), base stream
 *                     1 the stream file, base metadata
 *                     2 a 16-bit length, that many bytes of metadata file,
 *                       then the stream file
 *                     3 TSDL text, written as a plain-text metadata file
 *                     4 TSDL text, cut into well-formed metadata packets
 *                       (magic, the base's uuid, sizes), base stream
 *   bit 3             --json
 *   bit 4             -v (every cause of an error)
 *   bit 5             a second stream file, a copy of the first, and
 *                     --jobs=2; then --jobs=1 must say the same
 *   bit 6             no stream file at all
 *   bit 7             give the parent directory (the trace is found below)
 *
 * The trace is written to a temporary directory and rpcsim-analyze runs,
 * stdout to /dev/null, stderr caught: first in a child process, then in
 * this one (rpcsim_analyze_main(), reading in process, where the fuzzer
 * sees the coverage), or, if libbabeltrace2 aborted in the child on one
 * of its own assertions or precondition checks, faulted on arithmetic
 * (SIGFPE in its code) or looped (CHILD_SECONDS), as the real tool runs
 * (reading in a child of its own with a watchdog, analyze_isolate).
 * Checks: it returns, within libFuzzer's -timeout (a hang is a crash);
 * with status 0 (results) or 1 (an unreadable trace), never 2 or
 * anything else, the same in the child and here; on 1 it said why, on
 * one line naming the program (with -v, the causes follow it), and a
 * crash or loop of libbabeltrace2 is reported as one; on 0 whatever it
 * printed on stderr are its warnings; no sanitizer report; with two
 * stream files, --jobs=2 says what --jobs=1 says (same_as_one_process()).
 * Leaks are looked for in the replay of make check (see below).
 *
 * FUZZ_TRACE_VERBOSE=1 shows rpcsim-analyze's stderr for each input;
 * FUZZ_TRACE_DIR=DIR writes the trace to DIR/trace and leaves it there
 * (run the real rpcsim-analyze on it).
 */
#include "config.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <babeltrace2/babeltrace.h>

#include "../analyze/analyze.h"
#include "fuzz.h"

#ifndef FUZZ_SRCDIR
#define FUZZ_SRCDIR "."
#endif

#define TSDL_MAGIC		0x75d11d57u
#define TSDL_HEADER_SIZE	37
#define TSDL_PACKET_TEXT	4000	/* text bytes per packet (mode 4) */
#define STDERR_MAX		65536
/* What the reading child says of an arithmetic fault in libbabeltrace2. */
#define BT_FPE_MARK	"fuzz-trace: arithmetic fault inside libbabeltrace2\n"

/*
 * A child reading in process that has not finished in this time is taken
 * as a libbabeltrace2 loop; the tool's own watchdog on indexing is set to
 * 1 s (RPCSIM_ANALYZE_INDEX_SECONDS) so it reports one in time: both well
 * below make fuzz's -timeout=10.
 */
#define CHILD_SECONDS		2

struct blob {
	unsigned char *p;
	size_t n;
};

static struct blob base_meta, base_stream;
static char tmpdir[PATH_MAX], tracedir[PATH_MAX];
static bool verbose;

/*
 * LeakSanitizer: libbabeltrace2 2.0.4's ctf plugin loses small blocks when
 * it fails to build a trace from metadata it cannot parse (source.ctf.fs
 * initialisation, inside bt_graph_add_source_component(): "Cannot create
 * trace for ..."), and when it gives up decoding a stream (inside
 * bt_message_iterator_next(): "Cannot handle state: ...").  Those are the
 * library's: no code of ours runs below either call (our sink calls
 * bt_message_iterator_next(), not the other way round), so naming them
 * hides nothing of ours.  (The analyze tests turn leak detection off for
 * broken traces for the same reason.)
 */
const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void)
{
	return "leak:bt_graph_add_source_component\n"
	       "leak:bt_message_iterator_next\n";
}

/*
 * libbabeltrace2 and its plugins have no frame pointers: the fast unwinder
 * stops inside them and the suppression above would not see its frame.
 */
const char *__asan_default_options(void);
const char *__asan_default_options(void)
{
	return "fast_unwind_on_malloc=0";
}

/*
 * Sanitizer reports go to @report_fd, the stderr we started with, not to
 * the file that catches rpcsim-analyze's stderr.  Set again for every
 * input: the setting holds only in the process that made it, and the
 * replay (replay.c) runs each input in a child.
 */
void __sanitizer_set_report_fd(void *fd) __attribute__((weak));
static int report_fd = -1;

static void die(const char *what)
{
	fprintf(stderr, "trace fuzzer: %s: %s\n", what, strerror(errno));
	exit(1);
}

/* @dir/@name into @path (PATH_MAX bytes); false if it does not fit. */
static bool join_path(char *path, const char *dir, const char *name)
{
	int n = snprintf(path, PATH_MAX, "%s/%s", dir, name);

	if (n < 0 || n >= PATH_MAX) {
		errno = ENAMETOOLONG;
		return false;
	}
	return true;
}

static struct blob slurp(const char *dir, const char *name)
{
	char path[PATH_MAX];
	struct blob b = { 0 };
	struct stat st;
	int fd;

	if (!join_path(path, dir, name))
		die(dir);
	fd = open(path, O_RDONLY);
	if (fd < 0 || fstat(fd, &st))
		die(path);
	b.n = (size_t)st.st_size;
	b.p = malloc(b.n ? b.n : 1);
	if (!b.p || read(fd, b.p, b.n) != (ssize_t)b.n)
		die(path);
	close(fd);
	return b;
}

static pid_t owner;

static void cleanup(void)
{
	static const char *const names[] = { "metadata", "stream", "stream2" };

	if (getpid() != owner)
		return;

	for (unsigned int i = 0; i < 3; i++) {
		char path[PATH_MAX];

		if (join_path(path, tracedir, names[i]))
			unlink(path);
	}
	rmdir(tracedir);
	rmdir(tmpdir);
	free(base_meta.p);
	free(base_stream.p);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *base = getenv("FUZZ_TRACE_BASE");
	char dflt[PATH_MAX];

	(void)argc;
	(void)argv;
	if (!base) {
		const char *top = getenv("top_srcdir");

		if (top)
			snprintf(dflt, sizeof(dflt), "%s/fuzz/trace-base", top);
		else
			snprintf(dflt, sizeof(dflt), "%s/trace-base",
				 FUZZ_SRCDIR);
		base = dflt;
	}
	base_meta = slurp(base, "metadata");
	base_stream = slurp(base, "stream");
	if (getenv("FUZZ_TRACE_DIR")) {
		/* keep the (last) trace written, to run rpcsim-analyze on */
		snprintf(tmpdir, sizeof(tmpdir), "%s", getenv("FUZZ_TRACE_DIR"));
		if (mkdir(tmpdir, 0700) && errno != EEXIST)
			die(tmpdir);
	} else {
		snprintf(tmpdir, sizeof(tmpdir), "%s/fuzz-trace.XXXXXX",
			 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
		if (!mkdtemp(tmpdir))
			die(tmpdir);
		owner = getpid();
		atexit(cleanup);
	}
	if (!join_path(tracedir, tmpdir, "trace"))
		die(tmpdir);
	if (mkdir(tracedir, 0700) && errno != EEXIST)
		die(tracedir);
	setenv("RPCSIM_ANALYZE_INDEX_SECONDS", "1", 0);
	verbose = getenv("FUZZ_TRACE_VERBOSE") &&
		  *getenv("FUZZ_TRACE_VERBOSE") == '1';
	report_fd = dup(2);
	return 0;
}

static void put_file(const char *name, const void *p, size_t n)
{
	char path[PATH_MAX];
	int fd;

	if (!join_path(path, tracedir, name))
		die(tracedir);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (fd < 0 || (n && write(fd, p, n) != (ssize_t)n) || close(fd))
		die(path);
}

static void drop_file(const char *name)
{
	char path[PATH_MAX];

	if (join_path(path, tracedir, name))
		unlink(path);
}

static void put_le32(unsigned char *p, uint32_t v)
{
	p[0] = (unsigned char)v;
	p[1] = (unsigned char)(v >> 8);
	p[2] = (unsigned char)(v >> 16);
	p[3] = (unsigned char)(v >> 24);
}

/* TSDL text as well-formed metadata packets with the base's uuid. */
static struct blob packetize(const unsigned char *text, size_t n)
{
	size_t nr = n ? (n + TSDL_PACKET_TEXT - 1) / TSDL_PACKET_TEXT : 1;
	struct blob b;
	size_t off = 0;

	b.p = malloc(nr * (TSDL_HEADER_SIZE + TSDL_PACKET_TEXT));
	b.n = 0;
	if (!b.p)
		die("malloc");
	for (size_t i = 0; i < nr; i++) {
		size_t len = n - off < TSDL_PACKET_TEXT ? n - off :
			     TSDL_PACKET_TEXT;
		unsigned char *h = b.p + b.n;
		uint32_t bits = (uint32_t)((TSDL_HEADER_SIZE + len) * 8);

		memset(h, 0, TSDL_HEADER_SIZE);
		put_le32(h, TSDL_MAGIC);
		if (base_meta.n >= 20)
			memcpy(h + 4, base_meta.p + 4, 16);	/* uuid */
		put_le32(h + 24, bits);		/* content_size */
		put_le32(h + 28, bits);		/* packet_size */
		h[35] = 1;			/* major */
		h[36] = 8;			/* minor */
		memcpy(h + TSDL_HEADER_SIZE, text + off, len);
		b.n += TSDL_HEADER_SIZE + len;
		off += len;
	}
	return b;
}

/* What was written to @fd since the last call, into @buf; @fd emptied. */
static void take_output(int fd, char *buf)
{
	ssize_t n = -1;

	if (lseek(fd, 0, SEEK_SET) == 0)
		n = read(fd, buf, STDERR_MAX);
	buf[n > 0 ? n : 0] = '\0';
	if (ftruncate(fd, 0) || lseek(fd, 0, SEEK_SET))
		die("emptying the stderr file");
}

/*
 * The captured stderr, as the contract wants it.  Without -v: every line
 * is "rpcsim-analyze: ...", warnings only on success, exactly one line on
 * failure.  With -v, babeltrace2's own log lines and the causes of an
 * error come too, so only the program's own error line is looked for.
 */
static const char *check_stderr(const char *err, int ret, bool verb)
{
	const char *p = err;
	unsigned int lines = 0, own = 0;

	if (ret == 1 && !*err)
		return "exit status 1 without a message";
	for (; *p; lines++) {
		const char *nl = strchr(p, '\n');
		bool mine = !strncmp(p, "rpcsim-analyze: ", 16);
		bool warning = !strncmp(p, "rpcsim-analyze: warning: ", 25);

		if (!nl)
			return "stderr does not end with a newline";
		if (!verb && !mine)
			return "a stderr line without 'rpcsim-analyze: '";
		if (!verb && ret == 0 && !warning)
			return "exit status 0 with a message that is not a "
			       "warning";
		own += mine && !warning;
		p = nl + 1;
	}
	if (ret == 1 && !verb && lines != 1)
		return "exit status 1 with more than one line";
	if (ret == 1 && !own)
		return "exit status 1 without an 'rpcsim-analyze: ' line";
	return NULL;
}

/*
 * The trace the input makes (see the top of this file): its metadata and
 * stream files written over the base's, per @flags.
 */
static void write_trace(struct fz_input *in, uint8_t flags)
{
	struct blob meta = base_meta, stream = base_stream, owned = { 0 };

	switch (flags & 7) {
	case 0:
		meta.p = (unsigned char *)in->p;
		meta.n = in->left;
		break;
	case 1:
		stream.p = (unsigned char *)in->p;
		stream.n = in->left;
		break;
	case 2: {
		size_t len = fz_u16(in);

		if (len > in->left)
			len = in->left;
		meta.p = (unsigned char *)in->p;
		meta.n = len;
		stream.p = (unsigned char *)in->p + len;
		stream.n = in->left - len;
		break;
	}
	case 3:
		meta.p = (unsigned char *)in->p;
		meta.n = in->left;
		break;
	default:
		owned = packetize(in->p, in->left);
		meta = owned;
		break;
	}
	put_file("metadata", meta.p, meta.n);
	if (flags & 0x40) {
		drop_file("stream");
	} else {
		put_file("stream", stream.p, stream.n);
	}
	if (flags & 0x20)
		put_file("stream2", stream.p, stream.n);
	else
		drop_file("stream2");
	free(owned.p);
}

/* rpcsim-analyze's command line for @flags into @argv; returns argc. */
static int analyze_argv(char **argv, char *cost, size_t cost_len,
			uint8_t flags)
{
	int argc = 0;

	argv[argc++] = "rpcsim-analyze";
	if (flags & 0x08)
		argv[argc++] = "--json";
	if (flags & 0x10)
		argv[argc++] = "-v";
	snprintf(cost, cost_len, "--tracepoint-cost=%u",
		 (unsigned int)(flags >> 3) * 100);
	argv[argc++] = cost;
	if (flags & 0x20)
		argv[argc++] = "--jobs=2";	/* a worker a stream file */
	argv[argc++] = flags & 0x80 ? tmpdir : tracedir;
	argv[argc] = NULL;
	return argc;
}

/* How rpcsim-analyze ran on one input, in a child and in process. */
struct analyze_run {
	int ret;		/* its exit status, in process */
	int status;		/* the child's wait status */
	bool crashed;		/* the child died of a signal */
	bool bt_assert;		/* libbabeltrace2 asserted or hung */
	bool stale;		/* it left a libbabeltrace2 error behind */
	char err[STDERR_MAX + 1], child_err[STDERR_MAX + 1];
	char out[STDERR_MAX + 1];	/* its stdout, in process */
};

/*
 * The reading child's SIGFPE: when the faulting instruction lies in
 * libbabeltrace2 or one of its plugins (2.0.4's CTF plugin divides by
 * zero on some clock declarations, the babeltrace2 command too), say so
 * for the parent; then die by the signal with the default action, raised
 * again so that one sent by kill() (si_code <= 0: no instruction to
 * fault again) ends the child too.  dladdr(), not async-signal-safe,
 * runs in a process that is ending.  The object is told by its file's
 * name alone: the fuzzer itself, which links the analyzer in, may sit
 * in a directory named after babeltrace.
 */
static void child_fpe(int sig, siginfo_t *si, void *uc)
{
	Dl_info di;

	(void)uc;
	if (si->si_code > 0 && dladdr(si->si_addr, &di) && di.dli_fname) {
		const char *base = strrchr(di.dli_fname, '/');

		base = base ? base + 1 : di.dli_fname;
		if (!strncmp(base, "libbabeltrace2.so",
			     strlen("libbabeltrace2.so")) ||
		    !strncmp(base, "babeltrace-plugin-",
			     strlen("babeltrace-plugin-")))
			(void)!write(2, BT_FPE_MARK, sizeof(BT_FPE_MARK) - 1);
	}
	signal(sig, SIG_DFL);
	raise(sig);	/* pending until this handler returns */
}

/*
 * Run rpcsim-analyze on the trace, stdout (in process; the child's to
 * /dev/null) and stderr into @r.  First in a child, reading in process as
 * the fuzzer does below:
 * libbabeltrace2 may abort on the input (an assertion of its own), which
 * would stop the fuzzer.  If it did, run what the tool runs, the reading
 * in a child of its own, and check that the tool turns the crash into one
 * line and exit status 1.  Otherwise, run the reading here, where the
 * fuzzer sees its coverage.
 */
static void run_analyze(int argc, char **argv, struct analyze_run *r)
{
	int fd, ofd, out, saved1, saved2;
	pid_t pid;

	r->ret = 0;
	r->stale = false;
	r->out[0] = '\0';
	fflush(NULL);
	out = open("/dev/null", O_WRONLY);
	fd = memfd_create("rpcsim-analyze-stderr", 0);
	ofd = memfd_create("rpcsim-analyze-stdout", 0);
	saved1 = dup(1);
	saved2 = dup(2);
	if (out < 0 || fd < 0 || ofd < 0 || saved1 < 0 || saved2 < 0 ||
	    dup2(out, 1) < 0 || dup2(fd, 2) < 0)
		die("redirecting stdout and stderr");
	close(out);

	pid = fork();
	if (pid < 0)
		die("fork");
	if (pid == 0) {
		/* die by the signal, not in libFuzzer's or ASan's handlers */
		static const int sigs[] = { SIGABRT, SIGSEGV, SIGBUS, SIGILL,
					    SIGFPE, SIGALRM };
		struct sigaction fpe = { .sa_sigaction = child_fpe,
					 .sa_flags = SA_SIGINFO };
		int ret;

		for (unsigned int i = 0; i < sizeof(sigs) / sizeof(*sigs); i++)
			signal(sigs[i], SIG_DFL);
		sigaction(SIGFPE, &fpe, NULL);
		alarm(CHILD_SECONDS);	/* a hang ends as SIGALRM */
		analyze_isolate = false;
		ret = rpcsim_analyze_main(argc, argv);
		fflush(NULL);
		_exit(ret);
	}
	while (waitpid(pid, &r->status, 0) < 0)
		if (errno != EINTR)
			die("waitpid");
	take_output(fd, r->child_err);
	r->crashed = WIFSIGNALED(r->status);
	/*
	 * libbabeltrace2's assertions, the aborts of its library's own
	 * precondition checks (its CTF reader can hand the library what the
	 * library refuses, e.g. a structure with two members of one name),
	 * its arithmetic faults (child_fpe()) and its loops (our alarm)
	 */
	r->bt_assert = r->crashed &&
		       ((WTERMSIG(r->status) == SIGABRT &&
			 ((strstr(r->child_err, ": Assertion `") &&
			   strstr(r->child_err, "` failed.")) ||
			  strstr(r->child_err, "Babeltrace 2 library "
					       "precondition not satisfied"))) ||
			(WTERMSIG(r->status) == SIGFPE &&
			 strstr(r->child_err, BT_FPE_MARK)) ||
			WTERMSIG(r->status) == SIGALRM);
	if (!r->crashed || r->bt_assert) {
		const bt_error *stale;

		if (dup2(ofd, 1) < 0)
			die("redirecting stdout");
		analyze_isolate = r->bt_assert;
		r->ret = rpcsim_analyze_main(argc, argv);
		analyze_isolate = true;
		/*
		 * An error left on the thread makes libbabeltrace2's next
		 * API call abort (a precondition): the tool must take or
		 * clear every error it causes.
		 */
		stale = bt_current_thread_take_error();
		if (stale) {
			bt_error_release(stale);
			r->stale = true;
		}
	}
	fflush(NULL);
	clearerr(stdout);
	take_output(fd, r->err);
	take_output(ofd, r->out);
	dup2(saved1, 1);
	dup2(saved2, 2);
	close(saved1);
	close(saved2);
	close(fd);
	close(ofd);
}

/* What the checks at the top of this file say of run @r: fz_fail() if bad. */
static void judge(const struct analyze_run *r, uint8_t flags)
{
	const char *bad;

	if (verbose)
		fprintf(stderr, "trace: mode %u flags 0x%02x: exit %d%s\n%s",
			flags & 7, flags, r->ret, r->bt_assert ?
			" (libbabeltrace2 aborted in the child)" : "", r->err);
	if (r->stale)
		fz_fail("trace", 0, "rpcsim-analyze left a libbabeltrace2 error "
			"on the thread (exit status %d)", r->ret);
	if (r->crashed && !r->bt_assert) {
		fprintf(stderr, "rpcsim-analyze said:\n%s", r->child_err);
		fz_fail("trace", 0, "rpcsim-analyze crashed (signal %d)",
			WTERMSIG(r->status));
	}
	if (r->ret != 0 && r->ret != 1)
		bad = "exit status neither 0 nor 1";
	else if (!r->crashed && r->ret != WEXITSTATUS(r->status))
		bad = "the same input gave another exit status in a child";
	else if (r->bt_assert &&
		 (r->ret != 1 || !strstr(r->err, ": cannot read trace: "
					       "libbabeltrace2 ")))
		bad = "a libbabeltrace2 crash or hang not reported as such";
	else
		bad = check_stderr(r->err, r->ret, flags & 0x10);
	if (bad) {
		fprintf(stderr, "rpcsim-analyze said:\n%s", r->err);
		fz_fail("trace", 0, "%s (exit status %d)", bad, r->ret);
	}
}

/*
 * Two stream files (bit 5) are read by two workers (--jobs=2, by file or
 * by time): the same run with --jobs=1 must give the same exit status,
 * the same results and, without -v (which says how the reading ran), the
 * same stderr.  Not when libbabeltrace2 crashed or looped, which the
 * first run's checks have judged.
 */
static void same_as_one_process(char **argv, int argc,
				const struct analyze_run *two, uint8_t flags)
{
	static struct analyze_run one;
	char *argv1[10];

	if (two->bt_assert || two->crashed)
		return;
	/* the same words, --jobs=2 (before the directory) made --jobs=1 */
	memcpy(argv1, argv, (size_t)argc * sizeof(*argv));
	argv1[argc - 2] = "--jobs=1";
	argv1[argc] = NULL;
	run_analyze(argc, argv1, &one);
	judge(&one, flags);
	if (one.bt_assert)
		fz_fail("trace", 0, "libbabeltrace2 crashed or looped with "
			"--jobs=1 only (exit status %d)", one.ret);
	if (one.ret != two->ret || strcmp(one.out, two->out) ||
	    (!(flags & 0x10) && strcmp(one.err, two->err))) {
		fprintf(stderr, "--jobs=2, exit %d:\n%s%s--jobs=1, exit %d:\n"
			"%s%s", two->ret, two->out, two->err, one.ret,
			one.out, one.err);
		fz_fail("trace", 0, "--jobs=2 and --jobs=1 disagree");
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct analyze_run run;
	struct fz_input in = { data, size };
	uint8_t flags = fz_u8(&in);
	char *argv[8], cost[32];
	int argc;

	if (!base_meta.p)
		LLVMFuzzerInitialize(NULL, NULL);
	if (__sanitizer_set_report_fd && report_fd >= 0)
		__sanitizer_set_report_fd((void *)(intptr_t)report_fd);
	write_trace(&in, flags);
	argc = analyze_argv(argv, cost, sizeof(cost), flags);
	run_analyze(argc, argv, &run);
	judge(&run, flags);
	if (flags & 0x20)
		same_as_one_process(argv, argc, &run, flags);
	return 0;
}
