"""`REDIS_URL` naming Redis Sentinels instead of one Redis (docs/configuration.md, `REDIS_URL`;
docs/operations.md, "Redis with failover"), and its translation into what each library that
talks to Redis takes.

The form, one URL for every component:

    sentinel://[[username]:password@]host[:port][,host[:port]...]/master_name[/db][?sentinel_password=...]

The hosts are the Sentinels (port 26379 when left out), `master_name` the name they monitor the
primary under (`sentinel monitor <master_name> ...`), `db` the database number (0 when left out).
The user name and password, if any, are the Redis primary's (and its replicas'); a Sentinel that
asks for a password of its own (its `requirepass`) gets `sentinel_password`. Special characters in
either password are percent-encoded, as in any URL.

Each library is given the Sentinels and asks them for the primary, again after losing it:
redis-py (`get_redis`, the cache: core/redis.py `sentinel_pool`), channels_redis (`channels_host`:
its host entry with `sentinels` and `master_name`) and kombu (`kombu_broker`: kombu's own form,
`sentinel://host:port;sentinel://host:port`, with `master_name` as a transport option).
This module is pure (no Django settings read): config/settings.py calls it while being read.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qs, quote, unquote, urlsplit

from django.core.exceptions import ImproperlyConfigured

SCHEME = "sentinel"
DEFAULT_PORT = 26379
FORM = (
    "sentinel://[[username]:password@]host[:port][,host[:port]...]/master_name[/db]"
    "[?sentinel_password=...]"
)


@dataclass(frozen=True)
class SentinelURL:
    """A parsed `sentinel://` REDIS_URL."""

    sentinels: tuple[tuple[str, int], ...]
    master_name: str
    db: int = 0
    username: str | None = None
    password: str | None = None
    sentinel_password: str | None = None

    def sentinel_kwargs(self, **timeouts: float) -> dict[str, Any]:
        """How to connect to the Sentinels themselves: the timeouts, and their password."""
        found: dict[str, Any] = dict(timeouts)
        if self.sentinel_password is not None:
            found["password"] = self.sentinel_password
        return found

    def auth_kwargs(self) -> dict[str, Any]:
        """The primary's database and credentials, as redis-py's connection arguments."""
        found: dict[str, Any] = {"db": self.db}
        if self.username is not None:
            found["username"] = self.username
        if self.password is not None:
            found["password"] = self.password
        return found


def is_sentinel(url: str) -> bool:
    return url.lower().startswith(SCHEME + "://")


def _bad(url: str, why: str) -> ImproperlyConfigured:
    shown = urlsplit(url)._replace(netloc=urlsplit(url).netloc.rpartition("@")[2])
    return ImproperlyConfigured(
        f"REDIS_URL {shown.geturl()!r} (password left out): {why}; the form is {FORM}"
    )


def parse(url: str) -> SentinelURL | None:
    """The Sentinels a `sentinel://` URL names; None for any other URL (one Redis).
    ImproperlyConfigured, saying what is wrong, for a `sentinel://` URL that is not the form."""
    if not is_sentinel(url):
        return None
    parts = urlsplit(url)
    userinfo, at, hosts = parts.netloc.rpartition("@")
    username = password = None
    if at:
        user, colon, secret = userinfo.partition(":")
        username = unquote(user) or None
        password = unquote(secret) if colon else None
        if not colon and user:  # `user@host`: a password alone is the usual, so say so
            raise _bad(url, "the credentials are `[username]:password@` (a colon before it)")
    sentinels = []
    for host in hosts.split(","):
        if not host:
            raise _bad(url, "a Sentinel's host is empty")
        located = urlsplit("//" + host)
        try:
            port = located.port or DEFAULT_PORT
        except ValueError:
            raise _bad(url, f"the Sentinel {host!r} has no valid port") from None
        if not located.hostname:
            raise _bad(url, f"the Sentinel {host!r} has no host name")
        sentinels.append((located.hostname, port))
    path = [unquote(segment) for segment in parts.path.split("/")[1:]]
    if path and path[-1] == "":
        path.pop()  # a trailing slash
    if not path or not path[0]:
        raise _bad(url, "the master name is missing")
    if len(path) > 2:
        raise _bad(url, "the path is /master_name or /master_name/db, nothing more")
    db = 0
    if len(path) == 2:
        if not path[1].isdigit():
            raise _bad(url, f"the database {path[1]!r} is not a number")
        db = int(path[1])
    query = parse_qs(parts.query, keep_blank_values=True)
    if unknown := sorted(query.keys() - {"sentinel_password"}):
        raise _bad(url, f"unknown parameter(s) {', '.join(unknown)}")
    sentinel_password = query["sentinel_password"][-1] if "sentinel_password" in query else None
    return SentinelURL(
        sentinels=tuple(sentinels),
        master_name=path[0],
        db=db,
        username=username,
        password=password,
        sentinel_password=sentinel_password,
    )


def kombu_broker(target: SentinelURL, **timeouts: float) -> tuple[str, dict[str, Any]]:
    """Celery's broker URL in kombu's form (one `sentinel://` URL per Sentinel, joined by `;`,
    each with the primary's credentials and database) and the transport options to add."""
    auth = ""
    if target.username is not None or target.password is not None:
        auth = f"{quote(target.username or '', safe='')}:{quote(target.password or '', safe='')}@"
    urls = [f"sentinel://{auth}{_host(host)}:{port}/{target.db}" for host, port in target.sentinels]
    # Each Sentinel asked once (redis-py's clients retry ten times by default): a publish made
    # while serving a request must not wait for one Sentinel eleven times. (None, not a Retry:
    # the options must stay JSON, as a worker's `inspect stats` sends them.)
    asking = {**target.sentinel_kwargs(**timeouts), "retry": None}
    options = {"master_name": target.master_name, "sentinel_kwargs": asking}
    return ";".join(urls), options


def channels_host(target: SentinelURL, **connection: float) -> dict[str, Any]:
    """channels_redis's host entry: the Sentinels, the master's name, and how to connect to the
    Sentinels (`sentinel_kwargs`) and to the primary (the rest)."""
    timeouts = {key: value for key, value in connection.items() if key.startswith("socket_")}
    return {
        "sentinels": list(target.sentinels),
        "master_name": target.master_name,
        # Each Sentinel asked once, then the next (redis-py's default: ten retries each).
        "sentinel_kwargs": {**target.sentinel_kwargs(**timeouts), "retry": None},
        **target.auth_kwargs(),
        **connection,
    }


def _host(host: str) -> str:
    return f"[{host}]" if ":" in host else host  # an IPv6 address
