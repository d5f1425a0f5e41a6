/*
 * opts_check.c: the combinations of options, once the whole command line
 * is read: one role, one address family, one data path per end, the
 * listener's own options without a host, the interval within the test,
 * and, at every point of a sweep, what the listener would refuse
 * (params_check), so that it is a usage error here and not a refusal
 * half way through.  Writes only the message of opts_state.h; no I/O.
 */
#include <stdio.h>
#include <string.h>

#include "base/params.h"
#include "base/result.h"
#include "base/sweep.h"
#include "cli/opts.h"
#include "opts_state.h"

/* Each point of a sweep (or the one test) as the listener checks it. */
static int
opts_points_ok(const struct gb_opts *o, char *why, size_t len)
{
	struct gb_params	 p;
	struct sweep_setting	 set;
	unsigned		 i, n = sweep_npoints(&o->sweep);
	char			 sub[GB_ERR_LEN], v[32];

	for (i = 0; i < n; i++) {
		p = o->params;
		memset(&set, 0, sizeof(set));
		sweep_apply(&o->sweep, i, &p, &set);
		params_dgram_len_floor(&p);
		if (params_check(&p, sub, sizeof(sub)) == 0)
			continue;
		if (o->sweep.naxes == 0)
			snprintf(why, len, "%s", sub);
		else
			snprintf(why, len, "--sweep point %u (%s=%s): %.180s",
			    i + 1,
			    sweep_param_name(o->sweep.axes[0].param),
			    sweep_value_text(&o->sweep, 0, i, v, sizeof(v)),
			    sub);
		return -1;
	}
	return 0;
}

/* One path per end: -Z or --sendfile; --skip-rx-copy or --splice. */
static int
opts_paths(struct opts_state *st)
{
	if (st->zflag && st->sendfile) {
		snprintf(st->name, sizeof(st->name), "--sendfile");
		return opts_error(st, "cannot be used with -Z");
	}
	if (st->skip_rx_copy && st->splice) {
		snprintf(st->name, sizeof(st->name), "--splice");
		return opts_error(st, "cannot be used with --skip-rx-copy");
	}
	return OPTS_OK;
}

/*
 * -u: no TCP-only option; -R and --batch only with it.  Without -l, each
 * datagram fills the path MTU; without -R, GB_DEFAULT_UDP_BPS (not with
 * --rr, whose requests and answers are a header's length by default).
 */
static int
opts_udp(struct gb_opts *o, struct opts_state *st)
{
	struct gb_params *p = &o->params;
	const char *tcp = p->mss != 0 ? "-M" : p->nodelay ? "-D" :
	    p->cc[0] != '\0' ? "-C" : st->zflag ? "-Z" : st->sendfile ?
	    "--sendfile" : st->splice ? "--splice" : st->skip_rx_copy ?
	    "--skip-rx-copy" : NULL;

	if (!p->udp) {
		if (!st->rate && !st->batch && !p->gso && !p->gro)
			return OPTS_OK;
		snprintf(st->name, sizeof(st->name), "%s", st->rate ? "-R" :
		    st->batch ? "--batch" : p->gso ? "--gso" : "--gro");
		return opts_error(st, "is for UDP tests: add -u");
	}
	if (o->host == NULL) {
		snprintf(st->name, sizeof(st->name), "-u");
		return opts_error(st, "only a client takes it (a listener "
		    "serves TCP and UDP tests)");
	}
	if (tcp == NULL && sweep_has(&o->sweep, SWEEP_CC))
		tcp = "--sweep cc=";
	if (tcp == NULL && sweep_has(&o->sweep, SWEEP_MSS))
		tcp = "--sweep mss=";
	if (tcp != NULL) {
		snprintf(st->name, sizeof(st->name), "%s", tcp);
		return opts_error(st, "is for TCP tests, not with -u");
	}
	if (!st->lflag)
		p->buflen = GB_DGRAM_FROM_MTU;
	if (!st->rate && !p->rr)	/* --rr: a request awaits its answer */
		p->rate_bps = GB_DEFAULT_UDP_BPS;
	/* --rr: a datagram holds at least its header; that by default. */
	if (p->rr && p->req_size == 0)
		p->req_size = GB_MIN_DGRAM;
	if (p->rr && p->resp_size == 0)
		p->resp_size = GB_MIN_DGRAM;
	return OPTS_OK;
}

