/*
 * peerkind.h: what a connection that is not gigebench looks like, from
 * the first bytes it sent, for the one line a native listener logs
 * about it (issue 16): a classic ttcp sender (its -s pattern), another
 * raw stream, an iperf3 client (its 37-byte cookie), a nuttcp client
 * (its HELO line), HTTP, TLS, SSH, or nothing known.  Pure: bytes in, a
 * kind out.
 */
#ifndef GB_PEERKIND_H
#define GB_PEERKIND_H

#include <stddef.h>
#include <stdint.h>

enum peer_kind {
	PEER_UNKNOWN = 0,
	PEER_TTCP,	/* ttcp -s: " !\"#$%&'()*+,-./0123..." */
	PEER_RAW,	/* data of its own: ttcp without -s, nc, socat */
	PEER_IPERF3,
	PEER_NUTTCP,
	PEER_HTTP,
	PEER_TLS,
	PEER_SSH,
};

/* Bytes a classifier wants to tell them apart (it takes fewer). */
#define PEERKIND_BYTES	64

int		 peerkind_of(const uint8_t *, size_t);
/* "an iperf3 client (its 37-byte cookie)", with the hint where one is. */
const char	*peerkind_text(int kind);

#endif /* GB_PEERKIND_H */
