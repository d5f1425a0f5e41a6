/*
 * test_mesh.c: the matrix of gigebench merge (base/mesh.h) on runs made
 * here: the median, the best of several runs, failed runs counted and
 * not rated, the outlier threshold, and the explanations: a slow row
 * (the sender), a slow column (the receiver), one slow pair (the path),
 * the diagnosis entries, and the figures that rule CPU out.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/mesh.h"

/* One run of s to d at mbps (NAN: failed), with an optional finding. */
static void
add(struct mesh_runs *l, const char *s, const char *d, double mbps,
    const char *code, const char *text)
{
	struct mesh_run	r;

	mesh_run_init(&r);
	r.sender = s != NULL ? strdup(s) : NULL;
	r.receiver = d != NULL ? strdup(d) : NULL;
	r.origin = strdup("test");
	r.failed = isnan(mbps);
	r.mbps = mbps;
	r.fig[MESH_CPU_TX] = 5;
	r.fig[MESH_CPU_RX] = 3;
	r.fig[MESH_BUSIEST_RX] = 12;
	r.fig[MESH_RETRANS] = 40;
	r.fig[MESH_RTT] = 20000;
	if (code != NULL) {
		r.diag = calloc(1, sizeof(*r.diag));
		assert_non_null(r.diag);
		snprintf(r.diag[0].code, MESH_CODE_LEN, "%s", code);
		snprintf(r.diag[0].side, MESH_SIDE_LEN, "sender");
		r.diag[0].text = strdup(text);
		r.ndiag = 1;
	}
	assert_int_equal(mesh_runs_add(l, &r), 0);
	assert_null(r.sender);
}

/* A full mesh of n hosts h1..hn at 940, but for the pairs given later. */
static void
full(struct mesh_runs *l, unsigned n, int skip_s, int skip_d)
{
	char		s[8], d[8];
	unsigned	i, j;

	for (i = 1; i <= n; i++)
		for (j = 1; j <= n; j++) {
			if (i == j || ((int)i == skip_s && (int)j == skip_d))
				continue;
			snprintf(s, sizeof(s), "h%u", i);
			snprintf(d, sizeof(d), "h%u", j);
			add(l, s, d, 940 + i * 0.1 + j * 0.01, NULL, NULL);
		}
}

static const struct mesh_pair *
pair(const struct mesh *m, const char *s, const char *d)
{
	unsigned	i, j;

	for (i = 0; i < m->nhosts; i++)
		for (j = 0; j < m->nhosts; j++)
			if (strcmp(m->hosts[i], s) == 0 &&
			    strcmp(m->hosts[j], d) == 0)
				return MESH_PAIR(m, i, j);
	fail_msg("no pair %s -> %s", s, d);
	return NULL;
}

static void
test_median(void **state)
{
	double	odd[] = { 3, 1, 2 }, even[] = { 4, 1, 3, 2 };

	(void)state;
	assert_true(mesh_median(odd, 3) == 2);
	assert_true(mesh_median(even, 4) == 2.5);
	assert_true(mesh_median(NULL, 0) == 0);
}

static void
test_figures(void **state)
{
	(void)state;
	assert_int_equal(mesh_figure_parse("cpu-rx"), MESH_CPU_RX);
	assert_int_equal(mesh_figure_parse("rtt"), MESH_RTT);
	assert_int_equal(mesh_figure_parse("busiest"), -1);
	assert_string_equal(mesh_figure_name(MESH_IRQ_TX), "irq-tx");
	assert_non_null(strstr(mesh_figure_list(), "retrans"));
}

