"""Staff tools: find games, read their log and record, void a game (ratings rolled back)."""

from __future__ import annotations

import json
from typing import Any

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.urls import URLPattern, path, reverse
from django.utils.html import format_html

from games.models import Event, Game, GameStatus, Seat
from games.selectors import game_record
from games.services import staff
from games.table import game_seats


class SeatInline(admin.TabularInline[Seat, Game]):
    model = Seat
    extra = 0
    can_delete = False
    fields = ("seat", "player", "is_cpu", "away", "left", "score", "eliminated", "place", "live")
    readonly_fields = fields

    def has_add_permission(self, request: HttpRequest, obj: Game | None = None) -> bool:
        return False


class EventInline(admin.TabularInline[Event, Game]):
    """The log, read-only: it is the source of the record and must never be edited."""

    model = Event
    extra = 0
    can_delete = False
    fields = ("seq", "type", "payload", "created_at")
    readonly_fields = fields
    ordering = ("id",)
    max_num = 0

    def has_add_permission(self, request: HttpRequest, obj: Game | None = None) -> bool:
        return False


@admin.register(Game)
class GameAdmin(admin.ModelAdmin[Game]):
    list_display = ("id", "status", "ranked", "max_players", "seq", "created_at", "finished_at")
    list_filter = ("status", "ranked")
    search_fields = ("id", "seats__player__username", "seats__player__display_name")
    readonly_fields = (
        "id",
        "status",
        "ranked",
        "rules",
        "max_players",
        "host",
        "invite_code",
        "seq",
        "turn_deadline",
        "created_at",
        "started_at",
        "finished_at",
        "rated_at",
        "record_link",
    )
    exclude = ("state",)  # the live hands and stock: not for reading over a player's shoulder
    inlines = (SeatInline, EventInline)
    actions = ("void_games",)
    date_hierarchy = "created_at"

    def get_queryset(self, request: HttpRequest) -> QuerySet[Game]:
        return super().get_queryset(request).distinct()

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    @admin.display(description="record")
    def record_link(self, game: Game) -> str:
        url = reverse("admin:games_game_record", args=[game.pk])
        return format_html('<a href="{}">download yaniv-record/1</a>', url)

    def get_urls(self) -> list[URLPattern]:
        record = path(
            "<uuid:game_id>/record/",
            self.admin_site.admin_view(self.record_view),
            name="games_game_record",
        )
        return [record, *super().get_urls()]

    def record_view(self, request: HttpRequest, game_id: Any) -> HttpResponse:
        game = get_object_or_404(Game, pk=game_id)
        body = json.dumps(game_record(game, game_seats(game)), indent=1)
        response = HttpResponse(body, content_type="application/json")
        response["Content-Disposition"] = f'attachment; filename="yaniv-{game.pk}.json"'
        return response

    @admin.action(description="Void the selected games (ratings are rolled back)")
    def void_games(self, request: HttpRequest, queryset: QuerySet[Game]) -> None:
        voided = 0
        for game in queryset.exclude(status=GameStatus.ABORTED):
            staff.game_void(game_id=game.pk, reason=f"voided by {request.user}")
            voided += 1
        self.message_user(request, f"Voided {voided} game(s).", messages.SUCCESS)
