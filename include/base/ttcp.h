/*
 * ttcp.h: the classic ttcp (--ttcp, or gigebench started as "ttcp"),
 * as plain data: its command line (struct ttcp_cfg, filled by
 * cli/ttcp_opts.h) and what one of its transfers counted (struct
 * ttcp_counts, filled by data/ttcp_xfer.h and printed by
 * out/ttcp_text.h).  The defaults and meanings are those of the BRL/SGI
 * ttcp.c of October 1991 (man/gigebench.1, TTCP MODE, says where later
 * variants differ and which is followed).
 */
#ifndef GB_TTCP_H
#define GB_TTCP_H

#include <stdint.h>

#include <sys/time.h>

#define TTCP_DEFAULT_BUFLEN	8192u
#define TTCP_DEFAULT_NBUF	2048u
#define TTCP_DEFAULT_PORT	5001u
#define TTCP_DEFAULT_ALIGN	16384u
#define TTCP_DEFAULT_FMT	'K'
/* -l: a UDP buffer is longer than the sentinel, as ttcp makes it. */
#define TTCP_SENTINEL_LEN	4u
#define TTCP_UDP_MIN_BUFLEN	5u
#define TTCP_MAX_BUFLEN		(64u << 20)
#define TTCP_MAX_ALIGN		(1u << 20)
/* The end sentinel, sent this many times after the data (ttcp: 1 + 4). */
#define TTCP_END_SENTINELS	5u

struct ttcp_cfg {
	int		trans;		/* -t: transmit (else -r receive) */
	int		udp;		/* -u */
	int		sink;		/* -s: source/sink a pattern */
	uint32_t	buflen;		/* -l */
	uint64_t	nbuf;		/* -n (-t -s only) */
	uint16_t	port;		/* -p */
	uint32_t	align;		/* -A: buffer start modulo this, 0 none */
	uint32_t	offset;		/* -O: ... plus this */
	uint32_t	sockbuf;	/* -b: SO_SNDBUF (-t) / SO_RCVBUF (-r) */
	char		fmt;		/* -f: k K m M g G */
	int		verbose;	/* -v */
	int		debug;		/* -d: SO_DEBUG */
	int		nodelay;	/* -D: TCP_NODELAY (-t) */
	int		fullblocks;	/* -B: read whole -l blocks (-r) */
	int		touch;		/* -T: read every byte received (-r) */
	int		json;		/* --json: the figures as JSON */
	/* A receiver's bounds, as a native listener's (bounds.h). */
	uint32_t	silent_ms;	/* --silent-timeout */
	uint32_t	max_duration_ms;	/* --max-duration */
	const char	*host;		/* -t: the receiver */
};

/* getrusage() fields ttcp prints, as two readings. */
struct ttcp_rusage {
	struct timeval	utime, stime;
	long		maxrss, ixrss, idrss, isrss;
	long		minflt, majflt, nswap, inblock, oublock;
	long		nvcsw, nivcsw;
};

/* One transfer's counts, as ttcp keeps them. */
struct ttcp_counts {
	uint64_t	nbytes;		/* payload, sentinels not counted */
	uint64_t	calls;		/* read/write/send/recv calls */
	double		realt;		/* seconds, ttcp's timer */
	double		cput;		/* process user+system seconds */
	struct ttcp_rusage ru0, ru1;	/* at the timer's start and end */
	uintptr_t	bufaddr;	/* where the buffer starts */
	char		peer[64];	/* -r TCP: the address accepted from */
	int		started;	/* -r -u: the start sentinel came */
	int		ended;		/* -r -u: an end sentinel came */
};

void	ttcp_cfg_init(struct ttcp_cfg *);
/* ttcp's pattern(): the printable ASCII characters over and over. */
void	ttcp_pattern(char *, size_t);

#endif /* GB_TTCP_H */
