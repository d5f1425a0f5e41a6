/*
 * udp_ceiling - the kernel's own UDP ceiling: a sender thread sendmmsg()s
 * batches of datagrams of one size for some seconds into a connected UDP
 * socket, a receiver thread recvmmsg()s them from its connected peer, and
 * nothing else happens.  What gigebench -u (or any tool) receives at the
 * same datagram size is measured against this (issue 15's "bare
 * sendmmsg()/recvmmsg() loop").
 *
 *	udp_ceiling [-l bytes] [-T seconds] [-b batch] [-P pairs]
 *	    [-A scpu[,rcpu]] [address]
 *
 *	$ cc -O2 -Wall -pthread -o udp_ceiling bench/udp_ceiling.c
 *	$ ./udp_ceiling -l 64 -T 3
 *	udp_ceiling: address=127.0.0.1 pairs=1 length=64 batch=64 ...
 *
 * -l the UDP payload in bytes (1-65507, default 64), -T the sending time
 * (0.1-3600 s, default 3), -b datagrams per sendmmsg()/recvmmsg() call
 * (1-1024, UIO_MAXIOV; default 64), -P sender/receiver pairs (1-16,
 * default 1), each pair its own two sockets and two threads.  -A pins
 * pair i's sender to CPU scpu + i and its receiver to rcpu + i (rcpu
 * defaults to scpu).  The address (default 127.0.0.1, IPv6 too) is local:
 * both sockets are bound to it on ephemeral ports and connected to each
 * other, so the receiver takes datagrams from its sender only.  Kernel
 * socket buffers, as the other tools get them.
 *
 * The output is one line of key=value for bench/run.sh: sent (datagrams
 * the kernel accepted), received, lost (sent - received: on loopback,
 * the receiving socket's overflow, /proc/net/snmp's RcvbufErrors),
 * send_errors (sendmmsg() calls that failed: ENOBUFS, EAGAIN,
 * ECONNREFUSED), tx_pps and rx_pps (each over its own thread's time from
 * the common start to its last batch), rx_mbps (payload, 10^6 bit/s), and
 * CPU seconds from getrusage(): the whole process (cpu_user_s,
 * cpu_sys_s) and its senders' and receivers' threads apart (tx_cpu_s,
 * rx_cpu_s; on loopback the receive path's softirq runs in the sender's
 * context and is charged to it).
 *
 * The loops read the clock once per batch, not per datagram, and test a
 * stop flag once per batch; the main thread sleeps for the time and sets
 * it.  A receiver ends when nothing has arrived for DRAIN_MS after the
 * stop (SO_RCVTIMEO), so datagrams still queued are counted.
 *
 * What it must not do: anything per datagram but the system calls, which
 * is the point; or send to any address but its own receiver's.  It is
 * standalone (no gigebench code), and keeps no global state.
 */
#define _GNU_SOURCE

#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/uio.h>

#include <netinet/in.h>
#include <netdb.h>

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define LENGTH_DEFAULT	64
#define LENGTH_MAX	65507	/* 65535 - IPv4 and UDP headers */
#define BATCH_DEFAULT	64
#define BATCH_MAX	1024	/* UIO_MAXIOV: the kernel's vlen cap */
#define PAIRS_MAX	16
#define DRAIN_MS	100

struct cfg {
	long	length;
	long	batch;
	long	pairs;
	double	seconds;
	long	scpu, rcpu;	/* -1: not pinned */
	const char *address;
};

/* One thread's end of a pair: its socket and what it moved. */
struct end {
	pthread_t	 tid;
	int		 fd;
	int		 rx;		/* receiver, else sender */
	long		 cpu;		/* -1: not pinned */
	const struct cfg *cfg;
	atomic_int	*stop;
	pthread_barrier_t *go;
	unsigned long long count;	/* datagrams */
	unsigned long long bytes;	/* payload */
	unsigned long long errors;	/* failed sendmmsg() calls */
	double		 seconds;	/* start to last batch */
	double		 cpu_s;		/* this thread's user + sys */
	int		 started;
	char		 err[160];
};

struct totals {
	unsigned long long sent, received, errors, rx_bytes;
	double	tx_s, rx_s, tx_cpu_s, rx_cpu_s;
};

