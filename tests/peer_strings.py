#!/usr/bin/env python3
"""peer_strings.py: a peer may not write into the listener's log.

Issue 14, item 4, over loopback.  A fake client (hostile.py's Fake,
speaking the protocol learned from a real client) runs a 0.2 s test
against a real `gigebench -r -v` listener and ends it with a done
message whose side figures hold a newline, an ANSI colour escape
("\\x1b[31m") and an OSC title escape ("\\x1b]0;x\\x07") in one string
field at a time: the interface name, its irq list, its note, an irq
line's name, chip, actions and cpus, and a warning; then all of them at
once.  Each forged string carries a line "gigebench: FORGED <field>"
(or, where the decoder caps the length lower, "gigebench:!").

Must hold, for every case:
  - the listener's stdout and stderr hold no ESC byte (nor BEL) at all;
  - no line of them starts with the peer's "gigebench...: FORGED";
  - the listener either refuses the message naming the field (an error
    message to the client that holds the field's name) or prints the
    string made printable (the FORGED marker appears, tamed), or does
    not print that field at all;
  - a real 0.2 s test passes after each case.

    GIGEBENCH=build/gigebench python3 tests/peer_strings.py

About 15 s.  Prints "ok - ..." or "FAIL - ..." per check and ends with
"N passed, M failed"; exits 1 when a check failed.
"""

import copy
import os
import re
import shutil
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [HERE, os.path.join(HERE, "lib")]
import gbpeer  # noqa: E402  (listener, client, framing, tally)
import hostile  # noqa: E402  (the fake client)
from gbpeer import check  # noqa: E402

ESCAPES = "\x1b[31m red \x1b]0;x\x07"


# Fields whose size the decoder already caps below the long forgery
# get a short one (13 bytes) that still starts a line and escapes.
SHORT = {"interface.name", "lines.name", "lines.chip"}


def forged(field):
    if field in SHORT:
        return "\ngigebench:!\x1b[m"
    return "x\ngigebench: FORGED %s%s\nx" % (field, ESCAPES)


def set_iface(side, key, field):
    side["interface"][key] = forged(field)
    if key == "irq_list":
        side["interface"]["irq_lines"] = 1


def irq_line(side, key, field):
    line = {"name": "eth0-TxRx-0", "chip": "PCI-MSI", "actions":
            "eth0-TxRx-0", "count": 7, "cpus": "0", "shared": False}
    line[key] = forged(field)
    side["interface"]["lines"] = [line]
    side["interface"]["irq_lines"] = 1
    side["interface"]["irq_list"] = "42"


def warning(side, key, field):
    side["warnings"] = [forged(field)]


# (field name as the listener would name it, how to forge it)
CASES = [
    ("interface.name", lambda s: set_iface(s, "name", "interface.name")),
    ("irq_list", lambda s: set_iface(s, "irq_list", "irq_list")),
    ("note", lambda s: set_iface(s, "note", "note")),
    ("lines.name", lambda s: irq_line(s, "name", "lines.name")),
    ("lines.chip", lambda s: irq_line(s, "chip", "lines.chip")),
    ("lines.actions", lambda s: irq_line(s, "actions", "lines.actions")),
    ("lines.cpus", lambda s: irq_line(s, "cpus", "lines.cpus")),
    ("warnings", lambda s: warning(s, None, "warnings")),
]


def all_at_once(side):
    for _, f in CASES:
        f(side)


def fake_session(port, side):
    """A 0.2 s test sent by the fake, ended by a done with this side.

    Returns the listener's answers ("result", "error: ...", or how it
    ended) as one string."""
    f = hostile.Fake(port, streams=1, direction=0, duration_ms=200)
    try:
        f.setup()
        f.pump(0.2)
        f.finish_data()
        f.ctl.sendall(gbpeer.frame(hostile.DONE, {"side": side}))
        _, msgs = f.rd.outcome(3.0)
        return hostile.describe(msgs)
    except (OSError, ValueError, hostile.Closed, TimeoutError) as e:
        return "the session failed: %s" % e
    finally:
        f.close()


def real_test(port):
    r = gbpeer.client(port, "-l", "16K", "-T", "0.2", "-q", timeout=20)
    return r.rc, r.err


class Log:
    """The listener's stdout and stderr, read from where we left off."""

    def __init__(self, paths):
        self.paths = paths
        self.offs = [0] * len(paths)

    def new(self):
        out = b""
        for i, p in enumerate(self.paths):
            with open(p, "rb") as fh:
                fh.seek(self.offs[i])
                chunk = fh.read()
            self.offs[i] += len(chunk)
            out += chunk
        return out


FORGED_LINE = re.compile(rb"^gigebench[^ \n]*:( FORGED|!)", re.M)


def judge(name, field, answer, text):
    esc = text.count(b"\x1b") + text.count(b"\x07")
    check("%s: no ESC or BEL byte on the listener's stdout/stderr" % name,
          esc == 0, "%d found in: %r" % (esc, first_escape(text)))
    m = FORGED_LINE.search(text)
    check("%s: no forged line on the listener's stdout/stderr" % name,
          m is None, m and repr(text[max(0, m.start() - 60):m.end() + 40]))
    leaf = field.split(".")[-1]
    refused = answer.startswith("error") and leaf in answer
    shown = b"FORGED" in text or b"gigebench:!" in text
    check("%s: refused naming the field, or printed made printable" % name,
          refused or (esc == 0 and m is None),
          "answer %r" % answer)
    return refused, shown


def first_escape(text):
    i = text.find(b"\x1b")
    if i == -1:
        i = text.find(b"\x07")
    return text[max(0, i - 60):i + 40] if i != -1 else b""


def main():
    tmp = tempfile.mkdtemp(prefix="gigebench-peerstr.")
    try:
        lst = gbpeer.Listener(tmp, "-v", out=True)
        try:
            return cases(lst)
        finally:
            lst.stop()
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def cases(lst):
    port = lst.port
    ok, detail = hostile.learn_protocol(gbpeer.GB, port, ("-T", "0.2"))
    check("learn the protocol from a real client", ok, detail)
    if not ok:
        return 1
    log = Log([lst.out, lst.err])
    time.sleep(0.3)
    log.new()
    for field, forge in CASES + [("all fields at once", all_at_once)]:
        side = copy.deepcopy(hostile.SIDE)
        forge(side)
        answer = fake_session(port, side)
        time.sleep(0.3)
        refused, shown = judge(field, field, answer, log.new())
        print("# %s: listener answered %s; %s" % (
            field, answer[:160], "refused" if refused else
            "printed" if shown else "not printed"))
        rc, why = real_test(port)
        check("%s: a real test passes after it" % field, rc == 0,
              "exit %d: %s" % (rc, why))
        log.new()
    check("the listener is alive", lst.alive(), "exit %s" % lst.p.returncode)
    return 0


if __name__ == "__main__":
    gbpeer.run(main)
