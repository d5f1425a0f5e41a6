/*
 * test_report_in.c: side_from_json() (side_in*.c), the decoder the
 * protocol uses for the listener's figures, against the encoder
 * side_json() (side.c, side_detail.c), which --json prints too.
 *
 * Sides go through JSON text and back unchanged.  Then the encoder's own
 * output is broken one member at a time: wrong types, nulls, missing
 * members, negative and out-of-range numbers, non-objects, and groups
 * whose null-ness disagrees; each must give -1 and a message naming the
 * member.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "codec/side.h"
#include "base/result.h"

/* ---- hand-filled sides ---- */

/* Every figure known, so the encoder writes no null. */
static void
fill_full_side(struct gb_side *s)
{
	struct gb_iface_figures *f = &s->iface;

	memset(s, 0, sizeof(*s));
	s->has = 1;
	s->bytes = UINT64_C(4926630527);
	s->seconds = 60.0;
	s->mbps = 656.7557;
	s->calls = 75175;
	s->cpu.user_s = 1.23;
	s->cpu.sys_s = 36.57;
	s->cpu.user_pct = 2.05;
	s->cpu.sys_pct = 60.95;
	s->cpu.process_pct = 63.0;
	s->host_cpu.has = 1;
	s->host_cpu.ncpus = 2;
	s->host_cpu.busy_pct = 64.2;
	s->host_cpu.user_pct = 2.3;
	s->host_cpu.sys_pct = 41.0;
	s->host_cpu.irq_pct = 8.4;
	s->host_cpu.softirq_pct = 12.5;
	s->host_cpu.max_cpu = 1;
	s->host_cpu.max_cpu_busy_pct = 99.9;
	strcpy(f->name, "eth0");
	f->has_counters = 1;
	f->rx_packets = 1643251;
	f->tx_packets = 3286503;
	f->rx_bytes = 108454566;
	f->tx_bytes = UINT64_C(5105806910);
	f->irq_lines = 3;
	strcpy(f->irq_list, "41,42,43");
	f->has_interrupts = 1;
	f->interrupts = 476543;
	f->has_irq_per_packet = 1;
	f->irq_per_packet = 0.145;
	f->has_softirq = 1;
	f->net_rx_softirqs = 98000;
	f->net_tx_softirqs = 1210;
	s->tcp.has = 1;
	s->tcp.retransmits = 2;
	s->tcp.rtt_us = 120;
	s->tcp.rttvar_us = 40;
	s->tcp.cwnd = 42;
	s->tcp.mss = 1448;
	s->sndbuf.requested = 65536;
	s->sndbuf.actual = 131072;
	s->rcvbuf.requested = 65536;
	s->rcvbuf.actual = 131072;
	s->data_path = GB_PATH_ZEROCOPY;
	s->zerocopy.has = 1;
	s->zerocopy.sends = 75175;
	s->zerocopy.completions = 75170;
	s->zerocopy.copied = 75170;
	s->tos = 0x10;
	s->has_fq_rate = 1;
	s->fq_rate = 125000000;
	s->nstreams = 2;
	s->streams[0].bytes = UINT64_C(2463315264);
	s->streams[0].seconds = 60.0;
	s->streams[0].cpu = 0;
	s->streams[0].pinned = 0;
	s->streams[0].path = GB_PATH_ZEROCOPY;
	s->streams[1].bytes = UINT64_C(2463315263);
	s->streams[1].seconds = 59.99;
	s->streams[1].cpu = 1;
	s->streams[1].pinned = 1;
	s->streams[1].path = GB_PATH_ZEROCOPY;
}

/* A receiver on lo that could read little: most groups unknown. */
static void
fill_sparse_side(struct gb_side *s)
{
	memset(s, 0, sizeof(*s));
	s->has = 1;
	s->bytes = UINT64_C(23456658000);
	s->seconds = 10.0005;
	s->mbps = result_mbps(s->bytes, s->seconds);
	s->calls = 2901234;
	s->cpu.user_s = 0.85;
	s->cpu.sys_s = 6.1;
	strcpy(s->iface.name, "lo");
	s->iface.has_counters = 1;
	s->iface.rx_packets = s->iface.tx_packets = 361234;
	s->sndbuf.actual = 2626560;
	s->rcvbuf.actual = 131072;
	s->data_path = GB_PATH_RECV;
	s->tos = -1;
	s->nstreams = 1;
	s->streams[0].bytes = s->bytes;
	s->streams[0].seconds = s->seconds;
	s->streams[0].cpu = -1;
	s->streams[0].pinned = -1;
	s->streams[0].path = GB_PATH_RECV;
}

