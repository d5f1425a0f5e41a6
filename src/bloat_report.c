/*
 * bloat_report.c: --under-load's text (out/bloat_report.h).  One table
 * row a phase, times in ms, the queue in KiB (1024 bytes), then the
 * verdict and the line that says how RPM was reached.
 *
 *   phase     load Mbps  idle P50  loaded P50   P90    P99  added   queue
 *   upload        95.4     0.055       81.6    83.1   84.0  +81.5  949 KiB
 *	... self RTT and RPM follow on the row.
 */
#include <math.h>
#include <stdio.h>

#include "base/dscp.h"
#include "base/units.h"
#include "out/bloat_report.h"

const char *
bloat_probe_kind(const struct bloat_report *b)
{
	return b->probe_rate != 0 ? "udp" : b->probe_crr ? "tcp-crr" : "tcp";
}

const struct bloat_run *
bloat_worst(const struct bloat_report *b)
{
	const struct bloat_run *w = NULL;
	unsigned i;

	for (i = 0; i < b->nruns; i++)
		if (b->runs[i].ok && (w == NULL ||
		    b->runs[i].f.added_ms > w->f.added_ms))
			w = &b->runs[i];
	return w;
}

/* "184 (EF)", "16", or "0" of a TOS byte. */
static const char *
bloat_tos(int tos, char *buf, size_t len)
{
	const char *name = NULL;

	if (tos >= 0 && (tos & 3) == 0)
		name = dscp_name((unsigned)tos >> DSCP_TOS_SHIFT);
	if (tos < 0)
		snprintf(buf, len, "unknown");
	else if (name != NULL && tos != 0)
		snprintf(buf, len, "%d (%s)", tos, name);
	else
		snprintf(buf, len, "%d", tos);
	return buf;
}

static double
bloat_rate(const struct bloat_report *b, double mbps, const char **label)
{
	return units_rate(mbps * 1e6, b->unit != 0 ? b->unit : 'm', label);
}

void
bloat_verdict(char *buf, size_t len, const struct bloat_report *b)
{
	const struct bloat_run *w = bloat_worst(b);
	const char *label;
	double rate;

	if (w == NULL) {
		snprintf(buf, len, "unknown: no phase ran to the end");
		return;
	}
	rate = bloat_rate(b, w->load_mbps, &label);
	if (w->f.grade == BLOAT_GRADE_LOW) {
		snprintf(buf, len, "low: no phase adds more than %g ms to a "
		    "round trip (the most: %s, +%.3f ms, idle %.3f ms)",
		    BLOAT_LOW_MS, bloat_phase_name(w->phase), w->f.added_ms,
		    w->f.idle.p50_ms);
		return;
	}
	if (isnan(w->f.queue_bytes))
		snprintf(buf, len, "%s bufferbloat: the %s load adds %.1f ms to "
		    "a round trip (P50 %.3f ms idle, %.1f ms loaded, %.4g %s "
		    "in all)", bloat_grade_name(w->f.grade),
		    bloat_phase_name(w->phase), w->f.added_ms, w->f.idle.p50_ms,
		    w->f.loaded.p50_ms, rate, label);
	else
		snprintf(buf, len, "%s bufferbloat: the %s load adds %.1f ms to "
		    "a round trip (P50 %.3f ms idle, %.1f ms loaded): about "
		    "%.0f KiB queued at %.4g %s", bloat_grade_name(w->f.grade),
		    bloat_phase_name(w->phase), w->f.added_ms, w->f.idle.p50_ms,
		    w->f.loaded.p50_ms, w->f.queue_bytes / 1024, rate, label);
}

static void
bloat_row(FILE *fp, const struct bloat_report *b, const struct bloat_run *r)
{
	const struct bloat_figures *f = &r->f;
	const char *label;
	char q[32], self[32], rpm[32];

	if (!r->ok) {
		fprintf(fp, "%-9s failed: %s\n", bloat_phase_name(r->phase),
		    r->error);
		return;
	}
	if (isnan(f->queue_bytes))
		snprintf(q, sizeof(q), "-");
	else
		snprintf(q, sizeof(q), "%.0f KiB", f->queue_bytes / 1024);
	if (isnan(f->self_ms))
		snprintf(self, sizeof(self), "-");
	else
		snprintf(self, sizeof(self), "%.3f", f->self_ms);
	if (f->has_rpm)
		snprintf(rpm, sizeof(rpm), "%.0f", f->rpm.rpm);
	else
		snprintf(rpm, sizeof(rpm), "-");
	fprintf(fp, "%-9s %10.1f %9.3f %11.3f %9.3f %9.3f %+9.3f %10s %9s "
	    "%6s\n", bloat_phase_name(r->phase),
	    bloat_rate(b, r->load_mbps, &label), f->idle.p50_ms,
	    f->loaded.p50_ms, f->loaded.p90_ms, f->loaded.p99_ms, f->added_ms,
	    q, self, rpm);
}

