#!/usr/bin/env bash
#
# signals.sh: what a listener does with every catchable signal, idle and
# in the middle of a test (issue 14, item 6), over loopback.
#
# The policy tested here (a listener is a long-running daemon, often
# started from a shell, a unit file or a container):
#
#   SIGHUP            ignored: never dies (it has no log file to reopen);
#   SIGUSR1           one status line on stderr, "gigebench: status: ..."
#                     saying idle or busy (and with whom) and the number
#                     of tests served; nothing else changes;
#   SIGUSR2 SIGALRM SIGPIPE SIGWINCH SIGURG SIGCHLD SIGVTALRM SIGPROF
#   SIGIO SIGPWR      ignored: a daemon does not die of a stray signal it
#                     has no use for (SIGVTALRM, SIGPROF, SIGIO and SIGPWR
#                     would end it by default);
#   SIGINT SIGTERM SIGQUIT
#                     end the listener with exit status 0 (man page, EXIT
#                     STATUS: "a listener was stopped by a signal"), within
#                     2 s; a client in the middle of a test is told first
#                     and prints "the listener was stopped (SIGTERM)" (the
#                     signal's name) and exits 1;
#   SIGTSTP, SIGCONT  the default: stopped and continued; a test across a
#                     0.3 s stop still succeeds and the listener serves
#                     after it.
#
# In every case the test in progress completes (exit 0) unless the signal
# ends the listener, and the listener serves a real test afterwards.  Not
# tested: SIGKILL and SIGSTOP (not catchable), the faults (SIGSEGV,
# SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGSYS) and the resource limits
# (SIGXCPU, SIGXFSZ), which keep their default action; SIGTTIN/SIGTTOU
# (only a background job reading or writing its terminal meets them).
# The --allow-mtu cases (an MTU changed by the test restored after every
# signal) need root and a namespace pair (tests/lib/netns.sh) and are not
# here yet.
#
#	GIGEBENCH=build/gigebench bash tests/signals.sh
#
# Needs env --default-signal (GNU coreutils 8.31; tests/lib/listener.sh
# uses it).  About 30 s.  Prints "ok - ..." or "FAIL - ..." per check and
# ends with "N passed, M failed"; exits 1 when a check failed.

set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=tests/lib/listener.sh
. "$top/tests/lib/listener.sh"
GB=${GIGEBENCH:-$top/build/gigebench}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gigebench-signals.XXXXXX")
pids=""
passed=0
failed=0

# shellcheck disable=SC2317	# called by the trap
cleanup()
{
	# shellcheck disable=SC2086	# a list of pids
	listener_stop $pids
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

pass() { passed=$((passed + 1)); echo "ok - $*"; }
fail() { failed=$((failed + 1)); echo "FAIL - $*"; }
check() { if [ "$2" -eq 0 ]; then pass "$1"; else fail "$1${3:+ # $3}"; fi; }
finish()
{
	echo "$passed passed, $failed failed"
	[ "$failed" -eq 0 ]
	exit $?
}

if [ ! -x "$GB" ]; then
	fail "gigebench binary at $GB (run make)"
	finish
fi

# listen NAME: a listener on a free port, logs in $tmp/NAME.{out,err};
# sets $lpid and $lport.
listen()
{
	local name=$1 rc=0
	listener_start "$GB" "$tmp/$name.out" "$tmp/$name.err" -v || rc=$?
	lpid=$LISTENER_PID
	lport=$LISTENER_PORT
	[ -z "$lpid" ] || pids="$pids $lpid"
	case $rc in
	0) ;;
	1) fail "a free port for $name"; return 1 ;;
	*) fail "$name comes up on port $lport"; return 1 ;;
	esac
}

started() { grep -c 'test started' "$tmp/$1.err" || true; }

# client NAME SECONDS: a test in the background; sets $cpid, and waits
# (at most 5 s) until the listener NAME logs it started.
client()
{
	local before
	before=$(started "$1")
	"$GB" -t 127.0.0.1 -p "$lport" -l 16K -T "$2" -q >/dev/null \
	    2>"$tmp/c.err" &
	cpid=$!
	for _ in $(seq 1 50); do
		[ "$(started "$1")" -gt "$before" ] && break
		sleep 0.1
	done
	sleep 0.2
}

