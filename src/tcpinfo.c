/*
 * tcpinfo.c: the Linux TCP_INFO reader.  The kernel reports tcpi_rtt and
 * tcpi_rttvar in microseconds and tcpi_snd_cwnd in segments; the names of
 * struct tcpinfo_sample say so, so no caller has to remember it.
 */
#include <sys/socket.h>
#include <netinet/in.h>
#include <netinet/tcp.h>

#include <string.h>

#include "tcpinfo.h"

int
tcpinfo_read(int fd, struct tcpinfo_sample *s)
{
	struct tcp_info ti;
	socklen_t len = sizeof(ti);

	memset(s, 0, sizeof(*s));
	memset(&ti, 0, sizeof(ti));
	if (getsockopt(fd, IPPROTO_TCP, TCP_INFO, &ti, &len) == -1)
		return -1;
	s->ok = 1;
	s->total_retrans = ti.tcpi_total_retrans;
	s->rtt_us = ti.tcpi_rtt;
	s->rttvar_us = ti.tcpi_rttvar;
	s->snd_cwnd = ti.tcpi_snd_cwnd;
	s->snd_mss = ti.tcpi_snd_mss;
	return 0;
}

void
tcpinfo_sum(const struct tcpinfo_sample *s, unsigned n, struct gb_tcp *t)
{
	uint64_t rtt = 0, rttvar = 0;
	unsigned i, ok = 0;

	memset(t, 0, sizeof(*t));
	for (i = 0; i < n; i++) {
		if (!s[i].ok)
			continue;
		if (ok == 0)
			t->mss = s[i].snd_mss;
		ok++;
		t->retransmits += s[i].total_retrans;
		t->cwnd += s[i].snd_cwnd;
		rtt += s[i].rtt_us;
		rttvar += s[i].rttvar_us;
	}
	if (ok == 0)
		return;
	t->has = 1;
	t->rtt_us = (uint32_t)(rtt / ok);
	t->rttvar_us = (uint32_t)(rttvar / ok);
}
