#!/usr/bin/env python3
"""bidir.py: --bidir (issue 18) against a real listener on loopback:

  counts      TCP, -P 2: each direction's bytes counted equal by its
              sender and its receiver, on the client and in the
              listener's own --json; both directions moved data; each
              end's streams are -P of each way; the listener's copy has
              the same four byte counts.
  hosts       each host's CPU and interface figures are the same in both
              directions (one host, one CPU); irq/pkt over both
              directions' packets (n/a on lo, with the reason), and the
              by-direction split says why it cannot split lo.
  count       -n: each stream of each direction moves exactly -n
              buffers.
  text        the params line says bidir; the reverse block's params
              line says "<-" on the client; two summary lines, "(bidir,
              sent)" then "(bidir, received)"; -q prints just those two.
  udp         -u --bidir -P 2 at a rate loopback carries: each
              direction's datagrams sent equal those received, no loss.
  sweep       --sweep streams=1,2 --repeat 2 --csv: the table has the
              reverse direction's rate, each CSV row bidir 1 with its
              rev_ figures.
  psk         a listener with --psk serves it without --allow-reverse;
              the sealed done and result messages carry both directions.
  refusals    a listener without --allow-reverse: exit 3, says why; one
              whose --max-streams is under 2 x -P: exit 3 naming --bidir;
              --rr, --capture and -P 5001 with --bidir: exit 2.
  intervals   -i: each direction's slices apart, this end's adding up to
              its bytes, each with the listener's slice of the same
              direction as "peer" (its bytes adding up to the listener's),
              marked reverse or not; the text has a line for each slice
              of each direction, with the other end's rate.

    GIGEBENCH=build/gigebench python3 tests/bidir.py

About 15 s.  Prints "ok - ..." or "FAIL - ..." per check and ends with
"N passed, M failed"; exits 1 when a check failed.
"""

import csv
import json
import os
import shutil
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [HERE, os.path.join(HERE, "lib")]
import gbpeer  # noqa: E402
from gbpeer import check  # noqa: E402


def four(res):
    """The four byte counts: forward sender, receiver; reverse ones."""
    rev = res.get("reverse") or {}
    return [(s or {}).get("bytes", -1) for s in (
        res.get("sender"), res.get("receiver"), rev.get("sender"),
        rev.get("receiver"))]


def case_counts(tmp):
    lst = gbpeer.Listener(tmp, "--allow-reverse", "-J", "-1", out=True,
                          probe="ss")
    try:
        r = gbpeer.client(lst.port, "--bidir", "-T", "1", "-P", "2",
                          "-l", "128K", "-J")
        lst.p.wait(timeout=10)	# -1: its report out, it exits
    finally:
        lst.stop()
    if not check("counts: the test runs", r.rc == 0, r.why()):
        return None
    res = json.loads(r.out)["result"]
    b = four(res)
    check("counts: each direction's bytes equal on its two ends, both "
          "directions moved data", b[0] == b[1] and b[2] == b[3] and
          min(b) > 1 << 20, str(b))
    rev = res["reverse"]
    check("counts: -P 2 streams each way, their bytes add up",
          all(len(s["streams"]) == 2 and sum(x["bytes"] for x in
                                             s["streams"]) == s["bytes"]
              for s in (res["sender"], res["receiver"], rev["sender"],
                        rev["receiver"])),
          str([len(s.get("streams", [])) for s in (
              res["sender"], res["receiver"], rev["sender"],
              rev["receiver"])]))
    check("counts: the reverse direction's mbps is its receiver's",
          abs(rev["mbps"] - rev["receiver"]["mbps"]) < 1e-6 and
          rev["bytes"] == b[3], "%s %s" % (rev.get("mbps"), b))
    with open(lst.out) as f:
        lres = json.loads(f.read())["result"]
    check("counts: the listener's report has the same four counts",
          four(lres) == b, "%s %s" % (four(lres), b))
    check("counts: params say bidir",
          json.loads(r.out)["params"].get("bidir") is True, "")
    return res


def case_hosts(res):
    if res is None:
        return
    rev = res["reverse"]
    same = [(res["sender"], rev["receiver"]), (res["receiver"],
                                               rev["sender"])]
    keys = ("host_cpu", "cpu", "interface", "packets", "interrupts",
            "softirq", "irq_per_packet")
    check("hosts: each host's CPU and interface the same both ways",
          all(a[k] == b[k] for a, b in same for k in keys),
          str([(a["host_cpu"], b["host_cpu"]) for a, b in same])[:300])
    s = res["sender"]
    check("hosts: irq/pkt n/a on lo (no lines), packets counted",
          s["irq_per_packet"] is None and s["packets"]["rx"] > 0 and
          s["packets"]["tx"] > 0, str(s["packets"]))
    split = res.get("irq_by_direction") or {}
    check("hosts: irq by direction says why lo is not split",
          all((split.get(k) or {}).get("note") == "no interrupt lines" and
              split[k]["rx_irq_per_packet"] is None
              for k in ("sender", "receiver")), str(split))


