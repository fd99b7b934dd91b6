"""`GET /games/{id}/` with `If-None-Match` (docs/api.md, Polling a game): 304 while the
viewer's game is the one they hold, decided before the game is built; never 304 once it
differs, whatever changed; a tag is one viewer's."""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
import time_machine
from django.utils import timezone

from accounts.services import player_ban, player_update
from games.models import Game, GameStatus
from games.selectors import game_view_tag
from games.services import lobby, play, rematch
from games.services.clock import game_timeout
from games.services.rating import game_rate
from games.services.staff import game_void
from tests.games.conftest import Client, play_moves, start_table


def _path(game_id: str) -> str:
    return f"/api/v1/games/{game_id}/"


class Poller:
    """A client that polls one game as a good client does: it sends the ETag it holds."""

    def __init__(self, client: Client, game_id: str) -> None:
        self.client, self.game_id = client, game_id
        self.etag: str | None = None
        self.game: dict[str, Any] | None = None

    def poll(self) -> int:
        headers = {} if self.etag is None else {"If-None-Match": self.etag}
        response = self.client.api.get(_path(self.game_id), headers=headers)
        assert response.status_code in (200, 304), response.content
        if response.status_code == 200:
            self.etag, self.game = response["ETag"], response.json()
        else:
            assert response.content == b""
            assert response["ETag"] == self.etag
        return int(response.status_code)

    def fresh(self) -> dict[str, Any]:
        """The game as the server builds it now, asking with no tag."""
        response = self.client.api.get(_path(self.game_id))
        assert response.status_code == 200
        return dict(response.json())


def _ranked_table(make_client: Callable[[str], Client]) -> tuple[str, list[Client]]:
    clients = [make_client("Ann"), make_client("Bob")]
    locked = lobby.game_begin_ranked(players=[client.player for client in clients])
    by_seat = sorted(
        clients, key=lambda c: next(s.seat for s in locked.seats if s.player == c.player)
    )
    return str(locked.game.pk), by_seat


def test_an_unchanged_game_is_304_with_no_body(make_client) -> None:
    game_id, clients = start_table(2)
    first = clients[0].api.get(_path(game_id))
    assert first.status_code == 200
    etag = first["ETag"]
    assert etag.startswith('"')
    assert etag.endswith('"')
    assert "private" in first["Cache-Control"]
    assert "no-cache" in first["Cache-Control"]
    assert "Authorization" in first["Vary"]

    again = clients[0].api.get(_path(game_id), headers={"If-None-Match": etag})
    assert again.status_code == 304
    assert again.content == b""
    assert again["ETag"] == etag
    assert "private" in again["Cache-Control"]
    # A list of tags, or the weak form of it, names it too (RFC 9110 weak comparison).
    listed = clients[0].api.get(_path(game_id), headers={"If-None-Match": f'"other", W/{etag}'})
    assert listed.status_code == 304
    other = clients[0].api.get(_path(game_id), headers={"If-None-Match": '"other"'})
    assert other.status_code == 200
    assert other["ETag"] == etag


def test_a_tag_is_one_viewers(make_client) -> None:
    """Each seat, and each spectator, has a tag of its own: one viewer's tag replayed by
    another is answered with that other's game (200), never 304."""
    game_id, (first, second) = _ranked_table(make_client)
    watcher, other_watcher = make_client("Watcher"), make_client("Other watcher")
    pollers = [Poller(client, game_id) for client in (first, second, watcher, other_watcher)]
    for poller in pollers:
        assert poller.poll() == 200
    tags = [poller.etag for poller in pollers]
    assert len(set(tags)) == 4
    for poller in pollers:
        for tag in tags:
            if tag != poller.etag:
                response = poller.client.api.get(_path(game_id), headers={"If-None-Match": tag})
                assert response.status_code == 200
                assert response["ETag"] == poller.etag
    # The seats' games differ (each its own hand); the two spectators' are the same game.
    assert pollers[0].game != pollers[1].game
    assert pollers[2].game == pollers[3].game
    assert pollers[2].game is not None
    assert pollers[2].game["you"] is None


