#!/usr/bin/env bash
# bench/run.sh - gigebench against iperf3, nuttcp and iperf (2), and the
# bare send()/recv() loop, side by side on this machine.  Not a test: the
# figures and what they mean are in bench/README.md.
#
#	bash bench/run.sh			# the full run (root, ~20 min)
#	bash bench/run.sh --smoke		# one short round (make bench-smoke)
#	bash bench/run.sh --rounds 7 --seconds 10 --json out.json
#	bash bench/run.sh --udp-only --beds lo,1500	# the UDP cases alone
#
# What it measures, for each case (a bed and a setting) and each tool:
# the median over rounds of Mbps (as the tool reports it) and of CPU
# seconds per GB (2^30 bytes) on each end.  CPU time is taken the same way
# for every tool: each sender and receiver runs under bench/cpuwrap.c,
# which reads utime+stime(+cutime+cstime) from /proc/PID/stat of every
# process of the tool's tree just before reaping it.  Beside that, the
# host's CPU time over the client's run (all CPUs' user, nice, system,
# irq and softirq time from /proc/stat) per GB: the whole cost of moving
# the data, whichever process or context the kernel charged it to.
# Beds: loopback (127.0.0.1) and two namespaces joined by a veth pair at
# MTU 1500 and 9000, without a rate limit (tests/lib/netns.sh).
# Settings: each tool's defaults, and matched settings (-l 128K with 1 and
# 2 streams).  The bare loop runs in every bed's 2-stream case (a thread
# per stream, as gigebench and iperf).  On loopback it also runs the bare
# loop at the defaults and at 128K x 1, gigebench at the buffer lengths a
# default could take (64K, 128K, 256K, 1M) beside iperf3 and the bare
# loop at 128K and 1M, the bare loop with SO_RCVLOWAT (-w) beside
# gigebench at 128K and 1M, and gigebench's zero-copy modes (-Z,
# --sendfile, --skip-rx-copy, --splice, --sendfile with --skip-rx-copy)
# at its default length beside its copying path and iperf3 with and
# without -Z.
#
# Interleaving: a round runs every case once, and within a case the tools
# in turn (gigebench, iperf3, nuttcp, iperf, bareloop), so that load from
# elsewhere on the shared machine falls on all tools alike; medians then
# drop the odd run that such load spoils.  A run whose settings equal one
# already made in the round (iperf3 with no -l is iperf3 -l 128K) is made
# once and counted in both cases.
#
# Every server is started and stopped here, on its own ports, bound to
# 127.0.0.1 or inside the namespaces (nuttcp cannot bind its server; it
# listens on the namespace's or the host's addresses for the run).
#
# UDP (issue 15), on loopback and the MTU 1500 bed: each tool as fast as
# it sends (gigebench -u -R 0, iperf3 -u -b 0, iperf -u -b 10G, nuttcp -u
# -R 10g) at 64-byte and full-size (1472-byte, the MTU 1500 payload)
# datagrams, 1 and 2 streams (--udp-streams), --udp-seconds each (3 by
# default, as the issue measured); gigebench also with --gso --gro at
# each length, and on loopback bench/udp_ceiling.c, a bare
# sendmmsg()/recvmmsg() pair in one process, as the kernel's ceiling.  The figures: datagrams received per
# second, loss, and CPU per datagram: the sender's per datagram sent, the
# receiver's and the host's per datagram received.
#
# Exit status: 0 when every run of every tool worked and gave a figure,
# 1 when one failed (the table still prints), 2 on a usage error.  It is
# not a performance assertion.
set -eu

HERE=$(cd "$(dirname "$0")" && pwd)
TOP=$(cd "$HERE/.." && pwd)
GB=${GIGEBENCH:-$TOP/build/gigebench}
PY=${PYTHON:-python3}
CC=${CC:-cc}

