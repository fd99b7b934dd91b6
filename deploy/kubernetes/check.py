"""Render every kustomization under deploy/kubernetes/ and validate every object (`make k8s-check`).

    python deploy/kubernetes/check.py [--kubectl PATH]

Each directory with a `kustomization.yaml` of kind Kustomization (the components are checked
through the kustomizations that use them) is rendered with `kubectl kustomize`, and each object
it yields is validated with kubernetes-validate against the schemas of Kubernetes
KUBERNETES_VERSION, strict (a field the schema does not name is an error). A kind those schemas
lack is a custom resource: it must be one of CUSTOM_SCHEMAS, validated against the JSON schema
kept here for it (schemas/), or the check fails; no object passes unchecked. Exits 0 when every
object is valid, 1 otherwise, 2 without kubectl.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import jsonschema_rs
import yaml
from kubernetes_validate import utils as kubernetes_validate

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
KUBERNETES_VERSION = "1.32"
# apiVersion and kind of each custom resource the manifests hold, and its schema.
CUSTOM_SCHEMAS = {
    ("monitoring.coreos.com/v1", "ServiceMonitor"): HERE / "schemas/servicemonitor.json"
}


def kustomizations() -> list[Path]:
    """The directories to render: every kustomization that is not a component."""
    found = []
    for path in HERE.rglob("kustomization.yaml"):
        if yaml.safe_load(path.read_text()).get("kind", "Kustomization") == "Kustomization":
            found.append(path.parent)
    return sorted(found)


def render(kubectl: str, directory: Path) -> list[dict[str, Any]]:
    result = subprocess.run(
        [kubectl, "kustomize", str(directory)], capture_output=True, text=True, check=False
    )
    if result.returncode:
        raise SystemExit(
            f"kubectl kustomize {directory.relative_to(ROOT)} failed:\n{result.stderr}"
        )
    return [item for item in yaml.safe_load_all(result.stdout) if item]


def problems(item: dict[str, Any]) -> list[str]:
    """What is wrong with one object (nothing: valid)."""
    custom = CUSTOM_SCHEMAS.get((item.get("apiVersion", ""), item.get("kind", "")))
    if custom is not None:
        validator = jsonschema_rs.Draft202012Validator(json.loads(custom.read_text()))
        return [
            f"{'.'.join(str(part) for part in error.instance_path)}: {error.message}"
            for error in validator.iter_errors(item)
        ]
    try:
        kubernetes_validate.validate(item, KUBERNETES_VERSION, strict=True)
    except kubernetes_validate.ValidationError as error:
        return [f"{'.'.join(str(part) for part in error.path)}: {error.message}"]
    except kubernetes_validate.SchemaNotFoundError:
        kind = f"{item.get('apiVersion')} {item.get('kind')}"
        return [f"no schema for {kind} in Kubernetes {KUBERNETES_VERSION}, nor in CUSTOM_SCHEMAS"]
    return []


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--kubectl", default="kubectl")
    kubectl = shutil.which(parser.parse_args().kubectl)
    if kubectl is None:
        print(
            "make k8s-check needs kubectl (its `kubectl kustomize` renders the manifests): "
            "apt-get install kubectl, or a release from https://kubernetes.io/docs/tasks/tools/",
            file=sys.stderr,
        )
        return 2
    failed = False
    directories = kustomizations()
    if not directories:
        print(f"no kustomization under {HERE.relative_to(ROOT)}", file=sys.stderr)
        return 1
    for directory in directories:
        items = render(kubectl, directory)
        name = directory.relative_to(ROOT)
        found = [
            f"  {item.get('kind')}/{item.get('metadata', {}).get('name')}: {problem}"
            for item in items
            for problem in problems(item)
        ]
        if not items:
            found.append("  renders no object")
        if found:
            failed = True
            print(f"{name}: INVALID", *found, sep="\n")
        else:
            kinds = ", ".join(sorted({str(item["kind"]) for item in items}))
            objects = f"{len(items)} object{'' if len(items) == 1 else 's'}"
            print(
                f"{name}: {objects} valid against Kubernetes {KUBERNETES_VERSION} (strict) "
                f"and the custom schemas ({kinds})"
            )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
