"""A transaction held open by another thread, for the tests of what happens beside one (a
lock waited for or skipped, a connection the pooler hands over)."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from django.db import connection, transaction


@contextmanager
def held_elsewhere(
    hold: Callable[[], object], *, then: Callable[[], object] | None = None, for_at_most: float = 10
) -> Iterator[None]:
    """Runs `hold` in a transaction of another thread (a connection of its own) and keeps that
    transaction open while the block runs, or `for_at_most` seconds if sooner; then `then` in
    the same transaction, and the commit. The block starts once `hold` has returned."""
    held, release = threading.Event(), threading.Event()
    failed: list[BaseException] = []

    def holder() -> None:
        try:
            with transaction.atomic():
                hold()
                held.set()
                release.wait(for_at_most)
                if then is not None:
                    then()
        except BaseException as error:  # shown by the assertion below
            failed.append(error)
        finally:
            connection.close()

    thread = threading.Thread(target=holder)
    thread.start()
    try:
        assert held.wait(10), f"the other transaction never held: {failed}"
        yield
    finally:
        release.set()
        thread.join(10)
    assert not failed, failed
