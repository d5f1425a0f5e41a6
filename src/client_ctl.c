/*
 * client_ctl.c: the connecting side's control conversation
 * (client_state.h): messages sent and awaited with deadlines (ctl.c),
 * what a refusal or an error from the listener means as an exit status,
 * and the listener's -i slices, which may come before any awaited
 * message once the transfer runs, paired with ours into the lines.
 */
#include <inttypes.h>
#include <stdio.h>

#include "base/monotime.h"
#include "data/xfer.h"
#include "host/sock.h"
#include "client_state.h"
#include "run/role.h"
#include "wire/ctl.h"

void
client_trace(const struct client *c, const char *what, const char *detail)
{
	if (detail != NULL)
		role_log(&c->cfg->role, 2, what, detail);
	else
		role_log(&c->cfg->role, 2, NULL, what);
}

/*
 * A refusal, a header from another program or version, or a message that
 * fails authentication: exit 3.
 */
static int
status_of(int rc)
{
	return rc == PROTO_E_MAGIC || rc == PROTO_E_VERSION ||
	    rc == PROTO_E_AUTH ? CLIENT_REFUSED : CLIENT_FAILED;
}

struct auth_session *
client_keys(struct client *c)
{
	return role_keys(&c->auth, c->authed);
}

/*
 * -i: the interval lines that can be printed.  Line k waits for the
 * listener's slice k, which comes over the control connection a moment
 * after ours; once our next slice is in (or the test is over: final) it
 * is printed with whatever has come.
 */
/* One direction's slices: ours, the listener's, how many are shown. */
struct iv_track {
	const struct gb_interval *mine, *peer;
	unsigned		 n, npeer, *shown;
	int			 is_tx;
};

static void
show_track(struct client *c, const struct iv_track *t, int final)
{
	unsigned k;

	while ((k = *t->shown) < t->n) {
		if (k >= t->npeer && !final && k + 1 >= t->n)
			return;
		role_interval(&c->cfg->role, &t->mine[k],
		    k < t->npeer ? &t->peer[k] : NULL, t->is_tx);
		(*t->shown)++;
	}
}

/* Each direction's lines: the forward one's, --bidir's reverse one's. */
static void
show_intervals(struct client *c, int final)
{
	const struct gb_result *r = c->r;
	struct iv_track fwd = { r->intervals, r->peer_intervals,
	    r->nintervals, r->npeer_intervals, &c->shown, c->is_tx };
	struct iv_track rev = { r->rintervals, r->rpeer_intervals,
	    r->nrintervals, r->nrpeer_intervals, &c->rshown, !c->is_tx };

	show_track(c, &fwd, final);
	show_track(c, &rev, final);
}

/* Keep a slice in its direction's list: --bidir's reverse ones apart. */
static void
keep_interval(struct gb_interval *list, unsigned *n,
    const struct gb_interval *iv)
{
	if (*n < GB_MAX_INTERVALS)
		list[(*n)++] = *iv;
}

void
client_peer_interval(struct client *c, const struct gb_interval *iv)
{
	struct gb_result *r = c->r;

	if (iv->reverse && c->p->bidir)
		keep_interval(r->rpeer_intervals, &r->nrpeer_intervals, iv);
	else if (!iv->reverse)
		keep_interval(r->peer_intervals, &r->npeer_intervals, iv);
	show_intervals(c, 0);
}

void
client_local_interval(struct client *c, const struct gb_interval *iv)
{
	struct gb_result *r = c->r;

	if (iv->reverse)
		keep_interval(r->rintervals, &r->nrintervals, iv);
	else
		keep_interval(r->intervals, &r->nintervals, iv);
	show_intervals(c, 0);
}

/*
 * The listener's last slices past our last one (its last moment was a
 * slice of its own where ours joined the one before): into its slice of
 * our last index, so that its slices add up to its bytes too.
 */
static void
fold_peer_tail(unsigned n, struct gb_interval *peer, unsigned *npeer)
{
	struct gb_interval *last, *iv;
	unsigned k;

	if (n == 0 || *npeer <= n)
		return;
	last = &peer[n - 1];
	for (k = n; k < *npeer; k++) {
		iv = &peer[k];
		last->bytes += iv->bytes;
		last->end_s = iv->end_s > last->end_s ? iv->end_s : last->end_s;
		last->retrans += iv->retrans;
		last->datagrams += iv->datagrams;
		last->lost += iv->lost;
		if (iv->has_udp)
			last->jitter_ms = iv->jitter_ms;
	}
	*npeer = n;
}

void
client_flush_intervals(struct client *c)
{
	struct gb_result *r = c->r;

	fold_peer_tail(r->nintervals, r->peer_intervals, &r->npeer_intervals);
	fold_peer_tail(r->nrintervals, r->rpeer_intervals,
	    &r->nrpeer_intervals);
	show_intervals(c, 1);
}

