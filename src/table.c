/*
 * table.c: the summary of a sweep with repetitions, one row per point.
 * Each point's runs are accumulated as they finish (Mbps delivered, each
 * end's process CPU %, irq/pkt where the interface said, retransmits and
 * warnings), summarised with stats.c, and rendered as the stdout table
 * or as JSON.
 *
 * Like report.c it only formats: a figure no run could measure is "n/a"
 * in the table and null in JSON, never 0.  A confidence interval needs
 * two runs; with one, the table says "+- n/a" and JSON has a null sd and
 * interval.  The table is ASCII only ("+-", not a plus-minus sign) so
 * that terminals, logs and golden files agree.  No I/O beyond the FILE.
 */
#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <jansson.h>

#include "out/table.h"
#include "base/lathist.h"
#include "base/units.h"

#define TABLE_CELL_LEN	64
#define TABLE_AXIS_MIN	6	/* narrowest axis column, before its gap */

static int	 table_axis_width(const struct sweep *, unsigned,
		    const struct table_point *, unsigned);
static void	 table_header(FILE *, const struct sweep *, const int *,
		    const struct table_point *, char, int, int);
static void	 table_row(FILE *, const struct sweep *, const int *,
		    const struct table_point *, char, int, int, int);
static const char *table_real(char *, size_t, const struct stats *,
		     const char *);
static void	 table_label(char *, size_t, const struct sweep *, unsigned);
static void	 table_confidence(FILE *, const struct sweep *,
		    const struct table_point *);
static json_t	*table_real_json(int, double);
static json_t	*table_stats_json(const struct stats *);
static json_t	*table_values_json(const struct sweep *, unsigned);
static json_t	*table_point_json(const struct sweep *,
		    const struct table_point *);

void
table_acc_init(struct table_acc *a)
{
	memset(a, 0, sizeof(*a));
	stats_init(&a->mbps);
	stats_init(&a->cpu_tx);
	stats_init(&a->cpu_rx);
	stats_init(&a->irq_tx);
	stats_init(&a->irq_rx);
	stats_init(&a->copy_tx);
	stats_init(&a->copy_rx);
	stats_init(&a->rx_pps);
	stats_init(&a->lost_pct);
	stats_init(&a->trans_s);
	stats_init(&a->p50_us);
	stats_init(&a->p99_us);
	stats_init(&a->irq_trans_tx);
	stats_init(&a->irq_trans_rx);
	stats_init(&a->rev_mbps);
}

/* --rr: the transactions and their latencies (result_rr, lathist.h). */
static void
table_acc_rr(struct table_acc *a, const struct gb_result *r)
{
	struct gb_rr_figures f;

	a->rr = 1;
	result_rr(r, &f);
	if (f.has)
		stats_add(&a->trans_s, f.per_s);
	if (r->has_latency && r->latency.count > 0) {
		stats_add(&a->p50_us,
		    (double)lathist_percentile(&r->latency, 50) / 1000.0);
		stats_add(&a->p99_us,
		    (double)lathist_percentile(&r->latency, 99) / 1000.0);
	}
	if (f.ask.has && f.ask.has_irq)
		stats_add(&a->irq_trans_tx, f.ask.irq);
	if (f.answer.has && f.answer.has_irq)
		stats_add(&a->irq_trans_rx, f.answer.irq);
}

/* --bidir: the reverse direction's rate and retransmits. */
static void
table_acc_bidir(struct table_acc *a, const struct gb_result *r)
{
	const struct gb_side *tx = &r->rsender, *rx = &r->rreceiver;

	a->bidir = 1;
	if (rx->has)
		stats_add(&a->rev_mbps, rx->mbps);
	else if (tx->has)
		stats_add(&a->rev_mbps, tx->mbps);
	if (tx->has && tx->tcp.has)
		a->retransmits += tx->tcp.retransmits;
}

