/*
 * test_report.c: the renderers (report.c, report_json.c) and the derived
 * figures (result.c).  The side decoder has its own test_report_in.c.
 *
 * Results are filled by hand, rendered into open_memstream() and compared
 * byte for byte with tests/golden/report-*.{txt,json}.  Run with
 * GIGEBENCH_UPDATE_GOLDEN=1 to rewrite the golden files instead, then read
 * them (git diff) before accepting them.  Run from the top directory, as
 * "make check" does, or set GIGEBENCH_GOLDEN_DIR.
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

#include "codec/side.h"
#include "out/report.h"
#include "base/bidir.h"
#include "base/diag.h"
#include "base/version.h"
#include "base/result.h"

#define GOLDEN_DIR	"tests/golden"

/* ---- hand-filled results ---- */

static void
fill_seed_side(struct gb_side *s, int tx)
{
	struct gb_iface_figures *f = &s->iface;

	s->has = 1;
	s->bytes = UINT64_C(4926630527);	/* 4698.4010 MB */
	s->seconds = 60.0;
	/*
	 * As nuttcp printed it in the seed.  Its own clock made the test a
	 * little longer than 60.00 s; the renderers only format what the
	 * measuring code computed, so the figure is taken as given.
	 */
	s->mbps = 656.7557;
	s->calls = tx ? 75175 : 1162341;
	s->cpu.user_s = tx ? 1.23 : 2.01;
	s->cpu.sys_s = tx ? 36.57 : 36.15;
	s->cpu.user_pct = tx ? 2.05 : 3.35;
	s->cpu.sys_pct = tx ? 60.95 : 60.25;
	s->cpu.process_pct = tx ? 63.0 : 63.6;
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
	f->interrupts = tx ? 476543 : 1157054;	/* the seed's deltas */
	f->has_irq_per_packet = 1;
	f->irq_per_packet = tx ? 0.145 : 0.352;
	f->has_softirq = 1;
	f->net_rx_softirqs = tx ? 98000 : 1632000;
	f->net_tx_softirqs = tx ? 1210 : 96;
	s->tcp.has = 1;
	s->tcp.retransmits = 0;
	s->tcp.rtt_us = tx ? 120 : 95;
	s->tcp.rttvar_us = tx ? 40 : 30;
	s->tcp.cwnd = tx ? 42 : 10;
	s->tcp.mss = 1448;
	s->sndbuf.requested = tx ? 0 : 262144;
	s->sndbuf.actual = tx ? 16384 : 524288;
	s->rcvbuf.actual = 87380;
	/* The seed's plain paths; its streams were not pinned. */
	s->data_path = tx ? GB_PATH_SEND : GB_PATH_RECV;
	s->nstreams = 1;
	s->streams[0].bytes = s->bytes;
	s->streams[0].seconds = s->seconds;
	s->streams[0].cpu = 0;
	s->streams[0].pinned = -1;
	s->streams[0].path = s->data_path;
}

/* The 2001 GMAC test of the seed: nuttcp -t, 60 s, reports every 10 s. */
static struct gb_result *
result_seed(void)
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
	fill_seed_side(&r->sender, 1);
	fill_seed_side(&r->receiver, 0);
	for (i = 0; i < 6; i++) {
		r->intervals[i].start_s = i * 10.0;
		r->intervals[i].end_s = (i + 1) * 10.0;
		r->intervals[i].bytes = bytes[i];
		/* The sender's TCP state; the first slice without limits. */
		r->intervals[i].has_tcp = 1;
		r->intervals[i].retrans = i == 2 ? 17 : 0;
		r->intervals[i].cwnd = 40 + 10 * i;
		r->intervals[i].rtt_us = 120 + i;
		r->intervals[i].has_limited = i > 0;
		r->intervals[i].rwnd_limited_pct = i == 3 ? 37.5 : 0;
		r->intervals[i].sndbuf_limited_pct = i == 4 ? 100 : 2.25;
		r->intervals[i].has_host = i != 1;
		r->intervals[i].host_busy_pct = 30.5 + i;
		r->intervals[i].host_max_cpu_pct = 61 + i;
		/* The listener's, a little later; its last never came. */
		if (i == 5)
			continue;
		r->peer_intervals[i].start_s = i * 10.0 + 0.0004;
		r->peer_intervals[i].end_s = (i + 1) * 10.0 + 0.0004;
		r->peer_intervals[i].bytes = bytes[i] - 1000 * i;
		r->peer_intervals[i].has_host = i != 3;
		r->peer_intervals[i].host_busy_pct = 40.25;
		r->peer_intervals[i].host_max_cpu_pct = 99.5;
	}
	r->nintervals = 6;
	r->npeer_intervals = 5;
	return r;
}

/* One /proc/interrupts line of the interface, count over the test. */
static void
add_irq_line(struct gb_iface_figures *f, const char *name,
    const char *actions, uint64_t count)
{
	struct gb_irq_line *l = &f->lines[f->nlines++];

	snprintf(l->name, sizeof(l->name), "%s", name);
	snprintf(l->chip, sizeof(l->chip), "IR-PCI-MSI 524288-edge");
	snprintf(l->actions, sizeof(l->actions), "%s", actions);
	snprintf(l->cpus, sizeof(l->cpus), "0");
	l->count = count;
}

/*
 * gigebench -t 192.168.1.2 --bidir: the seed's GigE hosts both ways.
 * The sender's NIC has a vector per queue and direction (eth0-rx-0,
 * eth0-tx-0: split), the receiver's one per queue pair (eth0-TxRx-0:
 * not).  The reverse direction, slower, moved 4 GB.
 */
