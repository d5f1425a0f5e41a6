#!/usr/bin/env python3
"""bench/rr.py - gigebench --rr against sockperf ping-pong (TCP) and iperf
2's --bounceback (back to back: --bounceback-period 0), side by side on
loopback or the namespace bed, in interleaved rounds.  Not a test: the figures and what
they mean are in bench/README.md ("Request/response").

    python3 bench/rr.py                      # 5 rounds of 5 s, 64-byte messages
    python3 bench/rr.py --rounds 7 --seconds 10 --size 1 --json rr.json
    python3 bench/rr.py --streams 2          # gigebench -P 2 beside two sockperfs
    python3 bench/rr.py --netns --size 1     # the namespace bed (root): a veth
                                             # pair, 198.18.0.1 -> 198.18.0.2

Each round runs every tool once, in turn (the order rotates each round), so
that load from elsewhere on the shared machine falls on both alike; the
table has the medians over rounds.  For each run: transactions (round trips)
per second, the P50 and P99 of the full round-trip time in microseconds (as
gigebench reports; sockperf with --full-rtt), and the CPU time per
transaction of both ends together, taken the same way for both tools: each
server and client runs under bench/cpuwrap.c (utime + stime of every process
of its tree, from /proc/PID/stat before it is reaped).

sockperf's figures are of its "valid duration" (it leaves its warm-up and
the last moments out); its percentiles are of that part.  sockperf's
messages are at least SOCKPERF_MIN (14) bytes, iperf 2's bounceback writes
at least IPERF2_MIN (64): a smaller --size is theirs raised to that.  iperf 2's
percentiles come from its bounceback histogram, whose bins are 100 us wide
(--histograms does not change them in 2.1.8), each a bin's top: coarse, an
upper bound; its rate is its whole-test count over its whole-test time.  --no-iperf2 leaves it out.

Exit status 0 when every run worked and gave its figures, 1 when one did not
(the table still prints).
"""

import argparse
import json
import os
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(HERE)


def cpuwrap_build(work):
    exe = os.path.join(work, "cpuwrap")
    subprocess.run(["cc", "-O2", "-o", exe, os.path.join(HERE, "cpuwrap.c")],
                   check=True)
    return exe


def cpu_s(path):
    try:
        with open(path) as f:
            m = re.search(r"cpu_s=([\d.]+)", f.read())
        return float(m.group(1)) if m else None
    except OSError:
        return None


class Bed:
    """Where the tools run: loopback, or (--netns) a client namespace A
    and a server namespace B joined by a veth pair, 198.18.0.1 and
    198.18.0.2 (RFC 2544), made here and removed at the end."""

    def __init__(self, netns):
        self.netns = netns
        self.a = self.b = None
        self.server_addr = "127.0.0.1"
        if not netns:
            return
        pid = os.getpid()
        self.a, self.b = "gb-rra-%d" % pid, "gb-rrb-%d" % pid
        self.server_addr = "198.18.0.2"
        cmds = [["ip", "netns", "add", self.a], ["ip", "netns", "add", self.b],
                ["ip", "-n", self.a, "link", "add", "gb-va", "type", "veth",
                 "peer", "name", "gb-vb", "netns", self.b],
                ["ip", "-n", self.a, "addr", "add", "198.18.0.1/24", "dev",
                 "gb-va"],
                ["ip", "-n", self.b, "addr", "add", "198.18.0.2/24", "dev",
                 "gb-vb"]]
        for ns, dev in ((self.a, "gb-va"), (self.b, "gb-vb")):
            cmds += [["ip", "-n", ns, "link", "set", "lo", "up"],
                     ["ip", "-n", ns, "link", "set", dev, "up"]]
        try:
            for c in cmds:
                subprocess.run(c, check=True)
        except (subprocess.CalledProcessError, OSError):
            self.close()
            raise

    def client(self, argv):
        return ["ip", "netns", "exec", self.a] + argv if self.a else argv

    def server(self, argv):
        return ["ip", "netns", "exec", self.b] + argv if self.b else argv

    def name(self):
        return "namespace bed (veth, no qdisc)" if self.a else "loopback"

    def close(self):
        for ns in (self.a, self.b):
            if ns:
                subprocess.run(["ip", "netns", "pids", ns],
                               stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)
                subprocess.run(["ip", "netns", "del", ns],
                               stderr=subprocess.DEVNULL)
        self.a = self.b = None


