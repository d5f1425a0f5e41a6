/*
 * main.c: parse the command line, run the role, render the figures, and
 * pick the exit status.  The only file that prints final results and the
 * only one that exits.
 *
 * Exit status: 0 success, 1 test or network failure (merge: a file that
 * cannot be read or is no result), 2 usage error, 3 refused by the peer
 * (busy, other protocol version, not gigebench).
 */
#include <errno.h>
#include <malloc.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <event2/thread.h>
#include <jansson.h>

#include "run/client.h"
#include "host/mtu.h"
#include "cli/opts.h"
#include "cli/rolecfg.h"
#include "out/report.h"
#include "run/server.h"
#include "wire/auth.h"
#include "cli/sweeprun.h"
#include "cli/underload.h"
#include "cli/ttcp_opts.h"
#include "cli/merge.h"
#include "data/ttcp_xfer.h"
#include "out/flowcsv.h"
#include "out/outq.h"
#include "out/ttcp_text.h"
#include "out/tsfile.h"
#include "base/safetext.h"
#include "base/version.h"

enum {
	EXIT_TEST_FAILED = 1,
	EXIT_USAGE = 2,
	EXIT_REFUSED = 3
};

struct output {
	const struct gb_opts	*opts;
	FILE			*report;	/* NULL: stdout */
	struct outq		*q[2];		/* a listener's stdout, stderr */
	/* --timestamps: the streams under report and the intervals. */
	FILE			*raw_report, *raw_intervals;
};

/*
 * --timestamps: the report and the interval lines through a stream that
 * stamps each line (out/tsfile.h); the streams under them are kept to
 * close after.  0, or -1 when out of memory.
 */
static int
output_stamp(struct output *out, struct rolecfg_out *lines)
{
	const struct gb_opts *o = out->opts;

	if (!o->timestamps || o->json)
		return 0;
	out->raw_report = out->report != NULL ? out->report : stdout;
	if ((out->report = tsfile_open(out->raw_report, o->ts_format,
	    NULL)) == NULL)
		return -1;
	if (lines->intervals == NULL)
		return 0;
	out->raw_intervals = lines->intervals;
	if ((lines->intervals = tsfile_open(out->raw_intervals, o->ts_format,
	    NULL)) == NULL)
		return -1;
	return 0;
}

/* Close the stamping streams; the ones under them stay open. */
static void
output_unstamp(struct output *out, struct rolecfg_out *lines)
{
	if (out->raw_intervals != NULL && lines->intervals != NULL) {
		fclose(lines->intervals);
		lines->intervals = out->raw_intervals;
	}
	if (out->raw_report != NULL && out->report != NULL) {
		fclose(out->report);
		out->report = out->raw_report == stdout ? NULL :
		    out->raw_report;
	}
	out->raw_intervals = out->raw_report = NULL;
}

static void
print_error(const struct gb_opts *o, const char *text, int code)
{
	char msg[2 * GB_ERR_LEN];
	json_t *doc;

	/* A peer's refusal text reaches the terminal: no control bytes. */
	safetext_escape(msg, sizeof(msg), text);
	fprintf(stderr, "gigebench: %s\n", msg);
	if (!o->json)
		return;
	doc = json_pack("{s:s, s:s, s:i}", "program", "gigebench", "error",
	    msg, "exit_code", code);
	if (doc != NULL && code != EXIT_USAGE)
		json_object_set_new(doc, "params",
		    report_params_json(&o->params));
	if (o->json_stream)
		report_json_line(stdout, report_end_event(doc, 1));
	else
		report_json_print(stdout, doc);
}

static void
render(const struct gb_result *r, void *arg)
{
	const struct output *out = arg;
	const struct gb_opts *o = out->opts;
	struct report_style st = {
		.unit = o->unit, .verbose = o->verbose, .quiet = o->quiet,
		/* rolecfg.c printed it as the test started. */
		.header_shown = !o->json && !o->quiet,
	};

	FILE *f = out->report != NULL ? out->report : stdout;

	if (o->json_stream)
		report_json_line(f, report_end_event(report_json(r), 0));
	else if (o->json)
		report_json_print(f, report_json(r));
	else
		report_text(f, r, &st);
	fflush(f);
}

static int
exit_status(int client_status)
{
	switch (client_status) {
	case CLIENT_OK:
		return 0;
	case CLIENT_REFUSED:
		return EXIT_REFUSED;
	}
	return EXIT_TEST_FAILED;
}

/* --flow-csv: the file, and the first error writing it. */
struct flowout {
	FILE	*fp;
	char	 err[GB_ERR_LEN];
};

