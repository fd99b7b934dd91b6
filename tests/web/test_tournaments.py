"""Tournaments in the web client: a registered player creates one in the page, two players
join it (one through its password), beat's pass (driven here) seats them and each browser's
table opens by itself; the game's result, written as the games app leaves it and scored by the
real service, moves the standings on the tournament page through its socket. Then: the pages
on a phone (nothing scrolls sideways), a pause and the way back, a player on fire and off it,
a game played to its end whose page shows the points the worker scored and then opens the next
table by itself, and a tournament ended early that finishes once its last game has."""

from __future__ import annotations

import random
import re
from datetime import datetime, timedelta
from typing import Any

from django.utils import timezone
from playwright.sync_api import Locator, Page, expect

from accounts.models import Player
from accounts.services import auth_token_issue
from games.engine.cards import VALUE
from games.engine.cpu import cpu_action
from games.engine.state import CallYaniv, GameState
from games.models import Game, GameStatus
from games.services.play import game_act
from tests.factories import PlayerFactory
from tests.web.conftest import game_id_of, shot
from tournaments import arena
from tournaments.models import Participant, Tournament, TournamentStatus
from tournaments.services import (
    tournament_create,
    tournament_end_now,
    tournament_game_score,
    tournament_join,
    tournament_pause,
    tournaments_tick,
)


def _log_in(page: Page, player: Player) -> None:
    """This browser becomes `player` (their token in its storage), on the page it is at."""
    token = auth_token_issue(player=player)
    page.evaluate("token => localStorage.setItem('yaniv.token', token)", token)
    page.reload()
    expect(page.get_by_test_id("you-name")).to_have_text(player.display_name)


def _finish(game: Game, places: dict[Player, int]) -> None:
    """End the game with these places, as the games app leaves a finished game."""
    by_id = {player.pk: place for player, place in places.items()}
    for seat in game.seats.all():
        assert seat.player_id is not None
        seat.place = by_id[seat.player_id]
        seat.live = False
        seat.save()
    game.status = GameStatus.FINISHED
    game.finished_at = timezone.now()
    game.save()


def _play_out(game: Game, winner: Player) -> None:
    """Play the game to its end through the games service, as its players' clients would:
    `winner` as the CPU plays, the others shedding their lowest card and never calling Yaniv
    (their hands only grow), so that `winner` wins every round and finishes first."""
    seats = {seat.seat: seat.player for seat in game.seats.select_related("player")}
    for _ in range(3000):
        game.refresh_from_db()
        if game.status != GameStatus.ACTIVE:
            return
        state = GameState.from_dict(game.state or {})
        seat = state.turn or 0
        player = seats[seat]
        assert player is not None
        action: dict[str, Any]
        if player == winner:
            chosen = cpu_action(state, seat, random.Random(game.seq))
            action = (
                {"type": "yaniv"}
                if isinstance(chosen, CallYaniv)
                else {"type": "play", "cards": list(chosen.cards), "draw": chosen.draw}
            )
        else:
            lowest = min(state.hands[seat], key=VALUE.__getitem__)
            action = {"type": "play", "cards": [lowest], "draw": "stock"}
        game_act(game_id=game.pk, player=player, seq=game.seq, action=action)
    raise AssertionError(f"game {game.pk} did not end")


def _row(page: Page, player: Player) -> Locator:
    return page.get_by_test_id("tournament-standings").locator(f'tr[data-player="{player.pk}"]')


def _me(page: Page) -> Player:
    """The player this browser is (a guest's name is their own)."""
    return Player.objects.get(display_name=page.get_by_test_id("you-name").inner_text())


def _arena(
    name: str, *, starts_in: timedelta = timedelta(0), minutes: int = 30, **more
) -> Tournament:
    """A tournament of tables of two (unless told), as a schedule makes them: by nobody."""
    more.setdefault("table_sizes", [2])
    return tournament_create(
        by=None, name=name, starts_at=timezone.now() + starts_in, minutes=minutes, **more
    )


