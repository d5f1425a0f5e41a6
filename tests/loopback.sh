#!/usr/bin/env bash
# Loopback integration tests: real listener and client processes on
# 127.0.0.1.  Run from the top of the tree as
#	GIGEBENCH=build/gigebench bash tests/loopback.sh
# Every check prints "ok" or "FAIL"; the last line is "N passed, M failed".
set -eu

GB=${GIGEBENCH:-build/gigebench}
PY=${PYTHON:-python3}
TMP=$(mktemp -d)
PIDS=""
pass=0
failed=0

cleanup() {
	for p in $PIDS; do kill "$p" 2>/dev/null || true; done
	wait 2>/dev/null || true
	rm -rf "$TMP"
}
trap cleanup EXIT INT TERM

ok() { pass=$((pass + 1)); echo "ok - $1"; }
fail() { failed=$((failed + 1)); echo "FAIL - $1"; }
# shellcheck source=tests/lib/skip.sh
. "$(dirname "$0")/lib/skip.sh"	# in_ci
skipped=0
skip() {	# skip WHY: counted as a skip; with CI set, a failure
	if in_ci; then
		fail "cannot run: $1 (CI is set)"
	else
		skipped=$((skipped + 1))
		echo "# SKIP $1"
	fi
}
check() {	# check NAME COMMAND...: passes when the command succeeds
	local name=$1; shift
	if "$@"; then ok "$name"; else fail "$name"; fi
}

# Below the ephemeral range (32768-60999), which connections take from.
port_base=$((20000 + RANDOM % 10000))
port_n=0
next_port() { port_n=$((port_n + 1)); PORT=$((port_base + port_n)); }

# Start a listener in the background on a fresh port and wait until it
# accepts connections.
listen() {
	local i try
	for try in 1 2 3; do
		next_port
		"$GB" -r -p "$PORT" --allow-reverse "$@" >"$TMP/srv.out" 2>>"$TMP/srv.err" &
		SRV=$!
		PIDS="$PIDS $SRV"
		for i in $(seq 1 50); do
			if ss -Htln "sport = :$PORT" | grep -q .; then
				return 0
			fi
			# Port taken by someone else: try the next one.
			kill -0 "$SRV" 2>/dev/null || break
			sleep 0.1
		done
	done
	echo "listener did not come up:" >&2
	cat "$TMP/srv.err" >&2
	return 1
}

# Wait for a background pid with a bound; 0 if it exited 0 in time.
wait_for() {
	local pid=$1 secs=$2 i
	for i in $(seq 1 $((secs * 10))); do
		if ! kill -0 "$pid" 2>/dev/null; then
			wait "$pid"
			return $?
		fi
		sleep 0.1
	done
	kill "$pid" 2>/dev/null || true
	return 124
}

json_check() {	# json_check FILE PYTHON-EXPRESSION-ON-d
	"$PY" - "$1" "$2" <<'PYEOF'
import json, sys
with open(sys.argv[1]) as f:
    d = json.load(f)
ok = eval("(" + sys.argv[2] + ")", {"d": d})
if not ok:
    print("json check failed:", sys.argv[2], file=sys.stderr)
sys.exit(0 if ok else 1)
PYEOF
}

json_show() {	# json_show FILE PYTHON-EXPRESSION-ON-d: print its value
	"$PY" - "$1" "$2" <<'PYEOF' 2>/dev/null || echo "?"
import json, sys
with open(sys.argv[1]) as f:
    d = json.load(f)
print(eval("(" + sys.argv[2] + ")", {"d": d}))
PYEOF
}

# -A with a CPU past the list's limit is the option parser's to refuse.
usage_error_A() {
	local rc=0
	"$GB" -t 127.0.0.1 -p 1 -A 4095 >/dev/null 2>"$TMP/ua.err" || rc=$?
	[ "$rc" -eq 2 ] &&
	    grep -q -- '-A: CPU number is too large' "$TMP/ua.err"
}

# 1. A default test: the report has both sides and the summary line.
listen -1
rc=0
"$GB" -t 127.0.0.1 -p "$PORT" -T 2 >"$TMP/c1.out" 2>"$TMP/c1.err" || rc=$?
check "default test exits 0" [ "$rc" -eq 0 ]
check "report has sender lines" grep -q '^gigebench-t: ' "$TMP/c1.out"
check "report has receiver lines" grep -q '^gigebench-r: ' "$TMP/c1.out"
check "summary line has both ends' CPU" grep -Eq \
    '^ *[0-9]+\.[0-9]{4} MB / +[0-9.]+ sec = +[0-9.]+ Mbps [0-9]+ %TX [0-9]+ %RX ' \
    "$TMP/c1.out"
check "loopback irq/pkt is n/a" grep -q 'n/a irq/pkt-TX n/a irq/pkt-RX' \
    "$TMP/c1.out"
