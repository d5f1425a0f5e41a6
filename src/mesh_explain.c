/*
 * mesh_explain.c: why an outlier of the matrix (base/mesh.h) is slow, in
 * the words the run and the matrix support and no others:
 *
 *  - the pattern across the matrix: every other test from its sender is
 *    slow too (the sending side), every other test into its receiver
 *    (the receiving side), or neither end's other tests are (the path
 *    between them);
 *  - every entry of its run's diagnosis, as "SIDE CODE: TEXT";
 *  - when no entry names the CPU or the window, the figures that rule
 *    them out: both hosts' CPU, the busiest single CPU, retransmits and
 *    RTT, where the JSON had them.
 *
 * Pure: writes pair->why (a string it allocates) and nothing else.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/mesh.h"

/* How the other tests of one row or column went. */
struct mesh_line {
	unsigned	rated;		/* other pairs with a rate */
	unsigned	slow;		/* ... that are outliers */
};

static void
mesh_line_count(const struct mesh *m, unsigned s, unsigned d, int row,
    struct mesh_line *l)
{
	const struct mesh_pair	*p;
	unsigned		 i;

	memset(l, 0, sizeof(*l));
	for (i = 0; i < m->nhosts; i++) {
		if (row ? i == s || i == d : i == d || i == s)
			continue;
		p = row ? MESH_PAIR(m, s, i) : MESH_PAIR(m, i, d);
		if (p->best == NULL)
			continue;
		l->rated++;
		l->slow += p->outlier != 0;
	}
}

/* "; " between the parts of one explanation. */
static void
mesh_sep(FILE *f, int *first)
{
	if (!*first)
		fputs("; ", f);
	*first = 0;
}

static void
mesh_pattern(FILE *f, const struct mesh *m, unsigned s, unsigned d,
    int *first)
{
	const char		*tx = m->hosts[s], *rx = m->hosts[d];
	struct mesh_line	 row, col;
	int			 all_row, all_col;

	mesh_line_count(m, s, d, 1, &row);
	mesh_line_count(m, s, d, 0, &col);
	all_row = row.rated > 0 && row.slow == row.rated;
	all_col = col.rated > 0 && col.slow == col.rated;
	mesh_sep(f, first);
	if (all_row)
		fprintf(f, "every test from %s is slow (%u of %u): %s's "
		    "sending side", tx, row.slow + 1, row.rated + 1, tx);
	if (all_row && all_col)
		fputs("; ", f);
	if (all_col)
		fprintf(f, "every test into %s is slow (%u of %u): %s's "
		    "receiving side", rx, col.slow + 1, col.rated + 1, rx);
	if (all_row || all_col)
		return;
	if (row.rated == 0 && col.rated == 0)
		fprintf(f, "no other test from %s or into %s to compare", tx,
		    rx);
	else if (row.slow == 0 && col.slow == 0)
		fprintf(f, "only this pair (%s's other tests and %s's other "
		    "tests are not outliers): the path between them", tx, rx);
	else
		fprintf(f, "not one end alone (%u of %s's %u other tests and "
		    "%u of %s's %u other tests are outliers)", row.slow, tx,
		    row.rated, col.slow, rx, col.rated);
}

/* Is a diagnosis code about the CPU, or about a window? */
static int
mesh_code_cpu(const char *code)
{
	return strstr(code, "cpu") != NULL;
}

static int
mesh_code_window(const char *code)
{
	return strncmp(code, "window", 6) == 0;
}

/* ", " between the figures of one part. */
static void
mesh_figure(FILE *f, int *n, const char *fmt, double v)
{
	if (!isfinite(v))
		return;
	fputs(*n > 0 ? ", " : "", f);
	fprintf(f, fmt, v);
	(*n)++;
}

/* Neither end CPU-bound, and the TCP figures, when nothing said so. */
static void
mesh_ruled_out(FILE *f, const struct mesh_run *r, int cpu, int window,
    int *first)
{
	double	busiest = NAN;
	int	n = 0;

	if (isfinite(r->fig[MESH_BUSIEST_TX]))
		busiest = r->fig[MESH_BUSIEST_TX];
	if (isfinite(r->fig[MESH_BUSIEST_RX]) && !(busiest >=
	    r->fig[MESH_BUSIEST_RX]))
		busiest = r->fig[MESH_BUSIEST_RX];
	if (!cpu) {
		mesh_sep(f, first);
		if (isfinite(r->fig[MESH_CPU_TX]) ||
		    isfinite(r->fig[MESH_CPU_RX]) || isfinite(busiest)) {
			fputs("neither end CPU-bound (", f);
			mesh_figure(f, &n, "tx %.0f %%", r->fig[MESH_CPU_TX]);
			mesh_figure(f, &n, "rx %.0f %%", r->fig[MESH_CPU_RX]);
			mesh_figure(f, &n, "busiest CPU %.0f %%", busiest);
			fputs(")", f);
		} else
			fputs("no CPU figures", f);
		n = 1;
	}
	if (cpu && window)
		return;
	if (n == 0 && (isfinite(r->fig[MESH_RETRANS]) ||
	    isfinite(r->fig[MESH_RTT])))
		mesh_sep(f, first);
	mesh_figure(f, &n, "retransmits %.0f", r->fig[MESH_RETRANS]);
	mesh_figure(f, &n, "rtt %.0f us", r->fig[MESH_RTT]);
}

static char *
mesh_why(const struct mesh *m, unsigned s, unsigned d)
{
	const struct mesh_run	*r = MESH_PAIR(m, s, d)->best;
	char			*buf = NULL;
	size_t			 len = 0;
	unsigned		 i;
	int			 first = 1, cpu = 0, window = 0;
	FILE			*f;

	if ((f = open_memstream(&buf, &len)) == NULL)
		return NULL;
	mesh_pattern(f, m, s, d, &first);
	for (i = 0; i < r->ndiag; i++) {
		mesh_sep(f, &first);
		fprintf(f, "%s %s: %s", r->diag[i].side, r->diag[i].code,
		    r->diag[i].text != NULL ? r->diag[i].text : "");
		cpu |= mesh_code_cpu(r->diag[i].code);
		window |= mesh_code_window(r->diag[i].code);
	}
	if (!cpu || !window)
		mesh_ruled_out(f, r, cpu, window, &first);
	if (fclose(f) == EOF) {
		free(buf);
		return NULL;
	}
	return buf;
}

int
mesh_explain(struct mesh *m)
{
	struct mesh_pair	*p;
	unsigned		 s, d;

	for (s = 0; s < m->nhosts; s++)
		for (d = 0; d < m->nhosts; d++) {
			p = MESH_PAIR(m, s, d);
			if (!p->outlier)
				continue;
			if ((p->why = mesh_why(m, s, d)) == NULL)
				return -1;
		}
	return 0;
}
