/*
 * mtu.c: changing an interface's MTU (SIOCGIFMTU, SIOCSIFMTU) and the
 * order of a change that makes it safe to undo.
 *
 * This file owns the interface ioctls, their error texts and the steps of
 * a change; the runtime directory and the journals are mtu_journal.c's,
 * the table of changed interfaces and the signal handlers that restore it
 * are mtu_signal.c's (mtu_internal.h ties the three).  It does not parse
 * options, print or exit.
 *
 * The order of a first change is what makes it safe: a no-op SIOCSIFMTU
 * (the current value) first, because the kernel checks CAP_NET_ADMIN
 * before it compares values, so that "needs root" is the answer without
 * privilege whatever the state of the runtime directory; then the journal,
 * written to a temporary file, fsync'ed and renamed into place (a crash
 * leaves the old state or the whole new one, never half a line); only
 * then the change.  The three signals are blocked from the journal to the
 * change, so the handler sees a table entry whole or not at all.  (They
 * are blocked in the calling thread: a program with other threads must
 * block them there too, or let only this one change MTUs.)
 */

#include <sys/types.h>
#include <sys/ioctl.h>
#include <sys/socket.h>

#include <net/if.h>

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "host/mtu.h"
#include "host/netif.h"
#include "mtu_internal.h"

static int	mtu_first_change(const char *, int, int, char *, size_t);

int
mtu_socket(void)
{
	int	fd;

	if ((fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0)) == -1)
		fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	return fd;
}

int
mtu_ioctl_set(const char *ifname, int mtu)
{
	struct ifreq	ifr;
	int		fd, rc, saved;

	if ((fd = mtu_socket()) == -1)
		return -1;
	memset(&ifr, 0, sizeof(ifr));
	memcpy(ifr.ifr_name, ifname, strlen(ifname) + 1);
	ifr.ifr_mtu = mtu;
	rc = ioctl(fd, SIOCSIFMTU, &ifr);
	saved = errno;
	close(fd);
	errno = saved;
	return rc;
}

void
mtu_set_error(const char *ifname, int mtu, int e, char *err,
    size_t errlen)
{
	switch (e) {
	case EPERM:
	case EACCES:
		snprintf(err, errlen, "changing the MTU of %s needs root "
		    "(CAP_NET_ADMIN)", ifname);
		break;
	case ENODEV:
	case ENXIO:
		snprintf(err, errlen, "no such interface: %s", ifname);
		break;
	case EINVAL:
		snprintf(err, errlen, "%s refuses MTU %d: %s", ifname, mtu,
		    strerror(e));
		break;
	default:
		snprintf(err, errlen, "cannot set the MTU of %s to %d: %s",
		    ifname, mtu, strerror(e));
		break;
	}
	errno = e;
}

int
mtu_get(const char *ifname, int *mtu, char *err, size_t errlen)
{
	struct ifreq	ifr;
	int		fd, e;

	if (!netif_name_ok(ifname)) {
		snprintf(err, errlen, "invalid interface name: %s",
		    ifname == NULL ? "(null)" : ifname);
		errno = EINVAL;
		return -1;
	}
	if ((fd = mtu_socket()) == -1) {
		snprintf(err, errlen, "cannot open a socket for the MTU "
		    "ioctl: %s", strerror(errno));
		return -1;
	}
	memset(&ifr, 0, sizeof(ifr));
	memcpy(ifr.ifr_name, ifname, strlen(ifname) + 1);
	if (ioctl(fd, SIOCGIFMTU, &ifr) == -1) {
		e = errno;
		close(fd);
		if (e == ENODEV || e == ENXIO)
			snprintf(err, errlen, "no such interface: %s", ifname);
		else
			snprintf(err, errlen, "cannot read the MTU of %s: %s",
			    ifname, strerror(e));
		errno = e;
		return -1;
	}
	close(fd);
	*mtu = ifr.ifr_mtu;
	return 0;
}

/* The first change of ifname in this process: journal, table, change. */
static int
mtu_first_change(const char *ifname, int orig, int mtu, char *err,
    size_t errlen)
{
	struct mtu_entry	*e;
	char			 rundir[MTU_RUNDIR_MAX];
	unsigned long		 ino;
	sigset_t		 old;
	int			 saved;

	if (orig < MTU_JOURNAL_MIN) {
		snprintf(err, errlen, "%s has MTU %d, below %d: not changing "
		    "what could not be journaled", ifname, orig,
		    MTU_JOURNAL_MIN);
		errno = ERANGE;
		return -1;
	}
	if ((e = mtu_table_slot()) == NULL) {
		snprintf(err, errlen, "cannot change the MTU of %s: %d "
		    "interfaces are changed already", ifname, MTU_TABLE_MAX);
		errno = ENOSPC;
		return -1;
	}
	if (mtu_rundir_make(rundir, sizeof(rundir), err, errlen) == -1 ||
	    mtu_netns(&ino, err, errlen) == -1 ||
	    mtu_journal_claim(e, rundir, ifname, ino, err, errlen) == -1)
		return -1;
	memcpy(e->ifr.ifr_name, ifname, strlen(ifname) + 1);
	e->ifr.ifr_mtu = orig;

	mtu_block(&old);
	if (mtu_journal_write(e, rundir, ifname, orig, ino, err,
	    errlen) == -1) {
		saved = errno;
		mtu_unblock(&old);
		errno = saved;
		return -1;
	}
	mtu_table_add();
	if (mtu_ioctl_set(ifname, mtu) == -1) {
		saved = errno;
		unlink(e->journal);
		close(e->lockfd);
		mtu_table_drop();
		mtu_unblock(&old);
		mtu_set_error(ifname, mtu, saved, err, errlen);
		return -1;
	}
	mtu_unblock(&old);
	return 0;
}

int
mtu_change(const char *ifname, int mtu, char *err, size_t errlen)
{
	int	cur;

	if (!netif_name_ok(ifname)) {
		snprintf(err, errlen, "invalid interface name: %s",
		    ifname == NULL ? "(null)" : ifname);
		errno = EINVAL;
		return -1;
	}
	if (mtu < MTU_MIN || mtu > MTU_MAX) {
		snprintf(err, errlen, "MTU is out of range (%d-%d): %d",
		    MTU_MIN, MTU_MAX, mtu);
		errno = ERANGE;
		return -1;
	}
	if (mtu_get(ifname, &cur, err, errlen) == -1)
		return -1;
	/* setting the current value changes nothing, but needs privilege */
	if (mtu_ioctl_set(ifname, cur) == -1) {
		mtu_set_error(ifname, cur, errno, err, errlen);
		return -1;
	}
	if (mtu_table_find(ifname) == -1) {
		if (mtu == cur)
			return 0;
		return mtu_first_change(ifname, cur, mtu, err, errlen);
	}
	if (mtu_ioctl_set(ifname, mtu) == -1) {
		mtu_set_error(ifname, mtu, errno, err, errlen);
		return -1;
	}
	return 0;
}
