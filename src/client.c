/*
 * client.c: the connecting side.  Handshake and results use blocking
 * control I/O with deadlines (ctl.c); the transfer runs on a libevent loop
 * that also watches the control connection and SIGINT/SIGTERM, so a
 * listener that fails or vanishes mid-test ends the test promptly.  It
 * takes its own config (run/client.h), never the command line, and prints
 * nothing itself: trace lines and intervals go to the config's callbacks.
 */
#include <sys/socket.h>

#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <event2/event.h>

#include "run/client.h"
#include "client_state.h"
#include "wire/ctl.h"
#include "base/bidir.h"
#include "base/diag.h"
#include "base/monotime.h"
#include "host/mtu.h"
#include "host/sock.h"
#include "data/xfer.h"
#include "wire/auth.h"


/*
 * --mtu on this end: the interface of -I or of the control connection.
 * mtu.c journals the original and puts it back (mtu_restore_all) after
 * the test or the sweep, or from a signal handler.  An interface that
 * already has the MTU (loopback, where the listener just set it) is left
 * alone, so only one process owns its journal.
 */
static int
local_mtu(struct client *c, char *err, size_t errlen)
{
	char ifname[GB_IFNAME_LEN];
	int rc;

	rc = mtu_iface_differs(c->cfg->role.iface, c->ctl, (int)c->p->mtu,
	    ifname, sizeof(ifname), err, errlen);
	if (rc == MTU_IFACE_UNKNOWN) {
		snprintf(err, errlen, "--mtu: cannot find the interface of "
		    "the test; name it with -I");
		return CLIENT_FAILED;
	}
	if (rc == -1)
		return CLIENT_FAILED;
	if (rc == 0)
		return CLIENT_OK;
	if (mtu_change(ifname, (int)c->p->mtu, err, errlen) == -1)
		return CLIENT_FAILED;
	client_trace(c, "set the MTU", ifname);
	return CLIENT_OK;
}

/*
 * The hello, with a nonce when there is a key; then, with a key, the
 * challenge and our proof (auth.h).  Returns the accept in m.
 */
static int
hello(struct client *c, struct proto_msg *m, char *err, size_t errlen)
{
	uint8_t nc[AUTH_NONCE_LEN], ns[AUTH_NONCE_LEN], *buf;
	char sub[GB_ERR_LEN], token[PROTO_TOKEN_LEN + 1];
	size_t len;
	int rc;

	m->type = PROTO_HELLO;
	m->params = *c->p;
	if (c->cfg->role.psk != NULL) {
		auth_nonce(nc);
		auth_hex(nc, sizeof(nc), m->nonce);
	}
	if ((buf = proto_encode(m, &len)) == NULL) {
		snprintf(err, errlen, "out of memory");
		return CLIENT_FAILED;
	}
	client_trace(c, "sending", "hello");
	if (ctl_send_buf(c->ctl, buf, len, PROTO_HELLO, GB_HANDSHAKE_MS, sub,
	    sizeof(sub)) != PROTO_OK) {
		snprintf(err, errlen, "%s: %s", c->cfg->host, sub);
		free(buf);
		return CLIENT_FAILED;
	}
	if (c->cfg->role.psk != NULL) {
		if ((rc = client_expect(c, PROTO_CHALLENGE, m, GB_HANDSHAKE_MS, err,
		    errlen)) != CLIENT_OK) {
			free(buf);
			return rc;
		}
		auth_unhex(m->nonce, ns, sizeof(ns));	/* checked by proto.c */
		auth_session_init(&c->auth, c->cfg->role.psk, nc, ns, buf, len,
		    1);
		c->authed = 1;
		memset(m, 0, sizeof(*m));
		m->type = PROTO_AUTH;
		if ((rc = client_send(c, m, c->ctl, err, errlen)) != CLIENT_OK) {
			free(buf);
			return rc;
		}
	}
	free(buf);
	if ((rc = client_expect(c, PROTO_ACCEPT, m, GB_HANDSHAKE_MS, err, errlen)) !=
	    CLIENT_OK)
		return rc;
	if (c->authed) {
		auth_token(&c->auth, token);
		if (strcmp(token, m->token) != 0) {
			snprintf(err, errlen, "%s sent a data token that does "
			    "not come from the session key", c->cfg->host);
			return CLIENT_REFUSED;
		}
	}
	return CLIENT_OK;
}

