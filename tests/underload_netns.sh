#!/usr/bin/env bash
# --under-load on an emulated bloated link (root; issue 33, "Tests"):
# three namespaces, A - R - B, R forwarding between two veth pairs
# (198.18.1.0/24 and 198.18.2.0/24), a tbf qdisc of 100 Mbit/s on each
# of R's two egresses, so that the queue builds in a router, as on a real
# bottleneck (a qdisc on the sender's own interface is held to a few
# packets a flow by TCP small queues, and shows no bufferbloat).  The
# client runs in A, the listener in B, both with -C cubic (this kernel's
# default is bbr, which keeps its queue short whatever the buffer).  Run
# from the top of the tree as
#	GIGEBENCH=build/gigebench bash tests/underload_netns.sh
# (make check-netns).  It checks:
#  1. a deep queue (tbf limit 1 MiB), phases upload and download with
#     -P 4 (one cubic flow took more than 6 s to fill the queue) and
#     --probe-tos EF: each phase's added delay is the queue's depth over
#     the rate, 1 MiB at 100 Mbit/s = 83.9 ms, within 20 %;
#  2. each phase's queue estimate is within 20 % of the median backlog
#     of its qdisc (tc -s -j), sampled every 0.2 s while the probes
#     counted (after the load's --omit);
#  3. the probes' marking, both directions: the client's probe socket
#     read back 184 (EF), and a capture on R sees 1-byte requests A -> B
#     and 1-byte answers B -> A with DSCP EF, and no other marked
#     segment but each probe connection's first (the message that names
#     its stream): none of the load's;
#  4. a short queue (tbf limit 32 KiB, 2.6 ms at the rate; this kernel
#     has no fq_codel, so tbf's own limit is the short queue): loaded P99
#     at most idle P99 + twice the queue's 2.6 ms + 1 ms;
#  5. the verdicts: "high" on the deep queue, not "high" on the short;
#     and each deep phase's load, counted after its 3 s --omit, at most
#     what the link carries (100 Mbit/s x 1448 / 1514 of a frame is
#     payload: 95.6, and 1 % for tbf's burst), its two ends within 2 %
#     of each other (each end counts where the bytes are, not what its
#     socket buffers hold: xfer_tick.c);
#  6. UDP probes (--probe-rate 100) beside the same TCP load on the deep
#     queue: their added delay is 83.9 ms within 20 % as well, and they
#     were sent on schedule (100 a second for -T, and those in flight
#     as the omit ended); and probes with a
#     new connection each (--probe-crr) beside it: the SYN waits in the
#     queue as the request does, so they add twice the queue's delay,
#     2 x 83.9 ms within 20 %;
#  7. UDP probe loss against the qdisc's drops: on R's egress to B an
#     htb sends EF (the probes' requests) to a class of its own, a tbf
#     of 64 kbit/s that cannot carry 200 probes a second (131 kbit/s at
#     82 bytes a frame) and drops about half; the rest (a UDP load, -u
#     -R 150m) to the 100 Mbit/s tbf of 1 MiB.  The probes lost, idle
#     and loaded, are that tbf's drops (within 5 + 2 %: a hello or an
#     end datagram of the probe flows is marked too), and the load's
#     rate is the bottleneck's, within 10 %; the probes' answers come
#     back marked EF too (a capture on R's way to A);
# and that its namespaces are gone at the end.  Prints "ok"/"FAIL" per
# check and "N passed, M failed"; without root "# SKIP <reason>" (a
# failure under CI: tests/lib/skip.sh).  About 55 s.
set -eu

HERE=$(cd "$(dirname "$0")" && pwd)
GB=${GIGEBENCH:-$(dirname "$HERE")/build/gigebench}

# shellcheck source=tests/lib/netns.sh
. "$HERE/lib/netns.sh"
if ! netns_need_root >/dev/null; then
	skip_or_fail "$NETNS_MISSING"	# under CI: a failure
	exit $?
fi
if ! command -v tcpdump >/dev/null; then
	skip_or_fail "tcpdump is not installed (apt-get install tcpdump)"
	exit $?
fi
# shellcheck source=tests/lib/tally.sh
. "$HERE/lib/tally.sh"

