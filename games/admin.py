"""Staff tools: find games, read them round by round, void one (ratings rolled back).

While a game is live, every page here shows only what a spectator may see (the projection of
games/projection.py with `seat=None`): staff do not read hands over a player's shoulder. Once
the game has ended, its full record (every hand, every deck) is open to them.
"""

from __future__ import annotations

import json
import uuid
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.core.paginator import Paginator
from django.db.models import Count, Prefetch, Q, QuerySet
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import URLPattern, path, reverse
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from accounts.admin import confirm_action_page
from accounts.models import Player
from core.errors import ApplicationError
from games.models import Event, Game, Seat
from games.payloads import GameData
from games.projection import event_payload, game_events, game_payload, game_state
from games.selectors import game_record, game_seats
from games.services import staff
from ratings.models import RatingChange

EVENTS_PER_PAGE = 50


class VoidForm(forms.Form):
    reason = forms.CharField(
        label=_("Reason"),
        max_length=500,
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text=_("Recorded in the audit log and shown with the game."),
    )


class SeatInline(admin.TabularInline[Seat, Game]):
    model = Seat
    extra = 0
    can_delete = False
    fields = (
        "seat",
        "player",
        "is_cpu",
        "cpu_level",
        "away",
        "left",
        "score",
        "eliminated",
        "place",
        "live",
    )
    readonly_fields = fields

    class Media:
        css = {"all": ("games/admin.css",)}

    def has_add_permission(self, request: HttpRequest, obj: Game | None = None) -> bool:
        return False


def _seat_name(seat: Seat) -> str:
    if seat.player is None:
        return f"{seat.seat}: {gettext('CPU')}"
    return f"{seat.seat}: {seat.player.display_name}"


def _pretty(data: Any) -> SafeString:
    return format_html("<pre>{}</pre>", json.dumps(data, indent=1))


