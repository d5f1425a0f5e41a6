/*
 * test_rr.c: --rr's loops (rr.c) through the paths' public doors
 * (sender_open/run with GB_PATH_RR_ASK, receiver_open/run/end with
 * GB_PATH_RR_ANSWER) over a real TCP connection on 127.0.0.1:
 *
 * - asker and answerer count the same transactions, with a burst in
 *   flight (what is in flight at the stop is awaited), and the asker's
 *   histogram has one latency for each; a stop before the start asks
 *   nothing;
 * - the bytes each end counts are its transactions' requests and answers;
 * - every answer the asker reads is the answer's size (a request of 3
 *   and an answer of 5 bytes never mix up);
 * - a request cut by the asker's FIN fails the answerer, an answer that
 *   never comes fails the asker, each naming what it was doing;
 * - --crr (GB_PATH_CRR_ASK, GB_PATH_CRR_ANSWER, crr_give), with a thread
 *   in the listener's place that accepts, checks the data message and
 *   hands each connection over: both ends count the same transactions,
 *   one connection each, and stop at the stream's FIN; a second
 *   connection while one waits is refused and one never taken is closed
 *   with the stream; two requests on one connection fail the answerer.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <sys/socket.h>
#include <fcntl.h>
#include <poll.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>
#include <unistd.h>

#include "base/params.h"
#include "data/receiver.h"
#include "data/sender.h"
#include "data/stream.h"
#include "stream_rr.h"

#define SILENT_MS	2000

static void
tcp_pair(int fds[2])
{
	struct sockaddr_in sin;
	socklen_t len = sizeof(sin);
	int lfd;

	assert_true((lfd = socket(AF_INET, SOCK_STREAM, 0)) >= 0);
	memset(&sin, 0, sizeof(sin));
	sin.sin_family = AF_INET;
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	assert_int_equal(bind(lfd, (struct sockaddr *)&sin, sizeof(sin)), 0);
	assert_int_equal(listen(lfd, 1), 0);
	assert_int_equal(getsockname(lfd, (struct sockaddr *)&sin, &len), 0);
	assert_true((fds[0] = socket(AF_INET, SOCK_STREAM, 0)) >= 0);
	assert_int_equal(connect(fds[0], (struct sockaddr *)&sin,
	    sizeof(sin)), 0);
	assert_true((fds[1] = accept(lfd, NULL, NULL)) >= 0);
	close(lfd);
}

struct answerer {
	struct stream_io	 io;
	pthread_t		 tid;
	int			 rc;
};

static void *
answer_main(void *arg)
{
	struct answerer *a = arg;

	a->rc = receiver_run(&a->io);
	receiver_end(&a->io);
	return NULL;
}

static void
rr_set(struct stream_io *io, uint32_t req, uint32_t resp, uint32_t burst)
{
	io->rr.req = req;
	io->rr.resp = resp;
	io->rr.burst = burst;
}

/* An asker in a thread of its own, stopped after a while. */
struct asker {
	struct stream_io	 io;
	atomic_int		 stop;
	pthread_t		 tid;
	int			 rc;
};

static void *
ask_main(void *arg)
{
	struct asker *k = arg;

	k->rc = sender_run(&k->io, &k->stop, 0);
	return NULL;
}

static void
run_many(uint32_t req, uint32_t resp, uint32_t burst)
{
	struct asker k;
	struct answerer ans;
	char err[GB_ERR_LEN];
	uint64_t n;
	int fds[2];

	tcp_pair(fds);
	memset(&k, 0, sizeof(k));
	memset(&ans, 0, sizeof(ans));
	rr_set(&k.io, req, resp, burst);
	rr_set(&ans.io, req, resp, burst);
	if (sender_open(&k.io, fds[0], GB_PATH_RR_ASK, 0, SILENT_MS, err,
	    sizeof(err)) == -1 || receiver_open(&ans.io, fds[1],
	    GB_PATH_RR_ANSWER, 0, SILENT_MS, err, sizeof(err)) == -1)
		fail_msg("open: %s", err);
	assert_int_equal(pthread_create(&ans.tid, NULL, answer_main, &ans), 0);
	assert_int_equal(pthread_create(&k.tid, NULL, ask_main, &k), 0);
	usleep(100 * 1000);
	atomic_store(&k.stop, STREAM_STOP_DURATION);
	assert_int_equal(pthread_join(k.tid, NULL), 0);
	assert_int_equal(pthread_join(ans.tid, NULL), 0);
	assert_int_equal(k.rc, 0);
	assert_int_equal(ans.rc, 0);
	n = atomic_load(&k.io.rr.trans);
	assert_true(n > burst);
	/* The burst in flight at the stop was awaited: none is lost. */
	assert_int_equal(atomic_load(&ans.io.rr.trans), n);
	assert_int_equal(k.io.rr.hist->count, n);
	assert_true(k.io.rr.hist->min > 0);
	assert_int_equal(atomic_load(&k.io.bytes), n * (req + resp));
	assert_int_equal(atomic_load(&ans.io.bytes), n * (req + resp));
	stream_io_close(&k.io);
	stream_io_close(&ans.io);
	close(fds[0]);
	close(fds[1]);
}