ROUNDS=5
SECS=5
SMOKE=0
JSON_OUT=""
KEEP=""
BEDS="lo,1500,9000"
LENGTHS=1
ZEROCOPY=1
MATCHED_LEN=131072		# 128K: the matched settings' buffer length
SWEEP_LENS="65536 131072 262144 1048576"
TCP=1
UDP=1
UDP_SECS=3
UDP_STREAMS=1,2
UDP_LENS="64 1472"		# 1472: the payload of a full MTU 1500 frame

usage() {
	cat <<EOF
usage: bench/run.sh [--smoke] [--rounds n] [--seconds s] [--json file]
                    [--keep dir] [--beds list] [--no-lengths]
                    [--no-zerocopy] [--no-udp | --udp-only]
                    [--udp-seconds s] [--udp-streams list]

  --smoke        one round of 1 s runs, loopback, defaults only
  --rounds n     interleaved rounds, 1-100 (default: $ROUNDS)
  --seconds s    seconds per run, 1-60 (default: $SECS)
  --json file    also write every sample and the medians as JSON
  --keep dir     keep every run's output and CPU readings in dir
  --beds list    of lo, 1500, 9000 (default: $BEDS); 1500 and 9000 need root
  --no-lengths   skip the buffer length runs on loopback
  --no-zerocopy  skip the zero-copy mode runs on loopback
  --no-udp       skip the UDP cases
  --udp-only     only the UDP cases (on the beds lo and 1500)
  --udp-seconds s  seconds per UDP run, 1-60 (default: $UDP_SECS)
  --udp-streams list  stream counts of the UDP cases, 1-128 each, like
                 2,16 (default: $UDP_STREAMS)

Environment: GIGEBENCH (default: build/gigebench), PYTHON, CC.
EOF
	exit 2
}

die() { echo "bench: $*" >&2; exit 2; }

while [ $# -gt 0 ]; do
	case $1 in
	--smoke) SMOKE=1; ROUNDS=1; SECS=1; BEDS=lo; LENGTHS=0; ZEROCOPY=0
		shift ;;
	--rounds | --seconds | --json | --keep | --beds | --udp-seconds | \
	    --udp-streams)
		[ $# -ge 2 ] || die "$1 needs a value"
		case $1 in
		--rounds) ROUNDS=$2 ;;
		--seconds) SECS=$2 ;;
		--udp-seconds) UDP_SECS=$2 ;;
		--udp-streams) UDP_STREAMS=$2 ;;
		--json) JSON_OUT=$2 ;;
		--keep) KEEP=$2 ;;
		--beds) BEDS=$2; BEDS_SET=1 ;;
		esac
		shift 2
		;;
	--no-lengths) LENGTHS=0; shift ;;
	--no-zerocopy) ZEROCOPY=0; shift ;;
	--no-udp) UDP=0; shift ;;
	--udp-only) TCP=0; shift ;;
	-h | --help) usage ;;
	*) echo "bench: unknown option: $1" >&2; usage ;;
	esac
done
case $ROUNDS in '' | *[!0-9]*) die "rounds is not 1-100: $ROUNDS" ;; esac
if [ "${#ROUNDS}" -gt 3 ] || [ "$ROUNDS" -lt 1 ] || [ "$ROUNDS" -gt 100 ]; then
	die "rounds is not 1-100: $ROUNDS"
fi
for s in "$SECS" "$UDP_SECS"; do
	case $s in '' | *[!0-9]*) die "seconds is not 1-60: $s" ;; esac
	if [ "${#s}" -gt 2 ] || [ "$s" -lt 1 ] || [ "$s" -gt 60 ]; then
		die "seconds is not 1-60: $s"
	fi
done
for s in ${UDP_STREAMS//,/ }; do
	case $s in '' | *[!0-9]*) die "a UDP stream count is not 1-128: $s" ;; esac
	if [ "${#s}" -gt 3 ] || [ "$s" -lt 1 ] || [ "$s" -gt 128 ]; then
		die "a UDP stream count is not 1-128: $s"
	fi
