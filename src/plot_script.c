/*
 * plot_script.c: the data file and the gnuplot script behind --plot.
 *
 * The picture: the rate (in the -f unit) against the first axis, mean with
 * the confidence interval as error bars, one line per combination of the
 * other axes; below it each end's CPU % (left axis, solid) and irq/pkt
 * (right axis, dashed) where known.  Values that are geometric or span a
 * wide range get a log2 x axis, names (cc) are categories, and the ticks
 * sit on the swept values, labelled with their own text ("64K", "bbr").
 *
 * Every text that did not come from this file (a swept value, --title)
 * goes through plot_script_string: single-quoted, where gnuplot expands
 * nothing, and marked noenhanced, so "_" or "^" in a name is not typeset.
 * The output name goes between single quotes; plot.c has refused quotes
 * and newlines in it.  This file writes to the FILEs it is given and nothing else.
 */

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "out/plot_script.h"
#include "base/units.h"
#include "plot_internal.h"

/* Columns of the data file, as gnuplot counts them. */
enum plot_col {
	COL_X = 1,
	COL_RATE,
	COL_RATE_LO,
	COL_RATE_HI,
	COL_CPU_TX,
	COL_CPU_RX,
	COL_IRQ_TX,
	COL_IRQ_RX,
	COL_REV,	/* --bidir only: the reverse direction's rate */
	COL_REV_LO,
	COL_REV_HI
};

/* The lower panel: TX filled, RX open points; irq/pkt dashed. */
static const struct plot_series {
	const char	*title;
	int		 col;
	int		 irq;		/* on y2 when CPU is known */
	int		 pt;
	const char	*color;		/* when there is one line */
} plot_series[PLOT_NSERIES] = {
	{ "CPU % TX", COL_CPU_TX, 0, 7, "#d62728" },
	{ "CPU % RX", COL_CPU_RX, 0, 6, "#ff7f0e" },
	{ "irq/pkt TX", COL_IRQ_TX, 1, 5, "#6a3d9a" },
	{ "irq/pkt RX", COL_IRQ_RX, 1, 4, "#b15928" },
};

/* A colour per line of the other axes; the point shape every 10 lines. */
static const char *const plot_colors[] = {
	"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd",
	"#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf",
};
#define PLOT_NCOLORS	(sizeof(plot_colors) / sizeof(plot_colors[0]))

const char *
plot_script_color(unsigned g)
{
	return plot_colors[g % PLOT_NCOLORS];
}
static const int plot_shapes[] = { 7, 5, 9, 11, 13 };
#define PLOT_NSHAPES	(sizeof(plot_shapes) / sizeof(plot_shapes[0]))

/* Parameters whose values are bytes. */
static const int plot_size_params[] = {
	SWEEP_MTU, SWEEP_MSS, SWEEP_WINDOW, SWEEP_SNDBUF, SWEEP_RCVBUF,
	SWEEP_LENGTH,
};
#define PLOT_NSIZE_PARAMS \
	(sizeof(plot_size_params) / sizeof(plot_size_params[0]))


static void	 plot_script_error(char *, size_t, const char *, ...)
		    __attribute__((format(printf, 3, 4)));
static void	 plot_script_xaxis(struct plot_script *);
static int	 plot_script_is_size(int);
static double	 plot_script_xfrac(const struct plot_script *, double);
static double	 plot_script_right(const struct plot_script *);
static void	 plot_script_upper(FILE *, const struct plot_script *,
		    const char *);
static void	 plot_script_lower(FILE *, const struct plot_script *,
		    const char *);

static void
plot_script_error(char *err, size_t errlen, const char *fmt, ...)
{
	va_list	ap;

	if (err == NULL || errlen == 0)
		return;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
}

static int
plot_script_is_size(int param)
{
	size_t	i;

	for (i = 0; i < PLOT_NSIZE_PARAMS; i++)
		if (plot_size_params[i] == param)
			return 1;
	return 0;
}