static struct gb_result *
result_bidir(void)
{
	struct gb_result *r;
	struct gb_iface_figures *f;

	assert_non_null(r = calloc(1, sizeof(*r)));
	r->params.direction = GB_DIR_CLIENT_SENDS;
	r->params.buflen = 65536;
	r->params.duration_ms = 60000;
	r->params.streams = 1;
	r->params.bidir = 1;
	strcpy(r->peer, "192.168.1.2");
	r->port = 5001;
	r->local_is_sender = 1;
	fill_seed_side(&r->sender, 1);
	fill_seed_side(&r->receiver, 0);
	fill_seed_side(&r->rsender, 1);
	fill_seed_side(&r->rreceiver, 0);
	r->rsender.bytes = r->rreceiver.bytes = UINT64_C(4000000000);
	r->rsender.streams[0].bytes = r->rreceiver.streams[0].bytes =
	    r->rsender.bytes;
	r->rsender.mbps = r->rreceiver.mbps = result_mbps(r->rsender.bytes,
	    60.0);
	r->rsender.tcp.retransmits = 12;
	f = &r->sender.iface;
	f->irq_lines = 2;
	strcpy(f->irq_list, "41,42");
	f->nlines = 0;
	add_irq_line(f, "41", "eth0-rx-0", 400000);
	add_irq_line(f, "42", "eth0-tx-0", 76543);
	f = &r->receiver.iface;
	f->nlines = 0;
	add_irq_line(f, "41", "eth0-TxRx-0", 1157054);
	bidir_host(r);
	diag_run(r);
	return r;
}

static void
fill_loopback_side(struct gb_side *s, int tx)
{
	struct gb_iface_figures *f = &s->iface;

	s->has = 1;
	s->bytes = tx ? UINT64_C(23456789012) : UINT64_C(23456658000);
	s->seconds = tx ? 10.0 : 10.0005;
	s->mbps = result_mbps(s->bytes, s->seconds);
	s->calls = tx ? 178963 : 2901234;
	s->cpu.user_s = tx ? 0.12 : 0.85;
	s->cpu.sys_s = tx ? 4.56 : 6.10;
	s->cpu.user_pct = s->cpu.user_s * 10;
	s->cpu.sys_pct = s->cpu.sys_s * 10;
	s->cpu.process_pct = s->cpu.user_pct + s->cpu.sys_pct;
	/* The receiver runs on the same host: only one side read /proc/stat. */
	if (tx) {
		s->host_cpu.has = 1;
		s->host_cpu.ncpus = 4;
		s->host_cpu.busy_pct = 55.0;
		s->host_cpu.user_pct = 1.0;
		s->host_cpu.sys_pct = 40.0;
		s->host_cpu.softirq_pct = 14.0;
		s->host_cpu.max_cpu = 1;
		s->host_cpu.max_cpu_busy_pct = 98.0;
	}
	strcpy(f->name, "lo");
	f->has_counters = 1;
	f->rx_packets = f->tx_packets = 361234;
	f->rx_bytes = f->tx_bytes = UINT64_C(23480000000);
	f->has_softirq = tx;
	f->net_rx_softirqs = tx ? 362001 : 0;
	f->net_tx_softirqs = tx ? 12 : 0;
	s->tcp.has = tx;
	s->tcp.rtt_us = tx ? 52 : 0;
	s->tcp.rttvar_us = tx ? 10 : 0;
	s->tcp.cwnd = tx ? 10 : 0;
	s->tcp.mss = tx ? 65483 : 0;
	s->sndbuf.actual = 2626560;
	s->rcvbuf.requested = tx ? 0 : 4194304;
	s->rcvbuf.actual = tx ? 131072 : 8388608;
	/* -Z -A 0,1 --tos 0x10: loopback copies every zero-copy send. */
	s->data_path = tx ? GB_PATH_ZEROCOPY : GB_PATH_RECV;
	s->zerocopy.has = tx;
	s->zerocopy.sends = tx ? 178963 : 0;
	s->zerocopy.completions = s->zerocopy.copied = tx ? 178963 : 0;
	s->tos = 0x10;
	s->rcvlowat = tx ? 0 : 131072;	/* the receiving end's SO_RCVLOWAT */
	s->nstreams = 2;
	s->streams[0].bytes = tx ? UINT64_C(11728394506) :
	    UINT64_C(11728329000);
	s->streams[1].bytes = s->bytes - s->streams[0].bytes;
	s->streams[0].seconds = s->seconds;
	s->streams[1].seconds = s->seconds - 0.0002;
	s->streams[0].cpu = s->streams[0].pinned = 0;
	s->streams[1].cpu = s->streams[1].pinned = 1;
	s->streams[0].path = s->streams[1].path = s->data_path;
}

/* gigebench -r 127.0.0.1 -P 2 -D -Z -A 0,1 --tos 0x10: the listener sends */
static struct gb_result *
result_loopback(void)
{
	struct gb_result *r;

	assert_non_null(r = calloc(1, sizeof(*r)));
	r->params.direction = GB_DIR_CLIENT_RECEIVES;
	r->params.buflen = 131072;
	r->params.duration_ms = 10000;
	r->params.streams = 2;
	r->params.nodelay = 1;
	r->params.rcvbuf = 4194304;
	r->params.interval_ms = 0;
	r->params.tx_path = GB_PATH_ZEROCOPY;
	strcpy(r->params.affinity, "0,1");
	r->params.tos = 0x10;
	strcpy(r->peer, "127.0.0.1");
	r->port = 5001;
	r->local_is_sender = 0;
	fill_loopback_side(&r->sender, 1);
	fill_loopback_side(&r->receiver, 0);
	return r;
}

/*
 * The listener died before it reported: only the sender's figures.  It
 * sent with --sendfile, paced by --fq-rate 1g, on a kernel that would not
 * say its TOS byte.
 */
