"""Every games endpoint of docs/api.md: success and each documented error."""

from __future__ import annotations

from typing import Any

import pytest

from games.engine.state import GameState
from games.models import Event, Game
from tests.games.conftest import Client, simple_move, two_player_table


def _two_player_game(make_client) -> tuple[Client, Client, dict[str, Any]]:
    return two_player_table(make_client)


def _mover(host: Client, guest: Client, game: dict[str, Any]) -> tuple[Client, Client]:
    """(whose turn it is, the other) for a two-player game."""
    return (host, guest) if game["turn"]["seat"] == game["you"]["seat"] else (guest, host)


def _truth(game_id: str) -> GameState:
    state = Game.objects.get(pk=game_id).state
    assert state is not None
    return GameState.from_dict(state)


def test_create_a_private_table(make_client) -> None:
    host = make_client("Host")
    response = host.post("/api/v1/games/", {"max_players": 3, "rules": {"call_limit": 7}})
    assert response.status_code == 201
    game = response.json()
    assert game["status"] == "waiting"
    assert game["ranked"] is False
    assert game["rules"]["call_limit"] == 7
    assert game["rules"]["assaf_penalty"] == 30  # the defaults fill the rest
    assert len(game["invite_code"]) == 8
    assert game["seats"][0]["player"]["id"] == str(host.player.pk)
    assert game["you"]["seat"] == 0


@pytest.mark.parametrize(
    ("rules", "fragment"),
    [
        ({"call_limit": 16}, "call_limit"),
        ({"jokers": 1}, "jokers"),
        ({"mystery": True}, "mystery"),
        ({"turn_seconds": 45}, "turn_seconds"),
        ([], "object"),
    ],
)
def test_bad_rules_are_refused(make_client, rules, fragment) -> None:
    response = make_client("Host").post("/api/v1/games/", {"max_players": 2, "rules": rules})
    assert response.status_code == 400
    assert response.json()["code"] == "invalid_rules"
    assert fragment in response.json()["detail"]


@pytest.mark.parametrize("body", [{"max_players": 9}, {"max_players": 1}, {}])
def test_bad_table_size_is_invalid(make_client, body) -> None:
    response = make_client("Host").post("/api/v1/games/", body)
    assert response.status_code == 400
    assert response.json()["code"] == "invalid"


def test_unauthenticated_calls_get_401(api_client) -> None:
    assert api_client.post("/api/v1/games/", {"max_players": 2}, format="json").status_code == 401


def test_join_errors(make_client) -> None:
    host, one, two = make_client("Host"), make_client("One"), make_client("Two")
    game = host.post("/api/v1/games/", {"max_players": 2}).json()
    path = f"/api/v1/games/{game['id']}/join/"
    wrong = one.post(path, {"invite_code": "WRONGCOD"})
    assert (wrong.status_code, wrong.json()["code"]) == (403, "bad_invite_code")
    assert one.post(path, {"invite_code": game["invite_code"].lower()}).status_code == 200
    again = one.post(path, {"invite_code": game["invite_code"]})
    assert again.status_code == 200  # joining twice takes no second seat
    assert len(again.json()["seats"]) == 2
    full = two.post(path, {"invite_code": game["invite_code"]})
    assert (full.status_code, full.json()["code"]) == (409, "game_full")
    assert (
        one.post(
            "/api/v1/games/00000000-0000-0000-0000-000000000000/join/", {"invite_code": "X"}
        ).status_code
        == 404
    )


@pytest.mark.parametrize("code", ["é", "ÀÀÀÀÀÀÀÀ", "\u212a", "\u212a" * 8])
def test_a_non_ascii_invite_code_is_a_wrong_code(make_client, code) -> None:
    """Non-ASCII text is never a code, not even the Kelvin sign, which lowercases to `k`."""
    host, one = make_client("Host"), make_client("One")
    game = host.post("/api/v1/games/", {"max_players": 2}).json()
    Game.objects.filter(pk=game["id"]).update(invite_code="KKKKKKKK")
    wrong = one.post(f"/api/v1/games/{game['id']}/join/", {"invite_code": code})
    assert (wrong.status_code, wrong.json()) == (
        403,
        {"detail": "That invite code is not this game's.", "code": "bad_invite_code"},
    )
    assert len(host.game(game["id"])["seats"]) == 1