/* ---- side round trip ---- */

static void
assert_side_equal(const struct gb_side *a, const struct gb_side *b)
{
	const struct gb_iface_figures *f = &a->iface, *g = &b->iface;

	assert_int_equal(a->has, b->has);
	assert_int_equal(a->bytes, b->bytes);
	assert_true(a->seconds == b->seconds && a->mbps == b->mbps);
	assert_int_equal(a->calls, b->calls);
	assert_memory_equal(&a->cpu, &b->cpu, sizeof(a->cpu));
	assert_memory_equal(&a->host_cpu, &b->host_cpu, sizeof(a->host_cpu));
	assert_string_equal(f->name, g->name);
	assert_string_equal(f->irq_list, g->irq_list);
	assert_int_equal(f->irq_lines, g->irq_lines);
	assert_int_equal(f->has_counters, g->has_counters);
	assert_int_equal(f->rx_packets, g->rx_packets);
	assert_int_equal(f->tx_packets, g->tx_packets);
	assert_int_equal(f->rx_bytes, g->rx_bytes);
	assert_int_equal(f->tx_bytes, g->tx_bytes);
	assert_int_equal(f->has_interrupts, g->has_interrupts);
	assert_int_equal(f->interrupts, g->interrupts);
	assert_int_equal(f->has_irq_per_packet, g->has_irq_per_packet);
	assert_true(f->irq_per_packet == g->irq_per_packet);
	assert_int_equal(f->has_softirq, g->has_softirq);
	assert_int_equal(f->net_rx_softirqs, g->net_rx_softirqs);
	assert_int_equal(f->net_tx_softirqs, g->net_tx_softirqs);
	assert_memory_equal(&a->tcp, &b->tcp, sizeof(a->tcp));
	assert_memory_equal(&a->sndbuf, &b->sndbuf, sizeof(a->sndbuf));
	assert_memory_equal(&a->rcvbuf, &b->rcvbuf, sizeof(a->rcvbuf));
	assert_int_equal(a->data_path, b->data_path);
	assert_memory_equal(&a->zerocopy, &b->zerocopy, sizeof(a->zerocopy));
	assert_int_equal(a->tos, b->tos);
	assert_int_equal(a->has_fq_rate, b->has_fq_rate);
	assert_int_equal(a->fq_rate, b->fq_rate);
	assert_int_equal(a->nstreams, b->nstreams);
	assert_memory_equal(a->streams, b->streams,
	    a->nstreams * sizeof(a->streams[0]));
}

/* Through text, as the protocol carries it. */
static void
roundtrip(const struct gb_side *in)
{
	char err[GB_ERR_LEN] = "", *text;
	struct gb_side out;
	json_t *j, *k;

	assert_non_null(j = side_json(in));
	assert_non_null(text = json_dumps(j, JSON_COMPACT));
	json_decref(j);
	assert_non_null(j = json_loads(text, 0, NULL));
	free(text);
	if (side_from_json(j, &out, err, sizeof(err)) != 0)
		fail_msg("round trip refused: %s", err);
	assert_side_equal(in, &out);
	assert_non_null(k = side_json(&out));
	assert_true(json_equal(j, k));
	json_decref(k);
	json_decref(j);
}

