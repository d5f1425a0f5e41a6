/*
 * plot_rr.c: --plot for --rr (request/response) tests.
 *
 * A sweep: the asking end's P50 (solid) and P99 (dashed) latency against
 * the first axis, one colour per line of the other axes, and trans/s with
 * its confidence interval on the lower panel; the x axis, its ticks and
 * the page are plot_script.c's, as for a throughput sweep.
 *
 * One test (repeated or not): the distribution of its latencies as a CDF
 * on a log x axis, drawn from the histogram's buckets (lathist.h): for
 * each non-empty bucket the fraction of transactions below its low bound
 * and at or below its high bound, joined by straight lines, so the curve
 * is exact at every bucket bound and within a bucket (3.125 % wide) it
 * only interpolates.  P50, P99 and P99.9 are marked with their values.
 *
 * Writes to the FILEs it is given and nothing else.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "base/lathist.h"
#include "out/plot_script.h"
#include "plot_internal.h"

/* Columns of a --rr sweep's data file, as gnuplot counts them. */
enum plot_rr_col {
	RR_COL_X = 1,
	RR_COL_P50,
	RR_COL_P99,
	RR_COL_TRANS,
	RR_COL_TRANS_LO,
	RR_COL_TRANS_HI
};

#define RR_P50_COLOR	"#1f77b4"
#define RR_P99_COLOR	"#d62728"

void
plot_rr_data(FILE *f, const struct plot_script *c)
{
	const struct table_point	*tp;
	char				 text[256];
	unsigned			 g, i, x;
	int				 k;

	fputs("# x p50_us p99_us trans_s trans_s_lo trans_s_hi\n", f);
	for (g = 0; g < c->ngroups; g++) {
		fputs(g > 0 ? "\n\n" : "", f);
		plot_script_comment(f, plot_script_group(c, g, text,
		    sizeof(text)));
		for (x = 0; x < c->nx; x++) {
			i = c->order[x];
			fprintf(f, "%.10g", plot_script_x(c, i, g));
			if ((k = c->index[PLOT_POINT(c, i, g)]) == -1) {
				fputs(" NaN NaN NaN NaN NaN\n", f);
				continue;
			}
			tp = &c->points[k];
			plot_script_put(f, tp->p50_us.mean, tp->p50_us.n);
			plot_script_put(f, tp->p99_us.mean, tp->p99_us.n);
			plot_script_put(f, tp->trans_s.mean, tp->trans_s.n);
			plot_script_put(f, tp->trans_s.ci_lo, tp->trans_s.n);
			plot_script_put(f, tp->trans_s.ci_hi, tp->trans_s.n);
			fputc('\n', f);
		}
	}
}

/* P50 solid, P99 dashed; one line: a colour each, else the line's. */
static void
plot_rr_upper(FILE *f, const struct plot_script *c, const char *data)
{
	const char	*style = c->xscale == PLOT_CATEGORY ? "points" :
			    "linespoints";
	char		 text[256];
	unsigned	 g, a;
	int		 one = c->ngroups == 1;

	fprintf(f, "set tmargin at screen %.3f\nset bmargin at screen %.3f\n",
	    PLOT_TOP, PLOT_SPLIT_HI);
	plot_script_xtics(f, c, 0);
	fputs("set yrange [0:*]\nset ylabel \"latency (us, mean of the runs)"
	    "\"\n", f);
	fprintf(f, "set key at screen %.3f,%.3f title \"", plot_script_key_x(c),
	    PLOT_TOP);
	for (a = 1; a < c->sweep->naxes; a++)
		fprintf(f, "%s%s", a > 1 ? ", " : "",
		    sweep_param_name(c->sweep->axes[a].param));
	fputs("\"\nplot \\\n", f);
	if (!one)
		fputs("  keyentry with linespoints lc rgb \"black\" lw 1.5 dt 1 "
		    "pt 7 title \"P50\", \\\n  keyentry with linespoints lc "
		    "rgb \"black\" lw 1.5 dt 2 pt 6 title \"P99\", \\\n", f);
	for (g = 0; g < c->ngroups; g++) {
		fprintf(f, "  '%s' index %u using %d:%d with %s lc rgb \"%s\" "
		    "lw 2 dt 1 pt 7 ps 0.9 title ", data, g, RR_COL_X,
		    RR_COL_P50, style, one ? RR_P50_COLOR :
		    plot_script_color(g));
		plot_script_string(f, one ? "P50" : plot_script_group(c, g,
		    text, sizeof(text)));
		fprintf(f, " noenhanced, \\\n  '%s' index %u using %d:%d with "
		    "%s lc rgb \"%s\" lw 2 dt 2 pt 6 ps 0.9 %s%s\n", data, g,
		    RR_COL_X, RR_COL_P99, style, one ? RR_P99_COLOR :
		    plot_script_color(g), one ? "title \"P99\"" : "notitle",
		    g + 1 < c->ngroups ? ", \\" : "");
	}
}

