/*
 * test_csv.c: csv.c.  The header is a contract, so it is spelled out
 * here in full for a 1-axis and a 2-axis sweep.  Rows are rendered into
 * open_memstream() and read back with a small RFC 4180 reader, so each
 * field is checked by its column's name; one full row is also compared
 * byte for byte.  csv_cell, the one writer of text cells (merge's too),
 * is checked on hostile strings against results written by hand.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/lathist.h"
#include "out/csv.h"

#define SIDE_COLS(p)							\
	p "bytes," p "seconds," p "mbps," p "process_pct," p "user_pct,"  \
	p "sys_pct," p "host_busy_pct," p "host_user_pct," p "host_sys_pct," \
	p "host_irq_pct," p "host_softirq_pct," p "max_cpu_busy_pct,"	\
	p "interface," p "interrupts," p "rx_packets," p "tx_packets,"	\
	p "irq_per_packet," p "irq_per_segment," p "net_rx_softirqs,"	\
	p "net_tx_softirqs," p "sndbuf_requested," p "sndbuf_actual,"	\
	p "rcvbuf_requested," p "rcvbuf_actual," p "retransmits,"	\
	p "rtt_us," p "cwnd," p "mss," p "data_segs_out," p "data_segs_in," \
	p "mtu," p "warnings," p "sndbuf_final," p "sndbuf_peak,"	\
	p "rcvbuf_final," p "rcvbuf_peak," p "profile_copy_pct,"		\
	p "profile_top," p "profile_top_pct,"

#define PARAM_COLS							\
	"direction,buflen,nbuf,duration_s,streams,sndbuf,rcvbuf,mss,"	\
	"nodelay,mtu_set,cc,protocol,rate_bps,rate_pps,request_size,"	\
	"response_size,rr_burst,bidir,bytes,seconds,"			\
	"mbps,megabytes,udp_sent,udp_received,udp_lost,udp_lost_pct,"	\
	"udp_jitter_ms,udp_tx_pps,udp_rx_pps,rr_transactions,"		\
	"rr_trans_per_s,latency_min_us,latency_mean_us,latency_p50_us,"	\
	"latency_p90_us,latency_p99_us,latency_p999_us,latency_max_us,"	\
	"rr_tx_cpu_us_per_trans,rr_tx_host_cpu_us_per_trans,"		\
	"rr_tx_irq_per_trans,rr_tx_softirq_per_trans,"			\
	"rr_rx_cpu_us_per_trans,rr_rx_host_cpu_us_per_trans,"		\
	"rr_rx_irq_per_trans,rr_rx_softirq_per_trans,rr_timeout_ms,"	\
	"rr_requests,rr_lost,rr_late,"					\
	"rev_bytes,rev_seconds,rev_mbps,rev_megabytes,rev_retransmits,"	\
	"rev_udp_lost,"

static const char header_mtu[] = "point,repeat,mtu," PARAM_COLS
    SIDE_COLS("tx_") SIDE_COLS("rx_") "diagnosis,error,time_utc,peer,title\r\n";
static const char header_window_cc[] = "point,repeat,window,cc," PARAM_COLS
    SIDE_COLS("tx_") SIDE_COLS("rx_") "diagnosis,error,time_utc,peer,title\r\n";

#define MAX_FIELDS	192

struct record {
	unsigned	 n;
	char		*f[MAX_FIELDS];
};

/* One RFC 4180 record ending in CRLF at *sp; advances *sp past it. */
static void
record_read(const char **sp, struct record *r)
{
	const char	*s = *sp;
	char		 buf[1024];
	size_t		 n;

	memset(r, 0, sizeof(*r));
	for (;;) {
		n = 0;
		if (*s == '"') {
			for (s++; !(s[0] == '"' && s[1] != '"'); s++) {
				assert_true(*s != '\0');
				if (*s == '"')
					s++;
				buf[n++] = *s;
			}
			s++;
		} else {
			while (*s != ',' && *s != '\r' && *s != '\0') {
				/* Unquoted fields hold no quote or LF. */
				assert_true(*s != '"' && *s != '\n');
				buf[n++] = *s++;
			}
		}
		buf[n] = '\0';
		assert_true(r->n < MAX_FIELDS);
		r->f[r->n++] = strdup(buf);
		if (*s != ',')
			break;
		s++;
	}
	assert_true(s[0] == '\r' && s[1] == '\n');
	*sp = s + 2;
}

