"""Friends, friend requests and blocks between players (docs/api.md, Friends, blocks and
presence). Presence itself is not stored here: who is online is Redis' (core/presence.py), what
they play is games'.

A challenge asks a player to a private table (games makes it when accepted).

A friendship is two rows, one per side (`player` -> `friend`), written and deleted together:
a player's friends, and their count, are then one indexed read of their own rows.
"""

from __future__ import annotations

import uuid

from django.db import models
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from accounts.models import Player
from games.models import Game


class Friendship(models.Model):
    id = models.BigAutoField(primary_key=True, verbose_name=_("id"))
    player = models.ForeignKey(
        Player, on_delete=models.CASCADE, related_name="friendships", verbose_name=_("player")
    )
    friend = models.ForeignKey(
        Player, on_delete=models.CASCADE, related_name="+", verbose_name=_("friend")
    )
    since = models.DateTimeField(default=timezone.now, verbose_name=_("since"))

    class Meta:
        verbose_name = _("friendship")
        verbose_name_plural = _("friendships")
        constraints = [
            models.UniqueConstraint(fields=["player", "friend"], name="friendship_once"),
            models.CheckConstraint(condition=~Q(player=F("friend")), name="friendship_not_oneself"),
        ]

    def __str__(self) -> str:
        return f"{self.player_id} -> {self.friend_id}"


class FriendRequest(models.Model):
    """A request from `sender` to `receiver`. Open while `closed_at` is null; closed (accepted,
    declined, withdrawn, or ended by a block) it is kept a day, for the daily limit of requests
    sent (YANIV_FRIEND_REQUESTS_PER_DAY: withdrawing one does not give it back), then purged."""

    id = models.BigAutoField(primary_key=True, verbose_name=_("id"))
    sender = models.ForeignKey(
        Player, on_delete=models.CASCADE, related_name="+", verbose_name=_("sender")
    )
    receiver = models.ForeignKey(
        Player, on_delete=models.CASCADE, related_name="+", verbose_name=_("receiver")
    )
    created_at = models.DateTimeField(default=timezone.now, verbose_name=_("created at"))
    closed_at = models.DateTimeField(null=True, blank=True, verbose_name=_("closed at"))

    class Meta:
        verbose_name = _("friend request")
        verbose_name_plural = _("friend requests")
        constraints = [
            models.UniqueConstraint(
                fields=["sender", "receiver"],
                condition=Q(closed_at__isnull=True),
                name="friend_request_one_open",
            ),
            models.CheckConstraint(
                condition=~Q(sender=F("receiver")), name="friend_request_not_oneself"
            ),
        ]
        indexes = [
            models.Index(fields=["sender", "created_at"], name="friend_request_sent_idx"),
            models.Index(
                fields=["receiver", "created_at"],
                condition=Q(closed_at__isnull=True),
                name="friend_request_open_in_idx",
            ),
        ]

    def __str__(self) -> str:
        return gettext("%(sender)s asks %(receiver)s") % {
            "sender": self.sender_id,
            "receiver": self.receiver_id,
        }


class Block(models.Model):
    """`blocker` blocked `blocked`: no friendship or request between them either way, no
    presence, and the ranked queue never seats them together."""

    id = models.BigAutoField(primary_key=True, verbose_name=_("id"))
    blocker = models.ForeignKey(
        Player, on_delete=models.CASCADE, related_name="+", verbose_name=_("blocker")
    )
    blocked = models.ForeignKey(
        Player, on_delete=models.CASCADE, related_name="+", verbose_name=_("blocked")
    )
    created_at = models.DateTimeField(default=timezone.now, verbose_name=_("created at"))

    class Meta:
        verbose_name = _("block")
        verbose_name_plural = _("blocks")
        constraints = [
            models.UniqueConstraint(fields=["blocker", "blocked"], name="block_once"),
            models.CheckConstraint(condition=~Q(blocker=F("blocked")), name="block_not_oneself"),
        ]

    def __str__(self) -> str:
        return gettext("%(blocker)s blocks %(blocked)s") % {
            "blocker": self.blocker_id,
            "blocked": self.blocked_id,
        }


class ChallengeStatus(models.TextChoices):
    OPEN = "open", _("Open")
    ACCEPTED = "accepted", _("Accepted")
    DECLINED = "declined", _("Declined")
    CANCELLED = "cancelled", _("Cancelled")
    EXPIRED = "expired", _("Expired")


class Challenge(models.Model):
    """`challenger` asks `challenged` to a private table of `max_players` with `rules` (checked
    when made). Open until answered, cancelled or `expires_at` (YANIV_CHALLENGE_SECONDS): an open
    row past that time is shown expired before the task that marks it has run. Accepted, it
    names the table it made."""

    id = models.UUIDField(
        primary_key=True, default=uuid.uuid4, editable=False, verbose_name=_("id")
    )
    challenger = models.ForeignKey(
        Player, on_delete=models.CASCADE, related_name="+", verbose_name=_("challenger")
    )
    challenged = models.ForeignKey(
        Player, on_delete=models.CASCADE, related_name="+", verbose_name=_("challenged")
    )
    max_players = models.PositiveSmallIntegerField(default=2, verbose_name=_("max players"))
    rules = models.JSONField(default=dict, verbose_name=_("rules"))
    status = models.CharField(
        max_length=10,
        choices=ChallengeStatus.choices,
        default=ChallengeStatus.OPEN,
        verbose_name=_("status"),
    )
    created_at = models.DateTimeField(default=timezone.now, verbose_name=_("created at"))
    expires_at = models.DateTimeField(verbose_name=_("expires at"))
    game = models.ForeignKey(
        Game,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("game"),
    )

    class Meta:
        verbose_name = _("challenge")
        verbose_name_plural = _("challenges")
        constraints = [
            models.CheckConstraint(
                condition=~Q(challenger=F("challenged")), name="challenge_not_oneself"
            ),
        ]
        indexes = [
            # The hourly limit, and a player's open challenges either way.
            models.Index(fields=["challenger", "created_at"], name="challenge_sent_idx"),
            models.Index(
                fields=["challenged", "created_at"],
                condition=Q(status="open"),
                name="challenge_open_in_idx",
            ),
        ]

    def __str__(self) -> str:
        return gettext("%(challenger)s challenges %(challenged)s") % {
            "challenger": self.challenger_id,
            "challenged": self.challenged_id,
        }
