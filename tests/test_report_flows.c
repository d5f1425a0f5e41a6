/*
 * test_report_flows.c: the text report's flow summary line
 * (report_flows.c) and the stream lines beside it (report.c): the line
 * for two flows or more, in the unit of -f, with --rr's transactions/s
 * and TCP's retransmits and RTT when known; the -v stream lines with a
 * stream's retransmits, and none past REPORT_MAX_STREAM_LINES streams
 * when the summary line stands for them.
 *
 * The figures are of a -P 1000 receiver on 2 threads whose flows moved
 * 9.81 to 10.45 Mbit/s (P50 10.02), as flowstat.c would sum them up.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "out/report.h"
#include "base/result.h"

static struct gb_result *
result_flows(unsigned nstreams)
{
	struct gb_result *r;
	struct gb_side *s;
	unsigned i;

	assert_non_null(r = calloc(1, sizeof(*r)));
	r->params.direction = GB_DIR_CLIENT_SENDS;
	r->params.buflen = 131072;
	r->params.duration_ms = 10000;
	r->params.streams = 1000;
	strcpy(r->peer, "198.18.0.2");
	r->port = 5001;
	r->local_is_sender = 1;
	s = &r->receiver;
	s->has = 1;
	s->bytes = UINT64_C(12525000000);
	s->seconds = 10.0;
	s->mbps = 10020.0;
	s->tos = -1;
	s->data_path = GB_PATH_RECV;
	s->flows.has = 1;
	s->flows.n = 1000;
	s->flows.threads = 2;
	s->flows.mbps_min = 9.81;
	s->flows.mbps_p50 = 10.02;
	s->flows.mbps_max = 10.45;
	s->flows.jain = 0.99812;
	s->nstreams = nstreams;
	for (i = 0; i < nstreams; i++) {
		s->streams[i].bytes = 12525000;
		s->streams[i].seconds = 10.0;
		s->streams[i].cpu = (int)(i % 2);
		s->streams[i].pinned = -1;
		s->streams[i].path = GB_PATH_RECV;
	}
	return r;
}

static char *
render(const struct gb_result *r, char unit, int verbose)
{
	struct report_style st = { unit, verbose, 0, 0 };
	char *buf = NULL;
	size_t len = 0;
	FILE *fp;

	assert_non_null(fp = open_memstream(&buf, &len));
	report_text(fp, r, &st);
	assert_int_equal(fclose(fp), 0);
	return buf;
}

/* line (its newline included) is one whole line of text. */
static void
assert_line(const char *text, const char *line)
{
	const char *p = strstr(text, line);

	if (p == NULL || (p != text && p[-1] != '\n'))
		fail_msg("want the line \"%s\" in:\n%s", line, text);
}

static unsigned
count(const char *text, const char *what)
{
	unsigned n = 0;

	while ((text = strstr(text, what)) != NULL) {
		n++;
		text++;
	}
	return n;
}

