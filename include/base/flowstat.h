/*
 * flowstat.h: the summary of all of a side's flows (struct gb_flows):
 * min, median and max of the flows' Mbit/s (and --rr's transactions/s,
 * TCP's RTT), the most retransmits of one flow, Jain's fairness index.
 * Pure: it reads an array of per-flow figures and allocates only its
 * scratch for the medians.
 */
#ifndef GB_FLOWSTAT_H
#define GB_FLOWSTAT_H

#include "base/result.h"

/*
 * n flows' figures (their seconds > 0 for a rate; a flow of 0 seconds
 * has rate 0), carried by threads worker threads; rr: the flows' counts
 * of transactions are a rate too.  0, or -1 out of memory (out->has 0).
 */
int	flowstat_summarize(const struct gb_stream *flows, unsigned n,
	    unsigned threads, int rr, struct gb_flows *out);
/* Jain's index of n values: 1 for n 0 or all zero. */
double	flowstat_jain(const double *x, unsigned n);

#endif /* GB_FLOWSTAT_H */
