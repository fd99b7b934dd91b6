"""Every API error's `detail` is translated (issue 32): the code keeps no English-only refusal,
and a client that asks for Hebrew reads Hebrew, with the same `code` as in English.

The answers in Hebrew need the compiled catalogs (`manage.py i18n compile`: locale/*.mo, which
the suite's conftest compiles); the walk over the code needs nothing.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.utils import translation
from rest_framework.test import APIClient

from accounts.models import Player
from games.engine.errors import Reason
from games.reasons import REASONS, RULES_TEMPLATES, reason_text
from tests.factories import PlayerFactory
from tests.games.conftest import Client, two_player_table

ROOT = Path(settings.BASE_DIR)
# Not the project's code: tests, tools, benchmarks, and what is not Python we serve.
_SKIPPED = {"tests", "bench", "devtools", "examples", "docs", "deploy", "site", "var"}
_GETTEXT = {"_", "gettext", "ngettext", "pgettext", "npgettext"}
# Calls that return text already translated where it is made (each translates its own
# sentences with gettext; their modules are in the catalog like any other).
_TRANSLATING = {
    "reason_text",  # games/reasons.py: an engine Reason
    "rules_text",  # games/reasons.py: an InvalidRules message
    "not_active_text",  # games/reasons.py: "This game is finished, not active."...
    "text_problem",  # chat/text.py: why a chat text is refused
}
# Attributes that are translated text (a property that calls gettext).
_TRANSLATED_ATTRIBUTES = {"ban_message"}  # accounts/models.py Player.ban_message
# A detail that is a parameter: its callers pass `_()` (checked by hand, listed here).
_PARAMETERS = {("social/services.py", "_require_no_table", "detail")}
# Django's own translated messages (password validators), joined.
_VENDOR = {"' '.join(error.messages)"}


def _python_files() -> Iterator[Path]:
    for path in sorted(ROOT.rglob("*.py")):
        parts = path.relative_to(ROOT).parts
        if parts[0] in _SKIPPED or parts[0].startswith(".") or "migrations" in parts:
            continue
        yield path


def _is_gettext(node: ast.AST) -> bool:
    """`_("...")`, or `_("... %(x)s ...") % {...}`."""
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod):
        return _is_gettext(node.left)
    if not isinstance(node, ast.Call):
        return False
    name = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", "")
    return name in _GETTEXT and bool(node.args) and isinstance(node.args[0], ast.Constant)


def _is_translated(node: ast.AST) -> bool:
    if _is_gettext(node):
        return True
    if isinstance(node, ast.Call):
        func = node.func
        name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")
        return name in _TRANSLATING
    if isinstance(node, ast.Attribute):
        return node.attr in _TRANSLATED_ATTRIBUTES
    if isinstance(node, ast.Subscript):  # a dict of gettext texts, looked up
        return isinstance(node.value, ast.Name)  # checked as the name's assignment
    return False


def _assignments(function: ast.AST, name: str) -> list[ast.AST]:
    found: list[ast.AST] = []
    for node in ast.walk(function):
        if isinstance(node, ast.Assign):
            targets = node.targets
        elif isinstance(node, ast.AnnAssign | ast.NamedExpr):
            targets = [node.target]
        else:
            continue
        named = any(isinstance(t, ast.Name) and t.id == name for t in targets)
        if named and node.value is not None:
            found.append(node.value)
    return found


def _name_is_translated(function: ast.AST, name: str) -> bool:
    values = _assignments(function, name)
    if not values:
        return False
    for value in values:
        if isinstance(value, ast.Dict):
            if not all(_is_translated(v) for v in value.values):
                return False
        elif not _is_translated(value):
            return False
    return True


def _untranslated_details() -> list[str]:
    found = []
    for path in _python_files():
        source = path.read_text(encoding="utf-8")
        if "ApplicationError(" not in source and "ThrottledError(" not in source:
            continue
        relative = str(path.relative_to(ROOT))
        tree = ast.parse(source)
        functions = [
            n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)
        ]
        for function in functions:
            for node in ast.walk(function):
                if not isinstance(node, ast.Call):
                    continue
                func = node.func
                called = func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")
                if called not in {"ApplicationError", "ThrottledError"}:
                    continue
                index = 1 if called == "ApplicationError" else 2
                detail = node.args[index] if len(node.args) > index else None
                detail = detail or next((k.value for k in node.keywords if k.arg == "detail"), None)
                if detail is None:
                    if called == "ThrottledError":
                        continue  # its own text, translated in core/errors.py
                    found.append(f"{relative}:{node.lineno} no detail")
                    continue
                if _is_translated(detail):
                    if not isinstance(detail, ast.Subscript):
                        continue
                    if _name_is_translated(function, detail.value.id):  # type: ignore[attr-defined]
                        continue
                elif isinstance(detail, ast.Name):
                    if _name_is_translated(function, detail.id):
                        continue
                    if (relative, function.name, detail.id) in _PARAMETERS:
                        continue
                elif ast.unparse(detail) in _VENDOR:
                    continue
                found.append(f"{relative}:{node.lineno} {ast.unparse(detail)}")
    return sorted(set(found))


def test_every_application_error_detail_is_translated() -> None:
    """An `ApplicationError(code, detail)` or `ThrottledError(scope, wait, detail)` anywhere
    in the project's code has a gettext `detail` (or a name assigned from one, or one of the
    translating helpers above): an English-only refusal cannot come back."""
    assert _untranslated_details() == []


def test_the_walk_finds_an_untranslated_detail(tmp_path: Path) -> None:
    """The walk is not vacuous: it sees the calls, and an f-string detail fails it."""
    tree = ast.parse(
        "def f(n):\n"
        "    raise ApplicationError('x', f'{n} left')\n"
        "def g():\n"
        "    raise ApplicationError('x', _('Fine.'))\n"
    )
    calls = [n for n in ast.walk(tree) if isinstance(n, ast.Call) and n.args]
    details = [c.args[1] for c in calls if getattr(c.func, "id", "") == "ApplicationError"]
    assert [_is_translated(d) for d in details] == [False, True]


def test_every_engine_reason_has_its_identical_text() -> None:
    assert set(REASONS) == set(Reason)
    assert all(text == reason.value for reason, text in REASONS.items())
    with translation.override("en"):
        assert reason_text(Reason.NOT_YOUR_TURN) == "not your turn"


def test_every_rules_message_is_declared() -> None:
    """Each `InvalidRules(template, ...)` the games app raises is in RULES_TEMPLATES, so the
    catalog has it (the engine cannot mark it itself)."""
    raised = set()
    for path in (ROOT / "games").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "InvalidRules":
                template = node.args[0]
                assert isinstance(template, ast.Constant), f"{path}:{node.lineno}"
                raised.add(template.value)
    assert raised
    assert raised <= set(RULES_TEMPLATES)


# Real answers in Hebrew (the compiled catalogs) ------------------------------------------

HEBREW = {"HTTP_ACCEPT_LANGUAGE": "he"}


def _hebrew(text: str) -> bool:
    return any("\u0590" <= character <= "\u05ff" for character in text)


@pytest.fixture
def client_pair(db: None, clear_throttles: None) -> tuple[Client, Client, dict[str, Any]]:
    return two_player_table(Client.guest)


def _both(
    client: APIClient, method: str, path: str, body: dict[str, Any] | None = None
) -> tuple[dict[str, Any], dict[str, Any]]:
    """The answer in English, then in Hebrew: same status and code, the detail translated."""
    call = getattr(client, method)
    args = (path, body or {}) if method == "post" else (path,)
    kwargs = {"format": "json"} if method == "post" else {}
    english = call(*args, **kwargs)
    hebrew = call(*args, **kwargs, **HEBREW)
    assert english.status_code == hebrew.status_code
    assert english.json()["code"] == hebrew.json()["code"]
    assert not _hebrew(english.json()["detail"])
    assert _hebrew(hebrew.json()["detail"]), hebrew.json()
    assert hebrew["Content-Language"] == "he"
    return english.json(), hebrew.json()


def test_a_missing_game_is_not_found_in_hebrew(client_pair) -> None:
    host, _guest, _game = client_pair
    english, hebrew = _both(host.api, "get", "/api/v1/games/00000000-0000-0000-0000-000000000000/")
    assert (english["code"], english["detail"]) == ("not_found", "No such game.")
    assert hebrew["detail"] == "אין משחק כזה."


def test_not_authenticated_in_hebrew(db: None, clear_throttles: None) -> None:
    english, hebrew = _both(APIClient(), "get", "/api/v1/me/")
    assert english["code"] == "not_authenticated"
    assert english["detail"] == "Authentication credentials were not provided."
    assert hebrew["detail"] == "לא סופקו פרטי הזדהות."


def test_a_serializer_refusal_in_hebrew(client_pair) -> None:
    host, _guest, _game = client_pair
    english, hebrew = _both(host.api, "post", "/api/v1/games/", {"max_players": "many"})
    assert english["code"] == "invalid"
    assert english["detail"] == "max_players: A valid integer is required."
    assert hebrew["errors"]["max_players"] == ["נדרש מספר שלם תקין."]


def test_a_service_conflict_in_hebrew(client_pair) -> None:
    host, _guest, game = client_pair
    english, hebrew = _both(host.api, "post", f"/api/v1/games/{game['id']}/start/")
    assert english["code"] == "not_waiting"
    assert hebrew["detail"] == "המשחק הזה כבר התחיל."


def test_an_illegal_move_in_hebrew(client_pair) -> None:
    host, guest, game = client_pair
    mover, other = (host, guest) if game["turn"]["seat"] == game["you"]["seat"] else (guest, host)
    view, foreign = mover.game(game["id"]), other.game(game["id"])["you"]["hand"][0]
    body = {"seq": view["seq"], "type": "play", "cards": [foreign], "draw": "stock"}
    english, hebrew = _both(mover.api, "post", f"/api/v1/games/{game['id']}/actions/", body)
    assert (english["code"], english["detail"]) == ("illegal_move", "card not in hand")
    assert hebrew["detail"] == "הקלף לא ביד"


def test_without_a_language_asked_the_answer_is_english(db: None, client_for) -> None:
    player: Player = PlayerFactory.create()
    response = client_for(player).get("/api/v1/games/00000000-0000-0000-0000-000000000000/")
    assert response.json() == {"detail": "No such game.", "code": "not_found"}


def test_bad_rules_in_hebrew(client_pair) -> None:
    host, _guest, _game = client_pair
    body = {"max_players": 2, "rules": {"call_limit": 16}}
    english, hebrew = _both(host.api, "post", "/api/v1/games/", body)
    assert english["code"] == "invalid_rules"
    assert english["detail"] == "call_limit must be an integer from 0 to 15"
    assert hebrew["detail"] == "call_limit חייב להיות מספר שלם בין 0 ל-15"
