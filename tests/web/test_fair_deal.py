"""Fair deals in the web client (docs/fairness.md, docs/web-client.md "Fair deals"): the game
page shows each human seat's commitment and client seed from the start; when the game ends it
reads the record, checks it in the browser and says "Deal verified" or exactly what failed
(a record altered in transit, or re-seeded after the start); the client then sets a fresh
client seed of its own, which `GET /me/` shows, and sets one again before the next table when
a game took the pair where it did not see it end; the replay viewer shows the revealed
seeds."""

from __future__ import annotations

import hashlib
import json
import re
from itertools import count
from typing import Any
from uuid import UUID

from django.db import transaction
from playwright.sync_api import Page, Route, expect

from accounts.services import seed_pairs_take
from games.engine import fair
from games.models import Game
from tests.web.conftest import PHONE, SCREENSHOTS, game_id_of

HEX64 = re.compile(r"^[0-9a-f]{64}$")


def element_shot(page: Page, test_id: str, name: str) -> None:
    """docs/screenshots/<name>.png: one element of the page (docs/web-client.md shows it)."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.get_by_test_id(test_id).screenshot(path=SCREENSHOTS / f"{name}.png")


def _play_to_the_end(page: Page, *, shoot: str | None = None) -> str:
    """A private table against an easy CPU, started, then left: the CPU plays the seat to a
    quick end (the first total over 100). The game's id, once its standings show."""
    page.get_by_test_id("max-players").select_option("2")
    page.get_by_test_id("house-rules").locator("summary").click()
    page.get_by_label("The game ends").select_option("first_over_100")
    page.get_by_label("Assaf penalty").fill("100")
    page.get_by_test_id("new-table").click()
    expect(page).to_have_url(re.compile(r"/games/[0-9a-f-]{36}$"))
    # Before the start there is nothing to show: no seed has been taken.
    expect(page.get_by_test_id("fair-deal")).to_have_count(0)
    page.get_by_test_id("cpu-level").select_option("easy")
    page.get_by_test_id("add-cpu").click()
    expect(page.get_by_test_id("seat-1")).to_be_visible()
    page.get_by_test_id("start-game").click()
    expect(page.get_by_test_id("hand").locator("[data-card]")).to_have_count(5)

    # From the start: the one human seat's commitment and client seed, as the game took them.
    game = Game.objects.get(pk=game_id_of(page))
    assert game.fairness is not None
    [taken] = game.fairness["seats"]
    fair = page.get_by_test_id("fair-deal")
    expect(fair).to_have_attribute("data-version", "yaniv-fair/1")
    seat = fair.get_by_test_id("fair-seat")
    expect(seat).to_have_count(1)
    expect(seat).to_have_attribute("data-seat", str(taken["seat"]))
    commitment = seat.get_by_test_id("fair-commitment")
    expect(commitment).to_have_attribute("data-value", taken["commitment"])
    expect(commitment).to_have_attribute("title", taken["commitment"])
    expect(commitment).to_have_text(f"{taken['commitment'][:8]}…{taken['commitment'][-8:]}")
    expect(seat.get_by_test_id("fair-client-seed")).to_have_text(taken["client_seed"])
    expect(fair).to_contain_text("revealed and every deck checked here when the game ends")
    expect(fair.get_by_test_id("fair-verdict")).to_have_count(0)
    if shoot:
        element_shot(page, "fair-deal", f"{shoot}-active-desktop")

    page.get_by_role("button", name="Leave the table").click()
    expect(page.get_by_test_id("standings").locator("li")).to_have_count(2, timeout=60_000)
    return str(game.pk)


def _me(page: Page) -> dict[str, Any]:
    """`GET /api/v1/me/` with the page's own token."""
    me: dict[str, Any] = page.evaluate(
        """async () => (await fetch("/api/v1/me/", {
          headers: { Authorization: `Bearer ${localStorage.getItem("yaniv.token")}` },
        })).json()"""
    )
    return me


