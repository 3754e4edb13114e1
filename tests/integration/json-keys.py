#!/usr/bin/env python3
"""json-keys.py THEIRS OURS: print the key paths of iperf3's -J output THEIRS
that OURS lacks (arrays as []); exit 1 if any.  Key sets, not values; a
file holding several objects (iperf3 -s -J) is read object by object."""
import json
import sys


def walk(o, path, out):
    if isinstance(o, dict):
        for k, v in o.items():
            p = path + "." + k if path else k
            out.add(p)
            walk(v, p, out)
    elif isinstance(o, list):
        for v in o:
            walk(v, path + "[]", out)


def keys(name):
    text, found, dec, i = open(name).read(), set(), json.JSONDecoder(), 0
    while True:
        while i < len(text) and text[i].isspace():
            i += 1
        if i >= len(text):
            return found
        obj, i = dec.raw_decode(text, i)
        walk(obj, "", found)


missing = sorted(k for k in keys(sys.argv[1]) - keys(sys.argv[2]) if k != "error")
for k in missing:
    print("missing", k)
sys.exit(1 if missing else 0)
