#!/usr/bin/env python3
"""csv_injection.py: the CSV files gigebench writes, fed hostile text,
read back with Python's csv module as a spreadsheet or pandas would
(issue 31; the cell writer is csv_cell, out/csv.h):

  merge    `gigebench merge --csv` of tests/fixtures/merge/hostile.json,
           a copy of mesh/h1-h2.json whose two runs' provenance names the
           hosts "=cmd|' /C calc'!A0" -> "+1,2" and '@x"y' -> "-3", with
           hostile titles.
  test     `--csv` of a real loopback test (a --once listener on
           127.0.0.1) with --title '=1+2,"x"'.

For both: the header as it always was; every row as many columns as the
header; each hostile text cell reads back as "'" and the original (the
original itself when it does not start with = + - @ TAB CR); every
numeric column parses as a float, or is empty (not measured); no cell
starts with = + - @ TAB or CR unless it is in a numeric column.

    GIGEBENCH=build/gigebench python3 tests/csv_injection.py

About 2 s.  Prints "ok - ..." or "FAIL - ..." per check and ends with
"N passed, M failed"; exits 1 when a check failed.
"""

import csv
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [HERE, os.path.join(HERE, "lib")]
import gbpeer  # noqa: E402
from gbpeer import check  # noqa: E402

FIXTURE = os.path.join(HERE, "fixtures", "merge", "hostile.json")
# Below the ephemeral range and used by no other test (they use 5000,
# 5001, 5101, 5103, 5201, 5211, 5300, 5400, 5401); a free port of
# gbpeer's when something else holds it.
PORT = 5731
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")

MERGE_HEADER = ["sender", "receiver", "runs", "failed", "mbps", "cpu_rx",
                "outlier", "why"]
MERGE_TEXT = {"sender", "receiver", "why"}
# csv.c's text columns (no sweep here, so no cc or rate axis).
TEST_TEXT = {"direction", "cc", "protocol", "tx_interface", "rx_interface",
             "tx_profile_top", "rx_profile_top", "diagnosis", "error",
             "time_utc", "peer", "title"}


def defused(s):
    """What a text cell holding s must read back as."""
    return "'" + s if s.startswith(FORMULA_START) else s


def read_csv(path):
    """The rows of path as lists, or [] when it cannot be read."""
    try:
        with open(path, newline="") as f:
            return list(csv.reader(f))
    except (OSError, csv.Error) as e:
        check("%s reads as CSV" % os.path.basename(path), False, str(e))
        return []


def is_number(cell):
    try:
        float(cell)
        return True
    except ValueError:
        return False


def check_shape(what, rows, text_cols):
    """Column counts, numeric columns, and no formula start in text."""
    if not check("%s: a header and rows" % what, len(rows) >= 2, str(rows)):
        return
    head = rows[0]
    bad = [i for i, r in enumerate(rows) if len(r) != len(head)]
    check("%s: every row has the header's %d columns" % (what, len(head)),
          not bad, "rows %s" % bad)
    numeric = [i for i, c in enumerate(head) if c not in text_cols]
    notnum = ["%s=%r" % (head[i], r[i]) for r in rows[1:] for i in numeric
              if i < len(r) and r[i] != "" and not is_number(r[i])]
    check("%s: the %d numeric columns parse as floats (or are empty)" %
          (what, len(numeric)), not notnum, ", ".join(notnum[:5]))
    starts = ["%s=%r" % (head[i], c) for r in rows[1:]
              for i, c in enumerate(r)
              if i not in numeric and c.startswith(FORMULA_START)]
    check("%s: no text cell starts with = + - @ TAB or CR" % what,
          not starts, ", ".join(starts[:5]))


