/*
 * flowstat.h: the summary of all of a side's flows (struct gb_flows):
 * min, median and max of the flows' Mbit/s (and --rr's transactions/s,
 * TCP's RTT), the most retransmits of one flow, Jain's fairness index.
 * Pure: it reads an array of per-flow figures and allocates only its
 * scratch for the medians.
 *
 * The median is the P50: the middle value of an odd count, the mean of
 * the two middle values of an even one (for the RTT, a whole number of
 * microseconds, rounded half up).
 */
#ifndef GB_FLOWSTAT_H
#define GB_FLOWSTAT_H

#include "base/result.h"

/*
 * n flows' figures (their seconds > 0 for a rate; a flow of 0 seconds
 * has rate 0), carried by threads worker threads; rr: the flows' counts
 * of transactions are a rate too.  The RTT and the retransmits are of
 * the flows with has_tcp only (out->has_tcp 0 when none has).  out->n
 * and out->threads are copied, out->has is 1 for n >= 1.  0, or -1 out
 * of memory (out->has 0).
 */
int	flowstat_summarize(const struct gb_stream *flows, unsigned n,
	    unsigned threads, int rr, struct gb_flows *out);
/*
 * Jain's index (sum x)^2 / (n sum x^2) of n non-negative values, from
 * 1/n (one has it all) to 1 (all equal): 1 for n 0 or all zero.
 */
double	flowstat_jain(const double *x, unsigned n);

#endif /* GB_FLOWSTAT_H */
