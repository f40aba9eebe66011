#!/usr/bin/env python3
"""The speed targets of issue 13, measured on whole runs of the program.

    python3 tests/perf_measure.py build/undercroft [REPEATS]

Runs each command REPEATS times (default 7) and prints the CPU time (user +
sys of the child, from wait4's rusage) of the fastest and the median run, its
peak RSS and the output's size: the default 3x3 booklet on each backend
(bytes per page from pdfinfo), the same dungeon's PNG maps against its PDF,
and --size 2x2 ... 10x10 booklets (ms and peak RSS per node).  Nothing here
is a pass/fail test; make bench is the benchmark of record.
"""
import os
import statistics
import subprocess
import sys
import tempfile


def run(argv):
    """CPU seconds (user + sys) and peak RSS (KiB) of one run of argv."""
    pid = os.fork()
    if pid == 0:
        fd = os.open(os.devnull, os.O_WRONLY)
        os.dup2(fd, 1)
        os.dup2(fd, 2)
        os.execv(argv[0], argv)
    _, status, ru = os.wait4(pid, 0)
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit("failed: " + " ".join(argv))
    return ru.ru_utime + ru.ru_stime, ru.ru_maxrss


def measure(argv, repeats):
    runs = [run(argv) for _ in range(repeats)]
    cpu = sorted(r[0] for r in runs)
    return cpu[0], statistics.median(cpu), max(r[1] for r in runs)


def pages(pdf):
    out = subprocess.run(["pdfinfo", pdf], capture_output=True, text=True).stdout
    for line in out.splitlines():
        if line.startswith("Pages:"):
            return int(line.split()[1])
    return 0


def main():
    exe = os.path.abspath(sys.argv[1])
    repeats = int(sys.argv[2]) if len(sys.argv) > 2 else 7
    seed = "goblin-king"
    # A copy of the program kept elsewhere (to compare before and after)
    # still reads this tree's templates and fonts.
    os.environ.setdefault("UNDERCROFT_DATADIR", os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    with tempfile.TemporaryDirectory() as tmp:
        pdf_min = None
        for backend in ("cairo", "haru"):
            out = os.path.join(tmp, backend + ".pdf")
            lo, med, rss = measure([exe, "-s", seed, "--backend", backend, "-o", out], repeats)
            n = pages(out)
            size = os.path.getsize(out)
            print(f"booklet 3x3 {backend:5}: {lo*1000:7.1f} / {med*1000:7.1f} ms CPU min/median, "
                  f"{rss/1024:5.1f} MiB, {n} pages, {size/n/1024:5.1f} KiB/page")
            if backend == "cairo":
                pdf_min = lo
        out = os.path.join(tmp, "map.png")
        lo, med, rss = measure([exe, "-s", seed, "-o", out], repeats)
        print(f"png maps 3x3      : {lo*1000:7.1f} / {med*1000:7.1f} ms CPU min/median, "
              f"{rss/1024:5.1f} MiB, {lo/pdf_min:.2f} x the cairo booklet")
        per_node = {}
        for s in (2, 4, 6, 8, 10):
            out = os.path.join(tmp, f"s{s}.pdf")
            lo, med, rss = measure([exe, "-s", seed, "--size", f"{s}x{s}", "-o", out],
                                   max(3, repeats // 2) if s > 4 else repeats)
            nodes = s * s
            per_node[s] = lo / nodes
            print(f"booklet {s:2}x{s:<2}     : {lo*1000:7.1f} / {med*1000:7.1f} ms CPU min/median, "
                  f"{lo*1000/nodes:5.1f} ms/node, {rss/1024:5.1f} MiB peak, {rss/nodes:6.0f} KiB/node")
        print(f"ms/node 10x10 against 2x2: {per_node[10]/per_node[2]:.2f}")


if __name__ == "__main__":
    main()