def test_me_shows_the_active_game_until_it_is_left(make_client) -> None:
    host = make_client("Host")
    assert host.get("/api/v1/me/").json()["active_game"] is None
    game = host.post("/api/v1/games/", {"max_players": 2}).json()
    assert host.get("/api/v1/me/").json()["active_game"] == game["id"]
    host.post(f"/api/v1/games/{game['id']}/leave/")
    assert host.get("/api/v1/me/").json()["active_game"] is None


def test_invite_code_is_shown_to_the_host_only(make_client) -> None:
    host, guest, game = _two_player_game(make_client)
    assert host.game(game["id"])["invite_code"] is not None
    assert guest.game(game["id"])["invite_code"] is None


def test_one_live_table_per_player(make_client) -> None:
    host = make_client("Host")
    assert host.post("/api/v1/games/", {"max_players": 2}).status_code == 201
    second = host.post("/api/v1/games/", {"max_players": 2})
    assert (second.status_code, second.json()["code"]) == (409, "in_game")
    other = make_client("Other").post("/api/v1/games/", {"max_players": 2}).json()
    join = host.post(f"/api/v1/games/{other['id']}/join/", {"invite_code": other["invite_code"]})
    assert (join.status_code, join.json()["code"]) == (409, "in_game")


def test_only_the_host_adds_cpus_and_starts(make_client) -> None:
    host, guest = make_client("Host"), make_client("Guest")
    game = host.post("/api/v1/games/", {"max_players": 3}).json()
    guest.post(f"/api/v1/games/{game['id']}/join/", {"invite_code": game["invite_code"]})
    for path in ("cpu", "start"):
        response = guest.post(f"/api/v1/games/{game['id']}/{path}/")
        assert (response.status_code, response.json()["code"]) == (403, "not_host")
    cpu = host.post(f"/api/v1/games/{game['id']}/cpu/").json()
    assert [seat["is_cpu"] for seat in cpu["seats"]] == [False, False, True]
    full = host.post(f"/api/v1/games/{game['id']}/cpu/")
    assert (full.status_code, full.json()["code"]) == (409, "game_full")


def test_start_needs_two_seats(make_client) -> None:
    host = make_client("Host")
    game = host.post("/api/v1/games/", {"max_players": 2}).json()
    response = host.post(f"/api/v1/games/{game['id']}/start/")
    assert (response.status_code, response.json()["code"]) == (409, "not_enough_players")


def test_started_game_shows_the_deal(make_client) -> None:
    host, guest, game = _two_player_game(make_client)
    assert game["status"] == "active"
    assert game["seq"] == 0
    assert game["round"] == 1
    assert len(game["you"]["hand"]) == 5
    assert [seat["hand_count"] for seat in game["seats"]] == [5, 5]
    assert game["stock_count"] == 54 - 11
    assert len(game["discard"]["cards"]) == 1
    assert game["discard"]["takeable"] == game["discard"]["cards"]
    truth = _truth(game["id"])
    assert game["you"]["hand"] == list(truth.hands[0])
    assert guest.game(game["id"])["you"]["hand"] == list(truth.hands[1])
    again = host.post(f"/api/v1/games/{game['id']}/start/")
    assert (again.status_code, again.json()["code"]) == (409, "not_waiting")


def test_strangers_may_not_see_a_private_game(make_client) -> None:
    _, _, game = _two_player_game(make_client)
    stranger = make_client("Stranger")
    for path in ("", "events/", "record/"):
        response = stranger.get(f"/api/v1/games/{game['id']}/{path}")
        assert (response.status_code, response.json()["code"]) == (403, "forbidden")


