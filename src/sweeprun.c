/*
 * sweeprun.c: a sweep is the cross product of the --sweep axes, each
 * point run --repeat times (or, with --confidence, until the interval is
 * narrow enough or the repeat count is reached), each run an ordinary
 * test (client_run) against the same listener.  Results go to the CSV as
 * each run ends, so an interrupted sweep keeps what it measured; the
 * table, JSON and plot are made at the end from per-point statistics
 * (and, for one --rr test, from its runs' latencies merged).
 *
 * It owns no figures of its own: table.c summarises, csv.c and plot.c
 * render.  It prints progress on stderr when stderr is a terminal.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "run/client.h"
#include "out/csv.h"
#include "host/mtu.h"
#include "host/tcpcc.h"
#include "out/plot.h"
#include "out/report.h"
#include "cli/rolecfg.h"
#include "cli/sweeprun.h"
#include "base/lathist.h"
#include "base/monotime.h"
#include "out/table.h"

/* --confidence without --repeat: at most this many runs per point. */
#define SWEEPRUN_CONF_MAX	10
#define SWEEPRUN_CONF_MIN	3

struct sweeprun {
	const struct gb_opts		*o;
	const struct hoststat_roots	*roots;
	const struct auth_key		*psk;
	struct gb_opts			*run;	/* the point's options */
	struct gb_result		*r;
	FILE				*csv;
	json_t				*runs;	/* --json: every run */
	struct table_point		*points;
	struct lathist			*latency;	/* --rr, no axis */
	unsigned			 npoints;
	unsigned			 nfailed;
	int				 progress;
	time_t				 start;
	unsigned			 done, total;
};

int
sweeprun_wanted(const struct gb_opts *o)
{
	return o->sweep.naxes > 0 || o->repeat > 1 || o->conf_level > 0 ||
	    o->csv_path != NULL || o->plot_path != NULL;
}

/* Each congestion control must be one the kernel has. */
static int
cc_check(const struct sweeprun *w, const char *cc, char *err, size_t errlen)
{
	char avail[512];

	if (tcpcc_available(w->roots->procfs, avail, sizeof(avail)) == -1)
		return 0;	/* cannot tell: setsockopt will */
	if (tcpcc_listed(avail, cc))
		return 0;
	snprintf(err, errlen, "congestion control %s is not in "
	    "net.ipv4.tcp_available_congestion_control (%s)", cc, avail);
	return -1;
}

static int
check_setup(struct sweeprun *w, char *err, size_t errlen)
{
	const struct gb_opts *o = w->o;
	const struct sweep_axis *a;
	unsigned i, j;

	if (o->params.cc[0] != '\0' && cc_check(w, o->params.cc, err,
	    errlen) == -1)
		return -1;
	for (i = 0; i < o->sweep.naxes; i++) {
		a = &o->sweep.axes[i];
		for (j = 0; a->param == SWEEP_CC && j < a->nvalues; j++)
			if (cc_check(w, a->names[j], err, errlen) == -1)
				return -1;
	}
	/* Refuse before any change rather than half way through. */
	if ((o->params.mtu != 0 || sweep_has(&o->sweep, SWEEP_MTU)) &&
	    geteuid() != 0) {
		snprintf(err, errlen, "changing the MTU needs root "
		    "(CAP_NET_ADMIN); nothing was changed");
		return -1;
	}
	if (o->params.mtu != 0 || sweep_has(&o->sweep, SWEEP_MTU))
		mtu_recover();
	if (o->plot_path != NULL && !plot_available())
		fprintf(stderr, "gigebench: --plot: gnuplot is not installed "
		    "(apt-get install gnuplot-nox); the CSV and the table "
		    "still have the data\n");
	return 0;
}

static void
progress(struct sweeprun *w, unsigned point, unsigned rep, unsigned reps)
{
	char label[128] = "", v[32];
	long el, left;
	unsigned i;
	size_t n;

	if (!w->progress)
		return;
	for (i = 0; i < w->o->sweep.naxes; i++) {
		n = strlen(label);
		snprintf(label + n, sizeof(label) - n, "%s%s=%s",
		    i > 0 ? " " : "", sweep_param_name(
		    w->o->sweep.axes[i].param), sweep_value_text(&w->o->sweep,
		    i, point, v, sizeof(v)));
	}
	el = (long)(time(NULL) - w->start);
	left = w->done > 0 ? el * (long)(w->total - w->done) /
	    (long)w->done : -1;
	fprintf(stderr, "\rgigebench: point %u/%u %s run %u/%u, %ld:%02ld "
	    "elapsed", point + 1, w->npoints, label, rep + 1, reps, el / 60,
	    el % 60);
	if (left >= 0)
		fprintf(stderr, ", ~%ld:%02ld left", left / 60, left % 60);
	fputs("   ", stderr);
	fflush(stderr);
}

