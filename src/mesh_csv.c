/*
 * mesh_csv.c: gigebench merge --csv (out/mesh_csv.h).  The CSV habits of
 * csv.c: CRLF records, reals as "%.9g", an empty field for what was not
 * measured, never 0.  The columns are a contract (the man page lists
 * them): add at the end, never reorder.
 *
 * The text columns are sender, receiver and why, and they go through
 * csv_cell (out/csv.h), as csv.c's do: the host names come from --json
 * files of other hosts, so a cell that starts like a formula is defused
 * and a comma, quote, CR or LF is quoted.  runs, failed, the rate, the
 * figure and outlier are numbers, printed as they are.
 *
 * Only formats: the FILE is the one side effect.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "base/units.h"
#include "out/csv.h"
#include "out/mesh_csv.h"

#define MESH_CSV_EOL	"\r\n"

static const struct {
	char		 letter;
	const char	*column;
} mesh_csv_units[] = {
	{ 'k', "kbps" }, { 'm', "mbps" }, { 'g', "gbps" },
	{ 'K', "kbytes_per_s" }, { 'M', "mbytes_per_s" },
	{ 'G', "gbytes_per_s" },
};

const char *
mesh_csv_rate_column(char unit)
{
	size_t	i;

	for (i = 0; i < sizeof(mesh_csv_units) / sizeof(mesh_csv_units[0]);
	    i++)
		if (mesh_csv_units[i].letter == unit)
			return mesh_csv_units[i].column;
	return "mbps";
}

static void
mesh_csv_real(FILE *f, double v)
{
	if (isfinite(v))
		fprintf(f, "%.9g", v);
}

/* Why a pair has no rate: "no result", "all 2 runs failed: ...". */
static void
mesh_csv_why_missing(FILE *f, const struct mesh *m, unsigned s, unsigned d)
{
	const struct mesh_pair	*p = MESH_PAIR(m, s, d);
	const struct mesh_run	*r;
	const char		*error = NULL;
	char			 buf[1024];
	size_t			 i;

	for (i = 0; i < m->runs->n && error == NULL; i++) {
		r = &m->runs->v[i];
		if (r->failed && r->error != NULL && r->sender != NULL &&
		    strcmp(r->sender, m->hosts[s]) == 0 &&
		    strcmp(r->receiver, m->hosts[d]) == 0)
			error = r->error;
	}
	if (p->runs == 0)
		snprintf(buf, sizeof(buf), "no result");
	else
		snprintf(buf, sizeof(buf), "%s %u run%s failed%s%s",
		    p->runs == 1 ? "its" : "all", p->runs,
		    p->runs == 1 ? "" : "s", error != NULL ? ": " : "",
		    error != NULL ? error : "");
	csv_cell(f, buf, CSV_QUOTE_ALWAYS);
}

static void
mesh_csv_row(FILE *f, const struct mesh *m, unsigned s, unsigned d,
    char unit, int figure)
{
	const struct mesh_pair	*p = MESH_PAIR(m, s, d);

	csv_cell(f, m->hosts[s], CSV_QUOTE_NEEDED);
	fputc(',', f);
	csv_cell(f, m->hosts[d], CSV_QUOTE_NEEDED);
	fprintf(f, ",%u,%u,", p->runs, p->failed);
	if (p->best != NULL)
		mesh_csv_real(f, units_rate(p->best->mbps * 1e6, unit, NULL));
	fputc(',', f);
	if (p->best != NULL)
		mesh_csv_real(f, p->best->fig[figure]);
	fprintf(f, ",%d,", p->outlier);
	if (p->best == NULL)
		mesh_csv_why_missing(f, m, s, d);
	else
		csv_cell(f, p->why, CSV_QUOTE_ALWAYS);
	fputs(MESH_CSV_EOL, f);
}

void
mesh_csv(FILE *f, const struct mesh *m, char unit, int figure)
{
	const char	*fig = mesh_figure_name(figure);
	unsigned	 s, d;

	fprintf(f, "sender,receiver,runs,failed,%s,",
	    mesh_csv_rate_column(unit));
	for (; *fig != '\0'; fig++)
		fputc(*fig == '-' ? '_' : *fig, f);
	fputs(",outlier,why" MESH_CSV_EOL, f);
	for (s = 0; s < m->nhosts; s++)
		for (d = 0; d < m->nhosts; d++)
			if (s != d)
				mesh_csv_row(f, m, s, d, unit, figure);
}