static void
record_free(struct record *r)
{
	unsigned	i;

	for (i = 0; i < r->n; i++)
		free(r->f[i]);
}

/*
 * The field of row under the header's column name.  An axis over mss,
 * streams or cc shares its name with a parameter's column; the last one,
 * the parameter, is the one found.
 */
static const char *
field(const struct record *hdr, const struct record *row, const char *name)
{
	unsigned	i;

	for (i = hdr->n; i-- > 0;)
		if (strcmp(hdr->f[i], name) == 0)
			return row->f[i];
	fail_msg("no column %s", name);
	return NULL;
}

static void
fill_params(struct gb_params *p)
{
	memset(p, 0, sizeof(*p));
	p->direction = GB_DIR_CLIENT_SENDS;
	p->buflen = 131072;
	p->duration_ms = 10000;
	p->streams = 1;
	p->interval_ms = 1000;
}

static void
fill_side(struct gb_side *s, int tx)
{
	struct gb_iface_figures	*f = &s->iface;

	s->has = 1;
	s->bytes = UINT64_C(1175000000);
	s->seconds = 10.0;
	s->mbps = tx ? 940.1 : 940.0;
	s->cpu.user_pct = 0.5;
	s->cpu.sys_pct = 20.0;
	s->cpu.process_pct = 20.5;
	s->host_cpu.has = 1;
	s->host_cpu.busy_pct = 4.0;
	s->host_cpu.user_pct = 0.2;
	s->host_cpu.sys_pct = 2.6;
	s->host_cpu.irq_pct = 0.2;
	s->host_cpu.softirq_pct = 1.0;
	s->host_cpu.max_cpu = 3;
	s->host_cpu.max_cpu_busy_pct = 31.0;
	strcpy(f->name, "eth0");
	f->has_counters = 1;
	f->tx_packets = tx ? 811000 : 40500;
	f->rx_packets = tx ? 40500 : 811000;
	f->has_interrupts = 1;
	f->interrupts = 40550;
	f->has_irq_per_packet = 1;
	f->irq_per_packet = 0.05;
	f->has_irq_per_segment = 1;
	f->irq_per_segment = 0.25;
	f->has_softirq = 1;
	f->net_rx_softirqs = 1000;
	f->net_tx_softirqs = 2000;
	s->sndbuf.actual = 16384;
	s->rcvbuf.requested = 262144;
	s->rcvbuf.actual = 524288;
	s->rcvbuf.final = tx ? 0 : 6291456;	/* the receiver's grew */
	s->rcvbuf.peak = tx ? 0 : 8388608;
	s->sndbuf.final = s->sndbuf.peak = 16384;
	s->tcp.has = 1;
	s->tcp.retransmits = tx ? 3 : 0;
	s->tcp.rtt_us = 210;
	s->tcp.cwnd = 10;
	s->tcp.mss = 8948;
	s->tcp.data_segs_out = tx ? 811000 : 0;
	s->tcp.data_segs_in = tx ? 5 : 811000;
	s->context.has = 1;
	s->context.mtu = 9000;
	s->nwarnings = tx;
}

static char *
render(const struct sweep *s, int header, unsigned point, unsigned repeat,
    const struct gb_params *p, const struct sweep_setting *set,
    const struct gb_result *r, const char *error)
{
	char	*buf = NULL;
	size_t	 len = 0;
	FILE	*fp;

	/* A failed run's identity: what the sweep asked for. */
	static const struct csv_run_id id = {
		INT64_C(1796198400) * 1000000 + 250, "h.example", "run, \"b\""
	};

	fp = open_memstream(&buf, &len);
	assert_non_null(fp);
	if (header)
		csv_header(fp, s);
	else
		csv_row(fp, s, point, repeat, p, set, r, error, &id);
	assert_int_equal(fclose(fp), 0);
	return buf;
}

