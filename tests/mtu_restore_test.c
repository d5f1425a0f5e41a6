/*
 * mtu_restore_test.c: a probe for tests/mtu_netns.sh, built by it with
 * src/mtu.c and src/netif.c.
 *
 *	mtu_restore_test IFNAME MTU [SECONDS]
 *		mtu_change(), print "changed IFNAME to MTU", sleep SECONDS
 *		(0 when not given; a signal or SIGKILL can end it there),
 *		mtu_restore_all(), exit 0
 *	mtu_restore_test --restore
 *		mtu_restore_journals(), print its message, exit 0 (1 on -1)
 *
 * Errors go to stderr as "mtu_restore_test: REASON" with exit status 1;
 * usage errors exit 2.
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "host/mtu.h"

static void
usage(void)
{
	fprintf(stderr, "usage: mtu_restore_test ifname mtu [seconds]\n"
	    "       mtu_restore_test --restore\n");
	exit(2);
}

/* Sleep s seconds, resuming after a signal that did not end us. */
static void
nap(double s)
{
	struct timespec	ts, rem;

	ts.tv_sec = (time_t)s;
	ts.tv_nsec = (long)((s - (double)ts.tv_sec) * 1e9);
	while (nanosleep(&ts, &rem) == -1 && errno == EINTR)
		ts = rem;
}

int
main(int argc, char *argv[])
{
	char	 msg[4096], *end;
	double	 secs = 0;
	long	 mtu;
	int	 n;

	if (argc == 2 && strcmp(argv[1], "--restore") == 0) {
		n = mtu_restore_journals(msg, sizeof(msg));
		printf("%s\n", msg);
		return n == -1 ? 1 : 0;
	}
	if (argc < 3 || argc > 4)
		usage();
	errno = 0;
	mtu = strtol(argv[2], &end, 10);
	if (errno != 0 || end == argv[2] || *end != '\0' || mtu < 0 ||
	    mtu > 1000000)
		usage();
	if (argc == 4) {
		errno = 0;
		secs = strtod(argv[3], &end);
		if (errno != 0 || end == argv[3] || *end != '\0' ||
		    !(secs >= 0 && secs <= 3600))
			usage();
	}
	if (mtu_change(argv[1], (int)mtu, msg, sizeof(msg)) == -1) {
		fprintf(stderr, "mtu_restore_test: %s\n", msg);
		return 1;
	}
	printf("changed %s to %ld\n", argv[1], mtu);
	fflush(stdout);
	nap(secs);
	if (mtu_restore_all(msg, sizeof(msg)) == -1) {
		fprintf(stderr, "mtu_restore_test: %s\n", msg);
		return 1;
	}
	return 0;
}
