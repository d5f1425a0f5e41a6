/*
 * sender_dgram.h: private to sender.c and sender_dgram.c: the datagram
 * paths' rows of the sender's table (sendmmsg, gso).
 */
#ifndef GB_SENDER_DGRAM_H
#define GB_SENDER_DGRAM_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "data/stream.h"

int	sender_dg_open(struct stream_io *, char *err, size_t errlen);
int	sender_gso_open(struct stream_io *, char *err, size_t errlen);
int	sender_dg_send(struct stream_io *, atomic_int *stop, uint64_t nbuf);
int	sender_dg_finish(struct stream_io *);

#endif /* GB_SENDER_DGRAM_H */
