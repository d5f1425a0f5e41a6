/*
 * result.h: the figures of one test, filled once by the measuring code and
 * read by every renderer (text, JSON) and by the protocol, which carries the
 * listener's side back to the connecting side.  Plain data, no behaviour.
 *
 * Every figure that may be unavailable has a "has_" flag; renderers print
 * null / "n/a" for it, never 0.
 */
#ifndef GB_RESULT_H
#define GB_RESULT_H

#include <stdint.h>

#include "base/lathist.h"

#include "base/params.h"
#include "base/profile.h"

#define GB_IFNAME_LEN	32	/* > IFNAMSIZ, so any name fits */
#define GB_IRQLIST_LEN	128	/* "41" or "24,25,26,...", truncated with "..." */
#define GB_ERR_LEN	256	/* caller-supplied error buffers */
#define GB_MAX_INTERVALS 4096

/* Process CPU from getrusage(RUSAGE_SELF), as ttcp and nuttcp report it. */
struct gb_proc_cpu {
	double	user_s;
	double	sys_s;
	double	user_pct;	/* of wall-clock time, can pass 100 with threads */
	double	sys_pct;
	double	process_pct;	/* user + sys */
};

/* The most CPUs a host has (the kernel's NR_CPUS at most). */
#define GB_MAX_CPUS	8192

/* Host CPU from /proc/stat: percent of all CPUs' time in the interval. */
struct gb_host_cpu {
	int	has;
	int	ncpus;
	double	busy_pct;	/* everything but idle and iowait */
	double	user_pct;	/* user + nice */
	double	sys_pct;
	double	irq_pct;
	double	softirq_pct;
	double	max_cpu_busy_pct; /* the busiest single CPU */
	int	max_cpu;	/* its number */
};

#define GB_MAX_IRQ_LINES	16	/* lines reported per interface */
#define GB_CPULIST_LEN		64	/* "0,2-3", truncated with "..." */
#define GB_MAX_WARNINGS		8
#define GB_WARNING_LEN		192
#define GB_MAX_FINDINGS		24
#define GB_HIST_BINS		10	/* capture_bin_max[] below */

/* One /proc/interrupts line of the test interface, over the test. */
struct gb_irq_line {
	char		name[16];	/* "41", "130" */
	char		chip[48];	/* "OpenPIC Level", "IR-PCI-MSI 524288-edge" */
	char		actions[96];	/* "uhci_hcd:usb3, eth3" */
	int		shared;		/* actions name another device too */
	uint64_t	count;		/* delta, summed over CPUs */
	char		cpus[GB_CPULIST_LEN]; /* CPUs it landed on: "0,2-3" */
	/*
	 * The spread (struct gb_spread below): count as a share of all the
	 * interface's lines' interrupts (has_share 0 when they took none),
	 * and the CPU whose count rose the most (-1: none rose).
	 */
	int		has_share;
	double		share_pct;
	int		top_cpu;
};

/* The test interface and its counters (deltas over the test). */
struct gb_iface_figures {
	char		name[GB_IFNAME_LEN];	/* "" when not found */
	int		has_counters;		/* sysfs statistics were read */
	uint64_t	rx_packets;
	uint64_t	tx_packets;
	uint64_t	rx_bytes;
	uint64_t	tx_bytes;
	int		irq_lines;		/* number of /proc/interrupts lines */
	char		irq_list[GB_IRQLIST_LEN]; /* their names, comma separated */
	int		has_interrupts;		/* irq_lines > 0 and both reads ok */
	uint64_t	interrupts;		/* summed over lines and CPUs */
	int		has_irq_per_packet;
	double		irq_per_packet;		/* interrupts / data packets */
	int		has_softirq;
	uint64_t	net_rx_softirqs;	/* NET_RX summed over CPUs */
	uint64_t	net_tx_softirqs;
	unsigned	nlines;			/* <= GB_MAX_IRQ_LINES */
	struct gb_irq_line lines[GB_MAX_IRQ_LINES];
	char		irq_note[96];		/* why there are no lines */
	int		has_irq_per_segment;
	double		irq_per_segment;	/* interrupts / data segments */
};

