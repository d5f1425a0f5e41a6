/*
 * xfer_finish.c: the stream engine's last step (data/xfer.h): once
 * every stream has ended, the side's figures from the streams' counts,
 * TCP_INFO and the measurement around the transfer, with the warnings
 * of paths that fell back and threads -A could not pin.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/datapath.h"
#include "base/flowstat.h"
#include "base/knobs.h"
#include "xfer_state.h"

/*
 * Each flow's figures into x->flows (all of them, for --flow-csv), the
 * first GB_MAX_STREAMS into the side, their summary; and the side's
 * path: the one every flow used, or the plain one when some fell back;
 * a warning says why, and one which flows -A could not pin.  ti: each
 * flow's TCP_INFO since --omit.
 */
static void
xfer_streams_figures(struct xfer *x, struct gb_side *side,
    const struct tcpinfo_sample *ti)
{
	const struct stream_io *io;
	struct gb_stream *g;
	unsigned i, fell = 0, unpinned = 0, keep = GB_MAX_STREAMS;
	int plain = x->is_tx ? GB_PATH_SEND : GB_PATH_RECV;

	/* --bidir: both halves' sides go in one message (proto.h). */
	if (x->p.bidir || x->fwd != NULL)
		keep = GB_MAX_STREAMS / 2;
	side->data_path = x->n > 0 ? x->s[0].io.path : plain;
	side->nstreams = x->n < keep ? x->n : keep;
	side->rcvlowat = x->n > 0 ? x->s[0].io.rx.lowat : 0;
	for (i = 0; i < x->n; i++) {
		io = &x->s[i].io;
		g = &x->flows[i];
		stream_io_figures(io, g, &side->zerocopy);
		g->bytes -= x->s[i].bytes0;	/* --omit */
		g->seconds = ts_diff(&x->start, &x->s[i].end);
		/* A receiver's TCP_INFO is of the unused way back. */
		g->has_tcp = !x->p.udp && ti[i].ok && (x->is_tx || x->p.rr);
		g->retrans = g->has_tcp ? ti[i].total_retrans : 0;
		g->rtt_us = g->has_tcp ? ti[i].rtt_us : 0;
		g->transactions = atomic_load(&io->rr.trans);
		if (i < keep)
			side->streams[i] = *g;
		if (x->p.udp && !x->p.rr)
			stream_io_udp(io, x->is_tx, &side->udp);
		if (io->path != side->data_path)
			side->data_path = plain;
		if (io->note[0] != '\0' && fell++ == 0)
			knobs_warn(side, "stream %u: %s", i, io->note);
		if (io->pin_err != 0 && unpinned++ == 0)
			knobs_warn(side, "-A: cannot pin stream %u to cpu "
			    "%d: %s", i, io->pin_cpu, strerror(io->pin_err));
	}
	if (fell > 1)
		knobs_warn(side, "%u streams in all fell back to %s", fell,
		    datapath_name(side->data_path));
	if (unpinned > 1)
		knobs_warn(side, "-A: %u streams in all are not pinned",
		    unpinned);
	if (flowstat_summarize(x->flows, x->n, x->nw, x->p.rr,
	    &side->flows) == -1)
		knobs_warn(side, "out of memory for the flows' summary");
}

/* --rr: the transactions, and on the asking end every stream's latencies. */
static void
xfer_rr_figures(const struct xfer *x, struct gb_side *side,
    struct gb_result *r)
{
	const struct stream_rr *rr;
	unsigned i;

	if (!x->p.rr)
		return;
	side->rr.has = 1;
	if (r != NULL && x->is_tx) {
		r->has_latency = 1;
		lathist_init(&r->latency);
	}
	side->rr.has_udp = x->p.udp;
	if (x->p.udp && x->is_tx)
		side->rr.timeout_ms = params_rr_timeout_ms(x->p.rr_timeout_ms);
	for (i = 0; i < x->n; i++) {
		rr = &x->s[i].io.rr;
		side->rr.transactions += atomic_load(&rr->trans);
		side->rr.stray += x->s[i].io.dg.stray;
		side->rr.unsent += x->s[i].io.dg.enobufs +
		    x->s[i].io.dg.refused;
		side->rr.requests += rr->slots != NULL ? rr->slots->requests :
		    rr->taken;
		if (rr->slots != NULL) {
			side->rr.lost += rr->slots->lost;
			side->rr.late += rr->slots->late;
			side->rr.stray += rr->slots->stray;
		}
		side->rr.connections += atomic_load(&rr->crr.conns);
		if (r != NULL && x->is_tx && rr->hist != NULL)
			lathist_merge(&r->latency, rr->hist);
	}
}

