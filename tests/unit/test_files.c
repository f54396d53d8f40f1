/* SPDX-License-Identifier: MIT */
/*
 * The files of the tools (common/files.h): read_regular_file() reads a
 * regular file whole and refuses, without blocking or reading, a FIFO,
 * a device, a folder and a file above its bound; an atomic output file
 * replaces its path only when committed, leaves the old file when
 * aborted, when a signal ends the process or when it exits before the
 * commit, replaces a symbolic link's
 * target (not the link), and writes a FIFO or device directly.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "files.h"
#include "tap.h"

static char dir[] = "/tmp/test-files.XXXXXX";

static char *path_of(const char *name)
{
	static char buf[4][256];
	static unsigned int i;

	i = (i + 1) % 4;
	snprintf(buf[i], sizeof(buf[i]), "%s/%s", dir, name);
	return buf[i];
}

static void put(const char *name, const char *text)
{
	FILE *f = fopen(path_of(name), "w");

	if (!f || fputs(text, f) < 0 || fclose(f))
		bail_out("cannot write %s", path_of(name));
}

/* The text of @name, or "" (a static buffer). */
static const char *get(const char *name)
{
	static char buf[256];
	FILE *f = fopen(path_of(name), "r");
	size_t n = 0;

	if (f) {
		n = fread(buf, 1, sizeof(buf) - 1, f);
		fclose(f);
	}
	buf[n] = '\0';
	return buf;
}

/* How many entries of the folder are hidden (temporary files). */
static unsigned int hidden(void)
{
	char cmd[512];
	FILE *p;
	unsigned int n = 0;

	snprintf(cmd, sizeof(cmd), "find %s -name '.*' ! -name . | wc -l",
		 dir);
	p = popen(cmd, "r");
	if (!p || fscanf(p, "%u", &n) != 1)
		bail_out("find failed");
	pclose(p);
	return n;
}

static void reading(void)
{
	char err[256], *buf;
	size_t len = 0;

	put("a.json", "{\"a\": 1}\n");
	buf = read_regular_file(path_of("a.json"), FILE_READ_MAX, &len, err,
				sizeof(err));
	ok(buf && len == 9 && !strcmp(buf, "{\"a\": 1}\n"),
	   "a regular file: read whole, NUL-terminated");
	free(buf);

	buf = read_regular_file(path_of("a.json"), 8, &len, err, sizeof(err));
	ok(!buf && errno == EFBIG &&
	   !strcmp(err, "larger than 8 bytes (the bound of an input file)"),
	   "one byte above the bound: refused (%s)", err);
	buf = read_regular_file(path_of("a.json"), 9, &len, err, sizeof(err));
	ok(buf && len == 9, "exactly the bound: read");
	free(buf);

	if (mkfifo(path_of("fifo.json"), 0600))
		bail_out("mkfifo: %s", strerror(errno));
	/* No writer: a blocking open would never return. */
	alarm(10);
	buf = read_regular_file(path_of("fifo.json"), FILE_READ_MAX, &len,
				err, sizeof(err));
	alarm(0);
	ok(!buf && errno == EINVAL &&
	   !strcmp(err, "not a regular file (a FIFO)"),
	   "a FIFO: refused at once (%s)", err);

	buf = read_regular_file("/dev/zero", FILE_READ_MAX, &len, err,
				sizeof(err));
	ok(!buf && errno == EINVAL &&
	   !strcmp(err, "not a regular file (a character device)"),
	   "/dev/zero: refused, not read (%s)", err);
	buf = read_regular_file(dir, FILE_READ_MAX, &len, err, sizeof(err));
	ok(!buf && !strcmp(err, "not a regular file (a directory)"),
	   "a folder: refused (%s)", err);
	buf = read_regular_file(path_of("none.json"), FILE_READ_MAX, &len, err,
				sizeof(err));
	ok(!buf && errno == ENOENT &&
	   !strcmp(err, "cannot open: No such file or directory"),
	   "a missing file: ENOENT (%s)", err);
}

/*
 * A process that ends before its commit, by a signal or by exit(): the
 * old file untouched, no temporary file left.
 */
