/*
 * pending.c: connections between accept() and their first message (see
 * pending.h).
 *
 * Why each piece is here:
 *  - one deadline per connection (--handshake-timeout): a silent or slow
 *    peer is closed, whatever it sent so far;
 *  - the caps (--max-pending, --max-pending-source, srccap.c): when one
 *    is reached the oldest connection of the source that holds too many
 *    is dropped, so one address cannot lock the others out;
 *  - the caps lowered to the descriptor limit (pending_caps): a cap the
 *    process cannot reach caps nothing, and a flood would exhaust the
 *    descriptors first, leaving no room for the real client's control
 *    and data connections;
 *  - a read right after accept(): a real client sends its message at
 *    once, so it is identified and leaves the pending set before the next
 *    burst of a flood is accepted;
 *  - at most ACCEPT_BATCH accepts per wake-up, so that a flood cannot
 *    keep the loop from the test it serves;
 *  - EMFILE from accept() all the same (the descriptors are also the
 *    test's): the oldest connection of the source with the most pending
 *    is closed and accept() tried again, so the connection waiting in the
 *    kernel's queue (perhaps a real client) gets its descriptor;
 *  - EMFILE with nothing pending, ENFILE, ENOBUFS, ENOMEM pause accepting
 *    for ACCEPT_PAUSE_MS (as OpenBSD's tcpbench does) instead of spinning
 *    on a listening socket that stays readable, and never end the
 *    listener.
 */
#include <sys/resource.h>
#include <sys/socket.h>

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/datapath.h"
#include "base/safetext.h"
#include "base/monotime.h"
#include "codec/peerkind.h"
#include "wire/ctl.h"
#include "wire/pending.h"
#include "host/sock.h"

#define ACCEPT_BATCH	64
#define ACCEPT_PAUSE_MS	200

/*
 * What a descriptor limit must leave besides pending connections
 * (pending_caps).  PD_FD_OWN, the listener's own files: stdin, stdout,
 * stderr and the stdout that outq.c may reopen (4); the listening socket
 * and a test's control connection (2); libevent's epoll, its signal
 * socket pair and its thread notification pipe (5); a capture's pcap
 * socket and the eventfd that wakes it (2); the one file a test's start
 * or end has open at a time (/proc, /sys, the key file, an MTU socket or
 * journal) and its directory (2).  PD_FD_STREAM, each of --max-streams
 * streams: its data socket, and what its receive or transmit path opens
 * besides: a pipe pair and /dev/null for --splice (a memfd for
 * --sendfile is fewer; --crr's eventfd, the connection it answers and
 * the one waiting for it are as many).  PD_FLOOR: the pending connections kept even when
 * the limit cannot hold a whole --max-streams test besides (at most half
 * of what the listener's own files leave): a listener that cannot accept
 * serves no test at all, and a test of fewer streams still fits.
 */
#define PD_FD_OWN	15u
#define PD_FD_STREAM	4u
#define PD_FLOOR	16u

/*
 * A connection that is refused or not gigebench is logged at default
 * verbosity, once a minute per source at most (a port scan, a flood or a
 * misdirected tool does not flood the log); the ones kept quiet are
 * counted in the next.  With -v, every one; with -q, none.
 */
#define PD_FOREIGN_SLOTS	32
#define PD_FOREIGN_MS		60000

struct foreign {
	struct srccap_key	 key;
	int64_t			 last_ms;
	unsigned		 quiet;		/* not logged since */
	int			 used;
};

struct pending {
	struct pending_caps	 caps;
	struct pending_config	 cfg;
	struct foreign		 foreign[PD_FOREIGN_SLOTS];
	struct event		*accept_ev;
	struct event		*resume_ev;
	struct pconn		*head, *tail;	/* newest, oldest */
	struct srccap		 cap;
	char			 why_total[64];	/* the option, or the limit */
	char			 why_source[64];	/* the same per source */
	int			 paused;	/* since the last accept */
};

static void	on_read(evutil_socket_t, short, void *);