def _play(tournament: Tournament, places: dict[Player, int]) -> None:
    """Beat's pass seats these players at one table, which ends with these places and is
    scored, as the games app and its task leave it."""
    assert tournaments_tick() == 1
    first = next(iter(places))
    game_id = Participant.objects.get(tournament=tournament, player=first).game_id
    assert game_id is not None
    game = Game.objects.get(pk=game_id)
    assert {seat.player_id for seat in game.seats.all()} == {p.pk for p in places}
    _finish(game, places)
    assert tournament_game_score(game_id=game.pk)


def _fits_sideways(locator: Locator) -> None:
    """Each element of `locator` is no wider inside than its box: nothing in it scrolls
    sideways (and there is at least one)."""
    widths = locator.evaluate_all(
        "els => els.map(e => [e.tagName, e.className, e.scrollWidth, e.clientWidth])"
    )
    assert widths, locator
    assert [w for w in widths if w[2] > w[3]] == []


def test_a_guest_sees_why_it_cannot_create_a_tournament(open_player) -> None:
    page = open_player("/")
    page.get_by_test_id("tournaments-link").click()
    expect(page).to_have_url(re.compile(r"/tournaments$"))
    expect(page.get_by_test_id("create-guest")).to_contain_text("Only registered players")
    expect(page.get_by_test_id("create-tournament")).to_have_count(0)
    for status in ("running", "upcoming", "finished"):
        expect(page.get_by_test_id(f"tournaments-{status}")).to_contain_text("No ")


