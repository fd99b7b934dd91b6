"""Staff tools: the live queue (who waits, for what, how long), and cancelling tickets."""

from __future__ import annotations

from datetime import timedelta

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from matchmaking import services
from matchmaking.models import Ticket


@admin.register(Ticket)
class TicketAdmin(admin.ModelAdmin[Ticket]):
    list_display = (
        "id", "player", "status", "pool", "player_counts", "created_at", "wait", "game",
    )  # fmt: skip
    list_filter = ("status", "pool")
    list_select_related = ("player",)
    search_fields = ("id", "player__username", "player__display_name")
    ordering = ("created_at",)
    readonly_fields = (
        "id", "player", "status", "pool", "player_counts", "created_at", "ended_at", "game",
    )  # fmt: skip
    actions = ("cancel_tickets",)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # players queue themselves

    def has_delete_permission(self, request: HttpRequest, obj: Ticket | None = None) -> bool:
        return False  # cancel instead: the player is told, and the history stays

    @admin.display(description=_("wait"))
    def wait(self, ticket: Ticket) -> timedelta:
        """How long the ticket has waited, or waited before it ended."""
        end = ticket.ended_at or timezone.now()
        return timedelta(seconds=round((end - ticket.created_at).total_seconds()))

    @admin.action(description=_("Cancel the selected searching tickets"))
    def cancel_tickets(self, request: HttpRequest, queryset: QuerySet[Ticket]) -> None:
        cancelled = services.tickets_cancel(ticket_ids=list(queryset.values_list("pk", flat=True)))
        self.message_user(
            request,
            ngettext("Cancelled %(count)d ticket(s).", "Cancelled %(count)d ticket(s).", cancelled)
            % {"count": cancelled},
            messages.SUCCESS,
        )
