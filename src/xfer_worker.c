/*
 * xfer_worker.c: the stream engine's threads.  A test's flows are shared
 * out over x->nw worker threads, flow i to worker i % nw.  A worker with
 * one flow runs its path's loop on a blocking socket to the end, as a
 * thread a stream always did: the same system calls, nothing added.  A
 * worker with more holds their non-blocking sockets in one epoll
 * (edge-triggered) and steps each flow's loop when its socket is ready:
 * the loop runs until the socket would block (STREAM_WANT_READ, _WRITE),
 * it has had its turn (STREAM_YIELD, STREAM_BUDGET calls) or it waits
 * for a time (STREAM_WANT_TIME: -u's pace and END gaps, its receiver's
 * drain; the epoll's timeout is the nearest such time), and goes on from
 * there the next time; one buffer serves all of a worker's flows.  The
 * paths are sender.c's, sender_dgram.c's, receiver.c's and
 * stream_rr.c's, stream_rr_dgram.c's and stream_crr.c's, the same loops
 * either way.
 *
 * Time stays the event loop's: the worker reads the stop flag after each
 * round and at least every WORKER_TICK_MS, and a flow that moved nothing
 * for the silent-peer timeout fails as a blocking socket's SO_RCVTIMEO
 * would fail it.  xfer_abort shuts every socket down, which wakes the
 * epoll and ends each flow.
 */
#include <sys/epoll.h>
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

#include "base/monotime.h"
#include "data/receiver.h"
#include "data/sender.h"
#include "data/stream.h"
#include "host/tcpinfo.h"
#include "stream_rr.h"
#include "xfer_state.h"

/* How long a worker waits in epoll at most: how late it sees a stop. */
#define WORKER_TICK_MS		20
/* How often it looks for flows silent past the timeout. */
#define WORKER_SILENT_TICK_MS	250
#define WORKER_EVENTS		256

