/* SPDX-License-Identifier: MIT */
/*
 * rpcsim --sweep: see sweep.h.  A point is exactly the command --plan
 * prints for it, whether this rpcsim runs it or GNU parallel or Slurm
 * does, so the table (sweep/sweep.c, rpcsim-compare --sweep's too)
 * cannot tell them apart.
 */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sweep.h"
#include "util.h"
#include "../sweep/results.h"
#include "../sweep/sweep.h"
#include "../sweep/sweep_json.h"

extern char **environ;

/* @s for a POSIX shell: as is when it is plain, else in single quotes. */
static void shell_quote(FILE *f, const char *s)
{
	if (*s && strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
			 "0123456789_-+=:,./@%") == strlen(s)) {
		fputs(s, f);
		return;
	}
	fputc('\'', f);
	for (; *s; s++) {
		if (*s == '\'')
			fputs("'\\''", f);
		else
			fputc(*s, f);
	}
	fputc('\'', f);
}

/* The words of @argv, shell-quoted, separated by @sep. */
static void print_words(FILE *f, char *const *argv, const char *sep)
{
	for (char *const *a = argv; *a; a++) {
		if (a != argv)
			fputs(sep, f);
		shell_quote(f, *a);
	}
}

/*
 * The highest task id of a Slurm job array where MaxArraySize is left at
 * its default, 1001 (slurm.conf(5): ids run 0 to MaxArraySize - 1).
 */
#define SLURM_DEFAULT_MAX_TASK	1000ULL

/*
 * --plan=slurm: an sbatch script whose array task N runs point N + B
 * (B: RPCSIM_POINT_BASE, 0 unless set), each alone on a node.  The
 * points' command is the plan's line without its --point=, which the
 * task's id gives.  The #SBATCH lines hold nothing of the user's (sbatch
 * reads them without a shell): the log files go to sbatch's working
 * folder.  A grid of more points than an array holds by default is
 * submitted in parts of SLURM_DEFAULT_MAX_TASK, each with its B, as the
 * script's head says.
 */
static void sweep_plan_slurm(const struct rpcsim_config *cfg,
			     const char *prog)
{
	const struct rpcsim_sweep *sw = &cfg->sweep;
	char **argv = rpcsim_point_argv(cfg, prog, 1);
	char **last = argv;
	unsigned long long n = (unsigned long long)sw->nr_points;
	unsigned long long k = sw->plan_limit ? sw->plan_limit : n;
	unsigned long long first = n > SLURM_DEFAULT_MAX_TASK ?
				   SLURM_DEFAULT_MAX_TASK : n;

	while (last[1])
		last++;
	free(*last);		/* --point=1: the task's id instead */
	*last = NULL;
	printf("#!/bin/sh\n"
	       "# rpcsim --sweep as a Slurm job array: task N runs point N%s "
	       "of %llu,\n"
	       "# alone on its node, and writes its result into the "
	       "--results folder (which\n"
	       "# every node must see).  Submit with \"sbatch FILE\"%s; each "
	       "task's output\n"
	       "# goes to rpcsim-sweep-JOB_TASK.out in sbatch's folder.  "
	       "When every task\n"
	       "# has ended, \"rpcsim-compare --sweep=DIR\" prints the "
	       "table; submit again\n"
	       "# to run what failed (a point already done is not run "
	       "again).\n",
	       n > SLURM_DEFAULT_MAX_TASK ? " + RPCSIM_POINT_BASE" : "", n,
	       n > SLURM_DEFAULT_MAX_TASK ? " in the parts below" : "");
	if (n > SLURM_DEFAULT_MAX_TASK) {
		printf("# %llu points are more than one array holds where "
		       "MaxArraySize is Slurm's\n"
		       "# default (1001; scontrol show config | grep "
		       "MaxArraySize): submit them in\n"
		       "# parts, task N of a part running point N + "
		       "RPCSIM_POINT_BASE:\n", n);
		for (unsigned long long b = 0; b < n;
		     b += SLURM_DEFAULT_MAX_TASK) {
			unsigned long long m = n - b < SLURM_DEFAULT_MAX_TASK ?
					       n - b : SLURM_DEFAULT_MAX_TASK;

			printf("#   sbatch --array=1-%llu%%%llu "
			       "--export=ALL,RPCSIM_POINT_BASE=%llu FILE\n",
			       m, k < m ? k : m, b);
		}
		printf("# or, where MaxArraySize is above %llu: sbatch "
		       "--array=1-%llu%%%llu FILE\n", n, n, k);
	}
	printf("#SBATCH --job-name=rpcsim-sweep\n"
	       "#SBATCH --array=1-%llu%%%llu\n"
	       "#SBATCH --nodes=1\n"
	       "#SBATCH --ntasks=1\n"
	       "#SBATCH --exclusive\n"
	       "#SBATCH --output=rpcsim-sweep-%%A_%%a.out\n"
	       ": \"${SLURM_ARRAY_TASK_ID:?run this script with sbatch, as "
	       "a job array}\"\n"
	       "exec srun --ntasks=1 ", first, k < first ? k : first);
	print_words(stdout, argv, " \\\n\t");
	printf(" \\\n\t--point=\"$((SLURM_ARRAY_TASK_ID + "
	       "${RPCSIM_POINT_BASE:-0}))\"\n");
	rpcsim_free_argv(argv);
	if (n > SLURM_DEFAULT_MAX_TASK)
		fprintf(stderr, "rpcsim: --plan=slurm: %llu points, more than "
			"a Slurm job array holds by default (task ids up to "
			"%llu): the script's head says how to submit it in "
			"parts\n", n, SLURM_DEFAULT_MAX_TASK);
}

