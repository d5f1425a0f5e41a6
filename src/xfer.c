/*
 * xfer.c: the stream engine.  A test's flows are shared out over worker
 * threads (datapath_threads: --threads, else one a flow up to the CPUs;
 * xfer_worker.c runs them), each moving params->buflen bytes per call
 * by the path the parameters ask for: sender.c's (send, MSG_ZEROCOPY,
 * sendfile) or receiver.c's (recv, MSG_TRUNC, splice), which own the
 * loops; a worker of one flow on a blocking socket, of many on
 * non-blocking ones in an epoll, with one buffer for all.  It owns the
 * flows' set-up, the timers (duration, -i intervals, deadline), the
 * interval samples, the stop flag and the streams' errors; the
 * measurement around the transfer (host and interface samples, context,
 * capture, read-backs, knob warnings) is xfer_measure.c's, the side's
 * figures once the streams have ended xfer_finish.c's.  It must not
 * know a path: a new one is a row in sender.c's or receiver.c's table.
 *
 * The loops read no clock and allocate nothing: time is the event loop's
 * business (a duration timer sets the stop flag), and byte counts are
 * relaxed atomics that the interval timer samples.  With -A, each worker
 * thread pins itself to the next CPU of the list before its first byte
 * (stream_io_pin), and reads back where it ran.
 *
 * End of a stream: the sender shuts down its write side after the last
 * buffer and waits for the receiver's FIN, so its clock covers delivery,
 * not just the copy into the socket buffer; the receiver reads to EOF and
 * then shuts down its own write side.  Sockets are closed only after the
 * threads are joined, so an abort can never race a close.
 */
#include <sys/socket.h>

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <event2/event.h>

#include "base/bounds.h"
#include "base/datapath.h"
#include "base/knobs.h"
#include "host/sock.h"
#include "host/tcpinfo.h"
#include "data/receiver.h"
#include "data/sender.h"
#include "data/stream.h"
#include "data/xfer.h"
#include "stream_rr.h"
#include "xfer_measure.h"

/*
 * -u: how long after its duration a receiver waits for datagrams still
 * on the way when no END arrived (all of them lost): a second, more than
 * a queue of any link holds, short enough not to blur the test.
 */
#define XFER_DG_DRAIN_MS	1000u
/* How often the progress line is redrawn. */
#define XFER_PROGRESS_MS	1000u
/* -u, receiving under a rate cap: how often the bytes are checked. */
#define XFER_RATE_CHECK_MS	250u

#include "xfer_state.h"

static void
on_interval(evutil_socket_t fd, short what, void *arg)
{
	struct timespec now;

	(void)fd;
	(void)what;
	clock_gettime(CLOCK_MONOTONIC, &now);
	xfer_sample_interval(arg, &now, 0);
}

static void
on_progress(evutil_socket_t fd, short what, void *arg)
{
	(void)fd;
	(void)what;
	xfer_progress(arg, 0);
}

static void
on_omit(evutil_socket_t fd, short what, void *arg)
{
	struct timespec now;

	(void)fd;
	(void)what;
	clock_gettime(CLOCK_MONOTONIC, &now);
	xfer_omit_end(arg, &now);
}

static void
on_stop(evutil_socket_t fd, short what, void *arg)
{
	struct xfer *x = arg;

	(void)fd;
	(void)what;
	atomic_store(&x->stop, STREAM_STOP_DURATION);
}

static void
on_deadline(evutil_socket_t fd, short what, void *arg)
{
	struct xfer *x = arg;
	char why[128];

	(void)fd;
	(void)what;
	snprintf(why, sizeof(why), "the test's data still flowed %g s after "
	    "the start: cut off", x->deadline_ms / 1000.0);
	xfer_abort(x, why);
}

/* -u, receiving under rate_cap: a sender faster than it is stopped. */
static void
on_rate(evutil_socket_t fd, short what, void *arg)
{
	struct xfer *x = arg;
	struct timespec now;
	uint64_t ms;
	char why[128];

	(void)fd;
	(void)what;
	clock_gettime(CLOCK_MONOTONIC, &now);
	ms = (uint64_t)(ts_diff(&x->start, &now) * 1000);
	if (!bounds_rate_over(x->rate_cap, xfer_bytes_now(x), ms, why,
	    sizeof(why)))
		return;
	event_del(x->rate_ev);
	xfer_abort(x, why);
}

