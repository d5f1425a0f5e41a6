/*
 * xfer_modes.c: the data paths of one stream (enum gb_path), each a small
 * loop over one system call:
 *
 *	send		send() of one buffer, as ttcp
 *	zerocopy	send(MSG_ZEROCOPY) from a ring of XFER_ZC_RING buffers
 *	sendfile	sendfile() of a memfd that holds one buffer
 *	recv		recv() into one buffer
 *	skip_rx_copy	recv(MSG_TRUNC): TCP discards the bytes, copies none
 *	splice		splice() socket -> pipe, pipe -> /dev/null
 *
 * It owns the buffers, the memfd and the pipe, counts what moved, and
 * pins the stream's thread for -A.  It must not read a clock or allocate
 * inside a loop (xfer.c's timers own time), nor touch the event loop:
 * these run on the stream's thread.
 *
 * MSG_ZEROCOPY (Documentation/networking/msg_zerocopy.rst): the kernel
 * pins the pages of each send and says on the socket's error queue when it
 * let go of them, as a range of send ids (one id per successful send()
 * call, from 0).  A buffer is reused only after its send completed, so at
 * most XFER_ZC_RING sends are in flight; when the ring is full the loop
 * waits for POLLERR.  A completion with SO_EE_CODE_ZEROCOPY_COPIED means
 * the kernel copied after all: always on loopback, where the receiving
 * socket must own its data, and on devices without scatter-gather.
 */
#include <sys/mman.h>
#include <sys/sendfile.h>
#include <sys/socket.h>
#include <linux/errqueue.h>
#include <netinet/in.h>
#include <netinet/tcp.h>

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/monotime.h"
#include "host/sock.h"
#include "data/xfer.h"
#include "data/xfer_modes.h"

/*
 * The ring stays within 32M, or one buffer when that is larger (8 x 128K,
 * 4 x 8M, 1 x 64M), so streams x buflen bounds what a peer can make a
 * listener allocate (proto_params_check).
 */
#define XFER_ZC_RING_BYTES	GB_ZC_RING_BYTES
/* A pipe of 16 pages is the default; larger ones move more per call. */
#define XFER_PIPE_BYTES		(1024 * 1024)

static int
mode_buf(struct xfer_mode *m, size_t size, int fill, char *err,
    size_t errlen)
{
	void *p;
	long page = sysconf(_SC_PAGESIZE);

	if (posix_memalign(&p, page > 0 ? (size_t)page : 4096, size) != 0) {
		snprintf(err, errlen, "out of memory for %zu bytes of buffers",
		    size);
		return -1;
	}
	memset(p, fill, size);
	m->buf = p;
	m->buflen = size;
	return 0;
}

static int
mode_zc_open(struct xfer_mode *m, char *err, size_t errlen)
{
	int one = 1;

	if (setsockopt(m->fd, SOL_SOCKET, SO_ZEROCOPY, &one,
	    sizeof(one)) == -1) {
		snprintf(m->note, sizeof(m->note), "-Z: SO_ZEROCOPY: %s; "
		    "sent with send() and copies", strerror(errno));
		m->path = GB_PATH_SEND;
		return mode_buf(m, m->len, 'g', err, errlen);
	}
	m->nring = XFER_ZC_RING;
	while (m->nring > 1 && m->nring * m->len > XFER_ZC_RING_BYTES)
		m->nring /= 2;
	return mode_buf(m, m->nring * m->len, 'g', err, errlen);
}

/* One buffer of 'g' in a memfd: its page cache pages are what is sent. */
static int
mode_sendfile_open(struct xfer_mode *m, char *err, size_t errlen)
{
	size_t off, n;
	ssize_t w;

	if ((m->memfd = memfd_create("gigebench", MFD_CLOEXEC)) == -1) {
		snprintf(err, errlen, "--sendfile: memfd_create: %s",
		    strerror(errno));
		return -1;
	}
	if (mode_buf(m, m->len < 65536 ? m->len : 65536, 'g', err,
	    errlen) == -1)
		return -1;
	for (off = 0; off < m->len; off += (size_t)w) {
		n = m->len - off < m->buflen ? m->len - off : m->buflen;
		if ((w = pwrite(m->memfd, m->buf, n, (off_t)off)) <= 0) {
			snprintf(err, errlen, "--sendfile: writing the memfd: "
			    "%s", w == 0 ? "short write" : strerror(errno));
			return -1;
		}
	}
	return 0;
}

