/*
 * ttcp_xfer.c: one classic ttcp transfer (data/ttcp_xfer.h).  The loops
 * are ttcp's: blocking calls of -l bytes on one socket, every call
 * counted, the timer started after connect() or accept() (for UDP at the
 * start sentinel) and read after the last call; around them the
 * measurement a native test's side gets (xfer_measure.h), taken outside
 * the timer.  A receiver keeps a native listener's bounds: a peer silent
 * for --silent-timeout, or a transfer longer than --max-duration, ends
 * it with the reason.
 */
#include <sys/resource.h>
#include <sys/socket.h>

#include <netinet/in.h>
#include <netinet/tcp.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/params.h"
#include "host/sock.h"
#include "host/tcpinfo.h"
#include "data/ttcp_xfer.h"
#include "xfer_measure.h"

/* A UDP sender whose buffer is full waits as ttcp did (delay(18000)). */
#define TTCP_ENOBUFS_WAIT_NS	18000000L
/* -r -u: the wait for the start sentinel is cut into slices of this. */
#define TTCP_WAIT_SLICE_MS	1000
/* -t -u: the first gap between the ends after the timer, doubling. */
#define TTCP_END_GAP_NS		10000000L

struct ttcp_run {
	const struct ttcp_cfg	*c;
	const struct ttcp_hooks	*h;
	struct ttcp_counts	*n;
	int			 fd;
	char			*mem;		/* malloc'd */
	char			*buf;		/* aligned by -A/-O */
	struct timespec		 t0;		/* the timer's start */
	struct timespec		 first;		/* -r: the first byte */
	struct gb_params	 p;		/* for the measurement */
	struct xfer_config	 xc;
	struct xfer_measure	 m;
	int			 measuring;
	int			 errnum;
	char			*err;
	size_t			 errlen;
};

static double
since(const struct timespec *a)
{
	struct timespec b;

	clock_gettime(CLOCK_MONOTONIC, &b);
	return (double)(b.tv_sec - a->tv_sec) +
	    (double)(b.tv_nsec - a->tv_nsec) / 1e9;
}

static int
fail(struct ttcp_run *t, int errnum, const char *what)
{
	t->errnum = errnum;
	if (errnum == EAGAIN || errnum == EWOULDBLOCK)
		snprintf(t->err, t->errlen, "%s: peer silent for %g s", what,
		    t->c->silent_ms / 1000.0);
	else if (errnum != 0)
		snprintf(t->err, t->errlen, "%s: %s", what, strerror(errnum));
	else
		snprintf(t->err, t->errlen, "%s", what);
	return -1;
}

static void
note(const struct ttcp_run *t, const char *text)
{
	if (t->h->note != NULL)
		t->h->note(t->h->arg, text);
}

static void
rusage_take(struct ttcp_rusage *r)
{
	struct rusage u;

	memset(r, 0, sizeof(*r));
	if (getrusage(RUSAGE_SELF, &u) == -1)
		return;
	r->utime = u.ru_utime;
	r->stime = u.ru_stime;
	r->maxrss = u.ru_maxrss;
	r->ixrss = u.ru_ixrss;
	r->idrss = u.ru_idrss;
	r->isrss = u.ru_isrss;
	r->minflt = u.ru_minflt;
	r->majflt = u.ru_majflt;
	r->nswap = u.ru_nswap;
	r->inblock = u.ru_inblock;
	r->oublock = u.ru_oublock;
	r->nvcsw = u.ru_nvcsw;
	r->nivcsw = u.ru_nivcsw;
}

static double
tv_s(const struct timeval *v)
{
	return (double)v->tv_sec + (double)v->tv_usec / 1e6;
}

/* ttcp's prep_timer() and read_timer(). */
static void
timer_start(struct ttcp_run *t)
{
	clock_gettime(CLOCK_MONOTONIC, &t->t0);
	rusage_take(&t->n->ru0);
}

