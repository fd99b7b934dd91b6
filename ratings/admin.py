"""Staff views of ratings, read-only: every value follows from the rated games (voiding a game
rolls its ratings back; `manage.py recompute_ratings --write` repairs anything else)."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from ratings.models import Rating, RatingChange


class _ReadOnly:
    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Rating)
class RatingAdmin(_ReadOnly, admin.ModelAdmin[Rating]):
    list_display = ("player", "ordinal", "mu", "sigma", "games")
    list_select_related = ("player",)
    ordering = ("-ordinal",)
    search_fields = ("player__username", "player__display_name", "player__id")


@admin.register(RatingChange)
class RatingChangeAdmin(_ReadOnly, admin.ModelAdmin[RatingChange]):
    list_display = ("at", "player", "game", "place", "mu_before", "mu", "sigma")
    list_select_related = ("player", "game")
    ordering = ("-at",)
    search_fields = ("player__username", "player__display_name", "game__id")
    date_hierarchy = "at"
