/*
 * test_opts.c: opts.c against the contract in man/gigebench.1.
 *
 * Tables of command lines: every option with good values (and the struct
 * fields it must set), every valued option with bad values (too small, too
 * large, junk, empty: each an error naming the option and the value), the
 * -t/-r/-S/host combinations, -h and -V, long forms, abbreviations and
 * getopt's own errors.  Last, the help text and the getopt table are held to
 * each other: every option the help lists parses, and every letter it does
 * not list is unknown.  tests/man.sh holds the help text to the man page.
 */

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <sys/socket.h>

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/opts.h"
#include "cli/ttcp_opts.h"
#include "base/params.h"

#define MAXARGS	16

/* The fields a good command line is checked on. */
enum field {
	F_ROLE, F_DIRECTION, F_PORT, F_ONCE, F_FAMILY, F_UNIT, F_VERBOSE,
	F_QUIET, F_JSON, F_BUFLEN, F_NBUF, F_DURATION, F_STREAMS, F_SNDBUF,
	F_RCVBUF, F_MSS, F_NODELAY, F_INTERVAL, F_CAPTURE, F_FORCE_BUFS,
	F_LINK_MBPS, F_MTU, F_REPEAT, F_NAXES, F_ALLOW_MTU, F_TX_PATH,
	F_RX_PATH, F_FQ_RATE, F_TOS, F_AFFINITY_LEN, F_UDP, F_RATE_BPS,
	F_RATE_PPS, F_BATCH, F_OMIT, F_RR, F_REQ, F_RESP, F_BURST,
	F_UNDER_LOAD, F_PROBES, F_PROBE_TOS, F_NPHASES, F_PHASE0, F_PHASE1,
	F_PROBE_RATE, F_PROBE_CRR
};

struct good_case {
	const char	*args[MAXARGS];	/* argv[1]..., NULL-ended */
	enum field	 field;
	uint64_t	 want;
};

struct bad_case {
	const char	*args[MAXARGS];
	const char	*name;		/* the option as typed */
	const char	*value;		/* as the message shows it */
	const char	*msg;		/* the whole message, or NULL */
};

#define K	(UINT64_C(1) << 10)
#define M	(UINT64_C(1) << 20)
#define G	(UINT64_C(1) << 30)