static struct gb_result *
result_norecv(void)
{
	struct gb_result *r;
	struct gb_side *s;

	assert_non_null(r = calloc(1, sizeof(*r)));
	r->params.buflen = 8192;
	r->params.nbuf = 100000;
	r->params.duration_ms = 10000;
	r->params.streams = 1;
	r->params.mss = 1400;
	r->params.interval_ms = 0;
	r->params.tx_path = GB_PATH_SENDFILE;
	r->params.fq_rate = 125000000;
	strcpy(r->peer, "198.18.0.2");
	r->port = 5101;
	r->local_is_sender = 1;
	s = &r->sender;
	s->has = 1;
	s->bytes = UINT64_C(819200000);
	s->seconds = 6.9631;
	s->mbps = result_mbps(s->bytes, s->seconds);
	s->calls = 100000;
	s->cpu.user_s = 0.02;
	s->cpu.sys_s = 0.61;
	s->cpu.user_pct = 0.29;
	s->cpu.sys_pct = 8.76;
	s->cpu.process_pct = 9.05;
	s->tcp.has = 1;
	s->tcp.retransmits = 3;
	s->tcp.rtt_us = 1234;
	s->tcp.rttvar_us = 456;
	s->tcp.cwnd = 87;
	s->tcp.mss = 1388;
	s->sndbuf.actual = 16384;
	s->rcvbuf.actual = 131072;
	s->data_path = GB_PATH_SENDFILE;
	s->tos = -1;
	s->has_fq_rate = 1;
	s->fq_rate = 125000000;
	s->nstreams = 1;
	s->streams[0].bytes = s->bytes;
	s->streams[0].seconds = s->seconds;
	s->streams[0].cpu = s->streams[0].pinned = -1;
	s->streams[0].path = GB_PATH_SENDFILE;
	return r;
}

/* ---- rendering and golden files ---- */

static char *
render_text(const struct gb_result *r, char unit, int verbose, int quiet)
{
	struct report_style st = { unit, verbose, quiet, 0 };
	char *buf = NULL;
	size_t len = 0;
	FILE *fp;

	assert_non_null(fp = open_memstream(&buf, &len));
	report_text(fp, r, &st);
	assert_int_equal(fclose(fp), 0);
	return buf;
}

static char *
render_summary(const struct gb_result *r, char unit)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp;

	assert_non_null(fp = open_memstream(&buf, &len));
	report_summary_line(fp, r, unit);
	assert_int_equal(fclose(fp), 0);
	return buf;
}

/* Text followed by the interval lines, as a run with -i prints them. */
static char *
render_with_intervals(const struct gb_result *r, char unit)
{
	struct report_style st = { unit, 0, 0, 0 };
	char *buf = NULL;
	size_t len = 0;
	unsigned i;
	FILE *fp;

	assert_non_null(fp = open_memstream(&buf, &len));
	for (i = 0; i < r->nintervals; i++)
		report_interval_line(fp, &r->intervals[i],
		    i < r->npeer_intervals ? &r->peer_intervals[i] : NULL,
		    r->local_is_sender, unit);
	report_text(fp, r, &st);
	assert_int_equal(fclose(fp), 0);
	return buf;
}

/* Takes the reference. */
static char *
render_json(json_t *j)
{
	char *s, *out;

	assert_non_null(j);
	assert_non_null(s = json_dumps(j, JSON_INDENT(2) | JSON_SORT_KEYS));
	assert_true(asprintf(&out, "%s\n", s) > 0);
	free(s);
	json_decref(j);
	return out;
}

static char *
golden_path(const char *name)
{
	const char *dir = getenv("GIGEBENCH_GOLDEN_DIR");
	char *path;

	assert_true(asprintf(&path, "%s/%s", dir != NULL ? dir : GOLDEN_DIR,
	    name) > 0);
	return path;
}

static char *
golden_read(const char *path)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *in, *out;
	int c;

	if ((in = fopen(path, "r")) == NULL)
		fail_msg("%s: cannot open (GIGEBENCH_UPDATE_GOLDEN=1 makes it)",
		    path);
	assert_non_null(out = open_memstream(&buf, &len));
	while ((c = getc(in)) != EOF)
		putc(c, out);
	fclose(in);
	assert_int_equal(fclose(out), 0);
	return buf;
}

static void
golden_write(const char *path, const char *text)
{
	FILE *fp;

	if ((fp = fopen(path, "w")) == NULL)
		fail_msg("%s: cannot create", path);
	fputs(text, fp);
	assert_int_equal(fclose(fp), 0);
}

/* Show the first line that differs, then fail. */
static void
golden_mismatch(const char *path, const char *want, const char *got)
{
	size_t i, line = 1, bol = 0;

	for (i = 0; want[i] != '\0' && want[i] == got[i]; i++)
		if (want[i] == '\n') {
			line++;
			bol = i + 1;
		}
	print_error("%s:%zu differs\n want: %.*s\n  got: %.*s\n", path, line,
	    (int)strcspn(want + bol, "\n"), want + bol,
	    (int)strcspn(got + bol, "\n"), got + bol);
	print_error("--- whole output ---\n%s--- end ---\n", got);
	fail();
}

/* Frees text. */
static void
golden_check(const char *name, char *text)
{
	const char *update = getenv("GIGEBENCH_UPDATE_GOLDEN");
	char *path, *want;

	path = golden_path(name);
	if (update != NULL && strcmp(update, "1") == 0) {
		golden_write(path, text);
		print_message("updated %s\n", path);
	} else {
		want = golden_read(path);
		if (strcmp(want, text) != 0)
			golden_mismatch(path, want, text);
		free(want);
	}
	free(path);
	free(text);
}

/* ---- result.c ---- */

static void
test_result_figures(void **state)
{
	(void)state;
	assert_true(result_mbps(125000000, 1.0) == 1000.0);
	assert_true(result_mbps(UINT64_C(4926630527), 60.0) > 656.88);
	assert_true(result_mbps(1000, 0) == 0);
	assert_true(result_mbps(1000, -1) == 0);
	assert_true(result_megabytes(1048576) == 1.0);
	assert_true(result_megabytes(0) == 0.0);
}

/* ---- text ---- */

static void
test_summary_seed(void **state)
{
	struct gb_result *r = result_seed();
	char *s;

	(void)state;
	s = render_summary(r, 'm');
	assert_string_equal(s, " 4698.4010 MB /  60.00 sec =  656.7557 Mbps"
	    " 63 %TX 64 %RX 0 retrans 0.12 msRTT 0.145 irq/pkt-TX"
	    " 0.352 irq/pkt-RX\n");
	free(s);
	free(r);
}

