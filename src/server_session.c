/*
 * server_session.c: one test on the listener, from its hello to its
 * result (server_session.h).  It runs the transfer (xfer.c) within the
 * listener's deadlines and byte caps, collects the client's figures,
 * sends its own back and passes both to report_cb.  Any failure ends the
 * session, never the listener; accepting connections, refusing hellos
 * and signals are server.c's, the keys, the accept and the teardown
 * server_accept.c's, the transfer's start and its -i slices sent to the
 * client server_xfer.c's.
 *
 * The session is a state machine: every callback (control connection,
 * timer, end of the transfer) and every call from the listener (hello,
 * data connection, stop) is an event that goes through session_event(),
 * which runs the handler of SESSION_TABLE[state][event]; the handler
 * returns the next state, or SS_ENDED once it has freed the session.
 *
 *           hello, no --psk: accept
 *   NEW -------------------------------------------+
 *    | hello, --psk: challenge                     |
 *    v                                             v
 *   CHALLENGED ---auth message: accept--------> ACCEPTED
 *                                                  | data connection: one
 *                                                  | more stream; the last:
 *                                                  | take the slot (else
 *                                                  | busy, END), xfer_start,
 *                                                  | "start"
 *                          done message            v
 *          GOT_DONE <----------------------------RUNNING
 *             |                                    | xfer done, every
 *             | xfer done                          | stream well: await
 *             |                                    v the figures
 *             |                                XFER_DONE
 *             |                                    | done message
 *             v                                    v
 *           finish: result sent, report_cb, END (a once listener stops)
 *
 *   RUNNING --data connection--> RUNNING: with --crr and the test's
 *   token, a transaction's connection to its stream's thread; else closed
 *   RUNNING --xfer done, a stream failed--> error sent, END
 *   RUNNING, GOT_DONE --failure--> ABORTING (xfer_abort) --xfer done--> END
 *   every other state --failure--> END.  A failure is: an unexpected or
 *   undecodable message, the control connection lost, the deadline
 *   (CHALLENGED, ACCEPTED: handshake; XFER_DONE: the figures), a refusal
 *   at accept, a failed send; the client gets an error naming it first.
 *   In CHALLENGED any message but auth is an authentication failure
 *   (refused, counted against the source); the handshake deadline in
 *   CHALLENGED or ACCEPTED is counted too (a hello that led to no test).
 *   Until RUNNING the session is one of srv->hs and holds no slot
 *   (server_slot.c).  Stop (the listener ends, with its reason): the
 *   client is told, xfer_abort if a transfer exists, then END.
 *   Events a state cannot see (its event source is off) are ignored.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/bidir.h"
#include "base/bounds.h"
#include "base/diag.h"
#include "base/monotime.h"
#include "data/xfer.h"
#include "host/sock.h"
#include "server_session.h"
#include "wire/ctl.h"

typedef enum session_state (*session_fn)(struct session *,
    struct session_arg *);

static struct timeval
ms_tv(uint32_t ms)
{
	struct timeval tv = { ms / 1000, (ms % 1000) * 1000 };

	return tv;
}

/* On the control connection of a session: sealed once keyed. */
static void
session_send_error(struct session *ss, const char *text)
{
	struct proto_msg *m;
	char err[GB_ERR_LEN];

	if ((m = calloc(1, sizeof(*m))) == NULL)
		return;
	m->type = PROTO_ERROR;
	snprintf(m->message, sizeof(m->message), "%s", text);
	ctl_send(ss->ctl, m, session_keys(ss), 1000, err, sizeof(err));
	free(m);
}

enum session_state
session_fail(struct session *ss, const char *why)
{
	server_log(ss->srv, 0, ss->result->peer, why);
	if (ss->state != SS_ABORTING)
		session_send_error(ss, why);	/* before any stream closes */
	if (ss->state == SS_RUNNING || ss->state == SS_GOT_DONE ||
	    ss->state == SS_ABORTING) {
		/* Let the threads unwind; SE_XFER_DONE ends the session. */
		xfer_abort(ss->x, why);
		event_del(ss->ctl_ev);
		return SS_ABORTING;
	}
	return session_end(ss);
}

