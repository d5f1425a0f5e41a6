/*
 * proto.c: the control protocol codec (see proto.h for the wire format).
 *
 * It owns framing, the JSON bodies of each message type and the checks of
 * every field a peer sends: type, presence and range.  Everything a peer
 * says is validated here, once, before any other module sees it; a length
 * is checked against the cap before a byte is allocated for it.  No sockets,
 * no clocks, no globals.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "codec/interval_json.h"
#include "codec/member.h"
#include "codec/params_json.h"
#include "codec/proto.h"
#include "codec/side.h"
#include "base/safetext.h"
#include "base/version.h"

static const char *const type_names[] = {
	[PROTO_HELLO] = "hello",
	[PROTO_ACCEPT] = "accept",
	[PROTO_REFUSE] = "refuse",
	[PROTO_DATA] = "data",
	[PROTO_START] = "start",
	[PROTO_DONE] = "done",
	[PROTO_RESULT] = "result",
	[PROTO_ERROR] = "error",
	[PROTO_CHALLENGE] = "challenge",
	[PROTO_AUTH] = "auth",
	[PROTO_INTERVAL] = "interval",
};

static const char *const refusal_names[] = {
	[PROTO_REFUSE_BUSY] = "busy",
	[PROTO_REFUSE_VERSION] = "version",
	[PROTO_REFUSE_PARAMS] = "params",
	[PROTO_REFUSE_PROTOCOL] = "protocol",
	[PROTO_REFUSE_AUTH] = "authentication",
};

const char *
proto_type_str(int type)
{
	if (type < PROTO_HELLO || type > PROTO_TYPE_MAX)
		return "unknown";
	return type_names[type];
}

const char *
proto_refusal_str(int refusal)
{
	if (refusal < PROTO_REFUSE_BUSY || refusal > PROTO_REFUSE_AUTH)
		return "unknown";
	return refusal_names[refusal];
}

const char *
proto_status_str(int status)
{
	switch (status) {
	case PROTO_OK:
		return "ok";
	case PROTO_E_MAGIC:
		return "peer is not gigebench (bad magic)";
	case PROTO_E_VERSION:
		return "peer speaks another protocol version";
	case PROTO_E_TYPE:
		return "unknown message type";
	case PROTO_E_LENGTH:
		return "message length over the cap";
	case PROTO_E_BODY:
		return "malformed message body";
	case PROTO_E_FLAGS:
		return "header flags are not 0";
	case PROTO_E_AUTH:
		return "message authentication failed";
	}
	return "unknown status";
}

void
proto_header_encode(uint8_t out[PROTO_HEADER_LEN], int type, uint32_t length)
{
	memcpy(out, PROTO_MAGIC, 4);
	out[4] = PROTO_VERSION;
	out[5] = (uint8_t)type;
	out[6] = 0;
	out[7] = 0;
	out[8] = (uint8_t)(length >> 24);
	out[9] = (uint8_t)(length >> 16);
	out[10] = (uint8_t)(length >> 8);
	out[11] = (uint8_t)length;
}

int
proto_header_decode(const uint8_t in[PROTO_HEADER_LEN], struct proto_header *h)
{
	if (memcmp(in, PROTO_MAGIC, 4) != 0)
		return PROTO_E_MAGIC;
	h->version = in[4];
	h->type = in[5];
	h->flags = (uint16_t)(in[6] << 8 | in[7]);
	h->length = (uint32_t)in[8] << 24 | (uint32_t)in[9] << 16 |
	    (uint32_t)in[10] << 8 | in[11];
	if (h->version != PROTO_VERSION)
		return PROTO_E_VERSION;
	if (h->type < PROTO_HELLO || h->type > PROTO_TYPE_MAX)
		return PROTO_E_TYPE;
	if ((h->flags & ~PROTO_F_MAC) != 0)
		return PROTO_E_FLAGS;
	if (h->flags & PROTO_F_MAC) {
		if (h->length < PROTO_TAG_LEN ||
		    h->length - PROTO_TAG_LEN > PROTO_MAX_BODY)
			return PROTO_E_LENGTH;
	} else if (h->length > PROTO_MAX_BODY)
		return PROTO_E_LENGTH;
	return PROTO_OK;
}

void
proto_header_seal(uint8_t hdr[PROTO_HEADER_LEN])
{
	uint32_t length = (uint32_t)hdr[8] << 24 | (uint32_t)hdr[9] << 16 |
	    (uint32_t)hdr[10] << 8 | hdr[11];

	length += PROTO_TAG_LEN;
	hdr[6] = (uint8_t)(PROTO_F_MAC >> 8);
	hdr[7] = (uint8_t)PROTO_F_MAC;
	hdr[8] = (uint8_t)(length >> 24);
	hdr[9] = (uint8_t)(length >> 16);
	hdr[10] = (uint8_t)(length >> 8);
	hdr[11] = (uint8_t)length;
}

void
proto_reader_init(struct proto_reader *r)
{
	memset(r, 0, sizeof(*r));
}

void
proto_reader_reset(struct proto_reader *r)
{
	free(r->body);
	proto_reader_init(r);
}

size_t
proto_reader_want(const struct proto_reader *r)
{
	if (r->status != PROTO_OK)
		return 0;
	if (r->got < PROTO_HEADER_LEN)
		return PROTO_HEADER_LEN - r->got;
	return PROTO_HEADER_LEN + r->h.length - r->got;
}

int
proto_reader_done(const struct proto_reader *r)
{
	return r->status == PROTO_OK && r->got >= PROTO_HEADER_LEN &&
	    r->got == PROTO_HEADER_LEN + r->h.length;
}

long
proto_reader_push(struct proto_reader *r, const uint8_t *p, size_t len)
{
	size_t n, want = proto_reader_want(r);

	if (r->status != PROTO_OK)
		return -1;
	n = len < want ? len : want;
	if (r->got < PROTO_HEADER_LEN) {
		memcpy(r->hdr + r->got, p, n);
		r->got += n;
		if (r->got < PROTO_HEADER_LEN)
			return (long)n;
		r->status = proto_header_decode(r->hdr, &r->h);
		if (r->status != PROTO_OK)
			return -1;
		/* +1: room for a NUL, so the body is a C string too. */
		r->body = calloc(1, (size_t)r->h.length + 1);
		if (r->body == NULL) {
			r->status = PROTO_E_LENGTH;
			return -1;
		}
		return (long)n;
	}
	memcpy(r->body + (r->got - PROTO_HEADER_LEN), p, n);
	r->got += n;
	return (long)n;
}

