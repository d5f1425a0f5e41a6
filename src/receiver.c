/*
 * receiver.c: every receive path of one stream (enum gb_path), each a
 * small loop over one system call:
 *
 *	recv		recv() into one buffer
 *	skip_rx_copy	recv(MSG_TRUNC): TCP discards the bytes, copies none
 *	splice		splice() socket -> pipe, pipe -> /dev/null
 *	recvmmsg	-u: recvmmsg() of --batch datagrams, each told
 *	gro		apart by its header (dgram.h) and counted by its
 *			sequence number (seqstat.h) at the kernel's
 *			arrival time (SO_TIMESTAMPNS); --gro: each message
 *			a train the kernel coalesced (UDP_GRO)
 *	rr_answer	--rr: a request read, answered (stream_rr.c)
 *	udp_rr_answer	-u --rr: a request datagram of the stream, answered
 *			(stream_rr_dgram.c)
 *	crr_answer	--crr: the same on each connection handed over
 *
 * with SO_RCVLOWAT and the slices of the silent-peer timeout that keep a
 * whole-buffer read from outwaiting a silent peer, and the end of a
 * stream: the write side shut down once the sender's FIN is read.  It
 * owns the paths' buffer and pipe (stream_io_close releases them) and the
 * table that picks a path's functions, once per stream: a new path is a
 * new row, not a change to the stream engine.  It must not read a clock
 * or allocate inside a loop (xfer.c's timers own time), nor touch the
 * event loop: these run on the stream's thread.
 */
#include <sys/socket.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <netinet/udp.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/datapath.h"
#include "base/monotime.h"
#include "base/seqstat.h"
#include "data/dgram.h"
#include "host/sock.h"
#include "host/tcpinfo.h"
#include "data/receiver.h"
#include "data/stream.h"
#include "stream_rr.h"

/* A pipe of 16 pages is the default; larger ones move more per call. */
#define RX_PIPE_BYTES	(1024 * 1024)

/* One path: its set-up, its loop, and what tells the sender it ended. */
struct receiver_path {
	int	(*open)(struct stream_io *, char *err, size_t errlen);
	int	(*recv)(struct stream_io *);
	void	(*end)(struct stream_io *);
};

/* The FIN that ends the sender's wait. */
static void
shut_write(struct stream_io *io)
{
	shutdown(io->fd, SHUT_WR);
}

/*
 * recv() and recv(MSG_TRUNC) wait for a whole buffer (not --splice: a
 * splice() moves at most a pipe's worth, and waits as a plain read
 * does).  Received data lands in zeros; skip_rx_copy checks they stay.
 * Such a read waits half the silent-peer timeout at a time
 * (short_read says why).
 */
static int
buf_open(struct stream_io *io, char *err, size_t errlen)
{
	struct stream_rx *rx = &io->rx;

	/*
	 * Non-blocking, SO_RCVLOWAT holds epoll's readiness back instead
	 * (tcp_poll), and the worker's loop, not a timeout, sees silence.
	 */
	if ((rx->lowat = sock_set_rcvlowat(io->fd, (uint32_t)io->len)) != 0 &&
	    !io->nonblock) {
		rx->slice_ms = io->silent_ms > 1 ? io->silent_ms / 2 : 1;
		if (sock_set_rcvtimeo(io->fd, rx->slice_ms) == -1) {
			snprintf(err, errlen, "SO_RCVTIMEO: %s",
			    strerror(errno));
			return -1;
		}
	}
	return stream_io_buf(io, io->len, 0, err, errlen);
}

