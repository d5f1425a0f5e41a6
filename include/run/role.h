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
	const char			*bind_dev;	/* --bind-dev, NULL */
	uint16_t			 cport;		/* --cport, 0: any */
	const char			*iface;		/* NULL: the socket's */
	int				 verbose;	/* log level shown */
	int				 quiet;		/* -q: errors only */
	const struct gb_bounds		*bounds;	/* deadlines, caps */
	const struct hoststat_roots	*roots;
	const struct auth_key		*psk;		/* NULL: none */
	/* Copied into each result's provenance; NULL: none. */
	const char			*title;		/* --title */
	const char			*command;	/* the command line */
	/*
	 * A test has started (its data flows): the result holds its
	 * params, peer, direction and provenance so far; NULL: none.
	 */
	void				(*start_cb)(const struct gb_result *,
					    void *arg);
	/*
	 * Each interval while a test runs, with the peer's of the same
	 * index when it has come (the client; else NULL); NULL: none.
	 */
	void				(*interval_cb)(
					    const struct gb_interval *,
					    const struct gb_interval *peer,
					    int is_tx, void *arg);
	/*
	 * The connecting side, about once a second while data flows, and
	 * once more with done set as it ends; NULL: no progress.
	 */
	void				(*progress_cb)(
					    const struct gb_progress *,
					    void *arg);
	/* One log line, "HEAD: TEXT" (head may be NULL); NULL: none. */
	void				(*log_cb)(const char *head,
					    const char *text, void *arg);
	void				*arg;	/* of the callbacks */
};

/* A log line, when the role's verbosity is at least level. */
void	role_log(const struct role_config *, int level, const char *head,
	    const char *text);
/* A line of what the role does (listening, a refusal): not with -q. */
void	role_info(const struct role_config *, const char *head,
	    const char *text);
/* Pass one interval to the caller's callback (none is fine). */
void	role_interval(const struct role_config *, const struct gb_interval *,
	    const struct gb_interval *peer, int is_tx);
/*
 * A test's provenance as this end starts it: the build, the title and
 * command line, the control connection's ends, and the version the
 * peer's hello gave (NULL: none).
 */
void	role_prov_start(const struct role_config *, struct gb_result *,
	    int ctl_fd, const char *peer_version);
/* The data connections' ends, before the transfer takes the sockets. */
void	role_prov_data(struct gb_result *, const int *fds, unsigned n);
/* The peer's version as its side says it (past its hello's), if it does. */
void	role_prov_peer(struct gb_result *);
/* The test has begun: the start time, and the caller's start_cb. */
void	role_started(const struct role_config *, struct gb_result *);
/* A control connection's keys: auth once keyed, else NULL (plain). */
struct auth_session	*role_keys(struct auth_session *auth, int keyed);

#endif /* GB_ROLE_H */
