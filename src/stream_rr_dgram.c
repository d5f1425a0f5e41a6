/*
 * stream_rr_dgram.c: -u --rr's loops (stream_rr.h), netperf's UDP_RR:
 * on each stream's connected datagram socket the asker sends a request
 * datagram of rr.req bytes and awaits an answer datagram of rr.resp
 * bytes, rr.burst in flight.  Both start with gigebench's header
 * (dgram.h): the request's seq and send time come back in its answer, so
 * an answer is matched to its request (rrslots.h) and never mistaken for
 * another's.  A datagram may be lost: a request whose answer has not
 * come within rr.timeout_ms is counted lost and its slot takes a new
 * request; an answer that comes after that is counted late, never as a
 * transaction, and its latency is not kept.  The latencies are the
 * answered ones' alone, on the asker's CLOCK_MONOTONIC, as over TCP.
 *
 * The answerer answers only a request of this test's token and this
 * stream, exactly rr.req bytes long, one answer a request, on a socket
 * connected to the one source that proved the token (server_dgram.c):
 * it is no reflector.  An answer larger than its request needs the
 * listener's consent to a reverse test (server.c), as over TCP.
 * Anything else is counted stray and not answered.  It ends at the
 * asker's END datagram, or at the stop flag (the test's duration and a
 * drain time), and fails after the silent-peer timeout without one.
 *
 * The asker's socket waits at most a slice of the timeout (SO_RCVTIMEO),
 * so a request is given up at most a quarter of the timeout after its
 * deadline, and the stop flag is seen.  At the stop, what is in flight
 * is awaited until answered or lost: requests sent = answered + lost.
 * On a non-blocking socket (the many-flow engine) the asker waits for
 * its oldest request's deadline instead (STREAM_WANT_TIME), the
 * answerer for its socket, and each stamps its stream's id into the
 * worker's buffer that its flows share.
 *
 * Paced (rr.gap_ns, --under-load's UDP probes): a slot takes a request
 * only when one is due, every gap_ns on a fixed schedule whatever the
 * answers (irtt's isochronous probes; one late by less than a gap keeps
 * the schedule, one later starts it again), and the asker waits for an
 * answer at most until the next is due (ppoll; on a non-blocking socket
 * STREAM_WANT_TIME).  --omit: the answers that come in it are not
 * counted (rr_done), nor its requests answered or lost in it (requests0,
 * lost0, taken when the asker first sees the omit over: those then in
 * flight are the measured part's, answered or lost).
 */
#include <sys/socket.h>

#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "base/monotime.h"
#include "host/sock.h"
#include "stream_rr.h"

/* The answerer's wait, as the datagram receiver's (receiver.c). */
#define RR_DG_SLICE_MS	50

/* A header for this stream's datagrams at p: seq and time stamped later. */
static void
rr_dg_header(const struct stream_io *io, char *p)
{
	struct dgram_hdr h = { .kind = DGRAM_DATA, .stream = io->dg.id };

	memcpy(h.token, io->dg.token, sizeof(h.token));
	dgram_encode(&h, (uint8_t *)p);
}

/* Is the datagram at p (len bytes, n in all) this stream's? */
static int
rr_dg_ours(const struct stream_io *io, const char *p, size_t len,
    struct dgram_hdr *h)
{
	return dgram_decode((const uint8_t *)p, len, h) == DGRAM_OK &&
	    dgram_token_eq(h, io->dg.token) && h->stream == io->dg.id;
}

int
rr_dg_ask_open(struct stream_io *io, char *err, size_t errlen)
{
	struct stream_rr *rr = &io->rr;
	int slice_ms = (int)(rr->timeout_ms / 4);

	if (rr_ask_open(io, err, errlen) == -1)
		return -1;
	rr->slots = rrslots_new(rr->burst,
	    (uint64_t)rr->timeout_ms * 1000000u);
	if (rr->slots == NULL) {
		snprintf(err, errlen, "out of memory for -u --rr's requests");
		return -1;
	}
	rr_dg_header(io, io->buf);
	if (sock_set_rcvtimeo(io->fd, slice_ms > 0 ? slice_ms : 1) == -1) {
		snprintf(err, errlen, "setsockopt SO_RCVTIMEO: %s",
		    strerror(errno));
		return -1;
	}
	return 0;
}

/*
 * Every free slot's request.  A full device queue (ENOBUFS) or the
 * ICMP port unreachable of an earlier datagram (ECONNREFUSED) leave the
 * request in flight: it will be lost, and is counted so.
 */
/* Paced: is a request due at now? */
static int
rr_dg_due(const struct stream_rr *rr, uint64_t now)
{
	return rr->gap_ns == 0 || now >= rr->next_ns;
}

/* Paced: a request sent at now; the next one's time. */
static void
rr_dg_paced(struct stream_rr *rr, uint64_t now)
{
	if (rr->gap_ns == 0)
		return;
	rr->next_ns = rr->next_ns + rr->gap_ns > now ?
	    rr->next_ns + rr->gap_ns : now + rr->gap_ns;
}

