#!/usr/bin/env bash
# Many flows on few threads (issue 32) on loopback.  Run from the top of
# the tree as
#	GIGEBENCH=build/gigebench bash tests/flows.sh
# (make check-flows; about 45 s).  It checks:
#  1. -P 10000 --threads 2: the test runs, both ends say 10,000 flows on
#     2 threads, the sender's bytes are the receiver's, --flow-csv has a
#     row for each flow whose bytes add up to the sender's, the side
#     keeps 128 flows one by one, Jain's index is within (0, 1];
#  2. -r -P 200 --threads 2: the same the other way, the listener's
#     workers sending; --sendfile --splice -P 200 --threads 2 the same,
#     the paths named; --sendfile and -Z -n 50 -P 4 --threads 2 send 50
#     buffers a flow (-Z: every send completed); -Z -P 500 --threads 2;
#  3. --rr -P 1000 --threads 2: the asker's transactions are the
#     answerer's, the latency histogram holds each, every flow did some
#     (its min transactions/s above 0);
#  4. -P 2 without --threads: one thread a flow up to the CPUs;
#     -P 7 --threads 3: 3 threads;
#  5. refusals: past the listener's --max-flows, --crr flows past its
#     --max-pending-source (exit 3, naming them); -Z's rings of 1000
#     flows past the memory bound (exit 2, naming the option);
#     a listener whose descriptor limit cannot hold
#     the flows (exit 3, "descriptors"); a client whose cannot (exit 1,
#     RLIMIT_NOFILE);
#  6. a client stopped (SIGSTOP) mid-test, TCP and -u: the listener's
#     many-flow workers see the silence and end the test within its
#     --silent-timeout, the listener serves the next test;
#  7. -u -P 1000 --threads 2, paced: both ends say 1000 flows on 2
#     threads, every datagram sent is received or counted lost, at most
#     1 % lost, every flow delivered, the per-flow rate (P50) within 10 %
#     of -R (the pace holds on the engine), the test over within 3 s of
#     -T (its END datagrams and the receiver's drain);
#  8. -u -P 2 without --threads: half the CPUs (at least 1) on each end;
#     -u --gso --gro -P 4 --threads 2 and -r -u -P 100 --threads 2 (the
#     listener's workers send): the counts add up, the paths are named;
#     -u --rr -P 100 --threads 2: every request answered or lost, the
#     answerer's count the asker's, every flow did transactions;
#     --crr -P 200 --threads 2: a connection a transaction, both ends
#     count them all, every flow did some;
#  9. Ctrl-C of a -P 1000 client: exit 1 within 3 s, with its report.
# Prints "ok"/"FAIL" per check and "N passed, M failed".
set -eu

HERE=$(cd "$(dirname "$0")" && pwd)
GB=${GIGEBENCH:-$(dirname "$HERE")/build/gigebench}
# shellcheck source=tests/lib/tally.sh
. "$HERE/lib/tally.sh"
# shellcheck source=tests/lib/listener.sh
. "$HERE/lib/listener.sh"

TMP=$(mktemp -d)
PIDS=""
cleanup() {
	local p
	for p in $PIDS; do
		kill -CONT "$p" 2>/dev/null || true
		kill "$p" 2>/dev/null || true
	done
	wait 2>/dev/null || true
	rm -rf "$TMP"
}
trap cleanup EXIT
trap 'cleanup; exit 130' INT
trap 'cleanup; exit 143' TERM

# json FILE EXPR: prints EXPR of the JSON document d (python).
json() {
	python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
r = d["result"]
print(eval("(" + sys.argv[2] + ")"))' "$1" "$2"
}

listener_start "$GB" "$TMP/l.out" "$TMP/l.err" --max-flows 10000 \
    --allow-reverse -v || { fail "the listener starts"; finish; exit 1; }
L=$LISTENER_PORT
PIDS="$LISTENER_PID"

# 1. 10,000 flows on 2 threads.
rc=0
"$GB" -t 127.0.0.1 -p "$L" -P 10000 --threads 2 -T 1 -l 16K -J \
    --flow-csv "$TMP/f.csv" >"$TMP/a.json" 2>"$TMP/a.err" || rc=$?
