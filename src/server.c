/*
 * server.c: the listening side, all on one libevent loop.
 *
 * A new connection is a "pconn" (pending.c: accept, deadlines, caps) until
 * its first message says what it is: a hello makes it the control
 * connection of a new session (or gets a refusal: busy, or over one of the
 * listener's limits, bounds.c), a data message with the session's token
 * hands its socket to the session's data path.  The session runs the
 * transfer (xfer.c) within the listener's deadlines and byte caps,
 * collects the client's figures, sends its own back and passes both to
 * report_cb.  Any failure ends the session, never the server; only a
 * completed test ends a --once listener.
 */
#include <sys/random.h>
#include <sys/socket.h>

#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <event2/event.h>

#include "wire/authlimit.h"
#include "wire/ctl.h"
#include "base/diag.h"
#include "base/bounds.h"
#include "base/monotime.h"
#include "host/mtu.h"
#include "host/netif.h"
#include "wire/pending.h"
#include "out/report.h"
#include "run/server.h"
#include "host/sock.h"
#include "data/xfer.h"

struct server;

struct session {
	struct server		*srv;
	int			 ctl;
	struct event		*ctl_ev;
	struct event		*timer;
	struct proto_reader	 rd;
	struct gb_params	 p;
	int			 is_tx;
	struct auth_session	 auth;
	int			 authed;	/* --psk: auth is keyed */
	int			 accepted;	/* accept sent */
	char			 token[PROTO_TOKEN_LEN + 1];
	int			 fds[GB_MAX_STREAMS];
	unsigned		 nfds;
	struct xfer		*x;
	int			 xfer_done;
	int			 got_done;
	int			 failed;
	int			 mtu_changed;	/* restore at the end */
	struct gb_result	*result;
};

struct server {
	const struct server_config	*cfg;
	struct event_base		*base;
	const struct gb_bounds		*lim;
	int				 lfd;
	struct pending			*pd;	/* not yet identified */
	struct session			*sess;
	struct authlimit		*authlimit;	/* with --psk */
	int				 tests;
};

static void	session_end(struct session *);
static void	session_auth(struct session *, int, const char *);

static void
logmsg(const struct server *s, int level, const char *peer, const char *msg)
{
	if (s->cfg->opts->verbose >= level)
		fprintf(stderr, "gigebench: %s%s%s\n", peer != NULL ? peer : "",
		    peer != NULL ? ": " : "", msg);
}

static struct timeval
ms_tv(uint32_t ms)
{
	struct timeval tv = { ms / 1000, (ms % 1000) * 1000 };

	return tv;
}

static struct auth_session *
keys(struct session *ss)
{
	return ss->authed ? &ss->auth : NULL;
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
	ctl_send(ss->ctl, m, keys(ss), 1000, err, sizeof(err));
	free(m);
}

static int
token_equal(const char *a, const char *b)
{
	unsigned char d = 0;
	size_t i;

	/* Constant time: the token is the only proof a stream belongs. */
	for (i = 0; i < PROTO_TOKEN_LEN; i++)
		d |= (unsigned char)(a[i] ^ b[i]);
	return d == 0;
}

static void
on_interval(const struct gb_interval *iv, int is_tx, void *arg)
{
	struct session *ss = arg;
	FILE *out = ss->srv->cfg->interval_out;

	if (out != NULL) {
		report_interval_line(out, iv, is_tx, ss->srv->cfg->opts->unit);
		fflush(out);
	}
}

static void
session_finish(struct session *ss)
{
	struct server *s = ss->srv;
	struct gb_side *mine;
	struct proto_msg *m;
	char err[GB_ERR_LEN];

	mine = ss->is_tx ? &ss->result->sender : &ss->result->receiver;
	if (xfer_finish(ss->x, mine, ss->result, err, sizeof(err)) == -1) {
		logmsg(s, 0, ss->result->peer, err);
		session_send_error(ss, err);
		session_end(ss);
		return;
	}
	if ((m = calloc(1, sizeof(*m))) != NULL) {
		m->type = PROTO_RESULT;
		m->side = *mine;
		if (ctl_send(ss->ctl, m, keys(ss), (int)s->lim->handshake_ms,
		    err, sizeof(err)) != PROTO_OK)
			logmsg(s, 0, ss->result->peer, err);
		free(m);
	}
	s->tests++;
	diag_run(ss->result);
	if (s->cfg->report_cb != NULL)
		s->cfg->report_cb(ss->result, s->cfg->arg);
	session_end(ss);
	if (s->cfg->opts->once)
		event_base_loopbreak(s->base);
}