/*
 * --sweep's axes of --rr need --rr; and --rr has no use for -l or -R, so
 * sweeping them would run the same test under other names.
 */
static int
opts_rr_sweep(const struct gb_opts *o, struct opts_state *st)
{
	static const int rr_axes[] = { SWEEP_REQ_SIZE, SWEEP_RESP_SIZE,
	    SWEEP_BURST };
	static const int not_rr[] = { SWEEP_LENGTH, SWEEP_RATE };
	size_t i;

	for (i = 0; o->host != NULL && i < sizeof(rr_axes) /
	    sizeof(rr_axes[0]); i++) {
		if (o->params.rr || !sweep_has(&o->sweep, rr_axes[i]))
			continue;
		snprintf(st->name, sizeof(st->name), "--sweep %s=",
		    sweep_param_name(rr_axes[i]));
		return opts_error(st, "needs --rr");
	}
	for (i = 0; o->params.rr && i < sizeof(not_rr) / sizeof(not_rr[0]);
	    i++) {
		if (!sweep_has(&o->sweep, not_rr[i]))
			continue;
		snprintf(st->name, sizeof(st->name), "--sweep %s=",
		    sweep_param_name(not_rr[i]));
		return opts_error(st, "is not for --rr (sweep request-size=, "
		    "response-size= or burst=)");
	}
	if (o->params.crr && sweep_has(&o->sweep, SWEEP_BURST)) {
		snprintf(st->name, sizeof(st->name), "--sweep burst=");
		return opts_error(st, "cannot be used with --crr (one "
		    "transaction a connection)");
	}
	return OPTS_OK;
}

/*
 * --cport N: stream i binds N + i, within the ports (--bidir: 2 x -P
 * streams; not with --crr, whose every transaction needs a new port).
 * --rr's sizes and burst need --rr, and so do its sweep axes.
 * --json-stream follows one test, not the many of a sweep.
 */
static int
opts_stream_check(const struct gb_opts *o, struct opts_state *st)
{
	if (o->cport != 0 && (uint32_t)o->cport + params_conns(&o->params) -
	    1 > 65535) {
		snprintf(st->name, sizeof(st->name), "--cport");
		return opts_error(st, "port %u with -P %u%s needs ports past "
		    "65535", (unsigned)o->cport, o->params.streams,
		    o->params.bidir ? " --bidir" : "");
	}
	if (o->host != NULL && !o->params.rr && (o->params.req_size != 0 ||
	    o->params.resp_size != 0 || o->params.rr_burst != 0)) {
		snprintf(st->name, sizeof(st->name), "%s",
		    o->params.req_size != 0 ? "--request-size" :
		    o->params.resp_size != 0 ? "--response-size" : "--rr-burst");
		return opts_error(st, "needs --rr");
	}
	if (o->host != NULL && o->params.rr_timeout_ms != 0 &&
	    !(o->params.rr && o->params.udp)) {
		snprintf(st->name, sizeof(st->name), "--rr-timeout");
		return opts_error(st, "needs -u --rr");
	}
	if (o->params.crr && (o->params.rr_burst != 0 || o->cport != 0)) {
		snprintf(st->name, sizeof(st->name), "%s",
		    o->params.rr_burst != 0 ? "--rr-burst" : "--cport");
		return opts_error(st, "cannot be used with --crr (%s)",
		    o->params.rr_burst != 0 ? "one transaction a connection" :
		    "each transaction connects from a new port");
	}
	if (opts_rr_sweep(o, st) == OPTS_ERROR)
		return OPTS_ERROR;
	if (o->flow_csv_path != NULL && (o->sweep.naxes != 0 ||
	    o->repeat > 1 || o->conf_level != 0)) {
		snprintf(st->name, sizeof(st->name), "--flow-csv");
		return opts_error(st, "follows one test: a sweep, --repeat or "
		    "--confidence runs many");
	}
	if (!o->json_stream || (o->sweep.naxes == 0 && o->repeat <= 1 &&
	    o->conf_level == 0 && o->csv_path == NULL && o->plot_path == NULL))
		return OPTS_OK;
	snprintf(st->name, sizeof(st->name), "--json-stream");
	return opts_error(st, "follows one test: a sweep, --repeat, "
	    "--confidence, --csv or --plot runs many (their --json has every "
	    "run)");
}

