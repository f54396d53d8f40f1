/* SPDX-License-Identifier: MIT */
/*
 * What the parts of rpcsim's command line share, private to
 * rpcsim/options.c, options_apply.c and sweep_options.c: the limits and
 * defaults, the option table's types, the state of one parse, and the
 * calls each part makes into another.  options.h is what the rest of
 * rpcsim sees.
 */
#ifndef RPCSIM_OPTIONS_INTERNAL_H
#define RPCSIM_OPTIONS_INTERNAL_H

#include <getopt.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "options.h"

#define DEFAULT_DURATION_S	5U		/* whole seconds */
#define DEFAULT_IO_SIZE		(256ULL << 10)
#define DEFAULT_MAX_PAYLOAD	(1ULL << 20)	/* RPCSVC_MAXPAYLOAD */
#define DEFAULT_POOL_SIZE	(1ULL << 30)	/* pcp batch 63 zone size */
#define DEFAULT_FILE_SIZE	(64ULL << 20)
#define DEFAULT_PCP_BATCH	63U
#define DEFAULT_RETRY_WAIT_US	1000U		/* one jiffy at HZ=1000 */
#define DEFAULT_SEED		1ULL

#define MAX_THREADS		4096U
#define MAX_REQUESTS		1000000000000000ULL
#define MAX_REPEAT		1000U
#define MAX_DURATION_S		1000000U
/* --stop-grace: whole seconds (rpcsim(1), STOPPING) */
#define DEFAULT_STOP_GRACE_S	5U
#define MAX_STOP_GRACE_S	3600U
#define MAX_PAYLOAD		(64ULL << 20)
#define MIN_TCP_READ		1024ULL	/* --tcp-read, when not 0 */
#define MAX_POOL_SIZE		(1024ULL << 30)
#define MAX_FILE_SIZE		(64ULL << 30)
#define MAX_PCP_BATCH		65536U
#define MAX_PCP_HIGH		(1U << 24)
#define MAX_QUEUE_DEPTH		65536U
#define MAX_WARMUP		1000000000ULL
#define MAX_RETRY_WAIT_US	10000000U
#define DEFAULT_TRACE_BUFFER	(16ULL << 20)
#define MIN_TRACE_BUFFER	(64ULL << 10)
#define MAX_TRACE_BUFFER	(1ULL << 30)
#define MAX_MIX_WEIGHT		1000000U
#define MAX_SWEEP_POINTS	100000U
#define DEFAULT_PACKET_SIZE	1500U		/* an Ethernet MTU's payload */
#define MAX_PACKET_SIZE		(64ULL << 10)	/* a GRO/LRO aggregate */
#define MAX_RATE		1000000000ULL
#define DEFAULT_RING_SIZE	1024U		/* a common RX ring size */
#define MAX_RING_SIZE		(1U << 20)
#define DEFAULT_FREE_DIRECT	6U
#define DEFAULT_FREE_RING	3U
#define DEFAULT_FREE_HELD	1U
#define DEFAULT_FREE_RELEASED	0U
/* A NAPI poll's budget of packets per RX queue may wait for the stack. */
#define QUEUE_DEPTH_PER_RXQ	64U

/* What an option's value is, which says how it is parsed and refused. */
enum opt_kind {
	OPT_HEADING,	/* no option: a line of --help (a section title) */
	OPT_FLAG,	/* no value: sets a bool */
	OPT_COUNT,	/* decimal digits, min..max */
	OPT_SIZE,	/* num_parse_size(): digits with k, KiB, m, ..., min..max */
	OPT_SECONDS,	/* num_parse_duration(), 0 < s <= max */
	OPT_USEC,	/* num_parse_duration(), plain: us; min..max us */
	OPT_WORD,	/* one of some words, numbered by @words or @lookup */
	OPT_OTHER,	/* @apply parses it */
};

/* The type of the rpcsim_config field a value is stored in. */
enum opt_field {
	FIELD_NONE,
	FIELD_UINT,	/* unsigned int */
	FIELD_U64,	/* uint64_t */
	FIELD_DOUBLE,
	FIELD_BOOL,
	FIELD_ENUM,	/* an enum (the size of an int) */
};

struct opt_state;

/*
 * One option (or, with no name, one section title of --help).  In the
 * texts, {min}, {max} and {def} stand for the option's range and
 * default, written the way the option takes them (sizes as 4k, 64m, 1g).
 */
struct opt_spec {
	const char *name;		/* long name; NULL: a heading */
	int letter;			/* short option; 0: none */
	int has_arg;			/* getopt_long's */
	const char *arg;		/* the value's name in --help */
	enum opt_kind kind;
	uint64_t min, max;		/* OPT_SECONDS: max only */
	uint64_t def;			/* the default --help gives */
	unsigned int def_per_cpu;	/* or: this many per online CPU */
	const char *accepted;		/* OPT_SIZE, OPT_WORD: for errors */
	const char *const *words;	/* OPT_WORD: value n is words[n] */
	int (*lookup)(const char *word);/* OPT_WORD: or this, < 0: none */
	enum opt_field field;		/* where the value goes */
	size_t offset;			/* in struct rpcsim_config */
	bool jemalloc_only;		/* refused without --backend=jemalloc */
	/* Refused with the other consumer: 0 any, else consumer + 1. */
	unsigned char consumer_only;
	bool hidden;			/* accepted, not in --help */
	/* Says how to run or report, not what runs: no sweep setting. */
	bool not_setting;
	/* Called after the value is stored (OPT_OTHER: instead). */
	void (*apply)(const struct opt_spec *o, const char *arg,
		      uint64_t value, struct opt_state *st);
	const char *help;		/* --help, from the option's column */
};

