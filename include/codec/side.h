/*
 * side.h: one end's figures (struct gb_side, result.h) as JSON, both
 * ways.  The one encoding of a side: the control protocol carries the
 * listener's side in its done and result messages with it, and --json
 * prints it, so the two cannot drift apart.
 *
 * The encoder writes a JSON null, never 0, for a figure whose has-flag is
 * 0, and reals with jansson's "%.17g", which round-trips a double.  The
 * decoder trusts nothing: every member must be present with the JSON type
 * the encoder writes, integers non-negative JSON integers that fit their C
 * type, reals finite and non-negative, strings without NUL bytes that fit
 * their field, and a null must stand exactly where the encoder would
 * write one.  Unknown members are ignored, so a newer peer may add some.
 * Pure: no I/O.
 *
 * side.c encodes the core figures, side_detail.c the members that explain
 * them (TCP details, IRQ lines, warnings, context, capture, data path,
 * streams, flows); side_in.c and side_in_detail.c decode the same two
 * halves with the readers of side_member.c.  side_spread.c does both ways for the
 * spread (the CPUs, queues and lines' shares), which a side without it,
 * from a peer that predates it, does not have; side_flows.c likewise for
 * the summary of all the side's flows ("flows"), and a stream from such a
 * peer may lack its "retransmits", "rtt_us" and "transactions" (all three).
 */
#ifndef GB_SIDE_H
#define GB_SIDE_H

#include <stddef.h>

#include <jansson.h>

#include "base/result.h"

/* The side's object; NULL when memory runs out or a real is not finite. */
json_t	*side_json(const struct gb_side *);
/*
 * The inverse: 0 with s->has = 1, or -1 with a message naming the member
 * ("host_cpu.busy_pct is not a number") and s zeroed.  Never aborts.
 */
int	 side_from_json(const json_t *, struct gb_side *, char *err,
	    size_t errlen);
/*
 * The five TCP_INFO figures of a side's "tcp" member without its details
 * (which side_json() adds), or null when !has: the --json document
 * repeats the sender's at its top.
 */
json_t	*side_tcp_json(const struct gb_tcp *);

#endif /* GB_SIDE_H */
