/*
 * srccap.h: caps on a listener's pending connections (accepted, not yet
 * identified by their first message), in all and per source, so that one
 * address that opens connections and stays silent cannot lock others out
 * (issue 6).
 *
 * A source is an IPv4 address, or an IPv6 /64: one host on the internet
 * usually has a whole /64, so counting its addresses one by one would cap
 * nothing.  When a new connection would pass a cap, the caller drops the
 * oldest pending connection of the source srccap_verdict() names: its own
 * source's when that is at the per-source cap, else the source with the
 * most pending connections.  A flood then only ever displaces the
 * flooder's own connections (and, when the total is full, those of the
 * biggest holder), and a newcomer always gets in.
 *
 * Pure bookkeeping: the caller owns the connections and the order they
 * came in; the table holds counts only, at most one slot per pending
 * connection.
 */
#ifndef GB_SRCCAP_H
#define GB_SRCCAP_H

#include <sys/socket.h>

#include <stddef.h>
#include <stdint.h>

/* IPv4 as ::ffff:a.b.c.d; IPv6 as its /64 with the rest zero. */
struct srccap_key {
	uint8_t		b[16];
};

struct srccap_slot {
	struct srccap_key	key;
	unsigned		n;		/* 0: free */
};

struct srccap {
	unsigned		total;		/* cap in all */
	unsigned		per_source;	/* cap per source */
	unsigned		n;		/* pending in all */
	struct srccap_slot	*slot;		/* total of them */
};

enum srccap_verdict {
	SRCCAP_ADMIT = 0,	/* room: srccap_add() and go */
	SRCCAP_DROP_SAME,	/* drop the source's own oldest first */
	SRCCAP_DROP_OTHER	/* drop the oldest of *victim first */
};

/* 0, or -1 when memory runs out.  Caps of 0 are taken as 1. */
int	srccap_init(struct srccap *, unsigned total, unsigned per_source);
void	srccap_free(struct srccap *);
/* The source of an address (AF_INET or AF_INET6); -1 for other families. */
int	srccap_key(const struct sockaddr *, struct srccap_key *);
int	srccap_key_equal(const struct srccap_key *, const struct srccap_key *);
/* "192.0.2.7" or "2001:db8:1:2::/64", for logs. */
const char *srccap_key_text(const struct srccap_key *, char *buf,
	    size_t len);
/*
 * May one more connection come from k?  Call again after each drop: one
 * drop always makes room, unless the caller's list and the table disagree.
 */
int	srccap_verdict(const struct srccap *, const struct srccap_key *k,
	    struct srccap_key *victim);
/* Count one more from k; -1 when there is no room (call verdict first). */
int	srccap_add(struct srccap *, const struct srccap_key *);
void	srccap_del(struct srccap *, const struct srccap_key *);
/*
 * The source with the most pending connections, into *k: the one to give
 * way when a connection must go whatever its source (the process is out
 * of descriptors).  0, or -1 when none is pending.
 */
int	srccap_biggest(const struct srccap *, struct srccap_key *k);
unsigned srccap_count(const struct srccap *, const struct srccap_key *);

#endif /* GB_SRCCAP_H */
