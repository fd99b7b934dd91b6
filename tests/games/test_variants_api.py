"""`POST /games/` under docs/rules.md §12: presets, every variant key, the seats the decks allow,
and the resolved rules a game stores and shows; ranked games keep the defaults."""

from __future__ import annotations

from typing import Any

import pytest

from accounts.services import guest_create
from games.engine.rules import PRESETS, Preset
from games.models import Game
from games.services.lobby import game_begin_ranked
from tests.games.engine.test_rules import DEFAULTS as ENGINE_DEFAULTS

DEFAULTS = {**ENGINE_DEFAULTS, "turn_seconds": None}


def _create(client, max_players: int = 2, **rules: Any) -> Any:
    return client.post("/api/v1/games/", {"max_players": max_players, "rules": rules})


def _refused(response, *words: str) -> None:
    assert response.status_code == 400, response.content
    body = response.json()
    assert body["code"] == "invalid_rules"
    for word in words:
        assert word in body["detail"]


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("preset", "klondike"),
        ("preset", None),
        ("decks", 3),
        ("decks", "2"),
        ("jokers", 4),
        ("hand_size", 4),
        ("hand_size", 9),
        ("direction", "left"),
        ("values", "aces_high"),
        ("joker_value", 10),
        ("draw_from", "middle"),
        ("final_turns", "true"),
        ("first_turn_call", 1),
        ("assaf_penalty_rule", "thrice_highest"),
        ("wild_rank", None),
        ("sevens", 0),
        ("spy_queen", "yes"),
        ("call_limit", 16),
        ("call_limit", -1),
        ("ending", "out_at_300"),
    ],
)
def test_each_bad_variant_key_is_named(make_client, key: str, value: Any) -> None:
    response = _create(make_client("Host"), **{key: value})
    _refused(response, key)
    assert not Game.objects.exists()  # nothing is kept of a refused table


def test_a_bad_key_beside_a_preset_is_named(make_client) -> None:
    _refused(_create(make_client("Host"), preset="least_count", hand_size=9), "hand_size")


@pytest.mark.parametrize(
    ("seats", "rules"),
    [
        (6, {}),
        (8, {"decks": 1}),
        (8, {"preset": "least_count", "decks": 1}),
        (6, {"preset": "nepalese"}),
    ],
)
def test_more_seats_than_the_decks_allow_are_refused(make_client, seats, rules) -> None:
    response = _create(make_client("Host"), seats, **rules)
    _refused(response, "max_players", "decks", f"max_players {seats}", "at most 5")
    assert not Game.objects.exists()


def test_a_bad_key_is_named_before_the_seats(make_client) -> None:
    _refused(_create(make_client("Host"), 8, decks=3), "decks must be one of")


@pytest.mark.parametrize("body", [{"max_players": 9}, {"max_players": 1}])
def test_a_table_size_past_any_rules_is_invalid(make_client, body) -> None:
    response = make_client("Host").post("/api/v1/games/", {**body, "rules": {"decks": 2}})
    assert (response.status_code, response.json()["code"]) == (400, "invalid")


@pytest.mark.parametrize(("seats", "rules"), [(8, {"decks": 2}), (8, {"preset": "least_count"})])
def test_two_decks_seat_eight(make_client, seats, rules) -> None:
    response = _create(make_client("Host"), seats, **rules)
    assert response.status_code == 201, response.content
    assert response.json()["max_players"] == 8


@pytest.mark.parametrize("preset", [preset.value for preset in Preset])
def test_a_preset_is_stored_and_shown_as_every_key(make_client, preset: str) -> None:
    host = make_client("Host")
    game = _create(host, preset=preset).json()
    expected = {**DEFAULTS, **PRESETS[Preset(preset)], "preset": preset}
    assert game["rules"] == expected
    assert Game.objects.get(pk=game["id"]).rules == expected
    assert host.game(game["id"])["rules"] == expected


