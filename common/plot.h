/* SPDX-License-Identifier: MIT */
/*
 * Plots of svc_alloc_arg() latency with gnuplot, shared by rpcsim --plot
 * and rpcsim-analyze --plot (rpcsim-compare --plot writes its own script
 * through plot_write_script(), at the end).  One figure, four panels,
 * every mode on each:
 *
 *   - the distribution of per-call latency: share of calls per bin, 20
 *     bins per decade, log x axis, with each mode's mean as a dashed line;
 *   - its CDF (share of calls at or below x); these two span the body,
 *     up to 1.5 x the largest p99.99;
 *   - its tail (share of calls slower than x, log-log, every call): p99
 *     and p99.9;
 *   - pages refilled per call (bars), the work each call did;
 *   - with plot_series_time()'s points, latency over time: per interval
 *     each mode's mean and p99.
 *
 * The caller feeds each mode's histogram as (value, count) pairs, which
 * keeps this module free of either program's histogram layout.  The data
 * and a gnuplot script go to a temporary directory, gnuplot draws into it,
 * and only a complete picture is copied to the destination.  The output
 * type follows the file name: .svg (svg terminal) or .png (pngcairo, or
 * png where gnuplot lacks cairo).
 *
 * Not thread-safe; meant for the end of a program.
 */
#ifndef PP_COMMON_PLOT_H
#define PP_COMMON_PLOT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct plot;
struct plot_series;

/* What was named RPCSIM_GNUPLOT overrides the search of $PATH. */
#define PLOT_GNUPLOT_ENV	"RPCSIM_GNUPLOT"
/* How long gnuplot may draw, in seconds: default, maximum, and the setting. */
#define PLOT_GNUPLOT_TIMEOUT_DEFAULT	60U
#define PLOT_GNUPLOT_TIMEOUT_MAX	86400U
#define PLOT_GNUPLOT_TIMEOUT_ENV	"RPCSIM_GNUPLOT_SECONDS"

/*
 * plot_check_path() - is @path a file name plot_write() can draw into?
 * Returns 0, or -1 with @err saying what is accepted (a name ending in
 * .svg or .png): a usage error.
 */
int plot_check_path(const char *path, char *err, size_t errlen);

/*
 * plot_check_dest() - can @path be written: its directory exists and is
 * writable, and it is not a directory itself?  0, or -1 with @err saying
 * why not.  Checked before a benchmark, so that its results get drawn.
 */
int plot_check_dest(const char *path, char *err, size_t errlen);

/*
 * plot_read_timeout() - read $RPCSIM_GNUPLOT_SECONDS, how long
 * plot_write() lets gnuplot draw before it stops it (default 60).  A
 * program given --plot calls it at start, before anything runs, and a
 * bad value is a usage error (exit 2), as its other variables are.
 * Returns 0, or -1 with @err saying what is accepted
 * ("RPCSIM_GNUPLOT_SECONDS=0: expected a number of seconds from 1 to
 * 86400").
 */
int plot_read_timeout(char *err, size_t errlen);

/*
 * plot_find_gnuplot() - the gnuplot to run: $RPCSIM_GNUPLOT when set (a
 * path, or a name looked up in $PATH), else "gnuplot" in $PATH.  Fills
 * @buf with its path.  Reads $RPCSIM_GNUPLOT_SECONDS too
 * (plot_read_timeout()), so that a bad value is never taken for the
 * default.  Returns 0, or -1 with @err saying what is missing or wrong
 * and how to install gnuplot.
 */
int plot_find_gnuplot(char *buf, size_t len, char *err, size_t errlen);

/* A figure titled @title (one line). Returns NULL when out of memory. */
struct plot *plot_new(const char *title);
void plot_free(struct plot *p);

/*
 * plot_add_series() - one mode: @label ("Bulk array"), @key (its line in
 * the histogram's key: the program's per-call line, "Bulk array: 0.325 us
 * per call over 212,498 calls"), its mean latency in ns (a dashed line)
 * and pages refilled per call (a bar).  Returns NULL when out of memory.
 */
struct plot_series *plot_add_series(struct plot *p, const char *label,
				    const char *key, double mean_ns,
				    double pages_per_call);

/*
 * plot_series_add() - @count calls took about @value_ns each (one bucket
 * of the caller's histogram, in any order).  Returns 0 or -ENOMEM.
 */
int plot_series_add(struct plot_series *s, uint64_t value_ns, uint64_t count);

/*
 * plot_series_time() - the series' latency in the interval starting @t_s
 * seconds after the run's start: its mean and p99 in us (NAN: no call
 * ended in it).  A figure with any such point gets a fifth panel,
 * latency over time.  Returns 0 or -ENOMEM.
 */
int plot_series_time(struct plot_series *s, double t_s, double mean_us,
		     double p99_us);

/*
 * plot_write() - draw the figure into @path with the gnuplot at @gnuplot.
 * Returns 0, or -1 with @err holding the cause (no temporary directory,
 * gnuplot failing with its message, @path not writable).  @path is only
 * written once gnuplot has drawn a complete picture.
 */
int plot_write(struct plot *p, const char *path, const char *gnuplot,
	       char *err, size_t errlen);

/*
 * A figure of the caller's own (rpcsim-compare --plot): @body writes its
 * gnuplot commands, data inline as datablocks ($name << EOD), after the
 * terminal (1200x860, .svg or .png as plot_write()) and its output are
 * set.  Drawn, bounded and copied to @path as plot_write() does.
 */
typedef void (*plot_body_fn)(FILE *f, void *arg);
int plot_write_script(const char *path, const char *gnuplot,
		      plot_body_fn body, void *arg, char *err, size_t errlen);
/* @s as a gnuplot string: single quotes, ' doubled, control chars blanked. */
void plot_quote(FILE *f, const char *s);
/* The i-th series' color, 0xRRGGBB: the colors of plot_write(). */
unsigned int plot_color(unsigned int i);

#endif /* PP_COMMON_PLOT_H */
