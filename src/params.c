/*
 * params.c: the defaults of one test.  The values live here once, so the
 * option parser and the protocol start from the same test; the limits are
 * in params.h.
 */

#include <string.h>

#include "base/params.h"

void
params_init(struct gb_params *p)
{
	memset(p, 0, sizeof(*p));
	p->direction = GB_DIR_CLIENT_SENDS;
	p->buflen = GB_DEFAULT_BUFLEN;
	p->nbuf = 0;
	p->duration_ms = GB_DEFAULT_DURATION_MS;
	p->streams = 1;
	p->sndbuf = 0;
	p->rcvbuf = 0;
	p->mss = 0;
	p->nodelay = 0;
	p->interval_ms = 0;
}

unsigned
params_zc_ring_count(uint32_t buflen)
{
	unsigned n = GB_ZC_RING_MAX;

	while (n > 1 && (uint64_t)n * buflen > GB_ZC_RING_BYTES)
		n /= 2;
	return n;
}
