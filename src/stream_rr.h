/*
 * stream_rr.h: internal to the data paths (sender.c's and receiver.c's
 * tables): --rr's two loops, a row each (stream_rr.c), -u --rr's
 * (stream_rr_dgram.c) and --crr's (stream_crr.c), each on a blocking
 * socket or stepped on the many-flow engine's non-blocking one.
 */
#ifndef GB_STREAM_RR_H
#define GB_STREAM_RR_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "data/stream.h"

/*
 * All len bytes to fd, counted but for the first skip; all len bytes
 * from fd (RR_FIN: a FIN before the first, when at_edge).  Resumed from
 * io->rr.sent / io->rr.got on a non-blocking socket (STREAM_WANT_*);
 * a deadline (ns on monotime, 0 none) bounds each wait.  0, or -1.
 */
#define RR_FIN	(STREAM_WANT_TIME + 1)
int	rr_send(struct stream_io *, int fd, const char *p, size_t len,
	    size_t skip, uint64_t deadline);
int	rr_recv(struct stream_io *, int fd, char *p, size_t len, int at_edge,
	    uint64_t deadline);
/* A transaction answered after lat_ns: its latency, counted. */
void	rr_done(struct stream_rr *, uint64_t lat_ns);

/* The asking end: buffers, the ring of send times, the histogram. */
int	rr_ask_open(struct stream_io *, char *err, size_t errlen);
/* Ask and await until stop, then await what is in flight. */
int	rr_ask(struct stream_io *, atomic_int *stop, uint64_t nbuf);
/* The answering end: its buffers. */
int	rr_answer_open(struct stream_io *, char *err, size_t errlen);
/* Read a request, answer it, until the asker's FIN. */
int	rr_answer(struct stream_io *);

/*
 * -u --rr (stream_rr_dgram.c): the same over a connected datagram
 * socket, each datagram with its header (dgram.h); the asker gives a
 * request up after rr.timeout_ms, the answerer answers only this
 * stream's requests of exactly rr.req bytes, and ends at the asker's END.
 */
int	rr_dg_ask_open(struct stream_io *, char *err, size_t errlen);
int	rr_dg_ask(struct stream_io *, atomic_int *stop, uint64_t nbuf);
int	rr_dg_answer_open(struct stream_io *, char *err, size_t errlen);
int	rr_dg_answer(struct stream_io *);
/* Where a --crr transaction is on the many-flow engine (stream_crr.c). */
enum crr_step {
	CRR_IDLE = 0,		/* between transactions */
	CRR_CONNECTING,		/* the asker's */
	CRR_ASKING,
	CRR_AWAITING,
	CRR_READING,		/* the answerer's */
	CRR_ANSWERING,
	CRR_CLOSING,
};

/*
 * --crr (stream_crr.c).  The asker: --rr's, and the data message before
 * each request.
 * Connect, ask, await, close, until stop.
 */
int	crr_ask_open(struct stream_io *, char *err, size_t errlen);
int	crr_ask(struct stream_io *, atomic_int *stop, uint64_t nbuf);
/* The answerer: its buffers and the eventfd that wakes it. */
int	crr_answer_open(struct stream_io *, char *err, size_t errlen);
/* Answer each connection handed over, until the stream's FIN. */
int	crr_answer(struct stream_io *);
/*
 * The event loop: fd, a connection of this stream's, to its answerer;
 * -1 (fd stays the caller's) when one is still waiting or the stream
 * is no --crr answerer.
 */
int	crr_give(struct stream_io *, int fd);
/*
 * The event loop, at an abort: the answerer leaves the connection it
 * serves (ECANCELED) or its wait for the next one; the asker's
 * transaction under way ends (its connection shut down).
 */
void	crr_abort(struct stream_io *);
/* stream_io_close: a connection never taken, the eventfd. */
void	crr_close(struct stream_io *);

#endif /* GB_STREAM_RR_H */