/*
 * Every option, in the order --help lists them (options.c).  An option
 * added to the table is counted here too: options.c asserts the count.
 */
#define NR_OPT_SPECS	61
extern const struct opt_spec opt_table[];

/* What parsing gathers besides rpcsim_config. */
struct opt_state {
	struct rpcsim_config *cfg;
	char **argv;
	/* The value each option was last given ("" with none); NULL: not. */
	const char *given[NR_OPT_SPECS];
	const struct opt_spec *je_last;	/* the last jemalloc-only option */
	const char *je_last_arg;
	uint64_t je_slots;		/* --je-tcache-slots, 0: not given */
	bool checking;			/* a copy: a --sweep value or point */
	struct option longopts[NR_OPT_SPECS + 1];
	char shortopts[2 + 3 * NR_OPT_SPECS];
};

/* options.c: the table, the values, --help and the parse. */

/* Said before a message: the --sweep value or point being checked. */
extern const char *usage_context;
/* Bad input: one line, exit status 2. */
__attribute__((noreturn, format(printf, 1, 2)))
void usage_error(const char *fmt, ...);
/*
 * --@o=@arg refused: @why ("" or "out of range; "), then what @o accepts
 * (@o->accepted, {min} and {max} filled in).
 */
__attribute__((noreturn))
void refuse_value(const struct opt_spec *o, const char *arg,
		  const char *why);
unsigned int online_cpus(void);
const struct opt_spec *opt_find(const char *name);
/* What --@name was last given, NULL if it was not. */
const char *opt_given(const struct opt_state *st, const char *name);
/* --@name as given, else its default as the option would take it. */
const char *opt_given_or_default(const struct opt_state *st,
				 const char *name, char *buf, size_t len);
/* Option @o given @arg (NULL: none): check it and store it. */
void opt_apply(const struct opt_spec *o, const char *arg,
	       struct opt_state *st);

/* options_apply.c: the table's callbacks for options with more to them. */

/* --alloc: single, list, array: the mode; all: RPCSIM_NR_MODES. */
int alloc_lookup(const char *word);
void apply_alloc(const struct opt_spec *o, const char *arg, uint64_t value,
		 struct opt_state *st);
/* --mix and --free-mix: NAME:W weights. */
void apply_weights(const struct opt_spec *o, const char *arg,
		   uint64_t value, struct opt_state *st);
void apply_pool_size(const struct opt_spec *o, const char *arg,
		     uint64_t value, struct opt_state *st);
void apply_je_slots(const struct opt_spec *o, const char *arg,
		    uint64_t value, struct opt_state *st);
void apply_plan(const struct opt_spec *o, const char *arg, uint64_t value,
		struct opt_state *st);
void apply_interval(const struct opt_spec *o, const char *arg,
		    uint64_t value, struct opt_state *st);
void apply_histogram(const struct opt_spec *o, const char *arg,
		     uint64_t value, struct opt_state *st);
void apply_trace_live(const struct opt_spec *o, const char *arg,
		      uint64_t value, struct opt_state *st);
void apply_trace(const struct opt_spec *o, const char *arg, uint64_t value,
		 struct opt_state *st);
/* --backend: a backend name, or plugin:PATH. */
int backend_lookup(const char *word);
void apply_backend(const struct opt_spec *o, const char *arg,
		   uint64_t value, struct opt_state *st);
void apply_plot(const struct opt_spec *o, const char *arg, uint64_t value,
		struct opt_state *st);
void apply_json(const struct opt_spec *o, const char *arg, uint64_t value,
		struct opt_state *st);
void apply_output_format(const struct opt_spec *o, const char *arg,
			 uint64_t value, struct opt_state *st);
void apply_output(const struct opt_spec *o, const char *arg, uint64_t value,
		  struct opt_state *st);

/* options_apply.c: the checks between options, once all are read. */

/* Options that only go with another: refused alone. */
void check_dependencies(struct opt_state *st);
/* The defaults that follow other options, and sizes that must agree. */
void check_sizes(struct opt_state *st);
/* The kernel's sizes (__svc_create() and svc_alloc_arg()), the pool's. */
void derive_sizes(struct opt_state *st);

/* sweep_options.c: --sweep, --results, --plan and --point. */

/* --sweep=KEY=V1,V2,... and --results=DIR, the table's handlers. */
void apply_sweep(const struct opt_spec *o, const char *arg, uint64_t value,
		 struct opt_state *st);
void apply_results(const struct opt_spec *o, const char *arg,
		   uint64_t value, struct opt_state *st);
/* --sweep, --results, --plan and --point: what goes with what. */
void check_sweep(struct opt_state *st);
/* Every point's settings checked as that point will check them. */
void sweep_check_points(const struct opt_state *st);

#endif /* RPCSIM_OPTIONS_INTERNAL_H */
