/*
 * plot_bloat.c: the data and the gnuplot script of --under-load --plot
 * (out/plot.h): the probes' P50 (solid) and P99 (dashed) latency, slice
 * by slice, on a log axis, against the run's time with its tests one
 * after the other (each phase's idle reference, then its loaded test);
 * each loaded test is shaded and named, its --omit lighter (the probes
 * ran there but were not counted).  Times are each test's own clock,
 * joined end to end: the pauses between tests are left out.
 *
 * Only our own words go into the script unquoted (the phase names); a
 * --title goes through plot_script_string.  This file writes to the
 * FILEs it is given and nothing else.
 */
#include <math.h>
#include <stdio.h>

#include "base/bloat.h"
#include "out/plot.h"
#include "plot_internal.h"

#define BLOAT_P50_COLOR		"#1f77b4"
#define BLOAT_P99_COLOR		"#d62728"
#define BLOAT_OMIT_COLOR	"#fde0c5"
#define BLOAT_LOAD_COLOR	"#fdae6b"

/* Where each test of a run lies on the time axis, in s. */
struct bloat_span {
	double	idle0, idle1;		/* the idle reference */
	double	load0, omit1, load1;	/* the loaded test, its --omit */
};

static double
bloat_test_s(const struct gb_result *r)
{
	return r->params.duration_ms / 1000.0;
}

static void
bloat_spans(const struct bloat_run *runs, unsigned n, struct bloat_span *sp)
{
	double t = 0;
	unsigned i;

	for (i = 0; i < n; i++) {
		sp[i].idle0 = t;
		t += bloat_test_s(runs[i].idle);
		sp[i].idle1 = t;
		sp[i].load0 = t;
		t += runs[i].loaded->params.omit_ms / 1000.0;
		sp[i].omit1 = t;
		t += bloat_test_s(runs[i].loaded);
		sp[i].load1 = t;
	}
}

/*
 * One slice's line: its middle, P50 and P99 in ms (NaN: none timed; an
 * --omit slice has latencies but no counted transactions).
 */
static void
bloat_point(FILE *f, double t, double p50_us, double p99_us)
{
	if (p50_us <= 0)
		fprintf(f, "%.6f NaN NaN\n", t);
	else
		fprintf(f, "%.6f %.6g %.6g\n", t, p50_us / 1000,
		    p99_us / 1000);
}

void
plot_bloat_data(FILE *f, const struct bloat_run *runs, unsigned n)
{
	struct bloat_span sp[GB_PHASE_COUNT];
	const struct gb_interval *iv;
	const struct gb_probe_slice *s;
	unsigned i, j;

	bloat_spans(runs, n, sp);
	fputs("# time_s p50_ms p99_ms (a block a test)\n", f);
	for (i = 0; i < n; i++) {
		fprintf(f, "%s# %s: idle reference\n", i > 0 ? "\n\n" : "",
		    bloat_phase_name(runs[i].phase));
		for (j = 0; j < runs[i].idle->nintervals; j++) {
			iv = &runs[i].idle->intervals[j];
			bloat_point(f, sp[i].idle0 + (iv->start_s + iv->end_s) /
			    2, iv->has_latency ? iv->p50_us : 0, iv->p99_us);
		}
		fprintf(f, "\n\n# %s: loaded\n", bloat_phase_name(
		    runs[i].phase));
		for (j = 0; j < runs[i].loaded->probe.nslices; j++) {
			s = &runs[i].loaded->probe.slices[j];
			bloat_point(f, (s->omitted ? sp[i].load0 :
			    sp[i].omit1) + (s->start_s + s->end_s) / 2,
			    s->p50_us, s->p99_us);
		}
	}
}

static void
bloat_shade(FILE *f, const struct bloat_run *r, const struct bloat_span *sp)
{
	if (sp->omit1 > sp->load0)
		fprintf(f, "set object rect from %.6f, graph 0 to %.6f, graph 1 "
		    "fc rgb \"%s\" fs solid 1.0 noborder behind\n", sp->load0,
		    sp->omit1, BLOAT_OMIT_COLOR);
	fprintf(f, "set object rect from %.6f, graph 0 to %.6f, graph 1 fc "
	    "rgb \"%s\" fs solid 0.6 noborder behind\n", sp->omit1, sp->load1,
	    BLOAT_LOAD_COLOR);
	fprintf(f, "set label \"%s%s\" at %.6f, graph 0.04 center front\n",
	    bloat_phase_name(r->phase), r->ok ? "" : " (failed)",
	    (sp->load0 + sp->load1) / 2);
	fprintf(f, "set label \"idle\" at %.6f, graph 0.04 center front\n",
	    (sp->idle0 + sp->idle1) / 2);
}

void
plot_bloat_write(FILE *f, const struct bloat_run *runs, unsigned n,
    const char *title, enum plot_term term, const char *data,
    const char *out)
{
	struct bloat_span sp[GB_PHASE_COUNT];
	unsigned i;

	bloat_spans(runs, n, sp);
	plot_script_term(f, term, out);
	fputs("set title \"gigebench --under-load: the probes' latency, "
	    "idle and beside the load\"", f);
	if (title != NULL && *title != '\0') {
		fputs(" . ': ' . ", f);
		plot_script_string(f, title);
	}
	fputs(" noenhanced font \",13\"\n", f);
	fprintf(f, "set lmargin at screen %.3f\nset rmargin at screen %.3f\n",
	    PLOT_LEFT, PLOT_RIGHT_BARE);
	fprintf(f, "set xrange [0:%.6f]\n", n > 0 ? sp[n - 1].load1 : 1.0);
	fputs("set logscale y 10\nset format y \"%g\"\n"
	    "set grid xtics ytics mytics lc rgb \"#c8c8c8\" lw 1\n"
	    "set border 3 lc rgb \"#404040\"\n"
	    "set tics nomirror out scale 0.6\n"
	    "set xlabel \"time (s; each phase's idle test, then its loaded "
	    "test, the --omit lighter)\"\n"
	    "set ylabel \"probe latency (ms, log scale)\"\n"
	    "set key right center opaque box\n", f);
	for (i = 0; i < n; i++)
		bloat_shade(f, &runs[i], &sp[i]);
	fprintf(f, "plot '%s' using 1:2 with linespoints pt 7 ps 0.4 lw 2 "
	    "lc rgb \"%s\" title \"P50\", \\\n     '' using 1:3 with lines "
	    "dt 2 lw 1.5 lc rgb \"%s\" title \"P99\"\n", data, BLOAT_P50_COLOR,
	    BLOAT_P99_COLOR);
	fputs("set output\n", f);
}
