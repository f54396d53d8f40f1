/* SPDX-License-Identifier: MIT */
/*
 * Bounded reading of regular input files and atomic replacement of
 * output files: see files.h.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "files.h"
#include "tool.h"

__attribute__((format(printf, 3, 4)))
static void set_err(char *err, size_t len, const char *fmt, ...)
{
	va_list ap;

	if (!err || !len)
		return;
	va_start(ap, fmt);
	vsnprintf(err, len, fmt, ap);
	va_end(ap);
}

/* "a FIFO", "a directory", ...: what @mode is, for messages. */
static const char *file_kind(mode_t mode)
{
	if (S_ISDIR(mode))
		return "a directory";
	if (S_ISFIFO(mode))
		return "a FIFO";
	if (S_ISCHR(mode))
		return "a character device";
	if (S_ISBLK(mode))
		return "a block device";
	if (S_ISSOCK(mode))
		return "a socket";
	return "not a file";
}

/* "64 MiB" for the bound @max in messages. */
static void fmt_bound(char *buf, size_t len, size_t max)
{
	if (max >= (1u << 20) && !(max % (1u << 20)))
		snprintf(buf, len, "%zu MiB", max >> 20);
	else if (max >= 1024 && !(max % 1024))
		snprintf(buf, len, "%zu KiB", max >> 10);
	else
		snprintf(buf, len, "%zu bytes", max);
}

char *read_regular_file(const char *path, size_t max_bytes, size_t *len,
			char *err, size_t errlen)
{
	size_t cap, n = 0;
	struct stat st;
	char *buf, bound[32];
	int fd, e;

	fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0) {
		e = errno;
		set_err(err, errlen, "cannot open: %s", strerror(e));
		errno = e;
		return NULL;
	}
	if (fstat(fd, &st)) {
		e = errno;
		close(fd);
		set_err(err, errlen, "cannot read: %s", strerror(e));
		errno = e;
		return NULL;
	}
	fmt_bound(bound, sizeof(bound), max_bytes);
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		set_err(err, errlen, "not a regular file (%s)",
			file_kind(st.st_mode));
		errno = EINVAL;
		return NULL;
	}
	if ((uintmax_t)st.st_size > max_bytes) {
		close(fd);
		set_err(err, errlen, "larger than %s (the bound of an input "
			"file)", bound);
		errno = EFBIG;
		return NULL;
	}
	/* The size is a hint: the file may grow or shrink while read. */
	cap = (size_t)st.st_size + 1;
	if (cap < 4096)
		cap = 4096;
	buf = xcalloc(cap, 1);
	for (;;) {
		ssize_t got;

		if (n + 1 == cap) {
			if (n > max_bytes)
				break;
			cap = cap * 2 > max_bytes + 2 ? max_bytes + 2 : cap * 2;
			buf = xrealloc(buf, cap, 1);
		}
		got = read(fd, buf + n, cap - n - 1);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			e = errno;
			close(fd);
			free(buf);
			set_err(err, errlen, "cannot read: %s", strerror(e));
			errno = e;
			return NULL;
		}
		if (!got)
			break;
		n += (size_t)got;
	}
	close(fd);
	if (n > max_bytes) {
		free(buf);
		set_err(err, errlen, "larger than %s (the bound of an input "
			"file)", bound);
		errno = EFBIG;
		return NULL;
	}
	buf[n] = '\0';
	*len = n;
	return buf;
}

/* --- atomic output --------------------------------------------------------- */

/*
 * The temporary files open now, for the signal handler: fixed buffers
 * (nothing to allocate or free in a handler), the pid that made them (a
 * forked child inherits the handler, not the files).
 */
#define LIVE_MAX	4

static struct {
	volatile sig_atomic_t used;
	char path[PATH_MAX];
} live[LIVE_MAX];
static pid_t live_owner;

/* The signals a user or the system sends to end a process (not a crash). */
static const int live_signals[] = { SIGHUP, SIGINT, SIGQUIT, SIGTERM,
				    SIGPIPE, SIGUSR1, SIGUSR2, SIGALRM,
				    SIGXCPU, SIGXFSZ, SIGVTALRM, SIGPROF };
#define NR_LIVE_SIGNALS	(sizeof(live_signals) / sizeof(live_signals[0]))

/* live_signals[] as a set. */
static void live_sigset(sigset_t *set)
{
	sigemptyset(set);
	for (size_t i = 0; i < NR_LIVE_SIGNALS; i++)
		sigaddset(set, live_signals[i]);
}

/*
 * The default action is put back only once the files are gone: with
 * SA_RESETHAND, a second signal taken by another thread of the program
 * meanwhile (libbabeltrace2 starts some) would end it half way.  Such a
 * second handler unlinks the same files again, harmlessly.
 */
