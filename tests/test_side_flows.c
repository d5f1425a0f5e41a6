/*
 * test_side_flows.c: a side's "flows" member and its streams' TCP and
 * transactions in the side codec (side_flows.c, side_detail.c,
 * side_in_detail.c), both ways.
 *
 * A side of a -P 1000 --rr test on 2 threads goes through JSON text and
 * back unchanged, with and without its optional parts; a side from a
 * peer that predates the members is taken as having no summary; then the
 * encoder's output is broken one member at a time, and each must give -1
 * and a message naming the member.
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

static void
fill_side(struct gb_side *s)
{
	struct gb_flows *f = &s->flows;

	memset(s, 0, sizeof(*s));
	s->has = 1;
	s->bytes = UINT64_C(12525000000);
	s->seconds = 10.0;
	s->mbps = 10020.0;
	s->tos = -1;
	s->data_path = GB_PATH_RR_ASK;
	s->nstreams = 2;
	s->streams[0].bytes = 12262500;
	s->streams[0].seconds = 10.0;
	s->streams[0].cpu = 0;
	s->streams[0].pinned = -1;
	s->streams[0].path = GB_PATH_RR_ASK;
	s->streams[0].has_tcp = 1;
	s->streams[0].retrans = 3;
	s->streams[0].rtt_us = 88;
	s->streams[0].transactions = 8120;
	s->streams[1] = s->streams[0];
	s->streams[1].bytes = 13062500;
	s->streams[1].cpu = 1;
	s->streams[1].retrans = 0;
	s->streams[1].rtt_us = 31;
	s->streams[1].transactions = 9010;
	f->has = 1;
	f->n = 1000;
	f->threads = 2;
	f->mbps_min = 9.81;
	f->mbps_p50 = 10.02;
	f->mbps_max = 10.45;
	f->jain = 0.99812345678901234;
	f->has_tps = 1;
	f->tps_min = 812;
	f->tps_p50 = 850.5;
	f->tps_max = 901;
	f->has_tcp = 1;
	f->retrans_max = 3;
	f->rtt_us_min = 31;
	f->rtt_us_p50 = 40;
	f->rtt_us_max = 88;
}

/* Through text, as the protocol carries it; out gets the decoded side. */
static void
roundtrip(const struct gb_side *in, struct gb_side *out)
{
	char err[GB_ERR_LEN] = "", *text;
	json_t *j, *k;

	assert_non_null(j = side_json(in));
	assert_non_null(text = json_dumps(j, JSON_COMPACT));
	json_decref(j);
	assert_non_null(j = json_loads(text, 0, NULL));
	free(text);
	if (side_from_json(j, out, err, sizeof(err)) != 0)
		fail_msg("round trip refused: %s", err);
	assert_memory_equal(&in->flows, &out->flows, sizeof(in->flows));
	assert_int_equal(in->nstreams, out->nstreams);
	assert_memory_equal(in->streams, out->streams,
	    in->nstreams * sizeof(in->streams[0]));
	assert_non_null(k = side_json(out));
	assert_true(json_equal(j, k));
	json_decref(k);
	json_decref(j);
}

static void
test_roundtrip(void **state)
{
	struct gb_side *s, *out;

	(void)state;
	assert_non_null(s = malloc(sizeof(*s)));
	assert_non_null(out = malloc(sizeof(*out)));
	fill_side(s);
	roundtrip(s, out);
	assert_int_equal(out->flows.n, 1000);
	assert_int_equal(out->streams[1].transactions, 9010);
	/* No --rr, no TCP_INFO. */
	s->flows.has_tps = 0;
	s->flows.tps_min = s->flows.tps_p50 = s->flows.tps_max = 0;
	s->flows.has_tcp = 0;
	s->flows.retrans_max = 0;
	s->flows.rtt_us_min = s->flows.rtt_us_p50 = s->flows.rtt_us_max = 0;
	s->streams[0].has_tcp = 0;
	s->streams[0].retrans = s->streams[0].rtt_us = 0;
	roundtrip(s, out);
	/* The extremes: GB_MAX_FLOWS flows, one has it all. */
	s->flows.n = GB_MAX_FLOWS;
	s->flows.threads = GB_MAX_THREADS;
	s->flows.jain = 1.0 / GB_MAX_FLOWS;
	s->flows.mbps_min = s->flows.mbps_p50 = 0;
	s->flows.has_tcp = 1;
	s->flows.retrans_max = s->flows.rtt_us_max = UINT32_MAX;
	s->streams[1].retrans = s->streams[1].rtt_us = UINT32_MAX;
	roundtrip(s, out);
	/* No summary. */
	memset(&s->flows, 0, sizeof(s->flows));
	roundtrip(s, out);
	assert_int_equal(out->flows.has, 0);
	free(out);
	free(s);
}

