/*
 * ttcp_opts.h: the classic ttcp command line (--ttcp, or gigebench
 * started as "ttcp"): the BRL/SGI letters with their meanings and
 * defaults, checked as gigebench checks its own, and the few long
 * options the mode adds (--json, --silent-timeout, --max-duration).
 * Pure: it fills struct ttcp_cfg and returns; main.c decides.
 */
#ifndef GB_TTCP_OPTS_H
#define GB_TTCP_OPTS_H

#include <stdio.h>
#include <stddef.h>

#include "base/ttcp.h"
#include "cli/opts.h"

/*
 * Is this command line one for the classic tool: argv[0]'s base name is
 * "ttcp", or --ttcp is one of its words (before a "--")?
 */
int	ttcp_wanted(int argc, char *const argv[]);
/* OPTS_OK, OPTS_HELP, or OPTS_ERROR with the reason in err. */
int	ttcp_opts_parse(int argc, char *argv[], struct ttcp_cfg *,
	    char *err, size_t errlen);
void	ttcp_opts_usage(FILE *);

#endif /* GB_TTCP_OPTS_H */
