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
	/*
	 * After the transfer (partial: stopped by Ctrl-C), each of this
	 * end's flows' figures, n from flow number first (--bidir's
	 * second half: from -P), is_tx the way they went; NULL: none.
	 */
	void			(*flows_cb)(void *arg,
				    const struct gb_stream *flows, unsigned n,
				    unsigned first, int is_tx, int rr,
				    int partial);
	void			*flows_arg;
};

int	client_run(const struct client_config *, struct gb_result *,
	    char *err, size_t errlen);

#endif /* GB_CLIENT_H */
