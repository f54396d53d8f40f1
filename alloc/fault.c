/* SPDX-License-Identifier: MIT */
/*
 * Fault injection, switched by the PAGEPOOL_FAULT environment variable when
 * a pool is created, so the rare paths can be made common and tested:
 *
 *   trylock=PERCENT   that share of the hot paths' pcp trylocks fail, as a
 *                     drain on another CPU makes them fail in the kernel
 *   buddy-empty=N     the buddy allocator says it is empty once only N
 *                     pages are left in it
 *   mmap              the arena mapping fails (pp_pool_create(): ENOMEM)
 *
 * Items are comma-separated: PAGEPOOL_FAULT=trylock=25,buddy-empty=512.
 */
#include "internal.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static __thread uint32_t pp_fault_rand_state;

/* xorshift32, seeded per thread: no lock, no system call after the first. */
bool pp_fault_trylock_hit(unsigned int percent)
{
	uint32_t x = pp_fault_rand_state;

	if (!x) {
		struct timespec ts;

		clock_gettime(CLOCK_MONOTONIC, &ts);
		x = (uint32_t)((uintptr_t)&pp_fault_rand_state ^
			       (uintptr_t)ts.tv_nsec) | 1;
	}
	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	pp_fault_rand_state = x;
	return x % 100 < percent;
}

static int pp_fault_bad(const char *spec)
{
	fprintf(stderr, "pagepool: PAGEPOOL_FAULT='%s': expected a comma-"
		"separated list of trylock=PERCENT (0..100), "
		"buddy-empty=PAGES, mmap\n", spec);
	return -EINVAL;
}

static int pp_fault_number(const char *s, size_t len, unsigned long max,
			   unsigned long *out)
{
	unsigned long v = 0;

	if (!len)
		return -EINVAL;
	for (size_t i = 0; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -EINVAL;
		if (v > (max - (unsigned long)(s[i] - '0')) / 10)
			return -ERANGE;
		v = v * 10 + (unsigned long)(s[i] - '0');
	}
	*out = v;
	return 0;
}

int pp_fault_parse(const char *spec, struct pp_fault *f)
{
	const char *p = spec;

	memset(f, 0, sizeof(*f));
	if (!spec || !*spec)
		return 0;
	while (*p) {
		size_t len = strcspn(p, ",");
		unsigned long v;

		if (len == 4 && !strncmp(p, "mmap", 4)) {
			f->mmap_fail = true;
		} else if (len > 8 && !strncmp(p, "trylock=", 8)) {
			if (pp_fault_number(p + 8, len - 8, 100, &v))
				return pp_fault_bad(spec);
			f->trylock_fail = (unsigned int)v;
		} else if (len > 12 && !strncmp(p, "buddy-empty=", 12)) {
			if (pp_fault_number(p + 12, len - 12, ~0UL, &v))
				return pp_fault_bad(spec);
			f->buddy_reserve = v;
		} else {
			return pp_fault_bad(spec);
		}
		p += len;
		if (*p == ',' && *++p == '\0')
			return pp_fault_bad(spec);
	}
	return 0;
}