/* Data stream i's end: -B, --bind-dev, and --cport + i. */
const struct sock_local *
client_data_local(const struct client *c, unsigned i, struct sock_local *l)
{
	const struct role_config *o = &c->cfg->role;

	l->addr = o->bind_addr;
	l->dev = o->bind_dev;
	l->port = o->cport != 0 ? (uint16_t)(o->cport + i) : 0;
	return l;
}

/*
 * --crr: each transaction's connection presents stream i's data message
 * again (the listener takes it as it took the stream's), from -B and
 * --bind-dev but any port.  --probe-crr: the probes' the same, kept at
 * their index among the probes (the load is no --crr then).
 */
static int
crr_config(struct client *c, const struct sock_addr *a, unsigned i,
    const struct proto_msg *m, char *err, size_t errlen)
{
	struct gb_params probe;

	if (!params_conn_params(c->p, i, &probe)->crr)
		return CLIENT_OK;
	if (i >= params_load_conns(c->p))
		i -= params_load_conns(c->p);
	c->crr.to = a;
	c->crr.local.addr = c->cfg->role.bind_addr;
	c->crr.local.dev = c->cfg->role.bind_dev;
	if ((c->crr_msg[i] = proto_encode(m, &c->crr.msglen[i])) == NULL) {
		snprintf(err, errlen, "out of memory");
		return CLIENT_FAILED;
	}
	c->crr.msg[i] = (const char *)c->crr_msg[i];
	return CLIENT_OK;
}

/*
 * -u without -l: a datagram fills the path MTU, less the IP and UDP
 * headers (28 bytes over IPv4, 48 over IPv6), as the control connection's
 * route has it.
 */
static int
udp_length(struct client *c, char *err, size_t errlen)
{
	int len;

	if (!c->params.udp || c->params.buflen != GB_DGRAM_FROM_MTU)
		return CLIENT_OK;
	/* The MTU the test sets (--mtu, --sweep mtu=), else the route's. */
	if ((len = sock_dgram_max(c->ctl, (int)c->params.mtu)) == -1) {
		snprintf(err, errlen, "cannot read the path MTU to %s for the "
		    "datagram length: give it with -l", c->cfg->host);
		return CLIENT_FAILED;
	}
	c->params.buflen = len > (int)GB_MAX_DGRAM ? GB_MAX_DGRAM :
	    len < (int)GB_MIN_DGRAM ? GB_MIN_DGRAM : (uint32_t)len;
	return CLIENT_OK;
}

static int
handshake(struct client *c, struct sock_addr *a, char *err, size_t errlen)
{
	struct proto_msg *m;
	struct gb_params probe;
	char token[PROTO_TOKEN_LEN + 1];
	struct sock_local l;
	unsigned i;
	int rc;

	if ((m = calloc(1, sizeof(*m))) == NULL) {
		snprintf(err, errlen, "out of memory");
		return CLIENT_FAILED;
	}
	if ((rc = hello(c, m, err, errlen)) != CLIENT_OK)
		goto out;
	memcpy(token, m->token, sizeof(token));
	/* The listener has set its MTU; now ours, before the data flows. */
	if (c->p->mtu != 0 && (rc = local_mtu(c, err, errlen)) != CLIENT_OK)
		goto out;
	if ((rc = client_nofile(c, err, errlen)) != CLIENT_OK)
		goto out;
	if (params_any_udp(c->p) &&
	    (rc = client_udp_streams(c, a, token, err, errlen)) != CLIENT_OK)
		goto out;
	for (i = 0; i < params_conns(c->p); i++) {
		if (params_conn_udp(c->p, i))
			continue;
		c->fds[i] = sock_connect(a, client_data_local(c, i, &l),
		    params_conn_params(c->p, i, &probe),
		    params_conn_tx(c->p, i, c->is_tx), GB_HANDSHAKE_MS, err,
		    errlen);
		if (c->fds[i] == -1) {
			rc = CLIENT_FAILED;
			goto out;
		}
		memset(m, 0, sizeof(*m));
		m->type = PROTO_DATA;
		memcpy(m->token, token, sizeof(m->token));
		m->stream = i;
		if ((rc = crr_config(c, a, i, m, err, errlen)) != CLIENT_OK ||
		    (rc = client_send(c, m, c->fds[i], err, errlen)) != CLIENT_OK)
			goto out;
	}
	rc = params_any_udp(c->p) ? client_udp_start(c, m, err, errlen) :
	    client_expect(c, PROTO_START, m, GB_HANDSHAKE_MS, err, errlen);
out:
	free(m);
	return rc;
}

