/*
 * xfer_measure.c: the measurement session around one test's transfer
 * (xfer_measure.h): what the host, the interface and the sockets were
 * before the first byte and after the last, the packet capture between,
 * and the checks of the knobs that did not take and of an interface that
 * is not the one the test's packets leave by.  The stream engine
 * (xfer.c) calls it at those moments and never in between: nothing here
 * runs while data moves, and it starts no stream, sets no timer and
 * moves no byte.
 */
#include <sys/socket.h>

#include <stdio.h>
#include <string.h>

#include "base/cpulist.h"
#include "base/knobs.h"
#include "host/capture.h"
#include "host/context.h"
#include "host/hoststat.h"
#include "host/netif.h"
#include "host/route.h"
#include "host/sock.h"
#include "xfer_measure.h"

/* A capture that cannot start is a warning, not a failed test. */
static void
measure_capture_start(struct xfer_measure *m, int fd, uint16_t port)
{
	struct sockaddr_storage local, peer;
	socklen_t llen = sizeof(local), plen = sizeof(peer);

	if (getsockname(fd, (struct sockaddr *)&local, &llen) == -1 ||
	    getpeername(fd, (struct sockaddr *)&peer, &plen) == -1) {
		snprintf(m->capture_err, sizeof(m->capture_err),
		    "cannot read the data connection's addresses");
		return;
	}
	m->capture = capture_start(m->ifname, (struct sockaddr *)&local,
	    (struct sockaddr *)&peer, port, m->capture_err,
	    sizeof(m->capture_err));
}

/*
 * The interface the route to the peer leaves by (stream 0's socket, as
 * the kernel routes it now), kept in m->egress only when the counters
 * are read from another: xfer_measure_warn() says so.  None is kept
 * when the route cannot be asked (the test runs on without it), when no
 * interface is read, when m->ifname is under the route's interface (a
 * port of its bridge or bond, the link of its VLAN: its interrupts are
 * the test's), or when a captured host is replayed (GIGEBENCH_SYSFS: its
 * interfaces are not this host's, whose routes these are).
 *
 * Loopback: a test to 127.0.0.1 or ::1 reads lo, found from the local
 * address, and leaves by lo: nothing to say.  A test to a local address
 * of another interface (eth0's own 192.0.2.2) leaves by lo as well,
 * while the counters read are eth0's, which holds the address and sees
 * none of the test's packets: that is a real mismatch, warned of like
 * any other and not hidden (-I lo reads the interface the test uses).
 * The route is only the way out: data that come in by another interface
 * than the one read while the ACKs leave by the one read (asymmetric
 * routing) go unseen here.
 */
static void
measure_egress(struct xfer_measure *m, int fd)
{
	const char	*sysfs = "/sys";
	char		 err[GB_ERR_LEN];

	m->egress[0] = '\0';
	if (m->roots != NULL && m->roots->sysfs != NULL)
		sysfs = m->roots->sysfs;
	if (m->ifname[0] == '\0' || strcmp(sysfs, "/sys") != 0 ||
	    route_egress_fd(fd, m->egress, sizeof(m->egress), err,
	    sizeof(err)) == -1 || strcmp(m->egress, m->ifname) == 0 ||
	    netif_is_below(sysfs, m->egress, m->ifname))
		m->egress[0] = '\0';
}

int
xfer_measure_open(struct xfer_measure *m, const struct xfer_config *c,
    const struct gb_params *p, char *err, size_t errlen)
{
	struct sockaddr_storage ss;
	socklen_t len = sizeof(ss);
	int fd = c->fds[0];

	m->p = p;
	m->is_tx = c->is_tx;
	m->roots = c->roots;
	m->profile_refused = c->profile_refused;
	if ((m->ifname_given = c->ifname != NULL))
		snprintf(m->ifname, sizeof(m->ifname), "%s", c->ifname);
	else if (getsockname(fd, (struct sockaddr *)&ss, &len) == 0)
		netif_name_for_addr((struct sockaddr *)&ss, m->ifname,
		    sizeof(m->ifname));
	measure_egress(m, fd);
	sock_bufs(fd, p, m->is_tx, &m->sndbuf, &m->rcvbuf);
	m->sndbuf.peak = m->sndbuf.actual;
	m->rcvbuf.peak = m->rcvbuf.actual;
	m->fd0 = fd;
	m->tos = sock_tos(fd);
	m->has_fq_rate = sock_fq_rate(fd, &m->fq_rate);
	/* proto.c checked the list; an error here cannot happen. */
	if (p->affinity[0] != '\0' && cpulist_parse(p->affinity, m->cpus,
	    GB_MAX_STREAMS, &m->ncpus, err, errlen) == -1)
		return -1;
	if (p->udp && m->is_tx)
		m->dg_max = sock_dgram_max(fd, 0);
	context_read(m->roots, m->ifname, fd, &m->context, err, errlen);
	if (p->capture)
		measure_capture_start(m, fd, c->port);
	return 0;
}

/* -u: the kernel's UDP counters and the interface's drops, or none. */
static void
measure_udp(const struct xfer_measure *m, struct udpstat *u,
    struct ifdrops *d)
{
	char err[GB_ERR_LEN];

