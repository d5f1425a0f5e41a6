/*
 * spread.h: how a test's CPU time and soft interrupts went over the
 * host's CPUs, one CPU at a time: its busy, irq and softirq shares from
 * two samples of /proc/stat (cpustat.h), its NET_RX and NET_TX softirqs
 * from two of /proc/softirqs (irqstat.h).  The interface's side of the
 * spread (each line's share and CPU) is irqline.h's, its queues
 * netif.h's.  Pure: the caller (hoststat.c) keeps the samples.
 */
#ifndef GB_SPREAD_H
#define GB_SPREAD_H

#include "base/result.h"
#include "host/cpustat.h"
#include "host/irqstat.h"

/*
 * Fill out's ncpus, ncpu and cpu[]: every CPU in both /proc/stat samples
 * whose line ticked, the GB_SPREAD_MAX_CPUS busiest of them (the lower
 * number first in a tie) when there are more, in ascending order; each
 * with its softirqs when both /proc/softirqs samples have its column (a
 * count that went down gives 0).  Leaves out's other members alone.
 */
void	spread_cpus(const struct cpustat *before, const struct cpustat *after,
	    const struct irqstat_softirq *sbefore,
	    const struct irqstat_softirq *safter, struct gb_spread *out);

#endif /* GB_SPREAD_H */