def test_create_join_be_seated_and_the_standings_move(open_player) -> None:
    noa = PlayerFactory.create(display_name="Noa", username="noa", is_guest=False)
    host = open_player("/tournaments")
    _log_in(host, noa)

    # The form: the start defaults to two minutes ahead; tables of two only, private.
    host.get_by_test_id("tournament-name").fill("Friday arena")
    for size in (3, 4):
        host.get_by_test_id(f"tournament-size-{size}").uncheck()
    host.get_by_test_id("tournament-minutes").fill("45")
    host.get_by_test_id("tournament-password").fill("sesame")
    host.get_by_test_id("create-submit").click()
    expect(host).to_have_url(re.compile(r"/tournaments/[0-9a-f-]{36}$"))
    tournament = Tournament.objects.get(name="Friday arena")
    assert tournament.table_sizes == [2]
    assert tournament.rated
    assert tournament.password
    assert tournament.ends_at - tournament.starts_at == timedelta(minutes=45)
    ahead = tournament.starts_at - timezone.now()
    assert timedelta(seconds=30) < ahead <= timedelta(minutes=2)
    expect(host.get_by_test_id("tournament-status")).to_have_text("upcoming")
    expect(host.get_by_test_id("countdown-line")).to_contain_text(re.compile(r"Starts in [12]:"))

    # The creator joins with the password, as anyone does.
    host.get_by_test_id("join-password").fill("sesame")
    host.get_by_test_id("join-tournament").click()
    expect(host.get_by_test_id("my-score")).to_have_text("0")
    expect(_row(host, noa)).to_contain_text("you")

    # A guest finds it in the list, is refused a wrong password, then joins.
    guest = open_player("/tournaments")
    row = guest.get_by_test_id("tournaments-upcoming").get_by_test_id("tournament-row")
    expect(row).to_have_count(1)
    expect(row).to_contain_text("Friday arena")
    expect(row).to_contain_text("45 min")
    expect(row).to_contain_text("private")
    shot(guest, "tournament-list-desktop")
    row.get_by_role("link", name="Friday arena").click()
    guest.get_by_test_id("join-password").fill("nope")
    guest.get_by_test_id("join-tournament").click()
    expect(guest.get_by_test_id("error")).to_have_text("That is not the tournament's password.")
    guest.get_by_test_id("join-password").fill("sesame")
    guest.get_by_test_id("join-tournament").click()
    expect(guest.get_by_test_id("my-score")).to_have_text("0")
    guest_player = Player.objects.get(display_name=guest.get_by_test_id("you-name").inner_text())
    # The host's page hears of the second player on the standings' socket.
    expect(host.get_by_test_id("players-count")).to_have_text("2 players")
    expect(host.get_by_test_id("tournament-standings").get_by_test_id("standing")).to_have_count(2)
    shot(host, "tournament-upcoming-desktop")

    # Beat's pass at the start: both are seated, and each browser opens its table by itself.
    start: datetime = tournament.starts_at
    assert tournaments_tick(now=start + timedelta(seconds=1)) == 1
    expect(host).to_have_url(re.compile(r"/games/[0-9a-f-]{36}$"))
    expect(guest).to_have_url(re.compile(r"/games/[0-9a-f-]{36}$"))
    game = Game.objects.get(pk=game_id_of(host))
    assert game_id_of(guest) == str(game.pk)
    assert game.tournament_id == tournament.pk
    expect(host.get_by_role("heading", name="Tournament table")).to_be_visible()
    line = host.get_by_test_id("tournament-line")
    expect(line).to_contain_text("Tournament: Friday arena")
    expect(host.get_by_test_id("tournament-points")).to_have_text("0")
    shot(host, "tournament-table-desktop")

    # Back on the tournament page (which links to the table the host came from), the game
    # ends: its points arrive on the socket, and the link to the table goes.
    host.get_by_test_id("tournament-link").click()
    expect(host).to_have_url(re.compile(f"/tournaments/{tournament.pk}$"))
    expect(host.get_by_test_id("my-table-link")).to_have_attribute("href", f"/games/{game.pk}")
    expect(host.get_by_test_id("tournament-status")).to_have_text("running")
    expect(host.get_by_test_id("countdown-line")).to_contain_text("Ends in")
    expect(_row(host, noa).get_by_test_id("standing-games")).to_have_text("0")
    _finish(game, {noa: 1, guest_player: 2})
    tournament_game_score(game_id=game.pk)  # or the task on the game's end did already
    won, lost = arena.scores([1, 2], [False, False])
    assert won > lost
    noa_row = _row(host, noa)
    expect(noa_row.get_by_test_id("standing-score")).to_have_text(_number(won))
    expect(noa_row.get_by_test_id("standing-games")).to_have_text("1")
    expect(noa_row.get_by_test_id("standing-firsts")).to_have_text("1")
    expect(noa_row.get_by_test_id("standing-rank")).to_have_text("1")
    guest_row = _row(host, guest_player)
    expect(guest_row.get_by_test_id("standing-score")).to_have_text(_number(lost))
    expect(guest_row.get_by_test_id("standing-games")).to_have_text("1")
    expect(guest_row.get_by_test_id("standing-rank")).to_have_text("2")
    expect(host.get_by_test_id("my-score")).to_have_text(_number(won))
    expect(host.get_by_test_id("my-rank")).to_have_text("#1")
    expect(host.get_by_test_id("my-table")).to_have_count(0)
    shot(host, "tournament-desktop")

    # The guest's table, read again once over, shows its points in the tournament.
    guest.reload()
    expect(guest.get_by_test_id("tournament-points")).to_have_text(_number(lost))

    # On a phone: the list and the running tournament.
    phone = open_player("/tournaments", phone=True)
    running = phone.get_by_test_id("tournaments-running").get_by_test_id("tournament-row")
    expect(running).to_contain_text("Friday arena")
    running.get_by_role("link", name="Friday arena").click()
    expect(_row(phone, noa).get_by_test_id("standing-score")).to_have_text(_number(won))
    expect(phone.get_by_test_id("join-password")).to_be_visible()
    shot(phone, "tournament-phone")
    assert Tournament.objects.get(pk=tournament.pk).status == TournamentStatus.RUNNING


