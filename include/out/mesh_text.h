/*
 * mesh_text.h: gigebench merge's report on stdout: a title line, the
 * rate matrix (rows send, columns receive), the median, the --figure
 * matrix of the same runs, the outliers with what explains them, and the
 * pairs with no result.  Only formats the matrix of base/mesh.h.
 */
#ifndef GB_MESH_TEXT_H
#define GB_MESH_TEXT_H

#include <stdio.h>

#include "base/mesh.h"

struct mesh_style {
	char		unit;		/* -f letter: k m g K M G */
	int		figure;		/* enum mesh_fig < MESH_NFIGURES */
	unsigned	nfiles;		/* how many files the runs came from */
};

void		 mesh_text(FILE *, const struct mesh *,
		    const struct mesh_style *);
/* A rate in the unit's matrix precision: "941.2", "0.941" (g, G). */
const char	*mesh_text_rate(double mbps, char unit, char *buf,
		    size_t len);
/* A figure as its matrix shows it, "-" when unknown. */
const char	*mesh_text_figure(double v, int fig, char *buf, size_t len);

#endif /* GB_MESH_TEXT_H */
