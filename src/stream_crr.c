/*
 * stream_crr.c: --crr's loops (stream_rr.h), netperf's TCP_CRR: --rr's
 * transaction (stream_rr.c's rr_send, rr_recv) on a new connection each
 * time.  On a blocking socket (a thread a flow) each transaction runs to
 * its end in one call; on the many-flow engine's non-blocking ones it is
 * a few steps (c->step): the asker's connect, request, answer; the
 * answerer's wait for the next connection handed over, its request, the
 * answer, the asker's FIN.  Either way the connection of the
 * transaction under way is c->cur and stream_io.watch_fd, which the
 * worker adds to its epoll (each new one bumps watch_gen); its close
 * takes it out again.  The answerer's eventfd is in the epoll too.
 *
 * Why the listener takes each transaction's
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
#include "host/sock.h"
#include "stream_rr.h"

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
	if (io->buf != io->shared)	/* the worker's is not this flow's */
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

/* The many-flow engine: the transaction's connection closed, or none. */
static void
crr_drop(struct stream_io *io)
{
	struct stream_crr *c = &io->rr.crr;
	int fd = c->cur, saved = errno;

	c->step = CRR_IDLE;
	io->watch_fd = -1;
	if (fd < 0)
		return;
	crr_cur(c, -1);
	close(fd);
	errno = saved;
}

/* The many-flow engine's asker: a new connection, non-blocking. */
static int
crr_dial(struct stream_io *io)
{
	struct stream_crr *c = &io->rr.crr;
	char err[GB_ERR_LEN];
	int fd;

	c->t0 = monotime_ns();
	fd = sock_connect(c->to, &c->local, c->p, 1, 0, err, sizeof(err));
	if (fd == -1) {
		io->what = errno == EADDRNOTAVAIL ? CRR_NO_PORT :
		    "connecting for a transaction";
		return -1;
	}
	stream_bump(&c->conns);
	if (crr_cur(c, fd) == -1) {
		close(fd);
		errno = ECANCELED;	/* aborted: stream_error says nothing */
		io->what = "connecting for a transaction";
		return -1;
	}
	io->watch_fd = fd;
	io->watch_gen++;
	io->rr.sent = io->rr.got = 0;	/* a new connection's counts */
	c->step = CRR_CONNECTING;
	return 0;
}

/*
 * The many-flow engine's asker, in steps: connect (its end a writable
 * socket), request, answer, close; a transaction a turn's call.
 */
static int
crr_ask_steps(struct stream_io *io, atomic_int *stop)
{
	struct stream_rr *rr = &io->rr;
	struct stream_crr *c = &rr->crr;
	int rc = 0;

	for (;;) {
		if (c->step == CRR_IDLE) {
			if (atomic_load_explicit(stop, memory_order_relaxed) !=
			    STREAM_RUNNING)
				return 0;
			if (stream_io_spent(io))
				return STREAM_YIELD;
			if (crr_dial(io) == -1)
				return -1;
		}
		if (c->step == CRR_CONNECTING) {
			if (sock_wait_connected(c->cur, 0) == -1) {
				if (errno == ETIMEDOUT)
					return STREAM_WANT_WRITE;
				io->what = "connecting for a transaction";
				break;
			}
			c->step = CRR_ASKING;
		}
		if (c->step == CRR_ASKING) {
			io->what = "sending a request";
			if ((rc = rr_send(io, c->cur, io->buf, c->msglen +
			    rr->req, c->msglen, 0)) != 0)
				break;
			c->step = CRR_AWAITING;
		}
		io->what = "awaiting an answer";
		if ((rc = rr_recv(io, c->cur, io->buf + c->msglen + rr->req,
		    rr->resp, 0, 0)) != 0)
			break;
		rr_done(rr, monotime_ns() - c->t0);
		crr_drop(io);
	}
	if (rc == STREAM_WANT_READ || rc == STREAM_WANT_WRITE)
		return rc;
	crr_drop(io);
	return -1;
}

int
crr_ask(struct stream_io *io, atomic_int *stop, uint64_t nbuf)
{
	(void)nbuf;		/* params_check: no -n with --rr */
	if (io->nonblock)
		return crr_ask_steps(io, stop);
	while (atomic_load_explicit(stop, memory_order_relaxed) == 0)
		if (crr_once(io) == -1)
			return -1;
	return 0;
}