if [ "$rc" -ne 0 ]; then
	fail "-P 10000 --threads 2 runs (exit $rc: $(head -c 300 "$TMP/a.err"))"
else
	pass "-P 10000 --threads 2 runs"
	check "both ends: 10000 flows on 2 threads" test "$(json "$TMP/a.json" \
	    '[r[s]["flows"]["n"] for s in ("sender", "receiver")] +
	    [r[s]["flows"]["threads"] for s in ("sender", "receiver")]')" = \
	    "[10000, 10000, 2, 2]"
	check "the receiver got every byte sent" test "$(json "$TMP/a.json" \
	    'r["sender"]["bytes"] == r["receiver"]["bytes"] > 0')" = True
	check "the side keeps 128 flows one by one" test "$(json \
	    "$TMP/a.json" 'len(r["sender"]["streams"])')" = 128
	check "Jain's index in (0, 1]" test "$(json "$TMP/a.json" \
	    '0 < r["receiver"]["flows"]["jain"] <= 1')" = True
	sent=$(json "$TMP/a.json" 'r["sender"]["bytes"]')
	check "--flow-csv: 10000 rows, their bytes the sender's" test \
	    "$(awk -F, 'NR > 1 { n++; b += $3 } END { printf "%d %.0f", n, b }' \
	    "$TMP/f.csv")" = "10000 $sent"
fi

# 2. The other way: the listener's workers send.
rc=0
"$GB" -r 127.0.0.1 -p "$L" -P 200 --threads 2 -T 1 -l 16K -J \
    >"$TMP/b.json" 2>"$TMP/b.err" || rc=$?
check "-r -P 200 --threads 2: the receiver got every byte (exit $rc)" \
    test "$rc:$(json "$TMP/b.json" '(r["sender"]["bytes"] ==
    r["receiver"]["bytes"] > 0, r["sender"]["flows"]["threads"])' \
    2>/dev/null)" = "0:(True, 2)"

# --sendfile and --splice on the engine; -n counts each flow's buffers.
rc=0
"$GB" -t 127.0.0.1 -p "$L" --sendfile --splice -P 200 --threads 2 -T 1 \
    -l 16K -J >"$TMP/sf.json" 2>"$TMP/sf.err" || rc=$?
check "--sendfile --splice -P 200 --threads 2: every byte, the paths (exit $rc)" \
    test "$(json "$TMP/sf.json" '(r["sender"]["bytes"] ==
    r["receiver"]["bytes"] > 0, r["sender"]["streams"][0]["data_path"],
    r["receiver"]["streams"][0]["data_path"], r["sender"]["flows"]["threads"])' \
    2>/dev/null)" = "(True, 'sendfile', 'splice', 2)"
rc=0
"$GB" -t 127.0.0.1 -p "$L" --sendfile -n 50 -l 64K -P 4 --threads 2 -J \
    >"$TMP/sn.json" 2>"$TMP/sn.err" || rc=$?
check "--sendfile -n 50 -l 64K -P 4 --threads 2: 4 x 50 buffers (exit $rc)" \
    test "$(json "$TMP/sn.json" '(r["sender"]["bytes"],
    r["receiver"]["bytes"])' 2>/dev/null)" = "(13107200, 13107200)"
rc=0
"$GB" -t 127.0.0.1 -p "$L" -Z -n 50 -l 64K -P 4 --threads 2 -J \
    >"$TMP/zn.json" 2>"$TMP/zn.err" || rc=$?
check "-Z -n 50 -l 64K -P 4 --threads 2: 4 x 50 buffers, every send completed (exit $rc)" \
    test "$(json "$TMP/zn.json" '(r["sender"]["bytes"], r["receiver"]["bytes"],
    r["sender"]["zerocopy"]["sends"] ==
    r["sender"]["zerocopy"]["completions"] >= 200,
    r["sender"]["streams"][0]["data_path"])' 2>/dev/null)" = \
    "(13107200, 13107200, True, 'zerocopy')"
rc=0
"$GB" -t 127.0.0.1 -p "$L" -Z -l 16K -P 500 --threads 2 -T 1 -J \
    >"$TMP/zp.json" 2>"$TMP/zp.err" || rc=$?
