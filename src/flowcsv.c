/*
 * flowcsv.c: --flow-csv's writer (out/flowcsv.h): a header row and one
 * row per flow of a side, its bytes, seconds, rate, --rr's transactions
 * and their rate, TCP's retransmits and RTT, its CPU and its data path.
 *
 * Only formats: the FILE is the one side effect, and a write that fails
 * is reported, naming the row, in the caller's buffer.  The only text is
 * the side's name, checked against the two there are, and the data path's
 * name from datapath.c's table: no cell comes from a peer or a user, so
 * none needs csv.c's quoting or its defusing of formulas.  Reals are
 * "%.9g", as --csv's.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "base/datapath.h"
#include "out/flowcsv.h"

#define FLOWCSV_EOL	"\r\n"
#define FLOWCSV_HEADER	"side,flow,bytes,seconds,mbps,transactions,tps," \
			"retransmits,rtt_us,cpu,data_path"
/* Room for a uint64_t or a "%.9g". */
#define FLOWCSV_FIELD_LEN	32

/* One optional field: the number, or "" when it is not known. */
struct flowcsv_row {
	char	transactions[FLOWCSV_FIELD_LEN];
	char	tps[FLOWCSV_FIELD_LEN];
	char	retrans[FLOWCSV_FIELD_LEN];
	char	rtt_us[FLOWCSV_FIELD_LEN];
	char	cpu[FLOWCSV_FIELD_LEN];
};

static void
flowcsv_fields(const struct gb_stream *g, int rr, struct flowcsv_row *f)
{
	memset(f, 0, sizeof(*f));
	if (rr) {
		snprintf(f->transactions, sizeof(f->transactions), "%" PRIu64,
		    g->transactions);
		snprintf(f->tps, sizeof(f->tps), "%.9g", g->seconds > 0 ?
		    (double)g->transactions / g->seconds : 0.0);
	}
	if (g->has_tcp) {
		snprintf(f->retrans, sizeof(f->retrans), "%" PRIu32,
		    g->retrans);
		snprintf(f->rtt_us, sizeof(f->rtt_us), "%" PRIu32, g->rtt_us);
	}
	if (g->cpu >= 0)
		snprintf(f->cpu, sizeof(f->cpu), "%d", g->cpu);
}

static int
flowcsv_fail(char *err, size_t errlen, const char *what, int e)
{
	snprintf(err, errlen, "flow CSV: cannot write %s: %s", what,
	    strerror(e != 0 ? e : EIO));
	return -1;
}

int
flowcsv_write(FILE *fp, const char *side, const struct gb_stream *flows,
    unsigned n, unsigned first, int rr, char *err, size_t errlen)
{
	const struct gb_stream *g;
	struct flowcsv_row f;
	char what[32];
	unsigned i;

	if (side == NULL || (strcmp(side, "sender") != 0 &&
	    strcmp(side, "receiver") != 0)) {
		snprintf(err, errlen, "flow CSV: the side is not sender or "
		    "receiver");
		return -1;
	}
	errno = 0;
	if (first == 0 && fputs(FLOWCSV_HEADER FLOWCSV_EOL, fp) == EOF)
		return flowcsv_fail(err, errlen, "the header", errno);
	for (i = 0; i < n; i++) {
		g = &flows[i];
		flowcsv_fields(g, rr, &f);
		errno = 0;
		if (fprintf(fp, "%s,%u,%" PRIu64 ",%.9g,%.9g,%s,%s,%s,%s,%s,%s"
		    FLOWCSV_EOL, side, first + i, g->bytes, g->seconds,
		    result_mbps(g->bytes, g->seconds), f.transactions, f.tps,
		    f.retrans, f.rtt_us, f.cpu, datapath_name(g->path)) < 0) {
			snprintf(what, sizeof(what), "flow %u", i);
			return flowcsv_fail(err, errlen, what, errno);
		}
	}
	errno = 0;
	if (fflush(fp) == EOF || ferror(fp))
		return flowcsv_fail(err, errlen, "the rows out (flush)",
		    errno);
	return 0;
}
