/*
 * report_fmt.h: internal to the text renderers (report.c, report_rr.c):
 * the tokens they print alike, "n/a" for a figure not known, never 0.
 */
#ifndef GB_REPORT_FMT_H
#define GB_REPORT_FMT_H

#include <stddef.h>
#include <stdio.h>

#include "base/result.h"

#define REPORT_NA	"n/a"
/* Room for any token these renderers print: a uint64_t or a "%.3f". */
#define REPORT_TOKLEN	64

/* v with prec decimals into buf, or "n/a" when !has. */
const char	*report_fmt_real(char *buf, size_t len, int has, int prec,
		    double v);
/* Process CPU of one side, rounded as nuttcp prints it. */
const char	*report_fmt_pct(char *buf, size_t len, const struct gb_side *);
/* The summary line's end: " [title]", " (interrupted)", the newline. */
void		 report_summary_end(FILE *, const struct gb_result *);

#endif /* GB_REPORT_FMT_H */
