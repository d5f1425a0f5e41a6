/*
 * test_route.c: the rtnetlink reply parser on hand-built messages (a
 * route with RTA_OIF, the kernel's NLMSG_ERROR, truncations, a route
 * without RTA_OIF, other message types), then this host's own routing
 * table without root: 127.0.0.1 and ::1 leave by "lo", from a connected
 * UDP socket too (connect() sends nothing), so does 198.18.0.2 out of lo
 * by index or SO_BINDTODEVICE, and refusals name the address.
 */

#include <sys/socket.h>

#include <arpa/inet.h>
#include <linux/rtnetlink.h>
#include <net/if.h>
#include <netinet/in.h>

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "host/netif.h"
#include "host/route.h"

/* Room for one message, aligned as the kernel's are. */
union nlbuf {
	struct nlmsghdr	nh;
	uint32_t	align;
	unsigned char	b[512];
};

static size_t
attr_put(unsigned char *b, size_t off, unsigned short type, const void *data,
    size_t len)
{
	struct rtattr	rta = { .rta_len = RTA_LENGTH(len), .rta_type = type };

	memcpy(b + off, &rta, sizeof(rta));
	memcpy(b + off + RTA_LENGTH(0), data, len);
	return off + RTA_SPACE(len);
}

static void
hdr_put(unsigned char *b, size_t len, unsigned short type)
{
	struct nlmsghdr	nh = { .nlmsg_len = len, .nlmsg_type = type,
			    .nlmsg_seq = 7 };

	memcpy(b, &nh, sizeof(nh));
}

/*
 * What "ip route get 198.18.0.2" reads back: an RTM_NEWROUTE with
 * RTA_TABLE, RTA_DST, RTA_OIF (when oif is not -1) and RTA_PREFSRC.
 */
static size_t
route_msg(union nlbuf *m, int oif)
{
	struct rtmsg	rt = { .rtm_family = AF_INET, .rtm_dst_len = 32,
			    .rtm_table = RT_TABLE_MAIN,
			    .rtm_type = RTN_UNICAST };
	uint32_t	table = RT_TABLE_MAIN;
	struct in_addr	dst, src;
	size_t		off = NLMSG_SPACE(sizeof(rt));

	memset(m, 0, sizeof(*m));
	assert_int_equal(inet_pton(AF_INET, "198.18.0.2", &dst), 1);
	assert_int_equal(inet_pton(AF_INET, "192.0.2.2", &src), 1);
	memcpy(m->b + NLMSG_HDRLEN, &rt, sizeof(rt));
	off = attr_put(m->b, off, RTA_TABLE, &table, sizeof(table));
	off = attr_put(m->b, off, RTA_DST, &dst, sizeof(dst));
	if (oif != -1)
		off = attr_put(m->b, off, RTA_OIF, &oif, sizeof(oif));
	off = attr_put(m->b, off, RTA_PREFSRC, &src, sizeof(src));
	hdr_put(m->b, off, RTM_NEWROUTE);
	return off;
}

/* An NLMSG_ERROR of error, echoing a request header as the kernel does. */
static size_t
error_msg(union nlbuf *m, int error)
{
	struct nlmsgerr	e;

	memset(m, 0, sizeof(*m));
	memset(&e, 0, sizeof(e));
	e.error = error;
	e.msg.nlmsg_len = NLMSG_LENGTH(sizeof(struct rtmsg));
	e.msg.nlmsg_type = RTM_GETROUTE;
	e.msg.nlmsg_flags = NLM_F_REQUEST;
	memcpy(m->b + NLMSG_HDRLEN, &e, sizeof(e));
	hdr_put(m->b, NLMSG_LENGTH(sizeof(e)), NLMSG_ERROR);
	return NLMSG_LENGTH(sizeof(e));
}

/* route_parse_reply() of len bytes at buf: -1 or the interface index. */
static int
parse(const void *buf, size_t len, char *err, size_t errlen)
{
	int	oif = -7;

	err[0] = '\0';
	if (route_parse_reply(buf, len, &oif, err, errlen) == -1) {
		assert_int_equal(oif, -7);	/* untouched */
		assert_true(err[0] != '\0');
		return -1;
	}
	return oif;
}

