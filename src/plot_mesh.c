/*
 * plot_mesh.c: the data and the gnuplot script of gigebench merge --plot
 * (out/plot.h): the rate matrix as a heat map.  Senders go down the
 * side (the first at the top, as in the text), receivers across; each
 * pair is a square coloured by its rate, from red (slow) to blue, with
 * the rate written in it, "-" on the diagonal and "?" where a pair has
 * no result (left white).  Outliers are outlined in black and their
 * number carries the text's "*".
 *
 * Host names go into single-quoted, noenhanced strings (plot_script.c's
 * plot_script_string, which expands nothing); the output name between single quotes, which
 * plot.c has checked.  This file writes to the FILEs it is given and
 * nothing else.
 */
#include <math.h>
#include <stdio.h>

#include "base/mesh.h"
#include "base/units.h"
#include "out/plot.h"
#include "plot_internal.h"

/* Columns of the data file, as gnuplot counts them. */
enum plot_mesh_col {
	MCOL_X = 1,		/* the receiver's index */
	MCOL_Y,			/* the sender's index */
	MCOL_RATE,		/* NaN: no rate, no colour */
	MCOL_OUTLIER,		/* 1 or 0 */
	MCOL_TEXT		/* "941.2", "95.1*", "-", "?" */
};

void
plot_mesh_data(FILE *f, const struct mesh *m, char unit)
{
	const struct mesh_pair	*p;
	double			 v;
	unsigned		 s, d;

	fputs("# receiver sender rate outlier text\n", f);
	for (s = 0; s < m->nhosts; s++)
		for (d = 0; d < m->nhosts; d++) {
			p = MESH_PAIR(m, s, d);
			fprintf(f, "%u %u", d, s);
			v = p->best != NULL && s != d ?
			    units_rate(p->best->mbps * 1e6, unit, NULL) : NAN;
			plot_script_put(f, v, 1);
			fprintf(f, " %d ", p->outlier);
			if (s == d)
				fputs("\"-\"\n", f);
			else if (p->best == NULL)
				fputs("\"?\"\n", f);
			else
				fprintf(f, unit == 'g' || unit == 'G' ?
				    "\"%.3f%s\"\n" : "\"%.1f%s\"\n", v,
				    p->outlier ? "*" : "");
		}
}

/* ("h1" 0, "h2" 1, ...): the hosts as tics. */
static void
plot_mesh_tics(FILE *f, const struct mesh *m, const char *axis)
{
	unsigned	i;

	fprintf(f, "set %stics (", axis);
	for (i = 0; i < m->nhosts; i++) {
		fputs(i > 0 ? ", " : "", f);
		plot_script_string(f, m->hosts[i]);
		fprintf(f, " %u", i);
	}
	fputs(") noenhanced nomirror\n", f);
}

void
plot_mesh_write(FILE *f, const struct mesh *m, char unit,
    enum plot_term term, const char *data, const char *out)
{
	const char	*label;
	double		 hi = m->nhosts - 0.5;
	int		 font = m->nhosts <= 8 ? 10 : m->nhosts <= 16 ? 8 : 6;

	units_rate(1e6, unit, &label);
	plot_script_term(f, term, out);
	fprintf(f, "set title \"gigebench merge: %s of %u pairs, median "
	    "%.4g; outlined: below median / %g\" noenhanced\n", label,
	    m->nrated, units_rate(m->median_mbps * 1e6, unit, NULL),
	    m->factor);
	fputs("set xlabel \"receiver\"\nset ylabel \"sender\"\n", f);
	fprintf(f, "set xrange [-0.5:%g]\nset yrange [%g:-0.5]\n", hi, hi);
	plot_mesh_tics(f, m, "x");
	plot_mesh_tics(f, m, "y");
	fputs("set xtics rotate by -30\nset size ratio -1\nunset key\n", f);
	fprintf(f, "set cblabel \"%s\"\nset cbrange [0:*]\n", label);
	fputs("set palette defined (0 \"#b2182b\", 0.5 \"#f7f7f7\", "
	    "1 \"#2166ac\")\n", f);
	fprintf(f, "plot '%s' using %d:%d:(0.5):(0.5):%d with boxxyerror "
	    "fs solid 1.0 noborder lc palette, \\\n", data, MCOL_X, MCOL_Y,
	    MCOL_RATE);
	fprintf(f, "     '' using ($%d > 0 ? $%d : NaN):%d:(0.47):(0.47) "
	    "with boxxyerror fs empty border lc rgb \"black\" lw 3 lc rgb \"black\", \\\n",
	    MCOL_OUTLIER, MCOL_X, MCOL_Y);
	fprintf(f, "     '' using %d:%d:%d with labels font \"sans,%d\" "
	    "noenhanced\n", MCOL_X, MCOL_Y, MCOL_TEXT, font);
}
