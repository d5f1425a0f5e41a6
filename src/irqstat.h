/*
 * irqstat.h: /proc/interrupts and the NET_RX/NET_TX rows of /proc/softirqs.
 * irqstat_parse() reads every line of /proc/interrupts; irqstat_select()
 * keeps the lines of one network interface; irqstat_diff() sums their
 * deltas between two samples.  Parsers are pure; _read() opens the file
 * under a procfs root.  The caller keeps the previous sample.
 */
#ifndef GB_IRQSTAT_H
#define GB_IRQSTAT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define IRQSTAT_MAX_CPUS	8192	/* CPU columns beyond are ignored */
#define IRQSTAT_MAX_LINES	65536
#define IRQSTAT_NAME_LEN	16	/* "41", "1274", "NMI", "IPI0" */
#define IRQSTAT_CHIP_LEN	48	/* "IR-PCI-MSI 524288-edge" */
#define IRQSTAT_ACTIONS_LEN	128	/* "uhci_hcd:usb3, eth3" */

struct irqstat_line {
	char		name[IRQSTAT_NAME_LEN];
	int		ncounts;	/* CPU columns read: 1 for "ERR:  0" */
	uint64_t	total;		/* summed over CPUs */
	char		chip[IRQSTAT_CHIP_LEN];		/* chip and type */
	char		actions[IRQSTAT_ACTIONS_LEN];	/* may be "" */
};

struct irqstat {
	int			 has;	/* the header and the lines were read */
	int			 ncpus;	/* CPU columns of the header */
	size_t			 nlines;
	struct irqstat_line	*lines;
	size_t			 cap;	/* allocated entries */
};

struct irqstat_softirq {
	int		has;	/* both rows were found */
	uint64_t	net_rx;	/* summed over CPUs */
	uint64_t	net_tx;
};

void	irqstat_init(struct irqstat *);
void	irqstat_free(struct irqstat *);
/*
 * 0 when the header was read (has = 1); lines that are malformed, too long
 * or hold a number above 2^64 are skipped.  -1 otherwise with a reason in
 * err, has = 0, and errno ENOMEM when memory ran out.  The struct must be
 * initialized and may be reused.
 */
int	irqstat_parse(FILE *, struct irqstat *, char *err, size_t errlen);
int	irqstat_read(const char *procfs, struct irqstat *,
	    char *err, size_t errlen);

/*
 * Does the line belong to interface ifname?  Yes when its number is in
 * msi_irqs (sorted ascending, from sysfs), or when one of its action names
 * is ifname or starts with ifname and '-', ':' or '@' ("eth0-TxRx-3").
 */
int	irqstat_line_matches(const struct irqstat_line *, const char *ifname,
	    const unsigned *msi_irqs, size_t nmsi);
/* Keep only the lines that match, in place.  Pure. */
void	irqstat_select(struct irqstat *, const char *ifname,
	    const unsigned *msi_irqs, size_t nmsi);
/*
 * Interrupts between two samples, summed over the lines of after.  Lines
 * are matched by name; a line absent from before counts from 0 (its
 * vector was allocated during the test); a count that went down gives 0.
 */
uint64_t irqstat_diff(const struct irqstat *before,
	    const struct irqstat *after);
/* "35,36,37", truncated with "..." when it does not fit in len. */
void	irqstat_names(const struct irqstat *, char *buf, size_t len);

/* /proc/softirqs: 0 when both NET_RX and NET_TX rows were read. */
int	irqstat_softirq_parse(FILE *, struct irqstat_softirq *,
	    char *err, size_t errlen);
int	irqstat_softirq_read(const char *procfs, struct irqstat_softirq *,
	    char *err, size_t errlen);

#endif /* GB_IRQSTAT_H */
