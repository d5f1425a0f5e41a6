/*
 * merge.c: gigebench merge (cli/merge.h).  Reads every file into one
 * list of runs, builds the matrix, and hands it to the renderers: the
 * text on out, then --csv, then --plot.  A file that is not a result
 * stops the merge before anything is written, so a matrix never leaves
 * a file out silently.  The runs and the matrix live on this function's
 * stack and are freed on every path.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "base/mesh.h"
#include "cli/merge.h"
#include "codec/mesh_json.h"
#include "out/mesh_csv.h"
#include "out/mesh_text.h"
#include "out/plot.h"

static int
merge_read(const struct merge_opts *o, struct mesh_runs *runs, char *err,
    size_t errlen)
{
	char	why[1024];
	int	i;

	for (i = 0; i < o->nfiles; i++)
		if (mesh_json_read(o->files[i], o->by, runs, why,
		    sizeof(why)) == -1) {
			snprintf(err, errlen, "%s: %s", o->files[i], why);
			return -1;
		}
	return 0;
}

static int
merge_csv(const struct merge_opts *o, const struct mesh *m, char *err,
    size_t errlen)
{
	FILE	*f;
	int	 failed;

	if (o->csv_path == NULL)
		return 0;
	if ((f = fopen(o->csv_path, "w")) == NULL) {
		snprintf(err, errlen, "--csv: cannot write %s: %s",
		    o->csv_path, strerror(errno));
		return -1;
	}
	mesh_csv(f, m, o->unit, o->figure);
	failed = ferror(f);
	if (fclose(f) == EOF || failed) {
		snprintf(err, errlen, "--csv: writing %s: %s", o->csv_path,
		    strerror(errno));
		return -1;
	}
	return 0;
}

int
merge_run(const struct merge_opts *o, FILE *out, char *err, size_t errlen)
{
	struct mesh_runs	 runs = { NULL, 0, 0 };
	struct mesh		 m;
	struct mesh_style	 st = { o->unit, o->figure,
				    (unsigned)o->nfiles };
	int			 rv = -1;

	memset(&m, 0, sizeof(m));
	if (merge_read(o, &runs, err, errlen) == -1 ||
	    mesh_build(&m, &runs, o->factor, err, errlen) == -1)
		goto out;
	mesh_text(out, &m, &st);
	if (fflush(out) == EOF || ferror(out)) {
		snprintf(err, errlen, "writing the report: %s",
		    strerror(errno));
		goto out;
	}
	if (merge_csv(o, &m, err, errlen) == -1)
		goto out;
	if (o->plot_path != NULL && plot_write_mesh(o->plot_path, &m,
	    o->unit, err, errlen) == -1)
		goto out;
	rv = 0;
out:
	mesh_free(&m);
	mesh_runs_free(&runs);
	return rv;
}
