/* SPDX-License-Identifier: MIT */
/*
 * Sweeps: the table (and plot) of a folder of rpcsim --sweep result files,
 * shared by rpcsim --sweep (at the end of its points) and rpcsim-compare
 * --sweep DIR (from files whoever produced them).  Each file is one
 * point: an rpcsim --json document with a "sweep" member naming the grid,
 * the point and its settings, and "host" and "build" saying where it ran.
 * pagebench --results files may share the folder (one per invocation,
 * results.h): rpcsim-compare gives them a table of their own.  Read with
 * json-c (libsweep: libcommon stays free of it).
 */
#ifndef PP_COMMON_SWEEP_H
#define PP_COMMON_SWEEP_H

#include <stdio.h>

/*
 * sweep_dir_files() - the *.json files of @dir, sorted by name, into
 * *@paths (NULL-terminated, each and the array malloc'd).  Returns their
 * number, or -1 with errno when @dir cannot be read.
 */
int sweep_dir_files(const char *dir, char ***paths);
void sweep_free_paths(char **paths);

/*
 * sweep_table() - print the table of the points in @paths to @out: a row
 * per point in grid order (the swept keys' values), per mode the mean
 * latency per call over every call, the sample standard deviation of the
 * runs' means and the change against the first point; rows that ran on
 * another host or build than the first are marked, with a note below.
 * With @plot_path, also draw the mean against the last swept key, a line
 * per mode (and per value of the other keys), with the gnuplot at
 * @gnuplot.  @prog names the program in messages.  Returns 0; 1 when a
 * file cannot be read or is not a point of the same sweep, or the plot
 * failed (said on stderr).
 */
int sweep_table(FILE *out, const char *prog, char *const *paths,
		const char *plot_path, const char *gnuplot);

/*
 * sweep_pagebench_table() - print the table of pagebench --results files
 * @paths to @out: a row per configuration of each file, the rows of one
 * configuration together with their change against the first; the
 * file-wide settings that differ between files as columns; files from
 * another host or build than the first marked.  Returns 0; 1 when a
 * file cannot be read or is not a pagebench result (said on stderr, one
 * line naming the field: a member missing or out of range, a name
 * pagebench has not, a configuration twice, a run cut short), whose rows
 * are left out of the table.
 */
int sweep_pagebench_table(FILE *out, const char *prog, char *const *paths);

/*
 * sweep_tables() - the tables of a results folder's files @paths, for
 * rpcsim-compare --sweep: each file goes by its "program": pagebench's
 * into sweep_pagebench_table(), after the rpcsim sweep's table of the
 * others (sweep_table(), which names any that is no sweep point).  The
 * two never share a table: they measure different things.  @plot_path
 * draws the rpcsim sweep only, and fails without one.  Returns 0, or 1
 * as the tables do.
 */
int sweep_tables(FILE *out, const char *prog, char *const *paths,
		 const char *plot_path, const char *gnuplot);

/*
 * sweep_dir_folders() - the folders in @dir that hold a *.json file (one
 * per machine, as --results=DIR/%h writes), sorted, as "DIR/NAME", in a
 * NULL-terminated list for sweep_free_paths().  How many, or -1 (errno)
 * when @dir cannot be read.
 */
int sweep_dir_folders(const char *dir, char ***names);

/*
 * sweep_folders() - the tables of @n folders, @names[i] holding the
 * result files @paths[i] (sweep_tables() each, under "== NAME =="), then,
 * when the folders with rpcsim points hold one grid, a table per mode
 * across them: each point's mean in each folder (headed by the folder's
 * last name: the host, for DIR/%h) and its change against that folder's
 * first point.  0, or 1 when a file was refused (said on stderr).
 */
int sweep_folders(FILE *out, const char *prog, char *const *names,
		  char **const *paths, unsigned int n);

#endif /* PP_COMMON_SWEEP_H */
