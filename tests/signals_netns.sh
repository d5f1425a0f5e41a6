#!/usr/bin/env bash
#
# signals_netns.sh: the signals of tests/signals.sh sent to an
# --allow-mtu listener in the middle of a test that changed its MTU
# (issue 14, item 6), between two namespaces joined by a veth pair
# (root; tests/lib/netns.sh).  The policy is the one written at the top
# of tests/signals.sh; here, for every signal:
#
#  - the listener does what the policy says (lives on, or ends with exit
#    status 0 within 2 s);
#  - its interface's MTU is back at 1500 within 3 s of the signal (the
#    test ended, or the listener did), and no journal is left in
#    GIGEBENCH_RUNDIR.
#
# On a listener where a signal ends the process by its default action,
# the MTU stays changed until gigebench --restore.
#
#	GIGEBENCH=build/gigebench bash tests/signals_netns.sh
#
# Needs root, iproute2 and env --default-signal; prints SKIP and
# "0 passed, 0 failed" without them.  About 60 s.  Prints "ok - ..." or
# "FAIL - ..." per check and ends with "N passed, M failed"; exits 1 when
# a check failed.

set -eu

HERE=$(cd "$(dirname "$0")" && pwd)
GB=${GIGEBENCH:-$(dirname "$HERE")/build/gigebench}
PORT=5201
BASE_MTU=1500
TEST_MTU=4096

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
finish()
{
	echo "$passed passed, $failed failed"
	[ "$failed" -eq 0 ]
	exit $?
}
mtu_of() { netns_exec "$1" cat "/sys/class/net/$2/mtu"; }

# The listener in B on $PORT; $SRV is gigebench itself.
start_listener()
{
	local rc=0
	listener_start -n "$NS_B" -p "$PORT" -a "$GB" /dev/null \
	    "$TMP/srv.err" -q --allow-mtu || rc=$?
	SRV=$LISTENER_PID
	return "$rc"
}

# restored: B's MTU back at BASE_MTU within 3 s and no journal left.
restored()
{
	for _ in $(seq 1 30); do
		if [ "$(mtu_of b "$IF_B")" = "$BASE_MTU" ] &&
		    [ -z "$(ls -A "$GIGEBENCH_RUNDIR" 2>/dev/null)" ]; then
			return 0
		fi
		sleep 0.1
	done
	echo "# MTU b=$(mtu_of b "$IF_B"), journals:" \
	    "$(find "$GIGEBENCH_RUNDIR" -mindepth 1 -printf '%f ' 2>/dev/null)"
	return 1
}

netns_setup --mtu "$BASE_MTU"
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

for sig in HUP USR1 USR2 ALRM PIPE WINCH URG VTALRM PROF IO PWR INT TERM \
    QUIT; do
	if [ -z "$SRV" ] && ! start_listener; then
		fail "SIG$sig: a listener comes up"
		continue
	fi
	netns_exec a "$GB" -t "$ADDR_B" -p "$PORT" -T 2 -l 16K -q \
	    --mtu "$TEST_MTU" >/dev/null 2>"$TMP/c.err" &
	cpid=$!
	changed=0
	for _ in $(seq 1 30); do
		if [ "$(mtu_of b "$IF_B")" = "$TEST_MTU" ]; then
			changed=1
			break
		fi
		sleep 0.1
	done
	if [ "$changed" -ne 1 ]; then
		fail "SIG$sig: the test changes the listener's MTU to $TEST_MTU" \
		    "# $(tr '\n' ' ' <"$TMP/c.err" | head -c 200)"
	fi
	sleep 0.3
	kill -s "$sig" "$SRV" 2>/dev/null || true
	listener_wait_exit "$SRV" 2000
	rc=$LISTENER_RC
	[ "$rc" -eq -1 ] || SRV=""
	case $sig in
	INT | TERM | QUIT)
		if [ "$rc" -eq 0 ]; then
			pass "SIG$sig mid-test: the listener ends with exit 0"
		else
			fail "SIG$sig mid-test: the listener ends with exit 0" \
			    "# exit $rc"
		fi
		;;
	*)
		if [ "$rc" -eq -1 ]; then
			pass "SIG$sig mid-test: the listener lives on"
		else
			fail "SIG$sig mid-test: the listener lives on # exit $rc"
		fi
		;;
	esac
	wait "$cpid" 2>/dev/null || true
	if restored; then
		pass "SIG$sig mid-test: the listener's MTU is back at $BASE_MTU"
	else
		fail "SIG$sig mid-test: the listener's MTU is back at $BASE_MTU"
		# Put it back for the next signal, as an operator would.
		netns_exec b "$GB" --restore >/dev/null 2>&1 || true
		netns_exec b ip link set "$IF_B" mtu "$BASE_MTU" || true
	fi
done
finish
