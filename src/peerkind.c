/*
 * peerkind.c: what a foreign connection looks like (codec/peerkind.h).
 * The signatures are each program's first bytes: iperf3's cookie (36
 * characters of its base32 alphabet and a NUL, sent before anything),
 * nuttcp's greeting ("HELO nuttcp v6.1.2\n"), an HTTP method, a TLS
 * handshake record (0x16 0x03), an SSH banner ("SSH-"), and the
 * printable pattern a classic ttcp -s sends.  A connection that sent a
 * whole header's worth of none of them is a raw stream.
 */
#include <string.h>

#include "codec/peerkind.h"

/* A raw stream has sent at least a gigebench header's worth. */
#define PEERKIND_RAW_MIN	12

static int
prefix(const uint8_t *b, size_t n, const char *s)
{
	size_t len = strlen(s);

	return n >= len && memcmp(b, s, len) == 0;
}

static int
is_iperf3(const uint8_t *b, size_t n)
{
	size_t i;

	if (n < 37 || b[36] != '\0')
		return 0;
	for (i = 0; i < 36; i++)
		if (!((b[i] >= 'a' && b[i] <= 'z') || (b[i] >= '2' &&
		    b[i] <= '7')))
			return 0;
	return 1;
}

/* ttcp's pattern(): the printable characters from ' ' on, in order. */
static int
is_ttcp(const uint8_t *b, size_t n)
{
	size_t i;

	if (n < 8)
		return 0;
	for (i = 0; i < n && i < 95; i++)
		if (b[i] != (uint8_t)(' ' + i))
			return 0;
	return 1;
}

int
peerkind_of(const uint8_t *b, size_t n)
{
	static const char *const http[] = {
		"GET ", "POST ", "HEAD ", "PUT ", "DELETE ", "OPTIONS ",
		"CONNECT ", "PATCH ", "TRACE ", "PRI * HTTP/2",
	};
	size_t i;

	if (is_iperf3(b, n))
		return PEER_IPERF3;
	if (prefix(b, n, "HELO nuttcp"))
		return PEER_NUTTCP;
	for (i = 0; i < sizeof(http) / sizeof(http[0]); i++)
		if (prefix(b, n, http[i]))
			return PEER_HTTP;
	if (n >= 3 && b[0] == 0x16 && b[1] == 0x03 && b[2] <= 0x04)
		return PEER_TLS;
	if (prefix(b, n, "SSH-"))
		return PEER_SSH;
	if (is_ttcp(b, n))
		return PEER_TTCP;
	return n >= PEERKIND_RAW_MIN ? PEER_RAW : PEER_UNKNOWN;
}

const char *
peerkind_text(int kind)
{
	switch (kind) {
	case PEER_TTCP:
		return "a classic ttcp sender (its -s pattern): 'gigebench "
		    "--ttcp -r' receives it";
	case PEER_RAW:
		return "a raw stream (ttcp, nc, socat?): 'gigebench --ttcp -r' "
		    "receives one";
	case PEER_IPERF3:
		return "an iperf3 client (its 37-byte cookie)";
	case PEER_NUTTCP:
		return "a nuttcp client (its HELO line)";
	case PEER_HTTP:
		return "an HTTP client";
	case PEER_TLS:
		return "a TLS client (a handshake record)";
	case PEER_SSH:
		return "an SSH client (its banner)";
	}
	return "nothing known";
}