void
table_acc_add(struct table_acc *a, const struct gb_result *r)
{
	const struct gb_side *tx = &r->sender, *rx = &r->receiver;

	a->nruns++;
	/* Delivered figures: the receiver's, else what the sender sent. */
	if (rx->has)
		stats_add(&a->mbps, rx->mbps);
	else if (tx->has)
		stats_add(&a->mbps, tx->mbps);
	if (tx->has)
		stats_add(&a->cpu_tx, tx->cpu.process_pct);
	if (rx->has)
		stats_add(&a->cpu_rx, rx->cpu.process_pct);
	if (tx->has && tx->iface.has_irq_per_packet)
		stats_add(&a->irq_tx, tx->iface.irq_per_packet);
	if (rx->has && rx->iface.has_irq_per_packet)
		stats_add(&a->irq_rx, rx->iface.irq_per_packet);
	if (tx->has && tx->tcp.has)
		a->retransmits += tx->tcp.retransmits;
	if (tx->has && tx->profile.has)
		stats_add(&a->copy_tx, profile_share(&tx->profile,
		    tx->profile.cat[GB_CAT_COPY]));
	if (rx->has && rx->profile.has)
		stats_add(&a->copy_rx, profile_share(&rx->profile,
		    rx->profile.cat[GB_CAT_COPY]));
	if (r->params.bidir)
		table_acc_bidir(a, r);
	if (r->params.rr)
		table_acc_rr(a, r);
	if (r->params.udp) {
		struct gb_udp_figures f;

		result_udp(r, &f);
		if (f.has && rx->has) {
			stats_add(&a->rx_pps, f.rx_pps);
			stats_add(&a->lost_pct, f.lost_pct);
		}
	}
	a->nwarnings += tx->nwarnings + rx->nwarnings;
}

void
table_acc_fail(struct table_acc *a)
{
	a->nfailed++;
}

void
table_point_finish(const struct table_acc *a, unsigned point, double level,
    struct table_point *p)
{
	memset(p, 0, sizeof(*p));
	p->point = point;
	p->nruns = a->nruns;
	p->nfailed = a->nfailed;
	stats_summary(&a->mbps, level, &p->mbps);
	stats_summary(&a->cpu_tx, level, &p->cpu_tx);
	stats_summary(&a->cpu_rx, level, &p->cpu_rx);
	stats_summary(&a->irq_tx, level, &p->irq_tx);
	stats_summary(&a->irq_rx, level, &p->irq_rx);
	stats_summary(&a->copy_tx, level, &p->copy_tx);
	stats_summary(&a->copy_rx, level, &p->copy_rx);
	stats_summary(&a->rx_pps, level, &p->rx_pps);
	stats_summary(&a->lost_pct, level, &p->lost_pct);
	p->rr = a->rr;
	stats_summary(&a->trans_s, level, &p->trans_s);
	stats_summary(&a->p50_us, level, &p->p50_us);
	stats_summary(&a->p99_us, level, &p->p99_us);
	stats_summary(&a->irq_trans_tx, level, &p->irq_trans_tx);
	stats_summary(&a->irq_trans_rx, level, &p->irq_trans_rx);
	p->bidir = a->bidir;
	stats_summary(&a->rev_mbps, level, &p->rev_mbps);
	p->retransmits = a->retransmits;
	p->nwarnings = a->nwarnings;
	p->ci_met = -1;		/* the caller knows what was asked */
	p->ci_width_pct = 0;
}

const struct stats *
table_point_rate(const struct table_point *p)
{
	return p->rr ? &p->trans_s : &p->mbps;
}

/* An axis column: as wide as its name or its widest value. */
static int
table_axis_width(const struct sweep *s, unsigned axis,
    const struct table_point *pts, unsigned npoints)
{
	char		buf[TABLE_CELL_LEN];
	size_t		w = strlen(sweep_param_name(s->axes[axis].param));
	unsigned	i;

	for (i = 0; i < npoints; i++) {
		sweep_value_text(s, axis, pts[i].point, buf, sizeof(buf));
		if (strlen(buf) > w)
			w = strlen(buf);
	}
	return (int)(w < TABLE_AXIS_MIN ? TABLE_AXIS_MIN : w);
}

