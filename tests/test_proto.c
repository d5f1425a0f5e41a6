/*
 * test_proto.c: the control protocol codec: round trips of every message,
 * header checks at the length edges, a reader that never reads past a
 * message, and bodies with wrong types, missing members and bad ranges.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "proto.h"

#define TOKEN "0123456789abcdef0123456789abcdef"

static uint8_t *
frame(int type, const char *body, size_t *len)
{
	size_t blen = strlen(body);
	uint8_t *buf = malloc(PROTO_HEADER_LEN + blen);

	assert_non_null(buf);
	proto_header_encode(buf, type, (uint32_t)blen);
	memcpy(buf + PROTO_HEADER_LEN, body, blen);
	*len = PROTO_HEADER_LEN + blen;
	return buf;
}

/* Feed a whole buffer; returns the reader's decode status. */
static int
feed(const uint8_t *buf, size_t len, struct proto_msg *m, char *err)
{
	struct proto_reader r;
	size_t off = 0;
	long n;
	int rc;

	proto_reader_init(&r);
	while (off < len && proto_reader_want(&r) > 0) {
		n = proto_reader_push(&r, buf + off, 1);	/* byte by byte */
		if (n == -1) {
			rc = r.status;
			proto_reader_reset(&r);
			return rc;
		}
		off += (size_t)n;
	}
	rc = proto_reader_decode(&r, m, err, GB_ERR_LEN);
	proto_reader_reset(&r);
	return rc;
}

static void
roundtrip(struct proto_msg *in, struct proto_msg *out)
{
	char err[GB_ERR_LEN] = "";
	uint8_t *buf;
	size_t len;
	int rc;

	buf = proto_encode(in, &len);
	assert_non_null(buf);
	rc = feed(buf, len, out, err);
	if (rc != PROTO_OK)
		fail_msg("decode of %s failed: %s", proto_type_str(in->type),
		    err);
	assert_int_equal(out->type, in->type);
	free(buf);
}

static void
test_roundtrip_hello(void **state)
{
	struct proto_msg in, out;

	(void)state;
	memset(&in, 0, sizeof(in));
	in.type = PROTO_HELLO;
	params_init(&in.params);
	in.params.direction = GB_DIR_CLIENT_RECEIVES;
	in.params.buflen = 65536;
	in.params.nbuf = UINT64_C(1) << 33;
	in.params.duration_ms = 60000;
	in.params.streams = 4;
	in.params.sndbuf = 786432;
	in.params.rcvbuf = 393216;
	in.params.mss = 1400;
	in.params.nodelay = 1;
	in.params.interval_ms = 1000;
	in.params.force_bufs = 1;
	in.params.capture = 1;
	in.params.link_mbps = 1000;
	in.params.mtu = 9000;
	strcpy(in.params.cc, "bbr");
	roundtrip(&in, &out);
	assert_memory_equal(&in.params, &out.params, sizeof(in.params));
	assert_string_not_equal(out.version, "");
}

static void
test_roundtrip_small(void **state)
{
	struct proto_msg in, out;

	(void)state;
	memset(&in, 0, sizeof(in));
	in.type = PROTO_ACCEPT;
	strcpy(in.token, TOKEN);
	roundtrip(&in, &out);
	assert_string_equal(out.token, TOKEN);

	in.type = PROTO_DATA;
	in.stream = 127;
	roundtrip(&in, &out);
	assert_string_equal(out.token, TOKEN);
	assert_int_equal(out.stream, 127);

	memset(&in, 0, sizeof(in));
	in.type = PROTO_REFUSE;
	in.refusal = PROTO_REFUSE_BUSY;
	strcpy(in.message, "busy \"quoted\" \xc3\xa9");
	roundtrip(&in, &out);
	assert_int_equal(out.refusal, PROTO_REFUSE_BUSY);
	assert_string_equal(out.message, in.message);

	in.type = PROTO_ERROR;
	roundtrip(&in, &out);
	assert_string_equal(out.message, in.message);

	memset(&in, 0, sizeof(in));
	in.type = PROTO_START;
	roundtrip(&in, &out);
}

