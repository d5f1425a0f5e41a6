#!/usr/bin/env bash
# Namespace tests (root): gigebench on an emulated Gigabit Ethernet link,
# two namespaces joined by a veth pair with a tbf qdisc at rate 1gbit on
# both ends (tests/lib/netns.sh).  Run from the top of the tree as
#	GIGEBENCH=build/gigebench bash tests/netns_check.sh
# (make check-netns).  For MTU 1500 and 9000 it checks:
#  a. accuracy: Mbps within 0.5 % of the link's TCP goodput, computed here
#     from the MTU as payload per frame / bytes tbf charges per frame, and
#     within 1 % of iperf3 on the same link;
#  b. gigebench's interface packets and bytes, NET_RX soft interrupts and
#     process CPU against readings this script takes itself around the run
#     (/sys/class/net/IF/statistics in each namespace, /proc/softirqs, and
#     wait4() rusage of each gigebench process);
#  c. the interface found is the veth, which has no interrupt figure, and
#     the MSS follows the MTU;
# and  d. the library deletes its namespaces on exit, on failure and on
#     SIGTERM, and refuses an MTU out of range.
# Every check prints "ok" or "FAIL"; the last line is "N passed, M failed".
# Without root it prints "# SKIP <reason>" and "0 passed, 0 failed, 1
# skipped"; with CI set that is a failure (tests/lib/skip.sh).
#
# Noise is one-sided: a stall of either end's CPU (other work on this
# host) idles the link and can only lower a run's rate, while a wrong
# byte count or clock in gigebench would move every run the same way.  So
# an accuracy pair (gigebench then iperf3) that misses its bounds is run
# again, up to ACCURACY_ATTEMPTS times, and every attempt is printed.
set -eu

HERE=$(cd "$(dirname "$0")" && pwd)
GB=${GIGEBENCH:-build/gigebench}
PY=${PYTHON:-python3}
SECONDS_PER_RUN=${NETNS_CHECK_SECONDS:-5}
ACCURACY_ATTEMPTS=3
RATE_BPS=1000000000		# the tbf rate below, in bit/s
# Tolerances of the cross-checks (b); the reasons are in judge.py below.
TOL_PACKETS=50
TOL_WIRE_BYTES=65536
TOL_SOFTIRQ_PCT=10
TOL_SOFTIRQ_ABS=200
TOL_CPU_S=0.030
TOL_CPU_PCT=5

# shellcheck source=tests/lib/netns.sh
. "$HERE/lib/netns.sh"
if ! netns_need_root >/dev/null; then
	skip_or_fail "$NETNS_MISSING"	# under CI: a failure
	exit $?
fi

# shellcheck source=tests/lib/tally.sh
. "$HERE/lib/tally.sh"

if ! command -v "$PY" >/dev/null 2>&1; then
	fail "$PY is installed (Debian package python3)"
fi
if [ ! -x "$GB" ]; then
	fail "gigebench is built: $GB (make)"
fi
if [ "$failed" -ne 0 ]; then
	finish || exit 1
fi
HAVE_IPERF3=yes
command -v iperf3 >/dev/null 2>&1 || HAVE_IPERF3=no
check "iperf3 is installed (Debian package iperf3)" [ "$HAVE_IPERF3" = yes ]

TMP=$(mktemp -d)
PIDS=""
cleanup() {
	local p
	for p in $PIDS; do kill "$p" 2>/dev/null || true; done
	wait 2>/dev/null || true
	netns_cleanup
	rm -rf "$TMP"
}
set_traps() {	# netns_setup replaces the traps with its own; put ours back
	trap cleanup EXIT
	trap 'cleanup; exit 130' INT
	trap 'cleanup; exit 143' TERM
}
set_traps

# wait4.py OUT CMD...: runs CMD as a child and writes its rusage from
# wait4(2), "user_s sys_s", to OUT; exits with CMD's status.  The kernel's
# own account of the whole process, taken by its parent, independent of
# the getrusage(2) calls gigebench makes inside the test.
cat >"$TMP/wait4.py" <<'PYEOF'
import os, sys
pid = os.fork()
if pid == 0:
    try:
        os.execvp(sys.argv[2], sys.argv[2:])
    finally:
        os._exit(127)
_, status, ru = os.wait4(pid, 0)
with open(sys.argv[1], "w") as f:
    f.write("%.6f %.6f\n" % (ru.ru_utime, ru.ru_stime))
sys.exit(os.waitstatus_to_exitcode(status))
PYEOF

