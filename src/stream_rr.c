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
 * What rr_recv says of a FIN where a request would begin (at_edge): the
 * asker's clean end, beyond enum stream_want's codes.
 */
#define RR_FIN	(STREAM_YIELD + 1)

/*
 * All len bytes to fd, counted but for the first skip (--crr's data
 * message, which is no payload); 0, or -1 with errno (EPIPE for a peer's
 * FIN).  A deadline (crr_wait) makes each call a non-blocking one; 0
 * blocks, but for the many-flow engine's non-blocking socket, where it
 * returns STREAM_WANT_WRITE and goes on from io->rr.sent when called
 * again.
 */
static int
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
static int
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
static void
rr_done(struct stream_rr *rr, uint64_t lat_ns)
{
	lathist_add(rr->hist, lat_ns);
	if (rr->slice != NULL) {	/* -i: uncontended but at a slice */
		pthread_mutex_lock(&rr->lock);
		lathist_add(rr->slice, lat_ns);
		pthread_mutex_unlock(&rr->lock);
	}
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

/*
 * --crr, netperf's TCP_CRR.  Why the listener takes each transaction's
 * connection on its one port, through pending.c, and hands it to the
 * stream's answering thread (crr_give), rather than each answering
 * thread accept()ing on a port of the test's own: the connections then
 * pass every check a new connection passes (the handshake deadline, the
 * caps on pending connections in all and per source, the token of the
 * running test, the test's address), a firewall that lets the port in
 * lets the test in, and the answering threads never block on a stranger
 * (an accept() on a thread would read a slow peer's first message
 * there, or race for connections meant for another stream).  The cost:
 * a trip through the event loop per transaction, part of the latency
 * measured, as accept() is for any server.
 *
 * The stream's connection from the handshake stays open and silent: its
 * FIN (the asker's fin_wait) is how the answerer learns the test is over,
 * and xfer_abort's shutdown of it wakes an answerer that waits for a
 * connection (one inside a transaction ends with it, or after silent_ms).
 * The asker closes each connection first, so TIME_WAIT lands on it, as
 * in netperf; the answerer waits for that FIN before it closes.  On
 * loopback Linux reuses those ports (net.ipv4.tcp_tw_reuse = 2); across
 * a network about 28,000 of them last 60 s, and connect() then fails
 * with EADDRNOTAVAIL, which the error says in words.
 */
#define CRR_SLOW "a transaction's connection outlasted the silent " \
	"timeout (its request, answer and close)"
#define CRR_NO_PORT "connecting for a transaction (no local port left: each " \
	"closed connection holds one in TIME_WAIT for 60 s; widen " \
	"net.ipv4.ip_local_port_range or run a shorter test)"

int
crr_ask_open(struct stream_io *io, char *err, size_t errlen)
{
	struct stream_crr *c = &io->rr.crr;
	char *buf;

	if (c->to == NULL) {
		snprintf(err, errlen, "--crr: no address to connect to");
		return -1;
	}
	if (rr_ask_open(io, err, errlen) == -1)
		return -1;
	/* The data message, then the request: one send() each. */
	if ((buf = malloc(c->msglen + io->buflen)) == NULL) {
		snprintf(err, errlen, "out of memory for --crr's buffer");
		return -1;
	}
	memcpy(buf, c->msg, c->msglen);
	memcpy(buf + c->msglen, io->buf, io->buflen);
	free(io->buf);
	io->buf = buf;
	io->buflen += c->msglen;
	return 0;
}

/*
 * The asker's connection of the transaction under way, for crr_abort to
 * shut down (under the lock: the number cannot be closed and reused in
 * between); -1 when the test is aborted already.
 */
static int
crr_cur(struct stream_crr *c, int fd)
{
	int rc = 0;

	pthread_mutex_lock(&c->cur_lock);
	if (fd >= 0 && atomic_load(&c->aborted))
		rc = -1;
	else
		c->cur = fd;
	pthread_mutex_unlock(&c->cur_lock);
	return rc;
}

/* One transaction on a new connection: connect, ask, await, close. */
static int
crr_once(struct stream_io *io)
{
	struct stream_rr *rr = &io->rr;
	struct stream_crr *c = &rr->crr;
	char err[GB_ERR_LEN];
	uint64_t t0;
	int fd, rc, saved;

	t0 = monotime_ns();
	fd = sock_connect(c->to, &c->local, c->p, 1, io->silent_ms, err,
	    sizeof(err));
	if (fd == -1) {
		io->what = errno == EADDRNOTAVAIL ? CRR_NO_PORT :
		    "connecting for a transaction";
		return -1;
	}
	stream_bump(&c->conns);
	sock_set_timeouts(fd, io->silent_ms);
	if (crr_cur(c, fd) == -1) {
		close(fd);
		errno = ECANCELED;	/* aborted: stream_error says nothing */
		io->what = "connecting for a transaction";
		return -1;
	}
	rr->sent = rr->got = 0;		/* a new connection's counts */
	if ((rc = rr_send(io, fd, io->buf, c->msglen + rr->req,
	    c->msglen, 0)) == -1)
		io->what = "sending a request";
	else if ((rc = rr_recv(io, fd, io->buf + c->msglen + rr->req,
	    rr->resp, 0, 0)) != 0) {
		io->what = "awaiting an answer";
		rc = -1;
	} else
		rr_done(rr, monotime_ns() - t0);
	saved = errno;
	crr_cur(c, -1);
	close(fd);
	errno = saved;
	return rc == -1 ? -1 : 0;
}

int
crr_ask(struct stream_io *io, atomic_int *stop, uint64_t nbuf)
{
	(void)nbuf;		/* params_check: no -n with --rr */
	while (atomic_load_explicit(stop, memory_order_relaxed) == 0)
		if (crr_once(io) == -1)
			return -1;
	return 0;
}

int
crr_answer_open(struct stream_io *io, char *err, size_t errlen)
{
	if (rr_buffers(io, err, errlen) == -1)
		return -1;
	if ((io->rr.crr.wake = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK)) == -1) {
		snprintf(err, errlen, "eventfd for --crr: %s", strerror(errno));
		return -1;
	}
	return 0;
}