static void
plog(const struct pending *pd, int level, const char *peer, const char *fmt,
    ...)
{
	char msg[GB_ERR_LEN];
	va_list ap;

	if (pd->cfg.verbose < level || pd->cfg.log_cb == NULL)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	/* What a connection sent may be quoted: escaped, as role_log does. */
	safetext_inplace(msg, sizeof(msg));
	pd->cfg.log_cb(peer, msg, pd->cfg.log_arg);
}

static void
forget(struct pconn *pc)
{
	struct pending *pd = pc->pd;

	if (pc->prev != NULL)
		pc->prev->next = pc->next;
	else
		pd->head = pc->next;
	if (pc->next != NULL)
		pc->next->prev = pc->prev;
	else
		pd->tail = pc->prev;
	srccap_del(&pd->cap, &pc->key);
	if (pc->ev != NULL)
		event_free(pc->ev);
	if (pc->timer != NULL)
		event_free(pc->timer);
	proto_reader_reset(&pc->rd);
}

void
pending_drop(struct pconn *pc)
{
	forget(pc);
	close(pc->fd);
	free(pc);
}

int
pending_take(struct pconn *pc)
{
	int fd = pc->fd;

	forget(pc);
	free(pc);
	return fd;
}

unsigned
pending_count(const struct pending *pd)
{
	return pd->cap.n;
}

/* The source's slot, or the one least recently logged. */
static struct foreign *
foreign_slot(struct pending *pd, const struct srccap_key *k)
{
	struct foreign *f, *old = &pd->foreign[0];
	size_t i;

	for (i = 0; i < PD_FOREIGN_SLOTS; i++) {
		f = &pd->foreign[i];
		if (f->used && srccap_key_equal(&f->key, k))
			return f;
		if (!f->used || (old->used && f->last_ms < old->last_ms))
			old = f;
	}
	memset(old, 0, sizeof(*old));
	old->key = *k;
	old->used = 1;
	old->last_ms = INT64_MIN;
	return old;
}

void
pending_note(struct pconn *pc, const char *fmt, ...)
{
	struct pending *pd = pc->pd;
	struct foreign *f;
	int64_t now = monotime_ms();
	char msg[GB_ERR_LEN], also[64] = "";
	va_list ap;

	if (pd->cfg.quiet || pd->cfg.log_cb == NULL)
		return;
	f = foreign_slot(pd, &pc->key);
	if (f->last_ms != INT64_MIN && now - f->last_ms < (pd->cfg.note_ms !=
	    0 ? (int64_t)pd->cfg.note_ms : PD_FOREIGN_MS) &&
	    pd->cfg.verbose < 1) {
		f->quiet++;
		return;
	}
	if (f->quiet != 0)
		snprintf(also, sizeof(also), " (and %u more from this source "
		    "not logged)", f->quiet);
	f->quiet = 0;
	f->last_ms = now;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	plog(pd, 0, pc->peer, "%s%s", msg, also);
}

/*
 * Not gigebench (its first bytes are no header of ours): one line about
 * what it looks like, from what it sent and what it has queued.
 */
static void
foreign_log(struct pconn *pc)
{
	uint8_t b[PEERKIND_BYTES];
	size_t n = pc->rd.got < sizeof(pc->rd.hdr) ? pc->rd.got :
	    sizeof(pc->rd.hdr);
	ssize_t more;

	memcpy(b, pc->rd.hdr, n);
	if ((more = recv(pc->fd, b + n, sizeof(b) - n, MSG_DONTWAIT)) > 0)
		n += (size_t)more;
	pending_note(pc, "not gigebench: looks like %s; closed",
	    peerkind_text(peerkind_of(b, n)));
}

/* Some bytes came, too few for a header, and they are not our magic's. */
static int
foreign_partial(const struct pconn *pc)
{
	size_t n = pc->rd.got < 4 ? pc->rd.got : 4;

	return pc->rd.got > 0 && pc->rd.got < PROTO_HEADER_LEN &&
	    memcmp(pc->rd.hdr, PROTO_MAGIC, n) != 0;
}