# judge.py: the checks on the JSON files, one "ok - " or "FAIL - " line
# each, counted by tally() below.
cat >"$TMP/judge.py" <<'PYEOF'
import json, sys

def load(path):
    with open(path) as f:
        return json.load(f)

def line(good, text):
    print(("ok - " if good else "FAIL - ") + text)

def expected_mbps(mtu, ts, rate_bps):
    # tbf charges each frame its length from the Ethernet header on
    # (skb->len at the qdisc: MTU + 14); TCP carries MTU - 20 (IP) - 20
    # (TCP) - 12 (timestamps option, when on) bytes of payload in it.
    payload = mtu - 40 - (12 if ts else 0)
    return rate_bps / 1e6 * payload / (mtu + 14), payload

def accuracy(args):
    # accuracy MTU TS RATE GB.json IPERF.json|- ATTEMPT LAST
    mtu, ts, rate = int(args[0]), int(args[1]), int(args[2])
    attempt, last = int(args[5]), int(args[6]) == 1
    exp, _ = expected_mbps(mtu, ts, rate)
    gb = load(args[3])["result"]["mbps"]
    gb_err = (gb / exp - 1) * 100
    good_gb = abs(gb_err) <= 0.5
    if args[4] != "-":
        i3 = load(args[4])["end"]["sum_received"]["bits_per_second"] / 1e6
        i3_err = (gb / i3 - 1) * 100
        good_i3 = abs(i3_err) <= 1.0
        i3_text = "%.2f Mbps (%+.2f %% of goodput)" % (i3, (i3 / exp - 1) * 100)
    else:
        good_i3, i3_err, i3_text = False, float("nan"), "not run (no iperf3)"
    note = "MTU %d attempt %d: gigebench %.2f, goodput %.2f, iperf3 %s" % (
        mtu, attempt, gb, exp, i3_text)
    if not (good_gb and good_i3) and not last:
        print("# " + note + ": again")
        return 0
    line(good_gb, "MTU %d: gigebench %.2f Mbps within 0.5 %% of the goodput "
         "%.2f (%+.3f %%, attempt %d)" % (mtu, gb, exp, gb_err, attempt))
    line(good_i3, "MTU %d: gigebench within 1 %% of iperf3 %s (%+.3f %%, "
         "attempt %d)" % (mtu, i3_text, i3_err, attempt))
    return 0

def counters(path):
    # "ns IF rx_packets tx_packets rx_bytes tx_bytes" lines and a
    # "softirq NET_RX NET_TX" line, before and after
    out = {}
    with open(path) as f:
        for l in f:
            w = l.split()
            out[w[0]] = [int(x) for x in w[1:]]
    return out

def within(name, got, ref, tol, unit):
    # got is gigebench's reading over its test, ref the test's own reading
    # over a window that holds it; counters only grow, so got <= ref, and
    # the gap is what crossed outside gigebench's window.
    gap = ref - got
    line(0 <= gap <= tol, "%s: gigebench %d, own reading %d (gap %d %s, "
         "allowed 0-%d)" % (name, got, ref, gap, unit, tol))