check "--once listener exits 0 after the test" wait_for "$SRV" 5
check "listener printed its own report" grep -q '^gigebench-r: ' \
    "$TMP/srv.out"

# 2. JSON: every key scripts rely on, nonzero Mbps, both sides' CPU.
listen -1
rc=0
"$GB" -t 127.0.0.1 -p "$PORT" -T 2 -i 0.5 --json >"$TMP/j.json" \
    2>"$TMP/j.err" || rc=$?
check "json test exits 0" [ "$rc" -eq 0 ]
check "json has every key" json_check "$TMP/j.json" '
all(k in d["result"] for k in ("bytes","seconds","mbps","sender","receiver","tcp"))
and all(all(k in d["result"][s] for k in ("cpu","host_cpu","interface",
    "interrupts","packets","irq_per_packet","softirq","sndbuf","rcvbuf"))
    for s in ("sender","receiver"))
and all(all(k in d["result"][s]["cpu"] for k in ("process_pct","user_pct","sys_pct"))
    for s in ("sender","receiver"))
and all(all(k in d["result"][s]["host_cpu"] for k in ("busy_pct","irq_pct",
    "softirq_pct","max_cpu_busy_pct")) for s in ("sender","receiver"))
and all(all(k in d["result"][s]["softirq"] for k in ("net_rx","net_tx"))
    for s in ("sender","receiver"))
and all(set(d["result"][s][b]) >= {"requested","actual"}
    for s in ("sender","receiver") for b in ("sndbuf","rcvbuf"))
and all(k in d["result"]["tcp"] for k in ("retransmits","rtt_us","cwnd","mss"))
and "params" in d and "intervals" in d'
check "json mbps is nonzero" json_check "$TMP/j.json" 'd["result"]["mbps"] > 0'
check "json has both sides' process CPU" json_check "$TMP/j.json" \
    'd["result"]["sender"]["cpu"]["process_pct"] > 0 and d["result"]["receiver"]["cpu"]["process_pct"] > 0'
check "sender bytes equal receiver bytes" json_check "$TMP/j.json" \
    'd["result"]["sender"]["bytes"] == d["result"]["receiver"]["bytes"] > 0'
check "loopback irq_per_packet is null, interface lo" json_check \
    "$TMP/j.json" 'd["result"]["sender"]["irq_per_packet"] is None and
    d["result"]["sender"]["interrupts"] is None and
    d["result"]["sender"]["interface"]["name"] == "lo"'
check "intervals cover the test" json_check "$TMP/j.json" \
    'len(d["intervals"]) >= 3 and sum(i["bytes"] for i in d["intervals"]) == d["result"]["sender"]["bytes"]'
check "host cpu busy is a percentage" json_check "$TMP/j.json" \
    '0 < d["result"]["sender"]["host_cpu"]["busy_pct"] <= 100'
wait_for "$SRV" 5 || true

# 3. -n: exactly COUNT buffers per stream, and -P 4.
listen -1
rc=0
"$GB" -t 127.0.0.1 -p "$PORT" -n 100 -l 64K -P 4 -J >"$TMP/n.json" \
    2>"$TMP/n.err" || rc=$?
check "-n -P 4 test exits 0" [ "$rc" -eq 0 ]
check "-n 100 -l 64K -P 4 moves 4 x 100 x 64K bytes on both ends" \
    json_check "$TMP/n.json" \
    'd["result"]["sender"]["bytes"] == d["result"]["receiver"]["bytes"] == 4*100*65536 and d["params"]["streams"] == 4'
wait_for "$SRV" 5 || true

# 4. Reverse: -r HOST, the listener transmits.
listen -1 -J
rc=0
"$GB" -r 127.0.0.1 -p "$PORT" -T 1 -b 256K -J >"$TMP/r.json" \
    2>"$TMP/r.err" || rc=$?
check "reverse test exits 0" [ "$rc" -eq 0 ]
check "reverse: bytes match and direction is client_receives" json_check \
    "$TMP/r.json" 'd["result"]["sender"]["bytes"] == d["result"]["receiver"]["bytes"] > 0 and d["params"]["direction"] == "client_receives"'
check "reverse: the receiving socket got -b as SO_RCVBUF" json_check \
    "$TMP/r.json" 'd["result"]["receiver"]["rcvbuf"]["requested"] == 262144 and d["result"]["receiver"]["rcvbuf"]["actual"] > 0 and d["result"]["sender"]["sndbuf"]["requested"] == 262144'
wait_for "$SRV" 5 || true
check "listener's JSON parses too" json_check "$TMP/srv.out" \
    'd["result"]["bytes"] > 0'

