"""Rematch of a finished private table (docs/api.md, Rematch): offer, accept, decline, lapse;
the new table's seats, CPU seats and rules; the events every seated socket is told."""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine
from django.utils import timezone

from games import tasks
from games.game_rules import GameRules
from games.models import Event, Game, GameStatus

pytestmark = pytest.mark.django_db


def _path(game: Game) -> str:
    return f"/api/v1/games/{game.pk}/rematch/"


@pytest.fixture
def table(players, make_game):
    """A finished private table: a (host, seat 0), a CPU (seat 1), b (seat 2)."""
    a, b = players[:2]
    game = make_game([(a, 2), (None, 3), (b, 1)], ranked=False, host=a)
    game.rules = GameRules.parse({"turn_seconds": 30}).to_dict()
    game.save(update_fields=["rules"])
    return game


def _types(game: Game) -> list[str]:
    return list(game.events.filter(type__startswith="rematch_").values_list("type", flat=True))


def test_when_everyone_accepts_a_rotated_table_starts(
    table, players, client_for, django_capture_on_commit_callbacks
) -> None:
    a, b = players[:2]
    with django_capture_on_commit_callbacks() as callbacks:
        offered = client_for(a).post(_path(table), {}, format="json")
    assert offered.status_code == 200
    body = offered.json()
    assert body["status"] == "offered"
    assert (body["offered_by"], body["accepted"], body["waiting_for"]) == (0, [0], [2])
    assert body["game_id"] is None
    assert callbacks  # the offer's timeout task, queued after the commit

    started = client_for(b).post(_path(table), {"accept": True}, format="json").json()
    assert started["status"] == "started"
    new = Game.objects.get(pk=started["game_id"])
    assert new.status == GameStatus.ACTIVE
    assert (new.ranked, new.host, new.max_players) == (False, a, table.max_players)
    assert new.rules == table.rules
    # Rotated by one: the old seat 1 (the CPU) sits first, the old seat 0 last.
    seats = list(new.seats.order_by("seat").values_list("player", "is_cpu", "live"))
    assert seats == [(None, True, False), (b.pk, False, True), (a.pk, False, True)]
    assert _types(table) == ["rematch_offered", "rematch_accepted", "rematch_started"]
    assert table.events.get(type="rematch_started").payload == {"game_id": str(new.pk)}
    # The event log shows them to a seated player, in the public keys only.
    events = client_for(b).get(f"/api/v1/games/{table.pk}/events/").json()["results"]
    shown = [event for event in events if event["type"].startswith("rematch_")]
    assert shown[0]["seat"] == 0
    assert "expires_at" in shown[0]
    assert shown[2]["game_id"] == str(new.pk)
    # It is over: a second rematch of the same game is refused, with the new game.
    again = client_for(a).post(_path(table), {}, format="json")
    assert again.status_code == 409
    assert again.json()["code"] == "rematch_started"
    assert again.json()["game_id"] == str(new.pk)
    assert client_for(b).get(_path(table)).json()["status"] == "started"


def test_a_decline_ends_the_offer_and_a_new_one_may_follow(table, players, client_for) -> None:
    a, b = players[:2]
    client_for(a).post(_path(table), {}, format="json")
    declined = client_for(b).post(_path(table), {"accept": False}, format="json")
    assert declined.status_code == 200
    assert declined.json()["status"] == "declined"
    assert not Game.objects.exclude(pk=table.pk).exists()
    # Nothing left to decline.
    response = client_for(a).post(_path(table), {"accept": False}, format="json")
    assert (response.status_code, response.json()["code"]) == (409, "no_rematch_offer")
    # b offers now; a accepts: the table starts.
    assert client_for(b).post(_path(table), {}, format="json").json()["offered_by"] == 2
    assert client_for(a).post(_path(table), {}, format="json").json()["status"] == "started"
    assert _types(table) == [
        "rematch_offered",
        "rematch_declined",
        "rematch_offered",
        "rematch_accepted",
        "rematch_started",
    ]


