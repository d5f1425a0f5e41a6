/*
 * test_bloat.c: bloat.c's phase figures on series worked by hand, and
 * lathist's trimmed mean that they use.
 *
 * 100 idle probes of 1 ms and 100 loaded ones of 81 ms: a histogram of
 * one value holds it exactly (min = max), so P50 is 1 and 81, the added
 * delay 80 ms, the queue at 100 Mbit/s 0.080 x 100e6 / 8 = 1,000,000
 * bytes; with a self RTT of 80 ms, RPM = (60000 / 81 + 60000 / 80) / 2
 * = (740.74 + 750) / 2 = 745.37.
 *
 * UDP probes (--probe-rate): params_probe's -u --rr and the report's
 * losses, 5 of 500 loaded = 1.00 %, in the text and the CSV's last six
 * columns.
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

#include "base/bloat.h"
#include "data/dgram.h"
#include "out/bloat_report.h"
#include "assert_near.h"

#define MS	UINT64_C(1000000)	/* ns */

static void
fill(struct lathist *h, uint64_t ns, unsigned n)
{
	unsigned i;

	for (i = 0; i < n; i++)
		lathist_add(h, ns);
}

static void
test_trimmed_mean(void **state)
{
	struct lathist h;
	unsigned i;

	(void)state;
	lathist_init(&h);
	assert_near(lathist_trimmed_mean(&h, 95), 0, 0);
	fill(&h, 7 * MS, 40);
	assert_near(lathist_trimmed_mean(&h, 95), 7e6, 0);	/* exact */
	/* 1..100 ms: the lowest 95 have the mean 48 ms, to a bucket. */
	lathist_init(&h);
	for (i = 1; i <= 100; i++)
		lathist_add(&h, i * MS);
	assert_near(lathist_trimmed_mean(&h, 95), 48e6, 48e6 / 32);
	assert_near(lathist_trimmed_mean(&h, 100), 50.5e6, 50.5e6 / 32);
	/* 19 of 10 ms and one of 10 s: the outlier is trimmed away. */
	lathist_init(&h);
	fill(&h, 10 * MS, 19);
	lathist_add(&h, 10000 * MS);
	assert_near(lathist_trimmed_mean(&h, 95), 10e6, 10e6 / 32);
	/* The share is clamped: 0 is 1 %, 200 is 100 %. */
	assert_near(lathist_trimmed_mean(&h, 0), 10e6, 10e6 / 32);
	assert_true(lathist_trimmed_mean(&h, 200) > 400e6);
}

static void
test_compute(void **state)
{
	struct lathist idle, loaded;
	struct bloat_in in = { &idle, &loaded, 80, 100e6 };
	struct bloat_figures f;
	char err[128];

	(void)state;
	lathist_init(&idle);
	lathist_init(&loaded);
	fill(&idle, 1 * MS, 100);
	fill(&loaded, 81 * MS, 100);
	assert_int_equal(bloat_compute(&in, &f, err, sizeof(err)), 0);
	assert_int_equal(f.idle.count, 100);
	assert_near(f.idle.p50_ms, 1, 0);
	assert_near(f.loaded.p50_ms, 81, 0);
	assert_near(f.loaded.p99_ms, 81, 0);
	assert_near(f.loaded.trimmed_ms, 81, 0);
	assert_near(f.added_ms, 80, 1e-9);
	assert_near(f.queue_bytes, 1e6, 1e-3);
	assert_true(f.has_rpm);
	assert_near(f.rpm.rpm, (60000.0 / 81 + 60000.0 / 80) / 2, 1e-9);
	assert_int_equal(f.grade, BLOAT_GRADE_HIGH);
	assert_string_equal(bloat_grade_name(f.grade), "high");
	/* No self probe: no RPM; no one rate (both): no queue. */
	in.self_ms = NAN;
	in.rate_bps = NAN;
	assert_int_equal(bloat_compute(&in, &f, err, sizeof(err)), 0);
	assert_false(f.has_rpm);
	assert_true(isnan(f.queue_bytes));
	assert_near(f.added_ms, 80, 1e-9);
}