/* end: when the transfer ended, NULL for now. */
static void
timer_stop(struct ttcp_run *t, const struct timespec *end)
{
	struct ttcp_counts *n = t->n;

	rusage_take(&n->ru1);
	n->realt = end == NULL ? since(&t->t0) :
	    (double)(end->tv_sec - t->t0.tv_sec) +
	    (double)(end->tv_nsec - t->t0.tv_nsec) / 1e9;
	n->cput = tv_s(&n->ru1.utime) + tv_s(&n->ru1.stime) -
	    tv_s(&n->ru0.utime) - tv_s(&n->ru0.stime);
}

/* The measurement's start, once: just before the timer's. */
static void
measure_start(struct ttcp_run *t)
{
	char err[GB_ERR_LEN];

	if (t->measuring)
		return;
	params_init(&t->p);
	t->p.udp = t->c->udp;
	t->p.buflen = t->c->buflen;
	t->p.nbuf = t->c->sink && t->c->trans ? t->c->nbuf : 0;
	t->p.streams = 1;
	t->p.nodelay = t->c->nodelay;
	if (t->c->trans)
		t->p.sndbuf = t->c->sockbuf;
	else
		t->p.rcvbuf = t->c->sockbuf;
	memset(&t->xc, 0, sizeof(t->xc));
	t->xc.params = &t->p;
	t->xc.is_tx = t->c->trans;
	t->xc.fds = &t->fd;
	t->xc.roots = t->h->roots;
	memset(&t->m, 0, sizeof(t->m));
	if (xfer_measure_open(&t->m, &t->xc, &t->p, err, sizeof(err)) == -1 ||
	    xfer_measure_before(&t->m, err, sizeof(err)) == -1) {
		xfer_measure_free(&t->m);
		return;		/* the figures are missing, the test is not */
	}
	t->measuring = 1;
}

static void
measure_end(struct ttcp_run *t, struct gb_side *side)
{
	struct tcpinfo_sample ti;
	const struct ttcp_counts *n = t->n;

	memset(side, 0, sizeof(*side));
	side->has = 1;
	side->bytes = n->nbytes;
	side->seconds = n->realt;
	side->mbps = result_mbps(n->nbytes, n->realt);
	side->calls = n->calls;
	side->data_path = t->c->trans ? GB_PATH_SEND : GB_PATH_RECV;
	side->tos = -1;
	if (!t->c->udp && tcpinfo_read(t->fd, &ti) == 0)
		tcpinfo_sum(&ti, 1, &side->tcp);
	if (t->c->udp) {
		side->udp.has = 1;
		side->udp.receiver = !t->c->trans;
		side->udp.length = t->c->buflen;
		side->udp.batch = 1;
		side->udp.datagrams = n->nbytes / t->c->buflen;
	}
	if (!t->measuring)
		return;
	xfer_measure_after(&t->m);
	xfer_measure_side(&t->m, side);
	xfer_measure_warn(&t->m, side);
}

static int
buf_open(struct ttcp_run *t)
{
	const struct ttcp_cfg *c = t->c;
	uintptr_t a;
	size_t skip = 0;

	if ((t->mem = malloc((size_t)c->buflen + c->align + 1)) == NULL)
		return fail(t, ENOMEM, "malloc");
	a = (uintptr_t)t->mem;
	if (c->align != 0)
		skip = (c->align - a % c->align + c->offset) % c->align;
	t->buf = t->mem + skip;
	t->n->bufaddr = (uintptr_t)t->buf;
	if (c->sink && c->trans)
		ttcp_pattern(t->buf, c->buflen);
	return 0;
}

/* -r: past --max-duration since the first byte is an error. */
static int
too_long(struct ttcp_run *t)
{
	if (since(&t->first) * 1000 <= t->c->max_duration_ms)
		return 0;
	fail(t, 0, "");
	snprintf(t->err, t->errlen, "IO: the transfer still ran after %g s "
	    "(--max-duration): cut off", t->c->max_duration_ms / 1000.0);
	return 1;
}

/* ttcp's Nread(): one call (-B: until -l bytes or the end), -T reads it. */
static ssize_t
nread(struct ttcp_run *t, size_t count)
{
	volatile unsigned sum = 0;
	ssize_t cnt, got = 0;

	do {
		cnt = read(t->fd, t->buf + got, count - (size_t)got);
		t->n->calls++;
		if (cnt <= 0)
			break;
		got += cnt;
	} while (t->c->fullblocks && !t->c->udp && (size_t)got < count);
	if (cnt < 0 && got == 0)
		return -1;
	if (t->c->touch)
		for (cnt = 0; cnt < got; cnt++)
			sum += (unsigned char)t->buf[cnt];
	(void)sum;
	return got;
}

