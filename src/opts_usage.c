/*
 * opts_usage.c: the help text of -h.  Its synopsis is man/gigebench.1's,
 * word for word, and its option list is the getopt table's (opts.c):
 * tests/man.sh and tests/test_opts.c hold the three to each other.  Lines
 * stay under 80 columns.
 */
#include <stdio.h>

#include "opts.h"

static const char opts_usage_text[] =
"usage: gigebench -r | -S [-146Jqsv] [-B addr] [-f unit] [-I iface] [-p port]\n"
"           [--allow-mtu]\n"
"       gigebench -t | -r [-46DJqsvZ] [-A cpus] [-B addr] [-b size] [-C algo]\n"
"           [-f unit] [-I iface] [-i seconds] [-l size] [-M mss] [-n count]\n"
"           [-P streams] [-p port] [-T seconds] [--capture]\n"
"           [--confidence level,width] [--csv file] [--force-bufs]\n"
"           [--fq-rate rate] [--link-rate rate] [--mtu mtu] [--plot file]\n"
"           [--rcvbuf size] [--repeat n] [--sendfile] [--skip-rx-copy]\n"
"           [--sndbuf size] [--splice] [--sweep param=list] [--tos value]\n"
"           host\n"
"       gigebench --restore\n"
"       gigebench -h | -V\n"
"\n"
"  -1, --once              listener: exit after one test\n"
"  -4, --ipv4              use IPv4 only\n"
"  -6, --ipv6              use IPv6 only\n"
"  -A, --affinity cpus     pin stream threads round-robin on both ends: 0,2\n"
"                          or 0-3 (default: not pinned)\n"
"  -B, --bind addr         local address to bind (default: any)\n"
"  -b, --buffer size       SO_SNDBUF and SO_RCVBUF, 1K-1G (default: kernel's)\n"
"  -C, --congestion algo   TCP congestion control (default: the system's)\n"
"  -D, --nodelay           set TCP_NODELAY on the data connections\n"
"  -f, --format unit       k, m, g bit/s or K, M, G byte/s (default: m)\n"
"  -h, --help              print this help and exit\n"
"  -I, --interface iface   interface to read counters from (default: in use)\n"
"  -i, --interval seconds  report interval, 0.1-3600, <= -T (default: off)\n"
"  -J, --json              print the result as JSON\n"
"  -l, --length size       bytes per write or read, 1-64M (default: 128K)\n"
"  -M, --mss mss           TCP_MAXSEG, 88-65535 (default: kernel's)\n"
"  -n, --count count       buffers per stream, 1-2^40 (default: no limit)\n"
"  -P, --parallel streams  data connections, 1-128 (default: 1)\n"
"  -p, --port port         control and data port, 1-65535 (default: 5001)\n"
"  -q, --quiet             print the summary line only\n"
"  -r, --receive           receive from host; without one, listen\n"
"  -S, --server            listen and serve tests\n"
"  -s, --sink              ignored: received data is always discarded\n"
"  -T, --time seconds      test duration, 0.1-86400 (default: 10)\n"
"  -t, --transmit          transmit to host\n"
"  -V, --version           print the version and exit\n"
"  -v, --verbose           more detail; -vv traces the protocol to stderr\n"
"  -w, --window size       same as -b\n"
"  -Z, --zerocopy          send with MSG_ZEROCOPY (the sending end)\n"
"      --allow-mtu         listener: let clients set its MTU (--mtu, --sweep)\n"
"      --capture           count frames with libpcap on both ends (root)\n"
"      --confidence spec   LEVEL,WIDTH: repeat until the LEVEL% CI is within\n"
"                          WIDTH% of the mean, as netperf -I (e.g. 95,2)\n"
"      --csv file          write one CSV row per run\n"
"      --force-bufs        SO_SNDBUFFORCE/SO_RCVBUFFORCE past the caps (root)\n"
"      --fq-rate rate      SO_MAX_PACING_RATE of each data connection, both\n"
"                          ends, like 500m, 1g (default: no limit)\n"
"      --link-rate rate    link rate for the goodput figure, like 1g, 10g\n"
"      --mtu mtu           both ends' MTU for the test, 1280-65535 (root)\n"
"      --plot file         plot Mbps, CPU and irq/pkt with gnuplot (.svg, .png)\n"
"      --rcvbuf size       SO_RCVBUF only, 1K-1G (default: kernel's)\n"
"      --repeat n          runs per point, 1-1000 (default: 1)\n"
"      --restore           put back MTUs a killed gigebench left changed\n"
"      --sendfile          send with sendfile() from a memfd\n"
"      --skip-rx-copy      receive with MSG_TRUNC: discard, copy nothing\n"
"      --sndbuf size       SO_SNDBUF only, 1K-1G (default: kernel's)\n"
"      --splice            receive with splice() through a pipe to /dev/null\n"
"      --sweep param=list  run each value: mtu, mss, window, sndbuf, rcvbuf,\n"
"                          length, streams, cc; lists like 1500,9000 or\n"
"                          4K..1M*2 or 16K..64K+16K (repeatable)\n"
"      --tos value         IP_TOS/IPV6_TCLASS of the data connections, both\n"
"                          ends, 0-255 or 0x00-0xff (default: 0)\n"
"\n"
"The connecting side decides every test parameter: on a listener, only\n"
"-1, -4, -6, -B, -f, -I, -J, -p, -q, -v and --allow-mtu have an effect.\n";

void
opts_usage(FILE *fp)
{
	fputs(opts_usage_text, fp);
}
