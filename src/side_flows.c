/*
 * side_flows.c: a side's "flows" member both ways, the side codec's
 * (side.h) encoder and decoder of struct gb_flows (result.h): the summary
 * of all of a side's flows, of which "streams" keeps the first
 * GB_MAX_STREAMS one by one.  side_detail.c and side_in_detail.c call it,
 * the decoder after the streams, which the flows must be as many as.
 *
 *	"flows": null, or {
 *	    "n": 1000, "threads": 2,
 *	    "mbps": {"min": 9.81, "p50": 10.02, "max": 10.45},
 *	    "jain": 0.998,
 *	    "tps": null, or {"min": 812, "p50": 850, "max": 901},
 *	    "tcp": null, or {"retrans_max": 3,
 *	                     "rtt_us": {"min": 31, "p50": 40, "max": 88}}
 *	}
 *
 * The decoder is as strict as the rest of the side: n from 1 to
 * GB_MAX_FLOWS and no fewer than the streams, threads at most
 * GB_MAX_THREADS, each min <= p50 <= max, rates finite and at most
 * GB_MAX_LINK_MBPS, Jain's index from 1/n to 1 (give or take rounding).
 * A side without the member comes from a peer that predates it: no
 * summary, as a null.  No I/O.
 */
#include <float.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <jansson.h>

#include "codec/member.h"
#include "side_detail.h"
#include "side_member.h"

/* Room for "flows.tcp.rtt_us". */
#define FLOWS_PATH_LEN	32
/* Jain's index of rates summed in doubles may pass its bounds by ulps. */
#define FLOWS_EPSILON	1e-9

static json_t *
flows_triple(double min, double p50, double max)
{
	return json_pack("{s:o, s:o, s:o}", "min", member_real_or_null(1, min),
	    "p50", member_real_or_null(1, p50),
	    "max", member_real_or_null(1, max));
}

static json_t *
flows_tcp_json(const struct gb_flows *f)
{
	if (!f->has_tcp)
		return json_null();
	return json_pack("{s:I, s:{s:I, s:I, s:I}}",
	    "retrans_max", (json_int_t)f->retrans_max, "rtt_us",
	    "min", (json_int_t)f->rtt_us_min, "p50", (json_int_t)f->rtt_us_p50,
	    "max", (json_int_t)f->rtt_us_max);
}

json_t *
side_flows_json(const struct gb_side *s)
{
	const struct gb_flows *f = &s->flows;

	if (!f->has)
		return json_null();
	return json_pack("{s:I, s:I, s:o, s:o, s:o, s:o}",
	    "n", (json_int_t)f->n, "threads", (json_int_t)f->threads,
	    "mbps", flows_triple(f->mbps_min, f->mbps_p50, f->mbps_max),
	    "jain", member_real_or_null(1, f->jain),
	    "tps", f->has_tps ? flows_triple(f->tps_min, f->tps_p50,
	    f->tps_max) : json_null(),
	    "tcp", flows_tcp_json(f));
}

/* The object key of flows (or of flows.tcp): in->obj names it. */
static int
flows_object(struct side_in *in, const json_t *o, const char *key,
    int want, char *path, size_t len, const json_t **out)
{
	const char *obj = in->obj;
	int rc;

	if ((rc = side_member_get(in, o, key, want, out)) != 1)
		return rc;
	if (!json_is_object(*out))
		return side_member_fail(in, key, "is not an object");
	snprintf(path, len, "%s.%s", obj, key);
	in->obj = path;
	return 1;
}

/* min <= p50 <= max of the object key, reals at most max_v. */
static int
flows_reals(struct side_in *in, const json_t *o, const char *key,
    int want, double max_v, double v[3])
{
	static const char *const names[] = { "min", "p50", "max" };
	const char *obj = in->obj;
	char path[FLOWS_PATH_LEN];
	const json_t *t;
	int i, rc;

	if ((rc = flows_object(in, o, key, want, path, sizeof(path),
	    &t)) != 1)
		return rc;
	for (i = 0; i < 3; i++) {
		if (side_member_real(in, t, names[i], SIDE_WANT_VALUE,
		    &v[i]) == -1)
			return -1;
		if (v[i] > max_v)
			return side_member_fail(in, names[i], "is over %g: %g",
			    max_v, v[i]);
		if (i > 0 && v[i - 1] > v[i])
			return side_member_fail(in, names[i - 1], "is more "
			    "than %s.%s", path, names[i]);
	}
	in->obj = obj;
	return 1;
}

