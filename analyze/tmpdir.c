/* SPDX-License-Identifier: MIT */
/*
 * The temporary directory of the workers (--jobs=N): what is made in it
 * is noted, to be removed in reverse, also when a signal ends the
 * process while the workers read from it.
 */
#include "config.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "reader.h"

/* Where the temporary directory goes: TMPDIR, or /tmp. */
const char *tmp_parent(void)
{
	const char *tmpdir = getenv("TMPDIR");

	return tmpdir && *tmpdir ? tmpdir : "/tmp";
}

void tmp_note(struct tmpdir *t, const char *path)
{
	t->made = xrealloc(t->made, t->n + 1, sizeof(*t->made));
	t->made[t->n++] = xstrdup(path);
}

void tmp_remove(struct tmpdir *t)
{
	while (t->n) {
		char *p = t->made[--t->n];

		if (unlink(p))
			rmdir(p);
		free(p);
	}
	free(t->made);
	t->made = NULL;
	if (t->base)
		rmdir(t->base);
	free(t->base);
	t->base = NULL;
}

int tmp_mkdir(struct tmpdir *t, const char *path)
{
	if (mkdir(path, 0700))
		return -1;
	tmp_note(t, path);
	return 0;
}

/*
 * While the workers read from the temporary directory, a SIGINT, SIGTERM
 * or SIGHUP (Ctrl-C, a timeout, a closed terminal) removes it before the
 * signal ends the process as it would have.  The handler only unlink()s
 * and rmdir()s the paths made before it was set (async-signal-safe), and
 * returns with the signal pending again under its default action.
 */
static const int tmp_signals[] = { SIGINT, SIGTERM, SIGHUP };
#define NR_TMP_SIGNALS (sizeof(tmp_signals) / sizeof(tmp_signals[0]))
static struct tmpdir *volatile tmp_live;
static struct sigaction tmp_old[NR_TMP_SIGNALS];

static void tmp_on_signal(int sig)
{
	struct tmpdir *t = tmp_live;
	unsigned int i;

	if (t) {
		for (i = t->n; i--; )
			if (unlink(t->made[i]))
				rmdir(t->made[i]);
		if (t->base)
			rmdir(t->base);
	}
	/* SA_RESETHAND: the default action now, delivered on return */
	raise(sig);
}

/* Set the handlers for @t (complete: nothing is added to it after). */
void tmp_guard(struct tmpdir *t)
{
	struct sigaction sa;
	unsigned int i;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = tmp_on_signal;
	sa.sa_flags = SA_RESETHAND;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < NR_TMP_SIGNALS; i++)
		sigaddset(&sa.sa_mask, tmp_signals[i]);
	tmp_live = t;
	for (i = 0; i < NR_TMP_SIGNALS; i++) {
		sigaction(tmp_signals[i], &sa, &tmp_old[i]);
		/* one ignored (nohup, a shell's background job) stays so */
		if (tmp_old[i].sa_handler == SIG_IGN)
			sigaction(tmp_signals[i], &tmp_old[i], NULL);
	}
}

/* The handlers as they were before tmp_guard(). */
void tmp_unguard(void)
{
	unsigned int i;

	if (!tmp_live)
		return;
	for (i = 0; i < NR_TMP_SIGNALS; i++)
		sigaction(tmp_signals[i], &tmp_old[i], NULL);
	tmp_live = NULL;
}

int tmp_link(struct tmpdir *t, const char *target, const char *path)
{
	if (symlink(target, path))
		return -1;
	tmp_note(t, path);
	return 0;
}