static void
test_header(void **state)
{
	struct sweep	 s;
	char		 err[256], *got;

	(void)state;
	memset(&s, 0, sizeof(s));
	assert_int_equal(sweep_parse(&s, "mtu=1500,9000", err, sizeof(err)),
	    0);
	got = render(&s, 1, 0, 0, NULL, NULL, NULL, NULL);
	assert_string_equal(got, header_mtu);
	free(got);
	memset(&s, 0, sizeof(s));
	assert_int_equal(sweep_parse(&s, "window=64K,1M", err, sizeof(err)),
	    0);
	assert_int_equal(sweep_parse(&s, "cc=cubic,bbr", err, sizeof(err)), 0);
	got = render(&s, 1, 0, 0, NULL, NULL, NULL, NULL);
	assert_string_equal(got, header_window_cc);
	free(got);
}

/* Every figure known: the whole row, byte for byte. */
static void
test_row_full(void **state)
{
	static const char want[] = "1,2,9000,"
	    "client_sends,131072,0,10.000,1,0,0,0,0,9000,bbr,tcp,,,,,,0,"
	    "1175000000,10,940,1120.56732,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,"
	    /* 7 udp_ and 17 rr columns: empty */
	    "1175000000,10,940.1,20.5,0.5,20,4,0.2,2.6,0.2,1,31,eth0,40550,"
	    "40500,811000,0.05,0.25,1000,2000,,16384,262144,524288,3,210,10,"
	    "8948,811000,5,9000,1,16384,16384,,,,,,"
	    "1175000000,10,940,20.5,0.5,20,4,0.2,2.6,0.2,1,31,eth0,40550,"
	    "811000,40500,0.05,0.25,1000,2000,,16384,262144,524288,0,210,10,"
	    "8948,0,811000,9000,0,16384,16384,6291456,8388608,,,,"
	    "cpu_bound;window_limited,,2026-12-02T07:30:00.500000Z,"
	    "198.18.0.2,mtu sweep\r\n";
	struct sweep		 s;
	struct gb_params	 p;
	struct sweep_setting	 set = { 9000, "bbr" };
	struct gb_result	*r;
	char			 err[256], *got;

	(void)state;
	memset(&s, 0, sizeof(s));
	assert_int_equal(sweep_parse(&s, "mtu=1500,9000", err, sizeof(err)),
	    0);
	fill_params(&p);
	p.mtu = 1500;			/* --mtu, overridden by the sweep */
	strcpy(p.cc, "cubic");		/* -C, likewise */
	r = calloc(1, sizeof(*r));
	assert_non_null(r);
	fill_side(&r->sender, 1);
	fill_side(&r->receiver, 0);
	r->nfindings = 2;
	strcpy(r->findings[0].code, "cpu_bound");
	strcpy(r->findings[1].code, "window_limited");
	/* The result's own start, peer and title, not the sweep's. */
	r->prov.start_us = INT64_C(1796196600) * 1000000 + 500000;
	strcpy(r->peer, "198.18.0.2");
	strcpy(r->prov.title, "mtu sweep");
	got = render(&s, 0, 1, 2, &p, &set, r, NULL);
	assert_string_equal(got, want);
	free(got);
	free(r);
}

/*
 * A run with only the sender's figures, no host CPU, no interface
 * counters, no TCP_INFO, no context: empty fields, never 0.
 */
