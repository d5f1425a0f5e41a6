/*
 * ctl.c: moves control messages between proto.c's buffers and a socket.
 * It reads exactly the bytes a message needs, never more, so the data that
 * may follow a data connection's hello stays in the socket.
 */
#include <sys/socket.h>

#include <errno.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "wire/ctl.h"
#include "base/monotime.h"

static int
wait_fd(int fd, short events, int64_t deadline)
{
	struct pollfd pfd = { .fd = fd, .events = events };
	int64_t left;
	int rc;

	for (;;) {
		left = deadline - monotime_ms();
		if (left <= 0)
			return CTL_E_TIMEOUT;
		rc = poll(&pfd, 1, (int)left);
		if (rc > 0)
			return 0;
		if (rc == 0)
			return CTL_E_TIMEOUT;
		if (errno != EINTR)
			return CTL_E_IO;
	}
}

int
ctl_send(int fd, const struct proto_msg *m, struct auth_session *a,
    int timeout_ms, char *err, size_t errlen)
{
	uint8_t *buf;
	size_t len;
	int rc;

	if ((buf = proto_encode(m, &len)) == NULL ||
	    (a != NULL && auth_seal(a, &buf, &len) == -1)) {
		free(buf);
		snprintf(err, errlen, "cannot encode %s message",
		    proto_type_str(m->type));
		return CTL_E_IO;
	}
	rc = ctl_send_buf(fd, buf, len, m->type, timeout_ms, err, errlen);
	free(buf);
	return rc;
}

int
ctl_send_buf(int fd, const uint8_t *buf, size_t len, int type,
    int timeout_ms, char *err, size_t errlen)
{
	int64_t deadline = monotime_ms() + timeout_ms;
	size_t off = 0;
	ssize_t n;
	int rc = PROTO_OK;

	while (off < len) {
		n = send(fd, buf + off, len - off, MSG_DONTWAIT | MSG_NOSIGNAL);
		if (n > 0) {
			off += (size_t)n;
			continue;
		}
		if (n == -1 && errno == EINTR)
			continue;
		if (n == -1 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
			if ((rc = wait_fd(fd, POLLOUT, deadline)) == 0)
				continue;
		} else
			rc = CTL_E_IO;
		snprintf(err, errlen, "sending %s message: %s",
		    proto_type_str(type), rc == CTL_E_TIMEOUT ?
		    "peer does not read (timed out)" : strerror(errno));
		break;
	}
	return off == len ? PROTO_OK : rc;
}

int
ctl_read_some(int fd, struct proto_reader *r, char *err, size_t errlen)
{
	uint8_t buf[4096];
	size_t want;
	ssize_t n;

	while ((want = proto_reader_want(r)) > 0) {
		if (want > sizeof(buf))
			want = sizeof(buf);
		n = recv(fd, buf, want, MSG_DONTWAIT);
		if (n == 0) {
			snprintf(err, errlen, "peer closed the connection%s",
			    r->got > 0 ? " in the middle of a message" : "");
			return CTL_E_EOF;
		}
		if (n == -1) {
			if (errno == EINTR)
				continue;
			if (errno == EAGAIN || errno == EWOULDBLOCK)
				return 0;
			snprintf(err, errlen, "reading from peer: %s",
			    strerror(errno));
			return CTL_E_IO;
		}
		if (proto_reader_push(r, buf, (size_t)n) == -1) {
			snprintf(err, errlen, "%s", proto_status_str(
			    r->status));
			return r->status != PROTO_OK ? r->status : CTL_E_IO;
		}
	}
	return proto_reader_done(r) ? 1 : 0;
}

int
ctl_decode(struct proto_reader *r, struct auth_session *a,
    struct proto_msg *m, char *err, size_t errlen)
{
	if (a != NULL && (proto_reader_done(r) && (r->h.flags & PROTO_F_MAC ||
	    r->h.type != PROTO_REFUSE)) && auth_open(a, r, err, errlen) == -1)
		return PROTO_E_AUTH;
	return proto_reader_decode(r, m, err, errlen);
}

int
ctl_recv(int fd, struct proto_msg *m, struct auth_session *a,
    int timeout_ms, char *err, size_t errlen)
{
	struct proto_reader r;

	proto_reader_init(&r);
	return ctl_recv_from(fd, &r, m, a, timeout_ms, err, errlen);
}

int
ctl_recv_from(int fd, struct proto_reader *rd, struct proto_msg *m,
    struct auth_session *a, int timeout_ms, char *err, size_t errlen)
{
	int64_t deadline = monotime_ms() + timeout_ms;
	int rc;

	while ((rc = ctl_read_some(fd, rd, err, errlen)) == 0) {
		if ((rc = wait_fd(fd, POLLIN, deadline)) != 0) {
			if (rc == CTL_E_TIMEOUT)
				snprintf(err, errlen, "no reply from peer "
				    "within %d ms", timeout_ms);
			else
				snprintf(err, errlen, "waiting for peer: %s",
				    strerror(errno));
			break;
		}
	}
	if (rc == 1)
		rc = ctl_decode(rd, a, m, err, errlen);
	proto_reader_reset(rd);
	return rc;
}

void
ctl_send_simple(int fd, int type, int refusal, const char *text)
{
	struct proto_msg *m;
	char err[GB_ERR_LEN];

	if ((m = calloc(1, sizeof(*m))) == NULL)
		return;
	m->type = type;
	m->refusal = refusal;
	snprintf(m->message, sizeof(m->message), "%s", text);
	/* Short: a refusal must not hold up the loop. */
	ctl_send(fd, m, NULL, 1000, err, sizeof(err));
	free(m);
}
