#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The reports of every fixture, kept byte for byte (tests/golden/).

  golden.py check ND    compare what ND prints with the kept files
  golden.py update ND   write them anew (after a change meant to alter a report)

For every fixture under tests/fixtures/ that diagnose can read, and every
interface it holds, the JSON report; for its first interface also the text
(-v), markdown and prometheus renderings.  A layout change, a refactor or a
new source must leave all of them as they were (issue 21: "the JSON report
of every fixture is byte-identical before and after").  The tool's version
is the one line that may differ: it is masked.
"""
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURES = os.path.join(HERE, "..", "fixtures")
VERSION = re.compile(rb'("version":\s*")[^"]*(")|(nicdoctor )\d+\.\d+(\.\d+)*'
                     rb'|(version=")[^"]*(")')


def ifaces(nd, fixture):
    """The interfaces diagnose lists for an unknown name, in its order."""
    p = subprocess.run([nd, "diagnose", "nd-no-such-if", "--sysroot", fixture, "--json"],
                       capture_output=True)
    m = re.search(rb"it has: ([^\n]*)", p.stderr)
    if not m:
        return []
    return [n.decode() for n in re.split(rb"[ ,]+", m.group(1).strip()) if n]


def mask(out):
    return VERSION.sub(_mask, out)


def _mask(m):
    s = m.group(0)
    if s.startswith(b'"version"'):
        return m.group(1) + b"VERSION" + m.group(2)
    if s.startswith(b"version="):
        return m.group(5) + b"VERSION" + m.group(6)
    return b"nicdoctor VERSION"


def renderings(nd, fixture):
    names = ifaces(nd, fixture)
    for i, name in enumerate(names):
        runs = [("json", ["--json"])]
        if i == 0:
            runs += [("txt", ["-v", "--color=never"]), ("md", ["--format", "markdown"]),
                     ("prom", ["--format", "prometheus"])]
        for ext, flags in runs:
            p = subprocess.run([nd, "diagnose", name, "--sysroot", fixture] + flags,
                               capture_output=True, env=dict(os.environ, LC_ALL="C"))
            body = mask(p.stdout) + b"\n# exit %d\n" % p.returncode
            yield "%s.%s" % (name, ext), body


def main():
    if len(sys.argv) != 3 or sys.argv[1] not in ("check", "update"):
        sys.exit("usage: golden.py check|update ND")
    mode, nd = sys.argv[1], sys.argv[2]
    seen, differ = 0, []
    for fixture in sorted(os.listdir(FIXTURES)):
        path = os.path.join(FIXTURES, fixture)
        if not os.path.isdir(path) or fixture in ("raw", "netdev"):
            continue
        outdir = os.path.join(HERE, fixture)
        for name, body in renderings(nd, path):
            seen += 1
            kept = os.path.join(outdir, name)
            if mode == "update":
                os.makedirs(outdir, exist_ok=True)
                with open(kept, "wb") as f:
                    f.write(body)
                continue
            try:
                with open(kept, "rb") as f:
                    old = f.read()
            except OSError:
                old = None
            if old != body:
                differ.append(os.path.relpath(kept, HERE))
    if mode == "update":
        print("wrote %d reports" % seen)
        return
    for d in differ:
        print("differs: tests/golden/%s" % d)
    print("%d reports, %d differ" % (seen, len(differ)))
    sys.exit(1 if differ or not seen else 0)


if __name__ == "__main__":
    main()
