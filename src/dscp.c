/*
 * dscp.c: the Differentiated Services code points that have a name, as a
 * table.  CS0-CS7 are the class selectors of RFC 2474 (section 4.2.2:
 * the old IP precedence, n << 3), AF11-AF43 the Assured Forwarding
 * classes of RFC 2597 (section 6: class x, drop precedence y is
 * 8x + 2y), EF Expedited Forwarding (RFC 3246, 46), VA Voice Admit
 * (RFC 5865, 44) and LE Lower Effort (RFC 8622, 1).
 *
 * Only the names: what a code point becomes on the wire (the TOS byte,
 * dscp << 2 with ECN 0) is the caller's, and so is the message for a
 * name that is not here.  No I/O, no locale: the case is folded for
 * ASCII letters only, so that "ef" means EF whatever LC_CTYPE says.
 */
#include <stddef.h>

#include "base/dscp.h"

static const struct dscp_entry {
	const char	*name;
	unsigned char	 dscp;
} dscp_table[] = {
	{ "CS0", 0 }, { "CS1", 8 }, { "CS2", 16 }, { "CS3", 24 },
	{ "CS4", 32 }, { "CS5", 40 }, { "CS6", 48 }, { "CS7", 56 },
	{ "AF11", 10 }, { "AF12", 12 }, { "AF13", 14 },
	{ "AF21", 18 }, { "AF22", 20 }, { "AF23", 22 },
	{ "AF31", 26 }, { "AF32", 28 }, { "AF33", 30 },
	{ "AF41", 34 }, { "AF42", 36 }, { "AF43", 38 },
	{ "EF", 46 },
	{ "VA", 44 },
	{ "LE", 1 },
};
#define DSCP_NENTRIES	(sizeof(dscp_table) / sizeof(dscp_table[0]))

/* s equals the upper-case name, ASCII letters of s in either case. */
static int
dscp_same(const char *s, const char *name)
{
	char	c;

	for (; *name != '\0'; s++, name++) {
		c = *s;
		if (c >= 'a' && c <= 'z')
			c = (char)(c - 'a' + 'A');
		if (c != *name)
			return 0;
	}
	return *s == '\0';
}

int
dscp_parse(const char *name)
{
	size_t	i;

	for (i = 0; i < DSCP_NENTRIES; i++)
		if (dscp_same(name, dscp_table[i].name))
			return dscp_table[i].dscp;
	return -1;
}

const char *
dscp_name(unsigned dscp)
{
	size_t	i;

	for (i = 0; i < DSCP_NENTRIES; i++)
		if (dscp_table[i].dscp == dscp)
			return dscp_table[i].name;
	return NULL;
}
