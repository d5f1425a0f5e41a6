/*
 * fuzz_session.c: libFuzzer target for the listener's state machine
 * (src/server.c, server_session.c and server_accept.c, with ctl.c,
 * proto.c, xfer.c and sock.c under them), fed byte streams on real TCP
 * connections.
 *
 * The real listener runs once, in-process: server_run() in a thread, bound
 * to 127.0.0.1 on a free port, as "gigebench -r -4 -B 127.0.0.1 -p PORT"
 * (no --allow-mtu: a fuzzer must not change this host's MTU).  Each input
 * is a small script of what up to 8 peers do to it:
 *
 *	op byte: (op >> 4) is the action, (op & 7) the connection slot
 *	0x0_  WRITE  u16 length (big endian), then that many bytes.  Every
 *	             32 'T' in them become the current session's token.
 *	0x1_  DATA   u8 stream: a data message with the token
 *	0x2_  SEAL   u16 length, then that many bytes: a whole message
 *	             (header and body), sealed with the slot's session key
 *	             (auth.h) once the slot has one; written as it is before
 *	             that.  The 'T' placeholder works as in WRITE.
 *	0x8_  SHUT   half-close the slot (shutdown SHUT_WR)
 *	0x9_  CLOSE  close it (a reset when the listener left bytes unread)
 *	0xa_  FILL   u8 n: n * 4 KiB of payload
 *	0xb_  WAIT   wait until the listener has handled what is pending
 *	0xc_  READ   wait for the next message on the slot (as a client
 *	             waits for the result before it closes)
 *	0xd_  STREAMS u8 n: n more connections, each a data message for
 *	             streams 0 .. n-1 (at most 128), then a half-close
 *	any other byte is skipped: printable text left over by a mutation
 *	(0x20-0x7f) does nothing rather than open and wait on connections.
 *
 * Waiting (READ, and a write the listener does not take) has a budget of
 * WAIT_MS per input, so that no input costs more than about a second
 * unless the listener itself is slow to close.
 *
 * A slot connects on first use.  WAIT (and DATA or a token before the
 * token is known) opens a fresh connection that speaks protocol version
 * 2; the listener refuses it and closes, and by then it has handled every
 * byte that was ready before (one libevent loop, events in order), so the
 * replies to earlier writes have been read.  That keeps runs
 * reproducible where several connections interleave.
 *
 * After the script (and a WAIT) every slot is half-closed and read until
 * the listener closes it.  Oracles beyond the sanitizers (any thread):
 *   - every connection is closed by the listener within DRAIN_MS of the
 *     peer's half-close (no "busy forever", no hung handshake);
 *   - a valid hello on a new connection then gets an accept, not a busy
 *     refusal, within LIVE_MS (the listener is idle again);
 *   - everything the listener sends on a control connection decodes with
 *     our own client's decoder (a result goes through the renderers);
 *   - server_run() never returns.
 * A finding prints what broke and aborts, so libFuzzer saves the input.
 * A last WAIT lets the listener free the idle check's session before the
 * next input starts.
 *
 * Keyed mode (fuzz_session_psk: this file built with FUZZ_SESSION_PSK=1):
 * the listener has --psk with a key the harness knows too.  The first
 * message written on a slot is remembered as the slot's hello (the bytes
 * as the listener read them: header and body); when the listener answers
 * it with a challenge, the slot derives the session key as a client does,
 * SEAL seals with it and every message the listener sends after that must
 * open with it.  Each input comes from a source address of its own
 * (127.1.x.y, cycling through 1000), since a keyed listener refuses a
 * source after AUTHLIMIT_FAILS failed handshakes: inputs that fail five
 * times still reach that refusal, and the next input is not refused for
 * it.  The idle check proves the key on its hello (a success), retrying
 * while the listener's global bound of failures refuses every source.
 *
 * The listener's log lines go to /dev/null (FUZZ_SESSION_LOG=1 shows
 * them; 2 adds -vv and the messages the harness receives): the stdio
 * stderr is swapped, while sanitizer and libFuzzer reports still go to
 * file descriptor 2.  The globals below are the one listener the whole
 * fuzzing process shares.
 */
#include <sys/socket.h>
#include <netinet/in.h>
#include <arpa/inet.h>

#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <event2/thread.h>
#include <sanitizer/allocator_interface.h>
#include <sanitizer/common_interface_defs.h>

#include "fuzz_util.h"
#include "base/monotime.h"
#include "wire/auth.h"
#include "cli/opts.h"
#include "cli/rolecfg.h"
#include "codec/proto.h"
#include "run/server.h"
#include "wire/ctl.h"

