/* SPDX-License-Identifier: MIT */
/*
 * Death tests and stderr capture for the unit tests.
 *
 * run_in_child() forks, points the child's stderr at a pipe and runs a
 * function there; the parent collects what the child wrote and how it
 * ended, so a test can check that a misuse aborts with the right report.
 * capture_stderr() does the same for a call that returns, in process.
 */
#ifndef PP_TESTS_CAPTURE_H
#define PP_TESTS_CAPTURE_H

#include <stdbool.h>
#include <stddef.h>

#define CAPTURE_MAX	8192

struct child_result {
	int status;			/* waitpid() status; -1 if not run */
	char output[CAPTURE_MAX];	/* the child's stderr, NUL-terminated */
};

/*
 * Run @fn(@arg) in a child process (stdout to /dev/null, stderr captured,
 * no core dump, killed by SIGALRM after @timeout_s seconds).  A child whose
 * @fn returns exits with status 0.
 *
 * Return: false if the child could not be started.
 */
bool run_in_child(void (*fn)(void *arg), void *arg, unsigned int timeout_s,
		  struct child_result *res);

/* Did the child die of SIGABRT? */
bool child_aborted(const struct child_result *res);

/* Did the child exit normally with status 0? */
bool child_exited_ok(const struct child_result *res);

/* How the child ended, for diagnostics ("signal 6", "exit 0"). */
const char *child_how(const struct child_result *res, char *buf, size_t len);

/*
 * Run @fn(@arg) with this process's stderr sent to a temporary file and
 * copy what was written to @buf (NUL-terminated, truncated to @len).
 *
 * Return: what @fn returned.
 */
int capture_stderr(int (*fn)(void *arg), void *arg, char *buf, size_t len);

/* Print @text as TAP diagnostics, one "# " line per line of text. */
void diag_text(const char *prefix, const char *text);

#endif /* PP_TESTS_CAPTURE_H */
