/*
 * netif.h: one network interface as sysfs and getifaddrs() show it: its
 * packet and byte counters, the MSI vectors its device owns, its queues,
 * what kind of interface it is, what it is stacked under, and which
 * interface holds a local address.  Files are read under a sysfs root
 * that tests can move.
 */
#ifndef GB_NETIF_H
#define GB_NETIF_H

#include <sys/socket.h>

#include <ifaddrs.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define NETIF_MAX_IRQS	65536	/* msi_irqs entries beyond are ignored */
#define NETIF_DEVTYPE_LEN 16	/* "veth", "bridge", "tuntap", "wireguard" */

struct netif_stats {
	int		has;		/* all four counters were read */
	uint64_t	rx_packets;
	uint64_t	tx_packets;
	uint64_t	rx_bytes;
	uint64_t	tx_bytes;
};

/*
 * What SYSFS/class/net/IF says the interface is.  A NIC on a bus (PCI,
 * virtio, USB, platform) has a device link; a software interface (veth,
 * bridge, tun, ifb, lo) has none, and so no interrupt line of its own.
 */
struct netif_kind {
	int	has_dir;	/* SYSFS/class/net/IF exists */
	int	has_device;	/* IF/device exists */
	int	loopback;	/* IF/type is 772 (or no type and "lo") */
	char	devtype[NETIF_DEVTYPE_LEN];	/* uevent's DEVTYPE, or "" */
};

/* The queues of SYSFS/class/net/IF/queues: its rx-N and tx-N entries. */
struct netif_queues {
	int		has;	/* the directory was read */
	uint32_t	rx;
	uint32_t	tx;
};

/* Is this a name the kernel would accept (and safe in a path)? 1 or 0. */
int	netif_name_ok(const char *ifname);
/* One sysfs counter: "12345\n".  0, or -1 when it is not a number. */
int	netif_counter_parse(FILE *, uint64_t *);
/*
 * One counter, SYSFS/class/net/IF/statistics/NAME ("rx_dropped").  0, or
 * -1 with a reason naming the file in err.
 */
int	netif_stat_read(const char *sysfs, const char *ifname,
	    const char *name, uint64_t *, char *err, size_t errlen);
/*
 * SYSFS/class/net/IF/statistics/{rx,tx}_{packets,bytes}.  -1 with a
 * reason in err and has = 0 when one is missing or malformed.
 */
int	netif_stats_read(const char *sysfs, const char *ifname,
	    struct netif_stats *, char *err, size_t errlen);
/*
 * The IRQ numbers in SYSFS/class/net/IF/device/msi_irqs/, sorted, in a
 * malloc'd array the caller frees.  A virtio NIC's vectors belong to the
 * PCI function above it (device/../msi_irqs).  -1 with a reason in err
 * when there is no such directory (legacy interrupts, no device at all),
 * with errno ENOMEM when memory ran out.
 */
int	netif_msi_irqs_read(const char *sysfs, const char *ifname,
	    unsigned **irqs, size_t *nirqs, char *err, size_t errlen);
/*
 * A queue's entry name: 'r' for "rx-N", 't' for "tx-N" (N decimal, as
 * the kernel names them), 0 for anything else.  Pure.
 */
int	netif_queue_kind(const char *name);
/*
 * Count the queues in SYSFS/class/net/IF/queues/ (the kernel's real
 * number of rx and tx queues: ethtool -L changes them).  0, or -1 with
 * has = 0 and a reason naming the directory in err (no sysfs, a kernel
 * before 2.6.35).
 */
int	netif_queues_read(const char *sysfs, const char *ifname,
	    struct netif_queues *, char *err, size_t errlen);
/*
 * The DEVTYPE= value of a uevent file ("DEVTYPE=veth\n") into devtype.
 * 0, or -1 with devtype "" when there is none, or it is not a plain word
 * of fewer than len bytes.
 */
int	netif_uevent_parse(FILE *, char *devtype, size_t len);
/*
 * SYSFS/class/net/IF, its device, type and uevent.  0, or -1 with a reason
 * in err when there is no such directory (kind says what could be told).
 */
int	netif_kind_read(const char *sysfs, const char *ifname,
	    struct netif_kind *, char *err, size_t errlen);
/*
 * Is lower stacked under upper: a port of bridge or bond upper, the
 * link of VLAN or macvlan upper, or below one of those (a VLAN on a bond
 * on lower), as the SYSFS/class/net/UPPER/lower_NAME links say?  1 or 0
 * (also for an invalid name, a missing directory, and upper itself).
 */
int	netif_is_below(const char *sysfs, const char *upper,
	    const char *lower);
/*
 * The interface in list that holds addr (AF_INET or AF_INET6, IPv4-mapped
 * IPv6 too).  A 127.0.0.0/8 address maps to the interface whose 127/8
 * network holds it, as 127.0.0.2 is local but only 127.0.0.1 is listed.
 * Pure.  0, or -1 when none matches or the name does not fit.
 */
int	netif_name_in_list(const struct ifaddrs *list,
	    const struct sockaddr *addr, char *ifname, size_t len);
/* The same against getifaddrs(). */
int	netif_name_for_addr(const struct sockaddr *addr, char *ifname,
	    size_t len);

#endif /* GB_NETIF_H */