#ifndef FUZZ_SESSION_PSK
#define FUZZ_SESSION_PSK	0	/* 1: fuzz_session_psk, a keyed listener */
#endif

#define NSLOTS		8	/* the script's connections */
#define NALL		(NSLOTS + (int)GB_MAX_STREAMS)	/* and STREAMS' */
#define WRITE_MS	100	/* a listener need not read everything */
#define WAIT_MS		400	/* READ and stuck writes, per input */
#define SYNC_MS		3000
#define DRAIN_MS	3000
#define LIVE_MS		3000
#define READ_MS		400
#define FILL_CHUNK	4096
#define FILL_MAX	(4u << 20)	/* payload bytes per input */
#define PLACEHOLDER	"TTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTT"
#define PSK_KEY		"fuzz_session_psk: the harness's key"
#define NSOURCES	1000	/* keyed mode: 127.1.x.y, one per input */

int	LLVMFuzzerInitialize(int *, char ***);
int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

enum action {
	ACT_WRITE = 0x0, ACT_DATA = 0x1, ACT_SEAL = 0x2, ACT_SHUT = 0x8, ACT_CLOSE = 0x9,
	ACT_FILL = 0xa, ACT_WAIT = 0xb, ACT_READ = 0xc, ACT_STREAMS = 0xd
};

struct listener {
	pthread_t		 tid;
	char			 port[8];
	char			*argv[12];
	struct gb_opts		 opts;
	struct hoststat_roots	 roots;
	struct server_config	 cfg;
	struct rolecfg_out	 out;		/* no interval lines */
	struct auth_key		 psk;		/* keyed mode */
	unsigned		 nsrc;		/* sources used */
	char			 err[GB_ERR_LEN];
	atomic_int		 stopped;
	int			 rc;		/* server_run()'s */
	FILE			*log;		/* the real stderr */
	int			 verbose;	/* FUZZ_SESSION_LOG=2 */
	size_t			 malloc_limit_mb;	/* -malloc_limit_mb */
};

static struct listener	L;

struct slot {
	int			 fd;		/* -1: not connected */
	int			 shut;		/* we half-closed it */
	int			 eof;		/* the listener closed it */
	int			 stuck;		/* it stopped reading */
	int			 data;		/* carried a data message */
	int			 wrote;		/* bytes were written on it */
	unsigned		 nmsgs;		/* messages received */
	struct proto_reader	 rd;
	/* Keyed mode: the first message written, and the session. */
	struct proto_reader	 sent;
	int			 sent_done;
	uint8_t			*hello;
	size_t			 hello_len;
	uint8_t			 nc[AUTH_NONCE_LEN];
	int			 keyed;
	struct auth_session	 auth;
};

struct script {
	struct slot	 s[NALL];
	char		 token[PROTO_TOKEN_LEN + 1];
	size_t		 filled;
	int64_t		 wait_left_ms;	/* of WAIT_MS */
	uint32_t	 src;		/* the input's source, host order */
};

/* A deadline up to ms away, within what is left of the wait budget. */
static int64_t
budget_start(const struct script *sc, int ms)
{
	return monotime_ms() + (ms < sc->wait_left_ms ? ms : sc->wait_left_ms);
}

static void
budget_spend(struct script *sc, int64_t started)
{
	sc->wait_left_ms -= monotime_ms() - started;
	if (sc->wait_left_ms < 0)
		sc->wait_left_ms = 0;
}

static void __attribute__((noreturn))
fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static void
fail(const char *fmt, ...)
{
	va_list ap;

	fprintf(L.log, "fuzz_session: ");
	va_start(ap, fmt);
	vfprintf(L.log, fmt, ap);
	va_end(ap);
	fprintf(L.log, "\n");
	fflush(L.log);
	abort();
}

static void
report_cb(const struct gb_result *r, void *arg)
{
	(void)arg;
	fuzz_render_result(r);
}

static void *
listener_main(void *arg)
{
	(void)arg;
	L.rc = server_run(&L.cfg, L.err, sizeof(L.err));
	atomic_store(&L.stopped, 1);
	return NULL;
}

