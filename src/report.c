/*
 * report.c: the text renderers.  It owns the layout of the ttcp-style
 * lines ("gigebench-t:" for the sender, "gigebench-r:" for the receiver),
 * of the nuttcp-shaped summary line; the interval lines are report_iv.c's.
 *
 * It only formats a struct gb_result: the figures were computed once by
 * the measuring code, and nothing here recomputes them beyond unit
 * conversion and rounding.  It must not touch a socket or a /proc file,
 * print diagnostics to stderr, or exit.  A figure whose has-flag is 0 is
 * printed as "n/a", never as 0.  The JSON renderer is report_json.c; the
 * context and capture lines are context_text.c and capture_text.c, the
 * spread's spread_text.c, the flow summary's report_flows.c.
 */
#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "out/capture_text.h"
#include "out/profile_text.h"
#include "out/spread_text.h"
#include "out/context_text.h"
#include "base/bidir.h"
#include "base/datapath.h"
#include "base/diag.h"
#include "out/report.h"
#include "base/units.h"
#include "report_fmt.h"


static const char *
report_fmt_u64(char *buf, size_t len, int has, uint64_t v)
{
	if (!has)
		return REPORT_NA;
	snprintf(buf, len, "%" PRIu64, v);
	return buf;
}

const char *
report_fmt_real(char *buf, size_t len, int has, int prec, double v)
{
	if (!has)
		return REPORT_NA;
	snprintf(buf, len, "%.*f", prec, v);
	return buf;
}

/* The data line's receiver side, or the sender's when it is missing. */
static const struct gb_side *
report_delivered(const struct gb_result *r)
{
	return r->receiver.has || !r->sender.has ? &r->receiver : &r->sender;
}

/* Asked, set at the start, at the end, and the largest when larger. */
static void
report_sockbuf(FILE *fp, const char *what, const struct gb_sockbuf *b)
{
	if (b->requested == 0)
		fprintf(fp, "%s requested default", what);
	else
		fprintf(fp, "%s requested %" PRIu32, what, b->requested);
	fprintf(fp, ", initial %" PRIu32, b->actual);
	if (b->final != 0)
		fprintf(fp, ", final %" PRIu32, b->final);
	if (b->peak > b->final && b->final != 0)
		fprintf(fp, " (peak %" PRIu32 ")", b->peak);
}

static void
report_sockbuf_line(FILE *fp, const struct gb_side *s, int is_tx)
{
	fprintf(fp, "%s ", report_side_prefix(is_tx));
	report_sockbuf(fp, "sndbuf", &s->sndbuf);
	fputs("; ", fp);
	report_sockbuf(fp, "rcvbuf", &s->rcvbuf);
	if (s->rcvlowat != 0)
		fprintf(fp, "; rcvlowat %" PRIu32, s->rcvlowat);
	fputc('\n', fp);
}

static void
report_bytes_line(FILE *fp, const struct gb_side *s, int is_tx, char unit)
{
	const char *label;
	double rate;

	char mb[REPORT_TOKLEN];

	rate = units_rate(s->mbps * 1e6, unit, &label);
	fprintf(fp, "%s %" PRIu64 " bytes in %.2f real seconds = %.4f %s"
	    " (%s MB), %" PRIu64 " calls\n", report_side_prefix(is_tx), s->bytes,
	    s->seconds, rate, label, units_format_mb(s->bytes, mb,
	    sizeof(mb)), s->calls);
}

/*
 * The data path when it is not the plain one, and -Z's completions:
 * "copied" counts the completions where the kernel copied after all.
 */
static void
report_path_line(FILE *fp, const struct gb_side *s, int is_tx)
{
	const struct gb_zerocopy *z = &s->zerocopy;

	if ((s->data_path == GB_PATH_SEND || s->data_path == GB_PATH_RECV) &&
	    !z->has)
		return;
	fprintf(fp, "%s data path %s", report_side_prefix(is_tx),
	    datapath_name(s->data_path));
	if (z->has)
		fprintf(fp, ": %" PRIu64 " zerocopy sends, %" PRIu64
		    " completions, %" PRIu64 " copied%s", z->sends,
		    z->completions, z->copied, z->completions > 0 &&
		    z->copied == z->completions ? " (kernel copied)" : "");
	fputc('\n', fp);
}

