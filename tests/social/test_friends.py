"""Friends and requests (docs/api.md, Friends, blocks and presence): asking, accepting,
listing, removing, and every refusal."""

from __future__ import annotations

import pytest
from django.db import transaction

from core.sockets import player_group
from social.models import FriendRequest, Friendship
from tests.factories import PlayerFactory
from tests.social.conftest import FRIENDS, REQUESTS, add, befriend

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_request_then_its_acceptance_makes_friends_both_ways(
    registered, client_for, pushes
) -> None:
    alice, bob = registered(display_name="Alice"), registered(display_name="Bob")

    sent = add(client_for(alice), bob)
    assert sent.status_code == 201, sent.content
    assert sent.json()["status"] == "requested"
    assert sent.json()["friend"] is None
    assert sent.json()["request"]["direction"] == "outgoing"
    assert sent.json()["request"]["player"]["id"] == str(bob.pk)
    # Bob hears of it on his me socket, after the commit.
    [(group, message)] = pushes
    assert group == player_group(bob.pk)
    assert message["message"]["type"] == "friend_request"
    assert message["message"]["request"]["direction"] == "incoming"
    assert message["message"]["request"]["player"]["display_name"] == "Alice"

    incoming = client_for(bob).get(REQUESTS).json()
    assert incoming["count"] == 1
    assert incoming["results"][0]["player"]["id"] == str(alice.pk)
    assert incoming["results"][0]["direction"] == "incoming"
    outgoing = client_for(alice).get(REQUESTS, {"direction": "outgoing"}).json()
    assert [row["player"]["id"] for row in outgoing["results"]] == [str(bob.pk)]
    assert client_for(alice).get(REQUESTS, {"direction": "incoming"}).json()["count"] == 0

    accepted = add(client_for(bob), alice)
    assert accepted.status_code == 201, accepted.content
    assert accepted.json()["status"] == "friends"
    assert accepted.json()["friend"]["player"]["id"] == str(alice.pk)
    assert accepted.json()["request"] is None
    # Alice hears that Bob accepted.
    group, message = pushes[-1]
    assert group == player_group(alice.pk)
    assert message["message"]["type"] == "friend"
    assert message["message"]["friend"]["player"]["id"] == str(bob.pk)

    for me, friend in ((alice, bob), (bob, alice)):
        listed = client_for(me).get(FRIENDS).json()
        assert listed["count"] == 1
        [row] = listed["results"]
        assert row["player"]["id"] == str(friend.pk)
        assert row["presence"] == "offline"  # no me socket open
        assert row["game_id"] is None
        assert client_for(me).get(REQUESTS).json()["count"] == 0


def test_two_players_asking_each_other_become_friends_once(registered) -> None:
    alice, bob = registered(), registered()
    befriend(alice, bob)
    assert Friendship.objects.count() == 2
    assert not FriendRequest.objects.filter(closed_at__isnull=True).exists()


def test_removing_a_friend_ends_it_for_both(registered, client_for) -> None:
    alice, bob = registered(), registered()
    befriend(alice, bob)

    assert client_for(bob).delete(f"{FRIENDS}{alice.pk}/").status_code == 204

    assert client_for(alice).get(FRIENDS).json()["count"] == 0
    assert client_for(bob).get(FRIENDS).json()["count"] == 0
    again = client_for(bob).delete(f"{FRIENDS}{alice.pk}/")
    assert (again.status_code, again.json()["code"]) == (404, "not_found")


def test_a_request_may_be_withdrawn_or_declined(registered, client_for) -> None:
    alice, bob, carol = registered(), registered(), registered()
    add(client_for(alice), bob)
    add(client_for(carol), alice)

    assert client_for(alice).delete(f"{FRIENDS}{bob.pk}/").status_code == 204  # withdrawn
    assert client_for(alice).delete(f"{FRIENDS}{carol.pk}/").status_code == 204  # declined

    for player in (alice, bob, carol):
        assert client_for(player).get(REQUESTS).json()["count"] == 0
        assert client_for(player).get(FRIENDS).json()["count"] == 0


