/*
 * irqaction.h: the action column of a /proc/interrupts line ("eth0-TxRx-0,
 * uhci_hcd:usb3") and the rule that tells whether an action is a given
 * network interface.  Pure.  The host's line reader (host/irqline.h) uses
 * it to tie lines to an interface and to tell a shared line; the
 * diagnosis (base/diag.h) to name the other devices on a shared line,
 * from either side's figures.
 */
#ifndef GB_IRQACTION_H
#define GB_IRQACTION_H

#include <stddef.h>

/*
 * Is the action (len bytes, not NUL-terminated) the interface ifname?
 * Yes when it is ifname, or ifname followed by '-', ':' or '@': "eth0",
 * "eth0-TxRx-0", "eth0:lsc", "eth0@pci".  Never for an empty ifname.
 */
int	irqaction_is_iface(const char *action, size_t len, const char *ifname);
/*
 * The next action of an action column at *p, comma-separated, blanks
 * (space, tab) around it trimmed: its start, with its length (never 0) in
 * *len, and *p moved past it.  NULL when no action is left.
 */
const char *irqaction_next(const char **p, size_t *len);

#endif /* GB_IRQACTION_H */
