/*
 * report_fmt.h: internal to the text renderers (report.c, report_rr.c,
 * report_flows.c): the tokens they print alike, "n/a" for a figure not
 * known, never 0.
 */
#ifndef GB_REPORT_FMT_H
#define GB_REPORT_FMT_H

#include <stddef.h>
#include <stdio.h>

#include "base/result.h"

#define REPORT_NA	"n/a"
/* Room for any token these renderers print: a uint64_t or a "%.3f". */
#define REPORT_TOKLEN	64
/*
 * -v prints each stream's line up to this many streams kept; a side of
 * more prints its flow summary line alone.
 */
#define REPORT_MAX_STREAM_LINES	16

/* v with prec decimals into buf, or "n/a" when !has. */
const char	*report_fmt_real(char *buf, size_t len, int has, int prec,
		    double v);
/* Process CPU of one side, rounded as nuttcp prints it. */
const char	*report_fmt_pct(char *buf, size_t len, const struct gb_side *);
/* The summary line's end: " [title]", " (interrupted)", the newline. */
void		 report_summary_end(FILE *, const struct gb_result *);
/* report_flows.c: is the flow summary line printed (2 flows or more)? */
int		 report_flows_shown(const struct gb_side *);
/* ... and the line, "gigebench-r: flows: 1000 on 2 threads, ...". */
void		 report_flows_line(FILE *, const struct gb_side *, int is_tx,
		    char unit);

#endif /* GB_REPORT_FMT_H */
