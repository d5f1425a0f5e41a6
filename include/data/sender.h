/*
 * sender.h: the transmit side of one stream: open its path (enum
 * gb_path: send, zerocopy, sendfile), send until told to stop, then wait
 * for the receiver's FIN.  Called by the stream engine (xfer.c): open
 * before the stream's thread starts, run on that thread.
 */
#ifndef GB_SENDER_H
#define GB_SENDER_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "data/stream.h"

/*
 * Set up path on fd: buffers, -Z's ring, the memfd; a wait on a peer
 * silent for silent_ms fails.  A kernel that refuses -Z (SO_ZEROCOPY)
 * gives the plain path and io->note; -1 with err when resources run out
 * or path is not a sender's.  io needs stream_io_close even then.
 */
int	sender_open(struct stream_io *, int fd, int path, size_t len,
	    int silent_ms, char *err, size_t errlen);
/*
 * Send until *stop leaves STREAM_RUNNING or nbuf buffers (0: no limit)
 * are sent.  Unless the test was aborted (STREAM_STOP_ABORT), then shut
 * the write side down and wait for the receiver's FIN, so that the
 * stream ends when its last byte has arrived, and collect -Z's last
 * completions.  0, or -1 with errno and io->what.  On a non-blocking
 * socket (io->nonblock) it returns an enum stream_want where the socket
 * would block and is called again to go on from there (io->phase).
 */
int	sender_run(struct stream_io *, atomic_int *stop, uint64_t nbuf);

#endif /* GB_SENDER_H */