# 4b. Options that shape a test, checked in what the test reports.
listen -1 -B 127.0.0.1 -4
rc=0
"$GB" -t 127.0.0.1 -p "$PORT" -4 -T 1 -M 1000 -D -l 16K -I lo -f g -i 0.5 \
    -v >"$TMP/o.out" 2>"$TMP/o.err" || rc=$?
check "-B -4 -M -D -l -I -f -i -v test exits 0" [ "$rc" -eq 0 ]
check "-f g reports Gbps" grep -Eq 'sec = +[0-9.]+ Gbps' "$TMP/o.out"
check "-i prints interval lines" grep -Eq \
    '^gigebench-t: +0\.00- +0\.5[0-9] sec' "$TMP/o.out"
check "-I lo names the interface" grep -q 'iface lo' "$TMP/o.out"
wait_for "$SRV" 5 || true
listen -1
rc=0
"$GB" -t 127.0.0.1 -p "$PORT" -T 1 -M 1000 -D -l 16K --sndbuf 64K \
    --rcvbuf 128K -vv -J >"$TMP/o.json" 2>"$TMP/o.err" || rc=$?
check "-M 1000 caps the MSS the sender used" json_check "$TMP/o.json" \
    '0 < d["result"]["tcp"]["mss"] <= 1000'
check "params echo every setting" json_check "$TMP/o.json" '
d["params"]["nodelay"] is True and d["params"]["buflen"] == 16384 and
d["params"]["mss"] == 1000 and d["params"]["sndbuf"] == 65536 and
d["params"]["rcvbuf"] == 131072 and d["params"]["streams"] == 1 and
d["params"]["duration_s"] == 1'
check "--sndbuf/--rcvbuf: requested and effective (Linux doubles)" \
    json_check "$TMP/o.json" '
d["result"]["sender"]["sndbuf"]["requested"] == 65536 and
d["result"]["sender"]["sndbuf"]["actual"] == 131072 and
d["result"]["receiver"]["rcvbuf"]["requested"] == 131072 and
d["result"]["receiver"]["rcvbuf"]["actual"] >= 131072'
check "the receiving end waits for a whole -l buffer (SO_RCVLOWAT read back)" \
    json_check "$TMP/o.json" '
d["result"]["receiver"]["rcvlowat"] == 16384 and
d["result"]["sender"]["rcvlowat"] is None'
check "-vv traces the protocol on stderr" grep -q 'received: accept' \
    "$TMP/o.err"
wait_for "$SRV" 5 || true

# 4b2. A buffer past net.core.rmem_max is capped, with a warning that
# names the sysctl; --force-bufs (root) gets it anyway.
rmem_max=$(cat /proc/sys/net/core/rmem_max)
ask=$((rmem_max * 2))
listen -1
rc=0
"$GB" -t 127.0.0.1 -p "$PORT" -T 1 --rcvbuf "$ask" -J >"$TMP/cap.json" \
    2>"$TMP/cap.err" || rc=$?
check "--rcvbuf past rmem_max: test exits 0" [ "$rc" -eq 0 ]
check "--rcvbuf past rmem_max: capped at 2 x rmem_max, with a warning" \
    json_check "$TMP/cap.json" "
d['result']['receiver']['rcvbuf']['actual'] == 2 * $rmem_max and
any('net.core.rmem_max' in w for w in d['result']['receiver']['warnings'])"
wait_for "$SRV" 5 || true
if [ "$(id -u)" -eq 0 ]; then
	listen -1
	rc=0
	"$GB" -t 127.0.0.1 -p "$PORT" -T 1 --rcvbuf "$ask" --force-bufs -J \
	    >"$TMP/force.json" 2>"$TMP/force.err" || rc=$?
	check "--force-bufs: test exits 0" [ "$rc" -eq 0 ]
	check "--force-bufs: SO_RCVBUFFORCE passes rmem_max, no warning" \
	    json_check "$TMP/force.json" "
d['result']['receiver']['rcvbuf']['actual'] == 2 * $ask and
d['result']['receiver']['warnings'] == []"
	wait_for "$SRV" 5 || true
else
	skip "--force-bufs needs root"
fi

# 4c. Replaying a captured host: GIGEBENCH_PROCFS/SYSFS move every /proc
# and /sys read, and -I names an interface that exists only there (the
# 2001 PowerMac of the seed thread, one OpenPIC line).
listen -1
rc=0
GIGEBENCH_PROCFS=tests/fixtures/host-gmac-after/proc \
GIGEBENCH_SYSFS=tests/fixtures/host-gmac-after/sys \
    "$GB" -t 127.0.0.1 -p "$PORT" -T 1 -I eth0 -J >"$TMP/rp.json" \
    2>"$TMP/rp.err" || rc=$?
check "replayed host: test exits 0" [ "$rc" -eq 0 ]
check "replayed host: eth0's OpenPIC line from the fixture" json_check \
    "$TMP/rp.json" '
