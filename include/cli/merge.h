/*
 * merge.h: gigebench merge, run: every file read (codec/mesh_json.h),
 * the matrix built (base/mesh.h), the text written to out and --csv and
 * --plot to their files.  main.c prints the error and picks the exit
 * status.
 */
#ifndef GB_MERGE_H
#define GB_MERGE_H

#include <stddef.h>
#include <stdio.h>

#include "cli/merge_opts.h"

/*
 * 0, or -1 with the reason in err, which names the file: one that cannot
 * be read or is not a gigebench throughput result, or a --csv or --plot
 * that cannot be written.
 */
int	merge_run(const struct merge_opts *, FILE *out, char *err,
	    size_t errlen);

#endif /* GB_MERGE_H */