def test_a_move_is_applied_and_seq_advances(make_client) -> None:
    host, guest, game = _two_player_game(make_client)
    mover, other = _mover(host, guest, game)
    view = mover.game(game["id"])
    card = view["you"]["hand"][0]
    response = mover.act(view, type="play", cards=[card], draw="stock")
    assert response.status_code == 200, response.content
    after = response.json()
    assert after["seq"] == 1
    assert after["discard"]["cards"] == [card]
    assert card not in after["you"]["hand"]
    assert len(after["you"]["hand"]) == 5
    assert after["turn"]["seat"] != view["you"]["seat"]
    assert other.game(game["id"])["discard"]["takeable"] == [card]


def test_action_errors(make_client) -> None:
    host, guest, game = _two_player_game(make_client)
    mover, other = _mover(host, guest, game)
    view = mover.game(game["id"])
    card = view["you"]["hand"][0]

    stale = mover.post(
        f"/api/v1/games/{game['id']}/actions/",
        {"seq": 7, "type": "play", "cards": [card], "draw": "stock"},
    )
    assert (stale.status_code, stale.json()["code"]) == (409, "stale_seq")
    assert stale.json()["game"]["seq"] == 0
    assert stale.json()["game"]["you"]["hand"] == view["you"]["hand"]

    other_view = other.game(game["id"])
    turn = other.act(other_view, type="play", cards=[other_view["you"]["hand"][0]], draw="stock")
    assert (turn.status_code, turn.json()["code"]) == (409, "not_your_turn")

    foreign = other_view["you"]["hand"][0]
    illegal = mover.act(view, type="play", cards=[foreign], draw="stock")
    assert (illegal.status_code, illegal.json()["code"]) == (400, "illegal_move")
    assert illegal.json()["detail"] == "card not in hand"

    # A card of one's own hand is never the face-up card, so it cannot be taken.
    untakeable = mover.act(view, type="play", cards=[card], draw=view["you"]["hand"][1])
    assert (untakeable.status_code, untakeable.json()["detail"]) == (400, "untakeable draw")

    for body in (
        {"seq": 0, "type": "dance"},
        {"seq": 0, "type": "play"},
        {"seq": 0, "type": "play", "cards": ["ZZ"], "draw": "stock"},
        {"seq": 0, "type": "yaniv", "cards": [card]},
        {"type": "yaniv"},
    ):
        response = mover.post(f"/api/v1/games/{game['id']}/actions/", body)
        assert (response.status_code, response.json()["code"]) == (400, "invalid"), body
    assert mover.game(game["id"])["seq"] == 0  # nothing was applied


def _give_high_hand(game_id: str, seat: int) -> None:
    """Swap `seat`'s hand with five ten-point cards of the stock (16 exist, 11 are dealt)."""
    game = Game.objects.get(pk=game_id)
    state = game.state
    assert state is not None
    tens = [card for card in state["stock"] if card[0] in "TJQK"][:5]
    hand = state["hands"][seat]
    state["stock"] = [hand[tens.index(c)] if c in tens else c for c in state["stock"]]
    state["hands"][seat] = tens
    game.save(update_fields=["state"])


def test_yaniv_above_the_limit_is_illegal(make_client) -> None:
    host, guest, game = _two_player_game(make_client)
    mover, _ = _mover(host, guest, game)
    _give_high_hand(game["id"], game["turn"]["seat"])
    view = mover.game(game["id"])
    assert view["you"]["hand_total"] == 50
    response = mover.act(view, type="yaniv")
    assert (response.status_code, response.json()["code"]) == (400, "illegal_move")
    assert response.json()["detail"] == "yaniv above limit"


def test_actions_on_a_waiting_game(make_client) -> None:
    host = make_client("Host")
    game = host.post("/api/v1/games/", {"max_players": 2}).json()
    response = host.act(game, type="yaniv")
    assert (response.status_code, response.json()["code"]) == (409, "not_active")