static void
test_grades(void **state)
{
	struct lathist idle, loaded;
	struct bloat_in in = { &idle, &loaded, NAN, 1e9 };
	struct bloat_figures f;
	char err[128];

	(void)state;
	lathist_init(&idle);
	fill(&idle, 10 * MS, 10);
	lathist_init(&loaded);
	fill(&loaded, 15 * MS, 10);	/* +5 ms: still low */
	assert_int_equal(bloat_compute(&in, &f, err, sizeof(err)), 0);
	assert_string_equal(bloat_grade_name(f.grade), "low");
	lathist_init(&loaded);
	fill(&loaded, 40 * MS, 10);	/* +30 ms: moderate */
	assert_int_equal(bloat_compute(&in, &f, err, sizeof(err)), 0);
	assert_string_equal(bloat_grade_name(f.grade), "moderate");
	lathist_init(&loaded);
	fill(&loaded, 41 * MS, 10);
	assert_int_equal(bloat_compute(&in, &f, err, sizeof(err)), 0);
	assert_string_equal(bloat_grade_name(f.grade), "high");
	/* Faster loaded than idle is noise: no negative delay. */
	lathist_init(&loaded);
	fill(&loaded, 2 * MS, 10);
	assert_int_equal(bloat_compute(&in, &f, err, sizeof(err)), 0);
	assert_near(f.added_ms, 0, 0);
	assert_near(f.queue_bytes, 0, 0);
	/* Nothing answered: refused, with which set. */
	lathist_init(&loaded);
	assert_int_equal(bloat_compute(&in, &f, err, sizeof(err)), -1);
	assert_string_equal(err, "no probe was answered beside the load");
	lathist_init(&idle);
	assert_int_equal(bloat_compute(&in, &f, err, sizeof(err)), -1);
	assert_string_equal(err, "no probe was answered while the link was "
	    "idle");
}

static void
test_phases(void **state)
{
	struct gb_params load, p;

	(void)state;
	assert_string_equal(bloat_phase_name(GB_PHASE_UPLOAD), "upload");
	assert_string_equal(bloat_phase_name(GB_PHASE_BOTH), "both");
	assert_string_equal(bloat_phase_name(7), "?");
	assert_int_equal(bloat_phase_parse("download"), GB_PHASE_DOWNLOAD);
	assert_int_equal(bloat_phase_parse("Upload"), -1);
	assert_int_equal(bloat_phase_parse(""), -1);
	params_init(&load);
	load.streams = 4;
	load.probes = 2;
	load.direction = GB_DIR_CLIENT_RECEIVES;
	bloat_phase_params(&load, GB_PHASE_UPLOAD, &p);
	assert_int_equal(p.direction, GB_DIR_CLIENT_SENDS);
	assert_false(p.bidir);
	assert_int_equal(p.streams, 4);
	assert_int_equal(p.probes, 2);
	bloat_phase_params(&load, GB_PHASE_DOWNLOAD, &p);
	assert_int_equal(p.direction, GB_DIR_CLIENT_RECEIVES);
	bloat_phase_params(&load, GB_PHASE_BOTH, &p);
	assert_int_equal(p.direction, GB_DIR_CLIENT_SENDS);
	assert_true(p.bidir);
	assert_int_equal(params_conns(&p), 2 * 4 + 2);
}

/* The probes' test: params_probe. */
static void
test_probe_params(void **state)
{
	struct gb_params load, p;
	const struct gb_params *c;

	(void)state;
	params_init(&load);
	load.streams = 3;
	load.probes = 2;
	load.tos = 16;
	load.omit_ms = 3000;
	load.sndbuf = 1 << 20;
	params_probe(&load, &p);
	assert_true(p.rr);
	assert_true(p.nodelay);
	assert_int_equal(p.streams, 2);
	assert_int_equal(p.probes, 0);
	assert_int_equal(p.tos, 16);		/* the load's without probe_tos */
	assert_int_equal(p.omit_ms, 3000);
	assert_int_equal(p.duration_ms, load.duration_ms);
	assert_int_equal(p.sndbuf, 0);
	load.probe_tos = 184;
	params_probe(&load, &p);
	assert_int_equal(p.tos, 184);
	/* Connections 0-2 are the load's, 3-4 the probes'. */
	assert_int_equal(params_conns(&load), 5);
	assert_ptr_equal(params_conn_params(&load, 2, &p), &load);
	c = params_conn_params(&load, 3, &p);
	assert_ptr_equal(c, &p);
	assert_int_equal(c->tos, 184);
}

