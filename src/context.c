/*
 * context.c: context_read() and the /proc and /sys readers behind it:
 * kernel release, CPU model and count, the socket buffer sysctls, the
 * test interface's MTU, driver, speed and duplex, and the congestion
 * control of a data socket.
 *
 * Every file is opened under a root the caller gives (struct
 * hoststat_roots), so that a captured host replays.  Only what cannot be
 * replayed comes from the running system, and only when the roots are the
 * real ones: uname(2) and sysconf(3) for "/proc", the ethtool ioctl
 * (context_ethtool.c) for "/proc" and "/sys" together.  Nothing here
 * fails for a missing value: it stays -1 or "" and ctx->note says why, in
 * a few words, because the note is 160 bytes for everything.  The
 * parsers it calls are pure and live in context_parse.c.
 */

#include <sys/types.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/utsname.h>

#include <net/if.h>
#include <netinet/in.h>
#include <netinet/tcp.h>

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "host/context.h"
#include "host/netif.h"
#include "base/version.h"

#define CONTEXT_PATH_MAX	4096

static FILE	*context_fopen(const char *, const char *);
static const char *context_why(int);
static int64_t	 context_int_file(struct gb_context *, const char *,
		    const char *, const char *, int64_t, int64_t);
static void	 context_kernel_read(struct gb_context *, const char *, int);
static void	 context_version_fill(struct gb_context *);
static void	 context_cpu_read(struct gb_context *, const char *, int);
static void	 context_sysctl_read(struct gb_context *, const char *);
static void	 context_driver_read(struct gb_context *, const char *,
		    const char *);
static void	 context_link_read(struct gb_context *, const char *,
		    const char *, int);
static void	 context_iface_read(struct gb_context *, const char *,
		    const char *, int);
static void	 context_cc_read(struct gb_context *, int);

/* ROOT/REL; NULL with errno. */
static FILE *
context_fopen(const char *root, const char *rel)
{
	char	path[CONTEXT_PATH_MAX];

	if ((size_t)snprintf(path, sizeof(path), "%s/%s", root, rel) >=
	    sizeof(path)) {
		errno = ENAMETOOLONG;
		return NULL;
	}
	return fopen(path, "re");
}

/* A few words for a note. */
static const char *
context_why(int e)
{
	switch (e) {
	case ENOENT:
		return "missing";
	case EINVAL:
	case ENODATA:
		return "not reported";
	case EOPNOTSUPP:
		return "not supported";
	default:
		return strerror(e);
	}
}

/*
 * The integer in ROOT/REL, when it is in [min, max]; otherwise -1 and,
 * unless what is NULL, a note.  Reading sysfs "speed" of a link that is
 * down fails with EINVAL in read(), not in open().
 */
static int64_t
context_int_file(struct gb_context *ctx, const char *root, const char *rel,
    const char *what, int64_t min, int64_t max)
{
	FILE	*fp;
	int64_t	 v = -1;
	int	 r, e;

	if ((fp = context_fopen(root, rel)) == NULL) {
		if (what != NULL)
			context_note(ctx, "%s: %s", what, context_why(errno));
		return -1;
	}
	errno = 0;
	r = context_int_parse(fp, &v);
	e = ferror(fp) ? errno : 0;
	fclose(fp);
	if (r == 0 && v >= min && v <= max)
		return v;
	if (what != NULL && e != 0)
		context_note(ctx, "%s: %s", what, context_why(e));
	else if (what != NULL && r == -1)
		context_note(ctx, "%s: malformed", what);
	else if (what != NULL)
		context_note(ctx, "%s: out of range: %" PRId64, what, v);
	return -1;
}

/*
 * uname(2) tells the running kernel; a replayed host's is in its
 * /proc/sys/kernel/osrelease (there since 2.0).
 */
