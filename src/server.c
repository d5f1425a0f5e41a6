/*
 * server.c: the listening side, all on one libevent loop: the listening
 * socket, the connections not yet identified, the refusals at the hello,
 * the signals.  Each test is a session (server_session.c, its state
 * machine; server_accept.c, its set-up and teardown).
 *
 * A new connection is a "pconn" (pending.c: accept, deadlines, caps) until
 * its first message says what it is: a hello makes it the control
 * connection of a new session (or gets a refusal: busy, or over one of the
 * listener's limits, bounds.c), a data message with the session's token
 * hands its socket to the session's data path.  Any failure ends the
 * session, never the server; only a completed test ends a once listener.
 * It prints nothing itself: log lines go to the config's callbacks.
 */
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <event2/event.h>

#include "base/bounds.h"
#include "base/monotime.h"
#include "host/mtu.h"
#include "host/sock.h"
#include "run/server.h"
#include "server_session.h"
#include "wire/authlimit.h"
#include "wire/ctl.h"
#include "wire/pending.h"

/* Why this listener will not start the test asked for, or NULL. */
static const char *
hello_refusal(const struct server *s, const struct pconn *pc,
    const struct proto_msg *m, int *code, char *buf, size_t len)
{
	int64_t wait;

	*code = PROTO_REFUSE_AUTH;
	if ((wait = authlimit_blocked(s->authlimit, pc->peer,
	    monotime_ms())) > 0) {
		snprintf(buf, len, "too many failed authentications from %s; "
		    "try again in %lld s", pc->peer,
		    (long long)(wait + 999) / 1000);
		return buf;
	}
	if (s->cfg->role.psk != NULL && m->nonce[0] == '\0')
		return "this listener needs a pre-shared key: run the test "
		    "with --psk FILE";
	if (s->cfg->role.psk == NULL && m->nonce[0] != '\0')
		return "this listener has no pre-shared key: run the test "
		    "without --psk, or start the listener with --psk FILE";
	*code = PROTO_REFUSE_PARAMS;
	/* -r, and --bidir's half that comes back: it transmits. */
	if (params_listener_sends(&m->params) &&
	    s->cfg->role.psk == NULL && !s->cfg->allow_reverse)
		return "this listener does not transmit to clients (start it "
		    "with --allow-reverse or --psk FILE)";
	/* --rr answers larger than the questions: a reverse test too. */
	if (m->params.rr && params_rr_size(m->params.resp_size) >
	    params_rr_size(m->params.req_size) && s->cfg->role.psk == NULL &&
	    !s->cfg->allow_reverse)
		return "this listener answers no --rr request with more bytes "
		    "than it asks (start it with --allow-reverse or --psk FILE)";
	if (bounds_check(s->lim, &m->params, buf, len) == -1)
		return buf;
	return pending_fd_refusal(s->pd, &m->params, buf, len);
}

static void
pconn_hello(struct server *s, struct pconn *pc, const struct proto_msg *m)
{
	struct session_arg a = { 0 };
	struct session *ss = NULL;
	const char *why;
	char err[GB_ERR_LEN];
	int code;

	if ((why = session_room(s, pc, err, sizeof(err))) != NULL) {
		pending_note(pc, "refused: busy");
		ctl_send_simple(pc->fd, PROTO_REFUSE, PROTO_REFUSE_BUSY, why);
		pending_drop(pc);
		return;
	}
	if ((why = hello_refusal(s, pc, m, &code, err, sizeof(err))) != NULL) {
		pending_note(pc, "refused: %s", why);
		ctl_send_simple(pc->fd, PROTO_REFUSE, code, why);
		pending_drop(pc);
		return;
	}
	if ((a.reply = calloc(1, sizeof(*a.reply))) == NULL ||
	    (ss = session_new(s, pc, m)) == NULL) {
		free(a.reply);
		ctl_send_simple(pc->fd, PROTO_ERROR, 0,
		    "listener out of memory");
		pending_drop(pc);
		return;
	}
	pending_take(pc);	/* the socket is the session's now */
	a.err = err;
	session_event(ss, SE_HELLO, &a);
	free(a.reply);
}