static void
on_done(evutil_socket_t fd, short what, void *arg)
{
	struct xfer *x = arg;
	unsigned i;

	(void)fd;
	(void)what;
	if (x->done || atomic_load(&x->finished) < x->n)
		return;
	x->done = 1;
	x->end = x->s[0].end;
	for (i = 1; i < x->n; i++)
		if (ts_diff(&x->end, &x->s[i].end) > 0)
			x->end = x->s[i].end;
	xfer_measure_after(&x->ms);
	xfer_measure_bufs(&x->ms);
	event_del(x->stop_ev);
	event_del(x->deadline_ev);
	if (x->rate_ev != NULL)
		event_del(x->rate_ev);
	if (x->omit_ev != NULL)
		event_del(x->omit_ev);
	if (x->progress_ev != NULL) {
		event_del(x->progress_ev);
		xfer_progress(x, 1);
	}
	if (x->iv_ev != NULL) {
		event_del(x->iv_ev);
		xfer_sample_interval(x, &x->end, 1);
	}
	xfer_half_done(x);
}

static int
xfer_events(struct xfer *x, char *err, size_t errlen)
{
	struct timeval tv;
	uint32_t ms;

	x->done_ev = event_new(x->base, -1, 0, on_done, x);
	x->stop_ev = evtimer_new(x->base, on_stop, x);
	x->deadline_ev = evtimer_new(x->base, on_deadline, x);
	if (x->done_ev == NULL || x->stop_ev == NULL || x->deadline_ev == NULL)
		goto nomem;
	ms = x->p.duration_ms + x->p.omit_ms;	/* -T 86400 at most */
	/* -u: a receiver whose sender's END got lost stops after a drain. */
	if (x->p.udp && !x->is_tx)
		ms = ms > GB_MAX_DURATION_MS - XFER_DG_DRAIN_MS ?
		    GB_MAX_DURATION_MS : ms + XFER_DG_DRAIN_MS;
	/* -u --rr: and the asker's wait for its last answers. */
	if (x->p.udp && x->p.rr && !x->is_tx)
		ms += params_rr_timeout_ms(x->p.rr_timeout_ms);
	tv.tv_sec = ms / 1000;
	tv.tv_usec = (ms % 1000) * 1000;
	if (x->is_tx || x->p.udp)
		evtimer_add(x->stop_ev, &tv);
	/* Nothing legitimate runs this long; bounds a stuck peer. */
	if (x->deadline_ms == 0)
		x->deadline_ms = (uint64_t)ms + 3 * (uint64_t)x->silent_ms +
		    (x->p.udp && x->p.rr ? 2 * (uint64_t)params_rr_timeout_ms(
		    x->p.rr_timeout_ms) : 0);	/* -u --rr's last wait */
	tv.tv_sec = (time_t)(x->deadline_ms / 1000);
	tv.tv_usec = (suseconds_t)(x->deadline_ms % 1000) * 1000;
	evtimer_add(x->deadline_ev, &tv);
	if (x->rate_cap != 0 && !x->is_tx) {
		x->rate_ev = event_new(x->base, -1, EV_PERSIST, on_rate, x);
		if (x->rate_ev == NULL)
			goto nomem;
		tv.tv_sec = 0;
		tv.tv_usec = XFER_RATE_CHECK_MS * 1000;
		event_add(x->rate_ev, &tv);
	}
	if (x->progress_cb != NULL) {
		x->progress_ev = event_new(x->base, -1, EV_PERSIST,
		    on_progress, x);
		if (x->progress_ev == NULL)
			goto nomem;
		tv.tv_sec = XFER_PROGRESS_MS / 1000;
		tv.tv_usec = (XFER_PROGRESS_MS % 1000) * 1000;
		event_add(x->progress_ev, &tv);
	}
	if (x->p.omit_ms != 0) {
		if ((x->omit_ev = evtimer_new(x->base, on_omit, x)) == NULL)
			goto nomem;
		ms = x->p.omit_ms;
		tv.tv_sec = ms / 1000;
		tv.tv_usec = (ms % 1000) * 1000;
		evtimer_add(x->omit_ev, &tv);
	}
	if (x->p.interval_ms != 0) {
		x->iv = calloc(GB_MAX_INTERVALS, sizeof(*x->iv));
		x->iv_ev = event_new(x->base, -1, EV_PERSIST, on_interval, x);
		if (x->iv == NULL || x->iv_ev == NULL)
			goto nomem;
		ms = x->p.interval_ms;
		tv.tv_sec = ms / 1000;
		tv.tv_usec = (ms % 1000) * 1000;
		event_add(x->iv_ev, &tv);
	}
	return 0;
nomem:
	snprintf(err, errlen, "out of memory for the test's timers");
	return -1;
}

