"""Staff views of ratings, read-only: every value follows from the rated games (voiding a game
rolls its ratings back; `manage.py recompute_ratings --write` repairs anything else)."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from core.admin import ReadOnlyAdmin
from ratings.models import Rating, RatingChange


def _two_places(field: str, label: Any) -> Any:
    """A list column showing a float field to two decimals (the stored value has sixteen)."""

    @admin.display(description=label, ordering=field)
    def show(obj: Any) -> str:
        return f"{getattr(obj, field):.2f}"

    return show


@admin.register(Rating)
class RatingAdmin(ReadOnlyAdmin[Rating]):
    list_display = (
        "player",
        _two_places("ordinal", _("ordinal")),
        _two_places("mu", _("mu")),
        _two_places("sigma", _("sigma")),
        "games",
        "season_games",
    )
    list_select_related = ("player",)
    ordering = ("-ordinal",)
    search_fields = ("player__username", "player__display_name", "player__id")


@admin.register(RatingChange)
class RatingChangeAdmin(ReadOnlyAdmin[RatingChange]):
    list_display = (
        "at",
        "player",
        "kind",
        "game",
        "season",
        "place",
        _two_places("mu_before", _("mu before")),
        _two_places("mu", _("mu")),
        _two_places("sigma", _("sigma")),
    )
    list_select_related = ("player", "game")
    list_filter = ("kind",)
    ordering = ("-at",)
    search_fields = ("player__username", "player__display_name", "game__id")
    date_hierarchy = "at"