def test_access_is_checked_before_the_tag(make_client, api_client) -> None:
    game_id, (host, _guest) = start_table(2)
    etag = host.api.get(_path(game_id))["ETag"]
    assert api_client.get(_path(game_id), headers={"If-None-Match": etag}).status_code == 401
    stranger = make_client("Stranger")
    refused = stranger.api.get(_path(game_id), headers={"If-None-Match": etag})
    assert (refused.status_code, refused.json()["code"]) == (403, "forbidden")
    missing = host.api.get(
        _path("00000000-0000-0000-0000-000000000000"), headers={"If-None-Match": etag}
    )
    assert (missing.status_code, missing.json()["code"]) == (404, "not_found")
    player_ban(player=host.player, reason="Cheating.")
    banned = host.api.get(_path(game_id), headers={"If-None-Match": etag})
    assert (banned.status_code, banned.json()["code"]) == (403, "banned")


def test_over_a_whole_game_equal_tags_are_equal_games(make_client) -> None:
    """Every viewer polls after every move of a ranked game to its end and its rating: a tag
    never stands for two games, a poll is 304 exactly when the game is the one held, and no
    two viewers ever share a tag."""
    game_id, clients = _ranked_table(make_client)
    pollers = [Poller(client, game_id) for client in [*clients, make_client("Watcher")]]
    seen: dict[str, str] = {}

    def poll_all() -> None:
        for poller in pollers:
            held = poller.game
            status = poller.poll()
            assert poller.game is not None
            now = poller.fresh()
            assert (status == 304) == (held == now)
            assert poller.game == now
            body = json.dumps(now, sort_keys=True)
            assert poller.etag is not None
            assert seen.setdefault(poller.etag, body) == body
        assert len({poller.etag for poller in pollers}) == len(pollers)

    poll_all()
    poll_all()  # nothing moved: every poll is 304
    for _ in range(40):
        play_moves(game_id, clients, 1)
        poll_all()
    play_moves(game_id, clients, 5000)
    assert Game.objects.get(pk=game_id).status == GameStatus.FINISHED
    poll_all()
    assert game_rate(game_id=game_id) is True  # the seats' ratings move: seq does not
    poll_all()
    assert len(seen) > 40 * len(pollers) / 2


Change = Callable[[str, list[Client]], None]


def _join(game_id: str, clients: list[Client]) -> None:
    code = Game.objects.get(pk=game_id).invite_code
    Client.guest("Late").post(f"/api/v1/games/{game_id}/join/", {"invite_code": code})


def _add_cpu(game_id: str, clients: list[Client]) -> None:
    lobby.game_add_cpu(game_id=game_id, player=clients[0].player)


def _leave_waiting(game_id: str, clients: list[Client]) -> None:
    play.game_leave(game_id=game_id, player=clients[1].player)


def _start(game_id: str, clients: list[Client]) -> None:
    lobby.game_start(game_id=game_id, player=clients[0].player)


def _rename(game_id: str, clients: list[Client]) -> None:
    player_update(player=clients[1].player, display_name="Renamed")


def _leave(game_id: str, clients: list[Client]) -> None:
    play.game_leave(game_id=game_id, player=clients[1].player)


def _deadline(game_id: str, clients: list[Client]) -> None:
    Game.objects.filter(pk=game_id).update(turn_deadline=timezone.now() + timedelta(hours=1))


def _void(game_id: str, clients: list[Client]) -> None:
    game_void(game_id=game_id, reason="collusion")


def _rating(game_id: str, clients: list[Client]) -> None:
    # Another game of theirs is rated: the rating this game shows for them moves.
    other = Game.objects.create(
        ranked=True, rules={}, max_players=2, status=GameStatus.FINISHED, finished_at=timezone.now()
    )
    other.seats.create(seat=0, player=clients[1].player, place=1, live=False)
    other.seats.create(seat=1, player=Client.guest("Rival").player, place=2, live=False)
    assert game_rate(game_id=other.pk) is True


