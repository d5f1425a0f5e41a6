/*
 * plot.h: --plot FILE: Mbps against the swept parameter with confidence
 * bars, and each end's CPU % and irq/pkt on a second panel (--rr: P50
 * and P99 latency, and trans/s; one --rr test: its latency CDF), drawn by
 * gnuplot run as a child process (SVG, or PNG where gnuplot has the
 * pngcairo or png terminal, by the file's extension).  gigebench merge:
 * the rate matrix as a heat map.
 */
#ifndef GB_PLOT_H
#define GB_PLOT_H

#include <stddef.h>

#include "base/bloat.h"
#include "base/lathist.h"
#include "base/mesh.h"
#include "base/sweep.h"
#include "out/table.h"

/* Is gnuplot on PATH?  Returns 1 or 0 (then say "apt-get install gnuplot-nox"). */
int	plot_available(void);
/*
 * Draw the points against the first axis (one line per value of the
 * other axes, if any); title (--title) may be NULL.  Returns 0, or -1
 * with a reason in err.
 */
int	plot_write(const char *path, const struct sweep *,
	    const struct table_point *, unsigned npoints, char unit,
	    const char *title, char *err, size_t errlen);
/*
 * One --rr test: the distribution of its latencies, a CDF on a log x
 * axis, with P50, P99 and P99.9 marked; title (--title) may be NULL.
 * Returns 0, or -1 with a reason in err.
 */
int	plot_write_cdf(const char *path, const struct lathist *,
	    const char *title, char *err, size_t errlen);

/*
 * gigebench merge: the rate matrix as a heat map, senders down the side,
 * receivers across, each cell's rate in the -f unit written in it and
 * the outliers outlined.  Returns 0, or -1 with a reason in err.
 */
/*
 * --under-load: the probes' P50 and P99 latency over the run's time, each
 * test of each phase after the other, the loaded tests shaded (their
 * --omit lighter) and named; from the slices of runs[i].idle->intervals
 * and runs[i].loaded->probe.  0, or -1 with the reason in err.
 */
int	plot_write_bloat(const char *path, const struct bloat_run *runs,
	    unsigned n, const char *title, char *err, size_t errlen);

int	plot_write_mesh(const char *path, const struct mesh *, char unit,
	    char *err, size_t errlen);

#endif /* GB_PLOT_H */
