/*
 * diag.h: the short diagnosis of one test: why it stopped where it
 * stopped.  diag_run() reads the figures of both sides once and writes
 * findings into the result; the renderers below only format them.
 */
#ifndef GB_DIAG_H
#define GB_DIAG_H

#include <stdio.h>

#include <jansson.h>

#include "base/result.h"

/*
 * Bytes a frame costs on the wire besides its IP packet.  Ethernet:
 * header 14, FCS 4, preamble and SFD 8, inter-frame gap 12.  A tbf qdisc
 * on veth charges only the 14-byte header.
 */
#define DIAG_ETHERNET_OVERHEAD_BYTES	38u
#define DIAG_TBF_OVERHEAD_BYTES		14u
/* IPv4 20 + TCP 20 + the timestamps option 12 (Linux default). */
#define DIAG_TCPIP_HEADER_BYTES		52u
/* -u: IPv4 20 + UDP 8. */
#define DIAG_UDPIP_HEADER_BYTES		28u

/*
 * Fill r->findings from the figures of both sides (clearing them first).
 * Pure: reads nothing but *r, writes nothing but the findings.
 */
void	 diag_run(struct gb_result *);

/*
 * The most payload a transport with header_bytes of IP and its own
 * headers can carry over a link of link_mbps (10^6 bit/s) with frames of
 * mtu bytes that cost overhead_bytes more on the wire:
 * link * (mtu - header) / (mtu + overhead).  0 when mtu leaves no payload.
 * diag_tcp_goodput_mbps is that for TCP (52 bytes of headers).
 */
double	 diag_goodput_mbps(double link_mbps, unsigned mtu,
	    unsigned header_bytes, unsigned overhead_bytes);
double	 diag_tcp_goodput_mbps(double link_mbps, unsigned mtu,
	    unsigned overhead_bytes);

/* One "gigebench-d: SIDE CODE: TEXT" line per finding. */
void	 diag_text(FILE *, const struct gb_result *);
/* [{"code", "side", "text"}, ...]; NULL when memory runs out. */
json_t	*diag_json(const struct gb_result *);

#endif /* GB_DIAG_H */