static void
test_line(void **state)
{
	struct gb_result *r = result_flows(128);
	char *t;

	(void)state;
	t = render(r, 'm', 0);
	assert_line(t, "gigebench-r: flows: 1000 on 2 threads, per flow "
	    "9.8100 / 10.0200 / 10.4500 Mbps (min / P50 / max), Jain 0.998\n");
	/* The sender's side is not known: no line for it. */
	assert_int_equal(count(t, "flows:"), 1);
	free(t);
	/* -f K: 2^10 bytes a second, as the bytes line's. */
	t = render(r, 'K', 0);
	assert_line(t, "gigebench-r: flows: 1000 on 2 threads, per flow "
	    "1197.5098 / 1223.1445 / 1275.6348 KB/sec (min / P50 / max), "
	    "Jain 0.998\n");
	free(t);
	r->receiver.flows.threads = 1;
	r->receiver.flows.has_tps = 1;
	r->receiver.flows.tps_min = 812.4;
	r->receiver.flows.tps_p50 = 850;
	r->receiver.flows.tps_max = 901;
	r->receiver.flows.has_tcp = 1;
	r->receiver.flows.retrans_max = 3;
	r->receiver.flows.rtt_us_min = 31;
	r->receiver.flows.rtt_us_p50 = 40;
	r->receiver.flows.rtt_us_max = 88;
	t = render(r, 'g', 0);
	assert_line(t, "gigebench-r: flows: 1000 on 1 thread, per flow "
	    "0.0098 / 0.0100 / 0.0104 Gbps (min / P50 / max), Jain 0.998, "
	    "812 / 850 / 901 transactions/s, retransmits at most 3 a flow, "
	    "RTT 31 / 40 / 88 us\n");
	free(t);
	/* Threads not known (0): left out. */
	r->receiver.flows.threads = 0;
	r->receiver.flows.has_tps = 0;
	r->receiver.flows.has_tcp = 0;
	t = render(r, 'm', 0);
	assert_line(t, "gigebench-r: flows: 1000, per flow 9.8100 / 10.0200 "
	    "/ 10.4500 Mbps (min / P50 / max), Jain 0.998\n");
	free(t);
	free(r);
}

static void
test_no_line(void **state)
{
	struct gb_result *r = result_flows(1);
	char *t;

	(void)state;
	r->receiver.flows.n = 1;
	t = render(r, 'm', 1);
	assert_null(strstr(t, "flows:"));
	assert_int_equal(count(t, " stream "), 1);
	free(t);
	r->receiver.flows.n = 2;
	r->receiver.flows.has = 0;
	t = render(r, 'm', 1);
	assert_null(strstr(t, "flows:"));
	free(t);
	free(r);
}

static void
test_stream_lines(void **state)
{
	struct gb_result *r = result_flows(16);
	char *t;

	(void)state;
	r->receiver.flows.n = 16;
	r->receiver.streams[0].has_tcp = 1;
	r->receiver.streams[0].retrans = 3;
	r->receiver.streams[0].rtt_us = 40;
	r->receiver.streams[1].has_tcp = 1;
	r->receiver.streams[1].retrans = 1;
	r->receiver.streams[2].has_tcp = 1;
	/* Without has_tcp, not printed. */
	r->receiver.streams[3].retrans = 7;
	t = render(r, 'm', 1);
	assert_int_equal(count(t, "gigebench-r: stream "), 16);
	assert_line(t, "gigebench-r: stream 0: 12525000 bytes in 10.00 s = "
	    "10.0200 Mbps, cpu 0, recv, 3 retransmits\n");
	assert_line(t, "gigebench-r: stream 1: 12525000 bytes in 10.00 s = "
	    "10.0200 Mbps, cpu 1, recv, 1 retransmit\n");
	assert_line(t, "gigebench-r: stream 2: 12525000 bytes in 10.00 s = "
	    "10.0200 Mbps, cpu 0, recv, 0 retransmits\n");
	assert_line(t, "gigebench-r: stream 3: 12525000 bytes in 10.00 s = "
	    "10.0200 Mbps, cpu 1, recv\n");
	assert_int_equal(count(t, "gigebench-r: flows: 16 "), 1);
	free(t);
	/* Without -v, no stream line at all. */
	t = render(r, 'm', 0);
	assert_int_equal(count(t, " stream "), 0);
	free(t);
	free(r);

	/* 17 streams kept: the summary line stands for them. */
	r = result_flows(17);
	t = render(r, 'm', 2);
	assert_int_equal(count(t, " stream "), 0);
	assert_int_equal(count(t, "gigebench-r: flows: 1000 "), 1);
	free(t);
	/* ... unless there is none (a peer that sent no summary). */
	r->receiver.flows.has = 0;
	t = render(r, 'm', 1);
	assert_int_equal(count(t, "gigebench-r: stream "), 17);
	free(t);
	free(r);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_line),
		cmocka_unit_test(test_no_line),
		cmocka_unit_test(test_stream_lines),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
