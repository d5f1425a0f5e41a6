/*
 * underload.c: --under-load's phases (cli/underload.h), each two
 * ordinary tests (client_run) against the same listener: the idle
 * reference is params_probe's test alone, the loaded one the phase's
 * load (bloat_phase_params) with params.probes beside it.  The idle
 * test runs first so that no queue the load left behind is in it.  A
 * phase that fails is reported as failed and the next one still runs;
 * a refusal or Ctrl-C ends the run.  Progress goes to stderr when it
 * is a terminal.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/bloat.h"
#include "cli/rolecfg.h"
#include "cli/underload.h"
#include "out/bloat_report.h"
#include "out/plot.h"
#include "out/report.h"
#include "run/client.h"

struct underload {
	const struct gb_opts		*o;
	const struct hoststat_roots	*roots;
	const struct auth_key		*psk;
	struct gb_opts			*run;	/* one test's options */
	int				 progress;
};

/*
 * The tests' slices, of this or of a shorter -T, and longer where the
 * slices of a long -T would not all be kept: the loaded test's always
 * (the self probes), the idle one's for --plot.
 */
static uint32_t
underload_slice_ms(const struct gb_opts *o, const struct gb_params *p,
    int loaded)
{
	uint64_t all = (uint64_t)p->omit_ms + p->duration_ms;
	uint32_t ms = UNDERLOAD_SLICE_MS;

	if (o->plot_path == NULL && !loaded)
		return 0;
	if (all / ms >= GB_MAX_INTERVALS - 1)
		ms = (uint32_t)(all / (GB_MAX_INTERVALS - 1) + 1);
	return p->duration_ms < ms ? p->duration_ms : ms;
}

/* One test of a phase with run's params, into r. */
static int
underload_test(struct underload *u, const char *what, struct gb_result *r,
    char *err, size_t errlen)
{
	struct rolecfg_out lines = { .intervals = NULL };
	struct client_config cc;

	if (u->progress) {
		fprintf(stderr, "gigebench: %s, %g s ...\n", what,
		    u->run->params.duration_ms / 1000.0);
		fflush(stderr);
	}
	rolecfg_client(&cc, u->run, u->roots, u->psk, &lines);
	memset(r, 0, sizeof(*r));
	return client_run(&cc, r, err, errlen);
}

/* A phase's two tests; a status that ends the run, else CLIENT_OK. */
static int
underload_phase(struct underload *u, struct bloat_run *run, char *err,
    size_t errlen)
{
	const struct gb_params *load = &u->o->params;
	char what[64];
	int rc;

	snprintf(what, sizeof(what), "%s: idle reference",
	    bloat_phase_name(run->phase));
	params_probe(load, &u->run->params);
	u->run->params.omit_ms = 0;	/* no load: nothing to wait for */
	u->run->params.duration_ms = load->duration_ms < UNDERLOAD_IDLE_MS ?
	    load->duration_ms : UNDERLOAD_IDLE_MS;
	u->run->params.interval_ms = underload_slice_ms(u->o,
	    &u->run->params, 0);
	rc = underload_test(u, what, run->idle, run->error,
	    sizeof(run->error));
	if (rc == CLIENT_OK) {
		snprintf(what, sizeof(what), "%s: load and probes",
		    bloat_phase_name(run->phase));
		bloat_phase_params(load, run->phase, &u->run->params);
		u->run->params.interval_ms = underload_slice_ms(u->o,
		    &u->run->params, 1);
		rc = underload_test(u, what, run->loaded, run->error,
		    sizeof(run->error));
	}
	if (rc == CLIENT_OK) {
		bloat_from_results(run);
		return CLIENT_OK;
	}
	fprintf(stderr, "gigebench: phase %s: %s\n",
	    bloat_phase_name(run->phase), run->error);
	if (rc == CLIENT_REFUSED || rc == CLIENT_INTERRUPTED) {
		snprintf(err, errlen, "%s", run->error);
		return rc;
	}
	return CLIENT_OK;
}

