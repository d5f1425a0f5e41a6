/*
 * test_mesh_text.c: gigebench merge's renderers (out/mesh_text.h,
 * out/mesh_csv.h, plot_mesh.c) on the fixture mesh of
 * tests/fixtures/merge/mesh/ (h1..h4, h1 -> h4 slow, h3 -> h2 missing,
 * h4 -> h1 failed), rendered into open_memstream() and compared byte for
 * byte with tests/golden/merge-mesh.txt (the text, -f m, cpu-rx) and
 * tests/golden/merge-mesh.csv (-f g, rtt).  Run from the top directory.
 * A mesh of hostile host names, parsed from memory, checks that --csv
 * defuses and quotes its text cells and leaves its numbers alone.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <glob.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codec/mesh_json.h"
#include "out/mesh_csv.h"
#include "out/mesh_text.h"
#include "plot_internal.h"

#define FIX	"tests/fixtures/merge/mesh/"

struct fixture {
	struct mesh_runs	runs;
	struct mesh		m;
	unsigned		nfiles;
};

static int
setup(void **state)
{
	struct fixture	*f = calloc(1, sizeof(*f));
	glob_t		 g;
	char		 err[512];
	size_t		 i;

	assert_non_null(f);
	assert_int_equal(glob(FIX "*.json", 0, NULL, &g), 0);
	for (i = 0; i < g.gl_pathc; i++)
		if (mesh_json_read(g.gl_pathv[i], MESH_BY_HOSTNAME, &f->runs,
		    err, sizeof(err)) == -1)
			fail_msg("%s: %s", g.gl_pathv[i], err);
	f->nfiles = (unsigned)g.gl_pathc;
	globfree(&g);
	assert_int_equal(mesh_build(&f->m, &f->runs, 1.5, err, sizeof(err)),
	    0);
	*state = f;
	return 0;
}

static int
teardown(void **state)
{
	struct fixture	*f = *state;

	mesh_free(&f->m);
	mesh_runs_free(&f->runs);
	free(f);
	return 0;
}

static char *
slurp(const char *path)
{
	FILE	*fp = fopen(path, "rb");
	char	*buf;
	long	 n;

	assert_non_null(fp);
	assert_int_equal(fseek(fp, 0, SEEK_END), 0);
	n = ftell(fp);
	rewind(fp);
	buf = calloc(1, (size_t)n + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)n, fp), (size_t)n);
	fclose(fp);
	return buf;
}

/* Render into memory; the caller frees. */
static char *
render(const struct fixture *f, int what, char unit, int figure)
{
	struct mesh_style	 st = { unit, figure, f->nfiles };
	char			*buf = NULL;
	size_t			 len = 0;
	FILE			*fp = open_memstream(&buf, &len);

	assert_non_null(fp);
	if (what == 0)
		mesh_text(fp, &f->m, &st);
	else if (what == 1)
		mesh_csv(fp, &f->m, unit, figure);
	else
		plot_mesh_data(fp, &f->m, unit);
	assert_int_equal(fclose(fp), 0);
	return buf;
}

static void
test_text_golden(void **state)
{
	char	*got = render(*state, 0, 'm', MESH_CPU_RX);
	char	*want = slurp("tests/golden/merge-mesh.txt");

	if (strcmp(got, want) != 0)
		fail_msg("text differs from the golden file:\n%s", got);
	/* The parts the brief names, in case the golden file drifts. */
	assert_non_null(strstr(got, "\nh1        -   941.3   940.8    95.1*\n"));
	assert_non_null(strstr(got, "\nh3    941.6       ?       -   938.7\n"));
	assert_non_null(strstr(got, "outliers (below 940.2 / 1.5 = 626.8 "
	    "Mbps):\nh1 -> h4  95.1 Mbps (0.10 of the median): only this pair"));
	assert_non_null(strstr(got, "missing:\nh3 -> h2: no result\n"
	    "h4 -> h1: its 1 run failed: "));
	assert_non_null(strstr(got, "runs per pair: 1 (h1 -> h2: 2, "
	    "h2 -> h3: 2)"));
	free(got);
	free(want);
}

static void
test_csv_golden(void **state)
{
	char	*got = render(*state, 1, 'g', MESH_RTT);
	char	*want = slurp("tests/golden/merge-mesh.csv");

	if (strcmp(got, want) != 0)
		fail_msg("CSV differs from the golden file:\n%s", got);
	assert_true(strncmp(got, "sender,receiver,runs,failed,gbps,rtt,"
	    "outlier,why\r\n", 50) == 0);
	assert_non_null(strstr(got, "\r\nh1,h4,1,0,0.0951,20000,1,\"only "));
	assert_non_null(strstr(got, "\r\nh3,h2,0,0,,,0,\"no result\"\r\n"));
	free(got);
	free(want);
}

static void
test_csv_columns(void **state)
{
	static const char head[] = "sender,receiver,runs,failed,"
	    "kbytes_per_s,irq_tx,outlier,why\r\n";
	struct fixture	*f = *state;
	char		*got = render(f, 1, 'K', MESH_IRQ_TX), *line, *save;
	unsigned	 rows = 0;

	assert_true(strncmp(got, head, sizeof(head) - 1) == 0);
	for (line = strtok_r(got, "\n", &save); line != NULL;
	    line = strtok_r(NULL, "\n", &save))
		rows++;
	assert_int_equal(rows, 1 + 12);		/* every ordered pair */
	free(got);
	assert_string_equal(mesh_csv_rate_column('m'), "mbps");
}

