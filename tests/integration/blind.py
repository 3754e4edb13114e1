#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""blind.py ND DIR [FIRST]: the blind set of real cases (issue 22), as TAP.

For every row of DIR/expected.tsv, diagnose the case's interface from its
sosreport-shaped tree and check the headline (the binding finding's check
ID), that finding's severity and its fix.  A row marked known-wrong:PART
prints its tests with "# TODO PART" (TAP: not counted as failures), so
the gap shows while the suite stays green; when such a case passes, its
lines read "ok ... # TODO" and the mark should go.  Tests are numbered
after FIRST (the caller's own tests); the plan is the caller's: the last
number goes to $TRASH/.blind-count for test-lib's test_done.
"""
import json
import os
import subprocess
import sys

SEVERITY_RANK = {"ok": 0, "info": 1, "unknown": 1, "warning": 2, "critical": 3}


def rows(path):
    with open(path) as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            cols = line.rstrip("\n").split("\t")
            cols = [c for c in cols if c != ""]
            if len(cols) != 7:
                raise SystemExit("expected.tsv: 7 columns wanted: %r" % line)
            yield dict(zip(("case", "iface", "headline", "severity", "fix", "fix_cmd",
                            "status"), cols))


def headline(doc):
    """The binding finding: the run's bottleneck, else the first finding
    of the worst severity at warning or above."""
    tp = doc.get("throughput") or {}
    bid = (tp.get("bottleneck") or {}).get("id")
    findings = [f for f in doc.get("findings", []) if not f.get("skipped")]
    if bid:
        return next((f for f in findings if f["id"] == bid), {"id": bid})
    worst = None
    for f in findings:
        rank = SEVERITY_RANK.get(f.get("severity"), 0)
        if rank >= 2 and (worst is None or rank > SEVERITY_RANK[worst["severity"]]):
            worst = f
    return worst


def checks(row, doc):
    """(title, passed, detail) for each thing the row expects."""
    h = headline(doc)
    hid = h["id"] if h else "-"
    name = row["case"]
    if row["headline"] == "-":
        yield ("%s: healthy, no finding at warning or above" % name, h is None,
               "headline %s (%s): %s" % (hid, h and h.get("severity"), h and h.get("title")))
        return
    yield ("%s: headline is %s" % (name, row["headline"]), hid == row["headline"],
           "headline %s (%s): %s" % (hid, h and h.get("severity"), h and h.get("title")))
    f = next((x for x in doc.get("findings", []) if x["id"] == row["headline"]), None)
    sev = f.get("severity") if f else None
    yield ("%s: %s is %s" % (name, row["headline"], row["severity"]), sev == row["severity"],
           "%s is %s: %s" % (row["headline"], sev, f and f.get("title")))
    fix = (f or {}).get("fix") or {}
    cmds = [c for c in fix.get("commands", []) if isinstance(c, str)]
    if row["fix"] == "-":
        ok = not fix
    elif row["fix"] == "?":
        ok = bool(cmds)
    else:
        ok = fix.get("id") == row["fix"] and bool(cmds)
    if ok and row["fix_cmd"] != "-":
        ok = any(row["fix_cmd"] in c for c in cmds)
    want = row["fix"] + ("" if row["fix_cmd"] == "-" else " with '%s'" % row["fix_cmd"])
    yield ("%s: fix %s" % (name, want), ok, "fix %s: %s" % (fix.get("id"), cmds))


def main():
    nd, top = sys.argv[1], sys.argv[2]
    n = int(sys.argv[3]) if len(sys.argv) > 3 else 0
    first, failed = n, 0
    for row in rows(os.path.join(top, "expected.tsv")):
        p = subprocess.run([nd, "diagnose", row["iface"], "--sysroot",
                            os.path.join(top, row["case"]), "--format", "json"],
                           capture_output=True, text=True, env=dict(os.environ, LC_ALL="C"))
        try:
            doc = json.loads(p.stdout) if p.returncode <= 2 else None
        except ValueError:
            doc = None
        todo = ""
        if row["status"].startswith("known-wrong:"):
            todo = " # TODO " + row["status"][len("known-wrong:"):]
        elif row["status"] != "ok":
            raise SystemExit("expected.tsv: bad status %r" % row["status"])
        results = (list(checks(row, doc)) if doc is not None else
                   [("%s: diagnose reads the case" % row["case"], False,
                     "exit %d: %s" % (p.returncode, p.stderr.strip()))])
        for title, passed, detail in results:
            n += 1
            print("%s %d - %s%s" % ("ok" if passed else "not ok", n, title, todo))
            if not passed:
                print("#   " + detail)
                if not todo:
                    failed += 1
    trash = os.environ.get("TRASH")
    if trash:
        with open(os.path.join(trash, ".blind-count"), "w") as f:
            f.write("%d\n" % n)
    else:
        print("1..%d" % n)
    return 1 if failed or n == first else 0


if __name__ == "__main__":
    sys.exit(main())
