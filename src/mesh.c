/*
 * mesh.c: the matrix of a mesh test (base/mesh.h): the runs' lifecycle,
 * the --figure names, and mesh_build, which sorts the hosts, gives each
 * ordered pair its best run (the highest rate; failed runs only counted),
 * takes the median of the pairs' rates and flags the pairs below
 * median / factor.  mesh_explain.c says why.
 *
 * Pure: memory and the caller's structs only.  The hosts are those the
 * runs name; a pair of them with no run is missing, and listed as such
 * by the renderers, not guessed at.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/mesh.h"

static const struct {
	const char	*name;
	const char	*title;
} mesh_figures[MESH_NFIGURES] = {
	[MESH_CPU_TX] = { "cpu-tx", "sender's host CPU %" },
	[MESH_CPU_RX] = { "cpu-rx", "receiver's host CPU %" },
	[MESH_PROC_TX] = { "proc-tx", "sender's process CPU %" },
	[MESH_PROC_RX] = { "proc-rx", "receiver's process CPU %" },
	[MESH_IRQ_TX] = { "irq-tx", "sender's interrupts per packet" },
	[MESH_IRQ_RX] = { "irq-rx", "receiver's interrupts per packet" },
	[MESH_RETRANS] = { "retrans", "sender's TCP retransmits" },
	[MESH_RTT] = { "rtt", "sender's TCP RTT, us" },
};

void
mesh_run_init(struct mesh_run *r)
{
	int	i;

	memset(r, 0, sizeof(*r));
	for (i = 0; i < MESH_NVALUES; i++)
		r->fig[i] = NAN;
}

void
mesh_run_clear(struct mesh_run *r)
{
	unsigned	i;

	free(r->sender);
	free(r->receiver);
	free(r->origin);
	free(r->error);
	for (i = 0; i < r->ndiag; i++)
		free(r->diag[i].text);
	free(r->diag);
	mesh_run_init(r);
}

int
mesh_runs_add(struct mesh_runs *l, struct mesh_run *r)
{
	struct mesh_run	*v;
	size_t		 cap;

	if (l->n == l->cap) {
		cap = l->cap == 0 ? 16 : l->cap * 2;
		if ((v = realloc(l->v, cap * sizeof(*v))) == NULL) {
			mesh_run_clear(r);
			return -1;
		}
		l->v = v;
		l->cap = cap;
	}
	l->v[l->n++] = *r;
	mesh_run_init(r);
	return 0;
}

void
mesh_runs_free(struct mesh_runs *l)
{
	size_t	i;

	for (i = 0; i < l->n; i++)
		mesh_run_clear(&l->v[i]);
	free(l->v);
	memset(l, 0, sizeof(*l));
}

int
mesh_figure_parse(const char *name)
{
	int	i;

	for (i = 0; i < MESH_NFIGURES; i++)
		if (strcmp(name, mesh_figures[i].name) == 0)
			return i;
	return -1;
}

const char *
mesh_figure_name(int fig)
{
	return fig >= 0 && fig < MESH_NFIGURES ? mesh_figures[fig].name : "?";
}

const char *
mesh_figure_title(int fig)
{
	return fig >= 0 && fig < MESH_NFIGURES ? mesh_figures[fig].title :
	    "?";
}

const char *
mesh_figure_list(void)
{
	return "cpu-tx, cpu-rx, proc-tx, proc-rx, irq-tx, irq-rx, retrans, "
	    "rtt";
}

static int
mesh_cmp_double(const void *a, const void *b)
{
	double	x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

double
mesh_median(double *v, size_t n)
{
	if (n == 0)
		return 0;
	qsort(v, n, sizeof(*v), mesh_cmp_double);
	return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static int
mesh_cmp_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The index of a host in the sorted list; -1 when absent. */
static int
mesh_host_index(const struct mesh *m, const char *name)
{
	char	**p;

	p = bsearch(&name, m->hosts, m->nhosts, sizeof(*m->hosts),
	    mesh_cmp_name);
	return p != NULL ? (int)(p - m->hosts) : -1;
}

