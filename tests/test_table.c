/*
 * test_table.c: table.c.  Hand-filled results are accumulated per point,
 * summarised and rendered into open_memstream(); the text is compared
 * byte for byte with the table written out here, the JSON member by
 * member.
 *
 * The figures behind the goldens, computed by hand (t(0.95, 2) = 4.3027):
 *   mtu 1500: {956.2, 957.1, 955.8} mean 956.367, sd 0.66583, CI +-1.6540
 *   mtu 9000: {992.7, 992.9, 992.8} mean 992.800, sd 0.1,     CI +-0.2484
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

#include "base/lathist.h"
#include "out/table.h"

#include "assert_near.h"

/* One run: both ends measured, irq/pkt only where irq >= 0. */
static void
run_add(struct table_acc *a, double mbps, double cpu_tx, double cpu_rx,
    double irq_tx, double irq_rx, uint32_t retrans, unsigned warn)
{
	struct gb_result	*r;

	r = calloc(1, sizeof(*r));
	assert_non_null(r);
	r->sender.has = 1;
	r->sender.mbps = mbps + 0.5;	/* sent, not delivered: unused */
	r->sender.cpu.process_pct = cpu_tx;
	r->receiver.has = 1;
	r->receiver.mbps = mbps;
	r->receiver.cpu.process_pct = cpu_rx;
	r->sender.iface.has_irq_per_packet = irq_tx >= 0;
	r->sender.iface.irq_per_packet = irq_tx;
	r->receiver.iface.has_irq_per_packet = irq_rx >= 0;
	r->receiver.iface.irq_per_packet = irq_rx;
	r->sender.tcp.has = 1;
	r->sender.tcp.retransmits = retrans;
	r->receiver.tcp.has = 1;
	r->receiver.tcp.retransmits = 1000;	/* the sender's count only */
	r->sender.nwarnings = warn;
	r->receiver.nwarnings = warn;
	table_acc_add(a, r);
	free(r);
}

static char *
render(const struct sweep *s, const struct table_point *pts, unsigned n,
    char unit)
{
	char	*buf = NULL;
	size_t	 len = 0;
	FILE	*fp;

	fp = open_memstream(&buf, &len);
	assert_non_null(fp);
	table_text(fp, s, pts, n, unit);
	assert_int_equal(fclose(fp), 0);
	return buf;
}

/* mtu=1500,9000, three runs each, nothing unusual. */
static void
fixture_mtu(struct sweep *s, struct table_point pts[2])
{
	struct table_acc	a;
	char			err[256];

	memset(s, 0, sizeof(*s));
	assert_int_equal(sweep_parse(s, "mtu=1500,9000", err, sizeof(err)),
	    0);
	table_acc_init(&a);
	run_add(&a, 956.2, 9.1, 14.2, -1, -1, 0, 0);
	run_add(&a, 957.1, 8.9, 13.8, -1, -1, 0, 0);
	run_add(&a, 955.8, 9.0, 14.0, -1, -1, 0, 0);
	table_point_finish(&a, 0, 0.95, &pts[0]);
	table_acc_init(&a);
	run_add(&a, 992.7, 4.2, 8.1, -1, -1, 0, 0);
	run_add(&a, 992.9, 3.8, 7.9, -1, -1, 0, 0);
	run_add(&a, 992.8, 4.0, 8.0, -1, -1, 0, 0);
	table_point_finish(&a, 1, 0.95, &pts[1]);
}

static void
test_finish(void **state)
{
	struct sweep		s;
	struct table_point	pts[2];

	(void)state;
	fixture_mtu(&s, pts);
	assert_int_equal(pts[0].point, 0);
	assert_int_equal(pts[0].nruns, 3);
	assert_int_equal(pts[0].nfailed, 0);
	assert_int_equal(pts[0].mbps.n, 3);
	assert_near(pts[0].mbps.mean, 956.366667, 1e-6);
	assert_near(pts[0].mbps.sd, 0.665833, 1e-6);
	assert_near(pts[0].mbps.ci_half, 1.6540, 1e-4);
	assert_near(pts[0].mbps.level, 0.95, 0);
	assert_near(pts[0].cpu_tx.mean, 9.0, 1e-12);
	assert_near(pts[0].cpu_rx.mean, 14.0, 1e-12);
	assert_int_equal(pts[0].irq_tx.n, 0);
	assert_int_equal(pts[0].irq_rx.n, 0);
	assert_int_equal(pts[0].ci_met, -1);
	assert_near(pts[1].mbps.ci_half, 0.2484, 1e-4);
}