/* A connection to the listener from src (host order, on loopback). */
static int
connect_local(uint32_t src)
{
	struct sockaddr_in sin;
	struct pollfd pfd;
	socklen_t len;
	int fd, rc, soerr, saved;

	memset(&sin, 0, sizeof(sin));
	sin.sin_family = AF_INET;
	if ((fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0)) == -1)
		fail("socket: %s", strerror(errno));
	sin.sin_addr.s_addr = htonl(src);
	if (src != INADDR_LOOPBACK &&
	    bind(fd, (struct sockaddr *)&sin, sizeof(sin)) == -1)
		fail("cannot bind to a source on loopback: %s",
		    strerror(errno));
	sin.sin_port = htons((uint16_t)atoi(L.port));
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (connect(fd, (struct sockaddr *)&sin, sizeof(sin)) == 0)
		return fd;
	/*
	 * libFuzzer's -timeout is a SIGALRM every second; a connect() it
	 * interrupts goes on in the background: wait for it.
	 */
	if (errno == EINTR) {
		pfd.fd = fd;
		pfd.events = POLLOUT;
		while ((rc = poll(&pfd, 1, 3000)) == -1 && errno == EINTR)
			continue;
		len = sizeof(soerr);
		if (rc == 1 && getsockopt(fd, SOL_SOCKET, SO_ERROR, &soerr,
		    &len) == 0 && soerr == 0)
			return fd;
		errno = rc == 1 ? soerr : ETIMEDOUT;
	}
	saved = errno;
	close(fd);
	errno = saved;
	return -1;
}

/* A port the kernel just had free; the listener binds it next. */
static void
pick_port(void)
{
	struct sockaddr_in sin;
	socklen_t len = sizeof(sin);
	int fd;

	memset(&sin, 0, sizeof(sin));
	sin.sin_family = AF_INET;
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if ((fd = socket(AF_INET, SOCK_STREAM, 0)) == -1 ||
	    bind(fd, (struct sockaddr *)&sin, sizeof(sin)) == -1 ||
	    getsockname(fd, (struct sockaddr *)&sin, &len) == -1)
		fail("cannot find a free port: %s", strerror(errno));
	close(fd);
	snprintf(L.port, sizeof(L.port), "%u", ntohs(sin.sin_port));
}

static int
listener_start(void)
{
	static const char *const args[] = {
		"gigebench", "-r", "--allow-reverse", "-4", "-B", "127.0.0.1",
		"-p", NULL,
	};
	char err[GB_ERR_LEN];
	int64_t deadline;
	int argc, fd;

	pick_port();
	for (argc = 0; args[argc] != NULL; argc++)
		L.argv[argc] = (char *)args[argc];
	L.argv[argc++] = L.port;
	/* FUZZ_SESSION_LOG=2: the listener's protocol trace too. */
	if (L.verbose)
		L.argv[argc++] = (char *)"-vv";
	L.argv[argc] = NULL;
	if (opts_parse(argc, L.argv, &L.opts, err, sizeof(err)) != OPTS_OK)
		fail("the listener's options do not parse: %s", err);
	L.roots.procfs = "/proc";
	L.roots.sysfs = "/sys";
	L.out.intervals = NULL;
	L.psk.len = strlen(PSK_KEY);
	memcpy(L.psk.bytes, PSK_KEY, L.psk.len);
	rolecfg_server(&L.cfg, &L.opts, &L.roots, FUZZ_SESSION_PSK ? &L.psk :
	    NULL, &L.out);
	L.cfg.report_cb = report_cb;
	atomic_store(&L.stopped, 0);
	if (pthread_create(&L.tid, NULL, listener_main, NULL) != 0)
		fail("cannot start the listener thread");
	for (deadline = monotime_ms() + 5000; monotime_ms() < deadline; ) {
		if ((fd = connect_local(INADDR_LOOPBACK)) != -1) {
			close(fd);
			return 0;
		}
		if (atomic_load(&L.stopped)) {
			pthread_join(L.tid, NULL);
			return -1;
		}
		usleep(1000);
	}
	fail("the listener did not start listening within 5 s");
}

/*
 * libFuzzer enforces -malloc_limit_mb from its malloc hook, and installs
 * that hook only when it also looks for leaks; this target runs with
 * -detect_leaks=0 (see fuzz.mk), so it installs its own.  It writes with
 * write(2): a hook must not allocate.
 */
static void
on_malloc(const volatile void *p, size_t size)
{
	char msg[160];
	ssize_t w;
	int n;

	(void)p;
	if (L.malloc_limit_mb == 0 || (size >> 20) < L.malloc_limit_mb)
		return;
	n = snprintf(msg, sizeof(msg), "==%d== ERROR: fuzz_session: "
	    "malloc(%zu), -malloc_limit_mb is %zu\n", (int)getpid(), size,
	    L.malloc_limit_mb);
	w = write(2, msg, n > 0 ? (size_t)n : 0);
	(void)w;
	__sanitizer_print_stack_trace();
	abort();
}

static void
on_free(const volatile void *p)
{
	(void)p;
}

/* The limit given to libFuzzer, or 0. */
static size_t
malloc_limit_arg(int argc, char **argv)
{
	size_t mb = 0;
	int i;

	for (i = 1; i < argc; i++)
		if (strncmp(argv[i], "-malloc_limit_mb=", 17) == 0)
			mb = strtoul(argv[i] + 17, NULL, 10);
	return mb;
}

