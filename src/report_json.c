/*
 * report_json.c: the JSON renderer (jansson): the parameters and the whole
 * document that --json prints, with each side as the side codec
 * (codec/side.h) encodes it for the wire too, and the one printer of a
 * document.
 *
 * Like report.c it only formats a struct gb_result: a figure whose
 * has-flag is 0 is a JSON null, never 0.  No I/O but the FILE given to
 * report_json_print().  Reals are written by jansson's default "%.17g",
 * which round-trips a double exactly.  Every builder returns NULL when
 * memory runs out or a real is not finite (jansson refuses NaN and
 * infinities).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <jansson.h>

#include "base/bidir.h"
#include "base/datapath.h"
#include "base/diag.h"
#include "base/units.h"
#include "base/version.h"
#include "codec/interval_json.h"
#include "codec/member.h"
#include "codec/side.h"
#include "out/report.h"

json_t *
report_params_json(const struct gb_params *p)
{
	return json_pack("{s:s, s:I, s:I, s:f, s:I, s:I, s:I, s:I, s:b, s:f,"
	    " s:b, s:b, s:o, s:o, s:s?, s:s, s:s, s:s?, s:o, s:o, s:s, s:o,"
	    " s:o, s:o, s:f, s:b, s:b, s:b, s:I, s:o, s:o, s:b}",
	    "direction", p->direction == GB_DIR_CLIENT_RECEIVES ?
	    "client_receives" : "client_sends",
	    "buflen", (json_int_t)p->buflen, "nbuf", member_jint(p->nbuf),
	    "duration_s", p->duration_ms / 1000.0,
	    "streams", (json_int_t)p->streams,
	    "sndbuf", (json_int_t)p->sndbuf, "rcvbuf", (json_int_t)p->rcvbuf,
	    "mss", (json_int_t)p->mss, "nodelay", p->nodelay != 0,
	    "interval_s", p->interval_ms / 1000.0,
	    "force_bufs", p->force_bufs != 0, "capture", p->capture != 0,
	    "link_mbps", member_uint_or_null(p->link_mbps != 0,
	    p->link_mbps),
	    "mtu", member_uint_or_null(p->mtu != 0, p->mtu),
	    "cc", p->cc[0] != '\0' ? p->cc : NULL,
	    "tx_path", datapath_name(datapath_asked(p, 1)),
	    "rx_path", datapath_name(datapath_asked(p, 0)),
	    "affinity", p->affinity[0] != '\0' ? p->affinity : NULL,
	    "fq_rate", member_uint_or_null(p->fq_rate != 0, p->fq_rate),
	    "tos", member_uint_or_null(p->tos != 0, p->tos),
	    "protocol", p->udp ? "udp" : "tcp",
	    "rate_bps", member_uint_or_null(p->rate_bps != 0, p->rate_bps),
	    "rate_pps", member_uint_or_null(p->rate_pps != 0, p->rate_pps),
	    "batch", member_uint_or_null(p->udp, p->batch != 0 ? p->batch :
	    GB_DEFAULT_BATCH),
	    "omit_s", p->omit_ms / 1000.0,
	    "rr", p->rr != 0, "bidir", p->bidir != 0,
	    "profile", p->profile != 0,
	    "probes", (json_int_t)p->probes,
	    "probe_tos", member_uint_or_null(p->probe_tos != 0, p->probe_tos),
	    "probe_rate", member_uint_or_null(p->probe_rate != 0,
	    p->probe_rate), "probe_crr", p->probe_crr != 0);
}

static json_t *
report_side_or_null(const struct gb_side *s)
{
	return s->has ? side_json(s) : json_null();
}

/* -u: the datagrams both ends saw (result_udp), or null. */
static json_t *
report_udp_json(const struct gb_result *r)
{
	struct gb_udp_figures f;

	result_udp(r, &f);
	if (!f.has)
		return json_null();
	return json_pack("{s:o, s:I, s:I, s:o, s:f, s:f, s:f, s:b, s:o, s:o}",
	    "sent", f.sent_known ? json_integer(member_jint(f.sent)) :
	    json_null(), "received", member_jint(f.received),
	    "lost", member_jint(f.lost),
	    "lost_pct", f.sent_known || r->receiver.has ?
	    json_real(f.lost_pct) : json_null(),
	    "sender_pps", f.tx_pps, "receiver_pps", f.rx_pps,
	    "jitter_ms", f.jitter_ms, "lost_by_gaps", !f.sent_known,
	    "per_datagram_tx", cost_json(&f.tx),
	    "per_datagram_rx", cost_json(&f.rx));
}

