"""Staff tools for players: find them, ban and unban them (with a reason), erase them, keep
notes, see (and revoke) their sessions; and the audit log of every staff action, read-only.

The player page moderators use is composed above (moderation/admin.py adds the rating, games
and reports, which accounts cannot read); offences and queue bans go in as inlines here."""

from __future__ import annotations

import uuid
from datetime import timedelta
from typing import Any

from django import forms
from django.conf import settings
from django.contrib import admin, messages
from django.contrib.admin import helpers
from django.db.models import Q, QuerySet
from django.http import HttpRequest, HttpResponse
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext, ngettext_lazy, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from accounts.models import AuthToken, BotToken, Offence, Player, QueueBan, StaffAction
from accounts.services import (
    bot_tokens_revoke_all,
    player_ban,
    player_erase,
    player_unban,
    queue_ban_lift,
)
from accounts.usernames import username_key
from core.admin import ReadOnlyAdmin


class BanForm(forms.Form):
    reason = forms.CharField(
        label=_("Reason"), max_length=500, widget=forms.Textarea(attrs={"rows": 3})
    )
    until = forms.DateTimeField(
        label=_("Until"),
        required=False,
        help_text=_("UTC, e.g. 2030-01-31 18:00. Empty: banned for good."),
    )

    def clean_until(self) -> Any:
        until = self.cleaned_data["until"]
        if until is not None and until <= timezone.now():
            raise forms.ValidationError(_("A ban must end in the future."))
        return until


def confirm_action_page(
    model_admin: admin.ModelAdmin[Any],
    request: HttpRequest,
    *,
    template: str,
    action: str,
    verb: str,
    title: str,
    objects: Any,
    form: forms.Form,
) -> TemplateResponse:
    """The page an action shows before it acts (templates extend admin/confirm_action.html):
    the rows it will act on, its form, and a submit named `apply` that posts them back."""
    opts = model_admin.model._meta
    context = {
        **model_admin.admin_site.each_context(request),
        "title": title,
        "opts": opts,
        "changelist_url": reverse(f"admin:{opts.app_label}_{opts.model_name}_changelist"),
        "objects": objects,
        "form": form,
        "action": action,
        "verb": verb,
        "action_checkbox_name": helpers.ACTION_CHECKBOX_NAME,
    }
    return TemplateResponse(request, template, context)


class ReasonForm(forms.Form):
    reason = forms.CharField(
        label=_("Reason"), max_length=500, widget=forms.Textarea(attrs={"rows": 3})
    )


BANNED = ngettext_lazy("Banned %(count)d player(s).", "Banned %(count)d player(s).", "count")

# The actions that ask for a reason: their button, their page's title, what they report.
REASON_ACTIONS: dict[str, tuple[Any, Any, Any]] = {
    "unban": (
        _("Unban"),
        _("Unban players"),
        ngettext_lazy("Unban: %(count)d player(s).", "Unban: %(count)d player(s).", "count"),
    ),
    "erase": (
        _("Erase"),
        _("Erase players"),
        ngettext_lazy("Erase: %(count)d player(s).", "Erase: %(count)d player(s).", "count"),
    ),
    "revoke_bot_tokens": (
        _("Revoke bot tokens"),
        _("Revoke bot tokens players"),
        ngettext_lazy(
            "Revoke bot tokens: %(count)d player(s).",
            "Revoke bot tokens: %(count)d player(s).",
            "count",
        ),
    ),
}


class BannedFilter(admin.SimpleListFilter):
    title = _("banned")
    parameter_name = "banned"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, Any]]:
        return [("yes", _("Yes")), ("no", _("No"))]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> QuerySet[Any]:
        banned = Q(banned_at__isnull=False) & (
            Q(banned_until__isnull=True) | Q(banned_until__gt=timezone.now())
        )
        if self.value() == "yes":
            return queryset.filter(banned)
        if self.value() == "no":
            return queryset.exclude(banned)
        return queryset


