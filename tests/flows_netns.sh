#!/usr/bin/env bash
# Many flows over a slow link (root): two namespaces (tests/lib/netns.sh)
# joined by a veth pair with a tbf of 4 mbit/s, the listener in B with
# --silent-timeout 4, 20 flows on 2 threads for 4 s of 256K reads and
# writes (--sndbuf 16K, so that what is queued drains within the
# listener's deadline), the client's --silent-timeout 4 (at 2 and 3,
# in CI, a flow whose retransmits backed off that long in the 10 KB
# queue was ended by TCP_USER_TIMEOUT or by its receiver: TCP's verdict
# on a lossy link).  Each flow then moves about 25 KB/s, less than one
# 256K read in 10 s: its receiver's
# SO_RCVLOWAT holds its socket unready, and its sender's buffer frees too
# slowly to be written again, so a many-flow worker that judged silence
# by its calls alone would cut the test off (it asks TCP_INFO what the
# flow moved: bytes acknowledged or received).  THREADS=20 runs the same
# a thread a flow (not in make check: its blocking 256K sends can
# outlast the listener's deadline at the end of the test).  Run
# from the top of the tree as
#	GIGEBENCH=build/gigebench bash tests/flows_netns.sh
# (make check-netns; about 20 s).  It checks:
#  1. -t and -r: exit 0, no "peer silent" on either end;
#  2. the rate is the link's: between 50 % and 101 % of 4 mbit/s;
#  3. every flow moved data, Jain's index above 0.5;
# and that its namespaces are gone at the end.  Prints "ok"/"FAIL" per
# check and "N passed, M failed"; without root "# SKIP <reason>" (a
# failure under CI: tests/lib/skip.sh).
set -eu

HERE=$(cd "$(dirname "$0")" && pwd)
GB=${GIGEBENCH:-$(dirname "$HERE")/build/gigebench}
RATE_BPS=4000000

# shellcheck source=tests/lib/netns.sh
. "$HERE/lib/netns.sh"
if ! netns_need_root >/dev/null; then
	skip_or_fail "$NETNS_MISSING"	# under CI: a failure
	exit $?
fi
# shellcheck source=tests/lib/tally.sh
. "$HERE/lib/tally.sh"

TMP=$(mktemp -d)
LISTENER=""
cleanup() {
	[ -z "$LISTENER" ] || kill "$LISTENER" 2>/dev/null || true
	wait 2>/dev/null || true
	netns_cleanup
	rm -rf "$TMP"
}
netns_setup --rate 4mbit
trap cleanup EXIT
trap 'cleanup; exit 130' INT
trap 'cleanup; exit 143' TERM

port=5410
ip netns exec "$NS_B" "$GB" -r -p "$port" --silent-timeout 4 \
    --allow-reverse >"$TMP/l.out" 2>"$TMP/l.err" &
LISTENER=$!
for _ in $(seq 1 100); do
	[ -z "$(netns_exec b ss -Htln "sport = :$port")" ] || break
	sleep 0.05
done

for dir in -t -r; do
	rc=0
	netns_exec a "$GB" "$dir" "$ADDR_B" -p "$port" -P 20 --threads ${THREADS:-2} \
	    -T 4 -l 256K --sndbuf 16K --silent-timeout 4 -J >"$TMP/c$dir.json" \
	    2>"$TMP/c$dir.err" || rc=$?
	check "1. $dir -P 20 --threads ${THREADS:-2} over 4 mbit/s: exit 0 (exit $rc: $(head -c 200 "$TMP/c$dir.err"))" \
	    test "$rc" = 0
	check "1. $dir: no \"peer silent\" on either end" \
	    test -z "$(grep -l "peer silent" "$TMP/c$dir.err" "$TMP/l.err" \
	    "$TMP/c$dir.json")"
	cat >"$TMP/j.py" <<'PYEOF'
import json, sys
r = json.load(open(sys.argv[2]))["result"]
rate = float(sys.argv[3]) / 1e6
def check(ok, text):
    print(("ok - " if ok else "FAIL - ") + text)
mbps = r["receiver"]["mbps"]
check(0.5 * rate <= mbps <= 1.01 * rate,
      "2. %s: %.3f Mbit/s of the link's %.3f" % (sys.argv[1], mbps, rate))
f = r["receiver"]["flows"]
check(f["n"] == 20 and f["mbps"]["min"] > 0 and f["jain"] > 0.5,
      "3. %s: 20 flows, each moved data, Jain %.3f" % (sys.argv[1],
                                                       f["jain"]))
PYEOF
	judge "$TMP/j.py" "$dir" "$TMP/c$dir.json" "$RATE_BPS"
done
cleanup
trap - EXIT
check "the namespaces are gone" test ! -e "/run/netns/$NS_A" -a \
    ! -e "/run/netns/$NS_B"
finish
