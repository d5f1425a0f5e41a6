#!/usr/bin/env python3
"""bench/flows.py: many flows (issue 32), gigebench against neper, iperf3,
nuttcp and iperf, and against an earlier gigebench build, side by side on
loopback.

    python3 bench/flows.py --neper /path/to/neper [--old /path/to/gigebench]
        [--rounds 3] [--seconds 3] [--cases stream,rr,crr] [--bed lo|1500]
        [--json FILE]

Cases: TCP stream at 1, 2, 16, 128 and 1,000 flows; TCP request/response
of 1 byte each way at 1, 100 and 1,000 flows, on the flows' connections
(rr) and on a new connection a transaction (crr; the listener's pending
caps raised to the flows).  gigebench runs -P N with
--threads min(N, CPUs) (its default); neper -F N -T min(N, CPUs); iperf3
-P N (Debian's 3.12: one thread, at most 128), nuttcp -N N, iperf -P N
(up to 128 flows: past that they refuse or take minutes).  The older
gigebench build (--old: before the flow engine, a thread a flow, at
most 128) runs the cases it can, for the no-regression ratio.

--bed 1500 (root) runs every case between two network namespaces joined
by a veth pair at MTU 1500 (198.18.0.1 sends, 198.18.0.2 listens; made for
the run, removed after, also on failure or ^C) instead of on loopback.

Every round runs each tool once per case, in a different order each
round; the table has the median of the rounds per tool, the ratio of
gigebench to each, and the host CPU (all CPUs' busy time from /proc/stat,
both ends are on this host) per GB moved or per transaction.  Exit 0 when
every run gave a figure, 1 when one did not (the table still prints).
Nothing is asserted: it is a measurement (bench/README.md).
"""
import argparse
import json
import os
import random
import re
import signal
import socket
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
GB = os.environ.get("GIGEBENCH", os.path.join(HERE, "..", "build",
                                              "gigebench"))
NCPU = os.cpu_count() or 1
HZ = os.sysconf("SC_CLK_TCK")


def busy_s():
    with open("/proc/stat") as f:
        v = [int(x) for x in f.readline().split()[1:]]
    return (sum(v) - v[3] - v[4]) / HZ


class Bed:
    """Where the tools run: loopback, or a veth pair's two namespaces."""
    host = "127.0.0.1"
    srv = []	# the command prefix of the listening end
    cli = []	# of the connecting end
    names = []

    def up_1500(self):
        tag = "gbf%d" % os.getpid()
        a, b = tag + "a", tag + "b"
        self.names = [a, b]
        for cmd in (["ip", "netns", "add", a], ["ip", "netns", "add", b],
                    ["ip", "-n", a, "link", "add", "veth0", "mtu", "1500",
                     "type", "veth", "peer", "name", "veth1", "netns", b,
                     "mtu", "1500"],
                    ["ip", "-n", a, "addr", "add", "198.18.0.1/24", "dev",
                     "veth0"],
                    ["ip", "-n", b, "addr", "add", "198.18.0.2/24", "dev",
                     "veth1"],
                    ["ip", "-n", a, "link", "set", "veth0", "up"],
                    ["ip", "-n", b, "link", "set", "veth1", "up"],
                    ["ip", "-n", a, "link", "set", "lo", "up"],
                    ["ip", "-n", b, "link", "set", "lo", "up"]):
            subprocess.run(cmd, check=True)
        self.host = "198.18.0.2"
        self.cli = ["ip", "netns", "exec", a]
        self.srv = ["ip", "netns", "exec", b]

    def down(self):
        for n in self.names:
            subprocess.run(["ip", "netns", "del", n], stderr=subprocess.DEVNULL)
        self.names = []


BED = Bed()


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    p = s.getsockname()[1]
    s.close()
    return p


def wait_port(port, t=5.0):
    end = time.time() + t
    while time.time() < end:
        try:
            socket.create_connection(("127.0.0.1", port), 0.2).close()
            return True
        except OSError:
            time.sleep(0.05)
    return False


