"""Staff's tournaments: create one (as the API does), end one early, cancel one; the
participants read-only (their scores follow from the games)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from accounts.models import Player
from core.admin import ReadOnlyAdmin
from core.errors import ApplicationError
from tournaments.models import (
    MINUTES,
    TURN_SECONDS,
    Participant,
    Tournament,
    TournamentSchedule,
)
from tournaments.schedule import Rule
from tournaments.services import (
    tournament_cancel,
    tournament_create,
    tournament_end_now,
    tournament_starts_at_check,
)


class TournamentCreateForm(forms.ModelForm[Tournament]):
    minutes = forms.IntegerField(
        label=_("Minutes"), min_value=MINUTES[0], max_value=MINUTES[1], initial=60
    )
    sizes = forms.CharField(
        label=_("Sizes"), initial="2,3,4", help_text=_("Table sizes among 2-5, by commas.")
    )
    turn_seconds = forms.IntegerField(
        label=_("Turn seconds"), min_value=TURN_SECONDS[0], max_value=TURN_SECONDS[1], initial=30
    )

    class Meta:
        model = Tournament
        fields = ("name", "starts_at", "rated", "min_rated_games", "max_players")

    def clean_starts_at(self) -> Any:
        starts_at = self.cleaned_data["starts_at"]
        try:
            tournament_starts_at_check(starts_at)
        except ApplicationError as error:
            raise forms.ValidationError(error.detail) from error
        return starts_at

    def clean_sizes(self) -> list[int]:
        try:
            sizes = [int(part) for part in self.cleaned_data["sizes"].split(",") if part.strip()]
        except ValueError as error:
            raise forms.ValidationError(gettext("Numbers among 2-5, by commas.")) from error
        if not sizes or not set(sizes) <= {2, 3, 4, 5}:
            raise forms.ValidationError(gettext("Numbers among 2-5, by commas."))
        return sizes


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin[Tournament]):
    list_display = ("name", "status", "starts_at", "ends_at", "rated", "created_by")
    list_filter = ("status", "rated")
    search_fields = ("name", "id")
    readonly_fields = (
        "id", "status", "starts_at", "ends_at", "table_sizes", "rated", "rules",
        "min_rated_games", "max_players", "created_by", "created_at", "closed_at",
    )  # fmt: skip
    exclude = ("password",)
    actions = ("end_now", "cancel")
    ordering = ("-starts_at",)

    def get_form(
        self,
        request: HttpRequest,
        obj: Tournament | None = None,
        change: bool = False,
        **kwargs: Any,
    ) -> Any:
        if obj is None:
            kwargs["form"] = TournamentCreateForm
        return super().get_form(request, obj, change, **kwargs)

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        return self.readonly_fields if obj is not None else ()

    def get_exclude(self, request: HttpRequest, obj: Any = None) -> Any:
        return ("password",) if obj is not None else None

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def save_model(self, request: HttpRequest, obj: Tournament, form: Any, change: bool) -> None:
        if change:
            obj.save(update_fields=["name"])
            return
        data = form.cleaned_data
        # The form checked what the service would refuse (sizes, minutes, turn limit), and
        # the start as the API does.
        created = tournament_create(
            by=request.user if isinstance(request.user, Player) else None,
            name=data["name"],
            starts_at=data["starts_at"],
            minutes=data["minutes"],
            table_sizes=data["sizes"],
            rated=data["rated"],
            turn_seconds=data["turn_seconds"],
            min_rated_games=data["min_rated_games"],
            max_players=data["max_players"],
        )
        obj.pk = created.pk

    @admin.action(description=_("End now (games in play finish and count)"))
    def end_now(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> None:
        self._each(request, queryset, tournament_end_now, _("%(tournament)s: ended."))

    @admin.action(description=_("Cancel (no standings)"))
    def cancel(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> None:
        self._each(request, queryset, tournament_cancel, _("%(tournament)s: cancelled."))

    def _each(
        self, request: HttpRequest, queryset: QuerySet[Tournament], act: Any, done: Any
    ) -> None:
        for tournament in queryset:
            try:
                act(tournament_id=tournament.pk)
            except ApplicationError as error:
                self.message_user(request, f"{tournament.name}: {error.detail}", messages.ERROR)
            else:
                self.message_user(request, done % {"tournament": tournament.name})


# What tournaments/schedule.py (no Django) refuses, in the staff member's language.
RULE_ERRORS = {
    "every must be 'hourly' or 'daily'": _("every must be 'hourly' or 'daily'"),
    "minute 0-59, hour 0-23": _("minute 0-59, hour 0-23"),
    "weekdays 0 (Monday) to 6 (Sunday)": _("weekdays 0 (Monday) to 6 (Sunday)"),
}


class ScheduleForm(forms.ModelForm[TournamentSchedule]):
    class Meta:
        model = TournamentSchedule
        fields = (
            "name", "every", "minute", "hour", "weekdays", "minutes", "table_sizes", "rated",
            "turn_seconds", "min_rated_games", "max_players", "active",
        )  # fmt: skip

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        try:
            Rule(
                cleaned.get("every", ""),
                cleaned.get("minute", 0),
                cleaned.get("hour", 0),
                tuple(cleaned.get("weekdays") or ()),
            )
        except (ValueError, TypeError) as error:
            raise forms.ValidationError(str(RULE_ERRORS.get(str(error), error))) from error
        sizes = cleaned.get("table_sizes") or []
        if not sizes or not set(sizes) <= {2, 3, 4, 5}:
            raise forms.ValidationError(
                {"table_sizes": gettext("A list of sizes among 2-5: [2, 3, 4].")}
            )
        return cleaned


@admin.register(TournamentSchedule)
class TournamentScheduleAdmin(admin.ModelAdmin[TournamentSchedule]):
    """Recurring tournaments: beat makes each one's next tournament ahead of its start."""

    form = ScheduleForm
    list_display = ("name", "every", "hour", "minute", "weekdays", "minutes", "active")
    list_filter = ("active", "every")


@admin.register(Participant)
class ParticipantAdmin(ReadOnlyAdmin[Participant]):
    list_display = ("tournament", "player", "score", "games", "firsts", "paused")
    list_select_related = ("tournament", "player")
    search_fields = ("player__display_name", "player__username", "tournament__name")
    list_filter = ("paused",)
