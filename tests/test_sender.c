/*
 * test_sender.c: the transmit paths of sender.c over a real TCP
 * connection on 127.0.0.1 (loopback only), against a reader thread that
 * plays the receiver: it reads to the end of the stream, checks every
 * byte is the fill byte (the contract with --skip-rx-copy's check), and
 * answers with its FIN, which ends sender_run's wait.
 *
 * - send, zerocopy and sendfile each move exactly -n buffers, all of the
 *   fill byte, and wait for the receiver's FIN;
 * - -Z's ring is params_zc_ring_count()'s, and every completion is
 *   collected by the end (or the path fell back to send with a note);
 * - an aborted test sends nothing and does not wait;
 * - a receive path is not a sender's.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <sys/socket.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>
#include <unistd.h>

#include "base/params.h"
#include "host/sock.h"
#include "data/sender.h"
#include "data/stream.h"

#define SILENT_MS	2000
#define LEN		(128 * 1024)
#define NBUF		4

/* A connected pair on 127.0.0.1: fds[0] writes, fds[1] reads. */
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

struct reader {
	int		 fd;
	uint64_t	 bytes;
	uint64_t	 other;		/* bytes that are not the fill byte */
};

/* To the end of the stream, then the FIN the sender waits for. */
static void *
reader_run(void *arg)
{
	struct reader *r = arg;
	static char buf[LEN];	/* one reader at a time */
	ssize_t n, i;

	while ((n = recv(r->fd, buf, sizeof(buf), 0)) > 0) {
		r->bytes += (uint64_t)n;
		for (i = 0; i < n; i++)
			if (buf[i] != STREAM_FILL_BYTE)
				r->other++;
	}
	shutdown(r->fd, SHUT_WR);
	return NULL;
}

/* Send NBUF buffers by path; io is left open for the caller to read. */
static void
run(int path, int stop, struct stream_io *io, struct reader *r)
{
	atomic_int flag = stop;
	char err[256];
	pthread_t tid;
	int fds[2];

	tcp_pair(fds);
	assert_int_equal(sock_set_timeouts(fds[0], SILENT_MS), 0);
	memset(io, 0, sizeof(*io));
	memset(r, 0, sizeof(*r));
	r->fd = fds[1];
	assert_int_equal(sender_open(io, fds[0], path, LEN, SILENT_MS, err,
	    sizeof(err)), 0);
	assert_int_equal(pthread_create(&tid, NULL, reader_run, r), 0);
	assert_int_equal(sender_run(io, &flag, NBUF), 0);
	if (stop == STREAM_STOP_ABORT)
		shutdown(fds[0], SHUT_RDWR);	/* as xfer_abort does */
	assert_int_equal(pthread_join(tid, NULL), 0);
	close(fds[0]);
	close(fds[1]);
	io->fd = -1;
}

static void
sends_nbuf(int path)
{
	struct stream_io io;
	struct reader r;

	run(path, STREAM_RUNNING, &io, &r);
	assert_int_equal(atomic_load(&io.bytes), (uint64_t)NBUF * LEN);
	assert_int_equal(r.bytes, (uint64_t)NBUF * LEN);
	assert_int_equal(r.other, 0);
	assert_int_equal(io.over, STREAM_UNDER_CAPS);
	stream_io_close(&io);
}

static void
test_send(void **state)
{
	(void)state;
	sends_nbuf(GB_PATH_SEND);
}

static void
test_sendfile(void **state)
{
	(void)state;
	sends_nbuf(GB_PATH_SENDFILE);
}

static void
test_zerocopy(void **state)
{
	struct stream_io io;
	struct reader r;

	(void)state;
	run(GB_PATH_ZEROCOPY, STREAM_RUNNING, &io, &r);
	assert_int_equal(r.bytes, (uint64_t)NBUF * LEN);
	assert_int_equal(r.other, 0);
	if (io.path == GB_PATH_ZEROCOPY) {
		assert_int_equal(io.tx.nring, params_zc_ring_count(LEN));
		assert_int_equal(io.buflen, io.tx.nring * (size_t)LEN);
		assert_int_equal(io.tx.zc_sends, io.calls);
		assert_int_equal(io.tx.zc_completions, io.tx.zc_sends);
	} else {			/* a kernel without SO_ZEROCOPY */
		assert_int_equal(io.path, GB_PATH_SEND);
		assert_true(io.note[0] != '\0');
	}
	stream_io_close(&io);
}

static void
test_aborted_sends_nothing(void **state)
{
	struct stream_io io;
	struct reader r;

	(void)state;
	run(GB_PATH_SEND, STREAM_STOP_ABORT, &io, &r);
	assert_int_equal(atomic_load(&io.bytes), 0);
	assert_int_equal(r.bytes, 0);
	stream_io_close(&io);
}

static void
test_receive_path_refused(void **state)
{
	struct stream_io io;
	char err[256];

	(void)state;
	memset(&io, 0, sizeof(io));
	assert_int_equal(sender_open(&io, -1, GB_PATH_RECV, LEN, SILENT_MS,
	    err, sizeof(err)), -1);
	assert_string_equal(err, "recv is no path of a sender");
	stream_io_close(&io);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_send),
		cmocka_unit_test(test_sendfile),
		cmocka_unit_test(test_zerocopy),
		cmocka_unit_test(test_aborted_sends_nothing),
		cmocka_unit_test(test_receive_path_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
