/*
 * plot_quote.c: how text we did not make goes into a gnuplot script or
 * its data file (plot_internal.h), for every picture: the sweep's, the
 * --rr CDF's and merge's heat map.  Writes to the FILE it is given.
 */
#include <stdio.h>

#include "base/safetext.h"
#include "plot_internal.h"

/*
 * The one writer of a gnuplot string that holds text we did not make (a
 * host name, a --title, a swept value).  gnuplot runs `...` as a shell
 * command and expands @macros inside double quotes, and a double quote
 * or a newline would end the command; inside single quotes nothing is
 * expanded and only '' stands for a quote.  So: single quotes, quotes
 * doubled, and every byte that is not printable ASCII (a newline, an
 * escape) shown as \xHH (base/safetext.h).  Writers mark it noenhanced
 * so that "_" and "^" in a name are not typeset.
 */
void
plot_script_string(FILE *f, const char *s)
{
	char	esc[SAFETEXT_ESC_LEN + 1];

	fputc('\'', f);
	for (; *s != '\0'; s++) {
		if (*s == '\'')
			fputs("''", f);
		else {
			safetext_escape_n(esc, sizeof(esc), s, 1);
			fputs(esc, f);
		}
	}
	fputc('\'', f);
}

/* A comment line of the data file: one line whatever the text holds. */
void
plot_script_comment(FILE *f, const char *s)
{
	char	esc[SAFETEXT_ESC_LEN + 1];

	fputs("# ", f);
	for (; *s != '\0'; s++)
		fputs(safetext_escape_n(esc, sizeof(esc), s, 1), f);
	fputc('\n', f);
}