static void
context_kernel_read(struct gb_context *ctx, const char *procfs, int live)
{
	struct utsname	 u;
	FILE		*fp;
	int		 r;

	if (live) {
		if (uname(&u) == 0) {
			context_copy(ctx->kernel, sizeof(ctx->kernel),
			    u.release);
			context_copy(ctx->hostname, sizeof(ctx->hostname),
			    u.nodename);
		} else
			context_note(ctx, "kernel: %s", strerror(errno));
		return;
	}
	if ((fp = context_fopen(procfs, "sys/kernel/osrelease")) == NULL) {
		context_note(ctx, "kernel: %s", context_why(errno));
		return;
	}
	r = context_line_parse(fp, ctx->kernel, sizeof(ctx->kernel));
	fclose(fp);
	if (r == -1)
		context_note(ctx, "kernel: malformed");
	if ((fp = context_fopen(procfs, "sys/kernel/hostname")) == NULL)
		return;
	if (context_line_parse(fp, ctx->hostname, sizeof(ctx->hostname)) ==
	    -1)
		ctx->hostname[0] = '\0';
	fclose(fp);
}

/* "0.1.0 (7ca7f91)", or the version alone outside a git build. */
static void
context_version_fill(struct gb_context *ctx)
{
	const char *rev = version_revision();

	if (*rev != '\0')
		snprintf(ctx->version, sizeof(ctx->version), "%s (%s)",
		    GB_VERSION, rev);
	else
		snprintf(ctx->version, sizeof(ctx->version), "%s", GB_VERSION);
}

static void
context_cpu_read(struct gb_context *ctx, const char *procfs, int live)
{
	FILE	*fp;
	long	 n;
	int	 ncpus = 0, parsed = 0;

	if ((fp = context_fopen(procfs, "cpuinfo")) == NULL)
		context_note(ctx, "cpuinfo: %s", context_why(errno));
	else {
		if (context_cpuinfo_parse(fp, ctx->cpu_model,
		    sizeof(ctx->cpu_model), &ncpus) == -1)
			context_note(ctx, "cpuinfo: no model, no processors");
		else {
			parsed = 1;
			if (ctx->cpu_model[0] == '\0')
				context_note(ctx, "cpu model: not in cpuinfo");
		}
		fclose(fp);
	}
	/* A uniprocessor ARM kernel before 3.8 lists no "processor". */
	if (ncpus == 0 && live && (n = sysconf(_SC_NPROCESSORS_ONLN)) > 0)
		ncpus = n < CONTEXT_MAX_NCPUS ? (int)n : CONTEXT_MAX_NCPUS;
	if (ncpus > 0)
		ctx->ncpus = ncpus;
	else if (parsed)
		context_note(ctx, "ncpus: no processor in cpuinfo");
}

static void
context_sysctl_read(struct gb_context *ctx, const char *procfs)
{
	static const char *const names[] = { "tcp_rmem", "tcp_wmem" };
	char	*dst[] = { ctx->tcp_rmem, ctx->tcp_wmem };
	char	 rel[64];
	FILE	*fp;
	size_t	 i;
	int	 r;

	ctx->rmem_max = context_int_file(ctx, procfs,
	    "sys/net/core/rmem_max", "rmem_max", 0, CONTEXT_MAX_SYSCTL);
	ctx->wmem_max = context_int_file(ctx, procfs,
	    "sys/net/core/wmem_max", "wmem_max", 0, CONTEXT_MAX_SYSCTL);
	for (i = 0; i < 2; i++) {
		snprintf(rel, sizeof(rel), "sys/net/ipv4/%s", names[i]);
		if ((fp = context_fopen(procfs, rel)) == NULL) {
			context_note(ctx, "%s: %s", names[i],
			    context_why(errno));
			continue;
		}
		/* All three fields are sizeof(ctx->tcp_rmem). */
		r = context_triple_parse(fp, dst[i], sizeof(ctx->tcp_rmem));
		fclose(fp);
		if (r == -1)
			context_note(ctx, "%s: malformed", names[i]);
	}
}

/*
 * The basename of device/driver, which is what ETHTOOL_GDRVINFO falls back
 * on and what a captured sysfs keeps.  Virtual interfaces have no device.
 */
static void
context_driver_read(struct gb_context *ctx, const char *sysfs,
    const char *ifname)
{
	char	path[CONTEXT_PATH_MAX], link[CONTEXT_PATH_MAX], *base;
	ssize_t	n;

	if ((size_t)snprintf(path, sizeof(path),
	    "%s/class/net/%s/device/driver", sysfs, ifname) >= sizeof(path) ||
	    (n = readlink(path, link, sizeof(link) - 1)) <= 0)
		return;
	link[n] = '\0';
	base = strrchr(link, '/') != NULL ? strrchr(link, '/') + 1 : link;
	context_copy(ctx->driver, sizeof(ctx->driver), base);
}