static void
usage(void)
{
	fprintf(stderr, "usage: udp_ceiling [-l bytes] [-T seconds] "
	    "[-b batch] [-P pairs] [-A scpu[,rcpu]] [address]\n");
	exit(2);
}

static double
now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static double
tv_s(const struct timeval *tv)
{
	return tv->tv_sec + tv->tv_usec / 1e6;
}

static double
thread_cpu_s(void)
{
	struct rusage ru;

	if (getrusage(RUSAGE_THREAD, &ru) == -1)
		return 0;
	return tv_s(&ru.ru_utime) + tv_s(&ru.ru_stime);
}

/* A whole decimal number in [lo, hi], or exit 2 naming what it is. */
static long
number_parse(const char *s, long lo, long hi, const char *what)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (end == s || *end != '\0' || errno != 0 || v < lo || v > hi) {
		fprintf(stderr, "udp_ceiling: %s is not %ld-%ld: %s\n", what,
		    lo, hi, s);
		exit(2);
	}
	return v;
}

static void
cpus_parse(const char *s, struct cfg *c)
{
	char buf[64], *comma;

	snprintf(buf, sizeof(buf), "%s", s);
	if ((comma = strchr(buf, ',')) != NULL)
		*comma++ = '\0';
	c->scpu = number_parse(buf, 0, CPU_SETSIZE - 1, "sender CPU");
	c->rcpu = comma != NULL ? number_parse(comma, 0, CPU_SETSIZE - 1,
	    "receiver CPU") : c->scpu;
}

static void
args_parse(int argc, char *argv[], struct cfg *c)
{
	char *end;
	int ch;

	memset(c, 0, sizeof(*c));
	c->length = LENGTH_DEFAULT;
	c->batch = BATCH_DEFAULT;
	c->pairs = 1;
	c->seconds = 3;
	c->scpu = c->rcpu = -1;
	c->address = "127.0.0.1";
	while ((ch = getopt(argc, argv, "A:b:l:P:T:")) != -1) {
		switch (ch) {
		case 'A':
			cpus_parse(optarg, c);
			break;
		case 'b':
			c->batch = number_parse(optarg, 1, BATCH_MAX, "batch");
			break;
		case 'l':
			c->length = number_parse(optarg, 1, LENGTH_MAX,
			    "datagram length");
			break;
		case 'P':
			c->pairs = number_parse(optarg, 1, PAIRS_MAX, "pairs");
			break;
		case 'T':
			c->seconds = strtod(optarg, &end);
			if (end == optarg || *end != '\0' ||
			    !(c->seconds >= 0.1 && c->seconds <= 3600)) {
				fprintf(stderr, "udp_ceiling: seconds is not "
				    "0.1-3600: %s\n", optarg);
				exit(2);
			}
			break;
		default:
			usage();
		}
	}
	if (optind < argc)
		c->address = argv[optind++];
	if (optind != argc)
		usage();
}

/* A UDP socket bound to address, port 0; its bound name in *sa. */
static int
socket_bound(const char *address, struct sockaddr_storage *sa,
    socklen_t *salen)
{
	struct addrinfo hints, *ai;
	int fd, e;

	memset(&hints, 0, sizeof(hints));
	hints.ai_family = AF_UNSPEC;
	hints.ai_socktype = SOCK_DGRAM;
	hints.ai_flags = AI_NUMERICHOST | AI_PASSIVE;
	if ((e = getaddrinfo(address, "0", &hints, &ai)) != 0) {
		fprintf(stderr, "udp_ceiling: %s: %s\n", address,
		    gai_strerror(e));
		return -1;
	}
	fd = socket(ai->ai_family, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	*salen = sizeof(*sa);
	if (fd == -1 || bind(fd, ai->ai_addr, ai->ai_addrlen) == -1 ||
	    getsockname(fd, (struct sockaddr *)sa, salen) == -1) {
		fprintf(stderr, "udp_ceiling: UDP socket on %s: %s\n",
		    address, strerror(errno));
		if (fd != -1)
			close(fd);
		fd = -1;
	}
	freeaddrinfo(ai);
	return fd;
}

/* Two sockets on address, each connected to the other. */
static int
pair_open(const char *address, int *tx, int *rx)
{
	struct sockaddr_storage ts, rs;
	socklen_t tl, rl;
	struct timeval tv = { 0, DRAIN_MS * 1000 };

	if ((*rx = socket_bound(address, &rs, &rl)) == -1)
		return -1;
	if ((*tx = socket_bound(address, &ts, &tl)) == -1) {
		close(*rx);
		return -1;
	}
	if (connect(*tx, (struct sockaddr *)&rs, rl) == -1 ||
	    connect(*rx, (struct sockaddr *)&ts, tl) == -1 ||
	    setsockopt(*rx, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)) == -1) {
		fprintf(stderr, "udp_ceiling: connecting the pair on %s: %s\n",
		    address, strerror(errno));
		close(*tx);
		close(*rx);
		return -1;
	}
	return 0;
}

