#!/usr/bin/env bash
# The capture module on a veth pair between two namespaces (root).  Run
# from the top of the tree as
#	bash tests/capture_netns.sh
# Until gigebench has --capture, it drives src/capture.c through
# tests/capture_probe.c, built here into a temporary folder: one probe
# in each namespace captures while python3 moves a bulk TCP flow from A
# (198.18.0.1, gb-va) to B (198.18.0.2, gb-vb) on one port.
#
# With GSO, TSO and GRO off on both veths every frame is at most MTU+14
# bytes, so the sender's largest captured frame must be exactly that, at
# MTU 1500 and at MTU 9000.  With offloads on, the capture sees the
# stack's GSO aggregates, larger than the MTU; that is reported, not
# checked.  Every check prints "ok" or "FAIL"; the last line is
# "N passed, M failed".  Without root, tests/lib/netns.sh, ethtool or
# libpcap it prints "SKIP: <reason>" and exits 0.
set -eu

HERE=$(cd "$(dirname "$0")" && pwd)
TOP=$(dirname "$HERE")
PY=${PYTHON:-python3}
CC=${CC:-gcc}
PAYLOAD_MB=${CAPTURE_PAYLOAD_MB:-32}

LIB="$HERE/lib/netns.sh"
if [ ! -r "$LIB" ]; then
	echo "SKIP: $LIB is missing"
	exit 0
fi
# shellcheck source=tests/lib/netns.sh
. "$LIB"
netns_need_root || exit 0
for tool in ethtool "$PY" "$CC"; do
	if ! command -v "$tool" >/dev/null; then
		echo "SKIP: $tool is not installed"
		exit 0
	fi
done
if ! printf '#include <pcap/pcap.h>\n#include <jansson.h>\nint main(void)'\
'{ return 0; }\n' | "$CC" -x c -o /dev/null - -lpcap -ljansson 2>/dev/null
then
	echo "SKIP: libpcap or jansson is missing (libpcap-dev, libjansson-dev)"
	exit 0
fi

TMP=$(mktemp -d)
PIDS=""
pass=0
failed=0

cleanup() {
	local p
	touch "$TMP/stop" 2>/dev/null || true
	for p in $PIDS; do kill "$p" 2>/dev/null || true; done
	wait 2>/dev/null || true
	netns_cleanup
	rm -rf "$TMP"
}
trap cleanup EXIT
trap 'cleanup; exit 130' INT
trap 'cleanup; exit 143' TERM

ok() { pass=$((pass + 1)); echo "ok - $1"; }
fail() { failed=$((failed + 1)); echo "FAIL - $1"; }
check() {	# check NAME COMMAND...: passes when the command succeeds
	local name=$1; shift
	if "$@"; then ok "$name"; else fail "$name"; fi
}

# Wait until a file exists; 1 after secs seconds.
wait_file() {
	local f=$1 secs=$2
	for _ in $(seq 1 $((secs * 10))); do
		[ -e "$f" ] && return 0
		sleep 0.1
	done
	return 1
}

# Wait for a background pid with a bound; its status, or 124.
wait_for() {
	local pid=$1 secs=$2
	for _ in $(seq 1 $((secs * 10))); do
		if ! kill -0 "$pid" 2>/dev/null; then
			wait "$pid"
			return $?
		fi
		sleep 0.1
	done
	kill "$pid" 2>/dev/null || true
	return 124
}

# Wait until something listens on port $1 in B.
wait_listen() {
	for _ in $(seq 1 50); do
		if netns_exec b ss -Htln "sport = :$1" | grep -q .; then
			return 0
		fi
		sleep 0.1
	done
	return 1
}

# jq-free JSON reading: "json FILE EXPR" prints EXPR evaluated on d.
json() {
	"$PY" - "$1" "$2" <<'PYEOF'
import json, sys
with open(sys.argv[1]) as f:
    d = json.load(f)
print(eval(sys.argv[2], {"d": d}))
PYEOF
}