static const struct good_case good_cases[] = {
	{ { "-r", "-1" }, F_ONCE, 1 },
	{ { "-r", "--once" }, F_ONCE, 1 },
	{ { "-t", "h", "-4" }, F_FAMILY, AF_INET },
	{ { "-t", "h", "--ipv4" }, F_FAMILY, AF_INET },
	{ { "-t", "h", "-6" }, F_FAMILY, AF_INET6 },
	{ { "-t", "h", "--ipv6" }, F_FAMILY, AF_INET6 },
	{ { "-t", "h" }, F_FAMILY, AF_UNSPEC },
	{ { "-t", "h", "-b", "768K" }, F_SNDBUF, 768 * K },
	{ { "-t", "h", "-b", "768K" }, F_RCVBUF, 768 * K },
	{ { "-t", "h", "-b", "1K" }, F_SNDBUF, 1 * K },
	{ { "-t", "h", "-b", "1G" }, F_RCVBUF, 1 * G },
	{ { "-t", "h", "--buffer", "2M" }, F_SNDBUF, 2 * M },
	{ { "-t", "h", "--buffer=2M" }, F_RCVBUF, 2 * M },
	{ { "-t", "h", "-w", "768K" }, F_SNDBUF, 768 * K },
	{ { "-t", "h", "-w", "768K" }, F_RCVBUF, 768 * K },
	{ { "-t", "h", "--window", "64K" }, F_RCVBUF, 64 * K },
	{ { "-t", "h", "--sndbuf", "2M" }, F_SNDBUF, 2 * M },
	{ { "-t", "h", "--sndbuf", "2M" }, F_RCVBUF, 0 },
	{ { "-t", "h", "--rcvbuf", "3M" }, F_RCVBUF, 3 * M },
	{ { "-t", "h", "--rcvbuf", "3M" }, F_SNDBUF, 0 },
	{ { "-t", "h", "-C", "bbr" }, F_ROLE, GB_ROLE_CONNECT },
	{ { "-t", "h", "--mtu", "9000" }, F_MTU, 9000 },
	{ { "-t", "h", "--mtu", "1280" }, F_MTU, 1280 },
	{ { "-t", "h", "--repeat", "5" }, F_REPEAT, 5 },
	{ { "-t", "h" }, F_REPEAT, 1 },
	{ { "-t", "h", "--sweep", "mtu=1500,9000" }, F_NAXES, 1 },
	{ { "-t", "h", "--sweep", "mtu=1500,9000", "--sweep", "cc=reno" },
	    F_NAXES, 2 },
	{ { "-r", "--allow-mtu" }, F_ALLOW_MTU, 1 },
	/* data paths, one per end; 0 is the plain one */
	{ { "-t", "h" }, F_TX_PATH, 0 },
	{ { "-t", "h" }, F_RX_PATH, 0 },
	{ { "-t", "h", "-Z" }, F_TX_PATH, GB_PATH_ZEROCOPY },
	{ { "-t", "h", "--zerocopy" }, F_TX_PATH, GB_PATH_ZEROCOPY },
	{ { "-t", "h", "--sendfile" }, F_TX_PATH, GB_PATH_SENDFILE },
	{ { "-t", "h", "--skip-rx-copy" }, F_RX_PATH, GB_PATH_SKIP_RX_COPY },
	{ { "-t", "h", "--splice" }, F_RX_PATH, GB_PATH_SPLICE },
	{ { "-r", "h", "-Z", "--splice" }, F_TX_PATH, GB_PATH_ZEROCOPY },
	{ { "-r", "h", "-Z", "--splice" }, F_RX_PATH, GB_PATH_SPLICE },
	{ { "-t", "h", "--sendfile", "--skip-rx-copy" }, F_RX_PATH,
	    GB_PATH_SKIP_RX_COPY },
	{ { "-tZ", "h" }, F_TX_PATH, GB_PATH_ZEROCOPY },
	/* -Z's exact ring: 4 x 5M per stream, 12 streams within 256 MiB */
	{ { "-t", "h", "-Z", "-l", "5M", "-P", "12" }, F_STREAMS, 12 },
	{ { "-t", "h", "-Z", "-l", "17M", "-P", "15" }, F_STREAMS, 15 },
	/* -A: the list as given, checked */
	{ { "-t", "h" }, F_AFFINITY_LEN, 0 },
	{ { "-t", "h", "-A", "0,1" }, F_AFFINITY_LEN, 3 },
	{ { "-t", "h", "-A", "0-3" }, F_AFFINITY_LEN, 3 },
	{ { "-t", "h", "--affinity", "1023" }, F_AFFINITY_LEN, 4 },
	{ { "-t", "h", "--affinity=0,2-3,0" }, F_AFFINITY_LEN, 7 },
	/* --fq-rate: bits in, bytes/s out */
	{ { "-t", "h" }, F_FQ_RATE, 0 },
	{ { "-t", "h", "--fq-rate", "100m" }, F_FQ_RATE, 12500000 },
	{ { "-t", "h", "--fq-rate", "500M" }, F_FQ_RATE, 62500000 },
	{ { "-t", "h", "--fq-rate", "1g" }, F_FQ_RATE, 125000000 },
	{ { "-t", "h", "--fq-rate", "100" }, F_FQ_RATE, 12500000 },
	{ { "-t", "h", "--fq-rate", "1k" }, F_FQ_RATE, 125 },
	{ { "-t", "h", "--fq-rate=10t" }, F_FQ_RATE, UINT64_C(1250000000000) },
	/* --under-load: a probe, a 3 s --omit, the command's direction */
	{ { "-t", "h" }, F_UNDER_LOAD, 0 },
	{ { "-t", "h" }, F_PROBES, 0 },
	{ { "-t", "h", "--under-load" }, F_UNDER_LOAD, 1 },
	{ { "-t", "h", "--under-load" }, F_PROBES, 1 },
	{ { "-t", "h", "--under-load" }, F_OMIT, 3000 },
	{ { "-t", "h", "--under-load", "--omit", "1" }, F_OMIT, 1000 },
	{ { "-t", "h", "--under-load" }, F_NPHASES, 1 },
	{ { "-t", "h", "--under-load" }, F_PHASE0, GB_PHASE_UPLOAD },
	{ { "-r", "h", "--under-load" }, F_PHASE0, GB_PHASE_DOWNLOAD },
	{ { "-t", "h", "--under-load", "--bidir" }, F_PHASE0, GB_PHASE_BOTH },
	{ { "-t", "h", "--under-load", "--phases", "download,both" },
	    F_NPHASES, 2 },
	{ { "-t", "h", "--under-load", "--phases", "download,both" },
	    F_PHASE0, GB_PHASE_DOWNLOAD },
	{ { "-t", "h", "--under-load", "--phases=both,upload" }, F_PHASE1,
	    GB_PHASE_UPLOAD },
	{ { "-t", "h", "--under-load", "--probes", "16" }, F_PROBES, 16 },
	{ { "-t", "h", "--under-load" }, F_PROBE_RATE, 0 },
	{ { "-t", "h", "--under-load" }, F_PROBE_CRR, 0 },
	{ { "-t", "h", "--under-load", "--probe-crr" }, F_PROBE_CRR, 1 },
	{ { "-t", "h", "--under-load", "--probe-rate", "100" }, F_PROBE_RATE,
	    100 },
	{ { "-t", "h", "--under-load", "--probe-rate", "1000" },
	    F_PROBE_RATE, 1000 },
	{ { "-t", "h", "--under-load", "-u" }, F_OMIT, 0 },	/* no ramp */
	{ { "-t", "h", "--under-load", "-u", "--probe-rate", "50" }, F_UDP,
	    1 },
	{ { "-t", "h", "--under-load", "--probe-tos", "EF" }, F_PROBE_TOS,
	    184 },
	{ { "-t", "h", "--under-load", "--probe-tos", "cs5" }, F_PROBE_TOS,
	    160 },
	{ { "-t", "h", "--under-load", "--probe-tos", "0x88" }, F_PROBE_TOS,
	    136 },
	/* --tos: decimal or 0x */
	{ { "-t", "h" }, F_TOS, 0 },
	{ { "-t", "h", "--tos", "0x10" }, F_TOS, 0x10 },
	{ { "-t", "h", "--tos", "0XfF" }, F_TOS, 255 },
	{ { "-t", "h", "--tos", "184" }, F_TOS, 184 },
	{ { "-t", "h", "--tos", "0" }, F_TOS, 0 },
	{ { "-t", "h", "--tos=010" }, F_TOS, 10 },	/* not octal */
	/* --tos: a DSCP name, any case: DSCP << 2, ECN 0 */
	{ { "-t", "h", "--tos", "EF" }, F_TOS, 184 },
	{ { "-t", "h", "--tos", "ef" }, F_TOS, 184 },
	{ { "-t", "h", "--tos", "CS5" }, F_TOS, 160 },
	{ { "-t", "h", "--tos", "AF41" }, F_TOS, 136 },
	{ { "-t", "h", "--tos", "aF41" }, F_TOS, 136 },
	{ { "-t", "h", "--tos", "LE" }, F_TOS, 4 },
	{ { "-t", "h", "--tos", "VA" }, F_TOS, 176 },
	{ { "-t", "h", "--tos", "cs0" }, F_TOS, 0 },
	{ { "-t", "h", "--tos=CS7" }, F_TOS, 224 },
	{ { "--restore" }, F_ROLE, GB_ROLE_RESTORE },
	{ { "-t", "h" }, F_CAPTURE, 0 },
	{ { "-t", "h", "--capture" }, F_CAPTURE, 1 },
	{ { "-t", "h" }, F_FORCE_BUFS, 0 },
	{ { "-t", "h", "--force-bufs" }, F_FORCE_BUFS, 1 },
	{ { "-t", "h" }, F_LINK_MBPS, 0 },
	{ { "-t", "h", "--link-rate", "1g" }, F_LINK_MBPS, 1000 },
	{ { "-t", "h", "--link-rate", "2500m" }, F_LINK_MBPS, 2500 },
	{ { "-t", "h", "--link-rate", "100" }, F_LINK_MBPS, 100 },
	{ { "-t", "h", "--link-rate=10G" }, F_LINK_MBPS, 10000 },
	{ { "-t", "h", "--link-rate", "10t" }, F_LINK_MBPS, 10000000 },
	{ { "-t", "h", "-b", "1M", "--sndbuf", "2M" }, F_SNDBUF, 2 * M },
	{ { "-t", "h", "-b", "1M", "--sndbuf", "2M" }, F_RCVBUF, 1 * M },
	{ { "-t", "h", "--sndbuf", "2M", "-b", "1M" }, F_SNDBUF, 1 * M },
	{ { "-t", "h" }, F_SNDBUF, 0 },
	{ { "-t", "h", "-D" }, F_NODELAY, 1 },
	{ { "-t", "h", "--nodelay" }, F_NODELAY, 1 },
	{ { "-t", "h" }, F_NODELAY, 0 },
	{ { "-t", "h", "-f", "k" }, F_UNIT, 'k' },
	{ { "-t", "h", "-f", "m" }, F_UNIT, 'm' },
	{ { "-t", "h", "-f", "g" }, F_UNIT, 'g' },
	{ { "-t", "h", "-f", "K" }, F_UNIT, 'K' },
	{ { "-t", "h", "-f", "M" }, F_UNIT, 'M' },
	{ { "-t", "h", "-f", "G" }, F_UNIT, 'G' },
	{ { "-t", "h", "--format", "g" }, F_UNIT, 'g' },
	{ { "-t", "h" }, F_UNIT, 'm' },
	{ { "-t", "h", "-i", "0.1" }, F_INTERVAL, 100 },
	{ { "-t", "h", "-i", "1" }, F_INTERVAL, 1000 },
	{ { "-t", "h", "-i", "10" }, F_INTERVAL, 10000 },	/* = -T */
	{ { "-t", "h", "-i", "3600", "-T", "3600" }, F_INTERVAL, 3600000 },
	{ { "-t", "h", "-i", "2", "-T", "5" }, F_INTERVAL, 2000 },
	{ { "-t", "h", "--interval", "0.5" }, F_INTERVAL, 500 },
	{ { "-t", "h" }, F_INTERVAL, 0 },
	/* --omit: 0.1-600 s, run before -T */
	{ { "-t", "h", "--omit", "2" }, F_OMIT, 2000 },
	{ { "-t", "h", "--omit", "0.1", "-T", "1" }, F_OMIT, 100 },
	{ { "-t", "h", "--omit", "600" }, F_OMIT, 600000 },
	{ { "-t", "h" }, F_OMIT, 0 },
	/* --rr sets -D; its sizes and burst */
	{ { "-t", "h", "--rr" }, F_RR, 1 },
	{ { "-t", "h", "--rr" }, F_NODELAY, 1 },
	{ { "-t", "h" }, F_RR, 0 },
	{ { "-t", "h", "--rr", "--request-size", "64K" }, F_REQ, 65536 },
	{ { "-t", "h", "--rr", "--response-size", "1M" }, F_RESP, 1048576 },
	{ { "-t", "h", "--rr", "--rr-burst", "16" }, F_BURST, 16 },
	{ { "-t", "h", "--rr" }, F_BURST, 0 },
	/* --rr sweeps, repeats and writes a CSV like any test */
	{ { "-t", "h", "--rr", "--sweep", "request-size=1,64,1K", "--sweep",
	    "burst=1,2" }, F_NAXES, 2 },
	{ { "-t", "h", "--rr", "--sweep", "response-size=1,2",
	    "--allow-reverse" }, F_NAXES, 1 },
	{ { "-t", "h", "--rr", "--repeat", "3", "--csv", "x.csv" }, F_REPEAT,
	    3 },
	{ { "-r", "-J" }, F_JSON, 1 },
	{ { "-r", "--json" }, F_JSON, 1 },
	{ { "-t", "h", "-l", "1" }, F_BUFLEN, 1 },
	{ { "-t", "h", "-l", "64K" }, F_BUFLEN, 64 * K },
	{ { "-t", "h", "-l", "64k" }, F_BUFLEN, 64 * K },
	{ { "-t", "h", "-l", "8192" }, F_BUFLEN, 8192 },
	{ { "-t", "h", "-l", "64M" }, F_BUFLEN, 64 * M },
	{ { "-t", "h", "--length", "1m" }, F_BUFLEN, 1 * M },
	{ { "-t", "h", "--len=1m" }, F_BUFLEN, 1 * M },	/* abbreviated */
	{ { "-t", "h", "-l64K" }, F_BUFLEN, 64 * K },	/* attached */
	{ { "-t", "h" }, F_BUFLEN, 1 * M },
	{ { "-t", "h", "-M", "88" }, F_MSS, 88 },
	{ { "-t", "h", "-M", "1460" }, F_MSS, 1460 },
	{ { "-t", "h", "-M", "65535" }, F_MSS, 65535 },
	{ { "-t", "h", "--mss", "8948" }, F_MSS, 8948 },
	{ { "-t", "h" }, F_MSS, 0 },
	{ { "-t", "h", "-n", "1" }, F_NBUF, 1 },
	{ { "-t", "h", "-n", "1099511627776" }, F_NBUF, UINT64_C(1) << 40 },
	{ { "-t", "h", "--count", "2048" }, F_NBUF, 2048 },
	{ { "-t", "h" }, F_NBUF, 0 },
	/* ttcp's -n alone runs to the count; with -T, first limit wins */
	{ { "-t", "h", "-n", "2048" }, F_DURATION, GB_MAX_DURATION_MS },
	{ { "-t", "h", "-n", "2048", "-T", "5" }, F_DURATION, 5000 },
	{ { "-t", "h", "-T", "5", "-n", "2048" }, F_DURATION, 5000 },
	{ { "-t", "h", "-P", "1" }, F_STREAMS, 1 },
	{ { "-t", "h", "-P", "128" }, F_STREAMS, 128 },
	{ { "-t", "h", "--parallel", "4" }, F_STREAMS, 4 },
	{ { "-t", "h" }, F_STREAMS, 1 },
	{ { "-t", "h", "-p", "1" }, F_PORT, 1 },
	{ { "-t", "h", "-p", "65535" }, F_PORT, 65535 },
	{ { "-r", "--port", "80" }, F_PORT, 80 },
	{ { "-r" }, F_PORT, GB_DEFAULT_PORT },
	{ { "-r", "-q" }, F_QUIET, 1 },
	{ { "-r", "--quiet" }, F_QUIET, 1 },
	{ { "-r", "-s" }, F_ROLE, GB_ROLE_LISTEN },	/* ignored */
	{ { "-r", "--sink" }, F_ROLE, GB_ROLE_LISTEN },
	{ { "-t", "h", "-T", "0.1" }, F_DURATION, 100 },
	{ { "-t", "h", "-T", "2.5" }, F_DURATION, 2500 },
	{ { "-t", "h", "-T", "60" }, F_DURATION, 60000 },
	{ { "-t", "h", "-T", "86400" }, F_DURATION, 86400000 },
	{ { "-t", "h", "--time", "3" }, F_DURATION, 3000 },
	{ { "-t", "h" }, F_DURATION, GB_DEFAULT_DURATION_MS },
	{ { "-t", "h", "-v" }, F_VERBOSE, 1 },
	{ { "-t", "h", "-vv" }, F_VERBOSE, 2 },
	{ { "-t", "h", "-v", "--verbose", "-v" }, F_VERBOSE, 3 },
	{ { "-t", "h" }, F_VERBOSE, 0 },
	/* ttcp's own habit: flags in one cluster */
	{ { "-tsD", "h" }, F_NODELAY, 1 },
	{ { "-rs1" }, F_ONCE, 1 },
	/*
	 * -u: without -l each datagram fills the path MTU (0, read after
	 * connect); without -R, 10 Mbit/s; -R 0 is unpaced, both rates 0;
	 * the last -R wins whichever unit each is in; --batch 0 in the
	 * struct is the default (32, the stream's).
	 */
	{ { "-t", "h" }, F_UDP, 0 },
	{ { "-t", "h", "-u" }, F_UDP, 1 },
	{ { "-t", "h", "--udp" }, F_UDP, 1 },
	{ { "-r", "h", "-u" }, F_UDP, 1 },
	{ { "-r", "h", "-u" }, F_DIRECTION, GB_DIR_CLIENT_RECEIVES },
	{ { "-tu", "h" }, F_UDP, 1 },
	{ { "-t", "h", "-u" }, F_BUFLEN, GB_DGRAM_FROM_MTU },
	{ { "-t", "h", "-u" }, F_BUFLEN, 0 },
	{ { "-t", "h", "-u", "-l", "1400" }, F_BUFLEN, 1400 },
	{ { "-t", "h", "-l", "1400", "-u" }, F_BUFLEN, 1400 },
	{ { "-t", "h", "-u", "-l", "40" }, F_BUFLEN, 40 },
	{ { "-t", "h", "-u", "-l", "65507" }, F_BUFLEN, 65507 },
	{ { "-t", "h", "-u", "-l", "1k" }, F_BUFLEN, 1024 },
	{ { "-t", "h", "-u" }, F_RATE_BPS, 10000000 },
	{ { "-t", "h", "-u" }, F_RATE_BPS, GB_DEFAULT_UDP_BPS },
	{ { "-t", "h", "-u" }, F_RATE_PPS, 0 },
	{ { "-t", "h" }, F_RATE_BPS, 0 },	/* TCP: no rate */
	{ { "-t", "h", "-u", "-R", "0" }, F_RATE_BPS, 0 },
	{ { "-t", "h", "-u", "-R", "0" }, F_RATE_PPS, 0 },
	{ { "-t", "h", "-u", "-R", "100kp" }, F_RATE_PPS, 100000 },
	{ { "-t", "h", "-u", "-R", "100kp" }, F_RATE_BPS, 0 },
	{ { "-t", "h", "-u", "-R", "5000p" }, F_RATE_PPS, 5000 },
	{ { "-t", "h", "-u", "-R", "20m" }, F_RATE_BPS, 20000000 },
	{ { "-t", "h", "-u", "-R", "20m" }, F_RATE_PPS, 0 },
	{ { "-t", "h", "-u", "--rate", "2.5g" }, F_RATE_BPS, 2500000000u },
	{ { "-t", "h", "-u", "--rate=1k" }, F_RATE_BPS, 1000 },
	{ { "-t", "h", "-u", "-R", "20m", "-R", "100kp" }, F_RATE_PPS,
	    100000 },
	{ { "-t", "h", "-u", "-R", "20m", "-R", "100kp" }, F_RATE_BPS, 0 },
	{ { "-t", "h", "-u", "-R", "100kp", "-R", "20m" }, F_RATE_PPS, 0 },
	{ { "-t", "h", "-u", "-R", "100kp", "-R", "0" }, F_RATE_PPS, 0 },
	{ { "-t", "h", "-u" }, F_BATCH, 0 },
	{ { "-t", "h", "-u", "--batch", "1" }, F_BATCH, 1 },
	{ { "-t", "h", "-u", "--batch", "64" }, F_BATCH, 64 },
	{ { "-t", "h", "-u", "--batch=1024" }, F_BATCH, GB_MAX_BATCH },
	{ { "-t", "h", "-u", "-n", "500" }, F_NBUF, 500 },
	{ { "-t", "h", "-u", "-P", "4" }, F_STREAMS, 4 },
	/* listener: accepted, no effect there, but still parsed */
	{ { "-r", "-P", "4", "-l", "1M" }, F_STREAMS, 4 },
	{ { "-S", "-T", "3" }, F_DURATION, 3000 },
};

