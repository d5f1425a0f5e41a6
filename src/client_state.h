/*
 * client_state.h: internal to the connecting side (client.c): one test's
 * state, and the control conversation that client_ctl.c holds for it:
 * trace lines, the keys, sending a message and awaiting one, and the
 * listener's -i slices that come between, paired with ours into the
 * interval lines.
 */
#ifndef GB_CLIENT_STATE_H
#define GB_CLIENT_STATE_H

#include <stddef.h>
#include <stdint.h>

#include <event2/event.h>

#include "base/result.h"
#include "codec/proto.h"
#include "data/dgram.h"
#include "data/xfer.h"
#include "run/client.h"
#include "wire/auth.h"

struct client {
	const struct client_config	*cfg;
	const struct gb_params		*p;		/* &params */
	struct gb_params		 params;	/* -u: with -l filled */
	int				 is_tx;
	int				 ctl;
	int				 fds[GB_MAX_FLOWS];
	struct event_base		*base;
	struct xfer			*x;
	struct proto_reader		 rd;
	struct auth_session		 auth;
	int				 authed;	/* auth is keyed */
	int				 interrupted;
	int				 told;	/* the listener said why */
	int				 heard;	/* the peer has answered */
	struct gb_result		*r;
	unsigned			 shown;	/* interval lines printed */
	unsigned			 rshown;	/* --bidir's reverse ones */
	uint8_t				 dg_token[DGRAM_TOKEN_LEN];	/* -u */
	/* --crr: where each transaction connects, each stream's message */
	struct xfer_crr			 crr;
	uint8_t				*crr_msg[GB_MAX_FLOWS];
};

void	client_trace(const struct client *, const char *what,
	    const char *detail);
/* The control connection's keys once the handshake has made them. */
struct auth_session *client_keys(struct client *);
/*
 * The next message of type, taking the listener's interval messages that
 * come first; CLIENT_OK, or a CLIENT_ status with the reason in err.
 */
int	client_expect(struct client *, int type, struct proto_msg *,
	    int timeout_ms, char *err, size_t errlen);
/*
 * The next message whatever its type, interval messages taken as they
 * come: PROTO_OK or a ctl.h status, the reason in sub.
 */
int	client_recv(struct client *, struct proto_msg *, int timeout_ms,
	    char *sub, size_t sublen);
int	client_send(struct client *, struct proto_msg *, int fd, char *err,
	    size_t errlen);
/* -i: our slice k is in, or the listener's: print what can be. */
void	client_local_interval(struct client *, const struct gb_interval *);
void	client_peer_interval(struct client *, const struct gb_interval *);
/* The test is over: print every line left, with what has come. */
void	client_flush_intervals(struct client *);
/*
 * RLIMIT_NOFILE raised for a descriptor a flow; CLIENT_OK, or
 * CLIENT_FAILED with err when the hard limit does not let it.
 */
int	client_nofile(struct client *, char *err, size_t errlen);
/* Every flow's figures to cfg->flows_cb (--flow-csv), both halves. */
void	client_flows(struct client *, int partial);
/* Data stream i's end: -B, --bind-dev, and --cport + i, into l. */
const struct sock_local *client_data_local(const struct client *,
	    unsigned i, struct sock_local *l);
/*
 * client_udp.c: the UDP streams' sockets (token: the listener's, hex),
 * then their hellos until the listener says start (into m).
 */
int	client_udp_streams(struct client *, struct sock_addr *,
	    const char *token, char *err, size_t errlen);
int	client_udp_start(struct client *, struct proto_msg *, char *err,
	    size_t errlen);

#endif /* GB_CLIENT_STATE_H */
