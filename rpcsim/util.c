/* SPDX-License-Identifier: MIT */
/* rpcsim helpers (see util.h). */
#include <errno.h>
#include <stdatomic.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

char *fmt_size(char *buf, size_t len, uint64_t bytes)
{
	static const char *const units[] = { "B", "KiB", "MiB", "GiB", "TiB" };
	unsigned int u = 0;

	while (u + 1 < ARRAY_SIZE(units) && bytes && !(bytes & 1023)) {
		bytes >>= 10;
		u++;
	}
	snprintf(buf, len, "%" PRIu64 " %s", bytes, units[u]);
	return buf;
}

/*
 * The first stop signal and how many came: any thread's handler stores
 * them and any thread reads them, so lock-free atomics (a volatile
 * sig_atomic_t is only for the thread the handler ran in).
 */
static atomic_int rpcsim_first_sig;
static atomic_uint rpcsim_nr_signals;
_Static_assert(ATOMIC_INT_LOCK_FREE == 2,
	       "a signal handler stores rpcsim_first_sig");

/*
 * Every signal whose default action ends the process and that a user can
 * send from a terminal: the keys (INT, QUIT), the terminal going away
 * (HUP), kill's default (TERM), and the other kill -s names whose default
 * is to terminate.  Without a handler each would leave a trace session
 * behind (and pages unchecked).  SIGKILL and SIGSTOP cannot be caught.
 */
static const struct {
	int sig;
	const char *name;
} rpcsim_stop_signals[] = {
	{ SIGHUP, "SIGHUP" }, { SIGINT, "SIGINT" }, { SIGQUIT, "SIGQUIT" },
	{ SIGTERM, "SIGTERM" }, { SIGPIPE, "SIGPIPE" }, { SIGALRM, "SIGALRM" },
	{ SIGUSR1, "SIGUSR1" }, { SIGUSR2, "SIGUSR2" },
};

static void rpcsim_on_signal(int sig)
{
	int none = 0;

	atomic_compare_exchange_strong(&rpcsim_first_sig, &none, sig);
	atomic_fetch_add(&rpcsim_nr_signals, 1);
}

void rpcsim_catch_signals(void)
{
	struct sigaction sa, old;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = rpcsim_on_signal;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < ARRAY_SIZE(rpcsim_stop_signals); i++)
		sigaddset(&sa.sa_mask, rpcsim_stop_signals[i].sig);
	for (size_t i = 0; i < ARRAY_SIZE(rpcsim_stop_signals); i++) {
		int sig = rpcsim_stop_signals[i].sig;

		if (sigaction(sig, NULL, &old))
			rpcsim_die("sigaction: %s", strerror(errno));
		/*
		 * Ignored when rpcsim started: keep it so.  SIGHUP under
		 * nohup; SIGINT and SIGQUIT in a command a shell without job
		 * control started in the background (&), which is the
		 * convention that the keyboard's signals are not for it;
		 * SIGPIPE from a reader that asked not to be told.
		 */
		if ((sig == SIGHUP || sig == SIGINT || sig == SIGQUIT ||
		     sig == SIGPIPE) && old.sa_handler == SIG_IGN)
			continue;
		if (sigaction(sig, &sa, NULL))
			rpcsim_die("sigaction: %s", strerror(errno));
	}
}

int rpcsim_first_signal(void)
{
	return atomic_load(&rpcsim_first_sig);
}

unsigned int rpcsim_signal_count(void)
{
	return atomic_load(&rpcsim_nr_signals);
}

const char *rpcsim_signal_name(int sig)
{
	for (size_t i = 0; i < ARRAY_SIZE(rpcsim_stop_signals); i++)
		if (rpcsim_stop_signals[i].sig == sig)
			return rpcsim_stop_signals[i].name;
	return "a signal";
}
