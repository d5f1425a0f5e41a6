/*
 * report.h: renderers.  They only format a struct gb_result; they compute
 * nothing that is not already in it (besides unit conversion) and never
 * touch a socket or a /proc file.
 */
#ifndef GB_REPORT_H
#define GB_REPORT_H

#include <stdio.h>

#include <jansson.h>

#include "base/result.h"

struct report_style {
	char	unit;		/* -f letter */
	int	verbose;	/* -v count */
	int	quiet;		/* -q: summary line only */
};

/* ttcp-style lines for both sides ("gigebench-t:", "gigebench-r:"). */
void	report_text(FILE *, const struct gb_result *,
	    const struct report_style *);
/* The nuttcp-shaped one-line summary, newline included. */
void	report_summary_line(FILE *, const struct gb_result *, char unit);
/* One interval line, printed while the test runs. */
void	report_interval_line(FILE *, const struct gb_interval *, int is_tx,
	    char unit);

/* JSON of one side; and back (for the protocol), with type checks. */
json_t	*report_side_json(const struct gb_side *);
int	 report_side_from_json(const json_t *, struct gb_side *,
	    char *err, size_t errlen);
json_t	*report_params_json(const struct gb_params *);
/* The whole document: {"program", "params", "result", "intervals"?}. */
json_t	*report_json(const struct gb_result *);

#endif /* GB_REPORT_H */