static void
test_side_roundtrip(void **state)
{
	struct gb_side s;

	(void)state;
	fill_full_side(&s);
	roundtrip(&s);
	fill_sparse_side(&s);
	roundtrip(&s);
	memset(&s, 0, sizeof(s));
	s.has = 1;
	roundtrip(&s);
	s.nstreams = GB_MAX_STREAMS;
	s.streams[GB_MAX_STREAMS - 1].cpu = 2147483647;
	s.streams[GB_MAX_STREAMS - 1].path = GB_PATH_SPLICE;
	s.data_path = GB_PATH_SENDFILE;
	s.has_fq_rate = 1;
	s.fq_rate = UINT64_C(9223372036854775807);
	s.tos = 255;
	roundtrip(&s);
	memset(&s, 0, sizeof(s));
	s.has = 1;
	/* Extremes of every C type, and reals that need all 17 digits. */
	s.bytes = s.calls = UINT64_C(9223372036854775807);
	s.seconds = 0.1;
	s.mbps = 1.0 / 3.0;
	s.host_cpu.has = 1;
	s.host_cpu.ncpus = s.host_cpu.max_cpu = 2147483647;
	s.host_cpu.busy_pct = 1e-300;
	s.tcp.has = 1;
	s.tcp.retransmits = s.tcp.rtt_us = s.tcp.mss = UINT32_MAX;
	s.sndbuf.requested = s.rcvbuf.actual = UINT32_MAX;
	memset(s.iface.name, 'x', sizeof(s.iface.name) - 1);
	memset(s.iface.irq_list, '9', sizeof(s.iface.irq_list) - 1);
	roundtrip(&s);
}

/* ---- side rejection ---- */

enum kind { K_U64, K_U32, K_INT, K_REAL, K_STR };

static const struct member {
	const char	*path;
	enum kind	 kind;
	int		 nullable;	/* a lone null here is valid */
} members[] = {
	{ "bytes", K_U64, 0 },
	{ "seconds", K_REAL, 0 },
	{ "mbps", K_REAL, 0 },
	{ "megabytes", K_REAL, 0 },
	{ "calls", K_U64, 0 },
	{ "cpu.user_pct", K_REAL, 0 },
	{ "cpu.sys_pct", K_REAL, 0 },
	{ "cpu.process_pct", K_REAL, 0 },
	{ "cpu.user_s", K_REAL, 0 },
	{ "cpu.sys_s", K_REAL, 0 },
	{ "host_cpu.busy_pct", K_REAL, 1 },
	{ "host_cpu.user_pct", K_REAL, 0 },
	{ "host_cpu.sys_pct", K_REAL, 0 },
	{ "host_cpu.irq_pct", K_REAL, 0 },
	{ "host_cpu.softirq_pct", K_REAL, 0 },
	{ "host_cpu.max_cpu_busy_pct", K_REAL, 1 },
	{ "host_cpu.max_cpu", K_INT, 0 },
	{ "host_cpu.ncpus", K_INT, 0 },
	{ "interface.name", K_STR, 1 },
	{ "interface.irq_lines", K_INT, 0 },
	{ "interface.irq_list", K_STR, 0 },
	{ "interrupts", K_U64, 1 },
	{ "packets.rx", K_U64, 1 },
	{ "packets.tx", K_U64, 0 },
	{ "bytes_on_wire.rx", K_U64, 0 },
	{ "bytes_on_wire.tx", K_U64, 0 },
	{ "irq_per_packet", K_REAL, 1 },
	{ "softirq.net_rx", K_U64, 1 },
	{ "softirq.net_tx", K_U64, 0 },
	{ "sndbuf.requested", K_U32, 1 },
	{ "sndbuf.actual", K_U32, 0 },
	{ "rcvbuf.requested", K_U32, 1 },
	{ "rcvbuf.actual", K_U32, 0 },
	{ "tcp.retransmits", K_U32, 0 },
	{ "tcp.rtt_us", K_U32, 0 },
	{ "tcp.rttvar_us", K_U32, 0 },
	{ "tcp.cwnd", K_U32, 0 },
	{ "tcp.mss", K_U32, 0 },
	{ "data_path", K_STR, 0 },
	{ "zerocopy.sends", K_U64, 0 },
	{ "zerocopy.completions", K_U64, 0 },
	{ "zerocopy.copied", K_U64, 0 },
	{ "tos", K_INT, 1 },
	{ "fq_rate", K_U64, 1 },
};
#define NMEMBERS	(sizeof(members) / sizeof(members[0]))

static const char *const objects[] = { "cpu", "host_cpu", "interface",
    "packets", "bytes_on_wire", "softirq", "sndbuf", "rcvbuf", "tcp",
    "zerocopy" };
#define NOBJECTS	(sizeof(objects) / sizeof(objects[0]))

static json_t *
full_side_json(void)
{
	struct gb_side s;
	json_t *j;

	fill_full_side(&s);
	assert_non_null(j = side_json(&s));
	return j;
}