/*
 * SIGINT and SIGTERM are blocked in every thread and taken here, so that
 * the listener's own handlers (libevent's, which end server_run()) never
 * run: a listener that stops is then always a finding, and ^C or a kill
 * ends the fuzzer without a crash file.
 */
static void *
on_signals(void *arg)
{
	sigset_t *set = arg;
	int sig;

	if (sigwait(set, &sig) == 0)
		fprintf(L.log, "fuzz_session: %s, ending\n", strsignal(sig));
	_exit(130);
}

static void
signals_start(void)
{
	static sigset_t set;
	pthread_t tid;

	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	if (pthread_sigmask(SIG_BLOCK, &set, NULL) != 0 ||
	    pthread_create(&tid, NULL, on_signals, &set) != 0)
		fail("cannot set up the signal thread");
	pthread_detach(tid);
}

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *log = getenv("FUZZ_SESSION_LOG");
	int tries;

	L.malloc_limit_mb = malloc_limit_arg(*argc, *argv);
	if (L.malloc_limit_mb != 0 &&
	    __sanitizer_install_malloc_and_free_hooks(on_malloc, on_free) == 0)
		fail("cannot install the malloc hook for -malloc_limit_mb");
	L.log = stderr;
	if (log == NULL || *log == '\0' || *log == '0')
		stderr = fuzz_devnull();
	else
		L.verbose = atoi(log) >= 2;
	signal(SIGPIPE, SIG_IGN);
	signals_start();	/* before any other thread starts */
	if (evthread_use_pthreads() == -1)
		fail("cannot enable libevent threads");
	/* Another process may take the port between the pick and the bind. */
	for (tries = 0; tries < 10; tries++)
		if (listener_start() == 0)
			return 0;
	fail("the listener does not start: %s", L.err);
}

/* server_run() never returns here: SIGINT and SIGTERM go to on_signals. */
static void
check_listener(void)
{
	if (atomic_load(&L.stopped))
		fail("server_run() returned %d: %s", L.rc, L.err[0] != '\0' ?
		    L.err : "its event loop ended");
}

/* ---- the peers' side ---- */

/*
 * Keyed mode: the first message written on a control slot, pushed through
 * a reader as the listener reads it; a hello with a nonce is kept (header
 * and body) for the session key.
 */
static void
track_sent(struct slot *sl, const uint8_t *p, size_t len)
{
	struct proto_msg *m;
	char err[GB_ERR_LEN];
	long k;

	while (FUZZ_SESSION_PSK && len > 0 && !sl->sent_done) {
		if ((k = proto_reader_push(&sl->sent, p, len)) <= 0) {
			sl->sent_done = 1;
			return;
		}
		p += k;
		len -= (size_t)k;
		if (!proto_reader_done(&sl->sent))
			continue;
		sl->sent_done = 1;
		if ((m = malloc(sizeof(*m))) == NULL)
			abort();
		if (proto_reader_decode(&sl->sent, m, err, sizeof(err)) ==
		    PROTO_OK && m->type == PROTO_HELLO && m->nonce[0] != '\0' &&
		    auth_unhex(m->nonce, sl->nc, sizeof(sl->nc)) == 0) {
			sl->hello_len = PROTO_HEADER_LEN + sl->sent.h.length;
			if ((sl->hello = malloc(sl->hello_len)) == NULL)
				abort();
			memcpy(sl->hello, sl->sent.hdr, PROTO_HEADER_LEN);
			memcpy(sl->hello + PROTO_HEADER_LEN, sl->sent.body,
			    sl->sent.h.length);
		}
		free(m);
	}
}

/* A challenge: the session key, as a client derives it. */
static void
on_challenge(struct slot *sl, const struct proto_msg *m)
{
	uint8_t ns[AUTH_NONCE_LEN];

	if (!FUZZ_SESSION_PSK)
		fail("a listener without --psk sent a challenge");
	if (sl->hello == NULL)
		fail("the listener sent a challenge on a connection whose "
		    "first message was no hello with a nonce");
	if (sl->keyed)
		fail("the listener sent a second challenge");
	if (auth_unhex(m->nonce, ns, sizeof(ns)) == -1)
		fail("the listener's challenge nonce is not hex: %s",
		    m->nonce);
	auth_session_init(&sl->auth, &L.psk, sl->nc, ns, sl->hello,
	    sl->hello_len, 1);
	sl->keyed = 1;
}

