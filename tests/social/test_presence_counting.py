"""core/presence.py alone: each player's open me sockets counted in Redis, the first and the
last told apart, and sockets that expired without closing swept."""

from __future__ import annotations

import time
import uuid

from core import presence


def test_the_first_socket_comes_online_and_the_last_goes_offline() -> None:
    player = uuid.uuid4()
    assert presence.socket_opened(player, "one")
    assert not presence.socket_opened(player, "two")
    assert not presence.socket_opened(player, "one")  # a renewal
    assert presence.online([player]) == {str(player)}

    assert not presence.socket_closed(player, "one")
    assert presence.online([player]) == {str(player)}
    assert presence.socket_closed(player, "two")
    assert presence.online([player]) == set()
    assert not presence.socket_closed(player, "two")  # told once


def test_a_socket_not_renewed_lapses_and_the_sweep_takes_it_once() -> None:
    player, other = uuid.uuid4(), uuid.uuid4()
    now = time.time()
    presence.socket_opened(player, "dead", now=now)
    presence.socket_opened(other, "alive", now=now)
    later = now + presence.refresh_seconds() * 3 + 1
    presence.socket_opened(other, "alive", now=later - 1)  # renewed in time

    assert presence.online([player, other], now=later) == {str(other)}
    assert str(player) in presence.presence_sweep(now=later)
    assert str(player) not in presence.presence_sweep(now=later)
    assert str(other) not in presence.presence_sweep(now=later)
    # A socket that closes after its entry was swept is not reported twice.
    assert not presence.socket_closed(player, "dead", now=later)


def test_a_lapsed_socket_renewed_before_the_sweep_stays_online_unannounced() -> None:
    player = uuid.uuid4()
    now = time.time()
    assert presence.socket_opened(player, "late", now=now)
    later = now + presence.refresh_seconds() * 3 + 1
    # Renewed late, but before any sweep: its friends never saw it go, so nothing to say.
    assert not presence.socket_opened(player, "late", now=later)
    assert str(player) not in presence.presence_sweep(now=later)


def test_a_process_renews_its_sockets_in_one_round_trip() -> None:
    players = [uuid.uuid4() for _ in range(3)]
    sockets = [(player, f"socket-{player}") for player in players]
    now = time.time()
    for player, socket in sockets:
        presence.socket_opened(player, socket, now=now)
    renewed = now + presence.refresh_seconds()
    assert presence.sockets_renewed(sockets[:2], now=renewed) == [False, False]

    # The third was not renewed in time: its entry lapsed and the sweep told of it.
    later = now + presence.refresh_seconds() * 3 + 1
    assert presence.online(players, now=later) == {str(player) for player in players[:2]}
    assert str(players[2]) in presence.presence_sweep(now=later)
    # Its socket was open after all (a renewal come late): online again, and said so once.
    assert presence.sockets_renewed(sockets, now=later) == [False, False, True]
    assert presence.online(players, now=later) == {str(player) for player in players}
    assert presence.sockets_renewed([]) == []
