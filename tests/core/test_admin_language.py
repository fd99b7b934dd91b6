"""The admin in the staff member's own language (their `language`, docs/languages.md): Django's
own chrome in it, and ours too (model and field names, actions, filters, our pages). Every
expected text comes from the catalogs under `translation.override`, so a string left
untranslated fails here: it would be the same as the English."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib import admin
from django.db import models
from django.test.client import Client as BrowserClient
from django.utils import translation
from django.utils.html import escape
from django.utils.text import capfirst

from accounts.models import Player
from games.models import Game
from tests.factories import PlayerFactory
from tests.games.conftest import finished_two_player_game

LANGUAGES = ("he", "ne", "hi")
# Names that are the same in every language (the rating model's own symbols).
SAME_EVERYWHERE = {"mu", "sigma"}
OURS = {
    "accounts",
    "chat",
    "games",
    "matchmaking",
    "moderation",
    "ratings",
    "seasons",
    "social",
    "tournaments",
}


def _in(language: str, text: Any) -> str:
    """`text` (a msgid or a lazy string) in `language`, checked to differ from the English."""
    with translation.override("en"):
        english = str(text)
    with translation.override(language):
        shown = str(translation.gettext(english) if isinstance(text, str) else text)
    assert shown != english, f"{english!r} is not translated into {language}"
    return shown


def _shows(html: str, language: str, text: Any) -> None:
    shown = _in(language, text)
    assert escape(shown) in html or escape(capfirst(shown)) in html, shown


@pytest.fixture
def staff(db: None) -> BrowserClient:
    member = PlayerFactory.create(registered=True, is_staff=True, is_superuser=True, language="he")
    client = BrowserClient()
    client.force_login(member)
    return client


@pytest.fixture
def finished_game(db: None) -> str:
    return finished_two_player_game()


def _page(client: BrowserClient, url: str) -> str:
    # The browser asks for English: the admin speaks the staff member's language regardless.
    response = client.get(url, HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 200
    assert response["Content-Language"] == "he"
    html = response.content.decode()
    assert '<html lang="he" dir="rtl">' in html
    return html


def test_the_index_and_the_players_list_speak_hebrew(staff) -> None:
    index = _page(staff, "/admin/")
    _shows(index, "he", Player._meta.verbose_name_plural)
    _shows(index, "he", Game._meta.verbose_name_plural)
    _shows(index, "he", "Accounts")
    _shows(index, "he", "Live figures")
    # Django's own chrome too.
    _shows(index, "he", "Site administration")

    players = _page(staff, "/admin/accounts/player/")
    _shows(players, "he", Player._meta.get_field("display_name").verbose_name)
    _shows(players, "he", "Ban selected players…")
    _shows(players, "he", "banned")  # the filter's title
    _shows(players, "he", "Username, display name, or a player id.")


def test_a_games_page_speaks_hebrew(staff, finished_game) -> None:
    page = _page(staff, f"/admin/games/game/{finished_game}/change/")
    _shows(page, "he", Game._meta.get_field("max_players").verbose_name)
    _shows(page, "he", "scores after")
    with translation.override("he"):
        first_round = translation.gettext("Round %(number)s") % {"number": 1}
    assert first_round != "Round 1"
    assert f">{escape(first_round)}</a>" in page

    events = _page(staff, f"/admin/games/game/{finished_game}/events/")
    _shows(events, "he", "Events")
    rounds = _page(staff, f"/admin/games/game/{finished_game}/rounds/1/")
    _shows(rounds, "he", "discards")


def test_the_live_figures_speak_hebrew(staff) -> None:
    page = _page(staff, "/admin/live/")
    _shows(page, "he", "Live figures")
    _shows(page, "he", "Active games")
    _shows(page, "he", "websockets open")


def test_an_english_speaking_member_of_staff_reads_english(db) -> None:
    member = PlayerFactory.create(registered=True, is_staff=True, is_superuser=True)
    client = BrowserClient()
    client.force_login(member)
    response = client.get("/admin/accounts/player/")
    assert response["Content-Language"] == "en"
    assert "Ban selected players…" in response.content.decode()


def _field_names(model: type[models.Model]) -> set[str]:
    return {field.name for field in model._meta.get_fields()}


def _fields_shown(model_admin: admin.ModelAdmin[Any]) -> list[models.Field[Any, Any]]:
    model = model_admin.model
    names = [n for n in model_admin.list_display if isinstance(n, str)]
    names += [n for n in model_admin.list_filter if isinstance(n, str)]
    # A method's column is not a field: its description is checked on its own.
    return [model._meta.get_field(name) for name in names if name in _field_names(model)]


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_model_of_ours_in_the_admin_has_its_names_in_every_language(language) -> None:
    for model, model_admin in admin.site._registry.items():
        if model._meta.app_label not in OURS:
            continue
        _in(language, model._meta.verbose_name)
        _in(language, model._meta.verbose_name_plural)
        _in(language, model._meta.app_config.verbose_name)
        for name in model_admin.list_display:
            description = getattr(getattr(model_admin, str(name), None), "short_description", None)
            if description and str(description) not in SAME_EVERYWHERE:
                _in(language, description)
        for field in _fields_shown(model_admin):
            if str(field.verbose_name) not in SAME_EVERYWHERE:
                _in(language, field.verbose_name)
            for _value, label in field.choices or ():
                if field.name != "language":  # each language's own name
                    _in(language, label)
        for action in model_admin.actions or ():
            method = getattr(model_admin, action) if isinstance(action, str) else action
            description = getattr(method, "short_description", None)
            if description:
                _in(language, description)