def run_pair(server, client, port, timeout, probe=True):
    """Start server, wait for port, run client; (stdout, busy s).  On the
    veth bed the port cannot be probed from here: a second's wait."""
    server, client = BED.srv + server, BED.cli + client
    if BED.srv:
        probe = False
    srv = subprocess.Popen(server, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True)
    try:
        if probe and not wait_port(port):
            raise RuntimeError("server did not listen: %s" % server)
        if not probe:
            time.sleep(1.0 if BED.srv else 0.5)
        b0 = busy_s()
        c = subprocess.run(client, capture_output=True, text=True,
                           timeout=timeout)
        b1 = busy_s()
        if c.returncode != 0:
            raise RuntimeError("exit %d: %s" % (c.returncode,
                                                c.stderr[-300:]))
        return c.stdout, b1 - b0
    finally:
        srv.terminate()
        try:
            srv.wait(5)
        except subprocess.TimeoutExpired:
            srv.kill()
            srv.wait()


def threads(n):
    return min(n, NCPU)


def gb(binary, kind, n, secs, new=True):
    port = free_port()
    args = [binary, "-t", BED.host, "-p", str(port), "-P", str(n),
            "-T", str(secs), "-J"]
    if new:
        args += ["--threads", str(threads(n))]
    if kind in ("rr", "crr"):
        args += ["--" + kind]
    srv = [binary, "-r", "-1", "-q", "-p", str(port)]
    srv += ["--max-flows", str(max(n, 1024))] if new else \
        ["--max-streams", "128"]
    if kind == "crr":	# a connection of each flow pending at any time
        srv += ["--max-pending", str(max(2 * n, 256)),
                "--max-pending-source", str(max(n, 16))]
    out, cpu = run_pair(srv, args, port, secs + 60, probe=False)
    r = json.loads(out)["result"]
    if kind != "stream":
        t = r["rr"]["transactions"]
        return r["rr"]["per_s"], t, cpu
    return r["receiver"]["mbps"], r["receiver"]["bytes"], cpu


def neper(d, kind, n, secs):
    prog = os.path.join(d, "tcp_" + kind)
    cport, dport = free_port(), free_port()
    common = ["-F", str(n), "-T", str(threads(n)), "-l", str(secs),
              "-C", str(cport), "-P", str(dport), "--nolog"]
    out, cpu = run_pair([prog] + common, [prog, "-c", "-H", BED.host] +
                        common, cport, secs + 60)
    kv = dict(l.split("=", 1) for l in out.splitlines() if "=" in l)
    if kind != "stream":
        tps = float(kv["throughput"])
        return tps, int(kv["num_transactions"]), cpu
    bps = float(kv["remote_throughput"])
    return bps / 1e6, bps * secs / 8, cpu


def iperf3(kind, n, secs):
    port = free_port()
    out, cpu = run_pair(["iperf3", "-s", "-1", "-B", BED.host, "-p",
                         str(port)],
                        ["iperf3", "-c", BED.host, "-p", str(port), "-P",
                         str(n), "-t", str(secs), "-J"], port, secs + 60,
                        probe=False)	# -1: a probe would be its test
    e = json.loads(out)["end"]["sum_received"]
    return e["bits_per_second"] / 1e6, e["bytes"], cpu


def nuttcp(kind, n, secs):
    port = free_port()	# control; data from 5001 (-p), one a flow
    out, cpu = run_pair(["nuttcp", "-1", "-P", str(port)],
                        ["nuttcp", "-P", str(port), "-N", str(n), "-T",
                         str(secs), BED.host], port, secs + 60,
                        probe=False)
    m = re.search(r"([\d.]+) MB /\s+([\d.]+) sec =\s+([\d.]+) Mbps",
                  out)
    return float(m.group(3)), float(m.group(1)) * 2**20, cpu