/*
 * Sort axis 0 by value (lines must not zig-zag), pick the scale and the
 * range.  Log2 when the values are positive and either a geometric series
 * or spread over more than 5 octaves, where a linear axis would crowd the
 * small ones into a corner.
 */
static void
plot_script_xaxis(struct plot_script *c)
{
	double		 v[SWEEP_MAX_VALUES] = { 0 }, lo, hi, r, t;
	unsigned	 i, j, u;
	int		 geometric;

	for (i = 0; i < c->nx; i++) {
		c->order[i] = i;
		v[i] = sweep_value(c->sweep, 0, PLOT_POINT(c, i, 0));
	}
	if (c->sweep->axes[0].param == SWEEP_CC) {
		c->xscale = PLOT_CATEGORY;
		c->xlo = -0.5;
		c->xhi = c->nx - 0.5;
		return;
	}
	for (i = 1; i < c->nx; i++) {	/* insertion: <= 256 values */
		u = c->order[i];
		for (j = i; j > 0 && v[c->order[j - 1]] > v[u]; j--)
			c->order[j] = c->order[j - 1];
		c->order[j] = u;
	}
	lo = v[c->order[0]];
	hi = v[c->order[c->nx - 1]];
	c->xscale = PLOT_LINEAR;
	if (lo > 0 && c->nx >= 3) {
		r = v[c->order[1]] / lo;
		geometric = r >= 1.5;
		for (i = 2; geometric && i < c->nx; i++) {
			t = v[c->order[i]] / v[c->order[i - 1]];
			geometric = fabs(t / r - 1) < 0.05;
		}
		if (geometric || hi / lo > 32)
			c->xscale = PLOT_LOG2;
	}
	if (c->xscale == PLOT_LOG2) {
		c->xlo = lo / pow(2, 0.3);
		c->xhi = hi * pow(2, 0.3);
	} else if (hi > lo) {
		c->xlo = lo - (hi - lo) * 0.06;
		c->xhi = hi + (hi - lo) * 0.06;
	} else {
		c->xlo = lo - (lo > 2 ? lo * 0.5 : 1);
		c->xhi = hi + (hi > 2 ? hi * 0.5 : 1);
	}
}

int
plot_script_init(struct plot_script *c, const struct sweep *s,
    const struct table_point *pts, unsigned npoints, char unit, char *err,
    size_t errlen)
{
	const struct table_point	*tp;
	unsigned			 i, total;
	int				 any = 0;

	memset(c, 0, sizeof(*c));
	c->sweep = s;
	c->points = pts;
	c->unit = unit;
	units_rate(0, unit, &c->unit_label);
	if (s->naxes == 0 || s->naxes > SWEEP_MAX_AXES ||
	    s->axes[0].nvalues == 0 ||
	    s->axes[0].nvalues > SWEEP_MAX_VALUES) {
		plot_script_error(err, errlen, "plot: the sweep has no axis");
		return -1;
	}
	total = sweep_npoints(s);
	c->nx = s->axes[0].nvalues;
	if (total == 0 || total % c->nx != 0) {
		plot_script_error(err, errlen, "plot: the sweep's axes do not "
		    "make its %u points", total);
		return -1;
	}
	c->ngroups = total / c->nx;
	if ((c->index = malloc(total * sizeof(*c->index))) == NULL) {
		plot_script_error(err, errlen, "plot: out of memory");
		return -1;
	}
	for (i = 0; i < total; i++)
		c->index[i] = -1;
	for (i = 0; i < npoints; i++) {
		tp = &pts[i];
		if (tp->point >= total) {
			plot_script_error(err, errlen, "plot: point %u is "
			    "outside the sweep's %u", tp->point, total);
			plot_script_free(c);
			return -1;
		}
		/*
		 * A point not yet run is all zeros, point 0 included (the
		 * caller's array comes from calloc): it must not hide the
		 * real point 0.
		 */
		if (c->index[tp->point] == -1 ||
		    table_point_rate(tp)->n > 0)
			c->index[tp->point] = (int)i;
		any |= table_point_rate(tp)->n > 0;
		c->rr |= tp->rr;
		c->bidir |= tp->bidir && tp->rev_mbps.n > 0;
		c->have[0] |= tp->cpu_tx.n > 0;
		c->have[1] |= tp->cpu_rx.n > 0;
		c->have[2] |= tp->irq_tx.n > 0;
		c->have[3] |= tp->irq_rx.n > 0;
		if (table_point_rate(tp)->n > 1 && c->level == 0)
			c->level = table_point_rate(tp)->level;
	}
	if (!any) {
		plot_script_error(err, errlen,
		    "plot: no point has a measurement");
		plot_script_free(c);
		return -1;
	}
	c->have_cpu = c->have[0] || c->have[1];
	c->have_lower = c->have_cpu || c->have[2] || c->have[3];
	c->have_y2 = c->have_cpu && (c->have[2] || c->have[3]);
	if (c->rr) {	/* latencies above, trans/s below (plot_rr.c) */
		c->have_lower = 1;
		c->have_cpu = c->have_y2 = 0;
	}
	plot_script_xaxis(c);
	return 0;
}

