#!/usr/bin/env bash
# tests/merge.sh: gigebench merge, the built binary, on the mesh of
# tests/fixtures/merge/mesh/ (h1..h4 from real loopback --json output,
# edited: h1 -> h4 slow with retransmits, h3 -> h2 an error document that
# names no hosts, h4 -> h1 a failed test; a sweep, --repeat with a failed
# run, -r, a listener's document and --bidir among the rest):
#   1. exit 0; every ordered pair in the matrix, h1 -> h4 marked and
#      explained, the missing pairs listed, the --figure matrix;
#   2. --csv: the header, one row per ordered pair, the outlier's row;
#   3. --plot: an SVG that gnuplot wrote, not empty (PNG too);
#   4. bad inputs: exit 1 naming the file and what is wrong, exit 2 naming
#      the option; no crash (no exit above 3) on any of them; hostile
#      files (absurd numbers, 65 MiB, deep nesting, escape sequences)
#      refused naming file and member, or shown escaped.
# Needs gnuplot for 3 (apt-get install gnuplot-nox).
set -u
GIGEBENCH=${GIGEBENCH:-build/gigebench}
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib/tally.sh"
. "$here/lib/skip.sh"
fix=$here/fixtures/merge
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# run NAME WANT_RC ARGS...: the exit status, stdout in $tmp/out, stderr
# in $tmp/err.
run()
{
	local name=$1 want=$2 rc=0
	shift 2
	"$GIGEBENCH" merge "$@" >"$tmp/out" 2>"$tmp/err" || rc=$?
	if [ "$rc" -eq "$want" ]; then
		pass "$name: exit $want"
	else
		fail "$name: exit $rc, wanted $want ($(head -c 300 "$tmp/err"))"
	fi
}

has() { grep -qF -- "$2" "$1"; }