static void
flows_out(void *arg, const struct gb_stream *flows, unsigned n,
    unsigned first, int is_tx, int rr, int partial)
{
	struct flowout *fo = arg;

	(void)partial;
	if (fo->err[0] == '\0')
		(void)flowcsv_write(fo->fp, is_tx ? "sender" : "receiver",
		    flows, n, first, rr, fo->err, sizeof(fo->err));
}

/* --flow-csv's file, opened before the test; 0, or -1 with err. */
static int
flows_open(const struct gb_opts *o, struct client_config *cfg,
    struct flowout *fo, char *err, size_t errlen)
{
	if (o->flow_csv_path == NULL)
		return 0;
	if ((fo->fp = fopen(o->flow_csv_path, "w")) == NULL) {
		snprintf(err, errlen, "--flow-csv: cannot write %s: %s",
		    o->flow_csv_path, strerror(errno));
		return -1;
	}
	cfg->flows_cb = flows_out;
	cfg->flows_arg = fo;
	return 0;
}

/* Closed after the test: -1 with err when a write failed. */
static int
flows_close(const struct gb_opts *o, struct flowout *fo, char *err,
    size_t errlen)
{
	if (fo->fp == NULL)
		return 0;
	if (fclose(fo->fp) != 0 && fo->err[0] == '\0')
		snprintf(fo->err, sizeof(fo->err), "flow CSV: %s",
		    strerror(errno));
	if (fo->err[0] == '\0')
		return 0;
	snprintf(err, errlen, "--flow-csv %.64s: %.160s", o->flow_csv_path,
	    fo->err);
	return -1;
}

static int
run_client(const struct gb_opts *o, const struct hoststat_roots *roots,
    const struct auth_key *psk)
{
	struct rolecfg_out lines = {
		.intervals = o->json || o->quiet ? NULL : stdout,
		.events = o->json_stream ? stdout : NULL,
		/* -i lines show the progress themselves. */
		.progress = !o->json && !o->quiet && !o->no_progress &&
		    o->params.interval_ms == 0 && isatty(STDERR_FILENO),
	};
	struct client_config cfg;
	struct flowout fo = { .fp = NULL };
	struct output out = { .opts = o };
	struct gb_result *r;
	char err[GB_ERR_LEN], why[GB_ERR_LEN];
	int rc;

	if (o->under_load || sweeprun_wanted(o)) {
		rc = o->under_load ? underload_run(o, roots, psk, err,
		    sizeof(err)) : sweeprun(o, roots, psk, err, sizeof(err));
		if (rc != CLIENT_OK)
			print_error(o, err, exit_status(rc));
		return exit_status(rc);
	}
	if ((r = calloc(1, sizeof(*r))) == NULL ||
	    output_stamp(&out, &lines) == -1) {
		output_unstamp(&out, &lines);
		free(r);
		print_error(o, "out of memory", EXIT_TEST_FAILED);
		return EXIT_TEST_FAILED;
	}
	rolecfg_client(&cfg, o, roots, psk, &lines);
	if (flows_open(o, &cfg, &fo, err, sizeof(err)) == -1) {
		output_unstamp(&out, &lines);
		free(r);
		print_error(o, err, EXIT_TEST_FAILED);
		return EXIT_TEST_FAILED;
	}
	if (o->params.mtu != 0)
		mtu_recover();
	rc = client_run(&cfg, r, err, sizeof(err));
	if (flows_close(o, &fo, why, sizeof(why)) == -1) {
		fprintf(stderr, "gigebench: %s\n", why);
		if (rc == CLIENT_OK)
			rc = CLIENT_FAILED;
	}
	/* --mtu: this end's interface goes back, whatever happened. */
	if (o->params.mtu != 0 && mtu_restore_all(why, sizeof(why)) == -1)
		fprintf(stderr, "gigebench: %s\n", why);
	if (rc == CLIENT_OK)
		render(r, &out);
	else if (r->prov.interrupted) {
		/* Ctrl-C: the report of what ran, marked, and exit 1. */
		render(r, &out);
		fprintf(stderr, "gigebench: %s\n", err);
	} else
		print_error(o, err, exit_status(rc));
	output_unstamp(&out, &lines);
	free(r);
	return exit_status(rc);
}

/* --restore: put back what a killed gigebench left changed. */
static int
run_restore(void)
{
	char msg[1024];
	int n;

	if ((n = mtu_restore_journals(msg, sizeof(msg))) == -1) {
		fprintf(stderr, "gigebench: --restore: %s\n", msg);
		return EXIT_TEST_FAILED;
	}
	printf("%s\n", n == 0 && msg[0] == '\0' ? "nothing to restore" : msg);
	return 0;
}

static void
on_loop(struct event_base *base, void *arg)
{
	struct output *out = arg;

	outq_set_base(out->q[0], base);
	outq_set_base(out->q[1], base);
}

