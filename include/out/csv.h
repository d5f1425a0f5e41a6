/*
 * csv.h: --csv FILE, one row per run of a sweep with every parameter and
 * every measured figure, so that a spreadsheet or pandas needs nothing
 * else.  Unavailable figures are empty fields, never 0.  Every text cell
 * goes through csv_cell, here and in out/mesh_csv.h.
 */
#ifndef GB_CSV_H
#define GB_CSV_H

#include <stdint.h>
#include <stdio.h>

#include "base/result.h"
#include "base/sweep.h"

/* When a text cell is quoted: when RFC 4180 needs it, or always. */
enum csv_quote {
	CSV_QUOTE_NEEDED,
	CSV_QUOTE_ALWAYS,
};

/*
 * One text cell, without the comma before it: the one way text goes into
 * a CSV of ours, since a cell may hold a host name, an interface, a
 * --title or an error that came from someone else.  A cell a spreadsheet
 * would take for a formula (its first byte one of = + - @ TAB CR: OWASP
 * "CSV Injection") gets a ' in front; then a cell holding a comma, a
 * quote, CR or LF (or any, with CSV_QUOTE_ALWAYS) is quoted with its
 * quotes doubled (RFC 4180).  NULL is an empty cell.  Numbers do not come
 * here: they are written as numbers, and -1 stays -1.
 */
void	csv_cell(FILE *, const char *, enum csv_quote);

/* The header line: point, repeat, one column per swept parameter, then
 * the parameters and the figures (documented in the man page). */
void	csv_header(FILE *, const struct sweep *);
/*
 * Which run a row is, for rows merged from many files: its wall-clock
 * start, the peer as asked for and --title ("" or NULL: none).  A run
 * that has a result takes its start, peer address and title from it.
 */
struct csv_run_id {
	int64_t		 start_us;
	const char	*peer;
	const char	*title;
};

/* One run; r == NULL with error for a failed run (figures empty). */
void	csv_row(FILE *, const struct sweep *, unsigned point, unsigned repeat,
	    const struct gb_params *, const struct sweep_setting *,
	    const struct gb_result *r, const char *error,
	    const struct csv_run_id *);

#endif /* GB_CSV_H */
