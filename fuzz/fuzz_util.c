/*
 * fuzz_util.c: see fuzz_util.h.  The one static is the /dev/null stream,
 * opened on first use and kept for the life of the fuzzer: a harness
 * runs millions of inputs and must not open a file for each.
 */
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "host/context.h"
#include "base/diag.h"
#include "fuzz_util.h"
#include "base/params.h"
#include "out/report.h"

/* --profile's figures, so that the codec sees a profile too. */
static void
fuzz_fill_profile(struct gb_profile *p)
{
	p->asked = p->has = 1;
	strcpy(p->event, "cpu-clock");
	p->hz = 997;
	p->ncpus = 2;
	p->seconds = 60.0;
	p->samples = 119640;
	p->idle = 40000;
	p->kernel = 78000;
	p->user = 1640;
	p->lost = 2;
	p->unknown = 100;
	p->cat[GB_CAT_COPY] = 30000;
	p->cat[GB_CAT_CSUM] = 1000;
	p->cat[GB_CAT_STACK] = 25000;
	p->cat[GB_CAT_SOFTIRQ] = 9000;
	p->cat[GB_CAT_DRIVER] = 6000;
	p->cat[GB_CAT_SCHED] = 2000;
	p->cat[GB_CAT_LOCK] = 3000;
	p->cat[GB_CAT_KERNEL] = 2000;
	p->cat[GB_CAT_USER] = 1640;
	strcpy(p->driver, "igb");
	p->ntop = 3;
	strcpy(p->top[0].name, "_copy_to_iter");
	p->top[0].cat = GB_CAT_COPY;
	p->top[0].samples = 28000;
	strcpy(p->top[1].name, "igb_msix_ring");
	strcpy(p->top[1].module, "igb");
	p->top[1].cat = GB_CAT_DRIVER;
	p->top[1].samples = 5000;
	strcpy(p->top[2].name, "gigebench");
	p->top[2].user = 1;
	p->top[2].cat = GB_CAT_USER;
	p->top[2].samples = 1600;
	p->handled_per_s = 1994;
	p->cpu_s = 0.12;
}

/* Two flows of a -P 1000 --rr test kept, and the summary of all. */
static void
fuzz_fill_flows(struct gb_side *s)
{
	struct gb_flows *f = &s->flows;
	unsigned i;

	s->nstreams = 2;
	for (i = 0; i < 2; i++) {
		s->streams[i].bytes = i == 0 ? 12262500 : 13062500;
		s->streams[i].seconds = 10.0;
		s->streams[i].cpu = (int)i;
		s->streams[i].pinned = -1;
		s->streams[i].path = GB_PATH_RR_ASK;
		s->streams[i].has_tcp = 1;
		s->streams[i].retrans = i == 0 ? 3 : 0;
		s->streams[i].rtt_us = i == 0 ? 88 : 31;
		s->streams[i].transactions = i == 0 ? 8120 : 9010;
	}
	f->has = f->has_tps = f->has_tcp = 1;
	f->n = 1000;
	f->threads = 2;
	f->mbps_min = 9.81;
	f->mbps_p50 = 10.02;
	f->mbps_max = 10.45;
	f->jain = 0.998;
	f->tps_min = 812;
	f->tps_p50 = 850;
	f->tps_max = 901;
	f->retrans_max = 3;
	f->rtt_us_min = 31;
	f->rtt_us_p50 = 40;
	f->rtt_us_max = 88;
}

