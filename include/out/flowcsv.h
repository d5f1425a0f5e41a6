/*
 * flowcsv.h: --flow-csv FILE, one row per flow of a side, so that the
 * spread the flows' summary (struct gb_flows) gives as min / P50 / max
 * can be plotted flow by flow.  The columns, a contract:
 *
 *	side,flow,bytes,seconds,mbps,transactions,tps,retransmits,rtt_us,
 *	cpu,data_path
 *
 * side is "sender" or "receiver", flow the flow's index from 0 (the
 * order of the data connections, the same on both ends), mbps its bytes
 * over its seconds in 10^6 bit/s, tps its transactions a second; an
 * unknown figure is an empty field, never 0: transactions and tps
 * without --rr, retransmits and rtt_us (microseconds) without the flow's
 * TCP_INFO, cpu when it is not known.  data_path is a name of enum
 * gb_path.  Every other field is a number, so no cell can be taken for a
 * formula.  RFC 4180 records, ending in CRLF as --csv's.
 */
#ifndef GB_FLOWCSV_H
#define GB_FLOWCSV_H

#include <stddef.h>
#include <stdio.h>

#include "base/result.h"

/*
 * The header row (when first is 0), then a row for each of the n flows,
 * numbered from first (--bidir's second half: after the first's), and
 * a flush: 0, or
 * -1 with what failed in err ("flow CSV: cannot write flow 12: No space
 * left on device"), also for a side that is neither name.
 */
int	flowcsv_write(FILE *fp, const char *side, const struct gb_stream *flows,
	    unsigned n, unsigned first, int rr, char *err, size_t errlen);

#endif /* GB_FLOWCSV_H */
