/*
 * server.h: the listening side (-r, -S).  Serves one test at a time until
 * a signal (or, with -1, one completed test); a client that arrives during
 * a test is told the listener is busy.  Every connection that has not yet
 * identified itself has a handshake deadline.
 */
#ifndef GB_SERVER_H
#define GB_SERVER_H

#include <stdio.h>

#include "wire/auth.h"
#include "host/hoststat.h"
#include "cli/opts.h"
#include "base/result.h"

struct server_config {
	const struct gb_opts		*opts;
	const struct hoststat_roots	*roots;
	FILE				*interval_out;	/* NULL: none */
	const struct auth_key		*psk;		/* NULL: none */
	/* Called with each completed test's figures, both sides. */
	void				(*report_cb)(const struct gb_result *,
					    void *);
	void				*arg;
};

/* Returns 0 after SIGINT/SIGTERM or a --once test, -1 on a fatal error. */
int	server_run(const struct server_config *, char *err, size_t errlen);

#endif /* GB_SERVER_H */