void
fuzz_fill_side(struct gb_side *s)
{
	struct gb_iface_figures *f = &s->iface;
	struct gb_context *c = &s->context;
	struct gb_capture *k = &s->capture;

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
	f->irq_lines = 1;
	strcpy(f->irq_list, "41");
	f->has_interrupts = 1;
	f->interrupts = 476543;
	f->has_irq_per_packet = 1;
	f->irq_per_packet = 0.145;
	f->has_softirq = 1;
	f->net_rx_softirqs = 98000;
	f->net_tx_softirqs = 1210;
	f->nlines = 1;
	strcpy(f->lines[0].name, "41");
	strcpy(f->lines[0].chip, "IR-PCI-MSI 524288-edge");
	strcpy(f->lines[0].actions, "uhci_hcd:usb3, eth0");
	f->lines[0].shared = 1;
	f->lines[0].count = 476543;
	strcpy(f->lines[0].cpus, "0,2-3");
	f->lines[0].has_share = 1;
	f->lines[0].share_pct = 100.0;
	f->lines[0].top_cpu = 2;
	s->spread.has = 1;
	s->spread.ncpus = 2;
	s->spread.ncpu = 2;
	s->spread.cpu[0].cpu = 0;
	s->spread.cpu[0].busy_pct = 30.5;
	s->spread.cpu[0].softirq_pct = 10.25;
	s->spread.cpu[0].has_softirqs = 1;
	s->spread.cpu[0].net_rx = 12034;
	s->spread.cpu[1].cpu = 1;
	s->spread.cpu[1].busy_pct = 97.75;
	s->spread.cpu[1].irq_pct = 8.5;
	s->spread.cpu[1].softirq_pct = 71.0;
	s->spread.cpu[1].has_softirqs = 1;
	s->spread.cpu[1].net_rx = 85966;
	s->spread.cpu[1].net_tx = 1210;
	s->spread.has_queues = 1;
	s->spread.rx_queues = s->spread.tx_queues = 2;
	f->has_irq_per_segment = 1;
	f->irq_per_segment = 0.07;
	s->tcp.has = 1;
	s->tcp.retransmits = 2;
	s->tcp.rtt_us = 120;
	s->tcp.rttvar_us = 40;
	s->tcp.cwnd = 42;
	s->tcp.mss = 1448;
	s->tcp.advmss = 1448;
	s->tcp.pmtu = 1500;
	s->tcp.segs_out = 3286503;
	s->tcp.segs_in = 1643251;
	s->tcp.data_segs_out = 3286500;
	s->tcp.data_segs_in = 2;
	s->tcp.has_limited = 1;
	s->tcp.busy_us = 60000000;
	s->tcp.rwnd_limited_us = 1200;
	s->tcp.sndbuf_limited_us = 30000;
	s->tcp.snd_wnd = 3145728;
	s->udp.has = 1;		/* -u's figures too, so the codec sees them */
	s->udp.length = 1472;
	s->udp.batch = 32;
	s->udp.datagrams = 3286503;
	s->udp.enobufs = 12;
	s->udp.refused = 1;
	s->udp.gaps = 40;
	s->udp.ooo = 3;
	s->udp.dup = 1;
	s->udp.stray = 7;
	s->udp.jitter_ms = 0.057;
	s->udp.has_sock_drops = 1;
	s->udp.sock_drops = 30;
	s->udp.has_kernel = 1;
	s->udp.rcvbuf_errors = 31;
	s->udp.in_errors = 33;
	s->udp.has_ifdrops = 1;
	s->udp.if_rx_dropped = 2;
	s->rr.has = 1;		/* -u --rr's asker too, for the codec */
	s->rr.transactions = 46563;
	s->rr.has_udp = 1;
	s->rr.timeout_ms = 500;
	s->rr.requests = 46570;
	s->rr.lost = 7;
	s->rr.late = 1;
	s->rr.stray = 2;
	s->rr.unsent = 1;
	s->sndbuf.requested = 65536;
	s->sndbuf.actual = 131072;
	s->rcvbuf.requested = 65536;
	s->rcvbuf.actual = 131072;
	s->sndbuf.final = s->sndbuf.peak = 131072;
	s->rcvbuf.final = 2097152;
	s->rcvbuf.peak = 4194304;
	fuzz_fill_profile(&s->profile);
	context_init(c);
	c->has = 1;
	strcpy(c->kernel, "6.1.0-18-amd64");
	strcpy(c->cpu_model, "Intel(R) Xeon(R) CPU E5-2620 v4 @ 2.10GHz");
	c->ncpus = 16;
	strcpy(c->driver, "igb");
	strcpy(c->driver_version, "5.6.0-k");
	strcpy(c->bus, "0000:03:00.0");
	c->speed_mbps = 1000;
	strcpy(c->duplex, "full");
	c->mtu = 1500;
	c->rx_checksum = c->tx_checksum = c->tso = c->gso = c->gro = 1;
	c->lro = 0;
	c->rx_usecs = 3;
	c->rx_frames = 0;
	c->tx_usecs = 3;
	c->tx_frames = 0;
	c->adaptive_rx = c->adaptive_tx = 0;
	c->rx_ring = c->tx_ring = 256;
	c->rx_ring_max = c->tx_ring_max = 4096;
	c->rmem_max = c->wmem_max = 212992;
	strcpy(c->tcp_rmem, "4096 131072 6291456");
	strcpy(c->tcp_wmem, "4096 16384 4194304");
	strcpy(c->congestion, "cubic");
	strcpy(c->note, "coalescing: not supported by the driver");
	strcpy(c->hostname, "sut-1.example");
	strcpy(c->version, "0.1.0 (7ca7f91)");
	k->has = 1;
	k->frames_rx = 10;
	k->frames_tx = 20;
	k->bytes_rx = 10 * 66;
	k->bytes_tx = 20 * 1514;
	k->hist_rx[1] = 10;
	k->hist_tx[5] = 20;
	k->max_frame_rx = 66;
	k->max_frame_tx = 1514;
	s->nwarnings = 1;
	strcpy(s->warnings[0], "SO_RCVBUF 8M was capped at 416K by "
	    "net.core.rmem_max");
	fuzz_fill_flows(s);
}

