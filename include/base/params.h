/*
 * params.h: the parameters of one test.  The connecting side decides every
 * one of them and sends them to the listener in the hello message; the
 * listener range-checks them again (params_check) before acting on them.
 *
 * Each numeric field's range is stated once, in the field table
 * (params.c): the option parser (opts*.c), the hello's decoder
 * (params_json.c) and params_check() read it from there.  Pure: no I/O.
 */
#ifndef GB_PARAMS_H
#define GB_PARAMS_H

#include <stddef.h>
#include <stdint.h>

enum gb_direction {
	GB_DIR_CLIENT_SENDS = 0,	/* -t HOST: connecting side transmits */
	GB_DIR_CLIENT_RECEIVES = 1	/* -r HOST: listening side transmits */
};

/* Defaults and limits shared by the option parser and the protocol. */
#define GB_DEFAULT_PORT		5001
#define GB_DEFAULT_BUFLEN	(1024u * 1024)
#define GB_DEFAULT_DURATION_MS	10000u
#define GB_MIN_BUFLEN		1u
#define GB_MAX_BUFLEN		(64u * 1024 * 1024)
#define GB_MIN_DURATION_MS	100u
#define GB_MAX_DURATION_MS	(86400u * 1000)
/*
 * -P: the flows of a test, 1 .. GB_MAX_FLOWS; a side's figures keep the
 * first GB_MAX_STREAMS of them one by one (result.h), all in a summary.
 */
#define GB_MAX_FLOWS		10000u
#define GB_MAX_STREAMS		128u
/* --threads: worker threads an end runs, each over its share of flows. */
#define GB_MAX_THREADS		1024u
/* --threads' default: one a flow up to the online CPUs, at most this. */
#define GB_AUTO_MAX_THREADS	64u
/* --probes: --under-load's probe connections beside the load. */
#define GB_MAX_PROBES		16u
/*
 * --probe-rate: UDP probes a second each probe flow sends, evenly spaced
 * (irtt's --interval of 1 ms at most); one lost without its answer
 * within GB_PROBE_TIMEOUT_MS (a loaded queue may hold a second).
 */
#define GB_MAX_PROBE_RATE	1000u
#define GB_PROBE_TIMEOUT_MS	1000u
#define GB_MIN_SOCKBUF		1024u
#define GB_MAX_SOCKBUF		(1024u * 1024 * 1024)
#define GB_MIN_MSS		88u	/* TCP_MIN_MSS in the kernel */
#define GB_MAX_MSS		65535u
#define GB_MIN_INTERVAL_MS	100u
#define GB_MIN_OMIT_MS		100u
#define GB_MAX_OMIT_MS		(600u * 1000)
#define GB_MAX_RR_SIZE		(1024u * 1024)	/* --request/--response-size */
#define GB_MAX_RR_BURST		1024u
/*
 * -u --rr: a request without its answer this long after it was sent is
 * lost (and its answer, should it come, late); --rr-timeout in ms.  At
 * most 10 s (a satellite hop is 0.6 s): the test's end waits for it, and
 * the listener's deadline allows for it.
 */
#define GB_DEFAULT_RR_TIMEOUT_MS	100u
#define GB_MAX_RR_TIMEOUT_MS		10000u
/*
 * --rr-burst above 1: what is in flight, burst x (request + answer), at
 * most this, so that it fits in the sockets' default buffers: an asker
 * blocked sending requests reads no answer, and an answerer blocked
 * sending answers reads no request.
 */
#define GB_MAX_RR_INFLIGHT	(128u * 1024)
#define GB_MAX_INTERVAL_MS	(3600u * 1000)
/* streams x buflen: what one test may make a listener allocate. */
#define GB_MAX_BUF_TOTAL	(256u * 1024 * 1024)
/* -Z's ring of buffers per stream stays within this (or one buffer). */
#define GB_ZC_RING_BYTES	(32u * 1024 * 1024)
#define GB_ZC_RING_MAX		8u	/* -Z sends in flight per stream */
#define GB_MAX_NBUF		(UINT64_C(1) << 40)
#define GB_MIN_MTU		1280u
#define GB_MAX_MTU		65535u
#define GB_MAX_LINK_MBPS	(UINT64_C(10) * 1000 * 1000)	/* 10 Tbit/s */
#define GB_AFFINITY_LEN		128	/* -A's CPU list, NUL included */
#define GB_MAX_CPU		1023u	/* CPU_SETSIZE - 1 in glibc */
#define GB_MIN_FQ_RATE		UINT64_C(125)	/* bytes/s: 1 kbit/s */
#define GB_MAX_FQ_RATE		(GB_MAX_LINK_MBPS * 125000)	/* bytes/s */
#define GB_MAX_TOS		255u
/*
 * -u: a datagram's payload is at least gigebench's own header (dgram.h's
 * DGRAM_HDR_LEN, checked there) and at most what IPv4 UDP can carry.
 * Without -l it is the path MTU less the IP and UDP headers, read by the
 * client before the hello (GB_DGRAM_FROM_MTU on the command line only).
 */
