"""The Kubernetes manifests (deploy/kubernetes/), read as YAML without kubectl: what the
deployment relies on (probes, the drain's grace, one beat, the autoscalers, the disruption
budgets, the websockets' timeouts, the migrate Job), and that every variable they set is one
the application reads. `make k8s-check` renders them and validates them against the schemas."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
import yaml

from tests.docs.test_configuration import read_from_the_environment

ROOT = Path(__file__).resolve().parents[2]
KUBERNETES = ROOT / "deploy" / "kubernetes"
IMAGE = "yaniv-server"


def env_file(path: Path) -> dict[str, str]:
    pairs = {}
    for line in path.read_text().splitlines():
        if line.strip() and not line.lstrip().startswith("#"):
            name, value = line.split("=", 1)
            pairs[name] = value
    return pairs


def kustomization(directory: Path) -> dict[str, Any]:
    return yaml.safe_load((directory / "kustomization.yaml").read_text())


def objects(directory: Path) -> list[dict[str, Any]]:
    """The objects a kustomization's resources and components hold (files and directories,
    recursively), as written: no generator run, no patch applied."""
    found: list[dict[str, Any]] = []
    spec = kustomization(directory)
    for entry in spec.get("resources", []) + spec.get("components", []):
        path = (directory / entry).resolve()
        if path.is_dir():
            found += objects(path)
        else:
            found += [item for item in yaml.safe_load_all(path.read_text()) if item]
    return found


BASE = objects(KUBERNETES / "base")
MIGRATE = objects(KUBERNETES / "migrate")
EXPORTER = objects(KUBERNETES / "components" / "queue-exporter")
CONFIG = env_file(KUBERNETES / "components" / "settings" / "config.env")
EXAMPLE = KUBERNETES / "overlays" / "example" / "values"


def one(kind: str, name: str, among: list[dict[str, Any]] = BASE) -> dict[str, Any]:
    (found,) = [o for o in among if o["kind"] == kind and o["metadata"]["name"] == name]
    return found


def pod(name: str) -> dict[str, Any]:
    spec: dict[str, Any] = one("Deployment", name)["spec"]["template"]["spec"]
    return spec


def container(pod_spec: dict[str, Any]) -> dict[str, Any]:
    (only,) = pod_spec["containers"]
    return only


def compose_command(service: str) -> list[str]:
    compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    return compose["services"][service]["command"]


def test_web_is_probed_on_livez_and_readyz():
    web = container(pod("yaniv-web"))
    assert web["livenessProbe"]["httpGet"]["path"] == "/livez"
    assert web["readinessProbe"]["httpGet"]["path"] == "/readyz"
    assert web["startupProbe"]["httpGet"]["path"] == "/livez"
    ports = {port["name"]: port["containerPort"] for port in web["ports"]}
    for probe in ("livenessProbe", "readinessProbe", "startupProbe"):
        assert web[probe]["httpGet"]["port"] in ports
    assert ports["http"] == 8000  # the Dockerfile's port


def test_a_web_pod_drains_within_its_grace_period():
    """preStop's sleep (the endpoints updated), then SIGTERM and WEB_DRAIN_SECONDS of drain,
    all before the kubelet's SIGKILL."""
    spec = pod("yaniv-web")
    sleep = container(spec)["lifecycle"]["preStop"]["exec"]["command"]
    assert sleep[0] == "sleep"
    assert 0 < int(sleep[1]) <= 10
    drain = float(CONFIG["WEB_DRAIN_SECONDS"])
    assert drain == 30
    assert spec["terminationGracePeriodSeconds"] == 45
    assert spec["terminationGracePeriodSeconds"] >= int(sleep[1]) + drain + 5


def test_beat_is_one_replica_replaced_not_rolled():
    beat = one("Deployment", "yaniv-beat")
    assert beat["spec"]["replicas"] == 1
    assert beat["spec"]["strategy"] == {"type": "Recreate"}
    scaled = {
        o["spec"]["scaleTargetRef"]["name"] for o in BASE if o["kind"] == "HorizontalPodAutoscaler"
    }
    assert "yaniv-beat" not in scaled