static void
test_text_one_axis(void **state)
{
	static const char want[] =
	    "mtu     Mbps (95% CI)            %TX  %RX  irq/pkt-TX irq/pkt-RX"
	    " retrans warn\n"
	    "1500    956.37 +- 1.65             9   14         n/a        n/a"
	    "       0    0\n"
	    "9000    992.80 +- 0.25             4    8         n/a        n/a"
	    "       0    0\n";
	struct sweep		 s;
	struct table_point	 pts[2];
	char			*got;

	(void)state;
	fixture_mtu(&s, pts);
	got = render(&s, pts, 2, 'm');
	assert_string_equal(got, want);
	free(got);
	/* Nothing to print for no points. */
	got = render(&s, pts, 0, 'm');
	assert_string_equal(got, "");
	free(got);
}

/*
 * window x cc, in Gbps: a point with a failure among three runs, one
 * with a single run, one where every run failed; irq/pkt known on one
 * end; retransmits and warnings summed; two confidence misses.
 */
static void
fixture_two_axes(struct sweep *s, struct table_point pts[4])
{
	struct table_acc	a;
	char			err[256];

	memset(s, 0, sizeof(*s));
	assert_int_equal(sweep_parse(s, "window=64K,1M", err, sizeof(err)),
	    0);
	assert_int_equal(sweep_parse(s, "cc=cubic,bbr", err, sizeof(err)), 0);
	table_acc_init(&a);		/* 64K cubic */
	run_add(&a, 400, 20, 30, 0.25, 0.5, 3, 1);
	table_acc_fail(&a);
	run_add(&a, 440, 22, 32, 0.35, 0.7, 4, 0);
	table_point_finish(&a, 0, 0.99, &pts[0]);
	pts[0].ci_met = 0;
	pts[0].ci_width_pct = 1;
	table_acc_init(&a);		/* 64K bbr */
	run_add(&a, 512.345, 21, 31, 0.3, -1, 0, 0);
	table_point_finish(&a, 1, 0.99, &pts[1]);
	pts[1].ci_met = 0;
	pts[1].ci_width_pct = 2.5;
	table_acc_init(&a);		/* 1M cubic: all failed */
	table_acc_fail(&a);
	table_acc_fail(&a);
	table_point_finish(&a, 2, 0.99, &pts[2]);
	table_acc_init(&a);		/* 1M bbr */
	run_add(&a, 941, 10, 12, 0.125, 0.25, 0, 0);
	run_add(&a, 941, 10, 12, 0.125, 0.25, 0, 0);
	table_point_finish(&a, 3, 0.99, &pts[3]);
	pts[3].ci_met = 1;
	pts[3].ci_width_pct = 1;
}

/*
 * 64K cubic: {400, 440} mean 420, sd 28.284, t(0.99, 1) = 63.657, half
 * 63.657 * 28.284 / sqrt(2) = 1273.1 Mbps = 1.27 Gbps, 303 % of the mean.
 */
static void
test_text_two_axes(void **state)
{
	static const char want[] =
	    "window  cc      Gbps (99% CI)            %TX  %RX  irq/pkt-TX "
	    "irq/pkt-RX retrans warn fail\n"
	    "64K     cubic   0.42 +- 1.27              21   31       0.300 "
	    "     0.600       7    2    1\n"
	    "64K     bbr     0.51 +- n/a               21   31       0.300 "
	    "       n/a       0    0    0\n"
	    "1M      cubic   n/a                      n/a  n/a         n/a "
	    "       n/a       0    0    2\n"
	    "1M      bbr     0.94 +- 0.00              10   12       0.125 "
	    "     0.250       0    0    0\n"
	    "point window=64K cc=cubic: 99% CI +-303 % wider than the 1 % "
	    "asked after 2 runs\n"
	    "point window=64K cc=bbr: no 99% CI within the 2.5 % asked after "
	    "1 run\n";
	struct sweep		 s;
	struct table_point	 pts[4];
	char			*got;

	(void)state;
	fixture_two_axes(&s, pts);
	got = render(&s, pts, 4, 'g');
	assert_string_equal(got, want);
	free(got);
}

