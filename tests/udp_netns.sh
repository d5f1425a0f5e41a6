#!/usr/bin/env bash
# UDP (-u) on an emulated 100 Mbit/s link (root; issue 15, "Tests"): two
# namespaces joined by a veth pair (tests/lib/netns.sh), a tbf qdisc on
# the sender's end, the client in A sending to a listener in B.  Run from
# the top of the tree as
#	GIGEBENCH=build/gigebench bash tests/udp_netns.sh
# (make check-netns).  It checks:
#  1. tbf rate 100mbit with the library's long queue (burst 8 ms of data,
#     latency 20 ms): -R 50m loses nothing and the receiver gets 50 Mbit/s
#     within 1 %;
#  2. tbf rate 100mbit burst 32kb limit 32kb, a queue shorter than the
#     sending socket's buffer: -R 200m loses about half (35-65 %), and
#     gigebench's lost equals the drops "tc -s qdisc" counts on A's qdisc
#     within 1 %;
#  3. the long queue again, -R 200m: the sending socket fills and blocks
#     before the queue overflows, so less than 1 % is lost and the sender
#     achieves well under -R (below 60 % of its datagrams per second);
#  4. no qdisc, -R 0 -b 4K: the listener's 4K receive buffer overflows,
#     the loss is over 1 % (thousands of datagrams), and gigebench's lost
#     is within 5 % of the increase of Udp RcvbufErrors in B's
#     /proc/net/snmp, and the diagnosis puts it in the receiving
#     socket's buffer;
# and that its namespaces are gone at the end.  Every check prints "ok"
# or "FAIL" with the figures it compared; the last line is "N passed, M
# failed".  Without root it prints "# SKIP <reason>" and "0 passed, 0
# failed, 1 skipped"; with CI set that is a failure (tests/lib/skip.sh).
#
# Noise from other work on this host is one-sided: a stall of the sender
# longer than its pacing's 10 ms catch-up can only lower its rate, and a
# stall of the listener longer than its receive buffer holds (~90
# datagrams of 1472 bytes in the default 212,992) can only add to the
# loss, counted in B's RcvbufErrors (seen here: +3 to +788 datagrams in
# runs of checks 1-3), while a wrong pace, count or clock in gigebench
# would move every run the same way.  So a run that misses a check is run
# again, up to ATTEMPTS times, and every attempt prints its figures with
# the qdisc's drops and RcvbufErrors, which tell where a loss happened.
#
# The bounds against what 30-odd runs of each check measured here (2
# CPUs shared with other builds and tests, load 1-6): 1. lost 0 but for
# two runs (24 and 340), receiver 47.5-50.0 Mbit/s, a first attempt below
# -1 % in 5 of 35, all three below in one script run (sender 49.0-49.2
# Mbit/s: its pacing lost the time of the stalls); 2. lost 50.9-55.4 %,
# equal to the qdisc's drops in 30 of 31 (once +3.4 %: the excess was
# RcvbufErrors, and the next attempt passed); 3. lost 0-0.56 % (only
# RcvbufErrors, the qdisc dropped nothing), sender 47-49 % of -R's
# datagrams; 4. lost 34-74 % (34-40 % when the host is idle), equal to
# RcvbufErrors in every run.  On the kernel of 2026-12-02 evening
# (6.18.44) check 4 lost only 1.8-11.1 % in 12 attempts, with this
# build and with one from the morning alike (the receiving process keeps
# up better; the loss is still RcvbufErrors to the datagram), so its
# floor is 1 %: what it asserts is that the buffer's overflow is counted,
# and counted as the kernel counts it.
set -eu

HERE=$(cd "$(dirname "$0")" && pwd)
GB=${GIGEBENCH:-$(dirname "$HERE")/build/gigebench}
PY=${PYTHON:-python3}
ATTEMPTS=3
LEN=1472	# -l: the payload of a full frame at MTU 1500 over IPv4

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

