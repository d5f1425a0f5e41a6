/*
 * client_udp.c: the connecting side's UDP sockets (-u, and the UDP
 * probes of --under-load --probe-rate): each connected to the
 * listener's port, each presenting the test's token in a hello datagram
 * until the listener has every stream and says start.
 */
#include <sys/socket.h>

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>

#include "client_state.h"
#include "base/monotime.h"
#include "data/dgram.h"
#include "host/sock.h"
#include "wire/auth.h"
#include "wire/ctl.h"

/* -u: every stream's hello datagram, again each UDP_HELLO_MS. */
#define UDP_HELLO_MS	100

static int
udp_hellos(struct client *c, char *err, size_t errlen)
{
	struct dgram_hdr h = { .kind = DGRAM_HELLO };
	uint8_t buf[DGRAM_HDR_LEN];
	unsigned i;

	memcpy(h.token, c->dg_token, sizeof(h.token));
	for (i = 0; i < params_conns(c->p); i++) {
		if (!params_conn_udp(c->p, i))
			continue;
		h.stream = (uint16_t)i;
		h.send_ns = monotime_ns();
		dgram_encode(&h, buf);
		if (send(c->fds[i], buf, sizeof(buf), MSG_NOSIGNAL) == -1 &&
		    errno != ECONNREFUSED && errno != ENOBUFS) {
			snprintf(err, errlen, "%s: UDP hello of stream %u: %s",
			    c->cfg->host, i, strerror(errno));
			return CLIENT_FAILED;
		}
	}
	return CLIENT_OK;
}

/*
 * -u, the UDP probes: their sockets, connected to the listener's port
 * (udp_start has them present the token).
 */
int
client_udp_streams(struct client *c, struct sock_addr *a, const char *token,
    char *err, size_t errlen)
{
	struct gb_params probe;
	struct sock_local l;
	unsigned i;

	if (auth_unhex(token, c->dg_token, sizeof(c->dg_token)) == -1) {
		snprintf(err, errlen, "%s sent a token that is not hex",
		    c->cfg->host);
		return CLIENT_FAILED;
	}
	for (i = 0; i < params_conns(c->p); i++)
		if (params_conn_udp(c->p, i) &&
		    (c->fds[i] = sock_udp_connect(a, client_data_local(c, i, &l),
		    params_conn_params(c->p, i, &probe),
		    params_conn_tx(c->p, i, c->is_tx), err, errlen)) == -1)
			return CLIENT_FAILED;
	return CLIENT_OK;
}

/*
 * Each UDP socket presents the token in a hello datagram until the
 * listener has every stream and says start (a hello can be lost: they
 * are sent again).
 */
int
client_udp_start(struct client *c, struct proto_msg *m, char *err,
    size_t errlen)
{
	int64_t deadline = monotime_ms() + GB_HANDSHAKE_MS;
	struct pollfd pfd = { .fd = c->ctl, .events = POLLIN };
	int rc;

	do {
		if ((rc = udp_hellos(c, err, errlen)) != CLIENT_OK)
			return rc;
		if (poll(&pfd, 1, UDP_HELLO_MS) == 1)
			return client_expect(c, PROTO_START, m, GB_HANDSHAKE_MS, err,
			    errlen);
	} while (monotime_ms() < deadline);
	snprintf(err, errlen, "%s did not start the UDP test within %d ms "
	    "(are UDP datagrams to port %u blocked?)", c->cfg->host,
	    GB_HANDSHAKE_MS, c->cfg->role.port);
	return CLIENT_FAILED;
}
