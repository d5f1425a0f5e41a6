#!/usr/bin/env python3
"""check_layers.py: the layer rules of README "Layout", checked.

Every `#include "..."` in src/, include/ and fuzz/ is read.  A header
include/LAYER/NAME.h is of LAYER; a source src/NAME.c (or a private
header src/NAME.h) is of the layer of the header named like it:
NAME.h, else the name cut at its last '_' (side_in_detail.c belongs with
codec/side.h), and so on.  src/main.c and fuzz/ are of cli, the top.

A file may include its own layer and those its layer's row below
allows; a header of include/ is named with its layer ("host/mtu.h"); a
bare name is only a private header beside the including file.  Fails,
naming the file and the line, on an include that breaks a rule, names a
header that does not exist, or comes from a file whose layer cannot be
told; or when a file of src/ or include/ is over MAX_LINES lines or a
function over MAX_FUNC (counted from the line that names it at the start
of a line, "name(", to its closing "}" at the start of a line, both
included: the house style puts the return type on the line above).
Only src/main.c may call exit() (a forked child that cannot
exec ends with _exit(), which is not the program exiting).

	python3 tests/check_layers.py [top]	# exit 0 clean, 1 broken
"""
import os
import re
import sys

# layer: the layers below it that it may include (its own always).
RULES = {
    "base": [],
    "codec": ["base"],
    "host": ["base"],
    "out": ["codec", "base"],
    "data": ["host", "base"],
    "wire": ["codec", "host", "base"],
    "run": ["data", "wire", "codec", "host", "base"],
    "cli": ["run", "out", "data", "wire", "codec", "host", "base"],
}
MAX_LINES = 600
MAX_FUNC = 80
FUNC_START = re.compile(r'^([A-Za-z_][A-Za-z0-9_]*)\(')
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')
# _exit() of a forked child whose exec failed is not the program exiting.
EXIT = re.compile(r'(?<![_\w])(exit|_Exit|err|errx)\s*\(')


def header_layers(top):
    """NAME.h -> layer, for every header of include/."""
    found = {}
    inc = os.path.join(top, "include")
    for layer in sorted(os.listdir(inc)):
        path = os.path.join(inc, layer)
        if not os.path.isdir(path):
            continue
        for name in os.listdir(path):
            if name.endswith(".h"):
                found[name] = layer
    return found


def layer_of(rel, headers):
    """The layer of a file given relative to top, or None."""
    parts = rel.split("/")
    if parts[0] == "include":
        return parts[1] if len(parts) == 3 else None
    if parts[0] == "fuzz" or rel == "src/main.c":
        return "cli"
    stem = os.path.splitext(parts[-1])[0]
    while True:
        if stem + ".h" in headers:
            return headers[stem + ".h"]
        if "_" not in stem:
            break
        stem = stem.rsplit("_", 1)[0]
    return None


def files(top):
    for d in ("src", "include", "fuzz"):
        for root, _, names in os.walk(os.path.join(top, d)):
            if os.sep + "corpus" in root or os.sep + "crashes" in root:
                continue
            for name in sorted(names):
                if name.endswith((".c", ".h")):
                    path = os.path.join(root, name)
                    yield path, os.path.relpath(path, top)


def check_size(rel, lines, problems):
    if rel.startswith("fuzz/"):
        return
    if len(lines) > MAX_LINES:
        problems.append(f"{rel}: {len(lines)} lines (at most {MAX_LINES})")
    name, start = None, 0
    for n, line in enumerate(lines, 1):
        m = FUNC_START.match(line)
        if m and not line.rstrip().endswith(";"):
            name, start = m.group(1), n
        elif name is not None and line.startswith("}"):
            if n - start + 1 > MAX_FUNC:
                problems.append(f"{rel}:{start}: {name}() is {n - start + 1}"
                                f" lines (at most {MAX_FUNC})")
            name = None


def check_file(path, rel, headers, problems):
    mine = layer_of(rel, headers)
    if mine is None:
        problems.append(f"{rel}: no layer: no header of include/ is named "
                        f"like it")
        return
    allowed = set(RULES[mine]) | {mine}
    here = os.path.dirname(path)
    with open(path, encoding="utf-8", errors="replace") as f:
        lines = f.read().split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    check_size(rel, lines, problems)
    for n, line in enumerate(lines, 1):
        m = INCLUDE.match(line)
        if m is None:
            if (rel.startswith("src/") and rel != "src/main.c"
                    and EXIT.search(line.split("//")[0])
                    and not line.lstrip().startswith(("*", "/*"))):
                problems.append(f"{rel}:{n}: only src/main.c exits: "
                                f"{line.strip()}")
            continue
        name = m.group(1)
        if "/" not in name:
            if not os.path.exists(os.path.join(here, name)):
                problems.append(f"{rel}:{n}: \"{name}\" does not exist "
                                f"beside it (a header of include/ is "
                                f"named with its layer)")
            elif rel.startswith("include/"):
                problems.append(f"{rel}:{n}: a header of include/ "
                                f"includes the private \"{name}\"")
            elif (name in headers or
                  layer_of(os.path.relpath(os.path.join(here, name), top_dir),
                           headers) not in (mine, None)):
                problems.append(f"{rel}:{n}: \"{name}\" is another "
                                f"layer's private header")
            continue
        layer, _, base = name.partition("/")
        if not os.path.exists(os.path.join(top_dir, "include", name)):
            problems.append(f"{rel}:{n}: include/{name} does not exist")
        elif layer not in RULES:
            problems.append(f"{rel}:{n}: {layer}/ is no layer")
        elif layer not in allowed:
            problems.append(f"{rel}:{n}: {mine} may not include {name} "
                            f"({mine} -> {', '.join(RULES[mine]) or 'nothing of ours'})")


top_dir = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else ".")


def main():
    headers = header_layers(top_dir)
    problems = []
    count = 0
    for path, rel in files(top_dir):
        count += 1
        check_file(path, rel, headers, problems)
    for p in problems:
        print("check-layers: " + p)
    print(f"check-layers: {count} files, {len(problems)} broken rule(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