static void
test_roundtrip_side(void **state)
{
	struct proto_msg in, out;

	(void)state;
	memset(&in, 0, sizeof(in));
	in.type = PROTO_RESULT;
	in.side.has = 1;
	in.side.bytes = UINT64_C(4926632509);
	in.side.seconds = 60.0012;
	in.side.mbps = 656.7557;
	in.side.cpu.process_pct = 64.25;
	in.side.host_cpu.has = 1;
	in.side.host_cpu.ncpus = 2;
	in.side.host_cpu.irq_pct = 3.5;
	in.side.iface.has_interrupts = 1;
	in.side.iface.irq_lines = 1;
	strcpy(in.side.iface.name, "eth0");
	strcpy(in.side.iface.irq_list, "41");
	in.side.iface.interrupts = 1157054;
	in.side.iface.has_counters = 1;
	in.side.iface.rx_packets = 3284421;
	in.side.iface.has_irq_per_packet = 1;
	in.side.iface.irq_per_packet = 0.3523;
	in.side.tcp.has = 1;
	in.side.tcp.mss = 1448;
	in.side.rcvbuf.requested = 786432;
	in.side.rcvbuf.actual = 425984;
	roundtrip(&in, &out);
	assert_int_equal(out.side.bytes, in.side.bytes);
	assert_true(out.side.seconds == in.side.seconds);
	assert_int_equal(out.side.iface.interrupts, 1157054);
	assert_string_equal(out.side.iface.name, "eth0");
	assert_true(out.side.iface.irq_per_packet == 0.3523);
	assert_int_equal(out.side.rcvbuf.actual, 425984);
	assert_int_equal(out.side.tcp.mss, 1448);

	in.type = PROTO_DONE;
	roundtrip(&in, &out);
	assert_int_equal(out.side.bytes, in.side.bytes);
}

static void
test_header_edges(void **state)
{
	static const uint32_t lens[] = {
		0, 1, PROTO_MAX_BODY, PROTO_MAX_BODY + 1, 0x7fffffffu,
		0x80000000u, 0xffffffffu
	};
	struct proto_header h;
	uint8_t hdr[PROTO_HEADER_LEN];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(lens) / sizeof(lens[0]); i++) {
		proto_header_encode(hdr, PROTO_HELLO, lens[i]);
		assert_int_equal(proto_header_decode(hdr, &h),
		    lens[i] <= PROTO_MAX_BODY ? PROTO_OK : PROTO_E_LENGTH);
	}
	proto_header_encode(hdr, PROTO_HELLO, 10);
	hdr[4] = PROTO_VERSION + 1;
	assert_int_equal(proto_header_decode(hdr, &h), PROTO_E_VERSION);
	proto_header_encode(hdr, 0, 10);
	assert_int_equal(proto_header_decode(hdr, &h), PROTO_E_TYPE);
	proto_header_encode(hdr, PROTO_TYPE_MAX + 1, 10);
	assert_int_equal(proto_header_decode(hdr, &h), PROTO_E_TYPE);
	memcpy(hdr, "GET ", 4);
	assert_int_equal(proto_header_decode(hdr, &h), PROTO_E_MAGIC);
}

/* An over-cap length is refused before anything is allocated for it. */
static void
test_reader_rejects_before_alloc(void **state)
{
	struct proto_reader r;
	uint8_t hdr[PROTO_HEADER_LEN];

	(void)state;
	proto_reader_init(&r);
	proto_header_encode(hdr, PROTO_HELLO, 0xffffffffu);
	assert_int_equal(proto_reader_push(&r, hdr, sizeof(hdr)), -1);
	assert_int_equal(r.status, PROTO_E_LENGTH);
	assert_null(r.body);
	assert_int_equal(proto_reader_want(&r), 0);
	proto_reader_reset(&r);

	/* SSH and HTTP banners are not gigebench. */
	proto_reader_init(&r);
	assert_int_equal(proto_reader_push(&r, (const uint8_t *)
	    "SSH-2.0-OpenSSH_9.2\r\n", 21), -1);
	assert_int_equal(r.status, PROTO_E_MAGIC);
	proto_reader_reset(&r);
}

