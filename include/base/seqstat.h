/*
 * seqstat.h: one UDP stream's receive accounting, from the sequence
 * numbers and send times its datagrams carry: distinct datagrams and
 * their payload bytes, duplicates, late arrivals, the highest sequence
 * number, loss, and the interarrival jitter of RFC 3550 section 6.4.1.
 *
 * Pure and fixed-size: the duplicate window is a bitmap inside the
 * struct, so seqstat_add never allocates, never reads a clock (the
 * caller passes the arrival time) and costs a few operations per
 * datagram.  One struct per stream, owned by the stream's thread.
 */
#ifndef GB_SEQSTAT_H
#define GB_SEQSTAT_H

#include <stdint.h>

/*
 * Duplicates are told apart from late arrivals only for the
 * SEQSTAT_WINDOW sequence numbers that end at the highest one seen.  A
 * seq older than that cannot be told from a duplicate: it is counted as
 * a late arrival (ooo) and as received, whether it is one or not.
 */
#define SEQSTAT_WINDOW		4096u

struct seqstat {
	uint64_t	received;	/* distinct datagrams */
	uint64_t	bytes;		/* their payload bytes */
	uint64_t	dup;		/* a seq seen again (not received) */
	uint64_t	ooo;		/* arrived after a higher seq: late */
	uint64_t	max_seq_plus1;	/* highest seq seen + 1; 0: none */
	/*
	 * RFC 3550 6.4.1 interarrival jitter in ns, over the distinct
	 * datagrams in arrival order: D = (R_i - R_i-1) - (S_i - S_i-1),
	 * J += (|D| - J) / 16, from the second datagram on.  Send and
	 * arrival times come from two clocks that need no sync: only
	 * their differences are used.
	 */
	double		jitter_ns;
	uint64_t	last_arrival_ns; /* of the last distinct datagram */
	uint64_t	last_send_ns;	/* its send time */
	/* bit (seq % SEQSTAT_WINDOW): seq seen, for the window's seqs */
	uint64_t	seen[SEQSTAT_WINDOW / 64];
};

/* The "sent" of seqstat_lost when the sender's count is not known. */
#define SEQSTAT_SENT_UNKNOWN	UINT64_MAX

void		 seqstat_init(struct seqstat *st);
/*
 * Count one datagram of the stream: its seq (0-based), its send time
 * (the sender's clock), its arrival time (ours) and its payload length.
 * A duplicate only counts in dup: not in received, bytes or jitter.  A
 * seq of UINT64_MAX (no sender gets there) is counted as one beyond
 * the window.
 */
void		 seqstat_add(struct seqstat *st, uint64_t seq,
		    uint64_t send_ns, uint64_t arrival_ns,
		    uint32_t payload_bytes);
/*
 * Datagrams lost.  When the sender's count of datagrams sent is known
 * (the sender's total at the end, 0 for a stream that sent nothing):
 * sent - received, never below 0, exact also when the last datagrams
 * are lost.  When it is not known (SEQSTAT_SENT_UNKNOWN, UINT64_MAX):
 * the gaps below the highest seq, max_seq_plus1 - received, never below
 * 0 (late arrivals fill their gaps when they come).
 */
uint64_t	 seqstat_lost(const struct seqstat *st, uint64_t sent);

#endif /* GB_SEQSTAT_H */
