/* SPDX-License-Identifier: MIT */
/*
 * helper: the baselines pagebench cannot run in its own process run in a
 * child program each, started once and driven over a socket pair:
 * pagebench-tcmalloc (tcmalloc replaces malloc() in the process that links
 * it) and pagebench-mempool (DPDK: its EAL loads every driver plugin at
 * start, and its headers want -march flags).  The child times its loops with
 * harness.c; pagebench keeps the runs, the medians and the output, so a
 * child's rows are computed and printed like the others.
 *
 * The protocol, one text line each way, on the child's fd 0 (its stdout
 * is pagebench's stderr, so that nothing a library prints can mix with
 * the replies):
 *
 *   child:  "info KEY VALUE" lines, then "ready"        (at start)
 *   parent: "prepare API BULK SMOKE RUN_MS"   child: "ok PAGES"
 *   parent: "run API BULK PAGES"              child: "ok NS TICKS"
 *   parent: "quit", or end of file            child: exits 0
 *
 * NS and TICKS are per page.  "error TEXT" answers a request the child
 * cannot parse; a child that fails otherwise says why on stderr and exits
 * 1.  The children are not meant to be run by hand (they refuse to run
 * without the socket).
 */
#ifndef PAGEBENCH_HELPER_H
#define PAGEBENCH_HELPER_H

#include <stdbool.h>
#include <sys/types.h>

#include "harness.h"

/* --- the child's side (helper-serve.c) ------------------------------------ */

/*
 * pb_helper_init - check that @argv is empty and fd 0 is pagebench's
 * socket (exit 2 with a message otherwise); @name prefixes messages.
 * Ignores SIGINT, SIGQUIT and SIGHUP: the child ends when pagebench does.
 */
void pb_helper_init(const char *name, int argc, char **argv);

/* pb_helper_info - one "info KEY VALUE" line, before pb_helper_serve(). */
__attribute__((format(printf, 2, 3)))
void pb_helper_info(const char *key, const char *fmt, ...);

/* pb_helper_fail - "NAME: message" on stderr, exit 1. */
__attribute__((noreturn, format(printf, 1, 2)))
void pb_helper_fail(const char *fmt, ...);

/*
 * pb_helper_serve - say "ready", then answer requests with @run (PB_API_
 * SINGLE and PB_API_ARRAY; the baselines have no list API) until "quit"
 * or end of file.  Returns 0, or 2 after answering "error".
 */
int pb_helper_serve(pb_run_fn run, void *ctx);

/* --- pagebench's side (helper-spawn.c) ------------------------------------ */

#define PB_HELPER_MAX_INFO	24

struct pb_helper {
	char path[4096];	/* the program that runs */
	pid_t pid;
	int fd;			/* the socket; -1 once stopped */
	void *in;		/* FILE * over fd, for the replies */
	unsigned int nr_info;
	char *info_key[PB_HELPER_MAX_INFO], *info_value[PB_HELPER_MAX_INFO];
	char error[1024];	/* why the last call failed */
};

/*
 * pb_helper_start - find @program (next to pagebench in a build tree,
 * else in @libexecdir) and start it; collects its info lines.  Returns 0,
 * or a negative errno with h->error saying what happened: -ENOENT not
 * found, -ECHILD it died, -EPROTO it said something unexpected, or what
 * socketpair() or posix_spawn() failed with.  Call pb_helper_stop() in
 * every case.  Not thread-safe (nor are the calls below on one helper).
 */
int pb_helper_start(struct pb_helper *h, const char *program,
		    const char *libexecdir);

/* pb_helper_info_get - the value of info line @key, or NULL. */
const char *pb_helper_info_get(const struct pb_helper *h, const char *key);

/*
 * pb_helper_prepare, pb_helper_run - pb_prepare() and pb_time_run() in
 * the child.  Return 0, or a negative errno (-ECHILD: the child died;
 * -EPROTO: a reply that is not "ok" and numbers) with h->error set.
 */
int pb_helper_prepare(struct pb_helper *h, enum pb_api api,
		      unsigned int bulk, bool smoke, double run_ms,
		      unsigned long *pages);
int pb_helper_run(struct pb_helper *h, enum pb_api api, unsigned int bulk,
		  unsigned long pages, double *ns, double *ticks);

/*
 * pb_helper_stop - say "quit", wait for the child, free @h's info.
 * Returns 0 if it exited 0, else -ECHILD with h->error saying how it
 * ended.  Safe to call on a helper that failed to start or was stopped.
 */
int pb_helper_stop(struct pb_helper *h);

#endif /* PAGEBENCH_HELPER_H */
