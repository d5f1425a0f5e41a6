/*
 * mesh_text.c: gigebench merge's text report (out/mesh_text.h).
 *
 * The matrices put the senders down the side and the receivers across
 * the top, both sorted by name, so that a row is what one host sent and
 * a column what one host received: a slow row is a slow sender, a slow
 * column a slow receiver.  A cell is the best run of its pair; "-" on
 * the diagonal and for a figure the JSON did not have, "?" for a pair
 * with no result, a trailing "*" for an outlier.  Every column is as
 * wide as its widest cell or name, so the text lines up in a terminal
 * and in a mail.
 *
 * Only formats: the FILE is the one side effect.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/mesh.h"
#include "base/units.h"
#include "out/mesh_text.h"

#define MESH_CELL_LEN	32
#define MESH_LIST_MAX	8	/* pairs named on the runs line */

const char *
mesh_text_rate(double mbps, char unit, char *buf, size_t len)
{
	snprintf(buf, len, unit == 'g' || unit == 'G' ? "%.3f" : "%.1f",
	    units_rate(mbps * 1e6, unit, NULL));
	return buf;
}

const char *
mesh_text_figure(double v, int fig, char *buf, size_t len)
{
	if (!isfinite(v))
		snprintf(buf, len, "-");
	else if (fig == MESH_IRQ_TX || fig == MESH_IRQ_RX)
		snprintf(buf, len, "%.2f", v);
	else if (fig == MESH_RETRANS || fig == MESH_RTT)
		snprintf(buf, len, "%.0f", v);
	else
		snprintf(buf, len, "%.1f", v);
	return buf;
}

/*
 * The text of the cell of sender s, receiver d: the rate, or with figure
 * set the chosen figure; *mark: '*' (an outlier) or ' '.
 */
static const char *
mesh_cell(const struct mesh *m, unsigned s, unsigned d,
    const struct mesh_style *st, int figure, char *buf, size_t len,
    char *mark)
{
	const struct mesh_pair	*p = MESH_PAIR(m, s, d);

	*mark = p->outlier ? '*' : ' ';
	if (s == d)
		return "-";
	if (p->best == NULL)
		return "?";
	if (figure)
		return mesh_text_figure(p->best->fig[st->figure], st->figure,
		    buf, len);
	return mesh_text_rate(p->best->mbps, st->unit, buf, len);
}

static void
mesh_text_matrix(FILE *f, const struct mesh *m, const char *corner,
    int figure, const struct mesh_style *st)
{
	char		 buf[MESH_CELL_LEN], mark;
	const char	*text;
	size_t		 side = strlen(corner), w = 0, n;
	unsigned	 s, d;

	for (s = 0; s < m->nhosts; s++) {
		if ((n = strlen(m->hosts[s])) > side)
			side = n;
		if (n > w)
			w = n;
		for (d = 0; d < m->nhosts; d++)
			if ((n = strlen(mesh_cell(m, s, d, st, figure, buf,
			    sizeof(buf), &mark))) > w)
				w = n;
	}
	fprintf(f, "%-*s", (int)side, corner);
	for (d = 0; d < m->nhosts; d++)
		fprintf(f, "  %*s%s", (int)w, m->hosts[d],
		    d + 1 < m->nhosts ? " " : "");
	fputc('\n', f);
	for (s = 0; s < m->nhosts; s++) {
		fprintf(f, "%-*s", (int)side, m->hosts[s]);
		for (d = 0; d < m->nhosts; d++) {
			text = mesh_cell(m, s, d, st, figure, buf, sizeof(buf),
			    &mark);
			fprintf(f, "  %*s", (int)w, text);
			/* no blank at the end of a line */
			if (mark != ' ' || d + 1 < m->nhosts)
				fputc(mark, f);
		}
		fputc('\n', f);
	}
}

static int
mesh_cmp_uint(const void *a, const void *b)
{
	unsigned	x = *(const unsigned *)a, y = *(const unsigned *)b;

	return x < y ? -1 : x > y;
}

/* The most common number of runs of the pairs that had any; 0: none. */
static unsigned
mesh_text_mode(const struct mesh *m)
{
	unsigned	*v, mode = 0, best = 0, run = 0;
	size_t		 i, n = 0;

	if ((v = calloc((size_t)m->nhosts * m->nhosts + 1, sizeof(*v))) ==
	    NULL)
		return 0;
	for (i = 0; i < (size_t)m->nhosts * m->nhosts; i++)
		if (m->pairs[i].runs > 0)
			v[n++] = m->pairs[i].runs;
	qsort(v, n, sizeof(*v), mesh_cmp_uint);
	for (i = 0; i < n; i++) {
		run = i > 0 && v[i] == v[i - 1] ? run + 1 : 1;
		if (run > best) {
			best = run;
			mode = v[i];
		}
	}
	free(v);
	return mode;
}