def case_count(tmp):
    lst = gbpeer.Listener(tmp, "--allow-reverse", probe="ss")
    try:
        r = gbpeer.client(lst.port, "--bidir", "-n", "50", "-l", "64K",
                          "-P", "2", "-J")
    finally:
        lst.stop()
    if not check("count: the test runs", r.rc == 0, r.why()):
        return
    res = json.loads(r.out)["result"]
    want = 50 * 65536
    got = [[x["bytes"] for x in s["streams"]] for s in (
        res["sender"], res["receiver"], res["reverse"]["sender"],
        res["reverse"]["receiver"])]
    check("count: every stream of both directions moves -n buffers",
          all(v == [want, want] for v in got), str(got))


def case_text(tmp):
    lst = gbpeer.Listener(tmp, "--allow-reverse", probe="ss")
    try:
        r = gbpeer.client(lst.port, "--bidir", "-T", "0.5")
        q = gbpeer.client(lst.port, "--bidir", "-T", "0.5", "-q")
    finally:
        lst.stop()
    if not check("text: the tests run", r.rc == 0 and q.rc == 0,
                 r.why() + q.why()):
        return
    out = r.out.splitlines()
    heads = [l for l in out if " buflen=" in l]
    check("text: four params lines, each saying bidir; the client's "
          "reverse one says it received",
          len(heads) == 4 and all(" bidir " in l for l in heads) and
          heads[0].startswith("gigebench-t:") and "-> 127.0.0.1" in
          heads[0] and "<- 127.0.0.1" in heads[3], "\n".join(heads))
    summ = [l for l in out if " MB / " in l]
    check("text: two summary lines, sent then received",
          len(summ) == 2 and summ[0].endswith("(bidir, sent)") and
          summ[1].endswith("(bidir, received)"), "\n".join(summ))
    check("text: the hosts' cpu lines once, not again in the reverse "
          "block", sum(1 for l in out if " cpu " in l and "process" in l)
          == 2, r.out[-600:])
    check("text: irq by direction, a line per host",
          sum(1 for l in out if "irq by direction: n/a (no interrupt "
              "lines)" in l) == 2, r.out[-600:])
    qo = q.out.splitlines()
    check("text: -q prints the two summary lines only",
          len(qo) == 2 and all(" MB / " in l for l in qo), q.out)


def case_udp(tmp):
    lst = gbpeer.Listener(tmp, "--allow-reverse", probe="ss")
    try:
        r = gbpeer.client(lst.port, "-u", "--bidir", "-T", "1", "-P", "2",
                          "-l", "1400", "-R", "20m", "-b", "2M", "-J")
    finally:
        lst.stop()
    if not check("udp: the test runs", r.rc == 0, r.why()):
        return
    res = json.loads(r.out)["result"]
    rev = res["reverse"]
    sent = [res["sender"]["udp"]["datagrams"], rev["sender"]["udp"][
        "datagrams"]]
    got = [res["receiver"]["udp"]["datagrams"], rev["receiver"]["udp"][
        "datagrams"]]
    check("udp: each direction's datagrams sent arrive, none lost",
          sent == got and min(sent) > 2000 and res["udp"]["lost"] == 0 and
          rev["udp"]["lost"] == 0, "%s %s" % (sent, got))


def case_intervals(tmp):
    lst = gbpeer.Listener(tmp, "--allow-reverse", probe="ss")
    try:
        r = gbpeer.client(lst.port, "--bidir", "-T", "2", "-i", "0.5",
                          "-l", "128K", "-J")
        t = gbpeer.client(lst.port, "--bidir", "-T", "1", "-i", "0.5",
                          "-l", "128K")
    finally:
        lst.stop()
    if not check("intervals: the tests run", r.rc == 0 and t.rc == 0,
                 r.why() + t.why()):
        return
    doc = json.loads(r.out)
    res = doc["result"]
    fwd, rev = doc.get("intervals", []), res["reverse"].get("intervals", [])
    check("intervals: 4 slices each way, marked",
          len(fwd) == 4 and len(rev) == 4 and
          not any(i["reverse"] for i in fwd) and
          all(i["reverse"] for i in rev), "%d %d" % (len(fwd), len(rev)))
    check("intervals: each direction's slices add up to this end's bytes",
          sum(i["bytes"] for i in fwd) == res["sender"]["bytes"] and
          sum(i["bytes"] for i in rev) == res["reverse"]["receiver"][
              "bytes"], "%d %d" % (sum(i["bytes"] for i in fwd),
                                   sum(i["bytes"] for i in rev)))
    # Within 5 %, as results.py allows: the listener's last sliver joins
    # its slice before after that one went out.
    pf = sum(i["peer"]["bytes"] for i in fwd if i.get("peer"))
    pr = sum(i["peer"]["bytes"] for i in rev if i.get("peer"))
    lf, lr = res["receiver"]["bytes"], res["reverse"]["sender"]["bytes"]
    check("intervals: the listener's slices of each direction, as peer, "
          "add up to its bytes (within 5 %)",
          all(i.get("peer") for i in fwd + rev) and
          0.95 * lf <= pf <= lf and 0.95 * lr <= pr <= lr and
          all(i["peer"]["reverse"] for i in rev) and
          all(i["peer"]["tcp"] for i in rev),
          "%d/%d %d/%d" % (pf, lf, pr, lr))
    lines = [l for l in t.out.splitlines() if " sec " in l]
    check("intervals: text lines for both directions with the other end",
          sum(1 for l in lines if l.startswith("gigebench-t:") and
              " RX " in l) == 2 and
          sum(1 for l in lines if l.startswith("gigebench-r:") and
              " TX " in l and " retrans " in l) == 2, "\n".join(lines))


