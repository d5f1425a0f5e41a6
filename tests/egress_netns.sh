#!/usr/bin/env bash
# The interface read is not the one the test's packets leave by (root;
# issue 17).  Run from the top of the tree as
#	GIGEBENCH=build/gigebench bash tests/egress_netns.sh
# (make check-netns).
#
# Two namespaces, A and B, joined by two veth pairs, with IPv6 and the
# reverse path filter off:
#	pair 1: gb-a1 198.18.10.1/24 in A <-> gb-b1 198.18.10.2/24 in B
#	pair 2: gb-a2 198.18.11.1/24 in A <-> gb-b2 198.18.11.2/24 in B
# and a listener (-r --allow-reverse) in each.  Every case is one 0.5 s
# test from A, run twice: as text, where a warning is a line
# "gigebench-t: warning: ..." (the sender's) or "gigebench-r: warning:
# ..." (the receiver's), and as --json, where it is a string of
# result.sender.warnings or result.receiver.warnings.  Each checks that
# both ends exit 0, that the warnings of this kind (the ones that say
# "interrupt and packet counts") are exactly the ones the case expects,
# and that the packet counts of the interfaces read bear them out (those
# of a side with the warning next to none of the data, of one without it
# most of them):
#  1. -I gb-a1 to 198.18.11.2 (over pair 2): the sender warns, naming
#     gb-a1 and gb-a2;
#  2. -I gb-a2 to 198.18.11.2, and 3. no -I to it: no warning;
#  4. -I gb-a1 -r 198.18.11.2: the client receives, its route back leaves
#     by gb-a2: the receiver warns;
#  5. no -I, a host route 198.18.10.2/32 dev gb-a2 src 198.18.10.1: the
#     local address is gb-a1's, the packets leave by gb-a2: the sender
#     warns about gb-a1 as the local address's interface.  B answers by
#     pair 1 (its connected route) and reads gb-b1, which holds the
#     address and is its route back: no warning there, although the data
#     come in by gb-b2 (the route is only the way out: not told, and its
#     counts not checked);
#  6. the same route without src: the kernel takes the source from
#     gb-a2 (198.18.11.1), so A reads the interface it sends by: no
#     warning on A; B's address is gb-b1's but its route back to
#     198.18.11.1 is gb-b2: the receiver warns;
#  7. within A to its own 198.18.11.1: gb-a2 holds the address, the
#     packets go by lo: both ends warn (a real mismatch, see
#     src/xfer_measure.c); 8. to 127.0.0.1: lo and lo, no warning;
#  9. -I lo to 198.18.11.1: the sender reads lo, no warning on it (the
#     listener, without -I, still warns as in 7);
# 10. gb-a2 made a port of bridge gb-abr, which takes its address: -I
#     gb-a2 to 198.18.11.2 leaves by gb-abr, over gb-a2: no warning; -I
#     gb-a1 to it: the sender warns, naming gb-abr;
# that no process printed a sanitizer report (under ASan/UBSan), and that
# the namespaces are gone at the end.  Prints "ok - ..." or
# "FAIL - ..." per check, "N passed, M failed" last.  Without root it
# prints "# SKIP <reason>" and "0 passed, 0 failed, 1 skipped"; with CI
# set that is a failure (tests/lib/skip.sh).
set -eu

HERE=$(cd "$(dirname "$0")" && pwd)
GB=${GIGEBENCH:-$(dirname "$HERE")/build/gigebench}
PY=${PYTHON:-python3}
PORT=5401

# shellcheck source=tests/lib/netns.sh
. "$HERE/lib/netns.sh"
if ! netns_need_root >/dev/null; then
	skip_or_fail "$NETNS_MISSING"	# under CI: a failure
	exit $?
fi
# shellcheck source=tests/lib/tally.sh
. "$HERE/lib/tally.sh"
if [ ! -x "$GB" ]; then
	fail "gigebench is built: $GB (make)"
	finish || exit 1
fi

NS_A=gb-ea-$$
NS_B=gb-eb-$$
export NS_A NS_B
TMP=$(mktemp -d)
cleanup() {
	netns_cleanup	# ends the listeners too: they run in the namespaces
	rm -rf "$TMP"
}
trap cleanup EXIT
trap 'cleanup; exit 130' INT
trap 'cleanup; exit 143' TERM

# The sender's and the receiver's warnings, as the text report has them.
TX="the test's data leave by"
RX="the route to the sender leaves by"
not_tx() { echo "$1's interrupt and packet counts miss them"; }
not_rx() {
	echo "$1's interrupt and packet counts miss the data unless the" \
	    "routing is asymmetric"
}

