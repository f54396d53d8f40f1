/* SPDX-License-Identifier: MIT */
/* The watchdog (see watchdog.h and rpcsim(1), STOPPING). */
#include <config.h>

#include <errno.h>
#include <execinfo.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <pagepool/pagepool.h>

#include "util.h"
#include "watchdog.h"

#define WATCHDOG_POLL_NS	(NSEC_PER_SEC / 10)
/* The signal that asks a watched thread where it is, and its answer's wait */
#define WATCHDOG_WHERE_SIG	SIGURG
#define WATCHDOG_WHERE_NS	(NSEC_PER_SEC / 5)
#define WATCHDOG_WHERE_FRAMES	32

/* A watched thread: what it is, and libpagepool's note of its callback. */
struct watchdog_thread {
	struct pp_plugin_watch watch;
	pthread_t tid;
	char name[48];
	struct watchdog_thread *next;
};

static struct {
	pthread_mutex_t lock;
	bool started;
	uint64_t grace_ns;
	/* Under @lock: the watched threads, and the run's stop request. */
	struct watchdog_thread *threads;
	bool in_run;
	uint64_t armed_at;		/* 0: the run not told to stop */
	const char *armed_why;
} wd = { .lock = PTHREAD_MUTEX_INITIALIZER };

/* The calling thread's entry, for watchdog_where(); answers so far. */
static _Thread_local struct watchdog_thread *wd_self;
static atomic_uint wd_answers;

struct watchdog_thread *watchdog_enter(const char *what, unsigned int id)
{
	struct watchdog_thread *t;

	if (!wd.started)
		return NULL;
	t = xcalloc(1, sizeof(*t));
	t->tid = pthread_self();
	wd_self = t;
	if (id)
		snprintf(t->name, sizeof(t->name), "%s %u", what, id);
	else
		snprintf(t->name, sizeof(t->name), "%s", what);
	pp_plugin_watch_thread(&t->watch);
	PTHREAD_CHECK(pthread_mutex_lock(&wd.lock));
	t->next = wd.threads;
	wd.threads = t;
	PTHREAD_CHECK(pthread_mutex_unlock(&wd.lock));
	return t;
}

void watchdog_leave(struct watchdog_thread *t)
{
	struct watchdog_thread **p;

	if (!t)
		return;
	pp_plugin_watch_thread(NULL);
	PTHREAD_CHECK(pthread_mutex_lock(&wd.lock));
	for (p = &wd.threads; *p && *p != t; p = &(*p)->next)
		;
	if (*p)
		*p = t->next;
	wd_self = NULL;
	PTHREAD_CHECK(pthread_mutex_unlock(&wd.lock));
	free(t);
}

void watchdog_arm(const char *why)
{
	if (!wd.started)
		return;
	PTHREAD_CHECK(pthread_mutex_lock(&wd.lock));
	if (wd.in_run && !wd.armed_at) {
		wd.armed_at = now_ns();
		wd.armed_why = why;
	}
	PTHREAD_CHECK(pthread_mutex_unlock(&wd.lock));
}

static void watchdog_set_run(bool in_run)
{
	if (!wd.started)
		return;
	PTHREAD_CHECK(pthread_mutex_lock(&wd.lock));
	wd.in_run = in_run;
	wd.armed_at = 0;
	wd.armed_why = NULL;
	PTHREAD_CHECK(pthread_mutex_unlock(&wd.lock));
}

void watchdog_run_begin(void)
{
	watchdog_set_run(true);
}

void watchdog_run_end(void)
{
	watchdog_set_run(false);
}

static void write_str(const char *s)
{
	ssize_t n = write(STDERR_FILENO, s, strlen(s));

	(void)n;
}

/*
 * WATCHDOG_WHERE_SIG's handler, in the watched thread that got it: its
 * call stack on stderr, as backtrace_symbols_fd() writes it (an
 * object's offset where the symbol is not exported: addr2line -f -e
 * OBJECT OFFSET names the function).  backtrace() was called once at
 * watchdog_start(), so that it loads what it needs before any signal.
 */
static void watchdog_where(int sig)
{
	struct watchdog_thread *t = wd_self;
	void *pc[WATCHDOG_WHERE_FRAMES];
	int saved = errno, n;

	(void)sig;
	if (t) {
		write_str("rpcsim: where ");
		write_str(t->name);
		write_str(" was:\n");
		n = backtrace(pc, WATCHDOG_WHERE_FRAMES);
		/* from the frame the signal interrupted */
		if (n > 1)
			backtrace_symbols_fd(pc + 1, n - 1, STDERR_FILENO);
	}
	atomic_fetch_add(&wd_answers, 1);
	errno = saved;
}

/*
 * Each watched thread's call stack, one thread at a time (each answers
 * within WATCHDOG_WHERE_NS, or is said not to): what a stall that no
 * plugin callback explains was waiting for.  Under wd.lock.
 */