/* What a slot holds besides its socket. */
static void
slot_free(struct slot *sl)
{
	proto_reader_reset(&sl->rd);
	proto_reader_reset(&sl->sent);
	free(sl->hello);
	sl->hello = NULL;
	auth_session_wipe(&sl->auth);
}

static void
on_message(struct slot *sl, struct script *sc)
{
	struct proto_msg *m;
	char err[GB_ERR_LEN];

	if ((m = malloc(sizeof(*m))) == NULL)
		abort();
	if (ctl_decode(&sl->rd, sl->keyed ? &sl->auth : NULL, m, err,
	    sizeof(err)) != PROTO_OK)
		fail("the listener sent a message a client cannot %s: %s",
		    sl->keyed ? "open and decode" : "decode", err);
	sl->nmsgs++;
	if (L.verbose)
		fprintf(L.log, "fuzz_session: got %s %s\n",
		    proto_type_str(m->type), m->message);
	if (m->type == PROTO_CHALLENGE)
		on_challenge(sl, m);
	else if (m->type == PROTO_ACCEPT)
		memcpy(sc->token, m->token, sizeof(sc->token));
	else if (m->type == PROTO_RESULT)
		fuzz_render(&m->side, &m->side, 1);
	proto_reader_reset(&sl->rd);
	free(m);
}

/* Read what is there; messages on control slots, payload dropped. */
static void
slot_read(struct slot *sl, struct script *sc)
{
	uint8_t buf[16384];
	size_t off;
	ssize_t n;
	long k;

	while (sl->fd != -1 && !sl->eof) {
		n = recv(sl->fd, buf, sizeof(buf), MSG_DONTWAIT);
		if (n == -1 && errno == EINTR)
			continue;
		if (n == -1 && (errno == EAGAIN || errno == EWOULDBLOCK))
			return;
		if (n <= 0) {
			if (n == 0 && !sl->data && sl->rd.got > 0)
				fail("the listener closed a connection in the "
				    "middle of a message (%zu bytes of it)",
				    sl->rd.got);
			sl->eof = 1;
			return;
		}
		for (off = 0; !sl->data && off < (size_t)n; off += (size_t)k) {
			k = proto_reader_push(&sl->rd, buf + off,
			    (size_t)n - off);
			if (k == -1)
				fail("the listener sent bytes that are not a "
				    "message: %s", proto_status_str(
				    sl->rd.status));
			if (proto_reader_done(&sl->rd))
				on_message(sl, sc);
		}
	}
}

/* Poll every open slot once, for up to wait_ms, and read. */
static void
pump(struct script *sc, int wait_ms)
{
	struct pollfd pfd[NALL];
	int idx[NALL], n = 0, i;

	for (i = 0; i < NALL; i++)
		if (sc->s[i].fd != -1 && !sc->s[i].eof) {
			pfd[n].fd = sc->s[i].fd;
			pfd[n].events = POLLIN;
			idx[n++] = i;
		}
	if (n == 0 || poll(pfd, (nfds_t)n, wait_ms) <= 0)
		return;
	for (i = 0; i < n; i++)
		if (pfd[i].revents != 0)
			slot_read(&sc->s[idx[i]], sc);
}

static struct slot *
slot_get(struct script *sc, int i)
{
	struct slot *sl = &sc->s[i];

	if (sl->fd == -1 && !sl->eof) {
		if ((sl->fd = connect_local(sc->src)) == -1) {
			check_listener();
			fail("the listener refuses a connection: %s",
			    strerror(errno));
		}
		proto_reader_init(&sl->rd);
		proto_reader_init(&sl->sent);
	}
	return sl;
}

/* Write all of buf unless the listener stops reading for WRITE_MS. */
static void
slot_write(struct script *sc, struct slot *sl, const void *buf, size_t len)
{
	const uint8_t *p = buf;
	int64_t started = monotime_ms(), deadline = budget_start(sc, WRITE_MS);
	ssize_t n;

	while (len > 0 && sl->fd != -1 && !sl->shut && !sl->stuck) {
		n = send(sl->fd, p, len, MSG_DONTWAIT | MSG_NOSIGNAL);
		if (n > 0) {
			sl->wrote = 1;
			if (!sl->data)
				track_sent(sl, p, (size_t)n);
			p += n;
			len -= (size_t)n;
			continue;
		}
		if (n == -1 && errno == EINTR)
			continue;
		if (n == -1 && (errno == EAGAIN || errno == EWOULDBLOCK) &&
		    monotime_ms() < deadline) {
			pump(sc, 5);
			continue;
		}
		/* Closed by the listener, or it does not read: both fine. */
		sl->stuck = 1;
	}
	budget_spend(sc, started);
}

/*
 * A connection of protocol version 2: the listener refuses it and closes.
 * When that is done, it has handled everything that was ready before.
 */
