"""The reference bot (examples/bot/, docs/bots.md): it uses nothing of the server but the public
API (and the engine, for its `hard` strategy only); its `hard` strategy sees from the API's
payload what the house CPU sees from the engine; and it plays for real: a ladder game as its
own process against a live server, and a game whose socket is cut mid-game, resumed."""

from __future__ import annotations

import ast
import asyncio
import json
import os
import random
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from examples.bot.api import Api
from examples.bot.bot import Bot, GameStats
from examples.bot.hard import engine_view
from examples.bot.strategies import simple
from games.engine.cpu import Level, choose_action
from games.engine.state import GameState
from games.engine.view import view
from games.models import Game, GameStatus
from matchmaking.services import matchmaking_pass
from tests.games.conftest import Client, celery_worker, play_moves  # noqa: F401 - a fixture
from tests.servers import serving

ROOT = Path(__file__).resolve().parents[2]
BOT = ROOT / "examples" / "bot"
THIRD_PARTY = {"httpx", "websockets"}
# A fast game: the rules the tournament bench plays (docs/rules.md §7 and §12).
FAST_RULES = {"ending": "first_over_100", "call_limit": 15, "values": "faces_high"}


def imported(path: Path) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
    return names


def test_the_bot_imports_the_standard_library_httpx_and_websockets_only() -> None:
    for path in sorted(BOT.glob("*.py")):
        for name in imported(path):
            top = name.split(".")[0]
            if name.startswith("examples.bot") or top in THIRD_PARTY:
                continue
            if path.name == "hard.py" and name.startswith("games.engine"):
                continue  # the `hard` strategy's engine: pure Python, no Django
            assert top in sys.stdlib_module_names, f"{path.name} imports {name}"


def test_the_requirements_name_what_the_bot_imports() -> None:
    required = {
        line.split(">")[0].split("=")[0].strip()
        for line in (BOT / "requirements.txt").read_text().splitlines()
        if line.strip() and not line.startswith("#")
    }
    assert required == THIRD_PARTY


@pytest.mark.parametrize(
    "rules", [{}, {"sevens": True, "spy_queen": True}, {"wild_rank": True, "decks": 2}], ids=str
)
def test_the_hard_strategy_sees_from_the_api_what_the_cpu_sees(
    db: None, rules: dict[str, Any]
) -> None:
    """At every seat of positions along a game, `engine_view` of the API's game is the engine's
    view of that seat, but for the keys the API leaves out (which `hard` does not read), and
    `hard` chooses the same move from either."""
    clients = [Client.guest(f"P{index}") for index in range(3)]
    created = clients[0].post("/api/v1/games/", {"max_players": 3, "rules": rules})
    assert created.status_code == 201, created.content
    game_id = created.json()["id"]
    for client in clients[1:]:
        code = created.json()["invite_code"]
        client.post(f"/api/v1/games/{game_id}/join/", {"invite_code": code})
    clients[0].post(f"/api/v1/games/{game_id}/start/")
    compared = 0
    for _ in range(10):
        play_moves(game_id, clients, 5)
        game = Game.objects.get(pk=game_id)
        if game.status != GameStatus.ACTIVE:
            break
        state = GameState.from_dict(game.state or {})
        for seat, client in enumerate(clients):
            seen = engine_view(client.game(game_id))
            truth = view(state, seat)
            truth["starter"] = None
            for entry in truth["seats"]:
                entry["out_round"] = None
            assert {**seen, "last_round": None} == {**truth, "last_round": None}
            if state.turn == seat:
                ours = choose_action(seen, random.Random(compared), Level.HARD)
                assert ours == choose_action(truth, random.Random(compared), Level.HARD)
                compared += 1
    assert compared >= 5


@pytest.fixture
def live(transactional_db: None, celery_worker: None, settings: Any) -> Iterator[str]:  # noqa: F811
    """The application under uvicorn on committed data, a worker playing CPU turns at once."""
    settings.YANIV_CPU_THINK_SECONDS = 0
    settings.YANIV_BOT_FILL_SECONDS = 1
    with serving() as port:
        yield f"http://127.0.0.1:{port}"


def bot_token(name: str) -> str:
    """A bot account made as docs/bots.md makes one: a guest, registered, upgraded."""
    client = Client.guest(name)
    registered = client.post(
        "/api/v1/auth/register/", {"username": name, "password": "Kq7-long-enough-zW!"}
    )
    assert registered.status_code == 200, registered.content
    upgraded = client.post("/api/v1/bot/upgrade/", {"description": "the reference bot"})
    assert upgraded.status_code == 200, upgraded.content
    return str(upgraded.json()["token"]["token"])


def test_the_reference_bot_plays_a_ladder_game(live: str, tmp_path: Path) -> None:
    """`python -m examples.bot` as its own process: it queues in the bots' pool, is seated
    (filled with a CPU level: the matchmaking pass is run here, as beat would), plays the
    game to its end and stops."""
    stats = tmp_path / "stats.jsonl"
    command = [sys.executable, "-m", "examples.bot", "--server", live, "--games", "1"]
    command += ["--player-counts", "2", "--stats", str(stats)]
    env = {**os.environ, "YANIV_BOT_TOKEN": bot_token("refbot")}
    bot = subprocess.Popen(
        command, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT
    )
    try:
        deadline = time.monotonic() + 300  # a bound, not a measure: a game takes seconds
        while bot.poll() is None and time.monotonic() < deadline:
            matchmaking_pass()
            time.sleep(0.2)
    finally:
        if bot.poll() is None:
            bot.kill()
        output = bot.communicate()[0].decode()
    assert bot.returncode == 0, output
    (line,) = stats.read_text().splitlines()
    played = json.loads(line)
    assert played["status"] == "finished", output
    assert (played["errors"], played["timeouts"]) == ([], 0), output
    assert played["moves"] > 0
    assert played["place"] in (1, 2)
    game = Game.objects.get(pk=played["game"])
    assert (game.status, game.ranked) == (GameStatus.FINISHED, True)


def test_a_game_socket_cut_mid_game_is_resumed_and_the_game_finished(live: str) -> None:
    """The bot's game socket dropped at its second move (as a network failure would): it opens
    it again with `?after=`, misses no turn, and plays the game to its end."""
    host = Client.guest("host")
    token = host.token
    created = host.post("/api/v1/games/", {"max_players": 2, "rules": FAST_RULES}).json()
    host.post(f"/api/v1/games/{created['id']}/cpu/", {"level": "easy"})
    host.post(f"/api/v1/games/{created['id']}/start/")

    async def run() -> GameStats:
        api = Api(live, token)
        moves = 0

        async def cutting(api: Api, game: dict[str, Any]) -> dict[str, Any] | None:
            nonlocal moves
            moves += 1
            if moves == 2:
                bot.cut()
            return await simple(api, game)

        bot = Bot(api, cutting, [2])
        try:
            return await asyncio.wait_for(bot.play(created["id"]), 300)
        finally:
            await api.close()

    stats = asyncio.run(run())
    assert (stats.status, stats.cuts, stats.timeouts, stats.errors) == ("finished", 1, 0, [])
    assert stats.reconnects == 1
    assert stats.moves > 2
