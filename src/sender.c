/*
 * sender.c: every transmit path of one stream (enum gb_path), each a
 * small loop over one system call:
 *
 *	send		send() of one buffer, as ttcp
 *	zerocopy	send(MSG_ZEROCOPY) from a ring of buffers
 *	sendfile	sendfile() of a memfd that holds one buffer
 *	sendmmsg	-u: sendmmsg() of --batch datagrams, each with its
 *	gso		header (dgram.h), paced to -R; --gso: in one send()
 *			that the kernel cuts (sender_dgram.c has these)
 *	rr_ask		--rr: a request sent, its answer awaited (stream_rr.c)
 *	udp_rr_ask	-u --rr: the same in datagrams, each request given up
 *			after a timeout (stream_rr_dgram.c)
 *	crr_ask		--crr: the same on a new connection each time
 *
 * and the end of a stream: the write side shut down after the last
 * buffer, the wait for the receiver's FIN, -Z's last completions.  It
 * owns the paths' buffers and the memfd (stream_io_close releases them)
 * and the table that picks a path's functions, once per stream: a new
 * path is a new row, not a change to the stream engine.  It must not
 * allocate inside a loop nor touch the event loop: these run on the
 * stream's thread.  Only the datagram path reads the clock, once per
 * batch: its pacing and its send times need it (xfer.c's timers own the
 * test's time).
 *
 * MSG_ZEROCOPY (Documentation/networking/msg_zerocopy.rst): the kernel
 * pins the pages of each send and says on the socket's error queue when it
 * let go of them, as a range of send ids (one id per successful send()
 * call, from 0).  A buffer is reused only after its send completed, so at
 * most params_zc_ring_count() sends are in flight; when the ring is full
 * the loop waits for POLLERR.  A completion with SO_EE_CODE_ZEROCOPY_COPIED
 * means the kernel copied after all: always on loopback, where the
 * receiving socket must own its data, and on devices without
 * scatter-gather.
 */
#include <sys/mman.h>
#include <sys/sendfile.h>
#include <sys/socket.h>
#include <linux/errqueue.h>
#include <netinet/in.h>

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/datapath.h"
#include "base/monotime.h"
#include "base/params.h"
#include "data/sender.h"
#include "data/stream.h"
#include "host/tcpinfo.h"
#include "stream_rr.h"
#include "sender_dgram.h"

/* zc_wait's slot for "any completion". */
#define ZC_ANY_SLOT	GB_ZC_RING_MAX

/*
 * One path: its set-up, its loop, and the end of a stream that was not
 * aborted (0, or -1 with errno and io->what).
 */
struct sender_path {
	int	(*open)(struct stream_io *, char *err, size_t errlen);
	int	(*send)(struct stream_io *, atomic_int *stop, uint64_t nbuf);
	int	(*finish)(struct stream_io *);
};

/*
 * A blocking send() that SO_SNDTIMEO ended (short, or with nothing) on a
 * socket still full, or a wait for the receiver's FIN that SO_RCVTIMEO
 * ended: the peer is silent unless TCP says it acknowledged more since
 * the last such wait and its window is open (a frozen peer's kernel
 * takes data until its buffer fills, then shuts the window).  Many
 * flows on a slow link each take a thin share, so one flow's buffer may
 * take longer than the timeout to drain while its peer reads all along.
 */
static int
send_silent(struct stream_io *io)
{
	struct tcpinfo_motion m;

	if (tcpinfo_motion(io->fd, &m) == 0 && !m.window_shut &&
	    m.acked > io->tx.acked) {
		io->tx.acked = m.acked;
		return 0;
	}
	errno = EAGAIN;
	return 1;
}

/* Wait for the receiver's FIN: the last byte has arrived. */
static int
fin_wait(struct stream_io *io)
{
	ssize_t n;
	char c;

	if (!io->shut)
		shutdown(io->fd, SHUT_WR);
	io->shut = 1;
	while ((n = recv(io->fd, &c, 1, 0)) != 0) {
		if (n == -1 && io->nonblock && errno == EAGAIN)
			return STREAM_WANT_READ;
		if (n == -1 && errno == EAGAIN && !send_silent(io))
			continue;	/* what is queued still drains */
		if (n == -1 && errno != EINTR) {
			io->what = "waiting for the receiver to finish";
			return -1;
		}
	}
	return 0;
}