d["result"]["sender"]["interface"]["name"] == "eth0" and
d["result"]["sender"]["interface"]["irq_lines"] == 1 and
d["result"]["sender"]["interface"]["lines"][0]["name"] == "41" and
d["result"]["sender"]["interface"]["lines"][0]["chip"] == "OpenPIC Level" and
d["result"]["sender"]["interrupts"] == 0 and
d["result"]["sender"]["irq_per_packet"] is None and
d["result"]["receiver"]["interface"]["name"] == "lo"'
check "replayed host: context read under the roots (none there)" \
    json_check "$TMP/rp.json" '
d["result"]["sender"]["context"]["kernel"] is None and
"kernel: missing" in d["result"]["sender"]["context"]["note"] and
d["result"]["receiver"]["context"]["mtu"] == 65536'
wait_for "$SRV" 5 || true

# 4d. Data paths (issue 5): each mode is checked in what the ends report
# they really used, on the end that sends or receives: the connecting side
# or the listener.  Loopback copies every MSG_ZEROCOPY send (the receiving
# socket must own its data), so copied == completions is expected here.
gb_json() {	# gb_json NAME ARGS...: a test against a fresh listener
	local name=$1 rc=0; shift
	listen -1
	"$GB" -p "$PORT" -J "$@" >"$TMP/$name.json" 2>"$TMP/$name.err" || rc=$?
	wait_for "$SRV" 5 || true
	return "$rc"
}
both='(d["result"]["sender"], d["result"]["receiver"])'
check "-Z: test exits 0" gb_json zc -t 127.0.0.1 -T 1 -Z
check "-Z: zero-copy sends completed and counted on the sender" \
    json_check "$TMP/zc.json" '
all(z["completions"] > 0 and z["copied"] <= z["completions"] <= z["sends"]
    for z in [d["result"]["sender"]["zerocopy"]]) and
d["result"]["sender"]["zerocopy"]["sends"] == d["result"]["sender"]["calls"] and
d["result"]["sender"]["data_path"] == "zerocopy" and
d["result"]["sender"]["streams"][0]["data_path"] == "zerocopy" and
d["result"]["receiver"]["data_path"] == "recv" and
d["result"]["receiver"]["zerocopy"] is None and
d["params"]["tx_path"] == "zerocopy" and
d["result"]["sender"]["bytes"] == d["result"]["receiver"]["bytes"] > 0'
echo "# -Z on loopback: $(json_show "$TMP/zc.json" \
    '"%(copied)d of %(completions)d completions copied" %
    d["result"]["sender"]["zerocopy"]')"
check "-r -Z: the listener sends with MSG_ZEROCOPY" \
    gb_json zcr -r 127.0.0.1 -T 1 -Z
check "-r -Z: its completions come back in the listener's figures" \
    json_check "$TMP/zcr.json" '
d["result"]["sender"]["data_path"] == "zerocopy" and
d["result"]["sender"]["zerocopy"]["completions"] > 0 and
d["params"]["direction"] == "client_receives"'
check "--sendfile (listener sends): test exits 0" \
    gb_json sf -r 127.0.0.1 -T 1 --sendfile
check "--sendfile: data path sendfile, bytes equal on both ends" \
    json_check "$TMP/sf.json" '
d["result"]["sender"]["data_path"] == "sendfile" and
all(x["data_path"] == "sendfile" for x in d["result"]["sender"]["streams"]) and
d["result"]["sender"]["bytes"] == d["result"]["receiver"]["bytes"] > 0'
check "--skip-rx-copy (listener receives): test exits 0" \
    gb_json trunc -t 127.0.0.1 -T 1 --skip-rx-copy
check "--skip-rx-copy: data path skip_rx_copy, bytes equal on both ends" \
    json_check "$TMP/trunc.json" '
d["result"]["receiver"]["data_path"] == "skip_rx_copy" and
d["result"]["receiver"]["warnings"] == [] and
d["result"]["sender"]["data_path"] == "send" and
d["result"]["sender"]["bytes"] == d["result"]["receiver"]["bytes"] > 0'
check "--splice (listener receives): test exits 0" \
    gb_json spl -t 127.0.0.1 -T 1 --splice
check "--splice: data path splice, bytes equal on both ends" \
    json_check "$TMP/spl.json" '
d["result"]["receiver"]["data_path"] == "splice" and
d["result"]["receiver"]["rcvlowat"] is None and
d["result"]["sender"]["bytes"] == d["result"]["receiver"]["bytes"] > 0'
check "--sendfile --splice -n 50 -l 64K -P 2: test exits 0" \
    gb_json sfn -r 127.0.0.1 -n 50 -l 64K -P 2 --sendfile --splice