/* A sender-only result: its rate is the one there is; no %RX. */
static void
test_acc_sender_only(void **state)
{
	struct gb_result	*r;
	struct table_acc	 a;
	struct table_point	 p;

	(void)state;
	r = calloc(1, sizeof(*r));
	assert_non_null(r);
	r->sender.has = 1;
	r->sender.mbps = 100;
	r->sender.cpu.process_pct = 5;
	r->receiver.cpu.process_pct = 99;	/* not has: ignored */
	r->receiver.iface.has_irq_per_packet = 1;
	r->receiver.iface.irq_per_packet = 9;
	r->sender.tcp.retransmits = 42;		/* tcp.has 0: ignored */
	r->receiver.nwarnings = 2;
	table_acc_init(&a);
	table_acc_add(&a, r);
	table_point_finish(&a, 5, 0.95, &p);
	assert_int_equal(p.point, 5);
	assert_int_equal(p.mbps.n, 1);
	assert_near(p.mbps.mean, 100, 0);
	assert_int_equal(p.cpu_tx.n, 1);
	assert_int_equal(p.cpu_rx.n, 0);
	assert_int_equal(p.irq_tx.n, 0);
	assert_int_equal(p.irq_rx.n, 0);
	assert_int_equal(p.retransmits, 0);
	assert_int_equal(p.nwarnings, 2);
	free(r);
}

static void
assert_stats_json(json_t *o, unsigned n, double mean, int has_ci)
{
	assert_true(json_is_object(o));
	assert_int_equal(json_integer_value(json_object_get(o, "n")), n);
	assert_near(json_real_value(json_object_get(o, "mean")), mean, 1e-9);
	assert_true(json_is_real(json_object_get(o, "min")));
	assert_true(json_is_real(json_object_get(o, "max")));
	assert_true(json_is_real(json_object_get(o, "level")));
	assert_int_equal(json_is_real(json_object_get(o, "sd")), has_ci);
	assert_int_equal(json_is_real(json_object_get(o, "ci_lo")), has_ci);
	assert_int_equal(json_is_real(json_object_get(o, "ci_hi")), has_ci);
	assert_int_equal(json_is_null(json_object_get(o, "sd")), !has_ci);
	assert_int_equal(json_object_size(o), 8);
}

static void
test_json(void **state)
{
	struct sweep		 s;
	struct table_point	 pts[4];
	json_t			*a, *p, *v, *m;

	(void)state;
	fixture_two_axes(&s, pts);
	a = table_json(&s, pts, 4);
	assert_non_null(a);
	assert_int_equal(json_array_size(a), 4);

	p = json_array_get(a, 0);
	assert_int_equal(json_object_size(p), 17);
	assert_true(json_is_null(json_object_get(p, "rr")));
	/* No --profile: no copy shares. */
	assert_true(json_is_null(json_object_get(p, "copy_tx")));
	assert_true(json_is_null(json_object_get(p, "copy_rx")));
	assert_true(json_is_null(json_object_get(p, "mbps_reverse")));
	v = json_object_get(p, "values");
	assert_int_equal(json_object_size(v), 2);
	assert_int_equal(json_integer_value(json_object_get(v, "window")),
	    65536);
	assert_string_equal(json_string_value(json_object_get(v, "cc")),
	    "cubic");
	assert_int_equal(json_integer_value(json_object_get(p, "runs")), 2);
	assert_int_equal(json_integer_value(json_object_get(p, "failed")), 1);
	m = json_object_get(p, "mbps");
	assert_stats_json(m, 2, 420, 1);
	assert_near(json_real_value(json_object_get(m, "sd")),
	    sqrt(800), 1e-9);
	assert_near(json_real_value(json_object_get(m, "ci_hi")) -
	    json_real_value(json_object_get(m, "ci_lo")),
	    2 * 63.656741 * sqrt(800) / sqrt(2), 1e-3);
	assert_near(json_real_value(json_object_get(m, "level")), 0.99, 0);
	assert_near(json_real_value(json_object_get(m, "min")), 400, 0);
	assert_near(json_real_value(json_object_get(m, "max")), 440, 0);
	assert_stats_json(json_object_get(p, "cpu_tx"), 2, 21, 1);
	assert_stats_json(json_object_get(p, "irq_rx"), 2, 0.6, 1);
	assert_int_equal(json_integer_value(json_object_get(p,
	    "retransmits")), 7);
	assert_int_equal(json_integer_value(json_object_get(p, "warnings")),
	    2);
	assert_true(json_is_false(json_object_get(p, "confidence_met")));

	/* One run: no sd, no interval; irq/pkt never known on RX. */
	p = json_array_get(a, 1);
	assert_stats_json(json_object_get(p, "mbps"), 1, 512.345, 0);
	assert_true(json_is_null(json_object_get(p, "irq_rx")));
	assert_stats_json(json_object_get(p, "irq_tx"), 1, 0.3, 0);

	/* Every run failed: every statistic is null. */
	p = json_array_get(a, 2);
	assert_string_equal(json_string_value(json_object_get(
	    json_object_get(p, "values"), "cc")), "cubic");
	assert_int_equal(json_integer_value(json_object_get(json_object_get(
	    p, "values"), "window")), 1048576);
	assert_int_equal(json_integer_value(json_object_get(p, "runs")), 0);
	assert_int_equal(json_integer_value(json_object_get(p, "failed")), 2);
	assert_true(json_is_null(json_object_get(p, "mbps")));
	assert_true(json_is_null(json_object_get(p, "cpu_tx")));
	assert_true(json_is_null(json_object_get(p, "cpu_rx")));
	assert_true(json_is_null(json_object_get(p, "irq_tx")));
	assert_true(json_is_null(json_object_get(p, "irq_rx")));
	assert_true(json_is_null(json_object_get(p, "confidence_met")));

	p = json_array_get(a, 3);
	assert_true(json_is_true(json_object_get(p, "confidence_met")));
	assert_stats_json(json_object_get(p, "mbps"), 2, 941, 1);
	json_decref(a);

	/* No points: an empty array, not NULL. */
	a = table_json(&s, pts, 0);
	assert_true(json_is_array(a));
	assert_int_equal(json_array_size(a), 0);
	json_decref(a);
}