static void
session_fail(struct session *ss, const char *why)
{
	logmsg(ss->srv, 0, ss->result->peer, why);
	if (ss->x != NULL && !ss->xfer_done) {
		/* Let the threads unwind; on_xfer_done ends the session. */
		ss->failed = 1;
		xfer_abort(ss->x, why);
		event_del(ss->ctl_ev);
		return;
	}
	session_end(ss);
}

static void
on_session_timer(evutil_socket_t fd, short what, void *arg)
{
	struct session *ss = arg;

	(void)fd;
	(void)what;
	session_fail(ss, ss->x == NULL ? "data connections did not arrive "
	    "in time" : "the client's figures did not arrive in time");
}

static void
on_xfer_done(void *arg)
{
	struct session *ss = arg;
	struct timeval tv = ms_tv(ss->srv->lim->silent_ms);
	char why[GB_ERR_LEN];

	ss->xfer_done = 1;
	/*
	 * A stream that failed (a silent or vanished peer) ends the session
	 * now: waiting for the client's figures would keep the listener busy
	 * for another timeout.
	 */
	if (!ss->failed && !ss->got_done && xfer_failed(ss->x, why,
	    sizeof(why))) {
		logmsg(ss->srv, 0, ss->result->peer, why);
		session_send_error(ss, why);
		ss->failed = 1;
	}
	if (ss->failed)
		session_end(ss);
	else if (ss->got_done)
		session_finish(ss);
	else
		evtimer_add(ss->timer, &tv);
}

static void
on_session_ctl(evutil_socket_t fd, short what, void *arg)
{
	struct session *ss = arg;
	struct proto_msg *m;
	char err[GB_ERR_LEN];
	int rc;

	(void)what;
	rc = ctl_read_some(fd, &ss->rd, err, sizeof(err));
	if (rc == 0)
		return;
	if (rc < 0) {
		session_fail(ss, err);
		return;
	}
	if ((m = malloc(sizeof(*m))) == NULL) {
		session_fail(ss, "out of memory");
		return;
	}
	rc = ctl_decode(&ss->rd, keys(ss), m, err, sizeof(err));
	proto_reader_reset(&ss->rd);
	if (!ss->accepted)
		session_auth(ss, rc == PROTO_OK && m->type == PROTO_AUTH, err);
	else if (rc == PROTO_OK && m->type == PROTO_DONE && ss->x != NULL &&
	    !ss->got_done) {
		ss->got_done = 1;
		if (ss->is_tx)
			ss->result->receiver = m->side;
		else
			ss->result->sender = m->side;
		event_del(ss->timer);
		if (ss->xfer_done)
			session_finish(ss);
	} else {
		if (rc == PROTO_OK)
			snprintf(err, sizeof(err), "unexpected %s message",
			    proto_type_str(m->type));
		session_send_error(ss, err);
		session_fail(ss, err);
	}
	free(m);
}

static void
session_start(struct session *ss)
{
	struct server *s = ss->srv;
	struct xfer_config xc = {
		.params = &ss->p, .is_tx = ss->is_tx, .fds = ss->fds,
		.roots = s->cfg->roots, .ifname = s->cfg->opts->iface,
		.port = s->cfg->opts->port,
		.silent_ms = s->lim->silent_ms,
		/* Whatever the client does, its test ends by these. */
		.deadline_ms = bounds_deadline_ms(s->lim, &ss->p),
		.stream_cap = bounds_stream_cap(&ss->p),
		.total_cap = bounds_total_cap(s->lim, &ss->p),
		.done_cb = on_xfer_done, .interval_cb = on_interval, .arg = ss,
	};
	struct proto_msg m;
	char err[GB_ERR_LEN];

	event_del(ss->timer);
	memset(&m, 0, sizeof(m));
	m.type = PROTO_START;
	/* Snapshot first, then tell the client to go. */
	if ((ss->x = xfer_start(s->base, &xc, err, sizeof(err))) == NULL ||
	    ctl_send(ss->ctl, &m, keys(ss), (int)s->lim->handshake_ms, err,
	    sizeof(err)) != PROTO_OK) {
		session_fail(ss, err);
		return;
	}
	logmsg(s, 1, ss->result->peer, "test started");
}