static void
sync_listener(struct script *sc)
{
	static const uint8_t v2[PROTO_HEADER_LEN] = {
		'G', 'B', 'C', 'P', 2, PROTO_HELLO, 0, 0, 0, 0, 0, 0,
	};
	struct slot sl;
	int64_t deadline = monotime_ms() + SYNC_MS;
	struct pollfd pfd;
	ssize_t n;

	memset(&sl, 0, sizeof(sl));
	if ((sl.fd = connect_local(sc->src)) == -1) {
		check_listener();
		fail("the listener refuses a connection: %s", strerror(errno));
	}
	proto_reader_init(&sl.rd);
	while ((n = send(sl.fd, v2, sizeof(v2), MSG_NOSIGNAL)) == -1 &&
	    errno == EINTR)
		continue;
	if (n != sizeof(v2))
		fail("cannot write to the listener: %s", strerror(errno));
	pfd.fd = sl.fd;
	pfd.events = POLLIN;
	while (!sl.eof) {
		if (monotime_ms() >= deadline)
			fail("the listener did not answer a new connection "
			    "within %d ms", SYNC_MS);
		if (poll(&pfd, 1, 50) > 0)
			slot_read(&sl, sc);
	}
	close(sl.fd);
	proto_reader_reset(&sl.rd);
	pump(sc, 0);
}

/* The session's token; one no session has when there is none. */
static const char *
need_token(struct script *sc)
{
	if (sc->token[0] == '\0')
		sync_listener(sc);
	return sc->token[0] != '\0' ? sc->token :
	    "00000000000000000000000000000000";
}

/* A copy of p with every placeholder made the session's token. */
static uint8_t *
with_token(struct script *sc, struct slot *sl, const uint8_t *p, size_t len)
{
	uint8_t *buf;
	size_t i;

	if ((buf = malloc(len + 1)) == NULL)
		abort();
	memcpy(buf, p, len);
	for (i = 0; i + PROTO_TOKEN_LEN <= len; i++)
		if (memcmp(buf + i, PLACEHOLDER, PROTO_TOKEN_LEN) == 0) {
			memcpy(buf + i, need_token(sc), PROTO_TOKEN_LEN);
			sl->data = 1;
		}
	return buf;
}

static void
op_write(struct script *sc, struct slot *sl, const uint8_t *p, size_t len)
{
	uint8_t *buf = with_token(sc, sl, p, len);

	slot_write(sc, sl, buf, len);
	free(buf);
}

/* A message sealed with the slot's key; as it is while it has none. */
static void
op_seal(struct script *sc, struct slot *sl, const uint8_t *p, size_t len)
{
	uint8_t *buf;

	if (!sl->keyed || len < PROTO_HEADER_LEN) {
		op_write(sc, sl, p, len);
		return;
	}
	buf = with_token(sc, sl, p, len);
	if (auth_seal(&sl->auth, &buf, &len) == -1)
		abort();
	slot_write(sc, sl, buf, len);
	free(buf);
}

static void
op_data(struct script *sc, struct slot *sl, uint8_t stream)
{
	struct proto_msg *m;
	uint8_t *buf;
	size_t len;

	if ((m = calloc(1, sizeof(*m))) == NULL)
		abort();
	m->type = PROTO_DATA;
	memcpy(m->token, need_token(sc), PROTO_TOKEN_LEN);
	m->stream = stream;
	if ((buf = proto_encode(m, &len)) == NULL)
		fail("cannot encode a data message");
	sl->data = 1;
	slot_write(sc, sl, buf, len);
	free(buf);
	free(m);
}

/*
 * A client's data connections, one per stream, from a pool of their own:
 * each says which stream it is and half-closes (no payload; a listener
 * that transmits still sends on it).
 */
static void
op_streams(struct script *sc, unsigned n)
{
	struct slot *sl;
	unsigned i;

	for (i = 0; i < n && i < GB_MAX_STREAMS; i++) {
		sl = &sc->s[NSLOTS + i];
		if (sl->fd != -1 || sl->eof)
			continue;
		op_data(sc, slot_get(sc, NSLOTS + (int)i), (uint8_t)i);
		if (sl->fd != -1 && !sl->shut)
			shutdown(sl->fd, SHUT_WR);
		sl->shut = 1;
	}
}

static void
op_fill(struct script *sc, struct slot *sl, unsigned n)
{
	static const uint8_t payload[FILL_CHUNK] = { 'g' };

	while (n-- > 0 && sc->filled + FILL_CHUNK <= FILL_MAX) {
		slot_write(sc, sl, payload, sizeof(payload));
		sc->filled += FILL_CHUNK;
	}
}

