/* SPDX-License-Identifier: MIT */
/*
 * The files the tools read and write, one way for all of them:
 *
 * - an input file (a JSON document, a result file, a sweep point) is
 *   opened without blocking (a FIFO in its place is refused, not waited
 *   on), must be a regular file (not a device such as /dev/zero, not a
 *   directory) and is read whole up to a stated bound, FILE_READ_MAX;
 * - an output file (--output=FILE, a result file of --results=DIR) is
 *   written into a temporary file of its folder and renamed over its name
 *   only once complete and flushed to disk: a run that fails, or that a
 *   signal ends, leaves what was there before untouched.
 *
 * In libcommon; messages start with tool_name (tool.h) where they are
 * printed here, else go into the caller's @err.
 */
#ifndef PP_COMMON_FILES_H
#define PP_COMMON_FILES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

/*
 * The largest input file the tools read: 64 MiB.  No document of rpcsim,
 * rpcsim-analyze or pagebench comes near it (a long rpcsim --json is a
 * few hundred KiB); anything larger is refused, not read.
 */
#define FILE_READ_MAX	((size_t)64 << 20)

/*
 * read_regular_file() - the whole of @path, NUL-terminated (the NUL not
 * counted in *@len), malloc'd.  Opened with O_NONBLOCK|O_NOCTTY (a FIFO
 * is not waited on), checked with fstat() to be a regular file, refused
 * above @max_bytes.  NULL on failure, with errno set (ENOENT: no such
 * file; EINVAL: not a regular file; EFBIG: too large; else the
 * system's) and @err (@errlen bytes) saying why, without the path:
 * "cannot open: No such file or directory", "not a regular file (a
 * FIFO)", "larger than 64 MiB (the bound of an input file)", "cannot
 * read: ...".
 */
char *read_regular_file(const char *path, size_t max_bytes, size_t *len,
			char *err, size_t errlen);

/*
 * An output file written atomically: @f writes into a temporary file
 * (".NAME.XXXXXX" beside @path's target, so never taken for a *.json
 * result), which atomic_file_commit() renames over @path.  When @path
 * names something that is not a regular file (/dev/null, a FIFO, a
 * terminal), it is written directly: there is nothing to replace.  A
 * symbolic link is followed: its target is replaced, the link stays.
 */
struct atomic_file {
	FILE *f;
	char *path;		/* what is replaced (a link's target) */
	char *tmp;		/* the temporary file; NULL when direct */
	int fd;
	pid_t owner;		/* the process that commits or removes it */
};

/*
 * atomic_file_open() - start writing @path.  0, or -1 with @err saying
 * why ("cannot create a temporary file in DIR: ...").  While it is open,
 * SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGPIPE, SIGUSR1, SIGUSR2, SIGALRM,
 * SIGXCPU, SIGXFSZ, SIGVTALRM and SIGPROF, when they would end the
 * process (their default action), remove the temporary file first; a
 * program with handlers of its own ends its run and calls
 * atomic_file_abort() instead.  One that exits without committing
 * (tool_die()) leaves no temporary file either.
 */
int atomic_file_open(struct atomic_file *af, const char *path, char *err,
		     size_t errlen);

/*
 * atomic_file_commit() - flush @af to disk (fflush, fsync), close it and
 * rename it over its path.  0, or -1 with @err saying why, the temporary
 * file removed and the old file untouched.
 */
int atomic_file_commit(struct atomic_file *af, char *err, size_t errlen);

/* atomic_file_abort() - close @af and remove its temporary file. */
void atomic_file_abort(struct atomic_file *af);

/*
 * atomic_stdout_open() - standard output (the descriptor, so that child
 * processes write there too) into a temporary file for @path, as
 * atomic_file_open().  0, or -1 with @err saying why.
 */
int atomic_stdout_open(const char *path, char *err, size_t errlen);

/*
 * atomic_stdout_close() - the end of atomic_stdout_open(): with @keep,
 * stdout flushed to disk and renamed over its path (0, or -1 with @err
 * saying why); without, the temporary file removed and the old file left
 * as it was (1; 0 when the path was written directly, a FIFO or a
 * device, where what was written stays written).  Nothing to do (0)
 * when stdout was not redirected, or in a forked child.
 */
int atomic_stdout_close(bool keep, char *err, size_t errlen);

/*
 * atomic_stdout_finish() - the end of a tool's --output=@path, its exit
 * status so far @status: atomic_stdout_close(), keeping what was written
 * when @status is 0 or when @cut_by (else NULL) names the signal that cut
 * the run short, then the one message of every tool saying what became
 * of @path, after tool_name:
 *   "NAME: --output=PATH: ERROR" (it could not be written),
 *   "NAME: --output=PATH: not written: the @what failed (exit N); the
 *   file is as it was",
 *   "NAME: --output=PATH: what was measured before @cut_by, marked as
 *   interrupted".
 * @what is the tool's word for its work: "run", "analysis", "comparison".
 * Returns the exit status: @status, or 1 when @path could not be written
 * after a run that succeeded.
 */
int atomic_stdout_finish(const char *path, int status, const char *what,
			 const char *cut_by);

#endif /* PP_COMMON_FILES_H */