done
[ "$TCP" -eq 1 ] || [ "$UDP" -eq 1 ] || die "--no-udp and --udp-only leave nothing to run"
[ "$SMOKE" -eq 0 ] || UDP_SECS=1
# the UDP cases run on lo and 1500 only: do not build the 9000 bed for them
[ "$TCP" -eq 1 ] || [ -n "${BEDS_SET:-}" ] || BEDS=lo,1500
for bed in ${BEDS//,/ }; do
	case $bed in lo | 1500 | 9000) ;; *) die "bed is lo, 1500 or 9000: $bed" ;; esac
done

# --- tools -----------------------------------------------------------------

missing=""
[ -x "$GB" ] || missing="$missing $GB (make)"
for t in iperf3 nuttcp iperf; do
	command -v "$t" >/dev/null 2>&1 || missing="$missing $t"
done
for t in "$PY" "$CC" ss timeout; do
	command -v "$t" >/dev/null 2>&1 || missing="$missing $t"
done
if [ -n "$missing" ]; then
	echo "bench: not found:$missing" >&2
	echo "bench: apt-get install -y iperf3 iperf nuttcp python3 gcc iproute2" >&2
	exit 1
fi

WORK=$(mktemp -d /tmp/gigebench-bench.XXXXXX)
BEDS_UP=""
SRV_PID=""
cleanup() {
	local bed
	# a server still running (the run was interrupted): background jobs
	# of a script ignore SIGINT, so it would outlive us
	if [ -n "$SRV_PID" ] && kill -0 "$SRV_PID" 2>/dev/null; then
		stop_server "$SRV_PID"
	fi
	for bed in $BEDS_UP; do
		bed_use "$bed"
		netns_cleanup
	done
	if [ -n "$KEEP" ]; then
		if mkdir -p "$KEEP"; then cp -a "$WORK"/. "$KEEP"/ || true; fi
	fi
	rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# A copy of the binary, so that a rebuild during the run (the tree is
# shared) cannot mix two versions of gigebench in one table.
cp "$GB" "$WORK/gigebench"
GB_SHA=$(sha256sum "$GB" | cut -c1-12)
GB=$WORK/gigebench

for prog in cpuwrap bareloop udp_ceiling; do
	"$CC" -O2 -Wall -pthread -o "$WORK/$prog" "$HERE/$prog.c" ||
	    { echo "bench: cannot build bench/$prog.c" >&2; exit 1; }
done
WRAP=$WORK/cpuwrap
BARE=$WORK/bareloop
CEIL=$WORK/udp_ceiling

# bytes SIZE: 128K, 1M or 131072 in bytes (powers of 1024).
bytes() {
	case $1 in
	*[kK]) echo $((${1%?} * 1024)) ;;
	*[mM]) echo $((${1%?} * 1024 * 1024)) ;;
	*) echo "$1" ;;
	esac
}

# Each tool's buffer length when none is given: gigebench's from --help
# (so that the table follows a change of its default), the peers' from
# their manuals (iperf3 3.12 and iperf 2.1.8: 128 KB, nuttcp 6.1.2: 64 KB).
gb_def=$("$GB" --help 2>&1 | sed -n 's/.*--length.*(default: \([0-9]*[KkMm]\?\)).*/\1/p')
[ -n "$gb_def" ] || { echo "bench: no default length in $GB --help" >&2; exit 1; }
GB_DEF_LEN=$(bytes "$gb_def")
default_len() {
	case $1 in
	gigebench) echo "$GB_DEF_LEN" ;;
	iperf3 | iperf) echo 131072 ;;
	nuttcp) echo 65536 ;;
	esac
}

# --- beds ------------------------------------------------------------------

# Loopback runs in the host's namespace; the beds 1500 and 9000 are each
# a pair of namespaces from tests/lib/netns.sh, built once and kept for
# the whole run (the sender in A, the receiver in B).
# shellcheck source=tests/lib/netns.sh disable=SC1091
. "$TOP/tests/lib/netns.sh"

