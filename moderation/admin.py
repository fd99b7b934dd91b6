"""The moderators' admin: the queue of reports, and the player page composed with what
accounts cannot read (rating, games, reports about them)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django import forms
from django.conf import settings
from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils import timezone
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from accounts.admin import PlayerAdmin, confirm_action_page
from accounts.models import Player
from core.errors import ApplicationError
from games.models import Seat
from moderation.models import Report, ReportStatus
from moderation.services import report_resolve
from ratings.models import Rating
from ratings.payloads import shown_skill


class ResolveForm(forms.Form):
    resolution = forms.ChoiceField(
        label=_("Resolution"),
        choices=[
            (ReportStatus.DISMISSED, _("Dismiss")),
            (ReportStatus.WARNED, _("Warn the reported player")),
            (ReportStatus.BANNED, _("Ban the reported player")),
        ],
        widget=forms.RadioSelect,
    )
    note = forms.CharField(
        label=_("Note"),
        max_length=500,
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text=_("Why: kept in the audit log (and, for a ban, told to the banned player)."),
    )
    ban_hours = forms.IntegerField(
        label=_("Ban hours"),
        required=False,
        min_value=1,
        help_text=_("For a ban: how many hours. Empty: for good."),
    )


class StatusFilter(admin.SimpleListFilter):
    """The queue: open reports unless another status (or all) is chosen."""

    title = _("status")
    parameter_name = "status"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, Any]]:
        return [*((s.value, s.label) for s in ReportStatus), ("all", _("All"))]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> QuerySet[Any]:
        status = self.value() or ReportStatus.OPEN
        return queryset if status == "all" else queryset.filter(status=status)

    def choices(self, changelist: Any) -> Any:
        current = self.value() or ReportStatus.OPEN
        for lookup, title in self.lookup_choices:
            yield {
                "selected": current == lookup,
                "query_string": changelist.get_query_string({self.parameter_name: lookup}),
                "display": title,
            }


@admin.register(Report)
class ReportAdmin(admin.ModelAdmin[Report]):
    list_display = ("id", "created_at", "reason", "reported", "game_link", "reporter", "status")
    list_filter = (StatusFilter, "reason")
    list_select_related = ("reported", "reporter")
    search_fields = ("reported__display_name", "reported__username", "reported__id", "game__id")
    ordering = ("created_at",)
    readonly_fields = (
        "game_link",
        "seat",
        "reporter",
        "reported",
        "reason",
        "text",
        "created_at",
        "status",
        "resolved_at",
        "resolved_by",
        "resolution_note",
    )
    fields = readonly_fields
    actions = ("resolve",)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    @admin.display(description=_("game"))
    def game_link(self, report: Report) -> SafeString:
        url = reverse("admin:games_game_change", args=[report.game_id])
        return format_html('<a href="{}">{}</a>', url, str(report.game_id)[:8])

    @admin.action(description=_("Resolve the selected reports…"), permissions=["change"])
    def resolve(self, request: HttpRequest, queryset: QuerySet[Report]) -> TemplateResponse | None:
        reports = list(queryset.filter(status=ReportStatus.OPEN).select_related("reported"))
        by = request.user if isinstance(request.user, Player) else None
        if "apply" in request.POST:
            form = ResolveForm(request.POST)
            if form.is_valid():
                hours = form.cleaned_data["ban_hours"]
                until = timezone.now() + timedelta(hours=hours) if hours else None
                done = 0
                for report in reports:
                    try:
                        report_resolve(
                            report=report,
                            by=by,
                            status=ReportStatus(form.cleaned_data["resolution"]),
                            note=form.cleaned_data["note"],
                            ban_until=until,
                        )
                    except ApplicationError as error:
                        self.message_user(request, f"{report}: {error.detail}", messages.WARNING)
                    else:
                        done += 1
                self.message_user(
                    request,
                    ngettext("Resolved %(count)d report(s).", "Resolved %(count)d report(s).", done)
                    % {"count": done},
                    messages.SUCCESS,
                )
                return None
        else:
            form = ResolveForm()
        return confirm_action_page(
            self,
            request,
            template="admin/moderation/report/resolve.html",
            action="resolve",
            verb=gettext("Resolve"),
            title=gettext("Resolve reports"),
            objects=reports,
            form=form,
        )


class ModerationPlayerAdmin(PlayerAdmin):
    """accounts' player page, with the rating, games and reports beside it."""

    extra_fieldsets = ((_("Play"), {"fields": ("rating_summary", "games", "reports")}),)

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        return (*super().get_readonly_fields(request, obj), "rating_summary", "games", "reports")

    @admin.display(description=_("rating"))
    def rating_summary(self, player: Player) -> str:
        row = Rating.objects.filter(player=player).first()
        if row is None:
            return gettext("no rated game")
        skill = shown_skill(row)  # aged, as the player's page shows it
        numbers = {
            "ordinal": f"{skill.ordinal:.2f}",
            "mu": f"{skill.mu:.2f}",
            "sigma": f"{skill.sigma:.2f}",
            "count": row.games,
        }
        if skill.sigma > settings.YANIV_PROVISIONAL_SIGMA:
            shown = ngettext(
                "%(ordinal)s (mu %(mu)s, sigma %(sigma)s; %(count)d rated games, provisional)",
                "%(ordinal)s (mu %(mu)s, sigma %(sigma)s; %(count)d rated games, provisional)",
                row.games,
            )
        else:
            shown = ngettext(
                "%(ordinal)s (mu %(mu)s, sigma %(sigma)s; %(count)d rated games)",
                "%(ordinal)s (mu %(mu)s, sigma %(sigma)s; %(count)d rated games)",
                row.games,
            )
        return shown % numbers

    @admin.display(description=_("games"))
    def games(self, player: Player) -> SafeString:
        count = Seat.objects.filter(player=player).count()
        url = reverse("admin:games_game_changelist") + f"?q={player.pk}"
        label = ngettext("%(count)d games", "%(count)d games", count) % {"count": count}
        return format_html('<a href="{}">{}</a>', url, label)

    @admin.display(description=_("reports about them"))
    def reports(self, player: Player) -> SafeString:
        about = Report.objects.filter(reported=player)
        url = reverse("admin:moderation_report_changelist") + f"?reported__id__exact={player.pk}"
        count = about.count()
        label = ngettext(
            "%(count)d reports (%(open)d open)", "%(count)d reports (%(open)d open)", count
        ) % {"count": count, "open": about.filter(status=ReportStatus.OPEN).count()}
        return format_html('<a href="{}">{}</a>', url, label)


admin.site.unregister(Player)
admin.site.register(Player, ModerationPlayerAdmin)
