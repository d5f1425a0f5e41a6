/*
 * mesh.h: gigebench merge: the runs of a fleet's mesh test (every ordered
 * pair of hosts) gathered into one matrix of senders by receivers: each
 * pair's best run, the median of the pairs' rates, the outliers below
 * median / factor and, for each outlier, what explains it (its run's
 * diagnosis, the pattern across the matrix, the figures that rule CPU
 * and window out).  Pure: no I/O; the runs come from codec/mesh_json.h,
 * the renderers are out/mesh_text.h, out/mesh_csv.h and out/plot.h.
 */
#ifndef GB_MESH_H
#define GB_MESH_H

#include <stddef.h>

#define MESH_FACTOR_MIN		1.01
#define MESH_FACTOR_MAX		1000.0
#define MESH_FACTOR_DEFAULT	1.5
#define MESH_CODE_LEN		32	/* a diagnosis code, "cpu_bound" */
#define MESH_SIDE_LEN		16	/* "sender", "receiver", "path" */
#define MESH_MAX_HOSTS		1024u
/*
 * Runs in all the files of one merge: every ordered pair of the largest
 * mesh (MESH_MAX_HOSTS hosts) once.  A run takes about 250 bytes with
 * its strings, so the list stays under 300 MB whatever the files say.
 */
#define MESH_MAX_RUNS		(1u << 20)

/*
 * The figures of one run: the first MESH_NFIGURES can be the second
 * matrix (--figure), the rest only explain.  NAN: not in the JSON.
 */
enum mesh_fig {
	MESH_CPU_TX,		/* sender's host CPU busy % */
	MESH_CPU_RX,
	MESH_PROC_TX,		/* sender's process CPU % */
	MESH_PROC_RX,
	MESH_IRQ_TX,		/* sender's interrupts per packet */
	MESH_IRQ_RX,
	MESH_RETRANS,		/* sender's TCP retransmits */
	MESH_RTT,		/* sender's smoothed RTT, us */
	MESH_NFIGURES,
	MESH_BUSIEST_TX = MESH_NFIGURES,	/* busiest CPU's busy % */
	MESH_BUSIEST_RX,
	MESH_NVALUES
};

/* One entry of result.diagnosis[]. */
struct mesh_diag {
	char	 code[MESH_CODE_LEN];
	char	 side[MESH_SIDE_LEN];
	char	*text;
};

/*
 * One test of one direction.  sender and receiver are NULL for a failed
 * run whose document names no hosts.  The strings are the run's own
 * (mesh_run_clear frees them).
 */
struct mesh_run {
	char			*sender, *receiver;
	char			*origin;	/* "FILE" or "FILE run N" */
	int			 failed;
	char			*error;		/* failed: why, or NULL */
	double			 mbps;
	double			 fig[MESH_NVALUES];
	struct mesh_diag	*diag;
	unsigned		 ndiag;
};

struct mesh_runs {
	struct mesh_run	*v;
	size_t		 n, cap;
};

/* A run with every figure unknown and nothing allocated. */
void	mesh_run_init(struct mesh_run *);
void	mesh_run_clear(struct mesh_run *);
/*
 * Append r, whose strings the list then owns (r is zeroed).  0, or -1
 * when out of memory (r cleared).
 */
int	mesh_runs_add(struct mesh_runs *, struct mesh_run *r);
void	mesh_runs_free(struct mesh_runs *);

/* --figure NAME ("cpu-rx") to its index; -1 for an unknown name. */
int		 mesh_figure_parse(const char *name);
const char	*mesh_figure_name(int fig);
/* "receiver's host CPU %", for titles. */
const char	*mesh_figure_title(int fig);
/* The names, comma separated, for messages: "cpu-tx, cpu-rx, ...". */
const char	*mesh_figure_list(void);

/* One ordered pair of the matrix. */
struct mesh_pair {
	unsigned		 runs;		/* all, failed included */
	unsigned		 failed;
	const struct mesh_run	*best;		/* highest rate, or NULL */
	int			 outlier;
	char			*why;		/* outliers: "; "-joined */
};

struct mesh {
	char			**hosts;	/* sorted, unique */
	unsigned		  nhosts;
	struct mesh_pair	 *pairs;	/* [sender * nhosts + receiver] */
	unsigned		  nrated;	/* pairs with a rate */
	unsigned		  noutliers;
	unsigned		  nmissing;	/* pairs without a rate */
	unsigned		  nanon;	/* failed runs naming no hosts */
	size_t			  nruns;
	double			  median_mbps;	/* 0 when nothing is rated */
	double			  factor;
	double			  threshold_mbps;
	const struct mesh_runs	 *runs;		/* the caller's */
};

#define MESH_PAIR(m, s, r)	(&(m)->pairs[(size_t)(s) * (m)->nhosts + (r)])

/*
 * Build the matrix of runs (which must outlive it) with outliers below
 * median / factor, and explain them.  0, or -1 with the reason in err.
 */
int	mesh_build(struct mesh *, const struct mesh_runs *, double factor,
	    char *err, size_t errlen);
void	mesh_free(struct mesh *);
/* The median of n values (sorted in place); 0 for none. */
double	mesh_median(double *v, size_t n);

/* mesh_explain.c: pair->why for every outlier; 0, or -1 out of memory. */
int	mesh_explain(struct mesh *);

#endif /* GB_MESH_H */