static void
report_cpu_line(FILE *fp, const struct gb_side *s, int is_tx)
{
	const struct gb_proc_cpu *c = &s->cpu;
	const struct gb_host_cpu *h = &s->host_cpu;

	fprintf(fp, "%s cpu %.2fuser %.2fsys %.1f%% process; host ",
	    report_side_prefix(is_tx), c->user_s, c->sys_s, c->process_pct);
	if (!h->has) {
		fputs(REPORT_NA "\n", fp);
		return;
	}
	fprintf(fp, "%.1f%% busy (%.1f usr %.1f sys %.1f irq %.1f softirq),"
	    " busiest ", h->busy_pct, h->user_pct, h->sys_pct, h->irq_pct,
	    h->softirq_pct);
	if (h->max_cpu >= 0)
		fprintf(fp, "cpu%d %.1f%%\n", h->max_cpu, h->max_cpu_busy_pct);
	else
		fputs("cpu " REPORT_NA "\n", fp);
}

/* "irq 41 (1 line), 476543 interrupts" or "no irq lines ...". */
static void
report_irq_part(FILE *fp, const struct gb_iface_figures *f)
{
	char buf[REPORT_TOKLEN];

	if (f->irq_lines <= 0) {
		/* veth, lo and tunnels raise no interrupt of their own. */
		if (f->irq_note[0] != '\0')
			fprintf(fp, "no irq lines (%s)", f->irq_note);
		else
			fputs(f->name[0] != '\0' ?
			    "no irq lines (loopback/virtual)" : "no irq lines",
			    fp);
		return;
	}
	fprintf(fp, "irq %s (%d line%s), %s interrupts", f->irq_list,
	    f->irq_lines, f->irq_lines == 1 ? "" : "s",
	    report_fmt_u64(buf, sizeof(buf), f->has_interrupts, f->interrupts));
}

static void
report_iface_line(FILE *fp, const struct gb_side *s, int is_tx)
{
	const struct gb_iface_figures *f = &s->iface;
	char a[REPORT_TOKLEN], b[REPORT_TOKLEN];

	fprintf(fp, "%s iface %s: ", report_side_prefix(is_tx),
	    f->name[0] != '\0' ? f->name : REPORT_NA);
	report_irq_part(fp, f);
	fprintf(fp, ", rx %s tx %s packets",
	    report_fmt_u64(a, sizeof(a), f->has_counters, f->rx_packets),
	    report_fmt_u64(b, sizeof(b), f->has_counters, f->tx_packets));
	if (f->has_softirq)
		fprintf(fp, ", softirq NET_RX %" PRIu64 " NET_TX %" PRIu64,
		    f->net_rx_softirqs, f->net_tx_softirqs);
	else
		fputs(", softirq " REPORT_NA, fp);
	fprintf(fp, ", irq/pkt %s\n", report_fmt_real(a, sizeof(a),
	    f->has_irq_per_packet, 3, f->irq_per_packet));
}

/*
 * -u: the sender's datagrams and what the kernel refused it; the
 * receiver's, with the loss against the sender's count when it is known.
 */
