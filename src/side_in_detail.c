/*
 * side_in_detail.c: decoding of the side members that explain a result
 * (TCP segments and limited times, each interrupt line and the spread
 * (side_spread.c), warnings, the host and interface context, the
 * capture, the data path, each stream and the flows (side_flows.c)),
 * with the same distrust as side_in.c: every member typed, ranged and
 * sized before it is copied.
 * The context and the capture are decoded by their own codecs.  No I/O.
 */
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <jansson.h>

#include "base/datapath.h"
#include "codec/capture_json.h"
#include "codec/context_json.h"
#include "codec/member.h"
#include "codec/profile_json.h"
#include "side_detail.h"
#include "side_member.h"

static int
tcp_details(struct side_in *in, const json_t *j, struct gb_tcp *t)
{
	const json_t *o;
	int y = SIDE_WANT_VALUE, l;

	if (!t->has)
		return 0;
	if (side_member_object(in, j, "tcp", y, &o) == -1 ||
	    side_member_u32(in, o, "advmss", y, &t->advmss) == -1 ||
	    side_member_u32(in, o, "pmtu", y, &t->pmtu) == -1 ||
	    side_member_u32(in, o, "snd_wnd", y, &t->snd_wnd) == -1 ||
	    side_member_uint(in, o, "segs_out", UINT64_MAX, y,
	    &t->segs_out) == -1 ||
	    side_member_uint(in, o, "segs_in", UINT64_MAX, y,
	    &t->segs_in) == -1 ||
	    side_member_uint(in, o, "data_segs_out", UINT64_MAX, y,
	    &t->data_segs_out) == -1 ||
	    side_member_uint(in, o, "data_segs_in", UINT64_MAX, y,
	    &t->data_segs_in) == -1 ||
	    (l = side_member_uint(in, o, "busy_us", UINT64_MAX,
	    SIDE_WANT_ANY, &t->busy_us)) == -1)
		return -1;
	in->leader = "tcp.busy_us";
	if (side_member_uint(in, o, "rwnd_limited_us", UINT64_MAX, l,
	    &t->rwnd_limited_us) == -1 ||
	    side_member_uint(in, o, "sndbuf_limited_us", UINT64_MAX, l,
	    &t->sndbuf_limited_us) == -1)
		return -1;
	t->has_limited = l;
	return 0;
}

static int
irq_line(struct side_in *in, const json_t *o, struct gb_irq_line *l)
{
	int y = SIDE_WANT_VALUE;

	if (!json_is_object(o))
		return side_member_fail(in, "lines", "holds a non-object");
	if (side_member_string(in, o, "name", y, l->name,
	    sizeof(l->name)) == -1 ||
	    side_member_string(in, o, "chip", y, l->chip,
	    sizeof(l->chip)) == -1 ||
	    side_member_string(in, o, "actions", y, l->actions,
	    sizeof(l->actions)) == -1 ||
	    side_member_uint(in, o, "count", UINT64_MAX, y, &l->count) == -1 ||
	    side_member_string(in, o, "cpus", y, l->cpus,
	    sizeof(l->cpus)) == -1 ||
	    side_member_bool(in, o, "shared", y, &l->shared) == -1)
		return -1;
	return 0;
}

static int
iface_details(struct side_in *in, const json_t *j,
    struct gb_iface_figures *f)
{
	const json_t *o, *a;
	size_t i;

	if (side_member_object(in, j, "interface", SIDE_WANT_VALUE, &o) == -1 ||
	    side_member_string(in, o, "note", SIDE_WANT_ANY, f->irq_note,
	    sizeof(f->irq_note)) == -1 ||
	    side_member_get(in, o, "lines", SIDE_WANT_VALUE, &a) == -1)
		return -1;
	if (!json_is_array(a))
		return side_member_fail(in, "lines", "is not an array");
	if (json_array_size(a) > GB_MAX_IRQ_LINES)
		return side_member_fail(in, "lines", "has over %d entries",
		    GB_MAX_IRQ_LINES);
	in->obj = "interface.lines";
	for (i = 0; i < json_array_size(a); i++)
		if (irq_line(in, json_array_get(a, i), &f->lines[i]) == -1)
			return -1;
	f->nlines = (unsigned)json_array_size(a);
	in->obj = "";
	f->has_irq_per_segment = side_member_real(in, j, "irq_per_segment",
	    SIDE_WANT_ANY, &f->irq_per_segment);
	return f->has_irq_per_segment == -1 ? -1 : 0;
}

