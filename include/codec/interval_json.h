/*
 * interval_json.h: one end's -i slice (struct gb_interval) as JSON, in
 * one shape for the interval message that carries the listener's slices
 * to the client (proto.h) and for the intervals of --json.  Pure: no I/O.
 *
 *	{"omitted": false, "start": 0, "end": 1.0, "bytes": 117440512, "mbps": 939.5,
 *	 "datagrams": null, "lost": null, "jitter_ms": null,	(-u: numbers)
 *	 "tcp": {"retransmits": 0, "cwnd": 120, "rtt_us": 310,
 *	         "rwnd_limited_pct": 0, "sndbuf_limited_pct": 12.5} | null,
 *	 "host_cpu": {"busy_pct": 41.2, "max_cpu_busy_pct": 77.0,
 *	              "ncpus": 2} | null,
 *	 "process_cpu_s": 0.41 | null, "interrupts": 12003 | null,
 *	 "net_rx_softirqs": 24010 | null,
 *	 "transactions": 12345 | null,				(--rr)
 *	 "latency": {"p50_us": 38.1, "p99_us": 71.2, "max_us": 90} | null,
 *	 "per_transaction": {"cpu_us": 33.2, "host_cpu_us": 66.7,
 *	                     "interrupts": 0.97, "softirqs": 1.94} | null}
 *
 * mbps and per_transaction are derived (result_iv_cost) and not read
 * back.
 */
#ifndef GB_INTERVAL_JSON_H
#define GB_INTERVAL_JSON_H

#include <stddef.h>

#include <jansson.h>

#include "base/result.h"

/* NULL when memory runs out. */
json_t	*interval_json(const struct gb_interval *);
/*
 * What a datagram or a transaction cost one end (struct gb_cost), or a
 * JSON null: {"cpu_us", "host_cpu_us", "interrupts", "softirqs"}.
 */
json_t	*cost_json(const struct gb_cost *);
/*
 * The inverse: 0, or -1 with the member named in err ("tcp.cwnd is
 * negative: -1"); the slice must end after it starts.
 */
int	 interval_from_json(const json_t *, struct gb_interval *, char *err,
	    size_t errlen);

#endif /* GB_INTERVAL_JSON_H */