bed_use() {	# bed_use BED: points NS_A/NS_B at that bed's namespaces
	case $1 in
	lo) NS_A=""; NS_B="" ;;
	*) NS_A=gb-bench-a-$$-$1; NS_B=gb-bench-b-$$-$1 ;;
	esac
}

BED_LIST=""
for bed in ${BEDS//,/ }; do
	if [ "$bed" = lo ]; then
		BED_LIST="$BED_LIST lo"
		continue
	fi
	if [ -z "${ROOT_CHECKED:-}" ]; then
		ROOT_CHECKED=1
		if ! NS_OK=$(netns_need_root); then
			echo "bench: skipping the namespace beds: $NS_OK" >&2
		else
			NS_OK=yes
		fi
	fi
	[ "$NS_OK" = yes ] || continue
	bed_use "$bed"
	NETNS_NAME_A=$NS_A NETNS_NAME_B=$NS_B netns_setup --mtu "$bed" ||
	    { echo "bench: cannot build the MTU $bed bed" >&2; exit 1; }
	BEDS_UP="$BEDS_UP $bed"
	BED_LIST="$BED_LIST $bed"
done
# netns_setup replaced the traps with its own; the run's cleans them all.
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# prefix SIDE BED: sets PFX to what runs a command on that end of the bed
# (a sends, b receives): nothing on loopback, "ip netns exec NS" else.
# A prefix, not a function, so that "${PFX[@]}" cmd & leaves in $! the
# command's own pid (ip netns exec execs it).
prefix() {
	if [ "$2" = lo ]; then
		PFX=()
	else
		bed_use "$2"
		PFX=(ip netns exec "$(netns_name "$1")")
	fi
}

addr_of() {	# the receiver's address on BED
	if [ "$1" = lo ]; then echo 127.0.0.1; else echo "$NETNS_ADDR_B"; fi
}

# --- ports -----------------------------------------------------------------

# Four ports per run (nuttcp: control, then one data port per stream),
# fresh for every run so that no run meets the last one's TIME_WAIT, from
# a random base away from the tests' 20000-40000.
PORT_NEXT=$((41000 + RANDOM % 8000))
port_take() {	# sets PORT to four free ports on BED
	local bed=$1 busy
	for _ in $(seq 1 50); do
		PORT=$PORT_NEXT
		PORT_NEXT=$((PORT_NEXT + 4))
		[ "$PORT_NEXT" -lt 60000 ] || PORT_NEXT=41000
		prefix b "$bed"
		busy=$("${PFX[@]}" ss -Htuan "( sport >= :$PORT and sport <= :$((PORT + 3)) )")
		[ -n "$busy" ] || return 0
	done
	echo "bench: no free ports" >&2
	return 1
}

listening() {	# listening BED PORT: 0 once something listens on PORT
	# (TCP, or a bound UDP socket: iperf -s -u has no TCP port)
	prefix b "$1"
	for _ in $(seq 1 250); do
		if [ -n "$("${PFX[@]}" ss -Htuln "sport = :$2")" ]; then return 0; fi
		sleep 0.02
	done
	return 1
}

# --- one run ---------------------------------------------------------------

# server_cmd TOOL LEN BIND STREAMS [MODE] and client_cmd TOOL LEN STREAMS
# HOST [MODE]: fill the arrays SRV and CLI.  LEN "def" gives the tool no
# length option at all.
server_cmd() {
	local tool=$1 len=$2 bind=$3 streams=$4 mode=${5:-}
	local u=()
	case $mode in udp*) u=(-u) ;; esac
	case $tool in
	gigebench) SRV=("$GB" -r -1 -B "$bind" -p "$PORT") ;;
	iperf3) SRV=(iperf3 -s -1 -B "$bind" -p "$PORT") ;;
	nuttcp) SRV=(nuttcp -1 -P "$PORT") ;;
	# iperf 2's UDP server reads -l bytes (1470 if not given): the
	# datagram's length, so that nothing is cut
	# (its own CSV: the client's copy of the server report says
	# total -1 in iperf 2.1.8)
	iperf) SRV=(iperf -s "${u[@]}" -B "$bind" -p "$PORT")
		[ -z "${u[*]}" ] || SRV+=(-l "$len" -y C) ;;
	ceiling) SRV=() ;;	# one process: both ends
	bare)
		SRV=("$BARE" -r -p "$PORT" -l "$len" -P "$streams")
		[ "$mode" != lowat ] || SRV+=(-w)
		;;
	esac
}
client_cmd() {
	local tool=$1 len=$2 streams=$3 host=$4 mode=${5:-} l=() p=() z=()
	case $mode in
	udp*) client_cmd_udp "$@"; return ;;
	esac
	case $tool in
	gigebench)
		[ "$len" = def ] || l=(-l "$len")
		[ "$streams" -eq 1 ] || p=(-P "$streams")
		case $mode in
		Z) z=(-Z) ;;
		sendfile) z=(--sendfile) ;;
		skiprx) z=(--skip-rx-copy) ;;
		splice) z=(--splice) ;;
		sendfile+skiprx) z=(--sendfile --skip-rx-copy) ;;
		esac
		CLI=("$GB" -t "$host" -p "$PORT" -T "$SECS" "${l[@]}" "${p[@]}"
		    "${z[@]}" -J)
		;;
	iperf3)
		[ "$len" = def ] || l=(-l "$len")
		[ "$streams" -eq 1 ] || p=(-P "$streams")
		[ "$mode" != Z ] || z=(-Z)	# iperf3 -Z: sendfile()
		CLI=(iperf3 -c "$host" -p "$PORT" -t "$SECS" "${l[@]}" "${p[@]}"
		    "${z[@]}" -J)
		;;
	nuttcp)
		[ "$len" = def ] || l=("-l$len")
		[ "$streams" -eq 1 ] || p=("-N$streams")
		CLI=(nuttcp -t "-T$SECS" "${l[@]}" "${p[@]}" -P "$PORT"
		    -p "$((PORT + 1))" -fparse "$host")
		;;
	iperf)
		[ "$len" = def ] || l=(-l "$len")
		[ "$streams" -eq 1 ] || p=(-P "$streams")
		CLI=(iperf -c "$host" -p "$PORT" -t "$SECS" "${l[@]}" "${p[@]}" -y C)
		;;
	bare) CLI=("$BARE" -t "$host" -p "$PORT" -l "$len" -P "$streams"
	    -T "$SECS") ;;
	esac
}