static void
test_row_unavailable(void **state)
{
	static const char *const empty[] = {
		"mtu_set", "cc", "tx_host_busy_pct", "tx_host_softirq_pct",
		"tx_max_cpu_busy_pct", "tx_interface", "tx_interrupts",
		"tx_rx_packets", "tx_tx_packets", "tx_irq_per_packet",
		"tx_irq_per_segment", "tx_net_rx_softirqs",
		"tx_sndbuf_requested", "tx_retransmits", "tx_rtt_us",
		"tx_cwnd", "tx_mss", "tx_data_segs_in", "tx_mtu", "rx_bytes",
		"rx_mbps", "rx_process_pct", "rx_sndbuf_actual",
		"rx_warnings", "tx_sndbuf_final", "tx_rcvbuf_peak",
		"diagnosis", "error",
	};
	struct sweep		 s;
	struct gb_params	 p;
	struct sweep_setting	 set = { 0, "" };
	struct gb_result	*r;
	struct record		 hdr, row;
	const char		*cur;
	char			 err[256], *h, *got;
	size_t			 i;

	(void)state;
	memset(&s, 0, sizeof(s));
	assert_int_equal(sweep_parse(&s, "window=64K,1M", err, sizeof(err)),
	    0);
	assert_int_equal(sweep_parse(&s, "cc=cubic,bbr", err, sizeof(err)), 0);
	fill_params(&p);
	p.direction = GB_DIR_CLIENT_RECEIVES;
	p.sndbuf = p.rcvbuf = 1048576;
	r = calloc(1, sizeof(*r));
	assert_non_null(r);
	r->sender.has = 1;
	r->sender.bytes = 1000000;
	r->sender.seconds = 2;
	r->sender.mbps = 4;
	r->sender.sndbuf.actual = 2097152;
	r->sender.context.mtu = 1500;		/* context.has 0: ignored */
	r->sender.host_cpu.max_cpu = 0;
	h = render(&s, 1, 0, 0, NULL, NULL, NULL, NULL);
	got = render(&s, 0, 3, 0, &p, &set, r, NULL);
	cur = h;
	record_read(&cur, &hdr);
	cur = got;
	record_read(&cur, &row);
	assert_string_equal(cur, "");
	assert_int_equal(row.n, hdr.n);
	for (i = 0; i < sizeof(empty) / sizeof(empty[0]); i++)
		if (strcmp(field(&hdr, &row, empty[i]), "") != 0)
			fail_msg("%s is \"%s\", want empty", empty[i],
			    field(&hdr, &row, empty[i]));
	assert_string_equal(field(&hdr, &row, "point"), "3");
	assert_string_equal(field(&hdr, &row, "window"), "1048576");
	assert_string_equal(field(&hdr, &row, "cc"), "");
	assert_string_equal(row.f[3], "bbr");	/* the axis, not the param */
	assert_string_equal(field(&hdr, &row, "direction"),
	    "client_receives");
	assert_string_equal(field(&hdr, &row, "sndbuf"), "1048576");
	/* Delivered: the sender's, as nothing else is known. */
	assert_string_equal(field(&hdr, &row, "mbps"), "4");
	assert_string_equal(field(&hdr, &row, "bytes"), "1000000");
	assert_string_equal(field(&hdr, &row, "tx_process_pct"), "0");
	assert_string_equal(field(&hdr, &row, "tx_sndbuf_actual"), "2097152");
	assert_string_equal(field(&hdr, &row, "tx_warnings"), "0");
	record_free(&hdr);
	record_free(&row);
	free(h);
	free(got);
	free(r);
}

/* A failed run: parameters, then empty figures and the quoted error. */
static void
test_row_failed(void **state)
{
	static const char msg[] = "connect to 10.0.0.2 port 5001: refused, "
	    "\"peer\" said\r\nno";
	struct sweep		 s;
	struct gb_params	 p;
	struct sweep_setting	 set = { 1500, "" };
	struct record		 hdr, row;
	const char		*cur;
	char			 err[256], *h, *got, want[512];
	unsigned		 i;

	(void)state;
	memset(&s, 0, sizeof(s));
	assert_int_equal(sweep_parse(&s, "mtu=1500,9000", err, sizeof(err)),
	    0);
	fill_params(&p);
	got = render(&s, 0, 0, 4, &p, &set, NULL, msg);
	/* The quotes doubled, the whole field quoted, CR LF kept. */
	snprintf(want, sizeof(want), "0,4,1500,client_sends,131072,0,10.000,"
	    "1,0,0,0,0,1500,,tcp,,,,,,0%.*s\"connect to 10.0.0.2 port 5001: "
	    "refused, \"\"peer\"\" said\r\nno\",2026-12-02T08:00:00.000250Z,"
	    "h.example,\"run, \"\"b\"\"\"\r\n", 11 + 21 + 6 + 2 * 39 + 1 + 1,
	    ",,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,"
	    ",,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,"
	    ",,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,");
	assert_string_equal(got, want);
	h = render(&s, 1, 0, 0, NULL, NULL, NULL, NULL);
	cur = h;
	record_read(&cur, &hdr);
	cur = got;
	record_read(&cur, &row);
	assert_string_equal(cur, "");
	assert_int_equal(row.n, hdr.n);
	assert_string_equal(field(&hdr, &row, "error"), msg);
	assert_string_equal(field(&hdr, &row, "protocol"), "tcp");
	assert_string_equal(field(&hdr, &row, "peer"), "h.example");
	assert_string_equal(field(&hdr, &row, "title"), "run, \"b\"");
	/* Past the parameters, to the error and the run's identity. */
	for (i = 21; i < row.n - 4; i++)
		assert_string_equal(row.f[i], "");
	record_free(&hdr);
	record_free(&row);
	free(h);
	free(got);
}