/* batch headers over batch buffers of length (one shared when same). */
static struct mmsghdr *
msgs_new(long batch, long length, int same, char **buf, struct iovec **iov)
{
	struct mmsghdr *m;
	long i;

	m = calloc(batch, sizeof(*m));
	*iov = calloc(batch, sizeof(**iov));
	*buf = malloc(same ? length : batch * length);
	if (m == NULL || *iov == NULL || *buf == NULL) {
		free(m);
		free(*iov);
		free(*buf);
		return NULL;
	}
	memset(*buf, 0x5a, same ? length : batch * length);
	for (i = 0; i < batch; i++) {
		(*iov)[i].iov_base = *buf + (same ? 0 : i * length);
		(*iov)[i].iov_len = length;
		m[i].msg_hdr.msg_iov = &(*iov)[i];
		m[i].msg_hdr.msg_iovlen = 1;
	}
	return m;
}

static void
send_loop(struct end *e, struct mmsghdr *m, double t0)
{
	int n;

	while (!atomic_load_explicit(e->stop, memory_order_relaxed)) {
		if ((n = sendmmsg(e->fd, m, e->cfg->batch, 0)) > 0) {
			e->count += n;
			e->bytes += (unsigned long long)n * e->cfg->length;
		} else if (n == -1 && errno != EINTR)
			e->errors++;
		e->seconds = now_s() - t0;
	}
}

static void
recv_loop(struct end *e, struct mmsghdr *m, double t0)
{
	int n, i;

	for (;;) {
		n = recvmmsg(e->fd, m, e->cfg->batch, MSG_WAITFORONE, NULL);
		if (n > 0) {
			e->count += n;
			for (i = 0; i < n; i++)
				e->bytes += m[i].msg_len;
			e->seconds = now_s() - t0;
		} else if (n == -1 && errno != EINTR && errno != EAGAIN &&
		    errno != ECONNREFUSED) {
			snprintf(e->err, sizeof(e->err), "recvmmsg: %s",
			    strerror(errno));
			return;
		} else if (n == -1 && errno == EAGAIN &&
		    atomic_load(e->stop))
			return;	/* DRAIN_MS of silence after the stop */
	}
}

static void *
end_run(void *arg)
{
	struct end *e = arg;
	struct mmsghdr *m;
	struct iovec *iov;
	char *buf;
	double t0, c0;

	m = msgs_new(e->cfg->batch, e->cfg->length, !e->rx, &buf, &iov);
	if (m == NULL)
		snprintf(e->err, sizeof(e->err), "out of memory");
	pthread_barrier_wait(e->go);
	if (m == NULL)
		return NULL;
	c0 = thread_cpu_s();
	t0 = now_s();
	if (e->rx)
		recv_loop(e, m, t0);
	else
		send_loop(e, m, t0);
	e->cpu_s = thread_cpu_s() - c0;
	free(m);
	free(iov);
	free(buf);
	return NULL;
}

/* Start one end's thread, pinned when asked. */
static int
end_start(struct end *e)
{
	pthread_attr_t attr;
	cpu_set_t set;
	int r;

	pthread_attr_init(&attr);
	if (e->cpu >= 0) {
		CPU_ZERO(&set);
		CPU_SET(e->cpu, &set);
		pthread_attr_setaffinity_np(&attr, sizeof(set), &set);
	}
	r = pthread_create(&e->tid, &attr, end_run, e);
	pthread_attr_destroy(&attr);
	if (r != 0) {
		fprintf(stderr, "udp_ceiling: %s thread (CPU %ld, -1: any): "
		    "%s\n", e->rx ? "receiver" : "sender", e->cpu,
		    strerror(r));
		return -1;
	}
	e->started = 1;
	return 0;
}