static void
session_end(struct session *ss)
{
	char err[GB_ERR_LEN];
	unsigned i;

	xfer_free(ss->x);
	for (i = 0; i < GB_MAX_STREAMS; i++)
		if (ss->fds[i] != -1)
			close(ss->fds[i]);
	event_free(ss->ctl_ev);
	event_free(ss->timer);
	proto_reader_reset(&ss->rd);
	auth_session_wipe(&ss->auth);
	close(ss->ctl);
	if (ss->mtu_changed && mtu_restore_all(err, sizeof(err)) == -1)
		logmsg(ss->srv, 0, NULL, err);
	ss->srv->sess = NULL;
	free(ss->result);
	free(ss);
}

/*
 * With --psk, the session key from the hello as it came (header and body)
 * and both nonces; the data token comes from it.  Else a random token.
 */
static int
session_keys(struct session *ss, const struct pconn *pc,
    const struct proto_msg *m, uint8_t ns[AUTH_NONCE_LEN])
{
	const struct auth_key *psk = ss->srv->cfg->psk;
	uint8_t rnd[PROTO_TOKEN_LEN / 2], nc[AUTH_NONCE_LEN], *hello;
	size_t len = PROTO_HEADER_LEN + pc->rd.h.length;

	if (psk == NULL) {
		if (getrandom(rnd, sizeof(rnd), 0) != (ssize_t)sizeof(rnd))
			return -1;
		auth_hex(rnd, sizeof(rnd), ss->token);
		return 0;
	}
	if ((hello = malloc(len)) == NULL ||
	    auth_unhex(m->nonce, nc, sizeof(nc)) == -1) {
		free(hello);
		return -1;
	}
	memcpy(hello, pc->rd.hdr, PROTO_HEADER_LEN);
	memcpy(hello + PROTO_HEADER_LEN, pc->rd.body, pc->rd.h.length);
	auth_nonce(ns);
	auth_session_init(&ss->auth, psk, nc, ns, hello, len, 0);
	free(hello);
	ss->authed = 1;
	auth_token(&ss->auth, ss->token);
	return 0;
}

static int
session_new(struct server *s, struct pconn *pc, const struct proto_msg *hm,
    uint8_t ns[AUTH_NONCE_LEN])
{
	const struct gb_params *p = &hm->params;
	struct session *ss;
	struct timeval tv = ms_tv(s->lim->handshake_ms);
	unsigned i;

	if ((ss = calloc(1, sizeof(*ss))) == NULL ||
	    (ss->result = calloc(1, sizeof(*ss->result))) == NULL) {
		free(ss);
		return -1;
	}
	ss->srv = s;
	if (session_keys(ss, pc, hm, ns) == -1) {
		free(ss->result);
		free(ss);
		return -1;
	}
	ss->ctl = pc->fd;
	ss->p = *p;
	bounds_apply(s->lim, &ss->p);
	/* A peer that vanishes (not one that just stops) is noticed. */
	sock_set_keepalive(ss->ctl, (int)s->lim->silent_ms);
	ss->is_tx = p->direction == GB_DIR_CLIENT_RECEIVES;
	for (i = 0; i < GB_MAX_STREAMS; i++)
		ss->fds[i] = -1;
	ss->result->params = ss->p;
	ss->result->port = s->cfg->opts->port;
	ss->result->local_is_sender = ss->is_tx;
	snprintf(ss->result->peer, sizeof(ss->result->peer), "%s", pc->peer);
	proto_reader_init(&ss->rd);
	ss->ctl_ev = event_new(s->base, ss->ctl, EV_READ | EV_PERSIST,
	    on_session_ctl, ss);
	ss->timer = evtimer_new(s->base, on_session_timer, ss);
	if (ss->ctl_ev == NULL || ss->timer == NULL) {
		if (ss->ctl_ev != NULL)
			event_free(ss->ctl_ev);
		if (ss->timer != NULL)
			event_free(ss->timer);
		auth_session_wipe(&ss->auth);
		free(ss->result);
		free(ss);
		return -1;
	}
	event_add(ss->ctl_ev, NULL);
	evtimer_add(ss->timer, &tv);
	s->sess = ss;
	return 0;
}