static int
mode_splice_open(struct xfer_mode *m, char *err, size_t errlen)
{
	int size = m->len < XFER_PIPE_BYTES ? (int)m->len : XFER_PIPE_BYTES;

	if (pipe2(m->pipe, O_CLOEXEC) == -1) {
		snprintf(err, errlen, "--splice: pipe: %s", strerror(errno));
		return -1;
	}
	/* Past fs.pipe-max-size (1M) without root: keep the default. */
	if (size > 65536)
		(void)fcntl(m->pipe[1], F_SETPIPE_SZ, size);
	if ((m->devnull = open("/dev/null", O_WRONLY | O_CLOEXEC)) == -1) {
		snprintf(err, errlen, "--splice: /dev/null: %s",
		    strerror(errno));
		return -1;
	}
	return 0;
}

int
xfer_mode_open(struct xfer_mode *m, int fd, int path, size_t len,
    int silent_ms, char *err, size_t errlen)
{
	m->fd = fd;
	m->path = path;
	m->len = len;
	m->silent_ms = silent_ms;
	m->pin_cpu = m->pinned = m->cpu = -1;
	m->memfd = m->devnull = -1;
	m->pipe[0] = m->pipe[1] = -1;
	switch (path) {
	case GB_PATH_ZEROCOPY:
		return mode_zc_open(m, err, errlen);
	case GB_PATH_SENDFILE:
		return mode_sendfile_open(m, err, errlen);
	case GB_PATH_SPLICE:
		return mode_splice_open(m, err, errlen);
	case GB_PATH_SEND:
		return mode_buf(m, len, 'g', err, errlen);
	}
	/*
	 * recv() and recv(MSG_TRUNC) wait for a whole buffer (not
	 * --splice: a splice() moves at most a pipe's worth, and waits as a
	 * plain read does).  Received data lands in zeros; skip_rx_copy
	 * checks they stay.  Such a read waits half the silent-peer timeout
	 * at a time (mode_recv says why).
	 */
	if ((m->lowat = sock_set_rcvlowat(fd, (uint32_t)len)) != 0) {
		m->slice_ms = silent_ms > 1 ? silent_ms / 2 : 1;
		if (sock_set_rcvtimeo(fd, m->slice_ms) == -1) {
			snprintf(err, errlen, "SO_RCVTIMEO: %s",
			    strerror(errno));
			return -1;
		}
	}
	return mode_buf(m, len, 0, err, errlen);
}

void
xfer_mode_close(struct xfer_mode *m)
{
	free(m->buf);
	m->buf = NULL;
	if (m->memfd >= 0)
		close(m->memfd);
	if (m->pipe[0] >= 0)
		close(m->pipe[0]);
	if (m->pipe[1] >= 0)
		close(m->pipe[1]);
	if (m->devnull >= 0)
		close(m->devnull);
	m->memfd = m->devnull = m->pipe[0] = m->pipe[1] = -1;
}

/*
 * Count what moved; -1 when it passes a cap.  The caps cost one branch a
 * call when none is set, and the shared total is touched only with
 * --max-bytes.
 */
static int
mode_count(struct xfer_mode *m, ssize_t n)
{
	uint64_t b;

	b = atomic_fetch_add_explicit(&m->bytes, (uint64_t)n,
	    memory_order_relaxed) + (uint64_t)n;
	m->calls++;
	if (m->cap == 0 && m->total == NULL)
		return 0;
	if (m->cap != 0 && b > m->cap) {
		m->over = 1;
		return -1;
	}
	if (m->total != NULL && atomic_fetch_add_explicit(m->total,
	    (uint64_t)n, memory_order_relaxed) + (uint64_t)n > m->total_cap) {
		m->over = 2;
		return -1;
	}
	return 0;
}

/*
 * A blocking send() returns short only when a signal interrupted it or
 * when SO_SNDTIMEO ran out part way.  A socket that is still not writable
 * then means the peer has read nothing for the whole silent-peer timeout:
 * fail now rather than wait for another timeout.  Only short sends get
 * here, so the hot loop pays nothing.
 */
static int
mode_stalled(int fd, size_t asked, ssize_t sent)
{
	struct pollfd pfd = { .fd = fd, .events = POLLOUT };

	if ((size_t)sent >= asked || poll(&pfd, 1, 0) != 0)
		return 0;
	errno = EAGAIN;
	return 1;
}