@admin.register(Game)
class GameAdmin(admin.ModelAdmin[Game]):
    list_display = (
        "short_id",
        "status",
        "players",
        "result",
        "rounds",
        "duration",
        "ranked",
        "voided",
        "finished_at",
    )
    list_filter = ("status", "ranked", "pool", ("voided_at", admin.EmptyFieldListFilter))
    search_fields = ("seats__player__username", "seats__player__display_name")
    search_help_text = _("A player's name or id, or a game id.")
    readonly_fields = (
        "id",
        "status",
        "ranked",
        "rules",
        "max_players",
        "host",
        "seq",
        "created_at",
        "started_at",
        "finished_at",
        "rating",
        "voided_at",
        "void_reason",
        "voided_by",
        "links",
        "table",
    )
    # `state` is the live hands and stock, and the invite code is the host's: neither is shown.
    fields = readonly_fields
    inlines = (SeatInline,)
    actions = ("void_games",)
    date_hierarchy = "created_at"

    def get_queryset(self, request: HttpRequest) -> QuerySet[Game]:
        seats = Seat.objects.select_related("player").order_by("seat")
        return (
            super()
            .get_queryset(request)
            .prefetch_related(Prefetch("seats", queryset=seats))
            .annotate(rounds_played=Count("events", filter=Q(events__type="round_started")))
        )

    def get_search_results(
        self, request: HttpRequest, queryset: QuerySet[Game], search_term: str
    ) -> tuple[QuerySet[Game], bool]:
        results, _ = super().get_search_results(request, queryset, search_term)
        try:
            an_id = uuid.UUID(search_term.strip())
        except ValueError:
            return results.distinct(), False
        by_id = queryset.filter(Q(pk=an_id) | Q(seats__player_id=an_id))
        return (results | by_id).distinct(), False

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def change_view(
        self, request: HttpRequest, object_id: str, form_url: str = "", extra_context: Any = None
    ) -> HttpResponse:
        # Nothing on the page is edited: a void goes through the action and its confirmation.
        extra = {"show_save": False, "show_save_and_continue": False, **(extra_context or {})}
        return super().change_view(request, object_id, form_url, extra)

    def has_delete_permission(self, request: HttpRequest, obj: Game | None = None) -> bool:
        # A game's rows hold other players' results and ratings: it is voided, never deleted.
        return False

    # The list ---------------------------------------------------------------------------

    @admin.display(description=_("game"), ordering="id")
    def short_id(self, game: Game) -> str:
        return str(game.pk)[:8]

    @admin.display(description=_("players"))
    def players(self, game: Game) -> str:
        return ", ".join(_seat_name(seat) for seat in game.seats.all())

    @admin.display(description=_("result (places)"))
    def result(self, game: Game) -> str:
        placed = sorted((s for s in game.seats.all() if s.place), key=lambda s: s.place or 0)
        return " ".join(f"{s.place}. {_seat_name(s).split(': ', 1)[1]}" for s in placed) or "—"

    @admin.display(description=_("rounds"), ordering="rounds_played")
    def rounds(self, game: Game) -> int:
        return getattr(game, "rounds_played", 0)

    @admin.display(description=_("duration"))
    def duration(self, game: Game) -> str:
        if game.started_at is None or game.finished_at is None:
            return "—"
        seconds = int((game.finished_at - game.started_at).total_seconds())
        return f"{seconds // 60}:{seconds % 60:02d}"

    @admin.display(description=_("voided"), boolean=True, ordering="voided_at")
    def voided(self, game: Game) -> bool:
        return game.voided_at is not None

    # The detail -------------------------------------------------------------------------

    @admin.display(description=_("rating"))
    def rating(self, game: Game) -> str:
        if not game.ranked:
            return gettext("private game: not rated")
        changes = RatingChange.objects.filter(game_id=game.pk).count()
        if game.voided_at is not None:
            return gettext("voided: rolling back…") if changes else gettext("voided: rolled back")
        if game.rated_at is None:
            return gettext("not rated yet")
        return ngettext(
            "rated at %(at)s (%(count)d players)", "rated at %(at)s (%(count)d players)", changes
        ) % {"at": f"{game.rated_at:%Y-%m-%d %H:%M}", "count": changes}

    @admin.display(description=_("pages"))
    def links(self, game: Game) -> SafeString:
        events = reverse("admin:games_game_events", args=[game.pk])
        if not game.ended:
            return format_html(
                '<a href="{}">{}</a>', events, gettext("events (as a spectator sees them)")
            )
        record = reverse("admin:games_game_record", args=[game.pk])
        return format_html(
            '<a href="{}">{}</a> · <a href="{}">{}</a>',
            events,
            gettext("events"),
            record,
            gettext("download yaniv-record/1"),
        )

    @admin.display(description=_("table"))
    def table(self, game: Game) -> SafeString:
        seats = game_seats(game)
        if not game.ended:
            return _spectator_html(game_payload(game, game_state(game), seats, None))
        return _rounds_summary(game, seats)

    # Pages of their own -----------------------------------------------------------------

    def get_urls(self) -> list[URLPattern]:
        view = self.admin_site.admin_view
        return [
            path("<uuid:game_id>/record/", view(self.record_view), name="games_game_record"),
            path("<uuid:game_id>/events/", view(self.events_view), name="games_game_events"),
            path(
                "<uuid:game_id>/rounds/<int:number>/",
                view(self.round_view),
                name="games_game_round",
            ),
            *super().get_urls(),
        ]

    def record_view(self, request: HttpRequest, game_id: Any) -> HttpResponse:
        game = get_object_or_404(Game, pk=game_id)
        if not self.has_view_permission(request, game):
            raise Http404
        if not game.ended:
            raise Http404(gettext("The record is readable once the game has ended."))
        body = json.dumps(game_record(game, game_seats(game)), indent=1)
        response = HttpResponse(body, content_type="application/json")
        response["Content-Disposition"] = f'attachment; filename="yaniv-{game.pk}.json"'
        return response

    def events_view(self, request: HttpRequest, game_id: Any) -> TemplateResponse:
        game = get_object_or_404(Game, pk=game_id)
        if not self.has_view_permission(request, game):
            raise Http404
        # A live game's events as a spectator sees them: those shown to one seat left out.
        events = game.events.order_by("id") if game.ended else game_events(game, -1, None)
        page = Paginator(events, EVENTS_PER_PAGE).get_page(request.GET.get("page"))
        rows = [
            (event.seq, event.type, event.created_at, json.dumps(_event_shown(game, event)))
            for event in page
        ]
        context = {
            **self.admin_site.each_context(request),
            "title": gettext("Events of %(game)s") % {"game": game},
            "opts": self.model._meta,
            "game": game,
            "live": not game.ended,
            "page": page,
            "rows": rows,
        }
        return TemplateResponse(request, "admin/games/game/events.html", context)

    def round_view(self, request: HttpRequest, game_id: Any, number: int) -> TemplateResponse:
        """One round of an ended game: who started, every action, the result table."""
        game = get_object_or_404(Game, pk=game_id)
        if not self.has_view_permission(request, game) or not game.ended:
            raise Http404
        names = [_seat_name(seat) for seat in game_seats(game)]
        rounds = _rounds(game, names)
        if not 1 <= number <= len(rounds):
            raise Http404
        context = {
            **self.admin_site.each_context(request),
            "title": gettext("Round %(number)s of %(count)s")
            % {"number": number, "count": len(rounds)},
            "opts": self.model._meta,
            "game": game,
            "round": _round_html(rounds[number - 1], names),
            "numbers": range(1, len(rounds) + 1),
            "number": number,
        }
        return TemplateResponse(request, "admin/games/game/round.html", context)

    # Voiding ----------------------------------------------------------------------------

    @admin.action(description=_("Void the selected games (ratings are rolled back)…"))
    def void_games(self, request: HttpRequest, queryset: QuerySet[Game]) -> TemplateResponse | None:
        games = list(queryset.filter(voided_at__isnull=True))
        by = request.user if isinstance(request.user, Player) else None
        if "apply" in request.POST:
            form = VoidForm(request.POST)
            if form.is_valid():
                voided = 0
                for game in games:
                    try:
                        staff.game_void(game_id=game.pk, reason=form.cleaned_data["reason"], by=by)
                    except ApplicationError as error:
                        self.message_user(request, f"{game}: {error.detail}", messages.WARNING)
                    else:
                        voided += 1
                self.message_user(
                    request,
                    ngettext("Voided %(count)d game(s).", "Voided %(count)d game(s).", voided)
                    % {"count": voided},
                    messages.SUCCESS,
                )
                return None
        else:
            form = VoidForm()
        return confirm_action_page(
            self,
            request,
            template="admin/games/game/void.html",
            action="void_games",
            verb=gettext("Void"),
            title=gettext("Void games"),
            objects=games,
            form=form,
        )


