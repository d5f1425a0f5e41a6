/*
 * test_plot.c: --plot.  Three tiers: the data file and the script as text
 * (plot_script.c, into open_memstream, no gnuplot needed); plot.c's
 * checks and its handling of gnuplot's failures, with a fake gnuplot
 * (a shell script) first on PATH; and real pictures from the real gnuplot,
 * skipped when it is not installed.
 *
 * Everything is written under a fresh directory in /tmp, removed at the
 * end.  GIGEBENCH_PLOT_KEEP=DIR writes the real pictures into DIR instead
 * and keeps them, for looking at:
 *	GIGEBENCH_PLOT_KEEP=/tmp/plot/pics build/tests/test_plot
 */

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <sys/stat.h>

#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "out/plot.h"
#include "out/plot_script.h"

#define KB	(UINT64_C(1) << 10)
#define NA	(-1.0)		/* a figure that is unavailable */

#define DIR_LEN		256	/* our directories */
#define PATH_LEN	1024	/* a name in one of them */

struct env {
	char	 dir[DIR_LEN];		/* scratch, removed at exit */
	char	 pics[DIR_LEN];		/* pictures: dir, or KEEP */
	char	 fakebin[DIR_LEN + 8];	/* the fake gnuplot */
	char	*path;			/* PATH as it was */
};

/* What one point measured; NA for unavailable. */
struct fig {
	double	mbps, half, cpu_tx, cpu_rx, irq_tx, irq_rx;
};

static void
stats_fake(struct stats *st, double mean, double half)
{
	memset(st, 0, sizeof(*st));
	if (mean < 0)
		return;
	st->n = 5;
	st->mean = mean;
	st->level = 0.95;
	st->ci_half = half;
	st->sd = half / 2.776 * 2.236;	/* t(0.95, 4), sqrt(5) */
	st->ci_lo = mean - half;
	st->ci_hi = mean + half;
	st->min = mean - half * 1.2;
	st->max = mean + half * 1.2;
}

static void
point_fake(struct table_point *tp, unsigned point, const struct fig *f)
{
	memset(tp, 0, sizeof(*tp));
	tp->point = point;
	tp->nruns = 5;
	tp->ci_met = -1;
	stats_fake(&tp->mbps, f->mbps, f->half);
	stats_fake(&tp->cpu_tx, f->cpu_tx, 0.5);
	stats_fake(&tp->cpu_rx, f->cpu_rx, 0.5);
	stats_fake(&tp->irq_tx, f->irq_tx, 0.01);
	stats_fake(&tp->irq_rx, f->irq_rx, 0.01);
}

static struct sweep *
sweep_new(void)
{
	struct sweep	*s = calloc(1, sizeof(*s));

	assert_non_null(s);
	return s;
}

static void
axis_add(struct sweep *s, int param, const uint64_t *v, unsigned n)
{
	struct sweep_axis	*ax = &s->axes[s->naxes++];
	unsigned		 i;

	ax->param = param;
	ax->nvalues = n;
	for (i = 0; i < n; i++)
		ax->values[i] = v[i];
}

/* As sweep.c keeps names: the value is the name's index. */
static void
axis_add_cc(struct sweep *s, const char *const *names, unsigned n)
{
	struct sweep_axis	*ax = &s->axes[s->naxes++];
	unsigned		 i;

	ax->param = SWEEP_CC;
	ax->nvalues = n;
	for (i = 0; i < n; i++) {
		ax->values[i] = i;
		snprintf(ax->names[i], SWEEP_CC_LEN, "%s", names[i]);
	}
}

/* mtu=1500,4096,9000: Mbps rising, CI bars, CPU known, irq n/a. */
static const struct fig mtu_figs[] = {
	{ 4210, 160, 34.5, 47.9, NA, NA },
	{ 7630, 220, 27.8, 37.2, NA, NA },
	{ 9410, 60, 22.1, 30.4, NA, NA },
};
static const uint64_t mtu_values[] = { 1500, 4096, 9000 };

static void
mtu_fake(struct sweep *s, struct table_point *tp)
{
	unsigned	i;

	axis_add(s, SWEEP_MTU, mtu_values, 3);
	for (i = 0; i < 3; i++)
		point_fake(&tp[i], i, &mtu_figs[i]);
}

/* window=4K..1M*2: nine points, saturating; everything known. */
static const struct fig window_figs[] = {
	{ 310, 12, 9.5, 11.0, 0.95, 0.98 },
	{ 590, 20, 12.0, 14.1, 0.71, 0.90 },
	{ 1100, 35, 15.2, 18.0, 0.52, 0.81 },
	{ 2050, 70, 19.0, 23.5, 0.33, 0.66 },
	{ 3600, 140, 23.8, 30.2, 0.21, 0.52 },
	{ 6100, 260, 28.0, 37.5, 0.12, 0.41 },
	{ 8700, 240, 31.5, 42.0, 0.08, 0.33 },
	{ 9350, 80, 30.1, 41.2, 0.07, 0.30 },
	{ 9400, 40, 29.7, 40.8, 0.07, 0.29 },
};

