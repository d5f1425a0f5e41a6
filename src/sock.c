/*
 * sock.c: socket set-up for both roles.  Nothing here moves test data or
 * speaks the protocol; it opens sockets, sets options and reports what the
 * kernel made of them.
 *
 * The TOS byte of an IPv6 socket is IPV6_TCLASS, but a dual-stack
 * listener's sockets carry IPv4 for IPv4 clients (v4-mapped peers), and
 * then IP_TOS is the one that counts: both are set, and the one of the
 * peer's family is read back.
 */
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <arpa/inet.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <netdb.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "host/sock.h"

int
sock_resolve(const char *host, uint16_t port, int family,
    struct sock_addr *a, char *err, size_t errlen)
{
	struct addrinfo hints, *res;
	char service[8];
	int rc;

	memset(&hints, 0, sizeof(hints));
	hints.ai_family = family;
	hints.ai_socktype = SOCK_STREAM;
	hints.ai_flags = host == NULL ? AI_PASSIVE : AI_ADDRCONFIG;
	snprintf(service, sizeof(service), "%u", port);
	rc = getaddrinfo(host, service, &hints, &res);
	if (rc == EAI_ADDRFAMILY || rc == EAI_NONAME) {
		/* AI_ADDRCONFIG hides ::1 and 127.0.0.1 on a host without
		 * other addresses; loopback tests must still work. */
		hints.ai_flags &= ~AI_ADDRCONFIG;
		rc = getaddrinfo(host, service, &hints, &res);
	}
	if (rc != 0) {
		snprintf(err, errlen, "cannot resolve %s: %s",
		    host == NULL ? "the wildcard address" : host,
		    gai_strerror(rc));
		return -1;
	}
	memcpy(&a->ss, res->ai_addr, res->ai_addrlen);
	a->len = res->ai_addrlen;
	freeaddrinfo(res);
	return 0;
}

int
sock_set_nonblock(int fd, int on)
{
	int fl = fcntl(fd, F_GETFL);

	if (fl == -1)
		return -1;
	fl = on ? fl | O_NONBLOCK : fl & ~O_NONBLOCK;
	return fcntl(fd, F_SETFL, fl);
}

int
sock_set_rcvtimeo(int fd, int ms)
{
	struct timeval tv = { ms / 1000, (ms % 1000) * 1000 };

	return setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
}

int
sock_set_timeouts(int fd, int ms)
{
	struct timeval tv = { ms / 1000, (ms % 1000) * 1000 };
	unsigned ut = (unsigned)ms;

	if (sock_set_rcvtimeo(fd, ms) == -1 ||
	    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv)) == -1 ||
	    setsockopt(fd, IPPROTO_TCP, TCP_USER_TIMEOUT, &ut,
	    sizeof(ut)) == -1)
		return -1;
	return 0;
}

/*
 * Wake the receiver only when `bytes` (one read buffer) are queued, not
 * for every segment: fewer wakeups, which on 2 cores of a VM are the
 * dearest part of moving data (loopback, 1M reads: 1.3-1.7x the
 * throughput, less CPU per byte on both ends; bench/README.md).  TCP caps
 * it at half the receive buffer (tcp_set_rcvlowat), a FIN or an error
 * wakes the reader at once, and a blocking read still returns what it
 * has when SO_RCVTIMEO runs out.  The value read back, 0 if unknown.
 */
uint32_t
sock_set_rcvlowat(int fd, uint32_t bytes)
{
	int v = bytes > INT_MAX ? INT_MAX : (int)bytes;
	socklen_t len = sizeof(v);

	if (setsockopt(fd, SOL_SOCKET, SO_RCVLOWAT, &v, sizeof(v)) == -1 ||
	    getsockopt(fd, SOL_SOCKET, SO_RCVLOWAT, &v, &len) == -1 || v < 0)
		return 0;
	return (uint32_t)v;
}

/*
 * A SIGSTOPped peer's kernel still acknowledges, so keepalive and
 * TCP_USER_TIMEOUT catch a host that is gone (powered off, cut off), not
 * a process that stopped: the deadlines of the event loop and of the
 * data path (SO_RCVTIMEO) catch that.  With keepalive on, TCP_USER_TIMEOUT
 * also decides when unanswered probes end the connection (tcp(7)).
 */
