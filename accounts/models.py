"""Players: guests who play at once, and registered accounts (the same row, upgraded)."""

from __future__ import annotations

import hashlib
import secrets
import uuid
from typing import Any, ClassVar

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser, BaseUserManager, PermissionsMixin
from django.core.validators import RegexValidator
from django.db import models
from django.db.models.functions import Lower
from django.utils import timezone
from django.utils.translation import gettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from accounts.usernames import USERNAME_PATTERN, username_key


class ChatShown(models.TextChoices):
    ALL = "all", _("every message")
    PHRASES = "phrases", _("the fixed phrases only")
    OFF = "off", _("no chat")


class ChallengesFrom(models.TextChoices):
    """Who may challenge the player to a private table (social app; `PATCH /me/`)."""

    EVERYONE = "everyone", _("anyone who does not block them")
    FRIENDS = "friends", _("their friends")
    NOBODY = "nobody", _("nobody")


class PlayerManager(BaseUserManager["Player"]):
    def get_by_natural_key(self, username: str | None) -> Player:
        # The admin's login (ModelBackend) finds staff by the same key as the API's login.
        return self.alias(username_lower=Lower("username")).get(
            username_lower=username_key(username or "")
        )

    def create_user(
        self, username: str | None = None, password: str | None = None, **extra: Any
    ) -> Player:
        extra.setdefault("is_guest", username is None)
        extra.setdefault("display_name", username or "Guest")
        player = self.model(username=username, **extra)
        player.set_password(password)
        player.save(using=self._db)
        if player.cpu_level is None:
            # Its first seed pair, at once: a commitment is shown before any client seed
            # meets it (docs/fairness.md §1).
            SeedPair.fresh(player.pk).save(using=self._db, force_insert=True)
        return player

    def create_superuser(self, username: str, password: str | None = None, **extra: Any) -> Player:
        extra.update(is_staff=True, is_superuser=True, is_guest=False)
        return self.create_user(username, password, **extra)


class Player(AbstractBaseUser, PermissionsMixin):
    id = models.UUIDField(
        primary_key=True, default=uuid.uuid4, editable=False, verbose_name=_("id")
    )
    # Null for guests; unique regardless of case (see Meta).
    username = models.CharField(
        max_length=150,
        unique=True,
        null=True,
        blank=True,
        validators=[RegexValidator(USERNAME_PATTERN, _("3 to 30 of A-Z a-z 0-9 _ . @ + -."))],
        verbose_name=_("username"),
    )
    display_name = models.CharField(max_length=32, verbose_name=_("display name"))
    is_guest = models.BooleanField(default=True, db_index=True, verbose_name=_("is guest"))
    is_staff = models.BooleanField(default=False, verbose_name=_("is staff"))
    is_active = models.BooleanField(default=True, verbose_name=_("is active"))
    date_joined = models.DateTimeField(default=timezone.now, verbose_name=_("date joined"))
    banned_at = models.DateTimeField(
        null=True, blank=True, db_index=True, verbose_name=_("banned at")
    )
    banned_until = models.DateTimeField(null=True, blank=True, verbose_name=_("banned until"))
    ban_reason = models.CharField(max_length=500, blank=True, verbose_name=_("ban reason"))
    banned_by = models.ForeignKey(
        "self",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("banned by"),
    )
    # Set for the rated identity of one CPU level (games.engine.cpu.Level):
    # the player its seats at ranked games are rated as. Such a player never logs in.
    # Null, not empty, for everyone else: the column is unique.
    cpu_level = models.CharField(
        max_length=16, null=True, blank=True, unique=True, verbose_name=_("cpu level")
    )
    # For staff only; never shown to the player.
    staff_notes = models.TextField(blank=True, verbose_name=_("staff notes"))
    # Anonymised at the player's request (accounts.services.player_erase): the row stays, so
    # that the other players' records and ratings keep their opponent.
    erased_at = models.DateTimeField(null=True, blank=True, verbose_name=_("erased at"))
    # The player's friends see them offline whatever sockets they have open (social presence).
    appear_offline = models.BooleanField(default=False, verbose_name=_("appear offline"))
    # What of a game's chat the player is shown (chat app; `PATCH /me/ {"chat"}`).
    chat = models.CharField(
        max_length=8, choices=ChatShown.choices, default=ChatShown.ALL, verbose_name=_("chat")
    )
    # Who may challenge the player (social app; `PATCH /me/ {"challenges_from"}`).
    challenges_from = models.CharField(
        max_length=8,
        choices=ChallengesFrom.choices,
        default=ChallengesFrom.FRIENDS,
        verbose_name=_("challenges from"),
    )

    # A bot account (docs/bots.md): upgraded once from a registered account that never
    # finished a game, for good. It signs in with its bot tokens only, plays the bot ladder
    # (never the human ranked queue) and shows a BOT badge; its owner describes it.
    is_bot = models.BooleanField(default=False, verbose_name=_("is bot"))
    bot_description = models.CharField(
        max_length=500, blank=True, verbose_name=_("bot description")
    )

    # The language of the player's pushes, of their REST answers when a request names none, and
    # of the admin for staff (docs/languages.md; `PATCH /me/ {"language"}`; a guest starts in
    # the language of the request that made them).
    language = models.CharField(
        max_length=8, choices=settings.LANGUAGES, default="en", verbose_name=_("language")
    )

    objects: ClassVar[PlayerManager] = PlayerManager()

    USERNAME_FIELD = "username"
    REQUIRED_FIELDS: ClassVar[list[str]] = []

    class Meta:
        verbose_name = _("player")
        verbose_name_plural = _("players")
        constraints = [
            models.UniqueConstraint(Lower("username"), name="player_username_ci_unique"),
            # A bot is a registered account, and never staff (staff sign in to the admin).
            models.CheckConstraint(
                condition=models.Q(is_bot=False) | models.Q(is_guest=False, is_staff=False),
                name="player_bot_registered_not_staff",
            ),
        ]
        # The search by name (`GET /players/?search=`) has a trigram index of the upper-cased
        # name, made by migration 0009 in SQL: Django 5.2 writes an operator class in an
        # expression index inside parentheses, which PostgreSQL refuses.

    def __str__(self) -> str:
        return self.username or gettext("%(name)s (guest)") % {"name": self.display_name}

    @property
    def is_cpu(self) -> bool:
        return self.cpu_level is not None

    @property
    def is_banned(self) -> bool:
        if self.banned_at is None:
            return False
        return self.banned_until is None or self.banned_until > timezone.now()

    @property
    def ban_message(self) -> str:
        """What a banned player is told."""
        until = f" until {self.banned_until.isoformat()}" if self.banned_until else ""
        reason = f": {self.ban_reason}" if self.ban_reason else "."
        return f"This account is banned{until}{reason}"


