/*
 * xfer_slice.h: internal to the stream engine (xfer.c): what one end's
 * TCP and host look like at each -i slice.  At each slice's end it reads
 * TCP_INFO of every stream (a TCP sender only: the receiver's cwnd and
 * RTT describe the unused reverse direction) and a host sample
 * (hoststat.h: /proc/stat, the interface's interrupt lines, the softirqs,
 * this process's rusage), and puts the differences since the previous
 * slice into the interval.  It runs on the event loop, never in a
 * stream's thread, and moves no byte.
 */
#ifndef GB_XFER_SLICE_H
#define GB_XFER_SLICE_H

#include "base/result.h"
#include "host/hoststat.h"
#include "host/tcpinfo.h"

struct xfer_slice {
	const struct hoststat_roots *roots;
	char		 ifname[GB_IFNAME_LEN];
	int		 tcp;		/* sample TCP_INFO */
	unsigned	 n;		/* 0 when out of memory: no TCP */
	int		*fds;		/* the streams', n of them */
	struct tcpinfo_sample *now;	/* n, read at each slice */
	struct gb_tcp	 last;		/* the sums at the last slice's end */
	struct hoststat	*host;		/* the host then, or NULL */
};

/*
 * The baseline, right before the first byte; ifname's counters ("": no
 * interface's, the interrupts unknown).
 */
void	xfer_slice_init(struct xfer_slice *, const struct hoststat_roots *,
	    const char *ifname, int tcp, const int *fds, unsigned n);
/*
 * --omit's end: the next slice's TCP counts start from these samples
 * (the streams' own baselines), so that the measured slices add up to
 * the test's figures exactly.
 */
void	xfer_slice_rebase(struct xfer_slice *, const struct tcpinfo_sample *,
	    unsigned n);
/* A slice of slice_s seconds ends: its TCP and host figures into iv. */
void	xfer_slice_take(struct xfer_slice *, double slice_s,
	    struct gb_interval *iv);
void	xfer_slice_free(struct xfer_slice *);

#endif /* GB_XFER_SLICE_H */
