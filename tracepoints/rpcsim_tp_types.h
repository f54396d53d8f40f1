/* SPDX-License-Identifier: MIT */
/* Argument types of the "rpcsim" provider (lttng-ust takes 10 at most). */
#ifndef RPCSIM_TP_TYPES_H
#define RPCSIM_TP_TYPES_H

#include <stdint.h>

/* mode values in the events */
enum rpcsim_tp_mode {
	RPCSIM_TP_MODE_SINGLE,
	RPCSIM_TP_MODE_LIST,
	RPCSIM_TP_MODE_ARRAY,
};

/* run_start's payload: the configuration of one run. */
struct rpcsim_tp_run {
	const char *mode_name;		/* "single", "list", "array" */
	unsigned int mode;		/* enum rpcsim_tp_mode */
	unsigned int run;		/* 1-based, for --repeat */
	int pid;			/* the process that ran it */
	unsigned int threads;
	unsigned int slots;		/* rq_pages entries per thread */
	uint64_t io_size;
	uint64_t max_payload;
	uint64_t pool_pages;
	uint64_t file_pages;
	unsigned int pcp_batch;
	unsigned int pcp_high;
	const char *completion;		/* "inline" or "thread" */
	unsigned int read_weight;
	unsigned int write_weight;
	uint64_t seed;
	const char *version;
	unsigned int backend;		/* enum pp_backend */
	unsigned int bulk_variant;	/* enum pp_bulk_variant */
	uint64_t tcp_read;		/* --tcp-read, 0: whole records */
	/*
	 * The process's runs in order, from 1 (every mode's, every
	 * --repeat's): a trace whose first run_start of a process has a
	 * higher one lacks that process's earlier runs.
	 */
	unsigned int run_seq;
};

#endif /* RPCSIM_TP_TYPES_H */