def crosscheck(args):
    # crosscheck MTU TS GB.json BEFORE AFTER SND.rusage RCV.rusage
    #            IF_A IF_B TOL_PACKETS TOL_BYTES TOL_SI_PCT TOL_SI_ABS
    #            TOL_CPU_S TOL_CPU_PCT
    mtu, ts = int(args[0]), int(args[1])
    d = load(args[2])["result"]
    b, a = counters(args[3]), counters(args[4])
    if_a, if_b = args[7], args[8]
    tol_pk, tol_by = int(args[9]), int(args[10])
    si_pct, si_abs = float(args[11]), int(args[12])
    cpu_s, cpu_pct = float(args[13]), float(args[14])
    _, payload = expected_mbps(mtu, ts, 1)
    snd, rcv = d["sender"], d["receiver"]
    tag = "MTU %d" % mtu

    line(snd["bytes"] == rcv["bytes"] > 0,
         "%s: sender and receiver count the same payload (%d bytes)" %
         (tag, snd["bytes"]))
    # (c) the interface is the veth, which has no IRQ lines of its own
    line(snd["interface"]["name"] == if_a and rcv["interface"]["name"] == if_b,
         "%s: interfaces found are %s and %s" % (tag, snd["interface"]["name"],
                                               rcv["interface"]["name"]))
    line(all(s["interrupts"] is None and s["irq_per_packet"] is None
             for s in (snd, rcv)),
         "%s: veth has no interrupt figure: interrupts and irq_per_packet null"
         % tag)
    # What explains the numbers, on both ends: context, IRQ lines (none on
    # veth, with the reason), segments next to packets, buffers asked for
    # and set, and the diagnosis.
    for side, s in (("sender", snd), ("receiver", rcv)):
        c = s["context"]
        line(c is not None and c["mtu"] == mtu and c["driver"] == "veth" and
             c["kernel"] and c["ncpus"] >= 1 and c["congestion"],
             "%s: %s context: driver %s, mtu %s, kernel %s, cc %s" %
             (tag, side, c and c["driver"], c and c["mtu"],
              c and c["kernel"], c and c["congestion"]))
        line(s["interface"]["lines"] == [] and
             "virtual device" in (s["interface"]["note"] or ""),
             "%s: %s has no IRQ lines, and says why: %s" %
             (tag, side, s["interface"]["note"]))
        line(set(s["sndbuf"]) >= {"requested", "actual"} and
             s["sndbuf"]["actual"] > 0 and s["rcvbuf"]["actual"] > 0,
             "%s: %s socket buffers requested and effective" % (tag, side))
    line(snd["tcp"]["data_segs_out"] >= snd["packets"]["tx"] > 0 and
         rcv["tcp"]["data_segs_in"] > 0,
         "%s: %d TCP data segments went out in %d interface packets "
         "(GSO batching visible)" % (tag, snd["tcp"]["data_segs_out"],
                                    snd["packets"]["tx"]))
    line(isinstance(d["diagnosis"], list) and
         all(set(f) == {"code", "side", "text"} for f in d["diagnosis"]),
         "%s: diagnosis holds %d findings: %s" % (tag, len(d["diagnosis"]),
         ", ".join(f["code"] for f in d["diagnosis"]) or "none"))
    line(d["tcp"]["mss"] == payload,
         "%s: tcp.mss %s is MTU - 40 - %d = %d" %
         (tag, d["tcp"]["mss"], 12 if ts else 0, payload))

    # (b) packets and bytes: the same /sys counters, read by this script
    # in each namespace just before the client starts and after both ends
    # have exited.  Outside gigebench's window (start message to last
    # byte) cross only the control connection, the data connection's
    # handshake and close, and ARP: about 15 packets each way before and
    # 15 after; 50 leaves room and is still well under 1 % of a run
    # (a 5 s run moves ~9,000 GSO packets per direction on the veth).
    # Bytes: those packets carry the parameters and the result JSON of
    # each side, a few KB; 64K bounds them.
    for side, ns, ifn in (("sender", "a", if_a), ("receiver", "b", if_b)):
        s = d[side]
        key = ns + ":" + ifn
        for i, (what, dirn) in enumerate((("packets", "rx"), ("packets", "tx"),
                                          ("bytes_on_wire", "rx"),
                                          ("bytes_on_wire", "tx"))):
            ref = a[key][i] - b[key][i]
            within("%s: %s %s.%s" % (tag, side, what, dirn), s[what][dirn],
                   ref, tol_pk if what == "packets" else tol_by,
                   "packets" if what == "packets" else "bytes")
    line(snd["bytes_on_wire"]["tx"] >= snd["bytes"],
         "%s: sender's interface sent at least the payload (%d >= %d)" %
         (tag, snd["bytes_on_wire"]["tx"], snd["bytes"]))

    # NET_RX soft interrupts are host-wide (/proc/softirqs is not per
    # namespace): both ends see the same counter, so each end's count
    # must fit in this script's own delta and miss only what ran outside
    # its window: process start-up and the control exchange, 0.1-0.3 s of
    # this script's ~5.3 s.  On an idle host that is a few dozen (5 s at
    # 1 Gbit/s raise ~15,000); when other work raises NET_RX too, the gap
    # grows with the share of time outside the window, ~5 %.  10 % + 200
    # still catches a wrong row (NET_TX is ~35 % lower here) or one CPU's
    # column instead of the sum.
    ref = a["softirq"][0] - b["softirq"][0]
    tol = int(ref * si_pct / 100) + si_abs
    wall = (a["time_ns"][0] - b["time_ns"][0]) / 1e9
    for side in ("sender", "receiver"):
        within("%s: %s softirq.net_rx (own window %.2f s, gigebench's %.2f s)"
               % (tag, side, wall, d[side]["seconds"]),
               d[side]["softirq"]["net_rx"], ref, tol, "softirqs")

    # Process CPU: gigebench takes getrusage(RUSAGE_SELF) at the start
    # message and at the last byte; wait4() gives the kernel's total for
    # the whole process, so it must be at least gigebench's figure and
    # exceed it only by start-up, the control exchange and the report
    # (a few ms; allowed 30 ms + 5 %).
    for side, path in (("sender", args[5]), ("receiver", args[6])):
        with open(path) as f:
            u, s_ = (float(x) for x in f.read().split())
        got = d[side]["cpu"]["user_s"] + d[side]["cpu"]["sys_s"]
        ref = u + s_
        gap = ref - got
        tol = cpu_s + ref * cpu_pct / 100
        line(-0.0015 <= gap <= tol,
             "%s: %s cpu user_s+sys_s %.4f s, wait4 rusage %.4f s (gap %.4f s,"
             " allowed 0-%.4f)" % (tag, side, got, ref, gap, tol))
    return 0