/* --tos's one message for every bad value, less the value. */
#define TOS_BAD	"--tos: TOS is not 0-255, 0x00-0xff or a DSCP name (EF, " \
	"CS0-CS7, AF11-AF43, VA, LE): "

static const struct bad_case bad_cases[] = {
	/* the shapes promised in the man page, word for word */
	{ { "-t", "h", "-l", "9G" }, "-l", "9G",
	    "-l: buffer length is too large (max 64M): 9G" },
	{ { "-t", "h", "-P", "0" }, "-P", "0",
	    "-P: number of flows is out of range (1-10000): 0" },
	{ { "-t", "h", "-f", "x" }, "-f", "x",
	    "-f: unknown rate unit (k, m, g, K, M, G): x" },
	{ { "--frobnicate" }, "--frobnicate", "",
	    "unknown option: --frobnicate" },
	/* -B */
	{ { "-t", "h", "-B", "" }, "-B", "\"\"", NULL },
	/* -b, -w, --buffer, --window: 1K-1G */
	{ { "-t", "h", "-b", "1023" }, "-b", "1023",
	    "-b: socket buffer size is too small (min 1K): 1023" },
	{ { "-t", "h", "-b", "1025M" }, "-b", "1025M",
	    "-b: socket buffer size is too large (max 1G): 1025M" },
	{ { "-t", "h", "-b", "99999999999G" }, "-b", "99999999999G", NULL },
	{ { "-t", "h", "-b", "big" }, "-b", "big", NULL },
	{ { "-t", "h", "-b", "" }, "-b", "\"\"", NULL },
	{ { "-t", "h", "-w", "512" }, "-w", "512", NULL },
	{ { "-t", "h", "-w", "2G" }, "-w", "2G", NULL },
	{ { "-t", "h", "--window", "1e3" }, "--window", "1e3", NULL },
	{ { "-t", "h", "--buffer", "-1" }, "--buffer", "-1", NULL },
	/* --sndbuf, --rcvbuf */
	{ { "-t", "h", "--sndbuf", "512" }, "--sndbuf", "512",
	    "--sndbuf: send buffer size is too small (min 1K): 512" },
	{ { "-t", "h", "--sndbuf", "2G" }, "--sndbuf", "2G", NULL },
	{ { "-t", "h", "--sndbuf", "1KB" }, "--sndbuf", "1KB", NULL },
	{ { "-t", "h", "--sndbuf", "" }, "--sndbuf", "\"\"", NULL },
	{ { "-t", "h", "--rcvbuf", "512" }, "--rcvbuf", "512",
	    "--rcvbuf: receive buffer size is too small (min 1K): 512" },
	{ { "-t", "h", "--rcvbuf", "2G" }, "--rcvbuf", "2G", NULL },
	{ { "-t", "h", "--link-rate", "0" }, "--link-rate", "0", NULL },
	{ { "-t", "h", "--link-rate", "11t" }, "--link-rate", "11t", NULL },
	{ { "-t", "h", "--link-rate", "1.5g" }, "--link-rate", "1.5g", NULL },
	{ { "-t", "h", "--link-rate", "1gb" }, "--link-rate", "1gb", NULL },
	{ { "-t", "h", "--link-rate", "-1g" }, "--link-rate", "-1g", NULL },
	{ { "-t", "h", "--link-rate", "99999999999999999999" }, "--link-rate",
	    "99999999999999999999", NULL },
	{ { "-t", "h", "--link-rate=" }, "--link-rate", "\"\"", NULL },
	{ { "-t", "h", "--capture=1" }, "--capture", "1", NULL },
	{ { "-t", "h", "--mtu", "1279" }, "--mtu", "1279", NULL },
	{ { "-t", "h", "--mtu", "65536" }, "--mtu", "65536", NULL },
	{ { "-t", "h", "--repeat", "0" }, "--repeat", "0", NULL },
	{ { "-t", "h", "--repeat", "1001" }, "--repeat", "1001", NULL },
	{ { "-t", "h", "-C", "a/b" }, "-C", "a/b", NULL },
	{ { "-t", "h", "-C", "averyveryverylongname" }, "-C",
	    "averyveryverylongname", NULL },
	{ { "-t", "h", "--confidence", "95" }, "--confidence", "95", NULL },
	{ { "-t", "h", "--confidence", "80,5" }, "--confidence", "80,5",
	    NULL },
	{ { "-t", "h", "--confidence", "95,0" }, "--confidence", "95,0",
	    NULL },
	{ { "-t", "h", "--confidence", "95,51" }, "--confidence", "95,51",
	    NULL },
	{ { "-t", "h", "--confidence", "95,2x" }, "--confidence", "95,2x",
	    NULL },
	{ { "-t", "h", "--sweep", "mtu=900" }, "--sweep", "900", NULL },
	{ { "-t", "h", "--sweep", "foo=1" }, "--sweep", "foo", NULL },
	{ { "-t", "h", "--mtu", "9000", "--sweep", "mtu=1500" }, "--mtu",
	    "--sweep", NULL },
	{ { "-t", "h", "-C", "reno", "--sweep", "cc=bbr" }, "-C", "--sweep",
	    NULL },
	{ { "--restore", "-t", "h" }, "--restore", "--restore", NULL },
	/* the listener's memory, -Z's ring as the sender allocates it */
	{ { "-t", "h", "-Z", "-l", "5M", "-P", "13" }, "13", "20971520",
	    "streams x buffer memory is over the limit of 256 MiB: 13 x "
	    "20971520 bytes (with -Z's ring)" },
	{ { "-t", "h", "-Z", "-l", "4M", "-P", "9" }, "9", "33554432",
	    "streams x buffer memory is over the limit of 256 MiB: 9 x "
	    "33554432 bytes (with -Z's ring)" },
	{ { "-t", "h", "-l", "64M", "-P", "5" }, "5", "67108864",
	    "streams x buffer memory is over the limit of 256 MiB: 5 x "
	    "67108864 bytes" },
	/* one data path per end */
	{ { "-t", "h", "-Z", "--sendfile" }, "--sendfile", "-Z",
	    "--sendfile: cannot be used with -Z" },
	{ { "-t", "h", "--sendfile", "--zerocopy" }, "--sendfile", "-Z",
	    NULL },
	{ { "-t", "h", "--splice", "--skip-rx-copy" }, "--splice",
	    "--skip-rx-copy", "--splice: cannot be used with --skip-rx-copy" },
	{ { "-t", "h", "-Z=1" }, "-=", "", NULL },
	{ { "-t", "h", "--splice=yes" }, "--splice", "--splice=yes", NULL },
	/* -A */
	{ { "-t", "h", "-A", "" }, "-A", "\"\"",
	    "-A: CPU list is empty: \"\"" },
	{ { "-t", "h", "-A", "x" }, "-A", "x",
	    "-A: CPU list is not like 0,2 or 0-3: x" },
	{ { "-t", "h", "-A", "3-1" }, "-A", "3-1",
	    "-A: CPU range is backwards: 3-1" },
	{ { "-t", "h", "-A", "1024" }, "-A", "1024",
	    "-A: CPU number is too large (max 1023): 1024" },
	{ { "-t", "h", "-A", "0,99999999999" }, "-A", "0,99999999999", NULL },
	{ { "-t", "h", "-A", "0," }, "-A", "0,", NULL },
	{ { "-t", "h", "-A", ",0" }, "-A", ",0", NULL },
	{ { "-t", "h", "-A", "0-" }, "-A", "0-", NULL },
	{ { "-t", "h", "-A", "0 1" }, "-A", "0 1", NULL },
	{ { "-t", "h", "-A", "-1" }, "-A", "-1", NULL },
	{ { "-t", "h", "-A", "0:2" }, "-A", "0:2", NULL },
	{ { "-t", "h", "--affinity",
	    "0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,"
	    "24,25,26,27,28,29,30,31,32,33,34,35,36,37,38,39,40,41,42,43,"
	    "44,45,46,47,48,49,50,51,52,53,54,55,56,57,58,59,60,61,62,63" },
	    "--affinity", "CPU list is too long (max 127 characters): 0,1,2",
	    NULL },
	{ { "-t", "h", "-A" }, "-A", "", "-A: missing value" },
	/* --fq-rate: 1k-10t */
	{ { "-t", "h", "--fq-rate", "0" }, "--fq-rate", "0",
	    "--fq-rate: pacing rate is out of range (1k-10t): 0" },
	{ { "-t", "h", "--fq-rate", "11t" }, "--fq-rate", "11t", NULL },
	{ { "-t", "h", "--fq-rate", "1.5g" }, "--fq-rate", "1.5g",
	    "--fq-rate: pacing rate is not a rate (like 500m, 1g; bare: "
	    "Mbit/s): 1.5g" },
	{ { "-t", "h", "--fq-rate", "1gb" }, "--fq-rate", "1gb", NULL },
	{ { "-t", "h", "--fq-rate", "1x" }, "--fq-rate", "1x", NULL },
	{ { "-t", "h", "--fq-rate", "-1m" }, "--fq-rate", "-1m", NULL },
	{ { "-t", "h", "--fq-rate", "99999999999999999999m" }, "--fq-rate",
	    "99999999999999999999m", NULL },
	{ { "-t", "h", "--fq-rate=" }, "--fq-rate", "\"\"", NULL },
	/* --tos: 0-255, 0x00-0xff or a DSCP name, one message */
	{ { "-t", "h", "--tos", "256" }, "--tos", "256",
	    TOS_BAD "256" },
	{ { "-t", "h", "--tos", "0x100" }, "--tos", "0x100", NULL },
	{ { "-t", "h", "--tos", "0x" }, "--tos", "0x", NULL },
	{ { "-t", "h", "--tos", "0x1g" }, "--tos", "0x1g", NULL },
	{ { "-t", "h", "--tos", "-1" }, "--tos", "-1", NULL },
	{ { "-t", "h", "--tos", "lowdelay" }, "--tos", "lowdelay", NULL },
	{ { "-t", "h", "--tos", "0x10000000000000000010" }, "--tos",
	    "0x10000000000000000010", NULL },
	{ { "-t", "h", "--tos", "" }, "--tos", "\"\"", TOS_BAD "\"\"" },
	{ { "-t", "h", "--tos", "AF44" }, "--tos", "AF44", TOS_BAD "AF44" },
	/* --under-load and its options */
	{ { "-t", "h", "--probes", "2" }, "--probes", "",
	    "--probes: needs --under-load" },
	{ { "-t", "h", "--probe-tos", "EF" }, "--probe-tos", "",
	    "--probe-tos: needs --under-load" },
	{ { "-t", "h", "--phases", "upload" }, "--phases", "",
	    "--phases: needs --under-load" },
	{ { "-t", "h", "--under-load", "--probes", "17" }, "--probes", "17",
	    "--probes: number of probes is out of range (1-16): 17" },
	{ { "-t", "h", "--under-load", "--probe-tos", "AF44" },
	    "--probe-tos", "AF44", "--probe-tos: TOS is not 0-255, "
	    "0x00-0xff or a DSCP name (EF, CS0-CS7, AF11-AF43, VA, LE): AF44" },
	{ { "-t", "h", "--under-load", "--phases", "up" }, "--phases", "up",
	    "--phases: phases are a list of upload, download and both: up" },
	{ { "-t", "h", "--under-load", "--phases", "upload," }, "--phases",
	    "upload,", NULL },
	{ { "-t", "h", "--under-load", "--phases", "" }, "--phases", "\"\"",
	    NULL },
	{ { "-t", "h", "--under-load", "--phases", "both,upload,both" },
	    "--phases", "both,upload,both", "--phases: phase both is in the "
	    "list twice: both,upload,both" },
	{ { "-t", "h", "--under-load", "--sweep", "mtu=1500,9000" },
	    "--under-load", "", "--under-load: cannot be used with --sweep" },
	{ { "-t", "h", "--under-load", "--repeat", "2" }, "--under-load",
	    "", "--under-load: cannot be used with --repeat" },
	{ { "-t", "h", "--under-load", "-i", "1" }, "--under-load", "",
	    "--under-load: cannot be used with -i in this version" },
	{ { "-t", "h", "--under-load", "-u", "--omit", "1" }, "--under-load",
	    "", "--under-load: phase upload: --omit needs a timed TCP test "
	    "(no -n, no -u)" },
	{ { "-t", "h", "--probe-rate", "100" }, "--probe-rate", "",
	    "--probe-rate: needs --under-load" },
	{ { "-t", "h", "--probe-crr" }, "--probe-crr", "",
	    "--probe-crr: needs --under-load" },
	{ { "-t", "h", "--under-load", "--probe-crr", "--probe-rate", "10" },
	    "--under-load", "", "--under-load: phase upload: probes "
	    "(--under-load) cannot be used with both --probe-rate (UDP) and "
	    "--probe-crr (TCP)" },
	{ { "-t", "h", "--under-load", "--probe-rate", "0" }, "--probe-rate",
	    "0", "--probe-rate: probe rate is out of range (1-1000): 0" },
	{ { "-t", "h", "--under-load", "--probe-rate", "1001" },
	    "--probe-rate", "1001", NULL },
	{ { "-t", "h", "--under-load", "--probe-rate", "10/s" },
	    "--probe-rate", "10/s", NULL },
	{ { "-t", "h", "--under-load", "--rr" }, "--under-load", "",
	    "--under-load: phase upload: probes (--under-load) cannot be used "
	    "with --rr or --crr (the load is a stream)" },
	{ { "-t", "h", "--under-load", "-n", "10" }, "--under-load", "",
	    NULL },
	{ { "-t", "h", "--tos", "CS8" }, "--tos", "CS8", TOS_BAD "CS8" },
	{ { "-t", "h", "--tos", "E F" }, "--tos", "E F", TOS_BAD "E F" },
	{ { "-t", "h", "--tos", "EF " }, "--tos", "EF ", NULL },
	{ { "-t", "h", "--tos", "EFX" }, "--tos", "EFX", NULL },
	{ { "-t", "h", "--tos", "AF4" }, "--tos", "AF4", NULL },
	{ { "-t", "h", "--tos", "CS" }, "--tos", "CS", NULL },
	{ { "-t", "h", "--tos", "foo" }, "--tos", "foo", TOS_BAD "foo" },
	{ { "-t", "h", "--csv", "" }, "--csv", "\"\"", NULL },
	{ { "-t", "h", "--rcvbuf", "x" }, "--rcvbuf", "x", NULL },
	{ { "-t", "h", "--rcvbuf=" }, "--rcvbuf", "\"\"", NULL },
	/* -f */
	{ { "-t", "h", "-f", "" }, "-f", "\"\"", NULL },
	{ { "-t", "h", "-f", "mm" }, "-f", "mm", NULL },
	{ { "-t", "h", "-f", "b" }, "-f", "b", NULL },
	{ { "-t", "h", "--format", "T" }, "--format", "T", NULL },
	/* -I */
	{ { "-t", "h", "-I", "" }, "-I", "\"\"", NULL },
	{ { "-t", "h", "-I", "abcdefghijklmnop" }, "-I", "abcdefghijklmnop",
	    "-I: interface name is too long (max 15 characters): "
	    "abcdefghijklmnop" },
	{ { "-t", "h", "-I", "." }, "-I", ".", NULL },
	{ { "-t", "h", "-I", ".." }, "-I", "..", NULL },
	{ { "-t", "h", "-I", "../../etc" }, "-I", "../../etc",
	    "-I: interface name is invalid: ../../etc" },
	{ { "-t", "h", "-I", "eth0:1" }, "-I", "eth0:1", NULL },
	{ { "-t", "h", "-I", "eth 0" }, "-I", "eth 0", NULL },
	{ { "-t", "h", "--interface", "a/b" }, "--interface", "a/b", NULL },
	/* --rr: TCP, the connecting side asking, one test of -T */
	{ { "-t", "h", "--rr", "-u", "--request-size", "39" }, "", "",
	    "request size is out of range for -u --rr (40-65507 bytes: one "
	    "datagram with gigebench's 40-byte header): 39" },
	{ { "-t", "h", "--rr", "-u", "--response-size", "65508" }, "", "",
	    "response size is out of range for -u --rr (40-65507 bytes: one "
	    "datagram with gigebench's 40-byte header): 65508" },
	{ { "-t", "h", "--rr", "-u", "-R", "1m" }, "", "",
	    "--rr cannot be used with -R, --batch, --gso or --gro (a request "
	    "waits for its answer)" },
	{ { "-t", "h", "--rr", "--rr-timeout", "10" }, "--rr-timeout", "",
	    "--rr-timeout: needs -u --rr" },
	{ { "-t", "h", "-u", "--rr-timeout", "10" }, "--rr-timeout", "",
	    "--rr-timeout: needs -u --rr" },
	{ { "-r", "h", "--rr" }, "", "",
	    "--rr cannot be used with -r (the connecting side asks)" },
	{ { "-t", "h", "--rr", "--request-size", "0" }, "--request-size", "0",
	    "--request-size: request size is too small (min 1): 0" },
	{ { "-t", "h", "--rr", "--response-size", "2M" }, "--response-size",
	    "2M", NULL },
	{ { "-t", "h", "--rr", "--rr-burst", "1025" }, "--rr-burst", "1025",
	    NULL },
	{ { "-t", "h", "--rr-burst", "2" }, "--rr-burst", "",
	    "--rr-burst: needs --rr" },
	{ { "-t", "h", "--sweep", "burst=1,2" }, "--sweep burst=", "",
	    "--sweep burst=: needs --rr" },
	{ { "-t", "h", "--sweep", "request-size=1,2" }, "--sweep request-size=",
	    "", "--sweep request-size=: needs --rr" },
	{ { "-t", "h", "--rr", "--sweep", "length=1,2" }, "--sweep length=", "",
	    "--sweep length=: is not for --rr (sweep request-size=, "
	    "response-size= or burst=)" },
	{ { "-t", "h", "--rr", "--sweep", "burst=1,512", "--request-size",
	    "1K" }, "", "", "--sweep point 2 (burst=512): --rr-burst 512 of "
	    "1024-byte requests and 1-byte answers keeps more than 128 KiB in "
	    "flight: both ends could block sending" },
	/* --json-stream follows one test */
	{ { "-t", "h", "--json-stream", "--repeat", "2" }, "--json-stream", "",
	    "--json-stream: follows one test: a sweep, --repeat, --confidence, "
	    "--csv or --plot runs many (their --json has every run)" },
	{ { "-t", "h", "--json-stream", "--sweep", "streams=1,2" },
	    "--json-stream", "", NULL },
	/* --omit: a timed TCP test, 0.1-600 s, with -T within a day */
	{ { "-t", "h", "--omit", "0.05" }, "--omit", "0.05",
	    "--omit: omitted time is out of range (0.1-600): 0.05" },
	{ { "-t", "h", "--omit", "601" }, "--omit", "601", NULL },
	{ { "-t", "h", "--omit", "x" }, "--omit", "x", NULL },
	{ { "-t", "h", "-u", "--omit", "1" }, "", "",
	    "--omit needs a timed TCP test (no -n, no -u)" },
	{ { "-t", "h", "-n", "100", "--omit", "1" }, "", "",
	    "--omit needs a timed TCP test (no -n)" },
	{ { "-t", "h", "-T", "86400", "--omit", "1" }, "", "",
	    "--omit and -T are more than 86400 s together: 86401 s" },
	/* -i: 0.1-3600 and not past -T */
	{ { "-t", "h", "-i", "0.09" }, "-i", "0.09",
	    "-i: report interval is out of range (0.1-3600): 0.09" },
	{ { "-t", "h", "-T", "86400", "-i", "3600.001" }, "-i", "3600.001",
	    NULL },
	{ { "-t", "h", "-i", "x" }, "-i", "x", NULL },
	{ { "-t", "h", "-i", "" }, "-i", "\"\"", NULL },
	{ { "-t", "h", "-i", "0" }, "-i", "0", NULL },
	{ { "-t", "h", "-i", "20" }, "-i", "20",
	    "-i: report interval is longer than the test (-T 10): 20" },
	{ { "-t", "h", "-i", "5", "-T", "2.5" }, "-i", "5",
	    "-i: report interval is longer than the test (-T 2.5): 5" },
	{ { "-t", "h", "-T", "1", "--interval", "1.001" }, "-i", "1.001",
	    NULL },
	/* -l: 1-64M */
	{ { "-t", "h", "-l", "0" }, "-l", "0",
	    "-l: buffer length is too small (min 1): 0" },
	{ { "-t", "h", "-l", "67108865" }, "-l", "67108865", NULL },
	{ { "-t", "h", "-l", "65M" }, "-l", "65M", NULL },
	{ { "-t", "h", "-l", "99999999999G" }, "-l", "99999999999G", NULL },
	{ { "-t", "h", "-l", "18446744073709551616" }, "-l",
	    "18446744073709551616", NULL },
	{ { "-t", "h", "-l", "12Q" }, "-l", "12Q",
	    "-l: buffer length is not a size (like 1000, 64K, 1M, 1G): 12Q" },
	{ { "-t", "h", "-l", "1e3" }, "-l", "1e3", NULL },
	{ { "-t", "h", "-l", "-5" }, "-l", "-5", NULL },
	{ { "-t", "h", "-l", "" }, "-l", "\"\"",
	    "-l: buffer length is empty: \"\"" },
	{ { "-t", "h", "--length", "9G" }, "--length", "9G",
	    "--length: buffer length is too large (max 64M): 9G" },
	{ { "-t", "h", "--len=9G" }, "--length", "9G", NULL },
	/* -M: 88-65535 */
	{ { "-t", "h", "-M", "87" }, "-M", "87",
	    "-M: MSS is out of range (88-65535): 87" },
	{ { "-t", "h", "-M", "65536" }, "-M", "65536", NULL },
	{ { "-t", "h", "-M", "1460B" }, "-M", "1460B", NULL },
	{ { "-t", "h", "-M", "" }, "-M", "\"\"", NULL },
	{ { "-t", "h", "--mss", "0" }, "--mss", "0", NULL },
	/* -n: 1-2^40 */
	{ { "-t", "h", "-n", "0" }, "-n", "0",
	    "-n: buffer count is out of range (1-1099511627776): 0" },
	{ { "-t", "h", "-n", "1099511627777" }, "-n", "1099511627777", NULL },
	{ { "-t", "h", "-n", "99999999999999999999" }, "-n",
	    "99999999999999999999", NULL },
	{ { "-t", "h", "-n", "many" }, "-n", "many", NULL },
	{ { "-t", "h", "-n", "" }, "-n", "\"\"", NULL },
	{ { "-t", "h", "--count", "-3" }, "--count", "-3", NULL },
	/* -P: 1-10000; -Z's rings, one a flow, within the memory bound */
	{ { "-t", "h", "-P", "10001" }, "-P", "10001", NULL },
	{ { "-t", "h", "-Z", "-P", "129" }, "-Z", "129", NULL },
	{ { "-t", "h", "--threads", "1025" }, "--threads", "1025", NULL },
	{ { "-t", "h", "-P", "4x" }, "-P", "4x", NULL },
	{ { "-t", "h", "-P", "" }, "-P", "\"\"", NULL },
	{ { "-t", "h", "--parallel", "-1" }, "--parallel", "-1", NULL },
	/* -p: 1-65535 */
	{ { "-t", "h", "-p", "0" }, "-p", "0",
	    "-p: port is out of range (1-65535): 0" },
	{ { "-t", "h", "-p", "65536" }, "-p", "65536", NULL },
	{ { "-t", "h", "-p", "http" }, "-p", "http", NULL },
	{ { "-t", "h", "-p", "" }, "-p", "\"\"", NULL },
	{ { "-r", "--port", "99999" }, "--port", "99999", NULL },
	/* -T: 0.1-86400 */
	{ { "-t", "h", "-T", "0.09" }, "-T", "0.09",
	    "-T: test duration is out of range (0.1-86400): 0.09" },
	{ { "-t", "h", "-T", "0" }, "-T", "0", NULL },
	{ { "-t", "h", "-T", "86400.001" }, "-T", "86400.001", NULL },
	{ { "-t", "h", "-T", "1e3" }, "-T", "1e3", NULL },
	{ { "-t", "h", "-T", "ten" }, "-T", "ten", NULL },
	{ { "-t", "h", "-T", "" }, "-T", "\"\"", NULL },
	{ { "-t", "h", "--time", "-1" }, "--time", "-1", NULL },
	/* -u: the TCP-only options, -R and --batch without it, -l, --batch */
	{ { "-t", "h", "-u", "-M", "1000" }, "-M", "",
	    "-M: is for TCP tests, not with -u" },
	{ { "-t", "h", "-u", "-D" }, "-D", "",
	    "-D: is for TCP tests, not with -u" },
	{ { "-t", "h", "-u", "-C", "cubic" }, "-C", "",
	    "-C: is for TCP tests, not with -u" },
	{ { "-t", "h", "-u", "-Z" }, "-Z", "",
	    "-Z: is for TCP tests, not with -u" },
	{ { "-t", "h", "-u", "--sendfile" }, "--sendfile", "",
	    "--sendfile: is for TCP tests, not with -u" },
	{ { "-t", "h", "-u", "--splice" }, "--splice", "",
	    "--splice: is for TCP tests, not with -u" },
	{ { "-t", "h", "-u", "--skip-rx-copy" }, "--skip-rx-copy", "",
	    "--skip-rx-copy: is for TCP tests, not with -u" },
	{ { "-t", "h", "-R", "1m" }, "-R", "",
	    "-R: is for UDP tests: add -u" },
	{ { "-t", "h", "--batch", "4" }, "--batch", "",
	    "--batch: is for UDP tests: add -u" },
	{ { "-r", "-u" }, "-u", "",
	    "-u: only a client takes it (a listener serves TCP and UDP "
	    "tests)" },
	{ { "-t", "h", "-u", "-l", "39" }, "length", "39",
	    "datagram length is out of range (40-65507 bytes): 39" },
	{ { "-t", "h", "-u", "-l", "65508" }, "length", "65508", NULL },
	{ { "-t", "h", "-u", "--batch", "0" }, "--batch", "0",
	    "--batch: batch is out of range (1-1024): 0" },
	{ { "-t", "h", "-u", "--batch", "1025" }, "--batch", "1025", NULL },
	{ { "-t", "h", "-u", "-R", "" }, "-R", "\"\"", NULL },
	{ { "-t", "h", "-u", "-R", "fast" }, "-R", "fast", NULL },
	/* getopt's own errors */
	{ { "-t", "h", "-x" }, "-x", "",
	    "unknown option: -x" },
	{ { "-t", "h", "-vx" }, "-x", "", NULL },
	{ { "-t", "h", "-l" }, "-l", "", "-l: missing value" },
	{ { "-t", "h", "--length" }, "--length", "",
	    "--length: missing value" },
	{ { "-r", "--once=3" }, "--once", "--once=3",
	    "--once: takes no value: --once=3" },
	{ { "-r", "--ver" }, "--ver", "",
	    "ambiguous option (--verbose, --version): --ver" },
	{ { "-r", "--s" }, "--s", "--sndbuf", NULL },
};

