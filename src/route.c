/*
 * route.c: which interface the kernel routes a destination by, asked of
 * rtnetlink with RTM_GETROUTE, as "ip route get" does.
 *
 * This file owns the request, the netlink socket it goes out on and the
 * parse of the reply.  The socket is opened per call and closed on every
 * path; a reply must come within ROUTE_TIMEOUT_MS and carry our sequence
 * number.  It does not change routes, keep state or print.
 */

#include <sys/socket.h>
#include <sys/time.h>

#include <linux/rtnetlink.h>
#include <arpa/inet.h>
#include <net/if.h>
#include <netinet/in.h>

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "host/route.h"

/* The request: header, route message, then RTA_DST, RTA_SRC, RTA_OIF. */
struct route_req {
	struct nlmsghdr	nh;
	struct rtmsg	rt;
	/* cppcheck-suppress unusedStructMember ; route_attr_add() fills it */
	char		attrs[2 * RTA_SPACE(16) + RTA_SPACE(4)];
};

/* An address as a request carries it. */
struct route_ip {
	int		family;
	size_t		len;		/* 4 or 16 */
	unsigned	scope;		/* IPv6 only */
	unsigned char	addr[16];
};

/* A reason into err and errnum into errno; -1. */
static int __attribute__((format(printf, 4, 5)))
route_fail(char *err, size_t errlen, int errnum, const char *fmt, ...)
{
	va_list	ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	errno = errnum;
	return -1;
}

/* The RTA_OIF of one RTM_NEWROUTE message of len bytes at msg. */
static int
route_oif_parse(const unsigned char *msg, size_t len, int *oif, char *err,
    size_t errlen)
{
	struct rtattr	rta;
	size_t		off;
	int		v = 0;

	if (len < NLMSG_LENGTH(sizeof(struct rtmsg)))
		return route_fail(err, errlen, EBADMSG,
		    "truncated route message (%zu bytes)", len);
	for (off = NLMSG_SPACE(sizeof(struct rtmsg)); off + sizeof(rta) <= len;
	    off += RTA_ALIGN(rta.rta_len)) {
		memcpy(&rta, msg + off, sizeof(rta));
		if (rta.rta_len < sizeof(rta) || rta.rta_len > len - off)
			return route_fail(err, errlen, EBADMSG,
			    "truncated route attribute %u", rta.rta_type);
		if (rta.rta_type == RTA_OIF &&
		    rta.rta_len >= RTA_LENGTH(sizeof(v))) {
			memcpy(&v, msg + off + RTA_LENGTH(0), sizeof(v));
			break;
		}
	}
	if (v <= 0)
		return route_fail(err, errlen, EBADMSG,
		    "no output interface (RTA_OIF) in the route");
	*oif = v;
	return 0;
}

/* Without NLM_F_DUMP or NLM_F_ACK the kernel sends one route or one error. */
int
route_parse_reply(const void *buf, size_t len, int *oif, char *err,
    size_t errlen)
{
	struct nlmsghdr	nh;
	struct nlmsgerr	e;

	if (len >= sizeof(nh))
		memcpy(&nh, buf, sizeof(nh));
	if (len < sizeof(nh) || nh.nlmsg_len < sizeof(nh) || nh.nlmsg_len > len)
		return route_fail(err, errlen, EBADMSG,
		    "truncated netlink message (%zu bytes)", len);
	if (nh.nlmsg_type == RTM_NEWROUTE)
		return route_oif_parse(buf, nh.nlmsg_len, oif, err, errlen);
	if (nh.nlmsg_type != NLMSG_ERROR)
		return route_fail(err, errlen, EBADMSG,
		    "unexpected netlink message type %u", nh.nlmsg_type);
	if (nh.nlmsg_len < NLMSG_LENGTH(sizeof(e.error)))
		return route_fail(err, errlen, EBADMSG,
		    "truncated netlink error (%u bytes)", nh.nlmsg_len);
	memcpy(&e.error, (const unsigned char *)buf + NLMSG_HDRLEN,
	    sizeof(e.error));
	if (e.error < 0 && e.error > -4096)
		return route_fail(err, errlen, -e.error, "%s",
		    strerror(-e.error));
	return route_fail(err, errlen, EBADMSG, "netlink error %d and no route",
	    e.error);
}

