"""Challenges (docs/api.md, Challenges): one player asks another to a private table; accepted,
both sit at it. Every refusal, both ways of a block, the expiry, the pushes."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

import pytest
import time_machine
from django.utils import timezone
from rest_framework.test import APIClient

from accounts.models import Player
from core.sockets import player_group
from games.models import Game, GameStatus, Seat
from matchmaking.models import Ticket
from matchmaking.services import ticket_create
from social import services, tasks
from social.models import Challenge
from tests.chat.conftest import private_table
from tests.factories import PlayerFactory
from tests.social.conftest import befriend, block

pytestmark = pytest.mark.django_db(transaction=True)

CHALLENGES = "/api/v1/challenges/"


def challenge(client: Any, player: Player, **body: Any) -> Any:
    return client.post(CHALLENGES, {"player_id": str(player.pk), **body}, format="json")


def url(challenge_id: str, action: str = "") -> str:
    return f"{CHALLENGES}{challenge_id}/{action + '/' if action else ''}"


def challenge_pushes(pushes: list[tuple[str, dict[str, Any]]]) -> list[tuple[str, str]]:
    """(group, status) of each `challenge` message pushed, in order."""
    return [
        (group, message["message"]["challenge"]["status"])
        for group, message in pushes
        if message["message"]["type"] == "challenge"
    ]


@pytest.fixture
def friends(registered) -> tuple[Player, Player]:
    alice, bob = registered(display_name="Alice"), registered(display_name="Bob")
    befriend(alice, bob)
    return alice, bob


def test_a_friend_challenges_the_other_accepts_and_both_sit_at_a_started_table(
    friends, client_for, pushes
) -> None:
    alice, bob = friends
    made = challenge(client_for(alice), bob)
    assert made.status_code == 201, made.content
    body = made.json()
    assert body["status"] == "open"
    assert body["challenger"]["id"] == str(alice.pk)
    assert body["challenged"]["id"] == str(bob.pk)
    assert body["max_players"] == 2
    assert body["rules"]["preset"] == "standard"
    assert body["game_id"] is None
    seconds = (
        datetime.fromisoformat(body["expires_at"]) - datetime.fromisoformat(body["created_at"])
    ).total_seconds()
    assert seconds == 60
    # Both hear of it (the challenged to answer, the challenger's other devices).
    assert challenge_pushes(pushes) == [
        (player_group(alice.pk), "open"),
        (player_group(bob.pk), "open"),
    ]
    assert client_for(bob).get(CHALLENGES).json() == {"incoming": [body], "outgoing": []}
    assert client_for(alice).get(CHALLENGES).json() == {"incoming": [], "outgoing": [body]}
    assert client_for(bob).get(url(body["id"])).json() == body

    accepted = client_for(bob).post(url(body["id"], "accept"))
    assert accepted.status_code == 200, accepted.content
    assert accepted.json()["status"] == "accepted"
    game = Game.objects.get(pk=accepted.json()["game_id"])
    assert game.status == GameStatus.ACTIVE  # a table of two starts at once
    assert not game.ranked
    assert game.host_id == alice.pk
    seats = list(Seat.objects.filter(game=game).order_by("seat").values_list("player_id", "live"))
    assert seats == [(alice.pk, True), (bob.pk, True)]
    assert challenge_pushes(pushes)[2:] == [
        (player_group(alice.pk), "accepted"),
        (player_group(bob.pk), "accepted"),
    ]
    assert pushes[-1][1]["message"]["challenge"]["game_id"] == str(game.pk)
    # Both play it: the game is theirs to read, and no longer an open challenge.
    for player in (alice, bob):
        assert client_for(player).get(f"/api/v1/games/{game.pk}/").status_code == 200
        assert client_for(player).get(CHALLENGES).json() == {"incoming": [], "outgoing": []}


def test_a_larger_table_waits_for_its_host_with_the_rules_asked(friends, client_for) -> None:
    alice, bob = friends
    rules = {"preset": "nepalese", "call_limit": 7}
    made = challenge(client_for(alice), bob, max_players=4, rules=rules).json()
    assert made["rules"]["preset"] == "nepalese"
    assert made["rules"]["call_limit"] == 7
    accepted = client_for(bob).post(url(made["id"], "accept")).json()
    game = Game.objects.get(pk=accepted["game_id"])
    assert game.status == GameStatus.WAITING
    assert game.max_players == 4
    assert game.rules == made["rules"]
    host = client_for(alice)
    assert host.post(f"/api/v1/games/{game.pk}/cpu/").status_code == 200
    started = host.post(f"/api/v1/games/{game.pk}/start/")
    assert started.status_code == 200, started.content
    assert [seat["is_cpu"] for seat in started.json()["seats"]] == [False, False, True]


def test_decline_and_cancel_close_it_and_only_the_right_side_may(
    friends, client_for, pushes
) -> None:
    alice, bob = friends
    first = challenge(client_for(alice), bob).json()
    # The challenger cannot accept or decline; the challenged cannot withdraw it.
    for action in ("accept", "decline"):
        refused = client_for(alice).post(url(first["id"], action))
        assert (refused.status_code, refused.json()["code"]) == (403, "forbidden")
    refused = client_for(bob).delete(url(first["id"]))
    assert (refused.status_code, refused.json()["code"]) == (403, "forbidden")
    # A stranger is told nothing of it.
    stranger = client_for(PlayerFactory.create(registered=True))
    for response in (stranger.get(url(first["id"])), stranger.post(url(first["id"], "accept"))):
        assert (response.status_code, response.json()["code"]) == (404, "not_found")

    declined = client_for(bob).post(url(first["id"], "decline"))
    assert declined.status_code == 200
    assert declined.json()["status"] == "declined"
    assert challenge_pushes(pushes)[-2:] == [
        (player_group(alice.pk), "declined"),
        (player_group(bob.pk), "declined"),
    ]
    for action in ("accept", "decline"):
        late = client_for(bob).post(url(first["id"], action))
        assert (late.status_code, late.json()["code"]) == (409, "not_open")
        assert "declined" in late.json()["detail"]

    second = challenge(client_for(alice), bob).json()
    assert client_for(alice).delete(url(second["id"])).status_code == 204
    assert client_for(bob).get(url(second["id"])).json()["status"] == "cancelled"
    assert challenge_pushes(pushes)[-1] == (player_group(bob.pk), "cancelled")
    late = client_for(bob).post(url(second["id"], "accept"))
    assert (late.status_code, late.json()["code"]) == (409, "not_open")
    assert not Game.objects.exists()


def test_it_expires_after_its_time(friends, client_for, pushes, settings, monkeypatch) -> None:
    settings.YANIV_CHALLENGE_SECONDS = 30
    alice, bob = friends
    scheduled: list[tuple[Any, Any]] = []
    monkeypatch.setattr(
        tasks.challenge_expire,
        "apply_async",
        lambda args, eta: scheduled.append((args, eta)),
    )
    made = challenge(client_for(alice), bob).json()
    # Its expiry is a task due at its time, queued after the commit.
    assert scheduled == [((made["id"],), datetime.fromisoformat(made["expires_at"]))]
    later = timezone.now() + timedelta(seconds=31)
    with time_machine.travel(later, tick=False):
        # Shown expired before the task has run, and no longer answerable.
        assert client_for(bob).get(url(made["id"])).json()["status"] == "expired"
        assert client_for(bob).get(CHALLENGES).json()["incoming"] == []
        late = client_for(bob).post(url(made["id"], "accept"))
        assert (late.status_code, late.json()["code"]) == (409, "not_open")
        # The task at its time marks it and tells both; once.
        assert services.challenge_expire(challenge_id=made["id"])
        assert not services.challenge_expire(challenge_id=made["id"])
    assert Challenge.objects.get(pk=made["id"]).status == "expired"
    assert challenge_pushes(pushes)[-2:] == [
        (player_group(alice.pk), "expired"),
        (player_group(bob.pk), "expired"),
    ]
    # A task running before the time changes nothing.
    again = challenge(client_for(alice), bob).json()
    assert not services.challenge_expire(challenge_id=again["id"])
    assert client_for(bob).get(url(again["id"])).json()["status"] == "open"


def test_challenges_from_friends_by_default_everyone_or_nobody(registered, client_for) -> None:
    alice, bob = registered(), registered()
    assert client_for(bob).get("/api/v1/me/").json()["challenges_from"] == "friends"
    refused = challenge(client_for(alice), bob)
    assert (refused.status_code, refused.json()["code"]) == (403, "not_allowed")
    assert "friends only" in refused.json()["detail"]

    patched = client_for(bob).patch("/api/v1/me/", {"challenges_from": "everyone"}, format="json")
    assert patched.status_code == 200
    assert client_for(bob).get("/api/v1/me/").json()["challenges_from"] == "everyone"
    assert challenge(client_for(alice), bob).status_code == 201

    befriend(alice, bob)
    client_for(alice).patch("/api/v1/me/", {"challenges_from": "nobody"}, format="json")
    refused = challenge(client_for(bob), alice)
    assert (refused.status_code, refused.json()["code"]) == (403, "not_allowed")
    assert "nobody" in refused.json()["detail"]

    bad = client_for(bob).patch("/api/v1/me/", {"challenges_from": "strangers"}, format="json")
    assert (bad.status_code, bad.json()["code"]) == (400, "invalid")
    assert Player.objects.get(pk=bob.pk).challenges_from == "everyone"


def test_a_block_refuses_challenges_both_ways_and_withdraws_the_open_one(
    friends, client_for, pushes
) -> None:
    alice, bob = friends
    open_one = challenge(client_for(alice), bob).json()
    Player.objects.filter(pk__in=[alice.pk, bob.pk]).update(challenges_from="everyone")
    assert block(client_for(bob), alice).status_code == 201
    assert client_for(alice).get(url(open_one["id"])).json()["status"] == "cancelled"
    assert challenge_pushes(pushes)[-2:] == [
        (player_group(alice.pk), "cancelled"),
        (player_group(bob.pk), "cancelled"),
    ]
    for one, other in ((alice, bob), (bob, alice)):
        refused = challenge(client_for(one), other)
        assert (refused.status_code, refused.json()["code"]) == (403, "blocked")
    late = client_for(bob).post(url(open_one["id"], "accept"))
    assert (late.status_code, late.json()["code"]) == (409, "not_open")


def test_who_may_challenge_and_what(registered, client_for) -> None:
    alice = registered()
    guest = PlayerFactory.create()
    Player.objects.filter(pk=alice.pk).update(challenges_from="everyone")
    cases: list[tuple[APIClient, Player, dict[str, Any], int, str | None]] = [
        (client_for(guest), alice, {}, 403, "guest"),
        (client_for(alice), alice, {}, 400, "yourself"),
        (client_for(alice), Player(pk="00000000-0000-0000-0000-000000000001"), {}, 404, None),
    ]
    bob = registered()
    Player.objects.filter(pk=bob.pk).update(challenges_from="everyone")
    cases += [
        (client_for(alice), bob, {"max_players": 9}, 400, "invalid"),
        (client_for(alice), bob, {"max_players": 1}, 400, "invalid"),
        (client_for(alice), bob, {"max_players": 6}, 400, "invalid_rules"),  # one deck seats 5
        (client_for(alice), bob, {"rules": {"call_limit": 99}}, 400, "invalid_rules"),
        (client_for(alice), bob, {"rules": "standard"}, 400, "invalid"),
    ]
    for client, other, body, code, error in cases:
        response = challenge(client, other, **body)
        assert response.status_code == code, (body, response.content)
        if error is not None:
            assert response.json()["code"] == error
    assert not Challenge.objects.exists()
    # Two decks seat eight; once open, a second to the same player waits for the first.
    assert challenge(client_for(alice), bob, max_players=8, rules={"decks": 2}).status_code == 201
    again = challenge(client_for(alice), bob)
    assert (again.status_code, again.json()["code"]) == (409, "already_challenged")


def test_a_player_at_a_table_is_refused_and_the_challenge_stays_open(
    friends, registered, client_for
) -> None:
    alice, bob = friends
    carol = registered()
    table = private_table([alice, carol])
    refused = challenge(client_for(alice), bob)
    assert (refused.status_code, refused.json()["code"]) == (409, "in_game")
    Seat.objects.filter(game=table).update(live=False)

    made = challenge(client_for(alice), bob).json()
    # The challenged at a table: they leave it first.
    other = private_table([bob, carol])
    refused = client_for(bob).post(url(made["id"], "accept"))
    assert (refused.status_code, refused.json()["code"]) == (409, "in_game")
    Seat.objects.filter(game=other).update(live=False)
    # The challenger sat down since.
    private_table([alice, carol])
    refused = client_for(bob).post(url(made["id"], "accept"))
    assert (refused.status_code, refused.json()["code"]) == (409, "in_game")
    assert "challenger" in refused.json()["detail"]
    assert client_for(bob).get(url(made["id"])).json()["status"] == "open"
    assert Game.objects.filter(host=alice, status=GameStatus.WAITING).count() == 0


def test_accepting_ends_both_players_searches_and_each_is_told(
    friends, client_for, monkeypatch
) -> None:
    alice, bob = friends
    told: list[tuple[str, dict[str, Any]]] = []
    monkeypatch.setattr(
        "matchmaking.services.send_to_group", lambda group, message: told.append((group, message))
    )
    # Both search (for tables the other's ticket cannot fill: no pass seats them meanwhile).
    tickets = [
        ticket_create(player=alice, player_counts=[3]),
        ticket_create(player=bob, player_counts=[4]),
    ]
    # A declined challenge seats nobody: the searches go on.
    declined = challenge(client_for(alice), bob).json()
    assert client_for(bob).post(url(declined["id"], "decline")).status_code == 200
    assert [Ticket.objects.get(pk=t.pk).status for t in tickets] == ["searching"] * 2

    made = challenge(client_for(alice), bob).json()
    told.clear()
    accepted = client_for(bob).post(url(made["id"], "accept"))
    assert accepted.status_code == 200, accepted.content
    # Both now sit at the private table: neither searches for a ranked one any more (else the
    # queue would seat them the moment the private game ended), and each hears it as for a
    # ticket they cancelled themselves.
    assert [Ticket.objects.get(pk=t.pk).status for t in tickets] == ["cancelled"] * 2
    assert sorted(
        (group, message["message"]["ticket"]["id"], message["message"]["ticket"]["status"])
        for group, message in told
    ) == sorted((player_group(t.player_id), str(t.pk), "cancelled") for t in tickets)
    assert all(message["message"]["type"] == "ticket" for _, message in told)
    for player in (alice, bob):
        assert client_for(player).get("/api/v1/me/").json()["ticket"] is None


def test_thirty_an_hour(friends, registered, client_for, settings) -> None:
    settings.YANIV_CHALLENGES_PER_HOUR = 3
    alice, _ = friends
    others = [registered() for _ in range(4)]
    Player.objects.filter(pk__in=[other.pk for other in others]).update(challenges_from="everyone")
    start = timezone.now()
    for index, other in enumerate(others[:3]):
        with time_machine.travel(start + timedelta(minutes=index), tick=False):
            made = challenge(client_for(alice), other).json()
            assert client_for(alice).delete(url(made["id"])).status_code == 204
    with time_machine.travel(start + timedelta(minutes=10), tick=False):
        refused = challenge(client_for(alice), others[3])
        assert (refused.status_code, refused.json()["code"]) == (429, "throttled")
        assert refused.json()["scope"] == "challenges"
        # Withdrawn ones count; the oldest leaves the hour 50 minutes from now.
        assert 50 * 60 <= int(refused["Retry-After"]) <= 50 * 60 + 1
    with time_machine.travel(start + timedelta(minutes=61), tick=False):
        assert challenge(client_for(alice), others[3]).status_code == 201


def test_an_erased_account_takes_its_challenges_along(friends, client_for) -> None:
    alice, bob = friends
    challenge(client_for(alice), bob)
    assert client_for(alice).delete("/api/v1/me/").status_code == 204
    assert not Challenge.objects.exists()
    assert client_for(bob).get(CHALLENGES).json() == {"incoming": [], "outgoing": []}


def test_the_search_by_name(registered, client_for) -> None:
    me = registered(display_name="Me")
    alma, salmon = registered(display_name="Alma"), registered(display_name="SALMON roll")
    registered(display_name="Bob")
    PlayerFactory.create(display_name="Almagest")  # a guest
    blocker, blocked = registered(display_name="Almond"), registered(display_name="Kalman")
    block(client_for(blocker), me)
    block(client_for(me), blocked)
    found = client_for(me).get("/api/v1/players/", {"search": "alm"})
    assert found.status_code == 200, found.content
    assert [row["id"] for row in found.json()["results"]] == [str(alma.pk), str(salmon.pk)]
    assert found.json()["results"][0]["display_name"] == "Alma"
    # Not oneself; the others find the two blocked ones.
    assert client_for(me).get("/api/v1/players/", {"search": "me"}).json()["count"] == 0
    others = client_for(alma).get("/api/v1/players/", {"search": "alm"}).json()["results"]
    assert [row["display_name"] for row in others] == ["Almond", "Kalman", "SALMON roll"]
    for bad in ("", "a", " a ", "x" * 33, "al\x00m", "al\x1bm", "al\tm"):
        refused = client_for(me).get("/api/v1/players/", {"search": bad})
        assert (refused.status_code, refused.json()["code"]) == (400, "invalid")
    assert client_for(me).get("/api/v1/players/").status_code == 400
    assert APIClient().get("/api/v1/players/", {"search": "alm"}).status_code == 401


def test_a_human_challenges_a_bot_to_an_unrated_table(registered, client_for) -> None:
    human = registered(display_name="Human")
    owner = registered(display_name="Robo")
    upgraded = client_for(owner).post("/api/v1/bot/upgrade/")
    assert upgraded.status_code == 200
    bot = APIClient()
    bot.credentials(HTTP_AUTHORIZATION=f"Bearer {upgraded.json()['token']['token']}")

    made = challenge(client_for(human), owner)  # not friends: a new bot takes anyone's
    assert made.status_code == 201, made.content
    assert made.json()["challenged"]["is_bot"] is True
    accepted = bot.post(url(made.json()["id"], "accept"))
    assert accepted.status_code == 200, accepted.content
    game = Game.objects.get(pk=accepted.json()["game_id"])
    assert (game.status, game.ranked) == (GameStatus.ACTIVE, False)

    # The bot's owner may close its door, as anyone.
    assert bot.patch("/api/v1/me/", {"challenges_from": "nobody"}, format="json").status_code == 200
    game.status = GameStatus.FINISHED
    game.save(update_fields=["status"])
    Seat.objects.filter(game=game).update(live=False)
    refused = challenge(client_for(human), owner)
    assert (refused.status_code, refused.json()["code"]) == (403, "not_allowed")