def test_a_finished_game_is_verified_and_the_next_seed_is_the_clients(open_player) -> None:
    page = open_player("/")
    before = _me(page)["fairness"]
    game_id = _play_to_the_end(page, shoot="fair-deal")
    [taken] = Game.objects.get(pk=game_id).fairness["seats"]
    assert taken["commitment"] == before["commitment"]

    verdict = page.get_by_test_id("fair-verdict")
    expect(verdict).to_have_attribute("data-status", "verified")
    seed = verdict.locator("code")
    expect(seed).to_have_attribute("data-value", HEX64)
    expect(verdict).to_have_text(re.compile(r"^Deal verified · game seed [0-9a-f]{8}…[0-9a-f]{8}$"))

    # The client set a fresh client seed of its own, kept it and shows it; the server has it
    # for the next game, with the pair the game's start made.
    nxt = page.get_by_test_id("fair-next-seed")
    expect(nxt).to_have_text(re.compile(r"^[0-9a-f]{16}$"))
    mine = nxt.inner_text()
    assert mine != taken["client_seed"]
    kept = page.evaluate("() => JSON.parse(localStorage.getItem('yaniv.clientSeed'))")
    assert kept["seed"] == mine
    assert kept["pending"] is False
    now = _me(page)["fairness"]
    assert now["client_seed"] == mine
    assert now["commitment"] != taken["commitment"]
    element_shot(page, "fair-deal", "fair-deal-verified-desktop")

    # On a phone the element wraps inside its box.
    page.set_viewport_size(PHONE)
    fair = page.get_by_test_id("fair-deal")
    assert fair.evaluate("el => el.scrollWidth <= el.clientWidth")
    element_shot(page, "fair-deal", "fair-deal-verified-phone")

    # A finished table opened again checks again, but sets no other seed.
    page.reload()
    expect(page.get_by_test_id("fair-verdict")).to_have_attribute("data-status", "verified")
    expect(page.get_by_test_id("fair-next-seed")).to_have_text(mine)
    assert _me(page)["fairness"]["client_seed"] == mine

    # The replay viewer shows the revealed seeds and the check.
    page.set_viewport_size({"width": 1280, "height": 860})
    page.get_by_role("link", name="Replay this game").click()
    expect(page).to_have_url(re.compile(f"/replay/{game_id}$"))
    fair = page.get_by_test_id("fair-deal")
    expect(fair.get_by_test_id("fair-verdict")).to_have_attribute("data-status", "verified")
    revealed = Game.objects.get(pk=game_id)
    record_seat = fair.get_by_test_id("fair-seat")
    expect(record_seat).to_have_count(1)
    expect(record_seat.get_by_test_id("fair-commitment")).to_have_attribute(
        "data-value", taken["commitment"]
    )
    expect(record_seat.get_by_test_id("fair-client-seed")).to_have_text(taken["client_seed"])
    # Written out whole: what anyone needs to check the game themselves.
    server_seed = record_seat.get_by_test_id("fair-server-seed")
    expect(server_seed).to_have_text(HEX64)
    revealed_seed = bytes.fromhex(server_seed.inner_text())
    assert hashlib.sha256(revealed_seed).hexdigest() == taken["commitment"]
    expect(record_seat.get_by_test_id("fair-commitment")).to_have_text(taken["commitment"])
    game_seed = fair.get_by_test_id("fair-game-seed")
    expect(game_seed).to_have_text(seed.get_attribute("data-value") or "")
    assert revealed.status == "finished"
    element_shot(page, "fair-deal", "replay-seeds-desktop")


def test_a_record_altered_in_transit_is_not_verified(open_player) -> None:
    """And a client seed the server refuses after the game (409 `in_game`, as while the player
    still holds a seat) is set before the next table is created."""
    page = open_player("/")

    def refuse_seed(route: Route) -> None:
        if route.request.method != "PATCH":
            route.continue_()
            return
        body = {"code": "in_game", "detail": "You hold a seat at a waiting or active game."}
        route.fulfill(status=409, json=body)

    page.route(re.compile(r"/api/v1/me/$"), refuse_seed)

    def swap_two_cards(route: Route) -> None:
        response = route.fetch()
        record = response.json()
        deck = record["rounds"][0]["deck"]
        deck[0], deck[1] = deck[1], deck[0]
        route.fulfill(response=response, body=json.dumps(record))

    page.route(re.compile(r"/api/v1/games/[0-9a-f-]{36}/record/$"), swap_two_cards)
    _play_to_the_end(page)
    verdict = page.get_by_test_id("fair-verdict")
    expect(verdict).to_have_attribute("data-status", "failed")
    expect(verdict).to_have_text("Deal NOT verified: round 1 deck: is not the seed's shuffle")
    element_shot(page, "fair-deal", "fair-deal-failed-desktop")

    # The seed was refused: owed, and set before the next table.
    expect(page.get_by_test_id("fair-next-seed")).to_have_count(0)
    kept = page.evaluate("() => JSON.parse(localStorage.getItem('yaniv.clientSeed'))")
    assert kept["pending"] is True
    old = _me(page)["fairness"]["client_seed"]
    page.unroute(re.compile(r"/api/v1/me/$"))
    page.get_by_role("link", name="Play again").click()
    page.get_by_test_id("new-table").click()
    expect(page).to_have_url(re.compile(r"/games/[0-9a-f-]{36}$"))
    kept = page.evaluate("() => JSON.parse(localStorage.getItem('yaniv.clientSeed'))")
    assert kept["pending"] is False
    assert re.fullmatch(r"[0-9a-f]{16}", kept["seed"])
    assert _me(page)["fairness"]["client_seed"] == kept["seed"] != old


