/*
 * test_sock.c: the dead-peer options of sock.c, read back from a TCP
 * socket that is never connected (no network): a data connection's
 * SO_RCVTIMEO, SO_SNDTIMEO and TCP_USER_TIMEOUT; a control connection's
 * keepalive sized to the silent-peer timeout.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <sys/socket.h>
#include <sys/time.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <unistd.h>

#include "host/sock.h"

static int
get_int(int fd, int level, int name)
{
	socklen_t len = sizeof(int);
	int v = -1;

	assert_int_equal(getsockopt(fd, level, name, &v, &len), 0);
	return v;
}

static void
test_timeouts(void **state)
{
	struct timeval tv;
	socklen_t len = sizeof(tv);
	int fd;

	(void)state;
	assert_true((fd = socket(AF_INET, SOCK_STREAM, 0)) >= 0);
	assert_int_equal(sock_set_timeouts(fd, 2500), 0);
	assert_int_equal(getsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, &len),
	    0);
	assert_int_equal(tv.tv_sec, 2);
	assert_int_equal(tv.tv_usec, 500000);
	len = sizeof(tv);
	assert_int_equal(getsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, &len),
	    0);
	assert_int_equal(tv.tv_sec, 2);
	assert_int_equal(get_int(fd, IPPROTO_TCP, TCP_USER_TIMEOUT), 2500);
	close(fd);
}

static void
test_keepalive(void **state)
{
	int fd;

	(void)state;
	assert_true((fd = socket(AF_INET6, SOCK_STREAM, 0)) >= 0 ||
	    (fd = socket(AF_INET, SOCK_STREAM, 0)) >= 0);
	assert_int_equal(sock_set_keepalive(fd, 60000), 0);
	assert_int_equal(get_int(fd, SOL_SOCKET, SO_KEEPALIVE), 1);
	/* Half the timeout idle, then 3 probes over the other half. */
	assert_int_equal(get_int(fd, IPPROTO_TCP, TCP_KEEPIDLE), 30);
	assert_int_equal(get_int(fd, IPPROTO_TCP, TCP_KEEPINTVL), 10);
	assert_int_equal(get_int(fd, IPPROTO_TCP, TCP_KEEPCNT), 3);
	assert_int_equal(get_int(fd, IPPROTO_TCP, TCP_USER_TIMEOUT), 60000);
	/* Short timeouts: the kernel's smallest, one second. */
	assert_int_equal(sock_set_keepalive(fd, 1000), 0);
	assert_int_equal(get_int(fd, IPPROTO_TCP, TCP_KEEPIDLE), 1);
	assert_int_equal(get_int(fd, IPPROTO_TCP, TCP_KEEPINTVL), 1);
	assert_int_equal(get_int(fd, IPPROTO_TCP, TCP_USER_TIMEOUT), 1000);
	close(fd);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_timeouts),
		cmocka_unit_test(test_keepalive),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
