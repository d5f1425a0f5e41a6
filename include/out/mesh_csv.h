/*
 * mesh_csv.h: gigebench merge --csv FILE: the matrix in long form, one
 * row per ordered pair of the hosts seen, RFC 4180 as out/csv.h:
 *
 *	sender,receiver,runs,failed,RATE,FIGURE,outlier,why
 *
 * RATE is named by the -f unit (mbps, gbps, kbps, kbytes_per_s,
 * mbytes_per_s, gbytes_per_s), FIGURE by --figure with '_' for '-'
 * (cpu_rx).  A value the pair has not got is an empty field; why is
 * always quoted: an outlier's explanation, or why a pair has no rate.
 * sender, receiver and why are text, written by out/csv.h's csv_cell
 * (quoted as RFC 4180 says, defused when they start like a formula); the
 * others are numbers.
 */
#ifndef GB_MESH_CSV_H
#define GB_MESH_CSV_H

#include <stdio.h>

#include "base/mesh.h"

/* The rate column's name for a -f letter: "mbps". */
const char	*mesh_csv_rate_column(char unit);
void		 mesh_csv(FILE *, const struct mesh *, char unit, int figure);

#endif /* GB_MESH_CSV_H */