# served WHAT: a 0.2 s test against $lport exits 0.
served()
{
	local rc=0
	timeout 20 "$GB" -t 127.0.0.1 -p "$lport" -l 16K -T 0.2 -q \
	    >/dev/null 2>"$tmp/s.err" || rc=$?
	check "$1" "$rc" "exit $rc: $(head -c 200 "$tmp/s.err")"
}

# alive WHAT: the listener $lpid is still running.
alive()
{
	local rc=0
	if kill -0 "$lpid" 2>/dev/null; then
		pass "$1"
		return 0
	fi
	wait "$lpid" 2>/dev/null || rc=$?
	fail "$1 # the listener exited $rc"
	return 1
}

# ended LISTENER-PID MS: waits at most MS for it; sets $rc (-1: running).
ended()
{
	listener_wait_exit "$1" "$2"
	rc=$LISTENER_RC
}

# --- the signals that change nothing (SIGUSR1 adds a status line)
listen calm || finish
for sig in HUP USR1 USR2 ALRM PIPE WINCH URG CHLD VTALRM PROF IO PWR; do
	lines=$(grep -c '^gigebench: status:' "$tmp/calm.err" || true)
	kill -s "$sig" "$lpid" 2>/dev/null || true
	sleep 0.3
	alive "SIG$sig idle: the listener lives on" || { listen calm || finish; }
	served "SIG$sig idle: a test after it is served"
	client calm 1
	kill -s "$sig" "$lpid" 2>/dev/null || true
	rc=0
	wait "$cpid" || rc=$?
	check "SIG$sig mid-test: the test completes" "$rc" \
	    "exit $rc: $(head -c 200 "$tmp/c.err")"
	alive "SIG$sig mid-test: the listener lives on" ||
	    { listen calm || finish; }
	if [ "$sig" = USR1 ]; then
		now=$(grep -c '^gigebench: status:' "$tmp/calm.err" || true)
		if [ "$now" -eq $((lines + 2)) ] &&
		    grep '^gigebench: status:' "$tmp/calm.err" | head -1 |
		    grep -q 'idle' &&
		    grep '^gigebench: status:' "$tmp/calm.err" | tail -1 |
		    grep -q 'busy'; then
			pass "SIGUSR1: one status line each, idle then busy"
		else
			fail "SIGUSR1: one status line each, idle then busy" \
			    "# $((now - lines)) status lines"
		fi
	fi
done

# --- stopped and continued
client calm 1.5
kill -s TSTP "$lpid"
sleep 0.3
kill -s CONT "$lpid"
rc=0
wait "$cpid" || rc=$?
check "SIGTSTP 0.3 s then SIGCONT mid-test: the test completes" "$rc" \
    "exit $rc: $(head -c 200 "$tmp/c.err")"
alive "SIGTSTP/SIGCONT: the listener lives on" || true
served "SIGTSTP/SIGCONT: a test after it is served"

# --- the signals that end the listener
for sig in INT TERM QUIT; do
	listen "end$sig" || continue
	kill -s "$sig" "$lpid"
	ended "$lpid" 2000
	check "SIG$sig idle: the listener ends with exit 0 within 2 s" \
	    "$([ "$rc" -eq 0 ] && echo 0 || echo 1)" "exit $rc"
	listen "mid$sig" || continue
	client "mid$sig" 3
	kill -s "$sig" "$lpid"
	ended "$lpid" 2000
	check "SIG$sig mid-test: the listener ends with exit 0 within 2 s" \
	    "$([ "$rc" -eq 0 ] && echo 0 || echo 1)" "exit $rc"
	crc=0
	wait "$cpid" || crc=$?
	if [ "$crc" -eq 1 ] &&
	    grep -q "the listener was stopped (SIG$sig)" "$tmp/c.err"; then
		pass "SIG$sig mid-test: the client says the listener was" \
		    "stopped (SIG$sig), exit 1"
	else
		fail "SIG$sig mid-test: the client says the listener was" \
		    "stopped (SIG$sig), exit 1 # exit $crc:" \
		    "$(tr '\n' ' ' <"$tmp/c.err" | head -c 200)"
	fi
done
finish
