/*
 * side_detail.c: the JSON members that explain a side's figures (TCP
 * segments and limited times, each interrupt line, the spread
 * (side_spread.c), warnings, the context, the capture, the data path,
 * each stream and the summary of all flows (side_flows.c)), added to the
 * object side_json() builds (side.c).  Formats only; side_in_detail.c is
 * its inverse.  The context and the capture are encoded by their own codecs.
 */
#include <jansson.h>

#include "base/datapath.h"
#include "codec/capture_json.h"
#include "codec/context_json.h"
#include "codec/member.h"
#include "codec/profile_json.h"
#include "codec/side.h"
#include "side_detail.h"

static int
tcp_details(json_t *tcp, const struct gb_tcp *t)
{
	int l = t->has_limited, rc;
	json_t *x;

	if (!json_is_object(tcp))
		return 0;	/* null: no TCP figures */
	x = json_pack("{s:I, s:I, s:I, s:I, s:I,"
	    " s:I, s:I, s:o, s:o, s:o}",
	    "advmss", (json_int_t)t->advmss, "pmtu", (json_int_t)t->pmtu,
	    "snd_wnd", (json_int_t)t->snd_wnd,
	    "segs_out", member_jint(t->segs_out),
	    "segs_in", member_jint(t->segs_in),
	    "data_segs_out", member_jint(t->data_segs_out),
	    "data_segs_in", member_jint(t->data_segs_in),
	    "busy_us", member_uint_or_null(l, t->busy_us),
	    "rwnd_limited_us", member_uint_or_null(l, t->rwnd_limited_us),
	    "sndbuf_limited_us", member_uint_or_null(l,
	    t->sndbuf_limited_us));
	if (x == NULL)
		return -1;
	rc = json_object_update(tcp, x);
	json_decref(x);
	return rc;
}

static json_t *
irq_lines(const struct gb_iface_figures *f)
{
	const struct gb_irq_line *l;
	json_t *a;
	unsigned i;

	if ((a = json_array()) == NULL)
		return NULL;
	for (i = 0; i < f->nlines && i < GB_MAX_IRQ_LINES; i++) {
		l = &f->lines[i];
		if (json_array_append_new(a, json_pack("{s:s, s:s, s:s, s:b,"
		    " s:I, s:s}", "name", l->name, "chip", l->chip,
		    "actions", l->actions, "shared", l->shared != 0,
		    "count", member_jint(l->count), "cpus", l->cpus)) == -1) {
			json_decref(a);
			return NULL;
		}
	}
	return a;
}

static json_t *
warnings(const struct gb_side *s)
{
	json_t *a;
	unsigned i;

	if ((a = json_array()) == NULL)
		return NULL;
	for (i = 0; i < s->nwarnings && i < GB_MAX_WARNINGS; i++)
		if (json_array_append_new(a, json_string(s->warnings[i])) ==
		    -1) {
			json_decref(a);
			return NULL;
		}
	return a;
}

static json_t *
int_or_null(int v)
{
	return v >= 0 ? json_integer(v) : json_null();
}

/*
 * Each stream: what it moved, where it ran, by which path, its TCP_INFO's
 * retransmits and RTT (null without) and --rr's transactions.
 */
static json_t *
streams(const struct gb_side *s)
{
	const struct gb_stream *g;
	json_t *a;
	unsigned i;

	if ((a = json_array()) == NULL)
		return NULL;
	for (i = 0; i < s->nstreams && i < GB_MAX_STREAMS; i++) {
		g = &s->streams[i];
		if (json_array_append_new(a, json_pack("{s:I, s:f, s:f, s:o,"
		    " s:o, s:s, s:o, s:o, s:I}", "bytes", member_jint(g->bytes),
		    "seconds", g->seconds, "mbps", result_mbps(g->bytes,
		    g->seconds), "cpu", int_or_null(g->cpu), "pinned",
		    int_or_null(g->pinned), "data_path",
		    datapath_name(g->path), "retransmits",
		    member_uint_or_null(g->has_tcp, g->retrans), "rtt_us",
		    member_uint_or_null(g->has_tcp, g->rtt_us),
		    "transactions", member_jint(g->transactions))) == -1) {
			json_decref(a);
			return NULL;
		}
	}
	return a;
}

static json_t *
zerocopy(const struct gb_zerocopy *z)
{
	if (!z->has)
		return json_null();
	return json_pack("{s:I, s:I, s:I}", "sends", member_jint(z->sends),
	    "completions", member_jint(z->completions),
	    "copied", member_jint(z->copied));
}

/*
 * --rr: the transactions (and --crr's connections), or null; with -u the
 * datagrams' counts, the asker's timeout, lost and late (null on the
 * answerer).
 */