static void watchdog_stacks(void)
{
	for (struct watchdog_thread *t = wd.threads; t; t = t->next) {
		unsigned int before = atomic_load(&wd_answers);
		uint64_t until = now_ns() + WATCHDOG_WHERE_NS;
		struct timespec ms = { 0, 1000000 };

		if (pthread_kill(t->tid, WATCHDOG_WHERE_SIG))
			continue;
		while (atomic_load(&wd_answers) == before &&
		       now_ns() < until)
			nanosleep(&ms, NULL);
		if (atomic_load(&wd_answers) == before)
			fprintf(stderr, "rpcsim: %s did not say where it "
				"was within %g s\n", t->name,
				(double)WATCHDOG_WHERE_NS / 1e9);
	}
}

/*
 * The grace period is over: name every thread still in a plugin
 * callback, write each watched thread's call stack, write out what
 * stdout holds if nothing else is writing it, and end the process
 * without the teardown that cannot finish (the pool is not checked; a
 * --trace session stays behind).
 */
__attribute__((noreturn))
static void watchdog_fire(const char *why, int sig)
{
	double grace = (double)wd.grace_ns / 1e9;
	unsigned int named = 0;

	PTHREAD_CHECK(pthread_mutex_lock(&wd.lock));
	for (struct watchdog_thread *t = wd.threads; t; t = t->next) {
		const char *plugin = NULL;
		const char *cb = pp_plugin_watch_read(&t->watch, &plugin);

		if (!cb)
			continue;
		fprintf(stderr, "rpcsim: %s did not return from the %s "
			"callback of backend plugin %s within %g s of %s; "
			"ending rpcsim without checking the pool\n", t->name,
			cb, plugin ? plugin : "?", grace, why);
		named++;
	}
	if (!named)
		fprintf(stderr, "rpcsim: the run did not come back within "
			"%g s of %s (no thread is inside a plugin callback); "
			"ending rpcsim without checking the pool\n", grace,
			why);
	watchdog_stacks();
	PTHREAD_CHECK(pthread_mutex_unlock(&wd.lock));
	if (!ftrylockfile(stdout)) {
		fflush_unlocked(stdout);
		funlockfile(stdout);
	}
	_exit(sig ? 128 + sig : 1);
}

static void *watchdog_thread(void *arg)
{
	uint64_t signalled_at = 0;
	char sigwhy[32];
	int sig = 0;

	(void)arg;
	for (;;) {
		struct timespec ts = { 0, (long)WATCHDOG_POLL_NS };
		const char *why = NULL;
		uint64_t now, since = 0;

		bool in_run;

		nanosleep(&ts, NULL);
		now = now_ns();
		PTHREAD_CHECK(pthread_mutex_lock(&wd.lock));
		in_run = wd.in_run;
		if (wd.armed_at) {
			since = wd.armed_at;
			why = wd.armed_why;
		}
		PTHREAD_CHECK(pthread_mutex_unlock(&wd.lock));
		if (!sig && rpcsim_first_signal()) {
			sig = rpcsim_first_signal();
			snprintf(sigwhy, sizeof(sigwhy), "%s",
				 rpcsim_signal_name(sig));
		}
		/*
		 * A signal counts for the run it found in progress, or the
		 * next one to begin; once that run is over, rpcsim ends the
		 * ordinary way.
		 */
		if (!in_run)
			signalled_at = 0;
		else if (sig && !signalled_at)
			signalled_at = now;
		/*
		 * The earlier of the two counts; a signal decides the exit
		 * status either way, as everywhere in rpcsim.
		 */
		if (signalled_at && (!since || signalled_at < since)) {
			since = signalled_at;
			why = sigwhy;
		}
		if (since && now - since >= wd.grace_ns)
			watchdog_fire(why, sig);
	}
	return NULL;
}

void watchdog_start(const struct rpcsim_config *cfg)
{
	sigset_t all, old;
	pthread_t thread;
	int err;

	struct sigaction sa = { .sa_handler = watchdog_where,
				.sa_flags = SA_RESTART };
	void *pc[1];

	wd.grace_ns = (uint64_t)(cfg->stop_grace_s * 1e9);
	backtrace(pc, 1);
	sigemptyset(&sa.sa_mask);
	if (sigaction(WATCHDOG_WHERE_SIG, &sa, NULL)) {
		fprintf(stderr, "rpcsim: cannot start the watchdog: "
			"sigaction: %s\n", strerror(errno));
		exit(1);
	}
	wd.started = true;
	watchdog_enter("the main thread", 0);
	/* The stop signals are for the other threads (EINTR, handlers). */
	sigfillset(&all);
	PTHREAD_CHECK(pthread_sigmask(SIG_BLOCK, &all, &old));
	err = pthread_create(&thread, NULL, watchdog_thread, NULL);
	PTHREAD_CHECK(pthread_sigmask(SIG_SETMASK, &old, NULL));
	if (err) {
		fprintf(stderr, "rpcsim: cannot start the watchdog thread: "
			"%s\n", strerror(err));
		exit(1);
	}
	PTHREAD_CHECK(pthread_detach(thread));
}
