/*
 * stream_rr.c: --rr's loops (stream_rr.h), netperf's TCP_RR: the asking
 * end sends a request of rr.req bytes and awaits the answer of rr.resp
 * bytes, with rr.burst requests in flight; the answering end reads a
 * whole request and writes a whole answer.  A transaction's latency is from the first
 * byte of its request handed to send() to the last byte of its answer
 * read, on the asker's CLOCK_MONOTONIC: no clock of the peer's is used.
 *
 * The loops allocate nothing and read the clock twice a transaction on
 * the asking end, never on the answering one; with -i the asker also
 * adds each latency to the slice's histogram under a lock, which the
 * event loop takes only once a slice.  TCP_NODELAY is the
 * hello's, which the option sets with --rr (Nagle would hold a burst's
 * second request for the first's ACK).  A request or an answer cut by
 * the peer's FIN is an error; the answerer's clean end is a FIN where a
 * request would begin.
 */
#include <sys/eventfd.h>
#include <sys/socket.h>

#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "base/monotime.h"
#include "base/result.h"
#include "stream_rr.h"

/*
 * --crr's answerer, between the calls on a connection it was handed:
 * until fd is ready for events, the transaction's deadline (ns on
 * monotime) passes (ETIMEDOUT), or xfer's abort wakes it (ECANCELED).  A
 * wake-up for a connection handed over meanwhile is let pass: crr_next
 * looks at `next` before it waits.  0, or -1 with errno.
 */
static int
crr_wait(struct stream_io *io, int fd, short events, uint64_t deadline)
{
	struct stream_crr *c = &io->rr.crr;
	struct pollfd pfd[2] = {
		{ .fd = fd, .events = events },
		{ .fd = c->wake, .events = POLLIN },
	};
	uint64_t now, n;
	int rc;

	for (;;) {
		if (atomic_load(&c->aborted)) {
			errno = ECANCELED;
			return -1;
		}
		if ((now = monotime_ns()) >= deadline) {
			errno = ETIMEDOUT;
			return -1;
		}
		rc = poll(pfd, 2, (int)((deadline - now + 999999) / 1000000));
		if (rc == -1 && errno != EINTR)
			return -1;
		if (rc > 0 && pfd[0].revents != 0)
			return 0;
		if (rc > 0 && pfd[1].revents != 0 &&
		    read(c->wake, &n, sizeof(n)) == -1 && errno != EAGAIN)
			return -1;
	}
}

/*
 * All len bytes to fd, counted but for the first skip (--crr's data
 * message, which is no payload); 0, or -1 with errno (EPIPE for a peer's
 * FIN).  A deadline (crr_wait) makes each call a non-blocking one; 0
 * blocks, but for the many-flow engine's non-blocking socket, where it
 * returns STREAM_WANT_WRITE and goes on from io->rr.sent when called
 * again.
 */
int
rr_send(struct stream_io *io, int fd, const char *p, size_t len, size_t skip,
    uint64_t deadline)
{
	int flags = MSG_NOSIGNAL | (deadline != 0 ? MSG_DONTWAIT : 0);
	size_t head, *done = &io->rr.sent;
	ssize_t n;

	while (*done < len) {
		if (deadline != 0 && crr_wait(io, fd, POLLOUT, deadline) == -1)
			return -1;
		if ((n = send(fd, p + *done, len - *done, flags)) == -1) {
			if (errno == EINTR || (deadline != 0 &&
			    errno == EAGAIN))
				continue;
			if (errno == EAGAIN && io->nonblock)
				return STREAM_WANT_WRITE;
			return -1;
		}
		head = *done >= skip ? 0 : (size_t)n < skip - *done ?
		    (size_t)n : skip - *done;
		*done += (size_t)n;
		if ((size_t)n > head &&
		    stream_io_count(io, n - (ssize_t)head) == -1) {
			errno = EFBIG;
			return -1;
		}
	}
	*done = 0;
	return 0;
}

/*
 * All len bytes: 0; RR_FIN for a FIN before the first byte (at_edge);
 * -1.  A deadline, and the non-blocking socket's STREAM_WANT_READ
 * (resumed from io->rr.got), as rr_send's.
 */
int
rr_recv(struct stream_io *io, int fd, char *p, size_t len, int at_edge,
    uint64_t deadline)
{
	int flags = deadline != 0 ? MSG_DONTWAIT : 0;
	size_t *got = &io->rr.got;
	ssize_t n;

	while (*got < len) {
		if (deadline != 0 && crr_wait(io, fd, POLLIN, deadline) == -1)
			return -1;
		n = recv(fd, p + *got, len - *got, flags);
		if (n == 0) {
			if (*got == 0 && at_edge)
				return RR_FIN;
			errno = ECONNRESET;	/* cut in the middle */
			return -1;
		}
		if (n == -1) {
			if (errno == EINTR || (deadline != 0 &&
			    errno == EAGAIN))
				continue;
			if (errno == EAGAIN && io->nonblock)
				return STREAM_WANT_READ;
			return -1;
		}
		if (stream_io_count(io, n) == -1) {
			errno = EFBIG;
			return -1;
		}
		*got += (size_t)n;
	}
	*got = 0;
	return 0;
}