/* Role, direction and host for each way of naming the sides. */
struct role_case {
	const char	*args[MAXARGS];
	int		 rv;
	int		 role;
	int		 direction;
	const char	*host;
	const char	*msg;		/* when rv == OPTS_ERROR */
};

static const struct role_case role_cases[] = {
	{ { "-r" }, OPTS_OK, GB_ROLE_LISTEN, GB_DIR_CLIENT_SENDS, NULL, NULL },
	{ { "-S" }, OPTS_OK, GB_ROLE_LISTEN, GB_DIR_CLIENT_SENDS, NULL, NULL },
	{ { "-r", "-S" }, OPTS_OK, GB_ROLE_LISTEN, GB_DIR_CLIENT_SENDS,
	    NULL, NULL },
	{ { "--receive" }, OPTS_OK, GB_ROLE_LISTEN, GB_DIR_CLIENT_SENDS,
	    NULL, NULL },
	{ { "--server" }, OPTS_OK, GB_ROLE_LISTEN, GB_DIR_CLIENT_SENDS,
	    NULL, NULL },
	{ { "-t", "hostB" }, OPTS_OK, GB_ROLE_CONNECT, GB_DIR_CLIENT_SENDS,
	    "hostB", NULL },
	{ { "--transmit", "hostB" }, OPTS_OK, GB_ROLE_CONNECT,
	    GB_DIR_CLIENT_SENDS, "hostB", NULL },
	{ { "hostB", "-t" }, OPTS_OK, GB_ROLE_CONNECT, GB_DIR_CLIENT_SENDS,
	    "hostB", NULL },
	{ { "-t", "127.0.0.1", "-T", "3" }, OPTS_OK, GB_ROLE_CONNECT,
	    GB_DIR_CLIENT_SENDS, "127.0.0.1", NULL },
	{ { "-t", "--", "::1" }, OPTS_OK, GB_ROLE_CONNECT,
	    GB_DIR_CLIENT_SENDS, "::1", NULL },
	{ { "-r", "hostB" }, OPTS_OK, GB_ROLE_CONNECT, GB_DIR_CLIENT_RECEIVES,
	    "hostB", NULL },
	{ { "--receive", "hostB", "-T", "3" }, OPTS_OK, GB_ROLE_CONNECT,
	    GB_DIR_CLIENT_RECEIVES, "hostB", NULL },
	{ { "-r", "-1", "-B", "::1" }, OPTS_OK, GB_ROLE_LISTEN,
	    GB_DIR_CLIENT_SENDS, NULL, NULL },
	{ { "-t", "h", "-1", "-B", "198.18.0.1" }, OPTS_OK, GB_ROLE_CONNECT,
	    GB_DIR_CLIENT_SENDS, "h", NULL },
	{ { NULL }, OPTS_ERROR, 0, 0, NULL,
	    "one of -t, -r or -S is needed" },
	{ { "hostB" }, OPTS_ERROR, 0, 0, NULL,
	    "one of -t, -r or -S is needed" },
	{ { "-T", "3" }, OPTS_ERROR, 0, 0, NULL,
	    "one of -t, -r or -S is needed" },
	{ { "-t" }, OPTS_ERROR, 0, 0, NULL, "-t: needs a host to transmit to" },
	{ { "-S", "hostB" }, OPTS_ERROR, 0, 0, NULL,
	    "-S: takes no host: hostB" },
	{ { "-r", "-S", "hostB" }, OPTS_ERROR, 0, 0, NULL,
	    "-S: takes no host: hostB" },
	{ { "-t", "-r", "hostB" }, OPTS_ERROR, 0, 0, NULL,
	    "-t: cannot be used with -r" },
	{ { "-t", "-S", "hostB" }, OPTS_ERROR, 0, 0, NULL,
	    "-t: cannot be used with -S" },
	{ { "-t", "a", "b" }, OPTS_ERROR, 0, 0, NULL,
	    "too many operands (one host at most): b" },
	{ { "-r", "a", "b", "c" }, OPTS_ERROR, 0, 0, NULL,
	    "too many operands (one host at most): b" },
	{ { "-t", "" }, OPTS_ERROR, 0, 0, NULL, "host is empty: \"\"" },
	{ { "-r", "-4", "-6" }, OPTS_ERROR, 0, 0, NULL,
	    "-6: cannot be used with -4" },
	{ { "-t", "h", "--title", "" }, OPTS_ERROR, 0, 0, NULL,
	    "--title: title is empty: \"\"" },
	{ { "-t", "h", "--title", "a\tb" }, OPTS_ERROR, 0, 0, NULL,
	    "--title: title holds a byte that is not printable ASCII: a\\x09b" },
	{ { "-t", "h", "--title", "\xc3\xa9t\xc3\xa9" }, OPTS_ERROR, 0, 0,
	    NULL, "--title: title holds a byte that is not printable ASCII: "
	    "\\xc3\\xa9t\\xc3\\xa9" },
	{ { "-t", "h", "--title", "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
	    "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
	    "xxxxxxxxxxxxxxxxxxxxxxxx" }, OPTS_ERROR, 0, 0, NULL,
	    "--title: title is too long (max 127 characters): "
	    "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
	    "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx" },
	{ { "-t", "h", "--timestamps=" }, OPTS_ERROR, 0, 0, NULL,
	    "--timestamps: format is empty: \"\"" },
	{ { "-t", "h", "--timestamps=%H\x1b" }, OPTS_ERROR, 0, 0, NULL,
	    "--timestamps: format holds a byte that is not printable ASCII: "
	    "%H\\x1b" },
	{ { "-h" }, OPTS_HELP, 0, 0, NULL, NULL },
	{ { "--help" }, OPTS_HELP, 0, 0, NULL, NULL },
	{ { "-t", "h", "-h" }, OPTS_HELP, 0, 0, NULL, NULL },
	{ { "-h", "-P", "0" }, OPTS_HELP, 0, 0, NULL, NULL },
	{ { "-V" }, OPTS_VERSION, 0, 0, NULL, NULL },
	{ { "--version" }, OPTS_VERSION, 0, 0, NULL, NULL },
	{ { "-r", "-V", "x", "y" }, OPTS_VERSION, 0, 0, NULL, NULL },
};

