/*
 * test_context.c: the context module.  Pure parsers from fmemopen();
 * captured hosts replayed from tests/fixtures/ctx-NAME (run from the top
 * directory): a modern x86 server with an igb NIC and lo (ctx-x86), a
 * 2001 PowerMac G4 with a 2.4 kernel and no sysfs (ctx-ppc2001), a
 * Raspberry Pi 4 with a veth and no wmem sysctls (ctx-veth), an s390 with
 * broken and missing files (ctx-missing).  Then this host: lo, the
 * interface of the default route, a TCP socket's congestion control and,
 * as root, a veth in a network namespace of its own.  Then JSON both ways,
 * with a decoder that must refuse every wrong type, missing member, range
 * and string, and the -v lines against golden strings.
 */

#include <sys/types.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/utsname.h>
#include <sys/wait.h>

#include <arpa/inet.h>
#include <net/if.h>
#include <netinet/in.h>
#include <netinet/tcp.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include <jansson.h>

#include "codec/context_json.h"
#include "host/context.h"
#include "out/context_text.h"

#define FIX	"tests/fixtures/"
#define REPLAY_NOTE "ethtool: not read when replaying a captured host"

/* Run parse on the text s. */
static FILE *
text_open(const char *s)
{
	FILE	*fp;

	fp = *s == '\0' ? fopen("/dev/null", "re") :
	    fmemopen((void *)(uintptr_t)s, strlen(s), "r");
	assert_non_null(fp);
	return fp;
}

static int
cpuinfo(const char *s, char *model, size_t len, int *ncpus)
{
	FILE	*fp = text_open(s);
	int	 r;

	r = context_cpuinfo_parse(fp, model, len, ncpus);
	fclose(fp);
	return r;
}

static void
test_cpuinfo_parse(void **state)
{
	char	m[96], small[8];
	int	n;

	(void)state;
	/* x86: "cpu family", "cpu MHz" and "cpu cores" are not "cpu" */
	assert_int_equal(cpuinfo("processor\t: 0\nvendor_id\t: GenuineIntel\n"
	    "cpu family\t: 6\nmodel\t\t: 85\nmodel name\t: Intel(R) Xeon(R) "
	    "CPU @ 2.20GHz\ncpu MHz\t\t: 2200.152\ncpu cores\t: 1\n\n"
	    "processor\t: 1\nmodel name\t: Intel(R) Xeon(R) CPU @ 2.20GHz\n",
	    m, sizeof(m), &n), 0);
	assert_string_equal(m, "Intel(R) Xeon(R) CPU @ 2.20GHz");
	assert_int_equal(n, 2);
	/* PowerPC, 2.4 */
	assert_int_equal(cpuinfo("processor\t: 0\ncpu\t\t: 7455, altivec "
	    "supported\nclock\t\t: 1000MHz\n", m, sizeof(m), &n), 0);
	assert_string_equal(m, "7455, altivec supported");
	assert_int_equal(n, 1);
	/* arm64: only the part number */
	assert_int_equal(cpuinfo("processor\t: 0\nBogoMIPS\t: 108.00\n"
	    "CPU implementer\t: 0x41\nCPU part\t: 0xd08\n\nprocessor\t: 1\n"
	    "CPU part\t: 0xd08\n", m, sizeof(m), &n), 0);
	assert_string_equal(m, "0xd08");
	assert_int_equal(n, 2);
	/* uniprocessor ARM before 3.8: the "Processor" banner, no entries */
	assert_int_equal(cpuinfo("Processor\t: ARMv6-compatible processor "
	    "rev 7 (v6l)\nBogoMIPS\t: 697.95\nCPU part\t: 0xb76\n"
	    "Hardware\t: BCM2708\n", m, sizeof(m), &n), 0);
	assert_string_equal(m, "ARMv6-compatible processor rev 7 (v6l)");
	assert_int_equal(n, 0);
	/* preference, not file order: "model name" beats an earlier "cpu" */
	assert_int_equal(cpuinfo("cpu\t: POWER9\nCPU part\t: 0x1\n"
	    "model name\t: Later\n", m, sizeof(m), &n), 0);
	assert_string_equal(m, "Later");
	assert_int_equal(n, 0);
	/* the first of several equal keys; an empty value does not count */
	assert_int_equal(cpuinfo("model name\t:\nmodel name\t: A\n"
	    "model name\t: B\n", m, sizeof(m), &n), 0);
	assert_string_equal(m, "A");
	/* truncated to the buffer, made printable */
	assert_int_equal(cpuinfo("model name : Very long model name\n",
	    small, sizeof(small), &n), 0);
	assert_string_equal(small, "Very lo");
	assert_int_equal(cpuinfo("model name : \x1b[31mred\xc3\xa9\n", m,
	    sizeof(m), &n), 0);
	assert_string_equal(m, "\\x1b[31mred\\xc3\\xa9");
	/* s390: "processor 0: ..." is no entry; nothing to be had */
	assert_int_equal(cpuinfo("vendor_id       : IBM/S390\n"
	    "processor 0: version = FF\n", m, sizeof(m), &n), -1);
	assert_string_equal(m, "");
	assert_int_equal(n, 0);
	assert_int_equal(cpuinfo("", m, sizeof(m), &n), -1);
	assert_int_equal(cpuinfo("no colon here\n", m, sizeof(m), &n), -1);
}

static int
int_parse(const char *s, int64_t *v)
{
	FILE	*fp = text_open(s);
	int	 r;

	r = context_int_parse(fp, v);
	fclose(fp);
	return r;
}

static void
test_int_parse(void **state)
{
	int64_t	v;

	(void)state;
	assert_int_equal(int_parse("1500\n", &v), 0);
	assert_true(v == 1500);
	assert_int_equal(int_parse("-1\n", &v), 0);
	assert_true(v == -1);
	assert_int_equal(int_parse("65536", &v), 0);
	assert_true(v == 65536);
	assert_int_equal(int_parse("9223372036854775807\n", &v), 0);
	assert_true(v == INT64_MAX);
	assert_int_equal(int_parse("9223372036854775808\n", &v), -1);
	assert_int_equal(int_parse("", &v), -1);
	assert_int_equal(int_parse("\n", &v), -1);
	assert_int_equal(int_parse("-\n", &v), -1);
	assert_int_equal(int_parse("--1\n", &v), -1);
	assert_int_equal(int_parse(" 1\n", &v), -1);
	assert_int_equal(int_parse("lots\n", &v), -1);
	assert_int_equal(int_parse("12 34\n", &v), -1);
	/* not the first 63 bytes of a longer line */
	assert_int_equal(int_parse("0000000000000000000000000000000000000000"
	    "000000000000000000000000001500\n", &v), -1);
	assert_int_equal(int_parse("0000000000000000000000000000000000000000"
	    "0000000000000000001500\n", &v), 0);
	assert_true(v == 1500);
}