/* All len bytes, each call counted in *calls (NULL: not counted). */
static int
write_all(int fd, const char *p, size_t len, uint64_t *calls)
{
	ssize_t w;

	for (; len > 0; p += w, len -= (size_t)w) {
		w = write(fd, p, len);
		if (calls != NULL)
			(*calls)++;
		if (w < 0 && errno == EINTR)
			w = 0;		/* again */
		else if (w <= 0)
			return -1;
	}
	return 0;
}

/* ttcp's Nwrite(); TCP: all or -1, not a short write (a reset) as its end. */
static ssize_t
nwrite(struct ttcp_run *t, const char *p, size_t count)
{
	struct timespec wait = { 0, TTCP_ENOBUFS_WAIT_NS };
	ssize_t cnt;

	if (!t->c->udp)
		return write_all(t->fd, p, count, &t->n->calls) == -1 ? -1 :
		    (ssize_t)count;
	for (;;) {
		cnt = send(t->fd, p, count, 0);
		t->n->calls++;
		if (cnt >= 0)
			return cnt;
		if (errno == ECONNREFUSED)
			return (ssize_t)count;	/* unconnected ttcp: unseen */
		if (errno != ENOBUFS)
			return -1;
		nanosleep(&wait, NULL);
	}
}

static int
set_int(struct ttcp_run *t, int level, int name, int v, const char *what)
{
	if (setsockopt(t->fd, level, name, &v, sizeof(v)) == -1)
		return fail(t, errno, what);
	return 0;
}

/* -b and -d, as ttcp sets them; "sndbuf"/"rcvbuf" noted as ttcp's mes(). */
static int
sock_opts(struct ttcp_run *t)
{
	const struct ttcp_cfg *c = t->c;

	if (c->sockbuf != 0) {
		if (set_int(t, SOL_SOCKET, c->trans ? SO_SNDBUF : SO_RCVBUF,
		    (int)c->sockbuf, c->trans ? "setsockopt: sndbuf" :
		    "setsockopt: rcvbuf") == -1)
			return -1;
		note(t, c->trans ? "sndbuf" : "rcvbuf");
	}
	if (c->debug && set_int(t, SOL_SOCKET, SO_DEBUG, 1,
	    "setsockopt") == -1)
		return -1;
	return 0;
}

static int
open_tx(struct ttcp_run *t)
{
	const struct ttcp_cfg *c = t->c;
	struct sock_addr a;
	char err[GB_ERR_LEN];

	if (sock_resolve(c->host, c->port, AF_UNSPEC, &a, err,
	    sizeof(err)) == -1) {
		snprintf(t->err, t->errlen, "bad hostname: %s", err);
		return -1;
	}
	if ((t->fd = socket(a.ss.ss_family, c->udp ? SOCK_DGRAM :
	    SOCK_STREAM, 0)) == -1)
		return fail(t, errno, "socket");
	note(t, "socket");
	if (sock_opts(t) == -1)
		return -1;
	if (!c->udp && c->nodelay) {
		if (set_int(t, IPPROTO_TCP, TCP_NODELAY, 1,
		    "setsockopt: nodelay") == -1)
			return -1;
		note(t, "nodelay");
	}
	/* UDP too: the interface is known and the sends go there alone. */
	if (connect(t->fd, (struct sockaddr *)&a.ss, a.len) == -1)
		return fail(t, errno, "connect");
	if (!c->udp)
		note(t, "connect");
	sock_set_timeouts(t->fd, (int)c->silent_ms);
	return 0;
}