	if (!m->p->udp)
		return;
	if (udpstat_read(m->roots, u, err, sizeof(err)) == -1)
		u->has = 0;
	if (m->ifname[0] == '\0' || ifdrops_read(m->roots, m->ifname, d, err,
	    sizeof(err)) == -1)
		d->has = 0;
}

int
xfer_measure_before(struct xfer_measure *m, char *err, size_t errlen)
{
	measure_udp(m, &m->udp_before, &m->drops_before);
	hoststat_free(m->before);	/* --omit: taken again as it ends */
	m->before = hoststat_take(m->roots, m->ifname, err, errlen);
	if (m->before == NULL)
		return -1;
	xfer_profile_start(m);
	return 0;
}

int
xfer_measure_cpu(const struct xfer_measure *m, unsigned i)
{
	return m->ncpus > 0 ? (int)m->cpus[i % m->ncpus] : -1;
}

void
xfer_measure_after(struct xfer_measure *m)
{
	char err[GB_ERR_LEN];

	xfer_profile_stop(m);
	m->after = hoststat_take(m->roots, m->ifname, err, sizeof(err));
	measure_udp(m, &m->udp_after, &m->drops_after);
	if (m->capture != NULL) {
		capture_stop(m->capture, &m->cap);
		m->capture = NULL;
	}
}

/*
 * Interrupts per TCP data segment next to per interface packet: with
 * GSO/GRO one interface "packet" may carry many segments, so the two
 * ratios differ by the offload batching.
 */
static void
measure_per_segment(struct gb_side *side, int is_tx)
{
	struct gb_iface_figures *f = &side->iface;
	uint64_t segs = is_tx ? side->tcp.data_segs_out :
	    side->tcp.data_segs_in;

	if (f->has_interrupts && side->tcp.has && segs > 0) {
		f->has_irq_per_segment = 1;
		f->irq_per_segment = (double)f->interrupts / (double)segs;
	}
}

/* -u: the kernel's counts over the test into the side's udp. */
static void
measure_udp_side(const struct xfer_measure *m, struct gb_udp *u)
{
	struct udpstat k;
	struct ifdrops d;

	udpstat_diff(&m->udp_before, &m->udp_after, &k);
	if ((u->has_kernel = k.has)) {
		u->rcvbuf_errors = k.rcvbuf_errors;
		u->sndbuf_errors = k.sndbuf_errors;
		u->in_errors = k.in_errors;
		u->in_csum_errors = k.in_csum_errors;
	}
	ifdrops_diff(&m->drops_before, &m->drops_after, &d);
	if ((u->has_ifdrops = d.has)) {
		u->if_rx_dropped = d.rx_dropped;
		u->if_tx_dropped = d.tx_dropped;
		u->if_rx_missed = d.rx_missed_errors;
	}
}

void
xfer_measure_bufs(struct xfer_measure *m)
{
	sock_bufs_now(m->fd0, &m->sndbuf, &m->rcvbuf);
}

void
xfer_measure_side(const struct xfer_measure *m, struct gb_side *side)
{
	double wall;

	if (m->p->udp)
		measure_udp_side(m, &side->udp);

	side->sndbuf = m->sndbuf;
	side->rcvbuf = m->rcvbuf;
	side->context = m->context;
	side->capture = m->cap;
	if (m->before != NULL && m->after != NULL)
		hoststat_diff(m->before, m->after, m->is_tx, &side->host_cpu,
		    &side->iface, &side->cpu, &wall);
	hoststat_spread(m->before, m->after, &side->spread);
	measure_per_segment(side, m->is_tx);
	knobs_check(m->p, m->is_tx, side);
	xfer_profile_side(m, side);
}

void
xfer_measure_warn(const struct xfer_measure *m, struct gb_side *side)
{
	const struct gb_params *p = m->p;

	side->tos = m->tos;
	side->has_fq_rate = m->has_fq_rate;
	knobs_egress(side, m->is_tx, m->ifname, m->ifname_given, m->egress);
	/* -u: longer than the path carries whole: the IP layer cuts it. */
	if (m->dg_max > 0 && p->buflen > (uint32_t)m->dg_max)
		knobs_warn(side, "-l %u: longer than the %d bytes a datagram "
		    "of the path MTU holds: sent in IP fragments", p->buflen,
		    m->dg_max);
	side->fq_rate = m->fq_rate;
	/* TCP keeps the two ECN bits of the byte to itself. */
	if (p->tos != 0 && m->tos >= 0 && (uint32_t)m->tos != p->tos)
		knobs_warn(side, "IP_TOS: asked 0x%02x, the socket has 0x%02x"
		    "%s", p->tos, (unsigned)m->tos, (p->tos & 3) != 0 ?
		    " (TCP sets the two ECN bits itself)" : "");
	if (m->capture_err[0] != '\0')
		knobs_warn(side, "%s%s", strncmp(m->capture_err, "--capture",
		    9) == 0 ? "" : "--capture: ", m->capture_err);
}

void
xfer_measure_free(struct xfer_measure *m)
{
	if (m->capture != NULL)
		capture_stop(m->capture, &m->cap);
	m->capture = NULL;
	hoststat_free(m->before);
	hoststat_free(m->after);
	m->before = m->after = NULL;
	xfer_profile_free(m);
}