static void
test_interval_line(void **state)
{
	struct gb_interval iv = { .start_s = 1.0, .end_s = 2.0,
	    .bytes = UINT64_C(1178029733) };
	char *buf = NULL;
	size_t len = 0;
	FILE *fp;

	(void)state;
	assert_non_null(fp = open_memstream(&buf, &len));
	report_interval_line(fp, &iv, NULL, 1, 'm');
	report_interval_line(fp, &iv, NULL, 0, 'G');
	iv.end_s = 1.0;		/* an empty slice: no rate, no crash */
	report_interval_line(fp, &iv, NULL, 0, 'm');
	assert_int_equal(fclose(fp), 0);
	assert_string_equal(buf,
	    "gigebench-t:   1.00-  2.00 sec   1123.4567 MB  9424.2379 Mbps\n"
	    "gigebench-r:   1.00-  2.00 sec   1123.4567 MB     1.0971 GB/sec\n"
	    "gigebench-r:   1.00-  1.00 sec   1123.4567 MB     0.0000 Mbps\n");
	free(buf);
}

/*
 * Both ends' slices on the client: the peer's rate, the sender's TCP
 * state wherever the sender is, each end's host CPU, -u's losses from
 * the receiver; a listener's line has its own end only.
 */
static void
test_interval_line_ends(void **state)
{
	struct gb_interval tx = { .start_s = 1.0, .end_s = 2.0,
	    .bytes = 125000000, .has_tcp = 1, .retrans = 3, .cwnd = 412,
	    .rtt_us = 450, .has_limited = 1, .rwnd_limited_pct = 12.4,
	    .sndbuf_limited_pct = 0.4, .has_host = 1, .host_busy_pct = 51.2,
	    .host_max_cpu_pct = 98 };
	struct gb_interval rx = { .start_s = 1.001, .end_s = 2.001,
	    .bytes = 124875000 };
	struct gb_interval utx = { .start_s = 0, .end_s = 1,
	    .bytes = 1000000, .has_udp = 1, .datagrams = 1000 };
	struct gb_interval urx = { .start_s = 0, .end_s = 1,
	    .bytes = 990000, .has_udp = 1, .datagrams = 990, .lost = 10,
	    .jitter_ms = 0.0125, .has_host = 1, .host_busy_pct = 7,
	    .host_max_cpu_pct = 13.5 };
	char *buf = NULL;
	size_t len = 0;
	FILE *fp;

	(void)state;
	assert_non_null(fp = open_memstream(&buf, &len));
	report_interval_line(fp, &tx, &rx, 1, 'm');	/* client sends */
	report_interval_line(fp, &rx, &tx, 0, 'm');	/* client receives */
	report_interval_line(fp, &tx, NULL, 1, 'm');	/* listener sends */
	tx.has_limited = 0;
	tx.has_host = 0;
	report_interval_line(fp, &tx, &urx, 1, 'm');	/* old kernel */
	report_interval_line(fp, &utx, &urx, 1, 'm');	/* -u */
	report_interval_line(fp, &urx, NULL, 0, 'm');
	tx.omitted = 1;		/* --omit: run, shown, not counted */
	report_interval_line(fp, &tx, NULL, 1, 'm');
	assert_int_equal(fclose(fp), 0);
	assert_string_equal(buf,
	    "gigebench-t:   1.00-  2.00 sec    119.2093 MB  1000.0000 Mbps"
	    "  RX   999.0000 Mbps      3 retrans    412 cwnd    0.45 msRTT"
	    "   12 %rwnd-lim    0 %sndbuf-lim  host 51/98 %TX - %RX\n"
	    "gigebench-r:   1.00-  2.00 sec    119.0901 MB   999.0000 Mbps"
	    "  TX  1000.0000 Mbps      3 retrans    412 cwnd    0.45 msRTT"
	    "   12 %rwnd-lim    0 %sndbuf-lim  host 51/98 %TX - %RX\n"
	    "gigebench-t:   1.00-  2.00 sec    119.2093 MB  1000.0000 Mbps"
	    "      3 retrans    412 cwnd    0.45 msRTT   12 %rwnd-lim    0"
	    " %sndbuf-lim  host 51/98 %TX\n"
	    "gigebench-t:   1.00-  2.00 sec    119.2093 MB  1000.0000 Mbps"
	    "  RX     7.9200 Mbps       990 dgrams      10 lost (1.00 %)"
	    " 0.013 ms jitter      3 retrans    412 cwnd    0.45 msRTT"
	    "  host - %TX 7/14 %RX\n"
	    "gigebench-t:   0.00-  1.00 sec      0.9537 MB     8.0000 Mbps"
	    "  RX     7.9200 Mbps      1000 dgrams      10 lost (1.00 %)"
	    " 0.013 ms jitter  host - %TX 7/14 %RX\n"
	    "gigebench-r:   0.00-  1.00 sec      0.9441 MB     7.9200 Mbps"
	    "       990 dgrams      10 lost (1.00 %) 0.013 ms jitter"
	    "  host 7/14 %RX\n"
	    "gigebench-t:   1.00-  2.00 sec    119.2093 MB  1000.0000 Mbps"
	    "      3 retrans    412 cwnd    0.45 msRTT (omitted)\n");
	free(buf);
}

