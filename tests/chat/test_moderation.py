"""Moderators and chat: reports with their snapshots in the admin, deletions and mutes (each in
the audit log), retention's purge, and an erased account's chat."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
import time_machine
from django.contrib.auth.models import Group
from django.test import Client as BrowserClient
from django.utils import timezone

from accounts.models import StaffAction, StaffActionKind
from accounts.services import player_erase
from chat import tasks
from chat.models import ChatMessage, ChatMute, ChatReport, Room
from chat.services import chat_post, chat_report
from tests.chat.conftest import listed, ranked_table, say, veteran
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db

REPORTS = "/admin/chat/chatreport/"
MESSAGES = "/admin/chat/chatmessage/"


@pytest.fixture
def table():
    players = [veteran(display_name="Ann"), veteran(display_name="Bob")]
    return ranked_table(players), players


@pytest.fixture
def moderator():
    player = PlayerFactory.create(registered=True, username="mod", is_staff=True)
    player.groups.add(Group.objects.get(name="moderator"))
    return player


@pytest.fixture
def moderator_client(moderator) -> BrowserClient:
    client = BrowserClient()
    client.force_login(moderator)
    return client


def _reported(table) -> ChatReport:
    game, (ann, bob) = table
    chat_post(player=bob, game_id=game.pk, room=Room.PLAYERS, phrase="hello")
    rude = chat_post(player=ann, game_id=game.pk, room=Room.PLAYERS, text="you are awful")
    return chat_report(player=bob, message_id=rude.pk, reason="insult")


def _act(client: BrowserClient, page: str, action: str, rows: list[Any], **form: str) -> int:
    data = {"action": action, "_selected_action": [str(row.pk) for row in rows], **form}
    return client.post(page, data).status_code


def test_moderators_see_chat_reports_with_their_snapshot(table, moderator_client) -> None:
    report = _reported(table)
    listing = moderator_client.get(REPORTS)
    assert listing.status_code == 200
    assert str(table[1][0]) in listing.content.decode()
    page = moderator_client.get(f"{REPORTS}{report.pk}/change/").content.decode()
    snapshot = page[page.index('data-testid="chat-snapshot"') :]
    assert snapshot.index("Hello") < snapshot.index("you are awful") < snapshot.index("</table>")


def test_a_moderator_deletes_a_message_for_everyone_in_the_audit_log(
    table, moderator, moderator_client, client_for
) -> None:
    report = _reported(table)
    game, (ann, bob) = table
    message = report.message
    assert message is not None
    assert _act(moderator_client, MESSAGES, "delete_messages", [message]) == 200  # the form
    done = _act(moderator_client, MESSAGES, "delete_messages", [message], apply="1", reason="Rude")
    assert done == 302
    message.refresh_from_db()
    assert (message.deleted_by, message.deleted_at is not None) == (moderator, True)
    assert listed(client_for(bob), game) == ["hello"]
    assert listed(client_for(ann), game) == ["hello"]
    action = StaffAction.objects.get(action=StaffActionKind.CHAT_DELETE)
    assert (action.actor, action.player, action.game_id) == (moderator, ann, game.pk)
    assert "Rude" in action.reason
    # The report's snapshot still holds it, as it was.
    report.refresh_from_db()
    assert [line["text"] for line in report.snapshot] == ["Hello", "you are awful"]
    # A deleted message may not be reported any more.
    gone = client_for(bob).post(f"/api/v1/chat/messages/{message.pk}/reports/", {}, format="json")
    assert gone.status_code == 404


def test_a_moderator_mutes_the_reported_player_for_hours(
    table, moderator, moderator_client, client_for
) -> None:
    report = _reported(table)
    game, (ann, _) = table
    now = timezone.now()
    with time_machine.travel(now, tick=False):
        done = _act(
            moderator_client,
            REPORTS,
            "mute_authors",
            [report],
            apply="1",
            hours="3",
            reason="Insults",
        )
    assert done == 302
    mute = ChatMute.objects.get()
    until = now + timedelta(hours=3)
    assert (mute.player, mute.by, mute.until) == (ann, moderator, until)
    action = StaffAction.objects.get(action=StaffActionKind.CHAT_MUTE)
    assert (action.actor, action.player) == (moderator, ann)
    refused = say(client_for(ann), game, text="let me speak")
    assert (refused.status_code, refused.json()["code"]) == (403, "muted")
    assert refused.json()["muted_until"] == until.isoformat()
    assert say(client_for(ann), game, phrase="sorry").status_code == 201
    with time_machine.travel(until + timedelta(seconds=1)):
        assert say(client_for(ann), game, text="I am back").status_code == 201


def test_a_moderator_marks_reports_reviewed(table, moderator, moderator_client) -> None:
    report = _reported(table)
    assert _act(moderator_client, REPORTS, "mark_reviewed", [report]) == 302
    report.refresh_from_db()
    assert (report.reviewed_by, report.reviewed_at is not None) == (moderator, True)


def test_nobody_adds_or_removes_chat_rows_by_hand(table, moderator_client, admin_client) -> None:
    report = _reported(table)
    for client in (moderator_client, admin_client):
        assert client.get(f"{MESSAGES}add/").status_code == 403
        assert client.get(f"{REPORTS}{report.pk}/delete/").status_code == 403


def test_players_without_the_group_see_no_chat_admin(table) -> None:
    _reported(table)
    client = BrowserClient()
    client.force_login(PlayerFactory.create(registered=True, is_staff=True))
    assert client.get(REPORTS).status_code == 403


def test_the_beat_task_deletes_what_is_older_than_the_keep_days(table, settings) -> None:
    settings.YANIV_CHAT_KEEP_DAYS = 90
    game, (ann, bob) = table
    long_ago = timezone.now() - timedelta(days=91)
    with time_machine.travel(long_ago, tick=False):
        old = chat_post(player=ann, game_id=game.pk, room=Room.PLAYERS, text="ancient")
        chat_report(player=bob, message_id=old.pk)
        ChatMute.objects.create(player=ann, until=long_ago + timedelta(hours=1))
    with time_machine.travel(timezone.now() - timedelta(days=89), tick=False):
        kept = chat_post(player=ann, game_id=game.pk, room=Room.PLAYERS, text="recent enough")
    assert tasks.chat_purge() == 1
    assert list(ChatMessage.objects.values_list("pk", flat=True)) == [kept.pk]
    assert not ChatReport.objects.exists()
    assert not ChatMute.objects.exists()


def test_an_erased_players_chat_goes_with_the_account(
    table, client_for, django_capture_on_commit_callbacks
) -> None:
    game, (ann, bob) = table
    chat_post(player=ann, game_id=game.pk, room=Room.PLAYERS, text="mine")
    theirs = chat_post(player=bob, game_id=game.pk, room=Room.PLAYERS, text="rude")
    made = chat_report(player=ann, message_id=theirs.pk)
    about = chat_report(player=bob, message_id=ChatMessage.objects.get(author=ann).pk)
    # Elsewhere Ann watches: her words are in the snapshot of a report about someone else.
    other = ranked_table([veteran(), veteran()])
    eve, frank = veteran(), veteran()
    chat_post(player=ann, game_id=other.pk, room=Room.SPECTATORS, text="ann was here")
    rude = chat_post(player=eve, game_id=other.pk, room=Room.SPECTATORS, text="eve is rude")
    bystander = chat_report(player=frank, message_id=rude.pk)
    ChatMute.objects.create(player=ann, until=timezone.now() + timedelta(hours=1))
    with django_capture_on_commit_callbacks(execute=True):
        player_erase(player=ann)
    assert not ChatMessage.objects.filter(author=ann).exists()
    assert not ChatMute.objects.filter(player=ann).exists()
    assert not ChatReport.objects.filter(pk__in=[made.pk, about.pk]).exists()
    bystander.refresh_from_db()
    assert [(line["display_name"], line["text"]) for line in bystander.snapshot] == [
        ("", ""),
        (eve.display_name, "eve is rude"),
    ]
    assert listed(client_for(bob), game) == ["rude"]


def test_moderators_list_the_mutes_and_the_messages(table, moderator, moderator_client) -> None:
    report = _reported(table)
    _act(moderator_client, REPORTS, "mute_authors", [report], apply="1", hours="1", reason="x")
    mutes = moderator_client.get("/admin/chat/chatmute/")
    assert mutes.status_code == 200
    assert str(report.reported) in mutes.content.decode()
    found = moderator_client.get(MESSAGES, {"q": "awful"})
    assert found.status_code == 200
    assert "you are awful" in found.content.decode()
    assert "[hello]" not in found.content.decode()