static void
test_parse_route(void **state)
{
	union nlbuf	m;
	unsigned char	odd[sizeof(m.b) + 1];
	char		err[128];
	size_t		len;

	(void)state;
	len = route_msg(&m, 3);
	assert_int_equal(parse(m.b, len, err, sizeof(err)), 3);
	/* Trailing bytes after the one message are not read. */
	assert_int_equal(parse(m.b, len + 16, err, sizeof(err)), 3);
	/* Nor need the buffer be aligned. */
	memcpy(odd + 1, m.b, len);
	assert_int_equal(parse(odd + 1, len, err, sizeof(err)), 3);
	len = route_msg(&m, 0x7fffffff);
	assert_int_equal(parse(m.b, len, err, sizeof(err)), 0x7fffffff);
}

static void
test_parse_error(void **state)
{
	union nlbuf	m;
	char		err[128];
	size_t		len;

	(void)state;
	len = error_msg(&m, -ENETUNREACH);
	errno = 0;
	assert_int_equal(parse(m.b, len, err, sizeof(err)), -1);
	assert_int_equal(errno, ENETUNREACH);
	assert_string_equal(err, strerror(ENETUNREACH));
	len = error_msg(&m, -ENODEV);
	assert_int_equal(parse(m.b, len, err, sizeof(err)), -1);
	assert_int_equal(errno, ENODEV);
	assert_string_equal(err, "No such device");
	/* Only the error number: the echoed request may be cut. */
	hdr_put(m.b, NLMSG_LENGTH(sizeof(int)), NLMSG_ERROR);
	assert_int_equal(parse(m.b, NLMSG_LENGTH(sizeof(int)), err,
	    sizeof(err)), -1);
	assert_int_equal(errno, ENODEV);
	/* An acknowledgement, or an error number that is none, is no route. */
	len = error_msg(&m, 0);
	assert_int_equal(parse(m.b, len, err, sizeof(err)), -1);
	assert_int_equal(errno, EBADMSG);
	assert_non_null(strstr(err, "netlink error 0"));
	len = error_msg(&m, 5);
	assert_int_equal(parse(m.b, len, err, sizeof(err)), -1);
	len = error_msg(&m, INT_MIN);
	assert_int_equal(parse(m.b, len, err, sizeof(err)), -1);
	assert_int_equal(errno, EBADMSG);
}

static void
test_parse_truncated(void **state)
{
	union nlbuf	m;
	char		err[128];
	size_t		len, cut;

	(void)state;
	len = route_msg(&m, 3);
	/* Every shorter buffer: never a route, never a read past it. */
	for (cut = 0; cut < len; cut++) {
		assert_int_equal(parse(m.b, cut, err, sizeof(err)), -1);
		assert_int_equal(errno, EBADMSG);
		assert_non_null(strstr(err, "truncated netlink message"));
	}
	/* The header agrees, but RTA_OIF (the last 8 bytes but 8) runs past. */
	hdr_put(m.b, len - 10, RTM_NEWROUTE);
	assert_int_equal(parse(m.b, len - 10, err, sizeof(err)), -1);
	assert_string_equal(err, "truncated route attribute 4");
	/* Cut inside RTA_PREFSRC: RTA_OIF, before it, is found first. */
	hdr_put(m.b, len - 2, RTM_NEWROUTE);
	assert_int_equal(parse(m.b, len - 2, err, sizeof(err)), 3);
	/* A header longer than the message, or shorter than itself. */
	hdr_put(m.b, len + 4, RTM_NEWROUTE);
	assert_int_equal(parse(m.b, len, err, sizeof(err)), -1);
	hdr_put(m.b, NLMSG_HDRLEN - 1, RTM_NEWROUTE);
	assert_int_equal(parse(m.b, len, err, sizeof(err)), -1);
	/* An error without its number. */
	len = error_msg(&m, -ENETUNREACH);
	hdr_put(m.b, NLMSG_HDRLEN + 2, NLMSG_ERROR);
	assert_int_equal(parse(m.b, len, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "truncated netlink error"));
	/* A route message without its rtmsg has no RTA_OIF either. */
	hdr_put(m.b, NLMSG_HDRLEN + 4, RTM_NEWROUTE);
	assert_int_equal(parse(m.b, len, err, sizeof(err)), -1);
}

