/*
 * bareloop - the kernel's own TCP ceiling: one process send()s a buffer
 * over and over for some seconds, the other recv()s it, and nothing else
 * happens.  What gigebench (or any tool) moves at the same buffer length
 * is measured against this.
 *
 *	bareloop [-w] [-l length] [-P n] [-T seconds]	both ends, over 127.0.0.1
 *	bareloop -r [-w] [-p port] [-l length] [-P n]	receive n connections
 *	bareloop -t host [-p port] [-l length] [-P n] [-T seconds]	send to it
 *
 *	$ cc -O2 -o bareloop bench/bareloop.c
 *	$ ./bareloop -l 128K -T 5
 *	bareloop-t: bytes=9428402176 seconds=5.0001 mbps=15084.99 length=131072
 *	bareloop-r: bytes=9428402176 seconds=5.0005 mbps=15083.90 length=131072
 *
 * -w sets SO_RCVLOWAT on the receiving socket to the length, as gigebench
 * does: TCP then wakes the receiver once per buffer, not once per segment.
 * -P n (1-8) moves n connections at once, a thread per connection on each
 * end, as gigebench -P and iperf -P do; the receiver's line is the sum.
 *
 * Without -t or -r it forks: the parent receives, the child sends, over
 * an ephemeral port on 127.0.0.1.  bench/run.sh runs -r and -t as two
 * commands instead, each under bench/cpuwrap, so that their CPU time is
 * taken the same way as every other tool's.
 *
 * The senders stop on a SIGALRM timer (a flag tested once per send), so
 * that the loop reads no clock per buffer.  The receiver's figure is the
 * headline: bytes delivered from accept() to end of file.  Sizes take K
 * and M suffixes (powers of 1024), as gigebench's do.
 *
 * What it must not do: anything per buffer but send() or recv(), which
 * is the point; or talk to any address but the one it is given.
 */
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/wait.h>

#include <netinet/in.h>
#include <arpa/inet.h>
#include <netdb.h>

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define LENGTH_DEFAULT	(128 * 1024)
#define LENGTH_MAX	(64 * 1024 * 1024)
#define STREAMS_MAX	8

static atomic_int time_up;	/* lock-free: safe in a handler and threads */

static void
alarm_note(int sig)
{
	(void)sig;
	atomic_store(&time_up, 1);
}

/* One connection's loop: its socket, length and what it moved. */
struct flow {
	pthread_t tid;
	int fd;
	long length;
	unsigned long long bytes;
	int status;
};

static void
usage(void)
{
	fprintf(stderr,
	    "usage: bareloop [-w] [-l length] [-P n] [-T seconds]\n"
	    "       bareloop -r [-w] [-p port] [-l length] [-P n]\n"
	    "       bareloop -t host [-p port] [-l length] [-P n] "
	    "[-T seconds]\n");
	exit(2);
}

static double
now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* size_parse: "131072", "128K", "1M" into bytes in [1, LENGTH_MAX]. */
static long
size_parse(const char *s)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (end == s || errno != 0 || v <= 0)
		return -1;
	if (*end == 'k' || *end == 'K')
		v *= 1024, end++;
	else if (*end == 'm' || *end == 'M')
		v *= 1024 * 1024, end++;
	if (*end != '\0' || v > LENGTH_MAX)
		return -1;
	return v;
}

static int
listen_on(int port, int *bound_port)
{
	struct sockaddr_in sin;
	socklen_t len = sizeof(sin);
	int fd, one = 1;

	if ((fd = socket(AF_INET, SOCK_STREAM, 0)) == -1)
		return -1;
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	memset(&sin, 0, sizeof(sin));
	sin.sin_family = AF_INET;
	sin.sin_port = htons(port);
	sin.sin_addr.s_addr = port == 0 ? htonl(INADDR_LOOPBACK) :
	    htonl(INADDR_ANY);
	if (bind(fd, (struct sockaddr *)&sin, sizeof(sin)) == -1 ||
	    listen(fd, STREAMS_MAX) == -1 ||
	    getsockname(fd, (struct sockaddr *)&sin, &len) == -1) {
		close(fd);
		return -1;
	}
	*bound_port = ntohs(sin.sin_port);
	return fd;
}