def test_a_lapsed_offer_starts_the_table_of_those_who_accepted(
    table, players, client_for, settings
) -> None:
    a, b = players[:2]
    settings.YANIV_REMATCH_SECONDS = 30
    client_for(a).post(_path(table), {}, format="json")
    offer_id = table.events.get(type="rematch_offered").pk
    assert tasks.rematch_expire(str(table.pk), offer_id) is False  # not due yet
    with time_machine.travel(timezone.now() + timedelta(seconds=31)):
        # Read before the task ran: expired already.
        assert client_for(b).get(_path(table)).json()["status"] == "expired"
        assert tasks.rematch_expire(str(table.pk), offer_id) is True
        assert tasks.rematch_expire(str(table.pk), offer_id) is False  # once
        assert _types(table) == ["rematch_offered", "rematch_expired", "rematch_started"]
        # a and the CPU play again, rotated (the CPU first); b, who never answered, is not seated.
        started = client_for(a).get(_path(table)).json()
        assert started["status"] == "started"
        new = Game.objects.get(pk=started["game_id"])
        assert (new.status, new.host) == (GameStatus.ACTIVE, a)
        seats = list(new.seats.order_by("seat").values_list("player", "is_cpu"))
        assert seats == [(None, True), (a.pk, False)]
        late = client_for(b).post(_path(table), {}, format="json")
    assert (late.status_code, late.json()["code"]) == (409, "rematch_started")


def test_a_lapsed_offer_with_one_seat_accepted_only_ends(players, make_game, client_for) -> None:
    a, b = players[:2]
    game = make_game([(a, 1), (b, 2)], ranked=False, host=a)
    client_for(b).post(_path(game), {}, format="json")
    with time_machine.travel(timezone.now() + timedelta(seconds=3600)):
        # No task ran: the next request settles the lapsed offer, then makes a new one.
        again = client_for(a).post(_path(game), {}, format="json").json()
    assert _types(game) == ["rematch_offered", "rematch_expired", "rematch_offered"]
    assert (again["status"], again["offered_by"]) == ("offered", 0)
    assert not Game.objects.exclude(pk=game.pk).exists()


def test_a_lapsed_offer_whose_host_did_not_answer_gets_a_new_host(
    table, players, client_for
) -> None:
    b = players[1]
    client_for(b).post(_path(table), {}, format="json")  # b offers; a, the host, is silent
    with time_machine.travel(timezone.now() + timedelta(seconds=3600)):
        offer_id = table.events.get(type="rematch_offered").pk
        assert tasks.rematch_expire(str(table.pk), offer_id) is True
    new = Game.objects.get(pk=table.events.get(type="rematch_started").payload["game_id"])
    assert new.host == b
    assert list(new.seats.order_by("seat").values_list("player", flat=True)) == [None, b.pk]


def test_only_seated_humans_of_a_finished_private_game(
    table, players, client_for, make_game
) -> None:
    a, b, stranger = players[:3]
    response = client_for(stranger).post(_path(table), {}, format="json")
    assert (response.status_code, response.json()["code"]) == (403, "not_seated")
    ranked = make_game([(a, 1), (b, 2)])
    response = client_for(a).post(_path(ranked), {}, format="json")
    assert (response.status_code, response.json()["code"]) == (409, "ranked_game")
    active = make_game([(a, None), (b, None)], ranked=False, host=a, status="active")
    response = client_for(a).post(_path(active), {}, format="json")
    assert (response.status_code, response.json()["code"]) == (409, "not_finished")
    response = client_for(a).post(_path(table), {"accept": "maybe"}, format="json")
    assert (response.status_code, response.json()["code"]) == (400, "invalid")
    assert not Event.objects.filter(type__startswith="rematch_").exists()


def test_a_player_at_another_table_cannot_accept(table, players, client_for) -> None:
    a, b = players[:2]
    client_for(a).post(_path(table), {}, format="json")
    client_for(b).post("/api/v1/games/", {"max_players": 2}, format="json")  # b sits elsewhere
    response = client_for(b).post(_path(table), {}, format="json")
    assert (response.status_code, response.json()["code"]) == (409, "in_game")
    assert client_for(a).get(_path(table)).json()["waiting_for"] == [2]