static void
table_header(FILE *fp, const struct sweep *s, const int *width,
    const struct table_point *first, char unit, int fail, int prof)
{
	char		 rate[TABLE_CELL_LEN];
	const char	*label;
	unsigned	 a;

	for (a = 0; a < s->naxes; a++)
		fprintf(fp, "%-*s  ", width[a],
		    sweep_param_name(s->axes[a].param));
	if (first->rr) {
		snprintf(rate, sizeof(rate), "trans/s (%g%% CI)",
		    first->trans_s.level * 100);
		fprintf(fp, "%-25s%9s%9s%5s%5s%14s%13s", rate, "P50 us",
		    "P99 us", "%TX", "%RX", "irq/trans-TX", "irq/trans-RX");
		fprintf(fp, "%5s%s\n", "warn", fail ? " fail" : "");
		return;
	}
	units_rate(0, unit, &label);
	snprintf(rate, sizeof(rate), "%s (%g%% CI)", label,
	    first->mbps.level * 100);
	fprintf(fp, "%-25s", rate);
	if (first->bidir) {
		snprintf(rate, sizeof(rate), "reverse %s", label);
		fprintf(fp, "%-25s", rate);
	}
	fprintf(fp, "%3s%5s%12s%11s", "%TX", "%RX", "irq/pkt-TX",
	    "irq/pkt-RX");
	if (first->rx_pps.n > 0)
		fprintf(fp, "%11s%8s", "kpps-RX", "loss%");
	else
		fprintf(fp, "%8s", "retrans");
	if (prof)
		fprintf(fp, "%8s%8s", "copy%TX", "copy%RX");
	fprintf(fp, "%5s%s\n", "warn", fail ? " fail" : "");
}

/* A statistic's mean in fmt, or "n/a" when no run measured it. */
static const char *
table_real(char *buf, size_t len, const struct stats *st, const char *fmt)
{
	if (st->n == 0)
		snprintf(buf, len, "n/a");
	else
		snprintf(buf, len, fmt, st->mean);
	return buf;
}

/* "mean +- half", "mean +- n/a" with one run, "n/a" with none. */
static const char *
table_ci(char *buf, size_t len, const struct stats *st)
{
	if (st->n == 0)
		snprintf(buf, len, "n/a");
	else if (st->n < 2)
		snprintf(buf, len, "%.1f +- n/a", st->mean);
	else
		snprintf(buf, len, "%.1f +- %.1f", st->mean, st->ci_half);
	return buf;
}

/* --rr: trans/s +- CI, P50, P99, %TX, %RX, irq/trans each end. */
static void
table_row_rr(FILE *fp, const struct table_point *p)
{
	char	rate[TABLE_CELL_LEN], p50[TABLE_CELL_LEN];
	char	p99[TABLE_CELL_LEN], tx[TABLE_CELL_LEN], rx[TABLE_CELL_LEN];
	char	itx[TABLE_CELL_LEN], irx[TABLE_CELL_LEN];

	fprintf(fp, "%-25s%9s%9s%5s%5s%14s%13s",
	    table_ci(rate, sizeof(rate), &p->trans_s),
	    table_real(p50, sizeof(p50), &p->p50_us, "%.1f"),
	    table_real(p99, sizeof(p99), &p->p99_us, "%.1f"),
	    table_real(tx, sizeof(tx), &p->cpu_tx, "%.0f"),
	    table_real(rx, sizeof(rx), &p->cpu_rx, "%.0f"),
	    table_real(itx, sizeof(itx), &p->irq_trans_tx, "%.3f"),
	    table_real(irx, sizeof(irx), &p->irq_trans_rx, "%.3f"));
}

/* A rate's "mean +- half" in the -f unit, "mean +- n/a", or "n/a". */
static const char *
table_rate(char *buf, size_t len, const struct stats *st, char unit)
{
	if (st->n == 0)
		snprintf(buf, len, "n/a");
	else if (st->n < 2)
		snprintf(buf, len, "%.2f +- n/a",
		    units_rate(st->mean * 1e6, unit, NULL));
	else
		snprintf(buf, len, "%.2f +- %.2f",
		    units_rate(st->mean * 1e6, unit, NULL),
		    units_rate(st->ci_half * 1e6, unit, NULL));
	return buf;
}