/* A dual-stack socket on port, as the native listener's. */
static int
open_rx_socket(struct ttcp_run *t, int type)
{
	struct sockaddr_in6 a;
	int off = 0, on = 1;

	if ((t->fd = socket(AF_INET6, type, 0)) == -1)
		return fail(t, errno, "socket");
	setsockopt(t->fd, IPPROTO_IPV6, IPV6_V6ONLY, &off, sizeof(off));
	setsockopt(t->fd, SOL_SOCKET, SO_REUSEADDR, &on, sizeof(on));
	note(t, "socket");
	if (sock_opts(t) == -1)
		return -1;
	memset(&a, 0, sizeof(a));
	a.sin6_family = AF_INET6;
	a.sin6_port = htons(t->c->port);
	a.sin6_addr = in6addr_any;
	if (bind(t->fd, (struct sockaddr *)&a, sizeof(a)) == -1)
		return fail(t, errno, "bind");
	return 0;
}

static int
open_rx_tcp(struct ttcp_run *t)
{
	struct sockaddr_storage peer;
	socklen_t plen = sizeof(peer);
	char text[96];
	int lfd;

	if (open_rx_socket(t, SOCK_STREAM) == -1)
		return -1;
	if (listen(t->fd, 1) == -1)
		return fail(t, errno, "listen");
	lfd = t->fd;
	while ((t->fd = accept(lfd, (struct sockaddr *)&peer, &plen)) == -1 &&
	    errno == EINTR)
		plen = sizeof(peer);
	close(lfd);
	if (t->fd == -1)
		return fail(t, errno, "accept");
	sock_ntop((struct sockaddr *)&peer, t->n->peer, sizeof(t->n->peer));
	snprintf(text, sizeof(text), "accept from %s", t->n->peer);
	note(t, text);
	sock_set_timeouts(t->fd, (int)t->c->silent_ms);
	return 0;
}

/* -t -s: ttcp's buffers; -u between the sentinels. */
static int
loop_tx_sink(struct ttcp_run *t)
{
	const struct ttcp_cfg *c = t->c;
	uint64_t left = c->nbuf;
	ssize_t cnt = 0;

	if (c->udp)
		nwrite(t, t->buf, TTCP_SENTINEL_LEN);
	while (left-- > 0 && (cnt = nwrite(t, t->buf, c->buflen)) ==
	    (ssize_t)c->buflen)
		t->n->nbytes += c->buflen;
	if (cnt < 0)
		return fail(t, errno, "IO");
	if (c->udp)
		nwrite(t, t->buf, TTCP_SENTINEL_LEN);
	return 0;
}

/* -t without -s: standard input, as it comes. */
static int
loop_tx_pipe(struct ttcp_run *t)
{
	ssize_t cnt;

	while ((cnt = read(0, t->buf, t->c->buflen)) > 0) {
		if (nwrite(t, t->buf, (size_t)cnt) != cnt)
			return fail(t, errno, "IO");
		t->n->nbytes += (uint64_t)cnt;
	}
	return cnt < 0 ? fail(t, errno, "IO: standard input") : 0;
}

/* -r over TCP: until the sender's FIN; without -s onto standard output. */
static int
loop_rx_tcp(struct ttcp_run *t)
{
	ssize_t cnt;

	clock_gettime(CLOCK_MONOTONIC, &t->first);
	while ((cnt = nread(t, t->c->buflen)) > 0) {
		if (!t->c->sink && write_all(1, t->buf, (size_t)cnt, NULL) == -1)
			return fail(t, errno, "IO: standard output");
		t->n->nbytes += (uint64_t)cnt;
		if (too_long(t))
			return -1;
	}
	return cnt < 0 ? fail(t, errno, "IO") : 0;
}

/* The first datagram: from its sender alone from now on, and measured. */
static void
rx_udp_first(struct ttcp_run *t, const struct sockaddr_storage *src,
    socklen_t slen)
{
	connect(t->fd, (const struct sockaddr *)src, slen);
	sock_set_rcvtimeo(t->fd, (int)t->c->silent_ms);
	clock_gettime(CLOCK_MONOTONIC, &t->first);
	measure_start(t);
	timer_start(t);
}

/*
 * -r -u: datagrams until the end sentinel.  With -s as ttcp: a datagram
 * of at most 4 bytes is the start (the timer starts again), the next
 * one the end.  Without -s (pipe mode, where a ttcp sender sends no
 * start) onto standard output: the first short datagram after data ends
 * it, one before any data is skipped.  Before the first datagram it
 * waits as long as it takes, as ttcp; after it, a sender silent for
 * --silent-timeout ends the transfer at its last datagram (*last).
 */
