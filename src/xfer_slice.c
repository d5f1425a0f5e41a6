/*
 * xfer_slice.c: each -i slice's TCP state and host figures on this end
 * (xfer_slice.h).  TCP_INFO's counters only grow, so a slice's
 * retransmits and limited times are the differences of the sums over
 * the streams; cwnd and RTT are the values at the slice's end.  A file
 * or a socket option that cannot be read leaves its figures unknown
 * (has_tcp, has_host 0), never the test failed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host/tcpinfo.h"
#include "xfer_slice.h"

static void
slice_tcp_now(const struct xfer_slice *sl, struct gb_tcp *t)
{
	struct tcpinfo_sample *s = sl->now;
	unsigned i;

	memset(t, 0, sizeof(*t));
	if (sl->n == 0)
		return;
	memset(s, 0, sl->n * sizeof(*s));
	for (i = 0; i < sl->n; i++)
		if (tcpinfo_read(sl->fds[i], &s[i]) == -1)
			s[i].ok = 0;
	tcpinfo_sum(s, sl->n, t);
}

void
xfer_slice_init(struct xfer_slice *sl, const struct hoststat_roots *roots,
    const char *ifname, int tcp, const int *fds, unsigned n)
{
	char err[GB_ERR_LEN];

	memset(sl, 0, sizeof(*sl));
	sl->roots = roots;
	snprintf(sl->ifname, sizeof(sl->ifname), "%s",
	    ifname != NULL ? ifname : "");
	sl->tcp = tcp;
	sl->fds = calloc(n, sizeof(*sl->fds));
	sl->now = calloc(n, sizeof(*sl->now));
	if (sl->fds != NULL && sl->now != NULL) {
		sl->n = n;
		memcpy(sl->fds, fds, n * sizeof(*fds));
	}
	sl->host = hoststat_take(roots, sl->ifname, err, sizeof(err));
	if (sl->tcp)
		slice_tcp_now(sl, &sl->last);
}

/* The share of the slice's stream time, in %, that us of it were. */
static double
slice_pct(uint64_t us, double slice_s, unsigned streams)
{
	double pct;

	if (slice_s <= 0 || streams == 0)
		return 0;
	pct = 100.0 * (double)us / (slice_s * 1e6 * streams);
	return pct > 100 ? 100 : pct;
}

static void
slice_tcp(struct xfer_slice *sl, double slice_s, struct gb_interval *iv)
{
	struct gb_tcp now;

	slice_tcp_now(sl, &now);
	if (!now.has || !sl->last.has) {
		sl->last = now;
		return;
	}
	iv->has_tcp = 1;
	iv->retrans = now.retransmits >= sl->last.retransmits ?
	    now.retransmits - sl->last.retransmits : 0;
	iv->cwnd = now.cwnd;
	iv->rtt_us = now.rtt_us;
	if (now.has_limited && sl->last.has_limited) {
		iv->has_limited = 1;
		iv->rwnd_limited_pct = slice_pct(now.rwnd_limited_us -
		    sl->last.rwnd_limited_us, slice_s, sl->n);
		iv->sndbuf_limited_pct = slice_pct(now.sndbuf_limited_us -
		    sl->last.sndbuf_limited_us, slice_s, sl->n);
	}
	sl->last = now;
}

/*
 * The host's CPU, this process's, the interface's interrupts and the
 * softirqs since the last sample; what could not be read stays unknown.
 */
static void
slice_host(struct xfer_slice *sl, struct gb_interval *iv)
{
	struct hoststat *now;
	struct gb_host_cpu hc;
	struct gb_iface_figures f;
	struct gb_proc_cpu pc;
	char err[GB_ERR_LEN];

	now = hoststat_take(sl->roots, sl->ifname, err, sizeof(err));
	if (now != NULL && sl->host != NULL) {
		hoststat_diff(sl->host, now, 0, &hc, &f, &pc, NULL);
		if (hc.has && hc.ncpus > 0) {
			iv->has_host = 1;
			iv->host_busy_pct = hc.busy_pct;
			iv->host_max_cpu_pct = hc.max_cpu_busy_pct;
			iv->host_ncpus = hc.ncpus;
		}
		iv->has_proc = 1;
		iv->proc_cpu_s = pc.user_s + pc.sys_s;
		if ((iv->has_irq = f.has_interrupts))
			iv->interrupts = f.interrupts;
		if ((iv->has_softirq = f.has_softirq))
			iv->net_rx_softirqs = f.net_rx_softirqs;
	}
	hoststat_free(sl->host);
	sl->host = now;
}

void
xfer_slice_rebase(struct xfer_slice *sl, const struct tcpinfo_sample *s,
    unsigned n)
{
	if (sl->tcp)
		tcpinfo_sum(s, n < sl->n ? n : sl->n, &sl->last);
}

void
xfer_slice_take(struct xfer_slice *sl, double slice_s, struct gb_interval *iv)
{
	if (sl->tcp)
		slice_tcp(sl, slice_s, iv);
	slice_host(sl, iv);
}

void
xfer_slice_free(struct xfer_slice *sl)
{
	hoststat_free(sl->host);
	sl->host = NULL;
	free(sl->fds);
	free(sl->now);
	sl->fds = NULL;
	sl->now = NULL;
	sl->n = 0;
}
