/*
 * csv.h: --csv FILE, one row per run of a sweep with every parameter and
 * every measured figure, so that a spreadsheet or pandas needs nothing
 * else.  Unavailable figures are empty fields, never 0.  RFC 4180 quoting.
 */
#ifndef GB_CSV_H
#define GB_CSV_H

#include <stdint.h>
#include <stdio.h>

#include "base/result.h"
#include "base/sweep.h"

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