static void
test_plot_data(void **state)
{
	char	*got = render(*state, 2, 'm', MESH_CPU_RX);

	/* receiver sender rate outlier text */
	assert_non_null(strstr(got, "\n3 0 95.1 1 \"95.1*\"\n"));
	assert_non_null(strstr(got, "\n0 0 NaN 0 \"-\"\n"));
	assert_non_null(strstr(got, "\n1 2 NaN 0 \"?\"\n"));
	assert_non_null(strstr(got, "\n1 0 941.3 0 \"941.3\"\n"));
	free(got);
}

/*
 * Host names that start like formulas or hold a comma or a quote, and an
 * RTT of -1 (a number: it must stay -1).  The reader refuses a negative
 * RTT, so the -1 is put into the run after it was read: the writer's
 * numeric columns are left alone whatever they hold.  The CSV is written
 * out by hand.
 */
static void
test_csv_hostile(void **state)
{
	static const char docs[] =
	    "{\"program\": \"gigebench\", "
	    "\"params\": {\"direction\": \"client_sends\"}, "
	    "\"provenance\": {\"host\": {\"hostname\": "
	    "\"=cmd|' /C calc'!A0\"}, \"peer_host\": {\"hostname\": "
	    "\"+1,2\"}}, \"result\": {\"mbps\": 941.5, "
	    "\"sender\": {\"tcp\": {\"rtt_us\": 1}}}}\n"
	    "{\"program\": \"gigebench\", "
	    "\"params\": {\"direction\": \"client_sends\"}, "
	    "\"provenance\": {\"host\": {\"hostname\": \"@x\\\"y\"}, "
	    "\"peer_host\": {\"hostname\": \"-3\"}}, "
	    "\"result\": {\"mbps\": 900, "
	    "\"sender\": {\"tcp\": {\"rtt_us\": 250}}}}\n";
	static const char want[] =
	    "sender,receiver,runs,failed,mbps,rtt,outlier,why\r\n"
	    "\"'+1,2\",'-3,0,0,,,0,\"no result\"\r\n"
	    "\"'+1,2\",'=cmd|' /C calc'!A0,0,0,,,0,\"no result\"\r\n"
	    "\"'+1,2\",\"'@x\"\"y\",0,0,,,0,\"no result\"\r\n"
	    "'-3,\"'+1,2\",0,0,,,0,\"no result\"\r\n"
	    "'-3,'=cmd|' /C calc'!A0,0,0,,,0,\"no result\"\r\n"
	    "'-3,\"'@x\"\"y\",0,0,,,0,\"no result\"\r\n"
	    "'=cmd|' /C calc'!A0,\"'+1,2\",1,0,941.5,-1,0,\"\"\r\n"
	    "'=cmd|' /C calc'!A0,'-3,0,0,,,0,\"no result\"\r\n"
	    "'=cmd|' /C calc'!A0,\"'@x\"\"y\",0,0,,,0,\"no result\"\r\n"
	    "\"'@x\"\"y\",\"'+1,2\",0,0,,,0,\"no result\"\r\n"
	    "\"'@x\"\"y\",'-3,1,0,900,250,0,\"\"\r\n"
	    "\"'@x\"\"y\",'=cmd|' /C calc'!A0,0,0,,,0,\"no result\"\r\n";
	struct fixture	 f;
	char		 err[512], *got;

	(void)state;
	memset(&f, 0, sizeof(f));
	if (mesh_json_parse(docs, sizeof(docs) - 1, "hostile", MESH_BY_HOSTNAME,
	    &f.runs, err, sizeof(err)) == -1)
		fail_msg("hostile: %s", err);
	assert_int_equal(f.runs.n, 2);
	assert_true(f.runs.v[0].fig[MESH_RTT] == 1);
	f.runs.v[0].fig[MESH_RTT] = -1;
	assert_int_equal(mesh_build(&f.m, &f.runs, 1.5, err, sizeof(err)), 0);
	assert_int_equal(f.m.nhosts, 4);
	got = render(&f, 1, 'm', MESH_RTT);
	if (strcmp(got, want) != 0)
		fail_msg("CSV differs:\n%s", got);
	free(got);
	mesh_free(&f.m);
	mesh_runs_free(&f.runs);
}

static void
test_formats(void **state)
{
	char	b[32];

	(void)state;
	assert_string_equal(mesh_text_rate(941.34, 'm', b, sizeof(b)),
	    "941.3");
	assert_string_equal(mesh_text_rate(941.34, 'g', b, sizeof(b)),
	    "0.941");
	assert_string_equal(mesh_text_figure(NAN, MESH_CPU_RX, b, sizeof(b)),
	    "-");
	assert_string_equal(mesh_text_figure(0.145, MESH_IRQ_RX, b,
	    sizeof(b)), "0.14");
	assert_string_equal(mesh_text_figure(20000, MESH_RTT, b, sizeof(b)),
	    "20000");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_text_golden, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_csv_golden, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_csv_columns, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_plot_data, setup,
		    teardown),
		cmocka_unit_test(test_csv_hostile),
		cmocka_unit_test(test_formats),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
