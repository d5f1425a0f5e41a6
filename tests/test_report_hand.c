/*
 * test_report_hand.c: one full text report and one full JSON report of
 * the seed test (the 2001 GMAC, nuttcp -t, 60 s), checked field by field
 * against figures worked out by hand from the raw numbers, not against a
 * golden file (issue 13: the goldens in tests/golden are the renderer's
 * own output).
 *
 * The raw numbers are those of tests/test_report.c's result_seed (bytes,
 * seconds, calls, CPU seconds, interface counters, interrupts, TCP_INFO).
 * What the measuring code derives from them is derived here the way the
 * man page defines it, and every expected figure below is a literal with
 * its arithmetic beside it:
 *   Mbps       = bytes * 8 / seconds / 1e6
 *   MB         = bytes / 2^20
 *   CPU %      = CPU seconds / wall seconds * 100
 *   irq/pkt    = interrupts / packets (the sender's tx, the receiver's rx)
 * It must not read tests/golden or regenerate anything.
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

#include "out/report.h"
#include "base/result.h"

#define SEED_BYTES	UINT64_C(4926630527)
#define SEED_SECONDS	60.0

/* The seed's raw numbers; the derived figures are computed from them. */
static void
seed_side(struct gb_side *s, int tx)
{
	struct gb_iface_figures *f = &s->iface;

	s->has = 1;
	s->bytes = SEED_BYTES;
	s->seconds = SEED_SECONDS;
	s->mbps = (double)s->bytes * 8 / s->seconds / 1e6;
	s->calls = tx ? 75175 : 1162341;
	s->cpu.user_s = tx ? 1.23 : 2.01;
	s->cpu.sys_s = tx ? 36.57 : 36.15;
	s->cpu.user_pct = s->cpu.user_s / s->seconds * 100;
	s->cpu.sys_pct = s->cpu.sys_s / s->seconds * 100;
	s->cpu.process_pct = (s->cpu.user_s + s->cpu.sys_s) / s->seconds *
	    100;
	s->host_cpu.has = 1;
	s->host_cpu.ncpus = 1;
	s->host_cpu.busy_pct = tx ? 64.2 : 71.5;
	s->host_cpu.user_pct = tx ? 2.3 : 3.5;
	s->host_cpu.sys_pct = tx ? 41.0 : 35.0;
	s->host_cpu.irq_pct = tx ? 8.4 : 15.0;
	s->host_cpu.softirq_pct = tx ? 12.5 : 18.0;
	s->host_cpu.max_cpu = 0;
	s->host_cpu.max_cpu_busy_pct = s->host_cpu.busy_pct;
	strcpy(f->name, "eth0");
	f->has_counters = 1;
	f->rx_packets = tx ? 1643251 : 3287085;
	f->tx_packets = tx ? 3286503 : 1643542;
	f->rx_bytes = tx ? 108454566 : 5105846790;
	f->tx_bytes = tx ? 5105806910 : 108473772;
	f->irq_lines = 1;
	strcpy(f->irq_list, "41");
	f->has_interrupts = 1;
	f->interrupts = tx ? 476543 : 1157054;
	f->has_irq_per_packet = 1;
	f->irq_per_packet = (double)f->interrupts /
	    (double)(tx ? f->tx_packets : f->rx_packets);
	f->has_softirq = 1;
	f->net_rx_softirqs = tx ? 98000 : 1632000;
	f->net_tx_softirqs = tx ? 1210 : 96;
	s->tcp.has = 1;
	s->tcp.rtt_us = tx ? 120 : 95;
	s->tcp.rttvar_us = tx ? 40 : 30;
	s->tcp.cwnd = tx ? 42 : 10;
	s->tcp.mss = 1448;
	s->sndbuf.requested = tx ? 0 : 262144;
	s->sndbuf.actual = tx ? 16384 : 524288;
	s->rcvbuf.actual = 87380;
	s->data_path = tx ? GB_PATH_SEND : GB_PATH_RECV;
	s->nstreams = 1;
	s->streams[0].bytes = s->bytes;
	s->streams[0].seconds = s->seconds;
	s->streams[0].pinned = -1;
	s->streams[0].path = s->data_path;
}