NA=gb-ua-$$
NR=gb-ur-$$
NB=gb-ub-$$
ADDR_A=198.18.1.1
ADDR_B=198.18.2.1
TMP=$(mktemp -d)
cleanup() {
	local ns
	for ns in "$NA" "$NR" "$NB"; do
		netns_remove "$ns"
	done
	wait 2>/dev/null || true
	[ -n "${KEEP:-}" ] || rm -rf "$TMP"
}
trap cleanup EXIT
KEEP=${KEEP:-}
trap 'cleanup; exit 130' INT
trap 'cleanup; exit 143' TERM

# bed LIMIT: the three namespaces, tbf rate 100mbit limit LIMIT on R.
bed() {
	local limit=$1 ns l
	for ns in "$NA" "$NR" "$NB"; do
		ip netns add "$ns"
		netns_sysctl_v6off "$ns"
		ip -n "$ns" link set lo up
	done
	ip -n "$NA" link add va type veth peer name ra netns "$NR"
	ip -n "$NB" link add vb type veth peer name rb netns "$NR"
	ip -n "$NA" addr add "$ADDR_A/24" dev va
	ip -n "$NR" addr add 198.18.1.2/24 dev ra
	ip -n "$NB" addr add "$ADDR_B/24" dev vb
	ip -n "$NR" addr add 198.18.2.2/24 dev rb
	for l in "$NA va" "$NR ra" "$NR rb" "$NB vb"; do
		# shellcheck disable=SC2086
		set -- $l
		ip -n "$1" link set "$2" up
	done
	ip -n "$NA" route add default via 198.18.1.2
	ip -n "$NB" route add default via 198.18.2.2
	ip netns exec "$NR" sysctl -qw net.ipv4.ip_forward=1
	for l in ra rb; do
		tc -n "$NR" qdisc add dev "$l" root tbf rate 100mbit \
		    burst 32kb limit "$limit"
	done
}

unbed() {
	local ns
	for ns in "$NA" "$NR" "$NB"; do
		netns_remove "$ns"
	done
}

# sampler: R's two backlogs every 0.2 s, "time rb ra", until killed.
sampler() {
	while :; do
		printf '%s %s %s\n' "$(date +%s.%N)" \
		    "$(tc -n "$NR" -s -j qdisc show dev rb)" \
		    "$(tc -n "$NR" -s -j qdisc show dev ra)"
		sleep 0.2
	done
}

# run NAME ARGS...: listener in B, the client in A with ARGS (and CC's
# congestion control), its JSON in $TMP/NAME.json; the client's status.
CC=(-C cubic)
run() {
	local name=$1 rc=0 port=5330 listener
	shift
	ip netns exec "$NB" "$GB" -S -p "$port" --allow-reverse \
	    >"$TMP/$name.l.out" 2>&1 &
	listener=$!
	for _ in $(seq 1 100); do
		[ -z "$(ip netns exec "$NB" ss -Htln "sport = :$port")" ] ||
		    break
		sleep 0.05
	done
	ip netns exec "$NA" "$GB" -t "$ADDR_B" -p "$port" "${CC[@]}" \
	    --under-load --json "$@" >"$TMP/$name.json" \
	    2>"$TMP/$name.err" || rc=$?
	kill "$listener" 2>/dev/null || true
	wait "$listener" 2>/dev/null || true
	return "$rc"
}

bed 1mb
sampler >"$TMP/deep.tc" &
SAMPLER=$!
ip netns exec "$NR" tcpdump -i any -nn -s 96 -w "$TMP/deep.pcap" \
    'ip[1] & 0xfc == 0xb8' 2>"$TMP/tcpdump.err" &
DUMP=$!
sleep 0.5
rc=0
run deep --phases upload,download -P 4 -T 3 --omit 3 --probe-tos EF || rc=$?
sleep 0.3
kill "$SAMPLER" "$DUMP" 2>/dev/null || true
wait "$SAMPLER" "$DUMP" 2>/dev/null || true
if [ "$rc" -ne 0 ]; then
	fail "the deep-queue run (exit $rc: $(head -c 300 "$TMP/deep.err"))"
else
	pass "the deep-queue run, phases upload and download"
fi
tcpdump -nn -r "$TMP/deep.pcap" 2>/dev/null >"$TMP/deep.txt" || true
unbed

