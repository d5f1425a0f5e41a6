/*
 * rolecfg.c: fills the roles' configurations from struct gb_opts
 * (cli/rolecfg.h) and prints for them: interval lines on the caller's
 * stream, log lines on stderr.  It decides nothing about a test.
 */
#include <stdio.h>
#include <string.h>

#include "cli/rolecfg.h"
#include "out/report.h"

static void
on_interval(const struct gb_interval *iv, const struct gb_interval *peer,
    int is_tx, void *arg)
{
	const struct rolecfg_out *out = arg;

	report_interval_line(out->intervals, iv, peer, is_tx, out->unit);
	fflush(out->intervals);
}

/* This end's params line, as the test starts (out/report.h). */
static void
on_start(const struct gb_result *r, void *arg)
{
	const struct rolecfg_out *out = arg;

	report_header_line(out->intervals, r, r->local_is_sender);
	fflush(out->intervals);
}

static void
on_log(const char *head, const char *text, void *arg)
{
	const struct rolecfg_out *out = arg;
	FILE *f = out->log != NULL ? out->log : stderr;

	fprintf(f, "gigebench: %s%s%s\n", head != NULL ? head : "",
	    head != NULL ? ": " : "", text);
	fflush(f);
}

static void
role_fill(struct role_config *rc, const struct gb_opts *o,
    const struct hoststat_roots *roots, const struct auth_key *psk,
    struct rolecfg_out *out)
{
	memset(rc, 0, sizeof(*rc));
	out->unit = o->unit;
	rc->port = o->port;
	rc->family = o->family;
	rc->bind_addr = o->bind_addr;
	rc->bind_dev = o->bind_dev;
	rc->cport = o->cport;
	rc->iface = o->iface;
	rc->verbose = o->verbose;
	rc->quiet = o->quiet;
	rc->bounds = &o->bounds;
	rc->roots = roots;
	rc->psk = psk;
	rc->title = o->title;
	rc->command = o->command;
	rc->start_cb = out->intervals != NULL ? on_start : NULL;
	rc->interval_cb = out->intervals != NULL ? on_interval : NULL;
	rc->log_cb = on_log;
	rc->arg = out;
}

void
rolecfg_client(struct client_config *cc, const struct gb_opts *o,
    const struct hoststat_roots *roots, const struct auth_key *psk,
    struct rolecfg_out *out)
{
	memset(cc, 0, sizeof(*cc));
	role_fill(&cc->role, o, roots, psk, out);
	cc->host = o->host;
	cc->params = &o->params;
}

void
rolecfg_server(struct server_config *sc, const struct gb_opts *o,
    const struct hoststat_roots *roots, const struct auth_key *psk,
    struct rolecfg_out *out)
{
	memset(sc, 0, sizeof(*sc));
	role_fill(&sc->role, o, roots, psk, out);
	sc->once = o->once;
	sc->allow_reverse = o->allow_reverse;
	sc->allow_mtu = o->allow_mtu;
}