static void
on_read(evutil_socket_t fd, short what, void *arg)
{
	struct pconn *pc = arg;
	struct pending *pd = pc->pd;
	struct proto_msg *m;
	char err[GB_ERR_LEN];
	int rc;

	(void)what;
	rc = ctl_read_some(fd, &pc->rd, err, sizeof(err));
	if (rc == 0)
		return;
	if (rc < 0 || (m = malloc(sizeof(*m))) == NULL) {
		if (rc == PROTO_E_VERSION)
			ctl_send_simple(fd, PROTO_REFUSE, PROTO_REFUSE_VERSION,
			    "the listener speaks another protocol version");
		else if (rc == PROTO_E_FLAGS)
			ctl_send_simple(fd, PROTO_REFUSE, PROTO_REFUSE_PROTOCOL,
			    "header flags are not 0");
		if (rc == PROTO_E_MAGIC || foreign_partial(pc))
			foreign_log(pc);
		else if (rc == PROTO_E_VERSION || rc == PROTO_E_FLAGS)
			pending_note(pc, "refused: %s", err);
		else
			plog(pd, 1, pc->peer, "%s", rc < 0 ? err :
			    "out of memory");
		pending_drop(pc);
		return;
	}
	rc = proto_reader_decode(&pc->rd, m, err, sizeof(err));
	if (rc == PROTO_OK && (m->type == PROTO_HELLO ||
	    m->type == PROTO_DATA))
		pd->cfg.msg_cb(pc, m, pd->cfg.arg);	/* takes or drops pc */
	else {
		if (rc == PROTO_OK)
			snprintf(err, sizeof(err), "unexpected %s message",
			    proto_type_str(m->type));
		ctl_send_simple(fd, m->type == PROTO_HELLO ? PROTO_REFUSE :
		    PROTO_ERROR, PROTO_REFUSE_PARAMS, err);
		pending_note(pc, "refused: %s", err);
		pending_drop(pc);
	}
	free(m);
}

static void
on_timeout(evutil_socket_t fd, short what, void *arg)
{
	struct pconn *pc = arg;

	(void)fd;
	(void)what;
	if (foreign_partial(pc))
		foreign_log(pc);
	else
		pending_note(pc, "no complete message in time, closed");
	pending_drop(pc);
}

static struct pconn *
oldest_of(const struct pending *pd, const struct srccap_key *k)
{
	struct pconn *pc;

	for (pc = pd->tail; pc != NULL; pc = pc->prev)
		if (srccap_key_equal(&pc->key, k))
			return pc;
	return NULL;
}

/* Make room for one more from k, dropping as srccap says; 0 or -1. */
static int
admit(struct pending *pd, const struct srccap_key *k)
{
	struct srccap_key victim;
	struct pconn *old;
	char src[64];
	int v;

	while ((v = srccap_verdict(&pd->cap, k, &victim)) != SRCCAP_ADMIT) {
		if ((old = oldest_of(pd, &victim)) == NULL)
			return -1;
		if (v == SRCCAP_DROP_SAME)
			pending_note(old, "closed: its source has the most "
			    "pending connections it may (%s)",
			    pd->why_source);
		else
			pending_note(old, "closed: the listener has the most "
			    "pending connections it may (%s), and this source "
			    "the most of them", pd->why_total);
		pending_drop(old);
	}
	if (srccap_add(&pd->cap, k) == -1) {
		plog(pd, 0, srccap_key_text(k, src, sizeof(src)),
		    "no room for a pending connection");
		return -1;
	}
	return 0;
}

static void
pconn_new(struct pending *pd, int fd, const struct sockaddr *sa)
{
	uint32_t ms = pd->cfg.bounds->handshake_ms;
	struct timeval tv = { ms / 1000, (ms % 1000) * 1000 };
	struct srccap_key k;
	struct pconn *pc;

	if (srccap_key(sa, &k) == -1 || admit(pd, &k) == -1) {
		close(fd);
		return;
	}
	if ((pc = calloc(1, sizeof(*pc))) == NULL) {
		srccap_del(&pd->cap, &k);
		close(fd);
		return;
	}
	pc->pd = pd;
	pc->fd = fd;
	pc->key = k;
	sock_ntop(sa, pc->peer, sizeof(pc->peer));
	proto_reader_init(&pc->rd);
	pc->next = pd->head;
	if (pd->head != NULL)
		pd->head->prev = pc;
	else
		pd->tail = pc;
	pd->head = pc;
	pc->ev = event_new(pd->cfg.base, fd, EV_READ | EV_PERSIST, on_read,
	    pc);
	pc->timer = evtimer_new(pd->cfg.base, on_timeout, pc);
	if (pc->ev == NULL || pc->timer == NULL) {
		pending_drop(pc);
		return;
	}
	event_add(pc->ev, NULL);
	evtimer_add(pc->timer, &tv);
	/* A real client's message is usually there already. */
	on_read(fd, EV_READ, pc);
}

