/*
 * xfer.h: one test's data transfer on either end: worker threads moving
 * payload over raw sockets, a flow or many each (blocking, or
 * non-blocking in an epoll), and the libevent timers that
 * end it (duration), report on it (-i) and bound it (deadline).  It takes
 * the host snapshots right before the first byte and right after the last,
 * and fills one struct gb_side.
 */
#ifndef GB_XFER_H
#define GB_XFER_H

#include <event2/event.h>

#include "host/hoststat.h"
#include "host/sock.h"
#include "base/params.h"
#include "base/result.h"

/*
 * --crr, the connecting side: where each transaction connects, from
 * where (-B, --bind-dev; any port), and each stream's data message as
 * client.c encoded it (its token and stream number).
 */
struct xfer_crr {
	const struct sock_addr	*to;
	struct sock_local	 local;
	const char		*msg[GB_MAX_FLOWS];
	size_t			 msglen[GB_MAX_FLOWS];
};

/*
 * --bidir (params->bidir): fds holds params_conns() connections; the first
 * streams go the way is_tx says, the rest the other way, as a second
 * transfer on the same loop (xfer_reverse) with its own host samples.
 * done_cb comes once both have ended; an abort or a failed stream of
 * either stops both.
 */
struct xfer_config {
	const struct gb_params	*params;
	int			 is_tx;		/* this end sends */
	int			*fds;		/* params_conns(), owned now */
	const struct hoststat_roots *roots;
	const char		*ifname;	/* -I, or NULL: from fds[0] */
	uint16_t		 port;		/* the listener's, for --capture */
	/* -u: the test's token, as every datagram carries it (dgram.h). */
	const uint8_t		*dg_token;
	/* --crr, the connecting side (else NULL): kept until xfer_free. */
	const struct xfer_crr	*crr;
	/*
	 * --profile asked of a listener not started with --allow-profile:
	 * this end's profile is null, with the reason.
	 */
	int			 profile_refused;
	/* A peer silent this long ends the test (SO_RCVTIMEO, ...). */
	uint32_t		 silent_ms;
	/*
	 * From the start, the test is aborted after deadline_ms (0: its
	 * duration plus 3 silent_ms).  A stream that carries more than
	 * stream_cap bytes, or all streams more than total_cap, fails the
	 * test (0: no cap): the listener's bounds on a client that sends
	 * more than it asked for (bounds.h).
	 */
	uint64_t		 deadline_ms;
	uint64_t		 stream_cap;
	uint64_t		 total_cap;
	/*
	 * -u, receiving: bytes/s of payload all streams may bring
	 * (bounds_rate_cap; 0: none), checked four times a second.
	 */
	uint64_t		 rate_cap;
	/* Called from the event loop when every stream has ended. */
	void			(*done_cb)(void *);
	/* Called from the event loop for each -i interval. */
	void			(*interval_cb)(const struct gb_interval *,
				    int is_tx, void *);
	/* Called from the event loop each second; NULL: no progress. */
	void			(*progress_cb)(const struct gb_progress *,
				    void *);
	void			*arg;
};

struct xfer;

struct xfer	*xfer_start(struct event_base *, const struct xfer_config *,
		    char *err, size_t errlen);
/* After done_cb: did a stream fail or the test abort?  Why in why. */
int		 xfer_failed(const struct xfer *, char *why, size_t len);
/* Stop now (peer lost, signal): unblocks every stream. */
void		 xfer_abort(struct xfer *, const char *why);
/*
 * After done_cb: fill side and copy intervals into result (--bidir's
 * half going back: into its reverse intervals).  Returns -1
 * with the first stream's error (or the abort reason) in err.
 */
int		 xfer_finish(struct xfer *, struct gb_side *,
		    struct gb_result *, char *err, size_t errlen);
/*
 * The same for a test that was stopped (Ctrl-C): the figures of what ran
 * until then, whatever the streams' errors.  -1 only out of memory.
 */
int		 xfer_finish_partial(struct xfer *, struct gb_side *,
		    struct gb_result *, char *err, size_t errlen);
/*
 * --crr, the listener: a connection that presented stream's token, to
 * that stream's answering thread.  0: taken; -1: fd stays the caller's
 * (not a --crr test, no such stream, or its last one not yet taken; x
 * NULL: no such part).
 */
int		 xfer_crr_give(struct xfer *, unsigned stream, int fd);
/*
 * After xfer_finish: every flow's figures (n of them; NULL before),
 * the first GB_MAX_STREAMS of which the side holds too.
 */
const struct gb_stream *xfer_flows(const struct xfer *, unsigned *n);
/* --bidir: the half going the other way (for xfer_finish), else NULL. */
struct xfer	*xfer_reverse(struct xfer *);
/*
 * --under-load: the probes' transfer (params_probe's test, for
 * xfer_probe_figures), else NULL.
 */
struct xfer	*xfer_probes(struct xfer *);
/* After done_cb, of xfer_probes': the transactions and their latencies. */
void		 xfer_probe_figures(const struct xfer *, struct gb_probe *);
/* Join the threads and close the sockets (all parts). */
void		 xfer_free(struct xfer *);

#endif /* GB_XFER_H */
