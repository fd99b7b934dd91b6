"""A web process's garbage collection: the full collection on a clock, not on allocations.

Replaces: CPython's automatic full (generation 2) collections, in web processes only.
Why: a web process holding thousands of waiting sockets holds 130 to 220 tracked objects per
socket (coroutines, futures, queues, the consumer; by uvicorn's websocket implementation), and
a full collection visits every tracked object with the GIL held: at 1,000 sockets a process
it took 130 to 170 ms of CPU (bench.capacity), and nothing else in the process moved
meanwhile, so every move in flight was late by that much. CPython runs one whenever the
objects that outlived two younger collections reach a quarter of the old ones: under a steady
load every 20 to 40 s per process, longer the more sockets. The cycles a full collection
frees are few (1,500 to 5,000 objects of 140,000 to 320,000 each time there), so little is
held the longer by freeing them less often. (A frozen object is never collected: only what
the start built, which lives as long as the process, is frozen.)
Here: what the process built while starting (Django, the URL conf, the views) is frozen
(`gc.freeze`: never visited again), the two young generations are collected as before, and
the full collection runs every `WEB_GC_FULL_SECONDS` (a setting; 0 keeps CPython's own),
each timed in `yaniv_gc_full_seconds` (/metrics).
Relies on (tests/core/perf/test_garbage.py): CPython collects generation 2 only when its count,
one per generation-1 collection, exceeds its threshold, so a threshold out of reach stops the
automatic full collections and nothing else.
"""

from __future__ import annotations

import gc
import logging
import threading
import time

from core import metrics

logger = logging.getLogger(__name__)

# A generation-2 threshold no count of generation-1 collections reaches.
NEVER = 2**31 - 1


def install(full_seconds: float) -> threading.Thread | None:
    """Freeze what exists, and collect in full every `full_seconds` from a daemon thread
    (the thread, or None when `full_seconds` is 0, which leaves CPython's collector alone)."""
    if full_seconds <= 0:
        return None
    gc.collect()
    gc.freeze()
    young, middle, _ = gc.get_threshold()
    gc.set_threshold(young, middle, NEVER)
    thread = threading.Thread(
        target=_collect_every, args=(full_seconds,), name="gc-full", daemon=True
    )
    thread.start()
    return thread


def _collect_every(seconds: float) -> None:
    while True:
        time.sleep(seconds)
        started = time.perf_counter()
        found = gc.collect()
        took = time.perf_counter() - started
        metrics.GC_FULL_DURATION.observe(took)
        logger.info("full garbage collection: %d objects freed in %.0f ms", found, took * 1000)
