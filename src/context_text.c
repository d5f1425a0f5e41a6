/*
 * context_text.c: struct gb_context as the lines -v prints, one for the
 * host and two for the test interface, and a fourth for the note:
 *
 *   gigebench-t: host: Linux 6.1.0-18-amd64, 2 x Intel(R) Xeon(R) CPU ...;
 *       net.core.rmem_max 212992 wmem_max 212992, tcp_rmem 4096 131072
 *       6291456, tcp_wmem 4096 16384 4194304, cc cubic
 *   gigebench-t: nic eth0: driver virtio_net 1.0.0 bus 0000:00:04.0,
 *       10000 Mb/s full, mtu 1500; offloads rx-csum on tx-csum on ...
 *   gigebench-t: nic eth0: coalesce rx 0 us/1 frames tx 0 us/1 frames
 *       adaptive off/off; rings rx 256/256 tx 256/256
 *
 * (each on one line).  An unknown value is "n/a".  It only formats; the
 * strings were made printable by the reader or checked by the decoder,
 * and are printed no further than their fields.
 */

#include <inttypes.h>
#include <stdio.h>

#include "out/context_text.h"

#define CONTEXT_NUMLEN	24

static const char	*context_text_num(char *, int64_t);
static const char	*context_text_onoff(int);
static void		 context_text_host(FILE *, const struct gb_context *,
			    const char *);
static void		 context_text_nic(FILE *, const struct gb_context *,
			    const char *, const char *);
static void		 context_text_irq(FILE *, const struct gb_context *,
			    const char *, const char *);

/* A field of a struct gb_context, or "n/a" when it is "". */
#define CONTEXT_TEXT_STR(ctx, f) \
	(int)sizeof((ctx)->f), (ctx)->f[0] != '\0' ? (ctx)->f : "n/a"

/* v in buf (CONTEXT_NUMLEN bytes), or "n/a" when it is negative. */
static const char *
context_text_num(char *buf, int64_t v)
{
	if (v < 0)
		return "n/a";
	snprintf(buf, CONTEXT_NUMLEN, "%" PRId64, v);
	return buf;
}

static const char *
context_text_onoff(int v)
{
	return v == 1 ? "on" : v == 0 ? "off" : "n/a";
}

static void
context_text_host(FILE *fp, const struct gb_context *ctx, const char *prefix)
{
	char	n[3][CONTEXT_NUMLEN];

	fprintf(fp, "%s host: Linux %.*s, %s x %.*s; net.core.rmem_max %s "
	    "wmem_max %s, tcp_rmem %.*s, tcp_wmem %.*s, cc %.*s\n", prefix,
	    CONTEXT_TEXT_STR(ctx, kernel), context_text_num(n[0], ctx->ncpus),
	    CONTEXT_TEXT_STR(ctx, cpu_model),
	    context_text_num(n[1], ctx->rmem_max),
	    context_text_num(n[2], ctx->wmem_max),
	    CONTEXT_TEXT_STR(ctx, tcp_rmem), CONTEXT_TEXT_STR(ctx, tcp_wmem),
	    CONTEXT_TEXT_STR(ctx, congestion));
}

static void
context_text_nic(FILE *fp, const struct gb_context *ctx, const char *ifname,
    const char *prefix)
{
	char	n[CONTEXT_NUMLEN];

	fprintf(fp, "%s nic %s: driver %.*s", prefix, ifname,
	    CONTEXT_TEXT_STR(ctx, driver));
	if (ctx->driver_version[0] != '\0')
		fprintf(fp, " %.*s", (int)sizeof(ctx->driver_version),
		    ctx->driver_version);
	fprintf(fp, " bus %.*s, ", CONTEXT_TEXT_STR(ctx, bus));
	if (ctx->speed_mbps >= 0)
		fprintf(fp, "%" PRId64 " Mb/s ", ctx->speed_mbps);
	else
		fprintf(fp, "speed n/a ");
	if (ctx->duplex[0] != '\0')
		fprintf(fp, "%.*s", (int)sizeof(ctx->duplex), ctx->duplex);
	else
		fprintf(fp, "duplex n/a");
	fprintf(fp, ", mtu %s; offloads rx-csum %s tx-csum %s tso %s gso %s "
	    "gro %s lro %s\n", context_text_num(n, ctx->mtu),
	    context_text_onoff(ctx->rx_checksum),
	    context_text_onoff(ctx->tx_checksum),
	    context_text_onoff(ctx->tso), context_text_onoff(ctx->gso),
	    context_text_onoff(ctx->gro), context_text_onoff(ctx->lro));
}

static void
context_text_irq(FILE *fp, const struct gb_context *ctx, const char *ifname,
    const char *prefix)
{
	char	n[8][CONTEXT_NUMLEN];

	fprintf(fp, "%s nic %s: ", prefix, ifname);
	if (ctx->rx_usecs < 0 && ctx->rx_frames < 0 && ctx->tx_usecs < 0 &&
	    ctx->tx_frames < 0 && ctx->adaptive_rx < 0 && ctx->adaptive_tx < 0)
		fprintf(fp, "coalesce n/a");
	else
		fprintf(fp, "coalesce rx %s us/%s frames tx %s us/%s frames "
		    "adaptive %s/%s", context_text_num(n[0], ctx->rx_usecs),
		    context_text_num(n[1], ctx->rx_frames),
		    context_text_num(n[2], ctx->tx_usecs),
		    context_text_num(n[3], ctx->tx_frames),
		    context_text_onoff(ctx->adaptive_rx),
		    context_text_onoff(ctx->adaptive_tx));
	if (ctx->rx_ring < 0 && ctx->rx_ring_max < 0 && ctx->tx_ring < 0 &&
	    ctx->tx_ring_max < 0)
		fprintf(fp, "; rings n/a\n");
	else
		fprintf(fp, "; rings rx %s/%s tx %s/%s\n",
		    context_text_num(n[4], ctx->rx_ring),
		    context_text_num(n[5], ctx->rx_ring_max),
		    context_text_num(n[6], ctx->tx_ring),
		    context_text_num(n[7], ctx->tx_ring_max));
}

void
context_text(FILE *fp, const struct gb_context *ctx, const char *ifname,
    const char *prefix)
{
	if (ifname == NULL || *ifname == '\0')
		ifname = "n/a";
	if (!ctx->has) {
		fprintf(fp, "%s context: n/a\n", prefix);
		return;
	}
	context_text_host(fp, ctx, prefix);
	context_text_nic(fp, ctx, ifname, prefix);
	context_text_irq(fp, ctx, ifname, prefix);
	if (ctx->note[0] != '\0')
		fprintf(fp, "%s note: %.*s\n", prefix,
		    (int)sizeof(ctx->note), ctx->note);
}