/*
 * The spread: how the test's interrupts and softirq work went over the
 * host's CPUs, and the interface's queues against its interrupt lines
 * (the lines' shares are in struct gb_irq_line).  Per CPU from the
 * cpuN rows of /proc/stat and the columns of /proc/softirqs; at most
 * GB_SPREAD_MAX_CPUS of them, the busiest, when the host has more.
 */
#define GB_SPREAD_MAX_CPUS	64

struct gb_spread_cpu {
	int		cpu;		/* N of "cpuN" */
	double		busy_pct;	/* of this CPU's time, as host_cpu's */
	double		irq_pct;
	double		softirq_pct;
	int		has_softirqs;	/* /proc/softirqs has its column */
	uint64_t	net_rx;		/* NET_RX softirqs it ran */
	uint64_t	net_tx;
};

struct gb_spread {
	int		has;		/* both snapshots were taken */
	unsigned	ncpus;		/* CPUs measured (in both samples) */
	unsigned	ncpu;		/* entries in cpu[]: min(ncpus, max) */
	struct gb_spread_cpu cpu[GB_SPREAD_MAX_CPUS];	/* ids ascending */
	int		has_queues;	/* SYSFS/class/net/IF/queues was read */
	uint32_t	rx_queues;	/* its rx-N entries */
	uint32_t	tx_queues;	/* its tx-N entries */
};

/* TCP_INFO of the data sockets, read just before they close. */
struct gb_tcp {
	int		has;
	uint32_t	retransmits;	/* tcpi_total_retrans, summed */
	uint32_t	rtt_us;		/* tcpi_rtt, mean over streams */
	uint32_t	rttvar_us;
	uint32_t	cwnd;		/* tcpi_snd_cwnd (segments), summed */
	uint32_t	mss;		/* tcpi_snd_mss of stream 0 */
	uint32_t	advmss;		/* tcpi_advmss of stream 0 */
	uint32_t	pmtu;		/* tcpi_pmtu of stream 0 */
	uint64_t	segs_out;	/* tcpi_segs_out, summed */
	uint64_t	segs_in;
	uint64_t	data_segs_out;
	uint64_t	data_segs_in;
	int		has_limited;	/* the kernel has the fields below */
	uint64_t	busy_us;	/* tcpi_busy_time, summed */
	uint64_t	rwnd_limited_us;	/* tcpi_rwnd_limited */
	uint64_t	sndbuf_limited_us;	/* tcpi_sndbuf_limited */
	uint32_t	snd_wnd;	/* tcpi_snd_wnd (peer's window), stream 0 */
};

/*
 * Context that makes numbers comparable, read on each end.  Integers are
 * -1 and strings "" where a value is unavailable; note says why.
 */
struct gb_context {
	int		has;
	char		kernel[64];	/* uname release */
	char		cpu_model[96];
	int		ncpus;		/* online CPUs */
	char		driver[32];	/* ETHTOOL_GDRVINFO */
	char		driver_version[32];
	char		bus[48];	/* bus_info: "0000:03:00.0" */
	int64_t		speed_mbps;	/* link speed, -1 unknown */
	char		duplex[8];	/* "full", "half", "" */
	int64_t		mtu;
	/* Offloads: 1 on, 0 off, -1 unknown. */
	int		rx_checksum, tx_checksum, tso, gso, gro, lro;
	/* Interrupt coalescing; -1 when the driver does not say. */
	int64_t		rx_usecs, rx_frames, tx_usecs, tx_frames;
	int		adaptive_rx, adaptive_tx;
	/* Rings: current and maximum, -1 unknown. */
	int64_t		rx_ring, tx_ring, rx_ring_max, tx_ring_max;
	/* Buffer caps and congestion control. */
	int64_t		rmem_max, wmem_max;
	char		tcp_rmem[48];	/* "4096 131072 6291456" */
	char		tcp_wmem[48];
	char		congestion[16];	/* of the data sockets */
	char		note[160];	/* what was unavailable and why */
	/* Who measured: this end's host name and gigebench ("" unknown). */
	char		hostname[64];	/* uname nodename */
	char		version[48];	/* "0.1.0 (7ca7f91)" */
};

