/*
 * tcpinfo.h: TCP_INFO of one data socket, behind fields that state their
 * units, and the sum over a test's streams.
 */
#ifndef GB_TCPINFO_H
#define GB_TCPINFO_H

#include <stdint.h>

#include "base/result.h"

struct tcpinfo_sample {
	int		ok;
	uint32_t	total_retrans;	/* segments */
	uint32_t	rtt_us;
	uint32_t	rttvar_us;
	uint32_t	snd_cwnd;	/* segments */
	uint32_t	snd_mss;	/* bytes */
	uint32_t	advmss;		/* bytes we advertised */
	uint32_t	pmtu;		/* path MTU, bytes */
	uint32_t	snd_wnd;	/* peer's window, bytes (0: too old) */
	uint32_t	segs_out, segs_in, data_segs_out, data_segs_in;
	int		has_limited;	/* kernel 4.10+: the times below */
	uint64_t	busy_us, rwnd_limited_us, sndbuf_limited_us;
};

int	tcpinfo_read(int fd, struct tcpinfo_sample *);
/* What TCP moved on a connection (tcpinfo_motion); -1: not TCP. */
struct tcpinfo_motion {
	uint64_t	acked;		/* bytes the peer acknowledged */
	uint64_t	received;	/* bytes that came from it */
	uint32_t	last_data_recv_ms;	/* since data last came */
	int		window_shut;	/* the peer's window is 0 */
};
int	tcpinfo_motion(int fd, struct tcpinfo_motion *);
/*
 * Retransmits, cwnd, segments and limited times summed, rtt averaged,
 * mss/advmss/pmtu/snd_wnd of the first stream.
 */
void	tcpinfo_sum(const struct tcpinfo_sample *, unsigned n, struct gb_tcp *);
/*
 * What happened on a socket between two samples (--omit): the counters
 * (retransmits, segments, busy and limited times) less then's, the
 * gauges (RTT, cwnd, MSS, window) as now has them.  Pure.
 */
void	tcpinfo_since(const struct tcpinfo_sample *now,
	    const struct tcpinfo_sample *then, struct tcpinfo_sample *out);

#endif /* GB_TCPINFO_H */
