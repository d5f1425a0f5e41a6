/*
 * underload.h: --under-load.  Each phase (--phases; the command's own
 * direction when not given) runs two tests against the listener, one
 * after the other: the probes alone for the idle reference, then the
 * load with the probes beside it (bloat.h).  Prints the report
 * (out/bloat_report.h) or its JSON; a client_status.
 */
#ifndef GB_UNDERLOAD_H
#define GB_UNDERLOAD_H

#include <stddef.h>

#include "cli/opts.h"
#include "host/hoststat.h"
#include "wire/auth.h"

/* Each idle reference's -T: this, or the load's when shorter. */
#define UNDERLOAD_IDLE_MS	2000u
/* --plot: the probes' latency in slices this long (or -T, when shorter). */
#define UNDERLOAD_SLICE_MS	250u

int	underload_run(const struct gb_opts *, const struct hoststat_roots *,
	    const struct auth_key *, char *err, size_t errlen);

#endif /* GB_UNDERLOAD_H */
