/*
 * capture.c: --capture, a libpcap capture of the test's own flows.
 *
 * It owns one pcap handle and one thread that runs pcap_dispatch() until
 * capture_stop().  The callback sorts each frame into tx (sent from the
 * local address) or rx and counts it by pcap_pkthdr.len, the length the
 * kernel saw, which is what shows GSO/GRO aggregates; the snapshot is cut
 * at CAPTURE_SNAPLEN since only the headers are read.  The counts live in
 * the capture struct, written by the thread alone and read by
 * capture_stop() after the join, so nothing needs a lock.
 *
 * It must not print, exit, or know about the test beyond two addresses
 * and a port; the caller decides where a failure's reason goes.  The
 * JSON codec is capture_json.c (codec), the text lines capture_text.c (out).
 */
#include <sys/types.h>
#include <sys/socket.h>

#include <arpa/inet.h>
#include <netinet/in.h>

#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>
#include <pcap/pcap.h>

#include "host/capture.h"

#define CAPTURE_ETH_IPV4	0x0800
#define CAPTURE_ETH_IPV6	0x86dd
#define CAPTURE_IPPROTO_TCP	6
#define CAPTURE_MAX_VLANS	2	/* 802.1ad QinQ: outer and inner */
#define CAPTURE_MAX_EXTHDRS	8	/* IPv6 extension headers walked */
#define CAPTURE_DRAIN_PASSES	64	/* bounds the final non-blocking read */

/* What a frame's IP and TCP headers say. */
struct capture_hdrs {
	int		family;
	const uint8_t	*src;
	const uint8_t	*dst;
	uint16_t	sport;
	uint16_t	dport;
};

struct capture {
	pcap_t			*pcap;
	pthread_t		 thread;
	atomic_int		 stop;
	int			 linktype;
	struct capture_flow	 flow;
	struct gb_capture	 counts;	/* the thread's, until joined */
	uint64_t		 unclassified;
	char			 err[PCAP_ERRBUF_SIZE]; /* why the thread ended */
};

static int	capture_fail(char *, size_t, const char *, ...)
		    __attribute__((__format__(__printf__, 3, 4)));
static const uint8_t *capture_addr(const struct sockaddr *, int *,
		    uint16_t *);
static uint16_t	capture_be16(const uint8_t *);
static int	capture_l3(const uint8_t *, size_t, int, size_t *);
static int	capture_ip(const uint8_t *, size_t, struct capture_hdrs *);
static int	capture_ipv6(const uint8_t *, size_t, struct capture_hdrs *);
static int	capture_tcp(const uint8_t *, size_t, uint8_t,
		    struct capture_hdrs *);
static void	capture_frame(u_char *, const struct pcap_pkthdr *,
		    const u_char *);
static void	*capture_run(void *);
static pcap_t	*capture_open(const char *, char *, size_t);
static int	capture_setfilter(pcap_t *, const struct capture_flow *,
		    char *, size_t);

static int
capture_fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list	 ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -1;
}

/* The address bytes of sa, an IPv4-mapped IPv6 address as IPv4. */
static const uint8_t *
capture_addr(const struct sockaddr *sa, int *family, uint16_t *port)
{
	const struct sockaddr_in	*sin;
	const struct sockaddr_in6	*sin6;

	if (sa == NULL)
		return NULL;
	if (sa->sa_family == AF_INET) {
		sin = (const struct sockaddr_in *)(const void *)sa;
		*family = AF_INET;
		*port = ntohs(sin->sin_port);
		return (const uint8_t *)&sin->sin_addr;
	}
	if (sa->sa_family != AF_INET6)
		return NULL;
	sin6 = (const struct sockaddr_in6 *)(const void *)sa;
	*port = ntohs(sin6->sin6_port);
	if (IN6_IS_ADDR_V4MAPPED(&sin6->sin6_addr)) {
		*family = AF_INET;
		return sin6->sin6_addr.s6_addr + 12;
	}
	*family = AF_INET6;
	return sin6->sin6_addr.s6_addr;
}

int
capture_flow_init(struct capture_flow *f, const struct sockaddr *local,
    const struct sockaddr *peer, uint16_t port, char *err, size_t errlen)
{
	const uint8_t	*l, *p;
	int		 lfam = 0, pfam = 0;
	uint16_t	 lport = 0, pport = 0;

	memset(f, 0, sizeof(*f));
	if ((l = capture_addr(local, &lfam, &lport)) == NULL)
		return capture_fail(err, errlen,
		    "local address is not IPv4 or IPv6");
	if ((p = capture_addr(peer, &pfam, &pport)) == NULL)
		return capture_fail(err, errlen,
		    "peer address is not IPv4 or IPv6");
	if (lfam != pfam)
		return capture_fail(err, errlen,
		    "local and peer addresses are of different families");
	f->family = lfam;
	memcpy(f->local, l, lfam == AF_INET ? 4 : 16);
	memcpy(f->peer, p, lfam == AF_INET ? 4 : 16);
	f->port = port;
	f->listener = lport == port;
	return 0;
}

