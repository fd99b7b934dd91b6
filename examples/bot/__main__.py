"""The reference bot (docs/bots.md): plays the bots' ladder over the public API.

    pip install -r examples/bot/requirements.txt
    python -m examples.bot --server http://127.0.0.1:8000 --token ybot_... --games 10

The token may come from the environment instead (`YANIV_BOT_TOKEN`), which keeps it out of
the process list.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import signal
import sys

from examples.bot.api import Api
from examples.bot.bot import Bot
from examples.bot.strategies import STRATEGIES


def arguments(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m examples.bot", description=__doc__)
    parser.add_argument("--server", default="http://127.0.0.1:8000")
    parser.add_argument("--token", default=os.environ.get("YANIV_BOT_TOKEN"))
    parser.add_argument("--games", type=int, default=1, help="ladder games to play (1)")
    parser.add_argument("--strategy", choices=sorted(STRATEGIES), default="simple")
    parser.add_argument(
        "--player-counts", default="2,3,4,5", help="table sizes to accept (2,3,4,5)"
    )
    parser.add_argument("--stats", help="append a JSON line per game to this file")
    parser.add_argument("-v", "--verbose", action="store_true")
    args = parser.parse_args(argv)
    if not args.token:
        parser.error("a bot token is needed: --token or YANIV_BOT_TOKEN (docs/bots.md)")
    return args


async def main(args: argparse.Namespace) -> int:
    api = Api(args.server, args.token)
    counts = [int(count) for count in args.player_counts.split(",")]
    bot = Bot(api, STRATEGIES[args.strategy], counts)
    bot.stats_file = args.stats
    this = asyncio.current_task()

    def stop() -> None:
        if bot.stopping and this is not None:
            this.cancel()  # the second time: now
        logging.getLogger("bot").info("stopping after this game (again to stop now)")
        bot.stopping = True

    loop = asyncio.get_running_loop()
    loop.add_signal_handler(signal.SIGINT, stop)
    loop.add_signal_handler(signal.SIGTERM, stop)
    loop.add_signal_handler(signal.SIGUSR1, bot.cut)
    try:
        errors = await bot.run(args.games)
    except asyncio.CancelledError:
        return 130
    finally:
        await api.close()
    return 1 if errors else 0


if __name__ == "__main__":
    options = arguments()
    logging.basicConfig(
        level=logging.DEBUG if options.verbose else logging.INFO,
        format="%(asctime)s %(levelname)s %(message)s",
    )
    logging.getLogger("httpx").setLevel(logging.WARNING)
    sys.exit(asyncio.run(main(options)))
