/* SPDX-License-Identifier: MIT */
/*
 * Pinning the test's thread to a CPU that has a pcp list, and undoing
 * it (pin.h says why).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <stdbool.h>
#include <string.h>

#include "pin.h"
#include "tap.h"

/* One thread (the test's main thread) pins; this is its state. */
static bool pinned;
static int pinned_cpu;
static cpu_set_t saved_mask, pinned_mask;

static void get_mask(cpu_set_t *set)
{
	CPU_ZERO(set);
	if (sched_getaffinity(0, sizeof(*set), set))
		bail_out("sched_getaffinity: %s", strerror(errno));
}

static bool pin_one(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		return false;
	pinned_mask = set;
	return true;
}

int test_cpu_pin_below(unsigned int nr_cpus)
{
	cpu_set_t now, base;
	bool ours, outside = false;
	int cpu;

	get_mask(&now);
	/* The thread's mask as it would be without our pinning. */
	ours = pinned && CPU_EQUAL(&now, &pinned_mask);
	base = ours ? saved_mask : now;
	for (cpu = (int)nr_cpus; cpu < CPU_SETSIZE && !outside; cpu++)
		outside = CPU_ISSET(cpu, &base);
	if (!outside)
		return -1;
	/* Pinned already, to a CPU that has a list: stay. */
	if (ours && pinned_cpu < (int)nr_cpus)
		return pinned_cpu;
	saved_mask = base;
	/* A CPU with a list this thread may run on ... */
	for (cpu = 0; cpu < (int)nr_cpus && cpu < CPU_SETSIZE; cpu++)
		if (CPU_ISSET(cpu, &base) && pin_one(cpu))
			goto done;
	/* ... or one it can be given (taskset narrowed its mask). */
	for (cpu = 0; cpu < (int)nr_cpus && cpu < CPU_SETSIZE; cpu++)
		if (pin_one(cpu))
			goto done;
	bail_out("cannot pin this thread to a CPU below %u (the pool's pcp "
		 "lists): run the test where CPU 0 is allowed", nr_cpus);
done:
	pinned = true;
	pinned_cpu = cpu;
	return cpu;
}

void test_cpu_unpin(void)
{
	cpu_set_t now;

	if (!pinned)
		return;
	pinned = false;
	get_mask(&now);
	if (CPU_EQUAL(&now, &pinned_mask) &&
	    sched_setaffinity(0, sizeof(saved_mask), &saved_mask))
		bail_out("sched_setaffinity: %s", strerror(errno));
}

bool test_cpu_within(unsigned int nr_cpus)
{
	cpu_set_t now;

	get_mask(&now);
	for (int cpu = (int)nr_cpus; cpu < CPU_SETSIZE; cpu++)
		if (CPU_ISSET(cpu, &now))
			return false;
	return true;
}