#define GB_MIN_DGRAM		40u
#define GB_MAX_DGRAM		65507u
#define GB_DGRAM_FROM_MTU	0u
/* -l mtu: TCP buffers of each end's MSS, datagrams of the path MTU. */
#define GB_LEN_MTU		0u
/*
 * -R's default, per stream: 10 Mbit/s.  Ten times iperf3's and nuttcp's
 * 1 Mbit/s, so that a first look at a LAN shows something, and still a
 * hundredth of a GigE link: it cannot flood a shared link by surprise
 * (a 10 Mbit/s link it fills).  -R 0 is "as fast as the sender can".
 */
#define GB_DEFAULT_UDP_BPS	(UINT64_C(10) * 1000 * 1000)
#define GB_MAX_RATE_BPS		(GB_MAX_LINK_MBPS * 1000 * 1000)
#define GB_MAX_RATE_PPS		UINT64_C(100000000)
/* --batch: datagrams per sendmmsg()/recvmmsg() (UIO_MAXIOV at most). */
#define GB_DEFAULT_BATCH	32u
/* --gro: a train is at most this long, a receiver's message this big. */
#define GB_GRO_BYTES		65536u
#define GB_MAX_BATCH		1024u

/*
 * How one end moves payload across its data sockets.  The sending end
 * uses the first three, the receiving end the last three; the side's
 * report says which one each stream really used (datapath.c has the
 * names, sender.c and receiver.c the loops).
 */
enum gb_path {
	GB_PATH_SEND = 0,	/* send() from a user buffer */
	GB_PATH_ZEROCOPY,	/* -Z: send(MSG_ZEROCOPY) */
	GB_PATH_SENDFILE,	/* --sendfile: sendfile() from a memfd */
	GB_PATH_RECV,		/* recv() into a user buffer */
	GB_PATH_SKIP_RX_COPY,	/* --skip-rx-copy: recv(MSG_TRUNC) */
	GB_PATH_SPLICE,		/* --splice: socket -> pipe -> /dev/null */
	GB_PATH_SENDMMSG,	/* -u: sendmmsg() of --batch datagrams */
	GB_PATH_RECVMMSG,	/* -u: recvmmsg() of --batch datagrams */
	GB_PATH_GSO,		/* -u --gso: one send() cut by UDP_SEGMENT */
	GB_PATH_GRO,		/* -u --gro: recvmmsg() of UDP_GRO trains */
	GB_PATH_RR_ASK,		/* --rr, the connecting side: ask, await */
	GB_PATH_RR_ANSWER,	/* --rr, the listener: read, answer */
	GB_PATH_UDP_RR_ASK,	/* -u --rr: a datagram asks, one answers */
	GB_PATH_UDP_RR_ANSWER,
	GB_PATH_CRR_ASK,	/* --crr: connect, ask, await, close */
	GB_PATH_CRR_ANSWER,	/* --crr: take a connection, answer it */
	GB_PATH_COUNT
};

