/*
 * test_plot_bloat.c: --under-load --plot's data and script (plot_bloat.c)
 * as text, into open_memstream, for two phases worked by hand.
 *
 * Phase upload: an idle test of 2 s with slices [0, 1) and [1, 2), then a
 * loaded one of --omit 1 s and -T 2 s, its probes' slices [0, 1) omitted
 * and [0, 1), [1, 2) measured (they count from the omit's end again).
 * So on the time axis the idle slices sit at 0.5 and 1.5, the loaded ones
 * at 2 + 0.5 = 2.5 (omitted) and 3 + 0.5 = 3.5, 3 + 1.5 = 4.5; phase
 * download follows from 5.  A slice without a timed transaction is NaN;
 * the omitted one has latencies (the plot shows the ramp) but no counted
 * transaction.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/bloat.h"
#include "out/plot.h"
#include "plot_internal.h"

static struct gb_result idle[2], loaded[2];

static void
setup(struct bloat_run *runs)
{
	unsigned i;

	memset(idle, 0, sizeof(idle));
	memset(loaded, 0, sizeof(loaded));
	for (i = 0; i < 2; i++) {
		runs[i].phase = i == 0 ? GB_PHASE_UPLOAD : GB_PHASE_DOWNLOAD;
		runs[i].ok = 1;
		runs[i].idle = &idle[i];
		runs[i].loaded = &loaded[i];
		idle[i].params.duration_ms = 2000;
		idle[i].nintervals = 2;
		idle[i].intervals[0] = (struct gb_interval){ .start_s = 0,
		    .end_s = 1, .has_latency = 1, .transactions = 10,
		    .p50_us = 50, .p99_us = 90 };
		idle[i].intervals[1] = (struct gb_interval){ .start_s = 1,
		    .end_s = 2, .has_latency = 1, .transactions = 10,
		    .p50_us = 60, .p99_us = 100 };
		loaded[i].params.duration_ms = 2000;
		loaded[i].params.omit_ms = 1000;
		loaded[i].probe.has = 1;
		loaded[i].probe.nslices = 3;
		loaded[i].probe.slices[0] = (struct gb_probe_slice){ 1, 0, 1,
		    0, 20000, 30000 };
		loaded[i].probe.slices[1] = (struct gb_probe_slice){ 0, 0, 1,
		    0, 0, 0 };	/* none timed */
		loaded[i].probe.slices[2] = (struct gb_probe_slice){ 0, 1, 2,
		    12, 80000, 84000 };
	}
}

static char *
render(int script, const char *title)
{
	struct bloat_run runs[2];
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	memset(runs, 0, sizeof(runs));
	setup(runs);
	assert_non_null(f = open_memstream(&buf, &len));
	if (script)
		plot_bloat_write(f, runs, 2, title, PLOT_SVG, "/tmp/d",
		    "out.svg");
	else
		plot_bloat_data(f, runs, 2);
	fclose(f);
	return buf;
}

static void
test_data(void **state)
{
	char *t = render(0, NULL);

	(void)state;
	assert_non_null(strstr(t, "# upload: idle reference\n"
	    "0.500000 0.05 0.09\n1.500000 0.06 0.1\n\n\n"
	    "# upload: loaded\n2.500000 20 30\n3.500000 NaN NaN\n"
	    "4.500000 80 84\n\n\n# download: idle reference\n"
	    "5.500000 0.05 0.09\n"));
	assert_non_null(strstr(t, "# download: loaded\n7.500000 20 30\n"));
	free(t);
}

static void
test_script(void **state)
{
	char *t = render(1, "it's $(id)");

	(void)state;
	/* The omit of upload lighter, then its loaded part, and its name. */
	assert_non_null(strstr(t, "set object rect from 2.000000, graph 0 to "
	    "3.000000, graph 1 fc rgb \"#fde0c5\""));
	assert_non_null(strstr(t, "set object rect from 3.000000, graph 0 to "
	    "5.000000, graph 1 fc rgb \"#fdae6b\""));
	assert_non_null(strstr(t, "set label \"upload\" at 3.500000"));
	assert_non_null(strstr(t, "set label \"download\" at 8.500000"));
	assert_non_null(strstr(t, "set xrange [0:10.000000]"));
	assert_non_null(strstr(t, "set logscale y 10"));
	/* The title as a single-quoted string: nothing in it expands. */
	assert_non_null(strstr(t, "'it''s $(id)'"));
	assert_non_null(strstr(t, "plot '/tmp/d' using 1:2"));
	free(t);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_data),
		cmocka_unit_test(test_script),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
