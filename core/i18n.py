"""The players' languages (docs/languages.md): which one a request, a socket or a push speaks.

A REST answer speaks the language the request names (`Accept-Language`, or the web client's
language cookie: Django's LocaleMiddleware), else the player's own `language`, else English.
A push and a socket's messages speak the player's `language` (`PATCH /me {"language"}`): they
answer no request. Codes, card codes, numbers and record formats never change with it.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Any

from django.conf import settings
from django.http import HttpRequest
from django.utils import translation
from django.utils.translation.trans_real import parse_accept_lang_header

CODES: tuple[str, ...] = tuple(code for code, _name in settings.LANGUAGES)


def supported(code: str | None) -> str | None:
    """`code` as one of ours ("he-IL" -> "he"), or None."""
    if not code:
        return None
    try:
        return translation.get_supported_language_variant(code)
    except LookupError:
        return None


def header_language(header: str) -> str | None:
    """The first of our languages an `Accept-Language` value asks for (by its q-values)."""
    for code, _quality in parse_accept_lang_header(header):
        if code != "*" and (found := supported(code)):
            return found
    return None


def request_names_language(request: HttpRequest) -> bool:
    """Whether the request asks for one of our languages itself (a header or the cookie)."""
    if supported(request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME)):
        return True
    return header_language(request.META.get("HTTP_ACCEPT_LANGUAGE", "")) is not None


def _answer_in(request: HttpRequest, language: str) -> None:
    """The rest of the request in `language`; LocaleMiddleware sends it as `Content-Language`."""
    translation.activate(language)
    request.LANGUAGE_CODE = translation.get_language()


def use_player_language(request: HttpRequest, language: str) -> None:
    """After authentication: the player's language, unless the request named one of ours."""
    if language and not request_names_language(request):
        _answer_in(request, language)


def request_language(request: HttpRequest) -> str:
    """The language this request is answered in (a new guest's language, names included)."""
    return supported(translation.get_language()) or settings.LANGUAGE_CODE


def handshake_language(scope: Mapping[str, Any]) -> str | None:
    """The first language of ours a websocket's handshake asks for, or None."""
    for name, value in scope.get("headers", ()):
        if name == b"accept-language":
            return header_language(value.decode("latin-1"))
    return None


@contextmanager
def speaking(language: str | None) -> Iterator[None]:
    """Text made inside is in `language` (a player's, for their pushes), English if unknown."""
    with translation.override(supported(language) or settings.LANGUAGE_CODE):
        yield


class StaffLanguageMiddleware:
    """The admin in the staff member's own language (their `language`), whatever the browser
    says; after AuthenticationMiddleware, which finds the staff member of the session."""

    def __init__(self, get_response):  # type: ignore[no-untyped-def]
        self.get_response = get_response

    def __call__(self, request: HttpRequest):  # type: ignore[no-untyped-def]
        if request.path.startswith("/admin/"):  # only there: `user` reads the session
            language = getattr(getattr(request, "user", None), "language", "")
            if language:
                _answer_in(request, language)
        return self.get_response(request)
