/*
 * irqline.h: the lines of /proc/interrupts that belong to one network
 * interface, and what they did between two samples.  irqline_select()
 * keeps an interface's lines of a sample (irqstat.h); irqline_diff() sums
 * their deltas; irqline_report() gives each line's figures as result.h
 * reports them.  Everything here is pure.
 */
#ifndef GB_IRQLINE_H
#define GB_IRQLINE_H

#include <stddef.h>
#include <stdint.h>

#include "host/irqstat.h"
#include "base/result.h"

/*
 * Does the line belong to interface ifname?  Yes when its number is in
 * msi_irqs (sorted ascending, from sysfs), or when one of its action names
 * is ifname or starts with ifname and '-', ':' or '@' ("eth0-TxRx-3").
 */
int	irqline_matches(const struct irqstat_line *, const char *ifname,
	    const unsigned *msi_irqs, size_t nmsi);
/*
 * Does the line also serve another device?  Yes when its action column
 * lists more than one action and one of them does not name ifname by the
 * rule above: "uhci_hcd:usb3, eth3" is shared for eth3.
 */
int	irqline_shared(const struct irqstat_line *, const char *ifname);
/* Keep only the lines that match, with their counts, in order. */
void	irqline_select(struct irqstat *, const char *ifname,
	    const unsigned *msi_irqs, size_t nmsi);
/*
 * Interrupts between two samples, summed over the lines of after.  Lines
 * are matched by name; a line absent from before counts from 0 (its
 * vector was allocated during the test); a count that went down gives 0.
 */
uint64_t irqline_diff(const struct irqstat *before,
	    const struct irqstat *after);
/* "35,36,37", truncated with "..." when it does not fit in len. */
void	irqline_names(const struct irqstat *, char *buf, size_t len);
/* Ascending CPU numbers as "0,2-3", truncated with "..." to fit len. */
void	irqline_cpulist(const unsigned *cpus, size_t n, char *buf,
	    size_t len);
/*
 * One entry per line of after (the interface's lines), with the rules of
 * irqline_diff(): in the order of /proc/interrupts when they fit in max
 * (at most GB_MAX_IRQ_LINES), else the max busiest, busiest first.  The
 * CPUs of a line are those whose count went up, its top CPU the one it
 * went up the most on; a CPU absent from before counts from 0.  Its share
 * is of all the lines' interrupts (irqline_diff()), reported or not, and
 * unknown when they took none.  Returns the number of entries, or -1
 * with errno ENOMEM.
 */
int	irqline_report(const struct irqstat *before,
	    const struct irqstat *after, const char *ifname,
	    struct gb_irq_line *lines, unsigned max);

#endif /* GB_IRQLINE_H */