testbed() {
	local ns
	ip netns add "$NS_A" && ip netns add "$NS_B" || return 1
	for ns in "$NS_A" "$NS_B"; do
		netns_sysctl_v6off "$ns" || return 1
		# Case 5 answers by another pair than it came in by.
		ip netns exec "$ns" sh -c \
		    'echo 0 >/proc/sys/net/ipv4/conf/all/rp_filter &&
		    echo 0 >/proc/sys/net/ipv4/conf/default/rp_filter' ||
		    return 1
		ip -n "$ns" link set lo up || return 1
	done
	ip -n "$NS_A" link add gb-a1 type veth peer name gb-b1 netns "$NS_B" &&
	ip -n "$NS_A" link add gb-a2 type veth peer name gb-b2 netns "$NS_B" &&
	ip -n "$NS_A" addr add 198.18.10.1/24 dev gb-a1 &&
	ip -n "$NS_A" addr add 198.18.11.1/24 dev gb-a2 &&
	ip -n "$NS_B" addr add 198.18.10.2/24 dev gb-b1 &&
	ip -n "$NS_B" addr add 198.18.11.2/24 dev gb-b2 &&
	ip -n "$NS_A" link set gb-a1 up && ip -n "$NS_A" link set gb-a2 up &&
	ip -n "$NS_B" link set gb-b1 up && ip -n "$NS_B" link set gb-b2 up
}

LISTENERS=""
listen() {	# listen a|b: a listener there, up when its port is
	netns_exec "$1" "$GB" -r -p "$PORT" --allow-reverse -q \
	    >"$TMP/listen-$1.out" 2>"$TMP/listen-$1.err" &
	# "ip netns exec" execs the command: $! is the listener itself.
	LISTENERS="$LISTENERS $!"
	for _ in $(seq 1 100); do
		netns_exec "$1" ss -Htln "sport = :$PORT" | grep -q . &&
		    return 0
		sleep 0.05
	done
	echo "# the listener in $1 did not come up:" \
	    "$(tail -n 2 "$TMP/listen-$1.err")"
	return 1
}

# judge.py JSON WANT_TX WANT_RX UNSEEN: the warnings of this kind in the
# JSON are WANT_TX on the sender and WANT_RX on the receiver ("" for
# none), and the counters bear them out: the interface a side read
# counted the data it sent (tx) or received (rx) when it has no warning,
# and next to none of them when it has one; UNSEEN names a side whose
# counts are not checked (case 5's receiver).
cat >"$TMP/judge.py" <<'PYEOF'
import json, sys
r = json.load(open(sys.argv[1]))["result"]
ok = True
for side, want, way in (("sender", sys.argv[2], "tx"),
                        ("receiver", sys.argv[3], "rx")):
    s = r[side]
    got = [w for w in s["warnings"] if "interrupt and packet counts" in w]
    if got != ([want] if want else []):
        print("# %s: %r, not %r" % (side, got, want))
        ok = False
    n = s["packets"][way]
    print("# %s: %s counted %s packets %s" % (side, s["interface"]["name"],
                                              n, way))
    # 0.5 s of TCP over veth or lo: tens of thousands of 64K skbs.
    if side != sys.argv[4] and (n is None or (n > 50 if want else n < 500)):
        print("# %s: %s packets %s do not bear the warnings out" %
              (side, way, n))
        ok = False
sys.exit(0 if ok else 1)
PYEOF

# text_ok FILE WANT_TX WANT_RX: the same in the text report.
text_ok() {
	local want got
	want=$( { [ -z "$2" ] || echo "gigebench-t: warning: $2"
	    [ -z "$3" ] || echo "gigebench-r: warning: $3"; } )
	got=$(grep 'warning: .*interrupt and packet counts' "$1" || true)
	[ "$got" = "$want" ] && return 0
	echo "# text: ${got:-no such warning}, not ${want:-none}"
	return 1
}

