"""Every write to tournaments: create one, join, pause, withdraw, and what beat drives (start,
the pairing pass, the end) and a finished game's points. Each holds the tournament's lock
(tournaments/locks.py); a pass also takes the games' and players' locks through the games'
own services, after it."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime, timedelta
from typing import Any
from uuid import UUID, uuid4

from django.conf import settings
from django.contrib.auth.hashers import check_password, make_password
from django.core.cache import cache
from django.db import IntegrityError, connection, transaction
from django.db.models import Exists, Max, OuterRef
from django.utils import timezone
from django.utils.translation import gettext as _
from redis.exceptions import RedisError

from accounts.models import Player
from accounts.selectors import queue_ban_until
from core.errors import ApplicationError
from core.sockets import player_group, send_to_group, tournament_group
from games.engine.errors import InvalidRules
from games.game_rules import GameRules
from games.models import Event, Game, GameStatus, Seat
from games.reasons import rules_text
from games.selectors import player_active_game_id
from games.services.lobby import game_begin_ranked
from ratings.models import Rating
from social.selectors import blocks_by
from tournaments import arena
from tournaments.locks import locked_pending_table, locked_tournament
from tournaments.models import (
    MINUTES,
    TURN_SECONDS,
    Participant,
    PendingTable,
    Tournament,
    TournamentSchedule,
    TournamentStatus,
)
from tournaments.payloads import tournament_game_message
from tournaments.schedule import Rule, next_start
from tournaments.selectors import board_key, idle_participants

logger = logging.getLogger(__name__)

OPEN = (TournamentStatus.UPCOMING, TournamentStatus.RUNNING)
# How far from now a player's (or staff's) tournament may start: a moment in the past (the
# request's own time on the way), up to 90 days ahead (`tournament_starts_at_check`).
STARTS_AT_PAST = timedelta(minutes=1)
STARTS_AT_AHEAD = timedelta(days=90)


@transaction.atomic
def tournament_create(
    *,
    by: Player | None,
    name: str,
    starts_at: datetime,
    minutes: int,
    table_sizes: Sequence[int],
    rated: bool = True,
    rules: dict[str, Any] | None = None,
    turn_seconds: int | None = None,
    min_rated_games: int = 0,
    max_players: int | None = None,
    password: str = "",
) -> Tournament:
    """A tournament, upcoming until `starts_at`, running `minutes` from then. House rules
    (docs/rules.md §9, §12: keys or a preset) are for unrated tournaments; a rated one plays
    the ranked rules. 400 `invalid_rules` for rules that cannot seat its largest table."""
    if rules and rated:
        raise ApplicationError(
            "invalid_rules", _("House rules are for unrated tournaments: rated play is standard.")
        )
    if not MINUTES[0] <= minutes <= MINUTES[1]:
        raise ApplicationError(
            "invalid",
            _("minutes must be %(low)s to %(high)s.") % {"low": MINUTES[0], "high": MINUTES[1]},
        )
    sizes = sorted(set(table_sizes))
    if not sizes or not set(sizes) <= {2, 3, 4, 5}:
        raise ApplicationError("invalid", _("table_sizes must be a subset of [2, 3, 4, 5]."))
    turn = settings.YANIV_TOURNAMENT_TURN_SECONDS if turn_seconds is None else turn_seconds
    if not TURN_SECONDS[0] <= turn <= TURN_SECONDS[1]:
        raise ApplicationError(
            "invalid",
            _("turn_seconds must be %(low)s to %(high)s.")
            % {"low": TURN_SECONDS[0], "high": TURN_SECONDS[1]},
        )
    try:
        parsed = GameRules.parse({**(rules or {}), "turn_seconds": None})
        parsed.check_seats(sizes[-1])
    except InvalidRules as error:
        raise ApplicationError("invalid_rules", rules_text(error)) from error
    return Tournament.objects.create(
        name=name,
        starts_at=starts_at,
        ends_at=starts_at + timedelta(minutes=minutes),
        table_sizes=sizes,
        rated=rated,
        rules=replace(parsed, turn_seconds=turn).to_dict(),
        min_rated_games=min_rated_games,
        max_players=max_players,
        password=make_password(password) if password else "",
        created_by=by,
    )


def tournament_starts_at_check(starts_at: datetime, *, now: datetime | None = None) -> None:
    """400 `invalid` for a start a player (or staff) may not set: more than a minute ago, or
    more than 90 days ahead. (Schedules make theirs; tests and benches may start one at any
    time through `tournament_create`.)"""
    now = now or timezone.now()
    if not now - STARTS_AT_PAST <= starts_at <= now + STARTS_AT_AHEAD:
        raise ApplicationError(
            "invalid",
            _("starts_at must be between a minute ago and %(days)s days from now.")
            % {"days": STARTS_AT_AHEAD.days},
        )


def _open(tournament_id: UUID | str) -> Tournament:
    tournament = locked_tournament(tournament_id)
    if tournament is None:
        raise ApplicationError("not_found", _("No such tournament."), 404)
    return tournament


@transaction.atomic
def tournament_join(
    *, tournament_id: UUID | str, player: Player, password: str = ""
) -> Participant:
    """Join (before the start or while it runs, until `ends_at`), or come back after a
    pause."""
    tournament = _open(tournament_id)
    # Over, or past its end while its last games finish (or ended early before its start).
    ended = tournament.ends_at <= max(timezone.now(), tournament.starts_at)
    if tournament.status not in OPEN or ended:
        raise ApplicationError("not_open", _("The tournament is over."), 409)
    if tournament.status == TournamentStatus.RUNNING:
        _require_free(tournament, player)
    entry = Participant.objects.filter(tournament=tournament, player=player).first()
    if entry is not None:
        if entry.paused:
            entry.paused = False
            entry.idle_since = timezone.now()
            entry.save(update_fields=["paused", "idle_since"])
            _changed(tournament.pk)
        return entry
    if tournament.password and not check_password(password, tournament.password):
        raise ApplicationError("bad_password", _("That is not the tournament's password."), 403)
    full = tournament.max_players is not None
    if full and tournament.participants.count() >= (tournament.max_players or 0):
        raise ApplicationError("not_open", _("The tournament is full."), 409)
    _require_eligible(tournament, player)
    _changed(tournament.pk)
    return Participant.objects.create(tournament=tournament, player=player)


def _require_free(tournament: Tournament, player: Player) -> None:
    """One table at a time: a running tournament seats a player at its next pass, so who sits
    at another live table (a private one, the queue's) finishes or leaves it first."""
    live = player_active_game_id(player)
    if live is not None and not Game.objects.filter(pk=live, tournament_id=tournament.pk).exists():
        raise ApplicationError(
            "in_game", _("You are already at a table: finish or leave it first, then join."), 409
        )


def _require_eligible(tournament: Tournament, player: Player) -> None:
    if player.is_bot:  # arenas seat ranked tables of people; bots have their ladder
        raise ApplicationError(
            "not_eligible", _("Bots play the bot ladder, not tournaments (docs/bots.md)."), 403
        )
    if queue_ban_until(player.pk) is not None:
        raise ApplicationError("not_eligible", _("You are banned from ranked play for now."), 403)
    if tournament.min_rated_games:
        games = Rating.objects.filter(player=player).values_list("games", flat=True).first() or 0
        if games < tournament.min_rated_games:
            raise ApplicationError(
                "not_eligible",
                _(
                    "This tournament is for players with %(needed)s rated games or more; "
                    "you have %(games)s."
                )
                % {"needed": tournament.min_rated_games, "games": games},
                403,
            )


@transaction.atomic
def tournament_pause(*, tournament_id: UUID | str, player: Player) -> Participant:
    """Not seated again until the next join (a game in play goes on)."""
    tournament = _open(tournament_id)
    entry = _entry(tournament, player)
    if not entry.paused:
        entry.paused = True
        entry.save(update_fields=["paused"])
        _changed(tournament.pk)
    return entry


@transaction.atomic
def tournament_game_left(*, tournament_id: UUID, game_id: UUID, player_id: UUID) -> bool:
    """A participant left their tournament game for good (the CPU plays their seat on, and it
    scores as usual): paused at once, as the rules say, until they join again. False when
    they are not at that game of an open tournament any more (it was scored meanwhile: the
    points paused them) or were paused already."""
    tournament = locked_tournament(tournament_id)
    if tournament is None or tournament.status not in OPEN:
        return False
    paused = Participant.objects.filter(
        tournament=tournament, player_id=player_id, game_id=game_id, paused=False
    ).update(paused=True)
    if paused:
        _changed(tournament.pk)
    return bool(paused)


@transaction.atomic
def tournament_withdraw(*, tournament_id: UUID | str, player: Player) -> None:
    """Leave a tournament before it starts."""
    tournament = _open(tournament_id)
    if tournament.status != TournamentStatus.UPCOMING:
        raise ApplicationError("not_open", _("A started tournament can be paused, not left."), 409)
    _entry(tournament, player).delete()
    _changed(tournament.pk)


def _entry(tournament: Tournament, player: Player) -> Participant:
    entry = Participant.objects.filter(tournament=tournament, player=player).first()
    if entry is None:
        raise ApplicationError("not_joined", _("You have not joined this tournament."), 409)
    return entry


# Staff's (the admin) -----------------------------------------------------------------------


@transaction.atomic
def tournament_end_now(*, tournament_id: UUID | str, now: datetime | None = None) -> Tournament:
    """End a tournament early: no table is made from now on; games in play finish and count,
    and it is finished once the last one has ended (beat's pass)."""
    tournament = _open(tournament_id)
    if tournament.status not in OPEN:
        raise ApplicationError("not_open", _("The tournament is over."), 409)
    now = now or timezone.now()
    tournament.ends_at = max(min(tournament.ends_at, now), tournament.starts_at)
    tournament.save(update_fields=["ends_at"])
    _changed(tournament.pk)  # the sockets' `ends_at` moves
    return tournament


@transaction.atomic
def tournament_cancel(*, tournament_id: UUID | str, now: datetime | None = None) -> Tournament:
    """Cancel a tournament: no standings, no more tables (games in play finish as ranked
    games, and its rated games stay rated)."""
    tournament = _open(tournament_id)
    if tournament.status not in OPEN:
        raise ApplicationError("not_open", _("The tournament is over."), 409)
    tournament.status = TournamentStatus.CANCELLED
    tournament.closed_at = now or timezone.now()
    tournament.save(update_fields=["status", "closed_at"])
    tournament.participants.update(game_id=None)
    tournament.pending_tables.all().delete()
    _changed(tournament.pk)
    return tournament


# Schedules ----------------------------------------------------------------------------------


def schedules_make_ahead(*, now: datetime) -> int:
    """Make each active schedule's next tournament while none of it is upcoming (so clients
    always show the next): how many were made. A schedule makes each start once (a unique
    constraint), however many beats run; one that cannot make a tournament (its fields out
    of bounds) is logged and skipped, not the beat's end."""
    made = 0
    waiting = Tournament.objects.filter(schedule=OuterRef("pk"), status=TournamentStatus.UPCOMING)
    due = TournamentSchedule.objects.filter(active=True).exclude(Exists(waiting))
    for schedule in due:
        latest = schedule.tournaments.aggregate(latest=Max("starts_at"))["latest"]
        try:
            rule = Rule(schedule.every, schedule.minute, schedule.hour, tuple(schedule.weekdays))
            starts_at = next_start(rule, max(now, latest) if latest else now)
            with transaction.atomic():
                created = tournament_create(
                    by=None,
                    name=schedule.name,
                    starts_at=starts_at,
                    minutes=schedule.minutes,
                    table_sizes=schedule.table_sizes,
                    rated=schedule.rated,
                    turn_seconds=schedule.turn_seconds,
                    min_rated_games=schedule.min_rated_games,
                    max_players=schedule.max_players,
                )
                created.schedule = schedule
                created.save(update_fields=["schedule"])
        except IntegrityError:
            continue  # another beat made it
        except (ApplicationError, ValueError, TypeError) as error:
            # A schedule the admin's form would refuse (saved some other way): the others
            # are made still, and this one is told of at every beat until staff mend it.
            logger.error("Schedule %s (%s) makes no tournament: %s", schedule.pk, schedule, error)
            continue
        made += 1
    return made


# What beat drives ------------------------------------------------------------------------


def tournaments_tick(*, now: datetime | None = None) -> int:
    """One beat: start the tournaments whose start has come, pair the running ones, finish
    those whose end has passed and whose last game has ended, and make the schedules' next
    tournaments. Each tournament in its own transaction; how many tables were seated."""
    now = now or timezone.now()
    seated = 0
    due = Tournament.objects.filter(status__in=OPEN, starts_at__lte=now)
    for tournament_id in list(due.values_list("pk", flat=True)):
        seated += tournament_step(tournament_id=tournament_id, now=now)
    # After the starts: a schedule whose tournament just started makes its next one now.
    schedules_make_ahead(now=now)
    return seated


def tournament_step(*, tournament_id: UUID | str, now: datetime) -> int:
    """Start, pair or finish one tournament, then make the tables its pass decided: how many
    tables were made. The pass holds the tournament's lock for milliseconds (it decides who
    sits with whom, in one statement); each table is then made in a transaction of its own,
    and announced as soon as it is, so the first players of a big arena's start are seated
    at once and the tournament's lock is free for the joins, pauses and points meanwhile."""
    _tournament_pass(tournament_id=tournament_id, now=now)
    return tournament_tables_make(tournament_id=tournament_id)


@transaction.atomic
def _tournament_pass(*, tournament_id: UUID | str, now: datetime) -> int:
    """Start, pair or finish one tournament, under its lock (another worker holding it is
    left to do so): how many tables the pass decided."""
    tournament = locked_tournament(tournament_id, skip=True)
    if tournament is None or tournament.status not in OPEN or tournament.starts_at > now:
        return 0
    if tournament.status == TournamentStatus.UPCOMING:
        tournament.status = TournamentStatus.RUNNING
        tournament.save(update_fields=["status"])
        _changed(tournament.pk)
    if now >= tournament.ends_at:
        _score_ended_games(tournament)
        playing = tournament.participants.filter(game_id__isnull=False)
        if not playing.exists() and not tournament.pending_tables.exists():
            tournament.status = TournamentStatus.FINISHED
            tournament.closed_at = now
            tournament.save(update_fields=["status", "closed_at"])
            _changed(tournament.pk)
        return 0
    _score_ended_games(tournament)
    return _pair(tournament, now)


def _pair(tournament: Tournament, now: datetime) -> int:
    """Seat the idle participants at tables of the tournament's sizes (tournaments/arena.py):
    a pending table for each, with the id its game will have, in one statement. The game
    itself is made after the commit (`tournament_tables_make`)."""
    idle = idle_participants(tournament, now)
    apart = blocks_by(tournament.participants.values("player_id"))  # one blocks the other
    tables = arena.seat(
        idle,
        frozenset(tournament.table_sizes),
        settings.YANIV_TOURNAMENT_REPEAT_WAIT_SECONDS,
        apart={frozenset(str(key) for key in pair) for pair in apart},
    )
    games: list[str] = []
    players: list[str] = []
    for table in tables:
        games.extend([str(uuid4())] * len(table))
        players.extend(table)
    with connection.cursor() as cursor:
        cursor.execute(PENDING_SQL, [tournament.pk, ",".join(games), ",".join(players)])
    return len(tables)


# A pass's tables in one statement: each seated player beside their table's game id, as two
# comma-separated lists (one string each: psycopg adapts 2,000 ids apiece in ~10 ms, a string
# in microseconds), grouped back into one pending row a table, players in the pass's order.
PENDING_SQL = """
INSERT INTO tournaments_pendingtable (game_id, tournament_id, players, created_at)
SELECT seated.game_id, %s, array_agg(seated.player_id ORDER BY seated.n), now()
FROM unnest(string_to_array(%s, ',')::uuid[], string_to_array(%s, ',')::uuid[])
     WITH ORDINALITY AS seated(game_id, player_id, n)
GROUP BY seated.game_id
"""


def tournament_tables_make(*, tournament_id: UUID | str) -> int:
    """Make the games of the tournament's pending tables (a pass's, or one a worker that died
    midway left), each in a transaction of its own: how many were made here."""
    pending = PendingTable.objects.filter(tournament_id=tournament_id).order_by("created_at")
    games = list(pending.values_list("pk", flat=True))
    tournament = Tournament.objects.filter(pk=tournament_id).first() if games else None
    return sum(_table_make(tournament, game_id) for game_id in games) if tournament else 0


@transaction.atomic
def _table_make(tournament: Tournament, game_id: UUID) -> bool:
    """The game of one pending table, under the pending row's lock (a second maker waits, then
    finds it gone). A player who sat down elsewhere meanwhile (a private table) keeps the
    table from being made: its players are idle again, for the next pass. (A cancel deletes
    the pending rows, waiting for this lock: the tournament read once for all its tables is
    as current as a read here would be.)"""
    table = locked_pending_table(game_id)
    if table is None:
        return False
    table.delete()
    if tournament.status not in OPEN:
        return False
    keys = [str(key) for key in table.players]
    try:
        with transaction.atomic():
            game_begin_ranked(
                players=list(Player.objects.filter(pk__in=keys).order_by("pk")),
                rules=GameRules.stored(tournament.rules),
                rated=tournament.rated,
                tournament_id=tournament.pk,
                game_id=game_id,
            )
    except IntegrityError:  # one of them has a live seat now
        return False
    Participant.objects.filter(tournament=tournament, player_id__in=keys).update(game_id=game_id)
    _announce(tournament.pk, game_id, keys)
    return True


def _changed(tournament_id: UUID) -> None:
    """After the commit: the tournament's board version counts the change, and its standings'
    sockets are told, with that version (tournaments/consumers.py: each process reads the
    standings once for all its sockets)."""

    def send() -> None:
        key = board_key(tournament_id)
        try:
            cache.add(key, 0, timeout=None)
            version = cache.incr(key)
        except RedisError:  # the sockets read the standings again, whatever they kept
            version = 1 << 62
        message = {"type": "tournament.changed", "version": version}
        send_to_group(tournament_group(tournament_id), message)

    transaction.on_commit(send, robust=True)


def _announce(tournament_id: UUID, game_id: UUID, keys: Sequence[str]) -> None:
    """`tournament_game` on each seated player's /ws/v1/me/, after the commit."""
    message: dict[str, Any] = {
        "type": "me.message",
        "message": tournament_game_message(tournament_id, game_id),
    }

    def send() -> None:
        for key in keys:
            send_to_group(player_group(key), message)

    transaction.on_commit(send, robust=True)


# A game's points ---------------------------------------------------------------------------


def tournament_game_score(*, game_id: UUID | str) -> bool:
    """Score a finished tournament game for its participants, once: False when it is not a
    tournament's, not over, or scored already. When someone has already waited a whole pass
    interval for a table, the pass runs at once (`_score_and_pair`) and its tables are made."""
    scored, tournament_id = _score_and_pair(game_id)
    if tournament_id is not None:
        tournament_tables_make(tournament_id=tournament_id)
    return scored


@transaction.atomic
def _score_and_pair(game_id: UUID | str) -> tuple[bool, UUID | None]:
    """Whether the game was scored here, and its tournament when a pass decided tables too:
    its players join the idle at once rather than at the next beat, where someone idle since
    a pass interval or more (passed over by a beat's pass already) may be waiting for them."""
    game = Game.objects.filter(pk=game_id).values_list("tournament_id", flat=True).first()
    if game is None:
        return False, None
    tournament = locked_tournament(game)
    if tournament is None or not _score(tournament, game_id):
        return False, None
    now = timezone.now()
    if tournament.status != TournamentStatus.RUNNING or now >= tournament.ends_at:
        return True, None
    waited = now - timedelta(seconds=settings.YANIV_TOURNAMENT_PAIRING_SECONDS)
    waiting = tournament.participants.filter(paused=False, game_id=None, idle_since__lte=waited)
    return True, tournament.pk if waiting.exists() and _pair(tournament, now) else None


@transaction.atomic
def tournament_game_unscore(*, game_id: UUID | str) -> bool:
    """Take back the points of a voided tournament game: its players' standings are added up
    again from their counted games (`arena.tally`), so a streak it began or kept, and the
    doubled points that followed, go too. False when it is not a voided tournament game, or
    its tournament was cancelled (no standings)."""
    game = Game.objects.filter(pk=game_id, voided_at__isnull=False).first()
    if game is None or game.tournament_id is None:
        return False
    tournament = locked_tournament(game.tournament_id)
    if tournament is None or tournament.status == TournamentStatus.CANCELLED:
        return False
    _score_ended_games(tournament)  # every game that ended is scored first (this one for 0)
    players = Seat.objects.filter(game=game, player__isnull=False).values_list("player_id")
    _rescore(
        tournament, list(Participant.objects.filter(tournament=tournament, player_id__in=players))
    )
    _changed(tournament.pk)
    return True


def _rescore(tournament: Tournament, entries: list[Participant]) -> None:
    """Add these participants' standings up again from their counted games, in the order the
    games finished."""
    finished = (
        Game.objects.filter(
            tournament_id=tournament.pk, seats__player__in=[e.player_id for e in entries]
        )
        .exclude(finished_at=None)
        .distinct()
        .order_by("finished_at", "pk")
    )
    tables: dict[UUID, list[Seat]] = {}
    for seat in Seat.objects.filter(game__in=list(finished)).order_by("seat"):
        tables.setdefault(seat.game_id, []).append(seat)
    counted = [
        (game, tables[game.pk])
        for game in finished
        if _counted(game, [seat.place for seat in tables[game.pk]])
    ]
    for entry in entries:
        mine = [
            (game, [seat.place or 0 for seat in table], seat)
            for game, table in counted
            for seat, sitter in enumerate(table)
            if sitter.player_id == entry.player_id
        ]
        again = arena.tally([(places, seat) for _, places, seat in mine])
        entry.score, entry.games, entry.firsts = again.score, again.games, again.firsts
        entry.streak = again.streak
        scored = None if again.scored is None else mine[again.scored][0].finished_at
        entry.score_at = scored or entry.joined_at
    Participant.objects.bulk_update(entries, ["score", "games", "firsts", "streak", "score_at"])


def _counted(game: Game, places: Sequence[int | None]) -> bool:
    """A game counts in its tournament when it finished, with every place, and stands (not
    voided); an aborted or voided one counts for nothing."""
    return (
        game.status == GameStatus.FINISHED
        and game.voided_at is None
        and all(place is not None for place in places)
    )


def _score_ended_games(tournament: Tournament) -> None:
    """Score the games that ended and were not scored yet (their receiver's task lost)."""
    ended = Game.objects.filter(
        tournament_id=tournament.pk,
        pk__in=tournament.participants.filter(game_id__isnull=False).values("game_id"),
    ).exclude(status__in=[GameStatus.WAITING, GameStatus.ACTIVE])
    for game_id in list(ended.values_list("pk", flat=True)):
        _score(tournament, game_id)


def _left_at(game: Game, seats: Sequence[Seat]) -> dict[int, datetime]:
    """When each seat that left the game did (its `player_left` event)."""
    if not any(seat.left for seat in seats):
        return {}
    events = Event.objects.filter(game=game, type="player_left").order_by("id")
    return {event.payload.get("seat"): event.created_at for event in events}


def _absent(entry: Participant, seat: Seat, left_at: dict[int, datetime]) -> bool:
    """Whether a participant is paused by the game's end, as the rules say: away at the end,
    or left it and not joined again since (leaving paused them at once,
    `tournament_game_left`: a join after the leave, which set `idle_since`, stands)."""
    if seat.left:
        since = left_at.get(seat.seat)
        return since is None or entry.idle_since < since
    return seat.away


def _score(tournament: Tournament, game_id: UUID | str) -> bool:
    entries = {
        e.player_id: e for e in Participant.objects.filter(tournament=tournament, game_id=game_id)
    }
    game = Game.objects.filter(pk=game_id).first()
    if not entries or game is None or game.status in (GameStatus.WAITING, GameStatus.ACTIVE):
        return False
    seats = list(Seat.objects.filter(game=game).order_by("seat"))
    left_at = _left_at(game, seats)
    now = timezone.now()
    places = [seat.place for seat in seats]
    if _counted(game, places):
        counted = [place for place in places if place is not None]
        fire = [
            entries[s.player_id].streak >= 2 if s.player_id in entries else False for s in seats
        ]
        points = arena.scores(counted, fire)
    else:
        counted, points = [], [0.0] * len(seats)  # aborted or voided: no points
    for index, seat in enumerate(seats):
        entry = entries.get(seat.player_id) if seat.player_id else None
        if entry is None:
            continue
        entry.paused = entry.paused or _absent(entry, seat, left_at)  # before `idle_since`
        entry.game_id = None
        if counted:  # an aborted or voided game counts for nothing
            first = arena.outright_first(counted, index)
            entry.games += 1
            entry.firsts += first
            entry.streak = entry.streak + 1 if first else 0
        if points[index]:
            entry.score += points[index]
            entry.score_at = now
        entry.idle_since = now
        entry.previous = [str(o.player_id) for o in seats if o.player_id and o.pk != seat.pk]
    Participant.objects.bulk_update(
        entries.values(),
        ["game_id", "games", "firsts", "streak", "score", "score_at", "idle_since", "previous",
         "paused"],
    )  # fmt: skip
    _changed(tournament.pk)
    return True
