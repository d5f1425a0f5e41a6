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
 * The progress line's text, no newline: "0:03/0:10 elapsed, 941.2345
 * Mbps now, 352 MB", or without "/0:10" for a count test.
 */
void	report_progress_text(char *buf, size_t len, const struct gb_progress *,
	    char unit);
/*
 * One interval line, printed while the test runs: this end's slice and,
 * on the client, the listener's of the same index (NULL: none).
 */
void	report_interval_line(FILE *, const struct gb_interval *,
	    const struct gb_interval *peer, int is_tx, char unit);

/* --rr: this end's transactions, their cost, the asker's latencies. */
void	report_rr_lines(FILE *, const struct gb_result *,
	    const struct gb_side *, int is_tx);
/* --rr's summary line in place of the throughput one, newline included. */
void	report_rr_summary(FILE *, const struct gb_result *);

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
/*
 * --json-stream's events, each printed by report_json_line() as one line
 * of compact JSON: the start (provenance and params so far), one slice
 * (with its peer's, or null), and the end, whose report is the --json
 * document (taken; "error" when failed).
 */
json_t	*report_start_event(const struct gb_result *);
json_t	*report_interval_event(const struct gb_interval *,
	    const struct gb_interval *peer);
json_t	*report_end_event(json_t *report, int failed);
/* One line, newline included, and free ev; NULL prints an error event. */
void	report_json_line(FILE *, json_t *ev);

#endif /* GB_REPORT_H */
