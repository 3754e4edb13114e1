#!/usr/bin/env python3
"""Run every tests/integration/t*.sh (TAP) in lanes; print one closing summary.

Most of an integration script's time is waiting (timeouts, shaped runs,
clients dropped for silence), so scripts run INTEGRATION_JOBS at a time
(default: the number of CPUs plus one).  They can: each makes its own
namespaces (named by PID), listens on its own ports and works in its own
scratch directory.  A script says otherwise in a header line:

  # test-lane: alone    runs with no other script running (a measurement
                        that load would skew)
  # test-lane: GROUP    runs one after another with the other scripts of
                        GROUP, beside the rest (the packaging scripts all
                        build in the source tree)

A script's output is printed whole when it ends, with its time; scripts
that took longest in the previous run of this build start first.

Under SAN=1 the scripts run without LeakSanitizer: its stop-the-world
tracer was seen to livelock a server stopped by SIGTERM.  Leaks are checked
by the unit tests (LSan on) and by the valgrind integration test.  Each
script also has a time limit, so a hang fails that script, not the run.
"""
import os
import re
import subprocess
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
IDIR = os.path.join(HERE, "integration")


def lane_of(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        for _, line in zip(range(20), f):
            m = re.match(r"#\s*test-lane:\s*(\S+)", line)
            if m:
                return m.group(1)
    return None


def load_times(path):
    times = {}
    try:
        with open(path, encoding="utf-8") as f:
            for line in f:
                name, _, secs = line.partition(" ")
                times[name] = float(secs)
    except (OSError, ValueError):
        pass
    return times


class Runner:
    def __init__(self, timeout):
        self.timeout = timeout
        self.lock = threading.Lock()
        self.passed = self.failed = self.skipped = self.todo = 0
        self.times = {}

    def run(self, script):
        start = time.monotonic()
        p = subprocess.run(["timeout", "-k", "10", str(self.timeout), "sh", script],
                           cwd=IDIR, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           stdin=subprocess.DEVNULL)
        secs = time.monotonic() - start
        out = p.stdout.decode("utf-8", "replace")
        lines = out.splitlines()
        ok = sum(1 for l in lines if l.startswith("ok "))
        skip = sum(1 for l in lines if re.match(r"ok .*# SKIP", l))
        # TAP: a "# TODO" test is a known gap, never a failure (t1012's
        # known-wrong cases); "ok ... # TODO" says the gap is closed.
        todo = sum(1 for l in lines if re.match(r"(not )?ok .*# TODO", l))
        ok -= sum(1 for l in lines if re.match(r"ok .*# TODO", l))
        bad = sum(1 for l in lines if l.startswith("not ok ") and "# TODO" not in l)
        notes = []
        if p.returncode == 124:
            notes.append(f"FAILED: {script} timed out after {self.timeout}s")
        if p.returncode != 0 and bad == 0:
            notes.append(f"FAILED: {script} exited {p.returncode}")
            bad = 1
        with self.lock:
            sys.stdout.write(out if out.endswith("\n") or not out else out + "\n")
            print(f"# {script}: {secs:.0f} s")
            for n in notes:
                print(n)
            sys.stdout.flush()
            self.passed += ok - skip
            self.skipped += skip
            self.todo += todo
            self.failed += bad
            self.times[script] = secs

    def run_units(self, units, jobs):
        queue = list(units)

        def worker():
            while True:
                with self.lock:
                    if not queue:
                        return
                    unit = queue.pop(0)
                for script in unit:
                    self.run(script)

        threads = [threading.Thread(target=worker) for _ in range(max(1, jobs))]
        for t in threads:
            t.start()
        for t in threads:
            t.join()


def main():
    os.environ.setdefault("ASAN_OPTIONS", "detect_leaks=0:abort_on_error=0")
    timeout = int(os.environ.get("SCRIPT_TIMEOUT", "600"))
    jobs = int(os.environ.get("INTEGRATION_JOBS", "0") or 0) or (os.cpu_count() or 1) + 1
    times_path = os.environ.get("INTEGRATION_TIMES")
    only = sys.argv[1:]
    scripts = sorted(s for s in os.listdir(IDIR) if re.match(r"t[0-9].*\.sh$", s))
    if only:
        scripts = [s for s in scripts if any(s.startswith(o) for o in only)]
    last = load_times(times_path) if times_path else {}

    alone, groups, units = [], {}, []
    for s in scripts:
        lane = lane_of(os.path.join(IDIR, s))
        if lane == "alone":
            alone.append(s)
        elif lane:
            groups.setdefault(lane, []).append(s)
        else:
            units.append([s])
    units.extend(groups.values())
    units.sort(key=lambda u: -sum(last.get(s, 0) for s in u))

    r = Runner(timeout)
    start = time.monotonic()
    r.run_units(units, jobs)
    r.run_units([[s] for s in alone], 1)
    if times_path:
        try:
            with open(times_path, "w", encoding="utf-8") as f:
                for name, secs in sorted(r.times.items()):
                    f.write(f"{name} {secs:.1f}\n")
        except OSError:
            pass
    print(f"integration: {r.passed} passed, {r.failed} failed, {r.skipped} skipped, "
          f"{r.todo} todo ({len(scripts)} scripts, {jobs} at a time, {time.monotonic() - start:.0f} s)")
    return 0 if r.failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
