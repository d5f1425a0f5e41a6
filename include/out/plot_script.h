/*
 * plot_script.h: the two files behind --plot, written from a sweep's
 * table: the data (one block per line of the picture) and the gnuplot
 * script that draws it.  Pure but for the FILEs; plot.c runs gnuplot.
 */
#ifndef GB_PLOT_SCRIPT_H
#define GB_PLOT_SCRIPT_H

#include <stdio.h>

#include "base/sweep.h"
#include "out/table.h"

enum plot_term {
	PLOT_SVG,
	PLOT_PNG		/* pngcairo, else png */
};

enum plot_xscale {
	PLOT_LINEAR,
	PLOT_LOG2,		/* geometric or wide: window=4K..1M*2 */
	PLOT_CATEGORY		/* cc: value indexes labelled with names */
};

#define PLOT_NSERIES	4	/* CPU % TX, RX; irq/pkt TX, RX */

/*
 * What the data and the script are written from: the caller's sweep and
 * points, the unit's label ("Mbps"), the nx values of axis 0 on each of
 * ngroups lines (one per combination of the other axes), axis 0's value
 * indexes sorted by value, the x range and scale, which series of the
 * lower panel have data (have[]: CPU % TX, RX, irq/pkt TX, RX), the CI
 * level (0: no point has one) and each sweep point's index into points
 * (-1: not there).
 */
struct plot_script {
	const struct sweep		*sweep;
	const struct table_point	*points;
	const char			*unit_label;
	char				 unit;
	enum plot_xscale		 xscale;
	unsigned			 nx;
	unsigned			 ngroups;
	unsigned			 order[SWEEP_MAX_VALUES];
	double				 xlo, xhi;
	int				 have[PLOT_NSERIES];
	int				 have_cpu;
	int				 have_lower;
	int				 have_y2;
	double				 level;
	int				 rr;	/* --rr points: plot_rr.c */
	int				 bidir;	/* --bidir: the reverse rate too */
	int				*index;
	const char			*title;	/* --title, or NULL */
};

/*
 * Check the points against the sweep and lay the picture out.  Returns 0,
 * or -1 with the reason in err ("plot: no point has a measurement").
 */
int	plot_script_init(struct plot_script *, const struct sweep *,
	    const struct table_point *, unsigned npoints, char unit,
	    char *err, size_t errlen);
void	plot_script_free(struct plot_script *);
/* Columns: x, rate mean, ci_lo, ci_hi, CPU % TX, RX, irq/pkt TX, RX. */
void	plot_script_data(FILE *, const struct plot_script *);
/* The script; out must hold no single quote or newline (plot.c checks). */
void	plot_script_write(FILE *, const struct plot_script *,
	    enum plot_term, const char *datapath, const char *out);

#endif /* GB_PLOT_SCRIPT_H */
