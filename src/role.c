/*
 * role.c: what the client and the listener do alike with their
 * configuration (run/role.h): log by level, pass intervals on, stamp a
 * result's provenance, pick the control connection's keys.  It prints
 * nothing itself and knows neither the command line nor the renderers;
 * every log line passes through safetext on its way to the callback.
 */
#include <stddef.h>
#include <stdio.h>

#include "run/role.h"
#include "base/monotime.h"
#include "base/safetext.h"
#include "base/version.h"
#include "host/sock.h"

void
role_log(const struct role_config *rc, int level, const char *head,
    const char *text)
{
	char	h[256], t[4096];

	/*
	 * The one way into the log: a peer's words (a refusal, a parser's
	 * complaint about its bytes) reach the terminal escaped.
	 */
	if (rc->verbose >= level && rc->log_cb != NULL)
		rc->log_cb(head != NULL ? safetext_escape(h, sizeof(h), head) :
		    NULL, safetext_escape(t, sizeof(t), text), rc->arg);
}

void
role_info(const struct role_config *rc, const char *head, const char *text)
{
	if (!rc->quiet)
		role_log(rc, 0, head, text);
}

void
role_interval(const struct role_config *rc, const struct gb_interval *iv,
    const struct gb_interval *peer, int is_tx)
{
	if (rc->interval_cb != NULL)
		rc->interval_cb(iv, peer, is_tx, rc->arg);
}

struct auth_session *
role_keys(struct auth_session *auth, int keyed)
{
	return keyed ? auth : NULL;
}

void
role_prov_start(const struct role_config *rc, struct gb_result *r,
    int ctl_fd, const char *peer_version)
{
	struct gb_provenance *p = &r->prov;

	snprintf(p->peer_version, sizeof(p->peer_version), "%s",
	    peer_version != NULL ? peer_version : "");
	snprintf(p->revision, sizeof(p->revision), "%s", version_revision());
	snprintf(p->title, sizeof(p->title), "%s",
	    rc->title != NULL ? rc->title : "");
	snprintf(p->command, sizeof(p->command), "%s",
	    rc->command != NULL ? rc->command : "");
	sock_endpoints(ctl_fd, &p->control);
}

void
role_prov_data(struct gb_result *r, const int *fds, unsigned n)
{
	unsigned i;

	r->prov.ndata = n < GB_MAX_STREAMS ? n : GB_MAX_STREAMS;
	for (i = 0; i < r->prov.ndata; i++)
		sock_endpoints(fds[i], &r->prov.data[i]);
}

void
role_started(const struct role_config *rc, struct gb_result *r)
{
	r->prov.start_us = walltime_us();
	if (rc->start_cb != NULL)
		rc->start_cb(r, rc->arg);
}

void
role_prov_peer(struct gb_result *r)
{
	const struct gb_side *peer = r->local_is_sender ? &r->receiver :
	    &r->sender;

	if (peer->has && peer->context.version[0] != '\0')
		snprintf(r->prov.peer_version, sizeof(r->prov.peer_version),
		    "%s", peer->context.version);
}