# The UDP clients, as fast as each sends: LEN is the datagram's payload.
client_cmd_udp() {
	local tool=$1 len=$2 streams=$3 host=$4 mode=$5 p=() g=()
	case $tool in
	gigebench)
		[ "$streams" -eq 1 ] || p=(-P "$streams")
		[ "$mode" != udp-gso ] || g=(--gso --gro)
		CLI=("$GB" -u -t "$host" -p "$PORT" -T "$UDP_SECS" -l "$len"
		    -R 0 "${p[@]}" "${g[@]}" -J)
		;;
	iperf3)
		[ "$streams" -eq 1 ] || p=(-P "$streams")
		CLI=(iperf3 -u -b 0 -c "$host" -p "$PORT" -t "$UDP_SECS"
		    -l "$len" "${p[@]}" -J)
		;;
	nuttcp)
		[ "$streams" -eq 1 ] || p=("-N$streams")
		CLI=(nuttcp -u -R10g -t "-T$UDP_SECS" "-l$len" "${p[@]}"
		    -P "$PORT" -p "$((PORT + 1))" -fparse "$host")
		;;
	iperf)
		[ "$streams" -eq 1 ] || p=(-P "$streams")
		CLI=(iperf -u -b 10G -c "$host" -p "$PORT" -t "$UDP_SECS"
		    -l "$len" "${p[@]}" -y C)
		;;
	ceiling) CLI=("$CEIL" -l "$len" -T "$UDP_SECS" -P "$streams" "$host") ;;
	esac
}

