"""Blocks (docs/api.md, Friends, blocks and presence): a block ends the friendship and the
requests between two players and, both ways, no request may follow; guests block and are
blocked too. (Presence: tests/social/test_presence.py; the ranked queue:
tests/social/test_matchmaking.py.)"""

from __future__ import annotations

import pytest

from social.models import Block, FriendRequest, Friendship
from tests.factories import PlayerFactory
from tests.social.conftest import BLOCKS, FRIENDS, REQUESTS, add, befriend, block

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.parametrize("who_blocks", ["alice", "bob"])
def test_a_block_ends_a_friendship_and_requests_and_none_may_follow_either_way(
    registered, client_for, who_blocks
) -> None:
    alice, bob = registered(), registered()
    befriend(alice, bob)
    carol = registered()
    add(client_for(carol), alice)  # a request that has nothing to do with the block stays
    blocker, blocked = (alice, bob) if who_blocks == "alice" else (bob, alice)

    done = block(client_for(blocker), blocked)
    assert done.status_code == 201, done.content
    assert done.json()["player"]["id"] == str(blocked.pk)

    for me in (alice, bob):
        assert client_for(me).get(FRIENDS).json()["count"] == 0
    for asker, asked in ((alice, bob), (bob, alice)):
        refused = add(client_for(asker), asked)
        assert (refused.status_code, refused.json()["code"]) == (403, "blocked")
    assert not Friendship.objects.exists()
    assert client_for(alice).get(REQUESTS).json()["count"] == 1  # carol's


@pytest.mark.parametrize("request_from", ["blocker", "blocked"])
def test_a_block_closes_a_pending_request_whichever_way_it_went(
    registered, client_for, request_from
) -> None:
    blocker, blocked = registered(), registered()
    sender, receiver = (blocker, blocked) if request_from == "blocker" else (blocked, blocker)
    add(client_for(sender), receiver)

    block(client_for(blocker), blocked)

    for me in (blocker, blocked):
        assert client_for(me).get(REQUESTS).json()["count"] == 0
    assert not FriendRequest.objects.filter(closed_at__isnull=True).exists()
    # And accepting the closed request (asking back) is refused.
    refused = add(client_for(receiver), sender)
    assert (refused.status_code, refused.json()["code"]) == (403, "blocked")


def test_blocks_are_listed_and_lifted(registered, client_for) -> None:
    alice, bob, carol = registered(), registered(), registered()
    client = client_for(alice)
    block(client, bob)
    block(client, carol)

    listed = client.get(BLOCKS).json()
    assert [row["player"]["id"] for row in listed["results"]] == [str(carol.pk), str(bob.pk)]
    assert client_for(bob).get(BLOCKS).json()["count"] == 0  # a block is the blocker's

    assert client.delete(f"{BLOCKS}{bob.pk}/").status_code == 204
    assert add(client, bob).status_code == 201  # lifted: they may be friends again
    lifted_twice = client.delete(f"{BLOCKS}{bob.pk}/")
    assert (lifted_twice.status_code, lifted_twice.json()["code"]) == (404, "not_found")


def test_both_may_block_each_other_and_one_lifting_leaves_the_other(registered, client_for) -> None:
    alice, bob = registered(), registered()
    block(client_for(alice), bob)
    block(client_for(bob), alice)
    client_for(alice).delete(f"{BLOCKS}{bob.pk}/")

    refused = add(client_for(alice), bob)
    assert (refused.status_code, refused.json()["code"]) == (403, "blocked")


def test_block_refusals(registered, client_for) -> None:
    alice, bob = registered(), registered()
    client = client_for(alice)
    myself = block(client, alice)
    assert (myself.status_code, myself.json()["code"]) == (400, "yourself")
    unknown = client.post(
        BLOCKS, {"player_id": "00000000-0000-0000-0000-000000000000"}, format="json"
    )
    assert (unknown.status_code, unknown.json()["code"]) == (404, "not_found")
    assert block(client, bob).status_code == 201
    twice = block(client, bob)
    assert (twice.status_code, twice.json()["code"]) == (409, "already_blocked")
    assert Block.objects.count() == 1


def test_guests_block_and_are_blocked(registered, client_for) -> None:
    guest, other_guest, member = PlayerFactory.create(), PlayerFactory.create(), registered()

    assert block(client_for(guest), member).status_code == 201
    assert block(client_for(member), other_guest).status_code == 201
    assert block(client_for(guest), other_guest).status_code == 201
    assert Block.objects.count() == 3


def test_an_erased_account_leaves_no_friend_request_or_block(registered, client_for) -> None:
    from accounts.services import player_erase

    alice, bob, carol, dave = (registered() for _ in range(4))
    befriend(alice, bob)
    add(client_for(carol), alice)
    block(client_for(dave), alice)

    player_erase(player=alice)

    assert not Friendship.objects.exists()
    assert not FriendRequest.objects.exists()
    assert not Block.objects.exists()
    assert client_for(bob).get(FRIENDS).json()["count"] == 0