check "-Z -l 16K -P 500 --threads 2: every byte (exit $rc)" test "$(json \
    "$TMP/zp.json" 'r["sender"]["bytes"] == r["receiver"]["bytes"] > 0' \
    2>/dev/null)" = True

# 3. Request/response, 1000 flows on 2 threads (neper's tcp_rr -F -T).
rc=0
"$GB" -t 127.0.0.1 -p "$L" --rr -P 1000 --threads 2 -T 1 -J \
    >"$TMP/c.json" 2>"$TMP/c.err" || rc=$?
if [ "$rc" -ne 0 ]; then
	fail "--rr -P 1000 --threads 2 runs (exit $rc: $(head -c 300 "$TMP/c.err"))"
else
	check "--rr -P 1000: asked = answered = the histogram's count" test \
	    "$(json "$TMP/c.json" 'r["sender"]["rr"]["transactions"] ==
	    r["receiver"]["rr"]["transactions"] ==
	    r["rr"]["latency"]["count"] > 1000')" = True
	check "--rr -P 1000: every flow did transactions" test "$(json \
	    "$TMP/c.json" 'r["sender"]["flows"]["tps"]["min"] > 0')" = True
fi

# 4. The default number of threads, and a given one.
ncpus=$(getconf _NPROCESSORS_ONLN)
want=$((ncpus < 2 ? ncpus : 2))
rc=0
"$GB" -t 127.0.0.1 -p "$L" -P 2 -T 0.3 -J >"$TMP/d.json" 2>&1 || rc=$?
check "-P 2: $want threads on $ncpus CPUs (exit $rc)" test "$(json \
    "$TMP/d.json" 'r["sender"]["flows"]["threads"]' 2>/dev/null)" = "$want"
rc=0
"$GB" -t 127.0.0.1 -p "$L" -P 7 --threads 3 -T 0.3 -J >"$TMP/e.json" \
    2>&1 || rc=$?
check "-P 7 --threads 3: 3 threads (exit $rc)" test "$(json "$TMP/e.json" \
    '[r[s]["flows"]["threads"] for s in ("sender", "receiver")]' \
    2>/dev/null)" = "[3, 3]"

# 5. Refusals.
# refused WHAT WANT_RC NEEDLE CMD...: CMD exits WANT_RC, NEEDLE on stderr.
refused() {
	local what=$1 want=$2 needle=$3 rc=0
	shift 3
	timeout 20 "$@" >"$TMP/r.out" 2>"$TMP/r.err" || rc=$?
	if [ "$rc" -eq "$want" ] && grep -qF -- "$needle" "$TMP/r.err"; then
		pass "$what: exit $rc, says $needle"
	else
		fail "$what: exit $rc (want $want), stderr: $(head -c 300 "$TMP/r.err")"
	fi
}
listener_start "$GB" "$TMP/s.out" "$TMP/s.err" --max-flows 100 ||
    fail "the small listener starts"
S=$LISTENER_PORT
PIDS="$PIDS $LISTENER_PID"
refused "-P 101 against --max-flows 100" 3 "--max-flows" \
    "$GB" -t 127.0.0.1 -p "$S" -P 101 -T 0.2
refused "-Z -P 1000 (a ring a flow)" 2 "with -Z's ring" \
    "$GB" -t 127.0.0.1 -p "$S" -Z -P 1000
refused "--crr -P 100 against --max-pending-source 16" 3 \
    "--max-pending-source" "$GB" -t 127.0.0.1 -p "$S" --crr -P 100 \
    --threads 2 -T 0.2
# A listener held to 200 descriptors (hard limit too) and a client's 500.
port=$(listener_free_port)
(ulimit -n 200 && exec "$GB" -r -p "$port" --max-flows 1000 \
    >"$TMP/n.out" 2>"$TMP/n.err") &
PIDS="$PIDS $!"
for _ in $(seq 1 100); do
	ss -Htln "sport = :$port" | grep -q . && break
	sleep 0.05
done
refused "a listener of ulimit -n 200, -P 500" 3 "descriptors" \
    "$GB" -t 127.0.0.1 -p "$port" -P 500 -T 0.2
