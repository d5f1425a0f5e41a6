/*
 * server_session.h: private to the listener (server.c) and its session
 * (server_session.c).  The listener owns the listening socket, the
 * pending connections and the signals; the session owns one test from
 * its hello to its result, as a state machine driven by events
 * (server_session.c, server_accept.c); server_slot.c decides which
 * session holds the one test slot.  Nothing else includes this.
 */
#ifndef GB_SERVER_SESSION_H
#define GB_SERVER_SESSION_H

#include <stddef.h>
#include <stdint.h>

#include <event2/event.h>

#include "base/result.h"
#include "data/dgram.h"
#include "codec/proto.h"
#include "data/xfer.h"
#include "wire/auth.h"
#include "run/server.h"
#include "wire/authlimit.h"
#include "wire/pending.h"

/* The listener, as its session sees it. */
struct server {
	const struct server_config	*cfg;
	struct event_base		*base;
	const struct gb_bounds		*lim;
	int				 lfd;
	struct pending			*pd;	/* not yet identified */
	struct session			*sess;	/* running: holds the slot */
	struct session			*hs;	/* not yet running, oldest first */
	unsigned			 nhs;	/* how many of those */
	struct authlimit		*authlimit;	/* failed hellos */
	int				 tests;
};

/* What happens to a session (the columns of its table). */
enum session_event {
	SE_HELLO,	/* created from a hello: accept or challenge */
	SE_AUTH_MSG,	/* an auth message on the control connection */
	SE_DONE_MSG,	/* the client's figures */
	SE_BAD_MSG,	/* anything else, or one that does not decode */
	SE_CTL_LOST,	/* the control connection failed or closed */
	SE_DATA,	/* a data message with a token on a new connection */
	SE_XFER_DONE,	/* every stream has ended (xfer.c) */
	SE_TIMEOUT,	/* the session's deadline */
	SE_STOP,	/* the listener is stopping (signal, fatal error) */
	SE_NEVENTS
};

/* Where a session is (the rows of its table); server_session.c's diagram. */
enum session_state {
	SS_NEW,		/* made from a hello, nothing answered yet */
	SS_CHALLENGED,	/* --psk: challenge sent, the key not proven */
	SS_ACCEPTED,	/* accept sent, data connections arriving */
	SS_RUNNING,	/* every stream here, the transfer runs */
	SS_GOT_DONE,	/* the client's figures came, streams still run */
	SS_XFER_DONE,	/* the streams ended, the figures are awaited */
	SS_ABORTING,	/* failed: the streams are unwinding */
	SS_NSTATES,
	SS_ENDED = SS_NSTATES	/* freed: returned by handlers only */
};

struct session {
	struct server		*srv;
	enum session_state	 state;
	int			 ctl;
	struct event		*ctl_ev;
	struct event		*timer;
	struct proto_reader	 rd;
	struct gb_params	 p;
	int			 is_tx;
	struct auth_session	 auth;
	int			 authed;	/* --psk: auth is keyed */
	uint8_t			 ns[AUTH_NONCE_LEN];	/* our nonce */
	char			 token[PROTO_TOKEN_LEN + 1];
	int			 fds[GB_MAX_FLOWS];
	unsigned		 nfds;
	struct xfer		*x;
	int			 mtu_changed;	/* restore at the end */
	struct gb_result	*result;
	struct session		*next;	/* in srv->hs until it runs */
	struct srccap_key	 src;	/* its source, as pending.c keys it */
	/* -u (server_dgram.c): where the streams present the token. */
	int			 greeter;	/* -1: none */
	struct event		*greeter_ev;
	uint8_t			 dg_token[DGRAM_TOKEN_LEN];
	uint64_t		 dg_stray;	/* not this test's */
};

/*
 * Sessions not yet running (no slot held), in all and from one source
 * (an IPv4 address or an IPv6 /64): past the first, the oldest is ended
 * for a new hello; past the second, the new hello is refused.
 */
#define SESSION_MAX_HANDSHAKES		16
#define SESSION_MAX_HANDSHAKES_PER_SRC	4

/* An event's details; which members are set depends on the event. */
struct session_arg {
	const struct proto_msg	*m;	/* the message that came */
	struct proto_msg	*reply;	/* SE_HELLO: room for the reply */
	struct pconn		*pc;	/* SE_DATA: its connection, or */
	const struct sockaddr	*dg_src;	/* -u: the hello's source */
	socklen_t		 dg_srclen;
	char			*err;	/* GB_ERR_LEN: why, or room for it */
	int			 rc;	/* ctl_decode()'s, for messages */
};

/* server_signals.c: the listener's signals, on its loop (the table there). */
#define SERVER_NSIGNALS	12
struct server_signals {
	struct server	*s;
	struct event	*ev[SERVER_NSIGNALS];
	const char	*stopped_by;	/* "SIGTERM": a stop signal came */
};
int		 server_signals_start(struct server_signals *, struct server *);
void		 server_signals_stop(struct server_signals *);

