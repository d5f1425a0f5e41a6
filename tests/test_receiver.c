/*
 * test_receiver.c: the receive loops of receiver.c against a peer
 * that falls silent, over a real TCP connection on 127.0.0.1 (loopback
 * only).  With SO_RCVLOWAT a read waits for a whole buffer; these check
 * that the silent-peer timeout still holds from the peer's last data:
 *
 * - a read that spans the silence and still returns a whole buffer (the
 *   bytes it took before and the ones queued since add up) does not give
 *   the peer another whole timeout: once it took two;
 * - a peer that sends nothing at all fails after the timeout, not after
 *   one slice of it;
 * - a slow peer (less than a buffer per timeout, but never silent that
 *   long) is not failed, and every byte is counted.
 *
 * Each case takes one or two seconds of real time: the bounds are the
 * timeout and half of it again, far from a scheduler's hiccup.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <sys/socket.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/monotime.h"
#include "base/params.h"
#include "host/sock.h"
#include "data/receiver.h"
#include "data/stream.h"

#define SILENT_MS	1000
#define LEN		(256 * 1024)

static void
sleep_ms(int ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000 };

	while (nanosleep(&ts, &ts) == -1 && errno == EINTR)
		;
}

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

/*
 * The writer's script: warm bytes that the test reads itself (so that
 * TCP opens the window as wide as in a running test), pre bytes queued
 * before the loop starts reading, then chunks of bytes, each after a
 * pause.
 */
struct writer {
	int		 fd;
	size_t		 warm;
	size_t		 pre;
	atomic_int	 go;		/* warm read, pre queued */
	int		 nchunks;
	size_t		 chunk[16];
	int		 pause_ms[16];
	int		 close_after;	/* shut the connection at the end */
	_Atomic int64_t	 last_ms;	/* when the last chunk was written */
	uint64_t	 written;
};

static void *
writer_run(void *arg)
{
	struct writer *w = arg;
	static char buf[LEN];	/* one writer at a time */
	size_t left;
	ssize_t n;
	int i;

	for (left = w->warm; left > 0; left -= (size_t)n)
		if ((n = send(w->fd, buf, left < LEN ? left : LEN, 0)) <= 0)
			return NULL;
	while (!atomic_load(&w->go))
		sleep_ms(1);
	for (i = 0; i < w->nchunks; i++) {
		sleep_ms(w->pause_ms[i]);
		for (left = w->chunk[i]; left > 0; left -= (size_t)n) {
			n = send(w->fd, buf, left, 0);
			if (n <= 0)
				return NULL;
			w->written += (uint64_t)n;
		}
		atomic_store(&w->last_ms, monotime_ms());
	}
	if (w->close_after)
		shutdown(w->fd, SHUT_WR);
	return NULL;
}

/*
 * Receive on fds[1] with the path until receiver_run returns, while a
 * thread plays w on fds[0].  Returns the loop's return value; *errnum,
 * *ms_after_last (from the writer's last chunk to the return) and
 * *bytes are what it did.
 */
static int
run(int path, struct writer *w, int *errnum, int64_t *ms_after_last,
    uint64_t *bytes)
{
	struct stream_io io;
	char err[256];
	static char buf[LEN];
	pthread_t tid;
	int fds[2], rc;
	ssize_t n;
	size_t left;

	tcp_pair(fds);
	w->fd = fds[0];
	assert_int_equal(sock_set_timeouts(fds[1], SILENT_MS), 0);
	assert_int_equal(pthread_create(&tid, NULL, writer_run, w), 0);
	for (left = w->warm; left > 0; left -= (size_t)n)
		assert_true((n = recv(fds[1], buf, left < LEN ? left : LEN,
		    0)) > 0);
	memset(&io, 0, sizeof(io));
	assert_int_equal(receiver_open(&io, fds[1], path, LEN, SILENT_MS,
	    err, sizeof(err)), 0);
	assert_int_equal(io.rx.lowat, LEN);
	assert_int_equal(io.rx.slice_ms, SILENT_MS / 2);
	if (w->pre > 0) {
		assert_int_equal(send(fds[0], buf, w->pre, 0), (ssize_t)w->pre);
		sleep_ms(50);	/* queued before the first read */
	}
	atomic_store(&w->last_ms, monotime_ms());
	atomic_store(&w->go, 1);
	rc = receiver_run(&io);
	*errnum = errno;
	*ms_after_last = monotime_ms() - atomic_load(&w->last_ms);
	*bytes = atomic_load(&io.bytes);
	assert_int_equal(pthread_join(tid, NULL), 0);
	stream_io_close(&io);
	close(fds[0]);
	close(fds[1]);
	return rc;
}

/*
 * 32K queued before the first read, which takes them at once and waits
 * for more; then 240K that stay queued (under the 256K mark, so TCP does
 * not wake it), then silence: at the end of its wait the read takes 224K
 * of them and returns a whole buffer; 16K are left for the next read.
 */
static void
silent_after_whole_read(int path)
{
	struct writer w = { .warm = 64 << 20, .pre = 32 * 1024,
	    .nchunks = 1, .chunk = { 240 * 1024 }, .pause_ms = { 100 } };
	int64_t after;
	uint64_t bytes;
	int e;

	assert_int_equal(run(path, &w, &e, &after, &bytes), -1);
	assert_int_equal(e, EAGAIN);
	assert_int_equal(bytes, w.pre + w.written);
	assert_true(after >= SILENT_MS - 100);
	assert_true(after <= SILENT_MS + SILENT_MS / 2);
}

static void
test_recv_silent_after_whole_read(void **state)
{
	(void)state;
	silent_after_whole_read(GB_PATH_RECV);
}

static void
test_skip_rx_copy_silent_after_whole_read(void **state)
{
	(void)state;
	silent_after_whole_read(GB_PATH_SKIP_RX_COPY);
}

static void
test_silent_from_the_start(void **state)
{
	struct writer w = { .nchunks = 0 };
	int64_t after;
	uint64_t bytes;
	int e;

	(void)state;
	assert_int_equal(run(GB_PATH_RECV, &w, &e, &after, &bytes), -1);
	assert_int_equal(e, EAGAIN);
	assert_int_equal(bytes, 0);
	/* not after one slice (500 ms): after the whole timeout */
	assert_true(after >= SILENT_MS - 100);
	assert_true(after <= SILENT_MS + SILENT_MS / 2);
}

/* 8K every 400 ms for 2.4 s, then end of file: slow, never silent. */
static void
test_slow_peer_is_not_silent(void **state)
{
	struct writer w = { .nchunks = 6, .close_after = 1 };
	int64_t after;
	uint64_t bytes;
	int e, i;

	(void)state;
	for (i = 0; i < w.nchunks; i++) {
		w.chunk[i] = 8192;
		w.pause_ms[i] = 400;
	}
	assert_int_equal(run(GB_PATH_SKIP_RX_COPY, &w, &e, &after, &bytes), 0);
	assert_int_equal(bytes, 6 * 8192);
	assert_true(after < SILENT_MS / 2);	/* the FIN wakes it */
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_recv_silent_after_whole_read),
		cmocka_unit_test(test_skip_rx_copy_silent_after_whole_read),
		cmocka_unit_test(test_silent_from_the_start),
		cmocka_unit_test(test_slow_peer_is_not_silent),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