/*
 * Speed and duplex.  sysfs answers EINVAL for a link that is down and for
 * loopback, and -1 / "unknown" when the driver does not know (virtio).
 * When live, ethtool is asked next and makes the note.
 */
static void
context_link_read(struct gb_context *ctx, const char *sysfs,
    const char *ifname, int live)
{
	char	 rel[64], duplex[16] = "";
	FILE	*fp;

	snprintf(rel, sizeof(rel), "class/net/%s/speed", ifname);
	ctx->speed_mbps = context_int_file(ctx, sysfs, rel, NULL, 1,
	    GB_MAX_LINK_MBPS);
	if (ctx->speed_mbps == -1 && !live)
		context_note(ctx, "speed: not reported");
	snprintf(rel, sizeof(rel), "class/net/%s/duplex", ifname);
	if ((fp = context_fopen(sysfs, rel)) != NULL) {
		if (context_line_parse(fp, duplex, sizeof(duplex)) == -1)
			duplex[0] = '\0';
		fclose(fp);
	}
	if (strcmp(duplex, "full") == 0 || strcmp(duplex, "half") == 0)
		context_copy(ctx->duplex, sizeof(ctx->duplex), duplex);
	else if (!live)
		context_note(ctx, "duplex: not reported");
}

static void
context_iface_read(struct gb_context *ctx, const char *sysfs,
    const char *ifname, int live)
{
	struct stat	st;
	char		path[CONTEXT_PATH_MAX], rel[64];

	if ((size_t)snprintf(path, sizeof(path), "%s/class/net/%s", sysfs,
	    ifname) >= sizeof(path) || stat(path, &st) == -1) {
		context_note(ctx, "%s: not in sysfs", ifname);
		return;
	}
	snprintf(rel, sizeof(rel), "class/net/%s/mtu", ifname);
	ctx->mtu = context_int_file(ctx, sysfs, rel, "mtu", 0,
	    CONTEXT_MAX_MTU);
	context_driver_read(ctx, sysfs, ifname);
	if (ctx->driver[0] == '\0' && !live)
		context_note(ctx, "driver: not in sysfs");
	context_link_read(ctx, sysfs, ifname, live);
}

/* TCP_CONGESTION of the data socket: "cubic", "bbr". */
static void
context_cc_read(struct gb_context *ctx, int fd)
{
	char		name[sizeof(ctx->congestion)] = "";
	socklen_t	len = sizeof(name) - 1;	/* name[15] stays NUL */

	if (fd < 0) {
		context_note(ctx, "cc: no data socket");
		return;
	}
	if (getsockopt(fd, IPPROTO_TCP, TCP_CONGESTION, name, &len) == -1) {
		context_note(ctx, "cc: %s", strerror(errno));
		return;
	}
	context_copy(ctx->congestion, sizeof(ctx->congestion), name);
}

int
context_read(const struct hoststat_roots *roots, const char *ifname,
    int data_fd, struct gb_context *ctx, char *err, size_t errlen)
{
	const char	*procfs = "/proc", *sysfs = "/sys";
	int		 live_proc, live;

	context_init(ctx);
	if (roots != NULL && roots->procfs != NULL)
		procfs = roots->procfs;
	if (roots != NULL && roots->sysfs != NULL)
		sysfs = roots->sysfs;
	if (ifname != NULL && *ifname != '\0' && !netif_name_ok(ifname)) {
		snprintf(err, errlen, "invalid interface name");
		return -1;
	}
	live_proc = strcmp(procfs, "/proc") == 0;
	live = live_proc && strcmp(sysfs, "/sys") == 0;
	context_version_fill(ctx);
	context_kernel_read(ctx, procfs, live_proc);
	context_cpu_read(ctx, procfs, live_proc);
	context_sysctl_read(ctx, procfs);
	if (ifname == NULL || *ifname == '\0')
		context_note(ctx, "interface: not known");
	else {
		context_iface_read(ctx, sysfs, ifname, live);
		if (live)
			context_ethtool_read(ifname, ctx);
		else
			context_note(ctx, "ethtool: not read when replaying "
			    "a captured host");
	}
	context_cc_read(ctx, data_fd);
	ctx->has = 1;
	return 0;
}
