/*
 * xfer_measure.h: internal to the stream engine (xfer.c): the
 * measurement session around one test's transfer.  Before the first
 * byte: the interface (and the route's), the sockets' read-backs, -A's CPU list, the
 * context, --capture, the host and interface sample; after the last:
 * the second sample and the capture's end; then the side's figures and
 * the warnings of knobs that did not take.
 */
#ifndef GB_XFER_MEASURE_H
#define GB_XFER_MEASURE_H

#include <stddef.h>
#include <stdint.h>

#include "base/params.h"
#include "base/result.h"
#include "host/capture.h"
#include "host/hoststat.h"
#include "host/perfsample.h"
#include "host/udpstat.h"
#include "data/xfer.h"

struct xfer_measure {
	const struct gb_params	*p;		/* the engine's copy */
	int			 is_tx;
	const struct hoststat_roots *roots;
	char			 ifname[GB_IFNAME_LEN];
	int			 ifname_given;	/* by -I */
	/* The route's interface when it is not ifname's, else "". */
	char			 egress[GB_IFNAME_LEN];
	struct hoststat		*before;
	struct hoststat		*after;
	struct gb_sockbuf	 sndbuf, rcvbuf;
	int			 fd0;		/* stream 0's, for the above */
	int			 tos;		/* read back, -1 unknown */
	int			 has_fq_rate;
	uint64_t		 fq_rate;
	unsigned		 cpus[GB_MAX_STREAMS];	/* -A, in order */
	size_t			 ncpus;		/* in the whole list */
	struct gb_context	 context;
	struct capture		*capture;
	struct gb_capture	 cap;
	char			 capture_err[GB_ERR_LEN];
	int			 dg_max;	/* -u: the path's datagram, or 0 */
	/* -u: the kernel's UDP and interface drop counters. */
	struct udpstat		 udp_before, udp_after;
	struct ifdrops		 drops_before, drops_after;
	/* --profile: the sampler while the transfer runs, its counts. */
	int			 profile_refused;
	struct perfsample	*sampler;
	struct perfsample_counts profile_counts;
	int			 profiled;	/* the counts are in */
	struct gb_profile	 profile;
};

/*
 * From c (p is the engine's copy of c->params, kept): the interface and
 * the one the route to the peer leaves by, the read-backs of c->fds[0],
 * -A's list, the context, --capture.  -1 with err for a CPU list that
 * does not parse.
 */
int	xfer_measure_open(struct xfer_measure *, const struct xfer_config *c,
	    const struct gb_params *p, char *err, size_t errlen);
/* Right before the first byte: the host and interface sample. */
/* The first sample; again as --omit ends, in place of the first. */
int	xfer_measure_before(struct xfer_measure *, char *err, size_t errlen);
/* -A: the CPU of stream i, or -1 unpinned. */
int	xfer_measure_cpu(const struct xfer_measure *, unsigned i);
/*
 * Stream 0's socket buffers now: at each interval sample and at the end
 * (their final and peak).
 */
void	xfer_measure_bufs(struct xfer_measure *);
/* Right after the last byte: the second sample; the capture ends. */
void	xfer_measure_after(struct xfer_measure *);
/*
 * Into side (its tcp figures already summed): the read-backs, the
 * context, the capture, the host and interface deltas, and the knob
 * checks' warnings.
 */
void	xfer_measure_side(const struct xfer_measure *, struct gb_side *);
/*
 * Into side, after the streams' warnings: the interface's that is not
 * the route's, the TOS byte's, --capture's.
 */
void	xfer_measure_warn(const struct xfer_measure *, struct gb_side *);
void	xfer_measure_free(struct xfer_measure *);

/*
 * --profile (xfer_profile.c), called by the above: the sampler starts at
 * the end of xfer_measure_before() and stops at the start of
 * xfer_measure_after(); xfer_measure_side() makes the profile.
 */
void	xfer_profile_start(struct xfer_measure *);
void	xfer_profile_stop(struct xfer_measure *);
void	xfer_profile_side(const struct xfer_measure *, struct gb_side *);
void	xfer_profile_free(struct xfer_measure *);

#endif /* GB_XFER_MEASURE_H */
