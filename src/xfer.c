/*
 * xfer.c: the data path.  Each stream has its own thread moving
 * params->buflen bytes per call over a raw blocking socket, by the path
 * the parameters ask for (xfer_modes.c: send, MSG_ZEROCOPY, sendfile;
 * recv, MSG_TRUNC, splice); the hot loop reads no clock and allocates
 * nothing: time is the event loop's business (a duration timer sets the
 * stop flag), and byte counts are relaxed atomics that the interval timer
 * samples.  With -A, each thread pins itself to the next CPU of the list
 * before its first byte (xfer_mode_pin), and reads back where it ran.
 *
 * End of a stream: the sender shuts down its write side after the last
 * buffer and waits for the receiver's FIN, so its clock covers delivery,
 * not just the copy into the socket buffer; the receiver reads to EOF and
 * then shuts down its own write side.  Sockets are closed only after the
 * threads are joined, so an abort can never race a close.
 */
#include <sys/socket.h>

#include <errno.h>
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

#include "host/capture.h"
#include "host/context.h"
#include "host/netif.h"
#include "base/cpulist.h"
#include "base/datapath.h"
#include "base/knobs.h"
#include "base/bounds.h"
#include "host/sock.h"
#include "host/tcpinfo.h"
#include "data/xfer.h"
#include "data/xfer_modes.h"

struct stream {
	struct xfer		*x;
	int			 fd;
	pthread_t		 tid;
	int			 started;
	int			 opened;	/* m needs xfer_mode_close */
	struct xfer_mode	 m;
	struct timespec		 end;
	struct tcpinfo_sample	 ti;
	char			 error[200];
};

struct xfer {
	struct event_base	*base;
	struct gb_params	 p;
	int			 is_tx;
	void			(*done_cb)(void *);
	void			(*interval_cb)(const struct gb_interval *,
				    int, void *);
	void			*arg;
	struct stream		*s;
	unsigned		 n;
	atomic_int		 stop;
	atomic_uint		 finished;
	uint32_t		 silent_ms;
	uint64_t		 deadline_ms;	/* 0: duration + 3 silent */
	uint64_t		 stream_cap, total_cap;
	_Atomic uint64_t	 total;		/* with total_cap only */
	int			 done;
	char			 abort_why[128];
	struct event		*done_ev;
	struct event		*stop_ev;	/* duration, sender only */
	struct event		*iv_ev;		/* -i */
	struct event		*deadline_ev;	/* receiver's upper bound */
	struct timespec		 start;
	struct timespec		 end;
	const struct hoststat_roots *roots;
	char			 ifname[GB_IFNAME_LEN];
	struct hoststat		*before;
	struct hoststat		*after;
	struct gb_sockbuf	 sndbuf, rcvbuf;
	int			 tos;		/* read back, -1 unknown */
	int			 has_fq_rate;
	uint64_t		 fq_rate;
	unsigned		 cpus[GB_MAX_STREAMS];	/* -A, in order */
	size_t			 ncpus;		/* in the whole list */
	struct gb_context	 context;
	struct capture		*capture;
	struct gb_capture	 cap;
	char			 capture_err[GB_ERR_LEN];
	uint64_t		 iv_bytes;
	double			 iv_start_s;
	unsigned		 niv;
	struct gb_interval	*iv;
};

static double
ts_diff(const struct timespec *a, const struct timespec *b)
{
	return (double)(b->tv_sec - a->tv_sec) +
	    (double)(b->tv_nsec - a->tv_nsec) / 1e9;
}

static void
stream_error(struct stream *s, const char *what, int errnum)
{
	const struct xfer *x = s->x;

	if (s->error[0] != '\0' || atomic_load(&x->stop) == 2)
		return;
	if (s->m.over == 1)
		snprintf(s->error, sizeof(s->error), "more than the test "
		    "asked for arrived (-n buffers and one more: %" PRIu64
		    " bytes): cut off", x->stream_cap);
	else if (s->m.over == 2)
		snprintf(s->error, sizeof(s->error), "the test moved more "
		    "than the listener allows (its --max-bytes and a buffer "
		    "a stream: %" PRIu64 " bytes): cut off", x->total_cap);
	else if (errnum == EAGAIN || errnum == EWOULDBLOCK)
		snprintf(s->error, sizeof(s->error), "%s: peer silent for "
		    "%g s", what, x->silent_ms / 1000.0);
	else
		snprintf(s->error, sizeof(s->error), "%s: %s", what,
		    strerror(errnum));
}

