/*
 * irqaction.c: the actions of a /proc/interrupts line and the rule that
 * ties one to a network interface (base/irqaction.h).
 *
 * One rule for both ends of the program: the host's line selection
 * (irqline.c) and the diagnosis of a shared line (diag_irq.c), which also
 * reads the peer's lines as they came over the network.  It reads no
 * file, allocates nothing and keeps no state.
 */

#include <stdio.h>
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

/* The action column as a C string, within its array. */
static void
irqaction_copy(char *dst, size_t len, const char *actions, size_t actlen)
{
	snprintf(dst, len, "%.*s", (int)strnlen(actions, actlen), actions);
}

void
irqaction_label(const char *actions, size_t actlen, const char *ifname,
    char *buf, size_t len)
{
	char		 acts[256];
	const char	*p = acts, *tok, *pick = NULL;
	size_t		 n, pn = 0;

	if (len == 0)
		return;
	irqaction_copy(acts, sizeof(acts), actions, actlen);
	while ((tok = irqaction_next(&p, &n)) != NULL) {
		if (pick == NULL || (ifname != NULL &&
		    irqaction_is_iface(tok, n, ifname) &&
		    !irqaction_is_iface(pick, pn, ifname))) {
			pick = tok;
			pn = n;
		}
	}
	if (pick == NULL) {
		buf[0] = '\0';
		return;
	}
	if (memchr(pick, '@', pn) != NULL)
		pn = (size_t)((const char *)memchr(pick, '@', pn) - pick);
	snprintf(buf, len, "%.*s", (int)pn, pick);
}

int
irqaction_is_queue(const char *actions, size_t actlen, const char *ifname)
{
	static const char *const control[] = {
		"config", "async", "misc", "mgmnt", "mgmt",
	};
	char		 acts[256];
	const char	*p = acts, *tok;
	size_t		 n, i, count = 0;
	int		 bare = 0;

	irqaction_copy(acts, sizeof(acts), actions, actlen);
	while ((tok = irqaction_next(&p, &n)) != NULL) {
		count++;
		if (ifname != NULL && strlen(ifname) == n &&
		    strncmp(tok, ifname, n) == 0)
			bare = 1;
	}
	if (count == 0 || (count == 1 && bare))
		return 0;
	for (i = 0; i < sizeof(control) / sizeof(control[0]); i++)
		if (strstr(acts, control[i]) != NULL)
			return 0;
	return 1;
}