static struct gb_result *
seed(void)
{
	static const uint64_t bytes[] = { 821000000, 821200000, 821105087,
	    821105088, 821110000, 821110352 };
	struct gb_result *r;
	unsigned i;

	assert_non_null(r = calloc(1, sizeof(*r)));
	r->params.direction = GB_DIR_CLIENT_SENDS;
	r->params.buflen = 65536;
	r->params.duration_ms = 60000;
	r->params.streams = 1;
	r->params.interval_ms = 10000;
	strcpy(r->peer, "192.168.1.2");
	r->port = 5001;
	r->local_is_sender = 1;
	seed_side(&r->sender, 1);
	seed_side(&r->receiver, 0);
	for (i = 0; i < 6; i++) {
		r->intervals[i].start_s = i * 10.0;
		r->intervals[i].end_s = (i + 1) * 10.0;
		r->intervals[i].bytes = bytes[i];
	}
	r->nintervals = 6;
	return r;
}

/* The hand arithmetic itself, so that a wrong literal below shows here. */
static void
test_hand_arithmetic(void **state)
{
	(void)state;
	/* 4926630527 * 8 = 39413044216 bits / 60 s = 656884070.27 bit/s */
	assert_true(fabs(4926630527.0 * 8 / 60 / 1e6 - 656.8841) < 0.00005);
	/* 4926630527 / 1048576 = 4698.4010 */
	assert_true(fabs(4926630527.0 / 1048576 - 4698.4010) < 0.00005);
	/* 476543 / 3286503 = 0.14500002 (the sender's tx packets) */
	assert_true(fabs(476543.0 / 3286503 - 0.145) < 0.0005);
	/* 476543 / 3284421 = 0.14509194 (man page's example, hoststat's) */
	assert_true(fabs(476543.0 / 3284421 - 0.145) < 0.0005);
	/* 1157054 / 3287085 = 0.35200 (the receiver's rx packets) */
	assert_true(fabs(1157054.0 / 3287085 - 0.352) < 0.0005);
	/* (1.23 + 36.57) / 60 = 0.630; (2.01 + 36.15) / 60 = 0.636 */
	assert_true(fabs((1.23 + 36.57) / 60 * 100 - 63.0) < 0.05);
	assert_true(fabs((2.01 + 36.15) / 60 * 100 - 63.6) < 0.05);
}

/* The next line of *p (without its newline); advances *p. */
static char *
next_line(char **p)
{
	char *line = *p, *nl;

	assert_non_null(line);
	assert_true(*line != '\0');
	nl = strchr(line, '\n');
	assert_non_null(nl);
	*nl = '\0';
	*p = nl + 1;
	return line;
}