/* The report on stdout, and with --csv its rows into csv; 0 or -1. */
static int
underload_print(const struct gb_opts *o, const struct bloat_run *runs,
    unsigned n, FILE *csv, char *err, size_t errlen)
{
	struct bloat_report b = {
		.probes = o->params.probes,
		.probe_rate = o->params.probe_rate,
		.probe_crr = o->params.probe_crr,
		.udp_load = o->params.udp,
		.idle_ms = o->params.duration_ms < UNDERLOAD_IDLE_MS ?
		    o->params.duration_ms : UNDERLOAD_IDLE_MS,
		.omit_ms = o->params.omit_ms,
		.duration_ms = o->params.duration_ms,
		.unit = o->unit, .nruns = n, .runs = runs,
	};

	if (o->json)
		report_json_print(stdout, bloat_report_json(&b));
	else
		bloat_report_text(stdout, &b);
	fflush(stdout);
	if (o->plot_path != NULL && plot_available() &&
	    plot_write_bloat(o->plot_path, runs, n, o->title, err,
	    errlen) == -1)
		return -1;
	if (csv == NULL)
		return 0;
	bloat_report_csv(csv, &b);
	if (fflush(csv) == 0 && !ferror(csv))
		return 0;
	snprintf(err, errlen, "--csv: writing %s: %s", o->csv_path,
	    strerror(errno));
	return -1;
}

int
underload_run(const struct gb_opts *o, const struct hoststat_roots *roots,
    const struct auth_key *psk, char *err, size_t errlen)
{
	struct underload u = {
		.o = o, .roots = roots, .psk = psk,
		.progress = !o->quiet && isatty(STDERR_FILENO),
	};
	struct bloat_run runs[GB_PHASE_COUNT];
	unsigned i, n = 0, ok = 0;
	FILE *csv = NULL;
	int rc = CLIENT_OK;

	memset(runs, 0, sizeof(runs));
	if (o->plot_path != NULL && !plot_available())
		fprintf(stderr, "gigebench: --plot: gnuplot is not installed "
		    "(apt-get install gnuplot-nox); the report still has the "
		    "figures\n");
	if (o->csv_path != NULL && (csv = fopen(o->csv_path, "w")) == NULL) {
		snprintf(err, errlen, "--csv: cannot create %s: %s",
		    o->csv_path, strerror(errno));
		return CLIENT_FAILED;
	}
	if ((u.run = malloc(sizeof(*u.run))) == NULL)
		goto nomem;
	*u.run = *o;
	for (i = 0; i < o->nphases; i++)
		if ((runs[i].idle = calloc(1, sizeof(*runs[i].idle))) == NULL ||
		    (runs[i].loaded = calloc(1,
		    sizeof(*runs[i].loaded))) == NULL)
			goto nomem;
	for (n = 0; n < o->nphases && rc == CLIENT_OK; n++) {
		runs[n].phase = o->phases[n];
		rc = underload_phase(&u, &runs[n], err, errlen);
		ok += runs[n].ok;
	}
	if ((ok > 0 || rc == CLIENT_OK) &&
	    underload_print(o, runs, n, csv, err, errlen) == -1)
		rc = CLIENT_FAILED;
	if (rc == CLIENT_OK && ok < n) {
		snprintf(err, errlen, "%u of %u phases failed", n - ok, n);
		rc = CLIENT_FAILED;
	}
	goto out;
nomem:
	snprintf(err, errlen, "out of memory");
	rc = CLIENT_FAILED;
out:
	for (i = 0; i < GB_PHASE_COUNT; i++) {
		free(runs[i].idle);
		free(runs[i].loaded);
	}
	free(u.run);
	if (csv != NULL && fclose(csv) != 0 && rc == CLIENT_OK) {
		snprintf(err, errlen, "--csv: writing %s: %s", o->csv_path,
		    strerror(errno));
		rc = CLIENT_FAILED;
	}
	return rc;
}
