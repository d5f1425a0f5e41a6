/*
 * netif.c: the test interface as sysfs and getifaddrs() show it.
 *
 * This file owns SYSFS/class/net/IF/statistics, the device's msi_irqs
 * directory, the queues directory, what kind of interface it is (device link, type, uevent),
 * the interfaces under it (its lower_ links) and the address-to-name
 * lookup.  It does not parse /proc
 * (irqstat.c does), keep samples or print.  Every interface name is
 * checked before it goes into a path, so "../" cannot walk out of the
 * sysfs root.
 */

#include <sys/types.h>
#include <sys/socket.h>
#include <sys/stat.h>

#include <net/if.h>
#include <net/if_arp.h>
#include <netinet/in.h>

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <ifaddrs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host/netif.h"

#define NETIF_PATH_MAX	4096
#define NETIF_NEST_MAX	8	/* the kernel's MAX_NEST_DEV */

static int	netif_path(char *, const char *, const char *, const char *,
		    char *, size_t);
static int	netif_counter_read(const char *, uint64_t *, char *, size_t);
static int	netif_is_virtio(const char *);
static int	netif_irq_cmp(const void *, const void *);
static int	netif_msi_dir(const char *, unsigned **, size_t *);
static int	netif_exists(const char *, const char *, const char *, int);
static void	netif_devtype_read(const char *, const char *,
		    struct netif_kind *);
static int	netif_below(const char *, const char *, const char *, int);
static int	netif_same_addr(const struct sockaddr *,
		    const struct sockaddr *);
static int	netif_in_loopnet(const struct ifaddrs *,
		    const struct sockaddr_in *);
static const struct sockaddr *netif_unmap(const struct sockaddr *,
		    struct sockaddr_in *);

/* As the kernel's dev_valid_name(). */
int
netif_name_ok(const char *ifname)
{
	const char	*p;

	if (ifname == NULL || *ifname == '\0' ||
	    strnlen(ifname, IFNAMSIZ) >= IFNAMSIZ ||
	    strcmp(ifname, ".") == 0 || strcmp(ifname, "..") == 0)
		return 0;
	for (p = ifname; *p != '\0'; p++)
		if (*p == '/' || *p == ':' || isspace((unsigned char)*p))
			return 0;
	return 1;
}

/* SYSFS/class/net/IF/REST into path (NETIF_PATH_MAX bytes). */
static int
netif_path(char *path, const char *sysfs, const char *ifname,
    const char *rest, char *err, size_t errlen)
{
	if (!netif_name_ok(ifname)) {
		snprintf(err, errlen, "invalid interface name");
		errno = EINVAL;
		return -1;
	}
	if ((size_t)snprintf(path, NETIF_PATH_MAX, "%s/class/net/%s/%s",
	    sysfs, ifname, rest) >= NETIF_PATH_MAX) {
		snprintf(err, errlen, "sysfs root is too long: %s", sysfs);
		errno = ENAMETOOLONG;
		return -1;
	}
	return 0;
}

int
netif_counter_parse(FILE *fp, uint64_t *v)
{
	unsigned long long	 ull;
	char			 buf[64], *end;

	if (fgets(buf, sizeof(buf), fp) == NULL ||
	    !isdigit((unsigned char)buf[0]))
		return -1;
	errno = 0;
	ull = strtoull(buf, &end, 10);
	if (errno != 0 || (*end != '\n' && *end != '\0'))
		return -1;
	*v = ull;
	return 0;
}

static int
netif_counter_read(const char *path, uint64_t *v, char *err, size_t errlen)
{
	FILE	*fp;
	int	 r;

	if ((fp = fopen(path, "re")) == NULL) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	if ((r = netif_counter_parse(fp, v)) == -1)
		snprintf(err, errlen, "%s: not a counter", path);
	fclose(fp);
	return r;
}

int
netif_stat_read(const char *sysfs, const char *ifname, const char *name,
    uint64_t *v, char *err, size_t errlen)
{
	char	path[NETIF_PATH_MAX], rest[64];

	if ((size_t)snprintf(rest, sizeof(rest), "statistics/%s", name) >=
	    sizeof(rest)) {
		snprintf(err, errlen, "invalid statistics name");
		errno = EINVAL;
		return -1;
	}
	if (netif_path(path, sysfs, ifname, rest, err, errlen) == -1)
		return -1;
	return netif_counter_read(path, v, err, errlen);
}

