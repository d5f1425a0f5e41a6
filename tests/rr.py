#!/usr/bin/env python3
"""rr.py: --rr (issue 18) against a real listener on loopback, TCP here
and -u in rr_udp.py (its cases run after these):

  counts      both ends count the same transactions, with -P 2 and a
              burst; the asker's latency histogram holds one sample for
              each (its buckets add up to the count), its percentiles are
              ordered min <= P50 <= P90 <= P99 <= P99.9 <= max, each
              bucket at most 3.125 % wide; each end's bytes are its
              transactions' requests and answers.
  text        the parameters line says rr, the sizes and the burst; each
              end's rr and per-transaction lines; the asker's latency
              line; the summary line in trans/s with P50 and P99.
  costs       per transaction: process and host CPU in us on each end.
  intervals   -i: each slice's transactions (the client's add up to
              its count), the client's P50 <= P99 <= max by slice, the
              listener's slice of each as "peer"; the text lines in
              trans/s with the percentiles and the other end's rate.
  refusals    answers larger than requests from a listener without
              --allow-reverse: exit 3, and the listener says why; -n,
              --omit with --rr and --request-size without it: exit 2; a
              burst over 128 KiB in flight: exit 2.
  sweep       --sweep request-size=1,1K --sweep burst=1,2 with --csv,
              --plot and -J: 4 points in cross-product order, each with
              its rr statistics; each run's JSON has its rr; 4 CSV rows
              whose parameters follow the axes, with the run's
              transactions, trans/s and ordered percentiles (the same
              as its JSON); the plot draws P50/P99 against request-size.
  repeat      one --rr test with --repeat 2, --csv and --plot: the
              table's --rr columns with a CI, 2 CSV rows, the latency
              CDF; --sweep burst= without --rr and --rr with --sweep
              length=: exit 2.

    GIGEBENCH=build/gigebench python3 tests/rr.py

About 20 s.  Prints "ok - ..." or "FAIL - ..." per check and ends with
"N passed, M failed"; exits 1 when a check failed.
"""

import csv
import json
import os
import re
import shutil
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [HERE, os.path.join(HERE, "lib")]
import gbpeer  # noqa: E402
import rr_udp  # noqa: E402
from gbpeer import check  # noqa: E402


def case_counts(tmp):
    lst = gbpeer.Listener(tmp, "--allow-reverse", probe="ss")
    try:
        r = gbpeer.client(lst.port, "--rr", "-T", "1", "-P", "2",
                          "--rr-burst", "4", "--request-size", "100",
                          "--response-size", "4K", "-J")
    finally:
        lst.stop()
    if not check("counts: the test runs", r.rc == 0, r.why()):
        return
    res = json.loads(r.out)["result"]
    rr = res.get("rr") or {}
    lat = rr.get("latency") or {}
    n = rr.get("transactions", 0)
    snd, rcv = res["sender"], res["receiver"]
    check("counts: both ends count the same transactions",
          n > 100 and snd["rr"]["transactions"] == n and
          rcv["rr"]["transactions"] == n, "%s %s %s" % (
              n, snd.get("rr"), rcv.get("rr")))
    check("counts: each end's bytes are its requests and answers",
          snd["bytes"] == n * 4196 and rcv["bytes"] == n * 4196,
          "%d %d %d" % (snd["bytes"], rcv["bytes"], n * 4196))
    b = lat.get("buckets_ns", [])
    check("counts: one latency a transaction, in buckets at most 3.125 % "
          "wide", lat.get("count") == n and sum(x[2] for x in b) == n and
          all(x[0] <= x[1] and (x[1] < 64 or
                                x[1] - x[0] + 1 <= x[0] / 32 + 1)
              for x in b) and lat.get("resolution_pct") == 3.125,
          str(lat)[:300])
    keys = ["min_us", "p50_us", "p90_us", "p99_us", "p99_9_us", "max_us"]
    vals = [lat.get(k, -1) for k in keys]
    check("counts: min <= P50 <= P90 <= P99 <= P99.9 <= max, mean within",
          vals == sorted(vals) and vals[0] > 0 and
          vals[0] <= lat.get("mean_us", -1) <= vals[-1], str(vals))
    check("counts: the rate and the sizes in JSON",
          rr.get("request_size") == 100 and rr.get("response_size") == 4096
          and rr.get("burst") == 4 and
          abs(rr.get("per_s", 0) - n / snd["seconds"]) < 1,
          str({k: v for k, v in rr.items() if k != "latency"}))
    ctx, crx = rr.get("per_transaction_tx"), rr.get("per_transaction_rx")
    check("costs: process and host CPU per transaction on each end",
          all(isinstance(c, dict) and c["cpu_us"] > 0 and
              c["host_cpu_us"] > 0 for c in (ctx, crx)), str((ctx, crx)))


