/*
 * ttcp.c: the classic ttcp's defaults and its pattern (base/ttcp.h).
 */
#include <string.h>

#include "base/bounds.h"
#include "base/ttcp.h"

void
ttcp_cfg_init(struct ttcp_cfg *c)
{
	memset(c, 0, sizeof(*c));
	c->buflen = TTCP_DEFAULT_BUFLEN;
	c->nbuf = TTCP_DEFAULT_NBUF;
	c->port = TTCP_DEFAULT_PORT;
	c->align = TTCP_DEFAULT_ALIGN;
	c->fmt = TTCP_DEFAULT_FMT;
	c->silent_ms = GB_DEFAULT_SILENT_MS;
	c->max_duration_ms = GB_DEFAULT_MAX_DURATION_MS;
}

void
ttcp_pattern(char *p, size_t len)
{
	unsigned char ch = 0;

	while (len-- > 0) {
		while (ch < 0x20 || ch > 0x7e)
			ch = (unsigned char)((ch + 1) & 0x7f);
		*p++ = (char)ch;
		ch = (unsigned char)((ch + 1) & 0x7f);
	}
}
