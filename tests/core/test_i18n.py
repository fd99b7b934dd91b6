"""The players' languages (docs/languages.md): which language an answer, a socket and a page
speak, and catalogs that are whole, sound and as new as the code."""

from __future__ import annotations

import ast
import json
import re
import shutil
from pathlib import Path

import pytest
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.utils import translation
from rest_framework.test import APIClient

from accounts.models import Player
from accounts.services import auth_token_issue, ws_ticket_issue
from config.asgi import application
from tests.factories import PlayerFactory
from web.management.commands.i18n import LOCALES, po_files, problems, read, stale

LOCALE = Path(settings.LOCALE_PATHS[0])
MISSING_GAME = "/api/v1/games/00000000-0000-0000-0000-000000000000/"


def _he(msgid: str) -> str:
    with translation.override("he"):
        return translation.gettext(msgid)


def _as(api_client: APIClient, player: Player) -> APIClient:
    api_client.credentials(HTTP_AUTHORIZATION=f"Bearer {auth_token_issue(player=player)}")
    return api_client


# --- Which language an answer speaks ------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("header", "language"),
    [
        (None, "en"),
        ("he", "he"),
        ("he-IL,he;q=0.9,en;q=0.8", "he"),
        ("fr-FR,ne;q=0.5", "ne"),
        ("hi", "hi"),
        ("fr", "en"),
    ],
)
def test_every_answer_says_its_language_and_varies_on_the_header(
    api_client, header: str | None, language: str
) -> None:
    extra = {} if header is None else {"HTTP_ACCEPT_LANGUAGE": header}
    for path in ("/api/v1/leaderboard/", MISSING_GAME, "/", "/healthz", "/static/web/app.css"):
        response = api_client.get(path, **extra)
        assert response["Content-Language"] == language, path
        assert "Accept-Language" in response["Vary"], path


@pytest.mark.django_db
def test_a_players_language_speaks_where_the_request_names_none_of_ours(api_client) -> None:
    player = PlayerFactory.create(language="he")
    client = _as(api_client, player)

    assert client.get(MISSING_GAME)["Content-Language"] == "he"
    assert client.get(MISSING_GAME, HTTP_ACCEPT_LANGUAGE="fr")["Content-Language"] == "he"
    # A request that names one of ours is answered in it: the header wins for REST.
    english = client.get(MISSING_GAME, HTTP_ACCEPT_LANGUAGE="en")
    assert english["Content-Language"] == "en"
    hebrew = client.get(MISSING_GAME)
    assert hebrew.json()["code"] == english.json()["code"] == "not_found"
    assert hebrew.json()["detail"] == _he(english.json()["detail"]) != english.json()["detail"]


@pytest.mark.django_db
def test_patch_me_sets_the_language_and_refuses_one_we_lack(api_client) -> None:
    player = PlayerFactory.create()
    client = _as(api_client, player)

    refused = client.patch("/api/v1/me/", {"language": "fr"}, format="json")
    assert refused.status_code == 400
    assert refused.json()["code"] == "invalid"
    assert "language" in refused.json()["errors"]
    assert client.get("/api/v1/me/").json()["language"] == "en"

    assert client.patch("/api/v1/me/", {"language": "ne"}, format="json").status_code == 200
    assert client.get("/api/v1/me/", HTTP_ACCEPT_LANGUAGE="en").json()["language"] == "ne"
    player.refresh_from_db()
    assert player.language == "ne"


@pytest.mark.django_db
def test_the_language_changes_details_never_codes_nor_data(api_client) -> None:
    """The same refusal in each language: the same status, code and fields; only `detail`
    differs, and it is that language's translation of the English one."""
    client = _as(api_client, PlayerFactory.create())
    english = client.post("/api/v1/games/", {"max_players": 9}, format="json")
    assert english.status_code == 400
    for language in LOCALES:
        answer = client.post(
            "/api/v1/games/", {"max_players": 9}, format="json", HTTP_ACCEPT_LANGUAGE=language
        )
        assert answer.status_code == english.status_code
        assert answer.json().keys() == english.json().keys()
        assert answer.json()["code"] == english.json()["code"]
        assert answer.json()["errors"].keys() == english.json()["errors"].keys()
        assert answer.json()["detail"] != english.json()["detail"], language


@pytest.mark.django_db(transaction=True)
async def test_a_socket_speaks_its_players_language() -> None:
    from channels.db import database_sync_to_async

    player = await database_sync_to_async(PlayerFactory.create)(language="he")
    ticket, _ = await database_sync_to_async(ws_ticket_issue)(player=player)
    socket = WebsocketCommunicator(
        application, f"/ws/v1/me/?ticket={ticket}", headers=[(b"accept-language", b"en")]
    )
    connected, _ = await socket.connect()
    assert connected
    assert (await socket.receive_json_from(timeout=5))["type"] == "hello"
    await socket.send_to(bytes_data=b"\x00")
    error = await socket.receive_json_from(timeout=5)
    await socket.disconnect()

    english = "Frames must be JSON text, not binary."
    assert error["code"] == "invalid"
    assert error["detail"] == _he(english) != english


# --- The catalogs ---------------------------------------------------------------------------


