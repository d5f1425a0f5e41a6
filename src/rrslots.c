/*
 * rrslots.c: -u --rr's requests in flight and their outcomes (rrslots.h
 * says which answer counts as what).  Pure: no I/O, no clock.
 */
#include <stdlib.h>

#include "data/rrslots.h"

struct rrslots *
rrslots_new(uint32_t n, uint64_t timeout_ns)
{
	struct rrslots *s;
	uint32_t i;

	if (n == 0 || (s = calloc(1, sizeof(*s))) == NULL)
		return NULL;
	s->slot = calloc(n, sizeof(*s->slot));
	s->free = calloc(n, sizeof(*s->free));
	if (s->slot == NULL || s->free == NULL) {
		rrslots_free(s);
		return NULL;
	}
	s->n = n;
	s->timeout_ns = timeout_ns;
	s->next_expiry = UINT64_MAX;
	/* Slot 0 is taken first: the stack's top is its end. */
	for (i = 0; i < n; i++)
		s->free[i] = n - 1 - i;
	s->nfree = n;
	return s;
}

void
rrslots_free(struct rrslots *s)
{
	if (s == NULL)
		return;
	free(s->slot);
	free(s->free);
	free(s);
}

static void
rrslots_release(struct rrslots *s, struct rrslot *sl)
{
	sl->busy = 0;
	s->inflight--;
	s->free[s->nfree++] = (uint32_t)(sl - s->slot);
}

int
rrslots_take(struct rrslots *s, uint64_t now, uint64_t *seq)
{
	struct rrslot *sl;
	uint32_t i;

	if (s->nfree == 0)
		return -1;
	i = s->free[--s->nfree];
	sl = &s->slot[i];
	sl->seq = sl->used ? sl->seq + s->n : i;
	sl->used = 1;
	sl->busy = 1;
	sl->sent_ns = now;
	s->inflight++;
	s->requests++;
	if (now + s->timeout_ns < s->next_expiry)
		s->next_expiry = now + s->timeout_ns;
	*seq = sl->seq;
	return 0;
}

int
rrslots_answer(struct rrslots *s, uint64_t seq, uint64_t now,
    uint64_t *lat_ns)
{
	struct rrslot *sl = &s->slot[seq % s->n];

	if (!sl->used || seq > sl->seq) {
		s->stray++;
		return RRSLOTS_STRAY;
	}
	if (seq < sl->seq || !sl->busy) {
		s->late++;
		return RRSLOTS_LATE;
	}
	rrslots_release(s, sl);
	*lat_ns = now - sl->sent_ns;
	if (*lat_ns >= s->timeout_ns) {	/* not yet expired, but over */
		s->lost++;
		s->late++;
		return RRSLOTS_LATE;
	}
	s->answered++;
	return RRSLOTS_ANSWERED;
}

uint32_t
rrslots_expire(struct rrslots *s, uint64_t now)
{
	uint64_t next = UINT64_MAX, due;
	uint32_t i, lost = 0;

	if (now < s->next_expiry)
		return 0;
	for (i = 0; i < s->n; i++) {
		if (!s->slot[i].busy)
			continue;
		due = s->slot[i].sent_ns + s->timeout_ns;
		if (due <= now) {
			rrslots_release(s, &s->slot[i]);
			lost++;
		} else if (due < next)
			next = due;
	}
	s->next_expiry = next;
	s->lost += lost;
	return lost;
}