/* The next message on a control slot, or its end, or READ_MS. */
static void
op_read(struct script *sc, struct slot *sl)
{
	int64_t started = monotime_ms(), deadline = budget_start(sc, READ_MS);
	unsigned n = sl->nmsgs;

	/* Nothing was asked on it: the listener will not speak first. */
	if (!sl->wrote)
		return;
	while (sl->fd != -1 && !sl->eof && !sl->data && sl->nmsgs == n &&
	    monotime_ms() < deadline)
		pump(sc, 10);
	budget_spend(sc, started);
}

/* Run the script; returns when the input is used up. */
static void
run_script(struct script *sc, const uint8_t *data, size_t size)
{
	const uint8_t *p = data, *end = data + size;
	struct slot *sl;
	size_t len;
	int op;

	while (p < end) {
		op = *p++;
		if ((op >> 4) == ACT_WAIT) {
			sync_listener(sc);
			continue;
		}
		switch (op >> 4) {
		case ACT_WRITE:
		case ACT_SEAL:
			len = end - p >= 2 ? (size_t)(p[0] << 8 | p[1]) : 0;
			p += end - p >= 2 ? 2 : end - p;
			if (len > (size_t)(end - p))
				len = (size_t)(end - p);
			if ((op >> 4) == ACT_WRITE)
				op_write(sc, slot_get(sc, op & 7), p, len);
			else
				op_seal(sc, slot_get(sc, op & 7), p, len);
			p += len;
			break;
		case ACT_DATA:
			op_data(sc, slot_get(sc, op & 7), p < end ? *p++ : 0);
			break;
		case ACT_STREAMS:
			op_streams(sc, p < end ? *p++ : 1);
			break;
		case ACT_SHUT:
			sl = slot_get(sc, op & 7);
			if (sl->fd != -1 && !sl->shut)
				shutdown(sl->fd, SHUT_WR);
			sl->shut = 1;
			break;
		case ACT_CLOSE:
			sl = slot_get(sc, op & 7);
			if (sl->fd != -1)
				close(sl->fd);
			sl->fd = -1;
			sl->eof = 1;	/* a closed slot stays closed */
			slot_free(sl);
			break;
		case ACT_FILL:
			op_fill(sc, slot_get(sc, op & 7), p < end ? *p++ : 1);
			break;
		case ACT_READ:
			op_read(sc, &sc->s[op & 7]);
			break;
		default:
			continue;	/* no action: no pump either */
		}
		pump(sc, 0);
	}
}

/* Half-close every slot; the listener must close each in DRAIN_MS. */
static void
drain(struct script *sc)
{
	int64_t deadline = monotime_ms() + DRAIN_MS;
	int i, open;

	for (i = 0; i < NALL; i++)
		if (sc->s[i].fd != -1 && !sc->s[i].shut) {
			shutdown(sc->s[i].fd, SHUT_WR);
			sc->s[i].shut = 1;
		}
	for (;;) {
		for (open = -1, i = 0; i < NALL; i++)
			if (sc->s[i].fd != -1 && !sc->s[i].eof)
				open = i;
		if (open == -1)
			return;
		if (monotime_ms() >= deadline)
			fail("the listener kept connection %d (%s) open %d ms "
			    "after the peer half-closed it", open,
			    sc->s[open].data ? "data" : "control", DRAIN_MS);
		pump(sc, 50);
		check_listener();
	}
}

/* Keyed mode: a source of its own for each input; else 127.0.0.1. */
static uint32_t
next_source(void)
{
	unsigned n;

	if (!FUZZ_SESSION_PSK)
		return INADDR_LOOPBACK;
	n = L.nsrc++ % NSOURCES;
	return 0x7f010000u | (n / 250) << 8 | (n % 250 + 1);
}

/* Exactly the next message on sl into m (opened when keyed), by deadline. */
static void
read_reply(struct slot *sl, struct proto_msg *m, int64_t deadline)
{
	struct pollfd pfd;
	char err[GB_ERR_LEN];
	uint8_t buf[4096];
	size_t want;
	ssize_t n;

	pfd.fd = sl->fd;
	pfd.events = POLLIN;
	/* Read exactly the reply; the drain reads the rest. */
	while (!proto_reader_done(&sl->rd) && !sl->eof) {
		if (monotime_ms() >= deadline)
			fail("the listener did not answer a valid hello within "
			    "%d ms", LIVE_MS);
		if (poll(&pfd, 1, 50) <= 0)
			continue;
		want = proto_reader_want(&sl->rd);
		n = recv(sl->fd, buf, want < sizeof(buf) ? want : sizeof(buf),
		    MSG_DONTWAIT);
		if (n == 0 || (n == -1 && errno != EAGAIN && errno != EINTR))
			sl->eof = 1;
		else if (n > 0 && proto_reader_push(&sl->rd, buf, (size_t)n) ==
		    -1)
			fail("the listener's reply to a hello is not a message: "
			    "%s", proto_status_str(sl->rd.status));
	}
	if (!proto_reader_done(&sl->rd))
		fail("the listener closed a valid hello's connection without "
		    "a word");
	if (ctl_decode(&sl->rd, sl->keyed ? &sl->auth : NULL, m, err,
	    sizeof(err)) != PROTO_OK)
		fail("the listener's reply to a hello does not %s: %s",
		    sl->keyed ? "open and decode" : "decode", err);
	proto_reader_reset(&sl->rd);
}

