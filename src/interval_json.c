/*
 * interval_json.c: a -i slice to JSON and back (codec/interval_json.h),
 * with the side decoder's member readers (side_member.h): a member is a
 * value or a null as its group's first one is, named by its path.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <jansson.h>

#include "base/params.h"
#include "codec/interval_json.h"
#include "codec/member.h"
#include "side_member.h"

/* A slice ends within the longest test: -T, --omit, and as much again. */
#define INTERVAL_MAX_S	(2.0 * (GB_MAX_DURATION_MS + GB_MAX_OMIT_MS) / 1e3)

static json_t *
interval_tcp_json(const struct gb_interval *iv)
{
	if (!iv->has_tcp)
		return json_null();
	return json_pack("{s:I, s:I, s:I, s:o, s:o}",
	    "retransmits", (json_int_t)iv->retrans,
	    "cwnd", (json_int_t)iv->cwnd, "rtt_us", (json_int_t)iv->rtt_us,
	    "rwnd_limited_pct", member_real_or_null(iv->has_limited,
	    iv->rwnd_limited_pct),
	    "sndbuf_limited_pct", member_real_or_null(iv->has_limited,
	    iv->sndbuf_limited_pct));
}

static json_t *
interval_host_json(const struct gb_interval *iv)
{
	if (!iv->has_host)
		return json_null();
	return json_pack("{s:f, s:f, s:i}", "busy_pct", iv->host_busy_pct,
	    "max_cpu_busy_pct", iv->host_max_cpu_pct, "ncpus",
	    iv->host_ncpus);
}

json_t *
cost_json(const struct gb_cost *c)
{
	if (!c->has)
		return json_null();
	return json_pack("{s:f, s:o, s:o, s:o}", "cpu_us", c->cpu_us,
	    "host_cpu_us", member_real_or_null(c->has_host, c->host_us),
	    "interrupts", member_real_or_null(c->has_irq, c->irq),
	    "softirqs", member_real_or_null(c->has_softirq, c->softirq));
}

static json_t *
interval_latency_json(const struct gb_interval *iv)
{
	if (!iv->has_latency)
		return json_null();
	return json_pack("{s:f, s:f, s:f}", "p50_us", iv->p50_us,
	    "p99_us", iv->p99_us, "max_us", iv->max_us);
}

json_t *
interval_json(const struct gb_interval *iv)
{
	struct gb_cost c;

	result_iv_cost(iv, &c);
	return json_pack("{s:b, s:b, s:f, s:f, s:I, s:f, s:o, s:o, s:o, s:o, "
	    "s:o, s:o, s:o, s:o, s:o, s:o, s:o}",
	    "omitted", iv->omitted != 0, "reverse", iv->reverse != 0,
	    "start", iv->start_s, "end", iv->end_s,
	    "bytes", member_jint(iv->bytes),
	    "mbps", result_mbps(iv->bytes, iv->end_s - iv->start_s),
	    "datagrams", member_uint_or_null(iv->has_udp, iv->datagrams),
	    "lost", member_uint_or_null(iv->has_udp, iv->lost),
	    "jitter_ms", member_real_or_null(iv->has_udp, iv->jitter_ms),
	    "tcp", interval_tcp_json(iv), "host_cpu", interval_host_json(iv),
	    "process_cpu_s", member_real_or_null(iv->has_proc,
	    iv->proc_cpu_s),
	    "interrupts", member_uint_or_null(iv->has_irq, iv->interrupts),
	    "net_rx_softirqs", member_uint_or_null(iv->has_softirq,
	    iv->net_rx_softirqs),
	    "transactions", member_uint_or_null(iv->has_rr, iv->transactions),
	    "latency", interval_latency_json(iv),
	    "per_transaction", cost_json(&c));
}

static int
interval_in_tcp(struct side_in *in, const json_t *j, struct gb_interval *iv)
{
	const json_t *o;
	int y = SIDE_WANT_VALUE, rc;

	if ((rc = side_member_object(in, j, "tcp", SIDE_WANT_ANY, &o)) != 1)
		return rc;
	iv->has_tcp = 1;
	if (side_member_u32(in, o, "retransmits", y, &iv->retrans) == -1 ||
	    side_member_u32(in, o, "cwnd", y, &iv->cwnd) == -1 ||
	    side_member_u32(in, o, "rtt_us", y, &iv->rtt_us) == -1 ||
	    (rc = side_member_real(in, o, "rwnd_limited_pct", SIDE_WANT_ANY,
	    &iv->rwnd_limited_pct)) == -1)
		return -1;
	in->leader = "tcp.rwnd_limited_pct";
	if (side_member_real(in, o, "sndbuf_limited_pct", rc,
	    &iv->sndbuf_limited_pct) == -1)
		return -1;
	iv->has_limited = rc;
	if (iv->rwnd_limited_pct > 100 || iv->sndbuf_limited_pct > 100)
		return side_member_fail(in, iv->rwnd_limited_pct > 100 ?
		    "rwnd_limited_pct" : "sndbuf_limited_pct",
		    "is over 100");
	return 1;
}

