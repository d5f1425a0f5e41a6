#!/usr/bin/env bash
#
# hostile.sh: real listeners (`gigebench -r`, persistent) against the
# hostile peers of tests/hostile.py: malformed messages, garbage and slow
# connections, a flood of silent connections from one address, killed and
# frozen senders (issue 6).  Loopback only.
#
#	GIGEBENCH=build/gigebench bash tests/hostile.sh [--long] [--seed N]
#
# The main listener runs with --handshake-timeout 2 --silent-timeout 2, so
# that the issue's counts fit in CI: 100 kills and 20 freezes, each held
# to "idle within 1 s of a kill, within the silent-peer timeout + 1 s of
# a freeze".  A second listener with the default timeouts (5 s, 10 s)
# takes one freeze, so the defaults stay proven.  About 2 minutes on a
# 2-CPU machine: a real test after every session case and every 5
# others.  --long adds a real test after every case and, for freezes
# past their limit, measures how long the listener really stays busy.
# Works with the ASan build too (GIGEBENCH=build-asan/gigebench): any
# sanitizer report from a listener is a failure.
#
# Prints "ok - ..." or "FAIL - ..." per check and ends with
# "N passed, M failed"; exits 1 when a check failed.

set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
GB=${GIGEBENCH:-$top/build/gigebench}
PY=${PYTHON:-python3}
extra=""
while [ $# -gt 0 ]; do
	case $1 in
	--long) extra="$extra --long" ;;
	--seed)
		if [ $# -lt 2 ]; then
			echo "hostile.sh: --seed needs a value" >&2
			exit 2
		fi
		extra="$extra --seed $2"
		shift
		;;
	*) echo "usage: hostile.sh [--long] [--seed N]" >&2; exit 2 ;;
	esac
	shift
done

tmp=$(mktemp -d "${TMPDIR:-/tmp}/gigebench-hostile.XXXXXX")
srv=""
srv2=""
passed=0
failed=0
# The main listener's deadlines, seconds (hostile.py is told them).
HANDSHAKE=2
SILENT=2

