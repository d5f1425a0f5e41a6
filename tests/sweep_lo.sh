#!/usr/bin/env bash
# Sweeps on loopback: the sweep runner (sweeprun.c), its table, CSV, JSON
# and plot with real runs, no root.  Run from the top of the tree as
#	GIGEBENCH=build/gigebench bash tests/sweep_lo.sh
# tests/sweep_netns.sh sweeps the MTU on an emulated link (root); this
# file is what runs the sweep code under ASan+UBSan (make check-asan),
# where the namespace tests are not repeated (see the Makefile).
#  1. --sweep length=64K,1M --sweep streams=1,2 --repeat 2 with --csv
#     and --plot: exit 0, a table of 4 points in cross-product order, a
#     CSV header and 8 rows, an SVG (or, without gnuplot, the message
#     that says how to install it);
#  2. -J: one JSON document, 2 points of 1 run each, none failed, every
#     point's mean Mbps above 0, 2 runs;
#  3. --confidence: a table of one point;
#  4. SIGINT in the middle of a sweep: exit 1 with "interrupted", the CSV
#     keeps the rows of the runs that ended, and the listener serves the
#     next test.
# Every check prints "ok" or "FAIL"; the last line is "N passed, M failed".
# About 5 s (10 s under ASan).
set -eu

GB=${GIGEBENCH:-build/gigebench}
PY=${PYTHON:-python3}
TMP=$(mktemp -d)
SRV=""
pass=0
failed=0

# shellcheck disable=SC2317	# called by the trap
cleanup() {
	if [ -n "$SRV" ]; then
		kill "$SRV" 2>/dev/null || true
		wait "$SRV" 2>/dev/null || true
	fi
	rm -rf "$TMP"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

ok() { pass=$((pass + 1)); echo "ok - $1"; }
fail() { failed=$((failed + 1)); echo "FAIL - $1"; }
check() {
	local name=$1; shift
	if "$@"; then ok "$name"; else fail "$name"; fi
}

# A listener on a free port below the ephemeral range.
for _ in 1 2 3 4 5; do
	PORT=$((20000 + RANDOM % 12000))
	ss -Htln "sport = :$PORT" | grep -q . && continue
	"$GB" -r -q -p "$PORT" >"$TMP/srv.out" 2>"$TMP/srv.err" &
	SRV=$!
	for _ in $(seq 1 50); do
		ss -Htln "sport = :$PORT" | grep -q . && break 2
		kill -0 "$SRV" 2>/dev/null || break
		sleep 0.1
	done
	SRV=""
done
if [ -z "$SRV" ]; then
	fail "a listener comes up"
	sed 's/^/# /' "$TMP/srv.err"
	echo "$pass passed, $failed failed"
	exit 1
fi

# 1. A two-parameter sweep with repeats, CSV and plot.
rc=0
"$GB" -t 127.0.0.1 -p "$PORT" -q -T 0.2 --sweep length=64K,1M \
    --sweep streams=1,2 --repeat 2 --csv "$TMP/out.csv" \
    --plot "$TMP/out.svg" >"$TMP/table.txt" 2>"$TMP/sweep.err" || rc=$?
sed 's/^/# /' "$TMP/table.txt"
check "sweep length x streams --repeat 2 exits 0" [ "$rc" -eq 0 ]
points() {
	"$PY" - "$TMP/table.txt" <<'PYEOF'
import sys
rows = [l.split() for l in open(sys.argv[1]) if l[:1].isdigit()]
ok = [r[:2] for r in rows] == [["64K", "1"], ["64K", "2"],
                               ["1M", "1"], ["1M", "2"]]
ok = ok and all(float(r[2]) > 0 for r in rows)
sys.exit(0 if ok else 1)
PYEOF
}
check "the table has the 4 points in order, each with Mbps > 0" points
check "the CSV has a header and 8 data rows" \
    [ "$(wc -l <"$TMP/out.csv")" -eq 9 ]
if command -v gnuplot >/dev/null; then
	check "the plot is an SVG" grep -q "<svg" "$TMP/out.svg"
else
	check "without gnuplot, a message says how to install it" \
	    grep -q "apt-get install gnuplot" "$TMP/sweep.err"
fi

# 2. JSON.
rc=0
"$GB" -t 127.0.0.1 -p "$PORT" -J -n 100 --sweep length=64K,128K \
    >"$TMP/sweep.json" 2>"$TMP/json.err" || rc=$?
check "sweep -J exits 0" [ "$rc" -eq 0 ]
json_ok() {
	"$PY" - "$TMP/sweep.json" <<'PYEOF'
import json, sys
d = json.load(open(sys.argv[1]))
p = d["points"]
ok = [x["values"] for x in p] == [{"length": 65536}, {"length": 131072}]
ok = ok and all(x["runs"] == 1 and x["failed"] == 0 and
                x["mbps"]["mean"] > 0 for x in p)
ok = ok and len(d["runs"]) == 2
sys.exit(0 if ok else 1)
PYEOF
}
check "the JSON has 2 points of 1 run, none failed, and 2 runs" json_ok

# 3. --confidence on one point.
rc=0
"$GB" -t 127.0.0.1 -p "$PORT" -q -T 0.1 --confidence 95,50 \
    >"$TMP/conf.txt" 2>"$TMP/conf.err" || rc=$?
one_row() { [ "$rc" -eq 0 ] && [ "$(grep -c '^[0-9]' "$TMP/conf.txt")" -eq 1 ]; }
check "--confidence 95,50 exits 0 with one row" one_row

# 4. SIGINT in the middle: the rows so far are kept.
rc=0
"$GB" -t 127.0.0.1 -p "$PORT" -q -T 1 --sweep length=64K..256K*2 \
    --csv "$TMP/int.csv" >"$TMP/int.txt" 2>"$TMP/int.err" &
cli=$!
# 0.3 s into the second run's 1 s of data (after the first row, not after
# a fixed time): the signal meets a transfer, also on a slow machine.
for _ in $(seq 1 100); do
	[ "$(wc -l 2>/dev/null <"$TMP/int.csv" || echo 0)" -lt 2 ] || break
	sleep 0.1
done
sleep 0.3
kill -INT "$cli"
wait "$cli" || rc=$?
said_int() { [ "$rc" -eq 1 ] && grep -q 'interrupted (SIGINT)' "$TMP/int.err"; }
check "SIGINT ends the sweep: exit 1 (got $rc), says interrupted" said_int
n=$(($(wc -l <"$TMP/int.csv") - 1))
kept() { [ "$n" -ge 1 ] && [ "$n" -lt 3 ]; }
check "the CSV keeps the runs that ended ($n of 3)" kept
rc=0
"$GB" -t 127.0.0.1 -p "$PORT" -q -T 0.1 >/dev/null 2>"$TMP/after.err" ||
    rc=$?
check "the listener serves the next test" [ "$rc" -eq 0 ]

kill -TERM "$SRV" 2>/dev/null || true
rc=0
wait "$SRV" || rc=$?
SRV=""
check "the listener exits 0 on SIGTERM" [ "$rc" -eq 0 ]
if grep -Eq 'Sanitizer|runtime error:' "$TMP/srv.err" "$TMP"/*.err; then
	fail "no sanitizer report"
	grep -E -A20 'Sanitizer|runtime error:' "$TMP"/*.err | head -60 |
	    sed 's/^/# /'
else
	ok "no sanitizer report"
fi

echo "$pass passed, $failed failed"
[ "$failed" -eq 0 ]
