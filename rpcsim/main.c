/* SPDX-License-Identifier: MIT */
/*
 * rpcsim: an NFS-server-like benchmark of the bulk page allocator's first
 * consumer.  Server threads run SUNRPC's svc_alloc_arg() refill loop
 * against libpagepool in one of three modes (single page, bulk list, bulk
 * array) and every call is timed, as in the measurements of seed 004:
 *
 *	Single page: 25.007 us per call over 532,571 calls
 *	Bulk list:    6.258 us per call over 517,034 calls
 *	Bulk array:   4.590 us per call over 517,442 calls
 */
#include <config.h>

#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <spawn.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "nfsd/svc.h"
#include "options.h"
#include "page_pool/consumer.h"
#include "files.h"
#include "plot.h"
#include "results.h"
#include "report.h"
#include "sweep.h"
#include "util.h"
#include "watchdog.h"
#ifdef HAVE_LTTNG_UST
#include "trace_session.h"
#endif

extern char **environ;

#define CLOCK_BATCHES	20
#define CLOCK_SAMPLES	1000

/*
 * What one clock_gettime(CLOCK_MONOTONIC) costs: part of every timed call.
 * The best of several batches, so a preemption does not count.
 */
static uint64_t clock_cost_ns(void)
{
	uint64_t best = UINT64_MAX;

	for (int b = 0; b < CLOCK_BATCHES; b++) {
		uint64_t t0 = now_ns(), t1 = t0;

		for (int i = 0; i < CLOCK_SAMPLES; i++)
			t1 = now_ns();
		if ((t1 - t0) / CLOCK_SAMPLES < best)
			best = (t1 - t0) / CLOCK_SAMPLES;
	}
	return best;
}

static void free_results(struct report *rep)
{
	for (int m = 0; m < RPCSIM_NR_MODES; m++) {
		for (unsigned int r = 0; r < rep->runs_done[m]; r++)
			svc_result_free(&rep->results[m][r]);
		free(rep->results[m]);
	}
}

/*
 * Is this rpcsim the one of the build tree it was built in?  Its real
 * path is then in RPCSIM_BUILDDIR, or in .libs/ below it (libtool's
 * wrapper runs the program from there): a compare with the configured
 * folder, not a guess from where it happens to lie.
 */
static bool running_from_builddir(void)
{
	char self[PATH_MAX], dir[PATH_MAX], *slash;
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	size_t len;

	if (n <= 0 || !realpath(RPCSIM_BUILDDIR, dir))
		return false;
	self[n] = '\0';
	slash = strrchr(self, '/');
	if (!slash)
		return false;
	*slash = '\0';
	len = strlen(dir);
	if (strncmp(self, dir, len))
		return false;
	return !self[len] || !strcmp(self + len, "/.libs");
}

/*
 * The program --plan's lines run: this build tree's rpcsim (the libtool
 * wrapper, which finds the tree's libraries) when this is it; else the
 * name it was run by, made absolute when it is a path ("rpcsim" from
 * $PATH stays "rpcsim", for other machines).
 */
static const char *plan_program(const char *argv0, char *buf, size_t len)
{
	if (running_from_builddir())
		return RPCSIM_BUILDDIR "/rpcsim";
	if (strchr(argv0, '/') && realpath(argv0, buf) && strlen(buf) < len)
		return buf;
	return argv0;
}

#ifdef HAVE_LTTNG_UST
/* 8 sub-buffers per CPU, each a power of two. */
static void trace_buffer_split(uint64_t bytes, uint64_t *subbuf,
			       uint64_t *num)
{
	uint64_t sb = 4096;

	while (sb * 2 <= bytes / 8)
		sb *= 2;
	*subbuf = sb;
	*num = 8;
}

/*
 * The rpcsim-analyze to run: $RPCSIM_ANALYZE if set (a path as it is, a
 * name looked up in $PATH); this build tree's when this rpcsim is the
 * build tree's; else the installed one, BINDIR/rpcsim-analyze; else
 * "rpcsim-analyze" in $PATH.  Returns the path, or NULL with *@name the
 * name to look up.
 */
static const char *analyzer_path(const char **name)
{
	const char *env = getenv("RPCSIM_ANALYZE");

	*name = "rpcsim-analyze";
	if (env && *env) {
		if (strchr(env, '/'))
			return env;
		*name = env;
		return NULL;
	}
	if (running_from_builddir())
		return RPCSIM_BUILD_ANALYZE;
	if (!access(RPCSIM_BINDIR "/rpcsim-analyze", X_OK))
		return RPCSIM_BINDIR "/rpcsim-analyze";
	return NULL;
}

