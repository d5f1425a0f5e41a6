/*
 * test_peerkind.c: peerkind.c, the first bytes of each kind of foreign
 * peer a native listener names: the real openings of iperf3 (a cookie),
 * nuttcp (its HELO line), HTTP, TLS, SSH and a classic ttcp -s (its
 * pattern), other data as a raw stream, and too little to tell.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "codec/peerkind.h"

static int
kind(const char *s, size_t n)
{
	return peerkind_of((const uint8_t *)s, n);
}

static void
test_kinds(void **state)
{
	/* iperf3 3.12's cookie: 36 of [a-z2-7] and a NUL. */
	static const char cookie[] = "jkdwc2l3a7oq6qy4f5gsy7hvbzzm3b5s6c3k";
	static const char tls[] = { 0x16, 0x03, 0x01, 0x02, 0x00, 0x01, 0x00 };
	char ttcp[96], b[64];
	size_t i;

	(void)state;
	assert_int_equal(strlen(cookie), 36);
	assert_int_equal(kind(cookie, 37), PEER_IPERF3);
	assert_int_not_equal(kind(cookie, 36), PEER_IPERF3);	/* no NUL */
	/* nuttcp 6.1.2's first bytes on its control connection */
	assert_int_equal(kind("HELO nuttcp v6.1.2\n", 19), PEER_NUTTCP);
	assert_int_equal(kind("GET / HTTP/1.1\r\nHost: x\r\n\r\n", 27),
	    PEER_HTTP);
	assert_int_equal(kind("CONNECT a:443 HTTP/1.1\r\n", 24), PEER_HTTP);
	assert_int_equal(kind(tls, sizeof(tls)), PEER_TLS);
	assert_int_equal(kind("SSH-2.0-OpenSSH_9.2p1 Debian-2\r\n", 32),
	    PEER_SSH);
	for (i = 0; i < sizeof(ttcp); i++)
		ttcp[i] = (char)(' ' + i % 95);
	assert_int_equal(kind(ttcp, 64), PEER_TTCP);
	assert_int_equal(kind(ttcp, 12), PEER_TTCP);
	/* Anything else of a header's length or more: a raw stream. */
	for (i = 0; i < sizeof(b); i++)
		b[i] = (char)(i * 37 + 11);
	assert_int_equal(kind(b, 64), PEER_RAW);
	assert_int_equal(kind(b, 12), PEER_RAW);
	assert_int_equal(kind(b, 11), PEER_UNKNOWN);
	assert_int_equal(kind("", 0), PEER_UNKNOWN);
	/* ttcp's pattern cut short is still told apart from "GET". */
	assert_int_equal(kind(" !\"#", 4), PEER_UNKNOWN);
}

static void
test_texts(void **state)
{
	(void)state;
	assert_non_null(strstr(peerkind_text(PEER_TTCP), "--ttcp -r"));
	assert_non_null(strstr(peerkind_text(PEER_RAW), "--ttcp -r"));
	assert_non_null(strstr(peerkind_text(PEER_IPERF3), "iperf3"));
	assert_non_null(strstr(peerkind_text(PEER_NUTTCP), "nuttcp"));
	assert_string_equal(peerkind_text(PEER_UNKNOWN), "nothing known");
	assert_string_equal(peerkind_text(99), "nothing known");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kinds),
		cmocka_unit_test(test_texts),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