/*
 * With SO_RCVLOWAT (sock_set_rcvlowat) a blocking read waits for a whole
 * buffer, and when SO_RCVTIMEO runs out it returns what it has instead
 * of failing.  What it has can be a whole buffer even when the peer fell
 * silent during the wait: the bytes it took before the silence and the
 * ones queued since add up.  Then the next read waits another timeout,
 * which with the whole silent-peer timeout per read kept a listener busy
 * for up to twice that after a frozen sender.  So these reads wait half
 * of it (slice_ms), and a read that comes back short or with nothing
 * (EAGAIN) asks TCP how long ago the last data came: the peer is silent
 * when that is the whole silent-peer timeout; otherwise the next wait
 * ends by then.  A silent peer so fails within the timeout of its last
 * data (a few ms of clock ticks over), a slow one never; full reads, the
 * hot loop, pay nothing.  (Should TCP_INFO fail, a read that got data
 * counts as fresh data, one that got none as silence.)  0, or -1 with
 * errno EAGAIN for a silent peer.
 */
static int
short_read(struct stream_io *io, int got_data)
{
	struct stream_rx *rx = &io->rx;
	struct tcpinfo_motion m;
	int left;

	if (tcpinfo_motion(io->fd, &m) == -1)
		m.last_data_recv_ms = got_data ? 0 : (uint32_t)io->silent_ms;
	if (m.last_data_recv_ms >= (uint32_t)io->silent_ms) {
		errno = EAGAIN;
		return -1;
	}
	left = io->silent_ms - (int)m.last_data_recv_ms;
	if (left > rx->slice_ms)
		left = rx->slice_ms;
	if ((left != rx->slice_ms || rx->short_timeo) &&
	    sock_set_rcvtimeo(io->fd, left) == 0)
		rx->short_timeo = left != rx->slice_ms;
	return 0;
}

/*
 * With MSG_TRUNC, TCP returns the bytes it consumed (at most len, unlike
 * UDP's datagram length) and skips the copy to user space (tcp(7), since
 * Linux 2.4).
 */
static int
recv_loop(struct stream_io *io, int flags)
{
	struct stream_rx *rx = &io->rx;
	ssize_t n;

	for (;;) {
		n = recv(io->fd, io->buf, io->len, flags);
		if (n > 0) {
			if (stream_io_count(io, n) == -1)
				break;
			if (stream_io_spent(io))
				return STREAM_YIELD;
			if (io->nonblock)
				continue;
			if ((size_t)n < rx->lowat) {
				if (short_read(io, 1) == -1)
					break;
			} else if (rx->short_timeo &&
			    sock_set_rcvtimeo(io->fd, rx->slice_ms) == 0)
				rx->short_timeo = 0;
		} else if (n == 0)
			return 0;
		else if (errno == EAGAIN && io->nonblock)
			return STREAM_WANT_READ;
		else if (errno == EAGAIN && rx->lowat != 0) {
			if (short_read(io, 0) == -1)
				break;
		} else if (errno != EINTR)
			break;
	}
	io->what = flags != 0 ? "recv(MSG_TRUNC)" : "recv";
	return -1;
}

static int
recv_copy(struct stream_io *io)
{
	return recv_loop(io, 0);
}

static int
recv_trunc(struct stream_io *io)
{
	int rc = recv_loop(io, MSG_TRUNC);

	/* The sender's fill byte where only zeros were: it was copied. */
	if (rc == 0 && io->calls > 0 &&
	    memchr(io->buf, STREAM_FILL_BYTE, io->len) != NULL) {
		snprintf(io->note, sizeof(io->note), "--skip-rx-copy: the "
		    "kernel copied despite MSG_TRUNC");
		io->path = GB_PATH_RECV;
	}
	return rc;
}

static int
splice_open(struct stream_io *io, char *err, size_t errlen)
{
	struct stream_rx *rx = &io->rx;
	int size = io->len < RX_PIPE_BYTES ? (int)io->len : RX_PIPE_BYTES;

	if (io->lender != NULL) {	/* the worker's first flow's */
		rx->pipe[0] = io->lender->rx.pipe[0];
		rx->pipe[1] = io->lender->rx.pipe[1];
		rx->devnull = io->lender->rx.devnull;
		return 0;
	}
	if (pipe2(rx->pipe, O_CLOEXEC) == -1) {
		snprintf(err, errlen, "--splice: pipe: %s", strerror(errno));
		return -1;
	}
	/* Past fs.pipe-max-size (1M) without root: keep the default. */
	if (size > 65536)
		(void)fcntl(rx->pipe[1], F_SETPIPE_SZ, size);
	if ((rx->devnull = open("/dev/null", O_WRONLY | O_CLOEXEC)) == -1) {
		snprintf(err, errlen, "--splice: /dev/null: %s",
		    strerror(errno));
		return -1;
	}
	return 0;
}

