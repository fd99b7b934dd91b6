"""Who has a `ws /ws/v1/me/` socket open, on any device, counted in Redis across web processes.

Per player, a sorted set of their open me sockets (`presence:<player>`): each socket's channel
name, scored with the time its entry expires. A socket adds itself when it opens and again every
`refresh_seconds` while it stays open, pushing its expiry `YANIV_PRESENCE_TTL_SECONDS` ahead, and
removes itself when it closes. A web process that dies closes nothing: its sockets' entries are
simply not refreshed and expire, so a player is online while any of their entries is unexpired,
whatever became of the process that wrote it.

Why a sorted set scored by expiry, not a key per socket with a TTL: counting keys means a SCAN
over the key space (not atomic, and slow with thousands of sockets), while a sorted set is one
key per player whose live entries one script drops, counts and changes atomically. So "the
first socket opened" and "the last one closed" are told apart exactly, however many devices
connect or leave at once: friends are told once. A second sorted set (`presence:online`) holds
every online player, scored by their latest expiry: `presence_sweep` (beat) finds those whose
sockets all expired without closing, which no socket would otherwise report.

Each call is one script, one round trip; a web process renews all its sockets that are due in
one pipelined round trip (`sockets_renewed`). Nothing here knows friends: the me socket (games)
reports the changes these return through `accounts.signals.player_presence_changed`.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from functools import cache
from uuid import UUID

from django.conf import settings
from django.core.cache import cache as django_cache
from redis.commands.core import Script

from core.redis import get_redis

# KEYS: the player's sockets, the online players. ARGV: now, expiry, socket, player, ttl (ms).
# Adds or renews this socket and drops the player's expired ones. Returns 1 when the player was
# not counted online (they have just come online), else 0.
_OPEN = """
local expires = tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', tonumber(ARGV[1]))
redis.call('ZADD', KEYS[1], expires, ARGV[3])
redis.call('PEXPIRE', KEYS[1], ARGV[5])
local was = redis.call('ZSCORE', KEYS[2], ARGV[4])
redis.call('ZADD', KEYS[2], 'GT', expires, ARGV[4])
if was then return 0 end
return 1
"""

# KEYS: as _OPEN. ARGV: now, socket (or '' to only drop the expired), player.
# Returns the live sockets left, or 0 when none is left of a player counted online (they have
# just gone offline: reported once, by whichever close or sweep took them out), or -1.
_CLOSE = """
local now = tonumber(ARGV[1])
if ARGV[2] ~= '' then redis.call('ZREM', KEYS[1], ARGV[2]) end
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
local left = redis.call('ZCARD', KEYS[1])
if left > 0 then
    local latest = redis.call('ZRANGE', KEYS[1], -1, -1, 'WITHSCORES')[2]
    redis.call('ZADD', KEYS[2], 'XX', latest, ARGV[3])
    return left
end
if redis.call('ZREM', KEYS[2], ARGV[3]) == 1 then return 0 end
return -1
"""


@cache
def _open() -> Script:
    return Script(get_redis(), _OPEN)


@cache
def _close() -> Script:
    return Script(get_redis(), _CLOSE)


def _sockets_key(player_id: UUID | str) -> str:
    # Under the cache's prefix: runs side by side (the test suite's) keep apart.
    return django_cache.make_key(f"presence:{player_id}")


def _online_key() -> str:
    return django_cache.make_key("presence:online")


def refresh_seconds() -> float:
    """How often an open socket renews its entry: three times a TTL, so one late renewal does
    not make its player blink offline."""
    return float(settings.YANIV_PRESENCE_TTL_SECONDS) / 3


def _open_call(
    player_id: UUID | str, socket: str, now: float
) -> tuple[list[str], list[float | str]]:
    """The keys and arguments of `_OPEN` for one socket."""
    ttl = float(settings.YANIV_PRESENCE_TTL_SECONDS)
    keys = [_sockets_key(player_id), _online_key()]
    return keys, [now, now + ttl, socket, str(player_id), int(ttl * 1000)]


def socket_opened(player_id: UUID | str, socket: str, *, now: float | None = None) -> bool:
    """Count (or renew) one open me socket of the player: whether they have just come online."""
    keys, args = _open_call(player_id, socket, time.time() if now is None else now)
    return int(_open()(keys=keys, args=args)) == 1


def sockets_renewed(
    sockets: Sequence[tuple[UUID | str, str]], *, now: float | None = None
) -> list[bool]:
    """Renew many open me sockets (player, socket) as `socket_opened` does each, in one round
    trip (pipelined): for each, whether its player has just come online (their entries had
    lapsed meanwhile: Redis lost them, or the renewal came late)."""
    if not sockets:
        return []
    now = time.time() if now is None else now
    pipeline = get_redis().pipeline(transaction=False)
    script = _open()
    for player_id, socket in sockets:
        keys, args = _open_call(player_id, socket, now)
        script(keys=keys, args=args, client=pipeline)
    return [int(came) == 1 for came in pipeline.execute()]


def socket_closed(player_id: UUID | str, socket: str, *, now: float | None = None) -> bool:
    """Forget one me socket of the player: whether they have just gone offline."""
    now = time.time() if now is None else now
    keys = [_sockets_key(player_id), _online_key()]
    return int(_close()(keys=keys, args=[now, socket, str(player_id)])) == 0


def online(player_ids: list[UUID] | list[str], *, now: float | None = None) -> set[str]:
    """Those of these players with a me socket open now (one pipelined round trip)."""
    now = time.time() if now is None else now
    pipeline = get_redis().pipeline(transaction=False)
    for player_id in player_ids:
        pipeline.zcount(_sockets_key(player_id), now, "+inf")
    counts = pipeline.execute()
    return {str(player_id) for player_id, count in zip(player_ids, counts, strict=True) if count}


def presence_sweep(*, now: float | None = None, limit: int = 1000) -> list[str]:
    """The players whose every me socket expired without closing (a web process died), now
    forgotten: they have just gone offline. At most `limit` a call."""
    now = time.time() if now is None else now
    due: list[str] = get_redis().zrangebyscore(_online_key(), "-inf", now, start=0, num=limit)  # type: ignore[assignment]
    gone = []
    for player_id in due:
        keys = [_sockets_key(player_id), _online_key()]
        if int(_close()(keys=keys, args=[now, "", player_id])) == 0:
            gone.append(str(player_id))
    return gone