struct gb_params {
	int		direction;	/* enum gb_direction */
	uint32_t	buflen;		/* -l: bytes per write()/read(); 0, -l mtu:
					   each end's MSS (TCP), the path
					   MTU's datagram (-u, the client's) */
	uint64_t	nbuf;		/* -n: buffers per stream, 0 = no limit */
	uint32_t	duration_ms;	/* -T */
	uint32_t	streams;	/* -P */
	uint32_t	sndbuf;		/* -b/--sndbuf: SO_SNDBUF, 0 = default */
	uint32_t	rcvbuf;		/* -b/--rcvbuf: SO_RCVBUF, 0 = default */
	uint32_t	mss;		/* -M: TCP_MAXSEG, 0 = default */
	int		nodelay;	/* -D: TCP_NODELAY */
	uint32_t	interval_ms;	/* -i: 0 = no interval reports */
	int		force_bufs;	/* --force-bufs: SO_*BUFFORCE (root) */
	int		capture;	/* --capture: libpcap on both ends */
	int		profile;	/* --profile: perf samples, both ends */
	uint64_t	link_mbps;	/* --link-rate: 0 = from the interface */
	uint32_t	mtu;		/* --mtu: both ends' MTU, 0 = unchanged */
	char		cc[16];		/* -C: TCP_CONGESTION, "" = default */
	/* 0 (params_init's) is the plain path of either end. */
	int		tx_path;	/* 0, GB_PATH_ZEROCOPY, GB_PATH_SENDFILE */
	int		rx_path;	/* 0, GB_PATH_SKIP_RX_COPY, GB_PATH_SPLICE */
	char		affinity[GB_AFFINITY_LEN]; /* -A: "0,2", "0-3", "" */
	uint64_t	fq_rate;	/* --fq-rate: bytes/s, 0 = no limit */
	uint32_t	tos;		/* --tos: IP_TOS / IPV6_TCLASS, 0 = default */
	int		udp;		/* -u: datagrams instead of a stream */
	/* -R, per stream: at most one is set; both 0 is "unpaced". */
	uint64_t	rate_bps;	/* bit/s of payload */
	uint64_t	rate_pps;	/* datagrams/s */
	uint32_t	batch;		/* --batch: per system call, 0 default */
	int		gso;		/* --gso: the sender's UDP_SEGMENT */
	int		gro;		/* --gro: the receiver's UDP_GRO */
	/*
	 * --omit: the test runs this long first (slow start), out of its
	 * figures; 0 = none.  The duration (-T) is what is measured after.
	 */
	uint32_t	omit_ms;
	/*
	 * --rr: request/response instead of a stream: the connecting side
	 * asks req_size bytes, the listener answers resp_size, rr_burst
	 * transactions in flight on each stream; 0 is 1 in each.  --crr
	 * (with rr): a new connection for each transaction (netperf's
	 * TCP_CRR), one transaction in flight a stream.
	 */
	int		rr;
	int		crr;
	uint32_t	req_size;	/* --request-size */
	uint32_t	resp_size;	/* --response-size */
	uint32_t	rr_burst;	/* --rr-burst */
	/*
	 * --bidir: both directions at once.  direction is the first half's
	 * (streams connections), the second half (streams more) goes the
	 * other way: 2 x streams data connections in all.
	 */
	int		bidir;
	uint32_t	rr_timeout_ms;	/* --rr-timeout, -u; 0 is the default */
	/*
	 * --threads: each end's worker threads, each an event loop over its
	 * share of the flows; 0: one a flow up to the online CPUs
	 * (params_threads).
	 */
	uint32_t	threads;
	/*
	 * --under-load's loaded phases: probes connections more after the
	 * load's, each a stream of 1-byte transactions the connecting side
	 * asks (params_probe's test), on the same loop as the load; marked
	 * probe_tos, 0: as tos.  0: no probes.  probe_rate: UDP probes
	 * instead, each flow sending that many a second evenly spaced,
	 * whatever the answers (irtt's isochronous probes, loss counted);
	 * 0: TCP probes, each asking when answered.  probe_crr: TCP
	 * probes on a new connection each (--crr), the handshake counted.
	 */
	uint32_t	probes;
	uint32_t	probe_tos;
	uint32_t	probe_rate;
	int		probe_crr;
	/*
	 * -u --rr: requests a second each stream sends, evenly spaced (the
	 * UDP probes': params_probe sets it; no option, not in the hello);
	 * 0: each slot asks again when answered.
	 */
	uint32_t	rr_rate;
};

/*
 * The numeric fields of struct gb_params, in the order the hello's
 * decoder reads them.
 */
enum params_field_id {
	PF_DIRECTION = 0,
	PF_BUFLEN,
	PF_NBUF,
	PF_DURATION_MS,
	PF_STREAMS,
	PF_SNDBUF,
	PF_RCVBUF,
	PF_MSS,
	PF_INTERVAL_MS,
	PF_LINK_MBPS,
	PF_MTU,
	PF_FQ_RATE,
	PF_TOS,
	PF_RATE_BPS,
	PF_RATE_PPS,
	PF_BATCH,
	PF_OMIT_MS,
	PF_REQ_SIZE,
	PF_RESP_SIZE,
	PF_RR_BURST,
	PF_RR_TIMEOUT_MS,
	PF_THREADS,
	PF_PROBES,
	PF_PROBE_TOS,
	PF_PROBE_RATE,
	PF_COUNT
};

/*
 * One row of the field table.  A value is valid when it is within
 * [min, max], or when it is 0 and zero_off says that 0 stands for "the
 * default" or "none" (the kernel's socket buffer, no count limit, no
 * interval reports).  The command line takes [min, max] (it has no way
 * to say 0); the hello carries 0 too where zero_off.
 */