/* A command line as opts_parse() sees it; getopt permutes argv. */
struct cmdline {
	int	 argc;
	char	*argv[MAXARGS + 2];
	char	 text[512];		/* for failure messages */
};

static void
cmdline_set(struct cmdline *cl, const char *const *args)
{
	size_t	i, len;

	cl->argc = 0;
	cl->argv[cl->argc++] = (char *)"gigebench";
	snprintf(cl->text, sizeof(cl->text), "gigebench");
	for (i = 0; i < MAXARGS && args[i] != NULL; i++) {
		cl->argv[cl->argc++] = (char *)args[i];
		len = strlen(cl->text);
		snprintf(cl->text + len, sizeof(cl->text) - len, " '%s'",
		    args[i]);
	}
	cl->argv[cl->argc] = NULL;
}

static int
parse(const char *const *args, struct gb_opts *o, char *err, size_t errlen,
    struct cmdline *cl)
{
	cmdline_set(cl, args);
	return opts_parse(cl->argc, cl->argv, o, err, errlen);
}

static uint64_t
field_get(const struct gb_opts *o, enum field f)
{
	const struct gb_params *p = &o->params;

	switch (f) {
	case F_ROLE:		return (uint64_t)o->role;
	case F_DIRECTION:	return (uint64_t)p->direction;
	case F_PORT:		return o->port;
	case F_ONCE:		return (uint64_t)o->once;
	case F_FAMILY:		return (uint64_t)o->family;
	case F_UNIT:		return (uint64_t)(unsigned char)o->unit;
	case F_VERBOSE:		return (uint64_t)o->verbose;
	case F_QUIET:		return (uint64_t)o->quiet;
	case F_JSON:		return (uint64_t)o->json;
	case F_BUFLEN:		return p->buflen;
	case F_NBUF:		return p->nbuf;
	case F_DURATION:	return p->duration_ms;
	case F_STREAMS:		return p->streams;
	case F_SNDBUF:		return p->sndbuf;
	case F_RCVBUF:		return p->rcvbuf;
	case F_MSS:		return p->mss;
	case F_NODELAY:		return (uint64_t)p->nodelay;
	case F_INTERVAL:	return p->interval_ms;
	case F_OMIT:		return p->omit_ms;
	case F_RR:		return (uint64_t)p->rr;
	case F_REQ:		return p->req_size;
	case F_RESP:		return p->resp_size;
	case F_BURST:		return p->rr_burst;
	case F_CAPTURE:		return (uint64_t)p->capture;
	case F_FORCE_BUFS:	return (uint64_t)p->force_bufs;
	case F_LINK_MBPS:	return p->link_mbps;
	case F_MTU:		return p->mtu;
	case F_REPEAT:		return o->repeat;
	case F_NAXES:		return o->sweep.naxes;
	case F_ALLOW_MTU:	return (uint64_t)o->allow_mtu;
	case F_TX_PATH:		return (uint64_t)p->tx_path;
	case F_RX_PATH:		return (uint64_t)p->rx_path;
	case F_FQ_RATE:		return p->fq_rate;
	case F_TOS:		return p->tos;
	case F_AFFINITY_LEN:	return strlen(p->affinity);
	case F_UDP:		return (uint64_t)p->udp;
	case F_RATE_BPS:	return p->rate_bps;
	case F_RATE_PPS:	return p->rate_pps;
	case F_BATCH:		return p->batch;
	case F_UNDER_LOAD:	return (uint64_t)o->under_load;
	case F_PROBES:		return p->probes;
	case F_PROBE_TOS:	return p->probe_tos;
	case F_NPHASES:		return o->nphases;
	case F_PHASE0:		return (uint64_t)o->phases[0];
	case F_PHASE1:		return (uint64_t)o->phases[1];
	case F_PROBE_RATE:	return p->probe_rate;
	case F_PROBE_CRR:	return (uint64_t)p->probe_crr;
	}
	return UINT64_MAX;
}

