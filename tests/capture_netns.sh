#!/usr/bin/env bash
# gigebench --capture on a veth pair between two namespaces (root).  Run
# from the top of the tree as
#	GIGEBENCH=build/gigebench bash tests/capture_netns.sh
#
# With GSO, TSO and GRO off on both veths every frame is at most MTU+14
# bytes, so the sender's largest captured frame must be exactly that, at
# MTU 1500 and at MTU 9000, on both ends.  With offloads on, the capture
# sees the stack's GSO aggregates, larger than the MTU: checked as such.
# Every check prints "ok" or "FAIL"; the last line is "N passed, M
# failed".  Without root or ethtool it prints "# SKIP <reason>" and
# "0 passed, 0 failed, 1 skipped"; with CI set that is a failure
# (tests/lib/skip.sh).
set -eu

HERE=$(cd "$(dirname "$0")" && pwd)
GB=${GIGEBENCH:-$(dirname "$HERE")/build/gigebench}
PY=${PYTHON:-python3}
PORT=5101

# shellcheck source=tests/lib/netns.sh
. "$HERE/lib/netns.sh"
if ! netns_need_root >/dev/null; then
	skip_or_fail "$NETNS_MISSING"	# under CI: a failure
	exit $?
fi
if ! command -v ethtool >/dev/null; then
	skip_or_fail "ethtool is not installed (Debian package ethtool)"
	exit $?
fi

TMP=$(mktemp -d)
pass=0
failed=0
cleanup() {
	netns_cleanup
	rm -rf "$TMP"
}

ok() { pass=$((pass + 1)); echo "ok - $1"; }
fail() { failed=$((failed + 1)); echo "FAIL - $1"; }
check() {
	local name=$1; shift
	if "$@"; then ok "$name"; else fail "$name"; fi
}
json_check() {	# json_check FILE EXPRESSION-ON-d
	"$PY" -c 'import json, sys
d = json.load(open(sys.argv[1]))
sys.exit(0 if eval("(" + sys.argv[2] + ")", {"d": d}) else 1)' "$1" "$2"
}

# run MTU OFFLOADS(on|off): one 2 s capture test from A to B.
run() {
	local mtu=$1 off=$2 out=$TMP/cap-$1-$2.json rc=0 i
	netns_setup --mtu "$mtu"
	trap 'cleanup' EXIT
	trap 'cleanup; exit 130' INT TERM
	netns_exec a ethtool -K "$IF_A" gro "$off" gso "$off" tso "$off" \
	    >/dev/null 2>&1 || true
	netns_exec b ethtool -K "$IF_B" gro "$off" gso "$off" tso "$off" \
	    >/dev/null 2>&1 || true
	netns_exec b "$GB" -r -1 -p "$PORT" -q >/dev/null 2>"$TMP/srv.err" &
	for i in $(seq 1 50); do
		netns_exec b ss -Htln "sport = :$PORT" | grep -q . && break
		sleep 0.1
	done
	netns_exec a "$GB" -t "$ADDR_B" -p "$PORT" -T 2 --capture -J \
	    >"$out" 2>"$TMP/cli.err" || rc=$?
	wait || true
	netns_cleanup
	check "MTU $mtu offloads $off: test with --capture exits 0" \
	    [ "$rc" -eq 0 ]
	OUT=$out
}

for mtu in 1500 9000; do
	run "$mtu" off
	check "MTU $mtu, offloads off: sender's largest frame is MTU+14" \
	    json_check "$OUT" "d['result']['sender']['capture']['max_frame_tx'] == $mtu + 14"
	check "MTU $mtu, offloads off: receiver's largest frame is MTU+14" \
	    json_check "$OUT" "d['result']['receiver']['capture']['max_frame_rx'] == $mtu + 14"
	check "MTU $mtu: frames seen on both ends agree within 1 %" \
	    json_check "$OUT" 'abs(d["result"]["sender"]["capture"]["frames_tx"] - d["result"]["receiver"]["capture"]["frames_rx"]) <= 0.01 * d["result"]["sender"]["capture"]["frames_tx"]'
	check "MTU $mtu: the histogram adds up and nothing dropped" \
	    json_check "$OUT" 'sum(d["result"]["sender"]["capture"]["histogram"]["tx"]) == d["result"]["sender"]["capture"]["frames_tx"] and d["result"]["sender"]["capture"]["drops"] == 0'
done
run 1500 on
check "MTU 1500, offloads on: GSO aggregates larger than the MTU" \
    json_check "$OUT" 'd["result"]["sender"]["capture"]["max_frame_tx"] > 1514'

echo "$pass passed, $failed failed"
[ "$failed" -eq 0 ]
