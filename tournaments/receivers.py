"""What tournaments do once a game's end is committed: its points, in a task (the beat's pass
scores any game whose task was lost); once a void is: the points taken back; and once a player
left an arena's game: they are paused at once (a short write, in the leave's request; should
it fail, the game's points pause them still)."""

from __future__ import annotations

from typing import Any
from uuid import UUID

from django.dispatch import receiver

from games.models import Game
from games.notify import game_finished_signal, game_seat_left_signal, game_voided_signal
from tournaments import services, tasks


@receiver(game_finished_signal, dispatch_uid="tournaments.score_finished")
def score_a_finished_tournament_game(sender: Any, game_id: UUID, **kwargs: Any) -> None:
    if Game.objects.filter(pk=game_id, tournament_id__isnull=False).exists():
        tasks.tournament_game_score.delay(str(game_id))


@receiver(game_voided_signal, dispatch_uid="tournaments.unscore_voided")
def take_back_a_voided_tournament_games_points(sender: Any, game_id: UUID, **kwargs: Any) -> None:
    if Game.objects.filter(pk=game_id, tournament_id__isnull=False).exists():
        tasks.tournament_game_unscore.delay(str(game_id))


@receiver(game_seat_left_signal, dispatch_uid="tournaments.pause_leaver")
def pause_who_left_a_tournament_game(
    sender: Any, game_id: UUID, player_id: UUID, **kwargs: Any
) -> None:
    tournament_id = Game.objects.filter(pk=game_id).values_list("tournament_id", flat=True).first()
    if tournament_id is not None:
        services.tournament_game_left(
            tournament_id=tournament_id, game_id=game_id, player_id=player_id
        )