BED = None


def wait_port(port, timeout=5.0):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        out = subprocess.run(BED.server(["ss", "-ltnH", "sport = :%d" %
                                         port]),
                             stdout=subprocess.PIPE, text=True).stdout
        if out.strip():
            return True
        time.sleep(0.05)
    return False


def run_pair(cw, work, tag, server, client, port, timeout):
    """Start server, run client to its end, stop server; both under
    cpuwrap.  Returns (client stdout, cpu seconds of both, ok)."""
    scpu, ccpu = os.path.join(work, tag + ".scpu"), \
        os.path.join(work, tag + ".ccpu")
    server, client = BED.server(server), BED.client(client)
    srv = subprocess.Popen([cw, scpu] + server, stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL, start_new_session=True)
    ok = wait_port(port)
    out = ""
    if ok:
        # its own session, so that a client stuck past the timeout is
        # killed with all it started (iperf 2 ignores SIGTERM when stuck)
        p = subprocess.Popen([cw, ccpu] + client, stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT, text=True,
                             start_new_session=True)
        try:
            out = p.communicate(timeout=timeout)[0]
            ok = p.returncode == 0
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, signal.SIGKILL)
            out = p.communicate()[0]
            ok = False
    if srv.poll() is None:
        os.killpg(srv.pid, signal.SIGINT)
        try:
            srv.wait(timeout=5)
        except subprocess.TimeoutExpired:
            os.killpg(srv.pid, signal.SIGKILL)
            srv.wait()
    a, b = cpu_s(scpu), cpu_s(ccpu)
    return out, (a + b) if a is not None and b is not None else None, ok


def gigebench(cw, work, gb, args, rnd, port):
    client = [gb, "-t", BED.server_addr, "-p", str(port), "--rr", "-T",
              str(args.seconds), "--request-size", str(args.size),
              "--response-size", str(args.size), "-P", str(args.streams),
              "-J", "--no-progress"]
    out, cpu, ok = run_pair(cw, work, "gb%d" % rnd,
                            [gb, "-r", "-1", "-q", "-B", BED.server_addr, "-p",
                             str(port)], client, port, args.seconds + 30)
    try:
        rr = json.loads(out)["result"]["rr"]
        n, per_s = rr["transactions"], rr["per_s"]
        lat = rr["latency"]
        return dict(per_s=per_s, p50=lat["p50_us"], p99=lat["p99_us"],
                    cpu_us=cpu * 1e6 / n if cpu and n else None), ok
    except (ValueError, KeyError, TypeError):
        return None, False


SOCKPERF_MIN = 14   # sockperf's message header
IPERF2_MIN = 64     # iperf 2.1.8's bounceback fails under 64 bytes
                    # ("tcp bounce-back read failed"; 1, 20, 32, 48 tried)


def sockperf_one(cw, work, args, rnd, port, i):
    client = ["sockperf", "ping-pong", "--tcp", "-i", BED.server_addr, "-p",
              str(port), "-t", str(args.seconds), "-m",
              str(max(args.size, SOCKPERF_MIN)), "--full-rtt"]
    return run_pair(cw, work, "sp%d.%d" % (rnd, i),
                    ["sockperf", "server", "--tcp", "-i", BED.server_addr, "-p",
                     str(port)], client, port, args.seconds + 30)