static int
connect_to(const char *host, int port)
{
	struct addrinfo hints, *res, *ai;
	char serv[16];
	int fd = -1;

	memset(&hints, 0, sizeof(hints));
	hints.ai_family = AF_UNSPEC;
	hints.ai_socktype = SOCK_STREAM;
	snprintf(serv, sizeof(serv), "%d", port);
	if (getaddrinfo(host, serv, &hints, &res) != 0)
		return -1;
	for (ai = res; ai != NULL; ai = ai->ai_next) {
		if ((fd = socket(ai->ai_family, ai->ai_socktype, 0)) == -1)
			continue;
		if (connect(fd, ai->ai_addr, ai->ai_addrlen) == 0)
			break;
		close(fd);
		fd = -1;
	}
	freeaddrinfo(res);
	return fd;
}

static void
report(const char *who, unsigned long long bytes, double secs, long length)
{
	printf("bareloop-%s: bytes=%llu seconds=%.4f mbps=%.2f length=%ld\n",
	    who, bytes, secs, secs > 0 ? bytes * 8 / secs / 1e6 : 0.0, length);
	fflush(stdout);
}

static void *
recv_flow(void *arg)
{
	struct flow *f = arg;
	char *buf;
	ssize_t n = -1;

	if ((buf = malloc(f->length)) != NULL) {
		for (;;) {
			n = recv(f->fd, buf, f->length, 0);
			if (n > 0)
				f->bytes += n;
			else if (n == 0 || errno != EINTR)
				break;
		}
	}
	f->status = n == 0 ? 0 : -1;
	free(buf);
	return NULL;
}

/*
 * run_flows: one thread per flow running fn, the first in this one; then
 * closes the flows' sockets.  *bytes: what they moved together.
 */
static int
run_flows(struct flow *fl, int nflows, void *(*fn)(void *),
    unsigned long long *bytes)
{
	int i, status = 0;

	for (i = 1; i < nflows; i++)
		if (pthread_create(&fl[i].tid, NULL, fn, &fl[i]) != 0) {
			fl[i].status = -1;
			fl[i].tid = pthread_self();
		}
	fn(&fl[0]);
	for (i = 0; i < nflows; i++) {
		if (i > 0 && !pthread_equal(fl[i].tid, pthread_self()))
			pthread_join(fl[i].tid, NULL);
		if (fl[i].status != 0)
			status = -1;
		*bytes += fl[i].bytes;
		close(fl[i].fd);
	}
	return status;
}

static int
receive_n(int lfd, long length, int nflows, int lowat)
{
	struct flow fl[STREAMS_MAX];
	unsigned long long bytes = 0;
	double t0 = 0;
	int i, status;

	memset(fl, 0, sizeof(fl));
	for (i = 0; i < nflows; i++) {
		while ((fl[i].fd = accept(lfd, NULL, NULL)) == -1 &&
		    errno == EINTR)
			;
		if (fl[i].fd == -1) {
			while (i-- > 0)
				close(fl[i].fd);
			return -1;
		}
		if (i == 0)
			t0 = now_s();
		fl[i].length = length;
		if (lowat) {
			int v = (int)length;

			if (setsockopt(fl[i].fd, SOL_SOCKET, SO_RCVLOWAT, &v,
			    sizeof(v)) == -1)
				perror("bareloop: SO_RCVLOWAT");
		}
	}
	status = run_flows(fl, nflows, recv_flow, &bytes);
	report("r", bytes, now_s() - t0, length);
	return status;
}

static void *
send_flow(void *arg)
{
	struct flow *f = arg;
	char *buf;
	ssize_t n;

	f->status = -1;
	if ((buf = malloc(f->length)) == NULL)
		return NULL;
	memset(buf, 0x5a, f->length);
	while (!atomic_load_explicit(&time_up, memory_order_relaxed)) {
		n = send(f->fd, buf, f->length, 0);
		if (n > 0)
			f->bytes += n;
		else if (n == -1 && errno != EINTR)
			break;
	}
	if (atomic_load(&time_up))
		f->status = 0;
	free(buf);
	return NULL;
}