def _event_shown(game: Game, event: Event) -> Any:
    """A live game's event as a spectator sees it; an ended game's in full."""
    return event.payload if game.ended else event_payload(event, None)


def _spectator_html(shown: GameData) -> SafeString:
    """A live game as a spectator sees it (the projection's own payload, nothing more)."""
    turn = shown["turn"]
    rows = format_html_join(
        "",
        "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
        (
            (
                gettext("CPU") if seat["player"] is None else seat["player"]["display_name"],
                seat["hand_count"],
                " ".join(seat["known"]),
                seat["score"],
                "◀" if turn is not None and turn["seat"] == seat["seat"] else "",
            )
            for seat in shown["seats"]
        ),
    )
    figures = {
        "round": shown["round"],
        "stock": shown["stock_count"],
        "discard": " ".join(shown["discard"]["cards"]) or "—",
        "wild": shown["wild"],
    }
    if shown["wild"]:
        intro = gettext(
            "Live game: what a spectator sees (round %(round)s, stock %(stock)s cards;"
            " discard %(discard)s; wild card %(wild)s)."
        )
    else:
        intro = gettext(
            "Live game: what a spectator sees (round %(round)s, stock %(stock)s cards;"
            " discard %(discard)s)."
        )
    return format_html(
        "<p>{}</p>"
        "<table><thead><tr><th>{}</th><th>{}</th><th>{}</th>"
        "<th>{}</th><th>{}</th></tr></thead><tbody>{}</tbody></table>"
        "<details><summary>{}</summary>{}</details>",
        intro % figures,
        gettext("seat"),
        gettext("cards"),
        gettext("known (taken face up)"),
        gettext("score"),
        gettext("turn"),
        rows,
        gettext("the spectator's payload"),
        _pretty(shown),
    )


