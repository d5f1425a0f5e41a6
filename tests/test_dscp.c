/*
 * test_dscp.c: dscp.c against the code points of the RFCs: the class
 * selectors of RFC 2474 (n << 3), the AF classes of RFC 2597 (section 6:
 * AFxy is 8x + 2y), EF (RFC 3246: 46), VA (RFC 5865: 44), LE (RFC 8622:
 * 1); any case, nothing around the name; and each name back from its
 * code point.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>

#include "base/dscp.h"

static const struct dscp_case {
	const char	*name;
	int		 want;	/* -1: not a name */
} cases[] = {
	{ "CS0", 0 }, { "CS1", 8 }, { "CS2", 16 }, { "CS3", 24 },
	{ "CS4", 32 }, { "CS5", 40 }, { "CS6", 48 }, { "CS7", 56 },
	{ "AF11", 10 }, { "AF12", 12 }, { "AF13", 14 },
	{ "AF21", 18 }, { "AF22", 20 }, { "AF23", 22 },
	{ "AF31", 26 }, { "AF32", 28 }, { "AF33", 30 },
	{ "AF41", 34 }, { "AF42", 36 }, { "AF43", 38 },
	{ "EF", 46 }, { "VA", 44 }, { "LE", 1 },
	/* any case */
	{ "ef", 46 }, { "Ef", 46 }, { "eF", 46 }, { "cs5", 40 },
	{ "af41", 34 }, { "aF41", 34 }, { "va", 44 }, { "le", 1 },
	/* not a name */
	{ "", -1 }, { "E", -1 }, { "E F", -1 }, { " EF", -1 }, { "EF ", -1 },
	{ "EFF", -1 }, { "CS", -1 }, { "CS8", -1 }, { "CS9", -1 },
	{ "CS10", -1 }, { "CS-1", -1 }, { "AF", -1 }, { "AF4", -1 },
	{ "AF10", -1 }, { "AF14", -1 }, { "AF44", -1 }, { "AF51", -1 },
	{ "AF411", -1 }, { "46", -1 }, { "0xb8", -1 }, { "BE", -1 },
	{ "DF", -1 }, { "lowdelay", -1 }, { "EF\n", -1 },
	{ "\xc5\x9f" "F", -1 },	/* a non-ASCII letter is no letter */
};

static void
test_parse(void **state)
{
	size_t	i;
	int	got;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		got = dscp_parse(cases[i].name);
		if (got != cases[i].want)
			fail_msg("dscp_parse(\"%s\") = %d, want %d",
			    cases[i].name, got, cases[i].want);
	}
}

/* The TOS bytes --tos takes the names for: EF 0xb8, CS5 160, AF41 136. */
static void
test_tos_byte(void **state)
{
	(void)state;
	assert_int_equal(dscp_parse("EF") << DSCP_TOS_SHIFT, 0xb8);
	assert_int_equal(dscp_parse("CS5") << DSCP_TOS_SHIFT, 160);
	assert_int_equal(dscp_parse("AF41") << DSCP_TOS_SHIFT, 136);
	assert_int_equal(dscp_parse("LE") << DSCP_TOS_SHIFT, 4);
	assert_int_equal(dscp_parse("CS7") << DSCP_TOS_SHIFT, 224);
}

/* Every code point with a name gives it back; the others NULL. */
static void
test_name(void **state)
{
	const char	*name;
	unsigned	 d, named = 0;

	(void)state;
	for (d = 0; d <= DSCP_MAX + 1; d++) {
		if ((name = dscp_name(d)) == NULL)
			continue;
		named++;
		if (dscp_parse(name) != (int)d)
			fail_msg("dscp_parse(dscp_name(%u) = \"%s\") = %d", d,
			    name, dscp_parse(name));
	}
	assert_int_equal(named, 23);	/* 8 CS, 12 AF, EF, VA, LE */
	assert_string_equal(dscp_name(46), "EF");
	assert_string_equal(dscp_name(1), "LE");
	assert_string_equal(dscp_name(0), "CS0");
	assert_null(dscp_name(2));
	assert_null(dscp_name(63));
	assert_null(dscp_name(256));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_tos_byte),
		cmocka_unit_test(test_name),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