# Long names, one of them a single word: what a phone must still fit.
LONG_NAMES = ("Maximiliana Wolkenstein-Ottoson", "Wolfeschlegelsteinhausenbergerd", "Bartholomew")
RUNNING = "The Grand Thursday Night Championship of the Yaniv Club"
UPCOMING = "Supercalifragilisticexpialidocious-Yaniv-Marathon-Extravaganza"
FINISHED = "Monday Evening Invitational for Friends and Neighbours"


def test_the_lists_and_the_standings_fit_a_phone(open_player) -> None:
    players = [PlayerFactory.create(display_name=name) for name in LONG_NAMES]
    running = _arena(RUNNING, minutes=720, table_sizes=[2, 3, 4, 5], password="sesame")
    for player in players:
        tournament_join(tournament_id=running.pk, player=player, password="sesame")
    _arena(UPCOMING, starts_in=timedelta(hours=3), minutes=90)
    _arena(FINISHED, starts_in=timedelta(hours=-1), minutes=5)
    # One pass starts the first (a table of three), and starts and ends the last.
    _play(running, dict(zip(players, (1, 2, 3), strict=True)))
    tournament_pause(tournament_id=running.pk, player=players[1])
    page = open_player("/tournaments", phone=True)

    for status, name, facts in (
        ("running", RUNNING, ("private", "12 h", "tables of 2p, 3p, 4p, 5p", "3 players")),
        ("upcoming", UPCOMING, ("1 h 30 min", "tables of 2p", "0 players")),
        ("finished", FINISHED, ("5 min", "tables of 2p", "0 players")),
    ):
        section = page.get_by_test_id(f"tournaments-{status}")
        row = section.get_by_test_id("tournament-row")
        expect(row).to_have_count(1)
        expect(row.get_by_role("link")).to_have_text(name)
        for fact in facts:
            expect(row).to_contain_text(fact)
        _fits_sideways(section.locator("*:not(.sr-only)"))
    _fits_sideways(page.locator("html"))
    shot(page, "tournament-list-phone")

    page.get_by_role("link", name=RUNNING).click()
    expect(page.get_by_test_id("tournament-name")).to_have_text(RUNNING)
    standings = page.get_by_test_id("tournament-standings")
    expect(standings.get_by_test_id("standing")).to_have_count(3)
    expect(_row(page, players[0]).get_by_test_id("standing-score")).to_have_text("2")
    expect(_row(page, players[1]).get_by_test_id("standing-paused")).to_have_text("paused")
    _fits_sideways(page.locator("main, main *:not(.sr-only)"))
    _fits_sideways(page.locator("html"))
    shot(page, "tournament-standings-phone")


def test_a_paused_player_is_not_seated_until_they_come_back(open_player) -> None:
    tournament = _arena("Lunch arena")
    assert tournaments_tick() == 0  # it starts, with nobody to seat
    rival = PlayerFactory.create(display_name="Rival")
    tournament_join(tournament_id=tournament.pk, player=rival)
    page = open_player(f"/tournaments/{tournament.pk}", phone=True)
    me = _me(page)
    expect(page.get_by_test_id("tournament-status")).to_have_text("running")
    join = page.get_by_test_id("join-tournament")
    expect(join).to_have_text("Join")
    join.click()
    mine = _row(page, me)
    expect(mine).to_contain_text("you")
    expect(page.get_by_test_id("players-count")).to_have_text("2 players")

    page.get_by_test_id("pause-tournament").click()
    expect(mine.get_by_test_id("standing-paused")).to_have_text("paused")
    expect(page.get_by_test_id("my-paused")).to_have_text("paused")
    expect(page.get_by_text("Paused: you are not seated until you come back.")).to_be_visible()
    expect(join).to_have_text("Come back")
    expect(page.get_by_test_id("pause-tournament")).to_have_count(0)
    expect(_row(page, rival).get_by_test_id("standing-paused")).to_have_count(0)
    _fits_sideways(page.locator("html"))
    shot(page, "tournament-paused-phone")

    # Beat's pass leaves the paused player out (and so their rival, alone, unseated too).
    assert tournaments_tick() == 0
    assert Participant.objects.get(tournament=tournament, player=me).game_id is None
    expect(page).to_have_url(re.compile(f"/tournaments/{tournament.pk}$"))

    join.click()
    expect(mine.get_by_test_id("standing-paused")).to_have_count(0)
    expect(page.get_by_test_id("my-paused")).to_have_count(0)
    expect(page.get_by_test_id("pause-tournament")).to_have_text("Pause")
    expect(join).to_have_count(0)
    # The next pass seats them with their rival, and the table opens by itself.
    assert tournaments_tick() == 1
    expect(page).to_have_url(re.compile(r"/games/[0-9a-f-]{36}$"))
    game = Game.objects.get(pk=game_id_of(page))
    assert game.tournament_id == tournament.pk
    assert {seat.player_id for seat in game.seats.all()} == {me.pk, rival.pk}
    expect(page.get_by_test_id("tournament-line")).to_contain_text("Tournament: Lunch arena")


