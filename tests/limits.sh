#!/usr/bin/env bash
#
# limits.sh: a listener's limits and deadlines against real clients and a
# misbehaving one (tests/hostile.py oversend), over loopback (issue 6):
#
#  - a test over each limit (--max-duration, --max-streams, --max-length,
#    --max-sockbuf, --max-bytes, --max-rate) is refused with exit 3 and a
#    message naming the option, and no test starts on the listener;
#  - a reverse test is paced to --max-rate; -n alone is not refused for
#    its duration;
#  - a client that sends more than -n implies, past its duration, or past
#    --max-bytes is cut off at the limit plus its grace;
#  - a client's own --silent-timeout ends its test when the listener
#    freezes, and the listener serves again once thawed;
#  - a --once listener outlives garbage, a refusal, a silent connection, a
#    killed client and a failed test, and ends after one completed test;
#  - a listener out of file descriptors (ulimit -n 40, 100 connections
#    held) pauses accepting, does not exit, and serves a real test after.
#
#	GIGEBENCH=build/gigebench bash tests/limits.sh
#
# About 30 s.  Prints "ok - ..." or "FAIL - ..." per check and ends with
# "N passed, M failed"; exits 1 when a check failed.

set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
GB=${GIGEBENCH:-$top/build/gigebench}
PY=${PYTHON:-python3}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gigebench-limits.XXXXXX")
pids=""
passed=0
failed=0