int
capture_filter(const struct capture_flow *f, char *buf, size_t len)
{
	char	 host[INET6_ADDRSTRLEN];
	int	 n;

	if (inet_ntop(f->family, f->peer, host, sizeof(host)) == NULL)
		return -1;
	n = snprintf(buf, len, "tcp and host %s and port %u", host,
	    (unsigned)f->port);
	return n < 0 || (size_t)n >= len ? -1 : 0;
}

static uint16_t
capture_be16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

/*
 * The offset of the IP header in a frame of linktype, or -1.  Where the
 * link header names the protocol, it must be IPv4 or IPv6; where it does
 * not (DLT_NULL's family is in the capturing host's byte order and its
 * IPv6 value differs between systems), the IP version nibble decides.
 */
static int
capture_l3(const uint8_t *fr, size_t caplen, int linktype, size_t *off)
{
	uint16_t	 type;
	int		 tags;

	switch (linktype) {
	case DLT_EN10MB:
		if (caplen < 14)
			return -1;
		type = capture_be16(fr + 12);
		*off = 14;
		for (tags = 0; tags < CAPTURE_MAX_VLANS && (type == 0x8100 ||
		    type == 0x88a8 || type == 0x9100); tags++) {
			if (caplen < *off + 4)
				return -1;
			type = capture_be16(fr + *off + 2);
			*off += 4;
		}
		break;
	case DLT_LINUX_SLL:
		if (caplen < 16)
			return -1;
		type = capture_be16(fr + 14);
		*off = 16;
		break;
	case DLT_LINUX_SLL2:
		if (caplen < 20)
			return -1;
		type = capture_be16(fr);
		*off = 20;
		break;
	case DLT_NULL:
	case DLT_LOOP:
		*off = 4;
		return 0;
	case DLT_RAW:
	case DLT_IPV4:
	case DLT_IPV6:
		*off = 0;
		return 0;
	default:
		return -1;
	}
	return type == CAPTURE_ETH_IPV4 || type == CAPTURE_ETH_IPV6 ? 0 : -1;
}

/* The first four bytes of a TCP header: the ports. */
static int
capture_tcp(const uint8_t *p, size_t len, uint8_t proto,
    struct capture_hdrs *h)
{
	if (proto != CAPTURE_IPPROTO_TCP || len < 4)
		return -1;
	h->sport = capture_be16(p);
	h->dport = capture_be16(p + 2);
	return 0;
}

static int
capture_ipv6(const uint8_t *ip, size_t len, struct capture_hdrs *h)
{
	size_t	 off = 40, hlen;
	uint8_t	 next;
	int	 i;

	if (len < 40)
		return -1;
	h->family = AF_INET6;
	h->src = ip + 8;
	h->dst = ip + 24;
	next = ip[6];
	/* Hop-by-hop, routing, destination options; fragments. */
	for (i = 0; i < CAPTURE_MAX_EXTHDRS; i++) {
		if (next != 0 && next != 43 && next != 60 && next != 44)
			break;
		if (len < off + 8)
			return -1;
		if (next == 44) {
			/* Only the first fragment holds the ports. */
			if ((capture_be16(ip + off + 2) & 0xfff8) != 0)
				return -1;
			hlen = 8;
		} else
			hlen = ((size_t)ip[off + 1] + 1) * 8;
		next = ip[off];
		off += hlen;
	}
	if (off > len)
		return -1;
	return capture_tcp(ip + off, len - off, next, h);
}

static int
capture_ip(const uint8_t *ip, size_t len, struct capture_hdrs *h)
{
	size_t	 ihl;

	if (len < 1)
		return -1;
	if (ip[0] >> 4 == 6)
		return capture_ipv6(ip, len, h);
	if (ip[0] >> 4 != 4 || len < 20)
		return -1;
	ihl = (size_t)(ip[0] & 0x0f) * 4;
	if (ihl < 20 || ihl > len)
		return -1;
	/* A later fragment has no TCP header (DF makes this rare). */
	if ((capture_be16(ip + 6) & 0x1fff) != 0)
		return -1;
	h->family = AF_INET;
	h->src = ip + 12;
	h->dst = ip + 16;
	return capture_tcp(ip + ihl, len - ihl, ip[9], h);
}

