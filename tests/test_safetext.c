/*
 * test_safetext.c: safetext.c, the one rule for foreign text: printable
 * ASCII kept, everything else "\xHH" (C0, DEL, C1 raw and in UTF-8, an
 * escape sequence), an escape never cut by the buffer's end, in place
 * and out of place alike.
 */

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "base/safetext.h"

struct esc_case {
	const char	*in;
	size_t		 dstlen;
	const char	*want;
};

static const struct esc_case esc_cases[] = {
	{ "plain host-1.example", 64, "plain host-1.example" },
	{ "", 8, "" },
	{ "a\x1b[31mred", 64, "a\\x1b[31mred" },
	{ "line\nforged", 64, "line\\x0aforged" },
	{ "cr\r\t", 64, "cr\\x0d\\x09" },
	{ "del\x7f", 64, "del\\x7f" },
	{ "c1\x9b" "2J", 64, "c1\\x9b2J" },
	{ "utf8 c1 \xc2\x9b", 64, "utf8 c1 \\xc2\\x9b" },
	{ "osc\x1b]0;x\x07", 64, "osc\\x1b]0;x\\x07" },
	/* Printable specials are kept: quoting is each writer's job. */
	{ "`id` $(id) \"q\" 'q' ; @m \\", 64, "`id` $(id) \"q\" 'q' ; @m \\" },
	/* The end of the buffer: whole escapes or none. */
	{ "abc\x1b", 8, "abc\\x1b" },
	{ "abc\x1b", 7, "abc" },
	{ "abcdef", 4, "abc" },
	{ "abcdef", 1, "" },
};

static void
test_escape_cases(void **state)
{
	char	buf[64];
	size_t	i;

	(void)state;
	for (i = 0; i < sizeof(esc_cases) / sizeof(esc_cases[0]); i++) {
		memset(buf, 'Z', sizeof(buf));
		safetext_escape(buf, esc_cases[i].dstlen, esc_cases[i].in);
		assert_string_equal(buf, esc_cases[i].want);
		assert_true(safetext_is_printable(buf));
	}
}

static void
test_escape_zero_len(void **state)
{
	char	buf[2] = { 'Q', 'Q' };

	(void)state;
	safetext_escape(buf, 0, "x");
	assert_int_equal(buf[0], 'Q');
}

static void
test_escape_n_holds_nul(void **state)
{
	char	buf[32];

	(void)state;
	safetext_escape_n(buf, sizeof(buf), "a\0b", 3);
	assert_string_equal(buf, "a\\x00b");
}

static void
test_inplace(void **state)
{
	char	s[16] = "h\x1b[2Jx";
	char	plain[16] = "fine";
	char	full[4] = { 'a', 'b', 'c', 'd' };	/* no NUL at all */

	(void)state;
	safetext_inplace(s, sizeof(s));
	assert_string_equal(s, "h\\x1b[2Jx");
	safetext_inplace(plain, sizeof(plain));
	assert_string_equal(plain, "fine");
	safetext_inplace(full, sizeof(full));
	assert_string_equal(full, "abc");
}

static void
test_is_printable(void **state)
{
	(void)state;
	assert_true(safetext_is_printable("a b~"));
	assert_false(safetext_is_printable("a\nb"));
	assert_false(safetext_is_printable("\x80"));
	assert_false(safetext_is_printable("\x7f"));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_escape_cases),
		cmocka_unit_test(test_escape_zero_len),
		cmocka_unit_test(test_escape_n_holds_nul),
		cmocka_unit_test(test_inplace),
		cmocka_unit_test(test_is_printable),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