int
netif_stats_read(const char *sysfs, const char *ifname,
    struct netif_stats *st, char *err, size_t errlen)
{
	static const char *const names[] = {
		"rx_packets", "tx_packets", "rx_bytes", "tx_bytes"
	};
	uint64_t	*field[] = {
		&st->rx_packets, &st->tx_packets, &st->rx_bytes, &st->tx_bytes
	};
	size_t		 i;

	memset(st, 0, sizeof(*st));
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (netif_stat_read(sysfs, ifname, names[i], field[i], err,
		    errlen) == -1) {
			memset(st, 0, sizeof(*st));
			return -1;
		}
	}
	st->has = 1;
	return 0;
}

/* Does the modalias file at path say "virtio:..."? */
static int
netif_is_virtio(const char *path)
{
	FILE	*fp;
	char	 buf[16];
	int	 yes;

	if ((fp = fopen(path, "re")) == NULL)
		return 0;
	yes = fgets(buf, sizeof(buf), fp) != NULL &&
	    strncmp(buf, "virtio:", 7) == 0;
	fclose(fp);
	return yes;
}

static int
netif_irq_cmp(const void *a, const void *b)
{
	unsigned	x = *(const unsigned *)a, y = *(const unsigned *)b;

	return x < y ? -1 : x > y;
}

/* The numeric names in one directory, sorted.  -1 with errno. */
static int
netif_msi_dir(const char *path, unsigned **irqs, size_t *nirqs)
{
	DIR		*dir;
	struct dirent	*de;
	unsigned	*v = NULL, *nv;
	unsigned long	 n;
	size_t		 cnt = 0, cap = 0;
	char		*end;

	if ((dir = opendir(path)) == NULL)
		return -1;
	while ((de = readdir(dir)) != NULL && cnt < NETIF_MAX_IRQS) {
		if (!isdigit((unsigned char)de->d_name[0]))
			continue;	/* ".", ".." */
		errno = 0;
		n = strtoul(de->d_name, &end, 10);
		if (*end != '\0' || errno != 0 || n > UINT32_MAX)
			continue;
		if (cnt == cap) {
			cap = cap == 0 ? 16 : cap * 2;
			if ((nv = reallocarray(v, cap, sizeof(*v))) == NULL) {
				free(v);
				closedir(dir);
				errno = ENOMEM;
				return -1;
			}
			v = nv;
		}
		v[cnt++] = (unsigned)n;
	}
	closedir(dir);
	if (cnt > 0)
		qsort(v, cnt, sizeof(*v), netif_irq_cmp);
	*irqs = v;
	*nirqs = cnt;
	return 0;
}

/*
 * A PCI NIC lists its vectors in device/msi_irqs.  A virtio NIC's device
 * is the virtio device, and the vectors ("virtio2-input.0", which do not
 * name the interface) belong to the PCI function one level up, which
 * drives nothing else.  Other parents (a PCIe port above a legacy NIC)
 * own vectors of their own, so only virtio looks up.
 */
int
netif_msi_irqs_read(const char *sysfs, const char *ifname, unsigned **irqs,
    size_t *nirqs, char *err, size_t errlen)
{
	char	path[NETIF_PATH_MAX];
	int	saved;

	*irqs = NULL;
	*nirqs = 0;
	if (netif_path(path, sysfs, ifname, "device/msi_irqs", err,
	    errlen) == -1)
		return -1;
	if (netif_msi_dir(path, irqs, nirqs) == 0)
		return 0;
	saved = errno;
	if (saved == ENOENT &&
	    netif_path(path, sysfs, ifname, "device/modalias", err,
	    errlen) == 0 && netif_is_virtio(path) &&
	    netif_path(path, sysfs, ifname, "device/../msi_irqs", err,
	    errlen) == 0 && netif_msi_dir(path, irqs, nirqs) == 0)
		return 0;
	if (errno == ENOMEM)
		saved = ENOMEM;
	snprintf(err, errlen, "%s: no MSI vectors: %s", ifname,
	    strerror(saved));
	errno = saved;
	return -1;
}

int
netif_uevent_parse(FILE *fp, char *devtype, size_t len)
{
	char		 line[256], *v;
	size_t		 n, i;
	int		 at_start = 1, start;

	if (len == 0)
		return -1;
	devtype[0] = '\0';
	while (fgets(line, sizeof(line), fp) != NULL) {
		start = at_start;	/* a long line's rest is no key */
		n = strlen(line);
		at_start = n > 0 && line[n - 1] == '\n';
		if (!start || strncmp(line, "DEVTYPE=", 8) != 0)
			continue;
		v = line + 8;
		if ((n = strcspn(v, "\n")) == 0 || n >= len ||
		    (!at_start && !feof(fp)))
			return -1;
		for (i = 0; i < n; i++)
			if (!isalnum((unsigned char)v[i]) && v[i] != '_' &&
			    v[i] != '-' && v[i] != '.')
				return -1;
		memcpy(devtype, v, n);
		devtype[n] = '\0';
		return 0;
	}
	return -1;
}

