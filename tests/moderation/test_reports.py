"""Reports: a seated player reports another seat of a game they played, once per seat; staff
resolve them from the queue (dismiss, warn, ban), and the reporter is told nothing of it."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import Group
from django.test import Client as BrowserClient
from django.utils import timezone

from accounts.models import Player, StaffAction
from games.models import Game
from moderation.models import Report, ReportStatus
from ratings.models import Rating
from tests.factories import PlayerFactory
from tests.games.conftest import Client, start_table

REPORTS = "/admin/moderation/report/"


@pytest.fixture
def table(db: None) -> tuple[str, list[Client]]:
    return start_table(3)


def _report(client: Client, game_id: str, **body: Any) -> Any:
    return client.post(f"/api/v1/games/{game_id}/reports/", body)


def test_a_seated_player_reports_another_seat(table) -> None:
    game_id, clients = table
    response = _report(clients[0], game_id, seat=1, reason="abuse", text="Rude in chat.")

    assert response.status_code == 201, response.content
    body = response.json()
    assert (body["seat"], body["reason"], body["text"]) == (1, "abuse", "Rude in chat.")
    assert "status" not in body  # the outcome is staff's, never the reporter's
    report = Report.objects.get()
    assert (report.reporter, report.reported) == (clients[0].player, clients[1].player)


@pytest.mark.parametrize(
    ("who", "body", "status", "code"),
    [
        (0, {"seat": 0, "reason": "afk"}, 400, "invalid"),  # oneself
        (0, {"seat": 7, "reason": "afk"}, 400, "invalid"),
        (0, {"seat": 1, "reason": "rude"}, 400, "invalid"),
        ("stranger", {"seat": 1, "reason": "cheating"}, 403, "forbidden"),
    ],
)
def test_a_report_is_refused_with_a_reason(table, who, body, status, code) -> None:
    game_id, clients = table
    client = Client.guest("Stranger") if who == "stranger" else clients[who]
    response = _report(client, game_id, **body)
    assert (response.status_code, response.json()["code"]) == (status, code)
    assert not Report.objects.exists()


def test_each_seat_is_reported_once_per_player(table) -> None:
    game_id, clients = table
    assert _report(clients[0], game_id, seat=1, reason="afk").status_code == 201
    again = _report(clients[0], game_id, seat=1, reason="cheating")
    assert (again.status_code, again.json()["code"]) == (409, "already_reported")
    assert _report(clients[0], game_id, seat=2, reason="afk").status_code == 201
    assert _report(clients[2], game_id, seat=1, reason="afk").status_code == 201


def test_a_cpu_seat_or_a_waiting_table_is_not_reported(db) -> None:
    host = Client.guest("Host")
    game = host.post("/api/v1/games/", {"max_players": 2}).json()
    host.post(f"/api/v1/games/{game['id']}/cpu/")
    waiting = _report(host, game["id"], seat=1, reason="afk")
    assert (waiting.status_code, waiting.json()["code"]) == (409, "not_started")
    host.post(f"/api/v1/games/{game['id']}/start/")
    cpu = _report(host, game["id"], seat=1, reason="afk")
    assert (cpu.status_code, cpu.json()["code"]) == (400, "invalid")


@pytest.fixture
def moderator(db: None) -> Player:
    player = PlayerFactory.create(registered=True, username="mod", is_staff=True)
    player.groups.add(Group.objects.get(name="moderator"))
    return player


@pytest.fixture
def moderator_client(moderator: Player) -> BrowserClient:
    client = BrowserClient()
    client.force_login(moderator)
    return client


def _resolve(client: BrowserClient, report: Report, **form: Any) -> Any:
    selection = {"action": "resolve", "_selected_action": [str(report.pk)]}
    return client.post(REPORTS, {**selection, "apply": "Resolve", **form})


def test_the_queue_lists_open_reports_with_the_game(table, moderator_client) -> None:
    game_id, clients = table
    _report(clients[0], game_id, seat=1, reason="cheating")
    _report(clients[0], game_id, seat=2, reason="afk")
    Report.objects.filter(seat=2).update(status=ReportStatus.DISMISSED)

    queue = moderator_client.get(REPORTS)
    assert queue.status_code == 200
    assert f"/admin/games/game/{game_id}/change/" in queue.text
    assert queue.text.count('name="_selected_action"') == 1
    everything = moderator_client.get(REPORTS, {"status": "all"})
    assert everything.text.count('name="_selected_action"') == 2


def test_resolving_with_a_ban_bans_the_reported_player(table, moderator, moderator_client) -> None:
    game_id, clients = table
    _report(clients[0], game_id, seat=1, reason="cheating")
    report = Report.objects.get()

    form = moderator_client.post(
        REPORTS, {"action": "resolve", "_selected_action": [str(report.pk)]}
    )
    assert form.status_code == 200
    assert "told nothing" in form.text
    done = _resolve(moderator_client, report, resolution="banned", note="Collusion.", ban_hours=24)

    assert done.status_code == 302
    report.refresh_from_db()
    assert (report.status, report.resolved_by) == (ReportStatus.BANNED, moderator)
    banned = Player.objects.get(pk=clients[1].player.pk)
    assert banned.is_banned
    assert banned.banned_until is not None
    assert set(StaffAction.objects.values_list("action", flat=True)) == {"ban", "resolve"}
    # The reporter still sees the game as before: nothing says who was acted on.
    assert "banned" not in clients[0].get(f"/api/v1/games/{game_id}/").content.decode()


@pytest.mark.parametrize("resolution", ["dismissed", "warned"])
def test_dismiss_or_warn_bans_nobody(table, moderator_client, resolution) -> None:
    game_id, clients = table
    _report(clients[0], game_id, seat=1, reason="abuse")
    report = Report.objects.get()
    assert (
        _resolve(moderator_client, report, resolution=resolution, note="Seen.").status_code == 302
    )
    report.refresh_from_db()
    assert report.status == resolution
    assert not Player.objects.get(pk=clients[1].player.pk).is_banned
    logged = StaffAction.objects.get(action="resolve")
    assert logged.player == clients[1].player
    assert logged.game_id == Game.objects.get(pk=game_id).pk


def test_a_moderator_edits_no_user_or_group(moderator_client, moderator) -> None:
    assert moderator_client.get("/admin/auth/group/").status_code == 403
    page = moderator_client.get(f"/admin/accounts/player/{moderator.pk}/change/")
    assert page.status_code == 200
    for field in ("is_superuser", "is_staff", "groups"):
        assert f'name="{field}"' not in page.text
    assert moderator_client.get("/admin/accounts/staffaction/").status_code == 200
    assert moderator_client.get("/admin/ratings/rating/").status_code == 200
    moderator_client.post(
        f"/admin/accounts/player/{moderator.pk}/change/",
        {"display_name": "Mod", "staff_notes": "", "is_superuser": "on", "is_staff": "on"},
    )
    moderator.refresh_from_db()
    assert not moderator.is_superuser


def test_the_audit_log_is_read_only(moderator_client, moderator) -> None:
    action = StaffAction.objects.create(action="ban", actor=moderator, reason="x")
    page = moderator_client.get(f"/admin/accounts/staffaction/{action.pk}/change/")
    assert page.status_code == 200
    assert 'name="reason"' not in page.text
    assert (
        moderator_client.get(f"/admin/accounts/staffaction/{action.pk}/delete/").status_code == 403
    )


def test_the_player_page_shows_rating_games_and_reports(table, moderator_client) -> None:
    game_id, clients = table
    reported = clients[1].player
    Rating.objects.create(
        player=reported,
        mu=27.123456,
        sigma=7.5,
        ordinal=4.623456,
        games=1,
        last_game_at=timezone.now(),
    )
    _report(clients[0], game_id, seat=1, reason="cheating")

    page = moderator_client.get(f"/admin/accounts/player/{reported.pk}/change/")

    assert "4.62 (mu 27.12, sigma 7.50; 1 rated games, provisional)" in page.text
    assert f"/admin/games/game/?q={reported.pk}" in page.text
    assert "1 reports (1 open)" in page.text
    assert 'name="user_permissions"' not in page.text  # a guest: no permission pickers
