"""rr_udp.py: -u --rr (issue 18, UDP) against a real listener on
loopback; rr.py runs these cases after its TCP ones (check-rr).

  udp counts     -P 2 --rr-burst 4: the client's requests are its answered
                 plus its lost (0 here); the listener's answers sent are
                 the client's answered; one latency an answer; the JSON
                 keys by a parser (timeout_ms, requests, lost, late,
                 answers_sent, stray_tx, stray_rx, unsent_tx, unsent_rx;
                 null over TCP); each
                 end's bytes are its requests and answers.
  udp text       the parameters line with the timeout; each end's "rr udp"
                 line; the summary line's lost/req, late and msTimeout.
  udp loss       through a proxy (lib/udpproxy.py) that drops requests 100,
                 300 and 500 and answers 200, 400 and 600, holds answer 700
                 1.5 s, past the 1 s timeout, and adds a stray of the stream's own
                 source after request 50 and 51 (another test's token; a
                 short one): lost is exactly 7, late exactly 1, requests =
                 answered + lost, the listener's answers sent = answered +
                 3 dropped + 1 late, its requests taken = requests - 3, its
                 strays 2 and none answered (the client's strays 0); the
                 latencies are the answered ones' only (count = answered,
                 max under the timeout).
  udp refusals   sizes under the 40-byte header or over 65507: exit 2,
                 naming the minimum; --rr-timeout without -u --rr, 0, or
                 over 10000: exit 2; -R with -u --rr: exit 2; answers larger
                 than requests from a listener without --allow-reverse:
                 exit 3; a listener of --max-rate: exit 3, saying that -u
                 --rr cannot be paced.
  udp strangers  100 datagrams from another source to the listener's port
                 while -u --rr runs: the listener's strays (stray_rx) are
                 exactly 100, and none is answered.
"""

import json
import re
import socket
import time

import gbpeer
import udpproxy
from gbpeer import check

KEYS = ("timeout_ms", "requests", "lost", "late", "answers_sent",
        "stray_tx", "stray_rx", "unsent_tx", "unsent_rx")


def case_udp_counts(tmp):
    lst = gbpeer.Listener(tmp, probe="ss")
    try:
        # A timeout no scheduling stall on a shared machine reaches, so
        # that nothing is lost on loopback and the counts are exact.
        r = gbpeer.client(lst.port, "-u", "--rr", "-T", "1", "-P", "2",
                          "--rr-burst", "4", "--request-size", "100",
                          "--response-size", "64", "--rr-timeout", "5000",
                          "-J")
        t = gbpeer.client(lst.port, "--rr", "-T", "0.3", "-J")
    finally:
        lst.stop()
    if not check("udp counts: the tests run", r.rc == 0 and t.rc == 0,
                 r.why() + t.why()):
        return
    res = json.loads(r.out)["result"]
    rr = res["rr"]
    n = rr["transactions"]
    snd, rcv = res["sender"]["rr"], res["receiver"]["rr"]
    check("udp counts: requests = answered + lost, answers sent = answered",
          n > 100 and rr["requests"] == n + rr["lost"] and
          rr["lost"] == 0 and rr["late"] == 0 and rr["answers_sent"] == n
          and snd["transactions"] == n and rcv["transactions"] == n,
          str({k: rr.get(k) for k in KEYS + ("transactions",)}))
    check("udp counts: the JSON keys, the timeout",
          all(k in rr for k in KEYS) and rr["timeout_ms"] == 5000 and
          rr["stray_tx"] == 0 and rr["stray_rx"] == 0 and
          rr["unsent_tx"] == 0 and rr["unsent_rx"] == 0 and
          snd["udp"]["timeout_ms"] == 5000 and
          rcv["udp"]["timeout_ms"] is None and rcv["udp"]["lost"] is None,
          str((rr.get("timeout_ms"), snd, rcv)))
    check("udp counts: one latency an answer",
          rr["latency"]["count"] == n, str(rr["latency"].get("count")))
    check("udp counts: the data paths, each end's bytes",
          res["sender"]["data_path"] == "udp_rr_ask" and
          res["receiver"]["data_path"] == "udp_rr_answer" and
          res["sender"]["bytes"] == n * 164 and
          res["receiver"]["bytes"] == n * 164,
          "%s %s %d" % (res["sender"]["bytes"], res["receiver"]["bytes"],
                        n * 164))
    trr = json.loads(t.out)["result"]["rr"]
    check("udp counts: over TCP the same keys are null",
          all(k in trr and trr[k] is None for k in KEYS) and
          json.loads(t.out)["result"]["sender"]["rr"]["udp"] is None,
          str({k: trr.get(k) for k in KEYS}))