/*
 * -u: the stream's datagram settings.  -R in bit/s becomes datagrams/s
 * of this length, a fraction where it falls so; 0 is unpaced.
 */
static void
xfer_dg_config(struct xfer *x, struct stream_dg *dg, unsigned i)
{
	uint64_t bits = (uint64_t)x->p.buflen * 8;

	memcpy(dg->token, x->dg_token, sizeof(dg->token));
	dg->id = (uint16_t)i;
	dg->length = x->p.buflen;
	dg->batch = x->p.batch != 0 ? x->p.batch : GB_DEFAULT_BATCH;
	dg->pps = (double)x->p.rate_pps;
	if (x->p.rate_bps != 0)
		dg->pps = (double)x->p.rate_bps / (double)bits;
	dg->stop = &x->stop;
}

/* --crr's asker: where stream i connects, its data message. */
static void
xfer_crr_config(struct xfer *x, struct stream_crr *c, unsigned i,
    const struct xfer_crr *xc)
{
	c->to = xc->to;
	c->local = xc->local;
	c->p = &x->p;
	c->msg = xc->msg[i];
	c->msglen = xc->msglen[i];
}

/*
 * The worker threads and their flows (xfer_worker.c): datapath_threads
 * of them; a worker of many flows gets non-blocking sockets and one
 * buffer for all, filled as the paths would fill their own.
 */
static int
xfer_plan(struct xfer *x, int path, char *err, size_t errlen)
{
	long ncpus = sysconf(_SC_NPROCESSORS_ONLN);
	size_t size = x->p.buflen;
	unsigned i;

	x->nw = datapath_threads(&x->p, x->n,
	    ncpus > 0 ? (unsigned)ncpus : 1);
	if ((x->w = calloc(x->nw, sizeof(*x->w))) == NULL)
		goto nomem;
	if (x->p.rr)
		size = (size_t)params_rr_size(x->p.req_size) +
		    params_rr_size(x->p.resp_size);
	else if (x->p.udp)	/* a batch of datagrams, or of --gro trains */
		size = (size_t)(x->p.batch != 0 ? x->p.batch :
		    GB_DEFAULT_BATCH) * (path == GB_PATH_GRO ? GB_GRO_BYTES :
		    x->p.buflen);
	for (i = 0; i < x->nw; i++) {
		x->w[i].x = x;
		x->w[i].first = i;
		x->w[i].nflows = (x->n - i + x->nw - 1) / x->nw;
		if (x->w[i].nflows < 2)
			continue;
		if (posix_memalign((void **)&x->w[i].buf, 4096, size) != 0)
			goto nomem;
		memset(x->w[i].buf, x->is_tx || x->p.rr ? STREAM_FILL_BYTE : 0,
		    size);
		x->w[i].buflen = size;
	}
	return 0;
nomem:
	snprintf(err, errlen, "out of memory for %u worker threads",
	    x->nw);
	return -1;
}