/*
 * A client asks for an MTU: only with --allow-mtu (it changes the host),
 * on the interface of -I or of the control connection.  mtu.c journals
 * the original; session_end() puts it back, after every test.
 */
static int
session_mtu(struct session *ss, uint32_t mtu, char *err, size_t errlen)
{
	const struct gb_opts *o = ss->srv->cfg->opts;
	struct sockaddr_storage sa;
	socklen_t len = sizeof(sa);
	char ifname[GB_IFNAME_LEN];
	int cur;

	if (!o->allow_mtu) {
		snprintf(err, errlen, "this listener does not change its MTU "
		    "(start it with --allow-mtu)");
		return -1;
	}
	if (o->iface != NULL)
		snprintf(ifname, sizeof(ifname), "%s", o->iface);
	else if (getsockname(ss->ctl, (struct sockaddr *)&sa, &len) == -1 ||
	    netif_name_for_addr((struct sockaddr *)&sa, ifname,
	    sizeof(ifname)) == -1) {
		snprintf(err, errlen, "the listener cannot find the test's "
		    "interface to set its MTU");
		return -1;
	}
	if (mtu_get(ifname, &cur, err, errlen) == -1)
		return -1;
	if (cur == (int)mtu)
		return 0;
	ss->mtu_changed = 1;
	return mtu_change(ifname, (int)mtu, err, errlen);
}

/*
 * --force-bufs on the listener's own sockets needs CAP_NET_ADMIN: a
 * listener without it refuses the test before any data (exit 3 on the
 * client) instead of failing at the first data connection.
 */
static int
session_force_bufs(const struct session *ss, char *err, size_t errlen)
{
	const struct gb_params *p = &ss->p;

	if (!p->force_bufs || (ss->is_tx ? p->sndbuf : p->rcvbuf) == 0 ||
	    sock_can_force_bufs(ss->is_tx) != 0)
		return 0;
	snprintf(err, errlen, "--force-bufs: this listener may not force "
	    "its %s buffer (%s needs CAP_NET_ADMIN)", ss->is_tx ? "send" :
	    "receive", ss->is_tx ? "SO_SNDBUFFORCE" : "SO_RCVBUFFORCE");
	return -1;
}

/*
 * The client is who it says (or no key is set): check what it asked of
 * this listener's privileges, set the MTU it asked for, then accept.
 * Nothing on the host changes before this point.
 */
static void
session_accept(struct session *ss)
{
	struct proto_msg *m;
	char err[GB_ERR_LEN];
	int rc = -1;

	if ((m = calloc(1, sizeof(*m))) == NULL) {
		session_end(ss);
		return;
	}
	if (session_force_bufs(ss, err, sizeof(err)) == -1 ||
	    (ss->p.mtu != 0 && session_mtu(ss, ss->p.mtu, err,
	    sizeof(err)) == -1)) {
		logmsg(ss->srv, 0, ss->result->peer, err);
		m->type = PROTO_REFUSE;
		m->refusal = PROTO_REFUSE_PARAMS;
		snprintf(m->message, sizeof(m->message), "%s", err);
		ctl_send(ss->ctl, m, keys(ss), 1000, err, sizeof(err));
	} else {
		m->type = PROTO_ACCEPT;
		memcpy(m->token, ss->token, sizeof(m->token));
		rc = ctl_send(ss->ctl, m, keys(ss),
		    (int)ss->srv->lim->handshake_ms, err,
		    sizeof(err)) == PROTO_OK ? 0 : -1;
		ss->accepted = 1;
	}
	free(m);
	if (rc == -1)
		session_fail(ss, err);
}