void
plot_script_free(struct plot_script *c)
{
	free(c->index);
	c->index = NULL;
}

/* The x of the i-th value of axis 0 on line g; categories spread a bit. */
double
plot_script_x(const struct plot_script *c, unsigned i, unsigned g)
{
	double	x = sweep_value(c->sweep, 0, PLOT_POINT(c, i, g));

	if (c->xscale == PLOT_CATEGORY && c->ngroups > 1)
		x += 0.3 * ((double)g / (c->ngroups - 1) - 0.5);
	return x;
}

/* Where x falls across the plot, 0..1, for spacing tick labels. */
static double
plot_script_xfrac(const struct plot_script *c, double x)
{
	if (c->xscale == PLOT_LOG2)
		return log2(x / c->xlo) / log2(c->xhi / c->xlo);
	return (x - c->xlo) / (c->xhi - c->xlo);
}

/* n == 0 is unavailable: NaN, an undefined point that gnuplot skips. */
void
plot_script_put(FILE *f, double v, unsigned n)
{
	if (n > 0 && isfinite(v))
		fprintf(f, " %.10g", v);
	else
		fputs(" NaN", f);
}

/*
 * One block per line, two blank lines apart for gnuplot's "index"; a
 * point that is missing or never measured is a row of NaN, which breaks
 * the line instead of bridging the gap.
 */
/* A rate's mean, CI low and high in the -f unit. */
static void
plot_script_rate(FILE *f, const struct plot_script *c, const struct stats *st)
{
	plot_script_put(f, units_rate(st->mean * 1e6, c->unit, NULL), st->n);
	plot_script_put(f, units_rate(st->ci_lo * 1e6, c->unit, NULL), st->n);
	plot_script_put(f, units_rate(st->ci_hi * 1e6, c->unit, NULL), st->n);
}

void
plot_script_data(FILE *f, const struct plot_script *c)
{
	const struct table_point	*tp;
	const char			*u = c->unit_label;
	char				 text[256];
	unsigned			 g, i, x;
	int				 k;

	if (c->rr) {
		plot_rr_data(f, c);
		return;
	}
	fprintf(f, "# x %s %s_lo %s_hi cpu_tx_pct cpu_rx_pct irq_tx_pkt "
	    "irq_rx_pkt%s\n", u, u, u, c->bidir ? " reverse reverse_lo "
	    "reverse_hi" : "");
	for (g = 0; g < c->ngroups; g++) {
		fputs(g > 0 ? "\n\n" : "", f);
		plot_script_comment(f, plot_script_group(c, g, text,
		    sizeof(text)));
		for (x = 0; x < c->nx; x++) {
			i = c->order[x];
			fprintf(f, "%.10g", plot_script_x(c, i, g));
			if ((k = c->index[PLOT_POINT(c, i, g)]) == -1) {
				fprintf(f, " NaN NaN NaN NaN NaN NaN NaN%s\n",
				    c->bidir ? " NaN NaN NaN" : "");
				continue;
			}
			tp = &c->points[k];
			plot_script_rate(f, c, &tp->mbps);
			plot_script_put(f, tp->cpu_tx.mean, tp->cpu_tx.n);
			plot_script_put(f, tp->cpu_rx.mean, tp->cpu_rx.n);
			plot_script_put(f, tp->irq_tx.mean, tp->irq_tx.n);
			plot_script_put(f, tp->irq_rx.mean, tp->irq_rx.n);
			if (c->bidir)
				plot_script_rate(f, c, &tp->rev_mbps);
			fputc('\n', f);
		}
	}
}

