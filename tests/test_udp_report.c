/*
 * test_udp_report.c: result_udp() (result.c), the figures of a -u test as
 * both ends saw them, and how the renderers carry them (report.c's udp
 * lines and summary, report_json.c's result.udp).
 *
 * Results are filled by hand: a sender's count known (loss is sent less
 * received, never negative), unknown (loss from the receiver's gaps in
 * the sequence numbers, lost_by_gaps in JSON), a receiver that never
 * reported, percentages over each base, rates over each end's own time,
 * and a TCP test (no figures at all).  No I/O but open_memstream().
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "base/result.h"
#include "out/report.h"

/* Doubles computed from exact small integers: 1e-9 relative is plenty. */
#define assert_near(got, want) assert_near_at(got, want, __LINE__)

static void
assert_near_at(double got, double want, int line)
{
	if (!(fabs(got - want) <= 1e-9 * (fabs(want) + 1)))
		fail_msg("line %d: %.12g, want %.12g", line, got, want);
}

/*
 * A -u result: the sender sent `sent` in tx_s seconds (has_tx 0: its
 * figures never came), the receiver got `received` in rx_s seconds with
 * `gaps` missing by the sequence numbers (has_rx 0: never came).
 */
static void
fill(struct gb_result *r, int has_tx, uint64_t sent, double tx_s,
    int has_rx, uint64_t received, uint64_t gaps, double rx_s)
{
	memset(r, 0, sizeof(*r));
	r->params.udp = 1;
	r->params.buflen = 1400;
	r->params.streams = 1;
	r->params.duration_ms = 2000;
	r->params.batch = 32;
	r->params.rate_bps = 20000000;
	snprintf(r->peer, sizeof(r->peer), "127.0.0.1");
	r->port = 5001;
	r->local_is_sender = 1;
	if (has_tx) {
		r->sender.has = 1;
		r->sender.seconds = tx_s;
		r->sender.bytes = sent * 1400;
		r->sender.tos = -1;
		r->sender.udp.has = 1;
		r->sender.udp.length = 1400;
		r->sender.udp.batch = 32;
		r->sender.udp.datagrams = sent;
	}
	if (has_rx) {
		r->receiver.has = 1;
		r->receiver.seconds = rx_s;
		r->receiver.bytes = received * 1400;
		r->receiver.tos = -1;
		r->receiver.udp.has = 1;
		r->receiver.udp.length = 1400;
		r->receiver.udp.batch = 32;
		r->receiver.udp.datagrams = received;
		r->receiver.udp.gaps = gaps;
		r->receiver.udp.jitter_ms = 0.125;
	}
}

/* Both ends known: loss is the sender's count less the receiver's. */
static void
test_sent_known(void **state)
{
	struct gb_result r;
	struct gb_udp_figures f;

	(void)state;
	/* The receiver's gaps (2) are not the loss: the last 8 never came. */
	fill(&r, 1, 1000, 2.0, 1, 990, 2, 1.98);
	result_udp(&r, &f);
	assert_int_equal(f.has, 1);
	assert_int_equal(f.sent_known, 1);
	assert_int_equal(f.sent, 1000);
	assert_int_equal(f.received, 990);
	assert_int_equal(f.lost, 10);
	assert_near(f.lost_pct, 1.0);
	assert_near(f.tx_pps, 500.0);		/* 1000 / 2.0 s */
	assert_near(f.rx_pps, 500.0);		/* 990 / 1.98 s */
	assert_near(f.jitter_ms, 0.125);

	/* Nothing lost. */
	fill(&r, 1, 1786, 1.0, 1, 1786, 0, 1.0);
	result_udp(&r, &f);
	assert_int_equal(f.lost, 0);
	assert_near(f.lost_pct, 0);
	assert_near(f.tx_pps, 1786);

	/* All lost, the receiver reporting nothing received. */
	fill(&r, 1, 400, 1.0, 1, 0, 0, 1.0);
	result_udp(&r, &f);
	assert_int_equal(f.lost, 400);
	assert_near(f.lost_pct, 100);
	assert_near(f.rx_pps, 0);

	/* More received than sent (no such test; a count is off): 0, never
	 * a wrapped 2^64 - 5. */
	fill(&r, 1, 995, 1.0, 1, 1000, 0, 1.0);
	result_udp(&r, &f);
	assert_int_equal(f.lost, 0);
	assert_near(f.lost_pct, 0);

	/* Nothing sent at all: no division by zero. */
	fill(&r, 1, 0, 1.0, 1, 0, 0, 1.0);
	result_udp(&r, &f);
	assert_int_equal(f.has, 1);
	assert_int_equal(f.lost, 0);
	assert_near(f.lost_pct, 0);
}