int
sock_set_keepalive(int fd, int silent_ms)
{
	int one = 1, cnt = 3, idle, intvl;
	unsigned ut = (unsigned)silent_ms;

	idle = silent_ms / 2000;
	intvl = silent_ms / 2000 / cnt;
	if (idle < 1)
		idle = 1;
	if (intvl < 1)
		intvl = 1;
	if (setsockopt(fd, SOL_SOCKET, SO_KEEPALIVE, &one, sizeof(one)) == -1 ||
	    setsockopt(fd, IPPROTO_TCP, TCP_KEEPIDLE, &idle,
	    sizeof(idle)) == -1 ||
	    setsockopt(fd, IPPROTO_TCP, TCP_KEEPINTVL, &intvl,
	    sizeof(intvl)) == -1 ||
	    setsockopt(fd, IPPROTO_TCP, TCP_KEEPCNT, &cnt, sizeof(cnt)) == -1 ||
	    setsockopt(fd, IPPROTO_TCP, TCP_USER_TIMEOUT, &ut,
	    sizeof(ut)) == -1)
		return -1;
	return 0;
}

const char *
sock_ntop(const struct sockaddr *sa, char *buf, size_t len)
{
	const struct in6_addr *a6;
	const void *src;
	int af = sa->sa_family;

	if (af == AF_INET6) {
		a6 = &((const struct sockaddr_in6 *)sa)->sin6_addr;
		src = a6;
		/* A dual-stack listener sees IPv4 clients as ::ffff:a.b.c.d. */
		if (IN6_IS_ADDR_V4MAPPED(a6)) {
			src = &a6->s6_addr[12];
			af = AF_INET;
		}
	} else
		src = &((const struct sockaddr_in *)sa)->sin_addr;
	if (inet_ntop(af, src, buf, len) == NULL)
		snprintf(buf, len, "?");
	return buf;
}

static int
listen_on(const struct sock_addr *a, int v6only, const char *dev, char *err,
    size_t errlen)
{
	char name[INET6_ADDRSTRLEN];
	int fd, one = 1;

	fd = socket(a->ss.ss_family, SOCK_STREAM | SOCK_NONBLOCK |
	    SOCK_CLOEXEC, 0);
	if (fd == -1) {
		snprintf(err, errlen, "socket: %s", strerror(errno));
		return -1;
	}
	if (sock_bind_dev(fd, dev, err, errlen) == -1) {
		close(fd);
		return -1;
	}
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (a->ss.ss_family == AF_INET6)
		setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &v6only,
		    sizeof(v6only));
	if (bind(fd, (const struct sockaddr *)&a->ss, a->len) == -1 ||
	    listen(fd, SOMAXCONN) == -1) {
		snprintf(err, errlen, "cannot listen on %s port %u: %s",
		    sock_ntop((const struct sockaddr *)&a->ss, name,
		    sizeof(name)),
		    ntohs(((const struct sockaddr_in *)&a->ss)->sin_port),
		    strerror(errno));
		close(fd);
		return -1;
	}
	return fd;
}

int
sock_listen(const struct sock_local *l, uint16_t port, int family, char *err,
    size_t errlen)
{
	const char *bind_addr = l != NULL ? l->addr : NULL;
	const char *dev = l != NULL ? l->dev : NULL;
	struct sock_addr a;
	int fd;

	if (bind_addr == NULL && family == AF_UNSPEC) {
		/* One dual-stack socket serves IPv4 and IPv6 clients. */
		if (sock_resolve("::", port, AF_INET6, &a, err, errlen) == 0 &&
		    (fd = listen_on(&a, 0, dev, err, errlen)) != -1)
			return fd;
		family = AF_INET;
	}
	if (bind_addr == NULL)
		bind_addr = family == AF_INET6 ? "::" : "0.0.0.0";
	if (sock_resolve(bind_addr, port, family, &a, err, errlen) == -1)
		return -1;
	return listen_on(&a, 1, dev, err, errlen);
}

int
sock_wait_connected(int fd, int timeout_ms)
{
	struct pollfd pfd = { .fd = fd, .events = POLLOUT };
	socklen_t len = sizeof(int);
	int rc, soerr = 0;

	do
		rc = poll(&pfd, 1, timeout_ms);
	while (rc == -1 && errno == EINTR);
	if (rc == 0) {
		errno = ETIMEDOUT;
		return -1;
	}
	if (rc == -1 || getsockopt(fd, SOL_SOCKET, SO_ERROR, &soerr,
	    &len) == -1)
		return -1;
	if (soerr != 0) {
		errno = soerr;
		return -1;
	}
	return 0;
}

