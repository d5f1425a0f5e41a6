/*
 * capture.h: --capture, a libpcap capture of the test's own flows on the
 * test interface.  It counts frames, their bytes on the wire and their
 * sizes in each direction, so that a report can show what the NIC and the
 * stack really exchanged: full-MTU frames, or GSO/GRO aggregates larger
 * than the MTU that the capture sees above the driver.
 *
 * The pure parts (frame classification, histogram binning, counting, the
 * filter text) work without pcap and are what the unit tests exercise;
 * capture_start() and capture_stop() wrap them around a pcap handle and a
 * capture thread.  The histogram's bounds are in base/result.h, the JSON
 * codec is codec/capture_json.h, the text out/capture_text.h.
 */
#ifndef GB_CAPTURE_H
#define GB_CAPTURE_H

#include <sys/socket.h>

#include <stddef.h>
#include <stdint.h>

#include "base/result.h"

#define CAPTURE_SNAPLEN		128	/* Ethernet+2 VLAN+IPv6+TCP fit */
#define CAPTURE_BUFFER_BYTES	(32 * 1024 * 1024)
#define CAPTURE_TIMEOUT_MS	100	/* how soon an idle thread sees stop */
#define CAPTURE_FILTER_LEN	128	/* "tcp and host <IPv6> and port N" */

/* What capture_classify() makes of a frame. */
enum capture_dir {
	CAPTURE_OTHER = -1,	/* not one of the test's flows, or truncated */
	CAPTURE_RX = 0,		/* to the local end */
	CAPTURE_TX = 1		/* from the local end */
};

/*
 * The test's flows: every data and control connection of a test runs
 * between the two addresses, one end of it on the listener's port.  An
 * IPv4-mapped IPv6 address (a dual-stack listener's view of an IPv4 peer)
 * is kept as the IPv4 address the wire carries.
 */
struct capture_flow {
	int		family;		/* AF_INET or AF_INET6 */
	uint8_t		local[16];	/* 4 or 16 bytes, network order */
	uint8_t		peer[16];
	uint16_t	port;		/* the listener's */
	int		listener;	/* the local end is the listener */
};

/*
 * Fill flow from the control connection's local and peer addresses and
 * the listener's port.  The local end is the listener when local's own
 * port is port; that only matters when local and peer are the same
 * address (a test on loopback), where the ports tell the directions
 * apart.  -1 with a reason in err when the families differ or are
 * neither IPv4 nor IPv6.
 */
int	capture_flow_init(struct capture_flow *, const struct sockaddr *local,
	    const struct sockaddr *peer, uint16_t port, char *err,
	    size_t errlen);
/* The BPF filter text for flow.  -1 when it does not fit. */
int	capture_filter(const struct capture_flow *, char *buf, size_t len);
/*
 * Where one captured frame (caplen bytes of it) goes: an enum
 * capture_dir.  linktype is a DLT_ value: DLT_EN10MB (with up to two
 * VLAN tags), DLT_LINUX_SLL, DLT_LINUX_SLL2, DLT_NULL, DLT_LOOP, DLT_RAW,
 * DLT_IPV4 and DLT_IPV6 are understood; anything else is CAPTURE_OTHER.
 * Pure.
 */
int	capture_classify(const struct capture_flow *, const uint8_t *frame,
	    size_t caplen, int linktype);
/* The histogram bin of a frame of len bytes: 0 .. GB_HIST_BINS - 1. */
unsigned capture_bin(uint32_t len);
/* Count one frame of len bytes in direction dir; CAPTURE_OTHER is ignored. */
void	capture_count(struct gb_capture *, int dir, uint32_t len);

/*
 * Open ifname and capture the flows between local and peer on port in a
 * thread until capture_stop().  NULL with a reason in err ("--capture
 * needs root (CAP_NET_RAW): ...", "no such interface: eth9"); the caller
 * records it as the capture's note and goes on without.
 */
struct capture *capture_start(const char *ifname,
	    const struct sockaddr *local, const struct sockaddr *peer,
	    uint16_t port, char *err, size_t errlen);
/*
 * Stop the thread, count what the kernel already queued, read the drop
 * counters, fill out and free everything.  With NULL, out->has = 0 and
 * the rest of out is left alone (so a note already there stays).
 */
void	capture_stop(struct capture *, struct gb_capture *out);

#endif /* GB_CAPTURE_H */
