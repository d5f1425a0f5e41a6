/*
 * sender_dgram.c: the datagram paths of a sender (-u), beside sender.c's
 * stream paths: sendmmsg() of --batch datagrams, each with its header
 * (dgram.h) encoded once and stamped per datagram, paced to -R by a token
 * bucket on CLOCK_MONOTONIC read once per batch; --gso's one send() that
 * the kernel cuts (UDP_SEGMENT); the END datagrams that end a stream.
 * The stream's own state is struct stream_dg (stream.h); sender.c's
 * table picks these by path.  Nothing here allocates inside a loop or
 * touches the event loop.  On a non-blocking socket (the many-flow
 * engine) the waits become returns: STREAM_WANT_TIME until the pace's
 * next datagram or END, STREAM_WANT_WRITE on a full socket buffer; the
 * buffer is the worker's, each datagram's stream id written per batch.
 */
#include <sys/socket.h>
#include <netinet/in.h>
#include <netinet/udp.h>

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "base/monotime.h"
#include "base/params.h"
#include "data/dgram.h"
#include "data/stream.h"
#include "sender_dgram.h"

/* The sender's END, this many times, DG_END_GAP_MS apart. */
#define DG_END_COUNT	3
#define DG_END_GAP_MS	10
/* --gso: a send carries at most this many segments, and bytes. */
#define GSO_SEGMENTS	64u
#define GSO_BYTES	65000u
/* A sender that fell behind its pace catches up at most this much. */
#define DG_CATCHUP_NS	UINT64_C(100000000)
/* A wait for the next datagram looks at the stop flag this often. */
#define DG_WAIT_SLICE_NS	UINT64_C(10000000)

static void
sleep_until_ns(uint64_t t)
{
	struct timespec ts = { .tv_sec = (time_t)(t / 1000000000u),
	    .tv_nsec = (long)(t % 1000000000u) };

	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) ==
	    EINTR)
		continue;
}

/* A batch of datagrams of io->len bytes, each header encoded once. */
int
sender_dg_open(struct stream_io *io, char *err, size_t errlen)
{
	struct stream_dg *dg = &io->dg;
	struct dgram_hdr h = { .kind = DGRAM_DATA, .stream = dg->id };
	uint32_t i;

	memcpy(h.token, dg->token, sizeof(h.token));
	if (stream_io_buf(io, (size_t)dg->batch * io->len, STREAM_FILL_BYTE,
	    err, errlen) == -1 || stream_dg_arrays(io, 0, err, errlen) == -1)
		return -1;
	for (i = 0; i < dg->batch; i++)
		dgram_encode(&h, (uint8_t *)io->buf + (size_t)i * io->len);
	return 0;
}

/*
 * Datagrams per call: the batch, or about a millisecond's worth when
 * paced, so that a paced batch is never a burst of much more than 1 ms.
 */
static unsigned
dg_per_call(const struct stream_dg *dg)
{
	double k = dg->pps / 1000;

	if (dg->pps == 0 || k > dg->batch)
		return dg->batch;
	return k < 1 ? 1 : (unsigned)k;
}

/*
 * Sleep until t, in slices of at most DG_WAIT_SLICE_NS so that a slow
 * pace (1 datagram/s) does not outlast the test: -1 when it is over.
 */
static int
dg_wait(atomic_int *stop, uint64_t t)
{
	uint64_t now;

	while ((now = monotime_ns()) < t) {
		if (atomic_load_explicit(stop, memory_order_relaxed) !=
		    STREAM_RUNNING)
			return -1;
		sleep_until_ns(t - now > DG_WAIT_SLICE_NS ?
		    now + DG_WAIT_SLICE_NS : t);
	}
	return atomic_load_explicit(stop, memory_order_relaxed) ==
	    STREAM_RUNNING ? 0 : -1;
}

/* sendmmsg() of k datagrams: how many went, or -1. */
static int
dg_emit_mmsg(struct stream_io *io, unsigned k)
{
	return sendmmsg(io->fd, io->dg.msgs, k, 0);
}

/* --gso: one send() of k datagrams that the kernel cuts (UDP_SEGMENT). */
static int
dg_emit_gso(struct stream_io *io, unsigned k)
{
	ssize_t n = send(io->fd, io->buf, (size_t)k * io->len, 0);

	return n < 0 ? -1 : (int)((size_t)n / io->len);
}

/*
 * Paced by a token bucket on CLOCK_MONOTONIC, read once per batch: the
 * next datagram is due at t0 + sent / pps; each datagram's send time is
 * its due time.  A full socket buffer or device queue (ENOBUFS, EAGAIN
 * after SO_SNDTIMEO) and ICMP port unreachable (ECONNREFUSED) are
 * counted, not fatal: they are what the test measures.
 */
/*
 * The pace: when the next datagram is due, its send time in *t.  0 to
 * send now; -1 when the test ended during the wait; STREAM_WANT_TIME on
 * a non-blocking socket, due in io->wake_ns.
 */