/* --rr: each end's lines, the asker's latencies, the summary line. */
static void
test_rr_text(void **state)
{
	struct gb_result *r;
	char *buf = NULL;
	size_t len = 0;
	unsigned i;
	FILE *fp;

	(void)state;
	assert_non_null(r = calloc(1, sizeof(*r)));
	r->params.rr = 1;
	r->params.req_size = 100;
	r->params.resp_size = 4096;
	r->params.rr_burst = 4;
	r->sender = (struct gb_side){ .has = 1, .seconds = 2,
	    .rr = { 1, 20000 }, .cpu = { .user_s = 0.1, .sys_s = 0.3,
	    .process_pct = 20 }, .host_cpu = { .has = 1, .ncpus = 2,
	    .busy_pct = 50 }, .iface = { .has_interrupts = 1,
	    .interrupts = 20000, .has_softirq = 1, .net_rx_softirqs = 40000 } };
	r->receiver = (struct gb_side){ .has = 1, .seconds = 2.001,
	    .rr = { 1, 20000 }, .cpu = { .process_pct = 30 } };
	r->has_latency = 1;
	lathist_init(&r->latency);
	for (i = 0; i < 99; i++)
		lathist_add(&r->latency, 50000);
	lathist_add(&r->latency, 1000000);
	assert_non_null(fp = open_memstream(&buf, &len));
	report_rr_lines(fp, r, &r->sender, 1);
	report_rr_lines(fp, r, &r->receiver, 0);
	report_rr_summary(fp, r);
	assert_int_equal(fclose(fp), 0);
	assert_string_equal(buf,
	    "gigebench-t: rr 20000 transactions in 2.00 s = 10000.00 /s, "
	    "request 100 B, answer 4096 B, burst 4\n"
	    "gigebench-t: per transaction: 20.000 us process cpu, 100.000 us "
	    "host cpu, 1.0000 irq, 2.0000 NET_RX softirq\n"
	    "gigebench-t: latency min 50.0 us, mean 59.5, P50 50.2, P90 50.2, "
	    "P99 50.2, P99.9 1000.0, max 1000.0 us (100 samples, buckets "
	    "3.125 % wide)\n"
	    "gigebench-r: rr 20000 transactions in 2.00 s = 9995.00 /s, "
	    "request 100 B, answer 4096 B, burst 4\n"
	    "gigebench-r: per transaction: 0.000 us process cpu, n/a us "
	    "host cpu, n/a irq, n/a NET_RX softirq\n"
	    "10000.0000 trans/s P50 50.2 us P99 50.2 us 20 %TX 30 %RX "
	    "1.000 irq/trans-TX n/a irq/trans-RX\n");
	free(buf);
	free(r);
}

/*
 * -u --rr: each end's "rr udp" line (the asker's requests, lost within
 * the timeout, late, stray; the answerer's taken and answered) and the
 * summary line's lost/req, late and timeout; n/a without the asker's.
 */
static void
test_rr_udp_text(void **state)
{
	struct gb_result *r;
	char *buf = NULL;
	size_t len = 0;
	FILE *fp;

	(void)state;
	assert_non_null(r = calloc(1, sizeof(*r)));
	r->params.rr = r->params.udp = 1;
	r->params.req_size = r->params.resp_size = 40;
	r->params.rr_timeout_ms = 500;
	r->sender = (struct gb_side){ .has = 1, .seconds = 2,
	    .rr = { .has = 1, .transactions = 46563, .has_udp = 1,
	    .timeout_ms = 500, .requests = 46570, .lost = 7, .late = 1,
	    .stray = 2 }, .cpu = { .process_pct = 20 } };
	r->receiver = (struct gb_side){ .has = 1, .seconds = 2,
	    .rr = { .has = 1, .transactions = 46567, .has_udp = 1,
	    .requests = 46567, .stray = 3 }, .cpu = { .process_pct = 21 } };
	assert_non_null(fp = open_memstream(&buf, &len));
	report_rr_lines(fp, r, &r->sender, 1);
	report_rr_lines(fp, r, &r->receiver, 0);
	report_rr_summary(fp, r);
	r->sender.has = 0;
	r->params.rr_timeout_ms = 0;
	report_rr_summary(fp, r);
	assert_int_equal(fclose(fp), 0);
	assert_string_equal(buf,
	    "gigebench-t: rr 46563 transactions in 2.00 s = 23281.50 /s, "
	    "request 40 B, answer 40 B, burst 1\n"
	    "gigebench-t: rr udp 46570 requests: 46563 answered, 7 lost (no "
	    "answer within 500 ms), 1 late, 2 stray, 0 unsent\n"
	    "gigebench-t: per transaction: 0.000 us process cpu, n/a us "
	    "host cpu, n/a irq, n/a NET_RX softirq\n"
	    "gigebench-r: rr 46567 transactions in 2.00 s = 23283.50 /s, "
	    "request 40 B, answer 40 B, burst 1\n"
	    "gigebench-r: rr udp 46567 requests taken, 46567 answered, 0 "
	    "unsent, 3 stray (not answered)\n"
	    "gigebench-r: per transaction: 0.000 us process cpu, n/a us "
	    "host cpu, n/a irq, n/a NET_RX softirq\n"
	    "23281.5000 trans/s P50 n/a us P99 n/a us 20 %TX 21 %RX "
	    "n/a irq/trans-TX n/a irq/trans-RX 7 / 46570 lost/req 1 late "
	    "500 msTimeout\n"
	    "23283.5000 trans/s P50 n/a us P99 n/a us n/a %TX 21 %RX "
	    "n/a irq/trans-TX n/a irq/trans-RX n/a / n/a lost/req n/a late "
	    "100 msTimeout\n");
	free(buf);
	free(r);
}

/* --rr's interval lines: trans/s, the asker's percentiles, both ends. */
static void
test_rr_interval(void **state)
{
	struct gb_interval ask = { .start_s = 0.5, .end_s = 1.0,
	    .has_rr = 1, .transactions = 60000, .has_latency = 1,
	    .p50_us = 16.4, .p99_us = 29.7, .max_us = 4054.3, .has_host = 1,
	    .host_busy_pct = 99.6, .host_max_cpu_pct = 100, .host_ncpus = 2,
	    .has_proc = 1, .proc_cpu_s = 0.6, .has_softirq = 1,
	    .net_rx_softirqs = 120000 };
	struct gb_interval ans = { .start_s = 0.501, .end_s = 1.001,
	    .has_rr = 1, .transactions = 59990, .has_proc = 1,
	    .proc_cpu_s = 0.29995 };
	struct gb_interval bare = { .start_s = 0.5, .end_s = 1.0,
	    .has_rr = 1, .transactions = 60000 };
	char *buf = NULL;
	size_t len = 0;
	FILE *fp;

	(void)state;
	assert_non_null(fp = open_memstream(&buf, &len));
	report_interval_line(fp, &ask, &ans, 1, 'm');
	report_interval_line(fp, &ans, NULL, 0, 'm');	/* the listener */
	report_interval_line(fp, &bare, NULL, 0, 'm');	/* no cost known */
	assert_int_equal(fclose(fp), 0);
	/* 0.6 s / 60000 = 10 us; 99.6 % of 2 CPUs for 0.5 s: 16.6 us. */
	assert_string_equal(buf,
	    "gigebench-t:   0.50-  1.00 sec  120000.00 trans/s  P50 16.4 us "
	    "P99 29.7 us max 4054.3 us  RX  119980.00 trans/s  host 100/100 "
	    "%TX - %RX  /trans TX 10.0/16.6 us - irq 2.00 sirq  RX 5.0/- us "
	    "- irq - sirq\n"
	    "gigebench-r:   0.50-  1.00 sec  119980.00 trans/s  /trans RX "
	    "5.0/- us - irq - sirq\n"
	    "gigebench-r:   0.50-  1.00 sec  120000.00 trans/s\n");
	free(buf);
}

