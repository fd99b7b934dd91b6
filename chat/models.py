"""A game's chat (docs/api.md, Chat): its messages, the players' reports of them, and the
moderators' mutes.

A game has two rooms: its seated players', and (ranked games only: private ones have no
spectators) its spectators', which no seated player ever reads. A message is either free text
or one of the fixed phrases (chat/phrases.py), never both. A moderator's deletion keeps the row
(a report's snapshot and the audit log still name it) and hides it from everyone.
"""

from __future__ import annotations

import uuid

from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from accounts.models import Player
from games.models import Game


class Room(models.TextChoices):
    PLAYERS = "players", _("Players")
    SPECTATORS = "spectators", _("Spectators")


class ChatMessage(models.Model):
    id = models.UUIDField(
        primary_key=True, default=uuid.uuid4, editable=False, verbose_name=_("id")
    )
    game = models.ForeignKey(
        Game, on_delete=models.CASCADE, related_name="+", verbose_name=_("game")
    )
    room = models.CharField(max_length=10, choices=Room.choices, verbose_name=_("room"))
    author = models.ForeignKey(
        Player, on_delete=models.CASCADE, related_name="+", verbose_name=_("author")
    )
    text = models.CharField(max_length=200, blank=True, verbose_name=_("text"))
    phrase = models.CharField(max_length=32, blank=True, verbose_name=_("phrase"))
    created_at = models.DateTimeField(default=timezone.now, verbose_name=_("created at"))
    deleted_at = models.DateTimeField(null=True, blank=True, verbose_name=_("deleted at"))
    deleted_by = models.ForeignKey(
        Player,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("deleted by"),
    )

    class Meta:
        verbose_name = _("chat message")
        verbose_name_plural = _("chat messages")
        constraints = [
            models.CheckConstraint(
                condition=(Q(text="") & ~Q(phrase="")) | (~Q(text="") & Q(phrase="")),
                name="chat_message_text_or_phrase",
            ),
        ]
        indexes = [
            models.Index(fields=["game", "room", "created_at"], name="chat_room_idx"),
            # The flood checks: an author's latest messages.
            models.Index(fields=["author", "created_at"], name="chat_author_idx"),
            # Retention: the oldest first.
            models.Index(fields=["created_at"], name="chat_created_idx"),
        ]

    def __str__(self) -> str:
        return gettext("%(author)s in %(game)s/%(room)s: %(text)s") % {
            "author": self.author_id,
            "game": self.game_id,
            "room": self.room,
            "text": self.text or self.phrase,
        }


class ChatReport(models.Model):
    """A player's report of a message, with what the room looked like then (`snapshot`: its
    last messages, as they were, kept even when they are later deleted or purged)."""

    id = models.UUIDField(
        primary_key=True, default=uuid.uuid4, editable=False, verbose_name=_("id")
    )
    # Null once retention purged the message (the snapshot keeps its text).
    message = models.ForeignKey(
        ChatMessage,
        null=True,
        on_delete=models.SET_NULL,
        related_name="reports",
        verbose_name=_("message"),
    )
    reporter = models.ForeignKey(
        Player, on_delete=models.CASCADE, related_name="+", verbose_name=_("reporter")
    )
    # The message's author, kept with the report (the message may go).
    reported = models.ForeignKey(
        Player, on_delete=models.CASCADE, related_name="+", verbose_name=_("reported")
    )
    game_id = models.UUIDField(verbose_name=_("game id"))
    reason = models.CharField(max_length=500, blank=True, verbose_name=_("reason"))
    snapshot = models.JSONField(default=list, verbose_name=_("snapshot"))
    created_at = models.DateTimeField(default=timezone.now, verbose_name=_("created at"))
    reviewed_at = models.DateTimeField(null=True, blank=True, verbose_name=_("reviewed at"))
    reviewed_by = models.ForeignKey(
        Player,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("reviewed by"),
    )

    class Meta:
        verbose_name = _("chat report")
        verbose_name_plural = _("chat reports")
        constraints = [
            models.UniqueConstraint(fields=["message", "reporter"], name="chat_report_once"),
        ]
        indexes = [
            models.Index(
                fields=["created_at"], name="chat_report_open_idx", condition=Q(reviewed_at=None)
            ),
        ]

    def __str__(self) -> str:
        return gettext("chat report %(id)s about %(player)s") % {
            "id": self.pk,
            "player": self.reported_id,
        }


class ChatMute(models.Model):
    """A moderator's mute: free text refused to `player` until `until` (phrases stay open)."""

    id = models.BigAutoField(primary_key=True, verbose_name=_("id"))
    player = models.ForeignKey(
        Player, on_delete=models.CASCADE, related_name="+", verbose_name=_("player")
    )
    until = models.DateTimeField(verbose_name=_("until"))
    reason = models.CharField(max_length=500, blank=True, verbose_name=_("reason"))
    created_at = models.DateTimeField(default=timezone.now, verbose_name=_("created at"))
    by = models.ForeignKey(
        Player,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("by"),
    )

    class Meta:
        verbose_name = _("chat mute")
        verbose_name_plural = _("chat mutes")
        indexes = [models.Index(fields=["player", "until"], name="chat_mute_player_idx")]

    def __str__(self) -> str:
        return gettext("%(player)s muted until %(until)s") % {
            "player": self.player_id,
            "until": self.until.isoformat(),
        }