/* Two messages back to back: the reader takes exactly the first. */
static void
test_reader_exact(void **state)
{
	struct proto_reader r;
	uint8_t *a, *b, *both;
	size_t alen, blen;
	long n;

	(void)state;
	a = frame(PROTO_START, "{}", &alen);
	b = frame(PROTO_ERROR, "{\"message\":\"x\"}", &blen);
	both = malloc(alen + blen);
	assert_non_null(both);
	memcpy(both, a, alen);
	memcpy(both + alen, b, blen);
	proto_reader_init(&r);
	n = proto_reader_push(&r, both, alen + blen);
	assert_int_equal(n, PROTO_HEADER_LEN);	/* header first */
	n = proto_reader_push(&r, both + PROTO_HEADER_LEN,
	    alen + blen - PROTO_HEADER_LEN);
	assert_int_equal(n, alen - PROTO_HEADER_LEN);
	assert_true(proto_reader_done(&r));
	assert_int_equal(proto_reader_want(&r), 0);
	proto_reader_reset(&r);
	free(a);
	free(b);
	free(both);
}

static void
test_reader_truncated(void **state)
{
	struct proto_reader r;
	struct proto_msg m;
	char err[GB_ERR_LEN];
	uint8_t *buf;
	size_t len;

	(void)state;
	buf = frame(PROTO_ERROR, "{\"message\":\"truncated\"}", &len);
	proto_reader_init(&r);
	assert_int_equal(proto_reader_push(&r, buf, 5), 5);
	assert_false(proto_reader_done(&r));
	assert_int_equal(proto_reader_want(&r), PROTO_HEADER_LEN - 5);
	assert_int_not_equal(proto_reader_decode(&r, &m, err, sizeof(err)),
	    PROTO_OK);
	assert_int_equal(proto_reader_push(&r, buf + 5, 10), 7);
	assert_int_equal(proto_reader_want(&r), len - PROTO_HEADER_LEN);
	assert_false(proto_reader_done(&r));
	proto_reader_reset(&r);
	free(buf);
}

struct bad_body {
	int		 type;
	const char	*body;
	const char	*needle;	/* expected in the error */
};

#define P_OK "\"buflen\":131072,\"nbuf\":0,\"duration_ms\":10000," \
	"\"streams\":1,\"sndbuf\":0,\"rcvbuf\":0,\"mss\":0,\"interval_ms\":0," \
	"\"link_mbps\":0,\"mtu\":0,\"cc\":\"\""