/* --bidir: this end's half that went the other way, into its side. */
static int
finish_reverse(struct session *ss, char *err, size_t errlen)
{
	struct xfer *rev = xfer_reverse(ss->x);

	if (rev == NULL)
		return 0;
	return xfer_finish(rev, ss->is_tx ? &ss->result->rreceiver :
	    &ss->result->rsender, NULL, err, errlen);
}

/* Both sides' figures are here: send ours, report, end. */
static enum session_state
session_finish(struct session *ss)
{
	struct server *s = ss->srv;
	struct gb_side *mine;
	struct proto_msg *m;
	char err[GB_ERR_LEN];

	mine = ss->is_tx ? &ss->result->sender : &ss->result->receiver;
	ss->result->prov.end_us = walltime_us();
	if (xfer_finish(ss->x, mine, ss->result, err, sizeof(err)) == -1) {
		server_log(s, 0, ss->result->peer, err);
		session_send_error(ss, err);
		return session_end(ss);
	}
	/* -u: the greeter's, where the test reports its strays. */
	*(ss->p.rr ? &mine->rr.stray : &mine->udp.stray) += ss->dg_stray;
	if (finish_reverse(ss, err, sizeof(err)) == -1) {
		server_log(s, 0, ss->result->peer, err);
		session_send_error(ss, err);
		return session_end(ss);
	}
	if ((m = calloc(1, sizeof(*m))) != NULL) {
		m->type = PROTO_RESULT;
		m->side = *mine;
		if ((m->has_side2 = ss->p.bidir))
			m->side2 = ss->is_tx ? ss->result->rreceiver :
			    ss->result->rsender;
		if (ctl_send(ss->ctl, m, session_keys(ss),
		    (int)s->lim->handshake_ms, err, sizeof(err)) != PROTO_OK)
			server_log(s, 0, ss->result->peer, err);
		free(m);
	}
	s->tests++;
	bidir_host(ss->result);
	role_prov_peer(ss->result);
	diag_run(ss->result);
	if (s->cfg->report_cb != NULL)
		s->cfg->report_cb(ss->result, s->cfg->report_arg);
	session_end(ss);
	if (s->cfg->once)
		event_base_loopbreak(s->base);
	return SS_ENDED;
}

/* The handlers, by the events they answer. */

/* Whatever its source, this event cannot reach this state. */
static enum session_state
h_ignore(struct session *ss, struct session_arg *a)
{
	(void)a;
	return ss->state;
}

/* SE_HELLO: accept a plain client; challenge one that has a key. */
static enum session_state
h_hello(struct session *ss, struct session_arg *a)
{
	char err[GB_ERR_LEN];

	if (!ss->authed)
		return session_accept(ss);
	/* Plain: the client derives the keys from this nonce. */
	a->reply->type = PROTO_CHALLENGE;
	auth_hex(ss->ns, sizeof(ss->ns), a->reply->nonce);
	if (ctl_send(ss->ctl, a->reply, NULL, (int)ss->srv->lim->handshake_ms,
	    err, sizeof(err)) != PROTO_OK)
		return session_fail(ss, err);
	return SS_CHALLENGED;
}

/* SE_AUTH_MSG while challenged: the key is proven. */
static enum session_state
h_auth_ok(struct session *ss, struct session_arg *a)
{
	(void)a;
	authlimit_ok(ss->srv->authlimit, ss->result->peer);
	server_log(ss->srv, 1, ss->result->peer, "key checked");
	return session_accept(ss);
}

/* Any other message while challenged: refused, counted. */
static enum session_state
h_auth_bad(struct session *ss, struct session_arg *a)
{
	struct server *s = ss->srv;
	char msg[2 * GB_ERR_LEN];

	authlimit_fail(s->authlimit, ss->result->peer, monotime_ms());
	snprintf(msg, sizeof(msg), "authentication failed: %s", a->err);
	server_log(s, 0, ss->result->peer, msg);
	ctl_send_simple(ss->ctl, PROTO_REFUSE, PROTO_REFUSE_AUTH,
	    "authentication failed: the keys differ, or the exchange was "
	    "altered on the way");
	return session_end(ss);
}