static int
warnings(struct side_in *in, const json_t *j, struct gb_side *s)
{
	char why[MEMBER_WHY_LEN], key[32];
	const json_t *a;
	size_t i;

	in->obj = "";
	if (side_member_get(in, j, "warnings", SIDE_WANT_VALUE, &a) == -1)
		return -1;
	if (!json_is_array(a) || json_array_size(a) > GB_MAX_WARNINGS)
		return side_member_fail(in, "warnings", "is not an array of at "
		    "most %d strings", GB_MAX_WARNINGS);
	for (i = 0; i < json_array_size(a); i++)
		if (member_check_string(json_array_get(a, i), s->warnings[i],
		    GB_WARNING_LEN, why, sizeof(why)) == -1) {
			snprintf(key, sizeof(key), "warnings[%zu]", i);
			return side_member_fail(in, key, "%s", why);
		}
	s->nwarnings = (unsigned)json_array_size(a);
	return 0;
}

/* context and capture: null, or an object their own module decodes. */
static int
module_member(struct side_in *in, const json_t *j, const char *key,
    int (*decode)(const json_t *, void *, char *, size_t), void *out)
{
	const json_t *o;
	char sub[GB_ERR_LEN];
	int rc;

	in->obj = "";
	if ((rc = side_member_get(in, j, key, SIDE_WANT_ANY, &o)) != 1)
		return rc;
	/* The module's message already names "key.member". */
	if (decode(o, out, sub, sizeof(sub)) == -1) {
		snprintf(in->err, in->errlen, "%s", sub);
		return -1;
	}
	return 1;
}

static int
decode_context(const json_t *o, void *out, char *err, size_t errlen)
{
	return context_from_json(o, out, err, errlen);
}

static int
decode_capture(const json_t *o, void *out, char *err, size_t errlen)
{
	return capture_from_json(o, out, err, errlen);
}

/* One of the names of enum gb_path. */
static int
path_member(struct side_in *in, const json_t *o, const char *key, int *out)
{
	char name[16];

	if (side_member_string(in, o, key, SIDE_WANT_VALUE, name,
	    sizeof(name)) == -1)
		return -1;
	if ((*out = datapath_lookup(name)) == -1)
		return side_member_fail(in, key, "is not a data path: \"%s\"",
		    name);
	return 0;
}

/* A CPU number, or null for -1. */
static int
cpu_member(struct side_in *in, const json_t *o, const char *key, int *out)
{
	int rc;

	if ((rc = side_member_int(in, o, key, SIDE_WANT_ANY, out)) == 0)
		*out = -1;
	return rc;
}

/*
 * A stream's TCP_INFO (retransmits and rtt_us, both null or both values)
 * and --rr's transactions; none of the three from a peer that predates
 * them (not known, 0 transactions).
 */
static int
stream_tcp(struct side_in *in, const json_t *o, struct gb_stream *g)
{
	if (json_object_get(o, "retransmits") == NULL &&
	    json_object_get(o, "rtt_us") == NULL &&
	    json_object_get(o, "transactions") == NULL)
		return 0;
	if ((g->has_tcp = side_member_u32(in, o, "retransmits", SIDE_WANT_ANY,
	    &g->retrans)) == -1)
		return -1;
	in->leader = "streams.retransmits";
	if (side_member_u32(in, o, "rtt_us", g->has_tcp, &g->rtt_us) == -1)
		return -1;
	in->leader = NULL;
	return side_member_uint(in, o, "transactions", UINT64_MAX,
	    SIDE_WANT_VALUE, &g->transactions) == -1 ? -1 : 0;
}

