/*
 * test_flowstat.c: flowstat.c against figures computed by hand.
 *
 * Four flows of a -P 4 test over 10 s (one ended at 9.5 s): 1175000000,
 * 1187500000, 1137500000 and 1128125000 bytes are 940, 950, 910 and
 * 950 Mbit/s.  Sorted {910, 940, 950, 950}: P50 (940 + 950) / 2 = 945.
 * Jain's index of those four: sum 3750, squares 3516700, 3750^2 /
 * (4 * 3516700) = 14062500 / 14066800 = 0.999694316.  Of {940, 950, 910,
 * 1000} (flowstat_jain directly): sum 3800, squares 3614200, 3800^2 /
 * (4 * 3614200) = 14440000 / 14456800 = 0.998837917.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "base/flowstat.h"

#include "assert_near.h"

static void
set_flow(struct gb_stream *g, uint64_t bytes, double seconds)
{
	memset(g, 0, sizeof(*g));
	g->bytes = bytes;
	g->seconds = seconds;
	g->cpu = -1;
	g->pinned = -1;
}

static void
set_tcp(struct gb_stream *g, uint32_t retrans, uint32_t rtt_us)
{
	g->has_tcp = 1;
	g->retrans = retrans;
	g->rtt_us = rtt_us;
}

static void
test_jain(void **state)
{
	static const double equal[] = { 9.81, 9.81, 9.81, 9.81, 9.81 };
	static const double zero[] = { 0, 0, 0 };
	static const double two[] = { 3, 1 };	/* 16 / (2 * 10) */
	static const double hand[] = { 940, 950, 910, 1000 };

	(void)state;
	assert_near(flowstat_jain(equal, 5), 1, 1e-15);
	assert_near(flowstat_jain(zero, 3), 1, 0);
	assert_near(flowstat_jain(NULL, 0), 1, 0);
	assert_near(flowstat_jain(two, 2), 0.8, 1e-15);
	assert_near(flowstat_jain(hand, 4), 14440000.0 / 14456800.0, 1e-12);
	assert_near(flowstat_jain(hand, 4), 0.998837917, 1e-9);
	/* Values whose squares would overflow a double unscaled. */
	assert_near(flowstat_jain((const double[]){ 1e300, 1e300 }, 2), 1,
	    1e-15);
}

static void
test_equal_flows(void **state)
{
	struct gb_stream g[1000];
	struct gb_flows f;
	unsigned i;

	(void)state;
	/* 1000 flows of 10.02 Mbit/s over 10 s each. */
	for (i = 0; i < 1000; i++)
		set_flow(&g[i], 12525000, 10.0);
	assert_int_equal(flowstat_summarize(g, 1000, 2, 0, &f), 0);
	assert_int_equal(f.has, 1);
	assert_int_equal(f.n, 1000);
	assert_int_equal(f.threads, 2);
	assert_near(f.mbps_min, 10.02, 1e-12);
	assert_near(f.mbps_p50, 10.02, 1e-12);
	assert_near(f.mbps_max, 10.02, 1e-12);
	assert_near(f.jain, 1, 1e-12);
	assert_int_equal(f.has_tps, 0);
	assert_int_equal(f.has_tcp, 0);
}

static void
test_one_flow_has_all(void **state)
{
	struct gb_stream g[8];
	struct gb_flows f;
	unsigned i;

	(void)state;
	/* Seven flows that moved nothing, one at 941.5 Mbit/s. */
	for (i = 0; i < 8; i++)
		set_flow(&g[i], 0, 10.0);
	g[5].bytes = 1176875000;
	assert_int_equal(flowstat_summarize(g, 8, 1, 0, &f), 0);
	assert_near(f.jain, 1.0 / 8, 1e-15);
	assert_near(f.mbps_min, 0, 0);
	assert_near(f.mbps_p50, 0, 0);
	assert_near(f.mbps_max, 941.5, 1e-9);
}

