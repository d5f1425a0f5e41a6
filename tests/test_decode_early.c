/*
 * test_decode_early.c: every way proto_reader_decode() can return leaves
 * the message it was given in a defined state: cleared, with the type
 * the header named.  A caller that looks at m->type after an error (the
 * listener's pending connections do, to name what came) must never read
 * what was on its stack before (issue 14, item 7: a sealed first message
 * made pending.c read an uninitialised m->type).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codec/proto.h"

/* What a stack holds before: anything but zeros. */
#define GARBAGE	0xa5

static int
push_all(struct proto_reader *r, const uint8_t *buf, size_t len)
{
	size_t off = 0;
	long n;

	while (off < len && proto_reader_want(r) > 0 &&
	    (n = proto_reader_push(r, buf + off, len - off)) > 0)
		off += (size_t)n;
	return (int)off;
}

/* m must be all zeros but its type, which must be the header's. */
static void
assert_cleared(const struct proto_msg *m, int type)
{
	struct proto_msg zero;

	memset(&zero, 0, sizeof(zero));
	zero.type = type;
	assert_int_equal(m->type, type);
	assert_memory_equal(m, &zero, sizeof(zero));
}

static void
decode_header_only(uint8_t hdr[PROTO_HEADER_LEN], const char *body,
    int want_status, int type)
{
	struct proto_reader r;
	struct proto_msg *m = malloc(sizeof(*m));
	uint8_t *buf;
	size_t blen = strlen(body);
	char err[256];

	assert_non_null(m);
	buf = malloc(PROTO_HEADER_LEN + blen);
	assert_non_null(buf);
	memcpy(buf, hdr, PROTO_HEADER_LEN);
	memcpy(buf + PROTO_HEADER_LEN, body, blen);
	memset(m, GARBAGE, sizeof(*m));
	proto_reader_init(&r);
	push_all(&r, buf, PROTO_HEADER_LEN + blen);
	assert_int_equal(proto_reader_decode(&r, m, err, sizeof(err)),
	    want_status);
	assert_true(err[0] != '\0');
	assert_cleared(m, type);
	proto_reader_reset(&r);
	free(buf);
	free(m);
}

/* A sealed first message on a connection without a key. */
static void
test_sealed_without_key(void **state)
{
	uint8_t hdr[PROTO_HEADER_LEN];
	char body[PROTO_TAG_LEN + 3];

	(void)state;
	memset(body, 'x', sizeof(body) - 1);
	memcpy(body, "{}", 2);
	body[sizeof(body) - 1] = '\0';
	proto_header_encode(hdr, PROTO_HELLO, 2);
	proto_header_seal(hdr);
	decode_header_only(hdr, body, PROTO_E_AUTH, PROTO_HELLO);
}

/* A message not yet complete: the type is not known to be whole yet. */
static void
test_incomplete(void **state)
{
	struct proto_reader r;
	struct proto_msg m;
	uint8_t hdr[PROTO_HEADER_LEN];
	char err[256];

	(void)state;
	proto_header_encode(hdr, PROTO_DONE, 10);
	memset(&m, GARBAGE, sizeof(m));
	proto_reader_init(&r);
	push_all(&r, hdr, sizeof(hdr));
	assert_int_equal(proto_reader_decode(&r, &m, err, sizeof(err)),
	    PROTO_E_BODY);
	assert_cleared(&m, PROTO_DONE);
	proto_reader_reset(&r);
}

/* A rejected header: nothing decoded, nothing left undefined. */
static void
test_bad_header(void **state)
{
	struct proto_reader r;
	struct proto_msg m;
	uint8_t hdr[PROTO_HEADER_LEN];
	char err[256];

	(void)state;
	proto_header_encode(hdr, PROTO_HELLO, 2);
	hdr[0] = 'X';
	memset(&m, GARBAGE, sizeof(m));
	proto_reader_init(&r);
	push_all(&r, hdr, sizeof(hdr));
	assert_int_not_equal(proto_reader_decode(&r, &m, err, sizeof(err)),
	    PROTO_OK);
	assert_cleared(&m, 0);
	proto_reader_reset(&r);
}

/* Bodies that are not what the type needs: cleared, typed. */
static void
test_bad_bodies(void **state)
{
	static const char *const bodies[] = { "[]", "{", "{}x", "null",
	    "{\"program\": 1}" };
	uint8_t hdr[PROTO_HEADER_LEN];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bodies) / sizeof(bodies[0]); i++) {
		proto_header_encode(hdr, PROTO_HELLO,
		    (uint32_t)strlen(bodies[i]));
		decode_header_only(hdr, bodies[i], PROTO_E_BODY, PROTO_HELLO);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sealed_without_key),
		cmocka_unit_test(test_incomplete),
		cmocka_unit_test(test_bad_header),
		cmocka_unit_test(test_bad_bodies),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
