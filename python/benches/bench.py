"""The speed targets of docs/python.md, measured: the module against itself
and against the `lightsout` binary on the same work.

    python python/benches/bench.py            # the quick figures (seconds)
    python python/benches/bench.py --long     # also the 61x61 minimum (minutes)

Each figure is the best of a few runs, wall clock and CPU (all threads);
the binary is target/release/lightsout (or $LIGHTSOUT_BIN). On a shared
machine compare the CPU times: wall times move with the other load.
"""

import os
import pathlib
import resource
import subprocess
import sys
import time
import timeit

import numpy as np

import lightsout

ROOT = pathlib.Path(__file__).resolve().parents[2]
CLI = os.environ.get("LIGHTSOUT_BIN", str(ROOT / "target" / "release" / "lightsout"))


def timed(call, runs):
    """Best (wall, cpu) seconds of `runs` calls."""
    best = (float("inf"), float("inf"))
    for _ in range(runs):
        wall, cpu = time.perf_counter(), time.process_time()
        call()
        best = min(best, (time.perf_counter() - wall, time.process_time() - cpu))
    return best


def cli_timed(args, runs):
    """Best (wall, cpu) seconds of the binary with `args`, output discarded."""
    best = (float("inf"), float("inf"))
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        wall = time.perf_counter()
        subprocess.run([CLI, *args], stdout=subprocess.DEVNULL, check=True)
        wall = time.perf_counter() - wall
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        best = min(best, (wall, cpu))
    return best


def line(name, wall, cpu, target=""):
    print(f"{name:58s} {wall:9.4f} s wall {cpu:9.4f} s cpu  {target}", flush=True)


def main():
    poj = np.array([[1, 0, 0, 1], [1, 1, 0, 1], [1, 0, 0, 1], [1, 0, 0, 0]], dtype=np.uint8)
    lightsout.solve(poj)
    n = 20000
    for name, board in [("numpy", poj), ("list of str", ["bwwb", "bbwb", "bwwb", "bwww"])]:
        per = min(timeit.repeat(lambda: lightsout.solve(board), number=n, repeat=5)) / n
        print(f"{'solve, one 4x4 board (' + name + ')':58s} {per * 1e6:9.2f} µs a call          target <= 50 µs")

    every = (np.arange(1 << 16)[:, None] >> np.arange(16) & 1).astype(np.uint8).reshape(-1, 4, 4)
    line("solve_many, all 65,536 4x4 boards", *timed(lambda: lightsout.solve_many(every), 5), "target <= 0.2 s")

    line("nullity_table(range(1, 1001), range(1, 1001))", *timed(lambda: lightsout.nullity_table(range(1, 1001), range(1, 1001)), 3))
    line("lightsout table --rows 1..1000 --cols 1..1000", *cli_timed(["table", "--rows", "1..1000", "--cols", "1..1000"], 3), "within 10 %")

    # The notebook's pictures: what displaying a value costs, and its size.
    rng = np.random.default_rng(1)
    shown = [
        ("4x4 solution", lightsout.solve(poj)),
        ("Petersen's quiet patterns", lightsout.analyze(graph="petersen")),
        ("128x128 solution", lightsout.solve(rng.integers(0, 2, size=(128, 128)).astype(np.uint8), target="white")),
        ("complete:80's 79 quiet patterns", lightsout.analyze(graph="complete:80")),
    ]
    for name, value in shown:
        for hook in ("_repr_svg_", "_repr_png_"):
            picture = getattr(value, hook)()
            size = "None" if picture is None else f"{len(picture)} bytes"
            line(f"{name}.{hook}() ({size})", *timed(getattr(value, hook), 5))

    if "--long" in sys.argv:
        black = np.ones((61, 61), dtype=np.uint8)
        runs = 2
        for _ in range(runs):
            args = ["-g", "all-black", "-r", "61", "-c", "61", "-t", "white", "--max-nullity", "40"]
            line("lightsout -g all-black -r 61 -c 61 -t white --max-nullity 40", *cli_timed(args, 1))
            line("solve(ones((61, 61)), target='white', max_nullity=40)", *timed(lambda: lightsout.solve(black, target="white", max_nullity=40), 1), "within 5 %")


if __name__ == "__main__":
    main()