static void live_on_signal(int sig)
{
	int e = errno;

	if (getpid() == live_owner)
		for (unsigned int i = 0; i < LIVE_MAX; i++)
			if (live[i].used)
				unlink(live[i].path);
	signal(sig, SIG_DFL);
	/* blocked in this handler: the default action on return */
	raise(sig);
	errno = e;
}

/*
 * At exit, the temporary files still open: a program that dies
 * (tool_die(), exit(1)) before it commits leaves none behind.
 */
static void live_at_exit(void)
{
	if (getpid() != live_owner)
		return;
	for (unsigned int i = 0; i < LIVE_MAX; i++)
		if (live[i].used) {
			unlink(live[i].path);
			live[i].used = 0;
		}
}

/*
 * The handlers, for the signals whose action is the default now (each
 * time a file is opened: the program may have reset one since), and the
 * exit handler, once.
 */
static void live_guard(void)
{
	static bool at_exit;
	struct sigaction sa, old;

	live_owner = getpid();
	if (!at_exit && !atexit(live_at_exit))
		at_exit = true;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = live_on_signal;
	sa.sa_flags = SA_RESTART;
	live_sigset(&sa.sa_mask);
	for (size_t i = 0; i < NR_LIVE_SIGNALS; i++)
		if (!sigaction(live_signals[i], NULL, &old) &&
		    old.sa_handler == SIG_DFL)
			sigaction(live_signals[i], &sa, NULL);
}

/* Hold back the signals live_guard() handles, in this thread. */
static void live_block(sigset_t *old)
{
	sigset_t set;

	live_sigset(&set);
	pthread_sigmask(SIG_BLOCK, &set, old);
}

static void live_add(const char *tmp)
{
	for (unsigned int i = 0; i < LIVE_MAX; i++) {
		if (live[i].used)
			continue;
		if (strlen(tmp) < sizeof(live[i].path)) {
			strcpy(live[i].path, tmp);
			live[i].used = 1;
		}
		return;
	}
}

static void live_remove(const char *tmp)
{
	for (unsigned int i = 0; i < LIVE_MAX; i++)
		if (live[i].used && !strcmp(live[i].path, tmp))
			live[i].used = 0;
}

/*
 * What to replace for @path: @path itself, or a symbolic link's target.
 * Malloc'd; *@regular false when it exists and is no regular file.
 */
static char *replace_target(const char *path, bool *regular)
{
	struct stat st;
	char *real;

	*regular = true;
	if (lstat(path, &st))
		return xstrdup(path);	/* made new */
	if (S_ISLNK(st.st_mode)) {
		if (stat(path, &st))
			return xstrdup(path);	/* a dangling link: replaced */
		real = realpath(path, NULL);
		if (!real)
			return xstrdup(path);
		*regular = S_ISREG(st.st_mode);
		return real;
	}
	*regular = S_ISREG(st.st_mode);
	return xstrdup(path);
}

int atomic_file_open(struct atomic_file *af, const char *path, char *err,
		     size_t errlen)
{
	const char *slash, *base;
	sigset_t mask_old;
	bool regular;
	size_t len;
	mode_t mask;
	int e;

	memset(af, 0, sizeof(*af));
	af->fd = -1;
	af->path = replace_target(path, &regular);
	if (!regular) {
		/* /dev/null, a FIFO, a terminal: nothing to replace */
		af->fd = open(af->path, O_WRONLY | O_NOCTTY | O_CLOEXEC);
		if (af->fd < 0 || !(af->f = fdopen(af->fd, "w"))) {
			set_err(err, errlen, "%s", strerror(errno));
			if (af->fd >= 0)
				close(af->fd);
			free(af->path);
			af->path = NULL;
			return -1;
		}
		af->owner = getpid();
		return 0;
	}
	slash = strrchr(af->path, '/');
	base = slash ? slash + 1 : af->path;
	len = strlen(af->path) + 16;
	af->tmp = xcalloc(len, 1);
	snprintf(af->tmp, len, "%.*s.%s.XXXXXX",
		 slash ? (int)(slash - af->path + 1) : 0, af->path, base);
	live_guard();
	/*
	 * The file is made and noted for the handler with the signals held
	 * back: one taken between the two would end the process leaving
	 * the file (a test's SIGINT, sent as soon as the file showed, once
	 * did).
	 */
	live_block(&mask_old);
	af->fd = mkostemp(af->tmp, O_CLOEXEC);
	if (af->fd >= 0)
		live_add(af->tmp);
	e = errno;
	pthread_sigmask(SIG_SETMASK, &mask_old, NULL);
	if (af->fd < 0) {
		set_err(err, errlen, "cannot create a temporary file in %.*s: "
			"%s", slash ? (int)(slash - af->path + 1) : 2,
			slash ? af->path : "./", strerror(e));
		goto fail;
	}
	/* The mode a new file would get (mkstemp() makes it 0600). */
	mask = umask(0);
	umask(mask);
	if (fchmod(af->fd, 0666 & ~mask) || !(af->f = fdopen(af->fd, "w"))) {
		set_err(err, errlen, "%s: %s", af->tmp, strerror(errno));
		unlink(af->tmp);
		live_remove(af->tmp);
		close(af->fd);
		goto fail;
	}
	af->owner = getpid();
	return 0;
fail:
	free(af->tmp);
	free(af->path);
	memset(af, 0, sizeof(*af));
	af->fd = -1;
	return -1;
}