def test_two_outright_wins_in_a_row_put_a_player_on_fire(open_player, settings) -> None:
    settings.YANIV_TOURNAMENT_REPEAT_WAIT_SECONDS = 0  # the two sit together again at once
    tournament = _arena("Hot streak arena")
    ada = PlayerFactory.create(display_name="Ada")
    bo = PlayerFactory.create(display_name="Bo")
    for player in (ada, bo):
        tournament_join(tournament_id=tournament.pk, player=player)
    # A spectator's page, never reloaded: all that follows comes on the standings' socket.
    page = open_player(f"/tournaments/{tournament.pk}")
    expect(page.get_by_test_id("tournament-standings").get_by_test_id("standing")).to_have_count(2)
    ada_row, bo_row = _row(page, ada), _row(page, bo)
    fire = ada_row.get_by_test_id("on-fire")
    win, loss = arena.scores([1, 2], [False, False])

    _play(tournament, {ada: 1, bo: 2})  # the pass that starts it seats them
    expect(page.get_by_test_id("tournament-status")).to_have_text("running")
    expect(ada_row.get_by_test_id("standing-firsts")).to_have_text("1")
    expect(fire).to_have_count(0)  # one first place is no streak

    _play(tournament, {ada: 1, bo: 2})
    expect(ada_row.get_by_test_id("standing-firsts")).to_have_text("2")
    expect(fire).to_have_text("on fire")
    expect(fire).to_have_attribute("title", "On fire: points doubled")
    expect(ada_row.get_by_test_id("standing-score")).to_have_text(_number(2 * win))
    expect(bo_row.get_by_test_id("on-fire")).to_have_count(0)
    shot(page, "tournament-on-fire-desktop")

    # A game lost ends the streak (and scores nothing, doubled or not).
    _play(tournament, {ada: 2, bo: 1})
    expect(ada_row.get_by_test_id("standing-games")).to_have_text("3")
    expect(fire).to_have_count(0)
    expect(ada_row.get_by_test_id("standing-score")).to_have_text(_number(2 * win + loss))
    expect(bo_row.get_by_test_id("standing-score")).to_have_text(_number(2 * loss + win))
    expect(bo_row.get_by_test_id("on-fire")).to_have_count(0)
    assert page.evaluate("performance.getEntriesByType('navigation').length") == 1