# wait_pid PID TENTHS: 0 once PID has exited within TENTHS of a second.
wait_pid() {
	for _ in $(seq 1 $(($2 * 5))); do
		kill -0 "$1" 2>/dev/null || { wait "$1" 2>/dev/null || true; return 0; }
		sleep 0.02
	done
	return 1
}

# stop_server PID: SIGTERM to the server's cpuwrap, which passes it on;
# SIGKILL to its children if they linger (iperf -s takes a second to
# obey SIGTERM), so that cpuwrap still reads their final CPU time; and
# SIGKILL to cpuwrap itself only if it does not end then.
stop_server() {
	local pid=$1 kids
	kill -TERM "$pid" 2>/dev/null || true
	wait_pid "$pid" 3 && return 0
	kids=$(pgrep -P "$pid" || true)
	# shellcheck disable=SC2086
	[ -z "$kids" ] || kill -KILL $kids 2>/dev/null || true
	wait_pid "$pid" 30 && return 0
	kill -KILL "$pid" 2>/dev/null || true
	wait "$pid" 2>/dev/null || true
}

RUN_N=0
# run_one ROUND BED TOOL LEN STREAMS KEY [MODE]: one server, one client, in
# RUN_DIR.
run_one() {
	local round=$1 bed=$2 tool=$3 len=$4 streams=$5 key=$6 mode=${7:-}
	local dir host srv rc
	RUN_N=$((RUN_N + 1))
	dir=$WORK/runs/$(printf '%04d' "$RUN_N")
	mkdir -p "$dir"
	host=$(addr_of "$bed")
	port_take "$bed"
	server_cmd "$tool" "$len" "$host" "$streams" "$mode"
	client_cmd "$tool" "$len" "$streams" "$host" "$mode"
	{
		echo "key=$key"
		echo "round=$round"
		echo "bed=$bed"
		echo "tool=$tool"
		echo "len=$len"
		echo "streams=$streams"
		echo "mode=${mode:-copy}"
		echo "server=${SRV[*]}"
		echo "client=${CLI[*]}"
	} >"$dir/meta"
	prefix b "$bed"
	if [ "${#SRV[@]}" -eq 0 ]; then
		srv=""		# the ceiling: no server
	else
		"${PFX[@]}" "$WRAP" "$dir/server.cpu" "${SRV[@]}" \
		    >"$dir/server.out" 2>"$dir/server.err" </dev/null &
		srv=$!
	fi
	SRV_PID=$srv
	if [ -n "$srv" ] && ! listening "$bed" "$PORT"; then
		echo "bench: $tool server did not listen on $bed port $PORT" >&2
		stop_server "$srv"
		echo "client_rc=none" >>"$dir/meta"
		echo "error=the server did not listen on port $PORT" >>"$dir/meta"
		return 0
	fi
	rc=0
	prefix a "$bed"
	head -n 1 /proc/stat >"$dir/host0"
	"${PFX[@]}" timeout -k 5 $((SECS + UDP_SECS + 30)) "$WRAP" "$dir/client.cpu" \
	    "${CLI[@]}" >"$dir/client.out" 2>"$dir/client.err" </dev/null || rc=$?
	head -n 1 /proc/stat >"$dir/host1"
	echo "client_rc=$rc" >>"$dir/meta"
	# iperf -s never exits by itself; the others end after one test.
	if [ -z "$srv" ]; then
		:
	elif [ "$tool" = iperf ]; then
		sleep 0.1
		stop_server "$srv"
	elif ! wait_pid "$srv" 50; then
		echo "bench: $tool server on $bed did not exit; stopping it" >&2
		stop_server "$srv"
	fi
	SRV_PID=""
	printf '  %-5s %-10s %-7s x%s %-15s client exit %s\n' "$bed" "$tool" \
	    "$len" "$streams" "${mode:-}" "$rc"
}

# --- cases -----------------------------------------------------------------

