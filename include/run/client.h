/*
 * client.h: the connecting side (-t HOST, -r HOST).  It decides the test's
 * parameters, runs the handshake, the transfer and the exchange of both
 * ends' figures, and returns them in one struct gb_result.
 */
#ifndef GB_CLIENT_H
#define GB_CLIENT_H

#include <stddef.h>

#include "base/params.h"
#include "base/result.h"
#include "run/role.h"

enum client_status {
	CLIENT_OK = 0,
	CLIENT_FAILED = 1,	/* test or network failure */
	CLIENT_REFUSED = 3,	/* busy, other version, not gigebench */
	CLIENT_INTERRUPTED = 4	/* SIGINT/SIGTERM during the test */
};

struct client_config {
	struct role_config	 role;		/* port, bind, keys, output */
	const char		*host;		/* the listener */
	const struct gb_params	*params;	/* the test asked for */
};

int	client_run(const struct client_config *, struct gb_result *,
	    char *err, size_t errlen);

#endif /* GB_CLIENT_H */
