/*
 * diag_rr.c: what the diagnosis (base/diag.h) says of a --rr test, in
 * place of the stream's window and goodput findings, which mean nothing
 * when a transaction moves a few bytes:
 *
 *	irq_per_transaction	an end takes an interrupt (or more) for each
 *				transaction: no coalescing, and what that
 *				costs in host CPU a transaction there
 *	wakeup_latency		the median latency is high while both hosts
 *				are mostly idle: the CPUs' wake-ups (C-states,
 *				a VM's halt) more than the network or the ends
 *	rr_busy_end		the median latency is high and an end's
 *				busiest CPU is not idle: that end (the busier),
 *				its CPU, and the interrupt line (queue) that
 *				took most of its interrupts, with its CPUs
 *	rr_loss			-u: requests without an answer within the
 *				timeout, and, from both ends' counts, how
 *				many went on the way out, at the listener and
 *				on the way back
 *
 * From the figures the result has; no finding from a figure not known.
 */
#include <inttypes.h>
#include <stdio.h>

#include "diag_internal.h"

#define DIAG_RR_IRQ		1.0	/* interrupts a transaction */
#define DIAG_RR_SLOW_US		50.0	/* a median this high ... */
#define DIAG_RR_IDLE_PCT	50.0	/* ... with each busiest CPU below */

static double
diag_rr_p50_us(const struct gb_result *r)
{
	if (!r->has_latency || r->latency.count == 0)
		return -1;
	return (double)lathist_percentile(&r->latency, 50) / 1e3;
}

static void
diag_rr_irq(struct gb_result *r, const struct gb_cost *c,
    const char *side, double p50)
{
	char host[DIAG_TOKLEN] = "", lat[DIAG_TOKLEN] = "";

	if (!c->has || !c->has_irq || !(c->irq >= DIAG_RR_IRQ))
		return;
	if (c->has_host)
		snprintf(host, sizeof(host), "; a transaction costs %.1f us of "
		    "host CPU there", c->host_us);
	if (p50 >= 0)
		snprintf(lat, sizeof(lat), " at a P50 of %.1f us", p50);
	diag_add(r, "irq_per_transaction", side, "%.2f interrupts per "
	    "transaction%s: no interrupt coalescing%s (ethtool -C rx-usecs "
	    "trades latency for CPU)", c->irq, lat, host);
}

/* a - b, or 0 where a duplicated datagram made b the larger. */
static uint64_t
diag_rr_less(uint64_t a, uint64_t b)
{
	return a > b ? a - b : 0;
}

/*
 * -u: the lost requests.  The listener's counts say where: requests it
 * never took went on the way out; those it took but could not answer
 * stayed with it; answers it sent that came back neither in time nor
 * late went on the way back.
 */
static void
diag_rr_loss(struct gb_result *r)
{
	const struct gb_rr *a = &r->sender.rr, *b = &r->receiver.rr;
	char where[2 * DIAG_TOKLEN] = "";

	if (!r->sender.has || !a->has_udp || a->lost == 0 || a->requests == 0)
		return;
	if (r->receiver.has && b->has_udp)
		snprintf(where, sizeof(where), ": %" PRIu64 " did not reach "
		    "the listener, it did not answer %" PRIu64 ", %" PRIu64
		    " answers did not come back", diag_rr_less(a->requests,
		    b->requests), diag_rr_less(b->requests, b->transactions),
		    diag_rr_less(b->transactions, a->transactions + a->late));
	diag_add(r, "rr_loss", "path", "%" PRIu64 " of %" PRIu64 " requests "
	    "(%.3f %%) had no answer within %" PRIu32 " ms (%" PRIu64 " came "
	    "later)%s; each held its slot for the whole timeout", a->lost,
	    a->requests, 100.0 * (double)a->lost / (double)a->requests,
	    a->timeout_ms, a->late, where);
}

/*
 * The interrupt line that took most of an end's interrupts, as a clause:
 * "; its queue eth0-TxRx-1 (IRQ 41) took 96 % of the irqs, on CPU 1".
 */
static void
diag_rr_queue(const struct gb_side *s, char *buf, size_t len)
{
	const struct gb_iface_figures *f = &s->iface;
	const struct gb_irq_line *top = NULL;
	unsigned i;

	*buf = '\0';
	if (!f->has_interrupts || f->interrupts == 0)
		return;
	for (i = 0; i < f->nlines; i++)
		if (top == NULL || f->lines[i].count > top->count)
			top = &f->lines[i];
	if (top == NULL || top->count == 0)
		return;
	snprintf(buf, len, "; its queue %.16s (IRQ %.6s) took %.0f %% of the "
	    "irqs, on CPU %.10s", top->actions, top->name,
	    100.0 * (double)top->count / (double)f->interrupts, top->cpus);
}

/*
 * A high median with a CPU that is not idle: the busier end's busiest
 * CPU, how much of the host is interrupts and softirqs there, the
 * process's own share, and the queue that took its interrupts.  At most
 * 219 characters, as the finding's text holds 223.
 */
static void
diag_rr_busy(struct gb_result *r, const struct gb_rr_figures *f, double p50)
{
	const struct gb_side *a = &r->sender, *b = &r->receiver;
	const struct gb_side *s;
	const char *side, *other;
	char q[4 * DIAG_TOKLEN];

	s = a->host_cpu.max_cpu_busy_pct >= b->host_cpu.max_cpu_busy_pct ?
	    a : b;
	side = s == a ? "sender" : "receiver";
	other = s == a ? "receiver" : "sender";
	diag_rr_queue(s, q, sizeof(q));
	diag_add(r, "rr_busy_end", side, "P50 %.0f us, %.0f trans/s: %s's "
	    "cpu%d is %.0f %% busy (%s's busiest %.0f %%; host %.0f %% irq, "
	    "%.0f %% softirq, process %.0f %%)%s", p50, f->per_s, side,
	    s->host_cpu.max_cpu, s->host_cpu.max_cpu_busy_pct, other,
	    (s == a ? b : a)->host_cpu.max_cpu_busy_pct,
	    s->host_cpu.irq_pct, s->host_cpu.softirq_pct,
	    s->cpu.process_pct, q);
}

void
diag_rr(struct gb_result *r)
{
	const struct gb_host_cpu *a = &r->sender.host_cpu;
	const struct gb_host_cpu *b = &r->receiver.host_cpu;
	struct gb_rr_figures f;
	double p50 = diag_rr_p50_us(r);

	result_rr(r, &f);
	if (!f.has)
		return;
	diag_rr_irq(r, &f.ask, "sender", p50);
	diag_rr_irq(r, &f.answer, "receiver", p50);
	diag_rr_loss(r);
	if (p50 < DIAG_RR_SLOW_US || !r->sender.has || !r->receiver.has ||
	    !a->has || !b->has)
		return;
	if (a->max_cpu_busy_pct >= DIAG_RR_IDLE_PCT ||
	    b->max_cpu_busy_pct >= DIAG_RR_IDLE_PCT) {
		diag_rr_busy(r, &f, p50);
		return;
	}
	diag_add(r, "wakeup_latency", "both", "P50 %.1f us at %.0f "
	    "transactions/s while both hosts are mostly idle (busiest CPU "
	    "%.0f %% and %.0f %%): the CPUs waking up for each transaction "
	    "(C-states, a virtual machine's halt) more than the network; "
	    "-P 2 or --rr-burst keep them busy and show the difference", p50,
	    f.per_s, a->max_cpu_busy_pct, b->max_cpu_busy_pct);
}