int
crr_answer_open(struct stream_io *io, char *err, size_t errlen)
{
	if (rr_answer_open(io, err, errlen) == -1)
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
	if (c->cur >= 0)	/* the engine's, of a flow that failed */
		close(c->cur);
	c->cur = -1;
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

/*
 * The many-flow engine's answerer, between connections: the next one
 * handed over (CRR_TAKEN, in c->cur, non-blocking), the asker's FIN on
 * the stream's connection (0), nothing yet (STREAM_WANT_READ), or -1.
 */
#define CRR_TAKEN	(RR_FIN + 1)
static int
crr_take(struct stream_io *io)
{
	struct stream_crr *c = &io->rr.crr;
	uint64_t n;
	ssize_t got;
	int fd;
	char b;

	io->what = "awaiting the next connection";
	if (atomic_load(&c->aborted)) {
		errno = ECANCELED;
		return -1;
	}
	if (read(c->wake, &n, sizeof(n)) == -1 && errno != EAGAIN)
		return -1;
	if ((fd = atomic_exchange(&c->next, -1)) >= 0) {
		if (crr_cur(c, fd) == -1 || sock_set_nonblock(fd, 1) == -1) {
			close(fd);
			errno = ECANCELED;
			return -1;
		}
		io->watch_fd = fd;
		io->watch_gen++;
		io->rr.sent = io->rr.got = 0;
		stream_bump(&c->conns);
		c->t0 = monotime_ns() + (uint64_t)io->silent_ms * 1000000;
		c->step = CRR_READING;
		return CRR_TAKEN;
	}
	if ((got = recv(io->fd, &b, 1, MSG_DONTWAIT)) == 0)
		return 0;
	if (got == -1 && (errno == EAGAIN || errno == EINTR))
		return STREAM_WANT_READ;
	io->what = "the stream's connection";
	if (got > 0)
		errno = EPROTO;	/* it carries nothing */
	return -1;
}

/*
 * The transaction on c->cur, from where it stands: its request, the
 * answer, the asker's FIN; 0 at the FIN, STREAM_WANT_*, or -1.
 */
static int
crr_serve_steps(struct stream_io *io)
{
	struct stream_rr *rr = &io->rr;
	struct stream_crr *c = &rr->crr;
	char b;
	int rc;

	if (c->step == CRR_READING) {
		io->what = "reading a request on its connection";
		if ((rc = rr_recv(io, c->cur, io->buf, rr->req, 0, 0)) != 0)
			return rc;
		c->step = CRR_ANSWERING;
	}
	if (c->step == CRR_ANSWERING) {
		io->what = "answering on the request's connection";
		if ((rc = rr_send(io, c->cur, io->buf + rr->req, rr->resp, 0,
		    0)) != 0)
			return rc;
		stream_bump(&rr->trans);
		c->step = CRR_CLOSING;
	}
	io->what = "awaiting the close of the request's connection";
	if ((rc = rr_recv(io, c->cur, &b, 1, 1, 0)) == RR_FIN)
		return 0;	/* the asker's FIN */
	if (rc == 0)
		errno = EPROTO;	/* one transaction a connection */
	return rc == 0 ? -1 : rc;
}

/*
 * The many-flow engine's answerer: each connection's transaction within
 * the silent timeout (the worker comes back at its deadline), as
 * crr_serve's deadline bounds a thread's.
 */
static int
crr_answer_steps(struct stream_io *io)
{
	struct stream_crr *c = &io->rr.crr;
	int rc;

	for (;;) {
		if (c->step == CRR_IDLE && (rc = crr_take(io)) != CRR_TAKEN)
			return rc;
		if (monotime_ns() >= c->t0) {
			io->what = CRR_SLOW;
			errno = ETIMEDOUT;
			rc = -1;
		} else if ((rc = crr_serve_steps(io)) == STREAM_WANT_READ ||
		    rc == STREAM_WANT_WRITE) {
			io->wake_ns = c->t0;
			return STREAM_WANT_TIME;
		}
		crr_drop(io);
		if (rc == -1)
			return -1;
		if (stream_io_spent(io))
			return STREAM_YIELD;
	}
}

int
crr_answer(struct stream_io *io)
{
	int fd, rc;

	if (io->nonblock)
		return crr_answer_steps(io);

	while ((rc = crr_next(io, &fd)) == 1) {
		rc = crr_serve(io, fd);
		close(fd);
		if (rc == -1)
			return -1;
	}
	return rc;
}
