/*
 * sock_udp.c: the datagram sockets of a UDP test (host/sock.h).  The
 * client connects one socket per stream to the listener's port; the
 * listener binds a greeter on its own address and port (UDP and TCP ports
 * are apart, so the number is the control port's, as iperf3 does) and,
 * for each stream that presents the session's token, a socket of its own
 * bound to the same address and port and connected to the one source
 * that proved itself: the kernel then hands that source's datagrams to
 * it (a connected socket matches better) and nobody else's.  Nothing here
 * reads or writes a datagram.  The path's sizes too: the MTU of a
 * connected socket, the MSS of a TCP one (-l mtu).
 */
#include <sys/socket.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <net/if.h>

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "host/sock.h"

/* A datagram socket of the family, with SO_REUSEADDR when shared. */
static int
udp_socket(int family, int shared, char *err, size_t errlen)
{
	int fd, on = 1;

	if ((fd = socket(family, SOCK_DGRAM | SOCK_CLOEXEC, 0)) == -1) {
		snprintf(err, errlen, "socket (UDP): %s", strerror(errno));
		return -1;
	}
	if (shared && setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on,
	    sizeof(on)) == -1) {
		snprintf(err, errlen, "setsockopt SO_REUSEADDR: %s",
		    strerror(errno));
		close(fd);
		return -1;
	}
	return fd;
}

int
sock_udp_connect(const struct sock_addr *a, const struct sock_local *l,
    const struct gb_params *p, int is_tx, char *err, size_t errlen)
{
	char name[INET6_ADDRSTRLEN];
	int fd;

	if ((fd = udp_socket(a->ss.ss_family, 0, err, errlen)) == -1)
		return -1;
	if (sock_apply(fd, p, is_tx, err, errlen) == -1)
		goto fail;
	if (sock_bind_local(fd, l, a->ss.ss_family, err, errlen) == -1)
		goto fail;
	if (connect(fd, (const struct sockaddr *)&a->ss, a->len) == -1) {
		snprintf(err, errlen, "cannot connect (UDP) to %s: %s",
		    sock_ntop((const struct sockaddr *)&a->ss, name,
		    sizeof(name)), strerror(errno));
		goto fail;
	}
	return fd;
fail:
	close(fd);
	return -1;
}

/* The TCP listener's address and port, and its IPV6_V6ONLY. */
static int
listen_addr(int lfd, struct sock_addr *me, int *v6only, char *err,
    size_t errlen)
{
	socklen_t len = sizeof(*v6only);

	me->len = sizeof(me->ss);
	*v6only = 0;
	if (getsockname(lfd, (struct sockaddr *)&me->ss, &me->len) == -1) {
		snprintf(err, errlen, "getsockname: %s", strerror(errno));
		return -1;
	}
	if (me->ss.ss_family == AF_INET6)
		(void)getsockopt(lfd, IPPROTO_IPV6, IPV6_V6ONLY, v6only, &len);
	return 0;
}

/* A shared socket on the listener's address and port. */
static int
udp_on_listener(int lfd, char *err, size_t errlen)
{
	struct sock_addr me;
	int fd, v6only;

	char dev[IFNAMSIZ] = "";
	socklen_t devlen = sizeof(dev);

	if (listen_addr(lfd, &me, &v6only, err, errlen) == -1 ||
	    (fd = udp_socket(me.ss.ss_family, 1, err, errlen)) == -1)
		return -1;
	/* --bind-dev on the listener: its UDP sockets are bound alike. */
	if (getsockopt(lfd, SOL_SOCKET, SO_BINDTODEVICE, dev, &devlen) == 0 &&
	    dev[0] != '\0' && sock_bind_dev(fd, dev, err, errlen) == -1) {
		close(fd);
		return -1;
	}
	if ((me.ss.ss_family == AF_INET6 && setsockopt(fd, IPPROTO_IPV6,
	    IPV6_V6ONLY, &v6only, sizeof(v6only)) == -1) ||
	    bind(fd, (struct sockaddr *)&me.ss, me.len) == -1) {
		snprintf(err, errlen, "cannot bind a UDP socket to the "
		    "listener's port: %s", strerror(errno));
		close(fd);
		return -1;
	}
	return fd;
}

int
sock_udp_greeter(int lfd, char *err, size_t errlen)
{
	int fd = udp_on_listener(lfd, err, errlen);

	if (fd != -1)
		sock_set_nonblock(fd, 1);
	return fd;
}

int
sock_udp_stream(int lfd, const struct sockaddr *peer, socklen_t peerlen,
    const struct gb_params *p, int is_tx, char *err, size_t errlen)
{
	int fd;

	if ((fd = udp_on_listener(lfd, err, errlen)) == -1)
		return -1;
	if (sock_apply(fd, p, is_tx, err, errlen) == -1 ||
	    connect(fd, peer, peerlen) == -1) {
		if (err[0] == '\0')
			snprintf(err, errlen, "cannot connect a UDP stream: %s",
			    strerror(errno));
		close(fd);
		return -1;
	}
	return fd;
}

uint32_t
sock_mss(int fd)
{
	socklen_t len;
	int mss = 0;

	len = sizeof(mss);
	if (getsockopt(fd, IPPROTO_TCP, TCP_MAXSEG, &mss, &len) == -1 ||
	    mss <= 0)
		return 1448;
	return (uint32_t)mss;
}

int
sock_dgram_max(int fd, int mtu)
{
	struct sockaddr_storage ss;
	socklen_t len = sizeof(ss);
	int v6;

	if (getsockname(fd, (struct sockaddr *)&ss, &len) == -1)
		return -1;
	v6 = ss.ss_family == AF_INET6;
	len = sizeof(mtu);
	if (mtu == 0 && (v6 ?
	    getsockopt(fd, IPPROTO_IPV6, IPV6_MTU, &mtu, &len) :
	    getsockopt(fd, IPPROTO_IP, IP_MTU, &mtu, &len)) == -1)
		return -1;
	mtu -= v6 ? 48 : 28;	/* IPv6 or IPv4, and UDP, headers */
	return mtu > 0 ? mtu : -1;
}