/*
 * Upper bounds, inclusive, of the frame-size histogram bins, in bytes of
 * pcap_pkthdr.len: the frame as the kernel handed it to the capture,
 * link-layer header included, FCS excluded.  Bin i counts the frames
 * longer than bound i-1 and no longer than bound i; the last bin has no
 * bound (infinity, null in JSON).
 *
 *	64	a minimum Ethernet frame with FCS; bare ACKs with TCP
 *		timestamps are 66 and land in the next bin
 *	1518	a full 1500-MTU Ethernet frame with FCS (1514 captured;
 *		1518 also holds a 1500-MTU frame with an 802.1Q tag)
 *	9018	a full 9000-MTU jumbo frame with FCS (9014 captured)
 *
 * A frame larger than the interface's MTU plus its link header is not on
 * any wire: it is a GSO aggregate seen before segmentation (tx) or a GRO
 * aggregate seen after coalescing (rx).
 */
static const uint32_t capture_bin_max[] = {
	64, 128, 256, 512, 1024, 1518, 4096, 9018, 16384, UINT32_MAX
};
_Static_assert(sizeof(capture_bin_max) / sizeof(capture_bin_max[0]) ==
    GB_HIST_BINS, "capture_bin_max must have GB_HIST_BINS bounds");

/* libpcap capture of the test's own flows (--capture). */
struct gb_capture {
	int		has;
	uint64_t	frames_rx, frames_tx;
	uint64_t	bytes_rx, bytes_tx;	/* frame bytes on the wire */
	uint64_t	hist_rx[GB_HIST_BINS];	/* frame sizes */
	uint64_t	hist_tx[GB_HIST_BINS];
	uint32_t	max_frame_rx, max_frame_tx;
	uint64_t	drops;			/* pcap_stats ps_drop + ps_ifdrop */
	char		note[128];		/* why it is missing */
};

/*
 * SO_SNDBUF or SO_RCVBUF of a side's first data connection, as netperf's
 * omni output gives them: what was asked, what the kernel set at the
 * start, at the end, and the largest seen at the interval samples and
 * the end (autotuning grows a buffer nobody set: ss -tmi shows rb10557135
 * where the start read 131072).  0: not known.
 */
struct gb_sockbuf {
	uint32_t	requested;	/* 0 = not set, kernel default */
	uint32_t	actual;		/* getsockopt() after setting: initial */
	uint32_t	final;		/* at the end of the test */
	uint32_t	peak;		/* the largest read */
};

/*
 * One data connection (stream) of a side.  Stream i of the sender and
 * stream i of the receiver are the same connection.
 */
struct gb_stream {
	uint64_t	bytes;		/* payload it moved */
	double		seconds;	/* test start to its last byte */
	int		cpu;		/* sched_getcpu() as it ended, -1 */
	int		pinned;		/* its one CPU after -A, -1 not pinned */
	int		path;		/* enum gb_path it really used */
	/* TCP_INFO as it ended (has_tcp): tcpi_total_retrans, tcpi_rtt. */
	int		has_tcp;
	uint32_t	retrans;
	uint32_t	rtt_us;
	uint64_t	transactions;	/* --rr: done on this flow, else 0 */
};

/*
 * All of a side's flows (streams[] keeps the first GB_MAX_STREAMS of
 * them): how their rates spread, over every flow (flowstat.h).  Mbit/s
 * of a flow is its bytes over its seconds; with --rr, transactions/s
 * too.  Jain's fairness index (sum x)^2 / (n sum x^2) of the flows'
 * Mbit/s: 1 when all are equal, 1/n when one flow has it all.
 */
struct gb_flows {
	int		has;		/* n >= 1 and the figures are known */
	unsigned	n;		/* flows on this end */
	unsigned	threads;	/* worker threads that carried them */
	double		mbps_min, mbps_p50, mbps_max;
	double		jain;
	int		has_tps;	/* --rr */
	double		tps_min, tps_p50, tps_max;
	int		has_tcp;	/* some flow's TCP_INFO was read */
	uint32_t	retrans_max;	/* of the flow that had most */
	uint32_t	rtt_us_min, rtt_us_p50, rtt_us_max;
};

/* -Z: MSG_ZEROCOPY completions from the error queues, all streams. */
struct gb_zerocopy {
	int		has;		/* some stream sent with MSG_ZEROCOPY */
	uint64_t	sends;		/* send(MSG_ZEROCOPY) calls that sent */
	uint64_t	completions;	/* of those, completed by the kernel */
	uint64_t	copied;		/* ... with SO_EE_CODE_ZEROCOPY_COPIED */
};

