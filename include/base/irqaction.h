/*
 * irqaction.h: the action column of a /proc/interrupts line ("eth0-TxRx-0,
 * uhci_hcd:usb3") and the rule that tells whether an action is a given
 * network interface.  Pure.  The host's line reader (host/irqline.h) uses
 * it to tie lines to an interface and to tell a shared line; the
 * diagnosis (base/diag.h) to name the other devices on a shared line and
 * to tell a queue's line, from either side's figures; the spread's text
 * to name a line.
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

/*
 * A line's name for a sentence, from its action column (at most actlen
 * bytes, NUL-terminated or not): the first action that is ifname, else
 * the first action, cut at an '@' ("mlx5_comp3@pci:0000:3b:00.0" is
 * "mlx5_comp3") and to len - 1 bytes; "" when there is no action.
 */
void	irqaction_label(const char *actions, size_t actlen,
	    const char *ifname, char *buf, size_t len);
/*
 * Does a line of ifname serve its queues rather than the device's other
 * causes (link state, mailbox, firmware events)?  No when the interface's
 * bare name is its only action ("eth0" beside ixgbe's and igb's
 * "eth0-TxRx-N"), or an action names a control vector: "config"
 * (virtio0-config), "async" (mlx5_async0), "misc" (i40e), "mgmnt" or
 * "mgmt" (ena).  A one-line NIC's bare "eth0" carries its queue too, but
 * one line cannot pile up: the diagnosis only counts queues of two or
 * more lines.
 */
int	irqaction_is_queue(const char *actions, size_t actlen,
	    const char *ifname);

#endif /* GB_IRQACTION_H */
