#!/usr/bin/env bash
#
# ttcp.sh: the classic ttcp mode (--ttcp, or started as "ttcp") over
# loopback, gigebench at both ends and raw peers from Debian (socat):
#
#  1. TCP, -s: -t -s -n 2000 -l 65536 into -r -s: both exit 0, each end
#     says 131072000 bytes, the sender made exactly 2000 calls; every
#     line a ttcp-parsing script greps for matches its regular
#     expression (header, bytes, I/O calls, rusage; the receiver's
#     "accept from 127.0.0.1" on stderr), and gigebench's own lines
#     follow with the same prefix.
#  2. UDP, -s: -u -s -n 2000 -l 1400: the sender made 2000 + 6 calls (a
#     start and five end sentinels, as ttcp), the receiver counted a
#     whole number of datagrams, ended by the sentinel, not by silence.
#  3. Pipe mode, TCP: a 50 MB file sent as -t < file, received as -r >
#     out: the same sha256; the figures on stderr, not in the data.
#  4. Pipe mode, UDP: a 1 MB file in 1000-byte datagrams at a pace the
#     receiver keeps up with (-b 4M): the same sha256.
#  5. -A/-O: -v's buffer address modulo -A is -O (4096/100, and the
#     default 16384/0).
#  6. -B: the receiver writes whole -l blocks to stdout: a sender that
#     writes 100 bytes each 50 ms is read by -B -l 500 in 500-byte
#     blocks, without -B in 100-byte pieces.  -T: touching 1 GB costs
#     the receiver CPU time that not touching it does not.
#  7. socat as the raw peer, both ways, TCP: a file through socat into
#     -r, and from -t into socat, the same sha256.
#  8. Started as "ttcp" (a symlink): the same tool.  --json: one
#     document, this end's side, the peer's null with the reason.
#  9. Failures: nothing listening is "ttcp-t: connect: Connection
#     refused" and "ttcp-t: errno=111", exit 1; a usage error exit 2.
#
#	GIGEBENCH=build/gigebench bash tests/ttcp.sh
#
# About 20 s.  Prints "ok - ..." or "FAIL - ..." per check and ends with
# "N passed, M failed"; exits 1 when a check failed.  Every process is
# bounded by timeout(1); every wait is for an event (a port, an exit).

set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
GB=${GIGEBENCH:-$top/build/gigebench}
PY=${PYTHON:-python3}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gigebench-ttcp.XXXXXX")
bound=60

