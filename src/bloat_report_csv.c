/*
 * bloat_report_csv.c: --under-load --csv FILE (out/bloat_report.h): one
 * row a phase, RFC 4180 as csv.c writes them (CRLF, text through
 * csv_cell), a figure not known an empty field.  The columns, in an
 * order that is a contract (add at the end):
 *
 *   phase ok load_mbps idle_count idle_p50_ms idle_p90_ms idle_p99_ms
 *   idle_trimmed_ms loaded_count loaded_p50_ms loaded_p90_ms
 *   loaded_p99_ms loaded_trimmed_ms added_delay_ms queue_bytes
 *   self_rtt_ms rpm foreign_rpm self_rpm grade probe_tos probes omit_s
 *   duration_s error probe_kind probe_rate idle_requests idle_lost
 *   loaded_requests loaded_lost loaded_loss_pct
 *
 * (probe_kind: tcp, tcp-crr or udp; probe_rate and the losses: UDP
 * probes alone, empty with TCP ones.)
 */
#include <math.h>
#include <stdio.h>

#include "out/bloat_report.h"
#include "out/csv.h"

#define BLOAT_CSV_EOL	"\r\n"

static const char bloat_csv_header[] =
    "phase,ok,load_mbps,idle_count,idle_p50_ms,idle_p90_ms,idle_p99_ms,"
    "idle_trimmed_ms,loaded_count,loaded_p50_ms,loaded_p90_ms,"
    "loaded_p99_ms,loaded_trimmed_ms,added_delay_ms,queue_bytes,"
    "self_rtt_ms,rpm,foreign_rpm,self_rpm,grade,probe_tos,probes,omit_s,"
    "duration_s,error,probe_kind,probe_rate,idle_requests,idle_lost,"
    "loaded_requests,"
    "loaded_lost,loaded_loss_pct";

/* ",v", or "," when v is not known (or known is 0). */
static void
bloat_csv_num(FILE *fp, int known, double v)
{
	if (known && isfinite(v))
		fprintf(fp, ",%.9g", v);
	else
		fputc(',', fp);
}

static void
bloat_csv_lat(FILE *fp, int ok, const struct bloat_lat *l)
{
	bloat_csv_num(fp, ok, (double)l->count);
	bloat_csv_num(fp, ok, l->p50_ms);
	bloat_csv_num(fp, ok, l->p90_ms);
	bloat_csv_num(fp, ok, l->p99_ms);
	bloat_csv_num(fp, ok, l->trimmed_ms);
}

static void
bloat_csv_row(FILE *fp, const struct bloat_report *b,
    const struct bloat_run *r)
{
	const struct bloat_figures *f = &r->f;
	int ok = r->ok;

	csv_cell(fp, bloat_phase_name(r->phase), CSV_QUOTE_NEEDED);
	fprintf(fp, ",%d", ok);
	bloat_csv_num(fp, ok, r->load_mbps);
	bloat_csv_lat(fp, ok, &f->idle);
	bloat_csv_lat(fp, ok, &f->loaded);
	bloat_csv_num(fp, ok, f->added_ms);
	bloat_csv_num(fp, ok, f->queue_bytes);
	bloat_csv_num(fp, ok, f->self_ms);
	bloat_csv_num(fp, ok && f->has_rpm, f->rpm.rpm);
	bloat_csv_num(fp, ok && f->has_rpm, f->rpm.foreign_rpm);
	bloat_csv_num(fp, ok && f->has_rpm, f->rpm.loaded_rpm);
	fputc(',', fp);
	csv_cell(fp, ok ? bloat_grade_name(f->grade) : NULL,
	    CSV_QUOTE_NEEDED);
	bloat_csv_num(fp, ok && r->loaded->probe.tos >= 0,
	    r->loaded->probe.tos);
	fprintf(fp, ",%u,%.9g,%.9g,", b->probes, b->omit_ms / 1000.0,
	    b->duration_ms / 1000.0);
	csv_cell(fp, ok ? NULL : r->error, CSV_QUOTE_NEEDED);
	fputc(',', fp);
	csv_cell(fp, bloat_probe_kind(b), CSV_QUOTE_NEEDED);
	bloat_csv_num(fp, b->probe_rate != 0, b->probe_rate);
	bloat_csv_num(fp, ok && r->idle_loss.has, (double)r->idle_loss.requests);
	bloat_csv_num(fp, ok && r->idle_loss.has, (double)r->idle_loss.lost);
	bloat_csv_num(fp, ok && r->loaded_loss.has,
	    (double)r->loaded_loss.requests);
	bloat_csv_num(fp, ok && r->loaded_loss.has,
	    (double)r->loaded_loss.lost);
	bloat_csv_num(fp, ok && r->loaded_loss.has, r->loaded_loss.pct);
	fputs(BLOAT_CSV_EOL, fp);
}

void
bloat_report_csv(FILE *fp, const struct bloat_report *b)
{
	unsigned i;

	fputs(bloat_csv_header, fp);
	fputs(BLOAT_CSV_EOL, fp);
	for (i = 0; i < b->nruns; i++)
		bloat_csv_row(fp, b, &b->runs[i]);
}