/* The combinations, once the whole line is known. */
int
opts_check(struct gb_opts *o, struct opts_state *st)
{
	struct gb_params	*p = &o->params;
	char			 dur[32], why[GB_ERR_LEN];

	if (st->restore) {
		if (st->tflag || st->rflag || st->Sflag || o->host != NULL)
			return opts_error(st, "--restore takes no other role "
			    "or host");
		o->role = GB_ROLE_RESTORE;
		return OPTS_OK;
	}
	if (!st->tflag && !st->rflag && !st->Sflag)
		return opts_error(st, "one of -t, -r or -S is needed");
	snprintf(st->name, sizeof(st->name), "%s",
	    st->tflag ? "-t" : st->Sflag ? "-S" : "-r");
	if (st->tflag && st->rflag)
		return opts_error(st, "cannot be used with -r");
	if (st->tflag && st->Sflag)
		return opts_error(st, "cannot be used with -S");
	if (st->tflag && o->host == NULL)
		return opts_error(st, "needs a host to transmit to");
	if (st->Sflag && o->host != NULL)
		return opts_error(st, "takes no host: %s", o->host);
	if (st->inet4 && st->inet6) {
		snprintf(st->name, sizeof(st->name), "-6");
		return opts_error(st, "cannot be used with -4");
	}

	if (opts_stream_check(o, st) == OPTS_ERROR)
		return OPTS_ERROR;
	if (p->mtu != 0 && sweep_has(&o->sweep, SWEEP_MTU)) {
		snprintf(st->name, sizeof(st->name), "--mtu");
		return opts_error(st, "cannot be used with --sweep mtu=...");
	}
	if (opts_paths(st) == OPTS_ERROR)
		return OPTS_ERROR;
	if (p->cc[0] != '\0' && sweep_has(&o->sweep, SWEEP_CC)) {
		snprintf(st->name, sizeof(st->name), "-C");
		return opts_error(st, "cannot be used with --sweep cc=...");
	}
	o->role = o->host != NULL ? GB_ROLE_CONNECT : GB_ROLE_LISTEN;
	if (o->role == GB_ROLE_LISTEN && st->client_only[0] != '\0')
		snprintf(o->warning, sizeof(o->warning), "the connecting side "
		    "decides %s: a listener ignores %s", st->client_only,
		    strchr(st->client_only, ',') != NULL ? "them" : "it");
	if (o->host != NULL && st->listener_only[0] != '\0') {
		snprintf(st->name, sizeof(st->name), "%s", st->listener_only);
		return opts_error(st, "only a listener takes it (no host): %s",
		    o->host);
	}
	p->direction = st->rflag && o->host != NULL ?
	    GB_DIR_CLIENT_RECEIVES : GB_DIR_CLIENT_SENDS;
	if (opts_udp(o, st) == OPTS_ERROR ||
	    opts_underload_check(o, st) == OPTS_ERROR)
		return OPTS_ERROR;
	/* --rr, TCP: Nagle would hold a burst's requests for an ACK. */
	if (p->rr && !p->udp)
		p->nodelay = 1;
	/* ttcp's -n alone runs until the count is done. */
	if (p->nbuf != 0 && st->duration_arg == NULL)
		p->duration_ms = GB_MAX_DURATION_MS;
	if (p->interval_ms > p->duration_ms) {
		if (st->duration_arg == NULL)
			snprintf(dur, sizeof(dur), "%u",
			    GB_DEFAULT_DURATION_MS / 1000);
		else
			snprintf(dur, sizeof(dur), "%s", st->duration_arg);
		snprintf(st->name, sizeof(st->name), "-i");
		return opts_error(st, "report interval is longer than the "
		    "test (-T %s): %s", dur, st->interval_arg);
	}
	/* What the listener would refuse is a usage error here, at every
	 * point of a sweep, not half way through it. */
	if (opts_points_ok(o, why, sizeof(why)) == -1) {
		*st->name = '\0';
		return opts_error(st, "%s", why);
	}
	return OPTS_OK;
}
