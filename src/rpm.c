/*
 * rpm.c: round trips per minute from probe latencies, as
 * draft-ietf-ippm-responsiveness-09, "Responsiveness under Working
 * Conditions" (the working group's source; its section 5.3.1 reads the
 * same in -07 and in -08 of 20 October 2025), defines them.
 *
 * Section 5.3.1 aggregates each set of samples with "a single-sided
 * trimmed mean at the TMP (Trimmed Mean Percentage - default to 95%)
 * percentile", TM(); then, with TLS (5.3.1.1):
 *
 *  Foreign_Responsiveness = 60000 / ((TM(tcp_f)+TM(tls_f)+TM(http_f))/3)
 *  Loaded_Responsiveness = 60000 / TM(http_l)
 *  Responsiveness = (Foreign_Responsiveness + Loaded_Responsiveness) / 2
 *
 * and for TCP only (5.3.1.2) the foreign part is (TM(tcp_f) +
 * TM(http_f)) / 2: "Zeroes cannot be substituted for tls_f", each
 * contribution keeps an equal weight.
 *
 * So the draft averages two RPMs, not two latencies: 30 ms foreign and
 * 120 ms self are (2000 + 500) / 2 = 1250 RPM, not 60000 / 75 = 800.
 * "Single-sided" keeps the lowest 95 % and drops the top 5 % only.  The
 * draft does not say how many that is when n x 95 % is not whole: ceil()
 * keeps them, so n = 1 keeps its sample, 10 keep all 10 (9.5 rounded
 * up; under 20 samples there is no top 5 % to drop) and 100 keep 95.
 * It does not say what a missing foreign component other than TLS
 * does either: any of the three that was not measured is left out and
 * the others keep equal weights, 5.3.1.2's rule for TLS.  All times are
 * in ms, as the draft's; the caller's samples may be finer (double).
 * Where a self probe cannot share a load-generating connection, section
 * 5.3 lets the TCP stack's RTT estimate stand in for http_l: the
 * caller's choice.
 *
 * Last, the queue an added delay implies: the bytes that take that long
 * to drain at the bottleneck's rate (delay x rate / 8).
 *
 * Pure arithmetic on the caller's arrays: no I/O, no allocation.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/rpm.h"

static int rpm_error(char *, size_t, const char *, ...)
    __attribute__((format(printf, 3, 4)));

static int
rpm_error(char *err, size_t errlen, const char *fmt, ...)
{
	va_list	ap;

	if (err != NULL && errlen > 0) {
		va_start(ap, fmt);
		vsnprintf(err, errlen, fmt, ap);
		va_end(ap);
	}
	return -1;
}

static int
rpm_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* ceil(n x pct / 100) without n x pct overflowing: n = 100q + r. */
static size_t
rpm_keep(size_t n, unsigned pct)
{
	size_t q = n / 100, r = n % 100;

	return q * pct + (r * pct + 99) / 100;
}

int
rpm_trimmed_mean(const double *v, size_t n, unsigned keep_pct,
    double *scratch, double *out, char *err, size_t errlen)
{
	double sum = 0;
	size_t i, keep;

	if (n == 0)
		return rpm_error(err, errlen, "trimmed mean has no samples");
	if (keep_pct < 1 || keep_pct > 100)
		return rpm_error(err, errlen, "trimmed mean share is not "
		    "1-100 %%: %u", keep_pct);
	for (i = 0; i < n; i++)
		if (!isfinite(v[i]) || v[i] < 0)
			return rpm_error(err, errlen, "latency sample %zu is "
			    "not a finite number >= 0: %g", i, v[i]);
	memcpy(scratch, v, n * sizeof(*v));
	qsort(scratch, n, sizeof(*scratch), rpm_cmp);
	keep = rpm_keep(n, keep_pct);
	for (i = 0; i < keep; i++)
		sum += scratch[i];
	*out = sum / (double)keep;
	return 0;
}

double
rpm_of_ms(double rtt_ms)
{
	if (!isfinite(rtt_ms) || rtt_ms <= 0)
		return NAN;
	return RPM_MS_PER_MINUTE / rtt_ms;
}

int
rpm_compute(const struct rpm_probes *p, struct rpm_figures *f, char *err,
    size_t errlen)
{
	static const char *const names[] = {
		"TCP handshake", "TLS handshake", "HTTP"
	};
	double parts[3], sum = 0;
	unsigned i, n = 0;

	parts[0] = p->tcp_f_ms;
	parts[1] = p->tls_f_ms;
	parts[2] = p->http_f_ms;
	for (i = 0; i < 3; i++) {
		if (isnan(parts[i]))
			continue;	/* RPM_NONE: not measured */
		if (isnan(rpm_of_ms(parts[i])))
			return rpm_error(err, errlen, "foreign %s time is not "
			    "a number of ms > 0: %g", names[i], parts[i]);
		sum += parts[i];
		n++;
	}
	if (n == 0)
		return rpm_error(err, errlen, "foreign probe times are all "
		    "missing (TCP handshake, TLS handshake, HTTP)");
	if (isnan(p->http_l_ms))
		return rpm_error(err, errlen, "self probe time is missing");
	if (isnan(rpm_of_ms(p->http_l_ms)))
		return rpm_error(err, errlen, "self probe time is not a "
		    "number of ms > 0: %g", p->http_l_ms);
	memset(f, 0, sizeof(*f));
	f->foreign_parts = n;
	f->foreign_ms = sum / n;
	f->foreign_rpm = rpm_of_ms(f->foreign_ms);
	f->loaded_rpm = rpm_of_ms(p->http_l_ms);
	f->rpm = (f->foreign_rpm + f->loaded_rpm) / 2;
	return 0;
}

double
rpm_added_delay_ms(double loaded_ms, double idle_ms)
{
	if (!isfinite(loaded_ms) || !isfinite(idle_ms) || loaded_ms < 0 ||
	    idle_ms < 0)
		return NAN;
	/* Below the idle figure is noise, not a queue of negative size. */
	return loaded_ms > idle_ms ? loaded_ms - idle_ms : 0;
}

double
rpm_queue_bytes(double added_delay_ms, double rate_bps)
{
	if (!isfinite(added_delay_ms) || !isfinite(rate_bps) ||
	    added_delay_ms < 0 || rate_bps < 0)
		return NAN;
	return added_delay_ms / 1000 * rate_bps / 8;
}
