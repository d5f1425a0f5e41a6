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
 * the kernel, context_json.c and context_text.c render.
 */
#ifndef GB_CONTEXT_H
#define GB_CONTEXT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

#include "host/hoststat.h"
#include "base/result.h"

/* Ranges shared by the readers and the JSON decoder. */
#define CONTEXT_MAX_NCPUS	(1 << 20)
#define CONTEXT_MAX_MTU		INT32_MAX
#define CONTEXT_MAX_SYSCTL	INT32_MAX	/* net.core.[rw]mem_max: int */
#define CONTEXT_MAX_ETHTOOL	UINT32_MAX	/* coalescing, rings: u32 */

/*
 * Fill ctx for interface ifname (NULL or "" when no interface is known)
 * and the connected TCP socket data_fd (-1 when there is none).  roots may
 * be NULL for "/proc" and "/sys".  Returns 0 with ctx->has = 1; -1 with a
 * reason in err only when ifname is not a valid interface name.
 */
int	context_read(const struct hoststat_roots *, const char *ifname,
	    int data_fd, struct gb_context *, char *err, size_t errlen);

/* Every value unknown (-1, ""), has = 0. */
void	context_init(struct gb_context *);

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
/* Copy src into dst (dstlen bytes), bytes that are not printable as '?'. */
void	context_copy(char *dst, size_t dstlen, const char *src);

/*
 * context_ethtool.c: driver, version and bus, link speed and duplex (only
 * where ctx has none), offloads, coalescing and rings of a live interface
 * through SIOCETHTOOL.  What the driver does not support goes to the note.
 */
void	context_ethtool_read(const char *ifname, struct gb_context *);

/*
 * context_json.c: the JSON object of ctx (null when ctx->has is 0; NULL
 * only when memory runs out) and its exact inverse, which checks every
 * member's presence, type and range, as a peer may send anything: -1 with
 * a message naming the member, as "context.coalesce.rx_usecs is not an
 * integer"; "" is taken as unknown.  A JSON null gives has = 0 (and 0);
 * a NULL pointer is "context is missing".  Unknown members are ignored.
 */
json_t	*context_json(const struct gb_context *);
int	 context_from_json(const json_t *, struct gb_context *, char *err,
	    size_t errlen);

/*
 * context_text.c: three lines (four with a note) for -v, each starting
 * with prefix ("gigebench-t:"); ifname names the interface (NULL or ""
 * when none), as struct gb_context does not.  "n/a" stands for an
 * unknown value; a context that was not read (has = 0) is one line.
 */
void	context_text(FILE *, const struct gb_context *, const char *ifname,
	    const char *prefix);

#endif /* GB_CONTEXT_H */
