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

#include "params.h"

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
};

/* TCP_INFO of the data sockets, read just before they close. */
struct gb_tcp {
	int		has;
	uint32_t	retransmits;	/* tcpi_total_retrans, summed */
	uint32_t	rtt_us;		/* tcpi_rtt, mean over streams */
	uint32_t	rttvar_us;
	uint32_t	cwnd;		/* tcpi_snd_cwnd (segments), summed */
	uint32_t	mss;		/* tcpi_snd_mss of stream 0 */
};

struct gb_sockbuf {
	uint32_t	requested;	/* 0 = not set, kernel default */
	uint32_t	actual;		/* getsockopt() after setting */
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
	struct gb_tcp		tcp;
	struct gb_sockbuf	sndbuf;
	struct gb_sockbuf	rcvbuf;
};

struct gb_interval {
	double		start_s;	/* from test start */
	double		end_s;
	uint64_t	bytes;
};

struct gb_result {
	struct gb_params	params;
	char			peer[64];	/* numeric address of the peer */
	uint16_t		port;
	int			local_is_sender;	/* which side printed this */
	struct gb_side		sender;
	struct gb_side		receiver;
	unsigned		nintervals;
	struct gb_interval	intervals[GB_MAX_INTERVALS];
};

/* Derived figures, computed once after both sides are known. */
double	result_mbps(uint64_t bytes, double seconds);
double	result_megabytes(uint64_t bytes);

#endif /* GB_RESULT_H */
