/*
 * test_plot_rr.c: --plot for --rr (plot_rr.c).  The data and the script
 * as text, into open_memstream: a sweep's P50, P99 and trans/s columns
 * and panels; one test's CDF from a histogram of known samples (every
 * row checked against the samples themselves).  Then real pictures from
 * the real gnuplot, skipped when it is not installed, written under a
 * fresh directory in /tmp and removed (GIGEBENCH_PLOT_KEEP=DIR keeps
 * them in DIR, for looking at).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/lathist.h"
#include "out/plot.h"
#include "out/plot_script.h"
#include "plot_internal.h"

static void
assert_has(const char *text, const char *want)
{
	if (strstr(text, want) == NULL)
		fail_msg("missing \"%s\" in:\n%s", want, text);
}

static void
stats_set(struct stats *st, unsigned n, double mean, double half)
{
	memset(st, 0, sizeof(*st));
	st->n = n;
	st->mean = mean;
	st->level = 0.95;
	st->ci_half = n > 1 ? half : 0;
	st->ci_lo = mean - st->ci_half;
	st->ci_hi = mean + st->ci_half;
}

/* burst=1,2,4: P50 rising, P99 rising faster, trans/s rising. */
static void
rr_fake(struct sweep *s, struct table_point *tp)
{
	static const double p50[] = { 20, 30, 45 }, p99[] = { 80, 95, 160 };
	static const double trans[] = { 10000, 17000, 26000 };
	unsigned i;

	memset(s, 0, sizeof(*s));
	s->naxes = 1;
	s->axes[0].param = SWEEP_BURST;
	s->axes[0].nvalues = 3;
	for (i = 0; i < 3; i++) {
		s->axes[0].values[i] = 1u << i;
		memset(&tp[i], 0, sizeof(tp[i]));
		tp[i].point = i;
		tp[i].nruns = 3;
		tp[i].ci_met = -1;
		tp[i].rr = 1;
		stats_set(&tp[i].mbps, 3, 1.5, 0.1);
		stats_set(&tp[i].trans_s, 3, trans[i], 1000);
		stats_set(&tp[i].p50_us, 3, p50[i], 1);
		stats_set(&tp[i].p99_us, i == 1 ? 0 : 3, p99[i], 1);
	}
}

static char *
rr_text(const struct sweep *s, const struct table_point *tp, int data)
{
	struct plot_script	 ps;
	char			 err[256] = "", *buf = NULL;
	size_t			 len = 0;
	FILE			*f;

	assert_int_equal(plot_script_init(&ps, s, tp, 3, 'm', err,
	    sizeof(err)), 0);
	assert_true(ps.rr);
	assert_non_null(f = open_memstream(&buf, &len));
	if (data)
		plot_script_data(f, &ps);
	else
		plot_script_write(f, &ps, PLOT_SVG, "/tmp/gigebench-data-X",
		    "out.svg");
	assert_int_equal(fclose(f), 0);
	plot_script_free(&ps);
	return buf;
}

static void
test_sweep_data(void **state)
{
	struct sweep		s;
	struct table_point	tp[3];
	char			*t;

	(void)state;
	rr_fake(&s, tp);
	t = rr_text(&s, tp, 1);
	/* P99 never measured at burst 2: NaN, a gap, not 0. */
	assert_string_equal(t,
	    "# x p50_us p99_us trans_s trans_s_lo trans_s_hi\n"
	    "# all\n"
	    "1 20 80 10000 9000 11000\n"
	    "2 30 NaN 17000 16000 18000\n"
	    "4 45 160 26000 25000 27000\n");
	free(t);
}

static void
test_sweep_script(void **state)
{
	struct sweep		s;
	struct table_point	tp[3];
	char			*t;

	(void)state;
	rr_fake(&s, tp);
	t = rr_text(&s, tp, 0);
	assert_has(t, "set multiplot title \"gigebench: --rr latency vs "
	    "burst\"");
	assert_has(t, "set ylabel \"latency (us, mean of the runs)\"");
	assert_has(t, "using 1:2 with linespoints lc rgb \"#1f77b4\" lw 2 "
	    "dt 1 pt 7 ps 0.9 title 'P50'");
	assert_has(t, "using 1:3 with linespoints lc rgb \"#d62728\" lw 2 "
	    "dt 2 pt 6 ps 0.9 title \"P99\"");
	assert_has(t, "set ylabel \"trans/s (mean, 95% CI)\"");
	assert_has(t, "using 1:4:5:6 with yerrorlines");
	assert_has(t, "set logscale x 2");	/* 1, 2, 4: geometric */
	assert_has(t, "unset multiplot\nset output\n");
	free(t);
}