/* Best of several, failed counted, a missing pair, the diagonal. */
static void
test_build_best_and_missing(void **state)
{
	struct mesh_runs	 l = { NULL, 0, 0 };
	struct mesh		 m;
	const struct mesh_pair	*p;
	char			 err[128];

	(void)state;
	full(&l, 3, 3, 2);			/* h3 -> h2 missing */
	add(&l, "h1", "h2", 950, NULL, NULL);	/* the best of 3 */
	add(&l, "h1", "h2", NAN, NULL, NULL);
	add(&l, "h2", "h1", NAN, NULL, NULL);
	add(&l, NULL, NULL, NAN, NULL, NULL);	/* names no hosts */
	assert_int_equal(mesh_build(&m, &l, 1.5, err, sizeof(err)), 0);
	assert_int_equal(m.nhosts, 3);
	assert_string_equal(m.hosts[0], "h1");
	assert_int_equal(m.nrated, 5);
	assert_int_equal(m.nmissing, 1);
	assert_int_equal(m.nanon, 1);
	p = pair(&m, "h1", "h2");
	assert_int_equal(p->runs, 3);
	assert_int_equal(p->failed, 1);
	assert_true(p->best->mbps == 950);
	p = pair(&m, "h2", "h1");
	assert_int_equal(p->runs, 2);
	assert_int_equal(p->failed, 1);
	assert_null(pair(&m, "h3", "h2")->best);
	assert_int_equal(pair(&m, "h3", "h2")->runs, 0);
	assert_null(pair(&m, "h1", "h1")->best);
	assert_int_equal(m.noutliers, 0);
	mesh_free(&m);
	mesh_runs_free(&l);
}

/* One slow pair: the path between them, and the figures. */
static void
test_outlier_path(void **state)
{
	struct mesh_runs	 l = { NULL, 0, 0 };
	struct mesh		 m;
	const struct mesh_pair	*p;
	char			 err[128];

	(void)state;
	full(&l, 4, 1, 4);
	add(&l, "h1", "h4", 95.1, "retransmits", "40 retransmitted segments");
	assert_int_equal(mesh_build(&m, &l, 1.5, err, sizeof(err)), 0);
	assert_int_equal(m.noutliers, 1);
	assert_true(m.median_mbps > 940 && m.median_mbps < 941);
	assert_true(fabs(m.threshold_mbps - m.median_mbps / 1.5) < 1e-9);
	p = pair(&m, "h1", "h4");
	assert_true(p->outlier);
	assert_string_equal(p->why, "only this pair (h1's other tests and "
	    "h4's other tests are not outliers): the path between them; "
	    "sender retransmits: 40 retransmitted segments; neither end "
	    "CPU-bound (tx 5 %, rx 3 %, busiest CPU 12 %), retransmits 40, "
	    "rtt 20000 us");
	assert_false(pair(&m, "h1", "h2")->outlier);
	assert_null(pair(&m, "h1", "h2")->why);
	mesh_free(&m);
	mesh_runs_free(&l);
	/* A factor of 20 leaves 95.1 of 940 (1/9.9) alone. */
	full(&l, 4, 1, 4);
	add(&l, "h1", "h4", 95.1, NULL, NULL);
	assert_int_equal(mesh_build(&m, &l, 20, err, sizeof(err)), 0);
	assert_int_equal(m.noutliers, 0);
	mesh_free(&m);
	mesh_runs_free(&l);
}