struct params_field {
	const char	*key;		/* JSON member: the struct member's name */
	uint64_t	 min, max;
	int		 zero_off;	/* 0 is valid: default or none */
	size_t		 off, size;	/* in struct gb_params; size 4 or 8 */
};

void	params_init(struct gb_params *);
/* --request-size, --response-size, --rr-burst as used: 0 is 1. */
static inline uint32_t
params_rr_size(uint32_t v)
{
	return v != 0 ? v : 1;
}
/*
 * The load's data connections: streams, twice that with --bidir.
 * Connection i < streams goes the way direction says, the rest the other.
 */
static inline uint32_t
params_load_conns(const struct gb_params *p)
{
	return p->bidir ? 2 * p->streams : p->streams;
}
/* All the data connections a test opens: the load's, then the probes. */
static inline uint32_t
params_conns(const struct gb_params *p)
{
	return params_load_conns(p) + p->probes;
}
/*
 * The test the probes of a loaded phase run (and, alone, its idle
 * reference): -P probes of 1-byte --rr, TCP_NODELAY, probe_tos (else
 * the load's tos), as long as the load; during its --omit they are
 * answered but not counted.  With probe_rate, -u --rr of header-only
 * datagrams instead, probe_rate a second a flow, GB_PROBE_TIMEOUT_MS;
 * with probe_crr, --crr (a new connection a probe).
 */
void	params_probe(const struct gb_params *load, struct gb_params *probe);
/* The parameters connection i is made with: the load's or the probes'. */
static inline const struct gb_params *
params_conn_params(const struct gb_params *p, uint32_t i,
    struct gb_params *scratch)
{
	if (i < params_load_conns(p))
		return p;
	params_probe(p, scratch);
	return scratch;
}
/* Is connection i a UDP socket (-u, or the UDP probes)? */
static inline int
params_conn_udp(const struct gb_params *p, uint32_t i)
{
	return i < params_load_conns(p) ? p->udp : p->probe_rate != 0;
}
/* Has the test any UDP socket (the listener's greeter waits for them)? */
static inline int
params_any_udp(const struct gb_params *p)
{
	return p->udp || (p->probes != 0 && p->probe_rate != 0);
}
/*
 * Does connection i send, on an end whose first half sends when is_tx?
 * (--bidir's second half goes the other way.)
 */
static inline int
params_conn_tx(const struct gb_params *p, uint32_t i, int is_tx)
{
	return i < p->streams ? is_tx : !is_tx;
}
/* Does the listener transmit in this test (-r, --bidir)? */
static inline int
params_listener_sends(const struct gb_params *p)
{
	return p->direction == GB_DIR_CLIENT_RECEIVES || p->bidir;
}
/* -u --rr's timeout as used: 0 is GB_DEFAULT_RR_TIMEOUT_MS. */
static inline uint32_t
params_rr_timeout_ms(uint32_t v)
{
	return v != 0 ? v : GB_DEFAULT_RR_TIMEOUT_MS;
}
const struct params_field *params_field(enum params_field_id);
uint64_t params_get(const struct gb_params *, enum params_field_id);
/* v must be within the field's range (or 0 where zero_off). */
void	params_set(struct gb_params *, enum params_field_id, uint64_t v);
/* The smallest value the hello may carry: 0 where zero_off, else min. */
uint64_t params_wire_min(enum params_field_id);
/*
 * -Z's ring: GB_ZC_RING_MAX (8) buffers of buflen, halved until the ring is
 * within GB_ZC_RING_BYTES, at least one.  The sender allocates this many;
 * params_check() counts them in the listener's memory.
 */
unsigned params_zc_ring_count(uint32_t buflen);
/*
 * A UDP test without -l gets its length from the path MTU, which the
 * client reads after it connects; a check of the parameters made before
 * that (the option parser's, a sweep point's) takes the smallest such
 * length, GB_MIN_MTU less IPv6's and UDP's 48 bytes.  Else unchanged.
 */
void	params_dgram_len_floor(struct gb_params *);

/*
 * params_check.c: what the listener checks before acting on a test (and
 * the option parser at every point of a sweep): memory, the ranges the
 * hello's member ranges cannot say (0 or at least the minimum), the CPU
 * list, the data paths, the congestion control name, the interval
 * against the duration.  0, or -1 with a reason in err.
 */
int	params_check(const struct gb_params *, char *err, size_t errlen);
/* A kernel congestion control name's shape, or "" for the default. */
int	params_cc_ok(const char *);

#endif /* GB_PARAMS_H */
