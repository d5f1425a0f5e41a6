/*
 * test_pending.c: a listener's pending connections (pending.c) against
 * its descriptor limit.  The caps come from RLIMIT_NOFILE once the
 * listener's own files and a --max-streams test are set aside, within
 * --max-pending and --max-pending-source, and never below one; the start
 * line says so with -v.  Out of descriptors (EMFILE) with connections
 * pending, the oldest of the source that holds the most is closed so that
 * the newest gets in; with none pending, accepting pauses.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <sys/resource.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <event2/event.h>

#include "base/bounds.h"
#include "wire/pending.h"

#define NCLIENT	8

struct logbuf {
	char	text[8192];
	size_t	len;
};

static void
on_log(const char *head, const char *text, void *arg)
{
	struct logbuf *lb = arg;
	int n;

	n = snprintf(lb->text + lb->len, sizeof(lb->text) - lb->len,
	    "%s%s%s\n", head != NULL ? head : "", head != NULL ? ": " : "",
	    text);
	if (n > 0 && lb->len + (size_t)n < sizeof(lb->text))
		lb->len += (size_t)n;
}

static void
on_msg(struct pconn *pc, const struct proto_msg *m, void *arg)
{
	(void)m;
	(void)arg;
	pending_drop(pc);
}

/* The test's descriptor limit, put back whatever the test did. */
static int
limit_save(void **state)
{
	static struct rlimit saved;

	if (getrlimit(RLIMIT_NOFILE, &saved) == -1)
		return -1;
	*state = &saved;
	return 0;
}

static int
limit_restore(void **state)
{
	return setrlimit(RLIMIT_NOFILE, *state);
}

static void
test_caps_default_limits(void **state)
{
	struct gb_bounds b;
	struct pending_caps c;

	(void)state;
	bounds_init(&b);
	/*
	 * The default --max-flows 1024 (4,096 descriptors for a test) does
	 * not fit a limit of 1,024: the floor of pending connections is
	 * kept; the listener raises its soft limit before it gets here.
	 */
	pending_caps(&b, 1024, &c);
	assert_int_equal(c.total, 16);
	assert_true(c.reserved < c.needed);
	b.max_streams = 32;
	/* A usual limit: the options decide, as before. */
	pending_caps(&b, 1024, &c);
	assert_int_equal(c.total, 256);
	assert_int_equal(c.per_source, 16);
	assert_true(c.reserved >= c.needed);
	pending_caps(&b, UINT64_MAX, &c);
	assert_int_equal(c.total, 256);
	assert_int_equal(c.per_source, 16);
	/* Just over what 256 pending and a 32-stream test need. */
	pending_caps(&b, c.needed + 256, &c);
	assert_int_equal(c.total, 256);
	pending_caps(&b, c.needed + 100, &c);
	assert_int_equal(c.total, 100);
	assert_int_equal(c.reserved, c.needed);
}

static void
test_caps_low_limits(void **state)
{
	struct gb_bounds b;
	struct pending_caps c;

	(void)state;
	bounds_init(&b);
	b.max_streams = 32;
	/* ulimit -n 64: no room for a whole 32-stream test, a floor kept. */
	pending_caps(&b, 64, &c);
	assert_int_equal(c.total, 16);
	assert_int_equal(c.per_source, 16);
	assert_int_equal(c.reserved, 48);
	assert_true(c.reserved < c.needed);
	/* ulimit -n 40: half of what the listener's own files leave. */
	pending_caps(&b, 40, &c);
	assert_true(c.total >= 1 && c.total < 16);
	assert_int_equal(c.per_source, c.total);
	assert_int_equal(c.reserved + c.total, 40);
	/* Absurdly low: still one. */
	pending_caps(&b, 3, &c);
	assert_int_equal(c.total, 1);
	assert_int_equal(c.per_source, 1);
	/* A one-stream listener under 64 leaves more for pending ones. */
	b.max_streams = 1;
	pending_caps(&b, 64, &c);
	assert_true(c.total > 16);
	assert_int_equal(c.per_source, 16);
	assert_int_equal(c.reserved, c.needed);
	/* The options still cap what the limit would allow. */
	b.max_pending = 8;
	b.max_pending_source = 100;
	pending_caps(&b, 64, &c);
	assert_int_equal(c.total, 8);
	assert_int_equal(c.per_source, 8);
}

