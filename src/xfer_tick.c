/*
 * xfer_tick.c: what the event loop samples while the streams run
 * (xfer_state.h), never in a stream's thread: the -i slices (this end's
 * bytes, -u's datagrams, xfer_slice.c's TCP and host figures), the end
 * of --omit, and the progress line's figures.
 *
 * --omit: the streams run on untouched; what changes is where the
 * figures start: each stream's bytes, calls and TCP_INFO as they are at
 * its end are what xfer_finish.c leaves out, the host sample before the
 * transfer is taken again, the test's clock starts there, and so do the
 * -i slices, the last omitted one ending there.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#include "host/tcpinfo.h"
#include "xfer_state.h"

/* -u: the slice's datagrams, and the receiver's new gaps and jitter. */
static void
xfer_sample_udp(struct xfer *x, struct gb_interval *iv)
{
	uint64_t count = 0, expect = 0, j, gaps;
	unsigned i;

	iv->has_udp = 1;
	for (i = 0; i < x->n; i++) {
		count += atomic_load_explicit(&x->s[i].io.dg.iv_count,
		    memory_order_relaxed);
		expect += atomic_load_explicit(&x->s[i].io.dg.iv_expect,
		    memory_order_relaxed);
		j = atomic_load_explicit(&x->s[i].io.dg.iv_jitter_ns,
		    memory_order_relaxed);
		if (j / 1e6 > iv->jitter_ms)
			iv->jitter_ms = (double)j / 1e6;
	}
	iv->datagrams = count - x->iv_count;
	gaps = expect - x->iv_expect;
	iv->lost = gaps > iv->datagrams ? gaps - iv->datagrams : 0;
	x->iv_count = count;
	x->iv_expect = expect;
}

/*
 * --rr: the slice's transactions, and on the asking end the latencies
 * each stream added since the last slice, taken and reset under its lock.
 */
static void
xfer_sample_rr(struct xfer *x, struct gb_interval *iv)
{
	struct stream_rr *rr;
	struct lathist h;
	uint64_t trans = 0;
	unsigned i;

	lathist_init(&h);
	for (i = 0; i < x->n; i++) {
		rr = &x->s[i].io.rr;
		trans += atomic_load_explicit(&rr->trans, memory_order_relaxed);
		if (rr->slice == NULL)
			continue;
		pthread_mutex_lock(&rr->lock);
		lathist_merge(&h, rr->slice);
		lathist_init(rr->slice);
		pthread_mutex_unlock(&rr->lock);
	}
	iv->has_rr = 1;
	iv->transactions = trans - x->iv_trans;
	x->iv_trans = trans;
	if (!x->is_tx || h.count == 0)
		return;
	iv->has_latency = 1;
	iv->p50_us = (double)lathist_percentile(&h, 50) / 1e3;
	iv->p99_us = (double)lathist_percentile(&h, 99) / 1e3;
	iv->max_us = (double)h.max / 1e3;
}

/*
 * The bytes stream s has moved so far, where the data is on the path.
 * A TCP stream's receiver counts what it has read, and it reads a whole
 * buffer at a time (SO_RCVLOWAT, receiver.c): what has arrived but waits
 * in the socket is counted too (SIOCINQ).  Its sender counts what it has
 * written, and up to a send buffer a flow of that is not yet across:
 * that is taken off (SIOCOUTQ, not yet acknowledged).  So an --omit's
 * end, a slice's or a progress line's is where the bytes were, not a
 * buffer or more a flow away from it (on a 100 Mbit/s router with 1 MiB
 * of queue a receiver's rate after --omit 3 read 98.3 Mbit/s, more than
 * the link carries).  The count is read before the queue: a read, write
 * or acknowledgement between the two leaves the sum at or below where
 * the bytes were, never above; and a count never goes back (seen, on
 * the event loop alone), so no slice is negative.  At the end all is
 * read and acknowledged: the totals are the counts.
 */
static uint64_t
xfer_flow_bytes(const struct xfer *x, struct stream *s)
{
	uint64_t q, n, at;

	n = atomic_load_explicit(&s->io.bytes, memory_order_relaxed);
	if (x->p.udp || x->p.rr || !s->opened)
		return n;
	q = x->is_tx ? sock_outq(s->fd) : sock_inq(s->fd);
	at = !x->is_tx ? n + q : n > q ? n - q : 0;
	if (at > s->seen)
		s->seen = at;
	return s->seen;
}

/* The bytes all streams have moved so far. */
uint64_t
xfer_bytes_now(struct xfer *x)
{
	uint64_t total = 0;
	unsigned i;

	for (i = 0; i < x->n; i++)
		total += xfer_flow_bytes(x, &x->s[i]);
	return total;
}