refused "a client of ulimit -n 200, -P 500" 1 "RLIMIT_NOFILE" \
    bash -c 'ulimit -n 200 && exec "$@"' sh "$GB" -t 127.0.0.1 -p "$L" \
    -P 500 -T 0.2

# 6. A client that stops: the listener's workers see the silence.
listener_start "$GB" "$TMP/q.out" "$TMP/q.err" --silent-timeout 2 -v ||
    fail "the silent-timeout listener starts"
Q=$LISTENER_PORT
PIDS="$PIDS $LISTENER_PID"
# stopped WHAT ARGS...: a client of ARGS stopped after 1 s; the listener
# says "peer silent" within 6 s (its --silent-timeout 2) and serves on.
stopped() {
	local what=$1 c silent=0 rc=0 n
	shift
	n=$(grep -c "peer silent" "$TMP/q.err" || true)
	"$GB" -t 127.0.0.1 -p "$Q" "$@" -T 30 >"$TMP/g.out" 2>"$TMP/g.err" &
	c=$!
	PIDS="$PIDS $c"
	sleep 1
	kill -STOP "$c"
	for _ in $(seq 1 60); do
		if [ "$(grep -c "peer silent" "$TMP/q.err" || true)" -gt "$n" ]
		then
			silent=1
			break
		fi
		sleep 0.1
	done
	kill -CONT "$c" 2>/dev/null || true
	kill "$c" 2>/dev/null || true
	wait "$c" 2>/dev/null || true
	check "$what stopped: the listener says \"peer silent\" within 6 s" \
	    test "$silent" = 1
	"$GB" -t 127.0.0.1 -p "$Q" "$@" -T 0.3 >/dev/null 2>&1 || rc=$?
	check "... and serves the next test (exit $rc)" test "$rc" = 0
}
stopped "a -P 8 --threads 2 client" -P 8 --threads 2
stopped "a -u -P 8 --threads 2 client" -u -P 8 --threads 2 -l 1472

# 7. UDP, 1000 paced flows on 2 threads.
rc=0
start=$(date +%s%N)
"$GB" -t 127.0.0.1 -p "$L" -u -P 1000 --threads 2 -R 200k -l 512 -T 1 -J \
    >"$TMP/u.json" 2>"$TMP/u.err" || rc=$?
ms=$((($(date +%s%N) - start) / 1000000))
if [ "$rc" -ne 0 ]; then
	fail "-u -P 1000 --threads 2 runs (exit $rc: $(head -c 300 "$TMP/u.err"))"
else
	check "-u -P 1000: both ends 1000 flows on 2 threads" test "$(json \
	    "$TMP/u.json" '[r[s]["flows"]["n"] for s in ("sender", "receiver")]
	    + [r[s]["flows"]["threads"] for s in ("sender", "receiver")]')" = \
	    "[1000, 1000, 2, 2]"
	check "-u -P 1000: sent = received + lost, at most 1 % lost" test \
	    "$(json "$TMP/u.json" '(r["sender"]["udp"]["datagrams"] ==
	    r["receiver"]["udp"]["datagrams"] + r["receiver"]["udp"]["gaps"],
	    r["receiver"]["udp"]["gaps"] <= r["sender"]["udp"]["datagrams"] /
	    100, r["sender"]["udp"]["datagrams"] > 40000)')" = \
	    "(True, True, True)"
	check "-u -P 1000: every flow delivered, P50 within 10 % of 0.2 Mbps" \
	    test "$(json "$TMP/u.json" '(r["receiver"]["flows"]["mbps"]["min"]
	    > 0, abs(r["receiver"]["flows"]["mbps"]["p50"] - 0.2) < 0.02)')" = \
	    "(True, True)"
	check "-u -P 1000: over in ${ms} ms (under 4000)" test "$ms" -lt 4000
fi

# 8. UDP's default threads, GSO/GRO and the listener sending.
want=$((ncpus / 2 > 0 ? ncpus / 2 : 1))
rc=0
"$GB" -t 127.0.0.1 -p "$L" -u -P 2 -T 0.3 -J >"$TMP/v.json" 2>&1 || rc=$?
check "-u -P 2: $want thread(s) an end on $ncpus CPUs (exit $rc)" test \
    "$(json "$TMP/v.json" '[r[s]["flows"]["threads"] for s in ("sender",
    "receiver")]' 2>/dev/null)" = "[$want, $want]"