# A case is a name, a bed and a list of tool:length:streams; "def" is the
# tool's default length.  Its first tool is the one the others are
# measured against (gigebench), "bare" is the bare loop.
CASES=()
case_add() { CASES+=("$1|$2|$3"); }
TOOLS4="gigebench iperf3 nuttcp iperf"
specs() {	# specs LEN STREAMS [extra...]: the four tools at LEN x STREAMS
	local len=$1 streams=$2 t out=""
	shift 2
	for t in $TOOLS4; do out="$out $t:$len:$streams"; done
	echo "$out $*"
}
for bed in $BED_LIST; do
	[ "$TCP" -eq 1 ] || break
	name=$bed
	[ "$bed" = lo ] && name=loopback || name="mtu $bed"
	bare_def=""
	bare_m=""
	bare_2="bare:$MATCHED_LEN:2"
	if [ "$bed" = lo ]; then
		bare_def="bare:$GB_DEF_LEN:1"
		bare_m="bare:$MATCHED_LEN:1"
	fi
	case_add "$name, defaults" "$bed" "$(specs def 1 "$bare_def")"
	[ "$SMOKE" -eq 1 ] && continue
	case_add "$name, 128K x 1" "$bed" "$(specs "$MATCHED_LEN" 1 "$bare_m")"
	case_add "$name, 128K x 2" "$bed" "$(specs "$MATCHED_LEN" 2 "$bare_2")"
done
# Buffer lengths a default could take: gigebench at each, with the bare
# loop and iperf3 at 128K and 1M (the 128K runs are the matched case's).
if [ "$TCP" -eq 1 ] && [ "$LENGTHS" -eq 1 ] && [[ " $BED_LIST " == *" lo "* ]]; then
	sweep=""
	for len in $SWEEP_LENS; do sweep="$sweep gigebench:$len:1"; done
	for len in $MATCHED_LEN 1048576; do
		sweep="$sweep iperf3:$len:1 bare:$len:1"
	done
	case_add "loopback, by buffer length" lo "$sweep"
fi
# The bare loop as cheap as it gets: its receiver with SO_RCVLOWAT at the
# length, as gigebench's (bareloop -w), at 128K and 1M.
if [ "$TCP" -eq 1 ] && [[ " $BED_LIST " == *" lo "* ]] && [ "$SMOKE" -eq 0 ]; then
	case_add "loopback, bare loop with SO_RCVLOWAT" lo \
	    "gigebench:$MATCHED_LEN:1 bare:$MATCHED_LEN:1:lowat gigebench:1048576:1 bare:1048576:1:lowat"
fi
# The zero-copy modes at gigebench's default length, beside the copying
# path and iperf3 with and without its -Z (sendfile).
if [ "$TCP" -eq 1 ] && [ "$ZEROCOPY" -eq 1 ] && [[ " $BED_LIST " == *" lo "* ]]; then
	zc=""
	for m in "" Z sendfile skiprx splice sendfile+skiprx; do
		zc="$zc gigebench:$GB_DEF_LEN:1${m:+:$m}"
	done
	case_add "loopback, zero-copy modes" lo \
	    "$zc iperf3:$GB_DEF_LEN:1 iperf3:$GB_DEF_LEN:1:Z"
fi