/* The progress line: rounded seconds, the -f unit, a count test's. */
static void
test_progress_text(void **state)
{
	struct gb_progress pg = { .elapsed_s = 2.9996, .total_s = 10,
	    .bytes = UINT64_C(369098752), .mbps = 941.23456 };
	char buf[160];

	(void)state;
	report_progress_text(buf, sizeof(buf), &pg, 'm');
	assert_string_equal(buf, "0:03/0:10 elapsed, 941.2346 Mbps now, "
	    "352 MB");
	pg.elapsed_s = 61.2;
	pg.total_s = 0;		/* -n: no end to show */
	report_progress_text(buf, sizeof(buf), &pg, 'G');
	assert_string_equal(buf, "1:01 elapsed, 0.1096 GB/sec now, 352 MB");
	pg.total_s = 3601;
	report_progress_text(buf, 20, &pg, 'm');	/* cut, terminated */
	assert_int_equal(strlen(buf), 19);
}

/* --json-stream: each event one line of compact JSON, in its shape. */
static void
test_stream_events(void **state)
{
	struct gb_result *r = result_seed();
	json_error_t jerr;
	json_t *ev;
	char *buf = NULL, *nl;
	size_t len = 0;
	FILE *fp;

	(void)state;
	assert_non_null(fp = open_memstream(&buf, &len));
	report_json_line(fp, report_start_event(r));
	report_json_line(fp, report_interval_event(&r->intervals[0],
	    &r->peer_intervals[0]));
	report_json_line(fp, report_interval_event(&r->intervals[5], NULL));
	report_json_line(fp, report_end_event(report_json(r), 0));
	report_json_line(fp, report_end_event(NULL, 1));
	report_json_line(fp, NULL);
	assert_int_equal(fclose(fp), 0);
	{
		static const char *const want[] = { "start", "interval",
		    "interval", "end", "error", "error" };
		char *line = buf;
		unsigned i;

		for (i = 0; i < 6; i++) {
			assert_non_null(nl = strchr(line, '\n'));
			ev = json_loadb(line, (size_t)(nl - line), 0, &jerr);
			if (ev == NULL)
				fail_msg("line %u: %s", i, jerr.text);
			assert_string_equal(json_string_value(json_object_get(
			    ev, "event")), want[i]);
			if (i == 0)
				assert_non_null(json_object_get(json_object_get(
				    ev, "params"), "omit_s"));
			if (i == 1)
				assert_true(json_is_object(json_object_get(
				    json_object_get(ev, "interval"), "peer")));
			if (i == 2)
				assert_true(json_is_null(json_object_get(
				    json_object_get(ev, "interval"), "peer")));
			if (i == 3)
				assert_int_equal(json_array_size(
				    json_object_get(json_object_get(ev,
				    "report"), "intervals")), 6);
			json_decref(ev);
			line = nl + 1;
		}
		assert_int_equal(*line, '\0');
	}
	free(buf);
	free(r);
}

static void
test_text_seed(void **state)
{
	struct gb_result *r = result_seed();

	(void)state;
	golden_check("report-seed.txt", render_text(r, 'm', 0, 0));
	free(r);
}

static void
test_text_loopback(void **state)
{
	struct gb_result *r = result_loopback();

	(void)state;
	golden_check("report-loopback.txt", render_text(r, 'm', 0, 0));
	free(r);
}

static void
test_text_verbose(void **state)
{
	struct gb_result *r = result_loopback();

	(void)state;
	golden_check("report-loopback-verbose.txt", render_text(r, 'm', 1, 0));
	free(r);
}

static void
test_text_norecv(void **state)
{
	struct gb_result *r = result_norecv();

	(void)state;
	golden_check("report-norecv.txt", render_text(r, 'm', 0, 0));
	free(r);
}

static void
test_text_units(void **state)
{
	struct gb_result *r = result_seed();

	(void)state;
	golden_check("report-units-g.txt", render_with_intervals(r, 'g'));
	golden_check("report-units-K.txt", render_with_intervals(r, 'K'));
	free(r);
}

static void
test_text_quiet(void **state)
{
	struct gb_result *r = result_loopback();
	char *text, *line;

	(void)state;
	text = render_text(r, 'm', 2, 1);
	line = render_summary(r, 'm');
	assert_string_equal(text, line);
	free(text);
	free(line);
	free(r);
}

/* Neither side known: still one well-formed line, no crash. */
static void
test_text_nothing(void **state)
{
	struct gb_result *r;
	char *s;

	(void)state;
	assert_non_null(r = calloc(1, sizeof(*r)));
	s = render_summary(r, 'm');
	assert_string_equal(s, "    0.0000 MB /   0.00 sec =    0.0000 Mbps"
	    " n/a %TX n/a %RX n/a retrans n/a msRTT n/a irq/pkt-TX"
	    " n/a irq/pkt-RX\n");
	free(s);
	free(r);
}

/* ---- JSON ---- */

