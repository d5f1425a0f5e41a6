/*
 * bounds.c: a listener's limits (see bounds.h), as data and pure
 * functions.  The refusal texts reach the client's terminal: each says
 * what the test asks for, what this listener allows and which option of
 * the listener allows more.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "base/bounds.h"
#include "base/units.h"

void
bounds_init(struct gb_bounds *l)
{
	memset(l, 0, sizeof(*l));
	l->handshake_ms = GB_DEFAULT_HANDSHAKE_MS;
	l->silent_ms = GB_DEFAULT_SILENT_MS;
	l->max_duration_ms = GB_DEFAULT_MAX_DURATION_MS;
	l->max_bytes = 0;
	l->max_streams = GB_DEFAULT_MAX_STREAMS;
	l->max_buflen = GB_DEFAULT_MAX_BUFLEN;
	l->max_sockbuf = GB_DEFAULT_MAX_SOCKBUF;
	l->max_rate = 0;
	l->max_pending = GB_DEFAULT_MAX_PENDING;
	l->max_pending_source = GB_DEFAULT_MAX_PENDING_SOURCE;
}

void
bounds_text(const struct gb_bounds *l, char *buf, size_t len)
{
	char len_s[32], sb[32], bytes[32], rate[32];

	units_format_size(l->max_buflen, len_s, sizeof(len_s));
	units_format_size(l->max_sockbuf, sb, sizeof(sb));
	if (l->max_bytes != 0)
		units_format_size(l->max_bytes, bytes, sizeof(bytes));
	else
		snprintf(bytes, sizeof(bytes), "none");
	if (l->max_rate != 0)
		snprintf(rate, sizeof(rate), "%.6g Mbps",
		    (double)l->max_rate * 8 / 1e6);
	else
		snprintf(rate, sizeof(rate), "none");
	snprintf(buf, len, "--max-duration %g s, --max-flows %" PRIu32
	    ", --max-length %s, --max-sockbuf %s, --max-bytes %s, "
	    "--max-rate %s, --max-pending %" PRIu32 " (%" PRIu32 " a source), "
	    "--silent-timeout %g s, --handshake-timeout %g s",
	    l->max_duration_ms / 1000.0, l->max_streams, len_s, sb, bytes,
	    rate, l->max_pending, l->max_pending_source,
	    l->silent_ms / 1000.0, l->handshake_ms / 1000.0);
}

/* The listener transmits when the client asked to receive (-r HOST, --bidir). */
static int
listener_sends(const struct gb_params *p)
{
	return params_listener_sends(p);
}

/* "1000 Mbit/s", or "0.5 Mbit/s" when it is not whole. */
static const char *
rate_text(uint64_t bytes_s, char *buf, size_t len)
{
	uint64_t bits = bytes_s * 8;

	if (bits % 1000000 == 0)
		snprintf(buf, len, "%" PRIu64 " Mbit/s", bits / 1000000);
	else
		snprintf(buf, len, "%.3f Mbit/s", (double)bits / 1e6);
	return buf;
}

static int
check_duration(const struct gb_bounds *l, const struct gb_params *p,
    char *err, size_t errlen)
{
	uint64_t ms = (uint64_t)p->duration_ms + p->omit_ms;

	/* -n alone asks for the longest duration: it is cut, not refused. */
	if (ms <= l->max_duration_ms || (p->nbuf != 0 &&
	    p->duration_ms == GB_MAX_DURATION_MS))
		return 0;
	snprintf(err, errlen, "the test asks for %g s%s; this listener allows "
	    "at most %g s (its --max-duration)", ms / 1000.0,
	    p->omit_ms != 0 ? " with --omit" : "",
	    l->max_duration_ms / 1000.0);
	return -1;
}