/* --bind-dev: the interface the socket's packets must use. */
int
sock_bind_dev(int fd, const char *dev, char *err, size_t errlen)
{
	if (dev == NULL)
		return 0;
	if (setsockopt(fd, SOL_SOCKET, SO_BINDTODEVICE, dev,
	    (socklen_t)strlen(dev) + 1) == -1) {
		snprintf(err, errlen, "--bind-dev %s: %s%s", dev,
		    strerror(errno), errno == EPERM ? " (needs CAP_NET_RAW)" :
		    "");
		return -1;
	}
	return 0;
}

int
sock_bind_local(int fd, const struct sock_local *l, int family, char *err,
    size_t errlen)
{
	struct sock_addr local;
	const char *addr;
	int one = 1;

	if (l == NULL)
		return 0;
	if (sock_bind_dev(fd, l->dev, err, errlen) == -1)
		return -1;
	if (l->addr == NULL && l->port == 0)
		return 0;
	addr = l->addr != NULL ? l->addr : family == AF_INET6 ? "::" :
	    "0.0.0.0";
	if (sock_resolve(addr, l->port, family, &local, err, errlen) == -1)
		return -1;
	/* --cport again soon after: the last test's may be in TIME_WAIT. */
	if (l->port != 0)
		(void)setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one,
		    sizeof(one));
	/*
	 * -B alone: the port is the kernel's choice at connect(), for the
	 * whole 4-tuple, as without -B; a bind() would take one for the
	 * address, never one in TIME_WAIT (--crr's thousands a second).
	 */
	else
		(void)setsockopt(fd, IPPROTO_IP, IP_BIND_ADDRESS_NO_PORT, &one,
		    sizeof(one));
	if (bind(fd, (struct sockaddr *)&local.ss, local.len) == -1) {
		if (l->port != 0)
			snprintf(err, errlen, "cannot bind to %s port %u "
			    "(--cport): %s", addr, (unsigned)l->port,
			    strerror(errno));
		else
			snprintf(err, errlen, "cannot bind to %s: %s", addr,
			    strerror(errno));
		return -1;
	}
	return 0;
}

int
sock_connect(const struct sock_addr *a, const struct sock_local *l,
    const struct gb_params *p, int is_tx, int timeout_ms, char *err,
    size_t errlen)
{
	char name[INET6_ADDRSTRLEN];
	int fd;

	fd = socket(a->ss.ss_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd == -1) {
		snprintf(err, errlen, "socket: %s", strerror(errno));
		return -1;
	}
	if (p != NULL && sock_apply(fd, p, is_tx, err, errlen) == -1)
		goto fail;
	if (sock_bind_local(fd, l, a->ss.ss_family, err, errlen) == -1)
		goto fail;
	sock_set_nonblock(fd, 1);
	if (connect(fd, (const struct sockaddr *)&a->ss, a->len) == -1 &&
	    (errno != EINPROGRESS || (timeout_ms != 0 &&
	    sock_wait_connected(fd, timeout_ms) == -1))) {
		snprintf(err, errlen, "cannot connect to %s port %u: %s",
		    sock_ntop((const struct sockaddr *)&a->ss, name,
		    sizeof(name)),
		    ntohs(((const struct sockaddr_in *)&a->ss)->sin_port),
		    strerror(errno));
		goto fail;
	}
	if (timeout_ms != 0)
		sock_set_nonblock(fd, 0);
	return fd;
fail:
	close(fd);
	return -1;
}

static int
setopt_int(int fd, int level, int name, int val, const char *what,
    char *err, size_t errlen)
{
	if (setsockopt(fd, level, name, &val, sizeof(val)) == -1) {
		snprintf(err, errlen, "setsockopt %s %d: %s", what, val,
		    strerror(errno));
		return -1;
	}
	return 0;
}

static int
sock_family(int fd)
{
	struct sockaddr_storage ss;
	socklen_t len = sizeof(ss);

	if (getsockname(fd, (struct sockaddr *)&ss, &len) == -1)
		return AF_UNSPEC;
	return ss.ss_family;
}