static void
test_bidir(void **state)
{
	struct gb_result *r = result_bidir();

	(void)state;
	golden_check("report-bidir.txt", render_text(r, 'm', 0, 0));
	golden_check("report-bidir.json", render_json(report_json(r)));
	free(r);
}

static void
test_json_seed(void **state)
{
	struct gb_result *r = result_seed();

	(void)state;
	golden_check("report-seed.json", render_json(report_json(r)));
	free(r);
}

static void
test_json_loopback(void **state)
{
	struct gb_result *r = result_loopback();

	(void)state;
	golden_check("report-loopback.json", render_json(report_json(r)));
	free(r);
}

static void
test_json_norecv(void **state)
{
	struct gb_result *r = result_norecv();

	(void)state;
	golden_check("report-norecv.json", render_json(report_json(r)));
	free(r);
}

static void
test_json_params(void **state)
{
	struct gb_params p;
	json_t *j;

	(void)state;
	memset(&p, 0, sizeof(p));
	p.direction = GB_DIR_CLIENT_RECEIVES;
	p.buflen = 1;
	p.nbuf = GB_MAX_NBUF;
	p.duration_ms = 2500;
	p.streams = 3;
	p.sndbuf = 65536;
	p.rcvbuf = 0;
	p.mss = 536;
	p.nodelay = 7;
	p.interval_ms = 500;
	assert_non_null(j = report_params_json(&p));
	assert_string_equal(json_string_value(json_object_get(j, "direction")),
	    "client_receives");
	assert_int_equal(json_integer_value(json_object_get(j, "nbuf")),
	    GB_MAX_NBUF);
	assert_true(json_real_value(json_object_get(j, "duration_s")) == 2.5);
	assert_true(json_real_value(json_object_get(j, "interval_s")) == 0.5);
	assert_true(json_is_true(json_object_get(j, "nodelay")));
	assert_int_equal(json_integer_value(json_object_get(j, "mss")), 536);
	assert_int_equal(json_integer_value(json_object_get(j, "rcvbuf")), 0);
	assert_true(json_is_false(json_object_get(j, "force_bufs")));
	assert_true(json_is_false(json_object_get(j, "capture")));
	assert_true(json_is_null(json_object_get(j, "link_mbps")));
	assert_true(json_is_null(json_object_get(j, "mtu")));
	assert_true(json_is_null(json_object_get(j, "cc")));
	assert_string_equal(json_string_value(json_object_get(j, "tx_path")),
	    "send");
	assert_string_equal(json_string_value(json_object_get(j, "rx_path")),
	    "recv");
	assert_true(json_is_null(json_object_get(j, "affinity")));
	assert_true(json_is_null(json_object_get(j, "fq_rate")));
	assert_true(json_is_null(json_object_get(j, "tos")));
	assert_string_equal(json_string_value(json_object_get(j, "protocol")),
	    "tcp");
	assert_true(json_is_null(json_object_get(j, "rate_bps")));
	assert_true(json_is_null(json_object_get(j, "rate_pps")));
	assert_true(json_is_null(json_object_get(j, "batch")));
	assert_true(json_real_value(json_object_get(j, "omit_s")) == 0);
	assert_true(json_is_false(json_object_get(j, "rr")));
	assert_true(json_is_false(json_object_get(j, "bidir")));
	assert_true(json_is_false(json_object_get(j, "profile")));
	assert_int_equal(json_integer_value(json_object_get(j, "probes")), 0);
	assert_true(json_is_null(json_object_get(j, "probe_tos")));
	assert_true(json_is_null(json_object_get(j, "probe_rate")));
	assert_true(json_is_false(json_object_get(j, "probe_crr")));
	assert_int_equal(json_object_size(j), 32);
	json_decref(j);
	/* -u: the protocol, the rate asked and the batch in use. */
	p.udp = 1;
	p.rate_pps = 100000;
	assert_non_null(j = report_params_json(&p));
	assert_string_equal(json_string_value(json_object_get(j, "protocol")),
	    "udp");
	assert_true(json_is_null(json_object_get(j, "rate_bps")));
	assert_int_equal(json_integer_value(json_object_get(j, "rate_pps")),
	    100000);
	assert_int_equal(json_integer_value(json_object_get(j, "batch")),
	    GB_DEFAULT_BATCH);
	json_decref(j);
	p.tx_path = GB_PATH_SENDFILE;
	p.rx_path = GB_PATH_SPLICE;
	strcpy(p.affinity, "0-3");
	p.fq_rate = 12500000;
	p.tos = 0xb8;
	assert_non_null(j = report_params_json(&p));
	assert_string_equal(json_string_value(json_object_get(j, "tx_path")),
	    "sendfile");
	assert_string_equal(json_string_value(json_object_get(j, "rx_path")),
	    "splice");
	assert_string_equal(json_string_value(json_object_get(j, "affinity")),
	    "0-3");
	assert_int_equal(json_integer_value(json_object_get(j, "fq_rate")),
	    12500000);
	assert_int_equal(json_integer_value(json_object_get(j, "tos")), 0xb8);
	json_decref(j);
	p.link_mbps = 1000;
	p.capture = 1;
	assert_non_null(j = report_params_json(&p));
	assert_int_equal(json_integer_value(json_object_get(j, "link_mbps")),
	    1000);
	assert_true(json_is_true(json_object_get(j, "capture")));
	json_decref(j);
}

/* A figure jansson cannot write makes the builder fail, not lie. */
static void
test_json_nonfinite(void **state)
{
	struct gb_result *r = result_loopback();

	(void)state;
	r->sender.mbps = NAN;
	assert_null(side_json(&r->sender));
	assert_null(report_json(r));
	free(r);
}

/* The string at PATH of j ("provenance.host.hostname"), or NULL. */
static const char *
json_str_at(json_t *j, const char *path)
{
	char buf[128], *key, *next;

	snprintf(buf, sizeof(buf), "%s", path);
	for (key = buf; (next = strchr(key, '.')) != NULL; key = next + 1) {
		*next = '\0';
		j = json_object_get(j, key);
	}
	return json_string_value(json_object_get(j, key));
}

