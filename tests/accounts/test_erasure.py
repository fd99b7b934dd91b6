"""Erasure: `DELETE /api/v1/me/` (or staff) anonymises the account; its games and the other
players' ratings keep it. Temporary bans end by themselves, and the 403 says when."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone
from rest_framework.test import APIClient

from accounts.models import AuthToken, Player, StaffAction
from accounts.services import (
    ERASED_NAME,
    auth_token_issue,
    player_ban,
    player_erase,
    player_unban,
)
from accounts.signals import player_erased
from games.models import Game, GameStatus, Seat
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db


def _api(player: Player) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {auth_token_issue(player=player)}")
    return client


def test_delete_me_anonymises_the_account_and_keeps_its_games(
    django_capture_on_commit_callbacks,
) -> None:
    noa = PlayerFactory.create(registered=True, username="noa", display_name="Noa")
    other = PlayerFactory.create(display_name="Avi")
    game = Game.objects.create(
        ranked=True, rules={}, max_players=2, status=GameStatus.FINISHED, finished_at=timezone.now()
    )
    for seat, (player, place) in enumerate([(noa, 1), (other, 2)]):
        Seat.objects.create(game=game, seat=seat, player=player, place=place, live=False)
    client = _api(noa)
    heard: list[Player] = []
    player_erased.connect(receiver := lambda sender, player, **kw: heard.append(player))
    try:
        with django_capture_on_commit_callbacks(execute=True):
            response = client.delete("/api/v1/me/")
    finally:
        player_erased.disconnect(receiver)

    assert response.status_code == 204
    noa.refresh_from_db()
    assert (noa.username, noa.display_name, noa.is_active) == (None, ERASED_NAME, False)
    assert not noa.has_usable_password()
    assert noa.erased_at is not None
    assert not AuthToken.objects.filter(player=noa).exists()
    assert client.get("/api/v1/me/").status_code == 401
    assert [p.pk for p in heard] == [noa.pk]
    # Her seat stays, so the other player's game keeps its opponent.
    assert Seat.objects.filter(game=game, player=noa, place=1).exists()
    logged = StaffAction.objects.get(action="erase")
    assert (logged.actor, logged.player) == (None, noa)
    # The name is free again.
    assert PlayerFactory.create(registered=True, username="noa").username == "noa"


def test_staff_erase_from_the_admin_with_a_reason() -> None:
    staff = PlayerFactory.create(registered=True, username="root", is_staff=True, is_superuser=True)
    dana = PlayerFactory.create(registered=True, username="dana", display_name="Dana")
    admin = Client()
    admin.force_login(staff)
    selection = {"action": "erase", "_selected_action": [str(dana.pk), str(staff.pk)]}

    form = admin.post("/admin/accounts/player/", selection)
    assert form.status_code == 200
    assert "Erasing anonymises" in form.text
    done = admin.post(
        "/admin/accounts/player/", {**selection, "apply": "Erase", "reason": "Asked by email."}
    )

    assert done.status_code == 302
    dana.refresh_from_db()
    assert dana.display_name == ERASED_NAME
    staff.refresh_from_db()
    assert staff.erased_at is None  # staff accounts are left out
    logged = StaffAction.objects.get(action="erase")
    assert (logged.actor, logged.reason) == (staff, "Asked by email.")


def test_erasing_twice_does_nothing_more() -> None:
    player = PlayerFactory.create(display_name="Once")
    player_erase(player=player)
    player_erase(player=player)
    assert StaffAction.objects.filter(action="erase").count() == 1


def test_a_temporary_ban_says_until_when_and_ends_by_itself(time_machine) -> None:
    player = PlayerFactory.create()
    client = _api(player)
    until = timezone.now() + timedelta(hours=1)
    player_ban(player=player, reason="Abuse in chat.", until=until)

    refused = client.get("/api/v1/me/")
    assert refused.status_code == 403
    assert refused.json()["code"] == "banned"
    assert refused.json()["detail"] == (
        f"This account is banned until {until.isoformat()}: Abuse in chat."
    )
    time_machine.move_to(until + timedelta(seconds=1))
    assert client.get("/api/v1/me/").status_code == 200


def test_every_ban_and_unban_is_in_the_audit_log() -> None:
    staff = PlayerFactory.create(registered=True, username="mod", is_staff=True)
    player = PlayerFactory.create()
    player_ban(player=player, reason="Cheating.", by=staff)
    player_unban(player=player, by=staff, reason="Appeal upheld.")

    assert list(StaffAction.objects.order_by("id").values_list("action", "actor", "reason")) == [
        ("ban", staff.pk, "Cheating. (for good)"),
        ("unban", staff.pk, "Appeal upheld."),
    ]