def case_udp_text(tmp):
    lst = gbpeer.Listener(tmp, probe="ss")
    try:
        r = gbpeer.client(lst.port, "-u", "--rr", "-T", "0.5",
                          "--rr-timeout", "250")
    finally:
        lst.stop()
    if not check("udp text: the test runs", r.rc == 0, r.why()):
        return
    out = [l for l in r.out.splitlines() if l]
    check("udp text: the parameters line says the timeout",
          out[0].startswith("gigebench-t: rr request=40 response=40 burst=1 "
                            "streams=1 timeout=250ms duration=0.50s "), out[0])
    check("udp text: the client's rr udp line",
          any(re.match(r"^gigebench-t: rr udp \d+ requests: \d+ answered, "
                       r"\d+ lost \(no answer within 250 ms\), \d+ late, "
                       r"\d+ stray, \d+ unsent$", l) for l in out),
          "\n".join(out))
    check("udp text: the listener's rr udp line",
          any(re.match(r"^gigebench-r: rr udp \d+ requests taken, \d+ "
                       r"answered, \d+ unsent, \d+ stray \(not answered\)$",
                       l)
              for l in out), "\n".join(out))
    check("udp text: no stream udp line (gaps mean nothing here)",
          not any(re.match(r"^gigebench-[tr]: udp ", l) for l in out),
          "\n".join(out))
    check("udp text: the summary line's loss, late and timeout",
          re.match(r"^ *[\d.]+ trans/s P50 [\d.]+ us P99 [\d.]+ us \d+ %TX "
                   r"\d+ %RX \S+ irq/trans-TX \S+ irq/trans-RX \d+ / \d+ "
                   r"lost/req \d+ late 250 msTimeout$", out[-1]) is not None,
          out[-1])


def stray_of(d, n):
    """After request 50, the same with another token; after 51, cut."""
    if n == 50:
        return [d[:8] + bytes(b ^ 0xff for b in d[8:24]) + d[24:]]
    if n == 51:
        return [d[:-1]]
    return []


def case_udp_loss(tmp):
    lst = gbpeer.Listener(tmp, probe="ss")
    # Eight in flight: the six losses hold six slots for the timeout, two
    # go on; answer 700 comes 1.5 s late, well before the test's end.
    px = udpproxy.Proxy(lst.port, drop_req={100, 300, 500},
                        drop_ans={200, 400, 600}, delay_ans={700: 1.5},
                        inject=stray_of)
    try:
        r = gbpeer.client(px.port, "-u", "--rr", "-T", "3",
                          "--rr-burst", "8", "--rr-timeout", "1000", "-J")
    finally:
        px.stop()
        lst.stop()
    if not check("udp loss: the test runs through the proxy", r.rc == 0,
                 r.why()):
        return
    res = json.loads(r.out)["result"]
    rr = res["rr"]
    n = rr["transactions"]
    got = {k: rr.get(k) for k in KEYS + ("transactions",)}
    check("udp loss: the proxy did what it was told (%d requests)" %
          px.nreq, px.dropped_req == 3 and px.dropped_ans == 3 and
          px.delayed_ans == 1 and px.injected == 2,
          "%d %d %d %d" % (px.dropped_req, px.dropped_ans, px.delayed_ans,
                           px.injected))
    check("udp loss: lost exactly 7 (3 requests, 3 answers, 1 held), "
          "late exactly 1", rr["lost"] == 7 and rr["late"] == 1, str(got))
    check("udp loss: requests = answered + lost",
          rr["requests"] == n + rr["lost"], str(got))
    check("udp loss: the listener's answers = answered + 3 dropped + 1 late",
          rr["answers_sent"] == n + 4 and
          res["receiver"]["rr"]["udp"]["requests"] == rr["requests"] - 3,
          "%s %s" % (got, res["receiver"]["rr"]))
    check("udp loss: the strays of the stream's source counted, none "
          "answered", rr["stray_rx"] == 2 and rr["stray_tx"] == 0, str(got))
    lat = rr["latency"]
    check("udp loss: latencies only of the answered (count, max < 1 s)",
          lat["count"] == n and lat["max_us"] < 1000000,
          "%s %s" % (lat.get("count"), lat.get("max_us")))


