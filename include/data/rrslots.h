/*
 * rrslots.h: -u --rr's requests in flight on one stream, and what became
 * of each: answered in time, lost (no answer within the timeout), and
 * the answers that came after their request was given up (late).  A
 * datagram can be lost, so the asker must not wait for an answer
 * forever; a lost request's slot takes a new request at once.
 *
 * The burst's n slots each carry one request at a time.  Slot i's
 * requests have the sequence numbers i, i + n, i + 2n, ..., so an
 * answer's slot is its seq % n and no table maps seqs to slots:
 *
 *	seq of the slot's request in flight, sent within the timeout
 *					answered, its latency given
 *	the same, after the timeout	lost, and late (the expiry was not
 *					yet looked at: the same outcome)
 *	a seq this slot sent before	late (its request expired; rarely a
 *					duplicate of an answered one: UDP may
 *					duplicate, and the two are not told
 *					apart)
 *	a seq never sent		stray: not counted as an answer
 *
 * rrslots_expire gives up every request past its deadline; it scans the
 * slots only when the earliest deadline it knows has passed (freed slots
 * leave it early, never late), so a busy stream pays a comparison a
 * call.  Pure: no I/O, no clock (the caller passes now, in ns of one
 * monotonic clock); it allocates only in rrslots_new.
 */
#ifndef GB_RRSLOTS_H
#define GB_RRSLOTS_H

#include <stdint.h>

struct rrslot {
	uint64_t	seq;		/* of the slot's last request */
	uint64_t	sent_ns;
	int		busy;		/* that request is in flight */
	int		used;		/* any request was sent */
};

struct rrslots {
	uint32_t	 n;		/* slots: the burst */
	uint64_t	 timeout_ns;
	uint64_t	 next_expiry;	/* UINT64_MAX: none in flight */
	uint32_t	 inflight;
	uint32_t	 nfree;
	uint32_t	*free;		/* a stack of free slots */
	struct rrslot	*slot;
	/* Counts. */
	uint64_t	 requests;	/* taken: each is sent */
	uint64_t	 answered;	/* in time */
	uint64_t	 lost;		/* no answer in time */
	uint64_t	 late;		/* an answer after its timeout */
	uint64_t	 stray;		/* an answer to no request sent */
};

enum rrslots_outcome {
	RRSLOTS_ANSWERED = 0,
	RRSLOTS_LATE,
	RRSLOTS_STRAY,
};

/* n slots (1 or more); NULL when out of memory. */
struct rrslots	*rrslots_new(uint32_t n, uint64_t timeout_ns);
void		 rrslots_free(struct rrslots *);
/*
 * A free slot's next request, sent at now: its seq in *seq; -1 when
 * every slot is in flight.
 */
int		 rrslots_take(struct rrslots *, uint64_t now, uint64_t *seq);
/* The answer to seq, come at now: an outcome; *lat_ns when answered. */
int		 rrslots_answer(struct rrslots *, uint64_t seq, uint64_t now,
		    uint64_t *lat_ns);
/* Every request past its deadline at now is lost: how many were. */
uint32_t	 rrslots_expire(struct rrslots *, uint64_t now);

#endif /* GB_RRSLOTS_H */
