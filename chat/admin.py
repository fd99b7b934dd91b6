"""The moderators' chat pages: reports with the room's snapshot, every message, the mutes. A
message is deleted (hidden for everyone, live) and a player muted by the actions here, through
chat's services (each in the audit log); nothing is edited by hand."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest
from django.template.response import TemplateResponse
from django.utils import timezone
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from accounts.admin import ReasonForm, confirm_action_page
from accounts.models import Player
from chat.models import ChatMessage, ChatMute, ChatReport
from chat.services import chat_delete, chat_mute, chat_reports_review
from core.admin import ReadOnlyAdmin


class MuteForm(forms.Form):
    hours = forms.IntegerField(label=_("Hours"), min_value=1, max_value=24 * 365, initial=24)
    reason = forms.CharField(
        label=_("Reason"), max_length=500, widget=forms.Textarea(attrs={"rows": 3})
    )


def _staff(request: HttpRequest) -> Player | None:
    return request.user if isinstance(request.user, Player) else None


class ChatActions(admin.ModelAdmin[Any]):
    """Delete messages and mute their authors: the two actions of the reports' and the
    messages' pages (`_messages` says which messages the selected rows are)."""

    def _messages(self, queryset: QuerySet[Any]) -> list[ChatMessage]:
        raise NotImplementedError

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    @admin.action(description=_("Delete the messages for everyone…"), permissions=["change"])
    def delete_messages(
        self, request: HttpRequest, queryset: QuerySet[Any]
    ) -> TemplateResponse | None:
        rows = [row for row in self._messages(queryset) if row.deleted_at is None]
        form = ReasonForm(request.POST if "apply" in request.POST else None)
        if "apply" in request.POST and form.is_valid():
            done = sum(
                chat_delete(message=row, by=_staff(request), reason=form.cleaned_data["reason"])
                for row in rows
            )
            self.message_user(
                request,
                ngettext("Deleted %(count)d message(s).", "Deleted %(count)d message(s).", done)
                % {"count": done},
                messages.SUCCESS,
            )
            return None
        return confirm_action_page(
            self,
            request,
            template="admin/chat/delete.html",
            action="delete_messages",
            verb=gettext("Delete"),
            title=gettext("Delete chat messages"),
            objects=rows,
            form=form,
        )

    @admin.action(description=_("Mute the authors…"), permissions=["change"])
    def mute_authors(
        self, request: HttpRequest, queryset: QuerySet[Any]
    ) -> TemplateResponse | None:
        authors = list({row.author_id: row.author for row in self._messages(queryset)}.values())
        form = MuteForm(request.POST if "apply" in request.POST else None)
        if "apply" in request.POST and form.is_valid():
            until = timezone.now() + timedelta(hours=form.cleaned_data["hours"])
            for author in authors:
                chat_mute(
                    player=author,
                    until=until,
                    by=_staff(request),
                    reason=form.cleaned_data["reason"],
                )
            self.message_user(
                request,
                ngettext("Muted %(count)d player(s).", "Muted %(count)d player(s).", len(authors))
                % {"count": len(authors)},
                messages.SUCCESS,
            )
            return None
        return confirm_action_page(
            self,
            request,
            template="admin/chat/mute.html",
            action="mute_authors",
            verb=gettext("Mute"),
            title=gettext("Mute players in chat"),
            objects=authors,
            form=form,
        )


@admin.register(ChatReport)
class ChatReportAdmin(ChatActions):
    list_display = ("created_at", "reported", "reporter", "reason", "game_id", "reviewed_at")
    list_filter = (("reviewed_at", admin.EmptyFieldListFilter),)
    list_select_related = ("reported", "reporter")
    search_fields = ("reported__display_name", "reported__username", "reported__id", "game_id")
    ordering = ("-created_at",)
    readonly_fields = (
        "created_at",
        "reported",
        "reporter",
        "reason",
        "game_id",
        "message",
        "conversation",
        "reviewed_at",
        "reviewed_by",
    )
    fields = readonly_fields
    actions = ("delete_messages", "mute_authors", "mark_reviewed")

    def _messages(self, queryset: QuerySet[Any]) -> list[ChatMessage]:
        ids = queryset.exclude(message=None).values_list("message_id", flat=True)
        return list(ChatMessage.objects.filter(pk__in=ids).select_related("author"))

    @admin.display(description=_("the room then (oldest first)"))
    def conversation(self, report: ChatReport) -> SafeString:
        rows = format_html_join(
            "",
            '<tr style="font-weight: {}"><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>',
            (
                (
                    "bold" if line["reported"] else "normal",
                    line["at"],
                    line["display_name"],
                    line["text"],
                    gettext("deleted") if line["deleted"] else "",
                )
                for line in report.snapshot
            ),
        )
        return format_html(
            '<table data-testid="chat-snapshot"><tr><th>{}</th><th>{}</th><th>{}</th>'
            "<th></th></tr>{}</table>",
            gettext("at"),
            gettext("who"),
            gettext("said"),
            rows,
        )

    @admin.action(description=_("Mark as reviewed"), permissions=["change"])
    def mark_reviewed(self, request: HttpRequest, queryset: QuerySet[ChatReport]) -> None:
        done = chat_reports_review(reports=list(queryset), by=_staff(request))
        self.message_user(
            request,
            ngettext(
                "Marked %(count)d report(s) reviewed.", "Marked %(count)d report(s) reviewed.", done
            )
            % {"count": done},
            messages.SUCCESS,
        )


@admin.register(ChatMessage)
class ChatMessageAdmin(ChatActions):
    list_display = ("created_at", "author", "room", "said", "game_id", "deleted_at")
    list_filter = ("room", ("deleted_at", admin.EmptyFieldListFilter))
    list_select_related = ("author",)
    search_fields = ("author__display_name", "author__username", "author__id", "game__id", "text")
    ordering = ("-created_at",)
    readonly_fields = (
        "created_at",
        "game",
        "room",
        "author",
        "text",
        "phrase",
        "deleted_at",
        "deleted_by",
    )
    fields = readonly_fields
    actions = ("delete_messages", "mute_authors")

    def _messages(self, queryset: QuerySet[Any]) -> list[ChatMessage]:
        return list(queryset.select_related("author"))

    @admin.display(description=_("said"))
    def said(self, message: ChatMessage) -> str:
        return message.text or f"[{message.phrase}]"


@admin.register(ChatMute)
class ChatMuteAdmin(ReadOnlyAdmin[ChatMute]):
    list_display = ("player", "until", "by", "reason", "created_at")
    list_select_related = ("player", "by")
    search_fields = ("player__display_name", "player__username", "player__id")
    ordering = ("-created_at",)
