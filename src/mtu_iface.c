/*
 * mtu_iface.c: which interface a test's MTU is set on, and whether it
 * needs a change (host/mtu.h, at its end), for the client's --mtu and the
 * listener's --allow-mtu alike.  It changes nothing itself: the caller
 * calls mtu_change(), which journals the original.
 */
#include <sys/socket.h>

#include <stdio.h>

#include "host/netif.h"
#include "host/mtu.h"

int
mtu_iface_differs(const char *ifname, int fd, int mtu, char *name,
    size_t namelen, char *err, size_t errlen)
{
	struct sockaddr_storage ss;
	socklen_t len = sizeof(ss);
	int cur;

	if (ifname != NULL)
		snprintf(name, namelen, "%s", ifname);
	else if (getsockname(fd, (struct sockaddr *)&ss, &len) == -1 ||
	    netif_name_for_addr((struct sockaddr *)&ss, name,
	    namelen) == -1)
		return MTU_IFACE_UNKNOWN;
	if (mtu_get(name, &cur, err, errlen) == -1)
		return -1;
	return cur != mtu;
}
