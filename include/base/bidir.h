/*
 * bidir.h: --bidir's derived figures.  A bidirectional test is two
 * directions measured at once between the same two hosts: each direction
 * has its own bytes, rate and TCP state (struct gb_result's sender and
 * receiver, rsender and rreceiver), but each host has one CPU, one
 * interface and one set of interrupt lines, shared by both.  Pure: no
 * I/O, no formatting.
 */
#ifndef GB_BIDIR_H
#define GB_BIDIR_H

#include "base/result.h"

/*
 * Once all four sides are in: each host's figures (process and host CPU,
 * the interface, its interrupts and packets, the context) are the
 * forward side's, given to the reverse side of the same host, so that
 * both directions show the same host; interrupts per packet become per
 * packet of both directions (rx + tx), and per data segment of both.
 */
void	bidir_host(struct gb_result *);

/*
 * The reverse direction as a result of its own, for the renderers and
 * the diagnosis: the reverse sides as sender and receiver, the direction
 * and which end printed it turned around, the reverse slices (-i, the
 * client's) as its intervals.  NULL when
 * memory runs out.  free() it.
 */
struct gb_result *bidir_reverse_new(const struct gb_result *);

/*
 * Interrupts of one host's interface split by direction, where its IRQ
 * lines are per queue and named so ("eth0-rx-0", "eth0-tx-0"): lines
 * serving both ("eth0-TxRx-0") or named otherwise cannot be split.
 */
struct bidir_irq {
	/*
	 * Every line is an rx or a tx line, but for lines of neither
	 * that took at most 1 % of the interrupts (a link vector), which
	 * the note then names as left out.
	 */
	int		has;
	uint64_t	rx_irqs, tx_irqs;
	int		has_rx, has_tx;	/* their packets were counted */
	double		rx_per_packet, tx_per_packet;
	char		note[96];	/* why not split, or what was left out */
};

/*
 * Of one line's actions: 1 "rx", 2 "tx", 3 both ("eth0-TxRx-0", or an rx
 * and a tx part), 0 neither ("eth0", "mlx5_comp0@pci:...").
 */
int	bidir_line_dir(const struct gb_irq_line *);
void	bidir_irq_split(const struct gb_iface_figures *, struct bidir_irq *);

#endif /* GB_BIDIR_H */
