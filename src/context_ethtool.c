/*
 * context_ethtool.c: what only the kernel's ethtool interface tells about
 * a live interface: driver version and bus, offloads, interrupt
 * coalescing and rings, and speed and duplex when sysfs gave none.
 *
 * It uses the SIOCETHTOOL ioctl, which every Linux since 2.4 has and
 * which needs no privilege to read, rather than the ethtool netlink
 * family (5.6 and later).  Offloads come from the legacy one-feature
 * commands (ETHTOOL_GRXCSUM, GTXCSUM, GTSO, GGSO, GGRO and GFLAGS for
 * LRO): the kernel still answers them from the same feature bits as
 * ETHTOOL_GFEATURES, and they need no string table.  GTXCSUM is on when
 * any checksum feature is (ip-generic, ipv4, ipv6, sctp, fcoe) and GTSO
 * when any TSO feature is.
 *
 * A driver without an operation answers EOPNOTSUPP: loopback has no
 * drvinfo, link settings, coalescing or rings, veth no coalescing or
 * rings.  Those are collected into one note, "coalesce, rings: not
 * supported by veth", as the note is short.  It never changes a setting.
 */

#include <sys/ioctl.h>
#include <sys/socket.h>

#include <net/if.h>

#include <linux/ethtool.h>
#include <linux/sockios.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "host/context.h"

/* link_mode_masks_nwords is an __s8: three masks of at most 127 words. */
#define CONTEXT_LINK_NWORDS_MAX	127

struct context_ethtool {
	int		 fd;
	const char	*ifname;
	char		 unsupported[64];	/* "coalesce, rings" */
};

static int	context_ethtool_ioctl(const struct context_ethtool *, void *);
static void	context_ethtool_fail(struct context_ethtool *,
		    struct gb_context *, const char *);
static int	context_ethtool_drvinfo(struct context_ethtool *,
		    struct gb_context *);
static void	context_ethtool_link(struct context_ethtool *,
		    struct gb_context *);
static void	context_ethtool_offloads(struct context_ethtool *,
		    struct gb_context *);
static void	context_ethtool_coalesce(struct context_ethtool *,
		    struct gb_context *);
static void	context_ethtool_rings(struct context_ethtool *,
		    struct gb_context *);

static int
context_ethtool_ioctl(const struct context_ethtool *et, void *data)
{
	struct ifreq	ifr;

	memset(&ifr, 0, sizeof(ifr));
	/* context_read() checked that the name fits IFNAMSIZ. */
	memcpy(ifr.ifr_name, et->ifname, strnlen(et->ifname, IFNAMSIZ - 1));
	ifr.ifr_data = data;
	return ioctl(et->fd, SIOCETHTOOL, &ifr);
}

/* After a failed ioctl: gather EOPNOTSUPP, note anything else now. */
static void
context_ethtool_fail(struct context_ethtool *et, struct gb_context *ctx,
    const char *what)
{
	size_t	len = strlen(et->unsupported);

	if (errno != EOPNOTSUPP) {
		context_note(ctx, "%s: %s", what, strerror(errno));
		return;
	}
	snprintf(et->unsupported + len, sizeof(et->unsupported) - len, "%s%s",
	    len > 0 ? ", " : "", what);
}

/*
 * The driver name from sysfs wins: it is what a captured host has.  The
 * kernel fills version with its own release for drivers that have none.
 * -1 when the interface does not exist.
 */
static int
context_ethtool_drvinfo(struct context_ethtool *et, struct gb_context *ctx)
{
	struct ethtool_drvinfo	di;

	memset(&di, 0, sizeof(di));
	di.cmd = ETHTOOL_GDRVINFO;
	if (context_ethtool_ioctl(et, &di) == -1) {
		if (errno == ENODEV) {
			context_note(ctx, "ethtool: no such interface");
			return -1;
		}
		context_ethtool_fail(et, ctx, "driver");
		return 0;
	}
	di.driver[sizeof(di.driver) - 1] = '\0';
	di.version[sizeof(di.version) - 1] = '\0';
	di.bus_info[sizeof(di.bus_info) - 1] = '\0';
	if (ctx->driver[0] == '\0')
		context_copy(ctx->driver, sizeof(ctx->driver), di.driver);
	context_copy(ctx->driver_version, sizeof(ctx->driver_version),
	    di.version);
	context_copy(ctx->bus, sizeof(ctx->bus), di.bus_info);
	return 0;
}

/*
 * ETHTOOL_GLINKSETTINGS (4.6 and later) starts with a handshake: asked
 * with no mask words, the kernel answers how many it wants, negated.
 * Older kernels have only ETHTOOL_GSET.
 */