def case_sweep(tmp):
    csvp = os.path.join(tmp, "b.csv")
    lst = gbpeer.Listener(tmp, "--allow-reverse", probe="ss")
    try:
        r = gbpeer.client(lst.port, "--bidir", "-T", "0.3", "--sweep",
                          "streams=1,2", "--repeat", "2", "--csv", csvp)
    finally:
        lst.stop()
    if not check("sweep: a --bidir sweep runs", r.rc == 0, r.why()):
        return
    head = r.out.splitlines()[0]
    rows = [l.split() for l in r.out.splitlines()[1:] if l.strip()]
    check("sweep: the table has the reverse direction's rate",
          "reverse Mbps" in head and len(rows) == 2 and
          all(float(x[4]) > 0 for x in rows), r.out)
    with open(csvp, newline="") as f:
        recs = list(csv.DictReader(f))
    check("sweep: each CSV row has both directions",
          len(recs) == 4 and all(x["bidir"] == "1" and
                                 float(x["rev_mbps"]) > 0 and
                                 int(x["rev_bytes"]) > 0 and
                                 float(x["mbps"]) > 0 for x in recs),
          str([(x.get("bidir"), x.get("rev_mbps")) for x in recs]))


def case_psk(tmp):
    key = os.path.join(tmp, "k.psk")
    with open(key, "w") as f:
        f.write("a bidir test's shared key, 0123456789\n")
    os.chmod(key, 0o600)
    lst = gbpeer.Listener(tmp, "--psk", key, probe="ss")
    try:
        r = gbpeer.client(lst.port, "--bidir", "-T", "0.5", "--psk", key,
                          "-J")
    finally:
        lst.stop()
    if not check("psk: a keyed listener serves --bidir without "
                 "--allow-reverse", r.rc == 0, r.why()):
        return
    b = four(json.loads(r.out)["result"])
    check("psk: the sealed results carry both directions", b[0] == b[1]
          and b[2] == b[3] and min(b) > 0, str(b))


def case_refusals(tmp):
    lst = gbpeer.Listener(tmp, probe="ss")
    small = gbpeer.Listener(tmp, "--allow-reverse", "--max-streams", "3",
                            probe="ss")
    try:
        r = gbpeer.client(lst.port, "--bidir", "-T", "0.3")
        m = gbpeer.client(small.port, "--bidir", "-T", "0.3", "-P", "2")
        ok = gbpeer.client(small.port, "--bidir", "-T", "0.3")
    finally:
        lst.stop()
        small.stop()
    check("refusals: a listener without --allow-reverse: exit 3, says why",
          r.rc == 3 and "--allow-reverse" in r.err, r.why())
    check("refusals: --max-streams 3 and --bidir -P 2: exit 3, says "
          "--bidir; -P 1 runs", m.rc == 3 and "--bidir" in m.err and
          "4 flows" in m.err and ok.rc == 0, m.why() + ok.why())
    port = gbpeer.free_port()
    for args, what in ((["--rr"], "--rr"),
                       (["--capture"], "--capture"),
                       (["-P", "5001"], "at most 5000")):
        u = gbpeer.client(port, "--bidir", *args)
        check("refusals: --bidir %s: exit 2, says why" % " ".join(args),
              u.rc == 2 and what in u.err, u.why())


def main():
    tmp = tempfile.mkdtemp(prefix="gigebench-bidir.")
    try:
        case_hosts(case_counts(tmp))
        case_count(tmp)
        case_text(tmp)
        case_udp(tmp)
        case_intervals(tmp)
        case_sweep(tmp)
        case_psk(tmp)
        case_refusals(tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    gbpeer.run(main)
