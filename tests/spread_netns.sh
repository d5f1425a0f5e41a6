#!/usr/bin/env bash
# The spread on a veth pair of 4 queues a side (root): two namespaces
# (tests/lib/netns.sh, no qdisc), the listener in B with -v, the client
# in A with -P 4 -T 3 --json.  Run from the top of the tree as
#	GIGEBENCH=build/gigebench bash tests/spread_netns.sh
# (make check-netns; about 10 s).  It checks, for both ends:
#  1. the spread is there: every CPU of this host (its ncpus, at most 64
#     of them in per_cpu), rx_queues and tx_queues 4 as the veth was
#     made, no interrupt line (a veth has none);
#  2. per_cpu's NET_RX softirqs add up to the side's softirq.net_rx (the
#     same two readings of /proc/softirqs, by column and by row);
#  3. against this script's own readings of /proc/softirqs just before
#     the client starts and just after it ends (host-wide, so both ends
#     see the same counters): each CPU's NET_RX at most the script's for
#     that CPU, and the sum short of the script's by what ran outside
#     gigebench's window only: process start-up and the control
#     exchange, at most 10 % + 200 (as tests/netns_check.sh allows);
#  4. no spread finding (irq_pile, cpu_softirq_bound, few_vectors) on a
#     veth, where nothing is wrong;
#  5. the listener's -v report has its "spread" line with the queues;
#  6. 1,000 flows on 2 threads on the same bed: 1,000 connections of
#     distinct local ports while it runs, both ends' flow summaries
#     (1,000 on 2 threads, every flow moved data), the receiver's NET_RX
#     on every CPU the two threads could use;
# and that its namespaces are gone at the end.  Prints "ok"/"FAIL" per
# check and "N passed, M failed"; without root "# SKIP <reason>" (a
# failure under CI: tests/lib/skip.sh).
set -eu

HERE=$(cd "$(dirname "$0")" && pwd)
GB=${GIGEBENCH:-$(dirname "$HERE")/build/gigebench}
TOL_SOFTIRQ_PCT=10
TOL_SOFTIRQ_ABS=200

# shellcheck source=tests/lib/netns.sh
. "$HERE/lib/netns.sh"
if ! netns_need_root >/dev/null; then
	skip_or_fail "$NETNS_MISSING"	# under CI: a failure
	exit $?
fi
# shellcheck source=tests/lib/tally.sh
. "$HERE/lib/tally.sh"

TMP=$(mktemp -d)
LISTENER=""
cleanup() {
	[ -z "$LISTENER" ] || kill "$LISTENER" 2>/dev/null || true
	wait 2>/dev/null || true
	netns_cleanup
	rm -rf "$TMP"
}
netns_setup --queues 4
trap cleanup EXIT
trap 'cleanup; exit 130' INT
trap 'cleanup; exit 143' TERM

# softirqs FILE: the NET_RX row of /proc/softirqs, one count per CPU.
softirqs() {
	awk 'NR == 1 { n = NF; for (i = 1; i <= NF; i++) id[i] = substr($i, 4) }
	    $1 == "NET_RX:" { for (i = 2; i <= NF; i++) printf "%s %s\n",
	    id[i - 1], $i }' /proc/softirqs >"$1"
}

port=5400
ip netns exec "$NS_B" "$GB" -r -1 -p "$port" -v \
    >"$TMP/l.out" 2>"$TMP/l.err" &
LISTENER=$!
for _ in $(seq 1 100); do
	[ -z "$(netns_exec b ss -Htln "sport = :$port")" ] || break
	sleep 0.05
done
rc=0
softirqs "$TMP/before"
netns_exec a "$GB" -t "$ADDR_B" -p "$port" -P 4 -T 3 -J \
    >"$TMP/c.json" 2>"$TMP/c.err" || rc=$?
softirqs "$TMP/after"
wait "$LISTENER" || true
LISTENER=""
if [ "$rc" -ne 0 ]; then
	fail "the -P 4 test runs (exit $rc: $(head -c 300 "$TMP/c.err"))"
	finish
	exit 1
fi

cat >"$TMP/judge.py" <<'PYEOF'
import json, sys

# argv: what, the client's JSON, the readings before and after, the
# tolerances, the listener's output
r = json.load(open(sys.argv[2]))["result"]
si_pct, si_abs = float(sys.argv[5]), int(sys.argv[6])
listener = open(sys.argv[7]).read()

def read(path):
    return {int(c): int(n) for c, n in (l.split() for l in open(path))}

before, after = read(sys.argv[3]), read(sys.argv[4])
own = {c: after[c] - before.get(c, 0) for c in after}
ncpus = sum(1 for l in open("/proc/stat") if l[:3] == "cpu" and l[3].isdigit())

def check(ok, text):
    print(("ok - " if ok else "FAIL - ") + text)

