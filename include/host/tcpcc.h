/*
 * tcpcc.h: the congestion controls this kernel offers, as
 * PROCFS/sys/net/ipv4/tcp_available_congestion_control lists them.  Read
 * under a procfs root that tests can move; nothing here sets a socket.
 */
#ifndef GB_TCPCC_H
#define GB_TCPCC_H

#include <stddef.h>

/*
 * The list's first line, without its newline ("reno cubic"), into avail;
 * "" when the file is empty.  -1 when the file cannot be opened.
 */
int	tcpcc_available(const char *procfs, char *avail, size_t len);
/* Is cc one of the space-separated names of avail?  1 or 0.  Pure. */
int	tcpcc_listed(const char *avail, const char *cc);

#endif /* GB_TCPCC_H */