# shellcheck disable=SC2317	# called by the trap
cleanup()
{
	[ -z "$bg" ] || kill "$bg" 2>/dev/null || true
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# shellcheck source=tests/lib/tally.sh
. "$top/tests/lib/tally.sh"
# shellcheck source=tests/lib/peers.sh
. "$top/tests/lib/peers.sh"

if [ ! -x "$GB" ]; then
	fail "gigebench binary at $GB (run make)"
	finish; exit $?
fi
command -v socat >/dev/null 2>&1 ||
    { fail "socat installed (apt-get install socat)"; finish; exit $?; }


# rx NAME PROTO PORT ARGS...: a --ttcp receiver in the background, its
# output in $tmp/NAME.out and .err; rx_wait: its exit status.
rx() {
	local name=$1 proto=$2 port=$3
	shift 3
	bg_start "$name" "$proto" "$port" "$GB" --ttcp -r -p "$port" "$@"
}
rx_wait() { bg_wait; }
# tx NAME PORT ARGS...: a sender to 127.0.0.1, to its end.
tx() {
	local name=$1 port=$2
	shift 2
	timeout -k 5 "$bound" "$GB" --ttcp -t -p "$port" "$@" 127.0.0.1 \
	    >"$tmp/$name.out" 2>"$tmp/$name.err"
}

# Every line a script would grep, checked by its regular expression.
cat >"$tmp/lines.py" <<'PYEOF'
import re, sys

name, role, proto, path = sys.argv[1:5]
want = dict(a.split("=", 1) for a in sys.argv[5:])
text = open(path).read()
p = "ttcp-" + role


def say(ok, what):
    print(("ok - " if ok else "FAIL - ") + "%s: %s" % (name, what))


def line(rx):
    m = re.search("^" + rx + "$", text, re.M)
    return m


h = line(p + r": buflen=(\d+), nbuf=(\d+), align=(\d+)/(\d+), port=(\d+)"
         r"(, sockbufsize=\d+)?  " + proto + ("  -> (\S+)" if role == "t"
                                               else ""))
say(h is not None, "the header line (%r)" % (h and h.group(0)))
b = line(p + r": (\d+) bytes in ([\d.]+) real seconds = ([\d.]+) KB/sec "
         r"\+\+\+")
say(b is not None and (want.get("bytes") is None or
                       b.group(1) == want["bytes"]),
    "the bytes line, %s bytes (%r)" % (want.get("bytes", "any"),
                                       b and b.group(0)))
c = line(p + r": (\d+) I/O calls, msec/call = ([\d.]+), calls/sec = "
         r"([\d.]+)")
say(c is not None and (want.get("calls") is None or
                       c.group(1) == want["calls"]),
    "the I/O calls line, %s calls (%r)" % (want.get("calls", "any"),
                                           c and c.group(0)))
r = line(p + r": [\d.]+user [\d.]+sys [\d:]+real \d+% \d+i\+\d+d "
         r"\d+maxrss \d+\+\d+pf \d+\+\d+csw")
say(r is not None, "the rusage line")
g = line(p + r": gigebench: process CPU [\d.]+ % .*")
say(g is not None, "gigebench's lines follow, with the same prefix")
if b is not None and float(b.group(2)) >= 0.02:
    # the seconds are printed to 0.01: the rate is within that of them
    n, t, kb = float(b.group(1)), float(b.group(2)), float(b.group(3))
    lo, hi = n / (t + 0.005) / 1024, n / (t - 0.005) / 1024
    say(lo * 0.9999 <= kb <= hi * 1.0001,
        "KB/sec is bytes / seconds / 1024 (%s within %.2f-%.2f)" %
        (b.group(3), lo, hi))
PYEOF

# --- 1. TCP, -s --------------------------------------------------------
port=$(port_free 40000 49999)
rx tcp-r tcp "$port" -s
rc=0
tx tcp-t "$port" -s -n 2000 -l 65536 || rc=$?
rrc=0
rx_wait || rrc=$?
check "tcp -s: the sender exits 0 (exit $rc)" [ "$rc" -eq 0 ]
check "tcp -s: the receiver exits 0 (exit $rrc)" [ "$rrc" -eq 0 ]
judge "$tmp/lines.py" tcp-t t tcp "$tmp/tcp-t.out" \
    bytes=131072000 calls=2000
judge "$tmp/lines.py" tcp-r r tcp "$tmp/tcp-r.out" \
    bytes=131072000
check "tcp -s: the receiver's \"ttcp-r: accept from 127.0.0.1\" on stderr" \
    grep -qx "ttcp-r: accept from 127.0.0.1" "$tmp/tcp-r.err"
check "tcp -s: the sender's \"ttcp-t: connect\" on stderr" \
    grep -qx "ttcp-t: connect" "$tmp/tcp-t.err"

# --- 2. UDP, -s --------------------------------------------------------
port=$(port_free 40000 49999)
rx udp-r udp "$port" -s -u -l 1400
rc=0
tx udp-t "$port" -s -u -n 2000 -l 1400 || rc=$?
rrc=0
rx_wait || rrc=$?
check "udp -s: both exit 0 ($rc, $rrc)" all [ "$rc" -eq 0 ] -- [ "$rrc" -eq 0 ]
judge "$tmp/lines.py" udp-t t udp "$tmp/udp-t.out" \
    bytes=2800000 calls=2006
judge "$tmp/lines.py" udp-r r udp "$tmp/udp-r.out"
got=$(sed -n 's/^ttcp-r: \([0-9]*\) bytes in .*/\1/p' "$tmp/udp-r.out")
check "udp -s: the receiver got whole datagrams ($got bytes, > 0)" \
    all [ "${got:-0}" -gt 0 ] -- [ $((${got:-1} % 1400)) -eq 0 ]
check "udp -s: ended by the end sentinel, not by silence" \
    test -z "$(grep 'no end sentinel' "$tmp/udp-r.out")"

# --- 3. pipe mode, TCP -------------------------------------------------
head -c 50000000 /dev/urandom >"$tmp/file"
want=$(sha256sum <"$tmp/file" | cut -c1-64)
port=$(port_free 40000 49999)
timeout -k 5 "$bound" "$GB" --ttcp -r -p "$port" >"$tmp/pipe.out" \
    2>"$tmp/pipe-r.err" </dev/null &
bg=$!
wait_bound tcp "$port" || fail "pipe: the receiver is bound"
rc=0
timeout -k 5 "$bound" "$GB" --ttcp -t -p "$port" 127.0.0.1 \
    <"$tmp/file" >"$tmp/pipe-t.out" 2>"$tmp/pipe-t.err" || rc=$?
rrc=0
rx_wait || rrc=$?
got=$(sha256sum <"$tmp/pipe.out" | cut -c1-64)
check "pipe tcp: 50 MB arrive with the same sha256 (exit $rc, $rrc)" \
    all [ "$got" = "$want" ] -- [ "$rc" -eq 0 ] -- [ "$rrc" -eq 0 ]
check "pipe tcp: the receiver's figures are on stderr" \
    grep -q "^ttcp-r: 50000000 bytes in " "$tmp/pipe-r.err"

# --- 4. pipe mode, UDP -------------------------------------------------
head -c 1000000 /dev/urandom >"$tmp/small"
want=$(sha256sum <"$tmp/small" | cut -c1-64)
port=$(port_free 40000 49999)
timeout -k 5 "$bound" "$GB" --ttcp -r -u -l 1000 -b 4194304 -p "$port" \
    >"$tmp/upipe.out" 2>"$tmp/upipe-r.err" </dev/null &
bg=$!
wait_bound udp "$port" || fail "pipe udp: the receiver is bound"
rc=0
timeout -k 5 "$bound" "$GB" --ttcp -t -u -l 1000 -p "$port" 127.0.0.1 \
    <"$tmp/small" >/dev/null 2>"$tmp/upipe-t.err" || rc=$?
rrc=0
rx_wait || rrc=$?
got=$(sha256sum <"$tmp/upipe.out" | cut -c1-64)
check "pipe udp: 1 MB in 1000-byte datagrams, the same sha256 (exit $rc, $rrc)" \
    all [ "$got" = "$want" ] -- [ "$rc" -eq 0 ] -- [ "$rrc" -eq 0 ]

# --- 5. -A/-O ----------------------------------------------------------
for ao in 4096:100 16384:0; do
	a=${ao%:*}
	o=${ao#*:}
	port=$(port_free 40000 49999)
	rx align-r tcp "$port" -s -v -A "$a" -O "$o"
	tx align-t "$port" -s -n 10 || true
	rx_wait || true
	addr=$(sed -n 's/^ttcp-r: buffer address \(0x[0-9a-f]*\)$/\1/p' \
	    "$tmp/align-r.out")
	check "-A $a -O $o: the buffer address $addr modulo $a is $o" \
	    all [ -n "$addr" ] -- [ $((${addr:-1} % a)) -eq "$o" ]
done

# --- 6. -B and -T ------------------------------------------------------
cat >"$tmp/slow.py" <<'PYEOF'
import socket, sys, time
s = socket.create_connection(("127.0.0.1", int(sys.argv[1])))
s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
for _ in range(10):
    s.sendall(b"x" * 100)
    time.sleep(0.05)
s.close()
PYEOF
cat >"$tmp/sizes.py" <<'PYEOF'
import os, sys
sizes = []
while True:
    d = os.read(0, 65536)
    if not d:
        break
    sizes.append(len(d))
print(" ".join(map(str, sizes)))
PYEOF
for b in "-B" ""; do
	port=$(port_free 40000 49999)
	# shellcheck disable=SC2086	# $b: the flag or nothing
	( timeout -k 5 "$bound" "$GB" --ttcp -r -l 500 $b -p "$port" \
	    2>"$tmp/blk.err" | "$PY" "$tmp/sizes.py" >"$tmp/sizes$b" ) &
	bg=$!
	wait_bound tcp "$port" || fail "-B: the receiver is bound"
	"$PY" "$tmp/slow.py" "$port" || fail "the slow sender ran"
	rx_wait || true
	eval "sizes_${b#-}=\"\$(cat \"\$tmp/sizes\$b\")\""
done
# shellcheck disable=SC2154	# set by the eval above
check "-B -l 500: whole 500-byte blocks on stdout ($sizes_B)" \
    [ "$sizes_B" = "500 500" ]
# shellcheck disable=SC2154
check "without -B: the 100-byte pieces as they came ($sizes_)" \
    [ "$(echo "$sizes_" | wc -w)" -ge 5 ]
for t in "" "-T"; do
	port=$(port_free 40000 49999)
	# shellcheck disable=SC2086
	rx touch-r tcp "$port" -s -l 1048576 $t
	tx touch-t "$port" -s -n 1024 -l 1048576 || true
	rx_wait || true
	eval "user${t#-}=\$(sed -n 's/^ttcp-r: \([0-9.]*\)user .*/\1/p' \
	    \"\$tmp/touch-r.out\")"
done
# shellcheck disable=SC2154
check "-T: touching 1 GB costs user CPU ($userT s vs $user s without)" \
    "$PY" -c "import sys; sys.exit(not float('$userT') >= float('$user') + 0.2)"

# --- 7. socat, both ways -----------------------------------------------
port=$(port_free 40000 49999)
timeout -k 5 "$bound" "$GB" --ttcp -r -p "$port" >"$tmp/so1.out" \
    2>/dev/null </dev/null &
bg=$!
wait_bound tcp "$port" || fail "socat: the receiver is bound"
timeout -k 5 "$bound" socat -u "FILE:$tmp/file" "TCP:127.0.0.1:$port" ||
    fail "socat sent the file"
rx_wait || true
want=$(sha256sum <"$tmp/file" | cut -c1-64)
check "socat -> --ttcp -r: the same sha256" \
    [ "$(sha256sum <"$tmp/so1.out" | cut -c1-64)" = "$want" ]
port=$(port_free 40000 49999)
timeout -k 5 "$bound" socat -u "TCP-LISTEN:$port,bind=127.0.0.1,reuseaddr" \
    "OPEN:$tmp/so2.out,creat,trunc" &
bg=$!
wait_bound tcp "$port" || fail "socat: it listens"
tx so2-t "$port" <"$tmp/file" || fail "--ttcp -t into socat exits 0"
rx_wait || true
check "--ttcp -t -> socat: the same sha256" \
    [ "$(sha256sum <"$tmp/so2.out" | cut -c1-64)" = "$want" ]

# --- 8. as "ttcp", --json ----------------------------------------------
ln -s "$GB" "$tmp/ttcp"
port=$(port_free 40000 49999)
timeout -k 5 "$bound" "$tmp/ttcp" -r -s -p "$port" >"$tmp/sym.out" \
    2>"$tmp/sym.err" </dev/null &
bg=$!
wait_bound tcp "$port" || fail "as ttcp: the receiver is bound"
rc=0
timeout -k 5 "$bound" "$GB" --ttcp -t -s -n 100 --json -p "$port" \
    127.0.0.1 >"$tmp/json.out" 2>"$tmp/json.err" || rc=$?
rx_wait || true
check "started as \"ttcp\": the classic receiver (819200 bytes)" \
    grep -q "^ttcp-r: 819200 bytes in " "$tmp/sym.out"
check "--json: exit 0 ($rc)" [ "$rc" -eq 0 ]
check "--json: one document, sender's side, receiver null with the reason" \
    "$PY" -c "
import json, sys
d = json.load(open('$tmp/json.out'))
r = d['result']
ok = (d['mode'] == 'ttcp' and r['bytes'] == 819200 and r['calls'] == 100
      and isinstance(r['sender'], dict) and r['sender']['bytes'] == 819200
      and r['receiver'] is None and r['peer_missing'] == 'classic ttcp peer')
sys.exit(not ok)"
check "--json: ttcp's lines on stderr, not in the document" \
    grep -q "^ttcp-t: 819200 bytes in " "$tmp/json.err"

# --- 9. failures -------------------------------------------------------
port=$(port_free 40000 49999)
rc=0
tx refused "$port" -s -n 1 || rc=$?
check "nothing listening: exit 1 ($rc)" [ "$rc" -eq 1 ]
check "nothing listening: \"ttcp-t: connect: Connection refused\", errno=111" \
    all grep -qx "ttcp-t: connect: Connection refused" "$tmp/refused.err" \
    -- grep -qx "ttcp-t: errno=111" "$tmp/refused.err"
rc=0
"$GB" --ttcp -t -l 64k 127.0.0.1 >/dev/null 2>"$tmp/usage.err" || rc=$?
check "a usage error: exit 2 ($rc), the letter named" \
    all [ "$rc" -eq 2 ] -- grep -q "l is not a number: 64k" "$tmp/usage.err"

finish
