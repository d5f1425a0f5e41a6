/*
 * irqaction.c: the actions of a /proc/interrupts line and the rule that
 * ties one to a network interface (base/irqaction.h).
 *
 * One rule for both ends of the program: the host's line selection
 * (irqline.c) and the diagnosis of a shared line (diag_irq.c), which also
 * reads the peer's lines as they came over the network.  It reads no
 * file, allocates nothing and keeps no state.
 */

#include <string.h>

#include "base/irqaction.h"

int
irqaction_is_iface(const char *action, size_t len, const char *ifname)
{
	size_t	iflen = strlen(ifname);

	if (iflen == 0 || len < iflen || strncmp(action, ifname, iflen) != 0)
		return 0;
	return len == iflen || action[iflen] == '-' ||
	    action[iflen] == ':' || action[iflen] == '@';
}

const char *
irqaction_next(const char **p, size_t *len)
{
	const char	*tok = *p;
	size_t		 n;

	while (*tok == ',' || *tok == ' ' || *tok == '\t')
		tok++;
	if (*tok == '\0') {
		*p = tok;
		return NULL;
	}
	n = strcspn(tok, ",");
	*p = tok + n;
	while (n > 0 && (tok[n - 1] == ' ' || tok[n - 1] == '\t'))
		n--;
	*len = n;
	return tok;
}