def case_udp_refusals(tmp):
    port = gbpeer.free_port()
    for args, what in ((["--request-size", "39"], "40-65507 bytes"),
                       (["--response-size", "39"], "40-byte header"),
                       (["--request-size", "65508"], "out of range"),
                       (["-R", "1m"], "-R"),
                       (["--rr-timeout", "0"], "--rr-timeout"),
                       (["--rr-timeout", "10001"], "--rr-timeout")):
        u = gbpeer.client(port, "-u", "--rr", *args)
        check("udp refusals: -u --rr %s: exit 2, says why" % " ".join(args),
              u.rc == 2 and what in u.err, u.why())
    for args in (["--rr"], ["-u"]):
        u = gbpeer.client(port, *args, "--rr-timeout", "100")
        check("udp refusals: --rr-timeout with %s alone: exit 2" % args[0],
              u.rc == 2 and "--rr-timeout: needs -u --rr" in u.err, u.why())
    lst = gbpeer.Listener(tmp, probe="ss")
    try:
        r = gbpeer.client(lst.port, "-u", "--rr", "-T", "0.3",
                          "--response-size", "41")
    finally:
        lst.stop()
    check("udp refusals: answers larger than requests, no --allow-reverse: "
          "exit 3", r.rc == 3 and "--allow-reverse" in r.err, r.why())
    lst = gbpeer.Listener(tmp, "--max-rate", "1m", probe="ss")
    try:
        r = gbpeer.client(lst.port, "-u", "--rr", "-T", "0.3")
    finally:
        lst.stop()
    check("udp refusals: a listener of --max-rate: exit 3, says -u --rr "
          "cannot be paced (no advice to give -R)", r.rc == 3 and
          "cannot be paced" in r.err and "give -R" not in r.err, r.why())


def case_udp_strangers(tmp):
    """Junk from another source while -u --rr runs: counted, unanswered."""
    lst = gbpeer.Listener(tmp, probe="ss")
    junk = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    answers = 0
    try:
        c = gbpeer.client_start(lst.port, "-u", "--rr", "-T", "1.5",
                                "--json-stream")
        c.stdout.readline()             # "start": the test runs
        time.sleep(0.2)
        for _ in range(100):
            junk.sendto(b"not a gigebench datagram", (gbpeer.HOST, lst.port))
        junk.settimeout(0.3)
        try:
            while True:
                junk.recv(2048)
                answers += 1
        except OSError:
            pass
        r = gbpeer.client_wait(c)
    finally:
        junk.close()
        lst.stop()
    if not check("udp strangers: the test runs", r.rc == 0, r.why()):
        return
    rr = json.loads(r.out.splitlines()[-1])["report"]["result"]["rr"]
    check("udp strangers: 100 datagrams from another source counted as "
          "the listener's strays, none answered",
          rr["stray_rx"] == 100 and answers == 0,
          "stray_rx %s, answers %d" % (rr["stray_rx"], answers))


def cases(tmp):
    case_udp_counts(tmp)
    case_udp_text(tmp)
    case_udp_loss(tmp)
    case_udp_refusals(tmp)
    case_udp_strangers(tmp)
