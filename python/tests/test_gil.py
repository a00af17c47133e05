"""Long searches release the GIL (another thread runs meanwhile) and stop on
Ctrl-C between batches."""

import os
import signal
import threading
import time

import numpy as np
import pytest

import lightsout
from conftest import solvable


def test_another_thread_runs_during_a_long_search():
    # 39x39 has nullity 32: 2^32 members, a second or more here.
    board = solvable(np.random.default_rng(8), 39, 39)
    ticks = []
    stop = threading.Event()

    def count():
        while not stop.is_set():
            ticks.append(time.perf_counter())
            time.sleep(0.005)

    worker = threading.Thread(target=count)
    worker.start()
    time.sleep(0.05)
    started = time.perf_counter()
    s = lightsout.solve(board, target="white")
    ended = time.perf_counter()
    stop.set()
    worker.join()
    assert s.proven_minimal and s.nullity == 32
    during = [t for t in ticks if started < t < ended]
    # The counting thread ticks all through the search, not only before and after.
    assert ended - started > 0.2 and len(during) >= 0.5 * (ended - started) / 0.005 * 0.2, (len(during), ended - started)


def interrupt_after(seconds):
    timer = threading.Timer(seconds, lambda: os.kill(os.getpid(), signal.SIGINT))
    timer.start()
    return timer


def test_ctrl_c_stops_a_two_state_search():
    # 61x61 random: nullity 40, minutes of search; SIGINT after 0.3 s.
    board = solvable(np.random.default_rng(6), 61, 61)
    timer = interrupt_after(0.3)
    started = time.perf_counter()
    with pytest.raises(KeyboardInterrupt):
        lightsout.solve(board, target="white", max_nullity=40)
    timer.join()
    assert time.perf_counter() - started < 10


def test_ctrl_c_stops_a_batch():
    boards = solvable(np.random.default_rng(6), 61, 61, 2)
    timer = interrupt_after(0.3)
    with pytest.raises(KeyboardInterrupt):
        lightsout.solve_many(boards, target="white", max_nullity=40)
    timer.join()


def test_ctrl_c_returns_from_a_k_state_search():
    # 39x39 over Z_3: 3^18 quiet patterns, some 15 s of exhaustive search
    # here. The call returns at once on Ctrl-C, and the abandoned search
    # stops on its own threads, which do not hold up the calls after it
    # (the next test's batch runs on the global pool).
    from conftest import apply

    rng = np.random.default_rng(2)
    board = apply(np.zeros((39, 39), dtype=np.uint8), rng.integers(0, 3, size=(39, 39)), states=3).astype(np.uint8)
    timer = interrupt_after(0.3)
    started = time.perf_counter()
    with pytest.raises(KeyboardInterrupt):
        lightsout.solve(board, states=3, target=0)
    timer.join()
    assert time.perf_counter() - started < 2
    # Meanwhile a batch on the global pool is not held up.
    started = time.perf_counter()
    lightsout.solve_many(np.zeros((200, 3, 3), dtype=np.uint8), states=3)
    assert time.perf_counter() - started < 5


def test_regression_ctrl_c_stops_a_k_state_search_in_a_batch():
    # Regression: in `solve_many` a long K-state search ran on the calling
    # thread with no stop, so Ctrl-C raised only when it ended. It now runs
    # on a thread of its own, as in `solve`, and both raise at once; the
    # abandoned search stops at its next task (the engine's tasks are
    # coarse, up to a good part of the search: measured, not asserted).
    from conftest import apply

    rng = np.random.default_rng(2)
    board = apply(np.zeros((39, 39), dtype=np.uint8), rng.integers(0, 3, size=(39, 39)), states=3).astype(np.uint8)
    for call in [lambda: lightsout.solve(board, states=3, target=0),
                 lambda: lightsout.solve_many(board[None], states=3, target=0)]:
        timer = interrupt_after(0.3)
        started = time.perf_counter()
        with pytest.raises(KeyboardInterrupt):
            call()
        timer.join()
        assert time.perf_counter() - started < 2


def threads():
    """Threads of this process, as the kernel counts them."""
    with open("/proc/self/status") as status:
        return next(int(line.split()[1]) for line in status if line.startswith("Threads:"))


def test_regression_an_interrupted_k_state_search_ends_its_threads_promptly():
    # Regression: the abandoned search checked its stop only between its
    # tasks, a good part of the whole each: a 40x40 board over Z_3 with
    # max_nullity=32 (3^20 quiet patterns, minutes of search) ran on 76 s
    # after Ctrl-C. It now stops within a batch of blocks; its threads (the
    # search thread and its pool) are counted in /proc/self/status.
    from conftest import apply

    rng = np.random.default_rng(3)
    board = apply(np.zeros((40, 40), dtype=np.uint8), rng.integers(0, 3, size=(40, 40)), states=3).astype(np.uint8)
    # Factor the puzzle (cached) and start the global pool first, so that
    # only the search's threads come and go below.
    lightsout.solve(np.zeros((40, 40), dtype=np.uint8), states=3, target=0, max_nullity=32)
    lightsout.solve_many(np.zeros((20, 3, 3), dtype=np.uint8), states=3)
    # The warm-up's own search threads end just after it returns.
    before = threads()
    for _ in range(50):
        time.sleep(0.1)
        before, previous = threads(), before
        if before == previous:
            break
    during = []

    def interrupt():
        during.append(threads())
        os.kill(os.getpid(), signal.SIGINT)

    timer = threading.Timer(0.5, interrupt)
    timer.start()
    with pytest.raises(KeyboardInterrupt):
        lightsout.solve(board, states=3, target=0, max_nullity=32)
    interrupted = time.perf_counter()
    timer.join()
    while threads() > before and time.perf_counter() - interrupted < 30:
        time.sleep(0.01)
    ended = time.perf_counter() - interrupted
    print(f"threads {before} -> {during[0]} during the search, back to {threads()} {ended:.3f} s after Ctrl-C")
    assert during[0] > before, (before, during)
    assert threads() <= before and ended < 5, (before, threads(), ended)


def test_ctrl_c_stops_hardest():
    # 9x9 has nullity 8: its bounds do not meet, and the searches run on
    # to the work budget (some 20 s here). On Ctrl-C the call raises at
    # once, and the abandoned searches see the stop flag (the same one a
    # time limit sets) and end their threads within moments.
    lightsout.hardest(4, 4)  # start the global pool, so only the work's threads come and go
    before = threads()
    timer = interrupt_after(0.3)
    started = time.perf_counter()
    with pytest.raises(KeyboardInterrupt):
        lightsout.hardest(9, 9)
    interrupted = time.perf_counter()
    timer.join()
    assert interrupted - started < 2
    while threads() > before and time.perf_counter() - interrupted < 30:
        time.sleep(0.01)
    ended = time.perf_counter() - interrupted
    print(f"threads back to {threads()} {ended:.3f} s after Ctrl-C")
    assert threads() <= before and ended < 5, (before, threads(), ended)
