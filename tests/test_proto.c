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

#include "codec/proto.h"

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

/*
 * An error message whose JSON body holds msg (JSON escapes allowed) is
 * refused by the decoder; proto_encode() itself sends such bytes
 * escaped ("\\x1b").
 */
static void
bad_message(const char *json_text, const char *raw, const char *escaped)
{
	struct proto_msg in, out;
	char body[256], err[GB_ERR_LEN] = "";
	uint8_t *buf;
	size_t len;

	snprintf(body, sizeof(body), "{\"message\":\"%s\"}", json_text);
	buf = frame(PROTO_ERROR, body, &len);
	assert_int_equal(feed(buf, len, &out, err), PROTO_E_BODY);
	if (strstr(err, "member \"message\" holds a byte that is not "
	    "printable ASCII") == NULL)
		fail_msg("%s", err);
	free(buf);
	memset(&in, 0, sizeof(in));
	in.type = PROTO_ERROR;
	snprintf(in.message, sizeof(in.message), "%s", raw);
	roundtrip(&in, &out);
	/* sent on escaped, which the decoder takes */
	assert_string_equal(out.message, escaped);
}


/* The key exchange's members: a nonce is 64 lowercase hex digits. */
static void
test_roundtrip_auth(void **state)
{
	static const char nonce[] = "00112233445566778899aabbccddeeff"
	    "00112233445566778899aabbccddeeff";
	static const char *const bad[] = {
		"{}", "{\"nonce\": 5}", "{\"nonce\": \"\"}",
		"{\"nonce\": \"00112233445566778899aabbccddeeff"
		    "00112233445566778899aabbccddeef\"}",
		"{\"nonce\": \"00112233445566778899aabbccddeeff"
		    "00112233445566778899aabbccddeeff0\"}",
		"{\"nonce\": \"00112233445566778899AABBCCDDEEFF"
		    "00112233445566778899aabbccddeeff\"}",
	};
	struct proto_msg in, out;
	char err[GB_ERR_LEN];
	size_t i;

	(void)state;
	memset(&in, 0, sizeof(in));
	in.type = PROTO_HELLO;
	in.params.buflen = 1024;
	in.params.streams = 1;
	in.params.duration_ms = 1000;
	roundtrip(&in, &out);
	assert_string_equal(out.nonce, "");	/* no key, no nonce */
	memcpy(in.nonce, nonce, sizeof(nonce));
	roundtrip(&in, &out);
	assert_string_equal(out.nonce, nonce);
	memset(&in, 0, sizeof(in));
	in.type = PROTO_CHALLENGE;
	memcpy(in.nonce, nonce, sizeof(nonce));
	roundtrip(&in, &out);
	assert_string_equal(out.nonce, nonce);
	in.type = PROTO_AUTH;
	roundtrip(&in, &out);
	in.type = PROTO_REFUSE;
	in.refusal = PROTO_REFUSE_AUTH;
	roundtrip(&in, &out);
	assert_int_equal(out.refusal, PROTO_REFUSE_AUTH);
	assert_string_equal(proto_refusal_str(PROTO_REFUSE_AUTH),
	    "authentication");
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (proto_body_decode(PROTO_CHALLENGE, (const uint8_t *)bad[i],
		    strlen(bad[i]), &out, err, sizeof(err)) != PROTO_E_BODY)
			fail_msg("challenge %s: accepted", bad[i]);
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
	in.params.tx_path = GB_PATH_ZEROCOPY;
	in.params.rx_path = GB_PATH_SPLICE;
	strcpy(in.params.affinity, "0-3,7");
	in.params.fq_rate = GB_MAX_FQ_RATE;
	in.params.tos = 0xb8;
	roundtrip(&in, &out);
	assert_memory_equal(&in.params, &out.params, sizeof(in.params));
	assert_string_not_equal(out.version, "");

	/* The other paths, and the plain ones (0 in the struct). */
	in.params.tx_path = GB_PATH_SENDFILE;
	in.params.rx_path = GB_PATH_SKIP_RX_COPY;
	in.params.fq_rate = GB_MIN_FQ_RATE;
	roundtrip(&in, &out);
	assert_memory_equal(&in.params, &out.params, sizeof(in.params));
	in.params.tx_path = in.params.rx_path = 0;
	memset(in.params.affinity, 0, sizeof(in.params.affinity));
	in.params.fq_rate = in.params.tos = 0;
	roundtrip(&in, &out);
	assert_memory_equal(&in.params, &out.params, sizeof(in.params));

	/* --crr: rr and crr, both carried. */
	in.params.direction = GB_DIR_CLIENT_SENDS;
	in.params.nbuf = 0;
	in.params.rr = in.params.crr = 1;
	in.params.req_size = 100;
	in.params.resp_size = 200;
	roundtrip(&in, &out);
	assert_memory_equal(&in.params, &out.params, sizeof(in.params));
	assert_int_equal(out.params.crr, 1);
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
	strcpy(in.message, "busy \"quoted\" \\ ~");
	roundtrip(&in, &out);
	assert_int_equal(out.refusal, PROTO_REFUSE_BUSY);
	assert_string_equal(out.message, in.message);

	in.type = PROTO_ERROR;
	roundtrip(&in, &out);
	assert_string_equal(out.message, in.message);

	/*
	 * What the peer prints must stay on its line and out of its
	 * terminal's control: a newline, an ESC, a C1 control (UTF-8 C2 9B,
	 * CSI) or any byte past ASCII is refused, the member named.
	 */
	bad_message("forged\\ngigebench: line", "forged\ngigebench: line",
	    "forged\\x0agigebench: line");
	bad_message("\\u001b[31mred", "\x1b[31mred", "\\x1b[31mred");
	bad_message("\\u001b]0;title\\u0007", "\x1b]0;title\x07",
	    "\\x1b]0;title\\x07");
	bad_message("csi \\u009b", "csi \xc2\x9b", "csi \\xc2\\x9b");
	bad_message("caf\\u00e9", "caf\xc3\xa9", "caf\\xc3\\xa9");

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
	in.side.data_path = GB_PATH_ZEROCOPY;
	in.side.zerocopy.has = 1;
	in.side.zerocopy.sends = in.side.zerocopy.completions = 37588;
	in.side.zerocopy.copied = 12;
	in.side.tos = 0x10;
	in.side.has_fq_rate = 1;
	in.side.fq_rate = 12500000;
	in.side.nstreams = 2;
	in.side.streams[0].bytes = 2463315254;
	in.side.streams[0].seconds = 60.0012;
	in.side.streams[0].cpu = 1;
	in.side.streams[0].pinned = 1;
	in.side.streams[0].path = GB_PATH_ZEROCOPY;
	in.side.streams[1].bytes = 2463317255;
	in.side.streams[1].seconds = 59.9;
	in.side.streams[1].cpu = -1;
	in.side.streams[1].pinned = -1;
	in.side.streams[1].path = GB_PATH_SEND;
	in.side.rr.has = 1;		/* --crr's counts */
	in.side.rr.transactions = 14181;
	in.side.rr.connections = 14180;
	roundtrip(&in, &out);
	assert_memory_equal(&out.side.rr, &in.side.rr, sizeof(in.side.rr));
	assert_int_equal(out.side.data_path, GB_PATH_ZEROCOPY);
	assert_memory_equal(&out.side.zerocopy, &in.side.zerocopy,
	    sizeof(in.side.zerocopy));
	assert_int_equal(out.side.tos, 0x10);
	assert_int_equal(out.side.has_fq_rate, 1);
	assert_int_equal(out.side.fq_rate, 12500000);
	assert_int_equal(out.side.nstreams, 2);
	assert_memory_equal(out.side.streams, in.side.streams,
	    2 * sizeof(in.side.streams[0]));
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

/*
 * -u: a side's datagram figures (sender's and receiver's members alike)
 * survive the trip, a TCP side's udp stays absent, and a negative jitter
 * (what no receiver computes) is refused with the member named.
 */
static void
test_roundtrip_side_udp(void **state)
{
	struct proto_msg in, out;
	char err[GB_ERR_LEN] = "";
	uint8_t *buf;
	size_t len;

	(void)state;
	memset(&in, 0, sizeof(in));
	in.type = PROTO_RESULT;
	in.side.has = 1;
	in.side.bytes = UINT64_C(2500400);
	in.side.seconds = 1.0012;
	in.side.tos = -1;
	in.side.data_path = GB_PATH_RECVMMSG;
	in.side.udp.has = 1;
	in.side.udp.length = 1400;
	in.side.udp.batch = 32;
	in.side.udp.datagrams = 1786;
	/* A receiver's: its figures; the sender's count as null, 0 here. */
	in.side.udp.receiver = 1;
	in.side.udp.gaps = 7;
	in.side.udp.ooo = 5;
	in.side.udp.dup = 1;
	in.side.udp.stray = UINT64_C(9007199254740993);	/* past 2^53 */
	in.side.udp.jitter_ms = 0.0340373712508;
	in.side.nstreams = 1;
	in.side.streams[0].bytes = in.side.bytes;
	in.side.streams[0].seconds = in.side.seconds;
	in.side.streams[0].cpu = in.side.streams[0].pinned = -1;
	in.side.streams[0].path = GB_PATH_RECVMMSG;
	roundtrip(&in, &out);
	assert_memory_equal(&out.side.udp, &in.side.udp, sizeof(in.side.udp));
	assert_int_equal(out.side.data_path, GB_PATH_RECVMMSG);
	assert_int_equal(out.side.streams[0].path, GB_PATH_RECVMMSG);
	/* A sender's: the receiver's figures are null, 0 once decoded. */
	in.type = PROTO_DONE;
	in.side.data_path = in.side.streams[0].path = GB_PATH_SENDMMSG;
	in.side.udp.receiver = 0;
	in.side.udp.gaps = in.side.udp.ooo = in.side.udp.dup = 0;
	in.side.udp.stray = 0;
	in.side.udp.jitter_ms = 0;
	in.side.udp.enobufs = 3;
	in.side.udp.refused = 2;
	roundtrip(&in, &out);
	assert_memory_equal(&out.side.udp, &in.side.udp, sizeof(in.side.udp));
	assert_int_equal(out.side.data_path, GB_PATH_SENDMMSG);

	/* A TCP side: no udp figures. */
	memset(&in.side.udp, 0, sizeof(in.side.udp));
	in.side.data_path = in.side.streams[0].path = GB_PATH_SEND;
	roundtrip(&in, &out);
	assert_int_equal(out.side.udp.has, 0);

	/* A negative jitter: the decoder refuses it, naming the member. */
	in.side.udp.has = 1;
	in.side.udp.receiver = 1;
	in.side.udp.length = 1400;
	in.side.udp.batch = 32;
	in.side.udp.jitter_ms = -0.5;
	buf = proto_encode(&in, &len);
	assert_non_null(buf);
	assert_int_equal(feed(buf, len, &out, err), PROTO_E_BODY);
	if (strstr(err, "jitter_ms") == NULL ||
	    strstr(err, "negative") == NULL)
		fail_msg("a negative jitter: \"%s\" does not name jitter_ms",
		    err);
	free(buf);
}

/* -u's params: the protocol, each rate, the batch survive the hello. */
static void
test_roundtrip_hello_udp(void **state)
{
	struct proto_msg in, out;

	(void)state;
	memset(&in, 0, sizeof(in));
	in.type = PROTO_HELLO;
	params_init(&in.params);
	in.params.udp = 1;
	in.params.buflen = 1400;
	in.params.streams = 4;
	in.params.nbuf = 500;
	in.params.rate_bps = 20000000;
	in.params.batch = 64;
	roundtrip(&in, &out);
	assert_memory_equal(&in.params, &out.params, sizeof(in.params));
	in.params.rate_bps = 0;
	in.params.rate_pps = 100000;
	in.params.batch = GB_MAX_BATCH;
	in.params.buflen = GB_MIN_DGRAM;
	roundtrip(&in, &out);
	assert_memory_equal(&in.params, &out.params, sizeof(in.params));
	in.params.rate_pps = 0;		/* -R 0: unpaced */
	in.params.buflen = GB_MAX_DGRAM;
	roundtrip(&in, &out);
	assert_memory_equal(&in.params, &out.params, sizeof(in.params));
	assert_int_equal(out.params.udp, 1);
}

static void
interval_equal(const struct gb_interval *a, const struct gb_interval *b)
{
	assert_true(a->start_s == b->start_s && a->end_s == b->end_s);
	assert_int_equal(a->bytes, b->bytes);
	assert_int_equal(a->has_udp, b->has_udp);
	assert_int_equal(a->datagrams, b->datagrams);
	assert_int_equal(a->lost, b->lost);
	assert_true(a->jitter_ms == b->jitter_ms);
	assert_int_equal(a->has_tcp, b->has_tcp);
	assert_int_equal(a->retrans, b->retrans);
	assert_int_equal(a->cwnd, b->cwnd);
	assert_int_equal(a->rtt_us, b->rtt_us);
	assert_int_equal(a->has_limited, b->has_limited);
	assert_true(a->rwnd_limited_pct == b->rwnd_limited_pct);
	assert_true(a->sndbuf_limited_pct == b->sndbuf_limited_pct);
	assert_int_equal(a->has_host, b->has_host);
	assert_true(a->host_busy_pct == b->host_busy_pct);
	assert_true(a->host_max_cpu_pct == b->host_max_cpu_pct);
	assert_int_equal(a->host_ncpus, b->host_ncpus);
	assert_int_equal(a->has_proc, b->has_proc);
	assert_true(a->proc_cpu_s == b->proc_cpu_s);
	assert_int_equal(a->has_irq, b->has_irq);
	assert_int_equal(a->interrupts, b->interrupts);
	assert_int_equal(a->has_softirq, b->has_softirq);
	assert_int_equal(a->net_rx_softirqs, b->net_rx_softirqs);
	assert_int_equal(a->has_rr, b->has_rr);
	assert_int_equal(a->transactions, b->transactions);
	assert_int_equal(a->has_latency, b->has_latency);
	assert_true(a->p50_us == b->p50_us && a->p99_us == b->p99_us &&
	    a->max_us == b->max_us);
}

/* Every member of a slice survives the wire, nulls as nulls. */
static void
test_roundtrip_interval(void **state)
{
	struct proto_msg in, out;
	const struct gb_interval *o = &out.interval;

	(void)state;
	memset(&in, 0, sizeof(in));
	in.type = PROTO_INTERVAL;
	in.interval = (struct gb_interval){ .start_s = 1.5, .end_s = 2.5,
	    .bytes = UINT64_C(123456789012), .has_tcp = 1, .retrans = 7,
	    .cwnd = 4000000000u, .rtt_us = 321, .has_limited = 1,
	    .rwnd_limited_pct = 12.5, .sndbuf_limited_pct = 100,
	    .has_host = 1, .host_busy_pct = 0.25, .host_max_cpu_pct = 99.75,
	    .host_ncpus = 128, .has_proc = 1, .proc_cpu_s = 0.875,
	    .has_irq = 1, .interrupts = UINT64_C(5000000000),
	    .has_softirq = 1, .net_rx_softirqs = 77 };
	roundtrip(&in, &out);
	interval_equal(o, &in.interval);
	assert_false(o->reverse);
	/* --bidir: a slice of the half going back says so. */
	in.interval.reverse = 1;
	roundtrip(&in, &out);
	assert_true(o->reverse);

	/* -u, no TCP state, no host figures. */
	in.interval = (struct gb_interval){ .start_s = 0, .end_s = 0.1,
	    .bytes = 1000, .has_udp = 1, .datagrams = 10, .lost = 2,
	    .jitter_ms = 0.5 };
	roundtrip(&in, &out);
	interval_equal(o, &in.interval);
	assert_false(o->has_tcp);
	assert_false(o->has_host);

	/* --rr: transactions, the asker's latencies; the answerer's none. */
	in.interval = (struct gb_interval){ .start_s = 0, .end_s = 0.5,
	    .has_rr = 1, .transactions = 61234, .has_latency = 1,
	    .p50_us = 16.25, .p99_us = 28.5, .max_us = 4054.25 };
	roundtrip(&in, &out);
	interval_equal(o, &in.interval);
	in.interval.has_latency = 0;
	in.interval.p50_us = in.interval.p99_us = in.interval.max_us = 0;
	roundtrip(&in, &out);
	interval_equal(o, &in.interval);

	/* A kernel without the limited times. */
	in.interval = (struct gb_interval){ .start_s = 0, .end_s = 1,
	    .has_tcp = 1, .cwnd = 10 };
	roundtrip(&in, &out);
	assert_true(o->has_tcp);
	assert_false(o->has_limited);
	assert_string_equal(proto_type_str(PROTO_INTERVAL), "interval");
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
	proto_header_encode(hdr, PROTO_HELLO, 10);
	hdr[7] = 2;
	assert_int_equal(proto_header_decode(hdr, &h), PROTO_E_FLAGS);
	hdr[7] = 0;
	hdr[6] = 0x80;
	assert_int_equal(proto_header_decode(hdr, &h), PROTO_E_FLAGS);
	/* PROTO_F_MAC: the length holds a tag, and the cap the body. */
	hdr[6] = 0;
	hdr[7] = PROTO_F_MAC;
	assert_int_equal(proto_header_decode(hdr, &h), PROTO_E_LENGTH);
	proto_header_encode(hdr, PROTO_START, 0);
	proto_header_seal(hdr);
	assert_int_equal(proto_header_decode(hdr, &h), PROTO_OK);
	assert_int_equal(h.flags, PROTO_F_MAC);
	assert_int_equal(h.length, PROTO_TAG_LEN);
	proto_header_encode(hdr, PROTO_RESULT, PROTO_MAX_BODY);
	proto_header_seal(hdr);
	assert_int_equal(proto_header_decode(hdr, &h), PROTO_OK);
	proto_header_encode(hdr, PROTO_RESULT, PROTO_MAX_BODY + 1);
	proto_header_seal(hdr);
	assert_int_equal(proto_header_decode(hdr, &h), PROTO_E_LENGTH);
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

#define IV_HEAD "{\"interval\":{\"omitted\":false,\"reverse\":false,\"start\":0,\"end\":1,\"bytes\":10," \
	"\"datagrams\":null,\"lost\":null,\"jitter_ms\":null,"

struct bad_body {
	int		 type;
	const char	*body;
	const char	*needle;	/* expected in the error */
};

#define P_OK "\"buflen\":131072,\"nbuf\":0,\"duration_ms\":10000," \
	"\"streams\":1,\"sndbuf\":0,\"rcvbuf\":0,\"mss\":0,\"interval_ms\":0," \
	"\"link_mbps\":0,\"mtu\":0,\"cc\":\"\""
/* Issue 5's members (and --omit's), checked after the others. */
#define P_UDP ",\"udp\":false,\"rate_bps\":0,\"rate_pps\":0,\"batch\":0," \
	"\"gso\":false,\"gro\":false,\"omit_ms\":0,\"rr\":false," \
	"\"crr\":false,\"req_size\":0,\"resp_size\":0,\"rr_burst\":0," \
	"\"rr_timeout_ms\":0,\"bidir\":false,\"profile\":false,\"threads\":0," \
	"\"probes\":0,\"probe_tos\":0,\"probe_rate\":0,\"probe_crr\":false"
/* --rr's members: rr, crr, rr_burst as given. */
#define P_RR(rr, crr, burst) ",\"tx_path\":\"send\",\"rx_path\":\"recv\"," \
	"\"affinity\":\"\",\"fq_rate\":0,\"tos\":0,\"udp\":false," \
	"\"rate_bps\":0,\"rate_pps\":0,\"batch\":0,\"gso\":false," \
	"\"gro\":false,\"omit_ms\":0,\"rr\":" rr ",\"crr\":" crr "," \
	"\"req_size\":0,\"resp_size\":0,\"rr_burst\":" burst "," \
	"\"rr_timeout_ms\":0,\"bidir\":false,\"profile\":false,\"threads\":0," \
	"\"probes\":0,\"probe_tos\":0,\"probe_rate\":0,\"probe_crr\":false"
#define P_PATH ",\"tx_path\":\"send\",\"rx_path\":\"recv\",\"affinity\":\"\"," \
	"\"fq_rate\":0,\"tos\":0" P_UDP
#define P_FLAGS ",\"nodelay\":false,\"force_bufs\":false,\"capture\":false"
#define HELLO(params) "{\"program\":\"gigebench\",\"version\":\"1\",\"params\":{\"direction\":0," \
	P_OK P_FLAGS params "}}"

static const struct bad_body bad_bodies[] = {
	{ PROTO_HELLO, "", "not a JSON object" },
	{ PROTO_HELLO, "[]", "not a JSON object" },
	{ PROTO_HELLO, "{\"title\":\"\\u", "not a JSON object" },
	{ PROTO_HELLO, "{} trailing", "not a JSON object" },
	{ PROTO_HELLO, "{\"a\":1,\"a\":2}", "not a JSON object" },
	{ PROTO_HELLO, "{}", "program" },
	{ PROTO_HELLO, "{\"program\":\"iperf3\",\"version\":\"1\"}",
	    "program" },
	{ PROTO_HELLO, "{\"program\":7}", "program" },
	{ PROTO_HELLO, "{\"program\":\"gigebench\"}", "version" },
	{ PROTO_HELLO, "{\"program\":\"gigebench\",\"version\":1}", "version" },
	{ PROTO_HELLO, "{\"program\":\"gigebench\",\"version\":\"1\"}", "params" },
	{ PROTO_HELLO, "{\"program\":\"gigebench\",\"version\":\"1\",\"params\":\"x\"}", "params" },
	{ PROTO_HELLO, "{\"program\":\"gigebench\",\"version\":\"1\",\"params\":{\"direction\":0,"
	    P_OK "}}", "nodelay" },
	{ PROTO_HELLO, "{\"program\":\"gigebench\",\"version\":\"1\",\"params\":{\"direction\":2,"
	    P_OK ",\"nodelay\":false,\"force_bufs\":false,\"capture\":false}}", "direction" },
	{ PROTO_HELLO, "{\"program\":\"gigebench\",\"version\":\"1\",\"params\":{\"direction\":0,"
	    "\"buflen\":\"131072\",\"nbuf\":0,\"duration_ms\":10000,"
	    "\"streams\":1,\"sndbuf\":0,\"rcvbuf\":0,\"mss\":0,"
	    "\"interval_ms\":0,\"link_mbps\":0,\"mtu\":0,\"cc\":\"\",\"nodelay\":false,\"force_bufs\":false,\"capture\":false}}", "buflen" },
	{ PROTO_HELLO, "{\"program\":\"gigebench\",\"version\":\"1\",\"params\":{\"direction\":0,"
	    "\"buflen\":67108865,\"nbuf\":0,\"duration_ms\":10000,"
	    "\"streams\":1,\"sndbuf\":0,\"rcvbuf\":0,\"mss\":0,"
	    "\"interval_ms\":0,\"link_mbps\":0,\"mtu\":0,\"cc\":\"\",\"nodelay\":false,\"force_bufs\":false,\"capture\":false}}", "buflen" },
	{ PROTO_HELLO, "{\"program\":\"gigebench\",\"version\":\"1\",\"params\":{\"direction\":0,"
	    "\"buflen\":131072,\"nbuf\":-1,\"duration_ms\":10000,"
	    "\"streams\":1,\"sndbuf\":0,\"rcvbuf\":0,\"mss\":0,"
	    "\"interval_ms\":0,\"link_mbps\":0,\"mtu\":0,\"cc\":\"\",\"nodelay\":false,\"force_bufs\":false,\"capture\":false}}", "nbuf" },
	{ PROTO_HELLO, "{\"program\":\"gigebench\",\"version\":\"1\",\"params\":{\"direction\":0,"
	    "\"buflen\":131072,\"nbuf\":0,\"duration_ms\":10000,"
	    "\"streams\":10001,\"sndbuf\":0,\"rcvbuf\":0,\"mss\":0,"
	    "\"interval_ms\":0,\"link_mbps\":0,\"mtu\":0,\"cc\":\"\",\"nodelay\":false,\"force_bufs\":false,\"capture\":false}}", "streams" },
	{ PROTO_HELLO, "{\"program\":\"gigebench\",\"version\":\"1\",\"params\":{\"direction\":0,"
	    "\"buflen\":131072,\"nbuf\":0,\"duration_ms\":1.5e9,"
	    "\"streams\":1,\"sndbuf\":0,\"rcvbuf\":0,\"mss\":0,"
	    "\"interval_ms\":0,\"link_mbps\":0,\"mtu\":0,\"cc\":\"\",\"nodelay\":false,\"force_bufs\":false,\"capture\":false}}", "duration_ms" },
	{ PROTO_HELLO, "{\"program\":\"gigebench\",\"version\":\"1\",\"params\":{\"direction\":0,"
	    "\"buflen\":131072,\"nbuf\":0,\"duration_ms\":10000,"
	    "\"streams\":1,\"sndbuf\":0,\"rcvbuf\":0,\"mss\":10,"
	    "\"interval_ms\":0,\"link_mbps\":0,\"mtu\":0,\"cc\":\"\",\"nodelay\":false,\"force_bufs\":false,\"capture\":false" P_PATH "}}", "mss" },
	{ PROTO_HELLO, "{\"program\":\"gigebench\",\"version\":\"1\",\"params\":{\"direction\":0,"
	    "\"buflen\":131072,\"nbuf\":0,\"duration_ms\":10000,"
	    "\"streams\":1,\"sndbuf\":0,\"rcvbuf\":0,\"mss\":0,"
	    "\"interval_ms\":20000,\"link_mbps\":0,\"mtu\":0,\"cc\":\"\",\"nodelay\":false,\"force_bufs\":false,\"capture\":false" P_PATH "}}", "interval" },
	{ PROTO_HELLO, "{\"program\":\"gigebench\",\"version\":\"1\",\"params\":{\"direction\":0,"
	    "\"buflen\":131072,\"nbuf\":0,\"duration_ms\":10000,"
	    "\"streams\":1,\"sndbuf\":18446744073709551615,\"rcvbuf\":0,"
	    "\"mss\":0,\"interval_ms\":0,\"link_mbps\":0,\"mtu\":0,\"cc\":\"\",\"nodelay\":false,\"force_bufs\":false,\"capture\":false}}", "" },
	{ PROTO_HELLO, "{\"program\":\"gigebench\",\"version\":\"1\",\"params\":{\"direction\":0,"
	    P_OK ",\"nodelay\":false}}", "force_bufs" },
	{ PROTO_HELLO, "{\"program\":\"gigebench\",\"version\":\"1\",\"params\":{\"direction\":0,"
	    P_OK ",\"nodelay\":false,\"force_bufs\":0}}", "force_bufs" },
	{ PROTO_HELLO, "{\"program\":\"gigebench\",\"version\":\"1\",\"params\":{\"direction\":0,"
	    P_OK ",\"nodelay\":false,\"force_bufs\":false}}", "capture" },
	{ PROTO_HELLO, "{\"program\":\"gigebench\",\"version\":\"1\",\"params\":{\"direction\":0,"
	    "\"buflen\":131072,\"nbuf\":0,\"duration_ms\":10000,"
	    "\"streams\":1,\"sndbuf\":0,\"rcvbuf\":0,\"mss\":0,"
	    "\"interval_ms\":0,\"link_mbps\":0,\"mtu\":900,\"cc\":\"\","
	    "\"nodelay\":false,\"force_bufs\":false,\"capture\":false"
	    P_PATH "}}", "mtu" },
	{ PROTO_HELLO, "{\"program\":\"gigebench\",\"version\":\"1\",\"params\":{\"direction\":0,"
	    "\"buflen\":131072,\"nbuf\":0,\"duration_ms\":10000,"
	    "\"streams\":1,\"sndbuf\":0,\"rcvbuf\":0,\"mss\":0,"
	    "\"interval_ms\":0,\"link_mbps\":0,\"mtu\":0,"
	    "\"cc\":\"../../x\",\"nodelay\":false,\"force_bufs\":false,"
	    "\"capture\":false" P_PATH "}}", "congestion" },
	/* --crr: a kind of --rr, one transaction a connection */
	{ PROTO_HELLO, HELLO(P_RR("false", "true", "0")),
	    "--crr is a kind of --rr" },
	{ PROTO_HELLO, HELLO(P_RR("true", "true", "2")),
	    "--rr-burst cannot be used with --crr" },
	{ PROTO_HELLO, HELLO(P_RR("true", "1", "0")), "crr" },
	/* issue 5: data paths, -A, --fq-rate, --tos */
	{ PROTO_HELLO, HELLO(""), "tx_path" },
	{ PROTO_HELLO, HELLO(",\"tx_path\":\"recv\",\"rx_path\":\"recv\","
	    "\"affinity\":\"\",\"fq_rate\":0,\"tos\":0" P_UDP),
	    "\"tx_path\" is not send, zerocopy or sendfile: \"recv\"" },
	{ PROTO_HELLO, HELLO(",\"tx_path\":\"send\",\"rx_path\":\"zerocopy\","
	    "\"affinity\":\"\",\"fq_rate\":0,\"tos\":0" P_UDP),
	    "\"rx_path\" is not recv, skip_rx_copy or splice" },
	{ PROTO_HELLO, HELLO(",\"tx_path\":1,\"rx_path\":\"recv\","
	    "\"affinity\":\"\",\"fq_rate\":0,\"tos\":0" P_UDP), "tx_path" },
	{ PROTO_HELLO, HELLO(",\"tx_path\":\"sendfile-and-some-more\","
	    "\"rx_path\":\"recv\",\"affinity\":\"\",\"fq_rate\":0,\"tos\":0" P_UDP),
	    "tx_path\" is too long" },
	{ PROTO_HELLO, HELLO(",\"tx_path\":\"send\",\"rx_path\":\"Splice\","
	    "\"affinity\":\"\",\"fq_rate\":0,\"tos\":0" P_UDP), "rx_path" },
	{ PROTO_HELLO, HELLO(",\"tx_path\":\"send\",\"rx_path\":\"recv\","
	    "\"fq_rate\":0,\"tos\":0" P_UDP), "affinity" },
	{ PROTO_HELLO, HELLO(",\"tx_path\":\"send\",\"rx_path\":\"recv\","
	    "\"affinity\":\"0-\",\"fq_rate\":0,\"tos\":0" P_UDP),
	    "affinity: CPU list is not like 0,2 or 0-3: 0-" },
	{ PROTO_HELLO, HELLO(",\"tx_path\":\"send\",\"rx_path\":\"recv\","
	    "\"affinity\":\"4096\",\"fq_rate\":0,\"tos\":0" P_UDP),
	    "CPU number is too large" },
	{ PROTO_HELLO, HELLO(",\"tx_path\":\"send\",\"rx_path\":\"recv\","
	    "\"affinity\":\"../x\",\"fq_rate\":0,\"tos\":0" P_UDP), "affinity" },
	{ PROTO_HELLO, HELLO(",\"tx_path\":\"send\",\"rx_path\":\"recv\","
	    "\"affinity\":\"\",\"fq_rate\":-1,\"tos\":0" P_UDP), "fq_rate" },
	{ PROTO_HELLO, HELLO(",\"tx_path\":\"send\",\"rx_path\":\"recv\","
	    "\"affinity\":\"\",\"fq_rate\":1250000000001,\"tos\":0" P_UDP),
	    "fq_rate" },
	{ PROTO_HELLO, HELLO(",\"tx_path\":\"send\",\"rx_path\":\"recv\","
	    "\"affinity\":\"\",\"fq_rate\":124,\"tos\":0" P_UDP),
	    "pacing rate is out of range" },
	{ PROTO_HELLO, HELLO(",\"tx_path\":\"send\",\"rx_path\":\"recv\","
	    "\"affinity\":\"\",\"fq_rate\":\"1g\",\"tos\":0" P_UDP), "fq_rate" },
	{ PROTO_HELLO, HELLO(",\"tx_path\":\"send\",\"rx_path\":\"recv\","
	    "\"affinity\":\"\",\"fq_rate\":0,\"tos\":256"), "tos" },
	{ PROTO_HELLO, HELLO(",\"tx_path\":\"send\",\"rx_path\":\"recv\","
	    "\"affinity\":\"\",\"fq_rate\":0,\"tos\":16.5"), "tos" },
	{ PROTO_HELLO, HELLO(",\"tx_path\":\"send\",\"rx_path\":\"recv\","
	    "\"affinity\":\"\",\"fq_rate\":0"), "tos" },
	{ PROTO_HELLO, "{\"program\":\"gigebench\",\"version\":\"1\",\"params\":{\"direction\":0,"
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
	{ PROTO_DATA, "{\"token\":\"" TOKEN "\",\"stream\":10000}", "stream" },
	{ PROTO_DATA, "{\"token\":\"" TOKEN "\",\"stream\":-1}", "stream" },
	{ PROTO_DATA, "{\"token\":\"" TOKEN "\",\"stream\":true}", "stream" },
	{ PROTO_REFUSE, "{\"code\":0,\"message\":\"x\"}", "code" },
	{ PROTO_REFUSE, "{\"code\":1}", "message" },
	{ PROTO_ERROR, "{\"message\":5}", "message" },
	{ PROTO_START, "[]", "not a JSON object" },
	{ PROTO_DONE, "{}", "side" },
	{ PROTO_DONE, "{\"side\":7}", "" },
	{ PROTO_RESULT, "{\"side\":{\"bytes\":\"many\"}}", "" },
	/* The listener's -i slices. */
	{ PROTO_INTERVAL, "{}", "member \"interval\" is missing" },
	{ PROTO_INTERVAL, "{\"interval\":[]}", "not an object" },
	{ PROTO_INTERVAL, "{\"interval\":{\"start\":0}}", "omitted is missing" },
	{ PROTO_INTERVAL, "{\"interval\":{\"omitted\":1}}",
	    "omitted is not a boolean" },
	{ PROTO_INTERVAL, "{\"interval\":{\"omitted\":false,\"start\":0}}",
	    "reverse is missing" },
	{ PROTO_INTERVAL, "{\"interval\":{\"omitted\":false,\"reverse\":"
	    "\"yes\"}}", "reverse is not a boolean" },
	{ PROTO_INTERVAL, "{\"interval\":{\"omitted\":false,\"reverse\":false,\"start\":0,\"end\":1}}",
	    "bytes is missing" },
	{ PROTO_INTERVAL, "{\"interval\":{\"omitted\":false,\"reverse\":false,\"start\":2,\"end\":1,"
	    "\"bytes\":0}}", "end (1 s) is not after its start (2 s)" },
	{ PROTO_INTERVAL, "{\"interval\":{\"omitted\":false,\"reverse\":false,\"start\":-1,\"end\":1,"
	    "\"bytes\":0}}", "start is negative" },
	{ PROTO_INTERVAL, "{\"interval\":{\"omitted\":false,\"reverse\":false,\"start\":0,\"end\":1,"
	    "\"bytes\":-5}}", "bytes is negative" },
	{ PROTO_INTERVAL, IV_HEAD "\"tcp\":null}}", "host_cpu is missing" },
	{ PROTO_INTERVAL, "{\"interval\":{\"omitted\":false,\"reverse\":false,\"start\":0,\"end\":1,"
	    "\"bytes\":10,\"datagrams\":3,\"lost\":null,"
	    "\"jitter_ms\":null,\"tcp\":null,\"host_cpu\":null}}",
	    "lost is null, unlike datagrams" },
	{ PROTO_INTERVAL, IV_HEAD "\"tcp\":{\"retransmits\":0,\"cwnd\":-1,"
	    "\"rtt_us\":1,\"rwnd_limited_pct\":null,"
	    "\"sndbuf_limited_pct\":null},\"host_cpu\":null}}",
	    "tcp.cwnd is negative" },
	{ PROTO_INTERVAL, IV_HEAD "\"tcp\":{\"retransmits\":0,\"cwnd\":1,"
	    "\"rtt_us\":1,\"rwnd_limited_pct\":101,"
	    "\"sndbuf_limited_pct\":0},\"host_cpu\":null}}",
	    "tcp.rwnd_limited_pct is over 100" },
	{ PROTO_INTERVAL, IV_HEAD "\"tcp\":{\"retransmits\":0,\"cwnd\":1,"
	    "\"rtt_us\":1,\"rwnd_limited_pct\":null,"
	    "\"sndbuf_limited_pct\":3},\"host_cpu\":null}}",
	    "tcp.sndbuf_limited_pct is not null, unlike "
	    "tcp.rwnd_limited_pct" },
	{ PROTO_INTERVAL, IV_HEAD "\"tcp\":null,\"host_cpu\":{"
	    "\"busy_pct\":\"high\",\"max_cpu_busy_pct\":1}}}",
	    "host_cpu.busy_pct is not a number" },
	{ PROTO_INTERVAL, IV_HEAD "\"tcp\":null,\"host_cpu\":{"
	    "\"busy_pct\":1,\"max_cpu_busy_pct\":100.5}}}",
	    "host_cpu.max_cpu_busy_pct is over 100" },
	{ PROTO_INTERVAL, IV_HEAD "\"tcp\":null,\"host_cpu\":null}}",
	    "transactions is missing" },
	{ PROTO_INTERVAL, IV_HEAD "\"tcp\":null,\"host_cpu\":null,"
	    "\"transactions\":-1}}", "transactions is negative" },
	{ PROTO_INTERVAL, IV_HEAD "\"tcp\":null,\"host_cpu\":null,"
	    "\"transactions\":null,\"latency\":{\"p50_us\":1}}}",
	    "latency is not null, unlike transactions" },
	{ PROTO_INTERVAL, IV_HEAD "\"tcp\":null,\"host_cpu\":null,"
	    "\"transactions\":5,\"latency\":{\"p50_us\":9,\"p99_us\":2,"
	    "\"max_us\":10}}}", "latency.p99_us is not between p50_us and "
	    "max_us" },
	{ PROTO_INTERVAL, IV_HEAD "\"tcp\":null,\"host_cpu\":null,"
	    "\"transactions\":5,\"latency\":{\"p50_us\":1,\"p99_us\":2}}}",
	    "latency.max_us is missing" },
	{ PROTO_INTERVAL, IV_HEAD "\"tcp\":null,\"host_cpu\":{"
	    "\"busy_pct\":1,\"max_cpu_busy_pct\":2,\"ncpus\":0}}}",
	    "host_cpu.ncpus is out of range (1-8192): 0" },
	{ PROTO_INTERVAL, IV_HEAD "\"tcp\":null,\"host_cpu\":{"
	    "\"busy_pct\":1,\"max_cpu_busy_pct\":2}}}",
	    "host_cpu.ncpus is missing" },
	{ PROTO_INTERVAL, IV_HEAD "\"tcp\":null,\"host_cpu\":null,"
	    "\"transactions\":null,\"latency\":null}}",
	    "process_cpu_s is missing" },
	{ PROTO_INTERVAL, IV_HEAD "\"tcp\":null,\"host_cpu\":null,"
	    "\"transactions\":null,\"latency\":null,\"process_cpu_s\":-0.5}}",
	    "process_cpu_s is negative" },
	{ PROTO_INTERVAL, IV_HEAD "\"tcp\":null,\"host_cpu\":null,"
	    "\"transactions\":null,\"latency\":null,\"process_cpu_s\":1,"
	    "\"interrupts\":\"many\"}}", "interrupts is not an integer" },
	{ PROTO_INTERVAL, IV_HEAD "\"tcp\":null,\"host_cpu\":null,"
	    "\"transactions\":null,\"latency\":null,\"process_cpu_s\":1,"
	    "\"interrupts\":null}}", "net_rx_softirqs is missing" },
	{ PROTO_INTERVAL, IV_HEAD "\"tcp\":null,\"host_cpu\":null,"
	    "\"transactions\":1,\"latency\":null,\"process_cpu_s\":1e305,"
	    "\"interrupts\":null,\"net_rx_softirqs\":null}}",
	    "process_cpu_s is more than 8192 CPUs' time in the slice" },
	{ PROTO_INTERVAL, "{\"interval\":{\"omitted\":false,\"reverse\":"
	    "false,\"start\":0,\"end\":1e305,\"bytes\":10}}",
	    "end (1e+305 s) is past the longest test" },
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
	assert_int_equal(params_check(&p, err, sizeof(err)), 0);
	p.interval_ms = 20000;
	assert_int_equal(params_check(&p, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "interval"));
	params_init(&p);
	p.streams = 32;
	p.buflen = 64u * 1024 * 1024;	/* 2 GiB of buffers on the listener */
	assert_int_equal(params_check(&p, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "limit"));
	p.streams = 4;			/* 256 MiB: at the limit */
	assert_int_equal(params_check(&p, err, sizeof(err)), 0);
	params_init(&p);
	p.sndbuf = 10;
	assert_int_equal(params_check(&p, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "socket buffer"));

	/* issue 5's fields, as a caller other than the decoder sets them */
	params_init(&p);
	p.tx_path = GB_PATH_SPLICE;
	assert_int_equal(params_check(&p, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "data path"));
	params_init(&p);
	p.rx_path = GB_PATH_ZEROCOPY;
	assert_int_equal(params_check(&p, err, sizeof(err)), -1);
	params_init(&p);
	p.rx_path = GB_PATH_COUNT;
	assert_int_equal(params_check(&p, err, sizeof(err)), -1);
	params_init(&p);
	p.tx_path = GB_PATH_SENDFILE;
	p.rx_path = GB_PATH_SKIP_RX_COPY;
	strcpy(p.affinity, "0,1");
	p.fq_rate = GB_MAX_FQ_RATE;
	p.tos = GB_MAX_TOS;
	assert_int_equal(params_check(&p, err, sizeof(err)), 0);
	p.fq_rate = GB_MAX_FQ_RATE + 1;
	assert_int_equal(params_check(&p, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "pacing rate"));
	p.fq_rate = 0;
	p.tos = GB_MAX_TOS + 1;
	assert_int_equal(params_check(&p, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "TOS"));
	p.tos = 0;
	strcpy(p.affinity, "1,");
	assert_int_equal(params_check(&p, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "affinity"));
}

/*
 * The largest side there can be (128 streams with their TCP_INFO and
 * transactions, the flows' summary, 16 interrupt lines, 8 long warnings,
 * every string full, a spread of 64 CPUs with reals of 17 digits) still
 * fits in one message.
 */
static void
test_side_fits(void **state)
{
	struct proto_msg *m;
	uint8_t *buf;
	size_t len;
	unsigned i;

	(void)state;
	assert_non_null(m = calloc(1, sizeof(*m)));
	m->type = PROTO_DONE;
	m->side.has = 1;
	m->side.bytes = m->side.calls = UINT64_C(9223372036854775807);
	m->side.seconds = m->side.mbps = 1.0 / 3.0;
	memset(m->side.iface.name, 'x', sizeof(m->side.iface.name) - 1);
	memset(m->side.iface.irq_list, '9',
	    sizeof(m->side.iface.irq_list) - 1);
	memset(m->side.iface.irq_note, 'n',
	    sizeof(m->side.iface.irq_note) - 1);
	m->side.iface.nlines = GB_MAX_IRQ_LINES;
	for (i = 0; i < GB_MAX_IRQ_LINES; i++) {
		memset(m->side.iface.lines[i].chip, 'c',
		    sizeof(m->side.iface.lines[i].chip) - 1);
		memset(m->side.iface.lines[i].actions, 'a',
		    sizeof(m->side.iface.lines[i].actions) - 1);
		memset(m->side.iface.lines[i].cpus, '1',
		    sizeof(m->side.iface.lines[i].cpus) - 1);
		m->side.iface.lines[i].count = UINT64_MAX;
		m->side.iface.lines[i].has_share = 1;
		m->side.iface.lines[i].share_pct = 100.0 / 3.0 / 16;
		m->side.iface.lines[i].top_cpu = GB_MAX_CPUS - 1;
	}
	m->side.spread.has = m->side.spread.has_queues = 1;
	m->side.spread.ncpus = GB_MAX_CPUS;
	m->side.spread.ncpu = GB_SPREAD_MAX_CPUS;
	m->side.spread.rx_queues = m->side.spread.tx_queues = 65536;
	for (i = 0; i < GB_SPREAD_MAX_CPUS; i++) {
		m->side.spread.cpu[i].cpu = GB_MAX_CPUS - 64 + (int)i;
		m->side.spread.cpu[i].busy_pct = 200.0 / 3.0;
		m->side.spread.cpu[i].irq_pct = 1.0 / 3.0;
		m->side.spread.cpu[i].softirq_pct = 100.0 / 3.0;
		m->side.spread.cpu[i].has_softirqs = 1;
		m->side.spread.cpu[i].net_rx = UINT64_C(9223372036854775807);
		m->side.spread.cpu[i].net_tx = UINT64_C(9223372036854775807);
	}
	m->side.nwarnings = GB_MAX_WARNINGS;
	for (i = 0; i < GB_MAX_WARNINGS; i++)
		memset(m->side.warnings[i], 'w', GB_WARNING_LEN - 1);
	m->side.zerocopy.has = 1;
	m->side.zerocopy.sends = UINT64_MAX;
	m->side.has_fq_rate = 1;
	m->side.fq_rate = UINT64_MAX;
	m->side.tos = 255;
	m->side.nstreams = GB_MAX_STREAMS;
	for (i = 0; i < GB_MAX_STREAMS; i++) {
		m->side.streams[i].bytes = UINT64_C(9223372036854775807);
		m->side.streams[i].seconds = 1.0 / 3.0;
		m->side.streams[i].cpu = m->side.streams[i].pinned = 1023;
		m->side.streams[i].path = GB_PATH_SKIP_RX_COPY;
		m->side.streams[i].has_tcp = 1;
		m->side.streams[i].retrans = UINT32_MAX;
		m->side.streams[i].rtt_us = UINT32_MAX;
		m->side.streams[i].transactions =
		    UINT64_C(9223372036854775807);
	}
	m->side.flows.has = m->side.flows.has_tps = m->side.flows.has_tcp = 1;
	m->side.flows.n = GB_MAX_FLOWS;
	m->side.flows.threads = GB_MAX_THREADS;
	m->side.flows.mbps_min = m->side.flows.tps_min = 1.0 / 3.0;
	m->side.flows.mbps_p50 = m->side.flows.tps_p50 = 2.0 / 3.0;
	m->side.flows.mbps_max = m->side.flows.tps_max = 4.0 / 3.0;
	m->side.flows.jain = 1.0 / 3.0;
	m->side.flows.retrans_max = m->side.flows.rtt_us_max = UINT32_MAX;
	buf = proto_encode(m, &len);
	assert_non_null(buf);
	assert_true(len <= PROTO_HEADER_LEN + PROTO_MAX_BODY);
	free(buf);
	/*
	 * --bidir's done message: the reverse half's side has no host
	 * figures of its own (the forward one's are shared on the client),
	 * so no spread, but every stream it keeps: GB_MAX_STREAMS / 2 of
	 * them each way, the most a --bidir half keeps (xfer_finish.c).
	 */
	m->side.nstreams = GB_MAX_STREAMS / 2;
	m->has_side2 = 1;
	m->side2 = m->side;
	memset(&m->side2.spread, 0, sizeof(m->side2.spread));
	buf = proto_encode(m, &len);
	assert_non_null(buf);
	assert_true(len <= PROTO_HEADER_LEN + PROTO_MAX_BODY);
	free(buf);
	free(m);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_roundtrip_hello),
		cmocka_unit_test(test_roundtrip_auth),
		cmocka_unit_test(test_roundtrip_small),
		cmocka_unit_test(test_roundtrip_side),
		cmocka_unit_test(test_roundtrip_side_udp),
		cmocka_unit_test(test_roundtrip_hello_udp),
		cmocka_unit_test(test_roundtrip_interval),
		cmocka_unit_test(test_header_edges),
		cmocka_unit_test(test_reader_rejects_before_alloc),
		cmocka_unit_test(test_reader_exact),
		cmocka_unit_test(test_reader_truncated),
		cmocka_unit_test(test_bad_bodies),
		cmocka_unit_test(test_params_check),
		cmocka_unit_test(test_side_fits),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