def test_keys_beside_a_preset_override_it(make_client) -> None:
    game = _create(
        make_client("Host"), preset="least_count", call_limit=6, sevens=True, turn_seconds=30
    ).json()
    # docs/rules.md §12's row for least_count, with the two keys given over it.
    assert game["rules"] == {
        **DEFAULTS,
        "preset": "least_count",
        "decks": 2,
        "jokers": 0,
        "wild_rank": True,
        "call_limit": 6,
        "assaf_penalty": 25,
        "ending": "out_at_200",
        "exact_scores": "none",
        "sevens": True,
        "turn_seconds": 30,
    }


def test_a_game_stored_before_the_variants_shows_every_key(make_client) -> None:
    host = make_client("Host")
    game = _create(host).json()
    Game.objects.filter(pk=game["id"]).update(rules={"call_limit": 7, "turn_seconds": None})
    assert host.game(game["id"])["rules"] == {**DEFAULTS, "call_limit": 7}


def test_a_variant_table_starts_with_its_hand_size(make_client) -> None:
    host, guest = make_client("Host"), make_client("Guest")
    game = _create(host, preset="yellow_lemon").json()
    guest.post(f"/api/v1/games/{game['id']}/join/", {"invite_code": game["invite_code"]})
    started = host.post(f"/api/v1/games/{game['id']}/start/").json()
    assert len(started["you"]["hand"]) == 7
    assert [seat["hand_count"] for seat in started["seats"]] == [7, 7]


def test_ranked_games_keep_the_defaults(db: None, settings: Any) -> None:
    players = [guest_create(display_name=f"R{index}")[0] for index in range(2)]
    locked = game_begin_ranked(players=players)
    assert locked.game.rules == {
        **DEFAULTS,
        "turn_seconds": settings.YANIV_RANKED_TURN_SECONDS,
    }
    assert locked.payload(0)["rules"]["preset"] == "standard"


def test_the_rules_catalog_needs_no_token(api_client) -> None:
    response = api_client.get("/api/v1/rules/")
    assert response.status_code == 200
    assert response["Cache-Control"] == "public, max-age=10"
    again = api_client.get("/api/v1/rules/", HTTP_IF_NONE_MATCH=response["ETag"])
    assert again.status_code == 304


def test_the_catalog_is_what_a_table_gets(api_client, make_client) -> None:
    """Each entry is what `POST /games/` stores: with no rules, and with each preset alone."""
    catalog = api_client.get("/api/v1/rules/").json()
    host = make_client("Host")
    assert catalog["defaults"] == _create(host).json()["rules"] == DEFAULTS
    assert [entry["preset"] for entry in catalog["presets"]] == [p.value for p in Preset]
    for entry in catalog["presets"]:
        created = _create(make_client("Host"), preset=entry["preset"]).json()
        assert entry["rules"] == created["rules"]


def test_the_catalogs_seats_are_what_the_decks_allow(api_client, make_client) -> None:
    seats = api_client.get("/api/v1/rules/").json()["max_players"]
    assert seats == {"1": 5, "2": 8}
    for decks, most in seats.items():
        assert _create(make_client("Host"), most, decks=int(decks)).status_code == 201
        if most < 8:
            _refused(_create(make_client("Host"), most + 1, decks=int(decks)), "at most")


def test_the_catalogs_cpu_levels_are_the_ones_a_seat_takes(api_client, make_client) -> None:
    """Every level the catalog names adds a CPU seat at it; the default is a seat's without one."""
    catalog = api_client.get("/api/v1/rules/").json()
    assert catalog["cpu_levels"] == ["easy", "medium", "hard", "expert"]
    host = make_client("Host")
    game = _create(host, 5).json()
    for level in catalog["cpu_levels"]:
        added = host.post(f"/api/v1/games/{game['id']}/cpu/", {"level": level})
        assert added.status_code == 200
        assert added.json()["seats"][-1]["cpu_level"] == level
    other = _create(host := make_client("Host")).json()
    plain = host.post(f"/api/v1/games/{other['id']}/cpu/", {})
    assert plain.status_code == 200
    assert plain.json()["seats"][-1]["cpu_level"] == catalog["default_cpu_level"] == "hard"