static int
listener(uint16_t *port)
{
	struct sockaddr_in sin;
	socklen_t len = sizeof(sin);
	int fd;

	memset(&sin, 0, sizeof(sin));
	sin.sin_family = AF_INET;
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	assert_true(fd != -1);
	assert_int_equal(bind(fd, (struct sockaddr *)&sin, sizeof(sin)), 0);
	assert_int_equal(listen(fd, 64), 0);
	assert_int_equal(getsockname(fd, (struct sockaddr *)&sin, &len), 0);
	*port = ntohs(sin.sin_port);
	return fd;
}

static int
client(uint16_t port)
{
	struct sockaddr_in sin;
	int fd;

	memset(&sin, 0, sizeof(sin));
	sin.sin_family = AF_INET;
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	sin.sin_port = htons(port);
	fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	assert_true(fd != -1);
	assert_int_equal(connect(fd, (struct sockaddr *)&sin, sizeof(sin)), 0);
	return fd;
}

/* 1 when the listener closed c (EOF), 0 when it is still open. */
static int
closed_by_peer(int c)
{
	struct pollfd p = { .fd = c, .events = POLLIN };
	char b;

	if (poll(&p, 1, 200) != 1)
		return 0;
	return recv(c, &b, 1, MSG_DONTWAIT) == 0;
}

static void
run_loop(struct event_base *base)
{
	int i;

	for (i = 0; i < 20; i++) {
		event_base_loop(base, EVLOOP_NONBLOCK);
		usleep(5000);
	}
}

/* Fill every free descriptor below the limit but `spare`; how many. */
static int
fill_fds(int *held, int max, int spare)
{
	int n = 0, fd;

	while (n < max && (fd = open("/dev/null", O_RDONLY | O_CLOEXEC)) != -1)
		held[n++] = fd;
	assert_int_equal(errno, EMFILE);
	while (spare-- > 0 && n > 0)
		close(held[--n]);
	return n;
}

static void
test_emfile_evicts_oldest(void **state)
{
	struct rlimit old, rl;
	struct logbuf lb = { .len = 0 };
	struct pending_config cfg = { .msg_cb = on_msg, .log_cb = on_log };
	struct gb_bounds b;
	struct event_base *base;
	struct pending *pd;
	char err[256];
	int lfd, c[NCLIENT], held[256], nheld, i, n, top;
	uint16_t port;

	(void)state;
	bounds_init(&b);
	assert_non_null(base = event_base_new());
	lfd = listener(&port);
	for (i = 0; i < NCLIENT; i++)
		c[i] = client(port);	/* queued in the kernel, not accepted */
	/* A limit with room for the derived caps (16), then fewer fds. */
	assert_int_equal(getrlimit(RLIMIT_NOFILE, &old), 0);
	top = dup(0);
	close(top);
	rl = old;
	rl.rlim_cur = (rlim_t)top + 80;
	assert_int_equal(setrlimit(RLIMIT_NOFILE, &rl), 0);
	cfg.base = base;
	cfg.lfd = lfd;
	cfg.bounds = &b;
	cfg.verbose = 1;
	cfg.log_arg = &lb;
	assert_non_null(pd = pending_new(&cfg, err, sizeof(err)));
	assert_non_null(strstr(lb.text, "listener: at most 16 pending "
	    "connections, 16 per source (RLIMIT_NOFILE"));
	/* Only 3 descriptors left: 8 clients must share them. */
	nheld = fill_fds(held, 256, 3);
	run_loop(base);
	/* The newest got in (libevent may take one of the 3 itself). */
	n = (int)pending_count(pd);
	assert_true(n >= 2 && n <= 3);
	for (i = 0; i < NCLIENT - n; i++)
		assert_true(closed_by_peer(c[i]));
	for (; i < NCLIENT; i++)
		assert_false(closed_by_peer(c[i]));
	assert_non_null(strstr(lb.text, "127.0.0.1: closed: the listener is "
	    "out of file descriptors"));
	assert_null(strstr(lb.text, "not accepting"));
	pending_free(pd);
	while (nheld > 0)
		close(held[--nheld]);
	for (i = 0; i < NCLIENT; i++)
		close(c[i]);
	assert_int_equal(setrlimit(RLIMIT_NOFILE, &old), 0);
	close(lfd);
	event_base_free(base);
}

