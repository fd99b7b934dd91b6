"""Staff read friendships, requests, blocks and challenges in the admin, and change none; closed
requests and old challenges are purged once they no longer count for the limits."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from accounts.models import Player
from social.models import Block, Challenge, FriendRequest
from social.services import (
    block_create,
    challenge_create,
    challenges_purge,
    friend_add,
    friend_requests_purge,
)
from tests.social.conftest import befriend

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("model", ["friendship", "friendrequest", "block", "challenge"])
def test_staff_read_them_and_change_none(admin_client, registered, model) -> None:
    alice, bob, carol = registered(), registered(), registered()
    befriend(alice, bob)
    friend_add(player=carol, other_id=alice.pk)
    block_create(player=carol, other_id=bob.pk)
    challenge_create(player=alice, other_id=bob.pk, rules={})

    listed = admin_client.get(f"/admin/social/{model}/")
    assert listed.status_code == 200
    assert alice.username in listed.content.decode() or bob.username in listed.content.decode()
    assert admin_client.get(f"/admin/social/{model}/add/").status_code == 403


def test_closed_requests_older_than_a_day_are_purged(registered) -> None:
    alice, bob, carol = registered(), registered(), registered()
    friend_add(player=alice, other_id=bob.pk)
    friend_add(player=alice, other_id=carol.pk)
    block_create(player=bob, other_id=alice.pk)  # closes the first
    FriendRequest.objects.update(created_at=timezone.now() - timedelta(days=1, seconds=1))

    assert friend_requests_purge() == 1
    [left] = FriendRequest.objects.all()
    assert (left.receiver_id, left.closed_at) == (carol.pk, None)  # open ones stay
    assert Block.objects.count() == 1


def test_challenges_older_than_a_day_are_purged(registered) -> None:
    alice, bob, carol = registered(), registered(), registered()
    Player.objects.update(challenges_from="everyone")
    challenge_create(player=alice, other_id=bob.pk, rules={})
    challenge_create(player=alice, other_id=carol.pk, rules={})
    Challenge.objects.filter(challenged=bob).update(
        created_at=timezone.now() - timedelta(days=1, seconds=1)
    )

    assert challenges_purge() == 1
    [left] = Challenge.objects.all()
    assert left.challenged_id == carol.pk
