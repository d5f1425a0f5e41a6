/*
 * diag_udp.c: what a UDP test's figures say (-u): where the datagrams
 * were lost, told apart by the counters both ends read (the receiving
 * sockets' own overflow count, the host's UDP buffer errors, the
 * interfaces' drops), the rest being the path's; and a sender that could
 * not keep its -R pace, which is no loss.  Pure: the figures are in the
 * result already.
 */
#include <inttypes.h>
#include <stdio.h>

#include "base/diag.h"
#include "base/result.h"
#include "diag_internal.h"

/* A sender below this share of its pace was held back. */
#define DIAG_UDP_PACE	0.99

/* One place of loss, " 3.9 % in the receiving sockets' buffers (...),". */
static size_t
loss_part(char *buf, size_t len, size_t at, uint64_t n, uint64_t sent,
    const char *where)
{
	int k;

	if (n == 0 || at >= len)
		return at;
	k = snprintf(buf + at, len - at, "%s %.2f %% %s", at > 0 ? "," : "",
	    100.0 * (double)n / (double)sent, where);
	return k > 0 ? at + (size_t)k : at;
}

static uint64_t
take(uint64_t *left, uint64_t n)
{
	n = n < *left ? n : *left;
	*left -= n;
	return n;
}

static void
diag_udp_loss(struct gb_result *r, const struct gb_udp_figures *f)
{
	const struct gb_udp *tx = &r->sender.udp, *rx = &r->receiver.udp;
	uint64_t left = f->lost, sock;
	char parts[200] = "";
	size_t at = 0;

	/* The test's own sockets say exactly; else the host's count. */
	sock = rx->has_sock_drops && rx->sock_drops > 0 ? rx->sock_drops :
	    rx->has_kernel ? rx->rcvbuf_errors : 0;
	at = loss_part(parts, sizeof(parts), at, take(&left, sock), f->sent,
	    "in the receiving socket's buffer (raise -b, net.core.rmem_max)");
	if (rx->has_ifdrops)
		at = loss_part(parts, sizeof(parts), at, take(&left,
		    rx->if_rx_dropped + rx->if_rx_missed), f->sent,
		    "dropped by the receiver's interface (its ring: ethtool -G)");
	if (tx->has_ifdrops)
		at = loss_part(parts, sizeof(parts), at, take(&left,
		    tx->if_tx_dropped), f->sent,
		    "dropped by the sender's interface");
	at = loss_part(parts, sizeof(parts), at, left, f->sent,
	    "unaccounted (on the path: a queue or a link between the ends)");
	diag_add(r, "udp_loss", left == f->lost ? "path" : "receiver",
	    "lost %.2f %% (%" PRIu64 " of %" PRIu64 " datagrams):%s",
	    f->lost_pct, f->lost, f->sent, parts);
}

/* -R asked for more than went out: the sender, not the path. */
static void
diag_udp_pace(struct gb_result *r, const struct gb_udp_figures *f)
{
	const struct gb_params *p = &r->params;
	const struct gb_udp *tx = &r->sender.udp;
	double want;

	if (tx->length == 0)
		return;
	want = p->rate_pps != 0 ? (double)p->rate_pps : (double)p->rate_bps /
	    (8.0 * tx->length);
	want *= p->streams;
	if (want <= 0 || f->tx_pps >= DIAG_UDP_PACE * want)
		return;
	diag_add(r, "udp_held_back", "sender", "sent %.0f datagrams/s, %.1f %% "
	    "of the %.0f -R asks: the sender was held back (its CPU, socket "
	    "buffer or device queue; %" PRIu64 " sends refused ENOBUFS/EAGAIN)"
	    ", which is not loss", f->tx_pps, 100.0 * f->tx_pps / want, want,
	    tx->enobufs);
}

void
diag_udp(struct gb_result *r)
{
	struct gb_udp_figures f;

	result_udp(r, &f);
	if (!f.has || !f.sent_known)
		return;
	if (f.lost > 0 && f.sent > 0)
		diag_udp_loss(r, &f);
	diag_udp_pace(r, &f);
}