static int
mode_send(struct xfer_mode *m, atomic_int *stop, uint64_t nbuf)
{
	ssize_t n;

	while (atomic_load_explicit(stop, memory_order_relaxed) == 0) {
		if (nbuf != 0 && m->calls >= nbuf)
			break;
		n = send(m->fd, m->buf, m->len, MSG_NOSIGNAL);
		if (n > 0) {
			if (mode_count(m, n) == -1 ||
			    mode_stalled(m->fd, m->len, n)) {
				m->what = "send";
				return -1;
			}
		} else if (n == -1 && errno != EINTR) {
			m->what = "send";
			return -1;
		}
	}
	return 0;
}

/* A completion of ids [lo, hi] frees the slots whose send is in it. */
static void
mode_zc_complete(struct xfer_mode *m, const struct sock_extended_err *ee)
{
	uint32_t lo = ee->ee_info, hi = ee->ee_data, n = hi - lo + 1;
	unsigned i;

	m->zc_completions += n;
	if (ee->ee_code & SO_EE_CODE_ZEROCOPY_COPIED)
		m->zc_copied += n;
	for (i = 0; i < m->nring; i++)
		if (m->zc_busy[i] && m->zc_id[i] - lo <= hi - lo)
			m->zc_busy[i] = 0;
}

/*
 * Read every notification queued; never blocks (MSG_ERRQUEUE does not).
 * The number read, or -1.
 */
static int
mode_zc_reap(struct xfer_mode *m)
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
		if (recvmsg(m->fd, &msg, MSG_ERRQUEUE) == -1) {
			if (errno == EAGAIN || errno == EWOULDBLOCK)
				return got;
			if (errno == EINTR)
				continue;
			m->what = "recvmsg(MSG_ERRQUEUE)";
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
			mode_zc_complete(m, &ee);
			got++;
		}
	}
}

/*
 * Wait until the send in ring slot `slot` completes (any completion when
 * slot is XFER_ZC_RING).  POLLERR stands for a queued notification or a
 * socket error; POLLHUP alone for a connection that will complete nothing
 * more (the peer left, or xfer_abort shut it down).  The wait for one
 * slot is bounded by the silent-peer timeout as a whole, as a blocking
 * send() of one buffer is by SO_SNDTIMEO: a frozen peer's kernel may go
 * on taking a trickle of data, whose completions must not restart it.
 */
