#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Paste the fix blocks of text reports into a shell (t1015).

  fix-paste.py fixtures ND WORK      every fixture the golden set reads and
                                     every blind case, text and text -v
  fix-paste.py report TEXT JSON WORK one report: TEXT as printed, JSON the
                                     same diagnosis's --json

A block is the headline's "To fix it:" (the binding finding's fix, from
throughput.bottleneck) or a finding's "fix (KIND):" lines.  Each must (a)
pass `sh -n` and (b) run, in a shell whose PATH holds only recording stubs
(ethtool, tc, ip, sysctl, ...), exactly what the finding's fix.commands
run: the same commands with the same arguments, the same writes to /proc
and /sys, the same output, no error (a wrapped comment that runs as a
command is "not found").  Every line of the report fits 80 columns.  The shell runs as nobody in a mount namespace
whose /proc and /sys are empty tmpfs, so nothing reaches the host.

Prints one line per problem and "checked N blocks"; exit 1 on a problem.
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "golden"))
import golden  # noqa: E402  (the fixture list and interface order)

STUBS = ("ethtool", "tc", "ip", "sysctl", "lspci", "setpci", "grep", "nmcli", "systemctl",
         "teamdctl", "iperf3", "nicdoctor", "ping", "cat", "tee", "sed", "awk", "head",
         "irqbalance", "modprobe", "cpupower", "echo", "printf")
# one write a line: the two ends of a pipeline record at once
STUB = """#!/bin/sh
line=${0##*/}
for a in "$@"; do line="$line <$a>"; done
printf '%s\\n' "$line" >>"$REC"
"""
TAG = re.compile(r"^\[(?: OK |INFO| \?\? |WARN|CRIT|skip| NA )\] (\S+)  ")
FIX = re.compile(r"^ {7}fix \(([^)]*)\):$")
HEADLINE = re.compile(r"^To fix it(, on the far host)?:$")
REDIRECT = re.compile(r">\s*(/[^\s;&|]+)")


def run_recorded(script, work, dirs):
    """What script runs: sorted stub records, files written, stdout, stderr."""
    d = tempfile.mkdtemp(dir=work)
    os.chmod(d, 0o755)
    stubs = os.path.join(d, "bin")
    os.mkdir(stubs)
    for name in STUBS:
        path = os.path.join(stubs, name)
        with open(path, "w") as f:
            f.write(STUB)
        os.chmod(path, 0o755)
    rec = os.path.join(d, "rec")
    open(rec, "w").close()
    os.chmod(rec, 0o666)
    with open(os.path.join(d, "script.sh"), "w") as f:
        f.write(script)
    inner = (
        "set -e; mount -t tmpfs nd-proc /proc; mount -t tmpfs nd-sys /sys; "
        'for dir in "$@"; do mkdir -p "$dir"; chmod 777 "$dir"; done; '
        "chmod 777 /proc /sys; "
        "set +e; "
        "setpriv --reuid=65534 --regid=65534 --clear-groups "
        f"env -i PATH={stubs} REC={rec} HOME=/ /bin/sh {d}/script.sh "
        f">{d}/out 2>{d}/err </dev/null; "
        "find /proc /sys -type f | sort | while read -r file; do "
        f'printf "%s=%s\\n" "$file" "$(cat "$file")"; done >{d}/files')
    p = subprocess.run(["unshare", "-m", "--propagation", "private", "sh", "-c", inner,
                        "sh"] + sorted(dirs), capture_output=True, text=True)
    if p.returncode:
        raise RuntimeError("the recording shell failed: " + p.stderr.strip())

    def read(name):
        with open(os.path.join(d, name)) as f:
            return f.read()
    out = (sorted(read("rec").splitlines()), read("files"), read("out"), read("err"))
    shutil.rmtree(d)
    return out


def blocks(text):
    """(kind, finding id or None, in the far-end section, block text)."""
    lines = text.splitlines()
    current, far, i = None, False, 0
    while i < len(lines):
        line = lines[i]
        if line.startswith("Far end ("):
            far = True
        m = TAG.match(line)
        if m:
            current = m.group(1)
        head, fix = HEADLINE.match(line), FIX.match(line)
        if head or fix:
            indent = 4 if head else 9
            body = []
            i += 1
            while i < len(lines) and lines[i].startswith(" " * indent) and lines[i].strip():
                if not head and TAG.match(lines[i]):
                    break
                body.append(lines[i][indent:])
                i += 1
            yield ("headline" if head else "finding", None if head else current,
                   far or bool(head and head.group(1)), "\n".join(body) + "\n")
            continue
        i += 1


def finding_of(doc, fid, far):
    if far:
        doc = ((doc.get("peer") or {}).get("report")) or {}
    for f in doc.get("findings", []):
        if f.get("id") == fid:
            return f
    return None