static void
stream_send(struct stream *s)
{
	struct xfer *x = s->x;
	ssize_t n;
	char c;

	if (xfer_mode_send(&s->m, &x->stop, x->p.nbuf) == -1) {
		stream_error(s, s->m.what, errno);
		return;
	}
	if (atomic_load(&x->stop) == 2)
		return;
	/* Wait for the receiver's FIN: the last byte has arrived. */
	shutdown(s->fd, SHUT_WR);
	while ((n = recv(s->fd, &c, 1, 0)) != 0) {
		if (n == -1 && errno != EINTR) {
			stream_error(s, "waiting for the receiver to finish",
			    errno);
			return;
		}
	}
	xfer_mode_drain(&s->m);
}

static void
stream_recv(struct stream *s)
{
	if (xfer_mode_recv(&s->m) == -1)
		stream_error(s, s->m.what, errno);
}

/*
 * One stream failed, so the test has: unblock the others now rather than
 * let each wait out its own silent-peer timeout, which may have started
 * later.  Their errors, consequences of this one, are not recorded.
 */
static void
streams_stop(struct xfer *x)
{
	unsigned i;

	atomic_store(&x->stop, 2);
	for (i = 0; i < x->n; i++)
		shutdown(x->s[i].fd, SHUT_RDWR);
}

static void *
stream_main(void *arg)
{
	struct stream *s = arg;
	struct xfer *x = s->x;

	xfer_mode_pin(&s->m);
	if (x->is_tx)
		stream_send(s);
	else
		stream_recv(s);
	if (s->error[0] != '\0')
		streams_stop(x);
	clock_gettime(CLOCK_MONOTONIC, &s->end);
	s->m.cpu = sched_getcpu();
	tcpinfo_read(s->fd, &s->ti);
	if (!x->is_tx)
		shutdown(s->fd, SHUT_WR);	/* tell the sender we are done */
	atomic_fetch_add(&x->finished, 1);
	event_active(x->done_ev, EV_READ, 0);
	return NULL;
}

/*
 * Slices are measured against real elapsed time, not the timer's period.
 * The last one (final) ends at the last byte; when it is too short to
 * stand alone, its bytes go to the previous slice, so the slices always
 * add up to the test's bytes.
 */