static void
on_resume(evutil_socket_t fd, short what, void *arg)
{
	struct pending *pd = arg;

	(void)fd;
	(void)what;
	event_add(pd->accept_ev, NULL);
}

static void
accept_pause(struct pending *pd, int errnum)
{
	struct timeval tv = { 0, ACCEPT_PAUSE_MS * 1000 };

	/* Once per spell of them, not every ACCEPT_PAUSE_MS. */
	if (!pd->paused)
		plog(pd, 0, NULL, "accept: %s: not accepting for %d ms at a "
		    "time until it passes", strerror(errnum), ACCEPT_PAUSE_MS);
	pd->paused = 1;
	event_del(pd->accept_ev);
	evtimer_add(pd->resume_ev, &tv);
}

/*
 * Out of descriptors: close the oldest pending connection of the source
 * that holds the most, for the one waiting in the kernel's queue.  1 when
 * one was closed, 0 when none is pending.
 */
static int
make_room(struct pending *pd)
{
	struct srccap_key k;
	struct pconn *old;

	if (srccap_biggest(&pd->cap, &k) == -1 ||
	    (old = oldest_of(pd, &k)) == NULL)
		return 0;
	plog(pd, 1, old->peer, "closed: the listener is out of file "
	    "descriptors, and this source has the most pending connections");
	pending_drop(old);
	return 1;
}

static void
on_accept(evutil_socket_t lfd, short what, void *arg)
{
	struct pending *pd = arg;
	struct sockaddr_storage ss;
	socklen_t len;
	int fd, i;

	(void)what;
	for (i = 0; i < ACCEPT_BATCH; i++) {
		len = sizeof(ss);
		fd = accept4(lfd, (struct sockaddr *)&ss, &len,
		    SOCK_NONBLOCK | SOCK_CLOEXEC);
		if (fd != -1) {
			if (pd->paused)
				plog(pd, 0, NULL, "accepting again");
			pd->paused = 0;
			pconn_new(pd, fd, (struct sockaddr *)&ss);
			continue;
		}
		if (errno == EMFILE && make_room(pd))
			continue;
		if (errno == EMFILE || errno == ENFILE || errno == ENOBUFS ||
		    errno == ENOMEM)
			accept_pause(pd, errno);
		/* EAGAIN, or a connection that was reset while queued. */
		return;
	}
}

void
pending_caps(const struct gb_bounds *b, uint64_t nofile,
    struct pending_caps *c)
{
	uint64_t avail, want, n;

	avail = nofile > PD_FD_OWN ? nofile - PD_FD_OWN : 0;
	want = (uint64_t)b->max_streams * PD_FD_STREAM;
	if (avail >= want + PD_FLOOR)
		n = avail - want;
	else
		n = avail / 2 < PD_FLOOR ? avail / 2 : PD_FLOOR;
	if (n == 0)
		n = 1;
	c->nofile = nofile;
	c->reserved = nofile > n ? nofile - n : 0;
	c->needed = PD_FD_OWN + want;
	c->total = n < b->max_pending ? (unsigned)n : b->max_pending;
	if (c->total == 0)
		c->total = 1;
	c->per_source = b->max_pending_source < c->total ?
	    b->max_pending_source : c->total;
	if (c->per_source == 0)
		c->per_source = 1;
}

/* RLIMIT_NOFILE now; UINT64_MAX when there is none (or it is unknown). */
static uint64_t
nofile_now(void)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) == -1 || rl.rlim_cur == RLIM_INFINITY)
		return UINT64_MAX;
	return (uint64_t)rl.rlim_cur;
}