# udp_adds FILE: the counts add up and flows were many on a thread.
udp_adds() {
	json "$1" '(r["sender"]["udp"]["datagrams"] ==
	    r["receiver"]["udp"]["datagrams"] + r["receiver"]["udp"]["gaps"] > 0,
	    r["sender"]["streams"][0]["data_path"],
	    r["receiver"]["streams"][0]["data_path"])' 2>/dev/null
}
rc=0
"$GB" -t 127.0.0.1 -p "$L" -u --gso --gro -l 1472 -P 4 --threads 2 -R 20m \
    -T 0.5 -J >"$TMP/w.json" 2>&1 || rc=$?
check "-u --gso --gro -P 4 --threads 2: the counts add up (exit $rc)" \
    test "$(udp_adds "$TMP/w.json")" = "(True, 'gso', 'gro')"
rc=0
"$GB" -r 127.0.0.1 -p "$L" -u -P 100 --threads 2 -R 1m -T 0.5 -J \
    >"$TMP/x.json" 2>&1 || rc=$?
check "-r -u -P 100 --threads 2: the counts add up (exit $rc)" \
    test "$(udp_adds "$TMP/x.json")" = "(True, 'sendmmsg', 'recvmmsg')"

rc=0
"$GB" -t 127.0.0.1 -p "$L" -u --rr -P 100 --threads 2 -T 0.5 -J \
    >"$TMP/ur.json" 2>"$TMP/ur.err" || rc=$?
check "-u --rr -P 100 --threads 2: requests = answered + lost = taken, every flow answered (exit $rc)" \
    test "$(json "$TMP/ur.json" '(r["sender"]["rr"]["udp"]["requests"] ==
    r["sender"]["rr"]["transactions"] + r["sender"]["rr"]["udp"]["lost"] ==
    r["receiver"]["rr"]["udp"]["requests"] > 1000,
    r["rr"]["latency"]["count"] == r["sender"]["rr"]["transactions"],
    r["sender"]["flows"]["tps"]["min"] > 0, r["sender"]["flows"]["threads"])' \
    2>/dev/null)" = "(True, True, True, 2)"

# --crr, 200 flows on 2 threads: a connection a transaction, both ends.
listener_start "$GB" "$TMP/k.out" "$TMP/k.err" --max-pending 512 \
    --max-pending-source 256 || fail "the --crr listener starts"
K=$LISTENER_PORT
PIDS="$PIDS $LISTENER_PID"
rc=0
"$GB" -t 127.0.0.1 -p "$K" --crr -P 200 --threads 2 -T 1 -J \
    >"$TMP/cr.json" 2>"$TMP/cr.err" || rc=$?
check "--crr -P 200 --threads 2: asked = answered = connections, every flow did some (exit $rc)" \
    test "$(json "$TMP/cr.json" '(r["sender"]["rr"]["transactions"] ==
    r["receiver"]["rr"]["transactions"] == r["sender"]["rr"]["connections"]
    == r["receiver"]["rr"]["connections"] > 200,
    r["sender"]["flows"]["tps"]["min"] > 0, r["sender"]["flows"]["threads"],
    r["receiver"]["flows"]["threads"])' 2>/dev/null)" = "(True, True, 2, 2)"

# 9. Ctrl-C of many flows.
"$GB" -t 127.0.0.1 -p "$L" -P 1000 --threads 2 -T 30 >"$TMP/h.out" \
    2>"$TMP/h.err" &
C=$!
PIDS="$PIDS $C"
sleep 1.5
kill -INT "$C"
start=$(date +%s%N)
rc=0
wait "$C" || rc=$?
ms=$((($(date +%s%N) - start) / 1000000))
check "Ctrl-C of -P 1000: exit 1 in ${ms} ms, with its report" \
    test "$rc:$([ "$ms" -lt 3000 ] && echo fast)" = "1:fast" -a \
    -s "$TMP/h.out"
finish