/* 1..1000 us, one each: the CDF at each row against the samples. */
static void
test_cdf_data(void **state)
{
	struct lathist	 h;
	char		*buf = NULL, *line, *save = NULL;
	size_t		 len = 0;
	FILE		*f;
	double		 x, y, lastx = 0, lasty = 0, below;
	unsigned	 rows = 0, i, nonempty = 0;
	uint64_t	 us;

	(void)state;
	lathist_init(&h);
	for (us = 1; us <= 1000; us++)
		lathist_add(&h, us * 1000);
	for (i = 0; lathist_next(&h, &i); i++)
		nonempty++;
	assert_non_null(f = open_memstream(&buf, &len));
	plot_cdf_data(f, &h);
	assert_int_equal(fclose(f), 0);
	line = strtok_r(buf, "\n", &save);
	assert_string_equal(line, "# latency_us fraction_at_or_below");
	while ((line = strtok_r(NULL, "\n", &save)) != NULL) {
		assert_int_equal(sscanf(line, "%lf %lf", &x, &y), 2);
		/* The fraction of samples <= x (they are whole us). */
		below = (x >= 1 ? (x < 1000 ? (double)(uint64_t)x : 1000) :
		    0) / 1000.0;
		if (rows == 0) {
			assert_true(x == 1 && y == 0);
		} else {
			assert_true(x >= lastx && y >= lasty);
			/* At a bucket's high bound, exact; at a low bound,
			 * what is below it. */
			if (rows % 2 == 1)
				assert_true(y == below);
			else
				assert_true(y <= below && y >= below - 0.001);
		}
		lastx = x;
		lasty = y;
		rows++;
	}
	assert_int_equal(rows, 2 * nonempty);
	assert_true(lastx == 1000 && lasty == 1);
	free(buf);
}

static void
test_cdf_script(void **state)
{
	struct lathist	 h;
	char		*buf = NULL;
	size_t		 len = 0;
	FILE		*f;
	unsigned	 i;

	(void)state;
	lathist_init(&h);
	for (i = 0; i < 90; i++)
		lathist_add(&h, 20000);
	for (i = 0; i < 10; i++)
		lathist_add(&h, 400000);
	assert_non_null(f = open_memstream(&buf, &len));
	plot_cdf_write(f, &h, "eth0 'rx-usecs 0' `id` \n", PLOT_PNG, "/tmp/d",
	    "cdf.png");
	assert_int_equal(fclose(f), 0);
	assert_has(buf, "pngcairo");
	assert_has(buf, "set output 'cdf.png'");
	/* single-quoted, the quotes doubled, the newline escaped */
	assert_has(buf, "set title 'gigebench --rr: latency CDF, 100 "
	    "transactions (buckets 3.125 % wide): eth0 ''rx-usecs 0'' `id` "
	    "\\x0a' noenhanced");
	assert_has(buf, "set logscale x 10\n");
	assert_has(buf, "set xrange [16:500]");
	/* P50: the high bound of 20 us's bucket, 20.479 (lathist.h);
	 * P99 and P99.9: the maximum, exact. */
	assert_has(buf, "set label \"P50 20.5 us\"");
	assert_has(buf, "set label \"P99 400.0 us\"");
	assert_has(buf, "set label \"P99.9 400.0 us\"");
	assert_has(buf, "plot '/tmp/d' using 1:2 with lines");
	free(buf);
}

#define NEED_GNUPLOT() do {						\
	if (!plot_available()) {					\
		print_message("gnuplot is not installed: skipped\n");	\
		skip();							\
	}								\
} while (0)

