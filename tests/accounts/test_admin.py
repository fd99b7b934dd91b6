"""Staff find players, ban (with a reason) and unban them, and see their sessions."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from accounts.models import AuthToken, BotToken, Player, StaffAction
from accounts.signals import player_banned
from tests.factories import PlayerFactory

CHANGELIST = "/admin/accounts/player/"

pytestmark = pytest.mark.django_db


@pytest.fixture
def players() -> dict[str, Player]:
    return {
        "guest": PlayerFactory.create(display_name="Brave Otter 42"),
        "dana": PlayerFactory.create(registered=True, username="dana", display_name="Dana"),
        "banned": PlayerFactory.create(banned=True, display_name="Cheater"),
    }


def _listed(response) -> set[str]:
    return {name for name in ("Brave Otter 42", "Dana", "Cheater", "Root") if name in response.text}


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ({"q": "DANA"}, {"Dana"}),
        ({"q": "otter"}, {"Brave Otter 42"}),
        ({"q": "not-a-uuid-or-a-name"}, set()),
        ({"is_guest__exact": "1"}, {"Brave Otter 42", "Cheater"}),
        ({"banned": "yes"}, {"Cheater"}),
        ({"banned": "no"}, {"Brave Otter 42", "Dana", "Root"}),
        ({"is_staff__exact": "1"}, {"Root"}),
    ],
)
def test_search_and_filters(
    admin_client, players, query: dict[str, str], expected: set[str]
) -> None:
    response = admin_client.get(CHANGELIST, query)

    assert response.status_code == 200
    assert _listed(response) == expected


def test_search_by_id(admin_client, players) -> None:
    response = admin_client.get(CHANGELIST, {"q": str(players["dana"].pk)})

    assert _listed(response) == {"Dana"}


def test_ban_action_asks_for_a_reason_then_bans(
    admin_client, staff, players, django_capture_on_commit_callbacks
) -> None:
    targets = [players["guest"], players["dana"], staff]
    received: list[dict[str, Any]] = []

    def receiver(sender, **kwargs) -> None:
        received.append(kwargs)

    selection = {"action": "ban", "_selected_action": [str(p.pk) for p in targets]}
    form = admin_client.post(CHANGELIST, selection)
    assert form.status_code == 200
    assert 'name="reason"' in form.text
    assert "you cannot ban yourself" not in form.text
    assert not Player.objects.get(pk=players["guest"].pk).is_banned

    until = (timezone.now() + timedelta(days=2)).strftime("%Y-%m-%d %H:%M:%S")
    player_banned.connect(receiver)
    try:
        with django_capture_on_commit_callbacks(execute=True):
            done = admin_client.post(
                CHANGELIST, {**selection, "apply": "Ban", "reason": "Collusion.", "until": until}
            )
    finally:
        player_banned.disconnect(receiver)

    assert done.status_code == 302
    for target in (players["guest"], players["dana"]):
        target.refresh_from_db()
        assert target.is_banned
        assert (target.ban_reason, target.banned_by) == ("Collusion.", staff)
        assert target.banned_until is not None
    staff.refresh_from_db()
    assert not staff.is_banned  # never oneself
    assert {call["player"].pk for call in received} == {players["guest"].pk, players["dana"].pk}


def test_ban_action_refuses_an_empty_reason(admin_client, players) -> None:
    selection = {"action": "ban", "_selected_action": [str(players["guest"].pk)]}

    response = admin_client.post(CHANGELIST, {**selection, "apply": "Ban", "reason": ""})

    assert response.status_code == 200
    assert "This field is required." in response.text
    assert not Player.objects.get(pk=players["guest"].pk).is_banned


def test_unban_action_asks_for_a_reason_then_unbans(admin_client, staff, players) -> None:
    selection = {"action": "unban", "_selected_action": [str(players["banned"].pk)]}

    form = admin_client.post(CHANGELIST, selection)
    assert form.status_code == 200
    assert 'name="reason"' in form.text
    assert Player.objects.get(pk=players["banned"].pk).is_banned

    response = admin_client.post(CHANGELIST, {**selection, "apply": "Unban", "reason": "Appeal."})

    assert response.status_code == 302
    assert not Player.objects.get(pk=players["banned"].pk).is_banned
    logged = StaffAction.objects.get(action="unban")
    assert (logged.actor, logged.player, logged.reason) == (staff, players["banned"], "Appeal.")


def test_change_page_shows_sessions_but_never_a_token_hash(
    admin_client, players, issue_token
) -> None:
    dana = players["dana"]
    issue_token(dana)
    token = AuthToken.objects.get(player=dana)
    token.user_agent = "YanivApp/2.1 (Android)"
    token.save()

    response = admin_client.get(f"{CHANGELIST}{dana.pk}/change/")

    assert response.status_code == 200
    assert "YanivApp/2.1 (Android)" in response.text
    assert token.key_hash not in response.text
    assert dana.password not in response.text


def test_players_are_not_added_in_the_admin(admin_client) -> None:
    assert admin_client.get(f"{CHANGELIST}add/").status_code == 403


def _bot(name: str = "Robo") -> tuple[Player, list[BotToken]]:
    bot = PlayerFactory.create(registered=True, display_name=name, is_bot=True)
    tokens = [
        BotToken.objects.create(player=bot, name=label, key_hash=BotToken.hash(label * 8))
        for label in ("default", "laptop")
    ]
    return bot, tokens


def test_bots_are_filtered_and_their_tokens_shown_without_hashes(admin_client, players) -> None:
    bot, tokens = _bot()
    listed = admin_client.get(CHANGELIST, {"is_bot__exact": "1"})
    assert "Robo" in listed.text
    assert _listed(listed) == set()

    page = admin_client.get(f"{CHANGELIST}{bot.pk}/change/")
    assert page.status_code == 200
    assert "laptop" in page.text
    assert all(token.key_hash not in page.text for token in tokens)


def test_staff_revoke_a_bots_tokens_with_a_reason(admin_client, staff, players) -> None:
    bot, _ = _bot()
    human = players["dana"]
    selection = {"action": "revoke_bot_tokens", "_selected_action": [str(bot.pk), str(human.pk)]}

    form = admin_client.post(CHANGELIST, selection)
    assert form.status_code == 200
    assert 'name="reason"' in form.text
    assert BotToken.objects.filter(player=bot).count() == 2

    response = admin_client.post(
        CHANGELIST, {**selection, "apply": "Revoke bot tokens", "reason": "Token leaked."}
    )
    assert response.status_code == 302
    assert not BotToken.objects.filter(player=bot).exists()
    logged = StaffAction.objects.get(action="bot_revoke")
    assert (logged.actor, logged.player, logged.reason) == (staff, bot, "Token leaked.")
    assert not StaffAction.objects.filter(player=human).exists()  # not a bot: left alone


def test_a_ban_suspends_a_bot_and_keeps_its_tokens(admin_client, api_client) -> None:
    bot, _ = _bot()
    raw = BotToken.new_raw()
    BotToken.objects.create(player=bot, name="live", key_hash=BotToken.hash(raw))
    api_client.credentials(HTTP_AUTHORIZATION=f"Bearer {raw}")
    assert api_client.get("/api/v1/me/").status_code == 200
    admin_client.post(
        CHANGELIST,
        {
            "action": "ban",
            "_selected_action": [str(bot.pk)],
            "apply": "Ban",
            "reason": "Stalls games.",
        },
    )
    response = api_client.get("/api/v1/me/")
    assert (response.status_code, response.json()["code"]) == (403, "banned")
    assert BotToken.objects.filter(player=bot).count() == 3