static json_t *
rr(const struct gb_rr *t)
{
	int ask = t->timeout_ms != 0;

	if (!t->has)
		return json_null();
	return json_pack("{s:I, s:I, s:o}", "transactions",
	    member_jint(t->transactions), "connections",
	    member_jint(t->connections), "udp", !t->has_udp ? json_null() :
	    json_pack("{s:o, s:I, s:o, s:o, s:I, s:I}",
	    "timeout_ms", member_uint_or_null(ask, t->timeout_ms),
	    "requests", member_jint(t->requests),
	    "lost", member_uint_or_null(ask, t->lost),
	    "late", member_uint_or_null(ask, t->late),
	    "stray", member_jint(t->stray),
	    "unsent", member_jint(t->unsent)));
}

/* -u: the kernel's counts on this end's host, or null. */
static json_t *
udp_kernel(const struct gb_udp *u)
{
	if (!u->has_kernel)
		return json_null();
	return json_pack("{s:I, s:I, s:I, s:I}",
	    "rcvbuf_errors", member_jint(u->rcvbuf_errors),
	    "sndbuf_errors", member_jint(u->sndbuf_errors),
	    "in_errors", member_jint(u->in_errors),
	    "in_csum_errors", member_jint(u->in_csum_errors));
}

static json_t *
udp_ifdrops(const struct gb_udp *u)
{
	if (!u->has_ifdrops)
		return json_null();
	return json_pack("{s:I, s:I, s:I}",
	    "rx_dropped", member_jint(u->if_rx_dropped),
	    "tx_dropped", member_jint(u->if_tx_dropped),
	    "rx_missed", member_jint(u->if_rx_missed));
}

/* -u: the end's datagram counts, or null for a TCP test. */
static json_t *
udp(const struct gb_udp *u)
{
	int rx = u->receiver, tx = !u->receiver;

	if (!u->has)
		return json_null();
	/* What the other end counts is null here, never 0. */
	return json_pack("{s:I, s:I, s:I, s:o, s:o, s:o, s:o, s:o, s:o, s:o, "
	    "s:o, s:o, s:o, s:o}",
	    "length", member_jint(u->length), "batch", member_jint(u->batch),
	    "datagrams", member_jint(u->datagrams),
	    "enobufs", member_uint_or_null(tx, u->enobufs),
	    "refused", member_uint_or_null(tx, u->refused),
	    "gaps", member_uint_or_null(rx, u->gaps),
	    "ooo", member_uint_or_null(rx, u->ooo),
	    "dup", member_uint_or_null(rx, u->dup),
	    "stray", member_uint_or_null(rx, u->stray),
	    "jitter_ms", rx ? json_real(u->jitter_ms) : json_null(),
	    "gro_trains", member_uint_or_null(rx, u->gro_trains),
	    "sock_drops", member_uint_or_null(rx && u->has_sock_drops,
	    u->sock_drops), "kernel", udp_kernel(u),
	    "interface_drops", udp_ifdrops(u));
}

/* json_object_update() does not steal; this does. */
static int
set_new(json_t *o, const char *key, json_t *v)
{
	return v == NULL ? -1 : json_object_set_new(o, key, v);
}

int
side_detail_json(json_t *o, const struct gb_side *s)
{
	const struct gb_iface_figures *f = &s->iface;
	json_t *iface = json_object_get(o, "interface");

	if (tcp_details(json_object_get(o, "tcp"), &s->tcp) == -1 ||
	    iface == NULL ||
	    set_new(iface, "lines", irq_lines(f)) == -1 ||
	    set_new(o, "spread", side_spread_json(s)) == -1 ||
	    set_new(iface, "note", f->irq_note[0] != '\0' ?
	    json_string(f->irq_note) : json_null()) == -1 ||
	    set_new(o, "irq_per_segment", f->has_irq_per_segment ?
	    json_real(f->irq_per_segment) : json_null()) == -1 ||
	    set_new(o, "warnings", warnings(s)) == -1 ||
	    set_new(o, "context", s->context.has ? context_json(&s->context) :
	    json_null()) == -1 ||
	    set_new(o, "capture", capture_json(&s->capture)) == -1 ||
	    set_new(o, "profile", profile_json(&s->profile)) == -1 ||
	    set_new(o, "profile_missing", profile_missing_json(&s->profile)) ==
	    -1 ||
	    set_new(o, "data_path", json_string(datapath_name(s->data_path))) ==
	    -1 ||
	    set_new(o, "zerocopy", zerocopy(&s->zerocopy)) == -1 ||
	    set_new(o, "udp", udp(&s->udp)) == -1 ||
	    set_new(o, "rr", rr(&s->rr)) == -1 ||
	    set_new(o, "tos", int_or_null(s->tos)) == -1 ||
	    set_new(o, "rcvlowat", member_uint_or_null(s->rcvlowat != 0,
	    s->rcvlowat)) == -1 ||
	    set_new(o, "fq_rate", member_uint_or_null(s->has_fq_rate,
	    s->fq_rate)) == -1 ||
	    set_new(o, "streams", streams(s)) == -1 ||
	    set_new(o, "flows", side_flows_json(s)) == -1)
		return -1;
	return 0;
}