static int
check_sizes(const struct gb_bounds *l, const struct gb_params *p,
    char *err, size_t errlen)
{
	uint32_t sockbuf = listener_sends(p) ? p->sndbuf : p->rcvbuf;
	char a[32], b[32];

	/* --bidir: its receiving half's buffer may be the larger. */
	if (p->bidir && p->rcvbuf > sockbuf)
		sockbuf = p->rcvbuf;
	if (params_conns(p) > l->max_streams) {
		snprintf(err, errlen, "the test asks for %" PRIu32 " flows%s; "
		    "this listener allows at most %" PRIu32 " (its "
		    "--max-flows)", params_conns(p), p->bidir ?
		    " (--bidir: -P each way)" : "", l->max_streams);
		return -1;
	}
	if (p->buflen > l->max_buflen) {
		snprintf(err, errlen, "the test asks for a buffer length of "
		    "%s; this listener allows at most %s (its --max-length)",
		    units_format_size(p->buflen, a, sizeof(a)),
		    units_format_size(l->max_buflen, b, sizeof(b)));
		return -1;
	}
	if (sockbuf > l->max_sockbuf) {
		snprintf(err, errlen, "the test asks the listener for a %s "
		    "of %s; this listener allows at most %s (its "
		    "--max-sockbuf)", sockbuf == p->sndbuf && listener_sends(p) ?
		    "SO_SNDBUF" :
		    "SO_RCVBUF", units_format_size(sockbuf, a, sizeof(a)),
		    units_format_size(l->max_sockbuf, b, sizeof(b)));
		return -1;
	}
	return 0;
}

/* -l mtu (buflen 0): an MSS is at most 65535 bytes. */
static uint64_t
call_bytes(const struct gb_params *p)
{
	return p->buflen != GB_LEN_MTU ? p->buflen : GB_MAX_MSS;
}

static int
check_bytes(const struct gb_bounds *l, const struct gb_params *p,
    char *err, size_t errlen)
{
	uint64_t per_call = call_bytes(p) * params_conns(p);
	char a[32];

	/* nbuf x buflen x streams > max, without the product overflowing. */
	if (l->max_bytes == 0 || p->nbuf == 0 || per_call == 0 ||
	    p->nbuf <= l->max_bytes / per_call)
		return 0;
	snprintf(err, errlen, "the test asks for %" PRIu64 " buffers of %"
	    PRIu32 " bytes on %" PRIu32 " stream%s; this listener moves at "
	    "most %s bytes a test (its --max-bytes)", p->nbuf, p->buflen,
	    params_conns(p), params_conns(p) == 1 ? "" : "s",
	    units_format_size(l->max_bytes, a, sizeof(a)));
	return -1;
}

static int
check_rate(const struct gb_bounds *l, const struct gb_params *p,
    char *err, size_t errlen)
{
	char a[32], b[32];

	if (!listener_sends(p) || l->max_rate == 0 || p->fq_rate == 0 ||
	    p->fq_rate * p->streams <= l->max_rate)
		return 0;
	snprintf(err, errlen, "the test asks the listener to transmit at %s "
	    "(--fq-rate x %" PRIu32 " stream%s); this listener transmits at "
	    "most %s (its --max-rate)",
	    rate_text(p->fq_rate * p->streams, a, sizeof(a)), p->streams,
	    p->streams == 1 ? "" : "s", rate_text(l->max_rate, b, sizeof(b)));
	return -1;
}

/* -u: the payload bytes/s a test's -R asks for, all streams; 0 unpaced. */
static uint64_t
udp_rate(const struct gb_params *p)
{
	uint64_t per = p->rate_pps != 0 ? p->rate_pps * p->buflen :
	    p->rate_bps / 8;

	return per * p->streams;
}

/*
 * -u under --max-rate, either way: a paced test within it, or an unpaced
 * one the listener paces itself (it transmits); an unpaced sender toward
 * it is refused, as one over it, and so is -u --rr, which -R cannot pace
 * (its rate is its round trips').
 */
static int
check_udp_rate(const struct gb_bounds *l, const struct gb_params *p,
    char *err, size_t errlen)
{
	uint64_t want = udp_rate(p);
	char a[32], b[32];

	if (!p->udp || l->max_rate == 0 || (want != 0 && want <= l->max_rate))
		return 0;
	if (want == 0 && listener_sends(p))
		return 0;	/* bounds_apply paces it */
	if (want == 0 && p->rr)	/* -R is no option of --rr's */
		snprintf(err, errlen, "-u --rr cannot be paced, and this "
		    "listener takes at most %s of UDP (its --max-rate): run "
		    "it against a listener without --max-rate, or over TCP",
		    rate_text(l->max_rate, b, sizeof(b)));
	else if (want == 0)
		snprintf(err, errlen, "an unpaced UDP test (-R 0); this "
		    "listener takes at most %s (its --max-rate): give -R",
		    rate_text(l->max_rate, b, sizeof(b)));
	else
		snprintf(err, errlen, "the test asks for %s of UDP (-R x %"
		    PRIu32 " stream%s); this listener %s at most %s (its "
		    "--max-rate)", rate_text(want, a, sizeof(a)), p->streams,
		    p->streams == 1 ? "" : "s", listener_sends(p) ?
		    "transmits" : "takes", rate_text(l->max_rate, b,
		    sizeof(b)));
	return -1;
}

