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
#     the loss is large (over 20 %), and gigebench's lost is within 5 % of
#     the increase of Udp RcvbufErrors in B's /proc/net/snmp;
# and that its namespaces are gone at the end.  Every check prints "ok"
# or "FAIL" with the figures it compared; the last line is "N passed, M
# failed".  Without root it prints "# SKIP <reason>" and "0 passed, 0
# failed, 1 skipped"; with CI set that is a failure (tests/lib/skip.sh).
#
# Noise is one-sided in check 1: a stall of the sender longer than its
# pacing's 10 ms catch-up (other work on this host) can only lower the
# rate, and one of the receiver can only overflow its buffer, while a
# wrong pace, byte count or clock would move every run the same way.  So
# a run of check 1 that misses is run again, up to RATE_ATTEMPTS times,
# and every attempt is printed.  Checks 2-4 count one event two ways (a
# datagram gigebench lost is a drop the kernel counted), which no stall
# changes; they run once.
set -eu

HERE=$(cd "$(dirname "$0")" && pwd)
GB=${GIGEBENCH:-$(dirname "$HERE")/build/gigebench}
PY=${PYTHON:-python3}
RATE_ATTEMPTS=3
LEN=1472	# -l: the payload of a full frame at MTU 1500 over IPv4

# shellcheck source=tests/lib/netns.sh
. "$HERE/lib/netns.sh"
if ! netns_need_root >/dev/null; then
	skip_or_fail "$NETNS_MISSING"	# under CI: a failure
	exit $?
fi

pass=0
failed=0
ok() { pass=$((pass + 1)); echo "ok - $1"; }
fail() { failed=$((failed + 1)); echo "FAIL - $1"; }
check() {	# check NAME COMMAND...: passes when the command succeeds
	local name=$1; shift
	if "$@"; then ok "$name"; else fail "$name"; fi
}
finish() {
	echo "$pass passed, $failed failed"
	[ "$failed" -eq 0 ]
}

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

# judge.py CASE ARGS...: reads the client's --json and the counters this
# script read, prints "ok - ", "FAIL - " and "# " lines.
cat >"$TMP/judge.py" <<'PYEOF'
import json, sys

def line(good, text):
    print(("ok - " if good else "FAIL - ") + text)

def load(path):
    with open(path) as f:
        return json.load(f)["result"]

def udp(r):
    u = r["udp"]
    return u["sent"], u["received"], u["lost"], u["lost_pct"]

def figures(tag, r):
    s, v = r["sender"], r["receiver"]
    sent, rcvd, lost, pct = udp(r)
    print("# %s: sent %d, received %d, lost %d (%.2f %%); sender %.2f "
          "Mbit/s %.0f pps (enobufs %d), receiver %.2f Mbit/s %.0f pps, "
          "rcvbuf %s/%s, jitter %.3f ms" %
          (tag, sent, rcvd, lost, pct, s["mbps"], r["udp"]["sender_pps"],
           s["udp"]["enobufs"], v["mbps"], r["udp"]["receiver_pps"],
           v["rcvbuf"]["requested"], v["rcvbuf"]["actual"],
           r["udp"]["jitter_ms"]))

def rate(args):
    # rate JSON WANT_MBPS TOL_PCT ATTEMPT LAST
    r = load(args[0])
    want, tol = float(args[1]), float(args[2])
    attempt, last = int(args[3]), args[4] == "1"
    tag = "1. -R 50m, attempt %d" % attempt
    figures(tag, r)
    v = r["receiver"]
    # The receiver's own payload bytes over its own window (the start
    # message to its last datagram): what reached the far end, in the
    # unit of -R (UDP payload, gigebench's header in it).
    mbps = v["bytes"] * 8 / v["seconds"] / 1e6
    dev = (mbps - want) / want * 100
    _, _, lost, _ = udp(r)
    good = lost == 0 and abs(dev) <= tol
    if not good and not last:
        print("# %s: lost %d, receiver %.3f Mbit/s (%+.2f %%): again" %
              (tag, lost, mbps, dev))
        return 0
    line(lost == 0, "%s: lost == 0 (sent %d, received %d, lost %d)" %
         ((tag,) + udp(r)[:3]))
    line(abs(dev) <= tol,
         "%s: receiver %d bytes in %.6f s = %.3f Mbit/s, %+.2f %% of %g "
         "(allowed %g %%)" % (tag, v["bytes"], v["seconds"], mbps, dev,
                              want, tol))
    line(abs(v["mbps"] - mbps) <= 1e-6 * mbps,
         "%s: result.receiver.mbps %.6f is bytes*8/seconds %.6f" %
         (tag, v["mbps"], mbps))
    return 0

def qdrop(args):
    # qdrop JSON DROPS RCVBUFERRS LO_PCT HI_PCT TOL_PCT
    r = load(args[0])
    drops, rcvbuf = int(args[1]), int(args[2])
    lo, hi, tol = float(args[3]), float(args[4]), float(args[5])
    tag = "2. short queue, -R 200m"
    figures(tag, r)
    sent, rcvd, lost, pct = udp(r)
    line(lo <= pct <= hi, "%s: lost %d of %d = %.2f %% (allowed %g-%g %%)" %
         (tag, lost, sent, pct, lo, hi))
    diff = (lost - drops) / drops * 100 if drops else float("inf")
    line(drops > 0 and abs(diff) <= tol,
         "%s: lost %d, the sender's qdisc dropped %d (%+.3f %%, allowed "
         "%g %%; receiver RcvbufErrors +%d, sequence gaps %d)" %
         (tag, lost, drops, diff, tol, rcvbuf, r["receiver"]["udp"]["gaps"]))
    return 0

