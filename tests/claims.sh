#!/usr/bin/env bash
#
# claims.sh: promises of the man page that no other test held (issue 13,
# item 8), over loopback:
#
#  1. --json gives one valid JSON document, with "error" and "exit_code",
#     on every error path: connection refused, a busy listener, a limit
#     refusal, a wrong key, a silent peer and a failed sweep (usage errors
#     and a peer that is not gigebench are tests/loopback.sh's);
#  2. a test bounded by -n alone ends at --max-duration at the latest
#     (plus the listener's --silent-timeout grace), timed from the
#     listener's "test started" line;
#  3. irq per segment: on a replayed host (GIGEBENCH_PROCFS) whose eth0
#     line gains a known number of interrupts during the test,
#     irq_per_segment is exactly that number over the sender's
#     tcp.data_segs_out;
#  4. (root) --force-bufs on a client without CAP_NET_ADMIN: exit 1,
#     "Operation not permitted", naming SO_SNDBUFFORCE (it sends) or
#     SO_RCVBUFFORCE (it receives).
# The listener's own MTU recovery after a SIGKILL is tests/sweep_netns.sh's
# (it needs a namespace).
#
#	GIGEBENCH=build/gigebench bash tests/claims.sh
#
# About 20 s.  Prints "ok - ..." or "FAIL - ..." per check and ends with
# "N passed, M failed"; exits 1 when a check failed.

set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
GB=${GIGEBENCH:-$top/build/gigebench}
PY=${PYTHON:-python3}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gigebench-claims.XXXXXX")
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
finish()
{
	echo "$passed passed, $failed failed"
	[ "$failed" -eq 0 ]
	exit $?
}
now_ms() { date +%s%3N; }
# shellcheck source=tests/lib/skip.sh
. "$top/tests/lib/skip.sh"	# in_ci

if [ ! -x "$GB" ]; then
	fail "gigebench binary at $GB (run make)"
	finish
fi

free_port()	# sets $port: a free one below the ephemeral range
{
	local p
	port=""
	for _ in $(seq 1 50); do
		p=$((20000 + RANDOM % 10000))
		if ! ss -Htln "sport = :$p" | grep -q .; then port=$p; return 0; fi
	done
	fail "a free port"
	return 1
}

# listen NAME ARGS...: a listener (-v: it logs "test started"); waits
# until its port accepts; sets $lpid and $lport; logs in $tmp/NAME.err.
listen()
{
	local name=$1
	shift
	free_port || return 1
	"$GB" -r -p "$port" -v "$@" >"$tmp/$name.out" 2>"$tmp/$name.err" &
	lpid=$!
	lport=$port
	pids="$pids $lpid"
	for _ in $(seq 1 100); do
		ss -Htln "sport = :$port" | grep -q . && return 0
		kill -0 "$lpid" 2>/dev/null || break
		sleep 0.05
	done
	fail "$name listener comes up on port $port: $(head -c 200 \
	    "$tmp/$name.err")"
	return 1
}

# wait_line FILE PATTERN SECONDS: until PATTERN appears in FILE.
wait_line()
{

	for _ in $(seq 1 $(($3 * 20))); do
		grep -q -- "$2" "$1" 2>/dev/null && return 0
		sleep 0.05
	done
	return 1
}