/*
 * A listener's stdout and stderr go through queues that never block its
 * one event loop (out/outq.h): a stdout that nobody reads loses interval
 * lines, counted and said, never the listener's deadlines.
 */
static int
output_open(struct output *out, struct rolecfg_out *lines)
{
	fflush(stdout);
	fflush(stderr);
	if ((out->q[0] = outq_new(NULL, STDOUT_FILENO, OUTQ_DEFAULT_CAP)) ==
	    NULL || (out->q[1] = outq_new(NULL, STDERR_FILENO,
	    OUTQ_DEFAULT_CAP)) == NULL ||
	    (out->report = outq_stream(out->q[0], 0)) == NULL ||
	    (lines->log = outq_stream(out->q[1], 0)) == NULL)
		return -1;
	if (lines->intervals != NULL &&
	    (lines->intervals = outq_stream(out->q[0], 1)) == NULL)
		return -1;
	return output_stamp(out, lines);
}

static void
output_close(struct output *out, struct rolecfg_out *lines)
{
	int i;

	output_unstamp(out, lines);
	if (lines->intervals != NULL && lines->intervals != stdout)
		fclose(lines->intervals);
	if (lines->log != NULL)
		fclose(lines->log);
	if (out->report != NULL)
		fclose(out->report);
	lines->intervals = lines->log = out->report = NULL;
	for (i = 0; i < 2; i++) {
		if (out->q[i] != NULL) {
			outq_flush_blocking(out->q[i], 1000);
			outq_free(out->q[i]);
		}
		out->q[i] = NULL;
	}
}

static int
run_server(const struct gb_opts *o, const struct hoststat_roots *roots,
    const struct auth_key *psk)
{
	struct output out = { .opts = o };
	struct rolecfg_out lines = {
		.intervals = o->json || o->quiet ? NULL : stdout,
	};
	struct server_config cfg;
	char err[GB_ERR_LEN];
	int rc;

	if (output_open(&out, &lines) == -1) {
		output_close(&out, &lines);
		print_error(o, "cannot queue the listener's output",
		    EXIT_TEST_FAILED);
		return EXIT_TEST_FAILED;
	}
	rolecfg_server(&cfg, o, roots, psk, &lines);
	/* -q: errors only; the JSON of -J is the result, not chatter. */
	cfg.report_cb = o->quiet && !o->json ? NULL : render;
	cfg.report_arg = &out;
	cfg.loop_cb = on_loop;
	rc = server_run(&cfg, err, sizeof(err));
	output_close(&out, &lines);
	if (rc == -1) {
		print_error(o, err, EXIT_TEST_FAILED);
		return EXIT_TEST_FAILED;
	}
	return 0;
}

/*
 * --psk FILE, else GIGEBENCH_PSK_FILE.  A key that cannot be used is a
 * usage error: nothing runs without the protection asked for.
 */
static int
load_psk(const struct gb_opts *o, struct auth_key *k, int *have)
{
	const char *path = o->psk_file, *what = "--psk";
	char err[GB_ERR_LEN], msg[2 * GB_ERR_LEN];

	*have = 0;
	if (path == NULL && (path = getenv("GIGEBENCH_PSK_FILE")) != NULL) {
		what = "GIGEBENCH_PSK_FILE";
		if (*path == '\0')
			path = NULL;
	}
	if (path == NULL || o->role == GB_ROLE_RESTORE)
		return 0;
	if (auth_init() == -1) {
		print_error(o, "--psk: libsodium cannot start (no random "
		    "source)", EXIT_TEST_FAILED);
		return EXIT_TEST_FAILED;
	}
	if (auth_key_load(path, k, err, sizeof(err)) == -1) {
		snprintf(msg, sizeof(msg), "%s %s", what, err);
		print_error(o, msg, EXIT_USAGE);
		return EXIT_USAGE;
	}
	*have = 1;
	return 0;
}

static int
run_role(const struct gb_opts *o, const struct hoststat_roots *roots)
{
	struct auth_key *k;
	int have, rc;

	if ((k = calloc(1, sizeof(*k))) == NULL) {
		print_error(o, "out of memory", EXIT_TEST_FAILED);
		return EXIT_TEST_FAILED;
	}
	if ((rc = load_psk(o, k, &have)) == 0)
		rc = o->role == GB_ROLE_CONNECT ?
		    run_client(o, roots, have ? k : NULL) :
		    run_server(o, roots, have ? k : NULL);
	auth_key_wipe(k);
	free(k);
	return rc;
}

static void
ttcp_note(void *arg, const char *text)
{
	ttcp_text_note(stderr, arg, text);
}

/*
 * --ttcp, or started as "ttcp": the classic tool.  Its lines go where
 * ttcp's went: the figures to stdout, progress and errors to stderr;
 * all to stderr when stdout carries the data (-r without -s) or the
 * JSON (--json).
 */