/* Every name the runs give, sorted and unique (borrowed pointers). */
static int
mesh_hosts(struct mesh *m, const struct mesh_runs *l, char *err,
    size_t errlen)
{
	size_t	i, n = 0;

	if ((m->hosts = calloc(2 * l->n + 1, sizeof(*m->hosts))) == NULL) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	for (i = 0; i < l->n; i++) {
		if (l->v[i].sender == NULL || l->v[i].receiver == NULL)
			continue;
		m->hosts[n++] = l->v[i].sender;
		m->hosts[n++] = l->v[i].receiver;
	}
	qsort(m->hosts, n, sizeof(*m->hosts), mesh_cmp_name);
	for (i = 0, m->nhosts = 0; i < n; i++)
		if (m->nhosts == 0 ||
		    strcmp(m->hosts[m->nhosts - 1], m->hosts[i]) != 0)
			m->hosts[m->nhosts++] = m->hosts[i];
	if (m->nhosts > MESH_MAX_HOSTS) {
		snprintf(err, errlen, "%u hosts: at most %u", m->nhosts,
		    MESH_MAX_HOSTS);
		return -1;
	}
	return 0;
}

/* Each run to its pair; the best run is the one with the highest rate. */
static void
mesh_assign(struct mesh *m, const struct mesh_runs *l)
{
	const struct mesh_run	*r;
	struct mesh_pair	*p;
	size_t			 i;
	int			 s, d;

	for (i = 0; i < l->n; i++) {
		r = &l->v[i];
		if (r->sender == NULL || r->receiver == NULL) {
			m->nanon++;
			continue;
		}
		s = mesh_host_index(m, r->sender);
		d = mesh_host_index(m, r->receiver);
		if (s < 0 || d < 0)
			continue;	/* cannot happen: mesh_hosts took all */
		p = MESH_PAIR(m, s, d);
		p->runs++;
		if (r->failed || !isfinite(r->mbps)) {
			p->failed++;
			continue;
		}
		if (p->best == NULL || r->mbps > p->best->mbps)
			p->best = r;
	}
}

/* The median of the pairs' rates and the outliers below it / factor. */
static int
mesh_rank(struct mesh *m, char *err, size_t errlen)
{
	struct mesh_pair	*p;
	double			*v;
	unsigned		 s, d;

	if ((v = calloc((size_t)m->nhosts * m->nhosts + 1, sizeof(*v))) ==
	    NULL) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	for (s = 0; s < m->nhosts; s++)
		for (d = 0; d < m->nhosts; d++) {
			p = MESH_PAIR(m, s, d);
			if (s == d)
				continue;
			if (p->best != NULL)
				v[m->nrated++] = p->best->mbps;
			else
				m->nmissing++;
		}
	m->median_mbps = mesh_median(v, m->nrated);
	free(v);
	m->threshold_mbps = m->median_mbps / m->factor;
	for (s = 0; s < m->nhosts; s++)
		for (d = 0; d < m->nhosts; d++) {
			p = MESH_PAIR(m, s, d);
			if (s != d && p->best != NULL &&
			    p->best->mbps < m->threshold_mbps) {
				p->outlier = 1;
				m->noutliers++;
			}
		}
	return 0;
}

int
mesh_build(struct mesh *m, const struct mesh_runs *l, double factor,
    char *err, size_t errlen)
{
	memset(m, 0, sizeof(*m));
	m->runs = l;
	m->nruns = l->n;
	m->factor = factor;
	if (!(factor >= MESH_FACTOR_MIN && factor <= MESH_FACTOR_MAX)) {
		snprintf(err, errlen, "outlier factor out of range (%g-%g): "
		    "%g", MESH_FACTOR_MIN, MESH_FACTOR_MAX, factor);
		return -1;
	}
	if (mesh_hosts(m, l, err, errlen) == -1)
		goto fail;
	if ((m->pairs = calloc((size_t)m->nhosts * m->nhosts + 1,
	    sizeof(*m->pairs))) == NULL) {
		snprintf(err, errlen, "out of memory");
		goto fail;
	}
	mesh_assign(m, l);
	if (mesh_rank(m, err, errlen) == -1)
		goto fail;
	if (mesh_explain(m) == -1) {
		snprintf(err, errlen, "out of memory");
		goto fail;
	}
	return 0;
fail:
	mesh_free(m);
	return -1;
}

void
mesh_free(struct mesh *m)
{
	size_t	i;

	if (m->pairs != NULL)
		for (i = 0; i < (size_t)m->nhosts * m->nhosts; i++)
			free(m->pairs[i].why);
	free(m->pairs);
	free(m->hosts);
	memset(m, 0, sizeof(*m));
}