static void
window_fake(struct sweep *s, struct table_point *tp)
{
	uint64_t	v[9];
	unsigned	i;

	for (i = 0; i < 9; i++)
		v[i] = (4 * KB) << i;
	axis_add(s, SWEEP_WINDOW, v, 9);
	for (i = 0; i < 9; i++)
		point_fake(&tp[i], i, &window_figs[i]);
}

/* window=16K,64K,256K,1M x cc=cubic,bbr x streams... just two axes. */
static void
two_axes_fake(struct sweep *s, struct table_point *tp)
{
	static const uint64_t	 w[] = { 16 * KB, 64 * KB, 256 * KB,
				    1024 * KB };
	static const char *const cc[] = { "cubic", "bbr" };
	struct fig		 f;
	unsigned		 i, g;

	axis_add(s, SWEEP_WINDOW, w, 4);
	axis_add_cc(s, cc, 2);
	for (i = 0; i < 4; i++) {
		for (g = 0; g < 2; g++) {
			f.mbps = g == 0 ? 1100.0 * (i + 1) * (i + 1) :
			    2400.0 * (i + 1) + 200;
			if (f.mbps > 9400)
				f.mbps = 9400;
			f.half = f.mbps * 0.04;
			f.cpu_tx = 15 + 5.0 * i + 6 * g;
			f.cpu_rx = 20 + 6.0 * i + 2 * g;
			f.irq_tx = 0.5 - 0.1 * i;
			f.irq_rx = NA;
			point_fake(&tp[i * 2 + g], i * 2 + g, &f);
		}
	}
}

/* cc=cubic,bbr,reno x streams=1,4: categories. */
static void
cc_fake(struct sweep *s, struct table_point *tp)
{
	static const char *const cc[] = { "cubic", "bbr", "reno" };
	static const uint64_t	 streams[] = { 1, 4 };
	struct fig		 f;
	unsigned		 i, g;

	axis_add_cc(s, cc, 3);
	axis_add(s, SWEEP_STREAMS, streams, 2);
	for (i = 0; i < 3; i++) {
		for (g = 0; g < 2; g++) {
			f.mbps = 8200 + 400.0 * g - 300.0 * i;
			f.half = 150 + 100.0 * i;
			f.cpu_tx = 20 + 8.0 * g;
			f.cpu_rx = 30 + 10.0 * g + i;
			f.irq_tx = f.irq_rx = NA;
			point_fake(&tp[i * 2 + g], i * 2 + g, &f);
		}
	}
}

static char *
file_read(const char *path, size_t *lenp)
{
	FILE	*f = fopen(path, "rb");
	char	*buf;
	long	 len;

	assert_non_null(f);
	assert_int_equal(fseek(f, 0, SEEK_END), 0);
	len = ftell(f);
	rewind(f);
	buf = malloc((size_t)len + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)len, f), (size_t)len);
	buf[len] = '\0';
	fclose(f);
	if (lenp != NULL)
		*lenp = (size_t)len;
	return buf;
}

static void
file_write(const char *path, const char *text, mode_t mode)
{
	FILE	*f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
	assert_int_equal(chmod(path, mode), 0);
}

/* How many of our temporary files are left in dir? */
static int
leftovers(const char *dir)
{
	DIR		*d = opendir(dir);
	struct dirent	*e;
	int		 n = 0;

	assert_non_null(d);
	while ((e = readdir(d)) != NULL)
		n += strncmp(e->d_name, "gigebench-", 10) == 0;
	closedir(d);
	return n;
}

/* Render the data or the script into a string. */
static char *
script_text(const struct sweep *s, const struct table_point *tp,
    unsigned n, char unit, enum plot_term term, const char *out, int data)
{
	struct plot_script	 ps;
	char			 err[256] = "", *buf = NULL;
	size_t			 len = 0;
	FILE			*f;

	assert_int_equal(plot_script_init(&ps, s, tp, n, unit, err,
	    sizeof(err)), 0);
	assert_non_null(f = open_memstream(&buf, &len));
	if (data)
		plot_script_data(f, &ps);
	else
		plot_script_write(f, &ps, term, "/tmp/gigebench-data-X", out);
	assert_int_equal(fclose(f), 0);
	plot_script_free(&ps);
	return buf;
}

static void
assert_has(const char *text, const char *want)
{
	if (strstr(text, want) == NULL)
		fail_msg("missing \"%s\" in:\n%s", want, text);
}

static void
assert_lacks(const char *text, const char *want)
{
	if (strstr(text, want) != NULL)
		fail_msg("unwanted \"%s\" in:\n%s", want, text);
}

/* ---- the script and the data, as text ---- */