/* The client's auth message came (ok), or something else did. */
static void
session_auth(struct session *ss, int ok, const char *why)
{
	struct server *s = ss->srv;
	char msg[2 * GB_ERR_LEN];

	if (ok) {
		authlimit_ok(s->authlimit, ss->result->peer);
		logmsg(s, 1, ss->result->peer, "key checked");
		session_accept(ss);
		return;
	}
	authlimit_fail(s->authlimit, ss->result->peer, monotime_ms());
	snprintf(msg, sizeof(msg), "authentication failed: %s", why);
	logmsg(s, 0, ss->result->peer, msg);
	ctl_send_simple(ss->ctl, PROTO_REFUSE, PROTO_REFUSE_AUTH,
	    "authentication failed: the keys differ, or the exchange was "
	    "altered on the way");
	session_end(ss);
}

/* Why this listener will not start the test asked for, or NULL. */
static const char *
hello_refusal(const struct server *s, const struct pconn *pc,
    const struct proto_msg *m, int *code, char *buf, size_t len)
{
	int64_t wait;

	*code = PROTO_REFUSE_AUTH;
	if (s->cfg->psk != NULL && (wait = authlimit_blocked(s->authlimit,
	    pc->peer, monotime_ms())) > 0) {
		snprintf(buf, len, "too many failed authentications from %s; "
		    "try again in %lld s", pc->peer,
		    (long long)(wait + 999) / 1000);
		return buf;
	}
	if (s->cfg->psk != NULL && m->nonce[0] == '\0')
		return "this listener needs a pre-shared key: run the test "
		    "with --psk FILE";
	if (s->cfg->psk == NULL && m->nonce[0] != '\0')
		return "this listener has no pre-shared key: run the test "
		    "without --psk, or start the listener with --psk FILE";
	*code = PROTO_REFUSE_PARAMS;
	if (m->params.direction == GB_DIR_CLIENT_RECEIVES &&
	    s->cfg->psk == NULL && !s->cfg->opts->allow_reverse)
		return "this listener does not transmit to clients (start it "
		    "with --allow-reverse or --psk FILE)";
	if (bounds_check(s->lim, &m->params, buf, len) == -1)
		return buf;
	return NULL;
}

static void
pconn_hello(struct server *s, struct pconn *pc, const struct proto_msg *m)
{
	struct proto_msg *reply;
	uint8_t ns[AUTH_NONCE_LEN];
	const char *why;
	char err[GB_ERR_LEN];
	int code;

	if (s->sess != NULL) {
		logmsg(s, 1, pc->peer, "refused: busy");
		ctl_send_simple(pc->fd, PROTO_REFUSE, PROTO_REFUSE_BUSY,
		    "the listener is busy with another test; try again later");
		pending_drop(pc);
		return;
	}
	if ((why = hello_refusal(s, pc, m, &code, err, sizeof(err))) != NULL) {
		logmsg(s, 0, pc->peer, why);
		ctl_send_simple(pc->fd, PROTO_REFUSE, code, why);
		pending_drop(pc);
		return;
	}
	if ((reply = calloc(1, sizeof(*reply))) == NULL ||
	    session_new(s, pc, m, ns) == -1) {
		free(reply);
		ctl_send_simple(pc->fd, PROTO_ERROR, 0, "listener out of memory");
		pending_drop(pc);
		return;
	}
	pending_take(pc);	/* the socket is the session's now */
	if (!s->sess->authed)
		session_accept(s->sess);
	else {
		/* Plain: the client derives the keys from this nonce. */
		reply->type = PROTO_CHALLENGE;
		auth_hex(ns, sizeof(ns), reply->nonce);
		if (ctl_send(s->sess->ctl, reply, NULL,
		    (int)s->lim->handshake_ms, err,
		    sizeof(err)) != PROTO_OK)
			session_fail(s->sess, err);
	}
	free(reply);
}