/*
 * The next message but the listener's interval messages, which may come
 * before any other once the transfer runs: those are taken as they come.
 */
int
client_recv(struct client *c, struct proto_msg *m, int timeout_ms, char *sub,
    size_t sublen)
{
	int64_t deadline = monotime_ms() + timeout_ms;
	int rc;

	for (;;) {
		rc = ctl_recv_from(c->ctl, &c->rd, m, client_keys(c), timeout_ms,
		    sub, sublen);
		if (rc != PROTO_OK || m->type != PROTO_INTERVAL)
			return rc;
		client_peer_interval(c, &m->interval);
		if ((timeout_ms = (int)(deadline - monotime_ms())) < 0)
			timeout_ms = 0;
	}
}

int
client_expect(struct client *c, int type, struct proto_msg *m, int timeout_ms,
    char *err, size_t errlen)
{
	char sub[GB_ERR_LEN];
	int rc;

	rc = client_recv(c, m, timeout_ms, sub, sizeof(sub));
	if (rc == CTL_E_TIMEOUT && !c->heard) {
		/* It took the connection and the hello and said nothing. */
		snprintf(err, errlen, "no reply from %s:%u in %g s: is a "
		    "gigebench listener running there? (a classic ttcp "
		    "receiver needs --ttcp)", c->cfg->host,
		    (unsigned)c->cfg->role.port, timeout_ms / 1000.0);
		return CLIENT_REFUSED;
	}
	if (rc != PROTO_OK) {
		snprintf(err, errlen, "waiting for %s from %s: %s",
		    proto_type_str(type), c->cfg->host, sub);
		return status_of(rc);
	}
	c->heard = 1;
	client_trace(c, "received", proto_type_str(m->type));
	if (m->type == PROTO_REFUSE) {
		snprintf(err, errlen, "refused by %s (%s): %s",
		    c->cfg->host, proto_refusal_str(m->refusal),
		    m->message);
		return CLIENT_REFUSED;
	}
	if (m->type == PROTO_ERROR) {
		snprintf(err, errlen, "error from %s: %s",
		    c->cfg->host, m->message);
		return CLIENT_FAILED;
	}
	if (m->type == PROTO_CHALLENGE && type != PROTO_CHALLENGE) {
		snprintf(err, errlen, "%s wants a pre-shared key: run with "
		    "--psk FILE", c->cfg->host);
		return CLIENT_REFUSED;
	}
	if (m->type != type) {
		snprintf(err, errlen, "protocol error: %s sent %s, expected %s",
		    c->cfg->host, proto_type_str(m->type),
		    proto_type_str(type));
		return CLIENT_FAILED;
	}
	return CLIENT_OK;
}

int
client_send(struct client *c, struct proto_msg *m, int fd, char *err,
    size_t errlen)
{
	char sub[GB_ERR_LEN];

	client_trace(c, "sending", proto_type_str(m->type));
	if (ctl_send(fd, m, fd == c->ctl ? client_keys(c) : NULL, GB_HANDSHAKE_MS,
	    sub, sizeof(sub)) != PROTO_OK) {
		snprintf(err, errlen, "%s: %s", c->cfg->host, sub);
		return CLIENT_FAILED;
	}
	return CLIENT_OK;
}

/*
 * A descriptor a flow, two with --crr (and the few of our own): the
 * soft RLIMIT_NOFILE raised as far as the hard one lets it, else the
 * test is refused here.
 */
#define CLIENT_OWN_FDS	64u

int
client_nofile(struct client *c, char *err, size_t errlen)
{
	/* --crr: a transaction's connection a flow more. */
	uint64_t want = (uint64_t)params_conns(c->p) * (c->p->crr ? 2 : 1) +
	    CLIENT_OWN_FDS;
	uint64_t have = sock_raise_nofile(want);

	if (have == 0 || have >= want)
		return CLIENT_OK;
	snprintf(err, errlen, "%u flows need about %" PRIu64 " descriptors; "
	    "RLIMIT_NOFILE is %" PRIu64 " (raise it with ulimit -n)",
	    params_conns(c->p), want, have);
	return CLIENT_FAILED;
}

void
client_flows(struct client *c, int partial)
{
	const struct gb_stream *f;
	struct xfer *rev;
	unsigned n;

	if (c->cfg->flows_cb == NULL)
		return;
	f = xfer_flows(c->x, &n);
	c->cfg->flows_cb(c->cfg->flows_arg, f, n, 0, c->is_tx, c->p->rr,
	    partial);
	if ((rev = xfer_reverse(c->x)) != NULL) {
		f = xfer_flows(rev, &n);
		c->cfg->flows_cb(c->cfg->flows_arg, f, n, c->p->streams,
		    !c->is_tx, c->p->rr, partial);
	}
}