static void
on_xfer_done(void *arg)
{
	struct client *c = arg;

	event_base_loopbreak(c->base);
}

static void
on_interval(const struct gb_interval *iv, int is_tx, void *arg)
{
	(void)is_tx;
	client_local_interval(arg, iv);
}

static void
on_progress(const struct gb_progress *pg, void *arg)
{
	const struct client *c = arg;

	c->cfg->role.progress_cb(pg, c->cfg->role.arg);
}

/*
 * The listener speaks during the transfer to send its -i slices and to
 * report an error; anything else ends the test.
 */
static void
on_ctl(evutil_socket_t fd, short what, void *arg)
{
	struct client *c = arg;
	struct proto_msg *m;
	char err[GB_ERR_LEN] = "out of memory", why[2 * GB_ERR_LEN];
	int rc;

	(void)what;
	rc = ctl_read_some(fd, &c->rd, err, sizeof(err));
	if (rc == 0)
		return;
	snprintf(why, sizeof(why), "listener: %s", err);
	if (rc == 1 && (m = malloc(sizeof(*m))) != NULL) {
		rc = ctl_decode(&c->rd, client_keys(c), m, err, sizeof(err));
		proto_reader_reset(&c->rd);
		if (rc == PROTO_OK && m->type == PROTO_INTERVAL) {
			client_peer_interval(c, &m->interval);
			free(m);
			return;
		}
		if (rc != PROTO_OK)
			snprintf(why, sizeof(why), "listener: %s", err);
		else if (m->type == PROTO_ERROR) {
			snprintf(why, sizeof(why), "listener: %s", m->message);
			c->told = 1;
		}
		else
			snprintf(why, sizeof(why), "listener: unexpected %s "
			    "message", proto_type_str(m->type));
		free(m);
	}
	xfer_abort(c->x, why);
}

static void
on_signal(evutil_socket_t sig, short what, void *arg)
{
	struct client *c = arg;

	(void)what;
	c->interrupted = 1;
	xfer_abort(c->x, sig == SIGINT ? "interrupted (SIGINT)" :
	    "terminated (SIGTERM)");
}

/*
 * Our streams failed before the listener's reason came (it closed them
 * as it sent it: its --max-bytes, its stop): when its error message
 * follows within a second, that is the reason to print.
 */
static void
listener_reason(struct client *c, char *err, size_t errlen)
{
	struct proto_msg *m;
	char sub[GB_ERR_LEN];

	if (c->told || (m = malloc(sizeof(*m))) == NULL)
		return;
	if (client_recv(c, m, 1000, sub, sizeof(sub)) == PROTO_OK &&
	    m->type == PROTO_ERROR)
		snprintf(err, errlen, "listener: %s", m->message);
	free(m);
}

/*
 * --bidir: this end's half that went the other way, into its side;
 * --under-load: the probes' figures.
 */