/* "64K, cubic": the values of axes 1.. on line g; "all" with one axis. */
const char *
plot_script_group(const struct plot_script *c, unsigned g, char *buf,
    size_t len)
{
	char		 v[64];
	unsigned	 a;
	size_t		 n = 0;

	if (c->sweep->naxes < 2)
		return "all";
	buf[0] = '\0';
	for (a = 1; a < c->sweep->naxes && n < len; a++)
		n += snprintf(buf + n, len - n, "%s%s", a > 1 ? ", " : "",
		    sweep_value_text(c->sweep, a, g, v, sizeof(v)));
	return buf;
}

/* The terminal and the output file, for every picture. */
void
plot_script_term(FILE *f, enum plot_term term, const char *out)
{
	fputs("# gigebench --plot\n", f);
	if (term == PLOT_SVG)
		fputs("set terminal svg size 900,700 dynamic enhanced "
		    "font \"sans,11\" background rgb \"white\"\n", f);
	else	/* png (libgd) where gnuplot was built without cairo */
		fputs("if (strstrt(GPVAL_TERMINALS, \"pngcairo\") > 0) {\n"
		    "\tset terminal pngcairo size 900,700 enhanced "
		    "font \"sans,10\" background rgb \"white\"\n"
		    "} else {\n"
		    "\tset terminal png size 900,700 enhanced "
		    "font \"sans,10\" background rgb \"white\"\n"
		    "}\n", f);
	/* '|' would open a pipe to a shell command, '~' a home directory. */
	fprintf(f, "set output '%s%s'\n",
	    out[0] == '|' || out[0] == '~' ? "./" : "", out);
}

void
plot_script_head(FILE *f, const struct plot_script *c, enum plot_term term,
    const char *out)
{
	unsigned	a;

	plot_script_term(f, term, out);
	fprintf(f, "set multiplot title \"gigebench: %s vs %s",
	    c->rr ? "--rr latency" : c->unit_label,
	    sweep_param_name(c->sweep->axes[0].param));
	for (a = 1; a < c->sweep->naxes; a++)
		fprintf(f, "%s%s", a == 1 ? ", by " : ", ",
		    sweep_param_name(c->sweep->axes[a].param));
	fputc('"', f);
	if (c->title != NULL && *c->title != '\0') {
		/* gnuplot's "." joins strings; the title expands nothing. */
		fputs(" . ': ' . ", f);
		plot_script_string(f, c->title);
	}
	fputs(" noenhanced font \",13\"\n", f);
	fprintf(f, "set lmargin at screen %.3f\nset rmargin at screen %.3f\n",
	    PLOT_LEFT, plot_script_right(c));
	fprintf(f, "set xrange [%.10g:%.10g]\n", c->xlo, c->xhi);
	if (c->xscale == PLOT_LOG2)
		fputs("set logscale x 2\n", f);
	fputs("unset mxtics\n"
	    "set grid xtics ytics lc rgb \"#c8c8c8\" lw 1\n"
	    "set border 3 lc rgb \"#404040\"\n"
	    "set tics nomirror out scale 0.6\n"
	    "set key left top Left reverse samplen 2.5 spacing 1.2 "
	    "noautotitle\n", f);
}

/*
 * Ticks on the swept values, labelled with their own text ("64K"), the
 * labels thinned so they do not overlap: a label is kept when it stands
 * clear of the last one kept, at about 7 pixels a character.
 */
