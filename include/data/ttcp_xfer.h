/*
 * ttcp_xfer.h: one transfer of the classic ttcp, on its own wire: one
 * plain TCP connection and the payload, nothing else; or UDP datagrams
 * of -l bytes between 4-byte sentinels (a start, then the end, sent
 * TTCP_END_SENTINELS times).  Sink mode (-s) sends ttcp's pattern or
 * discards what arrives; pipe mode sends standard input or writes
 * standard output, byte for byte.  It counts what ttcp counts (bytes,
 * calls, its timer, getrusage) and measures around the transfer what a
 * native test's side has (host and process CPU, interrupts, TCP_INFO,
 * socket buffers asked and got), into a struct gb_side.
 *
 * It prints nothing: ttcp's progress lines ("socket", "connect", "accept
 * from A") go to the caller's note callback, which prints them.
 */
#ifndef GB_TTCP_XFER_H
#define GB_TTCP_XFER_H

#include <stddef.h>

#include "base/result.h"
#include "base/ttcp.h"
#include "host/hoststat.h"

struct ttcp_hooks {
	/* One of ttcp's progress lines, without its "ttcp-t: " prefix. */
	void	(*note)(void *arg, const char *text);
	void	*arg;
	const struct hoststat_roots *roots;
};

/*
 * 0 when the transfer ran to its end (counts and side filled), or -1
 * with the reason in err ("connect: Connection refused", "IO: Broken
 * pipe") and the errno behind it in *errnum (0 when none).
 */
int	ttcp_xfer(const struct ttcp_cfg *, const struct ttcp_hooks *,
	    struct ttcp_counts *, struct gb_side *, int *errnum, char *err,
	    size_t errlen);

#endif /* GB_TTCP_XFER_H */
