/* SPDX-License-Identifier: MIT */
/*
 * One result file of --results=DIR, the same for rpcsim's sweep points
 * and pagebench's runs, so that both join one folder: a file named by the
 * settings that decide what it measured, recording the host and the build
 * it ran on and every setting it ran with (its "sweep" member), written
 * whole or not at all, and found again when a run resumes.  Part of
 * libsweep (it reads files back with json-c); messages start with
 * tool_name (tool.h).
 */
#ifndef PP_COMMON_RESULTS_H
#define PP_COMMON_RESULTS_H

#include <stdbool.h>
#include <stdio.h>

struct json;

/*
 * results_name_part() - @s as part of a file name: letters, digits and
 * '.' as they are, '-' for anything else ("1,2" -> "1-2").  A name is
 * "key-value" parts joined by '_' (threads-2_pcp-batch-31).
 */
void results_name_part(FILE *f, const char *s);

/* results_path() - "@dir/@name.json", malloc'd. */
char *results_path(const char *dir, const char *name);

/*
 * results_dir_expand() - the folder --results=@arg names on this host:
 * %h becomes the host's name ('/' in it as '-'), %% a %, so that one
 * command (or --plan line) run on several machines writes a folder per
 * machine (res/%h).  Malloc'd; NULL with @err (@len bytes) saying why for
 * any other %.
 */
char *results_dir_expand(const char *arg, char *err, size_t len);

/*
 * results_mkdir() - make the folder @dir, and its missing parents, unless
 * it is one already.  0, or -1 said as "TOOL: --results=DIR: why".
 */
int results_mkdir(const char *dir);

/*
 * results_write() - the document @write prints to its FILE (with @arg)
 * as @dir/@name.json: into a hidden temporary file of @dir
 * (.NAME.json.XXXXXX, which no reader of *.json takes), flushed to disk,
 * then renamed over the name.  A reader sees the whole file or none.
 * 0, or -1 said on stderr.
 */
int results_write(const char *dir, const char *name,
		  void (*write)(FILE *f, const void *arg), const void *arg);

/*
 * results_origin_start() - note now as the time the run started, for the
 * "started" member (without it, the time results_json_origin() runs).
 */
void results_origin_start(void);

/* results_cpu_model() - /proc/cpuinfo's first "model name", or "unknown". */
void results_cpu_model(char *buf, size_t len);

/* What results_json_origin() writes besides what it finds itself. */
struct results_origin {
	const char *version;		/* the program's */
	const char *libpagepool;	/* libpagepool's, pp_version() */
	bool asan;
	const char *pcp_impl;		/* the pcp lists the pools ran */
	int signal;			/* that cut the run short; 0: none */
	/* pagebench's TSC: NAN, no such member; below 0, null (unknown) */
	double tsc_ghz;
};

/*
 * results_json_origin() - where and when the document was made, so that
 * results from different machines, builds, jobs or cut-short runs are
 * told apart: "host", "build" (@o's version, libpagepool and pcp lists,
 * configure's options, asan), "machine" (CPU model, online CPUs, kernel
 * release, architecture, @o's TSC), "started" (results_origin_start(),
 * UTC, ISO 8601), "slurm" (SLURM_JOB_ID, SLURM_ARRAY_JOB_ID,
 * SLURM_ARRAY_TASK_ID; null outside a job), "interrupted" and "signal"
 * (@o->signal's name, "SIGINT", or null).  Their keys are
 * common/result_schema.h's "origin", "build", "machine" and "slurm".
 */
void results_json_origin(struct json *j, const struct results_origin *o);

/*
 * results_file_settings() - the settings recorded in result file @path
 * (its sweep.settings), malloc'd, when it is a complete document of
 * @program (its "program" member) with the array @body (rpcsim: modes,
 * pagebench: results); NULL when the file is missing (errno ENOENT),
 * not a regular file, not JSON or not one, with @err saying why.  Read
 * as files.h reads input files: never blocking, bounded.
 */
char *results_file_settings(const char *path, const char *program,
			    const char *body, char *err, size_t errlen);

/*
 * results_resume() - is @dir/@name.json done already, a result of
 * @program recording @settings?  1 when it is; 0 when @what must run
 * (and replace the file): when the file holds other settings, is
 * truncated or is no result, it says so on stderr ("PATH holds other
 * settings (...); @what runs again with ...", "@what: PATH is truncated
 * (...); running it again", without "@what: " when @what is the tool's
 * own name); -1 when something that is not a regular file (a FIFO, a
 * folder) has the name, said on stderr: it is not replaced.
 */
int results_resume(const char *dir, const char *name, const char *program,
		   const char *body, const char *settings, const char *what);

#endif /* PP_COMMON_RESULTS_H */