FILE *
fuzz_devnull(void)
{
	static FILE *null;

	if (null == NULL && (null = fopen("/dev/null", "w")) == NULL)
		abort();
	return null;
}

static void fuzz_text_printable(const struct gb_result *);

void
fuzz_render_result(const struct gb_result *r)
{
	static const char units[] = "kmgKMG";
	struct report_style st;
	FILE *out = fuzz_devnull();
	json_t *doc;
	int i;

	if ((doc = report_json(r)) != NULL) {
		json_dumpf(doc, out, JSON_INDENT(2) | JSON_SORT_KEYS |
		    JSON_REAL_PRECISION(12));
		json_decref(doc);
	}
	for (i = 0; i < 6; i++) {
		memset(&st, 0, sizeof(st));
		st.unit = units[i];
		st.verbose = i % 3;
		st.quiet = i == 5;
		report_text(out, r, &st);
	}
	report_summary_line(out, r, 'm');
	fuzz_text_printable(r);
}

/*
 * Whatever a peer sent, the text report is lines of printable ASCII: no
 * ESC, no carriage return, no byte a terminal would act on (the decoder
 * refuses such strings; issue 14, item 4).
 */
static void
fuzz_text_printable(const struct gb_result *r)
{
	struct report_style st;
	char *text = NULL;
	size_t len = 0, i;
	FILE *f;

	if ((f = open_memstream(&text, &len)) == NULL)
		abort();
	memset(&st, 0, sizeof(st));
	st.unit = 'm';
	st.verbose = 2;
	report_text(f, r, &st);
	report_summary_line(f, r, 'm');
	fclose(f);
	for (i = 0; i < len; i++)
		if (text[i] != '\n' && ((unsigned char)text[i] < 0x20 ||
		    (unsigned char)text[i] >= 0x7f)) {
			fprintf(stderr, "fuzz: the text report holds byte "
			    "0x%02x at %zu\n", (unsigned char)text[i], i);
			abort();
		}
	free(text);
}

void
fuzz_render(const struct gb_side *local, const struct gb_side *peer,
    int local_is_sender)
{
	struct gb_result *r;

	if ((r = calloc(1, sizeof(*r))) == NULL)
		abort();
	params_init(&r->params);
	r->params.link_mbps = 1000;
	r->params.mtu = 1500;
	snprintf(r->peer, sizeof(r->peer), "192.0.2.1");
	r->port = GB_DEFAULT_PORT;
	r->local_is_sender = local_is_sender;
	r->sender = local_is_sender ? *local : *peer;
	r->receiver = local_is_sender ? *peer : *local;
	diag_run(r);
	fuzz_render_result(r);
	free(r);
}