static void
test_script_mtu(void **state)
{
	struct sweep		*s = sweep_new();
	struct table_point	 tp[3];
	char			*t;

	(void)state;
	mtu_fake(s, tp);
	t = script_text(s, tp, 3, 'm', PLOT_SVG, "out.svg", 0);
	assert_has(t, "set terminal svg size 900,700 dynamic enhanced "
	    "font \"sans,11\"");
	assert_has(t, "set output 'out.svg'\n");
	assert_has(t, "set multiplot title \"gigebench: Mbps vs mtu\"");
	assert_lacks(t, "logscale");
	assert_has(t, "set xlabel 'mtu (bytes)'");
	assert_has(t, "set ylabel \"Mbps (mean, 95% CI)\"");
	/* the upper panel's ticks unlabelled, the lower's labelled */
	assert_has(t, "('' 1500, '' 4096, '' 9000)");
	assert_has(t, "('1500' 1500, '4096' 4096, '9000' 9000)");
	assert_has(t, "using 1:2:3:4 with yerrorlines");
	assert_has(t, "using 1:5 axes x1y1");
	assert_has(t, "using 1:6 axes x1y1");
	assert_has(t, "title \"CPU % TX\"");
	assert_lacks(t, "irq/pkt");	/* unknown: not drawn */
	assert_lacks(t, "y2");
	assert_has(t, "unset multiplot\n");
	free(t);

	t = script_text(s, tp, 3, 'm', PLOT_SVG, "out.svg", 1);
	assert_has(t, "\n1500 4210 4050 4370 34.5 47.9 NaN NaN\n");
	assert_has(t, "\n9000 9410 9350 9470 22.1 30.4 NaN NaN\n");
	free(t);
	free(s);
}

/* --bidir: the reverse rate in three more columns, dashed, keyed. */
static void
test_script_bidir(void **state)
{
	struct sweep		*s = sweep_new();
	struct table_point	 tp[3];
	unsigned		 i;
	char			*t;

	(void)state;
	mtu_fake(s, tp);
	for (i = 0; i < 3; i++) {
		tp[i].bidir = 1;
		stats_fake(&tp[i].rev_mbps, 1000 + 100 * i, 10);
	}
	t = script_text(s, tp, 3, 'm', PLOT_SVG, "out.svg", 1);
	assert_has(t, "irq_rx_pkt reverse reverse_lo reverse_hi\n");
	assert_has(t, "\n1500 4210 4050 4370 34.5 47.9 NaN NaN 1000 990 "
	    "1010\n");
	assert_has(t, "\n9000 9410 9350 9470 22.1 30.4 NaN NaN 1200 1190 "
	    "1210\n");
	free(t);
	t = script_text(s, tp, 3, 'm', PLOT_SVG, "out.svg", 0);
	assert_has(t, "using 1:2:3:4 with yerrorlines");
	assert_has(t, "title 'forward'");
	assert_has(t, "using 1:9:10:11 with yerrorlines lc rgb \"#1f77b4\" "
	    "lw 2 dt 2");
	assert_has(t, "title \"reverse (dashed)\"");
	assert_has(t, "set key top right\n");
	free(t);
	/* Not bidir: no reverse column, no key. */
	for (i = 0; i < 3; i++)
		tp[i].bidir = 0;
	t = script_text(s, tp, 3, 'm', PLOT_SVG, "out.svg", 0);
	assert_lacks(t, "using 1:9:10:11");
	assert_lacks(t, "(dashed)");
	assert_has(t, "unset key\n");
	free(t);
	free(s);
}

static void
test_script_window_log(void **state)
{
	struct sweep		*s = sweep_new();
	struct table_point	 tp[9];
	char			*t;

	(void)state;
	window_fake(s, tp);
	t = script_text(s, tp, 9, 'm', PLOT_SVG, "w.svg", 0);
	assert_has(t, "set logscale x 2\n");
	assert_has(t, "set xlabel 'window (bytes, log scale)'");
	assert_has(t, "('4K' 4096, '8K' 8192, '16K' 16384");
	assert_has(t, "'1M' 1048576)");
	/* irq/pkt on the right axis, dashed */
	assert_has(t, "set y2label \"irq/pkt\"");
	assert_has(t, "using 1:7 axes x1y2");
	assert_has(t, "using 1:8 axes x1y2");
	assert_has(t, "title \"irq/pkt RX\"");
	free(t);
	free(s);
}

static void
test_script_geometric_or_not(void **state)
{
	static const uint64_t	 lin[] = { 16 * KB, 32 * KB, 48 * KB,
				    64 * KB };
	static const uint64_t	 wide[] = { 1 * KB, 2 * KB, 5 * KB,
				    64 * KB };
	static const uint64_t	 close[] = { 1500, 1501, 9000 };
	struct sweep		*s;
	struct table_point	 tp[4];
	struct fig		 f = { 1000, 10, NA, NA, NA, NA };
	unsigned		 i;
	char			*t;

	(void)state;
	for (i = 0; i < 4; i++)
		point_fake(&tp[i], i, &f);
	s = sweep_new();
	axis_add(s, SWEEP_LENGTH, lin, 4);		/* arithmetic */
	t = script_text(s, tp, 4, 'm', PLOT_SVG, "x.svg", 0);
	assert_lacks(t, "logscale");
	assert_has(t, "set xlabel 'length (bytes)'");
	free(t);
	free(s);

	s = sweep_new();
	axis_add(s, SWEEP_LENGTH, wide, 4);		/* six octaves */
	t = script_text(s, tp, 4, 'm', PLOT_SVG, "x.svg", 0);
	assert_has(t, "set logscale x 2\n");
	free(t);
	free(s);

	/* labels that would overlap are dropped, the tick stays */
	s = sweep_new();
	axis_add(s, SWEEP_MTU, close, 3);
	t = script_text(s, tp, 3, 'm', PLOT_SVG, "x.svg", 0);
	assert_has(t, "('1500' 1500, '' 1501, '9000' 9000)");
	/* no CPU, no irq: one panel, its ticks labelled */
	assert_lacks(t, "CPU");
	assert_has(t, "set bmargin at screen 0.090");
	free(t);
	free(s);
}

