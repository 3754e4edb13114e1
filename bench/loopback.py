#!/usr/bin/env python3
"""bench/loopback.py - nicdoctor bench vs iperf3 3.21 (the newest, multithreaded)
vs Debian iperf3 3.12 vs iperf 2.1.8 vs a bare send/recv loop on loopback,
interleaved (A B C D E A B C D E ...), RUNS runs per case; prints medians of
the received Gbit/s, Gbit/s per CPU-second (both ends' CPU) where the tool
reports CPU, and the ratios against iperf3 3.21, 3.12 and the bare loop.
bare/3.21 is the bare loop's Gbit/s per CPU-second over 3.21's: how far
below 3.21's cost any engine doing send()/recv() of the same blocks can go.

    bench/loopback.py [--runs 5] [--time 2] [--nd ./nicdoctor] [--cases tcp-P1,udp-1472]
                      [--iperf3-new PATH] [--wait-load 1.0] [--wait-max 300]

iperf3 3.21 is $IPERF3_NEW or build-peers/iperf-3.21/bin/iperf3 (`make peers`);
without it its columns are "-".  The bare loop (bench/bareloop.c, built by
`make bench-tools`) runs N sender and N receiver threads doing nothing but
send()/recv() of 128 KiB on N loopback connections: what any TCP engine can
reach here, whatever the direction (-R) or copy (-Z) of the case.

The machine is shared: --wait-load polls /proc/loadavg before each case until
the 1-minute load is under the threshold (at most --wait-max seconds), and
the load at the start of each case is printed with the table.
"""
import argparse
import json
import os
import signal
import statistics
import subprocess
import sys
import time

PORT_ND, PORT_I3, PORT_I2, PORT_I2U, PORT_I321 = 5391, 5392, 5393, 5394, 5395
ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")

CASES = [  # name, nicdoctor/iperf3 flags, iperf2 flags (None: no equivalent)
    ("tcp-P1", ["-P", "1"], ["-P", "1"]),
    ("tcp-P2", ["-P", "2"], ["-P", "2"]),
    ("tcp-P4", ["-P", "4"], ["-P", "4"]),
    ("tcp-P8", ["-P", "8"], ["-P", "8"]),
    ("tcp-Z", ["-Z"], None),
    ("tcp-Z-P2", ["-Z", "-P", "2"], None),
    ("tcp-R", ["-R"], ["-R"]),
    ("tcp-R-P2", ["-R", "-P", "2"], ["-R", "-P", "2"]),
    ("udp-1472", ["-u", "-b", "0", "-l", "1472"], ["-u", "-b", "100G", "-l", "1472"]),
]
# 3.21 sends UDP with GSO and receives with GRO only when asked; we do by default.
I321_EXTRA = {"udp-1472": ["--gsro"]}


def run_json(cmd, timeout):
    try:
        out = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout).stdout
        d = json.loads(out)
        e = d["end"]
        s = e.get("sum_received") or e.get("sum")
        gbps = s["bits_per_second"] / 1e9
        cpu = e.get("cpu_utilization_percent", {})
        cpu_s = (cpu.get("host_total", 0) + cpu.get("remote_total", 0)) / 100.0
        lost = s.get("lost_percent")
        return gbps, (gbps / cpu_s if cpu_s > 0 else None), lost
    except Exception as exc:  # a failed run counts as missing, not as zero
        print(f"  run failed: {' '.join(cmd)}: {exc}", file=sys.stderr)
        return None


def run_iperf2(flags, secs, timeout):
    udp = "-u" in flags
    port = PORT_I2U if udp else PORT_I2
    cmd = ["iperf", "-c", "127.0.0.1", "-p", str(port), "-t", str(secs), "-y", "C"] + flags
    try:
        out = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout).stdout
        rows = [l.split(",") for l in out.strip().splitlines() if l.count(",") >= 8]
        if udp:  # the server report carries jitter and loss: more columns
            rows = [r for r in rows if len(r) > 9] or rows
        return max(float(r[8]) for r in rows) / 1e9, None, None
    except Exception as exc:
        print(f"  run failed: {' '.join(cmd)}: {exc}", file=sys.stderr)
        return None


def streams_of(flags):
    return int(flags[flags.index("-P") + 1]) if "-P" in flags else 1


def run_bare(bare, flags, secs, timeout):
    """The bare loop with the case's stream count: Gbit/s and Gbit/s per CPU-second."""
    try:
        out = subprocess.run([bare, "-P", str(streams_of(flags)), "-t", str(secs)],
                             capture_output=True, text=True, timeout=timeout).stdout
        d = json.loads(out)
        cpu_per_sec = d["cpu_sec"] / d["seconds"]
        return d["gbps"], (d["gbps"] / cpu_per_sec if cpu_per_sec > 0 else None), None
    except Exception as exc:
        print(f"  run failed: {bare}: {exc}", file=sys.stderr)
        return None


def build_bare():
    """make bench-tools; the path of the bare loop, or None."""
    path = os.path.join(ROOT, "build", "bench", "bareloop")
    r = subprocess.run(["make", "-s", "-C", ROOT, "bench-tools"], capture_output=True, text=True)
    if r.returncode != 0 or not os.access(path, os.X_OK):
        print(f"no bare loop (make bench-tools: {r.stderr.strip()})", file=sys.stderr)
        return None
    return path


def load1():
    with open("/proc/loadavg") as f:
        return float(f.read().split()[0])


def wait_load(limit, max_sec):
    """Poll until the 1-minute load average is under limit; return it."""
    deadline = time.time() + max_sec
    while limit > 0 and load1() >= limit and time.time() < deadline:
        time.sleep(5)
    return load1()


