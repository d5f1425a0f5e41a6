/*
 * tcpinfo.c: the Linux TCP_INFO reader.  The kernel reports tcpi_rtt and
 * tcpi_rttvar in microseconds, tcpi_snd_cwnd in segments and the limited
 * times in microseconds; the names of struct tcpinfo_sample say so, so no
 * caller has to remember it.  <linux/tcp.h> rather than glibc's
 * <netinet/tcp.h>: only the former has the 4.x fields (segments, busy and
 * limited times, snd_wnd).  An older kernel fills a shorter struct, and the
 * returned length says which fields are real.
 */
#include <sys/socket.h>
#include <netinet/in.h>
#include <linux/tcp.h>

#include <stddef.h>
#include <string.h>

#include "host/tcpinfo.h"

#define HAS_FIELD(len, f) \
	((len) >= offsetof(struct tcp_info, f) + sizeof(((struct tcp_info *)0)->f))

/* TCP_INFO of fd into ti, zeroed first: the length the kernel filled. */
static int
tcpinfo_get(int fd, struct tcp_info *ti, socklen_t *len)
{
	*len = sizeof(*ti);
	memset(ti, 0, sizeof(*ti));
	return getsockopt(fd, IPPROTO_TCP, TCP_INFO, ti, len);
}

int
tcpinfo_read(int fd, struct tcpinfo_sample *s)
{
	struct tcp_info ti;
	socklen_t len;

	memset(s, 0, sizeof(*s));
	if (tcpinfo_get(fd, &ti, &len) == -1)
		return -1;
	s->ok = 1;
	s->total_retrans = ti.tcpi_total_retrans;
	s->rtt_us = ti.tcpi_rtt;
	s->rttvar_us = ti.tcpi_rttvar;
	s->snd_cwnd = ti.tcpi_snd_cwnd;
	s->snd_mss = ti.tcpi_snd_mss;
	s->advmss = ti.tcpi_advmss;
	s->pmtu = ti.tcpi_pmtu;
	s->segs_out = ti.tcpi_segs_out;
	s->segs_in = ti.tcpi_segs_in;
	s->data_segs_out = ti.tcpi_data_segs_out;
	s->data_segs_in = ti.tcpi_data_segs_in;
	if (HAS_FIELD(len, tcpi_sndbuf_limited)) {
		s->has_limited = 1;
		s->busy_us = ti.tcpi_busy_time;
		s->rwnd_limited_us = ti.tcpi_rwnd_limited;
		s->sndbuf_limited_us = ti.tcpi_sndbuf_limited;
	}
	if (HAS_FIELD(len, tcpi_snd_wnd))
		s->snd_wnd = ti.tcpi_snd_wnd;
	return 0;
}

/*
 * What TCP has moved on a connection, by TCP_INFO: the bytes the peer
 * acknowledged and the bytes that came from it, and whether the peer's
 * window is shut (0 on a kernel too old to say).  A flow whose calls
 * stand still (a full send buffer on a slow link, SO_RCVLOWAT holding a
 * read back) is still alive while these move; a peer that stopped
 * reading moves them no more, whatever its kernel answers to window
 * probes, and soon shuts its window.
 */
int
tcpinfo_motion(int fd, struct tcpinfo_motion *m)
{
	struct tcp_info ti;
	socklen_t len;

	memset(m, 0, sizeof(*m));
	if (tcpinfo_get(fd, &ti, &len) == -1 ||
	    !HAS_FIELD(len, tcpi_bytes_received))
		return -1;
	m->last_data_recv_ms = ti.tcpi_last_data_recv;
	m->acked = ti.tcpi_bytes_acked;
	m->received = ti.tcpi_bytes_received;
	m->window_shut = HAS_FIELD(len, tcpi_snd_wnd) && ti.tcpi_snd_wnd == 0;
	return 0;
}

void
tcpinfo_sum(const struct tcpinfo_sample *s, unsigned n, struct gb_tcp *t)
{
	uint64_t rtt = 0, rttvar = 0;
	unsigned i, ok = 0, limited = 0;

	memset(t, 0, sizeof(*t));
	for (i = 0; i < n; i++) {
		if (!s[i].ok)
			continue;
		if (ok == 0) {
			t->mss = s[i].snd_mss;
			t->advmss = s[i].advmss;
			t->pmtu = s[i].pmtu;
			t->snd_wnd = s[i].snd_wnd;
		}
		ok++;
		t->retransmits += s[i].total_retrans;
		t->cwnd += s[i].snd_cwnd;
		t->segs_out += s[i].segs_out;
		t->segs_in += s[i].segs_in;
		t->data_segs_out += s[i].data_segs_out;
		t->data_segs_in += s[i].data_segs_in;
		rtt += s[i].rtt_us;
		rttvar += s[i].rttvar_us;
		if (s[i].has_limited) {
			limited++;
			t->busy_us += s[i].busy_us;
			t->rwnd_limited_us += s[i].rwnd_limited_us;
			t->sndbuf_limited_us += s[i].sndbuf_limited_us;
		}
	}
	if (ok == 0)
		return;
	t->has = 1;
	t->has_limited = limited == ok;
	t->rtt_us = (uint32_t)(rtt / ok);
	t->rttvar_us = (uint32_t)(rttvar / ok);
}

static uint64_t
since(uint64_t now, uint64_t then)
{
	return now >= then ? now - then : 0;
}

void
tcpinfo_since(const struct tcpinfo_sample *now,
    const struct tcpinfo_sample *then, struct tcpinfo_sample *out)
{
	*out = *now;
	if (!now->ok || !then->ok)
		return;
	/* 32-bit counters of the kernel's: modulo 2^32 across a wrap. */
	out->total_retrans = now->total_retrans - then->total_retrans;
	out->segs_out = now->segs_out - then->segs_out;
	out->segs_in = now->segs_in - then->segs_in;
	out->data_segs_out = now->data_segs_out - then->data_segs_out;
	out->data_segs_in = now->data_segs_in - then->data_segs_in;
	if (!now->has_limited || !then->has_limited)
		return;
	out->busy_us = since(now->busy_us, then->busy_us);
	out->rwnd_limited_us = since(now->rwnd_limited_us,
	    then->rwnd_limited_us);
	out->sndbuf_limited_us = since(now->sndbuf_limited_us,
	    then->sndbuf_limited_us);
}
