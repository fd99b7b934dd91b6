"""A `sentinel://` REDIS_URL (core/sentinel.py): what it names, what a wrong one is told, and
what each library is given for it. (tests/core/test_failover.py runs one against real servers.)"""

from __future__ import annotations

import socket
from typing import Any

import pytest
from django.core.exceptions import ImproperlyConfigured
from redis.sentinel import MasterNotFoundError, SentinelConnectionPool

from core import redis as core_redis
from core import sentinel
from core.perf.cache import RedisCache
from core.redis import Connection, SentinelConnection, get_redis, sentinel_pool
from core.sentinel import SentinelURL
from tests.core.conftest import BOUND, within


@pytest.mark.parametrize(
    ("url", "parsed"),
    [
        (
            "sentinel://10.0.0.1:26379,10.0.0.2:26380,redis-s3/mymaster/2",
            SentinelURL(
                sentinels=(("10.0.0.1", 26379), ("10.0.0.2", 26380), ("redis-s3", 26379)),
                master_name="mymaster",
                db=2,
            ),
        ),
        (
            "sentinel://:p%40ss%2Fw%3Ard@h1/yaniv/",
            SentinelURL(sentinels=(("h1", 26379),), master_name="yaniv", password="p@ss/w:rd"),
        ),
        (
            "SENTINEL://app:pw@h1:1,[::1]:2/yaniv/0?sentinel_password=s%23cret",
            SentinelURL(
                sentinels=(("h1", 1), ("::1", 2)),
                master_name="yaniv",
                username="app",
                password="pw",
                sentinel_password="s#cret",
            ),
        ),
    ],
    ids=["three sentinels, a db", "a password, percent-encoded", "user, IPv6, sentinel password"],
)
def test_a_sentinel_url_names_the_sentinels_the_master_and_the_db(url, parsed) -> None:
    assert sentinel.parse(url) == parsed


@pytest.mark.parametrize(
    "url", ["redis://127.0.0.1:6379/0", "rediss://:pw@host:6380/1", "unix:///run/redis.sock"]
)
def test_any_other_url_is_one_redis(url) -> None:
    assert sentinel.parse(url) is None


@pytest.mark.parametrize(
    ("url", "why"),
    [
        ("sentinel://:secret@h1:26379", "the master name is missing"),
        ("sentinel://:secret@h1:26379/", "the master name is missing"),
        ("sentinel://:secret@h1:port/yaniv", "the Sentinel 'h1:port' has no valid port"),
        ("sentinel://:secret@h1,,h2/yaniv", "a Sentinel's host is empty"),
        ("sentinel://:secret@:26379/yaniv", "the Sentinel ':26379' has no host name"),
        ("sentinel://:secret@h1/yaniv/two", "the database 'two' is not a number"),
        ("sentinel://:secret@h1/yaniv/0/x", "the path is /master_name or /master_name/db"),
        ("sentinel://:secret@h1/yaniv?password=x", "unknown parameter(s) password"),
        ("sentinel://secret@h1/yaniv", "the credentials are `[username]:password@`"),
    ],
)
def test_a_wrong_sentinel_url_says_what_is_wrong_and_shows_no_password(url, why) -> None:
    with pytest.raises(ImproperlyConfigured) as raised:
        sentinel.parse(url)
    message = str(raised.value)
    assert why in message
    assert "the form is sentinel://[[username]:password@]host[:port]" in message
    assert "secret" not in message


TARGET = SentinelURL(
    sentinels=(("10.0.0.1", 26379), ("::1", 26380)),
    master_name="yaniv",
    db=3,
    username="app",
    password="p@ss",
    sentinel_password="s#cret",
)


def test_celery_gets_kombus_own_form_and_the_master_name() -> None:
    url, options = sentinel.kombu_broker(TARGET, socket_connect_timeout=0.5, socket_timeout=0.5)
    assert url == "sentinel://app:p%40ss@10.0.0.1:26379/3;sentinel://app:p%40ss@[::1]:26380/3"
    assert options == {
        "master_name": "yaniv",
        "sentinel_kwargs": {
            "socket_connect_timeout": 0.5,
            "socket_timeout": 0.5,
            "password": "s#cret",
            "retry": None,  # each Sentinel asked once, then the next; and JSON, for `inspect`
        },
    }


def test_the_channel_layer_gets_a_host_of_sentinels() -> None:
    assert sentinel.channels_host(TARGET, socket_connect_timeout=0.5, socket_timeout=0.4) == {
        "sentinels": [("10.0.0.1", 26379), ("::1", 26380)],
        "master_name": "yaniv",
        "sentinel_kwargs": {
            "socket_connect_timeout": 0.5,
            "socket_timeout": 0.4,
            "password": "s#cret",
            "retry": None,
        },
        "db": 3,
        "username": "app",
        "password": "p@ss",
        "socket_connect_timeout": 0.5,
        "socket_timeout": 0.4,
    }


def test_a_pool_asks_the_sentinels_over_bounded_connections() -> None:
    """Nothing connects until a call: the pool only says where it will ask, and how."""
    pool = sentinel_pool(TARGET, connection_class=Connection, socket_timeout=0.5, retry=None)
    assert isinstance(pool, SentinelConnectionPool)
    assert pool.connection_class is SentinelConnection  # the outage bound, to the primary
    assert (pool.service_name, pool.connection_kwargs["db"]) == ("yaniv", 3)
    assert pool.connection_kwargs["password"] == "p@ss"
    clients = pool.sentinel_manager.sentinels
    asked = [client.connection_pool.connection_kwargs for client in clients]
    assert [(kwargs["host"], kwargs["port"]) for kwargs in asked] == list(TARGET.sentinels)
    assert {kwargs["socket_timeout"] for kwargs in asked} == {0.5}
    assert {kwargs["password"] for kwargs in asked} == {"s#cret"}
    retries = {client.connection_pool.make_connection().retry.get_retries() for client in clients}
    assert retries == {0}


def test_get_redis_and_the_cache_follow_the_sentinels(settings: Any) -> None:
    url = "sentinel://:pw@h1:1,h2:2/yaniv/1"
    settings.REDIS_URL = url
    get_redis.cache_clear()
    try:
        pool = get_redis().connection_pool
        assert isinstance(pool, SentinelConnectionPool)
        assert pool.connection_kwargs["decode_responses"] is True
    finally:
        get_redis.cache_clear()
    # Django's backend would split LOCATION at its commas (a primary, then replicas): one server.
    cache = RedisCache(url, {})
    assert cache._servers == [url]
    client = cache._cache  # type: ignore[attr-defined]
    assert isinstance(client._get_connection_pool(write=False), SentinelConnectionPool)
    assert RedisCache("redis://a:1/0,redis://b:1/0", {})._servers == [
        "redis://a:1/0",
        "redis://b:1/0",
    ]


def test_sentinels_that_do_not_answer_start_the_outage(settings: Any) -> None:
    """A Sentinel that takes the question and never answers (a partition) is waited for once;
    then the process's Redis calls fail at once for a while (core/redis.py), as after a
    timeout of Redis itself, instead of each waiting for the Sentinels again."""
    hole = socket.create_server(("127.0.0.1", 0), backlog=16)
    settings.REDIS_URL = f"sentinel://127.0.0.1:{hole.getsockname()[1]}/yaniv"
    get_redis.cache_clear()
    try:
        with pytest.raises(MasterNotFoundError):
            within(BOUND, get_redis().ping)
        with pytest.raises(core_redis.RedisUnavailable):
            within(0.1, get_redis().ping)
    finally:
        hole.close()
        get_redis.cache_clear()
        core_redis.outage_ends()
