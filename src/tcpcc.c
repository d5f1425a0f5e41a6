/*
 * tcpcc.c: reads which congestion controls the kernel has (host/tcpcc.h).
 * It only reads /proc; deciding what a missing one means is the caller's.
 */
#include <stdio.h>
#include <string.h>

#include "host/tcpcc.h"

int
tcpcc_available(const char *procfs, char *avail, size_t len)
{
	char path[512];
	FILE *fp;

	snprintf(path, sizeof(path), "%s/sys/net/ipv4/"
	    "tcp_available_congestion_control", procfs);
	if ((fp = fopen(path, "r")) == NULL)
		return -1;
	if (fgets(avail, (int)len, fp) == NULL)
		avail[0] = '\0';
	fclose(fp);
	avail[strcspn(avail, "\n")] = '\0';
	return 0;
}

int
tcpcc_listed(const char *avail, const char *cc)
{
	char copy[512], *tok, *save;
	int found = 0;

	snprintf(copy, sizeof(copy), "%s", avail);
	for (tok = strtok_r(copy, " ", &save); tok != NULL;
	    tok = strtok_r(NULL, " ", &save))
		if (strcmp(tok, cc) == 0)
			found = 1;
	return found;
}
