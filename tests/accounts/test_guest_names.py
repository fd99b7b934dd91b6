"""Generated guest names speak the language the guest arrived in (issue 32)."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from accounts.guest_names import GUEST_WORDS
from accounts.models import Player
from accounts.services import guest_name_generate


def _script(text: str) -> str:
    if any("\u0590" <= c <= "\u05ff" for c in text):
        return "hebrew"
    if any("\u0900" <= c <= "\u097f" for c in text):
        return "devanagari"
    return "latin"


@pytest.mark.parametrize(
    ("language", "script"),
    [("en", "latin"), ("he", "hebrew"), ("ne", "devanagari"), ("hi", "devanagari")],
)
def test_a_name_in_each_language(language: str, script: str) -> None:
    for _round in range(50):
        name = guest_name_generate(language)
        assert _script(name) == script
        assert 1 <= len(name) <= 32
        assert name.split()[-1].isdigit()


def test_hebrew_puts_the_animal_first() -> None:
    words = GUEST_WORDS["he"]
    name = guest_name_generate("he")
    assert any(name.startswith(f"{animal} ") for animal in words.animals)
    assert any(f" {adjective} " in name for adjective in words.adjectives)


def test_an_unknown_language_names_in_english() -> None:
    assert _script(guest_name_generate("fr")) == "latin"


def test_every_name_fits_a_display_name() -> None:
    for words in GUEST_WORDS.values():
        longest = max(map(len, words.adjectives)) + max(map(len, words.animals)) + len(" 99 ")
        assert longest <= 32
        assert len(set(words.adjectives)) == len(words.adjectives)
        assert len(set(words.animals)) == len(words.animals)


@pytest.mark.parametrize(
    ("header", "script"), [("he-IL,he;q=0.9", "hebrew"), ("hi", "devanagari"), ("", "latin")]
)
def test_the_guest_endpoint_names_in_the_request_language(
    db: None, clear_throttles: None, header: str, script: str
) -> None:
    response = APIClient().post(
        "/api/v1/auth/guest/", {}, format="json", HTTP_ACCEPT_LANGUAGE=header
    )
    assert response.status_code == 201, response.content
    assert _script(response.json()["player"]["display_name"]) == script


def test_a_guest_keeps_the_language_it_arrived_in(db: None, clear_throttles: None) -> None:
    client = APIClient()
    response = client.post("/api/v1/auth/guest/", {}, format="json", HTTP_ACCEPT_LANGUAGE="ne")
    player = Player.objects.get(pk=response.json()["player"]["id"])
    assert player.language == "ne"
    english = client.post("/api/v1/auth/guest/", {}, format="json")
    assert Player.objects.get(pk=english.json()["player"]["id"]).language == "en"


def test_a_given_name_is_kept(db: None, clear_throttles: None) -> None:
    response = APIClient().post(
        "/api/v1/auth/guest/", {"display_name": "Dana"}, format="json", HTTP_ACCEPT_LANGUAGE="he"
    )
    assert response.json()["player"]["display_name"] == "Dana"