/*
 * -u: one end's datagrams, all streams.  The sender counts what it sent
 * (and what the kernel refused); the receiver what arrived, told apart
 * by the sequence numbers (seqstat.h).  Loss is the sender's sent less
 * the receiver's received, known once both sides are (result_udp_lost).
 */
/* --rr: the transactions an end completed (asked, or answered). */
struct gb_rr {
	int		has;
	uint64_t	transactions;	/* asker: answered in time; answerer:
					   answers sent */
	/*
	 * -u: what datagrams add.  The asker's timeout (0 on the answerer,
	 * whose lost and late are 0 and not reported), its requests sent
	 * (answered + lost), the requests given up after the timeout, and
	 * the answers that came after it; the answerer's requests taken.
	 * Stray: datagrams not of this stream, or of a wrong length,
	 * neither answered nor counted as answers.  Unsent: requests or
	 * answers the kernel would not send (ENOBUFS, EAGAIN, ECONNREFUSED
	 * for an earlier datagram's ICMP), each also lost to the asker.
	 */
	int		has_udp;
	uint32_t	timeout_ms;
	uint64_t	requests;
	uint64_t	lost;
	uint64_t	late;
	uint64_t	stray;
	uint64_t	unsent;
	/* --crr: connections made (asker) or answered (listener), else 0 */
	uint64_t	connections;
};

/*
 * --under-load, the connecting side: the probes that ran beside the
 * load (params_probe's test): their transactions, how long, the TOS
 * their first socket read back (-1: unknown) and their latencies.
 */
struct gb_probe_slice {
	int		omitted;	/* in the load's --omit */
	double		start_s, end_s;	/* from the start */
	uint64_t	transactions;	/* answered in the slice */
	double		p50_us, p99_us;	/* 0 without transactions */
};

struct gb_probe {
	int		has;
	unsigned	streams;
	/*
	 * UDP probes (--probe-rate): rate a second a flow; the requests
	 * of the measured part (sent after the omit, or in flight at its
	 * end) and those of them lost (no answer within the timeout).
	 */
	int		udp;
	uint32_t	rate;
	uint64_t	requests, lost;
	uint64_t	transactions;
	double		seconds;
	int		tos;
	struct lathist	latency;
	/* With params.interval_ms: the probes' latency slice by slice. */
	unsigned	nslices;
	struct gb_probe_slice slices[GB_MAX_INTERVALS];
};

struct gb_udp {
	int		has;		/* a UDP test's figures */
	int		receiver;	/* the receiver's (else the sender's) */
	uint32_t	length;		/* bytes per datagram, header included */
	uint32_t	batch;		/* datagrams per system call */
	uint64_t	datagrams;	/* sent, or received (distinct) */
	uint64_t	enobufs;	/* sender: ENOBUFS/EAGAIN, not sent */
	uint64_t	refused;	/* sender: ECONNREFUSED (ICMP) */
	uint64_t	gaps;		/* receiver: by the sequence numbers */
	uint64_t	ooo;		/* receiver: arrived late */
	uint64_t	dup;		/* receiver: arrived twice */
	uint64_t	stray;		/* receiver: not this test's */
	double		jitter_ms;	/* receiver: RFC 3550, worst stream */
	uint64_t	gro_trains;	/* receiver: --gro messages of many */
	/* receiver: SO_RXQ_OVFL, what its own sockets dropped (full) */
	int		has_sock_drops;
	uint64_t	sock_drops;
	/*
	 * The kernel's counts over the test on this end's host (udpstat.h):
	 * all of its UDP (IPv4 and IPv6), not only the test's; and the
	 * test interface's drops.
	 */
	int		has_kernel;
	uint64_t	rcvbuf_errors, sndbuf_errors, in_errors, in_csum_errors;
	int		has_ifdrops;
	uint64_t	if_rx_dropped, if_tx_dropped, if_rx_missed;
};

