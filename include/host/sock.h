/*
 * sock.h: socket set-up shared by both roles: resolve, listen, connect with
 * a deadline, apply a test's socket options and read back what took effect.
 * Errors name the address and the call.
 */
#ifndef GB_SOCK_H
#define GB_SOCK_H

#include <sys/socket.h>

#include <stddef.h>
#include <stdint.h>

#include "base/params.h"
#include "base/result.h"

struct sock_addr {
	struct sockaddr_storage	ss;
	socklen_t		len;
};

int	sock_resolve(const char *host, uint16_t port, int family,
	    struct sock_addr *, char *err, size_t errlen);
/*
 * This end of a connection as the command line fixes it: -B's address,
 * --bind-dev's interface (SO_BINDTODEVICE: the route too, not only the
 * source address), --cport's port; NULL, NULL, 0: the kernel's choice.
 */
struct sock_local {
	const char	*addr;
	const char	*dev;
	uint16_t	 port;
};

/*
 * A non-blocking listening socket; dual-stack "::" unless -4/-6/-B; on
 * local->dev only when it is set (the sockets it accepts inherit it).
 */
int	sock_listen(const struct sock_local *, uint16_t port, int family,
	    char *err, size_t errlen);
/* SO_BINDTODEVICE to dev (NULL: nothing); -1 with err naming it. */
int	sock_bind_dev(int fd, const char *dev, char *err, size_t errlen);
/* Bind fd in family as l says (nothing for NULL or all unset). */
int	sock_bind_local(int fd, const struct sock_local *l, int family,
	    char *err, size_t errlen);
/*
 * A blocking socket connected to addr within timeout_ms.  params may be
 * NULL (control connection); otherwise the test's options for the role
 * (is_tx) are set before connect(), so the SYN carries the MSS and the
 * window scale fits the buffer.  timeout_ms 0: a non-blocking socket,
 * its connect() perhaps under way (sock_wait_connected says when done).
 */
int	sock_connect(const struct sock_addr *, const struct sock_local *,
	    const struct gb_params *, int is_tx, int timeout_ms,
	    char *err, size_t errlen);
/* fd's connect() done within timeout_ms (0: now?): 0, or -1 (ETIMEDOUT). */
int	sock_wait_connected(int fd, int timeout_ms);
/*
 * Set -b/--sndbuf/--rcvbuf, -M, -D, -C, --tos and --fq-rate for a data
 * socket of the role.
 */
int	sock_apply(int fd, const struct gb_params *, int is_tx,
	    char *err, size_t errlen);
/*
 * Whether this process may set --force-bufs' SO_SNDBUFFORCE (is_tx) or
 * SO_RCVBUFFORCE (CAP_NET_ADMIN): 1 yes, 0 no, -1 unknown (no socket to
 * try it on).
 */
int	sock_can_force_bufs(int is_tx);
/* Requested and effective SO_SNDBUF/SO_RCVBUF of a data socket. */
void	sock_bufs(int fd, const struct gb_params *, int is_tx,
	    struct gb_sockbuf *snd, struct gb_sockbuf *rcv);
/* The TOS byte (IP_TOS or IPV6_TCLASS) of a data socket, or -1. */
int	sock_tos(int fd);
/* SO_MAX_PACING_RATE in bytes/s: 1, or 0 for no limit (or unknown). */
int	sock_fq_rate(int fd, uint64_t *bytes_s);
int	sock_set_nonblock(int fd, int on);
/*
 * A data connection: SO_RCVTIMEO and SO_SNDTIMEO, so that a silent peer
 * ends a blocking call, and TCP_USER_TIMEOUT, so that data the peer does
 * not acknowledge for ms ends the connection.
 */
int	sock_set_timeouts(int fd, int ms);
/* SO_RCVTIMEO alone (a receive path shortens and restores it). */
int	sock_set_rcvtimeo(int fd, int ms);
/* SO_RCVLOWAT, and the value read back (TCP caps it), 0 if unknown. */
uint32_t sock_set_rcvlowat(int fd, uint32_t bytes);
/* Bytes arrived but not yet read (SIOCINQ); 0 if unknown. */
uint64_t sock_inq(int fd);
/* Bytes written but not yet acknowledged (SIOCOUTQ); 0 if unknown. */
uint64_t sock_outq(int fd);
/*
 * A control connection: TCP keepalive probes sized so that a peer that
 * stops answering is dropped within about silent_ms (TCP_KEEPIDLE half of
 * it, then 3 probes), and TCP_USER_TIMEOUT of silent_ms.
 */
int	sock_set_keepalive(int fd, int silent_ms);
/*
 * The socket's two ends as "198.18.0.1:5001" or "[2001:db8::1]:5001"
 * (IPv4-mapped addresses as IPv4); "" for an end it does not have.
 */
void	sock_endpoints(int fd, struct gb_endpoints *);
/*
 * SO_SNDBUF and SO_RCVBUF now, into snd's and rcv's final, and their
 * peak when larger.
 */
void	sock_bufs_now(int fd, struct gb_sockbuf *snd, struct gb_sockbuf *rcv);
const char *sock_ntop(const struct sockaddr *, char *buf, size_t len);

/*
 * sock_udp.c, -u.  The client's stream: a UDP socket connected to the
 * listener's address and port, with the test's buffers and TOS.
 */
int	sock_udp_connect(const struct sock_addr *, const struct sock_local *,
	    const struct gb_params *, int is_tx, char *err, size_t errlen);
/*
 * The listener's greeter: a non-blocking UDP socket on the TCP listener
 * lfd's address and port (SO_REUSEADDR), where streams present the token.
 */
int	sock_udp_greeter(int lfd, char *err, size_t errlen);
/* The listener's stream: the same address and port, connected to peer. */
int	sock_udp_stream(int lfd, const struct sockaddr *peer,
	    socklen_t peerlen, const struct gb_params *, int is_tx,
	    char *err, size_t errlen);
/* TCP_MAXSEG of a connected socket: its MSS; 1448 when unknown. */
uint32_t sock_mss(int fd);
/*
 * The UDP payload a datagram of mtu bytes (0: the path MTU of connected
 * fd, IP_MTU or IPV6_MTU) carries whole over fd's family: the MTU less
 * 28 bytes of IPv4 and UDP headers, or 48 over IPv6; -1 when unknown.
 */
int	sock_dgram_max(int fd, int mtu);

/*
 * Raise this process's soft RLIMIT_NOFILE to want, or as far as the hard
 * limit lets it: many flows need a descriptor each.  The soft limit after
 * (UINT64_MAX: none; 0: unknown).
 */
uint64_t	sock_raise_nofile(uint64_t want);

#endif /* GB_SOCK_H */
