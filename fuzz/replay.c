/* SPDX-License-Identifier: MIT */
/*
 * Replay fuzz inputs through a target's LLVMFuzzerTestOneInput(), built
 * with the project's compiler and flags, so the committed corpus and the
 * regression inputs of every crash found run in make check of every build
 * (plain, ASan, TSan).  TAP on stdout, one check per input:
 *
 *   fuzz-replay-pool [FILE|DIR]...
 *
 * With no argument (as make check runs it) it reads
 * $top_srcdir/fuzz/corpus/TARGET and $top_srcdir/fuzz/regressions/TARGET,
 * TARGET being the one it was built with (-DFUZZ_TARGET), or the
 * directories $FUZZ_REPLAY_DIRS names (space separated, relative to
 * $top_srcdir/fuzz).  A directory means every regular file in it, in name
 * order (but for *.md notes); a default directory that does not exist
 * is skipped.  The inputs run in child processes, REPLAY_BATCH in each,
 * one after another as libFuzzer runs them; a child that crashes (a
 * failed check aborts) or, in ASan builds, leaks, runs its inputs again
 * one per child, so that the failure fails that input's check and the
 * others still pass; the child's report precedes its "not ok" line.  A
 * batch that fails while each of its inputs passes alone fails the run
 * (exit 1, a diagnostic naming the batch).
 */
#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fuzz.h"

/*
 * Inputs per child: an ASan build's child pays a leak scan at exit, about
 * 40 ms whatever the input (a fork and exit of a program built with
 * -fsanitize=address,undefined took 42 ms here, 24 ms without UBSan's
 * runtime and its globals to scan), more than most inputs take to run.
 */
#define REPLAY_BATCH	16

#ifndef FUZZ_TARGET
#define FUZZ_TARGET "pool"
#endif

struct inputs {
	char **path;
	size_t nr, cap;
};

static void add(struct inputs *in, const char *path)
{
	if (in->nr == in->cap) {
		size_t cap = in->cap ? 2 * in->cap : 64;
		char **p = realloc(in->path, cap * sizeof(*p));

		if (!p) {
			fprintf(stderr, "fuzz-replay: out of memory\n");
			exit(1);
		}
		in->path = p;
		in->cap = cap;
	}
	in->path[in->nr] = strdup(path);
	if (!in->path[in->nr]) {
		fprintf(stderr, "fuzz-replay: out of memory\n");
		exit(1);
	}
	in->nr++;
}

static int cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* FILE, or every regular file of DIR in name order. */
static int collect(struct inputs *in, const char *path, bool may_be_missing)
{
	size_t first = in->nr;
	struct dirent *de;
	struct stat st;
	DIR *d;

	if (stat(path, &st)) {
		if (may_be_missing && errno == ENOENT)
			return 0;
		printf("Bail out! %s: %s\n", path, strerror(errno));
		return -1;
	}
	if (!S_ISDIR(st.st_mode)) {
		add(in, path);
		return 0;
	}
	d = opendir(path);
	if (!d) {
		printf("Bail out! %s: %s\n", path, strerror(errno));
		return -1;
	}
	while ((de = readdir(d))) {
		char buf[4096];

		size_t len = strlen(de->d_name);

		/* hidden files and notes (README.md) are not inputs */
		if (de->d_name[0] == '.' ||
		    (len > 3 && !strcmp(de->d_name + len - 3, ".md")))
			continue;
		snprintf(buf, sizeof(buf), "%s/%s", path, de->d_name);
		if (!stat(buf, &st) && S_ISREG(st.st_mode))
			add(in, buf);
	}
	closedir(d);
	qsort(in->path + first, in->nr - first, sizeof(*in->path), cmp);
	return 0;
}

static unsigned char *slurp(const char *path, size_t *len)
{
	unsigned char *buf = NULL;
	size_t cap = 0, n = 0;
	FILE *f = fopen(path, "rb");

	if (!f)
		return NULL;
	for (;;) {
		size_t got;

		if (n == cap) {
			unsigned char *p;

			cap = cap ? 2 * cap : 4096;
			p = realloc(buf, cap);
			if (!p) {
				free(buf);
				fclose(f);
				return NULL;
			}
			buf = p;
		}
		got = fread(buf + n, 1, cap - n, f);
		n += got;
		if (got == 0)
			break;
	}
	fclose(f);
	*len = n;
	return buf;
}

