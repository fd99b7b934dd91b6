"""A game's chat over REST: rooms, phrases and free text, the text rules, floods, the word list,
chat settings, blocks both ways, reports."""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine
from django.utils import timezone

from chat.models import ChatMessage, ChatMute, ChatReport
from chat.phrases import PHRASES
from games.models import GameStatus
from social.services import block_create
from tests.chat.conftest import PHRASES as PHRASES_URL
from tests.chat.conftest import (
    chat_url,
    finish_games,
    listed,
    private_table,
    ranked_table,
    report_url,
    say,
    veteran,
)
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def table():
    """A ranked game of two veterans, and a registered watcher."""
    players = [veteran(display_name="Ann"), veteran(display_name="Bob")]
    return ranked_table(players), players


def test_phrases_are_open_to_guests(api) -> None:
    response = api(PlayerFactory.create()).get(PHRASES_URL)
    assert response.status_code == 200
    assert {"id": "good_game", "text": "Good game"} in response.json()
    assert len(response.json()) == len(PHRASES)


def test_a_seated_guest_says_a_phrase_and_the_table_reads_it(api) -> None:
    guest, other = PlayerFactory.create(), PlayerFactory.create()
    game = ranked_table([guest, other])
    response = say(api(guest), game, phrase="nice_yaniv")
    assert response.status_code == 201
    body = response.json()
    assert (body["room"], body["phrase"], body["player"]["id"]) == (
        "players",
        "nice_yaniv",
        str(guest.pk),
    )
    assert "text" not in body
    assert listed(api(other), game) == ["nice_yaniv"]


def test_an_unknown_phrase_or_both_or_neither_is_invalid(api, table) -> None:
    game, (ann, _) = table
    client = api(ann)
    assert say(client, game, phrase="nope").json()["code"] == "invalid"
    assert say(client, game, phrase="oops", text="hi").json()["code"] == "invalid"
    assert say(client, game).json()["code"] == "invalid"
    assert say(client, game, room="kitchen", phrase="oops").json()["code"] == "invalid"


def test_free_text_is_not_for_guests(api) -> None:
    guest = PlayerFactory.create()
    game = ranked_table([guest, veteran()])
    response = say(api(guest), game, text="hello")
    assert (response.status_code, response.json()["code"]) == (403, "guest")


def test_free_text_needs_finished_games(api, settings) -> None:
    settings.YANIV_CHAT_MIN_GAMES = 5
    novice = veteran(games=4)
    game = ranked_table([novice, veteran()])
    response = say(api(novice), game, text="hello")
    assert (response.status_code, response.json()["code"]) == (403, "not_allowed")
    assert "5 finished games" in response.json()["detail"]
    assert say(api(novice), game, phrase="hello").status_code == 201
    finish_games(novice, 1)
    assert say(api(novice), game, text="hello now").status_code == 201


def test_a_muted_player_is_told_until_when_and_keeps_phrases(api, table) -> None:
    game, (ann, _) = table
    until = timezone.now() + timedelta(hours=2)
    ChatMute.objects.create(player=ann, until=until)
    response = say(api(ann), game, text="hello")
    assert (response.status_code, response.json()["code"]) == (403, "muted")
    assert response.json()["muted_until"] == until.isoformat()
    assert say(api(ann), game, phrase="thanks").status_code == 201


def test_an_ended_mute_mutes_no_more(api, table) -> None:
    game, (ann, _) = table
    ChatMute.objects.create(player=ann, until=timezone.now() + timedelta(minutes=1))
    with time_machine.travel(timezone.now() + timedelta(minutes=2)):
        assert say(api(ann), game, text="hello").status_code == 201