static int
stream_figures(struct side_in *in, const json_t *o, struct gb_stream *g)
{
	int y = SIDE_WANT_VALUE;
	double mbps;

	if (!json_is_object(o)) {
		in->obj = "";
		return side_member_fail(in, "streams", "holds a non-object");
	}
	if (side_member_uint(in, o, "bytes", UINT64_MAX, y, &g->bytes) == -1 ||
	    side_member_real(in, o, "seconds", y, &g->seconds) == -1 ||
	    side_member_real(in, o, "mbps", y, &mbps) == -1 ||
	    cpu_member(in, o, "cpu", &g->cpu) == -1 ||
	    cpu_member(in, o, "pinned", &g->pinned) == -1 ||
	    path_member(in, o, "data_path", &g->path) == -1)
		return -1;
	return stream_tcp(in, o, g);
}

static int
streams(struct side_in *in, const json_t *j, struct gb_side *s)
{
	const json_t *a;
	size_t i;

	in->obj = "";
	in->leader = NULL;
	if (side_member_get(in, j, "streams", SIDE_WANT_VALUE, &a) == -1)
		return -1;
	if (!json_is_array(a))
		return side_member_fail(in, "streams", "is not an array");
	if (json_array_size(a) > GB_MAX_STREAMS)
		return side_member_fail(in, "streams", "has over %u entries",
		    GB_MAX_STREAMS);
	in->obj = "streams";
	for (i = 0; i < json_array_size(a); i++)
		if (stream_figures(in, json_array_get(a, i),
		    &s->streams[i]) == -1)
			return -1;
	s->nstreams = (unsigned)json_array_size(a);
	in->obj = "";
	return 0;
}

/* -Z's counts: null, or copied <= completions <= sends. */
static int
zerocopy(struct side_in *in, const json_t *j, struct gb_zerocopy *z)
{
	const json_t *o;
	int y = SIDE_WANT_VALUE;

	if ((z->has = side_member_object(in, j, "zerocopy", SIDE_WANT_ANY,
	    &o)) != 1)
		return z->has;
	if (side_member_uint(in, o, "sends", UINT64_MAX, y, &z->sends) == -1 ||
	    side_member_uint(in, o, "completions", UINT64_MAX, y,
	    &z->completions) == -1 ||
	    side_member_uint(in, o, "copied", UINT64_MAX, y, &z->copied) == -1)
		return -1;
	if (z->completions > z->sends)
		return side_member_fail(in, "completions", "is more than "
		    "zerocopy.sends");
	if (z->copied > z->completions)
		return side_member_fail(in, "copied", "is more than "
		    "zerocopy.completions");
	return 0;
}

/*
 * -u --rr's counts: the asker's timeout (1 ms or more), lost and late,
 * or three nulls (the answerer's); requests = answered + lost on the
 * asker, and an end answers at most the requests it took.
 */
static int
rr_udp(struct side_in *in, const json_t *u, struct gb_rr *t)
{
	int ask, want;

	if ((ask = side_member_u32(in, u, "timeout_ms", SIDE_WANT_ANY,
	    &t->timeout_ms)) == -1)
		return -1;
	want = ask ? SIDE_WANT_VALUE : SIDE_WANT_NULL;
	if (side_member_uint(in, u, "requests", UINT64_MAX, SIDE_WANT_VALUE,
	    &t->requests) == -1 || side_member_uint(in, u, "lost",
	    UINT64_MAX, want, &t->lost) == -1 || side_member_uint(in, u,
	    "late", UINT64_MAX, want, &t->late) == -1 ||
	    side_member_uint(in, u, "stray", UINT64_MAX, SIDE_WANT_VALUE,
	    &t->stray) == -1 || side_member_uint(in, u, "unsent",
	    UINT64_MAX, SIDE_WANT_VALUE, &t->unsent) == -1)
		return -1;
	if (ask && (t->timeout_ms == 0 ||
	    t->timeout_ms > GB_MAX_RR_TIMEOUT_MS))
		return side_member_fail(in, "timeout_ms", "is out of range");
	if (ask && t->lost > t->requests)
		return side_member_fail(in, "lost", "is more than requests");
	if (t->transactions > t->requests - t->lost)
		return side_member_fail(in, "requests", "are fewer than the "
		    "transactions");
	return 0;
}

