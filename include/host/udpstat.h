/*
 * udpstat.h: the kernel's own UDP counters of one host (/proc/net/snmp's
 * Udp table and /proc/net/snmp6's Udp6 lines, summed) and the drop
 * counters of one interface (sysfs statistics), read before and after a
 * test, so that a UDP loss can be told apart by where it happened: in a
 * socket buffer, in the interface, or on the path.
 *
 * Files are read under the roots of hoststat.h that tests move to fixture
 * trees.  The counters are host-wide: other traffic of the host counts
 * too, which the caller says when it reports them.  Nothing here touches
 * a socket.
 */
#ifndef GB_UDPSTAT_H
#define GB_UDPSTAT_H

#include <stddef.h>
#include <stdint.h>

#include "host/hoststat.h"

/* IPv4 + IPv6 UDP, the kernel's names without "Udp"/"Udp6". */
struct udpstat {
	int		has;		/* the Udp table was found and parsed */
	uint64_t	in_datagrams;	/* InDatagrams */
	uint64_t	no_ports;	/* NoPorts */
	uint64_t	in_errors;	/* InErrors (RcvbufErrors among them) */
	uint64_t	out_datagrams;	/* OutDatagrams */
	uint64_t	rcvbuf_errors;	/* RcvbufErrors: a full receive buffer */
	uint64_t	sndbuf_errors;	/* SndbufErrors: a full send buffer */
	uint64_t	in_csum_errors;	/* InCsumErrors (since Linux 3.10) */
};

/* SYSFS/class/net/IF/statistics, the counters that are drops. */
struct ifdrops {
	int		has;		/* all five were read */
	uint64_t	rx_dropped;
	uint64_t	tx_dropped;
	uint64_t	rx_missed_errors;
	uint64_t	rx_fifo_errors;
	uint64_t	tx_fifo_errors;
};

/*
 * Pure.  The text of /proc/net/snmp: the "Udp:" header line and the "Udp:"
 * values line after it, columns found by name (kernels add columns;
 * "UdpLite:" is another table), added into st, has set.  -1 with a reason
 * naming the file in err when there is no Udp table or it is malformed (a
 * values line with fewer fields than the header, a counter that is not a
 * number); st is then unchanged.
 */
int	udpstat_parse_snmp(const char *text, struct udpstat *st, char *err,
	    size_t errlen);
/*
 * Pure.  The text of /proc/net/snmp6 ("Udp6InDatagrams    123" lines;
 * "UdpLite6" lines are not UDP), added into st; has is left as it is.
 * -1 with a reason naming the file when a Udp6 line has no number; st is
 * then unchanged.
 */
int	udpstat_parse_snmp6(const char *text, struct udpstat *st, char *err,
	    size_t errlen);
/*
 * PROCFS/net/snmp and PROCFS/net/snmp6 into st (zeroed first).  A missing
 * snmp6 (no IPv6) is not an error.  -1 with a reason in err and has = 0
 * when snmp is missing, unreadable or malformed, or snmp6 is malformed.
 */
int	udpstat_read(const struct hoststat_roots *, struct udpstat *st,
	    char *err, size_t errlen);
/*
 * after - before, field by field, 0 where a counter went backwards; has
 * only when both have.
 */
void	udpstat_diff(const struct udpstat *before, const struct udpstat *after,
	    struct udpstat *out);

/*
 * SYSFS/class/net/IF/statistics/{rx,tx}_dropped, rx_missed_errors,
 * {rx,tx}_fifo_errors into d.  -1 with a reason in err and has = 0 when
 * one is missing or malformed, or ifname is not an interface's name.
 */
int	ifdrops_read(const struct hoststat_roots *, const char *ifname,
	    struct ifdrops *d, char *err, size_t errlen);
/* As udpstat_diff. */
void	ifdrops_diff(const struct ifdrops *before, const struct ifdrops *after,
	    struct ifdrops *out);

#endif /* GB_UDPSTAT_H */