/* Flow i's socket and path, before its worker starts. */
static int
xfer_flow(struct xfer *x, const struct xfer_config *c, unsigned i, int path,
    char *err, size_t errlen)
{
	struct stream *s = &x->s[i];
	struct worker *w = &x->w[i % x->nw];
	int fl;

	s->x = x;
	s->fd = c->fds[i];
	c->fds[i] = -1;
	sock_set_timeouts(s->fd, (int)x->silent_ms);
	s->opened = 1;
	if (w->nflows > 1) {
		s->io.nonblock = 1;
		s->io.shared = w->buf;
		s->io.shared_len = w->buflen;
		/* Its worker's first flow, opened before: its memfd, pipe. */
		if (i >= x->nw)
			s->io.lender = &x->s[i % x->nw].io;
		if ((fl = fcntl(s->fd, F_GETFL)) == -1 ||
		    fcntl(s->fd, F_SETFL, fl | O_NONBLOCK) == -1) {
			snprintf(err, errlen, "flow %u: O_NONBLOCK: %s", i,
			    strerror(errno));
			return -1;
		}
	}
	if (x->p.udp)
		xfer_dg_config(x, &s->io.dg, i);
	s->io.rr.sliced = x->p.rr && x->is_tx && x->p.interval_ms;
	atomic_init(&s->io.rr.omitting, x->p.rr && x->p.omit_ms != 0);
	s->io.rr.req = x->p.req_size;	/* --rr (stream_rr.c) */
	s->io.rr.resp = x->p.resp_size;
	s->io.rr.burst = x->p.rr_burst;
	s->io.rr.timeout_ms = params_rr_timeout_ms(x->p.rr_timeout_ms);
	s->io.rr.gap_ns = x->p.rr_rate != 0 ? UINT64_C(1000000000) /
	    x->p.rr_rate : 0;
	if (path == GB_PATH_CRR_ASK && c->crr != NULL)
		xfer_crr_config(x, &s->io.rr.crr, i, c->crr);
	if ((x->is_tx ? sender_open : receiver_open)(&s->io, s->fd,
	    path, x->p.buflen, (int)x->silent_ms, err, errlen) == -1)
		return -1;
	s->io.cap = x->stream_cap;
	s->io.total = x->total_cap != 0 ? &x->total : NULL;
	s->io.total_cap = x->total_cap;
	s->io.pin_cpu = xfer_measure_cpu(&x->ms, i % x->nw);
	return 0;
}

static int
xfer_streams(struct xfer *x, const struct xfer_config *c, char *err,
    size_t errlen)
{
	struct timeval tv;
	unsigned i;
	int *sfd, path = datapath_of(&x->p, x->is_tx);

	/* -l mtu over TCP: each write and read one MSS of this end's. */
	if (!x->p.udp && x->p.buflen == GB_LEN_MTU)
		x->p.buflen = sock_mss(c->fds[0]);
	if (xfer_plan(x, path, err, errlen) == -1)
		return -1;
	for (i = 0; i < x->n; i++)
		if (xfer_flow(x, c, i, path, err, errlen) == -1)
			return -1;
	if (x->p.interval_ms != 0) {
		if ((sfd = calloc(x->n, sizeof(*sfd))) == NULL) {
			snprintf(err, errlen, "out of memory");
			return -1;
		}
		for (i = 0; i < x->n; i++)
			sfd[i] = x->s[i].fd;
		/* The interface's lines, a big file on big hosts: --rr's. */
		xfer_slice_init(&x->slice, x->ms.roots, x->p.rr ?
		    x->ms.ifname : "", x->is_tx && !x->p.udp, sfd, x->n);
		free(sfd);
	}
	/*
	 * -i's slices count from here: the timer armed in xfer_events ran
	 * from the loop's cached time, before the set-up above (under ASan
	 * the first slice read 0.49 s for -i 0.5).
	 */
	event_base_update_cache_time(x->base);
	clock_gettime(CLOCK_MONOTONIC, &x->start);
	x->began = x->start;
	if (x->iv_ev != NULL) {
		tv.tv_sec = x->p.interval_ms / 1000;
		tv.tv_usec = (x->p.interval_ms % 1000) * 1000;
		event_add(x->iv_ev, &tv);
	}
	return xfer_workers_start(x, err, errlen);
}