bed 1mb
rc=0
run deepudp --phases upload -P 4 -T 3 --omit 3 --probe-rate 100 || rc=$?
if [ "$rc" -ne 0 ]; then
	fail "the deep-queue UDP probes' run (exit $rc: $(head -c 300 \
	    "$TMP/deepudp.err"))"
else
	pass "the deep-queue UDP probes' run"
fi
rc=0
run deepcrr --phases upload -P 4 -T 3 --omit 3 --probe-crr || rc=$?
if [ "$rc" -ne 0 ]; then
	fail "the deep-queue --probe-crr run (exit $rc: $(head -c 300 \
	    "$TMP/deepcrr.err"))"
else
	pass "the deep-queue --probe-crr run"
fi
unbed

# The loss bed: the deep bed, and on rb an htb whose EF class is a tbf
# too thin for the probes (check 7).
bed 1mb
tc -n "$NR" qdisc del dev rb root
rc=0
tc -n "$NR" qdisc add dev rb root handle 1: htb default 2 &&
    tc -n "$NR" class add dev rb parent 1: classid 1:1 htb rate 1gbit \
    quantum 1514 &&
    tc -n "$NR" class add dev rb parent 1: classid 1:2 htb rate 1gbit \
    quantum 1514 &&
    tc -n "$NR" qdisc add dev rb parent 1:1 handle 10: tbf rate 64kbit \
    burst 1600 limit 3000 &&
    tc -n "$NR" qdisc add dev rb parent 1:2 handle 20: tbf rate 100mbit \
    burst 32kb limit 1mb &&
    tc -n "$NR" filter add dev rb parent 1: protocol ip prio 1 u32 \
    match ip tos 0xb8 0xfc flowid 1:1 || rc=$?
if [ "$rc" -ne 0 ]; then
	fail "the loss bed: htb, tbf and a u32 filter on R (exit $rc)"
else
	CC=()	# -u: no congestion control
	ip netns exec "$NR" tcpdump -i ra -nn -s 96 -w "$TMP/loss.pcap" \
	    'udp and ip[1] & 0xfc == 0xb8' 2>"$TMP/tcpdump-loss.err" &
	DUMP=$!
	sleep 0.5
	run loss --phases upload -u -R 150m -T 3 --probe-rate 200 \
	    --probe-tos EF || rc=$?
	sleep 0.3
	kill "$DUMP" 2>/dev/null || true
	wait "$DUMP" 2>/dev/null || true
	tcpdump -nn -r "$TMP/loss.pcap" 2>/dev/null >"$TMP/loss.txt" || true
	tc -n "$NR" -s -j qdisc show dev rb >"$TMP/loss.tc" || rc=$?
	if [ "$rc" -ne 0 ]; then
		fail "the loss bed's run (exit $rc: $(head -c 300 \
		    "$TMP/loss.err"))"
	else
		pass "the loss bed's run, a UDP load and UDP probes"
	fi
fi
unbed

bed 32kb
rc=0
run short --phases upload -T 3 --omit 1 || rc=$?
if [ "$rc" -ne 0 ]; then
	fail "the short-queue run (exit $rc: $(head -c 300 "$TMP/short.err"))"
else
	pass "the short-queue run"
fi
unbed

cat >"$TMP/judge.py" <<'PYEOF'
import json, re, statistics, sys

tmp = sys.argv[2]
rate = 100e6
deep_ms = 1048576 * 8 / rate * 1000      # 83.9 ms
short_ms = 32768 * 8 / rate * 1000       # 2.6 ms

def check(ok, text):
    print(("ok - " if ok else "FAIL - ") + text)

def phases(name):
    try:
        return {p["phase"]: p for p in
                json.load(open("%s/%s.json" % (tmp, name)))["under_load"]
                ["phases"]}
    except (OSError, ValueError, KeyError) as e:
        check(False, "%s: the JSON report reads (%s)" % (name, e))
        return {}

deep = phases("deep")
# The backlog samples: per device, the runs of non-zero backlog; a
# phase's queue is its device's longest run, less the --omit's 3 s.
samples = {"rb": [], "ra": []}
for line in open(tmp + "/deep.tc"):
    t, rest = line.split(" ", 1)
    docs = re.findall(r"\[.*?\]", rest)
    for dev, doc in zip(("rb", "ra"), docs):
        samples[dev].append((float(t), json.loads(doc)[0].get("backlog", 0)))