def case_merge(tmp):
    path = os.path.join(tmp, "merge.csv")
    p = subprocess.run([gbpeer.GB, "merge", "--csv", path, FIXTURE],
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                       timeout=20)
    if not check("merge: exit 0 on the hostile fixture", p.returncode == 0,
                 "exit %d: %s" % (p.returncode, p.stderr.decode()[:300])):
        return
    rows = read_csv(path)
    check("merge: the header is unchanged",
          rows[:1] == [MERGE_HEADER], str(rows[:1]))
    check_shape("merge", rows, MERGE_TEXT)
    hosts = ["=cmd|' /C calc'!A0", "+1,2", '@x"y', "-3"]
    senders = sorted({r[0] for r in rows[1:]})
    check("merge: each hostile host reads back as ' and its name",
          senders == sorted(defused(h) for h in hosts) and
          sorted({r[1] for r in rows[1:]}) == senders, str(senders))
    check("merge: 12 ordered pairs of the 4 hosts", len(rows) == 13,
          "%d rows" % len(rows))
    pairs = {(r[0], r[1]): r for r in rows[1:] if len(r) == 8}
    a = pairs.get((defused(hosts[0]), defused(hosts[1])), [])
    b = pairs.get((defused(hosts[2]), defused(hosts[3])), [])
    check("merge: the measured pairs keep their rates",
          a[2:5] == ["1", "0", "930.2"] and b[2:5] == ["1", "0", "941.3"],
          "%s %s" % (a, b))
    check("merge: the other pairs say why they have no rate",
          sum(1 for r in rows[1:] if r[7:] == ["no result"]) == 10,
          str([r[7:] for r in rows[1:]]))


def start_listener(tmp):
    """`gigebench -r --once -q` on PORT (or a free port when it is held):
    (process, port), once it listens."""
    port = PORT
    s = socket.socket()
    # SO_REUSEADDR, as the listener has: a connection of the last run in
    # TIME_WAIT does not hold the port, a listener does.
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        s.bind((gbpeer.HOST, port))
    except OSError:
        port = gbpeer.free_port()
        print("# port %d is held; using %d" % (PORT, port))
    finally:
        s.close()
    err = open(os.path.join(tmp, "listener.err"), "wb")
    try:
        p = subprocess.Popen([gbpeer.GB, "-r", "--once", "-q", "-p",
                              str(port)], stdout=subprocess.DEVNULL,
                             stderr=err)
    finally:
        err.close()
    for _ in range(50):
        if gbpeer.listening(port, "ss") or p.poll() is not None:
            break
        time.sleep(0.1)
    return p, port


def case_test(tmp):
    path = os.path.join(tmp, "test.csv")
    title = '=1+2,"x"'
    lst, port = start_listener(tmp)
    try:
        if not check("test: a --once listener on port %d" % port,
                     lst.poll() is None and
                     gbpeer.listening(port, "ss")):
            return
        r = gbpeer.client(port, "-T", "0.3", "-q", "--csv", path,
                          "--title", title)
        check("test: the client's test runs", r.rc == 0, r.why())
        try:
            rc = lst.wait(5)
        except subprocess.TimeoutExpired:
            rc = None
        check("test: the listener served one test and exited 0", rc == 0,
              "exit %s" % rc)
    finally:
        if lst.poll() is None:
            lst.kill()
        lst.wait()
    rows = read_csv(path)
    check("test: the header ends as it always did",
          rows[:1] and rows[0][-5:] ==
          ["diagnosis", "error", "time_utc", "peer", "title"],
          str(rows[:1])[-200:])
    check("test: one row", len(rows) == 2, "%d rows" % len(rows))
    check_shape("test", rows, TEST_TEXT)
    row = dict(zip(rows[0], rows[1])) if len(rows) == 2 else {}
    check("test: the title reads back as ' and the title",
          row.get("title") == defused(title) == "'" + title,
          repr(row.get("title")))
    check("test: the plain text cells are as they were",
          row.get("peer") == "127.0.0.1" and row.get("protocol") == "tcp"
          and row.get("direction") == "client_sends", str(row)[:300])
    with open(path, "rb") as f:
        raw = f.read()
    check("test: on disk, the title is quoted, the ' inside, quotes doubled",
          raw.endswith(b',"\'=1+2,""x"""\r\n'), repr(raw[-60:]))


def main():
    tmp = tempfile.mkdtemp(prefix="gigebench-csv.")
    try:
        case_merge(tmp)
        case_test(tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    gbpeer.run(main)
