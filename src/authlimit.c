/*
 * authlimit.c: failed hellos (a wrong key, no proof, no test) per source
 * and in all (see authlimit.h).  Bookkeeping only: it sends nothing and
 * reads no clock.
 */
#include <arpa/inet.h>
#include <netinet/in.h>

#include <stdio.h>
#include <string.h>

#include "wire/authlimit.h"
#include "wire/srccap.h"

/* The source an address counts for: an IPv4 address or an IPv6 /64. */
static void
source_of(const char *addr, char *src, size_t len)
{
	struct sockaddr_in6 s6;
	struct sockaddr_in s4;
	struct srccap_key k;

	memset(&s6, 0, sizeof(s6));
	memset(&s4, 0, sizeof(s4));
	s6.sin6_family = AF_INET6;
	s4.sin_family = AF_INET;
	if (inet_pton(AF_INET6, addr, &s6.sin6_addr) == 1 &&
	    srccap_key((struct sockaddr *)&s6, &k) == 0)
		srccap_key_text(&k, src, len);
	else if (inet_pton(AF_INET, addr, &s4.sin_addr) == 1 &&
	    srccap_key((struct sockaddr *)&s4, &k) == 0)
		srccap_key_text(&k, src, len);
	else
		snprintf(src, len, "%s", addr);
}

void
authlimit_init(struct authlimit *al)
{
	memset(al, 0, sizeof(*al));
}

static struct authlimit_slot *
find(const struct authlimit *al, const char *addr)
{
	char src[AUTHLIMIT_ADDR_LEN];
	unsigned i;

	source_of(addr, src, sizeof(src));
	addr = src;

	for (i = 0; i < AUTHLIMIT_SLOTS; i++)
		if (al->slot[i].addr[0] != '\0' &&
		    strcmp(al->slot[i].addr, addr) == 0)
			return (struct authlimit_slot *)&al->slot[i];
	return NULL;
}

int64_t
authlimit_blocked(const struct authlimit *al, const char *addr,
    int64_t now_ms)
{
	const struct authlimit_slot *s = find(al, addr);
	int64_t wait = 0;

	if (s != NULL && s->until_ms > now_ms)
		wait = s->until_ms - now_ms;
	/* Every source at once: the bound on guesses from many addresses. */
	if (al->g_fails >= AUTHLIMIT_GLOBAL_FAILS &&
	    now_ms - al->g_first_ms < AUTHLIMIT_GLOBAL_MS &&
	    al->g_first_ms + AUTHLIMIT_GLOBAL_MS - now_ms > wait)
		wait = al->g_first_ms + AUTHLIMIT_GLOBAL_MS - now_ms;
	return wait;
}

/*
 * A free slot, else the one whose last failure is oldest, sparing sources
 * that are refused now: failures from many addresses must not free one.
 */
static struct authlimit_slot *
take(struct authlimit *al, int64_t now_ms)
{
	struct authlimit_slot *s, *old = NULL;
	unsigned i;
	int blocked, old_blocked = 1;

	for (i = 0; i < AUTHLIMIT_SLOTS; i++) {
		s = &al->slot[i];
		if (s->addr[0] == '\0')
			return s;
		blocked = s->until_ms > now_ms;
		if (old == NULL || (old_blocked && !blocked) ||
		    (blocked == old_blocked && s->last_ms < old->last_ms)) {
			old = s;
			old_blocked = blocked;
		}
	}
	return old;
}

void
authlimit_fail(struct authlimit *al, const char *addr, int64_t now_ms)
{
	struct authlimit_slot *s = find(al, addr);

	if (al->g_fails == 0 || now_ms - al->g_first_ms >=
	    AUTHLIMIT_GLOBAL_MS) {
		al->g_fails = 0;
		al->g_first_ms = now_ms;
	}
	al->g_fails++;
	if (s == NULL) {
		s = take(al, now_ms);
		memset(s, 0, sizeof(*s));
		source_of(addr, s->addr, sizeof(s->addr));
	}
	if (s->fails == 0 || now_ms - s->first_ms > AUTHLIMIT_WINDOW_MS) {
		s->fails = 0;
		s->first_ms = now_ms;
	}
	s->last_ms = now_ms;
	if (++s->fails >= AUTHLIMIT_FAILS) {
		s->until_ms = now_ms + AUTHLIMIT_BLOCK_MS;
		s->fails = 0;
	}
}

void
authlimit_ok(struct authlimit *al, const char *addr)
{
	struct authlimit_slot *s = find(al, addr);

	if (s != NULL)
		memset(s, 0, sizeof(*s));
}
