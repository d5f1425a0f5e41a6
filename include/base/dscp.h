/*
 * dscp.h: the names of Differentiated Services code points (EF, CS5,
 * AF41, ...), for --tos now and --probe-tos later.  Pure.
 */
#ifndef GB_DSCP_H
#define GB_DSCP_H

/* The DSCP is the top six bits of the TOS byte; ECN has the low two. */
#define DSCP_TOS_SHIFT	2
#define DSCP_MAX	63

/*
 * The code point a name stands for, 0-63, in any case ("ef", "Af41"), or
 * -1 when it names none: the names are CS0-CS7, AF11-AF43, EF, VA and LE,
 * nothing around them.
 */
int		 dscp_parse(const char *name);
/* The name of a code point in the table, upper case, or NULL. */
const char	*dscp_name(unsigned dscp);

#endif /* GB_DSCP_H */