/*
 * Socket to pipe (page references, no copy), pipe to /dev/null.  The
 * pipe is empty again before each splice from the socket, so that on
 * the many-flow engine (SPLICE_F_NONBLOCK) a worker's flows share one.
 */
static int
splice_loop(struct stream_io *io)
{
	struct stream_rx *rx = &io->rx;
	unsigned flags = SPLICE_F_MOVE | (io->nonblock ? SPLICE_F_NONBLOCK :
	    0);
	ssize_t n, k;
	size_t left;

	for (;;) {
		n = splice(io->fd, NULL, rx->pipe[1], NULL, io->len, flags);
		if (n == 0)
			return 0;
		if (n == -1) {
			if (errno == EINTR)
				continue;
			if (errno == EAGAIN && io->nonblock)
				return STREAM_WANT_READ;
			io->what = "splice from the socket";
			return -1;
		}
		if (stream_io_count(io, n) == -1) {
			io->what = "splice from the socket";
			return -1;
		}
		for (left = (size_t)n; left > 0; ) {
			k = splice(rx->pipe[0], NULL, rx->devnull, NULL, left,
			    SPLICE_F_MOVE);
			if (k > 0)
				left -= (size_t)k;
			else if (k == 0 || errno != EINTR) {
				if (k == 0)
					errno = EIO;
				io->what = "splice to /dev/null";
				return -1;
			}
		}
		if (stream_io_spent(io))
			return STREAM_YIELD;
	}
}

/* ---- -u: datagrams ---- */

/*
 * The receive timeout's slice: the stop flag and the END are looked at
 * this often, and after the END this much silence is the drain (what was
 * sent before the END is queued ahead of it on the same path).
 */
#define DG_SLICE_MS	50

/*
 * --gro: UDP_GRO on the socket, and room for a whole train (64 KB) in
 * each message; a kernel without it (before 5.0) falls back to recvmmsg
 * with a note.
 */
static void
dg_gro(struct stream_io *io)
{
	int on = 1;

	if (io->path != GB_PATH_GRO)
		return;
	if (setsockopt(io->fd, SOL_UDP, UDP_GRO, &on, sizeof(on)) == -1) {
		snprintf(io->note, sizeof(io->note), "--gro: UDP_GRO: %s; "
		    "recvmmsg instead", strerror(errno));
		io->path = GB_PATH_RECVMMSG;
		return;
	}
	io->len = GB_GRO_BYTES;
}

static int
dg_open(struct stream_io *io, char *err, size_t errlen)
{
	int on = 1;

	dg_gro(io);
	seqstat_init(&io->dg.seq);
	if (setsockopt(io->fd, SOL_SOCKET, SO_TIMESTAMPNS, &on,
	    sizeof(on)) == -1 || setsockopt(io->fd, SOL_SOCKET, SO_RXQ_OVFL,
	    &on, sizeof(on)) == -1) {
		snprintf(err, errlen, "setsockopt SO_TIMESTAMPNS, SO_RXQ_OVFL: "
		    "%s", strerror(errno));
		return -1;
	}
	if (sock_set_rcvtimeo(io->fd, DG_SLICE_MS) == -1) {
		snprintf(err, errlen, "setsockopt SO_RCVTIMEO: %s",
		    strerror(errno));
		return -1;
	}
	return stream_io_buf(io, (size_t)io->dg.batch * io->len, 0, err,
	    errlen) == -1 ? -1 : stream_dg_arrays(io, 1, err, errlen);
}

/*
 * The kernel's arrival time of a message, ns (0 when it gave none); and
 * SO_RXQ_OVFL, the socket's count of datagrams it dropped because its
 * buffer was full, as of this one (sent only once there were some).
 */