static int
finish_parts(struct client *c, struct gb_result *r, int partial, char *err,
    size_t errlen)
{
	struct xfer *rev = xfer_reverse(c->x);
	struct gb_side *side = c->is_tx ? &r->rreceiver : &r->rsender;

	if (xfer_probes(c->x) != NULL)
		xfer_probe_figures(xfer_probes(c->x), &r->probe);
	if (rev == NULL)
		return 0;
	if (partial)
		return xfer_finish_partial(rev, side, r, err, errlen);
	return xfer_finish(rev, side, r, err, errlen);
}

static int
transfer(struct client *c, struct gb_side *mine, struct gb_result *r,
    char *err, size_t errlen)
{
	struct xfer_config xc = {
		.params = c->p, .is_tx = c->is_tx, .fds = c->fds,
		.roots = c->cfg->role.roots, .ifname = c->cfg->role.iface,
		.port = c->cfg->role.port,
		.silent_ms = c->cfg->role.bounds->silent_ms,
		.done_cb = on_xfer_done, .interval_cb = on_interval, .arg = c,
		/* --bidir: one end's bytes would be half the story. */
		.progress_cb = c->cfg->role.progress_cb != NULL &&
		    !c->p->bidir ? on_progress : NULL,
		.dg_token = c->dg_token,
		.crr = c->p->crr || c->p->probe_crr ? &c->crr : NULL,
	};
	struct event *ctl_ev = NULL, *sigint = NULL, *sigterm = NULL;
	int rc = CLIENT_FAILED;

	if ((c->base = event_base_new()) == NULL) {
		snprintf(err, errlen, "cannot create the event loop");
		return CLIENT_FAILED;
	}
	role_started(&c->cfg->role, r);
	if ((c->x = xfer_start(c->base, &xc, err, errlen)) == NULL)
		goto out;
	ctl_ev = event_new(c->base, c->ctl, EV_READ | EV_PERSIST, on_ctl, c);
	sigint = evsignal_new(c->base, SIGINT, on_signal, c);
	sigterm = evsignal_new(c->base, SIGTERM, on_signal, c);
	if (ctl_ev == NULL || sigint == NULL || sigterm == NULL) {
		xfer_abort(c->x, "out of memory");
	} else {
		event_add(ctl_ev, NULL);
		event_add(sigint, NULL);
		event_add(sigterm, NULL);
	}
	event_base_dispatch(c->base);
	r->prov.end_us = walltime_us();
	/*
	 * A signal that came as the test ended was caught by libevent's
	 * handler, but the loop had already left: run it once more, with
	 * nothing but the signals left in it, so that a Ctrl-C then still
	 * ends a sweep instead of vanishing.
	 */
	if (ctl_ev != NULL)
		event_del(ctl_ev);
	event_base_loop(c->base, EVLOOP_NONBLOCK);
	if (c->interrupted) {
		/* What ran until Ctrl-C, this end's figures only. */
		xfer_failed(c->x, err, errlen);
		if (xfer_finish_partial(c->x, mine, r, err, errlen) == 0 &&
		    finish_parts(c, r, 1, err, errlen) == 0) {
			r->prov.interrupted = 1;
			client_flows(c, 1);
		}
		rc = CLIENT_INTERRUPTED;
	} else if (xfer_finish(c->x, mine, r, err, errlen) == 0 &&
	    finish_parts(c, r, 0, err, errlen) == 0) {
		rc = CLIENT_OK;
		client_flows(c, 0);
	} else
		listener_reason(c, err, errlen);
out:
	if (ctl_ev != NULL)
		event_free(ctl_ev);
	if (sigint != NULL)
		event_free(sigint);
	if (sigterm != NULL)
		event_free(sigterm);
	xfer_free(c->x);
	c->x = NULL;
	event_base_free(c->base);
	return rc;
}

/*
 * Send our side, receive the listener's; with --bidir each end's other
 * half too, which the listener must send back.
 */