/* The counts as the omit ends, seen by the asker itself. */
static void
rr_dg_omit_seen(struct stream_rr *rr)
{
	if (rr->omit_seen ||
	    atomic_load_explicit(&rr->omitting, memory_order_relaxed))
		return;
	rr->omit_seen = 1;
	/*
	 * Those in flight now are the window's: their answers count (the
	 * omit is over when they come, rr_done) or they are lost in it.
	 */
	rr->requests0 = rr->slots->requests - rr->slots->inflight;
	rr->lost0 = rr->slots->lost;
}

static int
rr_dg_fill(struct stream_io *io, uint64_t now)
{
	struct stream_rr *rr = &io->rr;
	uint64_t seq;
	ssize_t n;

	rr_dg_omit_seen(rr);
	while (rr_dg_due(rr, now) && rrslots_take(rr->slots, now, &seq) == 0) {
		rr_dg_paced(rr, now);
		if (io->shared != NULL)
			dgram_restream((uint8_t *)io->buf, io->dg.id);
		dgram_stamp((uint8_t *)io->buf, seq, now);
		io->dg.sent++;
		while ((n = send(io->fd, io->buf, rr->req, 0)) == -1 &&
		    errno == EINTR)
			continue;
		if (n > 0 && stream_io_count(io, n) == -1) {
			io->what = "sending a request";
			return -1;
		}
		if (n == -1 && (errno == ENOBUFS || errno == EAGAIN))
			io->dg.enobufs++;
		else if (n == -1 && errno == ECONNREFUSED)
			io->dg.refused++;
		else if (n == -1) {
			io->what = "sending a request";
			return -1;
		}
	}
	return 0;
}

/* The stream's last data, for its end (xfer.c): ns into a timespec. */
static void
rr_dg_last(struct stream_io *io, uint64_t now)
{
	io->dg.last.tv_sec = (time_t)(now / 1000000000u);
	io->dg.last.tv_nsec = (long)(now % 1000000000u);
}

/*
 * An answer of n bytes (its whole length) come at now: its bytes are
 * counted when it is one of this stream's answers, in time or late.
 */
static int
rr_dg_take(struct stream_io *io, ssize_t n, uint64_t now)
{
	struct stream_rr *rr = &io->rr;
	struct dgram_hdr h;
	uint64_t lat;
	int rc;

	if (!rr_dg_ours(io, io->buf + rr->req, (size_t)n < rr->resp ?
	    (size_t)n : rr->resp, &h)) {
		io->dg.stray++;
		return 0;
	}
	if (h.kind == DGRAM_ACK)	/* a hello's answer, again */
		return 0;
	if ((size_t)n != rr->resp || h.kind != DGRAM_DATA) {
		io->dg.stray++;
		return 0;
	}
	rc = rrslots_answer(rr->slots, h.seq, now, &lat);
	if (rc != RRSLOTS_STRAY && stream_io_count(io, n) == -1) {
		io->what = "awaiting an answer";
		return -1;
	}
	if (rc != RRSLOTS_ANSWERED)
		return 0;
	rr_done(rr, lat);
	rr_dg_last(io, now);
	return 0;
}

/*
 * One answer awaited, or a slice of the timeout; expired ones lost.  A
 * non-blocking socket with nothing queued: STREAM_WANT_TIME until the
 * oldest request's deadline, unless refill (the test runs) finds a slot
 * the expiry freed.
 */
/*
 * Paced, on a blocking socket: wait for an answer until the next
 * request is due (refill), the oldest one's deadline, or a slice of the
 * timeout; 0 when none came.
 */
static int
rr_dg_wait(const struct stream_io *io, int refill)
{
	const struct stream_rr *rr = &io->rr;
	struct pollfd pfd = { .fd = io->fd, .events = POLLIN };
	uint64_t now = monotime_ns();
	uint64_t until = now + (uint64_t)rr->timeout_ms * 250000u;
	struct timespec ts;

	if (rr->slots->next_expiry < until)
		until = rr->slots->next_expiry;
	if (refill && rr->next_ns < until)
		until = rr->next_ns;
	until = until > now ? until - now : 0;
	ts.tv_sec = (time_t)(until / 1000000000u);
	ts.tv_nsec = (long)(until % 1000000000u);
	return ppoll(&pfd, 1, &ts, NULL);
}

