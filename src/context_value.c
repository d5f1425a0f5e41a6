/*
 * context_value.c: the "unknown" struct gb_context and the printable copy
 * of its strings (context_value.h), shared by the host readers, the JSON
 * codec and the tests.  Pure: no I/O.
 */
#include <string.h>

#include "base/context_value.h"
#include "base/safetext.h"

void
context_init(struct gb_context *ctx)
{
	memset(ctx, 0, sizeof(*ctx));
	ctx->ncpus = -1;
	ctx->speed_mbps = ctx->mtu = -1;
	ctx->rx_checksum = ctx->tx_checksum = ctx->tso = ctx->gso =
	    ctx->gro = ctx->lro = -1;
	ctx->rx_usecs = ctx->rx_frames = ctx->tx_usecs = ctx->tx_frames = -1;
	ctx->adaptive_rx = ctx->adaptive_tx = -1;
	ctx->rx_ring = ctx->tx_ring = ctx->rx_ring_max = ctx->tx_ring_max = -1;
	ctx->rmem_max = ctx->wmem_max = -1;
}

void
context_copy(char *dst, size_t dstlen, const char *src)
{
	safetext_escape(dst, dstlen, src);
}