sys.exit({"accuracy": accuracy, "crosscheck": crosscheck}[sys.argv[1]](
    sys.argv[2:]))
PYEOF

port=5000
listen_in_b() {	# listen_in_b CMD...: background in B, wait for $port
	local socks
	netns_exec b "$@" &
	LISTENER=$!
	PIDS="$PIDS $LISTENER"
	for _ in $(seq 1 100); do
		socks=$(netns_exec b ss -Htln "sport = :$port") || return 1
		[ -z "$socks" ] || return 0
		sleep 0.05
	done
	echo "# listener on port $port did not come up" >&2
	return 1
}

wait_for() {	# wait_for PID SECONDS: 0 if it exited 0 in time
	local pid=$1 secs=$2 rc
	for _ in $(seq 1 $((secs * 50))); do
		if ! kill -0 "$pid" 2>/dev/null; then
			rc=0
			wait "$pid" || rc=$?
			return "$rc"
		fi
		sleep 0.02
	done
	kill "$pid" 2>/dev/null || true
	return 124
}

# snapshot FILE: the interface counters in each namespace and the host's
# NET_RX and NET_TX soft interrupts, summed over the CPUs.
snapshot() {
	local ns ifn st v
	: >"$1"
	for ns in a b; do
		if [ $ns = a ]; then ifn=$IF_A; else ifn=$IF_B; fi
		st=/sys/class/net/$ifn/statistics
		v=$(netns_exec $ns cat "$st/rx_packets" "$st/tx_packets" \
		    "$st/rx_bytes" "$st/tx_bytes") || return 1
		# shellcheck disable=SC2086
		echo "$ns:$ifn" $v >>"$1"
	done
	echo "time_ns $(date +%s%N)" >>"$1"
	awk '$1 == "NET_RX:" || $1 == "NET_TX:" {
		s = 0; for (i = 2; i <= NF; i++) s += $i; v[$1] = s }
		END { print "softirq", v["NET_RX:"], v["NET_TX:"] }' \
	    /proc/softirqs >>"$1"
}

# gb_run TAG: one gigebench test from A to B, each end under wait4.py,
# with snapshots around it.  0 when both ends exited 0.
gb_run() {
	local tag=$1 rc=0
	port=$((port + 1))
	listen_in_b "$PY" "$TMP/wait4.py" "$TMP/$tag.rcv.rusage" \
	    "$GB" -r -1 -p "$port" --json >"$TMP/$tag.rcv.json" \
	    2>"$TMP/$tag.rcv.err" || return 1
	snapshot "$TMP/$tag.before" || return 1
	netns_exec a "$PY" "$TMP/wait4.py" "$TMP/$tag.snd.rusage" \
	    "$GB" -t "$ADDR_B" -p "$port" -T "$SECONDS_PER_RUN" --json \
	    >"$TMP/$tag.snd.json" 2>"$TMP/$tag.snd.err" || rc=$?
	# The listener's figures reach the client before it exits, so both
	# windows are over; read the counters before waiting for the listener.
	snapshot "$TMP/$tag.after" || rc=1
	wait_for "$LISTENER" 10 || rc=$?
	return "$rc"
}