static void
test_parse_no_oif(void **state)
{
	union nlbuf	m;
	char		err[128];
	size_t		len;
	uint16_t	six = RTA_LENGTH(2);

	(void)state;
	len = route_msg(&m, -1);
	assert_int_equal(parse(m.b, len, err, sizeof(err)), -1);
	assert_int_equal(errno, EBADMSG);
	assert_string_equal(err,
	    "no output interface (RTA_OIF) in the route");
	/* Index 0 is no interface. */
	len = route_msg(&m, 0);
	assert_int_equal(parse(m.b, len, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "RTA_OIF"));
	/* An RTA_OIF too short for its int: the third attribute's rta_len. */
	len = route_msg(&m, 3);
	memcpy(m.b + NLMSG_SPACE(sizeof(struct rtmsg)) + 2 * RTA_SPACE(4),
	    &six, sizeof(six));
	assert_int_equal(parse(m.b, len, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "RTA_OIF"));
}

static void
test_parse_type(void **state)
{
	union nlbuf	m;
	char		err[128];
	size_t		len;

	(void)state;
	len = route_msg(&m, 3);
	hdr_put(m.b, len, RTM_NEWLINK);
	assert_int_equal(parse(m.b, len, err, sizeof(err)), -1);
	assert_int_equal(errno, EBADMSG);
	assert_string_equal(err, "unexpected netlink message type 16");
	hdr_put(m.b, len, RTM_GETROUTE);
	assert_int_equal(parse(m.b, len, err, sizeof(err)), -1);
	hdr_put(m.b, NLMSG_HDRLEN + 4, NLMSG_DONE);
	assert_int_equal(parse(m.b, len, err, sizeof(err)), -1);
	assert_string_equal(err, "unexpected netlink message type 3");
}

static void
sin_set(struct sockaddr_in *sin, const char *addr, unsigned short port)
{
	memset(sin, 0, sizeof(*sin));
	sin->sin_family = AF_INET;
	sin->sin_port = htons(port);
	assert_int_equal(inet_pton(AF_INET, addr, &sin->sin_addr), 1);
}

static void
sin6_set(struct sockaddr_in6 *sin6, const char *addr, unsigned short port)
{
	memset(sin6, 0, sizeof(*sin6));
	sin6->sin6_family = AF_INET6;
	sin6->sin6_port = htons(port);
	assert_int_equal(inet_pton(AF_INET6, addr, &sin6->sin6_addr), 1);
}

/* route_egress(): 0 and the name, or -1 and "" with the reason in err. */
static const char *
egress(const void *dst, const void *src, int oif, char *name, char *err,
    size_t errlen)
{
	err[0] = '\0';
	if (route_egress(dst, src, oif, name, IF_NAMESIZE, err, errlen) ==
	    -1) {
		assert_string_equal(name, "");
		assert_true(err[0] != '\0');
	}
	return name;
}

static void
test_egress_lo(void **state)
{
	struct sockaddr_in	dst, src;
	struct sockaddr_in6	mapped;
	char			name[IF_NAMESIZE], err[256];

	(void)state;
	sin_set(&dst, "127.0.0.1", 0);
	assert_string_equal(egress(&dst, NULL, 0, name, err, sizeof(err)),
	    "lo");
	sin_set(&src, "127.0.0.1", 0);
	assert_string_equal(egress(&dst, &src, 0, name, err, sizeof(err)),
	    "lo");
	/* An unbound socket's source, 0.0.0.0, is no source. */
	sin_set(&src, "0.0.0.0", 0);
	assert_string_equal(egress(&dst, &src, 0, name, err, sizeof(err)),
	    "lo");
	sin_set(&dst, "127.0.0.2", 0);
	assert_string_equal(egress(&dst, NULL, 0, name, err, sizeof(err)),
	    "lo");
	/* IPv4-mapped: asked as IPv4, whether or not IPv6 is there. */
	sin6_set(&mapped, "::ffff:127.0.0.1", 0);
	assert_string_equal(egress(&mapped, NULL, 0, name, err, sizeof(err)),
	    "lo");
	assert_string_equal(egress(&mapped, &mapped, 0, name, err,
	    sizeof(err)), "lo");
	/*
	 * Out of lo by index, where no route says lo: with an oif and no
	 * matching route the kernel takes the destination to be on link.
	 */
	sin_set(&dst, "198.18.0.2", 0);
	assert_string_equal(egress(&dst, NULL, (int)if_nametoindex("lo"),
	    name, err, sizeof(err)), "lo");
}