static void
table_row(FILE *fp, const struct sweep *s, const int *width,
    const struct table_point *p, char unit, int rr, int fail, int prof)
{
	char		 rate[TABLE_CELL_LEN], tx[TABLE_CELL_LEN];
	char		 rx[TABLE_CELL_LEN], itx[TABLE_CELL_LEN];
	char		 irx[TABLE_CELL_LEN];
	unsigned	 a;

	for (a = 0; a < s->naxes; a++)
		fprintf(fp, "%-*s  ", width[a], sweep_value_text(s, a,
		    p->point, rate, sizeof(rate)));
	if (rr) {
		table_row_rr(fp, p);
		fprintf(fp, "%5u", p->nwarnings);
		if (fail)
			fprintf(fp, "%5u", p->nfailed);
		fputc('\n', fp);
		return;
	}
	fprintf(fp, "%-25s", table_rate(rate, sizeof(rate), &p->mbps, unit));
	if (p->bidir)
		fprintf(fp, "%-25s", table_rate(rate, sizeof(rate),
		    &p->rev_mbps, unit));
	fprintf(fp, "%3s%5s%12s%11s",
	    table_real(tx, sizeof(tx), &p->cpu_tx, "%.0f"),
	    table_real(rx, sizeof(rx), &p->cpu_rx, "%.0f"),
	    table_real(itx, sizeof(itx), &p->irq_tx, "%.3f"),
	    table_real(irx, sizeof(irx), &p->irq_rx, "%.3f"));
	if (p->rx_pps.n > 0)
		fprintf(fp, "%11.1f%8.2f", p->rx_pps.mean / 1000,
		    p->lost_pct.mean);
	else
		fprintf(fp, "%8" PRIu64, p->retransmits);
	if (prof)
		fprintf(fp, "%8s%8s", table_real(tx, sizeof(tx), &p->copy_tx,
		    "%.1f"), table_real(rx, sizeof(rx), &p->copy_rx, "%.1f"));
	fprintf(fp, "%5u", p->nwarnings);
	if (fail)
		fprintf(fp, "%5u", p->nfailed);
	fputc('\n', fp);
}

/* "mtu=9000 window=64K", or the point's index when nothing is swept. */
static void
table_label(char *buf, size_t len, const struct sweep *s, unsigned point)
{
	char		val[TABLE_CELL_LEN];
	size_t		n = 0;
	unsigned	a;

	snprintf(buf, len, "%u", point);
	for (a = 0; a < s->naxes && n < len; a++)
		n += (size_t)snprintf(buf + n, len - n, "%s%s=%s",
		    a > 0 ? " " : "", sweep_param_name(s->axes[a].param),
		    sweep_value_text(s, a, point, val, sizeof(val)));
}

static void
table_confidence(FILE *fp, const struct sweep *s,
    const struct table_point *p)
{
	char		label[256];
	const char	*runs = p->nruns == 1 ? "run" : "runs";
	const struct stats *st = table_point_rate(p);

	table_label(label, sizeof(label), s, p->point);
	fprintf(fp, "point %s: ", label);
	if (st->n < 2 || st->mean == 0)
		fprintf(fp, "no %g%% CI within the %g %% asked after %u %s\n",
		    st->level * 100, p->ci_width_pct, p->nruns, runs);
	else
		fprintf(fp, "%g%% CI +-%.3g %% wider than the %g %% asked "
		    "after %u %s\n", st->level * 100,
		    st->ci_half / fabs(st->mean) * 100,
		    p->ci_width_pct, p->nruns, runs);
}

void
table_text(FILE *fp, const struct sweep *s, const struct table_point *pts,
    unsigned npoints, char unit)
{
	const struct table_point *first;
	int		width[SWEEP_MAX_AXES];
	int		fail = 0, prof = 0;
	unsigned	i, a;

	if (npoints == 0)
		return;
	for (a = 0; a < s->naxes; a++)
		width[a] = table_axis_width(s, a, pts, npoints);
	/* The columns of --rr when some point ran one. */
	first = &pts[0];
	for (i = 0; i < npoints; i++) {
		if (pts[i].nfailed > 0)
			fail = 1;
		if (pts[i].copy_tx.n > 0 || pts[i].copy_rx.n > 0)
			prof = 1;
		if (pts[i].rr && !first->rr)
			first = &pts[i];
	}
	table_header(fp, s, width, first, unit, fail, prof);
	for (i = 0; i < npoints; i++)
		table_row(fp, s, width, &pts[i], unit, first->rr, fail, prof);
	for (i = 0; i < npoints; i++)
		if (pts[i].ci_met == 0)
			table_confidence(fp, s, &pts[i]);
}

