/*
 * report_iv.c: the interval line (out/report.h), one per -i slice:
 *
 *	[TX]   1.00-  2.00 sec      117.50 MB   985.6953 Mbps  RX   985.6012
 *	Mbps      0 retrans    412 cwnd    0.45 msRTT    0 %rwnd-lim   12
 *	%sndbuf-lim  host 51/98 %TX 47/93 %RX
 *
 * (one line): this end's MB and rate; on the client the listener's rate
 * of the same slice (its own clock's); the sender's TCP_INFO over the
 * slice; each end's host CPU, all CPUs / the busiest one (the listener's
 * lines: its own).  -u: the
 * sender's datagrams and the receiver's new losses and jitter.  --rr:
 * the transactions a second, the asker's latencies, and each end's cost
 * of a transaction.  A figure
 * an end could not read is "-"; a part no end has is left out.  And
 * the progress line's text, redrawn on a terminal while a test runs.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "base/units.h"
#include "out/report.h"

#define IV_TOKLEN	32

static double
iv_mbps(const struct gb_interval *iv)
{
	return result_mbps(iv->bytes, iv->end_s - iv->start_s);
}

static void
iv_udp(FILE *fp, const struct gb_interval *tx, const struct gb_interval *rx)
{
	uint64_t seen;

	if (tx != NULL && tx->has_udp)
		fprintf(fp, " %9" PRIu64 " dgrams", tx->datagrams);
	else if (rx != NULL && rx->has_udp)
		fprintf(fp, " %9" PRIu64 " dgrams", rx->datagrams);
	if (rx == NULL || !rx->has_udp)
		return;
	seen = rx->datagrams + rx->lost;
	fprintf(fp, " %7" PRIu64 " lost (%.2f %%) %.3f ms jitter", rx->lost,
	    seen > 0 ? 100.0 * (double)rx->lost / (double)seen : 0.0,
	    rx->jitter_ms);
}

static void
iv_tcp(FILE *fp, const struct gb_interval *tx)
{
	if (tx == NULL || !tx->has_tcp)
		return;
	fprintf(fp, " %6" PRIu32 " retrans %6" PRIu32 " cwnd %7.2f msRTT",
	    tx->retrans, tx->cwnd, tx->rtt_us / 1000.0);
	if (tx->has_limited)
		fprintf(fp, " %4.0f %%rwnd-lim %4.0f %%sndbuf-lim",
		    tx->rwnd_limited_pct, tx->sndbuf_limited_pct);
}

static const char *
iv_host_fmt(char *buf, size_t len, const struct gb_interval *iv)
{
	if (iv == NULL || !iv->has_host)
		return "-";
	snprintf(buf, len, "%.0f/%.0f", iv->host_busy_pct,
	    iv->host_max_cpu_pct);
	return buf;
}

/* Both ends' where both slices are here, else this end's alone. */
static void
iv_host(FILE *fp, const struct gb_interval *tx, const struct gb_interval *rx)
{
	char t[IV_TOKLEN], r[IV_TOKLEN];

	if ((tx == NULL || !tx->has_host) && (rx == NULL || !rx->has_host))
		return;
	fputs("  host", fp);
	if (tx != NULL)
		fprintf(fp, " %s %%TX", iv_host_fmt(t, sizeof(t), tx));
	if (rx != NULL)
		fprintf(fp, " %s %%RX", iv_host_fmt(r, sizeof(r), rx));
}

static double
iv_per_s(const struct gb_interval *iv)
{
	double s = iv->end_s - iv->start_s;

	return s > 0 ? (double)iv->transactions / s : 0;
}

/* v with prec decimals, or "-" (this line's unknown, report_fmt's "n/a"). */
static const char *
iv_real(char *buf, size_t len, int has, int prec, double v)
{
	if (!has)
		return "-";
	snprintf(buf, len, "%.*f", prec, v);
	return buf;
}

/*
 * --rr: what one of the slice's transactions cost an end: "TX 14.0/69.4
 * us 0.98 irq 2.00 sirq", process/host CPU, interrupts, NET_RX softirqs.
 */