def _rounds(game: Game, names: list[str]) -> list[dict[str, Any]]:
    """The ended game's rounds from its log: the starter, each action (who, what), the result."""
    rounds: list[dict[str, Any]] = []
    for event in game.events.order_by("id"):
        data = event.payload
        if event.type == "round_started":
            rounds.append({"number": data["round"], "starter": data["starter"], "actions": []})
        elif not rounds:
            continue
        elif event.type == "played":
            drawn = f" ({data['drawn']})" if data["draw"] == "stock" and data.get("drawn") else ""
            draw = gettext("stock") if data["draw"] == "stock" else data["draw"]
            by = {"player": gettext("player"), "cpu": gettext("CPU")}.get(data["by"], data["by"])
            rounds[-1]["actions"].append(
                (names[data["seat"]], by, " ".join(data["cards"]), f"{draw}{drawn}")
            )
        elif event.type == "forced_draw":  # docs/rules.md §12, sevens
            rounds[-1]["actions"].append(
                (
                    names[data["seat"]],
                    "",
                    gettext("draws: a seven was played"),
                    f"{gettext('stock')} ({data['drawn']})",
                )
            )
        elif event.type == "spied":  # docs/rules.md §12, spy queen
            seen = " · ".join(f"{names[int(s)]}: {' '.join(c)}" for s, c in data["hands"].items())
            rounds[-1]["actions"].append(
                (names[data["seat"]], "", gettext("sees the others' hands"), seen)
            )
        elif event.type == "yaniv_called":
            rounds[-1]["actions"].append((names[data["seat"]], "", gettext("calls Yaniv"), ""))
        elif event.type == "reshuffled":
            rounds[-1]["actions"].append(
                ("—", "", gettext("the pile is reshuffled into the stock"), "")
            )
        elif event.type == "round_ended":
            rounds[-1]["result"] = data
    return rounds


def _rounds_summary(game: Game, seats: list[Seat]) -> SafeString:
    """One line per round, each linked to its own page."""
    names = [_seat_name(seat) for seat in seats]
    rounds = _rounds(game, names)
    if not rounds:
        return format_html("<p>{}</p>", gettext("No round was dealt."))
    rows = format_html_join(
        "",
        '<tr><td><a href="{}">{}</a></td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>',
        (
            (
                reverse("admin:games_game_round", args=[game.pk, r["number"]]),
                gettext("Round %(number)s") % {"number": r["number"]},
                names[r["starter"]],
                len(r["actions"]),
                _outcome(r, names),
                " / ".join(str(t) for t in r["result"]["totals"]) if "result" in r else "",
            )
            for r in rounds
        ),
    )
    return format_html(
        '<table data-testid="rounds"><thead><tr><th>{}</th><th>{}</th><th>{}</th>'
        "<th>{}</th><th>{}</th></tr></thead><tbody>{}</tbody></table>",
        gettext("round"),
        gettext("starter"),
        gettext("actions"),
        gettext("outcome"),
        gettext("scores after"),
        rows,
    )


def _outcome(round_: dict[str, Any], names: list[str]) -> str:
    result = round_.get("result")
    if result is None:
        return gettext("did not end")
    return _by(result, names)


def _by(result: dict[str, Any], names: list[str]) -> str:
    """Who called, and how the call ended: "Yaniv by 0: Dana", "Assaf by 1: CPU"."""
    caller = names[result["caller"]]
    if result["outcome"] == "assaf":
        return gettext("Assaf by %(caller)s") % {"caller": caller}
    if result["outcome"] == "yaniv":
        return gettext("Yaniv by %(caller)s") % {"caller": caller}
    return f"{str(result['outcome']).capitalize()} by {caller}"


def _round_html(round_: dict[str, Any], names: list[str]) -> SafeString:
    actions = format_html_join(
        "",
        "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
        ((i + 1, *action) for i, action in enumerate(round_["actions"])),
    )
    result = round_.get("result")
    if result is None:
        table = format_html("<p>{}</p>", gettext("The round did not end."))
    else:
        table = format_html(
            "<h3>{}</h3><table><thead><tr><th>{}</th><th>{}</th><th>{}</th>"
            "<th>{}</th><th>{}</th></tr></thead><tbody>{}</tbody></table>",
            (
                gettext("Result: %(by)s (wild card %(wild)s)")
                if result.get("wild")
                else gettext("Result: %(by)s")
            )
            % {"by": _by(result, names), "wild": result.get("wild")},
            gettext("seat"),
            gettext("hand"),
            gettext("total"),
            gettext("points"),
            gettext("score"),
            format_html_join(
                "",
                "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
                (
                    (
                        name,
                        " ".join(result["hands"].get(str(seat), [])),
                        result["hand_totals"][seat],
                        result["points"][seat],
                        result["totals"][seat],
                    )
                    for seat, name in enumerate(names)
                ),
            ),
        )
    return format_html(
        '<section class="round" data-round="{}"><h3>{}</h3>'
        "<table><thead><tr><th>#</th><th>{}</th><th>{}</th><th>{}</th><th>{}</th>"
        "</tr></thead><tbody>{}</tbody></table>{}</section>",
        round_["number"],
        gettext("Round %(number)s: %(starter)s starts")
        % {"number": round_["number"], "starter": names[round_["starter"]]},
        gettext("seat"),
        gettext("by"),
        gettext("discards"),
        gettext("draws"),
        actions,
        table,
    )
