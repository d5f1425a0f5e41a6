/*
 * bloat.c: a latency-under-load phase's figures (base/bloat.h).
 *
 * The added delay is the loaded median less the idle one: the median,
 * not the mean, so that a handful of probes that met a loss and its
 * retransmission do not make a queue that was not there.  The queue it
 * implies is rpm_queue_bytes' (delay x rate / 8) at the load's rate,
 * which on a saturated bottleneck is the rate the queue drains at.
 *
 * RPM, as the draft defines it from what this version measures: the
 * foreign probe is a request/response on a connection of its own (the
 * draft's http_f; no handshake times, so no tcp_f: the foreign part is
 * http_f alone by its rule for missing components), each set taken as
 * its trimmed mean; the self probe (http_l) is the load's TCP RTT
 * estimate, which section 5.3 lets stand in where a probe cannot share
 * a load-generating connection.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "base/bloat.h"

static void
bloat_lat(const struct lathist *h, struct bloat_lat *l)
{
	l->count = (unsigned long long)h->count;
	l->p50_ms = (double)lathist_percentile(h, 50) / 1e6;
	l->p90_ms = (double)lathist_percentile(h, 90) / 1e6;
	l->p99_ms = (double)lathist_percentile(h, 99) / 1e6;
	l->trimmed_ms = lathist_trimmed_mean(h, BLOAT_TRIM_PCT) / 1e6;
}

int
bloat_compute(const struct bloat_in *in, struct bloat_figures *f, char *err,
    size_t errlen)
{
	struct rpm_probes p = {
		.tcp_f_ms = RPM_NONE, .tls_f_ms = RPM_NONE,
		.http_f_ms = RPM_NONE, .http_l_ms = RPM_NONE,
	};

	if (in->idle->count == 0 || in->loaded->count == 0) {
		snprintf(err, errlen, "no probe was answered %s",
		    in->idle->count == 0 ? "while the link was idle" :
		    "beside the load");
		return -1;
	}
	bloat_lat(in->idle, &f->idle);
	bloat_lat(in->loaded, &f->loaded);
	f->self_ms = in->self_ms;
	f->added_ms = rpm_added_delay_ms(f->loaded.p50_ms, f->idle.p50_ms);
	f->queue_bytes = isnan(in->rate_bps) ? NAN :
	    rpm_queue_bytes(f->added_ms, in->rate_bps);
	p.http_f_ms = f->loaded.trimmed_ms;
	p.http_l_ms = in->self_ms;
	f->has_rpm = !isnan(in->self_ms) && f->loaded.trimmed_ms > 0 &&
	    rpm_compute(&p, &f->rpm, NULL, 0) == 0;
	f->grade = f->added_ms <= BLOAT_LOW_MS ? BLOAT_GRADE_LOW :
	    f->added_ms <= BLOAT_HIGH_MS ? BLOAT_GRADE_MODERATE :
	    BLOAT_GRADE_HIGH;
	return 0;
}

const char *
bloat_grade_name(enum bloat_grade g)
{
	switch (g) {
	case BLOAT_GRADE_LOW:
		return "low";
	case BLOAT_GRADE_MODERATE:
		return "moderate";
	case BLOAT_GRADE_HIGH:
		break;
	}
	return "high";
}

static const char *const bloat_phases[GB_PHASE_COUNT] = {
	[GB_PHASE_UPLOAD] = "upload",
	[GB_PHASE_DOWNLOAD] = "download",
	[GB_PHASE_BOTH] = "both",
};

const char *
bloat_phase_name(int phase)
{
	return phase >= 0 && phase < GB_PHASE_COUNT ? bloat_phases[phase] :
	    "?";
}

int
bloat_phase_parse(const char *name)
{
	int i;

	for (i = 0; i < GB_PHASE_COUNT; i++)
		if (strcmp(name, bloat_phases[i]) == 0)
			return i;
	return -1;
}

void
bloat_phase_params(const struct gb_params *load, int phase,
    struct gb_params *out)
{
	*out = *load;
	out->direction = phase == GB_PHASE_DOWNLOAD ? GB_DIR_CLIENT_RECEIVES :
	    GB_DIR_CLIENT_SENDS;
	out->bidir = phase == GB_PHASE_BOTH;
}

/* A direction's goodput: its receiver's, else its sender's. */
static double
bloat_mbps(const struct gb_side *tx, const struct gb_side *rx)
{
	return rx->has ? rx->mbps : tx->has ? tx->mbps : 0;
}

static void
bloat_loss(int has, uint64_t requests, uint64_t lost, struct bloat_loss *out)
{
	out->has = has;
	out->requests = requests;
	out->lost = lost;
	out->pct = has && requests > 0 ? 100.0 * (double)lost /
	    (double)requests : NAN;
}

/* The sending ends' RTT of n slices, counted ones, into h. */
static void
bloat_self_add(struct lathist *h, const struct gb_interval *iv, unsigned n)
{
	unsigned i;

	for (i = 0; i < n && i < GB_MAX_INTERVALS; i++)
		if (iv[i].has_tcp && !iv[i].omitted && iv[i].rtt_us != 0)
			lathist_add(h, (uint64_t)iv[i].rtt_us * 1000);
}

/*
 * The self probes' trimmed mean in ms from the loaded test's slices,
 * this end's and the listener's, both directions; NAN without any.
 */
static double
bloat_self_series(const struct gb_result *l, unsigned long long *n)
{
	struct lathist h;	/* 9 KiB */

	lathist_init(&h);
	bloat_self_add(&h, l->intervals, l->nintervals);
	bloat_self_add(&h, l->peer_intervals, l->npeer_intervals);
	bloat_self_add(&h, l->rintervals, l->nrintervals);
	bloat_self_add(&h, l->rpeer_intervals, l->nrpeer_intervals);
	*n = h.count;
	return h.count > 0 ? lathist_trimmed_mean(&h, BLOAT_TRIM_PCT) / 1e6 :
	    NAN;
}

void
bloat_from_results(struct bloat_run *run)
{
	const struct gb_result *l = run->loaded;
	struct bloat_in in;
	double rtt = 0, series;
	unsigned n = 0;

	run->ok = 0;
	if (!run->idle->has_latency || !l->probe.has) {
		snprintf(run->error, sizeof(run->error), "the %s test has no "
		    "probe latencies", !run->idle->has_latency ? "idle" :
		    "loaded");
		return;
	}
	if (l->sender.tcp.has && l->sender.tcp.rtt_us != 0) {
		rtt += l->sender.tcp.rtt_us;
		n++;
	}
	if (l->params.bidir && l->rsender.tcp.has &&
	    l->rsender.tcp.rtt_us != 0) {
		rtt += l->rsender.tcp.rtt_us;
		n++;
	}
	run->load_mbps = bloat_mbps(&l->sender, &l->receiver);
	if (l->params.bidir)
		run->load_mbps += bloat_mbps(&l->rsender, &l->rreceiver);
	bloat_loss(run->idle->sender.rr.has_udp, run->idle->sender.rr.requests,
	    run->idle->sender.rr.lost, &run->idle_loss);
	bloat_loss(l->probe.udp, l->probe.requests, l->probe.lost,
	    &run->loaded_loss);
	in.idle = &run->idle->latency;
	in.loaded = &l->probe.latency;
	series = bloat_self_series(l, &run->self_samples);
	in.self_ms = !isnan(series) ? series : n > 0 ? rtt / n / 1000 : NAN;
	in.rate_bps = l->params.bidir ? NAN : run->load_mbps * 1e6;
	run->ok = bloat_compute(&in, &run->f, run->error,
	    sizeof(run->error)) == 0;
}
