/*
 * merge_opts.h: the command line of gigebench merge, which puts many
 * --json results of a fleet's mesh test into one matrix (base/mesh.h):
 *
 *	gigebench merge [-f unit] [--by how] [--csv file] [--figure name]
 *	    [--outlier factor] [--plot file] file ...
 *
 * Pure: fills struct merge_opts and returns, with a message that names
 * the option and the value; main.c decides.
 */
#ifndef GB_MERGE_OPTS_H
#define GB_MERGE_OPTS_H

#include <stddef.h>
#include <stdio.h>

#include "cli/opts.h"
#include "codec/mesh_json.h"

struct merge_opts {
	char		  unit;		/* -f: k m g K M G */
	int		  figure;	/* --figure: enum mesh_fig */
	double		  factor;	/* --outlier */
	enum mesh_by	  by;		/* --by */
	const char	 *csv_path;	/* --csv, or NULL */
	const char	 *plot_path;	/* --plot, or NULL */
	char *const	 *files;	/* into argv */
	int		  nfiles;
};

/*
 * Is this command line "gigebench merge ..."?  The first word after the
 * program's name is "merge" (and the program is not started as ttcp).
 */
int	merge_wanted(int argc, char *const argv[]);
/*
 * argv[0] is "merge".  OPTS_OK, OPTS_HELP, or OPTS_ERROR with the reason
 * in err.
 */
int	merge_opts_parse(int argc, char *argv[], struct merge_opts *,
	    char *err, size_t errlen);
void	merge_opts_usage(FILE *);

#endif /* GB_MERGE_OPTS_H */
