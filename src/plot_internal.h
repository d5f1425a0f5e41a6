/*
 * plot_internal.h: internal to the --plot writers (plot_script.c, the
 * throughput picture, and plot_rr.c, --rr's): the page's layout and the
 * pieces of script both write.  Nothing outside src/plot*.c includes it.
 */
#ifndef GB_PLOT_INTERNAL_H
#define GB_PLOT_INTERNAL_H

#include <stddef.h>
#include <stdio.h>

#include "base/bloat.h"
#include "base/lathist.h"
#include "base/mesh.h"
#include "out/plot_script.h"

/* The page in screen fractions; both panels share the x extent. */
#define PLOT_LEFT	0.10
#define PLOT_RIGHT	0.76		/* keys to the right */
#define PLOT_RIGHT_BARE	0.95		/* no key */
#define PLOT_KEY_GAP	0.03		/* the keys, off the plot */
#define PLOT_Y2_WIDTH	0.075		/* y2 tick labels, y2 label */
#define PLOT_TOP	0.92
#define PLOT_SPLIT_HI	0.45		/* the upper panel's bottom */
#define PLOT_SPLIT_LO	0.42		/* the lower panel's top */
#define PLOT_BOTTOM	0.09
#define PLOT_WIDTH_PX	900
#define PLOT_CHAR_PX	7.0		/* "sans,11", roughly */

/* The point at the i-th value of axis 0 on line g: axis 0 varies slowest. */
#define PLOT_POINT(c, i, g)	((i) * (c)->ngroups + (g))

/* plot_script.c */
/* The terminal (SVG, or pngcairo/png) and the output file. */
void		 plot_script_term(FILE *, enum plot_term, const char *out);
/* plot_script_term, then the multiplot's title and the x axis. */
void		 plot_script_head(FILE *, const struct plot_script *,
		    enum plot_term, const char *);
double		 plot_script_x(const struct plot_script *, unsigned,
		    unsigned);
/* A value, or NaN (gnuplot skips it) when n is 0 or it is not finite. */
void		 plot_script_put(FILE *, double, unsigned);
/* A single-quoted gnuplot string of a text we did not make. */
void		 plot_script_string(FILE *, const char *);
/* "# text\n" in a data file, the text escaped to one line. */
void		 plot_script_comment(FILE *, const char *);
const char	*plot_script_group(const struct plot_script *, unsigned,
		    char *, size_t);
double		 plot_script_key_x(const struct plot_script *);
void		 plot_script_xtics(FILE *, const struct plot_script *, int);
void		 plot_script_xlabel(FILE *, const struct plot_script *);
/* The colour of the g-th line of the other axes. */
const char	*plot_script_color(unsigned);

/* plot_rr.c */
/* A --rr sweep: x, P50 us, P99 us, trans/s, its CI low and high. */
void		 plot_rr_data(FILE *, const struct plot_script *);
/* The two panels: P50 and P99 above, trans/s below. */
void		 plot_rr_panels(FILE *, const struct plot_script *,
		    const char *data);
/* One --rr test: its latencies' CDF, from the histogram's buckets. */
void		 plot_cdf_data(FILE *, const struct lathist *);
void		 plot_cdf_write(FILE *, const struct lathist *,
		    const char *title, enum plot_term, const char *data,
		    const char *out);

/* plot_bloat.c */
/* --under-load: time, the probes' P50 and P99 in ms; a block a test. */
void		 plot_bloat_data(FILE *, const struct bloat_run *, unsigned);
void		 plot_bloat_write(FILE *, const struct bloat_run *, unsigned,
		    const char *title, enum plot_term, const char *data,
		    const char *out);

/* plot_mesh.c */
/* gigebench merge: x, y, rate, outlier, the cell's text; one per pair. */
void		 plot_mesh_data(FILE *, const struct mesh *, char unit);
void		 plot_mesh_write(FILE *, const struct mesh *, char unit,
		    enum plot_term, const char *data, const char *out);

#endif /* GB_PLOT_INTERNAL_H */
