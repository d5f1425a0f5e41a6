/*
 * ctl.h: control messages over a socket, every call bounded by a deadline,
 * so no step blocks forever on a silent peer.  Works on blocking and
 * non-blocking sockets alike (poll() plus MSG_DONTWAIT).
 */
#ifndef GB_CTL_H
#define GB_CTL_H

#include <stddef.h>

#include "wire/auth.h"
#include "codec/proto.h"

/* Bounds every step of the handshake with a silent peer. */
#define GB_HANDSHAKE_MS	5000

/* Beyond enum proto_status. */
#define CTL_E_IO	(-10)	/* errno in the message */
#define CTL_E_TIMEOUT	(-11)
#define CTL_E_EOF	(-12)	/* peer closed */

/*
 * Send a message, sealed when a (the session's keys) is not NULL.
 * ctl_send_buf sends an encoded one as it is.
 */
int	ctl_send(int fd, const struct proto_msg *, struct auth_session *a,
	    int timeout_ms, char *err, size_t errlen);
int	ctl_send_buf(int fd, const uint8_t *buf, size_t len, int type,
	    int timeout_ms, char *err, size_t errlen);
/*
 * A refusal or an error with text, plain, within 1 s and with no report:
 * for a connection that is being dropped, whose peer may not read.
 */
void	ctl_send_simple(int fd, int type, int refusal, const char *text);
/* Read one whole message; PROTO_OK or a negative status, reason in err. */
int	ctl_recv(int fd, struct proto_msg *, struct auth_session *a,
	    int timeout_ms, char *err, size_t errlen);
/*
 * The same, going on with what reader r holds of a message so far (one
 * that an event loop fed with ctl_read_some()); r is reset after.
 */
int	ctl_recv_from(int fd, struct proto_reader *r, struct proto_msg *,
	    struct auth_session *a, int timeout_ms, char *err, size_t errlen);
/*
 * Decode the complete message in r.  With a, it must be sealed and its tag
 * right (PROTO_E_AUTH otherwise), except a refusal: a listener that cannot
 * check the client's key cannot seal, and a refusal only ends the test.
 */
int	ctl_decode(struct proto_reader *r, struct auth_session *a,
	    struct proto_msg *, char *err, size_t errlen);
/*
 * Read what is available without waiting into r; 1 when a message is
 * complete, 0 when more is needed, or a negative status.
 */
int	ctl_read_some(int fd, struct proto_reader *, char *err, size_t errlen);

#endif /* GB_CTL_H */