/*
 * --rr's counts: null, or the transactions, --crr's connections and -u's
 * counts.
 */
static int
rr(struct side_in *in, const json_t *j, struct gb_rr *t)
{
	const json_t *o, *u;

	if ((t->has = side_member_object(in, j, "rr", SIDE_WANT_ANY,
	    &o)) != 1)
		return t->has;
	if (side_member_uint(in, o, "transactions", UINT64_MAX,
	    SIDE_WANT_VALUE, &t->transactions) == -1 ||
	    side_member_uint(in, o, "connections", UINT64_MAX,
	    SIDE_WANT_VALUE, &t->connections) == -1 ||
	    (t->has_udp = side_member_get(in, o, "udp", SIDE_WANT_ANY,
	    &u)) == -1)
		return -1;
	if (t->has_udp && !json_is_object(u))
		return side_member_fail(in, "udp", "is not an object");
	return t->has_udp ? rr_udp(in, u, t) : 0;
}

/* A member of struct gb_udp that is a count: its key and its place. */
struct udp_count {
	const char	*key;
	size_t		 off;
};
#define UDP_COUNT(key, field)	{ key, offsetof(struct gb_udp, field) }
#define NCOUNTS(a)		(sizeof(a) / sizeof((a)[0]))

/* -u: the counts of cols in o, into u; want as side_member_uint's. */
static int
udp_counts(struct side_in *in, const json_t *o, const struct udp_count *c,
    size_t n, int want, struct gb_udp *u)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (side_member_uint(in, o, c[i].key, UINT64_MAX, want,
		    (uint64_t *)(void *)((char *)u + c[i].off)) == -1)
			return -1;
	return 0;
}

/* -u: one object of counts, null or all of them; its has flag. */
static int
udp_object(struct side_in *in, const json_t *j, const char *key,
    const struct udp_count *c, size_t n, struct gb_udp *u)
{
	const json_t *o;
	int rc;

	if ((rc = side_member_object(in, j, key, SIDE_WANT_ANY, &o)) != 1)
		return rc;
	return udp_counts(in, o, c, n, SIDE_WANT_VALUE, u) == -1 ? -1 : 1;
}

/* -u: the kernel's counts and the interface's drops, each null or all. */
static int
udp_kernel(struct side_in *in, const json_t *j, struct gb_udp *u)
{
	static const struct udp_count kernel[] = {
		UDP_COUNT("rcvbuf_errors", rcvbuf_errors),
		UDP_COUNT("sndbuf_errors", sndbuf_errors),
		UDP_COUNT("in_errors", in_errors),
		UDP_COUNT("in_csum_errors", in_csum_errors),
	}, drops[] = {
		UDP_COUNT("rx_dropped", if_rx_dropped),
		UDP_COUNT("tx_dropped", if_tx_dropped),
		UDP_COUNT("rx_missed", if_rx_missed),
	};

	if ((u->has_kernel = udp_object(in, j, "kernel", kernel,
	    NCOUNTS(kernel), u)) == -1 ||
	    (u->has_ifdrops = udp_object(in, j, "interface_drops", drops,
	    NCOUNTS(drops), u)) == -1)
		return -1;
	return 0;
}