void sweep_plan(const struct rpcsim_config *cfg, const char *prog)
{
	if (cfg->sweep.plan_slurm) {
		sweep_plan_slurm(cfg, prog);
		return;
	}
	for (uint64_t p = 1; p <= cfg->sweep.nr_points; p++) {
		char **argv = rpcsim_point_argv(cfg, prog, p);

		print_words(stdout, argv, " ");
		fputc('\n', stdout);
		rpcsim_free_argv(argv);
	}
}

/*
 * Run point @p as a child rpcsim; its exit status, or -1 (said).  *@said:
 * a signal we passed on stopped it, and it said so itself (its exit
 * status 128 + N, not death by the signal).  *@killed_by: the signal that
 * killed it when it was none of ours (the OOM killer, a crash, kill -9):
 * a point that failed, not a stop of the sweep; 1 is returned then.
 */
static int run_point(const struct rpcsim_config *cfg, uint64_t p,
		     bool *said, int *killed_by)
{
	char **argv = rpcsim_point_argv(cfg, "rpcsim", p);
	unsigned int seen = rpcsim_signal_count();
	posix_spawn_file_actions_t fa;
	bool killed = false;
	int err, status;
	pid_t pid;

	fflush(NULL);
	/* --quiet: the table alone, not the points' lines */
	if (posix_spawn_file_actions_init(&fa))
		rpcsim_die("posix_spawn_file_actions_init failed");
	if (cfg->quiet && posix_spawn_file_actions_addopen(&fa, STDOUT_FILENO,
							   "/dev/null",
							   O_WRONLY, 0))
		rpcsim_die("posix_spawn_file_actions_addopen failed");
	err = posix_spawn(&pid, "/proc/self/exe", &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	rpcsim_free_argv(argv);
	if (err) {
		fprintf(stderr, "rpcsim: --sweep: cannot run point %llu: %s\n",
			(unsigned long long)p, strerror(err));
		return -1;
	}
	/* A signal stops the point too (it is our child, by pid). */
	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR) {
			fprintf(stderr, "rpcsim: --sweep: waiting for point "
				"%llu: %s\n", (unsigned long long)p,
				strerror(errno));
			return -1;
		}
		if (rpcsim_signal_count() != seen && !killed) {
			int sig = rpcsim_first_signal();

			kill(pid, sig ? sig : SIGTERM);
			killed = true;
		}
	}
	if (WIFSIGNALED(status) && !killed) {
		*killed_by = WTERMSIG(status);
		return 1;
	}
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	*said = killed && WEXITSTATUS(status) > 128;
	return WEXITSTATUS(status);
}

/* The result files of the grid's points, in order, for the table. */
static char **grid_paths(const struct rpcsim_config *cfg)
{
	const struct rpcsim_sweep *sw = &cfg->sweep;
	char **paths = xcalloc(sw->nr_points + 1, sizeof(char *));
	unsigned int n = 0;

	for (uint64_t p = 1; p <= sw->nr_points; p++) {
		char *name = rpcsim_point_name(cfg, p);
		char *path = results_path(sw->results_dir, name);

		free(name);
		if (access(path, F_OK))
			free(path);	/* the table says it is missing */
		else
			paths[n++] = path;
	}
	return paths;
}