# iperf3_run TAG: iperf3 from A to B on the same link; 0 on success.
iperf3_run() {
	local tag=$1 rc=0
	port=$((port + 1))
	listen_in_b iperf3 -s -1 -B "$ADDR_B" -p "$port" \
	    >"$TMP/$tag.i3s.out" 2>&1 || return 1
	netns_exec a iperf3 -c "$ADDR_B" -p "$port" -t "$SECONDS_PER_RUN" -J \
	    >"$TMP/$tag.i3.json" 2>"$TMP/$tag.i3.err" || rc=$?
	wait_for "$LISTENER" 10 || rc=$?
	return "$rc"
}

both_mtu() {	# both_mtu N: both veth ends have MTU N
	local ma mb
	ma=$(netns_exec a cat "/sys/class/net/$IF_A/mtu") || return 1
	mb=$(netns_exec b cat "/sys/class/net/$IF_B/mtu") || return 1
	[ "$ma" = "$1" ] && [ "$mb" = "$1" ]
}

both_tbf() {	# both_tbf: a tbf qdisc at 1Gbit on both veth ends
	local qa qb
	qa=$(tc -n "$NS_A" qdisc show dev "$IF_A") || return 1
	qb=$(tc -n "$NS_B" qdisc show dev "$IF_B") || return 1
	case $qa in *"tbf"*"rate 1Gbit"*) ;; *) return 1 ;; esac
	case $qb in *"tbf"*"rate 1Gbit"*) ;; *) return 1 ;; esac
}

ns_gone() {	# ns_gone NAME...: none of them is in "ip netns list"
	local list n
	list=$(ip netns list) || return 1
	for n in "$@"; do
		if printf '%s\n' "$list" | awk '{print $1}' | grep -qx "$n"; then
			echo "# namespace $n is still there" >&2
			return 1
		fi
	done
	return 0
}

# link_test MTU: a, b and c at one MTU.
link_test() {
	local mtu=$1 ts rc attempt last i3 side v
	netns_cleanup
	if ! netns_setup --mtu "$mtu" --rate 1gbit; then
		set_traps
		fail "MTU $mtu: netns_setup --mtu $mtu --rate 1gbit"
		return 0
	fi
	set_traps
	check "MTU $mtu: both veth ends have MTU $mtu" both_mtu "$mtu"
	check "MTU $mtu: tbf at 1Gbit on both ends" both_tbf
	# TCP timestamps take 12 bytes of each segment when both ends have
	# them on (the kernel's default in a new namespace is 1).
	ts=1
	for side in a b; do
		v=$(netns_exec $side cat /proc/sys/net/ipv4/tcp_timestamps) || v=1
		[ "$v" != 0 ] || ts=0
	done

	for attempt in $(seq 1 "$ACCURACY_ATTEMPTS"); do
		last=0
		[ "$attempt" -lt "$ACCURACY_ATTEMPTS" ] || last=1
		rc=0
		gb_run "m$mtu.$attempt" || rc=$?
		if [ "$attempt" -eq 1 ]; then
			check "MTU $mtu: gigebench test exits 0 on both ends" \
			    [ "$rc" -eq 0 ]
			if [ "$rc" -eq 0 ]; then
				judge "$TMP/judge.py" crosscheck "$mtu" "$ts" \
				    "$TMP/m$mtu.1.snd.json" "$TMP/m$mtu.1.before" \
				    "$TMP/m$mtu.1.after" "$TMP/m$mtu.1.snd.rusage" \
				    "$TMP/m$mtu.1.rcv.rusage" "$IF_A" "$IF_B" \
				    "$TOL_PACKETS" "$TOL_WIRE_BYTES" \
				    "$TOL_SOFTIRQ_PCT" "$TOL_SOFTIRQ_ABS" \
				    "$TOL_CPU_S" "$TOL_CPU_PCT"
			else
				cat "$TMP/m$mtu.1.snd.err" \
				    "$TMP/m$mtu.1.rcv.err" 2>/dev/null |
				    sed 's/^/# /' || true
			fi
		fi
		[ "$rc" -eq 0 ] || continue
		i3=-
		if [ "$HAVE_IPERF3" = yes ]; then
			if iperf3_run "m$mtu.$attempt"; then
				i3=$TMP/m$mtu.$attempt.i3.json
			else
				echo "# iperf3 failed: $(tail -n 2 \
				    "$TMP/m$mtu.$attempt.i3.err")"
			fi
		fi
		judge "$TMP/judge.py" accuracy "$mtu" "$ts" "$RATE_BPS" \
		    "$TMP/m$mtu.$attempt.snd.json" "$i3" "$attempt" "$last"
		if ! grep -q '^# .*: again$' "$TMP/judge.py.out"; then
			break
		fi
	done
	if [ "$rc" -ne 0 ]; then
		fail "MTU $mtu: a gigebench run for the accuracy check"
	fi

	local a=$NS_A b=$NS_B
	netns_cleanup
	check "MTU $mtu: netns_cleanup removed $a and $b" ns_gone "$a" "$b"
}

