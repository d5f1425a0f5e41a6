/*
 * receiver.h: the receive side of one stream: open its path (enum
 * gb_path: recv, skip_rx_copy, splice), receive to the end of the
 * stream, then tell the sender so.  Called by the stream engine
 * (xfer.c): open before the stream's thread starts, run and end on that
 * thread.
 */
#ifndef GB_RECEIVER_H
#define GB_RECEIVER_H

#include <stddef.h>

#include "data/stream.h"

/*
 * Set up path on fd: the buffer, SO_RCVLOWAT and its timeout slices, the
 * pipe; a wait on a peer silent for silent_ms fails.  -1 with err when
 * resources run out or path is not a receiver's.  io needs
 * stream_io_close even then.
 */
int	receiver_open(struct stream_io *, int fd, int path, size_t len,
	    int silent_ms, char *err, size_t errlen);
/*
 * Receive to the end of the stream; 0, or -1 with errno and io->what
 * (EAGAIN: the peer was silent for silent_ms).  A --skip-rx-copy whose
 * kernel copied after all ends with the plain path and io->note.  On a
 * non-blocking socket (io->nonblock) it returns an enum stream_want
 * where the socket would block and is called again to go on.
 */
int	receiver_run(struct stream_io *);
/*
 * Last, after the stream's figures are read: shut the write side down,
 * the FIN that ends the sender's wait (sender_run).
 */
void	receiver_end(struct stream_io *);

#endif /* GB_RECEIVER_H */