/* Values given out of order are drawn in order. */
static void
test_script_sorted(void **state)
{
	static const uint64_t	 v[] = { 9000, 1500, 4096 };
	struct sweep		*s = sweep_new();
	struct table_point	 tp[3];
	struct fig		 f = { 0, 10, NA, NA, NA, NA };
	unsigned		 i;
	char			*t;

	(void)state;
	axis_add(s, SWEEP_MTU, v, 3);
	for (i = 0; i < 3; i++) {
		f.mbps = (double)v[i];
		point_fake(&tp[i], i, &f);
	}
	t = script_text(s, tp, 3, 'm', PLOT_SVG, "x.svg", 1);
	assert_has(t, "\n1500 1500 ");
	assert_true(strstr(t, "\n1500 ") < strstr(t, "\n4096 "));
	assert_true(strstr(t, "\n4096 ") < strstr(t, "\n9000 "));
	free(t);
	free(s);
}

static void
test_script_unit(void **state)
{
	struct sweep		*s = sweep_new();
	struct table_point	 tp[3];
	char			*t;

	(void)state;
	mtu_fake(s, tp);
	t = script_text(s, tp, 3, 'M', PLOT_SVG, "x.svg", 0);
	assert_has(t, "gigebench: MB/sec vs mtu");
	assert_has(t, "set ylabel \"MB/sec (mean, 95% CI)\"");
	free(t);
	/* 4210 Mbps = 4210e6 / 8 / 2^20 MB/sec */
	t = script_text(s, tp, 3, 'M', PLOT_SVG, "x.svg", 1);
	assert_has(t, "\n1500 501.871109 ");
	free(t);
	t = script_text(s, tp, 3, 'g', PLOT_SVG, "x.svg", 1);
	assert_has(t, "\n1500 4.21 4.05 4.37 ");
	free(t);
	free(s);
}

/* A failed point and one missing from the table break the line. */
static void
test_script_gaps(void **state)
{
	struct sweep		*s = sweep_new();
	struct table_point	 tp[3];
	char			*t;

	(void)state;
	mtu_fake(s, tp);
	memset(&tp[1].mbps, 0, sizeof(tp[1].mbps));	/* all runs failed */
	t = script_text(s, tp, 3, 'm', PLOT_SVG, "x.svg", 1);
	assert_has(t, "\n4096 NaN NaN NaN 27.8 37.2 NaN NaN\n");
	free(t);
	tp[1] = tp[2];			/* point 1 is not in the table */
	t = script_text(s, tp, 2, 'm', PLOT_SVG, "x.svg", 1);
	assert_has(t, "\n4096 NaN NaN NaN NaN NaN NaN NaN\n");
	assert_has(t, "\n9000 9410 ");
	free(t);
	/* an interrupted sweep: the points not run are zeros, "point 0" */
	memset(&tp[1], 0, sizeof(tp[1]));
	memset(&tp[2], 0, sizeof(tp[2]));
	t = script_text(s, tp, 3, 'm', PLOT_SVG, "x.svg", 1);
	assert_has(t, "\n1500 4210 4050 4370 34.5 47.9 NaN NaN\n");
	assert_has(t, "\n9000 NaN NaN NaN NaN NaN NaN NaN\n");
	free(t);
	free(s);
}

static void
test_script_two_axes(void **state)
{
	struct sweep		*s = sweep_new();
	struct table_point	 tp[8];
	char			*t;

	(void)state;
	two_axes_fake(s, tp);
	t = script_text(s, tp, 8, 'm', PLOT_SVG, "x.svg", 0);
	assert_has(t, "gigebench: Mbps vs window, by cc\"");
	assert_has(t, "title \"cc\"");
	assert_has(t, "index 0 using 1:2:3:4 with yerrorlines");
	assert_has(t, "index 1 using 1:2:3:4 with yerrorlines");
	assert_has(t, "title 'cubic' noenhanced");
	assert_has(t, "title 'bbr' noenhanced");
	/* the key shows the series in black, the lines carry no title */
	assert_has(t, "keyentry with linespoints lc rgb \"black\" lw 1.5 "
	    "dt 1 pt 7 title \"CPU % TX\"");
	assert_has(t, "keyentry with linespoints lc rgb \"black\" lw 1.5 "
	    "dt 2 pt 5 title \"irq/pkt TX\"");
	assert_lacks(t, "irq/pkt RX");
	free(t);

	t = script_text(s, tp, 8, 'm', PLOT_SVG, "x.svg", 1);
	assert_has(t, "# cubic\n16384 1100 ");
	assert_has(t, "\n\n\n# bbr\n16384 2600 ");
	free(t);
	free(s);
}