# 1. The text.
run "the fixture mesh" 0 "$fix"/mesh/*.json
cp "$tmp/out" "$tmp/text"
check "title: 4 hosts, 10 of 12 pairs, 14 runs from 11 files" \
    has "$tmp/text" "gigebench merge: 4 hosts, 10 of 12 pairs measured, 14 runs from 11 files"
check "the matrix has a row per sender and a column per receiver" \
    grep -qE '^Mbps +h1 +h2 +h3 +h4$' "$tmp/text"
n=0
for s in h1 h2 h3 h4; do
	grep -qE "^$s( +[-?0-9.]+\*?){4}\$" "$tmp/text" && n=$((n + 1))
done
check "every sender's row has four cells ($n of 4)" [ "$n" -eq 4 ]
check "h1 -> h4 is marked an outlier in the matrix" \
    grep -qE '^h1 +- +941\.3 +940\.8 +95\.1\*$' "$tmp/text"
check "the median and the runs per pair" \
    has "$tmp/text" "median 940.2 Mbps of 10 pairs; runs per pair: 1 (h1 -> h2: 2, h2 -> h3: 2)"
check "the figure matrix (cpu-rx by default)" \
    has "$tmp/text" "receiver's host CPU % (cpu-rx)"
check "h1 -> h4 explained: the path, the diagnosis, CPU ruled out" \
    has "$tmp/text" "h1 -> h4  95.1 Mbps (0.10 of the median): only this pair (h1's other tests and h4's other tests are not outliers): the path between them; sender retransmits: 40 retransmitted segments (0.049 % of 81234 data segments); neither end CPU-bound (tx 5 %, rx 3 %, busiest CPU 12 %), retransmits 40, rtt 20000 us"
check "only h1 -> h4 is an outlier" \
    [ "$(grep -c ' of the median): ' "$tmp/text")" -eq 1 ]
check "missing: h3 -> h2 (no result), h4 -> h1 (failed)" \
    all grep -qx 'h3 -> h2: no result' "$tmp/text" -- \
    grep -q '^h4 -> h1: its 1 run failed: ' "$tmp/text"
check "the error document that names no hosts is listed by its file" \
    has "$tmp/text" "mesh/h3-h2.json: cannot connect to 198.18.0.2 port 5001"
check "nothing on stderr" [ ! -s "$tmp/err" ]

# The same as the unit tests' golden file (they render it in memory).
(cd "$here/.." && "$GIGEBENCH" merge tests/fixtures/merge/mesh/*.json) \
    >"$tmp/golden_run" 2>&1
check "the text equals tests/golden/merge-mesh.txt" \
    cmp -s "$tmp/golden_run" "$here/golden/merge-mesh.txt"

run "-f g --figure rtt --outlier 20" 0 -f g --figure rtt --outlier 20 \
    "$fix"/mesh/*.json
check "-f g: Gbps" grep -qE '^Gbps +h1' "$tmp/out"
check "--figure rtt: h1 -> h4's 20000 us" \
    grep -qE '^h1 +- +310 +310 +20000$' "$tmp/out"
check "--outlier 20: none below 940.2 / 20" \
    has "$tmp/out" "outliers (below 0.940 / 20 = 0.047 Gbps): none"

# 2. --csv.
run "--csv" 0 --csv "$tmp/m.csv" "$fix"/mesh/*.json
check "CSV header" \
    [ "$(head -n 1 "$tmp/m.csv")" = $'sender,receiver,runs,failed,mbps,cpu_rx,outlier,why\r' ]
check "CSV: one row per ordered pair (12)" \
    [ "$(($(wc -l <"$tmp/m.csv") - 1))" -eq 12 ]
check "CSV: h1 -> h4 an outlier with its explanation" \
    grep -q '^h1,h4,1,0,95.1,3.4,1,"only this pair ' "$tmp/m.csv"
check "CSV: h1 -> h2 had 2 runs, the best 941.3" \
    grep -q '^h1,h2,2,0,941.3,3.4,0,""' "$tmp/m.csv"
check "CSV: h2 -> h3 had a failed run" grep -q '^h2,h3,2,1,939.5,' "$tmp/m.csv"
check "CSV: h3 -> h2 empty fields" \
    grep -q '^h3,h2,0,0,,,0,"no result"' "$tmp/m.csv"
check "CSV: 8 fields a row (no comma inside the quotes)" \
    [ "$(sed 's/"[^"]*"//g' "$tmp/m.csv" | awk -F, 'NF != 8' | wc -l)" -eq 0 ]

# 3. --plot.
if command -v gnuplot >/dev/null 2>&1; then
	run "--plot SVG" 0 --plot "$tmp/m.svg" "$fix"/mesh/*.json
	check "the SVG is there, not empty, and has h1 -> h4's 95.1*" \
	    all test -s "$tmp/m.svg" -- grep -q '<svg' "$tmp/m.svg" -- \
	    grep -q '95.1\*' "$tmp/m.svg"
	run "--plot PNG" 0 --plot "$tmp/m.png" "$fix"/mesh/*.json
	check "the PNG is a PNG" \
	    [ "$(head -c 4 "$tmp/m.png" | tail -c 3)" = PNG ]
	run "--plot with an unknown type" 1 --plot "$tmp/m.gif" \
	    "$fix"/mesh/*.json
	check "... says .svg or .png" has "$tmp/err" "use .svg or .png"
else
	skip_or_fail "gnuplot is not installed (apt-get install gnuplot-nox)"
fi

# 4. Bad inputs: exit 1 naming the file, exit 2 naming the option.
bad1()
{
	local file=$1 want=$2
	run "$(basename "$file")" 1 "$fix/mesh/h1-h3.json" "$file"
	check "... names $(basename "$file") and says '$want'" \
	    has "$tmp/err" "gigebench merge: $file: ${want}"
	check "... prints no matrix" [ ! -s "$tmp/out" ]
}
bad1 "$fix/garbage.json" "not JSON (line 1"
bad1 "$fix/empty.json" "empty"
bad1 "$fix/notgb.json" 'not a gigebench document (no "program": "gigebench")'
bad1 "$fix/rr.json" "a --rr or --crr test (params.rr is true)"
bad1 "$fix/noresult.json" "missing result"
bad1 "$fix/nodirection.json" "missing params.direction"
bad1 "$fix/nombps.json" "missing result.mbps"
bad1 "$fix/noprov.json" "missing provenance"
bad1 "$tmp/no-such.json" "cannot read: No such file or directory"

# Hostile files: h1 -> h4 with one member edited, each refused naming
# the file and the member; bounds on size and nesting before parsing.
edit()
{
	local name=$1 from=$2 to=$3
	python3 -c 'import sys
t = open(sys.argv[1]).read()
if sys.argv[2] not in t:
    sys.exit("no " + sys.argv[2])
sys.stdout.write(t.replace(sys.argv[2], sys.argv[3], 1))' \
	    "$fix/mesh/h1-h4.json" "$from" "$to" >"$tmp/$name.json" ||
	    fail "$name: the edit $from -> $to did not take"
}
lacks() { ! grep -q -- "$2" "$1"; }
edit neg '"mbps": 95.1,' '"mbps": -1,'
bad1 "$tmp/neg.json" "result.mbps is negative: -1"
edit inf '"mbps": 95.1,' '"mbps": 1e999,'
bad1 "$tmp/inf.json" "not JSON (line 71"
edit busy '"busy_pct": 3.4' '"busy_pct": 101'
bad1 "$tmp/busy.json" "result.receiver.host_cpu.busy_pct is too large: 101"
edit proc '"process_pct": 6.3' '"process_pct": 1e300'
bad1 "$tmp/proc.json" "result.receiver.cpu.process_pct is too large: 1e+300"
edit port '"port": 5001' '"port": 99999'
bad1 "$tmp/port.json" "result.port is not a port (0-65535): 99999"
truncate -s 65M "$tmp/big.json"
bad1 "$tmp/big.json" "larger than 64 MiB: not a gigebench result"
python3 -c 'print("[" * 100000 + "]" * 100000)' >"$tmp/deep.json"
bad1 "$tmp/deep.json" "nested deeper than 64 levels (line 1)"
rc=0
head -c 70000000 /dev/zero | "$GIGEBENCH" merge - >"$tmp/out" \
    2>"$tmp/err" || rc=$?
check "65 MiB down a pipe: exit 1, refused by the bound" \
    all [ "$rc" -eq 1 ] -- has "$tmp/err" "-: larger than 64 MiB"
edit esc '"hostname": "h1"' '"hostname": "h\u001b[2J`touch x`"'
run "a host name with an escape sequence" 0 "$tmp/esc.json"
check "... shown escaped, no ESC byte written" \
    all has "$tmp/out" 'h\x1b[2J`touch x`' -- \
    lacks "$tmp/out" $'\x1b'
run "a directory" 1 "$tmp"
run "--csv into a missing directory" 1 --csv "$tmp/none/x.csv" \
    "$fix"/mesh/*.json
check "... names the CSV" has "$tmp/err" "--csv: cannot write $tmp/none/x.csv"

bad2()
{
	local want=$1
	shift
	run "usage: $*" 2 "$@"
	check "... says '$want'" has "$tmp/err" "$want"
}
bad2 "no files" 
bad2 "unknown option: --nosuch" --nosuch "$fix/mesh/h1-h3.json"
bad2 "--outlier is out of range (1.01-1000): 1" --outlier 1 \
    "$fix/mesh/h1-h3.json"
bad2 "--outlier is not a number: x" --outlier x "$fix/mesh/h1-h3.json"
bad2 "unknown --figure" --figure cpu "$fix/mesh/h1-h3.json"
bad2 "--by is hostname or address: ip" --by ip "$fix/mesh/h1-h3.json"
bad2 "unknown rate unit" -f q "$fix/mesh/h1-h3.json"
bad2 "--csv needs a value" "$fix/mesh/h1-h3.json" --csv

run "--help" 0 --help
check "--help prints merge's usage" grep -q '^usage: gigebench merge ' "$tmp/out"
run "--by address" 0 --by address "$fix"/mesh/*.json
check "--by address names the hosts by address" \
    grep -qE '^Mbps +198\.18\.0\.1 +198\.18\.0\.2 +198\.18\.0\.3 +198\.18\.0\.4$' \
    "$tmp/out"

# Every fixture, alone and all together: an answer, never a crash.
crash=
for f in "$fix"/*.json "$fix"/mesh/*.json; do
	rc=0
	"$GIGEBENCH" merge "$f" >/dev/null 2>&1 || rc=$?
	[ "$rc" -le 2 ] || crash="$crash $(basename "$f"):$rc"
done
check "no fixture crashes merge${crash:+ ($crash)}" [ -z "$crash" ]

finish