/*
 * The sender's count unknown (its figures never came, or it is a TCP
 * side): the loss is the receiver's gaps, over received + lost.
 */
static void
test_sent_unknown(void **state)
{
	struct gb_result r;
	struct gb_udp_figures f;

	(void)state;
	fill(&r, 0, 0, 0, 1, 900, 100, 3.0);
	result_udp(&r, &f);
	assert_int_equal(f.has, 1);
	assert_int_equal(f.sent_known, 0);
	assert_int_equal(f.sent, 0);
	assert_int_equal(f.received, 900);
	assert_int_equal(f.lost, 100);
	assert_near(f.lost_pct, 10.0);		/* 100 of 1000 */
	assert_near(f.tx_pps, 0);
	assert_near(f.rx_pps, 300.0);		/* 900 / 3.0 s */
	assert_near(f.jitter_ms, 0.125);

	/* A sender side without udp figures counts as unknown too. */
	fill(&r, 1, 1000, 2.0, 1, 900, 100, 3.0);
	r.sender.udp.has = 0;
	result_udp(&r, &f);
	assert_int_equal(f.sent_known, 0);
	assert_int_equal(f.lost, 100);
	assert_near(f.tx_pps, 0);

	/* No gaps, nothing received: 0 %, no division by zero. */
	fill(&r, 0, 0, 0, 1, 0, 0, 1.0);
	result_udp(&r, &f);
	assert_int_equal(f.lost, 0);
	assert_near(f.lost_pct, 0);
}

/* The receiver's figures never came: everything sent counts as lost. */
static void
test_receiver_unknown(void **state)
{
	struct gb_result r;
	struct gb_udp_figures f;

	(void)state;
	fill(&r, 1, 250, 0.5, 0, 0, 0, 0);
	result_udp(&r, &f);
	assert_int_equal(f.has, 1);
	assert_int_equal(f.sent_known, 1);
	assert_int_equal(f.received, 0);
	assert_int_equal(f.lost, 250);
	assert_near(f.lost_pct, 100);
	assert_near(f.tx_pps, 500);
	assert_near(f.rx_pps, 0);
	assert_near(f.jitter_ms, 0);
}

/* A rate over no time (or NaN) is none; neither side: no figures. */
static void
test_pps_edges_and_none(void **state)
{
	struct gb_result r;
	struct gb_udp_figures f;

	(void)state;
	fill(&r, 1, 1000, 0, 1, 1000, 0, -1.0);
	result_udp(&r, &f);
	assert_near(f.tx_pps, 0);
	assert_near(f.rx_pps, 0);
	fill(&r, 1, 1000, NAN, 1, 1000, 0, NAN);
	result_udp(&r, &f);
	assert_near(f.tx_pps, 0);
	assert_near(f.rx_pps, 0);

	fill(&r, 0, 0, 0, 0, 0, 0, 0);
	memset(&f, 0xa5, sizeof(f));
	result_udp(&r, &f);
	assert_int_equal(f.has, 0);
	assert_int_equal(f.lost, 0);
	assert_int_equal(f.sent, 0);

	/* A TCP test's sides: no udp figures, nothing derived. */
	fill(&r, 1, 10, 1.0, 1, 10, 0, 1.0);
	r.params.udp = 0;
	r.sender.udp.has = r.receiver.udp.has = 0;
	result_udp(&r, &f);
	assert_int_equal(f.has, 0);
}

/* The document's result.udp for r; the caller frees *doc. */
static json_t *
udp_json(const struct gb_result *r, json_t **doc)
{
	json_t *u;

	assert_non_null(*doc = report_json(r));
	u = json_object_get(json_object_get(*doc, "result"), "udp");
	assert_non_null(u);
	return u;
}

