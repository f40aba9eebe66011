#!/usr/bin/env python3
"""Batch benchmark (make bench): memory of a batch as it grows, and the
speed-up of two workers over one.

  usage: tests/bench_batch.py path/to/undercroft [SPEED_COUNT]

Memory: the peak RSS of the batch's parent process (read from /proc while
it runs: VmHWM only grows, so the last reading is its peak) and the peak RSS
of its largest worker (RUSAGE_CHILDREN), after 10 and after 1,000 files.
The 1,000 are JSON models: a worker's memory is the same whatever it writes,
and 1,000 PDF booklets would take eight minutes on two cores.

Speed: SPEED_COUNT (default 200) PDF booklets with --jobs 1, then --jobs 2.
Timing is wall-clock and only printed; nothing here is pass/fail.  "Cores
used" (the workers' CPU time over the wall time) says whether the machine
was free: on a busy one the speed-up says nothing about the batch."""
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time

BIN = os.path.abspath(sys.argv[1])
SPEED = int(sys.argv[2]) if len(sys.argv) > 2 else 200


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
        rows = []
        for n in (10, 1000):
            d = os.path.join(tmp, f"json{n}")
            os.mkdir(d)
            secs, parent, worker, _ = batch(["--seed", "bench", "--count", str(n), "-o", "{n}.json"], d)
            rows.append((n, secs, parent, worker))
        for n, secs, parent, worker in rows:
            print(f"batch of {n:5d} JSON files          : {secs:8.2f} s   "
                  f"peak RSS parent {parent:6d} KiB, largest worker {worker:6d} KiB")
        print("  (the parent's peak should not grow with the count)")
        times = {}
        for jobs in (1, 2):
            d = os.path.join(tmp, f"pdf{jobs}")
            os.mkdir(d)
            times[jobs], _, _, cores = batch(["--seed", "bench", "--count", str(SPEED), "--jobs", str(jobs),
                                              "-o", "{n}.pdf"], d)
            print(f"batch of {SPEED:5d} PDF booklets, --jobs {jobs}: {times[jobs]:8.2f} s   "
                  f"cores used {cores:.2f} (below {jobs} when the machine is busy)")
        same = all(open(os.path.join(tmp, "pdf1", f), "rb").read()
                   == open(os.path.join(tmp, "pdf2", f), "rb").read()
                   for f in os.listdir(os.path.join(tmp, "pdf1")))
        print(f"--jobs 2 against --jobs 1          : {times[1] / times[2]:8.2f} x faster"
              f"  (files identical: {'yes' if same else 'NO'})")
    finally:
        shutil.rmtree(tmp)


main()