static int
plain_open(struct stream_io *io, char *err, size_t errlen)
{
	return stream_io_buf(io, io->len, STREAM_FILL_BYTE, err, errlen);
}

/*
 * A blocking send() returns short only when a signal interrupted it or
 * when SO_SNDTIMEO ran out part way.  A socket that is still not writable
 * then means the peer has read nothing for the whole silent-peer timeout:
 * fail now rather than wait for another timeout.  Only short sends get
 * here, so the hot loop pays nothing.
 */
static int
send_stalled(int fd, size_t asked, ssize_t sent)
{
	struct pollfd pfd = { .fd = fd, .events = POLLOUT };

	if ((size_t)sent >= asked || poll(&pfd, 1, 0) != 0)
		return 0;
	errno = EAGAIN;
	return 1;
}

/*
 * Whole buffers: a send that took part of one (a non-blocking socket's
 * room, a signal) is followed by the rest, so that -n counts buffers.
 */
static int
plain_send(struct stream_io *io, atomic_int *stop, uint64_t nbuf)
{
	struct stream_tx *tx = &io->tx;
	ssize_t n;

	while (atomic_load_explicit(stop, memory_order_relaxed) ==
	    STREAM_RUNNING) {
		if (nbuf != 0 && tx->bufs >= nbuf)
			break;
		n = send(io->fd, io->buf + tx->off, io->len - tx->off,
		    MSG_NOSIGNAL);
		if (n > 0) {
			if (stream_io_count(io, n) == -1 || (!io->nonblock &&
			    send_stalled(io->fd, io->len - tx->off, n) &&
			    send_silent(io))) {
				io->what = "send";
				return -1;
			}
			if ((tx->off += (size_t)n) == io->len) {
				tx->off = 0;
				tx->bufs++;
			}
			if (stream_io_spent(io))
				return STREAM_YIELD;
		} else if (n == -1 && io->nonblock && errno == EAGAIN) {
			return STREAM_WANT_WRITE;
		} else if (n == -1 && errno == EAGAIN && !send_silent(io)) {
			continue;
		} else if (n == -1 && errno != EINTR) {
			io->what = "send";
			return -1;
		}
	}
	return 0;
}

/* The ring within GB_ZC_RING_BYTES, which bounds a listener's memory. */
static int
zc_open(struct stream_io *io, char *err, size_t errlen)
{
	int one = 1;

	if (setsockopt(io->fd, SOL_SOCKET, SO_ZEROCOPY, &one,
	    sizeof(one)) == -1) {
		snprintf(io->note, sizeof(io->note), "-Z: SO_ZEROCOPY: %s; "
		    "sent with send() and copies", strerror(errno));
		io->path = GB_PATH_SEND;
		return plain_open(io, err, errlen);
	}
	io->tx.nring = params_zc_ring_count((uint32_t)io->len);
	return stream_io_buf(io, io->tx.nring * io->len, STREAM_FILL_BYTE,
	    err, errlen);
}

/* A completion of ids [lo, hi] frees the slots whose send is in it. */
static void
zc_complete(struct stream_tx *tx, const struct sock_extended_err *ee)
{
	uint32_t lo = ee->ee_info, hi = ee->ee_data, n = hi - lo + 1;
	unsigned i;

	tx->zc_completions += n;
	if (ee->ee_code & SO_EE_CODE_ZEROCOPY_COPIED)
		tx->zc_copied += n;
	for (i = 0; i < tx->nring; i++)
		if (tx->zc_busy[i] && tx->zc_id[i] - lo <= hi - lo)
			tx->zc_busy[i] = 0;
}

/*
 * Read every notification queued; never blocks (MSG_ERRQUEUE does not).
 * The number read, or -1.
 */