/* Runs the @n inputs @data (NULL: unread) in one child: 0 if it exited 0. */
static int run_child(unsigned char *const *data, const size_t *len, size_t n,
		     int *status)
{
	pid_t pid;

	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid < 0) {
		printf("Bail out! fork: %s\n", strerror(errno));
		exit(1);
	}
	if (pid == 0) {
		for (size_t i = 0; i < n; i++)
			if (data[i])
				LLVMFuzzerTestOneInput(data[i], len[i]);
		fflush(NULL);
		exit(0);	/* ASan builds look for leaks here */
	}
	while (waitpid(pid, status, 0) < 0)
		if (errno != EINTR) {
			printf("Bail out! waitpid: %s\n", strerror(errno));
			exit(1);
		}
	return !(WIFEXITED(*status) && WEXITSTATUS(*status) == 0);
}

static void report(size_t i, const char *path, int status)
{
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		printf("ok %zu - %s\n", i + 1, path);
	else
		printf("not ok %zu - %s: %s %d (its report: in this log)\n",
		       i + 1, path, WIFSIGNALED(status) ? "killed by signal" :
		       "exit status", WIFSIGNALED(status) ? WTERMSIG(status) :
		       WEXITSTATUS(status));
}

int main(int argc, char **argv)
{
	struct inputs in = { 0 };
	unsigned char *data[REPLAY_BATCH];
	size_t len[REPLAY_BATCH];
	int failed = 0, status, bad[REPLAY_BATCH];

	LLVMFuzzerInitialize(&argc, &argv);
	if (argc > 1) {
		for (int i = 1; i < argc; i++)
			if (collect(&in, argv[i], false))
				return 1;
	} else {
		const char *top = getenv("top_srcdir");
		const char *dirs = getenv("FUZZ_REPLAY_DIRS");
		char *copy, *tok, *save = NULL;

		if (!top) {
			printf("Bail out! give inputs, or set top_srcdir\n");
			return 1;
		}
		copy = strdup(dirs ? dirs : "corpus/" FUZZ_TARGET
				     " regressions/" FUZZ_TARGET);
		if (!copy)
			return 1;
		for (tok = strtok_r(copy, " ", &save); tok;
		     tok = strtok_r(NULL, " ", &save)) {
			char buf[4096];

			snprintf(buf, sizeof(buf), "%s/fuzz/%s", top, tok);
			if (collect(&in, buf, !dirs)) {
				free(copy);
				return 1;
			}
		}
		free(copy);
	}
	printf("1..%zu\n", in.nr);
	for (size_t first = 0; first < in.nr; first += REPLAY_BATCH) {
		size_t n = in.nr - first < REPLAY_BATCH ? in.nr - first :
							  REPLAY_BATCH;
		bool together, alone_failed = false;

		for (size_t k = 0; k < n; k++) {
			errno = 0;
			data[k] = slurp(in.path[first + k], &len[k]);
			bad[k] = data[k] ? 0 : errno ? errno : EIO;
		}
		together = !run_child(data, len, n, &status);
		if (!together)
			printf("# inputs %zu to %zu failed in one process; "
			       "each again alone\n", first + 1, first + n);
		for (size_t k = 0; k < n; k++) {
			size_t i = first + k;

			if (bad[k]) {
				printf("not ok %zu - %s: %s\n", i + 1,
				       in.path[i], strerror(bad[k]));
				failed = 1;
			} else {
				if (!together &&
				    run_child(data + k, len + k, 1, &status))
					alone_failed = true;
				report(i, in.path[i], status);
			}
			free(data[k]);
			free(in.path[i]);
		}
		if (!together && !alone_failed)
			printf("# inputs %zu to %zu fail together in one "
			       "process, each passes alone\n",
			       first + 1, first + n);
		if (!together)
			failed = 1;
	}
	free(in.path);
	return failed;
}