def med(vals):
    vals = [v for v in vals if v is not None]
    return statistics.median(vals) if vals else None


def fmt(v, nd=1):
    return "-" if v is None else f"{v:.{nd}f}"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--time", type=int, default=2)
    ap.add_argument("--nd", default=os.path.join(os.path.dirname(__file__), "..", "nicdoctor"))
    ap.add_argument("--cases", default="")
    ap.add_argument("--iperf3-new", default=os.environ.get("IPERF3_NEW") or os.path.join(
        ROOT, "build-peers", "iperf-3.21", "bin", "iperf3"))
    ap.add_argument("--wait-load", type=float, default=0.0)
    ap.add_argument("--wait-max", type=int, default=300)
    a = ap.parse_args()
    cases = [c for c in CASES if not a.cases or c[0] in a.cases.split(",")]
    i321 = a.iperf3_new if os.access(a.iperf3_new, os.X_OK) else None
    if not i321:
        print(f"no iperf3 3.21 at {a.iperf3_new} (make peers): its columns stay empty",
              file=sys.stderr)
    bare = build_bare()
    servers = [
        subprocess.Popen([a.nd, "serve", "-p", str(PORT_ND), "-q"]),
        subprocess.Popen(["iperf3", "-s", "-p", str(PORT_I3)], stdout=subprocess.DEVNULL),
        subprocess.Popen(["iperf", "-s", "-p", str(PORT_I2)], stdout=subprocess.DEVNULL,
                         stderr=subprocess.DEVNULL),
        subprocess.Popen(["iperf", "-s", "-u", "-p", str(PORT_I2U)], stdout=subprocess.DEVNULL,
                         stderr=subprocess.DEVNULL),
    ]
    if i321:
        servers.append(subprocess.Popen([i321, "-s", "-p", str(PORT_I321)],
                                        stdout=subprocess.DEVNULL))
    time.sleep(0.5)
    to = a.time + 20
    results, loads = {}, {}
    try:
        for name, flags, flags2 in cases:
            loads[name] = wait_load(a.wait_load, a.wait_max)
            r = {"nd": [], "i321": [], "i3": [], "i2": [], "bare": []}
            for _ in range(a.runs):
                r["nd"].append(run_json([a.nd, "bench", "-c", "127.0.0.1", "-p", str(PORT_ND),
                                         "-t", str(a.time), "-J"] + flags, to))
                time.sleep(0.2)
                if i321:
                    r["i321"].append(run_json([i321, "-c", "127.0.0.1", "-p", str(PORT_I321),
                                               "-t", str(a.time), "-J"] + flags +
                                              I321_EXTRA.get(name, []), to))
                    time.sleep(0.2)
                r["i3"].append(run_json(["iperf3", "-c", "127.0.0.1", "-p", str(PORT_I3),
                                         "-t", str(a.time), "-J"] + flags, to))
                time.sleep(0.2)
                if flags2 is not None:
                    r["i2"].append(run_iperf2(flags2, a.time, to))
                    time.sleep(0.2)
                if bare and name.startswith("tcp"):
                    r["bare"].append(run_bare(bare, flags, a.time, to))
                    time.sleep(0.2)
            results[name] = r
            print_case(name, r)
    finally:
        for s in servers:
            s.send_signal(signal.SIGTERM)
        for s in servers:
            try:
                s.wait(timeout=5)
            except subprocess.TimeoutExpired:
                s.kill()
    print_table(a, results, loads)


def ratio(x, y):
    return x / y if x and y else None


def print_table(a, results, loads):
    print()
    print(f"loopback, {a.runs} interleaved runs of {a.time} s each; medians of received Gbit/s;"
          " eff: Gbit/s per CPU-second of both ends; load: 1-min load average at the case start")
    print(f"{'case':10} {'nicdoctor':>9} {'3.21':>6} {'3.12':>6} {'iperf2':>6} {'bare':>6} "
          f"{'nd/3.21':>7} {'nd/3.12':>7} {'nd/i2':>6} {'nd/bare':>7} "
          f"{'nd eff':>6} {'3.21eff':>7} {'bareeff':>7} {'effratio':>8} {'bare/3.21':>9} "
          f"{'loss%':>6} {'load':>5}")
    for name, r in results.items():
        g = {k: med([x[0] for x in v if x]) for k, v in r.items()}
        eff = {k: med([x[1] for x in v if x]) for k, v in r.items()}
        loss = med([x[2] for x in r["nd"] if x])
        print(f"{name:10} {fmt(g['nd']):>9} {fmt(g['i321']):>6} {fmt(g['i3']):>6} "
              f"{fmt(g['i2']):>6} {fmt(g['bare']):>6} "
              f"{fmt(ratio(g['nd'], g['i321']), 2):>7} {fmt(ratio(g['nd'], g['i3']), 2):>7} "
              f"{fmt(ratio(g['nd'], g['i2']), 2):>6} {fmt(ratio(g['nd'], g['bare']), 2):>7} "
              f"{fmt(eff['nd']):>6} {fmt(eff['i321']):>7} {fmt(eff['bare']):>7} "
              f"{fmt(ratio(eff['nd'], eff['i321']), 2):>8} "
              f"{fmt(ratio(eff['bare'], eff['i321']), 2):>9} {fmt(loss, 2):>6} {loads[name]:>5.2f}")


def print_case(name, r):
    parts = []
    for k, v in r.items():
        parts.append(k + "=" + ",".join(fmt(x[0]) if x else "x" for x in v))
    print(f"{name}: " + "  ".join(parts), flush=True)


if __name__ == "__main__":
    main()
