/*
 * test_merge_opts.c: gigebench merge's command line (cli/merge_opts.h):
 * the defaults, each option and its errors in the house shape, files and
 * options in any order, and the help text held to the getopt table:
 * every option it lists parses, with a value when it names one.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/merge_opts.h"

/*
 * Parse a NULL-terminated list after "merge".  argv outlives the call:
 * o->files points into it.
 */
static int
parse(const char *const *words, struct merge_opts *o, char *err,
    size_t errlen)
{
	static char	*argv[32];
	int		 argc = 0;

	argv[argc++] = "merge";
	while (*words != NULL && argc < 31)
		argv[argc++] = (char *)*words++;
	argv[argc] = NULL;
	err[0] = '\0';
	return merge_opts_parse(argc, argv, o, err, errlen);
}

static void
test_defaults(void **state)
{
	const char *const	w[] = { "a.json", "b.json", NULL };
	struct merge_opts	o;
	char			err[256];

	(void)state;
	assert_int_equal(parse(w, &o, err, sizeof(err)), OPTS_OK);
	assert_int_equal(o.unit, 'm');
	assert_int_equal(o.figure, MESH_CPU_RX);
	assert_true(o.factor == 1.5);
	assert_int_equal(o.by, MESH_BY_HOSTNAME);
	assert_null(o.csv_path);
	assert_int_equal(o.nfiles, 2);
	assert_string_equal(o.files[1], "b.json");
}

static void
test_options_any_order(void **state)
{
	const char *const	w[] = { "a.json", "-f", "g", "--figure",
				    "retrans", "b.json", "--outlier", "2.5",
				    "--by", "address", "--csv", "x.csv",
				    "--plot", "x.svg", NULL };
	struct merge_opts	o;
	char			err[256];

	(void)state;
	assert_int_equal(parse(w, &o, err, sizeof(err)), OPTS_OK);
	assert_int_equal(o.unit, 'g');
	assert_int_equal(o.figure, MESH_RETRANS);
	assert_true(o.factor == 2.5);
	assert_int_equal(o.by, MESH_BY_ADDRESS);
	assert_string_equal(o.csv_path, "x.csv");
	assert_string_equal(o.plot_path, "x.svg");
	assert_int_equal(o.nfiles, 2);
}

/* bad WORDS... WANT: a usage error whose message holds WANT. */
static void
bad(const char *want, const char *const *w)
{
	struct merge_opts	o;
	char			err[256];

	if (parse(w, &o, err, sizeof(err)) != OPTS_ERROR)
		fail_msg("taken, wanted \"%s\"", want);
	if (strstr(err, want) == NULL)
		fail_msg("\"%s\" does not say \"%s\"", err, want);
}

static void
test_errors(void **state)
{
	(void)state;
	bad("no files", (const char *const[]){ NULL });
	bad("no files", (const char *const[]){ "-f", "k", NULL });
	bad("unknown option: --frob", (const char *const[]){ "--frob", "a",
	    NULL });
	bad("unknown option: -x", (const char *const[]){ "-x", "a", NULL });
	bad("--outlier is out of range (1.01-1000): 1", (const char *const[]){
	    "--outlier", "1", "a", NULL });
	bad("--outlier is out of range (1.01-1000): 1001",
	    (const char *const[]){ "--outlier", "1001", "a", NULL });
	bad("--outlier is not a number: 2x", (const char *const[]){
	    "--outlier", "2x", "a", NULL });
	bad("--outlier is not a number: nan", (const char *const[]){
	    "--outlier", "nan", "a", NULL });
	bad("unknown --figure (cpu-tx, ", (const char *const[]){ "--figure",
	    "cpu", "a", NULL });
	bad("--by is hostname or address: ip", (const char *const[]){ "--by",
	    "ip", "a", NULL });
	bad("unknown rate unit (k, m, g, K, M, G): x", (const char *const[]){
	    "-f", "x", "a", NULL });
	bad("--csv needs a value", (const char *const[]){ "a", "--csv",
	    NULL });
	bad("--plot needs a file name", (const char *const[]){ "--plot", "",
	    "a", NULL });
}

static void
test_wanted(void **state)
{
	char *const	a[] = { "gigebench", "merge", NULL };
	char *const	b[] = { "/usr/bin/ttcp", "merge", NULL };
	char *const	c[] = { "gigebench", "-t", "merge", NULL };

	(void)state;
	assert_true(merge_wanted(2, a));
	assert_false(merge_wanted(2, b));
	assert_false(merge_wanted(3, c));
	assert_false(merge_wanted(1, a));
}

/* Every option line of the help parses, with a value if it names one. */
static void
test_help_matches_getopt(void **state)
{
	char			*buf = NULL, *line, *save, *tok, *s2, names[64];
	size_t			 len = 0, n;
	FILE			*fp = open_memstream(&buf, &len);
	struct merge_opts	 o;
	char			 err[256];
	const char		*w[4];
	unsigned		 nopts = 0;

	(void)state;
	assert_non_null(fp);
	merge_opts_usage(fp);
	assert_int_equal(fclose(fp), 0);
	assert_true(strncmp(buf, "usage: gigebench merge [", 24) == 0);
	for (line = strtok_r(buf, "\n", &save); line != NULL;
	    line = strtok_r(NULL, "\n", &save)) {
		assert_true(strlen(line) < 80);
		if (strncmp(line, "  -", 3) != 0 &&
		    strncmp(line, "      --", 8) != 0)
			continue;
		line += strspn(line, " ");
		n = strstr(line, "  ") != NULL ?
		    (size_t)(strstr(line, "  ") - line) : strlen(line);
		snprintf(names, sizeof(names), "%.*s", (int)n, line);
		/* "-f, --format unit": the value is the last word */
		w[1] = strrchr(names, ' ') != NULL &&
		    strrchr(names, ' ')[1] != '-' ? "m" : NULL;
		if (strstr(names, "figure") != NULL)
			w[1] = "rtt";
		else if (strstr(names, "by") != NULL)
			w[1] = "address";
		else if (strstr(names, "outlier") != NULL)
			w[1] = "2";
		else if (w[1] != NULL && strstr(names, "format") == NULL)
			w[1] = "file.out";
		for (tok = strtok_r(names, ", ", &s2); tok != NULL;
		    tok = strtok_r(NULL, ", ", &s2)) {
			if (*tok != '-')
				continue;
			w[0] = tok;
			w[w[1] != NULL ? 2 : 1] = "a.json";
			w[w[1] != NULL ? 3 : 2] = NULL;
			if (strcmp(tok, "-h") == 0 ||
			    strcmp(tok, "--help") == 0)
				assert_int_equal(parse(w, &o, err,
				    sizeof(err)), OPTS_HELP);
			else if (parse(w, &o, err, sizeof(err)) != OPTS_OK)
				fail_msg("help lists %s: %s", tok, err);
			nopts++;
		}
	}
	assert_int_equal(nopts, 9);
	free(buf);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_options_any_order),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_wanted),
		cmocka_unit_test(test_help_matches_getopt),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
