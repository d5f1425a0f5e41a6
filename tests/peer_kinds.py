#!/usr/bin/env python3
"""peer_kinds.py: a native listener meets what is not gigebench (issue 16).

A native listener (`gigebench -r`, default verbosity) must not take raw
streams, and must say, in one line per source, what connected:

  1. a classic ttcp sender (gigebench --ttcp -t -s, the real thing on
     the wire): "a classic ttcp sender (its -s pattern)" with the hint
     "'gigebench --ttcp -r' receives it"; the sender fails, nothing is
     taken as a test;
  2. a raw stream (random bytes): "a raw stream", with the hint;
  3. the real iperf3 client: "an iperf3 client (its 37-byte cookie)";
  4. the real nuttcp client: "a nuttcp client (its HELO line)";
  5. HTTP, TLS and SSH openings, and 3 bytes then a close ("unknown");
  6. the log is per source and rate-limited: three raw streams more
     from one source add no line; a real test right after still works;
  7. the other way round: a native client against a --ttcp receiver
     (which reads the hello as data and answers nothing) exits 3 with
     "no reply from 127.0.0.1:PORT in 5 s: is a gigebench listener
     running there? (a classic ttcp receiver needs --ttcp)";
  8. a listener given -b and -l warns that the connecting side decides
     them, and still serves.

Each opening comes from its own 127.0.0.x source, so that the per-source
limit does not hide one kind behind another.

    GIGEBENCH=build/gigebench python3 tests/peer_kinds.py
"""

import os
import random
import socket
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "lib"))
import gbpeer                       # noqa: E402
from gbpeer import check            # noqa: E402


def send_from(src, port, data, linger=0.3):
    """Connect from src, send data, wait for the close (or linger s)."""
    s = socket.socket()
    s.bind((src, 0))
    s.settimeout(3)
    s.connect((gbpeer.HOST, port))
    try:
        s.sendall(data)
        end = time.monotonic() + linger
        while time.monotonic() < end:
            if not s.recv(4096):
                break
    except OSError:
        pass
    s.close()


def lines_for(lst, src):
    return [ln for ln in lst.log().splitlines()
            if ln.startswith("gigebench: %s: not gigebench" % src)]


def wait_line(lst, src, limit=3.0):
    end = time.monotonic() + limit
    while time.monotonic() < end:
        got = lines_for(lst, src)
        if got:
            return got
        time.sleep(0.05)
    return []


def run(args, timeout=15):
    try:
        p = subprocess.run(args, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, timeout=timeout)
        return p.returncode, p.stderr.decode(errors="replace")
    except subprocess.TimeoutExpired:
        return -1, "timed out"


def main():
    tmp = tempfile.mkdtemp(prefix="gb-kinds.")
    lst = gbpeer.Listener(tmp, probe="ss")
    try:
        port = lst.port
        rc, err = run([gbpeer.GB, "--ttcp", "-t", "-s", "-n", "2000", "-l",
                       "65536", "-p", str(port), gbpeer.HOST])
        got = wait_line(lst, "127.0.0.1")
        check("1. a --ttcp -t -s sender is named a classic ttcp sender, "
              "with the hint (%r)" % got[:1],
              len(got) == 1 and "a classic ttcp sender (its -s pattern)"
              in got[0] and "'gigebench --ttcp -r' receives it" in got[0])
        check("1. the sender fails, not taken as a test (exit %d)" % rc,
              rc == 1 and "test started" not in lst.log(), err[-200:])

        rnd = bytes(random.getrandbits(8) for _ in range(4096))
        send_from("127.0.0.2", port, rnd)
        got = wait_line(lst, "127.0.0.2")
        check("2. random bytes: a raw stream, with the hint (%r)" % got[:1],
              len(got) == 1 and "a raw stream" in got[0] and
              "--ttcp -r" in got[0])

        rc, err = run(["iperf3", "-c", gbpeer.HOST, "-p", str(port), "-B",
                       "127.0.0.3", "-t", "1"])
        got = wait_line(lst, "127.0.0.3")
        check("3. the iperf3 client is named (%r)" % got[:1],
              len(got) == 1 and "an iperf3 client (its 37-byte cookie)"
              in got[0], err[-200:])

        # nuttcp cannot choose its source: from 127.0.0.1 after a minute
        # would be hidden by 1., so a listener of its own
        lst2 = gbpeer.Listener(tmp, probe="ss")
        try:
            rc, err = run(["nuttcp", "-T1", "-P", str(lst2.port),
                           gbpeer.HOST])
            got = wait_line(lst2, "127.0.0.1")
            check("4. the nuttcp client is named (%r)" % got[:1],
                  len(got) == 1 and "a nuttcp client (its HELO line)"
                  in got[0], err[-200:])
        finally:
            lst2.stop()

        openings = [
            ("127.0.0.4", b"GET / HTTP/1.1\r\nHost: x\r\n\r\n",
             "an HTTP client"),
            ("127.0.0.5", bytes([0x16, 0x03, 0x01, 0x00, 0xc8, 0x01, 0x00,
                                 0x00, 0xc4, 0x03, 0x03]) + bytes(200),
             "a TLS client"),
            ("127.0.0.6", b"SSH-2.0-OpenSSH_9.2p1 Debian-2+deb12u3\r\n",
             "an SSH client"),
            ("127.0.0.7", b"\x01\x02\x03", "nothing known"),
        ]
        for src, data, want in openings:
            send_from(src, port, data)
            got = wait_line(lst, src)
            check("5. %s is named (%r)" % (want, got[:1]),
                  len(got) == 1 and "looks like %s" % want in got[0])

        for _ in range(3):
            send_from("127.0.0.2", port, rnd)
        time.sleep(0.5)
        got = lines_for(lst, "127.0.0.2")
        check("6. three more raw streams from 127.0.0.2 add no line "
              "(%d lines)" % len(got), len(got) == 1)
        r = gbpeer.client(port, "-T", "0.3", "-q")
        check("6. a real test right after works", r.rc == 0, r.why(200))
    finally:
        lst.stop()

    # 7. a native client against a classic-style receiver
    port = gbpeer.free_port()
    rx = subprocess.Popen([gbpeer.GB, "--ttcp", "-r", "-s", "-p", str(port)],
                          stdout=subprocess.DEVNULL,
                          stderr=subprocess.DEVNULL)
    try:
        for _ in range(100):
            if gbpeer.listening(port, "ss"):
                break
            time.sleep(0.05)
        r = gbpeer.client(port, "-T", "1")
        want = ("no reply from 127.0.0.1:%d in 5 s: is a gigebench listener "
                "running there? (a classic ttcp receiver needs --ttcp)" % port)
        check("7. a native client against --ttcp -r: exit 3 with the cause",
              r.rc == 3 and want in r.err, r.why(300))
    finally:
        rx.kill()
        rx.wait()

    # 8. client-decided options on a listener
    lst = gbpeer.Listener(tmp, "-b", "1M", "-l", "64K", probe="ss")
    try:
        r = gbpeer.client(lst.port, "-T", "0.3", "-q")
        check("8. a listener given -b and -l warns, naming them",
              "gigebench: warning: the connecting side decides -b, -l: "
              "a listener ignores them" in lst.log(), lst.log()[-300:])
        check("8. and still serves", r.rc == 0, r.why(200))
    finally:
        lst.stop()


if __name__ == "__main__":
    gbpeer.run(main)
