/*
 * authlimit.h: failed hellos per source, so that a listener with --psk
 * cannot be used to guess the key at network speed, and a peer that
 * stalls after its hello (no proof, no data connections) is held off.
 *
 * A source is an IPv4 address or an IPv6 /64 (as srccap.h counts them).
 * A source that fails AUTHLIMIT_FAILS times within AUTHLIMIT_WINDOW_MS is
 * refused for AUTHLIMIT_BLOCK_MS, before any key work.  A success forgets
 * the source.  In all, AUTHLIMIT_GLOBAL_FAILS failures within
 * AUTHLIMIT_GLOBAL_MS refuse every source for the rest of that window:
 * guesses from rotating addresses are bounded too (at the price of
 * delaying real clients while such a flood lasts).  The table is fixed
 * (AUTHLIMIT_SLOTS); when it is full the entry idle longest is reused, so
 * memory stays bounded whatever the number of sources.  Pure: the caller
 * passes the time.
 */
#ifndef GB_AUTHLIMIT_H
#define GB_AUTHLIMIT_H

#include <stdint.h>

#define AUTHLIMIT_SLOTS		256
#define AUTHLIMIT_FAILS		5
#define AUTHLIMIT_WINDOW_MS	60000
#define AUTHLIMIT_BLOCK_MS	60000
#define AUTHLIMIT_ADDR_LEN	64
#define AUTHLIMIT_GLOBAL_FAILS	32
#define AUTHLIMIT_GLOBAL_MS	1000

struct authlimit_slot {
	char		addr[AUTHLIMIT_ADDR_LEN];	/* "" when free */
	unsigned	fails;
	int64_t		first_ms;	/* first failure of the window */
	int64_t		last_ms;	/* last failure */
	int64_t		until_ms;	/* refused until, or 0 */
};

struct authlimit {
	struct authlimit_slot	slot[AUTHLIMIT_SLOTS];
	unsigned		g_fails;	/* in all, this window */
	int64_t			g_first_ms;	/* its first failure */
};

void	authlimit_init(struct authlimit *);
/*
 * Milliseconds the source of addr is still refused for (its own back-off
 * or the global bound), or 0.
 */
int64_t	authlimit_blocked(const struct authlimit *, const char *addr,
	    int64_t now_ms);
void	authlimit_fail(struct authlimit *, const char *addr, int64_t now_ms);
void	authlimit_ok(struct authlimit *, const char *addr);

#endif /* GB_AUTHLIMIT_H */