cat >"$TMP/sink.py" <<'PYEOF'
# sink ADDR PORT: accept one connection, read it to the end, print bytes.
import socket, sys
s = socket.socket()
s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind((sys.argv[1], int(sys.argv[2])))
s.listen(1)
s.settimeout(30)
c, _ = s.accept()
c.settimeout(30)
n = 0
while True:
    b = c.recv(1 << 20)
    if not b:
        break
    n += len(b)
c.close()
print(n)
PYEOF
cat >"$TMP/source.py" <<'PYEOF'
# source ADDR PORT MB: connect and send MB megabytes.
import socket, sys
c = socket.create_connection((sys.argv[1], int(sys.argv[2])), timeout=30)
buf = b"\0" * (1 << 20)
for _ in range(int(sys.argv[3])):
    c.sendall(buf)
c.close()
PYEOF

if ! "$CC" -std=gnu11 -D_GNU_SOURCE -I"$TOP/src" -Wall -Wextra -Werror \
    -g -pthread -o "$TMP/capture_probe" "$HERE/capture_probe.c" \
    "$TOP/src/capture.c" -lpcap -ljansson -lpthread 2>"$TMP/cc.err"; then
	cat "$TMP/cc.err" >&2
	fail "capture_probe builds"
	echo "$pass passed, $failed failed"
	exit 1
fi
ok "capture_probe builds"

port_base=$((20000 + RANDOM % 20000))
port_n=0

# run_case MTU on|off: set up the pair, capture one bulk flow on both
# ends into $TMP/{a,b}.json.  0 when the flow and both probes succeeded.
run_case() {
	local mtu=$1 offl=$2 pa pb psink sent
	port_n=$((port_n + 1))
	PORT=$((port_base + port_n))
	netns_cleanup
	netns_setup --mtu "$mtu" || return 1
	# netns_setup replaced our trap with its own; put ours back.
	trap cleanup EXIT
	trap 'cleanup; exit 130' INT
	trap 'cleanup; exit 143' TERM
	if [ "$offl" = off ]; then
		netns_exec a ethtool -K "$IF_A" gro off gso off tso off \
		    >/dev/null 2>&1 || return 1
		netns_exec b ethtool -K "$IF_B" gro off gso off tso off \
		    >/dev/null 2>&1 || return 1
	fi
	rm -f "$TMP"/ready.* "$TMP/stop" "$TMP"/a.* "$TMP"/b.*
	netns_exec a "$TMP/capture_probe" -r "$TMP/ready.a" -s "$TMP/stop" \
	    "$IF_A" "$ADDR_A" "$ADDR_B" "$PORT" 60 \
	    >"$TMP/a.json" 2>"$TMP/a.err" &
	pa=$!
	netns_exec b "$TMP/capture_probe" -l -r "$TMP/ready.b" \
	    -s "$TMP/stop" "$IF_B" "$ADDR_B" "$ADDR_A" "$PORT" 60 \
	    >"$TMP/b.json" 2>"$TMP/b.err" &
	pb=$!
	PIDS="$PIDS $pa $pb"
	if ! wait_file "$TMP/ready.a" 10 || ! wait_file "$TMP/ready.b" 10; then
		cat "$TMP/a.err" "$TMP/b.err" >&2
		return 1
	fi
	netns_exec b "$PY" "$TMP/sink.py" "$ADDR_B" "$PORT" \
	    >"$TMP/sink.out" 2>"$TMP/sink.err" &
	psink=$!
	PIDS="$PIDS $psink"
	wait_listen "$PORT" || return 1
	sent=0
	netns_exec a timeout 60 "$PY" "$TMP/source.py" "$ADDR_B" "$PORT" \
	    "$PAYLOAD_MB" 2>"$TMP/source.err" || sent=$?
	wait_for "$psink" 60 || return 1
	# Let the last ACKs and FINs cross before the probes stop.
	sleep 0.5
	touch "$TMP/stop"
	wait_for "$pa" 10 || return 1
	wait_for "$pb" 10 || return 1
	[ "$sent" -eq 0 ] &&
	    [ "$(cat "$TMP/sink.out")" -eq $((PAYLOAD_MB * 1048576)) ]
}

