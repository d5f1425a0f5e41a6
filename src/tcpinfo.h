/*
 * tcpinfo.h: TCP_INFO of one data socket, behind fields that state their
 * units, and the sum over a test's streams.
 */
#ifndef GB_TCPINFO_H
#define GB_TCPINFO_H

#include <stdint.h>

#include "result.h"

struct tcpinfo_sample {
	int		ok;
	uint32_t	total_retrans;	/* segments */
	uint32_t	rtt_us;
	uint32_t	rttvar_us;
	uint32_t	snd_cwnd;	/* segments */
	uint32_t	snd_mss;	/* bytes */
};

int	tcpinfo_read(int fd, struct tcpinfo_sample *);
/* retransmits and cwnd summed, rtt averaged, mss of the first stream. */
void	tcpinfo_sum(const struct tcpinfo_sample *, unsigned n, struct gb_tcp *);

#endif /* GB_TCPINFO_H */