static void
iv_cost(FILE *fp, const struct gb_cost *c, const char *end)
{
	char h[IV_TOKLEN], i[IV_TOKLEN], q[IV_TOKLEN];

	if (!c->has) {
		fprintf(fp, "%s -", end);
		return;
	}
	fprintf(fp, "%s %.1f/%s us %s irq %s sirq", end, c->cpu_us,
	    iv_real(h, sizeof(h), c->has_host, 1, c->host_us),
	    iv_real(i, sizeof(i), c->has_irq, 2, c->irq),
	    iv_real(q, sizeof(q), c->has_softirq, 2, c->softirq));
}

/*
 * --rr: the slice's transactions a second, the asker's P50, P99 and
 * maximum, the other end's rate, each end's host CPU and what a
 * transaction cost each end.
 */
static void
iv_rr(FILE *fp, const struct gb_interval *iv, const struct gb_interval *peer,
    int is_tx)
{
	const struct gb_interval *tx = is_tx ? iv : peer;	/* the asker */
	const struct gb_interval *rx = is_tx ? peer : iv;
	struct gb_cost ct, cr;

	fprintf(fp, "%s %6.2f-%6.2f sec %10.2f trans/s",
	    report_side_prefix(is_tx), iv->start_s, iv->end_s, iv_per_s(iv));
	if (tx != NULL && tx->has_latency)
		fprintf(fp, "  P50 %.1f us P99 %.1f us max %.1f us",
		    tx->p50_us, tx->p99_us, tx->max_us);
	if (peer != NULL && peer->has_rr)
		fprintf(fp, "  %s %10.2f trans/s", is_tx ? "RX" : "TX",
		    iv_per_s(peer));
	iv_host(fp, tx, rx);
	memset(&ct, 0, sizeof(ct));
	memset(&cr, 0, sizeof(cr));
	if (tx != NULL)
		result_iv_cost(tx, &ct);
	if (rx != NULL)
		result_iv_cost(rx, &cr);
	if (ct.has || cr.has) {
		fputs("  /trans", fp);
		if (tx != NULL)
			iv_cost(fp, &ct, " TX");
		if (rx != NULL)
			iv_cost(fp, &cr, tx != NULL ? "  RX" : " RX");
	}
	fputc('\n', fp);
}

void
report_interval_line(FILE *fp, const struct gb_interval *iv,
    const struct gb_interval *peer, int is_tx, char unit)
{
	const struct gb_interval *tx = is_tx ? iv : peer;
	const struct gb_interval *rx = is_tx ? peer : iv;
	char mb[IV_TOKLEN];
	const char *label;
	double rate;

	if (iv->has_rr) {
		iv_rr(fp, iv, peer, is_tx);
		return;
	}
	rate = units_rate(iv_mbps(iv) * 1e6, unit, &label);
	fprintf(fp, "%s %6.2f-%6.2f sec %11s MB %10.4f %s",
	    report_side_prefix(is_tx), iv->start_s, iv->end_s,
	    units_format_mb(iv->bytes, mb, sizeof(mb)), rate, label);
	if (peer != NULL) {
		rate = units_rate(iv_mbps(peer) * 1e6, unit, &label);
		fprintf(fp, "  %s %10.4f %s", is_tx ? "RX" : "TX", rate,
		    label);
	}
	iv_udp(fp, tx, rx);
	iv_tcp(fp, tx);
	iv_host(fp, tx, rx);
	if (iv->omitted)
		fputs(" (omitted)", fp);
	fputc('\n', fp);
}

void
report_progress_text(char *buf, size_t len, const struct gb_progress *pg,
    char unit)
{
	char mb[IV_TOKLEN], total[IV_TOKLEN] = "";
	const char *label;
	double rate;
	long el = (long)(pg->elapsed_s + 0.5), all = (long)(pg->total_s + 0.5);

	rate = units_rate(pg->mbps * 1e6, unit, &label);
	if (pg->total_s > 0)
		snprintf(total, sizeof(total), "/%ld:%02ld", all / 60, all % 60);
	snprintf(buf, len, "%ld:%02ld%s elapsed, %.4f %s now, %s MB", el / 60,
	    el % 60, total, rate, label, units_format_mb(pg->bytes, mb,
	    sizeof(mb)));
}
