/*
 * role.h: what both roles (run/client.h, run/server.h) take from the
 * program that runs them, and the few things they do alike.  A role gets
 * its addresses, limits and keys here, never the command line (cli/), and
 * prints nothing itself: interval lines and log lines go to the caller's
 * callbacks (main.c fills them, cli/rolecfg.h).
 */
#ifndef GB_ROLE_H
#define GB_ROLE_H

#include <stdint.h>

#include "base/bounds.h"
#include "base/result.h"
#include "host/hoststat.h"
#include "wire/auth.h"

struct role_config {
	uint16_t			 port;		/* of the test */
	int				 family;	/* AF_UNSPEC, ... */
	const char			*bind_addr;	/* NULL: any */
	const char			*iface;		/* NULL: the socket's */
	int				 verbose;	/* log level shown */
	const struct gb_bounds		*bounds;	/* deadlines, caps */
	const struct hoststat_roots	*roots;
	const struct auth_key		*psk;		/* NULL: none */
	/* Each interval while a test runs; NULL: none. */
	void				(*interval_cb)(
					    const struct gb_interval *,
					    int is_tx, void *arg);
	/* One log line, "HEAD: TEXT" (head may be NULL); NULL: none. */
	void				(*log_cb)(const char *head,
					    const char *text, void *arg);
	void				*arg;	/* of both callbacks */
};

/* A log line, when the role's verbosity is at least level. */
void	role_log(const struct role_config *, int level, const char *head,
	    const char *text);
/* Pass one interval to the caller's callback (none is fine). */
void	role_interval(const struct role_config *, const struct gb_interval *,
	    int is_tx);
/* A control connection's keys: auth once keyed, else NULL (plain). */
struct auth_session	*role_keys(struct auth_session *auth, int keyed);

#endif /* GB_ROLE_H */