static int
mode_zc_wait(struct xfer_mode *m, unsigned slot)
{
	struct pollfd pfd = { .fd = m->fd, .events = 0 };
	socklen_t len = sizeof(int);
	int64_t left, deadline = monotime_ms() + m->silent_ms;
	int got, rc, soerr = 0;

	m->what = "waiting for zero-copy completions";
	for (;;) {
		if ((got = mode_zc_reap(m)) < 0)
			return -1;
		if (got > 0 && (slot >= XFER_ZC_RING || !m->zc_busy[slot]))
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
		if ((got = mode_zc_reap(m)) < 0)
			return -1;
		if (got > 0 && (slot >= XFER_ZC_RING || !m->zc_busy[slot]))
			return 0;
		if (got > 0)
			continue;
		if (getsockopt(m->fd, SOL_SOCKET, SO_ERROR, &soerr,
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

static int
mode_zc_send(struct xfer_mode *m, atomic_int *stop, uint64_t nbuf)
{
	unsigned slot;
	ssize_t n;

	while (atomic_load_explicit(stop, memory_order_relaxed) == 0) {
		if (nbuf != 0 && m->calls >= nbuf)
			break;
		slot = (unsigned)(m->zc_sends % m->nring);
		if (m->zc_busy[slot]) {		/* the ring is full */
			if (mode_zc_wait(m, slot) == -1)
				return -1;
			continue;
		}
		n = send(m->fd, m->buf + (size_t)slot * m->len, m->len,
		    MSG_ZEROCOPY | MSG_NOSIGNAL);
		if (n > 0) {
			m->zc_id[slot] = (uint32_t)m->zc_sends++;
			m->zc_busy[slot] = 1;
			if (mode_count(m, n) == -1 ||
			    mode_stalled(m->fd, m->len, n)) {
				m->what = "send(MSG_ZEROCOPY)";
				return -1;
			}
		} else if (n == -1 && errno == ENOBUFS &&
		    m->zc_sends > m->zc_completions) {
			/* net.core.optmem_max or RLIMIT_MEMLOCK: wait. */
			if (mode_zc_wait(m, XFER_ZC_RING) == -1)
				return -1;
		} else if (n == -1 && errno != EINTR) {
			m->what = errno == ENOBUFS ? "send(MSG_ZEROCOPY) with "
			    "nothing in flight (RLIMIT_MEMLOCK, "
			    "net.core.optmem_max)" : "send(MSG_ZEROCOPY)";
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
mode_sendfile_wait(struct xfer_mode *m)
{
	struct pollfd pfd = { .fd = m->fd, .events = POLLOUT };
	int rc;

	while ((rc = poll(&pfd, 1, m->silent_ms)) == -1 && errno == EINTR)
		;
	if (rc == 0)
		errno = EAGAIN;
	return rc == 1 ? 0 : -1;
}

/* Whole buffers from the memfd, so that -n counts buffers, not calls. */
static int
mode_sendfile_loop(struct xfer_mode *m, atomic_int *stop, uint64_t nbuf)
{
	uint64_t sent = 0;
	off_t off;
	ssize_t n;

	while (atomic_load_explicit(stop, memory_order_relaxed) == 0) {
		if (nbuf != 0 && sent >= nbuf)
			break;
		for (off = 0; off < (off_t)m->len; ) {
			n = sendfile(m->fd, m->memfd, &off,
			    m->len - (size_t)off);
			if (n > 0) {
				if (mode_count(m, n) == -1)
					return -1;
			} else if (n == -1 && errno == EAGAIN) {
				if (mode_sendfile_wait(m) == -1)
					return -1;
			} else if (n == 0 || errno != EINTR) {
				if (n == 0)
					errno = EIO;	/* the memfd shrank */
				return -1;
			}
		}
		sent++;
	}
	return 0;
}

static int
mode_sendfile_send(struct xfer_mode *m, atomic_int *stop, uint64_t nbuf)
{
	int flags, rc, saved;

	m->what = "sendfile";
	if ((flags = fcntl(m->fd, F_GETFL)) == -1 ||
	    fcntl(m->fd, F_SETFL, flags | O_NONBLOCK) == -1)
		return -1;
	rc = mode_sendfile_loop(m, stop, nbuf);
	saved = errno;
	/* The wait for the receiver's FIN relies on SO_RCVTIMEO. */
	if (fcntl(m->fd, F_SETFL, flags) == -1 && rc == 0)
		return -1;
	errno = saved;
	return rc;
}

int
xfer_mode_send(struct xfer_mode *m, atomic_int *stop, uint64_t nbuf)
{
	switch (m->path) {
	case GB_PATH_ZEROCOPY:
		return mode_zc_send(m, stop, nbuf);
	case GB_PATH_SENDFILE:
		return mode_sendfile_send(m, stop, nbuf);
	}
	return mode_send(m, stop, nbuf);
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
mode_short_read(struct xfer_mode *m, int got_data)
{
	struct tcp_info ti;
	socklen_t len = sizeof(ti);
	int left;

	memset(&ti, 0, sizeof(ti));
	if (getsockopt(m->fd, IPPROTO_TCP, TCP_INFO, &ti, &len) == -1)
		ti.tcpi_last_data_recv = got_data ? 0 : (uint32_t)m->silent_ms;
	if (ti.tcpi_last_data_recv >= (uint32_t)m->silent_ms) {
		errno = EAGAIN;
		return -1;
	}
	left = m->silent_ms - (int)ti.tcpi_last_data_recv;
	if (left > m->slice_ms)
		left = m->slice_ms;
	if ((left != m->slice_ms || m->short_timeo) &&
	    sock_set_rcvtimeo(m->fd, left) == 0)
		m->short_timeo = left != m->slice_ms;
	return 0;
}

/*
 * With MSG_TRUNC, TCP returns the bytes it consumed (at most len, unlike
 * UDP's datagram length) and skips the copy to user space (tcp(7), since
 * Linux 2.4).
 */
static int
mode_recv(struct xfer_mode *m, int flags)
{
	ssize_t n;

	for (;;) {
		n = recv(m->fd, m->buf, m->len, flags);
		if (n > 0) {
			if (mode_count(m, n) == -1)
				break;
			if ((size_t)n < m->lowat) {
				if (mode_short_read(m, 1) == -1)
					break;
			} else if (m->short_timeo &&
			    sock_set_rcvtimeo(m->fd, m->slice_ms) == 0)
				m->short_timeo = 0;
		} else if (n == 0)
			return 0;
		else if (errno == EAGAIN && m->lowat != 0) {
			if (mode_short_read(m, 0) == -1)
				break;
		} else if (errno != EINTR)
			break;
	}
	m->what = flags != 0 ? "recv(MSG_TRUNC)" : "recv";
	return -1;
}

/* Socket to pipe (page references, no copy), pipe to /dev/null. */
static int
mode_splice(struct xfer_mode *m)
{
	ssize_t n, k;
	size_t left;

	for (;;) {
		n = splice(m->fd, NULL, m->pipe[1], NULL, m->len,
		    SPLICE_F_MOVE);
		if (n == 0)
			return 0;
		if (n == -1) {
			if (errno == EINTR)
				continue;
			m->what = "splice from the socket";
			return -1;
		}
		if (mode_count(m, n) == -1) {
			m->what = "splice from the socket";
			return -1;
		}
		for (left = (size_t)n; left > 0; ) {
			k = splice(m->pipe[0], NULL, m->devnull, NULL, left,
			    SPLICE_F_MOVE);
			if (k > 0)
				left -= (size_t)k;
			else if (k == 0 || errno != EINTR) {
				if (k == 0)
					errno = EIO;
				m->what = "splice to /dev/null";
				return -1;
			}
		}
	}
}

int
xfer_mode_recv(struct xfer_mode *m)
{
	int rc;

	if (m->path == GB_PATH_SPLICE)
		return mode_splice(m);
	if (m->path != GB_PATH_SKIP_RX_COPY)
		return mode_recv(m, 0);
	rc = mode_recv(m, MSG_TRUNC);
	/* Senders send 'g': a byte that is not 0 was copied after all. */
	if (rc == 0 && m->calls > 0 && memchr(m->buf, 'g', m->len) != NULL) {
		snprintf(m->note, sizeof(m->note), "--skip-rx-copy: the "
		    "kernel copied despite MSG_TRUNC");
		m->path = GB_PATH_RECV;
	}
	return rc;
}

void
xfer_mode_drain(struct xfer_mode *m)
{
	struct timespec ms10 = { 0, 10 * 1000 * 1000 };
	int i;

	/*
	 * Every byte is acknowledged by now, but the last notifications may
	 * still be on their way to the queue.  poll() would not wait: a
	 * socket shut down both ways is always POLLHUP.
	 */
	for (i = 0; m->path == GB_PATH_ZEROCOPY && i < 100; i++) {
		if (mode_zc_reap(m) == -1 ||
		    m->zc_completions >= m->zc_sends)
			return;
		nanosleep(&ms10, NULL);
	}
}

/*
 * -A: the thread pins itself before its first byte; a CPU this host does
 * not have leaves it unpinned with pin_err (a warning, not a failed test).
 * What it reads back is the truth either way.
 */
void
xfer_mode_pin(struct xfer_mode *m)
{
	cpu_set_t set;
	int i, n = 0;

	if (m->pin_cpu >= 0) {
		CPU_ZERO(&set);
		CPU_SET((unsigned)m->pin_cpu, &set);
		m->pin_err = pthread_setaffinity_np(pthread_self(),
		    sizeof(set), &set);
	}
	m->pinned = -1;
	if (pthread_getaffinity_np(pthread_self(), sizeof(set), &set) != 0)
		return;
	for (i = 0; i < CPU_SETSIZE && n < 2; i++)
		if (CPU_ISSET((unsigned)i, &set) && n++ == 0)
			m->pinned = i;
	if (n != 1)
		m->pinned = -1;
}

void
xfer_mode_figures(const struct xfer_mode *m, struct gb_stream *g,
    struct gb_zerocopy *z)
{
	g->bytes = atomic_load(&m->bytes);
	g->cpu = m->cpu;
	g->pinned = m->pinned;
	g->path = m->path;
	if (m->path != GB_PATH_ZEROCOPY)
		return;
	z->has = 1;
	z->sends += m->zc_sends;
	z->completions += m->zc_completions;
	z->copied += m->zc_copied;
}
