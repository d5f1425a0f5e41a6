/*
 * context.h: the facts that make two results comparable, read once on
 * each end: kernel, CPU, the test interface's driver, link, offloads,
 * interrupt coalescing and rings, the socket buffer sysctls and the data
 * sockets' congestion control (struct gb_context in result.h).
 *
 * Files are read under the roots of struct hoststat_roots, so a captured
 * host can be replayed; the kernel's ethtool interface is asked only when
 * the roots are the real "/proc" and "/sys".  A value that cannot be had
 * is -1, "" or unknown, never an error, and ctx->note says why.
 *
 * context.c reads, context_parse.c parses (pure), context_ethtool.c asks
 * the kernel.  What "unknown" is and the ranges are in base/context_value.h;
 * the JSON codec is codec/context_json.h, the text out/context_text.h.
 */
#ifndef GB_CONTEXT_H
#define GB_CONTEXT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "host/hoststat.h"
#include "base/context_value.h"
#include "base/result.h"

/*
 * Fill ctx for interface ifname (NULL or "" when no interface is known)
 * and the connected TCP socket data_fd (-1 when there is none).  roots may
 * be NULL for "/proc" and "/sys".  Returns 0 with ctx->has = 1; -1 with a
 * reason in err only when ifname is not a valid interface name.
 */
int	context_read(const struct hoststat_roots *, const char *ifname,
	    int data_fd, struct gb_context *, char *err, size_t errlen);

/*
 * context_parse.c: pure parsers, for the readers and the tests.  Each
 * returns 0, or -1 when the text is not what the kernel writes.
 *
 * context_cpuinfo_parse: the CPU model ("model name" on x86, "cpu" on
 * PowerPC, "Processor" then "CPU part" on ARM: the first of these keys,
 * in that order, that the file holds) and the number of "processor"
 * entries, 0 when there are none.  -1 when there is neither.
 */
int	context_cpuinfo_parse(FILE *, char *model, size_t modellen,
	    int *ncpus);
/* One decimal integer, alone on the first line, "-1" allowed: "1500\n". */
int	context_int_parse(FILE *, int64_t *);
/* The first line, without surrounding blanks: "6.1.0-18-amd64". */
int	context_line_parse(FILE *, char *, size_t);
/* Three numbers, written back with single spaces: "4096 131072 6291456". */
int	context_triple_parse(FILE *, char *, size_t);

/*
 * Append "; what" to ctx->note; a note that no longer fits ends in "...".
 * Bytes that are not printable ASCII become '?'.
 */
void	context_note(struct gb_context *, const char *fmt, ...)
	    __attribute__((__format__(__printf__, 2, 3)));

/*
 * context_ethtool.c: driver, version and bus, link speed and duplex (only
 * where ctx has none), offloads, coalescing and rings of a live interface
 * through SIOCETHTOOL.  What the driver does not support goes to the note.
 */
void	context_ethtool_read(const char *ifname, struct gb_context *);

#endif /* GB_CONTEXT_H */
