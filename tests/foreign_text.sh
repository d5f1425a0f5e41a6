#!/usr/bin/env bash
# tests/foreign_text.sh: nothing a peer, a result file or a title says
# runs, injects or misleads on the user's machine (issue 31), end to end
# with the built binary (root: a UTS namespace; skips otherwise, fails in
# CI):
#   1. a listener whose host name (set in its own UTS namespace) holds
#      backquotes, $( ), both quotes, a newline and an escape sequence;
#      a client test against it with --json: valid JSON, the name escaped
#      (\x0a, \x1b), no control byte anywhere in what either end printed;
#   2. gigebench merge of that file: the table without an ESC byte,
#      --plot renders and runs nothing, --csv reads back in Python's csv
#      module with the name's meaning unchanged (one cell, the quotes and
#      separators as they were);
#   3. a sweep and an --rr test with the same hostile text as --title
#      and --plot: both render, the title drawn as text, nothing run.
# "Runs nothing" is checked with marker files that the hostile text
# would create (relative names, in the scratch folder every command runs
# in); each must be absent.  About 10 s.
set -u
GIGEBENCH=${GIGEBENCH:-build/gigebench}
GB=$(cd "$(dirname "$GIGEBENCH")" && pwd)/$(basename "$GIGEBENCH")
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib/tally.sh"
. "$here/lib/skip.sh"
. "$here/lib/listener.sh"

if [ "$(id -u)" -ne 0 ]; then
	skip_or_fail "a UTS namespace for the listener's host name needs root"
	exit $?
fi
for tool in unshare gnuplot python3; do
	if ! command -v "$tool" >/dev/null; then
		skip_or_fail "$tool is not installed"
		exit $?
	fi
done

tmp=$(mktemp -d)
lpid=""
cleanup() {
	[ -n "$lpid" ] && listener_stop "$lpid"
	rm -rf "$tmp"
}
trap cleanup EXIT
cd "$tmp" || exit 1

# 64 bytes at most (the kernel's limit for a host name).
HOSTILE=$'h`touch M1`$(touch M2)"q\'\n\e[31m;@x'
TITLE='t `touch M3` $(touch M4) "q" '\''q'\'' ; @x system("touch M5")'

no_markers() {
	local m found=""
	for m in M1 M2 M3 M4 M5; do
		[ -e "$tmp/$m" ] && found="$found $m"
	done
	[ -z "$found" ] || { echo "# made:$found"; return 1; }
}
no_esc() { ! grep -q $'\e' "$@"; }

# The listener's host name is set in a UTS namespace of its own (the
# process's: unshare without --fork execs, so the pid is gigebench's).
cat >"$tmp/uts.py" <<'PYEOF'
import os, socket, sys
socket.sethostname(os.environ["GB_HOSTNAME"].encode())
os.execv(sys.argv[1], sys.argv[1:])
PYEOF
cat >"$tmp/gb-uts" <<SHEOF
#!/bin/sh
exec unshare --uts python3 "$tmp/uts.py" "$GB" "\$@"
SHEOF
chmod 755 "$tmp/gb-uts"

export GB_HOSTNAME="$HOSTILE"
if ! listener_start "$tmp/gb-uts" "$tmp/l.out" "$tmp/l.err" -v; then
	fail "the listener in its UTS namespace did not start: $(head -c 300 "$tmp/l.err")"
	finish
	exit 1
fi
lpid=$LISTENER_PID
port=$LISTENER_PORT
unset GB_HOSTNAME

# 1. A real test against it, JSON and text.
rc=0
"$GB" -t 127.0.0.1 -p "$port" -T 0.5 -J >"$tmp/a.json" 2>"$tmp/a.err" || rc=$?
check "client --json against the hostile host name: exit 0 ($rc)" [ "$rc" -eq 0 ]
check "the JSON is valid and names the peer's host escaped" \
    python3 - "$tmp/a.json" "$HOSTILE" <<'PYEOF'
import json, sys
doc = json.load(open(sys.argv[1]))
name = doc["provenance"]["peer_host"]["hostname"]
want = sys.argv[2].replace("\n", "\\x0a").replace("\x1b", "\\x1b")
if name != want:
    sys.exit("peer_host.hostname %r, wanted %r" % (name, want))
PYEOF
rc=0
"$GB" -t 127.0.0.1 -p "$port" -T 0.3 -v >"$tmp/t.out" 2>"$tmp/t.err" || rc=$?
check "client text report: exit 0 ($rc)" [ "$rc" -eq 0 ]
check "no ESC byte in what the client printed" no_esc "$tmp/t.out" "$tmp/t.err" "$tmp/a.json" "$tmp/a.err"
check "no ESC byte in the listener's log" no_esc "$tmp/l.out" "$tmp/l.err"
check "nothing ran during the tests" no_markers

# 2. merge: text, plot, CSV.
rc=0
"$GB" merge --plot "$tmp/m.svg" --csv "$tmp/m.csv" "$tmp/a.json" \
    >"$tmp/m.out" 2>"$tmp/m.err" || rc=$?
check "merge --plot --csv of that file: exit 0 ($rc; $(head -c 200 "$tmp/m.err"))" [ "$rc" -eq 0 ]
check "merge's table names the host escaped" grep -qF 'h`touch M1`$(touch M2)"q'"'"'\x0a\x1b[31m;@x' "$tmp/m.out"
check "no ESC byte in merge's output" no_esc "$tmp/m.out" "$tmp/m.err" "$tmp/m.csv"
check "merge --plot rendered an SVG" grep -q '</svg>' "$tmp/m.svg"
check "merge --plot ran nothing" no_markers
check "merge --csv reads back with the host name one unchanged cell" \
    python3 - "$tmp/m.csv" "$HOSTILE" <<'PYEOF'
import csv, sys
rows = list(csv.reader(open(sys.argv[1], newline="")))
want = sys.argv[2].replace("\n", "\\x0a").replace("\x1b", "\\x1b")
if len(rows) < 2:
    sys.exit("no rows")
width = len(rows[0])
if any(len(r) != width for r in rows):
    sys.exit("rows of %s cells, header %d" % ({len(r) for r in rows}, width))
cells = [c for r in rows[1:] for c in r]
if want not in cells and "'" + want not in cells:
    sys.exit("no cell is %r: %r" % (want, rows[1:]))
PYEOF

# 3. The same kind of text as --title of a sweep and of an --rr CDF.
rc=0
"$GB" -t 127.0.0.1 -p "$port" -T 0.2 --sweep length=64K,128K \
    --title "$TITLE" --plot "$tmp/s.svg" >"$tmp/s.out" 2>"$tmp/s.err" || rc=$?
check "a sweep with the hostile --title and --plot: exit 0 ($rc; $(head -c 200 "$tmp/s.err"))" [ "$rc" -eq 0 ]
check "the sweep's plot rendered, the title drawn as text" \
    grep -qF 'touch M3' "$tmp/s.svg"
rc=0
"$GB" -t 127.0.0.1 -p "$port" -T 0.3 --rr --title "$TITLE" \
    --plot "$tmp/r.svg" >"$tmp/r.out" 2>"$tmp/r.err" || rc=$?
check "--rr with the hostile --title and --plot: exit 0 ($rc; $(head -c 200 "$tmp/r.err"))" [ "$rc" -eq 0 ]
check "the CDF rendered, the title drawn as text" grep -qF 'touch M3' "$tmp/r.svg"
check "neither plot ran anything" no_markers

finish
