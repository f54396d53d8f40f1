/* SPDX-License-Identifier: MIT */
/*
 * The watchdog: a benchmark ends when asked, whatever a backend plugin
 * does.  A thread of its own looks ten times a second whether the run in
 * progress (watchdog_run_begin() to watchdog_run_end(): the pool, the
 * page cache, the threads, the teardown) was told to stop (a signal, its
 * deadline or a stall: watchdog_arm()) and has not come back within
 * --stop-grace seconds.  Then it names each thread still inside a plugin
 * callback (libpagepool notes which, in a struct pp_plugin_watch each
 * thread registers: watchdog_enter()), and ends the process: 128 + the
 * signal's number, or 1.  Between runs (the report, --trace's analysis)
 * no plugin runs, and a signal is rpcsim's ordinary business.
 */
#ifndef RPCSIM_WATCHDOG_H
#define RPCSIM_WATCHDOG_H

#include "options.h"

struct watchdog_thread;

/* Start the watchdog; the calling (main) thread is watched too. */
void watchdog_start(const struct rpcsim_config *cfg);

/*
 * The calling thread calls into libpagepool: watch it, as "@what @id"
 * ("server thread 2"; @id 0: @what alone).  Undone by watchdog_leave()
 * before the thread ends.  Without watchdog_start(), a no-op (NULL).
 */
struct watchdog_thread *watchdog_enter(const char *what, unsigned int id);
void watchdog_leave(struct watchdog_thread *t);

/* A run begins (before its pool is created) / is over, every page back. */
void watchdog_run_begin(void);
void watchdog_run_end(void);

/*
 * The run was told to stop (@why: "the run's deadline", "the stall"): it
 * has the grace period to come back.  A signal arms it by itself.
 */
void watchdog_arm(const char *why);

#endif /* RPCSIM_WATCHDOG_H */