def test_a_finished_tables_page_shows_the_points_then_opens_the_next_table(
    open_player, settings
) -> None:
    settings.YANIV_TOURNAMENT_REPEAT_WAIT_SECONDS = 0  # the two sit together again at once
    tournament = _arena("Relay arena")
    assert tournaments_tick() == 0  # it starts, with nobody to seat
    rival = PlayerFactory.create(display_name="Rival")
    tournament_join(tournament_id=tournament.pk, player=rival)
    page = open_player(f"/tournaments/{tournament.pk}")
    me = _me(page)
    page.get_by_test_id("join-tournament").click()
    expect(page.get_by_test_id("pause-tournament")).to_be_visible()
    assert tournaments_tick() == 1
    expect(page).to_have_url(re.compile(r"/games/[0-9a-f-]{36}$"))
    first = Game.objects.get(pk=game_id_of(page))
    assert first.tournament_id == tournament.pk
    points = page.get_by_test_id("tournament-points")
    expect(points).to_have_text("0")

    # The game is played to its end; the worker scores it a moment later (the task on the
    # game's end), and the page, still on the finished table, shows the new points.
    _play_out(first, winner=me)
    expect(page.get_by_test_id("standings").locator("li")).to_have_count(2)
    win, _loss = arena.scores([1, 2], [False, False])
    expect(points).to_have_text(_number(win))
    expect(page.get_by_test_id("tournament-rank")).to_have_text("rank #1")
    entry = Participant.objects.get(tournament=tournament, player=me)
    assert (entry.score, entry.games, entry.game_id) == (win, 1, None)
    shot(page, "tournament-scored-desktop")

    # The next pass seats the two again: the finished table's page opens the new one by itself.
    assert tournaments_tick() == 1
    expect(page).not_to_have_url(re.compile(str(first.pk)))
    expect(page).to_have_url(re.compile(r"/games/[0-9a-f-]{36}$"))
    second = Game.objects.get(pk=game_id_of(page))
    assert second.tournament_id == tournament.pk
    assert {seat.player_id for seat in second.seats.all()} == {me.pk, rival.pk}
    expect(page.get_by_test_id("hand").locator("[data-card]")).to_have_count(5)
    expect(page.get_by_test_id("tournament-points")).to_have_text(_number(win))
    assert page.evaluate("performance.getEntriesByType('navigation').length") == 1

    # From the table to the tournament's page: it links back to the table rather than sending
    # the player straight back to it.
    page.get_by_test_id("tournament-link").click()
    expect(page).to_have_url(re.compile(f"/tournaments/{tournament.pk}$"))
    expect(page.get_by_test_id("my-table")).to_contain_text("Your table is waiting.")
    expect(page.get_by_test_id("my-score")).to_have_text(_number(win))
    # A tab that has not shown the table (the player lost it, or opened the tournament anew)
    # goes straight to it.
    other = page.context.new_page()
    other.goto(f"/tournaments/{tournament.pk}")
    expect(other).to_have_url(re.compile(f"/games/{second.pk}$"))
    expect(other.get_by_test_id("tournament-line")).to_contain_text("Tournament: Relay arena")
    other.close()
    page.get_by_test_id("my-table-link").click()
    expect(page).to_have_url(re.compile(f"/games/{second.pk}$"))

    # Back on the tournament's page, the table ends: the link to it goes.
    page.get_by_test_id("tournament-link").click()
    expect(page.get_by_test_id("my-table")).to_be_visible()
    _play_out(second, winner=rival)
    expect(_row(page, rival).get_by_test_id("standing-games")).to_have_text("2")
    expect(page.get_by_test_id("my-table")).to_have_count(0)


