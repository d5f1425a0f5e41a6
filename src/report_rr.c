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
#include <stdio.h>

#include "base/lathist.h"
#include "out/report.h"
#include "report_fmt.h"

static double
rr_us(const struct lathist *h, double pct)
{
	return (double)lathist_percentile(h, pct) / 1000.0;
}

/*
 * -u: what became of the requests.  The asker's "lost" are the requests
 * given up after the timeout; "late" the answers that came after it,
 * counted apart and not as transactions.
 */
static void
report_rr_udp_line(FILE *fp, const struct gb_side *s, const char *pre)
{
	const struct gb_rr *t = &s->rr;

	if (!t->has_udp)
		return;
	if (t->timeout_ms != 0)
		fprintf(fp, "%s rr udp %" PRIu64 " requests: %" PRIu64
		    " answered, %" PRIu64 " lost (no answer within %" PRIu32
		    " ms), %" PRIu64 " late, %" PRIu64 " stray, %" PRIu64
		    " unsent\n", pre, t->requests, t->transactions, t->lost,
		    t->timeout_ms, t->late, t->stray, t->unsent);
	else
		fprintf(fp, "%s rr udp %" PRIu64 " requests taken, %" PRIu64
		    " answered, %" PRIu64 " unsent, %" PRIu64 " stray (not "
		    "answered)\n", pre, t->requests, t->transactions,
		    t->unsent, t->stray);
}

/* This end's transactions and what one cost it. */
void
report_rr_lines(FILE *fp, const struct gb_result *r, const struct gb_side *s,
    int is_tx)
{
	const struct gb_params *p = &r->params;
	const struct gb_cost *c;
	struct gb_rr_figures f;
	char irq[REPORT_TOKLEN], sirq[REPORT_TOKLEN], host[REPORT_TOKLEN];
	const char *pre = report_side_prefix(is_tx);

	if (!s->rr.has)
		return;
	result_rr(r, &f);
	fprintf(fp, "%s rr %" PRIu64 " transactions in %.2f s = %.2f /s, "
	    "request %" PRIu32 " B, answer %" PRIu32 " B, burst %" PRIu32,
	    pre, s->rr.transactions, s->seconds, s->seconds > 0 ?
	    (double)s->rr.transactions / s->seconds : 0,
	    params_rr_size(p->req_size), params_rr_size(p->resp_size),
	    params_rr_size(p->rr_burst));
	if (p->crr)	/* one a transaction: a figure of its own all the same */
		fprintf(fp, ", %" PRIu64 " connections", s->rr.connections);
	fputc('\n', fp);
	report_rr_udp_line(fp, s, pre);
	c = is_tx ? &f.ask : &f.answer;
	if (c->has)
		fprintf(fp, "%s per transaction: %.3f us process cpu, %s us "
		    "host cpu, %s irq, %s NET_RX softirq\n", pre, c->cpu_us,
		    report_fmt_real(host, sizeof(host), c->has_host, 3,
		    c->host_us), report_fmt_real(irq, sizeof(irq), c->has_irq,
		    4, c->irq), report_fmt_real(sirq, sizeof(sirq),
		    c->has_softirq, 4, c->softirq));
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

/* -u: " 3 / 9000 lost/req 0 late 100 msTimeout", after the irq fields. */
static void
report_rr_summary_udp(FILE *fp, const struct gb_result *r)
{
	const struct gb_rr *t = &r->sender.rr;

	if (r->sender.has && t->has_udp && t->timeout_ms != 0)
		fprintf(fp, " %" PRIu64 " / %" PRIu64 " lost/req %" PRIu64
		    " late %" PRIu32 " msTimeout", t->lost, t->requests,
		    t->late, t->timeout_ms);
	else
		fprintf(fp, " " REPORT_NA " / " REPORT_NA " lost/req "
		    REPORT_NA " late %" PRIu32 " msTimeout",
		    params_rr_timeout_ms(r->params.rr_timeout_ms));
}

void
report_rr_summary(FILE *fp, const struct gb_result *r)
{
	struct gb_rr_figures f;
	char tx[REPORT_TOKLEN], rx[REPORT_TOKLEN];
	char p50[REPORT_TOKLEN], p99[REPORT_TOKLEN];
	char itx[REPORT_TOKLEN], irx[REPORT_TOKLEN];
	int lat = r->has_latency && r->latency.count > 0;

	result_rr(r, &f);
	fprintf(fp, "%10.4f trans/s P50 %s us P99 %s us %s %%TX %s %%RX "
	    "%s irq/trans-TX %s irq/trans-RX", f.per_s,
	    report_fmt_real(p50, sizeof(p50), lat, 1, rr_us(&r->latency, 50)),
	    report_fmt_real(p99, sizeof(p99), lat, 1, rr_us(&r->latency, 99)),
	    report_fmt_pct(tx, sizeof(tx), &r->sender),
	    report_fmt_pct(rx, sizeof(rx), &r->receiver),
	    report_fmt_real(itx, sizeof(itx), f.ask.has_irq, 3, f.ask.irq),
	    report_fmt_real(irx, sizeof(irx), f.answer.has_irq, 3,
	    f.answer.irq));
	if (r->params.udp)
		report_rr_summary_udp(fp, r);
	report_summary_end(fp, r);
}