/* Every test from h2 slow: its sending side; a CPU finding. */
static void
test_outlier_row(void **state)
{
	struct mesh_runs	 l = { NULL, 0, 0 };
	struct mesh		 m;
	const struct mesh_pair	*p;
	char			 err[128];

	(void)state;
	full(&l, 5, 0, 0);
	add(&l, "h2", "h1", 300, "cpu_bound", "cpu1 99.0 % busy");
	add(&l, "h2", "h3", 310, NULL, NULL);
	add(&l, "h2", "h4", 305, NULL, NULL);
	add(&l, "h2", "h5", 301, NULL, NULL);
	/* The full mesh's 940s are the best runs of those pairs. */
	assert_int_equal(mesh_build(&m, &l, 1.5, err, sizeof(err)), 0);
	assert_int_equal(m.noutliers, 0);
	mesh_free(&m);
	mesh_runs_free(&l);
	/* h2 sends to three hosts, all slowly; the others are at 940. */

	add(&l, "h2", "h1", 300, "cpu_bound", "cpu1 99.0 % busy");
	add(&l, "h2", "h3", 310, NULL, NULL);
	add(&l, "h2", "h4", 305, NULL, NULL);
	add(&l, "h1", "h2", 940, NULL, NULL);
	add(&l, "h1", "h3", 941, NULL, NULL);
	add(&l, "h1", "h4", 942, NULL, NULL);
	add(&l, "h3", "h1", 939, NULL, NULL);
	add(&l, "h3", "h4", 940, NULL, NULL);
	add(&l, "h4", "h3", 940, NULL, NULL);
	assert_int_equal(mesh_build(&m, &l, 1.5, err, sizeof(err)), 0);
	assert_int_equal(m.noutliers, 3);
	p = pair(&m, "h2", "h1");
	assert_non_null(strstr(p->why, "every test from h2 is slow (3 of 3): "
	    "h2's sending side; sender cpu_bound: cpu1 99.0 % busy"));
	/* A CPU finding: the CPU is not ruled out, TCP's figures are. */
	assert_null(strstr(p->why, "neither end CPU-bound"));
	assert_non_null(strstr(p->why, "; retransmits 40, rtt 20000 us"));
	assert_non_null(strstr(pair(&m, "h2", "h4")->why,
	    "every test from h2"));
	mesh_free(&m);
	mesh_runs_free(&l);
}

/* Every test into h3 slow: its receiving side. */
static void
test_outlier_column(void **state)
{
	struct mesh_runs	 l = { NULL, 0, 0 };
	struct mesh		 m;
	char			 err[128];

	(void)state;
	add(&l, "h1", "h3", 100, "window_limited", "limited by the receive "
	    "window 80 % of the time");
	add(&l, "h2", "h3", 110, NULL, NULL);
	add(&l, "h4", "h3", 120, NULL, NULL);
	add(&l, "h1", "h2", 940, NULL, NULL);
	add(&l, "h2", "h1", 941, NULL, NULL);
	add(&l, "h1", "h4", 942, NULL, NULL);
	add(&l, "h4", "h1", 939, NULL, NULL);
	add(&l, "h3", "h1", 940, NULL, NULL);
	add(&l, "h3", "h2", 940, NULL, NULL);
	assert_int_equal(mesh_build(&m, &l, 1.5, err, sizeof(err)), 0);
	assert_int_equal(m.noutliers, 3);
	assert_string_equal(pair(&m, "h1", "h3")->why,
	    "every test into h3 is slow (3 of 3): h3's receiving side; "
	    "sender window_limited: limited by the receive window 80 % of "
	    "the time; neither end CPU-bound (tx 5 %, rx 3 %, busiest CPU "
	    "12 %), retransmits 40, rtt 20000 us");
	mesh_free(&m);
	mesh_runs_free(&l);
}

static void
test_bad_factor(void **state)
{
	struct mesh_runs	l = { NULL, 0, 0 };
	struct mesh		m;
	char			err[128];

	(void)state;
	assert_int_equal(mesh_build(&m, &l, 1.0, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "out of range"));
	/* No runs: an empty matrix, not an error. */
	assert_int_equal(mesh_build(&m, &l, 1.5, err, sizeof(err)), 0);
	assert_int_equal(m.nhosts, 0);
	assert_true(m.median_mbps == 0);
	mesh_free(&m);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_median),
		cmocka_unit_test(test_figures),
		cmocka_unit_test(test_build_best_and_missing),
		cmocka_unit_test(test_outlier_path),
		cmocka_unit_test(test_outlier_row),
		cmocka_unit_test(test_outlier_column),
		cmocka_unit_test(test_bad_factor),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