/*
 * Run rpcsim-analyze (analyzer_path()) on the trace in @dir, for this
 * process.
 * Returns -1 when it ran and failed (our own trace unreadable: said), 0
 * otherwise (one that cannot be started is a note, not a failure: a build
 * without libbabeltrace2 has none).
 */
static int run_analyzer(const char *dir)
{
	char pid_opt[32];
	/*
	 * --pid: this process's runs alone.  The session records every
	 * instrumented process of the user (per-UID buffers); the vpid
	 * context tells ours apart.
	 */
	char *argv[] = { "rpcsim-analyze", pid_opt, (char *)dir, NULL };
	const char *name, *prog = analyzer_path(&name);
	int status, err;
	unsigned int seen;
	bool killed = false;
	pid_t pid;

	snprintf(pid_opt, sizeof(pid_opt), "--pid=%ld", (long)getpid());
	fflush(stdout);
	if (prog)
		err = posix_spawn(&pid, prog, NULL, NULL, argv, environ);
	else
		err = posix_spawnp(&pid, name, NULL, NULL, argv, environ);
	if (err) {
		fprintf(stderr, "rpcsim: cannot run %s: %s; the trace is in "
			"%s\n", prog ? prog : name, strerror(err), dir);
		return 0;
	}
	/* A signal now stops the analysis too: it is our child, by pid. */
	seen = rpcsim_signal_count();
	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR) {
			fprintf(stderr, "rpcsim: waiting for rpcsim-analyze: "
				"%s\n", strerror(errno));
			return -1;
		}
		if (rpcsim_signal_count() != seen && !killed) {
			kill(pid, SIGTERM);
			killed = true;
		}
	}
	if (killed)
		return 0;	/* the signal decides the exit status */
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		fprintf(stderr, "rpcsim: rpcsim-analyze could not read this "
			"run's own trace in %s (its message is above); the "
			"trace is damaged or incomplete\n", dir);
		return -1;
	}
	return 0;
}
#endif

#ifdef HAVE_LTTNG_UST
/*
 * --trace-live: on stderr at once (the report may go to a file, and the
 * viewer is started while rpcsim runs), how to follow the session: its
 * live URL takes the relay daemon's host and live port (5344 unless the
 * daemon was started with another --live-port).
 */
static void trace_live_said(const struct rpcsim_config *cfg,
			    const struct trace_session *ts)
{
	const char *url = cfg->trace_live, *host = strstr(url, "://") + 3;
	const char *slash = strchr(ts->dir, '/');
	/*
	 * babeltrace2's live URL takes no bracketed IPv6 address
	 * (rpcsim-analyze refuses one): HOST stands for the relay's name.
	 */
	bool bracketed = host[0] == '[';
	const char *shown = bracketed ? "HOST" : host;
	size_t hl = strcspn(shown, ":/");

	fprintf(stderr, "rpcsim: --trace-live: session %s on the relay "
		"daemon at %s; follow it with: rpcsim-analyze "
		"--live=%.*s%.*s:5344/host/%.*s/%s%s; the relay daemon "
		"writes it in %s below its output folder\n", ts->name, url,
		(int)(host - url), url, (int)hl, shown,
		(int)(slash ? slash - ts->dir : 0), ts->dir, ts->name,
		bracketed ? ", HOST a name of the relay daemon's host (a "
		"live URL takes no bracketed IPv6 address)" : "", ts->dir);
}

/* --trace: start the session, its folder in @rep.  -1, said, if it cannot. */
static int trace_start(const struct rpcsim_config *cfg,
		       struct trace_session *ts, struct report *rep)
{
	struct trace_session_config tc = {
		.dir = cfg->trace_dir,
		.live_url = cfg->trace_live,
		.all_events = cfg->trace_all,
		.page_pool = cfg->consumer == RPCSIM_CONSUMER_PAGE_POOL,
	};
	char err[512];

	if (cfg->trace_live && cfg->trace_dir) {
		fprintf(stderr, "rpcsim: --trace=%s and --trace-live: a live "
			"session is written by the relay daemon, in its own "
			"output folder; give one of them\n", cfg->trace_dir);
		exit(2);
	}
	trace_buffer_split(cfg->trace_buffer, &tc.subbuf_size, &tc.num_subbuf);
	if (trace_session_start(ts, &tc, err, sizeof(err))) {
		fprintf(stderr, "rpcsim: --trace%s: %s\n",
			cfg->trace_live ? "-live" : "", err);
		return -1;
	}
	rep->trace_dir = ts->dir;
	if (ts->live)
		trace_live_said(cfg, ts);
	return 0;
}

