/*
 * report_flows.c: the text line of a side's flow summary (struct
 * gb_flows, flowstat.h), for a test of two flows or more:
 *
 *	gigebench-r: flows: 1000 on 2 threads, per flow 9.8100 / 10.0200 /
 *	    10.4500 Mbps (min / P50 / max), Jain 0.998
 *
 * on one line, with --rr's ", 812 / 850 / 901 transactions/s" and TCP's
 * ", retransmits at most 3 a flow, RTT 31 / 40 / 88 us" after it when
 * they are known.  The rates are in the unit of -f, as the stream lines'.
 * It only formats the figures flowstat.c computed; like report.c it must
 * not touch a socket or a /proc file, nor exit.
 */
#include <inttypes.h>
#include <stdio.h>

#include "base/units.h"
#include "out/report.h"
#include "report_fmt.h"

int
report_flows_shown(const struct gb_side *s)
{
	return s->flows.has && s->flows.n >= 2;
}

void
report_flows_line(FILE *fp, const struct gb_side *s, int is_tx, char unit)
{
	const struct gb_flows *f = &s->flows;
	const char *label;
	double lo, mid, hi;

	if (!report_flows_shown(s))
		return;
	lo = units_rate(f->mbps_min * 1e6, unit, &label);
	mid = units_rate(f->mbps_p50 * 1e6, unit, &label);
	hi = units_rate(f->mbps_max * 1e6, unit, &label);
	fprintf(fp, "%s flows: %u", report_side_prefix(is_tx), f->n);
	if (f->threads > 0)
		fprintf(fp, " on %u thread%s", f->threads,
		    f->threads == 1 ? "" : "s");
	fprintf(fp, ", per flow %.4f / %.4f / %.4f %s (min / P50 / max), "
	    "Jain %.3f", lo, mid, hi, label, f->jain);
	if (f->has_tps)
		fprintf(fp, ", %.0f / %.0f / %.0f transactions/s", f->tps_min,
		    f->tps_p50, f->tps_max);
	if (f->has_tcp)
		fprintf(fp, ", retransmits at most %" PRIu32 " a flow, RTT %"
		    PRIu32 " / %" PRIu32 " / %" PRIu32 " us", f->retrans_max,
		    f->rtt_us_min, f->rtt_us_p50, f->rtt_us_max);
	fputc('\n', fp);
}