static void
test_good(void **state)
{
	struct cmdline	 cl;
	struct gb_opts	 o;
	char		 err[256];
	size_t		 i;
	int		 rv;
	uint64_t	 got;

	(void)state;
	for (i = 0; i < sizeof(good_cases) / sizeof(good_cases[0]); i++) {
		const struct good_case *c = &good_cases[i];

		rv = parse(c->args, &o, err, sizeof(err), &cl);
		if (rv != OPTS_OK)
			fail_msg("%s: returned %d: %s", cl.text, rv, err);
		got = field_get(&o, c->field);
		if (got != c->want)
			fail_msg("%s: field %d is %llu, want %llu", cl.text,
			    (int)c->field, (unsigned long long)got,
			    (unsigned long long)c->want);
	}
}

static void
test_bad(void **state)
{
	struct cmdline	 cl;
	struct gb_opts	 o;
	char		 err[256];
	size_t		 i;
	int		 rv;

	(void)state;
	for (i = 0; i < sizeof(bad_cases) / sizeof(bad_cases[0]); i++) {
		const struct bad_case *c = &bad_cases[i];

		strcpy(err, "untouched");
		rv = parse(c->args, &o, err, sizeof(err), &cl);
		if (rv != OPTS_ERROR)
			fail_msg("%s: returned %d, want an error", cl.text, rv);
		if (strstr(err, c->name) == NULL ||
		    strstr(err, c->value) == NULL)
			fail_msg("%s: \"%s\" does not name %s and %s", cl.text,
			    err, c->name, c->value);
		if (c->msg != NULL && strcmp(err, c->msg) != 0)
			fail_msg("%s: \"%s\", want \"%s\"", cl.text, err,
			    c->msg);
		if (strchr(err, '\n') != NULL)
			fail_msg("%s: newline in \"%s\"", cl.text, err);
	}
}