/* --rr: the transactions, their rate and cost, the latencies; or null. */
static json_t *
report_latency_json(const struct gb_result *r)
{
	const struct lathist *h = &r->latency;
	json_t *b, *o;
	unsigned i;

	if (!r->has_latency || (b = json_array()) == NULL)
		return json_null();
	for (i = 0; lathist_next(h, &i); i++)
		if (json_array_append_new(b, json_pack("[I, I, I]",
		    member_jint(lathist_low(i)), member_jint(lathist_high(i)),
		    member_jint(h->buckets[i]))) == -1) {
			json_decref(b);
			return NULL;
		}
	o = json_pack("{s:I, s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:o}",
	    "count", member_jint(h->count),
	    "min_us", (double)h->min / 1e3, "mean_us", lathist_mean(h) / 1e3,
	    "p50_us", (double)lathist_percentile(h, 50) / 1e3,
	    "p90_us", (double)lathist_percentile(h, 90) / 1e3,
	    "p99_us", (double)lathist_percentile(h, 99) / 1e3,
	    "p99_9_us", (double)lathist_percentile(h, 99.9) / 1e3,
	    "max_us", (double)h->max / 1e3,
	    "resolution_pct", 100.0 / LATHIST_SUB_COUNT, "buckets_ns", b);
	return o;
}

/*
 * -u: the asker's timeout (the test's, whichever end reported), its
 * requests, lost and late; the answerer's answers sent and both ends'
 * strays and datagrams the kernel would not send.  Null in each where that end did not report; all null over
 * TCP.
 */
static int
report_rr_udp_json(json_t *o, const struct gb_result *r)
{
	const struct gb_rr *a = &r->sender.rr, *b = &r->receiver.rr;
	int udp = r->params.udp != 0;
	int ha = udp && r->sender.has && a->has_udp;
	int hb = udp && r->receiver.has && b->has_udp;

	return json_object_set_new(o, "timeout_ms", member_uint_or_null(udp,
	    params_rr_timeout_ms(r->params.rr_timeout_ms))) == -1 ||
	    json_object_set_new(o, "requests", member_uint_or_null(ha,
	    a->requests)) == -1 ||
	    json_object_set_new(o, "lost", member_uint_or_null(ha,
	    a->lost)) == -1 ||
	    json_object_set_new(o, "late", member_uint_or_null(ha,
	    a->late)) == -1 ||
	    json_object_set_new(o, "stray_tx", member_uint_or_null(ha,
	    a->stray)) == -1 ||
	    json_object_set_new(o, "answers_sent", member_uint_or_null(hb,
	    b->transactions)) == -1 ||
	    json_object_set_new(o, "stray_rx", member_uint_or_null(hb,
	    b->stray)) == -1 ||
	    json_object_set_new(o, "unsent_tx", member_uint_or_null(ha,
	    a->unsent)) == -1 ||
	    json_object_set_new(o, "unsent_rx", member_uint_or_null(hb,
	    b->unsent)) == -1 ? -1 : 0;
}

static json_t *
report_rr_json(const struct gb_result *r)
{
	const struct gb_params *p = &r->params;
	struct gb_rr_figures f;
	json_t *o;

	result_rr(r, &f);
	if (!f.has)
		return json_null();
	o = json_pack("{s:b, s:I, s:f, s:I, s:I, s:I, s:o, s:o, s:o}",
	    "crr", p->crr != 0,
	    "transactions", member_jint(f.transactions), "per_s", f.per_s,
	    "request_size", (json_int_t)params_rr_size(p->req_size),
	    "response_size", (json_int_t)params_rr_size(p->resp_size),
	    "burst", (json_int_t)params_rr_size(p->rr_burst),
	    "latency", report_latency_json(r),
	    "per_transaction_tx", cost_json(&f.ask),
	    "per_transaction_rx", cost_json(&f.answer));
	if (o != NULL && report_rr_udp_json(o, r) == -1) {
		json_decref(o);
		return NULL;
	}
	return o;
}

