/*
 * opts.h: the command line.  opts_parse() fills struct gb_opts from argv,
 * range-checks every number and returns instead of exiting, with a message
 * that names the option and the value.  main.c decides what to do with it.
 */
#ifndef GB_OPTS_H
#define GB_OPTS_H

#include <stdio.h>
#include <stdint.h>

#include "base/bloat.h"
#include "base/bounds.h"
#include "base/params.h"
#include "base/result.h"
#include "base/sweep.h"

enum gb_role {
	GB_ROLE_LISTEN = 0,	/* -r or -S without a host */
	GB_ROLE_CONNECT = 1,	/* -t HOST or -r HOST */
	GB_ROLE_RESTORE = 2	/* --restore: put journaled MTUs back */
};

enum opts_status {
	OPTS_OK = 0,
	OPTS_ERROR = -1,	/* usage error, message in err */
	OPTS_HELP = 1,		/* -h */
	OPTS_VERSION = 2	/* -V */
};

struct gb_opts {
	int			role;		/* enum gb_role */
	const char		*host;		/* points into argv */
	uint16_t		port;		/* -p */
	const char		*bind_addr;	/* -B */
	const char		*bind_dev;	/* --bind-dev */
	uint16_t		cport;		/* --cport: data streams' */
	int			once;		/* -1 */
	int			family;		/* AF_UNSPEC, -4 AF_INET, -6 AF_INET6 */
	char			unit;		/* -f: k m g K M G */
	int			verbose;	/* -v count */
	int			quiet;		/* -q */
	int			no_progress;	/* --no-progress */
	int			json;		/* -J */
	int			json_stream;	/* --json-stream (and json) */
	const char		*iface;		/* -I */
	/* After a usage error: a ttcp habit recognised, one line, or NULL. */
	const char		*hint;
	/* A listener given options the connecting side decides, or "". */
	char			 warning[160];
	int			allow_mtu;	/* --allow-mtu (listener) */
	int			allow_reverse;	/* --allow-reverse (listener) */
	int			allow_profile;	/* --allow-profile (listener) */
	const char		*psk_file;	/* --psk, both roles */
	unsigned		repeat;		/* --repeat: runs per point */
	double			conf_level;	/* --confidence: 0.95, 0 = off */
	double			conf_width_pct;	/* ... interval width, % */
	const char		*csv_path;	/* --csv */
	const char		*plot_path;	/* --plot */
	const char		*flow_csv_path;	/* --flow-csv */
	const char		*title;		/* --title, or NULL */
	int			timestamps;	/* --timestamps */
	const char		*ts_format;	/* its strftime format */
	char			command[GB_COMMAND_LEN]; /* argv, quoted */
	struct sweep		sweep;		/* --sweep axes */
	/*
	 * --under-load: each phase an idle reference (the probes alone)
	 * and the load with its probes (params.probes, params.probe_tos).
	 */
	int			under_load;
	unsigned		nphases;
	int			phases[GB_PHASE_COUNT];	/* enum gb_phase */
	struct gb_bounds	bounds;		/* --max-*, --*-timeout */
	struct gb_params	params;
};

int	opts_parse(int argc, char **argv, struct gb_opts *,
	    char *err, size_t errlen);
void	opts_usage(FILE *);

/*
 * opts_bounds.c: one of the limit options by its long name ("max-rate"):
 * 0, or -1 with "WHAT is PROBLEM: VALUE" in why.  listener_only: 1 for
 * the options that only a listener uses.
 */
int	opts_bounds_parse(struct gb_bounds *, const char *name,
	    const char *arg, char *why, size_t len);
int	opts_bounds_listener_only(const char *name);

#endif /* GB_OPTS_H */