static void
test_roles(void **state)
{
	struct cmdline	 cl;
	struct gb_opts	 o;
	char		 err[256];
	size_t		 i;
	int		 rv;

	(void)state;
	for (i = 0; i < sizeof(role_cases) / sizeof(role_cases[0]); i++) {
		const struct role_case *c = &role_cases[i];

		*err = '\0';
		rv = parse(c->args, &o, err, sizeof(err), &cl);
		if (rv != c->rv)
			fail_msg("%s: returned %d, want %d (%s)", cl.text, rv,
			    c->rv, err);
		if (rv == OPTS_ERROR && strcmp(err, c->msg) != 0)
			fail_msg("%s: \"%s\", want \"%s\"", cl.text, err,
			    c->msg);
		if (rv != OPTS_OK)
			continue;
		if (o.role != c->role || o.params.direction != c->direction)
			fail_msg("%s: role %d direction %d, want %d %d",
			    cl.text, o.role, o.params.direction, c->role,
			    c->direction);
		if ((o.host == NULL) != (c->host == NULL) ||
		    (o.host != NULL && strcmp(o.host, c->host) != 0))
			fail_msg("%s: host %s, want %s", cl.text,
			    o.host ? o.host : "(none)",
			    c->host ? c->host : "(none)");
	}
}

/* The strings that point into argv, and the defaults of params_init(). */
static void
test_strings_and_defaults(void **state)
{
	static const char *const args[] = { "-r", "-B", "::1", "-I", "eth0",
	    NULL };
	static const char *const none[] = { "-t", "h", NULL };
	struct cmdline	 cl;
	struct gb_opts	 o;
	struct gb_params p;
	char		 err[256];

	(void)state;
	assert_int_equal(parse(args, &o, err, sizeof(err), &cl), OPTS_OK);
	assert_string_equal(o.bind_addr, "::1");
	assert_string_equal(o.iface, "eth0");
	assert_null(o.host);

	assert_int_equal(parse(none, &o, err, sizeof(err), &cl), OPTS_OK);
	assert_null(o.bind_addr);
	assert_null(o.iface);
	assert_int_equal(o.once, 0);
	assert_int_equal(o.family, AF_UNSPEC);
	params_init(&p);
	assert_memory_equal(&p, &o.params, sizeof(p));
	assert_int_equal(p.direction, GB_DIR_CLIENT_SENDS);
	assert_int_equal(p.buflen, 1024 * 1024);
	assert_true(p.nbuf == 0);
	assert_int_equal(p.duration_ms, 10000);
	assert_int_equal(p.streams, 1);
	assert_int_equal(p.sndbuf, 0);
	assert_int_equal(p.rcvbuf, 0);
	assert_int_equal(p.mss, 0);
	assert_int_equal(p.nodelay, 0);
	assert_int_equal(p.interval_ms, 0);
	/* TCP: no datagrams, no rate, no batch */
	assert_int_equal(p.udp, 0);
	assert_true(p.rate_bps == 0 && p.rate_pps == 0);
	assert_int_equal(p.batch, 0);
}

/*
 * getopt keeps state between calls; an error in the middle of a cluster
 * must not leak into the next parse.  Also: no error buffer at all.
 */
static void
test_reparse(void **state)
{
	static const char *const broken[] = { "-t", "h", "-vxv", NULL };
	static const char *const fine[] = { "-r", "-v", NULL };
	struct cmdline	 cl;
	struct gb_opts	 o;
	char		 err[256], tiny[8];

	(void)state;
	assert_int_equal(parse(broken, &o, err, sizeof(err), &cl),
	    OPTS_ERROR);
	assert_int_equal(parse(fine, &o, err, sizeof(err), &cl), OPTS_OK);
	assert_int_equal(o.verbose, 1);
	assert_int_equal(o.role, GB_ROLE_LISTEN);
	assert_int_equal(parse(broken, &o, NULL, 0, &cl), OPTS_ERROR);
	assert_int_equal(parse(broken, &o, tiny, sizeof(tiny), &cl),
	    OPTS_ERROR);
	assert_true(strlen(tiny) < sizeof(tiny));
}

