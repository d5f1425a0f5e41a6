/*
 * bloat_report.h: --under-load's report: a line per phase (its load, the
 * probes idle and loaded, the added delay, the queue it implies, the
 * self RTT and RPM), the verdict, and what RPM was computed from; and
 * the same as one JSON document.
 */
#ifndef GB_BLOAT_REPORT_H
#define GB_BLOAT_REPORT_H

#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

#include "base/bloat.h"

struct bloat_report {
	unsigned		 probes;	/* probe connections */
	uint32_t		 probe_rate;	/* UDP probes' (a flow); 0: TCP */
	int			 probe_crr;	/* TCP, a connection a probe */
	int			 udp_load;	/* -u: no TCP RTT, no RPM */
	uint32_t		 idle_ms;	/* each idle reference's -T */
	uint32_t		 omit_ms;	/* each load's --omit first */
	uint32_t		 duration_ms;	/* each load's -T */
	char			 unit;		/* -f, 0: the default */
	unsigned		 nruns;
	const struct bloat_run	*runs;
};

/* "udp", "tcp-crr" (a connection a probe) or "tcp". */
const char *bloat_probe_kind(const struct bloat_report *);
/* The worst phase that ran, or NULL when none did. */
const struct bloat_run *bloat_worst(const struct bloat_report *);
/* The verdict, one line without "verdict: " or a newline. */
void	bloat_verdict(char *buf, size_t len, const struct bloat_report *);
void	bloat_report_text(FILE *, const struct bloat_report *);
json_t	*bloat_report_json(const struct bloat_report *);
/* --csv: a header and one row a phase (bloat_report_csv.c lists them). */
void	bloat_report_csv(FILE *, const struct bloat_report *);

#endif /* GB_BLOAT_REPORT_H */