int sweep_run(const struct rpcsim_config *cfg, const char *gnuplot,
	      bool *stop_said)
{
	const struct rpcsim_sweep *sw = &cfg->sweep;
	unsigned int failed = 0;
	char **paths;
	int status = 0;

	if (results_mkdir(sw->results_dir))
		return 1;
	for (uint64_t p = 1; p <= sw->nr_points; p++) {
		int killed_by = 0;
		int ret = run_point(cfg, p, stop_said, &killed_by);

		if (ret >= 128 || rpcsim_first_signal()) {
			status = ret >= 128 ? ret : 128 + rpcsim_first_signal();
			break;
		}
		if (killed_by) {
			char sig[32];

			fprintf(stderr, "rpcsim: --sweep: point %llu failed "
				"(killed by %s); the sweep goes on\n",
				(unsigned long long)p,
				tool_signal_name(sig, sizeof(sig), killed_by));
			failed++;
		} else if (ret) {
			fprintf(stderr, "rpcsim: --sweep: point %llu failed "
				"(exit %d); the sweep goes on\n",
				(unsigned long long)p, ret);
			failed++;
		}
	}
	if (status)
		return status;
	if (!cfg->quiet)
		fputc('\n', stdout);
	paths = grid_paths(cfg);
	if (!paths[0]) {
		fprintf(stderr, "rpcsim: --sweep: no point gave a result\n");
		status = 1;
	} else if (sweep_table(stdout, "rpcsim", paths, cfg->plot, gnuplot)) {
		status = 1;
	}
	sweep_free_paths(paths);
	return failed ? 1 : status;
}

char *sweep_point_path(const struct rpcsim_config *cfg)
{
	return results_path(cfg->sweep.results_dir, cfg->sweep.name);
}

/*
 * Is @root (a result of this point's settings) this point of this grid?
 * A file of another grid has the same settings where a value is in both
 * grids; reused, it would make the table refuse the folder ("a point of
 * another sweep").
 */
static bool point_of_this_grid(const struct rpcsim_config *cfg,
			       struct json_object *root)
{
	const struct rpcsim_sweep *sw = &cfg->sweep;
	struct json_object *o = sweep_get_obj(root, "sweep", json_type_object);
	struct json_object *keys = sweep_get_obj(o, "keys", json_type_array);
	struct json_object *point = sweep_get_obj(o, "point", json_type_int);

	if (!keys || !point || json_object_get_uint64(point) != sw->point ||
	    json_object_array_length(keys) != sw->nr_keys)
		return false;
	for (unsigned int k = 0; k < sw->nr_keys; k++) {
		struct json_object *key = json_object_array_get_idx(keys, k);
		struct json_object *vals = sweep_get_obj(key, "values",
							 json_type_array);
		const char *name = sweep_get_str(key, "key");

		if (!name || strcmp(name, sw->keys[k].key) || !vals ||
		    json_object_array_length(vals) != sw->keys[k].nr)
			return false;
		for (unsigned int v = 0; v < sw->keys[k].nr; v++) {
			struct json_object *jv =
				json_object_array_get_idx(vals, v);

			if (!json_object_is_type(jv, json_type_string) ||
			    strcmp(json_object_get_string(jv),
				   sw->keys[k].values[v]))
				return false;
		}
	}
	return true;
}

int sweep_point_done(const struct rpcsim_config *cfg)
{
	const struct rpcsim_sweep *sw = &cfg->sweep;
	struct json_object *root;
	char what[64], err[256], *path;
	int done;

	snprintf(what, sizeof(what), "point %llu",
		 (unsigned long long)sw->point);
	done = results_resume(sw->results_dir, sw->name, "rpcsim", "modes",
			      sw->settings, what);
	if (done <= 0)
		return done;
	path = sweep_point_path(cfg);
	root = sweep_read_json(path, err, sizeof(err));
	if (root && !point_of_this_grid(cfg, root)) {
		fprintf(stderr, "rpcsim: %s holds these settings from another "
			"sweep (another grid or point); %s runs again\n",
			path, what);
		done = 0;
	}
	json_object_put(root);
	free(path);
	return done;
}

static void write_report(FILE *f, const void *rep)
{
	report_json(f, rep);
}

int sweep_point_write(const struct report *rep)
{
	return results_write(rep->cfg->sweep.results_dir, rep->cfg->sweep.name,
			     write_report, rep);
}