static void
test_script_categories(void **state)
{
	struct sweep		*s = sweep_new();
	struct table_point	 tp[6];
	char			*t;

	(void)state;
	cc_fake(s, tp);
	t = script_text(s, tp, 6, 'm', PLOT_SVG, "x.svg", 0);
	assert_has(t, "set xrange [-0.5:2.5]\n");
	assert_has(t, "('cubic' 0, 'bbr' 1, 'reno' 2)");
	assert_has(t, "set xlabel 'cc'");
	assert_has(t, "with yerrorbars");
	assert_lacks(t, "yerrorlines");
	assert_lacks(t, "logscale");
	assert_has(t, "title \"streams\"");
	free(t);
	/* the two lines sit either side of each name */
	t = script_text(s, tp, 6, 'm', PLOT_SVG, "x.svg", 1);
	assert_has(t, "# 1\n-0.15 8200 ");
	assert_has(t, "# 4\n0.15 8600 ");
	free(t);
	free(s);
}

static void
test_script_png_and_names(void **state)
{
	struct sweep		*s = sweep_new();
	struct table_point	 tp[3];
	char			*t;

	(void)state;
	mtu_fake(s, tp);
	t = script_text(s, tp, 3, 'm', PLOT_PNG, "|rm -rf x.png", 0);
	assert_has(t, "if (strstrt(GPVAL_TERMINALS, \"pngcairo\") > 0) {\n"
	    "\tset terminal pngcairo size 900,700");
	assert_has(t, "} else {\n\tset terminal png size 900,700");
	/* '|' would be a pipe to sh */
	assert_has(t, "set output './|rm -rf x.png'\n");
	free(t);
	t = script_text(s, tp, 3, 'm', PLOT_PNG, "~x.png", 0);
	assert_has(t, "set output './~x.png'\n");
	free(t);
	t = script_text(s, tp, 3, 'm', PLOT_PNG, "/a b/\"c\" d.png", 0);
	assert_has(t, "set output '/a b/\"c\" d.png'\n");
	free(t);
	free(s);
}

static void
test_script_errors(void **state)
{
	struct sweep		*s = sweep_new();
	struct table_point	 tp[3];
	struct plot_script	 ps;
	char			 err[256];

	(void)state;
	mtu_fake(s, tp);
	tp[2].point = 3;
	assert_int_equal(plot_script_init(&ps, s, tp, 3, 'm', err,
	    sizeof(err)), -1);
	assert_string_equal(err, "plot: point 3 is outside the sweep's 3");
	tp[2].point = 2;
	memset(&tp[0].mbps, 0, sizeof(tp[0].mbps));
	memset(&tp[1].mbps, 0, sizeof(tp[1].mbps));
	memset(&tp[2].mbps, 0, sizeof(tp[2].mbps));
	assert_int_equal(plot_script_init(&ps, s, tp, 3, 'm', err,
	    sizeof(err)), -1);
	assert_string_equal(err, "plot: no point has a measurement");
	s->naxes = 0;
	assert_int_equal(plot_script_init(&ps, s, tp, 3, 'm', err,
	    sizeof(err)), -1);
	assert_string_equal(err, "plot: the sweep has no axis");
	free(s);
}

/* ---- plot.c's checks, with or without gnuplot ---- */

static void
test_bad_names(void **state)
{
	struct env		*e = *state;
	struct sweep		*s = sweep_new();
	struct table_point	 tp[3];
	char			 err[512], path[PATH_LEN];

	mtu_fake(s, tp);
	assert_int_equal(plot_write("x.pdf", s, tp, 3, 'm', NULL, err,
	    sizeof(err)), -1);
	assert_string_equal(err,
	    "plot: unknown file type (use .svg or .png): x.pdf");
	assert_int_equal(plot_write("plot", s, tp, 3, 'm', NULL, err,
	    sizeof(err)), -1);
	assert_string_equal(err,
	    "plot: unknown file type (use .svg or .png): plot");
	assert_int_equal(plot_write("a.svg/plot", s, tp, 3, 'm', NULL, err,
	    sizeof(err)), -1);
	assert_int_equal(plot_write("", s, tp, 3, 'm', NULL, err, sizeof(err)), -1);
	assert_string_equal(err, "plot: no file name");

	snprintf(path, sizeof(path), "%s/it's.svg", e->dir);
	assert_int_equal(plot_write(path, s, tp, 3, 'm', NULL, err,
	    sizeof(err)), -1);
	assert_non_null(strstr(err, "plot: the file name contains a single "
	    "quote, which gnuplot cannot take: "));
	assert_non_null(strstr(err, "it's.svg"));
	assert_int_equal(access(path, F_OK), -1);

	snprintf(path, sizeof(path), "%s/two\nlines.svg", e->dir);
	assert_int_equal(plot_write(path, s, tp, 3, 'm', NULL, err,
	    sizeof(err)), -1);
	assert_string_equal(err, "plot: the file name contains a newline, "
	    "which gnuplot cannot take");
	assert_int_equal(plot_write(NULL, s, tp, 3, 'm', NULL, err,
	    sizeof(err)), -1);
	free(s);
}