def test_web_scales_on_cpu_and_the_workers_on_the_queue():
    web = one("HorizontalPodAutoscaler", "yaniv-web")
    worker = one("HorizontalPodAutoscaler", "yaniv-worker")
    for hpa, target in ((web, "yaniv-web"), (worker, "yaniv-worker")):
        assert hpa["apiVersion"] == "autoscaling/v2"
        assert hpa["spec"]["scaleTargetRef"] == {
            "apiVersion": "apps/v1",
            "kind": "Deployment",
            "name": target,
        }
        assert hpa["spec"]["minReplicas"] >= 2
        # Its own count only: a Deployment's `replicas` would reset it at every apply.
        assert "replicas" not in one("Deployment", target)["spec"]
    assert [m["type"] for m in web["spec"]["metrics"]] == ["Resource"]
    assert web["spec"]["metrics"][0]["resource"]["name"] == "cpu"
    external = worker["spec"]["metrics"][0]
    assert external["type"] == "External"
    assert external["external"]["metric"]["name"] == "yaniv_celery_queue_length"
    assert external["external"]["target"]["type"] == "AverageValue"


def test_the_queue_exporter_reads_celerys_queue_from_the_apps_redis():
    exporter = container(
        one("Deployment", "yaniv-queue-exporter", EXPORTER)["spec"]["template"]["spec"]
    )
    env = {item["name"]: item for item in exporter["env"]}
    assert env["REDIS_ADDR"]["valueFrom"]["secretKeyRef"] == {
        "name": "yaniv-secrets",
        "key": "REDIS_URL",
    }
    assert env["REDIS_EXPORTER_CHECK_SINGLE_KEYS"]["value"] == "db0=celery"
    assert re.fullmatch(r"oliver006/redis_exporter:v\d+\.\d+\.\d+", exporter["image"])


def test_disruption_budgets_cover_web_and_worker_pods():
    for name in ("yaniv-web", "yaniv-worker"):
        budget = one("PodDisruptionBudget", name)
        assert budget["apiVersion"] == "policy/v1"
        assert budget["spec"]["maxUnavailable"] == 1
        labels = one("Deployment", name)["spec"]["template"]["metadata"]["labels"]
        assert budget["spec"]["selector"]["matchLabels"].items() <= labels.items()


def test_the_websockets_ingress_allows_an_hour_of_quiet():
    sockets = one("Ingress", "yaniv-websockets")
    annotations = sockets["metadata"]["annotations"]
    assert annotations["nginx.ingress.kubernetes.io/proxy-read-timeout"] == "3600"
    assert annotations["nginx.ingress.kubernetes.io/proxy-send-timeout"] == "3600"
    (rule,) = sockets["spec"]["rules"]
    (path,) = rule["http"]["paths"]
    assert (path["path"], path["pathType"]) == ("/ws/", "Prefix")
    service = one("Service", "yaniv-web")
    for ingress in (sockets, one("Ingress", "yaniv-web")):
        assert ingress["apiVersion"] == "networking.k8s.io/v1"
        assert ingress["spec"]["tls"][0]["secretName"]
        backend = ingress["spec"]["rules"][0]["http"]["paths"][0]["backend"]["service"]
        assert backend["name"] == "yaniv-web"
        assert backend["port"]["name"] in {port["name"] for port in service["spec"]["ports"]}


def test_migrations_are_a_job_run_before_the_rollout():
    job = one("Job", "yaniv-migrate", MIGRATE)
    assert container(job["spec"]["template"]["spec"])["command"] == compose_command("migrate")
    assert container(job["spec"]["template"]["spec"])["command"] == [
        "python",
        "manage.py",
        "migrate",
        "--noinput",
    ]
    assert job["spec"]["template"]["spec"]["restartPolicy"] == "Never"
    annotations = job["metadata"]["annotations"]
    assert annotations["argocd.argoproj.io/hook"] == "PreSync"
    assert "pre-upgrade" in annotations["helm.sh/hook"].split(",")
    assert not [o for o in BASE if o["kind"] == "Job"], "the app's kustomization holds no Job"


