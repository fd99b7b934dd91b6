"""bench.cluster's pure parts: the REDIS_URL it gives its hosts is the Sentinels' as the app
parses it, each host has its own loopback address, and a web host's sockets are read off its
/metrics as the gauge's samples add up."""

from __future__ import annotations

import http.server
import threading
from collections.abc import Iterator

import pytest

from bench import cluster
from core import sentinel


def test_the_hosts_redis_url_names_the_three_sentinels_and_the_primary() -> None:
    parsed = sentinel.parse(cluster.sentinel_url())
    assert parsed is not None
    assert parsed.sentinels == cluster.SENTINELS
    assert (parsed.master_name, parsed.db) == (cluster.MASTER, 0)


def test_every_host_has_an_address_of_its_own_on_the_loopback() -> None:
    addresses = [
        cluster.PROXY[0],
        cluster.POSTGRES[0],
        cluster.PGBOUNCER[0],
        *(address for address, _ in cluster.REDISES),
        *(address for address, _ in cluster.SENTINELS),
        *(address for address, _ in cluster.WEBS),
        *cluster.WORKERS,
    ]
    assert len(set(addresses)) == len(addresses)
    assert all(address.startswith("127.") and address != "127.0.0.1" for address in addresses)


METRICS = """# HELP yaniv_open_websockets Websockets connected
# TYPE yaniv_open_websockets gauge
yaniv_open_websockets{kind="game"} 12.0
yaniv_open_websockets{kind="me"} 30.0
yaniv_moves_total{source="human"} 99.0
"""


@pytest.fixture
def metrics_server() -> Iterator[tuple[str, int]]:
    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            body = METRICS.encode()
            self.send_response(200)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            pass

    server = http.server.HTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield "127.0.0.1", server.server_address[1]
    finally:
        server.shutdown()
        server.server_close()


def test_a_web_hosts_sockets_are_its_gauges_samples_added_up(
    metrics_server: tuple[str, int],
) -> None:
    assert cluster.open_sockets(*metrics_server) == 42


def test_a_web_host_that_does_not_answer_holds_no_socket() -> None:
    assert cluster.open_sockets("127.0.0.1", 1) == 0