static int
rr_dg_await(struct stream_io *io, int refill)
{
	struct stream_rr *rr = &io->rr;
	uint64_t now;
	ssize_t n;
	int idle;

	if (rr->gap_ns != 0 && !io->nonblock &&
	    ((n = rr_dg_wait(io, refill)) == 0 || (n == -1 && errno == EINTR))) {
		rrslots_expire(rr->slots, monotime_ns());
		return 0;
	}
	n = recv(io->fd, io->buf + rr->req, rr->resp, MSG_TRUNC);
	now = monotime_ns();
	if (n >= 0) {
		if (rr_dg_take(io, n, now) == -1)
			return -1;
		return stream_io_spent(io) ? STREAM_YIELD : 0;
	} else if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR &&
	    errno != ECONNREFUSED) {
		io->what = "awaiting an answer";
		return -1;
	}
	idle = errno == EAGAIN || errno == EWOULDBLOCK;
	rrslots_expire(rr->slots, now);
	if (!io->nonblock || !idle || (refill && rr_dg_due(rr, now) &&
	    rr->slots->inflight < rr->slots->n))
		return 0;
	io->wake_ns = rr->slots->next_expiry != UINT64_MAX ?
	    rr->slots->next_expiry : now + rr->timeout_ms * UINT64_C(1000000);
	if (refill && rr->gap_ns != 0 && rr->next_ns < io->wake_ns)
		io->wake_ns = rr->next_ns;
	return STREAM_WANT_TIME;
}

int
rr_dg_ask(struct stream_io *io, atomic_int *stop, uint64_t nbuf)
{
	struct stream_rr *rr = &io->rr;
	int rc;

	(void)nbuf;		/* params_check: no -n with --rr */
	while (atomic_load_explicit(stop, memory_order_relaxed) ==
	    STREAM_RUNNING) {
		if (rr_dg_fill(io, monotime_ns()) == -1)
			return -1;
		if ((rc = rr_dg_await(io, 1)) != 0)
			return rc;
	}
	if (atomic_load(stop) == STREAM_STOP_ABORT)
		return 0;
	while (rr->slots->inflight > 0)	/* answered or lost in time */
		if ((rc = rr_dg_await(io, 0)) != 0)
			return rc;
	return 0;
}

int
rr_dg_answer_open(struct stream_io *io, char *err, size_t errlen)
{
	if (rr_answer_open(io, err, errlen) == -1)
		return -1;
	rr_dg_header(io, io->buf + io->rr.req);
	if (sock_set_rcvtimeo(io->fd, RR_DG_SLICE_MS) == -1) {
		snprintf(err, errlen, "setsockopt SO_RCVTIMEO: %s",
		    strerror(errno));
		return -1;
	}
	return 0;
}

/* A request of n bytes (its whole length): answered when it is one. */
static int
rr_dg_reply(struct stream_io *io, ssize_t n)
{
	struct stream_rr *rr = &io->rr;
	char *ans = io->buf + rr->req;
	struct dgram_hdr h = { .kind = DGRAM_DATA };
	ssize_t w;

	if (!rr_dg_ours(io, io->buf, (size_t)n < rr->req ? (size_t)n :
	    rr->req, &h) || (h.kind == DGRAM_DATA && (size_t)n != rr->req)) {
		io->dg.stray++;
		return 0;
	}
	if (h.kind == DGRAM_END)
		io->dg.ended = 1;
	if (h.kind != DGRAM_DATA)
		return 0;	/* END, or a hello sent again */
	rr->taken++;
	if (stream_io_count(io, n) == -1) {
		io->what = "reading a request";
		return -1;
	}
	if (io->shared != NULL)
		dgram_restream((uint8_t *)ans, io->dg.id);
	dgram_stamp((uint8_t *)ans, h.seq, h.send_ns);
	while ((w = send(io->fd, ans, rr->resp, 0)) == -1 && errno == EINTR)
		continue;
	if (w > 0) {
		if (stream_io_count(io, w) == -1) {
			io->what = "answering";
			return -1;
		}
		stream_bump(&rr->trans);
		rr_dg_last(io, monotime_ns());
	} else if (errno == ENOBUFS || errno == EAGAIN)
		io->dg.enobufs++;	/* the asker counts it lost */
	else if (errno == ECONNREFUSED)
		io->dg.refused++;
	else {
		io->what = "answering";
		return -1;
	}
	return 0;
}

int
rr_dg_answer(struct stream_io *io)
{
	struct stream_rr *rr = &io->rr;
	int idle_ms = 0;
	ssize_t n;

	for (;;) {
		n = recv(io->fd, io->buf, rr->req, MSG_TRUNC);
		if (n >= 0) {
			idle_ms = 0;
			if (rr_dg_reply(io, n) == -1)
				return -1;
			if (io->dg.ended || atomic_load_explicit(io->dg.stop,
			    memory_order_relaxed) != STREAM_RUNNING)
				return 0;
			if (stream_io_spent(io))
				return STREAM_YIELD;
			continue;
		}
		if (atomic_load(io->dg.stop) != STREAM_RUNNING)
			return 0;
		if (errno == EINTR || errno == ECONNREFUSED)
			continue;
		if (errno != EAGAIN && errno != EWOULDBLOCK) {
			io->what = "reading a request";
			return -1;
		}
		if (io->nonblock)	/* the worker sees a silence */
			return STREAM_WANT_READ;
		/* An asker whose requests were all lost waits a timeout. */
		if ((idle_ms += RR_DG_SLICE_MS) >= io->silent_ms +
		    (int)rr->timeout_ms) {
			io->what = "awaiting a request";
			return -1;	/* errno EAGAIN: "peer silent" */
		}
	}
}