/* -u's counts: null for a TCP test. */
static int
udp(struct side_in *in, const json_t *j, struct gb_udp *u)
{
	/* datagrams first: both ends count it; the others one end each. */
	static const struct udp_count counts[] = {
		UDP_COUNT("datagrams", datagrams),
		UDP_COUNT("enobufs", enobufs),
		UDP_COUNT("refused", refused),
		UDP_COUNT("gaps", gaps),
		UDP_COUNT("ooo", ooo),
		UDP_COUNT("dup", dup),
		UDP_COUNT("stray", stray),
		UDP_COUNT("gro_trains", gro_trains),
	};
	const json_t *o;
	int y = SIDE_WANT_VALUE;

	in->obj = "";
	if ((u->has = side_member_object(in, j, "udp", SIDE_WANT_ANY, &o)) != 1)
		return u->has;
	/* The receiver's figures are null on a sender's side, and back. */
	if (side_member_u32(in, o, "length", y, &u->length) == -1 ||
	    side_member_u32(in, o, "batch", y, &u->batch) == -1 ||
	    (u->receiver = side_member_real(in, o, "jitter_ms", SIDE_WANT_ANY,
	    &u->jitter_ms)) == -1)
		return -1;
	if (udp_counts(in, o, counts, 1, y, u) == -1 ||
	    udp_counts(in, o, counts + 1, NCOUNTS(counts) - 1, SIDE_WANT_ANY,
	    u) == -1)
		return -1;
	if (!(u->jitter_ms >= 0))
		return side_member_fail(in, "jitter_ms", "is negative");
	if ((u->has_sock_drops = side_member_uint(in, o, "sock_drops",
	    UINT64_MAX, SIDE_WANT_ANY, &u->sock_drops)) == -1)
		return -1;
	return udp_kernel(in, o, u);
}

/* The data path, -Z's counts, the TOS byte, the pacing rate, streams. */
static int
path_details(struct side_in *in, const json_t *j, struct gb_side *s)
{
	uint64_t tos = 0, lowat = 0;
	int rc;

	in->obj = "";
	in->leader = NULL;
	if (path_member(in, j, "data_path", &s->data_path) == -1 ||
	    zerocopy(in, j, &s->zerocopy) == -1 ||
	    udp(in, j, &s->udp) == -1 ||
	    rr(in, j, &s->rr) == -1)
		return -1;
	in->obj = "";
	if ((rc = side_member_uint(in, j, "tos", 255, SIDE_WANT_ANY,
	    &tos)) == -1)
		return -1;
	s->tos = rc == 1 ? (int)tos : -1;
	if ((rc = side_member_uint(in, j, "rcvlowat", UINT32_MAX,
	    SIDE_WANT_ANY, &lowat)) == -1)
		return -1;
	s->rcvlowat = rc == 1 ? (uint32_t)lowat : 0;
	if ((s->has_fq_rate = side_member_uint(in, j, "fq_rate", UINT64_MAX,
	    SIDE_WANT_ANY, &s->fq_rate)) == -1)
		return -1;
	if (streams(in, j, s) == -1)
		return -1;
	return side_flows_in(in, j, s) == -1 ? -1 : 0;
}

int
side_in_detail(struct side_in *in, const json_t *j, struct gb_side *s)
{
	char sub[GB_ERR_LEN];
	int rc;

	if (tcp_details(in, j, &s->tcp) == -1 ||
	    iface_details(in, j, &s->iface) == -1 ||
	    side_spread_in(in, j, s) == -1 ||
	    warnings(in, j, s) == -1)
		return -1;
	if ((rc = module_member(in, j, "context", decode_context,
	    &s->context)) == -1)
		return -1;
	s->context.has = rc;
	if ((rc = module_member(in, j, "capture", decode_capture,
	    &s->capture)) == -1)
		return -1;
	s->capture.has = rc;
	if (profile_from_json(json_object_get(j, "profile"),
	    json_object_get(j, "profile_missing"), &s->profile, sub,
	    sizeof(sub)) == -1) {
		snprintf(in->err, in->errlen, "%s", sub);
		return -1;
	}
	return path_details(in, j, s);
}