static void
test_absent(void **state)
{
	struct env		*e = *state;
	struct sweep		*s = sweep_new();
	struct table_point	 tp[3];
	char			 err[512], path[PATH_LEN];

	mtu_fake(s, tp);
	setenv("PATH", e->dir, 1);		/* no gnuplot in there */
	assert_int_equal(plot_available(), 0);
	snprintf(path, sizeof(path), "%s/absent.svg", e->dir);
	assert_int_equal(plot_write(path, s, tp, 3, 'm', NULL, err,
	    sizeof(err)), -1);
	assert_string_equal(err, "plot: gnuplot is not installed "
	    "(apt-get install gnuplot-nox); the CSV has the data");
	assert_int_equal(access(path, F_OK), -1);
	setenv("PATH", e->path, 1);
	free(s);
}

/* A fake gnuplot: found only when executable and a regular file. */
static void
test_available_fake(void **state)
{
	struct env	*e = *state;
	char		 path[PATH_LEN], p[2 * PATH_LEN];

	snprintf(path, sizeof(path), "%s/gnuplot", e->fakebin);
	snprintf(p, sizeof(p), "/nonexistent::%s", e->fakebin);
	setenv("PATH", p, 1);
	file_write(path, "#!/bin/sh\nexit 0\n", 0644);
	assert_int_equal(plot_available(), 0);
	assert_int_equal(chmod(path, 0755), 0);
	assert_int_equal(plot_available(), 1);
	assert_int_equal(unlink(path), 0);
	assert_int_equal(mkdir(path, 0755), 0);
	assert_int_equal(plot_available(), 0);
	assert_int_equal(rmdir(path), 0);
	setenv("PATH", e->path, 1);
}

/* Run plot_write with a fake gnuplot made of this shell script. */
static int
fake_run(struct env *e, const char *script, const char *out, char *err,
    size_t errlen)
{
	struct sweep		*s = sweep_new();
	struct table_point	 tp[3];
	char			 path[PATH_LEN];
	int			 rv;

	mtu_fake(s, tp);
	snprintf(path, sizeof(path), "%s/gnuplot", e->fakebin);
	file_write(path, script, 0755);
	setenv("PATH", e->fakebin, 1);
	rv = plot_write(out, s, tp, 3, 'm', NULL, err, errlen);
	setenv("PATH", e->path, 1);
	assert_int_equal(unlink(path), 0);
	free(s);
	return rv;
}

static void
test_gnuplot_fails(void **state)
{
	struct env	*e = *state;
	char		 err[512], out[PATH_LEN];

	snprintf(out, sizeof(out), "%s/fails.svg", e->dir);
	/* gnuplot 5.4's way of saying it, the command echoed first */
	assert_int_equal(fake_run(e, "#!/bin/sh\n"
	    "echo 'warning: Skipping data file with no valid points' >&2\n"
	    "echo \"set output '/x/y.svg'\" >&2\n"
	    "echo '              ^' >&2\n"
	    "echo \"\\\"$1\\\" line 5: cannot open file; output not changed\""
	    " >&2\n"
	    "echo 'system error: No such file or directory' >&2\n"
	    "exit 1\n", out, err, sizeof(err)), -1);
	assert_string_equal(err, "plot: gnuplot failed (exit 1): cannot open "
	    "file; output not changed; system error: No such file or "
	    "directory");
	/* we made the file, so we take it away again */
	assert_int_equal(access(out, F_OK), -1);
	assert_int_equal(leftovers(e->dir), 0);

	assert_int_equal(fake_run(e, "#!/bin/sh\nexit 3\n", out, err,
	    sizeof(err)), -1);
	assert_string_equal(err, "plot: gnuplot failed (exit 3): ");

	assert_int_equal(fake_run(e, "#!/bin/sh\nkill -9 $$\n", out, err,
	    sizeof(err)), -1);
	assert_string_equal(err, "plot: gnuplot was killed by signal 9 ");

	/* a small buffer is cut, not overrun */
	assert_int_equal(fake_run(e, "#!/bin/sh\necho 'a long complaint "
	    "from gnuplot' >&2\nexit 1\n", out, err, 40), -1);
	assert_string_equal(err, "plot: gnuplot failed (exit 1): a long c");
}

static void
test_gnuplot_silent(void **state)
{
	struct env	*e = *state;
	char		 err[512], out[PATH_LEN], copy[PATH_LEN];
	char		 want[PATH_LEN + 64], script[4 * PATH_LEN], *t;

	snprintf(out, sizeof(out), "%s/silent.svg", e->dir);
	assert_int_equal(fake_run(e, "#!/bin/sh\nexit 0\n", out, err,
	    sizeof(err)), -1);
	snprintf(want, sizeof(want), "plot: gnuplot wrote nothing to %s",
	    out);
	assert_string_equal(err, want);
	assert_int_equal(access(out, F_OK), -1);

	/* an old picture is kept when gnuplot fails before writing */
	file_write(out, "old", 0644);
	assert_int_equal(fake_run(e, "#!/bin/sh\nexit 1\n", out, err,
	    sizeof(err)), -1);
	t = file_read(out, NULL);
	assert_string_equal(t, "old");
	free(t);
	assert_int_equal(unlink(out), 0);

	/* the script is gnuplot's one argument; stdin is /dev/null */
	snprintf(copy, sizeof(copy), "%s/script-copy", e->dir);
	snprintf(script, sizeof(script), "#!/bin/sh\n"
	    "while IFS= read -r l; do printf '%%s\\n' \"$l\"; done "
	    "<\"$1\" >'%s'\n"
	    "read -r x && exit 9\n"
	    "printf x >'%s'\n", copy, out);
	assert_int_equal(fake_run(e, script, out, err, sizeof(err)), 0);
	t = file_read(copy, NULL);
	assert_has(t, "set output '");
	assert_has(t, "silent.svg'\n");
	free(t);
	assert_int_equal(leftovers(e->dir), 0);
	assert_int_equal(unlink(copy), 0);
	assert_int_equal(unlink(out), 0);
}