/* n connections that say "GET / HTTP/1.0", each closed after. */
static void
foreign_clients(struct event_base *base, uint16_t port, int n)
{
	int i, c;

	for (i = 0; i < n; i++) {
		c = client(port);
		assert_int_equal(send(c, "GET / HTTP/1.0\r\n\r\n", 18, 0),
		    18);
		run_loop(base);
		close(c);
	}
}

static unsigned
count_of(const char *text, const char *what)
{
	unsigned n = 0;

	for (; (text = strstr(text, what)) != NULL; text++)
		n++;
	return n;
}

/*
 * Refused and foreign connections: one line a source per note_ms at
 * default verbosity, the next saying how many were not logged; every
 * one with -v; none with -q.
 */
static void
test_note_rate_limited(void **state)
{
	static const char *const what = "127.0.0.1: not gigebench: looks "
	    "like an HTTP client; closed";
	struct pending_config cfg = { .msg_cb = on_msg, .log_cb = on_log };
	struct logbuf lb;
	struct gb_bounds b;
	struct event_base *base;
	struct pending *pd;
	char err[256];
	int lfd, v;
	uint16_t port;

	(void)state;
	bounds_init(&b);
	for (v = -1; v <= 1; v++) {	/* -q, default, -v */
		memset(&lb, 0, sizeof(lb));
		assert_non_null(base = event_base_new());
		lfd = listener(&port);
		cfg.base = base;
		cfg.lfd = lfd;
		cfg.bounds = &b;
		cfg.verbose = v < 0 ? 0 : v;
		cfg.quiet = v < 0;
		cfg.note_ms = 300;
		cfg.log_arg = &lb;
		assert_non_null(pd = pending_new(&cfg, err, sizeof(err)));
		foreign_clients(base, port, 3);
		usleep(350 * 1000);
		foreign_clients(base, port, 1);
		if (v < 0)
			assert_int_equal(count_of(lb.text, what), 0);
		else if (v == 0) {
			assert_int_equal(count_of(lb.text, what), 2);
			assert_non_null(strstr(lb.text, "closed (and 2 more "
			    "from this source not logged)\n"));
		} else {
			assert_int_equal(count_of(lb.text, what), 4);
			assert_null(strstr(lb.text, "not logged"));
		}
		pending_free(pd);
		close(lfd);
		event_base_free(base);
	}
}

static void
test_emfile_nothing_pending(void **state)
{
	struct rlimit old, rl;
	struct logbuf lb = { .len = 0 };
	struct pending_config cfg = { .msg_cb = on_msg, .log_cb = on_log };
	struct gb_bounds b;
	struct event_base *base;
	struct pending *pd;
	char err[256];
	int lfd, c, held[256], nheld, i, top;
	uint16_t port;

	(void)state;
	bounds_init(&b);
	assert_non_null(base = event_base_new());
	lfd = listener(&port);
	c = client(port);
	assert_int_equal(getrlimit(RLIMIT_NOFILE, &old), 0);
	top = dup(0);
	close(top);
	rl = old;
	rl.rlim_cur = (rlim_t)top + 80;
	assert_int_equal(setrlimit(RLIMIT_NOFILE, &rl), 0);
	cfg.base = base;
	cfg.lfd = lfd;
	cfg.bounds = &b;
	cfg.log_arg = &lb;
	assert_non_null(pd = pending_new(&cfg, err, sizeof(err)));
	nheld = fill_fds(held, 256, 0);
	run_loop(base);
	assert_int_equal(pending_count(pd), 0);
	assert_non_null(strstr(lb.text, "accept: Too many open files: not "
	    "accepting"));
	/* Descriptors back (a few: libevent may take one itself). */
	for (i = 0; i < 3 && nheld > 0; i++)
		close(held[--nheld]);
	usleep(250 * 1000);
	run_loop(base);
	assert_int_equal(pending_count(pd), 1);
	assert_non_null(strstr(lb.text, "accepting again"));
	pending_free(pd);
	while (nheld > 0)
		close(held[--nheld]);
	close(c);
	assert_int_equal(setrlimit(RLIMIT_NOFILE, &old), 0);
	close(lfd);
	event_base_free(base);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_caps_default_limits),
		cmocka_unit_test(test_caps_low_limits),
		cmocka_unit_test(test_note_rate_limited),
		cmocka_unit_test_setup_teardown(test_emfile_evicts_oldest,
		    limit_save, limit_restore),
		cmocka_unit_test_setup_teardown(test_emfile_nothing_pending,
		    limit_save, limit_restore),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