static int
zc_reap(struct stream_io *io)
{
	union {
		char	buf[CMSG_SPACE(sizeof(struct sock_extended_err) +
			    sizeof(struct sockaddr_in6))];
		struct cmsghdr	align;
	} control;
	struct sock_extended_err ee;
	struct cmsghdr *cm;
	struct msghdr msg;
	int got = 0;

	for (;;) {
		memset(&msg, 0, sizeof(msg));
		msg.msg_control = control.buf;
		msg.msg_controllen = sizeof(control.buf);
		if (recvmsg(io->fd, &msg, MSG_ERRQUEUE) == -1) {
			if (errno == EAGAIN || errno == EWOULDBLOCK)
				return got;
			if (errno == EINTR)
				continue;
			io->what = "recvmsg(MSG_ERRQUEUE)";
			return -1;
		}
		for (cm = CMSG_FIRSTHDR(&msg); cm != NULL;
		    cm = CMSG_NXTHDR(&msg, cm)) {
			/* IPv4 and v4-mapped IPv6 say SOL_IP. */
			if (!((cm->cmsg_level == SOL_IP &&
			    cm->cmsg_type == IP_RECVERR) ||
			    (cm->cmsg_level == SOL_IPV6 &&
			    cm->cmsg_type == IPV6_RECVERR)) ||
			    cm->cmsg_len < CMSG_LEN(sizeof(ee)))
				continue;
			memcpy(&ee, CMSG_DATA(cm), sizeof(ee));
			if (ee.ee_origin != SO_EE_ORIGIN_ZEROCOPY ||
			    ee.ee_errno != 0)
				continue;
			zc_complete(&io->tx, &ee);
			got++;
		}
	}
}

/*
 * Wait until the send in ring slot `slot` completes (any completion when
 * slot is ZC_ANY_SLOT).  POLLERR stands for a queued notification or a
 * socket error; POLLHUP alone for a connection that will complete nothing
 * more (the peer left, or xfer_abort shut it down).  The wait for one
 * slot is bounded by the silent-peer timeout as a whole, as a blocking
 * send() of one buffer is by SO_SNDTIMEO: a frozen peer's kernel may go
 * on taking a trickle of data, whose completions must not restart it.
 */
static int
zc_wait(struct stream_io *io, unsigned slot)
{
	struct pollfd pfd = { .fd = io->fd, .events = 0 };
	socklen_t len = sizeof(int);
	int64_t left, deadline = monotime_ms() + io->silent_ms;
	int got, rc, soerr = 0;

	io->what = "waiting for zero-copy completions";
	for (;;) {
		if ((got = zc_reap(io)) < 0)
			return -1;
		if (got > 0 && (slot >= ZC_ANY_SLOT || !io->tx.zc_busy[slot]))
			return 0;
		if ((left = deadline - monotime_ms()) <= 0) {
			errno = EAGAIN;
			return -1;
		}
		rc = poll(&pfd, 1, (int)left);
		if (rc == -1 && errno == EINTR)
			continue;
		if (rc == -1)
			return -1;
		if (rc == 0)
			continue;	/* the deadline says so above */
		if ((got = zc_reap(io)) < 0)
			return -1;
		if (got > 0 && (slot >= ZC_ANY_SLOT || !io->tx.zc_busy[slot]))
			return 0;
		if (got > 0)
			continue;
		if (getsockopt(io->fd, SOL_SOCKET, SO_ERROR, &soerr,
		    &len) == 0 && soerr != 0) {
			errno = soerr;
			return -1;
		}
		if (pfd.revents & (POLLHUP | POLLNVAL)) {
			errno = EPIPE;
			return -1;
		}
	}
}

/*
 * The ring full, or optmem spent: wait for a completion.  The many-flow
 * engine's non-blocking socket reaps what is queued and otherwise waits
 * for the next notification's EPOLLERR (STREAM_WANT_WRITE).
 */
static int
zc_room(struct stream_io *io, unsigned slot)
{
	int got;

	if (!io->nonblock)
		return zc_wait(io, slot);
	if ((got = zc_reap(io)) < 0)
		return -1;
	if (got > 0 && (slot >= ZC_ANY_SLOT || !io->tx.zc_busy[slot]))
		return 0;
	return STREAM_WANT_WRITE;
}

/*
 * A blocking send() takes a whole buffer or fails as a stall; a
 * non-blocking one may take part, and the rest of that slot's buffer
 * goes next (tx->off), each call a send id of its own.
 */