int
capture_classify(const struct capture_flow *f, const uint8_t *frame,
    size_t caplen, int linktype)
{
	struct capture_hdrs	 h;
	size_t			 off, alen;
	int			 from_listener;

	memset(&h, 0, sizeof(h));
	if (capture_l3(frame, caplen, linktype, &off) == -1 || off > caplen ||
	    capture_ip(frame + off, caplen - off, &h) == -1 ||
	    h.family != f->family)
		return CAPTURE_OTHER;
	if (h.sport != f->port && h.dport != f->port)
		return CAPTURE_OTHER;
	alen = f->family == AF_INET ? 4 : 16;
	if (memcmp(f->local, f->peer, alen) != 0) {
		if (memcmp(h.src, f->local, alen) == 0 &&
		    memcmp(h.dst, f->peer, alen) == 0)
			return CAPTURE_TX;
		if (memcmp(h.src, f->peer, alen) == 0 &&
		    memcmp(h.dst, f->local, alen) == 0)
			return CAPTURE_RX;
		return CAPTURE_OTHER;
	}
	/* Both ends on one address: the listener's port says who sent it. */
	if (memcmp(h.src, f->local, alen) != 0 ||
	    memcmp(h.dst, f->local, alen) != 0 || h.sport == h.dport)
		return CAPTURE_OTHER;
	from_listener = h.sport == f->port;
	return from_listener == (f->listener != 0) ? CAPTURE_TX : CAPTURE_RX;
}

unsigned
capture_bin(uint32_t len)
{
	unsigned	 i;

	for (i = 0; i < GB_HIST_BINS - 1; i++)
		if (len <= capture_bin_max[i])
			break;
	return i;
}

void
capture_count(struct gb_capture *c, int dir, uint32_t len)
{
	unsigned	 bin = capture_bin(len);

	if (dir == CAPTURE_TX) {
		c->frames_tx++;
		c->bytes_tx += len;
		c->hist_tx[bin]++;
		if (len > c->max_frame_tx)
			c->max_frame_tx = len;
	} else if (dir == CAPTURE_RX) {
		c->frames_rx++;
		c->bytes_rx += len;
		c->hist_rx[bin]++;
		if (len > c->max_frame_rx)
			c->max_frame_rx = len;
	}
}

static void
capture_frame(u_char *arg, const struct pcap_pkthdr *ph, const u_char *bytes)
{
	struct capture	*c = (struct capture *)(void *)arg;
	int		 dir;

	dir = capture_classify(&c->flow, bytes, ph->caplen, c->linktype);
	if (dir == CAPTURE_OTHER)
		c->unclassified++;
	else
		capture_count(&c->counts, dir, ph->len);
}

/*
 * pcap_breakloop() wakes a blocked pcap_dispatch() (libpcap >= 1.10
 * writes to an eventfd it polls); CAPTURE_TIMEOUT_MS bounds the wait
 * where it cannot.  Once stopped, what the kernel has already queued is
 * read without blocking, so frames of the transfer's last moments count.
 */
static void *
capture_run(void *arg)
{
	struct capture	*c = arg;
	int		 n, i;

	while (!atomic_load(&c->stop)) {
		n = pcap_dispatch(c->pcap, -1, capture_frame, (u_char *)c);
		if (n == PCAP_ERROR) {
			snprintf(c->err, sizeof(c->err), "capture ended early:"
			    " %s", pcap_geterr(c->pcap));
			return NULL;
		}
	}
	if (pcap_setnonblock(c->pcap, 1, c->err) == PCAP_ERROR)
		return NULL;
	for (i = 0; i < CAPTURE_DRAIN_PASSES; i++) {
		n = pcap_dispatch(c->pcap, -1, capture_frame, (u_char *)c);
		if (n != PCAP_ERROR_BREAK && n <= 0)
			break;
	}
	return NULL;
}