static void
test_from_results(void **state)
{
	static struct gb_result idle, loaded;
	struct bloat_run run = { .idle = &idle, .loaded = &loaded };

	(void)state;
	memset(&idle, 0, sizeof(idle));
	memset(&loaded, 0, sizeof(loaded));
	bloat_from_results(&run);
	assert_false(run.ok);
	assert_string_equal(run.error, "the idle test has no probe latencies");
	idle.has_latency = 1;
	lathist_init(&idle.latency);
	fill(&idle.latency, 1 * MS, 10);
	loaded.probe.has = 1;
	lathist_init(&loaded.probe.latency);
	fill(&loaded.probe.latency, 21 * MS, 10);
	loaded.sender.has = loaded.receiver.has = 1;
	loaded.sender.mbps = 99;
	loaded.receiver.mbps = 95;
	loaded.sender.tcp.has = 1;
	loaded.sender.tcp.rtt_us = 20000;
	bloat_from_results(&run);
	assert_true(run.ok);
	assert_near(run.load_mbps, 95, 0);	/* the receiver's */
	assert_near(run.f.self_ms, 20, 1e-12);
	assert_near(run.f.queue_bytes, 0.020 * 95e6 / 8, 1e-6);
	/* both: the directions' rates add, the RTTs are averaged. */
	loaded.params.bidir = 1;
	loaded.rsender.has = loaded.rreceiver.has = 1;
	loaded.rreceiver.mbps = 45;
	loaded.rsender.tcp.has = 1;
	loaded.rsender.tcp.rtt_us = 40000;
	bloat_from_results(&run);
	assert_true(run.ok);
	assert_near(run.load_mbps, 140, 1e-12);
	assert_near(run.f.self_ms, 30, 1e-12);
	assert_true(isnan(run.f.queue_bytes));
	assert_int_equal(run.self_samples, 0);
}

/*
 * idle and loaded, cleared: n_idle probes of 1 ms alone, n_loaded of
 * 21 ms beside a load whose two ends have figures.
 */
static void
two_tests(struct gb_result *idle, struct gb_result *loaded, unsigned n_idle,
    unsigned n_loaded)
{
	memset(idle, 0, sizeof(*idle));
	memset(loaded, 0, sizeof(*loaded));
	idle->has_latency = 1;
	lathist_init(&idle->latency);
	fill(&idle->latency, 1 * MS, n_idle);
	loaded->probe.has = 1;
	lathist_init(&loaded->probe.latency);
	fill(&loaded->probe.latency, 21 * MS, n_loaded);
	loaded->sender.has = loaded->receiver.has = 1;
}

/*
 * The self probes as a series: the sending ends' slices, this end's and
 * the listener's, both ways, not those of the omit nor those without
 * TCP figures; 19 of 20 ms and one of 40 ms: the lowest 95 % are the 20
 * ms ones (at their bucket's middle, within 3.125 %).
 */