/* AF_INET or AF_INET6, an IPv4-mapped ::ffff:10.0.0.1 as 10.0.0.1. */
static int
route_ip_get(const struct sockaddr *sa, struct route_ip *ip)
{
	const struct sockaddr_in6	*s6 = (const struct sockaddr_in6 *)sa;

	memset(ip, 0, sizeof(*ip));
	if (sa->sa_family == AF_INET) {
		ip->len = 4;
		memcpy(ip->addr, &((const struct sockaddr_in *)sa)->sin_addr,
		    4);
	} else if (sa->sa_family == AF_INET6) {
		ip->len = IN6_IS_ADDR_V4MAPPED(&s6->sin6_addr) ? 4 : 16;
		memcpy(ip->addr, s6->sin6_addr.s6_addr + 16 - ip->len, ip->len);
		ip->scope = ip->len == 16 ? s6->sin6_scope_id : 0;
	} else
		return -1;
	ip->family = ip->len == 4 ? AF_INET : AF_INET6;
	return 0;
}

static void
route_attr_add(struct route_req *req, unsigned short type, const void *data,
    size_t len)
{
	struct rtattr	*rta;

	rta = (struct rtattr *)((char *)req + NLMSG_ALIGN(req->nh.nlmsg_len));
	rta->rta_type = type;
	rta->rta_len = RTA_LENGTH(len);
	memcpy(RTA_DATA(rta), data, len);
	req->nh.nlmsg_len = NLMSG_ALIGN(req->nh.nlmsg_len) + RTA_SPACE(len);
}

static void
route_req_build(struct route_req *req, const struct route_ip *dst,
    const struct route_ip *src, int oif)
{
	memset(req, 0, sizeof(*req));
	req->nh.nlmsg_len = NLMSG_LENGTH(sizeof(req->rt));
	req->nh.nlmsg_type = RTM_GETROUTE;
	req->nh.nlmsg_flags = NLM_F_REQUEST;
	req->nh.nlmsg_seq = (uint32_t)time(NULL);
	req->rt.rtm_family = dst->family;
	req->rt.rtm_dst_len = dst->len * 8;
	route_attr_add(req, RTA_DST, dst->addr, dst->len);
	if (src != NULL) {
		req->rt.rtm_src_len = src->len * 8;
		route_attr_add(req, RTA_SRC, src->addr, src->len);
	}
	if (oif != 0)
		route_attr_add(req, RTA_OIF, &oif, sizeof(oif));
}

/*
 * Send req to the kernel and read its reply into buf: its length, or -1
 * with a reason in why.  MSG_TRUNC tells a reply that did not fit; one
 * from elsewhere, or for another sequence number, is refused.
 */
static ssize_t
route_ask(const struct route_req *req, void *buf, size_t size, char *why,
    size_t whylen)
{
	struct sockaddr_nl	kernel = { .nl_family = AF_NETLINK }, from;
	struct timeval		tv = { ROUTE_TIMEOUT_MS / 1000,
				    ROUTE_TIMEOUT_MS % 1000 * 1000 };
	struct nlmsghdr		nh;
	socklen_t		fromlen = sizeof(from);
	ssize_t			n = -1;
	int			fd;

	if ((fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC,
	    NETLINK_ROUTE)) == -1)
		return route_fail(why, whylen, errno, "netlink socket: %s",
		    strerror(errno));
	if (setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)) == -1 ||
	    sendto(fd, req, req->nh.nlmsg_len, 0, (struct sockaddr *)&kernel,
	    sizeof(kernel)) == -1) {
		route_fail(why, whylen, errno, "netlink request: %s",
		    strerror(errno));
		goto out;
	}
	/* A timeout makes even SA_RESTART signals interrupt the wait. */
	do
		n = recvfrom(fd, buf, size, MSG_TRUNC,
		    (struct sockaddr *)&from, &fromlen);
	while (n == -1 && errno == EINTR);
	if (n == -1 && errno == EAGAIN)	/* SO_RCVTIMEO ran out */
		n = route_fail(why, whylen, ETIMEDOUT,
		    "no netlink reply in %d ms", ROUTE_TIMEOUT_MS);
	else if (n == -1)
		route_fail(why, whylen, errno, "netlink receive: %s",
		    strerror(errno));
	else if ((size_t)n > size)
		n = route_fail(why, whylen, EMSGSIZE,
		    "netlink reply of %zd bytes is too long", n);
	else if ((size_t)n >= sizeof(nh))
		memcpy(&nh, buf, sizeof(nh));
	/* Only the kernel (port 0) answers, with our sequence number. */
	if (n >= (ssize_t)sizeof(nh) && (from.nl_pid != 0 ||
	    nh.nlmsg_seq != req->nh.nlmsg_seq))
		n = route_fail(why, whylen, EBADMSG,
		    "netlink reply not ours (port %u, sequence %u)",
		    from.nl_pid, nh.nlmsg_seq);