static int
dg_pace(struct stream_io *io, atomic_int *stop, uint64_t *t)
{
	struct stream_dg *dg = &io->dg;
	uint64_t due;

	if (dg->pps == 0)
		return 0;
	due = dg->t0_ns + (uint64_t)((double)dg->sent * 1e9 / dg->pps);
	if (due > *t && io->nonblock) {
		io->wake_ns = due;
		return STREAM_WANT_TIME;
	}
	if (due > *t && dg_wait(stop, due) == -1)
		return -1;
	if (due <= *t && *t - due > DG_CATCHUP_NS)
		dg->t0_ns += *t - due - DG_CATCHUP_NS;
	*t = due > *t ? due : *t;
	return 0;
}

static int
dg_loop(struct stream_io *io, atomic_int *stop, uint64_t nbuf,
    int (*emit)(struct stream_io *, unsigned))
{
	struct stream_dg *dg = &io->dg;
	unsigned per = dg_per_call(dg), k, i;
	uint64_t t, gap = dg->pps > 0 ? (uint64_t)(1e9 / dg->pps) : 0;
	uint8_t *p;
	int n;

	if (dg->t0_ns == 0)
		dg->t0_ns = monotime_ns();
	while (atomic_load_explicit(stop, memory_order_relaxed) ==
	    STREAM_RUNNING && (nbuf == 0 || dg->sent < nbuf)) {
		k = nbuf != 0 && nbuf - dg->sent < per ?
		    (unsigned)(nbuf - dg->sent) : per;
		t = monotime_ns();
		if ((n = dg_pace(io, stop, &t)) == STREAM_WANT_TIME)
			return n;
		if (n == -1)
			break;	/* the test ended first */
		for (i = 0; i < k; i++) {
			p = (uint8_t *)io->buf + (size_t)i * io->len;
			if (io->shared != NULL)
				dgram_restream(p, dg->id);
			dgram_stamp(p, dg->sent + i, t + i * gap);
		}
		if ((n = emit(io, k)) > 0) {
			dg->sent += (unsigned)n;
			atomic_store_explicit(&dg->iv_count, dg->sent,
			    memory_order_relaxed);
			if (stream_io_count(io, (ssize_t)n * (ssize_t)io->len) ==
			    -1) {
				io->what = "sendmmsg";
				return -1;
			}
			if (stream_io_spent(io))
				return STREAM_YIELD;
		} else if (n == -1 && errno == EAGAIN && io->nonblock)
			return STREAM_WANT_WRITE;
		else if (n == -1 && (errno == ENOBUFS || errno == EAGAIN))
			dg->enobufs++;
		else if (n == -1 && errno == ECONNREFUSED)
			dg->refused++;
		else if (n == -1 && errno != EINTR) {
			io->what = emit == dg_emit_gso ? "send (UDP_SEGMENT)" :
			    "sendmmsg";
			return -1;
		}
	}
	clock_gettime(CLOCK_MONOTONIC, &dg->last);	/* not the END's */
	return 0;
}

int
sender_dg_send(struct stream_io *io, atomic_int *stop, uint64_t nbuf)
{
	return dg_loop(io, stop, nbuf, io->path == GB_PATH_GSO ? dg_emit_gso :
	    dg_emit_mmsg);
}

/*
 * --gso: at most 64 segments (UDP_MAX_SEGMENTS) and 64 KB a send; a
 * kernel without UDP_SEGMENT (before 4.18), or a length past the path
 * MTU, falls back to sendmmsg with a note.
 */
int
sender_gso_open(struct stream_io *io, char *err, size_t errlen)
{
	struct stream_dg *dg = &io->dg;
	int seg = (int)io->len;
	uint32_t most = GSO_BYTES / (uint32_t)io->len;

	if (most > GSO_SEGMENTS)
		most = GSO_SEGMENTS;
	if (most >= 1 && setsockopt(io->fd, SOL_UDP, UDP_SEGMENT, &seg,
	    sizeof(seg)) == 0) {
		if (dg->batch > most)
			dg->batch = most;
	} else {
		snprintf(io->note, sizeof(io->note), "--gso: UDP_SEGMENT of "
		    "%zu bytes: %s; sendmmsg instead", io->len, most >= 1 ?
		    strerror(errno) : "too long");
		io->path = GB_PATH_SENDMMSG;
	}
	return sender_dg_open(io, err, errlen);
}

/*
 * No FIN: the END datagram, a few times, carrying the count sent; on a
 * non-blocking socket the gaps between them are STREAM_WANT_TIME.
 */
int
sender_dg_finish(struct stream_io *io)
{
	struct dgram_hdr h = { .kind = DGRAM_END, .stream = io->dg.id,
	    .seq = io->dg.sent };
	uint8_t end[DGRAM_HDR_LEN];
	uint64_t next;

	memcpy(h.token, io->dg.token, sizeof(h.token));
	for (;;) {
		h.send_ns = monotime_ns();
		dgram_encode(&h, end);
		/* Lost or refused, the receiver's drain time ends it too. */
		(void)send(io->fd, end, sizeof(end), MSG_NOSIGNAL);
		if (++io->dg.ends >= DG_END_COUNT)
			return 0;
		next = monotime_ns() + DG_END_GAP_MS * UINT64_C(1000000);
		if (io->nonblock) {
			io->wake_ns = next;
			return STREAM_WANT_TIME;
		}
		sleep_until_ns(next);
	}
}