/* The object holding path ("cpu.user_pct" -> cpu), and the last name. */
static json_t *
path_parent(json_t *root, const char *path, char *key, size_t len)
{
	const char *dot = strchr(path, '.');
	char obj[64];

	if (dot == NULL) {
		snprintf(key, len, "%s", path);
		return root;
	}
	snprintf(obj, sizeof(obj), "%.*s", (int)(dot - path), path);
	snprintf(key, len, "%s", dot + 1);
	assert_non_null(json_object_get(root, obj));
	return json_object_get(root, obj);
}

/* Set path to v (NULL deletes it); expect -1 and an error naming both. */
static void
expect_refused(const char *path, json_t *v, const char *why)
{
	char err[GB_ERR_LEN] = "", key[64];
	struct gb_side s;
	json_t *j, *parent;

	j = full_side_json();
	parent = path_parent(j, path, key, sizeof(key));
	assert_non_null(json_object_get(parent, key));
	if (v == NULL)
		assert_int_equal(json_object_del(parent, key), 0);
	else
		assert_int_equal(json_object_set_new(parent, key, v), 0);
	memset(&s, 0xa5, sizeof(s));
	if (side_from_json(j, &s, err, sizeof(err)) != -1)
		fail_msg("%s: accepted", path);
	if (strstr(err, path) == NULL || strstr(err, why) == NULL)
		fail_msg("%s: want \"%s\" in \"%s\"", path, why, err);
	assert_int_equal(s.has, 0);
	json_decref(j);
}

/* The side's rr with udp, as text; NULL: refused, err holding why. */
static int
rr_udp_decode(const char *rr, struct gb_side *s, const char *why)
{
	char err[GB_ERR_LEN] = "";
	json_t *j = full_side_json();
	json_error_t jerr;
	json_t *v = json_loads(rr, 0, &jerr);
	int rc;

	assert_non_null(v);
	assert_int_equal(json_object_set_new(j, "rr", v), 0);
	rc = side_from_json(j, s, err, sizeof(err));
	if (why != NULL && (rc != -1 || strstr(err, why) == NULL))
		fail_msg("%s: want \"%s\" in \"%s\"", rr, why, err);
	if (why == NULL && rc != 0)
		fail_msg("%s: %s", rr, err);
	json_decref(j);
	return rc;
}

/*
 * -u --rr's counts: the asker's and the answerer's round trip; the
 * asker's timeout in range, its lost within its requests, answers within
 * the requests less the lost; the answerer's lost and late null.
 */
static void
test_side_rr_udp(void **state)
{
	struct gb_side s;

	(void)state;
	fill_full_side(&s);
	s.rr.has = s.rr.has_udp = 1;
	s.rr.transactions = 46563;
	s.rr.timeout_ms = 500;
	s.rr.requests = 46570;
	s.rr.lost = 7;
	s.rr.late = 1;
	s.rr.stray = 2;
	s.rr.unsent = 3;
	roundtrip(&s);
	s.rr.timeout_ms = 0;		/* the answerer's */
	s.rr.lost = s.rr.late = 0;
	roundtrip(&s);
	rr_udp_decode("{\"transactions\":5,\"connections\":0,\"udp\":null}", &s, NULL);
	assert_int_equal(s.rr.has_udp, 0);
	rr_udp_decode("{\"transactions\":5,\"connections\":0,\"udp\":{\"timeout_ms\":100,"
	    "\"requests\":7,\"lost\":2,\"late\":0,\"stray\":0,"
	    "\"unsent\":0}}", &s, NULL);
	assert_int_equal(s.rr.has_udp, 1);
	assert_int_equal(s.rr.lost, 2);
	rr_udp_decode("{\"transactions\":5,\"connections\":0,\"udp\":{\"timeout_ms\":0,"
	    "\"requests\":7,\"lost\":2,\"late\":0,\"stray\":0,"
	    "\"unsent\":0}}", &s,
	    "timeout_ms is out of range");
	rr_udp_decode("{\"transactions\":5,\"connections\":0,\"udp\":{\"timeout_ms\":10001,"
	    "\"requests\":7,\"lost\":2,\"late\":0,\"stray\":0,"
	    "\"unsent\":0}}", &s,
	    "timeout_ms is out of range");
	rr_udp_decode("{\"transactions\":0,\"connections\":0,\"udp\":{\"timeout_ms\":100,"
	    "\"requests\":7,\"lost\":8,\"late\":0,\"stray\":0,"
	    "\"unsent\":0}}", &s,
	    "lost is more than requests");
	rr_udp_decode("{\"transactions\":6,\"connections\":0,\"udp\":{\"timeout_ms\":100,"
	    "\"requests\":7,\"lost\":2,\"late\":0,\"stray\":0,"
	    "\"unsent\":0}}", &s,
	    "are fewer than the transactions");
	rr_udp_decode("{\"transactions\":5,\"connections\":0,\"udp\":{\"timeout_ms\":null,"
	    "\"requests\":7,\"lost\":2,\"late\":null,\"stray\":0,"
	    "\"unsent\":0}}", &s,
	    "lost is not null");
	rr_udp_decode("{\"transactions\":5,\"connections\":0,\"udp\":{\"timeout_ms\":100,"
	    "\"requests\":7,\"lost\":2,\"late\":0,\"stray\":0}}", &s,
	    "unsent is missing");
	rr_udp_decode("{\"transactions\":5,\"connections\":0,\"udp\":[]}", &s,
	    "udp is not an object");
}