TMP=$(mktemp -d)
LISTENER=""
cleanup() {
	[ -z "$LISTENER" ] || kill "$LISTENER" 2>/dev/null || true
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

# judge.py CASE JSON TAG DROPS RCVBUFERRS ATTEMPT LAST ARGS...: reads the
# client's --json and the counters this script read around the run (the
# drops of A's qdisc, -1 without one, and B's Udp RcvbufErrors), prints
# the figures ("# ") and a verdict per check ("ok - ", "FAIL - ").  When
# a check fails and this was not the last attempt, it prints the figures
# and "again" instead of the verdicts.
cat >"$TMP/judge.py" <<'PYEOF'
import json, sys

def udp(r):
    u = r["udp"]
    return u["sent"], u["received"], u["lost"], u["lost_pct"]

def figures(tag, r, drops, errs):
    s, v = r["sender"], r["receiver"]
    sent, rcvd, lost, pct = udp(r)
    print("# %s: sent %d, received %d, lost %d (%.2f %%; sequence gaps %d); "
          "sender %.2f Mbit/s %.0f pps (enobufs %d), receiver %.2f Mbit/s "
          "%.0f pps, SO_RCVBUF %s/%s, jitter %.3f ms; A's qdisc dropped %s, "
          "B's RcvbufErrors +%d" %
          (tag, sent, rcvd, lost, pct, v["udp"]["gaps"], s["mbps"],
           r["udp"]["sender_pps"], s["udp"]["enobufs"], v["mbps"],
           r["udp"]["receiver_pps"], v["rcvbuf"]["requested"],
           v["rcvbuf"]["actual"], r["udp"]["jitter_ms"],
           drops if drops >= 0 else "- (none)", errs))
    print("# %s: diagnosis: %s" % (tag, "; ".join(
        "%s (%s): %s" % (f["code"], f["side"], f["text"])
        for f in r["diagnosis"] or []) or "none"))

def near(got, ref, tol):
    # got within tol % of ref: (good, the deviation in %)
    if ref <= 0:
        return False, float("inf")
    dev = (got - ref) / ref * 100
    return abs(dev) <= tol, dev

def rate(r, drops, errs, args):
    # rate WANT_MBPS TOL_PCT
    want, tol = float(args[0]), float(args[1])
    v = r["receiver"]
    sent, rcvd, lost, _ = udp(r)
    # The receiver's own payload bytes over its own window (the start
    # message to its last datagram): what reached the far end, in the
    # unit of -R (UDP payload, gigebench's header in it).
    mbps = v["bytes"] * 8 / v["seconds"] / 1e6
    good, dev = near(mbps, want, tol)
    return [
        (lost == 0, "lost == 0 (sent %d, received %d, lost %d)" %
         (sent, rcvd, lost)),
        (good, "receiver %d bytes in %.6f s = %.3f Mbit/s, %+.2f %% of %g "
         "(allowed %g %%)" % (v["bytes"], v["seconds"], mbps, dev, want,
                              tol)),
        (abs(v["mbps"] - mbps) <= 1e-6 * mbps,
         "result.receiver.mbps %.6f is bytes*8/seconds %.6f" %
         (v["mbps"], mbps))]

def qdrop(r, drops, errs, args):
    # qdrop LO_PCT HI_PCT TOL_PCT
    lo, hi, tol = float(args[0]), float(args[1]), float(args[2])
    sent, rcvd, lost, pct = udp(r)
    good, dev = near(lost, drops, tol)
    return [
        (lo <= pct <= hi, "lost %d of %d = %.2f %% (allowed %g-%g %%)" %
         (lost, sent, pct, lo, hi)),
        (good, "lost %d, the sender's qdisc dropped %d (%+.3f %%, allowed "
         "%g %%)" % (lost, drops, dev, tol))]

def blocked(r, drops, errs, args):
    # blocked RATE_BPS MAX_PCT MAX_LOST_PCT
    rate_bps, max_pct, max_lost = (float(a) for a in args[:3])
    sent, rcvd, lost, pct = udp(r)
    pace = rate_bps / (8 * r["sender"]["udp"]["length"])
    pps = r["udp"]["sender_pps"]
    return [
        (pct < max_lost, "lost %d of %d = %.3f %% (allowed < %g %%)" %
         (lost, sent, pct, max_lost)),
        (pps < pace * max_pct / 100,
         "the sender achieved %.0f pps = %.1f %% of -R's %.0f pps "
         "(%.2f Mbit/s; allowed < %g %%)" %
         (pps, pps / pace * 100, pace, r["sender"]["mbps"], max_pct)),
        # The report says so, and does not call it loss.
        (any(f["code"] == "udp_held_back" and f["side"] == "sender"
             for f in r["diagnosis"]) and
         not any(f["code"] == "udp_loss" for f in r["diagnosis"]),
         "the diagnosis says the sender was held back, and no udp_loss "
         "(%s)" % ", ".join(f["code"] for f in r["diagnosis"]))]

def rcvbuf(r, drops, errs, args):
    # rcvbuf BUF MIN_PCT TOL_PCT
    buf, min_pct, tol = int(args[0]), float(args[1]), float(args[2])
    sent, rcvd, lost, pct = udp(r)
    v = r["receiver"]["rcvbuf"]
    good, dev = near(lost, errs, tol)
    return [
        (v["requested"] == buf and v["actual"] > 0,
         "the listener's receiving socket asked for SO_RCVBUF %s, got %s" %
         (v["requested"], v["actual"])),
        (pct > min_pct, "lost %d of %d = %.2f %% (allowed > %g %%)" %
         (lost, sent, pct, min_pct)),
        (good, "lost %d, B's Udp RcvbufErrors rose by %d (%+.3f %%, "
         "allowed %g %%)" % (lost, errs, dev, tol)),
        (any(f["code"] == "udp_loss" and f["side"] == "receiver" and
             "receiving socket's buffer" in f["text"]
             for f in r["diagnosis"] or []),
         "the diagnosis puts the loss in the receiving socket's buffer")]

def main(argv):
    case, path, tag = argv[1], argv[2], argv[3]
    drops, errs = int(argv[4]), int(argv[5])
    attempt, last = int(argv[6]), argv[7] == "1"
    with open(path) as f:
        r = json.load(f)["result"]
    tag = "%s, attempt %d" % (tag, attempt)
    figures(tag, r, drops, errs)
    lines = {"rate": rate, "qdrop": qdrop, "blocked": blocked,
             "rcvbuf": rcvbuf}[case](r, drops, errs, argv[8:])
    if not last and not all(good for good, _ in lines):
        print("# %s: missed (%s): again" % (tag, "; ".join(
            text for good, text in lines if not good)))
        return 0
    for good, text in lines:
        print(("ok - " if good else "FAIL - ") + tag + ": " + text)
    return 0

sys.exit(main(sys.argv))
PYEOF

port=5300
# "ip netns exec" execs the command, so $! is the listener itself.
listen_in_b() {	# listen_in_b CMD...: background in B, wait for $port
	local socks
	ip netns exec "$NS_B" "$@" &
	LISTENER=$!
	for _ in $(seq 1 100); do
		socks=$(netns_exec b ss -Htln "sport = :$port") || return 1
		[ -z "$socks" ] || return 0
		kill -0 "$LISTENER" 2>/dev/null || break
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

# qdisc_dropped: the drops of A's root tbf qdisc ("tc -s qdisc").
qdisc_dropped() {
	tc -n "$NS_A" -s qdisc show dev "$IF_A" | awk '
		$1 == "qdisc" { t = ($2 == "tbf") }
		t && /dropped/ { sub(/.*dropped /, ""); sub(/,.*/, ""); print
			n++; exit }
		END { if (!n) exit 1 }'
}

# rcvbuf_errors: Udp RcvbufErrors in B's /proc/net/snmp (per namespace).
rcvbuf_errors() {
	netns_exec b cat /proc/net/snmp | awk '
		$1 == "Udp:" && !h { for (i = 2; i <= NF; i++) c[$i] = i
			h = 1; next }
		$1 == "Udp:" && ("RcvbufErrors" in c) {
			print $c["RcvbufErrors"]; n++ }
		END { if (!n) exit 1 }'
}

# udp_run TAG ARGS...: one -u test from A to B with ARGS, --json to
# $TMP/TAG.json; the qdisc's drops and B's RcvbufErrors read just before
# the client starts and after both ends have exited go to DROPS and
# RCVBUF.  0 when both ends exited 0.
udp_run() {
	local tag=$1 rc=0 d0 d1 e0 e1
	shift
	port=$((port + 1))
	DROPS=-1
	RCVBUF=-1
	listen_in_b "$GB" -r -1 -p "$port" --json >"$TMP/$tag.rcv.json" \
	    2>"$TMP/$tag.rcv.err" || return 1
	d0=$(qdisc_dropped) || d0=""
	e0=$(rcvbuf_errors) || return 1
	netns_exec a "$GB" -t "$ADDR_B" -p "$port" -u --json "$@" \
	    >"$TMP/$tag.json" 2>"$TMP/$tag.err" || rc=$?
	# The listener has sent its figures before the client printed them:
	# it only closes.  Its own end is bounded by its drain (a second
	# after the duration) and the silent-peer timeout, 10 s.
	wait_for "$LISTENER" 15 || rc=$?
	LISTENER=""
	if [ -n "$d0" ]; then
		d1=$(qdisc_dropped) || return 1
		DROPS=$((d1 - d0))
	fi
	e1=$(rcvbuf_errors) || return 1
	RCVBUF=$((e1 - e0))
	if [ "$rc" -ne 0 ]; then
		echo "# $tag: gigebench -u $* failed (exit $rc):"
		cat "$TMP/$tag.err" "$TMP/$tag.rcv.err" 2>/dev/null |
		    sed 's/^/#   /' || true
	fi
	return "$rc"
}

# sender_tbf ARGS...: A's root qdisc becomes "tbf rate 100mbit ARGS";
# prints it.
sender_tbf() {
	tc -n "$NS_A" qdisc replace dev "$IF_A" root tbf rate 100mbit "$@" ||
	    return 1
	echo "# $IF_A: $(tc -n "$NS_A" qdisc show dev "$IF_A")"
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

if ! netns_setup --rate 100mbit; then
	set_traps
	fail "netns_setup --rate 100mbit"
	finish || exit 1
fi
set_traps
# The long queue is the library's: a bucket of 8 ms of data (100,000
# bytes at 100mbit) and latency 20 ms, which tc turns into a limit of
# 350,000 bytes.  The sending socket's default buffer (212,992 bytes of
# skb truesize, ~2.3K per 1514-byte frame) cannot fill it, so the socket
# blocks before the queue drops.
LONG="burst $NETNS_BURST_BYTES latency $NETNS_LATENCY"
# shellcheck disable=SC2086
check "A's qdisc is tbf at 100 Mbit/s with the long queue" sender_tbf $LONG

# attempts TAG CASE "JUDGE-ARGS" GIGEBENCH-ARGS...: runs gigebench -u
# with the arguments and judges the run with judge.py CASE and its
# arguments, up to ATTEMPTS times while a check misses.
attempts() {
	local tag=$1 what=$2 jargs=$3 attempt last rc
	shift 3
	for attempt in $(seq 1 "$ATTEMPTS"); do
		last=0
		[ "$attempt" -lt "$ATTEMPTS" ] || last=1
		rc=0
		udp_run "$what.$attempt" "$@" || rc=$?
		if [ "$rc" -ne 0 ]; then
			fail "$tag, attempt $attempt: both ends exit 0"
			return 0
		fi
		# shellcheck disable=SC2086
		judge "$TMP/judge.py" "$what" "$TMP/$what.$attempt.json" "$tag" "$DROPS" \
		    "$RCVBUF" "$attempt" "$last" $jargs
		grep -q '^# .*: again$' "$TMP/judge.py.out" || return 0
	done
}

# 1. -R 50m, half the link: nothing lost, 50 Mbit/s within 1 %.
attempts "1. -R 50m" rate "50 1" -R 50m -l "$LEN" -T 3

# 2. The short queue: tbf drops what the link cannot carry, and only
# that: lost is 35-65 %, and the qdisc's drops within 1 %.
check "A's qdisc is tbf at 100 Mbit/s, burst and limit 32kb" \
    sender_tbf burst 32kb limit 32kb
attempts "2. short queue, -R 200m" qdrop "35 65 1" -R 200m -l "$LEN" -T 3

# 3. The long queue again: the socket blocks, the sender slows down:
# under 1 % lost, under 60 % of -R's datagrams per second.
# shellcheck disable=SC2086
check "A's qdisc is tbf at 100 Mbit/s with the long queue again" \
    sender_tbf $LONG
attempts "3. long queue, -R 200m" blocked "200000000 60 1" \
    -R 200m -l "$LEN" -T 3

# 4. No qdisc on A: the veth is as fast as the sender; the listener's 4K
# receive buffer (-b sets both ends' data sockets) overflows: over 1 %
# lost, and RcvbufErrors within 5 %.
no_qdisc() {
	tc -n "$NS_A" qdisc del dev "$IF_A" root || return 1
	! tc -n "$NS_A" qdisc show dev "$IF_A" | grep -q tbf
}
check "A's tbf qdisc is removed" no_qdisc
attempts "4. -R 0 -b 4K, no qdisc" rcvbuf "4096 1 5" \
    -R 0 -l "$LEN" -b 4K -T 2

# 5. Longer than the path MTU (1500 on the veth): allowed, sent in IP
# fragments, with a warning on the sender; nothing lost at 10m.
frag_ok() {
	"$PY" - "$TMP/frag.json" <<'PYEOF'
import json, sys
r = json.load(open(sys.argv[1]))["result"]
w = [x for x in r["sender"]["warnings"] if "IP fragments" in x]
print("# 5. -l 4000: sent %s, received %s; warnings %s" % (
    r["udp"]["sent"], r["udp"]["received"], r["sender"]["warnings"]))
sys.exit(0 if w and r["udp"]["lost"] == 0 and r["udp"]["sent"] > 0 else 1)
PYEOF
}
if udp_run frag -R 10m -l 4000 -T 1; then
	check "5. -l 4000 over MTU 1500: a warning of IP fragments, no loss" \
	    frag_ok
else
	fail "5. -l 4000 over MTU 1500: both ends exit 0"
fi

a=$NS_A
b=$NS_B
netns_cleanup
check "netns_cleanup removed $a and $b" ns_gone "$a" "$b"
finish