/* One end's figures. */
struct gb_side {
	int			has;		/* this side's figures are known */
	uint64_t		bytes;		/* payload, all streams */
	double			seconds;	/* CLOCK_MONOTONIC, start to end */
	double			mbps;		/* 10^6 bit/s */
	uint64_t		calls;		/* write()/read() calls that moved data */
	struct gb_proc_cpu	cpu;
	struct gb_host_cpu	host_cpu;
	struct gb_iface_figures	iface;
	struct gb_spread	spread;
	struct gb_tcp		tcp;
	struct gb_sockbuf	sndbuf;
	struct gb_sockbuf	rcvbuf;
	struct gb_context	context;
	struct gb_capture	capture;
	unsigned		nwarnings;	/* knobs that did not take */
	char			warnings[GB_MAX_WARNINGS][GB_WARNING_LEN];
	int			data_path;	/* enum gb_path of all streams */
	uint32_t		rcvlowat;	/* SO_RCVLOWAT read back on the
						   receiving end; 0 unknown */
	struct gb_zerocopy	zerocopy;
	int			tos;		/* IP_TOS read back, -1 */
	int			has_fq_rate;	/* SO_MAX_PACING_RATE set */
	uint64_t		fq_rate;	/* ... read back, bytes/s */
	struct gb_udp		udp;
	struct gb_rr		rr;
	struct gb_profile	profile;	/* --profile */
	struct gb_flows		flows;		/* every flow, summarised */
	unsigned		nstreams;	/* <= GB_MAX_STREAMS kept */
	struct gb_stream	streams[GB_MAX_STREAMS];
};

/* One diagnosis finding, with the numbers behind it in its text. */
struct gb_finding {
	char	code[24];	/* "cpu_bound", "window_limited", ... */
	char	side[12];	/* "sender", "receiver", "both", "path" */
	char	text[224];
};

struct gb_interval {
	int		omitted;	/* --omit: before the measured start */
	int		reverse;	/* --bidir: of the half going back */
	double		start_s;	/* from the start, or the omit's end */
	double		end_s;
	uint64_t	bytes;
	/* -u: datagrams in the slice; the receiver's gaps and jitter. */
	int		has_udp;
	uint64_t	datagrams;
	uint64_t	lost;		/* receiver: new gaps in the seqs */
	double		jitter_ms;	/* receiver: at the slice's end */
	/*
	 * The sending end's TCP_INFO, summed over its streams: retransmits
	 * in the slice, cwnd and the mean RTT at its end, and the share of
	 * the slice (of all streams' time) that the peer's window and the
	 * send buffer held the sender back (kernel 4.10+: has_limited).
	 */
	int		has_tcp;
	uint32_t	retrans;
	uint32_t	cwnd;		/* segments */
	uint32_t	rtt_us;
	int		has_limited;
	double		rwnd_limited_pct;
	double		sndbuf_limited_pct;
	/*
	 * This end's host CPU over the slice: all CPUs, the busiest one,
	 * and how many CPUs there are (for CPU time: busy_pct of them).
	 */
	int		has_host;
	double		host_busy_pct;
	double		host_max_cpu_pct;
	int		host_ncpus;
	/*
	 * This end's process CPU (user + system) over the slice, the test
	 * interface's interrupts and the host's NET_RX softirqs in it; with
	 * --rr's transactions, what one cost (result_iv_cost).
	 */
	int		has_proc;
	double		proc_cpu_s;
	int		has_irq;
	uint64_t	interrupts;
	int		has_softirq;
	uint64_t	net_rx_softirqs;
	/*
	 * --rr: the slice's transactions, and on the asking end their
	 * latencies' P50, P99 and maximum (lathist.h's resolution).
	 */
	int		has_rr;
	uint64_t	transactions;
	int		has_latency;
	double		p50_us, p99_us, max_us;
};

/* The progress line's figures, about once a second while a test runs. */
struct gb_progress {
	double		elapsed_s;	/* from the start, --omit included */
	double		total_s;	/* -T plus --omit; 0: a count test */
	uint64_t	bytes;		/* this end's, all streams, so far */
	double		mbps;		/* over the last second */
	int		done;		/* the test is over: clear the line */
};

/* "198.18.0.1:5001", "[2001:db8::1]:5001": one connection's two ends. */
#define GB_ENDPOINT_LEN	56
struct gb_endpoints {
	char	local[GB_ENDPOINT_LEN];
	char	remote[GB_ENDPOINT_LEN];
};

#define GB_TITLE_LEN	128
#define GB_COMMAND_LEN	1024

/*
 * Where, when and with what this end made the result.  The peer's host
 * name, version and kernel are in its side's context.
 */