static json_t *
side_doc(void)
{
	struct gb_side s;
	json_t *j;

	fill_side(&s);
	assert_non_null(j = side_json(&s));
	return j;
}

/* A peer that predates them: no flows, streams without the three. */
static void
test_older_peer(void **state)
{
	static const char *const keys[] = { "retransmits", "rtt_us",
	    "transactions" };
	char err[GB_ERR_LEN] = "";
	struct gb_side s;
	json_t *j, *a;
	size_t i, k;

	(void)state;
	j = side_doc();
	assert_int_equal(json_object_del(j, "flows"), 0);
	a = json_object_get(j, "streams");
	for (i = 0; i < json_array_size(a); i++)
		for (k = 0; k < 3; k++)
			assert_int_equal(json_object_del(json_array_get(a, i),
			    keys[k]), 0);
	if (side_from_json(j, &s, err, sizeof(err)) != 0)
		fail_msg("refused: %s", err);
	assert_int_equal(s.flows.has, 0);
	assert_int_equal(s.flows.n, 0);
	assert_int_equal(s.nstreams, 2);
	assert_int_equal(s.streams[0].has_tcp, 0);
	assert_int_equal(s.streams[0].retrans, 0);
	assert_int_equal(s.streams[0].transactions, 0);
	assert_int_equal(s.streams[1].bytes, 13062500);
	json_decref(j);
}

/*
 * Set the member at path (a.b.c under the side, NULL deletes it) to v,
 * or text parsed as JSON; expect -1 and a message holding want.
 */
static void
expect_refused(const char *path, json_t *v, const char *want)
{
	char err[GB_ERR_LEN] = "", buf[64], *key, *dot;
	struct gb_side s;
	json_t *j, *o;

	j = side_doc();
	o = j;
	snprintf(buf, sizeof(buf), "%s", path);
	key = buf;
	while ((dot = strchr(key, '.')) != NULL) {
		*dot = '\0';
		if (strcmp(key, "streams") == 0)
			o = json_array_get(json_object_get(o, key), 1);
		else
			o = json_object_get(o, key);
		assert_non_null(o);
		key = dot + 1;
	}
	assert_non_null(json_object_get(o, key));
	if (v == NULL)
		assert_int_equal(json_object_del(o, key), 0);
	else
		assert_int_equal(json_object_set_new(o, key, v), 0);
	memset(&s, 0xa5, sizeof(s));
	if (side_from_json(j, &s, err, sizeof(err)) != -1)
		fail_msg("%s: accepted", path);
	if (strstr(err, want) == NULL)
		fail_msg("%s: want \"%s\" in \"%s\"", path, want, err);
	assert_int_equal(s.has, 0);
	json_decref(j);
}