static void
record_json(struct sweeprun *w, unsigned point, unsigned rep,
    const char *error)
{
	json_t *run;

	if (w->runs == NULL)
		return;
	if (error != NULL)
		run = json_pack("{s:i, s:i, s:s}", "point", point, "repeat",
		    rep, "error", error);
	else if ((run = report_json(w->r)) != NULL) {
		json_object_del(run, "intervals");
		json_object_set_new(run, "point", json_integer(point));
		json_object_set_new(run, "repeat", json_integer(rep));
	}
	if (run != NULL)
		json_array_append_new(w->runs, run);
}

/* Run one point until its repeat count or its confidence is met. */
static int
run_point(struct sweeprun *w, unsigned point, char *err, size_t errlen)
{
	const struct gb_opts *o = w->o;
	struct rolecfg_out lines = { .intervals = NULL };
	struct client_config cc;
	struct sweep_setting set;
	struct csv_run_id id = { 0, o->host, o->title };
	struct table_acc acc;
	unsigned rep, max, min;
	char why[GB_ERR_LEN];
	int rc;

	*w->run = *o;
	memset(&set, 0, sizeof(set));
	sweep_apply(&o->sweep, point, &w->run->params, &set);
	if (set.mtu != 0)
		w->run->params.mtu = set.mtu;
	if (set.cc[0] != '\0')
		snprintf(w->run->params.cc, sizeof(w->run->params.cc), "%s",
		    set.cc);
	rolecfg_client(&cc, w->run, w->roots, w->psk, &lines);
	max = o->conf_level > 0 && o->repeat == 1 ? SWEEPRUN_CONF_MAX :
	    o->repeat;
	min = o->conf_level > 0 ? (max < SWEEPRUN_CONF_MIN ? max :
	    SWEEPRUN_CONF_MIN) : max;
	table_acc_init(&acc);
	for (rep = 0; rep < max; rep++) {
		progress(w, point, rep, max);
		memset(w->r, 0, sizeof(*w->r));
		id.start_us = walltime_us();
		rc = client_run(&cc, w->r, why, sizeof(why));
		w->done++;
		if (rc == CLIENT_OK)
			table_acc_add(&acc, w->r);
		else
			table_acc_fail(&acc);
		if (rc == CLIENT_OK && w->latency != NULL &&
		    w->r->has_latency)
			lathist_merge(w->latency, &w->r->latency);
		if (w->csv != NULL) {
			csv_row(w->csv, &o->sweep, point, rep,
			    &w->run->params, &set, rc == CLIENT_OK ? w->r :
			    NULL, rc == CLIENT_OK ? NULL : why, &id);
			fflush(w->csv);
		}
		record_json(w, point, rep, rc == CLIENT_OK ? NULL : why);
		if (rc != CLIENT_OK) {
			w->nfailed++;
			fprintf(stderr, "%sgigebench: point %u run %u: %s\n",
			    w->progress ? "\n" : "", point + 1, rep + 1, why);
			if (rc == CLIENT_REFUSED || rc == CLIENT_INTERRUPTED) {
				snprintf(err, errlen, "%s", why);
				return rc;
			}
		}
		if (o->conf_level > 0 && acc.nruns >= min) {
			table_point_finish(&acc, point, o->conf_level,
			    &w->points[point]);
			if (stats_ci_within(table_point_rate(
			    &w->points[point]), o->conf_width_pct))
				break;
		}
	}
	table_point_finish(&acc, point, o->conf_level > 0 ? o->conf_level :
	    0.95, &w->points[point]);
	w->points[point].ci_met = o->conf_level > 0 ?
	    stats_ci_within(table_point_rate(&w->points[point]),
	    o->conf_width_pct) : -1;
	w->points[point].ci_width_pct = o->conf_width_pct;
	return CLIENT_OK;
}