static json_t *
report_result_json(const struct gb_result *r)
{
	/* Delivered figures: the receiver's, else what the sender sent. */
	const struct gb_side *d = r->receiver.has || !r->sender.has ?
	    &r->receiver : &r->sender;

	return json_pack("{s:I, s:f, s:f, s:f, s:o, s:o, s:o, s:o, s:o, s:s, "
	    "s:i, s:o}",
	    "bytes", member_jint(d->bytes), "seconds", d->seconds,
	    "mbps", d->mbps, "megabytes", result_megabytes(d->bytes),
	    "sender", report_side_or_null(&r->sender),
	    "receiver", report_side_or_null(&r->receiver),
	    "tcp", r->sender.has && !r->params.udp ?
	    side_tcp_json(&r->sender.tcp) : json_null(),
	    "udp", report_udp_json(r),
	    "rr", report_rr_json(r),
	    "peer", r->peer, "port", (int)r->port,
	    "diagnosis", diag_json(r));
}

/*
 * --bidir: a host's interrupts per packet by direction, from IRQ lines
 * named per queue (base/bidir.h); null figures and a note otherwise.
 */
static json_t *
report_irq_split_json(const struct gb_side *s)
{
	struct bidir_irq b;

	if (!s->has)
		return json_null();
	bidir_irq_split(&s->iface, &b);
	return json_pack("{s:o, s:o, s:o, s:o, s:s?}",
	    "rx_interrupts", member_uint_or_null(b.has, b.rx_irqs),
	    "tx_interrupts", member_uint_or_null(b.has, b.tx_irqs),
	    "rx_irq_per_packet", member_real_or_null(b.has && b.has_rx,
	    b.rx_per_packet),
	    "tx_irq_per_packet", member_real_or_null(b.has && b.has_tx,
	    b.tx_per_packet),
	    "note", b.note[0] != '\0' ? b.note : NULL);
}

/* A string member that is "" when unknown: null. */
static const char *
report_or_null(const char *s)
{
	return s[0] != '\0' ? s : NULL;
}

static json_t *
report_ends_json(const struct gb_endpoints *e)
{
	return json_pack("{s:s?, s:s?}", "local", report_or_null(e->local),
	    "remote", report_or_null(e->remote));
}

/* One end's host: its name, gigebench and kernel, from its context. */
static json_t *
report_host_json(const struct gb_side *s, const char *version)
{
	const struct gb_context *c = &s->context;
	int has = s->has && c->has;

	return json_pack("{s:s?, s:s?, s:s?}",
	    "hostname", has ? report_or_null(c->hostname) : NULL,
	    "version", report_or_null(version),
	    "kernel", has ? report_or_null(c->kernel) : NULL);
}

/* When, where and with what (base/result.h, struct gb_provenance). */
static json_t *
report_prov_json(const struct gb_result *r)
{
	const struct gb_provenance *p = &r->prov;
	const struct gb_side *mine = r->local_is_sender ? &r->sender :
	    &r->receiver, *peer = r->local_is_sender ? &r->receiver :
	    &r->sender;
	char start[UNITS_TIME_LEN], end[UNITS_TIME_LEN];
	json_t *data, *o;
	unsigned i;

	if ((data = json_array()) == NULL)
		return NULL;
	for (i = 0; i < p->ndata && i < GB_MAX_STREAMS; i++)
		if (json_array_append_new(data,
		    report_ends_json(&p->data[i])) == -1) {
			json_decref(data);
			return NULL;
		}
	o = json_pack("{s:s, s:s?, s:s?, s:s?, s:s?, s:s?, s:o, s:o, s:s, "
	    "s:o, s:o, s:b}",
	    "version", GB_VERSION,
	    "revision", report_or_null(p->revision),
	    "start", report_or_null(units_format_utc(p->start_us, start,
	    sizeof(start))),
	    "end", report_or_null(units_format_utc(p->end_us, end,
	    sizeof(end))),
	    "title", report_or_null(p->title),
	    "command", report_or_null(p->command),
	    "host", report_host_json(mine, mine->context.version),
	    "peer_host", report_host_json(peer, p->peer_version),
	    "peer", r->peer,
	    "control", report_ends_json(&p->control),
	    "data", data,
	    "interrupted", p->interrupted != 0);
	return o;
}

/*
 * This end's slices, each with the peer's slice of the same index as
 * "peer": on the client the listener's, as its interval messages brought
 * them; null where none came (and always on the listener).
 */
