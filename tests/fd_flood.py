#!/usr/bin/env python3
"""fd_flood.py: descriptor exhaustion may not defeat the per-source caps
(issue 14, item 2), over loopback, against a real `gigebench -r -v`
listener started under RLIMIT_NOFILE 64 (ulimit -n 64).

A silent flood from 6 sources (127.0.0.2-7) x 16 connections (96, more
than the descriptors the listener has), each reopened as soon as the
listener closes it.  Must hold:

  - the listener says at start (with -v) what its pending caps are,
    derived from its descriptor limit: a line naming "pending" and a
    number;
  - with the flood running, 5 of 5 real 0.2 s tests from 127.0.0.1
    succeed, each within 1.5 s of its start (started within 1 s);
  - the listener is alive after it.

    GIGEBENCH=build/gigebench python3 tests/fd_flood.py

About 20 s.  Prints "ok - ..." or "FAIL - ..." per check and ends with
"N passed, M failed"; exits 1 when a check failed.
"""

import os
import re
import resource
import select
import shutil
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [HERE, os.path.join(HERE, "lib")]
import gbpeer  # noqa: E402  (listener, client, tally)
import hostile  # noqa: E402  (connect from a chosen source)
from gbpeer import check  # noqa: E402

NOFILE = 64
SOURCES = ["127.0.0.%d" % i for i in range(2, 8)]
PER_SOURCE = 16


def limit_nofile():
    resource.setrlimit(resource.RLIMIT_NOFILE, (NOFILE, NOFILE))


class Flood(threading.Thread):
    """PER_SOURCE silent connections from each source, kept topped up."""

    def __init__(self, port):
        super().__init__(daemon=True)
        self.port = port
        self.stop = threading.Event()
        self.socks = {src: [] for src in SOURCES}
        self.opened = 0
        self.closed = 0

    def top_up(self):
        for src, lst in self.socks.items():
            while len(lst) < PER_SOURCE and not self.stop.is_set():
                try:
                    s = hostile.connect(self.port, src, timeout=0.5)
                except OSError:
                    break
                s.setblocking(False)
                lst.append(s)
                self.opened += 1

    def reap(self):
        every = [s for lst in self.socks.values() for s in lst]
        if not every:
            time.sleep(0.05)
            return
        r, _, _ = select.select(every, [], [], 0.05)
        for s in r:
            try:
                if s.recv(4096):
                    continue
            except BlockingIOError:
                continue
            except OSError:
                pass
            for lst in self.socks.values():
                if s in lst:
                    lst.remove(s)
            s.close()
            self.closed += 1

    def run(self):
        while not self.stop.is_set():
            self.top_up()
            self.reap()
        for lst in self.socks.values():
            for s in lst:
                s.close()


def real_test(port):
    r = gbpeer.client(port, "-l", "16K", "-T", "0.2", "-q", timeout=20)
    return r.rc, r.err, r.secs


def main():
    tmp = tempfile.mkdtemp(prefix="gigebench-fdflood.")
    lst = None
    flood = None
    try:
        lst = gbpeer.Listener(tmp, "-v", preexec_fn=limit_nofile)
        port = lst.port
        time.sleep(0.2)
        start = lst.log()
        check("the listener reports its pending caps at start (-v)",
              re.search(r"pending[^\n]*\d", start) is not None,
              "its log: %r" % start[:300])
        flood = Flood(port)
        flood.start()
        time.sleep(2.0)
        results = []
        for _ in range(5):
            results.append(real_test(port))
            time.sleep(0.3)
        good = [r for r in results if r[0] == 0 and r[2] <= 1.5]
        check("5 of 5 real tests succeed within 1.5 s under a %d x %d "
              "silent flood, ulimit -n %d" % (len(SOURCES), PER_SOURCE,
                                              NOFILE),
              len(good) == 5,
              "%d of 5; %s; flood opened %d, closed by the listener %d" % (
                  len(good), "; ".join("exit %d in %.2f s%s" % (
                      r[0], r[2], (": " + r[1][:100]) if r[0] else "")
                      for r in results), flood.opened, flood.closed))
        check("the listener is alive", lst.alive(),
              "exit %s" % lst.p.returncode)
    finally:
        if flood is not None:
            flood.stop.set()
            flood.join(5)
        if lst is not None:
            lst.stop()
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    gbpeer.run(main)
