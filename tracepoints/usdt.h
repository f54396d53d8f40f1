/* SPDX-License-Identifier: MIT */
/*
 * USDT probes (<sys/sdt.h>, Debian's systemtap-sdt-dev) beside the LTTng
 * tracepoints, for perf, bpftrace and SystemTap users: each LTTng event
 * has a probe of the same provider, name and arguments (the LTTng
 * TP_ARGS, in order; a structure is passed by its address).  The probe
 * sites are described in the ELF note section .note.stapsdt of the
 * object that fires them: libpagepool.so for "pagepool", rpcsim for
 * "rpcsim" and "page_pool".
 *
 * Each probe has a semaphore, a counter that a tracer raises while it is
 * attached: unattached, a probe costs one load and one not-taken branch,
 * its arguments are not computed, and the site itself is a nop.  The
 * events of a provider share its one semaphore (<sys/sdt.h> names an
 * event's semaphore PROVIDER_EVENT_semaphore; the provider's header
 * defines each such name as the provider's), so that a fast path that
 * checks several events loads it once; attached to one event, a tracer
 * makes the provider's other probe sites compute their arguments too.
 * The semaphore is a weak hidden definition: one per provider and
 * object, however many files fire its events.
 *
 * Without <sys/sdt.h> (./configure --disable-usdt, or the header absent)
 * everything here compiles to nothing.
 */
#ifndef PP_USDT_H
#define PP_USDT_H

#include <config.h>

#ifdef HAVE_USDT
#define _SDT_HAS_SEMAPHORES 1
#define SDT_USE_VARIADIC 1
#include <sys/sdt.h>

#define pp_usdt_semaphore(provider) provider##_usdt_semaphore
/* The provider's semaphore, in the section the tracers look for. */
#define PP_USDT_SEMAPHORE(provider)					\
	__extension__ unsigned short pp_usdt_semaphore(provider)	\
	__attribute__((weak, visibility("hidden"), section(".probes")));
/*
 * Whether a tracer is attached to one of @provider's probes.  A plain
 * load, as <sys/sdt.h>'s users generate it: the compiler may merge two
 * checks of one expression, and loads it again after any call.
 */
#define pp_usdt_enabled(provider)					\
	__builtin_expect(pp_usdt_semaphore(provider) != 0, 0)
/* Fire the probe without checking (after pp_usdt_enabled()). */
#define pp_usdt_fire(provider, name, ...)				\
	STAP_PROBEV(provider, name, __VA_ARGS__)
#else
#define PP_USDT_SEMAPHORE(provider)
#define pp_usdt_enabled(provider) 0
#define pp_usdt_fire(provider, name, ...) do { } while (0)
#endif

/* Check and fire. */
#define pp_usdt(provider, name, ...)					\
	do {								\
		if (pp_usdt_enabled(provider))				\
			pp_usdt_fire(provider, name, __VA_ARGS__);	\
	} while (0)

#endif /* PP_USDT_H */
