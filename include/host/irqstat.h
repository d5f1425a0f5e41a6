/*
 * irqstat.h: /proc/interrupts and the NET_RX/NET_TX rows of /proc/softirqs.
 * irqstat_parse() reads every line of /proc/interrupts, with its per-CPU
 * counts; irqstat_retain() drops the lines a caller does not want.  Which
 * lines are a network interface's, and what they did between two samples,
 * is irqline.h.  Parsers are pure; _read() opens the file under a procfs
 * root.  The caller keeps the previous sample.
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
	size_t		first;		/* its counts: counts[first + column] */
	uint64_t	total;		/* summed over CPUs */
	char		chip[IRQSTAT_CHIP_LEN];		/* chip and type */
	char		actions[IRQSTAT_ACTIONS_LEN];	/* may be "" */
};

/*
 * Column j of every line is the count of CPU cpu_ids[j]: the header names
 * only online CPUs ("CPU0 CPU2" when CPU1 is offline), in ascending order.
 */
struct irqstat {
	int			 has;	/* the header and the lines were read */
	int			 ncpus;	/* CPU columns of the header */
	unsigned		*cpu_ids;	/* ncpus CPU numbers */
	size_t			 nlines;
	struct irqstat_line	*lines;
	size_t			 cap;	/* allocated entries */
	uint64_t		*counts;	/* per-CPU counts, all lines */
	size_t			 counts_len;	/* entries used */
	size_t			 counts_cap;	/* allocated entries */
};

/*
 * The NET_RX and NET_TX rows of /proc/softirqs: their sums, and the rows
 * themselves with their per-CPU columns (rows.lines[rx_row] and
 * [tx_row], in irqstat's storage), which the spread reads by CPU.
 */
struct irqstat_softirq {
	int		has;	/* both rows were found */
	uint64_t	net_rx;	/* summed over CPUs */
	uint64_t	net_tx;
	struct irqstat	rows;	/* the two rows only */
	size_t		rx_row;
	size_t		tx_row;
};

void	irqstat_init(struct irqstat *);
void	irqstat_free(struct irqstat *);
/*
 * 0 when the header was read (has = 1); lines that are malformed, too long
 * or hold a number above 2^64 are skipped.  -1 otherwise with a reason in
 * err, has = 0, and errno ENOMEM when memory ran out.  The struct must be
 * initialized and may be reused.  Every line's per-CPU counts are kept
 * (8 bytes a column, less than the text they come from) until
 * irqstat_retain() drops those of the lines nobody asked for.
 */
int	irqstat_parse(FILE *, struct irqstat *, char *err, size_t errlen);
int	irqstat_read(const char *procfs, struct irqstat *,
	    char *err, size_t errlen);
/* Keep only the lines keep() says yes to, with their counts, in order. */
void	irqstat_retain(struct irqstat *,
	    int (*keep)(const struct irqstat_line *, void *), void *arg);

void	irqstat_softirq_init(struct irqstat_softirq *);
void	irqstat_softirq_free(struct irqstat_softirq *);
/*
 * /proc/softirqs: 0 when both NET_RX and NET_TX rows were read (the
 * first of each, when a row is repeated).  The struct must be
 * initialized and may be reused; -1 leaves has = 0, errno ENOMEM when
 * memory ran out.
 */
int	irqstat_softirq_parse(FILE *, struct irqstat_softirq *,
	    char *err, size_t errlen);
int	irqstat_softirq_read(const char *procfs, struct irqstat_softirq *,
	    char *err, size_t errlen);
/*
 * The NET_RX and NET_TX counts in CPU cpu's column of a sample that was
 * read: 0, or -1 when the header has no such CPU or a row stops short
 * of its column.
 */
int	irqstat_softirq_cpu(const struct irqstat_softirq *, unsigned cpu,
	    uint64_t *net_rx, uint64_t *net_tx);

#endif /* GB_IRQSTAT_H */