# shellcheck disable=SC2317	# called by the trap
cleanup()
{
	local p
	for p in $srv $srv2; do
		if kill -0 "$p" 2>/dev/null; then
			kill -KILL "$p" 2>/dev/null || true
			wait "$p" 2>/dev/null || true
		fi
	done
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

pass() { passed=$((passed + 1)); echo "ok - $1"; }
fail() { failed=$((failed + 1)); echo "FAIL - $1"; }
finish()
{
	echo "$passed passed, $failed failed"
	[ "$failed" -eq 0 ]
	exit $?
}

counts()	# counts PID: "FDS THREADS"
{
	local fds thr
	# shellcheck disable=SC2012	# /proc fd names are numbers
	fds=$(ls "/proc/$1/fd" | wc -l)
	thr=$(awk '/^Threads:/ { print $2 }' "/proc/$1/status")
	echo "$fds $thr"
}

if [ ! -x "$GB" ]; then
	fail "gigebench binary at $GB (run make)"
	finish
fi

# start_listener NAME ARGS...: a listener on a free port below the
# ephemeral range; sets $started_pid and $started_port, logs in
# $tmp/NAME.out and $tmp/NAME.err.  Reverse tests are part of the hostile
# peers, so the listeners take them (--allow-reverse).
start_listener()
{
	local name=$1 p port="" up=0 pid
	shift
	for _ in $(seq 1 50); do
		p=$((20000 + RANDOM % 10000))
		if ! ss -Htln "sport = :$p" | grep -q .; then port=$p; break; fi
	done
	if [ -z "$port" ]; then
		fail "a free port for the $name listener"
		return 1
	fi
	"$GB" -r -p "$port" -v --allow-reverse "$@" >"$tmp/$name.out" \
	    2>"$tmp/$name.err" &
	pid=$!
	for _ in $(seq 1 50); do
		if ss -Htln "sport = :$port" | grep -q .; then up=1; break; fi
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.1
	done
	started_pid=$pid
	started_port=$port
	if [ "$up" -ne 1 ]; then
		fail "$name listener comes up on port $port"
		sed 's/^/# /' "$tmp/$name.err"
		return 1
	fi
	pass "$name listener comes up on port $port (pid $pid): $*"
}

started_pid=""
started_port=""
if ! start_listener srv --handshake-timeout "$HANDSHAKE" \
    --silent-timeout "$SILENT"; then
	srv=$started_pid
	finish
fi
srv=$started_pid
port=$started_port
if ! start_listener srv2; then
	srv2=$started_pid
	finish
fi
srv2=$started_pid
port2=$started_port
idle=$(counts "$srv")
echo "# idle listener: fds threads = $idle"

start=$(date +%s)
# hostile.py's own lines are the count: every "ok - " and "FAIL - " it
# printed, whatever happened after.  Its tally must exist and agree, and
# its exit must say the same (0: no FAIL, 1: a FAIL); a crash (exit 3 or
# an uncaught exception's 1 with no FAIL line), a missing tally or a
# disagreement is a failure of its own (issue 13).
# shellcheck disable=SC2086	# $extra is a list of words
"$PY" "$top/tests/hostile.py" --gigebench "$GB" --port "$port" \
    --pid "$srv" --handshake "$HANDSHAKE" --silent "$SILENT" \
    --default-port "$port2" --default-pid "$srv2" \
    --tally "$tmp/tally" $extra | tee "$tmp/py.out"
rc=${PIPESTATUS[0]}
p=$(grep -c '^ok - ' "$tmp/py.out" || true)
f=$(grep -c '^FAIL - ' "$tmp/py.out" || true)
passed=$((passed + p))
failed=$((failed + f))
if [ ! -s "$tmp/tally" ]; then
	fail "hostile.py wrote its tally (exit $rc, $p ok and $f FAIL lines)"
else
	read -r tp tf <"$tmp/tally"
	if [ "$tp $tf" != "$p $f" ]; then
		fail "hostile.py's tally ($tp passed, $tf failed) matches its" \
		    "lines ($p ok, $f FAIL)"
	fi
fi
if [ "$rc" -ne 0 ] && [ "$rc" -ne 1 ]; then
	fail "hostile.py ran to the end (exit $rc)"
elif [ "$rc" -eq 1 ] && [ "$f" -eq 0 ]; then
	fail "hostile.py exits 1 only after a FAIL line (exit 1, none)"
elif [ "$rc" -eq 0 ] && [ "$f" -ne 0 ]; then
	fail "hostile.py exits 1 after $f FAIL lines (exit 0)"
fi

# The listener is idle again: descriptors and threads as at the start.
now=""
for _ in $(seq 1 20); do
	kill -0 "$srv" 2>/dev/null || break
	now=$(counts "$srv")
	[ "$now" = "$idle" ] && break
	sleep 0.1
done
if [ "$now" = "$idle" ]; then
	pass "listener back to its idle fds and threads ($idle)"
else
	fail "listener back to its idle fds and threads:" \
	    "$idle at the start, ${now:-none} now"
fi

# A clean stop: SIGTERM, exit 0 within 5 s (under ASan: leak check too).
for name in srv srv2; do
	pid=${!name}
	kill -TERM "$pid" 2>/dev/null || true
	stopped=0
	for _ in $(seq 1 50); do
		if ! kill -0 "$pid" 2>/dev/null; then stopped=1; break; fi
		sleep 0.1
	done
	if [ "$stopped" -eq 1 ]; then
		st=0
		wait "$pid" || st=$?
		eval "$name="
		if [ "$st" -eq 0 ]; then
			pass "$name listener exits 0 on SIGTERM"
		else
			fail "$name listener exits 0 on SIGTERM (exit $st)"
		fi
	else
		fail "$name listener exits within 5 s of SIGTERM"
	fi
	if grep -Eq 'Sanitizer|runtime error:|SUMMARY:' "$tmp/$name.err"; then
		fail "no sanitizer report from the $name listener"
		grep -E -A20 'Sanitizer|runtime error:' "$tmp/$name.err" |
		    head -60 | sed 's/^/# /'
	else
		pass "no sanitizer report from the $name listener"
	fi
done
echo "# hostile.sh took $(( $(date +%s) - start )) s"
finish