@pytest.mark.parametrize(
    "text",
    [
        "",
        "   ",
        "x" * 201,
        "bell\x07",
        "two\nlines",
        "tab\there",
        "evil\u202egnp.exe",
        "\u202aembedded",
        "\u2066isolated\u2069",
        "zero\u200bwidth",
        "line\u2028separator",
    ],
)
def test_text_must_be_printable_and_1_to_200_characters(api, table, text) -> None:
    game, (ann, _) = table
    response = say(api(ann), game, text=text)
    assert (response.status_code, response.json()["code"]) == (400, "invalid")
    assert not ChatMessage.objects.exists()


def test_200_characters_and_emoji_sequences_pass(api, table) -> None:
    game, (ann, _) = table
    assert say(api(ann), game, text="y" * 200).status_code == 201
    family = "\U0001f468\u200d\U0001f469\u200d\U0001f467 gg"
    assert say(api(ann), game, text=f"  {family}  ").json()["text"] == family


@pytest.mark.parametrize(
    "text",
    [
        "oh FUCK",
        "Shit happens",
        "\uff46\uff55\uff43\uff4b this",
        "what a b\u200ditch",
        "you bitch!",
    ],
)
def test_listed_words_are_refused(api, table, text) -> None:
    game, (ann, _) = table
    response = say(api(ann), game, text=text)
    assert (response.status_code, response.json()["code"]) == (400, "refused")


@pytest.mark.parametrize("text", ["Scunthorpe", "shitake mushrooms", "classic"])
def test_only_whole_words_are_refused(api, table, text) -> None:
    game, (ann, _) = table
    assert say(api(ann), game, text=text).status_code == 201


def test_the_word_list_is_the_file_the_setting_names(api, table, settings, tmp_path) -> None:
    words = tmp_path / "words.txt"
    words.write_text("# mine\nPineapple\n", encoding="utf-8")
    settings.YANIV_CHAT_BLOCKLIST = str(words)
    game, (ann, _) = table
    assert say(api(ann), game, text="pineapple pizza").json()["code"] == "refused"
    assert say(api(ann), game, text="oh fuck").status_code == 201


def test_five_messages_in_ten_seconds_then_flood(api, table) -> None:
    game, (ann, _) = table
    client = api(ann)
    start = timezone.now()
    with time_machine.travel(start, tick=False) as clock:
        for index in range(5):
            assert say(client, game, text=f"message {index}").status_code == 201
            clock.shift(timedelta(seconds=1))
        refused = say(client, game, phrase="oops")
        assert (refused.status_code, refused.json()["code"]) == (429, "throttled")
        assert (refused.json()["scope"], refused.json()["retry_after"]) == ("chat_flood", 5)
        assert refused["Retry-After"] == "5"
        clock.shift(timedelta(seconds=5))
        assert say(client, game, phrase="oops").status_code == 201


def test_the_same_message_three_times_in_a_row_is_a_flood(api, table) -> None:
    game, (ann, _) = table
    client = api(ann)
    start = timezone.now()
    with time_machine.travel(start, tick=False) as clock:
        for _ in range(2):
            assert say(client, game, text="gg").status_code == 201
            clock.shift(timedelta(seconds=3))
        refused = say(client, game, text="gg")
        assert (refused.status_code, refused.json()["code"]) == (429, "throttled")
        assert refused.json()["scope"] == "chat_flood"
        assert say(client, game, phrase="thanks").status_code == 201
        clock.shift(timedelta(seconds=3))
        assert say(client, game, text="gg").status_code == 201


def test_players_and_spectators_have_their_own_rooms(api, table) -> None:
    game, (ann, bob) = table
    watcher = PlayerFactory.create()
    assert say(api(watcher), game, room="spectators", phrase="wow").status_code == 201
    assert say(api(ann), game, phrase="good_luck").status_code == 201
    assert listed(api(watcher), game, room="spectators") == ["wow"]
    assert listed(api(bob), game) == ["good_luck"]
    for client, room, code in [
        (api(ann), "spectators", "not_spectator"),
        (api(watcher), "players", "not_seated"),
    ]:
        read = client.get(chat_url(game.pk), {"room": room})
        assert (read.status_code, read.json()["code"]) == (403, code)
        write = say(client, game, room=room, phrase="oops")
        assert (write.status_code, write.json()["code"]) == (403, code)


