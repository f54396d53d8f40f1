/* SPDX-License-Identifier: MIT */
/*
 * The temporary files of the reading: the workers' directory (--jobs=N)
 * and --partial's trimmed copies.  What is made is noted, to be removed
 * in reverse on every way out: the end, an error, a signal.
 *
 * The guard (tmp_guard()) is set before the directory is made.  A signal
 * that would end the process (tmp_signals[]) first kills the workers
 * (SIGKILL) and waits for them, so that none re-creates a file it was
 * copying, then removes what was noted, then ends the process as the
 * signal would have, in the thread that set the guard (tmp_on_signal()).
 * The handler only calls kill(), waitpid(), unlink(), rmdir(), getpid(),
 * gettid(), tgkill(), signal() and raise() (async-signal-safe), and
 * reads arrays that are never changed while the signals are unblocked in
 * that thread: tmp_note(), tmp_remove() and the list of workers block
 * them.  A signal ignored on entry (nohup, a shell's background job)
 * stays ignored.  An exit() while guarded (tool_die()) cleans up the
 * same way (atexit()).
 */
#include "config.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "reader.h"

/* Where the temporary directory goes: TMPDIR, or /tmp. */
const char *tmp_parent(void)
{
	const char *tmpdir = getenv("TMPDIR");

	return tmpdir && *tmpdir ? tmpdir : "/tmp";
}

/* Every signal whose default action ends the process, but the crashes. */
static const int tmp_signals[] = {
	SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGUSR1, SIGUSR2, SIGALRM,
	SIGPIPE, SIGXCPU, SIGXFSZ, SIGVTALRM, SIGPROF,
};
#define NR_TMP_SIGNALS (sizeof(tmp_signals) / sizeof(tmp_signals[0]))

static struct tmpdir *volatile tmp_live;
static struct sigaction tmp_old[NR_TMP_SIGNALS];
static pid_t tmp_owner;		/* the process that set the guard */
static pid_t tmp_owner_tid;	/* its thread that did, which alone cleans up */
static pid_t tmp_pids[TMP_PIDS_MAX];	/* its workers alive; 0: free */

void tmp_block(sigset_t *old)
{
	sigset_t set;
	unsigned int i;

	sigemptyset(&set);
	for (i = 0; i < NR_TMP_SIGNALS; i++)
		sigaddset(&set, tmp_signals[i]);
	sigprocmask(SIG_BLOCK, &set, old);
}

void tmp_unblock(const sigset_t *old)
{
	sigprocmask(SIG_SETMASK, old, NULL);
}

void tmp_note(struct tmpdir *t, const char *path)
{
	char *p = xstrdup(path);
	sigset_t old;

	tmp_block(&old);
	t->made = xrealloc(t->made, t->n + 1, sizeof(*t->made));
	t->made[t->n++] = p;
	tmp_unblock(&old);
}

int tmp_make_base(struct tmpdir *t)
{
	char tmpl[PATH_MAX];
	sigset_t old;
	int ret = 0;

	snprintf(tmpl, sizeof(tmpl), "%s/rpcsim-analyze.XXXXXX", tmp_parent());
	tmp_block(&old);
	if (mkdtemp(tmpl))
		t->base = xstrdup(tmpl);
	else
		ret = -1;
	tmp_unblock(&old);
	return ret;
}

void tmp_remove(struct tmpdir *t)
{
	sigset_t old;

	tmp_block(&old);
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
	tmp_unblock(&old);
}

/*
 * @path made, a link to @target or (@target NULL) a folder, and noted,
 * with the signals blocked: one taken between the two would leave it,
 * and the directory holding it, behind.  0, or -1 (errno).
 */
static int tmp_make(struct tmpdir *t, const char *target, const char *path)
{
	sigset_t old;
	int ret;

	tmp_block(&old);
	ret = target ? symlink(target, path) : mkdir(path, 0700);
	if (!ret)
		tmp_note(t, path);
	tmp_unblock(&old);
	return ret ? -1 : 0;
}

int tmp_mkdir(struct tmpdir *t, const char *path)
{
	return tmp_make(t, NULL, path);
}

int tmp_link(struct tmpdir *t, const char *target, const char *path)
{
	return tmp_make(t, target, path);
}

