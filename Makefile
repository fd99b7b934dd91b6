# The two commands of the quick start are `make run` and `make test`; both build .venv first.
# With DATABASE_URL / REDIS_URL unset they start an embedded PostgreSQL and Redis under var/.

PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-stamp
SERVICES := $(PY) -m config.devservers exec --
# Tests and benchmarks may lose their data in a power cut: their servers skip fsync.
FAST_SERVICES := $(PY) -m config.devservers exec --fast --
PORT ?= 8000
export PORT

.PHONY: install run test test-web lint format bench lock services-stop clean

install: $(STAMP)

$(STAMP): requirements.lock pyproject.toml
	@test -x $(PY) || { echo "creating $(VENV)"; $(PYTHON) -m venv $(VENV); }
	$(PY) -m pip install --disable-pip-version-check --progress-bar on -r requirements.lock
	@touch $@

# Every `exec` here makes its command the child that the one before waits for, so that a
# SIGTERM or Ctrl-C stops honcho's processes first and the servers only after them.
run: $(STAMP)
	export PATH="$(CURDIR)/$(VENV)/bin:$$PATH"; exec $(SERVICES) sh -c 'python manage.py migrate --noinput && exec honcho start --port $(PORT)'

test: $(STAMP)
	$(FAST_SERVICES) $(PY) -m pytest $(PYTEST_ARGS)

# The web client in a real Chromium (tests/web/): Debian's /usr/bin/chromium when installed
# (`apt-get install chromium`), else Playwright's own (`.venv/bin/playwright install chromium`).
test-web: $(STAMP)
	$(FAST_SERVICES) $(PY) -m pytest tests/web -m web $(PYTEST_ARGS)

lint: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy .
	$(VENV)/bin/lint-imports

format: $(STAMP)
	$(VENV)/bin/ruff check --fix .
	$(VENV)/bin/ruff format .

bench: $(STAMP)
	$(FAST_SERVICES) $(PY) -m bench

# Re-pin every dependency after editing pyproject.toml.
lock: $(STAMP)
	$(PY) -m pip install --disable-pip-version-check -e '.[dev]'
	$(PY) -m pip freeze --exclude-editable | grep -v '^-e' > requirements.lock

services-stop: $(STAMP)
	$(PY) -m config.devservers stop

clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache .pytest_cache