/*
 * One hello on a new connection from src, with the proof when the
 * listener challenges it; the reply's type, -1 for "busy" (and, keyed,
 * for the bound on failures that refuses every source for a while).
 */
static int
hello_once(const uint8_t *hello, size_t len, uint32_t src, int64_t deadline)
{
	struct script *sc;
	struct proto_msg *m;
	struct slot *sl;
	uint8_t *proof;
	size_t plen;
	int type;

	if ((m = calloc(1, sizeof(*m))) == NULL ||
	    (sc = calloc(1, sizeof(*sc))) == NULL)
		abort();
	for (type = 0; type < NALL; type++)
		sc->s[type].fd = -1;
	sc->wait_left_ms = LIVE_MS;
	sc->src = src;
	sl = slot_get(sc, 0);
	slot_write(sc, sl, hello, len);
	read_reply(sl, m, deadline);
	if (m->type == PROTO_CHALLENGE) {
		on_challenge(sl, m);
		memset(m, 0, sizeof(*m));
		m->type = PROTO_AUTH;
		if ((proof = proto_encode(m, &plen)) == NULL ||
		    auth_seal(&sl->auth, &proof, &plen) == -1)
			fail("cannot encode the proof of the key");
		slot_write(sc, sl, proof, plen);
		free(proof);
		read_reply(sl, m, deadline);
	}
	type = m->type == PROTO_REFUSE && (m->refusal == PROTO_REFUSE_BUSY ||
	    (FUZZ_SESSION_PSK && m->refusal == PROTO_REFUSE_AUTH)) ? -1 :
	    m->type;
	if (type != -1 && type != PROTO_ACCEPT)
		fail("the listener answered a valid hello with %s: %s",
		    proto_type_str(m->type), m->message);
	drain(sc);
	close(sl->fd);
	slot_free(sl);
	free(sc);
	free(m);
	return type;
}

/* A valid hello must be accepted: the listener is idle again. */
static void
check_idle(void)
{
	int64_t deadline = monotime_ms() + LIVE_MS;
	uint8_t nc[AUTH_NONCE_LEN], *hello;
	uint32_t src = next_source();
	struct proto_msg *m;
	size_t len;

	if ((m = calloc(1, sizeof(*m))) == NULL)
		abort();
	m->type = PROTO_HELLO;
	params_init(&m->params);
	if (FUZZ_SESSION_PSK) {
		auth_nonce(nc);
		auth_hex(nc, sizeof(nc), m->nonce);
	}
	if ((hello = proto_encode(m, &len)) == NULL)
		fail("cannot encode a hello");
	while (hello_once(hello, len, src, monotime_ms() + LIVE_MS) !=
	    PROTO_ACCEPT) {
		if (monotime_ms() >= deadline)
			fail("the listener was still busy %d ms after every "
			    "connection of the input was closed", LIVE_MS);
		usleep(20000);
	}
	free(hello);
	free(m);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct script *sc;
	int i;

	check_listener();
	if ((sc = calloc(1, sizeof(*sc))) == NULL)
		abort();
	for (i = 0; i < NALL; i++)
		sc->s[i].fd = -1;
	sc->wait_left_ms = WAIT_MS;
	sc->src = next_source();
	run_script(sc, data, size);
	/* What the script sent is handled before any of it is closed. */
	if (size > 0)
		sync_listener(sc);
	drain(sc);
	for (i = 0; i < NALL; i++) {
		if (sc->s[i].fd != -1)
			close(sc->s[i].fd);
		sc->s[i].fd = -1;
		slot_free(&sc->s[i]);
	}
	check_idle();
	/*
	 * The listener frees a session just after closing its socket; let
	 * it finish, so that libFuzzer counts as many frees as mallocs and
	 * does not run the input again to look for a leak.
	 */
	sync_listener(sc);
	free(sc);
	check_listener();
	return 0;
}
