/*
 * bloat_report_json.c: --under-load's JSON (out/bloat_report.h): the
 * figures of each phase, the verdict, and each phase's two tests as
 * report_json() has them.  A figure that is not known is null.
 */
#include <math.h>

#include <jansson.h>

#include "out/bloat_report.h"
#include "out/report.h"

static json_t *
bloat_num(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

static json_t *
bloat_lat_json(const struct bloat_lat *l)
{
	return json_pack("{s:I, s:o, s:o, s:o, s:o}",
	    "count", (json_int_t)l->count,
	    "p50_ms", bloat_num(l->p50_ms), "p90_ms", bloat_num(l->p90_ms),
	    "p99_ms", bloat_num(l->p99_ms),
	    "trimmed_mean_ms", bloat_num(l->trimmed_ms));
}

static json_t *
bloat_rpm_json(const struct bloat_figures *f)
{
	if (!f->has_rpm)
		return json_null();
	return json_pack("{s:o, s:o, s:o, s:o}", "rpm", bloat_num(f->rpm.rpm),
	    "foreign_ms", bloat_num(f->rpm.foreign_ms),
	    "foreign_rpm", bloat_num(f->rpm.foreign_rpm),
	    "self_rpm", bloat_num(f->rpm.loaded_rpm));
}

/* UDP probes' requests and losses; null with TCP probes. */
static json_t *
bloat_loss_json(const struct bloat_loss *l)
{
	if (!l->has)
		return json_null();
	return json_pack("{s:I, s:I, s:o}", "requests",
	    (json_int_t)l->requests, "lost", (json_int_t)l->lost,
	    "loss_pct", bloat_num(l->pct));
}

static json_t *
bloat_run_json(const struct bloat_run *r)
{
	const struct bloat_figures *f = &r->f;
	json_t *o;

	o = json_pack("{s:s, s:b}", "phase", bloat_phase_name(r->phase),
	    "ok", r->ok);
	if (o == NULL)
		return NULL;
	if (!r->ok)
		json_object_set_new(o, "error", json_string(r->error));
	else {
		json_object_set_new(o, "load_mbps", bloat_num(r->load_mbps));
		json_object_set_new(o, "idle", bloat_lat_json(&f->idle));
		json_object_set_new(o, "loaded", bloat_lat_json(&f->loaded));
		json_object_set_new(o, "added_delay_ms",
		    bloat_num(f->added_ms));
		json_object_set_new(o, "queue_bytes",
		    bloat_num(f->queue_bytes));
		json_object_set_new(o, "self_rtt_ms", bloat_num(f->self_ms));
		json_object_set_new(o, "self_samples",
		    json_integer((json_int_t)r->self_samples));
		json_object_set_new(o, "rpm", bloat_rpm_json(f));
		json_object_set_new(o, "grade",
		    json_string(bloat_grade_name(f->grade)));
		json_object_set_new(o, "probe_tos", r->loaded->probe.tos >= 0 ?
		    json_integer(r->loaded->probe.tos) : json_null());
		json_object_set_new(o, "idle_loss",
		    bloat_loss_json(&r->idle_loss));
		json_object_set_new(o, "loaded_loss",
		    bloat_loss_json(&r->loaded_loss));
	}
	if (r->idle != NULL && r->idle->has_latency)
		json_object_set_new(o, "idle_test", report_json(r->idle));
	if (r->loaded != NULL && r->loaded->probe.has)
		json_object_set_new(o, "loaded_test", report_json(r->loaded));
	return o;
}

json_t *
bloat_report_json(const struct bloat_report *b)
{
	const struct bloat_run *w = bloat_worst(b);
	json_t *phases, *doc;
	char v[320];
	unsigned i;

	if ((phases = json_array()) == NULL)
		return NULL;
	for (i = 0; i < b->nruns; i++)
		json_array_append_new(phases, bloat_run_json(&b->runs[i]));
	bloat_verdict(v, sizeof(v), b);
	doc = json_pack("{s:{s:s, s:I, s:I, s:s, s:b, s:o, s:f, s:f, s:f, s:o, "
	    "s:s, s:o}}", "under_load", "draft", BLOAT_DRAFT,
	    "trim_pct", (json_int_t)BLOAT_TRIM_PCT,
	    "probes", (json_int_t)b->probes,
	    "probe_protocol", b->probe_rate != 0 ? "udp" : "tcp",
	    "probe_crr", b->probe_crr != 0,
	    "probe_rate", b->probe_rate != 0 ?
	    json_integer(b->probe_rate) : json_null(),
	    "idle_s", b->idle_ms / 1000.0, "omit_s", b->omit_ms / 1000.0,
	    "duration_s", b->duration_ms / 1000.0,
	    "grade", w != NULL ? json_string(bloat_grade_name(w->f.grade)) :
	    json_null(), "verdict", v, "phases", phases);
	return doc;
}
