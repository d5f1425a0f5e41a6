/*
 * seqstat.c: one UDP stream's receive accounting (seqstat.h).
 *
 * The window is a ring of SEQSTAT_WINDOW bits, seq s at bit
 * s % SEQSTAT_WINDOW, for the seqs max_seq_plus1 - SEQSTAT_WINDOW ..
 * max_seq_plus1 - 1.  A new highest seq clears the bits of the seqs it
 * moves the window over (their slots held the seqs that fall out of it)
 * and sets its own; an earlier seq inside the window is a duplicate when
 * its bit is set, else a late arrival that sets it.  In order, that is
 * one bit cleared and one set per datagram.
 *
 * Pure: no clock, no I/O, no allocation, no state outside the struct.
 */

#include <stdint.h>
#include <string.h>

#include "base/seqstat.h"

#define SEQSTAT_MASK	(SEQSTAT_WINDOW - 1)

static int
seqstat_bit(const struct seqstat *st, uint64_t seq)
{
	unsigned	i = (unsigned)(seq & SEQSTAT_MASK);

	return (st->seen[i / 64] >> (i % 64)) & 1;
}

static void
seqstat_set(struct seqstat *st, uint64_t seq)
{
	unsigned	i = (unsigned)(seq & SEQSTAT_MASK);

	st->seen[i / 64] |= UINT64_C(1) << (i % 64);
}

static void
seqstat_clear(struct seqstat *st, uint64_t seq)
{
	unsigned	i = (unsigned)(seq & SEQSTAT_MASK);

	st->seen[i / 64] &= ~(UINT64_C(1) << (i % 64));
}

/* seq is the new highest: move the window up to end at it. */
static void
seqstat_advance(struct seqstat *st, uint64_t seq)
{
	uint64_t	s;

	if (seq - st->max_seq_plus1 >= SEQSTAT_WINDOW)
		memset(st->seen, 0, sizeof(st->seen));
	else
		for (s = st->max_seq_plus1; s < seq; s++)
			seqstat_clear(st, s);
	seqstat_set(st, seq);
	st->max_seq_plus1 = seq + 1;
}

/*
 * RFC 3550 6.4.1, with the differences taken in 64-bit integers first
 * (CLOCK_MONOTONIC ns past 2^53, 104 days of uptime, lose precision as
 * doubles) and signed: a late datagram's send time is below the last.
 */
static void
seqstat_jitter(struct seqstat *st, uint64_t send_ns, uint64_t arrival_ns)
{
	int64_t	dr = (int64_t)(arrival_ns - st->last_arrival_ns);
	int64_t	ds = (int64_t)(send_ns - st->last_send_ns);
	double	d = (double)dr - (double)ds;

	if (d < 0)
		d = -d;
	st->jitter_ns += (d - st->jitter_ns) / 16.0;
}

void
seqstat_init(struct seqstat *st)
{
	memset(st, 0, sizeof(*st));
}

void
seqstat_add(struct seqstat *st, uint64_t seq, uint64_t send_ns,
    uint64_t arrival_ns, uint32_t payload_bytes)
{
	if (seq == UINT64_MAX) {
		st->ooo++;
	} else if (seq >= st->max_seq_plus1) {
		seqstat_advance(st, seq);
	} else if (st->max_seq_plus1 - seq > SEQSTAT_WINDOW) {
		st->ooo++;		/* beyond the window: maybe a dup */
	} else if (seqstat_bit(st, seq)) {
		st->dup++;
		return;
	} else {
		seqstat_set(st, seq);
		st->ooo++;
	}
	if (st->received > 0)
		seqstat_jitter(st, send_ns, arrival_ns);
	st->received++;
	st->bytes += payload_bytes;
	st->last_arrival_ns = arrival_ns;
	st->last_send_ns = send_ns;
}

uint64_t
seqstat_lost(const struct seqstat *st, uint64_t sent)
{
	uint64_t	expected;

	expected = sent == SEQSTAT_SENT_UNKNOWN ? st->max_seq_plus1 : sent;
	return expected > st->received ? expected - st->received : 0;
}
