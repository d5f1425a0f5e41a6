/*
 * merge_opts.c: gigebench merge's command line (cli/merge_opts.h).  A
 * getopt_long table of its own, reset like the native parser's, so that
 * merge's options are not the test's and the test's are not merge's;
 * options and files may come in any order.  Every value is checked here
 * with an error in the house shape ("--outlier is out of range
 * (1.01-1000): 0.5").
 */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/mesh.h"
#include "base/units.h"
#include "cli/merge_opts.h"

enum {
	OPT_BY = 256,
	OPT_CSV,
	OPT_FIGURE,
	OPT_OUTLIER,
	OPT_PLOT,
};

static const struct option merge_long[] = {
	{ "by",		required_argument,	NULL,	OPT_BY },
	{ "csv",	required_argument,	NULL,	OPT_CSV },
	{ "figure",	required_argument,	NULL,	OPT_FIGURE },
	{ "format",	required_argument,	NULL,	'f' },
	{ "help",	no_argument,		NULL,	'h' },
	{ "outlier",	required_argument,	NULL,	OPT_OUTLIER },
	{ "plot",	required_argument,	NULL,	OPT_PLOT },
	{ NULL,		0,			NULL,	0 },
};

/* Lines stay under 80 columns; tests/completion.sh reads the options. */
static const char merge_usage_text[] =
"usage: gigebench merge [-f unit] [--by how] [--csv file] [--figure name]\n"
"           [--outlier factor] [--plot file] file ...\n"
"\n"
"Merge the --json results of a mesh test (every ordered pair of hosts)\n"
"into one matrix of senders by receivers, with the outliers explained.\n"
"\n"
"  -f, --format unit       k, m, g: 10^3, 10^6, 10^9 bit/s; K, M, G byte/s\n"
"                          (default: m)\n"
"  -h, --help              print this help and exit\n"
"      --by how            name hosts by hostname (default; their addresses\n"
"                          when a name is missing or the same at both ends)\n"
"                          or by address\n"
"      --csv file          one row per ordered pair\n"
"      --figure name       the second matrix: cpu-tx, cpu-rx (default),\n"
"                          proc-tx, proc-rx, irq-tx, irq-rx, retrans, rtt\n"
"      --outlier factor    a pair below the median / factor is an outlier,\n"
"                          1.01-1000 (default: 1.5)\n"
"      --plot file         the rate matrix as a heat map (.svg or .png)\n";

int
merge_wanted(int argc, char *const argv[])
{
	const char	*base;

	if (argc < 2 || argv[0] == NULL || strcmp(argv[1], "merge") != 0)
		return 0;
	base = strrchr(argv[0], '/');
	return strcmp(base != NULL ? base + 1 : argv[0], "ttcp") != 0;
}

void
merge_opts_usage(FILE *f)
{
	fputs(merge_usage_text, f);
}

static int
merge_factor(const char *arg, double *out, char *err, size_t errlen)
{
	char	*end;
	double	 v;

	v = strtod(arg, &end);
	if (*arg == '\0' || *end != '\0' || !isfinite(v)) {
		snprintf(err, errlen, "--outlier is not a number: %s", arg);
		return OPTS_ERROR;
	}
	if (v < MESH_FACTOR_MIN || v > MESH_FACTOR_MAX) {
		snprintf(err, errlen, "--outlier is out of range (%g-%g): %s",
		    MESH_FACTOR_MIN, MESH_FACTOR_MAX, arg);
		return OPTS_ERROR;
	}
	*out = v;
	return OPTS_OK;
}

static int
merge_value(struct merge_opts *o, int ch, const char *arg, char *err,
    size_t errlen)
{
	switch (ch) {
	case 'f':
		if (arg[0] == '\0' || arg[1] != '\0' ||
		    !units_rate_letter_ok(arg[0])) {
			snprintf(err, errlen, "unknown rate unit (k, m, g, K, "
			    "M, G): %s", arg);
			return OPTS_ERROR;
		}
		o->unit = arg[0];
		return OPTS_OK;
	case OPT_BY:
		if (strcmp(arg, "hostname") == 0)
			o->by = MESH_BY_HOSTNAME;
		else if (strcmp(arg, "address") == 0)
			o->by = MESH_BY_ADDRESS;
		else {
			snprintf(err, errlen, "--by is hostname or address: "
			    "%s", arg);
			return OPTS_ERROR;
		}
		return OPTS_OK;
	case OPT_FIGURE:
		if ((o->figure = mesh_figure_parse(arg)) < 0) {
			snprintf(err, errlen, "unknown --figure (%s): %s",
			    mesh_figure_list(), arg);
			return OPTS_ERROR;
		}
		return OPTS_OK;
	case OPT_OUTLIER:
		return merge_factor(arg, &o->factor, err, errlen);
	case OPT_CSV:
	case OPT_PLOT:
		if (*arg == '\0') {
			snprintf(err, errlen, "--%s needs a file name",
			    ch == OPT_CSV ? "csv" : "plot");
			return OPTS_ERROR;
		}
		*(ch == OPT_CSV ? &o->csv_path : &o->plot_path) = arg;
		return OPTS_OK;
	}
	return OPTS_ERROR;
}

int
merge_opts_parse(int argc, char *argv[], struct merge_opts *o, char *err,
    size_t errlen)
{
	int	ch;

	memset(o, 0, sizeof(*o));
	o->unit = 'm';
	o->figure = MESH_CPU_RX;
	o->factor = MESH_FACTOR_DEFAULT;
	o->by = MESH_BY_HOSTNAME;
	optind = 0;		/* reset getopt, also for a second parse */
	opterr = 0;
	while ((ch = getopt_long(argc, argv, ":f:h", merge_long, NULL)) !=
	    -1) {
		switch (ch) {
		case 'h':
			return OPTS_HELP;
		case ':':
			snprintf(err, errlen, "%s needs a value",
			    argv[optind - 1]);
			return OPTS_ERROR;
		case '?':
			if (optopt != 0)
				snprintf(err, errlen, "unknown option: -%c",
				    optopt);
			else
				snprintf(err, errlen, "unknown option: %s",
				    argv[optind - 1]);
			return OPTS_ERROR;
		default:
			if (merge_value(o, ch, optarg, err, errlen) ==
			    OPTS_ERROR)
				return OPTS_ERROR;
		}
	}
	if (optind >= argc) {
		snprintf(err, errlen, "no files: give the --json results "
		    "to merge");
		return OPTS_ERROR;
	}
	o->files = argv + optind;
	o->nfiles = argc - optind;
	return OPTS_OK;
}