class AuthTokenInline(admin.TabularInline[AuthToken, Player]):
    """A player's sessions; deleting one revokes it. Only metadata: never the token's hash."""

    model = AuthToken
    fields = ("created_at", "last_used_at", "expires_at", "user_agent")
    readonly_fields = fields
    extra = 0

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class BotTokenInline(admin.TabularInline[BotToken, Player]):
    """A bot's tokens; deleting one revokes it. Only metadata: never the token's hash."""

    model = BotToken
    fields = ("name", "created_at", "last_used_at")
    readonly_fields = fields
    extra = 0
    verbose_name = _("bot token")

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin[Player]):
    list_display = ("display_name", "username", "id", "is_guest", "is_bot", "is_staff", "banned")
    list_filter = ("is_guest", "is_bot", BannedFilter, "is_staff")
    search_fields = ("username", "display_name")
    search_help_text = _("Username, display name, or a player id.")
    ordering = ("-date_joined",)
    readonly_fields = (
        "id",
        "username",
        "is_guest",
        "is_bot",
        "date_joined",
        "last_login",
        "erased_at",
        "banned_at",
        "banned_until",
        "ban_reason",
        "banned_by",
        "audit",
    )
    filter_horizontal = ("groups",)
    inlines = (AuthTokenInline, BotTokenInline)
    actions = ("ban", "unban", "erase", "revoke_bot_tokens")

    def get_fieldsets(self, request: HttpRequest, obj: Player | None = None) -> Any:
        fieldsets: list[tuple[Any, dict[str, Any]]] = [
            (
                None,
                {"fields": ("id", "username", "display_name", "language", "is_guest", "erased_at")},
            ),
            *self.extra_fieldsets,
            # A bot's description is its owner's words on a public page: staff may edit it.
            (_("Bot"), {"fields": ("is_bot", "bot_description")}),
            (_("Dates"), {"fields": ("date_joined", "last_login")}),
            # Read-only: bans go through the actions, so that subscribers hear of them.
            (
                pgettext_lazy("fieldset", "Ban"),
                {"fields": ("banned_at", "banned_until", "ban_reason", "banned_by")},
            ),
            (_("For staff"), {"fields": ("staff_notes", "audit")}),
        ]
        # Who may use the admin is a superuser's decision; a guest has nothing to decide.
        if request.user.is_superuser and obj is not None and not obj.is_guest:
            permissions = ("is_active", "is_staff", "is_superuser", "groups")
            fieldsets.append((_("Staff access"), {"fields": permissions}))
        return fieldsets

    # Fieldsets the composed player page (moderation/admin.py) adds after the first.
    extra_fieldsets: tuple[tuple[Any, dict[str, Any]], ...] = ()

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # players sign up through the API

    def has_delete_permission(self, request: HttpRequest, obj: Player | None = None) -> bool:
        return False  # their games hold them: an account is erased (anonymised), not deleted

    @admin.display(description=_("staff actions"))
    def audit(self, player: Player) -> str:
        actions = StaffAction.objects.filter(player=player).select_related("actor")[:20]
        return (
            "\n".join(
                _("%(at)s %(action)s by %(actor)s: %(reason)s")
                % {
                    "at": f"{a.at:%Y-%m-%d %H:%M}",
                    "action": a.action,
                    "actor": a.actor or _("system"),
                    "reason": a.reason,
                }
                for a in actions
            )
            or "—"
        )

    @admin.display(description=_("banned"), boolean=True)
    def banned(self, player: Player) -> bool:
        return player.is_banned

    def get_search_results(
        self, request: HttpRequest, queryset: QuerySet[Player], search_term: str
    ) -> tuple[QuerySet[Player], bool]:
        results, may_have_duplicates = super().get_search_results(request, queryset, search_term)
        try:
            player_id = uuid.UUID(search_term.strip())
        except ValueError:
            return results, may_have_duplicates
        return results | queryset.filter(pk=player_id), may_have_duplicates

    @admin.action(description=_("Ban selected players…"), permissions=["change"])
    def ban(self, request: HttpRequest, queryset: QuerySet[Player]) -> TemplateResponse | None:
        by = request.user if isinstance(request.user, Player) else None
        players = queryset if by is None else queryset.exclude(pk=by.pk)
        if "apply" in request.POST:
            form = BanForm(request.POST)
            if form.is_valid():
                for player in players:
                    player_ban(player=player, by=by, **form.cleaned_data)
                self.message_user(
                    request,
                    BANNED % {"count": len(players)},
                    messages.SUCCESS,
                )
                return None
        else:
            form = BanForm()
        return confirm_action_page(
            self,
            request,
            template="admin/accounts/player/ban.html",
            action="ban",
            verb=gettext("Ban"),
            title=gettext("Ban players"),
            objects=players,
            form=form,
        )

    @admin.action(description=_("Unban selected players…"), permissions=["change"])
    def unban(self, request: HttpRequest, queryset: QuerySet[Player]) -> TemplateResponse | None:
        return self._with_reason(request, queryset, "unban", player_unban)

    @admin.action(description=_("Erase selected players (anonymise)…"), permissions=["change"])
    def erase(self, request: HttpRequest, queryset: QuerySet[Player]) -> TemplateResponse | None:
        return self._with_reason(request, queryset.exclude(is_staff=True), "erase", player_erase)

    @admin.action(description=_("Revoke the tokens of selected bots…"), permissions=["change"])
    def revoke_bot_tokens(
        self, request: HttpRequest, queryset: QuerySet[Player]
    ) -> TemplateResponse | None:
        # To suspend a bot, ban it: its tokens are refused while the ban lasts, and kept.
        return self._with_reason(
            request,
            queryset.filter(is_bot=True),
            "revoke_bot_tokens",
            bot_tokens_revoke_all,
        )

    def _with_reason(
        self, request: HttpRequest, players: QuerySet[Player], action: str, do: Any
    ) -> TemplateResponse | None:
        """An action that asks for a reason first (the audit log keeps it)."""
        verb, title, done = REASON_ACTIONS[action]
        by = request.user if isinstance(request.user, Player) else None
        if "apply" in request.POST:
            form = ReasonForm(request.POST)
            if form.is_valid():
                for player in players:
                    do(player=player, by=by, reason=form.cleaned_data["reason"])
                self.message_user(request, done % {"count": len(players)}, messages.SUCCESS)
                return None
        else:
            form = ReasonForm()
        return confirm_action_page(
            self,
            request,
            template="admin/accounts/player/reason.html",
            action=action,
            verb=verb,
            title=title,
            objects=players,
            form=form,
        )


