#!/usr/bin/env python3
"""bench/loopback.py - nicdoctor bench vs Debian iperf3 3.12 vs iperf 2.1.8 on
loopback, interleaved (A B C A B C ...), RUNS runs per case; prints medians of
the received Gbit/s, Gbit/s per CPU-second where the tool reports CPU, and
the ratios against iperf3.

    bench/loopback.py [--runs 5] [--time 2] [--nd ./nicdoctor] [--cases tcp-P1,udp-1472]
                      [--wait-load 1.0] [--wait-max 300]

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

PORT_ND, PORT_I3, PORT_I2, PORT_I2U = 5391, 5392, 5393, 5394

CASES = [  # name, nicdoctor/iperf3 flags, iperf2 flags (None: no equivalent)
    ("tcp-P1", ["-P", "1"], ["-P", "1"]),
    ("tcp-P2", ["-P", "2"], ["-P", "2"]),
    ("tcp-P4", ["-P", "4"], ["-P", "4"]),
    ("tcp-Z", ["-Z"], None),
    ("tcp-R", ["-R"], ["-R"]),
    ("udp-1472", ["-u", "-b", "0", "-l", "1472"], ["-u", "-b", "100G", "-l", "1472"]),
]


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
    ap.add_argument("--wait-load", type=float, default=0.0)
    ap.add_argument("--wait-max", type=int, default=300)
    a = ap.parse_args()
    cases = [c for c in CASES if not a.cases or c[0] in a.cases.split(",")]
    servers = [
        subprocess.Popen([a.nd, "serve", "-p", str(PORT_ND), "-q"]),
        subprocess.Popen(["iperf3", "-s", "-p", str(PORT_I3)], stdout=subprocess.DEVNULL),
        subprocess.Popen(["iperf", "-s", "-p", str(PORT_I2)], stdout=subprocess.DEVNULL,
                         stderr=subprocess.DEVNULL),
        subprocess.Popen(["iperf", "-s", "-u", "-p", str(PORT_I2U)], stdout=subprocess.DEVNULL,
                         stderr=subprocess.DEVNULL),
    ]
    time.sleep(0.5)
    to = a.time + 20
    results, loads = {}, {}
    try:
        for name, flags, flags2 in cases:
            loads[name] = wait_load(a.wait_load, a.wait_max)
            r = {"nd": [], "i3": [], "i2": []}
            for _ in range(a.runs):
                r["nd"].append(run_json([a.nd, "bench", "-c", "127.0.0.1", "-p", str(PORT_ND),
                                         "-t", str(a.time), "-J"] + flags, to))
                time.sleep(0.2)
                r["i3"].append(run_json(["iperf3", "-c", "127.0.0.1", "-p", str(PORT_I3),
                                         "-t", str(a.time), "-J"] + flags, to))
                time.sleep(0.2)
                if flags2 is not None:
                    r["i2"].append(run_iperf2(flags2, a.time, to))
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
    print()
    print(f"loopback, {a.runs} interleaved runs of {a.time} s each; medians of received Gbit/s")
    print(f"{'case':10} {'nicdoctor':>10} {'iperf3.12':>10} {'iperf2':>8} {'nd/i3':>7} "
          f"{'nd/i2':>7} {'nd Gb/cpu-s':>11} {'i3 Gb/cpu-s':>11} {'nd loss%':>8}")
    for name, r in results.items():
        g = {k: med([x[0] for x in v if x]) for k, v in r.items()}
        eff = {k: med([x[1] for x in v if x]) for k, v in r.items()}
        loss = med([x[2] for x in r["nd"] if x])
        ratio3 = g["nd"] / g["i3"] if g["nd"] and g["i3"] else None
        ratio2 = g["nd"] / g["i2"] if g["nd"] and g["i2"] else None
        print(f"{name:10} {fmt(g['nd']):>10} {fmt(g['i3']):>10} {fmt(g['i2']):>8} "
              f"{fmt(ratio3, 2):>7} {fmt(ratio2, 2):>7} {fmt(eff['nd']):>11} "
              f"{fmt(eff['i3']):>11} {fmt(loss, 2):>8} {loads[name]:>5.2f}")


def print_case(name, r):
    parts = []
    for k, v in r.items():
        parts.append(k + "=" + ",".join(fmt(x[0]) if x else "x" for x in v))
    print(f"{name}: " + "  ".join(parts), flush=True)


if __name__ == "__main__":
    main()