/* With the guarded signals blocked (tmp_block()). */
void tmp_add_pid(pid_t pid)
{
	for (unsigned int i = 0; i < TMP_PIDS_MAX; i++)
		if (!tmp_pids[i]) {
			tmp_pids[i] = pid;
			return;
		}
}

pid_t tmp_reap(pid_t pid, int *status)
{
	siginfo_t si;
	sigset_t old;
	pid_t got;

	/* wait without reaping: the pid stays its own for the handler */
	while (waitid(P_PID, (id_t)pid, &si, WEXITED | WNOWAIT) < 0)
		if (errno != EINTR)
			break;
	tmp_block(&old);
	got = waitpid(pid, status, WNOHANG);
	for (unsigned int i = 0; i < TMP_PIDS_MAX; i++)
		if (tmp_pids[i] == pid)
			tmp_pids[i] = 0;
	tmp_unblock(&old);
	return got;
}

/*
 * Kill and wait for the workers, then remove what was noted: the
 * signal handler's and exit()'s way out (async-signal-safe).
 */
static void tmp_clean_up(void)
{
	struct tmpdir *t = tmp_live;
	unsigned int i;

	/* a worker between fork() and tmp_unguard(): not its to do */
	if (!t || getpid() != tmp_owner)
		return;
	for (i = 0; i < TMP_PIDS_MAX; i++)
		if (tmp_pids[i] > 0)
			kill(tmp_pids[i], SIGKILL);
	for (i = 0; i < TMP_PIDS_MAX; i++)
		if (tmp_pids[i] > 0) {
			while (waitpid(tmp_pids[i], NULL, 0) < 0 &&
			       errno == EINTR)
				;
			tmp_pids[i] = 0;
		}
	for (i = t->n; i--; )
		if (unlink(t->made[i]))
			rmdir(t->made[i]);
	if (t->base)
		rmdir(t->base);
}

/*
 * libbabeltrace2 starts threads of its own, and the kernel gives a
 * process's signal to any thread that does not block it.  The clean-up
 * runs in the thread that set the guard only: the one that changes what
 * it reads, with the signals blocked while it does; another thread
 * passes the signal on to it.  The signal's default action is restored
 * only once the clean-up is done: a second signal meanwhile (the
 * isolating parent forwards the one it got too) waits in the blocked
 * set, instead of ending the process half way through.
 */
static void tmp_on_signal(int sig)
{
	int saved = errno;

	if (getpid() == tmp_owner && gettid() != tmp_owner_tid) {
		tgkill(tmp_owner, tmp_owner_tid, sig);
		errno = saved;
		return;
	}
	tmp_clean_up();
	signal(sig, SIG_DFL);
	errno = saved;
	/* blocked in this handler: the default action on return */
	raise(sig);
}

/* exit() while guarded (tool_die(): out of memory, say) */
static void tmp_at_exit(void)
{
	sigset_t old;

	tmp_block(&old);
	tmp_clean_up();
	tmp_live = NULL;
	tmp_unblock(&old);
}

void tmp_guard(struct tmpdir *t)
{
	static bool at_exit;
	struct sigaction sa;
	unsigned int i;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = tmp_on_signal;
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < NR_TMP_SIGNALS; i++)
		sigaddset(&sa.sa_mask, tmp_signals[i]);
	if (!at_exit && !atexit(tmp_at_exit))
		at_exit = true;
	tmp_owner = getpid();
	tmp_owner_tid = gettid();
	tmp_live = t;
	for (i = 0; i < NR_TMP_SIGNALS; i++) {
		sigaction(tmp_signals[i], &sa, &tmp_old[i]);
		/* one ignored (nohup, a shell's background job) stays so */
		if (tmp_old[i].sa_handler == SIG_IGN)
			sigaction(tmp_signals[i], &tmp_old[i], NULL);
	}
}

void tmp_unguard(void)
{
	unsigned int i;

	if (!tmp_live)
		return;
	for (i = 0; i < NR_TMP_SIGNALS; i++)
		sigaction(tmp_signals[i], &tmp_old[i], NULL);
	tmp_live = NULL;
	memset(tmp_pids, 0, sizeof(tmp_pids));
}