# run TAG WANT_TX WANT_RX ARGS...: one test from A with ARGS, as text
# and as --json.
run() {
	local tag=$1 wtx=$2 wrx=$3 rc=0 rj=0
	shift 3
	netns_exec a "$GB" -p "$PORT" -T 0.5 "$@" >"$TMP/$tag.txt" \
	    2>"$TMP/$tag.err" || rc=$?
	netns_exec a "$GB" -p "$PORT" -T 0.5 --json "$@" >"$TMP/$tag.json" \
	    2>"$TMP/$tag.json.err" || rj=$?
	if [ "$rc" -ne 0 ] || [ "$rj" -ne 0 ]; then
		fail "$tag: gigebench $* exits 0 (text $rc, --json $rj:" \
		    "$(tail -n 1 "$TMP/$tag.err") $(tail -n 1 "$TMP/$tag.json.err"))"
		return 0
	fi
	check "$tag: text warnings: ${wtx:-none} / ${wrx:-none}" \
	    text_ok "$TMP/$tag.txt" "$wtx" "$wrx"
	if "$PY" "$TMP/judge.py" "$TMP/$tag.json" "$wtx" "$wrx" \
	    "${UNSEEN:-}" >"$TMP/$tag.judge"; then
		pass "$tag: --json warnings: ${wtx:-none} / ${wrx:-none}"
	else
		fail "$tag: --json warnings: ${wtx:-none} / ${wrx:-none}"
	fi
	cat "$TMP/$tag.judge"
}

if ! testbed; then
	fail "two namespaces joined by two veth pairs"
	finish || exit 1
fi
pass "two namespaces joined by two veth pairs"
if ! listen b || ! listen a; then
	fail "a listener in A and in B"
	finish || exit 1
fi

run "1. -I gb-a1 over pair 2" "-I gb-a1: $TX gb-a2, so $(not_tx gb-a1)" "" \
    -I gb-a1 -t 198.18.11.2
run "2. -I gb-a2 over pair 2" "" "" -I gb-a2 -t 198.18.11.2
run "3. no -I over pair 2" "" "" -t 198.18.11.2
run "4. -I gb-a1 -r over pair 2" "" "-I gb-a1: $RX gb-a2, so $(not_rx gb-a1)" \
    -I gb-a1 -r 198.18.11.2

ip -n "$NS_A" route add 198.18.10.2/32 dev gb-a2 src 198.18.10.1
UNSEEN=receiver run "5. host route by gb-a2, src gb-a1's" \
    "gb-a1 (holds the local address): $TX gb-a2, so $(not_tx gb-a1)" "" \
    -t 198.18.10.2
ip -n "$NS_A" route replace 198.18.10.2/32 dev gb-a2
run "6. host route by gb-a2, its own src" "" \
    "gb-b1 (holds the local address): $RX gb-b2, so $(not_rx gb-b1)" \
    -t 198.18.10.2
ip -n "$NS_A" route del 198.18.10.2/32

run "7. A to its own gb-a2 address" \
    "gb-a2 (holds the local address): $TX lo, so $(not_tx gb-a2)" \
    "gb-a2 (holds the local address): $RX lo, so $(not_rx gb-a2)" \
    -t 198.18.11.1
run "8. A to 127.0.0.1" "" "" -t 127.0.0.1
run "9. -I lo to A's own gb-a2 address" "" \
    "gb-a2 (holds the local address): $RX lo, so $(not_rx gb-a2)" \
    -I lo -t 198.18.11.1

if ip -n "$NS_A" link add gb-abr type bridge 2>"$TMP/br.err"; then
	if ip -n "$NS_A" addr del 198.18.11.1/24 dev gb-a2 &&
	    ip -n "$NS_A" link set gb-a2 master gb-abr &&
	    ip -n "$NS_A" addr add 198.18.11.1/24 dev gb-abr &&
	    ip -n "$NS_A" link set gb-abr up; then
		run "10. -I gb-a2, a port of bridge gb-abr" "" "" \
		    -I gb-a2 -t 198.18.11.2
		run "10. -I gb-a1, beside bridge gb-abr" \
		    "-I gb-a1: $TX gb-abr, so $(not_tx gb-a1)" "" \
		    -I gb-a1 -t 198.18.11.2
	else
		fail "10. gb-a2 becomes a port of bridge gb-abr"
	fi
else
	echo "# SKIP 10: no bridge: $(head -n 1 "$TMP/br.err")"
fi

# Under ASan/UBSan a report in any process's stderr is a failure; the
# listeners end first, so that theirs are in.
for pid in $LISTENERS; do
	kill "$pid" 2>/dev/null || true
	wait "$pid" 2>/dev/null || true
done
no_sanitizer_reports() {
	! grep -l -E 'Sanitizer|runtime error' "$TMP"/*.err
}
check "no sanitizer reports from any process" no_sanitizer_reports

ns_gone() {	# ns_gone NAME...: none of them is in "ip netns list"
	local n
	for n in "$@"; do
		if ip netns list | awk '{print $1}' | grep -qx "$n"; then
			echo "# namespace $n is still there"
			return 1
		fi
	done
}
a=$NS_A
b=$NS_B
netns_cleanup
check "netns_cleanup removed $a and $b" ns_gone "$a" "$b"
finish
