/*
 * mesh_json_check.c: what a file handed to gigebench merge may say
 * (mesh_json_internal.h).  The files come from other hosts, and merge
 * runs on the machine of whoever collects them: a file is read as
 * hostile.  Before jansson parses a text, its nesting and its number of
 * values are bounded (jansson recurses to 2048 levels and spends 40 to
 * 220 bytes on each value); each number merge uses is refused when it
 * is not finite, negative or past what gigebench can write; each string
 * merge keeps is escaped here (base/safetext.h), so that the text, CSV
 * and plot writers only ever get printable ASCII.
 *
 * Pure: no I/O.  The bounds are the man page's (MERGE).
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "base/safetext.h"
#include "mesh_json_internal.h"

/* 1 Pbit/s: a thousand 800G links, far past what one host moves. */
#define MESH_JSON_MAX_MBPS	1e9
/* A percentage of a host or of one CPU: busy ticks over all ticks. */
#define MESH_JSON_MAX_PCT	100.0
/*
 * A process's CPU % is of one CPU, so it reaches 100 % times the CPUs.
 * rusage and the clock are read microseconds apart at each end of the
 * test, so a process that kept every CPU busy can show a hair more:
 * 1 % is allowed for that.  Without a CPU count, 1e6 % (10,000 CPUs).
 */
#define MESH_JSON_PROC_SLACK	1.01
#define MESH_JSON_MAX_PROC_PCT	1e6
/*
 * Interrupts per packet: a day-long test (the longest -T) with one
 * packet, on a line that fires ten million times a second.
 */
#define MESH_JSON_MAX_IRQ	1e12
/* Retransmits and RTT: gigebench keeps both in 32 bits (base/result.h). */
#define MESH_JSON_MAX_U32	4294967295.0
/*
 * An escaped string kept for a run: gigebench writes a diagnosis text of
 * at most 223 bytes (4 times that escaped) and an error of at most 511,
 * already printable.  Longer ones are cut.
 */
#define MESH_JSON_TEXT_LEN	1024

/* The figures merge reads from a result, and their bounds. */
static const struct {
	int		 fig;
	const char	*member;
	double		 max;
	const char	*ncpus;		/* process CPU: the side's CPU count */
} mesh_json_bounds[] = {
	{ MESH_CPU_TX, "sender.host_cpu.busy_pct", MESH_JSON_MAX_PCT, NULL },
	{ MESH_CPU_RX, "receiver.host_cpu.busy_pct", MESH_JSON_MAX_PCT,
	    NULL },
	{ MESH_PROC_TX, "sender.cpu.process_pct", MESH_JSON_MAX_PROC_PCT,
	    "sender.host_cpu.ncpus" },
	{ MESH_PROC_RX, "receiver.cpu.process_pct", MESH_JSON_MAX_PROC_PCT,
	    "receiver.host_cpu.ncpus" },
	{ MESH_IRQ_TX, "sender.irq_per_packet", MESH_JSON_MAX_IRQ, NULL },
	{ MESH_IRQ_RX, "receiver.irq_per_packet", MESH_JSON_MAX_IRQ, NULL },
	{ MESH_RETRANS, "sender.tcp.retransmits", MESH_JSON_MAX_U32, NULL },
	{ MESH_RTT, "sender.tcp.rtt_us", MESH_JSON_MAX_U32, NULL },
	{ MESH_BUSIEST_TX, "sender.host_cpu.max_cpu_busy_pct",
	    MESH_JSON_MAX_PCT, NULL },
	{ MESH_BUSIEST_RX, "receiver.host_cpu.max_cpu_busy_pct",
	    MESH_JSON_MAX_PCT, NULL },
};

