#!/usr/bin/env python3
"""Batch memory (make bench, after the table of tests/bench.c): does a
batch's memory stay flat as it grows?

  usage: tests/bench_batch.py path/to/undercroft [COUNT]

The peak RSS of the batch's parent process (read from /proc while it runs:
VmHWM only grows, so the last reading is its peak) and the peak RSS of its
largest worker (RUSAGE_CHILDREN), after 10 and after COUNT (default 1,000)
files.  They are JSON models: a worker's memory is the same whatever it
writes, and 1,000 PDF booklets would take eight minutes on two cores.  The
batch's speed (--jobs 1 against --jobs 2, PDF booklets) is in tests/bench.c.
Nothing here is pass/fail but a failed run."""
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time

BIN = os.path.abspath(sys.argv[1])
COUNT = int(sys.argv[2]) if len(sys.argv) > 2 else 1000


def hwm_kib(pid):
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return None


def cpu_seconds():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def batch(args, out_dir):
    """Runs a batch; returns (seconds, parent's peak KiB, largest worker's
    peak KiB, cores used: CPU seconds over wall seconds)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    cpu0 = cpu_seconds()
    t0 = time.monotonic()
    p = subprocess.Popen([BIN] + args, cwd=out_dir, stderr=subprocess.PIPE)
    parent = 0
    while p.poll() is None:
        v = hwm_kib(p.pid)
        parent = max(parent, v or 0)
        time.sleep(0.02)
    secs = time.monotonic() - t0
    err = p.stderr.read().decode()
    if p.returncode != 0:
        sys.exit(f"bench_batch: {' '.join(args)} exited {p.returncode}: {err}")
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    # RUSAGE_CHILDREN keeps the largest of all descendants so far; it only
    # says something new when it grew.
    return secs, parent, max(peak, before), (cpu_seconds() - cpu0) / secs


def main():
    tmp = tempfile.mkdtemp(prefix="ucr-bench-")
    try:
        print(f"\n{'batch memory: --seed bench --count N -o {n}.json':50s}")
        for n in sorted({10, COUNT}):
            d = os.path.join(tmp, f"json{n}")
            os.mkdir(d)
            secs, parent, worker, cores = batch(["--seed", "bench", "--count", str(n), "-o", "{n}.json"], d)
            print(f"  {n:5d} JSON files, --jobs 2{'':24s} {secs:8.2f} s wall, cores used {cores:.2f}; "
                  f"peak RSS parent {parent / 1024:.1f} MiB, largest worker {worker / 1024:.1f} MiB")
        print("  (the parent's peak should not grow with the count)")
    finally:
        shutil.rmtree(tmp)


main()
