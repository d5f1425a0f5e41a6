/*
 * server_dgram.c: the datagram side of a UDP session (-u) on the
 * listener, from its accept to its start.  A greeter socket on the
 * control connection's local address and port (sock_udp.c) waits for
 * each stream's hello datagram (dgram.h): the session's token, a stream
 * number not yet taken, and a source of the control connection's own
 * address.  Each such hello becomes the session's SE_DATA event, and the
 * stream a socket connected to that source alone, so the listener never
 * sends a datagram to an address that has not proven it holds the token
 * (no reflection, no amplification); anything else that reaches the
 * greeter is counted as stray (in the listener's side) and never
 * answered, not even by the kernel's ICMP port unreachable: the greeter
 * stays open until the session ends.  The state machine is
 * server_session.c's.
 */
#include <sys/socket.h>

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <event2/event.h>

#include "data/dgram.h"
#include "host/sock.h"
#include "server_session.h"
#include "wire/auth.h"

/* One datagram per call: the session may end in session_event. */
static void
on_greeter(evutil_socket_t fd, short what, void *arg)
{
	struct session *ss = arg;
	struct sockaddr_storage src;
	socklen_t srclen = sizeof(src);
	uint8_t buf[DGRAM_HDR_LEN + 64];
	struct proto_msg m;
	struct session_arg a;
	struct dgram_hdr h;
	char err[GB_ERR_LEN];
	ssize_t n;

	(void)what;
	n = recvfrom(fd, buf, sizeof(buf), MSG_DONTWAIT,
	    (struct sockaddr *)&src, &srclen);
	if (n < 0)
		return;
	if (dgram_decode(buf, (size_t)n, &h) != DGRAM_OK ||
	    h.kind != DGRAM_HELLO || !dgram_token_eq(&h, ss->dg_token)) {
		ss->dg_stray++;
		return;
	}
	memset(&m, 0, sizeof(m));
	memset(&a, 0, sizeof(a));
	m.type = PROTO_DATA;
	memcpy(m.token, ss->token, sizeof(m.token));
	m.stream = h.stream;
	a.m = &m;
	a.err = err;
	a.dg_src = (struct sockaddr *)&src;
	a.dg_srclen = srclen;
	session_event(ss, SE_DATA, &a);
}

int
session_dgram_open(struct session *ss, char *err, size_t errlen)
{
	if (auth_unhex(ss->token, ss->dg_token, sizeof(ss->dg_token)) == -1) {
		snprintf(err, errlen, "the session's token is not hex");
		return -1;
	}
	if ((ss->greeter = sock_udp_greeter(ss->ctl, err, errlen)) == -1)
		return -1;
	ss->greeter_ev = event_new(ss->srv->base, ss->greeter,
	    EV_READ | EV_PERSIST, on_greeter, ss);
	if (ss->greeter_ev == NULL || event_add(ss->greeter_ev, NULL) == -1) {
		snprintf(err, errlen, "out of memory for the UDP greeter");
		return -1;
	}
	return 0;
}

void
session_dgram_close(struct session *ss)
{
	if (ss->greeter_ev != NULL)
		event_free(ss->greeter_ev);
	ss->greeter_ev = NULL;
	if (ss->greeter != -1)
		close(ss->greeter);
	ss->greeter = -1;
}

int
session_dgram_stream(struct session *ss, const struct session_arg *a,
    char *err, size_t errlen)
{
	struct gb_params probe;
	char from[64];

	sock_ntop(a->dg_src, from, sizeof(from));
	if (strcmp(from, ss->result->peer) != 0) {
		snprintf(err, errlen, "a UDP stream's hello from %s, not from "
		    "the test's address %s: ignored", from, ss->result->peer);
		ss->dg_stray++;
		return -2;
	}
	return sock_udp_stream(ss->ctl, a->dg_src, a->dg_srclen,
	    params_conn_params(&ss->p, a->m->stream, &probe),
	    params_conn_tx(&ss->p, a->m->stream, ss->is_tx), err, errlen);
}