static void
report_udp_line(FILE *fp, const struct gb_result *r, const struct gb_side *s,
    int is_tx)
{
	const struct gb_udp *u = &s->udp;
	struct gb_udp_figures f;

	result_udp(r, &f);
	if (is_tx) {
		fprintf(fp, "%s udp %" PRIu64 " datagrams of %" PRIu32 " bytes, "
		    "%.0f pps, batch %" PRIu32 ", %" PRIu64 " ENOBUFS/EAGAIN, "
		    "%" PRIu64 " refused\n", report_side_prefix(is_tx), u->datagrams,
		    u->length, f.tx_pps, u->batch, u->enobufs, u->refused);
		return;
	}
	fprintf(fp, "%s udp %" PRIu64 " datagrams, %.0f pps, lost %" PRIu64
	    " (%.3f %%%s), %" PRIu64 " late, %" PRIu64 " dup, %" PRIu64
	    " stray, jitter %.3f ms\n", report_side_prefix(is_tx), u->datagrams,
	    f.rx_pps, f.lost, f.lost_pct, f.sent_known ? "" : ", by the gaps",
	    u->ooo, u->dup, u->stray, u->jitter_ms);
}

/* -u: what a datagram cost this end. */
static void
report_udp_cost_line(FILE *fp, const struct gb_result *r, int is_tx)
{
	char irq[REPORT_TOKLEN], sirq[REPORT_TOKLEN], host[REPORT_TOKLEN];
	struct gb_udp_figures f;
	const struct gb_cost *c;

	result_udp(r, &f);
	c = is_tx ? &f.tx : &f.rx;
	if (!c->has)
		return;
	fprintf(fp, "%s per datagram: %.3f us process cpu, %s us host cpu, "
	    "%s irq, %s %s softirq\n", report_side_prefix(is_tx), c->cpu_us,
	    report_fmt_real(host, sizeof(host), c->has_host, 3, c->host_us),
	    report_fmt_real(irq, sizeof(irq), c->has_irq, 4,
	    c->irq), report_fmt_real(sirq, sizeof(sirq), c->has_softirq, 4,
	    c->softirq), is_tx ? "NET_TX" : "NET_RX");
}

static void
report_tcp_line(FILE *fp, const struct gb_side *s, int is_tx)
{
	const struct gb_tcp *t = &s->tcp;

	if (!t->has) {
		fprintf(fp, "%s tcp " REPORT_NA "\n", report_side_prefix(is_tx));
		return;
	}
	if (is_tx)
		fprintf(fp, "%s tcp %" PRIu32 " retrans, rtt %.3f ms (var "
		    "%.3f), cwnd %" PRIu32 ", mss %" PRIu32 "\n",
		    report_side_prefix(is_tx), t->retransmits, t->rtt_us / 1000.0,
		    t->rttvar_us / 1000.0, t->cwnd, t->mss);
	else
		/*
		 * The receiver's own cwnd and MSS are of the direction it
		 * does not send in: said so, never beside the sender's.
		 */
		fprintf(fp, "%s tcp rtt %.3f ms (var %.3f); reverse "
		    "direction (acks only): cwnd %" PRIu32 ", mss %" PRIu32
		    "\n", report_side_prefix(is_tx), t->rtt_us / 1000.0,
		    t->rttvar_us / 1000.0, t->cwnd, t->mss);
}

/* -v: the shares behind the totals above. */
static void
report_verbose_lines(FILE *fp, const struct gb_side *s, int is_tx)
{
	const struct gb_iface_figures *f = &s->iface;
	char a[REPORT_TOKLEN], b[REPORT_TOKLEN];

	fprintf(fp, "%s cpu %.1f%% user %.1f%% sys of real time;"
	    " host cpus %s\n", report_side_prefix(is_tx), s->cpu.user_pct,
	    s->cpu.sys_pct, report_fmt_u64(a, sizeof(a), s->host_cpu.has,
	    (uint64_t)s->host_cpu.ncpus));
	fprintf(fp, "%s iface %s: rx %s tx %s bytes on the wire\n",
	    report_side_prefix(is_tx), f->name[0] != '\0' ? f->name : REPORT_NA,
	    report_fmt_u64(a, sizeof(a), f->has_counters, f->rx_bytes),
	    report_fmt_u64(b, sizeof(b), f->has_counters, f->tx_bytes));
}

