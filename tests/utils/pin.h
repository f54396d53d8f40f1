/* SPDX-License-Identifier: MIT */
/*
 * Pinning the calling thread to CPUs that have a pcp list.
 *
 * Under PP_PCP_RSEQ, list i serves CPU i only: a thread on a CPU without
 * a list (i >= nr_cpus) bypasses the pcp lists, counted as
 * pcp_trylock_fail, as a failed trylock.  A unit test of a pool with
 * fewer lists than CPUs would then take one path or the other depending
 * on where the scheduler put it; pp_test.h's pool helpers pin the thread
 * to one CPU that has a list instead, so the test stays deterministic.
 * In a file of its own because sched_setaffinity() needs _GNU_SOURCE
 * before the first system header, which the tests do not all define.
 */
#ifndef PP_TESTS_PIN_H
#define PP_TESTS_PIN_H

#include <stdbool.h>

/*
 * If the calling thread may run on a CPU >= @nr_cpus (its mask before any
 * pinning of ours), pin it to one CPU below @nr_cpus: the one it is
 * pinned to already if that will do, else the lowest it may run on, else
 * the lowest it can be given.  Its mask is kept for test_cpu_unpin().
 * Bails out if no CPU below @nr_cpus can be had.
 *
 * Return: the CPU pinned to, or -1 when the thread needs no pinning.
 */
int test_cpu_pin_below(unsigned int nr_cpus);

/*
 * Give the calling thread back the mask test_cpu_pin_below() took away,
 * unless someone changed the thread's mask since.  Call it before reading
 * the thread's mask to find CPUs of one's own.
 */
void test_cpu_unpin(void);

/* May the calling thread run only on CPUs below @nr_cpus? */
bool test_cpu_within(unsigned int nr_cpus);

#endif /* PP_TESTS_PIN_H */