def test_the_players_never_read_the_spectators_room_even_after_the_game(api, table) -> None:
    game, (ann, _) = table
    say(api(PlayerFactory.create()), game, room="spectators", phrase="wow")
    game.status = GameStatus.FINISHED
    game.save(update_fields=["status"])
    read = api(ann).get(chat_url(game.pk), {"room": "spectators"})
    assert (read.status_code, read.json()["code"]) == (403, "not_spectator")


def test_a_private_game_has_no_spectators(api) -> None:
    players = [veteran(), veteran()]
    game = private_table(players)
    stranger = api(PlayerFactory.create())
    for room in ("players", "spectators"):
        response = stranger.get(chat_url(game.pk), {"room": room})
        assert (response.status_code, response.json()["code"]) == (403, "forbidden")
    assert say(api(players[1]), game, phrase="hello").status_code == 201


def test_an_unknown_game_is_404_and_a_missing_room_400(api, table) -> None:
    game, (ann, _) = table
    unknown = api(ann).get(chat_url("00000000-0000-0000-0000-000000000000"), {"room": "players"})
    assert (unknown.status_code, unknown.json()["code"]) == (404, "not_found")
    assert api(ann).get(chat_url(game.pk)).json()["code"] == "invalid"


def test_the_list_is_paginated_newest_last(api, table) -> None:
    game, (ann, bob) = table
    start = timezone.now()
    for index, phrase in enumerate(["hello", "good_luck", "have_fun"]):
        with time_machine.travel(start + timedelta(seconds=index * 5), tick=False):
            assert say(api(ann), game, phrase=phrase).status_code == 201
    assert listed(api(bob), game) == ["hello", "good_luck", "have_fun"]
    assert listed(api(bob), game, limit=2) == ["good_luck", "have_fun"]
    assert listed(api(bob), game, limit=2, offset=2) == ["hello"]


@pytest.mark.parametrize(
    ("setting", "shown"),
    [("all", ["hello", "nice hand"]), ("phrases", ["hello"]), ("off", [])],
)
def test_the_chat_setting_sticks_and_filters_the_list(api, table, setting, shown) -> None:
    game, (ann, bob) = table
    say(api(ann), game, phrase="hello")
    say(api(ann), game, text="nice hand")
    client = api(bob)
    assert client.patch("/api/v1/me/", {"chat": setting}, format="json").status_code == 200
    assert client.get("/api/v1/me/").json()["chat"] == setting
    bob.refresh_from_db()
    assert bob.chat == setting
    assert listed(api(bob), game) == shown


def test_a_bad_chat_setting_is_invalid(api) -> None:
    response = api(PlayerFactory.create()).patch("/api/v1/me/", {"chat": "loud"}, format="json")
    assert (response.status_code, response.json()["code"]) == (400, "invalid")


@pytest.mark.parametrize("blocker", [0, 1])
def test_a_block_hides_messages_both_ways(api, table, blocker) -> None:
    game, players = table
    block_create(player=players[blocker], other_id=players[1 - blocker].pk)
    say(api(players[0]), game, text="from Ann")
    say(api(players[1]), game, text="from Bob")
    assert listed(api(players[0]), game) == ["from Ann"]
    assert listed(api(players[1]), game) == ["from Bob"]


@pytest.mark.parametrize("blocker", ["watcher", "author"])
def test_a_block_hides_a_spectators_message_both_ways(api, table, blocker) -> None:
    game, _ = table
    author, watcher = veteran(), veteran()
    one, other = (watcher, author) if blocker == "watcher" else (author, watcher)
    block_create(player=one, other_id=other.pk)
    say(api(author), game, room="spectators", text="hi all")
    assert listed(api(watcher), game, room="spectators") == []
    assert listed(api(PlayerFactory.create()), game, room="spectators") == ["hi all"]