/* A UDP socket of family af connected to sa: connect() sends nothing. */
static int
udp_connected(int af, const void *sa, socklen_t len)
{
	int	fd;

	if ((fd = socket(af, SOCK_DGRAM | SOCK_CLOEXEC, 0)) == -1)
		return -1;
	if (connect(fd, sa, len) == -1) {
		close(fd);
		return -1;
	}
	return fd;
}

static void
test_egress_fd(void **state)
{
	struct sockaddr_in	dst;
	char			name[IF_NAMESIZE], err[256];
	int			fd;

	(void)state;
	sin_set(&dst, "127.0.0.1", 9);
	assert_true((fd = udp_connected(AF_INET, &dst, sizeof(dst))) >= 0);
	assert_int_equal(route_egress_fd(fd, name, sizeof(name), err,
	    sizeof(err)), 0);
	assert_string_equal(name, "lo");
	close(fd);
	/* Not connected: no peer to route to. */
	assert_true((fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0)) >= 0);
	strcpy(name, "x");
	assert_int_equal(route_egress_fd(fd, name, sizeof(name), err,
	    sizeof(err)), -1);
	assert_int_equal(errno, ENOTCONN);
	assert_string_equal(name, "");
	assert_non_null(strstr(err, strerror(ENOTCONN)));
	close(fd);
	/* Not a socket. */
	assert_int_equal(route_egress_fd(-1, name, sizeof(name), err,
	    sizeof(err)), -1);
	assert_int_equal(errno, EBADF);
}

/* SO_BINDTODEVICE "lo" (no privilege since 5.7), then 198.18.0.2 is on lo. */
static void
test_egress_fd_bound(void **state)
{
	struct sockaddr_in	dst;
	char			name[IF_NAMESIZE], err[256];
	int			fd;

	(void)state;
	sin_set(&dst, "198.18.0.2", 9);
	assert_true((fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0)) >= 0);
	if (setsockopt(fd, SOL_SOCKET, SO_BINDTODEVICE, "lo", 3) == -1) {
		print_message("skip: SO_BINDTODEVICE lo: %s\n",
		    strerror(errno));
		close(fd);
		skip();
	}
	assert_int_equal(connect(fd, (struct sockaddr *)&dst, sizeof(dst)), 0);
	assert_int_equal(route_egress_fd(fd, name, sizeof(name), err,
	    sizeof(err)), 0);
	assert_string_equal(name, "lo");
	close(fd);
}

/* Has this host ::1 on an interface (IPv6 on, lo not disabled)? */
static int
has_v6_loopback(void)
{
	FILE	*fp;
	char	 line[256];
	int	 yes = 0;

	if ((fp = fopen("/proc/net/if_inet6", "re")) == NULL)
		return 0;
	while (fgets(line, sizeof(line), fp) != NULL)
		if (strncmp(line, "00000000000000000000000000000001", 32) == 0)
			yes = 1;
	fclose(fp);
	return yes;
}

static void
test_egress_v6(void **state)
{
	struct sockaddr_in6	dst;
	char			name[IF_NAMESIZE], err[256];
	int			fd;

	(void)state;
	if (!has_v6_loopback()) {
		print_message("skip: no ::1 in /proc/net/if_inet6 (IPv6 off "
		    "or disabled on lo)\n");
		skip();
	}
	sin6_set(&dst, "::1", 9);
	assert_string_equal(egress(&dst, NULL, 0, name, err, sizeof(err)),
	    "lo");
	assert_string_equal(egress(&dst, &dst, 0, name, err, sizeof(err)),
	    "lo");
	assert_true((fd = udp_connected(AF_INET6, &dst, sizeof(dst))) >= 0);
	assert_int_equal(route_egress_fd(fd, name, sizeof(name), err,
	    sizeof(err)), 0);
	assert_string_equal(name, "lo");
	close(fd);
}

