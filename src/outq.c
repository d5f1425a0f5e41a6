/*
 * outq.c: the bounded, non-blocking output queue of out/outq.h.  Owns
 * the lines waiting for one descriptor and the write event that drains
 * them; must not format figures (the renderers do) nor close the
 * caller's descriptor.
 *
 * Why not simply fcntl(fd, F_SETFL, O_NONBLOCK): O_NONBLOCK is a flag of
 * the open file description, which an inherited stdout shares with the
 * parent shell and every other process of the pipeline.  Set on a
 * terminal, the shell's own reads and writes start failing with EAGAIN
 * (and a killed gigebench never clears it); set on a shared pipe, a
 * sibling writer that does not expect EAGAIN loses output.  So:
 *
 *  - a pipe (S_ISFIFO) is reopened through /proc/self/fd/N with
 *    O_NONBLOCK: on Linux that is a new open file description of the
 *    same pipe, whose flags are ours alone.  Only without /proc does the
 *    queue set O_NONBLOCK on the inherited descriptor, and it puts the
 *    old flags back in outq_free;
 *  - a socket is written with send(MSG_DONTWAIT), a per-call flag;
 *  - a terminal or a regular file is written at once, blocking, as
 *    stdio does: a regular file does not stall, and a terminal belongs
 *    to the user at it (Ctrl-S is a request to stop).
 *
 * A pipe with no reader left (EPIPE) or any other write error ends the
 * queue: what is queued and what comes after is counted as dropped.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <event2/event.h>

#include "out/outq.h"

enum outq_mode {
	OUTQ_DIRECT,	/* terminal, regular file: written at once */
	OUTQ_PIPE,	/* write() on a non-blocking description */
	OUTQ_SOCKET,	/* send(MSG_DONTWAIT) */
};

struct outq_line {
	struct outq_line	*next;
	size_t			 len;
	size_t			 off;	/* bytes of it already written */
	char			 text[];
};

struct outq {
	pthread_mutex_t		 mu;
	struct event		*ev;	/* EV_WRITE on wfd, armed when queued */
	enum outq_mode		 mode;
	int			 fd;	/* the caller's */
	int			 wfd;	/* the one written: fd or a reopening */
	int			 restore_flags;	/* -1: none to put back */
	int			 broken;	/* errno of a fatal write error */
	size_t			 cap;
	size_t			 bytes;		/* queued, not yet written */
	struct outq_line	*head;
	struct outq_line	*tail;
	size_t			 dropped;	/* in all */
	size_t			 pending_iv;	/* not yet told: droppable */
	size_t			 pending_other;	/* not yet told: the others */
};

static void	on_writable(evutil_socket_t, short, void *);

static const char *
outq_name(const struct outq *q, char *buf, size_t len)
{
	if (q->fd == STDOUT_FILENO)
		return "stdout";
	if (q->fd == STDERR_FILENO)
		return "stderr";
	snprintf(buf, len, "descriptor %d", q->fd);
	return buf;
}

/* A private non-blocking description of the pipe fd, else -1. */
static int
pipe_reopen(int fd, const struct stat *st)
{
	char path[64];
	struct stat nst;
	int nfd;

	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	nfd = open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
	if (nfd == -1)
		return -1;
	if (fstat(nfd, &nst) == -1 || nst.st_dev != st->st_dev ||
	    nst.st_ino != st->st_ino) {
		close(nfd);
		return -1;
	}
	return nfd;
}

static int
outq_setup_fd(struct outq *q)
{
	struct stat st;
	int fl;

	q->wfd = q->fd;
	q->restore_flags = -1;
	q->mode = OUTQ_DIRECT;
	if (fstat(q->fd, &st) == -1)
		return -1;
	if (S_ISSOCK(st.st_mode)) {
		q->mode = OUTQ_SOCKET;
	} else if (S_ISFIFO(st.st_mode)) {
		q->mode = OUTQ_PIPE;
		if ((q->wfd = pipe_reopen(q->fd, &st)) == -1) {
			q->wfd = q->fd;
			if ((fl = fcntl(q->fd, F_GETFL)) == -1)
				return -1;
			if ((fl & O_NONBLOCK) == 0) {
				if (fcntl(q->fd, F_SETFL, fl | O_NONBLOCK) == -1)
					return -1;
				q->restore_flags = fl;
			}
		}
	}
	return 0;
}