static int
line_parse(const char *s, char *buf, size_t len)
{
	FILE	*fp = text_open(s);
	int	 r;

	r = context_line_parse(fp, buf, len);
	fclose(fp);
	return r;
}

static void
test_line_parse(void **state)
{
	char	buf[16];

	(void)state;
	assert_int_equal(line_parse("6.1.0-18-amd64\nmore\n", buf,
	    sizeof(buf)), 0);
	assert_string_equal(buf, "6.1.0-18-amd64");
	assert_int_equal(line_parse("  full \t\n", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "full");
	assert_int_equal(line_parse("2.6.32-5-powerpc-smp\n", buf,
	    sizeof(buf)), 0);
	assert_string_equal(buf, "2.6.32-5-powerp");
	assert_int_equal(line_parse("a\tb\x7f\n", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "a\\x09b\\x7f");
	assert_int_equal(line_parse("\n", buf, sizeof(buf)), -1);
	assert_int_equal(line_parse(" \t \n", buf, sizeof(buf)), -1);
	assert_int_equal(line_parse("", buf, sizeof(buf)), -1);
}

static int
triple(const char *s, char *buf, size_t len)
{
	FILE	*fp = text_open(s);
	int	 r;

	r = context_triple_parse(fp, buf, len);
	fclose(fp);
	return r;
}

static void
test_triple_parse(void **state)
{
	char	buf[48], small[12];

	(void)state;
	assert_int_equal(triple("4096\t131072\t6291456\n", buf, sizeof(buf)),
	    0);
	assert_string_equal(buf, "4096 131072 6291456");
	assert_int_equal(triple("  4096 131072\t\t 6291456 \n", buf,
	    sizeof(buf)), 0);
	assert_string_equal(buf, "4096 131072 6291456");
	assert_int_equal(triple("1 2 3", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "1 2 3");
	assert_int_equal(triple("9223372036854775807 0 0\n", buf,
	    sizeof(buf)), 0);
	assert_int_equal(triple("9223372036854775808 0 0\n", buf,
	    sizeof(buf)), -1);
	assert_string_equal(buf, "");
	assert_int_equal(triple("4096 131072\n", buf, sizeof(buf)), -1);
	assert_int_equal(triple("1 2 3 4\n", buf, sizeof(buf)), -1);
	assert_int_equal(triple("1 -2 3\n", buf, sizeof(buf)), -1);
	assert_int_equal(triple("1 2 x\n", buf, sizeof(buf)), -1);
	assert_int_equal(triple("1 2 3x\n", buf, sizeof(buf)), -1);
	assert_int_equal(triple("", buf, sizeof(buf)), -1);
	assert_int_equal(triple("4096 131072 6291456\n", small,
	    sizeof(small)), -1);
	assert_string_equal(small, "");
}

static void
test_note(void **state)
{
	struct gb_context	ctx;
	size_t			i;

	(void)state;
	context_init(&ctx);
	assert_int_equal(ctx.has, 0);
	assert_true(ctx.mtu == -1 && ctx.rx_ring_max == -1);
	assert_int_equal(ctx.lro, -1);
	context_note(&ctx, "a: %s", "missing");
	context_note(&ctx, "b\x1b[2J");
	assert_string_equal(ctx.note, "a: missing; b\\x1b[2J");
	for (i = 0; i < 40; i++)
		context_note(&ctx, "item %zu", i);
	assert_int_equal(strlen(ctx.note), sizeof(ctx.note) - 1);
	assert_string_equal(ctx.note + sizeof(ctx.note) - 4, "...");
	context_note(&ctx, "late");
	assert_int_equal(strlen(ctx.note), sizeof(ctx.note) - 1);
	assert_null(strstr(ctx.note, "late"));
	/* exactly full is not truncated */
	context_init(&ctx);
	memset(ctx.note, 'x', sizeof(ctx.note) - 4);
	context_note(&ctx, "y");
	assert_int_equal(strlen(ctx.note), sizeof(ctx.note) - 1);
	assert_string_equal(ctx.note + sizeof(ctx.note) - 5, "x; y");
}

static void
replay(const char *dir, const char *ifname, struct gb_context *ctx)
{
	struct hoststat_roots	roots;
	char			procfs[256], sysfs[256], err[256];

	snprintf(procfs, sizeof(procfs), FIX "%s/proc", dir);
	snprintf(sysfs, sizeof(sysfs), FIX "%s/sys", dir);
	roots.procfs = procfs;
	roots.sysfs = sysfs;
	assert_int_equal(context_read(&roots, ifname, -1, ctx, err,
	    sizeof(err)), 0);
	assert_int_equal(ctx->has, 1);
}

/* Every value that ethtool alone gives is unknown. */
static void
assert_no_ethtool(const struct gb_context *ctx)
{
	assert_string_equal(ctx->driver_version, "");
	assert_string_equal(ctx->bus, "");
	assert_int_equal(ctx->rx_checksum, -1);
	assert_int_equal(ctx->tx_checksum, -1);
	assert_int_equal(ctx->tso, -1);
	assert_int_equal(ctx->gso, -1);
	assert_int_equal(ctx->gro, -1);
	assert_int_equal(ctx->lro, -1);
	assert_true(ctx->rx_usecs == -1 && ctx->rx_frames == -1);
	assert_true(ctx->tx_usecs == -1 && ctx->tx_frames == -1);
	assert_int_equal(ctx->adaptive_rx, -1);
	assert_int_equal(ctx->adaptive_tx, -1);
	assert_true(ctx->rx_ring == -1 && ctx->rx_ring_max == -1);
	assert_true(ctx->tx_ring == -1 && ctx->tx_ring_max == -1);
	assert_string_equal(ctx->congestion, "");
}

/* The -v lines of ctx, in a string the caller frees. */
static char *
render(const struct gb_context *ctx, const char *ifname, const char *prefix)
{
	char	*buf = NULL;
	size_t	 len = 0;
	FILE	*fp;

	assert_non_null(fp = open_memstream(&buf, &len));
	context_text(fp, ctx, ifname, prefix);
	assert_int_equal(fclose(fp), 0);
	return buf;
}

static void
test_replay_x86(void **state)
{
	struct gb_context	ctx;
	char			*text;

	(void)state;
	replay("ctx-x86", "eth0", &ctx);
	assert_string_equal(ctx.kernel, "6.1.0-18-amd64");
	assert_string_equal(ctx.cpu_model, "Intel(R) Xeon(R) CPU @ 2.20GHz");
	assert_int_equal(ctx.ncpus, 2);
	assert_true(ctx.rmem_max == 212992 && ctx.wmem_max == 212992);
	assert_string_equal(ctx.tcp_rmem, "4096 131072 6291456");
	assert_string_equal(ctx.tcp_wmem, "4096 16384 4194304");
	/* the basename of device/driver, through class/net's symlink */
	assert_string_equal(ctx.driver, "igb");
	assert_true(ctx.speed_mbps == 1000);
	assert_string_equal(ctx.duplex, "full");
	assert_true(ctx.mtu == 1500);
	assert_no_ethtool(&ctx);
	assert_string_equal(ctx.note, REPLAY_NOTE "; cc: no data socket");
	text = render(&ctx, "eth0", "gigebench-r:");
	assert_string_equal(text,
	    "gigebench-r: host: Linux 6.1.0-18-amd64, 2 x Intel(R) Xeon(R) "
	    "CPU @ 2.20GHz; net.core.rmem_max 212992 wmem_max 212992, "
	    "tcp_rmem 4096 131072 6291456, tcp_wmem 4096 16384 4194304, "
	    "cc n/a\n"
	    "gigebench-r: nic eth0: driver igb bus n/a, 1000 Mb/s full, "
	    "mtu 1500; offloads rx-csum n/a tx-csum n/a tso n/a gso n/a "
	    "gro n/a lro n/a\n"
	    "gigebench-r: nic eth0: coalesce n/a; rings n/a\n"
	    "gigebench-r: note: " REPLAY_NOTE "; cc: no data socket\n");
	free(text);

	/* lo has no device, and older kernels no speed or duplex file */
	replay("ctx-x86", "lo", &ctx);
	assert_true(ctx.mtu == 65536);
	assert_string_equal(ctx.driver, "");
	assert_true(ctx.speed_mbps == -1);
	assert_string_equal(ctx.duplex, "");
	assert_string_equal(ctx.note, "driver: not in sysfs; speed: not "
	    "reported; duplex: not reported; " REPLAY_NOTE
	    "; cc: no data socket");

	/* no interface known: the host only */
	replay("ctx-x86", NULL, &ctx);
	assert_string_equal(ctx.kernel, "6.1.0-18-amd64");
	assert_true(ctx.mtu == -1);
	assert_string_equal(ctx.note, "interface: not known; cc: no data "
	    "socket");
	replay("ctx-x86", "", &ctx);
	assert_string_equal(ctx.note, "interface: not known; cc: no data "
	    "socket");
}

static void
test_replay_ppc2001(void **state)
{
	struct gb_context	ctx;

	(void)state;
	replay("ctx-ppc2001", "eth0", &ctx);
	assert_string_equal(ctx.kernel, "2.4.10-benh0");
	assert_string_equal(ctx.cpu_model, "7450, altivec supported");
	assert_int_equal(ctx.ncpus, 1);
	assert_true(ctx.rmem_max == 65535 && ctx.wmem_max == 65535);
	assert_string_equal(ctx.tcp_rmem, "4096 87380 174760");
	assert_string_equal(ctx.tcp_wmem, "4096 16384 131072");
	/* 2.4 had no sysfs */
	assert_true(ctx.mtu == -1 && ctx.speed_mbps == -1);
	assert_string_equal(ctx.driver, "");
	assert_string_equal(ctx.duplex, "");
	assert_no_ethtool(&ctx);
	assert_string_equal(ctx.note, "eth0: not in sysfs; " REPLAY_NOTE
	    "; cc: no data socket");
}

static void
test_replay_veth(void **state)
{
	struct gb_context	ctx;

	(void)state;
	replay("ctx-veth", "veth0", &ctx);
	assert_string_equal(ctx.kernel, "6.6.31+rpt-rpi-v8");
	assert_string_equal(ctx.cpu_model, "0xd08");
	assert_int_equal(ctx.ncpus, 4);
	assert_true(ctx.rmem_max == 180224);
	assert_true(ctx.wmem_max == -1);
	assert_string_equal(ctx.tcp_rmem, "4096 131072 6291456");
	assert_string_equal(ctx.tcp_wmem, "");
	/* a veth has no device, so no driver without ethtool */
	assert_string_equal(ctx.driver, "");
	assert_true(ctx.speed_mbps == 10000);
	assert_string_equal(ctx.duplex, "full");
	assert_true(ctx.mtu == 1500);
	assert_no_ethtool(&ctx);
	assert_string_equal(ctx.note, "wmem_max: missing; tcp_wmem: missing; "
	    "driver: not in sysfs; " REPLAY_NOTE "; cc: no data socket");
}

static void
test_replay_missing(void **state)
{
	struct gb_context	 ctx, back;
	json_t			*j;
	char			 err[256];

	(void)state;
	replay("ctx-missing", "eth1", &ctx);
	assert_string_equal(ctx.kernel, "");
	assert_string_equal(ctx.cpu_model, "");
	assert_int_equal(ctx.ncpus, -1);
	assert_true(ctx.rmem_max == -1 && ctx.wmem_max == -1);
	assert_string_equal(ctx.tcp_rmem, "");
	assert_string_equal(ctx.tcp_wmem, "");
	assert_string_equal(ctx.driver, "");	/* device without driver */
	assert_true(ctx.speed_mbps == -1);	/* "-1" */
	assert_string_equal(ctx.duplex, "");	/* "unknown" */
	assert_true(ctx.mtu == -1);
	assert_no_ethtool(&ctx);
	/* more reasons than fit: the note ends in "..." */
	assert_string_equal(ctx.note, "kernel: missing; cpuinfo: no model, "
	    "no processors; rmem_max: malformed; wmem_max: out of range: "
	    "4294967296; tcp_rmem: malformed; tcp_wmem: missing; mtu: mis...");
	assert_int_equal(strlen(ctx.note), sizeof(ctx.note) - 1);
	assert_non_null(j = context_json(&ctx));
	assert_int_equal(context_from_json(j, &back, err, sizeof(err)), 0);
	assert_string_equal(back.note, ctx.note);
	json_decref(j);
}

/* The real /proc with a captured /sys: the kernel is uname's. */
static void
test_replay_mixed(void **state)
{
	struct hoststat_roots	roots = { "/proc", FIX "ctx-x86/sys" };
	struct gb_context	ctx;
	struct utsname		u;
	char			err[256];

	(void)state;
	assert_int_equal(uname(&u), 0);
	assert_int_equal(context_read(&roots, "eth0", -1, &ctx, err,
	    sizeof(err)), 0);
	assert_string_equal(ctx.kernel, u.release);
	assert_true(ctx.ncpus >= 1);
	assert_string_equal(ctx.driver, "igb");
	assert_no_ethtool(&ctx);
	assert_non_null(strstr(ctx.note, REPLAY_NOTE));
}

static void
test_invalid_ifname(void **state)
{
	static const char *const bad[] = {
		"..", ".", "../eth0", "a/b", "eth0:1", "eth 0", "eth0\n",
		"a234567890123456"
	};
	struct hoststat_roots	roots = { FIX "ctx-x86/proc",
				    FIX "ctx-x86/sys" };
	struct gb_context	ctx;
	char			err[256];
	size_t			i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = '\0';
		assert_int_equal(context_read(&roots, bad[i], -1, &ctx, err,
		    sizeof(err)), -1);
		assert_string_equal(err, "invalid interface name");
		assert_int_equal(ctx.has, 0);
	}
	/* 15 bytes is the longest name */
	assert_int_equal(context_read(&roots, "a23456789012345", -1, &ctx,
	    err, sizeof(err)), 0);
	assert_non_null(strstr(ctx.note, "a23456789012345: not in sysfs"));
}

/*
 * What this host says.  Values are the kernel's, so the checks are the
 * invariants: what is unknown is explained in the note.
 */
static void
assert_explained(const struct gb_context *ctx)
{
	if (ctx->rx_usecs == -1)
		assert_non_null(strstr(ctx->note, "coalesce"));
	if (ctx->rx_ring == -1)
		assert_non_null(strstr(ctx->note, "rings"));
	if (ctx->rx_checksum == -1)
		assert_non_null(strstr(ctx->note, "offloads"));
	if (ctx->speed_mbps == -1)
		assert_true(strstr(ctx->note, "speed") != NULL ||
		    strstr(ctx->note, "link") != NULL);
	if (ctx->driver[0] == '\0')
		assert_non_null(strstr(ctx->note, "driver"));
}

static void
assert_roundtrip(const struct gb_context *ctx)
{
	struct gb_context	 back;
	json_t			*j;
	char			 err[256];

	assert_non_null(j = context_json(ctx));
	assert_int_equal(context_from_json(j, &back, err, sizeof(err)), 0);
	assert_memory_equal(&back, ctx, sizeof(back));
	json_decref(j);
}

static void
test_real_lo(void **state)
{
	struct gb_context	ctx;
	struct utsname		u;
	char			err[256];
	long			n;

	(void)state;
	assert_int_equal(uname(&u), 0);
	assert_int_equal(context_read(NULL, "lo", -1, &ctx, err,
	    sizeof(err)), 0);
	assert_int_equal(ctx.has, 1);
	assert_string_equal(ctx.kernel, u.release);
	/* lxcfs may show a container fewer CPUs in cpuinfo than sysfs */
	n = sysconf(_SC_NPROCESSORS_ONLN);
	assert_true(ctx.ncpus >= 1 && ctx.ncpus <= n);
	assert_true(ctx.mtu == 65536);
	assert_true(ctx.rmem_max >= 0 && ctx.wmem_max >= 0);
	assert_true(ctx.tcp_rmem[0] != '\0' && ctx.tcp_wmem[0] != '\0');
	/* loopback: no drvinfo, link, coalescing or rings; offloads yes */
	assert_string_equal(ctx.driver, "");
	assert_true(ctx.speed_mbps == -1);
	assert_true(ctx.rx_checksum == 0 || ctx.rx_checksum == 1);
	assert_true(ctx.lro == 0 || ctx.lro == 1);
	assert_true(ctx.rx_usecs == -1 && ctx.rx_ring == -1);
	assert_non_null(strstr(ctx.note, "not supported by lo"));
	assert_non_null(strstr(ctx.note, "cc: no data socket"));
	assert_null(strstr(ctx.note, "replaying"));
	assert_explained(&ctx);
	assert_roundtrip(&ctx);
}

/* The interface of the first default route in /proc/net/route. */
static int
default_ifname(char *ifname, size_t len)
{
	FILE		*fp;
	char		 line[256], name[IFNAMSIZ + 1];
	unsigned	 dst;
	int		 found = 0;

	if ((fp = fopen("/proc/net/route", "re")) == NULL)
		return -1;
	while (!found && fgets(line, sizeof(line), fp) != NULL)
		if (sscanf(line, "%16s %x", name, &dst) == 2 && dst == 0 &&
		    strlen(name) < len) {
			memcpy(ifname, name, strlen(name) + 1);
			found = 1;
		}
	fclose(fp);
	return found ? 0 : -1;
}

static void
test_real_default(void **state)
{
	struct gb_context	ctx;
	struct ifreq		ifr;
	char			ifname[IFNAMSIZ], path[128], err[256];
	int			fd;

	(void)state;
	if (default_ifname(ifname, sizeof(ifname)) == -1)
		skip();
	assert_int_equal(context_read(NULL, ifname, -1, &ctx, err,
	    sizeof(err)), 0);
	print_message("%s: driver %s %s bus %s, speed %lld %s, mtu %lld\n",
	    ifname, ctx.driver, ctx.driver_version, ctx.bus,
	    (long long)ctx.speed_mbps, ctx.duplex, (long long)ctx.mtu);
	print_message("%s: note: %s\n", ifname, ctx.note);
	/* a real NIC has a device, and so a driver */
	snprintf(path, sizeof(path), "/sys/class/net/%s/device", ifname);
	if (access(path, F_OK) == 0)
		assert_true(ctx.driver[0] != '\0');
	/* the MTU the kernel gives SIOCGIFMTU */
	assert_true((fd = socket(AF_INET, SOCK_DGRAM, 0)) != -1);
	memset(&ifr, 0, sizeof(ifr));
	memcpy(ifr.ifr_name, ifname, strlen(ifname));
	assert_int_equal(ioctl(fd, SIOCGIFMTU, &ifr), 0);
	close(fd);
	assert_true(ctx.mtu == ifr.ifr_mtu);
	assert_explained(&ctx);
	assert_roundtrip(&ctx);
}

/* A connected loopback TCP socket; the listener and the peer in fds. */
static int
tcp_pair(int fds[2])
{
	struct sockaddr_in	sin;
	socklen_t		len = sizeof(sin);
	int			l, c;

	memset(&sin, 0, sizeof(sin));
	sin.sin_family = AF_INET;
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	assert_true((l = socket(AF_INET, SOCK_STREAM, 0)) != -1);
	assert_int_equal(bind(l, (struct sockaddr *)&sin, sizeof(sin)), 0);
	assert_int_equal(listen(l, 1), 0);
	assert_int_equal(getsockname(l, (struct sockaddr *)&sin, &len), 0);
	assert_true((c = socket(AF_INET, SOCK_STREAM, 0)) != -1);
	assert_int_equal(connect(c, (struct sockaddr *)&sin, sizeof(sin)), 0);
	assert_true((fds[1] = accept(l, NULL, NULL)) != -1);
	fds[0] = l;
	return c;
}

static void
test_real_congestion(void **state)
{
	struct gb_context	 ctx;
	char			 def[32] = "", err[256];
	FILE			*fp;
	int			 fds[2], fd, p[2];

	(void)state;
	fd = tcp_pair(fds);
	/* a new socket starts with the default */
	assert_non_null(fp = fopen("/proc/sys/net/ipv4/"
	    "tcp_congestion_control", "re"));
	assert_int_equal(context_line_parse(fp, def, sizeof(def)), 0);
	fclose(fp);
	assert_int_equal(context_read(NULL, "lo", fd, &ctx, err,
	    sizeof(err)), 0);
	assert_string_equal(ctx.congestion, def);
	assert_null(strstr(ctx.note, "cc:"));
	/* reno is always built in and allowed: the socket's, not the default */
	assert_int_equal(setsockopt(fd, IPPROTO_TCP, TCP_CONGESTION, "reno",
	    4), 0);
	assert_int_equal(context_read(NULL, "lo", fd, &ctx, err,
	    sizeof(err)), 0);
	assert_string_equal(ctx.congestion, "reno");
	close(fd);
	close(fds[0]);
	close(fds[1]);
	/* not a socket */
	assert_int_equal(pipe(p), 0);
	assert_int_equal(context_read(NULL, "lo", p[0], &ctx, err,
	    sizeof(err)), 0);
	assert_string_equal(ctx.congestion, "");
	assert_non_null(strstr(ctx.note, "cc: Socket operation on non-socket"));
	close(p[0]);
	close(p[1]);
}

/*
 * In a child: a network and mount namespace of its own (so that nothing
 * leaks into the host, even when an assertion fails), a fresh sysfs that
 * shows that namespace, a veth pair, and context_read() of one end down,
 * then up.  The child writes its two contexts into fd.  Exit status 77
 * when the namespace cannot be had.
 */
static void
veth_child(int fd)
{
	struct gb_context	ctx[2];
	char			err[256];

	if (unshare(CLONE_NEWNET | CLONE_NEWNS) == -1 ||
	    mount("none", "/", NULL, MS_REC | MS_PRIVATE, NULL) == -1 ||
	    mount("sysfs", "/sys", "sysfs", 0, NULL) == -1 ||
	    system("PATH=$PATH:/sbin:/usr/sbin; ip link add gbctx0 type veth "
	    "peer name gbctx1 >/dev/null 2>&1") != 0)
		_exit(77);
	if (context_read(NULL, "gbctx0", -1, &ctx[0], err, sizeof(err)) ==
	    -1 ||
	    system("PATH=$PATH:/sbin:/usr/sbin; ip link set gbctx0 up && "
	    "ip link set gbctx1 up") != 0 ||
	    context_read(NULL, "gbctx0", -1, &ctx[1], err, sizeof(err)) ==
	    -1 ||
	    write(fd, ctx, sizeof(ctx)) != (ssize_t)sizeof(ctx))
		_exit(1);
	_exit(0);
}

static void
test_real_veth(void **state)
{
	struct gb_context	ctx[2];
	pid_t			pid;
	ssize_t			n;
	size_t			i;
	int			p[2], status;

	(void)state;
	if (geteuid() != 0)
		skip();
	assert_int_equal(pipe(p), 0);
	assert_true((pid = fork()) != -1);
	if (pid == 0) {
		close(p[0]);
		veth_child(p[1]);
	}
	close(p[1]);
	n = read(p[0], ctx, sizeof(ctx));
	close(p[0]);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	if (WEXITSTATUS(status) == 77)
		skip();
	assert_int_equal(WEXITSTATUS(status), 0);
	assert_int_equal(n, sizeof(ctx));
	for (i = 0; i < 2; i++) {
		print_message("veth %s: %s; note: %s\n", i ? "up" : "down",
		    ctx[i].driver, ctx[i].note);
		assert_int_equal(ctx[i].has, 1);
		assert_string_equal(ctx[i].driver, "veth");
		assert_true(ctx[i].driver_version[0] != '\0');
		assert_string_equal(ctx[i].bus, "");
		/* down, sysfs says EINVAL and ethtool 10000 */
		assert_true(ctx[i].speed_mbps == 10000);
		assert_string_equal(ctx[i].duplex, "full");
		assert_true(ctx[i].mtu == 1500);
		assert_true(ctx[i].tso == 0 || ctx[i].tso == 1);
		assert_explained(&ctx[i]);
		assert_roundtrip(&ctx[i]);
	}
}

/* The example of the -v output. */
static void
golden(struct gb_context *c)
{
	context_init(c);
	c->has = 1;
	snprintf(c->kernel, sizeof(c->kernel), "6.1.0-18-amd64");
	snprintf(c->cpu_model, sizeof(c->cpu_model),
	    "Intel(R) Xeon(R) CPU @ 2.20GHz");
	c->ncpus = 2;
	snprintf(c->driver, sizeof(c->driver), "virtio_net");
	snprintf(c->driver_version, sizeof(c->driver_version), "1.0.0");
	snprintf(c->bus, sizeof(c->bus), "0000:00:04.0");
	c->speed_mbps = 10000;
	snprintf(c->duplex, sizeof(c->duplex), "full");
	c->mtu = 1500;
	c->rx_checksum = c->tx_checksum = c->tso = c->gso = c->gro = 1;
	c->lro = 0;
	c->rx_usecs = c->tx_usecs = 0;
	c->rx_frames = c->tx_frames = 1;
	c->adaptive_rx = c->adaptive_tx = 0;
	c->rx_ring = c->tx_ring = c->rx_ring_max = c->tx_ring_max = 256;
	c->rmem_max = c->wmem_max = 212992;
	snprintf(c->tcp_rmem, sizeof(c->tcp_rmem), "4096 131072 6291456");
	snprintf(c->tcp_wmem, sizeof(c->tcp_wmem), "4096 16384 4194304");
	snprintf(c->congestion, sizeof(c->congestion), "cubic");
	snprintf(c->hostname, sizeof(c->hostname), "sut-1.example");
	snprintf(c->version, sizeof(c->version), "0.1.0 (7ca7f91)");
}

static void
test_json_roundtrip(void **state)
{
	struct gb_context	 c, back;
	json_t			*j;
	char			*s, err[256];

	(void)state;
	golden(&c);
	assert_non_null(j = context_json(&c));
	assert_non_null(s = json_dumps(j, JSON_COMPACT));
	assert_string_equal(s, "{\"kernel\":\"6.1.0-18-amd64\","
	    "\"cpu_model\":\"Intel(R) Xeon(R) CPU @ 2.20GHz\",\"ncpus\":2,"
	    "\"driver\":\"virtio_net\",\"driver_version\":\"1.0.0\","
	    "\"bus\":\"0000:00:04.0\",\"speed_mbps\":10000,\"duplex\":\"full\","
	    "\"mtu\":1500,\"offloads\":{\"rx_checksum\":true,"
	    "\"tx_checksum\":true,\"tso\":true,\"gso\":true,\"gro\":true,"
	    "\"lro\":false},\"coalesce\":{\"rx_usecs\":0,\"rx_frames\":1,"
	    "\"tx_usecs\":0,\"tx_frames\":1,\"adaptive_rx\":false,"
	    "\"adaptive_tx\":false},\"rings\":{\"rx\":256,\"tx\":256,"
	    "\"rx_max\":256,\"tx_max\":256},\"sysctl\":{\"rmem_max\":212992,"
	    "\"wmem_max\":212992,\"tcp_rmem\":\"4096 131072 6291456\","
	    "\"tcp_wmem\":\"4096 16384 4194304\"},\"congestion\":\"cubic\","
	    "\"note\":null,\"hostname\":\"sut-1.example\","
	    "\"version\":\"0.1.0 (7ca7f91)\"}");
	free(s);
	assert_int_equal(context_from_json(j, &back, err, sizeof(err)), 0);
	assert_memory_equal(&back, &c, sizeof(c));

	/* A peer that predates hostname and version: both "". */
	json_object_del(j, "hostname");
	json_object_del(j, "version");
	assert_int_equal(context_from_json(j, &back, err, sizeof(err)), 0);
	assert_string_equal(back.hostname, "");
	assert_string_equal(back.version, "");
	assert_string_equal(back.kernel, c.kernel);
	/* ... but present, each is checked as any string. */
	json_object_set_new(j, "hostname", json_integer(5));
	assert_int_equal(context_from_json(j, &back, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "context.hostname"));
	json_object_set_new(j, "hostname", json_string("a\x1b[2Jb"));
	assert_int_equal(context_from_json(j, &back, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "context.hostname"));
	json_decref(j);

	/* all unknown: nulls everywhere */
	context_init(&c);
	c.has = 1;
	assert_non_null(j = context_json(&c));
	assert_non_null(s = json_dumps(j, JSON_COMPACT));
	assert_string_equal(s, "{\"kernel\":null,\"cpu_model\":null,"
	    "\"ncpus\":null,\"driver\":null,\"driver_version\":null,"
	    "\"bus\":null,\"speed_mbps\":null,\"duplex\":null,\"mtu\":null,"
	    "\"offloads\":{\"rx_checksum\":null,\"tx_checksum\":null,"
	    "\"tso\":null,\"gso\":null,\"gro\":null,\"lro\":null},"
	    "\"coalesce\":{\"rx_usecs\":null,\"rx_frames\":null,"
	    "\"tx_usecs\":null,\"tx_frames\":null,\"adaptive_rx\":null,"
	    "\"adaptive_tx\":null},\"rings\":{\"rx\":null,\"tx\":null,"
	    "\"rx_max\":null,\"tx_max\":null},\"sysctl\":{\"rmem_max\":null,"
	    "\"wmem_max\":null,\"tcp_rmem\":null,\"tcp_wmem\":null},"
	    "\"congestion\":null,\"note\":null,\"hostname\":null,"
	    "\"version\":null}");
	free(s);
	assert_int_equal(context_from_json(j, &back, err, sizeof(err)), 0);
	assert_memory_equal(&back, &c, sizeof(c));
	json_decref(j);

	/* boundaries survive */
	golden(&c);
	c.ncpus = CONTEXT_MAX_NCPUS;
	c.speed_mbps = GB_MAX_LINK_MBPS;
	c.mtu = 0;
	c.rx_usecs = c.tx_ring_max = UINT32_MAX;
	c.rmem_max = INT32_MAX;
	c.wmem_max = 0;
	snprintf(c.duplex, sizeof(c.duplex), "half");
	memset(c.note, '~', sizeof(c.note) - 1);
	assert_roundtrip(&c);

	/* what the decoder would refuse is written as null */
	golden(&c);
	c.ncpus = 0;
	c.speed_mbps = GB_MAX_LINK_MBPS + 1;
	c.mtu = -7;
	c.gro = 2;
	c.rx_frames = (int64_t)UINT32_MAX + 1;
	snprintf(c.duplex, sizeof(c.duplex), "fast");
	snprintf(c.tcp_rmem, sizeof(c.tcp_rmem), "1 2");
	c.kernel[0] = '\x1b';
	assert_non_null(j = context_json(&c));
	assert_int_equal(context_from_json(j, &back, err, sizeof(err)), 0);
	assert_int_equal(back.ncpus, -1);
	assert_true(back.speed_mbps == -1 && back.mtu == -1);
	assert_int_equal(back.gro, -1);
	assert_true(back.rx_frames == -1);
	assert_string_equal(back.duplex, "");
	assert_string_equal(back.tcp_rmem, "");
	assert_string_equal(back.kernel, "\\x1b.1.0-18-amd64");
	json_decref(j);

	/* not read at all: null, and back */
	context_init(&c);
	assert_non_null(j = context_json(&c));
	assert_true(json_is_null(j));
	golden(&back);
	assert_int_equal(context_from_json(j, &back, err, sizeof(err)), 0);
	assert_int_equal(back.has, 0);
	assert_int_equal(back.ncpus, -1);
	json_decref(j);
}

/* The members as the decoder must know them, independently written. */
enum { K_STR, K_NUMS, K_DUPLEX, K_INT, K_BOOL };

static const struct member {
	const char	*group;
	const char	*key;
	int		 kind;
	size_t		 size;		/* strings */
	int64_t		 min, max;	/* integers */
} members[] = {
	{ NULL, "kernel", K_STR, 64, 0, 0 },
	{ NULL, "cpu_model", K_STR, 96, 0, 0 },
	{ NULL, "ncpus", K_INT, 0, 1, 1 << 20 },
	{ NULL, "driver", K_STR, 32, 0, 0 },
	{ NULL, "driver_version", K_STR, 32, 0, 0 },
	{ NULL, "bus", K_STR, 48, 0, 0 },
	{ NULL, "speed_mbps", K_INT, 0, 1, GB_MAX_LINK_MBPS },
	{ NULL, "duplex", K_DUPLEX, 8, 0, 0 },
	{ NULL, "mtu", K_INT, 0, 0, INT32_MAX },
	{ "offloads", "rx_checksum", K_BOOL, 0, 0, 0 },
	{ "offloads", "tx_checksum", K_BOOL, 0, 0, 0 },
	{ "offloads", "tso", K_BOOL, 0, 0, 0 },
	{ "offloads", "gso", K_BOOL, 0, 0, 0 },
	{ "offloads", "gro", K_BOOL, 0, 0, 0 },
	{ "offloads", "lro", K_BOOL, 0, 0, 0 },
	{ "coalesce", "rx_usecs", K_INT, 0, 0, UINT32_MAX },
	{ "coalesce", "rx_frames", K_INT, 0, 0, UINT32_MAX },
	{ "coalesce", "tx_usecs", K_INT, 0, 0, UINT32_MAX },
	{ "coalesce", "tx_frames", K_INT, 0, 0, UINT32_MAX },
	{ "coalesce", "adaptive_rx", K_BOOL, 0, 0, 0 },
	{ "coalesce", "adaptive_tx", K_BOOL, 0, 0, 0 },
	{ "rings", "rx", K_INT, 0, 0, UINT32_MAX },
	{ "rings", "tx", K_INT, 0, 0, UINT32_MAX },
	{ "rings", "rx_max", K_INT, 0, 0, UINT32_MAX },
	{ "rings", "tx_max", K_INT, 0, 0, UINT32_MAX },
	{ "sysctl", "rmem_max", K_INT, 0, 0, INT32_MAX },
	{ "sysctl", "wmem_max", K_INT, 0, 0, INT32_MAX },
	{ "sysctl", "tcp_rmem", K_NUMS, 48, 0, 0 },
	{ "sysctl", "tcp_wmem", K_NUMS, 48, 0, 0 },
	{ NULL, "congestion", K_STR, 16, 0, 0 },
	{ NULL, "note", K_STR, 160, 0, 0 },
};

#define NMEMBERS	(sizeof(members) / sizeof(members[0]))

static const char *
member_path(const struct member *m, char *buf, size_t len)
{
	snprintf(buf, len, "context.%s%s%s", m->group != NULL ? m->group : "",
	    m->group != NULL ? "." : "", m->key);
	return buf;
}

/*
 * Decode the golden document with member m set to v (stolen), or removed
 * when v is NULL.  On failure ctx must be all unknown.
 */
static int
decode_with(const struct member *m, json_t *v, struct gb_context *ctx,
    char *err, size_t errlen)
{
	struct gb_context	 c;
	json_t			*j, *o;
	int			 r;

	golden(&c);
	assert_non_null(j = context_json(&c));
	o = m->group != NULL ? json_object_get(j, m->group) : j;
	assert_non_null(o);
	if (v == NULL)
		assert_int_equal(json_object_del(o, m->key), 0);
	else
		assert_int_equal(json_object_set_new(o, m->key, v), 0);
	err[0] = '\0';
	r = context_from_json(j, ctx, err, errlen);
	json_decref(j);
	if (r == -1) {
		assert_int_equal(ctx->has, 0);
		assert_int_equal(ctx->ncpus, -1);
		assert_string_equal(ctx->kernel, "");
	}
	return r;
}

/* Expect "context.PATH WHAT" from decoding m as v. */
static void
expect_refused(const struct member *m, json_t *v, const char *what)
{
	struct gb_context	ctx;
	char			err[256], want[256], path[64];

	assert_int_equal(decode_with(m, v, &ctx, err, sizeof(err)), -1);
	snprintf(want, sizeof(want), "%s %s", member_path(m, path,
	    sizeof(path)), what);
	assert_string_equal(err, want);
}

static void
expect_taken(const struct member *m, json_t *v)
{
	struct gb_context	ctx;
	char			err[256], path[64];

	if (decode_with(m, v, &ctx, err, sizeof(err)) != 0)
		fail_msg("%s: %s", member_path(m, path, sizeof(path)), err);
	assert_int_equal(ctx.has, 1);
}

static void
test_json_types(void **state)
{
	static const char *const what[] = {
		[K_STR] = "is not a string", [K_NUMS] = "is not a string",
		[K_DUPLEX] = "is not a string", [K_INT] = "is not an integer",
		[K_BOOL] = "is not a boolean"
	};
	const struct member	*m;
	struct gb_context	 ctx;
	json_t			*j, *samples[6];
	char			 err[256];
	size_t			 i;

	(void)state;
	for (m = members; m < members + NMEMBERS; m++) {
		samples[0] = json_string("x");
		samples[1] = json_integer(1);
		samples[2] = json_real(1.0);
		samples[3] = json_true();
		samples[4] = json_object();
		samples[5] = json_array();
		for (i = 0; i < 6; i++) {
			if ((i == 0 && m->kind <= K_DUPLEX) ||
			    (i == 1 && m->kind == K_INT) ||
			    (i == 3 && m->kind == K_BOOL)) {
				json_decref(samples[i]);
				continue;
			}
			expect_refused(m, samples[i], what[m->kind]);
		}
		/* null is always "unknown" */
		expect_taken(m, json_null());
	}
	/* a group that is not an object, the document itself */
	golden(&ctx);
	assert_non_null(j = context_json(&ctx));
	assert_int_equal(json_object_set_new(j, "rings", json_array()), 0);
	assert_int_equal(context_from_json(j, &ctx, err, sizeof(err)), -1);
	assert_string_equal(err, "context.rings is not an object");
	json_decref(j);
	assert_non_null(j = json_array());
	assert_int_equal(context_from_json(j, &ctx, err, sizeof(err)), -1);
	assert_string_equal(err, "context is not an object");
	json_decref(j);
	assert_non_null(j = json_string("context"));
	assert_int_equal(context_from_json(j, &ctx, err, sizeof(err)), -1);
	assert_string_equal(err, "context is not an object");
	json_decref(j);
	assert_int_equal(context_from_json(NULL, &ctx, err, sizeof(err)), -1);
	assert_string_equal(err, "context is missing");
	assert_int_equal(ctx.has, 0);
}

static void
test_json_missing(void **state)
{
	static const char *const groups[] = {
		"offloads", "coalesce", "rings", "sysctl"
	};
	const struct member	*m;
	struct gb_context	 ctx;
	json_t			*j;
	char			 err[256], want[64];
	size_t			 i;

	(void)state;
	for (m = members; m < members + NMEMBERS; m++)
		expect_refused(m, NULL, "is missing");
	for (i = 0; i < 4; i++) {
		golden(&ctx);
		assert_non_null(j = context_json(&ctx));
		assert_int_equal(json_object_del(j, groups[i]), 0);
		assert_int_equal(context_from_json(j, &ctx, err, sizeof(err)),
		    -1);
		snprintf(want, sizeof(want), "context.%s is missing",
		    groups[i]);
		assert_string_equal(err, want);
		json_decref(j);
	}
	/* an empty object misses its first member */
	assert_non_null(j = json_object());
	assert_int_equal(context_from_json(j, &ctx, err, sizeof(err)), -1);
	assert_string_equal(err, "context.kernel is missing");
	json_decref(j);
	/* unknown members are a newer peer's, and ignored */
	golden(&ctx);
	assert_non_null(j = context_json(&ctx));
	assert_int_equal(json_object_set_new(j, "numa_nodes", json_integer(2)),
	    0);
	assert_int_equal(json_object_set_new(json_object_get(j, "rings"),
	    "rx_jumbo", json_string("x")), 0);
	assert_int_equal(context_from_json(j, &ctx, err, sizeof(err)), 0);
	json_decref(j);
}

static void
test_json_ranges(void **state)
{
	const struct member	*m;
	char			 what[128];
	int64_t			 bad[3];
	size_t			 i;

	(void)state;
	for (m = members; m < members + NMEMBERS; m++) {
		if (m->kind != K_INT)
			continue;
		expect_taken(m, json_integer(m->min));
		expect_taken(m, json_integer(m->max));
		bad[0] = m->min - 1;
		bad[1] = m->max + 1;
		bad[2] = INT64_MIN;
		for (i = 0; i < 3; i++) {
			snprintf(what, sizeof(what), "is out of range (%lld to "
			    "%lld): %lld", (long long)m->min,
			    (long long)m->max, (long long)bad[i]);
			expect_refused(m, json_integer(bad[i]), what);
		}
	}
	/* jansson's largest integer */
	expect_refused(&members[15], json_integer(INT64_MAX),
	    "is out of range (0 to 4294967295): 9223372036854775807");
}

/* A string of n bytes that is right for m except maybe its length. */
static json_t *
filler(const struct member *m, size_t n)
{
	char	buf[512];

	n = n < sizeof(buf) ? n : sizeof(buf);
	memset(buf, m->kind == K_NUMS ? '1' : 'x', n);
	if (m->kind == K_NUMS && n >= 5)
		memcpy(buf + n - 4, " 1 1", 4);
	return json_stringn(buf, n);
}

static void
test_json_strings(void **state)
{
	static const char *const bad_nums[] = {
		"1 2", "1 2 3 4", "1  2 3", " 1 2 3", "1 2 3 ", "a b c",
		"1\t2 3", "-1 2 3", "1 2 3x"
	};
	static const char *const bad_duplex[] = {
		"fast", "Full", "full ", "unknown"
	};
	const struct member	*m;
	char			 what[128];
	size_t			 i;

	(void)state;
	for (m = members; m < members + NMEMBERS; m++) {
		if (m->kind > K_DUPLEX)
			continue;
		if (m->kind != K_DUPLEX)
			expect_taken(m, filler(m, m->size - 1));
		snprintf(what, sizeof(what), "is too long (max %zu bytes): %zu",
		    m->size - 1, m->size);
		expect_refused(m, filler(m, m->size), what);
		snprintf(what, sizeof(what), "is too long (max %zu bytes): %zu",
		    m->size - 1, (size_t)300);
		expect_refused(m, filler(m, 300), what);
		/* "" is unknown, like null */
		expect_taken(m, json_string(""));
		expect_refused(m, json_stringn("ab\0cd", 5),
		    "holds a NUL byte");
		expect_refused(m, json_string("\x1b[2J"),
		    "holds a byte that is not printable ASCII");
		expect_refused(m, json_string("caf\xc3\xa9"),
		    "holds a byte that is not printable ASCII");
		expect_refused(m, json_string("a\tb"),
		    "holds a byte that is not printable ASCII");
	}
	expect_taken(&members[27], json_string("1 2 3"));
	for (i = 0; i < sizeof(bad_nums) / sizeof(bad_nums[0]); i++)
		expect_refused(&members[27], json_string(bad_nums[i]),
		    strchr(bad_nums[i], '\t') != NULL ?
		    "holds a byte that is not printable ASCII" :
		    "is not three numbers");
	expect_taken(&members[7], json_string("half"));
	for (i = 0; i < sizeof(bad_duplex) / sizeof(bad_duplex[0]); i++)
		expect_refused(&members[7], json_string(bad_duplex[i]),
		    "is not \"full\" or \"half\"");
}

static void
test_text(void **state)
{
	struct gb_context	 c;
	char			*text;

	(void)state;
	golden(&c);
	text = render(&c, "eth0", "gigebench-t:");
	assert_string_equal(text,
	    "gigebench-t: host: Linux 6.1.0-18-amd64, 2 x Intel(R) Xeon(R) "
	    "CPU @ 2.20GHz; net.core.rmem_max 212992 wmem_max 212992, "
	    "tcp_rmem 4096 131072 6291456, tcp_wmem 4096 16384 4194304, "
	    "cc cubic\n"
	    "gigebench-t: nic eth0: driver virtio_net 1.0.0 bus 0000:00:04.0, "
	    "10000 Mb/s full, mtu 1500; offloads rx-csum on tx-csum on tso on "
	    "gso on gro on lro off\n"
	    "gigebench-t: nic eth0: coalesce rx 0 us/1 frames tx 0 us/1 "
	    "frames adaptive off/off; rings rx 256/256 tx 256/256\n");
	free(text);

	/* some known, some not */
	c.rx_frames = c.tx_usecs = c.tx_ring_max = -1;
	c.adaptive_rx = 1;
	c.adaptive_tx = -1;
	c.tso = -1;
	c.speed_mbps = -1;
	c.duplex[0] = c.driver_version[0] = '\0';
	snprintf(c.note, sizeof(c.note), "speed: not reported");
	text = render(&c, "enp3s0", "gigebench-r:");
	assert_string_equal(text,
	    "gigebench-r: host: Linux 6.1.0-18-amd64, 2 x Intel(R) Xeon(R) "
	    "CPU @ 2.20GHz; net.core.rmem_max 212992 wmem_max 212992, "
	    "tcp_rmem 4096 131072 6291456, tcp_wmem 4096 16384 4194304, "
	    "cc cubic\n"
	    "gigebench-r: nic enp3s0: driver virtio_net bus 0000:00:04.0, "
	    "speed n/a duplex n/a, mtu 1500; offloads rx-csum on tx-csum on "
	    "tso n/a gso on gro on lro off\n"
	    "gigebench-r: nic enp3s0: coalesce rx 0 us/n/a frames tx n/a "
	    "us/1 frames adaptive on/n/a; rings rx 256/256 tx 256/n/a\n"
	    "gigebench-r: note: speed: not reported\n");
	free(text);

	/* nothing known */
	context_init(&c);
	c.has = 1;
	snprintf(c.note, sizeof(c.note), "interface: not known");
	text = render(&c, NULL, "gigebench-r:");
	assert_string_equal(text,
	    "gigebench-r: host: Linux n/a, n/a x n/a; net.core.rmem_max n/a "
	    "wmem_max n/a, tcp_rmem n/a, tcp_wmem n/a, cc n/a\n"
	    "gigebench-r: nic n/a: driver n/a bus n/a, speed n/a duplex n/a, "
	    "mtu n/a; offloads rx-csum n/a tx-csum n/a tso n/a gso n/a "
	    "gro n/a lro n/a\n"
	    "gigebench-r: nic n/a: coalesce n/a; rings n/a\n"
	    "gigebench-r: note: interface: not known\n");
	free(text);

	/* not read: one line */
	context_init(&c);
	text = render(&c, "eth0", "gigebench-t:");
	assert_string_equal(text, "gigebench-t: context: n/a\n");
	free(text);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cpuinfo_parse),
		cmocka_unit_test(test_int_parse),
		cmocka_unit_test(test_line_parse),
		cmocka_unit_test(test_triple_parse),
		cmocka_unit_test(test_note),
		cmocka_unit_test(test_replay_x86),
		cmocka_unit_test(test_replay_ppc2001),
		cmocka_unit_test(test_replay_veth),
		cmocka_unit_test(test_replay_missing),
		cmocka_unit_test(test_replay_mixed),
		cmocka_unit_test(test_invalid_ifname),
		cmocka_unit_test(test_real_lo),
		cmocka_unit_test(test_real_default),
		cmocka_unit_test(test_real_congestion),
		cmocka_unit_test(test_real_veth),
		cmocka_unit_test(test_json_roundtrip),
		cmocka_unit_test(test_json_types),
		cmocka_unit_test(test_json_missing),
		cmocka_unit_test(test_json_ranges),
		cmocka_unit_test(test_json_strings),
		cmocka_unit_test(test_text),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
