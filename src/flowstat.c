/*
 * flowstat.c: the summary of a side's flows (flowstat.h) from their
 * per-flow figures: the spread of their rates, RTTs and retransmits, and
 * Jain's fairness index (R. Jain, D. Chiu, W. Hawe, "A Quantitative
 * Measure of Fairness and Discrimination for Resource Allocation in
 * Shared Computer Systems", DEC-TR-301, 1984).
 *
 * Pure: no I/O, no globals; its one allocation is the scratch array the
 * medians are sorted in, freed before it returns.  It must not include
 * anything above base/.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/flowstat.h"

static int
flowstat_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Sorts x: its min, P50 (mean of the middle two of an even n), max. */
static void
flowstat_spread(double *x, unsigned n, double *min, double *p50,
    double *max)
{
	qsort(x, n, sizeof(*x), flowstat_cmp);
	*min = x[0];
	*max = x[n - 1];
	*p50 = n % 2 == 1 ? x[n / 2] : (x[n / 2 - 1] + x[n / 2]) / 2;
}

double
flowstat_jain(const double *x, unsigned n)
{
	double max = 0, sum = 0, sq = 0, v, j;
	unsigned i;

	for (i = 0; i < n; i++)
		if (x[i] > max)
			max = x[i];
	if (n == 0 || !(max > 0))
		return 1;
	/* Scaled by the largest, so that the squares cannot overflow. */
	for (i = 0; i < n; i++) {
		v = x[i] / max;
		sum += v;
		sq += v * v;
	}
	j = sum * sum / ((double)n * sq);
	/* Cauchy-Schwarz bounds it by 1; rounding may pass it by an ulp. */
	return j > 1 ? 1 : j;
}

/* Per second of the flow's own time; 0 for a flow of no time. */
static double
flowstat_rate(uint64_t count, double seconds)
{
	return seconds > 0 ? (double)count / seconds : 0;
}

/* The RTT and retransmits of the flows that have TCP_INFO, in x. */
static void
flowstat_tcp(const struct gb_stream *flows, unsigned n, double *x,
    struct gb_flows *out)
{
	double min, p50, max;
	unsigned i, m = 0;

	for (i = 0; i < n; i++) {
		if (!flows[i].has_tcp)
			continue;
		x[m++] = flows[i].rtt_us;
		if (flows[i].retrans > out->retrans_max)
			out->retrans_max = flows[i].retrans;
	}
	if (m == 0)
		return;
	flowstat_spread(x, m, &min, &p50, &max);
	out->has_tcp = 1;
	out->rtt_us_min = (uint32_t)min;
	/* Half of the sum of two uint32_t: rounded half up, still fits. */
	out->rtt_us_p50 = (uint32_t)(p50 + 0.5);
	out->rtt_us_max = (uint32_t)max;
}

int
flowstat_summarize(const struct gb_stream *flows, unsigned n,
    unsigned threads, int rr, struct gb_flows *out)
{
	double *x;
	unsigned i;

	memset(out, 0, sizeof(*out));
	out->n = n;
	out->threads = threads;
	if (n == 0)
		return 0;
	if ((x = calloc(n, sizeof(*x))) == NULL) {
		memset(out, 0, sizeof(*out));
		return -1;
	}
	for (i = 0; i < n; i++)
		x[i] = result_mbps(flows[i].bytes, flows[i].seconds);
	out->jain = flowstat_jain(x, n);
	flowstat_spread(x, n, &out->mbps_min, &out->mbps_p50, &out->mbps_max);
	if (rr) {
		for (i = 0; i < n; i++)
			x[i] = flowstat_rate(flows[i].transactions,
			    flows[i].seconds);
		flowstat_spread(x, n, &out->tps_min, &out->tps_p50,
		    &out->tps_max);
		out->has_tps = 1;
	}
	flowstat_tcp(flows, n, x, out);
	free(x);
	out->has = 1;
	return 0;
}