def check_report(text, doc, work, label):
    """Problems of one report's blocks, and how many blocks were checked."""
    problems, checked, seen = [], 0, set()
    for n, line in enumerate(text.splitlines(), 1):
        if len(line) > 80:
            problems.append("%s: line %d is over 80 columns: %r" % (label, n, line))
    bottleneck = ((doc.get("throughput") or {}).get("bottleneck")) or {}
    for kind, fid, far, block in blocks(text):
        if kind == "headline":
            fid = bottleneck.get("id")
        where = "%s: %s block of %s" % (label, kind, fid)
        f = finding_of(doc, fid, far)
        commands = ((f or {}).get("fix") or {}).get("commands") or []
        if not commands:
            problems.append(where + ": the JSON has no fix commands for it")
            continue
        seen.add((kind, fid, far))
        checked += 1
        p = subprocess.run(["sh", "-n"], input=block, capture_output=True, text=True)
        if p.returncode:
            problems.append("%s: sh -n: %s\n%s" % (where, p.stderr.strip(), block))
            continue
        dirs = set()
        for c in commands:
            for target in REDIRECT.findall(c):
                if not target.startswith(("/proc/", "/sys/")):
                    problems.append("%s: writes %s, outside /proc and /sys: not run" %
                                    (where, target))
                dirs.add(os.path.dirname(target))
        if any(w.startswith(where + ": writes") for w in problems):
            continue
        want = run_recorded("\n".join(commands) + "\n", work, dirs)
        got = run_recorded(block, work, dirs)
        if want[3]:
            problems.append("%s: the JSON's commands fail in the stub shell (add a stub?): %s"
                            % (where, want[3].strip()))
        if got != want:
            problems.append("%s: pasted, it runs\n  %s\nnot the JSON's\n  %s\nblock:\n%s" %
                            (where, got, want, block))
    # every warning's fix is printed (the default view shows them all)
    for f in doc.get("findings", []):
        fix = f.get("fix") or {}
        if (f.get("severity") in ("warning", "critical") and fix.get("commands") and
                ("finding", f["id"], False) not in seen):
            problems.append("%s: %s is %s with a fix, but no fix block is printed" %
                            (label, f["id"], f["severity"]))
    if bottleneck.get("id") and not any(k == "headline" for k, _, _ in seen):
        b = finding_of(doc, bottleneck["id"], bottleneck.get("host") == "far end")
        if ((b or {}).get("fix") or {}).get("commands"):
            problems.append("%s: no 'To fix it:' block for the bottleneck %s" %
                            (label, bottleneck["id"]))
    return problems, checked


def diagnose(nd, fixture, ifname, flags):
    p = subprocess.run([nd, "diagnose", ifname, "--sysroot", fixture, "--color=never"] + flags,
                       capture_output=True, text=True, env=dict(os.environ, LC_ALL="C"))
    return p.stdout


def fixtures(nd, work):
    cases = []
    root = golden.FIXTURES
    for name in sorted(os.listdir(root)):
        path = os.path.join(root, name)
        if os.path.isdir(path) and name not in ("raw", "netdev", "blind"):
            cases += [(path, i) for i in golden.ifaces(nd, path)]
    blind = os.path.join(root, "blind")
    with open(os.path.join(blind, "expected.tsv")) as f:
        for line in f:
            if re.match(r"^[a-z0-9]", line):
                name, ifname = line.split()[:2]
                cases.append((os.path.join(blind, name), ifname))
    problems, checked = [], 0
    for path, ifname in cases:
        doc = json.loads(diagnose(nd, path, ifname, ["--json"]))
        for flags in ([], ["-v"]):
            label = "%s %s %s" % (os.path.relpath(path, root), ifname, " ".join(flags))
            p, n = check_report(diagnose(nd, path, ifname, flags), doc, work, label.strip())
            problems += p
            checked += n
    return problems, checked, len(cases)


def main():
    if len(sys.argv) == 4 and sys.argv[1] == "fixtures":
        problems, checked, cases = fixtures(sys.argv[2], sys.argv[3])
        print("checked %d blocks of %d reports" % (checked, cases))
        # the fixtures hold a dozen fixes at least: a parser that finds none is broken
        if checked < 12:
            problems.append("only %d blocks found" % checked)
    elif len(sys.argv) == 5 and sys.argv[1] == "report":
        with open(sys.argv[2]) as f:
            text = f.read()
        with open(sys.argv[3]) as f:
            doc = json.load(f)
        problems, checked = check_report(text, doc, sys.argv[4], "report")
        print("checked %d blocks" % checked)
    else:
        sys.exit(__doc__)
    for p in problems:
        print(p)
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