static void
totals_add(struct totals *t, const struct end *e)
{
	if (e->rx) {
		t->received += e->count;
		t->rx_bytes += e->bytes;
		t->rx_cpu_s += e->cpu_s;
		if (e->seconds > t->rx_s)
			t->rx_s = e->seconds;
	} else {
		t->sent += e->count;
		t->errors += e->errors;
		t->tx_cpu_s += e->cpu_s;
		if (e->seconds > t->tx_s)
			t->tx_s = e->seconds;
	}
}

static void
report(const struct cfg *c, const struct totals *t, const struct rusage *r0,
    const struct rusage *r1)
{
	printf("udp_ceiling: address=%s pairs=%ld length=%ld batch=%ld "
	    "tx_seconds=%.4f rx_seconds=%.4f sent=%llu received=%llu "
	    "lost=%llu send_errors=%llu tx_pps=%.0f rx_pps=%.0f "
	    "rx_mbps=%.2f cpu_user_s=%.3f cpu_sys_s=%.3f tx_cpu_s=%.3f "
	    "rx_cpu_s=%.3f\n", c->address, c->pairs, c->length, c->batch,
	    t->tx_s, t->rx_s, t->sent, t->received,
	    t->sent > t->received ? t->sent - t->received : 0ULL, t->errors,
	    t->tx_s > 0 ? t->sent / t->tx_s : 0.0,
	    t->rx_s > 0 ? t->received / t->rx_s : 0.0,
	    t->rx_s > 0 ? t->rx_bytes * 8 / t->rx_s / 1e6 : 0.0,
	    tv_s(&r1->ru_utime) - tv_s(&r0->ru_utime),
	    tv_s(&r1->ru_stime) - tv_s(&r0->ru_stime), t->tx_cpu_s,
	    t->rx_cpu_s);
	fflush(stdout);
}

int
main(int argc, char *argv[])
{
	struct end ends[2 * PAIRS_MAX];
	struct timespec ts;
	struct totals tot;
	struct rusage r0, r1;
	pthread_barrier_t go;
	atomic_int stop = 0;
	struct cfg c;
	long i, n;
	int status = 0;

	args_parse(argc, argv, &c);
	n = 2 * c.pairs;
	memset(ends, 0, sizeof(ends));
	for (i = 0; i < n; i += 2) {
		if (pair_open(c.address, &ends[i].fd, &ends[i + 1].fd) == -1)
			return 1;
		ends[i + 1].rx = 1;
		ends[i].cpu = c.scpu >= 0 ? c.scpu + i / 2 : -1;
		ends[i + 1].cpu = c.rcpu >= 0 ? c.rcpu + i / 2 : -1;
	}
	pthread_barrier_init(&go, NULL, (unsigned)n + 1);
	getrusage(RUSAGE_SELF, &r0);
	/* Receivers first, so that each is waiting when its sender starts. */
	for (i = n - 1; i >= 0; i--) {
		ends[i].cfg = &c;
		ends[i].stop = &stop;
		ends[i].go = &go;
		if (end_start(&ends[i]) == -1)
			return 1;	/* the started ones wait at go: exit */
	}
	pthread_barrier_wait(&go);
	ts.tv_sec = (time_t)c.seconds;
	ts.tv_nsec = (long)((c.seconds - (double)ts.tv_sec) * 1e9);
	while (nanosleep(&ts, &ts) == -1 && errno == EINTR)
		;
	atomic_store(&stop, 1);
	memset(&tot, 0, sizeof(tot));
	for (i = 0; i < n; i++) {
		pthread_join(ends[i].tid, NULL);
		if (ends[i].err[0] != '\0') {
			fprintf(stderr, "udp_ceiling: %s %ld: %s\n",
			    ends[i].rx ? "receiver" : "sender", i / 2,
			    ends[i].err);
			status = 1;
		}
		totals_add(&tot, &ends[i]);
		close(ends[i].fd);
	}
	getrusage(RUSAGE_SELF, &r1);
	report(&c, &tot, &r0, &r1);
	pthread_barrier_destroy(&go);
	return status;
}
