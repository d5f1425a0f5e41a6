/*
 * sweeprun.h: runs a sweep (--sweep, --repeat, --confidence, --csv,
 * --plot) as a series of ordinary tests against one listener, and renders
 * the table, the JSON document, the CSV rows and the plot.  MTUs changed
 * for it are put back at the end, on error and on signals (mtu.c).
 */
#ifndef GB_SWEEPRUN_H
#define GB_SWEEPRUN_H

#include <stdio.h>

#include "wire/auth.h"
#include "host/hoststat.h"
#include "cli/opts.h"

/* Does this command line ask for a sweep rather than one test? */
int	sweeprun_wanted(const struct gb_opts *);
/*
 * Returns a client status (client.h): CLIENT_OK when every run passed,
 * CLIENT_FAILED when one failed or the set-up did, CLIENT_REFUSED when
 * the listener refused (the sweep stops there).  err says why.
 */
int	sweeprun(const struct gb_opts *, const struct hoststat_roots *,
	    const struct auth_key *, char *err, size_t errlen);

#endif /* GB_SWEEPRUN_H */