# json_error NAME RC WANT-RC FILE: FILE is one JSON document with "error"
# and exit_code RC, and the client exited WANT-RC.
json_error()
{
	local name=$1 rc=$2 want=$3 file=$4 why
	if why=$("$PY" -c 'import json, sys
d = json.load(open(sys.argv[1]))
ok = isinstance(d, dict) and isinstance(d.get("error"), str) and \
    d.get("exit_code") == int(sys.argv[2])
print(d.get("error") if ok else "no error member or exit_code %r" %
      d.get("exit_code"))
sys.exit(0 if ok else 1)' "$file" "$rc" 2>&1) && [ "$rc" -eq "$want" ]; then
		pass "--json, $name: exit $rc, valid JSON: $why"
	else
		fail "--json, $name: exit $rc (want $want), valid JSON with" \
		    "error and exit_code: $(echo "$why" | tail -1)" \
		    "# stdout: $(head -c 200 "$file")"
	fi
}

# ------------------------------------------------- 1. JSON on errors
# Connection refused: a port nobody listens on.
free_port || finish
rc=0
"$GB" -t 127.0.0.1 -p "$port" -T 0.5 -J >"$tmp/refused.json" \
    2>/dev/null || rc=$?
json_error "connection refused" "$rc" 1 "$tmp/refused.json"

# Busy: a listener in a test (its "test started" line), a second client.
listen busy --max-duration 12 || finish
"$GB" -t 127.0.0.1 -p "$lport" -T 4 -q >/dev/null 2>&1 &
cpid=$!
pids="$pids $cpid"
if wait_line "$tmp/busy.err" 'test started' 5; then
	rc=0
	"$GB" -t 127.0.0.1 -p "$lport" -T 0.5 -J >"$tmp/busy.json" \
	    2>/dev/null || rc=$?
	json_error "busy listener" "$rc" 3 "$tmp/busy.json"
else
	fail "--json, busy listener: the first test started"
fi
wait "$cpid" 2>/dev/null || true
# A limit refusal, on the same listener.
rc=0
"$GB" -t 127.0.0.1 -p "$lport" -T 13 -J >"$tmp/limit.json" 2>/dev/null ||
    rc=$?
json_error "a limit refusal (-T 13, --max-duration 12)" "$rc" 3 \
    "$tmp/limit.json"
# A failed sweep: its second point asks for more streams than allowed.
kill -TERM "$lpid" 2>/dev/null || true
wait "$lpid" 2>/dev/null || true
listen sweep --max-streams 1 || finish
rc=0
"$GB" -t 127.0.0.1 -p "$lport" -T 0.3 --sweep streams=1,2 -J \
    >"$tmp/sweep.json" 2>"$tmp/sweep.err" || rc=$?
json_error "a failed sweep (streams=1,2 against --max-streams 1)" "$rc" 3 \
    "$tmp/sweep.json"
kill -TERM "$lpid" 2>/dev/null || true
wait "$lpid" 2>/dev/null || true

# A wrong key.
head -c 32 /dev/urandom >"$tmp/k1"
head -c 32 /dev/urandom >"$tmp/k2"
chmod 600 "$tmp/k1" "$tmp/k2"
listen keyed --psk "$tmp/k1" || finish
rc=0
"$GB" -t 127.0.0.1 -p "$lport" -T 0.3 --psk "$tmp/k2" -J \
    >"$tmp/key.json" 2>/dev/null || rc=$?
json_error "wrong key" "$rc" 3 "$tmp/key.json"
kill -TERM "$lpid" 2>/dev/null || true
wait "$lpid" 2>/dev/null || true

# A silent peer: accepts, says nothing (the client's handshake timeout).
free_port || finish
"$PY" -c 'import socket, sys, time
s = socket.socket()
s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("127.0.0.1", int(sys.argv[1])))
s.listen(1)
c, _ = s.accept()
time.sleep(15)' "$port" &
fpid=$!
pids="$pids $fpid"
for _ in $(seq 1 100); do
	ss -Htln "sport = :$port" | grep -q . && break
	sleep 0.05
done
rc=0
"$GB" -t 127.0.0.1 -p "$port" -T 0.5 -J >"$tmp/silent.json" 2>/dev/null ||
    rc=$?
json_error "a silent peer" "$rc" 3 "$tmp/silent.json"
kill "$fpid" 2>/dev/null || true

# ------------------------------------------ 2. -n alone, --max-duration
MAXD=2
GRACE=1
listen nalone --max-duration "$MAXD" --silent-timeout "$GRACE" || finish
rc=0
"$GB" -t 127.0.0.1 -p "$lport" -n 100000000 -l 128K -q >/dev/null \
    2>"$tmp/n.err" &
cpid=$!
pids="$pids $cpid"
if wait_line "$tmp/nalone.err" 'test started' 5; then
	t0=$(now_ms)
	for _ in $(seq 1 200); do
		kill -0 "$cpid" 2>/dev/null || break
		sleep 0.05
	done
	t1=$(now_ms)
	killed=0
	if kill -0 "$cpid" 2>/dev/null; then
		kill -KILL "$cpid" 2>/dev/null || true
		killed=1
	fi
	wait "$cpid" 2>/dev/null || rc=$?
	[ "$killed" -eq 0 ] || rc=124
	ms=$((t1 - t0))
	# The cut comes at MAXD + GRACE; 1 s more for the client to see it.
	if [ "$rc" -ne 124 ] && [ "$ms" -le $(((MAXD + GRACE + 1) * 1000)) ]
	then
		pass "-n alone (12.5 TB) ends at --max-duration $MAXD at the" \
		    "latest: $ms ms after the start (+ ${GRACE} s grace), exit $rc"
	else
		fail "-n alone ends at --max-duration $MAXD + ${GRACE} s at the" \
		    "latest: still running or ended after $ms ms (exit $rc):" \
		    "$(head -c 200 "$tmp/n.err")"
	fi
else
	fail "-n alone: the test started # $(head -c 200 "$tmp/n.err")"