static int
interval_in_host(struct side_in *in, const json_t *j, struct gb_interval *iv)
{
	const json_t *o;
	int y = SIDE_WANT_VALUE, rc;

	if ((rc = side_member_object(in, j, "host_cpu", SIDE_WANT_ANY,
	    &o)) != 1)
		return rc;
	iv->has_host = 1;
	if (side_member_real(in, o, "busy_pct", y, &iv->host_busy_pct) == -1 ||
	    side_member_real(in, o, "max_cpu_busy_pct", y,
	    &iv->host_max_cpu_pct) == -1)
		return -1;
	if (iv->host_busy_pct > 100 || iv->host_max_cpu_pct > 100)
		return side_member_fail(in, iv->host_busy_pct > 100 ?
		    "busy_pct" : "max_cpu_busy_pct", "is over 100");
	if (side_member_int(in, o, "ncpus", y, &iv->host_ncpus) == -1)
		return -1;
	if (iv->host_ncpus < 1 || iv->host_ncpus > GB_MAX_CPUS)
		return side_member_fail(in, "ncpus", "is out of range (1-%d): "
		    "%d", GB_MAX_CPUS, iv->host_ncpus);
	return 1;
}

/* This end's process CPU, the interface's interrupts, the softirqs. */
static int
interval_in_costs(struct side_in *in, const json_t *j, struct gb_interval *iv)
{
	int a = SIDE_WANT_ANY;

	in->obj = "";
	in->leader = NULL;
	if ((iv->has_proc = side_member_real(in, j, "process_cpu_s", a,
	    &iv->proc_cpu_s)) == -1 ||
	    (iv->has_irq = side_member_uint(in, j, "interrupts", UINT64_MAX,
	    a, &iv->interrupts)) == -1 ||
	    (iv->has_softirq = side_member_uint(in, j, "net_rx_softirqs",
	    UINT64_MAX, a, &iv->net_rx_softirqs)) == -1)
		return -1;
	/* No process has more CPU time than its host's CPUs in the slice. */
	if (iv->proc_cpu_s > (iv->end_s - iv->start_s) * GB_MAX_CPUS)
		return side_member_fail(in, "process_cpu_s", "is more than "
		    "%d CPUs' time in the slice: %g", GB_MAX_CPUS,
		    iv->proc_cpu_s);
	return 0;
}

static int
interval_in_udp(struct side_in *in, const json_t *j, struct gb_interval *iv)
{
	int rc;

	in->obj = "";
	in->leader = NULL;
	if ((rc = side_member_uint(in, j, "datagrams", UINT64_MAX,
	    SIDE_WANT_ANY, &iv->datagrams)) == -1)
		return -1;
	in->leader = "datagrams";
	if (side_member_uint(in, j, "lost", UINT64_MAX, rc, &iv->lost) == -1 ||
	    side_member_real(in, j, "jitter_ms", rc, &iv->jitter_ms) == -1)
		return -1;
	iv->has_udp = rc;
	return 0;
}

/* --rr: the transactions, and the asker's latencies (P50 <= P99 <= max). */
static int
interval_in_rr(struct side_in *in, const json_t *j, struct gb_interval *iv)
{
	const json_t *o;
	int y = SIDE_WANT_VALUE, rc;

	in->obj = "";
	in->leader = NULL;
	if ((rc = side_member_uint(in, j, "transactions", UINT64_MAX,
	    SIDE_WANT_ANY, &iv->transactions)) == -1)
		return -1;
	iv->has_rr = rc;
	if ((rc = side_member_object(in, j, "latency", SIDE_WANT_ANY,
	    &o)) != 1)
		return rc;
	if (!iv->has_rr) {
		in->obj = "";
		return side_member_fail(in, "latency", "is not null, unlike "
		    "transactions");
	}
	iv->has_latency = 1;
	if (side_member_real(in, o, "p50_us", y, &iv->p50_us) == -1 ||
	    side_member_real(in, o, "p99_us", y, &iv->p99_us) == -1 ||
	    side_member_real(in, o, "max_us", y, &iv->max_us) == -1)
		return -1;
	if (iv->p50_us > iv->p99_us || iv->p99_us > iv->max_us)
		return side_member_fail(in, "p99_us", "is not between p50_us "
		    "and max_us");
	return 1;
}

int
interval_from_json(const json_t *j, struct gb_interval *iv, char *err,
    size_t errlen)
{
	struct side_in in = { "", NULL, err, errlen };
	int y = SIDE_WANT_VALUE;

	memset(iv, 0, sizeof(*iv));
	if (!json_is_object(j)) {
		snprintf(err, errlen, "the interval is not an object");
		return -1;
	}
	if (side_member_bool(&in, j, "omitted", y, &iv->omitted) == -1 ||
	    side_member_bool(&in, j, "reverse", y, &iv->reverse) == -1 ||
	    side_member_real(&in, j, "start", y, &iv->start_s) == -1 ||
	    side_member_real(&in, j, "end", y, &iv->end_s) == -1 ||
	    side_member_uint(&in, j, "bytes", UINT64_MAX, y, &iv->bytes) == -1)
		return -1;
	if (iv->end_s <= iv->start_s) {
		snprintf(err, errlen, "the interval's end (%g s) is not after "
		    "its start (%g s)", iv->end_s, iv->start_s);
		return -1;
	}
	if (iv->end_s > INTERVAL_MAX_S) {
		snprintf(err, errlen, "the interval's end (%g s) is past the "
		    "longest test (%g s)", iv->end_s, INTERVAL_MAX_S);
		return -1;
	}
	if (interval_in_udp(&in, j, iv) == -1 ||
	    interval_in_tcp(&in, j, iv) == -1 ||
	    interval_in_host(&in, j, iv) == -1 ||
	    interval_in_rr(&in, j, iv) == -1 ||
	    interval_in_costs(&in, j, iv) == -1)
		return -1;
	return 0;
}
