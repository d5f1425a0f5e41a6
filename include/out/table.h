/*
 * table.h: the per-point summary of a sweep with repetitions: statistics
 * of Mbps, each end's process CPU % and irq/pkt over the runs of a point,
 * and its renderers (the stdout table and JSON).  Pure but for the FILE.
 */
#ifndef GB_TABLE_H
#define GB_TABLE_H

#include <stdio.h>

#include <jansson.h>

#include "base/result.h"
#include "base/stats.h"
#include "base/sweep.h"

struct table_acc {
	unsigned		nruns;		/* completed runs */
	unsigned		nfailed;
	struct stats_acc	mbps;
	struct stats_acc	cpu_tx, cpu_rx;	/* process_pct of each end */
	struct stats_acc	irq_tx, irq_rx;	/* only runs where known */
	struct stats_acc	rx_pps, lost_pct;	/* -u runs */
	/* --rr runs: trans/s, the asking end's P50 and P99 in us, irq a
	 * transaction on each end (the asking end is TX). */
	int			rr;
	struct stats_acc	trans_s, p50_us, p99_us;
	struct stats_acc	irq_trans_tx, irq_trans_rx;
	/* --bidir runs: the reverse direction's delivered rate. */
	int			bidir;
	struct stats_acc	rev_mbps;
	/* --profile: each end's copy share of its busy samples. */
	struct stats_acc	copy_tx, copy_rx;
	uint64_t		retransmits;
	unsigned		nwarnings;
};

struct table_point {
	unsigned	point;		/* index into the sweep's points */
	unsigned	nruns;
	unsigned	nfailed;
	struct stats	mbps;
	struct stats	cpu_tx, cpu_rx;
	struct stats	irq_tx, irq_rx;	/* n == 0: unavailable */
	struct stats	rx_pps, lost_pct;	/* -u: n == 0 for TCP */
	int		rr;		/* some run was an --rr test */
	struct stats	trans_s, p50_us, p99_us;	/* --rr */
	struct stats	irq_trans_tx, irq_trans_rx;	/* --rr */
	int		bidir;		/* some run was a --bidir test */
	struct stats	rev_mbps;	/* --bidir: the reverse direction */
	struct stats	copy_tx, copy_rx;	/* --profile: copy % */
	uint64_t	retransmits;	/* summed over the runs, both ways */
	unsigned	nwarnings;	/* summed over both ends and runs */
	int		ci_met;		/* --confidence: -1 not asked, 0, 1 */
	double		ci_width_pct;	/* --confidence: the width asked */
};

void	table_acc_init(struct table_acc *);
void	table_acc_add(struct table_acc *, const struct gb_result *);
void	table_acc_fail(struct table_acc *);
/* The statistics at level; ci_met is -1 until the caller sets it. */
void	table_point_finish(const struct table_acc *, unsigned point,
	    double level, struct table_point *);
/*
 * What --repeat and --confidence work on: trans/s for --rr points, else
 * Mbps.
 */
const struct stats *table_point_rate(const struct table_point *);
/*
 * One row per point: the swept values, Mbps mean +- CI half width (in the
 * -f unit; --bidir: the reverse direction's too), %TX, %RX, irq/pkt each
 * end, retransmits (-u: kpps received and loss %), with --profile each
 * end's copy share of its busy samples, warnings; for --rr
 * points, trans/s +- CI, P50 and P99
 * in us, %TX, %RX, irq/trans each end, warnings; and a line
 * per point whose --confidence width was not reached.
 */
void	table_text(FILE *, const struct sweep *, const struct table_point *,
	    unsigned npoints, char unit);
/* [{values: {param: value}, runs, failed, mbps: {n, mean, sd, min, max,
 *   ci_lo, ci_hi, level}, mbps_reverse: null or the same (--bidir),
 *   cpu_tx, cpu_rx, irq_tx, irq_rx, rx_pps, copy_tx, copy_rx,
 *   lost_pct, retransmits, warnings, confidence_met, rr: null or
 *   {trans_per_s, p50_us, p99_us, irq_per_trans_tx, irq_per_trans_rx}}]
 */
json_t	*table_json(const struct sweep *, const struct table_point *,
	    unsigned npoints);

#endif /* GB_TABLE_H */