# shellcheck disable=SC2317	# called by the trap
cleanup()
{
	local p
	for p in $pids; do
		kill -CONT "$p" 2>/dev/null || true
		kill -KILL "$p" 2>/dev/null || true
		wait "$p" 2>/dev/null || true
	done
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
now_ms() { date +%s%3N; }

if [ ! -x "$GB" ]; then
	fail "gigebench binary at $GB (run make)"
	finish
fi

# listen NAME [ulimit-n] -- ARGS...: a listener on a free port below the
# ephemeral range, logs in $tmp/NAME.err; sets $lpid and $lport.
listen()
{
	local name=$1 nofile=$2 p port="" up=0
	shift 3
	for _ in $(seq 1 50); do
		p=$((20000 + RANDOM % 10000))
		if ! ss -Htln "sport = :$p" | grep -q .; then port=$p; break; fi
	done
	[ -n "$port" ] || { fail "a free port for $name"; return 1; }
	if [ "$nofile" = - ]; then
		"$GB" -r -p "$port" -v "$@" >"$tmp/$name.out" \
		    2>"$tmp/$name.err" &
	else
		(ulimit -n "$nofile" && exec "$GB" -r -p "$port" -v "$@") \
		    >"$tmp/$name.out" 2>"$tmp/$name.err" &
	fi
	lpid=$!
	lport=$port
	pids="$pids $lpid"
	for _ in $(seq 1 50); do
		if ss -Htln "sport = :$port" | grep -q .; then up=1; break; fi
		kill -0 "$lpid" 2>/dev/null || break
		sleep 0.1
	done
	if [ "$up" -ne 1 ]; then
		fail "$name comes up on port $port"
		sed 's/^/# /' "$tmp/$name.err"
		return 1
	fi
	pass "$name comes up on port $port: $*"
}

started() { grep -c 'test started' "$tmp/$1.err" || true; }

# refused NAME WHAT OPTION CLIENT-ARGS...: exit 3, OPTION in the message,
# and no test started on the listener.
refused()
{
	local name=$1 what=$2 opt=$3 rc=0 before
	shift 3
	before=$(started "$name")
	timeout 20 "$GB" "$@" -p "$lport" >"$tmp/c.out" 2>"$tmp/c.err" ||
	    rc=$?
	if [ "$rc" -eq 3 ] && grep -q -- "refused by .*$opt" "$tmp/c.err" &&
	    [ "$(started "$name")" = "$before" ]; then
		pass "$what: refused, exit 3, names $opt"
	else
		fail "$what: refused, exit 3, names $opt # exit $rc:" \
		    "$(head -c 200 "$tmp/c.err")"
	fi
}

served() # served WHAT CLIENT-ARGS...: exit 0
{
	local what=$1 rc=0
	shift
	timeout 30 "$GB" "$@" -p "$lport" -q >"$tmp/c.out" 2>"$tmp/c.err" ||
	    rc=$?
	check "$what: served" "$rc" "exit $rc: $(head -c 200 "$tmp/c.err")"
}

# oversend PORT WHAT [LEARN-PORT]: hostile.py's misbehaving client (it
# learns the protocol from a real test on LEARN-PORT, PORT by default);
# its JSON line.
oversend()
{
	"$PY" "$top/tests/hostile.py" oversend --port "$1" --gigebench "$GB" \
	    --what "$2" --learn-port "${3:-$1}" 2>"$tmp/ov.err" || true
}

# jget JSON KEY: one member of the oversend line.
jget() { "$PY" -c 'import json,sys; print(json.loads(sys.argv[1])[sys.argv[2]])' "$1" "$2"; }

# ---------------------------------------------------------- refusals
listen limited - -- --silent-timeout 1 --handshake-timeout 1 \
    --max-duration 12 --max-streams 2 --max-length 2M --max-sockbuf 1M \
    --max-rate 100m --allow-reverse || finish
A=$lpid
refused limited "-T 13 (--max-duration 12)" --max-duration \
    -t 127.0.0.1 -T 13
refused limited "-P 3 (--max-flows 2)" --max-flows -t 127.0.0.1 -P 3
refused limited "-l 4M (--max-length 2M)" --max-length \
    -t 127.0.0.1 -l 4M
refused limited "-t -b 2M: the listener's SO_RCVBUF" --max-sockbuf \
    -t 127.0.0.1 -b 2M
refused limited "-r --sndbuf 2M: the listener's SO_SNDBUF" --max-sockbuf \
    -r 127.0.0.1 --sndbuf 2M
refused limited "-r -P 2 --fq-rate 60m (120 > --max-rate 100m)" --max-rate \
    -r 127.0.0.1 -P 2 --fq-rate 60m
served "-T 1 -P 2 -l 2M (every limit exactly)" -t 127.0.0.1 -T 1 -P 2 \
    -l 2M --rcvbuf 1M
served "-n 100 alone (no duration asked)" -t 127.0.0.1 -n 100
served "-r -P 2 --fq-rate 50m (100m in all)" -r 127.0.0.1 -T 1 -P 2 \
    --fq-rate 50m

# A reverse test that asks for no pacing gets --max-rate.
rc=0
timeout 30 "$GB" -r 127.0.0.1 -p "$lport" -T 2 -P 2 --json >"$tmp/r.json" \
    2>"$tmp/c.err" || rc=$?
mbps=$("$PY" -c 'import json,sys; d=json.load(open(sys.argv[1]))
print("%.1f %s" % (d["result"]["mbps"], d["result"]["sender"]["fq_rate"]))' \
    "$tmp/r.json" 2>/dev/null || echo "0 none")
if [ "$rc" -eq 0 ] && "$PY" -c 'import sys; m, r = sys.argv[1].split()
sys.exit(not (50 <= float(m) <= 105 and r == "6250000"))' "$mbps"; then
	pass "-r -P 2 with no pacing: paced to --max-rate 100m ($mbps:" \
	    "Mbit/s, bytes/s a stream)"
else
	fail "-r -P 2 with no pacing: paced to --max-rate 100m # exit $rc," \
	    "Mbit/s and bytes/s a stream: $mbps"
fi

# ---------------------------------------------------------- cut-offs
out=$(oversend "$lport" nbuf)
if [ "$(jget "$out" cut)" = True ] &&
    jget "$out" error | grep -q 'more than the test asked for'; then
	pass "a client that sends past -n 100 is cut off: $out"
else
	fail "a client that sends past -n 100 is cut off # $out" \
	    "$(head -c 200 "$tmp/ov.err")"
fi
out=$(oversend "$lport" duration)
if [ "$(jget "$out" cut)" = True ] && "$PY" -c 'import sys
sys.exit(not 1.5 <= float(sys.argv[1]) <= 3.5)' "$(jget "$out" seconds)" &&
    jget "$out" error | grep -q 'still flowed'; then
	pass "a client that sends past -T 1 is cut off after 1 s + the" \
	    "1 s grace: $out"
else
	fail "a client that sends past -T 1 is cut off within 1.5-3.5 s # $out"
fi
served "after the cut-offs, a real test" -t 127.0.0.1 -T 0.5

# The client's own --silent-timeout: the listener freezes mid-test.
# The freeze comes once the listener says the test started (not after a
# fixed sleep), and 0.3 s of data later.
t0=$(now_ms)
before=$(started limited)
"$GB" -t 127.0.0.1 -p "$lport" -T 10 --silent-timeout 1 -q \
    >"$tmp/c.out" 2>"$tmp/c.err" &
cpid=$!
pids="$pids $cpid"
for _ in $(seq 1 250); do
	[ "$(started limited)" -gt "$before" ] && break
	kill -0 "$cpid" 2>/dev/null || break
	sleep 0.02
done
sleep 0.3
kill -STOP "$A"
t1=$(now_ms)
rc=0
for _ in $(seq 1 60); do
	kill -0 "$cpid" 2>/dev/null || break
	sleep 0.1
done
if kill -0 "$cpid" 2>/dev/null; then
	kill -KILL "$cpid"
	rc=124
fi
wait "$cpid" || rc=$?
t2=$(now_ms)
kill -CONT "$A"
ms=$((t2 - t1))
if [ "$rc" -eq 1 ] && [ "$ms" -le 3000 ] &&
    grep -q 'silent for 1 s' "$tmp/c.err"; then
	pass "client --silent-timeout 1: ends $ms ms after the listener" \
	    "froze, exit 1"
else
	fail "client --silent-timeout 1: ends within 3 s of the freeze #" \
	    "exit $rc after $ms ms ($((t1 - t0)) ms into the test):" \
	    "$(head -c 200 "$tmp/c.err")"
fi
sleep 1.5	# the thawed listener ends the test its peer left
served "the thawed listener serves again" -t 127.0.0.1 -T 0.5
kill -TERM "$A"
wait "$A" || true

# ---------------------------------------------------------- --max-bytes
listen bytes - -- --max-bytes 10M || finish
refused bytes "-n 200 -l 64K = 12.5M (--max-bytes 10M)" --max-bytes \
    -t 127.0.0.1 -n 200 -l 64K
served "-n 160 -l 64K = 10M (--max-bytes 10M)" -t 127.0.0.1 -n 160 -l 64K
out=$(oversend "$lport" bytes)
if [ "$(jget "$out" cut)" = True ] &&
    jget "$out" error | grep -q -- '--max-bytes'; then
	pass "a client that sends past --max-bytes 10M is cut off: $out"
else
	fail "a client that sends past --max-bytes 10M is cut off # $out"
fi
served "after the cut-off, a real test by count" -t 127.0.0.1 -n 10
B=$lpid
bport=$lport

# ---------------------------------------------------------- --once
listen once - -- -1 --handshake-timeout 1 --silent-timeout 1 || finish
O=$lpid
alive() # alive WHAT: the --once listener is still there
{
	sleep 0.3
	if kill -0 "$O" 2>/dev/null; then
		pass "-1 listener still listens after $1"
	else
		fail "-1 listener still listens after $1"
	fi
}
printf 'GET / HTTP/1.0\r\n\r\n' >"$tmp/get"
"$PY" -c 'import socket, sys
s = socket.create_connection(("127.0.0.1", int(sys.argv[1])))
s.sendall(open(sys.argv[2], "rb").read()); s.recv(100)' "$lport" "$tmp/get" \
    2>/dev/null || true
alive "an HTTP request"
refused once "-T 400 (default --max-duration 300)" --max-duration \
    -t 127.0.0.1 -T 400
alive "a refused test"
"$PY" -c 'import socket, sys, time
s = socket.create_connection(("127.0.0.1", int(sys.argv[1])))
time.sleep(1.5)' "$lport"
alive "a silent connection that timed out"
# Killed once the listener says its test started (not after a sleep).
before=$(started once)
"$GB" -t 127.0.0.1 -p "$lport" -T 5 -q >/dev/null 2>&1 &
cpid=$!
for _ in $(seq 1 250); do
	[ "$(started once)" -gt "$before" ] && break
	kill -0 "$cpid" 2>/dev/null || break
	sleep 0.02
done
if [ "$(started once)" -gt "$before" ] && kill -0 "$cpid" 2>/dev/null; then
	pass "the client to be killed is in its test"
else
	fail "the client to be killed is in its test (started: $(started once)," \
	    "before: $before)"
fi
kill -KILL "$cpid"
wait "$cpid" 2>/dev/null || true
sleep 0.5
alive "a client killed mid-test"
# The failed test must be one: started on the -1 listener and cut off
# for sending past -n (issue 13: it was never checked).
before=$(started once)
out=$(oversend "$lport" nbuf "$bport")
if [ "$(jget "$out" cut)" = True ] &&
    jget "$out" error | grep -q 'more than the test asked for' &&
    [ "$(started once)" -gt "$before" ]; then
	pass "a failed test on the -1 listener: started, cut off: $out"
else
	fail "a failed test on the -1 listener: started, cut off #" \
	    "$(started once) started (before: $before): $out" \
	    "$(head -c 200 "$tmp/ov.err")"
fi
alive "a failed test"
served "the one complete test of a -1 listener" -t 127.0.0.1 -T 0.5
st=0
for _ in $(seq 1 30); do
	kill -0 "$O" 2>/dev/null || break
	sleep 0.1
done
if kill -0 "$O" 2>/dev/null; then
	fail "-1 listener exits after its completed test"
else
	wait "$O" || st=$?
	check "-1 listener exits 0 after its completed test" "$st" "exit $st"
fi
kill -TERM "$B"
wait "$B" || true

# ---------------------------------------------------------- EMFILE
listen emfile 40 -- --max-pending-source 1000 --handshake-timeout 3 ||
    finish
E=$lpid
# 100 connections held for 1.5 s: the listener has fewer descriptors.
"$PY" -c 'import socket, sys, time
socks = []
for _ in range(100):
    socks.append(socket.create_connection(("127.0.0.1", int(sys.argv[1]))))
time.sleep(1.5)' "$lport" 2>"$tmp/py.err" || true
# The pending caps follow RLIMIT_NOFILE (issue 14, item 2): the listener
# lowers them to what its descriptors hold and closes the biggest
# source's oldest connection instead of running out.
if grep -q 'at most [0-9]* pending connections, [0-9]* per source (RLIMIT_NOFILE 40' \
    "$tmp/emfile.err"; then
	pass "out of descriptors: the listener lowers its pending caps to the limit"
else
	fail "out of descriptors: the listener lowers its pending caps to the limit #" \
	    "$(tail -3 "$tmp/emfile.err" | tr '\n' ' ')"
fi
if kill -0 "$E" 2>/dev/null; then
	pass "out of descriptors: the listener is still running"
else
	fail "out of descriptors: the listener is still running"
	finish
fi
t0=$(now_ms)
rc=1
for _ in $(seq 1 20); do
	rc=0
	timeout 20 "$GB" -t 127.0.0.1 -p "$lport" -T 0.5 -q >/dev/null \
	    2>"$tmp/c.err" || rc=$?
	[ "$rc" -eq 0 ] && break
	sleep 0.2
done
check "after the descriptors came back, a real test passes ($(($(now_ms) -
    t0)) ms)" "$rc" "exit $rc: $(head -c 200 "$tmp/c.err")"
if grep -q 'closed: its source has the most pending connections it may (RLIMIT_NOFILE 40)' \
    "$tmp/emfile.err" && ! grep -q 'Too many open files' "$tmp/emfile.err"; then
	pass "out of descriptors: the flood is closed at the cap, accept never fails"
else
	fail "out of descriptors: the flood is closed at the cap, accept never fails #" \
	    "$(grep -c 'Too many open files' "$tmp/emfile.err") EMFILE lines"
fi
kill -TERM "$E"
wait "$E" || true

if grep -Eq 'Sanitizer|runtime error:' "$tmp"/*.err; then
	fail "no sanitizer report from any listener"
	grep -E -A10 'Sanitizer|runtime error:' "$tmp"/*.err | head -40 |
	    sed 's/^/# /'
else
	pass "no sanitizer report from any listener"
fi
finish
