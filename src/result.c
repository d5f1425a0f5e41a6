/*
 * result.c: the few figures derived from a struct gb_result after both
 * sides are known.  Units as ttcp and nuttcp: Mbps is 10^6 bit/s, MB is
 * 2^20 bytes.  Pure arithmetic; no I/O, no formatting.
 */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "base/result.h"

double
result_mbps(uint64_t bytes, double seconds)
{
	/* Also rejects NaN: a rate over no time is no rate. */
	if (!(seconds > 0))
		return 0;
	return (double)bytes * 8 / seconds / 1e6;
}

double
result_megabytes(uint64_t bytes)
{
	return (double)bytes / (1024.0 * 1024.0);
}

static double
per_second(uint64_t n, double seconds)
{
	return seconds > 0 ? (double)n / seconds : 0;
}

static void
end_cost(const struct gb_side *s, uint64_t n, int is_tx,
    struct gb_cost *c)
{
	const struct gb_iface_figures *f = &s->iface;

	if (!s->has || n == 0)
		return;
	c->has = 1;
	c->cpu_us = (s->cpu.user_s + s->cpu.sys_s) * 1e6 / (double)n;
	c->has_host = s->host_cpu.has;
	c->host_us = s->host_cpu.has ? s->host_cpu.busy_pct / 100 *
	    s->host_cpu.ncpus * s->seconds * 1e6 / (double)n : 0;
	if ((c->has_irq = f->has_interrupts))
		c->irq = (double)f->interrupts / (double)n;
	if ((c->has_softirq = f->has_softirq))
		c->softirq = (double)(is_tx ? f->net_tx_softirqs :
		    f->net_rx_softirqs) / (double)n;
}

void
result_rr(const struct gb_result *r, struct gb_rr_figures *f)
{
	const struct gb_side *ask = &r->sender, *ans = &r->receiver;
	const struct gb_side *d = ask->has && ask->rr.has ? ask : ans;

	memset(f, 0, sizeof(*f));
	if (!d->has || !d->rr.has)
		return;
	f->has = 1;
	f->transactions = d->rr.transactions;
	f->per_s = per_second(f->transactions, d->seconds);
	if (ask->has && ask->rr.has)
		end_cost(ask, ask->rr.transactions, 0, &f->ask);
	if (ans->has && ans->rr.has)
		end_cost(ans, ans->rr.transactions, 0, &f->answer);
}

void
result_iv_cost(const struct gb_interval *iv, struct gb_cost *c)
{
	double n = (double)iv->transactions;

	memset(c, 0, sizeof(*c));
	if (!iv->has_rr || iv->transactions == 0 || !iv->has_proc)
		return;
	c->has = 1;
	c->cpu_us = iv->proc_cpu_s * 1e6 / n;
	c->has_host = iv->has_host;
	c->host_us = iv->has_host ? iv->host_busy_pct / 100 *
	    iv->host_ncpus * (iv->end_s - iv->start_s) * 1e6 / n : 0;
	if ((c->has_irq = iv->has_irq))
		c->irq = (double)iv->interrupts / n;
	if ((c->has_softirq = iv->has_softirq))
		c->softirq = (double)iv->net_rx_softirqs / n;
	/* Figures no host makes (a peer's) give no cost, never an inf. */
	if (!isfinite(c->cpu_us) || !isfinite(c->host_us))
		memset(c, 0, sizeof(*c));
}

void
result_udp(const struct gb_result *r, struct gb_udp_figures *f)
{
	const struct gb_side *tx = &r->sender, *rx = &r->receiver;
	int known = tx->has && tx->udp.has;
	uint64_t base;

	memset(f, 0, sizeof(*f));
	if (!(known || (rx->has && rx->udp.has)))
		return;
	f->has = 1;
	f->sent_known = known;
	f->sent = known ? tx->udp.datagrams : 0;
	f->tx_pps = known ? per_second(tx->udp.datagrams, tx->seconds) : 0;
	if (rx->has && rx->udp.has) {
		f->received = rx->udp.datagrams;
		f->rx_pps = per_second(rx->udp.datagrams, rx->seconds);
		f->jitter_ms = rx->udp.jitter_ms;
		f->lost = !known ? rx->udp.gaps : f->sent > f->received ?
		    f->sent - f->received : 0;
	} else if (known) {
		f->lost = f->sent;	/* the receiver's count never came */
	}
	base = known ? f->sent : f->received + f->lost;
	f->lost_pct = base > 0 ? 100.0 * (double)f->lost / (double)base : 0;
	if (known)
		end_cost(tx, f->sent, 1, &f->tx);
	end_cost(rx, f->received, 0, &f->rx);
}