class StaffActionKind(models.TextChoices):
    BAN = "ban", pgettext_lazy("staff action", "Ban")
    UNBAN = "unban", pgettext_lazy("staff action", "Unban")
    VOID = "void", pgettext_lazy("staff action", "Void")
    RESOLVE = "resolve", pgettext_lazy("staff action", "Resolve")
    ERASE = "erase", pgettext_lazy("staff action", "Erase")
    CHAT_DELETE = "chat_delete", pgettext_lazy("staff action", "Chat Delete")
    CHAT_MUTE = "chat_mute", pgettext_lazy("staff action", "Chat Mute")
    BOT_TOKENS_REVOKE = "bot_revoke", pgettext_lazy("staff action", "revoke a bot's tokens")


class StaffAction(models.Model):
    """The audit log: who did what to whom, when and why. Written by the services that act,
    never edited (the admin shows it read-only)."""

    at = models.DateTimeField(default=timezone.now, db_index=True, verbose_name=_("at"))
    # Null: done by the system (a task, a command) or by the player themself (erasure).
    actor = models.ForeignKey(
        Player,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("actor"),
    )
    action = models.CharField(
        max_length=16, choices=StaffActionKind.choices, verbose_name=_("action")
    )
    player = models.ForeignKey(
        Player,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="staff_actions",
        verbose_name=_("player"),
    )
    # Games sit above accounts: a plain id, not a foreign key.
    game_id = models.UUIDField(null=True, blank=True, db_index=True, verbose_name=_("game id"))
    reason = models.TextField(blank=True, verbose_name=_("reason"))

    class Meta:
        verbose_name = _("staff action")
        verbose_name_plural = _("staff actions")
        ordering = ["-at", "-id"]

    def __str__(self) -> str:
        return gettext("%(action)s by %(actor)s at %(at)s") % {
            "action": self.action,
            "actor": self.actor or gettext("system"),
            "at": f"{self.at:%Y-%m-%d %H:%M}",
        }


class AuthToken(models.Model):
    """One bearer token per login or device. Only a SHA-256 of the token is stored, so a leak
    of this table gives no usable tokens; a token is random enough that no salt is needed."""

    player = models.ForeignKey(
        Player, on_delete=models.CASCADE, related_name="auth_tokens", verbose_name=_("player")
    )
    key_hash = models.CharField(
        max_length=64, unique=True, editable=False, verbose_name=_("key hash")
    )
    created_at = models.DateTimeField(
        default=timezone.now, editable=False, verbose_name=_("created at")
    )
    last_used_at = models.DateTimeField(default=timezone.now, verbose_name=_("last used at"))
    # Slides forward with use (accounts.services.auth_token_touch).
    expires_at = models.DateTimeField(db_index=True, verbose_name=_("expires at"))
    user_agent = models.CharField(max_length=200, blank=True, verbose_name=_("user agent"))

    class Meta:
        verbose_name = _("auth token")
        verbose_name_plural = _("auth tokens")

    def __str__(self) -> str:
        return gettext("token %(id)s of %(player)s") % {"id": self.pk, "player": self.player_id}

    @staticmethod
    def hash(raw: str) -> str:
        return hashlib.sha256(raw.encode()).hexdigest()