out:
	close(fd);	/* errno stays: close() sets it only on failure */
	return n;
}

int
route_egress(const struct sockaddr *dst, const struct sockaddr *src, int oif,
    char *ifname, size_t len, char *err, size_t errlen)
{
	static const unsigned char zero[16];
	struct route_req	 req;
	struct route_ip		 d, s;
	uint32_t		 reply[2048];	/* a route is ~100 bytes */
	char			 what[160], why[128];
	size_t			 w;
	ssize_t			 n;
	int			 out, has_src;

	if (len > 0)
		ifname[0] = '\0';
	if (len < IF_NAMESIZE || dst == NULL || route_ip_get(dst, &d) == -1)
		return route_fail(err, errlen, EINVAL, "route: %s",
		    len < IF_NAMESIZE ? "name buffer is too small" :
		    "destination is not IPv4 or IPv6");
	/* inet_ntop() fails only on another family or a short buffer. */
	inet_ntop(d.family, d.addr, what, sizeof(what));
	/* An unbound socket's 0.0.0.0 or :: is no source. */
	has_src = src != NULL && (route_ip_get(src, &s) == -1 ||
	    memcmp(s.addr, zero, sizeof(zero)) != 0);
	if (has_src && s.family != d.family)
		return route_fail(err, errlen, EAFNOSUPPORT,
		    "route to %s: source of another family", what);
	if (has_src) {
		w = strlen(what);
		memcpy(what + w, " from ", 6);
		inet_ntop(s.family, s.addr, what + w + 6, sizeof(what) - w - 6);
	}
	oif = oif != 0 ? oif : (int)d.scope;	/* fe80::1%eth0 */
	w = strlen(what);
	if (oif != 0)
		snprintf(what + w, sizeof(what) - w,
		    " out of interface index %d", oif);
	route_req_build(&req, &d, has_src ? &s : NULL, oif);
	if ((n = route_ask(&req, reply, sizeof(reply), why, sizeof(why))) ==
	    -1 || route_parse_reply(reply, (size_t)n, &out, why,
	    sizeof(why)) == -1)
		return route_fail(err, errlen, errno, "route to %s: %s", what,
		    why);
	if (if_indextoname((unsigned)out, ifname) == NULL)
		return route_fail(err, errlen, errno,
		    "route to %s: interface index %d: %s", what, out,
		    strerror(errno));
	return 0;
}

int
route_egress_fd(int fd, char *ifname, size_t len, char *err, size_t errlen)
{
	struct sockaddr_storage	 peer, local;
	socklen_t		 plen = sizeof(peer), llen = sizeof(local);
	socklen_t		 dlen = IF_NAMESIZE;
	char			 dev[IF_NAMESIZE] = "";
	unsigned		 oif = 0;

	if (len > 0)
		ifname[0] = '\0';
	if (getpeername(fd, (struct sockaddr *)&peer, &plen) == -1 ||
	    getsockname(fd, (struct sockaddr *)&local, &llen) == -1)
		return route_fail(err, errlen, errno, "route: socket %d: %s",
		    fd, strerror(errno));
	/* Unbound: length 0.  The name, not the index, works before 5.0. */
	if (getsockopt(fd, SOL_SOCKET, SO_BINDTODEVICE, dev, &dlen) == 0 &&
	    dev[0] != '\0' && (oif = if_nametoindex(dev)) == 0)
		return route_fail(err, errlen, errno,
		    "route: bound device %s: %s", dev, strerror(errno));
	return route_egress((struct sockaddr *)&peer, (struct sockaddr *)&local,
	    (int)oif, ifname, len, err, errlen);
}