/* A valid value for each argument name the help text uses. */
static const char *
value_for(const char *argname)
{
	static const struct {
		const char	*name;
		const char	*value;
	} values[] = {
		{ "addr", "127.0.0.1" }, { "count", "5" }, { "iface", "lo" },
		{ "mss", "1000" }, { "ms", "100" }, { "port", "5001" }, { "seconds", "1" },
		{ "rate", "1g" }, { "size", "64K" }, { "streams", "2" },
		{ "algo", "cubic" }, { "spec", "95,2" }, { "file", "/tmp/x" },
		{ "mtu", "9000" }, { "n", "3" }, { "param=list", "mtu=1500" },
		{ "unit", "g" }, { "cpus", "0,1" }, { "value", "0x10" },
		{ "text", "run 1" }, { "format", "%H:%M:%S" },
		{ "list", "upload" },
	};
	size_t	i;

	for (i = 0; i < sizeof(values) / sizeof(values[0]); i++)
		if (strcmp(values[i].name, argname) == 0)
			return values[i].value;
	fail_msg("no test value for argument \"%s\"", argname);
	return NULL;
}

/* The option must parse in a command line that is otherwise valid. */
static void
check_listed(const char *opt, const char *argname)
{
	const char	*args[8];
	struct cmdline	 cl;
	struct gb_opts	 o;
	char		 err[256];
	size_t		 n = 0;
	int		 rv;

	if (strcmp(opt, "--ttcp") == 0) {
		/* main.c gives such a line to the classic tool instead. */
		char *tt[] = { "gigebench", "-r", "--ttcp", NULL };

		if (!ttcp_wanted(3, tt))
			fail_msg("help lists --ttcp, but it is no ttcp line");
		return;
	}
	if (strcmp(opt, "-t") == 0 || strcmp(opt, "--transmit") == 0) {
		args[n++] = opt;
		args[n++] = "h";
	} else if (strcmp(opt, "-u") == 0 || strcmp(opt, "--udp") == 0 ||
	    strcmp(opt, "-R") == 0 || strcmp(opt, "--rate") == 0 ||
	    strcmp(opt, "--batch") == 0 || strcmp(opt, "--gso") == 0 ||
	    strcmp(opt, "--gro") == 0) {
		/* The UDP options: a client's, with -u. */
		args[n++] = "-t";
		args[n++] = "h";
		args[n++] = "-u";
		args[n++] = opt;
		if (argname != NULL)
			args[n++] = value_for(argname);
	} else if (strcmp(opt, "-S") == 0 || strcmp(opt, "--server") == 0 ||
	    strcmp(opt, "--restore") == 0)
		args[n++] = opt;	/* a role of its own */
	else {
		args[n++] = "-r";
		args[n++] = opt;
		if (argname != NULL)
			args[n++] = value_for(argname);
	}
	args[n] = NULL;
	rv = parse(args, &o, err, sizeof(err), &cl);
	if (rv == OPTS_ERROR)
		fail_msg("help lists %s, but %s: %s", opt, cl.text, err);
	/* A value the option does not take would have become the host. */
	if (rv == OPTS_OK && args[1] != NULL && strcmp(args[1], "h") != 0 &&
	    o.host != NULL)
		fail_msg("help gives %s a value it does not take", opt);
}

/*
 * One option line of the help text: "  -b, --buffer size       SO_...",
 * "      --sndbuf size       ...".  The names and the argument end at the
 * first two blanks in a row; the description follows.  Each option named
 * is parsed; short letters are appended to letters.
 */
static void
help_line(const char *line, char *letters, size_t len)
{
	char		 names[64], *tok, *save, *opts[4], *argname = NULL;
	char		 eq[96], *opt;
	const char	*end;
	size_t		 nopts = 0, i, n;

	line += strspn(line, " ");
	end = strstr(line, "  ");
	n = end != NULL ? (size_t)(end - line) : strlen(line);
	snprintf(names, sizeof(names), "%.*s", (int)n, line);
	for (tok = strtok_r(names, ", ", &save); tok != NULL;
	    tok = strtok_r(NULL, ", ", &save)) {
		if (*tok == '-' && nopts < 4)
			opts[nopts++] = tok;
		else
			argname = tok;
	}
	assert_true(nopts > 0);
	for (i = 0; i < nopts; i++) {
		/* "--timestamps[=format]": with no value, and with one. */
		if ((opt = strstr(opts[i], "[=")) != NULL) {
			snprintf(eq, sizeof(eq), "%.*s=%s",
			    (int)(opt - opts[i]), opts[i], value_for(
			    strndupa(opt + 2, strcspn(opt + 2, "]"))));
			*opt = '\0';
			check_listed(opts[i], NULL);
			check_listed(eq, NULL);
			continue;
		}
		check_listed(opts[i], argname);
		n = strlen(letters);
		if (opts[i][1] != '-' && n + 1 < len) {
			letters[n] = opts[i][1];
			letters[n + 1] = '\0';
		}
	}
}

/* Options are listed one a line, indented, after the synopsis. */
static void
help_options(char *help, char *letters, size_t len)
{
	char	*line, *save;
	int	 nlines = 0;

	*letters = '\0';
	for (line = strtok_r(help, "\n", &save); line != NULL;
	    line = strtok_r(NULL, "\n", &save)) {
		if (strncmp(line, "  -", 3) != 0 &&
		    strncmp(line, "      --", 8) != 0)
			continue;
		help_line(line, letters, len);
		nlines++;
	}
	assert_true(nlines >= 27);
}

static char *
help_text(void)
{
	char	*buf = NULL;
	size_t	 len = 0;
	FILE	*fp;

	fp = open_memstream(&buf, &len);
	assert_non_null(fp);
	opts_usage(fp);
	assert_int_equal(fclose(fp), 0);
	assert_non_null(buf);
	return buf;
}

/*
 * The help text and the getopt table agree: every option listed parses,
 * and every letter or digit not listed is an unknown option.
 */
static void
test_help_matches_getopt(void **state)
{
	char		 letters[128], arg[3], err[256], want[64];
	const char	*args[2] = { arg, NULL };
	struct cmdline	 cl;
	struct gb_opts	 o;
	char		*help;
	int		 c, rv;

	(void)state;
	help = help_text();
	help_options(help, letters, sizeof(letters));
	free(help);
	for (c = 0; c < 128; c++) {
		if (!isalnum(c))
			continue;
		snprintf(arg, sizeof(arg), "-%c", c);
		snprintf(want, sizeof(want), "unknown option: -%c", c);
		rv = parse(args, &o, err, sizeof(err), &cl);
		if (strchr(letters, c) == NULL &&
		    (rv != OPTS_ERROR || strcmp(err, want) != 0))
			fail_msg("-%c is not in the help but parses: %s", c,
			    err);
		if (strchr(letters, c) != NULL && rv == OPTS_ERROR &&
		    strcmp(err, want) == 0)
			fail_msg("-%c is in the help but unknown", c);
	}
}

/* The synopsis comes first, in the man page's words, and lines fit. */
static void
test_help_shape(void **state)
{
	char	*help, *line, *save;

	(void)state;
	help = help_text();
	assert_true(strncmp(help, "usage: gigebench -r | -S [", 26) == 0);
	assert_non_null(strstr(help, "\n       gigebench -t | -r ["));
	assert_non_null(strstr(help, "\n       gigebench -h | -V\n\n"));
	assert_int_equal(help[strlen(help) - 1], '\n');
	for (line = strtok_r(help, "\n", &save); line != NULL;
	    line = strtok_r(NULL, "\n", &save))
		if (strlen(line) > 79)
			fail_msg("help line longer than 79: %s", line);
	free(help);
}

/*
 * The command line in the provenance: as a shell would take it back,
 * quoted where it must be, control bytes as '?', cut with "...".
 */
static void
test_command_line(void **state)
{
	static const char *const a[] = { "-t", "h", "--title", "run A", "-l",
	    "1M", "--timestamps=%H:%M", NULL };
	static const char *const b[] = { "-t", "it's", "--title", "a\001b",
	    "-p", "", NULL };
	const char *c[MAXARGS + 1];
	struct cmdline	 cl;
	struct gb_opts	 o;
	char		 err[256], big[400];
	size_t		 i;

	(void)state;
	assert_int_equal(parse(a, &o, err, sizeof(err), &cl), OPTS_OK);
	assert_string_equal(o.command, "gigebench -t h --title 'run A' -l 1M "
	    "--timestamps=%H:%M");
	assert_string_equal(o.title, "run A");
	assert_true(o.timestamps);
	assert_string_equal(o.ts_format, "%H:%M");
	/* Parsing fails (-p ''), the command is still there. */
	parse(b, &o, err, sizeof(err), &cl);
	assert_string_equal(o.command, "gigebench -t 'it'\\''s' --title "
	    "'a?b' -p ''");
	/* Over GB_COMMAND_LEN: cut at a word, marked. */
	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	for (i = 0; i < MAXARGS - 1; i++)
		c[i] = i < 2 ? (i == 0 ? "-t" : "h") : big;
	c[i] = NULL;
	parse(c, &o, err, sizeof(err), &cl);
	assert_true(strlen(o.command) < sizeof(o.command));
	assert_string_equal(o.command + strlen(o.command) - 4, " ...");
	assert_int_equal(strncmp(o.command, "gigebench -t h xxx", 18), 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_good),
		cmocka_unit_test(test_bad),
		cmocka_unit_test(test_roles),
		cmocka_unit_test(test_command_line),
		cmocka_unit_test(test_strings_and_defaults),
		cmocka_unit_test(test_reparse),
		cmocka_unit_test(test_help_matches_getopt),
		cmocka_unit_test(test_help_shape),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