/* One in flight and many; requests and answers of other sizes. */
static void
test_many(void **state)
{
	(void)state;
	run_many(1, 1, 1);
	run_many(3, 5, 4);
	run_many(100, 4096, 8);
	run_many(65536, 1, 2);
}

/* A stop before the first request asks nothing; the FIN ends both. */
static void
test_stopped(void **state)
{
	struct stream_io ask;
	struct answerer ans;
	atomic_int stop;
	char err[GB_ERR_LEN];
	int fds[2];

	(void)state;
	tcp_pair(fds);
	memset(&ask, 0, sizeof(ask));
	memset(&ans, 0, sizeof(ans));
	rr_set(&ask, 3, 5, 4);
	rr_set(&ans.io, 3, 5, 4);
	if (sender_open(&ask, fds[0], GB_PATH_RR_ASK, 0, SILENT_MS, err,
	    sizeof(err)) == -1 || receiver_open(&ans.io, fds[1],
	    GB_PATH_RR_ANSWER, 0, SILENT_MS, err, sizeof(err)) == -1)
		fail_msg("open: %s", err);
	assert_int_equal(pthread_create(&ans.tid, NULL, answer_main, &ans), 0);
	atomic_store(&stop, STREAM_STOP_DURATION);
	assert_int_equal(sender_run(&ask, &stop, 0), 0);
	assert_int_equal(pthread_join(ans.tid, NULL), 0);
	assert_int_equal(ans.rc, 0);
	assert_int_equal(atomic_load(&ask.rr.trans), 0);
	assert_int_equal(atomic_load(&ans.io.rr.trans), 0);
	assert_int_equal(ask.rr.hist->count, 0);
	stream_io_close(&ask);
	stream_io_close(&ans.io);
	close(fds[0]);
	close(fds[1]);
}

/* A request cut by the FIN; an answer that never comes. */
static void
test_cut(void **state)
{
	struct stream_io ask, ans;
	atomic_int stop;
	char err[GB_ERR_LEN];
	int fds[2];

	(void)state;
	tcp_pair(fds);
	memset(&ans, 0, sizeof(ans));
	rr_set(&ans, 3, 5, 1);
	assert_int_equal(receiver_open(&ans, fds[1], GB_PATH_RR_ANSWER, 0,
	    SILENT_MS, err, sizeof(err)), 0);
	assert_int_equal(send(fds[0], "ab", 2, 0), 2);
	shutdown(fds[0], SHUT_WR);
	assert_int_equal(receiver_run(&ans), -1);
	assert_string_equal(ans.what, "reading a request");
	stream_io_close(&ans);
	close(fds[0]);
	close(fds[1]);

	tcp_pair(fds);
	memset(&ask, 0, sizeof(ask));
	rr_set(&ask, 3, 5, 2);
	assert_int_equal(sender_open(&ask, fds[0], GB_PATH_RR_ASK, 0,
	    SILENT_MS, err, sizeof(err)), 0);
	shutdown(fds[1], SHUT_WR);	/* the answerer's FIN, no answer */
	atomic_store(&stop, 0);
	assert_int_equal(sender_run(&ask, &stop, 0), -1);
	assert_string_equal(ask.what, "awaiting an answer");
	assert_int_equal(atomic_load(&ask.rr.trans), 0);
	stream_io_close(&ask);
	close(fds[0]);
	close(fds[1]);
}

/* --crr: the data message the asker presents (client.c encodes one). */
#define CRR_MSG		"GBCP-test-message"
#define CRR_MSGLEN	(sizeof(CRR_MSG) - 1)

/* In the listener's place: accept, read the message, hand over. */
struct giver {
	int			 lfd;
	struct stream_io	*io;	/* the answerer's */
	atomic_int		 done;
	uint64_t		 given, bad;
	pthread_t		 tid;
};

static void *
give_main(void *arg)
{
	struct giver *g = arg;
	struct pollfd pfd = { .fd = g->lfd, .events = POLLIN };
	char msg[CRR_MSGLEN];
	int fd;

	while (!atomic_load(&g->done)) {
		if (poll(&pfd, 1, 50) <= 0 ||
		    (fd = accept(g->lfd, NULL, NULL)) == -1)
			continue;
		if (recv(fd, msg, sizeof(msg), MSG_WAITALL) !=
		    (ssize_t)sizeof(msg) || memcmp(msg, CRR_MSG,
		    sizeof(msg)) != 0) {
			g->bad++;
			close(fd);
			continue;
		}
		while (crr_give(g->io, fd) == -1)
			usleep(100);
		g->given++;
	}
	return NULL;
}