struct xfer *
xfer_start(struct event_base *base, const struct xfer_config *c, char *err,
    size_t errlen)
{
	struct xfer *x;

	if ((x = calloc(1, sizeof(*x))) == NULL ||
	    (x->s = calloc(c->params->streams, sizeof(*x->s))) == NULL) {
		free(x);
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	x->base = base;
	x->p = *c->params;
	x->is_tx = c->is_tx;
	x->done_cb = c->done_cb;
	x->interval_cb = c->interval_cb;
	x->progress_cb = c->progress_cb;
	x->arg = c->arg;
	x->n = c->params->streams;
	x->silent_ms = c->silent_ms != 0 ? c->silent_ms : GB_DEFAULT_SILENT_MS;
	x->deadline_ms = c->deadline_ms;
	x->stream_cap = c->stream_cap;
	x->total_cap = c->total_cap;
	x->rate_cap = c->rate_cap;
	if (x->p.udp)
		memcpy(x->dg_token, c->dg_token, sizeof(x->dg_token));
	if (xfer_measure_open(&x->ms, c, &x->p, err, errlen) == -1 ||
	    xfer_events(x, err, errlen) == -1 ||
	    xfer_measure_before(&x->ms, err, errlen) == -1)
		goto fail;
	if (xfer_streams(x, c, err, errlen) == -1) {
		xfer_abort(x, "set-up failed");
		goto fail;
	}
	if ((x->p.bidir && xfer_start_rev(x, c, err, errlen) == -1) ||
	    (x->p.probes != 0 && xfer_start_probes(x, c, err, errlen) == -1)) {
		xfer_abort(x, "set-up failed");
		goto fail;
	}
	return x;
fail:
	/* Streams not yet handed over stay the caller's to close. */
	xfer_free(x);
	return NULL;
}

int
xfer_failed(const struct xfer *x, char *why, size_t len)
{
	unsigned i;

	if (x->abort_why[0] != '\0') {
		snprintf(why, len, "%s", x->abort_why);
		return 1;
	}
	for (i = 0; i < x->n; i++)
		if (x->s[i].error[0] != '\0') {
			snprintf(why, len, "%sstream %u: %s", x->fwd != NULL ?
			    "the reverse direction's " : x->lead != NULL ?
			    "the probes' " : "", i, x->s[i].error);
			return 1;
		}
	if (x->rev != NULL && x->rev->done && xfer_failed(x->rev, why, len))
		return 1;
	return x->probe != NULL && x->probe->done ? xfer_failed(x->probe, why,
	    len) : 0;
}

void
xfer_abort(struct xfer *x, const char *why)
{
	unsigned i;

	if (x->abort_why[0] == '\0')
		snprintf(x->abort_why, sizeof(x->abort_why), "%s", why);
	atomic_store(&x->stop, STREAM_STOP_ABORT);
	for (i = 0; i < x->n; i++)
		if (x->s[i].x != NULL)	/* handed over by xfer_streams */
			xfer_worker_stop(&x->s[i]);
	if (x->rev != NULL)
		xfer_abort(x->rev, why);
	if (x->probe != NULL)
		xfer_abort(x->probe, why);
}

int
xfer_crr_give(struct xfer *x, unsigned stream, int fd)
{
	if (x == NULL || stream >= x->n ||
	    x->s[stream].io.path != GB_PATH_CRR_ANSWER)
		return -1;
	return crr_give(&x->s[stream].io, fd);
}

void
xfer_free(struct xfer *x)
{
	unsigned i;

	if (x == NULL)
		return;
	xfer_free(x->rev);
	xfer_free(x->probe);
	/* All ended before any is closed: one's streams_stop reaches all. */
	xfer_workers_join(x);
	for (i = 0; i < x->n; i++) {
		if (x->s[i].opened)
			stream_io_close(&x->s[i].io);
		if (x->s[i].x != NULL && x->s[i].fd >= 0)
			close(x->s[i].fd);
	}
	if (x->done_ev != NULL)
		event_free(x->done_ev);
	if (x->stop_ev != NULL)
		event_free(x->stop_ev);
	if (x->deadline_ev != NULL)
		event_free(x->deadline_ev);
	if (x->iv_ev != NULL)
		event_free(x->iv_ev);
	if (x->rate_ev != NULL)
		event_free(x->rate_ev);
	if (x->omit_ev != NULL)
		event_free(x->omit_ev);
	if (x->progress_ev != NULL)
		event_free(x->progress_ev);
	xfer_measure_free(&x->ms);
	xfer_slice_free(&x->slice);	/* zeroed when never set: fine */
	free(x->iv);
	free(x->s);
	free(x->flows);
	for (i = 0; x->w != NULL && i < x->nw; i++)
		free(x->w[i].buf);
	free(x->w);
	free(x);
}