void
plot_script_xtics(FILE *f, const struct plot_script *c, int labels)
{
	char		 text[64];
	const char	*t;
	double		 last = -1, v, at, gap;
	size_t		 lastlen = 0, len;
	unsigned	 x, p;

	fputs("set xtics noenhanced (", f);
	for (x = 0; x < c->nx; x++) {
		p = PLOT_POINT(c, c->order[x], 0);
		t = sweep_value_text(c->sweep, 0, p, text, sizeof(text));
		v = sweep_value(c->sweep, 0, p);
		at = plot_script_xfrac(c, v);
		len = strlen(t);
		gap = ((lastlen + len) / 2.0 + 1.5) * PLOT_CHAR_PX /
		    ((plot_script_right(c) - PLOT_LEFT) * PLOT_WIDTH_PX);
		if (!labels || (last >= 0 && at - last < gap))
			t = "";
		else {
			last = at;
			lastlen = len;
		}
		fputs(x > 0 ? ", " : "", f);
		plot_script_string(f, t);
		fprintf(f, " %.10g", v);
	}
	fputs(")\n", f);
}

/* One line and one panel need no key: the plot takes the width. */
static double
plot_script_right(const struct plot_script *c)
{
	return c->ngroups > 1 || c->have_lower ? PLOT_RIGHT : PLOT_RIGHT_BARE;
}

/* Both keys line up right of the plots, past the y2 labels if any. */
double
plot_script_key_x(const struct plot_script *c)
{
	return PLOT_RIGHT + PLOT_KEY_GAP + (c->have_y2 ? PLOT_Y2_WIDTH : 0);
}

/* "window (bytes, log scale)", "streams", "cc". */
void
plot_script_xlabel(FILE *f, const struct plot_script *c)
{
	char	text[128];
	int	param = c->sweep->axes[0].param;

	snprintf(text, sizeof(text), "%s%s", sweep_param_name(param),
	    !plot_script_is_size(param) ? "" :
	    c->xscale == PLOT_LOG2 ? " (bytes, log scale)" : " (bytes)");
	fputs("set xlabel ", f);
	plot_script_string(f, text);
	fputs(" noenhanced\n", f);
}

static void
plot_script_upper(FILE *f, const struct plot_script *c, const char *data)
{
	char		 text[256];
	unsigned	 g, a;

	fprintf(f, "set tmargin at screen %.3f\nset bmargin at screen %.3f\n",
	    PLOT_TOP, c->have_lower ? PLOT_SPLIT_HI : PLOT_BOTTOM);
	plot_script_xtics(f, c, !c->have_lower);
	if (!c->have_lower)
		plot_script_xlabel(f, c);
	fprintf(f, "set yrange [0:*]\nset ylabel \"%s (mean", c->unit_label);
	if (c->level > 0)
		fprintf(f, ", %g%% CI", c->level * 100);
	fputs(")\"\n", f);
	if (c->ngroups > 1) {
		fprintf(f, "set key at screen %.3f,%.3f title \"",
		    plot_script_key_x(c), PLOT_TOP);
		for (a = 1; a < c->sweep->naxes; a++)
			fprintf(f, "%s%s", a > 1 ? ", " : "",
			    sweep_param_name(c->sweep->axes[a].param));
		fputs("\"\n", f);
	} else if (c->bidir)
		fputs("set key top right\n", f);
	else
		fputs("unset key\n", f);
	fputs("plot \\\n", f);
	for (g = 0; g < c->ngroups; g++) {
		fprintf(f, "  '%s' index %u using %d:%d:%d:%d with %s "
		    "lc rgb \"%s\" lw 2 pt %d ps 0.9 title ", data, g, COL_X,
		    COL_RATE, COL_RATE_LO, COL_RATE_HI,
		    c->xscale == PLOT_CATEGORY ? "yerrorbars" : "yerrorlines",
		    plot_colors[g % PLOT_NCOLORS],
		    plot_shapes[g / PLOT_NCOLORS % PLOT_NSHAPES]);
		plot_script_string(f, c->bidir && c->ngroups == 1 ? "forward" :
		    plot_script_group(c, g, text, sizeof(text)));
		fprintf(f, " noenhanced%s\n",
		    g + 1 < c->ngroups || c->bidir ? ", \\" : "");
	}
	/* --bidir: the reverse direction, dashed, in the same colours. */
	for (g = 0; c->bidir && g < c->ngroups; g++)
		fprintf(f, "  '%s' index %u using %d:%d:%d:%d with %s "
		    "lc rgb \"%s\" lw 2 dt 2 pt %d ps 0.9 %s%s\n",
		    data, g, COL_X, COL_REV, COL_REV_LO, COL_REV_HI,
		    c->xscale == PLOT_CATEGORY ? "yerrorbars" : "yerrorlines",
		    plot_colors[g % PLOT_NCOLORS],
		    plot_shapes[g / PLOT_NCOLORS % PLOT_NSHAPES], g == 0 ?
		    "title \"reverse (dashed)\"" : "notitle",
		    g + 1 < c->ngroups ? ", \\" : "");
}