def test_every_language_ships_both_catalogs() -> None:
    shipped = {(po.parent.parent.name, po.stem) for po in po_files()}
    assert shipped == {(code, domain) for code in LOCALES for domain in ("django", "djangojs")}


@pytest.mark.parametrize("domain", ["django", "djangojs"])
@pytest.mark.parametrize("language", LOCALES)
def test_no_entry_is_missing_empty_fuzzy_or_loses_a_placeholder(language: str, domain: str) -> None:
    assert problems(LOCALE / language / "LC_MESSAGES" / f"{domain}.po") == []


def test_problems_finds_what_a_translator_left(tmp_path: Path) -> None:
    """The check above can fail: an empty, a fuzzy and a broken entry are each named."""
    po = tmp_path / "he" / "LC_MESSAGES" / "django.po"
    po.parent.mkdir(parents=True)
    po.write_text(
        'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n'
        '"Plural-Forms: nplurals=2; plural=(n != 1);\\n"\n\n'
        'msgid "Empty"\nmsgstr ""\n\n'
        '#, fuzzy\nmsgid "Fuzzy"\nmsgstr "מטושטש"\n\n'
        'msgid "Hello %(name)s"\nmsgstr "שלום"\n',
        encoding="utf-8",
    )
    found = problems(po)
    assert any("untranslated: 'Empty'" in line for line in found)
    assert any("fuzzy: 'Fuzzy'" in line for line in found)
    assert any("placeholders differ: 'Hello %(name)s'" in line for line in found)


_PY_CALL = {"_", "gettext", "gettext_lazy", "gettext_noop", "ngettext", "ngettext_lazy"}
_PY_CONTEXT_CALL = {"pgettext", "pgettext_lazy"}
_JS_STRING = r'"((?:[^"\\]|\\.)*)"'
# gettext("x") and ngettext("x", ...) have their msgid first, pgettext("context", "x") second.
_JS_CALL = re.compile(
    rf"\b(?:gettext|ngettext)\(\s*{_JS_STRING}|\bpgettext\(\s*{_JS_STRING}\s*,\s*{_JS_STRING}"
)


def _python_msgids() -> set[str]:
    found: set[str] = set()
    for path in Path(settings.BASE_DIR).glob("*/**/*.py"):
        top = path.relative_to(settings.BASE_DIR).parts[0]
        if top in {"tests", "bench", "devtools", "examples", "node_modules", "deploy"} or (
            top.startswith(".") or "migrations" in path.parts
        ):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)):
                continue
            strings = [
                a.value
                for a in node.args
                if isinstance(a, ast.Constant) and isinstance(a.value, str)
            ]
            if node.func.id in _PY_CALL and strings:
                found.add(strings[0])
            elif node.func.id in _PY_CONTEXT_CALL and len(strings) > 1:
                found.add(strings[1])
    return found


def _js_msgids() -> set[str]:
    found = set()
    for path in (Path(settings.BASE_DIR) / "web" / "static").rglob("*.js"):
        for plain, _context, in_context in _JS_CALL.findall(path.read_text(encoding="utf-8")):
            msgid = plain or in_context
            found.add(json.loads(f'"{msgid}"'))
    return found


@pytest.mark.parametrize("language", LOCALES)
def test_every_marked_string_of_the_code_is_in_the_catalogs(language: str) -> None:
    """Without GNU gettext too: each literal the code marks (Python and the web client) has
    its entry, so a string added without `i18n make` fails here."""
    for domain, marked in (("django", _python_msgids()), ("djangojs", _js_msgids())):
        catalog = read(LOCALE / language / "LC_MESSAGES" / f"{domain}.po")
        ids = {m.id if isinstance(m.id, str) else m.id[0] for m in catalog if m.id}
        assert marked, domain
        assert sorted(marked - ids) == [], domain


def test_the_catalogs_are_as_new_as_the_code() -> None:
    """`manage.py i18n make` (in a copy of the project) would change no catalog: no entry
    added, gone or moved to another file. It needs GNU gettext's xgettext, as makemessages does
    (Debian's `gettext`, which CI has); a machine without it has the check above only."""
    changed = stale()
    assert changed == [] or (changed is None and shutil.which("xgettext") is None)


@pytest.mark.django_db
def test_a_game_reads_the_same_in_every_language(api_client) -> None:
    """Card codes, numbers, seats and events are data: byte for byte the same JSON whatever
    the language asked for."""
    client = _as(api_client, PlayerFactory.create(language="he"))
    game = client.post("/api/v1/games/", {"max_players": 2}, format="json").json()
    client.post(f"/api/v1/games/{game['id']}/cpu/")
    client.post(f"/api/v1/games/{game['id']}/start/")
    paths = [f"/api/v1/games/{game['id']}/", f"/api/v1/games/{game['id']}/events/"]
    for path in paths:
        english = client.get(path, HTTP_ACCEPT_LANGUAGE="en")
        assert english.status_code == 200, path
        for language in LOCALES:
            answer = client.get(path, HTTP_ACCEPT_LANGUAGE=language)
            assert answer["Content-Language"] == language
            assert answer.content == english.content, (path, language)