/*
 * One --rr run: n transactions in 2 s each end; latencies: n98 of lat_a
 * ns and the rest of lat_b; the asking end's interrupts when irq >= 0.
 */
static void
rr_add(struct table_acc *a, uint64_t n, uint64_t lat_a, uint64_t lat_b,
    unsigned n98, double cpu_tx, double cpu_rx, long irq)
{
	struct gb_result	*r;
	unsigned		 i;

	r = calloc(1, sizeof(*r));
	assert_non_null(r);
	r->params.rr = 1;
	r->sender.has = r->receiver.has = 1;
	r->sender.seconds = r->receiver.seconds = 2;
	r->sender.rr.has = r->receiver.rr.has = 1;
	r->sender.rr.transactions = r->receiver.rr.transactions = n;
	r->sender.cpu.process_pct = cpu_tx;
	r->receiver.cpu.process_pct = cpu_rx;
	r->sender.iface.has_interrupts = irq >= 0;
	r->sender.iface.interrupts = irq >= 0 ? (uint64_t)irq : 0;
	r->has_latency = 1;
	lathist_init(&r->latency);
	for (i = 0; i < 100; i++)
		lathist_add(&r->latency, i < n98 ? lat_a : lat_b);
	table_acc_add(a, r);
	free(r);
}

/*
 * --rr: burst=1 (two runs) and burst=4 (one).  By hand: trans/s 10000
 * and 12000, mean 11000, sd 1414.21, CI +-12.7062 * 1000 = 12706.2;
 * P50 20.479 us (20000 ns is in the bucket 19968..20479) and 30.0, mean
 * 25.2; P99 80.0 and 30.0, mean 55.0; irq/trans-TX 20000 / 20000 on the
 * first run only; RX never known.
 */
