/*
 * plot.h: --plot FILE: Mbps against the swept parameter with confidence
 * bars, and each end's CPU % and irq/pkt on a second panel, drawn by
 * gnuplot run as a child process (SVG, or PNG where gnuplot has the
 * pngcairo or png terminal, by the file's extension).
 */
#ifndef GB_PLOT_H
#define GB_PLOT_H

#include <stddef.h>

#include "base/sweep.h"
#include "out/table.h"

/* Is gnuplot on PATH?  Returns 1 or 0 (then say "apt-get install gnuplot-nox"). */
int	plot_available(void);
/*
 * Draw the points against the first axis (one line per value of the
 * other axes, if any).  Returns 0, or -1 with a reason in err.
 */
int	plot_write(const char *path, const struct sweep *,
	    const struct table_point *, unsigned npoints, char unit,
	    char *err, size_t errlen);

#endif /* GB_PLOT_H */