int
crr_give(struct stream_io *io, int fd)
{
	struct stream_crr *c = &io->rr.crr;
	uint64_t one = 1;
	int empty = -1;

	if (c->wake == -1 || !atomic_compare_exchange_strong(&c->next, &empty,
	    fd))
		return -1;
	if (write(c->wake, &one, sizeof(one)) == -1) {
		/* A counter short of overflowing: the thread is awake. */
	}
	return 0;
}

void
crr_close(struct stream_io *io)
{
	struct stream_crr *c = &io->rr.crr;
	int fd;

	if ((fd = atomic_exchange(&c->next, -1)) >= 0)
		close(fd);
	if (c->wake >= 0)
		close(c->wake);
	c->wake = -1;
	pthread_mutex_destroy(&c->cur_lock);
}

/*
 * The next connection handed over: 1 with *fd; 0 at the asker's FIN on
 * the stream's connection (or its shutdown by an abort); -1 with errno:
 * EAGAIN when none came within silent_ms, EPROTO for bytes on the
 * stream's connection.
 */
static int
crr_next(struct stream_io *io, int *fd)
{
	struct stream_crr *c = &io->rr.crr;
	struct pollfd pfd[2] = {
		{ .fd = c->wake, .events = POLLIN },
		{ .fd = io->fd, .events = POLLIN },
	};
	uint64_t n;
	ssize_t got;
	char b;
	int rc;

	for (;;) {
		if (atomic_load(&c->aborted)) {
			io->what = "awaiting the next connection";
			errno = ECANCELED;
			return -1;
		}
		if ((*fd = atomic_exchange(&c->next, -1)) >= 0)
			return 1;
		if ((rc = poll(pfd, 2, io->silent_ms)) == -1 && errno == EINTR)
			continue;
		io->what = "awaiting the next connection";
		if (rc == 0)
			errno = EAGAIN;
		if (rc <= 0)
			return -1;
		if (pfd[0].revents != 0 && read(c->wake, &n, sizeof(n)) == -1 &&
		    errno != EAGAIN)
			return -1;
		if (pfd[1].revents == 0)
			continue;
		if ((got = recv(io->fd, &b, 1, MSG_DONTWAIT)) == 0)
			return 0;
		if (got == -1 && (errno == EAGAIN || errno == EINTR))
			continue;
		io->what = "the stream's connection";
		if (got > 0)
			errno = EPROTO;	/* it carries nothing */
		return -1;
	}
}

/*
 * One connection: its request, the answer, then the asker's FIN, all
 * within one silent timeout: a peer that trickles its request a byte at
 * a time cannot hold the stream (and the listener) past it.
 */
static int
crr_serve(struct stream_io *io, int fd)
{
	struct stream_rr *rr = &io->rr;
	uint64_t deadline = monotime_ns() + (uint64_t)io->silent_ms * 1000000;
	char b;
	int rc;

	stream_bump(&rr->crr.conns);
	rr->sent = rr->got = 0;		/* a new connection's counts */
	if (rr_recv(io, fd, io->buf, rr->req, 0, deadline) != 0)
		io->what = "reading a request on its connection";
	else if (rr_send(io, fd, io->buf + rr->req, rr->resp, 0,
	    deadline) == -1)
		io->what = "answering on the request's connection";
	else {
		stream_bump(&rr->trans);
		if ((rc = rr_recv(io, fd, &b, 1, 1, deadline)) == RR_FIN)
			return 0;	/* the asker's FIN */
		io->what = "awaiting the close of the request's connection";
		if (rc == 0)
			errno = EPROTO;	/* one transaction a connection */
	}
	if (errno == ETIMEDOUT)		/* crr_wait's: the deadline */
		io->what = CRR_SLOW;
	return -1;
}

void
crr_abort(struct stream_io *io)
{
	struct stream_crr *c = &io->rr.crr;
	uint64_t one = 1;

	atomic_store(&c->aborted, 1);
	if (c->wake >= 0 && write(c->wake, &one, sizeof(one)) == -1) {
		/* A counter short of overflowing: the thread is awake. */
	}
	pthread_mutex_lock(&c->cur_lock);	/* the asker's transaction */
	if (c->cur >= 0)
		shutdown(c->cur, SHUT_RDWR);
	pthread_mutex_unlock(&c->cur_lock);
}

int
crr_answer(struct stream_io *io)
{
	int fd, rc;

	while ((rc = crr_next(io, &fd)) == 1) {
		rc = crr_serve(io, fd);
		close(fd);
		if (rc == -1)
			return -1;
	}
	return rc;
}