static int
zc_send(struct stream_io *io, atomic_int *stop, uint64_t nbuf)
{
	struct stream_tx *tx = &io->tx;
	unsigned slot;
	ssize_t n;
	int rc;

	while (atomic_load_explicit(stop, memory_order_relaxed) ==
	    STREAM_RUNNING) {
		if (nbuf != 0 && tx->bufs >= nbuf)
			break;
		slot = (unsigned)(tx->bufs % tx->nring);
		if (tx->zc_busy[slot] && tx->off == 0) { /* the ring is full */
			if ((rc = zc_room(io, slot)) != 0)
				return rc;
			continue;
		}
		n = send(io->fd, io->buf + (size_t)slot * io->len + tx->off,
		    io->len - tx->off, MSG_ZEROCOPY | MSG_NOSIGNAL);
		if (n > 0) {
			tx->zc_id[slot] = (uint32_t)tx->zc_sends++;
			tx->zc_busy[slot] = 1;
			if (stream_io_count(io, n) == -1 || (!io->nonblock &&
			    send_stalled(io->fd, io->len, n))) {
				io->what = "send(MSG_ZEROCOPY)";
				return -1;
			}
			if (!io->nonblock || (tx->off += (size_t)n) == io->len) {
				tx->off = 0;
				tx->bufs++;
			}
			if (stream_io_spent(io))
				return STREAM_YIELD;
		} else if (n == -1 && errno == EAGAIN && io->nonblock) {
			return STREAM_WANT_WRITE;
		} else if (n == -1 && errno == ENOBUFS &&
		    tx->zc_sends > tx->zc_completions) {
			/* net.core.optmem_max or RLIMIT_MEMLOCK: wait. */
			if ((rc = zc_room(io, ZC_ANY_SLOT)) != 0)
				return rc;
		} else if (n == -1 && errno != EINTR) {
			io->what = errno == ENOBUFS ? "send(MSG_ZEROCOPY) with "
			    "nothing in flight (RLIMIT_MEMLOCK, "
			    "net.core.optmem_max)" : "send(MSG_ZEROCOPY)";
			return -1;
		}
	}
	return 0;
}

/* The FIN, then the completions still queued. */
static int
zc_finish(struct stream_io *io)
{
	struct timespec ms10 = { 0, 10 * 1000 * 1000 };
	int rc;

	if ((rc = fin_wait(io)) != 0)
		return rc;
	/*
	 * Every byte is acknowledged by now, but the last notifications may
	 * still be on their way to the queue.  poll() would not wait: a
	 * socket shut down both ways is always POLLHUP.  A second, 10 ms
	 * apart; the many-flow engine's on its timer.
	 */
	for (; io->tx.zc_looks < 100; io->tx.zc_looks++) {
		if (zc_reap(io) == -1 ||
		    io->tx.zc_completions >= io->tx.zc_sends)
			break;
		if (io->nonblock) {
			io->wake_ns = monotime_ns() + UINT64_C(10000000);
			io->tx.zc_looks++;
			return STREAM_WANT_TIME;
		}
		nanosleep(&ms10, NULL);
	}
	return 0;
}

/* One buffer of the fill byte in a memfd: its page cache pages are sent. */
static int
sendfile_open(struct stream_io *io, char *err, size_t errlen)
{
	size_t off, n;
	ssize_t w;

	if (io->lender != NULL) {	/* the worker's first flow's */
		io->tx.memfd = io->lender->tx.memfd;
		return 0;
	}
	if ((io->tx.memfd = memfd_create("gigebench", MFD_CLOEXEC)) == -1) {
		snprintf(err, errlen, "--sendfile: memfd_create: %s",
		    strerror(errno));
		return -1;
	}
	if (stream_io_buf(io, io->len < 65536 ? io->len : 65536,
	    STREAM_FILL_BYTE, err, errlen) == -1)
		return -1;
	for (off = 0; off < io->len; off += (size_t)w) {
		n = io->len - off < io->buflen ? io->len - off : io->buflen;
		if ((w = pwrite(io->tx.memfd, io->buf, n, (off_t)off)) <= 0) {
			snprintf(err, errlen, "--sendfile: writing the memfd: "
			    "%s", w == 0 ? "short write" : strerror(errno));
			return -1;
		}
	}
	return 0;
}

/*
 * sendfile() waits out SO_SNDTIMEO once per page it splices, so a blocking
 * call can outlast the silent-peer timeout several times over.  The socket
 * is non-blocking for the loop instead, and poll() bounds each wait.
 */
