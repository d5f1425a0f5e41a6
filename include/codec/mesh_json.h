/*
 * mesh_json.h: gigebench merge's reader: the runs of gigebench --json
 * documents (one test, or a sweep's or --repeat's "runs"), each as the
 * sender, the receiver, the rate, the figures and the diagnosis that
 * base/mesh.h builds its matrix from.  --rr and --crr documents are
 * refused; a --bidir test gives both directions (result and
 * result.reverse).  Errors name the missing member and go into the
 * caller's buffer, without the file's name (the caller adds it).
 */
#ifndef GB_MESH_JSON_H
#define GB_MESH_JSON_H

#include <stddef.h>

#include "base/mesh.h"

enum mesh_by {
	MESH_BY_HOSTNAME,	/* hostnames, else addresses */
	MESH_BY_ADDRESS		/* the control connection's addresses */
};

/* Files larger than this are not a gigebench result. */
#define MESH_JSON_MAX_BYTES	(256u << 20)

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