static void
context_ethtool_link(struct context_ethtool *et, struct gb_context *ctx)
{
	struct ethtool_link_settings	*ls;
	struct ethtool_cmd		 ecmd;
	uint32_t			 speed = (uint32_t)SPEED_UNKNOWN;
	uint8_t				 duplex = DUPLEX_UNKNOWN;
	int8_t				 nwords;
	int				 r = -1;

	ls = calloc(1, sizeof(*ls) +
	    3 * CONTEXT_LINK_NWORDS_MAX * sizeof(uint32_t));
	if (ls == NULL) {
		context_note(ctx, "link: %s", strerror(errno));
		return;
	}
	ls->cmd = ETHTOOL_GLINKSETTINGS;
	if (context_ethtool_ioctl(et, ls) == 0) {
		if (ls->link_mode_masks_nwords >= 0 ||
		    ls->link_mode_masks_nwords < -CONTEXT_LINK_NWORDS_MAX)
			errno = EOPNOTSUPP;	/* no handshake: ETHTOOL_GSET */
		else {
			nwords = (int8_t)-ls->link_mode_masks_nwords;
			memset(ls, 0, sizeof(*ls));
			ls->cmd = ETHTOOL_GLINKSETTINGS;
			ls->link_mode_masks_nwords = nwords;
			if ((r = context_ethtool_ioctl(et, ls)) == 0) {
				speed = ls->speed;
				duplex = ls->duplex;
			}
		}
	}
	free(ls);
	if (r == -1 && errno == EOPNOTSUPP) {
		memset(&ecmd, 0, sizeof(ecmd));
		ecmd.cmd = ETHTOOL_GSET;
		if ((r = context_ethtool_ioctl(et, &ecmd)) == 0) {
			speed = ethtool_cmd_speed(&ecmd);
			duplex = ecmd.duplex;
		}
	}
	if (r == -1) {
		context_ethtool_fail(et, ctx, "link");
		return;
	}
	if (ctx->speed_mbps == -1 && speed != (uint32_t)SPEED_UNKNOWN &&
	    speed > 0 && speed <= GB_MAX_LINK_MBPS)
		ctx->speed_mbps = speed;
	if (ctx->duplex[0] == '\0' && duplex == DUPLEX_FULL)
		context_copy(ctx->duplex, sizeof(ctx->duplex), "full");
	if (ctx->duplex[0] == '\0' && duplex == DUPLEX_HALF)
		context_copy(ctx->duplex, sizeof(ctx->duplex), "half");
	if (ctx->speed_mbps == -1)
		context_note(ctx, "speed: not reported");
	if (ctx->duplex[0] == '\0')
		context_note(ctx, "duplex: not reported");
}

static void
context_ethtool_offloads(struct context_ethtool *et, struct gb_context *ctx)
{
	static const uint32_t cmds[] = {
		ETHTOOL_GRXCSUM, ETHTOOL_GTXCSUM, ETHTOOL_GTSO, ETHTOOL_GGSO,
		ETHTOOL_GGRO, ETHTOOL_GFLAGS
	};
	int			*dst[] = {
		&ctx->rx_checksum, &ctx->tx_checksum, &ctx->tso, &ctx->gso,
		&ctx->gro, &ctx->lro
	};
	struct ethtool_value	 v;
	size_t			 i;
	int			 failed = 0, saved = 0;

	for (i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
		memset(&v, 0, sizeof(v));
		v.cmd = cmds[i];
		if (context_ethtool_ioctl(et, &v) == -1) {
			if (failed++ == 0)
				saved = errno;
			continue;
		}
		if (cmds[i] == ETHTOOL_GFLAGS)
			*dst[i] = (v.data & ETH_FLAG_LRO) != 0;
		else
			*dst[i] = v.data != 0;
	}
	if (failed > 0) {
		errno = saved;
		context_ethtool_fail(et, ctx, "offloads");
	}
}

static void
context_ethtool_coalesce(struct context_ethtool *et, struct gb_context *ctx)
{
	struct ethtool_coalesce	c;

	memset(&c, 0, sizeof(c));
	c.cmd = ETHTOOL_GCOALESCE;
	if (context_ethtool_ioctl(et, &c) == -1) {
		context_ethtool_fail(et, ctx, "coalesce");
		return;
	}
	ctx->rx_usecs = c.rx_coalesce_usecs;
	ctx->rx_frames = c.rx_max_coalesced_frames;
	ctx->tx_usecs = c.tx_coalesce_usecs;
	ctx->tx_frames = c.tx_max_coalesced_frames;
	ctx->adaptive_rx = c.use_adaptive_rx_coalesce != 0;
	ctx->adaptive_tx = c.use_adaptive_tx_coalesce != 0;
}

static void
context_ethtool_rings(struct context_ethtool *et, struct gb_context *ctx)
{
	struct ethtool_ringparam	r;

	memset(&r, 0, sizeof(r));
	r.cmd = ETHTOOL_GRINGPARAM;
	if (context_ethtool_ioctl(et, &r) == -1) {
		context_ethtool_fail(et, ctx, "rings");
		return;
	}
	ctx->rx_ring = r.rx_pending;
	ctx->rx_ring_max = r.rx_max_pending;
	ctx->tx_ring = r.tx_pending;
	ctx->tx_ring_max = r.tx_max_pending;
}

void
context_ethtool_read(const char *ifname, struct gb_context *ctx)
{
	struct context_ethtool	et;

	memset(&et, 0, sizeof(et));
	et.ifname = ifname;
	/* Any socket reaches dev_ioctl(); a kernel may lack AF_INET. */
	if ((et.fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0)) == -1 &&
	    (et.fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0)) == -1) {
		context_note(ctx, "ethtool: %s", strerror(errno));
		return;
	}
	if (context_ethtool_drvinfo(&et, ctx) == 0) {
		if (ctx->speed_mbps == -1 || ctx->duplex[0] == '\0')
			context_ethtool_link(&et, ctx);
		context_ethtool_offloads(&et, ctx);
		context_ethtool_coalesce(&et, ctx);
		context_ethtool_rings(&et, ctx);
		if (et.unsupported[0] != '\0')
			context_note(ctx, "%s: not supported by %s",
			    et.unsupported, ctx->driver[0] != '\0' ?
			    ctx->driver : ifname);
	}
	close(et.fd);
}