/*
 * CPU % on the left, irq/pkt dashed on the right.  With one line per
 * series each series has a colour; with several, the colour is the line's
 * (as above) and the key shows the series in black.
 */
static void
plot_script_lower(FILE *f, const struct plot_script *c, const char *data)
{
	const struct plot_series	*ps;
	const char			*sep = "";
	size_t				 k;
	unsigned			 g;

	fprintf(f, "set tmargin at screen %.3f\nset bmargin at screen %.3f\n",
	    PLOT_SPLIT_LO, PLOT_BOTTOM);
	plot_script_xtics(f, c, 1);
	plot_script_xlabel(f, c);
	fprintf(f, "set yrange [0:*]\nset ylabel \"%s\"\n",
	    c->have_cpu ? "CPU %" : "irq/pkt");
	if (c->have_y2)
		fputs("set border 11 lc rgb \"#404040\"\n"
		    "set y2range [0:*]\n"
		    "set y2tics nomirror out scale 0.6\n"
		    "set y2label \"irq/pkt\"\n", f);
	fprintf(f, "set key at screen %.3f,%.3f title \"\"\n",
	    plot_script_key_x(c), PLOT_SPLIT_LO);
	fputs("plot \\\n", f);
	for (k = 0; k < PLOT_NSERIES; k++) {
		ps = &plot_series[k];
		if (!c->have[k])
			continue;
		if (c->ngroups > 1) {
			fprintf(f, "%s  keyentry with linespoints lc rgb "
			    "\"black\" lw 1.5 dt %d pt %d title \"%s\"", sep,
			    ps->irq ? 2 : 1, ps->pt, ps->title);
			sep = ", \\\n";
		}
		for (g = 0; g < c->ngroups; g++) {
			fprintf(f, "%s  '%s' index %u using %d:%d axes %s "
			    "with %s lc rgb \"%s\" lw 1.5 dt %d pt %d ps 0.8",
			    sep, data, g, COL_X, ps->col,
			    ps->irq && c->have_y2 ? "x1y2" : "x1y1",
			    c->xscale == PLOT_CATEGORY ? "points" :
			    "linespoints", c->ngroups > 1 ?
			    plot_colors[g % PLOT_NCOLORS] : ps->color,
			    ps->irq ? 2 : 1, ps->pt);
			if (c->ngroups == 1)
				fprintf(f, " title \"%s\"", ps->title);
			sep = ", \\\n";
		}
	}
	fputc('\n', f);
}

void
plot_script_write(FILE *f, const struct plot_script *c, enum plot_term term,
    const char *data, const char *out)
{
	plot_script_head(f, c, term, out);
	if (c->rr) {
		plot_rr_panels(f, c, data);
		fputs("unset multiplot\nset output\n", f);
		return;
	}
	plot_script_upper(f, c, data);
	if (c->have_lower)
		plot_script_lower(f, c, data);
	fputs("unset multiplot\nset output\n", f);
}