def test_worker_and_beat_run_composes_commands():
    worker = container(pod("yaniv-worker"))["command"]
    assert (
        worker[:6]
        == compose_command("worker")[:6]
        == ["celery", "-A", "config", "worker", "--loglevel", "INFO"]
    )
    assert worker[6:] == ["--concurrency", "$(WORKER_CONCURRENCY)"]
    beat = container(pod("yaniv-beat"))["command"]
    assert beat[:6] == compose_command("beat")[:6]
    assert beat[6:] == ["--schedule", "/tmp/celerybeat-schedule"]  # noqa: S108 (an emptyDir)
    assert "command" not in container(pod("yaniv-web"))  # the image's own (Dockerfile)


def test_metrics_are_scraped_from_every_web_pod_with_the_token():
    template = one("Deployment", "yaniv-web")["spec"]["template"]
    annotations = template["metadata"]["annotations"]
    assert annotations["prometheus.io/scrape"] == "true"
    assert annotations["prometheus.io/path"] == "/metrics"
    assert (
        int(annotations["prometheus.io/port"])
        == container(template["spec"])["ports"][0]["containerPort"]
    )
    monitor = one("ServiceMonitor", "yaniv-web")
    assert (
        monitor["spec"]["selector"]["matchLabels"]
        == one("Service", "yaniv-web")["spec"]["selector"]
    )
    (endpoint,) = monitor["spec"]["endpoints"]
    assert endpoint["path"] == "/metrics"
    assert endpoint["port"] == "http"
    credentials = endpoint["authorization"]["credentials"]
    assert credentials == {"name": "yaniv-secrets", "key": "METRICS_TOKEN"}
    assert "METRICS_TOKEN" in env_file(EXAMPLE / "secret.env")


def app_pods() -> list[dict[str, Any]]:
    specs = [pod(name) for name in ("yaniv-web", "yaniv-worker", "yaniv-beat")]
    return [*specs, one("Job", "yaniv-migrate", MIGRATE)["spec"]["template"]["spec"]]


@pytest.mark.parametrize("spec", app_pods(), ids=["web", "worker", "beat", "migrate"])
def test_every_app_pod_runs_as_non_root_on_a_read_only_root(spec):
    """The image's user (uid 1000), a read-only root, and in memory or scratch space what the
    app writes: /tmp and each pod's own PROMETHEUS_MULTIPROC_DIR."""
    assert spec["securityContext"]["runAsNonRoot"] is True
    assert spec["securityContext"]["runAsUser"] == 1000
    app = container(spec)
    assert app["image"] == IMAGE
    assert app["securityContext"]["readOnlyRootFilesystem"] is True
    assert app["securityContext"]["allowPrivilegeEscalation"] is False
    assert app["securityContext"]["capabilities"]["drop"] == ["ALL"]
    volumes = {volume["name"]: volume for volume in spec["volumes"]}
    mounts = {mount["mountPath"]: volumes[mount["name"]] for mount in app["volumeMounts"]}
    assert "emptyDir" in mounts["/tmp"]  # noqa: S108 (the pod's own)
    assert mounts[CONFIG["PROMETHEUS_MULTIPROC_DIR"]]["emptyDir"]["medium"] == "Memory"
    for need in ("requests", "limits"):
        assert {"cpu", "memory"} <= app["resources"][need].keys()
    assert spec["enableServiceLinks"] is False
    assert [ref for source in app["envFrom"] for ref in source.values()] == [
        {"name": "yaniv-config"},
        {"name": "yaniv-secrets"},
    ]


