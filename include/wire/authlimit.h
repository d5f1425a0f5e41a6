/*
 * authlimit.h: failed key checks per source address, so that a listener
 * with --psk cannot be used to guess the key at network speed.
 *
 * A source that fails AUTHLIMIT_FAILS times within AUTHLIMIT_WINDOW_MS is
 * refused for AUTHLIMIT_BLOCK_MS, before any key work.  A success forgets
 * the source.  The table is fixed (AUTHLIMIT_SLOTS); when it is full the
 * entry idle longest is reused, so memory stays bounded whatever the
 * number of sources.  Pure: the caller passes the time.
 */
#ifndef GB_AUTHLIMIT_H
#define GB_AUTHLIMIT_H

#include <stdint.h>

#define AUTHLIMIT_SLOTS		256
#define AUTHLIMIT_FAILS		5
#define AUTHLIMIT_WINDOW_MS	60000
#define AUTHLIMIT_BLOCK_MS	60000
#define AUTHLIMIT_ADDR_LEN	64

struct authlimit_slot {
	char		addr[AUTHLIMIT_ADDR_LEN];	/* "" when free */
	unsigned	fails;
	int64_t		first_ms;	/* first failure of the window */
	int64_t		last_ms;	/* last failure */
	int64_t		until_ms;	/* refused until, or 0 */
};

struct authlimit {
	struct authlimit_slot	slot[AUTHLIMIT_SLOTS];
};

void	authlimit_init(struct authlimit *);
/* Milliseconds the source is still refused for, or 0. */
int64_t	authlimit_blocked(const struct authlimit *, const char *addr,
	    int64_t now_ms);
void	authlimit_fail(struct authlimit *, const char *addr, int64_t now_ms);
void	authlimit_ok(struct authlimit *, const char *addr);

#endif /* GB_AUTHLIMIT_H */
