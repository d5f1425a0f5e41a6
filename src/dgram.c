/*
 * dgram.c: the UDP datagram header (dgram.h has the layout), byte by
 * byte so that neither the host's byte order nor its alignment matters:
 * a received datagram's header may start anywhere in a batch buffer.
 *
 * Pure: never reads a clock, never does I/O, keeps no state.  Checks the
 * shape of a header only; whether its token, stream and seq belong to
 * the test is the receiver's to decide.
 */

#include <stdint.h>
#include <string.h>

#include "data/dgram.h"

#define DGRAM_OFF_MAGIC		0
#define DGRAM_OFF_VERSION	4
#define DGRAM_OFF_KIND		5
#define DGRAM_OFF_STREAM	6
#define DGRAM_OFF_TOKEN		8
#define DGRAM_KIND_MAX		DGRAM_END

static const char *const dgram_status_names[] = {
	[DGRAM_OK] = "ok",
	[DGRAM_E_SHORT] = "shorter than a header",
	[DGRAM_E_MAGIC] = "not a gigebench datagram (magic)",
	[DGRAM_E_VERSION] = "another header version",
	[DGRAM_E_KIND] = "unknown kind",
};
#define NDGRAM_STATUS	(sizeof(dgram_status_names) / \
			    sizeof(dgram_status_names[0]))

static uint64_t
dgram_get_u64(const uint8_t *p)
{
	uint64_t	v = 0;
	int		i;

	for (i = 0; i < 8; i++)
		v = v << 8 | p[i];
	return v;
}

static uint32_t
dgram_get_u32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	    (uint32_t)p[2] << 8 | p[3];
}

static void
dgram_put_u32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

void
dgram_encode(const struct dgram_hdr *h, uint8_t out[DGRAM_HDR_LEN])
{
	dgram_put_u32(out + DGRAM_OFF_MAGIC, DGRAM_MAGIC);
	out[DGRAM_OFF_VERSION] = DGRAM_VERSION;
	out[DGRAM_OFF_KIND] = h->kind;
	out[DGRAM_OFF_STREAM] = (uint8_t)(h->stream >> 8);
	out[DGRAM_OFF_STREAM + 1] = (uint8_t)h->stream;
	memcpy(out + DGRAM_OFF_TOKEN, h->token, DGRAM_TOKEN_LEN);
	dgram_stamp(out, h->seq, h->send_ns);
}

int
dgram_decode(const uint8_t *buf, size_t len, struct dgram_hdr *out)
{
	if (len < DGRAM_HDR_LEN)
		return DGRAM_E_SHORT;
	if (dgram_get_u32(buf + DGRAM_OFF_MAGIC) != DGRAM_MAGIC)
		return DGRAM_E_MAGIC;
	if (buf[DGRAM_OFF_VERSION] != DGRAM_VERSION)
		return DGRAM_E_VERSION;
	if (buf[DGRAM_OFF_KIND] > DGRAM_KIND_MAX)
		return DGRAM_E_KIND;
	out->kind = buf[DGRAM_OFF_KIND];
	out->stream = (uint16_t)(buf[DGRAM_OFF_STREAM] << 8 |
	    buf[DGRAM_OFF_STREAM + 1]);
	memcpy(out->token, buf + DGRAM_OFF_TOKEN, DGRAM_TOKEN_LEN);
	out->seq = dgram_get_u64(buf + DGRAM_OFF_SEQ);
	out->send_ns = dgram_get_u64(buf + DGRAM_OFF_SEND_NS);
	return DGRAM_OK;
}

const char *
dgram_status_str(int status)
{
	if (status < 0 || (size_t)status >= NDGRAM_STATUS)
		return "unknown status";
	return dgram_status_names[status];
}

int
dgram_token_eq(const struct dgram_hdr *h,
    const uint8_t token[DGRAM_TOKEN_LEN])
{
	return memcmp(h->token, token, DGRAM_TOKEN_LEN) == 0;
}