link_test 1500
link_test 9000

# d. The library on its own, in child shells: it refuses bad MTUs, takes
# the extremes, and cleans up on exit 1 and on SIGTERM, also when a
# process still runs in a namespace.
# The scripts below are for the child shell: their $1 and $NS_A are its.
# shellcheck disable=SC2016
lib=$HERE/lib/netns.sh
child_bed() {	# child_bed SCRIPT ARGS...: SCRIPT in bash with the library
	local script=$1; shift
	bash -c "set -eu; . \"\$0\"; $script" "$lib" "$@"
}
exited() {	# exited RC WANT: RC is WANT, and the child named its namespaces
	[ "$1" -eq "$2" ] && [ -s "$TMP/names" ]
}
pid_gone() {	# pid_gone FILE: the process whose pid FILE holds has ended
	local pid
	pid=$(cat "$1") || return 1
	[ -n "$pid" ] && ! kill -0 "$pid" 2>/dev/null
}
mtu_is() {	# mtu_is RC N: RC is 0 and both ends printed N
	[ "$1" -eq 0 ] && [ "$(sort -u "$TMP/ext.out")" = "$2" ]
}

for bad in 1279 65536 abc ""; do
	rc=0
	# shellcheck disable=SC2016
	child_bed 'netns_setup --mtu "$1"' "$bad" >/dev/null 2>&1 || rc=$?
	check "netns_setup --mtu '$bad' is refused (exit $rc)" [ "$rc" -eq 2 ]
done
rc=0
child_bed 'netns_setup --mtu 9000 --rate 1gbit --burst 8k' \
    >/dev/null 2>&1 || rc=$?
check "a burst smaller than one frame is refused (exit $rc)" [ "$rc" -eq 2 ]

for mtu in 1280 65535; do
	rc=0
	# shellcheck disable=SC2016
	child_bed 'netns_setup --mtu "$1" --rate 1gbit
	    netns_exec a cat "/sys/class/net/$IF_A/mtu"
	    netns_exec b cat "/sys/class/net/$IF_B/mtu"' "$mtu" \
	    >"$TMP/ext.out" 2>&1 || rc=$?
	check "MTU $mtu takes on both ends" mtu_is "$rc" "$mtu"
done

rm -f "$TMP/names" "$TMP/names.pid"
rc=0
# shellcheck disable=SC2016
child_bed 'netns_setup
    echo "$NS_A $NS_B" >"$1"
    netns_exec b sh -c "echo \$\$ >\"\$0\"; exec sleep 60" "$1.pid" &
    sleep 0.3
    exit 1' "$TMP/names" >/dev/null 2>&1 || rc=$?
check "a user of the library that exits 1 exits 1" exited "$rc" 1
# shellcheck disable=SC2046
check "and leaves no namespace" ns_gone $(cat "$TMP/names")
check "and the process it left in a namespace is gone" \
    pid_gone "$TMP/names.pid"

# The signal goes to the child bash itself (it writes its pid), not to
# the subshell of ours that waits for it.
rm -f "$TMP/names" "$TMP/names.pid"
# shellcheck disable=SC2016
child_bed 'echo $$ >"$1.pid"; netns_setup
    echo "$NS_A $NS_B" >"$1.tmp"; mv "$1.tmp" "$1"
    netns_exec b sleep 60 & wait $!' "$TMP/names" >/dev/null 2>&1 &
child=$!
PIDS="$PIDS $child"
for _ in $(seq 1 50); do
	[ ! -s "$TMP/names" ] || break
	sleep 0.1
done
rc=0
if [ -s "$TMP/names.pid" ]; then
	kill -TERM "$(cat "$TMP/names.pid")" || rc=$?
fi
wait_for "$child" 5 || rc=$?
check "a user of the library killed by SIGTERM exits 143" exited "$rc" 143
# shellcheck disable=SC2046
check "and leaves no namespace" ns_gone $(cat "$TMP/names")

netns_cleanup
check "no namespace of this script remains (gb-a-$$, gb-b-$$, gb-probe-$$)" \
    ns_gone "gb-a-$$" "gb-b-$$" "gb-probe-$$"
finish