/* send_for: connect nflows times to host, then send on each until the
 * timer ends it; the sum of what was sent. */
static int
send_for(const char *host, int port, long length, int nflows, double seconds)
{
	struct flow fl[STREAMS_MAX];
	unsigned long long bytes = 0;
	struct itimerval it;
	struct sigaction sa;
	int i, status;
	double t0;

	memset(fl, 0, sizeof(fl));
	for (i = 0; i < nflows; i++) {
		if ((fl[i].fd = connect_to(host, port)) == -1) {
			fprintf(stderr, "bareloop: cannot connect to %s port "
			    "%d: %s\n", host, port, strerror(errno));
			while (i-- > 0)
				close(fl[i].fd);
			return -1;
		}
		fl[i].length = length;
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = alarm_note;	/* no SA_RESTART: send() may return short */
	sigemptyset(&sa.sa_mask);
	sigaction(SIGALRM, &sa, NULL);
	memset(&it, 0, sizeof(it));
	it.it_value.tv_sec = (time_t)seconds;
	it.it_value.tv_usec = (suseconds_t)((seconds - (time_t)seconds) * 1e6);
	t0 = now_s();
	setitimer(ITIMER_REAL, &it, NULL);
	status = run_flows(fl, nflows, send_flow, &bytes);
	report("t", bytes, now_s() - t0, length);
	return status;
}

int
main(int argc, char *argv[])
{
	const char *host = NULL;
	double seconds = 5;
	long length = LENGTH_DEFAULT;
	int ch, mode = 0, port = 5201, lfd, status, lowat = 0, nflows = 1;
	pid_t pid;
	char *end;

	while ((ch = getopt(argc, argv, "l:p:P:rt:T:w")) != -1) {
		switch (ch) {
		case 'l':
			if ((length = size_parse(optarg)) == -1) {
				fprintf(stderr, "bareloop: length is not "
				    "1-64M: %s\n", optarg);
				return 2;
			}
			break;
		case 'p':
			port = atoi(optarg);
			if (port < 1 || port > 65535) {
				fprintf(stderr, "bareloop: port is not "
				    "1-65535: %s\n", optarg);
				return 2;
			}
			break;
		case 'P':
			nflows = atoi(optarg);
			if (nflows < 1 || nflows > STREAMS_MAX) {
				fprintf(stderr, "bareloop: streams is not "
				    "1-%d: %s\n", STREAMS_MAX, optarg);
				return 2;
			}
			break;
		case 'r':
			mode = 'r';
			break;
		case 'w':
			lowat = 1;
			break;
		case 't':
			mode = 't';
			host = optarg;
			break;
		case 'T':
			seconds = strtod(optarg, &end);
			if (*end != '\0' || !(seconds >= 0.1 && seconds <= 3600)) {
				fprintf(stderr, "bareloop: seconds is not "
				    "0.1-3600: %s\n", optarg);
				return 2;
			}
			break;
		default:
			usage();
		}
	}
	if (optind != argc)
		usage();
	signal(SIGPIPE, SIG_IGN);

	if (mode == 't')
		return send_for(host, port, length, nflows, seconds) == 0 ? 0 : 1;
	if ((lfd = listen_on(mode == 'r' ? port : 0, &port)) == -1) {
		fprintf(stderr, "bareloop: cannot listen: %s\n", strerror(errno));
		return 1;
	}
	if (mode == 'r') {
		status = receive_n(lfd, length, nflows, lowat);
		close(lfd);
		return status == 0 ? 0 : 1;
	}
	/* both ends: the child sends, the parent receives */
	if ((pid = fork()) == -1) {
		perror("bareloop: fork");
		return 1;
	}
	if (pid == 0) {
		close(lfd);
		status = send_for("127.0.0.1", port, length, nflows, seconds);
		_exit(status == 0 ? 0 : 1);
	}
	status = receive_n(lfd, length, nflows, lowat);
	close(lfd);
	if (waitpid(pid, &ch, 0) == -1 || !WIFEXITED(ch) ||
	    WEXITSTATUS(ch) != 0)
		status = -1;
	return status == 0 ? 0 : 1;
}
