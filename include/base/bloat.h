/*
 * bloat.h: the figures of one latency-under-load phase (--under-load)
 * from what its two tests measured: the probes' latencies alone (the
 * idle reference) and beside the load, the load's own RTT (TCP_INFO's,
 * the self probe) and its rate.  From them: the added delay (loaded P50
 * less idle P50), the queue it implies at the load's rate, the
 * responsiveness draft's RPM (rpm.h) and a grade.
 *
 * Pure arithmetic: no I/O, no allocation.
 */
#ifndef GB_BLOAT_H
#define GB_BLOAT_H

#include <stddef.h>

#include "base/lathist.h"
#include "base/params.h"
#include "base/result.h"
#include "base/rpm.h"

/* The draft whose definitions RPM and the trimmed mean follow. */
#define BLOAT_DRAFT		"draft-ietf-ippm-responsiveness-09"
/* Its trimmed mean keeps the lowest 95 % of the samples (5.3.1). */
#define BLOAT_TRIM_PCT		95u
/*
 * --under-load's --omit when none is given: the load's first seconds,
 * while its queue fills (cubic took 3 s to fill 1 MiB at 100 Mbit/s),
 * are out of its figures and of its probes'.
 */
#define UNDERLOAD_OMIT_MS	3000u
/*
 * The grade by the added delay: up to 5 ms "low" (a queue a real-time
 * call does not notice), up to 30 ms "moderate", above "high".
 */
#define BLOAT_LOW_MS		5.0
#define BLOAT_HIGH_MS		30.0

/* --under-load's loaded phases, in the order --phases gives them. */
enum gb_phase {
	GB_PHASE_UPLOAD = 0,	/* the connecting side sends */
	GB_PHASE_DOWNLOAD,	/* the listener sends */
	GB_PHASE_BOTH,		/* --bidir */
	GB_PHASE_COUNT
};

enum bloat_grade {
	BLOAT_GRADE_LOW = 0,
	BLOAT_GRADE_MODERATE,
	BLOAT_GRADE_HIGH,
};

struct bloat_in {
	const struct lathist	*idle;		/* the probes alone */
	const struct lathist	*loaded;	/* the probes beside the load */
	double			 self_ms;	/* the load's RTT; NAN: none */
	double			 rate_bps;	/* the load's; NAN: no one rate
						   drains the queue (both) */
};

/* Latency figures of one set of probes, in ms. */
struct bloat_lat {
	unsigned long long	count;
	double			p50_ms, p90_ms, p99_ms;
	double			trimmed_ms;	/* BLOAT_TRIM_PCT's mean */
};

struct bloat_figures {
	struct bloat_lat	idle;
	struct bloat_lat	loaded;
	double			self_ms;	/* NAN: none */
	double			added_ms;	/* loaded P50 - idle P50, >= 0 */
	double			queue_bytes;	/* NAN without a rate */
	int			has_rpm;	/* needs the self probe */
	struct rpm_figures	rpm;
	enum bloat_grade	grade;
};

/*
 * 0, or -1 with the reason in err when either set of probes is empty
 * (no transaction was answered: the load starved them, or the link is
 * down).
 */
int		bloat_compute(const struct bloat_in *, struct bloat_figures *,
		    char *err, size_t errlen);
/* One phase as --under-load ran it: its two tests and their figures. */
/* UDP probes (--probe-rate): requests sent and those lost, of a test. */
struct bloat_loss {
	int			 has;
	unsigned long long	 requests, lost;
	double			 pct;		/* lost of requests; NAN: none */
};

struct bloat_run {
	int			 phase;		/* enum gb_phase */
	int			 ok;		/* f is known */
	char			 error[GB_ERR_LEN];	/* else why not */
	double			 load_mbps;	/* both directions' with both */
	struct bloat_figures	 f;
	struct bloat_loss	 idle_loss, loaded_loss;
	/*
	 * The self probes: the load's sending ends' TCP RTT at the end of
	 * each slice after the omit (both directions' with both), their
	 * trimmed mean the self time; 0: no slices, the RTT at the end.
	 */
	unsigned long long	 self_samples;
	struct gb_result	*idle;		/* the probes alone */
	struct gb_result	*loaded;	/* the load and its probes */
};

/*
 * A phase's figures from its two tests (bloat_compute's): the idle
 * test's latencies, the loaded one's probes, its sending ends' TCP RTT
 * (the mean of both directions' with both) and its receivers' rate,
 * the queue's drain rate (none with both: two queues, one added delay).
 * Sets run->ok, or run->error.
 */
void		 bloat_from_results(struct bloat_run *run);
/* "upload", "download", "both"; the phase of a name, or -1. */
const char	*bloat_phase_name(int phase);
int		 bloat_phase_parse(const char *name);
/* The load of a phase: load's test going that way (-t, -r, --bidir). */
void		 bloat_phase_params(const struct gb_params *load, int phase,
		    struct gb_params *out);
/* "low", "moderate", "high". */
const char	*bloat_grade_name(enum bloat_grade);

#endif /* GB_BLOAT_H */