void
server_data_refused(struct pconn *pc)
{
	pending_note(pc, "data connection with an unknown token or stream, "
	    "closed");
	pending_drop(pc);
}

/* A data message: the session (if any) decides whether it belongs. */
static void
pconn_data(struct server *s, struct pconn *pc, const struct proto_msg *m)
{
	session_data(s, pc, m);
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

/*
 * Once, at default verbosity: where it listens, what it allows and its
 * limits, so that a listener's log says what it will do.
 */
static void
server_hello_line(const struct server *s)
{
	const struct server_config *cfg = s->cfg;
	struct gb_endpoints e;
	char lim[320], msg[640];

	sock_endpoints(s->lfd, &e);
	bounds_text(s->lim, lim, sizeof(lim));
	snprintf(msg, sizeof(msg), "listening on %s (TCP; UDP tests on the "
	    "same port); reverse tests %s, MTU changes %s, profiles %s, key "
	    "%s; %s", e.local[0] != '\0' ? e.local : "?",
	    cfg->allow_reverse ? "allowed" : cfg->role.psk != NULL ?
	    "with the key" : "refused", cfg->allow_mtu ? "allowed" :
	    "refused", cfg->allow_profile ? "allowed" : "refused",
	    cfg->role.psk != NULL ? "required" : "none", lim);
	role_info(&cfg->role, NULL, msg);
}

int
server_run(const struct server_config *cfg, char *err, size_t errlen)
{
	struct server s;
	struct pending_config pc = { .msg_cb = on_pending_msg };
	struct server_signals sig;
	char msg[512], why[64];
	int rc = -1;

	memset(&s, 0, sizeof(s));
	memset(&sig, 0, sizeof(sig));
	s.cfg = cfg;
	s.lim = cfg->role.bounds;
	if ((s.authlimit = calloc(1, sizeof(*s.authlimit))) == NULL) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	s.lfd = sock_listen(&(struct sock_local){ cfg->role.bind_addr,
	    cfg->role.bind_dev, 0 }, cfg->role.port, cfg->role.family, err,
	    errlen);
	if (s.lfd == -1)
		goto out;
	if ((s.base = event_base_new()) == NULL) {
		snprintf(err, errlen, "cannot create the event loop");
		goto out;
	}
	if (cfg->loop_cb != NULL)
		cfg->loop_cb(s.base, cfg->report_arg);
	pc.base = s.base;
	pc.lfd = s.lfd;
	pc.bounds = s.lim;
	pc.verbose = cfg->role.verbose;
	pc.quiet = cfg->role.quiet;
	pc.log_cb = cfg->role.log_cb;
	pc.log_arg = cfg->role.arg;
	pc.arg = &s;
	/* Before the caps are taken: a descriptor a flow. */
	(void)sock_raise_nofile(pending_fds_wanted(s.lim));
	if ((s.pd = pending_new(&pc, err, errlen)) == NULL)
		goto out;
	if (server_signals_start(&sig, &s) == -1) {
		snprintf(err, errlen, "cannot take the signals");
		goto out;
	}
	if (cfg->allow_mtu && mtu_restore_journals(msg,
	    sizeof(msg)) > 0)
		server_log(&s, 0, NULL, msg);
	server_hello_line(&s);
	event_base_dispatch(s.base);
	rc = 0;
out:
	snprintf(why, sizeof(why), "the listener was stopped%s%s%s",
	    sig.stopped_by != NULL ? " (" : "",
	    sig.stopped_by != NULL ? sig.stopped_by : "",
	    sig.stopped_by != NULL ? ")" : "");
	server_stop_sessions(&s, why);
	pending_free(s.pd);
	server_signals_stop(&sig);
	if (s.base != NULL && cfg->loop_cb != NULL)
		cfg->loop_cb(NULL, cfg->report_arg);
	if (s.base != NULL)
		event_base_free(s.base);
	if (s.lfd != -1)
		close(s.lfd);
	free(s.authlimit);
	return rc;
}
