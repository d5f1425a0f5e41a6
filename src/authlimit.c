/*
 * authlimit.c: failed key checks per source address (see authlimit.h).
 */
#include <stdio.h>
#include <string.h>

#include "wire/authlimit.h"

void
authlimit_init(struct authlimit *al)
{
	memset(al, 0, sizeof(*al));
}

static struct authlimit_slot *
find(const struct authlimit *al, const char *addr)
{
	unsigned i;

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

	if (s == NULL || s->until_ms <= now_ms)
		return 0;
	return s->until_ms - now_ms;
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

	if (s == NULL) {
		s = take(al, now_ms);
		memset(s, 0, sizeof(*s));
		snprintf(s->addr, sizeof(s->addr), "%s", addr);
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