def test_a_report_keeps_the_rooms_last_20_messages(api, table) -> None:
    game, (ann, bob) = table
    start = timezone.now()
    ids = []
    for index in range(25):
        with time_machine.travel(start + timedelta(seconds=index * 3), tick=False):
            author = ann if index % 2 else bob
            ids.append(say(api(author), game, text=f"line {index}").json()["id"])
    gone = ChatMessage.objects.get(pk=ids[22])
    gone.deleted_at = timezone.now()
    gone.save()
    with time_machine.travel(start + timedelta(seconds=100), tick=False):
        response = api(bob).post(report_url(ids[23]), {"reason": "rude"}, format="json")
    assert response.status_code == 201
    assert response.json()["message_id"] == ids[23]
    report = ChatReport.objects.get()
    assert (report.reporter, report.reported, report.reason) == (bob, ann, "rude")
    assert [line["text"] for line in report.snapshot] == [f"line {i}" for i in range(5, 25)]
    assert [line["id"] for line in report.snapshot if line["deleted"]] == [ids[22]]
    assert [line["id"] for line in report.snapshot if line["reported"]] == [ids[23]]
    # As they were: a later deletion or edit leaves the snapshot alone.
    ChatMessage.objects.filter(pk=ids[24]).update(deleted_at=timezone.now())
    report.refresh_from_db()
    assert not report.snapshot[-1]["deleted"]


def test_a_report_of_an_old_message_keeps_it_in_the_snapshot(api, table) -> None:
    game, (ann, bob) = table
    start = timezone.now()
    first = None
    for index in range(22):
        with time_machine.travel(start + timedelta(seconds=index * 3), tick=False):
            sent = say(api(ann if index == 0 else bob), game, text=f"line {index}").json()
            first = first or sent["id"]
    with time_machine.travel(start + timedelta(seconds=100), tick=False):
        assert api(bob).post(report_url(first), {}, format="json").status_code == 201
    snapshot = ChatReport.objects.get().snapshot
    assert len(snapshot) == 20
    assert snapshot[0]["id"] == first


def test_one_report_per_player_per_message(api, table) -> None:
    game, (ann, bob) = table
    message = say(api(ann), game, text="rude words").json()
    assert api(bob).post(report_url(message["id"]), {}, format="json").status_code == 201
    again = api(bob).post(report_url(message["id"]), {}, format="json")
    assert (again.status_code, again.json()["code"]) == (409, "already_reported")
    own = api(ann).post(report_url(message["id"]), {}, format="json")
    assert (own.status_code, own.json()["code"]) == (400, "yourself")


def test_only_a_reader_of_the_message_may_report_it(api, table) -> None:
    game, (ann, bob) = table
    message = say(api(ann), game, text="for the table").json()
    watcher = api(PlayerFactory.create()).post(report_url(message["id"]), {}, format="json")
    assert (watcher.status_code, watcher.json()["code"]) == (403, "not_seated")
    block_create(player=bob, other_id=ann.pk)
    blocked = api(bob).post(report_url(message["id"]), {}, format="json")
    assert (blocked.status_code, blocked.json()["code"]) == (404, "not_found")
    unknown = api(bob).post(report_url("00000000-0000-0000-0000-000000000000"), {}, format="json")
    assert unknown.status_code == 404


def test_a_post_reads_the_seats_once(api, table, django_assert_max_num_queries) -> None:
    """The seats the room's check reads serve the seated players' chat settings and the author's
    rating, and one read serves both flood limits (bench/README.md, chat): a phrase at a table is
    the token, the game and its seats, the author's lock, the flood read, the write and the
    blocks."""
    game, (ann, _) = table
    client = api(ann)
    assert say(client, game, phrase="hello").status_code == 201
    with django_assert_max_num_queries(9):
        posted = say(client, game, phrase="wow")
    assert posted.status_code == 201
    shown = api(ann).get(f"/api/v1/players/{ann.pk}/").json()
    assert posted.json()["player"]["rating"] == shown["rating"]