/* tcp: null, or the most retransmits and min <= p50 <= max RTT. */
static int
flows_tcp_in(struct side_in *in, const json_t *o, struct gb_flows *f)
{
	static const char *const names[] = { "min", "p50", "max" };
	char path[FLOWS_PATH_LEN], rpath[FLOWS_PATH_LEN];
	uint32_t v[3];
	const json_t *t, *r;
	int i, rc;

	if ((rc = flows_object(in, o, "tcp", SIDE_WANT_ANY, path,
	    sizeof(path), &t)) != 1)
		return rc;
	if (side_member_u32(in, t, "retrans_max", SIDE_WANT_VALUE,
	    &f->retrans_max) == -1 ||
	    flows_object(in, t, "rtt_us", SIDE_WANT_VALUE, rpath,
	    sizeof(rpath), &r) == -1)
		return -1;
	for (i = 0; i < 3; i++) {
		if (side_member_u32(in, r, names[i], SIDE_WANT_VALUE,
		    &v[i]) == -1)
			return -1;
		if (i > 0 && v[i - 1] > v[i])
			return side_member_fail(in, names[i - 1], "is more "
			    "than %s.%s", rpath, names[i]);
	}
	f->rtt_us_min = v[0];
	f->rtt_us_p50 = v[1];
	f->rtt_us_max = v[2];
	f->has_tcp = 1;
	in->obj = "flows";
	return 1;
}

/* n and threads in range, Jain's index within [1/n, 1]. */
static int
flows_counts_in(struct side_in *in, const json_t *o, unsigned nstreams,
    struct gb_flows *f)
{
	uint64_t n, threads;

	if (side_member_uint(in, o, "n", GB_MAX_FLOWS, SIDE_WANT_VALUE,
	    &n) == -1 ||
	    side_member_uint(in, o, "threads", GB_MAX_THREADS,
	    SIDE_WANT_VALUE, &threads) == -1 ||
	    side_member_real(in, o, "jain", SIDE_WANT_VALUE, &f->jain) == -1)
		return -1;
	if (n == 0)
		return side_member_fail(in, "n", "is 0, not null");
	if (n < nstreams)
		return side_member_fail(in, "n", "is fewer than the streams: "
		    "%u < %u", (unsigned)n, nstreams);
	f->n = (unsigned)n;
	f->threads = (unsigned)threads;
	if (f->jain > 1 + FLOWS_EPSILON ||
	    f->jain < 1.0 / f->n - FLOWS_EPSILON)
		return side_member_fail(in, "jain", "is outside 1/n to 1: %g",
		    f->jain);
	return 0;
}

int
side_flows_in(struct side_in *in, const json_t *j, struct gb_side *s)
{
	struct gb_flows *f = &s->flows;
	double v[3];
	const json_t *o;
	int rc;

	memset(f, 0, sizeof(*f));
	if (json_object_get(j, "flows") == NULL)
		return 0;	/* a peer that predates the summary */
	if ((rc = side_member_object(in, j, "flows", SIDE_WANT_ANY, &o)) != 1)
		return rc;
	if (flows_counts_in(in, o, s->nstreams, f) == -1 ||
	    flows_reals(in, o, "mbps", SIDE_WANT_VALUE,
	    (double)GB_MAX_LINK_MBPS, v) == -1)
		return -1;
	f->mbps_min = v[0];
	f->mbps_p50 = v[1];
	f->mbps_max = v[2];
	if ((f->has_tps = flows_reals(in, o, "tps", SIDE_WANT_ANY, DBL_MAX,
	    v)) == -1)
		return -1;
	if (f->has_tps) {
		f->tps_min = v[0];
		f->tps_p50 = v[1];
		f->tps_max = v[2];
	}
	if (flows_tcp_in(in, o, f) == -1)
		return -1;
	in->obj = "";
	f->has = 1;
	return 1;
}