static int
sendfile_wait(struct stream_io *io)
{
	struct pollfd pfd = { .fd = io->fd, .events = POLLOUT };
	int rc;

	while ((rc = poll(&pfd, 1, io->silent_ms)) == -1 && errno == EINTR)
		;
	if (rc == 0)
		errno = EAGAIN;
	return rc == 1 ? 0 : -1;
}

/*
 * Whole buffers from the memfd, so that -n counts buffers, not calls;
 * the one under way is tx->off bytes in (between a non-blocking
 * socket's steps too).
 */
static int
sendfile_loop(struct stream_io *io, atomic_int *stop, uint64_t nbuf)
{
	struct stream_tx *tx = &io->tx;
	off_t off;
	ssize_t n;

	while (atomic_load_explicit(stop, memory_order_relaxed) ==
	    STREAM_RUNNING) {
		if (nbuf != 0 && tx->bufs >= nbuf)
			break;
		off = (off_t)tx->off;
		n = sendfile(io->fd, tx->memfd, &off, io->len - tx->off);
		if (n > 0) {
			if (stream_io_count(io, n) == -1)
				return -1;
			if ((tx->off += (size_t)n) == io->len) {
				tx->off = 0;
				tx->bufs++;
			}
			if (stream_io_spent(io))
				return STREAM_YIELD;
		} else if (n == -1 && errno == EAGAIN) {
			if (io->nonblock)
				return STREAM_WANT_WRITE;
			if (sendfile_wait(io) == -1)
				return -1;
		} else if (n == 0 || errno != EINTR) {
			if (n == 0)
				errno = EIO;	/* the memfd shrank */
			return -1;
		}
	}
	return 0;
}

static int
sendfile_send(struct stream_io *io, atomic_int *stop, uint64_t nbuf)
{
	int flags, rc, saved;

	io->what = "sendfile";
	if (io->nonblock)	/* the many-flow engine's socket already */
		return sendfile_loop(io, stop, nbuf);
	if ((flags = fcntl(io->fd, F_GETFL)) == -1 ||
	    fcntl(io->fd, F_SETFL, flags | O_NONBLOCK) == -1)
		return -1;
	rc = sendfile_loop(io, stop, nbuf);
	saved = errno;
	/* The wait for the receiver's FIN relies on SO_RCVTIMEO. */
	if (fcntl(io->fd, F_SETFL, flags) == -1 && rc == 0)
		return -1;
	errno = saved;
	return rc;
}

static const struct sender_path sender_paths[GB_PATH_COUNT] = {
	[GB_PATH_SEND] =	{ plain_open, plain_send, fin_wait },
	[GB_PATH_ZEROCOPY] =	{ zc_open, zc_send, zc_finish },
	[GB_PATH_SENDFILE] =	{ sendfile_open, sendfile_send, fin_wait },
	[GB_PATH_SENDMMSG] =	{ sender_dg_open, sender_dg_send,
				  sender_dg_finish },
	[GB_PATH_GSO] =		{ sender_gso_open, sender_dg_send,
				  sender_dg_finish },
	[GB_PATH_RR_ASK] =	{ rr_ask_open, rr_ask, fin_wait },
	[GB_PATH_UDP_RR_ASK] =	{ rr_dg_ask_open, rr_dg_ask,
				  sender_dg_finish },
	[GB_PATH_CRR_ASK] =	{ crr_ask_open, crr_ask, fin_wait },
};

int
sender_open(struct stream_io *io, int fd, int path, size_t len,
    int silent_ms, char *err, size_t errlen)
{
	stream_io_init(io, fd, path, len, silent_ms);
	if (path < 0 || path >= GB_PATH_COUNT ||
	    sender_paths[path].open == NULL) {
		snprintf(err, errlen, "%s is no path of a sender",
		    datapath_name(path));
		return -1;
	}
	return sender_paths[path].open(io, err, errlen);
}

int
sender_run(struct stream_io *io, atomic_int *stop, uint64_t nbuf)
{
	const struct sender_path *p = &sender_paths[io->path];
	int rc;

	if (io->phase == STREAM_PHASE_MOVE) {
		if ((rc = p->send(io, stop, nbuf)) != 0)
			return rc;
		if (atomic_load(stop) == STREAM_STOP_ABORT)
			return 0;
		io->phase = STREAM_PHASE_FINISH;
	}
	return p->finish(io);
}