/* An IPv6 socket whose peer is an IPv4 address (v4-mapped). */
static int
sock_peer_v4mapped(int fd)
{
	struct sockaddr_in6 peer;
	socklen_t len = sizeof(peer);

	if (getpeername(fd, (struct sockaddr *)&peer, &len) == -1 ||
	    peer.sin6_family != AF_INET6)
		return 0;
	return IN6_IS_ADDR_V4MAPPED(&peer.sin6_addr);
}

static int
sock_set_tos(int fd, int tos, char *err, size_t errlen)
{
	if (sock_family(fd) == AF_INET6 && setopt_int(fd, IPPROTO_IPV6,
	    IPV6_TCLASS, tos, "IPV6_TCLASS", err, errlen) == -1)
		return -1;
	return setopt_int(fd, IPPROTO_IP, IP_TOS, tos, "IP_TOS", err, errlen);
}

/*
 * SO_MAX_PACING_RATE takes an unsigned long since Linux 4.20 (an int
 * before, which reads the low half of this on little-endian hosts).  It
 * caps TCP's own pacing (or fq's), and turns TCP's pacing on.
 */
static int
sock_set_fq_rate(int fd, uint64_t bytes_s, char *err, size_t errlen)
{
	unsigned long v = bytes_s > ULONG_MAX ? ULONG_MAX : (unsigned long)
	    bytes_s;

	if (setsockopt(fd, SOL_SOCKET, SO_MAX_PACING_RATE, &v,
	    sizeof(v)) == -1) {
		snprintf(err, errlen, "setsockopt SO_MAX_PACING_RATE %lu: %s",
		    v, strerror(errno));
		return -1;
	}
	return 0;
}

int
sock_tos(int fd)
{
	socklen_t len = sizeof(int);
	int v;

	if (sock_family(fd) == AF_INET6 && !sock_peer_v4mapped(fd)) {
		if (getsockopt(fd, IPPROTO_IPV6, IPV6_TCLASS, &v, &len) == -1)
			return -1;
	} else if (getsockopt(fd, IPPROTO_IP, IP_TOS, &v, &len) == -1)
		return -1;
	return v >= 0 && v <= 255 ? v : -1;
}

int
sock_fq_rate(int fd, uint64_t *bytes_s)
{
	unsigned long v = 0;
	socklen_t len = sizeof(v);

	if (getsockopt(fd, SOL_SOCKET, SO_MAX_PACING_RATE, &v, &len) == -1)
		return 0;
	/* An int-sized answer from an older kernel: ~0U is no limit. */
	if (len == sizeof(unsigned))
		v = (unsigned)v == UINT_MAX ? ULONG_MAX : (unsigned)v;
	if (v == ULONG_MAX)
		return 0;
	*bytes_s = v;
	return 1;
}

int
sock_can_force_bufs(int is_tx)
{
	int fd, v = 65536, ok;

	if ((fd = socket(AF_INET, SOCK_STREAM, 0)) == -1)
		return -1;
	ok = setsockopt(fd, SOL_SOCKET, is_tx ? SO_SNDBUFFORCE :
	    SO_RCVBUFFORCE, &v, sizeof(v)) == 0;
	close(fd);
	return ok;
}

/*
 * ttcp's meaning of -b: the sending socket's SO_SNDBUF and the receiving
 * socket's SO_RCVBUF.  Linux doubles the value (the other half is for
 * bookkeeping) and caps the request at net.core.wmem_max / rmem_max
 * without an error; sock_bufs() reads back what took effect.
 */