static void
test_side_accepts_full(void **state)
{
	char err[GB_ERR_LEN] = "";
	struct gb_side s;
	json_t *j;

	(void)state;
	j = full_side_json();
	assert_int_equal(side_from_json(j, &s, err, sizeof(err)), 0);
	assert_int_equal(s.has, 1);
	assert_int_equal(s.sndbuf.requested, 65536);
	json_decref(j);
}

static void
test_side_wrong_types(void **state)
{
	const struct member *m;
	size_t i;

	(void)state;
	for (i = 0; i < NMEMBERS; i++) {
		m = &members[i];
		if (m->kind == K_STR) {
			expect_refused(m->path, json_integer(5), "a string");
			expect_refused(m->path, json_true(), "a string");
			expect_refused(m->path, json_array(), "a string");
			expect_refused(m->path, json_object(), "a string");
			continue;
		}
		expect_refused(m->path, json_string("1"), "not a");
		expect_refused(m->path, json_false(), "not a");
		expect_refused(m->path, json_array(), "not a");
		expect_refused(m->path, json_object(), "not a");
		if (m->kind != K_REAL) {
			expect_refused(m->path, json_real(1.5), "an integer");
			expect_refused(m->path, json_real(1.0), "an integer");
		}
	}
}

static void
test_side_nulls(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < NMEMBERS; i++)
		if (!members[i].nullable)
			expect_refused(members[i].path, json_null(), "is null");
}

/* No CPU matched across the samples: no busiest CPU, null on the wire. */
static void
test_side_no_busiest_cpu(void **state)
{
	char err[GB_ERR_LEN] = "";
	struct gb_side s;
	json_t *j, *h;

	(void)state;
	j = full_side_json();
	h = json_object_get(j, "host_cpu");
	json_object_set_new(h, "max_cpu_busy_pct", json_null());
	json_object_set_new(h, "max_cpu", json_null());
	assert_int_equal(side_from_json(j, &s, err, sizeof(err)), 0);
	assert_int_equal(s.host_cpu.has, 1);
	assert_int_equal(s.host_cpu.max_cpu, -1);
	json_decref(j);
	j = side_json(&s);
	assert_non_null(j);
	h = json_object_get(j, "host_cpu");
	assert_true(json_is_null(json_object_get(h, "max_cpu")));
	assert_true(json_is_null(json_object_get(h, "max_cpu_busy_pct")));
	json_decref(j);
	/* A busiest-CPU share without its number is refused. */
	j = full_side_json();
	h = json_object_get(j, "host_cpu");
	json_object_set_new(h, "max_cpu", json_null());
	assert_int_equal(side_from_json(j, &s, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "host_cpu.max_cpu"));
	json_decref(j);
}

static void
test_side_missing(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < NMEMBERS; i++)
		expect_refused(members[i].path, NULL, "is missing");
	for (i = 0; i < NOBJECTS; i++)
		expect_refused(objects[i], NULL, "is missing");
}