static char *
slurp(const char *path)
{
	FILE	*f = fopen(path, "rb");
	char	*buf;
	long	 len;

	assert_non_null(f);
	assert_int_equal(fseek(f, 0, SEEK_END), 0);
	len = ftell(f);
	rewind(f);
	assert_non_null(buf = malloc((size_t)len + 1));
	assert_int_equal(fread(buf, 1, (size_t)len, f), (size_t)len);
	buf[len] = '\0';
	fclose(f);
	return buf;
}

/* Real pictures: one test's CDF, a sweep's P50/P99. */
static void
test_real(void **state)
{
	const char	*keep = getenv("GIGEBENCH_PLOT_KEEP");
	char		 dir[256] = "/tmp/test_plot_rr-XXXXXX", path[512];
	char		 err[512] = "", *t;
	struct lathist	 h;
	struct sweep	 s;
	struct table_point tp[3];
	uint64_t	 i;

	(void)state;
	lathist_init(&h);
	assert_int_equal(plot_write_cdf("x.svg", &h, NULL, err, sizeof(err)),
	    -1);
	NEED_GNUPLOT();
	assert_string_equal(err, "plot: no transaction was timed");
	if (keep != NULL && *keep != '\0')
		snprintf(dir, sizeof(dir), "%s", keep);
	else
		assert_non_null(mkdtemp(dir));
	for (i = 0; i < 5000; i++)
		lathist_add(&h, 15000 + (i * 7919) % 20000 + (i % 97 == 0 ?
		    300000 : 0));
	snprintf(path, sizeof(path), "%s/rr-cdf.svg", dir);
	if (plot_write_cdf(path, &h, "loopback", err, sizeof(err)) != 0)
		fail_msg("%s: %s", path, err);
	t = slurp(path);
	assert_has(t, "</svg>");
	assert_has(t, "latency CDF, 5000 transactions");
	assert_has(t, "P99.9");
	free(t);
	if (keep == NULL || *keep == '\0')
		assert_int_equal(unlink(path), 0);
	rr_fake(&s, tp);
	snprintf(path, sizeof(path), "%s/rr-sweep.svg", dir);
	if (plot_write(path, &s, tp, 3, 'm', NULL, err, sizeof(err)) != 0)
		fail_msg("%s: %s", path, err);
	t = slurp(path);
	assert_has(t, "</svg>");
	assert_has(t, "--rr latency vs burst");
	assert_has(t, ">P99<");
	free(t);
	if (keep == NULL || *keep == '\0') {
		assert_int_equal(unlink(path), 0);
		assert_int_equal(rmdir(dir), 0);
	}
}

/* The one string writer, with what a peer, a file or a title may hold. */
static void
test_string_hostile(void **state)
{
	static const struct {
		const char	*in, *want;
	} cases[] = {
		{ "plain", "'plain'" },
		{ "", "''" },
		{ "it's", "'it''s'" },
		{ "''", "''''''" },
		{ "`touch x`", "'`touch x`'" },
		{ "$(id) ; system(\"id\") @m", "'$(id) ; system(\"id\") @m'" },
		{ "a\"b\\", "'a\"b\\'" },
		{ "line\nset output '|id'", "'line\\x0aset output ''|id'''" },
		{ "\x1b]0;x\x07\r", "'\\x1b]0;x\\x07\\x0d'" },
	};
	char	*buf;
	size_t	 len, i;
	FILE	*f;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		assert_non_null(f = open_memstream(&buf, &len));
		plot_script_string(f, cases[i].in);
		assert_int_equal(fclose(f), 0);
		assert_string_equal(buf, cases[i].want);
		free(buf);
	}
	assert_non_null(f = open_memstream(&buf, &len));
	plot_script_comment(f, "cubic\n1 2 3");
	assert_int_equal(fclose(f), 0);
	assert_string_equal(buf, "# cubic\\x0a1 2 3\n");
	free(buf);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_string_hostile),
		cmocka_unit_test(test_sweep_data),
		cmocka_unit_test(test_sweep_script),
		cmocka_unit_test(test_cdf_data),
		cmocka_unit_test(test_cdf_script),
		cmocka_unit_test(test_real),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
