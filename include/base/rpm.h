/*
 * rpm.h: responsiveness in round trips per minute (RPM), as
 * draft-ietf-ippm-responsiveness-09 ("Responsiveness under Working
 * Conditions"), section 5.3.1, computes it from probe latencies; and the
 * queue that a latency added under load implies.  Pure.
 */
#ifndef GB_RPM_H
#define GB_RPM_H

#include <math.h>
#include <stddef.h>

#define RPM_MS_PER_MINUTE	60000.0
/* The draft's TMP: the share of the samples kept, the lowest ones. */
#define RPM_KEEP_PCT		95
/* A component that was not measured (no TLS, say). */
#define RPM_NONE		NAN

/*
 * The mean of the lowest keep_pct % of the n samples v (ceil(n x keep_pct
 * / 100) of them, at least one), the draft's single-sided trimmed mean.
 * v is not changed: it is copied into scratch (room for n doubles, not
 * v itself) and sorted there; no allocation.  -1 with the reason in err
 * (which may be NULL) for n == 0, keep_pct outside 1-100, or a sample
 * that is not a finite number >= 0.
 */
int	rpm_trimmed_mean(const double *v, size_t n, unsigned keep_pct,
	    double *scratch, double *out, char *err, size_t errlen);

/* The trimmed means of one set of probes, in ms; RPM_NONE if absent. */
struct rpm_probes {
	double	tcp_f_ms;	/* foreign: TCP handshake */
	double	tls_f_ms;	/* foreign: TLS handshake, per round trip */
	double	http_f_ms;	/* foreign: HTTP request to whole response */
	double	http_l_ms;	/* self: HTTP on a load-generating connection */
};

struct rpm_figures {
	unsigned	foreign_parts;	/* of tcp_f, tls_f, http_f: 1-3 */
	double		foreign_ms;	/* their mean */
	double		foreign_rpm;	/* 60000 / foreign_ms */
	double		loaded_rpm;	/* 60000 / http_l_ms */
	double		rpm;		/* (foreign_rpm + loaded_rpm) / 2 */
};

/*
 * The draft's Responsiveness from the trimmed means: the foreign part is
 * the mean of the components present, so TCP-only is its (tcp_f +
 * http_f) / 2.  -1 with the reason in err when http_l_ms or all three
 * foreign ones are absent, or one present is not a finite number > 0.
 */
int	rpm_compute(const struct rpm_probes *, struct rpm_figures *,
	    char *err, size_t errlen);
/* 60000 / rtt_ms; NAN unless rtt_ms is finite and > 0. */
double	rpm_of_ms(double rtt_ms);

/* loaded_ms - idle_ms, 0 when below; NAN unless both finite and >= 0. */
double	rpm_added_delay_ms(double loaded_ms, double idle_ms);
/*
 * The bytes queued that make added_delay_ms at rate_bps (bit/s, the
 * bottleneck's drain rate): added_delay_ms / 1000 x rate_bps / 8.  NAN
 * unless both are finite and >= 0.
 */
double	rpm_queue_bytes(double added_delay_ms, double rate_bps);

#endif /* GB_RPM_H */
