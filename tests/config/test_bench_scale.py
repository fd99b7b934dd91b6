"""bench/scale.py's own parts, without a load: the nginx it configures from the compose proxy's
file, and the checks, which must fail on what breaks the contract (the bench's figures are
its own, printed, never asserted here)."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from bench.scale import (
    NGINX_TEMPLATE,
    action_faults,
    gap_fault,
    nginx_conf,
    once_faults,
    probe_fault,
    push_faults,
)


def test_the_bench_nginx_is_the_compose_proxy_with_an_upstream_of_local_processes(
    tmp_path: Path,
):
    template = NGINX_TEMPLATE.read_text()
    conf = nginx_conf(template, tmp_path, 18080, [18001, 18002, 18003])
    assert conf.startswith(f"daemon off;\npid {tmp_path}/nginx.pid;\n")
    assert "listen 127.0.0.1:18080;" in conf
    assert "listen 80;" not in conf
    upstream = re.search(r"upstream yaniv_web \{(.*?)\}", conf, re.S)
    assert upstream is not None
    assert re.findall(r"server (\S+);", upstream.group(1)) == [
        "127.0.0.1:18001",
        "127.0.0.1:18002",
        "127.0.0.1:18003",
    ]
    assert "set $web http://yaniv_web;" in conf
    assert not re.search(r"^\s*resolver", conf, re.M)  # no Docker DNS here
    assert f"proxy_temp_path {tmp_path}/proxy;" in conf
    # Every proxy directive and location of the compose proxy, unchanged.
    for line in template.splitlines():
        if re.match(r"\s*(proxy_|location|map|return)", line):
            assert line in conf.splitlines()
    nginx = shutil.which("nginx") or shutil.which("nginx", path="/usr/sbin")
    if nginx:
        (tmp_path / "nginx.conf").write_text(conf)
        done = subprocess.run(
            [nginx, "-t", "-p", str(tmp_path), "-c", str(tmp_path / "nginx.conf"), "-e", "stderr"],
            capture_output=True,
            text=True,
        )
        assert done.returncode == 0, done.stderr


def test_a_proxy_file_the_bench_cannot_follow_is_refused_by_name(tmp_path: Path):
    template = NGINX_TEMPLATE.read_text().replace("listen 80;", "listen 8080;")
    with pytest.raises(ValueError, match="listen 80"):
        nginx_conf(template, tmp_path, 18080, [18001])


def test_pushes_out_of_order_or_with_a_gap_are_counted():
    assert push_faults([0, 0, 1, 2, 2, 3]) == (0, 0)  # several events of one action share it
    assert push_faults([4, 5, 7, 8]) == (0, 1)
    assert push_faults([0, 1, 3, 2, 3]) == (1, 1)
    played = [{"seq": 6, "type": "played"}, {"seq": 7, "type": "round_ended"}]
    assert gap_fault(5, 7, played) is None
    fault = gap_fault(5, 8, played)
    assert fault is not None
    assert "[7]" in fault


def test_a_lost_or_doubled_update_is_a_fault():
    def events(*seqs: int) -> list[dict[str, object]]:
        start = [{"seq": 0, "type": "game_started"}, {"seq": 0, "type": "round_started"}]
        return start + [{"seq": seq, "type": "played", "seat": 0, "by": "cpu"} for seq in seqs]

    assert action_faults("g", 3, events(1, 2, 3)) == []
    assert action_faults("g", 0, events()) == []
    assert action_faults("g", 3, events(1, 3)) != []  # an action lost
    assert action_faults("g", 3, events(1, 2, 2, 3)) != []  # one applied twice
    assert action_faults("g", 2, events(1, 2, 3)) != []  # the game's seq behind its events


def test_a_move_applied_twice_or_not_at_all_is_a_fault():
    events = [
        {"seq": 1, "type": "played", "seat": 1, "by": "cpu"},
        {"seq": 2, "type": "played", "seat": 0, "by": "player"},
        {"seq": 3, "type": "played", "seat": 1, "by": "cpu"},
        {"seq": 4, "type": "yaniv_called", "seat": 0},
        {"seq": 4, "type": "round_ended"},
    ]
    assert once_faults("g", 0, [2, 4], events) == []
    assert once_faults("g", 0, [2], events) != []  # a move nobody had a 200 for
    assert once_faults("g", 0, [2, 4, 6], events) != []  # a 200 for a move not applied
    assert once_faults("g", 1, [], events) == []  # the CPU's seat: no player's moves


def test_a_move_sent_twice_must_be_applied_once():
    game = {"seq": 8}
    applied = (200, game)
    stale = (409, {"code": "stale_seq", "detail": "moved on", "game": game})
    # The keyed one won: sent again, it gets its first answer; or the bare one won.
    assert probe_fault(applied, stale, applied) is None
    assert probe_fault(stale, applied, stale) is None
    assert probe_fault(applied, applied, applied) is not None  # applied twice
    assert probe_fault(stale, stale, stale) is not None  # applied by neither
    assert probe_fault(applied, (409, {"code": "not_your_turn"}), applied) is not None
    assert probe_fault(applied, stale, (200, {"seq": 9})) is not None  # applied again
    assert probe_fault(stale, applied, applied) is not None  # the refused key applied later