def loaded_backlog(dev):
    best, cur = [], []
    for t, b in samples[dev]:
        if b > 0:
            cur.append((t, b))
        else:
            if len(cur) > len(best):
                best = cur
            cur = []
    if len(cur) > len(best):
        best = cur
    if not best:
        return None
    t0 = best[0][0]
    kept = [b for t, b in best if t - t0 >= 3.0]
    return statistics.median(kept) if kept else None

for ph, dev in (("upload", "rb"), ("download", "ra")):
    p = deep.get(ph)
    if p is None or not p.get("ok"):
        check(False, "deep %s: the phase ran (%s)" % (
            ph, p.get("error") if p else "missing"))
        continue
    added = p["added_delay_ms"]
    print("# deep %s: idle P50 %.3f ms, loaded P50/P90/P99 %.1f/%.1f/%.1f "
          "ms, added %.1f ms, queue %.0f bytes, self %.1f ms, rpm %s, "
          "grade %s" % (ph, p["idle"]["p50_ms"], p["loaded"]["p50_ms"],
                        p["loaded"]["p90_ms"], p["loaded"]["p99_ms"], added,
                        p["queue_bytes"], p["self_rtt_ms"] or -1,
                        p["rpm"] and round(p["rpm"]["rpm"]), p["grade"]))
    check(0.8 * deep_ms <= added <= 1.2 * deep_ms,
          "1. deep %s: added delay %.1f ms is 1 MiB at 100 Mbit/s "
          "(%.1f ms) within 20 %%" % (ph, added, deep_ms))
    b = loaded_backlog(dev)
    q = p["queue_bytes"]
    check(b is not None and 0.8 * b <= q <= 1.2 * b,
          "2. deep %s: queue estimate %.0f bytes within 20 %% of %s's "
          "median backlog %s" % (ph, q, dev, b))
    check(p.get("probe_tos") == 184,
          "3. deep %s: the probe socket read back tos 184 (EF): %s" % (
              ph, p.get("probe_tos")))
    check(p["grade"] == "high", "5. deep %s: graded high: %s" % (
        ph, p["grade"]))
    res = p["loaded_test"]["result"]
    snd, rcv = res["sender"]["mbps"], res["receiver"]["mbps"]
    check(80 <= p["load_mbps"] <= 95.6 * 1.01 and
          abs(snd - rcv) <= 0.02 * rcv,
          "5. deep %s: the load after its --omit %.2f Mbit/s, at most the "
          "link's 95.6 (+1 %%), its sender's %.2f and receiver's %.2f "
          "within 2 %%" % (ph, p["load_mbps"], snd, rcv))

# tcpdump's lines: "... IP 198.18.1.1.40000 > 198.18.2.1.5330: ... length 1"
req = ans = load = 0
for line in open(tmp + "/deep.txt"):
    m = re.search(r"IP (\d+\.\d+\.\d+\.\d+)\.\d+ > (\d+\.\d+\.\d+\.\d+)\.\d+"
                  r":.* length (\d+)", line)
    if not m:
        continue
    src, dst, n = m.group(1), m.group(2), int(m.group(3))
    if n == 1 and src == "198.18.1.1":
        req += 1
    elif n == 1 and src == "198.18.2.1":
        ans += 1
    elif n > 1 and not re.search(r"seq 0:%d," % n, line):
        load += 1   # not the connection's first message (its stream's)
check(req >= 10 and ans >= 10,
      "3. EF on the wire both ways: %d requests A -> B, %d answers B -> A"
      % (req, ans))
check(load == 0, "3. no segment of the load is marked EF: %d" % load)

short = phases("short").get("upload")
if short is None or not short.get("ok"):
    check(False, "short upload: the phase ran")
else:
    i99, l99 = short["idle"]["p99_ms"], short["loaded"]["p99_ms"]
    bound = i99 + 2 * short_ms + 1
    print("# short upload: idle P99 %.3f ms, loaded P50/P99 %.3f/%.3f ms, "
          "grade %s" % (i99, short["loaded"]["p50_ms"], l99,
                        short["grade"]))
    check(l99 <= bound, "4. short queue: loaded P99 %.3f ms <= idle P99 + "
          "2 x %.1f ms + 1 ms = %.3f" % (l99, short_ms, bound))
    check(short["grade"] != "high", "5. short queue: not graded high: %s"
          % short["grade"])

