"""Provably fair deals in the server (docs/fairness.md): the seed pairs, what a game takes when
it starts, its decks from its seed, the ranked seating, the payloads' `fairness` blocks, the
record's revealed seeds and replay's check; no secret before the end."""

from __future__ import annotations

import importlib
import json
from collections.abc import Callable
from typing import Any

import pytest
from django.apps import apps as django_apps
from django.db import transaction

from accounts.models import Player, SeedPair
from games.engine.cpu import Level
from games.engine.fair import FairDeal, canonical_deck, check_record, commitment
from games.engine.record import replay
from games.game_rules import record_rules
from games.models import Game, GameSeed, GameStatus
from games.services.clock import game_cpu_turn
from games.services.lobby import game_begin_ranked
from games.services.staff import game_void
from tests.factories import PlayerFactory
from tests.games.conftest import Client, game_secrets, play_moves, start_table

pytestmark = pytest.mark.django_db

ME = "/api/v1/me/"


def _table_against_a_cpu(make_client: Any) -> tuple[Client, str, dict[str, Any]]:
    host = make_client("Host")
    before = host.get(ME).json()["fairness"]
    game = host.post("/api/v1/games/", {"max_players": 2}).json()
    host.post(f"/api/v1/games/{game['id']}/cpu/", {"level": "easy"})
    started = host.post(f"/api/v1/games/{game['id']}/start/")
    assert started.status_code == 200, started.content
    return host, game["id"], before


def test_a_game_takes_the_pair_shown_and_the_player_has_a_new_one(make_client) -> None:
    host, game_id, before = _table_against_a_cpu(make_client)
    assert len(before["commitment"]) == 64
    assert len(before["client_seed"]) == 16
    shown = host.game(game_id)["fairness"]
    assert shown == {
        "version": "yaniv-fair/1",
        "seats": [
            {"seat": 0, "commitment": before["commitment"], "client_seed": before["client_seed"]}
        ],
    }
    after = host.get(ME).json()["fairness"]
    assert after["commitment"] != before["commitment"]  # a new pair at once
    assert after["client_seed"] == before["client_seed"]  # keeping the client seed
    [row] = GameSeed.objects.filter(game_id=game_id)
    assert commitment(bytes(row.server_seed)) == before["commitment"]


def test_the_decks_and_starter_are_the_seeds(make_client) -> None:
    _, game_id, _ = _table_against_a_cpu(make_client)
    seed = bytes.fromhex(game_secrets(game_id)[-1])
    game = Game.objects.get(pk=game_id)
    started = game.events.get(type="round_started")
    deck = canonical_deck()
    FairDeal(seed).deal_deck(1, deck)
    assert started.payload["deck"] == deck
    assert started.payload["starter"] == FairDeal(seed).first_starter(2)


def test_the_record_reveals_the_seeds_and_replay_checks_them(make_client) -> None:
    host, game_id, before = _table_against_a_cpu(make_client)
    secrets = game_secrets(game_id)
    assert host.get(f"/api/v1/games/{game_id}/record/").status_code == 409  # not before the end
    assert host.post(f"/api/v1/games/{game_id}/leave/").status_code == 200
    game_cpu_turn(game_id=game_id, seq=Game.objects.get(pk=game_id).seq)  # the CPU plays on
    assert Game.objects.get(pk=game_id).status == GameStatus.FINISHED
    record = host.get(f"/api/v1/games/{game_id}/record/").json()
    fairness = record["fairness"]
    assert fairness["version"] == "yaniv-fair/1"
    assert fairness["game_seed"] == secrets[-1]
    [seat] = fairness["seats"]
    assert seat == {
        "seat": 0,
        "player_id": str(host.player.pk),
        "commitment": before["commitment"],
        "client_seed": before["client_seed"],
        "server_seed": secrets[0],
    }
    assert record["ranked"] is False
    summary = replay(record, record_rules)
    assert summary.get("status") == "finished", summary
    assert summary["fairness"] == "verified"
    # Altered in transit (a game still played by the rules): replay names what disagrees.
    record["fairness"]["seats"][0]["client_seed"] = "another"
    altered = replay(record, record_rules)
    assert altered["error"].startswith("not the fair deal: game_seed: the seats' seeds give")
    # Malformed, or not the table's: named, never a traceback.
    changes: list[tuple[Callable[[dict[str, Any]], object], str | None]] = [
        (lambda r: r["fairness"].update(seats="x"), "seats"),
        (lambda r: r["fairness"]["seats"].append(7), "seats"),
        (lambda r: r["rounds"][0]["actions"].append({"reshuffle": 7}), None),
        (lambda r: r["seats"][0].update(is_cpu=True, cpu_level="easy"), "seat 0"),
        (lambda r: r["fairness"]["seats"][0].update(player_id=None), "seat 0"),
    ]
    for change, where in changes:
        record = host.get(f"/api/v1/games/{game_id}/record/").json()
        change(record)
        summary = replay(record, record_rules)
        if where is None:  # not by the rules: replay's own error comes first
            assert "error" in summary
            continue
        assert summary["error"].startswith(f"not the fair deal: {where}: "), summary
    # A record from before fair deals still replays.
    record = host.get(f"/api/v1/games/{game_id}/record/").json()
    del record["fairness"]
    assert "fairness" not in replay(record, record_rules)
    assert replay(record, record_rules)["status"] == "finished"