/* Says what the caps are, and names for the log what set each. */
static void
caps_report(struct pending *pd, const struct pending_caps *c)
{
	const struct gb_bounds *b = pd->cfg.bounds;
	char lim[32], shortfall[96] = "";

	if (c->nofile == UINT64_MAX)
		snprintf(lim, sizeof(lim), "unlimited");
	else
		snprintf(lim, sizeof(lim), "%" PRIu64, c->nofile);
	snprintf(pd->why_total, sizeof(pd->why_total), "%s%s",
	    c->total < b->max_pending ? "RLIMIT_NOFILE " : "--max-pending",
	    c->total < b->max_pending ? lim : "");
	snprintf(pd->why_source, sizeof(pd->why_source), "%s%s",
	    c->per_source < b->max_pending_source ? "RLIMIT_NOFILE " :
	    "--max-pending-source",
	    c->per_source < b->max_pending_source ? lim : "");
	if (c->reserved < c->needed)
		snprintf(shortfall, sizeof(shortfall), ", fewer than the %"
		    PRIu64 " a test of --max-streams %u may need",
		    c->needed, pd->cfg.bounds->max_streams);
	plog(pd, 1, "listener", "at most %u pending connections, %u per "
	    "source (RLIMIT_NOFILE %s, %" PRIu64 " reserved for a test%s)",
	    c->total, c->per_source, lim, c->reserved, shortfall);
}

struct pending *
pending_new(const struct pending_config *cfg, char *err, size_t errlen)
{
	struct pending_caps caps;
	struct pending *pd;

	if ((pd = calloc(1, sizeof(*pd))) == NULL)
		goto nomem;
	pd->cfg = *cfg;
	pending_caps(cfg->bounds, nofile_now(), &caps);
	pd->caps = caps;
	caps_report(pd, &caps);
	if (srccap_init(&pd->cap, caps.total, caps.per_source) == -1) {
		free(pd);
		goto nomem;
	}
	pd->accept_ev = event_new(cfg->base, cfg->lfd, EV_READ | EV_PERSIST,
	    on_accept, pd);
	pd->resume_ev = evtimer_new(cfg->base, on_resume, pd);
	if (pd->accept_ev == NULL || pd->resume_ev == NULL) {
		pending_free(pd);
		goto nomem;
	}
	event_add(pd->accept_ev, NULL);
	return pd;
nomem:
	snprintf(err, errlen, "out of memory");
	return NULL;
}

void
pending_free(struct pending *pd)
{
	if (pd == NULL)
		return;
	while (pd->head != NULL)
		pending_drop(pd->head);
	if (pd->accept_ev != NULL)
		event_free(pd->accept_ev);
	if (pd->resume_ev != NULL)
		event_free(pd->resume_ev);
	srccap_free(&pd->cap);
	free(pd);
}

uint64_t
pending_fds_wanted(const struct gb_bounds *b)
{
	return PD_FD_OWN + (uint64_t)b->max_streams * PD_FD_STREAM +
	    b->max_pending;
}

uint64_t
pending_test_fds(const struct gb_params *p)
{
	uint64_t conns = params_conns(p);	/* many-flow: + an epoll a thread */

	/* --crr: an eventfd and a transaction's connection a flow more. */
	if (p->crr)
		return PD_FD_OWN + conns * PD_FD_STREAM;
	return PD_FD_OWN + conns + conns / 2;	/* >= 2 flows an epoll */
}

const char *
pending_fd_refusal(const struct pending *pd, const struct gb_params *p,
    char *buf, size_t len)
{
	uint64_t want = pending_test_fds(p);

	if (pd->caps.nofile == UINT64_MAX || want <= pd->caps.reserved)
		return NULL;
	snprintf(buf, len, "the test's %u flows need about %" PRIu64
	    " descriptors; this listener keeps %" PRIu64 " for a test "
	    "(its RLIMIT_NOFILE is %" PRIu64 ": raise it with ulimit -n)",
	    params_conns(p), want, pd->caps.reserved, pd->caps.nofile);
	return buf;
}
