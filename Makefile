# The two commands of the quick start are `make run` and `make test`; both build .venv first.
# With DATABASE_URL / REDIS_URL unset they start an embedded PostgreSQL and Redis under var/.

PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-stamp
SERVICES := $(PY) -m config.devservers exec --
PORT ?= 8000
export PORT

.PHONY: install run test lint format bench lock services-stop clean

install: $(STAMP)

$(STAMP): requirements.lock pyproject.toml
	@test -x $(PY) || { echo "creating $(VENV)"; $(PYTHON) -m venv $(VENV); }
	$(PY) -m pip install --disable-pip-version-check --progress-bar on -r requirements.lock
	@touch $@

run: $(STAMP)
	PATH="$(CURDIR)/$(VENV)/bin:$$PATH" $(SERVICES) sh -c 'python manage.py migrate --noinput && honcho start --port $(PORT)'

test: $(STAMP)
	$(SERVICES) $(PY) -m pytest $(PYTEST_ARGS)

lint: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy .

format: $(STAMP)
	$(VENV)/bin/ruff check --fix .
	$(VENV)/bin/ruff format .

bench: $(STAMP)
	$(SERVICES) $(PY) -m bench

# Re-pin every dependency after editing pyproject.toml.
lock: $(STAMP)
	$(PY) -m pip install --disable-pip-version-check -e '.[dev]'
	$(PY) -m pip freeze --exclude-editable | grep -v '^-e' > requirements.lock

services-stop: $(STAMP)
	$(PY) -m config.devservers stop

clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache .pytest_cache