fi
kill -TERM "$lpid" 2>/dev/null || true
wait "$lpid" 2>/dev/null || true

# ---------------------------------------------- 3. irq per segment
# The replayed host of tests/loopback.sh (the 2001 PowerMac, eth0 on
# OpenPIC line 41), copied so that its line can move: +ADD interrupts
# 0.5 s after the test started, the end's reading sees them.
ADD=5000
cp -r "$top/tests/fixtures/host-gmac-after" "$tmp/host"
listen irq -1 || finish
GIGEBENCH_PROCFS=$tmp/host/proc GIGEBENCH_SYSFS=$tmp/host/sys \
    "$GB" -t 127.0.0.1 -p "$lport" -T 2 -I eth0 -J >"$tmp/irq.json" \
    2>"$tmp/irq.cerr" &
cpid=$!
pids="$pids $cpid"
if wait_line "$tmp/irq.err" 'test started' 5; then
	sleep 0.5	# inside the 2 s test, well after its first reading
	"$PY" - "$tmp/host/proc/interrupts" "$ADD" <<'PYEOF'
import re, sys
path, add = sys.argv[1], int(sys.argv[2])
text = open(path).read()
new, k = re.subn(r"(?m)^( 41:)( +\d+)", lambda m: m.group(1) +
                 str(int(m.group(2)) + add).rjust(len(m.group(2))), text)
assert k == 1
open(path + ".new", "w").write(new)
PYEOF
	mv "$tmp/host/proc/interrupts.new" "$tmp/host/proc/interrupts"
fi
rc=0
wait "$cpid" || rc=$?
if why=$("$PY" -c 'import json, sys
s = json.load(open(sys.argv[1]))["result"]["sender"]
add = int(sys.argv[2])
segs = s["tcp"]["data_segs_out"]
ips = s["irq_per_segment"]
want = add / segs
print("interrupts %s, data_segs_out %d, irq_per_segment %r, %d/%d = %r"
      % (s["interrupts"], segs, ips, add, segs, want))
sys.exit(0 if s["interrupts"] == add and ips is not None and
         abs(ips - want) <= 1e-9 * want else 1)' "$tmp/irq.json" "$ADD" 2>&1)
then
	pass "irq per segment = interrupts / tcp.data_segs_out: $why"
else
	fail "irq per segment = interrupts / tcp.data_segs_out (exit $rc):" \
	    "$(echo "$why" | tail -1) $(head -c 200 "$tmp/irq.cerr")"
fi
wait "$lpid" 2>/dev/null || true

# ------------------------------------ 4. the client's --force-bufs
if [ "$(id -u)" -ne 0 ] || ! command -v setpriv >/dev/null; then
	if in_ci; then
		fail "the client's --force-bufs refusal: needs root and setpriv" \
		    "(CI is set)"
	else
		echo "# SKIP the client's --force-bufs refusal: needs root" \
		    "and setpriv"
	fi
	finish
fi
listen force --allow-reverse || finish
for dir in "-t SO_SNDBUFFORCE sends" "-r SO_RCVBUFFORCE receives"; do
	# shellcheck disable=SC2086	# three words
	set -- $dir
	rc=0
	setpriv --inh-caps=-net_admin --bounding-set=-net_admin -- \
	    "$GB" "$1" 127.0.0.1 -p "$lport" -T 0.3 -b 4M --force-bufs -q \
	    >/dev/null 2>"$tmp/fb.err" || rc=$?
	if [ "$rc" -eq 1 ] && grep -q "$2.*Operation not permitted" \
	    "$tmp/fb.err"; then
		pass "--force-bufs on a client without CAP_NET_ADMIN ($1, it" \
		    "$3): exit 1, $(head -n 1 "$tmp/fb.err")"
	else
		fail "--force-bufs on a client without CAP_NET_ADMIN ($1):" \
		    "exit $rc (want 1), naming $2, Operation not permitted #" \
		    "$(head -c 200 "$tmp/fb.err")"
	fi
done
rc=0
"$GB" -t 127.0.0.1 -p "$lport" -T 0.3 -q >/dev/null 2>"$tmp/after.err" ||
    rc=$?
if [ "$rc" -eq 0 ]; then
	pass "then the listener serves the next test"
else
	fail "then the listener serves the next test (exit $rc)"
fi
kill -TERM "$lpid" 2>/dev/null || true
wait "$lpid" 2>/dev/null || true
if grep -Eq 'Sanitizer|runtime error:' "$tmp"/*.err; then
	fail "no sanitizer report from any process"
else
	pass "no sanitizer report from any process"
fi
finish