static void
test_crr(void **state)
{
	struct sock_addr to = { .len = sizeof(struct sockaddr_in) };
	struct gb_params p;
	struct giver g;
	struct asker k;
	struct answerer ans;
	char err[GB_ERR_LEN];
	uint64_t n;
	int fds[2];

	(void)state;
	tcp_pair(fds);		/* the stream's own connection */
	memset(&k, 0, sizeof(k));
	memset(&ans, 0, sizeof(ans));
	memset(&g, 0, sizeof(g));
	params_init(&p);
	rr_set(&k.io, 3, 5, 1);
	rr_set(&ans.io, 3, 5, 1);
	assert_true((g.lfd = socket(AF_INET, SOCK_STREAM, 0)) >= 0);
	((struct sockaddr_in *)&to.ss)->sin_family = AF_INET;
	((struct sockaddr_in *)&to.ss)->sin_addr.s_addr =
	    htonl(INADDR_LOOPBACK);
	assert_int_equal(bind(g.lfd, (struct sockaddr *)&to.ss, to.len), 0);
	assert_int_equal(listen(g.lfd, 16), 0);
	assert_int_equal(getsockname(g.lfd, (struct sockaddr *)&to.ss,
	    &to.len), 0);
	k.io.rr.crr = (struct stream_crr){ .to = &to, .p = &p,
	    .msg = CRR_MSG, .msglen = CRR_MSGLEN };
	if (sender_open(&k.io, fds[0], GB_PATH_CRR_ASK, 0, SILENT_MS, err,
	    sizeof(err)) == -1 || receiver_open(&ans.io, fds[1],
	    GB_PATH_CRR_ANSWER, 0, SILENT_MS, err, sizeof(err)) == -1)
		fail_msg("open: %s", err);
	g.io = &ans.io;
	assert_int_equal(pthread_create(&g.tid, NULL, give_main, &g), 0);
	assert_int_equal(pthread_create(&ans.tid, NULL, answer_main, &ans), 0);
	assert_int_equal(pthread_create(&k.tid, NULL, ask_main, &k), 0);
	usleep(200 * 1000);
	atomic_store(&k.stop, STREAM_STOP_DURATION);
	assert_int_equal(pthread_join(k.tid, NULL), 0);
	assert_int_equal(pthread_join(ans.tid, NULL), 0);
	atomic_store(&g.done, 1);
	assert_int_equal(pthread_join(g.tid, NULL), 0);
	assert_int_equal(k.rc, 0);
	assert_int_equal(ans.rc, 0);
	n = atomic_load(&k.io.rr.trans);
	assert_true(n > 10);
	assert_int_equal(atomic_load(&ans.io.rr.trans), n);
	assert_int_equal(atomic_load(&k.io.rr.crr.conns), n);
	assert_int_equal(atomic_load(&ans.io.rr.crr.conns), n);
	assert_int_equal(g.given, n);
	assert_int_equal(g.bad, 0);
	assert_int_equal(k.io.rr.hist->count, n);
	/* The message is no payload: the bytes are requests and answers. */
	assert_int_equal(atomic_load(&k.io.bytes), n * 8);
	assert_int_equal(atomic_load(&ans.io.bytes), n * 8);
	stream_io_close(&k.io);
	stream_io_close(&ans.io);
	close(g.lfd);
	close(fds[0]);
	close(fds[1]);
}

/* One waits at most; one never taken is closed; two requests fail. */
static void
test_crr_refused(void **state)
{
	struct stream_io ans;
	char err[GB_ERR_LEN];
	int fds[2], a[2], b[2];

	(void)state;
	tcp_pair(fds);
	tcp_pair(a);
	tcp_pair(b);
	memset(&ans, 0, sizeof(ans));
	rr_set(&ans, 3, 5, 1);
	assert_int_equal(receiver_open(&ans, fds[1], GB_PATH_CRR_ANSWER, 0,
	    SILENT_MS, err, sizeof(err)), 0);
	assert_int_equal(crr_give(&ans, a[1]), 0);
	assert_int_equal(crr_give(&ans, b[1]), -1);
	stream_io_close(&ans);		/* closes a[1], never taken */
	assert_int_equal(fcntl(a[1], F_GETFD), -1);
	assert_true(fcntl(b[1], F_GETFD) >= 0);
	close(a[0]);

	memset(&ans, 0, sizeof(ans));
	rr_set(&ans, 3, 5, 1);
	assert_int_equal(receiver_open(&ans, fds[1], GB_PATH_CRR_ANSWER, 0,
	    SILENT_MS, err, sizeof(err)), 0);
	assert_int_equal(send(b[0], "abcdef", 6, 0), 6);	/* two */
	assert_int_equal(crr_give(&ans, b[1]), 0);
	assert_int_equal(receiver_run(&ans), -1);
	assert_string_equal(ans.what, "awaiting the close of the request's "
	    "connection");
	assert_int_equal(atomic_load(&ans.rr.trans), 1);
	stream_io_close(&ans);
	close(b[0]);
	close(fds[0]);
	close(fds[1]);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_many),
		cmocka_unit_test(test_stopped),
		cmocka_unit_test(test_cut),
		cmocka_unit_test(test_crr),
		cmocka_unit_test(test_crr_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