struct gb_provenance {
	char			revision[48];	/* of this build, or "" */
	int64_t			start_us;	/* CLOCK_REALTIME, 0 unknown */
	int64_t			end_us;
	char			title[GB_TITLE_LEN];	/* --title, or "" */
	char			command[GB_COMMAND_LEN]; /* argv, quoted */
	char			peer_version[48];	/* its hello, or "" */
	struct gb_endpoints	control;
	unsigned		ndata;		/* <= GB_MAX_STREAMS */
	struct gb_endpoints	data[GB_MAX_STREAMS];
	int			interrupted;	/* SIGINT/SIGTERM ended it */
};

struct gb_result {
	struct gb_params	params;
	struct gb_provenance	prov;
	char			peer[64];	/* numeric address of the peer */
	uint16_t		port;
	int			local_is_sender;	/* which side printed this */
	struct gb_side		sender;
	struct gb_side		receiver;
	/*
	 * --bidir: the other direction's two ends (params.direction says
	 * which way sender -> receiver went; these went back).  Each end's
	 * host figures (CPU, interrupts, packets) are shared by the two
	 * directions: result_bidir_host() gives the reverse sides the
	 * forward ones' of the same host.
	 */
	struct gb_side		rsender;
	struct gb_side		rreceiver;
	unsigned		nfindings;	/* diag.c, from both sides */
	struct gb_finding	findings[GB_MAX_FINDINGS];
	unsigned		nintervals;
	struct gb_interval	intervals[GB_MAX_INTERVALS];
	/*
	 * The client only: the listener's own slices, as its interval
	 * messages brought them, by the same index as this end's.
	 */
	unsigned		npeer_intervals;
	struct gb_interval	peer_intervals[GB_MAX_INTERVALS];
	/*
	 * --bidir -i, the client only: the reverse direction's slices,
	 * this end's and the listener's, by the same index.
	 */
	unsigned		nrintervals;
	struct gb_interval	rintervals[GB_MAX_INTERVALS];
	unsigned		nrpeer_intervals;
	struct gb_interval	rpeer_intervals[GB_MAX_INTERVALS];
	/* --rr, the asking end: every stream's latencies (lathist.h). */
	int			has_latency;
	struct lathist		latency;
	/* --under-load's loaded phase, the connecting side: the probes. */
	struct gb_probe		probe;
};

/* Derived figures, computed once after both sides are known. */
double	result_mbps(uint64_t bytes, double seconds);
double	result_megabytes(uint64_t bytes);

/*
 * -u: a test's datagrams as both ends saw them.  lost is the sender's
 * count less the receiver's when both sides are known (exact, also for
 * the last datagrams), else the receiver's gaps in the sequence numbers
 * (sent_known 0).  Rates are per second of each end's own time.
 */
/*
 * What one datagram (-u) or one transaction (--rr) cost an end: its
 * process CPU and its host's CPU in microseconds, its interface's
 * interrupts and its NET_TX (a -u sender) or NET_RX softirqs, each per
 * datagram it sent or received, or per transaction.
 */
struct gb_cost {
	int		has;
	double		cpu_us;
	int		has_host;	/* the host's CPU was read */
	double		host_us;
	int		has_irq;
	double		irq;
	int		has_softirq;
	double		softirq;
};

struct gb_udp_figures {
	int		has;
	int		sent_known;
	uint64_t	sent, received, lost;
	double		lost_pct;
	double		tx_pps, rx_pps;
	double		jitter_ms;
	struct gb_cost tx, rx;
};
void	result_udp(const struct gb_result *, struct gb_udp_figures *);

/*
 * --rr: the asking end's transactions (the answering end's when its
 * count alone is known) and their rate, and what a transaction cost each
 * end (struct gb_cost's figures per transaction, the softirqs NET_RX:
 * both ends receive once a transaction).
 */
struct gb_rr_figures {
	int		has;
	uint64_t	transactions;
	double		per_s;
	struct gb_cost ask, answer;
};
void	result_rr(const struct gb_result *, struct gb_rr_figures *);
/*
 * --rr: what a transaction of one -i slice cost the end that took it
 * (has 0 for a slice without transactions or process CPU).
 */
void	result_iv_cost(const struct gb_interval *, struct gb_cost *);

#endif /* GB_RESULT_H */
