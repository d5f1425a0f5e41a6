/*
 * proto.h: the control protocol, encoded and decoded without touching a
 * socket (so it can be unit-tested and fuzzed).
 *
 * Every message is a 12-byte header followed by a JSON object body:
 *
 *	0      4        5     6       8              12
 *	| "GBCP" | version | type | flags=0 | body length (u32, big endian) |
 *
 * The body length is capped at PROTO_MAX_BODY and checked before anything
 * is allocated.  A reader asks for exactly the bytes of the current message
 * (proto_reader_want), so a data connection's hello is never read past: the
 * payload that follows it stays in the socket for the data path.
 *
 * Conversation (C = connecting side, L = listener):
 *	C->L hello {program, version, params}   L->C accept {token} | refuse
 *	C->L data {token, stream}  on each data connection, then payload
 *	L->C start {}                           both sides move data
 *	                    L->C interval {interval}, each -i slice
 *	C->L done {side}                        L->C result {side}
 *	    (--bidir: {side, side2}, the end's half that went the other way)
 *	either: error {message}
 *
 * With a pre-shared key (auth.h) the hello carries a nonce, the listener
 * answers with a challenge {nonce}, the client proves the key with an
 * auth {} message, and every later control message is sealed: the header
 * flag PROTO_F_MAC is set and the body ends in a PROTO_TAG_LEN-byte tag.
 */
#ifndef GB_PROTO_H
#define GB_PROTO_H

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "base/params.h"
#include "base/result.h"

#define PROTO_MAGIC		"GBCP"
#define PROTO_VERSION		1
#define PROTO_HEADER_LEN	12
#define PROTO_MAX_BODY		(64u * 1024)
#define PROTO_TOKEN_LEN		32	/* hex characters: 16 random bytes */
#define PROTO_NONCE_HEX		64	/* hex characters: 32 random bytes */
#define PROTO_F_MAC		0x0001	/* header flag: the body ends in a tag */
#define PROTO_TAG_LEN		32	/* HMAC-SHA256 */

enum proto_type {
	PROTO_HELLO = 1,
	PROTO_ACCEPT,
	PROTO_REFUSE,
	PROTO_DATA,
	PROTO_START,
	PROTO_DONE,
	PROTO_RESULT,
	PROTO_ERROR,
	PROTO_CHALLENGE,
	PROTO_AUTH,
	PROTO_INTERVAL,
	PROTO_TYPE_MAX = PROTO_INTERVAL
};

/* Why a header was rejected; the reader stops at the first. */
enum proto_status {
	PROTO_OK = 0,
	PROTO_E_MAGIC = -1,	/* not gigebench */
	PROTO_E_VERSION = -2,	/* gigebench, another protocol version */
	PROTO_E_TYPE = -3,
	PROTO_E_LENGTH = -4,	/* over PROTO_MAX_BODY */
	PROTO_E_BODY = -5,	/* body is not the JSON the type needs */
	PROTO_E_FLAGS = -6,	/* header flags other than PROTO_F_MAC */
	PROTO_E_AUTH = -7	/* a tag where none is expected, or a bad one */
};

enum proto_refusal {
	PROTO_REFUSE_BUSY = 1,
	PROTO_REFUSE_VERSION,
	PROTO_REFUSE_PARAMS,
	PROTO_REFUSE_PROTOCOL,
	PROTO_REFUSE_AUTH	/* key missing, unexpected or wrong */
};

struct proto_header {
	uint8_t		version;
	uint8_t		type;
	uint16_t	flags;
	uint32_t	length;
};

/* A decoded message; which members are set depends on type. */
struct proto_msg {
	int			type;
	char			version[32];		/* hello */
	struct gb_params	params;			/* hello */
	char			token[PROTO_TOKEN_LEN + 1]; /* accept, data */
	/* hello (empty: no key), challenge */
	char			nonce[PROTO_NONCE_HEX + 1];
	uint32_t		stream;			/* data */
	int			refusal;		/* refuse */
	char			message[256];		/* refuse, error */
	struct gb_side		side;			/* done, result */
	/* --bidir's done and result: the end's other half, "side2" */
	int			has_side2;
	struct gb_side		side2;
	struct gb_interval	interval;		/* interval */
};

/* Incremental reader: feed bytes, at most proto_reader_want() at a time. */
struct proto_reader {
	uint8_t			hdr[PROTO_HEADER_LEN];
	size_t			got;		/* bytes of hdr + body so far */
	struct proto_header	h;
	uint8_t			*body;		/* h.length bytes, once known */
	int			status;		/* enum proto_status */
};

void	proto_reader_init(struct proto_reader *);
void	proto_reader_reset(struct proto_reader *);	/* frees the body */
/* Bytes still needed for the current message (0 when complete or failed). */
size_t	proto_reader_want(const struct proto_reader *);
/*
 * Consume up to len bytes (never more than proto_reader_want()).  Returns
 * the count consumed, or -1 when the header was rejected (r->status says
 * why) or memory ran out.
 */
long	proto_reader_push(struct proto_reader *, const uint8_t *, size_t len);
int	proto_reader_done(const struct proto_reader *);
/*
 * Strip the tag of a complete sealed message into tag; the body and length
 * are then the plain message's.  -1 when the message is not sealed.
 */
int	proto_reader_take_tag(struct proto_reader *, uint8_t tag[PROTO_TAG_LEN]);
/*
 * Decode a complete message.  Returns a proto_status, message in err.  A
 * message still sealed (its tag not taken by auth_open) is PROTO_E_AUTH.
 */
int	proto_reader_decode(const struct proto_reader *, struct proto_msg *,
	    char *err, size_t errlen);

/* Pure header and body codec. */
void	proto_header_encode(uint8_t out[PROTO_HEADER_LEN], int type,
	    uint32_t length);
int	proto_header_decode(const uint8_t in[PROTO_HEADER_LEN],
	    struct proto_header *);
/* Mark an encoded header sealed: PROTO_F_MAC, length + PROTO_TAG_LEN. */
void	proto_header_seal(uint8_t hdr[PROTO_HEADER_LEN]);
int	proto_body_decode(int type, const uint8_t *body, size_t len,
	    struct proto_msg *, char *err, size_t errlen);

/*
 * Encode a message into a malloc'd buffer (header + body); *len gets its
 * size.  Returns NULL when memory runs out or the body passes the cap.
 */
uint8_t	*proto_encode(const struct proto_msg *, size_t *len);

const char *proto_status_str(int status);
const char *proto_type_str(int type);
const char *proto_refusal_str(int refusal);

#endif /* GB_PROTO_H */
