#!/usr/bin/env bash
#
# mtu_hello_netns.sh: a listener with --allow-mtu changes its MTU only
# once a session holds the test slot (issue 14, "found on the way"):
# hellos alone, however many, never flap it.  A test of another MTU takes
# the slot when it is accepted, before its data connections (TCP fixes
# their MSS when they connect), so with --psk that is once its key is
# proven, and the unproven hellos here must change nothing.  In the
# namespace pair of tests/lib/netns.sh (root): the listener in B at MTU
# 1500 with --psk; from A, hellos that ask for MTU 4096 with a nonce and
# then nothing (no proof, no data connections), repeated for 2 s; B's MTU
# must stay 1500 the whole time.  Then a real client with the key and
# --mtu 4096: B's MTU is 4096 during its test, the test's MSS is that of
# MTU 4096, and B is back at 1500 after.
#
#	GIGEBENCH=build/gigebench bash tests/mtu_hello_netns.sh
#
# About 10 s.  Prints "ok - ..." or "FAIL - ..." per check and ends with
# "N passed, M failed"; without root it is a skip (a failure with CI set).

set -eu

HERE=$(cd "$(dirname "$0")" && pwd)
GB=${GIGEBENCH:-$(dirname "$HERE")/build/gigebench}
PORT=5211
BASE_MTU=1500
TEST_MTU=4096
ADDR_C=198.18.0.3	# a second address of A, from the RFC 2544 block

# shellcheck source=tests/lib/netns.sh
. "$HERE/lib/netns.sh"
# shellcheck source=tests/lib/listener.sh
. "$HERE/lib/listener.sh"
if ! netns_need_root >/dev/null; then
	skip_or_fail "$NETNS_MISSING"	# under CI: a failure
	exit $?
fi

TMP=$(mktemp -d)
chmod 755 "$TMP"
export GIGEBENCH_RUNDIR=$TMP/run
passed=0
failed=0
SRV=""

# shellcheck disable=SC2317	# called by the trap
cleanup()
{
	[ -z "$SRV" ] || listener_stop "$SRV"
	netns_cleanup
	rm -rf "$TMP"
}

pass() { passed=$((passed + 1)); echo "ok - $*"; }
fail() { failed=$((failed + 1)); echo "FAIL - $*"; }
mtu_of() { netns_exec "$1" cat "/sys/class/net/$2/mtu"; }

netns_setup --mtu "$BASE_MTU"
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n' >"$TMP/key"
chmod 600 "$TMP/key"
if listener_start -n "$NS_B" -p "$PORT" -a "$GB" /dev/null "$TMP/srv.err" \
    -v --allow-mtu --handshake-timeout 1 --psk "$TMP/key"; then
	SRV=$LISTENER_PID
	pass "a listener with --allow-mtu comes up in B"
else
	fail "a listener with --allow-mtu comes up in B"
	echo "$passed passed, $failed failed"
	exit 1
fi

# Stalled hellos asking for TEST_MTU, from A, for 2 s: one every 0.2 s,
# each held open; B's MTU read every 0.1 s meanwhile.
version=$("$GB" --version | awk '{print $2; exit}')
netns_exec a python3 - "$ADDR_B" "$PORT" "$TEST_MTU" "$HERE" "$version" \
    >"$TMP/hellos.out" 2>&1 <<'EOF' &
import os, socket, sys, time
sys.path[:0] = [sys.argv[4], os.path.join(sys.argv[4], "lib")]
import gbhello, gbpeer, hostile
addr, port, mtu = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
params = gbhello.params(mtu=mtu)
held, end = [], time.monotonic() + 2.0
while time.monotonic() < end:
    hello = gbpeer.frame(hostile.HELLO, dict(
        program="gigebench", version=sys.argv[5], params=params,
        nonce=os.urandom(32).hex()))
    s = socket.create_connection((addr, port), timeout=2)
    s.sendall(hello)
    held.append(s)
    time.sleep(0.2)
time.sleep(0.2)
print("%d hellos" % len(held))
EOF
hellos=$!
max=0
while kill -0 "$hellos" 2>/dev/null; do
	m=$(mtu_of b "$IF_B")
	[ "$m" -le "$max" ] || max=$m
	sleep 0.1
done
wait "$hellos" || true
sed 's/^/# /' "$TMP/hellos.out"
if grep -q 'hello message' "$TMP/srv.err"; then
	fail "the listener takes the hellos as valid ones" \
	    "# $(grep -m1 'hello message' "$TMP/srv.err")"
fi
if [ "$max" = "$BASE_MTU" ]; then
	pass "2 s of hellos asking for MTU $TEST_MTU leave B at $BASE_MTU"
