"""The tournaments' endpoints (docs/api.md, Tournaments): create, list, read, join, pause,
withdraw, the standings and the games, and their refusals."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone, translation

from games.models import Game, GameStatus
from tests.factories import PlayerFactory
from tournaments.services import tournament_cancel, tournament_game_score, tournaments_tick

pytestmark = pytest.mark.django_db

URL = "/api/v1/tournaments/"


def body(**fields: Any) -> dict[str, Any]:
    return {
        "name": "Friday arena",
        "starts_at": (timezone.now() - timedelta(seconds=1)).isoformat(),
        "minutes": 30,
        "table_sizes": [2],
        "rated": True,
        **fields,
    }


@pytest.fixture
def host(client_for):
    return client_for(PlayerFactory.create(registered=True, username="host", display_name="Host"))


def test_create_and_read(host, api_client, guest_client) -> None:
    response = host.post(URL, body(password="sesame", max_players=8), format="json")
    assert response.status_code == 201, response.content
    created = response.json()
    assert {k: created[k] for k in ("name", "status", "table_sizes", "rated", "turn_seconds")} == {
        "name": "Friday arena",
        "status": "upcoming",
        "table_sizes": [2],
        "rated": True,
        "turn_seconds": 30,
    }
    assert created["private"] is True
    assert created["created_by"]["display_name"] == "Host"
    assert created["me"] == {"joined": False, "paused": False, "score": 0.0, "rank": None}
    assert "sesame" not in response.content.decode()
    read = api_client.get(f"{URL}{created['id']}/").json()
    assert read["me"] is None  # no token
    assert read["players_count"] == 0
    listed = api_client.get(f"{URL}?status=upcoming").json()
    assert [t["id"] for t in listed["results"]] == [created["id"]]
    assert api_client.get(f"{URL}?status=running").json()["count"] == 0
    assert api_client.get(f"{URL}?status=soon").json()["code"] == "invalid"
    refused = guest_client.post(URL, body(), format="json")
    assert (refused.status_code, refused.json()["code"]) == (403, "guest")


@pytest.mark.parametrize(
    ("fields", "code"),
    [
        ({"minutes": 4}, "invalid"),
        ({"minutes": 721}, "invalid"),
        ({"table_sizes": [1]}, "invalid"),
        ({"table_sizes": [6]}, "invalid"),
        ({"table_sizes": []}, "invalid"),
        ({"rules": {"preset": "jhyap"}}, "invalid_rules"),  # rated: standard rules only
        ({"rated": False, "rules": {"no_such": 1}}, "invalid_rules"),
        ({"turn_seconds": 5}, "invalid"),
    ],
)
def test_bad_tournaments_are_refused(host, fields, code) -> None:
    response = host.post(URL, body(**fields), format="json")
    assert response.status_code == 400
    assert response.json()["code"] == code


def test_join_pause_withdraw_standings_and_games(host, client_for) -> None:
    tournament = host.post(URL, body(password="sesame"), format="json").json()
    base = f"{URL}{tournament['id']}/"
    players = [PlayerFactory.create() for _ in range(2)]
    clients = [client_for(player) for player in players]
    wrong = clients[0].post(f"{base}join/", {"password": "x"}, format="json")
    assert (wrong.status_code, wrong.json()["code"]) == (403, "bad_password")
    for client in clients:
        joined = client.post(f"{base}join/", {"password": "sesame"}, format="json")
        assert joined.status_code == 200, joined.content
        assert joined.json()["me"]["joined"] is True
    assert clients[0].post(f"{base}pause/").json()["me"]["paused"] is True
    assert clients[0].post(f"{base}join/", {}, format="json").json()["me"]["paused"] is False
    tournaments_tick()
    game = Game.objects.get(tournament_id=tournament["id"])
    for seat in game.seats.all():
        seat.place = 1 if seat.player == players[1] else 2
        seat.live = False
        seat.save()
    game.status, game.finished_at = GameStatus.FINISHED, timezone.now()
    game.save()
    tournament_game_score(game_id=game.pk)

    rows = host.get(f"{base}standings/").json()["results"]
    assert [(r["rank"], r["player"]["id"], r["score"], r["games"], r["firsts"]) for r in rows] == [
        (1, str(players[1].pk), 1.0, 1, 1),
        (2, str(players[0].pk), 0.0, 1, 0),
    ]
    games = host.get(f"{base}games/").json()
    assert [g["id"] for g in games["results"]] == [str(game.pk)]
    assert {p["id"] for p in games["results"][0]["players"]} == {str(p.pk) for p in players}
    assert clients[1].get(base).json()["me"]["rank"] == 1
    late = clients[0].post(f"{base}withdraw/")
    assert (late.status_code, late.json()["code"]) == (409, "not_open")
    stranger = client_for(PlayerFactory.create()).post(f"{base}pause/")
    assert (stranger.status_code, stranger.json()["code"]) == (409, "not_joined")
    assert host.get(f"{URL}{'0' * 8}-0000-0000-0000-{'0' * 12}/").status_code == 404


def _arena_of_two(host, client_for, **fields: Any) -> tuple[str, list[Any], list[Any], Game]:
    """An arena (created by `host`) two players joined, and the table its pass made."""
    tournament = host.post(URL, body(**fields), format="json").json()
    base = f"{URL}{tournament['id']}/"
    players = [PlayerFactory.create() for _ in range(2)]
    clients = [client_for(player) for player in players]
    for client in clients:
        assert client.post(f"{base}join/", {}, format="json").status_code == 200
    tournaments_tick()
    return base, players, clients, Game.objects.get(tournament_id=tournament["id"])


def test_leaving_the_table_pauses_at_once(
    host, client_for, django_capture_on_commit_callbacks
) -> None:
    base, players, clients, game = _arena_of_two(host, client_for)

    with django_capture_on_commit_callbacks(execute=True):
        left = clients[0].post(f"/api/v1/games/{game.pk}/leave/")
    assert left.status_code == 200, left.content

    assert clients[0].get(base).json()["me"]["paused"] is True
    rows = {r["player"]["id"]: r["paused"] for r in host.get(f"{base}standings/").json()["results"]}
    assert rows == {str(players[0].pk): True, str(players[1].pk): False}
    # Joining again brings them back while the CPU finishes their seat.
    assert clients[0].post(f"{base}join/", {}, format="json").json()["me"]["paused"] is False


def test_a_cancelled_tournament_has_no_standings(host, client_for) -> None:
    base, _, clients, game = _arena_of_two(host, client_for)
    game.seats.update(place=1, live=False)
    game.status, game.finished_at = GameStatus.FINISHED, timezone.now()
    game.save()
    tournament_game_score(game_id=game.pk)
    assert host.get(f"{base}standings/").json()["count"] == 2

    tournament_cancel(tournament_id=base.split("/")[-2])

    standings = host.get(f"{base}standings/")
    assert standings.status_code == 200
    assert (standings.json()["count"], standings.json()["results"]) == (0, [])
    read = clients[0].get(base).json()
    assert read["status"] == "cancelled"
    assert read["me"] == {"joined": True, "paused": False, "score": 0.5, "rank": None}
    assert read["players_count"] == 2
    listed = clients[0].get(f"{URL}?status=cancelled").json()["results"]
    assert [t["me"]["rank"] for t in listed] == [None]


@pytest.mark.parametrize(
    "starts_in", [timedelta(minutes=-2), timedelta(days=-1), timedelta(days=90, minutes=1)]
)
def test_a_start_too_long_ago_or_too_far_ahead_is_refused(host, starts_in) -> None:
    starts_at = (timezone.now() + starts_in).isoformat()

    refused = host.post(URL, body(starts_at=starts_at), format="json", HTTP_ACCEPT_LANGUAGE="he")

    assert (refused.status_code, refused.json()["code"]) == (400, "invalid")
    english = "starts_at must be between a minute ago and %(days)s days from now."
    with translation.override("he"):
        hebrew = translation.gettext(english) % {"days": 90}
    assert refused.json()["detail"] == hebrew != english % {"days": 90}
    assert host.get(URL).json()["count"] == 0


def test_a_start_within_the_bounds_is_accepted(host) -> None:
    for starts_in in (timedelta(seconds=-30), timedelta(days=89)):
        starts_at = (timezone.now() + starts_in).isoformat()
        assert host.post(URL, body(starts_at=starts_at), format="json").status_code == 201


def test_an_unrated_tournament_plays_its_preset(host, client_for) -> None:
    created = host.post(
        URL, body(rated=False, rules={"preset": "dhumbal"}, table_sizes=[2, 3]), format="json"
    )
    assert created.status_code == 201, created.content
    rules = created.json()["rules"]
    assert (rules["preset"], rules["call_limit"], rules["jokers"]) == ("dhumbal", 15, 0)

    *_, game = _arena_of_two(host, client_for, rated=False, rules={"preset": "dhumbal"})

    assert (game.ranked, game.rated) == (True, False)
    assert (game.rules["preset"], game.rules["call_limit"], game.rules["jokers"]) == (
        "dhumbal",
        15,
        0,
    )
    assert game.rules["turn_seconds"] == 30