static int
exchange(struct client *c, const struct gb_side *mine, struct gb_side *peer,
    char *err, size_t errlen)
{
	struct gb_result *r = c->r;
	struct proto_msg *m;
	int rc;

	if ((m = calloc(1, sizeof(*m))) == NULL) {
		snprintf(err, errlen, "out of memory");
		return CLIENT_FAILED;
	}
	m->type = PROTO_DONE;
	m->side = *mine;
	if ((m->has_side2 = c->p->bidir))
		m->side2 = c->is_tx ? r->rreceiver : r->rsender;
	if ((rc = client_send(c, m, c->ctl, err, errlen)) == CLIENT_OK &&
	    (rc = client_expect(c, PROTO_RESULT, m,
	    (int)c->cfg->role.bounds->silent_ms + GB_HANDSHAKE_MS, err,
	    errlen)) == CLIENT_OK) {
		*peer = m->side;
		if (c->p->bidir && !m->has_side2) {
			snprintf(err, errlen, "%s sent no figures of the "
			    "reverse direction of a --bidir test",
			    c->cfg->host);
			rc = CLIENT_FAILED;
		} else if (c->p->bidir)
			*(c->is_tx ? &r->rsender : &r->rreceiver) = m->side2;
	}
	free(m);
	return rc;
}

int
client_run(const struct client_config *cfg, struct gb_result *r, char *err,
    size_t errlen)
{
	const struct role_config *o = &cfg->role;
	struct client c;
	struct sock_addr a;
	struct gb_side *mine, *peer;
	unsigned i;
	int rc = CLIENT_FAILED;

	memset(&c, 0, sizeof(c));
	c.cfg = cfg;
	c.params = *cfg->params;
	c.p = &c.params;
	c.is_tx = c.p->direction == GB_DIR_CLIENT_SENDS;
	c.ctl = -1;
	for (i = 0; i < GB_MAX_FLOWS; i++)
		c.fds[i] = -1;
	proto_reader_init(&c.rd);
	c.r = r;
	r->nintervals = r->npeer_intervals = 0;
	r->nrintervals = r->nrpeer_intervals = 0;
	r->params = *c.p;
	r->port = o->port;
	r->local_is_sender = c.is_tx;
	mine = c.is_tx ? &r->sender : &r->receiver;
	peer = c.is_tx ? &r->receiver : &r->sender;

	if (sock_resolve(cfg->host, o->port, o->family, &a, err, errlen) == -1)
		return CLIENT_FAILED;
	sock_ntop((struct sockaddr *)&a.ss, r->peer, sizeof(r->peer));
	c.ctl = sock_connect(&a, &(struct sock_local){ o->bind_addr,
	    o->bind_dev, 0 }, NULL, 0, GB_HANDSHAKE_MS, err,
	    errlen);
	if (c.ctl == -1)
		goto out;
	/* A listener that vanishes (not one that just stops) is noticed. */
	sock_set_keepalive(c.ctl, (int)o->bounds->silent_ms);
	client_trace(&c, "connected", r->peer);
	role_prov_start(o, r, c.ctl, NULL);
	if ((rc = udp_length(&c, err, errlen)) != CLIENT_OK)
		goto out;
	r->params = *c.p;
	if ((rc = handshake(&c, &a, err, errlen)) != CLIENT_OK)
		goto out;
	role_prov_data(r, c.fds, params_conns(c.p));
	if ((rc = transfer(&c, mine, r, err, errlen)) != CLIENT_OK) {
		if (r->prov.interrupted) {
			bidir_host(r);
			diag_run(r);
		}
		goto out;
	}
	if ((rc = exchange(&c, mine, peer, err, errlen)) == CLIENT_OK) {
		bidir_host(r);
		role_prov_peer(r);
		diag_run(r);
	}
out:
	client_flush_intervals(&c);
	for (i = 0; i < GB_MAX_FLOWS; i++)
		if (c.fds[i] != -1)
			close(c.fds[i]);
	for (i = 0; i < GB_MAX_FLOWS; i++)
		free(c.crr_msg[i]);
	if (c.ctl != -1)
		close(c.ctl);
	proto_reader_reset(&c.rd);
	auth_session_wipe(&c.auth);
	return rc;
}