/* null when unknown or not finite (jansson refuses NaN and infinities). */
static json_t *
table_real_json(int has, double v)
{
	return has && isfinite(v) ? json_real(v) : json_null();
}

static json_t *
table_stats_json(const struct stats *st)
{
	int	ci = st->n >= 2;

	if (st->n == 0)
		return json_null();
	return json_pack("{s:I, s:o, s:o, s:o, s:o, s:o, s:o, s:o}",
	    "n", (json_int_t)st->n, "mean", table_real_json(1, st->mean),
	    "sd", table_real_json(ci, st->sd),
	    "min", table_real_json(1, st->min),
	    "max", table_real_json(1, st->max),
	    "ci_lo", table_real_json(ci, st->ci_lo),
	    "ci_hi", table_real_json(ci, st->ci_hi),
	    "level", table_real_json(1, st->level));
}

/* {"mtu": 9000, "cc": "bbr"}: numbers for numbers, names for names. */
static json_t *
table_values_json(const struct sweep *s, unsigned point)
{
	char		 buf[TABLE_CELL_LEN];
	json_t		*o, *v;
	unsigned	 a;

	if ((o = json_object()) == NULL)
		return NULL;
	for (a = 0; a < s->naxes; a++) {
		if (s->axes[a].param == SWEEP_CC)
			v = json_string(sweep_value_text(s, a, point, buf,
			    sizeof(buf)));
		else
			v = json_integer((json_int_t)sweep_value(s, a, point));
		if (json_object_set_new(o, sweep_param_name(s->axes[a].param),
		    v) == -1) {
			json_decref(o);
			return NULL;
		}
	}
	return o;
}

/* --rr's figures of a point; null for the other tests. */
static json_t *
table_rr_json(const struct table_point *p)
{
	if (!p->rr)
		return json_null();
	return json_pack("{s:o, s:o, s:o, s:o, s:o}",
	    "trans_per_s", table_stats_json(&p->trans_s),
	    "p50_us", table_stats_json(&p->p50_us),
	    "p99_us", table_stats_json(&p->p99_us),
	    "irq_per_trans_tx", table_stats_json(&p->irq_trans_tx),
	    "irq_per_trans_rx", table_stats_json(&p->irq_trans_rx));
}

static json_t *
table_point_json(const struct sweep *s, const struct table_point *p)
{
	return json_pack("{s:o, s:I, s:I, s:o, s:o, s:o, s:o, s:o, s:o, s:o,"
	    " s:o, s:o, s:o, s:I, s:I, s:o, s:o}",
	    "values", table_values_json(s, p->point),
	    "runs", (json_int_t)p->nruns, "failed", (json_int_t)p->nfailed,
	    "mbps", table_stats_json(&p->mbps),
	    "mbps_reverse", p->bidir ? table_stats_json(&p->rev_mbps) :
	    json_null(),
	    "cpu_tx", table_stats_json(&p->cpu_tx),
	    "cpu_rx", table_stats_json(&p->cpu_rx),
	    "irq_tx", table_stats_json(&p->irq_tx),
	    "irq_rx", table_stats_json(&p->irq_rx),
	    "rx_pps", table_stats_json(&p->rx_pps),
	    "lost_pct", table_stats_json(&p->lost_pct),
	    "copy_tx", table_stats_json(&p->copy_tx),
	    "copy_rx", table_stats_json(&p->copy_rx),
	    "retransmits", (json_int_t)p->retransmits,
	    "warnings", (json_int_t)p->nwarnings,
	    "confidence_met", p->ci_met < 0 ? json_null() :
	    json_boolean(p->ci_met), "rr", table_rr_json(p));
}

json_t *
table_json(const struct sweep *s, const struct table_point *pts,
    unsigned npoints)
{
	json_t		*a, *o;
	unsigned	 i;

	if ((a = json_array()) == NULL)
		return NULL;
	for (i = 0; i < npoints; i++) {
		if ((o = table_point_json(s, &pts[i])) == NULL ||
		    json_array_append_new(a, o) == -1) {
			json_decref(a);
			return NULL;
		}
	}
	return a;
}