/* A message this state does not take: tell the client, fail. */
static enum session_state
h_unexpected(struct session *ss, struct session_arg *a)
{
	if (a->rc == PROTO_OK)
		snprintf(a->err, GB_ERR_LEN, "unexpected %s message",
		    proto_type_str(a->m->type));
	return session_fail(ss, a->err);
}

/* SE_DONE_MSG: the client's figures. */
static void
take_figures(struct session *ss, const struct proto_msg *m)
{
	struct gb_result *r = ss->result;

	if (ss->is_tx)
		r->receiver = m->side;
	else
		r->sender = m->side;
	/* --bidir: a client without its other half sent nothing there. */
	if (ss->p.bidir && m->has_side2)
		*(ss->is_tx ? &r->rsender : &r->rreceiver) = m->side2;
	event_del(ss->timer);
}

static enum session_state
h_done_early(struct session *ss, struct session_arg *a)
{
	take_figures(ss, a->m);
	return SS_GOT_DONE;
}

static enum session_state
h_done_last(struct session *ss, struct session_arg *a)
{
	take_figures(ss, a->m);
	return session_finish(ss);
}

/* SE_CTL_LOST, and the deadlines. */
static enum session_state
h_lost(struct session *ss, struct session_arg *a)
{
	return session_fail(ss, a->err);
}

static enum session_state
h_late_proof(struct session *ss, struct session_arg *a)
{
	(void)a;
	return session_unfinished(ss, "the handshake did not complete in "
	    "time (--handshake-timeout)");
}

static enum session_state
h_late_data(struct session *ss, struct session_arg *a)
{
	char why[GB_ERR_LEN];

	(void)a;
	snprintf(why, sizeof(why), "data connections did not arrive in time "
	    "(%u of %u within --handshake-timeout)", ss->nfds,
	    (unsigned)params_conns(&ss->p));
	return session_unfinished(ss, why);
}

static enum session_state
h_late_figures(struct session *ss, struct session_arg *a)
{
	(void)a;
	return session_fail(ss, "the client's figures did not arrive in "
	    "time");
}

/* SE_DATA where no stream is awaited. */
static enum session_state
h_data_refused(struct session *ss, struct session_arg *a)
{
	if (a->pc != NULL)	/* a datagram is never answered */
		server_data_refused(a->pc);
	return ss->state;
}

/* -u: a stream's hello datagram while accepted. */
static enum session_state
h_dgram(struct session *ss, struct session_arg *a)
{
	char err[GB_ERR_LEN];
	int fd;

	if ((fd = session_dgram_stream(ss, a, err, sizeof(err))) == -2) {
		server_log(ss->srv, 1, ss->result->peer, err);
		return ss->state;
	}
	if (fd == -1)
		return session_fail(ss, err);
	ss->fds[a->m->stream] = fd;
	if (++ss->nfds < params_conns(&ss->p))
		return ss->state;
	return session_start(ss);	/* the greeter stays: strays */
}

/*
 * A token seen on the wire is no use from another host: pc, from
 * another address than the test's, is dropped (-1).
 */
int
session_from_peer(struct session *ss, struct pconn *pc)
{
	char err[GB_ERR_LEN];

	if (strcmp(pc->peer, ss->result->peer) == 0)
		return 0;
	snprintf(err, sizeof(err), "data connection from %s, not from the "
	    "test's address %s: closed", pc->peer, ss->result->peer);
	server_log(ss->srv, 0, pc->peer, err);
	pending_drop(pc);
	return -1;
}