static void
test_text_by_hand(void **state)
{
	struct gb_result *r = seed();
	struct report_style st = { 'm', 0, 0, 0 };
	char *buf = NULL, *p;
	size_t len = 0;
	FILE *fp;

	(void)state;
	assert_non_null(fp = open_memstream(&buf, &len));
	report_text(fp, r, &st);
	assert_int_equal(fclose(fp), 0);
	p = buf;
	/* The sender: the test's parameters, as the fixture set them. */
	assert_string_equal(next_line(&p), "gigebench-t: buflen=65536 "
	    "streams=1 duration=60.00s nodelay=0 port=5001 tcp -> "
	    "192.168.1.2");
	assert_string_equal(next_line(&p), "gigebench-t: sndbuf requested "
	    "default, initial 16384; rcvbuf requested default, initial 87380");
	/*
	 * 4926630527 bytes * 8 / 60 s = 656.8841 Mbps; / 2^20 = 4698.4010 MB,
	 * without its pointless zero.
	 */
	assert_string_equal(next_line(&p), "gigebench-t: 4926630527 bytes in "
	    "60.00 real seconds = 656.8841 Mbps (4698.401 MB), 75175 calls");
	/* 1.23 / 60 s = 2.05 %, 36.57 / 60 = 60.95 %, together 63.0 % */
	assert_string_equal(next_line(&p), "gigebench-t: cpu 1.23user "
	    "36.57sys 63.0% process; host 64.2% busy (2.3 usr 41.0 sys 8.4 "
	    "irq 12.5 softirq), busiest cpu0 64.2%");
	/* 476543 interrupts / 3286503 tx packets = 0.145 */
	assert_string_equal(next_line(&p), "gigebench-t: iface eth0: irq 41 "
	    "(1 line), 476543 interrupts, rx 1643251 tx 3286503 packets, "
	    "softirq NET_RX 98000 NET_TX 1210, irq/pkt 0.145");
	/* 120 us = 0.120 ms, 40 us = 0.040 ms */
	assert_string_equal(next_line(&p), "gigebench-t: tcp 0 retrans, rtt "
	    "0.120 ms (var 0.040), cwnd 42, mss 1448");
	/* The receiver, as the peer reported it. */
	assert_string_equal(next_line(&p), "gigebench-r: buflen=65536 "
	    "streams=1 duration=60.00s nodelay=0 port=5001 tcp, "
	    "reported by 192.168.1.2");
	assert_string_equal(next_line(&p), "gigebench-r: sndbuf requested "
	    "262144, initial 524288; rcvbuf requested default, initial 87380");
	assert_string_equal(next_line(&p), "gigebench-r: 4926630527 bytes in "
	    "60.00 real seconds = 656.8841 Mbps (4698.401 MB), 1162341 "
	    "calls");
	/* 2.01 + 36.15 = 38.16 s / 60 s = 63.6 % */
	assert_string_equal(next_line(&p), "gigebench-r: cpu 2.01user "
	    "36.15sys 63.6% process; host 71.5% busy (3.5 usr 35.0 sys 15.0 "
	    "irq 18.0 softirq), busiest cpu0 71.5%");
	/* 1157054 interrupts / 3287085 rx packets = 0.352 */
	assert_string_equal(next_line(&p), "gigebench-r: iface eth0: irq 41 "
	    "(1 line), 1157054 interrupts, rx 3287085 tx 1643542 packets, "
	    "softirq NET_RX 1632000 NET_TX 96, irq/pkt 0.352");
	/* The receiver's cwnd and MSS are of the reverse direction. */
	assert_string_equal(next_line(&p), "gigebench-r: tcp rtt 0.095 ms "
	    "(var 0.030); reverse direction (acks only): cwnd 10, mss 1448");
	assert_string_equal(next_line(&p), "gigebench-d: nothing notable");
	/*
	 * The summary: 63.0 % and 63.6 % process CPU round to 63 and 64,
	 * the sender's RTT 0.120 ms prints as 0.12.
	 */
	assert_string_equal(next_line(&p), " 4698.4010 MB /  60.00 sec =  "
	    "656.8841 Mbps 63 %TX 64 %RX 0 retrans 0.12 msRTT 0.145 "
	    "irq/pkt-TX 0.352 irq/pkt-RX");
	assert_string_equal(p, "");
	free(buf);
	free(r);
}

/* The number at PATH ("result.sender.cpu.process_pct") of J. */
static double
num_at(json_t *j, const char *path)
{
	char key[64];
	const char *dot;
	json_t *v = j;

	while (*path != '\0') {
		dot = strchr(path, '.');
		snprintf(key, sizeof(key), "%.*s", dot != NULL ?
		    (int)(dot - path) : (int)strlen(path), path);
		if (key[0] >= '0' && key[0] <= '9')
			v = json_array_get(v, (size_t)atoi(key));
		else
			v = json_object_get(v, key);
		if (v == NULL)
			fail_msg("no member %s", key);
		path = dot != NULL ? dot + 1 : "";
	}
	if (!json_is_number(v))
		fail_msg("not a number");
	return json_number_value(v);
}

static void
want(json_t *j, const char *path, double value, double tol)
{
	double got = num_at(j, path);

	if (!(fabs(got - value) <= tol))
		fail_msg("%s: %.10g, by hand %.10g", path, got, value);
}