@admin.register(StaffAction)
class StaffActionAdmin(ReadOnlyAdmin[StaffAction]):
    """The audit log: read-only for everyone, superusers included."""

    list_display = ("at", "action", "actor", "player", "game_id", "reason")
    list_filter = ("action",)
    list_select_related = ("actor", "player")
    search_fields = ("actor__username", "player__display_name", "player__id", "game_id", "reason")
    date_hierarchy = "at"


# Fair play: offences and queue bans (docs/api.md, Fair play), their own pages ------------------


@admin.register(Offence)
class OffenceAdmin(admin.ModelAdmin[Offence]):
    """What each player did in which ranked game; recorded by the server, read-only here."""

    list_display = ("at", "player", "kind", "game")
    list_filter = ("kind",)
    search_fields = ("player__username", "player__display_name")
    list_select_related = ("player",)
    readonly_fields = ("player", "game", "kind", "at")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(QueueBan)
class QueueBanAdmin(admin.ModelAdmin[QueueBan]):
    """Bans from the ranked queue; staff lift one with the action (the offence stays)."""

    list_display = ("player", "until", "level", "in_force", "lifted_at", "lifted_by")
    search_fields = ("player__username", "player__display_name")
    list_select_related = ("player", "lifted_by")
    readonly_fields = (
        "player",
        "offence",
        "level",
        "created_at",
        "until",
        "lifted_at",
        "lifted_by",
    )
    actions = ("lift",)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    @admin.display(description=_("in force"), boolean=True)
    def in_force(self, ban: QueueBan) -> bool:
        return ban.in_force

    @admin.action(description=_("Lift selected queue bans"), permissions=["change"])
    def lift(self, request: HttpRequest, queryset: QuerySet[QueueBan]) -> None:
        by = request.user if isinstance(request.user, Player) else None
        for ban in queryset:
            queue_ban_lift(ban=ban, by=by)
        self.message_user(
            request,
            ngettext_lazy(
                "Lifted %(count)d queue ban(s).", "Lifted %(count)d queue ban(s).", "count"
            )
            % {"count": len(queryset)},
            messages.SUCCESS,
        )


def lockout_username(request: HttpRequest, credentials: dict[str, Any] | None) -> str | None:
    """The name django-axes counts an admin login under (AXES_USERNAME_CALLABLE): the account's
    key, so that "Root" and " root" are the same account's failures, as they are its login."""
    raw = (credentials or {}).get("username", request.POST.get("username"))
    return username_key(raw) if isinstance(raw, str) else None


def lockout_response(
    request: HttpRequest, original_response: HttpResponse | None, credentials: Any
) -> HttpResponse:
    """What a locked-out admin login gets (AXES_LOCKOUT_CALLABLE): 429 and a page that says
    why, for how long, and how to get unlocked sooner."""
    cool_off: timedelta = settings.AXES_COOLOFF_TIME
    context = {
        **admin.site.each_context(request),
        "title": _("Too many failed logins"),
        "failure_limit": settings.AXES_FAILURE_LIMIT,
        "cool_off_minutes": f"{cool_off.total_seconds() / 60:g}",
    }
    response = TemplateResponse(request, "admin/accounts/lockout.html", context, status=429)
    response["Retry-After"] = str(int(cool_off.total_seconds()))
    return response.render()