int
proto_reader_take_tag(struct proto_reader *r, uint8_t tag[PROTO_TAG_LEN])
{
	if (!proto_reader_done(r) || !(r->h.flags & PROTO_F_MAC))
		return -1;
	r->h.length -= PROTO_TAG_LEN;
	r->got -= PROTO_TAG_LEN;
	r->h.flags &= (uint16_t)~PROTO_F_MAC;
	memcpy(tag, r->body + r->h.length, PROTO_TAG_LEN);
	r->body[r->h.length] = '\0';
	return 0;
}

int
proto_reader_decode(const struct proto_reader *r, struct proto_msg *m,
    char *err, size_t errlen)
{
	/* Every return leaves m defined: callers name m->type in errors. */
	memset(m, 0, sizeof(*m));
	if (r->got >= PROTO_HEADER_LEN && r->status == PROTO_OK)
		m->type = r->h.type;
	if (!proto_reader_done(r)) {
		snprintf(err, errlen, "incomplete message");
		return PROTO_E_BODY;
	}
	if (r->h.flags & PROTO_F_MAC) {
		snprintf(err, errlen, "%s message is sealed, but this "
		    "connection has no key", proto_type_str(r->h.type));
		return PROTO_E_AUTH;
	}
	return proto_body_decode(r->h.type, r->body, r->h.length, m, err,
	    errlen);
}

static int
token_check(const char *t, char *err, size_t errlen)
{
	size_t i;

	for (i = 0; t[i] != '\0'; i++)
		if (!((t[i] >= '0' && t[i] <= '9') ||
		    (t[i] >= 'a' && t[i] <= 'f')))
			break;
	if (i != PROTO_TOKEN_LEN || t[i] != '\0') {
		snprintf(err, errlen, "member \"token\" is not %d hex digits",
		    PROTO_TOKEN_LEN);
		return -1;
	}
	return 0;
}