int
mesh_json_scan(const struct mesh_doc *d, const char *text, size_t len)
{
	size_t		i, values = 0, containers = 0;
	unsigned	depth = 0;
	int		line = 1, in_string = 0;

	for (i = 0; i < len; i++) {
		if (text[i] == '\n')
			line++;
		if (in_string) {
			if (text[i] == '\\') {
				/* The escaped byte: never the string's end. */
				if (i + 1 < len && text[++i] == '\n')
					line++;
			} else if (text[i] == '"')
				in_string = 0;
			continue;
		}
		switch (text[i]) {
		case '"':
			in_string = 1;
			break;
		case '{':
		case '[':
			if (++depth > MESH_JSON_MAX_DEPTH)
				return mesh_json_error(d, "nested deeper than "
				    "%d levels (line %d): not a gigebench "
				    "result", MESH_JSON_MAX_DEPTH, line);
			if (++containers > MESH_JSON_MAX_CONTAINERS)
				return mesh_json_error(d, "more than %u "
				    "objects and arrays (line %d): not a "
				    "gigebench result",
				    MESH_JSON_MAX_CONTAINERS, line);
			break;
		case ',':
			values++;
			break;
		case '}':
		case ']':
			depth -= depth > 0;
			break;
		}
		/* A container is a value; the others end at a comma. */
		if (values + containers > MESH_JSON_MAX_VALUES)
			return mesh_json_error(d, "more than %u JSON values "
			    "(line %d): not a gigebench result",
			    MESH_JSON_MAX_VALUES, line);
	}
	return 0;
}

/*
 * The number at member of res into *out (NAN when missing: jansson
 * never gives NaN); -1 when it is infinite, negative or above max.
 */
static int
mesh_json_bounded(const struct mesh_doc *d, json_t *res, const char *what,
    const char *member, double max, double *out)
{
	double	v = mesh_json_num(res, member);

	*out = v;
	if (isnan(v))
		return 0;
	if (isinf(v))
		return mesh_json_error(d, "%s.%s is not a finite number: %g",
		    what, member, v);
	if (v < 0)
		return mesh_json_error(d, "%s.%s is negative: %g", what,
		    member, v);
	if (v > max)
		return mesh_json_error(d, "%s.%s is too large: %g (at most "
		    "%g)", what, member, v, max);
	return 0;
}

int
mesh_json_rate(const struct mesh_doc *d, json_t *res, const char *what,
    double *mbps)
{
	if (mesh_json_bounded(d, res, what, "mbps", MESH_JSON_MAX_MBPS,
	    mbps) == -1)
		return -1;
	if (isnan(*mbps))
		return mesh_json_error(d, "missing %s.mbps", what);
	return 0;
}

/* A process's ceiling: 100 % of each of its side's CPUs, and the slack. */
static double
mesh_json_proc_max(json_t *res, const char *ncpus)
{
	double	n = mesh_json_num(res, ncpus);

	if (!(n >= 1))
		return MESH_JSON_MAX_PROC_PCT;
	return fmin(floor(n) * 100.0 * MESH_JSON_PROC_SLACK,
	    MESH_JSON_MAX_PROC_PCT);
}

int
mesh_json_figures_read(const struct mesh_doc *d, json_t *res,
    const char *what, struct mesh_run *r)
{
	double	max;
	size_t	i;

	for (i = 0; i < sizeof(mesh_json_bounds) / sizeof(mesh_json_bounds[0]);
	    i++) {
		max = mesh_json_bounds[i].ncpus != NULL ?
		    mesh_json_proc_max(res, mesh_json_bounds[i].ncpus) :
		    mesh_json_bounds[i].max;
		if (mesh_json_bounded(d, res, what, mesh_json_bounds[i].member,
		    max, &r->fig[mesh_json_bounds[i].fig]) == -1)
			return -1;
	}
	return 0;
}

int
mesh_json_port(const struct mesh_doc *d, json_t *doc, unsigned *port)
{
	double	v = mesh_json_num(doc, "result.port");

	*port = 0;
	if (isnan(v))
		return 0;
	/* Checked before the cast: a double past UINT_MAX has no unsigned. */
	if (!(v >= 0 && v <= 65535) || v != floor(v))
		return mesh_json_error(d, "result.port is not a port "
		    "(0-65535): %g", v);
	*port = (unsigned)v;
	return 1;
}

const char *
mesh_json_text(json_t *o, const char *path, char *buf, size_t len)
{
	const char	*s = mesh_json_str(o, path);

	if (len > 0)
		buf[0] = '\0';
	if (s == NULL)
		return NULL;
	return safetext_escape(buf, len, s);
}

char *
mesh_json_strdup(const char *s)
{
	char	buf[MESH_JSON_TEXT_LEN];

	return strdup(safetext_escape(buf, sizeof(buf), s));
}
