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

	if (out->events != NULL) {
		report_json_line(out->events, report_interval_event(iv, peer));
		fflush(out->events);
		return;
	}
	report_interval_line(out->intervals, iv, peer, is_tx, out->unit);
	fflush(out->intervals);
}

/* This end's params line, as the test starts (out/report.h). */
static void
on_start(const struct gb_result *r, void *arg)
{
	const struct rolecfg_out *out = arg;

	if (out->events != NULL) {
		report_json_line(out->events, report_start_event(r));
		fflush(out->events);
		return;
	}
	report_header_line(out->intervals, r, r->local_is_sender);
	fflush(out->intervals);
}

/*
 * Redrawn in place with a carriage return, as a sweep's progress is, and
 * wiped with blanks at the end: no terminal escapes needed.
 */
static void
on_progress(const struct gb_progress *pg, void *arg)
{
	struct rolecfg_out *out = arg;
	char text[160];
	int n;

	if (pg->done) {
		if (out->progress_len > 0)
			fprintf(stderr, "\r%*s\r", out->progress_len, "");
		out->progress_len = 0;
	} else {
		report_progress_text(text, sizeof(text), pg, out->unit);
		n = fprintf(stderr, "\rgigebench: %s   ", text);
		if (n - 1 > out->progress_len)
			out->progress_len = n - 1;
	}
	fflush(stderr);
}

static void
on_log(const char *head, const char *text, void *arg)
{
	struct rolecfg_out *out = arg;
	FILE *f = out->log != NULL ? out->log : stderr;

	if (out->progress_len > 0) {	/* a log line below the progress */
		fprintf(stderr, "\r%*s\r", out->progress_len, "");
		out->progress_len = 0;
	}
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
	rc->start_cb = out->intervals != NULL || out->events != NULL ?
	    on_start : NULL;
	rc->interval_cb = out->intervals != NULL || out->events != NULL ?
	    on_interval : NULL;
	rc->progress_cb = out->progress ? on_progress : NULL;
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
	sc->allow_profile = o->allow_profile;
}
