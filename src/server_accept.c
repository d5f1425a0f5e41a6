/*
 * server_accept.c: what a listener's session does before and after its
 * test, outside its state machine (server_session.c): the keys and the
 * data token from the hello, the checks of what a client asks of this
 * listener (--force-bufs, the MTU, a congestion control its kernel has),
 * the accept or refusal, and the teardown that frees it all and puts a
 * changed MTU back.  It takes no decision about the session's state, and
 * changes nothing on the host (the MTU changes once the session holds
 * the slot, server_slot.c).
 */
#include <sys/random.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "host/mtu.h"
#include "host/sock.h"
#include "host/tcpcc.h"
#include "server_session.h"
#include "wire/ctl.h"

void
server_log(const struct server *s, int level, const char *peer,
    const char *msg)
{
	role_log(&s->cfg->role, level, peer, msg);
}

struct auth_session *
session_keys(struct session *ss)
{
	return role_keys(&ss->auth, ss->authed);
}

/*
 * With --psk, the session key from the hello as it came (header and body)
 * and both nonces; the data token comes from it.  Else a random token.
 */
int
session_derive_keys(struct session *ss, const struct pconn *pc,
    const struct proto_msg *m)
{
	const struct auth_key *psk = ss->srv->cfg->role.psk;
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
	auth_nonce(ss->ns);
	auth_session_init(&ss->auth, psk, nc, ss->ns, hello, len, 0);
	free(hello);
	ss->authed = 1;
	auth_token(&ss->auth, ss->token);
	return 0;
}

enum session_state
session_end(struct session *ss)
{
	char err[GB_ERR_LEN];
	unsigned i;

	xfer_free(ss->x);
	session_dgram_close(ss);
	for (i = 0; i < GB_MAX_FLOWS; i++)
		if (ss->fds[i] != -1)
			close(ss->fds[i]);
	event_free(ss->ctl_ev);
	event_free(ss->timer);
	proto_reader_reset(&ss->rd);
	auth_session_wipe(&ss->auth);
	close(ss->ctl);
	if (ss->mtu_changed && mtu_restore_all(err, sizeof(err)) == -1)
		server_log(ss->srv, 0, NULL, err);
	session_leave(ss);
	free(ss->result);
	free(ss);
	return SS_ENDED;
}

int
session_mtu(struct session *ss, int change, char *err, size_t errlen)
{
	const struct server_config *cfg = ss->srv->cfg;
	char ifname[GB_IFNAME_LEN];
	int rc;

	if (ss->p.mtu == 0)
		return 0;
	if (!cfg->allow_mtu) {
		snprintf(err, errlen, "this listener does not change its MTU "
		    "(start it with --allow-mtu)");
		return -1;
	}
	rc = mtu_iface_differs(cfg->role.iface, ss->ctl, (int)ss->p.mtu,
	    ifname, sizeof(ifname), err, errlen);
	if (rc == MTU_IFACE_UNKNOWN) {
		snprintf(err, errlen, "the listener cannot find the test's "
		    "interface to set its MTU");
		return -1;
	}
	if (rc <= 0 || !change)
		return rc < 0 ? -1 : 0;
	ss->mtu_changed = 1;
	return mtu_change(ifname, (int)ss->p.mtu, err, errlen);
}

/*
 * -C NAME: a congestion control this listener's kernel lacks would fail
 * its first stream; refuse it before any data.  A kernel whose list
 * cannot be read is left to setsockopt.
 */
static int
session_cc(const struct session *ss, char *err, size_t errlen)
{
	const struct hoststat_roots *roots = ss->srv->cfg->role.roots;
	char avail[256];

	if (ss->p.cc[0] == '\0' || tcpcc_available(roots != NULL &&
	    roots->procfs != NULL ? roots->procfs : "/proc", avail,
	    sizeof(avail)) == -1 || tcpcc_listed(avail, ss->p.cc))
		return 0;
	snprintf(err, errlen, "-C %s: this listener's kernel has no such "
	    "congestion control (it has: %.120s)", ss->p.cc, avail);
	return -1;
}

void
session_refuse(struct session *ss, int code, const char *text)
{
	struct proto_msg *m;
	char err[GB_ERR_LEN];

	if ((m = calloc(1, sizeof(*m))) == NULL)
		return;
	m->type = PROTO_REFUSE;
	m->refusal = code;
	snprintf(m->message, sizeof(m->message), "%s", text);
	ctl_send(ss->ctl, m, session_keys(ss), 1000, err, sizeof(err));
	free(m);
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
 * this listener (its privileges, its kernel), then accept.  Nothing on
 * the host changes here: the MTU only once the session holds the slot,
 * which a test of another MTU takes here, before its data connections.
 */
enum session_state
session_accept(struct session *ss)
{
	struct proto_msg *m;
	char err[GB_ERR_LEN];
	int rc;

	if (session_force_bufs(ss, err, sizeof(err)) == -1 ||
	    session_cc(ss, err, sizeof(err)) == -1 ||
	    session_mtu(ss, 0, err, sizeof(err)) == -1) {
		server_log(ss->srv, 0, ss->result->peer, err);
		session_refuse(ss, PROTO_REFUSE_PARAMS, err);
		return session_end(ss);
	}
	/*
	 * TCP fixes each connection's MSS when it connects: a test of
	 * another MTU needs it changed before its data connections, so such
	 * a session takes the slot now (with --psk its key is proven by
	 * now), not when its streams have arrived.
	 */
	if (ss->p.mtu != 0 && session_take_slot(ss) == -1)
		return SS_ENDED;
	if ((m = calloc(1, sizeof(*m))) == NULL)
		return session_end(ss);
	m->type = PROTO_ACCEPT;
	memcpy(m->token, ss->token, sizeof(m->token));
	rc = ctl_send(ss->ctl, m, session_keys(ss),
	    (int)ss->srv->lim->handshake_ms, err, sizeof(err));
	free(m);
	if (rc != PROTO_OK)
		return session_fail(ss, err);
	/* -u, UDP probes: the streams present the token on the greeter. */
	if (params_any_udp(&ss->p) &&
	    session_dgram_open(ss, err, sizeof(err)) == -1)
		return session_fail(ss, err);
	return SS_ACCEPTED;
}