static void
test_hand_example(void **state)
{
	struct gb_stream g[4];
	struct gb_flows f;

	(void)state;
	set_flow(&g[0], 1175000000, 10.0);		/* 940 */
	set_flow(&g[1], 1187500000, 10.0);		/* 950 */
	set_flow(&g[2], 1137500000, 10.0);		/* 910 */
	set_flow(&g[3], 1128125000, 9.5);		/* 950 */
	set_tcp(&g[0], 0, 31);
	set_tcp(&g[1], 3, 88);
	set_tcp(&g[3], 1, 40);
	/* Without has_tcp, these must not count. */
	g[2].retrans = 99;
	g[2].rtt_us = 5;
	assert_int_equal(flowstat_summarize(g, 4, 4, 0, &f), 0);
	assert_int_equal(f.has, 1);
	assert_near(f.mbps_min, 910, 1e-9);
	assert_near(f.mbps_p50, 945, 1e-9);
	assert_near(f.mbps_max, 950, 1e-9);
	assert_near(f.jain, 14062500.0 / 14066800.0, 1e-12);
	assert_near(f.jain, 0.999694316, 1e-9);
	assert_int_equal(f.has_tcp, 1);
	assert_int_equal(f.retrans_max, 3);
	assert_int_equal(f.rtt_us_min, 31);
	assert_int_equal(f.rtt_us_p50, 40);	/* {31, 40, 88} */
	assert_int_equal(f.rtt_us_max, 88);
	/* The input is not sorted in place. */
	assert_int_equal(g[0].bytes, 1175000000);
	assert_int_equal(g[2].bytes, 1137500000);
}

static void
test_medians(void **state)
{
	struct gb_stream g[3];
	struct gb_flows f;

	(void)state;
	/* Odd: {812, 850, 901} transactions/s, given out of order. */
	set_flow(&g[0], 122625000, 10.0);	/* 98.1 Mbit/s */
	set_flow(&g[1], 125250000, 10.0);	/* 100.2 */
	set_flow(&g[2], 130625000, 10.0);	/* 104.5 */
	g[0].transactions = 9010;
	g[1].transactions = 8120;
	g[2].transactions = 8500;
	set_tcp(&g[0], 2, 40);
	set_tcp(&g[2], 0, 31);
	assert_int_equal(flowstat_summarize(g, 3, 1, 1, &f), 0);
	assert_near(f.mbps_p50, 100.2, 1e-9);
	assert_int_equal(f.has_tps, 1);
	assert_near(f.tps_min, 812, 1e-9);
	assert_near(f.tps_p50, 850, 1e-9);
	assert_near(f.tps_max, 901, 1e-9);
	/* Even, over the two flows with TCP: (31 + 40) / 2 = 35.5 -> 36. */
	assert_int_equal(f.rtt_us_min, 31);
	assert_int_equal(f.rtt_us_p50, 36);
	assert_int_equal(f.rtt_us_max, 40);
	assert_int_equal(f.retrans_max, 2);
	/* Even, two flows: (812 + 850) / 2 = 831 */
	assert_int_equal(flowstat_summarize(g + 1, 2, 1, 1, &f), 0);
	assert_near(f.tps_p50, (812 + 850) / 2.0, 1e-9);
	assert_near(f.mbps_p50, (100.2 + 104.5) / 2, 1e-9);
	/* A flow of no time has rate 0, and transactions/s 0. */
	g[1].seconds = 0;
	assert_int_equal(flowstat_summarize(g, 3, 1, 1, &f), 0);
	assert_near(f.mbps_min, 0, 0);
	assert_near(f.tps_min, 0, 0);
	assert_near(f.tps_p50, 850, 1e-9);
}

static void
test_no_tcp_no_flows(void **state)
{
	struct gb_stream g[2];
	struct gb_flows f;

	(void)state;
	set_flow(&g[0], 1250000, 1.0);
	set_flow(&g[1], 1250000, 1.0);
	g[0].retrans = 7;	/* not read: no has_tcp */
	assert_int_equal(flowstat_summarize(g, 2, 1, 0, &f), 0);
	assert_int_equal(f.has, 1);
	assert_int_equal(f.has_tcp, 0);
	assert_int_equal(f.retrans_max, 0);
	assert_int_equal(f.rtt_us_p50, 0);
	/* No flows: nothing known, but what was asked is kept. */
	memset(&f, 0xa5, sizeof(f));
	assert_int_equal(flowstat_summarize(NULL, 0, 3, 1, &f), 0);
	assert_int_equal(f.has, 0);
	assert_int_equal(f.n, 0);
	assert_int_equal(f.threads, 3);
	assert_int_equal(f.has_tps, 0);
	assert_int_equal(f.has_tcp, 0);
	assert_near(f.jain, 0, 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_jain),
		cmocka_unit_test(test_equal_flows),
		cmocka_unit_test(test_one_flow_has_all),
		cmocka_unit_test(test_hand_example),
		cmocka_unit_test(test_medians),
		cmocka_unit_test(test_no_tcp_no_flows),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