/* trans/s with its confidence interval, as the rate of a sweep. */
static void
plot_rr_lower(FILE *f, const struct plot_script *c, const char *data)
{
	unsigned	g;

	fprintf(f, "set tmargin at screen %.3f\nset bmargin at screen %.3f\n",
	    PLOT_SPLIT_LO, PLOT_BOTTOM);
	plot_script_xtics(f, c, 1);
	plot_script_xlabel(f, c);
	fputs("set yrange [0:*]\nset ylabel \"trans/s (mean", f);
	if (c->level > 0)
		fprintf(f, ", %g%% CI", c->level * 100);
	fputs(")\"\nunset key\nplot \\\n", f);
	for (g = 0; g < c->ngroups; g++)
		fprintf(f, "  '%s' index %u using %d:%d:%d:%d with %s lc rgb "
		    "\"%s\" lw 2 pt 7 ps 0.9 notitle%s\n", data, g, RR_COL_X,
		    RR_COL_TRANS, RR_COL_TRANS_LO, RR_COL_TRANS_HI,
		    c->xscale == PLOT_CATEGORY ? "yerrorbars" : "yerrorlines",
		    c->ngroups == 1 ? RR_P50_COLOR : plot_script_color(g),
		    g + 1 < c->ngroups ? ", \\" : "");
}

void
plot_rr_panels(FILE *f, const struct plot_script *c, const char *data)
{
	plot_rr_upper(f, c, data);
	plot_rr_lower(f, c, data);
}

/* A bound in us, kept above 0 for the log axis. */
static double
plot_cdf_us(uint64_t ns)
{
	return (double)(ns > 0 ? ns : 1) / 1000.0;
}

void
plot_cdf_data(FILE *f, const struct lathist *h)
{
	uint64_t	below = 0, lo, hi;
	unsigned	i;

	fputs("# latency_us fraction_at_or_below\n", f);
	if (h->count == 0)
		return;
	for (i = 0; lathist_next(h, &i); i++) {
		lo = lathist_low(i) > h->min ? lathist_low(i) : h->min;
		hi = lathist_high(i) < h->max ? lathist_high(i) : h->max;
		fprintf(f, "%.10g %.10g\n", plot_cdf_us(lo),
		    (double)below / (double)h->count);
		below += h->buckets[i];
		fprintf(f, "%.10g %.10g\n", plot_cdf_us(hi),
		    (double)below / (double)h->count);
	}
}

/* A dotted line at a percentile, labelled with its value. */
static void
plot_cdf_mark(FILE *f, const struct lathist *h, double pct, double at_y,
    const char *name)
{
	double	us = plot_cdf_us(lathist_percentile(h, pct));

	fprintf(f, "set arrow from %.10g, graph 0 to %.10g, graph 1 nohead "
	    "dt 3 lc rgb \"#7f7f7f\"\n", us, us);
	fprintf(f, "set label \"%s %.1f us\" at %.10g, graph %.2f left "
	    "offset 0.5,0 font \",10\"\n", name, us, us, at_y);
}

void
plot_cdf_write(FILE *f, const struct lathist *h, const char *title,
    enum plot_term term, const char *data, const char *out)
{
	char	text[256];

	plot_script_term(f, term, out);
	snprintf(text, sizeof(text), "gigebench --rr: latency CDF, %llu "
	    "transactions (buckets %.3f %% wide)%s%s",
	    (unsigned long long)h->count, 100.0 / LATHIST_SUB_COUNT,
	    title != NULL && *title != '\0' ? ": " : "",
	    title != NULL ? title : "");
	fputs("set title ", f);
	plot_script_string(f, text);
	fputs(" noenhanced font \",13\"\n", f);
	fprintf(f, "set lmargin at screen %.3f\nset rmargin at screen %.3f\n",
	    PLOT_LEFT, PLOT_RIGHT_BARE);
	fprintf(f, "set logscale x 10\nset xrange [%.10g:%.10g]\n",
	    plot_cdf_us(h->min) / 1.25, plot_cdf_us(h->max) * 1.25);
	fputs("set format x \"%g\"\nset yrange [0:1.02]\nset ytics 0.1\n"
	    "set grid xtics mxtics ytics lc rgb \"#c8c8c8\" lw 1\n"
	    "set border 3 lc rgb \"#404040\"\n"
	    "set tics nomirror out scale 0.6\n"
	    "set xlabel \"latency of a transaction (us, log scale)\"\n"
	    "set ylabel \"fraction of transactions at or below\"\n"
	    "unset key\n", f);
	plot_cdf_mark(f, h, 50, 0.30, "P50");
	plot_cdf_mark(f, h, 99, 0.20, "P99");
	plot_cdf_mark(f, h, 99.9, 0.10, "P99.9");
	fprintf(f, "plot '%s' using 1:2 with lines lw 2 lc rgb \"%s\"\n",
	    data, RR_P50_COLOR);
	fputs("set output\n", f);
}
