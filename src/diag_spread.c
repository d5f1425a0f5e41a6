/*
 * diag_spread.c: the findings on the spread (base/diag.h): the test's
 * interrupts piled on one queue's line, one CPU's softirq work the
 * bottleneck while the host has room, and an interface with more queues
 * than interrupt lines.  Part of the diagnosis (diag.c runs it); pure
 * like the rest.  A line shared with another device is diag_irq.c's
 * shared_irq, not repeated here.
 *
 * Loopback and veth have no interrupt lines, and their softirqs run on
 * the CPU of the thread that sends: none of these can be said of them.
 * The lines and CPUs may be the peer's, as they came over the network:
 * strings are read within their arrays.
 */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "base/diag.h"
#include "base/irqaction.h"
#include "diag_internal.h"

/*
 * One queue's line took at least this share of the interface's
 * interrupts, with two queue lines or more and two streams or more: the
 * flows went to one queue (RSS hashed their addresses and ports there,
 * or the steering put them there).  Interrupts are not packets (NAPI
 * polls a busy queue with its interrupt off, coalescing merges them), so
 * a share is a rough one; but at 75 % the other queues were nearly idle.
 */
#define DIAG_PILE_SHARE_PCT	75.0
/* Fewer interrupts than this say nothing of how they spread. */
#define DIAG_PILE_MIN_IRQS	200
/*
 * A CPU at least this busy, at least half of it softirq, while the
 * host's average is at most two thirds of it: that CPU's softirq work
 * (its queues' packets) held the test, not the host.
 */
#define DIAG_SOFTIRQ_BUSY_PCT	90.0
#define DIAG_SOFTIRQ_HOST_SHARE	(2.0 / 3.0)

static const char *diag_spread_ifname(char *, size_t,
		    const struct gb_side *);
static const struct gb_irq_line *diag_spread_top(const struct gb_side *,
		    unsigned *);
static void	 diag_spread_where(char *, size_t, const struct gb_irq_line *,
		    const char *);
static const struct gb_spread_cpu *diag_spread_hot(const struct gb_spread *);

/* The interface's name ("" when unknown) into buf. */
static const char *
diag_spread_ifname(char *buf, size_t len, const struct gb_side *s)
{
	snprintf(buf, len, "%.*s",
	    (int)strnlen(s->iface.name, sizeof(s->iface.name)), s->iface.name);
	return buf;
}

/*
 * The queue line (irqaction.h) with the most interrupts, and in *nqueue
 * the interface's queue lines: those reported, and those beyond the
 * GB_MAX_IRQ_LINES a result holds (the least busy, taken for queues).
 */
static const struct gb_irq_line *
diag_spread_top(const struct gb_side *s, unsigned *nqueue)
{
	const struct gb_iface_figures *f = &s->iface;
	const struct gb_irq_line *l, *top = NULL;
	unsigned i, n = f->nlines < GB_MAX_IRQ_LINES ? f->nlines :
	    GB_MAX_IRQ_LINES;
	char ifname[GB_IFNAME_LEN + 1];

	diag_spread_ifname(ifname, sizeof(ifname), s);
	*nqueue = 0;
	for (i = 0; i < n; i++) {
		l = &f->lines[i];
		if (!irqaction_is_queue(l->actions, sizeof(l->actions),
		    ifname))
			continue;
		(*nqueue)++;
		if (top == NULL || l->count > top->count)
			top = l;
	}
	if (f->irq_lines > 0 && (unsigned)f->irq_lines > n)
		*nqueue += (unsigned)f->irq_lines - n;
	return top;
}

/* "eth0-TxRx-3, IRQ 134, on cpu3" */
static void
diag_spread_where(char *buf, size_t len, const struct gb_irq_line *l,
    const char *ifname)
{
	char label[DIAG_TOKLEN], cpu[DIAG_TOKLEN];

	irqaction_label(l->actions, sizeof(l->actions), ifname, label,
	    sizeof(label));
	if (l->top_cpu >= 0)
		snprintf(cpu, sizeof(cpu), ", on cpu%d", l->top_cpu);
	else
		cpu[0] = '\0';
	snprintf(buf, len, "%s%sIRQ %.*s%s", label, label[0] != '\0' ?
	    ", " : "", (int)strnlen(l->name, sizeof(l->name)), l->name, cpu);
}