/* The last sliver of the test into the slice before it. */
static void
xfer_merge_last(struct xfer *x, uint64_t total, double t)
{
	struct gb_interval *iv = &x->iv[x->niv - 1], tail;

	iv->bytes += total - x->iv_bytes;
	x->iv_bytes = total;
	if (t > iv->end_s)
		iv->end_s = t;
	memset(&tail, 0, sizeof(tail));
	xfer_slice_take(&x->slice, t - x->iv_start_s, &tail);
	iv->retrans += tail.retrans;
	if (x->p.rr) {		/* the tail's latencies stay out of the slice */
		xfer_sample_rr(x, &tail);
		iv->transactions += tail.transactions;
	}
	if (x->p.udp && !x->p.rr) {	/* -u --rr: no stream's seqs */
		xfer_sample_udp(x, &tail);
		iv->datagrams += tail.datagrams;
		iv->lost += tail.lost;
		iv->jitter_ms = tail.jitter_ms;
	}
}

/*
 * Slices are measured against real elapsed time, not the timer's period.
 * The last one (final) ends at the last byte; when it is too short to
 * stand alone (under a tenth of -i: the moments the last bytes and the
 * FIN take), its bytes go to the previous slice, so the slices always
 * add up to the test's bytes and no sliver shows a rate of nothing.
 */
void
xfer_sample_interval(struct xfer *x, const struct timespec *now, int final)
{
	struct gb_interval *iv;
	uint64_t total = xfer_bytes_now(x);
	double t = ts_diff(&x->start, now);
	double least = final ? x->p.interval_ms / 10000.0 : 0.001;

	if (t - x->iv_start_s < least || x->niv >= GB_MAX_INTERVALS) {
		if (final && x->niv > 0)
			xfer_merge_last(x, total, t);
		return;
	}
	iv = &x->iv[x->niv++];
	iv->omitted = x->p.omit_ms != 0 && !x->omit_done;
	iv->reverse = x->fwd != NULL;	/* --bidir's half going back */
	iv->start_s = x->iv_start_s;
	iv->end_s = t;
	iv->bytes = total - x->iv_bytes;
	x->iv_bytes = total;
	x->iv_start_s = t;
	xfer_measure_bufs(&x->ms);
	xfer_slice_take(&x->slice, iv->end_s - iv->start_s, iv);
	if (x->p.udp && !x->p.rr)
		xfer_sample_udp(x, iv);
	if (x->p.rr)
		xfer_sample_rr(x, iv);
	if (x->interval_cb != NULL)
		x->interval_cb(iv, x->is_tx, x->arg);
}

void
xfer_omit_end(struct xfer *x, const struct timespec *now)
{
	struct timeval tv;
	char err[GB_ERR_LEN];
	uint64_t total = 0;
	unsigned i;

	if (x->omit_done)
		return;
	if (x->iv_ev != NULL)
		xfer_sample_interval(x, now, 0);
	x->omit_done = 1;
	for (i = 0; i < x->n; i++) {
		struct stream *s = &x->s[i];

		s->bytes0 = xfer_flow_bytes(x, s);
		s->calls0 = atomic_load_explicit(&s->io.calls,
		    memory_order_relaxed);
		total += s->bytes0;
		atomic_store(&s->io.rr.omitting, 0);
		if (!x->p.udp)
			tcpinfo_read(s->fd, &s->ti0);
	}
	/*
	 * The boundary slice read TCP_INFO a moment before ti0: start the
	 * first measured slice from ti0 itself, or a retransmit between the
	 * two reads would be in the slices but not in the test's figures.
	 */
	if (x->iv_ev != NULL && !x->p.udp && x->slice.n == x->n) {
		for (i = 0; i < x->n; i++)
			x->slice.now[i] = x->s[i].ti0;
		xfer_slice_rebase(&x->slice, x->slice.now, x->n);
	}
	x->start = *now;
	x->iv_start_s = 0;
	x->iv_bytes = total;
	if (xfer_measure_before(&x->ms, err, sizeof(err)) == -1)
		xfer_abort(x, err);
	if (x->iv_ev != NULL) {
		tv.tv_sec = x->p.interval_ms / 1000;
		tv.tv_usec = (x->p.interval_ms % 1000) * 1000;
		event_del(x->iv_ev);
		event_add(x->iv_ev, &tv);
	}
}

void
xfer_progress(struct xfer *x, int done)
{
	struct gb_progress pg;
	struct timespec now;
	double t;

	clock_gettime(CLOCK_MONOTONIC, &now);
	memset(&pg, 0, sizeof(pg));
	t = ts_diff(&x->began, done ? &x->end : &now);
	pg.elapsed_s = t;
	pg.total_s = x->p.nbuf != 0 ? 0 :
	    (x->p.duration_ms + x->p.omit_ms) / 1000.0;
	pg.bytes = xfer_bytes_now(x);
	pg.mbps = result_mbps(pg.bytes - x->prog_bytes, t - x->prog_s);
	pg.done = done;
	x->prog_bytes = pg.bytes;
	x->prog_s = t;
	x->progress_cb(&pg, x->arg);
}