/* An AF_INET6 socket connected to ::ffff:127.0.0.1 speaks IPv4. */
static void
test_egress_fd_mapped(void **state)
{
	struct sockaddr_in6	dst;
	char			name[IF_NAMESIZE], err[256];
	int			fd;

	(void)state;
	sin6_set(&dst, "::ffff:127.0.0.1", 9);
	if ((fd = udp_connected(AF_INET6, &dst, sizeof(dst))) == -1) {
		print_message("skip: no AF_INET6 socket connected to "
		    "::ffff:127.0.0.1: %s\n", strerror(errno));
		skip();
	}
	assert_int_equal(route_egress_fd(fd, name, sizeof(name), err,
	    sizeof(err)), 0);
	assert_string_equal(name, "lo");
	close(fd);
}

/* An interface index this host does not have. */
static int
no_such_index(void)
{
	char	name[IF_NAMESIZE];
	int	i;

	for (i = 1000000; if_indextoname((unsigned)i, name) != NULL; i++)
		;
	return i;
}

static void
test_egress_errors(void **state)
{
	struct sockaddr_in	dst, src;
	struct sockaddr_in6	v6;
	struct sockaddr		unix_sa = { .sa_family = AF_UNIX };
	char			name[IF_NAMESIZE], err[256], want[128];
	int			oif;

	(void)state;
	/* Out of an interface that does not exist: the kernel's ENODEV. */
	sin_set(&dst, "198.18.0.2", 0);
	oif = no_such_index();
	assert_string_equal(egress(&dst, NULL, oif, name, err, sizeof(err)),
	    "");
	snprintf(want, sizeof(want),
	    "route to 198.18.0.2 out of interface index %d: ", oif);
	assert_memory_equal(err, want, strlen(want));
	assert_int_equal(errno, ENODEV);
	/* Refused before asking. */
	sin6_set(&v6, "::1", 0);
	assert_string_equal(egress(&dst, &v6, 0, name, err, sizeof(err)), "");
	assert_string_equal(err,
	    "route to 198.18.0.2: source of another family");
	assert_string_equal(egress(&unix_sa, NULL, 0, name, err, sizeof(err)),
	    "");
	assert_string_equal(err, "route: destination is not IPv4 or IPv6");
	assert_string_equal(egress(NULL, NULL, 0, name, err, sizeof(err)), "");
	assert_int_equal(route_egress((struct sockaddr *)&dst, NULL, 0, name,
	    IF_NAMESIZE - 1, err, sizeof(err)), -1);
	assert_string_equal(err, "route: name buffer is too small");
	assert_string_equal(name, "");
	/* From an address that is not ours (ENETUNREACH, EINVAL before). */
	sin_set(&src, "203.0.113.77", 0);
	if (netif_name_for_addr((struct sockaddr *)&src, name,
	    sizeof(name)) == 0) {
		print_message("skip: 203.0.113.77 is local, on %s\n", name);
		skip();
	}
	assert_string_equal(egress(&dst, &src, 0, name, err, sizeof(err)),
	    "");
	assert_non_null(strstr(err, "route to 198.18.0.2 from 203.0.113.77: "));
	assert_true(errno == ENETUNREACH || errno == EINVAL);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_route),
		cmocka_unit_test(test_parse_error),
		cmocka_unit_test(test_parse_truncated),
		cmocka_unit_test(test_parse_no_oif),
		cmocka_unit_test(test_parse_type),
		cmocka_unit_test(test_egress_lo),
		cmocka_unit_test(test_egress_fd),
		cmocka_unit_test(test_egress_fd_bound),
		cmocka_unit_test(test_egress_v6),
		cmocka_unit_test(test_egress_fd_mapped),
		cmocka_unit_test(test_egress_errors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