static int
loop_rx_udp(struct ttcp_run *t, struct timespec *last)
{
	struct sockaddr_storage src;
	socklen_t slen;
	ssize_t cnt;
	int waiting = 1;

	sock_set_rcvtimeo(t->fd, TTCP_WAIT_SLICE_MS);
	for (;;) {
		slen = sizeof(src);
		cnt = recvfrom(t->fd, t->buf, t->c->buflen, 0,
		    (struct sockaddr *)&src, &slen);
		if (cnt < 0 && (errno == EINTR || (waiting &&
		    (errno == EAGAIN || errno == EWOULDBLOCK))))
			continue;
		t->n->calls++;
		if (cnt < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) &&
		    t->n->nbytes > 0)
			return 1;	/* silent: ended without a sentinel */
		if (cnt < 0)
			return fail(t, errno, "IO");
		if (waiting) {
			waiting = 0;
			rx_udp_first(t, &src, slen);
		}
		if (cnt <= (ssize_t)TTCP_SENTINEL_LEN) {
			if (t->c->sink ? t->n->started : t->n->nbytes > 0) {
				t->n->ended = 1;
				return 0;
			}
			t->n->started = 1;
			if (t->c->sink)
				timer_start(t);
			continue;
		}
		if (!t->c->sink && write_all(1, t->buf, (size_t)cnt, NULL) == -1)
			return fail(t, errno, "IO: standard output");
		t->n->nbytes += (uint64_t)cnt;
		clock_gettime(CLOCK_MONOTONIC, last);
		if (too_long(t))
			return -1;
	}
}

static int
ttcp_open(struct ttcp_run *t)
{
	if (buf_open(t) == -1)
		return -1;
	if (t->c->trans)
		return open_tx(t);
	return t->c->udp ? open_rx_socket(t, SOCK_DGRAM) : open_rx_tcp(t);
}

static int
ttcp_loop(struct ttcp_run *t)
{
	struct timespec last, gap = { 0, 0 };
	unsigned i;
	int rc;

	if (t->c->udp && !t->c->trans) {
		if ((rc = loop_rx_udp(t, &last)) == -1)
			return -1;
		timer_stop(t, rc == 1 ? &last : NULL);
		return 0;
	}
	measure_start(t);
	timer_start(t);
	if (t->c->trans)
		rc = t->c->sink ? loop_tx_sink(t) : loop_tx_pipe(t);
	else
		rc = loop_rx_tcp(t);
	if (rc == -1)
		return -1;
	timer_stop(t, NULL);
	/*
	 * ttcp: four more ends after the timer, in both modes.  ttcp sends
	 * them back to back, where a receiver whose buffer is still full of
	 * data loses all five; here they are spaced 10, 20, 40 and 80 ms
	 * apart, outside the timer, so one lands once it has drained.
	 */
	if (t->c->udp)
		for (i = 1; i < TTCP_END_SENTINELS; i++) {
			gap.tv_nsec = TTCP_END_GAP_NS << (i - 1);
			nanosleep(&gap, NULL);
			nwrite(t, t->buf, TTCP_SENTINEL_LEN);
		}
	return 0;
}

int
ttcp_xfer(const struct ttcp_cfg *c, const struct ttcp_hooks *h,
    struct ttcp_counts *n, struct gb_side *side, int *errnum, char *err,
    size_t errlen)
{
	struct ttcp_run t;
	int rc;

	memset(&t, 0, sizeof(t));
	memset(n, 0, sizeof(*n));
	memset(side, 0, sizeof(*side));
	t.c = c;
	t.h = h;
	t.n = n;
	t.fd = -1;
	t.err = err;
	t.errlen = errlen;
	if ((rc = ttcp_open(&t)) == 0 && (rc = ttcp_loop(&t)) == 0)
		measure_end(&t, side);
	if (t.measuring)
		xfer_measure_free(&t.m);
	if (t.fd != -1)
		close(t.fd);
	free(t.mem);
	*errnum = t.errnum;
	return rc;
}
