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
#include <sys/socket.h>

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "base/monotime.h"
#include "stream_rr.h"

/* All len bytes, counted; -1 with errno (EPIPE for a peer's FIN). */
static int
rr_send(struct stream_io *io, const char *p, size_t len)
{
	ssize_t n;

	while (len > 0) {
		if ((n = send(io->fd, p, len, MSG_NOSIGNAL)) == -1) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		if (stream_io_count(io, n) == -1) {
			errno = EFBIG;
			return -1;
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

/* All len bytes: 1; 0 for a FIN before the first byte (at_edge); -1. */
static int
rr_recv(struct stream_io *io, char *p, size_t len, int at_edge)
{
	size_t got = 0;
	ssize_t n;

	while (got < len) {
		n = recv(io->fd, p + got, len - got, 0);
		if (n == 0) {
			if (got == 0 && at_edge)
				return 0;
			errno = ECONNRESET;	/* cut in the middle */
			return -1;
		}
		if (n == -1) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		if (stream_io_count(io, n) == -1) {
			errno = EFBIG;
			return -1;
		}
		got += (size_t)n;
	}
	return 1;
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

/* The answer of the oldest request in flight: its latency, counted. */
static int
rr_await(struct stream_io *io, uint32_t *head)
{
	struct stream_rr *rr = &io->rr;
	uint64_t lat;
	int rc;

	if ((rc = rr_recv(io, io->buf + rr->req, rr->resp, 0)) != 1) {
		io->what = "awaiting an answer";
		return -1;
	}
	lat = monotime_ns() - rr->sent_ns[*head];
	lathist_add(rr->hist, lat);
	if (rr->slice != NULL) {	/* -i: uncontended but at a slice */
		pthread_mutex_lock(&rr->lock);
		lathist_add(rr->slice, lat);
		pthread_mutex_unlock(&rr->lock);
	}
	*head = (*head + 1) % rr->burst;
	stream_bump(&rr->trans);
	return 0;
}

int
rr_ask(struct stream_io *io, atomic_int *stop, uint64_t nbuf)
{
	struct stream_rr *rr = &io->rr;
	uint32_t head = 0, inflight = 0;

	(void)nbuf;		/* params_check: no -n with --rr */
	while (atomic_load_explicit(stop, memory_order_relaxed) == 0) {
		while (inflight < rr->burst) {
			rr->sent_ns[(head + inflight) % rr->burst] =
			    monotime_ns();
			if (rr_send(io, io->buf, rr->req) == -1) {
				io->what = "sending a request";
				return -1;
			}
			inflight++;
		}
		if (rr_await(io, &head) == -1)
			return -1;
		inflight--;
	}
	if (atomic_load(stop) == STREAM_STOP_ABORT)
		return 0;
	for (; inflight > 0; inflight--)
		if (rr_await(io, &head) == -1)
			return -1;
	return 0;
}

int
rr_answer_open(struct stream_io *io, char *err, size_t errlen)
{
	return rr_buffers(io, err, errlen);
}

int
rr_answer(struct stream_io *io)
{
	struct stream_rr *rr = &io->rr;
	int rc;

	for (;;) {
		if ((rc = rr_recv(io, io->buf, rr->req, 1)) == 0)
			return 0;	/* the asker's FIN: done */
		if (rc == -1) {
			io->what = "reading a request";
			return -1;
		}
		if (rr_send(io, io->buf + rr->req, rr->resp) == -1) {
			io->what = "answering";
			return -1;
		}
		stream_bump(&rr->trans);
	}
}