/* -v: the context, each interrupt line, TCP segments vs packets. */
static void
report_detail_lines(FILE *fp, const struct gb_side *s, int is_tx)
{
	const struct gb_iface_figures *f = &s->iface;
	const struct gb_irq_line *l;
	const struct gb_tcp *t = &s->tcp;
	char a[REPORT_TOKLEN];
	unsigned i;

	if (s->context.has)
		context_text(fp, &s->context, f->name, report_side_prefix(is_tx));
	for (i = 0; i < f->nlines && i < GB_MAX_IRQ_LINES; i++) {
		l = &f->lines[i];
		fprintf(fp, "%s irq %s %s [%s]%s: %" PRIu64 " on cpu %s\n",
		    report_side_prefix(is_tx), l->name, l->chip, l->actions,
		    l->shared ? " shared" : "", l->count,
		    l->cpus[0] != '\0' ? l->cpus : "none");
	}
	if (!t->has)
		return;
	fprintf(fp, "%s tcp segs out %" PRIu64 " (data %" PRIu64 ") in %"
	    PRIu64 " (data %" PRIu64 "), advmss %" PRIu32 ", pmtu %" PRIu32
	    ", irq/seg %s\n", report_side_prefix(is_tx), t->segs_out,
	    t->data_segs_out, t->segs_in, t->data_segs_in, t->advmss,
	    t->pmtu, report_fmt_real(a, sizeof(a), f->has_irq_per_segment, 3,
	    f->irq_per_segment));
	if (t->has_limited && t->busy_us > 0)
		fprintf(fp, "%s tcp busy %.3f s: limited by rwnd %.1f%%, by "
		    "sndbuf %.1f%%\n", report_side_prefix(is_tx), t->busy_us / 1e6,
		    100.0 * (double)t->rwnd_limited_us / (double)t->busy_us,
		    100.0 * (double)t->sndbuf_limited_us / (double)t->busy_us);
}

/*
 * -v: the TOS byte and pacing rate when set, and each stream (with its
 * retransmits when its TCP_INFO was read), unless there are more than
 * REPORT_MAX_STREAM_LINES and the flow summary line says it for them.
 */
static void
report_stream_lines(FILE *fp, const struct gb_side *s, int is_tx, char unit)
{
	const struct gb_stream *g;
	const char *label;
	char a[REPORT_TOKLEN];
	unsigned i;
	double rate;

	if (s->tos > 0 || s->has_fq_rate) {
		fprintf(fp, "%s tos ", report_side_prefix(is_tx));
		if (s->tos >= 0)
			fprintf(fp, "0x%02x", (unsigned)s->tos);
		else
			fputs(REPORT_NA, fp);
		rate = units_rate((double)s->fq_rate * 8, unit, &label);
		if (s->has_fq_rate)
			fprintf(fp, ", max pacing rate %.4f %s", rate, label);
		fputc('\n', fp);
	}
	/* Past a screenful, the flow summary line stands for them. */
	if (s->nstreams > REPORT_MAX_STREAM_LINES && report_flows_shown(s))
		return;
	for (i = 0; i < s->nstreams && i < GB_MAX_STREAMS; i++) {
		g = &s->streams[i];
		rate = units_rate(result_mbps(g->bytes, g->seconds) * 1e6,
		    unit, &label);
		fprintf(fp, "%s stream %u: %" PRIu64 " bytes in %.2f s = %.4f "
		    "%s, cpu %s", report_side_prefix(is_tx), i, g->bytes,
		    g->seconds, rate, label, report_fmt_u64(a, sizeof(a),
		    g->cpu >= 0, (uint64_t)g->cpu));
		if (g->pinned >= 0)
			fprintf(fp, " (pinned %d)", g->pinned);
		fprintf(fp, ", %s", datapath_name(g->path));
		if (g->has_tcp)
			fprintf(fp, ", %" PRIu32 " retransmit%s", g->retrans,
			    g->retrans == 1 ? "" : "s");
		fputc('\n', fp);
	}
}

static void
report_warning_lines(FILE *fp, const struct gb_side *s, int is_tx)
{
	unsigned i;

	for (i = 0; i < s->nwarnings && i < GB_MAX_WARNINGS; i++)
		fprintf(fp, "%s warning: %s\n", report_side_prefix(is_tx),
		    s->warnings[i]);
}