def iperf2(kind, n, secs):
    port = free_port()
    out, cpu = run_pair(["iperf", "-s", "-B", BED.host, "-p", str(port)],
                        ["iperf", "-c", BED.host, "-p", str(port), "-P",
                         str(n), "-t", str(secs), "-f", "m"], port,
                        secs + 60)
    lines = [l for l in out.splitlines() if "Mbits/sec" in l]
    pick = [l for l in lines if "[SUM]" in l] or lines
    mbps = float(re.search(r"([\d.]+) Mbits/sec", pick[-1]).group(1))
    return mbps, mbps * 1e6 / 8 * secs, cpu


def tools(a):
    t = [("gigebench", lambda k, n, s: gb(GB, k, n, s), None)]
    if a.old:
        t.append(("gigebench-old", lambda k, n, s: gb(a.old, k, n, s,
                                                      False), 128))
    if a.neper:
        t.append(("neper", lambda k, n, s: neper(a.neper, k, n, s), None))
    t += [("iperf3", iperf3, 128), ("nuttcp", nuttcp, 128),
          ("iperf", iperf2, 128)]
    return t


CASES = [("stream", n) for n in (1, 2, 16, 128, 1000)] + \
        [("rr", n) for n in (1, 100, 1000)] + \
        [("crr", n) for n in (1, 100, 1000)]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--neper", help="directory of a built neper")
    ap.add_argument("--old", help="an earlier gigebench binary")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--seconds", type=float, default=3)
    ap.add_argument("--cases", default="stream,rr,crr")
    ap.add_argument("--bed", default="lo", choices=("lo", "1500"))
    ap.add_argument("--json")
    a = ap.parse_args()
    if a.bed == "1500":
        signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))
        try:
            BED.up_1500()
            return measure(a)
        finally:
            BED.down()
    return measure(a)


def measure(a):
    """The rounds, the table and the JSON; 1 when a run gave no figure."""
    kinds = a.cases.split(",")
    cases = [c for c in CASES if c[0] in kinds]
    tl = tools(a)
    samples = {}
    bad = 0
    for rnd in range(a.rounds):
        order = [(c, t) for c in cases for t in tl
                 if (t[2] is None or c[1] <= t[2]) and
                 (c[0] == "stream" or t[0] in ("gigebench", "gigebench-old",
                                              "neper"))]
        random.Random(rnd).shuffle(order)
        for (kind, n), (name, fn, _) in order:
            try:
                v, work, cpu = fn(kind, n, a.seconds)
                samples.setdefault((kind, n, name), []).append(
                    (v, cpu / (work / 1e9 if kind == "stream" else work)))
            except Exception as e:  # a failed run is reported, not fatal
                bad += 1
                print("# round %d %s %s %d: %s" % (rnd, name, kind, n, e),
                      file=sys.stderr)
    rows = []
    print("%-7s %6s %-14s %14s %16s %9s" % ("case", "flows", "tool",
          "median", "host CPU", "gb/tool"))
    for kind, n in cases:
        base = samples.get((kind, n, "gigebench"))
        for name, _, _ in tl:
            s = samples.get((kind, n, name))
            if not s:
                continue
            v = statistics.median(x[0] for x in s)
            c = statistics.median(x[1] for x in s)
            ratio = statistics.median(x[0] for x in base) / v if base \
                else float("nan")
            unit = "Mbit/s" if kind == "stream" else "trans/s"
            cunit = "s/GB" if kind == "stream" else "us/trans"
            cshow = c if kind == "stream" else c * 1e6
            print("%-7s %6d %-14s %10.0f %-7s %8.3f %-8s %8.3f" % (
                kind, n, name, v, unit, cshow, cunit, ratio))
            rows.append({"case": kind, "flows": n, "tool": name,
                         "median": v, "unit": unit, "host_cpu": cshow,
                         "cpu_unit": cunit, "gigebench_ratio": ratio,
                         "samples": s})
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"ncpus": NCPU, "seconds": a.seconds, "bed": a.bed,
                       "rounds": a.rounds, "rows": rows}, f, indent=1)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