static void
test_self_series(void **state)
{
	static struct gb_result idle, loaded;
	struct bloat_run run = { .idle = &idle, .loaded = &loaded };
	unsigned i;

	(void)state;
	two_tests(&idle, &loaded, 10, 10);
	loaded.sender.tcp.has = 1;
	loaded.sender.tcp.rtt_us = 90000;	/* the end's: not used */
	for (i = 0; i < 10; i++) {
		loaded.intervals[i].has_tcp = 1;
		loaded.intervals[i].rtt_us = 20000;
		loaded.rpeer_intervals[i].has_tcp = 1;
		loaded.rpeer_intervals[i].rtt_us = i == 9 ? 40000 : 20000;
	}
	loaded.intervals[10].has_tcp = 1;
	loaded.intervals[10].omitted = 1;
	loaded.intervals[10].rtt_us = 500000;
	loaded.intervals[11].rtt_us = 500000;	/* no has_tcp */
	loaded.nintervals = 12;
	loaded.nrpeer_intervals = 10;
	bloat_from_results(&run);
	assert_true(run.ok);
	assert_int_equal(run.self_samples, 20);
	assert_near(run.f.self_ms, 20, 20 * 0.03125);
	assert_true(run.f.has_rpm);
}

/* --probe-rate: UDP probes, paced, with slots for a timeout's worth. */
static void
test_udp_probe_params(void **state)
{
	struct gb_params load, p;
	char err[GB_ERR_LEN];

	(void)state;
	params_init(&load);
	load.probes = 2;
	load.streams = 3;
	assert_false(params_any_udp(&load));
	load.probe_rate = 100;
	params_probe(&load, &p);
	assert_true(p.udp);
	assert_true(p.rr);
	assert_false(p.nodelay);
	assert_int_equal(p.req_size, DGRAM_HDR_LEN);
	assert_int_equal(p.resp_size, DGRAM_HDR_LEN);
	assert_int_equal(p.buflen, DGRAM_HDR_LEN);
	assert_int_equal(p.rr_rate, 100);
	assert_int_equal(p.rr_timeout_ms, GB_PROBE_TIMEOUT_MS);
	assert_int_equal(p.rr_burst, 101);	/* 100 a second for 1 s, + 1 */
	assert_int_equal(params_check(&p, err, sizeof(err)), 0);
	load.probe_rate = GB_MAX_PROBE_RATE;
	params_probe(&load, &p);
	assert_int_equal(p.rr_burst, GB_MAX_PROBE_RATE + 1);
	assert_true(p.rr_burst <= GB_MAX_RR_BURST);
	/* The load's 3 connections TCP, the probes' 2 UDP. */
	assert_true(params_any_udp(&load));
	assert_false(params_conn_udp(&load, 2));
	assert_true(params_conn_udp(&load, 3));
	assert_true(params_conn_udp(&load, 4));
	assert_int_equal(params_check(&load, err, sizeof(err)), 0);
	/* A UDP load with TCP probes: the other way round. */
	load.udp = 1;
	load.probe_rate = 0;
	assert_true(params_conn_udp(&load, 0));
	assert_false(params_conn_udp(&load, 3));
	/* A hello's rate without probes is refused. */
	load.probes = 0;
	load.probe_rate = 10;
	assert_int_equal(params_check(&load, err, sizeof(err)), -1);
	assert_string_equal(err, "--probe-rate needs probes (--under-load)");
	load.probe_rate = 0;
	load.probe_crr = 1;
	assert_int_equal(params_check(&load, err, sizeof(err)), -1);
	assert_string_equal(err, "--probe-crr needs probes (--under-load)");
	load.probes = 1;
	load.probe_rate = 10;
	assert_int_equal(params_check(&load, err, sizeof(err)), -1);
	assert_string_equal(err, "probes (--under-load) cannot be used with "
	    "both --probe-rate (UDP) and --probe-crr (TCP)");
	/* Every connection has its slot: at most GB_MAX_FLOWS in all. */
	load.probe_rate = load.probe_crr = 0;
	load.udp = 0;
	load.probes = 16;
	load.streams = GB_MAX_FLOWS - 16;
	assert_int_equal(params_check(&load, err, sizeof(err)), 0);
	load.streams++;
	assert_int_equal(params_check(&load, err, sizeof(err)), -1);
	assert_string_equal(err, "the load's 9985 connections and 16 probes "
	    "are more than 10000 in all");
}