static void
test_rr(void **state)
{
	static const char want[] =
	    "burst   trans/s (95% CI)            P50 us   P99 us  %TX  %RX"
	    "  irq/trans-TX irq/trans-RX warn\n"
	    "1       11000.0 +- 12706.2            25.2     55.0   42   32"
	    "         1.000          n/a    0\n"
	    "4       50000.0 +- n/a                50.0     50.0   90   88"
	    "           n/a          n/a    0\n";
	struct sweep		 s;
	struct table_point	 pts[2];
	struct table_acc	 a;
	char			 err[256], *got;
	json_t			*j, *rr;

	(void)state;
	memset(&s, 0, sizeof(s));
	assert_int_equal(sweep_parse(&s, "burst=1,4", err, sizeof(err)), 0);
	table_acc_init(&a);
	rr_add(&a, 20000, 20000, 80000, 98, 40, 30, 20000);
	rr_add(&a, 24000, 30000, 30000, 100, 44, 34, -1);
	table_point_finish(&a, 0, 0.95, &pts[0]);
	table_acc_init(&a);
	rr_add(&a, 100000, 50000, 50000, 100, 90, 88, -1);
	table_point_finish(&a, 1, 0.95, &pts[1]);
	assert_true(pts[0].rr);
	assert_true(table_point_rate(&pts[0]) == &pts[0].trans_s);
	assert_near(pts[0].trans_s.ci_half, 12706.2047, 1e-3);
	assert_near(pts[0].p50_us.mean, (20.479 + 30) / 2, 1e-9);
	got = render(&s, pts, 2, 'm');
	assert_string_equal(got, want);
	free(got);
	j = table_json(&s, pts, 2);
	assert_non_null(j);
	rr = json_object_get(json_array_get(j, 0), "rr");
	assert_true(json_is_object(rr));
	assert_int_equal(json_object_size(rr), 5);
	assert_stats_json(json_object_get(rr, "trans_per_s"), 2, 11000, 1);
	assert_stats_json(json_object_get(rr, "p50_us"), 2, 25.2395, 1);
	assert_stats_json(json_object_get(rr, "p99_us"), 2, 55, 1);
	assert_stats_json(json_object_get(rr, "irq_per_trans_tx"), 1, 1, 0);
	assert_true(json_is_null(json_object_get(rr, "irq_per_trans_rx")));
	rr = json_object_get(json_array_get(j, 1), "rr");
	assert_stats_json(json_object_get(rr, "trans_per_s"), 1, 50000, 0);
	json_decref(j);
}

/*
 * --bidir: two runs a point, the reverse direction's rate in a column of
 * its own (940/930 forward, 400/420 back: 410 +- 127.06 at 95 %, t 12.706
 * x 10 / sqrt 2 x sqrt 2), both directions' retransmits summed.
 */
static void
test_bidir(void **state)
{
	static const char want[] =
	    "streams  Mbps (95% CI)            reverse Mbps             %TX  %RX"
	    "  irq/pkt-TX irq/pkt-RX retrans warn\n"
	    "1        935.00 +- 63.53          410.00 +- 127.06          20   30"
	    "         n/a        n/a      12    0\n";
	static const double fwd[] = { 940, 930 }, back[] = { 400, 420 };
	struct sweep		 s;
	struct table_point	 pt;
	struct table_acc	 a;
	struct gb_result	*r;
	char			 err[256], *got;
	json_t			*j;
	unsigned		 i;

	(void)state;
	memset(&s, 0, sizeof(s));
	assert_int_equal(sweep_parse(&s, "streams=1", err, sizeof(err)), 0);
	table_acc_init(&a);
	for (i = 0; i < 2; i++) {
		assert_non_null(r = calloc(1, sizeof(*r)));
		r->params.bidir = 1;
		r->sender.has = r->receiver.has = 1;
		r->receiver.mbps = fwd[i];
		r->sender.cpu.process_pct = 20;
		r->receiver.cpu.process_pct = 30;
		r->sender.tcp.has = 1;
		r->sender.tcp.retransmits = 1;
		r->rsender.has = r->rreceiver.has = 1;
		r->rreceiver.mbps = back[i];
		r->rsender.tcp.has = 1;
		r->rsender.tcp.retransmits = 5;
		table_acc_add(&a, r);
		free(r);
	}
	table_point_finish(&a, 0, 0.95, &pt);
	assert_true(pt.bidir);
	assert_near(pt.rev_mbps.mean, 410, 1e-9);
	got = render(&s, &pt, 1, 'm');
	assert_string_equal(got, want);
	free(got);
	j = table_json(&s, &pt, 1);
	assert_non_null(j);
	assert_stats_json(json_object_get(json_array_get(j, 0),
	    "mbps_reverse"), 2, 410, 1);
	json_decref(j);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_finish),
		cmocka_unit_test(test_text_one_axis),
		cmocka_unit_test(test_text_two_axes),
		cmocka_unit_test(test_acc_sender_only),
		cmocka_unit_test(test_json),
		cmocka_unit_test(test_rr),
		cmocka_unit_test(test_bidir),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
