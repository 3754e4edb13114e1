#!/usr/bin/env python3
"""bench/watch_cost.py - what `nicdoctor watch` itself costs: CPU time per
interval on a 64-queue device's worth of counters (issue 14: under 1% of one
CPU at -i 1).  The device is a veth with 64 RX and 64 TX queues and an mq root
in a private namespace: the netdev family lists 128 queues, veth has no
qstats, so every interval also takes the fallbacks (ethtool -S, 64 mq
classes), the dearer path.  The probe at start is left out by timing a watch
of N+1 intervals against one of 1 interval, both at -i INTERVAL.

    sudo bench/watch_cost.py [--nd ./nicdoctor] [--intervals 10] [--interval 1]

Prints CPU ms per interval (user + system, from the children's rusage) and
that as a share of one CPU at the interval.
"""
import argparse
import os
import resource
import subprocess
import sys

NS = "nd-bench-watch-%d" % os.getpid()


def run(cmd):
    subprocess.run(cmd, check=True)


def cpu_of(cmd):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--nd", default="./nicdoctor")
    ap.add_argument("--intervals", type=int, default=10)
    ap.add_argument("--interval", type=float, default=1.0)
    a = ap.parse_args()
    nd = os.path.abspath(a.nd)
    run(["ip", "netns", "add", NS])
    try:
        run(["ip", "-n", NS, "link", "add", "w64a", "numrxqueues", "64", "numtxqueues", "64",
             "type", "veth", "peer", "w64b", "numrxqueues", "64", "numtxqueues", "64"])
        run(["ip", "-n", NS, "link", "set", "w64a", "up"])
        run(["ip", "-n", NS, "link", "set", "w64b", "up"])
        run(["ip", "netns", "exec", NS, "tc", "qdisc", "add", "dev", "w64a", "root",
             "handle", "1:", "mq"])
        base = ["ip", "netns", "exec", NS, nd, "watch", "w64a", "--json", "-i", str(a.interval)]
        one = cpu_of(base + ["-n", "1"])
        many = cpu_of(base + ["-n", str(a.intervals + 1)])
        per = (many - one) / a.intervals
        print("watch -i %g on 64 RX + 64 TX queues (netdev list, ethtool -S and mq fallbacks):"
              % a.interval)
        print("  %.2f ms CPU per interval = %.3f%% of one CPU (startup probe %.0f ms, left out)"
              % (per * 1000, 100 * per / a.interval, one * 1000))
    finally:
        subprocess.run(["ip", "netns", "del", NS])
    return 0


if __name__ == "__main__":
    sys.exit(main())
