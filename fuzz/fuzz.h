/* SPDX-License-Identifier: MIT */
/*
 * Shared by the fuzz targets: reading the input as a stream of small
 * numbers, and the failed-check report.
 *
 * The same target source builds twice: with clang -fsanitize=fuzzer into a
 * libFuzzer binary (make fuzz), and with the project's compiler into a
 * replay program (replay.c) that runs the committed corpus and regression
 * inputs in make check, in every build (plain, ASan, TSan).
 */
#ifndef PP_FUZZ_FUZZ_H
#define PP_FUZZ_FUZZ_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

/* The libFuzzer entry points (replay.c calls them the same way). */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

/*
 * The input, consumed from the front.  Past its end every read returns 0,
 * so any input is a valid program and the target simply stops when
 * fz_done() says so.
 */
struct fz_input {
	const uint8_t *p;
	size_t left;
};

static inline bool fz_done(const struct fz_input *in)
{
	return in->left == 0;
}

static inline uint8_t fz_u8(struct fz_input *in)
{
	if (!in->left)
		return 0;
	in->left--;
	return *in->p++;
}

static inline uint16_t fz_u16(struct fz_input *in)
{
	uint16_t v = fz_u8(in);

	return (uint16_t)(v | fz_u8(in) << 8);
}

static inline uint32_t fz_u32(struct fz_input *in)
{
	uint32_t v = fz_u16(in);

	return v | (uint32_t)fz_u16(in) << 16;
}

/* A number in [lo, hi] from 1, 2 or 4 input bytes, as the range needs. */
static inline unsigned long fz_range(struct fz_input *in, unsigned long lo,
				     unsigned long hi)
{
	unsigned long span = hi - lo, v;

	if (hi <= lo)
		return lo;
	if (span < 0x100)
		v = fz_u8(in);
	else if (span < 0x10000)
		v = fz_u16(in);
	else
		v = fz_u32(in);
	return lo + v % (span + 1);
}

/* xorshift64*: cheap patterns (holes in an array) from one input word. */
static inline uint64_t fz_rand(uint64_t *state)
{
	uint64_t x = *state ? *state : 0x9e3779b97f4a7c15ULL;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*state = x;
	return x * 0x2545f4914f6cdd1dULL;
}

/*
 * A check of the reference model failed: say which, and abort, which
 * libFuzzer reports as a crash and saves the input of.
 */
__attribute__((noreturn, format(printf, 3, 4)))
static inline void fz_fail(const char *target, unsigned long step,
			   const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fprintf(stderr, "%s: CHECK FAILED at step %lu: ", target, step);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	fflush(stderr);
	abort();
}

#endif /* PP_FUZZ_FUZZ_H */