/* result.udp carries result_udp()'s figures, lost_by_gaps its source. */
static void
test_json(void **state)
{
	struct gb_result r;
	json_t *doc, *u;

	(void)state;
	fill(&r, 1, 1000, 2.0, 1, 990, 2, 1.98);
	u = udp_json(&r, &doc);
	assert_int_equal(json_integer_value(json_object_get(u, "sent")), 1000);
	assert_int_equal(json_integer_value(json_object_get(u, "received")),
	    990);
	assert_int_equal(json_integer_value(json_object_get(u, "lost")), 10);
	assert_near(json_real_value(json_object_get(u, "lost_pct")), 1.0);
	assert_near(json_real_value(json_object_get(u, "sender_pps")), 500);
	assert_near(json_real_value(json_object_get(u, "receiver_pps")), 500);
	assert_near(json_real_value(json_object_get(u, "jitter_ms")), 0.125);
	assert_true(json_is_false(json_object_get(u, "lost_by_gaps")));
	assert_non_null(json_object_get(u, "per_datagram_tx"));
	assert_non_null(json_object_get(u, "per_datagram_rx"));
	assert_int_equal(json_object_size(u), 10);
	json_decref(doc);

	/* Unknown sender: sent is null, the loss is by the gaps. */
	fill(&r, 0, 0, 0, 1, 900, 100, 3.0);
	u = udp_json(&r, &doc);
	assert_true(json_is_null(json_object_get(u, "sent")));
	assert_int_equal(json_integer_value(json_object_get(u, "lost")), 100);
	assert_near(json_real_value(json_object_get(u, "lost_pct")), 10.0);
	assert_true(json_is_true(json_object_get(u, "lost_by_gaps")));
	json_decref(doc);

	/* A TCP test: result.udp is null. */
	fill(&r, 1, 10, 1.0, 1, 10, 0, 1.0);
	r.params.udp = 0;
	r.sender.udp.has = r.receiver.udp.has = 0;
	assert_non_null(doc = report_json(&r));
	assert_true(json_is_null(json_object_get(json_object_get(doc,
	    "result"), "udp")));
	json_decref(doc);
}

/* text: what report_text or report_summary_line printed for r. */
static char *
text(const struct gb_result *r, int summary)
{
	struct report_style st = { 'm', 0, 0, 0 };
	char *buf = NULL;
	size_t len = 0;
	FILE *fp;

	assert_non_null(fp = open_memstream(&buf, &len));
	if (summary)
		report_summary_line(fp, r, 'm');
	else
		report_text(fp, r, &st);
	assert_int_equal(fclose(fp), 0);
	return buf;
}

static void
assert_has(const char *hay, const char *needle)
{
	if (strstr(hay, needle) == NULL)
		fail_msg("\"%s\" not in:\n%s", needle, hay);
}

/* The udp lines and the summary's drop/pkt, %loss, msJitter. */
static void
test_text(void **state)
{
	struct gb_result r;
	char *s;

	(void)state;
	fill(&r, 1, 1000, 2.0, 1, 990, 2, 1.98);
	r.sender.udp.enobufs = 4;
	r.sender.udp.refused = 1;
	r.receiver.udp.ooo = 3;
	r.receiver.udp.dup = 2;
	r.receiver.udp.stray = 7;
	s = text(&r, 0);
	assert_has(s, "gigebench-t: udp 1000 datagrams of 1400 bytes, 500 pps, "
	    "batch 32, 4 ENOBUFS/EAGAIN, 1 refused\n");
	assert_has(s, "gigebench-r: udp 990 datagrams, 500 pps, lost 10 "
	    "(1.000 %), 3 late, 2 dup, 7 stray, jitter 0.125 ms\n");
	free(s);
	s = text(&r, 1);
	assert_has(s, " 10 / 1000 drop/pkt 1.00 %loss 0.125 msJitter ");
	assert_null(strstr(s, "retrans"));
	free(s);

	/* Unknown sender: the receiver says so; the summary has no count. */
	fill(&r, 0, 0, 0, 1, 900, 100, 3.0);
	s = text(&r, 0);
	assert_has(s, "gigebench-r: udp 900 datagrams, 300 pps, lost 100 "
	    "(10.000 %, by the gaps), 0 late, 0 dup, 0 stray, jitter 0.125 "
	    "ms\n");
	free(s);
	s = text(&r, 1);
	assert_has(s, " n/a / n/a drop/pkt n/a %loss n/a msJitter ");
	free(s);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sent_known),
		cmocka_unit_test(test_sent_unknown),
		cmocka_unit_test(test_receiver_unknown),
		cmocka_unit_test(test_pps_edges_and_none),
		cmocka_unit_test(test_json),
		cmocka_unit_test(test_text),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