/* Hex, PROTO_NONCE_HEX digits; optional in a hello (no key). */
static int
get_nonce(const json_t *o, int required, char *out, char *err,
    size_t errlen)
{
	size_t i;

	if (!required && json_object_get(o, "nonce") == NULL)
		return 0;
	if (member_string(o, "nonce", out, PROTO_NONCE_HEX + 1, err,
	    errlen) == -1)
		return -1;
	for (i = 0; out[i] != '\0'; i++)
		if (!((out[i] >= '0' && out[i] <= '9') ||
		    (out[i] >= 'a' && out[i] <= 'f')))
			break;
	if (i != PROTO_NONCE_HEX || out[i] != '\0') {
		snprintf(err, errlen, "member \"nonce\" is not %d hex digits",
		    PROTO_NONCE_HEX);
		return -1;
	}
	return 0;
}

/* done, result: an end's side, and with --bidir its other half's. */
static int
sides_from_json(const json_t *o, struct proto_msg *m, char *err,
    size_t errlen)
{
	const json_t *v = json_object_get(o, "side");
	char sub[GB_ERR_LEN];

	if (v == NULL) {
		snprintf(err, errlen, "member \"side\" is missing");
		return -1;
	}
	if (side_from_json(v, &m->side, err, errlen) == -1)
		return -1;
	if ((v = json_object_get(o, "side2")) == NULL)
		return 0;
	m->has_side2 = 1;
	if (side_from_json(v, &m->side2, sub, sizeof(sub)) == 0)
		return 0;
	snprintf(err, errlen, "side2: %.200s", sub);
	return -1;
}

static int
decode_members(const json_t *o, struct proto_msg *m, char *err,
    size_t errlen)
{
	const json_t *v;
	char prog[16];
	uint64_t u;

	switch (m->type) {
	case PROTO_HELLO:
		if (member_string(o, "program", prog, sizeof(prog), err,
		    errlen) == -1)
			return -1;
		if (strcmp(prog, "gigebench") != 0) {
			snprintf(err, errlen, "member \"program\" is not "
			    "\"gigebench\"");
			return -1;
		}
		if (member_string(o, "version", m->version, sizeof(m->version),
		    err, errlen) == -1 || get_nonce(o, 0, m->nonce, err,
		    errlen) == -1)
			return -1;
		return params_from_json(json_object_get(o, "params"),
		    &m->params, err, errlen);
	case PROTO_ACCEPT:
		if (member_string(o, "token", m->token, sizeof(m->token), err,
		    errlen) == -1)
			return -1;
		return token_check(m->token, err, errlen);
	case PROTO_DATA:
		if (member_string(o, "token", m->token, sizeof(m->token), err,
		    errlen) == -1 || token_check(m->token, err, errlen) == -1)
			return -1;
		if (member_uint(o, "stream", 0, GB_MAX_FLOWS - 1, &u, err,
		    errlen) == -1)
			return -1;
		m->stream = (uint32_t)u;
		return 0;
	case PROTO_REFUSE:
		if (member_uint(o, "code", PROTO_REFUSE_BUSY,
		    PROTO_REFUSE_AUTH, &u, err, errlen) == -1)
			return -1;
		m->refusal = (int)u;
		/* FALLTHROUGH */
	case PROTO_ERROR:
		return member_string(o, "message", m->message,
		    sizeof(m->message), err, errlen);
	case PROTO_CHALLENGE:
		return get_nonce(o, 1, m->nonce, err, errlen);
	case PROTO_START:
	case PROTO_AUTH:
		return 0;
	case PROTO_DONE:
	case PROTO_RESULT:
		return sides_from_json(o, m, err, errlen);
	case PROTO_INTERVAL:
		v = json_object_get(o, "interval");
		if (v == NULL) {
			snprintf(err, errlen, "member \"interval\" is missing");
			return -1;
		}
		return interval_from_json(v, &m->interval, err, errlen);
	}
	snprintf(err, errlen, "unknown message type %d", m->type);
	return -1;
}

