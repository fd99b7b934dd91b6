"""Staff's view of seasons: rename a season, move the current one's end, or end it now; the
frozen standings read-only (a finished season's board never changes)."""

from __future__ import annotations

from typing import Any

from celery import current_app
from django import forms
from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from core.admin import ReadOnlyAdmin
from core.errors import ApplicationError
from seasons.models import Season, SeasonStanding, SeasonStatus
from seasons.services import season_end_check, season_end_now, season_update


class SeasonForm(forms.ModelForm[Season]):
    class Meta:
        model = Season
        fields = ("name", "ends_at")

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        try:
            # Checked again, under the ratings lock, when it is saved.
            if self.instance.pk and cleaned.get("ends_at") != self.instance.ends_at:
                season_end_check(self.instance, cleaned.get("ends_at"))
        except ApplicationError as error:
            raise forms.ValidationError({"ends_at": error.detail}) from error
        return cleaned


@admin.register(Season)
class SeasonAdmin(admin.ModelAdmin[Season]):
    form = SeasonForm
    list_display = ("number", "name", "starts_at", "ends_at", "status", "placement_games")
    readonly_fields = ("number", "starts_at", "status", "sigma_bump", "placement_games")
    ordering = ("-number",)
    actions = ("end_now",)

    def get_readonly_fields(self, request: HttpRequest, obj: Season | None = None) -> Any:
        fields = tuple(self.readonly_fields)
        if obj is not None and obj.status == SeasonStatus.FINISHED:
            fields += ("ends_at",)
        return fields

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # a season opens when the one before it ends

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def save_model(self, request: HttpRequest, obj: Season, form: Any, change: bool) -> None:
        season_update(obj, name=obj.name, ends_at=obj.ends_at)

    @admin.action(description=_("End now (the next season opens within a minute)"))
    def end_now(self, request: HttpRequest, queryset: QuerySet[Season]) -> None:
        current = queryset.filter(status=SeasonStatus.CURRENT).first()
        if current is None:
            self.message_user(request, gettext("Only the current season can end."), messages.ERROR)
            return
        season_end_now(current)
        # The rollover is games' (it rates the season's last games first): sent by name.
        current_app.send_task("games.tasks.seasons_roll_over")
        self.message_user(
            request,
            gettext("%(season)s has ended; the next season opens within a minute.")
            % {"season": current.name},
        )


@admin.register(SeasonStanding)
class SeasonStandingAdmin(ReadOnlyAdmin[SeasonStanding]):
    list_display = ("season", "rank", "player", "games", "ordinal", "tier")
    list_filter = ("season", "tier")
    list_select_related = ("player", "season")
    ordering = ("-season", "rank")
    search_fields = ("player__username", "player__display_name", "player__id")