static void
render(struct sweeprun *w)
{
	const struct gb_opts *o = w->o;
	json_t *doc;
	char err[GB_ERR_LEN];

	if (w->progress)
		fputs("\n", stderr);
	if (o->json) {
		doc = json_pack("{s:s, s:o, s:o, s:o}", "program", "gigebench",
		    "params", report_params_json(&o->params),
		    "points", table_json(&o->sweep, w->points, w->npoints),
		    "runs", w->runs != NULL ? json_incref(w->runs) :
		    json_array());
		report_json_print(stdout, doc);
	} else
		table_text(stdout, &o->sweep, w->points, w->npoints, o->unit);
	fflush(stdout);
	if (o->plot_path == NULL || !plot_available())
		return;
	/* One --rr test (repeated or not): its latencies' distribution. */
	if (w->latency != NULL ? plot_write_cdf(o->plot_path, w->latency,
	    o->title, err, sizeof(err)) == -1 : plot_write(o->plot_path,
	    &o->sweep, w->points, w->npoints, o->unit, o->title, err,
	    sizeof(err)) == -1)
		fprintf(stderr, "gigebench: %s\n", err);
}

static int
sweeprun_open(struct sweeprun *w, char *err, size_t errlen)
{
	const struct gb_opts *o = w->o;

	w->npoints = sweep_npoints(&o->sweep);
	w->points = calloc(w->npoints, sizeof(*w->points));
	w->run = malloc(sizeof(*w->run));
	w->r = malloc(sizeof(*w->r));
	if (o->params.rr && o->sweep.naxes == 0 && o->plot_path != NULL &&
	    (w->latency = malloc(sizeof(*w->latency))) != NULL)
		lathist_init(w->latency);
	if (w->points == NULL || w->run == NULL || w->r == NULL ||
	    (o->params.rr && o->sweep.naxes == 0 && o->plot_path != NULL &&
	    w->latency == NULL)) {
		snprintf(err, errlen, "out of memory for %u points",
		    w->npoints);
		return -1;
	}
	if (o->json && (w->runs = json_array()) == NULL) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	if (o->csv_path != NULL) {
		if ((w->csv = fopen(o->csv_path, "w")) == NULL) {
			snprintf(err, errlen, "--csv: cannot write %s: %s",
			    o->csv_path, strerror(errno));
			return -1;
		}
		csv_header(w->csv, &o->sweep);
	}
	w->progress = !o->quiet && isatty(STDERR_FILENO);
	w->start = time(NULL);
	w->total = w->npoints * (o->conf_level > 0 && o->repeat == 1 ?
	    SWEEPRUN_CONF_MAX : o->repeat);
	return 0;
}

int
sweeprun(const struct gb_opts *o, const struct hoststat_roots *roots,
    const struct auth_key *psk, char *err, size_t errlen)
{
	struct sweeprun w;
	char why[GB_ERR_LEN];
	unsigned p;
	int rc = CLIENT_FAILED;

	memset(&w, 0, sizeof(w));
	w.o = o;
	w.roots = roots;
	w.psk = psk;
	if (check_setup(&w, err, errlen) == -1 ||
	    sweeprun_open(&w, err, errlen) == -1)
		goto out;
	rc = CLIENT_OK;
	for (p = 0; p < w.npoints && rc == CLIENT_OK; p++)
		rc = run_point(&w, p, err, errlen);
	/* Both ends' MTUs: the listener restores its own after each test. */
	if (mtu_restore_all(why, sizeof(why)) == -1)
		fprintf(stderr, "gigebench: %s\n", why);
	if (rc == CLIENT_OK || rc == CLIENT_FAILED)
		render(&w);
	if (rc == CLIENT_OK && w.nfailed > 0) {
		snprintf(err, errlen, "%u of %u runs failed", w.nfailed,
		    w.done);
		rc = CLIENT_FAILED;
	}
out:
	if (w.csv != NULL && fclose(w.csv) == EOF && rc == CLIENT_OK) {
		snprintf(err, errlen, "--csv: writing %s: %s", o->csv_path,
		    strerror(errno));
		rc = CLIENT_FAILED;
	}
	json_decref(w.runs);
	free(w.points);
	free(w.latency);
	free(w.run);
	free(w.r);
	return rc;
}