static void
xfer_sample_interval(struct xfer *x, const struct timespec *now, int final)
{
	struct gb_interval *iv;
	uint64_t total = 0;
	unsigned i;
	double t = ts_diff(&x->start, now);

	for (i = 0; i < x->n; i++)
		total += atomic_load_explicit(&x->s[i].m.bytes,
		    memory_order_relaxed);
	if (t - x->iv_start_s < 0.001 || x->niv >= GB_MAX_INTERVALS) {
		if (final && x->niv > 0) {
			iv = &x->iv[x->niv - 1];
			iv->bytes += total - x->iv_bytes;
			if (t > iv->end_s)
				iv->end_s = t;
		}
		return;
	}
	iv = &x->iv[x->niv++];
	iv->start_s = x->iv_start_s;
	iv->end_s = t;
	iv->bytes = total - x->iv_bytes;
	x->iv_bytes = total;
	x->iv_start_s = t;
	if (x->interval_cb != NULL)
		x->interval_cb(iv, x->is_tx, x->arg);
}

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
on_stop(evutil_socket_t fd, short what, void *arg)
{
	struct xfer *x = arg;

	(void)fd;
	(void)what;
	atomic_store(&x->stop, 1);
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

static void
on_done(evutil_socket_t fd, short what, void *arg)
{
	struct xfer *x = arg;
	char err[GB_ERR_LEN];
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
	x->after = hoststat_take(x->roots, x->ifname, err, sizeof(err));
	if (x->capture != NULL) {
		capture_stop(x->capture, &x->cap);
		x->capture = NULL;
	}
	event_del(x->stop_ev);
	event_del(x->deadline_ev);
	if (x->iv_ev != NULL) {
		event_del(x->iv_ev);
		xfer_sample_interval(x, &x->end, 1);
	}
	x->done_cb(x->arg);
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
	ms = x->p.duration_ms;
	tv.tv_sec = ms / 1000;
	tv.tv_usec = (ms % 1000) * 1000;
	if (x->is_tx)
		evtimer_add(x->stop_ev, &tv);
	/* Nothing legitimate runs this long; bounds a stuck peer. */
	if (x->deadline_ms == 0)
		x->deadline_ms = (uint64_t)ms + 3 * (uint64_t)x->silent_ms;
	tv.tv_sec = (time_t)(x->deadline_ms / 1000);
	tv.tv_usec = (suseconds_t)(x->deadline_ms % 1000) * 1000;
	evtimer_add(x->deadline_ev, &tv);
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

static int
xfer_streams(struct xfer *x, int *fds, char *err, size_t errlen)
{
	struct stream *s;
	unsigned i;
	int rc, path = datapath_of(&x->p, x->is_tx);

	for (i = 0; i < x->n; i++) {
		s = &x->s[i];
		s->x = x;
		s->fd = fds[i];
		fds[i] = -1;
		sock_set_timeouts(s->fd, (int)x->silent_ms);
		s->opened = 1;
		if (xfer_mode_open(&s->m, s->fd, path, x->p.buflen,
		    (int)x->silent_ms, err, errlen) == -1)
			return -1;
		s->m.cap = x->stream_cap;
		s->m.total = x->total_cap != 0 ? &x->total : NULL;
		s->m.total_cap = x->total_cap;
		s->m.pin_cpu = x->ncpus > 0 ? (int)x->cpus[i % x->ncpus] : -1;
	}
	clock_gettime(CLOCK_MONOTONIC, &x->start);
	for (i = 0; i < x->n; i++) {
		s = &x->s[i];
		if ((rc = pthread_create(&s->tid, NULL, stream_main, s)) != 0) {
			snprintf(err, errlen, "cannot start stream %u: %s", i,
			    strerror(rc));
			return -1;
		}
		s->started = 1;
	}
	return 0;
}

/* A capture that cannot start is a warning, not a failed test. */
static void
xfer_capture_start(struct xfer *x, int fd, uint16_t port)
{
	struct sockaddr_storage local, peer;
	socklen_t llen = sizeof(local), plen = sizeof(peer);

	if (getsockname(fd, (struct sockaddr *)&local, &llen) == -1 ||
	    getpeername(fd, (struct sockaddr *)&peer, &plen) == -1) {
		snprintf(x->capture_err, sizeof(x->capture_err),
		    "cannot read the data connection's addresses");
		return;
	}
	x->capture = capture_start(x->ifname, (struct sockaddr *)&local,
	    (struct sockaddr *)&peer, port, x->capture_err,
	    sizeof(x->capture_err));
}

struct xfer *
xfer_start(struct event_base *base, const struct xfer_config *c, char *err,
    size_t errlen)
{
	struct sockaddr_storage ss;
	socklen_t len = sizeof(ss);
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
	x->arg = c->arg;
	x->n = c->params->streams;
	x->silent_ms = c->silent_ms != 0 ? c->silent_ms : GB_DEFAULT_SILENT_MS;
	x->deadline_ms = c->deadline_ms;
	x->stream_cap = c->stream_cap;
	x->total_cap = c->total_cap;
	x->roots = c->roots;
	if (c->ifname != NULL)
		snprintf(x->ifname, sizeof(x->ifname), "%s", c->ifname);
	else if (getsockname(c->fds[0], (struct sockaddr *)&ss, &len) == 0)
		netif_name_for_addr((struct sockaddr *)&ss, x->ifname,
		    sizeof(x->ifname));
	sock_bufs(c->fds[0], &x->p, x->is_tx, &x->sndbuf, &x->rcvbuf);
	x->tos = sock_tos(c->fds[0]);
	x->has_fq_rate = sock_fq_rate(c->fds[0], &x->fq_rate);
	/* proto.c checked the list; an error here cannot happen. */
	if (x->p.affinity[0] != '\0' && cpulist_parse(x->p.affinity, x->cpus,
	    GB_MAX_STREAMS, &x->ncpus, err, errlen) == -1)
		goto fail;
	context_read(x->roots, x->ifname, c->fds[0], &x->context, err, errlen);
	if (x->p.capture)
		xfer_capture_start(x, c->fds[0], c->port);
	if (xfer_events(x, err, errlen) == -1)
		goto fail;
	x->before = hoststat_take(x->roots, x->ifname, err, errlen);
	if (x->before == NULL)
		goto fail;
	if (xfer_streams(x, c->fds, err, errlen) == -1) {
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
			snprintf(why, len, "stream %u: %s", i, x->s[i].error);
			return 1;
		}
	return 0;
}

void
xfer_abort(struct xfer *x, const char *why)
{
	unsigned i;

	if (x->abort_why[0] == '\0')
		snprintf(x->abort_why, sizeof(x->abort_why), "%s", why);
	atomic_store(&x->stop, 2);
	for (i = 0; i < x->n; i++)
		if (x->s[i].x != NULL)	/* handed over by xfer_streams */
			shutdown(x->s[i].fd, SHUT_RDWR);
}

/*
 * Interrupts per TCP data segment next to per interface packet: with
 * GSO/GRO one interface "packet" may carry many segments, so the two
 * ratios differ by the offload batching.
 */
static void
xfer_per_segment(struct gb_side *side, int is_tx)
{
	struct gb_iface_figures *f = &side->iface;
	uint64_t segs = is_tx ? side->tcp.data_segs_out :
	    side->tcp.data_segs_in;

	if (f->has_interrupts && side->tcp.has && segs > 0) {
		f->has_irq_per_segment = 1;
		f->irq_per_segment = (double)f->interrupts / (double)segs;
	}
}

/*
 * Each stream's figures, and the side's path: the one every stream used,
 * or the plain one when some fell back (a warning says why).
 */
static void
xfer_streams_figures(struct xfer *x, struct gb_side *side)
{
	unsigned i;
	int plain = x->is_tx ? GB_PATH_SEND : GB_PATH_RECV;

	side->data_path = x->n > 0 ? x->s[0].m.path : plain;
	side->nstreams = x->n;
	for (i = 0; i < x->n; i++) {
		xfer_mode_figures(&x->s[i].m, &side->streams[i],
		    &side->zerocopy);
		side->streams[i].seconds = ts_diff(&x->start, &x->s[i].end);
		if (x->s[i].m.path != side->data_path)
			side->data_path = plain;
	}
}

/* What did not take: notes of the paths, pinning, the TOS byte. */
static void
xfer_knobs(struct xfer *x, struct gb_side *side)
{
	const struct stream *s;
	unsigned i, fell = 0, unpinned = 0;

	side->tos = x->tos;
	side->rcvlowat = x->n > 0 ? x->s[0].m.lowat : 0;
	side->has_fq_rate = x->has_fq_rate;
	side->fq_rate = x->fq_rate;
	for (i = 0; i < x->n; i++) {
		s = &x->s[i];
		if (s->m.note[0] != '\0' && fell++ == 0)
			knobs_warn(side, "stream %u: %s", i, s->m.note);
		if (s->m.pin_err != 0 && unpinned++ == 0)
			knobs_warn(side, "-A: cannot pin stream %u to cpu "
			    "%d: %s", i, s->m.pin_cpu, strerror(s->m.pin_err));
	}
	if (fell > 1)
		knobs_warn(side, "%u streams in all fell back to %s", fell,
		    datapath_name(side->data_path));
	if (unpinned > 1)
		knobs_warn(side, "-A: %u streams in all are not pinned",
		    unpinned);
	/* TCP keeps the two ECN bits of the byte to itself. */
	if (x->p.tos != 0 && x->tos >= 0 && (uint32_t)x->tos != x->p.tos)
		knobs_warn(side, "IP_TOS: asked 0x%02x, the socket has 0x%02x"
		    "%s", x->p.tos, (unsigned)x->tos, (x->p.tos & 3) != 0 ?
		    " (TCP sets the two ECN bits itself)" : "");
}

int
xfer_finish(struct xfer *x, struct gb_side *side, struct gb_result *r,
    char *err, size_t errlen)
{
	struct tcpinfo_sample *ti;
	unsigned i;
	double wall;

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
	if ((ti = calloc(x->n, sizeof(*ti))) == NULL) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	side->has = 1;
	for (i = 0; i < x->n; i++) {
		side->bytes += atomic_load(&x->s[i].m.bytes);
		side->calls += x->s[i].m.calls;
		ti[i] = x->s[i].ti;
	}
	side->seconds = ts_diff(&x->start, &x->end);
	side->mbps = result_mbps(side->bytes, side->seconds);
	tcpinfo_sum(ti, x->n, &side->tcp);
	free(ti);
	side->sndbuf = x->sndbuf;
	side->rcvbuf = x->rcvbuf;
	side->context = x->context;
	side->capture = x->cap;
	if (x->before != NULL && x->after != NULL)
		hoststat_diff(x->before, x->after, x->is_tx, &side->host_cpu,
		    &side->iface, &side->cpu, &wall);
	xfer_per_segment(side, x->is_tx);
	knobs_check(&x->p, x->is_tx, side);
	xfer_streams_figures(x, side);
	xfer_knobs(x, side);
	if (x->capture_err[0] != '\0')
		knobs_warn(side, "%s%s", strncmp(x->capture_err, "--capture",
		    9) == 0 ? "" : "--capture: ", x->capture_err);
	if (r != NULL && x->iv != NULL) {
		r->nintervals = x->niv;
		memcpy(r->intervals, x->iv, x->niv * sizeof(*x->iv));
	}
	return 0;
}

void
xfer_free(struct xfer *x)
{
	unsigned i;

	if (x == NULL)
		return;
	for (i = 0; i < x->n; i++) {
		if (x->s[i].started)
			pthread_join(x->s[i].tid, NULL);
		if (x->s[i].opened)
			xfer_mode_close(&x->s[i].m);
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
	if (x->capture != NULL)
		capture_stop(x->capture, &x->cap);
	hoststat_free(x->before);
	hoststat_free(x->after);
	free(x->iv);
	free(x->s);
	free(x);
}