check "--sendfile --splice -n: exactly 2 x 50 x 64K bytes on both ends" \
    json_check "$TMP/sfn.json" '
d["result"]["sender"]["data_path"] == "sendfile" and
d["result"]["receiver"]["rcvlowat"] is None and
d["result"]["receiver"]["data_path"] == "splice" and
d["result"]["sender"]["bytes"] == d["result"]["receiver"]["bytes"] == 2*50*65536
and [x["bytes"] for x in d["result"]["receiver"]["streams"]] == [50*65536] * 2'
if [ "$(nproc)" -ge 2 ]; then
	check "-A 0,1 -P 2: test exits 0" \
	    gb_json aff -t 127.0.0.1 -T 1 -A 0,1 -P 2
	check "-A 0,1 -P 2: streams pinned to their CPUs, ran there, both ends" \
	    json_check "$TMP/aff.json" '
all(len(s["streams"]) == 2 and
    [x["pinned"] for x in s["streams"]] == [0, 1] and
    all(x["cpu"] in (0, 1) for x in s["streams"]) and
    s["streams"][0]["cpu"] != s["streams"][1]["cpu"] and s["warnings"] == []
    for s in '"$both"')'
else
	skip "-A 0,1 needs two CPUs"
fi
check "-A 4095 is refused before the test: exit 2" usage_error_A
check "-C reno: test exits 0" gb_json reno -t 127.0.0.1 -T 1 -C reno
check "-C reno: the congestion control of both ends is reno" \
    json_check "$TMP/reno.json" \
    'all(s["context"]["congestion"] == "reno" for s in '"$both"')'
check "--fq-rate 100m: test exits 0" \
    gb_json fq -t 127.0.0.1 -T 2 --fq-rate 100m
check "--fq-rate 100m: at most ~100 Mbps, and read back on both ends" \
    json_check "$TMP/fq.json" '
0 < d["result"]["mbps"] < 110 and d["params"]["fq_rate"] == 12500000 and
all(s["fq_rate"] == 12500000 for s in '"$both"')'
echo "# --fq-rate 100m on loopback: $(json_show "$TMP/fq.json" \
    '"%.1f Mbps" % d["result"]["mbps"]')"
check "--tos 0x10: test exits 0" gb_json tos -t 127.0.0.1 -T 1 --tos 0x10
check "--tos 0x10: read back on both ends (IPv4 and v4-mapped IPv6)" \
    json_check "$TMP/tos.json" '
all(s["tos"] == 16 and s["warnings"] == [] for s in '"$both"') and
d["params"]["tos"] == 16'
check "--tos ef (a DSCP name): test exits 0" \
    gb_json tosef -t 127.0.0.1 -T 0.5 --tos ef
check "--tos ef: 184 (EF << 2) read back on both ends" \
    json_check "$TMP/tosef.json" '
all(s["tos"] == 184 and s["warnings"] == [] for s in '"$both"') and
d["params"]["tos"] == 184'
listen -1
rc=0
"$GB" -t 127.0.0.1 -p "$PORT" -T 1 -Z -P 2 -v >"$TMP/zv.out" \
    2>"$TMP/zv.err" || rc=$?
check "-Z -v: test exits 0" [ "$rc" -eq 0 ]
check "-Z -v: the text says which path, and that loopback copied" grep -Eq \
    '^gigebench-t: data path zerocopy: [0-9]+ zerocopy sends, [0-9]+ completions, [0-9]+ copied \(kernel copied\)$' \
    "$TMP/zv.out"
check "-Z -v: a line per stream with its path" [ "$(grep -Ec \
    '^gigebench-t: stream [01]: [0-9]+ bytes in [0-9.]+ s = [0-9.]+ Mbps, cpu [0-9]+( \(pinned [0-9]+\))?, zerocopy, [0-9]+ retransmits?$' \
    "$TMP/zv.out")" -eq 2 ]
wait_for "$SRV" 5 || true

# 5. Busy: a second client during a test is refused promptly, exit 3.
# The second client starts once the listener says the first test started
# (-v), and the 1 s bound is held from its connect: its run less what
# this binary takes to start and exit at all (--version), so that a
# loaded machine or ASan's start-up does not count against the listener.
started() { grep -c 'test started' "$TMP/srv.err" || true; }
before=$(started)
listen -v
"$GB" -t 127.0.0.1 -p "$PORT" -T 3 -q >"$TMP/b1.out" 2>"$TMP/b1.err" &
B1=$!
PIDS="$PIDS $B1"
for _ in $(seq 1 200); do
	[ "$(started)" -gt "$before" ] && break
	kill -0 "$B1" 2>/dev/null || break
	sleep 0.02
