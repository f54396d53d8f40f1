/* SPDX-License-Identifier: MIT */
/*
 * The unit tests' death tests and stderr capture: a call run in a child
 * whose stderr and fate are kept, or in process with stderr sent to a
 * file (capture.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "capture.h"
#include "tap.h"

/*
 * AddressSanitizer reads its defaults from this hook.  Leave SIGABRT to
 * the default action (ASan's default too, spelled out so an abort in a
 * death test never turns into an ASan report), and keep quiet on exit.
 */
const char *__asan_default_options(void);
const char *__asan_default_options(void)
{
	return "handle_abort=0";
}

static size_t read_all(int fd, char *buf, size_t len)
{
	size_t got = 0;
	char sink[512];

	for (;;) {
		ssize_t n;

		if (got + 1 < len)
			n = read(fd, buf + got, len - 1 - got);
		else
			n = read(fd, sink, sizeof(sink));	/* discard */
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		if (got + 1 < len)
			got += (size_t)n;
	}
	buf[got] = '\0';
	return got;
}

bool run_in_child(void (*fn)(void *arg), void *arg, unsigned int timeout_s,
		  struct child_result *res)
{
	int pfd[2];
	pid_t pid;

	res->status = -1;
	res->output[0] = '\0';
	if (pipe(pfd))
		return false;
	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid < 0) {
		close(pfd[0]);
		close(pfd[1]);
		return false;
	}
	if (pid == 0) {
		struct rlimit no_core = { 0, 0 };
		int null_fd = open("/dev/null", O_WRONLY);

		close(pfd[0]);
		if (null_fd >= 0) {
			dup2(null_fd, STDOUT_FILENO);
			close(null_fd);
		}
		dup2(pfd[1], STDERR_FILENO);
		close(pfd[1]);
		setrlimit(RLIMIT_CORE, &no_core);
		signal(SIGABRT, SIG_DFL);
		alarm(timeout_s);
		fn(arg);
		fflush(stderr);
		_exit(0);
	}
	close(pfd[1]);
	read_all(pfd[0], res->output, sizeof(res->output));
	close(pfd[0]);
	while (waitpid(pid, &res->status, 0) < 0) {
		if (errno != EINTR) {
			res->status = -1;
			return false;
		}
	}
	return true;
}

bool child_aborted(const struct child_result *res)
{
	return res->status != -1 && WIFSIGNALED(res->status) &&
	       WTERMSIG(res->status) == SIGABRT;
}

bool child_exited_ok(const struct child_result *res)
{
	return res->status != -1 && WIFEXITED(res->status) &&
	       WEXITSTATUS(res->status) == 0;
}

const char *child_how(const struct child_result *res, char *buf, size_t len)
{
	if (res->status == -1)
		snprintf(buf, len, "not run");
	else if (WIFSIGNALED(res->status))
		snprintf(buf, len, "signal %d", WTERMSIG(res->status));
	else if (WIFEXITED(res->status))
		snprintf(buf, len, "exit %d", WEXITSTATUS(res->status));
	else
		snprintf(buf, len, "status 0x%x", res->status);
	return buf;
}

int capture_stderr(int (*fn)(void *arg), void *arg, char *buf, size_t len)
{
	FILE *tmp = tmpfile();
	int saved, ret;

	buf[0] = '\0';
	if (!tmp)
		bail_out("tmpfile: %s", strerror(errno));
	fflush(stderr);
	saved = dup(STDERR_FILENO);
	if (saved < 0 || dup2(fileno(tmp), STDERR_FILENO) < 0)
		bail_out("dup2: %s", strerror(errno));
	ret = fn(arg);
	fflush(stderr);
	if (dup2(saved, STDERR_FILENO) < 0)
		bail_out("dup2: %s", strerror(errno));
	close(saved);
	if (lseek(fileno(tmp), 0, SEEK_SET) == 0)
		read_all(fileno(tmp), buf, len);
	fclose(tmp);
	return ret;
}

void diag_text(const char *prefix, const char *text)
{
	const char *p = text;

	while (*p) {
		const char *nl = strchr(p, '\n');
		int n = nl ? (int)(nl - p) : (int)strlen(p);

		diag("%s%.*s", prefix, n, p);
		p += n + (nl ? 1 : 0);
	}
}