def case_text(tmp):
    lst = gbpeer.Listener(tmp, probe="ss")
    try:
        r = gbpeer.client(lst.port, "--rr", "-T", "0.5")
    finally:
        lst.stop()
    if not check("text: the test runs", r.rc == 0, r.why()):
        return
    out = [l for l in r.out.splitlines() if l]
    check("text: the parameters line says rr, its sizes and burst",
          out[0].startswith("gigebench-t: rr request=1 response=1 burst=1 "
                            "streams=1 duration=0.50s nodelay=1 "), out[0])
    for pre in ("gigebench-t", "gigebench-r"):
        check("text: %s's rr and per-transaction lines" % pre,
              any(re.match(r"^%s: rr \d+ transactions in [\d.]+ s = "
                           r"[\d.]+ /s, request 1 B, answer 1 B, burst 1$"
                           % pre, l) for l in out) and
              any(re.match(r"^%s: per transaction: [\d.]+ us process cpu, "
                           r"[\d.]+ us host cpu, " % pre, l) for l in out),
              "\n".join(out))
    check("text: the asker's latency line",
          any(re.match(r"^gigebench-t: latency min [\d.]+ us, mean [\d.]+, "
                       r"P50 [\d.]+, P90 [\d.]+, P99 [\d.]+, P99.9 [\d.]+, "
                       r"max [\d.]+ us \(\d+ samples, buckets 3.125 % wide\)$",
                       l) for l in out), "\n".join(out))
    check("text: the summary line in trans/s with P50 and P99",
          re.match(r"^ *[\d.]+ trans/s P50 [\d.]+ us P99 [\d.]+ us \d+ %TX "
                   r"\d+ %RX \S+ irq/trans-TX \S+ irq/trans-RX$", out[-1])
          is not None, out[-1])


def case_intervals(tmp):
    lst = gbpeer.Listener(tmp, probe="ss")
    try:
        j = gbpeer.client(lst.port, "--rr", "-T", "1.5", "-i", "0.5", "-J")
        t = gbpeer.client(lst.port, "--rr", "-T", "1", "-i", "0.5")
    finally:
        lst.stop()
    if not check("intervals: the tests run", j.rc == 0 and t.rc == 0,
                 j.why() + t.why()):
        return
    doc = json.loads(j.out)
    ivs = doc.get("intervals") or []
    n = doc["result"]["rr"]["transactions"]
    check("intervals: three slices, their transactions add up",
          len(ivs) == 3 and all(iv["transactions"] > 0 for iv in ivs) and
          sum(iv["transactions"] for iv in ivs) == n,
          "%s / %d" % ([iv.get("transactions") for iv in ivs], n))
    lat = [iv.get("latency") or {} for iv in ivs]
    check("intervals: the client's P50 <= P99 <= max by slice",
          all(0 < x.get("p50_us", 0) <= x.get("p99_us", -1) <=
              x.get("max_us", -2) for x in lat), str(lat))
    check("intervals: the listener's slice of each, its transactions",
          all(isinstance(iv.get("peer"), dict) and
              iv["peer"]["transactions"] > 0 and
              iv["peer"]["latency"] is None for iv in ivs),
          str([iv.get("peer") for iv in ivs])[:300])
    out = [l for l in t.out.splitlines()
           if re.match(r"^gigebench-t: +\d+\.\d\d- *\d", l)]
    check("intervals: the text lines in trans/s, percentiles, both ends",
          len(out) == 2 and all(re.search(
              r"sec +[\d.]+ trans/s  P50 [\d.]+ us P99 [\d.]+ us max "
              r"[\d.]+ us  RX +[\d.]+ trans/s  host \d+/\d+ %TX \d+/\d+ "
              r"%RX$", l) for l in out), "\n".join(out))


def case_refusals(tmp):
    lst = gbpeer.Listener(tmp, probe="ss")
    try:
        r = gbpeer.client(lst.port, "--rr", "-T", "0.3", "--response-size",
                          "2")
        ok = gbpeer.client(lst.port, "--rr", "-T", "0.3", "--request-size",
                           "2", "--response-size", "2")
    finally:
        lst.stop()
    check("refusals: answers larger than requests, no --allow-reverse: "
          "exit 3, says why", r.rc == 3 and "--allow-reverse" in r.err and
          ok.rc == 0, r.why() + ok.why())
    port = gbpeer.free_port()
    for args, what in ((["-n", "10"], "-n"),
                       (["--omit", "1"], "--omit"),
                       (["--rr-burst", "64", "--request-size", "2K",
                         "--response-size", "2K"], "128 KiB")):
        u = gbpeer.client(port, "--rr", *args)
        check("refusals: --rr %s: exit 2, says why" % " ".join(args),
              u.rc == 2 and what in u.err, u.why())
    p = gbpeer.client(port, "--request-size", "10")
    check("refusals: --request-size without --rr: exit 2",
          p.rc == 2 and "needs --rr" in p.err, p.why())


