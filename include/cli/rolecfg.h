/*
 * rolecfg.h: the roles' configurations (run/client.h, run/server.h) filled
 * from the command line, with the callbacks that print their interval
 * lines (out/report.h) and their log lines on stderr.  For main.c, the
 * sweep runner and the fuzz harness, so that the roles never see gb_opts.
 */
#ifndef GB_ROLECFG_H
#define GB_ROLECFG_H

#include <stdio.h>

#include "cli/opts.h"
#include "host/hoststat.h"
#include "run/client.h"
#include "run/server.h"
#include "wire/auth.h"

/* Where the callbacks print; the caller keeps it while the role runs. */
struct rolecfg_out {
	FILE	*intervals;	/* NULL: no interval lines */
	FILE	*events;	/* --json-stream's, or NULL */
	FILE	*log;		/* log lines; NULL: stderr */
	char	 unit;		/* -f */
	/* The progress line on stderr (a terminal); its width drawn. */
	int	 progress;
	int	 progress_len;
};

/* out->intervals is left as the caller set it. */
void	rolecfg_client(struct client_config *, const struct gb_opts *,
	    const struct hoststat_roots *, const struct auth_key *psk,
	    struct rolecfg_out *out);
/* Without a report_cb: the caller sets it. */
void	rolecfg_server(struct server_config *, const struct gb_opts *,
	    const struct hoststat_roots *, const struct auth_key *psk,
	    struct rolecfg_out *out);

#endif /* GB_ROLECFG_H */
