"""Staff's tournaments in the admin: create one, end one early, cancel one."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from tournaments.models import Tournament, TournamentSchedule, TournamentStatus

pytestmark = pytest.mark.django_db

PAGE = "/admin/tournaments/tournament/"


def test_staff_create_end_and_cancel(admin_client) -> None:
    starts = timezone.now() + timedelta(hours=1)
    response = admin_client.post(
        f"{PAGE}add/",
        {
            "name": "Staff arena",
            "starts_at_0": starts.date().isoformat(),
            "starts_at_1": starts.strftime("%H:%M:%S"),
            "rated": "on",
            "min_rated_games": 0,
            "minutes": 60,
            "sizes": "2, 4",
            "turn_seconds": 45,
        },
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    tournament = Tournament.objects.get(name="Staff arena")
    assert (tournament.table_sizes, tournament.rules["turn_seconds"]) == ([2, 4], 45)
    assert tournament.ends_at - tournament.starts_at == timedelta(minutes=60)
    assert tournament.created_by is not None

    admin_client.post(PAGE, {"action": "end_now", "_selected_action": [str(tournament.pk)]})
    tournament.refresh_from_db()
    assert tournament.ends_at == tournament.starts_at  # not started yet: it ends at its start
    admin_client.post(PAGE, {"action": "cancel", "_selected_action": [str(tournament.pk)]})
    tournament.refresh_from_db()
    assert tournament.status == TournamentStatus.CANCELLED
    page = admin_client.get(f"{PAGE}{tournament.pk}/change/")
    assert page.status_code == 200


def test_a_bad_tournament_is_refused_in_the_form(admin_client) -> None:
    starts = timezone.now() + timedelta(hours=1)
    response = admin_client.post(
        f"{PAGE}add/",
        {
            "name": "Bad",
            "starts_at_0": starts.date().isoformat(),
            "starts_at_1": "12:00:00",
            "min_rated_games": 0,
            "minutes": 60,
            "sizes": "7",
            "turn_seconds": 30,
        },
    )
    assert response.status_code == 200
    assert not Tournament.objects.filter(name="Bad").exists()


def test_a_start_long_past_is_refused_in_the_form(admin_client) -> None:
    starts = timezone.now() - timedelta(hours=1)
    response = admin_client.post(
        f"{PAGE}add/",
        {
            "name": "Yesterday's",
            "starts_at_0": starts.date().isoformat(),
            "starts_at_1": starts.strftime("%H:%M:%S"),
            "min_rated_games": 0,
            "minutes": 60,
            "sizes": "2",
            "turn_seconds": 30,
        },
    )
    assert response.status_code == 200
    assert "a minute ago" in response.content.decode()
    assert not Tournament.objects.filter(name="Yesterday's").exists()


SCHEDULES = "/admin/tournaments/tournamentschedule/"


def _schedule(**fields: object) -> dict[str, object]:
    return {
        "name": "Nightly",
        "every": "daily",
        "minute": 0,
        "hour": 19,
        "weekdays": "[]",
        "minutes": 60,
        "table_sizes": "[2, 3]",
        "rated": "on",
        "turn_seconds": 30,
        "min_rated_games": 0,
        "active": "on",
        **fields,
    }


@pytest.mark.parametrize(
    "fields", [{"minutes": 4}, {"minutes": 721}, {"turn_seconds": 9}, {"turn_seconds": 301}]
)
def test_a_schedule_out_of_the_api_s_bounds_is_refused_in_the_form(admin_client, fields) -> None:
    response = admin_client.post(f"{SCHEDULES}add/", _schedule(**fields))

    assert response.status_code == 200
    assert "errornote" in response.content.decode()
    assert not TournamentSchedule.objects.exists()


def test_a_schedule_within_them_is_saved(admin_client) -> None:
    response = admin_client.post(f"{SCHEDULES}add/", _schedule(minutes=720, turn_seconds=10))

    assert response.status_code == 302, response.content.decode()[:2000]
    assert TournamentSchedule.objects.get().minutes == 720