/*
 * When, where, with what: every member of the provenance from the
 * result, this end's host and the peer's from their sides' contexts,
 * the text lines with the title and the interrupted mark.
 */
static void
test_provenance(void **state)
{
	struct gb_result *r = result_loopback();
	struct gb_provenance *p = &r->prov;
	char *text = NULL;
	size_t len = 0;
	json_t *doc, *prov;
	FILE *fp;

	(void)state;
	strcpy(p->revision, "7ca7f91");
	p->start_us = INT64_C(1796196600) * 1000000 + 5;
	p->end_us = INT64_C(1796196610) * 1000000 + 250000;
	strcpy(p->title, "lab A, run 2");
	strcpy(p->command, "gigebench -r --title 'lab A, run 2' 127.0.0.1");
	strcpy(p->peer_version, "0.1.0 (abcdef0)");
	strcpy(p->control.local, "127.0.0.1:40000");
	strcpy(p->control.remote, "127.0.0.1:5001");
	p->ndata = 2;
	strcpy(p->data[0].local, "127.0.0.1:40002");
	strcpy(p->data[0].remote, "127.0.0.1:5001");
	strcpy(p->data[1].local, "[::1]:40004");
	r->receiver.context.has = r->sender.context.has = 1;
	strcpy(r->receiver.context.kernel, "6.1.0-18-amd64");
	strcpy(r->receiver.context.hostname, "rx.example");
	strcpy(r->receiver.context.version, "0.1.0 (7ca7f91)");
	strcpy(r->sender.context.hostname, "tx.example");
	assert_non_null(doc = report_json(r));
	prov = json_object_get(doc, "provenance");
	assert_string_equal(json_str_at(prov, "version"), GB_VERSION);
	assert_string_equal(json_str_at(prov, "revision"), "7ca7f91");
	assert_string_equal(json_str_at(prov, "start"),
	    "2026-12-02T07:30:00.000005Z");
	assert_string_equal(json_str_at(prov, "end"),
	    "2026-12-02T07:30:10.250000Z");
	assert_string_equal(json_str_at(prov, "title"), "lab A, run 2");
	assert_string_equal(json_str_at(prov, "command"), p->command);
	/* This end received: its host is the receiver's context. */
	assert_string_equal(json_str_at(prov, "host.hostname"), "rx.example");
	assert_string_equal(json_str_at(prov, "host.version"),
	    "0.1.0 (7ca7f91)");
	assert_string_equal(json_str_at(prov, "host.kernel"),
	    "6.1.0-18-amd64");
	/* Unknown is null: the sender's kernel, its version. */
	assert_null(json_str_at(prov, "peer_host.kernel"));
	assert_string_equal(json_str_at(prov, "peer_host.hostname"),
	    "tx.example");
	assert_string_equal(json_str_at(prov, "peer_host.version"),
	    "0.1.0 (abcdef0)");
	assert_string_equal(json_str_at(prov, "peer"), "127.0.0.1");
	assert_string_equal(json_str_at(prov, "control.local"),
	    "127.0.0.1:40000");
	assert_string_equal(json_str_at(prov, "control.remote"),
	    "127.0.0.1:5001");
	assert_int_equal(json_array_size(json_object_get(prov, "data")), 2);
	assert_string_equal(json_string_value(json_object_get(json_array_get(
	    json_object_get(prov, "data"), 1), "local")), "[::1]:40004");
	/* An end it does not have is null, never "". */
	assert_true(json_is_null(json_object_get(json_array_get(
	    json_object_get(prov, "data"), 1), "remote")));
	assert_true(json_is_false(json_object_get(prov, "interrupted")));
	json_decref(doc);

	/* Text: the title on the params line and the summary, and the mark. */
	p->interrupted = 1;
	assert_non_null(fp = open_memstream(&text, &len));
	report_summary_line(fp, r, 'm');
	report_header_line(fp, r, 0);
	assert_int_equal(fclose(fp), 0);
	assert_non_null(strstr(text, " irq/pkt-RX [lab A, run 2] "
	    "(interrupted)\n"));
	assert_non_null(strstr(text, "tcp <- 127.0.0.1 [lab A, run 2]\n"));
	free(text);
	/* --omit: the params line says what was left out. */
	r->params.omit_ms = 2500;
	assert_non_null(fp = open_memstream(&text, &len));
	report_header_line(fp, r, 0);
	assert_int_equal(fclose(fp), 0);
	assert_non_null(strstr(text, " omit=2.50s nodelay="));
	free(text);
	assert_non_null(doc = report_json(r));
	assert_true(json_real_value(json_object_get(json_object_get(doc,
	    "params"), "omit_s")) == 2.5);
	json_decref(doc);
	r->params.omit_ms = 0;
	assert_non_null(doc = report_json(r));
	assert_true(json_is_true(json_object_get(json_object_get(doc,
	    "provenance"), "interrupted")));
	json_decref(doc);
	free(r);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_result_figures),
		cmocka_unit_test(test_summary_seed),
		cmocka_unit_test(test_interval_line),
		cmocka_unit_test(test_interval_line_ends),
		cmocka_unit_test(test_progress_text),
		cmocka_unit_test(test_rr_text),
		cmocka_unit_test(test_rr_udp_text),
		cmocka_unit_test(test_rr_interval),
		cmocka_unit_test(test_stream_events),
		cmocka_unit_test(test_text_seed),
		cmocka_unit_test(test_text_loopback),
		cmocka_unit_test(test_text_verbose),
		cmocka_unit_test(test_text_norecv),
		cmocka_unit_test(test_text_units),
		cmocka_unit_test(test_text_quiet),
		cmocka_unit_test(test_text_nothing),
		cmocka_unit_test(test_bidir),
		cmocka_unit_test(test_json_seed),
		cmocka_unit_test(test_json_loopback),
		cmocka_unit_test(test_json_norecv),
		cmocka_unit_test(test_json_params),
		cmocka_unit_test(test_json_nonfinite),
		cmocka_unit_test(test_provenance),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
