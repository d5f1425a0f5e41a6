/*
 * capture_text.c: struct gb_capture as the report's text lines
 * (capture_text.h): counts, then the nonzero bins of the histogram whose
 * bounds are result.h's.  Formats only, into the FILE given.
 */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>

#include "out/capture_text.h"

#define CAPTURE_LE		"<="	/* bin labels stay ASCII */

/* "tx <=1518:412345 >16384:12", the nonzero bins only. */
static void
capture_sizes(FILE *fp, const char *dir, const uint64_t *hist)
{
	unsigned	 i;

	fprintf(fp, "%s", dir);
	for (i = 0; i < GB_HIST_BINS; i++) {
		if (hist[i] == 0)
			continue;
		if (i < GB_HIST_BINS - 1)
			fprintf(fp, " " CAPTURE_LE "%" PRIu32 ":%" PRIu64,
			    capture_bin_max[i], hist[i]);
		else
			fprintf(fp, " >%" PRIu32 ":%" PRIu64,
			    capture_bin_max[i - 1], hist[i]);
	}
}

void
capture_text(FILE *fp, const struct gb_capture *c, const char *prefix)
{
	if (!c->has) {
		if (c->note[0] != '\0')
			fprintf(fp, "%s capture: n/a (%s)\n", prefix, c->note);
		return;
	}
	fprintf(fp, "%s capture: tx %" PRIu64 " frames", prefix, c->frames_tx);
	if (c->frames_tx > 0)
		fprintf(fp, " (max %" PRIu32 " B)", c->max_frame_tx);
	fprintf(fp, ", rx %" PRIu64 " frames", c->frames_rx);
	if (c->frames_rx > 0)
		fprintf(fp, " (max %" PRIu32 " B)", c->max_frame_rx);
	fprintf(fp, ", %" PRIu64 " dropped", c->drops);
	if (c->note[0] != '\0')
		fprintf(fp, " (%s)", c->note);
	fprintf(fp, "\n");
	if (c->frames_tx == 0 && c->frames_rx == 0)
		return;
	fprintf(fp, "%s capture sizes: ", prefix);
	if (c->frames_tx > 0)
		capture_sizes(fp, "tx", c->hist_tx);
	if (c->frames_tx > 0 && c->frames_rx > 0)
		fprintf(fp, "; ");
	if (c->frames_rx > 0)
		capture_sizes(fp, "rx", c->hist_rx);
	fprintf(fp, "\n");
}