/* The UDP probes' losses: the idle test's asker, the loaded probes. */
static void
test_udp_loss(void **state)
{
	static struct gb_result idle, loaded;
	struct bloat_run run = { .idle = &idle, .loaded = &loaded };

	(void)state;
	two_tests(&idle, &loaded, 200, 495);
	loaded.receiver.mbps = 95;
	bloat_from_results(&run);	/* TCP probes: no losses */
	assert_true(run.ok);
	assert_false(run.idle_loss.has);
	assert_false(run.loaded_loss.has);
	idle.sender.rr.has_udp = 1;
	idle.sender.rr.requests = 200;
	loaded.probe.udp = 1;
	loaded.probe.requests = 500;
	loaded.probe.lost = 5;
	bloat_from_results(&run);
	assert_true(run.ok);
	assert_true(run.idle_loss.has);
	assert_int_equal(run.idle_loss.lost, 0);
	assert_near(run.idle_loss.pct, 0, 0);
	assert_int_equal(run.loaded_loss.requests, 500);
	assert_near(run.loaded_loss.pct, 1.0, 1e-12);
	assert_true(isnan(run.f.self_ms));	/* no TCP load: no self */
	assert_false(run.f.has_rpm);
}

/* The report, text or CSV, as a string the caller frees. */
static char *
report_of(const struct bloat_report *b, int csv)
{
	FILE *fp = tmpfile();
	char *s;
	long n;

	assert_non_null(fp);
	if (csv)
		bloat_report_csv(fp, b);
	else
		bloat_report_text(fp, b);
	n = ftell(fp);
	assert_true(n > 0);
	rewind(fp);
	s = calloc(1, (size_t)n + 1);
	assert_non_null(s);
	assert_int_equal(fread(s, 1, (size_t)n, fp), (size_t)n);
	fclose(fp);
	return s;
}

static void
test_udp_report(void **state)
{
	static struct gb_result idle, loaded;
	struct bloat_run run = { .phase = GB_PHASE_UPLOAD, .idle = &idle,
	    .loaded = &loaded };
	struct bloat_report b = { .probes = 1, .probe_rate = 100,
	    .udp_load = 1, .idle_ms = 2000, .duration_ms = 5000, .nruns = 1,
	    .runs = &run };
	char *s, *row;
	unsigned commas = 0;

	(void)state;
	two_tests(&idle, &loaded, 200, 495);
	idle.sender.rr.has_udp = 1;
	idle.sender.rr.requests = 200;
	loaded.probe.udp = 1;
	loaded.probe.tos = 184;
	loaded.probe.requests = 500;
	loaded.probe.lost = 5;
	loaded.receiver.mbps = 95;
	bloat_from_results(&run);
	s = report_of(&b, 0);
	assert_non_null(strstr(s, "1 UDP probe flow (100 round trips a "
	    "second each, evenly spaced; lost without an answer in 1 s; tos "
	    "184 (EF)), a phase: idle 2 s, then loaded 5 s\n"));
	assert_non_null(strstr(s, "upload    probes lost: idle 0 of 200 "
	    "(0.00 %), loaded 5 of 500 (1.00 %)\n"));
	assert_non_null(strstr(s, "(a UDP load has none: no RPM)"));
	free(s);
	s = report_of(&b, 1);
	assert_non_null(strstr(s, ",error,probe_kind,probe_rate,idle_requests,"
	    "idle_lost,loaded_requests,loaded_lost,loaded_loss_pct\r\n"));
	row = strstr(s, "\r\nupload,1,");
	assert_non_null(row);
	assert_non_null(strstr(row, ",udp,100,200,0,500,5,1\r\n"));
	for (row += 2; *row != '\r'; row++)
		commas += *row == ',';
	assert_int_equal(commas, 31);		/* 32 columns */
	free(s);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_trimmed_mean),
		cmocka_unit_test(test_compute),
		cmocka_unit_test(test_grades),
		cmocka_unit_test(test_phases),
		cmocka_unit_test(test_probe_params),
		cmocka_unit_test(test_from_results),
		cmocka_unit_test(test_self_series),
		cmocka_unit_test(test_udp_probe_params),
		cmocka_unit_test(test_udp_loss),
		cmocka_unit_test(test_udp_report),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