/* --trace after the runs: stop the session, count what it lost. */
static int trace_stop(struct trace_session *ts, struct report *rep)
{
	char err[512];
	int ret = 0;

	if (trace_session_stop(ts, err, sizeof(err))) {
		fprintf(stderr, "rpcsim: --trace: %s\n", err);
		ret = -1;
	}
	rep->trace_discarded = ts->discarded_events;
	rep->trace_lost = ts->lost_packets;
	return ret;
}

/*
 * --trace at the end: what the tracer lost, and (text output) the
 * analysis of the trace.  -1 when that analysis failed.
 */
static int trace_finish(const struct rpcsim_config *cfg,
			const struct report *rep)
{
	if (rep->trace_discarded || rep->trace_lost)
		fprintf(stderr, "rpcsim: warning: the tracer discarded "
			"%llu events and lost %llu packets; the trace "
			"has fewer calls than rpcsim measured (a "
			"larger --trace-buffer helps)\n",
			(unsigned long long)rep->trace_discarded,
			(unsigned long long)rep->trace_lost);
	if (cfg->json)
		return 0;
	if (cfg->trace_live) {
		/* its folder is the relay daemon's, maybe on another host */
		printf("\nTrace %s: written by the relay daemon at %s, below "
		       "its output folder (rpcsim-analyze reads it there)\n",
		       rep->trace_dir, cfg->trace_live);
		return 0;
	}
	printf("\nTrace %s, as rpcsim-analyze reads it:\n", rep->trace_dir);
	return run_analyzer(rep->trace_dir);
}
#endif

/*
 * Every run of every mode asked for, the modes interleaved so drift hits
 * each alike, each reported as it ends (text output).  Returns the exit
 * status so far: 0, 1 when a run failed, 128 + the signal that stopped
 * them.
 */
static int run_modes(const struct rpcsim_config *cfg, struct report *rep,
		     unsigned int nr_modes)
{
	int status = 0;

	for (unsigned int r = 1; r <= cfg->repeat && !status; r++) {
		for (int m = 0; m < RPCSIM_NR_MODES && !status; m++) {
			struct svc_result *res;
			int ret, sig;

			if (!cfg->mode[m])
				continue;
			res = &rep->results[m][r - 1];
			if (cfg->consumer == RPCSIM_CONSUMER_PAGE_POOL)
				ret = ppool_run(cfg, m, r, res);
			else
				ret = svc_run(cfg, m, r, res);
			sig = rpcsim_first_signal();
			if (ret) {
				svc_result_free(res);
				status = ret < 0 ? 1 : 128 + sig;
				break;
			}
			rep->runs_done[m]++;
			if (sig)
				status = 128 + sig;
			if (cfg->json || cfg->sweep.point)
				continue;
			/* Quiet with several modes: the table says it all. */
			if (cfg->repeat == 1 && !(cfg->quiet && nr_modes > 1))
				report_mode(stdout, rep, m);
			else if (!cfg->quiet)
				report_run(stdout, rep, res);
			fflush(stdout);
		}
	}
	return status;
}

/* A sweep point's line starts "point 2/4 threads-1_pcp-batch-63:". */
static void point_prefix(const struct rpcsim_config *cfg)
{
	printf("point %llu/%llu %s:", (unsigned long long)cfg->sweep.point,
	       (unsigned long long)cfg->sweep.nr_points, cfg->sweep.name);
}

/* After the runs: the JSON document, or each mode's summary and the table. */
static void report_runs(const struct rpcsim_config *cfg,
			const struct report *rep, unsigned int nr_modes)
{
	if (cfg->sweep.point) {
		/*
		 * The point's line: each mode's mean, or untimed (page_pool
		 * --call-timing=off) its packet rate.
		 */
		point_prefix(cfg);
		for (int m = 0; m < RPCSIM_NR_MODES; m++) {
			if (!rep->runs_done[m])
				continue;
			if (cfg->call_timing)
				printf(" %s %.3f us", rpcsim_mode_name(m),
				       report_mean_us(rep, m));
			else
				printf(" %s %.3f", rpcsim_mode_name(m),
				       report_packets_per_s(rep, m) / 1e6);
		}
		printf(cfg->call_timing ? " per call\n" :
		       " million packets/s (calls not timed)\n");
		return;
	}
	if (cfg->json) {
		report_json(stdout, rep);
		return;
	}
	if (cfg->repeat > 1 && !(cfg->quiet && nr_modes > 1)) {
		if (!cfg->quiet)
			fputc('\n', stdout);
		for (int m = 0; m < RPCSIM_NR_MODES; m++)
			if (rep->runs_done[m])
				report_mode(stdout, rep, m);
	}
	if (nr_modes > 1)
		report_table(stdout, rep);
}

