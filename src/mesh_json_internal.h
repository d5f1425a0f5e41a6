/*
 * mesh_json_internal.h: shared by the two files of gigebench merge's
 * reader (codec/mesh_json.h): mesh_json.c, which reads the runs out of
 * the documents, and mesh_json_check.c, which holds what a file from
 * another host may say: the bounds on the text before jansson parses
 * it, the ranges of the numbers merge uses, and the escaping of the
 * strings it keeps.  Nothing outside src/mesh_json*.c includes it.
 */
#ifndef GB_MESH_JSON_INTERNAL_H
#define GB_MESH_JSON_INTERNAL_H

#include <stddef.h>

#include <jansson.h>

#include "base/mesh.h"
#include "codec/mesh_json.h"

/* One document's context for its runs. */
struct mesh_doc {
	const char		*name;		/* the file's, escaped */
	enum mesh_by		 by;
	struct mesh_runs	*runs;
	size_t			 first;		/* its first run in runs */
	char			*err;
	size_t			 errlen;
};

/* The reason into d->err; returns -1. */
int		 mesh_json_error(const struct mesh_doc *, const char *, ...)
		    __attribute__((format(printf, 2, 3)));
/* The member at a dotted path ("sender.host_cpu.busy_pct"), or NULL. */
json_t		*mesh_json_at(json_t *, const char *path);
/* A number at path, NAN when it is missing or not a number. */
double		 mesh_json_num(json_t *, const char *path);
/* A string at path, raw (not escaped): NULL when missing or empty. */
const char	*mesh_json_str(json_t *, const char *path);

/*
 * mesh_json_check.c.  Before parsing: nesting at most
 * MESH_JSON_MAX_DEPTH, at most MESH_JSON_MAX_VALUES values and
 * MESH_JSON_MAX_CONTAINERS objects and arrays in the whole text.
 */
int	 mesh_json_scan(const struct mesh_doc *, const char *text,
	    size_t len);
/*
 * The figures of one direction's result res (what: "result" or
 * "result.reverse", for messages) into r->fig, each NAN when missing;
 * -1 naming the member when one is not finite, negative or past its
 * bound.  The rate into *mbps likewise; a missing rate is an error.
 */
int	 mesh_json_rate(const struct mesh_doc *, json_t *res, const char *what,
	    double *mbps);
int	 mesh_json_figures_read(const struct mesh_doc *, json_t *res,
	    const char *what, struct mesh_run *r);
/* result.port into *port: 0 when missing; -1 when not a port. */
int	 mesh_json_port(const struct mesh_doc *, json_t *doc, unsigned *port);
/*
 * The string at path escaped (base/safetext.h) into buf, cut to fit:
 * buf, or NULL (and buf "") when missing or empty.
 */
const char *mesh_json_text(json_t *, const char *path, char *buf,
	    size_t len);
/* The same for a string of its own: NULL when out of memory. */
char	*mesh_json_strdup(const char *s);

#endif /* GB_MESH_JSON_INTERNAL_H */