done
check "the first test started" [ "$(started)" -gt "$before" ]
start=$(date +%s%N)
"$GB" --version >/dev/null 2>&1 || true
startup_ms=$((($(date +%s%N) - start) / 1000000))
rc=0
start=$(date +%s%N)
"$GB" -t 127.0.0.1 -p "$PORT" -T 1 >"$TMP/b2.out" 2>"$TMP/b2.err" || rc=$?
elapsed_ms=$((($(date +%s%N) - start) / 1000000))
check "second client is refused with exit 3" [ "$rc" -eq 3 ]
check "refusal says busy" grep -q busy "$TMP/b2.err"
check "refusal came within 1 s (${elapsed_ms} ms, start-up ${startup_ms} ms)" \
    [ $((elapsed_ms - startup_ms)) -lt 1000 ]
check "first client still succeeds" wait_for "$B1" 10

# 6. Garbage, then a good test on the same listener.
"$PY" - "$PORT" <<'PYEOF'
import os, socket, sys
port = int(sys.argv[1])
for payload in (os.urandom(65536), b"GET / HTTP/1.0\r\n\r\n",
                b"SSH-2.0-OpenSSH_9.2\r\n", b"GBCP\x01\x01\x00\x00\xff\xff\xff\xff",
                b"GBCP\x09\x01\x00\x00\x00\x00\x00\x02{}",
                b"GBCP\x01\x05\x00\x00\x00\x00\x00\x02{}"):
    s = socket.create_connection(("127.0.0.1", port))
    try:
        s.sendall(payload)
        s.settimeout(2)
        s.recv(4096)
    except OSError:
        pass
    s.close()
PYEOF
rc=0
"$GB" -t 127.0.0.1 -p "$PORT" -T 1 -q >"$TMP/g.out" 2>"$TMP/g.err" || rc=$?
check "a good test passes after garbage connections" [ "$rc" -eq 0 ]
check "-q prints only the summary line" [ "$(wc -l <"$TMP/g.out")" -eq 1 ]
kill -TERM "$SRV"
check "listener exits 0 on SIGTERM" wait_for "$SRV" 5

# 7. Peers that are not gigebench, or say nothing.
next_port
"$PY" - "$PORT" silent <<'PYEOF' &
import socket, sys, time
s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("127.0.0.1", int(sys.argv[1])))
s.listen(4)
for banner in (b"HTTP/1.0 200 OK\r\n\r\nhello", None):
    c, _ = s.accept()
    if banner:
        c.recv(4096)
        c.sendall(banner)
        time.sleep(0.5)
    else:
        time.sleep(7)
    c.close()
PYEOF
FAKE=$!
PIDS="$PIDS $FAKE"
# Bound before the clients connect (not a sleep: a fake that was not yet
# listening made both cases connection refused, and the wait below hang).
for _ in $(seq 1 100); do
	ss -Htln "sport = :$PORT" | grep -q . && break
	sleep 0.05
done
rc=0
"$GB" -t 127.0.0.1 -p "$PORT" -T 1 -J >"$TMP/f.json" 2>"$TMP/f.err" || rc=$?
check "a peer that is not gigebench: exit 3" [ "$rc" -eq 3 ]
check "and the error says so" grep -q "not gigebench" "$TMP/f.err"
check "and the JSON has an error member" json_check "$TMP/f.json" \
    '"error" in d and d["exit_code"] == 3'
rc=0
start=$(date +%s)
"$GB" -t 127.0.0.1 -p "$PORT" -T 1 >"$TMP/s.out" 2>"$TMP/s.err" || rc=$?
elapsed=$(($(date +%s) - start))
# It took the connection and the hello and said nothing: not gigebench
# (a classic ttcp receiver does that), exit 3 with the cause (issue 16).
check "a silent peer: exit 3 within the handshake timeout (${elapsed} s)" \
    [ "$rc" -eq 3 -a "$elapsed" -le 7 ]
check "and the error names the address and suggests the cause" \
    grep -q "no reply from 127.0.0.1:$PORT in 5 s: is a gigebench listener running there? (a classic ttcp receiver needs --ttcp)" "$TMP/s.err"
wait_for "$FAKE" 10 2>/dev/null || true

# 8. Nothing listening: exit 1, message names the address.
next_port
rc=0
"$GB" -t 127.0.0.1 -p "$PORT" -T 1 2>"$TMP/e.err" >/dev/null || rc=$?
check "connection refused: exit 1" [ "$rc" -eq 1 ]
check "and the message names the address" grep -q "127.0.0.1 port $PORT" \
    "$TMP/e.err"