@pytest.mark.parametrize(
    ("started", "change"),
    [
        (False, _join),
        (False, _add_cpu),
        (False, _leave_waiting),
        (False, _start),  # the deal: seq stays 0
        (False, _rename),
        (True, _rename),
        (True, _leave),  # left, and the CPU's level on the seat
        (True, _deadline),
        (True, _void),
        (True, _rating),
    ],
    ids=lambda value: getattr(value, "__name__", str(value)).strip("_"),
)
def test_whatever_changes_the_game_changes_its_tag(make_client, started, change) -> None:
    """Changes that leave `seq` as it was: each one's next poll is 200 with a new tag and the
    new game, for the seat that did not change it and the one that did."""
    clients = [make_client("Host"), make_client("Guest")]
    game_id = clients[0].post("/api/v1/games/", {"max_players": 3}).json()["id"]
    code = Game.objects.get(pk=game_id).invite_code
    clients[1].post(f"/api/v1/games/{game_id}/join/", {"invite_code": code})
    if started:
        _start(game_id, clients)
    pollers = [Poller(client, game_id) for client in clients]
    for poller in pollers:
        assert poller.poll() == 200
        assert poller.poll() == 304
    seq = Game.objects.get(pk=game_id).seq
    held = [(poller.etag, poller.game) for poller in pollers]

    change(game_id, clients)

    assert Game.objects.get(pk=game_id).seq == seq
    for poller, (etag, game) in zip(pollers, held, strict=True):
        if change is _leave_waiting and poller.client is clients[1]:
            continue  # no longer seated: a stranger to a private game
        assert poller.poll() == 200
        assert poller.etag != etag
        assert poller.game != game
        assert poller.poll() == 304


def test_coming_back_from_away_changes_the_tag(make_client) -> None:
    """A timeout makes the seat away (and moves); coming back moves nothing."""
    game_id, clients = start_table(2)
    seq = Game.objects.get(pk=game_id).seq
    Game.objects.filter(pk=game_id).update(turn_deadline=timezone.now() - timedelta(seconds=1))
    assert game_timeout(game_id=game_id, seq=seq) is True
    away = Game.objects.get(pk=game_id).seats.get(away=True)
    player = next(client.player for client in clients if client.player.pk == away.player_id)
    pollers = [Poller(client, game_id) for client in clients]
    for poller in pollers:
        assert poller.poll() == 200
    held = [(poller.etag, poller.game) for poller in pollers]
    seq = Game.objects.get(pk=game_id).seq
    play.game_player_returned(game_id=game_id, player=player)
    assert Game.objects.get(pk=game_id).seq == seq
    for poller, (etag, held_game) in zip(pollers, held, strict=True):
        assert poller.poll() == 200
        assert poller.etag != etag
        assert poller.game != held_game


def test_a_ban_hands_the_seat_over_and_changes_the_tag(
    make_client, django_capture_on_commit_callbacks
) -> None:
    game_id, clients = start_table(2)
    poller = Poller(clients[0], game_id)
    assert poller.poll() == 200
    held = poller.etag, poller.game
    with django_capture_on_commit_callbacks(execute=True):
        player_ban(player=clients[1].player, reason="Abuse.")
    assert poller.poll() == 200
    assert poller.game is not None
    assert poller.game["seats"][1]["left"] is True
    assert (poller.etag, poller.game) != held


def test_the_takeover_level_setting_changes_the_tag(make_client, settings) -> None:
    game_id, clients = start_table(2)
    play.game_leave(game_id=game_id, player=clients[1].player)
    poller = Poller(clients[0], game_id)
    assert poller.poll() == 200
    assert poller.game is not None
    assert poller.game["seats"][1]["cpu_level"] == "hard"
    settings.YANIV_CPU_TAKEOVER_LEVEL = "easy"
    assert poller.poll() == 200
    assert poller.game["seats"][1]["cpu_level"] == "easy"


def test_a_rematch_leaves_the_finished_game_and_its_tag_as_they_were(make_client) -> None:
    """The rematch is an event of the finished game and a new game: the finished game's
    payload does not change, so its tag stands (304), and the payload is indeed the same."""
    game_id, clients = start_table(2)
    play_moves(game_id, clients, 5000)
    poller = Poller(clients[0], game_id)
    assert poller.poll() == 200
    held = poller.game
    rematch.rematch_answer(game_id=game_id, player=clients[0].player, accept=True)
    rematch.rematch_answer(game_id=game_id, player=clients[1].player, accept=True)
    assert poller.poll() == 304
    assert poller.fresh() == held


def test_a_tag_changes_at_utc_midnight(players, make_game) -> None:
    """The seats' ratings age at UTC midnight, so yesterday's copy is not current."""
    game = make_game([(players[0], 1), (players[1], 2)])
    game_rate(game_id=game.pk)
    now = timezone.now()
    with time_machine.travel(now, tick=False):
        today = game_view_tag(game.pk, players[0])
    with time_machine.travel(now + timedelta(minutes=1), tick=False):
        assert game_view_tag(game.pk, players[0]) == today
    with time_machine.travel(now + timedelta(days=1), tick=False):
        tomorrow = game_view_tag(game.pk, players[0])
    assert today is not None
    assert tomorrow is not None
    assert tomorrow.etag != today.etag