def test_idempotency_key_applies_once(make_client) -> None:
    host, guest, game = _two_player_game(make_client)
    mover, _ = _mover(host, guest, game)
    view = mover.game(game["id"])
    body = {"seq": 0, "type": "play", "cards": [view["you"]["hand"][0]], "draw": "stock"}
    path = f"/api/v1/games/{game['id']}/actions/"
    first = mover.post(path, body, **{"Idempotency-Key": "move-1"})
    second = mover.post(path, body, **{"Idempotency-Key": "move-1"})
    assert first.status_code == second.status_code == 200
    assert first.json() == second.json()
    assert Game.objects.get(pk=game["id"]).seq == 1
    assert Event.objects.filter(game_id=game["id"], type="played").count() == 1
    other = mover.post(path, {**body, "draw": "stock", "seq": 1}, **{"Idempotency-Key": "move-1"})
    assert (other.status_code, other.json()["code"]) == (422, "idempotency_mismatch")


def test_events_list_is_paginated_and_hides_others_draws(make_client) -> None:
    host, guest, game = _two_player_game(make_client)
    for _ in range(4):
        mover, _ = _mover(host, guest, host.game(game["id"]))
        view = mover.game(game["id"])
        assert mover.act(view, **simple_move(view)).status_code == 200
    events = host.get(f"/api/v1/games/{game['id']}/events/").json()
    assert set(events) == {"count", "next", "previous", "results"}
    types = [event["type"] for event in events["results"]]
    assert types[:2] == ["game_started", "round_started"]
    assert "deck" not in events["results"][1]
    played = [event for event in events["results"] if event["type"] == "played"]
    assert len(played) == 4
    for event in played:
        assert event["by"] == "player"
        assert ("drawn" in event) == (event["seat"] == 0)
    later = host.get(f"/api/v1/games/{game['id']}/events/?after=2").json()
    assert [event["seq"] for event in later["results"]] == [3, 4]
    page = host.get(f"/api/v1/games/{game['id']}/events/?limit=2").json()
    assert len(page["results"]) == 2
    assert page["next"] is not None
    bad = host.get(f"/api/v1/games/{game['id']}/events/?after=x")
    assert (bad.status_code, bad.json()["code"]) == (400, "invalid")


def test_record_waits_for_the_end(make_client) -> None:
    host, _, game = _two_player_game(make_client)
    response = host.get(f"/api/v1/games/{game['id']}/record/")
    assert (response.status_code, response.json()["code"]) == (409, "not_finished")


def test_leave_before_the_start_frees_the_seat(make_client) -> None:
    host, guest = make_client("Host"), make_client("Guest")
    game = host.post("/api/v1/games/", {"max_players": 3}).json()
    guest.post(f"/api/v1/games/{game['id']}/join/", {"invite_code": game["invite_code"]})
    left = guest.post(f"/api/v1/games/{game['id']}/leave/")
    assert left.status_code == 200
    assert len(host.game(game["id"])["seats"]) == 1
    # Free to sit elsewhere now.
    assert guest.post("/api/v1/games/", {"max_players": 2}).status_code == 201
    closed = host.post(f"/api/v1/games/{game['id']}/leave/")
    assert closed.json()["status"] == "aborted"


def test_leaving_a_waiting_table_closes_the_gap(make_client) -> None:
    host, *others = (make_client(name) for name in ("Host", "B", "C", "D"))
    game = host.post("/api/v1/games/", {"max_players": 4}).json()
    for other in others:
        other.post(f"/api/v1/games/{game['id']}/join/", {"invite_code": game["invite_code"]})
    assert others[0].post(f"/api/v1/games/{game['id']}/leave/").status_code == 200
    seats = host.game(game["id"])["seats"]
    assert [seat["seat"] for seat in seats] == [0, 1, 2]
    names = [seat["player"]["display_name"] for seat in seats]
    assert names == ["Host", "C", "D"]


def test_leave_hands_the_seat_to_the_cpu(make_client) -> None:
    _, guest, game = _two_player_game(make_client)
    response = guest.post(f"/api/v1/games/{game['id']}/leave/")
    assert response.status_code == 200
    seat = response.json()["you"]["seat"]
    assert response.json()["seats"][seat]["left"] is True
    assert Event.objects.filter(game_id=game["id"], type="player_left").count() == 1
    # The player is free again, and the result of the game still counts for them.
    assert guest.post("/api/v1/games/", {"max_players": 2}).status_code == 201
    assert guest.game(game["id"])["you"]["seat"] == seat