def blocked(args):
    # blocked JSON RATE_BPS MAX_PCT LOST_PCT DROPS
    r = load(args[0])
    rate_bps, max_pct = float(args[1]), float(args[2])
    max_lost, drops = float(args[3]), int(args[4])
    tag = "3. long queue, -R 200m"
    figures(tag, r)
    sent, rcvd, lost, pct = udp(r)
    line(pct < max_lost, "%s: lost %d of %d = %.3f %% < %g %% (qdisc "
         "dropped %d)" % (tag, lost, sent, pct, max_lost, drops))
    pace = rate_bps / (8 * r["sender"]["udp"]["length"])
    pps = r["udp"]["sender_pps"]
    line(pps < pace * max_pct / 100,
         "%s: the sender achieved %.0f pps = %.1f %% of -R's %.0f pps "
         "(%.2f Mbit/s; allowed < %g %%)" %
         (tag, pps, pps / pace * 100, pace, r["sender"]["mbps"], max_pct))
    return 0

def rcvbuf(args):
    # rcvbuf JSON RCVBUFERRS MIN_PCT TOL_PCT BUF
    r = load(args[0])
    errs, min_pct = int(args[1]), float(args[2])
    tol, buf = float(args[3]), int(args[4])
    tag = "4. -R 0 -b 4K, no qdisc"
    figures(tag, r)
    sent, rcvd, lost, pct = udp(r)
    v = r["receiver"]["rcvbuf"]
    line(v["requested"] == buf and v["actual"] > 0,
         "%s: the listener's receiving socket asked for SO_RCVBUF %s, got "
         "%s" % (tag, v["requested"], v["actual"]))
    line(pct > min_pct, "%s: lost %d of %d = %.2f %% (allowed > %g %%)" %
         (tag, lost, sent, pct, min_pct))
    diff = (lost - errs) / errs * 100 if errs else float("inf")
    line(errs > 0 and abs(diff) <= tol,
         "%s: lost %d, B's Udp RcvbufErrors rose by %d (%+.3f %%, allowed "
         "%g %%)" % (tag, lost, errs, diff, tol))
    return 0

sys.exit({"rate": rate, "qdrop": qdrop, "blocked": blocked,
          "rcvbuf": rcvbuf}[sys.argv[1]](sys.argv[2:]))
PYEOF

# tally FILE: prints the judge's lines and counts its verdicts.
tally() {
	local l
	while IFS= read -r l; do
		case $l in
		"ok - "*) ok "${l#ok - }" ;;
		"FAIL - "*) fail "${l#FAIL - }" ;;
		*) echo "$l" ;;
		esac
	done <"$1"
}

# judge WHAT ARGS...: runs judge.py; a crash is a failure of its own.
judge() {
	local what=$1 rc=0
	"$PY" "$TMP/judge.py" "$@" >"$TMP/judge.out" 2>"$TMP/judge.err" || rc=$?
	tally "$TMP/judge.out"
	if [ "$rc" -ne 0 ]; then
		fail "judge $what ran (exit $rc: $(tail -n 1 "$TMP/judge.err"))"
	fi
}

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

# 1. -R 50m, half the link: nothing lost, 50 Mbit/s within 1 %.
for attempt in $(seq 1 "$RATE_ATTEMPTS"); do
	last=0
	[ "$attempt" -lt "$RATE_ATTEMPTS" ] || last=1
	rc=0
	udp_run "r50.$attempt" -R 50m -l "$LEN" -T 3 || rc=$?
	if [ "$rc" -ne 0 ]; then
		fail "1. -R 50m, attempt $attempt: both ends exit 0"
		break
	fi
	judge rate "$TMP/r50.$attempt.json" 50 1 "$attempt" "$last"
	grep -q '^# .*: again$' "$TMP/judge.out" || break
done

# 2. The short queue: tbf drops what the link cannot carry.
check "A's qdisc is tbf at 100 Mbit/s, burst and limit 32kb" \
    sender_tbf burst 32kb limit 32kb
if udp_run short -R 200m -l "$LEN" -T 3 && [ "$DROPS" -ge 0 ]; then
	judge qdrop "$TMP/short.json" "$DROPS" "$RCVBUF" 35 65 1
else
	fail "2. short queue, -R 200m: both ends exit 0, qdisc read"
fi

# 3. The long queue again: the socket blocks, the sender slows down.
# shellcheck disable=SC2086
check "A's qdisc is tbf at 100 Mbit/s with the long queue again" \
    sender_tbf $LONG
if udp_run long -R 200m -l "$LEN" -T 3 && [ "$DROPS" -ge 0 ]; then
	judge blocked "$TMP/long.json" 200000000 60 1 "$DROPS"
else
	fail "3. long queue, -R 200m: both ends exit 0, qdisc read"
fi

# 4. No qdisc on A: the veth is as fast as the sender; the listener's 4K
# receive buffer (-b sets both ends' data sockets) overflows.
no_qdisc() {
	tc -n "$NS_A" qdisc del dev "$IF_A" root || return 1
	! tc -n "$NS_A" qdisc show dev "$IF_A" | grep -q tbf
}
check "A's tbf qdisc is removed" no_qdisc
if udp_run rcvbuf -R 0 -l "$LEN" -b 4K -T 2; then
	judge rcvbuf "$TMP/rcvbuf.json" "$RCVBUF" 20 5 4096
else
	fail "4. -R 0 -b 4K: both ends exit 0"
fi

a=$NS_A
b=$NS_B
netns_cleanup
check "netns_cleanup removed $a and $b" ns_gone "$a" "$b"
finish