def sockperf_parse(out):
    v = re.search(r"\[Valid Duration\] RunTime=([\d.]+) sec; "
                  r"SentMessages=\d+; ReceivedMessages=(\d+)", out)
    p50 = re.search(r"percentile 50\.000 = +([\d.]+)", out)
    p99 = re.search(r"percentile 99\.000 = +([\d.]+)", out)
    if not (v and p50 and p99):
        return None
    return float(v.group(1)), int(v.group(2)), float(p50.group(1)), \
        float(p99.group(1))


def sockperf(cw, work, args, rnd, port):
    """args.streams sockperf pairs at once, their rates added."""
    if args.streams == 1:
        out, cpu, ok = sockperf_one(cw, work, args, rnd, port, 0)
        runs = [(out, cpu, ok)]
    else:
        import concurrent.futures as cf
        with cf.ThreadPoolExecutor(args.streams) as ex:
            runs = list(ex.map(lambda i: sockperf_one(
                cw, work, args, rnd, port + i, i), range(args.streams)))
    figs = [sockperf_parse(o) for o, _, _ in runs]
    if not all(figs) or not all(ok for _, _, ok in runs):
        return None, False
    per_s = sum(n / t for t, n, _, _ in figs)
    n_all = sum(n for _, n, _, _ in figs)
    cpu = sum(c for _, c, _ in runs if c is not None)
    return dict(per_s=per_s, p50=max(f[2] for f in figs),
                p99=max(f[3] for f in figs),
                cpu_us=cpu * 1e6 / n_all * (figs[0][0] / args.seconds)
                if n_all else None), True


def iperf2(cw, work, args, rnd, port):
    """iperf 2's bounceback back to back (--bounceback-period 0), one
    stream (iperf 2 runs -P bounceback streams in one process)."""
    client = ["iperf", "-c", BED.server_addr, "-p", str(port),
              "--bounceback", "--bounceback-period", "0", "-l",
              str(max(args.size, IPERF2_MIN)), "-t", str(args.seconds),
              "-P", str(args.streams), "-e"]
    out, cpu, ok = run_pair(cw, work, "ip%d" % rnd,
                            ["iperf", "-s", "-B", BED.server_addr, "-p",
                             str(port), "-e"], client, port,
                            args.seconds + 30)
    fig = iperf2_parse(out)
    if fig is None:
        return None, False
    per_s, n, p50, p99 = fig
    return dict(per_s=per_s, p50=p50, p99=p99,
                cpu_us=cpu * 1e6 / n if cpu and n else None), ok


def iperf2_parse(out):
    """(trans/s, count, P50 us, P99 us) from the whole-test lines: the
    BB cnt of the 0.00-T line (or [SUM] with -P), and the BB8 histogram's
    bins (bin i holds [(i-1)*w, i*w): a 1.024 ms maximum sits in bin 11 at
    w=100us; a percentile is its bin's top, as gigebench's is its
    bucket's)."""
    # the whole test is the longest interval; with -P, [SUM]'s count is
    # the largest of that interval's
    totals = [(float(m.group(1)), int(m.group(2))) for m in re.finditer(
        r"^\[ *(?:SUM|[^\]]*)\] +0\.0+-([\d.]+) sec .*? (\d+)=[\d./]+ ms",
        out, re.M)]
    bins = {}
    width = None
    for h in re.finditer(r"BB8\(f\)-PDF: bin\(w=(\d+)us\):cnt\((\d+)\)=("
                         r"[\d:,]+)", out):
        width = int(h.group(1))
        for pair in h.group(3).split(","):
            b, c = pair.split(":")
            bins[int(b)] = bins.get(int(b), 0) + int(c)
    if not totals or not bins:
        return None
    t, n = max(totals)
    count = sum(bins.values())

    def pct(q):
        acc = 0
        for b in sorted(bins):
            acc += bins[b]
            if acc >= q * count:
                return b * width
        return None
    return n / t, n, pct(0.50), pct(0.99)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--seconds", type=float, default=5)
    ap.add_argument("--size", type=int, default=64)
    ap.add_argument("--streams", type=int, default=1)
    ap.add_argument("--json")
    ap.add_argument("--no-iperf2", action="store_true",
                    help="leave iperf 2's --bounceback out")
    ap.add_argument("--netns", action="store_true",
                    help="on a veth pair between two namespaces (root)")
    args = ap.parse_args()
    if shutil.which("sockperf") is None:
        sys.exit("bench/rr.py: sockperf is not installed "
                 "(apt-get install sockperf)")
    global BED
    try:
        BED = Bed(args.netns)
    except (subprocess.CalledProcessError, OSError) as e:
        sys.exit("bench/rr.py: cannot build the namespace bed (root?): %s" %
                 e)
    try:
        return run_all(args)
    finally:
        BED.close()