struct outq *
outq_new(struct event_base *base, int fd, size_t cap_bytes)
{
	struct outq *q;

	if (fd < 0 || cap_bytes == 0) {
		errno = EINVAL;
		return NULL;
	}
	if ((q = calloc(1, sizeof(*q))) == NULL)
		return NULL;
	q->fd = fd;
	q->cap = cap_bytes;
	if (outq_setup_fd(q) == -1)
		goto error;
	if (pthread_mutex_init(&q->mu, NULL) != 0) {
		errno = ENOMEM;
		goto error;
	}
	if (outq_set_base(q, base) == -1) {
		pthread_mutex_destroy(&q->mu);
		goto error;
	}
	return q;
error:
	if (q->wfd != q->fd)
		close(q->wfd);
	if (q->restore_flags != -1)
		fcntl(q->fd, F_SETFL, q->restore_flags);
	free(q);
	return NULL;
}

int
outq_set_base(struct outq *q, struct event_base *base)
{
	struct event *old, *ev = NULL;

	/* Freed unlocked: event_free waits for a running on_writable,
	 * which may be waiting for the lock. */
	pthread_mutex_lock(&q->mu);
	old = q->ev;
	q->ev = NULL;
	pthread_mutex_unlock(&q->mu);
	if (old != NULL)
		event_free(old);
	if (base == NULL || q->mode == OUTQ_DIRECT)
		return 0;
	if ((ev = event_new(base, q->wfd, EV_WRITE, on_writable, q)) == NULL) {
		errno = ENOMEM;
		return -1;
	}
	pthread_mutex_lock(&q->mu);
	q->ev = ev;
	if (q->head != NULL)
		event_add(q->ev, NULL);
	pthread_mutex_unlock(&q->mu);
	return 0;
}

/* One write attempt without blocking (blocking in OUTQ_DIRECT). */
static ssize_t
outq_put(const struct outq *q, const char *p, size_t n)
{
	if (q->mode == OUTQ_SOCKET)
		return send(q->wfd, p, n, MSG_DONTWAIT | MSG_NOSIGNAL);
	return write(q->wfd, p, n);
}

static void
outq_drop_all(struct outq *q)
{
	struct outq_line *l;

	while ((l = q->head) != NULL) {
		q->head = l->next;
		free(l);
		q->dropped++;
	}
	q->tail = NULL;
	q->bytes = 0;
}

/*
 * Writes from the head until the descriptor would block; locked.
 * Returns 1 when something is still queued.
 */
static int
outq_drain(struct outq *q)
{
	struct outq_line *l;
	ssize_t n;

	while ((l = q->head) != NULL && q->broken == 0) {
		n = outq_put(q, l->text + l->off, l->len - l->off);
		if (n == -1 && errno == EINTR)
			continue;
		if (n == -1 && (errno == EAGAIN || errno == EWOULDBLOCK))
			return 1;
		if (n <= 0) {
			q->broken = n == 0 ? EIO : errno;
			outq_drop_all(q);
			return 0;
		}
		l->off += (size_t)n;
		q->bytes -= (size_t)n;
		if (l->off == l->len) {
			q->head = l->next;
			if (q->head == NULL)
				q->tail = NULL;
			free(l);
		}
	}
	return 0;
}

static void
outq_arm(struct outq *q)
{
	if (outq_drain(q) && q->ev != NULL && !event_pending(q->ev,
	    EV_WRITE, NULL))
		event_add(q->ev, NULL);
}

static void
on_writable(evutil_socket_t fd, short what, void *arg)
{
	struct outq *q = arg;

	(void)fd;
	(void)what;
	pthread_mutex_lock(&q->mu);
	outq_arm(q);
	pthread_mutex_unlock(&q->mu);
}

static int
outq_append(struct outq *q, const void *buf, size_t len)
{
	struct outq_line *l;

	if ((l = malloc(sizeof(*l) + len)) == NULL)
		return -1;
	memcpy(l->text, buf, len);
	l->len = len;
	l->off = 0;
	l->next = NULL;
	if (q->tail != NULL)
		q->tail->next = l;
	else
		q->head = l;
	q->tail = l;
	q->bytes += len;
	return 0;
}

/* The one line that tells the reader what it missed; locked. */
static void
outq_tell_dropped(struct outq *q)
{
	char line[160], name[32];
	size_t all = q->pending_iv + q->pending_other;
	int n;

	if (all == 0)
		return;
	if (q->pending_other == 0)
		n = snprintf(line, sizeof(line), "gigebench: %zu interval "
		    "line%s dropped: %s is not being read\n", all,
		    all == 1 ? "" : "s", outq_name(q, name, sizeof(name)));
	else
		n = snprintf(line, sizeof(line), "gigebench: %zu line%s "
		    "dropped (%zu interval lines): %s is not being read\n",
		    all, all == 1 ? "" : "s", q->pending_iv,
		    outq_name(q, name, sizeof(name)));
	q->pending_iv = q->pending_other = 0;
	if (n > 0 && (size_t)n < sizeof(line))
		outq_append(q, line, (size_t)n);
}