/*
 * A sweep over nothing (repetitions only) and a NULL setting: mtu_set and
 * cc come from --mtu and -C.
 */
static void
test_no_axes(void **state)
{
	struct sweep		 s;
	struct gb_params	 p;
	struct record		 hdr, row;
	const char		*cur;
	char			*h, *got;

	(void)state;
	memset(&s, 0, sizeof(s));
	fill_params(&p);
	p.mtu = 4000;
	strcpy(p.cc, "reno");
	h = render(&s, 1, 0, 0, NULL, NULL, NULL, NULL);
	assert_true(strncmp(h, "point,repeat,direction,", 23) == 0);
	got = render(&s, 0, 0, 9, &p, NULL, NULL, "timeout");
	cur = h;
	record_read(&cur, &hdr);
	cur = got;
	record_read(&cur, &row);
	assert_int_equal(row.n, hdr.n);
	assert_string_equal(field(&hdr, &row, "repeat"), "9");
	assert_string_equal(field(&hdr, &row, "mtu_set"), "4000");
	assert_string_equal(field(&hdr, &row, "cc"), "reno");
	assert_string_equal(field(&hdr, &row, "error"), "timeout");
	record_free(&hdr);
	record_free(&row);
	free(h);
	free(got);
}

/*
 * --rr: its parameters, the transactions, the latencies in us from the
 * histogram and each end's cost per transaction; the asking end's host
 * CPU unknown and the answering end's irq unknown: empty, not 0.
 */
