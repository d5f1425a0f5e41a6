/*
 * server_xfer.c: a listener's session as its transfer starts and runs
 * (server_session.h): the transfer started within the listener's
 * deadlines and byte caps once every stream is here, the start message,
 * and each -i slice sent to the client, whose interval lines carry both
 * ends, and --crr's connections handed to the answering threads while it
 * runs.  What the session does next is its state machine's
 * (server_session.c): this file only raises its events.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/bounds.h"
#include "data/xfer.h"
#include "host/sock.h"
#include "server_session.h"
#include "wire/ctl.h"

static void
on_xfer_done(void *arg)
{
	struct session_arg a = { 0 };

	session_event(arg, SE_XFER_DONE, &a);
}

/*
 * Each slice to this end's lines and to the client, whose interval lines
 * carry both ends.  A client that does not read its control connection
 * fails the test here within CTL_IV_MS, as a lost one does.
 */
#define CTL_IV_MS	250

static void
on_interval(const struct gb_interval *iv, int is_tx, void *arg)
{
	struct session *ss = arg;
	struct session_arg a = { 0 };
	struct proto_msg *m;
	char err[GB_ERR_LEN] = "out of memory";

	role_interval(&ss->srv->cfg->role, iv, NULL, is_tx);
	if ((m = calloc(1, sizeof(*m))) != NULL) {
		m->type = PROTO_INTERVAL;
		m->interval = *iv;
		a.rc = ctl_send(ss->ctl, m, session_keys(ss), CTL_IV_MS, err,
		    sizeof(err));
		free(m);
		if (a.rc == PROTO_OK)
			return;
	}
	a.err = err;
	session_event(ss, SE_CTL_LOST, &a);
}

/*
 * SE_DATA while running: with --crr, a transaction's connection, to its
 * stream's answering thread (stream_rr.c says why this way).  It passed
 * pending.c's deadline and caps as any new connection; its token and
 * address are checked as at the handshake.  One a stream waits at most:
 * the asker has one transaction in flight, so a second is not its.
 * --probe-crr: a probe's connection (a stream after the load's) goes to
 * the probes' part, set up as the probes' (params_conn_params).
 */
enum session_state
session_crr(struct session *ss, struct session_arg *a)
{
	const struct proto_msg *m = a->m;
	struct pconn *pc = a->pc;
	const struct gb_params *cp;
	struct gb_params probe;
	char err[GB_ERR_LEN] = "";
	uint32_t load = params_load_conns(&ss->p);
	int fd;

	if (pc == NULL)		/* -u's greeter: never answered */
		return ss->state;
	cp = m->stream < params_conns(&ss->p) ?
	    params_conn_params(&ss->p, m->stream, &probe) : NULL;
	if (cp == NULL || !cp->crr || params_conn_udp(&ss->p, m->stream) ||
	    !session_token_equal(m->token, ss->token) ||
	    (m->stream < load && m->stream >= ss->p.streams)) {
		server_data_refused(pc);
		return ss->state;
	}
	if (session_from_peer(ss, pc) == -1)
		return ss->state;
	fd = pending_take(pc);
	if (sock_set_nonblock(fd, 0) == -1 ||
	    sock_set_timeouts(fd, (int)ss->srv->lim->silent_ms) == -1)
		snprintf(err, sizeof(err), "a --crr connection: %s",
		    strerror(errno));
	else if (sock_apply(fd, cp, params_conn_tx(&ss->p, m->stream,
	    ss->is_tx), err, sizeof(err)) == 0)
		err[0] = '\0';
	if (err[0] != '\0') {
		close(fd);
		return session_fail(ss, err);
	}
	if (m->stream >= load ? xfer_crr_give(xfer_probes(ss->x),
	    m->stream - load, fd) == -1 : xfer_crr_give(ss->x, m->stream,
	    fd) == -1) {
		snprintf(err, sizeof(err), "%s connection for %s %u while "
		    "its last one waits: closed", m->stream >= load ?
		    "--probe-crr" : "--crr", m->stream >= load ? "probe" :
		    "stream", m->stream >= load ? m->stream - load :
		    m->stream);
		server_log(ss->srv, 1, ss->result->peer, err);
		close(fd);
	}
	return ss->state;
}

/* Every stream is here: snapshot first, then tell the client to go. */
enum session_state
session_start(struct session *ss)
{
	struct server *s = ss->srv;
	struct xfer_config xc = {
		.params = &ss->p, .is_tx = ss->is_tx, .fds = ss->fds,
		.roots = s->cfg->role.roots, .ifname = s->cfg->role.iface,
		.port = s->cfg->role.port,
		.silent_ms = s->lim->silent_ms,
		.profile_refused = !s->cfg->allow_profile,
		/* Whatever the client does, its test ends by these. */
		.deadline_ms = bounds_deadline_ms(s->lim, &ss->p),
		.stream_cap = bounds_stream_cap(&ss->p),
		.total_cap = bounds_total_cap(s->lim, &ss->p),
		.rate_cap = bounds_rate_cap(s->lim, &ss->p),
		.done_cb = on_xfer_done, .interval_cb = on_interval, .arg = ss,
		.dg_token = ss->dg_token,
	};
	struct proto_msg m;
	char err[GB_ERR_LEN];

	event_del(ss->timer);
	if (session_take_slot(ss) == -1)
		return SS_ENDED;
	memset(&m, 0, sizeof(m));
	m.type = PROTO_START;
	role_prov_data(ss->result, ss->fds, params_conns(&ss->p));
	role_started(&s->cfg->role, ss->result);
	if ((ss->x = xfer_start(s->base, &xc, err, sizeof(err))) == NULL)
		return session_fail(ss, err);
	ss->state = SS_RUNNING;		/* a failure now aborts the streams */
	if (ctl_send(ss->ctl, &m, session_keys(ss),
	    (int)s->lim->handshake_ms, err, sizeof(err)) != PROTO_OK)
		return session_fail(ss, err);
	server_log(s, 1, ss->result->peer, "test started");
	return SS_RUNNING;
}
