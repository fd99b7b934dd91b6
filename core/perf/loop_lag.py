"""How late a web process's event loop wakes: `yaniv_event_loop_lag_seconds` (/metrics).

Every socket of a web process, and every HTTP answer's last step, runs on its one event loop;
whatever holds it (a long callback, the GIL held by another thread, the process descheduled by
a busy machine) delays all of them alike. A timer here asks to wake every `INTERVAL` seconds
and records how late it woke: a histogram near zero is a loop that answers at once, a tail of
tens of milliseconds is time every move and push of that moment waited
(bench/README.md, capacity). It starts with the server (config/asgi.py, the lifespan)."""

from __future__ import annotations

import asyncio

from core import metrics

INTERVAL = 0.25  # seconds: four cheap wake-ups a second

_WATCHING: set[asyncio.Task[None]] = set()  # held: the loop keeps only weak references


async def watch(interval: float = INTERVAL) -> None:
    loop = asyncio.get_running_loop()
    while True:
        due = loop.time() + interval
        await asyncio.sleep(interval)
        metrics.LOOP_LAG.observe(max(0.0, loop.time() - due))


def install(interval: float = INTERVAL) -> asyncio.Task[None]:
    """Watch the running loop until it ends."""
    task = asyncio.get_running_loop().create_task(watch(interval))
    _WATCHING.add(task)
    task.add_done_callback(_WATCHING.discard)
    return task