static void
pconn_data(struct server *s, struct pconn *pc, const struct proto_msg *m)
{
	struct session *ss = s->sess;
	char err[GB_ERR_LEN];
	int fd = pc->fd;

	if (ss == NULL || !ss->accepted || ss->x != NULL ||
	    !token_equal(m->token, ss->token) ||
	    m->stream >= ss->p.streams || ss->fds[m->stream] != -1) {
		logmsg(s, 1, pc->peer, "data connection with an unknown "
		    "token or stream, closed");
		pending_drop(pc);
		return;
	}
	/* A token seen on the wire is no use from another host. */
	if (strcmp(pc->peer, ss->result->peer) != 0) {
		snprintf(err, sizeof(err), "data connection from %s, not from "
		    "the test's address %s: closed", pc->peer,
		    ss->result->peer);
		logmsg(s, 0, pc->peer, err);
		pending_drop(pc);
		return;
	}
	pending_take(pc);
	if (sock_set_nonblock(fd, 0) == -1 ||
	    sock_apply(fd, &ss->p, ss->is_tx, err, sizeof(err)) == -1) {
		close(fd);
		session_fail(ss, err);
		return;
	}
	ss->fds[m->stream] = fd;
	if (++ss->nfds == ss->p.streams)
		session_start(ss);
}

/* A hello or a data message on a connection not yet identified. */
static void
on_pending_msg(struct pconn *pc, const struct proto_msg *m, void *arg)
{
	if (m->type == PROTO_HELLO)
		pconn_hello(arg, pc, m);
	else
		pconn_data(arg, pc, m);
}

static void
on_signal(evutil_socket_t sig, short what, void *arg)
{
	struct server *s = arg;

	(void)sig;
	(void)what;
	event_base_loopbreak(s->base);
}

int
server_run(const struct server_config *cfg, char *err, size_t errlen)
{
	struct server s;
	struct pending_config pc = { .msg_cb = on_pending_msg };
	struct event *sigint = NULL, *sigterm = NULL;
	char msg[512];
	int rc = -1;

	memset(&s, 0, sizeof(s));
	s.cfg = cfg;
	s.lim = &cfg->opts->bounds;
	if (cfg->psk != NULL && (s.authlimit = calloc(1,
	    sizeof(*s.authlimit))) == NULL) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	s.lfd = sock_listen(cfg->opts->bind_addr, cfg->opts->port,
	    cfg->opts->family, err, errlen);
	if (s.lfd == -1)
		goto out;
	if ((s.base = event_base_new()) == NULL) {
		snprintf(err, errlen, "cannot create the event loop");
		goto out;
	}
	pc.base = s.base;
	pc.lfd = s.lfd;
	pc.bounds = s.lim;
	pc.verbose = cfg->opts->verbose;
	pc.arg = &s;
	if ((s.pd = pending_new(&pc, err, errlen)) == NULL)
		goto out;
	sigint = evsignal_new(s.base, SIGINT, on_signal, &s);
	sigterm = evsignal_new(s.base, SIGTERM, on_signal, &s);
	if (sigint == NULL || sigterm == NULL) {
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	event_add(sigint, NULL);
	event_add(sigterm, NULL);
	if (cfg->opts->allow_mtu && mtu_restore_journals(msg,
	    sizeof(msg)) > 0)
		logmsg(&s, 0, NULL, msg);
	logmsg(&s, 1, NULL, "listening");
	event_base_dispatch(s.base);
	rc = 0;
out:
	if (s.sess != NULL) {
		if (s.sess->x != NULL)
			xfer_abort(s.sess->x, "listener stopped");
		session_end(s.sess);
	}
	pending_free(s.pd);
	if (sigint != NULL)
		event_free(sigint);
	if (sigterm != NULL)
		event_free(sigterm);
	if (s.base != NULL)
		event_base_free(s.base);
	if (s.lfd != -1)
		close(s.lfd);
	free(s.authlimit);
	return rc;
}