def test_refusals(registered, client_for, api_client) -> None:
    alice, bob = registered(), registered()
    client = client_for(alice)

    myself = add(client, alice)
    assert (myself.status_code, myself.json()["code"]) == (400, "yourself")
    unknown = client.post(
        FRIENDS, {"player_id": "00000000-0000-0000-0000-000000000000"}, format="json"
    )
    assert (unknown.status_code, unknown.json()["code"]) == (404, "not_found")
    malformed = client.post(FRIENDS, {"player_id": "bob"}, format="json")
    assert (malformed.status_code, malformed.json()["code"]) == (400, "invalid")
    assert api_client.get(FRIENDS).status_code == 401

    assert add(client, bob).status_code == 201
    twice = add(client, bob)
    assert (twice.status_code, twice.json()["code"]) == (409, "already_requested")
    add(client_for(bob), alice)
    friends_already = add(client, bob)
    assert (friends_already.status_code, friends_already.json()["code"]) == (
        409,
        "already_friends",
    )


def test_a_cpu_player_is_nobody_to_befriend(registered, client_for) -> None:
    cpu = PlayerFactory.create(cpu_level="hard", display_name="CPU (hard)")
    refused = add(client_for(registered()), cpu)
    assert (refused.status_code, refused.json()["code"]) == (404, "not_found")


def test_guests_may_not_have_friends_either_way(registered, client_for) -> None:
    guest, member = PlayerFactory.create(), registered()

    sending = add(client_for(guest), member)
    assert (sending.status_code, sending.json()["code"]) == (403, "guest")
    receiving = add(client_for(member), guest)
    assert (receiving.status_code, receiving.json()["code"]) == (403, "guest")
    assert not FriendRequest.objects.exists()
    assert client_for(guest).get(FRIENDS).json()["count"] == 0


def test_at_most_friends_max_friends(registered, client_for, settings) -> None:
    settings.YANIV_FRIENDS_MAX = 2
    alice, bob, carol, dave = (registered() for _ in range(4))
    befriend(alice, bob)
    befriend(alice, carol)

    full = add(client_for(alice), dave)
    assert (full.status_code, full.json()["code"]) == (409, "too_many_friends")
    # Nor may anyone ask a player who has as many as allowed.
    theirs = add(client_for(dave), alice)
    assert (theirs.status_code, theirs.json()["code"]) == (409, "too_many_friends")
    # A request sent before the limit was reached is refused when accepted.
    client_for(alice).delete(f"{FRIENDS}{carol.pk}/")
    add(client_for(dave), alice)
    befriend(alice, carol)
    accepting = add(client_for(alice), dave)
    assert (accepting.status_code, accepting.json()["code"]) == (409, "too_many_friends")
    assert Friendship.objects.filter(player=alice).count() == 2


def test_at_most_requests_per_day_withdrawn_ones_included(registered, client_for, settings) -> None:
    settings.YANIV_FRIEND_REQUESTS_PER_DAY = 2
    alice = registered()
    others = [registered() for _ in range(3)]
    client = client_for(alice)
    assert add(client, others[0]).status_code == 201
    assert add(client, others[1]).status_code == 201
    client.delete(f"{FRIENDS}{others[0].pk}/")  # withdrawing does not give it back

    third = add(client, others[2])
    assert (third.status_code, third.json()["code"]) == (429, "throttled")
    assert third.json()["scope"] == "friend_requests"
    assert 0 < int(third["Retry-After"]) <= 24 * 3600
    # Accepting someone's request is not sending one.
    add(client_for(others[2]), alice)
    assert add(client, others[2]).json()["status"] == "friends"


def test_a_request_is_pushed_only_once_committed(registered, pushes) -> None:
    from social.services import friend_add

    alice, bob = registered(), registered()

    @transaction.atomic
    def ask_then_fail() -> None:
        friend_add(player=alice, other_id=bob.pk)
        raise RuntimeError  # rolled back: nothing was sent

    with pytest.raises(RuntimeError):
        ask_then_fail()
    assert pushes == []
    assert not FriendRequest.objects.exists()