/* A signal stopped rpcsim: said after what stdout already holds. */
static void say_interrupted(void)
{
	fflush(stdout);
	fprintf(stderr, "rpcsim: interrupted by %s\n",
		rpcsim_signal_name(rpcsim_first_signal()));
}

/* --plan: each point's command, nothing run.  The exit status. */
static int print_plan(char **argv, const struct rpcsim_config *cfg)
{
	char program[PATH_MAX];

	sweep_plan(cfg, plan_program(argv[0], program, sizeof(program)));
	if (fflush(stdout) || ferror(stdout)) {
		perror("rpcsim: writing the plan");
		return 1;
	}
	return 0;
}

/* --sweep without --point: every point, then the table.  The exit status. */
static int run_sweep(const struct rpcsim_config *cfg, const char *gnuplot)
{
	bool said = false;
	int status = sweep_run(cfg, gnuplot, &said);

	if (rpcsim_first_signal()) {
		if (!said)	/* the point that stopped said it */
			say_interrupted();
	} else if (fflush(stdout) || ferror(stdout)) {
		perror("rpcsim: writing the table");
		status = 1;
	}
	return status;
}

/* --point=N whose result file is there already: say so, run nothing. */
static int point_done_already(const struct rpcsim_config *cfg)
{
	char *path = sweep_point_path(cfg);

	point_prefix(cfg);
	printf(" done already (%s)\n", path);
	free(path);
	return fflush(stdout) || ferror(stdout) ? 1 : 0;
}

/* A slot in @rep for every run of each mode asked for; how many modes. */
static unsigned int alloc_results(const struct rpcsim_config *cfg,
				  struct report *rep)
{
	unsigned int nr_modes = 0;

	for (int m = 0; m < RPCSIM_NR_MODES; m++) {
		if (!cfg->mode[m])
			continue;
		rep->results[m] = xcalloc(cfg->repeat,
					  sizeof(struct svc_result));
		nr_modes++;
	}
	return nr_modes;
}

/* Text output: the configuration (and the trace's folder) before the runs. */
static void report_start(const struct rpcsim_config *cfg,
			 const struct report *rep)
{
	if (!cfg->json && !cfg->quiet && !cfg->sweep.point) {
		report_config(stdout, rep);
		if (rep->trace_dir && cfg->consumer ==
		    RPCSIM_CONSUMER_PAGE_POOL)
			printf("  trace:      %s (page_pool%s events)\n",
			       rep->trace_dir,
			       cfg->trace_all ? " and pagepool" : "");
		else if (rep->trace_dir)
			printf("  trace:      %s (%s events)\n", rep->trace_dir,
			       cfg->trace_all ? "rpcsim and pagepool" :
			       "rpcsim");
	}
	fflush(stdout);
}

/*
 * A sweep point that ends without a result file: @status nonzero, its
 * runs were interrupted (the point runs again on resume), else the file
 * could not be written.  The exit status.
 */
static int point_unfinished(const struct rpcsim_config *cfg, int status)
{
	point_prefix(cfg);
	printf(" %s, no result file\n", status ? "stopped" : "not written");
	if (!status)
		return 1;
	say_interrupted();
	return status;
}

/*
 * After the runs: the report, the plot, --trace's analysis, text,json's
 * JSON document.  Takes the exit status so far (0 or 128 + a signal) and
 * returns the final one.
 */
static int report_end(const struct rpcsim_config *cfg, struct report *rep,
		      unsigned int nr_modes, const char *gnuplot, int status)
{
	report_runs(cfg, rep, nr_modes);
	if (cfg->plot) {
		fflush(stdout);
		if (report_plot(rep, gnuplot)) {
			if (!status)
				status = 1;
		} else if (!cfg->json && !cfg->quiet) {
			printf("\nPlot: %s (per-call latency and pages refilled "
			       "per call of each mode)\n", cfg->plot);
		}
	}
	if (cfg->histogram && report_histogram(rep) && !status)
		status = 1;
#ifdef HAVE_LTTNG_UST
	if (cfg->trace && trace_finish(cfg, rep) && !status)
		status = 1;
#endif
	/* text,json: the JSON document last, after --trace's analysis too */
	if (cfg->json_after_text) {
		fputc('\n', stdout);
		report_json(stdout, rep);
	}
	return status;
}