udp = phases("deepudp").get("upload")
if udp is None or not udp.get("ok"):
    check(False, "6. deep upload, UDP probes: the phase ran")
else:
    added, sent = udp["added_delay_ms"], udp["loaded_loss"]["requests"]
    print("# deep upload, UDP probes: idle P50 %.3f ms, loaded P50/P99 "
          "%.1f/%.1f ms, added %.1f ms, lost %s" % (
              udp["idle"]["p50_ms"], udp["loaded"]["p50_ms"],
              udp["loaded"]["p99_ms"], added, udp["loaded_loss"]))
    check(0.8 * deep_ms <= added <= 1.2 * deep_ms,
          "6. deep upload, UDP probes: added delay %.1f ms is %.1f ms "
          "within 20 %%" % (added, deep_ms))
    # 300 in the 3 s, and those in flight as the omit ended (a queue's
    # worth: one every 10 ms for the loaded P50).
    most = 300 + udp["loaded"]["p50_ms"] / 10 + 3
    check(297 <= sent <= most, "6. UDP probes on schedule: %d in the 3 s "
          "counted, 100 a second (and %d at most in flight at its start)"
          % (sent, most - 300))

crr = phases("deepcrr").get("upload")
if crr is None or not crr.get("ok"):
    check(False, "6. deep upload, --probe-crr: the phase ran")
else:
    added = crr["added_delay_ms"]
    print("# deep upload, --probe-crr: idle P50 %.3f ms, loaded P50/P99 "
          "%.1f/%.1f ms, added %.1f ms, %d probes" % (
              crr["idle"]["p50_ms"], crr["loaded"]["p50_ms"],
              crr["loaded"]["p99_ms"], added, crr["loaded"]["count"]))
    check(0.8 * 2 * deep_ms <= added <= 1.2 * 2 * deep_ms,
          "6. deep upload, --probe-crr: added delay %.1f ms is the SYN's "
          "and the request's queue, 2 x %.1f ms, within 20 %%" % (
              added, deep_ms))

loss = phases("loss").get("upload")
drops = None
try:
    for q in json.load(open(tmp + "/loss.tc")):
        if q.get("handle") == "10:":
            drops = q.get("drops")
except (OSError, ValueError) as e:
    print("# the loss bed's qdiscs: %s" % e)
if loss is None or not loss.get("ok") or drops is None:
    check(False, "7. the loss bed: the phase ran and the EF tbf's drops "
          "read (%s)" % drops)
else:
    il, ll = loss["idle_loss"], loss["loaded_loss"]
    lost = il["lost"] + ll["lost"]
    print("# loss bed: idle %s, loaded %s, EF tbf drops %d, load %.1f "
          "Mbit/s" % (il, ll, drops, loss["load_mbps"]))
    check(lost > 0 and abs(drops - lost) <= 5 + 0.02 * lost,
          "7. UDP probes lost (%d idle + %d loaded) are the EF tbf's %d "
          "drops within 5 + 2 %%" % (il["lost"], ll["lost"], drops))
    check(30 <= ll["loss_pct"] <= 70, "7. about half the loaded probes "
          "lost: %.1f %%" % ll["loss_pct"])
    check(86 <= loss["load_mbps"] <= 105, "7. the UDP load's rate is the "
          "bottleneck's: %.1f Mbit/s" % loss["load_mbps"])
    # The answers B -> A, UDP of 40 bytes, marked EF (the capture's filter).
    back = sum(1 for line in open(tmp + "/loss.txt")
               if re.search(r"IP 198\.18\.2\.1\.\d+ > 198\.18\.1\.1\.\d+: "
                            r"UDP, length 40", line))
    answered = il["requests"] - il["lost"] + ll["requests"] - ll["lost"]
    check(back >= 0.9 * answered, "7. the UDP probes' answers come back "
          "marked EF: %d on the wire for %d answered" % (back, answered))
PYEOF
judge "$TMP/judge.py" "--under-load's beds" "$TMP"
cleanup
trap - EXIT
check "the namespaces are gone" test ! -e "/run/netns/$NA" -a \
    ! -e "/run/netns/$NR" -a ! -e "/run/netns/$NB"
finish