def run_all(args):
    work = tempfile.mkdtemp(prefix="gigebench-rr-bench.")
    gb = os.path.join(work, "gigebench")
    shutil.copy(os.environ.get("GIGEBENCH",
                               os.path.join(TOP, "build", "gigebench")), gb)
    cw = cpuwrap_build(work)
    tools = [("gigebench", lambda r: gigebench(cw, work, gb, args, r, 6301)),
             ("sockperf", lambda r: sockperf(cw, work, args, r, 6311))]
    if shutil.which("iperf") and not args.no_iperf2:
        tools.append(("iperf2", lambda r: iperf2(cw, work, args, r, 6321)))
    samples = {name: [] for name, _ in tools}
    failed = 0
    for rnd in range(args.rounds):
        order = tools[rnd % len(tools):] + tools[:rnd % len(tools)]
        for name, fn in order:
            fig, ok = fn(rnd)
            if not ok or fig is None:
                failed += 1
                print("# round %d: %s failed" % (rnd + 1, name))
                continue
            samples[name].append(fig)
            print("# round %d %-9s %10.1f trans/s  P50 %7.1f us  P99 %7.1f "
                  "us  cpu %6.2f us/trans" % (rnd + 1, name, fig["per_s"],
                                              fig["p50"], fig["p99"],
                                              fig["cpu_us"] or -1))
    med = {}
    for name, s in samples.items():
        if s:
            med[name] = {k: statistics.median(x[k] for x in s
                                              if x[k] is not None)
                         for k in ("per_s", "p50", "p99", "cpu_us")}
    print("\nmedians of %d rounds, %g s each, %d-byte messages (sockperf: "
          "%d, iperf 2: %d), %d stream(s), %s" % (
              args.rounds, args.seconds, args.size, max(args.size, SOCKPERF_MIN),
              max(args.size, IPERF2_MIN), args.streams, BED.name()))
    print("%-10s %12s %9s %9s %12s" % ("tool", "trans/s", "P50 us",
                                       "P99 us", "cpu us/trans"))
    for name, m in med.items():
        print("%-10s %12.1f %9.1f %9.1f %12.2f" % (name, m["per_s"],
                                                  m["p50"], m["p99"],
                                                  m["cpu_us"]))
    peers = [n for n in med if n != "gigebench"]
    if "gigebench" in med:
        g = med["gigebench"]
        for name in peers:
            s = med[name]
            print("ratios gigebench/%s: trans/s %.2f, P50 %.2f, P99 %.2f, "
                  "cpu/trans %.2f" % (name, g["per_s"] / s["per_s"],
                                      g["p50"] / s["p50"],
                                      g["p99"] / s["p99"],
                                      g["cpu_us"] / s["cpu_us"]))
        if peers:
            best_rate = max(med[n]["per_s"] for n in peers)
            best_p99 = min(med[n]["p99"] for n in peers)
            print("against the best peer: trans/s %.2f (target >= 1), "
                  "P99 %.2f (target <= 1)" % (g["per_s"] / best_rate,
                                              g["p99"] / best_p99))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(dict(args=vars(args), bed=BED.name(), samples=samples,
                           medians=med), f, indent=1)
    shutil.rmtree(work, ignore_errors=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
