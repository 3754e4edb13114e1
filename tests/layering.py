#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The layout's one rule, checked on the built objects: a folder of src/
calls only folders below it (docs/architecture.md draws the stack).

  layering.py BUILD_DIR      BUILD_DIR/src/FOLDER/*.o, read with nm

Every symbol an object needs (nm's U) that another folder's object
defines (T, D, B, R, C) is a call or a use of that folder.  A use of a
folder on the same layer or above is printed with the objects and the
symbol, and the exit is 1.  Headers are not read: an inline function or
a macro in a shared header is the header's, not a call.
"""
import collections
import os
import re
import subprocess
import sys

# Lowest first.  A folder may use any folder on a lower line, never one on
# its own line (other than itself) or above.
LAYERS = [
    ["util"],        # strings, numbers, cpusets, sanitising what is printed
    ["facts"],       # the facts model, its derived views and its JSON
    ["parse"],       # pure parsers of command output and kernel files
    ["probe"],       # the only reads of the OS: netlink, ioctl, sysfs, procfs
    ["collect"],     # snapshot writers (collect, and the supportconfig converter)
    ["sources"],     # the source table: live, snapshot, sosreport, ...
    ["checks"],      # pure checks, their shared readers, the ceiling model
    ["engine"],      # the throughput engine (iperf3's protocol)
    ["fixes"],       # plan, journal, apply, revert: the only writes to the OS
    ["spread"],      # flows chosen to cover queues and bond members
    ["experiment"],  # traffic runs against suspects, verdicts, trials
    ["report"],      # the report document and its renderers
    ["diagnose"],    # the one pipeline
    ["peer", "watch"],
    ["cmd"],         # commands: flags, usage, exit codes
    ["main"],
]


TOP = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")


def folder_of(rel):
    parts = rel.split(os.sep)
    if len(parts) == 2 and parts[0] == "src":
        return parts[1][:-2] if parts[1] == "main.o" else "src"
    return parts[1] if len(parts) > 2 and parts[0] == "src" else None


def shared_headers_check():
    """include/nicdoctor/ holds only what more than one folder uses: a
    header one folder uses sits beside its code.  A public header that
    another public header includes counts that one's users too."""
    inc = os.path.join(TOP, "include", "nicdoctor")
    users = collections.defaultdict(set)      # header -> folders
    includes = collections.defaultdict(set)   # header -> headers it includes
    pat = re.compile(r'#include "nicdoctor/([^"]+)"')
    for root, _, files in os.walk(os.path.join(TOP, "src")):
        for name in files:
            if name.endswith((".c", ".h")):
                path = os.path.join(root, name)
                folder = folder_of(os.path.relpath(path, TOP)[:-2] + ".o")
                with open(path, encoding="utf-8", errors="replace") as f:
                    for h in pat.findall(f.read()):
                        users[h].add(folder)
    for name in os.listdir(inc):
        with open(os.path.join(inc, name), encoding="utf-8", errors="replace") as f:
            for h in pat.findall(f.read()):
                includes[name].add(h)
    changed = True
    while changed:
        changed = False
        for outer, inner in includes.items():
            for h in inner:
                if not users[outer] <= users[h]:
                    users[h] |= users[outer]
                    changed = True
    return ["include/nicdoctor/%s: used by %s only: its place is beside that code"
            % (name, ", ".join(sorted(users[name])) or "no folder")
            for name in sorted(os.listdir(inc)) if len(users[name]) < 2]


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: layering.py BUILD_DIR")
    build = sys.argv[1]
    level = {f: i for i, names in enumerate(LAYERS) for f in names}
    defined, needs = {}, collections.defaultdict(set)
    objects = 0
    for root, _, files in os.walk(os.path.join(build, "src")):
        for name in files:
            if not name.endswith(".o"):
                continue
            path = os.path.join(root, name)
            rel = os.path.relpath(path, build)
            # An object left behind by a file since moved or removed.
            if not os.path.exists(os.path.join(TOP, rel[:-2] + ".c")):
                continue
            folder = folder_of(rel)
            if folder not in level:
                print("%s: folder '%s' is on no layer (add it to LAYERS)" % (rel, folder))
                sys.exit(1)
            objects += 1
            out = subprocess.run(["nm", path], capture_output=True, text=True, check=True)
            for line in out.stdout.splitlines():
                f = line.split()
                if len(f) == 3 and f[1] in "TDBRC":
                    defined[f[2]] = (folder, rel)
                elif len(f) == 2 and f[0] == "U":
                    needs[(folder, rel)].add(f[1])
    bad = []
    # A stage's private headers sit beside its code: no folder reaches into
    # another's ("../checks/nic_common.h"); shared ones are include/nicdoctor/.
    src = os.path.join(TOP, "src")
    for root, _, files in os.walk(src):
        for name in files:
            if not name.endswith((".c", ".h")):
                continue
            path = os.path.join(root, name)
            with open(path, encoding="utf-8", errors="replace") as f:
                for lineno, text in enumerate(f, 1):
                    if text.startswith('#include "../'):
                        bad.append("%s:%d: includes another folder's private header: %s"
                                   % (os.path.relpath(path, os.path.join(src, "..")),
                                      lineno, text.strip()))
    bad += shared_headers_check()
    for (folder, rel), syms in sorted(needs.items()):
        for sym in sorted(syms):
            if sym not in defined:
                continue
            to, where = defined[sym]
            if to != folder and level[to] >= level[folder]:
                bad.append("%s (%s) uses %s (%s): %s" % (rel, folder, where, to, sym))
    for line in bad:
        print(line)
    print("%d objects, %d uses against the layers" % (objects, len(bad)))
    sys.exit(1 if bad or not objects else 0)


if __name__ == "__main__":
    main()
