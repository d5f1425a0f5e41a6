/*
 * report_rr.c: --rr's text (out/report.h): each end's transactions and
 * what one cost it, the asking end's latencies, and the summary line in
 * the spirit of the throughput one:
 *
 *	24691.2000 trans/s P50 38.0 us P99 71.0 us 42 %TX 40 %RX
 *	    0.980 irq/trans-TX 0.990 irq/trans-RX
 *
 * (one line).  Latencies are printed in microseconds; a percentile is
 * within 3.125 % above its sample (lathist.h).  "n/a" for what an end
 * did not report, never 0.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>

#include "base/lathist.h"
#include "out/report.h"

#define RR_NA		"n/a"
#define RR_TOKLEN	32

static const char *
rr_real(char *buf, size_t len, int has, int prec, double v)
{
	if (!has)
		return RR_NA;
	snprintf(buf, len, "%.*f", prec, v);
	return buf;
}

static double
rr_us(const struct lathist *h, double pct)
{
	return (double)lathist_percentile(h, pct) / 1000.0;
}

/* This end's transactions and what one cost it. */
void
report_rr_lines(FILE *fp, const struct gb_result *r, const struct gb_side *s,
    int is_tx)
{
	const struct gb_params *p = &r->params;
	const struct gb_udp_cost *c;
	struct gb_rr_figures f;
	char irq[RR_TOKLEN], sirq[RR_TOKLEN], host[RR_TOKLEN];
	const char *pre = report_side_prefix(is_tx);

	if (!s->rr.has)
		return;
	result_rr(r, &f);
	fprintf(fp, "%s rr %" PRIu64 " transactions in %.2f s = %.2f /s, "
	    "request %" PRIu32 " B, answer %" PRIu32 " B, burst %" PRIu32 "\n",
	    pre, s->rr.transactions, s->seconds, s->seconds > 0 ?
	    (double)s->rr.transactions / s->seconds : 0,
	    params_rr_size(p->req_size), params_rr_size(p->resp_size),
	    params_rr_size(p->rr_burst));
	c = is_tx ? &f.ask : &f.answer;
	if (c->has)
		fprintf(fp, "%s per transaction: %.3f us process cpu, %s us "
		    "host cpu, %s irq, %s NET_RX softirq\n", pre, c->cpu_us,
		    rr_real(host, sizeof(host), c->has_host, 3, c->host_us),
		    rr_real(irq, sizeof(irq), c->has_irq, 4,
		    c->irq), rr_real(sirq, sizeof(sirq), c->has_softirq, 4,
		    c->softirq));
	if (!is_tx || !r->has_latency || r->latency.count == 0)
		return;
	fprintf(fp, "%s latency min %.1f us, mean %.1f, P50 %.1f, P90 %.1f, "
	    "P99 %.1f, P99.9 %.1f, max %.1f us (%" PRIu64 " samples, "
	    "buckets %.3f %% wide)\n", pre, (double)r->latency.min / 1000.0,
	    lathist_mean(&r->latency) / 1000.0, rr_us(&r->latency, 50),
	    rr_us(&r->latency, 90), rr_us(&r->latency, 99),
	    rr_us(&r->latency, 99.9), (double)r->latency.max / 1000.0,
	    r->latency.count, 100.0 / LATHIST_SUB_COUNT);
}

static const char *
rr_pct(char *buf, size_t len, const struct gb_side *s)
{
	if (!s->has)
		return RR_NA;
	snprintf(buf, len, "%ld", lround(s->cpu.process_pct));
	return buf;
}

void
report_rr_summary(FILE *fp, const struct gb_result *r)
{
	struct gb_rr_figures f;
	char tx[RR_TOKLEN], rx[RR_TOKLEN], p50[RR_TOKLEN], p99[RR_TOKLEN];
	char itx[RR_TOKLEN], irx[RR_TOKLEN];
	int lat = r->has_latency && r->latency.count > 0;

	result_rr(r, &f);
	fprintf(fp, "%10.4f trans/s P50 %s us P99 %s us %s %%TX %s %%RX "
	    "%s irq/trans-TX %s irq/trans-RX", f.per_s,
	    rr_real(p50, sizeof(p50), lat, 1, lat ? rr_us(&r->latency, 50) : 0),
	    rr_real(p99, sizeof(p99), lat, 1, lat ? rr_us(&r->latency, 99) : 0),
	    rr_pct(tx, sizeof(tx), &r->sender),
	    rr_pct(rx, sizeof(rx), &r->receiver),
	    rr_real(itx, sizeof(itx), f.ask.has_irq, 3, f.ask.irq),
	    rr_real(irx, sizeof(irx), f.answer.has_irq, 3, f.answer.irq));
	if (r->prov.title[0] != '\0')
		fprintf(fp, " [%s]", r->prov.title);
	if (r->prov.interrupted)
		fputs(" (interrupted)", fp);
	fputc('\n', fp);
}