static void
test_side_negative(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < NMEMBERS; i++) {
		if (members[i].kind == K_STR)
			continue;
		expect_refused(members[i].path, json_integer(-1), "negative");
		if (members[i].kind == K_REAL)
			expect_refused(members[i].path, json_real(-0.5),
			    "negative");
	}
}

static void
test_side_out_of_range(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < NMEMBERS; i++) {
		if (members[i].kind == K_U32)
			expect_refused(members[i].path,
			    json_integer(INT64_C(4294967296)), "out of range");
		if (members[i].kind == K_INT)
			expect_refused(members[i].path,
			    json_integer(INT64_C(2147483648)), "out of range");
	}
	expect_refused("interface.name", json_string(
	    "0123456789012345678901234567890123456789"), "too long");
	expect_refused("interface.name", json_stringn("et\0h0", 5), "NUL");
	expect_refused("tos", json_integer(256), "out of range (max 255)");
	expect_refused("data_path", json_string("sendfile2"),
	    "is not a data path: \"sendfile2\"");
	expect_refused("data_path", json_string(""), "is not a data path");
	expect_refused("data_path", json_string("zerocopy-and-more"),
	    "too long");
	expect_refused("zerocopy.completions", json_integer(75176),
	    "is more than zerocopy.sends");
	expect_refused("zerocopy.copied", json_integer(75171),
	    "is more than zerocopy.completions");
}

/* Set streams[i].key to v (NULL deletes it); expect -1 naming the key. */
static void
expect_stream_refused(size_t i, const char *key, json_t *v, const char *why)
{
	char err[GB_ERR_LEN] = "";
	struct gb_side s;
	json_t *j, *o;

	j = full_side_json();
	assert_non_null(o = json_array_get(json_object_get(j, "streams"), i));
	if (v == NULL)
		assert_int_equal(json_object_del(o, key), 0);
	else
		assert_int_equal(json_object_set_new(o, key, v), 0);
	if (side_from_json(j, &s, err, sizeof(err)) != -1)
		fail_msg("streams[%zu].%s: accepted", i, key);
	if (strstr(err, "streams.") == NULL || strstr(err, key) == NULL ||
	    strstr(err, why) == NULL)
		fail_msg("streams[%zu].%s: want \"%s\" in \"%s\"", i, key,
		    why, err);
	json_decref(j);
}

static void
test_side_streams(void **state)
{
	static const char *const keys[] = { "bytes", "seconds", "mbps",
	    "cpu", "pinned", "data_path" };
	char err[GB_ERR_LEN] = "";
	struct gb_side s;
	json_t *j, *a;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		expect_stream_refused(1, keys[i], NULL, "is missing");
		expect_stream_refused(0, keys[i], json_array(), "not a");
		expect_stream_refused(1, keys[i], json_true(), "not a");
		if (strcmp(keys[i], "cpu") != 0 &&
		    strcmp(keys[i], "pinned") != 0)
			expect_stream_refused(0, keys[i], json_null(),
			    "is null");
	}
	expect_stream_refused(0, "bytes", json_integer(-1), "negative");
	expect_stream_refused(0, "seconds", json_real(-0.5), "negative");
	expect_stream_refused(0, "cpu", json_integer(-1), "negative");
	expect_stream_refused(1, "pinned", json_integer(INT64_C(2147483648)),
	    "out of range");
	expect_stream_refused(1, "cpu", json_real(1.0), "an integer");
	expect_stream_refused(0, "data_path", json_string("copy"),
	    "is not a data path");

	/* A null CPU is -1: not known, or not pinned. */
	j = full_side_json();
	a = json_object_get(j, "streams");
	json_object_set_new(json_array_get(a, 1), "cpu", json_null());
	json_object_set_new(json_array_get(a, 1), "pinned", json_null());
	assert_int_equal(side_from_json(j, &s, err, sizeof(err)), 0);
	assert_int_equal(s.streams[1].cpu, -1);
	assert_int_equal(s.streams[1].pinned, -1);
	assert_int_equal(s.streams[0].pinned, 0);

	/* Not an array, not objects, too many. */
	json_object_set_new(j, "streams", json_object());
	assert_int_equal(side_from_json(j, &s, err, sizeof(err)), -1);
	assert_string_equal(err, "streams is not an array");
	json_object_set_new(j, "streams", json_pack("[i]", 1));
	assert_int_equal(side_from_json(j, &s, err, sizeof(err)), -1);
	assert_string_equal(err, "streams holds a non-object");
	assert_non_null(a = json_array());
	for (i = 0; i <= GB_MAX_STREAMS; i++)
		json_array_append_new(a, json_pack("{s:i, s:f, s:f, s:n, s:n,"
		    " s:s}", "bytes", 1, "seconds", 1.0, "mbps", 0.0, "cpu",
		    "pinned", "data_path", "recv"));
	json_object_set_new(j, "streams", a);
	assert_int_equal(side_from_json(j, &s, err, sizeof(err)), -1);
	assert_string_equal(err, "streams has over 128 entries");
	json_array_remove(a, 0);
	assert_int_equal(side_from_json(j, &s, err, sizeof(err)), 0);
	assert_int_equal(s.nstreams, GB_MAX_STREAMS);
	json_object_set_new(j, "streams", json_null());
	assert_int_equal(side_from_json(j, &s, err, sizeof(err)), -1);
	assert_string_equal(err, "streams is null");
	json_decref(j);
}