/* server.c: drop a data connection that belongs to no test, saying so. */
void		 server_data_refused(struct pconn *);

/*
 * server_session.c: a session for the hello hm on pc (keys, token,
 * deadline), one of s->hs until it runs.  Its first event is SE_HELLO.
 * NULL when memory runs out.
 */
struct session	*session_new(struct server *, const struct pconn *,
		    const struct proto_msg *hm);
/* The one way into the state machine.  It may free ss. */
void		 session_event(struct session *, enum session_event,
		    struct session_arg *);
/*
 * A failure: tell the client why (an error message), then with streams
 * running abort them (SS_ABORTING), else end.
 */
enum session_state	session_fail(struct session *, const char *why);
/*
 * Before a hello becomes a session: why it is refused as busy (a test
 * runs, or its source has too many unfinished handshakes) into buf, or
 * NULL.  At SESSION_MAX_HANDSHAKES, ends the oldest unfinished one.
 */
const char	*session_room(struct server *, const struct pconn *,
		    char *buf, size_t len);
/*
 * A token seen on the wire is no use from another host: 0 when pc comes
 * from the test's address, else -1 (pc dropped, logged).
 */
int		 session_from_peer(struct session *, struct pconn *);
/*
 * server_xfer.c, SE_DATA while running: with --crr and the test's token,
 * a transaction's connection to its stream's answering thread; else
 * closed.
 */
enum session_state	session_crr(struct session *, struct session_arg *);
/* A data message on pc: to the session whose token it carries. */
void		 session_data(struct server *, struct pconn *,
		    const struct proto_msg *);
/*
 * The listener stops: every session is told why ("the listener was
 * stopped (SIGTERM)") and ended, its streams stopped first.
 */
void		 server_stop_sessions(struct server *, const char *why);

/*
 * server_accept.c: with --psk, the session key from the hello pc holds
 * and both nonces (ours into ss->ns); the data token from it.  Else a
 * random token.  0, or -1.
 */
int		 session_derive_keys(struct session *, const struct pconn *,
		    const struct proto_msg *hm);
/*
 * Check what the client asked of this listener's privileges, set its
 * MTU, send accept (SS_ACCEPTED) or a refusal (then ends, SS_ENDED).
 */
enum session_state	session_accept(struct session *);
/*
 * The session has every stream: it takes the slot (and changes the MTU
 * asked for), or, when another test holds it, is refused as busy and
 * ended.  0: it holds the slot; -1: ended.
 */
int		 session_take_slot(struct session *);
/*
 * Every stream is here (server_xfer.c): take the slot, start the
 * transfer and tell the client to go (SS_RUNNING), or fail.
 */
enum session_state	session_start(struct session *);
/* A new session joins s->hs, the sessions not yet running. */
void		 session_enlist(struct server *, struct session *);
/*
 * A hello that led to no test (no proof, no data connections, gone): a
 * failure against its source (authlimit, as a wrong key), then fail.
 */
enum session_state	session_unfinished(struct session *, const char *why);
/* Free everything, restore a changed MTU, leave s->sess or s->hs. */
enum session_state	session_end(struct session *);
/*
 * --mtu: may this listener set it (--allow-mtu, an interface it finds)?
 * With change, set it (mtu.c journals the original, session_end() puts
 * it back).  0, or -1 with err.
 */
int		 session_mtu(struct session *, int change, char *err,
		    size_t errlen);
/* A refusal on the control connection (sealed once keyed). */
void		 session_refuse(struct session *, int code, const char *text);
/* Out of s->sess or s->hs, whichever holds it (server_slot.c). */
void		 session_leave(struct session *);
/* Constant time: the data token is the only proof a stream belongs
   (server_slot.c). */
int		 session_token_equal(const char *a, const char *b);
/* Its control connection's keys (NULL: plain). */
struct auth_session	*session_keys(struct session *);
/* A log line, by level, for a peer (NULL: the listener itself). */
void		 server_log(const struct server *, int level,
		    const char *peer, const char *msg);

/*
 * server_dgram.c, -u.  After the accept: the greeter, whose hellos are
 * SE_DATA events with a->dg_src (any other datagram is a stray); closed
 * when the session ends.  session_dgram_stream: the stream's socket for such
 * an event, connected to its source; -2 (err says why) when the source
 * is not the test's address, -1 on failure.
 */
int	session_dgram_open(struct session *, char *err, size_t errlen);
void	session_dgram_close(struct session *);
int	session_dgram_stream(struct session *, const struct session_arg *,
	    char *err, size_t errlen);

#endif /* GB_SERVER_SESSION_H */