int
netif_queue_kind(const char *name)
{
	const char	*p;

	if ((strncmp(name, "rx-", 3) != 0 && strncmp(name, "tx-", 3) != 0) ||
	    name[3] == '\0')
		return 0;
	for (p = name + 3; *p != '\0'; p++)
		if (!isdigit((unsigned char)*p))
			return 0;
	return name[0] == 'r' ? 'r' : 't';
}

int
netif_queues_read(const char *sysfs, const char *ifname,
    struct netif_queues *q, char *err, size_t errlen)
{
	DIR		*dir;
	struct dirent	*de;
	char		 path[NETIF_PATH_MAX];
	int		 saved;

	memset(q, 0, sizeof(*q));
	if (netif_path(path, sysfs, ifname, "queues", err, errlen) == -1)
		return -1;
	if ((dir = opendir(path)) == NULL) {
		saved = errno;
		snprintf(err, errlen, "%s: %s", path, strerror(saved));
		errno = saved;
		return -1;
	}
	/* The kernel has at most 4096 of each; the cap only stops a wrap. */
	while ((de = readdir(dir)) != NULL) {
		switch (netif_queue_kind(de->d_name)) {
		case 'r':
			q->rx += q->rx < UINT32_MAX;
			break;
		case 't':
			q->tx += q->tx < UINT32_MAX;
			break;
		}
	}
	closedir(dir);
	q->has = 1;
	return 0;
}

/* Does SYSFS/class/net/IF/REST exist (as a directory when dir)? */
static int
netif_exists(const char *sysfs, const char *ifname, const char *rest,
    int dir)
{
	struct stat	st;
	char		path[NETIF_PATH_MAX], why[64];

	return netif_path(path, sysfs, ifname, rest, why, sizeof(why)) == 0 &&
	    stat(path, &st) == 0 && (!dir || S_ISDIR(st.st_mode));
}

static void
netif_devtype_read(const char *sysfs, const char *ifname,
    struct netif_kind *k)
{
	FILE	*fp;
	char	 path[NETIF_PATH_MAX], why[64];

	if (netif_path(path, sysfs, ifname, "uevent", why, sizeof(why)) ==
	    -1 || (fp = fopen(path, "re")) == NULL)
		return;
	netif_uevent_parse(fp, k->devtype, sizeof(k->devtype));
	fclose(fp);
}

/*
 * IF/type is the ARPHRD_ number; without sysfs (2.4) or a type file, the
 * kernel's loopback is still "lo".
 */
int
netif_kind_read(const char *sysfs, const char *ifname, struct netif_kind *k,
    char *err, size_t errlen)
{
	uint64_t	 type;
	FILE		*fp;
	char		 path[NETIF_PATH_MAX], why[64];

	memset(k, 0, sizeof(*k));
	if (netif_path(path, sysfs, ifname, "", err, errlen) == -1)
		return -1;
	k->loopback = strcmp(ifname, "lo") == 0;
	if (!netif_exists(sysfs, ifname, "", 1)) {
		snprintf(err, errlen, "%s: no such interface directory", path);
		return -1;
	}
	k->has_dir = 1;
	k->has_device = netif_exists(sysfs, ifname, "device", 0);
	if (netif_path(path, sysfs, ifname, "type", why, sizeof(why)) == 0 &&
	    (fp = fopen(path, "re")) != NULL) {
		if (netif_counter_parse(fp, &type) == 0)
			k->loopback = type == ARPHRD_LOOPBACK;
		fclose(fp);
	}
	netif_devtype_read(sysfs, ifname, k);
	return 0;
}

/*
 * Does SYSFS/class/net/UPPER hold a lower_LOWER link, or one to an
 * interface that does, within depth levels?  The kernel stacks at most
 * NETIF_NEST_MAX; the bound also ends a loop of links in a tree that is
 * not the kernel's.  Only the links' names are read, not their targets.
 */
static int
netif_below(const char *sysfs, const char *upper, const char *lower,
    int depth)
{
	struct dirent	*e;
	DIR		*d;
	char		 path[NETIF_PATH_MAX], why[64];
	int		 found = 0;

	if (depth <= 0 || netif_path(path, sysfs, upper, "", why,
	    sizeof(why)) == -1 || (d = opendir(path)) == NULL)
		return 0;
	while (!found && (e = readdir(d)) != NULL)
		if (strncmp(e->d_name, "lower_", 6) == 0)
			found = strcmp(e->d_name + 6, lower) == 0 ||
			    netif_below(sysfs, e->d_name + 6, lower, depth - 1);
	closedir(d);
	return found;
}

