/*
 * bounds.h: what a listener allows, whatever a client asks or does
 * (issue 6): its deadlines, the largest test it serves, and its caps on
 * connections that have not yet said what they are.  The defaults suit a
 * receiver on a public address; the --max-* and --*-timeout options
 * change them (opts_bounds.c), and man/gigebench.1 (LIMITS AND TIMEOUTS)
 * lists them.
 *
 * A request over a limit is refused before any data flows
 * (bounds_check); what a test may move once it runs is derived here too
 * (bounds_deadline_ms, bounds_stream_cap, bounds_total_cap), so that the
 * numbers live in one place.  Pure: no sockets, no clocks, no globals.
 */
#ifndef GB_BOUNDS_H
#define GB_BOUNDS_H

#include <stddef.h>
#include <stdint.h>

#include "base/params.h"

struct gb_bounds {
	uint32_t	handshake_ms;	/* --handshake-timeout: accept->hello */
	uint32_t	silent_ms;	/* --silent-timeout (both roles) */
	uint32_t	max_duration_ms;	/* --max-duration */
	uint64_t	max_bytes;	/* --max-bytes, all streams; 0 = none */
	uint32_t	max_streams;	/* --max-flows (--max-streams) */
	uint32_t	max_buflen;	/* --max-length */
	uint32_t	max_sockbuf;	/* --max-sockbuf */
	uint64_t	max_rate;	/* --max-rate, bytes/s, 0 = none */
	uint32_t	max_pending;	/* --max-pending */
	uint32_t	max_pending_source;	/* --max-pending-source */
};

/* Defaults: a public receiver (see LIMITS AND TIMEOUTS in the man page). */
#define GB_DEFAULT_HANDSHAKE_MS		5000u
#define GB_DEFAULT_SILENT_MS		10000u
#define GB_DEFAULT_MAX_DURATION_MS	(300u * 1000)
#define GB_DEFAULT_MAX_STREAMS		1024u	/* --max-flows */
#define GB_DEFAULT_MAX_BUFLEN		GB_MAX_BUFLEN
#define GB_DEFAULT_MAX_SOCKBUF		(16u * 1024 * 1024)
#define GB_DEFAULT_MAX_PENDING		256u
#define GB_DEFAULT_MAX_PENDING_SOURCE	16u

/* What the options accept. */
#define GB_MIN_HANDSHAKE_MS		100u
#define GB_MAX_HANDSHAKE_MS		(600u * 1000)
#define GB_MIN_SILENT_MS		500u
#define GB_MAX_SILENT_MS		(3600u * 1000)
#define GB_MIN_MAX_BYTES		(UINT64_C(1) << 10)
#define GB_MAX_MAX_BYTES		(UINT64_C(1) << 50)
#define GB_MIN_MAX_RATE_MBPS		1u
#define GB_MAX_PENDING_LIMIT		65536u

void	bounds_init(struct gb_bounds *);

/*
 * The limits as the listener's first line says them, in its options'
 * words: "--max-duration 300 s, --max-streams 32, ...".  Pure.
 */
void	bounds_text(const struct gb_bounds *, char *buf, size_t len);

/*
 * 0 when the listener serves the test p asks for, else -1 and the
 * refusal, naming what was asked, what is allowed and the option that
 * allows it.
 */
int	bounds_check(const struct gb_bounds *, const struct gb_params *p,
	    char *err, size_t errlen);

/*
 * The listener's part: when it transmits (p->direction says the client
 * receives) under --max-rate and the client asked for no pacing, each
 * stream is paced at its share of the limit.
 */
void	bounds_apply(const struct gb_bounds *, struct gb_params *p);

/*
 * From the start, how long the listener lets the test's data flow: its
 * duration, or --max-duration when that is shorter (a test bounded by -n
 * alone asks for the longest duration), plus the silent-peer timeout as
 * grace for set-up on the client and the drain of the socket buffers
 * (and, with -u --rr, twice the request timeout: its last wait).
 */
uint64_t bounds_deadline_ms(const struct gb_bounds *,
	    const struct gb_params *p);

/* Bytes one stream may carry: -n buffers plus one, or 0 for no cap. */
uint64_t bounds_stream_cap(const struct gb_params *p);

/* Bytes all streams may carry: --max-bytes plus one buffer a stream. */
uint64_t bounds_total_cap(const struct gb_bounds *,
	    const struct gb_params *p);

/*
 * -u toward the listener under --max-rate: the bytes/s of payload all
 * streams may bring once the test runs, whatever the hello said (0: no
 * bound).  bounds_rate_over says whether bytes in elapsed_ms are over
 * it: more than 1.1 times the rate over the time so far, plus half a
 * second of it as a burst (a paced sender catches up for at most 100 ms,
 * and its batches leave as bursts), with the reason in why.  A sender
 * that lies in its hello is stopped within about half a second; one at
 * its -R never is.
 */
uint64_t bounds_rate_cap(const struct gb_bounds *,
	    const struct gb_params *p);
int	bounds_rate_over(uint64_t cap, uint64_t bytes, uint64_t elapsed_ms,
	    char *why, size_t whylen);

#endif /* GB_BOUNDS_H */