static void
test_row_rr(void **state)
{
	static const struct { const char *col, *want; } cells[] = {
		{ "protocol", "tcp" }, { "request_size", "64" },
		{ "response_size", "1" }, { "rr_burst", "4" },
		{ "rr_transactions", "1000" }, { "rr_trans_per_s", "500" },
		{ "latency_min_us", "1" }, { "latency_mean_us", "500.5" },
		{ "latency_p50_us", "500" }, { "latency_p90_us", "900" },
		{ "latency_p99_us", "990" }, { "latency_p999_us", "999" },
		{ "latency_max_us", "1000" },
		{ "rr_tx_cpu_us_per_trans", "100" },
		{ "rr_tx_host_cpu_us_per_trans", "" },
		{ "rr_tx_irq_per_trans", "2" },
		{ "rr_tx_softirq_per_trans", "1" },
		{ "rr_rx_cpu_us_per_trans", "50" },
		{ "rr_rx_irq_per_trans", "" },
		{ "udp_sent", "" }, { "tx_bytes", "64000" },
	};
	struct sweep		 s;
	struct gb_params	 p;
	struct gb_result	*r;
	struct record		 hdr, row;
	const char		*cur;
	char			 err[256], *h, *got;
	size_t			 i;
	uint64_t		 us;

	(void)state;
	memset(&s, 0, sizeof(s));
	assert_int_equal(sweep_parse(&s, "burst=1,4", err, sizeof(err)), 0);
	fill_params(&p);
	p.rr = 1;
	p.req_size = 64;
	p.rr_burst = 4;
	r = calloc(1, sizeof(*r));
	assert_non_null(r);
	r->params = p;
	r->sender.has = r->receiver.has = 1;
	r->sender.seconds = r->receiver.seconds = 2;
	r->sender.bytes = 64000;
	r->sender.rr.has = r->receiver.rr.has = 1;
	r->sender.rr.transactions = r->receiver.rr.transactions = 1000;
	/* 0.1 s of process CPU: 100 us a transaction; 0.05 s: 50 us. */
	r->sender.cpu.user_s = 0.06;
	r->sender.cpu.sys_s = 0.04;
	r->receiver.cpu.sys_s = 0.05;
	r->sender.iface.has_interrupts = 1;
	r->sender.iface.interrupts = 2000;
	r->sender.iface.has_softirq = 1;
	r->sender.iface.net_rx_softirqs = 1000;
	/* 1..1000 us: exact below 64 ns only, so check the ms ones' ranks. */
	r->has_latency = 1;
	lathist_init(&r->latency);
	for (us = 1; us <= 1000; us++)
		lathist_add(&r->latency, us * 1000);
	h = render(&s, 1, 0, 0, NULL, NULL, NULL, NULL);
	got = render(&s, 0, 1, 0, &p, NULL, r, NULL);
	cur = h;
	record_read(&cur, &hdr);
	cur = got;
	record_read(&cur, &row);
	assert_int_equal(row.n, hdr.n);
	for (i = 0; i < sizeof(cells) / sizeof(cells[0]); i++) {
		const char *v = field(&hdr, &row, cells[i].col);
		double want, got_v;

		if (cells[i].want[0] == '\0' || strncmp(cells[i].col,
		    "latency_p", 9) != 0) {
			if (strcmp(v, cells[i].want) != 0)
				fail_msg("%s is \"%s\", want \"%s\"",
				    cells[i].col, v, cells[i].want);
			continue;
		}
		/* A percentile: within 3.125 % above its sample. */
		want = strtod(cells[i].want, NULL);
		got_v = strtod(v, NULL);
		if (!(got_v >= want && got_v <= want * 1.03125))
			fail_msg("%s is %s, want %s .. +3.125 %%",
			    cells[i].col, v, cells[i].want);
	}
	assert_string_equal(field(&hdr, &row, "rr_lost"), "");
	/* -u --rr: the asker's timeout and counts. */
	r->sender.rr.has_udp = 1;
	r->sender.rr.timeout_ms = 100;
	r->sender.rr.requests = 1010;
	r->sender.rr.lost = 10;
	r->sender.rr.late = 2;
	free(got);
	record_free(&row);
	got = render(&s, 0, 1, 0, &p, NULL, r, NULL);
	cur = got;
	record_read(&cur, &row);
	assert_string_equal(field(&hdr, &row, "rr_timeout_ms"), "100");
	assert_string_equal(field(&hdr, &row, "rr_requests"), "1010");
	assert_string_equal(field(&hdr, &row, "rr_lost"), "10");
	assert_string_equal(field(&hdr, &row, "rr_late"), "2");
	record_free(&hdr);
	record_free(&row);
	free(h);
	free(got);
	free(r);
}