/* The runs each pair had: the usual count, and the pairs that differ. */
static void
mesh_text_runs(FILE *f, const struct mesh *m)
{
	const struct mesh_pair	*p;
	unsigned		 s, d, mode = mesh_text_mode(m), listed = 0;

	fprintf(f, "runs per pair: %u", mode);
	for (s = 0; s < m->nhosts; s++)
		for (d = 0; d < m->nhosts; d++) {
			p = MESH_PAIR(m, s, d);
			if (s == d || p->runs == 0 || p->runs == mode)
				continue;
			if (listed++ < MESH_LIST_MAX)
				fprintf(f, "%s%s -> %s: %u", listed == 1 ?
				    " (" : ", ", m->hosts[s], m->hosts[d],
				    p->runs);
		}
	if (listed > MESH_LIST_MAX)
		fprintf(f, ", %u more", listed - MESH_LIST_MAX);
	fprintf(f, "%s; the best run of each is shown\n", listed > 0 ? ")" :
	    "");
}

/* "0.10", "0.0012": an outlier's rate against the median. */
static void
mesh_text_ratio(FILE *f, double mbps, double median)
{
	double	r = median > 0 ? mbps / median : 0;

	fprintf(f, r >= 0.1 || r == 0 ? "%.2f" : "%.2g", r);
}

static void
mesh_text_outliers(FILE *f, const struct mesh *m, const char *label,
    char unit)
{
	const struct mesh_pair	*p;
	char			 a[MESH_CELL_LEN], b[MESH_CELL_LEN];
	char			 c[MESH_CELL_LEN];
	unsigned		 s, d;

	fprintf(f, "outliers (below %s / %g = %s %s):%s\n",
	    mesh_text_rate(m->median_mbps, unit, a, sizeof(a)), m->factor,
	    mesh_text_rate(m->threshold_mbps, unit, b, sizeof(b)), label,
	    m->noutliers == 0 ? " none" : "");
	for (s = 0; s < m->nhosts; s++)
		for (d = 0; d < m->nhosts; d++) {
			p = MESH_PAIR(m, s, d);
			if (!p->outlier)
				continue;
			fprintf(f, "%s -> %s  %s %s (", m->hosts[s],
			    m->hosts[d], mesh_text_rate(p->best->mbps, unit,
			    c, sizeof(c)), label);
			mesh_text_ratio(f, p->best->mbps, m->median_mbps);
			fprintf(f, " of the median): %s\n",
			    p->why != NULL ? p->why : "");
		}
}

/* The first failed run's error of a pair, for the missing list. */
static const char *
mesh_text_error(const struct mesh *m, const char *s, const char *d)
{
	const struct mesh_run	*r;
	size_t			 i;

	for (i = 0; i < m->runs->n; i++) {
		r = &m->runs->v[i];
		if (r->failed && r->error != NULL && r->sender != NULL &&
		    strcmp(r->sender, s) == 0 && strcmp(r->receiver, d) == 0)
			return r->error;
	}
	return NULL;
}

static void
mesh_text_missing(FILE *f, const struct mesh *m)
{
	const struct mesh_pair	*p;
	const struct mesh_run	*r;
	const char		*why;
	unsigned		 s, d;
	size_t			 i;

	fprintf(f, "missing:%s\n", m->nmissing == 0 ? " none" : "");
	for (s = 0; s < m->nhosts; s++)
		for (d = 0; d < m->nhosts; d++) {
			p = MESH_PAIR(m, s, d);
			if (s == d || p->best != NULL)
				continue;
			fprintf(f, "%s -> %s: ", m->hosts[s], m->hosts[d]);
			if (p->runs == 0) {
				fputs("no result\n", f);
				continue;
			}
			why = mesh_text_error(m, m->hosts[s], m->hosts[d]);
			if (p->runs == 1)
				fputs("its 1 run failed", f);
			else
				fprintf(f, "all %u runs failed", p->runs);
			fprintf(f, "%s%s\n", why != NULL ? ": " : "",
			    why != NULL ? why : "");
		}
	if (m->nanon == 0)
		return;
	fprintf(f, "failed runs that name no hosts: %u\n", m->nanon);
	for (i = 0; i < m->runs->n; i++) {
		r = &m->runs->v[i];
		if (r->sender == NULL)
			fprintf(f, "%s: %s\n", r->origin != NULL ? r->origin :
			    "?", r->error != NULL ? r->error : "failed");
	}
}

void
mesh_text(FILE *f, const struct mesh *m, const struct mesh_style *st)
{
	const char	*label;
	char		 med[MESH_CELL_LEN];

	units_rate(1e6, st->unit, &label);
	fprintf(f, "gigebench merge: %u hosts, %u of %u pairs measured, "
	    "%zu runs from %u files\n", m->nhosts, m->nrated,
	    m->nhosts * (m->nhosts > 0 ? m->nhosts - 1 : 0), m->nruns,
	    st->nfiles);
	fputs("(rows send, columns receive; * outlier, ? no result, - not "
	    "measured)\n\n", f);
	mesh_text_matrix(f, m, label, 0, st);
	fprintf(f, "median %s %s of %u pairs; ", mesh_text_rate(m->median_mbps,
	    st->unit, med, sizeof(med)), label, m->nrated);
	mesh_text_runs(f, m);
	fprintf(f, "\n%s (%s)\n", mesh_figure_title(st->figure),
	    mesh_figure_name(st->figure));
	mesh_text_matrix(f, m, mesh_figure_name(st->figure), 1, st);
	fputc('\n', f);
	mesh_text_outliers(f, m, label, st->unit);
	mesh_text_missing(f, m);
}
