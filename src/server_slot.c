/*
 * server_slot.c: the listener's one test slot and the sessions waiting
 * for it (server_session.h).  A session holds the slot (srv->sess) only
 * once it is authenticated and every data connection has arrived (one
 * that changes the MTU: once it is accepted, server_accept.c); until
 * then it is one of srv->hs, capped in all and per source, and a hello
 * is refused as busy only while a test runs.  When two sessions race, the
 * first with all its streams wins; the other is refused as busy then.  A
 * hello that leads to no test counts against its source (authlimit).
 * It decides who holds the slot, never what a session does in its state
 * (server_session.c's table) or how it is torn down (server_accept.c).
 * The token compare that proves a stream belongs is here, with the race.
 */
#include <stdio.h>
#include <string.h>

#include "base/monotime.h"
#include "server_session.h"

void
session_enlist(struct server *s, struct session *ss)
{
	struct session **pp = &s->hs;

	while (*pp != NULL)
		pp = &(*pp)->next;
	ss->next = NULL;
	*pp = ss;
	s->nhs++;
}

/* Out of s->hs (it runs now, or ends); 1 if it was there. */
static int
session_delist(struct server *s, const struct session *ss)
{
	struct session **pp;

	for (pp = &s->hs; *pp != NULL; pp = &(*pp)->next)
		if (*pp == ss) {
			*pp = ss->next;
			s->nhs--;
			return 1;
		}
	return 0;
}

void
session_leave(struct session *ss)
{
	struct server *s = ss->srv;

	if (s->sess == ss)
		s->sess = NULL;
	else
		session_delist(s, ss);
}

enum session_state
session_unfinished(struct session *ss, const char *why)
{
	if (ss->srv->authlimit != NULL)
		authlimit_fail(ss->srv->authlimit, ss->result->peer,
		    monotime_ms());
	return session_fail(ss, why);
}

const char *
session_room(struct server *s, const struct pconn *pc, char *buf,
    size_t len)
{
	struct session *ss;
	char src[64];
	unsigned n = 0;

	if (s->sess != NULL)
		return "the listener is busy with another test; try again "
		    "later";
	for (ss = s->hs; ss != NULL; ss = ss->next)
		n += srccap_key_equal(&ss->src, &pc->key);
	if (n >= SESSION_MAX_HANDSHAKES_PER_SRC) {
		snprintf(buf, len, "the listener is busy: %u unfinished "
		    "handshakes from %s already; try again later", n,
		    srccap_key_text(&pc->key, src, sizeof(src)));
		return buf;
	}
	/* Full: the oldest gives way; a real client's handshake is quick. */
	if (s->nhs >= SESSION_MAX_HANDSHAKES && s->hs != NULL)
		session_fail(s->hs, "too many unfinished handshakes on the "
		    "listener: this one, the oldest, is dropped");
	return NULL;
}

void
session_data(struct server *s, struct pconn *pc, const struct proto_msg *m)
{
	struct session_arg a = { .m = m, .pc = pc };
	struct session *ss, *to = s->sess;

	/* The token says whose stream this is; only an accepted one has it. */
	for (ss = s->hs; ss != NULL; ss = ss->next)
		if (ss->state == SS_ACCEPTED &&
		    session_token_equal(m->token, ss->token))
			to = ss;
	if (to == NULL)
		server_data_refused(pc);
	else
		session_event(to, SE_DATA, &a);
}

int
session_take_slot(struct session *ss)
{
	struct server *s = ss->srv;
	char err[GB_ERR_LEN];

	if (s->sess == ss)
		return 0;	/* taken at its acceptance (--mtu) */
	if (s->sess != NULL) {
		server_log(s, 1, ss->result->peer, "refused: busy (another "
		    "test got its data connections first)");
		session_refuse(ss, PROTO_REFUSE_BUSY, "the listener is busy "
		    "with another test; try again later");
		session_end(ss);
		return -1;
	}
	session_delist(s, ss);
	s->sess = ss;
	/*
	 * A hello alone must not flap the host's MTU: only now, as the test
	 * is accepted (server_accept.c), so a change this host cannot make
	 * is a refusal before any data, as the checks at the hello are.
	 */
	if (session_mtu(ss, 1, err, sizeof(err)) == -1) {
		server_log(s, 0, ss->result->peer, err);
		session_refuse(ss, PROTO_REFUSE_PARAMS, err);
		session_end(ss);
		return -1;
	}
	return 0;
}

void
server_stop_sessions(struct server *s, const char *why)
{
	char buf[GB_ERR_LEN];
	struct session_arg a = { .err = buf };

	while (s->sess != NULL || s->hs != NULL) {
		snprintf(buf, sizeof(buf), "%s", why);
		session_event(s->sess != NULL ? s->sess : s->hs, SE_STOP, &a);
	}
}

int
session_token_equal(const char *a, const char *b)
{
	unsigned char d = 0;
	size_t i;

	/* Constant time: the token is the only proof a stream belongs. */
	for (i = 0; i < PROTO_TOKEN_LEN; i++)
		d |= (unsigned char)(a[i] ^ b[i]);
	return d == 0;
}
