/* SPDX-License-Identifier: MIT */
/*
 * The trace schema (tracepoints/trace_schema.h) as rpcsim-analyze uses it:
 * the table of events and fields the reader binds and --schema prints,
 * and the labels of the enumerations, by which the report names values
 * whether the trace recorded an enumeration or a plain integer.
 */
#include "config.h"

#include <stdint.h>
#include <stdio.h>

#include "analyze.h"
#include "trace_schema.h"

#define LABEL(label, value)	[value] = label,
#define COUNT(label, value)	+ 1

static const char *const mode_labels[] = { TRACE_ENUM_MODE(LABEL) NULL };
static const char *const op_labels[] = { TRACE_ENUM_OP(LABEL) NULL };
static const char *const backend_labels[] = {
	TRACE_ENUM_BACKEND(LABEL) NULL
};
static const char *const contract_labels[] = {
	TRACE_ENUM_CONTRACT(LABEL) NULL
};
static const char *const bulk_api_labels[] = {
	TRACE_ENUM_BULK_API(LABEL) NULL
};
static const char *const fallback_labels[] = {
	TRACE_ENUM_FALLBACK(LABEL) NULL
};

/* The counters in struct field_sums are sized by these. */
_Static_assert(NR_OPS == 0 TRACE_ENUM_OP(COUNT), "NR_OPS");
_Static_assert(NR_BULK_APIS == 0 TRACE_ENUM_BULK_API(COUNT), "NR_BULK_APIS");
_Static_assert(NR_FALLBACKS == 0 TRACE_ENUM_FALLBACK(COUNT), "NR_FALLBACKS");
/* Values are 0..n-1: the labels' array has no hole. */
_Static_assert(sizeof(fallback_labels) / sizeof(fallback_labels[0]) ==
	       NR_FALLBACKS + 1, "fallback values");
_Static_assert(sizeof(op_labels) / sizeof(op_labels[0]) == NR_OPS + 1,
	       "op values");
_Static_assert(sizeof(bulk_api_labels) / sizeof(bulk_api_labels[0]) ==
	       NR_BULK_APIS + 1, "bulk api values");

static const char *const *const enum_labels[MT_NR] = {
	[MT_ENUM_MODE] = mode_labels,
	[MT_ENUM_OP] = op_labels,
	[MT_ENUM_BACKEND] = backend_labels,
	[MT_ENUM_CONTRACT] = contract_labels,
	[MT_ENUM_BULK_API] = bulk_api_labels,
	[MT_ENUM_FALLBACK] = fallback_labels,
};

const char *const *schema_enum_labels(enum member_type t)
{
	return t < MT_NR ? enum_labels[t] : NULL;
}

unsigned int schema_enum_count(enum member_type t)
{
	const char *const *l = schema_enum_labels(t);
	unsigned int n = 0;

	while (l && l[n])
		n++;
	return n;
}

/* F(TYPE, ctype, field, argument, need, report) */
#define ROW(T, ctype, field, arg, need, report) \
	{ #field, MT_##T, need, report },
#define EV_FIELDS(provider, event, FIELDS) \
	static const struct schema_field event##_fields[] = { \
		FIELDS(ROW) { NULL, MT_INT, false, NULL } \
	};
#define EV_ROW(provider, event, FIELDS) \
	[SE_##event] = { #provider, #event, event##_fields },

TRACE_EVENTS(EV_FIELDS)

const struct schema_event schema_events[] = {
	TRACE_EVENTS(EV_ROW)
	[SE_NR] = { NULL, NULL, NULL }
};

static const char *const type_names[MT_NR] = {
	[MT_INT] = "integer",
	[MT_STR] = "string",
	[MT_ENUM_MODE] = "enum mode",
	[MT_ENUM_OP] = "enum op",
	[MT_ENUM_BACKEND] = "enum backend",
	[MT_ENUM_CONTRACT] = "enum contract",
	[MT_ENUM_BULK_API] = "enum bulk_api",
	[MT_ENUM_FALLBACK] = "enum fallback",
};

void schema_print(FILE *out)
{
	const struct schema_event *e;
	const struct schema_field *f;

	for (e = schema_events; e->event; e++)
		for (f = e->fields; f->name; f++)
			fprintf(out, "%s:%s\t%s\t%s\t%s\t%s\n", e->provider,
				e->event, f->name, type_names[f->type],
				f->need ? "needed" : "optional", f->report);
}