/* The probes: what they are, their TOS, the phases' times. */
static void
bloat_head(FILE *fp, const struct bloat_report *b, const char *tos)
{
	if (b->probe_rate != 0)
		fprintf(fp, "latency under load: %u UDP probe flow%s (%u "
		    "round trips a second each, evenly spaced; lost without "
		    "an answer in %u s; tos %s)", b->probes, b->probes == 1 ?
		    "" : "s", (unsigned)b->probe_rate,
		    GB_PROBE_TIMEOUT_MS / 1000, tos);
	else if (b->probe_crr)
		fprintf(fp, "latency under load: %u probe flow%s (1-byte "
		    "request/response on a new TCP connection each, its "
		    "handshake counted, TCP_NODELAY, tos %s)", b->probes,
		    b->probes == 1 ? "" : "s", tos);
	else
		fprintf(fp, "latency under load: %u probe%s (1-byte "
		    "request/response on %s own TCP connection%s, "
		    "TCP_NODELAY, tos %s)", b->probes, b->probes == 1 ? "" :
		    "s", b->probes == 1 ? "its" : "their", b->probes == 1 ?
		    "" : "s", tos);
	fprintf(fp, ", a phase: idle %g s, then loaded %g s", b->idle_ms /
	    1000.0, b->duration_ms / 1000.0);
	if (b->omit_ms != 0)
		fprintf(fp, " after a %g s --omit", b->omit_ms / 1000.0);
	fputc('\n', fp);
}

/* "3 of 500 (0.60 %)" */
static const char *
bloat_loss_text(const struct bloat_loss *l, char *buf, size_t len)
{
	if (isnan(l->pct))
		snprintf(buf, len, "none sent");
	else
		snprintf(buf, len, "%llu of %llu (%.2f %%)", l->lost,
		    l->requests, l->pct);
	return buf;
}

/* UDP probes: each phase's lost ones, idle and loaded. */
static void
bloat_losses(FILE *fp, const struct bloat_report *b)
{
	char idle[64], loaded[64];
	unsigned i;

	for (i = 0; i < b->nruns; i++)
		if (b->runs[i].ok && b->runs[i].loaded_loss.has)
			fprintf(fp, "%-9s probes lost: idle %s, loaded %s\n",
			    bloat_phase_name(b->runs[i].phase),
			    bloat_loss_text(&b->runs[i].idle_loss, idle,
			    sizeof(idle)), bloat_loss_text(
			    &b->runs[i].loaded_loss, loaded, sizeof(loaded)));
}

void
bloat_report_text(FILE *fp, const struct bloat_report *b)
{
	const struct bloat_run *w = bloat_worst(b);
	const char *label;
	char tos[32], v[320];
	unsigned i;

	bloat_rate(b, 0, &label);
	bloat_head(fp, b, w != NULL ? bloat_tos(w->loaded->probe.tos, tos,
	    sizeof(tos)) : "unknown");
	fprintf(fp, "%-9s %10s %9s %11s %9s %9s %9s %10s %9s %6s\n", "phase",
	    label, "idle P50", "loaded P50", "P90", "P99", "added",
	    "queue", "self RTT", "RPM");
	for (i = 0; i < b->nruns; i++)
		bloat_row(fp, b, &b->runs[i]);
	fprintf(fp, "(ms; loaded: the probes beside the load; added: loaded "
	    "P50 - idle P50; queue: added x the load's rate; self RTT: the "
	    "load's TCP_INFO RTT, trimmed mean of 0.25 s samples)\n");
	bloat_losses(fp, b);
	bloat_verdict(v, sizeof(v), b);
	fprintf(fp, "verdict: %s\n", v);
	fprintf(fp, "RPM as %s 5.3.1: trimmed means of the lowest %u %%; "
	    "foreign: %s, self: the load's TCP RTT%s\n", BLOAT_DRAFT,
	    BLOAT_TRIM_PCT, b->probe_rate != 0 ? "the UDP probes' answered "
	    "round trips" : b->probe_crr ? "the probes' connect and "
	    "request/response (the draft's tcp_f and http_f as one time)" :
	    "the probes' request/response (no handshake time: connections "
	    "are kept)", b->udp_load ? " (a UDP load has "
	    "none: no RPM)" : "");
}