/*
 * One side's lines; host 0 leaves out those of its host (CPU, interface),
 * which --bidir's reverse block shares with the forward one.
 */
static void
report_side(FILE *fp, const struct gb_result *r, int is_tx,
    const struct report_style *st, int host)
{
	const struct gb_side *s = is_tx ? &r->sender : &r->receiver;

	if (!s->has) {
		fprintf(fp, "%s %s figures unavailable (not reported by %s)\n",
		    report_side_prefix(is_tx), is_tx ? "sender" : "receiver",
		    r->peer);
		return;
	}
	/* This end's params line came as the test started. */
	if (!st->header_shown || is_tx != (r->local_is_sender != 0))
		report_header_line(fp, r, is_tx);
	report_sockbuf_line(fp, s, is_tx);
	report_bytes_line(fp, s, is_tx, st->unit);
	report_path_line(fp, s, is_tx);
	if (host) {
		report_cpu_line(fp, s, is_tx);
		report_iface_line(fp, s, is_tx);
	}
	if (r->params.udp && !r->params.rr) {
		report_udp_line(fp, r, s, is_tx);
		report_udp_cost_line(fp, r, is_tx);
	} else if (!r->params.udp)
		report_tcp_line(fp, s, is_tx);
	report_rr_lines(fp, r, s, is_tx);
	report_flows_line(fp, s, is_tx, st->unit);
	if (st->verbose >= 1) {
		report_verbose_lines(fp, s, is_tx);
		report_detail_lines(fp, s, is_tx);
		if (host)
			spread_text(fp, s, report_side_prefix(is_tx));
		report_stream_lines(fp, s, is_tx, st->unit);
	}
	if (s->capture.has)
		capture_text(fp, &s->capture, report_side_prefix(is_tx));
	profile_text(fp, &s->profile, report_side_prefix(is_tx));
	report_warning_lines(fp, s, is_tx);
}

/*
 * --bidir: a host's interrupts per packet by direction, where its IRQ
 * lines are per queue and say which (base/bidir.h), and what was left
 * out; else why not.
 */
static void
report_irq_split_line(FILE *fp, const struct gb_side *s, int is_tx)
{
	char rx[REPORT_TOKLEN], tx[REPORT_TOKLEN];
	struct bidir_irq b;

	if (!s->has)
		return;
	bidir_irq_split(&s->iface, &b);
	if (!b.has) {
		fprintf(fp, "%s irq by direction: n/a (%s)\n",
		    report_side_prefix(is_tx), b.note);
		return;
	}
	fprintf(fp, "%s irq by direction: rx %" PRIu64 " (%s irq/pkt), tx %"
	    PRIu64 " (%s irq/pkt)%s%s\n", report_side_prefix(is_tx),
	    b.rx_irqs, report_fmt_real(rx, sizeof(rx), b.has_rx, 3,
	    b.rx_per_packet), b.tx_irqs, report_fmt_real(tx, sizeof(tx),
	    b.has_tx, 3, b.tx_per_packet), b.note[0] != '\0' ? "; " : "",
	    b.note);
}

/*
 * --bidir: the reverse direction's block after the forward one, each
 * side with its params line (which says the way it went), without the
 * hosts' lines the forward block gave; then its own summary line.
 */
static void
report_text_reverse(FILE *fp, const struct gb_result *r,
    const struct report_style *st)
{
	struct report_style rst = *st;
	struct gb_result *v;

	if ((v = bidir_reverse_new(r)) == NULL) {
		fputs("gigebench: out of memory for the reverse direction's "
		    "report\n", fp);
		return;
	}
	rst.header_shown = 0;
	if (!st->quiet) {
		report_side(fp, v, 1, &rst, 0);
		report_side(fp, v, 0, &rst, 0);
		diag_text(fp, v);
	}
	report_summary_line(fp, v, st->unit);
	free(v);
}