/* One configuration's runs (a sweep point's too) and their report. */
static int run_and_report(struct rpcsim_config *cfg, const char *gnuplot)
{
	struct report rep = { .cfg = cfg };
	unsigned int nr_modes;
	int status;
#ifdef HAVE_LTTNG_UST
	struct trace_session ts = { .name = "" };
#endif

	rep.clock_ns = clock_cost_ns();
	/* a --histogram file that cannot be made costs no run */
	if (cfg->histogram && report_histogram_open(&rep))
		return 1;
	nr_modes = alloc_results(cfg, &rep);
#ifdef HAVE_LTTNG_UST
	if (cfg->trace && trace_start(cfg, &ts, &rep)) {
		report_histogram_drop(&rep);
		free_results(&rep);
		return 1;
	}
#endif
	report_start(cfg, &rep);

	status = run_modes(cfg, &rep, nr_modes);
#ifdef HAVE_LTTNG_UST
	if (cfg->trace && trace_stop(&ts, &rep) && !status)
		status = 1;
#endif
	if (status == 1) {
		report_histogram_drop(&rep);
		free_results(&rep);
		return 1;
	}
	/* Interrupted: no result file, the point runs again on resume. */
	if (cfg->sweep.point && (status || sweep_point_write(&rep))) {
		report_histogram_drop(&rep);
		free_results(&rep);
		return point_unfinished(cfg, status);
	}
	status = report_end(cfg, &rep, nr_modes, gnuplot, status);
	free_results(&rep);
	/* A signal (SIGPIPE: stdout's reader went away) says what happened. */
	if (rpcsim_first_signal()) {
		say_interrupted();
		return status == 1 ? 1 : 128 + rpcsim_first_signal();
	}
	if (fflush(stdout) || ferror(stdout)) {
		perror("rpcsim: writing the report");
		return 1;
	}
	return status;
}

/* What rpcsim does once its output is open: the exit status. */
static int rpcsim_body(char **argv, struct rpcsim_config *cfg)
{
	char gnuplot[PATH_MAX], why[512];

	if (cfg->sweep.plan)
		return print_plan(argv, cfg);
	/* Before the runs: a missing gnuplot should not cost a benchmark. */
	if (cfg->plot && (plot_find_gnuplot(gnuplot, sizeof(gnuplot), why,
					    sizeof(why)) ||
			  plot_check_dest(cfg->plot, why, sizeof(why)))) {
		fprintf(stderr, "rpcsim: --plot=%s: %s\n", cfg->plot, why);
		return 1;
	}
	rpcsim_catch_signals();
	if (cfg->sweep.nr_keys && !cfg->sweep.point)
		return run_sweep(cfg, cfg->plot ? gnuplot : NULL);
	if (cfg->sweep.point) {
		int done = sweep_point_done(cfg);

		if (done < 0)
			return 1;
		if (done)
			return point_done_already(cfg);
	}
	/* A sweep's points have their own: the runs are theirs. */
	watchdog_start(cfg);
	return run_and_report(cfg, cfg->plot ? gnuplot : NULL);
}

/*
 * Everything but the configuration's end: rpcsim's exit status.
 * --output=FILE is replaced only by a run that succeeds (files.h), or
 * one cut short by a signal (its report says so): a failed one leaves
 * what FILE held.
 */
static int rpcsim(char **argv, struct rpcsim_config *cfg)
{
	char err[PATH_MAX + 128];
	int status, sig;
	bool cut;

	/* stdout itself, so that --trace's rpcsim-analyze writes there too */
	if (cfg->output && atomic_stdout_open(cfg->output, err, sizeof(err))) {
		fprintf(stderr, "rpcsim: --output=%s: %s\n", cfg->output, err);
		return 1;
	}
	status = rpcsim_body(argv, cfg);
	if (!cfg->output)
		return status;
	/* cut short by a signal: what was measured, marked interrupted */
	sig = rpcsim_first_signal();
	cut = sig && status == 128 + sig;
	return atomic_stdout_finish(cfg->output, status, "run",
				    cut ? rpcsim_signal_name(sig) : NULL);
}

int main(int argc, char **argv)
{
	struct rpcsim_config cfg;
	int status;

	tool_set_name("rpcsim");
	rpcsim_parse_options(argc, argv, &cfg);
	results_origin_start();
	status = rpcsim(argv, &cfg);
	rpcsim_free_options(&cfg);
	return status;
}