# UDP: on loopback and the MTU 1500 bed (the 9000 bed adds nothing a
# 1472-byte datagram would see), at each length with 1 and 2 streams; the
# ceiling on loopback only (its two sockets are in one process); smoke:
# loopback, 64 bytes, one stream.
if [ "$UDP" -eq 1 ]; then
	for bed in $BED_LIST; do
		[ "$bed" != 9000 ] || continue
		[ "$bed" = lo ] && name="udp loopback" || name="udp mtu $bed"
		for len in $UDP_LENS; do
			for streams in ${UDP_STREAMS//,/ }; do
				list=""
				for t in $TOOLS4; do list="$list $t:$len:$streams:udp"; done
				list="$list gigebench:$len:$streams:udp-gso"
				[ "$bed" != lo ] || list="$list ceiling:$len:$streams:udp"
				case_add "$name, $len B x $streams" "$bed" "$list"
				[ "$SMOKE" -eq 0 ] || break 3
			done
		done
	done
fi

# key BED TOOL LEN STREAMS [MODE]: runs with equal keys are the same run.
key_of() {
	local len=$3
	[ "$len" != def ] || len=$(default_len "$2")
	echo "$1/$2/$len/$4${5:+/$5}"
}

: >"$WORK/cases"
runs_per_round=0
tcp_runs=0
seen=" "
for c in "${CASES[@]}"; do
	IFS='|' read -r name bed list <<<"$c"
	for s in $list; do
		IFS=: read -r tool len streams mode <<<"$s"
		k=$(key_of "$bed" "$tool" "$len" "$streams" "$mode")
		printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$bed" "$tool" \
		    "$len" "$streams" "$k" "${mode:-copy}" >>"$WORK/cases"
		case $seen in *" $k "*) ;; *)
			seen="$seen$k "
			runs_per_round=$((runs_per_round + 1))
			case $mode in udp*) ;; *) tcp_runs=$((tcp_runs + 1)) ;; esac
			;;
		esac
	done
done

# about 0.2 s per run besides the test itself (measured: 851 s for 165
# runs of 5 s)
{
	echo "gigebench bench: $ROUNDS round(s) of $runs_per_round runs" \
	    "($tcp_runs TCP of $SECS s, $((runs_per_round - tcp_runs)) UDP of $UDP_SECS s;" \
	    "about $(((ROUNDS * (tcp_runs * (SECS * 10 + 2) + (runs_per_round - tcp_runs) * (UDP_SECS * 10 + 12)) / 10 + 59) / 60)) min)"
	echo "beds:$BED_LIST; load average $(cut -d' ' -f1-3 /proc/loadavg)"
} >&2

STARTED=$(date -u +%Y-%m-%dT%H:%M:%SZ)
LOAD_START=$(cut -d' ' -f1-3 /proc/loadavg)
for round in $(seq 1 "$ROUNDS"); do
	echo "round $round of $ROUNDS" >&2
	done_keys=" "
	for c in "${CASES[@]}"; do
		IFS='|' read -r name bed list <<<"$c"
		for s in $list; do
			IFS=: read -r tool len streams mode <<<"$s"
			k=$(key_of "$bed" "$tool" "$len" "$streams" "$mode")
			case $done_keys in *" $k "*) continue ;; esac
			done_keys="$done_keys$k "
			run_one "$round" "$bed" "$tool" "$len" "$streams" "$k" \
			    "$mode" >&2
		done
	done
done

{
	echo "date=$STARTED"
	echo "finished=$(date -u +%Y-%m-%dT%H:%M:%SZ)"
	echo "nproc=$(nproc)"
	echo "clk_tck=$(getconf CLK_TCK)"
	echo "cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)"
	echo "kernel=$(uname -r)"
	echo "gigebench=$("$GB" -V 2>&1 | head -1) (binary sha256 $GB_SHA," \
	    "tree $(git -C "$TOP" describe --always --dirty 2>/dev/null || echo '?'))"
	echo "iperf3=$(iperf3 --version 2>&1 | head -1)"
	echo "nuttcp=$(nuttcp -V 2>&1 | head -1)"
	echo "iperf=$(iperf -v 2>&1 | head -1)"
	echo "loadavg_start=$LOAD_START"
	echo "loadavg_end=$(cut -d' ' -f1-3 /proc/loadavg)"
	echo "rounds=$ROUNDS"
	echo "seconds=$SECS"
	echo "udp_seconds=$UDP_SECS"
} >"$WORK/machine"

json=()
[ -z "$JSON_OUT" ] || json=(--json "$JSON_OUT")
"$PY" "$HERE/summarize.py" "${json[@]}" "$WORK"