static pcap_t *
capture_open(const char *ifname, char *err, size_t errlen)
{
	char	 ebuf[PCAP_ERRBUF_SIZE] = "";
	pcap_t	*p;
	int	 rc;

	if ((p = pcap_create(ifname, ebuf)) == NULL) {
		capture_fail(err, errlen, "pcap_create %s: %s", ifname, ebuf);
		return NULL;
	}
	if (pcap_set_snaplen(p, CAPTURE_SNAPLEN) != 0 ||
	    pcap_set_immediate_mode(p, 1) != 0 ||
	    pcap_set_buffer_size(p, CAPTURE_BUFFER_BYTES) != 0 ||
	    pcap_set_timeout(p, CAPTURE_TIMEOUT_MS) != 0) {
		capture_fail(err, errlen, "pcap settings on %s", ifname);
		pcap_close(p);
		return NULL;
	}
	rc = pcap_activate(p);
	if (rc == PCAP_ERROR_PERM_DENIED)
		capture_fail(err, errlen, "--capture needs root (CAP_NET_RAW):"
		    " %s", pcap_geterr(p));
	else if (rc == PCAP_ERROR_NO_SUCH_DEVICE)
		capture_fail(err, errlen, "no such interface: %s", ifname);
	else if (rc == PCAP_ERROR_IFACE_NOT_UP)
		capture_fail(err, errlen, "interface is down: %s", ifname);
	else if (rc < 0)
		capture_fail(err, errlen, "pcap_activate %s: %s", ifname,
		    rc == PCAP_ERROR ? pcap_geterr(p) : pcap_statustostr(rc));
	/* Warnings (rc > 0) concern promiscuous mode and time stamp types. */
	if (rc < 0) {
		pcap_close(p);
		return NULL;
	}
	return p;
}

static int
capture_setfilter(pcap_t *p, const struct capture_flow *f, char *err,
    size_t errlen)
{
	struct bpf_program	 prog;
	char			 text[CAPTURE_FILTER_LEN];
	int			 rc;

	if (capture_filter(f, text, sizeof(text)) == -1)
		return capture_fail(err, errlen, "filter does not fit");
	if (pcap_compile(p, &prog, text, 1, PCAP_NETMASK_UNKNOWN) == -1)
		return capture_fail(err, errlen, "filter \"%s\": %s", text,
		    pcap_geterr(p));
	rc = pcap_setfilter(p, &prog);
	pcap_freecode(&prog);
	if (rc == -1)
		return capture_fail(err, errlen, "filter \"%s\": %s", text,
		    pcap_geterr(p));
	return 0;
}

struct capture *
capture_start(const char *ifname, const struct sockaddr *local,
    const struct sockaddr *peer, uint16_t port, char *err, size_t errlen)
{
	struct capture	*c;
	sigset_t	 all, old;
	int		 rc;

	if (ifname == NULL || *ifname == '\0' ||
	    strlen(ifname) >= GB_IFNAME_LEN) {
		capture_fail(err, errlen, "invalid interface name");
		return NULL;
	}
	if ((c = calloc(1, sizeof(*c))) == NULL) {
		capture_fail(err, errlen, "out of memory");
		return NULL;
	}
	atomic_init(&c->stop, 0);
	if (capture_flow_init(&c->flow, local, peer, port, err, errlen) == -1)
		goto error;
	if ((c->pcap = capture_open(ifname, err, errlen)) == NULL)
		goto error;
	c->linktype = pcap_datalink(c->pcap);
	if (capture_setfilter(c->pcap, &c->flow, err, errlen) == -1)
		goto error;
	/*
	 * The thread starts with every signal blocked, so that the caller's
	 * handlers (the event loop's SIGINT) keep running on its own thread.
	 */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	rc = pthread_create(&c->thread, NULL, capture_run, c);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (rc != 0) {
		capture_fail(err, errlen, "pthread_create: %s", strerror(rc));
		goto error;
	}
	return c;

error:
	if (c->pcap != NULL)
		pcap_close(c->pcap);
	free(c);
	return NULL;
}

void
capture_stop(struct capture *c, struct gb_capture *out)
{
	struct pcap_stat	 ps;
	size_t			 n;

	if (c == NULL) {
		out->has = 0;
		return;
	}
	atomic_store(&c->stop, 1);
	pcap_breakloop(c->pcap);
	pthread_join(c->thread, NULL);

	*out = c->counts;
	out->has = 1;
	out->note[0] = '\0';
	/*
	 * ps_drop: frames the capture buffer had no room for; ps_ifdrop: the
	 * interface's own drops since the open, of all its traffic.
	 */
	memset(&ps, 0, sizeof(ps));
	if (pcap_stats(c->pcap, &ps) == 0)
		out->drops = (uint64_t)ps.ps_drop + ps.ps_ifdrop;
	else if (c->err[0] == '\0')
		snprintf(c->err, sizeof(c->err), "pcap_stats: %s",
		    pcap_geterr(c->pcap));
	if (c->err[0] != '\0') {
		/* Truncated to the note's size. */
		n = strnlen(c->err, sizeof(out->note) - 1);
		memcpy(out->note, c->err, n);
		out->note[n] = '\0';
	} else if (c->unclassified > 0)
		snprintf(out->note, sizeof(out->note), "%" PRIu64 " frames"
		    " not classified", c->unclassified);
	pcap_close(c->pcap);
	free(c);
}
