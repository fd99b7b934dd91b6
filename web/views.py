"""The web client's one page: every route of the client gets the same HTML, and the client's
router (static/web/app.js) shows what the path names (and `/how-to-play` carries the player's
guide in the page's language). The client talks only to the public API
(docs/api.md), as any other client does, so this view reads nothing but the language.

The page speaks the request's language (the picker's cookie, else the browser's
Accept-Language: LocaleMiddleware), as `<html lang dir>`, and carries that language's
`djangojs` catalog for static/web/i18n.js (docs/languages.md)."""

from __future__ import annotations

import gettext
import json
from functools import cache
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import translation
from django.utils.html import _json_script_escapes  # type: ignore[attr-defined]
from django.utils.safestring import SafeString, mark_safe
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

from core.i18n import supported


@cache
def catalog_json(language: str) -> SafeString:
    """`{"catalog": {msgid: text or [forms]}, "languages": [[code, name]...]}` for `language`,
    from our own `djangojs` catalog only (not the admin's), escaped for a `<script
    type="application/json">` as Django's json_script does; made once per process and
    language: the catalogs change only with a release."""
    found = gettext.translation("djangojs", settings.LOCALE_PATHS[0], [language], fallback=True)
    entries = getattr(found, "_catalog", {})  # a NullTranslations (English) has none
    catalog: dict[str, Any] = {}
    for key, text in entries.items():
        if not key:
            continue  # the header
        if isinstance(key, tuple):  # (msgid, plural index)
            catalog.setdefault(key[0], ["", ""])[key[1]] = text
        else:
            catalog[key] = text
    data = {"catalog": catalog, "languages": settings.LANGUAGES}
    text = json.dumps(data, ensure_ascii=False, sort_keys=True).translate(_json_script_escapes)
    return mark_safe(text)  # noqa: S308 (escaped above, as json_script does)


@require_safe
@never_cache  # the page names the scripts; a new release must not be served a stale page
def client(request: HttpRequest, **route: str) -> HttpResponse:
    language = translation.get_language()
    context: dict[str, Any] = {"catalog": catalog_json(language)}
    if request.resolver_match and request.resolver_match.url_name == "web-how-to-play":
        context["how_to_play"] = how_to_play_template(language)
    return render(request, "web/index.html", context)


def how_to_play_template(language: str) -> str:
    """The player's guide (docs/rules.md told short) in `language`, one template a language
    (web/templates/web/how_to_play/), English where there is none. The page carries it in a
    `<template id="how-to-play">` for the client's `/how-to-play` page to show."""
    return f"web/how_to_play/{supported(language) or settings.LANGUAGE_CODE}.html"