static uint64_t
dg_arrival(struct stream_dg *dg, const struct mmsghdr *m, int *gro)
{
	struct cmsghdr *c;
	struct timespec ts;
	uint64_t t = 0;
	uint32_t drops;

	*gro = 0;
	for (c = CMSG_FIRSTHDR(&m->msg_hdr); c != NULL;
	    c = CMSG_NXTHDR((struct msghdr *)&m->msg_hdr, c))
		if (c->cmsg_level == SOL_UDP && c->cmsg_type == UDP_GRO)
			memcpy(gro, CMSG_DATA(c), sizeof(*gro));

	for (c = CMSG_FIRSTHDR(&m->msg_hdr); c != NULL;
	    c = CMSG_NXTHDR((struct msghdr *)&m->msg_hdr, c)) {
		if (c->cmsg_level != SOL_SOCKET)
			continue;
		if (c->cmsg_type == SCM_TIMESTAMPNS) {
			memcpy(&ts, CMSG_DATA(c), sizeof(ts));
			t = (uint64_t)ts.tv_sec * 1000000000u +
			    (uint64_t)ts.tv_nsec;
		} else if (c->cmsg_type == SO_RXQ_OVFL) {
			memcpy(&drops, CMSG_DATA(c), sizeof(drops));
			if (drops > dg->sock_drops)
				dg->sock_drops = drops;
		}
	}
	return t;
}

/* One datagram of len bytes at p: counted when it is this stream's. */
static uint64_t
dg_one(struct stream_dg *dg, const uint8_t *p, uint32_t len, uint64_t t)
{
	struct dgram_hdr h;

	if (dgram_decode(p, len, &h) != DGRAM_OK ||
	    !dgram_token_eq(&h, dg->token) || h.stream != dg->id) {
		dg->stray++;
		return 0;
	}
	if (h.kind == DGRAM_END)
		dg->ended = 1;
	if (h.kind != DGRAM_DATA)
		return 0;	/* END, or a hello sent again */
	seqstat_add(&dg->seq, h.seq, h.send_ns, t, len);
	return len;
}

/*
 * n messages in: this stream's data counted, the rest told apart.  With
 * --gro a message is a train of datagrams of the UDP_GRO size (the last
 * one may be shorter), all with the train's arrival time.
 */
static uint64_t
dg_take(struct stream_io *io, unsigned n)
{
	struct stream_dg *dg = &io->dg;
	const uint8_t *p;
	uint64_t bytes = 0, t;
	uint32_t len, off, seg;
	unsigned i;
	int gro;

	for (i = 0; i < n; i++) {
		len = dg->msgs[i].msg_len;
		p = (const uint8_t *)io->buf + (size_t)i * io->len;
		t = dg_arrival(dg, &dg->msgs[i], &gro);
		if (gro <= 0 || (uint32_t)gro >= len) {
			bytes += dg_one(dg, p, len, t);
			continue;
		}
		dg->gro_trains++;
		for (off = 0; off < len; off += seg) {
			seg = len - off < (uint32_t)gro ? len - off :
			    (uint32_t)gro;
			bytes += dg_one(dg, p + off, seg, t);
		}
	}
	return bytes;
}

/* For -i: what the interval timer reads, once per call. */
static void
dg_publish(struct stream_dg *dg)
{
	atomic_store_explicit(&dg->iv_count, dg->seq.received,
	    memory_order_relaxed);
	atomic_store_explicit(&dg->iv_expect, dg->seq.max_seq_plus1,
	    memory_order_relaxed);
	atomic_store_explicit(&dg->iv_jitter_ns, (uint64_t)dg->seq.jitter_ns,
	    memory_order_relaxed);
}

/*
 * A non-blocking socket with nothing queued: wait for the socket, or
 * after the sender's END for the drain's slice of silence, then done.
 */