static const struct bad_body bad_bodies[] = {
	{ PROTO_HELLO, "", "not a JSON object" },
	{ PROTO_HELLO, "[]", "not a JSON object" },
	{ PROTO_HELLO, "{\"title\":\"\\u", "not a JSON object" },
	{ PROTO_HELLO, "{} trailing", "not a JSON object" },
	{ PROTO_HELLO, "{\"a\":1,\"a\":2}", "not a JSON object" },
	{ PROTO_HELLO, "{}", "version" },
	{ PROTO_HELLO, "{\"version\":1}", "version" },
	{ PROTO_HELLO, "{\"version\":\"1\"}", "params" },
	{ PROTO_HELLO, "{\"version\":\"1\",\"params\":\"x\"}", "params" },
	{ PROTO_HELLO, "{\"version\":\"1\",\"params\":{\"direction\":0,"
	    P_OK "}}", "nodelay" },
	{ PROTO_HELLO, "{\"version\":\"1\",\"params\":{\"direction\":2,"
	    P_OK ",\"nodelay\":false,\"force_bufs\":false,\"capture\":false}}", "direction" },
	{ PROTO_HELLO, "{\"version\":\"1\",\"params\":{\"direction\":0,"
	    "\"buflen\":\"131072\",\"nbuf\":0,\"duration_ms\":10000,"
	    "\"streams\":1,\"sndbuf\":0,\"rcvbuf\":0,\"mss\":0,"
	    "\"interval_ms\":0,\"link_mbps\":0,\"mtu\":0,\"cc\":\"\",\"nodelay\":false,\"force_bufs\":false,\"capture\":false}}", "buflen" },
	{ PROTO_HELLO, "{\"version\":\"1\",\"params\":{\"direction\":0,"
	    "\"buflen\":0,\"nbuf\":0,\"duration_ms\":10000,"
	    "\"streams\":1,\"sndbuf\":0,\"rcvbuf\":0,\"mss\":0,"
	    "\"interval_ms\":0,\"link_mbps\":0,\"mtu\":0,\"cc\":\"\",\"nodelay\":false,\"force_bufs\":false,\"capture\":false}}", "buflen" },
	{ PROTO_HELLO, "{\"version\":\"1\",\"params\":{\"direction\":0,"
	    "\"buflen\":131072,\"nbuf\":-1,\"duration_ms\":10000,"
	    "\"streams\":1,\"sndbuf\":0,\"rcvbuf\":0,\"mss\":0,"
	    "\"interval_ms\":0,\"link_mbps\":0,\"mtu\":0,\"cc\":\"\",\"nodelay\":false,\"force_bufs\":false,\"capture\":false}}", "nbuf" },
	{ PROTO_HELLO, "{\"version\":\"1\",\"params\":{\"direction\":0,"
	    "\"buflen\":131072,\"nbuf\":0,\"duration_ms\":10000,"
	    "\"streams\":129,\"sndbuf\":0,\"rcvbuf\":0,\"mss\":0,"
	    "\"interval_ms\":0,\"link_mbps\":0,\"mtu\":0,\"cc\":\"\",\"nodelay\":false,\"force_bufs\":false,\"capture\":false}}", "streams" },
	{ PROTO_HELLO, "{\"version\":\"1\",\"params\":{\"direction\":0,"
	    "\"buflen\":131072,\"nbuf\":0,\"duration_ms\":1.5e9,"
	    "\"streams\":1,\"sndbuf\":0,\"rcvbuf\":0,\"mss\":0,"
	    "\"interval_ms\":0,\"link_mbps\":0,\"mtu\":0,\"cc\":\"\",\"nodelay\":false,\"force_bufs\":false,\"capture\":false}}", "duration_ms" },
	{ PROTO_HELLO, "{\"version\":\"1\",\"params\":{\"direction\":0,"
	    "\"buflen\":131072,\"nbuf\":0,\"duration_ms\":10000,"
	    "\"streams\":1,\"sndbuf\":0,\"rcvbuf\":0,\"mss\":10,"
	    "\"interval_ms\":0,\"link_mbps\":0,\"mtu\":0,\"cc\":\"\",\"nodelay\":false,\"force_bufs\":false,\"capture\":false}}", "mss" },
	{ PROTO_HELLO, "{\"version\":\"1\",\"params\":{\"direction\":0,"
	    "\"buflen\":131072,\"nbuf\":0,\"duration_ms\":10000,"
	    "\"streams\":1,\"sndbuf\":0,\"rcvbuf\":0,\"mss\":0,"
	    "\"interval_ms\":20000,\"link_mbps\":0,\"mtu\":0,\"cc\":\"\",\"nodelay\":false,\"force_bufs\":false,\"capture\":false}}", "interval" },
	{ PROTO_HELLO, "{\"version\":\"1\",\"params\":{\"direction\":0,"
	    "\"buflen\":131072,\"nbuf\":0,\"duration_ms\":10000,"
	    "\"streams\":1,\"sndbuf\":18446744073709551615,\"rcvbuf\":0,"
	    "\"mss\":0,\"interval_ms\":0,\"link_mbps\":0,\"mtu\":0,\"cc\":\"\",\"nodelay\":false,\"force_bufs\":false,\"capture\":false}}", "" },
	{ PROTO_HELLO, "{\"version\":\"1\",\"params\":{\"direction\":0,"
	    P_OK ",\"nodelay\":false}}", "force_bufs" },
	{ PROTO_HELLO, "{\"version\":\"1\",\"params\":{\"direction\":0,"
	    P_OK ",\"nodelay\":false,\"force_bufs\":0}}", "force_bufs" },
	{ PROTO_HELLO, "{\"version\":\"1\",\"params\":{\"direction\":0,"
	    P_OK ",\"nodelay\":false,\"force_bufs\":false}}", "capture" },
	{ PROTO_HELLO, "{\"version\":\"1\",\"params\":{\"direction\":0,"
	    "\"buflen\":131072,\"nbuf\":0,\"duration_ms\":10000,"
	    "\"streams\":1,\"sndbuf\":0,\"rcvbuf\":0,\"mss\":0,"
	    "\"interval_ms\":0,\"link_mbps\":0,\"mtu\":900,\"cc\":\"\","
	    "\"nodelay\":false,\"force_bufs\":false,\"capture\":false}}",
	    "mtu" },
	{ PROTO_HELLO, "{\"version\":\"1\",\"params\":{\"direction\":0,"
	    "\"buflen\":131072,\"nbuf\":0,\"duration_ms\":10000,"
	    "\"streams\":1,\"sndbuf\":0,\"rcvbuf\":0,\"mss\":0,"
	    "\"interval_ms\":0,\"link_mbps\":0,\"mtu\":0,"
	    "\"cc\":\"../../x\",\"nodelay\":false,\"force_bufs\":false,"
	    "\"capture\":false}}", "congestion" },
	{ PROTO_HELLO, "{\"version\":\"1\",\"params\":{\"direction\":0,"
	    "\"buflen\":131072,\"nbuf\":0,\"duration_ms\":10000,"
	    "\"streams\":1,\"sndbuf\":0,\"rcvbuf\":0,\"mss\":0,"
	    "\"interval_ms\":0,\"link_mbps\":0,\"mtu\":0,"
	    "\"cc\":\"averyveryverylongname\",\"nodelay\":false,"
	    "\"force_bufs\":false,\"capture\":false}}", "cc" },
	{ PROTO_ACCEPT, "{}", "token" },
	{ PROTO_ACCEPT, "{\"token\":\"xyz\"}", "token" },
	{ PROTO_ACCEPT, "{\"token\":\"" TOKEN "0\"}", "token" },
	{ PROTO_ACCEPT, "{\"token\":\"0123456789ABCDEF0123456789ABCDEF\"}",
	    "token" },
	{ PROTO_ACCEPT, "{\"token\":null}", "token" },
	{ PROTO_DATA, "{\"token\":\"" TOKEN "\"}", "stream" },
	{ PROTO_DATA, "{\"token\":\"" TOKEN "\",\"stream\":128}", "stream" },
	{ PROTO_DATA, "{\"token\":\"" TOKEN "\",\"stream\":-1}", "stream" },
	{ PROTO_DATA, "{\"token\":\"" TOKEN "\",\"stream\":true}", "stream" },
	{ PROTO_REFUSE, "{\"code\":0,\"message\":\"x\"}", "code" },
	{ PROTO_REFUSE, "{\"code\":1}", "message" },
	{ PROTO_ERROR, "{\"message\":5}", "message" },
	{ PROTO_START, "[]", "not a JSON object" },
	{ PROTO_DONE, "{}", "side" },
	{ PROTO_DONE, "{\"side\":7}", "" },
	{ PROTO_RESULT, "{\"side\":{\"bytes\":\"many\"}}", "" },
};

