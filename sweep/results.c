/* SPDX-License-Identifier: MIT */
/*
 * One result file of --results=DIR, for rpcsim's sweep points and
 * pagebench's runs alike: its name, its host and build record, and
 * writing it atomically.  See results.h; reading its settings back is
 * sweep.c's, which reads with json-c (whose json_bool this file's JSON
 * writer, json.h, would clash with).
 */
#include <config.h>

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "files.h"
#include "json.h"
#include "result_schema.h"
#include "results.h"
#include "tool.h"

void results_name_part(FILE *f, const char *s)
{
	for (; *s; s++)
		fputc(((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		       (*s >= '0' && *s <= '9') || *s == '.') ? *s : '-', f);
}

char *results_path(const char *dir, const char *name)
{
	size_t len = strlen(dir) + strlen(name) + 7;
	char *path = xcalloc(len, 1);

	snprintf(path, len, "%s/%s.json", dir, name);
	return path;
}

char *results_dir_expand(const char *arg, char *err, size_t len)
{
	char host[256] = "", *dir;
	size_t size;
	FILE *f;

	f = open_memstream(&dir, &size);
	if (!f)
		tool_die(1, "open_memstream: %s", strerror(errno));
	for (const char *s = arg; *s; s++) {
		if (*s != '%') {
			fputc(*s, f);
			continue;
		}
		if (s[1] == '%') {
			fputc('%', f);
		} else if (s[1] == 'h') {
			if (!host[0] && gethostname(host, sizeof(host) - 1))
				snprintf(host, sizeof(host), "unknown-host");
			/* A name is one folder: no '/' in it. */
			for (char *c = host; *c; c++)
				if (*c == '/')
					*c = '-';
			fputs(host, f);
		} else {
			snprintf(err, len, "'%%%.1s' is no placeholder "
				 "(%%h: this host's name, %%%%: a %%)", s + 1);
			fclose(f);
			free(dir);
			return NULL;
		}
		s++;
	}
	fclose(f);
	return dir;
}

/* mkdir -p: @dir's missing parents first. */
static int results_mkdir_parents(const char *dir)
{
	char *path = xstrdup(dir);
	int ret = 0;

	for (char *p = path + 1; *p && !ret; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(path, 0777) && errno != EEXIST)
			ret = -1;
		*p = '/';
	}
	free(path);
	return ret;
}

int results_mkdir(const char *dir)
{
	struct stat st;
	int err;

	if ((results_mkdir_parents(dir) || mkdir(dir, 0777)) &&
	    errno != EEXIST) {
		fprintf(stderr, "%s: --results=%s: %s\n", tool_name, dir,
			strerror(errno));
		return -1;
	}
	/* EEXIST is also a file of that name: say so now, not at the end. */
	if (stat(dir, &st))
		err = errno;
	else if (!S_ISDIR(st.st_mode))
		err = ENOTDIR;
	else
		return 0;
	fprintf(stderr, "%s: --results=%s: %s\n", tool_name, dir,
		strerror(err));
	return -1;
}

int results_write(const char *dir, const char *name,
		  void (*write)(FILE *f, const void *arg), const void *arg)
{
	char *path = results_path(dir, name), err[PATH_MAX + 128];
	struct atomic_file af;
	int ret = -1;

	if (results_mkdir(dir)) {
		free(path);
		return -1;
	}
	/* DIR/.NAME.json.XXXXXX: hidden, and not *.json, till renamed */
	if (atomic_file_open(&af, path, err, sizeof(err))) {
		fprintf(stderr, "%s: --results=%s: %s\n", tool_name, dir, err);
		goto out;
	}
	write(af.f, arg);
	if (atomic_file_commit(&af, err, sizeof(err))) {
		fprintf(stderr, "%s: %s\n", tool_name, err);
		goto out;
	}
	ret = 0;
out:
	free(path);
	return ret;
}

static time_t origin_started;

void results_origin_start(void)
{
	origin_started = time(NULL);
}

void results_cpu_model(char *buf, size_t len)
{
	FILE *f = fopen("/proc/cpuinfo", "r");
	char line[512];

	snprintf(buf, len, "unknown");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':');

		if (!strncmp(line, "model name", 10) && colon) {
			colon += 1 + (colon[1] == ' ');
			colon[strcspn(colon, "\n")] = '\0';
			snprintf(buf, len, "%s", colon);
			break;
		}
	}
	fclose(f);
}

/* An environment variable of Slurm's, or null. */
static void json_env(struct json *j, const char *key, const char *var)
{
	const char *v = getenv(var);

	if (v && *v)
		json_string(j, key, v);
	else
		json_null(j, key);
}

void results_json_origin(struct json *j, const struct results_origin *o)
{
	char host[256] = "", model[256], when[32], sig[32];
	time_t t = origin_started ? origin_started : time(NULL);
	struct utsname u;
	struct tm tm;
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);

	if (gethostname(host, sizeof(host) - 1))
		snprintf(host, sizeof(host), "?");
	json_string(j, RK(origin, host), host);
	json_object_begin(j, RK(origin, build));
	json_string(j, RK(build, version), o->version);
	json_string(j, RK(build, libpagepool), o->libpagepool);
	json_string(j, RK(build, configure), PP_CONFIGURE_ARGS);
	json_bool(j, RK(build, asan), o->asan);
	json_string(j, RK(build, pcp_impl), o->pcp_impl);
	json_object_end(j);

	results_cpu_model(model, sizeof(model));
	if (uname(&u))
		memset(&u, 0, sizeof(u));
	json_object_begin(j, RK(origin, machine));
	json_string(j, RK(machine, cpu), model);
	json_uint(j, RK(machine, online_cpus), cpus > 0 ? (uint64_t)cpus : 0);
	json_string(j, RK(machine, kernel), u.release[0] ? u.release : "?");
	json_string(j, RK(machine, arch), u.machine[0] ? u.machine : "?");
	if (o->tsc_ghz >= 0)
		json_double(j, RK(machine, tsc_ghz), o->tsc_ghz, 4);
	else if (!isnan(o->tsc_ghz))
		json_null(j, RK(machine, tsc_ghz));
	json_object_end(j);

	if (gmtime_r(&t, &tm) &&
	    strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", &tm))
		json_string(j, RK(origin, started), when);
	else
		json_null(j, RK(origin, started));
	if (getenv("SLURM_JOB_ID")) {
		json_object_begin(j, RK(origin, slurm));
		json_env(j, RK(slurm, job_id), "SLURM_JOB_ID");
		json_env(j, RK(slurm, array_job_id), "SLURM_ARRAY_JOB_ID");
		json_env(j, RK(slurm, array_task_id), "SLURM_ARRAY_TASK_ID");
		json_object_end(j);
	} else {
		json_null(j, RK(origin, slurm));
	}
	json_bool(j, RK(origin, interrupted), o->signal != 0);
	if (o->signal && sigabbrev_np(o->signal)) {
		json_string(j, RK(origin, signal),
			    tool_signal_name(sig, sizeof(sig), o->signal));
	} else {
		json_null(j, RK(origin, signal));
	}
}