int
sock_apply(int fd, const struct gb_params *p, int is_tx, char *err,
    size_t errlen)
{
	/* The FORCE variants ignore the *mem_max caps; they need root. */
	if (is_tx && p->sndbuf != 0 && setopt_int(fd, SOL_SOCKET,
	    p->force_bufs ? SO_SNDBUFFORCE : SO_SNDBUF, (int)p->sndbuf,
	    p->force_bufs ? "SO_SNDBUFFORCE (--force-bufs needs root)" :
	    "SO_SNDBUF", err, errlen) == -1)
		return -1;
	if (!is_tx && p->rcvbuf != 0 && setopt_int(fd, SOL_SOCKET,
	    p->force_bufs ? SO_RCVBUFFORCE : SO_RCVBUF, (int)p->rcvbuf,
	    p->force_bufs ? "SO_RCVBUFFORCE (--force-bufs needs root)" :
	    "SO_RCVBUF", err, errlen) == -1)
		return -1;
	if (p->mss != 0 && setopt_int(fd, IPPROTO_TCP, TCP_MAXSEG,
	    (int)p->mss, "TCP_MAXSEG", err, errlen) == -1)
		return -1;
	if (p->nodelay && setopt_int(fd, IPPROTO_TCP, TCP_NODELAY, 1,
	    "TCP_NODELAY", err, errlen) == -1)
		return -1;
	if (p->tos != 0 && sock_set_tos(fd, (int)p->tos, err, errlen) == -1)
		return -1;
	if (p->fq_rate != 0 && sock_set_fq_rate(fd, p->fq_rate, err,
	    errlen) == -1)
		return -1;
	if (p->cc[0] != '\0' && setsockopt(fd, IPPROTO_TCP, TCP_CONGESTION,
	    p->cc, (socklen_t)strlen(p->cc)) == -1) {
		snprintf(err, errlen, "setsockopt TCP_CONGESTION %s: %s%s",
		    p->cc, strerror(errno), errno == ENOENT ? " (not in "
		    "net.ipv4.tcp_available_congestion_control)" : "");
		return -1;
	}
	return 0;
}

void
sock_bufs(int fd, const struct gb_params *p, int is_tx,
    struct gb_sockbuf *snd, struct gb_sockbuf *rcv)
{
	socklen_t len;
	int v;

	snd->requested = is_tx ? p->sndbuf : 0;
	rcv->requested = is_tx ? 0 : p->rcvbuf;
	len = sizeof(v);
	snd->actual = getsockopt(fd, SOL_SOCKET, SO_SNDBUF, &v, &len) == 0 &&
	    v > 0 ? (uint32_t)v : 0;
	len = sizeof(v);
	rcv->actual = getsockopt(fd, SOL_SOCKET, SO_RCVBUF, &v, &len) == 0 &&
	    v > 0 ? (uint32_t)v : 0;
}

/* "a.b.c.d:port" or "[v6]:port" of one end; "" when it has none. */
static void
sock_endpoint_str(const struct sockaddr_storage *ss, socklen_t len,
    char *buf, size_t buflen)
{
	const struct sockaddr *sa = (const struct sockaddr *)ss;
	char host[INET6_ADDRSTRLEN];
	unsigned port;

	buf[0] = '\0';
	if (len == 0 || (sa->sa_family != AF_INET &&
	    sa->sa_family != AF_INET6))
		return;
	sock_ntop(sa, host, sizeof(host));
	port = ntohs(sa->sa_family == AF_INET ?
	    ((const struct sockaddr_in *)sa)->sin_port :
	    ((const struct sockaddr_in6 *)sa)->sin6_port);
	if (sa->sa_family == AF_INET6 && strchr(host, ':') != NULL)
		snprintf(buf, buflen, "[%s]:%u", host, port);
	else
		snprintf(buf, buflen, "%s:%u", host, port);
}

void
sock_endpoints(int fd, struct gb_endpoints *e)
{
	struct sockaddr_storage ss;
	socklen_t len;

	memset(e, 0, sizeof(*e));
	len = sizeof(ss);
	memset(&ss, 0, sizeof(ss));
	if (getsockname(fd, (struct sockaddr *)&ss, &len) == 0)
		sock_endpoint_str(&ss, len, e->local, sizeof(e->local));
	len = sizeof(ss);
	memset(&ss, 0, sizeof(ss));
	if (getpeername(fd, (struct sockaddr *)&ss, &len) == 0)
		sock_endpoint_str(&ss, len, e->remote, sizeof(e->remote));
}

uint64_t
sock_raise_nofile(uint64_t want)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) == -1)
		return 0;
	if (rl.rlim_cur == RLIM_INFINITY)
		return UINT64_MAX;
	if ((uint64_t)rl.rlim_cur < want) {
		rl.rlim_cur = rl.rlim_max == RLIM_INFINITY ||
		    (uint64_t)rl.rlim_max > want ? (rlim_t)want : rl.rlim_max;
		(void)setrlimit(RLIMIT_NOFILE, &rl);
		if (getrlimit(RLIMIT_NOFILE, &rl) == -1)
			return 0;
	}
	return rl.rlim_cur == RLIM_INFINITY ? UINT64_MAX :
	    (uint64_t)rl.rlim_cur;
}