static void
test_bad_bodies(void **state)
{
	struct proto_msg m;
	char err[GB_ERR_LEN];
	uint8_t *buf;
	size_t i, len;
	int rc;

	(void)state;
	for (i = 0; i < sizeof(bad_bodies) / sizeof(bad_bodies[0]); i++) {
		buf = frame(bad_bodies[i].type, bad_bodies[i].body, &len);
		err[0] = '\0';
		rc = feed(buf, len, &m, err);
		free(buf);
		if (rc != PROTO_E_BODY)
			fail_msg("case %zu (%s) decoded: %d", i,
			    bad_bodies[i].body, rc);
		if (strstr(err, bad_bodies[i].needle) == NULL)
			fail_msg("case %zu: error \"%s\" lacks \"%s\"", i, err,
			    bad_bodies[i].needle);
	}
}

static void
test_params_check(void **state)
{
	struct gb_params p;
	char err[GB_ERR_LEN];

	(void)state;
	params_init(&p);
	assert_int_equal(proto_params_check(&p, err, sizeof(err)), 0);
	p.interval_ms = 20000;
	assert_int_equal(proto_params_check(&p, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "interval"));
	params_init(&p);
	p.sndbuf = 10;
	assert_int_equal(proto_params_check(&p, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "socket buffer"));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_roundtrip_hello),
		cmocka_unit_test(test_roundtrip_small),
		cmocka_unit_test(test_roundtrip_side),
		cmocka_unit_test(test_header_edges),
		cmocka_unit_test(test_reader_rejects_before_alloc),
		cmocka_unit_test(test_reader_exact),
		cmocka_unit_test(test_reader_truncated),
		cmocka_unit_test(test_bad_bodies),
		cmocka_unit_test(test_params_check),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
