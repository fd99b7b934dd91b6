"""The pure parts of bench.chat: a message's deliveries to the other seats, the presence
pushes an event waits for, the pace's flag. (The bench's numbers are its own output, never a
test.)"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import time
from typing import Any, cast

import pytest

from bench.chat import Account, Load, Presence, Sent, deliveries, everys


def _account(name: str) -> Account:
    return Account(name, {})


def test_each_message_is_delivered_to_the_other_seats_of_its_table_only() -> None:
    load = Load("http://127.0.0.1:1", cast(Any, None))
    load.tables = [[_account(p) for p in "abcd"], [_account(p) for p in "efgh"]]
    load.sent = [
        Sent("a", 0, "text", 10.0, 0.02, 201, message_id="m1"),
        Sent("f", 1, "phrase", 11.0, 0.02, 201, message_id="m2"),
        Sent("b", 0, "phrase", 12.0, 0.0, 429, code="throttled"),  # refused: nothing to deliver
    ]
    load.arrivals = {
        "m1": {"b": 10.03, "c": 10.05, "d": 10.04},
        "m2": {"e": 11.01, "g": 11.02},  # h's never came
    }
    found = deliveries(load)
    assert sorted(round(x, 3) for x in found["latencies"]) == [0.01, 0.02, 0.03, 0.04, 0.05]
    assert found["missing"] == 1


def test_an_event_is_done_when_every_friend_was_told_that_very_change() -> None:
    presence = Presence()
    presence.begin("p", "online", expected=2)
    presence.seen("f1", {"player_id": "p", "presence": "offline"}, 1.0)  # the change before
    presence.seen("f1", {"player_id": "q", "presence": "online"}, 1.0)  # someone else
    assert not presence.done.is_set()
    presence.seen("f1", {"player_id": "p", "presence": "online"}, 2.0)
    presence.seen("f1", {"player_id": "p", "presence": "online"}, 3.0)  # the first counts
    assert not presence.done.is_set()
    presence.seen("f2", {"player_id": "p", "presence": "online"}, 4.0)
    assert presence.done.is_set()
    assert presence.times == {"f1": 2.0, "f2": 4.0}
    presence.begin("p", "offline", expected=0)  # nobody to tell: done at once
    assert presence.done.is_set()


def test_the_pace_is_a_range_of_seconds() -> None:
    assert everys("10,20") == (10.0, 20.0)
    assert everys("15") == (15.0, 15.0)
    for bad in ("20,10", "0,5", "-1,2"):
        with pytest.raises(argparse.ArgumentTypeError):
            everys(bad)


class _Answer:
    status_code = 201
    headers = {"content-type": "application/json"}

    def __init__(self, number: int) -> None:
        self.number = number

    def json(self) -> dict[str, Any]:
        return {"id": f"m{self.number}"}


class _Http:
    """Answers every chat POST at once, keeping each body."""

    def __init__(self) -> None:
        self.bodies: list[dict[str, Any]] = []

    async def post(self, url: str, **kwargs: Any) -> _Answer:
        self.bodies.append(kwargs["json"])
        return _Answer(len(self.bodies))


def test_a_player_chats_at_its_pace_and_never_says_the_same_twice_running() -> None:
    async def chat() -> Load:
        load = Load("http://127.0.0.1:1", cast(Any, _Http()), text_share=0.5)
        stop = time.monotonic() + 0.5
        await load.chatter(0, _account("a"), "g", stop, (0.1, 0.1))
        return load

    load = asyncio.run(chat())
    gaps = [b.at - a.at for a, b in itertools.pairwise(load.sent)]
    assert 3 <= len(load.sent) <= 6  # the first within 0.1 s, then one every 0.1 s until 0.5
    assert all(gap >= 0.09 for gap in gaps)
    bodies = cast(Any, load.http).bodies
    assert all(a != b for a, b in itertools.pairwise(bodies))
    assert [sent.message_id for sent in load.sent] == [f"m{n}" for n in range(1, len(bodies) + 1)]
