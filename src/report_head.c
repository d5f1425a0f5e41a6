/*
 * report_head.c: the params line of a side (out/report.h), which this
 * end prints as its test starts, before any interval, and the text
 * report prints again for the peer's side.  A count test (-n) shows its
 * count and a timed one its duration, never the other's zero or its
 * 86400 s ceiling.  Formatting only, like report.c.
 */
#include <inttypes.h>
#include <stdio.h>

#include "out/report.h"

const char *
report_side_prefix(int is_tx)
{
	return is_tx ? "gigebench-t:" : "gigebench-r:";
}

void
report_header_line(FILE *fp, const struct gb_result *r, int is_tx)
{
	const struct gb_params *p = &r->params;
	int local = is_tx == (r->local_is_sender != 0);

	if (p->rr) {	/* --rr's buffers are its request and answer */
		fprintf(fp, "%s %s request=%" PRIu32 " response=%" PRIu32
		    " burst=%" PRIu32 " streams=%" PRIu32,
		    report_side_prefix(is_tx), p->crr ? "crr" : "rr",
		    params_rr_size(p->req_size),
		    params_rr_size(p->resp_size), params_rr_size(p->rr_burst),
		    p->streams);
		if (p->udp)	/* the asker's: it decides what is lost */
			fprintf(fp, " timeout=%" PRIu32 "ms",
			    params_rr_timeout_ms(p->rr_timeout_ms));
	} else
		fprintf(fp, "%s buflen=%" PRIu32 " streams=%" PRIu32,
		    report_side_prefix(is_tx), p->buflen, p->streams);
	if (p->bidir)
		fputs(" bidir", fp);
	if (p->nbuf != 0)
		fprintf(fp, " nbuf=%" PRIu64, p->nbuf);
	else
		fprintf(fp, " duration=%.2fs", p->duration_ms / 1000.0);
	if (p->omit_ms != 0)
		fprintf(fp, " omit=%.2fs", p->omit_ms / 1000.0);
	fprintf(fp, " nodelay=%d", p->nodelay != 0);
	if (p->mss != 0)
		fprintf(fp, " mss=%" PRIu32, p->mss);
	/* The peer's address is known; our own, as the peer sees it, is not. */
	if (local)
		fprintf(fp, " port=%u %s %s %s", (unsigned)r->port,
		    p->udp ? "udp" : "tcp", is_tx ? "->" : "<-", r->peer);
	else
		fprintf(fp, " port=%u %s, reported by %s", (unsigned)r->port,
		    p->udp ? "udp" : "tcp", r->peer);
	if (local && r->prov.title[0] != '\0')
		fprintf(fp, " [%s]", r->prov.title);
	fputc('\n', fp);
}