static int
rr_buffers(struct stream_io *io, char *err, size_t errlen)
{
	struct stream_rr *rr = &io->rr;

	rr->req = params_rr_size(rr->req);
	rr->resp = params_rr_size(rr->resp);
	rr->burst = params_rr_size(rr->burst);
	return stream_io_buf(io, (size_t)rr->req + rr->resp, STREAM_FILL_BYTE,
	    err, errlen);
}

int
rr_ask_open(struct stream_io *io, char *err, size_t errlen)
{
	struct stream_rr *rr = &io->rr;

	if (rr_buffers(io, err, errlen) == -1)
		return -1;
	rr->sent_ns = calloc(rr->burst, sizeof(*rr->sent_ns));
	rr->hist = malloc(sizeof(*rr->hist));
	if (rr->sliced)
		rr->slice = malloc(sizeof(*rr->slice));
	if (rr->sent_ns == NULL || rr->hist == NULL ||
	    (rr->sliced && rr->slice == NULL)) {
		snprintf(err, errlen, "out of memory for --rr's latencies");
		return -1;
	}
	lathist_init(rr->hist);
	if (rr->slice != NULL) {
		lathist_init(rr->slice);
		if (pthread_mutex_init(&rr->lock, NULL) != 0) {
			snprintf(err, errlen, "cannot make --rr's slice lock");
			return -1;
		}
		rr->locked = 1;
	}
	return 0;
}

/* A transaction answered after lat_ns: its latency, counted. */
void
rr_done(struct stream_rr *rr, uint64_t lat_ns)
{
	if (rr->slice != NULL) {	/* -i: uncontended but at a slice */
		pthread_mutex_lock(&rr->lock);
		lathist_add(rr->slice, lat_ns);
		pthread_mutex_unlock(&rr->lock);
	}
	/* --under-load's --omit: in its slices (the plot), not counted. */
	if (atomic_load_explicit(&rr->omitting, memory_order_relaxed))
		return;
	lathist_add(rr->hist, lat_ns);
	stream_bump(&rr->trans);
}

/*
 * The asker: requests until burst are in flight, then the oldest one's
 * answer, until stop; then, unless aborted, the answers still owed.
 * Where it is lives in io->rr (head, inflight, sent, got), so that on a
 * non-blocking socket it returns where the socket would block and goes
 * on from there.
 */
int
rr_ask(struct stream_io *io, atomic_int *stop, uint64_t nbuf)
{
	struct stream_rr *rr = &io->rr;
	int rc, st;

	(void)nbuf;		/* params_check: no -n with --rr */
	for (;;) {
		st = atomic_load_explicit(stop, memory_order_relaxed);
		if (st == STREAM_STOP_ABORT)
			return 0;
		if (rr->sent > 0 || (st == STREAM_RUNNING &&
		    rr->inflight < rr->burst)) {
			if (rr->sent == 0)
				rr->sent_ns[(rr->head + rr->inflight) %
				    rr->burst] = monotime_ns();
			if ((rc = rr_send(io, io->fd, io->buf, rr->req, 0,
			    0)) != 0) {
				io->what = "sending a request";
				return rc;
			}
			rr->inflight++;
			continue;
		}
		if (rr->inflight == 0)
			return 0;	/* stopped, nothing owed */
		if ((rc = rr_recv(io, io->fd, io->buf + rr->req, rr->resp, 0,
		    0)) != 0) {
			io->what = "awaiting an answer";
			return rc;
		}
		rr_done(rr, monotime_ns() - rr->sent_ns[rr->head]);
		rr->head = (rr->head + 1) % rr->burst;
		rr->inflight--;
		if (stream_io_spent(io))
			return STREAM_YIELD;
	}
}

int
rr_answer_open(struct stream_io *io, char *err, size_t errlen)
{
	return rr_buffers(io, err, errlen);
}

/* Read a request, answer it; inflight 1: the answer is owed. */
int
rr_answer(struct stream_io *io)
{
	struct stream_rr *rr = &io->rr;
	int rc;

	for (;;) {
		if (rr->inflight == 0) {
			rc = rr_recv(io, io->fd, io->buf, rr->req, 1, 0);
			if (rc == RR_FIN)
				return 0;	/* the asker's FIN: done */
			if (rc != 0) {
				io->what = "reading a request";
				return rc;
			}
			rr->inflight = 1;
		}
		if ((rc = rr_send(io, io->fd, io->buf + rr->req, rr->resp, 0,
		    0)) != 0) {
			io->what = "answering";
			return rc;
		}
		rr->inflight = 0;
		stream_bump(&rr->trans);
		if (stream_io_spent(io))
			return STREAM_YIELD;
	}
}
