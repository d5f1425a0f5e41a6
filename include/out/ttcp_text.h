/*
 * ttcp_text.h: the classic ttcp's lines, in its format and units, and
 * after them, with the same prefix ("ttcp-t: " or "ttcp-r: "), what
 * gigebench measured on this end; and the same figures as JSON.  The
 * formats are the 1991 BRL/SGI ttcp.c's (its "%.2f" figures, its
 * 1024-based -f units, its getrusage line), so that a script written
 * for ttcp parses them unchanged.  Pure formatting: no clock, no
 * socket.
 */
#ifndef GB_TTCP_TEXT_H
#define GB_TTCP_TEXT_H

#include <stdio.h>
#include <stddef.h>

#include <jansson.h>

#include "base/result.h"
#include "base/ttcp.h"

/* "ttcp-t" or "ttcp-r". */
const char	*ttcp_text_role(const struct ttcp_cfg *);
/* "ttcp-t: buflen=8192, nbuf=2048, align=16384/0, port=5001  tcp  -> h" */
void	ttcp_text_header(FILE *, const struct ttcp_cfg *);
/* One progress line: "ttcp-t: connect". */
void	ttcp_text_note(FILE *, const struct ttcp_cfg *, const char *text);
/* ttcp's err(): "ttcp-t: IO: Broken pipe" and "ttcp-t: errno=32". */
void	ttcp_text_error(FILE *, const struct ttcp_cfg *, const char *err,
	    int errnum);
/* ttcp's outfmt(): bytes/s as "109226.67 KB" in the unit of -f. */
void	ttcp_text_rate(char fmt, double bytes_s, char *buf, size_t len);
/* ttcp's prusage(): "0.0user 0.1sys 0:00real 66% 0i+0d 0maxrss ...". */
void	ttcp_text_rusage(const struct ttcp_rusage *r0,
	    const struct ttcp_rusage *r1, double realt, char *buf, size_t len);
/* The bytes, the I/O calls and the rusage lines (-v: CPU and address). */
void	ttcp_text_result(FILE *, const struct ttcp_cfg *,
	    const struct ttcp_counts *);
/* gigebench's lines about this end, after ttcp's. */
void	ttcp_text_side(FILE *, const struct ttcp_cfg *,
	    const struct ttcp_counts *, const struct gb_side *);
/* --json: this end's figures; the peer's null, with the reason. */
json_t	*ttcp_json(const struct ttcp_cfg *, const struct ttcp_counts *,
	    const struct gb_side *);

#endif /* GB_TTCP_TEXT_H */