static int
run_ttcp(int argc, char *argv[], const struct hoststat_roots *roots)
{
	struct ttcp_cfg c;
	struct ttcp_counts n;
	struct gb_side side;
	struct ttcp_hooks h = { ttcp_note, &c, roots };
	char err[GB_ERR_LEN];
	FILE *out;
	int errnum;

	switch (ttcp_opts_parse(argc, argv, &c, err, sizeof(err))) {
	case OPTS_HELP:
		ttcp_opts_usage(stdout);
		return 0;
	case OPTS_ERROR:
		fprintf(stderr, "gigebench --ttcp: %s\n", err);
		ttcp_opts_usage(stderr);
		return EXIT_USAGE;
	}
	out = c.json || (!c.trans && !c.sink) ? stderr : stdout;
	ttcp_text_header(out, &c);
	fflush(out);
	if (ttcp_xfer(&c, &h, &n, &side, &errnum, err, sizeof(err)) == -1) {
		ttcp_text_error(stderr, &c, err, errnum);
		return EXIT_TEST_FAILED;
	}
	ttcp_text_result(out, &c, &n);
	ttcp_text_side(out, &c, &n, &side);
	if (c.json)
		report_json_print(stdout, ttcp_json(&c, &n, &side));
	fflush(stdout);
	return ferror(stdout) ? EXIT_TEST_FAILED : 0;
}

/* A merge error names files and quotes their words: no control bytes. */
static void
merge_error(const char *text)
{
	char	msg[4 * GB_ERR_LEN];

	fprintf(stderr, "gigebench merge: %s\n",
	    safetext_escape(msg, sizeof(msg), text));
}

/*
 * gigebench merge: many --json results of a mesh test into one matrix.
 * Exit 1 when a file cannot be read, is not a throughput result, or an
 * output cannot be written; 2 on a usage error.
 */
static int
run_merge(int argc, char *argv[])
{
	struct merge_opts o;
	char err[2 * GB_ERR_LEN];

	switch (merge_opts_parse(argc, argv, &o, err, sizeof(err))) {
	case OPTS_HELP:
		merge_opts_usage(stdout);
		return 0;
	case OPTS_ERROR:
		merge_error(err);
		fprintf(stderr, "Try 'gigebench merge --help' for more "
		    "information.\n");
		return EXIT_USAGE;
	}
	signal(SIGPIPE, SIG_IGN);
	if (merge_run(&o, stdout, err, sizeof(err)) == -1) {
		merge_error(err);
		return EXIT_TEST_FAILED;
	}
	return 0;
}

int
main(int argc, char *argv[])
{
	struct gb_opts o;
	struct hoststat_roots roots;
	char err[GB_ERR_LEN];
	const char *env;

	roots.procfs = (env = getenv("GIGEBENCH_PROCFS")) != NULL &&
	    *env != '\0' ? env : "/proc";
	roots.sysfs = (env = getenv("GIGEBENCH_SYSFS")) != NULL &&
	    *env != '\0' ? env : "/sys";
	if (merge_wanted(argc, argv))
		return run_merge(argc - 1, argv + 1);
	if (ttcp_wanted(argc, argv)) {
		signal(SIGPIPE, SIG_IGN);
		return run_ttcp(argc, argv, &roots);
	}
	switch (opts_parse(argc, argv, &o, err, sizeof(err))) {
	case OPTS_HELP:
		opts_usage(stdout);
		return 0;
	case OPTS_VERSION:
		printf("gigebench %s%s%s%s\n", GB_VERSION,
		    *version_revision() != '\0' ? " (" : "", version_revision(),
		    *version_revision() != '\0' ? ")" : "");
		return 0;
	case OPTS_ERROR:
		print_error(&o, err, EXIT_USAGE);
		if (o.hint != NULL)
			fprintf(stderr, "gigebench: %s\n", o.hint);
		fprintf(stderr, "Try 'gigebench --help' for more "
		    "information.\n");
		return EXIT_USAGE;
	}
	/* Data threads wake the event loop with event_active(). */
	if (evthread_use_pthreads() == -1) {
		print_error(&o, "cannot enable libevent threads",
		    EXIT_TEST_FAILED);
		return EXIT_TEST_FAILED;
	}
	signal(SIGPIPE, SIG_IGN);
	/*
	 * Stream buffers (16K-64M, a few per test) come from mmap, not the
	 * heap, so a listener that runs for months returns them whole
	 * instead of fragmenting the heap between tests of mixed sizes.
	 */
	mallopt(M_MMAP_THRESHOLD, 64 * 1024);
	if (o.role == GB_ROLE_RESTORE)
		return run_restore();
	if (o.warning[0] != '\0')
		fprintf(stderr, "gigebench: warning: %s\n", o.warning);
	return run_role(&o, &roots);
}