# One line of what the two captures saw.
describe() {
	"$PY" - "$TMP/a.json" "$TMP/b.json" <<'PYEOF'
import json, sys
a = json.load(open(sys.argv[1]))
b = json.load(open(sys.argv[2]))
bounds = a["histogram"]["bounds"]
def bins(h):
    out = []
    for i, n in enumerate(h):
        if n:
            lab = "<=%d" % bounds[i] if bounds[i] is not None \
                else ">%d" % bounds[i - 1]
            out.append("%s:%d" % (lab, n))
    return " ".join(out)
print("A tx %d frames %d B max %d [%s], rx %d max %d; "
      "B rx %d frames max %d [%s]; drops %d/%d" % (
      a["frames_tx"], a["bytes_tx"], a["max_frame_tx"],
      bins(a["histogram"]["tx"]), a["frames_rx"], a["max_frame_rx"],
      b["frames_rx"], b["max_frame_rx"], bins(b["histogram"]["rx"]),
      a["drops"], b["drops"]))
PYEOF
}

# Sender's tx frames in bins wholly above $1 bytes.
above() {
	json "$TMP/a.json" "sum(d['histogram']['tx'][i] for i in range(1, 10)
	    if d['histogram']['bounds'][i - 1] >= $1)"
}

payload=$((PAYLOAD_MB * 1048576))
for mtu in 1500 9000; do
	frame=$((mtu + 14))
	if ! run_case "$mtu" off; then
		fail "MTU $mtu offloads off: flow and captures ran"
		cat "$TMP"/*.err >&2 2>/dev/null || true
		continue
	fi
	ok "MTU $mtu offloads off: flow and captures ran"
	echo "# MTU $mtu, gso/tso/gro off: $(describe)"
	check "MTU $mtu off: sender's largest frame is $frame B" \
	    [ "$(json "$TMP/a.json" 'd["max_frame_tx"]')" -eq "$frame" ]
	check "MTU $mtu off: receiver's largest frame is $frame B" \
	    [ "$(json "$TMP/b.json" 'd["max_frame_rx"]')" -eq "$frame" ]
	check "MTU $mtu off: no sender frame in a bin above $frame B" \
	    [ "$(above "$frame")" -eq 0 ]
	check "MTU $mtu off: sender's tx bytes hold the payload" \
	    [ "$(json "$TMP/a.json" 'd["bytes_tx"]')" -gt "$payload" ]
	check "MTU $mtu off: the sender saw the receiver's ACKs" \
	    [ "$(json "$TMP/a.json" 'd["frames_rx"]')" -gt 0 ]
	check "MTU $mtu off: A's tx frames are B's rx frames" \
	    [ "$(json "$TMP/a.json" 'd["frames_tx"]')" -eq \
	    "$(json "$TMP/b.json" 'd["frames_rx"]')" ]
done

# Offloads as the veth driver sets them: reported, not checked, since
# what the capture sees depends on the kernel.
for mtu in 1500 9000; do
	frame=$((mtu + 14))
	if ! run_case "$mtu" on; then
		fail "MTU $mtu offloads on: flow and captures ran"
		cat "$TMP"/*.err >&2 2>/dev/null || true
		continue
	fi
	ok "MTU $mtu offloads on: flow and captures ran"
	echo "# MTU $mtu, offloads on: $(describe)"
	echo "# MTU $mtu, offloads on: $(above "$frame") sender frames" \
	    "in bins above $frame B (GSO aggregates)"
done

echo "$pass passed, $failed failed"
[ "$failed" -eq 0 ]