static void
test_json_by_hand(void **state)
{
	struct gb_result *r = seed();
	json_t *j;
	static const char *const sides[] = { "sender", "receiver" };
	char path[96];
	unsigned i;

	(void)state;
	assert_non_null(j = report_json(r));
	assert_string_equal(json_string_value(json_object_get(j, "program")),
	    "gigebench");
	want(j, "result.bytes", 4926630527.0, 0);
	/* 4926630527 * 8 / 60 / 1e6 = 656.88407026... */
	want(j, "result.mbps", 656.884070267, 1e-6);
	/* 4926630527 / 1048576 = 4698.40100002... */
	want(j, "result.megabytes", 4698.401000023, 1e-6);
	want(j, "result.seconds", 60.0, 0);
	want(j, "result.port", 5001, 0);
	for (i = 0; i < 2; i++) {
#define W(member, v, tol) do {						\
		snprintf(path, sizeof(path), "result.%s.%s", sides[i],	\
		    member);						\
		want(j, path, v, tol);					\
	} while (0)
		W("bytes", 4926630527.0, 0);
		W("seconds", 60.0, 0);
		W("mbps", 656.884070267, 1e-6);
		W("megabytes", 4698.401000023, 1e-6);
		W("streams.0.mbps", 656.884070267, 1e-6);
		W("streams.0.bytes", 4926630527.0, 0);
		W("calls", i == 0 ? 75175 : 1162341, 0);
		/* user 1.23 / 60 = 2.05 %, sys 36.57 / 60 = 60.95 % ... */
		W("cpu.user_s", i == 0 ? 1.23 : 2.01, 1e-9);
		W("cpu.sys_s", i == 0 ? 36.57 : 36.15, 1e-9);
		W("cpu.user_pct", i == 0 ? 2.05 : 3.35, 1e-9);
		W("cpu.sys_pct", i == 0 ? 60.95 : 60.25, 1e-9);
		W("cpu.process_pct", i == 0 ? 63.0 : 63.6, 1e-9);
		W("host_cpu.busy_pct", i == 0 ? 64.2 : 71.5, 1e-9);
		W("host_cpu.softirq_pct", i == 0 ? 12.5 : 18.0, 1e-9);
		W("host_cpu.irq_pct", i == 0 ? 8.4 : 15.0, 1e-9);
		W("interrupts", i == 0 ? 476543 : 1157054, 0);
		W("packets.tx", i == 0 ? 3286503 : 1643542, 0);
		W("packets.rx", i == 0 ? 1643251 : 3287085, 0);
		W("bytes_on_wire.tx", i == 0 ? 5105806910.0 : 108473772, 0);
		W("bytes_on_wire.rx", i == 0 ? 108454566 : 5105846790.0, 0);
		/* 476543 / 3286503 = 0.14500002; 1157054 / 3287085 = 0.35200002 */
		W("irq_per_packet", i == 0 ? 0.14500002 : 0.35200002, 1e-8);
		W("softirq.net_rx", i == 0 ? 98000 : 1632000, 0);
		W("softirq.net_tx", i == 0 ? 1210 : 96, 0);
		W("tcp.rtt_us", i == 0 ? 120 : 95, 0);
		W("tcp.cwnd", i == 0 ? 42 : 10, 0);
		W("tcp.mss", 1448, 0);
#undef W
	}
	/* Each 10 s interval: bytes * 8 / 10 s / 1e6 */
	want(j, "intervals.0.mbps", 656.8, 1e-9);
	want(j, "intervals.1.mbps", 656.96, 1e-9);
	want(j, "intervals.2.mbps", 656.8840696, 1e-9);
	want(j, "intervals.5.mbps", 656.8882816, 1e-9);
	want(j, "intervals.5.start", 50.0, 0);
	want(j, "intervals.5.end", 60.0, 0);
	want(j, "params.buflen", 65536, 0);
	want(j, "params.duration_s", 60.0, 0);
	want(j, "params.interval_s", 10.0, 0);
	json_decref(j);
	free(r);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hand_arithmetic),
		cmocka_unit_test(test_text_by_hand),
		cmocka_unit_test(test_json_by_hand),
	};

	return cmocka_run_group_tests_name("report_hand", tests, NULL, NULL);
}