void
xfer_probe_figures(const struct xfer *x, struct gb_probe *pr)
{
	const struct stream_rr *rr;
	unsigned i;

	memset(pr, 0, sizeof(*pr));
	lathist_init(&pr->latency);
	pr->has = 1;
	pr->streams = x->n;
	pr->seconds = ts_diff(&x->start, &x->end);
	pr->tos = x->n > 0 ? sock_tos(x->s[0].fd) : -1;
	pr->udp = x->p.udp;
	pr->rate = x->p.rr_rate;
	for (i = 0; i < x->n; i++) {
		rr = &x->s[i].io.rr;
		pr->transactions += atomic_load(&rr->trans);
		if (rr->hist != NULL)
			lathist_merge(&pr->latency, rr->hist);
		if (rr->slots == NULL || !rr->omit_seen)
			continue;
		pr->requests += rr->slots->requests - rr->requests0;
		pr->lost += rr->slots->lost - rr->lost0;
	}
	for (i = 0; i < x->niv && i < GB_MAX_INTERVALS; i++) {
		pr->slices[i].omitted = x->iv[i].omitted;
		pr->slices[i].start_s = x->iv[i].start_s;
		pr->slices[i].end_s = x->iv[i].end_s;
		pr->slices[i].transactions = x->iv[i].transactions;
		pr->slices[i].p50_us = x->iv[i].has_latency ?
		    x->iv[i].p50_us : 0;
		pr->slices[i].p99_us = x->iv[i].has_latency ?
		    x->iv[i].p99_us : 0;
	}
	pr->nslices = i;
}

int
xfer_finish(struct xfer *x, struct gb_side *side, struct gb_result *r,
    char *err, size_t errlen)
{
	unsigned i;

	memset(side, 0, sizeof(*side));
	if (x->abort_why[0] != '\0') {
		snprintf(err, errlen, "%s", x->abort_why);
		return -1;
	}
	for (i = 0; i < x->n; i++) {
		if (x->s[i].error[0] != '\0') {
			snprintf(err, errlen, "stream %u: %s", i,
			    x->s[i].error);
			return -1;
		}
	}
	return xfer_finish_partial(x, side, r, err, errlen);
}

int
xfer_finish_partial(struct xfer *x, struct gb_side *side,
    struct gb_result *r, char *err, size_t errlen)
{
	struct tcpinfo_sample *ti;
	unsigned i;

	memset(side, 0, sizeof(*side));
	if ((ti = calloc(x->n, sizeof(*ti))) == NULL) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	side->has = 1;
	/* --omit: from its end (zero counts without it, or before it). */
	for (i = 0; i < x->n; i++) {
		side->bytes += atomic_load(&x->s[i].io.bytes) - x->s[i].bytes0;
		side->calls += atomic_load(&x->s[i].io.calls) - x->s[i].calls0;
		if (x->omit_done)
			tcpinfo_since(&x->s[i].ti, &x->s[i].ti0, &ti[i]);
		else
			ti[i] = x->s[i].ti;
	}
	if (x->p.omit_ms != 0 && !x->omit_done)
		knobs_warn(side, "the test ended within --omit %g s: these "
		    "figures include the time it should have left out",
		    x->p.omit_ms / 1000.0);
	side->seconds = ts_diff(&x->start, &x->end);
	side->mbps = result_mbps(side->bytes, side->seconds);
	tcpinfo_sum(ti, x->n, &side->tcp);
	xfer_measure_side(&x->ms, side);
	free(x->flows);
	if ((x->flows = calloc(x->n, sizeof(*x->flows))) == NULL) {
		free(ti);
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	xfer_streams_figures(x, side, ti);
	free(ti);
	xfer_rr_figures(x, side, r);
	xfer_measure_warn(&x->ms, side);
	if (r != NULL && r->params.buflen == GB_LEN_MTU)
		r->params.buflen = x->p.buflen;	/* -l mtu: as it came out */
	/*
	 * The slices as they ended: the last sliver joined its slice after
	 * that one went to interval_cb.  --bidir's half going back: the
	 * result's reverse slices.
	 */
	if (r != NULL && x->iv != NULL && x->fwd != NULL) {
		r->nrintervals = x->niv;
		memcpy(r->rintervals, x->iv, x->niv * sizeof(*x->iv));
	} else if (r != NULL && x->iv != NULL) {
		r->nintervals = x->niv;
		memcpy(r->intervals, x->iv, x->niv * sizeof(*x->iv));
	}
	return 0;
}


const struct gb_stream *
xfer_flows(const struct xfer *x, unsigned *n)
{
	*n = x->flows != NULL ? x->n : 0;
	return x->flows;
}