static int
dg_idle(struct stream_io *io)
{
	struct stream_dg *dg = &io->dg;
	uint64_t now;

	if (!dg->ended)
		return STREAM_WANT_READ;
	now = monotime_ns();
	if (dg->drain_ns == 0)
		dg->drain_ns = now + DG_SLICE_MS * UINT64_C(1000000);
	if (now >= dg->drain_ns)
		return 0;
	io->wake_ns = dg->drain_ns;
	return STREAM_WANT_TIME;
}

/*
 * Until the sender's END and a slice of silence after it, or the stop
 * flag (the duration and the drain time are over, or the test ended).
 * A peer silent for the silent-peer timeout fails the stream, as in TCP
 * (on a non-blocking socket the worker sees the silence).
 */
static int
dg_recv(struct stream_io *io)
{
	struct stream_dg *dg = &io->dg;
	int idle_ms = 0, n;
	uint64_t bytes;
	unsigned i;

	for (;;) {
		for (i = 0; i < dg->batch; i++)
			dg->msgs[i].msg_hdr.msg_controllen = DG_CMSG_LEN;
		n = recvmmsg(io->fd, dg->msgs, dg->batch, MSG_WAITFORONE, NULL);
		if (n > 0) {
			idle_ms = 0;
			dg->drain_ns = 0;
			bytes = dg_take(io, (unsigned)n);
			if (bytes != 0) {
				clock_gettime(CLOCK_MONOTONIC, &dg->last);
				dg_publish(dg);
			}
			if (bytes != 0 && stream_io_count(io, (ssize_t)bytes) ==
			    -1) {
				io->what = "recvmmsg";
				return -1;
			}
			/* A sender that never pauses must not outlast a stop. */
			if (atomic_load_explicit(dg->stop,
			    memory_order_relaxed) != STREAM_RUNNING)
				return 0;
			if (stream_io_spent(io))
				return STREAM_YIELD;
			continue;
		}
		if (n == 0 || atomic_load(dg->stop) != STREAM_RUNNING)
			return 0;	/* shut down, or stopped */
		if (errno == EINTR || errno == ECONNREFUSED)
			continue;
		if (errno != EAGAIN && errno != EWOULDBLOCK) {
			io->what = "recvmmsg";
			return -1;
		}
		if (io->nonblock)
			return dg_idle(io);
		if (dg->ended)
			return 0;
		if ((idle_ms += DG_SLICE_MS) >= io->silent_ms) {
			io->what = "recvmmsg";
			return -1;	/* errno EAGAIN: "peer silent" */
		}
	}
}

/* A datagram stream has no FIN to send. */
static void
dg_end(struct stream_io *io)
{
	(void)io;
}

static const struct receiver_path receiver_paths[GB_PATH_COUNT] = {
	[GB_PATH_RECV] =		{ buf_open, recv_copy, shut_write },
	[GB_PATH_SKIP_RX_COPY] =	{ buf_open, recv_trunc, shut_write },
	[GB_PATH_SPLICE] =		{ splice_open, splice_loop, shut_write },
	[GB_PATH_RECVMMSG] =		{ dg_open, dg_recv, dg_end },
	[GB_PATH_GRO] =			{ dg_open, dg_recv, dg_end },
	[GB_PATH_RR_ANSWER] =		{ rr_answer_open, rr_answer,
					  shut_write },
	[GB_PATH_UDP_RR_ANSWER] =	{ rr_dg_answer_open, rr_dg_answer,
					  dg_end },
	[GB_PATH_CRR_ANSWER] =		{ crr_answer_open, crr_answer,
					  shut_write },
};

int
receiver_open(struct stream_io *io, int fd, int path, size_t len,
    int silent_ms, char *err, size_t errlen)
{
	stream_io_init(io, fd, path, len, silent_ms);
	if (path < 0 || path >= GB_PATH_COUNT ||
	    receiver_paths[path].open == NULL) {
		snprintf(err, errlen, "%s is no path of a receiver",
		    datapath_name(path));
		return -1;
	}
	return receiver_paths[path].open(io, err, errlen);
}

int
receiver_run(struct stream_io *io)
{
	return receiver_paths[io->path].recv(io);
}

void
receiver_end(struct stream_io *io)
{
	receiver_paths[io->path].end(io);
}