int
netif_is_below(const char *sysfs, const char *upper, const char *lower)
{
	return netif_name_ok(lower) && strcmp(upper, lower) != 0 &&
	    netif_below(sysfs, upper, lower, NETIF_NEST_MAX);
}

/* An IPv4-mapped IPv6 address ("::ffff:10.0.0.1") as plain IPv4. */
static const struct sockaddr *
netif_unmap(const struct sockaddr *sa, struct sockaddr_in *sin)
{
	const struct sockaddr_in6	*s6 = (const struct sockaddr_in6 *)sa;

	if (sa->sa_family != AF_INET6 || !IN6_IS_ADDR_V4MAPPED(&s6->sin6_addr))
		return sa;
	memset(sin, 0, sizeof(*sin));
	sin->sin_family = AF_INET;
	memcpy(&sin->sin_addr, &s6->sin6_addr.s6_addr[12], 4);
	return (const struct sockaddr *)sin;
}

static int
netif_same_addr(const struct sockaddr *a, const struct sockaddr *b)
{
	const struct sockaddr_in6	*a6, *b6;

	if (a->sa_family != b->sa_family)
		return 0;
	if (a->sa_family == AF_INET)
		return ((const struct sockaddr_in *)a)->sin_addr.s_addr ==
		    ((const struct sockaddr_in *)b)->sin_addr.s_addr;
	if (a->sa_family != AF_INET6)
		return 0;
	a6 = (const struct sockaddr_in6 *)a;
	b6 = (const struct sockaddr_in6 *)b;
	/* fe80::1 may sit on several links; the scope tells them apart. */
	if (a6->sin6_scope_id != 0 && b6->sin6_scope_id != 0 &&
	    a6->sin6_scope_id != b6->sin6_scope_id)
		return 0;
	return memcmp(&a6->sin6_addr, &b6->sin6_addr,
	    sizeof(a6->sin6_addr)) == 0;
}

/* Is sin inside the 127/8 network of this entry (its own netmask)? */
static int
netif_in_loopnet(const struct ifaddrs *ifa, const struct sockaddr_in *sin)
{
	const struct sockaddr_in	*addr, *mask;
	uint32_t			 a, m, s;

	if (ifa->ifa_addr == NULL || ifa->ifa_netmask == NULL ||
	    ifa->ifa_addr->sa_family != AF_INET)
		return 0;
	addr = (const struct sockaddr_in *)ifa->ifa_addr;
	mask = (const struct sockaddr_in *)ifa->ifa_netmask;
	a = ntohl(addr->sin_addr.s_addr);
	m = ntohl(mask->sin_addr.s_addr);
	s = ntohl(sin->sin_addr.s_addr);
	return (a >> 24) == 127 && (a & m) == (s & m);
}

int
netif_name_in_list(const struct ifaddrs *list, const struct sockaddr *addr,
    char *ifname, size_t len)
{
	const struct ifaddrs		*ifa, *found = NULL;
	const struct sockaddr_in	*sin;
	struct sockaddr_in		 mapped;

	if (addr == NULL || len == 0)
		return -1;
	addr = netif_unmap(addr, &mapped);
	for (ifa = list; ifa != NULL && found == NULL; ifa = ifa->ifa_next)
		if (ifa->ifa_addr != NULL && ifa->ifa_name != NULL &&
		    netif_same_addr(ifa->ifa_addr, addr))
			found = ifa;
	sin = (const struct sockaddr_in *)addr;
	if (found == NULL && addr->sa_family == AF_INET &&
	    (ntohl(sin->sin_addr.s_addr) >> 24) == 127)
		for (ifa = list; ifa != NULL && found == NULL;
		    ifa = ifa->ifa_next)
			if (ifa->ifa_name != NULL && netif_in_loopnet(ifa, sin))
				found = ifa;
	if (found == NULL ||
	    (size_t)snprintf(ifname, len, "%s", found->ifa_name) >= len) {
		ifname[0] = '\0';
		return -1;
	}
	return 0;
}

int
netif_name_for_addr(const struct sockaddr *addr, char *ifname, size_t len)
{
	struct ifaddrs	*list;
	int		 r;

	if (getifaddrs(&list) == -1)
		return -1;
	r = netif_name_in_list(list, addr, ifname, len);
	freeifaddrs(list);
	return r;
}
