"""`Idempotency-Key` on `POST /games/{id}/actions/` (docs/api.md, Actions): the key checked, and
an applied action's answer kept in Redis for a day, so that a repeat with the same key and
body gets the first answer and applies nothing.

Two Lua scripts make each step atomic: claiming a key (or finding what it holds), and keeping
an answer within the player's daily quota of bytes (IDEMPOTENCY_MAX_BYTES_PER_PLAYER).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import re
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.utils.translation import gettext as _
from redis import RedisError
from rest_framework.response import Response

from accounts.models import Player
from core.encoding import json_text
from core.errors import ApplicationError
from core.redis import get_redis

TTL = 24 * 3600
# A claim outlives any request (a Redis or database stall is bounded well below it); past it, a
# claim left by a process that died no longer answers `in_progress` for a day.
CLAIM_TTL = 60
_KEY = re.compile(r"[ -~]{1,255}")  # printable ASCII: space to tilde


def check_key(key: str) -> None:
    """400 `invalid` unless `key` is 1 to 255 printable ASCII characters, saying which not."""
    if _KEY.fullmatch(key):
        return
    if not key:
        detail = _("Idempotency-Key is empty: send 1 to 255 printable ASCII characters.")
    elif len(key) > 255:
        detail = _(
            "Idempotency-Key is %(length)s characters long: "
            "send 1 to 255 printable ASCII characters."
        ) % {"length": len(key)}
    else:
        detail = _(
            "Idempotency-Key holds a character that is not printable ASCII: "
            "send 1 to 255 printable ASCII characters."
        )
    raise ApplicationError("invalid", detail)


# Atomically: the entry already there (the caller reads it), or nil after claiming the key.
_CLAIM = """
    local entry = redis.call('GET', KEYS[1])
    if entry then return entry end
    redis.call('SET', KEYS[1], ARGV[1], 'EX', ARGV[2])
    return false
"""
# Atomically: keep the entry if the player's bytes, counted over a window of a day from the
# first one kept, stay within the cap: 1 if kept, else 0 (the caller then drops its claim).
# Entries outlive the window that counted them by up to a day: at most twice the cap is held.
_KEEP = """
    local size = tonumber(ARGV[2])
    if tonumber(redis.call('GET', KEYS[1]) or '0') + size > tonumber(ARGV[3]) then
        return 0
    end
    redis.call('INCRBY', KEYS[1], size)
    if redis.call('TTL', KEYS[1]) < 0 then redis.call('EXPIRE', KEYS[1], ARGV[4]) end
    redis.call('SET', KEYS[2], ARGV[1], 'EX', ARGV[4])
    return 1
"""


def run_once(
    *, player: Player, scope: str, body: dict[str, Any], act: Callable[[], Response]
) -> Response:
    """Run `act` once per `scope` (the player, the game and the key); a repeat gets the kept
    response (docs/api.md, Actions).

    Redis holds, per key, a digest of it (whatever its length, 69 bytes), then the answer
    compactly: `{"f": body fingerprint, "s": status, "b": body}`, some 1-3 KB. Only an applied
    action's answer is kept: a refused one applied nothing (its transaction rolled back), and
    as every action carries `seq`, a repeat evaluated afresh cannot be applied twice.
    """
    redis = get_redis()
    key = "idem:" + hashlib.sha256(scope.encode()).hexdigest()
    fingerprint = hashlib.sha256(json.dumps(body, sort_keys=True).encode()).hexdigest()
    claim = json_text({"f": fingerprint})
    found = redis.register_script(_CLAIM)(keys=[key], args=[claim, CLAIM_TTL])
    if found is not None:
        stored = json.loads(found)
        if stored["f"] != fingerprint:
            raise ApplicationError(
                "idempotency_mismatch",
                _("This Idempotency-Key was used with a different body."),
                422,
            )
        if "s" not in stored:
            raise ApplicationError(
                "in_progress", _("The first request with this key is still running."), 409
            )
        return Response(stored["b"], status=stored["s"])
    try:
        response = act()
    except BaseException:
        # Refused (or failed): the claim goes, and a retry is evaluated afresh.
        redis.delete(key)
        raise
    entry = json_text({"f": fingerprint, "s": response.status_code, "b": response.data})
    size = len(key) + len(entry.encode())
    quota = f"idem-bytes:{player.pk}"
    cap = settings.IDEMPOTENCY_MAX_BYTES_PER_PLAYER
    try:
        kept = redis.register_script(_KEEP)(keys=[quota, key], args=[entry, size, cap, TTL])
    except RedisError:
        # Redis lost since the claim (its primary died: docs/operations.md, "Redis with
        # failover"): the move is committed, so it is answered, not kept, as over the quota.
        kept = False
    if not kept:
        # Over the quota the move still counts; only its replay is lost, and `seq` makes a
        # retry harmless anyway (409 stale_seq with the current game). A claim that cannot be
        # dropped now answers a repeat 409 in_progress until it expires (CLAIM_TTL).
        with contextlib.suppress(RedisError):
            redis.delete(key)
        response["Idempotency-Key-Stored"] = "false"
    return response