/*
 * --crr: each stream has a new connection waiting for its first message
 * at any time, all from the test's address; more streams than
 * --max-pending-source would have pending.c close the test's own.
 */
static int
check_crr(const struct gb_bounds *l, const struct gb_params *p,
    char *err, size_t errlen)
{
	if (!p->crr || p->streams <= l->max_pending_source)
		return 0;
	snprintf(err, errlen, "a --crr test of %" PRIu32 " streams opens as "
	    "many connections at once from one address; this listener "
	    "takes at most %" PRIu32 " (its --max-pending-source)",
	    p->streams, l->max_pending_source);
	return -1;
}

int
bounds_check(const struct gb_bounds *l, const struct gb_params *p,
    char *err, size_t errlen)
{
	if (check_duration(l, p, err, errlen) == -1 ||
	    check_sizes(l, p, err, errlen) == -1 ||
	    check_bytes(l, p, err, errlen) == -1 ||
	    check_rate(l, p, err, errlen) == -1 ||
	    check_udp_rate(l, p, err, errlen) == -1 ||
	    check_crr(l, p, err, errlen) == -1)
		return -1;
	return 0;
}

void
bounds_apply(const struct gb_bounds *l, struct gb_params *p)
{
	if (!listener_sends(p) || l->max_rate == 0 || p->streams == 0)
		return;
	/* -u: its own pacing, in bit/s of payload per stream. */
	if (p->udp && udp_rate(p) == 0) {
		p->rate_bps = l->max_rate * 8 / p->streams;
		return;
	}
	/* A share of 10,000 flows may be under the least pacing rate. */
	if (!p->udp && p->fq_rate == 0)
		p->fq_rate = l->max_rate / p->streams < GB_MIN_FQ_RATE ?
		    GB_MIN_FQ_RATE : l->max_rate / p->streams;
}

uint64_t
bounds_deadline_ms(const struct gb_bounds *l, const struct gb_params *p)
{
	uint64_t ms = (uint64_t)p->duration_ms + p->omit_ms;

	if (ms > l->max_duration_ms)
		ms = l->max_duration_ms;
	/*
	 * -u --rr: the asker's last requests may each wait a timeout; so
	 * may the UDP probes' (--probe-rate) beside any load.
	 */
	if (p->udp && p->rr)
		ms += 2 * (uint64_t)params_rr_timeout_ms(p->rr_timeout_ms);
	else if (p->probes != 0 && p->probe_rate != 0)
		ms += 2 * (uint64_t)GB_PROBE_TIMEOUT_MS;
	return ms + l->silent_ms;
}

uint64_t
bounds_stream_cap(const struct gb_params *p)
{
	uint64_t len = call_bytes(p);

	if (p->nbuf == 0 || p->nbuf > (UINT64_MAX - len) / len - 1)
		return 0;
	return (p->nbuf + 1) * len;
}

uint64_t
bounds_total_cap(const struct gb_bounds *l, const struct gb_params *p)
{
	if (l->max_bytes == 0)
		return 0;
	/* --bidir: each direction's half moves half of it. */
	return (p->bidir ? l->max_bytes / 2 : l->max_bytes) +
	    (uint64_t)p->streams * call_bytes(p);
}

uint64_t
bounds_rate_cap(const struct gb_bounds *l, const struct gb_params *p)
{
	return p->udp && !listener_sends(p) ? l->max_rate : 0;
}

int
bounds_rate_over(uint64_t cap, uint64_t bytes, uint64_t elapsed_ms,
    char *why, size_t whylen)
{
	long double allowed;
	char a[32], b[32];

	if (cap == 0)
		return 0;
	allowed = (long double)cap * (1.1L * (long double)elapsed_ms / 1000 +
	    0.5L);
	if ((long double)bytes <= allowed)
		return 0;
	snprintf(why, whylen, "the sender brought %s in %.2f s, over this "
	    "listener's --max-rate of %s: stopped",
	    units_format_size(bytes, a, sizeof(a)), (double)elapsed_ms / 1000,
	    rate_text(cap, b, sizeof(b)));
	return 1;
}