static void
test_side_non_objects(void **state)
{
	char err[GB_ERR_LEN];
	struct gb_side s;
	json_t *j;
	size_t i;

	(void)state;
	for (i = 0; i < NOBJECTS; i++) {
		expect_refused(objects[i], json_array(), "not an object");
		expect_refused(objects[i], json_string("{}"), "not an object");
		expect_refused(objects[i], json_integer(0), "not an object");
		if (strcmp(objects[i], "tcp") != 0 &&
		    strcmp(objects[i], "zerocopy") != 0)
			expect_refused(objects[i], json_null(), "is null");
	}
	assert_int_equal(side_from_json(NULL, &s, err, sizeof(err)),
	    -1);
	j = json_pack("[{}]");
	assert_int_equal(side_from_json(j, &s, err, sizeof(err)), -1);
	assert_string_equal(err, "side is not an object");
	json_decref(j);
	j = json_null();
	assert_int_equal(side_from_json(j, &s, err, sizeof(err)), -1);
	json_decref(j);
}

/* A group is all null (figure unknown) or all numbers. */
static void
test_side_groups(void **state)
{
	static const struct {
		const char *path, *value, *why;
	} cases[] = {
		{ "host_cpu.busy_pct", NULL, "host_cpu.user_pct is not null" },
		{ "host_cpu.ncpus", "null", "unlike host_cpu.busy_pct" },
		{ "packets.rx", NULL, "packets.tx is not null" },
		{ "bytes_on_wire.tx", "null", "unlike packets.rx" },
		{ "softirq.net_rx", NULL, "softirq.net_tx is not null" },
	};
	char err[GB_ERR_LEN], key[64];
	struct gb_side s;
	json_t *j, *p;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		j = full_side_json();
		p = path_parent(j, cases[i].path, key, sizeof(key));
		json_object_set_new(p, key, json_null());
		assert_int_equal(side_from_json(j, &s, err,
		    sizeof(err)), -1);
		if (strstr(err, cases[i].why) == NULL)
			fail_msg("%s: want \"%s\" in \"%s\"", cases[i].path,
			    cases[i].why, err);
		json_decref(j);
	}
}

/* A long error is cut, never overrun. */
static void
test_side_small_errbuf(void **state)
{
	char err[8];
	struct gb_side s;
	json_t *j;

	(void)state;
	j = full_side_json();
	json_object_del(json_object_get(j, "host_cpu"), "max_cpu_busy_pct");
	assert_int_equal(side_from_json(j, &s, err, sizeof(err)), -1);
	assert_string_equal(err, "host_cp");
	json_decref(j);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_side_roundtrip),
		cmocka_unit_test(test_side_rr_udp),
		cmocka_unit_test(test_side_accepts_full),
		cmocka_unit_test(test_side_wrong_types),
		cmocka_unit_test(test_side_nulls),
		cmocka_unit_test(test_side_no_busiest_cpu),
		cmocka_unit_test(test_side_missing),
		cmocka_unit_test(test_side_negative),
		cmocka_unit_test(test_side_out_of_range),
		cmocka_unit_test(test_side_non_objects),
		cmocka_unit_test(test_side_groups),
		cmocka_unit_test(test_side_streams),
		cmocka_unit_test(test_side_small_errbuf),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
