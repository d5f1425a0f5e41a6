/*
 * report.h: renderers.  They only format a struct gb_result; they compute
 * nothing that is not already in it (besides unit conversion) and never
 * touch a socket or a /proc file.  Each side is encoded by the side codec
 * (codec/side.h), as the control protocol carries it.
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
	int	header_shown;	/* this end's params line came at the start */
};

/* "gigebench-t:" for the sender, "gigebench-r:" for the receiver. */
const char *report_side_prefix(int is_tx);
/*
 * The params line of one side: "gigebench-t: buflen=... tcp -> host"
 * for this end, printed when its test starts (report_head.c), or
 * "..., reported by host" for the peer's.
 */
void	report_header_line(FILE *, const struct gb_result *, int is_tx);

/* ttcp-style lines for both sides ("gigebench-t:", "gigebench-r:"). */
void	report_text(FILE *, const struct gb_result *,
	    const struct report_style *);
/* The nuttcp-shaped one-line summary, newline included. */
void	report_summary_line(FILE *, const struct gb_result *, char unit);
/*
 * One interval line, printed while the test runs: this end's slice and,
 * on the client, the listener's of the same index (NULL: none).
 */
void	report_interval_line(FILE *, const struct gb_interval *,
	    const struct gb_interval *peer, int is_tx, char unit);

/* --json's params member.  A side is codec/side.h's side_json(). */
json_t	*report_params_json(const struct gb_params *);
/* The whole document: {"program", "params", "result", "intervals"?}. */
json_t	*report_json(const struct gb_result *);
/*
 * Print doc as --json does (indented, sorted keys, 12 significant digits)
 * with a newline, and free it; NULL (a builder ran out of memory) prints
 * {"error": "cannot build the JSON report"}, still one valid document.
 */
void	report_json_print(FILE *, json_t *doc);

#endif /* GB_REPORT_H */