def test_a_ranked_tables_seating_is_the_seeds(db) -> None:
    players = [PlayerFactory.create() for _ in range(3)]
    with transaction.atomic():
        game = game_begin_ranked(players=players, cpu_levels=[Level.HARD, Level.HARD]).game
    seed = bytes.fromhex(game_secrets(str(game.pk))[-1])
    entrants = [str(player.pk) for player in players] + ["cpu:hard", "cpu:hard"]
    sat = [
        str(seat.player_id) if seat.player_id else f"cpu:{seat.cpu_level}"
        for seat in game.seats.order_by("seat")
    ]
    assert sat == FairDeal(seed).seats(entrants)
    assert [row["seat"] for row in game.fairness["seats"]] == [
        index for index, name in enumerate(sat) if not name.startswith("cpu:")
    ]


def test_the_client_seed_is_the_players_to_set_between_games(make_client) -> None:
    player = make_client("Setter")
    changed = player.api.patch(ME, {"client_seed": "my-own~seed!"}, format="json")
    assert changed.status_code == 200, changed.content
    assert player.get(ME).json()["fairness"]["client_seed"] == "my-own~seed!"
    for bad in ("", "with space", "x" * 65, "é", " abc ", "abc\n", "\tabc", "abc\r\n", " "):
        refused = player.api.patch(ME, {"client_seed": bad}, format="json")
        assert (refused.status_code, refused.json()["code"]) == (400, "invalid")
    # Seated at a waiting table: refused, and nothing of the request changes.
    player.post("/api/v1/games/", {"max_players": 2})
    refused = player.api.patch(
        ME, {"client_seed": "other", "display_name": "Renamed"}, format="json"
    )
    assert (refused.status_code, refused.json()["code"]) == (409, "in_game")
    assert player.get(ME).json()["fairness"]["client_seed"] == "my-own~seed!"
    assert Player.objects.get(pk=player.player.pk).display_name == "Setter"


def test_every_human_has_a_pair_from_the_start(make_client) -> None:
    """A guest made through the API has a pair before any game (its commitment precedes any
    client seed it meets); a player made in bulk, without one, gets it when first needed."""
    guest = make_client("New")
    assert SeedPair.objects.filter(player=guest.player).exists()
    bulk = Player.objects.bulk_create([Player(display_name="Bulk")])[0]
    assert not SeedPair.objects.filter(player=bulk).exists()
    with transaction.atomic():
        game_begin_ranked(players=[bulk], cpu_levels=[Level.EASY])
    assert SeedPair.objects.filter(player=bulk).exists()


def test_a_voided_games_record_reveals_the_seeds_and_verifies(db) -> None:
    game_id, clients = start_table(2)
    play_moves(game_id, clients, 5)
    shown = clients[0].game(game_id)["fairness"]
    game_void(game_id=game_id, reason="abuse")
    record = clients[1].get(f"/api/v1/games/{game_id}/record/").json()
    revealed = record["fairness"]
    assert [(s["seat"], s["commitment"], s["client_seed"]) for s in revealed["seats"]] == [
        (s["seat"], s["commitment"], s["client_seed"]) for s in shown["seats"]
    ]
    assert check_record(record).hex() == revealed["game_seed"] == game_secrets(game_id)[-1]
    assert replay(record, record_rules)["fairness"] == "verified"


def test_the_migration_gives_every_human_a_pair(make_client) -> None:
    """accounts/migrations/0010_seed_pair.py: humans and guests get a pair, the CPU levels'
    rated players none."""
    migration = importlib.import_module("accounts.migrations.0010_seed_pair")
    human = PlayerFactory.create(registered=True)
    guest = make_client("Guest").player
    cpu = Player.objects.filter(cpu_level__isnull=False).first() or PlayerFactory.create(
        cpu_level=Level.HARD
    )
    SeedPair.objects.all().delete()

    migration.give_every_human_a_pair(django_apps, None)

    assert guest.is_guest
    assert not human.is_guest
    paired = set(SeedPair.objects.values_list("player_id", flat=True))
    assert {human.pk, guest.pk} <= paired
    assert cpu.pk not in paired
    assert paired == set(Player.objects.filter(cpu_level__isnull=True).values_list("pk", flat=True))
    for pair in SeedPair.objects.all():
        assert len(bytes(pair.server_seed)) == 32
        assert len(pair.client_seed) == 16


def test_no_secret_leaves_before_the_end(make_client, admin_client, caplog) -> None:
    host, game_id, _ = _table_against_a_cpu(make_client)
    secrets = game_secrets(game_id)
    metrics = admin_client.get("/metrics")
    assert metrics.status_code == 200
    seen = [
        json.dumps(host.game(game_id)),
        json.dumps(host.get(f"/api/v1/games/{game_id}/events/").json()),
        json.dumps(host.get(ME).json()),
        json.dumps(host.get(f"/api/v1/games/{game_id}/record/").json()),
        admin_client.get(f"/admin/games/game/{game_id}/change/").content.decode(),
        admin_client.get("/admin/accounts/player/").content.decode(),
        admin_client.get(f"/admin/accounts/player/{host.player.pk}/change/").content.decode(),
        metrics.content.decode(),
        caplog.text,
    ]
    for text in seen:
        for secret in secrets:
            assert secret not in text
    # The checks can see a secret: the record shows them once the game is over.
    host.post(f"/api/v1/games/{game_id}/leave/")
    game_cpu_turn(game_id=game_id, seq=Game.objects.get(pk=game_id).seq)
    record = json.dumps(host.get(f"/api/v1/games/{game_id}/record/").json())
    assert all(secret in record for secret in secrets)