/* SE_DATA while accepted: one more stream, the last one starts. */
static enum session_state
h_data(struct session *ss, struct session_arg *a)
{
	const struct proto_msg *m = a->m;
	struct pconn *pc = a->pc;
	struct gb_params probe;
	char err[GB_ERR_LEN];
	int fd;

	/* A stream's socket is a UDP one's hello, or a TCP connection. */
	if (!session_token_equal(m->token, ss->token) ||
	    m->stream >= params_conns(&ss->p) || ss->fds[m->stream] != -1 ||
	    params_conn_udp(&ss->p, m->stream) != (pc == NULL)) {
		if (pc == NULL && m->stream < params_conns(&ss->p) &&
		    !params_conn_udp(&ss->p, m->stream))
			ss->dg_stray++;		/* a hello again is not */
		return pc != NULL ? h_data_refused(ss, a) : ss->state;
	}
	if (pc == NULL)
		return h_dgram(ss, a);
	fd = pc->fd;
	if (session_from_peer(ss, pc) == -1)
		return ss->state;
	pending_take(pc);
	if (sock_set_nonblock(fd, 0) == -1 ||
	    sock_apply(fd, params_conn_params(&ss->p, m->stream, &probe),
	    params_conn_tx(&ss->p, m->stream, ss->is_tx), err,
	    sizeof(err)) == -1) {
		close(fd);
		return session_fail(ss, err);
	}
	ss->fds[m->stream] = fd;
	if (++ss->nfds == params_conns(&ss->p))
		return session_start(ss);
	return ss->state;
}

/*
 * SE_XFER_DONE while running: a stream that failed (a silent or
 * vanished peer) ends the session now: waiting for the client's figures
 * would keep the listener busy for another timeout.
 */
static enum session_state
h_xfer_done(struct session *ss, struct session_arg *a)
{
	struct timeval tv = ms_tv(ss->srv->lim->silent_ms);
	char why[GB_ERR_LEN];

	(void)a;
	if (xfer_failed(ss->x, why, sizeof(why))) {
		server_log(ss->srv, 0, ss->result->peer, why);
		session_send_error(ss, why);
		return session_end(ss);
	}
	evtimer_add(ss->timer, &tv);
	return SS_XFER_DONE;
}

static enum session_state
h_xfer_last(struct session *ss, struct session_arg *a)
{
	(void)a;
	return session_finish(ss);
}

static enum session_state
h_end(struct session *ss, struct session_arg *a)
{
	(void)a;
	return session_end(ss);
}

/*
 * SE_STOP (a->err: why the listener stops): the client is told first;
 * a transfer's threads stop before it is freed.
 */
static enum session_state
h_stop(struct session *ss, struct session_arg *a)
{
	const char *why = a->err != NULL ? a->err : "the listener was stopped";

	server_log(ss->srv, 0, ss->result->peer, why);
	if (ss->state != SS_ABORTING)
		session_send_error(ss, why);
	if (ss->x != NULL)
		xfer_abort(ss->x, why);
	return session_end(ss);
}

#define IGN	h_ignore

/* state x event: what each event does in each state (the diagram above). */
static const session_fn SESSION_TABLE[SS_NSTATES][SE_NEVENTS] = {
	/*		HELLO    AUTH_MSG      DONE_MSG      BAD_MSG
			CTL_LOST DATA          XFER_DONE     TIMEOUT
			STOP */
	[SS_NEW] = {	h_hello, IGN,          IGN,          IGN,
			h_lost,  h_data_refused, IGN,        h_late_proof,
			h_stop },
	[SS_CHALLENGED] = {
			IGN,     h_auth_ok,    h_auth_bad,   h_auth_bad,
			h_lost,  h_data_refused, IGN,        h_late_proof,
			h_stop },
	[SS_ACCEPTED] = {
			IGN,     h_unexpected, h_unexpected, h_unexpected,
			h_lost,  h_data,       IGN,          h_late_data,
			h_stop },
	[SS_RUNNING] = {
			IGN,     h_unexpected, h_done_early, h_unexpected,
			h_lost,  session_crr,  h_xfer_done,  h_late_figures,
			h_stop },
	[SS_GOT_DONE] = {
			IGN,     h_unexpected, h_unexpected, h_unexpected,
			h_lost,  h_data_refused, h_xfer_last, h_late_figures,
			h_stop },
	[SS_XFER_DONE] = {
			IGN,     h_unexpected, h_done_last,  h_unexpected,
			h_lost,  h_data_refused, IGN,        h_late_figures,
			h_stop },
	[SS_ABORTING] = {
			IGN,     IGN,          IGN,          IGN,
			IGN,     h_data_refused, h_end,      h_late_figures,
			h_stop },
};

#undef IGN

