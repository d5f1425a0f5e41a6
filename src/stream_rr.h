/*
 * stream_rr.h: internal to the data paths (sender.c's and receiver.c's
 * tables): --rr's two loops, a row each, over a stream's blocking socket.
 */
#ifndef GB_STREAM_RR_H
#define GB_STREAM_RR_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "data/stream.h"

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
/*
 * --crr.  The asker: --rr's, and the data message before each request.
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
