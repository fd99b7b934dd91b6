"""The embedded servers of a checkout keep their port, and move off one that is taken."""

from __future__ import annotations

import socket

from config.devservers import PG_PORT, REDIS_PORT, Postgres, Redis


def test_a_taken_port_is_given_up_and_the_new_one_remembered(tmp_path) -> None:
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        taken = holder.getsockname()[1]
        redis = Redis(data_dir=tmp_path / "redis", port=taken)
        redis.claim_port()
        assert redis.port != taken
    assert Redis(data_dir=tmp_path / "redis").port == redis.port
    assert redis.url == f"redis://127.0.0.1:{redis.port}/0"


def test_without_a_port_file_the_default_port_is_used(tmp_path) -> None:
    assert Postgres(data_dir=tmp_path / "postgres").port == PG_PORT
    assert Redis(data_dir=tmp_path / "redis").port == REDIS_PORT
