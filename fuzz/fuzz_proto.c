/*
 * fuzz_proto.c: libFuzzer target for the control message decoder
 * (src/proto.c), the first code that sees a peer's bytes on either end.
 *
 * Input: 4 chunk-size bytes, then a byte stream as it would arrive on a
 * control connection.  The stream is pushed through proto_reader_push()
 * in chunks of those sizes, cycled (0 means "as much as the reader
 * wants", and a chunk may be larger than that, as a recv() can be), so the
 * header and body edges fall at every offset.  Each complete message is
 * decoded; a rejected header resets the reader and the rest of the stream
 * goes on (a real listener closes instead; going on finds more per run).
 *
 * Oracles beyond the sanitizers: the reader never takes more than it
 * wants nor grows past header plus body; a rejected header leaves no body
 * allocated; every message that decodes re-encodes with proto_encode()
 * and decodes again to the same fields (what a peer can say, we can say
 * back).  Run with -malloc_limit_mb: a length is checked before it is
 * allocated, so nothing here may allocate near 64 KiB, let alone 128 MiB.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codec/proto.h"

#define CHUNK_SIZES	4

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static void
fail(const char *what, const struct proto_msg *m, const char *err)
{
	fprintf(stderr, "fuzz_proto: %s (type %s)%s%s\n", what,
	    proto_type_str(m->type), err != NULL ? ": " : "",
	    err != NULL ? err : "");
	abort();
}

/* The members each type carries must survive encode and decode. */
static int
msg_equal(const struct proto_msg *a, const struct proto_msg *b)
{
	if (a->type != b->type)
		return 0;
	switch (a->type) {
	case PROTO_HELLO:
		/* proto_encode() writes our own version, not the peer's. */
		return memcmp(&a->params, &b->params, sizeof(a->params)) == 0 &&
		    strcmp(a->nonce, b->nonce) == 0;
	case PROTO_CHALLENGE:
		return strcmp(a->nonce, b->nonce) == 0;
	case PROTO_ACCEPT:
		return strcmp(a->token, b->token) == 0;
	case PROTO_DATA:
		return strcmp(a->token, b->token) == 0 &&
		    a->stream == b->stream;
	case PROTO_REFUSE:
		return a->refusal == b->refusal &&
		    strcmp(a->message, b->message) == 0;
	case PROTO_ERROR:
		return strcmp(a->message, b->message) == 0;
	case PROTO_START:
	case PROTO_AUTH:
		return 1;
	case PROTO_DONE:
	case PROTO_RESULT:
		return memcmp(&a->side, &b->side, sizeof(a->side)) == 0;
	case PROTO_INTERVAL:
		return memcmp(&a->interval, &b->interval,
		    sizeof(a->interval)) == 0;
	}
	return 0;
}

static void
roundtrip(const struct proto_msg *m)
{
	struct proto_reader r;
	struct proto_msg *again;
	char err[GB_ERR_LEN];
	uint8_t *buf;
	size_t len, off;
	long n;
	int rc;

	if ((buf = proto_encode(m, &len)) == NULL)
		fail("a decoded message does not encode", m, NULL);
	if ((again = malloc(sizeof(*again))) == NULL)
		abort();
	proto_reader_init(&r);
	for (off = 0; off < len; off += (size_t)n)
		if ((n = proto_reader_push(&r, buf + off, len - off)) <= 0)
			break;
	if (off != len || !proto_reader_done(&r))
		fail("a re-encoded message is not one whole message", m,
		    proto_status_str(r.status));
	rc = proto_reader_decode(&r, again, err, sizeof(err));
	if (rc != PROTO_OK)
		fail("a re-encoded message does not decode", m, err);
	if (!msg_equal(m, again))
		fail("a re-encoded message decodes to other fields", m, NULL);
	proto_reader_reset(&r);
	free(again);
	free(buf);
}

/* A complete message: decode it, and round-trip what decodes. */
static void
decode_one(const struct proto_reader *r, struct proto_msg *m)
{
	char err[GB_ERR_LEN];
	int rc;

	err[0] = '\0';
	rc = proto_reader_decode(r, m, err, sizeof(err));
	if (rc == PROTO_OK)
		roundtrip(m);
	else if ((rc != PROTO_E_BODY && rc != PROTO_E_AUTH) || err[0] == '\0')
		fail("a complete message failed without a reason", m, err);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t sizes[CHUNK_SIZES];
	char err[GB_ERR_LEN];
	struct proto_reader r;
	struct proto_msg *m;
	size_t off, want, chunk, i = 0;
	long n;

	if (size < CHUNK_SIZES)
		return 0;
	memcpy(sizes, data, CHUNK_SIZES);
	off = CHUNK_SIZES;
	/* Heap, not stack: ASan then sees any overrun of its fixed arrays. */
	if ((m = malloc(sizeof(*m))) == NULL)
		return 0;
	proto_reader_init(&r);
	while (off < size) {
		want = proto_reader_want(&r);
		chunk = sizes[i++ % CHUNK_SIZES];
		if (chunk == 0)
			chunk = want;
		if (chunk > size - off)
			chunk = size - off;
		n = proto_reader_push(&r, data + off, chunk);
		if (n == -1) {
			if (r.status == PROTO_OK || r.body != NULL)
				fail("a rejected header left state behind", m,
				    proto_status_str(r.status));
			proto_reader_reset(&r);
			/* Resynchronise after the header that failed. */
			off += chunk < want ? chunk : want;
			continue;
		}
		if (n < 0 || (size_t)n > chunk || (size_t)n > want ||
		    (n == 0 && chunk > 0))
			fail("the reader took the wrong number of bytes", m,
			    NULL);
		if (r.got > PROTO_HEADER_LEN + (size_t)PROTO_MAX_BODY)
			fail("the reader grew past the cap", m, NULL);
		off += (size_t)n;
		if (proto_reader_done(&r)) {
			decode_one(&r, m);
			proto_reader_reset(&r);
		}
	}
	/* A truncated stream must not decode. */
	if (!proto_reader_done(&r) && proto_reader_decode(&r, m, err,
	    sizeof(err)) == PROTO_OK)
		fail("an incomplete message decoded", m, NULL);
	proto_reader_reset(&r);
	free(m);
	return 0;
}