def test_ended_now_it_finishes_once_its_last_game_has(open_player) -> None:
    tournament = _arena("Early night arena", starts_in=timedelta(minutes=-10))
    assert tournaments_tick() == 0  # it starts, with nobody to seat
    rival = PlayerFactory.create(display_name="Rival")
    tournament_join(tournament_id=tournament.pk, player=rival)
    page = open_player(f"/tournaments/{tournament.pk}")
    me = _me(page)
    page.get_by_test_id("join-tournament").click()
    expect(page.get_by_test_id("pause-tournament")).to_be_visible()
    assert tournaments_tick() == 1
    expect(page).to_have_url(re.compile(r"/games/[0-9a-f-]{36}$"))
    game = Game.objects.get(pk=game_id_of(page))
    page.get_by_test_id("tournament-link").click()
    expect(page).to_have_url(re.compile(f"/tournaments/{tournament.pk}$"))
    expect(page.get_by_test_id("countdown-line")).to_contain_text("Ends in")

    # Staff end it now: no table is made any more, but the game in play finishes and counts.
    # The open page hears of it on the standings' socket (its `ends_at` moved): no reload.
    tournament_end_now(tournament_id=tournament.pk)
    assert tournaments_tick() == 0
    assert Tournament.objects.get(pk=tournament.pk).status == TournamentStatus.RUNNING
    status = page.get_by_test_id("tournament-status")
    expect(status).to_have_text("running")
    line = page.get_by_test_id("countdown-line")
    expect(line).to_have_text("Time is up: the games in play finish, then the standings are final.")
    expect(page.get_by_test_id("countdown")).to_have_count(0)
    expect(page.get_by_test_id("pause-tournament")).to_be_visible()

    _finish(game, {rival: 1, me: 2})
    assert tournament_game_score(game_id=game.pk)
    win, loss = arena.scores([1, 2], [False, False])
    expect(_row(page, rival).get_by_test_id("standing-score")).to_have_text(_number(win))
    expect(page.get_by_test_id("my-rank")).to_have_text("#2")
    expect(status).to_have_text("running")  # until beat's pass finds no game in play

    # The pass finishes it: the page hears it on the socket.
    assert tournaments_tick() == 0
    expect(status).to_have_text("finished")
    expect(status).to_have_attribute("data-status", "finished")
    expect(line).to_have_text("It is over: these are the final standings.")
    expect(page.get_by_test_id("join-tournament")).to_have_count(0)
    expect(page.get_by_test_id("pause-tournament")).to_have_count(0)
    rows = page.get_by_test_id("tournament-standings").get_by_test_id("standing")
    expect(rows.get_by_test_id("standing-rank")).to_have_text(["1", "2"])
    expect(rows.first).to_contain_text("Rival")
    expect(rows.get_by_test_id("standing-games")).to_have_text(["1", "1"])
    expect(page.get_by_test_id("my-score")).to_have_text(_number(loss))
    expect(page.get_by_test_id("my-rank")).to_have_text("#2")
    expect(page.get_by_test_id("my-table")).to_have_count(0)
    shot(page, "tournament-finished-desktop")

    page.get_by_role("link", name="All tournaments").click()
    finished = page.get_by_test_id("tournaments-finished").get_by_test_id("tournament-row")
    expect(finished).to_have_count(1)
    expect(finished.get_by_role("link")).to_have_text("Early night arena")
    expect(page.get_by_test_id("tournaments-running")).to_contain_text("No running tournament.")


def _number(value: float) -> str:
    """A score as JavaScript's String() writes it: 2 for 2.0."""
    return str(int(value)) if float(value).is_integer() else str(value)


def test_a_click_survives_a_redraw_between_its_press_and_release(open_player) -> None:
    """A push that redraws the part of the page under a button while it is pressed does not
    take the click with it (web/static/web/dom.js `replace`): the browser would send the
    click to what the press and the release have in common, not the button."""
    tournament = _arena("Pressed arena", starts_in=timedelta(minutes=10))
    first = PlayerFactory.create(display_name="First")
    tournament_join(tournament_id=tournament.pk, player=first)
    page = open_player(f"/tournaments/{tournament.pk}")
    expect(_row(page, first)).to_be_visible()  # the standings' socket has spoken
    join = page.get_by_test_id("join-tournament")
    box = join.bounding_box()
    assert box is not None
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    # Another player joins meanwhile: the standings' socket redraws the board, and the entry
    # (its Join button) with it.
    second = PlayerFactory.create(display_name="Second")
    tournament_join(tournament_id=tournament.pk, player=second)
    expect(_row(page, second)).to_be_visible()
    page.mouse.up()
    expect(page.get_by_test_id("pause-tournament")).to_be_visible()
    assert Participant.objects.filter(tournament=tournament, player=_me(page)).exists()
