/*
 * server.h: the listening side (-r, -S).  Serves one test at a time until
 * a signal (or, with once, one completed test); a client that arrives
 * during a test is told the listener is busy.  Every connection that has
 * not yet identified itself has a handshake deadline.
 */
#ifndef GB_SERVER_H
#define GB_SERVER_H

#include <stddef.h>

#include "base/result.h"
#include "run/role.h"

struct event_base;

struct server_config {
	struct role_config	 role;	/* address, bounds, keys, output */
	int			 once;		/* end after one test */
	int			 allow_reverse;	/* transmit to clients */
	int			 allow_profile;	/* --profile on this end */
	int			 allow_mtu;	/* set the MTU clients ask */
	/* Called with each completed test's figures, both sides. */
	void			(*report_cb)(const struct gb_result *, void *);
	void			*report_arg;
	/*
	 * Called with the listener's event loop once it exists and with
	 * NULL before it goes (output that drains on it); NULL: none.
	 */
	void			(*loop_cb)(struct event_base *, void *);
};

/* Returns 0 after SIGINT/SIGTERM or a once test, -1 on a fatal error. */
int	server_run(const struct server_config *, char *err, size_t errlen);

#endif /* GB_SERVER_H */