def csv_rows(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def ordered_pcts(row):
    v = [float(row["latency_" + k + "_us"]) for k in
         ("min", "p50", "p90", "p99", "p999", "max")]
    return all(a <= b for a, b in zip(v, v[1:]))


def case_sweep(tmp):
    lst = gbpeer.Listener(tmp, probe="ss")
    csvp, svg = os.path.join(tmp, "sw.csv"), os.path.join(tmp, "sw.svg")
    try:
        r = gbpeer.client(lst.port, "--rr", "-T", "0.4", "--sweep",
                          "request-size=1,1K", "--sweep", "burst=1,2",
                          "--csv", csvp, "--plot", svg, "-J", timeout=40)
    finally:
        lst.stop()
    if not check("sweep: 4 --rr points run, exit 0", r.rc == 0, r.why()):
        return
    doc = json.loads(r.out)
    pts, runs = doc["points"], doc["runs"]
    want = [{"request-size": a, "burst": b} for a in (1, 1024)
            for b in (1, 2)]
    check("sweep: JSON points in cross-product order, each with its rr",
          [p["values"] for p in pts] == want and all(
              p["rr"] and p["rr"]["trans_per_s"]["n"] == 1 and
              p["rr"]["trans_per_s"]["mean"] > 0 and
              p["rr"]["p50_us"]["mean"] <= p["rr"]["p99_us"]["mean"]
              for p in pts), json.dumps(pts)[:400])
    check("sweep: each run's JSON has its rr at the point's sizes",
          len(runs) == 4 and all(
              u["result"]["rr"]["request_size"] == want[i]["request-size"]
              and u["result"]["rr"]["burst"] == want[i]["burst"]
              for i, u in enumerate(runs)), json.dumps(runs)[:300])
    rows = csv_rows(csvp)
    ok = len(rows) == 4
    for i, row in enumerate(rows if ok else []):
        res = runs[i]["result"]["rr"]
        ok = ok and row["request-size"] == str(want[i]["request-size"]) \
            and row["request_size"] == row["request-size"] \
            and row["rr_burst"] == str(want[i]["burst"]) \
            and int(row["rr_transactions"]) == res["transactions"] \
            and abs(float(row["rr_trans_per_s"]) - res["per_s"]) < \
            1e-6 * res["per_s"] and ordered_pcts(row) \
            and float(row["rr_tx_cpu_us_per_trans"]) > 0 \
            and row["error"] == ""
    check("sweep: 4 CSV rows with the point's sizes, its transactions, "
          "trans/s and ordered percentiles", ok, str(rows)[:600])
    if shutil.which("gnuplot"):
        with open(svg) as f:
            pic = f.read()
        check("sweep: the plot draws --rr latency against request-size",
              "--rr latency vs request-size" in pic and ">P99<" in pic,
              pic[:200])


def case_repeat(tmp):
    lst = gbpeer.Listener(tmp, probe="ss")
    csvp, svg = os.path.join(tmp, "one.csv"), os.path.join(tmp, "cdf.svg")
    try:
        r = gbpeer.client(lst.port, "--rr", "-T", "0.3", "--repeat", "2",
                          "--csv", csvp, "--plot", svg, timeout=30)
    finally:
        lst.stop()
    if not check("repeat: --rr --repeat 2 runs, exit 0", r.rc == 0,
                 r.why()):
        return
    out = r.out.splitlines()
    check("repeat: the table has --rr's columns and a CI of 2 runs",
          len(out) == 2 and out[0].startswith("trans/s (95% CI)") and
          "P99 us" in out[0] and "irq/trans-RX" in out[0] and
          re.match(r"[0-9.]+ \+- [0-9.]+ +[0-9.]+ +[0-9.]+ ", out[1]),
          r.out)
    rows = csv_rows(csvp)
    check("repeat: 2 CSV rows, repeat 0 and 1, percentiles ordered",
          [x["repeat"] for x in rows] == ["0", "1"] and
          all(ordered_pcts(x) and x["protocol"] == "tcp" for x in rows),
          str(rows)[:400])
    if shutil.which("gnuplot"):
        with open(svg) as f:
            pic = f.read()
        check("repeat: the plot is the latency CDF of both runs",
              "latency CDF, %d transactions" % sum(
                  int(x["rr_transactions"]) for x in rows) in pic,
              pic[:200])
    port = gbpeer.free_port()
    u = gbpeer.client(port, "--sweep", "burst=1,2")
    v = gbpeer.client(port, "--rr", "--sweep", "length=1,2")
    check("repeat: --sweep burst= without --rr, --rr with --sweep "
          "length=: exit 2", u.rc == 2 and "needs --rr" in u.err and
          v.rc == 2 and "is not for --rr" in v.err, u.why() + v.why())


def main():
    tmp = tempfile.mkdtemp(prefix="gigebench-rr.")
    try:
        case_counts(tmp)
        case_text(tmp)
        case_intervals(tmp)
        case_refusals(tmp)
        case_sweep(tmp)
        case_repeat(tmp)
        rr_udp.cases(tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    gbpeer.run(main)