static void
test_refused_counts(void **state)
{
	(void)state;
	expect_refused("flows", json_array(), "flows is not an object");
	expect_refused("flows", json_integer(1000), "flows is not an object");
	expect_refused("flows.n", NULL, "flows.n is missing");
	expect_refused("flows.n", json_integer(0), "flows.n is 0");
	expect_refused("flows.n", json_integer(10001),
	    "flows.n is out of range (max 10000): 10001");
	expect_refused("flows.n", json_integer(-1), "flows.n is negative");
	expect_refused("flows.n", json_real(1000.0), "flows.n is not an "
	    "integer");
	expect_refused("flows.n", json_integer(1),
	    "flows.n is fewer than the streams: 1 < 2");
	expect_refused("flows.n", json_null(), "flows.n is null");
	expect_refused("flows.threads", json_integer(1025),
	    "flows.threads is out of range (max 1024): 1025");
	expect_refused("flows.threads", json_string("2"),
	    "flows.threads is not an integer");
	expect_refused("flows.jain", json_real(1.01),
	    "flows.jain is outside 1/n to 1: 1.01");
	expect_refused("flows.jain", json_real(0.0009),
	    "flows.jain is outside 1/n to 1: 0.0009");
	expect_refused("flows.jain", json_real(-0.5), "flows.jain is "
	    "negative");
	expect_refused("flows.jain", json_null(), "flows.jain is null");
	expect_refused("flows.jain", json_string("1"), "flows.jain is not a "
	    "number");
}

static void
test_refused_spreads(void **state)
{
	(void)state;
	expect_refused("flows.mbps", json_null(), "flows.mbps is null");
	expect_refused("flows.mbps", json_array(), "flows.mbps is not an "
	    "object");
	expect_refused("flows.mbps.p50", NULL, "flows.mbps.p50 is missing");
	expect_refused("flows.mbps.min", json_real(10.03),
	    "flows.mbps.min is more than flows.mbps.p50");
	expect_refused("flows.mbps.max", json_real(10.0),
	    "flows.mbps.p50 is more than flows.mbps.max");
	expect_refused("flows.mbps.max", json_real(1e308),
	    "flows.mbps.max is over 1e+07: 1e+308");
	expect_refused("flows.mbps.min", json_real(-1), "flows.mbps.min is "
	    "negative");
	expect_refused("flows.tps", json_string("none"), "flows.tps is not "
	    "an object");
	expect_refused("flows.tps.min", json_real(902),
	    "flows.tps.min is more than flows.tps.p50");
	expect_refused("flows.tps.max", json_null(), "flows.tps.max is null");
	expect_refused("flows.tcp", json_true(), "flows.tcp is not an "
	    "object");
	expect_refused("flows.tcp.retrans_max", json_integer(-3),
	    "flows.tcp.retrans_max is negative");
	expect_refused("flows.tcp.retrans_max",
	    json_integer(INT64_C(4294967296)),
	    "flows.tcp.retrans_max is out of range");
	expect_refused("flows.tcp.rtt_us", NULL, "flows.tcp.rtt_us is "
	    "missing");
	expect_refused("flows.tcp.rtt_us", json_null(), "flows.tcp.rtt_us "
	    "is null");
	expect_refused("flows.tcp.rtt_us.min", json_integer(41),
	    "flows.tcp.rtt_us.min is more than flows.tcp.rtt_us.p50");
	expect_refused("flows.tcp.rtt_us.max", json_real(88.0),
	    "flows.tcp.rtt_us.max is not an integer");
}

static void
test_refused_streams(void **state)
{
	(void)state;
	expect_refused("streams.rtt_us", json_null(),
	    "streams.rtt_us is null, unlike streams.retransmits");
	expect_refused("streams.retransmits", json_null(),
	    "streams.rtt_us is not null, unlike streams.retransmits");
	/* One of the three missing is not an older peer. */
	expect_refused("streams.transactions", NULL,
	    "streams.transactions is missing");
	expect_refused("streams.rtt_us", NULL, "streams.rtt_us is missing");
	expect_refused("streams.retransmits", NULL,
	    "streams.retransmits is missing");
	expect_refused("streams.transactions", json_integer(-1),
	    "streams.transactions is negative");
	expect_refused("streams.retransmits", json_string("0"),
	    "streams.retransmits is not an integer");
	expect_refused("streams.rtt_us", json_integer(INT64_C(4294967296)),
	    "streams.rtt_us is out of range");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_roundtrip),
		cmocka_unit_test(test_older_peer),
		cmocka_unit_test(test_refused_counts),
		cmocka_unit_test(test_refused_spreads),
		cmocka_unit_test(test_refused_streams),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
