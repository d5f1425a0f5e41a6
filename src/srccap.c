/*
 * srccap.c: pending connections per source (see srccap.h).  A linear
 * table of at most `total` slots: a few hundred entries scanned once per
 * accepted or closed connection cost less than a hash would to maintain.
 */
#include <netinet/in.h>
#include <arpa/inet.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wire/srccap.h"

int
srccap_init(struct srccap *c, unsigned total, unsigned per_source)
{
	memset(c, 0, sizeof(*c));
	c->total = total > 0 ? total : 1;
	c->per_source = per_source > 0 ? per_source : 1;
	if ((c->slot = calloc(c->total, sizeof(*c->slot))) == NULL)
		return -1;
	return 0;
}

void
srccap_free(struct srccap *c)
{
	free(c->slot);
	c->slot = NULL;
	c->n = 0;
}

int
srccap_key(const struct sockaddr *sa, struct srccap_key *k)
{
	const struct sockaddr_in *s4;
	const struct sockaddr_in6 *s6;

	memset(k, 0, sizeof(*k));
	switch (sa->sa_family) {
	case AF_INET:
		s4 = (const struct sockaddr_in *)sa;
		k->b[10] = k->b[11] = 0xff;
		memcpy(&k->b[12], &s4->sin_addr, 4);
		return 0;
	case AF_INET6:
		s6 = (const struct sockaddr_in6 *)sa;
		/* A dual-stack listener sees IPv4 clients as v4-mapped. */
		if (IN6_IS_ADDR_V4MAPPED(&s6->sin6_addr))
			memcpy(k->b, &s6->sin6_addr, 16);
		else
			memcpy(k->b, &s6->sin6_addr, 8);
		return 0;
	}
	return -1;
}

int
srccap_key_equal(const struct srccap_key *a, const struct srccap_key *b)
{
	return memcmp(a->b, b->b, sizeof(a->b)) == 0;
}

const char *
srccap_key_text(const struct srccap_key *k, char *buf, size_t len)
{
	static const uint8_t v4mapped[12] = {
		0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff
	};
	char a[INET6_ADDRSTRLEN];

	if (memcmp(k->b, v4mapped, sizeof(v4mapped)) == 0) {
		if (inet_ntop(AF_INET, &k->b[12], a, sizeof(a)) == NULL)
			snprintf(a, sizeof(a), "?");
		snprintf(buf, len, "%s", a);
	} else {
		if (inet_ntop(AF_INET6, k->b, a, sizeof(a)) == NULL)
			snprintf(a, sizeof(a), "?");
		snprintf(buf, len, "%s/64", a);
	}
	return buf;
}

static struct srccap_slot *
find(const struct srccap *c, const struct srccap_key *k)
{
	unsigned i;

	for (i = 0; i < c->total; i++)
		if (c->slot[i].n > 0 && srccap_key_equal(&c->slot[i].key, k))
			return &c->slot[i];
	return NULL;
}

unsigned
srccap_count(const struct srccap *c, const struct srccap_key *k)
{
	const struct srccap_slot *s = find(c, k);

	return s != NULL ? s->n : 0;
}

/* The slot with the most, the first of them on a tie; NULL when empty. */
static const struct srccap_slot *
biggest(const struct srccap *c)
{
	const struct srccap_slot *big = NULL;
	unsigned i;

	for (i = 0; i < c->total; i++)
		if (c->slot[i].n > 0 && (big == NULL || c->slot[i].n > big->n))
			big = &c->slot[i];
	return big;
}

int
srccap_biggest(const struct srccap *c, struct srccap_key *k)
{
	const struct srccap_slot *big = biggest(c);

	if (big == NULL)
		return -1;
	*k = big->key;
	return 0;
}

int
srccap_verdict(const struct srccap *c, const struct srccap_key *k,
    struct srccap_key *victim)
{
	const struct srccap_slot *big;
	unsigned mine = srccap_count(c, k);

	if (mine >= c->per_source) {
		*victim = *k;
		return SRCCAP_DROP_SAME;
	}
	if (c->n < c->total)
		return SRCCAP_ADMIT;
	/* Full: the biggest holder gives way (ourselves on a tie). */
	big = biggest(c);
	if (big == NULL || big->n <= mine) {
		*victim = *k;
		return SRCCAP_DROP_SAME;
	}
	*victim = big->key;
	return SRCCAP_DROP_OTHER;
}

int
srccap_add(struct srccap *c, const struct srccap_key *k)
{
	struct srccap_slot *s = find(c, k);
	unsigned i;

	if (c->n >= c->total || (s != NULL && s->n >= c->per_source))
		return -1;
	for (i = 0; s == NULL && i < c->total; i++)
		if (c->slot[i].n == 0)
			s = &c->slot[i];
	if (s == NULL)
		return -1;
	if (s->n == 0)
		s->key = *k;
	s->n++;
	c->n++;
	return 0;
}

void
srccap_del(struct srccap *c, const struct srccap_key *k)
{
	struct srccap_slot *s = find(c, k);

	if (s == NULL)
		return;
	s->n--;
	c->n--;
}
