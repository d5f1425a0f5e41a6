/*
 * test_dgram.c: dgram.c against one header written out byte by byte by
 * hand (the wire contract), a round trip of every kind, each error
 * status at its edge, and dgram_stamp touching only the seq and time
 * bytes.
 */

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "data/dgram.h"

/* stream 0x0102, token 0xa0..0xaf, seq and time with every byte distinct */
static const uint8_t wire_data[DGRAM_HDR_LEN] = {
	0x47, 0x42, 0x44, 0x47,		/* "GBDG" */
	0x01,				/* version 1 */
	0x00,				/* DGRAM_DATA */
	0x01, 0x02,			/* stream 258 */
	0xa0, 0xa1, 0xa2, 0xa3, 0xa4, 0xa5, 0xa6, 0xa7,
	0xa8, 0xa9, 0xaa, 0xab, 0xac, 0xad, 0xae, 0xaf,
	0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88,	/* seq */
	0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08,	/* send_ns */
};

static void
fill_data(struct dgram_hdr *h)
{
	int	i;

	memset(h, 0, sizeof(*h));
	h->kind = DGRAM_DATA;
	h->stream = 0x0102;
	for (i = 0; i < DGRAM_TOKEN_LEN; i++)
		h->token[i] = (uint8_t)(0xa0 + i);
	h->seq = UINT64_C(0x1122334455667788);
	h->send_ns = UINT64_C(0x0102030405060708);
}

static void
test_exact_bytes(void **state)
{
	struct dgram_hdr	h;
	uint8_t			buf[DGRAM_HDR_LEN];

	(void)state;
	fill_data(&h);
	memset(buf, 0xee, sizeof(buf));
	dgram_encode(&h, buf);
	assert_memory_equal(buf, wire_data, DGRAM_HDR_LEN);
}

static void
test_round_trip(void **state)
{
	static const uint8_t	 kinds[] = { DGRAM_DATA, DGRAM_HELLO,
				    DGRAM_ACK, DGRAM_END };
	struct dgram_hdr	 h, got;
	uint8_t			 buf[DGRAM_HDR_LEN + 64];
	size_t			 i;

	(void)state;
	for (i = 0; i < sizeof(kinds); i++) {
		fill_data(&h);
		h.kind = kinds[i];
		h.stream = (uint16_t)(0xfff0 + i);
		h.seq = h.kind == DGRAM_DATA ? UINT64_MAX : 0;
		h.send_ns = UINT64_C(123456789012345) + i;
		memset(buf, 'g', sizeof(buf));
		dgram_encode(&h, buf);
		memset(&got, 0x55, sizeof(got));
		/* with a payload behind it, and exactly a header */
		assert_int_equal(dgram_decode(buf, sizeof(buf), &got),
		    DGRAM_OK);
		assert_int_equal(dgram_decode(buf, DGRAM_HDR_LEN, &got),
		    DGRAM_OK);
		assert_int_equal(got.kind, h.kind);
		assert_int_equal(got.stream, h.stream);
		assert_memory_equal(got.token, h.token, DGRAM_TOKEN_LEN);
		assert_true(got.seq == h.seq);
		assert_true(got.send_ns == h.send_ns);
		assert_true(dgram_token_eq(&got, h.token));
	}
	assert_int_equal(dgram_decode(wire_data, sizeof(wire_data), &got),
	    DGRAM_OK);
	fill_data(&h);
	assert_true(got.seq == h.seq && got.send_ns == h.send_ns);
}

static void
test_errors(void **state)
{
	struct dgram_hdr	h, keep;
	uint8_t			buf[DGRAM_HDR_LEN];

	(void)state;
	memset(&keep, 0x5a, sizeof(keep));
	h = keep;
	memcpy(buf, wire_data, sizeof(buf));
	assert_int_equal(dgram_decode(buf, DGRAM_HDR_LEN - 1, &h),
	    DGRAM_E_SHORT);
	assert_int_equal(dgram_decode(buf, 0, &h), DGRAM_E_SHORT);

	buf[3] = 0x48;				/* "GBDH" */
	assert_int_equal(dgram_decode(buf, sizeof(buf), &h), DGRAM_E_MAGIC);
	memcpy(buf, wire_data, sizeof(buf));
	buf[4] = 2;
	assert_int_equal(dgram_decode(buf, sizeof(buf), &h),
	    DGRAM_E_VERSION);
	buf[4] = 0;
	assert_int_equal(dgram_decode(buf, sizeof(buf), &h),
	    DGRAM_E_VERSION);
	memcpy(buf, wire_data, sizeof(buf));
	buf[5] = 4;
	assert_int_equal(dgram_decode(buf, sizeof(buf), &h), DGRAM_E_KIND);
	buf[5] = DGRAM_END;
	assert_int_equal(dgram_decode(buf, DGRAM_HDR_LEN - 1, &h),
	    DGRAM_E_SHORT);
	/* nothing written on a failure */
	assert_memory_equal(&h, &keep, sizeof(h));

	assert_string_equal(dgram_status_str(DGRAM_OK), "ok");
	assert_string_equal(dgram_status_str(DGRAM_E_SHORT),
	    "shorter than a header");
	assert_string_equal(dgram_status_str(DGRAM_E_MAGIC),
	    "not a gigebench datagram (magic)");
	assert_string_equal(dgram_status_str(DGRAM_E_VERSION),
	    "another header version");
	assert_string_equal(dgram_status_str(DGRAM_E_KIND), "unknown kind");
	assert_string_equal(dgram_status_str(-1), "unknown status");
	assert_string_equal(dgram_status_str(DGRAM_E_KIND + 1),
	    "unknown status");
}

static void
test_stamp(void **state)
{
	struct dgram_hdr	h;
	uint8_t			buf[DGRAM_HDR_LEN + 4], want[sizeof(buf)];

	(void)state;
	memset(buf, 'g', sizeof(buf));
	memcpy(buf, wire_data, DGRAM_HDR_LEN);
	memcpy(want, buf, sizeof(want));
	dgram_stamp(buf, UINT64_C(0x0a0b0c0d0e0f1011),
	    UINT64_C(0xf0e0d0c0b0a09080));
	memcpy(want + 24, "\x0a\x0b\x0c\x0d\x0e\x0f\x10\x11", 8);
	memcpy(want + 32, "\xf0\xe0\xd0\xc0\xb0\xa0\x90\x80", 8);
	/* the first 24 bytes and the payload behind are untouched */
	assert_memory_equal(buf, want, sizeof(buf));
	assert_int_equal(dgram_decode(buf, sizeof(buf), &h), DGRAM_OK);
	assert_true(h.seq == UINT64_C(0x0a0b0c0d0e0f1011));
	assert_true(h.send_ns == UINT64_C(0xf0e0d0c0b0a09080));
	assert_int_equal(h.stream, 0x0102);
}

static void
test_token(void **state)
{
	struct dgram_hdr	h;
	uint8_t			other[DGRAM_TOKEN_LEN];

	(void)state;
	fill_data(&h);
	memcpy(other, h.token, sizeof(other));
	assert_true(dgram_token_eq(&h, other));
	other[DGRAM_TOKEN_LEN - 1] ^= 1;
	assert_false(dgram_token_eq(&h, other));
	other[DGRAM_TOKEN_LEN - 1] ^= 1;
	other[0] ^= 0x80;
	assert_false(dgram_token_eq(&h, other));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_exact_bytes),
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_stamp),
		cmocka_unit_test(test_token),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