class BotToken(models.Model):
    """A bot's API token (docs/bots.md): named by its owner, shown once, valid until revoked.
    As with `AuthToken`, only a SHA-256 of it is stored."""

    # Every bot token starts with this, so that authentication looks in the right table.
    PREFIX = "ybot_"

    player = models.ForeignKey(
        Player, on_delete=models.CASCADE, related_name="bot_tokens", verbose_name=_("player")
    )
    name = models.CharField(max_length=64, verbose_name=_("name"))
    key_hash = models.CharField(
        max_length=64, unique=True, editable=False, verbose_name=_("key hash")
    )
    created_at = models.DateTimeField(
        default=timezone.now, editable=False, verbose_name=_("created at")
    )
    last_used_at = models.DateTimeField(null=True, blank=True, verbose_name=_("last used at"))

    class Meta:
        verbose_name = _("bot token")
        verbose_name_plural = _("bot tokens")
        ordering = ["created_at", "id"]

    def __str__(self) -> str:
        return gettext("bot token %(name)s of %(player)s") % {
            "name": repr(self.name),
            "player": self.player_id,
        }

    @classmethod
    def new_raw(cls) -> str:
        return cls.PREFIX + secrets.token_urlsafe(32)

    @staticmethod
    def hash(raw: str) -> str:
        return hashlib.sha256(raw.encode()).hexdigest()


class OffenceKind(models.TextChoices):
    LEFT = "left", _("left an active ranked game")
    IDLE = "idle", _("away for turns in a row, never came back")


class Offence(models.Model):
    """A fair-play offence in one ranked game (docs/api.md, Fair play). The game is named by a lazy
    reference, as ratings name theirs: accounts sit below games."""

    id = models.BigAutoField(primary_key=True, verbose_name=_("id"))
    player = models.ForeignKey(
        Player, on_delete=models.CASCADE, related_name="offences", verbose_name=_("player")
    )
    game = models.ForeignKey(
        "games.Game", on_delete=models.CASCADE, related_name="+", verbose_name=_("game")
    )
    kind = models.CharField(max_length=8, choices=OffenceKind.choices, verbose_name=_("kind"))
    at = models.DateTimeField(default=timezone.now, verbose_name=_("at"))

    class Meta:
        verbose_name = _("offence")
        verbose_name_plural = _("offences")
        constraints = [
            # One offence per game at most: leaving while away is one offence.
            models.UniqueConstraint(fields=["player", "game"], name="offence_once_per_game"),
        ]
        indexes = [models.Index(fields=["player", "at"], name="offence_player_at_idx")]

    def __str__(self) -> str:
        return gettext("%(player)s %(kind)s in %(game)s") % {
            "player": self.player_id,
            "kind": self.kind,
            "game": self.game_id,
        }


class QueueBan(models.Model):
    """A ban from the ranked queue that an offence earned, until `until` (or lifted by staff)."""

    id = models.BigAutoField(primary_key=True, verbose_name=_("id"))
    player = models.ForeignKey(
        Player, on_delete=models.CASCADE, related_name="queue_bans", verbose_name=_("player")
    )
    offence = models.OneToOneField(
        Offence, on_delete=models.CASCADE, related_name="queue_ban", verbose_name=_("offence")
    )
    level = models.PositiveSmallIntegerField(
        help_text=_("Offences counted, less those forgiven."), verbose_name=_("level")
    )
    created_at = models.DateTimeField(default=timezone.now, verbose_name=_("created at"))
    until = models.DateTimeField(verbose_name=_("until"))
    lifted_at = models.DateTimeField(null=True, blank=True, verbose_name=_("lifted at"))
    lifted_by = models.ForeignKey(
        Player,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("lifted by"),
    )

    class Meta:
        verbose_name = _("queue ban")
        verbose_name_plural = _("queue bans")
        indexes = [models.Index(fields=["player", "until"], name="queue_ban_player_until_idx")]

    def __str__(self) -> str:
        return gettext("queue ban of %(player)s until %(until)s") % {
            "player": self.player_id,
            "until": self.until.isoformat(),
        }

    @property
    def in_force(self) -> bool:
        return self.lifted_at is None and self.until > timezone.now()


SEED_BYTES = 32


class SeedPair(models.Model):
    """A human player's current seed pair (docs/fairness.md §1): a secret server seed, shown
    only as its commitment until a game that took it ends, and the player's client seed. The
    next game to start with the player seated takes it, and a new pair replaces it at once.
    Never in an admin page, a payload or a log: what is shown is ``commitment``."""

    player = models.OneToOneField(
        Player, primary_key=True, on_delete=models.CASCADE, related_name="seed_pair"
    )
    server_seed = models.BinaryField(max_length=32)
    client_seed = models.CharField(max_length=64)
    created_at = models.DateTimeField(default=timezone.now)

    def __str__(self) -> str:
        return f"seed pair of {self.player_id}"

    @classmethod
    def fresh(cls, player_id: uuid.UUID) -> SeedPair:
        """A new pair (unsaved): a server seed from the operating system's CSPRNG, and a first
        client seed of 16 random hex digits."""
        return cls(
            player_id=player_id,
            server_seed=secrets.token_bytes(SEED_BYTES),
            client_seed=secrets.token_hex(8),
        )

    @property
    def commitment(self) -> str:
        return hashlib.sha256(bytes(self.server_seed)).hexdigest()
