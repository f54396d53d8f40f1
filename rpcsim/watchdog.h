/* SPDX-License-Identifier: MIT */
/*
 * The watchdog: a benchmark ends when asked, whatever a backend plugin
 * does.  A thread of its own looks ten times a second whether rpcsim was
 * asked to stop (a signal, or a run's deadline or stall: watchdog_arm())
 * and has not got there within --stop-grace seconds.  Then it names each
 * thread still inside a plugin callback (libpagepool notes which, in a
 * struct pp_plugin_watch each thread registers: watchdog_enter()), and
 * ends the process: 128 + the signal's number, or 1.
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

/*
 * A run was told to stop (@why: "the run's deadline", "the stall"): its
 * threads have the grace period to come back.  watchdog_disarm() once
 * they did and the run is over.
 */
void watchdog_arm(const char *why);
void watchdog_disarm(void);

#endif /* RPCSIM_WATCHDOG_H */