static void atomic_file_free(struct atomic_file *af)
{
	if (af->tmp)
		live_remove(af->tmp);
	free(af->tmp);
	free(af->path);
	memset(af, 0, sizeof(*af));
	af->fd = -1;
}

/* Flushed to disk, then renamed: 0 or -1 (@err), the file closed. */
static int commit_fd(struct atomic_file *af, int fd, char *err,
		     size_t errlen)
{
	int e;

	if (af->tmp && fsync(fd)) {
		e = errno;
		set_err(err, errlen, "writing %s: %s", af->path, strerror(e));
		return -1;
	}
	if (af->tmp && rename(af->tmp, af->path)) {
		e = errno;
		set_err(err, errlen, "%s: %s", af->path, strerror(e));
		return -1;
	}
	return 0;
}

int atomic_file_commit(struct atomic_file *af, char *err, size_t errlen)
{
	int ret = 0;

	if (!af->f)
		return 0;
	if (fflush(af->f) || ferror(af->f)) {
		set_err(err, errlen, "writing %s: %s", af->path,
			strerror(errno ? errno : EIO));
		ret = -1;
	}
	if (!ret)
		ret = commit_fd(af, af->fd, err, errlen);
	if (fclose(af->f) && !ret) {
		set_err(err, errlen, "writing %s: %s", af->path,
			strerror(errno));
		ret = -1;
	}
	if (ret && af->tmp)
		unlink(af->tmp);
	atomic_file_free(af);
	return ret;
}

void atomic_file_abort(struct atomic_file *af)
{
	if (!af->f)
		return;
	fclose(af->f);
	if (af->tmp)
		unlink(af->tmp);
	atomic_file_free(af);
}

/* --- standard output ------------------------------------------------------ */

static struct atomic_file out_file;

int atomic_stdout_open(const char *path, char *err, size_t errlen)
{
	int fd;

	if (atomic_file_open(&out_file, path, err, errlen))
		return -1;
	fflush(stdout);
	fd = fileno(out_file.f);
	if (dup2(fd, STDOUT_FILENO) < 0) {
		set_err(err, errlen, "%s", strerror(errno));
		atomic_file_abort(&out_file);
		return -1;
	}
	return 0;
}

int atomic_stdout_close(bool keep, char *err, size_t errlen)
{
	int ret = 0;

	if (!out_file.f)
		return 0;
	if (out_file.owner != getpid())
		return 0;	/* a forked child: the parent decides */
	errno = 0;
	if (fflush(stdout) || ferror(stdout)) {
		set_err(err, errlen, "writing %s: %s", out_file.path,
			errno ? strerror(errno) : "an earlier write failed");
		keep = false;
		ret = -1;
	}
	if (!keep) {
		if (!ret && out_file.tmp)
			ret = 1;
		atomic_file_abort(&out_file);
		return ret;
	}
	if (commit_fd(&out_file, STDOUT_FILENO, err, errlen)) {
		atomic_file_abort(&out_file);
		return -1;
	}
	/* renamed: only our descriptor of it is left to close */
	fclose(out_file.f);
	atomic_file_free(&out_file);
	return 0;
}

int atomic_stdout_finish(const char *path, int status, const char *what,
			 const char *cut_by)
{
	char err[PATH_MAX + 128];
	int r = atomic_stdout_close(!status || cut_by, err, sizeof(err));

	if (r < 0) {
		fprintf(stderr, "%s: --output=%s: %s\n", tool_name, path, err);
		return status ? status : 1;
	}
	if (r > 0)
		fprintf(stderr, "%s: --output=%s: not written: the %s failed "
			"(exit %d); the file is as it was\n", tool_name, path,
			what, status);
	else if (cut_by)
		fprintf(stderr, "%s: --output=%s: what was measured before %s, "
			"marked as interrupted\n", tool_name, path, cut_by);
	return status;
}
