/*
 * dgram.h: the header every gigebench UDP datagram starts with, its
 * encoding and decoding.  A contract between the two ends on the wire:
 * change both or neither, and bump DGRAM_VERSION when the layout moves.
 *
 * Wire layout, big-endian, DGRAM_HDR_LEN bytes; the payload follows:
 *
 *	offset  0  u32  magic 0x47424447 ("GBDG")
 *	offset  4  u8   version (DGRAM_VERSION)
 *	offset  5  u8   kind (enum dgram_kind)
 *	offset  6  u16  stream id
 *	offset  8  16   token: the test's, binary (a stray datagram of
 *	                another test has another one)
 *	offset 24  u64  seq: 0-based per stream, DATA only; 0 otherwise
 *	offset 32  u64  send time, CLOCK_MONOTONIC ns of the sender
 *
 * Pure: no I/O, no clock, no allocation.  dgram_stamp is inline because
 * the send loop calls it once per datagram, on a header encoded once.
 */
#ifndef GB_DGRAM_H
#define GB_DGRAM_H

#include <stddef.h>
#include <stdint.h>

#define DGRAM_MAGIC		UINT32_C(0x47424447)	/* "GBDG" */
#define DGRAM_VERSION		1
#define DGRAM_TOKEN_LEN		16
#define DGRAM_HDR_LEN		40
#define DGRAM_OFF_STREAM	6	/* a shared buffer's senders write */
#define DGRAM_OFF_SEQ		24	/* where dgram_stamp writes */
#define DGRAM_OFF_SEND_NS	32

enum dgram_kind {
	DGRAM_DATA = 0,
	DGRAM_HELLO = 1,	/* a stream's registration: client -> listener */
	DGRAM_ACK = 2,		/* listener -> client, the answer to a hello */
	DGRAM_END = 3,		/* the sender's last datagrams, repeated: no
				   more data on this stream */
};

struct dgram_hdr {
	uint8_t		kind;		/* enum dgram_kind */
	uint16_t	stream;
	uint8_t		token[DGRAM_TOKEN_LEN];
	uint64_t	seq;
	uint64_t	send_ns;
};

enum dgram_status {
	DGRAM_OK = 0,
	DGRAM_E_SHORT,		/* fewer than DGRAM_HDR_LEN bytes */
	DGRAM_E_MAGIC,		/* not a gigebench datagram */
	DGRAM_E_VERSION,	/* another version of this header */
	DGRAM_E_KIND,		/* a kind this version does not know */
};

/* Write h into out, all DGRAM_HDR_LEN bytes. */
void		 dgram_encode(const struct dgram_hdr *h,
		    uint8_t out[DGRAM_HDR_LEN]);
/*
 * Read the header at the start of buf (len bytes: the whole datagram may
 * be given).  Returns an enum dgram_status; *out is filled only on
 * DGRAM_OK.  The token is not checked here: see dgram_token_eq.
 */
int		 dgram_decode(const uint8_t *buf, size_t len,
		    struct dgram_hdr *out);
/* "ok", "shorter than a header", ...: for counters' and logs' names. */
const char	*dgram_status_str(int status);
/*
 * Is h's token the test's?  A datagram of the right shape with another
 * token is a stray (another test's, or a stranger's) and is counted
 * apart.  A plain memcmp: the token only tells tests apart, the control
 * connection's session proves who is who.
 */
int		 dgram_token_eq(const struct dgram_hdr *h,
		    const uint8_t token[DGRAM_TOKEN_LEN]);

/* Big-endian u64 at p: shared by dgram_stamp and dgram.c. */
static inline void
dgram_put_u64(uint8_t *p, uint64_t v)
{
	int	i;

	for (i = 7; i >= 0; i--) {
		p[i] = (uint8_t)v;
		v >>= 8;
	}
}

/*
 * The fields that change per datagram, in place in a header that
 * dgram_encode wrote once (the hot path): seq and send time, nothing
 * else.
 */
static inline void
dgram_stamp(uint8_t *buf, uint64_t seq, uint64_t send_ns)
{
	dgram_put_u64(buf + DGRAM_OFF_SEQ, seq);
	dgram_put_u64(buf + DGRAM_OFF_SEND_NS, send_ns);
}

/*
 * The stream id of a header encoded for another stream: a buffer that
 * the many-flow engine's flows share (the rest of it is the test's).
 */
static inline void
dgram_restream(uint8_t *buf, uint16_t stream)
{
	buf[DGRAM_OFF_STREAM] = (uint8_t)(stream >> 8);
	buf[DGRAM_OFF_STREAM + 1] = (uint8_t)stream;
}

#endif /* GB_DGRAM_H */