/* --bidir: the reverse direction's columns; empty without it. */
static void
test_row_bidir(void **state)
{
	static const struct { const char *col, *want; } cells[] = {
		{ "bidir", "1" }, { "mbps", "800" }, { "rev_bytes", "300000" },
		{ "rev_seconds", "3" }, { "rev_mbps", "0.8" },
		{ "rev_retransmits", "7" }, { "rev_udp_lost", "" },
		{ "tx_bytes", "300000000" },
	};
	struct sweep		 s;
	struct gb_params	 p;
	struct gb_result	*r;
	struct record		 hdr, row;
	const char		*cur;
	char			 err[256], *h, *got;
	size_t			 i;

	(void)state;
	memset(&s, 0, sizeof(s));
	assert_int_equal(sweep_parse(&s, "streams=1,2", err, sizeof(err)), 0);
	fill_params(&p);
	p.bidir = 1;
	assert_non_null(r = calloc(1, sizeof(*r)));
	r->params = p;
	r->sender.has = r->receiver.has = 1;
	r->sender.bytes = r->receiver.bytes = 300000000;
	r->sender.seconds = r->receiver.seconds = 3;
	r->receiver.mbps = 800;
	r->rsender.has = r->rreceiver.has = 1;
	r->rsender.bytes = r->rreceiver.bytes = 300000;
	r->rsender.seconds = r->rreceiver.seconds = 3;
	r->rreceiver.mbps = 0.8;
	r->rsender.tcp.has = 1;
	r->rsender.tcp.retransmits = 7;
	h = render(&s, 1, 0, 0, NULL, NULL, NULL, NULL);
	got = render(&s, 0, 1, 0, &p, NULL, r, NULL);
	cur = h;
	record_read(&cur, &hdr);
	cur = got;
	record_read(&cur, &row);
	assert_int_equal(row.n, hdr.n);
	for (i = 0; i < sizeof(cells) / sizeof(cells[0]); i++)
		if (strcmp(field(&hdr, &row, cells[i].col), cells[i].want) != 0)
			fail_msg("%s is \"%s\", want \"%s\"", cells[i].col,
			    field(&hdr, &row, cells[i].col), cells[i].want);
	free(got);
	/* Not bidir: every rev_ column empty, bidir 0. */
	r->params.bidir = p.bidir = 0;
	got = render(&s, 0, 1, 0, &p, NULL, r, NULL);
	record_free(&row);
	cur = got;
	record_read(&cur, &row);
	assert_string_equal(field(&hdr, &row, "bidir"), "0");
	assert_string_equal(field(&hdr, &row, "rev_mbps"), "");
	assert_string_equal(field(&hdr, &row, "rev_bytes"), "");
	record_free(&hdr);
	record_free(&row);
	free(h);
	free(got);
	free(r);
}

/* One cell rendered into memory; the caller frees. */
static char *
cell(const char *s, enum csv_quote how)
{
	char	*buf = NULL;
	size_t	 len = 0;
	FILE	*fp = open_memstream(&buf, &len);

	assert_non_null(fp);
	csv_cell(fp, s, how);
	assert_int_equal(fclose(fp), 0);
	return buf;
}

/*
 * Formula starts get a ' inside the cell, then RFC 4180 quotes what holds
 * a comma, a quote, CR or LF.  The results are written out by hand, not
 * by a second implementation of the rule.
 */
static void
test_cell(void **state)
{
	static const struct {
		const char	*in, *want;
		enum csv_quote	 how;
	} cases[] = {
		{ "=1+2", "'=1+2", CSV_QUOTE_NEEDED },
		{ "+cmd", "'+cmd", CSV_QUOTE_NEEDED },
		{ "-2+3", "'-2+3", CSV_QUOTE_NEEDED },
		{ "@SUM(A1)", "'@SUM(A1)", CSV_QUOTE_NEEDED },
		{ "\tx", "'\tx", CSV_QUOTE_NEEDED },
		{ "\rx", "\"'\rx\"", CSV_QUOTE_NEEDED },
		{ "a,b", "\"a,b\"", CSV_QUOTE_NEEDED },
		{ "say \"hi\"", "\"say \"\"hi\"\"\"", CSV_QUOTE_NEEDED },
		{ "a\nb", "\"a\nb\"", CSV_QUOTE_NEEDED },
		{ "a\r\nb", "\"a\r\nb\"", CSV_QUOTE_NEEDED },
		{ "=HYPERLINK(\"http://x\",\"y\")",
		    "\"'=HYPERLINK(\"\"http://x\"\",\"\"y\"\")\"",
		    CSV_QUOTE_NEEDED },
		{ "=cmd|' /C calc'!A0", "'=cmd|' /C calc'!A0",
		    CSV_QUOTE_NEEDED },
		{ "", "", CSV_QUOTE_NEEDED },
		{ NULL, "", CSV_QUOTE_NEEDED },
		{ "h1.example", "h1.example", CSV_QUOTE_NEEDED },
		/* Only the first byte counts; a ' of its own is kept. */
		{ "a=b-c", "a=b-c", CSV_QUOTE_NEEDED },
		{ "'=x", "'=x", CSV_QUOTE_NEEDED },
		{ " =x", " =x", CSV_QUOTE_NEEDED },
		/* merge's why: quoted whatever it holds. */
		{ "", "\"\"", CSV_QUOTE_ALWAYS },
		{ NULL, "\"\"", CSV_QUOTE_ALWAYS },
		{ "no result", "\"no result\"", CSV_QUOTE_ALWAYS },
		{ "-3", "\"'-3\"", CSV_QUOTE_ALWAYS },
		{ "@x\"y", "\"'@x\"\"y\"", CSV_QUOTE_ALWAYS },
	};
	size_t	 i;
	char	*got;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		got = cell(cases[i].in, cases[i].how);
		if (strcmp(got, cases[i].want) != 0)
			fail_msg("case %zu: \"%s\" is written [%s], want [%s]",
			    i, cases[i].in != NULL ? cases[i].in : "(null)",
			    got, cases[i].want);
		free(got);
	}
}