void
report_text(FILE *fp, const struct gb_result *r,
    const struct report_style *st)
{
	if (!st->quiet) {
		report_side(fp, r, 1, st, 1);
		report_side(fp, r, 0, st, 1);
		if (r->params.bidir) {
			report_irq_split_line(fp, &r->sender, 1);
			report_irq_split_line(fp, &r->receiver, 0);
		}
		diag_text(fp, r);
	}
	if (r->params.rr)
		report_rr_summary(fp, r);
	else
		report_summary_line(fp, r, st->unit);
	if (r->params.bidir)
		report_text_reverse(fp, r, st);
}

const char *
report_fmt_pct(char *buf, size_t len, const struct gb_side *s)
{
	if (!s->has)
		return REPORT_NA;
	snprintf(buf, len, "%ld", lround(s->cpu.process_pct));
	return buf;
}

static const char *
report_fmt_irqpkt(char *buf, size_t len, const struct gb_side *s)
{
	return report_fmt_real(buf, len, s->has && s->iface.has_irq_per_packet,
	    3, s->iface.irq_per_packet);
}

/* -u: nuttcp's "lost / sent drop/pkt %loss", and the jitter. */
static void
report_summary_udp(FILE *fp, const struct gb_result *r)
{
	struct gb_udp_figures f;

	result_udp(r, &f);
	if (f.sent_known)
		fprintf(fp, "%" PRIu64 " / %" PRIu64 " drop/pkt %.2f %%loss "
		    "%.3f msJitter ", f.lost, f.sent, f.lost_pct, f.jitter_ms);
	else
		fprintf(fp, REPORT_NA " / " REPORT_NA " drop/pkt " REPORT_NA
		    " %%loss " REPORT_NA " msJitter ");
}

void
report_summary_line(FILE *fp, const struct gb_result *r, char unit)
{
	const struct gb_side *d = report_delivered(r);
	const struct gb_tcp *t = &r->sender.tcp;
	int has_tcp = r->sender.has && t->has;
	char tx[REPORT_TOKLEN], rx[REPORT_TOKLEN], re[REPORT_TOKLEN];
	char rtt[REPORT_TOKLEN], itx[REPORT_TOKLEN], irx[REPORT_TOKLEN];
	const char *label;
	double rate;

	rate = units_rate(d->mbps * 1e6, unit, &label);
	/* nuttcp's PERF_FMT_BRIEF, so scripts that parse it keep working. */
	fprintf(fp, "%10.4f MB / %6.2f sec = %9.4f %s %s %%TX %s %%RX ",
	    result_megabytes(d->bytes), d->seconds, rate, label,
	    report_fmt_pct(tx, sizeof(tx), &r->sender),
	    report_fmt_pct(rx, sizeof(rx), &r->receiver));
	if (r->params.udp)
		report_summary_udp(fp, r);
	else
		fprintf(fp, "%s retrans %s msRTT ",
		    report_fmt_u64(re, sizeof(re), has_tcp, t->retransmits),
		    report_fmt_real(rtt, sizeof(rtt), has_tcp, 2,
		    t->rtt_us / 1000.0));
	fprintf(fp, "%s irq/pkt-TX %s irq/pkt-RX",
	    report_fmt_irqpkt(itx, sizeof(itx), &r->sender),
	    report_fmt_irqpkt(irx, sizeof(irx), &r->receiver));
	report_summary_end(fp, r);
}

/* After nuttcp's fields, so that scripts that split the line still do. */
void
report_summary_end(FILE *fp, const struct gb_result *r)
{
	/* --bidir: which of this end's two lines this is. */
	if (r->params.bidir)
		fprintf(fp, " (bidir, %s)", r->local_is_sender ? "sent" :
		    "received");
	if (r->prov.title[0] != '\0')
		fprintf(fp, " [%s]", r->prov.title);
	if (r->prov.interrupted)
		fputs(" (interrupted)", fp);
	fputc('\n', fp);
}