else
	fail "2 s of hellos asking for MTU $TEST_MTU leave B at $BASE_MTU" \
	    "# B reached $max"
fi

# A real test: the MTU changes once its session holds the slot.  It
# comes from a second address of A: the stalled hellos count as failures
# against theirs, and its back-off would refuse it (as it should).
ip -n "$NS_A" addr add "$ADDR_C/$NETNS_PREFIX" dev "$IF_A"
netns_exec a "$GB" -t "$ADDR_B" -B "$ADDR_C" -p "$PORT" -T 2 -l 16K \
    --psk "$TMP/key" --json --mtu "$TEST_MTU" >"$TMP/c.json" \
    2>"$TMP/c.err" &
cpid=$!
changed=0
for _ in $(seq 1 30); do
	if [ "$(mtu_of b "$IF_B")" = "$TEST_MTU" ]; then
		changed=1
		break
	fi
	sleep 0.1
done
crc=0
wait "$cpid" || crc=$?
if [ "$changed" -eq 1 ] && [ "$crc" -eq 0 ]; then
	pass "a real test with --mtu $TEST_MTU changes B's MTU and passes"
else
	fail "a real test with --mtu $TEST_MTU changes B's MTU and passes" \
	    "# changed=$changed exit $crc: $(head -c 200 "$TMP/c.err")"
fi
# The data connections were made at the new MTU: TCP fixed their MSS
# then (TEST_MTU less 40 bytes of headers, less 12 of timestamps).
mss=$(python3 -c 'import json, sys
print(json.load(open(sys.argv[1]))["result"]["tcp"]["mss"])' "$TMP/c.json" \
    2>/dev/null || echo 0)
if [ "$mss" -gt 1460 ] && [ "$mss" -le $((TEST_MTU - 40)) ]; then
	pass "its data connections were made at MTU $TEST_MTU (MSS $mss)"
else
	fail "its data connections were made at MTU $TEST_MTU (MSS $mss)"
fi
back=0
for _ in $(seq 1 30); do
	if [ "$(mtu_of b "$IF_B")" = "$BASE_MTU" ]; then
		back=1
		break
	fi
	sleep 0.1
done
if [ "$back" -eq 1 ]; then
	pass "B's MTU is back at $BASE_MTU after the test"
else
	fail "B's MTU is back at $BASE_MTU after the test"
fi

# Without --psk a hello is all the proof there is: an accepted test of
# another MTU takes the slot and changes it at once.  What bounds a peer
# that only stalls is its source's back-off: each stall counts as a
# failure, and after 5 the source is refused.  8 s of such hellos, one at
# a time, each held until the listener drops it (--handshake-timeout 1):
# at most 6 changes (a listener without the back-off makes one a second).
listener_stop "$SRV"
SRV=""
if listener_start -n "$NS_B" -p $((PORT + 1)) -a "$GB" /dev/null \
    "$TMP/srv2.err" -v --allow-mtu --handshake-timeout 1; then
	SRV=$LISTENER_PID
else
	fail "a listener without --psk comes up in B"
fi
netns_exec a python3 - "$ADDR_B" $((PORT + 1)) "$TEST_MTU" "$HERE" \
    "$version" >"$TMP/stalls.out" 2>&1 <<'PY' &
import os, socket, sys, time
sys.path[:0] = [sys.argv[4], os.path.join(sys.argv[4], "lib")]
import gbhello, gbpeer, hostile
addr, port, mtu = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
params = gbhello.params(mtu=mtu)
hello = gbpeer.frame(hostile.HELLO, dict(program="gigebench",
                                         version=sys.argv[5], params=params))
n, end = 0, time.monotonic() + 8.0
while time.monotonic() < end:
    with socket.create_connection((addr, port), timeout=3) as s:
        s.sendall(hello)
        n += 1
        try:
            while s.recv(4096):
                pass
        except OSError:
            pass
    time.sleep(0.05)
print("%d stalled hellos" % n)
PY
stalls=$!
flaps=0
prev=$BASE_MTU
while kill -0 "$stalls" 2>/dev/null; do
	m=$(mtu_of b "$IF_B")
	if [ "$m" != "$prev" ] && [ "$m" = "$TEST_MTU" ]; then
		flaps=$((flaps + 1))
	fi
	prev=$m
	sleep 0.05
done
wait "$stalls" || true
sed 's/^/# /' "$TMP/stalls.out"
if [ "$flaps" -le 6 ] && grep -q 'too many failed' "$TMP/srv2.err"; then
	pass "without --psk, stalled hellos change the MTU $flaps times," \
	    "then their source is refused"
else
	fail "without --psk, stalled hellos change the MTU $flaps times," \
	    "then their source is refused # $(grep -c 'too many failed' \
	    "$TMP/srv2.err") refusals"
fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