/*
 * A row whose text cells all start like formulas: each is defused and
 * reads back as ' and the text, the row keeps its column count, and the
 * numbers around them are untouched.
 */
static void
test_row_hostile(void **state)
{
	static const struct { const char *col, *want; } cells[] = {
		{ "cc", "'-bbr" }, { "tx_interface", "'@eth0" },
		{ "rx_interface", "'+eth1" }, { "tx_profile_top", "'=f" },
		{ "peer", "'-h" }, { "title", "'=1+2,\"x\"" },
		{ "error", "" }, { "mbps", "940" }, { "tx_mtu", "9000" },
		{ "duration_s", "10.000" }, { "protocol", "tcp" },
	};
	struct sweep		 s;
	struct gb_params	 p;
	struct sweep_setting	 set = { 0, "-bbr" };
	struct gb_result	*r;
	struct record		 hdr, row;
	const char		*cur;
	char			*h, *got;
	size_t			 i;

	(void)state;
	memset(&s, 0, sizeof(s));
	fill_params(&p);
	assert_non_null(r = calloc(1, sizeof(*r)));
	fill_side(&r->sender, 1);
	fill_side(&r->receiver, 0);
	strcpy(r->sender.iface.name, "@eth0");
	strcpy(r->receiver.iface.name, "+eth1");
	r->sender.profile.has = 1;
	r->sender.profile.ntop = 1;
	r->sender.profile.kernel = 10;
	r->sender.profile.top[0].samples = 5;
	strcpy(r->sender.profile.top[0].name, "=f");
	strcpy(r->peer, "-h");
	strcpy(r->prov.title, "=1+2,\"x\"");
	h = render(&s, 1, 0, 0, NULL, NULL, NULL, NULL);
	got = render(&s, 0, 0, 0, &p, &set, r, NULL);
	/* The title: defused inside the quotes, its quotes doubled. */
	assert_non_null(strstr(got, ",'-h,\"'=1+2,\"\"x\"\"\"\r\n"));
	cur = h;
	record_read(&cur, &hdr);
	cur = got;
	record_read(&cur, &row);
	assert_string_equal(cur, "");
	assert_int_equal(row.n, hdr.n);
	for (i = 0; i < sizeof(cells) / sizeof(cells[0]); i++)
		if (strcmp(field(&hdr, &row, cells[i].col), cells[i].want) != 0)
			fail_msg("%s is \"%s\", want \"%s\"", cells[i].col,
			    field(&hdr, &row, cells[i].col), cells[i].want);
	record_free(&hdr);
	record_free(&row);
	free(h);
	free(got);
	free(r);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_header),
		cmocka_unit_test(test_row_full),
		cmocka_unit_test(test_row_unavailable),
		cmocka_unit_test(test_row_failed),
		cmocka_unit_test(test_no_axes),
		cmocka_unit_test(test_row_rr),
		cmocka_unit_test(test_row_bidir),
		cmocka_unit_test(test_cell),
		cmocka_unit_test(test_row_hostile),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