def _reseeded(record: dict[str, Any]) -> dict[str, Any]:
    """The record as a server would forge it that chose the seed after the start: the one
    human seat's server and client seeds replaced, its commitment the new seed's, and the game
    seed, every deck and reshuffle made again from them (a seed whose first starter is the
    record's): consistent in itself, `check_record` finds nothing."""
    fairness = record["fairness"]
    [pair] = fairness["seats"]
    for attempt in count():
        server = hashlib.sha256(b"forged %d" % attempt).digest()
        seed = fair.game_seed([(server, "forged")])
        if fair.FairDeal(seed).first_starter(record["players"]) == record["rounds"][0]["starter"]:
            break
    pair.update(server_seed=server.hex(), commitment=fair.commitment(server), client_seed="forged")
    fairness["game_seed"] = seed.hex()
    deal = fair.FairDeal(seed)
    rules = record["rules"]
    for number, round_ in enumerate(record["rounds"], start=1):
        round_["deck"] = fair.canonical_deck(rules.get("decks", 1), rules.get("jokers", 2))
        deal.deal_deck(number, round_["deck"])
        reshuffles = [entry for entry in round_["actions"] if "reshuffle" in entry]
        for nth, entry in enumerate(reshuffles, start=1):
            deal.reshuffle_stock(number, nth, entry["reshuffle"])
    return record


def test_a_record_reseeded_after_the_start_is_not_verified(open_player) -> None:
    """The record in transit is re-seeded, consistently: only the commitment and client seed
    the page showed from the start tell."""
    page = open_player("/")
    forged: list[dict[str, Any]] = []

    def reseed(route: Route) -> None:
        response = route.fetch()
        record = _reseeded(response.json())
        forged.append(record)
        route.fulfill(response=response, body=json.dumps(record))

    page.route(re.compile(r"/api/v1/games/[0-9a-f-]{36}/record/$"), reseed)
    _play_to_the_end(page)
    verdict = page.get_by_test_id("fair-verdict")
    expect(verdict).to_have_attribute("data-status", "failed")
    expect(verdict).to_have_text(
        "Deal NOT verified: seat 0 commitment: is not the one shown when the game started"
    )
    # The forgery holds together: the record's own check finds nothing.
    assert fair.check_record(forged[0]).hex() == forged[0]["fairness"]["game_seed"]


def _kept(page: Page) -> dict[str, Any]:
    kept: dict[str, Any] = page.evaluate(
        "() => JSON.parse(localStorage.getItem('yaniv.clientSeed'))"
    )
    return kept


def test_a_seed_met_unseen_is_renewed_before_the_next_table(open_player) -> None:
    """A game that took the pair where this page did not see it end (another device, a closed
    tab): the seed this client set has met a commitment, and the next table gets a fresh one."""
    page = open_player("/")
    # On opening, the client sets a seed of its own, kept with the commitment then current.
    page.wait_for_function("() => JSON.parse(localStorage.getItem('yaniv.clientSeed'))?.commitment")
    kept = _kept(page)
    me = _me(page)["fairness"]
    assert (kept["seed"], kept["commitment"]) == (me["client_seed"], me["commitment"])

    # A game elsewhere takes the pair: a new commitment, the same client seed.
    with transaction.atomic():
        seed_pairs_take([UUID(kept["player"])])
    taken = _me(page)["fairness"]
    assert taken["commitment"] != kept["commitment"]
    assert taken["client_seed"] == kept["seed"]

    page.get_by_test_id("new-table").click()
    expect(page).to_have_url(re.compile(r"/games/[0-9a-f-]{36}$"))
    now = _me(page)["fairness"]
    renewed = _kept(page)
    assert now["client_seed"] == renewed["seed"] != kept["seed"]
    assert renewed["commitment"] == now["commitment"] == taken["commitment"]