/* ---- real pictures ---- */

#define NEED_GNUPLOT() do {						\
	if (!plot_available()) {					\
		print_message("gnuplot is not installed: skipped\n");	\
		skip();							\
	}								\
} while (0)

static char *
picture(struct env *e, const char *name, const struct sweep *s,
    const struct table_point *tp, unsigned n, size_t *lenp)
{
	char	path[PATH_LEN], err[512] = "";

	snprintf(path, sizeof(path), "%s/%s", e->pics, name);
	if (plot_write(path, s, tp, n, 'm', NULL, err, sizeof(err)) != 0)
		fail_msg("%s: %s", path, err);
	return file_read(path, lenp);
}

static void
assert_svg(const char *t)
{
	assert_true(strncmp(t, "<?xml", 5) == 0 || strstr(t, "<svg") != NULL);
	assert_has(t, "</svg>");
}

static void
test_real_mtu_svg(void **state)
{
	struct env		*e = *state;
	struct sweep		*s;
	struct table_point	 tp[3];
	char			*t;

	NEED_GNUPLOT();
	s = sweep_new();
	mtu_fake(s, tp);
	t = picture(e, "mtu.svg", s, tp, 3, NULL);
	assert_svg(t);
	assert_has(t, "mtu");
	assert_has(t, "Mbps");
	assert_has(t, "gigebench: Mbps vs mtu");
	assert_has(t, ">9000<");
	assert_has(t, "CPU % TX");
	assert_int_equal(leftovers(e->dir), 0);
	free(t);
	free(s);
}

static void
test_real_window_svg(void **state)
{
	struct env		*e = *state;
	struct sweep		*s;
	struct table_point	 tp[9];
	char			*t;

	NEED_GNUPLOT();
	s = sweep_new();
	window_fake(s, tp);
	t = picture(e, "window.svg", s, tp, 9, NULL);
	assert_svg(t);
	assert_has(t, "window (bytes, log scale)");
	assert_has(t, ">4K<");
	assert_has(t, ">1M<");
	assert_has(t, "irq/pkt");
	free(t);
	free(s);
}

static void
test_real_two_axes_svg(void **state)
{
	struct env		*e = *state;
	struct sweep		*s;
	struct table_point	 tp[8];
	char			*t;

	NEED_GNUPLOT();
	s = sweep_new();
	two_axes_fake(s, tp);
	t = picture(e, "two-axes.svg", s, tp, 8, NULL);
	assert_svg(t);
	assert_has(t, ">cubic<");
	assert_has(t, ">bbr<");
	free(t);
	free(s);
}

static void
test_real_cc_png(void **state)
{
	static const unsigned char sig[8] = { 0x89, 'P', 'N', 'G', '\r',
	    '\n', 0x1a, '\n' };
	struct env		*e = *state;
	struct sweep		*s;
	struct table_point	 tp[6];
	size_t			 len;
	char			*t;

	NEED_GNUPLOT();
	s = sweep_new();
	cc_fake(s, tp);
	t = picture(e, "cc.png", s, tp, 6, &len);
	assert_true(len > 1000);
	assert_memory_equal(t, sig, sizeof(sig));
	free(t);
	free(s);
}

/* Overwrites an old picture; a name starting with '|' is a file. */
static void
test_real_odd_names(void **state)
{
	struct env		*e = *state;
	struct sweep		*s;
	struct table_point	 tp[3];
	char			 err[512] = "", *t;
	int			 cwd;

	NEED_GNUPLOT();
	s = sweep_new();
	mtu_fake(s, tp);
	assert_true((cwd = open(".", O_RDONLY | O_DIRECTORY)) != -1);
	assert_int_equal(chdir(e->dir), 0);
	file_write("|touch pwned.svg", "old", 0644);
	assert_int_equal(plot_write("|touch pwned.svg", s, tp, 3, 'm', NULL, err,
	    sizeof(err)), 0);
	assert_int_equal(access("pwned.svg", F_OK), -1);
	t = file_read("|touch pwned.svg", NULL);
	assert_svg(t);
	free(t);
	assert_int_equal(plot_write("a \"b\" $(c).SVG", s, tp, 3, 'm', NULL, err,
	    sizeof(err)), 0);
	assert_int_equal(unlink("|touch pwned.svg"), 0);
	assert_int_equal(unlink("a \"b\" $(c).SVG"), 0);
	assert_int_equal(fchdir(cwd), 0);
	close(cwd);
	free(s);
}

/*
 * A --title that would run commands anywhere but in single quotes: gnuplot
 * draws it as text and runs nothing (issue 31).
 */
