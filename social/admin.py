"""Staff see friendships, requests, blocks and challenges, read-only: they are the players' own."""

from __future__ import annotations

from django.contrib import admin

from core.admin import ReadOnlyAdmin
from social.models import Block, Challenge, FriendRequest, Friendship


@admin.register(Friendship)
class FriendshipAdmin(ReadOnlyAdmin[Friendship]):
    list_display = ("player", "friend", "since")
    search_fields = ("player__username", "player__display_name", "player__id")
    list_select_related = ("player", "friend")
    raw_id_fields = ("player", "friend")
    ordering = ("-since",)


@admin.register(FriendRequest)
class FriendRequestAdmin(ReadOnlyAdmin[FriendRequest]):
    list_display = ("sender", "receiver", "created_at", "closed_at")
    search_fields = ("sender__username", "sender__id", "receiver__username", "receiver__id")
    list_select_related = ("sender", "receiver")
    raw_id_fields = ("sender", "receiver")
    ordering = ("-created_at",)


@admin.register(Block)
class BlockAdmin(ReadOnlyAdmin[Block]):
    list_display = ("blocker", "blocked", "created_at")
    search_fields = ("blocker__username", "blocker__id", "blocked__username", "blocked__id")
    list_select_related = ("blocker", "blocked")
    raw_id_fields = ("blocker", "blocked")
    ordering = ("-created_at",)


@admin.register(Challenge)
class ChallengeAdmin(ReadOnlyAdmin[Challenge]):
    list_display = ("challenger", "challenged", "status", "max_players", "created_at", "game")
    list_filter = ("status",)
    search_fields = (
        "challenger__username",
        "challenger__id",
        "challenged__username",
        "challenged__id",
    )
    list_select_related = ("challenger", "challenged")
    raw_id_fields = ("challenger", "challenged", "game")
    ordering = ("-created_at",)
