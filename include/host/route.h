/*
 * route.h: the interface a connected socket's packets leave by, as the
 * kernel's routing decision says (rtnetlink RTM_GETROUTE), which may not
 * be the interface that holds its local address (netif_name_for_addr()).
 * One netlink request and one reply per call, each on a socket of its
 * own, with a receive timeout; nothing is kept between calls, no route or
 * socket option is changed, and no privilege is needed.  It does not
 * read sysfs, tell what kind of interface the answer is (netif.h does) or
 * see policy that keys on a socket's mark, uid or ports.
 */
#ifndef GB_ROUTE_H
#define GB_ROUTE_H

#include <sys/socket.h>

#include <stddef.h>

#define ROUTE_TIMEOUT_MS 1000	/* the kernel's reply, at most */

/*
 * The RTA_OIF of the RTM_NEWROUTE message in len bytes of a netlink
 * reply, into oif.  Pure; buf need not be aligned.  0, or -1 with a
 * reason in err: the kernel's NLMSG_ERROR as strerror(-error) (and errno
 * -error), otherwise errno EBADMSG for a truncated message, a route
 * without RTA_OIF, a message of another type or no route at all.
 */
int	route_parse_reply(const void *buf, size_t len, int *oif, char *err,
	    size_t errlen);
/*
 * The interface the kernel routes packets to dst by (AF_INET or
 * AF_INET6, an IPv4-mapped IPv6 address as IPv4): from src unless it is
 * NULL or unspecified, out of interface index oif unless it is 0 (then a
 * link-local dst's scope id).  0 and the name in ifname (len at least
 * IF_NAMESIZE); -1 with errno, ifname "" and a reason naming dst in err
 * ("route to 198.18.0.2: Network is unreachable").
 */
int	route_egress(const struct sockaddr *dst, const struct sockaddr *src,
	    int oif, char *ifname, size_t len, char *err, size_t errlen);
/*
 * The interface the kernel routes a connected socket's packets by:
 * RTM_GETROUTE for its peer address, with its local address as source
 * and its bound device (SO_BINDTODEVICE) if any.  0 and the name in
 * ifname; -1 with errno and a reason naming the address in err.
 */
int	route_egress_fd(int fd, char *ifname, size_t len, char *err,
	    size_t errlen);

#endif /* GB_ROUTE_H */