int
proto_body_decode(int type, const uint8_t *body, size_t len,
    struct proto_msg *m, char *err, size_t errlen)
{
	json_error_t jerr;
	json_t *o;
	char sub[GB_ERR_LEN];
	int rc;

	memset(m, 0, sizeof(*m));
	m->type = type;
	if (len > PROTO_MAX_BODY) {
		snprintf(err, errlen, "%s", proto_status_str(PROTO_E_LENGTH));
		return PROTO_E_LENGTH;
	}
	/* JSON_DISABLE_EOF_CHECK off: trailing bytes are an error. */
	o = json_loadb((const char *)body, len, JSON_REJECT_DUPLICATES, &jerr);
	if (o == NULL || !json_is_object(o)) {
		snprintf(err, errlen, "%s message: body is not a JSON object%s%s",
		    proto_type_str(type), o == NULL ? ": " : "",
		    o == NULL ? jerr.text : "");
		/* jansson quotes the bytes near its complaint: the peer's. */
		safetext_inplace(err, errlen);
		json_decref(o);
		return PROTO_E_BODY;
	}
	rc = decode_members(o, m, sub, sizeof(sub));
	json_decref(o);
	if (rc == -1) {
		snprintf(err, errlen, "%s message: %s", proto_type_str(type),
		    sub);
		return PROTO_E_BODY;
	}
	return PROTO_OK;
}

/*
 * A refusal or an error may quote what a peer sent (a name, a parser's
 * complaint about its bytes): sent on with each byte that is not
 * printable ASCII escaped (base/safetext.h), since the peer's decoder
 * refuses those (member.h).
 */
static const char *
printable(const char *s, char *out, size_t outlen)
{
	return safetext_escape(out, outlen, s);
}

static json_t *
encode_members(const struct proto_msg *m)
{
	char text[sizeof(m->message)];

	switch (m->type) {
	case PROTO_HELLO:
		if (m->nonce[0] != '\0')
			return json_pack("{s:s, s:s, s:o, s:s}", "program",
			    "gigebench", "version", GB_VERSION, "params",
			    params_to_json(&m->params), "nonce", m->nonce);
		return json_pack("{s:s, s:s, s:o}", "program", "gigebench",
		    "version", GB_VERSION, "params",
		    params_to_json(&m->params));
	case PROTO_CHALLENGE:
		return json_pack("{s:s}", "nonce", m->nonce);
	case PROTO_ACCEPT:
		return json_pack("{s:s}", "token", m->token);
	case PROTO_DATA:
		return json_pack("{s:s, s:I}", "token", m->token, "stream",
		    (json_int_t)m->stream);
	case PROTO_REFUSE:
		return json_pack("{s:i, s:s}", "code", m->refusal,
		    "message", printable(m->message, text, sizeof(text)));
	case PROTO_ERROR:
		return json_pack("{s:s}", "message",
		    printable(m->message, text, sizeof(text)));
	case PROTO_START:
	case PROTO_AUTH:
		return json_object();
	case PROTO_DONE:
	case PROTO_RESULT:
		if (m->has_side2)
			return json_pack("{s:o, s:o}", "side",
			    side_json(&m->side), "side2",
			    side_json(&m->side2));
		return json_pack("{s:o}", "side", side_json(&m->side));
	case PROTO_INTERVAL:
		return json_pack("{s:o}", "interval",
		    interval_json(&m->interval));
	}
	return NULL;
}

uint8_t *
proto_encode(const struct proto_msg *m, size_t *len)
{
	json_t *o;
	char *body;
	uint8_t *buf;
	size_t blen;

	if ((o = encode_members(m)) == NULL)
		return NULL;
	body = json_dumps(o, JSON_COMPACT);
	json_decref(o);
	if (body == NULL)
		return NULL;
	blen = strlen(body);
	if (blen > PROTO_MAX_BODY || (buf = malloc(PROTO_HEADER_LEN +
	    blen)) == NULL) {
		free(body);
		return NULL;
	}
	proto_header_encode(buf, m->type, (uint32_t)blen);
	memcpy(buf + PROTO_HEADER_LEN, body, blen);
	free(body);
	*len = PROTO_HEADER_LEN + blen;
	return buf;
}
