/*
 * params_json.c: the codec of struct gb_params, the hello's "params"
 * member (params_json.h).  The members' ranges are the field table's
 * (params.c), read through the one checked member reader (member.h);
 * what a range cannot say is params_check()'s.  The member order of the
 * encoding is part of the wire format and never changes.  No I/O.
 */
#include <stdio.h>

#include <jansson.h>

#include "base/datapath.h"
#include "base/params.h"
#include "codec/member.h"
#include "codec/params_json.h"

json_t *
params_to_json(const struct gb_params *p)
{
	return json_pack("{s:i, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:b, s:I, "
	    "s:b, s:b, s:I, s:I, s:s, s:s, s:s, s:s, s:I, s:I, s:b, s:I, s:I, "
	    "s:I, s:b, s:b, s:I, s:b, s:b, s:I, s:I, s:I, s:I, s:b, s:b, s:I, "
	    "s:I, s:I, s:I, s:b}",
	    "direction", p->direction,
	    "buflen", (json_int_t)p->buflen,
	    "nbuf", (json_int_t)p->nbuf,
	    "duration_ms", (json_int_t)p->duration_ms,
	    "streams", (json_int_t)p->streams,
	    "sndbuf", (json_int_t)p->sndbuf,
	    "rcvbuf", (json_int_t)p->rcvbuf,
	    "mss", (json_int_t)p->mss,
	    "nodelay", p->nodelay,
	    "interval_ms", (json_int_t)p->interval_ms,
	    "force_bufs", p->force_bufs,
	    "capture", p->capture,
	    "link_mbps", (json_int_t)p->link_mbps,
	    "mtu", (json_int_t)p->mtu,
	    "cc", p->cc,
	    "tx_path", datapath_name(datapath_asked(p, 1)),
	    "rx_path", datapath_name(datapath_asked(p, 0)),
	    "affinity", p->affinity,
	    "fq_rate", (json_int_t)p->fq_rate,
	    "tos", (json_int_t)p->tos,
	    "udp", p->udp,
	    "rate_bps", (json_int_t)p->rate_bps,
	    "rate_pps", (json_int_t)p->rate_pps,
	    "batch", (json_int_t)p->batch,
	    "gso", p->gso, "gro", p->gro,
	    "omit_ms", (json_int_t)p->omit_ms,
	    "rr", p->rr, "crr", p->crr,
	    "req_size", (json_int_t)p->req_size,
	    "resp_size", (json_int_t)p->resp_size,
	    "rr_burst", (json_int_t)p->rr_burst,
	    "rr_timeout_ms", (json_int_t)p->rr_timeout_ms,
	    "bidir", p->bidir, "profile", p->profile,
	    "threads", (json_int_t)p->threads,
	    "probes", (json_int_t)p->probes,
	    "probe_tos", (json_int_t)p->probe_tos,
	    "probe_rate", (json_int_t)p->probe_rate,
	    "probe_crr", p->probe_crr);
}

/* The numeric members from..to of the field table, each in its range. */
static int
get_fields(const json_t *o, enum params_field_id from,
    enum params_field_id to, struct gb_params *p, char *err, size_t errlen)
{
	uint64_t u;
	int id;

	for (id = from; id <= (int)to; id++) {
		if (member_uint(o, params_field(id)->key, params_wire_min(id),
		    params_field(id)->max, &u, err, errlen) == -1)
			return -1;
		params_set(p, id, u);
	}
	return 0;
}

/*
 * tx_path and rx_path: a name of a path of that end ("send" stands for
 * the plain path, 0 in the struct).
 */
static int
get_path(const json_t *o, const char *key, int first, int *out, char *err,
    size_t errlen)
{
	char name[16];
	int path;

	if (member_string(o, key, name, sizeof(name), err, errlen) == -1)
		return -1;
	path = datapath_lookup(name);
	if (path < first || path > first + 2) {
		snprintf(err, errlen, "member \"%s\" is not %s, %s or %s: "
		    "\"%s\"", key, datapath_name(first),
		    datapath_name(first + 1), datapath_name(first + 2), name);
		return -1;
	}
	*out = path == first ? 0 : path;
	return 0;
}

/* The members of issue 5: data paths, -A, --fq-rate, --tos. */
static int
params_path_from_json(const json_t *o, struct gb_params *p, char *err,
    size_t errlen)
{
	if (get_path(o, "tx_path", GB_PATH_SEND, &p->tx_path, err,
	    errlen) == -1 ||
	    get_path(o, "rx_path", GB_PATH_RECV, &p->rx_path, err,
	    errlen) == -1 ||
	    member_string(o, "affinity", p->affinity, sizeof(p->affinity), err,
	    errlen) == -1)
		return -1;
	return get_fields(o, PF_FQ_RATE, PF_TOS, p, err, errlen);
}

/*
 * The listener acts on these, so each is range-checked against the same
 * limits as the command line; a field of the wrong type is refused, not
 * coerced.  The members are read in one fixed order, so the first bad
 * one is the one a refusal names.
 */
int
params_from_json(const json_t *o, struct gb_params *p, char *err,
    size_t errlen)
{
	if (!json_is_object(o)) {
		snprintf(err, errlen, "member \"params\" is not an object");
		return -1;
	}
	params_init(p);
	if (get_fields(o, PF_DIRECTION, PF_MTU, p, err, errlen) == -1 ||
	    member_bool(o, "nodelay", &p->nodelay, err, errlen) == -1 ||
	    member_bool(o, "force_bufs", &p->force_bufs, err, errlen) == -1 ||
	    member_bool(o, "capture", &p->capture, err, errlen) == -1 ||
	    member_string(o, "cc", p->cc, sizeof(p->cc), err, errlen) == -1 ||
	    params_path_from_json(o, p, err, errlen) == -1 ||
	    member_bool(o, "udp", &p->udp, err, errlen) == -1 ||
	    get_fields(o, PF_RATE_BPS, PF_BATCH, p, err, errlen) == -1 ||
	    member_bool(o, "gso", &p->gso, err, errlen) == -1 ||
	    member_bool(o, "gro", &p->gro, err, errlen) == -1 ||
	    get_fields(o, PF_OMIT_MS, PF_OMIT_MS, p, err, errlen) == -1 ||
	    member_bool(o, "rr", &p->rr, err, errlen) == -1 ||
	    member_bool(o, "crr", &p->crr, err, errlen) == -1 ||
	    get_fields(o, PF_REQ_SIZE, PF_RR_TIMEOUT_MS, p, err, errlen) == -1 ||
	    member_bool(o, "bidir", &p->bidir, err, errlen) == -1 ||
	    member_bool(o, "profile", &p->profile, err, errlen) == -1 ||
	    get_fields(o, PF_THREADS, PF_PROBE_RATE, p, err, errlen) == -1 ||
	    member_bool(o, "probe_crr", &p->probe_crr, err, errlen) == -1)
		return -1;
	return params_check(p, err, errlen);
}