static void
stream_error(struct stream *s, const char *what, int errnum)
{
	const struct xfer *x = s->x;

	if (s->error[0] != '\0' || atomic_load(&x->stop) == STREAM_STOP_ABORT)
		return;
	if (s->io.over == STREAM_OVER_CAP)
		snprintf(s->error, sizeof(s->error), "more than the test "
		    "asked for arrived (-n buffers and one more: %" PRIu64
		    " bytes): cut off", x->stream_cap);
	else if (s->io.over == STREAM_OVER_TOTAL)
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

/* A flow out of its wait: --crr's out of its transaction too. */
void
xfer_worker_stop(struct stream *s)
{
	shutdown(s->fd, SHUT_RDWR);
	if (s->opened)
		crr_abort(&s->io);
}

/*
 * One flow failed, so the test has: unblock the others now rather than
 * let each wait out its own silent-peer timeout, which may have started
 * later.  Their errors, consequences of this one, are not recorded.
 */
static void
streams_stop(struct xfer *x)
{
	unsigned i;

	atomic_store(&x->stop, STREAM_STOP_ABORT);
	for (i = 0; i < x->n; i++)
		xfer_worker_stop(&x->s[i]);
}

/* One step of a flow's path: 0 done, -1 failed, or enum stream_want. */
static int
flow_step(struct stream *s)
{
	struct xfer *x = s->x;

	if (x->is_tx)
		return sender_run(&s->io, &x->stop, x->p.nbuf);
	return receiver_run(&s->io);
}

/* A flow has ended (rc 0) or failed (-1, errno): its figures, the count. */
static void
flow_end(struct stream *s, int rc, int errnum)
{
	struct xfer *x = s->x;

	if (rc == -1)
		stream_error(s, s->io.what != NULL ? s->io.what : x->is_tx ?
		    "send" : "recv", errnum);
	if (s->error[0] != '\0')
		streams_stop(x);
	/*
	 * -u: a receiver ends after a drain, a sender after its END
	 * datagrams; the stream's end is its last data datagram.
	 */
	if (x->p.udp && s->io.dg.last.tv_sec != 0)
		s->end = s->io.dg.last;
	else
		clock_gettime(CLOCK_MONOTONIC, &s->end);
	s->io.cpu = sched_getcpu();
	if (!x->p.udp)
		tcpinfo_read(s->fd, &s->ti);
	if (!x->is_tx)
		receiver_end(&s->io);	/* tell the sender we are done */
	atomic_fetch_add(&x->finished, 1);
	event_active(x->done_ev, EV_READ, 0);
}

/* The many-flow worker's bookkeeping, one entry a flow of it. */
struct wflow {
	struct stream	*s;
	int		 done;
	int		 queued;
	uint64_t	 seen;		/* calls and phase at the last look */
	int64_t		 moved;		/* flow_moved() at the last look */
	int64_t		 since_ms;	/* when either last changed */
	uint64_t	 wake_ns;	/* STREAM_WANT_TIME's, 0: none */
	unsigned	 watch_gen;	/* stream_io.watch_gen in the epoll */
};

struct wloop {
	struct worker	*w;
	struct wflow	*f;
	unsigned	*ready;		/* indices into f, to step */
	unsigned	 nready;
	unsigned	 left;		/* flows not done */
	int		 epfd;
	int		 stop;		/* the stop flag as last seen */
	int64_t		 silent_at;	/* next look for silent flows */
	unsigned	 ntimed;	/* flows with a wake_ns */
	uint64_t	 next_wake;	/* the nearest wake_ns, or sooner */
};

static void
wl_queue(struct wloop *l, unsigned j)
{
	if (l->f[j].done || l->f[j].queued)
		return;
	l->f[j].queued = 1;
	l->ready[l->nready++] = j;
}

static void
wl_end(struct wloop *l, unsigned j, int rc, int errnum)
{
	struct wflow *f = &l->f[j];

	if (f->wake_ns != 0) {
		f->wake_ns = 0;
		l->ntimed--;
	}
	f->done = 1;
	l->left--;
	epoll_ctl(l->epfd, EPOLL_CTL_DEL, f->s->fd, NULL);
	flow_end(f->s, rc, errnum);
}

/* fd in the epoll for flow j, edge-triggered both ways. */
static int
wl_add(struct wloop *l, unsigned j, int fd)
{
	struct epoll_event ev;

	memset(&ev, 0, sizeof(ev));
	ev.events = EPOLLIN | EPOLLOUT | EPOLLRDHUP | EPOLLET;
	ev.data.u32 = j;
	return epoll_ctl(l->epfd, EPOLL_CTL_ADD, fd, &ev);
}

/*
 * After a step: a new socket the flow waits on (--crr's transaction)
 * joins the epoll; the one before left it when it was closed.
 */
static int
wl_watch(struct wloop *l, unsigned j)
{
	struct wflow *f = &l->f[j];
	struct stream_io *io = &f->s->io;

	if (io->watch_gen == f->watch_gen)
		return 0;
	f->watch_gen = io->watch_gen;
	if (io->watch_fd < 0 || wl_add(l, j, io->watch_fd) == 0)
		return 0;
	io->what = "epoll_ctl (a transaction's connection)";
	return -1;
}

/* Flow j waits until t (ns) at the latest: its socket may wake it first. */
static void
wl_wake_at(struct wloop *l, unsigned j, uint64_t t)
{
	if (t == 0)
		t = 1;
	l->f[j].wake_ns = t;
	l->ntimed++;
	if (t < l->next_wake)
		l->next_wake = t;
}

/* Step every flow queued; one that yields goes to the back again. */
static void
wl_round(struct wloop *l)
{
	unsigned k, j, n = l->nready;
	int rc;

	l->nready = 0;
	for (k = 0; k < n; k++) {
		j = l->ready[k];
		l->f[j].queued = 0;
		if (l->f[j].done)
			continue;
		if (l->f[j].wake_ns != 0) {
			l->f[j].wake_ns = 0;
			l->ntimed--;
		}
		rc = flow_step(l->f[j].s);
		if (rc != 0 && rc != -1 && wl_watch(l, j) == -1)
			rc = -1;
		if (rc == STREAM_YIELD)
			wl_queue(l, j);
		else if (rc == STREAM_WANT_TIME)
			wl_wake_at(l, j, l->f[j].s->io.wake_ns);
		else if (rc == 0 || rc == -1)
			wl_end(l, j, rc, errno);
	}
}

/* Flows whose time has come, to step; the nearest time of the rest. */
static void
wl_timers(struct wloop *l)
{
	uint64_t next = UINT64_MAX, now;
	unsigned j;

	if (l->ntimed == 0 || (now = monotime_ns()) < l->next_wake)
		return;
	for (j = 0; j < l->w->nflows; j++) {
		if (l->f[j].wake_ns == 0)
			continue;
		if (l->f[j].wake_ns <= now)
			wl_queue(l, j);
		else if (l->f[j].wake_ns < next)
			next = l->f[j].wake_ns;
	}
	l->next_wake = next;
}

/* How long the epoll may wait, ms: to the nearest time, a tick at most. */
static int
wl_timeout(const struct wloop *l)
{
	uint64_t ms, now;

	if (l->nready > 0)
		return 0;
	if (l->ntimed == 0 || l->next_wake == UINT64_MAX)
		return WORKER_TICK_MS;
	if (l->next_wake <= (now = monotime_ns()))
		return 0;
	ms = (l->next_wake - now + 999999) / 1000000;
	return ms < WORKER_TICK_MS ? (int)ms : WORKER_TICK_MS;
}

/*
 * What TCP moved on a flow (tcpinfo_motion): the bytes its peer
 * acknowledged for a sender, the bytes that came for a receiver or
 * either side of --rr; -1 for UDP.
 */
static int64_t
flow_moved(const struct stream *s)
{
	struct tcpinfo_motion m;

	if (s->x->p.udp || tcpinfo_motion(s->fd, &m) == -1)
		return -1;
	return (int64_t)(s->x->is_tx && !s->x->p.rr ? m.acked : m.received);
}

/*
 * Flows that moved nothing for the silent-peer timeout fail: no call
 * of theirs returned anything and TCP moved nothing either (a sender's
 * buffer that drains slower than the timeout on a slow link, a read
 * that SO_RCVLOWAT holds back, are alive; a peer whose kernel answers
 * window probes while nothing is read is not).  TCP is asked once a
 * tick, and only about flows whose calls stood still for the tick.
 */
static void
wl_silent(struct wloop *l, int64_t now)
{
	const struct xfer *x = l->w->x;
	/* -u --rr: an asker whose requests were all lost waits a timeout. */
	uint32_t silent = x->silent_ms + (x->p.udp && x->p.rr ?
	    params_rr_timeout_ms(x->p.rr_timeout_ms) : 0);
	struct wflow *f;
	uint64_t seen;
	int64_t moved;
	unsigned j;

	if (now < l->silent_at)
		return;
	l->silent_at = now + WORKER_SILENT_TICK_MS;
	for (j = 0; j < l->w->nflows; j++) {
		f = &l->f[j];
		if (f->done)
			continue;
		seen = atomic_load_explicit(&f->s->io.calls,
		    memory_order_relaxed) * 2 + (uint64_t)f->s->io.phase;
		moved = seen == f->seen ? flow_moved(f->s) : f->moved;
		if (seen != f->seen || moved != f->moved) {
			f->seen = seen;
			f->moved = moved;
			f->since_ms = now;
		} else if (now - f->since_ms >= (int64_t)silent) {
			wl_end(l, j, -1, EAGAIN);
		}
	}
}

static int
wl_open(struct wloop *l, struct worker *w)
{
	unsigned j;

	memset(l, 0, sizeof(*l));
	l->w = w;
	l->f = calloc(w->nflows, sizeof(*l->f));
	l->ready = calloc(w->nflows, sizeof(*l->ready));
	if (l->f == NULL || l->ready == NULL ||
	    (l->epfd = epoll_create1(EPOLL_CLOEXEC)) == -1)
		return -1;
	l->left = w->nflows;
	l->next_wake = UINT64_MAX;
	l->silent_at = monotime_ms() + WORKER_SILENT_TICK_MS;
	for (j = 0; j < w->nflows; j++) {
		l->f[j].s = &w->x->s[w->first + j * w->x->nw];
		l->f[j].since_ms = monotime_ms();
		if (wl_add(l, j, l->f[j].s->fd) == -1)
			return -1;
		/* --crr's answerer: the event loop's hand-over wakes it. */
		if (l->f[j].s->io.rr.crr.wake >= 0 &&
		    wl_add(l, j, l->f[j].s->io.rr.crr.wake) == -1)
			return -1;
		wl_queue(l, j);
	}
	return 0;
}

static void
wl_close(struct wloop *l)
{
	if (l->epfd > 0)
		close(l->epfd);
	free(l->f);
	free(l->ready);
}

static void
worker_loop(struct worker *w)
{
	struct epoll_event ev[WORKER_EVENTS];
	struct wloop l;
	unsigned j;
	int i, n, st, errnum;

	if (wl_open(&l, w) == -1) {
		errnum = errno;
		for (j = 0; j < w->nflows; j++)
			if (l.f == NULL || !l.f[j].done)
				flow_end(&w->x->s[w->first + j * w->x->nw], -1,
				    errnum);
		wl_close(&l);
		return;
	}
	while (l.left > 0) {
		wl_round(&l);
		n = epoll_wait(l.epfd, ev, WORKER_EVENTS, wl_timeout(&l));
		for (i = 0; i < n; i++)
			wl_queue(&l, ev[i].data.u32);
		wl_timers(&l);
		/* A stop, or an abort: every flow looks at it. */
		if ((st = atomic_load(&w->x->stop)) != l.stop) {
			l.stop = st;
			for (j = 0; j < w->nflows; j++)
				wl_queue(&l, j);
		}
		wl_silent(&l, monotime_ms());
	}
	wl_close(&l);
}

static void *
worker_main(void *arg)
{
	struct worker *w = arg;
	struct xfer *x = w->x;
	struct stream *first = &x->s[w->first];
	unsigned j;
	int rc;

	stream_io_pin(&first->io);
	for (j = 1; j < w->nflows; j++) {
		x->s[w->first + j * x->nw].io.pin_err = first->io.pin_err;
		x->s[w->first + j * x->nw].io.pinned = first->io.pinned;
	}
	if (w->nflows > 1) {
		worker_loop(w);
		return NULL;
	}
	rc = flow_step(first);
	flow_end(first, rc, errno);
	return NULL;
}

int
xfer_workers_start(struct xfer *x, char *err, size_t errlen)
{
	unsigned i;
	int rc;

	for (i = 0; i < x->nw; i++) {
		if ((rc = pthread_create(&x->w[i].tid, NULL, worker_main,
		    &x->w[i])) != 0) {
			snprintf(err, errlen, "cannot start worker thread %u "
			    "of %u: %s", i, x->nw, strerror(rc));
			return -1;
		}
		x->w[i].started = 1;
	}
	return 0;
}

void
xfer_workers_join(struct xfer *x)
{
	unsigned i;

	for (i = 0; i < x->nw; i++)
		if (x->w[i].started)
			pthread_join(x->w[i].tid, NULL);
}
