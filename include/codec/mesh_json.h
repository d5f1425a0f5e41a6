/*
 * mesh_json.h: gigebench merge's reader: the runs of gigebench --json
 * documents (one test, or a sweep's or --repeat's "runs"), each as the
 * sender, the receiver, the rate, the figures and the diagnosis that
 * base/mesh.h builds its matrix from.  --rr and --crr documents are
 * refused; a --bidir test gives both directions (result and
 * result.reverse).  Errors name the missing member and go into the
 * caller's buffer, without the file's name (the caller adds it).
 *
 * The files come from other hosts and are read as hostile: the bounds
 * below hold before jansson sees the text, every number merge uses is
 * refused when it is not finite, negative or past its bound (the error
 * names the member: "result.mbps is negative: -5"), and every string
 * kept (host names, addresses, errors, diagnosis) is escaped with
 * base/safetext.h as it is read, so no renderer ever gets a control
 * byte.
 */
#ifndef GB_MESH_JSON_H
#define GB_MESH_JSON_H

#include <stddef.h>

#include "base/mesh.h"

enum mesh_by {
	MESH_BY_HOSTNAME,	/* hostnames, else addresses */
	MESH_BY_ADDRESS		/* the control connection's addresses */
};

/*
 * Files larger than this are not a gigebench result.  A sweep's or
 * --repeat's document keeps no -i intervals (sweeprun.c drops them): a
 * run is about 8 KB at -P 1 and 50 KB at -P 128, so a 100-run sweep is
 * 1 to 5 MB; the largest single test, 4096 -i slices of about 1 KB
 * with --bidir, is about 8 MB.  64 MiB leaves room for a sweep of
 * thousands of runs and keeps a hostile file from filling the memory.
 */
#define MESH_JSON_MAX_BYTES	(64u << 20)
/*
 * Nesting: a gigebench document is 7 levels deep (runs, a run, result,
 * reverse, sender, context, offloads).  jansson itself recurses to 2048
 * and has no option for less; the text is scanned before it parses.
 */
#define MESH_JSON_MAX_DEPTH	64
/*
 * Values and containers (objects and arrays) in one file.  A real
 * document has a value every 26-30 bytes and a container every 200-300:
 * 64 MiB of it is about 2.5 million values and 300,000 containers.
 * jansson spends about 40 bytes on a number and 220 on an empty object,
 * so 64 MiB of "0," or "{}," would take 1.2 to 5 GB; these bounds keep
 * it near 300 MB and 220 MB.  Every document is an object, so they bound
 * the documents of a file too.
 */
#define MESH_JSON_MAX_VALUES	(8u << 20)
#define MESH_JSON_MAX_CONTAINERS	(1u << 20)

/*
 * The runs of text (one JSON document, or several one after the other,
 * as a failed sweep prints) appended to runs, each with origin name or
 * "name run N".  0, or -1 with the reason in err and runs as they were.
 */
int	mesh_json_parse(const char *text, size_t len, const char *name,
	    enum mesh_by, struct mesh_runs *, char *err, size_t errlen);
/* The same from the file at path ("-": standard input). */
int	mesh_json_read(const char *path, enum mesh_by, struct mesh_runs *,
	    char *err, size_t errlen);
/*
 * The address of "addr:port" or "[v6]:port" into buf ("" when there is
 * none); its port into *port when port is not NULL (0: none).
 */
const char *mesh_json_addr(const char *end, char *buf, size_t len,
	    unsigned *port);

#endif /* GB_MESH_JSON_H */
