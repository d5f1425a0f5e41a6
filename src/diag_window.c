/*
 * diag_window.c: the findings on the TCP window (base/diag.h): how much
 * of the sender's busy time the receive window or the send buffer
 * limited, and the receiver's window against the path's bandwidth-delay
 * product.  Part of the diagnosis (diag.c runs it); pure like the rest:
 * it reads the result and adds findings only.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "base/diag.h"
#include "diag_internal.h"

/* Share of the sender's busy time that TCP spent window-limited. */
#define DIAG_LIMITED_PCT	10.0
/* A window this many times the BDP is worth a word, not a warning. */
#define DIAG_OVERSIZE_FACTOR	10.0
/* Below this share of the goodput, the link was not full. */
#define DIAG_FULL_LINK_PCT	90.0

static const char *diag_fmt_bytes(char *, size_t, double);
static double	 diag_limited_pct(const struct gb_tcp *, uint64_t);
static uint32_t	 diag_window_bytes(const struct gb_side *);

/*
 * "768 KB", "9.6 KB", "1.5 MB": KB and MB are 2^10 and 2^20 bytes, as
 * ttcp and -b count them.  One decimal only where it says something.
 */
static const char *
diag_fmt_bytes(char *buf, size_t len, double bytes)
{
	const char	*unit = "KB";
	double		 v = bytes / 1024.0;

	if (v >= 1024.0) {
		v /= 1024.0;
		unit = "MB";
	}
	if (v >= 100.0 || fabs(v - round(v)) < 0.05)
		snprintf(buf, len, "%.0f %s", v, unit);
	else
		snprintf(buf, len, "%.1f %s", v, unit);
	return buf;
}

/* Share of the busy time limited_us stands for; -1 when unknown. */
static double
diag_limited_pct(const struct gb_tcp *t, uint64_t limited_us)
{
	if (!t->has || !t->has_limited || t->busy_us == 0)
		return -1;
	return 100.0 * (double)limited_us / (double)t->busy_us;
}

/*
 * The receiver's window, when -b fixed it: the SO_RCVBUF asked for, or
 * what the kernel granted when that is less (capped by rmem_max).  Linux
 * doubles a request and keeps half for bookkeeping, so the request, not
 * the doubled figure, is close to the window it advertises.  Without -b
 * the buffer is autotuned up to tcp_rmem's maximum and the size read at
 * the start says nothing about the window: 0.
 */
static uint32_t
diag_window_bytes(const struct gb_side *rx)
{
	const struct gb_sockbuf *b = &rx->rcvbuf;

	uint32_t got = b->final != 0 ? b->final : b->actual;

	if (!rx->has || b->requested == 0)
		return 0;
	/* What it was at the end: the kernel may have changed it since. */
	if (got != 0 && got < b->requested)
		return got;
	return b->requested;
}

/* tcpi_rwnd_limited / tcpi_sndbuf_limited over tcpi_busy_time. */
void
diag_window_limited(struct gb_result *r)
{
	const struct gb_tcp	*t = &r->sender.tcp;
	double			 pct;

	if (!r->sender.has)
		return;
	pct = diag_limited_pct(t, t->rwnd_limited_us);
	if (pct >= DIAG_LIMITED_PCT)
		diag_add(r, "window_limited", "receiver", "limited by the "
		    "receive window %.0f %% of the time (%.2f of %.2f s busy)",
		    pct, (double)t->rwnd_limited_us / 1e6,
		    (double)t->busy_us / 1e6);
	pct = diag_limited_pct(t, t->sndbuf_limited_us);
	if (pct >= DIAG_LIMITED_PCT)
		diag_add(r, "window_limited", "sender", "limited by the "
		    "send buffer %.0f %% of the time (%.2f of %.2f s busy)",
		    pct, (double)t->sndbuf_limited_us / 1e6,
		    (double)t->busy_us / 1e6);
}

/*
 * The window against the bandwidth-delay product, per stream: rate * RTT
 * at the link rate when it is known (what the window must cover), else
 * at the measured rate.  Ten times too large is informative (the seed's
 * 768 KB for a 15 KB path); too small matters only when TCP says the
 * window limited it or the link was visibly not full.
 */
void
diag_window_size(struct gb_result *r)
{
	const struct gb_tcp	*t = &r->sender.tcp;
	const struct gb_sockbuf	*b = &r->receiver.rcvbuf;
	double			 rate = diag_rate_mbps(r);
	double			 link = diag_link_mbps(r);
	double			 basis, bdp, gp, rwnd_pct;
	uint32_t		 win = diag_window_bytes(&r->receiver);
	int			 streams = diag_streams(r), assumed, slow;
	char			 w[DIAG_TOKLEN], d[DIAG_TOKLEN];
	char			 how[DIAG_TOKLEN * 2];

	if (win == 0 || !r->sender.has || !t->has || t->rtt_us == 0)
		return;
	basis = link > 0 ? link : rate;
	if (!(basis > 0))
		return;
	bdp = basis * 1e6 / 8 * (double)t->rtt_us / 1e6 / streams;
	diag_fmt_bytes(w, sizeof(w), win);
	diag_fmt_bytes(d, sizeof(d), bdp);
	if (link > 0)
		snprintf(how, sizeof(how), "%.0f Mbit/s link", link);
	else
		snprintf(how, sizeof(how), "%.1f Mbps", rate);
	if (streams > 1)
		snprintf(how + strlen(how), sizeof(how) - strlen(how),
		    " / %d streams", streams);
	snprintf(how + strlen(how), sizeof(how) - strlen(how),
	    " x %.3f ms RTT", t->rtt_us / 1e3);

	if (win >= DIAG_OVERSIZE_FACTOR * bdp) {
		diag_add(r, "window_oversized", "receiver", "%s window, path "
		    "BDP %s%s (%s): window %.0fx larger than needed", w, d,
		    streams > 1 ? " per stream" : "", how, win / bdp);
		return;
	}
	if (!(win < bdp))
		return;
	rwnd_pct = diag_limited_pct(t, t->rwnd_limited_us);
	gp = diag_tcp_goodput_mbps(link, diag_mtu(r, &assumed),
	    DIAG_ETHERNET_OVERHEAD_BYTES);
	slow = gp > 0 && rate > 0 && rate < gp * DIAG_FULL_LINK_PCT / 100;
	if (rwnd_pct >= DIAG_LIMITED_PCT || slow)
		diag_add(r, "window_small", "receiver", "window %s < path BDP "
		    "%s%s (%s): %s", w, d, streams > 1 ? " per stream" : "",
		    how, b->actual != 0 && b->actual < b->requested ?
		    "raise net.core.rmem_max or use --force-bufs" :
		    "raise -b");
}