static void
test_real_hostile_title(void **state)
{
	static const char	 title[] = "t `touch pwned1` $(touch pwned2) "
	    "\"q\" 'q' ; @m system(\"touch pwned3\")\n\x1b[31m";
	struct env		*e = *state;
	struct sweep		*s;
	struct table_point	 tp[3];
	char			 err[512] = "", *t;
	int			 cwd;

	NEED_GNUPLOT();
	s = sweep_new();
	mtu_fake(s, tp);
	assert_true((cwd = open(".", O_RDONLY | O_DIRECTORY)) != -1);
	assert_int_equal(chdir(e->dir), 0);
	assert_int_equal(plot_write("hostile.svg", s, tp, 3, 'm', title, err,
	    sizeof(err)), 0);
	assert_int_equal(access("pwned1", F_OK), -1);
	assert_int_equal(access("pwned2", F_OK), -1);
	assert_int_equal(access("pwned3", F_OK), -1);
	t = file_read("hostile.svg", NULL);
	assert_svg(t);
	assert_non_null(strstr(t, "touch pwned1"));
	assert_non_null(strstr(t, "\\x1b[31m"));
	assert_null(strchr(t, '\x1b'));
	free(t);
	assert_int_equal(unlink("hostile.svg"), 0);
	assert_int_equal(fchdir(cwd), 0);
	close(cwd);
	free(s);
}

static void
test_real_unwritable(void **state)
{
	struct env		*e = *state;
	struct sweep		*s;
	struct table_point	 tp[3];
	char			 err[512], path[PATH_LEN];

	NEED_GNUPLOT();
	s = sweep_new();
	mtu_fake(s, tp);
	assert_int_equal(plot_write("/nonexistent/dir/x.svg", s, tp, 3, 'm', NULL,
	    err, sizeof(err)), -1);
	assert_string_equal(err, "plot: cannot write /nonexistent/dir/x.svg: "
	    "No such file or directory");
	snprintf(path, sizeof(path), "%s/x.svg", e->dir);
	assert_int_equal(mkdir(path, 0755), 0);		/* a directory */
	assert_int_equal(plot_write(path, s, tp, 3, 'm', NULL, err, sizeof(err)),
	    -1);
	assert_non_null(strstr(err, "Is a directory"));
	assert_int_equal(rmdir(path), 0);
	assert_int_equal(leftovers(e->dir), 0);
	free(s);
}

static int
env_setup(void **state)
{
	struct env	*e = calloc(1, sizeof(*e));
	const char	*keep = getenv("GIGEBENCH_PLOT_KEEP");

	*state = e;
	if (e == NULL)
		return -1;
	snprintf(e->dir, sizeof(e->dir), "/tmp/test_plot-XXXXXX");
	if (mkdtemp(e->dir) == NULL)
		return -1;
	snprintf(e->fakebin, sizeof(e->fakebin), "%s/bin", e->dir);
	if ((e->path = strdup(getenv("PATH") != NULL ? getenv("PATH") :
	    "/usr/bin:/bin")) == NULL || mkdir(e->fakebin, 0755) == -1)
		return -1;
	snprintf(e->pics, sizeof(e->pics), "%s", keep != NULL && *keep ?
	    keep : e->dir);
	/* our temporary files go here, where leftovers() looks */
	setenv("TMPDIR", e->dir, 1);
	return 0;
}

static int
env_teardown(void **state)
{
	struct env	*e = *state;
	DIR		*d;
	struct dirent	*de;
	char		 p[PATH_LEN];

	if (e == NULL)
		return 0;
	rmdir(e->fakebin);
	if ((d = opendir(e->dir)) != NULL) {
		while ((de = readdir(d)) != NULL) {
			if (de->d_name[0] == '.')
				continue;
			snprintf(p, sizeof(p), "%s/%s", e->dir, de->d_name);
			unlink(p);
		}
		closedir(d);
	}
	rmdir(e->dir);
	free(e->path);
	free(e);
	return 0;
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_script_mtu),
		cmocka_unit_test(test_script_bidir),
		cmocka_unit_test(test_script_window_log),
		cmocka_unit_test(test_script_geometric_or_not),
		cmocka_unit_test(test_script_sorted),
		cmocka_unit_test(test_script_unit),
		cmocka_unit_test(test_script_gaps),
		cmocka_unit_test(test_script_two_axes),
		cmocka_unit_test(test_script_categories),
		cmocka_unit_test(test_script_png_and_names),
		cmocka_unit_test(test_script_errors),
		cmocka_unit_test(test_bad_names),
		cmocka_unit_test(test_absent),
		cmocka_unit_test(test_available_fake),
		cmocka_unit_test(test_gnuplot_fails),
		cmocka_unit_test(test_gnuplot_silent),
		cmocka_unit_test(test_real_mtu_svg),
		cmocka_unit_test(test_real_window_svg),
		cmocka_unit_test(test_real_two_axes_svg),
		cmocka_unit_test(test_real_cc_png),
		cmocka_unit_test(test_real_odd_names),
		cmocka_unit_test(test_real_hostile_title),
		cmocka_unit_test(test_real_unwritable),
	};

	return cmocka_run_group_tests(tests, env_setup, env_teardown);
}
