#!/usr/bin/env bash
#
# stalled_stdout.sh: a listener whose stdout nobody reads (issue 14, item
# 5), over loopback.  Its stdout is a FIFO that this script holds open
# for reading and never reads, so the pipe fills after some 30 tests'
# interval lines and reports.  Must hold:
#
#  - 100 client tests with -i 0.1 -T 0.3 all succeed (each within 10 s);
#  - the listener's deadlines still fire: a connection that says nothing
#    is closed after --handshake-timeout (1 s here) plus 1 s;
#  - the listener is still alive at the end and its stderr log did not
#    stop either.
#
# On a listener that writes its stdout with blocking stdio inside its
# event loop, the loop stops at the first write that does not fit: the
# following clients wait (or are refused as busy) and the silent
# connection is never closed.  After 3 failed tests in a row the rest
# are counted as failed without running them.
#
#	GIGEBENCH=build/gigebench bash tests/stalled_stdout.sh
#
# Needs env --default-signal (GNU coreutils 8.31; tests/lib/listener.sh
# uses it).  About 60 s.  Prints "ok - ..." or "FAIL - ..." per check and
# ends with "N passed, M failed"; exits 1 when a check failed.

set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=tests/lib/listener.sh
. "$top/tests/lib/listener.sh"
GB=${GIGEBENCH:-$top/build/gigebench}
TESTS=${STALLED_TESTS:-100}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gigebench-stalled.XXXXXX")
lpid=""
passed=0
failed=0

# shellcheck disable=SC2317	# called by the trap
cleanup()
{
	[ -z "$lpid" ] || listener_stop "$lpid"
	exec 3<&- 4<&- 2>/dev/null || true
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

pass() { passed=$((passed + 1)); echo "ok - $*"; }
fail() { failed=$((failed + 1)); echo "FAIL - $*"; }
finish()
{
	echo "$passed passed, $failed failed"
	[ "$failed" -eq 0 ]
	exit $?
}
now_ms() { date +%s%3N; }

if [ ! -x "$GB" ]; then
	fail "gigebench binary at $GB (run make)"
	finish
fi

# The reader that never reads: opened read-write so that neither open
# blocks and the listener never sees EPIPE.
mkfifo "$tmp/stdout"
exec 3<>"$tmp/stdout"
rc=0
listener_start "$GB" "$tmp/stdout" "$tmp/l.err" -v --handshake-timeout 1 ||
    rc=$?
lpid=$LISTENER_PID
port=$LISTENER_PORT
if [ "$rc" -eq 1 ]; then
	fail "a free port"
	finish
elif [ "$rc" -ne 0 ]; then
	fail "listener comes up on port $port"
	sed 's/^/# /' "$tmp/l.err"
	finish
fi
pass "listener comes up on port $port, stdout a FIFO nobody reads"

ok=0 bad=0 inrow=0 first_bad=""
for i in $(seq 1 "$TESTS"); do
	if [ "$inrow" -ge 3 ]; then
		bad=$((bad + 1))
		continue
	fi
	rc=0
	timeout 10 "$GB" -t 127.0.0.1 -p "$port" -l 16K -i 0.1 -T 0.3 -q \
	    >/dev/null 2>"$tmp/c.err" || rc=$?
	if [ "$rc" -eq 0 ]; then
		ok=$((ok + 1))
		inrow=0
	else
		bad=$((bad + 1))
		inrow=$((inrow + 1))
		why=$(tr '\n' ' ' <"$tmp/c.err" | head -c 200)
		[ -n "$first_bad" ] || first_bad="test $i: exit $rc: $why"
	fi
done
if [ "$bad" -eq 0 ]; then
	pass "$TESTS tests with -i 0.1 -T 0.3 while nobody reads stdout"
else
	fail "$TESTS tests with -i 0.1 -T 0.3 while nobody reads stdout" \
	    "# $ok succeeded, $bad failed or not run; first: $first_bad"
fi

# A deadline: a connection that says nothing is closed after the
# handshake timeout (1 s) plus 1 s.
t0=$(now_ms)
rc=0
exec 4<>"/dev/tcp/127.0.0.1/$port" || rc=$?
if [ "$rc" -ne 0 ]; then
	fail "a silent connection is accepted # connect failed"
else
	timeout 5 cat <&4 >/dev/null 2>&1 || rc=$?
	exec 4<&-
	dt=$(($(now_ms) - t0))
	if [ "$rc" -eq 0 ] && [ "$dt" -le 2500 ]; then
		pass "a silent connection is closed by the handshake timeout" \
		    "in $dt ms"
	else
		fail "a silent connection is closed by the handshake timeout" \
		    "# still open after $dt ms (exit $rc)"
	fi
fi

if kill -0 "$lpid" 2>/dev/null; then
	pass "the listener is alive"
else
	wait "$lpid" || rc=$?
	lpid=""
	fail "the listener is alive # it exited $rc"
fi
n=$(grep -c 'test started' "$tmp/l.err" || true)
if [ "$n" -ge "$TESTS" ]; then
	pass "the listener logged $n tests started"
else
	fail "the listener logged $TESTS tests started # $n"
fi
finish