def documented_variables() -> set[str]:
    """Every variable named in the first cell of a table row of docs/configuration.md."""
    names = set()
    for line in (ROOT / "docs" / "configuration.md").read_text().splitlines():
        if line.startswith("| `"):
            names |= set(re.findall(r"`([A-Z][A-Z0-9_]*)`", line.split("|")[1]))
    return names


def test_every_variable_the_pods_get_is_one_the_app_reads():
    """The ConfigMap's and the Secret's keys, and the variables the commands name, are read by
    config/settings.py or listed in docs/configuration.md: none is a typo nobody reads."""
    known = (
        read_from_the_environment((ROOT / "config" / "settings.py").read_text())
        | documented_variables()
    )
    given = (
        set(CONFIG) | set(env_file(EXAMPLE / "config.env")) | set(env_file(EXAMPLE / "secret.env"))
    )
    for spec in app_pods():
        app = container(spec)
        given |= {item["name"] for item in app.get("env", [])}
        given |= set(re.findall(r"\$\(([A-Z0-9_]+)\)", " ".join(app.get("command", []))))
    assert {
        "DATABASE_URL",
        "REDIS_URL",
        "SECRET_KEY",
        "ALLOWED_HOSTS",
        "WEB_DRAIN_SECONDS",
    } <= given
    assert not given - known, f"set for the pods, read by nobody: {sorted(given - known)}"


def test_the_example_secret_holds_placeholders_only():
    secret = env_file(EXAMPLE / "secret.env")
    assert set(secret) == {"SECRET_KEY", "DATABASE_URL", "REDIS_URL", "METRICS_TOKEN"}
    for value in secret.values():
        assert "replace-me" in value or "example.internal" in value


def load_check() -> ModuleType:
    spec = importlib.util.spec_from_file_location("k8s_check", KUBERNETES / "check.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_check_renders_every_kustomization_and_no_component():
    names = [str(path.relative_to(KUBERNETES)) for path in load_check().kustomizations()]
    assert names == [
        "base",
        "migrate",
        "overlays/example",
        "overlays/example/argocd",
        "overlays/example/migrate",
    ]


def test_the_check_refuses_an_unknown_field_kind_or_custom_resource_field():
    check = load_check()
    web = one("Deployment", "yaniv-web")
    assert check.problems(web) == []
    typo = {**web, "spec": {**web["spec"], "replica": 2}}
    assert "'replica' was unexpected" in check.problems(typo)[0]
    unknown = {"apiVersion": "example.com/v1", "kind": "Thing", "metadata": {"name": "x"}}
    assert check.problems(unknown) == [
        "no schema for example.com/v1 Thing in Kubernetes 1.32, nor in CUSTOM_SCHEMAS"
    ]
    monitor = one("ServiceMonitor", "yaniv-web")
    assert check.problems(monitor) == []
    endpoint = {**monitor["spec"]["endpoints"][0], "interval": "30 seconds"}
    wrong = {**monitor, "spec": {**monitor["spec"], "endpoints": [endpoint]}}
    assert check.problems(wrong)


def test_argo_cds_presync_job_finds_its_namespace_config_and_secret():
    """In one Argo CD Application the Job is a PreSync hook, which runs before the sync
    applies anything else: what it needs is made by PreSync hooks of earlier waves."""
    argocd = kustomization(KUBERNETES / "overlays" / "example" / "argocd")
    assert argocd["resources"] == ["../../../base", "../../../migrate"]
    waves = {}
    for entry in argocd["patches"]:
        (operation,) = yaml.safe_load(entry["patch"])
        assert operation["value"]["argocd.argoproj.io/hook"] == "PreSync"
        waves[entry["target"]["kind"]] = int(operation["value"]["argocd.argoproj.io/sync-wave"])
    job = one("Job", "yaniv-migrate", MIGRATE)["metadata"]["annotations"]
    job_wave = int(job.get("argocd.argoproj.io/sync-wave", "0"))
    assert waves["Namespace"] < waves["(ConfigMap|Secret)"] < job_wave