# 9. Usage errors: exit 2 and a message naming the option and value.
usage_case() {	# usage_case NEEDLE ARGS...
	local needle=$1 rc=0; shift
	"$GB" "$@" >"$TMP/u.out" 2>"$TMP/u.err" || rc=$?
	[ "$rc" -eq 2 ] && grep -qe "$needle" "$TMP/u.err"
}
check "-l 0 is a usage error" usage_case "-l" -t 127.0.0.1 -l 0
check "-l 9G is a usage error" usage_case "9G" -t 127.0.0.1 -l 9G
check "-P 0 is a usage error" usage_case "-P" -t 127.0.0.1 -P 0
check "-T abc is a usage error" usage_case "abc" -t 127.0.0.1 -T abc
check "-p 70000 is a usage error" usage_case "70000" -t 127.0.0.1 -p 70000
check "-f x is a usage error" usage_case "-f" -t 127.0.0.1 -f x
check "unknown option is a usage error" usage_case "frobnicate" \
    -t 127.0.0.1 --frobnicate
check "-t without a host is a usage error" usage_case "host" -t
check "-A x is a usage error" usage_case "-A" -t 127.0.0.1 -A x
check "--fq-rate 0 is a usage error" usage_case "--fq-rate" -t 127.0.0.1 \
    --fq-rate 0
check "--tos 300 is a usage error" usage_case "--tos" -t 127.0.0.1 --tos 300
check "-Z with --sendfile is a usage error" usage_case "--sendfile" \
    -t 127.0.0.1 -Z --sendfile
check "no role is a usage error" usage_case "." -T 1
usage_json() {
	local rc=0
	"$GB" -J -t 127.0.0.1 -P 99999 >"$TMP/uj.json" 2>/dev/null || rc=$?
	[ "$rc" -eq 2 ] && json_check "$TMP/uj.json" \
	    '"error" in d and d["exit_code"] == 2'
}
check "usage error with --json is valid JSON" usage_json
check "--help exits 0" "$GB" --help
check "--version exits 0" "$GB" --version

# --under-load (issue 33; its bloated bed is tests/underload_netns.sh):
# two phases against one listener, four tests, two probes marked EF.
underload() {
	local rc=0
	listen
	"$GB" -t 127.0.0.1 -p "$PORT" -J --under-load --phases upload,download \
	    -T 0.5 --omit 0.2 --probes 2 --probe-tos EF --csv "$TMP/ul.csv" \
	    --plot "$TMP/ul.svg" --title "it's \$(id)" >"$TMP/ul.json" \
	    2>"$TMP/ul.err" || rc=$?
	kill "$SRV" 2>/dev/null || true
	wait_for "$SRV" 5 || true
	return "$rc"
}
check "--under-load: upload and download phases exit 0" underload
check "--under-load: each phase's probes answered idle and loaded, EF, the verdict" \
    json_check "$TMP/ul.json" '
[p["phase"] for p in d["under_load"]["phases"]] == ["upload", "download"] and
all(p["ok"] and p["idle"]["count"] > 0 and p["loaded"]["count"] > 0 and
    p["probe_tos"] == 184 and p["added_delay_ms"] >= 0 and
    p["loaded_test"]["params"]["probes"] == 2 and
    p["loaded_test"]["params"]["omit_s"] == 0.2 and
    p["loaded_test"]["params"]["probe_tos"] == 184 and
    p["idle_test"]["params"]["rr"] and
    p["idle_test"]["params"]["streams"] == 2
    for p in d["under_load"]["phases"]) and
d["under_load"]["phases"][1]["loaded_test"]["params"]["direction"] ==
    "client_receives" and
d["under_load"]["verdict"] != "" and d["under_load"]["probes"] == 2'
ul_csv() {
	"$PY" - "$TMP/ul.csv" "$TMP/ul.json" <<'PYEOF'
import csv, json, sys
raw = open(sys.argv[1], newline="").read()
rows = list(csv.DictReader(raw.splitlines()))
d = json.load(open(sys.argv[2]))["under_load"]["phases"]
assert raw.endswith("\r\n") and raw.count("\r\n") == 3, raw
assert [r["phase"] for r in rows] == ["upload", "download"], rows
for r, p in zip(rows, d):
    assert len(r) == 32 and r["ok"] == "1" and r["error"] == "", r
    assert r["probe_kind"] == "tcp", r
    assert r["probe_rate"] == "" and r["loaded_lost"] == "", r
    assert int(r["loaded_count"]) == p["loaded"]["count"], r
    assert abs(float(r["added_delay_ms"]) - p["added_delay_ms"]) < 1e-6, r
    assert r["probe_tos"] == "184" and r["probes"] == "2", r
    assert r["grade"] == p["grade"] and r["omit_s"] == "0.2", r
PYEOF
}
check "--under-load --csv: a row a phase, the JSON's figures" ul_csv
ul_plot() {
	grep -q '<svg' "$TMP/ul.svg" && grep -q '>upload<' "$TMP/ul.svg" &&
	    grep -q '>download<' "$TMP/ul.svg" && grep -q '>P99<' "$TMP/ul.svg" &&
	    grep -qF "it's \$(id)" "$TMP/ul.svg"
}
check "--under-load --plot: an SVG with both phases named, P50 and P99, the title as given" \
    ul_plot