for end in ("sender", "receiver"):
    s = r[end]
    sp = s["spread"]
    if sp is None:
        check(False, "1. %s: a spread" % end)
        continue
    cpus = sp["per_cpu"]
    check(sp["ncpus"] == ncpus and len(cpus) == min(ncpus, 64),
          "1. %s: every CPU (ncpus %d, %d in per_cpu, this host %d)" % (
              end, sp["ncpus"], len(cpus), ncpus))
    check(sp["rx_queues"] == 4 and sp["tx_queues"] == 4,
          "1. %s: %s's queues as the veth was made: rx %s tx %s" % (
              end, s["interface"]["name"], sp["rx_queues"], sp["tx_queues"]))
    check(sp["lines"] == [] and s["interface"]["lines"] == [],
          "1. %s: no interrupt line on a veth" % end)
    got = sum(c["net_rx"] for c in cpus)
    check(got == s["softirq"]["net_rx"],
          "2. %s: per_cpu NET_RX adds up to softirq.net_rx (%d, %d)" % (
              end, got, s["softirq"]["net_rx"]))
    over = ["cpu%d %d > %d" % (c["cpu"], c["net_rx"], own.get(c["cpu"], 0))
            for c in cpus if c["net_rx"] > own.get(c["cpu"], 0)]
    check(not over, "3. %s: each CPU's NET_RX within this script's "
          "reading of it%s" % (end, ": " + ", ".join(over) if over else ""))
    ref = sum(own.values())
    tol = int(ref * si_pct / 100) + si_abs
    check(0 <= ref - got <= tol,
          "3. %s: per_cpu NET_RX %d, this script's %d (gap %d, allowed "
          "0-%d)" % (end, got, ref, ref - got, tol))
    print("# %s: %s" % (end, " ".join("cpu%d %.0f%% sirq %.0f%% rx %d" % (
        c["cpu"], c["busy_pct"], c["softirq_pct"], c["net_rx"])
        for c in cpus)))
codes = [f["code"] for f in r["diagnosis"]]
spread = [c for c in codes if c in ("irq_pile", "cpu_softirq_bound",
                                   "few_vectors")]
check(not spread, "4. no spread finding on a veth (findings: %s)" %
      (", ".join(codes) or "none"))
lines = [l for l in listener.splitlines()
         if l.startswith("gigebench-r: spread cpu")]
check(len(lines) == 1 and "; queues rx 4 tx 4" in lines[0],
      "5. the listener's -v report has its spread line: %s" %
      (lines[0][:100] if lines else "none"))
PYEOF
judge "$TMP/judge.py" "the spread on a 4-queue veth" "$TMP/c.json" \
    "$TMP/before" "$TMP/after" "$TOL_SOFTIRQ_PCT" "$TOL_SOFTIRQ_ABS" \
    "$TMP/l.out"

# 6. Many flows on the same bed: 1,000 flows on 2 threads, each its own
# connection (5-tuple) while the test runs, both ends' summaries, the
# receiver's NET_RX over every CPU the two threads could use.
ip netns exec "$NS_B" "$GB" -r -1 -p "$port" --max-flows 1000 \
    >"$TMP/m.out" 2>"$TMP/m.err" &
LISTENER=$!
for _ in $(seq 1 100); do
	[ -z "$(netns_exec b ss -Htln "sport = :$port")" ] || break
	sleep 0.05
done
rc=0
netns_exec a "$GB" -t "$ADDR_B" -p "$port" -P 1000 --threads 2 -T 2 -l 16K \
    -J >"$TMP/m.json" 2>"$TMP/m.cerr" &
CLIENT=$!
sleep 1.2
conns=$(netns_exec a ss -Htn state established "dport = :$port" |
    awk '{ print $3 }' | sort -u | wc -l)
wait "$CLIENT" || rc=$?
wait "$LISTENER" || true
LISTENER=""
check "6. -P 1000 --threads 2 on the veth exits 0 (exit $rc)" test "$rc" = 0
check "6. 1000 data connections of distinct local ports (and the control one) while it ran: $conns" \
    test "$conns" -ge 1000
cat >"$TMP/flows.py" <<'PYEOF'
import json, sys
r = json.load(open(sys.argv[2]))["result"]
def check(ok, text):
    print(("ok - " if ok else "FAIL - ") + text)
for end in ("sender", "receiver"):
    f = r[end]["flows"]
    check(f is not None and f["n"] == 1000 and f["threads"] == 2 and
          0 < f["jain"] <= 1 and f["mbps"]["min"] > 0,
          "6. %s: 1000 flows on 2 threads, each moved data: %s" % (end, f))
sp = r["receiver"]["spread"]
busy = [c["cpu"] for c in sp["per_cpu"] if c["net_rx"] > 0]
want = min(2, sp["ncpus"])
check(len(busy) >= want and sp["rx_queues"] == 4,
      "6. the receiver's NET_RX on %d CPUs (%s), at least %d; 4 rx queues" %
      (len(busy), busy, want))
PYEOF
judge "$TMP/flows.py" "many flows on the veth" "$TMP/m.json"
cleanup
trap - EXIT
check "the namespaces are gone" test ! -e "/run/netns/$NS_A" -a \
    ! -e "/run/netns/$NS_B"
finish
