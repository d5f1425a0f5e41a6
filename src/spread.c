/*
 * spread.c: the per-CPU figures of a test's spread (host/spread.h).
 *
 * This file owns which CPUs a spread holds and what each says: CPUs
 * are matched by number across the two /proc/stat samples (hotplug may
 * take one away or bring one in, which then is not measured), and
 * across the two /proc/softirqs samples, whose header names every
 * possible CPU while /proc/stat has the online ones.  A host with more
 * CPUs than a result holds keeps its busiest: a bottleneck is a busy
 * CPU, never an idle one.  It reads no file and keeps no sample.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "host/spread.h"

static void	spread_softirqs(const struct irqstat_softirq *,
		    const struct irqstat_softirq *, struct gb_spread_cpu *);
static void	spread_keep(struct gb_spread *, const struct gb_spread_cpu *);
static int	spread_id_cmp(const void *, const void *);

/* Its NET_RX and NET_TX over the test, when both samples have them. */
static void
spread_softirqs(const struct irqstat_softirq *b,
    const struct irqstat_softirq *a, struct gb_spread_cpu *c)
{
	uint64_t	brx, btx, arx, atx;

	c->has_softirqs = 0;
	c->net_rx = c->net_tx = 0;
	if (c->cpu < 0 ||
	    irqstat_softirq_cpu(b, (unsigned)c->cpu, &brx, &btx) == -1 ||
	    irqstat_softirq_cpu(a, (unsigned)c->cpu, &arx, &atx) == -1)
		return;
	c->has_softirqs = 1;
	c->net_rx = arx > brx ? arx - brx : 0;
	c->net_tx = atx > btx ? atx - btx : 0;
}

/*
 * Keep c if there is room, else in place of the least busy kept when it
 * is busier.  cpu[] stays in the order CPUs came (ascending) until the
 * array is full; spread_cpus() sorts it again at the end.
 */
static void
spread_keep(struct gb_spread *out, const struct gb_spread_cpu *c)
{
	unsigned	i, least = 0;

	if (out->ncpu < GB_SPREAD_MAX_CPUS) {
		out->cpu[out->ncpu++] = *c;
		return;
	}
	for (i = 1; i < out->ncpu; i++)
		if (out->cpu[i].busy_pct < out->cpu[least].busy_pct ||
		    (out->cpu[i].busy_pct == out->cpu[least].busy_pct &&
		    out->cpu[i].cpu > out->cpu[least].cpu))
			least = i;
	/* Ids ascend, so c loses a tie to any CPU kept before it. */
	if (c->busy_pct > out->cpu[least].busy_pct)
		out->cpu[least] = *c;
}

static int
spread_id_cmp(const void *x, const void *y)
{
	const struct gb_spread_cpu *a = x, *b = y;

	return a->cpu < b->cpu ? -1 : a->cpu > b->cpu;
}

void
spread_cpus(const struct cpustat *b, const struct cpustat *a,
    const struct irqstat_softirq *sb, const struct irqstat_softirq *sa,
    struct gb_spread *out)
{
	struct gb_host_cpu	pct;
	struct gb_spread_cpu	c;
	size_t			i = 0, j = 0;

	out->ncpus = out->ncpu = 0;
	memset(out->cpu, 0, sizeof(out->cpu));
	if (!b->has || !a->has)
		return;
	while (i < b->ncpus && j < a->ncpus) {
		if (b->cpu[i].id != a->cpu[j].id) {
			if (b->cpu[i].id < a->cpu[j].id)
				i++;
			else
				j++;
			continue;
		}
		cpustat_ticks_diff(&b->cpu[i].ticks, &a->cpu[j].ticks, &pct);
		if (pct.has) {
			memset(&c, 0, sizeof(c));
			c.cpu = a->cpu[j].id;
			c.busy_pct = pct.busy_pct;
			c.irq_pct = pct.irq_pct;
			c.softirq_pct = pct.softirq_pct;
			spread_softirqs(sb, sa, &c);
			out->ncpus++;
			spread_keep(out, &c);
		}
		i++;
		j++;
	}
	qsort(out->cpu, out->ncpu, sizeof(out->cpu[0]), spread_id_cmp);
}