# UDP probes (--probe-rate) beside a TCP load, and TCP probes beside a
# UDP load (-u -R): 100 a second on each of 2 flows for 1 s idle (-T
# when shorter than 2 s) and 1 s loaded is 200 each way, give or take
# one at each flow's end; none lost on loopback.
underload_udp() {
	local rc=0
	listen
	"$GB" -t 127.0.0.1 -p "$PORT" -J --under-load --probe-rate 100 \
	    --probes 2 -T 1 --omit 0.2 --csv "$TMP/ulu.csv" \
	    >"$TMP/ulu.json" 2>"$TMP/ulu.err" || rc=$?
	[ "$rc" -eq 0 ] && "$GB" -t 127.0.0.1 -p "$PORT" -J --under-load \
	    -u -R 50m -T 1 >"$TMP/ulr.json" 2>"$TMP/ulr.err" || rc=$?
	[ "$rc" -eq 0 ] && "$GB" -t 127.0.0.1 -p "$PORT" -J --under-load \
	    --probe-crr --probes 2 --phases upload,download -T 1 --omit 0.2 \
	    >"$TMP/ulc.json" 2>"$TMP/ulc.err" || rc=$?
	kill "$SRV" 2>/dev/null || true
	wait_for "$SRV" 5 || true
	return "$rc"
}
check "--under-load: UDP probes beside TCP, TCP probes beside UDP, --probe-crr, exit 0" \
    underload_udp
check "--under-load --probe-rate: paced UDP probes, 200 each test, none lost" \
    json_check "$TMP/ulu.json" '
(lambda u, p:
u["probe_protocol"] == "udp" and u["probe_rate"] == 100 and p["ok"] and
abs(p["idle_loss"]["requests"] - 200) <= 2 and
abs(p["loaded_loss"]["requests"] - 200) <= 2 and
p["idle_loss"]["lost"] == 0 and p["loaded_loss"]["lost"] == 0 and
p["loaded"]["count"] >= 198 and
p["loaded_test"]["params"]["probe_rate"] == 100 and
p["idle_test"]["params"]["protocol"] == "udp" and
p["idle_test"]["params"]["rr"])(d["under_load"], d["under_load"]["phases"][0])'
ulu_csv() {
	"$PY" - "$TMP/ulu.csv" "$TMP/ulu.json" <<'PYEOF'
import csv, json, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="").read().splitlines()))
p = json.load(open(sys.argv[2]))["under_load"]["phases"][0]
assert len(rows) == 1 and rows[0]["probe_rate"] == "100", rows
assert int(rows[0]["loaded_requests"]) == p["loaded_loss"]["requests"], rows
assert rows[0]["loaded_lost"] == "0" and rows[0]["idle_lost"] == "0", rows
PYEOF
}
check "--under-load --probe-rate --csv: the probes' counts and losses" ulu_csv
check "--under-load -u: TCP probes beside a UDP load, no --omit, no RPM" \
    json_check "$TMP/ulr.json" '
(lambda u, p:
u["probe_protocol"] == "tcp" and u["omit_s"] == 0 and p["ok"] and
p["loaded_test"]["params"]["protocol"] == "udp" and
p["loaded"]["count"] > 0 and p["rpm"] is None and
p["self_rtt_ms"] is None and p["loaded_loss"] is None and
40 < p["load_mbps"] < 60)(d["under_load"], d["under_load"]["phases"][0])'
check "--under-load --probe-crr: a new connection a probe, both phases" \
    json_check "$TMP/ulc.json" '
d["under_load"]["probe_crr"] and d["under_load"]["probe_protocol"] == "tcp" and
[p["phase"] for p in d["under_load"]["phases"]] == ["upload", "download"] and
all(p["ok"] and p["loaded"]["count"] > 0 and
    p["loaded_test"]["params"]["probe_crr"] and
    p["idle_test"]["params"]["streams"] == 2 and
    p["idle_test"]["result"]["sender"]["rr"]["transactions"] > 0 and
    p["idle_test"]["result"]["sender"]["rr"]["connections"] ==
    p["idle_test"]["result"]["sender"]["rr"]["transactions"]
    for p in d["under_load"]["phases"])'

# Under ASan/UBSan a report in any process's stderr is a failure.
no_sanitizer_reports() {
	! grep -l -E 'Sanitizer|runtime error' "$TMP"/*.err
}
check "no sanitizer reports from any process" no_sanitizer_reports

if [ "$skipped" -gt 0 ]; then
	echo "$pass passed, $failed failed, $skipped skipped"
else
	echo "$pass passed, $failed failed"
fi
[ "$failed" -eq 0 ]
