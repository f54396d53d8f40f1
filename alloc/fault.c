/* SPDX-License-Identifier: MIT */
/*
 * Fault injection, so the rare paths can be made common and tested: the
 * spec parser behind pp_pool_config_fault() and the PAGEPOOL_FAULT
 * environment variable (read by pp_pool_config_init() into cfg->fault),
 * and the trylock failures' random draw.  The spec:
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
#include <limits.h>
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

/*
 * @spec into @f; -EINVAL, @f in pieces, when it cannot be read.  A key
 * given twice is refused too, with *@twice its name: which of the two
 * was meant is not for the library to guess.
 */
static int pp_fault_parse(const char *spec, struct pp_fault_config *f,
			  const char **twice)
{
	bool seen_mmap = false, seen_trylock = false, seen_empty = false;
	const char *p = spec;

	memset(f, 0, sizeof(*f));
	*twice = NULL;
	if (!spec || !*spec)
		return 0;
	while (*p) {
		size_t len = strcspn(p, ",");
		unsigned long v;
		bool *seen;

		if (len == 4 && !strncmp(p, "mmap", 4)) {
			seen = &seen_mmap;
			*twice = "mmap";
			f->mmap = true;
		} else if (len > 8 && !strncmp(p, "trylock=", 8)) {
			if (pp_fault_number(p + 8, len - 8, 100, &v))
				return -EINVAL;
			seen = &seen_trylock;
			*twice = "trylock";
			f->trylock = (unsigned int)v;
		} else if (len > 12 && !strncmp(p, "buddy-empty=", 12)) {
			if (pp_fault_number(p + 12, len - 12, ~0UL, &v))
				return -EINVAL;
			seen = &seen_empty;
			*twice = "buddy-empty";
			f->buddy_empty = v;
		} else {
			return -EINVAL;
		}
		if (*seen)
			return -EINVAL;
		*seen = true;
		*twice = NULL;
		p += len;
		if (*p == ',' && *++p == '\0')
			return -EINVAL;
	}
	return 0;
}

int pp_pool_config_fault(struct pp_pool_config *cfg, const char *spec)
{
	struct pp_fault_config f;
	const char *twice;

	if (pp_fault_parse(spec, &f, &twice))
		return -EINVAL;
	cfg->fault = f;
	return 0;
}

/*
 * PAGEPOOL_FAULT into @cfg->fault, for pp_pool_config_init().  A spec it
 * cannot read is named in one line and leaves a trylock share that
 * pp_pool_create() refuses: -EINVAL.
 */
int pp_fault_config_env(struct pp_pool_config *cfg)
{
	const char *env = getenv("PAGEPOOL_FAULT");
	struct pp_fault_config f;
	const char *twice;

	if (!pp_fault_parse(env, &f, &twice)) {
		cfg->fault = f;
		return 0;
	}
	if (twice)
		fprintf(stderr, "pagepool: PAGEPOOL_FAULT='%s': %s given "
			"twice; give each key once\n", env, twice);
	else
		fprintf(stderr, "pagepool: PAGEPOOL_FAULT='%s': expected a "
			"comma-separated list of trylock=PERCENT (0..100), "
			"buddy-empty=PAGES, mmap\n", env);
	memset(&cfg->fault, 0, sizeof(cfg->fault));
	cfg->fault.trylock = UINT_MAX;
	return -EINVAL;
}