static json_t *
report_slice_json(const struct gb_interval *iv, const struct gb_interval *peer)
{
	json_t *o = interval_json(iv);

	if (o != NULL && json_object_set_new(o, "peer", peer != NULL ?
	    interval_json(peer) : json_null()) == -1) {
		json_decref(o);
		return NULL;
	}
	return o;
}

static json_t *
report_intervals_json(const struct gb_result *r)
{
	json_t *a, *o;
	unsigned i, n;

	if ((a = json_array()) == NULL)
		return NULL;
	n = r->nintervals < GB_MAX_INTERVALS ? r->nintervals : GB_MAX_INTERVALS;
	for (i = 0; i < n; i++) {
		o = report_slice_json(&r->intervals[i],
		    i < r->npeer_intervals ? &r->peer_intervals[i] : NULL);
		if (json_array_append_new(a, o) == -1) {
			json_decref(a);
			return NULL;
		}
	}
	return a;
}

/*
 * --bidir: the result's "reverse" member, the other direction's figures
 * in the same shape (its own sender, receiver and diagnosis), and each
 * host's interrupts by direction where its lines say.
 */
static json_t *
report_result_bidir_json(const struct gb_result *r)
{
	struct gb_result *v;
	json_t *o, *rev;

	if (!r->params.bidir)
		return report_result_json(r);
	if ((v = bidir_reverse_new(r)) == NULL)
		return NULL;
	o = report_result_json(r);
	rev = report_result_json(v);
	if (rev != NULL && r->params.interval_ms != 0 &&
	    json_object_set_new(rev, "intervals", report_intervals_json(v)) ==
	    -1) {
		json_decref(rev);
		rev = NULL;
	}
	if (o != NULL && (json_object_set_new(o, "reverse", rev) == -1 ||
	    json_object_set_new(o,
	    "irq_by_direction", json_pack("{s:o, s:o}", "sender",
	    report_irq_split_json(&r->sender), "receiver",
	    report_irq_split_json(&r->receiver))) == -1)) {
		json_decref(o);
		o = NULL;
	}
	free(v);
	return o;
}

json_t *
report_json(const struct gb_result *r)
{
	json_t *doc;

	doc = json_pack("{s:s, s:o, s:o, s:o}", "program", "gigebench",
	    "provenance", report_prov_json(r),
	    "params", report_params_json(&r->params),
	    "result", report_result_bidir_json(r));
	if (doc == NULL || r->params.interval_ms == 0)
		return doc;
	if (json_object_set_new(doc, "intervals",
	    report_intervals_json(r)) == -1) {
		json_decref(doc);
		return NULL;
	}
	return doc;
}

void
report_json_print(FILE *fp, json_t *doc)
{
	if (doc == NULL) {
		/* Still one valid document, whatever ran out. */
		fputs("{\"error\": \"cannot build the JSON report\"}\n", fp);
		return;
	}
	json_dumpf(doc, fp, JSON_INDENT(2) | JSON_SORT_KEYS |
	    JSON_REAL_PRECISION(12));
	fputc('\n', fp);
	json_decref(doc);
}

json_t *
report_start_event(const struct gb_result *r)
{
	return json_pack("{s:s, s:s, s:o, s:o}", "event", "start", "program",
	    "gigebench", "provenance", report_prov_json(r), "params",
	    report_params_json(&r->params));
}

json_t *
report_interval_event(const struct gb_interval *iv,
    const struct gb_interval *peer)
{
	return json_pack("{s:s, s:o}", "event", "interval", "interval",
	    report_slice_json(iv, peer));
}

json_t *
report_end_event(json_t *report, int failed)
{
	return json_pack("{s:s, s:o}", "event", failed ? "error" : "end",
	    "report", report != NULL ? report : json_pack("{s:s}", "error",
	    "cannot build the JSON report"));
}

void
report_json_line(FILE *fp, json_t *ev)
{
	if (ev == NULL) {
		fputs("{\"event\": \"error\", \"error\": \"cannot build the "
		    "JSON event\"}\n", fp);
		return;
	}
	json_dumpf(ev, fp, JSON_COMPACT | JSON_SORT_KEYS |
	    JSON_REAL_PRECISION(12));
	fputc('\n', fp);
	json_decref(ev);
}