void
session_event(struct session *ss, enum session_event ev,
    struct session_arg *a)
{
	enum session_state next;

	next = SESSION_TABLE[ss->state][ev](ss, a);
	if (next != SS_ENDED)
		ss->state = next;
}

/* The control connection: a message is one event, a failure another. */
static void
on_session_ctl(evutil_socket_t fd, short what, void *arg)
{
	struct session *ss = arg;
	struct session_arg a = { 0 };
	enum session_event ev = SE_BAD_MSG;
	struct proto_msg *m = NULL;
	char err[GB_ERR_LEN];
	int rc;

	(void)what;
	a.err = err;
	rc = ctl_read_some(fd, &ss->rd, err, sizeof(err));
	if (rc == 0)
		return;
	if (rc > 0 && (m = malloc(sizeof(*m))) == NULL)
		snprintf(err, sizeof(err), "out of memory");
	if (m == NULL) {
		session_event(ss, SE_CTL_LOST, &a);
		return;
	}
	a.rc = ctl_decode(&ss->rd, session_keys(ss), m, err, sizeof(err));
	proto_reader_reset(&ss->rd);
	if (a.rc == PROTO_OK && m->type == PROTO_AUTH)
		ev = SE_AUTH_MSG;
	else if (a.rc == PROTO_OK && m->type == PROTO_DONE)
		ev = SE_DONE_MSG;
	a.m = m;
	session_event(ss, ev, &a);
	free(m);
}

static void
on_session_timer(evutil_socket_t fd, short what, void *arg)
{
	struct session_arg a = { 0 };

	(void)fd;
	(void)what;
	session_event(arg, SE_TIMEOUT, &a);
}

/* The session's sockets, events and figures; ss->ctl is pc->fd. */
static int
session_init(struct session *ss, const struct pconn *pc,
    const struct proto_msg *hm)
{
	struct server *s = ss->srv;
	unsigned i;

	ss->state = SS_NEW;
	ss->ctl = pc->fd;
	ss->p = hm->params;
	bounds_apply(s->lim, &ss->p);
	/* A peer that vanishes (not one that just stops) is noticed. */
	sock_set_keepalive(ss->ctl, (int)s->lim->silent_ms);
	ss->is_tx = hm->params.direction == GB_DIR_CLIENT_RECEIVES;
	for (i = 0; i < GB_MAX_FLOWS; i++)
		ss->fds[i] = -1;
	ss->greeter = -1;
	ss->result->params = ss->p;
	ss->result->port = s->cfg->role.port;
	ss->result->local_is_sender = ss->is_tx;
	snprintf(ss->result->peer, sizeof(ss->result->peer), "%s", pc->peer);
	role_prov_start(&s->cfg->role, ss->result, ss->ctl, hm->version);
	proto_reader_init(&ss->rd);
	ss->ctl_ev = event_new(s->base, ss->ctl, EV_READ | EV_PERSIST,
	    on_session_ctl, ss);
	ss->timer = evtimer_new(s->base, on_session_timer, ss);
	if (ss->ctl_ev != NULL && ss->timer != NULL)
		return 0;
	if (ss->ctl_ev != NULL)
		event_free(ss->ctl_ev);
	if (ss->timer != NULL)
		event_free(ss->timer);
	return -1;
}

struct session *
session_new(struct server *s, const struct pconn *pc,
    const struct proto_msg *hm)
{
	struct session *ss;
	struct timeval tv = ms_tv(s->lim->handshake_ms);

	if ((ss = calloc(1, sizeof(*ss))) == NULL ||
	    (ss->result = calloc(1, sizeof(*ss->result))) == NULL) {
		free(ss);
		return NULL;
	}
	ss->srv = s;
	if (session_derive_keys(ss, pc, hm) == -1) {
		free(ss->result);
		free(ss);
		return NULL;
	}
	if (session_init(ss, pc, hm) == -1) {
		auth_session_wipe(&ss->auth);
		free(ss->result);
		free(ss);
		return NULL;
	}
	event_add(ss->ctl_ev, NULL);
	evtimer_add(ss->timer, &tv);
	ss->src = pc->key;
	session_enlist(s, ss);
	return ss;
}
