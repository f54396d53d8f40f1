/* SPDX-License-Identifier: MIT */
/*
 * rpcsim helpers: checked pthread calls, the stop signals and byte sizes;
 * dying, allocation, the clock and thousands separators are every tool's
 * (common/tool.h).
 */
#ifndef RPCSIM_UTIL_H
#define RPCSIM_UTIL_H

#include <pthread.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

#include "tool.h"

#define DIV_ROUND_UP(n, d)	(((n) + (d) - 1) / (d))
#define ARRAY_SIZE(a)		(sizeof(a) / sizeof((a)[0]))
#define NSEC_PER_SEC		1000000000ULL

/*
 * An internal failure rpcsim cannot recover from (a pthread call failing,
 * an impossible state): "rpcsim: file:function@line: cause", abort.
 */
#define rpcsim_die(...)	tool_bug(__VA_ARGS__)

/* pthread calls whose failure is a bug: die with the error. */
#define PTHREAD_CHECK(call)						\
	do {								\
		int err_ = (call);					\
		if (err_)						\
			rpcsim_die("%s: %s", #call, strerror(err_));	\
	} while (0)

/*
 * The first terminating signal (SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGPIPE,
 * SIGALRM, SIGUSR1, SIGUSR2): the run in progress stops as if its time
 * were up, pages go back and are checked, a trace session is destroyed,
 * and rpcsim exits 128 + its number.  A SIGHUP, SIGINT, SIGQUIT
 * or SIGPIPE that was ignored when rpcsim started (nohup, a background
 * command of a shell without job control) stays ignored.
 */
void rpcsim_catch_signals(void);
/* 0, or the first of those signals; safe in any thread. */
int rpcsim_first_signal(void);
/* How many of them came so far, so that a wait can tell a new one came. */
unsigned int rpcsim_signal_count(void);
/* "SIGINT" for SIGINT: one of the signals above. */
const char *rpcsim_signal_name(int sig);

/* A byte size the way it was likely typed: "256 KiB", "1 GiB", "5000 B". */
char *fmt_size(char *buf, size_t len, uint64_t bytes);

#endif /* RPCSIM_UTIL_H */