static int
outq_direct(struct outq *q, const char *p, size_t len)
{
	ssize_t n;

	while (len > 0 && q->broken == 0) {
		if ((n = write(q->wfd, p, len)) == -1 && errno == EINTR)
			continue;
		if (n <= 0) {
			q->broken = n == 0 ? EIO : errno;
			break;
		}
		p += n;
		len -= (size_t)n;
	}
	if (q->broken == 0)
		return 1;
	q->dropped++;
	return 0;
}

int
outq_write(struct outq *q, int droppable, const void *buf, size_t len)
{
	size_t limit = droppable ? q->cap : OUTQ_HARD_FACTOR * q->cap;
	int kept = 0;

	if (len == 0)
		return 1;
	pthread_mutex_lock(&q->mu);
	/* Room made by a reader since the last write counts at once, with
	 * or without a loop to tell us. */
	if (q->mode != OUTQ_DIRECT && q->head != NULL)
		outq_drain(q);
	if (q->mode == OUTQ_DIRECT) {
		kept = outq_direct(q, buf, len);
	} else if (q->broken != 0 || q->bytes + len > limit) {
		q->dropped++;
		if (q->broken == 0 && droppable)
			q->pending_iv++;
		else if (q->broken == 0)
			q->pending_other++;
	} else {
		outq_tell_dropped(q);
		kept = outq_append(q, buf, len) == 0;
		if (!kept)
			q->dropped++;
		outq_arm(q);
	}
	pthread_mutex_unlock(&q->mu);
	return kept;
}

int
outq_printf(struct outq *q, int droppable, const char *fmt, ...)
{
	char *buf;
	va_list ap;
	int n, kept;

	va_start(ap, fmt);
	n = vasprintf(&buf, fmt, ap);
	va_end(ap);
	if (n < 0) {
		pthread_mutex_lock(&q->mu);
		q->dropped++;
		pthread_mutex_unlock(&q->mu);
		return 0;
	}
	kept = outq_write(q, droppable, buf, (size_t)n);
	free(buf);
	return kept;
}

struct outq_cookie {
	struct outq	*q;
	int		 droppable;
};

static ssize_t
cookie_write(void *c, const char *buf, size_t len)
{
	struct outq_cookie *oc = c;

	/* A dropped unit is not an error of the stream: the count says it. */
	outq_write(oc->q, oc->droppable, buf, len);
	return (ssize_t)len;
}

static int
cookie_close(void *c)
{
	free(c);
	return 0;
}

FILE *
outq_stream(struct outq *q, int droppable)
{
	cookie_io_functions_t io = { .write = cookie_write,
	    .close = cookie_close };
	struct outq_cookie *oc;
	FILE *f;

	if ((oc = calloc(1, sizeof(*oc))) == NULL)
		return NULL;
	oc->q = q;
	oc->droppable = droppable;
	if ((f = fopencookie(oc, "w", io)) == NULL) {
		free(oc);
		return NULL;
	}
	setvbuf(f, NULL, _IOLBF, 0);
	return f;
}

static int64_t
now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int
outq_flush_blocking(struct outq *q, int timeout_ms)
{
	int64_t end = now_ms() + (timeout_ms > 0 ? timeout_ms : 0);
	struct pollfd pfd = { .fd = q->wfd, .events = POLLOUT };
	int left, more;

	pthread_mutex_lock(&q->mu);
	outq_tell_dropped(q);
	while ((more = outq_drain(q)) != 0) {
		if ((left = (int)(end - now_ms())) <= 0)
			break;
		pthread_mutex_unlock(&q->mu);
		poll(&pfd, 1, left);
		pthread_mutex_lock(&q->mu);
	}
	if (more)
		outq_drop_all(q);
	pthread_mutex_unlock(&q->mu);
	return more ? -1 : 0;
}

size_t
outq_dropped(const struct outq *q)
{
	struct outq *mq = (struct outq *)q;
	size_t n;

	pthread_mutex_lock(&mq->mu);
	n = q->dropped;
	pthread_mutex_unlock(&mq->mu);
	return n;
}

size_t
outq_queued_bytes(const struct outq *q)
{
	struct outq *mq = (struct outq *)q;
	size_t n;

	pthread_mutex_lock(&mq->mu);
	n = q->bytes;
	pthread_mutex_unlock(&mq->mu);
	return n;
}

void
outq_free(struct outq *q)
{
	if (q == NULL)
		return;
	outq_set_base(q, NULL);
	outq_drop_all(q);
	if (q->wfd != q->fd)
		close(q->wfd);
	if (q->restore_flags != -1)
		fcntl(q->fd, F_SETFL, q->restore_flags);
	pthread_mutex_destroy(&q->mu);
	free(q);
}