void
diag_irq_pile(struct gb_result *r, const struct gb_side *s,
    const char *side)
{
	const struct gb_iface_figures *f = &s->iface;
	const struct gb_spread *sp = &s->spread;
	const struct gb_irq_line *top;
	unsigned nqueue;
	char name[GB_IFNAME_LEN + 1], where[3 * DIAG_TOKLEN];

	if (!s->has || !f->has_interrupts ||
	    f->interrupts < DIAG_PILE_MIN_IRQS || diag_streams(r) < 2)
		return;
	/* One rx queue has nothing to hash over: few_vectors' business. */
	if (sp->has && sp->has_queues && sp->rx_queues < 2)
		return;
	if ((top = diag_spread_top(s, &nqueue)) == NULL || nqueue < 2 ||
	    !top->has_share || !(top->share_pct >= DIAG_PILE_SHARE_PCT))
		return;
	diag_spread_ifname(name, sizeof(name), s);
	diag_spread_where(where, sizeof(where), top, name);
	diag_add(r, "irq_pile", side, "1 of %u queue lines took %.0f %% of "
	    "%s's interrupts (%s) with -P %d: the flows hashed to one queue",
	    nqueue, top->share_pct, name[0] != '\0' ? name : "the interface",
	    where, diag_streams(r));
}

/*
 * The busiest kept CPU at DIAG_SOFTIRQ_BUSY_PCT or more whose softirq
 * share is at least half its busy share; NULL when none is.
 */
static const struct gb_spread_cpu *
diag_spread_hot(const struct gb_spread *sp)
{
	const struct gb_spread_cpu *c, *hot = NULL;
	unsigned i, n = sp->ncpu < GB_SPREAD_MAX_CPUS ? sp->ncpu :
	    GB_SPREAD_MAX_CPUS;

	for (i = 0; i < n; i++) {
		c = &sp->cpu[i];
		if (c->busy_pct >= DIAG_SOFTIRQ_BUSY_PCT &&
		    2.0 * c->softirq_pct >= c->busy_pct &&
		    (hot == NULL || c->busy_pct > hot->busy_pct))
			hot = c;
	}
	return hot;
}

void
diag_cpu_softirq(struct gb_result *r, const struct gb_side *s,
    const char *side)
{
	const struct gb_iface_figures *f = &s->iface;
	const struct gb_host_cpu *h = &s->host_cpu;
	const struct gb_spread_cpu *c;
	char rx[DIAG_TOKLEN] = "";

	if (!s->has || !s->spread.has || !h->has || s->spread.ncpus < 2 ||
	    !f->has_interrupts || f->irq_lines <= 0)
		return;
	if ((c = diag_spread_hot(&s->spread)) == NULL ||
	    h->busy_pct > DIAG_SOFTIRQ_HOST_SHARE * c->busy_pct)
		return;
	if (c->has_softirqs && f->has_softirq && f->net_rx_softirqs > 0 &&
	    c->net_rx <= f->net_rx_softirqs)
		snprintf(rx, sizeof(rx), " (%.0f %% of the NET_RX softirqs)",
		    100.0 * (double)c->net_rx / (double)f->net_rx_softirqs);
	diag_add(r, "cpu_softirq_bound", side, "cpu%d %.0f %% busy, %.0f %% "
	    "softirq%s, host %.0f %%: the bottleneck, its queues' packets "
	    "on one CPU (RSS, RPS, IRQ affinity)", c->cpu, c->busy_pct,
	    c->softirq_pct, rx, h->busy_pct);
}

void
diag_few_vectors(struct gb_result *r, const struct gb_side *s,
    const char *side)
{
	const struct gb_iface_figures *f = &s->iface;
	const struct gb_spread *sp = &s->spread;
	char name[GB_IFNAME_LEN + 1];

	if (!s->has || !sp->has || !sp->has_queues || f->irq_lines < 1 ||
	    sp->rx_queues <= (uint32_t)f->irq_lines)
		return;
	diag_spread_ifname(name, sizeof(name), s);
	if (f->irq_lines == 1)
		diag_add(r, "few_vectors", side, "%s has %" PRIu32 " rx queues "
		    "but 1 interrupt line: they all share it, and its CPU",
		    name[0] != '\0' ? name : "the interface", sp->rx_queues);
	else
		diag_add(r, "few_vectors", side, "%s has %" PRIu32 " rx queues "
		    "but %d interrupt lines: queues share a line, and its CPU "
		    "(ethtool -l, MSI-X vectors)", name[0] != '\0' ? name :
		    "the interface", sp->rx_queues, f->irq_lines);
}