static void writing_cut_short(void)
{
	struct atomic_file af;
	char err[256];
	pid_t pid;
	int status;

	/*
	 * A signal that ends the process removes the temporary file: each
	 * a user or the system sends to end a process.
	 */
	{
		static const int sigs[] = { SIGHUP, SIGINT, SIGQUIT, SIGTERM,
					    SIGPIPE, SIGUSR1, SIGUSR2, SIGALRM,
					    SIGXCPU, SIGXFSZ, SIGVTALRM,
					    SIGPROF };
		char bad[256] = "";

		for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++) {
			pid = fork();
			if (pid < 0)
				bail_out("fork: %s", strerror(errno));
			if (!pid) {
				signal(sigs[i], SIG_DFL);
				if (atomic_file_open(&af, path_of("out.txt"),
						     err, sizeof(err)))
					_exit(1);
				fputs("never", af.f);
				fflush(af.f);
				raise(sigs[i]);
				_exit(2);
			}
			waitpid(pid, &status, 0);
			if (!(WIFSIGNALED(status) &&
			      WTERMSIG(status) == sigs[i] &&
			      !strcmp(get("out.txt"), "new\n") &&
			      hidden() == 0))
				snprintf(bad + strlen(bad),
					 sizeof(bad) - strlen(bad), " %s",
					 strsignal(sigs[i]));
		}
		ok(!bad[0], "SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGPIPE, SIGUSR1, "
		   "SIGUSR2, SIGALRM, SIGXCPU, SIGXFSZ, SIGVTALRM, SIGPROF "
		   "while written: the process ends by it, the old file "
		   "untouched, no temporary file left%s%s",
		   bad[0] ? "; not so for" : "", bad);
	}

	/* exit() before the commit (a tool dying): nothing left either. */
	fflush(NULL);	/* the child's exit() flushes its copy of stdout */
	pid = fork();
	if (pid < 0)
		bail_out("fork: %s", strerror(errno));
	if (!pid) {
		if (atomic_file_open(&af, path_of("out.txt"), err,
				     sizeof(err)))
			_exit(2);
		fputs("never", af.f);
		exit(1);
	}
	waitpid(pid, &status, 0);
	ok(WIFEXITED(status) && WEXITSTATUS(status) == 1 &&
	   !strcmp(get("out.txt"), "new\n") && hidden() == 0,
	   "exit(1) before the commit: the old file untouched, no temporary "
	   "file left");
}

static void writing(void)
{
	struct atomic_file af;
	char err[256];

	put("out.txt", "old\n");
	ok(!atomic_file_open(&af, path_of("out.txt"), err, sizeof(err)),
	   "atomic_file_open");
	fputs("new\n", af.f);
	fflush(af.f);
	ok(!strcmp(get("out.txt"), "old\n") && hidden() == 1,
	   "while written: the old file there, the new one hidden");
	ok(!atomic_file_commit(&af, err, sizeof(err)) &&
	   !strcmp(get("out.txt"), "new\n") && hidden() == 0,
	   "committed: the new file in place, nothing hidden left");

	ok(!atomic_file_open(&af, path_of("out.txt"), err, sizeof(err)),
	   "atomic_file_open again");
	fputs("half", af.f);
	atomic_file_abort(&af);
	ok(!strcmp(get("out.txt"), "new\n") && hidden() == 0,
	   "aborted: the old file untouched, nothing hidden left");

	writing_cut_short();

	/* A link: its target is replaced, the link stays a link. */
	put("target.txt", "target\n");
	if (symlink("target.txt", path_of("link.txt")))
		bail_out("symlink: %s", strerror(errno));
	if (atomic_file_open(&af, path_of("link.txt"), err, sizeof(err)))
		bail_out("atomic_file_open: %s", err);
	fputs("through the link\n", af.f);
	ok(!atomic_file_commit(&af, err, sizeof(err)) &&
	   !strcmp(get("target.txt"), "through the link\n"),
	   "a symbolic link: its target replaced");
	{
		struct stat st;

		ok(!lstat(path_of("link.txt"), &st) && S_ISLNK(st.st_mode),
		   "  the link is still a link");
	}

	/* /dev/null: written directly, not replaced. */
	ok(!atomic_file_open(&af, "/dev/null", err, sizeof(err)) && !af.tmp,
	   "/dev/null: opened directly");
	fputs("gone\n", af.f);
	ok(!atomic_file_commit(&af, err, sizeof(err)), "  and committed");

	ok(atomic_file_open(&af, path_of("no-such-dir/x.txt"), err,
			    sizeof(err)) &&
	   strstr(err, "cannot create a temporary file in "),
	   "a missing folder: refused (%s)", err);
}

int main(void)
{
	char cmd[128];

	plan_tests(19);
	if (!mkdtemp(dir))
		bail_out("mkdtemp: %s", strerror(errno));
	reading();
	writing();
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	if (system(cmd))
		diag("cannot remove %s", dir);
	return exit_status();
}
