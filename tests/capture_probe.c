/*
 * capture_probe.c: capture_start() and capture_stop() as a command, for
 * tests/capture_netns.sh until gigebench itself has --capture.  Built by
 * that script:
 *
 *	gcc -std=gnu11 -D_GNU_SOURCE -Isrc -o capture_probe \
 *	    tests/capture_probe.c src/capture.c -lpcap -ljansson -lpthread
 *
 *	capture_probe [-l] [-r readyfile] [-s stopfile] ifname local peer
 *	    port seconds
 *
 * It captures the flows between local and peer on port (-l: the local
 * end is the listener) until stopfile exists or seconds have passed,
 * creating readyfile once the capture runs; then it prints the capture's
 * JSON on stdout and its text lines on stderr.  Files, not signals,
 * because the script starts it through ip netns exec.  Exit 0, 1 when
 * the capture could not start (the reason on stderr), 2 on usage.
 */
#include <sys/socket.h>
#include <sys/stat.h>

#include <arpa/inet.h>
#include <netinet/in.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "capture.h"

#define PROBE_POLL_MS	50

static void
usage(void)
{
	fprintf(stderr, "usage: capture_probe [-l] [-r readyfile]"
	    " [-s stopfile] ifname local peer port seconds\n");
	exit(2);
}

static int
probe_addr(const char *s, uint16_t port, struct sockaddr_storage *ss)
{
	struct sockaddr_in	*sin = (struct sockaddr_in *)ss;
	struct sockaddr_in6	*sin6 = (struct sockaddr_in6 *)ss;

	memset(ss, 0, sizeof(*ss));
	if (inet_pton(AF_INET, s, &sin->sin_addr) == 1) {
		sin->sin_family = AF_INET;
		sin->sin_port = htons(port);
		return 0;
	}
	if (inet_pton(AF_INET6, s, &sin6->sin6_addr) == 1) {
		sin6->sin6_family = AF_INET6;
		sin6->sin6_port = htons(port);
		return 0;
	}
	return -1;
}

static long
probe_num(const char *s, long min, long max)
{
	char	*end;
	long	 v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno != 0 || end == s || *end != '\0' || v < min || v > max)
		usage();
	return v;
}

int
main(int argc, char *argv[])
{
	struct sockaddr_storage	 local, peer;
	struct gb_capture	 out;
	struct capture		*cap;
	struct timespec		 nap = { 0, PROBE_POLL_MS * 1000000L };
	const char		*ready = NULL, *stop = NULL;
	char			 err[GB_ERR_LEN], *s;
	json_t			*j;
	uint16_t		 port;
	long			 secs, waited_ms;
	int			 ch, listener = 0, fd;

	while ((ch = getopt(argc, argv, "lr:s:")) != -1) {
		switch (ch) {
		case 'l':
			listener = 1;
			break;
		case 'r':
			ready = optarg;
			break;
		case 's':
			stop = optarg;
			break;
		default:
			usage();
		}
	}
	argc -= optind;
	argv += optind;
	if (argc != 5)
		usage();
	port = (uint16_t)probe_num(argv[3], 1, 65535);
	secs = probe_num(argv[4], 1, 3600);
	/* The ports matter only when both ends share an address. */
	if (probe_addr(argv[1], listener ? port : 0, &local) == -1 ||
	    probe_addr(argv[2], listener ? 0 : port, &peer) == -1)
		usage();

	memset(&out, 0, sizeof(out));
	cap = capture_start(argv[0], (struct sockaddr *)&local,
	    (struct sockaddr *)&peer, port, err, sizeof(err));
	if (cap == NULL) {
		fprintf(stderr, "capture_probe: %s\n", err);
		return 1;
	}
	if (ready != NULL) {
		if ((fd = open(ready, O_WRONLY | O_CREAT | O_TRUNC, 0644)) ==
		    -1) {
			fprintf(stderr, "capture_probe: %s: %s\n", ready,
			    strerror(errno));
			capture_stop(cap, &out);
			return 1;
		}
		close(fd);
	}
	for (waited_ms = 0; waited_ms < secs * 1000;
	    waited_ms += PROBE_POLL_MS) {
		if (stop != NULL && access(stop, F_OK) == 0)
			break;
		nanosleep(&nap, NULL);
	}
	capture_stop(cap, &out);

	capture_text(stderr, &out, "capture_probe:");
	if ((j = capture_json(&out)) == NULL ||
	    (s = json_dumps(j, JSON_SORT_KEYS | JSON_COMPACT)) == NULL) {
		fprintf(stderr, "capture_probe: out of memory\n");
		return 1;
	}
	printf("%s\n", s);
	free(s);
	json_decref(j);
	return 0;
}
